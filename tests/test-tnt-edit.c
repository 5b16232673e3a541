/* test-tnt-edit.c: TNT map edits, undo, images and the minimap
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Fixtures are built here; the corpus tests edit ban.tnt and bar.tnt from
 * TERRAIN_CORPUS_DIR/ta/maps when that folder exists and check that exactly
 * the intended bytes change and that undo restores the original bytes.
 */

#include "config.h"

#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

#define HEADER_BYTES 64

static const struct
{
  const char *name;
  guint fx;
  guint fz;
} footprints[] = {
  { "Tree1", 1, 1 },
  { "Rock", 2, 2 },
  { "Big", 3, 2 },
};

static gboolean
footprint_lookup (const char *name,
                  guint      *fx,
                  guint      *fz,
                  gpointer    user_data)
{
  guint *calls = user_data;

  if (calls != NULL)
    (*calls)++;
  for (guint i = 0; i < G_N_ELEMENTS (footprints); i++)
    if (g_ascii_strcasecmp (name, footprints[i].name) == 0)
      {
        *fx = footprints[i].fx;
        *fz = footprints[i].fz;
        return TRUE;
      }
  return FALSE;
}

static GBytes *
save (TerrainTntMap *map)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (map), &error);

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  return bytes;
}

/* Offsets at which two equally long byte strings differ. */
static GArray *
differences (GBytes *a,
             GBytes *b)
{
  gsize na, nb;
  const guint8 *pa = g_bytes_get_data (a, &na), *pb = g_bytes_get_data (b, &nb);
  GArray *offsets = g_array_new (FALSE, FALSE, sizeof (gsize));

  g_assert_cmpuint (na, ==, nb);
  for (gsize i = 0; i < na; i++)
    if (pa[i] != pb[i])
      g_array_append_val (offsets, i);
  return offsets;
}

static TerrainPalette *
test_palette (void)
{
  guint8 rgb[256 * 3];

  /* Distinct colours, so that quantising a rendered map is exact. */
  for (guint i = 0; i < 256; i++)
    {
      rgb[3 * i] = (guint8) i;
      rgb[3 * i + 1] = (guint8) ((i * 37) & 0xFF);
      rgb[3 * i + 2] = (guint8) ((i * 91 + 13) & 0xFF);
    }
  return terrain_palette_new_from_rgb (rgb, 256);
}

static void
fill_tile (guint8 *tile,
           guint   seed)
{
  for (guint p = 0; p < TERRAIN_TNT_TILE_BYTES; p++)
    tile[p] = (guint8) ((seed * 53 + p * (seed + 1) + (p / 32) * 7) & 0xFF);
}

/* A 16x12-cell map (8x6 tiles) read back from its own bytes, so that it has
 * a source and writes in place: three tiles, heights in a ramp, features
 * Tree1 at (1, 1), Rock 2x2 at (5, 5) with authored fringe, and an unused
 * record "Big". */
static TerrainTntMap *
fixture_map (GBytes **original)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) built = terrain_tnt_map_new (16, 12, &error);
  g_autoptr(GBytes) bytes = NULL;
  TerrainTntMap *map;
  guint8 tile[TERRAIN_TNT_TILE_BYTES];

  g_assert_no_error (error);
  for (guint t = 1; t <= 3; t++)
    {
      fill_tile (tile, t);
      g_assert_cmpuint (terrain_tnt_map_add_tile (built, tile), ==, t);
    }
  for (guint row = 0; row < 6; row++)
    for (guint column = 0; column < 8; column++)
      terrain_tnt_map_set_tile_index (built, column, row, (guint16) ((column + row) % 4));
  for (guint y = 0; y < 12; y++)
    for (guint x = 0; x < 16; x++)
      terrain_tnt_map_set_cell_height (built, x, y, (guint8) (20 + x * 7 + y * 3));

  g_assert_cmpuint (terrain_tnt_map_add_feature_name (built, "Tree1"), ==, 0);
  g_assert_cmpuint (terrain_tnt_map_add_feature_name (built, "Rock"), ==, 1);
  g_assert_cmpuint (terrain_tnt_map_add_feature_name (built, "Big"), ==, 2);
  g_assert_true (terrain_tnt_map_set_cell_feature (built, 1, 1, 0, NULL));
  g_assert_true (terrain_tnt_map_set_cell_feature (built, 5, 5, 1, NULL));
  g_assert_true (terrain_tnt_map_set_cell_feature (built, 6, 5, TERRAIN_TNT_FEATURE_FRINGE, NULL));
  g_assert_true (terrain_tnt_map_set_cell_feature (built, 5, 6, TERRAIN_TNT_FEATURE_FRINGE, NULL));
  g_assert_true (terrain_tnt_map_set_cell_feature (built, 6, 6, TERRAIN_TNT_FEATURE_FRINGE, NULL));
  terrain_tnt_map_set_sea_level (built, 30, NULL);
  terrain_tnt_map_update_minimap (built, terrain_test_grey_palette ());

  bytes = save (built);
  map = terrain_tnt_map_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  if (original != NULL)
    *original = g_bytes_ref (bytes);
  return map;
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *counter)
{
  (*counter)++;
}

static void
execute (TerrainCommandStack *stack,
         TerrainCommand      *command)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainCommand) owned = command;

  g_assert_nonnull (owned);
  g_assert_true (terrain_command_stack_execute (stack, owned, &error));
  g_assert_no_error (error);
}

