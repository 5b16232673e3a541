/* test-editor-gl.c: the editor's 3D view on a generated map (and ban.tnt
 * from the corpus), rendered under Xvfb and read back.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <libterrain.h>

#include "terrain-editor-gl-view.h"

typedef struct
{
  GtkWidget           *window;
  TerrainEditorGlView *view;
  char                *gl_error;
} Fixture;

static void
gl_failed (TerrainEditorGlView *view,
           const char          *message,
           Fixture             *fixture)
{
  g_free (fixture->gl_error);
  fixture->gl_error = g_strdup (message);
}

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Spins the main loop until the view has drawn a frame on screen. */
static void
wait_for_frame (Fixture *fixture)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (20, timeout_cb, &timed_out);

  while (!timed_out && fixture->gl_error == NULL &&
         terrain_editor_gl_view_get_last_render_time (fixture->view) <= 0)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  g_assert_null (fixture->gl_error);
  g_assert_false (timed_out);
}

static void
fixture_setup (Fixture    *fixture,
               TerrainDocument *document,
               TerrainPalette  *palette)
{
  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 400, 300);
  fixture->view = TERRAIN_EDITOR_GL_VIEW (terrain_editor_gl_view_new ());
  g_signal_connect (fixture->view, "gl-failed", G_CALLBACK (gl_failed), fixture);
  terrain_editor_gl_view_set_palette (fixture->view, palette);
  terrain_editor_gl_view_set_document (fixture->view, document);
  gtk_window_set_child (GTK_WINDOW (fixture->window), GTK_WIDGET (fixture->view));
  gtk_window_present (GTK_WINDOW (fixture->window));
  wait_for_frame (fixture);
}

static void
fixture_teardown (Fixture *fixture)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_clear_pointer (&fixture->gl_error, g_free);
}

static TerrainPalette *
make_palette (void)
{
  guint8 rgb[256 * 3];

  for (guint i = 0; i < 256; i++)
    {
      rgb[i * 3 + 0] = (guint8) i;
      rgb[i * 3 + 1] = (guint8) (255 - i);
      rgb[i * 3 + 2] = (guint8) ((i * 7) & 0xff);
    }
  return terrain_palette_new_from_rgb (rgb, 256);
}

/* 64 x 48 cells: four striped tiles in a checkerboard, a round hill, a
 * feature. */
static TerrainTntMap *
make_map (void)
{
  g_autoptr(GError) error = NULL;
  TerrainTntMap *map = terrain_tnt_map_new (64, 48, &error);
  guint8 tiles[4 * TERRAIN_TNT_TILE_BYTES];
  g_autofree guint16 *entries = NULL;
  guint columns, rows;

  g_assert_no_error (error);
  for (guint t = 0; t < 4; t++)
    for (guint i = 0; i < TERRAIN_TNT_TILE_BYTES; i++)
      tiles[t * TERRAIN_TNT_TILE_BYTES + i] = (guint8) (t * 60 + ((i / 32 + i % 32) / 8) * 10);
  g_assert_true (terrain_tnt_map_set_tiles (map, tiles, 4, &error));
  g_assert_no_error (error);

  columns = terrain_tnt_map_get_tile_columns (map);
  rows = terrain_tnt_map_get_tile_rows (map);
  entries = g_new (guint16, columns * rows);
  for (guint r = 0; r < rows; r++)
    for (guint c = 0; c < columns; c++)
      entries[r * columns + c] = (guint16) ((r / 4 + c / 4) % 4);
  terrain_tnt_map_set_tile_map (map, entries);

  for (guint y = 0; y < 48; y++)
    for (guint x = 0; x < 64; x++)
      {
        double d = hypot (x - 32.0, y - 24.0);

        terrain_tnt_map_set_cell_height (map, x, y, (guint8) CLAMP (200 - d * 8, 20, 255));
      }
  terrain_tnt_map_set_sea_level (map, 10);

  terrain_tnt_map_add_feature_name (map, "Tree1");
  g_assert_true (terrain_tnt_map_set_cell_feature (map, 10, 10, 0, &error));
  g_assert_no_error (error);

  return map;
}

static TerrainImage *
render (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  TerrainImage *image = terrain_editor_gl_view_render_image (fixture->view, 200, 150, &error);

  g_assert_no_error (error);
  g_assert_nonnull (image);
  return image;
}

static guint
count_colors (TerrainImage *image)
{
  g_autoptr(GHashTable) colors = g_hash_table_new (NULL, NULL);
  const guint32 *data = (const guint32 *) (gconstpointer) terrain_image_get_data (image, NULL);
  gsize n = (gsize) terrain_image_get_width (image) * terrain_image_get_height (image);

  for (gsize i = 0; i < n; i++)
    g_hash_table_add (colors, GUINT_TO_POINTER (data[i]));
  return g_hash_table_size (colors);
}

static gboolean
images_equal (TerrainImage *a,
              TerrainImage *b)
{
  gsize na, nb;
  const guint8 *da = terrain_image_get_data (a, &na);
  const guint8 *db = terrain_image_get_data (b, &nb);

  return na == nb && memcmp (da, db, na) == 0;
}

