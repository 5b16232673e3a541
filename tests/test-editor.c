/* test-editor.c: the editor under Xvfb
 *
 * Drives the application as a user would: opens a generated map, moves the
 * sea level, paints a brush stroke, undoes it, saves through win.save-as
 * and checks the saved bytes; renders the 2D view of the corpus map ban.tnt
 * to a PNG and checks it is not blank; runs the Build Atlas dialog on a
 * generated heightmap, opens the result, and cancels a larger build; shows
 * the shortcuts window and toggles the overlays. Opening every format is in
 * test-editor-open.c. TERRAIN_EDITOR_SCREENSHOT_DIR keeps screenshots of
 * the windows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <libterrain.h>

#include "terrain-editor-application.h"
#include "terrain-editor-build-dialog.h"
#include "terrain-editor-gl-view.h"
#include "terrain-editor-item.h"
#include "terrain-editor-map-view.h"
#include "terrain-editor-window.h"
#include "terrain-test-fixtures.h"
#include "test-editor-util.h"

TerrainEditorApplication *app;

static void
test_edit_and_save (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-editor-XXXXXX", &error);
  g_autofree char *map_path = g_build_filename (dir, "generated.tnt", NULL);
  g_autofree char *out_path = g_build_filename (dir, "saved.tnt", NULL);
  g_autoptr(GFile) map_file = g_file_new_for_path (map_path);
  g_autoptr(GFile) out_file = g_file_new_for_path (out_path);
  g_autofree char *out_uri = g_file_get_uri (out_file);
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (32, 32, &error);
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) expected = NULL;
  g_autoptr(TerrainTntMap) reference = NULL;
  g_autoptr(TerrainCommand) command = NULL;
  TerrainEditorWindow *window;
  TerrainTntMap *edited;
  TerrainCommandStack *stack;
  GtkAdjustment *sea;
  const double stroke[] = { 10, 10, 12, 10, 14, 11 };
  gsize offset, size;
  const guint8 *a, *b;

  g_assert_no_error (error);
  for (guint y = 0; y < 32; y++)
    for (guint x = 0; x < 32; x++)
      terrain_tnt_map_set_cell_height (map, x, y, (guint8) (x + y));
  terrain_tnt_map_set_sea_level (map, 20, NULL);
  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (map), map_file, NULL, &error));
  g_assert_no_error (error);
  original = g_file_load_bytes (map_file, NULL, NULL, &error);
  g_assert_no_error (error);

  window = open_and_wait (map_file);
  edited = TERRAIN_TNT_MAP (terrain_editor_window_get_document (window));
  stack = terrain_editor_window_get_command_stack (window);

  /* Sea level: the slider's adjustment, one undo step for a drag. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "sea-level");
  sea = GTK_ADJUSTMENT (gtk_widget_get_template_child (GTK_WIDGET (window), TERRAIN_EDITOR_TYPE_WINDOW,
                                                       "sea_adjustment"));
  g_assert_cmpfloat (gtk_adjustment_get_value (sea), ==, 20);
  gtk_adjustment_set_value (sea, 90);
  gtk_adjustment_set_value (sea, 100);
  g_assert_cmpuint (terrain_tnt_map_get_sea_level (edited), ==, 100);
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 1);
  g_assert_false (terrain_command_stack_get_clean (stack));

  /* A brush stroke of three dabs is one undo step. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "brush");
  terrain_editor_window_brush_stroke (window, stroke, G_N_ELEMENTS (stroke) / 2);
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 2);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (edited, 10, 10), >, 20);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (edited, 30, 30), ==, 60);

  /* Undo takes the whole stroke back, the sea level stays. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 1);
  for (guint y = 0; y < 32; y++)
    for (guint x = 0; x < 32; x++)
      g_assert_cmpuint (terrain_tnt_map_get_cell_height (edited, x, y), ==, x + y);
  g_assert_cmpuint (terrain_tnt_map_get_sea_level (edited), ==, 100);
  g_assert_cmpfloat (gtk_adjustment_get_value (sea), ==, 100);

  /* Save as, to a given file. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save-as", "s", out_uri);
  g_assert_null (terrain_editor_window_get_error_message (window));
  g_assert_true (terrain_command_stack_get_clean (stack));
  g_assert_true (g_file_equal (terrain_editor_window_get_file (window), out_file));
  saved = g_file_load_bytes (out_file, NULL, NULL, &error);
  g_assert_no_error (error);

  /* Exactly the sea-level edit: the same command on a fresh copy writes
   * the same bytes, and only the header differs from the original. */
  reference = terrain_tnt_map_new_from_bytes (original, NULL, &error);
  g_assert_no_error (error);
  command = terrain_tnt_edit_new_sea_level (reference, 100);
  g_assert_true (terrain_command_apply (command, &error));
  expected = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (reference), &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (saved, expected));
  g_assert_cmpuint (g_bytes_get_size (saved), ==, g_bytes_get_size (original));
  g_assert_true (terrain_tnt_map_get_section_span (reference, TERRAIN_TNT_SECTION_HEADER, &offset, &size));
  a = g_bytes_get_data (original, NULL);
  b = g_bytes_get_data (saved, NULL);
  for (gsize i = 0; i < g_bytes_get_size (saved); i++)
    if (a[i] != b[i])
      g_assert_true (i >= offset && i < offset + size);
  g_assert_cmpmem (a + offset + size, g_bytes_get_size (saved) - offset - size,
                   b + offset + size, g_bytes_get_size (saved) - offset - size);

  close_window (window);
  g_unlink (out_path);
  g_unlink (map_path);
  g_rmdir (dir);
}