static void
execute_fails (TerrainCommandStack *stack,
               TerrainCommand      *command,
               gint                 code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainCommand) owned = command;
  guint depth = terrain_command_stack_get_undo_depth (stack);

  g_assert_false (terrain_command_stack_execute (stack, owned, &error));
  g_assert_error (error, TERRAIN_ERROR, code);
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, depth);
}

static TerrainTntEdit *
top_edit (TerrainCommandStack *stack)
{
  return TERRAIN_TNT_EDIT (terrain_command_stack_peek_undo (stack));
}

static void
undo_all (TerrainCommandStack *stack)
{
  while (terrain_command_stack_undo (stack))
    ;
}

static gsize
attribute_offset (TerrainTntMap *map,
                  guint          x,
                  guint          y)
{
  gsize offset = 0;

  g_assert_true (terrain_tnt_map_get_section_span (map, TERRAIN_TNT_SECTION_ATTRIBUTES, &offset,
                                                   NULL));
  return offset + ((gsize) y * terrain_tnt_map_get_width (map) + x) * 4;
}

/* ------------------------------------------------------------------------ */
/* Sea level                                                                */

static void
test_sea_level (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = fixture_map (&original);
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GArray) diff = NULL;

  execute (stack, terrain_tnt_edit_new_sea_level (map, 234));
  g_assert_cmpuint (terrain_tnt_map_get_sea_level (map), ==, 234);
  g_assert_cmpstr (terrain_command_stack_get_undo_description (stack), ==, "Set sea level to 234");
  g_assert_cmpstr (terrain_tnt_edit_get_report (top_edit (stack)), ==, "sea level 30 -> 234");
  g_assert_true (terrain_document_get_modified (TERRAIN_DOCUMENT (map)));

  edited = save (map);
  diff = differences (original, edited);
  g_assert_cmpuint (diff->len, ==, 1);
  g_assert_cmpuint (g_array_index (diff, gsize, 0), ==, 0x24);

  terrain_command_stack_undo (stack);
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (map)));
  undone = save (map);
  terrain_test_assert_bytes_equal (original, undone);
}

/* ------------------------------------------------------------------------ */
/* Brushes                                                                  */

static TerrainTntMap *
flat_map (guint8 height)
{
  g_autoptr(GError) error = NULL;
  TerrainTntMap *map = terrain_tnt_map_new (16, 16, &error);

  g_assert_no_error (error);
  for (guint y = 0; y < 16; y++)
    for (guint x = 0; x < 16; x++)
      terrain_tnt_map_set_cell_height (map, x, y, height);
  return map;
}

