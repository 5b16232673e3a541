/* test-editor-tools.c: the editor's tools where the pointer is, under Xvfb
 *
 * A generated map with one bright 2x2-cell block (high cells, and a white
 * tile over them) is drawn without a palette (heights in grey) and with
 * one, at Fit and at several zooms: the block found in the drawn view is at
 * the cell the view reports for that point, and a brush dab there raises
 * the cells under it and nothing far away. Zooming about a point keeps the
 * cell under it; a palette change fits the map in the view again; closing
 * a window with unsaved changes and choosing Discard closes it without a
 * warning (the test runs with G_DEBUG=fatal-warnings). With the corpus,
 * ban.tnt in grey takes a brush stroke ending at the pointer (the cell under
 * it raised, the ring about it), and with the TA palette its sea level is
 * raised with the spin button (low cells tinted by depth in the view).
 * TERRAIN_EDITOR_SCREENSHOT_DIR keeps screenshots.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <libterrain.h>

#include "terrain-test-util.h"
#include "test-editor-util.h"

TerrainEditorApplication *app;

#define MAP_W 64
#define MAP_H 48
/* The bright block: cells BX..BX+1, BY..BY+1 (tile BX/2, BY/2). */
#define BX 36
#define BY 20

typedef struct
{
  char  *dir;
  char  *map_path;
  char  *palette_path;
  GFile *map_file;
} Fixture;

/* Heights 100, the block 255; tile 0 black, tile 1 white over the block;
 * a grey-ramp palette beside it. */
static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (MAP_W, MAP_H, &error);
  g_autofree guint8 *white = g_malloc (TERRAIN_TNT_TILE_PIXELS * TERRAIN_TNT_TILE_PIXELS);
  guint8 pal[1024];
  guint tile;

  g_assert_no_error (error);
  f->dir = g_dir_make_tmp ("test-editor-tools-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint y = 0; y < MAP_H; y++)
    for (guint x = 0; x < MAP_W; x++)
      terrain_tnt_map_set_cell_height (map, x, y, 100);
  for (guint y = BY; y < BY + 2; y++)
    for (guint x = BX; x < BX + 2; x++)
      terrain_tnt_map_set_cell_height (map, x, y, 255);
  memset (white, 255, TERRAIN_TNT_TILE_PIXELS * TERRAIN_TNT_TILE_PIXELS);
  tile = terrain_tnt_map_add_tile (map, white);
  terrain_tnt_map_set_tile_index (map, BX / 2, BY / 2, (guint16) tile);
  terrain_tnt_map_set_sea_level (map, 0, NULL);
  f->map_path = g_build_filename (f->dir, "block.tnt", NULL);
  f->map_file = g_file_new_for_path (f->map_path);
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
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  terrain_test_remove_tree (f->dir);
  g_settings_reset (terrain_editor_application_get_settings (app), "palette-path");
  g_clear_object (&f->map_file);
  g_free (f->map_path);
  g_free (f->palette_path);
  g_free (f->dir);
}

static TerrainEditorWindow *
open_shown (Fixture *f)
{
  return open_presented (f->map_file);
}

/* The centre of the view's white pixels; FALSE when there are none. */
static gboolean
find_block (GtkWidget *view,
            double    *wx,
            double    *wy)
{
  g_autoptr(GdkTexture) texture = render_widget (view);
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guint8 *data = g_malloc ((gsize) width * height * 4);
  double sx = 0, sy = 0;
  guint n = 0;

  gdk_texture_download (texture, data, (gsize) width * 4);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        const guint8 *p = data + ((gsize) y * width + x) * 4;

        if (p[0] > 230 && p[1] > 230 && p[2] > 230)
          {
            sx += x + 0.5;
            sy += y + 0.5;
            n++;
          }
      }
  if (n == 0)
    return FALSE;
  *wx = sx / n;
  *wy = sy / n;
  return TRUE;
}

static void
check_mode (TerrainEditorWindow *window,
            double               cell_pixels,
            const char          *mode)
{
  TerrainEditorMapView *view = map_view (window);
  TerrainTntMap *map = TERRAIN_TNT_MAP (terrain_editor_window_get_document (window));
  TerrainCommandStack *stack = terrain_editor_window_get_command_stack (window);
  /* Screen pixels a cell: 0 is Fit. */
  const double zooms[] = { 0, 3, 8, 24, 64 };

  for (guint i = 0; i < G_N_ELEMENTS (zooms); i++)
    {
      double wx = 0, wy = 0, cx, cy, ppc;
      guint8 before_far;

      if (zooms[i] == 0)
        terrain_editor_map_view_zoom_to_fit (view);
      else
        terrain_editor_map_view_set_zoom (view, zooms[i] / cell_pixels);
      iterate (50);
      terrain_editor_map_view_center_on (view, BX + 1, BY + 1);
      iterate (50);
      ppc = terrain_editor_map_view_get_zoom (view) * cell_pixels;

      g_test_message ("%s, %.2f px a cell", mode, ppc);
      g_assert_true (find_block (GTK_WIDGET (view), &wx, &wy));
      terrain_editor_map_view_cell_at (view, wx, wy, &cx, &cy);
      /* The block's centre is the corner between its four cells. */
      g_assert_cmpfloat_with_epsilon (cx, BX + 1, MAX (0.1, 1.0 / ppc));
      g_assert_cmpfloat_with_epsilon (cy, BY + 1, MAX (0.1, 1.0 / ppc));

      /* A dab 10 cells right of the block raises the cell there. */
      terrain_editor_map_view_cell_at (view, wx + 10.5 * ppc, wy + 0.5 * ppc, &cx, &cy);
      g_assert_cmpint ((int) floor (cx), ==, BX + 11);
      g_assert_cmpint ((int) floor (cy), ==, BY + 1);
      before_far = terrain_tnt_map_get_cell_height (map, BX + 11, BY + 9);
      gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "brush");
      g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_PRESS, cx, cy, 1u, (GdkModifierType) 0);
      g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_RELEASE, cx, cy, 1u, (GdkModifierType) 0);
      g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, BX + 11, BY + 1), >, 100);
      g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, BX + 11, BY + 9), ==, before_far);
      if (i == 2)
        {
          g_autofree char *name = g_strdup_printf ("editor-brush-%s.png", mode);

          terrain_editor_map_view_set_brush (view, TRUE, cx, cy, 3);
          save_screenshot (GTK_WIDGET (view), name);
        }
      gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
      g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, BX + 11, BY + 1), ==, 100);
      g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 0);
      terrain_editor_map_view_set_brush (view, FALSE, 0, 0, 0);
    }
}