static void
test_open_error (void)
{
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/terrain-editor-test.tnt");
  TerrainEditorWindow *window = TERRAIN_EDITOR_WINDOW (terrain_editor_application_open_file (app, file));
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (terrain_editor_window_get_busy (window) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  /* The failure is shown in the window, which stays usable. */
  g_assert_nonnull (terrain_editor_window_get_error_message (window));
  g_assert_null (terrain_editor_window_get_document (window));
  g_assert_true (terrain_editor_window_is_empty (window));
  close_window (window);
}

static void
test_render_ban (void)
{
  const char *corpus = g_getenv ("TERRAIN_CORPUS_DIR");
  g_autofree char *map_path = NULL;
  g_autofree char *palette_path = NULL;
  g_autofree char *png = NULL;
  g_autofree char *window_png = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GdkTexture) window_texture = NULL;
  const char *out_dir = g_getenv ("TERRAIN_EDITOR_SCREENSHOT_DIR");
  TerrainEditorWindow *window;
  GtkWidget *view;
  gint64 deadline;

  if (corpus == NULL)
    {
      g_test_skip ("TERRAIN_CORPUS_DIR is not set");
      return;
    }
  map_path = g_build_filename (corpus, "ta", "maps", "ban.tnt", NULL);
  palette_path = g_build_filename (corpus, "ta", "PALETTE.PAL", NULL);
  if (!g_file_test (map_path, G_FILE_TEST_EXISTS) || !g_file_test (palette_path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("ban.tnt or PALETTE.PAL is not in the corpus");
      return;
    }

  g_settings_set_string (terrain_editor_application_get_settings (app), "palette-path", palette_path);
  g_assert_nonnull (terrain_editor_application_get_palette (app));
  file = g_file_new_for_path (map_path);
  window = open_and_wait (file);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));

  view = terrain_editor_window_get_map_view (window);
  /* Loaded: a picture at once (the minimap while the tiles are drawn in a
   * worker thread, with a note saying so), then the whole picture. */
  g_assert_cmpint (terrain_editor_map_view_get_picture (TERRAIN_EDITOR_MAP_VIEW (view)), !=,
                   TERRAIN_EDITOR_MAP_PICTURE_NONE);
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while ((!gtk_widget_get_mapped (view) || gtk_widget_get_width (view) < 100)
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  if (terrain_editor_map_view_get_picture (TERRAIN_EDITOR_MAP_VIEW (view)) == TERRAIN_EDITOR_MAP_PICTURE_COARSE)
    {
      g_autoptr(GdkTexture) coarse = render_widget (view);
      g_autofree char *coarse_png = g_build_filename (out_dir != NULL ? out_dir : g_get_tmp_dir (),
                                                      "editor-2d-coarse.png", NULL);

      g_assert_cmpuint (count_colours (coarse), >, 20);
      g_assert_true (gdk_texture_save_to_png (coarse, coarse_png));
      g_test_message ("2D view while loading: %s", coarse_png);
    }
  deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (terrain_editor_map_view_get_picture (TERRAIN_EDITOR_MAP_VIEW (view)) != TERRAIN_EDITOR_MAP_PICTURE_FULL
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (terrain_editor_map_view_get_picture (TERRAIN_EDITOR_MAP_VIEW (view)), ==,
                   TERRAIN_EDITOR_MAP_PICTURE_FULL);
  iterate (500);
  g_assert_cmpint (gtk_widget_get_width (view), >=, 100);

  texture = render_widget (view);
  g_assert_cmpuint (count_colours (texture), >, 50);
  png = g_build_filename (out_dir != NULL ? out_dir : g_get_tmp_dir (), "editor-2d-view.png", NULL);
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("2D view: %s", png);

  window_texture = render_widget (GTK_WIDGET (window));
  window_png = g_build_filename (out_dir != NULL ? out_dir : g_get_tmp_dir (), "editor-2d.png", NULL);
  g_assert_true (gdk_texture_save_to_png (window_texture, window_png));
  g_test_message ("window: %s", window_png);

  close_window (window);
  /* The other tests draw heights in grey. */
  g_settings_reset (terrain_editor_application_get_settings (app), "palette-path");
  g_assert_null (terrain_editor_application_get_palette (app));
}

/* A side x side raw16 heightmap of gentle hills. */
static GFile *
write_heightmap (const char *dir,
                 const char *name,
                 guint       side)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree guint16 *samples = g_new (guint16, (gsize) side * side);
  g_autoptr(GError) error = NULL;

  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      samples[(gsize) y * side + x] = GUINT16_TO_LE ((guint16) (1000 + 400 * sin (x * 0.2) * cos (y * 0.15)
                                                               + 3 * ((x * 7 + y * 13) % 11)));
  g_assert_true (g_file_set_contents (path, (const char *) samples, (gssize) side * side * 2, &error));
  g_assert_no_error (error);
  return g_file_new_for_path (path);
}

