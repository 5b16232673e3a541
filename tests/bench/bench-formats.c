/* bench-formats.c: read+validate and write throughput against memcpy, and
 * peak memory, for every format libterrain reads.
 *
 * Usage: bench-formats [FILE...]
 *   Without files: the corpus maps (TERRAIN_CORPUS_DIR) and a generated
 *   640x640-cell TNT with 2000 tiles (fixed seed).
 *
 * Figures: median of several runs. "ratio" is (read+validate+write) divided by
 * the time of two memcpys of the file's bytes, measured in the same run: the
 * target is at most 3. Peak memory is measured in a child process per file
 * (ru_maxrss after loading and validating), as a multiple of the file size.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "libterrain.h"

#define RUNS 15

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static gint64
median (gint64 *samples,
        guint   n)
{
  qsort (samples, n, sizeof *samples, compare_gint64);
  return samples[n / 2];
}

static char *
make_large_tnt (const char *dir)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (640640);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (640, 640, &error);
  g_autoptr(GFile) file = NULL;
  char *path = g_build_filename (dir, "generated-640x640.tnt", NULL);
  guint8 tile[TERRAIN_TNT_TILE_BYTES];

  g_assert_no_error (error);
  for (guint t = 0; t < 2000; t++)
    {
      for (guint i = 0; i < sizeof tile; i++)
        tile[i] = (guint8) g_rand_int_range (rand, 0, 256);
      terrain_tnt_map_add_tile (map, tile);
    }
  for (guint row = 0; row < 320; row++)
    for (guint column = 0; column < 320; column++)
      terrain_tnt_map_set_tile_index (map, column, row,
                                      (guint16) g_rand_int_range (rand, 0, 2001));
  for (guint y = 0; y < 640; y++)
    for (guint x = 0; x < 640; x++)
      terrain_tnt_map_set_cell_height (map, x, y, (guint8) g_rand_int_range (rand, 0, 256));
  terrain_tnt_map_update_minimap (map);

  file = g_file_new_for_path (path);
  if (!terrain_document_save (TERRAIN_DOCUMENT (map), file, NULL, &error))
    g_error ("%s", error->message);

  return path;
}

/* Child: load and validate, then report peak RSS through the exit path. */
static void
child_load (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(TerrainDocument) document = terrain_document_load (file, NULL, NULL, NULL);
  g_autoptr(GPtrArray) issues = NULL;

  if (document == NULL)
    _exit (1);
  issues = terrain_document_validate (document);
  _exit (0);
}

static long
peak_rss_kib (const char *path)
{
  struct rusage usage;
  int status;
  pid_t pid;

  fflush (stdout);
  pid = fork ();
  if (pid == 0)
    child_load (path);
  if (pid < 0 || wait4 (pid, &status, 0, &usage) < 0 || !WIFEXITED (status) ||
      WEXITSTATUS (status) != 0)
    return -1;
  return usage.ru_maxrss;
}

static long
baseline_rss_kib (void)
{
  struct rusage usage;
  int status;
  pid_t pid;

  pid = fork ();
  if (pid == 0)
    {
      /* The same start-up (types registered, GIO's VFS loaded), no file. */
      g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent");
      g_autoptr(GBytes) bytes = terrain_file_load_bytes (file, NULL, NULL);

      g_type_ensure (TERRAIN_TYPE_TNT_MAP);
      g_type_ensure (TERRAIN_TYPE_SCT_SECTION);
      _exit (0);
    }
  if (pid < 0 || wait4 (pid, &status, 0, &usage) < 0)
    return 0;
  return usage.ru_maxrss;
}