static void
test_brush_weights (void)
{
  TerrainTntBrush brush = { TERRAIN_TNT_BRUSH_RAISE, 4, 10, TERRAIN_TNT_FALLOFF_CONSTANT, 0 };
  g_autoptr(TerrainTntBrush) copy = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpfloat (terrain_tnt_brush_get_weight (&brush, 0), ==, 1.0);
  g_assert_cmpfloat (terrain_tnt_brush_get_weight (&brush, 4), ==, 1.0);
  g_assert_cmpfloat (terrain_tnt_brush_get_weight (&brush, 4.01), ==, 0.0);
  brush.falloff = TERRAIN_TNT_FALLOFF_LINEAR;
  g_assert_cmpfloat_with_epsilon (terrain_tnt_brush_get_weight (&brush, 1), 0.75, 1e-9);
  brush.falloff = TERRAIN_TNT_FALLOFF_SMOOTH;
  g_assert_cmpfloat_with_epsilon (terrain_tnt_brush_get_weight (&brush, 2), 0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (terrain_tnt_brush_get_weight (&brush, 4), 0.0, 1e-9);
  brush.radius = 0;
  g_assert_cmpfloat (terrain_tnt_brush_get_weight (&brush, 0), ==, 1.0);
  g_assert_cmpfloat (terrain_tnt_brush_get_weight (&brush, 1), ==, 0.0);

  copy = terrain_tnt_brush_copy (&brush);
  g_assert_true (terrain_tnt_brush_check (copy, &error));
  copy->radius = -1;
  g_assert_false (terrain_tnt_brush_check (copy, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  copy->radius = 2;
  copy->strength = NAN;
  g_assert_false (terrain_tnt_brush_check (copy, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
}

/* Whether a dab covers any cell: its bounding box (radius, at least half a
 * cell) against the map's 16 x 16 cells. */
static void
test_brush_reaches_map (void)
{
  g_autoptr(TerrainTntMap) map = flat_map (100);
  TerrainTntBrush brush = { TERRAIN_TNT_BRUSH_RAISE, 2, 10, TERRAIN_TNT_FALLOFF_CONSTANT, 0 };

  g_assert_true (terrain_tnt_brush_reaches_map (&brush, map, 8, 8));
  g_assert_true (terrain_tnt_brush_reaches_map (&brush, map, -2, 0));
  g_assert_true (terrain_tnt_brush_reaches_map (&brush, map, 17, 15));
  g_assert_false (terrain_tnt_brush_reaches_map (&brush, map, -2.5, 3));
  g_assert_false (terrain_tnt_brush_reaches_map (&brush, map, 18, 3));
  g_assert_false (terrain_tnt_brush_reaches_map (&brush, map, 500, -40));
  g_assert_false (terrain_tnt_brush_reaches_map (&brush, map, NAN, 3));
  brush.radius = 0;
  g_assert_true (terrain_tnt_brush_reaches_map (&brush, map, 15.5, 0));
  g_assert_false (terrain_tnt_brush_reaches_map (&brush, map, 15.6, 0));
}

static void
test_brush_modes (void)
{
  g_autoptr(TerrainTntMap) map = flat_map (100);
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  TerrainTntBrush brush = { TERRAIN_TNT_BRUSH_RAISE, 2, 10, TERRAIN_TNT_FALLOFF_CONSTANT, 0 };
  guint changed = 0;

  /* Raise, constant: every cell within distance 2 of (8, 8) gains 10. */
  execute (stack, terrain_tnt_edit_new_brush (map, &brush, 8, 8, 0));
  for (guint y = 0; y < 16; y++)
    for (guint x = 0; x < 16; x++)
      {
        double d = hypot ((double) x - 8, (double) y - 8);
        guint8 expected = d <= 2 ? 110 : 100;

        g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, x, y), ==, expected);
        changed += expected != 100;
      }
  g_assert_cmpuint (changed, ==, 13);
  g_assert_cmpuint (terrain_tnt_edit_get_n_changed_cells (top_edit (stack)), ==, 13);

  /* Lower, linear, clamped at 0. */
  brush.mode = TERRAIN_TNT_BRUSH_LOWER;
  brush.falloff = TERRAIN_TNT_FALLOFF_LINEAR;
  brush.strength = 300;
  execute (stack, terrain_tnt_edit_new_brush (map, &brush, 2, 2, 0));
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 2, 2), ==, 0);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 3, 2), ==, 0);   /* 100 - 150 */
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 4, 2), ==, 100); /* weight 0 */

  /* Set and flatten towards a level. */
  brush.mode = TERRAIN_TNT_BRUSH_SET;
  brush.level = 200;
  brush.radius = 0;
  execute (stack, terrain_tnt_edit_new_brush (map, &brush, 12, 3, 0));
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 12, 3), ==, 200);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 13, 3), ==, 100);
  brush.mode = TERRAIN_TNT_BRUSH_FLATTEN;
  brush.radius = 1;
  brush.strength = 0.5;
  brush.level = 0;
  brush.falloff = TERRAIN_TNT_FALLOFF_CONSTANT;
  execute (stack, terrain_tnt_edit_new_brush (map, &brush, 12, 3, 0));
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 12, 3), ==, 100);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 13, 3), ==, 50);

  /* Smooth a spike with its 3x3 neighbourhood as it was before the dab. */
  terrain_tnt_map_set_cell_height (map, 8, 13, 190);
  brush.mode = TERRAIN_TNT_BRUSH_SMOOTH;
  brush.strength = 1;
  brush.radius = 0;
  execute (stack, terrain_tnt_edit_new_brush (map, &brush, 8, 13, 0));
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 8, 13), ==, 110);

  /* A dab off the map changes nothing; a bad brush fails. */
  brush.radius = 3;
  execute (stack, terrain_tnt_edit_new_brush (map, &brush, -10, -10, 0));
  g_assert_cmpuint (terrain_tnt_edit_get_n_changed_cells (top_edit (stack)), ==, 0);
  brush.strength = -1;
  execute_fails (stack, terrain_tnt_edit_new_brush (map, &brush, 3, 3, 0),
                 TERRAIN_ERROR_INVALID_VALUE);

  /* Everything undoes back to the flat map (the spike was set outside the
   * stack and stays). */
  undo_all (stack);
  for (guint y = 0; y < 16; y++)
    for (guint x = 0; x < 16; x++)
      g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, x, y), ==,
                        x == 8 && y == 13 ? 190 : 100);
}

static void
test_brush_stroke_merge (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = fixture_map (&original);
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  TerrainTntBrush brush = { TERRAIN_TNT_BRUSH_RAISE, 1.5, 4, TERRAIN_TNT_FALLOFF_CONSTANT, 0 };
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) redone = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GArray) diff = NULL;
  g_autoptr(GError) error = NULL;

  /* One stroke of four dabs along a row, overlapping. */
  for (guint i = 0; i < 4; i++)
    execute (stack, terrain_tnt_edit_new_brush (map, &brush, 3 + i, 4, 77));
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 1);
  g_assert_cmpstr (terrain_tnt_edit_get_report (top_edit (stack)), ==, "4 dabs, 18 cells changed");
  /* (4, 4) is under three of the four dabs. */
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 4, 4), ==, 20 + 28 + 12 + 3 * 4);
  after = save (map);

  /* Only height bytes of the attribute map changed. */
  diff = differences (original, after);
  g_assert_cmpuint (diff->len, ==, 18);
  for (guint i = 0; i < diff->len; i++)
    g_assert_cmpuint ((g_array_index (diff, gsize, i) - attribute_offset (map, 0, 0)) % 4, ==, 0);

  /* A new stroke is a new step. */
  execute (stack, terrain_tnt_edit_new_brush (map, &brush, 10, 8, 78));
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 2);
  terrain_command_stack_undo (stack);

  terrain_command_stack_undo (stack);
  undone = save (map);
  terrain_test_assert_bytes_equal (original, undone);
  g_assert_true (terrain_command_stack_redo (stack, &error));
  g_assert_no_error (error);
  redone = save (map);
  terrain_test_assert_bytes_equal (after, redone);
}

/* ------------------------------------------------------------------------ */
/* Features                                                                 */

