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
#include "core/terrain-heightfield-private.h"
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

/* The whole terrain as one raw16 file of @width x @height samples. */
static GBytes *
whole_raw16 (guint width,
             guint height)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainHeightfield) field = terrain_heightfield_new (width, height, 1.0, &error);
  gfloat *data = terrain_heightfield_get_data (field, NULL);
  GBytes *bytes;

  g_assert_no_error (error);
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      data[(gsize) y * width + x] = whole_height (x, y);
  bytes = terrain_heightfield_to_raw16 (field, 1.0, 0.0, &error);
  g_assert_no_error (error);
  return bytes;
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

/* The file name of the tile at @column, @row of the grid (row 0 north). */
static char *
scheme_tile_name (const Scheme *scheme,
                  guint         column,
                  guint         row)
{
  guint ty = scheme->flip_y ? 1 - row : row;
  guint a = scheme->y_first ? ty : column, b = scheme->y_first ? column : ty;

  return g_strdup_printf (scheme->format, a + scheme->start, b + scheme->start);
}

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
        g_autofree char *name = scheme_tile_name (scheme, column, row);
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

/* The grid as tiles were assembled before they went to a file: each tile
 * decoded with @options, its floats copied into one grid in memory, row by
 * row of tiles. */
static gfloat *
memory_assembly (const char                      *dir,
                 const Scheme                    *scheme,
                 const TerrainHeightfieldOptions *options,
                 guint                           *width,
                 guint                           *height)
{
  guint side = scheme->shared_edges ? 33 : 32, step = 32;
  guint w = 2 * step + side, h = step + side;
  gfloat *grid = g_new (gfloat, (gsize) w * h);
  g_autofree gfloat *rows = g_new (gfloat, (gsize) side * side);

  for (guint row = 0; row < 2; row++)
    for (guint column = 0; column < 3; column++)
      {
        g_autofree char *name = scheme_tile_name (scheme, column, row);
        g_autofree char *path = g_build_filename (dir, name, NULL);
        g_autoptr(GFile) file = g_file_new_for_path (path);
        g_autoptr(GError) error = NULL;
        g_autoptr(TerrainHeightfield) tile = terrain_heightfield_load (file, options, NULL, &error);

        g_assert_no_error (error);
        terrain_heightfield_read_rect (tile, 0, 0, side, side, rows, side);
        for (guint r = 0; r < side; r++)
          memcpy (grid + (gsize) (row * step + r) * w + column * step, rows + (gsize) r * side,
                  side * sizeof (gfloat));
      }
  *width = w;
  *height = h;
  return grid;
}

/* Every sample of @field, through both accessors, is the very float of
 * @expected. */
static void
assert_same_grid (TerrainHeightfield *field,
                  const gfloat       *expected,
                  guint               width,
                  guint               height)
{
  g_autofree gfloat *row = g_new (gfloat, width);

  g_assert_nonnull (field);
  g_assert_cmpuint (terrain_heightfield_get_width (field), ==, width);
  g_assert_cmpuint (terrain_heightfield_get_height (field), ==, height);
  for (guint y = 0; y < height; y++)
    {
      const gfloat *want = expected + (gsize) y * width;

      terrain_heightfield_read_rect (field, 0, y, width, 1, row, width);
      g_assert_cmpmem (row, width * sizeof (gfloat), want, width * sizeof (gfloat));
      for (guint x = 0; x < width; x++)
        if (terrain_heightfield_get_sample (field, x, y) != want[x])
          g_error ("sample (%u, %u) is %.9g, not %.9g", x, y,
                   terrain_heightfield_get_sample (field, x, y), want[x]);
    }
}

/* 16-bit tiles (raw16 or 16-bit PNG) stay 16-bit in the mapped temporary
 * file, whatever the vertical scale, and read back the floats the grid in
 * memory held: with shared edges, without, and rows from the south. */
static void
test_compact (gconstpointer data)
{
  const Scheme *scheme = data;
  g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-tiles");
  TerrainHeightfieldOptions options;

  write_tiles (dir, scheme, NULL);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainHeightfield) field = NULL;
      g_autofree gfloat *expected = NULL;
      guint width, height;

      terrain_heightfield_options_init (&options);
      if (i == 1)
        {
          /* Not a power of two: float and double arithmetic differ. */
          options.vertical_scale = 0.05;
          options.vertical_offset = -3.25;
        }
      field = terrain_heightfield_load_tiles (dir, &options, -1, scheme->flip_y, NULL, NULL,
                                              &error);
      g_assert_no_error (error);
      g_assert_cmpint (field->storage, ==, HEIGHTFIELD_U16_LE);
      g_assert_true (terrain_heightfield_is_mapped (field));
      g_assert_null (terrain_heightfield_get_data (field, NULL));
      g_assert_cmpfloat (field->scale, ==, options.vertical_scale);
      expected = memory_assembly (dir, scheme, &options, &width, &height);
      assert_same_grid (field, expected, width, height);
    }
  terrain_test_remove_tree (dir);
}

/* A set with an 8-bit tile is written as floats, whether that tile is the
 * first read (the set is floats from the start) or a later one (the 16-bit
 * file is given up and the set written again as floats). */