static void
bench_file (const char *path,
            long        baseline)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = terrain_file_load_bytes (file, NULL, &error);
  g_autofree char *name = g_path_get_basename (path);
  gint64 t_copy[RUNS], t_read[RUNS], t_write[RUNS];
  g_autofree guint8 *scratch = NULL;
  const guint8 *data;
  gsize size;
  gint64 copy, read, write;
  double mb;
  long peak;
  const char *format = "?";

  if (bytes == NULL)
    {
      g_printerr ("%s: %s\n", path, error->message);
      return;
    }
  data = g_bytes_get_data (bytes, &size);
  scratch = g_malloc (size + 1);
  mb = size / (1024.0 * 1024.0);

  for (guint r = 0; r < RUNS; r++)
    {
      g_autoptr(TerrainDocument) document = NULL;
      g_autoptr(GPtrArray) issues = NULL;
      g_autoptr(GBytes) written = NULL;
      gint64 t0, t1, t2, t3;

      t0 = g_get_monotonic_time ();
      memcpy (scratch, data, size);
      memcpy (scratch, data, size);
      t1 = g_get_monotonic_time ();
      document = terrain_document_load_bytes (bytes, name, TERRAIN_FORMAT_UNKNOWN, NULL, &error);
      if (document == NULL)
        {
          g_printerr ("%s: %s\n", path, error->message);
          return;
        }
      issues = terrain_document_validate (document);
      t2 = g_get_monotonic_time ();
      written = terrain_document_save_to_bytes (document, &error);
      t3 = g_get_monotonic_time ();
      if (written == NULL || !g_bytes_equal (written, bytes))
        g_printerr ("%s: round trip is not byte-exact\n", path);
      format = terrain_format_get_name (terrain_document_get_format (document));

      t_copy[r] = MAX (t1 - t0, 1);
      t_read[r] = t2 - t1;
      t_write[r] = t3 - t2;
    }

  copy = median (t_copy, RUNS);
  read = median (t_read, RUNS);
  write = median (t_write, RUNS);
  peak = peak_rss_kib (path);

  g_print ("%-24s %-6s %9.2f %10.3f %10.3f %10.3f %9.0f %9.0f %6.2f %9ld %6.2f\n",
           name, format, mb,
           copy / 1000.0, read / 1000.0, write / 1000.0,
           read > 0 ? mb / (read / 1e6) : 0.0,
           write > 0 ? mb / (write / 1e6) : 0.0,
           (double) (read + write) / copy,
           peak - baseline,
           size > 0 ? (peak - baseline) * 1024.0 / size : 0.0);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *tmp = NULL;
  const char *corpus = g_getenv ("TERRAIN_CORPUS_DIR");
  long baseline;

  for (int i = 1; i < argc; i++)
    g_ptr_array_add (files, g_strdup (argv[i]));

  if (files->len == 0)
    {
      static const char * const corpus_files[] = { "ta/maps/ban.tnt", "ta/maps/bar.tnt" };

      if (corpus != NULL)
        for (guint i = 0; i < G_N_ELEMENTS (corpus_files); i++)
          {
            char *path = g_build_filename (corpus, corpus_files[i], NULL);

            if (g_file_test (path, G_FILE_TEST_EXISTS))
              g_ptr_array_add (files, path);
            else
              g_free (path);
          }
      tmp = g_dir_make_tmp ("terrain-bench-XXXXXX", NULL);
      g_ptr_array_add (files, make_large_tnt (tmp));
    }

  baseline = baseline_rss_kib ();

  g_print ("# libterrain %s; median of %d runs; times in ms; memcpy = two copies of the file\n",
           TERRAIN_VERSION_S, RUNS);
  g_print ("%-24s %-6s %9s %10s %10s %10s %9s %9s %6s %9s %6s\n",
           "file", "format", "MiB", "memcpy x2", "read+val", "write", "read MB/s",
           "write MB/s", "ratio", "peak KiB", "xfile");
  for (guint i = 0; i < files->len; i++)
    bench_file (g_ptr_array_index (files, i), baseline);

  if (tmp != NULL)
    {
      for (guint i = 0; i < files->len; i++)
        if (g_str_has_prefix (g_ptr_array_index (files, i), tmp))
          g_unlink (g_ptr_array_index (files, i));
      g_rmdir (tmp);
    }

  return 0;
}
