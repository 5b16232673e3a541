/* test-editor-gl.c: the editor's 3D view on a generated map (and ban.tnt
 * from the corpus) and on Atlas files built in the test, rendered under
 * Xvfb and read back: also the Atlas chunk-level overlay (level colours,
 * the readout of the renderer's figures) and highlighted stubs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <libterrain.h>
#include <math.h>
#include <string.h>

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

  /* TERRAIN_TEST_GL_API=gles (with GDK_DEBUG=gl-gles) or gl: the view got
   * that API, so the run tests what it says. */
  if (g_getenv ("TERRAIN_TEST_GL_API") != NULL)
    {
      GdkGLContext *context = gtk_gl_area_get_context (GTK_GL_AREA (fixture->view));

      g_assert_nonnull (context);
      g_assert_cmpint (gdk_gl_context_get_use_es (context), ==,
                       g_strcmp0 (g_getenv ("TERRAIN_TEST_GL_API"), "gles") == 0);
    }
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
  terrain_tnt_map_set_sea_level (map, 10, NULL);

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
  terrain_tnt_map_set_sea_level (map, 150, NULL);
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

/* ------------------------------------------------------------------------
 * Atlas files
 */

/* 2^n + 1 samples a side, 1 m apart: gentle hills, so that a top-down
 * view sees the texture almost undistorted. */
static TerrainHeightfield *
make_hills (guint side)
{
  g_autoptr(GError) error = NULL;
  TerrainHeightfield *field = terrain_heightfield_new (side, side, 1.0, &error);
  gfloat *data;

  g_assert_no_error (error);
  data = terrain_heightfield_get_data (field, NULL);
  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      data[(gsize) y * side + x] = (gfloat) (4.0 + 3.0 * sin (x * 0.09) * cos (y * 0.07) +
                                             0.8 * sin ((x + 2.0 * y) * 0.31));
  return field;
}

/* Quadrants, north up: red north-west, green north-east, blue south-west,
 * yellow south-east. */
static const guint8 quadrant_colors[4][3] = {
  { 230, 30, 30 }, { 30, 200, 30 }, { 30, 30, 230 }, { 230, 210, 20 },
};

static TerrainImage *
make_quadrants (guint side)
{
  g_autoptr(GError) error = NULL;
  TerrainImage *image = terrain_image_new (TERRAIN_IMAGE_RGBA8, side, side, &error);
  guint8 *data;
  gsize stride;

  g_assert_no_error (error);
  data = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      {
        const guint8 *c = quadrant_colors[(y >= side / 2) * 2 + (x >= side / 2)];
        guint8 *p = data + y * stride + x * 4;

        p[0] = c[0];
        p[1] = c[1];
        p[2] = c[2];
        p[3] = 255;
      }
  return image;
}

/* An Atlas of a 129² heightfield; @texture_depth 0: the builder's choice
 * (3 levels of 64-pixel tiles for the 256² picture), -1: no texture. */
static TerrainAtlasFile *
make_atlas_version (guint   tree_depth,
                    gint    texture_depth,
                    guint32 version)
{
  g_autoptr(TerrainHeightfield) field = make_hills (129);
  g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
  g_autoptr(GError) error = NULL;
  TerrainAtlasFile *atlas;

  terrain_atlas_builder_set_error (builder, 0.05);
  terrain_atlas_builder_set_tree_depth (builder, tree_depth);
  terrain_atlas_builder_set_version (builder, version);
  if (texture_depth >= 0)
    {
      g_autoptr(TerrainImage) picture = make_quadrants (256);

      terrain_atlas_builder_set_texture_image (builder, picture);
      terrain_atlas_builder_set_texture_format (builder, TERRAIN_ATLAS_TEXTURE_PNG, 90);
      terrain_atlas_builder_set_tile_size (builder, 64);
      terrain_atlas_builder_set_texture_depth (builder, (guint) texture_depth);
    }
  atlas = terrain_atlas_builder_build (builder, NULL, &error);
  g_assert_no_error (error);
  return atlas;
}

static TerrainAtlasFile *
make_atlas (guint tree_depth,
            gint  texture_depth)
{
  return make_atlas_version (tree_depth, texture_depth, TERRAIN_ATLAS_VERSION);
}

static int
view_width (Fixture *fixture)
{
  return gtk_widget_get_width (GTK_WIDGET (fixture->view));
}

static int
view_height (Fixture *fixture)
{
  return gtk_widget_get_height (GTK_WIDGET (fixture->view));
}

static TerrainImage *
render_size (Fixture *fixture,
             guint    width,
             guint    height)
{
  g_autoptr(GError) error = NULL;
  TerrainImage *image = terrain_editor_gl_view_render_image (fixture->view, width, height, &error);

  g_assert_no_error (error);
  g_assert_nonnull (image);
  return image;
}

static const guint8 *
pixel_at (TerrainImage *image,
          double        fx,
          double        fy)
{
  guint x = (guint) (fx * (terrain_image_get_width (image) - 1) + 0.5);
  guint y = (guint) (fy * (terrain_image_get_height (image) - 1) + 0.5);

  return terrain_image_get_data (image, NULL) + y * terrain_image_get_stride (image) + x * 4;
}

