/* fuzz-cli.c: libFuzzer harness for the terrain tool's argument parsing
 *
 * The input is an argument vector: its bytes split at NUL and newline into
 * at most 24 arguments, run in-process as `terrain ARG…` (the tool's main()
 * is built as terrain_cli_main() for this harness). Every command and
 * option parser is reached, with option values from the fuzzer, against a
 * folder of small files the harness writes at start-up: a TNT map, its
 * OTA, a palette, a raw16 heightmap and a text file. Whatever the
 * arguments, the tool must return one of its documented exit statuses
 * (0, 1, 2, 64) without a crash, a sanitizer report, a leak or a GLib
 * critical; after each run the folder is put back as it was (commands edit
 * in place and write outputs).
 *
 * Left out, so that the harness stays inside its folder and its process:
 * arguments holding '/' or "..", which could name files elsewhere (member
 * paths of archives, `ARCHIVE:maps/x.tnt`, are reached by the unit tests),
 * and --help, -h, -? and --version, which GOption answers by exiting.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "libterrain.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);
int LLVMFuzzerInitialize (int    *argc,
                          char ***argv);

/* cli/terrain.c's main(), renamed by -Dmain=terrain_cli_main. */
int terrain_cli_main (int    argc,
                      char **argv);

#define MAX_ARGS 24
#define FUZZ_MAX_INPUT 2048

typedef struct
{
  const char *name;
  GBytes *bytes;
} Fixture;

static Fixture fixtures[5];
static char *folder;
static FILE *real_stderr;
static int home_fd = -1;

static void
drop_output (const char *text)
{
  (void) text;
}

static GBytes *
make_map (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (8, 8, &error);
  GBytes *bytes;

  g_assert_no_error (error);
  for (guint y = 0; y < 8; y++)
    for (guint x = 0; x < 8; x++)
      terrain_tnt_map_set_cell_height (map, x, y, (guint8) (x * 16 + y * 8));
  bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (map), &error);
  g_assert_no_error (error);
  return bytes;
}

static GBytes *
make_ota (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainOtaFile) ota = terrain_ota_file_new ("Fuzz", &error);
  GBytes *bytes;

  g_assert_no_error (error);
  bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ota), &error);
  g_assert_no_error (error);
  return bytes;
}

static GBytes *
make_palette (void)
{
  guint8 *rgba = g_malloc (1024);

  for (guint i = 0; i < 256; i++)
    {
      rgba[4 * i] = (guint8) i;
      rgba[4 * i + 1] = (guint8) (255 - i);
      rgba[4 * i + 2] = (guint8) (i * 7);
      rgba[4 * i + 3] = 0;
    }
  return g_bytes_new_take (rgba, 1024);
}

static GBytes *
make_raw16 (void)
{
  /* 33 x 33 samples, little-endian, a ramp with a bump. */
  guint8 *raw = g_malloc (33 * 33 * 2);

  for (guint y = 0; y < 33; y++)
    for (guint x = 0; x < 33; x++)
      {
        guint v = x * 1000 + y * 500 + ((x - 16) * (x - 16) + (y - 16) * (y - 16) < 40 ? 9000 : 0);

        raw[2 * (y * 33 + x)] = (guint8) (v & 0xFF);
        raw[2 * (y * 33 + x) + 1] = (guint8) (v >> 8);
      }
  return g_bytes_new_take (raw, 33 * 33 * 2);
}

static void
write_fixtures (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      gsize size;
      const guint8 *data = g_bytes_get_data (fixtures[i].bytes, &size);
      int fd = open (fixtures[i].name, O_WRONLY | O_CREAT | O_TRUNC, 0644);

      if (fd < 0 || write (fd, data, size) != (ssize_t) size || close (fd) != 0)
        {
          fprintf (real_stderr, "fuzz-cli: cannot write %s in %s\n", fixtures[i].name, folder);
          abort ();
        }
    }
}

static gboolean
is_fixture (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    if (strcmp (name, fixtures[i].name) == 0)
      return TRUE;
  return FALSE;
}

