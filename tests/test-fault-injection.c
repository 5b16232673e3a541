/* test-fault-injection.c: saves that fail half-way leave the original intact
 *
 * Saving is atomic (terrain-io.c): a temporary file in the same folder,
 * written, fsync()ed, closed and renamed over the original. These tests make
 * each of those steps fail, through fault-shim.c, which this program links
 * (its symbols are exported, so libglib's calls reach it too) and which the
 * `terrain` tool gets through LD_PRELOAD:
 *   - a read-only folder (EROFS when creating the temporary file, or when
 *     renaming), and, when not running as root, a real read-only folder;
 *   - a full disk (ENOSPC on the first write, or after part of the file,
 *     EDQUOT, EIO from fsync or close);
 *   - a crash between writing and renaming (SIGKILL right before rename).
 * Each time the original file must be byte-for-byte what it was, and no
 * partial file may have taken its name: the folder holds the original alone
 * (after a crash, at most one temporary file next to it). Each
 * fault goes through terrain_file_save_bytes(), terrain_document_save() and
 * `terrain set-sea-level`.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "libterrain.h"
#include "fault-shim.h"
#include "terrain-test-util.h"

typedef enum
{
  SAVE_BYTES,
  SAVE_DOCUMENT,
  SAVE_CLI,
} SaveRoute;

typedef struct
{
  const char *name;
  const char *spec;        /* fault-shim.c syntax */
  gboolean crash;          /* the fault kills the saving process */
  gboolean needs_fsync;    /* skipped where GLib does not fsync (btrfs) */
} Fault;

static const Fault faults[] = {
  { "read-only-folder", "open:EROFS", FALSE, FALSE },
  { "read-only-rename", "rename:EROFS", FALSE, FALSE },
  { "permission-denied", "open:EACCES", FALSE, FALSE },
  { "disk-full", "write:ENOSPC", FALSE, FALSE },
  { "disk-full-mid-file", "write:ENOSPC@1000", FALSE, FALSE },
  { "quota", "write:EDQUOT@4096", FALSE, FALSE },
  { "write-error", "write:EIO", FALSE, FALSE },
  { "fsync-disk-full", "fsync:ENOSPC", FALSE, TRUE },
  { "fsync-error", "fsync:EIO", FALSE, TRUE },
  { "close-error", "close:EIO", FALSE, FALSE },
  { "crash-before-rename", "rename:kill", TRUE, FALSE },
  { "crash-during-write", "write:kill", TRUE, FALSE },
};

typedef struct
{
  const Fault *fault;
  SaveRoute route;
} Case;

typedef struct
{
  char *dir;           /* canonical: the shim compares paths */
  char *path;          /* dir/map.tnt, a copy of the sample map */
  GBytes *original;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("terrain-fault-XXXXXX", &error);
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_assert_no_error (error);
  f->dir = realpath (tmp, NULL);
  g_assert_nonnull (f->dir);
  f->path = g_build_filename (f->dir, "map.tnt", NULL);

  g_file_get_contents (g_getenv ("TERRAIN_SAMPLE_MAP"), &contents, &length, &error);
  g_assert_no_error (error);
  f->original = g_bytes_new_take (g_steal_pointer (&contents), length);
  g_file_set_contents (f->path, g_bytes_get_data (f->original, NULL), (gssize) length, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (f->path, 0640), ==, 0);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  terrain_fault_set (NULL, NULL);
  terrain_test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
  g_bytes_unref (f->original);
}

/* The original is intact, has its mode, and nothing else took its name; a
 * crashed save may leave its temporary file beside it, nothing else. */
static void
assert_original_intact (Fixture  *f,
                        gboolean  allow_temporary)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;
  GStatBuf st;
  const char *name;
  guint others = 0;

  g_file_get_contents (f->path, &contents, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (contents, length, g_bytes_get_data (f->original, NULL),
                   g_bytes_get_size (f->original));
  g_assert_cmpint (g_stat (f->path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0640);

  dir = g_dir_open (f->dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      if (strcmp (name, "map.tnt") == 0)
        continue;
      /* GLib names its temporary file after the target: map.tnt.XXXXXX */
      if (!allow_temporary || !g_str_has_prefix (name, "map.tnt."))
        g_error ("unexpected file %s left in %s", name, f->dir);
      others++;
    }
  g_assert_cmpuint (others, <=, 1);
}

static GBytes *
changed_bytes (Fixture *f)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (f->original, &size);
  guint8 *copy = g_memdup2 (data, size);

  /* Not a valid change of a TNT map, but the bytes differ everywhere the
   * shim could cut a write. */
  for (gsize i = 0; i < size; i++)
    copy[i] ^= 0x5A;
  return g_bytes_new_take (copy, size);
}

