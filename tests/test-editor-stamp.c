/* test-editor-stamp.c: the Stamp tool and its sections palette, under Xvfb
 *
 * A generated 64x48-cell map (heights 100, one black tile) and a 3x2-tile
 * SCT section built in code (terrain-test-fixtures.c, its tiles, preview
 * and heights redrawn so that they read in a screenshot). The section is
 * added to the palette through win.add-section (no file chooser), found by
 * a search and chosen; in grey and palette pictures and at several zooms
 * the pointer over the map view shows the section's footprint snapped to
 * whole tiles over the tile under the pointer, drawn where the view maps
 * it (blue in grey, the section's tiles with the palette); a click stamps
 * the section's tiles and heights there as one undo step, undo gives back
 * the map's bytes and redo the stamped ones. A footprint partly off the
 * map is red. A section dropped on the window joins the palette; the game
 * files' sections/ (in an archive and loose) are listed too.
 * TERRAIN_EDITOR_SCREENSHOT_DIR keeps docs/screenshots/editor-sct-stamp.png
 * and editor-sct-stamp-result.png.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>
#include <libterrain.h>

#include "terrain-test-fixtures.h"
#include "terrain-test-util.h"
#include "test-editor-util.h"
#include "terrain-editor-section-palette.h"

TerrainEditorApplication *app;

#define MAP_W 64
#define MAP_H 48
#define SECTION_W 3
#define SECTION_H 2
#define SECTION_TILES 4

typedef struct
{
  char  *dir;
  char  *palette_path;
  char  *section_path;
  GFile *map_file;
  TerrainSctSection *section;
} Fixture;

/* Tile t: a 4-pixel checker of two bright grey levels, one pair a tile. */
static guint8
tile_pixel (guint t,
            guint px,
            guint py)
{
  return (guint8) (((px / 8 + py / 8) % 2 == 0 ? 120 : 190) + t * 15);
}

/* Heights: a hill, 250 at the section's centre, 140 at its corners. */
static guint8
hill (guint x,
      guint y)
{
  double dx = x + 0.5 - SECTION_W, dy = y + 0.5 - SECTION_H;

  return (guint8) (250 - 110 * hypot (dx, dy) / hypot (SECTION_W, SECTION_H));
}

