/* test-editor-ota.c: a TNT map's description (.ota) in the editor, under Xvfb
 *
 * The corpus's ban.tnt and ban.ota, copied to a temporary folder, open
 * with the Map page filled from the OTA; editing the name and dragging a
 * numbered start position in the 2D view are each one undo step, undone
 * and redone; saving writes the OTA beside the map with only the edited
 * values changed. A map without a description says so on the page. The suite
 * runs with G_DEBUG=fatal-warnings. TERRAIN_EDITOR_SCREENSHOT_DIR keeps
 * screenshots.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <libterrain.h>

#include "terrain-editor-ota-panel.h"
#include "terrain-test-util.h"
#include "test-editor-util.h"

TerrainEditorApplication *app;

typedef struct
{
  char  *dir;
  char  *map_path;
  char  *ota_path;
  GFile *map_file;
} Fixture;

static void
copy_corpus (const char *relative,
             const char *destination)
{
  g_autofree char *path = terrain_test_corpus_path (relative);
  g_autoptr(GBytes) bytes = NULL;

  g_assert_nonnull (path);
  bytes = terrain_test_read_bytes (path);
  terrain_test_write_bytes (destination, bytes);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->dir = terrain_test_make_tmp_dir ("test-editor-ota-XXXXXX");
  f->map_path = g_build_filename (f->dir, "ban.tnt", NULL);
  f->ota_path = g_build_filename (f->dir, "ban.ota", NULL);
  f->map_file = g_file_new_for_path (f->map_path);
  copy_corpus ("ta/maps/ban.tnt", f->map_path);
  copy_corpus ("ta/maps/ban.ota", f->ota_path);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  terrain_test_remove_tree (f->dir);
  g_settings_reset (terrain_editor_application_get_settings (app), "palette-path");
  g_clear_object (&f->map_file);
  g_free (f->map_path);
  g_free (f->ota_path);
  g_free (f->dir);
}

static TerrainEditorWindow *
open_shown (GFile *file)
{
  TerrainEditorWindow *window = open_and_wait (file);
  GtkWidget *view = terrain_editor_window_get_map_view (window);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  g_object_set (window, "show-start-positions", TRUE, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  while ((!gtk_widget_get_mapped (view) || gtk_widget_get_width (view) < 200
          || terrain_editor_map_view_get_picture (TERRAIN_EDITOR_MAP_VIEW (view)) != TERRAIN_EDITOR_MAP_PICTURE_FULL)
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  iterate (300);
  g_assert_cmpint (gtk_widget_get_width (view), >=, 200);
  return window;
}

static const char *
entry_text (TerrainEditorOtaPanel *panel,
            const char            *key)
{
  return gtk_editable_get_text (GTK_EDITABLE (terrain_editor_ota_panel_get_field (panel, key)));
}

static int
spin_value (TerrainEditorOtaPanel *panel,
            guint                  player,
            gboolean               z)
{
  GtkWidget *spin = terrain_editor_ota_panel_get_start_spin (panel, player, z);

  g_assert_nonnull (spin);
  return gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin));
}

/* The start markers' magenta (GDK_MEMORY_DEFAULT is B8G8R8A8) within
 * @radius pixels of (@cx, @cy) in the view. */
static guint
magenta_near (GtkWidget *view,
              double     cx,
              double     cy,
              double     radius)
{
  g_autoptr(GdkTexture) texture = render_widget (view);
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guint8 *data = g_malloc ((gsize) width * height * 4);
  guint n = 0;

  gdk_texture_download (texture, data, (gsize) width * 4);
  for (int y = MAX (0, (int) (cy - radius)); y < MIN (height, (int) (cy + radius)); y++)
    for (int x = MAX (0, (int) (cx - radius)); x < MIN (width, (int) (cx + radius)); x++)
      {
        const guint8 *p = data + ((gsize) y * width + x) * 4;

        if (p[2] > 180 && p[0] > 180 && p[1] < 80)
          n++;
      }
  return n;
}

/* magenta_near() once the view has drawn (up to 2 s). */
static guint
wait_magenta (TerrainEditorMapView *view,
              double                wx,
              double                wy)
{
  guint n = 0;

  for (guint i = 0; i < 40 && (n = magenta_near (GTK_WIDGET (view), wx, wy, 8)) <= 20; i++)
    iterate (50);
  return n;
}

