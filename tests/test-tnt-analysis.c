/* test-tnt-analysis.c: TNT map occupancy, the minimap, rendering, validation and description
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Fixtures from test-tnt-fixture.c (tnt-sct.md).
 */

#include "config.h"

#include <string.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"

#include "test-tnt-fixture.h"

/* ------------------------------------------------------------------------ */
/* Occupancy                                                                */

static gboolean
lookup_footprint (const char *name,
                  guint      *fx,
                  guint      *fz,
                  gpointer    user_data)
{
  if (g_ascii_strcasecmp (name, "Big") == 0)
    {
      *fx = 3;
      *fz = 3;
      return TRUE;
    }
  if (g_ascii_strcasecmp (name, "Wide") == 0)
    {
      *fx = 2;
      *fz = 1;
      return TRUE;
    }
  return FALSE;
}

static gboolean
find_issue (GPtrArray  *issues,
            const char *text,
            gint        x,
            gint        y)
{
  for (guint i = 0; i < issues->len; i++)
    {
      TerrainIssue *issue = g_ptr_array_index (issues, i);
      gint ix, iy;

      if (strstr (terrain_issue_get_message (issue), text) == NULL)
        continue;
      if (!terrain_issue_get_position (issue, &ix, &iy) || ix != x || iy != y)
        continue;
      g_assert_cmpint (terrain_issue_get_severity (issue), ==, TERRAIN_SEVERITY_WARNING);
      return TRUE;
    }
  return FALSE;
}

#define OCC(x, y) occupancy[(y) * 8 + (x)]
#define OWN(x, y) owners[(y) * 8 + (x)]