static void
test_mixed (void)
{
  const Scheme *scheme = &schemes[1];
  const guint at[2][2] = { { 0, 1 }, { 2, 0 } };

  for (guint i = 0; i < G_N_ELEMENTS (at); i++)
    {
      g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-tiles");
      g_autofree char *name = scheme_tile_name (scheme, at[i][0], at[i][1]);
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainImage) grey = terrain_image_new (TERRAIN_IMAGE_GRAY8, 32, 32, &error);
      g_autoptr(GBytes) png = NULL;
      g_autoptr(TerrainHeightfield) field = NULL;
      g_autofree gfloat *expected = NULL;
      TerrainHeightfieldOptions options;
      guint8 *pixels;
      guint width, height;

      g_assert_no_error (error);
      write_tiles (dir, scheme, NULL);
      pixels = terrain_image_get_data (grey, NULL);
      for (guint y = 0; y < 32; y++)
        for (guint x = 0; x < 32; x++)
          pixels[y * terrain_image_get_stride (grey) + x] =
            (guint8) (whole_height (at[i][0] * 32 + x, at[i][1] * 32 + y) / 8);
      png = terrain_image_save_png_bytes (grey, &error);
      g_assert_no_error (error);
      write_bytes (dir, name, png);

      terrain_heightfield_options_init (&options);
      options.vertical_scale = 0.05;
      field = terrain_heightfield_load_tiles (dir, &options, 0, scheme->flip_y, NULL, NULL,
                                              &error);
      g_assert_no_error (error);
      g_assert_cmpint (field->storage, ==, HEIGHTFIELD_F32);
      g_assert_false (terrain_heightfield_is_mapped (field));
      expected = memory_assembly (dir, scheme, &options, &width, &height);
      assert_same_grid (field, expected, width, height);
      terrain_test_remove_tree (dir);
    }
}

/* build-atlas writes the same bytes from the tiles as from the same grid in
 * one raw16 file; without room for the temporary file it fails naming the
 * folder. */
static void
test_build_same_as_one_file (void)
{
  g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-tiles");
  g_autofree char *tiles = g_build_filename (dir, "tiles", NULL);
  g_autofree char *whole = g_build_filename (dir, "whole.r16", NULL);
  g_autofree char *from_tiles = g_build_filename (dir, "tiles.atlas", NULL);
  g_autofree char *from_file = g_build_filename (dir, "whole.atlas", NULL);
  g_autofree char *no_dir = g_build_filename (dir, "no-such-folder", NULL);
  g_autoptr(GBytes) raw = whole_raw16 (97, 65);

  g_assert_cmpint (g_mkdir (tiles, 0755), ==, 0);
  write_tiles (tiles, &schemes[0], NULL);
  write_bytes (dir, "whole.r16", raw);
  {
    g_auto(TerrainTestCliResult) a =
      terrain_test_run_cli (NULL, "build-atlas", tiles, "--vertical-scale", "0.05", "--spacing",
                            "10", "--error", "0.5", "-o", from_tiles, "--quiet", NULL);
    g_auto(TerrainTestCliResult) b =
      terrain_test_run_cli (NULL, "build-atlas", whole, "--raw-size", "97x65", "--vertical-scale",
                            "0.05", "--spacing", "10", "--error", "0.5", "-o", from_file,
                            "--quiet", NULL);
    g_autofree char *a_data = NULL, *b_data = NULL;
    gsize a_size = 0, b_size = 0;

    g_assert_cmpint (a.status, ==, 0);
    g_assert_cmpint (b.status, ==, 0);
    g_assert_true (g_file_get_contents (from_tiles, &a_data, &a_size, NULL));
    g_assert_true (g_file_get_contents (from_file, &b_data, &b_size, NULL));
    g_assert_cmpmem (a_data, a_size, b_data, b_size);
  }
  {
    g_autofree char *saved = g_strdup (g_getenv ("TMPDIR"));
    g_auto(TerrainTestCliResult) r = { -1, NULL, NULL };

    g_setenv ("TMPDIR", no_dir, TRUE);
    r = terrain_test_run_cli (NULL, "build-atlas", tiles, "-o", from_tiles, "--quiet", NULL);
    if (saved != NULL)
      g_setenv ("TMPDIR", saved, TRUE);
    else
      g_unsetenv ("TMPDIR");
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "temporary file"));
    g_assert_nonnull (strstr (r.err, no_dir));
  }
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
      g_free (path);
      path = g_strdup_printf ("/Terrain/HeightfieldTiles/compact/%s", schemes[i].name);
      g_test_add_data_func (path, &schemes[i], test_compact);
    }
  g_test_add_func ("/Terrain/HeightfieldTiles/mixed", test_mixed);
  g_test_add_func ("/Terrain/HeightfieldTiles/build-same-as-one-file", test_build_same_as_one_file);
  g_test_add_func ("/Terrain/HeightfieldTiles/errors", test_errors);
  g_test_add_func ("/Terrain/HeightfieldTiles/cli", test_cli);
  return g_test_run ();
}