static GFile *
write_texture (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "texture.png", NULL);
  g_autoptr(TerrainImage) image = terrain_image_new (TERRAIN_IMAGE_RGBA8, 128, 128, NULL);
  guint8 *p = terrain_image_get_data (image, NULL);
  GFile *file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  for (guint y = 0; y < 128; y++)
    for (guint x = 0; x < 128; x++)
      {
        guint8 *q = p + y * terrain_image_get_stride (image) + 4 * x;

        q[0] = (guint8) (x * 2);
        q[1] = (guint8) (120 + y / 2);
        q[2] = 60;
        q[3] = 255;
      }
  g_assert_true (terrain_image_save_png (image, file, NULL, &error));
  g_assert_no_error (error);
  return file;
}

static void
wait_build (TerrainEditorBuildDialog *dialog)
{
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;

  while (terrain_editor_build_dialog_get_running (dialog) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (terrain_editor_build_dialog_get_running (dialog));
}

static guint
count_files (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static void
test_build_atlas (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-editor-atlas-XXXXXX", &error);
  g_autofree char *out_path = g_build_filename (dir, "built.atlas", NULL);
  g_autoptr(GFile) out_file = g_file_new_for_path (out_path);
  g_autoptr(GFile) heightmap = NULL;
  g_autoptr(GFile) texture = NULL;
  g_autoptr(TerrainDocument) document = NULL;
  TerrainEditorBuildDialog *dialog;
  TerrainEditorWindow *opened = NULL;
  const char *out_dir = g_getenv ("TERRAIN_EDITOR_SCREENSHOT_DIR");
  gint64 deadline;

  g_assert_no_error (error);
  heightmap = write_heightmap (dir, "hills.raw", 65);
  texture = write_texture (dir);

  /* The app action opens the dialog. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "build-atlas", NULL);
  dialog = NULL;
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (TERRAIN_EDITOR_IS_BUILD_DIALOG (l->data))
      dialog = l->data;
  g_assert_nonnull (dialog);

  /* Without inputs Build is disabled. */
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (dialog), "build.start", NULL)
                  && terrain_editor_build_dialog_get_running (dialog));
  terrain_editor_build_dialog_set_heightmap (dialog, heightmap);
  terrain_editor_build_dialog_set_texture (dialog, texture);
  terrain_editor_build_dialog_set_output (dialog, out_file);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "build.start", NULL));
  g_assert_true (terrain_editor_build_dialog_get_running (dialog));
  wait_build (dialog);
  g_assert_null (terrain_editor_build_dialog_get_error_message (dialog));
  g_assert_nonnull (terrain_editor_build_dialog_get_result (dialog));
  g_assert_true (g_file_equal (terrain_editor_build_dialog_get_result (dialog), out_file));

  document = terrain_document_load (out_file, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (TERRAIN_IS_ATLAS_FILE (document));
  g_assert_cmpint (terrain_atlas_file_find_toc (TERRAIN_ATLAS_FILE (document), TERRAIN_ATLAS_TOC_GEOMETRY, 0), >=, 0);
  g_assert_cmpint (terrain_atlas_file_find_toc (TERRAIN_ATLAS_FILE (document), TERRAIN_ATLAS_TOC_TEXTURE, 0), >=, 0);

  /* A screenshot of the finished dialog. */
  iterate (300);
  if (gtk_widget_get_mapped (GTK_WIDGET (dialog)))
    {
      g_autoptr(GdkTexture) shot = render_widget (GTK_WIDGET (dialog));
      g_autofree char *png = g_build_filename (out_dir != NULL ? out_dir : g_get_tmp_dir (),
                                               "editor-build-atlas.png", NULL);

      g_assert_true (gdk_texture_save_to_png (shot, png));
      g_test_message ("Build Atlas dialog: %s", png);
    }

  /* Open the result in a new window; the dialog closes. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "build.open-result", NULL));
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (TERRAIN_EDITOR_IS_WINDOW (l->data) && terrain_editor_window_get_file (l->data) != NULL
        && g_file_equal (terrain_editor_window_get_file (l->data), out_file))
      opened = l->data;
  g_assert_nonnull (opened);
  deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (terrain_editor_window_get_busy (opened) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (terrain_editor_window_get_error_message (opened));
  g_assert_true (TERRAIN_IS_ATLAS_FILE (terrain_editor_window_get_document (opened)));
  close_window (opened);

  terrain_test_remove_tree (dir);
}

static void
test_build_atlas_cancel (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-editor-atlas-XXXXXX", &error);
  g_autofree char *out_path = g_build_filename (dir, "cancelled.atlas", NULL);
  g_autoptr(GFile) out_file = g_file_new_for_path (out_path);
  g_autoptr(GFile) heightmap = NULL;
  g_autoptr(GFile) texture = NULL;
  TerrainEditorBuildDialog *dialog;
  GtkProgressBar *bar;
  gint64 deadline;

  g_assert_no_error (error);
  heightmap = write_heightmap (dir, "big.raw", 1025);
  texture = write_texture (dir);
  g_assert_cmpuint (count_files (dir), ==, 2);

  dialog = terrain_editor_build_dialog_new (app, NULL);
  gtk_window_present (GTK_WINDOW (dialog));
  terrain_editor_build_dialog_set_heightmap (dialog, heightmap);
  terrain_editor_build_dialog_set_texture (dialog, texture);
  terrain_editor_build_dialog_set_output (dialog, out_file);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "build.start", NULL));

  /* Cancel once the builder runs (after the heightmap is read). */
  bar = GTK_PROGRESS_BAR (gtk_widget_get_template_child (GTK_WIDGET (dialog), TERRAIN_EDITOR_TYPE_BUILD_DIALOG,
                                                         "progress_bar"));
  deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (terrain_editor_build_dialog_get_running (dialog)
         && g_str_equal (gtk_progress_bar_get_text (bar), _("Reading the heightmap"))
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (terrain_editor_build_dialog_get_running (dialog));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "build.cancel", NULL));
  wait_build (dialog);

  /* No result, no error, and nothing written: not the file, no temporary. */
  g_assert_null (terrain_editor_build_dialog_get_result (dialog));
  g_assert_null (terrain_editor_build_dialog_get_error_message (dialog));
  g_assert_false (g_file_query_exists (out_file, NULL));
  g_assert_cmpuint (count_files (dir), ==, 2);

  /* Cancel again closes the dialog. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "build.cancel", NULL));
  iterate (50);

  terrain_test_remove_tree (dir);
}


/* Every GtkShortcutsShortcut under @widget that names an action; the
 * action has an accelerator, or the row would show none. */
