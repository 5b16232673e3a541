/* test-cli.c: the terrain command-line tool, run as a user would
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "libterrain.h"

typedef struct
{
  char *dir;
  char *map;
  char *palette;
} Fixture;

typedef struct
{
  int status;
  char *out;
  char *err;
} Result;

static void
result_clear (Result *result)
{
  g_clear_pointer (&result->out, g_free);
  g_clear_pointer (&result->err, g_free);
}

/* Runs `terrain ARGS...` and returns its exit status and output. */
static Result
run_terrain (const char *first,
             ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("TERRAIN_CLI");
  Result result = { 0 };
  int wait_status = 0;
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                &result.out, &result.err, &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  result.status = WEXITSTATUS (wait_status);

  return result;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(GBytes) pal_bytes = NULL;
  g_autoptr(GFile) map_file = NULL;
  g_autoptr(GFile) pal_file = NULL;
  guint8 rgb[256 * 3];
  guint8 tile[TERRAIN_TNT_TILE_BYTES];

  fixture->dir = g_dir_make_tmp ("terrain-cli-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->map = g_build_filename (fixture->dir, "map.tnt", NULL);
  fixture->palette = g_build_filename (fixture->dir, "test.pal", NULL);

  for (guint i = 0; i < 256; i++)
    {
      rgb[3 * i] = (guint8) i;
      rgb[3 * i + 1] = (guint8) (255 - i);
      rgb[3 * i + 2] = 7;
    }
  palette = terrain_palette_new_from_rgb (rgb, 256);
  pal_bytes = terrain_palette_to_pal_bytes (palette);
  pal_file = g_file_new_for_path (fixture->palette);
  g_assert_true (terrain_file_save_bytes (pal_file, pal_bytes, NULL, &error));

  map = terrain_tnt_map_new (8, 6, &error);
  g_assert_no_error (error);
  memset (tile, 200, sizeof tile);
  terrain_tnt_map_set_tile_index (map, 1, 1, (guint16) terrain_tnt_map_add_tile (map, tile));
  for (guint y = 0; y < 6; y++)
    for (guint x = 0; x < 8; x++)
      terrain_tnt_map_set_cell_height (map, x, y, (guint8) (x * 10 + y));
  terrain_tnt_map_set_sea_level (map, 20);
  terrain_tnt_map_update_minimap (map);
  map_file = g_file_new_for_path (fixture->map);
  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (map), map_file, NULL, &error));
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (fixture->dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (fixture->dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->map);
  g_free (fixture->palette);
}

static GBytes *
read_file (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  GBytes *bytes = terrain_file_load_bytes (file, NULL, &error);

  g_assert_no_error (error);
  return bytes;
}

static void
test_help_and_version (void)
{
  Result r = run_terrain ("--help", NULL);

  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "roundtrip"));
  g_assert_nonnull (strstr (r.out, "Exit status"));
  result_clear (&r);

  r = run_terrain ("--version", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, PACKAGE_VERSION));
  result_clear (&r);

  r = run_terrain ("info", "--help", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "--json"));
  result_clear (&r);

  r = run_terrain ("frobnicate", NULL);
  g_assert_cmpint (r.status, ==, 64);
  g_assert_nonnull (strstr (r.err, "frobnicate"));
  result_clear (&r);

  r = run_terrain ("info", NULL);
  g_assert_cmpint (r.status, ==, 64);
  result_clear (&r);
}

static void
test_info (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *object;
  Result r = run_terrain ("info", fixture->map, NULL);

  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "sea_level: 20"));
  result_clear (&r);

  r = run_terrain ("info", "--json", fixture->map, NULL);
  g_assert_cmpint (r.status, ==, 0);
  json_parser_load_from_data (parser, r.out, -1, &error);
  g_assert_no_error (error);
  object = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (object, "format"), ==, "tnt");
  g_assert_cmpint (json_object_get_int_member (object, "width"), ==, 8);
  g_assert_cmpint (json_object_get_int_member (object, "height"), ==, 6);
  g_assert_cmpint (json_object_get_int_member (object, "sea_level"), ==, 20);
  g_assert_cmpint (json_object_get_int_member (object, "tiles"), ==, 2);
  result_clear (&r);
}

static void
test_validate_and_roundtrip (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *truncated = g_build_filename (fixture->dir, "cut.tnt", NULL);
  g_autoptr(GBytes) bytes = read_file (fixture->map);
  g_autoptr(GError) error = NULL;
  Result r;

  r = run_terrain ("validate", fixture->map, NULL);
  g_assert_cmpint (r.status, ==, 0);
  result_clear (&r);

  r = run_terrain ("roundtrip", fixture->map, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "pass"));
  result_clear (&r);

  /* A file cut short: validate exits 2 and says where; roundtrip exits 2
   * with one line on stderr naming the file. */
  g_assert_true (g_file_set_contents (truncated, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes) - 100, &error));
  r = run_terrain ("validate", truncated, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.out, "cut.tnt: error:"));
  g_assert_nonnull (strstr (r.out, "offset"));
  result_clear (&r);

  r = run_terrain ("roundtrip", truncated, fixture->map, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "cut.tnt"));
  g_assert_cmpint (strchr (r.err, '\n') - r.err, ==, (int) strlen (r.err) - 1);
  result_clear (&r);
}

