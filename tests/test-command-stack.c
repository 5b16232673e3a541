/* test-command-stack.c: undo history, user actions, merging, clean state
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The commands here are a test subclass that adds to a map's sea level, so
 * the stack's handling of TerrainDocument:modified is exercised on a real
 * document without depending on any TNT edit command.
 */

#include "config.h"

#include <glib/gstdio.h>

#include "libterrain.h"

/* ------------------------------------------------------------------------ */
/* A test command: sea level += delta                                       */

#define TEST_TYPE_COMMAND (test_command_get_type ())
G_DECLARE_FINAL_TYPE (TestCommand, test_command, TEST, COMMAND, TerrainCommand)

struct _TestCommand
{
  TerrainCommand parent_instance;

  int delta;
  guint merge_key;     /* 0: never merges */
  gboolean fail;       /* apply fails */
  guint n_apply;
  guint n_revert;
};

G_DEFINE_FINAL_TYPE (TestCommand, test_command, TERRAIN_TYPE_COMMAND)

static TerrainTntMap *
command_map (TerrainCommand *command)
{
  return TERRAIN_TNT_MAP (terrain_command_get_document (command));
}

/* The test commands add to a counter kept on the map, which can exceed
 * any sea level; the sea level follows it modulo 256, so that every command
 * edits the map. */
static guint32
counter_get (TerrainTntMap *map)
{
  return GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (map), "test-counter"));
}

static void
counter_set (TerrainTntMap *map,
             guint32        value)
{
  g_object_set_data (G_OBJECT (map), "test-counter", GUINT_TO_POINTER (value));
  terrain_tnt_map_set_sea_level (map, value % (TERRAIN_TNT_MAX_SEA_LEVEL + 1), NULL);
}

static void
counter_add (TerrainTntMap *map,
             int            delta)
{
  counter_set (map, counter_get (map) + (guint32) delta);
}

static gboolean
test_command_apply (TerrainCommand  *command,
                    GError         **error)
{
  TestCommand *self = TEST_COMMAND (command);
  TerrainTntMap *map = command_map (command);

  if (self->fail)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE, "test command fails");
      return FALSE;
    }
  self->n_apply++;
  counter_add (map, self->delta);
  return TRUE;
}

static void
test_command_revert (TerrainCommand *command)
{
  TestCommand *self = TEST_COMMAND (command);
  TerrainTntMap *map = command_map (command);

  self->n_revert++;
  counter_add (map, -self->delta);
}

static gboolean
test_command_merge (TerrainCommand *command,
                    TerrainCommand *next)
{
  TestCommand *self = TEST_COMMAND (command);
  TestCommand *other;

  if (!TEST_IS_COMMAND (next))
    return FALSE;
  other = TEST_COMMAND (next);
  if (self->merge_key == 0 || self->merge_key != other->merge_key)
    return FALSE;
  self->delta += other->delta;
  return TRUE;
}

static void
test_command_class_init (TestCommandClass *klass)
{
  TerrainCommandClass *command_class = TERRAIN_COMMAND_CLASS (klass);

  command_class->apply = test_command_apply;
  command_class->revert = test_command_revert;
  command_class->merge = test_command_merge;
}

static void
test_command_init (TestCommand *self)
{
}

static TerrainCommand *
test_command_new (TerrainTntMap *map,
                  int            delta,
                  guint          merge_key)
{
  g_autofree char *description = g_strdup_printf ("Add %d", delta);
  TestCommand *self = g_object_new (TEST_TYPE_COMMAND,
                                    "document", map,
                                    "description", description,
                                    NULL);

  self->delta = delta;
  self->merge_key = merge_key;
  return TERRAIN_COMMAND (self);
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static TerrainTntMap *
new_map (void)
{
  g_autoptr(GError) error = NULL;
  TerrainTntMap *map = terrain_tnt_map_new (4, 4, &error);

  g_assert_no_error (error);
  g_assert_nonnull (map);
  counter_set (map, 100);
  terrain_document_set_modified (TERRAIN_DOCUMENT (map), FALSE);
  return map;
}

static void
execute (TerrainCommandStack *stack,
         TerrainCommand      *command)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainCommand) owned = command;

  g_assert_true (terrain_command_stack_execute (stack, owned, &error));
  g_assert_no_error (error);
}