/* The colour's hue family (which channel leads, or red and green both for
 * yellow), whatever the lighting. */
static guint
quadrant_of (const guint8 *p)
{
  if (p[0] > 2 * p[2] && p[1] > 2 * p[2] && p[0] > 60 && p[1] > 60)
    return 3;
  if (p[0] > 2 * p[1] && p[0] > 2 * p[2])
    return 0;
  if (p[1] > 2 * p[0] && p[1] > 2 * p[2])
    return 1;
  if (p[2] > 2 * p[0] && p[2] > 2 * p[1])
    return 2;
  return G_MAXUINT;
}

/* Straight down on the whole terrain: the quadrants where the picture has
 * them (screen up is north, right is east). */
static void
assert_quadrants (Fixture    *fixture,
                  const char *name)
{
  g_autoptr(TerrainImage) image = NULL;

  terrain_editor_gl_view_set_camera (fixture->view, 64, 64, 0, 89.5 * G_PI / 180, 175);
  image = render_size (fixture, 240, 240);
  if (name != NULL)
    save_image (image, name);
  for (guint q = 0; q < 4; q++)
    for (guint k = 0; k < 4; k++)
      {
        /* Four points well inside each quadrant. */
        double fx = (q & 1 ? 0.62 : 0.22) + (k & 1) * 0.14;
        double fy = (q & 2 ? 0.62 : 0.22) + (k >> 1) * 0.14;
        const guint8 *p = pixel_at (image, fx, fy);

        if (quadrant_of (p) != q)
          g_error ("quadrant %u at (%.2f, %.2f): rgb %u %u %u", q, fx, fy, p[0], p[1], p[2]);
      }
}

static void
atlas_setup (Fixture          *fixture,
             TerrainAtlasFile *atlas)
{
  fixture_setup (fixture, TERRAIN_DOCUMENT (atlas), NULL);
}

/* Spins the main loop until the view stopped asking for chunks. */
static void
wait_until_settled (Fixture *fixture)
{
  TerrainEditorAtlasStats stats;
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  do
    {
      g_main_context_iteration (NULL, TRUE);
      g_assert_true (terrain_editor_gl_view_get_atlas_stats (fixture->view, &stats));
    }
  while ((stats.n_pending > 0 || stats.n_chunks_drawn == 0) && g_get_monotonic_time () < deadline &&
         fixture->gl_error == NULL);
  g_assert_null (fixture->gl_error);
  g_assert_cmpuint (stats.n_pending, ==, 0);
}

static void
test_atlas (void)
{
  g_autoptr(TerrainAtlasFile) atlas = make_atlas (3, 0);
  g_autoptr(TerrainImage) close = NULL;
  TerrainEditorAtlasStats stats;
  Fixture fixture = { 0 };
  double mx, my, tx, ty;

  atlas_setup (&fixture, atlas);

  /* On screen, frames follow one another until every chunk and tile the
   * view wants is loaded. */
  wait_until_settled (&fixture);
  g_assert_true (terrain_editor_gl_view_get_atlas_stats (fixture.view, &stats));
  g_assert_cmpuint (stats.geometry_depth, ==, 3);
  g_assert_cmpuint (stats.texture_depth, ==, 3);
  g_assert_cmpuint (stats.n_textured_drawn, ==, stats.n_chunks_drawn);
  g_assert_cmpuint (stats.n_failed, ==, 0);

  /* The camera starts over the terrain's middle (129 samples 1 m apart). */
  terrain_editor_gl_view_get_camera (fixture.view, &tx, &ty, NULL, NULL, NULL);
  g_assert_cmpfloat (fabs (tx - 64), <, 1e-6);
  g_assert_cmpfloat (fabs (ty - 64), <, 1e-6);

  assert_quadrants (&fixture, "editor-3d-atlas-top.png");

  /* Close to the ground (where the quadrants meet) the leaves are drawn,
   * still textured. */
  terrain_editor_gl_view_set_camera (fixture.view, 64, 64, 0.6, 35 * G_PI / 180, 16);
  close = render_size (&fixture, 320, 240);
  save_image (close, "editor-3d-atlas-close.png");
  g_assert_cmpuint (count_colors (close), >, 200);
  g_assert_true (terrain_editor_gl_view_get_atlas_stats (fixture.view, &stats));
  g_assert_cmpuint (stats.max_level_drawn, ==, 2);
  g_assert_cmpuint (stats.n_chunks_drawn, >, 1);
  g_assert_cmpuint (stats.n_textured_drawn, ==, stats.n_chunks_drawn);
  g_assert_cmpuint (stats.n_pending, ==, 0);
  g_assert_cmpuint (stats.geometry_bytes, >, 0);
  g_assert_cmpuint (stats.texture_bytes, >, 0);

  /* Picking: the ray through the middle of the view meets the ground at
   * the orbit target (the camera looks at it), on the terrain. */
  terrain_editor_gl_view_set_camera (fixture.view, 40, 70, 0.3, 50 * G_PI / 180, 60);
  g_clear_pointer (&close, terrain_image_unref);
  close = render_size (&fixture, view_width (&fixture), view_height (&fixture));
  g_assert_true (terrain_editor_gl_view_pick (fixture.view, view_width (&fixture) / 2.0,
                                              view_height (&fixture) / 2.0, &mx, &my));
  g_assert_cmpfloat (fabs (mx - 40), <, 2);
  g_assert_cmpfloat (fabs (my - 70), <, 2);
  /* Past the horizon, no terrain. */
  terrain_editor_gl_view_set_camera (fixture.view, 64, 64, 0, 6 * G_PI / 180, 150);
  g_clear_pointer (&close, terrain_image_unref);
  close = render_size (&fixture, view_width (&fixture), view_height (&fixture));
  g_assert_false (terrain_editor_gl_view_pick (fixture.view, view_width (&fixture) / 2.0, 2,
                                               &mx, &my));

  fixture_teardown (&fixture);
}