static void
build_section (Fixture *f)
{
  const TerrainTestSctSpec spec = { "stamp", TERRAIN_TEST_SCT_V3, SECTION_W, SECTION_H, SECTION_TILES, 0, 0 };
  g_auto(TerrainTestSct) sct = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GFile) file = NULL;
  guint8 *data;
  gsize size;

  terrain_test_sct_build (&sct, &spec);
  data = g_bytes_unref_to_data (g_bytes_ref (sct.bytes), &size);
  for (guint t = 0; t < SECTION_TILES; t++)
    for (guint p = 0; p < TERRAIN_SCT_TILE_BYTES; p++)
      data[sct.offset[TERRAIN_SCT_BLOCK_TILES] + t * TERRAIN_SCT_TILE_BYTES + p] = tile_pixel (t, p % 32, p / 32);
  /* The preview: the tiles, scaled. */
  for (guint y = 0; y < TERRAIN_SCT_PREVIEW_SIDE; y++)
    for (guint x = 0; x < TERRAIN_SCT_PREVIEW_SIDE; x++)
      {
        guint column = x * SECTION_W / TERRAIN_SCT_PREVIEW_SIDE, row = y * SECTION_H / TERRAIN_SCT_PREVIEW_SIDE;

        data[sct.offset[TERRAIN_SCT_BLOCK_PREVIEW] + y * TERRAIN_SCT_PREVIEW_SIDE + x] =
          tile_pixel (terrain_test_sct_tile_index (&sct, column, row), x * 4 % 32, y * 4 % 32);
      }
  bytes = g_bytes_new_take (data, size);
  f->section = terrain_sct_section_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  for (guint y = 0; y < SECTION_H * 2; y++)
    for (guint x = 0; x < SECTION_W * 2; x++)
      terrain_sct_section_set_cell_height (f->section, x, y, hill (x, y));
  f->section_path = g_build_filename (f->dir, "Hill.sct", NULL);
  file = g_file_new_for_path (f->section_path);
  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (f->section), file, NULL, &error));
  g_assert_no_error (error);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (MAP_W, MAP_H, &error);
  g_autofree char *map_path = NULL;
  guint8 pal[1024];

  g_assert_no_error (error);
  f->dir = g_dir_make_tmp ("test-editor-stamp-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint y = 0; y < MAP_H; y++)
    for (guint x = 0; x < MAP_W; x++)
      terrain_tnt_map_set_cell_height (map, x, y, 100);
  terrain_tnt_map_set_sea_level (map, 0, NULL);
  map_path = g_build_filename (f->dir, "plain.tnt", NULL);
  f->map_file = g_file_new_for_path (map_path);
  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (map), f->map_file, NULL, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < 256; i++)
    {
      pal[4 * i] = pal[4 * i + 1] = pal[4 * i + 2] = (guint8) i;
      pal[4 * i + 3] = 0;
    }
  f->palette_path = g_build_filename (f->dir, "PALETTE.PAL", NULL);
  g_assert_true (g_file_set_contents (f->palette_path, (const char *) pal, sizeof pal, &error));
  g_assert_no_error (error);
  build_section (f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  terrain_test_remove_tree (f->dir);
  g_settings_reset (terrain_editor_application_get_settings (app), "palette-path");
  g_clear_object (&f->map_file);
  g_clear_object (&f->section);
  g_free (f->palette_path);
  g_free (f->section_path);
  g_free (f->dir);
}

/* The section's tiles through the grey palette, translucent over the
 * black map: mid greys (the footprint's white outline left out). */
static gboolean
is_section_grey (const guint8 *p)
{
  return p[0] > 60 && p[0] < 200 && ABS (p[0] - p[1]) < 12 && ABS (p[0] - p[2]) < 12;
}

static TerrainEditorWindow *
open_shown (Fixture *f)
{
  return open_presented (f->map_file);
}

/* The pointer at widget point (@wx, @wy), as the view reports it. */
static void
pointer (TerrainEditorMapView  *view,
         TerrainEditorMapPhase  phase,
         double                 wx,
         double                 wy)
{
  double cx, cy;

  terrain_editor_map_view_cell_at (view, wx, wy, &cx, &cy);
  g_signal_emit_by_name (view, "cell-event", phase, cx, cy, 1u, (GdkModifierType) 0);
  iterate (20);
}

/* The footprint's translucent blue (gdk_texture_download() gives BGRA). */
static gboolean
is_preview_blue (const guint8 *p)
{
  return p[0] > p[2] + 60 && p[0] > p[1] + 30;
}

/* The section's tiles and heights are on the map with its top-left tile
 * at (@column, @row); the cells about it are untouched. */
static void
assert_stamped (TerrainTntMap     *map,
                TerrainSctSection *section,
                int                column,
                int                row)
{
  for (guint r = 0; r < SECTION_H; r++)
    for (guint c = 0; c < SECTION_W; c++)
      {
        guint16 index = terrain_tnt_map_get_tile_index (map, column + c, row + r);

        g_assert_cmpmem (terrain_tnt_map_get_tile (map, index), TERRAIN_SCT_TILE_BYTES,
                         terrain_sct_section_get_tile (section, terrain_sct_section_get_tile_index (section, c, r)),
                         TERRAIN_SCT_TILE_BYTES);
      }
  for (guint y = 0; y < SECTION_H * 2; y++)
    for (guint x = 0; x < SECTION_W * 2; x++)
      g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, column * 2 + x, row * 2 + y), ==, hill (x, y));
  if (column > 0)
    g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, column * 2 - 1, row * 2), ==, 100);
  if (row > 0)
    g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, column * 2, row * 2 - 1), ==, 100);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, column * 2 + SECTION_W * 2, row * 2), ==, 100);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, column * 2, row * 2 + SECTION_H * 2), ==, 100);
}

