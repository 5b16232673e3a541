/* bench-editor-gl.c: frame times of the editor's 3D view.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * bench-editor-gl [--frames N] [--size WxH] [--screenshot FILE.png] [--camera SPEC]
 *                 [--case all|tnt|atlas] [--atlas-side N] [--atlas-depth N]
 *                 [--generate N | MAP [PALETTE.PAL]]
 *
 * Without a MAP it runs two cases: ta/maps/ban.tnt of $TERRAIN_CORPUS_DIR,
 * and a generated 4097² Torque Atlas (fixed-seed fractal terrain, 10 m
 * apart, depth 8, a 4096² JPEG texture in 256-pixel tiles) built with
 * TerrainAtlasBuilder into a temporary folder and opened from there. Each
 * is opened in a window and the camera orbits around it for N frames (and,
 * for the Atlas, zooms in to a few chunks' width), each a real GtkGLArea
 * frame. Prints the median and 95th percentile of the draw time (the
 * render handler up to glFinish: with Mesa's llvmpipe that is the whole GPU
 * work, and for the Atlas the decoding of chunks and tiles the frame did)
 * and of the wall time from queueing a frame to the end of its paint, and
 * the process CPU time per frame (all of llvmpipe's threads), and how
 * many frames the view drew at reduced resolution (it does while the
 * camera moves and full frames take over 12 ms). Then, at twelve stops on
 * the same path, the draw time of a full-resolution frame once the view
 * has settled (everything it wants loaded). For the
 * Atlas also: the time from opening to the first complete frame (the view
 * asks for frames until every chunk and tile it wants is loaded), chunks
 * and triangles drawn, and the GPU caches.
 * Run it under `dbus-run-session -- xvfb-run -a`.
 */

#include "config.h"

#include <epoxy/gl.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <libterrain.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "terrain-editor-gl-view.h"
#include "bench-noise.h"

static gboolean painted;
static char *gl_error;

static void
after_paint (GdkFrameClock *clock,
             gpointer       data)
{
  painted = TRUE;
}

static void
gl_failed (TerrainEditorGlView *view,
           const char          *message,
           gpointer             data)
{
  gl_error = g_strdup (message);
}

/* Rolling hills from a few sine octaves, on tiles of eight shades. */
static TerrainDocument *
generate_map (guint    side,
              GError **error)
{
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (side, side, error);
  g_autofree guint8 *tiles = NULL;
  g_autofree guint16 *entries = NULL;
  guint columns, rows;

  if (map == NULL)
    return NULL;
  tiles = g_new (guint8, 8 * TERRAIN_TNT_TILE_BYTES);
  for (guint t = 0; t < 8; t++)
    for (guint i = 0; i < TERRAIN_TNT_TILE_BYTES; i++)
      tiles[t * TERRAIN_TNT_TILE_BYTES + i] = (guint8) (t * 16 + 32 + g_random_int_range (0, 8));
  if (!terrain_tnt_map_set_tiles (map, tiles, 8, error))
    return NULL;
  columns = terrain_tnt_map_get_tile_columns (map);
  rows = terrain_tnt_map_get_tile_rows (map);
  entries = g_new (guint16, columns * rows);
  for (guint i = 0; i < columns * rows; i++)
    entries[i] = (guint16) g_random_int_range (0, 8);
  terrain_tnt_map_set_tile_map (map, entries);

  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      {
        double h = 110 + 50 * sin (x * 0.021) * cos (y * 0.017) + 25 * sin (x * 0.09 + y * 0.05) +
                   10 * cos (x * 0.31 - y * 0.23);

        terrain_tnt_map_set_cell_height (map, x, y, (guint8) CLAMP (h, 0, 255));
      }
  terrain_tnt_map_set_sea_level (map, 70, NULL);
  return TERRAIN_DOCUMENT (g_steal_pointer (&map));
}

/* A picture of the terrain, north up: colour by height (meadow, forest,
 * rock, snow), hill-shaded, with a little grain. */
