/* bench-atlas-builder.c: building Atlas files from large heightfields
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Run with `meson test -C BUILD --benchmark atlas-builder` or directly:
 *
 *   bench-atlas-builder [--threads N] [--large]
 *
 * Each case runs in a child process, so its peak memory (the child's
 * maximum resident set) is its own. A case loads its heightfield and builds
 * an Atlas file to a temporary file (as `terrain build-atlas` does), and
 * prints: wall time of load + build, peak memory, CPU time (user + system,
 * all threads: on a busy machine it says more than the wall time), chunks,
 * vertices (every
 * chunk's, skirts included), triangles (surface and skirts; the builder
 * writes triangle lists, so 0 degenerate), the distinct samples the finest
 * level uses (the figure Ulrich's chunker prints as "output verts"), the
 * file size, and the largest error of the finest level measured against
 * every sample (a second, measuring run, whose time is not the one shown).
 *
 * Cases (issue 4): the 3600² SRTM DEM of the corpus (dem/N45E013-gray16.png,
 * metres = value − 32768) padded to 4097² at 1 m and 0.5 m with depth 8 (the
 * reference: Ulrich's chunker, 5.4 s and 9 s, 4.47 M output verts at 1 m,
 * ~97 MB peak; it refuses depths 6 and 7), at depths 6 and 7, and with
 * Ulrich's own vertex metric for comparison; a generated 4097² heightfield
 * (fixed-seed fractal noise) at 1 m; with --large, a generated 16385² raw16
 * file, memory-mapped, at 2 m (target: within 2 GiB).
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "libterrain.h"
#include "atlas/terrain-atlas-builder-private.h"
#include "bench-noise.h"

typedef enum
{
  SOURCE_DEM,
  SOURCE_NOISE,
  SOURCE_RAW_LARGE,
} Source;

typedef struct
{
  const char *name;
  Source source;
  gdouble error;
  guint depth;
  gboolean midpoint;
} Case;

static guint n_threads;
static char *scratch_dir;

static char *
large_raw_path (void)
{
  return g_build_filename (scratch_dir, "large.r16", NULL);
}

/* 16385² raw16 of the same noise as bench_make_noise(), written row by row. */
static gboolean
write_large_raw (void)
{
  const guint side = 16385;
  g_autofree char *path = large_raw_path ();
  g_autoptr(TerrainHeightfield) small = bench_make_noise (4097);
  g_autofree guint8 *row = g_new (guint8, side * 2);
  FILE *out = fopen (path, "wb");

  if (out == NULL)
    return FALSE;
  for (guint y = 0; y < side; y++)
    {
      for (guint x = 0; x < side; x++)
        {
          gdouble h = terrain_heightfield_sample_bilinear (small, x / 4.0, y / 4.0);
          guint16 v = (guint16) CLAMP (h * 20.0 + (x * 7 + y * 13) % 5, 0, 65535);

          row[2 * x] = v & 0xff;
          row[2 * x + 1] = v >> 8;
        }
      if (fwrite (row, 2, side, out) != side)
        {
          fclose (out);
          return FALSE;
        }
    }
  return fclose (out) == 0;
}

static TerrainHeightfield *
load (Source   source,
      GError **error)
{
  const char *corpus = g_getenv ("TERRAIN_CORPUS_DIR");
  g_autoptr(TerrainHeightfieldOptions) options = terrain_heightfield_options_new ();
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;

  switch (source)
    {
    case SOURCE_DEM:
      path = g_build_filename (corpus != NULL ? corpus : "../shared/corpus", "dem",
                               "N45E013-gray16.png", NULL);
      options->vertical_offset = -32768;
      options->spacing = 30;
      break;
    case SOURCE_RAW_LARGE:
      path = large_raw_path ();
      options->vertical_scale = 0.05;
      options->spacing = 2;
      break;
    case SOURCE_NOISE:
    default:
      return bench_make_noise (4097);
    }
  file = g_file_new_for_path (path);
  return terrain_heightfield_load (file, options, NULL, error);
}