static GBytes *
map_bytes (TerrainTntMap *map)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (map), &error);

  g_assert_no_error (error);
  return bytes;
}

static TerrainEditorSectionPalette *
add_hill (Fixture             *f,
          TerrainEditorWindow *window)
{
  TerrainEditorSectionPalette *palette =
    TERRAIN_EDITOR_SECTION_PALETTE (find_named (GTK_WIDGET (window), "section-palette"));
  GListModel *shown;

  g_assert_nonnull (palette);
  shown = terrain_editor_section_palette_get_shown (palette);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 0);
  g_assert_null (terrain_editor_section_palette_get_selected (palette));

  /* Added as drag and drop does: the Stamp tool shows with it chosen. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.add-section", "s", f->section_path);
  g_assert_null (terrain_editor_window_get_error_message (window));
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1);
  g_assert_cmpstr (terrain_editor_section_palette_get_selected_name (palette), ==, "Hill");
  g_assert_nonnull (terrain_editor_section_palette_get_selected (palette));
  g_assert_true (has_label_containing (GTK_WIDGET (palette), "3×2 tiles"));
  g_assert_true (has_label_containing (GTK_WIDGET (window), "Stamping “Hill”: 3×2 tiles (6×4 cells)"));
  {
    g_autofree char *tool = NULL;

    g_object_get (window, "tool", &tool, NULL);
    g_assert_cmpstr (tool, ==, "stamp");
  }

  /* Searched by name. */
  terrain_editor_section_palette_set_search (palette, "cliff");
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 0);
  terrain_editor_section_palette_set_search (palette, "HIL");
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1);
  terrain_editor_section_palette_set_search (palette, "");
  g_assert_true (terrain_editor_section_palette_select (palette, "hill"));
  return palette;
}