static TerrainImage *
make_texture (TerrainHeightfield *field,
              guint               side)
{
  static const float ramp[][4] = {
    { 0.00f, 0.36f, 0.52f, 0.22f }, { 0.35f, 0.20f, 0.40f, 0.16f }, { 0.60f, 0.45f, 0.40f, 0.30f },
    { 0.80f, 0.55f, 0.53f, 0.50f }, { 0.92f, 0.95f, 0.95f, 0.97f }, { 1.00f, 0.98f, 0.98f, 1.00f },
  };
  guint fw = terrain_heightfield_get_width (field), fh = terrain_heightfield_get_height (field);
  const gfloat *heights = terrain_heightfield_get_data (field, NULL);
  TerrainImage *image = terrain_image_new (TERRAIN_IMAGE_RGBA8, side, side, NULL);
  guint8 *pixels = terrain_image_get_data (image, NULL);
  gsize stride = terrain_image_get_stride (image);
  float lo = G_MAXFLOAT, hi = -G_MAXFLOAT;
  guint32 grain = 1;

  for (gsize i = 0; i < (gsize) fw * fh; i++)
    {
      lo = MIN (lo, heights[i]);
      hi = MAX (hi, heights[i]);
    }

  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      {
        guint sx = MIN (x * (fw - 1) / (side - 1), fw - 2);
        guint sy = MIN (y * (fh - 1) / (side - 1), fh - 2);
        float h = heights[(gsize) sy * fw + sx];
        float dx = heights[(gsize) sy * fw + sx + 1] - h;
        float dy = heights[(gsize) (sy + 1) * fw + sx] - h;
        float t = (h - lo) / MAX (hi - lo, 1e-3f);
        float shade = CLAMP (0.85f - (dx * 0.6f - dy * 0.5f) / 10.0f, 0.45f, 1.15f);
        float c[3];
        guint k = 0;
        guint8 *p = pixels + y * stride + x * 4;

        while (k + 2 < G_N_ELEMENTS (ramp) && t > ramp[k + 1][0])
          k++;
        {
          float f = CLAMP ((t - ramp[k][0]) / (ramp[k + 1][0] - ramp[k][0]), 0.0f, 1.0f);

          for (guint i = 0; i < 3; i++)
            c[i] = ramp[k][i + 1] * (1 - f) + ramp[k + 1][i + 1] * f;
        }
        grain = grain * 1664525u + 1013904223u;
        for (guint i = 0; i < 3; i++)
          p[i] = (guint8) CLAMP ((c[i] * shade + ((grain >> 24) / 255.0f - 0.5f) * 0.06f) * 255,
                                 0, 255);
        p[3] = 255;
      }
  return image;
}

/* Builds the Atlas to @dir/generated.atlas and opens it (memory-mapped,
 * as the editor does). */
