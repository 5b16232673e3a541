/* bench-editor-launch.c: launch to first frame of the editor on a TNT map.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-editor-launch [--runs N] [MAP [PALETTE.PAL]]
 *
 * Starts the editor application in this process (the clock starts before
 * GTK is initialised), opens MAP (default: ta/maps/ban.tnt of
 * $TERRAIN_CORPUS_DIR, with its PALETTE.PAL) in a window as
 * `terrain-editor MAP` does, and reports from the start: the window's first
 * painted frame, the first frame with a picture of the map in the 2D view
 * (possibly a coarse one while the rest loads), the end of loading, and the
 * first frame with the full picture. Each run is a fresh window in the
 * same process (the first also pays for GTK's start-up; the table in
 * docs/performance.md gives the first run and the median). Run it under
 * `dbus-run-session -- xvfb-run -a`.
 */

#include "config.h"

#include <gtk/gtk.h>
#include <libterrain.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "terrain-editor-application.h"
#include "terrain-editor-map-view.h"
#include "terrain-editor-window.h"

typedef struct
{
  gint64               start;
  TerrainEditorWindow *window;
  double               first_frame;
  double               first_picture;
  double               loaded;
  double               full_picture;
} Run;

static double
since (const Run *run)
{
  return (g_get_monotonic_time () - run->start) / 1000.0;
}

static void
after_paint (GdkFrameClock *clock,
             Run           *run)
{
  TerrainEditorMapView *view = TERRAIN_EDITOR_MAP_VIEW (terrain_editor_window_get_map_view (run->window));
  TerrainEditorMapPicture picture = terrain_editor_map_view_get_picture (view);

  if (run->first_frame < 0)
    run->first_frame = since (run);
  if (run->first_picture < 0 && picture != TERRAIN_EDITOR_MAP_PICTURE_NONE)
    run->first_picture = since (run);
  if (run->full_picture < 0 && picture == TERRAIN_EDITOR_MAP_PICTURE_FULL)
    run->full_picture = since (run);
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof *v, compare_doubles);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int
main (int    argc,
      char **argv)
{
  gint64 process_start = g_get_monotonic_time ();
  const char *corpus = g_getenv ("TERRAIN_CORPUS_DIR");
  g_autofree char *map_path = NULL;
  g_autofree char *palette_path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainEditorApplication) app = NULL;
  g_autofree double *frames = NULL, *pictures = NULL, *loads = NULL, *fulls = NULL;
  guint runs = 5;
  int arg = 1;

  if (arg + 1 < argc && strcmp (argv[arg], "--runs") == 0)
    {
      runs = (guint) MAX (1, atoi (argv[arg + 1]));
      arg += 2;
    }
  if (arg < argc)
    {
      map_path = g_strdup (argv[arg]);
      palette_path = arg + 1 < argc ? g_strdup (argv[arg + 1]) : NULL;
    }
  else if (corpus != NULL)
    {
      map_path = g_build_filename (corpus, "ta", "maps", "ban.tnt", NULL);
      palette_path = g_build_filename (corpus, "ta", "PALETTE.PAL", NULL);
    }
  if (map_path == NULL || !g_file_test (map_path, G_FILE_TEST_EXISTS))
    {
      fprintf (stderr, "bench-editor-launch: give a MAP or set TERRAIN_CORPUS_DIR\n");
      return 2;
    }

  g_set_prgname ("terrain-editor");
  g_set_application_name ("Terrain Editor");
  gtk_init ();
  app = terrain_editor_application_new (G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    {
      fprintf (stderr, "bench-editor-launch: %s\n", error->message);
      return 1;
    }
  g_application_hold (G_APPLICATION (app));
  g_settings_set_string (terrain_editor_application_get_settings (app), "palette-path",
                         palette_path != NULL ? palette_path : "");

  frames = g_new (double, runs);
  pictures = g_new (double, runs);
  loads = g_new (double, runs);
  fulls = g_new (double, runs);
  printf ("%s, %u runs\n", map_path, runs);
  printf ("run  first frame  first picture   loaded  full picture   (ms from start)\n");
  for (guint i = 0; i < runs; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (map_path);
      Run run = { i == 0 ? process_start : g_get_monotonic_time (), NULL, -1, -1, -1, -1 };
      gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
      GdkFrameClock *clock = NULL;
      gulong id = 0;

      run.window = TERRAIN_EDITOR_WINDOW (terrain_editor_application_open_file (app, file));
      while ((run.full_picture < 0 || run.loaded < 0) && g_get_monotonic_time () < deadline)
        {
          if (clock == NULL && gtk_widget_get_realized (GTK_WIDGET (run.window)))
            {
              clock = gtk_widget_get_frame_clock (GTK_WIDGET (run.window));
              id = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint), &run);
            }
          if (run.loaded < 0 && !terrain_editor_window_get_busy (run.window))
            run.loaded = since (&run);
          g_main_context_iteration (NULL, TRUE);
        }
      if (clock != NULL)
        g_signal_handler_disconnect (clock, id);
      printf ("%3u  %11.0f  %13.0f  %7.0f  %12.0f\n", i + 1, run.first_frame, run.first_picture, run.loaded,
              run.full_picture);
      frames[i] = run.first_frame;
      pictures[i] = run.first_picture;
      loads[i] = run.loaded;
      fulls[i] = run.full_picture;
      gtk_window_destroy (GTK_WINDOW (run.window));
      for (gint64 end = g_get_monotonic_time () + 200000; g_get_monotonic_time () < end;)
        g_main_context_iteration (NULL, FALSE);
    }
  printf ("median %9.0f  %13.0f  %7.0f  %12.0f\n", median (frames, runs), median (pictures, runs),
          median (loads, runs), median (fulls, runs));
  g_application_release (G_APPLICATION (app));
  return 0;
}
