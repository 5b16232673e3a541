/* test-editor-archive.c: saving maps into HPI archives in the editor, under Xvfb
 *
 * A map opened from inside an archive (built in code: two maps, their
 * descriptions and a sound, each with its own compression) is edited and
 * saved with win.save: the archive then holds the edited map, the other
 * files byte for byte with their compression, and ARCHIVE.bak the archive
 * as it was; the title loses its unsaved mark only then. An archive that
 * cannot be read any more fails the save with the reason in the window and
 * the edits still unsaved. Closing with unsaved changes and choosing Save
 * writes an edited description back into the archive too.
 * win.save-into-archive('URI') writes a loose map
 * and its description (the corpus's ban.tnt and ban.ota when there) into a
 * new .ufo as maps/NAME.tnt and maps/NAME.ota,
 * and the next Save goes into that archive. The suite runs with
 * G_DEBUG=fatal-warnings. TERRAIN_EDITOR_SCREENSHOT_DIR keeps
 * editor-saved-into-ufo.png.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>
#include <libterrain.h>

#include "terrain-editor-ota-panel.h"
#include "terrain-test-util.h"
#include "test-editor-util.h"

TerrainEditorApplication *app;

static const char small_ota[] =
  "[GlobalHeader]\r\n"
  "    {\r\n"
  "    missionname=Small;\r\n"
  "    missiondescription=A 64 x 64 test map;\r\n"
  "    size=1 x 1;\r\n"
  "    numplayers=2;\r\n"
  "    SCHEMACOUNT=1;\r\n"
  "    [Schema 0]\r\n"
  "        {\r\n"
  "        Type=Network 1;\r\n"
  "        [specials]\r\n"
  "            {\r\n"
  "            [special0]\r\n"
  "                {\r\n"
  "                specialwhat=StartPos1;\r\n"
  "                XPos=64;\r\n"
  "                ZPos=64;\r\n"
  "                }\r\n"
  "            }\r\n"
  "        }\r\n"
  "    }\r\n";

static GBytes *
build_tnt (guint8 sea_level)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (64, 64, &error);
  GBytes *bytes;

  g_assert_no_error (error);
  for (guint y = 0; y < 64; y++)
    for (guint x = 0; x < 64; x++)
      terrain_tnt_map_set_cell_height (map, x, y, (guint8) ((x * 3 + y * 2) % 200));
  terrain_tnt_map_set_sea_level (map, sea_level, NULL);
  bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (map), &error);
  g_assert_no_error (error);
  return bytes;
}

/* @tnt with the sea level set to @level by the same command the editor's
 * control runs. */
static GBytes *
with_sea_level (GBytes *tnt,
                guint8  level)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new_from_bytes (tnt, NULL, &error);
  g_autoptr(TerrainCommand) command = NULL;
  GBytes *bytes;

  g_assert_no_error (error);
  command = terrain_tnt_edit_new_sea_level (map, level);
  g_assert_true (terrain_command_apply (command, &error));
  bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (map), &error);
  g_assert_no_error (error);
  return bytes;
}

static GtkAdjustment *
sea (TerrainEditorWindow *window)
{
  return GTK_ADJUSTMENT (child_object (window, "sea_adjustment"));
}

static const char *
title (TerrainEditorWindow *window)
{
  return gtk_label_get_text (GTK_LABEL (child (window, "title_label")));
}

static const char *
info (TerrainEditorWindow *window)
{
  return gtk_label_get_text (GTK_LABEL (child (window, "info_label")));
}

static TerrainHpiArchive *
read_archive (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TerrainHpiArchive *archive = terrain_hpi_archive_new_from_file (file, NULL, NULL, &error);

  g_assert_no_error (error);
  return archive;
}

/* The file of @archive at @path (spelled exactly so) holds @expected,
 * stored with @compression. */
static void
assert_member (TerrainHpiArchive     *archive,
               const char            *path,
               GBytes                *expected,
               TerrainHpiCompression  compression)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  guint index;

  g_assert_true (terrain_hpi_archive_find (archive, path, &index));
  g_assert_cmpstr (terrain_hpi_archive_get_path (archive, index), ==, path);
  g_assert_cmpint (terrain_hpi_archive_get_compression (archive, index), ==, compression);
  bytes = terrain_hpi_archive_read_file (archive, index, &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (expected, bytes);
}