/* Removes @path and, for a folder, what it holds. */
static void
remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);

  if (dir != NULL)
    {
      const char *name;

      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
      g_dir_close (dir);
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

/* Puts the folder back: outputs removed, fixtures rewritten (a command may
 * have edited one in place or replaced it with a folder). */
static void
restore_folder (void)
{
  GDir *dir = g_dir_open (".", 0, NULL);
  const char *name;

  if (dir == NULL)
    abort ();
  while ((name = g_dir_read_name (dir)) != NULL)
    if (!is_fixture (name) || g_file_test (name, G_FILE_TEST_IS_DIR))
      remove_tree (name);
  g_dir_close (dir);
  write_fixtures ();
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  int null_fd;

  (void) argc;
  (void) argv;

  /* libFuzzer names its corpus folders relative to the working folder, so
   * the harness enters its own folder only while the tool runs. */
  folder = g_dir_make_tmp ("fuzz-cli-XXXXXX", NULL);
  home_fd = open (".", O_RDONLY | O_DIRECTORY);
  if (folder == NULL || home_fd < 0 || g_chdir (folder) != 0)
    abort ();
  fixtures[0] = (Fixture) { "map.tnt", make_map () };
  fixtures[1] = (Fixture) { "map.ota", make_ota () };
  fixtures[2] = (Fixture) { "PALETTE.PAL", make_palette () };
  fixtures[3] = (Fixture) { "hm.raw", make_raw16 () };
  fixtures[4] = (Fixture) { "notes.txt", g_bytes_new_static ("not a terrain file\n", 19) };
  write_fixtures ();

  /* The tool reads no terminal and its output is not the point. */
  null_fd = open ("/dev/null", O_RDWR);
  if (null_fd < 0 || dup2 (null_fd, STDIN_FILENO) < 0 || dup2 (null_fd, STDOUT_FILENO) < 0)
    abort ();
  close (null_fd);
  g_set_print_handler (drop_output);
  g_set_printerr_handler (drop_output);
  /* The usage texts go to the stderr stream: send that stream to /dev/null.
   * libFuzzer took its own copy of the stream at start-up and the
   * sanitizers write to descriptor 2, so their reports still reach the log. */
  real_stderr = stderr;
  stderr = fopen ("/dev/null", "w");
  if (stderr == NULL)
    abort ();
  g_setenv ("TERRAIN_PROGRESS", "never", TRUE);
  /* A critical is a broken precondition inside the tool: a bug. */
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR);
  if (fchdir (home_fd) != 0)
    abort ();
  return 0;
}

static gboolean
argument_allowed (const char *arg)
{
  if (strchr (arg, '/') != NULL || strstr (arg, "..") != NULL)
    return FALSE;
  if (strncmp (arg, "--", 2) == 0)
    return strncmp (arg, "--help", 6) != 0 && strncmp (arg, "--version", 9) != 0;
  if (arg[0] == '-' && arg[1] != '\0')
    return strchr (arg, 'h') == NULL && strchr (arg, '?') == NULL;
  return strcmp (arg, "help") != 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  char *argv[MAX_ARGS + 2];
  char *owned[MAX_ARGS + 1];
  int argc = 0, status;
  size_t start = 0;

  if (size > FUZZ_MAX_INPUT)
    return 0;

  owned[argc] = g_strdup ("terrain");
  argc++;
  for (size_t i = 0; i <= size && argc <= MAX_ARGS; i++)
    if (i == size || data[i] == '\0' || data[i] == '\n')
      {
        char *arg = g_strndup ((const char *) data + start, i - start);

        start = i + 1;
        if (!argument_allowed (arg))
          {
            g_free (arg);
            for (int k = 0; k < argc; k++)
              g_free (owned[k]);
            return 0;
          }
        owned[argc++] = arg;
      }
  memcpy (argv, owned, sizeof owned[0] * argc);
  argv[argc] = NULL;

  if (g_chdir (folder) != 0)
    abort ();
  status = terrain_cli_main (argc, argv);
  if (status != 0 && status != 1 && status != 2 && status != 64)
    {
      fprintf (real_stderr, "fuzz-cli: the tool returned %d, not a documented exit status\n",
               status);
      abort ();
    }

  for (int k = 0; k < argc; k++)
    g_free (owned[k]);
  restore_folder ();
  if (fchdir (home_fd) != 0)
    abort ();
  return 0;
}