static void
test_pointer_grey_and_palette (Fixture       *f,
                               gconstpointer  data)
{
  TerrainEditorWindow *window;
  GSettings *settings = terrain_editor_application_get_settings (app);

  g_settings_reset (settings, "palette-path");
  window = open_shown (f);
  check_mode (window, 1, "grey");

  g_settings_set_string (settings, "palette-path", f->palette_path);
  g_assert_nonnull (terrain_editor_application_get_palette (app));
  iterate (300);
  check_mode (window, TERRAIN_TNT_CELL_PIXELS, "palette");
  close_window (window);
}

static void
test_zoom_at_pointer (Fixture       *f,
                      gconstpointer  data)
{
  TerrainEditorWindow *window = open_shown (f);
  TerrainEditorMapView *view = map_view (window);
  const double points[][2] = { { 100, 80 }, { 700, 500 }, { 300, 400 } };

  /* 20 px a cell: the map is larger than the view. */
  terrain_editor_map_view_set_zoom (view, 20);
  iterate (50);
  for (guint i = 0; i < G_N_ELEMENTS (points); i++)
    {
      double x0, y0, x1, y1;

      terrain_editor_map_view_cell_at (view, points[i][0], points[i][1], &x0, &y0);
      terrain_editor_map_view_zoom_at (view, terrain_editor_map_view_get_zoom (view) * 1.44,
                                       points[i][0], points[i][1]);
      iterate (20);
      terrain_editor_map_view_cell_at (view, points[i][0], points[i][1], &x1, &y1);
      g_assert_cmpfloat_with_epsilon (x1, x0, 0.01);
      g_assert_cmpfloat_with_epsilon (y1, y0, 0.01);
    }
  close_window (window);
}

/* After a palette change the picture is 16 times larger: the whole map is
 * fitted in the view again. */
static void
test_palette_refits (Fixture       *f,
                     gconstpointer  data)
{
  TerrainEditorWindow *window;
  TerrainEditorMapView *view;
  GSettings *settings = terrain_editor_application_get_settings (app);
  double x0, y0, x1, y1;
  int width, height;

  g_settings_reset (settings, "palette-path");
  window = open_shown (f);
  view = map_view (window);
  terrain_editor_map_view_zoom_to_fit (view);
  iterate (50);

  g_settings_set_string (settings, "palette-path", f->palette_path);
  iterate (300);
  width = gtk_widget_get_width (GTK_WIDGET (view));
  height = gtk_widget_get_height (GTK_WIDGET (view));
  terrain_editor_map_view_cell_at (view, 0, 0, &x0, &y0);
  terrain_editor_map_view_cell_at (view, width, height, &x1, &y1);
  g_assert_cmpfloat (x0, <=, 0.01);
  g_assert_cmpfloat (y0, <=, 0.01);
  g_assert_cmpfloat (x1, >=, MAP_W - 0.01);
  g_assert_cmpfloat (y1, >=, MAP_H - 0.01);
  close_window (window);
}

static GtkWindow *
find_transient (GtkWindow *parent)
{
  return find_transient_of_type (parent, GTK_TYPE_MESSAGE_DIALOG);
}

/* The window's close button with unsaved changes: Cancel keeps it, Discard
 * closes it, and no warning is printed (fatal here). */