/* Save of a map opened from inside an archive writes it back there. */
static void
test_save_back (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = terrain_test_make_tmp_dir ("test-editor-archive-XXXXXX");
  g_autofree char *archive_path = g_build_filename (dir, "mymaps.hpi", NULL);
  g_autofree char *backup_path = g_build_filename (dir, "mymaps.hpi.bak", NULL);
  g_autofree char *member_path = g_strconcat (archive_path, ":maps/small.tnt", NULL);
  g_autoptr(GFile) member_file = g_file_new_for_path (member_path);
  g_autoptr(GBytes) tnt = build_tnt (40);
  g_autoptr(GBytes) other = build_tnt (7);
  g_autoptr(GBytes) ota = g_bytes_new_static (small_ota, strlen (small_ota));
  g_autoptr(GBytes) sound = g_bytes_new_static ("RIFF\0\0\0\0WAVEfmt ", 16);
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) expected = NULL;
  g_autoptr(GBytes) again = NULL;
  g_autoptr(GBytes) broken = NULL;
  g_autoptr(GBytes) backup = NULL;
  g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
  g_autoptr(TerrainHpiArchive) saved = NULL;
  TerrainEditorWindow *window;
  TerrainCommandStack *stack;

  terrain_hpi_writer_set_key (writer, 0x7d);
  g_assert_true (terrain_hpi_writer_add_file (writer, "maps/small.tnt", tnt, TERRAIN_HPI_COMPRESSION_ZLIB, &error));
  g_assert_true (terrain_hpi_writer_add_file (writer, "maps/SMALL.OTA", ota, TERRAIN_HPI_COMPRESSION_LZ77, &error));
  g_assert_true (terrain_hpi_writer_add_file (writer, "maps/other.tnt", other, TERRAIN_HPI_COMPRESSION_LZ77, &error));
  g_assert_true (terrain_hpi_writer_add_file (writer, "sounds/boom.wav", sound, TERRAIN_HPI_COMPRESSION_NONE, &error));
  g_assert_no_error (error);
  original = terrain_hpi_writer_to_bytes (writer, &error);
  g_assert_no_error (error);
  terrain_test_write_bytes (archive_path, original);

  window = open_and_wait (member_file);
  stack = terrain_editor_window_get_command_stack (window);
  g_assert_nonnull (terrain_editor_map_view_get_ota (map_view (window)));
  g_assert_null (terrain_document_get_file (terrain_editor_window_get_document (window)));

  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "sea-level");
  gtk_adjustment_set_value (sea (window), 100);
  g_assert_cmpstr (title (window), ==, "• small.tnt");

  /* Save (Ctrl+S): into the archive, not a file chooser. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  g_assert_null (terrain_editor_window_get_error_message (window));
  g_assert_true (terrain_command_stack_get_clean (stack));
  g_assert_cmpstr (title (window), ==, "small.tnt");
  g_assert_true (g_file_equal (terrain_editor_window_get_file (window), member_file));
  g_assert_nonnull (strstr (info (window), "mymaps.hpi.bak"));

  saved = read_archive (archive_path);
  g_assert_cmpuint (terrain_hpi_archive_get_n_files (saved), ==, 4);
  g_assert_cmpuint (terrain_hpi_archive_get_key (saved), ==, 0x7d);
  expected = with_sea_level (tnt, 100);
  assert_member (saved, "maps/small.tnt", expected, TERRAIN_HPI_COMPRESSION_ZLIB);
  /* The description unedited, byte for byte, under the archive's spelling. */
  assert_member (saved, "maps/SMALL.OTA", ota, TERRAIN_HPI_COMPRESSION_LZ77);
  assert_member (saved, "maps/other.tnt", other, TERRAIN_HPI_COMPRESSION_LZ77);
  assert_member (saved, "sounds/boom.wav", sound, TERRAIN_HPI_COMPRESSION_NONE);
  backup = terrain_test_read_bytes (backup_path);
  terrain_test_assert_bytes_equal (original, backup);
  g_clear_object (&saved);

  /* An archive that cannot be read any more: nothing is written, the
   * window says why, and the edit stays unsaved. */
  gtk_adjustment_set_value (sea (window), 120);
  g_assert_cmpstr (title (window), ==, "• small.tnt");
  broken = g_bytes_new_static ("not an archive", 14);
  terrain_test_write_bytes (archive_path, broken);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  g_assert_nonnull (terrain_editor_window_get_error_message (window));
  g_assert_nonnull (strstr (terrain_editor_window_get_error_message (window), "mymaps.hpi"));
  g_assert_false (terrain_command_stack_get_clean (stack));
  g_assert_cmpstr (title (window), ==, "• small.tnt");
  again = terrain_test_read_bytes (archive_path);
  terrain_test_assert_bytes_equal (broken, again);
  g_clear_pointer (&backup, g_bytes_unref);
  backup = terrain_test_read_bytes (backup_path);
  terrain_test_assert_bytes_equal (original, backup);

  /* Closing without saving. */
  terrain_command_stack_mark_clean (stack);
  close_window (window);
  terrain_test_remove_tree (dir);
}

