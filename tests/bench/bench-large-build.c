/* bench-large-build.c: `terrain build-atlas` on a 16385² tiled heightmap
 * and a 16384² texture (issues 17 and 18)
 *
 * Usage: bench-large-build TERRAIN BENCH-RUN [--runs R] [--sizes N,N,...]
 *                          [--threads N] [--no-texture]
 *
 * TERRAIN is the CLI and BENCH-RUN tests/bench/bench-run (meson passes
 * both). In a temporary folder (in /dev/shm when it has 6 GiB free, else
 * the system's temporary folder; deleted afterwards) it writes
 *
 * - a heightmap of N² samples as World Machine tiles: 16-bit grey PNGs
 *   `Height_x%u_y%u.png` of 2049² sharing one edge row and column with
 *   their neighbours (8 x 8 tiles for 16385², 4 x 4 for 8193², 2 x 2 for
 *   4097²; 2049² and 1025² are one PNG), written a row at a time with
 *   libpng: the fixed-seed fractal noise of bench_make_noise() (4097²,
 *   whose edges join, about 1000 m of relief) repeated every 4096 samples,
 *   so every size has the same relief per sample, in units of 0.05 m plus
 *   a ripple of up to 0.2 m, 10 m spacing;
 * - a 16384² photo-like JPEG (quality 90), written scanline by scanline
 *   (bench_write_picture()).
 *
 * Then it runs the real CLI, each run a child of BENCH-RUN (its wall time,
 * CPU time and peak resident memory, ru_maxrss, are the command's own):
 *
 * - the whole build: `terrain build-atlas TILES --vertical-scale 0.05
 *   --spacing 10 --error 2 --texture BIG.jpg --texture-depth 7 --tile-size
 *   256` (goal: within 2 GiB);
 * - the texture tree alone: a flat 257² PNG with the same texture
 *   options (goal: within 256 MB);
 * - geometry alone at every size (goal: linear time per sample).
 *
 * Each line gives the median of R runs (default 1) of wall, CPU and peak,
 * the output size and the load average before the runs. Not a test: no
 * assertion on figures; `meson test --benchmark large-build` runs it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include <glib/gstdio.h>
#include <png.h>

#include "libterrain.h"
#include "bench-noise.h"
#include "bench-picture.h"

#define TILE_SIDE 2049

static const char *terrain_path;
static const char *bench_run_path;
static gint n_runs = 1;
static gint n_threads;
static TerrainHeightfield *relief;

/* One 16-bit grey PNG of @tile² samples whose first sample is (@x0, @y0)
 * of the grid; @flat writes zeroes. */
