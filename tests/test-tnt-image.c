/* test-tnt-image.c: TNT image and heightmap imports, the minimap, the feature
 * overlay, and edits of the corpus maps
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Fixtures are built in code (test-tnt-edit-fixture.c); the corpus tests
 * edit ban.tnt and bar.tnt from TERRAIN_CORPUS_DIR/ta/maps when that folder
 * exists and check that exactly the intended bytes change and that undo
 * restores the original bytes.
 */

#include "config.h"

#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"
#include "test-tnt-edit-fixture.h"

/* Images                                                                   */

static void
test_import_image (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = fixture_map (&original);
  g_autoptr(TerrainTntMap) other = NULL;
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(TerrainPalette) palette = test_palette ();
  g_autoptr(TerrainImage) picture = NULL;
  g_autoptr(TerrainImage) rendered = NULL;
  g_autoptr(TerrainImage) small = NULL;
  g_autoptr(GBytes) png = NULL;
  g_autoptr(TerrainImage) loaded = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GError) error = NULL;
  TerrainCommand *command;
  guint8 tile[TERRAIN_TNT_TILE_BYTES];

  /* Render a map whose tile set holds a duplicate and an unused tile; the
   * import keeps the three distinct tiles in use. */
  other = fixture_map (NULL);
  fill_tile (tile, 1);
  terrain_tnt_map_add_tile (other, tile);           /* 4: a copy of tile 1 */
  fill_tile (tile, 9);
  terrain_tnt_map_add_tile (other, tile);           /* 5: never used */
  terrain_tnt_map_set_tile_index (other, 0, 0, 4);
  terrain_tnt_map_set_tile_index (other, 7, 5, 3);
  picture = terrain_tnt_map_render (other, palette, &error);
  g_assert_no_error (error);

  /* Through PNG and back, as the CLI does. */
  png = terrain_image_save_png_bytes (picture, &error);
  g_assert_no_error (error);
  loaded = terrain_image_load_png_bytes (png, &error);
  g_assert_no_error (error);

  command = terrain_tnt_edit_new_import_image (map, loaded, palette, TERRAIN_DITHER_NONE,
                                               TERRAIN_TNT_IMPORT_NONE, &error);
  g_assert_no_error (error);
  execute (stack, command);
  g_assert_cmpuint (terrain_tnt_map_get_n_tiles (map), ==, 4);
  g_assert_cmpstr (terrain_tnt_edit_get_report (top_edit (stack)), ==,
                   "256x192 pixels: 48 tile positions, 4 unique tiles (the map had 4)");
  /* Tiles in order of first appearance: (0, 0) is tile 1's graphics. */
  fill_tile (tile, 1);
  g_assert_cmpmem (terrain_tnt_map_get_tile (map, 0), TERRAIN_TNT_TILE_BYTES, tile,
                   TERRAIN_TNT_TILE_BYTES);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 0, 0), ==, 0);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 1, 0), ==, 0);
  rendered = terrain_tnt_map_render (map, palette, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (terrain_image_get_data (rendered, NULL), 256 * 192 * 4,
                   terrain_image_get_data (picture, NULL), 256 * 192 * 4);

  /* A picture of the wrong size is refused. */
  small = terrain_image_new (TERRAIN_IMAGE_RGBA8, 255, 192, &error);
  g_assert_null (terrain_tnt_edit_new_import_image (map, small, palette, TERRAIN_DITHER_NONE,
                                                    TERRAIN_TNT_IMPORT_NONE, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "255x192 pixels, but the map is 256x192 pixels"));

  terrain_command_stack_undo (stack);
  undone = save (map);
  terrain_test_assert_bytes_equal (original, undone);
}