static guint
check_shortcut_actions (GtkWidget *widget)
{
  guint n = 0;

  if (GTK_IS_SHORTCUTS_SHORTCUT (widget))
    {
      g_autofree char *action = NULL;

      g_object_get (widget, "action-name", &action, NULL);
      if (action != NULL)
        {
          g_auto(GStrv) accels = NULL;

          accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), action);

          g_test_message ("%s: %s", action, accels[0] != NULL ? accels[0] : "(none)");
          g_assert_nonnull (accels[0]);
          n++;
        }
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    n += check_shortcut_actions (c);
  return n;
}

/* Whether a page switcher is shown under @widget. */
static gboolean
has_visible_switcher (GtkWidget *widget)
{
  if (GTK_IS_STACK_SWITCHER (widget) && gtk_widget_get_mapped (widget))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (has_visible_switcher (c))
      return TRUE;
  return FALSE;
}

/* The shortcuts window (gtk/help-overlay.ui in the resources), shown under
 * G_DEBUG=fatal-warnings: its groups fit one page, since GTK 4.8's page
 * switcher buttons ("1", "2") have labels narrower than the theme's
 * negative margins and warn "reported min width -4". */
static void
test_shortcuts (void)
{
  TerrainEditorWindow *window = terrain_editor_window_new (app);
  g_auto(GStrv) help = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.show-help-overlay");
  g_auto(GStrv) build = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "app.build-atlas");
  GtkShortcutsWindow *overlay;
  gint64 deadline;

  gtk_window_present (GTK_WINDOW (window));
  iterate (50);
  g_assert_nonnull (help);
  g_assert_nonnull (help[0]);
  g_assert_nonnull (build);
  g_assert_nonnull (build[0]);
  overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));
  g_assert_nonnull (overlay);
  g_assert_cmpuint (check_shortcut_actions (GTK_WIDGET (overlay)), >=, 20);

  /* Shown the way Ctrl+? and the main menu show it. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (!gtk_widget_get_mapped (GTK_WIDGET (overlay)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (overlay)));
  iterate (300);
  g_assert_false (has_visible_switcher (GTK_WIDGET (overlay)));
  save_screenshot (GTK_WIDGET (overlay), "editor-shortcuts.png");

  gtk_window_close (GTK_WINDOW (overlay));
  iterate (50);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (overlay)));
  close_window (window);
}

/* The window's overlay toggles reach both views: Features hides the 2D
 * footprints and the 3D markers alike. */