static guint
count_blueish (TerrainImage *image)
{
  gsize size;
  const guint8 *d = terrain_image_get_data (image, &size);
  guint n = 0;

  for (gsize i = 0; i + 3 < size; i += 4)
    n += d[i + 2] > d[i] + 40 && d[i + 2] > d[i + 1];
  return n;
}

static void
save_image (TerrainImage *image,
            const char   *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                                            name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  g_assert_true (terrain_image_save_png (image, file, NULL, &error));
  g_assert_no_error (error);
  g_test_message ("screenshot: %s", path);
}

static void
test_generated (void)
{
  g_autoptr(TerrainTntMap) map = make_map ();
  g_autoptr(TerrainPalette) palette = make_palette ();
  g_autoptr(TerrainImage) first = NULL;
  g_autoptr(TerrainImage) again = NULL;
  g_autoptr(TerrainImage) flooded = NULL;
  g_autoptr(TerrainImage) edited = NULL;
  g_autoptr(TerrainImage) retiled = NULL;
  Fixture fixture = { 0 };
  double mx, my;

  fixture_setup (&fixture, TERRAIN_DOCUMENT (map), palette);

  first = render (&fixture);
  g_assert_cmpuint (count_colors (first), >, 50);

  /* Deterministic: the same state draws the same picture. */
  again = render (&fixture);
  g_assert_true (images_equal (first, again));

  /* A higher sea covers more of the map in water. */
  terrain_tnt_map_set_sea_level (map, 150);
  flooded = render (&fixture);
  g_assert_false (images_equal (first, flooded));
  g_assert_cmpuint (count_blueish (flooded), >, count_blueish (first));

  /* A height edit reaches the view through cells-changed. */
  {
    guint8 flat[16 * 16];

    memset (flat, 0, sizeof flat);
    terrain_tnt_map_set_heights (map, 24, 16, 16, 16, flat, 16);
  }
  edited = render (&fixture);
  g_assert_false (images_equal (flooded, edited));

  /* A tile edit reaches it through tiles-changed. */
  terrain_tnt_map_set_tile_index (map, 0, 0, 3);
  terrain_tnt_map_set_tile_index (map, 16, 12, 0);
  terrain_editor_gl_view_set_brush (fixture.view, TRUE, 32, 24, 6);
  retiled = render (&fixture);
  g_assert_false (images_equal (edited, retiled));
  save_image (retiled, "editor-3d-generated.png");

  /* A ray through the middle of the widget lands on the map near the
   * orbit target. */
  g_assert_true (terrain_editor_gl_view_pick (fixture.view,
                                              gtk_widget_get_width (GTK_WIDGET (fixture.view)) / 2.0,
                                              gtk_widget_get_height (GTK_WIDGET (fixture.view)) / 2.0,
                                              &mx, &my));
  g_assert_cmpfloat (fabs (mx - 32), <, 4);
  g_assert_cmpfloat (fabs (my - 24), <, 4);

  fixture_teardown (&fixture);
}

static void
test_ban (void)
{
  const char *dir = g_getenv ("TERRAIN_CORPUS_DIR");
  g_autofree char *tnt = NULL;
  g_autofree char *pal = NULL;
  g_autoptr(GFile) tnt_file = NULL;
  g_autoptr(GFile) pal_file = NULL;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GError) error = NULL;
  Fixture fixture = { 0 };
  guint w, h;

  if (dir == NULL)
    {
      g_test_skip ("TERRAIN_CORPUS_DIR is not set");
      return;
    }
  tnt = g_build_filename (dir, "ta", "maps", "ban.tnt", NULL);
  pal = g_build_filename (dir, "ta", "PALETTE.PAL", NULL);
  if (!g_file_test (tnt, G_FILE_TEST_EXISTS) || !g_file_test (pal, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("ban.tnt or PALETTE.PAL is not in the corpus");
      return;
    }

  tnt_file = g_file_new_for_path (tnt);
  map = terrain_tnt_map_new_from_file (tnt_file, NULL, NULL, &error);
  g_assert_no_error (error);
  pal_file = g_file_new_for_path (pal);
  palette = terrain_palette_new_from_file (pal_file, NULL, &error);
  g_assert_no_error (error);

  fixture_setup (&fixture, TERRAIN_DOCUMENT (map), palette);

  w = terrain_tnt_map_get_width (map);
  h = terrain_tnt_map_get_height (map);
  terrain_editor_gl_view_set_camera (fixture.view, w / 2.0, h * 0.55, 0.35,
                                     42 * G_PI / 180, MAX (w, h) * 0.9);
  image = terrain_editor_gl_view_render_image (fixture.view, 1280, 800, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_colors (image), >, 1000);

  save_image (image, "editor-3d-ban.png");
  g_test_message ("render %.1f ms", terrain_editor_gl_view_get_last_render_time (fixture.view));

  fixture_teardown (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  if (!gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }

  g_test_add_func ("/Terrain/EditorGlView/generated", test_generated);
  g_test_add_func ("/Terrain/EditorGlView/ban", test_ban);

  return g_test_run ();
}