static void
test_close_discard (Fixture       *f,
                    gconstpointer  data)
{
  TerrainEditorWindow *window = open_shown (f);
  TerrainTntMap *map = TERRAIN_TNT_MAP (terrain_editor_window_get_document (window));
  GtkAdjustment *sea = GTK_ADJUSTMENT (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                      TERRAIN_EDITOR_TYPE_WINDOW,
                                                                      "sea_adjustment"));
  GtkWindow *dialog;
  GWeakRef ref;

  gtk_adjustment_set_value (sea, 40);
  g_assert_cmpuint (terrain_tnt_map_get_sea_level (map), ==, 40);
  g_weak_ref_init (&ref, window);

  gtk_window_close (GTK_WINDOW (window));
  iterate (100);
  dialog = find_transient (GTK_WINDOW (window));
  g_assert_nonnull (dialog);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  iterate (100);
  g_assert_nonnull (g_weak_ref_get (&ref));
  g_object_unref (window);
  g_assert_null (find_transient (GTK_WINDOW (window)));

  gtk_window_close (GTK_WINDOW (window));
  iterate (100);
  dialog = find_transient (GTK_WINDOW (window));
  g_assert_nonnull (dialog);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_REJECT);
  assert_finalized (&ref);
  /* The map on disk is unchanged. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainDocument) again = terrain_document_load (f->map_file, NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (terrain_tnt_map_get_sea_level (TERRAIN_TNT_MAP (again)), ==, 0);
  }
}

/* Save As opens in the map's folder, named after it. */
static void
test_save_as_folder (Fixture       *f,
                     gconstpointer  data)
{
  TerrainEditorWindow *window = open_shown (f);
  g_autoptr(GFile) folder = NULL;
  g_autoptr(GFile) expected = g_file_new_for_path (f->dir);
  g_autofree char *name = NULL;
  GtkWindow *chooser;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.save-as", "s", "");
  iterate (300);
  chooser = find_transient_of_type (GTK_WINDOW (window), GTK_TYPE_FILE_CHOOSER_DIALOG);
  g_assert_nonnull (chooser);
  folder = gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (chooser));
  g_assert_nonnull (folder);
  g_assert_true (g_file_equal (folder, expected));
  name = gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (chooser));
  g_assert_cmpstr (name, ==, "block.tnt");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  iterate (100);
  close_window (window);
}

/* The Preferences palette entry: typing a path loads nothing until it
 * names a file (then after a short delay) or is activated; a bad path's
 * error goes once a good one loads, and the view fits the new picture. */
static void
test_preferences_palette (Fixture       *f,
                          gconstpointer  data)
{
  GSettings *settings = terrain_editor_application_get_settings (app);
  TerrainEditorWindow *window;
  g_autofree char *half = NULL;
  g_autofree char *bad = g_build_filename (f->dir, "block.tnt", NULL);
  g_autofree char *value = NULL;
  GtkWindow *prefs;
  GtkWidget *entry;
  double x1, y1;

  g_settings_reset (settings, "palette-path");
  window = open_shown (f);
  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  iterate (200);
  prefs = NULL;
  entry = NULL;
  {
    g_autoptr(GListModel) toplevels = g_object_ref (gtk_window_get_toplevels ());

    for (guint i = 0; i < g_list_model_get_n_items (toplevels) && entry == NULL; i++)
      {
        g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

        entry = find_buildable (GTK_WIDGET (w), "palette_entry");
        if (entry != NULL)
          prefs = w;
      }
  }
  g_assert_nonnull (entry);

  /* Half a path: nothing is loaded, no error. */
  half = g_strndup (f->palette_path, strlen (f->palette_path) - 4);
  gtk_editable_set_text (GTK_EDITABLE (entry), half);
  iterate (600);
  value = g_settings_get_string (settings, "palette-path");
  g_assert_cmpstr (value, ==, "");
  g_clear_pointer (&value, g_free);
  g_assert_null (terrain_editor_window_get_error_message (window));

  /* A file that is not a palette, activated: its error, on the entry too. */
  gtk_editable_set_text (GTK_EDITABLE (entry), bad);
  g_signal_emit_by_name (entry, "activate");
  iterate (100);
  g_assert_nonnull (terrain_editor_window_get_error_message (window));
  g_assert_nonnull (gtk_entry_get_icon_name (GTK_ENTRY (entry), GTK_ENTRY_ICON_SECONDARY));

  /* The whole path of the palette: loaded after the delay, errors gone,
   * the map fitted. */
  gtk_editable_set_text (GTK_EDITABLE (entry), f->palette_path);
  iterate (100);
  g_assert_null (terrain_editor_application_get_palette (app));
  iterate (700);
  g_assert_nonnull (terrain_editor_application_get_palette (app));
  g_assert_null (terrain_editor_application_get_palette_error (app));
  g_assert_null (terrain_editor_window_get_error_message (window));
  g_assert_null (gtk_entry_get_icon_name (GTK_ENTRY (entry), GTK_ENTRY_ICON_SECONDARY));
  terrain_editor_map_view_cell_at (map_view (window), gtk_widget_get_width (GTK_WIDGET (map_view (window))),
                                   gtk_widget_get_height (GTK_WIDGET (map_view (window))), &x1, &y1);
  g_assert_cmpfloat (x1, >=, MAP_W - 0.01);
  g_assert_cmpfloat (y1, >=, MAP_H - 0.01);
  save_screenshot (GTK_WIDGET (prefs), "editor-preferences.png");

  gtk_window_destroy (prefs);
  close_window (window);
}

/* The alpha of the water tint over cell (x, y), 0 without one. */
static guint
water_alpha (TerrainEditorMapView *view,
             guint                 x,
             guint                 y)
{
  GdkTexture *water = terrain_editor_map_view_get_water (view);
  TerrainTntMap *map = TERRAIN_TNT_MAP (terrain_editor_map_view_get_document (view));
  g_autofree guint8 *texels = NULL;
  int width;

  if (water == NULL)
    return 0;
  width = gdk_texture_get_width (water);
  g_assert_cmpint (width, ==, terrain_tnt_map_get_width (map));
  g_assert_cmpint (gdk_texture_get_height (water), ==, terrain_tnt_map_get_height (map));
  texels = g_malloc ((gsize) width * gdk_texture_get_height (water) * 4);
  gdk_texture_download (water, texels, (gsize) width * 4);
  /* GdkTexture downloads as Cairo's ARGB32: alpha is byte 3. */
  return texels[((gsize) y * width + x) * 4 + 3];
}