static void
test_place_feature (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = fixture_map (&original);
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GArray) diff = NULL;
  g_autoptr(GArray) placements = NULL;
  guint calls = 0;
  GPtrArray *issues;

  /* An existing record: the table does not change, the file keeps its
   * layout and only the covered cells' feature words change. */
  execute (stack, terrain_tnt_edit_new_place_feature (map, "ROCK", 9, 2, footprint_lookup,
                                                      &calls, NULL));
  g_assert_cmpuint (calls, >, 0);
  g_assert_cmpuint (terrain_tnt_map_get_n_features (map), ==, 3);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 9, 2), ==, 1);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 10, 2), ==, TERRAIN_TNT_FEATURE_FRINGE);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 9, 3), ==, TERRAIN_TNT_FEATURE_FRINGE);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 10, 3), ==, TERRAIN_TNT_FEATURE_FRINGE);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 11, 2), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_cmpuint (terrain_tnt_edit_get_n_changed_cells (top_edit (stack)), ==, 4);
  g_assert_cmpuint (terrain_tnt_edit_get_issues (top_edit (stack))->len, ==, 0);
  edited = save (map);
  diff = differences (original, edited);
  /* 0xFFFF -> 0x0001 changes both bytes, -> 0xFFFE only the low one */
  g_assert_cmpuint (diff->len, ==, 2 + 3);
  for (guint i = 0; i < diff->len; i++)
    {
      gsize rel = g_array_index (diff, gsize, i) - attribute_offset (map, 0, 0);

      g_assert_true (rel % 4 == 1 || rel % 4 == 2);
    }

  /* A new name grows the table (the writer lays the file out anew). */
  execute (stack, terrain_tnt_edit_new_place_feature (map, "Shrub", 0, 10, footprint_lookup,
                                                      NULL, NULL));
  g_assert_cmpuint (terrain_tnt_map_get_n_features (map), ==, 4);
  g_assert_cmpstr (terrain_tnt_map_get_feature_name (map, 3), ==, "Shrub");
  g_assert_cmpuint (terrain_tnt_map_get_feature_record_index (map, 3), ==, 3);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 0, 10), ==, 3);
  g_assert_cmpstr (terrain_tnt_edit_get_report (top_edit (stack)), ==,
                   "placed Shrub (record 3, new) at (0, 10), footprint 1x1");

  /* Overlap and clipping are reported, not refused. */
  execute (stack, terrain_tnt_edit_new_place_feature (map, "Big", 4, 4, footprint_lookup,
                                                      NULL, NULL));
  issues = terrain_tnt_edit_get_issues (top_edit (stack));
  g_assert_cmpuint (issues->len, ==, 1);
  g_assert_nonnull (strstr (terrain_issue_get_message (g_ptr_array_index (issues, 0)),
                            "overlaps 2 occupied cells, the first at (x=5, y=5)"));
  execute (stack, terrain_tnt_edit_new_place_feature (map, "Big", 14, 11, footprint_lookup,
                                                      NULL, NULL));
  issues = terrain_tnt_edit_get_issues (top_edit (stack));
  g_assert_cmpuint (issues->len, ==, 1);
  g_assert_nonnull (strstr (terrain_issue_get_message (g_ptr_array_index (issues, 0)),
                            "runs off the 16x12 map"));

  placements = terrain_tnt_map_list_placements (map);
  g_assert_cmpuint (placements->len, ==, 6);
  g_assert_cmpuint (g_array_index (placements, TerrainTntPlacement, 0).x, ==, 1);
  g_assert_cmpuint (g_array_index (placements, TerrainTntPlacement, 0).feature, ==, 0);

  /* Refused: an anchor cell, off the map, a name too long. */
  execute_fails (stack, terrain_tnt_edit_new_place_feature (map, "Tree1", 5, 5, NULL, NULL, NULL),
                 TERRAIN_ERROR_INVALID_VALUE);
  execute_fails (stack, terrain_tnt_edit_new_place_feature (map, "Newname", 1, 1, NULL, NULL,
                                                            NULL),
                 TERRAIN_ERROR_INVALID_VALUE);
  g_assert_cmpuint (terrain_tnt_map_get_n_features (map), ==, 4);
  execute_fails (stack, terrain_tnt_edit_new_place_feature (map, "Tree1", 16, 0, NULL, NULL,
                                                            NULL),
                 TERRAIN_ERROR_OUT_OF_RANGE);
  {
    g_autofree char *long_name = g_strnfill (128, 'x');

    execute_fails (stack, terrain_tnt_edit_new_place_feature (map, long_name, 3, 3, NULL, NULL,
                                                              NULL),
                   TERRAIN_ERROR_INVALID_VALUE);
  }

  undo_all (stack);
  g_assert_cmpuint (terrain_tnt_map_get_n_features (map), ==, 3);
  undone = save (map);
  terrain_test_assert_bytes_equal (original, undone);
}