static void
test_import_image_keep_tiles (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = fixture_map (&original);
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(TerrainPalette) palette = test_palette ();
  g_autoptr(TerrainImage) picture = NULL;
  g_autoptr(GBytes) same = NULL;
  g_autoptr(GBytes) touched = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GError) error = NULL;
  guint8 *pixels;
  gsize stride;

  /* The map's own picture, re-imported keeping the tiles: no byte changes,
   * although the fixture's tile set is not in first-appearance order. */
  picture = terrain_tnt_map_render (map, palette, &error);
  g_assert_no_error (error);
  execute (stack, terrain_tnt_edit_new_import_image (map, picture, palette, TERRAIN_DITHER_NONE,
                                                     TERRAIN_TNT_IMPORT_KEEP_TILES, &error));
  g_assert_cmpstr (terrain_tnt_edit_get_report (top_edit (stack)), ==,
                   "256x192 pixels: 0 of 48 tile positions changed, 0 new tiles (the map had 4)");
  same = save (map);
  terrain_test_assert_bytes_equal (original, same);

  /* Touch up one 32x32 position with new pixels, and copy tile (1, 0) over
   * position (2, 0): one new tile, two entries change. */
  pixels = terrain_image_get_data (picture, NULL);
  stride = terrain_image_get_stride (picture);
  for (guint y = 0; y < 32; y++)
    {
      memset (pixels + (gsize) (64 + y) * stride + 5 * 32 * 4, 0x40, 32 * 4);
      memcpy (pixels + (gsize) y * stride + 2 * 32 * 4, pixels + (gsize) y * stride + 32 * 4,
              32 * 4);
    }
  execute (stack, terrain_tnt_edit_new_import_image (map, picture, palette, TERRAIN_DITHER_NONE,
                                                     TERRAIN_TNT_IMPORT_KEEP_TILES, &error));
  g_assert_cmpstr (terrain_tnt_edit_get_report (top_edit (stack)), ==,
                   "256x192 pixels: 2 of 48 tile positions changed, 1 new tile (the map had 4)");
  g_assert_cmpuint (terrain_tnt_map_get_n_tiles (map), ==, 5);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 5, 2), ==, 4);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 2, 0), ==, 1);
  touched = save (map);
  g_assert_cmpuint (g_bytes_get_size (touched), ==, g_bytes_get_size (original) + 1024);

  undo_all (stack);
  undone = save (map);
  terrain_test_assert_bytes_equal (original, undone);
}

static void
test_import_heightmap (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = fixture_map (&original);
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(TerrainImage) heights = NULL;
  g_autoptr(TerrainImage) gray8 = NULL;
  g_autoptr(TerrainImage) colour = NULL;
  g_autoptr(GBytes) same = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GArray) diff = NULL;
  g_autoptr(GError) error = NULL;
  guint8 *data;

  /* An exported heightmap imports exactly: nothing changes. */
  heights = terrain_document_export_heights (TERRAIN_DOCUMENT (map), &error);
  g_assert_no_error (error);
  execute (stack, terrain_tnt_edit_new_import_heightmap (map, heights, &error));
  g_assert_cmpstr (terrain_tnt_edit_get_report (top_edit (stack)), ==,
                   "16x12 heights: 0 cells changed");
  same = save (map);
  terrain_test_assert_bytes_equal (original, same);

  /* An 8-bit heightmap: only height bytes change. */
  gray8 = terrain_image_new (TERRAIN_IMAGE_GRAY8, 16, 12, &error);
  data = terrain_image_get_data (gray8, NULL);
  for (guint i = 0; i < 16 * 12; i++)
    data[i] = (guint8) (i % 7 == 0 ? 250 : 20 + (i % 16) * 7 + (i / 16) * 3);
  execute (stack, terrain_tnt_edit_new_import_heightmap (map, gray8, &error));
  g_assert_cmpstr (terrain_tnt_edit_get_report (top_edit (stack)), ==,
                   "16x12 heights: 28 cells changed");
  edited = save (map);
  diff = differences (original, edited);
  g_assert_cmpuint (diff->len, ==, 28);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 7, 0), ==, 250);

  /* RGBA must be grey; sizes must match. */
  colour = terrain_image_new (TERRAIN_IMAGE_RGBA8, 16, 12, &error);
  terrain_image_get_data (colour, NULL)[4 * 20] = 1;
  g_assert_null (terrain_tnt_edit_new_import_heightmap (map, colour, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "pixel (x=4, y=1) is not grey"));
  g_clear_error (&error);
  g_clear_pointer (&colour, terrain_image_unref);
  colour = terrain_image_new (TERRAIN_IMAGE_GRAY8, 17, 12, &error);
  g_assert_null (terrain_tnt_edit_new_import_heightmap (map, colour, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);

  undo_all (stack);
  undone = save (map);
  terrain_test_assert_bytes_equal (original, undone);
}