static void
test_occupancy (void)
{
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (8, 8, NULL);
  g_autoptr(GPtrArray) issues =
    g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  g_autofree guint16 *occupancy = NULL;
  g_autofree guint16 *owners = NULL;
  guint big, rock, wide;

  big = terrain_tnt_map_add_feature_name (map, "Big");
  rock = terrain_tnt_map_add_feature_name (map, "Rock");
  wide = terrain_tnt_map_add_feature_name (map, "wide");

  /* A 3x3 anchored at (1,1), authored with fringe around it except (3,3),
   * which is left 0xFFFF and must become fringe. */
  terrain_tnt_map_set_cell_feature (map, 1, 1, (guint16) big, NULL);
  for (guint y = 1; y <= 3; y++)
    for (guint x = 1; x <= 3; x++)
      if ((x != 1 || y != 1) && (x != 3 || y != 3))
        terrain_tnt_map_set_cell_feature (map, x, y, TERRAIN_TNT_FEATURE_FRINGE, NULL);
  /* Authored fringe nothing covers: becomes empty */
  terrain_tnt_map_set_cell_feature (map, 6, 6, TERRAIN_TNT_FEATURE_FRINGE, NULL);
  /* Void stamped first, then a 3x3 at (0,4) that would cover it */
  terrain_tnt_map_set_cell_feature (map, 1, 5, TERRAIN_TNT_FEATURE_VOID, NULL);
  terrain_tnt_map_set_cell_feature (map, 0, 4, (guint16) big, NULL);
  /* A 3x3 at (5,0) whose footprint covers a rock anchored at (6,1) */
  terrain_tnt_map_set_cell_feature (map, 5, 0, (guint16) big, NULL);
  terrain_tnt_map_set_cell_feature (map, 6, 1, (guint16) rock, NULL);
  /* Off the edge */
  terrain_tnt_map_set_cell_feature (map, 7, 7, (guint16) wide, NULL);
  /* Beyond the feature table */
  terrain_tnt_map_set_cell_feature (map, 4, 7, 50, NULL);
  /* Reserved words that stamp nothing */
  terrain_tnt_map_set_cell_feature (map, 5, 5, 0xFFFB, NULL);
  terrain_tnt_map_set_cell_feature (map, 6, 5, 0xFFFD, NULL);

  occupancy = terrain_tnt_map_build_occupancy (map, lookup_footprint, NULL, &owners, issues);

  /* The 3x3 at (1,1) */
  g_assert_cmphex (OCC (1, 1), ==, big);
  g_assert_cmphex (OWN (1, 1), ==, big);
  for (guint y = 1; y <= 3; y++)
    for (guint x = 1; x <= 3; x++)
      if (x != 1 || y != 1)
        {
          g_assert_cmphex (OCC (x, y), ==, TERRAIN_TNT_FEATURE_FRINGE);
          g_assert_cmphex (OWN (x, y), ==, big);
        }
  g_assert_cmphex (OCC (4, 1), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_cmphex (OWN (4, 1), ==, TERRAIN_TNT_FEATURE_NONE);

  /* Uncovered authored fringe -> empty */
  g_assert_cmphex (OCC (6, 6), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_cmphex (OWN (6, 6), ==, TERRAIN_TNT_FEATURE_NONE);

  /* The void keeps its cell; the rest of the 3x3 at (0,4) is stamped */
  g_assert_cmphex (OCC (1, 5), ==, TERRAIN_TNT_FEATURE_VOID);
  g_assert_cmphex (OWN (1, 5), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_cmphex (OCC (0, 4), ==, big);
  g_assert_cmphex (OCC (2, 6), ==, TERRAIN_TNT_FEATURE_FRINGE);
  g_assert_true (find_issue (issues, "overlaps 1 occupied cell", 0, 4));

  /* The earlier 3x3 at (5,0) keeps (6,1); the rock is reported */
  g_assert_cmphex (OCC (5, 0), ==, big);
  g_assert_cmphex (OCC (6, 1), ==, TERRAIN_TNT_FEATURE_FRINGE);
  g_assert_cmphex (OWN (6, 1), ==, big);
  g_assert_cmphex (OCC (7, 2), ==, TERRAIN_TNT_FEATURE_FRINGE);
  g_assert_true (find_issue (issues, "overlaps", 6, 1));

  /* Clipped at the edge */
  g_assert_cmphex (OCC (7, 7), ==, wide);
  g_assert_true (find_issue (issues, "runs off", 7, 7));

  /* Beyond the table: skipped */
  g_assert_cmphex (OCC (4, 7), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_true (find_issue (issues, "names feature 50", 4, 7));

  /* 0xFFFB and 0xFFFD stamp nothing */
  g_assert_cmphex (OCC (5, 5), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_cmphex (OCC (6, 5), ==, TERRAIN_TNT_FEATURE_NONE);

  g_assert_cmpuint (issues->len, ==, 4);

  /* Without a lookup every feature is 1x1: no overlaps or clipping */
  {
    g_autofree guint16 *flat = NULL;
    g_autoptr(GPtrArray) flat_issues =
      g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);

    flat = terrain_tnt_map_build_occupancy (map, NULL, NULL, NULL, flat_issues);
    g_assert_cmphex (flat[1 * 8 + 2], ==, TERRAIN_TNT_FEATURE_NONE);
    g_assert_cmphex (flat[1 * 8 + 6], ==, rock);
    g_assert_cmphex (flat[5 * 8 + 1], ==, TERRAIN_TNT_FEATURE_VOID);
    g_assert_cmpuint (flat_issues->len, ==, 1);
  }
}

static void
test_occupancy_legacy (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autofree guint16 *occupancy = NULL;
  g_autofree guint16 *owners = NULL;
  g_autoptr(GPtrArray) issues =
    g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);

  spec_legacy (&spec);
  spec.reserved_words = TRUE;
  fixture_build (&fx, &spec);
  map = load_ok (fx.bytes);

  /* Feature0 at (1,1) as 1x1, Feature1 at (5,3); empty codes 0xFC..0xFF
   * stamp nothing (there is no legacy void). */
  occupancy = terrain_tnt_map_build_occupancy (map, NULL, NULL, &owners, issues);
  g_assert_cmphex (OCC (1, 1), ==, 0);
  g_assert_cmphex (OCC (5, 3), ==, 1);
  g_assert_cmphex (OWN (5, 3), ==, 1);
  for (guint x = 0; x < 4; x++)
    g_assert_cmphex (OCC (x, 5), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_cmpuint (issues->len, ==, 0);

  fixture_clear (&fx);
}

#undef OCC
#undef OWN

/* ------------------------------------------------------------------------ */
/* Minimap crop rule                                                        */

static void
check_used_size (guint width,
                 guint height,
                 guint stored_w,
                 guint stored_h,
                 guint expect_w,
                 guint expect_h)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (width, height, &error);
  g_autofree guint8 *pixels = g_malloc0 ((gsize) stored_w * stored_h);
  guint uw, uh;

  g_assert_no_error (error);
  g_assert_true (terrain_tnt_map_set_minimap (map, stored_w, stored_h, pixels, &error));
  g_assert_no_error (error);
  terrain_tnt_map_get_minimap_used_size (map, &uw, &uh);
  g_assert_cmpuint (uw, ==, expect_w);
  g_assert_cmpuint (uh, ==, expect_h);

  /* update_minimap keeps the stored size and fills exactly the rest */
  terrain_tnt_map_update_minimap (map, terrain_test_grey_palette ());
  {
    guint mw, mh;
    const guint8 *mm = terrain_tnt_map_get_minimap (map, &mw, &mh);

    g_assert_cmpuint (mw, ==, stored_w);
    g_assert_cmpuint (mh, ==, stored_h);
    for (guint y = 0; y < mh; y++)
      for (guint x = 0; x < mw; x++)
        g_assert_cmpuint (mm[y * mw + x], ==, (x < uw && y < uh) ? 0 : 0x64);
  }
}

/* One play-area rule and one minimap generator: update_minimap, the
 * rendering of a map without a minimap and compute_minimap agree, and the
 * generator box-averages (a minimap pixel covering two tiles of distinct
 * greys is their mean, not one of them). */
static void
test_minimap_one_generator (void)
{
  TerrainPalette *grey = terrain_test_grey_palette ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (64, 64, &error);
  g_autoptr(TerrainImage) rendered = NULL;
  g_autofree guint8 *computed = NULL;
  guint8 dark[TERRAIN_TNT_TILE_BYTES], light[TERRAIN_TNT_TILE_BYTES];
  guint play_w, play_h, w, h, dark_index, light_index;
  const guint8 *stored, *rgba;

  g_assert_no_error (error);
  g_assert_true (terrain_tnt_map_get_play_area (map, &play_w, &play_h));
  g_assert_cmpuint (play_w, ==, 64 * 16 - 32);
  g_assert_cmpuint (play_h, ==, 64 * 16 - 128);

  /* Columns of tiles alternate 40 and 200: 992 play pixels into 252 minimap
   * pixels make boxes of 3 or 4 map pixels, some across a tile edge. */
  memset (dark, 40, sizeof dark);
  memset (light, 200, sizeof light);
  dark_index = terrain_tnt_map_add_tile (map, dark);
  light_index = terrain_tnt_map_add_tile (map, light);
  for (guint row = 0; row < 32; row++)
    for (guint column = 0; column < 32; column++)
      terrain_tnt_map_set_tile_index (map, column, row,
                                      (guint16) (column % 2 ? light_index : dark_index));

  terrain_tnt_map_update_minimap (map, grey);
  stored = terrain_tnt_map_get_minimap (map, &w, &h);
  computed = terrain_tnt_map_compute_minimap (map, grey, w, h);
  g_assert_cmpmem (stored, (gsize) w * h, computed, (gsize) w * h);
  {
    gboolean mixed = FALSE;

    for (guint x = 0; x < w; x++)
      mixed |= stored[x] != 40 && stored[x] != 200 && stored[x] != TERRAIN_PALETTE_MINIMAP_FILL;
    g_assert_true (mixed);
  }

  /* A map without a minimap renders the one the generator makes. */
  {
    Spec spec;
    Fixture fx;
    g_autoptr(TerrainTntMap) bare = NULL;
    g_autofree guint8 *generated = NULL;

    spec_default (&spec);
    spec.flag = 0;
    spec.minimap_pointer = 0xFFFFFFFF;
    fixture_build (&fx, &spec);
    bare = load_ok (fx.bytes);
    g_assert_null (terrain_tnt_map_get_minimap (bare, NULL, NULL));
    rendered = terrain_tnt_map_render_minimap (bare, grey, FALSE, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (terrain_image_get_width (rendered), ==, 252);
    generated = terrain_tnt_map_compute_minimap (bare, grey, 252, 252);
    rgba = terrain_image_get_data (rendered, NULL);
    for (guint y = 0; y < 252; y++)
      for (guint x = 0; x < 252; x++)
        g_assert_cmpuint (rgba[y * terrain_image_get_stride (rendered) + 4 * x], ==,
                          generated[y * 252 + x]);
    fixture_clear (&fx);
  }
}

static void
test_minimap_crop (void)
{
  /* The Pass shape, wide: PlayRight 3552, PlayBottom 1504:
   * used height = 1504 * 252 / 3552 = 106.7 -> 106 */
  check_used_size (224, 102, 252, 252, 252, 106);
  /* AC08 shape, tall: PlayRight 3040, PlayBottom 5120:
   * used width = 3040 * 252 / 5120 = 149.6 -> 149 */
  check_used_size (192, 328, 252, 256, 149, 256);
  /* Square in cells, not in play area: PlayRight 10208 >= PlayBottom 10112:
   * used height = 10112 * 252 / 10208 = 249.6 -> 249 */
  check_used_size (640, 640, 252, 252, 252, 249);
  /* Square play area: PlayRight 1568 = PlayBottom 1568 */
  check_used_size (100, 106, 252, 252, 252, 252);
  /* Tiny maps: no margins to crop by */
  check_used_size (2, 2, 252, 252, 252, 252);
  check_used_size (8, 8, 16, 12, 16, 12);
}

/* ------------------------------------------------------------------------ */
/* Rendering                                                                */

static TerrainPalette *
make_palette (void)
{
  guint8 rgb[256 * 3];

  for (guint i = 0; i < 256; i++)
    {
      rgb[3 * i] = (guint8) i;
      rgb[3 * i + 1] = (guint8) (255 - i);
      rgb[3 * i + 2] = (guint8) (i / 2);
    }
  return terrain_palette_new_from_rgb (rgb, 256);
}

static void
test_render (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(TerrainPalette) palette = make_palette ();
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(TerrainImage) doc_image = NULL;
  g_autoptr(TerrainRenderOptions) options = NULL;
  g_autoptr(GError) error = NULL;
  guint8 *pixels;
  gsize stride;

  spec_default (&spec);
  fixture_build (&fx, &spec);
  map = load_ok (fx.bytes);

  image = terrain_tnt_map_render (map, NULL, &error);
  g_assert_null (image);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "a palette is needed"));
  g_clear_error (&error);

  terrain_tnt_map_set_tile_index (map, 2, 1, 99);
  image = terrain_tnt_map_render (map, palette, &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_image_get_format (image), ==, TERRAIN_IMAGE_RGBA8);
  g_assert_cmpuint (terrain_image_get_width (image), ==, 4 * 32);
  g_assert_cmpuint (terrain_image_get_height (image), ==, 3 * 32);
  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);

  for (guint r = 0; r < 3; r++)
    for (guint c = 0; c < 4; c++)
      for (guint y = 0; y < 32; y += 5)
        for (guint x = 0; x < 32; x += 3)
          {
            const guint8 *px = pixels + (r * 32 + y) * stride + (c * 32 + x) * 4;

            if (c == 2 && r == 1)
              {
                /* Magenta and black 8-pixel squares, magenta at the top-left. */
                gboolean on = (((x / 8) ^ (y / 8)) & 1) == 0;

                g_assert_cmpuint (px[0], ==, on ? 255 : 0);
                g_assert_cmpuint (px[1], ==, 0);
                g_assert_cmpuint (px[2], ==, on ? 255 : 0);
              }
            else
              {
                guint8 index = fx_tile_pixel (fx_tile_index (&spec, r * 4 + c), y * 32 + x);

                g_assert_cmpuint (px[0], ==, index);
                g_assert_cmpuint (px[1], ==, 255 - index);
                g_assert_cmpuint (px[2], ==, index / 2);
              }
            g_assert_cmpuint (px[3], ==, 255);
          }

  options = terrain_palette_to_render_options (palette);
  doc_image = terrain_document_render_image (TERRAIN_DOCUMENT (map), options, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_image_get_width (doc_image), ==, 128);
  g_assert_cmpuint (terrain_image_get_height (doc_image), ==, 96);

  /* Minimap: 8x6 cells is too small for the crop margins: full size */
  {
    g_autoptr(TerrainImage) mm = terrain_tnt_map_render_minimap (map, palette, TRUE, &error);
    const guint8 *p;

    g_assert_no_error (error);
    g_assert_cmpuint (terrain_image_get_width (mm), ==, 16);
    g_assert_cmpuint (terrain_image_get_height (mm), ==, 12);
    p = terrain_image_get_data (mm, NULL) + 3 * terrain_image_get_stride (mm) + 4 * 5;
    g_assert_cmpuint (p[0], ==, fx_minimap_pixel (5, 3));
  }

  fixture_clear (&fx);

  /* Cropped minimap of a wide map */
  {
    g_autoptr(TerrainTntMap) wide = terrain_tnt_map_new (224, 102, NULL);
    g_autoptr(TerrainImage) full = terrain_tnt_map_render_minimap (wide, palette, FALSE, &error);
    g_autoptr(TerrainImage) crop = terrain_tnt_map_render_minimap (wide, palette, TRUE, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (terrain_image_get_width (full), ==, 252);
    g_assert_cmpuint (terrain_image_get_height (full), ==, 252);
    g_assert_cmpuint (terrain_image_get_width (crop), ==, 252);
    g_assert_cmpuint (terrain_image_get_height (crop), ==, 106);
    /* The fill shows in the uncropped bitmap only */
    g_assert_cmpuint (terrain_image_get_data (full, NULL)[251 * terrain_image_get_stride (full)],
                      ==, 0x64);
  }
}

static void
test_export_heights (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *data;
  gsize stride;

  spec_legacy (&spec);
  fixture_build (&fx, &spec);
  map = load_ok (fx.bytes);
  image = terrain_document_export_heights (TERRAIN_DOCUMENT (map), &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_image_get_format (image), ==, TERRAIN_IMAGE_GRAY16);
  g_assert_cmpuint (terrain_image_get_width (image), ==, 8);
  g_assert_cmpuint (terrain_image_get_height (image), ==, 6);
  data = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  for (guint y = 0; y < 6; y++)
    for (guint x = 0; x < 8; x++)
      {
        guint16 v;

        memcpy (&v, data + y * stride + 2 * x, 2);
        g_assert_cmpuint (v, ==, fx_height (x, y) * 257u);
      }

  fixture_clear (&fx);
}

/* ------------------------------------------------------------------------ */
/* Validation and description                                               */

static guint
count_issues (GPtrArray       *issues,
              TerrainSeverity  severity,
              const char      *text)
{
  guint n = 0;

  for (guint i = 0; i < issues->len; i++)
    {
      TerrainIssue *issue = g_ptr_array_index (issues, i);

      if (terrain_issue_get_severity (issue) == severity &&
          (text == NULL || strstr (terrain_issue_get_message (issue), text) != NULL))
        n++;
    }
  return n;
}

static TerrainIssue *
first_issue (GPtrArray  *issues,
             const char *text)
{
  for (guint i = 0; i < issues->len; i++)
    if (strstr (terrain_issue_get_message (g_ptr_array_index (issues, i)), text) != NULL)
      return g_ptr_array_index (issues, i);
  return NULL;
}

static void
test_validate (void)
{
  Spec spec;
  Fixture fx;
  guint8 *data;
  gsize size;
  g_autoptr(GBytes) broken = NULL;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  TerrainIssue *issue;
  gint x, y;

  /* A clean fixture has no findings */
  spec_default (&spec);
  fixture_build (&fx, &spec);
  map = load_ok (fx.bytes);
  issues = terrain_document_validate (TERRAIN_DOCUMENT (map));
  g_assert_cmpuint (issues->len, ==, 0);
  g_clear_pointer (&issues, g_ptr_array_unref);
  g_clear_object (&map);
  fixture_clear (&fx);

  /* A broken one */
  spec_default (&spec);
  spec.pad[0] = 1;
  spec.pad[3] = 2;
  spec.extra_byte = 9;
  fixture_build (&fx, &spec);
  data = g_memdup2 (g_bytes_get_data (fx.bytes, &size), g_bytes_get_size (fx.bytes));
  /* tile map entry 5 names tile 7 of 3 */
  data[fx.offset[TERRAIN_TNT_SECTION_TILE_MAP] + 10] = 7;
  /* every cell of row 2 names feature 9 of 2 */
  for (guint cx = 0; cx < 8; cx++)
    {
      data[fx.offset[TERRAIN_TNT_SECTION_ATTRIBUTES] + (2 * 8 + cx) * 4 + 1] = 9;
      data[fx.offset[TERRAIN_TNT_SECTION_ATTRIBUTES] + (2 * 8 + cx) * 4 + 2] = 0;
    }
  /* record 1 has index word 7 and a name with no NUL */
  terrain_test_set_u32 (data + fx.offset[TERRAIN_TNT_SECTION_FEATURES] + 132, 7);
  memset (data + fx.offset[TERRAIN_TNT_SECTION_FEATURES] + 132 + 4, 'x', 128);
  broken = g_bytes_new_take (data, size);
  map = load_ok (broken);
  issues = terrain_document_validate (TERRAIN_DOCUMENT (map));

  g_assert_cmpuint (strlen (terrain_tnt_map_get_feature_name (map, 1)), ==, 128);
  issue = first_issue (issues, "no NUL terminator");
  g_assert_nonnull (issue);
  g_assert_cmpint (terrain_issue_get_severity (issue), ==, TERRAIN_SEVERITY_WARNING);
  g_assert_cmpint (terrain_issue_get_record (issue), ==, 1);

  issue = first_issue (issues, "is tile 7");
  g_assert_nonnull (issue);
  g_assert_cmpint (terrain_issue_get_severity (issue), ==, TERRAIN_SEVERITY_WARNING);
  g_assert_cmpstr (terrain_issue_get_section (issue), ==, "TNT tile map");
  g_assert_cmpint (terrain_issue_get_offset (issue), ==,
                   fx.offset[TERRAIN_TNT_SECTION_TILE_MAP] + 10);
  g_assert_cmpint (terrain_issue_get_record (issue), ==, 5);

  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING, "names feature 9"), ==, 8);
  issue = first_issue (issues, "names feature 9");
  g_assert_true (terrain_issue_get_position (issue, &x, &y));
  g_assert_cmpint (x, ==, 0);
  g_assert_cmpint (y, ==, 2);
  g_assert_cmpint (terrain_issue_get_offset (issue), ==,
                   fx.offset[TERRAIN_TNT_SECTION_ATTRIBUTES] + 16 * 4 + 1);

  issue = first_issue (issues, "index word 7");
  g_assert_nonnull (issue);
  g_assert_cmpint (terrain_issue_get_severity (issue), ==, TERRAIN_SEVERITY_INFO);
  g_assert_cmpint (terrain_issue_get_record (issue), ==, 1);
  g_assert_cmpint (terrain_issue_get_offset (issue), ==,
                   fx.offset[TERRAIN_TNT_SECTION_FEATURES] + 132);

  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_INFO, "pad word"), ==, 2);
  /* 48 cells with byte +3 set: 20 listed plus one summary */
  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_INFO, "attribute byte +3 ="), ==, 20);
  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_INFO,
                                  "about cells with a nonzero attribute byte +3 (48 in all"),
                    ==, 1);
  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_ERROR, NULL), ==, 0);

  g_clear_pointer (&issues, g_ptr_array_unref);
  g_clear_object (&map);
  fixture_clear (&fx);

  /* Flag clear, pointer at a real minimap; odd width */
  spec_default (&spec);
  spec.flag = 0;
  spec.write_minimap_anyway = TRUE;
  spec.width = 9;
  fixture_build (&fx, &spec);
  map = load_ok (fx.bytes);
  issues = terrain_document_validate (TERRAIN_DOCUMENT (map));
  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING, "looks like a 16x12 minimap"),
                    ==, 1);
  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING, "odd side"), ==, 1);
  g_assert_cmpuint (issues->len, ==, 2);
  g_clear_pointer (&issues, g_ptr_array_unref);
  g_clear_object (&map);
  fixture_clear (&fx);

  /* Flag set, zero-sized minimap */
  spec_default (&spec);
  spec.minimap_w = 0;
  spec.minimap_h = 12;
  fixture_build (&fx, &spec);
  map = load_ok (fx.bytes);
  issues = terrain_document_validate (TERRAIN_DOCUMENT (map));
  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING, "MinimapPresent bit 0 is set"),
                    ==, 1);
  g_assert_cmpuint (issues->len, ==, 1);
  g_clear_pointer (&issues, g_ptr_array_unref);
  g_clear_object (&map);
  fixture_clear (&fx);

  /* Many out-of-range features on a big map: grouped */
  {
    g_autoptr(TerrainTntMap) big = terrain_tnt_map_new (64, 64, NULL);

    for (guint cy = 0; cy < 64; cy++)
      for (guint cx = 0; cx < 64; cx++)
        terrain_tnt_map_set_cell_feature (big, cx, cy, 3, NULL);
    issues = terrain_document_validate (TERRAIN_DOCUMENT (big));
    g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING, "names feature 3"), ==, 20);
    g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING,
                                    "about cells naming a feature beyond the feature table "
                                    "(4096 in all"), ==, 1);
    g_assert_cmpuint (issues->len, ==, 21);
  }
}