static guint32
sea (TerrainTntMap *map)
{
  g_assert_cmpuint (terrain_tnt_map_get_sea_level (map), ==,
                    counter_get (map) % (TERRAIN_TNT_MAX_SEA_LEVEL + 1));
  return counter_get (map);
}

static gboolean
modified (TerrainTntMap *map)
{
  return terrain_document_get_modified (TERRAIN_DOCUMENT (map));
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *counter)
{
  (*counter)++;
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */

static void
test_undo_redo (void)
{
  g_autoptr(TerrainTntMap) map = new_map ();
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(GError) error = NULL;

  g_assert_true (terrain_command_stack_get_document (stack) == TERRAIN_DOCUMENT (map));
  g_assert_false (terrain_command_stack_get_can_undo (stack));
  g_assert_false (terrain_command_stack_get_can_redo (stack));
  g_assert_null (terrain_command_stack_get_undo_description (stack));
  g_assert_false (terrain_command_stack_undo (stack));
  g_assert_false (terrain_command_stack_redo (stack, &error));
  g_assert_no_error (error);

  execute (stack, test_command_new (map, 1, 0));
  execute (stack, test_command_new (map, 10, 0));
  execute (stack, test_command_new (map, 100, 0));
  g_assert_cmpuint (sea (map), ==, 211);
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 3);
  g_assert_cmpstr (terrain_command_stack_get_undo_description (stack), ==, "Add 100");
  g_assert_true (terrain_command_get_applied (terrain_command_stack_peek_undo (stack)));

  g_assert_true (terrain_command_stack_undo (stack));
  g_assert_true (terrain_command_stack_undo (stack));
  g_assert_cmpuint (sea (map), ==, 101);
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 1);
  g_assert_cmpuint (terrain_command_stack_get_redo_depth (stack), ==, 2);
  g_assert_cmpstr (terrain_command_stack_get_redo_description (stack), ==, "Add 10");
  g_assert_true (terrain_command_stack_get_can_redo (stack));

  g_assert_true (terrain_command_stack_redo (stack, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sea (map), ==, 111);
  g_assert_cmpstr (terrain_command_stack_get_redo_description (stack), ==, "Add 100");

  /* A new command drops what could have been redone. */
  execute (stack, test_command_new (map, 1000, 0));
  g_assert_cmpuint (sea (map), ==, 1111);
  g_assert_false (terrain_command_stack_get_can_redo (stack));
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 3);

  while (terrain_command_stack_undo (stack))
    ;
  g_assert_cmpuint (sea (map), ==, 100);
  g_assert_cmpuint (terrain_command_stack_get_redo_depth (stack), ==, 3);
}

static void
test_notifications (void)
{
  g_autoptr(TerrainTntMap) map = new_map ();
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  guint can_undo = 0, can_redo = 0, clean = 0, undo_description = 0;
  gboolean value = FALSE;

  g_signal_connect (stack, "notify::can-undo", G_CALLBACK (count_notify), &can_undo);
  g_signal_connect (stack, "notify::can-redo", G_CALLBACK (count_notify), &can_redo);
  g_signal_connect (stack, "notify::clean", G_CALLBACK (count_notify), &clean);
  g_signal_connect (stack, "notify::undo-description", G_CALLBACK (count_notify),
                    &undo_description);

  execute (stack, test_command_new (map, 1, 0));
  g_assert_cmpuint (can_undo, ==, 1);
  g_assert_cmpuint (clean, ==, 1);
  g_assert_cmpuint (undo_description, ==, 1);

  execute (stack, test_command_new (map, 2, 0));
  g_assert_cmpuint (can_undo, ==, 1);   /* still TRUE: no notification */
  g_assert_cmpuint (clean, ==, 1);
  g_assert_cmpuint (undo_description, ==, 2);

  terrain_command_stack_undo (stack);
  g_assert_cmpuint (can_redo, ==, 1);
  terrain_command_stack_undo (stack);
  g_assert_cmpuint (can_undo, ==, 2);
  g_assert_cmpuint (clean, ==, 2);      /* back at the loaded state */

  g_object_get (stack, "clean", &value, NULL);
  g_assert_true (value);
  g_object_get (stack, "can-redo", &value, NULL);
  g_assert_true (value);
}