static void
test_minimap_fixture (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (64, 64, &error);
  g_autoptr(TerrainTntMap) tiny = terrain_tnt_map_new (2, 2, &error);
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(TerrainPalette) palette = test_palette ();
  g_autofree guint8 *pixels = NULL;
  const guint8 *stored;
  guint8 tile[TERRAIN_TNT_TILE_BYTES];
  guint width, height, used_w, used_h;

  /* Left half tile 1 (all index 10), right half tile 2 (all index 200). */
  memset (tile, 10, sizeof tile);
  terrain_tnt_map_add_tile (map, tile);
  memset (tile, 200, sizeof tile);
  terrain_tnt_map_add_tile (map, tile);
  for (guint row = 0; row < 32; row++)
    for (guint column = 0; column < 32; column++)
      terrain_tnt_map_set_tile_index (map, column, row, column < 16 ? 1 : 2);

  /* 1024x1024 pixels: PlayRight 992 >= PlayBottom 896, so the used height
   * is 896 * 252 / 992 = 227 (truncated). */
  terrain_tnt_map_get_minimap_crop (map, 252, 252, &used_w, &used_h);
  g_assert_cmpuint (used_w, ==, 252);
  g_assert_cmpuint (used_h, ==, 227);

  execute (stack, terrain_tnt_edit_new_regenerate_minimap (map, palette));
  stored = terrain_tnt_map_get_minimap (map, &width, &height);
  g_assert_cmpuint (width, ==, 252);
  g_assert_cmpuint (height, ==, 252);
  for (guint y = 0; y < 252; y++)
    for (guint x = 0; x < 252; x++)
      {
        guint8 v = stored[y * 252 + x];
        /* Map pixel 512 (the colour boundary) falls in minimap column
         * 512 * 252 / 992 = 130: a blend quantised to its nearest entry. */
        if (y >= 227)
          g_assert_cmpuint (v, ==, TERRAIN_PALETTE_MINIMAP_FILL);
        else if (x < 130)
          g_assert_cmpuint (v, ==, 10);
        else if (x > 130)
          g_assert_cmpuint (v, ==, 200);
      }
  g_assert_nonnull (strstr (terrain_tnt_edit_get_report (top_edit (stack)),
                            "regenerated the 252x252 minimap (used 252x227)"));

  terrain_command_stack_undo (stack);
  stored = terrain_tnt_map_get_minimap (map, &width, &height);
  g_assert_cmpuint (stored[0], ==, 0);

  /* Too small for the margins: the whole picture fills the bitmap. */
  pixels = terrain_tnt_map_compute_minimap (tiny, palette, 4, 4);
  for (guint i = 0; i < 16; i++)
    g_assert_cmpuint (pixels[i], ==, 0);
}