/* Texture trees shallower and deeper than the geometry tree. */
static void
test_atlas_texture_depths (void)
{
  guint cases[][2] = { { 4, 2 }, { 2, 4 }, { 4, 1 } };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TerrainAtlasFile) atlas = make_atlas (cases[i][0], (gint) cases[i][1]);
      g_autoptr(TerrainImage) close = NULL;
      TerrainEditorAtlasStats stats;
      Fixture fixture = { 0 };

      g_test_message ("geometry depth %u, texture depth %u", cases[i][0], cases[i][1]);
      atlas_setup (&fixture, atlas);
      assert_quadrants (&fixture, NULL);

      terrain_editor_gl_view_set_camera (fixture.view, 30, 90, 2.0, 40 * G_PI / 180, 10);
      close = render_size (&fixture, 320, 240);
      g_assert_true (terrain_editor_gl_view_get_atlas_stats (fixture.view, &stats));
      g_assert_cmpuint (stats.texture_depth, ==, cases[i][1]);
      g_assert_cmpuint (stats.max_level_drawn, ==, cases[i][0] - 1);
      g_assert_cmpuint (stats.n_textured_drawn, ==, stats.n_chunks_drawn);
      /* South-west: blue. */
      g_assert_cmpuint (quadrant_of (pixel_at (close, 0.5, 0.6)), ==, 2);
      fixture_teardown (&fixture);
    }
}

/* Older files: before version 140 no normals (the view computes them),
 * before 101 no bounds in the stubs (the chunks give them). */
static void
test_atlas_old_versions (void)
{
  guint32 versions[] = { 130, 100 };

  for (guint i = 0; i < G_N_ELEMENTS (versions); i++)
    {
      g_autoptr(TerrainAtlasFile) atlas = make_atlas_version (3, 0, versions[i]);
      g_autoptr(TerrainImage) close = NULL;
      TerrainEditorAtlasStats stats;
      Fixture fixture = { 0 };
      double mx, my;

      g_test_message ("version %u", versions[i]);
      atlas_setup (&fixture, atlas);
      assert_quadrants (&fixture, NULL);
      terrain_editor_gl_view_set_camera (fixture.view, 64, 64, 0.6, 35 * G_PI / 180, 16);
      close = render_size (&fixture, view_width (&fixture), view_height (&fixture));
      if (versions[i] < 101)
        save_image (close, "editor-3d-atlas-v100.png");
      /* Lit hills, not flat colour. */
      g_assert_cmpuint (count_colors (close), >, 300);
      g_assert_true (terrain_editor_gl_view_get_atlas_stats (fixture.view, &stats));
      g_assert_cmpuint (stats.max_level_drawn, ==, 2);
      g_assert_true (terrain_editor_gl_view_pick (fixture.view, view_width (&fixture) / 2.0,
                                                  view_height (&fixture) / 2.0, &mx, &my));
      g_assert_cmpfloat (fabs (mx - 64), <, 1.5);
      g_assert_cmpfloat (fabs (my - 64), <, 1.5);
      fixture_teardown (&fixture);
    }
}

/* Without a texture TOC the terrain is height-shaded. */
static void
test_atlas_untextured (void)
{
  g_autoptr(TerrainAtlasFile) atlas = make_atlas (3, -1);
  g_autoptr(TerrainImage) image = NULL;
  TerrainEditorAtlasStats stats;
  Fixture fixture = { 0 };

  atlas_setup (&fixture, atlas);
  terrain_editor_gl_view_set_camera (fixture.view, 64, 64, 0.4, 40 * G_PI / 180, 60);
  image = render_size (&fixture, 200, 150);
  g_assert_cmpuint (count_colors (image), >, 100);
  g_assert_true (terrain_editor_gl_view_get_atlas_stats (fixture.view, &stats));
  g_assert_cmpuint (stats.texture_depth, ==, 0);
  g_assert_cmpuint (stats.n_textured_drawn, ==, 0);
  g_assert_cmpuint (stats.n_chunks_drawn, >, 0);
  g_assert_cmpuint (stats.texture_bytes, ==, 0);
  fixture_teardown (&fixture);
}

/* A leaf whose geometry does not decode is skipped (its parent stays
 * drawn there), without a warning; a texture tile likewise. */