static void
test_move_remove_feature (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = fixture_map (&original);
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(GBytes) moved = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;
  g_autoptr(GArray) diff = NULL;
  g_autoptr(GError) error = NULL;

  /* Move the 2x2 Rock from (5, 5) to (10, 8): its old anchor and fringe
   * become empty, the new ones are written. */
  execute (stack, terrain_tnt_edit_new_move_feature (map, 5, 5, 10, 8, footprint_lookup, NULL,
                                                     NULL));
  g_assert_cmpstr (terrain_tnt_edit_get_report (top_edit (stack)), ==,
                   "moved feature 1 (Rock) from (5, 5) to (10, 8)");
  for (guint y = 5; y <= 6; y++)
    for (guint x = 5; x <= 6; x++)
      g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, x, y), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 10, 8), ==, 1);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 11, 9), ==, TERRAIN_TNT_FEATURE_FRINGE);
  g_assert_cmpuint (terrain_tnt_edit_get_n_changed_cells (top_edit (stack)), ==, 8);
  moved = save (map);
  diff = differences (original, moved);
  for (guint i = 0; i < diff->len; i++)
    {
      gsize rel = g_array_index (diff, gsize, i) - attribute_offset (map, 0, 0);
      guint cell = (guint) (rel / 4), x = cell % 16, y = cell / 16;

      g_assert_true (rel % 4 == 1 || rel % 4 == 2);
      g_assert_true ((x >= 5 && x <= 6 && y >= 5 && y <= 6) ||
                     (x >= 10 && x <= 11 && y >= 8 && y <= 9));
    }

  /* Moving from a cell without an anchor fails. */
  execute_fails (stack, terrain_tnt_edit_new_move_feature (map, 5, 5, 1, 9, NULL, NULL, NULL),
                 TERRAIN_ERROR_INVALID_VALUE);

  /* Remove the Tree; its record stays. Removing fringe of a shared area
   * keeps cells another footprint covers. */
  execute (stack, terrain_tnt_edit_new_remove_feature (map, 1, 1, footprint_lookup, NULL, NULL));
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 1, 1), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_cmpuint (terrain_tnt_map_get_n_features (map), ==, 3);

  undo_all (stack);
  undone = save (map);
  terrain_test_assert_bytes_equal (original, undone);
  g_assert_true (terrain_command_stack_redo (stack, &error));
  g_assert_no_error (error);
  redone = save (map);
  terrain_test_assert_bytes_equal (moved, redone);
}

static void
test_cleanup_features (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = fixture_map (&original);
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(GBytes) undone = NULL;

  /* Remove Tree1 (record 0): records 0 and 2 become unused. */
  execute (stack, terrain_tnt_edit_new_remove_feature (map, 1, 1, NULL, NULL, NULL));
  g_assert_cmpuint (terrain_tnt_map_get_n_features (map), ==, 3);
  execute (stack, terrain_tnt_edit_new_cleanup_features (map));
  g_assert_cmpstr (terrain_tnt_edit_get_report (top_edit (stack)), ==,
                   "removed 2 unused feature records (3 -> 1)");
  g_assert_cmpuint (terrain_tnt_map_get_n_features (map), ==, 1);
  g_assert_cmpstr (terrain_tnt_map_get_feature_name (map, 0), ==, "Rock");
  g_assert_cmpuint (terrain_tnt_map_get_feature_record_index (map, 0), ==, 0);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 5, 5), ==, 0);

  /* Nothing left to clean. */
  execute (stack, terrain_tnt_edit_new_cleanup_features (map));
  g_assert_cmpstr (terrain_tnt_edit_get_report (top_edit (stack)), ==,
                   "removed 0 unused feature records (1 -> 1)");

  undo_all (stack);
  g_assert_cmpuint (terrain_tnt_map_get_n_features (map), ==, 3);
  undone = save (map);
  terrain_test_assert_bytes_equal (original, undone);
}

static void
test_void (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = fixture_map (&original);
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(GBytes) undone = NULL;
  GPtrArray *issues;

  execute (stack, terrain_tnt_edit_new_void (map, 4, 4, 4, 4, TRUE));
  /* The Rock anchor at (5, 5) is left alone; its fringe is voided. */
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 5, 5), ==, 1);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 6, 6), ==, TERRAIN_TNT_FEATURE_VOID);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 4, 4), ==, TERRAIN_TNT_FEATURE_VOID);
  g_assert_cmpuint (terrain_tnt_edit_get_n_changed_cells (top_edit (stack)), ==, 15);
  issues = terrain_tnt_edit_get_issues (top_edit (stack));
  g_assert_cmpuint (issues->len, ==, 1);

  /* A feature cannot be placed on a void cell. */
  execute_fails (stack, terrain_tnt_edit_new_place_feature (map, "Tree1", 4, 4, NULL, NULL, NULL),
                 TERRAIN_ERROR_INVALID_VALUE);

  execute (stack, terrain_tnt_edit_new_void (map, 0, 0, 16, 12, FALSE));
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 4, 4), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_cmpuint (terrain_tnt_edit_get_n_changed_cells (top_edit (stack)), ==, 15);

  execute_fails (stack, terrain_tnt_edit_new_void (map, 10, 10, 7, 1, TRUE),
                 TERRAIN_ERROR_OUT_OF_RANGE);
  execute_fails (stack, terrain_tnt_edit_new_void (map, 0, 0, 0, 1, TRUE),
                 TERRAIN_ERROR_OUT_OF_RANGE);

  undo_all (stack);
  undone = save (map);
  terrain_test_assert_bytes_equal (original, undone);
}

/* ------------------------------------------------------------------------ */
/* Tiles, resize, stamp                                                     */

static void
test_paint_tiles (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = fixture_map (&original);
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(GBytes) painted = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GArray) diff = NULL;
  gsize tile_map_offset = 0;

  execute (stack, terrain_tnt_edit_new_paint_tiles (map, 2, 1, 3, 2, 3));
  for (guint row = 1; row <= 2; row++)
    for (guint column = 2; column <= 4; column++)
      g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, column, row), ==, 3);
  /* Only (2, 1) already held 3, since (column + row) % 4 == 3 there. */
  g_assert_cmpstr (terrain_tnt_edit_get_report (top_edit (stack)), ==,
                   "painted tile 3 on 5 of 6 positions (3x2 at (2, 1))");
  painted = save (map);
  diff = differences (original, painted);
  g_assert_true (terrain_tnt_map_get_section_span (map, TERRAIN_TNT_SECTION_TILE_MAP,
                                                   &tile_map_offset, NULL));
  /* Five u16 entries whose low byte changes. */
  g_assert_cmpuint (diff->len, ==, 5);
  for (guint i = 0; i < diff->len; i++)
    g_assert_cmpuint ((g_array_index (diff, gsize, i) - tile_map_offset) % 2, ==, 0);

  execute_fails (stack, terrain_tnt_edit_new_paint_tiles (map, 0, 0, 1, 1, 4),
                 TERRAIN_ERROR_OUT_OF_RANGE);
  execute_fails (stack, terrain_tnt_edit_new_paint_tiles (map, 7, 0, 2, 1, 0),
                 TERRAIN_ERROR_OUT_OF_RANGE);

  terrain_command_stack_undo (stack);
  undone = save (map);
  terrain_test_assert_bytes_equal (original, undone);
}