/* Sea level in 2D: cells under it tinted by depth, live while the level
 * moves, in grey and palette pictures. */
static void
test_sea_level_2d (Fixture       *f,
                   gconstpointer  data)
{
  GSettings *settings = terrain_editor_application_get_settings (app);
  TerrainEditorWindow *window;
  TerrainEditorMapView *view;
  GtkAdjustment *sea;
  guint shallow, deep;

  for (guint mode = 0; mode < 2; mode++)
    {
      if (mode == 0)
        g_settings_reset (settings, "palette-path");
      else
        g_settings_set_string (settings, "palette-path", f->palette_path);
      window = open_shown (f);
      view = map_view (window);
      sea = GTK_ADJUSTMENT (gtk_widget_get_template_child (GTK_WIDGET (window), TERRAIN_EDITOR_TYPE_WINDOW,
                                                           "sea_adjustment"));
      g_assert_null (terrain_editor_map_view_get_water (view));

      gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "sea-level");
      gtk_adjustment_set_value (sea, 120);
      shallow = water_alpha (view, 3, 3);
      g_assert_cmpuint (shallow, >, 0);
      g_assert_cmpuint (water_alpha (view, BX, BY), ==, 0);

      gtk_adjustment_set_value (sea, 200);
      deep = water_alpha (view, 3, 3);
      g_assert_cmpuint (deep, >, shallow);
      g_assert_cmpuint (water_alpha (view, BX, BY), ==, 0);

      gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
      g_assert_null (terrain_editor_map_view_get_water (view));
      close_window (window);
    }
}

/* ban.tnt (corpus) opened in a 1100x760 window without the grid, its full
 * picture drawn; NULL when it is not in the corpus. */