static void
test_atlas_bad_chunks (void)
{
  g_autoptr(TerrainAtlasFile) built = make_atlas (3, 0);
  g_autoptr(TerrainAtlasFile) atlas = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *data = NULL;
  g_autoptr(TerrainImage) image = NULL;
  TerrainEditorAtlasStats stats;
  Fixture fixture = { 0 };
  gsize size;
  gint tex;

  bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (built), &error);
  g_assert_no_error (error);
  data = g_memdup2 (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  size = g_bytes_get_size (bytes);

  /* Every level-2 chunk south-west of the middle: an index count past the
   * body (frame head 12 bytes, previousChunk 4, bounds 24). */
  for (guint32 x = 0; x < 2; x++)
    for (guint32 y = 2; y < 4; y++)
      {
        TerrainAtlasToc *toc = terrain_atlas_file_get_toc (built, 0);
        g_autoptr(TerrainAtlasStub) stub =
          terrain_atlas_toc_get_stub (toc, (guint) terrain_atlas_toc_find_stub (toc, 2, x, y));
        guint32 offset = terrain_atlas_stub_get_offset (stub) + 12 + 4 + 24;
        guint32 huge = GUINT32_TO_LE (0x7fffff00);

        g_assert_cmpuint (offset + 4, <=, size);
        memcpy (data + offset, &huge, 4);
      }
  /* And the texture root's image stream. */
  tex = terrain_atlas_file_find_toc (built, TERRAIN_ATLAS_TOC_TEXTURE, 0);
  {
    TerrainAtlasToc *toc = terrain_atlas_file_get_toc (built, (guint) tex);
    g_autoptr(TerrainAtlasStub) stub = terrain_atlas_toc_get_stub (toc, 0);

    memset (data + terrain_atlas_stub_get_offset (stub) + 13, 0x5a, 16);
  }

  g_clear_pointer (&bytes, g_bytes_unref);
  bytes = g_bytes_new (data, size);
  atlas = terrain_atlas_file_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);

  atlas_setup (&fixture, atlas);
  wait_until_settled (&fixture);
  terrain_editor_gl_view_set_camera (fixture.view, 40, 80, 0.2, 45 * G_PI / 180, 25);
  image = render_size (&fixture, 200, 150);
  save_image (image, "editor-3d-atlas-bad.png");
  g_assert_cmpuint (count_colors (image), >, 100);
  g_assert_true (terrain_editor_gl_view_get_atlas_stats (fixture.view, &stats));
  g_assert_cmpuint (stats.n_failed, >=, 2);
  g_assert_cmpuint (stats.n_chunks_drawn, >, 0);
  g_assert_cmpuint (stats.n_pending, ==, 0);
  fixture_teardown (&fixture);
}

/* The caches stay within their budgets; what does not fit waits and the
 * coarser chunks stay drawn. */
static void
test_atlas_budget (void)
{
  g_autoptr(TerrainAtlasFile) atlas = make_atlas (4, 0);
  g_autoptr(TerrainImage) image = NULL;
  TerrainEditorAtlasStats stats, roomy;
  Fixture fixture = { 0 };
  guint deferred = 0;

  atlas_setup (&fixture, atlas);
  terrain_editor_gl_view_set_camera (fixture.view, 64, 64, 0.5, 30 * G_PI / 180, 40);
  g_clear_pointer (&image, terrain_image_unref);
  image = render_size (&fixture, 320, 240);
  g_assert_true (terrain_editor_gl_view_get_atlas_stats (fixture.view, &roomy));
  g_assert_cmpuint (roomy.n_deferred, ==, 0);

  terrain_editor_gl_view_set_atlas_cache_budget (fixture.view, roomy.geometry_bytes / 3,
                                                 roomy.texture_bytes / 3);
  for (guint i = 0; i < 4; i++)
    {
      terrain_editor_gl_view_set_camera (fixture.view, 20 + 30 * i, 100 - 25 * i, 0.5 + i,
                                         30 * G_PI / 180, 30);
      g_clear_pointer (&image, terrain_image_unref);
      image = render_size (&fixture, 320, 240);
      g_assert_cmpuint (count_colors (image), >, 100);
      g_assert_true (terrain_editor_gl_view_get_atlas_stats (fixture.view, &stats));
      g_assert_cmpuint (stats.geometry_bytes, <=, roomy.geometry_bytes / 3);
      g_assert_cmpuint (stats.texture_bytes, <=, roomy.texture_bytes / 3);
      g_assert_cmpuint (stats.n_chunks_drawn, >, 0);
      g_assert_cmpuint (stats.n_pending, ==, 0);
      deferred += stats.n_deferred;
    }
  g_assert_cmpuint (deferred, >, 0);
  fixture_teardown (&fixture);
}

