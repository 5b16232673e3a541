/* terrain-test-util.c: helpers the unit tests share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdarg.h>
#include <sys/wait.h>

#include "terrain-test-util.h"

/**
 * terrain_test_run_cli:
 * @cwd: (nullable): the folder to run in, or %NULL for the test's own
 * @first: the first argument after the program
 * @...: more arguments, then %NULL
 *
 * Runs the terrain tool named by the `TERRAIN_CLI` environment variable
 * (set by tests/meson.build) and collects its exit status and output. The
 * output is also logged with g_test_message() for failing tests.
 *
 * Returns: the result; clear it with terrain_test_cli_result_clear()
 */
TerrainTestCliResult
terrain_test_run_cli (const char *cwd,
                      const char *first,
                      ...)
{
  const char *cli = g_getenv ("TERRAIN_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  TerrainTestCliResult result = { -1, NULL, NULL };
  int wait_status = 0;
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (cwd, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                &result.out, &result.err, &wait_status, &error);
  g_assert_no_error (error);
  if (WIFEXITED (wait_status))
    result.status = WEXITSTATUS (wait_status);
  g_test_message ("terrain %s…: exit %d\n%s%s", first, result.status, result.out, result.err);
  return result;
}

void
terrain_test_cli_result_clear (TerrainTestCliResult *result)
{
  g_clear_pointer (&result->out, g_free);
  g_clear_pointer (&result->err, g_free);
}

char *
terrain_test_make_tmp_dir (const char *prefix)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpl = g_strconcat (prefix, "-XXXXXX", NULL);
  char *dir = g_dir_make_tmp (tmpl, &error);

  g_assert_no_error (error);
  g_assert_nonnull (dir);
  return dir;
}

void
terrain_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  /* A folder a test made read-only (to make a save fail) opens again. */
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    g_chmod (path, 0700);
  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        terrain_test_remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

GBytes *
terrain_test_read_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *data = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (path, &data, &length, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (data, length);
}

void
terrain_test_write_bytes (const char *path,
                          GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;
  gsize length = 0;
  const char *data = g_bytes_get_data (bytes, &length);

  g_assert_true (g_file_set_contents (path, data != NULL ? data : "", (gssize) length, &error));
  g_assert_no_error (error);
}

void
terrain_test_assert_bytes_equal (GBytes *expected,
                                 GBytes *actual)
{
  gsize n_expected = 0, n_actual = 0;
  const guint8 *e = g_bytes_get_data (expected, &n_expected);
  const guint8 *a = g_bytes_get_data (actual, &n_actual);

  g_assert_cmpuint (n_actual, ==, n_expected);
  for (gsize i = 0; i < n_expected; i++)
    if (e[i] != a[i])
      g_error ("the bytes differ first at offset %" G_GSIZE_FORMAT ": 0x%02X, not 0x%02X",
               i, a[i], e[i]);
}

static char *
path_under (const char *variable,
            const char *relative)
{
  const char *dir = g_getenv (variable);
  char *path;

  if (dir == NULL)
    return NULL;
  path = g_build_filename (dir, relative, NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    g_clear_pointer (&path, g_free);
  return path;
}

char *
terrain_test_corpus_path (const char *relative)
{
  return path_under ("TERRAIN_CORPUS_DIR", relative);
}

char *
terrain_test_sample_path (const char *relative)
{
  return path_under ("TERRAIN_SAMPLES_DIR", relative);
}

static void
add_func_if_dir (const char *variable,
                 const char *testpath,
                 GTestFunc   func)
{
  const char *dir = g_getenv (variable);

  if (dir != NULL && g_file_test (dir, G_FILE_TEST_IS_DIR))
    g_test_add_func (testpath, func);
}

void
terrain_test_add_corpus_func (const char *testpath,
                              GTestFunc   func)
{
  add_func_if_dir ("TERRAIN_CORPUS_DIR", testpath, func);
}

void
terrain_test_add_sample_func (const char *testpath,
                              GTestFunc   func)
{
  add_func_if_dir ("TERRAIN_SAMPLES_DIR", testpath, func);
}