static TerrainEditorWindow *
open_ban (void)
{
  g_autofree char *map_path = terrain_test_corpus_path ("ta/maps/ban.tnt");
  g_autoptr(GFile) map_file = NULL;
  TerrainEditorWindow *window;
  TerrainEditorMapView *view;
  gint64 deadline;

  if (map_path == NULL)
    return NULL;
  map_file = g_file_new_for_path (map_path);
  window = open_and_wait (map_file);
  view = map_view (window);
  g_object_set (window, "show-grid", FALSE, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 760);
  gtk_window_present (GTK_WINDOW (window));
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while ((terrain_editor_map_view_get_picture (view) != TERRAIN_EDITOR_MAP_PICTURE_FULL
          || gtk_widget_get_width (GTK_WIDGET (view)) < 200)
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  iterate (200);
  g_assert_cmpint (terrain_editor_map_view_get_picture (view), ==, TERRAIN_EDITOR_MAP_PICTURE_FULL);
  return window;
}

/* The view's pixels as drawn now (B8G8R8A8, GDK_MEMORY_DEFAULT); its width
 * and height in *width, *height. */
static guint8 *
view_pixels (TerrainEditorMapView *view,
             int                  *width,
             int                  *height)
{
  g_autoptr(GdkTexture) texture = render_widget (GTK_WIDGET (view));
  guint8 *data;

  *width = gdk_texture_get_width (texture);
  *height = gdk_texture_get_height (texture);
  data = g_malloc ((gsize) *width * *height * 4);
  gdk_texture_download (texture, data, (gsize) *width * 4);
  return data;
}

/* The brightest channel of the pixels within 2 of (x, y). */
static guint
brightest_near (const guint8 *data,
                int           width,
                int           height,
                double        x,
                double        y)
{
  guint best = 0;

  for (int j = (int) y - 2; j <= (int) y + 2; j++)
    for (int i = (int) x - 2; i <= (int) x + 2; i++)
      if (i >= 0 && j >= 0 && i < width && j < height)
        {
          const guint8 *p = data + ((gsize) j * width + i) * 4;

          best = MAX (best, MIN (MIN (p[0], p[1]), p[2]));
        }
  return best;
}

/* ban.tnt in grey (no palette), 4 pixels a cell: a brush stroke ending at
 * the pointer raises the cell under it (brighter there in the view) and
 * nothing far away, and the brush's ring is drawn about the pointer;
 * docs/screenshots/editor-grey-brush-stroke.png. */
static void
test_grey_brush_ban (void)
{
  GSettings *settings = terrain_editor_application_get_settings (app);
  TerrainEditorWindow *window;
  TerrainEditorMapView *view;
  TerrainTntMap *map;
  TerrainCommandStack *stack;
  GtkAdjustment *radius, *strength;
  g_autofree guint8 *before = NULL;
  g_autofree guint8 *after = NULL;
  g_autofree guint8 *ringed = NULL;
  double px, py, cx, cy, ppc, r;
  int width, height, tx = -1, ty = -1, far_y;
  guint8 h0, far0;
  guint ring;

  g_settings_reset (settings, "palette-path");
  window = open_ban ();
  if (window == NULL)
    {
      g_test_skip ("ban.tnt is not in the corpus");
      return;
    }
  view = map_view (window);
  map = TERRAIN_TNT_MAP (terrain_editor_window_get_document (window));
  stack = terrain_editor_window_get_command_stack (window);
  radius = GTK_ADJUSTMENT (child_object (window, "radius_adjustment"));
  strength = GTK_ADJUSTMENT (child_object (window, "strength_adjustment"));
  g_assert_null (terrain_editor_application_get_palette (app));

  /* A cell on a slope (the most relief about it, of every fourth cell's),
   * low enough to be raised: a stroke there crosses the map's shapes. */
  {
    guint w = terrain_tnt_map_get_width (map), hgt = terrain_tnt_map_get_height (map), best = 0;

    for (guint y = 16; y + 16 < hgt; y += 4)
      for (guint x = 16; x + 16 < w; x += 4)
        {
          guint8 c = terrain_tnt_map_get_cell_height (map, x, y), lo = 255, hi = 0;

          if (c < 40 || c > 200)
            continue;
          for (guint j = y - 8; j <= y + 8; j += 2)
            for (guint i = x - 8; i <= x + 8; i += 2)
              {
                guint8 n = terrain_tnt_map_get_cell_height (map, i, j);

                lo = MIN (lo, n);
                hi = MAX (hi, n);
              }
          if ((guint) (hi - lo) > best)
            {
              best = hi - lo;
              tx = (int) x;
              ty = (int) y;
            }
        }
  }
  g_assert_cmpint (tx, >=, 0);
  h0 = terrain_tnt_map_get_cell_height (map, (guint) tx, (guint) ty);
  /* A cell 40 rows away, out of the brush's reach. */
  far_y = ty >= 40 ? ty - 40 : ty + 40;
  far0 = terrain_tnt_map_get_cell_height (map, (guint) tx, (guint) far_y);

  /* Grey: one picture pixel a cell. */
  terrain_editor_map_view_set_zoom (view, 4);
  iterate (50);
  terrain_editor_map_view_center_on (view, tx + 0.5, ty + 0.5);
  iterate (100);
  ppc = terrain_editor_map_view_get_zoom (view);
  px = gtk_widget_get_width (GTK_WIDGET (view)) / 2.0;
  py = gtk_widget_get_height (GTK_WIDGET (view)) / 2.0;
  terrain_editor_map_view_cell_at (view, px, py, &cx, &cy);
  g_test_message ("cell %d, %d (height %u) at the pointer %.0f, %.0f: %.2f, %.2f; %.1f px a cell",
                  tx, ty, h0, px, py, cx, cy, ppc);
  g_assert_cmpint ((int) floor (cx), ==, tx);
  g_assert_cmpint ((int) floor (cy), ==, ty);
  before = view_pixels (view, &width, &height);

  /* A stroke from 12 cells up-left to the pointer. */
  gtk_adjustment_set_value (radius, 6);
  gtk_adjustment_set_value (strength, 12);
  r = gtk_adjustment_get_value (radius);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "brush");
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_PRESS, cx - 12, cy - 6, 1u, (GdkModifierType) 0);
  for (guint i = 1; i <= 24; i++)
    g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_DRAG, cx - 12 + i * 0.5, cy - 6 + i * 0.25, 1u,
                           (GdkModifierType) 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_RELEASE, cx, cy, 1u, (GdkModifierType) 0);
  g_test_message ("height under the pointer %u -> %u", h0,
                  terrain_tnt_map_get_cell_height (map, (guint) tx, (guint) ty));
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, (guint) tx, (guint) ty), >, h0 + 8);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, (guint) tx, (guint) far_y), ==, far0);
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 1);

  /* The view: brighter at the pointer (without the ring's light fill),
   * once the grey picture is drawn again (an idle; up to 10 s)... */
  terrain_editor_map_view_set_brush (view, FALSE, 0, 0, 0);
  {
    gsize at = ((gsize) py * width + (gsize) px) * 4;
    gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

    for (;;)
      {
        iterate (50);
        g_clear_pointer (&after, g_free);
        after = view_pixels (view, &width, &height);
        if (after[at + 1] > before[at + 1] || g_get_monotonic_time () > deadline)
          break;
      }
    g_test_message ("grey at the pointer %u -> %u", before[at + 1], after[at + 1]);
    g_assert_cmpuint (after[at + 1], >, before[at + 1] + 8);
  }
  /* ... and the ring about it, where the brush leaves it after the stroke. */
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_HOVER, cx, cy, 0u, (GdkModifierType) 0);
  iterate (50);
  ringed = view_pixels (view, &width, &height);
  ring = 0;
  for (guint a = 0; a < 8; a++)
    {
      double rx = px + r * ppc * cos (a * G_PI / 4), ry = py + r * ppc * sin (a * G_PI / 4);

      if (brightest_near (ringed, width, height, rx, ry) >= 225 && brightest_near (after, width, height, rx, ry) < 225)
        ring++;
    }
  g_test_message ("ring seen at %u of 8 points", ring);
  g_assert_cmpuint (ring, ==, 8);
  save_screenshot (GTK_WIDGET (window), "editor-grey-brush-stroke.png");

  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, (guint) tx, (guint) ty), ==, h0);
  gtk_adjustment_set_value (radius, 4);
  gtk_adjustment_set_value (strength, 4);
  close_window (window);
}

/* The squared distance of a B8G8R8A8 pixel from the water's colour. */
static guint
water_distance (const guint8 *p)
{
  int b = p[0] - 190, g = p[1] - 70, r = p[2] - 20;

  return (guint) (r * r + g * g + b * b);
}

static int
compare_heights (gconstpointer a,
                 gconstpointer b)
{
  return (int) *(const guint8 *) a - (int) *(const guint8 *) b;
}