/* An edit that replaces texture tiles reaches the view through the TOC. */
static void
test_atlas_edit (void)
{
  g_autoptr(TerrainAtlasFile) atlas = make_atlas (3, 0);
  g_autoptr(TerrainImage) before = NULL;
  g_autoptr(TerrainImage) after = NULL;
  g_autoptr(GError) error = NULL;
  Fixture fixture = { 0 };
  gint slot = terrain_atlas_file_find_toc (atlas, TERRAIN_ATLAS_TOC_TEXTURE, 0);
  TerrainAtlasToc *toc = terrain_atlas_file_get_toc (atlas, (guint) slot);
  guint magenta = 0;

  atlas_setup (&fixture, atlas);
  terrain_editor_gl_view_set_camera (fixture.view, 64, 64, 0, 89.5 * G_PI / 180, 175);
  before = render_size (&fixture, 120, 120);

  for (guint i = 0; i < terrain_atlas_toc_get_n_stubs (toc); i++)
    {
      g_autoptr(TerrainImage) solid = terrain_image_new (TERRAIN_IMAGE_RGBA8, 64, 64, &error);
      g_autoptr(TerrainAtlasTexture) texture = NULL;
      guint8 *d = terrain_image_get_data (solid, NULL);

      for (guint k = 0; k < 64 * 64; k++)
        {
          d[k * 4] = 220;
          d[k * 4 + 1] = 0;
          d[k * 4 + 2] = 220;
          d[k * 4 + 3] = 255;
        }
      texture = terrain_atlas_texture_new_from_image (solid, TERRAIN_ATLAS_TEXTURE_PNG, 90,
                                                      TERRAIN_ATLAS_CHANNELS_RGB, &error);
      g_assert_no_error (error);
      g_assert_true (terrain_atlas_file_replace_texture (atlas, (guint) slot, i, texture, &error));
      g_assert_no_error (error);
    }

  after = render_size (&fixture, 120, 120);
  for (guint y = 0; y < 120; y += 4)
    for (guint x = 0; x < 120; x += 4)
      {
        const guint8 *p = pixel_at (after, x / 119.0, y / 119.0);

        magenta += p[0] > 2 * p[1] + 40 && p[2] > 2 * p[1] + 40;
      }
  g_assert_cmpuint (magenta, >, 30 * 30 / 2);
  g_assert_false (images_equal (before, after));
  fixture_teardown (&fixture);
}

/* ------------------------------------------------------------------------
 * Atlas chunk levels and highlighted stubs
 */

/* The level whose colour @tint points the way of (lighting scales it),
 * or G_MAXUINT when none is close. */
static guint
level_of_tint (const double *tint,
               guint         n_levels)
{
  double length = sqrt (tint[0] * tint[0] + tint[1] * tint[1] + tint[2] * tint[2]);
  guint best = G_MAXUINT;
  double best_cos = 0.995;

  if (length < 20)
    return G_MAXUINT;
  for (guint level = 0; level < n_levels; level++)
    {
      float rgb[3];
      double l, dot;

      terrain_editor_atlas_level_color (level, rgb);
      l = sqrt (rgb[0] * rgb[0] + rgb[1] * rgb[1] + rgb[2] * rgb[2]);
      dot = (tint[0] * rgb[0] + tint[1] * rgb[1] + tint[2] * rgb[2]) / (length * l);
      if (dot > best_cos)
        {
          best_cos = dot;
          best = level;
        }
    }
  return best;
}

/* Renders with and without levels; each level drawn shows in its colour,
 * on a share of the picture, and no other level colour does. The shader
 * mixes 85% of the colour into the lit surface, so (tinted − 15% of
 * plain) points the way of the colour. Returns the levels drawn, a bit
 * each. */
static guint
assert_level_colors (Fixture    *fixture,
                     guint       size,
                     const char *name)
{
  g_autoptr(TerrainImage) plain = NULL;
  g_autoptr(TerrainImage) levels = NULL;
  guint found[TERRAIN_EDITOR_ATLAS_STATS_LEVELS] = { 0 };
  TerrainEditorAtlasStats stats, plain_stats;
  guint drawn = 0, sum = 0;
  const guint8 *a, *b;
  gsize bytes;

  terrain_editor_gl_view_set_show_chunk_levels (fixture->view, FALSE);
  plain = render_size (fixture, size, size);
  g_assert_true (terrain_editor_gl_view_get_atlas_stats (fixture->view, &plain_stats));
  g_assert_cmpstr (terrain_editor_gl_view_get_atlas_readout (fixture->view), ==, "");
  g_object_set (fixture->view, "show-chunk-levels", TRUE, NULL);
  levels = render_size (fixture, size, size);
  if (name != NULL)
    save_image (levels, name);
  g_assert_true (terrain_editor_gl_view_get_atlas_stats (fixture->view, &stats));
  g_assert_cmpuint (stats.n_pending, ==, 0);
  /* The same chunks: levels change colours, not the selection. */
  g_assert_cmpuint (stats.n_chunks_drawn, ==, plain_stats.n_chunks_drawn);
  g_assert_false (images_equal (plain, levels));

  a = terrain_image_get_data (plain, &bytes);
  b = terrain_image_get_data (levels, NULL);
  for (gsize i = 0; i + 3 < bytes; i += 4)
    {
      double tint[3] = { b[i] - 0.15 * a[i], b[i + 1] - 0.15 * a[i + 1], b[i + 2] - 0.15 * a[i + 2] };
      guint level = level_of_tint (tint, stats.geometry_depth);

      if (level != G_MAXUINT)
        found[level]++;
    }
  for (guint level = 0; level < stats.geometry_depth; level++)
    {
      g_test_message ("level %u: %u chunks drawn, %u pixels of its colour", level,
                      stats.n_chunks_at_level[level], found[level]);
      if (stats.n_chunks_at_level[level] > 0)
        {
          g_assert_cmpuint (found[level], >, size * size / 100);
          drawn |= 1u << level;
        }
      else
        g_assert_cmpuint (found[level], <, size * size / 500);
      sum += stats.n_chunks_at_level[level];
    }
  g_assert_cmpuint (sum, ==, stats.n_chunks_drawn);
  return drawn;
}