static void
check_mode (Fixture             *f,
            TerrainEditorWindow *window,
            double               cell_pixels,
            const char          *mode)
{
  TerrainEditorMapView *view = map_view (window);
  TerrainTntMap *map = TERRAIN_TNT_MAP (terrain_editor_window_get_document (window));
  TerrainCommandStack *stack = terrain_editor_window_get_command_stack (window);
  /* Screen pixels a cell: 0 is Fit. */
  const double zooms[] = { 0, 3, 8, 24 };

  for (guint i = 0; i < G_N_ELEMENTS (zooms); i++)
    {
      g_autoptr(GBytes) before = map_bytes (map);
      g_autoptr(GBytes) stamped = NULL;
      g_autoptr(GBytes) undone = NULL;
      g_autoptr(GBytes) redone = NULL;
      double wx, wy, cx, cy, bx = 0, by = 0, ppc;
      int x, y, w, h, column, row;
      gboolean blocked = TRUE;

      if (zooms[i] == 0)
        terrain_editor_map_view_zoom_to_fit (view);
      else
        terrain_editor_map_view_set_zoom (view, zooms[i] / cell_pixels);
      iterate (50);
      terrain_editor_map_view_center_on (view, 30, 20);
      iterate (50);
      ppc = terrain_editor_map_view_get_zoom (view) * cell_pixels;
      g_test_message ("%s, %.2f px a cell", mode, ppc);

      /* The pointer over cell (29.3, 21.6) (tile 14, 10): the 3x2-tile
       * footprint about it starts at tile (13, 10). */
      terrain_editor_map_view_cell_at (view, gtk_widget_get_width (GTK_WIDGET (view)) / 2.0,
                                       gtk_widget_get_height (GTK_WIDGET (view)) / 2.0, &cx, &cy);
      wx = gtk_widget_get_width (GTK_WIDGET (view)) / 2.0 + (29.3 - cx) * ppc;
      wy = gtk_widget_get_height (GTK_WIDGET (view)) / 2.0 + (21.6 - cy) * ppc;
      terrain_editor_map_view_cell_at (view, wx, wy, &cx, &cy);
      g_assert_cmpint ((int) floor (cx / 2), ==, 14);
      g_assert_cmpint ((int) floor (cy / 2), ==, 10);
      pointer (view, TERRAIN_EDITOR_MAP_HOVER, wx, wy);
      g_assert_true (terrain_editor_map_view_get_preview_rect (view, &x, &y, &w, &h, &blocked));
      g_assert_cmpint (x, ==, 26);
      g_assert_cmpint (y, ==, 20);
      g_assert_cmpint (w, ==, 6);
      g_assert_cmpint (h, ==, 4);
      g_assert_false (blocked);
      /* Drawn where the view maps it, blue without a palette, the
       * section's tiles with one: the footprint's centre, cell (29, 22). */
      g_assert_cmpuint (find_pixels (GTK_WIDGET (view), cell_pixels == 1 ? is_preview_blue : is_section_grey, &bx,
                                     &by), >, 6 * 4 * ppc * ppc * 0.5);
      terrain_editor_map_view_cell_at (view, bx, by, &cx, &cy);
      g_assert_cmpfloat_with_epsilon (cx, 29, MAX (0.2, 1.5 / ppc));
      g_assert_cmpfloat_with_epsilon (cy, 22, MAX (0.2, 1.5 / ppc));
      if (i == 3 && g_str_equal (mode, "palette"))
        save_screenshot (GTK_WIDGET (window), "editor-sct-stamp.png");

      /* A click stamps it there: one undo step. */
      column = x / 2;
      row = y / 2;
      pointer (view, TERRAIN_EDITOR_MAP_PRESS, wx, wy);
      pointer (view, TERRAIN_EDITOR_MAP_RELEASE, wx, wy);
      g_assert_null (terrain_editor_window_get_error_message (window));
      assert_stamped (map, f->section, column, row);
      g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 1);
      stamped = map_bytes (map);
      g_assert_false (g_bytes_equal (stamped, before));

      gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
      undone = map_bytes (map);
      g_assert_true (g_bytes_equal (undone, before));
      g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 28, 21), ==, 100);
      gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL);
      redone = map_bytes (map);
      g_assert_true (g_bytes_equal (redone, stamped));
      assert_stamped (map, f->section, column, row);
      gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
      g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 0);
    }

  /* Partly off the map (the pointer on the last tile): red. */
  terrain_editor_map_view_zoom_to_fit (view);
  iterate (50);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_HOVER, MAP_W - 0.5, MAP_H - 0.5, 0u,
                         (GdkModifierType) 0);
  {
    int x, y;
    gboolean blocked = FALSE;

    g_assert_true (terrain_editor_map_view_get_preview_rect (view, &x, &y, NULL, NULL, &blocked));
    g_assert_cmpint (x, ==, MAP_W - 2 - 2);
    g_assert_cmpint (y, ==, MAP_H - 2);
    g_assert_true (blocked);
  }
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_LEAVE, -1.0, -1.0, 0u, (GdkModifierType) 0);
  g_assert_false (terrain_editor_map_view_get_preview_rect (view, NULL, NULL, NULL, NULL, NULL));
}