static TerrainDocument *
load_modified (Fixture *f)
{
  g_autoptr(GFile) file = g_file_new_for_path (f->path);
  g_autoptr(GError) error = NULL;
  TerrainDocument *document;
  guint level = 0;

  document = terrain_document_load (file, NULL, NULL, &error);
  g_assert_no_error (error);
  g_object_get (document, "sea-level", &level, NULL);
  g_object_set (document, "sea-level", (level + 7) % 256, NULL);
  g_assert_true (terrain_document_get_modified (document));
  return document;
}

/* Saves with the fault on; in a crash case this is the child process. */
static gboolean
save_in_process (Fixture       *f,
                 const Case    *c,
                 GError       **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (f->path);
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gboolean ok;

  /* Everything that reads the original happens before the fault is on. */
  if (c->route == SAVE_DOCUMENT)
    document = load_modified (f);
  else
    bytes = changed_bytes (f);

  g_assert_cmpint (terrain_fault_set (c->fault->spec, f->dir), ==, 0);
  if (c->route == SAVE_DOCUMENT)
    ok = terrain_document_save (document, NULL, NULL, error);
  else
    ok = terrain_file_save_bytes (file, bytes, NULL, error);
  if (terrain_fault_get_hits () == 0 && c->fault->needs_fsync)
    {
      terrain_fault_set (NULL, NULL);
      return TRUE;
    }
  terrain_fault_set (NULL, NULL);

  /* A failed save leaves the document modified and where it was. */
  if (!ok && document != NULL)
    {
      g_assert_true (terrain_document_get_modified (document));
      g_assert_true (g_file_equal (terrain_document_get_file (document), file));
    }
  return ok;
}

static void
test_save_in_process (Fixture       *f,
                      gconstpointer  data)
{
  const Case *c = data;
  g_autoptr(GError) error = NULL;

  if (c->fault->crash)
    {
      int status = 0;
      pid_t pid = fork ();

      g_assert_cmpint (pid, >=, 0);
      if (pid == 0)
        {
          save_in_process (f, c, NULL);
          /* Not reached: the fault kills the process. */
          _exit (0);
        }
      g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
      g_assert_true (WIFSIGNALED (status));
      g_assert_cmpint (WTERMSIG (status), ==, SIGKILL);
      assert_original_intact (f, TRUE);
      return;
    }

  if (save_in_process (f, c, &error) && c->fault->needs_fsync)
    {
      /* GLib skipped the faulted call: btrfs needs no fsync before rename. */
      g_test_skip ("the file system needs no fsync before rename");
      return;
    }
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO);
  g_test_message ("%s: %s", c->fault->spec, error->message);
  assert_original_intact (f, FALSE);
}

static char **
cli_environment (Fixture     *f,
                 const Fault *fault)
{
  char **env = g_get_environ ();
  const char *preload = g_environ_getenv (env, "LD_PRELOAD");
  const char *asan = g_environ_getenv (env, "ASAN_OPTIONS");
  g_autofree char *new_preload = NULL;
  g_autofree char *new_asan = NULL;

  new_preload = preload != NULL && preload[0] != '\0'
    ? g_strdup_printf ("%s:%s", g_getenv ("TERRAIN_FAULT_SHIM"), preload)
    : g_strdup (g_getenv ("TERRAIN_FAULT_SHIM"));
  /* Under AddressSanitizer the shim comes before libasan in the library
   * list, which ASan refuses unless told otherwise. */
  new_asan = asan != NULL && asan[0] != '\0'
    ? g_strdup_printf ("%s:verify_asan_link_order=0", asan)
    : g_strdup ("verify_asan_link_order=0");
  env = g_environ_setenv (env, "LD_PRELOAD", new_preload, TRUE);
  env = g_environ_setenv (env, "ASAN_OPTIONS", new_asan, TRUE);
  env = g_environ_setenv (env, "TERRAIN_FAULT", fault->spec, TRUE);
  env = g_environ_setenv (env, "TERRAIN_FAULT_DIR", f->dir, TRUE);
  return env;
}

