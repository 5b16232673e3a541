/* test-tnt-edit.c: TNT map edits through the command stack, and undo: sea level,
 * brushes, features, tiles, resize, stamps, legacy maps, failed saves
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Fixtures are built in code (test-tnt-edit-fixture.c). Image imports, the
 * minimap and the corpus edits are in test-tnt-image.c.
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

/* A resize without a palette re-frames the minimap for the new shape: a
 * 64x64-cell map (play area 992x896 px, used 252x227 of 252x252) grown by
 * 64 cells on the right (2016x896 px, used 252x112) keeps its old picture
 * in the left half of the new crop, the added ground in its tile's colour
 * on the right and the fill below; Undo gives the old picture back. */
static void
test_resize_minimap (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (64, 64, &error);
  g_autoptr(TerrainCommandStack) stack = NULL;
  g_autofree guint8 *old = g_malloc (252 * 252);
  guint8 tile[TERRAIN_TNT_TILE_BYTES];
  const guint8 *pixels;
  guint width = 0, height = 0, used_w = 0, used_h = 0;

  g_assert_no_error (error);
  memset (tile, 200, sizeof tile);
  g_assert_cmpuint (terrain_tnt_map_add_tile (map, tile), ==, 1);
  terrain_tnt_map_get_minimap_crop (map, 252, 252, &used_w, &used_h);
  g_assert_cmpuint (used_w, ==, 252);
  g_assert_cmpuint (used_h, ==, 227);
  for (guint y = 0; y < 252; y++)
    for (guint x = 0; x < 252; x++)
      old[y * 252 + x] = y < used_h ? 7 : TERRAIN_PALETTE_MINIMAP_FILL;
  g_assert_true (terrain_tnt_map_set_minimap (map, 252, 252, old, &error));
  g_assert_no_error (error);
  stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));

  execute (stack, terrain_tnt_edit_new_resize (map, 0, 0, 64, 0, 0, 1));
  pixels = terrain_tnt_map_get_minimap (map, &width, &height);
  g_assert_cmpuint (width, ==, 252);
  g_assert_cmpuint (height, ==, 252);
  terrain_tnt_map_get_minimap_used_size (map, &used_w, &used_h);
  g_assert_cmpuint (used_w, ==, 252);
  g_assert_cmpuint (used_h, ==, 112);
  /* Old play area: 992 of 2016 px, minimap columns 0..123 (centres below
   * 992 px); 124..127 the old margin, drawn from its tile 0 (all zeros);
   * 128.. the added ground (centres from 1028 px). */
  for (guint y = 0; y < used_h; y++)
    {
      g_assert_cmpuint (pixels[y * 252 + 0], ==, 7);
      g_assert_cmpuint (pixels[y * 252 + 123], ==, 7);
      g_assert_cmpuint (pixels[y * 252 + 124], ==, 0);
      g_assert_cmpuint (pixels[y * 252 + 128], ==, 200);
      g_assert_cmpuint (pixels[y * 252 + 251], ==, 200);
    }
  for (guint y = used_h; y < 252; y++)
    for (guint x = 0; x < 252; x++)
      g_assert_cmpuint (pixels[y * 252 + x], ==, TERRAIN_PALETTE_MINIMAP_FILL);

  /* Grown on the left instead: the added ground comes first. */
  terrain_command_stack_undo (stack);
  pixels = terrain_tnt_map_get_minimap (map, &width, &height);
  g_assert_cmpmem (pixels, (gsize) width * height, old, 252 * 252);
  execute (stack, terrain_tnt_edit_new_resize (map, 64, 0, 0, 0, 0, 1));
  pixels = terrain_tnt_map_get_minimap (map, NULL, NULL);
  g_assert_cmpuint (pixels[10 * 252 + 0], ==, 200);
  g_assert_cmpuint (pixels[10 * 252 + 251], ==, 7);
  g_assert_cmpuint (pixels[200 * 252 + 10], ==, TERRAIN_PALETTE_MINIMAP_FILL);
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

static void
test_failed_save (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainTntMap) map = fixture_map (&original);

  check_failed_save (map, original);
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
  g_test_add_func ("/Terrain/TntEdit/resize-minimap", test_resize_minimap);
  g_test_add_func ("/Terrain/TntEdit/stamp-section", test_stamp_section);
  g_test_add_func ("/Terrain/TntEdit/legacy-features", test_legacy_features);
  g_test_add_func ("/Terrain/TntEdit/failed-save", test_failed_save);

  return g_test_run ();
}
