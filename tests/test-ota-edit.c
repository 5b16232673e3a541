/* test-ota-edit.c: undoable edits of a map description (TerrainOtaEdit)
 *
 * Each edit is run on the command stack of a map, as the editor does;
 * undo must give back the source bytes, redo the edited ones, and the
 * saved text must differ from the source only in the edited values.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <libterrain.h>
#include <string.h>

#include "terrain-test-util.h"

/* An OTA laid out like the corpus's (CRLF, four-space indents), with one
 * schema holding two start positions and one without [specials]. */
static const char ota_text[] =
  "[GlobalHeader]\r\n"
  "    {\r\n"
  "    missionname=Small;\r\n"
  "    missiondescription=A test map;\r\n"
  "    planet=Green Planet;\r\n"
  "    tidalstrength=15;\r\n"
  "    minwindspeed=2500;\r\n"
  "    maxwindspeed=3500;\r\n"
  "    gravity=112;\r\n"
  "    numplayers=2;\r\n"
  "    SCHEMACOUNT=2;\r\n"
  "    [Schema 0]\r\n"
  "        {\r\n"
  "        Type=Network 1;\r\n"
  "        SurfaceMetal=3;\r\n"
  "        [specials]\r\n"
  "            {\r\n"
  "            [special0]\r\n"
  "                {\r\n"
  "                specialwhat=StartPos1;\r\n"
  "                XPos=100;\r\n"
  "                ZPos=200;\r\n"
  "                }\r\n"
  "            [special1]\r\n"
  "                {\r\n"
  "                specialwhat=StartPos2;\r\n"
  "                XPos=900;\r\n"
  "                ZPos=800;\r\n"
  "                }\r\n"
  "            }\r\n"
  "        }\r\n"
  "    [Schema 1]\r\n"
  "        {\r\n"
  "        Type=Easy;\r\n"
  "        }\r\n"
  "    }\r\n";

static TerrainOtaFile *
parse (const char *text)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));
  g_autoptr(GError) error = NULL;
  TerrainOtaFile *ota = terrain_ota_file_new_from_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (ota);
  return ota;
}

static GBytes *
save (TerrainOtaFile *ota)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ota), &error);

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  return bytes;
}

/* A map for the stack: the OTA's edits go on the map's history. */
static TerrainTntMap *
small_map (void)
{
  g_autoptr(GError) error = NULL;
  TerrainTntMap *map = terrain_tnt_map_new (16, 16, &error);

  g_assert_no_error (error);
  return map;
}

static void
run (TerrainCommandStack *stack,
     TerrainCommand      *command)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (terrain_command_stack_execute (stack, command, &error));
  g_assert_no_error (error);
  g_object_unref (command);
}

static void
test_set_value (void)
{
  g_autoptr(TerrainOtaFile) ota = parse (ota_text);
  g_autoptr(TerrainTntMap) map = small_map ();
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(GBytes) source = save (ota);
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;
  g_autoptr(GString) expected = g_string_new (ota_text);
  TerrainCommand *command;

  command = terrain_ota_edit_new_set_value (ota, NULL, "missionname", "Big");
  g_assert_null (terrain_command_get_document (command));
  g_assert_true (terrain_ota_edit_get_ota (TERRAIN_OTA_EDIT (command)) == ota);
  run (stack, command);
  /* Typing a name: each keystroke merges into one step. */
  run (stack, terrain_ota_edit_new_set_value (ota, NULL, "missionname", "Bigger"));
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 1);
  run (stack, terrain_ota_edit_new_set_value (ota, "GlobalHeader/Schema 0", "SurfaceMetal", "5"));
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 2);
  g_assert_cmpstr (terrain_ota_file_get_mission_name (ota), ==, "Bigger");
  g_assert_true (terrain_document_get_modified (TERRAIN_DOCUMENT (ota)));
  g_assert_false (terrain_command_stack_get_clean (stack));

  /* Only the two values change. */
  edited = save (ota);
  g_string_replace (expected, "missionname=Small;", "missionname=Bigger;", 1);
  g_string_replace (expected, "SurfaceMetal=3;", "SurfaceMetal=5;", 1);
  g_assert_cmpmem (g_bytes_get_data (edited, NULL), g_bytes_get_size (edited),
                   expected->str, expected->len);

  g_assert_true (terrain_command_stack_undo (stack));
  g_assert_true (terrain_command_stack_undo (stack));
  undone = save (ota);
  terrain_test_assert_bytes_equal (source, undone);
  g_assert_cmpstr (terrain_ota_file_get_mission_name (ota), ==, "Small");
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (ota)));
  g_assert_true (terrain_command_stack_get_clean (stack));

  g_assert_true (terrain_command_stack_redo (stack, NULL));
  g_assert_true (terrain_command_stack_redo (stack, NULL));
  redone = save (ota);
  terrain_test_assert_bytes_equal (edited, redone);
}