/* Chunk levels on a generated Atlas of three levels: from straight above
 * at three heights (one level each: the root is drawn only in a small
 * picture) and at an angle (levels side by side). */
static void
test_atlas_levels (void)
{
  g_autoptr(TerrainAtlasFile) atlas = make_atlas (3, 0);
  g_autoptr(GString) expected = g_string_new (NULL);
  g_autofree char *formatted = NULL;
  TerrainEditorAtlasStats stats;
  Fixture fixture = { 0 };
  guint drawn = 0, mixed;

  atlas_setup (&fixture, atlas);
  g_assert_false (terrain_editor_gl_view_get_show_chunk_levels (fixture.view));
  g_assert_cmpstr (terrain_editor_gl_view_get_atlas_readout (fixture.view), ==, "");

  terrain_editor_gl_view_set_camera (fixture.view, 64, 64, 0, 89.5 * G_PI / 180, 70);
  drawn |= assert_level_colors (&fixture, 240, "editor-3d-atlas-levels-top.png");
  terrain_editor_gl_view_set_camera (fixture.view, 64, 64, 0, 89.5 * G_PI / 180, 300);
  drawn |= assert_level_colors (&fixture, 240, NULL);
  terrain_editor_gl_view_set_camera (fixture.view, 64, 64, 0, 89.5 * G_PI / 180, 380);
  drawn |= assert_level_colors (&fixture, 120, NULL);
  g_assert_cmpuint (drawn, ==, 7);

  terrain_editor_gl_view_set_camera (fixture.view, 40, 100, 0.5, 25 * G_PI / 180, 220);
  mixed = assert_level_colors (&fixture, 240, "editor-3d-atlas-levels.png");
  g_assert_cmpuint (g_bit_nth_lsf (mixed, -1), !=, g_bit_nth_msf (mixed, -1));

  /* The readout is the renderer's figures: a line per level in its colour,
   * then the triangles and the caches. */
  g_assert_true (terrain_editor_gl_view_get_atlas_stats (fixture.view, &stats));
  formatted = terrain_editor_gl_view_format_atlas_readout (&stats);
  g_assert_cmpstr (terrain_editor_gl_view_get_atlas_readout (fixture.view), ==, formatted);
  g_assert_true (pango_parse_markup (formatted, -1, 0, NULL, NULL, NULL, NULL));
  for (guint level = 0; level < stats.geometry_depth; level++)
    {
      float rgb[3];

      terrain_editor_atlas_level_color (level, rgb);
      g_string_printf (expected, "<span background=\"#%02x%02x%02x\">", (guint) (rgb[0] * 255 + 0.5f),
                       (guint) (rgb[1] * 255 + 0.5f), (guint) (rgb[2] * 255 + 0.5f));
      g_assert_nonnull (strstr (formatted, expected->str));
      g_string_printf (expected, "Level %u: %u chunk", level, stats.n_chunks_at_level[level]);
      g_assert_nonnull (strstr (formatted, expected->str));
    }
  g_string_printf (expected, "Triangles: %" G_GUINT64_FORMAT " (surface %" G_GUINT64_FORMAT ")",
                   stats.n_triangles_drawn, stats.n_surface_triangles_drawn);
  g_assert_nonnull (strstr (formatted, expected->str));
  g_string_printf (expected, "Geometry cache: %u chunk", stats.n_geometry_cached);
  g_assert_nonnull (strstr (formatted, expected->str));
  g_string_printf (expected, "Texture cache: %u tile", stats.n_textures_cached);
  g_assert_nonnull (strstr (formatted, expected->str));

  /* Off again: no readout, the plain picture. */
  terrain_editor_gl_view_set_show_chunk_levels (fixture.view, FALSE);
  g_assert_cmpstr (terrain_editor_gl_view_get_atlas_readout (fixture.view), ==, "");

  fixture_teardown (&fixture);
}

/* A highlighted stub: its box's pixels lie where its bounds project, its
 * top corners among them; a texture tile's box covers its node's square. */