static void
test_resize (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = fixture_map (&original);
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(GBytes) grown = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(TerrainTntMap) reread = NULL;
  g_autoptr(GError) error = NULL;
  guint notified = 0;

  g_signal_connect (map, "notify::height", G_CALLBACK (count_notify), &notified);

  /* Add 2 cells on the left, 4 on top, remove 2 on the right, add 2 at the
   * bottom: 16x12 -> 16x18. */
  execute (stack, terrain_tnt_edit_new_resize (map, 2, 4, -2, 2, 9, 2));
  g_assert_cmpuint (terrain_tnt_map_get_width (map), ==, 16);
  g_assert_cmpuint (terrain_tnt_map_get_height (map), ==, 18);
  g_assert_cmpuint (terrain_tnt_map_get_tile_columns (map), ==, 8);
  g_assert_cmpuint (terrain_tnt_map_get_tile_rows (map), ==, 9);
  g_assert_cmpuint (notified, ==, 1);
  /* Old (x, y) is now at (x + 2, y + 4). */
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 2, 4), ==, 20);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 15, 15), ==, 20 + 13 * 7 + 11 * 3);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 3, 5), ==, 0);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 7, 9), ==, 1);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 0, 0), ==, 9);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 0, 0), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 5, 17), ==, 9);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 0, 0), ==, 2);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 1, 2), ==, 0);  /* old (0, 0) */
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 2, 3), ==, 2);  /* old (1, 1) */

  /* The file is laid out anew and reads back. */
  grown = save (map);
  reread = terrain_tnt_map_new_from_bytes (grown, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_tnt_map_get_height (reread), ==, 18);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (reread, 7, 9), ==, 1);

  execute_fails (stack, terrain_tnt_edit_new_resize (map, 1, 0, 0, 0, 0, 0),
                 TERRAIN_ERROR_INVALID_VALUE);
  execute_fails (stack, terrain_tnt_edit_new_resize (map, -8, 0, -8, 0, 0, 0),
                 TERRAIN_ERROR_INVALID_VALUE);
  execute_fails (stack, terrain_tnt_edit_new_resize (map, 2, 0, 0, 0, 0, 99),
                 TERRAIN_ERROR_OUT_OF_RANGE);

  terrain_command_stack_undo (stack);
  g_assert_cmpuint (terrain_tnt_map_get_height (map), ==, 12);
  undone = save (map);
  terrain_test_assert_bytes_equal (original, undone);
}

/* Builds a version 3 section (tnt-sct.md, "SCT sections"): header, tile
 * map, height records, tile graphics, preview. */
static TerrainSctSection *
build_section (guint          width,
               guint          height,
               guint          n_tiles,
               const guint8 (*tiles)[TERRAIN_TNT_TILE_BYTES],
               const guint16 *entries,
               guint8         base_height)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  TerrainSctSection *section;
  guint32 header[7];
  gsize tile_map_offset = 28;
  gsize heights_offset = tile_map_offset + 2 * width * height;
  gsize tiles_offset = heights_offset + 4 * (4 * width * height);
  gsize preview_offset = tiles_offset + (gsize) n_tiles * TERRAIN_TNT_TILE_BYTES;
  guint8 preview[TERRAIN_SCT_PREVIEW_SIDE * TERRAIN_SCT_PREVIEW_SIDE] = { 0 };

  header[0] = GUINT32_TO_LE (3);
  header[1] = GUINT32_TO_LE ((guint32) preview_offset);
  header[2] = GUINT32_TO_LE (n_tiles);
  header[3] = GUINT32_TO_LE ((guint32) tiles_offset);
  header[4] = GUINT32_TO_LE (width);
  header[5] = GUINT32_TO_LE (height);
  header[6] = GUINT32_TO_LE ((guint32) tile_map_offset);
  g_byte_array_append (out, (const guint8 *) header, sizeof header);
  for (guint i = 0; i < width * height; i++)
    {
      guint8 le[2] = { (guint8) (entries[i] & 0xFF), (guint8) (entries[i] >> 8) };

      g_byte_array_append (out, le, 2);
    }
  for (guint y = 0; y < 2 * height; y++)
    for (guint x = 0; x < 2 * width; x++)
      {
        guint8 record[4] = { (guint8) (base_height + x + 10 * y), 0xFF, 0xFF, 0x00 };

        g_byte_array_append (out, record, 4);
      }
  for (guint t = 0; t < n_tiles; t++)
    g_byte_array_append (out, tiles[t], TERRAIN_TNT_TILE_BYTES);
  g_byte_array_append (out, preview, sizeof preview);

  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&out));
  section = terrain_sct_section_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  return section;
}