static void
test_user_action (void)
{
  g_autoptr(TerrainTntMap) map = new_map ();
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(GError) error = NULL;

  terrain_command_stack_begin_user_action (stack, "Three edits");
  g_assert_true (terrain_command_stack_get_in_user_action (stack));
  execute (stack, test_command_new (map, 1, 0));
  /* Nested actions fold into the outermost one. */
  terrain_command_stack_begin_user_action (stack, "ignored");
  execute (stack, test_command_new (map, 2, 0));
  terrain_command_stack_end_user_action (stack);
  g_assert_false (terrain_command_stack_get_can_undo (stack));   /* still open */
  g_assert_false (terrain_command_stack_get_clean (stack));
  execute (stack, test_command_new (map, 4, 0));
  terrain_command_stack_end_user_action (stack);

  g_assert_false (terrain_command_stack_get_in_user_action (stack));
  g_assert_cmpuint (sea (map), ==, 107);
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 1);
  g_assert_cmpstr (terrain_command_stack_get_undo_description (stack), ==, "Three edits");

  g_assert_true (terrain_command_stack_undo (stack));
  g_assert_cmpuint (sea (map), ==, 100);
  g_assert_true (terrain_command_stack_redo (stack, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sea (map), ==, 107);

  /* An empty action leaves no step; a one-command action stays itself. */
  terrain_command_stack_begin_user_action (stack, NULL);
  terrain_command_stack_end_user_action (stack);
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 1);

  terrain_command_stack_begin_user_action (stack, NULL);
  execute (stack, test_command_new (map, 8, 0));
  terrain_command_stack_end_user_action (stack);
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 2);
  g_assert_true (TEST_IS_COMMAND (terrain_command_stack_peek_undo (stack)));

  /* Without a description, the action takes its first command's. */
  terrain_command_stack_begin_user_action (stack, NULL);
  execute (stack, test_command_new (map, 16, 0));
  execute (stack, test_command_new (map, 32, 0));
  terrain_command_stack_end_user_action (stack);
  g_assert_cmpstr (terrain_command_stack_get_undo_description (stack), ==, "Add 16");
  g_assert_cmpuint (sea (map), ==, 163);
  terrain_command_stack_undo (stack);
  g_assert_cmpuint (sea (map), ==, 115);
}

static void
test_merge (void)
{
  g_autoptr(TerrainTntMap) map = new_map ();
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));

  /* Three dabs of stroke 7 merge into one step. */
  execute (stack, test_command_new (map, 1, 7));
  execute (stack, test_command_new (map, 2, 7));
  execute (stack, test_command_new (map, 4, 7));
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 1);
  g_assert_cmpint (TEST_COMMAND (terrain_command_stack_peek_undo (stack))->delta, ==, 7);

  /* Another stroke does not. */
  execute (stack, test_command_new (map, 8, 8));
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 2);

  /* Sealing ends a run. */
  terrain_command_stack_seal (stack);
  execute (stack, test_command_new (map, 16, 8));
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 3);

  /* Undo seals too: a new dab does not merge into an older step. */
  terrain_command_stack_undo (stack);
  execute (stack, test_command_new (map, 32, 8));
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 3);
  g_assert_cmpuint (sea (map), ==, 100 + 7 + 8 + 32);

  /* Nor across the saved point. */
  terrain_command_stack_mark_clean (stack);
  execute (stack, test_command_new (map, 64, 8));
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 4);
  terrain_command_stack_undo (stack);
  g_assert_true (terrain_command_stack_get_clean (stack));

  /* Inside a user action, dabs merge with one another. */
  terrain_command_stack_begin_user_action (stack, "Stroke");
  execute (stack, test_command_new (map, 1, 9));
  execute (stack, test_command_new (map, 1, 9));
  execute (stack, test_command_new (map, 1, 0));
  terrain_command_stack_end_user_action (stack);
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 4);
  terrain_command_stack_undo (stack);
  g_assert_cmpuint (sea (map), ==, 100 + 7 + 8 + 32);

  /* Full undo gets back to the start exactly. */
  while (terrain_command_stack_undo (stack))
    ;
  g_assert_cmpuint (sea (map), ==, 100);
}