/* Save into Archive: a loose map and its description into a new .ufo;
 * the window then names the map inside it, and Save goes there. */
static void
test_save_into_new (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = terrain_test_make_tmp_dir ("test-editor-archive-XXXXXX");
  g_autofree char *map_path = g_build_filename (dir, "ban.tnt", NULL);
  g_autofree char *ota_path = g_build_filename (dir, "ban.ota", NULL);
  g_autofree char *ufo_path = g_build_filename (dir, "ban.ufo", NULL);
  g_autofree char *ufo_backup_path = g_build_filename (dir, "ban.ufo.bak", NULL);
  g_autofree char *member_path = g_strconcat (ufo_path, ":maps/ban.tnt", NULL);
  g_autofree char *palette = terrain_test_corpus_path ("ta/PALETTE.PAL");
  g_autoptr(GFile) map_file = g_file_new_for_path (map_path);
  g_autoptr(GFile) ufo_file = g_file_new_for_path (ufo_path);
  g_autoptr(GFile) member_file = g_file_new_for_path (member_path);
  g_autofree char *ufo_uri = g_file_get_uri (ufo_file);
  g_autofree char *corpus_tnt = terrain_test_corpus_path ("ta/maps/ban.tnt");
  g_autofree char *corpus_ota = terrain_test_corpus_path ("ta/maps/ban.ota");
  g_autoptr(GBytes) tnt = NULL;
  g_autoptr(GBytes) ota = NULL;
  g_autoptr(GBytes) expected = NULL;
  g_autoptr(GBytes) expected_again = NULL;
  g_autoptr(GBytes) loose = NULL;
  g_autoptr(GBytes) first = NULL;
  g_autoptr(GBytes) backup = NULL;
  g_autoptr(TerrainHpiArchive) saved = NULL;
  g_autofree char *subtitle = NULL;
  TerrainEditorWindow *window;
  TerrainCommandStack *stack;

  /* The corpus's ban.tnt with the game's palette when the corpus has
   * them, for the screenshot; else a map made here. */
  if (corpus_tnt != NULL && corpus_ota != NULL)
    {
      tnt = terrain_test_read_bytes (corpus_tnt);
      ota = terrain_test_read_bytes (corpus_ota);
    }
  else
    {
      tnt = build_tnt (40);
      ota = g_bytes_new_static (small_ota, strlen (small_ota));
    }
  if (palette != NULL)
    g_settings_set_string (terrain_editor_application_get_settings (app), "palette-path", palette);
  terrain_test_write_bytes (map_path, tnt);
  terrain_test_write_bytes (ota_path, ota);

  window = open_and_wait (map_file);
  stack = terrain_editor_window_get_command_stack (window);
  g_assert_nonnull (terrain_editor_map_view_get_ota (map_view (window)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "sea-level"));
  gtk_adjustment_set_value (sea (window), 90);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.save-into-archive", "s", ufo_uri));
  g_assert_null (terrain_editor_window_get_error_message (window));
  g_assert_true (terrain_command_stack_get_clean (stack));
  g_assert_true (g_file_equal (terrain_editor_window_get_file (window), member_file));
  g_assert_cmpstr (title (window), ==, "ban.tnt");
  subtitle = g_strdup (gtk_label_get_text (GTK_LABEL (child (window, "subtitle_label"))));
  g_assert_nonnull (strstr (subtitle, "ban.ufo"));
  g_assert_nonnull (strstr (info (window), "new archive"));
  g_assert_false (g_file_test (ufo_backup_path, G_FILE_TEST_EXISTS));
  /* The loose map is left as it was. */
  loose = terrain_test_read_bytes (map_path);
  terrain_test_assert_bytes_equal (tnt, loose);

  saved = read_archive (ufo_path);
  g_assert_cmpuint (terrain_hpi_archive_get_n_files (saved), ==, 2);
  expected = with_sea_level (tnt, 90);
  assert_member (saved, "maps/ban.tnt", expected, TERRAIN_HPI_COMPRESSION_ZLIB);
  assert_member (saved, "maps/ban.ota", ota, TERRAIN_HPI_COMPRESSION_ZLIB);
  g_clear_object (&saved);
  /* The picture is redrawn for the new sea level: let it finish. */
  iterate (g_getenv ("TERRAIN_EDITOR_SCREENSHOT_DIR") != NULL ? 3000 : 100);
  save_screenshot (GTK_WIDGET (window), "editor-saved-into-ufo.png");

  /* Save now goes into the archive, keeping it as it was as the backup. */
  first = terrain_test_read_bytes (ufo_path);
  gtk_adjustment_set_value (sea (window), 95);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  g_assert_null (terrain_editor_window_get_error_message (window));
  g_assert_true (terrain_command_stack_get_clean (stack));
  saved = read_archive (ufo_path);
  g_assert_cmpuint (terrain_hpi_archive_get_n_files (saved), ==, 2);
  expected_again = with_sea_level (tnt, 95);
  assert_member (saved, "maps/ban.tnt", expected_again, TERRAIN_HPI_COMPRESSION_ZLIB);
  backup = terrain_test_read_bytes (ufo_backup_path);
  terrain_test_assert_bytes_equal (first, backup);

  close_window (window);
  g_settings_reset (terrain_editor_application_get_settings (app), "palette-path");
  terrain_test_remove_tree (dir);
}