static void
test_stamp_section (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = fixture_map (&original);
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(TerrainSctSection) section = NULL;
  g_autoptr(TerrainSctSection) broken = NULL;
  g_autoptr(GBytes) undone = NULL;
  guint8 tiles[3][TERRAIN_TNT_TILE_BYTES];
  const guint16 entries[6] = { 0, 1, 2, 2, 1, 0 };
  const guint16 bad_entries[6] = { 0, 1, 7, 2, 1, 0 };

  /* Section tile 0 equals map tile 2; tiles 1 and 2 are new. */
  fill_tile (tiles[0], 2);
  fill_tile (tiles[1], 40);
  fill_tile (tiles[2], 41);
  section = build_section (3, 2, 3, (const guint8 (*)[TERRAIN_TNT_TILE_BYTES]) tiles, entries, 100);

  execute (stack, terrain_tnt_edit_new_stamp_section (map, section, 1, 2));
  g_assert_cmpstr (terrain_tnt_edit_get_report (top_edit (stack)), ==,
                   "stamped 3x2 tiles at tile (1, 2): 2 new tiles, 1 reused, 0 clipped");
  g_assert_cmpuint (terrain_tnt_map_get_n_tiles (map), ==, 6);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 1, 2), ==, 2);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 2, 2), ==, 4);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 3, 2), ==, 5);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 3, 3), ==, 2);
  g_assert_cmpmem (terrain_tnt_map_get_tile (map, 4), TERRAIN_TNT_TILE_BYTES, tiles[1],
                   TERRAIN_TNT_TILE_BYTES);
  /* Heights: section cell (i, j) lands on map cell (2 + i, 4 + j). */
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 2, 4), ==, 100);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 7, 7), ==, 100 + 5 + 30);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 8, 7), ==, 20 + 8 * 7 + 7 * 3);
  /* Feature words are untouched. */
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 5, 5), ==, 1);

  /* Stamping the same section again reuses every tile; at the edge it is
   * clipped. */
  execute (stack, terrain_tnt_edit_new_stamp_section (map, section, 6, 5));
  g_assert_cmpstr (terrain_tnt_edit_get_report (top_edit (stack)), ==,
                   "stamped 3x2 tiles at tile (6, 5): 0 new tiles, 2 reused, 4 clipped");
  g_assert_cmpuint (terrain_tnt_edit_get_issues (top_edit (stack))->len, ==, 1);
  g_assert_cmpuint (terrain_tnt_map_get_n_tiles (map), ==, 6);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 13, 11), ==, 100 + 1 + 10);

  execute_fails (stack, terrain_tnt_edit_new_stamp_section (map, section, 8, 0),
                 TERRAIN_ERROR_OUT_OF_RANGE);
  execute_fails (stack, terrain_tnt_edit_new_stamp_section (map, section, -3, 0),
                 TERRAIN_ERROR_OUT_OF_RANGE);
  broken = build_section (3, 2, 3, (const guint8 (*)[TERRAIN_TNT_TILE_BYTES]) tiles, bad_entries,
                          0);
  execute_fails (stack, terrain_tnt_edit_new_stamp_section (map, broken, 0, 0),
                 TERRAIN_ERROR_OUT_OF_RANGE);
  g_assert_cmpuint (terrain_tnt_map_get_n_tiles (map), ==, 6);

  undo_all (stack);
  g_assert_cmpuint (terrain_tnt_map_get_n_tiles (map), ==, 4);
  undone = save (map);
  terrain_test_assert_bytes_equal (original, undone);
}

/* ------------------------------------------------------------------------ */
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
/* Legacy maps                                                              */

static void
test_legacy_features (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(TerrainCommandStack) stack = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GError) error = NULL;
  GByteArray *bytes = g_byte_array_new ();
  guint32 header[16] = { 0 };
  guint8 tile_map[2 * 2 * 2] = { 0 };
  guint8 cells[4 * 4 * 8];
  guint8 tile[TERRAIN_TNT_TILE_BYTES] = { 0 };
  guint8 record[132] = { 0 };

  /* A 4x4 legacy map with empty codes 0xFC..0xFF in its feature bytes. */
  for (guint i = 0; i < 16; i++)
    {
      memset (cells + 8 * i, 0, 8);
      cells[8 * i] = (guint8) (i * 3);
      cells[8 * i + 2] = (guint8) (0xFC + i % 4);
    }
  memcpy (record + 4, "Tree1", 5);
  header[0] = GUINT32_TO_LE (TERRAIN_TNT_VERSION_LEGACY);
  header[1] = GUINT32_TO_LE (4);
  header[2] = GUINT32_TO_LE (4);
  header[3] = GUINT32_TO_LE (64);
  header[4] = GUINT32_TO_LE (64 + sizeof tile_map);
  header[5] = GUINT32_TO_LE (64 + sizeof tile_map + sizeof cells);
  header[6] = GUINT32_TO_LE (1);
  header[7] = GUINT32_TO_LE (1);
  header[8] = GUINT32_TO_LE (64 + sizeof tile_map + sizeof cells + sizeof tile);
  g_byte_array_append (bytes, (const guint8 *) header, sizeof header);
  g_byte_array_append (bytes, tile_map, sizeof tile_map);
  g_byte_array_append (bytes, cells, sizeof cells);
  g_byte_array_append (bytes, tile, sizeof tile);
  g_byte_array_append (bytes, record, sizeof record);
  original = g_byte_array_free_to_bytes (bytes);

  map = terrain_tnt_map_new_from_bytes (original, NULL, &error);
  g_assert_no_error (error);
  stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));

  execute (stack, terrain_tnt_edit_new_place_feature (map, "tree1", 1, 2, NULL, NULL, NULL));
  execute (stack, terrain_tnt_edit_new_move_feature (map, 1, 2, 3, 3, NULL, NULL, NULL));
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 3, 3), ==, 0);
  execute_fails (stack, terrain_tnt_edit_new_void (map, 0, 0, 1, 1, TRUE),
                 TERRAIN_ERROR_NOT_SUPPORTED);

  /* Undo restores the original empty codes byte for byte. */
  undo_all (stack);
  undone = save (map);
  terrain_test_assert_bytes_equal (original, undone);
}