static void
test_stamp (Fixture       *f,
            gconstpointer  data)
{
  GSettings *settings = terrain_editor_application_get_settings (app);
  TerrainEditorWindow *window;

  g_settings_reset (settings, "palette-path");
  window = open_shown (f);
  add_hill (f, window);
  check_mode (f, window, 1, "grey");

  g_settings_set_string (settings, "palette-path", f->palette_path);
  g_assert_nonnull (terrain_editor_application_get_palette (app));
  iterate (300);
  check_mode (f, window, TERRAIN_TNT_CELL_PIXELS, "palette");

  /* Stamped and left so, for a screenshot of the result. */
  terrain_editor_map_view_set_zoom (map_view (window), 24.0 / TERRAIN_TNT_CELL_PIXELS);
  terrain_editor_map_view_center_on (map_view (window), 30, 20);
  iterate (50);
  g_signal_emit_by_name (map_view (window), "cell-event", TERRAIN_EDITOR_MAP_PRESS, 26.0, 16.0, 1u,
                         (GdkModifierType) 0);
  g_signal_emit_by_name (map_view (window), "cell-event", TERRAIN_EDITOR_MAP_RELEASE, 26.0, 16.0, 1u,
                         (GdkModifierType) 0);
  g_signal_emit_by_name (map_view (window), "cell-event", TERRAIN_EDITOR_MAP_HOVER, 34.0, 24.0, 0u,
                         (GdkModifierType) 0);
  assert_stamped (TERRAIN_TNT_MAP (terrain_editor_window_get_document (window)), f->section, 12, 7);
  /* The picture is drawn again with the new tiles. */
  iterate (1500);
  save_screenshot (GTK_WIDGET (window), "editor-sct-stamp-result.png");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  close_window (window);
}

/* A file that is not a section says so and is not listed. */
static void
test_add_bad_section (Fixture       *f,
                      gconstpointer  data)
{
  TerrainEditorWindow *window = open_shown (f);
  TerrainEditorSectionPalette *palette =
    TERRAIN_EDITOR_SECTION_PALETTE (find_named (GTK_WIDGET (window), "section-palette"));
  g_autofree char *bad = g_build_filename (f->dir, "bad.sct", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (bad, "not a section", -1, &error));
  g_assert_no_error (error);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.add-section", "s", bad);
  g_assert_nonnull (terrain_editor_window_get_error_message (window));
  g_assert_nonnull (strstr (terrain_editor_window_get_error_message (window), "bad.sct"));
  g_assert_cmpuint (g_list_model_get_n_items (terrain_editor_section_palette_get_shown (palette)), ==, 0);
  close_window (window);
}

/* With the game files named (a folder as an install: an archive holding
 * palettes/ and sections/cliffs/Cliff.sct, and a loose sections/Ledge.sct),
 * their sections are listed after the added ones, read when chosen (the
 * archive's compressed), and stamp. */
static void
test_game_sections (Fixture       *f,
                    gconstpointer  data)
{
  GSettings *settings = terrain_editor_application_get_settings (app);
  g_autofree char *install = g_build_filename (f->dir, "TA", NULL);
  g_autofree char *sections = g_build_filename (install, "sections", NULL);
  g_autofree char *ledge = g_build_filename (sections, "Ledge.sct", NULL);
  g_autofree char *hpi = g_build_filename (install, "totala1.hpi", NULL);
  g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
  g_autoptr(GFile) archive = g_file_new_for_path (hpi);
  g_autoptr(GBytes) section = NULL;
  g_autoptr(GBytes) pal = NULL;
  g_autofree char *contents = NULL;
  gsize length;
  g_autoptr(GError) error = NULL;
  const char *const paths[] = { install, NULL };
  TerrainEditorWindow *window;
  TerrainEditorSectionPalette *palette;
  GListModel *shown;

  g_assert_cmpint (g_mkdir_with_parents (sections, 0755), ==, 0);
  g_assert_true (g_file_get_contents (f->section_path, &contents, &length, &error));
  g_assert_true (g_file_set_contents (ledge, contents, length, &error));
  section = g_bytes_new_take (g_steal_pointer (&contents), length);
  g_assert_true (g_file_get_contents (f->palette_path, &contents, &length, &error));
  pal = g_bytes_new_take (g_steal_pointer (&contents), length);
  g_assert_true (terrain_hpi_writer_add_file (writer, "palettes/PALETTE.PAL", pal, TERRAIN_HPI_COMPRESSION_ZLIB,
                                              &error));
  g_assert_true (terrain_hpi_writer_add_file (writer, "sections/cliffs/Cliff.sct", section,
                                              TERRAIN_HPI_COMPRESSION_LZ77, &error));
  g_assert_true (terrain_hpi_writer_save (writer, archive, NULL, &error));
  g_assert_no_error (error);
  g_settings_set_strv (settings, "game-files", paths);

  window = open_shown (f);
  palette = TERRAIN_EDITOR_SECTION_PALETTE (find_named (GTK_WIDGET (window), "section-palette"));
  shown = terrain_editor_section_palette_get_shown (palette);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 2);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.add-section", "s", f->section_path);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 3);
  terrain_editor_section_palette_set_search (palette, "ledge");
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1);
  terrain_editor_section_palette_set_search (palette, "");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "stamp");
  g_assert_true (terrain_editor_section_palette_select (palette, "Cliff"));
  g_assert_cmpstr (terrain_editor_section_palette_get_selected_name (palette), ==, "Cliff");
  g_assert_nonnull (terrain_editor_section_palette_get_selected (palette));
  iterate (100);
  g_assert_true (has_label_containing (GTK_WIDGET (window), "Stamping “Cliff”"));
  g_signal_emit_by_name (map_view (window), "cell-event", TERRAIN_EDITOR_MAP_PRESS, 20.0, 14.0, 1u,
                         (GdkModifierType) 0);
  assert_stamped (TERRAIN_TNT_MAP (terrain_editor_window_get_document (window)), f->section, 9, 6);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  close_window (window);

  /* No game files for the next test. */
  g_settings_reset (settings, "game-files");
  iterate (100);
}