static void
test_describe (void)
{
  for (guint legacy = 0; legacy < 2; legacy++)
    {
      Spec spec;
      Fixture fx;
      g_autoptr(TerrainTntMap) map = NULL;
      g_autoptr(JsonNode) node = NULL;
      JsonObject *root, *minimap, *feature;
      JsonArray *sections, *features, *words;
      gint64 last = -1;

      if (legacy)
        spec_legacy (&spec);
      else
        spec_default (&spec);
      spec.order[0] = TERRAIN_TNT_SECTION_FEATURES;
      spec.order[3] = TERRAIN_TNT_SECTION_TILE_MAP;
      spec.gap = 3;
      spec.trailing = 10;
      fixture_build (&fx, &spec);
      map = load_ok (fx.bytes);
      node = terrain_document_describe (TERRAIN_DOCUMENT (map));
      root = json_node_get_object (node);

      g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "tnt");
      g_assert_cmpint (json_object_get_int_member (root, "version"), ==, spec.version);
      g_assert_cmpstr (json_object_get_string_member (root, "version_hex"), ==,
                       legacy ? "0x1020" : "0x2000");
      g_assert_cmpint (json_object_get_int_member (root, "width"), ==, 8);
      g_assert_cmpint (json_object_get_int_member (root, "height"), ==, 6);
      g_assert_cmpint (json_object_get_int_member (root, "tile_columns"), ==, 4);
      g_assert_cmpint (json_object_get_int_member (root, "tile_rows"), ==, 3);
      g_assert_cmpint (json_object_get_int_member (root, "pixel_width"), ==, 128);
      g_assert_cmpint (json_object_get_int_member (root, "pixel_height"), ==, 96);
      g_assert_cmpint (json_object_get_int_member (root, "tiles"), ==, 3);
      g_assert_cmpint (json_object_get_int_member (root, "sea_level"), ==, 40);
      g_assert_cmpint (json_object_get_int_member (root, "file_size"), ==,
                       g_bytes_get_size (fx.bytes));
      g_assert_cmpint (json_object_get_int_member (root, "unreferenced_bytes"), ==, 5 * 3 + 10);

      features = json_object_get_array_member (root, "features");
      g_assert_cmpuint (json_array_get_length (features), ==, 2);
      feature = json_array_get_object_element (features, 1);
      g_assert_cmpint (json_object_get_int_member (feature, "index"), ==, 1);
      g_assert_cmpint (json_object_get_int_member (feature, "record_index"), ==, 1);
      g_assert_cmpstr (json_object_get_string_member (feature, "name"), ==, "Feature1");

      minimap = json_object_get_object_member (root, "minimap");
      g_assert_true (json_object_get_boolean_member (minimap, "present"));
      g_assert_cmpint (json_object_get_int_member (minimap, "width"), ==, 16);
      g_assert_cmpint (json_object_get_int_member (minimap, "height"), ==, 12);
      g_assert_cmpint (json_object_get_int_member (minimap, "used_width"), ==, 16);
      g_assert_cmpint (json_object_get_int_member (minimap, "used_height"), ==, 12);

      words = json_object_get_array_member (root, "header_words");
      g_assert_cmpuint (json_array_get_length (words), ==, 16);
      g_assert_cmpint (json_array_get_int_element (words, 9), ==, 40);

      sections = json_object_get_array_member (root, "sections");
      g_assert_cmpuint (json_array_get_length (sections), ==, 6);
      g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (sections, 0),
                                                      "name"), ==, "header");
      g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (sections, 1),
                                                      "name"), ==, "features");
      for (guint i = 0; i < json_array_get_length (sections); i++)
        {
          JsonObject *section = json_array_get_object_element (sections, i);
          gint64 offset = json_object_get_int_member (section, "offset");

          g_assert_cmpint (offset, >, last);
          last = offset;
          g_assert_true (json_object_has_member (section, "size"));
        }

      if (legacy)
        {
          g_assert_cmpint (json_object_get_int_member (root, "min_wind"), ==, 1200);
          g_assert_cmpint (json_object_get_int_member (root, "max_wind"), ==, 3400);
          g_assert_cmpint (json_object_get_int_member (root, "gravity"), ==, 112);
        }
      else
        g_assert_false (json_object_has_member (root, "gravity"));

      fixture_clear (&fx);
    }
}