static void
test_feature_overlay (void)
{
  g_autoptr(TerrainTntMap) map = fixture_map (NULL);
  g_autoptr(TerrainPalette) palette = test_palette ();
  g_autoptr(TerrainImage) full = NULL;
  g_autoptr(TerrainImage) small = NULL;
  g_autoptr(TerrainImage) plain = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *a, *b;
  gsize stride;

  full = terrain_tnt_map_render_features (map, palette, footprint_lookup, NULL, 16, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_image_get_width (full), ==, 256);
  g_assert_cmpuint (terrain_image_get_height (full), ==, 192);
  plain = terrain_tnt_map_render (map, palette, &error);
  g_assert_no_error (error);

  /* Untouched cells show the map; footprint cells are tinted. */
  a = terrain_image_get_data (full, NULL);
  b = terrain_image_get_data (plain, NULL);
  stride = terrain_image_get_stride (full);
  g_assert_cmpmem (a + 3 * 16 * stride + 3 * 16 * 4, 4, b + 3 * 16 * stride + 3 * 16 * 4, 4);
  g_assert_true (memcmp (a + 5 * 16 * stride + 5 * 16 * 4, b + 5 * 16 * stride + 5 * 16 * 4, 3)
                 != 0);
  g_assert_true (memcmp (a + 6 * 16 * stride + 6 * 16 * 4, b + 6 * 16 * stride + 6 * 16 * 4, 3)
                 != 0);

  /* One pixel per cell, heights as background without a palette. */
  small = terrain_tnt_map_render_features (map, NULL, NULL, NULL, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_image_get_width (small), ==, 16);
  a = terrain_image_get_data (small, NULL);
  g_assert_cmpuint (a[4 * (2 * 16 + 3)], ==, 20 + 3 * 7 + 2 * 3);

  g_assert_null (terrain_tnt_map_render_features (map, palette, NULL, NULL, 17, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
}

/* ------------------------------------------------------------------------ */
/* Corpus: ban.tnt and bar.tnt                                              */

static TerrainTntMap *
load_corpus_map (const char  *name,
                 GBytes     **original)
{
  g_autofree char *relative = g_build_filename ("ta", "maps", name, NULL);
  g_autofree char *path = terrain_test_corpus_path (relative);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  TerrainTntMap *map;

  if (path == NULL)
    {
      g_test_skip ("corpus map not found (TERRAIN_CORPUS_DIR/ta/maps)");
      return NULL;
    }
  file = g_file_new_for_path (path);
  map = terrain_tnt_map_new_from_file (file, NULL, NULL, &error);
  g_assert_no_error (error);
  *original = g_bytes_ref (terrain_document_get_source_bytes (TERRAIN_DOCUMENT (map)));
  return map;
}

static TerrainPalette *
load_corpus_palette (void)
{
  g_autofree char *relative = g_build_filename ("ta", "PALETTE.PAL", NULL);
  g_autofree char *path = terrain_test_corpus_path (relative);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  TerrainPalette *palette;

  if (path == NULL)
    return NULL;
  file = g_file_new_for_path (path);
  palette = terrain_palette_new_from_file (file, NULL, &error);
  g_assert_no_error (error);
  return palette;
}

/* An empty cell whose 3x3 surroundings are empty, searched from (x, y). */
static gboolean
find_empty_spot (TerrainTntMap *map,
                 guint          start_x,
                 guint          start_y,
                 guint         *out_x,
                 guint         *out_y)
{
  guint width = terrain_tnt_map_get_width (map), height = terrain_tnt_map_get_height (map);

  for (guint y = MAX (start_y, 1); y + 1 < height; y++)
    for (guint x = MAX (start_x, 1); x + 1 < width; x++)
      {
        gboolean empty = TRUE;

        for (guint dy = 0; dy < 3 && empty; dy++)
          for (guint dx = 0; dx < 3 && empty; dx++)
            empty = terrain_tnt_map_get_cell_feature (map, x - 1 + dx, y - 1 + dy) ==
                    TERRAIN_TNT_FEATURE_NONE;
        if (empty)
          {
            *out_x = x;
            *out_y = y;
            return TRUE;
          }
      }
  return FALSE;
}

static void
test_corpus_edits (gconstpointer data)
{
  const char *name = data;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = load_corpus_map (name, &original);
  g_autoptr(TerrainCommandStack) stack = NULL;
  g_autoptr(GBytes) after_sea = NULL;
  g_autoptr(GBytes) after_move = NULL;
  g_autoptr(GBytes) after_brush = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;
  g_autoptr(GArray) diff = NULL;
  g_autoptr(GArray) placements = NULL;
  g_autoptr(GError) error = NULL;
  TerrainTntBrush brush = { TERRAIN_TNT_BRUSH_RAISE, 4, 6, TERRAIN_TNT_FALLOFF_SMOOTH, 0 };
  TerrainTntPlacement feature;
  guint32 sea;
  guint to_x = 0, to_y = 0, bx, by, n_brushed;
  gsize attributes, anchor_from, anchor_to;

  if (map == NULL)
    return;
  stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  attributes = attribute_offset (map, 0, 0);

  /* 1. Sea level: only the SeaLevel word's low byte (values below 256). */
  sea = terrain_tnt_map_get_sea_level (map);
  execute (stack, terrain_tnt_edit_new_sea_level (map, sea == 40 ? 41 : 40));
  after_sea = save (map);
  diff = differences (original, after_sea);
  g_assert_cmpuint (diff->len, ==, 1);
  g_assert_cmpuint (g_array_index (diff, gsize, 0), ==, 0x24);
  g_clear_pointer (&diff, g_array_unref);

  /* 2. Move the first placed feature to an empty spot: exactly the feature
   * words of the two anchor cells change (1x1 footprints, no definitions). */
  placements = terrain_tnt_map_list_placements (map);
  g_assert_cmpuint (placements->len, >, 0);
  feature = g_array_index (placements, TerrainTntPlacement, 0);
  g_assert_true (find_empty_spot (map, feature.x + 5, feature.y + 5, &to_x, &to_y));
  execute (stack, terrain_tnt_edit_new_move_feature (map, feature.x, feature.y, to_x, to_y,
                                                     NULL, NULL, NULL));
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, to_x, to_y), ==, feature.feature);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, feature.x, feature.y), ==,
                    TERRAIN_TNT_FEATURE_NONE);
  g_test_message ("%s: moved feature %u (%s) from (%u, %u) to (%u, %u)", name, feature.feature,
                  terrain_tnt_map_get_feature_name (map, feature.feature), feature.x, feature.y,
                  to_x, to_y);
  after_move = save (map);
  diff = differences (after_sea, after_move);
  anchor_from = attributes + ((gsize) feature.y * terrain_tnt_map_get_width (map) + feature.x) * 4;
  anchor_to = attributes + ((gsize) to_y * terrain_tnt_map_get_width (map) + to_x) * 4;
  g_assert_cmpuint (diff->len, >=, 2);
  g_assert_cmpuint (diff->len, <=, 4);
  for (guint i = 0; i < diff->len; i++)
    {
      gsize offset = g_array_index (diff, gsize, i);

      g_assert_true (offset == anchor_from + 1 || offset == anchor_from + 2 ||
                     offset == anchor_to + 1 || offset == anchor_to + 2);
    }
  g_clear_pointer (&diff, g_array_unref);

  /* 3. Brush heights: only height bytes within the radius change. */
  bx = terrain_tnt_map_get_width (map) / 2;
  by = terrain_tnt_map_get_height (map) / 2;
  execute (stack, terrain_tnt_edit_new_brush (map, &brush, bx, by, 0));
  n_brushed = terrain_tnt_edit_get_n_changed_cells (top_edit (stack));
  after_brush = save (map);
  diff = differences (after_move, after_brush);
  g_assert_cmpuint (diff->len, ==, n_brushed);
  g_assert_cmpuint (n_brushed, >, 20);
  for (guint i = 0; i < diff->len; i++)
    {
      gsize rel = g_array_index (diff, gsize, i) - attributes;
      guint cell = (guint) (rel / 4);
      guint x = cell % terrain_tnt_map_get_width (map), y = cell / terrain_tnt_map_get_width (map);

      g_assert_cmpuint (rel % 4, ==, 0);
      g_assert_cmpfloat (hypot ((double) x - bx, (double) y - by), <=, 4.0);
    }
  g_test_message ("%s: brush changed %u height bytes", name, n_brushed);

  /* Undo everything: the original bytes exactly. Redo: the edited ones. */
  undo_all (stack);
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (map)));
  undone = save (map);
  terrain_test_assert_bytes_equal (original, undone);
  while (terrain_command_stack_redo (stack, &error))
    ;
  g_assert_no_error (error);
  redone = save (map);
  terrain_test_assert_bytes_equal (after_brush, redone);
}