static void
assert_highlight (Fixture               *fixture,
                  const TerrainAtlasBox *box,
                  const char            *name)
{
  g_autoptr(TerrainImage) plain = NULL;
  g_autoptr(TerrainImage) lit = NULL;
  double x0 = G_MAXDOUBLE, y0 = G_MAXDOUBLE, x1 = -G_MAXDOUBLE, y1 = -G_MAXDOUBLE;
  guint changed = 0, outside = 0, corners = 0;
  TerrainAtlasBox shown;
  const guint8 *a, *b;
  gsize stride;

  terrain_editor_gl_view_set_atlas_highlight (fixture->view, NULL);
  plain = render_size (fixture, 320, 240);
  terrain_editor_gl_view_set_atlas_highlight (fixture->view, box);
  g_assert_true (terrain_editor_gl_view_get_atlas_highlight (fixture->view, &shown));
  g_assert_true (terrain_atlas_box_equal (&shown, box));
  lit = render_size (fixture, 320, 240);
  if (name != NULL)
    save_image (lit, name);

  /* The generated terrain spans world X 0..128 and Y 0..128: map x is X,
   * map y is 128 − Y (south of the north edge). */
  for (guint c = 0; c < 8; c++)
    {
      double px, py;

      g_assert_true (terrain_editor_gl_view_project (fixture->view, c & 1 ? box->max[0] : box->min[0],
                                                     128 - (c & 2 ? box->max[1] : box->min[1]),
                                                     c & 4 ? box->max[2] : box->min[2],
                                                     320, 240, &px, &py));
      x0 = MIN (x0, px);
      y0 = MIN (y0, py);
      x1 = MAX (x1, px);
      y1 = MAX (y1, py);
    }

  a = terrain_image_get_data (plain, NULL);
  b = terrain_image_get_data (lit, NULL);
  stride = terrain_image_get_stride (lit);
  for (guint y = 0; y < 240; y++)
    for (guint x = 0; x < 320; x++)
      {
        const guint8 *p = a + y * stride + x * 4, *q = b + y * stride + x * 4;

        if (p[0] == q[0] && p[1] == q[1] && p[2] == q[2])
          continue;
        changed++;
        outside += x + 1.5 < x0 || x > x1 + 1.5 || y + 1.5 < y0 || y > y1 + 1.5;
      }
  g_test_message ("highlight projects to (%.0f, %.0f)-(%.0f, %.0f): %u pixels changed, %u outside",
                  x0, y0, x1, y1, changed, outside);
  g_assert_cmpuint (changed, >, (guint) ((x1 - x0) * (y1 - y0) / 4));
  g_assert_cmpuint (outside, ==, 0);

  /* The box's corners are drawn: a changed pixel next to each one in the
   * picture. */
  for (guint c = 0; c < 8; c++)
    {
      double px, py;
      gboolean hit = FALSE;

      terrain_editor_gl_view_project (fixture->view, c & 1 ? box->max[0] : box->min[0],
                                      128 - (c & 2 ? box->max[1] : box->min[1]),
                                      c & 4 ? box->max[2] : box->min[2], 320, 240, &px, &py);
      if (px < 1 || py < 1 || px > 318 || py > 238)
        continue;
      for (int dy = -2; dy <= 2 && !hit; dy++)
        for (int dx = -2; dx <= 2 && !hit; dx++)
          {
            guint x = (guint) CLAMP ((int) px + dx, 0, 319), y = (guint) CLAMP ((int) py + dy, 0, 239);

            hit = memcmp (a + y * stride + x * 4, b + y * stride + x * 4, 3) != 0;
          }
      g_assert_true (hit);
      corners++;
    }
  g_assert_cmpuint (corners, >=, 4);
}

