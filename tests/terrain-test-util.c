/* terrain-test-util.c: helpers the unit tests share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

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