static gboolean
write_tile (const char *path,
            guint       tile,
            guint       x0,
            guint       y0,
            gboolean    flat)
{
  FILE *f = fopen (path, "wb");
  png_structp png;
  png_infop info;
  g_autofree guint8 *row = g_new0 (guint8, (gsize) tile * 2);
  const gfloat *heights = terrain_heightfield_get_data (relief, NULL);

  if (f == NULL)
    return FALSE;
  png = png_create_write_struct (PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  info = png_create_info_struct (png);
  if (setjmp (png_jmpbuf (png)))
    {
      png_destroy_write_struct (&png, &info);
      fclose (f);
      return FALSE;
    }
  png_init_io (png, f);
  png_set_compression_level (png, 1);
  png_set_IHDR (png, info, tile, tile, 16, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info (png, info);
  for (guint r = 0; r < tile; r++)
    {
      guint y = y0 + r;

      for (guint c = 0; c < tile && !flat; c++)
        {
          guint x = x0 + c;
          gdouble h = heights[(gsize) (y % 4096) * 4097 + x % 4096];
          guint16 v = (guint16) CLAMP (h * 20.0 + (x * 7 + y * 13) % 5, 0, 65535);

          row[2 * c] = v >> 8; /* PNG is big-endian */
          row[2 * c + 1] = v & 0xff;
        }
      png_write_row (png, row);
    }
  png_write_end (png, info);
  png_destroy_write_struct (&png, &info);
  return fclose (f) == 0;
}

/* The heightmap of @side² samples in @dir: returns what to give the CLI
 * (the folder of tiles, or the one PNG), or NULL. */
static char *
write_heightmap (const char *dir,
                 guint       side)
{
  guint n = side > TILE_SIDE ? (side - 1) / (TILE_SIDE - 1) : 1;
  guint tile = (side - 1) / n + 1;

  if (n == 1)
    {
      char *path = g_build_filename (dir, "height.png", NULL);

      if (!write_tile (path, side, 0, 0, FALSE))
        g_clear_pointer (&path, g_free);
      return path;
    }
  for (guint ty = 0; ty < n; ty++)
    for (guint tx = 0; tx < n; tx++)
      {
        g_autofree char *name = g_strdup_printf ("Height_x%u_y%u.png", tx, ty);
        g_autofree char *path = g_build_filename (dir, name, NULL);

        if (!write_tile (path, tile, tx * (tile - 1), ty * (tile - 1), FALSE))
          return NULL;
      }
  return g_strdup (dir);
}

static void
remove_folder (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

static char *
load_average (void)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) words = NULL;

  if (!g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
    return g_strdup ("?");
  words = g_strsplit (text, " ", 4);
  return g_strjoin (" ", words[0], words[1], words[2], NULL);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

/* Runs `terrain build-atlas ARGS -o OUT` R times through bench-run and
 * prints the medians; @samples (or 0) adds the time per sample. */
static void
measure (const char        *label,
         const char        *out,
         guint64            samples,
         const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree gdouble *wall = g_new (gdouble, n_runs);
  g_autofree gdouble *cpu = g_new (gdouble, n_runs);
  g_autofree gdouble *peak = g_new (gdouble, n_runs);
  g_autofree char *load = load_average ();
  GStatBuf st = { 0 };

  g_ptr_array_add (argv, g_strdup (bench_run_path));
  g_ptr_array_add (argv, g_strdup (terrain_path));
  g_ptr_array_add (argv, g_strdup ("build-atlas"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (args[i]));
  if (n_threads > 0)
    g_ptr_array_add (argv, g_strdup_printf ("--threads=%d", n_threads));
  g_ptr_array_add (argv, g_strdup ("-o"));
  g_ptr_array_add (argv, g_strdup (out));
  g_ptr_array_add (argv, NULL);

  for (gint r = 0; r < n_runs; r++)
    {
      g_autofree char *line = NULL;
      g_autoptr(GError) error = NULL;
      int status = 0, code = -1;
      long kib = 0;

      if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                         &line, NULL, &status, &error) ||
          sscanf (line, "%d %lf %lf %ld", &code, &wall[r], &cpu[r], &kib) != 4 || code != 0)
        {
          printf ("%-40s failed: %s\n", label,
                  error != NULL ? error->message : line != NULL ? line : "no output");
          return;
        }
      peak[r] = kib / 1024.0;
    }
  g_stat (out, &st);
  g_unlink (out);
  qsort (wall, n_runs, sizeof (gdouble), compare_doubles);
  qsort (cpu, n_runs, sizeof (gdouble), compare_doubles);
  qsort (peak, n_runs, sizeof (gdouble), compare_doubles);
  printf ("%-40s wall %8.2f s  CPU %8.2f s  peak %7.1f MiB  out %7.1f MiB", label,
          wall[n_runs / 2], cpu[n_runs / 2], peak[n_runs / 2], st.st_size / 1048576.0);
  if (samples > 0)
    printf ("  %6.1f ns/sample (wall) %6.1f (CPU)", wall[n_runs / 2] * 1e9 / samples,
            cpu[n_runs / 2] * 1e9 / samples);
  printf ("  load %s\n", load);
  fflush (stdout);
}

static char *
scratch_parent (void)
{
  struct statvfs fs;

  if (statvfs ("/dev/shm", &fs) == 0 &&
      (guint64) fs.f_bavail * fs.f_frsize >= G_GUINT64_CONSTANT (6) << 30)
    return g_strdup ("/dev/shm");
  return g_strdup (g_get_tmp_dir ());
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *sizes_text = NULL;
  gboolean no_texture = FALSE;
  GOptionEntry entries[] = {
    { "runs", 0, 0, G_OPTION_ARG_INT, &n_runs, "Runs of each build, median shown (default 1)", "R" },
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes_text,
      "Geometry sizes (default 1025,2049,4097,8193,16385)", "N,N,..." },
    { "threads", 'j', 0, G_OPTION_ARG_INT, &n_threads, "--threads for the CLI", "N" },
    { "no-texture", 0, 0, G_OPTION_ARG_NONE, &no_texture, "Skip the texture builds", NULL },
    { NULL },
  };
  g_autoptr(GOptionContext) context =
    g_option_context_new ("TERRAIN BENCH-RUN - large build-atlas benchmark");
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) sizes = NULL;
  g_autofree char *parent = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *picture = NULL;
  g_autofree char *flat = NULL;
  g_autofree char *out = NULL;
  g_autofree char *machine = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 3 || n_runs < 1)
    {
      g_printerr ("bench-large-build: %s\n",
                  error != NULL ? error->message : "usage: bench-large-build TERRAIN BENCH-RUN");
      return 64;
    }
  terrain_path = argv[1];
  bench_run_path = argv[2];
  sizes = g_strsplit (sizes_text != NULL ? sizes_text : "1025,2049,4097,8193,16385", ",", -1);

  parent = scratch_parent ();
  dir = g_build_filename (parent, "bench-large-build-XXXXXX", NULL);
  if (g_mkdtemp (dir) == NULL)
    {
      g_printerr ("bench-large-build: cannot make a folder in %s\n", parent);
      return 2;
    }
  picture = g_build_filename (dir, "texture.jpg", NULL);
  flat = g_build_filename (dir, "flat.png", NULL);
  out = g_build_filename (dir, "out.atlas", NULL);
  relief = bench_make_noise (4097);
  printf ("# terrain build-atlas, %u processors, scratch %s; medians of %d run(s)\n",
          g_get_num_processors (), parent, n_runs);

  if (!no_texture)
    {
      gint64 start = g_get_monotonic_time ();

      if (!bench_write_picture (picture, 16384) ||
          !write_tile (flat, 257, 0, 0, TRUE))
        {
          g_printerr ("bench-large-build: cannot write the texture\n");
          remove_folder (dir);
          return 2;
        }
      printf ("# wrote the 16384^2 JPEG (%.1f s)\n",
              (g_get_monotonic_time () - start) / 1e6);
      measure ("texture tree, 16384^2 JPEG, flat 257^2", out, 0,
               (const char * const[]) { flat, "--texture", picture, "--texture-depth", "7",
                                        "--tile-size", "256", NULL });
    }

  for (gint i = g_strv_length (sizes) - 1; i >= 0; i--)
    {
      guint side = (guint) g_ascii_strtoull (sizes[i], NULL, 10);
      g_autofree char *sub = NULL;
      g_autofree char *input = NULL;
      g_autofree char *label = NULL;
      gint64 start = g_get_monotonic_time ();

      if (side < 2 || (side - 1) % 1024 != 0)
        {
          printf ("# size %s skipped: not 1024 k + 1\n", sizes[i]);
          continue;
        }
      sub = g_strdup_printf ("%s/height-%u", dir, side);
      g_mkdir (sub, 0700);
      input = write_heightmap (sub, side);
      if (input == NULL)
        {
          printf ("# size %u: cannot write the heightmap\n", side);
          remove_folder (sub);
          continue;
        }
      printf ("# wrote the %u^2 heightmap %s (%.1f s)\n", side,
              side > TILE_SIDE ? "as 2049^2 tiles" : "as one PNG",
              (g_get_monotonic_time () - start) / 1e6);
      if (side == 16385 && !no_texture)
        measure ("16385^2 tiles + 16384^2 texture, 2 m error", out, (guint64) side * side,
                 (const char * const[]) { input, "--vertical-scale", "0.05", "--spacing", "10",
                                          "--error", "2", "--texture", picture,
                                          "--texture-depth", "7", "--tile-size", "256",
                                          NULL });
      label = g_strdup_printf ("geometry %u^2, 2 m error", side);
      measure (label, out, (guint64) side * side,
               (const char * const[]) { input, "--vertical-scale", "0.05", "--spacing", "10",
                                        "--error", "2", NULL });
      remove_folder (sub);
    }

  machine = load_average ();
  printf ("# load average at the end: %s\n", machine);
  g_object_unref (relief);
  remove_folder (dir);
  return 0;
}