static void
test_validate_warnings (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *broken = g_build_filename (fixture->dir, "broken.tnt", NULL);
  g_autoptr(GFile) in = g_file_new_for_path (fixture->map);
  g_autoptr(GFile) out = g_file_new_for_path (broken);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new_from_file (in, NULL, NULL, &error);
  Result r;

  g_assert_no_error (error);
  /* A tile index past the tile count: loads, but validate warns. */
  terrain_tnt_map_set_tile_index (map, 0, 0, 999);
  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (map), out, NULL, &error));

  r = run_terrain ("validate", broken, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.out, "warning"));
  g_assert_nonnull (strstr (r.out, "999"));
  result_clear (&r);

  r = run_terrain ("validate", "--json", broken, fixture->map, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.out, "\"severity\" : \"warning\""));
  result_clear (&r);
}

static void
test_set_sea_level (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *copy = g_build_filename (fixture->dir, "copy.tnt", NULL);
  g_autoptr(GBytes) before = read_file (fixture->map);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) written = NULL;
  const guint8 *a, *b;
  gsize size_a, size_b;
  Result r;

  /* With -o the original stays as it was. */
  r = run_terrain ("set-sea-level", fixture->map, "75", "-o", copy, NULL);
  g_assert_cmpint (r.status, ==, 0);
  result_clear (&r);
  after = read_file (fixture->map);
  g_assert_true (g_bytes_equal (before, after));

  written = read_file (copy);
  a = g_bytes_get_data (before, &size_a);
  b = g_bytes_get_data (written, &size_b);
  g_assert_cmpuint (size_a, ==, size_b);
  for (gsize i = 0; i < size_a; i++)
    {
      if (i == 0x24)
        g_assert_cmpuint (b[i], ==, 75);
      else
        g_assert_cmpuint (a[i], ==, b[i]);
    }

  /* In place. */
  r = run_terrain ("set-sea-level", fixture->map, "33", NULL);
  g_assert_cmpint (r.status, ==, 0);
  result_clear (&r);
  g_clear_pointer (&after, g_bytes_unref);
  after = read_file (fixture->map);
  g_assert_cmpuint (((const guint8 *) g_bytes_get_data (after, NULL))[0x24], ==, 33);

  r = run_terrain ("set-sea-level", fixture->map, "lots", NULL);
  g_assert_cmpint (r.status, ==, 64);
  result_clear (&r);
}

static void
test_export (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *png = g_build_filename (fixture->dir, "map.png", NULL);
  g_autofree char *heights = g_build_filename (fixture->dir, "heights.png", NULL);
  g_autoptr(GBytes) png_bytes = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *pixels;
  const guint16 *samples;
  Result r;

  r = run_terrain ("export-image", fixture->map, png, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--palette"));
  result_clear (&r);

  r = run_terrain ("export-image", "--palette", fixture->palette, fixture->map, png, NULL);
  g_assert_cmpint (r.status, ==, 0);
  result_clear (&r);
  png_bytes = read_file (png);
  image = terrain_image_load_png_bytes (png_bytes, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_image_get_width (image), ==, 8 * 16);
  g_assert_cmpuint (terrain_image_get_height (image), ==, 6 * 16);
  pixels = terrain_image_get_data (image, NULL);
  /* Tile (1, 1) is filled with index 200 -> (200, 55, 7). */
  pixels += (gsize) (32 + 5) * terrain_image_get_stride (image) + (32 + 5) * 4;
  g_assert_cmpuint (pixels[0], ==, 200);
  g_assert_cmpuint (pixels[1], ==, 55);
  g_assert_cmpuint (pixels[2], ==, 7);
  g_assert_cmpuint (pixels[3], ==, 255);
  g_clear_pointer (&image, terrain_image_unref);
  g_clear_pointer (&png_bytes, g_bytes_unref);

  r = run_terrain ("export-heightmap", fixture->map, heights, NULL);
  g_assert_cmpint (r.status, ==, 0);
  result_clear (&r);
  png_bytes = read_file (heights);
  image = terrain_image_load_png_bytes (png_bytes, &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_image_get_format (image), ==, TERRAIN_IMAGE_GRAY16);
  g_assert_cmpuint (terrain_image_get_width (image), ==, 8);
  g_assert_cmpuint (terrain_image_get_height (image), ==, 6);
  samples = (const guint16 *) terrain_image_get_data (image, NULL);
  g_assert_cmpuint (samples[2 * 8 + 3], ==, (3 * 10 + 2) * 257);
}

static void
test_missing_file (void)
{
  Result r = run_terrain ("info", "/nonexistent/x.tnt", NULL);

  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "/nonexistent/x.tnt"));
  result_clear (&r);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/Cli/help-and-version", test_help_and_version);
  g_test_add_func ("/Terrain/Cli/missing-file", test_missing_file);
  g_test_add ("/Terrain/Cli/info", Fixture, NULL, fixture_set_up, test_info, fixture_tear_down);
  g_test_add ("/Terrain/Cli/validate-and-roundtrip", Fixture, NULL, fixture_set_up,
              test_validate_and_roundtrip, fixture_tear_down);
  g_test_add ("/Terrain/Cli/validate-warnings", Fixture, NULL, fixture_set_up,
              test_validate_warnings, fixture_tear_down);
  g_test_add ("/Terrain/Cli/set-sea-level", Fixture, NULL, fixture_set_up, test_set_sea_level,
              fixture_tear_down);
  g_test_add ("/Terrain/Cli/export", Fixture, NULL, fixture_set_up, test_export,
              fixture_tear_down);

  return g_test_run ();
}