static void
test_describe_offset (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(TerrainTntMap) map = NULL;
  TerrainDocument *doc;
  gsize attr, feat;

  spec_default (&spec);
  spec.gap = 4;
  spec.trailing = 4;
  fixture_build (&fx, &spec);
  map = load_ok (fx.bytes);
  doc = TERRAIN_DOCUMENT (map);
  attr = fx.offset[TERRAIN_TNT_SECTION_ATTRIBUTES];
  feat = fx.offset[TERRAIN_TNT_SECTION_FEATURES];

#define CHECK_OFFSET(off, text) \
  G_STMT_START { \
    g_autofree char *s_ = terrain_document_describe_offset (doc, (off)); \
    g_assert_cmpstr (s_, ==, (text)); \
  } G_STMT_END

  CHECK_OFFSET (0x25, "header, word 9 at 0x24 (SeaLevel), byte +1");
  CHECK_OFFSET (attr + (3 * 8 + 2) * 4 + 1, "attribute map, cell 26 (x=2, y=3), byte +1");
  CHECK_OFFSET (feat + 132 + 4, "feature records, record 1, name, byte +0");
  CHECK_OFFSET (feat + 2, "feature records, record 0, index word, byte +2");
  CHECK_OFFSET (fx.offset[TERRAIN_TNT_SECTION_TILES] + 1024 + 33,
                "tile graphics, tile 1, pixel (x=1, y=1)");
  CHECK_OFFSET (fx.offset[TERRAIN_TNT_SECTION_TILE_MAP] + 6,
                "tile map, entry 3 (column=3, row=0), byte +0");
  CHECK_OFFSET (fx.offset[TERRAIN_TNT_SECTION_MINIMAP] + 4, "minimap, height word, byte +0");
  CHECK_OFFSET (fx.offset[TERRAIN_TNT_SECTION_MINIMAP] + 8 + 17, "minimap, pixel (x=1, y=1)");
  CHECK_OFFSET (attr - 1, "gap between sections");
  CHECK_OFFSET (g_bytes_get_size (fx.bytes) - 1, "trailing bytes after the last section");

#undef CHECK_OFFSET

  /* compare_bytes names where an edited write first differs */
  {
    g_autoptr(GBytes) out = NULL;
    g_autofree char *where = NULL;
    gsize first;

    terrain_tnt_map_set_cell_height (map, 2, 3, 1);
    out = save_ok (map);
    g_assert_false (terrain_document_compare_bytes (doc, out, &first, &where));
    g_assert_cmpuint (first, ==, attr + (3 * 8 + 2) * 4);
    g_assert_cmpstr (where, ==, "attribute map, cell 26 (x=2, y=3), byte +0");
  }

  fixture_clear (&fx);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/TntMap/occupancy", test_occupancy);
  g_test_add_func ("/Terrain/TntMap/occupancy-legacy", test_occupancy_legacy);
  g_test_add_func ("/Terrain/TntMap/minimap-crop", test_minimap_crop);
  g_test_add_func ("/Terrain/TntMap/minimap-one-generator", test_minimap_one_generator);
  g_test_add_func ("/Terrain/TntMap/render", test_render);
  g_test_add_func ("/Terrain/TntMap/export-heights", test_export_heights);
  g_test_add_func ("/Terrain/TntMap/validate", test_validate);
  g_test_add_func ("/Terrain/TntMap/describe", test_describe);
  g_test_add_func ("/Terrain/TntMap/describe-offset", test_describe_offset);

  return g_test_run ();
}