static void
test_new_key (void)
{
  g_autoptr(TerrainOtaFile) ota = parse (ota_text);
  g_autoptr(TerrainTntMap) map = small_map ();
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(GBytes) source = save (ota);
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainCommand) bad = NULL;

  run (stack, terrain_ota_edit_new_set_value (ota, NULL, "solarstrength", "20"));
  g_assert_cmpstr (terrain_ota_file_get_header_value (ota, "solarstrength"), ==, "20");
  g_assert_true (terrain_command_stack_undo (stack));
  g_assert_null (terrain_ota_file_get_header_value (ota, "solarstrength"));
  undone = save (ota);
  terrain_test_assert_bytes_equal (source, undone);

  /* A block the file lacks, and a value that cannot be written. */
  bad = terrain_ota_edit_new_set_value (ota, "GlobalHeader/Schema 7", "Type", "Easy");
  g_assert_false (terrain_command_stack_execute (stack, bad, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "Schema 7"));
  g_clear_error (&error);
  g_clear_object (&bad);
  bad = terrain_ota_edit_new_set_value (ota, NULL, "missionname", "a;b");
  g_assert_false (terrain_command_stack_execute (stack, bad, &error));
  g_assert_nonnull (error);
  g_assert_cmpstr (terrain_ota_file_get_mission_name (ota), ==, "Small");
}

static void
test_start_position (void)
{
  g_autoptr(TerrainOtaFile) ota = parse (ota_text);
  g_autoptr(TerrainTntMap) map = small_map ();
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(GBytes) source = save (ota);
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainCommand) bad = NULL;
  gint x, z;

  /* A drag: one step, the last position. */
  terrain_command_stack_seal (stack);
  run (stack, terrain_ota_edit_new_set_start_position (ota, 0, 2, 910, 810));
  run (stack, terrain_ota_edit_new_set_start_position (ota, 0, 2, 950, 860));
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 1);
  g_assert_true (terrain_ota_file_get_start_position (ota, 0, 2, &x, &z));
  g_assert_cmpint (x, ==, 950);
  g_assert_cmpint (z, ==, 860);
  g_assert_cmpstr (terrain_command_stack_get_undo_description (stack), ==,
                   "Move start position 2 to 950, 860");
  terrain_command_stack_seal (stack);

  /* A new start position in a schema with [specials], and in one without. */
  run (stack, terrain_ota_edit_new_set_start_position (ota, 0, 3, 500, 500));
  terrain_command_stack_seal (stack);
  run (stack, terrain_ota_edit_new_set_start_position (ota, 1, 1, 64, 64));
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 3);
  g_assert_true (terrain_ota_file_get_start_position (ota, 0, 3, &x, &z));
  g_assert_true (terrain_ota_file_get_start_position (ota, 1, 1, &x, &z));
  g_assert_cmpint (x, ==, 64);
  edited = save (ota);

  for (guint i = 0; i < 3; i++)
    g_assert_true (terrain_command_stack_undo (stack));
  undone = save (ota);
  terrain_test_assert_bytes_equal (source, undone);
  g_assert_false (terrain_ota_file_get_start_position (ota, 0, 3, NULL, NULL));
  g_assert_false (terrain_ota_file_get_start_position (ota, 1, 1, NULL, NULL));
  g_assert_true (terrain_ota_file_get_start_position (ota, 0, 2, &x, &z));
  g_assert_cmpint (x, ==, 900);
  g_assert_cmpint (z, ==, 800);

  for (guint i = 0; i < 3; i++)
    g_assert_true (terrain_command_stack_redo (stack, NULL));
  redone = save (ota);
  terrain_test_assert_bytes_equal (edited, redone);

  /* Out of range: nothing changes. */
  bad = terrain_ota_edit_new_set_start_position (ota, 5, 1, 0, 0);
  g_assert_false (terrain_command_stack_execute (stack, bad, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
}

/* The corpus's ban.ota: a start position moved and moved back, and the
 * name edited and undone, write the file's bytes again. */
static void
test_corpus (void)
{
  g_autofree char *path = terrain_test_corpus_path ("ta/maps/ban.ota");
  g_autoptr(GFile) file = NULL;
  g_autoptr(TerrainOtaFile) ota = NULL;
  g_autoptr(TerrainTntMap) map = small_map ();
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(GBytes) source = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GError) error = NULL;
  gint x, z;

  g_assert_nonnull (path);
  file = g_file_new_for_path (path);
  ota = terrain_ota_file_new_from_file (file, NULL, NULL, &error);
  g_assert_no_error (error);
  source = terrain_test_read_bytes (path);
  g_assert_true (terrain_ota_file_get_start_position (ota, 0, 1, &x, &z));
  run (stack, terrain_ota_edit_new_set_start_position (ota, 0, 1, x + 160, z - 32));
  run (stack, terrain_ota_edit_new_set_value (ota, NULL, "missiondescription", "Edited"));
  edited = save (ota);
  g_assert_cmpuint (g_bytes_get_size (edited), ==, g_bytes_get_size (source) + strlen ("Edited")
                    - strlen ("16 x 21. W:+15-21, T:15. By Dioxide"));
  g_assert_true (terrain_command_stack_undo (stack));
  g_assert_true (terrain_command_stack_undo (stack));
  undone = save (ota);
  terrain_test_assert_bytes_equal (source, undone);
}

