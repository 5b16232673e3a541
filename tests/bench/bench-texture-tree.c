/* bench-texture-tree.c: an Atlas texture tree from a large JPEG
 *
 * Usage: bench-texture-tree [--side N] [--runs R] [--picture OUT.jpg]
 *
 * Writes a fixed-seed, photo-like RGB JPEG of N x N pixels (default 4096,
 * quality 90) and builds an Atlas from it as `terrain build-atlas
 * flat257.raw --texture PICTURE --texture-depth 5 --tile-size 256` does: a
 * flat 257² heightfield (so the geometry is negligible) and a depth-5
 * texture tree of 341 JPEG tiles of 256², into a temporary file. Each of
 * R runs (default 5) is a forked child, so that its peak resident memory
 * (ru_maxrss) is its own; prints every run and the medians of wall time
 * and peak. --picture only writes the picture, for a paired comparison
 * with a peer through compare.py (docs/performance.md, "Texture tree
 * against maketqt"). Not a test: no assertion on times.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "libterrain.h"
#include "bench-picture.h"

static int
build_once (const char *picture,
            const char *out)
{
  g_autoptr(TerrainHeightfield) field = terrain_heightfield_new (257, 257, 1.0, NULL);
  g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
  g_autoptr(GFile) texture = g_file_new_for_path (picture);
  g_autoptr(GFile) file = g_file_new_for_path (out);
  g_autoptr(GError) error = NULL;

  terrain_atlas_builder_set_texture_file (builder, texture);
  terrain_atlas_builder_set_texture_depth (builder, 5);
  terrain_atlas_builder_set_tile_size (builder, 256);
  if (!terrain_atlas_builder_build_to_file (builder, file, NULL, &error))
    {
      g_printerr ("bench-texture-tree: %s\n", error->message);
      return 1;
    }
  return 0;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

int
main (int    argc,
      char **argv)
{
  gint side = 4096, runs = 5;
  g_autofree char *picture_out = NULL;
  GOptionEntry entries[] = {
    { "side", 0, 0, G_OPTION_ARG_INT, &side, "Picture side in pixels (default 4096)", "N" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Measured runs (default 5)", "R" },
    { "picture", 0, 0, G_OPTION_ARG_FILENAME, &picture_out, "Only write the picture", "OUT.jpg" },
    { NULL },
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- texture tree benchmark");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *picture = NULL;
  g_autofree char *out = NULL;
  g_autofree gdouble *walls = NULL;
  g_autofree gdouble *peaks = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || side < 16 || runs < 1)
    {
      g_printerr ("bench-texture-tree: %s\n", error != NULL ? error->message : "bad option");
      return 64;
    }
  if (picture_out != NULL)
    return bench_write_picture (picture_out, (guint) side) ? 0 : 2;

  dir = g_dir_make_tmp ("bench-texture-tree-XXXXXX", &error);
  if (dir == NULL)
    {
      g_printerr ("bench-texture-tree: %s\n", error->message);
      return 2;
    }
  picture = g_build_filename (dir, "picture.jpg", NULL);
  out = g_build_filename (dir, "out.atlas", NULL);
  if (!bench_write_picture (picture, (guint) side))
    return 2;

  walls = g_new (gdouble, runs);
  peaks = g_new (gdouble, runs);
  printf ("# %dx%d JPEG -> texture tree depth 5, 256 px tiles (flat 257^2 geometry)\n",
          side, side);
  for (gint r = 0; r < runs; r++)
    {
      gint64 start = g_get_monotonic_time ();
      struct rusage usage;
      int status = 0;
      pid_t child = fork ();

      if (child == 0)
        _exit (build_once (picture, out));
      if (child < 0 || wait4 (child, &status, 0, &usage) < 0 || !WIFEXITED (status) ||
          WEXITSTATUS (status) != 0)
        return 1;
      walls[r] = (g_get_monotonic_time () - start) / 1e6;
      peaks[r] = usage.ru_maxrss / 1024.0;
      printf ("run %d  wall %.3f s  CPU %.3f s  peak %.1f MiB\n", r + 1, walls[r],
              usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
              usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6, peaks[r]);
    }
  qsort (walls, runs, sizeof (gdouble), compare_doubles);
  qsort (peaks, runs, sizeof (gdouble), compare_doubles);
  printf ("median wall %.3f s  peak %.1f MiB\n", walls[runs / 2], peaks[runs / 2]);

  g_unlink (out);
  g_unlink (picture);
  g_rmdir (dir);
  return 0;
}
