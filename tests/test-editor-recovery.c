/* test-editor-recovery.c: recovery copies of unsaved edits, under Xvfb
 *
 * The recovery store on its own (write, list, replace, clear, a write cut
 * short, a damaged copy); a window's copy of a brush stroke and a sea-level
 * change, byte for byte the library's result of the same edits, removed on
 * Save; the recovery dialog's Recover and Discard. Then the real editor
 * binary ($TERRAIN_EDITOR) as a user runs it, driven with xdotool: it opens
 * a copy of the corpus map ban.tnt, the sea level is changed from the
 * keyboard, the editor writes a recovery copy and is killed with SIGKILL;
 * the next start offers the copy, Enter recovers it, Ctrl+S saves it, and
 * the saved file is byte for byte the library's result of the same edit,
 * while the file was not touched before Save. The editor runs with a
 * recovery interval of 1 s (GSettings, keyfile backend).
 * TERRAIN_EDITOR_SCREENSHOT_DIR keeps screenshots.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <libterrain.h>

#include "terrain-editor-recovery.h"
#include "terrain-test-fixtures.h"
#include "test-editor-util.h"

TerrainEditorApplication *app;

#define MAP_W 64
#define MAP_H 48

typedef struct
{
  char  *dir;
  char  *map_path;
  GFile *map_file;
  char  *recovery_dir;
} Fixture;

/* A map of heights 100 with a ramp in its top rows, sea level 10. */
static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (MAP_W, MAP_H, &error);

  g_assert_no_error (error);
  f->dir = g_dir_make_tmp ("test-editor-recovery-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint y = 0; y < MAP_H; y++)
    for (guint x = 0; x < MAP_W; x++)
      terrain_tnt_map_set_cell_height (map, x, y, y < 4 ? 20 + 3 * x : 100);
  terrain_tnt_map_set_sea_level (map, 10, NULL);
  f->map_path = g_build_filename (f->dir, "map.tnt", NULL);
  f->map_file = g_file_new_for_path (f->map_path);
  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (map), f->map_file, NULL, &error));
  g_assert_no_error (error);
  f->recovery_dir = terrain_editor_recovery_get_default_dir ();
  terrain_test_remove_tree (f->recovery_dir);
  g_settings_set_uint (terrain_editor_application_get_settings (app), "recovery-interval", 1);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  terrain_test_remove_tree (f->dir);
  terrain_test_remove_tree (f->recovery_dir);
  g_settings_reset (terrain_editor_application_get_settings (app), "recovery-interval");
  g_clear_object (&f->map_file);
  g_free (f->map_path);
  g_free (f->recovery_dir);
  g_free (f->dir);
}

static guint
count_files (const char *dir,
             const char *suffix)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, suffix))
      n++;
  return n;
}

/* The copies in the recovery folder, waiting up to @seconds for @n. */
static GPtrArray *
wait_for_entries (const char *dir,
                  guint       n,
                  guint       seconds)
{
  gint64 deadline = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;
  GPtrArray *entries = NULL;

  for (;;)
    {
      g_autoptr(GError) error = NULL;

      g_clear_pointer (&entries, g_ptr_array_unref);
      entries = terrain_editor_recovery_list (dir, &error);
      g_assert_no_error (error);
      if (entries->len >= n || g_get_monotonic_time () > deadline)
        return entries;
      if (g_main_context_pending (NULL))
        g_main_context_iteration (NULL, FALSE);
      else
        g_usleep (20000);
    }
}

/* ------------------------------------------------------------------------ */
/* The store                                                                */

static TerrainEditorRecoveryEntry *
make_entry (const char *id)
{
  TerrainEditorRecoveryEntry *entry = g_new0 (TerrainEditorRecoveryEntry, 1);

  entry->id = g_strdup (id);
  entry->uri = g_strdup ("file:///maps/ban.tnt");
  entry->name = g_strdup ("ban.tnt");
  entry->format = TERRAIN_FORMAT_TNT;
  entry->in_place = TRUE;
  entry->edits = 3;
  entry->last_edit = g_strdup ("brush stroke");
  return entry;
}