static void
test_clean_state (void)
{
  g_autoptr(TerrainTntMap) map = new_map ();
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("terrain-stack-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "map.tnt", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  g_assert_no_error (error);
  g_assert_true (terrain_command_stack_get_clean (stack));
  g_assert_false (modified (map));

  execute (stack, test_command_new (map, 1, 0));
  g_assert_false (terrain_command_stack_get_clean (stack));
  g_assert_true (modified (map));

  /* Undo back to the loaded state: clean and unmodified again. */
  terrain_command_stack_undo (stack);
  g_assert_true (terrain_command_stack_get_clean (stack));
  g_assert_false (modified (map));
  g_assert_true (terrain_command_stack_redo (stack, NULL));
  g_assert_true (modified (map));

  execute (stack, test_command_new (map, 2, 0));
  /* Saving marks the clean point through TerrainDocument:modified. */
  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (map), file, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (terrain_command_stack_get_clean (stack));
  g_assert_false (modified (map));

  execute (stack, test_command_new (map, 4, 0));
  g_assert_true (modified (map));
  terrain_command_stack_undo (stack);
  g_assert_true (terrain_command_stack_get_clean (stack));
  g_assert_false (modified (map));
  terrain_command_stack_undo (stack);
  terrain_command_stack_undo (stack);
  g_assert_false (terrain_command_stack_get_clean (stack));
  g_assert_true (modified (map));
  g_assert_true (terrain_command_stack_redo (stack, NULL));
  g_assert_true (terrain_command_stack_redo (stack, NULL));
  g_assert_true (terrain_command_stack_get_clean (stack));
  g_assert_false (modified (map));
  g_assert_cmpuint (sea (map), ==, 103);

  /* Branching off before the saved point makes it unreachable. */
  terrain_command_stack_undo (stack);
  execute (stack, test_command_new (map, 8, 0));
  while (terrain_command_stack_undo (stack))
    {
      g_assert_false (terrain_command_stack_get_clean (stack));
      g_assert_true (modified (map));
    }
  while (terrain_command_stack_redo (stack, NULL))
    g_assert_false (terrain_command_stack_get_clean (stack));

  /* An edit behind the stack's back is never clean until saved. */
  terrain_command_stack_mark_clean (stack);
  g_assert_false (modified (map));
  counter_set (map, 5);
  g_assert_true (modified (map));
  g_assert_false (terrain_command_stack_get_clean (stack));
  execute (stack, test_command_new (map, 1, 0));
  terrain_command_stack_undo (stack);
  g_assert_false (terrain_command_stack_get_clean (stack));
  g_assert_true (modified (map));

  /* Saving inside an open user action: clean once the action closes, as
   * long as nothing else is executed in it. */
  terrain_command_stack_begin_user_action (stack, NULL);
  execute (stack, test_command_new (map, 1, 0));
  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (map), file, NULL, &error));
  terrain_command_stack_end_user_action (stack);
  g_assert_true (terrain_command_stack_get_clean (stack));
  terrain_command_stack_begin_user_action (stack, NULL);
  execute (stack, test_command_new (map, 1, 0));
  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (map), file, NULL, &error));
  execute (stack, test_command_new (map, 1, 0));
  terrain_command_stack_end_user_action (stack);
  g_assert_false (terrain_command_stack_get_clean (stack));
  g_assert_true (modified (map));

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_failure (void)
{
  g_autoptr(TerrainTntMap) map = new_map ();
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  g_autoptr(TerrainCommand) bad = test_command_new (map, 5, 0);
  g_autoptr(GError) error = NULL;

  execute (stack, test_command_new (map, 1, 0));
  terrain_command_stack_undo (stack);

  TEST_COMMAND (bad)->fail = TRUE;
  g_assert_false (terrain_command_stack_execute (stack, bad, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  g_assert_false (terrain_command_get_applied (bad));
  /* Nothing changed: the redo step survives, the document is clean. */
  g_assert_cmpuint (sea (map), ==, 100);
  g_assert_cmpuint (terrain_command_stack_get_redo_depth (stack), ==, 1);
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 0);
  g_assert_true (terrain_command_stack_get_clean (stack));

  /* A group whose redo fails half-way is rolled back and stays redoable. */
  TEST_COMMAND (bad)->fail = FALSE;
  terrain_command_stack_begin_user_action (stack, "Pair");
  execute (stack, test_command_new (map, 1, 0));
  execute (stack, g_object_ref (bad));
  TEST_COMMAND (bad)->fail = TRUE;
  execute (stack, test_command_new (map, 2, 0));
  terrain_command_stack_end_user_action (stack);
  g_assert_cmpuint (sea (map), ==, 108);
  terrain_command_stack_undo (stack);
  g_assert_cmpuint (sea (map), ==, 100);
  g_assert_false (terrain_command_stack_redo (stack, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_cmpuint (sea (map), ==, 100);
  g_assert_cmpuint (terrain_command_stack_get_redo_depth (stack), ==, 1);
  TEST_COMMAND (bad)->fail = FALSE;
  g_clear_error (&error);
  g_assert_true (terrain_command_stack_redo (stack, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sea (map), ==, 108);
}

static void
test_max_depth (void)
{
  g_autoptr(TerrainTntMap) map = new_map ();
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));

  terrain_command_stack_set_max_depth (stack, 2);
  g_assert_cmpuint (terrain_command_stack_get_max_depth (stack), ==, 2);
  for (int i = 0; i < 5; i++)
    execute (stack, test_command_new (map, 1, 0));
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, 2);
  while (terrain_command_stack_undo (stack))
    ;
  g_assert_cmpuint (sea (map), ==, 103);
  /* The loaded state was dropped from the history: never clean again. */
  g_assert_false (terrain_command_stack_get_clean (stack));
  g_assert_true (modified (map));

  terrain_command_stack_clear (stack);
  g_assert_false (terrain_command_stack_get_can_undo (stack));
  g_assert_false (terrain_command_stack_get_can_redo (stack));
}

static void
test_without_document (void)
{
  g_autoptr(TerrainTntMap) map = new_map ();
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (NULL);

  execute (stack, test_command_new (map, 3, 0));
  g_assert_false (terrain_command_stack_get_clean (stack));
  terrain_command_stack_mark_clean (stack);
  g_assert_true (terrain_command_stack_get_clean (stack));
  terrain_command_stack_undo (stack);
  g_assert_false (terrain_command_stack_get_clean (stack));
  g_assert_cmpuint (sea (map), ==, 100);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/CommandStack/undo-redo", test_undo_redo);
  g_test_add_func ("/Terrain/CommandStack/notifications", test_notifications);
  g_test_add_func ("/Terrain/CommandStack/user-action", test_user_action);
  g_test_add_func ("/Terrain/CommandStack/merge", test_merge);
  g_test_add_func ("/Terrain/CommandStack/clean-state", test_clean_state);
  g_test_add_func ("/Terrain/CommandStack/failure", test_failure);
  g_test_add_func ("/Terrain/CommandStack/max-depth", test_max_depth);
  g_test_add_func ("/Terrain/CommandStack/without-document", test_without_document);

  return g_test_run ();
}
