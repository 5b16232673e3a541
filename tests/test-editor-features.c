/* test-editor-features.c: features and the brush in the editor, under Xvfb
 *
 * A flat generated map and a TDF of a 2x2 rock in a feature folder: a
 * feature moved and the move undone leaves no selection frame behind
 * (the selection is the map view's, dropped when its feature goes); the
 * brush's Falloff control starts at Smooth, as the .ui says.
 * G_DEBUG=fatal-warnings is set by the suite; TERRAIN_EDITOR_SCREENSHOT_DIR
 * keeps screenshots.
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

typedef struct
{
  char  *dir;
  char  *map_path;
  GFile *map_file;
} Fixture;

static const char rocks_tdf[] =
  "[Rock1]\n{\n\tworld=greenworld;\n\tdescription=Big rock;\n\tcategory=rocks;\n"
  "\tfootprintx=2;\n\tfootprintz=2;\n\tmetal=12;\n\tenergy=3;\n\treclaimable=1;\n}\n";

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (MAP_W, MAP_H, &error);
  g_autofree char *tdf_path = NULL;
  const char *folders[2] = { NULL, NULL };

  g_assert_no_error (error);
  f->dir = g_dir_make_tmp ("test-editor-features-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint y = 0; y < MAP_H; y++)
    for (guint x = 0; x < MAP_W; x++)
      terrain_tnt_map_set_cell_height (map, x, y, 100);
  terrain_tnt_map_set_sea_level (map, 0);
  f->map_path = g_build_filename (f->dir, "flat.tnt", NULL);
  f->map_file = g_file_new_for_path (f->map_path);
  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (map), f->map_file, NULL, &error));
  g_assert_no_error (error);

  tdf_path = g_build_filename (f->dir, "rocks.tdf", NULL);
  g_assert_true (g_file_set_contents (tdf_path, rocks_tdf, -1, &error));
  g_assert_no_error (error);
  folders[0] = f->dir;
  g_settings_set_strv (terrain_editor_application_get_settings (app), "feature-folders", folders);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_settings_reset (terrain_editor_application_get_settings (app), "feature-folders");
  terrain_test_remove_tree (f->dir);
  g_clear_object (&f->map_file);
  g_free (f->map_path);
  g_free (f->dir);
}

static TerrainEditorWindow *
open_shown (Fixture *f)
{
  TerrainEditorWindow *window = open_and_wait (f->map_file);
  GtkWidget *view = terrain_editor_window_get_map_view (window);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  g_object_set (window, "show-contours", FALSE, "show-grid", FALSE, "show-start-positions", FALSE, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 760);
  gtk_window_present (GTK_WINDOW (window));
  while ((!gtk_widget_get_mapped (view) || gtk_widget_get_width (view) < 200)
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  iterate (300);
  g_assert_cmpint (gtk_widget_get_width (view), >=, 200);
  return window;
}

/* Pixels of the view as drawn now matching @match. */
static guint
count_pixels (GtkWidget *view,
              gboolean (*match) (const guint8 *p))
{
  g_autoptr(GdkTexture) texture = render_widget (view);
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guint8 *pixels = g_malloc ((gsize) width * height * 4);
  guint n = 0;

  gdk_texture_download (texture, pixels, (gsize) width * 4);
  for (gsize i = 0; i < (gsize) width * height; i++)
    if (match (pixels + i * 4))
      n++;
  return n;
}

/* The preview rectangle's white rim. */
static gboolean
is_white (const guint8 *p)
{
  return p[0] > 240 && p[1] > 240 && p[2] > 240;
}

/* The selection frame's cyan (GDK_MEMORY_DEFAULT is B8G8R8A8). */
static gboolean
is_cyan (const guint8 *p)
{
  return p[0] > 200 && p[1] > 200 && p[2] < 60;
}

static void
click (TerrainEditorMapView *view,
       double                x,
       double                y)
{
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_PRESS, x, y, 1u, (GdkModifierType) 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_RELEASE, x, y, 1u, (GdkModifierType) 0);
}

static void
drag (TerrainEditorMapView *view,
      double x0, double y0, double x1, double y1)
{
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_PRESS, x0, y0, 1u, (GdkModifierType) 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_DRAG, x1, y1, 1u, (GdkModifierType) 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_RELEASE, x1, y1, 1u, (GdkModifierType) 0);
}

/* Whether a label on screen (mapped) under @widget shows @text: a drop
 * down's closed popover is not. */
static gboolean
mapped_label_shows (GtkWidget  *widget,
                    const char *text)
{
  if (!gtk_widget_get_mapped (widget))
    return FALSE;
  if (GTK_IS_LABEL (widget) && g_str_equal (gtk_label_get_text (GTK_LABEL (widget)), text))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (mapped_label_shows (c, text))
      return TRUE;
  return FALSE;
}

static guint selection_changes;

static void
on_selection_changed (TerrainEditorMapView *view)
{
  selection_changes++;
}

/* A rock placed, moved 10 cells right and undone: back at its cell, and
 * neither the view nor Properties still shows a selection; redone, it is
 * at the new cell, again without a stale frame. Deleting the selected
 * feature and undoing leaves none either. */