static void
test_save_cli (Fixture       *f,
               gconstpointer  data)
{
  const Case *c = data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = cli_environment (f, c->fault);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *argv[] = { g_getenv ("TERRAIN_CLI"), "set-sea-level", f->path, "42", NULL };
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                &error);
  g_assert_no_error (error);
  g_test_message ("%s: %s", c->fault->spec, err);

  if (c->fault->crash)
    {
      g_assert_true (WIFSIGNALED (status));
      g_assert_cmpint (WTERMSIG (status), ==, SIGKILL);
      assert_original_intact (f, TRUE);
      return;
    }
  if (c->fault->needs_fsync && WIFEXITED (status) && WEXITSTATUS (status) == 0)
    {
      g_test_skip ("the file system needs no fsync before rename");
      return;
    }
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 2);
  g_assert_nonnull (strstr (err, f->path));
  assert_original_intact (f, FALSE);
}

/* The same saves without a fault succeed: the faults above are what failed. */
static void
test_save_ok (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GFile) file = g_file_new_for_path (f->path);
  g_autoptr(TerrainDocument) document = load_modified (f);
  g_autoptr(TerrainDocument) again = NULL;
  g_autoptr(GError) error = NULL;
  guint level = 0, saved = 0;
  GStatBuf st;

  g_assert_cmpint (terrain_fault_set ("rename:EROFS", "/nonexistent-folder"), ==, 0);
  g_assert_true (terrain_document_save (document, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_fault_get_hits (), ==, 0);
  terrain_fault_set (NULL, NULL);
  g_assert_false (terrain_document_get_modified (document));

  g_object_get (document, "sea-level", &level, NULL);
  again = terrain_document_load (file, NULL, NULL, &error);
  g_assert_no_error (error);
  g_object_get (again, "sea-level", &saved, NULL);
  g_assert_cmpuint (saved, ==, level);
  g_assert_cmpint (g_stat (f->path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0640);
}

/* A real read-only folder; root writes to one anyway, so then it is skipped
 * (the shim's EROFS cases cover it). */
static void
test_read_only_folder (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GFile) file = g_file_new_for_path (f->path);
  g_autoptr(GBytes) bytes = changed_bytes (f);
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (geteuid () == 0)
    {
      g_test_skip ("root can write to a read-only folder");
      return;
    }
  g_assert_cmpint (g_chmod (f->dir, 0555), ==, 0);
  ok = terrain_file_save_bytes (file, bytes, NULL, &error);
  g_chmod (f->dir, 0700);
  g_assert_false (ok);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO);
  assert_original_intact (f, FALSE);
}

static void
test_shim_spec (void)
{
  g_assert_cmpint (terrain_fault_set ("write:ENOSPC@12", "/tmp"), ==, 0);
  g_assert_cmpint (terrain_fault_set ("rename:kill", "/tmp"), ==, 0);
  g_assert_cmpint (terrain_fault_set ("seek:EIO", "/tmp"), ==, -1);
  g_assert_cmpint (terrain_fault_set ("write:EBUSY", "/tmp"), ==, -1);
  g_assert_cmpint (terrain_fault_set ("write", "/tmp"), ==, -1);
  g_assert_cmpint (terrain_fault_set (NULL, NULL), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  static const char * const routes[] = { "file-save-bytes", "document-save", "cli" };
  g_autoptr(GPtrArray) cases = g_ptr_array_new_with_free_func (g_free);

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/FaultInjection/shim-spec", test_shim_spec);
  g_test_add ("/Terrain/FaultInjection/no-fault", Fixture, NULL,
              fixture_set_up, test_save_ok, fixture_tear_down);
  g_test_add ("/Terrain/FaultInjection/read-only-folder-chmod", Fixture, NULL,
              fixture_set_up, test_read_only_folder, fixture_tear_down);

  for (guint i = 0; i < G_N_ELEMENTS (faults); i++)
    for (SaveRoute route = SAVE_BYTES; route <= SAVE_CLI; route++)
      {
        Case *c = g_new0 (Case, 1);
        g_autofree char *path = NULL;

        c->fault = &faults[i];
        c->route = route;
        g_ptr_array_add (cases, c);
        path = g_strdup_printf ("/Terrain/FaultInjection/%s/%s", routes[route], faults[i].name);
        g_test_add (path, Fixture, c, fixture_set_up,
                    route == SAVE_CLI ? test_save_cli : test_save_in_process,
                    fixture_tear_down);
      }

  return g_test_run ();
}
