/* test-heightfield-tiles.c: tiled heightmap exports (World Machine, Gaea)
 * assembled into one heightfield, in the library and through build-atlas
 * and convert-heightmap
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"
#include "terrain-test-util.h"

/* The whole terrain: whole-metre hills, @width x @height samples. */
static gfloat
whole_height (guint x,
              guint y)
{
  return (gfloat) floor (200.0 + 1000.0 * terrain_test_hills (x / 96.0, y / 64.0));
}

/* One tile of @side samples starting at sample (@x0, @y0) of the whole
 * terrain, as raw16 or a 16-bit PNG. */
static GBytes *
tile_bytes (guint    x0,
            guint    y0,
            guint    side,
            gboolean png)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainHeightfield) field = terrain_heightfield_new (side, side, 1.0, &error);
  gfloat *data = terrain_heightfield_get_data (field, NULL);
  GBytes *bytes;

  g_assert_no_error (error);
  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      data[(gsize) y * side + x] = whole_height (x0 + x, y0 + y);
  if (png)
    {
      g_autoptr(TerrainImage) image = terrain_heightfield_to_image (field, 1.0, 0.0, &error);

      g_assert_no_error (error);
      bytes = terrain_image_save_png_bytes (image, &error);
    }
  else
    bytes = terrain_heightfield_to_raw16 (field, 1.0, 0.0, &error);
  g_assert_no_error (error);
  return bytes;
}

static void
write_bytes (const char *dir,
             const char *name,
             GBytes     *bytes)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), NULL));
}

/* How a tool names tile (@x, @y) (0-based) of a set. */
typedef struct
{
  const char *name;
  const char *format;       /* printf of the file name: x, y or y, x */
  gboolean y_first;
  guint start;              /* the first tile's number */
  gboolean shared_edges;    /* World Machine's +1: tiles of 33 repeat edges */
  gboolean flip_y;          /* Gaea's Flip Y Axis: row 0 is the south */
  gboolean png;
} Scheme;

static const Scheme schemes[] = {
  { "world-machine", "Height_x%u_y%u.r16", FALSE, 0, TRUE, FALSE, FALSE },
  { "gaea", "Terrain_y%02u_x%02u.png", TRUE, 1, FALSE, TRUE, TRUE },
  { "rows-columns", "t_r%u_c%u.r16", TRUE, 0, FALSE, FALSE, FALSE },
};

/* Writes the 3 x 2 tiles of the whole terrain under @scheme; the side of a
 * tile is 33 with shared edges (the whole 97 x 65), otherwise 32 (96 x 64). */
static void
write_tiles (const char   *dir,
             const Scheme *scheme,
             GByteArray   *seed)
{
  guint side = scheme->shared_edges ? 33 : 32, step = 32;

  for (guint row = 0; row < 2; row++)
    for (guint column = 0; column < 3; column++)
      {
        guint ty = scheme->flip_y ? 1 - row : row;
        guint a = scheme->y_first ? ty : column, b = scheme->y_first ? column : ty;
        g_autofree char *name = g_strdup_printf (scheme->format, a + scheme->start,
                                                 b + scheme->start);
        g_autoptr(GBytes) bytes = tile_bytes (column * step, row * step, side, scheme->png);

        write_bytes (dir, name, bytes);
        if (seed != NULL)
          {
            guint8 length[4];

            terrain_test_set_u32 (length, (guint32) g_bytes_get_size (bytes));
            g_byte_array_append (seed, length, 4);
            g_byte_array_append (seed, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
          }
      }
}

static void
assert_whole (TerrainHeightfield *field,
              guint               width,
              guint               height)
{
  g_assert_nonnull (field);
  g_assert_cmpuint (terrain_heightfield_get_width (field), ==, width);
  g_assert_cmpuint (terrain_heightfield_get_height (field), ==, height);
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      if (terrain_heightfield_get_sample (field, x, y) != whole_height (x, y))
        g_error ("sample (%u, %u) is %g, not %g", x, y, terrain_heightfield_get_sample (field, x, y),
                 whole_height (x, y));
}

/* Each tool's naming, numbering, overlap and row order gives back the whole
 * terrain, from a folder or a pattern; the World Machine set is also a
 * seed of the fuzz-tiles harness (its input layout, tests/fuzz/fuzz-tiles.c). */
static void
test_assemble (gconstpointer data)
{
  const Scheme *scheme = data;
  g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-tiles");
  g_autoptr(GByteArray) seed = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(TerrainHeightfield) named = NULL;
  guint width = scheme->shared_edges ? 97 : 96, height = scheme->shared_edges ? 65 : 64;
  /* Columns - 1, rows - 1, flags (overlap auto, flip, scheme, extension). */
  const guint8 header[3] = { 2, 1, (guint8) ((scheme->flip_y ? 4 : 0) |
                                             ((guint) (scheme - schemes) << 3) |
                                             (scheme->png ? 32 : 0)) };

  g_byte_array_append (seed, header, sizeof header);
  write_tiles (dir, scheme, seed);
  /* A file that is no tile is left alone. */
  {
    g_autoptr(GBytes) notes = g_bytes_new_static ("notes", 5);

    write_bytes (dir, "README.txt", notes);
  }

  field = terrain_heightfield_load_tiles (dir, NULL, -1, scheme->flip_y, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_whole (field, width, height);

  /* The same overlap named, and a pattern of the tool's tokens. */
  {
    g_autofree char *pattern = g_build_filename (dir, scheme->y_first ? "*_y%Y%_x%X%*" :
                                                       "*_x%x_y%y*", NULL);
    const char *spec = scheme == &schemes[2] ? dir : pattern;

    named = terrain_heightfield_load_tiles (spec, NULL, scheme->shared_edges ? 1 : 0,
                                            scheme->flip_y, NULL, NULL, &error);
    g_assert_no_error (error);
    assert_whole (named, width, height);
  }

  {
    g_autoptr(GBytes) bytes = g_byte_array_free_to_bytes (g_steal_pointer (&seed));

    terrain_test_dump_seed ("tiles", bytes);
  }
  terrain_test_remove_tree (dir);
}

/* A missing tile and a tile of another size fail naming the tile; the
 * grid's size is checked against the limits before it is allocated. */
static void
test_errors (void)
{
  g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-tiles");
  g_autofree char *gone = g_build_filename (dir, "Height_x1_y1.r16", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(TerrainLimits) limits = terrain_limits_new ();

  write_tiles (dir, &schemes[0], NULL);
  /* The map grids' side limit does not bound a heightfield (a 16385²
   * World Machine grid passes the default 8192); the allocation limit
   * does. */
  limits->max_cells_per_side = 64;
  field = terrain_heightfield_load_tiles (dir, NULL, -1, FALSE, limits, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_heightfield_get_width (field), ==, 97);
  g_clear_object (&field);
  limits->max_allocation = 97 * 65 * sizeof (gfloat) - 1;
  field = terrain_heightfield_load_tiles (dir, NULL, -1, FALSE, limits, NULL, &error);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
  g_assert_nonnull (strstr (error->message, "assembled height grid"));
  g_assert_null (field);
  g_clear_error (&error);

  g_assert_cmpint (g_unlink (gone), ==, 0);
  field = terrain_heightfield_load_tiles (dir, NULL, -1, FALSE, NULL, NULL, &error);
  g_assert_null (field);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "Height_x1_y1.r16"));
  g_assert_nonnull (strstr (error->message, "missing"));
  g_clear_error (&error);

  {
    g_autoptr(GBytes) small = tile_bytes (32, 32, 17, FALSE);

    write_bytes (dir, "Height_x1_y1.r16", small);
  }
  field = terrain_heightfield_load_tiles (dir, NULL, -1, FALSE, NULL, NULL, &error);
  g_assert_null (field);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "Height_x1_y1.r16 is 17 x 17"));
  g_clear_error (&error);

  /* A second set in the same folder needs a pattern. */
  {
    g_autoptr(GBytes) other = g_bytes_new_static ("\0\0\0\0\0\0\0\0", 8);

    write_bytes (dir, "Other_x0_y0.r16", other);
  }
  field = terrain_heightfield_load_tiles (dir, NULL, -1, FALSE, NULL, NULL, &error);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "another set"));
  g_clear_error (&error);
  terrain_test_remove_tree (dir);
}