static void
test_store (Fixture       *f,
            gconstpointer  data)
{
  g_autofree char *dir = g_build_filename (f->dir, "store", "recovery", NULL);
  g_autoptr(TerrainEditorRecoveryEntry) entry = make_entry ("5b0c1f2e-0000-4000-8000-000000000001");
  g_autoptr(GBytes) first = g_bytes_new_static ("first copy", 10);
  g_autoptr(GBytes) second = g_bytes_new_static ("the second copy", 15);
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GBytes) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *orphan = NULL;
  TerrainEditorRecoveryEntry *listed;
  GStatBuf st;

  /* No folder: no copies. */
  entries = terrain_editor_recovery_list (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (entries->len, ==, 0);
  g_clear_pointer (&entries, g_ptr_array_unref);

  /* Write: the folder is made private; the copy lists with its manifest. */
  g_assert_true (terrain_editor_recovery_write (dir, entry, first, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (dir, &st), ==, 0);
  g_assert_cmpuint (st.st_mode & 0777, ==, 0700);
  g_assert_cmpuint (entry->size, ==, 10);
  g_assert_cmpint (entry->pid, ==, getpid ());
  g_assert_false (terrain_editor_recovery_entry_is_live (entry));
  entries = terrain_editor_recovery_list (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (entries->len, ==, 1);
  listed = g_ptr_array_index (entries, 0);
  g_assert_cmpstr (listed->id, ==, entry->id);
  g_assert_cmpstr (listed->uri, ==, "file:///maps/ban.tnt");
  g_assert_cmpstr (listed->name, ==, "ban.tnt");
  g_assert_cmpint (listed->format, ==, TERRAIN_FORMAT_TNT);
  g_assert_true (listed->in_place);
  g_assert_cmpuint (listed->edits, ==, 3);
  g_assert_cmpstr (listed->last_edit, ==, "brush stroke");
  g_assert_cmpint (listed->time, ==, entry->time);
  g_assert_cmpint (ABS (listed->time - g_get_real_time () / G_USEC_PER_SEC), <=, 5);
  loaded = terrain_editor_recovery_load_bytes (listed, &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (loaded, first);
  g_clear_pointer (&loaded, g_bytes_unref);
  g_clear_pointer (&entries, g_ptr_array_unref);

  /* A second write replaces the copy: one manifest, one data file. */
  entry->edits = 4;
  g_assert_true (terrain_editor_recovery_write (dir, entry, second, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_files (dir, ".recovery"), ==, 1);
  g_assert_cmpuint (count_files (dir, ".data"), ==, 1);

  /* A write cut short after its data file, before the manifest: the
   * manifest still names the whole previous copy. */
  orphan = g_strdup_printf ("%s/%s-99999999999999999.data", dir, entry->id);
  g_assert_true (g_file_set_contents (orphan, "half a co", 9, &error));
  g_assert_no_error (error);
  entries = terrain_editor_recovery_list (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (entries->len, ==, 1);
  listed = g_ptr_array_index (entries, 0);
  g_assert_cmpuint (listed->edits, ==, 4);
  loaded = terrain_editor_recovery_load_bytes (listed, &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (loaded, second);
  g_clear_pointer (&loaded, g_bytes_unref);

  /* A copy damaged on disk: the same size, other bytes, refused. */
  g_assert_true (g_file_set_contents (listed->data_path, "THE SECOND COPY", 15, &error));
  g_assert_no_error (error);
  loaded = terrain_editor_recovery_load_bytes (listed, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_null (loaded);
  g_clear_error (&error);
  /* Cut short: not listed at all. */
  g_assert_true (g_file_set_contents (listed->data_path, "THE", 3, &error));
  g_assert_no_error (error);
  g_clear_pointer (&entries, g_ptr_array_unref);
  entries = terrain_editor_recovery_list (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (entries->len, ==, 0);
  g_clear_pointer (&entries, g_ptr_array_unref);

  /* Clear removes the manifest and every data file of the copy, the
   * leftover one too; clearing again is no error. */
  g_assert_true (terrain_editor_recovery_clear (dir, entry->id, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_files (dir, ".recovery"), ==, 0);
  g_assert_cmpuint (count_files (dir, ".data"), ==, 0);
  g_assert_true (terrain_editor_recovery_clear (dir, entry->id, &error));
  g_assert_no_error (error);

  /* Two copies list newest first. */
  {
    g_autoptr(TerrainEditorRecoveryEntry) older = make_entry ("5b0c1f2e-0000-4000-8000-000000000002");
    g_autofree char *manifest = NULL;
    g_autofree char *text = NULL;
    g_autoptr(GKeyFile) key_file = g_key_file_new ();

    g_assert_true (terrain_editor_recovery_write (dir, older, first, &error));
    g_assert_true (terrain_editor_recovery_write (dir, entry, second, &error));
    g_assert_no_error (error);
    /* The older one's manifest says an hour ago. */
    manifest = g_strdup_printf ("%s/%s.recovery", dir, older->id);
    g_assert_true (g_key_file_load_from_file (key_file, manifest, G_KEY_FILE_KEEP_COMMENTS, &error));
    g_key_file_set_int64 (key_file, "Recovery", "time", older->time - 3600);
    g_assert_true (g_key_file_save_to_file (key_file, manifest, &error));
    g_assert_no_error (error);
    entries = terrain_editor_recovery_list (dir, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (entries->len, ==, 2);
    g_assert_cmpstr (((TerrainEditorRecoveryEntry *) g_ptr_array_index (entries, 0))->id, ==, entry->id);
    g_assert_cmpstr (((TerrainEditorRecoveryEntry *) g_ptr_array_index (entries, 1))->id, ==, older->id);
  }
}

/* ------------------------------------------------------------------------ */
/* A window's copy                                                          */

/* The stroke the tests draw, every point a dab (2 cells apart, the
 * default radius 4 spaces dabs 1 cell apart). */
static const double stroke[] = { 10, 20, 12, 21, 14, 22, 16, 23, 18, 24 };

/* The map file with the test's edits made through the library: the same
 * brush (the window's settings) at the same points, then the sea level. */
static GBytes *
library_edits (Fixture             *f,
               TerrainEditorWindow *window,
               guint                sea_level)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) document = terrain_document_load (f->map_file, NULL, NULL, &error);
  g_autoptr(TerrainCommandStack) stack = NULL;
  TerrainTntMap *map = TERRAIN_TNT_MAP (document);
  TerrainTntBrush brush = {
    .mode = (TerrainTntBrushMode) gtk_drop_down_get_selected (GTK_DROP_DOWN (child_object (window, "brush_mode"))),
    .radius = gtk_adjustment_get_value (GTK_ADJUSTMENT (child_object (window, "radius_adjustment"))),
    .strength = gtk_adjustment_get_value (GTK_ADJUSTMENT (child_object (window, "strength_adjustment"))),
    .falloff = (TerrainTntFalloff) gtk_drop_down_get_selected (GTK_DROP_DOWN (child_object (window, "brush_falloff"))),
    .level = (guint8) gtk_adjustment_get_value (GTK_ADJUSTMENT (child_object (window, "level_adjustment"))),
  };
  GBytes *bytes;

  g_assert_no_error (error);
  stack = terrain_command_stack_new (document);
  terrain_command_stack_begin_user_action (stack, "brush stroke");
  for (guint i = 0; i < G_N_ELEMENTS (stroke) / 2; i++)
    {
      g_autoptr(TerrainCommand) dab = terrain_tnt_edit_new_brush (map, &brush, stroke[2 * i], stroke[2 * i + 1], 1);

      g_assert_true (terrain_command_stack_execute (stack, dab, &error));
      g_assert_no_error (error);
    }
  terrain_command_stack_end_user_action (stack);
  if (sea_level != terrain_tnt_map_get_sea_level (map))
    {
      g_autoptr(TerrainCommand) sea = terrain_tnt_edit_new_sea_level (map, sea_level);

      g_assert_true (terrain_command_stack_execute (stack, sea, &error));
      g_assert_no_error (error);
    }
  bytes = terrain_document_save_to_bytes (document, &error);
  g_assert_no_error (error);
  return bytes;
}

/* A stroke and a sea-level change: within a few seconds a copy holds the
 * library's bytes for the same edits, the map file is as it was; undoing
 * back to the saved state removes the copy, redoing brings it back, Save
 * removes it again. */
static void
test_window_copy (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GBytes) original = terrain_test_read_bytes (f->map_path);
  TerrainEditorWindow *window = open_and_wait (f->map_file);
  GtkAdjustment *sea = GTK_ADJUSTMENT (child_object (window, "sea_adjustment"));
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GBytes) expected = NULL;
  g_autoptr(GBytes) copy = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = g_file_get_uri (f->map_file);
  TerrainEditorRecoveryEntry *entry;

  gtk_window_present (GTK_WINDOW (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "brush");
  terrain_editor_window_brush_stroke (window, stroke, G_N_ELEMENTS (stroke) / 2);
  gtk_adjustment_set_value (sea, 33);
  expected = library_edits (f, window, 33);

  entries = wait_for_entries (f->recovery_dir, 1, 15);
  g_assert_cmpuint (entries->len, ==, 1);
  entry = g_ptr_array_index (entries, 0);
  g_assert_cmpstr (entry->uri, ==, uri);
  g_assert_cmpstr (entry->name, ==, "map.tnt");
  g_assert_cmpint (entry->format, ==, TERRAIN_FORMAT_TNT);
  g_assert_true (entry->in_place);
  g_assert_cmpuint (entry->edits, ==, 2);
  g_assert_nonnull (entry->last_edit);
  g_assert_nonnull (strstr (entry->last_edit, "33"));
  copy = terrain_editor_recovery_load_bytes (entry, &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (copy, expected);
  g_clear_pointer (&copy, g_bytes_unref);
  /* Never next to or over the user's file. */
  g_assert_false (g_str_has_prefix (entry->data_path, f->dir));
  g_assert_cmpuint (count_files (f->dir, ".data") + count_files (f->dir, ".recovery"), ==, 0);
  saved = terrain_test_read_bytes (f->map_path);
  terrain_test_assert_bytes_equal (saved, original);
  g_clear_pointer (&saved, g_bytes_unref);
  g_clear_pointer (&entries, g_ptr_array_unref);

  /* Undone to the saved state: nothing to recover. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  iterate (200);
  g_assert_true (terrain_command_stack_get_clean (terrain_editor_window_get_command_stack (window)));
  g_assert_cmpuint (count_files (f->recovery_dir, ".recovery"), ==, 0);
  g_assert_cmpuint (count_files (f->recovery_dir, ".data"), ==, 0);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL);
  g_clear_pointer (&entries, g_ptr_array_unref);
  entries = wait_for_entries (f->recovery_dir, 1, 15);
  g_assert_cmpuint (entries->len, ==, 1);
  copy = terrain_editor_recovery_load_bytes (g_ptr_array_index (entries, 0), &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (copy, expected);

  /* Saved: the file holds the edits, and the copy is gone. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  saved = terrain_test_read_bytes (f->map_path);
  terrain_test_assert_bytes_equal (saved, expected);
  iterate (1500);
  g_assert_cmpuint (count_files (f->recovery_dir, ".recovery"), ==, 0);
  g_assert_cmpuint (count_files (f->recovery_dir, ".data"), ==, 0);
  close_window (window);
}

/* ------------------------------------------------------------------------ */
/* The dialog                                                               */

/* Leaves a copy of the test's edits made by a window that is then
 * destroyed without closing (as when the editor is killed). */
static GBytes *
leave_copy (Fixture *f)
{
  TerrainEditorWindow *window = open_and_wait (f->map_file);
  g_autoptr(GPtrArray) entries = NULL;
  GBytes *expected;

  gtk_window_present (GTK_WINDOW (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "brush");
  terrain_editor_window_brush_stroke (window, stroke, G_N_ELEMENTS (stroke) / 2);
  gtk_adjustment_set_value (GTK_ADJUSTMENT (child_object (window, "sea_adjustment")), 44);
  expected = library_edits (f, window, 44);
  entries = wait_for_entries (f->recovery_dir, 1, 15);
  g_assert_cmpuint (entries->len, ==, 1);
  close_window (window);
  g_clear_pointer (&entries, g_ptr_array_unref);
  entries = wait_for_entries (f->recovery_dir, 1, 0);
  g_assert_cmpuint (entries->len, ==, 1);
  return expected;
}

/* The dialog names the map, its folder and the edits; Recover opens the
 * copy with unsaved edits and the original file as Save's target; Save
 * writes the library's bytes of the edits and removes the copy. */
static void
test_dialog_recover (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GBytes) original = terrain_test_read_bytes (f->map_path);
  g_autoptr(GBytes) expected = leave_copy (f);
  g_autoptr(GBytes) saved = NULL;
  g_autofree char *folder = g_path_get_basename (f->dir);
  GtkWindow *dialog = terrain_editor_application_offer_recovery (app);
  GtkWidget *recover;
  TerrainEditorWindow *window = NULL;
  TerrainDocument *document;
  gint64 deadline;

  g_assert_nonnull (dialog);
  iterate (300);
  g_assert_true (has_label_containing (GTK_WIDGET (dialog), "map.tnt"));
  g_assert_true (has_label_containing (GTK_WIDGET (dialog), folder));
  g_assert_true (has_label_containing (GTK_WIDGET (dialog), "2 edits"));
  g_assert_true (has_label_containing (GTK_WIDGET (dialog), "44"));
  save_screenshot (GTK_WIDGET (dialog), "editor-recovery.png");
  recover = find_named (GTK_WIDGET (dialog), "recover");
  g_assert_nonnull (recover);
  g_assert_true (gtk_widget_has_focus (recover) || gtk_window_get_focus (dialog) == recover);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  g_signal_emit_by_name (recover, "clicked");
  iterate (100);
  g_assert_null (dialog);

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (TERRAIN_EDITOR_IS_WINDOW (l->data))
      window = l->data;
  g_assert_nonnull (window);
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (terrain_editor_window_get_busy (window) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (terrain_editor_window_get_error_message (window));
  document = terrain_editor_window_get_document (window);
  g_assert_nonnull (document);
  g_assert_true (terrain_document_get_modified (document));
  g_assert_false (terrain_command_stack_get_clean (terrain_editor_window_get_command_stack (window)));
  g_assert_true (g_file_equal (terrain_editor_window_get_file (window), f->map_file));
  g_assert_true (g_file_equal (terrain_document_get_file (document), f->map_file));
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (window)), "•"));
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  iterate (500);
  save_screenshot (GTK_WIDGET (window), "editor-recovered.png");
  /* Until Save, the file is as it was and the copy stays. */
  saved = terrain_test_read_bytes (f->map_path);
  terrain_test_assert_bytes_equal (saved, original);
  g_clear_pointer (&saved, g_bytes_unref);
  g_assert_cmpuint (count_files (f->recovery_dir, ".recovery"), ==, 1);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  saved = terrain_test_read_bytes (f->map_path);
  terrain_test_assert_bytes_equal (saved, expected);
  iterate (200);
  g_assert_cmpuint (count_files (f->recovery_dir, ".recovery"), ==, 0);
  g_assert_cmpuint (count_files (f->recovery_dir, ".data"), ==, 0);
  g_assert_false (terrain_document_get_modified (document));
  close_window (window);
}

/* Discard deletes the copy and leaves the file as it was; with nothing
 * left, no dialog. */
static void
test_dialog_discard (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GBytes) original = terrain_test_read_bytes (f->map_path);
  g_autoptr(GBytes) expected = leave_copy (f);
  g_autoptr(GBytes) after = NULL;
  GtkWindow *dialog = terrain_editor_application_offer_recovery (app);
  GtkWidget *discard;

  g_assert_nonnull (dialog);
  discard = find_named (GTK_WIDGET (dialog), "discard");
  g_assert_nonnull (discard);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  g_signal_emit_by_name (discard, "clicked");
  iterate (100);
  g_assert_null (dialog);
  g_assert_cmpuint (count_files (f->recovery_dir, ".recovery"), ==, 0);
  g_assert_cmpuint (count_files (f->recovery_dir, ".data"), ==, 0);
  after = terrain_test_read_bytes (f->map_path);
  terrain_test_assert_bytes_equal (after, original);
  g_assert_null (terrain_editor_application_offer_recovery (app));
}

/* ------------------------------------------------------------------------ */
/* The editor binary, killed                                                */

/* xdotool's output (stripped), failing the test if it fails. */
static char *
xdotool (const char *const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  int status = 0;

  g_ptr_array_add (argv, (char *) "xdotool");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  (void) status;
  return g_strstrip (g_steal_pointer (&out));
}

/* The first window whose title matches @regex, waiting up to 60 s. */
static char *
find_window (const char *regex)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < deadline)
    {
      const char *args[] = { "search", "--onlyvisible", "--name", regex, NULL };
      g_autofree char *out = xdotool (args);

      if (out[0] != '\0')
        {
          char *newline = strchr (out, '\n');

          if (newline != NULL)
            *newline = '\0';
          return g_steal_pointer (&out);
        }
      g_usleep (200000);
    }
  g_error ("no window titled %s appeared", regex);
}

static void
keys (const char *window,
      const char *const *keys)
{
  const char *focus[] = { "windowfocus", "--sync", window, NULL };
  g_autofree char *ignored = xdotool (focus);

  for (guint i = 0; keys[i] != NULL; i++)
    {
      const char *args[] = { "key", "--clearmodifiers", keys[i], NULL };
      g_autofree char *out = xdotool (args);

      g_usleep (150000);
    }
}

static void
type_text (const char *text)
{
  const char *args[] = { "type", text, NULL };
  g_autofree char *out = xdotool (args);
}

static GSubprocess *
start_editor (char       **envp,
              const char  *map_path)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GError) error = NULL;
  GSubprocess *editor;

  g_subprocess_launcher_set_environ (launcher, envp);
  editor = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("TERRAIN_EDITOR"), map_path, NULL);
  g_assert_no_error (error);
  return editor;
}

static void
test_killed_editor (void)
{
  const char *corpus = g_getenv ("TERRAIN_CORPUS_DIR");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *corpus_map = NULL;
  g_autofree char *map_path = NULL;
  g_autofree char *state = NULL;
  g_autofree char *config = NULL;
  g_autofree char *keyfile = NULL;
  g_autofree char *recovery_dir = NULL;
  g_autofree char *map_uri = NULL;
  g_autofree char *window = NULL;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) expected = NULL;
  g_autoptr(GBytes) copy = NULL;
  g_autoptr(GBytes) now = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GSubprocess) editor = NULL;
  g_autoptr(GFile) map_file = NULL;
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(TerrainCommandStack) stack = NULL;
  g_autoptr(TerrainCommand) sea = NULL;
  g_auto(GStrv) envp = NULL;
  TerrainEditorRecoveryEntry *entry;
  GStatBuf st;
  gint64 mtime, deadline;

  if (corpus == NULL || g_getenv ("TERRAIN_EDITOR") == NULL)
    {
      g_test_skip ("TERRAIN_CORPUS_DIR or TERRAIN_EDITOR is not set");
      return;
    }
  corpus_map = g_build_filename (corpus, "ta", "maps", "ban.tnt", NULL);
  if (!g_file_test (corpus_map, G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip ("ban.tnt is not in the corpus");
      return;
    }

  /* A copy of the map; the editor's state and settings folders; a
   * recovery interval of 1 s. */
  dir = g_dir_make_tmp ("test-editor-killed-XXXXXX", &error);
  g_assert_no_error (error);
  map_path = g_build_filename (dir, "ban.tnt", NULL);
  original = terrain_test_read_bytes (corpus_map);
  g_assert_true (g_file_set_contents (map_path, g_bytes_get_data (original, NULL),
                                      g_bytes_get_size (original), &error));
  g_assert_no_error (error);
  map_file = g_file_new_for_path (map_path);
  map_uri = g_file_get_uri (map_file);
  g_assert_cmpint (g_stat (map_path, &st), ==, 0);
  mtime = st.st_mtime;
  state = g_build_filename (dir, "state", NULL);
  config = g_build_filename (dir, "config", "glib-2.0", "settings", NULL);
  g_assert_cmpint (g_mkdir_with_parents (config, 0700), ==, 0);
  keyfile = g_build_filename (config, "keyfile", NULL);
  g_assert_true (g_file_set_contents (keyfile, "[" TERRAIN_SETTINGS_PATH "]\nrecovery-interval=uint32 1\n", -1,
                                      &error));
  g_assert_no_error (error);
  g_free (config);
  config = g_build_filename (dir, "config", NULL);
  recovery_dir = g_build_filename (state, "libterrain", "recovery", NULL);
  envp = g_get_environ ();
  envp = g_environ_setenv (envp, "XDG_STATE_HOME", state, TRUE);
  envp = g_environ_setenv (envp, "XDG_CONFIG_HOME", config, TRUE);
  envp = g_environ_setenv (envp, "GSETTINGS_BACKEND", "keyfile", TRUE);

  /* The library's result of the edit the user makes: sea level 42. */
  document = terrain_document_load (map_file, NULL, NULL, &error);
  g_assert_no_error (error);
  stack = terrain_command_stack_new (document);
  sea = terrain_tnt_edit_new_sea_level (TERRAIN_TNT_MAP (document), 42);
  g_assert_true (terrain_command_stack_execute (stack, sea, &error));
  g_assert_no_error (error);
  expected = terrain_document_save_to_bytes (document, &error);
  g_assert_no_error (error);

  /* The editor opens the map; Alt+2 picks the sea-level tool, Alt+L its
   * field; 42 and Enter. The keys go again until a copy appears (the map
   * may still be loading the first time). */
  editor = start_editor (envp, map_path);
  window = find_window ("^ban\\.tnt$");
  deadline = g_get_monotonic_time () + 90 * G_USEC_PER_SEC;
  do
    {
      const char *tool[] = { "alt+2", "alt+l", "ctrl+a", NULL };
      const char *enter[] = { "Return", NULL };

      keys (window, tool);
      type_text ("42");
      keys (window, enter);
      g_clear_pointer (&entries, g_ptr_array_unref);
      entries = wait_for_entries (recovery_dir, 1, 5);
    }
  while (entries->len == 0 && g_get_monotonic_time () < deadline);
  g_assert_cmpuint (entries->len, ==, 1);
  entry = g_ptr_array_index (entries, 0);
  g_assert_cmpstr (entry->uri, ==, map_uri);
  g_assert_cmpstr (entry->name, ==, "ban.tnt");
  g_assert_true (entry->in_place);
  g_assert_cmpuint (entry->edits, ==, 1);
  g_assert_nonnull (strstr (entry->last_edit, "42"));
  g_assert_cmpint (entry->pid, ==, atoi (g_subprocess_get_identifier (editor)));
  copy = terrain_editor_recovery_load_bytes (entry, &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (copy, expected);

  /* Killed: no chance to clean up. The file is as it was. */
  g_subprocess_force_exit (editor);
  g_assert_true (g_subprocess_wait (editor, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_signaled (editor));
  g_assert_cmpint (g_subprocess_get_term_sig (editor), ==, SIGKILL);
  g_clear_object (&editor);
  now = terrain_test_read_bytes (map_path);
  terrain_test_assert_bytes_equal (now, original);
  g_clear_pointer (&now, g_bytes_unref);

  /* The next start offers the copy; Enter recovers it. */
  editor = start_editor (envp, NULL);
  {
    g_autofree char *dialog = find_window ("^Recover Unsaved Changes$");
    const char *enter[] = { "Return", NULL };

    g_usleep (500000);
    keys (dialog, enter);
  }
  g_free (window);
  window = find_window ("^• ban\\.tnt$");
  /* Recovered, not saved: the file is still as it was. */
  now = terrain_test_read_bytes (map_path);
  terrain_test_assert_bytes_equal (now, original);
  g_clear_pointer (&now, g_bytes_unref);
  g_assert_cmpint (g_stat (map_path, &st), ==, 0);
  g_assert_cmpint (st.st_mtime, ==, mtime);
  g_assert_cmpuint (count_files (recovery_dir, ".recovery"), ==, 1);

  /* Ctrl+S writes the library's bytes of the edit to the file. */
  {
    const char *save[] = { "ctrl+s", NULL };

    keys (window, save);
  }
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  do
    {
      g_clear_pointer (&now, g_bytes_unref);
      g_usleep (200000);
      now = terrain_test_read_bytes (map_path);
    }
  while (g_bytes_equal (now, original) && g_get_monotonic_time () < deadline);
  terrain_test_assert_bytes_equal (now, expected);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (count_files (recovery_dir, ".recovery") > 0 && g_get_monotonic_time () < deadline)
    g_usleep (100000);
  g_assert_cmpuint (count_files (recovery_dir, ".recovery"), ==, 0);
  g_assert_cmpuint (count_files (recovery_dir, ".data"), ==, 0);

  /* Ctrl+Q quits cleanly (a warning would have aborted it). */
  {
    const char *quit[] = { "ctrl+q", NULL };

    keys (window, quit);
  }
  g_assert_true (g_subprocess_wait_check (editor, NULL, &error));
  g_assert_no_error (error);
  terrain_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *state = g_dir_make_tmp ("test-editor-recovery-state-XXXXXX", NULL);
  int status;

  /* Copies go to a folder of the test's own, never the user's. */
  g_assert_nonnull (state);
  g_setenv ("XDG_STATE_HOME", state, TRUE);
  editor_test_init (&argc, &argv);
  g_assert_true (g_str_has_prefix (g_get_user_state_dir (), state));

  g_test_add ("/Terrain/Editor/Recovery/store", Fixture, NULL, fixture_setup, test_store, fixture_teardown);
  g_test_add ("/Terrain/Editor/Recovery/window-copy", Fixture, NULL,
              fixture_setup, test_window_copy, fixture_teardown);
  g_test_add ("/Terrain/Editor/Recovery/dialog-recover", Fixture, NULL,
              fixture_setup, test_dialog_recover, fixture_teardown);
  g_test_add ("/Terrain/Editor/Recovery/dialog-discard", Fixture, NULL,
              fixture_setup, test_dialog_discard, fixture_teardown);
  g_test_add_func ("/Terrain/Editor/Recovery/killed-editor", test_killed_editor);
  status = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);
  terrain_test_remove_tree (state);
  return status;
}