static void
test_atlas_highlight (void)
{
  g_autoptr(TerrainAtlasFile) atlas = make_atlas (3, 0);
  TerrainAtlasToc *geometry = terrain_atlas_file_get_toc (atlas, (guint) terrain_atlas_file_find_toc (
                                                            atlas, TERRAIN_ATLAS_TOC_GEOMETRY, 0));
  TerrainAtlasToc *texture = terrain_atlas_file_get_toc (atlas, (guint) terrain_atlas_file_find_toc (
                                                           atlas, TERRAIN_ATLAS_TOC_TEXTURE, 0));
  g_autoptr(TerrainAtlasStub) chunk = NULL;
  g_autoptr(TerrainAtlasStub) tile = NULL;
  TerrainAtlasBox box, bounds, terrain;
  double tx, ty, distance;
  Fixture fixture = { 0 };

  atlas_setup (&fixture, atlas);
  g_assert_true (terrain_editor_atlas_get_terrain_box (atlas, &terrain));
  g_assert_cmpfloat (fabs (terrain.min[0]), <, 1e-3);
  g_assert_cmpfloat (fabs (terrain.max[1] - 128), <, 1e-3);

  /* A level-1 chunk: the box is its stub's bounds. */
  chunk = terrain_atlas_toc_get_stub (geometry, (guint) terrain_atlas_toc_find_stub (geometry, 1, 1, 0));
  g_assert_true (terrain_editor_atlas_get_stub_box (atlas, chunk, &box));
  g_assert_true (terrain_atlas_stub_get_bounds (chunk, &bounds));
  g_assert_true (terrain_atlas_box_equal (&box, &bounds));
  /* Node (1, 1, 0): the east half in X, the south half in Y. */
  g_assert_cmpfloat (box.min[0], >=, 63);
  g_assert_cmpfloat (box.max[1], <=, 65);
  terrain_editor_gl_view_set_camera (fixture.view, 64, 64, 0.4, 55 * G_PI / 180, 190);
  assert_highlight (&fixture, &box, "editor-3d-atlas-highlight.png");

  /* Framing it looks at its middle from close enough. */
  terrain_editor_gl_view_frame_atlas_box (fixture.view, &box);
  terrain_editor_gl_view_get_camera (fixture.view, &tx, &ty, NULL, NULL, &distance);
  g_assert_cmpfloat (fabs (tx - (box.min[0] + box.max[0]) / 2), <, 1e-3);
  g_assert_cmpfloat (fabs (ty - (128 - (box.min[1] + box.max[1]) / 2)), <, 1e-3);
  g_assert_cmpfloat (distance, <, 190);
  assert_highlight (&fixture, &box, NULL);

  /* The texture tree mirrors X: level-1 tile (0, 0) holds the picture's
   * yellow south-east quadrant, and its box is that quadrant. */
  {
    guint slot = (guint) terrain_atlas_file_find_toc (atlas, TERRAIN_ATLAS_TOC_TEXTURE, 0);
    gint64 index = terrain_atlas_toc_find_stub (texture, 1, 0, 0);
    g_autoptr(TerrainAtlasStub) quadrant = terrain_atlas_toc_get_stub (texture, (guint) index);
    g_autoptr(TerrainImage) pixels = NULL;
    g_autoptr(GError) error = NULL;

    pixels = terrain_atlas_file_render_texture (atlas, slot, (guint) index, TERRAIN_ATLAS_CHANNELS_RGB,
                                                &error);
    g_assert_no_error (error);
    g_assert_cmpuint (quadrant_of (pixel_at (pixels, 0.5, 0.5)), ==, 3);
    g_assert_true (terrain_editor_atlas_get_stub_box (atlas, quadrant, &box));
    g_assert_cmpfloat (fabs (box.min[0] - 64), <, 1e-3);
    g_assert_cmpfloat (fabs (box.max[0] - 128), <, 1e-3);
    g_assert_cmpfloat (fabs (box.min[1] - 0), <, 1e-3);
    g_assert_cmpfloat (fabs (box.max[1] - 64), <, 1e-3);
  }

  /* A level-2 texture tile: X mirrored, so tile (2, 0, 1) lies over
   * geometry node (2, 3, 1): X 96..128, Y 32..64. */
  tile = terrain_atlas_toc_get_stub (texture, (guint) terrain_atlas_toc_find_stub (texture, 2, 0, 1));
  g_assert_true (terrain_editor_atlas_get_stub_box (atlas, tile, &box));
  g_assert_cmpfloat (fabs (box.min[0] - 96), <, 1e-3);
  g_assert_cmpfloat (fabs (box.max[0] - 128), <, 1e-3);
  g_assert_cmpfloat (fabs (box.min[1] - 32), <, 1e-3);
  g_assert_cmpfloat (fabs (box.max[1] - 64), <, 1e-3);
  terrain_editor_gl_view_set_camera (fixture.view, 64, 64, 0.4, 55 * G_PI / 180, 190);
  assert_highlight (&fixture, &box, NULL);

  terrain_editor_gl_view_set_atlas_highlight (fixture.view, NULL);
  g_assert_false (terrain_editor_gl_view_get_atlas_highlight (fixture.view, NULL));
  fixture_teardown (&fixture);

  /* Before version 101 stubs have no bounds: the chunk gives them. */
  {
    g_autoptr(TerrainAtlasFile) old = make_atlas_version (3, 0, 100);
    TerrainAtlasToc *toc = terrain_atlas_file_get_toc (old, (guint) terrain_atlas_file_find_toc (
                                                         old, TERRAIN_ATLAS_TOC_GEOMETRY, 0));
    g_autoptr(TerrainAtlasStub) stub = terrain_atlas_toc_get_stub (toc, (guint) terrain_atlas_toc_find_stub (
                                                                     toc, 1, 1, 0));

    g_assert_false (terrain_atlas_stub_get_bounds (stub, &bounds));
    g_assert_true (terrain_editor_atlas_get_terrain_box (old, &terrain));
    g_assert_cmpfloat (fabs (terrain.max[0] - 128), <, 1e-3);
    g_assert_true (terrain_editor_atlas_get_stub_box (old, stub, &box));
    g_assert_cmpfloat (fabs (box.min[0] - 64), <, 1e-3);
    g_assert_cmpfloat (fabs (box.max[1] - 64), <, 1e-3);
  }
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
  g_test_add_func ("/Terrain/EditorGlView/atlas", test_atlas);
  g_test_add_func ("/Terrain/EditorGlView/atlas-texture-depths", test_atlas_texture_depths);
  g_test_add_func ("/Terrain/EditorGlView/atlas-old-versions", test_atlas_old_versions);
  g_test_add_func ("/Terrain/EditorGlView/atlas-untextured", test_atlas_untextured);
  g_test_add_func ("/Terrain/EditorGlView/atlas-bad-chunks", test_atlas_bad_chunks);
  g_test_add_func ("/Terrain/EditorGlView/atlas-budget", test_atlas_budget);
  g_test_add_func ("/Terrain/EditorGlView/atlas-edit", test_atlas_edit);
  g_test_add_func ("/Terrain/EditorGlView/atlas-levels", test_atlas_levels);
  g_test_add_func ("/Terrain/EditorGlView/atlas-highlight", test_atlas_highlight);

  return g_test_run ();
}