/* What an edit did, for the CLI's reports. */
static void
test_report (void)
{
  g_autoptr(TerrainOtaFile) ota = parse (ota_text);
  g_autoptr(TerrainTntMap) map = small_map ();
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autofree char *name = g_strdup (terrain_ota_file_get_mission_name (ota));
  g_autofree char *expected = g_strdup_printf ("missionname: %s -> Big", name);
  g_autoptr(TerrainCommand) set = terrain_ota_edit_new_set_value (ota, NULL, "missionname", "Big");
  g_autoptr(TerrainCommand) added = terrain_ota_edit_new_set_value (ota, "GlobalHeader/Schema 0",
                                                                    "NewKey", "1");
  g_autoptr(TerrainCommand) moved = terrain_ota_edit_new_set_start_position (ota, 0, 9, 1, 2);
  g_autoptr(TerrainCommand) again = terrain_ota_edit_new_set_start_position (ota, 0, 9, 3, 4);
  g_autoptr(GError) error = NULL;

  g_assert_null (terrain_ota_edit_get_report (TERRAIN_OTA_EDIT (set)));
  g_assert_true (terrain_command_stack_execute (stack, set, &error));
  g_assert_cmpstr (terrain_ota_edit_get_report (TERRAIN_OTA_EDIT (set)), ==, expected);
  g_assert_true (terrain_command_stack_execute (stack, added, &error));
  g_assert_cmpstr (terrain_ota_edit_get_report (TERRAIN_OTA_EDIT (added)), ==,
                   "GlobalHeader/Schema 0/NewKey: (new) -> 1");
  g_assert_true (terrain_command_stack_execute (stack, moved, &error));
  g_assert_cmpstr (terrain_ota_edit_get_report (TERRAIN_OTA_EDIT (moved)), ==,
                   "Schema 0 StartPos9: (new) -> 1,2");
  terrain_command_stack_seal (stack);
  g_assert_true (terrain_command_stack_execute (stack, again, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (terrain_ota_edit_get_report (TERRAIN_OTA_EDIT (again)), ==,
                   "Schema 0 StartPos9: 1,2 -> 3,4");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/OtaEdit/set-value", test_set_value);
  g_test_add_func ("/Terrain/OtaEdit/new-key", test_new_key);
  g_test_add_func ("/Terrain/OtaEdit/start-position", test_start_position);
  g_test_add_func ("/Terrain/OtaEdit/report", test_report);
  terrain_test_add_corpus_func ("/Terrain/OtaEdit/corpus", test_corpus);

  return g_test_run ();
}