static void
test_corpus_minimap (gconstpointer data)
{
  const char *name = data;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = load_corpus_map (name, &original);
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(TerrainCommandStack) stack = NULL;
  g_autofree guint8 *computed = NULL;
  g_autoptr(GBytes) regenerated = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GArray) diff = NULL;
  const guint8 *stored, *rgba;
  guint width, height, used_w, used_h, identical = 0, n = 0, max_distance = 0;
  double distance = 0, identical_share, mean_distance;
  gsize minimap_offset = 0, minimap_size = 0;

  if (map == NULL)
    return;
  palette = load_corpus_palette ();
  if (palette == NULL)
    {
      g_test_skip ("PALETTE.PAL not found in TERRAIN_CORPUS_DIR/ta");
      return;
    }
  rgba = terrain_palette_get_rgba_table (palette);

  stored = terrain_tnt_map_get_minimap (map, &width, &height);
  g_assert_nonnull (stored);
  terrain_tnt_map_get_minimap_used_size (map, &used_w, &used_h);
  computed = terrain_tnt_map_compute_minimap (map, palette, width, height);

  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        guint8 a = stored[y * width + x], b = computed[y * width + x];
        int dr = rgba[4 * a] - rgba[4 * b], dg = rgba[4 * a + 1] - rgba[4 * b + 1];
        int db = rgba[4 * a + 2] - rgba[4 * b + 2];
        guint d = (guint) sqrt ((double) (dr * dr + dg * dg + db * db));

        if (x >= used_w || y >= used_h)
          {
            /* Outside the used rectangle both are the fill. */
            g_assert_cmpuint (a, ==, TERRAIN_PALETTE_MINIMAP_FILL);
            g_assert_cmpuint (b, ==, TERRAIN_PALETTE_MINIMAP_FILL);
            continue;
          }
        identical += a == b;
        distance += sqrt ((double) (dr * dr + dg * dg + db * db));
        max_distance = MAX (max_distance, d);
        n++;
      }

  identical_share = 100.0 * identical / n;
  mean_distance = distance / n;
  g_test_message ("%s: regenerated minimap vs stored, used %ux%u of %ux%u: %.2f%% of pixels "
                  "identical, mean RGB distance %.3f, max %u",
                  name, used_w, used_h, width, height, identical_share, mean_distance,
                  max_distance);
  /* Measured: ban 99.5% / 0.15, bar 99.9% / 0.02. */
  g_assert_cmpfloat (identical_share, >=, 99.0);
  g_assert_cmpfloat (mean_distance, <=, 0.5);

  /* As an edit: only minimap pixels change; undo restores the bytes. */
  stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  execute (stack, terrain_tnt_edit_new_regenerate_minimap (map, palette));
  g_test_message ("%s: %s", name, terrain_tnt_edit_get_report (top_edit (stack)));
  regenerated = save (map);
  diff = differences (original, regenerated);
  g_assert_true (terrain_tnt_map_get_section_span (map, TERRAIN_TNT_SECTION_MINIMAP,
                                                   &minimap_offset, &minimap_size));
  g_assert_cmpuint (diff->len, ==, n - identical);
  for (guint i = 0; i < diff->len; i++)
    {
      gsize offset = g_array_index (diff, gsize, i);

      g_assert_cmpuint (offset, >=, minimap_offset + 8);
      g_assert_cmpuint (offset, <, minimap_offset + minimap_size);
    }
  terrain_command_stack_undo (stack);
  undone = save (map);
  terrain_test_assert_bytes_equal (original, undone);
}