/* ban.tnt (corpus) with the TA palette at Fit: the sea level raised with
 * the Sea level tool's spin button until half its land is under water.
 * In the view, cells newly under water (with their neighbours) turn bluer
 * and cells above the new level stay as they were; a deeper cell's tint is denser than a
 * shallower one's; docs/screenshots/editor-sea-level-2d.png. */
static void
test_sea_level_ban (void)
{
  g_autofree char *palette_path = terrain_test_corpus_path ("ta/PALETTE.PAL");
  GSettings *settings = terrain_editor_application_get_settings (app);
  TerrainEditorWindow *window;
  TerrainEditorMapView *view;
  TerrainTntMap *map;
  GtkSpinButton *spin;
  g_autofree guint8 *heights = NULL;
  g_autofree guint8 *before = NULL;
  g_autofree guint8 *after = NULL;
  guint w, h, old_level, level, low = 0, high = 0;
  double x0, y0, x1, y1;
  int width, height;

  if (palette_path == NULL)
    {
      g_test_skip ("PALETTE.PAL is not in the corpus");
      return;
    }
  g_settings_set_string (settings, "palette-path", palette_path);
  window = open_ban ();
  if (window == NULL)
    {
      g_settings_reset (settings, "palette-path");
      g_test_skip ("ban.tnt is not in the corpus");
      return;
    }
  view = map_view (window);
  map = TERRAIN_TNT_MAP (terrain_editor_window_get_document (window));
  spin = GTK_SPIN_BUTTON (find_buildable (GTK_WIDGET (window), "sea_spin"));
  w = terrain_tnt_map_get_width (map);
  h = terrain_tnt_map_get_height (map);
  old_level = terrain_tnt_map_get_sea_level (map);

  /* Half the land under water: the median height of the cells above the
   * map's own sea level. */
  heights = g_malloc ((gsize) w * h);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      heights[(gsize) y * w + x] = terrain_tnt_map_get_cell_height (map, x, y);
  qsort (heights, (gsize) w * h, 1, compare_heights);
  {
    gsize first_land = 0;

    while (first_land < (gsize) w * h && heights[first_land] < old_level)
      first_land++;
    g_assert_cmpuint (first_land, <, (gsize) w * h);
    level = heights[first_land + ((gsize) w * h - first_land) / 2];
    g_test_message ("sea level %u -> %u (heights %u..%u, %" G_GSIZE_FORMAT " of %u cells under the old level)",
                    old_level, level, heights[0], heights[(gsize) w * h - 1], first_land, w * h);
  }
  g_assert_cmpuint (level, >, old_level);

  /* The picture and the tint alone: no overlay over them. */
  g_object_set (window, "show-contours", FALSE, "show-features", FALSE, "show-start-positions", FALSE, NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "sea-level");
  terrain_editor_map_view_zoom_to_fit (view);
  iterate (200);
  before = view_pixels (view, &width, &height);

  gtk_spin_button_set_value (spin, level);
  iterate (100);
  g_assert_cmpuint (terrain_tnt_map_get_sea_level (map), ==, level);
  after = view_pixels (view, &width, &height);

  /* Widget pixels to cells: cell_at is affine. */
  terrain_editor_map_view_cell_at (view, 0, 0, &x0, &y0);
  terrain_editor_map_view_cell_at (view, 100, 100, &x1, &y1);
  for (int py = 3; py < height - 3; py += 7)
    for (int px = 3; px < width - 3; px += 7)
      {
        double cx = x0 + px * (x1 - x0) / 100, cy = y0 + py * (y1 - y0) / 100;
        int ix = (int) floor (cx), iy = (int) floor (cy);
        guint lo = 255, hi = 0;
        const guint8 *p0 = before + ((gsize) py * width + px) * 4;
        const guint8 *p1 = after + ((gsize) py * width + px) * 4;

        if (ix < 1 || iy < 1 || ix + 1 >= (int) w || iy + 1 >= (int) h)
          continue;
        /* The cell and its neighbours: the pixel is theirs alone. */
        for (int j = iy - 1; j <= iy + 1; j++)
          for (int i = ix - 1; i <= ix + 1; i++)
            {
              guint c = terrain_tnt_map_get_cell_height (map, (guint) i, (guint) j);

              lo = MIN (lo, c);
              hi = MAX (hi, c);
            }
        /* Tinted: nearer the water's blue (B8G8R8A8). */
        if (hi < level && lo >= old_level)
          {
            g_assert_cmpuint (water_distance (p1), <, water_distance (p0));
            low++;
          }
        else if (lo >= level)
          {
            g_assert_cmpint (memcmp (p0, p1, 4), ==, 0);
            high++;
          }
      }
  g_test_message ("%u pixels of low cells tinted, %u of high cells unchanged", low, high);
  g_assert_cmpuint (low, >, 200);
  g_assert_cmpuint (high, >, 200);

  /* By depth: the deepest cell's tint is denser than a cell's just under
   * the level. */
  {
    int dx = -1, dy = -1, sx = -1, sy = -1;

    for (guint y = 0; y < h; y++)
      for (guint x = 0; x < w; x++)
        {
          guint c = terrain_tnt_map_get_cell_height (map, x, y);

          if (dx < 0 && c == heights[0])
            dx = (int) x, dy = (int) y;
          if (sx < 0 && c < level && c + 4 >= level)
            sx = (int) x, sy = (int) y;
        }
    g_assert_cmpint (dx, >=, 0);
    g_assert_cmpint (sx, >=, 0);
    g_test_message ("tint alpha %u at depth %u, %u at depth %u", water_alpha (view, (guint) dx, (guint) dy),
                    level - heights[0], water_alpha (view, (guint) sx, (guint) sy),
                    level - terrain_tnt_map_get_cell_height (map, (guint) sx, (guint) sy));
    g_assert_cmpuint (water_alpha (view, (guint) sx, (guint) sy), >, 0);
    g_assert_cmpuint (water_alpha (view, (guint) dx, (guint) dy), >, water_alpha (view, (guint) sx, (guint) sy));
  }
  /* The screenshot with the features and start positions. */
  g_object_set (window, "show-features", TRUE, "show-start-positions", TRUE, NULL);
  save_screenshot (GTK_WIDGET (window), "editor-sea-level-2d.png");

  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  g_assert_cmpuint (terrain_tnt_map_get_sea_level (map), ==, old_level);
  close_window (window);
  g_settings_reset (settings, "palette-path");
  g_settings_reset (settings, "show-contours");
  g_settings_reset (settings, "show-features");
  g_settings_reset (settings, "show-start-positions");
}