/* A .sct file dropped on the window (with a map open) joins the palette
 * and the Stamp tool shows, the map staying open; a map dropped with it
 * opens in a window of its own. */
static void
test_drop_section (Fixture       *f,
                   gconstpointer  data)
{
  TerrainEditorWindow *window = open_shown (f);
  TerrainEditorSectionPalette *palette =
    TERRAIN_EDITOR_SECTION_PALETTE (find_named (GTK_WIDGET (window), "section-palette"));
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  GtkDropTarget *drop = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (f->section_path);
  /* The list owns its files (g_slist_free_full (…, g_object_unref)). */
  GSList *files = g_slist_append (NULL, g_object_ref (file));
  GValue value = G_VALUE_INIT;
  g_autofree char *tool = NULL;
  gboolean accepted = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && drop == NULL; i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        drop = GTK_DROP_TARGET (controller);
    }
  g_assert_nonnull (drop);
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, files);
  g_signal_emit_by_name (drop, "drop", &value, 100.0, 100.0, &accepted);
  g_value_unset (&value);
  g_assert_true (accepted);
  iterate (50);

  g_assert_cmpuint (g_list_model_get_n_items (terrain_editor_section_palette_get_shown (palette)), ==, 1);
  g_assert_cmpstr (terrain_editor_section_palette_get_selected_name (palette), ==, "Hill");
  g_object_get (window, "tool", &tool, NULL);
  g_assert_cmpstr (tool, ==, "stamp");
  g_assert_true (g_file_equal (terrain_editor_window_get_file (window), f->map_file));
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, 1);
  close_window (window);
}

int
main (int    argc,
      char **argv)
{
  int status;

  editor_test_init (&argc, &argv);

  g_test_add ("/Terrain/Editor/Stamp/pointer-undo-redo", Fixture, NULL, fixture_setup, test_stamp,
              fixture_teardown);
  g_test_add ("/Terrain/Editor/Stamp/bad-section", Fixture, NULL, fixture_setup, test_add_bad_section,
              fixture_teardown);
  g_test_add ("/Terrain/Editor/Stamp/drop-section", Fixture, NULL, fixture_setup, test_drop_section,
              fixture_teardown);
  g_test_add ("/Terrain/Editor/Stamp/game-sections", Fixture, NULL, fixture_setup, test_game_sections,
              fixture_teardown);
  status = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);
  return status;
}
