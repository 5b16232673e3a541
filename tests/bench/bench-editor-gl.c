/* bench-editor-gl.c: frame times of the editor's 3D view.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * bench-editor-gl [--frames N] [--size WxH] [--screenshot FILE.png] [--camera SPEC]
 *                 [--generate N | MAP [PALETTE.PAL]]
 *
 * Opens a map (default: ta/maps/ban.tnt of $TERRAIN_CORPUS_DIR) in a window
 * and orbits the camera around it for N frames, each a real GtkGLArea
 * frame. Prints the median and 95th percentile of the draw time (the render
 * handler up to glFinish: with Mesa's llvmpipe that is the whole GPU work)
 * and of the wall time from queueing a frame to the end of its paint, and
 * the process CPU time per frame (all of llvmpipe's threads).
 * Run it under `dbus-run-session -- xvfb-run -a`.
 */

#include "config.h"

#include <epoxy/gl.h>
#include <gtk/gtk.h>
#include <libterrain.h>
#include <math.h>
#include <stdio.h>
#include <sys/resource.h>

#include "terrain-editor-gl-view.h"

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
  terrain_tnt_map_set_sea_level (map, 70);
  return TERRAIN_DOCUMENT (g_steal_pointer (&map));
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
        GArray     *samples)
{
  double *v = (double *) (gpointer) samples->data;

  g_array_sort (samples, compare_doubles);
  g_print ("%-28s median %7.2f ms   p95 %7.2f ms   (min %.2f, max %.2f, %u frames)\n",
           what, v[samples->len / 2], v[MIN (samples->len - 1, samples->len * 95 / 100)],
           v[0], v[samples->len - 1], samples->len);
}

static gboolean
wait_paint (TerrainEditorGlView *view)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  painted = FALSE;
  gtk_gl_area_queue_render (GTK_GL_AREA (view));
  while (!painted && gl_error == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  return painted && gl_error == NULL;
}

int
main (int   argc,
      char *argv[])
{
  int frames = 120;
  char *size = NULL;
  char *screenshot = NULL;
  char *camera = NULL;
  int generate = 0;
  g_auto(GStrv) files = NULL;
  GOptionEntry entries[] = {
    { "frames", 'n', 0, G_OPTION_ARG_INT, &frames, "Frames to draw (120)", "N" },
    { "size", 's', 0, G_OPTION_ARG_STRING, &size, "Window size (1280x800)", "WxH" },
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, &screenshot, "Also write an offscreen render", "FILE" },
    { "generate", 'g', 0, G_OPTION_ARG_INT, &generate, "Draw a generated NxN-cell TNT map instead", "N" },
    { "camera", 0, 0, G_OPTION_ARG_STRING, &camera, "Camera for the screenshot (x,y,yaw,pitch,distance; degrees)", "SPEC" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "[MAP [PALETTE]]" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[MAP [PALETTE]] - 3D view frame times");
  g_autoptr(GError) error = NULL;
  g_autofree char *map_path = NULL;
  g_autofree char *palette_path = NULL;
  g_autoptr(GFile) map_file = NULL;
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(GArray) draw = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) wall = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu = g_array_new (FALSE, FALSE, sizeof (double));
  const char *corpus = g_getenv ("TERRAIN_CORPUS_DIR");
  TerrainEditorGlView *view;
  GtkWidget *window;
  int width = 1280, height = 800;
  double tx, ty, yaw, pitch, distance;

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

  if (files != NULL && files[0] != NULL)
    {
      map_path = g_strdup (files[0]);
      if (files[1] != NULL)
        palette_path = g_strdup (files[1]);
    }
  else if (corpus != NULL)
    map_path = g_build_filename (corpus, "ta", "maps", "ban.tnt", NULL);
  if (palette_path == NULL && corpus != NULL)
    palette_path = g_build_filename (corpus, "ta", "PALETTE.PAL", NULL);

  if (generate > 0)
    {
      g_free (map_path);
      map_path = g_strdup_printf ("generated %dx%d", generate, generate);
      document = generate_map ((guint) generate, &error);
      if (document == NULL)
        {
          g_printerr ("%s\n", error->message);
          return 2;
        }
    }
  else if (map_path == NULL || !g_file_test (map_path, G_FILE_TEST_EXISTS))
    {
      g_print ("SKIP: no map (give one, or set TERRAIN_CORPUS_DIR)\n");
      return 0;
    }
  if (!gtk_init_check ())
    {
      g_print ("SKIP: no display (run under xvfb-run)\n");
      return 0;
    }

  if (document == NULL)
    {
      map_file = g_file_new_for_commandline_arg (map_path);
      document = terrain_document_load (map_file, NULL, NULL, &error);
    }
  if (document == NULL)
    {
      g_printerr ("%s: %s\n", map_path, error->message);
      return 2;
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

  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  view = TERRAIN_EDITOR_GL_VIEW (terrain_editor_gl_view_new ());
  g_signal_connect (view, "gl-failed", G_CALLBACK (gl_failed), NULL);
  terrain_editor_gl_view_set_palette (view, palette);
  terrain_editor_gl_view_set_document (view, document);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));

  /* The first frame realizes and uploads everything: not counted. */
  while (!gtk_widget_get_mapped (GTK_WIDGET (view)) && gl_error == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (view)), "after-paint",
                    G_CALLBACK (after_paint), NULL);
  {
    gint64 start = g_get_monotonic_time ();

    if (!wait_paint (view))
      {
        g_printerr ("no frame: %s\n", gl_error ? gl_error : "timed out");
        return 1;
      }
    g_print ("%s: first frame (upload) %.1f ms\n", map_path,
             (g_get_monotonic_time () - start) / 1000.0);
  }

  terrain_editor_gl_view_get_camera (view, &tx, &ty, &yaw, &pitch, &distance);
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
      gint64 start = g_get_monotonic_time ();
      double cpu_start = cpu_ms ();
      double ms;

      terrain_editor_gl_view_set_camera (view, tx + distance * 0.2 * sin (t * 2 * G_PI),
                                         ty + distance * 0.2 * cos (t * 2 * G_PI),
                                         yaw + t * 2 * G_PI, pitch - 0.25 * sin (t * G_PI),
                                         distance * (0.25 + 0.75 * fabs (cos (t * G_PI))));
      if (!wait_paint (view))
        {
          g_printerr ("frame %d: %s\n", i, gl_error ? gl_error : "timed out");
          return 1;
        }
      ms = (g_get_monotonic_time () - start) / 1000.0;
      g_array_append_val (wall, ms);
      ms = cpu_ms () - cpu_start;
      g_array_append_val (cpu, ms);
      ms = terrain_editor_gl_view_get_last_render_time (view);
      g_array_append_val (draw, ms);
    }

  gtk_gl_area_make_current (GTK_GL_AREA (view));
  g_print ("%s %dx%d, renderer %s\n", map_path, width, height, (const char *) glGetString (GL_RENDERER));
  report ("draw (render + glFinish)", draw);
  report ("frame (queue to paint)", wall);
  report ("frame CPU (all threads)", cpu);

  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