/* Heights: a stroke at the default strength across a flat map raises it
 * without saturating; [ and ] change the brush size. */
static void
test_brush_defaults (Fixture       *f,
                     gconstpointer  data)
{
  TerrainEditorWindow *window = open_shown (f);
  TerrainTntMap *map = TERRAIN_TNT_MAP (terrain_editor_window_get_document (window));
  GtkAdjustment *radius = GTK_ADJUSTMENT (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                         TERRAIN_EDITOR_TYPE_WINDOW,
                                                                         "radius_adjustment"));
  double stroke[2 * 41];
  double r0;
  guint highest = 0;

  for (guint i = 0; i < 41; i++)
    {
      stroke[2 * i] = 4 + i * 0.5;
      stroke[2 * i + 1] = 10;
    }
  for (guint y = 0; y < MAP_H; y++)
    for (guint x = 0; x < MAP_W; x++)
      terrain_tnt_map_set_cell_height (map, x, y, 85);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "brush");
  terrain_editor_window_brush_stroke (window, stroke, 41);
  for (guint x = 0; x < MAP_W; x++)
    highest = MAX (highest, terrain_tnt_map_get_cell_height (map, x, 10));
  g_test_message ("default stroke: 85 -> %u", highest);
  g_assert_cmpuint (highest, >, 85);
  g_assert_cmpuint (highest, <, 85 + 64);

  r0 = gtk_adjustment_get_value (radius);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.brush-larger", NULL);
  g_assert_cmpfloat (gtk_adjustment_get_value (radius), >, r0);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.brush-smaller", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.brush-smaller", NULL);
  g_assert_cmpfloat (gtk_adjustment_get_value (radius), <, r0);
  close_window (window);
}

/* Pixels of the view as drawn now matching @match. */
static guint
count_pixels (GtkWidget *view,
              gboolean (*match) (const guint8 *p))
{
  g_autoptr(GdkTexture) texture = render_widget (view);
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guint8 *data = g_malloc ((gsize) width * height * 4);
  guint n = 0;

  gdk_texture_download (texture, data, (gsize) width * 4);
  for (gsize i = 0; i < (gsize) width * height; i++)
    if (match (data + i * 4))
      n++;
  return n;
}

/* The selection frame's cyan (GDK_MEMORY_DEFAULT is B8G8R8A8). */
static gboolean
is_cyan (const guint8 *p)
{
  return p[0] > 200 && p[1] > 200 && p[2] < 60;
}

/* A known footprint's green over the grey heights. */
static gboolean
is_green (const guint8 *p)
{
  return p[1] > p[0] + 40 && p[1] > p[2] + 40;
}

/* Features: a 2x2 rock from a TDF is placed by a click, drawn at Fit,
 * selected by a click inside its footprint (framed, and described in
 * Properties with its footprint, reclaim values, file and section),
 * dragged (the saved map has it at the new cell) and deleted, each
 * undoable. */