static TerrainDocument *
generate_atlas (const char  *dir,
                guint        side,
                guint        depth,
                GError     **error)
{
  g_autoptr(TerrainHeightfield) field = bench_make_noise (side);
  g_autoptr(TerrainImage) texture = NULL;
  g_autoptr(TerrainAtlasBuilder) builder = NULL;
  g_autofree char *path = g_build_filename (dir, "generated.atlas", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  const TerrainAtlasBuildStats *stats;
  gint64 start = g_get_monotonic_time ();

  texture = make_texture (field, side - 1);
  builder = terrain_atlas_builder_new (field);
  terrain_atlas_builder_set_tree_depth (builder, depth);
  terrain_atlas_builder_set_texture_image (builder, texture);
  terrain_atlas_builder_set_texture_format (builder, TERRAIN_ATLAS_TEXTURE_JPEG, 85);
  terrain_atlas_builder_set_tile_size (builder, 256);
  if (!terrain_atlas_builder_build_to_file (builder, file, NULL, error))
    return NULL;
  stats = terrain_atlas_builder_get_stats (builder);
  g_print ("built %u² Atlas in %.2f s: depth %u (leaves of %u cells), %u chunks, %"
           G_GUINT64_FORMAT " triangles, %u texture tiles, %.1f MB\n",
           side, (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC, stats->tree_depth,
           stats->leaf_size, stats->n_chunks, stats->n_triangles + stats->n_skirt_triangles,
           stats->n_texture_tiles, stats->file_size / 1048576.0);
  return terrain_document_load (file, NULL, NULL, error);
}

/* CPU time of the whole process (llvmpipe's threads included), ms: less
 * sensitive than wall time to other work on the machine. */
static double
cpu_ms (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec * 1000.0 + usage.ru_utime.tv_usec / 1000.0 +
         usage.ru_stime.tv_sec * 1000.0 + usage.ru_stime.tv_usec / 1000.0;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static void
report (const char *what,
        GArray     *samples,
        const char *unit)
{
  double *v = (double *) (gpointer) samples->data;

  g_array_sort (samples, compare_doubles);
  g_print ("%-28s median %9.2f %s   p95 %9.2f %s   (min %.2f, max %.2f, %u frames)\n",
           what, v[samples->len / 2], unit,
           v[MIN (samples->len - 1, samples->len * 95 / 100)], unit,
           v[0], v[samples->len - 1], samples->len);
}

static gboolean
wait_paint (TerrainEditorGlView *view,
            gboolean             queue)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  painted = FALSE;
  if (queue)
    gtk_gl_area_queue_render (GTK_GL_AREA (view));
  while (!painted && gl_error == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  return painted && gl_error == NULL;
}

/* The orbit: once around the map while zooming from the overview to
 * @closest of the distance and back. */
static void
camera_at (TerrainEditorGlView *view,
           const double        *start,
           double               closest,
           double               t)
{
  double tx = start[0], ty = start[1], yaw = start[2], pitch = start[3], distance = start[4];

  terrain_editor_gl_view_set_camera (view, tx + distance * 0.2 * sin (t * 2 * G_PI),
                                     ty + distance * 0.2 * cos (t * 2 * G_PI),
                                     yaw + t * 2 * G_PI, pitch - 0.25 * sin (t * G_PI),
                                     distance * (closest + (1 - closest) * fabs (cos (t * G_PI))));
}

/* After the camera stopped: the view draws a full-resolution frame and
 * (Atlas) loads what it still wants. */
static gboolean
wait_settled (TerrainEditorGlView *view)
{
  TerrainEditorAtlasStats stats;

  for (;;)
    {
      terrain_editor_gl_view_get_atlas_stats (view, &stats);
      if (!terrain_editor_gl_view_get_last_frame_reduced (view) && stats.n_pending == 0)
        return TRUE;
      if (!wait_paint (view, FALSE))
        return FALSE;
    }
}

static char *
screenshot_name (const char *screenshot,
                 const char *tag,
                 gboolean    several)
{
  const char *dot = strrchr (screenshot, '.');

  if (!several)
    return g_strdup (screenshot);
  if (dot == NULL)
    return g_strdup_printf ("%s-%s", screenshot, tag);
  return g_strdup_printf ("%.*s-%s%s", (int) (dot - screenshot), screenshot, tag, dot);
}

static int
run_case (const char      *label,
          TerrainDocument *document,
          TerrainPalette  *palette,
          int              width,
          int              height,
          int              frames,
          double           closest,
          const char      *screenshot,
          const char      *camera)
{
  g_autoptr(GArray) draw = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) full = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) still = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) wall = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) chunks = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) triangles = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) decode = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GError) error = NULL;
  TerrainEditorAtlasStats stats;
  TerrainEditorGlView *view;
  GtkWidget *window;
  double tx, ty, yaw, pitch, distance, path[5];
  gboolean atlas;
  guint max_level = 0, most_geometry = 0, most_textures = 0;
  gsize most_geometry_bytes = 0, most_texture_bytes = 0;
  gint64 start;

  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  view = TERRAIN_EDITOR_GL_VIEW (terrain_editor_gl_view_new ());
  g_signal_connect (view, "gl-failed", G_CALLBACK (gl_failed), NULL);
  terrain_editor_gl_view_set_palette (view, palette);
  start = g_get_monotonic_time ();
  terrain_editor_gl_view_set_document (view, document);
  atlas = terrain_editor_gl_view_get_atlas_stats (view, &stats);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));

  /* The first frame realizes and uploads everything: not counted. */
  while (!gtk_widget_get_mapped (GTK_WIDGET (view)) && gl_error == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (view)), "after-paint",
                    G_CALLBACK (after_paint), NULL);
  if (!wait_paint (view, TRUE))
    {
      g_printerr ("no frame: %s\n", gl_error ? gl_error : "timed out");
      return 1;
    }
  g_print ("%s: first frame (upload) %.1f ms after opening\n", label,
           (g_get_monotonic_time () - start) / 1000.0);

  if (atlas)
    {
      /* The view asks for frames itself while chunks and tiles load. */
      guint n = 1;

      terrain_editor_gl_view_get_atlas_stats (view, &stats);
      while (stats.n_pending > 0)
        {
          if (!wait_paint (view, FALSE))
            {
              g_printerr ("settling: %s\n", gl_error ? gl_error : "timed out");
              return 1;
            }
          n++;
          terrain_editor_gl_view_get_atlas_stats (view, &stats);
        }
      g_print ("%s: first complete frame %.1f ms after opening (%u frames): %u chunks, %"
               G_GUINT64_FORMAT " triangles, deepest level %u, geometry cache %u chunks %.1f MB, "
               "texture cache %u tiles %.1f MB\n",
               label, (g_get_monotonic_time () - start) / 1000.0, n, stats.n_chunks_drawn,
               stats.n_triangles_drawn, stats.max_level_drawn, stats.n_geometry_cached,
               stats.geometry_bytes / 1048576.0, stats.n_textures_cached,
               stats.texture_bytes / 1048576.0);
    }

  terrain_editor_gl_view_get_camera (view, &tx, &ty, &yaw, &pitch, &distance);
  path[0] = tx;
  path[1] = ty;
  path[2] = yaw;
  path[3] = pitch;
  path[4] = distance;
  if (screenshot != NULL)
    {
      g_autoptr(TerrainImage) image = NULL;
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (screenshot);
      double c[5];

      if (camera != NULL &&
          sscanf (camera, "%lf,%lf,%lf,%lf,%lf", &c[0], &c[1], &c[2], &c[3], &c[4]) == 5)
        terrain_editor_gl_view_set_camera (view, c[0], c[1], c[2] * G_PI / 180, c[3] * G_PI / 180, c[4]);
      image = terrain_editor_gl_view_render_image (view, (guint) width, (guint) height, &error);

      if (image == NULL || !terrain_image_save_png (image, file, NULL, &error))
        {
          g_printerr ("%s: %s\n", screenshot, error->message);
          return 2;
        }
      terrain_editor_gl_view_set_camera (view, tx, ty, yaw, pitch, distance);
    }

  /* Orbit once around the map while zooming from the overview to a close
   * view and back: every LOD level and the tile/overview blend get drawn. */
  for (int i = 0; i < frames; i++)
    {
      double t = (double) i / MAX (frames, 1);
      gint64 frame_start = g_get_monotonic_time ();
      double cpu_start = cpu_ms ();
      double ms;

      camera_at (view, path, closest, t);
      if (!wait_paint (view, TRUE))
        {
          g_printerr ("frame %d: %s\n", i, gl_error ? gl_error : "timed out");
          return 1;
        }
      ms = (g_get_monotonic_time () - frame_start) / 1000.0;
      g_array_append_val (wall, ms);
      ms = cpu_ms () - cpu_start;
      g_array_append_val (cpu, ms);
      ms = terrain_editor_gl_view_get_last_render_time (view);
      g_array_append_val (draw, ms);
      if (!terrain_editor_gl_view_get_last_frame_reduced (view))
        g_array_append_val (full, ms);
      if (atlas)
        {
          double v;

          terrain_editor_gl_view_get_atlas_stats (view, &stats);
          v = stats.n_chunks_drawn;
          g_array_append_val (chunks, v);
          v = (double) stats.n_triangles_drawn;
          g_array_append_val (triangles, v);
          v = stats.decode_ms;
          g_array_append_val (decode, v);
          max_level = MAX (max_level, stats.max_level_drawn);
          most_geometry = MAX (most_geometry, stats.n_geometry_cached);
          most_textures = MAX (most_textures, stats.n_textures_cached);
          most_geometry_bytes = MAX (most_geometry_bytes, stats.geometry_bytes);
          most_texture_bytes = MAX (most_texture_bytes, stats.texture_bytes);
        }
    }

  /* Twelve stops on the same path: once the view settled, one more frame
   * at full resolution with everything it needs loaded. */
  for (int i = 0; i < 12 && frames > 0; i++)
    {
      double ms;

      camera_at (view, path, closest, i / 12.0);
      if (!wait_paint (view, TRUE) || !wait_settled (view) || !wait_paint (view, TRUE))
        {
          g_printerr ("stop %d: %s\n", i, gl_error ? gl_error : "timed out");
          return 1;
        }
      ms = terrain_editor_gl_view_get_last_render_time (view);
      g_array_append_val (still, ms);
    }

  gtk_gl_area_make_current (GTK_GL_AREA (view));
  g_print ("%s %dx%d, renderer %s\n", label, width, height, (const char *) glGetString (GL_RENDERER));
  if (frames <= 0)
    {
      gtk_window_destroy (GTK_WINDOW (window));
      return 0;
    }
  report ("draw (render + glFinish)", draw, "ms");
  if (full->len > 0 && full->len < draw->len)
    report ("  of it full-resolution", full, "ms");
  g_print ("%u of %u frames drawn at reduced resolution\n", draw->len - full->len, draw->len);
  report ("full frame, camera still", still, "ms");
  report ("frame (queue to paint)", wall, "ms");
  report ("frame CPU (all threads)", cpu, "ms");
  if (atlas)
    {
      report ("decoding in the frame", decode, "ms");
      report ("chunks drawn", chunks, "  ");
      report ("triangles drawn", triangles, "  ");
      g_print ("deepest level drawn %u of %u; caches at most: geometry %u chunks %.1f MB "
               "(budget %.0f MB), textures %u tiles %.1f MB (budget %.0f MB); %u failed\n",
               max_level, stats.geometry_depth - 1, most_geometry, most_geometry_bytes / 1048576.0,
               stats.geometry_budget / 1048576.0, most_textures, most_texture_bytes / 1048576.0,
               stats.texture_budget / 1048576.0, stats.n_failed);
    }
  g_print ("\n");

  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  int frames = 120;
  char *size = NULL;
  char *screenshot = NULL;
  char *camera = NULL;
  char *which = NULL;
  int generate = 0;
  int atlas_side = 4097;
  int atlas_depth = 8;
  g_auto(GStrv) files = NULL;
  GOptionEntry entries[] = {
    { "frames", 'n', 0, G_OPTION_ARG_INT, &frames, "Frames to draw (120)", "N" },
    { "size", 's', 0, G_OPTION_ARG_STRING, &size, "Window size (1280x800)", "WxH" },
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, &screenshot, "Also write an offscreen render", "FILE" },
    { "generate", 'g', 0, G_OPTION_ARG_INT, &generate, "Draw a generated NxN-cell TNT map instead", "N" },
    { "camera", 0, 0, G_OPTION_ARG_STRING, &camera, "Camera for the screenshot (x,y,yaw,pitch,distance; degrees)", "SPEC" },
    { "case", 0, 0, G_OPTION_ARG_STRING, &which,
      "Cases without a MAP: all, tnt or atlas (all)", "CASE" },
    { "atlas-side", 0, 0, G_OPTION_ARG_INT, &atlas_side,
      "Samples a side of the generated Atlas (4097)", "N" },
    { "atlas-depth", 0, 0, G_OPTION_ARG_INT, &atlas_depth,
      "Tree depth of the generated Atlas (8)", "N" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "[MAP [PALETTE]]" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[MAP [PALETTE]] - 3D view frame times");
  g_autoptr(GError) error = NULL;
  g_autofree char *map_path = NULL;
  g_autofree char *palette_path = NULL;
  g_autofree char *scratch = NULL;
  g_autoptr(TerrainPalette) palette = NULL;
  const char *corpus = g_getenv ("TERRAIN_CORPUS_DIR");
  gboolean run_tnt, run_atlas, several;
  int width = 1280, height = 800, status = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 64;
    }
  if (size != NULL && sscanf (size, "%dx%d", &width, &height) != 2)
    {
      g_printerr ("--size wants WxH\n");
      return 64;
    }
  if (atlas_side < 3 || ((atlas_side - 1) & (atlas_side - 2)) != 0)
    {
      g_printerr ("--atlas-side wants 2^n + 1\n");
      return 64;
    }

  if (files != NULL && files[0] != NULL)
    {
      map_path = g_strdup (files[0]);
      if (files[1] != NULL)
        palette_path = g_strdup (files[1]);
    }
  else if (corpus != NULL && generate == 0)
    map_path = g_build_filename (corpus, "ta", "maps", "ban.tnt", NULL);
  if (palette_path == NULL && corpus != NULL)
    palette_path = g_build_filename (corpus, "ta", "PALETTE.PAL", NULL);

  /* A given MAP or --generate is the only case; otherwise ban.tnt and the
   * generated Atlas, or the one --case names. */
  run_tnt = g_strcmp0 (which, "atlas") != 0;
  run_atlas = files == NULL && generate == 0 && g_strcmp0 (which, "tnt") != 0;
  if (run_tnt && generate == 0 && (map_path == NULL || !g_file_test (map_path, G_FILE_TEST_EXISTS)))
    {
      g_print ("SKIP TNT case: no map (give one, or set TERRAIN_CORPUS_DIR)\n");
      run_tnt = FALSE;
    }
  several = run_tnt && run_atlas;
  if (!gtk_init_check ())
    {
      g_print ("SKIP: no display (run under xvfb-run)\n");
      return 0;
    }

  if (palette_path != NULL && g_file_test (palette_path, G_FILE_TEST_EXISTS))
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (palette_path);

      palette = terrain_palette_new_from_file (file, NULL, &error);
      if (palette == NULL)
        {
          g_printerr ("%s: %s\n", palette_path, error->message);
          return 2;
        }
    }

  if (run_tnt)
    {
      g_autoptr(TerrainDocument) document = NULL;
      g_autofree char *shot = NULL;

      if (screenshot != NULL)
        shot = screenshot_name (screenshot, "tnt", several);

      if (generate > 0)
        {
          g_free (map_path);
          map_path = g_strdup_printf ("generated %dx%d", generate, generate);
          document = generate_map ((guint) generate, &error);
        }
      else
        {
          g_autoptr(GFile) file = g_file_new_for_commandline_arg (map_path);

          document = terrain_document_load (file, NULL, NULL, &error);
        }
      if (document == NULL)
        {
          g_printerr ("%s: %s\n", map_path, error->message);
          return 2;
        }
      status = run_case (map_path, document, palette, width, height, frames,
                         TERRAIN_IS_ATLAS_FILE (document) ? 0.05 : 0.25, shot, camera);
    }

  if (run_atlas && status == 0)
    {
      g_autoptr(TerrainDocument) document = NULL;
      g_autofree char *label = g_strdup_printf ("generated %d² Atlas", atlas_side);
      g_autofree char *shot = NULL;
      g_autofree char *path = NULL;

      if (screenshot != NULL)
        shot = screenshot_name (screenshot, "atlas", several);
      scratch = g_dir_make_tmp ("bench-editor-gl-XXXXXX", &error);
      if (scratch == NULL)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      document = generate_atlas (scratch, (guint) atlas_side, (guint) atlas_depth, &error);
      if (document == NULL)
        status = 2;
      else
        status = run_case (label, document, palette, width, height, frames, 0.05, shot, camera);
      if (error != NULL)
        g_printerr ("%s: %s\n", label, error->message);
      g_clear_object (&document);
      path = g_build_filename (scratch, "generated.atlas", NULL);
      g_unlink (path);
      g_rmdir (scratch);
    }

  return status;
}