/* build-atlas and convert-heightmap take the folder or the pattern. */
static void
test_cli (void)
{
  g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-tiles");
  g_autofree char *tiles = g_build_filename (dir, "tiles", NULL);
  g_autofree char *pattern = g_build_filename (tiles, "Terrain_y%Y%_x%X%.png", NULL);
  g_autofree char *atlas = g_build_filename (dir, "t.atlas", NULL);
  g_autofree char *raw = g_build_filename (dir, "t.raw", NULL);
  g_autofree char *missing = g_build_filename (tiles, "Terrain_y01_x02.png", NULL);

  g_assert_cmpint (g_mkdir (tiles, 0755), ==, 0);
  write_tiles (tiles, &schemes[1], NULL);
  {
    g_auto(TerrainTestCliResult) build =
      terrain_test_run_cli (NULL, "build-atlas", tiles, "--tile-flip-y", "-o", atlas, "-q", NULL);
    g_auto(TerrainTestCliResult) convert =
      terrain_test_run_cli (NULL, "convert-heightmap", pattern, "--tile-flip-y",
                            "--tile-overlap", "0", raw, NULL);
    g_auto(TerrainTestCliResult) bad =
      terrain_test_run_cli (NULL, "convert-heightmap", pattern, "--tile-overlap", "many", raw,
                            NULL);
    g_autoptr(GFile) out = g_file_new_for_path (raw);
    g_autoptr(GBytes) bytes = g_file_load_bytes (out, NULL, NULL, NULL);

    g_assert_cmpint (build.status, ==, 0);
    g_assert_true (g_file_test (atlas, G_FILE_TEST_EXISTS));
    g_assert_cmpint (convert.status, ==, 0);
    g_assert_nonnull (bytes);
    g_assert_cmpuint (g_bytes_get_size (bytes), ==, 96 * 64 * 2);
    g_assert_cmpint (bad.status, ==, 64);
  }
  g_assert_cmpint (g_unlink (missing), ==, 0);
  {
    g_auto(TerrainTestCliResult) build =
      terrain_test_run_cli (NULL, "build-atlas", pattern, "-o", atlas, "-q", NULL);

    g_assert_cmpint (build.status, ==, 2);
    g_assert_nonnull (strstr (build.err, "Terrain_y01_x02.png"));
  }
  terrain_test_remove_tree (tiles);
  g_unlink (atlas);
  g_unlink (raw);
  terrain_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (schemes); i++)
    {
      g_autofree char *path = g_strdup_printf ("/Terrain/HeightfieldTiles/assemble/%s",
                                               schemes[i].name);

      g_test_add_data_func (path, &schemes[i], test_assemble);
    }
  g_test_add_func ("/Terrain/HeightfieldTiles/errors", test_errors);
  g_test_add_func ("/Terrain/HeightfieldTiles/cli", test_cli);
  return g_test_run ();
}