static void
test_undo_move_drops_selection (Fixture       *f,
                                gconstpointer  data)
{
  TerrainEditorWindow *window = open_shown (f);
  TerrainEditorMapView *view = map_view (window);
  TerrainTntMap *map = TERRAIN_TNT_MAP (terrain_editor_window_get_document (window));
  GtkLabel *properties = GTK_LABEL (child (window, "properties_label"));
  int sx = -1, sy = -1;
  guint16 rock;

  g_signal_connect (view, "selection-changed", G_CALLBACK (on_selection_changed), NULL);
  terrain_editor_map_view_zoom_to_fit (view);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "features");
  gtk_editable_set_text (GTK_EDITABLE (child (window, "feature_entry")), "Rock1");
  click (view, 10.5, 10.5);
  g_assert_true (terrain_editor_map_view_get_selection (view, &sx, &sy));
  g_assert_cmpint (sx, ==, 10);
  g_assert_cmpint (sy, ==, 10);
  gtk_editable_set_text (GTK_EDITABLE (child (window, "feature_entry")), "");

  drag (view, 11.5, 11.5, 21.5, 11.5);
  g_assert_true (terrain_editor_map_view_get_selection (view, &sx, &sy));
  g_assert_cmpint (sx, ==, 20);
  iterate (50);
  g_assert_cmpuint (count_pixels (GTK_WIDGET (view), is_cyan), >, 20);
  g_assert_nonnull (strstr (gtk_label_get_text (properties), "Selected: “Rock1” at cell 20, 10"));

  selection_changes = 0;
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  rock = terrain_tnt_map_get_cell_feature (map, 10, 10);
  g_assert_cmpstr (terrain_tnt_map_get_feature_name (map, rock), ==, "Rock1");
  g_assert_false (terrain_editor_map_view_get_selection (view, NULL, NULL));
  g_assert_cmpuint (selection_changes, >=, 1);
  g_assert_null (strstr (gtk_label_get_text (properties), "Selected:"));
  iterate (50);
  save_screenshot (GTK_WIDGET (view), "editor-undo-move.png");
  g_assert_cmpuint (count_pixels (GTK_WIDGET (view), is_cyan), ==, 0);
  /* Nor the move's preview rectangle. */
  g_assert_cmpuint (count_pixels (GTK_WIDGET (view), is_white), ==, 0);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL);
  rock = terrain_tnt_map_get_cell_feature (map, 20, 10);
  g_assert_cmpstr (terrain_tnt_map_get_feature_name (map, rock), ==, "Rock1");
  iterate (50);
  g_assert_cmpuint (count_pixels (GTK_WIDGET (view), is_cyan), ==, 0);

  /* Select, Delete, undo: the feature is back, the frame is not stale. */
  click (view, 20.5, 10.5);
  g_assert_true (terrain_editor_map_view_get_selection (view, &sx, &sy));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.delete-feature", NULL);
  g_assert_false (terrain_editor_map_view_get_selection (view, NULL, NULL));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  g_assert_false (terrain_editor_map_view_get_selection (view, NULL, NULL));
  /* Undoing the placement takes the feature away: nothing to select. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 10, 10), >=, terrain_tnt_map_get_n_features (map));
  g_signal_handlers_disconnect_by_func (view, on_selection_changed, NULL);
  close_window (window);
}

/* The Falloff control shows Smooth, as terrain-editor-window.ui sets it,
 * and the brush it makes uses a smooth falloff: a dab raises its centre
 * more than a cell near its rim. */
static void
test_brush_falloff_default (Fixture       *f,
                            gconstpointer  data)
{
  TerrainEditorWindow *window = open_shown (f);
  GtkDropDown *falloff = GTK_DROP_DOWN (child (window, "brush_falloff"));
  GtkStringObject *item;

  g_assert_cmpuint (gtk_drop_down_get_selected (falloff), ==, TERRAIN_TNT_FALLOFF_SMOOTH);
  item = GTK_STRING_OBJECT (gtk_drop_down_get_selected_item (falloff));
  g_assert_cmpstr (gtk_string_object_get_string (item), ==, "Smooth");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "brush");
  gtk_notebook_set_current_page (GTK_NOTEBOOK (child (window, "side_notebook")), 0);
  iterate (100);
  g_assert_true (mapped_label_shows (GTK_WIDGET (falloff), "Smooth"));
  g_assert_false (mapped_label_shows (GTK_WIDGET (falloff), "Constant"));
  save_screenshot (child (window, "side_notebook"), "editor-brush-panel.png");
  close_window (window);
}

int
main (int    argc,
      char **argv)
{
  int status;

  editor_test_init (&argc, &argv);

  g_test_add ("/Terrain/Editor/Features/undo-move-drops-selection", Fixture, NULL,
              fixture_setup, test_undo_move_drops_selection, fixture_teardown);
  g_test_add ("/Terrain/Editor/Features/brush-falloff-default", Fixture, NULL,
              fixture_setup, test_brush_falloff_default, fixture_teardown);
  status = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);
  return status;
}