/* Where map pixel (@px, @pz) is in the view's widget coordinates: the
 * inverse of terrain_editor_map_view_cell_at(), found from two points. */
static void
widget_point (TerrainEditorMapView *view,
              double                px,
              double                pz,
              double               *wx,
              double               *wy)
{
  double x0, y0, x1, y1;

  terrain_editor_map_view_cell_at (view, 0, 0, &x0, &y0);
  terrain_editor_map_view_cell_at (view, 100, 100, &x1, &y1);
  *wx = (px / TERRAIN_TNT_CELL_PIXELS - x0) * 100 / (x1 - x0);
  *wy = (pz / TERRAIN_TNT_CELL_PIXELS - y0) * 100 / (y1 - y0);
}

static void
test_ota_panel (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *palette = terrain_test_corpus_path ("ta/PALETTE.PAL");
  g_autoptr(GBytes) source = terrain_test_read_bytes (f->ota_path);
  g_autoptr(GError) error = NULL;
  TerrainEditorWindow *window;
  TerrainEditorMapView *view;
  TerrainEditorOtaPanel *panel;
  TerrainCommandStack *stack;
  GtkNotebook *side;
  GtkWidget *page;
  double wx, wy, cx, cy;
  gint x, z;

  g_assert_nonnull (palette);
  g_settings_set_string (terrain_editor_application_get_settings (app), "palette-path", palette);
  window = open_shown (f->map_file);
  view = map_view (window);
  stack = terrain_editor_window_get_command_stack (window);
  panel = TERRAIN_EDITOR_OTA_PANEL (find_named (GTK_WIDGET (window), "ota-panel"));
  g_assert_nonnull (panel);
  side = GTK_NOTEBOOK (child (window, "side_notebook"));
  page = gtk_widget_get_ancestor (GTK_WIDGET (panel), GTK_TYPE_SCROLLED_WINDOW);
  g_assert_true (gtk_widget_get_visible (page));
  gtk_notebook_set_current_page (side, gtk_notebook_page_num (side, page));

  /* Filled from ban.ota. */
  g_assert_nonnull (terrain_editor_ota_panel_get_ota (panel));
  g_assert_cmpstr (entry_text (panel, "missionname"), ==, "ban");
  g_assert_cmpstr (entry_text (panel, "missiondescription"), ==, "16 x 21. W:+15-21, T:15. By Dioxide");
  g_assert_cmpstr (entry_text (panel, "gravity"), ==, "112");
  g_assert_cmpstr (entry_text (panel, "tidalstrength"), ==, "15");
  g_assert_cmpstr (entry_text (panel, "minwindspeed"), ==, "2500");
  g_assert_cmpstr (entry_text (panel, "Type"), ==, "Network 1");
  g_assert_cmpstr (entry_text (panel, "SurfaceMetal"), ==, "3");
  g_assert_cmpint (spin_value (panel, 1, FALSE), ==, 524);
  g_assert_cmpint (spin_value (panel, 1, TRUE), ==, 10274);
  g_assert_cmpint (spin_value (panel, 2, FALSE), ==, 7923);

  /* The name typed one character at a time: one undo step. */
  gtk_editable_set_text (GTK_EDITABLE (terrain_editor_ota_panel_get_field (panel, "missionname")), "ban ");
  gtk_editable_set_text (GTK_EDITABLE (terrain_editor_ota_panel_get_field (panel, "missionname")), "ban 2");
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 1);
  g_assert_false (terrain_command_stack_get_clean (stack));
  g_assert_true (g_str_has_prefix (gtk_window_get_title (GTK_WINDOW (window)), "•"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  g_assert_cmpstr (entry_text (panel, "missionname"), ==, "ban");
  g_assert_true (terrain_command_stack_get_clean (stack));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL);
  g_assert_cmpstr (entry_text (panel, "missionname"), ==, "ban 2");

  /* Start position 1 is drawn as a marker where the OTA puts it. */
  widget_point (view, 524, 10274, &wx, &wy);
  if (wx < 0 || wy < 0 || wx >= gtk_widget_get_width (GTK_WIDGET (view))
      || wy >= gtk_widget_get_height (GTK_WIDGET (view)))
    {
      terrain_editor_map_view_center_on (view, 524.0 / TERRAIN_TNT_CELL_PIXELS, 10274.0 / TERRAIN_TNT_CELL_PIXELS);
      iterate (100);
      widget_point (view, 524, 10274, &wx, &wy);
    }
  g_assert_cmpuint (wait_magenta (view, wx, wy), >, 20);

  /* Dragged with the pointer (Inspect tool), from a point 3 pixels off
   * its centre: one undo step, the marker where it was put down. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "inspect");
  terrain_editor_map_view_cell_at (view, wx + 3, wy - 3, &cx, &cy);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_PRESS, cx, cy, 1u, (GdkModifierType) 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_DRAG, cx + 5, cy - 10, 1u, (GdkModifierType) 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_DRAG, cx + 10, cy - 20, 1u, (GdkModifierType) 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_RELEASE, cx + 10, cy - 20, 1u, (GdkModifierType) 0);
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 2);
  g_assert_true (terrain_ota_file_get_start_position (terrain_editor_ota_panel_get_ota (panel), 0, 1, &x, &z));
  g_assert_cmpint (x, ==, 524 + 160);
  g_assert_cmpint (z, ==, 10274 - 320);
  g_assert_cmpint (spin_value (panel, 1, FALSE), ==, 684);
  g_assert_cmpint (spin_value (panel, 1, TRUE), ==, 9954);
  iterate (50);
  widget_point (view, 684, 9954, &wx, &wy);
  g_assert_cmpuint (wait_magenta (view, wx, wy), >, 20);
  /* The other markers did not move. */
  g_assert_cmpint (spin_value (panel, 2, FALSE), ==, 7923);
  /* The page scrolled to its start positions for the screenshot. */
  {
    GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (page));

    gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
    iterate (100);
  }
  save_screenshot (GTK_WIDGET (window), "editor-ota-panel.png");

  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  g_assert_cmpint (spin_value (panel, 1, FALSE), ==, 524);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL);
  g_assert_cmpint (spin_value (panel, 1, TRUE), ==, 9954);

  /* A press away from every marker selects, as before: no edit. */
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_PRESS, 250.5, 300.5, 1u, (GdkModifierType) 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_RELEASE, 250.5, 300.5, 1u, (GdkModifierType) 0);
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 2);

  /* Saved with the map: only the two values differ from the source. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  g_assert_true (terrain_command_stack_get_clean (stack));
  {
    g_autoptr(GBytes) saved = terrain_test_read_bytes (f->ota_path);
    g_autoptr(TerrainOtaFile) expected = terrain_ota_file_new_from_bytes (source, NULL, &error);
    g_autoptr(GBytes) expected_bytes = NULL;

    g_assert_no_error (error);
    g_assert_true (terrain_ota_file_set_header_value (expected, "missionname", "ban 2", &error));
    g_assert_true (terrain_ota_file_set_start_position (expected, 0, 1, 684, 9954, &error));
    g_assert_no_error (error);
    expected_bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (expected), &error);
    g_assert_no_error (error);
    terrain_test_assert_bytes_equal (expected_bytes, saved);
  }
  close_window (window);

  /* Opened again: the page shows the saved values. */
  window = open_shown (f->map_file);
  panel = TERRAIN_EDITOR_OTA_PANEL (find_named (GTK_WIDGET (window), "ota-panel"));
  g_assert_cmpstr (entry_text (panel, "missionname"), ==, "ban 2");
  g_assert_cmpint (spin_value (panel, 1, FALSE), ==, 684);
  close_window (window);
}

/* A map without a .ota: the Map page says so. */
static void
test_no_ota (Fixture       *f,
             gconstpointer  data)
{
  TerrainEditorWindow *window;
  GtkWidget *panel;

  g_assert_cmpint (g_remove (f->ota_path), ==, 0);
  window = open_shown (f->map_file);
  panel = find_named (GTK_WIDGET (window), "ota-panel");
  g_assert_nonnull (panel);
  g_assert_null (terrain_editor_ota_panel_get_ota (TERRAIN_EDITOR_OTA_PANEL (panel)));
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_ancestor (panel, GTK_TYPE_SCROLLED_WINDOW)));
  g_assert_true (has_label_containing (panel, "no map description"));
  close_window (window);
}

int
main (int    argc,
      char **argv)
{
  int status;

  editor_test_init (&argc, &argv);

  g_test_add ("/Terrain/Editor/Ota/panel", Fixture, NULL, fixture_setup, test_ota_panel, fixture_teardown);
  g_test_add ("/Terrain/Editor/Ota/no-ota", Fixture, NULL, fixture_setup, test_no_ota, fixture_teardown);
  status = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);
  return status;
}