static void
test_feature_select (Fixture       *f,
                     gconstpointer  data)
{
  const char *tdf = "[Rock1]\n{\n\tworld=greenworld;\n\tdescription=Big rock;\n\tcategory=rocks;\n"
                    "\tfootprintx=2;\n\tfootprintz=2;\n\tmetal=12;\n\tenergy=3;\n\treclaimable=1;\n}\n";
  g_autofree char *tdf_path = g_build_filename (f->dir, "rocks.tdf", NULL);
  g_autoptr(GError) error = NULL;
  const char *folders[] = { f->dir, NULL };
  TerrainEditorWindow *window;
  TerrainEditorMapView *view;
  TerrainTntMap *map;
  GtkEntry *entry;
  const char *text;
  g_autoptr(TerrainDocument) reread = NULL;
  guint16 rock;

  g_assert_true (g_file_set_contents (tdf_path, tdf, -1, &error));
  g_assert_no_error (error);
  g_settings_set_strv (terrain_editor_application_get_settings (app), "feature-folders", folders);
  window = open_shown (f);
  view = map_view (window);
  map = TERRAIN_TNT_MAP (terrain_editor_window_get_document (window));
  entry = GTK_ENTRY (child (window, "feature_entry"));

  /* Place it with a click. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "features");
  gtk_editable_set_text (GTK_EDITABLE (entry), "Rock1");
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_PRESS, 10.5, 10.5, 1u, (GdkModifierType) 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_RELEASE, 10.5, 10.5, 1u, (GdkModifierType) 0);
  rock = terrain_tnt_map_get_cell_feature (map, 10, 10);
  g_assert_cmpstr (terrain_tnt_map_get_feature_name (map, rock), ==, "Rock1");

  /* At Fit its footprint is drawn; a click on an empty cell (nothing to
   * place) drops the selection and its frame. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  terrain_editor_map_view_zoom_to_fit (view);
  iterate (100);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_PRESS, 40.5, 40.5, 1u, (GdkModifierType) 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_RELEASE, 40.5, 40.5, 1u, (GdkModifierType) 0);
  iterate (50);
  g_assert_cmpuint (count_pixels (GTK_WIDGET (view), is_green), >, 20);
  g_assert_cmpuint (count_pixels (GTK_WIDGET (view), is_cyan), ==, 0);

  /* A single click inside the footprint selects the feature at its anchor. */
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_PRESS, 11.5, 11.5, 1u, (GdkModifierType) 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_RELEASE, 11.5, 11.5, 1u, (GdkModifierType) 0);
  iterate (50);
  g_assert_cmpuint (count_pixels (GTK_WIDGET (view), is_cyan), >, 20);
  text = gtk_label_get_text (GTK_LABEL (child (window, "properties_label")));
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "Selected: “Rock1” at cell 10, 10"));
  g_assert_nonnull (strstr (text, "Footprint: 2×2 cells"));
  g_assert_nonnull (strstr (text, "Reclaim: 12 metal, 3 energy"));
  g_assert_nonnull (strstr (text, "rocks.tdf"));
  g_assert_nonnull (strstr (text, "section [Rock1]"));
  gtk_notebook_set_current_page (GTK_NOTEBOOK (child (window, "side_notebook")), 4);
  iterate (100);
  save_screenshot (GTK_WIDGET (window), "editor-feature-selected.png");

  /* Drag it 10 cells right and 5 down; the saved map has it there. */
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_PRESS, 11.5, 11.5, 1u, (GdkModifierType) 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_DRAG, 21.5, 16.5, 1u, (GdkModifierType) 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_RELEASE, 21.5, 16.5, 1u, (GdkModifierType) 0);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  reread = terrain_document_load (f->map_file, NULL, NULL, &error);
  g_assert_no_error (error);
  rock = terrain_tnt_map_get_cell_feature (TERRAIN_TNT_MAP (reread), 20, 15);
  g_assert_cmpstr (terrain_tnt_map_get_feature_name (TERRAIN_TNT_MAP (reread), rock), ==, "Rock1");
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (TERRAIN_TNT_MAP (reread), 10, 10), >=,
                    terrain_tnt_map_get_n_features (TERRAIN_TNT_MAP (reread)));

  /* Delete removes the selected one; undo brings it back. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.delete-feature", NULL);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 20, 15), >=, terrain_tnt_map_get_n_features (map));
  iterate (50);
  g_assert_cmpuint (count_pixels (GTK_WIDGET (view), is_cyan), ==, 0);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  rock = terrain_tnt_map_get_cell_feature (map, 20, 15);
  g_assert_cmpstr (terrain_tnt_map_get_feature_name (map, rock), ==, "Rock1");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  rock = terrain_tnt_map_get_cell_feature (map, 10, 10);
  g_assert_cmpstr (terrain_tnt_map_get_feature_name (map, rock), ==, "Rock1");

  close_window (window);
  g_settings_reset (terrain_editor_application_get_settings (app), "feature-folders");
}

int
main (int    argc,
      char **argv)
{
  int status;

  editor_test_init (&argc, &argv);

  g_test_add ("/Terrain/Editor/Tools/pointer-grey-and-palette", Fixture, NULL,
              fixture_setup, test_pointer_grey_and_palette, fixture_teardown);
  g_test_add ("/Terrain/Editor/Tools/zoom-at-pointer", Fixture, NULL,
              fixture_setup, test_zoom_at_pointer, fixture_teardown);
  g_test_add ("/Terrain/Editor/Tools/palette-refits", Fixture, NULL,
              fixture_setup, test_palette_refits, fixture_teardown);
  g_test_add ("/Terrain/Editor/Tools/close-discard", Fixture, NULL,
              fixture_setup, test_close_discard, fixture_teardown);
  g_test_add ("/Terrain/Editor/Tools/save-as-folder", Fixture, NULL,
              fixture_setup, test_save_as_folder, fixture_teardown);
  g_test_add ("/Terrain/Editor/Tools/preferences-palette", Fixture, NULL,
              fixture_setup, test_preferences_palette, fixture_teardown);
  g_test_add ("/Terrain/Editor/Tools/sea-level-2d", Fixture, NULL,
              fixture_setup, test_sea_level_2d, fixture_teardown);
  terrain_test_add_corpus_func ("/Terrain/Editor/Tools/sea-level-ban", test_sea_level_ban);
  terrain_test_add_corpus_func ("/Terrain/Editor/Tools/grey-brush-ban", test_grey_brush_ban);
  g_test_add ("/Terrain/Editor/Tools/brush-defaults", Fixture, NULL,
              fixture_setup, test_brush_defaults, fixture_teardown);
  g_test_add ("/Terrain/Editor/Tools/feature-select", Fixture, NULL,
              fixture_setup, test_feature_select, fixture_teardown);
  status = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);
  return status;
}