static void
test_overlay_toggles (void)
{
  TerrainEditorWindow *window = terrain_editor_window_new (app);
  GObject *gl_view;
  gboolean shown = FALSE;

  gtk_window_present (GTK_WINDOW (window));
  iterate (50);
  gl_view = G_OBJECT (gtk_overlay_get_child (GTK_OVERLAY (child (window, "gl_overlay"))));
  g_assert_nonnull (gl_view);

  g_object_set (window, "show-features", TRUE, NULL);
  g_object_get (gl_view, "show-features", &shown, NULL);
  g_assert_true (shown);
  g_object_get (map_view (window), "show-features", &shown, NULL);
  g_assert_true (shown);

  g_object_set (window, "show-features", FALSE, NULL);
  g_object_get (gl_view, "show-features", &shown, NULL);
  g_assert_false (shown);
  g_object_get (map_view (window), "show-features", &shown, NULL);
  g_assert_false (shown);

  g_object_set (window, "show-features", TRUE, NULL);
  close_window (window);
}

int
main (int    argc,
      char **argv)
{
  int status;

  editor_test_init (&argc, &argv);

  g_test_add_func ("/Terrain/Editor/edit-and-save", test_edit_and_save);
  g_test_add_func ("/Terrain/Editor/open-error", test_open_error);
  g_test_add_func ("/Terrain/Editor/render-ban", test_render_ban);
  g_test_add_func ("/Terrain/Editor/build-atlas", test_build_atlas);
  g_test_add_func ("/Terrain/Editor/build-atlas-cancel", test_build_atlas_cancel);
  g_test_add_func ("/Terrain/Editor/shortcuts", test_shortcuts);
  g_test_add_func ("/Terrain/Editor/overlay-toggles", test_overlay_toggles);
  status = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);
  return status;
}