static void
test_corpus_failed_save (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = load_corpus_map ("ban.tnt", &original);

  if (map == NULL)
    return;
  check_failed_save (map, original);
}

static void
test_corpus_resize (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = load_corpus_map ("bar.tnt", &original);
  g_autoptr(TerrainCommandStack) stack = NULL;
  g_autoptr(GBytes) resized = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(TerrainTntMap) reread = NULL;
  g_autoptr(GError) error = NULL;
  guint width;

  if (map == NULL)
    return;
  width = terrain_tnt_map_get_width (map);
  stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  execute (stack, terrain_tnt_edit_new_resize (map, 2, 2, 2, 2, 0, 0));
  resized = save (map);
  reread = terrain_tnt_map_new_from_bytes (resized, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_tnt_map_get_width (reread), ==, width + 4);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (reread, 2, 2), ==,
                    terrain_tnt_map_get_cell_height (map, 2, 2));
  terrain_command_stack_undo (stack);
  undone = save (map);
  terrain_test_assert_bytes_equal (original, undone);
}

static void
test_corpus_import_image (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = load_corpus_map ("bar.tnt", &original);
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(TerrainCommandStack) stack = NULL;
  g_autoptr(TerrainImage) picture = NULL;
  g_autoptr(GBytes) same = NULL;
  g_autoptr(GBytes) touched = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GError) error = NULL;
  gsize tile_map_offset = 0, stride;
  guint8 *pixels;
  guint n_tiles;

  if (map == NULL)
    return;
  if ((palette = load_corpus_palette ()) == NULL)
    {
      g_test_skip ("PALETTE.PAL not found in TERRAIN_CORPUS_DIR/ta");
      return;
    }
  stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  n_tiles = terrain_tnt_map_get_n_tiles (map);
  g_assert_true (terrain_tnt_map_get_section_span (map, TERRAIN_TNT_SECTION_TILE_MAP,
                                                   &tile_map_offset, NULL));

  /* The map's own picture changes nothing, although PALETTE.PAL holds
   * colours twice and quantising does not give every index back. */
  picture = terrain_tnt_map_render (map, palette, &error);
  g_assert_no_error (error);
  execute (stack, terrain_tnt_edit_new_import_image (map, picture, palette, TERRAIN_DITHER_NONE,
                                                     TERRAIN_TNT_IMPORT_KEEP_TILES, &error));
  g_test_message ("bar.tnt: %s", terrain_tnt_edit_get_report (top_edit (stack)));
  same = save (map);
  terrain_test_assert_bytes_equal (original, same);

  /* Touch up one 32x32 position: its tile map entry changes and one tile
   * is appended; everything else before the tiles stays. */
  pixels = terrain_image_get_data (picture, NULL);
  stride = terrain_image_get_stride (picture);
  for (guint y = 0; y < 32; y++)
    for (guint x = 0; x < 32; x++)
      {
        guint8 *p = pixels + (gsize) (10 * 32 + y) * stride + (gsize) (20 * 32 + x) * 4;

        p[0] = (guint8) (x * 8);
        p[1] = (guint8) (y * 8);
        p[2] = 128;
      }
  execute (stack, terrain_tnt_edit_new_import_image (map, picture, palette, TERRAIN_DITHER_NONE,
                                                     TERRAIN_TNT_IMPORT_KEEP_TILES, &error));
  g_assert_cmpuint (terrain_tnt_map_get_n_tiles (map), ==, n_tiles + 1);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 20, 10), ==, n_tiles);
  touched = save (map);
  {
    const guint8 *a = g_bytes_get_data (original, NULL), *b = g_bytes_get_data (touched, NULL);
    gsize entry = tile_map_offset + 2 * ((gsize) 10 * terrain_tnt_map_get_tile_columns (map) + 20);
    gsize tiles_offset = 0;

    g_assert_true (terrain_tnt_map_get_section_span (map, TERRAIN_TNT_SECTION_TILES,
                                                     &tiles_offset, NULL));
    for (gsize i = HEADER_BYTES; i < tiles_offset; i++)
      if (i != entry && i != entry + 1)
        g_assert_cmpuint (a[i], ==, b[i]);
  }

  undo_all (stack);
  undone = save (map);
  terrain_test_assert_bytes_equal (original, undone);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/TntEdit/import-image", test_import_image);
  g_test_add_func ("/Terrain/TntEdit/import-image-keep-tiles", test_import_image_keep_tiles);
  g_test_add_func ("/Terrain/TntEdit/import-heightmap", test_import_heightmap);
  g_test_add_func ("/Terrain/TntEdit/minimap", test_minimap_fixture);
  g_test_add_func ("/Terrain/TntEdit/feature-overlay", test_feature_overlay);
  g_test_add_data_func ("/Terrain/TntEdit/corpus/edits/ban", "ban.tnt", test_corpus_edits);
  g_test_add_data_func ("/Terrain/TntEdit/corpus/edits/bar", "bar.tnt", test_corpus_edits);
  g_test_add_data_func ("/Terrain/TntEdit/corpus/minimap/ban", "ban.tnt", test_corpus_minimap);
  g_test_add_data_func ("/Terrain/TntEdit/corpus/minimap/bar", "bar.tnt", test_corpus_minimap);
  g_test_add_func ("/Terrain/TntEdit/corpus/failed-save", test_corpus_failed_save);
  g_test_add_func ("/Terrain/TntEdit/corpus/resize", test_corpus_resize);
  g_test_add_func ("/Terrain/TntEdit/corpus/import-image", test_corpus_import_image);

  return g_test_run ();
}