/* ------------------------------------------------------------------------ */
/* Failed saves                                                             */

/* Saves @map to @path with the file size limited to @limit bytes, the way
 * a full disk stops a write. */
static gboolean
save_with_size_limit (TerrainTntMap  *map,
                      const char     *path,
                      rlim_t          limit,
                      GError        **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  struct rlimit saved, limited;
  void (*previous) (int);
  gboolean ok;

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  limited = saved;
  limited.rlim_cur = limit;
  previous = signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limited), ==, 0);
  ok = terrain_document_save (TERRAIN_DOCUMENT (map), file, NULL, error);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  signal (SIGXFSZ, previous);
  return ok;
}

static guint
count_files (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d != NULL && g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static void
check_failed_save (TerrainTntMap *map,
                   GBytes        *original)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("terrain-tnt-edit-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "map.tnt", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-folder", "map.tnt", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) missing_file = g_file_new_for_path (missing);
  g_autoptr(GBytes) on_disk = NULL;
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  TerrainTntBrush brush = { TERRAIN_TNT_BRUSH_RAISE, 3, 5, TERRAIN_TNT_FALLOFF_LINEAR, 0 };

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (original, NULL),
                                      (gssize) g_bytes_get_size (original), &error));

  execute (stack, terrain_tnt_edit_new_sea_level (map, 7));
  execute (stack, terrain_tnt_edit_new_brush (map, &brush, 3, 3, 0));

  /* "Disk full" after 1 KiB: the save fails, the original stays, no
   * temporary file is left behind. */
  g_assert_false (save_with_size_limit (map, path, 1024, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO);
  g_test_message ("failed save reported: %s", error->message);
  g_clear_error (&error);
  on_disk = terrain_file_load_bytes (file, NULL, &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (original, on_disk);
  g_assert_cmpuint (count_files (dir), ==, 1);
  g_assert_true (terrain_document_get_modified (TERRAIN_DOCUMENT (map)));
  g_assert_false (terrain_command_stack_get_clean (stack));

  /* A folder that does not exist. */
  g_assert_false (terrain_document_save (TERRAIN_DOCUMENT (map), missing_file, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO);
  g_clear_error (&error);

  /* Then a save that succeeds marks the clean point. */
  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (map), file, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (terrain_command_stack_get_clean (stack));
  undo_all (stack);
  g_assert_false (terrain_command_stack_get_clean (stack));

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_failed_save (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = fixture_map (&original);

  check_failed_save (map, original);
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

  g_test_add_func ("/Terrain/TntEdit/sea-level", test_sea_level);
  g_test_add_func ("/Terrain/TntEdit/brush-weights", test_brush_weights);
  g_test_add_func ("/Terrain/TntEdit/brush-modes", test_brush_modes);
  g_test_add_func ("/Terrain/TntEdit/brush-reaches-map", test_brush_reaches_map);
  g_test_add_func ("/Terrain/TntEdit/brush-stroke-merge", test_brush_stroke_merge);
  g_test_add_func ("/Terrain/TntEdit/place-feature", test_place_feature);
  g_test_add_func ("/Terrain/TntEdit/move-remove-feature", test_move_remove_feature);
  g_test_add_func ("/Terrain/TntEdit/cleanup-features", test_cleanup_features);
  g_test_add_func ("/Terrain/TntEdit/void", test_void);
  g_test_add_func ("/Terrain/TntEdit/paint-tiles", test_paint_tiles);
  g_test_add_func ("/Terrain/TntEdit/resize", test_resize);
  g_test_add_func ("/Terrain/TntEdit/stamp-section", test_stamp_section);
  g_test_add_func ("/Terrain/TntEdit/import-image", test_import_image);
  g_test_add_func ("/Terrain/TntEdit/import-image-keep-tiles", test_import_image_keep_tiles);
  g_test_add_func ("/Terrain/TntEdit/import-heightmap", test_import_heightmap);
  g_test_add_func ("/Terrain/TntEdit/minimap", test_minimap_fixture);
  g_test_add_func ("/Terrain/TntEdit/feature-overlay", test_feature_overlay);
  g_test_add_func ("/Terrain/TntEdit/legacy-features", test_legacy_features);
  g_test_add_func ("/Terrain/TntEdit/failed-save", test_failed_save);
  g_test_add_data_func ("/Terrain/TntEdit/corpus/edits/ban", "ban.tnt", test_corpus_edits);
  g_test_add_data_func ("/Terrain/TntEdit/corpus/edits/bar", "bar.tnt", test_corpus_edits);
  g_test_add_data_func ("/Terrain/TntEdit/corpus/minimap/ban", "ban.tnt", test_corpus_minimap);
  g_test_add_data_func ("/Terrain/TntEdit/corpus/minimap/bar", "bar.tnt", test_corpus_minimap);
  g_test_add_func ("/Terrain/TntEdit/corpus/failed-save", test_corpus_failed_save);
  g_test_add_func ("/Terrain/TntEdit/corpus/resize", test_corpus_resize);
  g_test_add_func ("/Terrain/TntEdit/corpus/import-image", test_corpus_import_image);

  return g_test_run ();
}