/* One build; prints a result line. Runs in the child. */
static int
run_case (const Case *c,
          gboolean    measure)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(TerrainAtlasBuilder) builder = NULL;
  g_autofree char *path = g_build_filename (scratch_dir, "bench.atlas", NULL);
  g_autoptr(GFile) out = g_file_new_for_path (path);
  const TerrainAtlasBuildStats *stats;
  gint64 start = g_get_monotonic_time ();
  gdouble seconds;

  field = load (c->source, &error);
  if (field == NULL)
    {
      printf ("%-34s skipped: %s\n", c->name, error->message);
      return 0;
    }
  builder = terrain_atlas_builder_new (field);
  terrain_atlas_builder_set_error (builder, c->error);
  terrain_atlas_builder_set_tree_depth (builder, c->depth);
  terrain_atlas_builder_set_n_threads (builder, n_threads);
  terrain_atlas_builder_set_measure_error (builder, measure);
  terrain_atlas_builder_set_midpoint_metric (builder, c->midpoint);
  if (!terrain_atlas_builder_build_to_file (builder, out, NULL, &error))
    {
      printf ("%-34s failed: %s\n", c->name, error->message);
      return 1;
    }
  seconds = (g_get_monotonic_time () - start) / (gdouble) G_USEC_PER_SEC;
  stats = terrain_atlas_builder_get_stats (builder);
  g_unlink (path);

  if (measure)
    printf ("%-34s   measured max error %.4f m (measuring run %.2f s)\n", "",
            stats->max_error, seconds);
  else
    printf ("%-34s %6.2f s  depth %2u  %5u chunks  %9" G_GUINT64_FORMAT " vertices  %9"
            G_GUINT64_FORMAT " triangles (%" G_GUINT64_FORMAT " skirt, %" G_GUINT64_FORMAT
            " degenerate)  %8" G_GUINT64_FORMAT " leaf samples  %6.1f MB",
            c->name, seconds, stats->tree_depth, stats->n_chunks, stats->n_vertices,
            stats->n_triangles + stats->n_skirt_triangles, stats->n_skirt_triangles,
            stats->n_degenerate_triangles, stats->n_leaf_samples,
            stats->file_size / 1048576.0);
  fflush (stdout);
  return 0;
}

static void
run_in_child (const Case *c,
              gboolean    measure)
{
  struct rusage usage;
  int status = 0;
  pid_t pid;

  fflush (stdout);
  pid = fork ();
  if (pid == 0)
    _exit (run_case (c, measure));
  if (pid < 0 || wait4 (pid, &status, 0, &usage) < 0)
    {
      printf ("%s: cannot run: %s\n", c->name, g_strerror (errno));
      return;
    }
  if (!measure)
    printf ("  peak %6.1f MB  cpu %.2f s\n", usage.ru_maxrss / 1024.0,
            usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
            usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6);
}

int
main (int   argc,
      char *argv[])
{
  static const Case cases[] = {
    { "DEM 4097^2, 1 m, depth 8", SOURCE_DEM, 1.0, 8, FALSE },
    { "DEM 4097^2, 0.5 m, depth 8", SOURCE_DEM, 0.5, 8, FALSE },
    { "DEM 4097^2, 1 m, depth 7", SOURCE_DEM, 1.0, 7, FALSE },
    { "DEM 4097^2, 1 m, depth 6", SOURCE_DEM, 1.0, 6, FALSE },
    { "DEM 1 m depth 8, Ulrich's metric", SOURCE_DEM, 1.0, 8, TRUE },
    { "generated 4097^2, 1 m", SOURCE_NOISE, 1.0, 0, FALSE },
  };
  static const Case large = { "generated raw16 16385^2, 2 m", SOURCE_RAW_LARGE, 2.0, 0, FALSE };
  gboolean run_large = FALSE;
  g_autoptr(GError) error = NULL;
  const GOptionEntry entries[] = {
    { "threads", 'j', 0, G_OPTION_ARG_INT, &n_threads, "Worker threads (default: all)", "N" },
    { "large", 0, 0, G_OPTION_ARG_NONE, &run_large,
      "Also build a 16385^2 raw16 heightfield (writes a 512 MiB file)", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- Atlas builder benchmark");

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 64;
    }

  scratch_dir = g_dir_make_tmp ("bench-atlas-builder-XXXXXX", &error);
  if (scratch_dir == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  printf ("Atlas builder, %u threads (%u processors)\n",
          n_threads > 0 ? n_threads : g_get_num_processors (), g_get_num_processors ());
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      run_in_child (&cases[i], FALSE);
      if (i == 0 || i == 4 || i == 5)
        run_in_child (&cases[i], TRUE);
    }

  if (run_large)
    {
      if (write_large_raw ())
        run_in_child (&large, FALSE);
      else
        printf ("%s: cannot write the raw file\n", large.name);
      {
        g_autofree char *path = large_raw_path ();

        g_unlink (path);
      }
    }

  g_rmdir (scratch_dir);
  g_free (scratch_dir);
  return 0;
}