/* Closing with unsaved changes and choosing Save: a map inside an archive
 * whose description was edited on the Map page is saved back into the
 * archive, description and all, and the window closes. */
static void
test_close_save (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = terrain_test_make_tmp_dir ("test-editor-archive-XXXXXX");
  g_autofree char *archive_path = g_build_filename (dir, "small.ufo", NULL);
  g_autofree char *backup_path = g_build_filename (dir, "small.ufo.bak", NULL);
  g_autofree char *member_path = g_strconcat (archive_path, ":maps/small.tnt", NULL);
  g_autoptr(GFile) member_file = g_file_new_for_path (member_path);
  g_autoptr(GBytes) tnt = build_tnt (40);
  g_autoptr(GBytes) ota = g_bytes_new_static (small_ota, strlen (small_ota));
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) backup = NULL;
  g_autoptr(GBytes) expected_ota = NULL;
  g_autoptr(TerrainOtaFile) reference = NULL;
  g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
  g_autoptr(TerrainHpiArchive) saved = NULL;
  TerrainEditorWindow *window;
  TerrainEditorOtaPanel *panel;
  GtkWindow *dialog;
  GWeakRef ref;

  g_assert_true (terrain_hpi_writer_add_file (writer, "maps/small.tnt", tnt, TERRAIN_HPI_COMPRESSION_LZ77, &error));
  g_assert_true (terrain_hpi_writer_add_file (writer, "maps/small.ota", ota, TERRAIN_HPI_COMPRESSION_ZLIB, &error));
  g_assert_no_error (error);
  original = terrain_hpi_writer_to_bytes (writer, &error);
  g_assert_no_error (error);
  terrain_test_write_bytes (archive_path, original);

  window = open_and_wait (member_file);
  panel = TERRAIN_EDITOR_OTA_PANEL (find_named (GTK_WIDGET (window), "ota-panel"));
  g_assert_nonnull (panel);
  gtk_editable_set_text (GTK_EDITABLE (terrain_editor_ota_panel_get_field (panel, "missionname")), "Small 2");
  g_assert_cmpstr (title (window), ==, "• small.tnt");

  g_weak_ref_init (&ref, window);
  gtk_window_close (GTK_WINDOW (window));
  iterate (100);
  dialog = find_transient_of_type (GTK_WINDOW (window), GTK_TYPE_MESSAGE_DIALOG);
  g_assert_nonnull (dialog);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  assert_finalized (&ref);

  reference = terrain_ota_file_new_from_bytes (ota, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (terrain_ota_file_set_header_value (reference, "missionname", "Small 2", &error));
  expected_ota = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (reference), &error);
  g_assert_no_error (error);
  saved = read_archive (archive_path);
  g_assert_cmpuint (terrain_hpi_archive_get_n_files (saved), ==, 2);
  assert_member (saved, "maps/small.tnt", tnt, TERRAIN_HPI_COMPRESSION_LZ77);
  assert_member (saved, "maps/small.ota", expected_ota, TERRAIN_HPI_COMPRESSION_ZLIB);
  backup = terrain_test_read_bytes (backup_path);
  terrain_test_assert_bytes_equal (original, backup);
  terrain_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  int status;

  editor_test_init (&argc, &argv);

  g_test_add_func ("/Terrain/Editor/archive/save-back", test_save_back);
  g_test_add_func ("/Terrain/Editor/archive/save-into-new", test_save_into_new);
  g_test_add_func ("/Terrain/Editor/archive/close-save", test_close_save);
  status = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);
  return status;
}
