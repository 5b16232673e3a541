/* test-cli.c: the terrain command-line tool, run as a user would
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "libterrain.h"
#include "terrain-test-util.h"

typedef struct
{
  char *dir;
  char *map;
  char *palette;
} Fixture;

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
  terrain_tnt_map_set_sea_level (map, 20, NULL);
  terrain_tnt_map_update_minimap (map, palette);
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
  TerrainTestCliResult r = terrain_test_run_cli (NULL, "--help", NULL);

  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "roundtrip"));
  g_assert_nonnull (strstr (r.out, "Exit status"));
  terrain_test_cli_result_clear (&r);

  r = terrain_test_run_cli (NULL, "--version", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, PACKAGE_VERSION));
  terrain_test_cli_result_clear (&r);

  r = terrain_test_run_cli (NULL, "info", "--help", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "--json"));
  terrain_test_cli_result_clear (&r);

  r = terrain_test_run_cli (NULL, "frobnicate", NULL);
  g_assert_cmpint (r.status, ==, 64);
  g_assert_nonnull (strstr (r.err, "frobnicate"));
  terrain_test_cli_result_clear (&r);

  r = terrain_test_run_cli (NULL, "info", NULL);
  g_assert_cmpint (r.status, ==, 64);
  terrain_test_cli_result_clear (&r);
}

static void
test_info (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *object;
  TerrainTestCliResult r = terrain_test_run_cli (NULL, "info", fixture->map, NULL);

  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "sea_level: 20"));
  terrain_test_cli_result_clear (&r);

  r = terrain_test_run_cli (NULL, "info", "--json", fixture->map, NULL);
  g_assert_cmpint (r.status, ==, 0);
  json_parser_load_from_data (parser, r.out, -1, &error);
  g_assert_no_error (error);
  object = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (object, "format"), ==, "tnt");
  g_assert_cmpint (json_object_get_int_member (object, "width"), ==, 8);
  g_assert_cmpint (json_object_get_int_member (object, "height"), ==, 6);
  g_assert_cmpint (json_object_get_int_member (object, "sea_level"), ==, 20);
  g_assert_cmpint (json_object_get_int_member (object, "tiles"), ==, 2);
  terrain_test_cli_result_clear (&r);
}

static void
test_validate_and_roundtrip (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *truncated = g_build_filename (fixture->dir, "cut.tnt", NULL);
  g_autoptr(GBytes) bytes = read_file (fixture->map);
  g_autoptr(GError) error = NULL;
  TerrainTestCliResult r;

  r = terrain_test_run_cli (NULL, "validate", fixture->map, NULL);
  g_assert_cmpint (r.status, ==, 0);
  terrain_test_cli_result_clear (&r);

  r = terrain_test_run_cli (NULL, "roundtrip", fixture->map, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "pass"));
  terrain_test_cli_result_clear (&r);

  /* A file cut short: validate exits 2 and says where; roundtrip exits 2
   * with one line on stderr naming the file. */
  g_assert_true (g_file_set_contents (truncated, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes) - 100, &error));
  r = terrain_test_run_cli (NULL, "validate", truncated, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.out, "cut.tnt: error:"));
  g_assert_nonnull (strstr (r.out, "offset"));
  terrain_test_cli_result_clear (&r);

  r = terrain_test_run_cli (NULL, "roundtrip", truncated, fixture->map, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "cut.tnt"));
  g_assert_cmpint (strchr (r.err, '\n') - r.err, ==, (int) strlen (r.err) - 1);
  terrain_test_cli_result_clear (&r);
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
  TerrainTestCliResult r;

  g_assert_no_error (error);
  /* A tile index past the tile count: loads, but validate warns. */
  terrain_tnt_map_set_tile_index (map, 0, 0, 999);
  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (map), out, NULL, &error));

  r = terrain_test_run_cli (NULL, "validate", broken, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.out, "warning"));
  g_assert_nonnull (strstr (r.out, "999"));
  terrain_test_cli_result_clear (&r);

  r = terrain_test_run_cli (NULL, "validate", "--json", broken, fixture->map, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.out, "\"severity\" : \"warning\""));
  terrain_test_cli_result_clear (&r);
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
  TerrainTestCliResult r;

  /* With -o the original stays as it was. */
  r = terrain_test_run_cli (NULL, "set-sea-level", fixture->map, "75", "-o", copy, NULL);
  g_assert_cmpint (r.status, ==, 0);
  terrain_test_cli_result_clear (&r);
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

  /* --dry-run, as every editing command: the report and the one byte
   * range, and nothing written. */
  r = terrain_test_run_cli (NULL, "set-sea-level", fixture->map, "33", "--dry-run", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Set sea level to 33: sea level "));
  g_assert_nonnull (strstr (r.out, "bytes 36..36 (1 changed): header"));
  g_assert_nonnull (strstr (r.out, "not written"));
  terrain_test_cli_result_clear (&r);
  g_clear_pointer (&after, g_bytes_unref);
  after = read_file (fixture->map);
  g_assert_true (g_bytes_equal (before, after));

  /* In place; the report once the file is on disk. */
  r = terrain_test_run_cli (NULL, "set-sea-level", fixture->map, "33", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "-> 33"));
  terrain_test_cli_result_clear (&r);
  g_clear_pointer (&after, g_bytes_unref);
  after = read_file (fixture->map);
  g_assert_cmpuint (((const guint8 *) g_bytes_get_data (after, NULL))[0x24], ==, 33);

  /* The same level again changes nothing, and the file is not rewritten. */
  r = terrain_test_run_cli (NULL, "set-sea-level", fixture->map, "33", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "not rewritten"));
  terrain_test_cli_result_clear (&r);

  r = terrain_test_run_cli (NULL, "set-sea-level", fixture->map, "lots", NULL);
  g_assert_cmpint (r.status, ==, 64);
  terrain_test_cli_result_clear (&r);

  /* Heights are bytes: a level above 255 would drown every cell. */
  r = terrain_test_run_cli (NULL, "set-sea-level", fixture->map, "300", NULL);
  g_assert_cmpint (r.status, ==, 64);
  g_assert_nonnull (strstr (r.err, "sea level 300 is above the maximum 255"));
  terrain_test_cli_result_clear (&r);
  g_clear_pointer (&after, g_bytes_unref);
  after = read_file (fixture->map);
  g_assert_cmpuint (((const guint8 *) g_bytes_get_data (after, NULL))[0x24], ==, 33);
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
  TerrainTestCliResult r;

  r = terrain_test_run_cli (NULL, "export-image", fixture->map, png, NULL);
  g_assert_cmpint (r.status, ==, 64);   /* a missing option: usage */
  g_assert_nonnull (strstr (r.err, "--palette"));
  terrain_test_cli_result_clear (&r);

  r = terrain_test_run_cli (NULL, "export-image", "--palette", fixture->palette, fixture->map, png,
                            NULL);
  g_assert_cmpint (r.status, ==, 0);
  terrain_test_cli_result_clear (&r);
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

  r = terrain_test_run_cli (NULL, "export-heightmap", fixture->map, heights, NULL);
  g_assert_cmpint (r.status, ==, 0);
  terrain_test_cli_result_clear (&r);
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
  TerrainTestCliResult r = terrain_test_run_cli (NULL, "info", "/nonexistent/x.tnt", NULL);

  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "/nonexistent/x.tnt"));
  terrain_test_cli_result_clear (&r);
}

/* ------------------------------------------------------------------------ */
/* terrain tnt                                                              */

static TerrainTntMap *
load_map (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  TerrainTntMap *map = terrain_tnt_map_new_from_file (file, NULL, NULL, &error);

  g_assert_no_error (error);
  return map;
}

static void
test_tnt_features (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *out = g_build_filename (fixture->dir, "features.tnt", NULL);
  g_autofree char *overlay = g_build_filename (fixture->dir, "overlay.png", NULL);
  g_autoptr(GBytes) before = read_file (fixture->map);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) out_before = NULL;
  g_autoptr(GBytes) out_after = NULL;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GError) error = NULL;
  TerrainTestCliResult r;

  /* Place a 2x2 feature into a copy: the original stays. */
  r = terrain_test_run_cli (NULL, "tnt", "features", "add", fixture->map, "Rock", "2", "3",
                            "--footprint", "rock=2x2", "-o", out, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "placed Rock (record 0, new) at (2, 3), footprint 2x2"));
  terrain_test_cli_result_clear (&r);
  after = read_file (fixture->map);
  g_assert_true (g_bytes_equal (before, after));
  map = load_map (out);
  g_assert_cmpuint (terrain_tnt_map_get_n_features (map), ==, 1);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 2, 3), ==, 0);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 3, 4), ==, TERRAIN_TNT_FEATURE_FRINGE);
  g_clear_object (&map);

  r = terrain_test_run_cli (NULL, "tnt", "features", "list", out, "--json", "--footprint",
                            "ROCK=2x2", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\"footprint\" : \"2x2\""));
  g_assert_nonnull (strstr (r.out, "\"placed\" : 1"));
  terrain_test_cli_result_clear (&r);

  /* --dry-run reports the changed bytes and writes nothing. */
  out_before = read_file (out);
  r = terrain_test_run_cli (NULL, "tnt", "features", "move", out, "2", "3", "5", "1",
                            "--footprint", "Rock=2x2",
                            "--dry-run", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "moved feature 0 (Rock) from (2, 3) to (5, 1)"));
  g_assert_nonnull (strstr (r.out, "bytes would change"));
  g_assert_nonnull (strstr (r.out, "attribute map, cell"));
  g_assert_nonnull (strstr (r.out, "not written"));
  terrain_test_cli_result_clear (&r);
  out_after = read_file (out);
  g_assert_true (g_bytes_equal (out_before, out_after));

  /* In place. */
  r = terrain_test_run_cli (NULL, "tnt", "features", "move", out, "2", "3", "5", "1",
                            "--footprint", "Rock=2x2",
                            NULL);
  g_assert_cmpint (r.status, ==, 0);
  terrain_test_cli_result_clear (&r);
  map = load_map (out);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 5, 1), ==, 0);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 6, 2), ==, TERRAIN_TNT_FEATURE_FRINGE);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 3, 4), ==, TERRAIN_TNT_FEATURE_NONE);
  g_clear_object (&map);

  r = terrain_test_run_cli (NULL, "tnt", "features", "overlay", out, overlay, "--cell-pixels", "2",
                            "--footprint", "Rock=2x2", NULL);
  g_assert_cmpint (r.status, ==, 0);
  terrain_test_cli_result_clear (&r);
  g_clear_pointer (&out_after, g_bytes_unref);
  out_after = read_file (overlay);
  image = terrain_image_load_png_bytes (out_after, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_image_get_width (image), ==, 16);
  g_assert_cmpuint (terrain_image_get_height (image), ==, 12);

  /* Remove it, then clean the table up. */
  r = terrain_test_run_cli (NULL, "tnt", "features", "remove", out, "0", "0", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "anchors no feature"));
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "features", "remove", out, "5", "1", "--footprint",
                            "Rock=2x2", NULL);
  g_assert_cmpint (r.status, ==, 0);
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "features", "cleanup", out, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "removed 1 unused feature record (1 -> 0)"));
  terrain_test_cli_result_clear (&r);
  map = load_map (out);
  g_assert_cmpuint (terrain_tnt_map_get_n_features (map), ==, 0);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 6, 2), ==, TERRAIN_TNT_FEATURE_NONE);

  /* Footprints from TDF definitions in a folder. */
  {
    g_autofree char *folder = g_build_filename (fixture->dir, "features", NULL);
    g_autofree char *tdf = g_build_filename (folder, "rocks.tdf", NULL);

    g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
    g_assert_true (g_file_set_contents (tdf, "[BigRock]\n{\n  footprintX=3; footprintz=2;\n}\n",
                                        -1, &error));
    r = terrain_test_run_cli (NULL, "tnt", "features", "add", out, "bigrock", "1", "1",
                              "--features", folder,
                              NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "placed bigrock (record 0, new) at (1, 1), footprint 3x2"));
    terrain_test_cli_result_clear (&r);
    g_clear_object (&map);
    map = load_map (out);
    g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 3, 2), ==,
                      TERRAIN_TNT_FEATURE_FRINGE);

    /* What the catalogue finds in the definitions is said, file and line:
     * a footprint that is not one, a name defined twice. */
    g_assert_true (g_file_set_contents (tdf, "[BadRock]\n{\n  footprintx=0; footprintz=abc;\n}\n"
                                        "[badrock]\n{\n  footprintx=2; footprintz=2;\n}\n",
                                        -1, &error));
    r = terrain_test_run_cli (NULL, "tnt", "features", "list", out, "--features", folder, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.err, "rocks.tdf"));
    g_assert_nonnull (strstr (r.err, "line 3: feature [BadRock]: footprintx=0 is not a footprint"));
    g_assert_nonnull (strstr (r.err, "footprintz=abc is not a footprint"));
    g_assert_nonnull (strstr (r.err, "[badrock] is defined again"));
    terrain_test_cli_result_clear (&r);
    g_unlink (tdf);
    g_rmdir (folder);
  }

  /* Usage errors. */
  r = terrain_test_run_cli (NULL, "tnt", "features", "add", fixture->map, "Rock", "2", NULL);
  g_assert_cmpint (r.status, ==, 64);
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "features", "add", fixture->map, "Rock", "2", "2",
                            "--footprint",
                            "Rock=0x1", NULL);
  g_assert_cmpint (r.status, ==, 64);
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "features", "frobnicate", NULL);
  g_assert_cmpint (r.status, ==, 64);
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", NULL);
  g_assert_cmpint (r.status, ==, 64);
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "--help", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "import-heightmap"));
  terrain_test_cli_result_clear (&r);
}

static void
test_tnt_heights (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *script = g_build_filename (fixture->dir, "dabs.txt", NULL);
  g_autofree char *bad = g_build_filename (fixture->dir, "bad.txt", NULL);
  g_autoptr(GBytes) before = read_file (fixture->map);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(GError) error = NULL;
  TerrainTestCliResult r;

  g_assert_true (g_file_set_contents (script,
                                      "# two dabs\n"
                                      "raise 3 2 radius=0 strength=5\n"
                                      "\n"
                                      "set 6 4 radius=1 level=7 falloff=constant  # a plateau\n",
                                      -1, &error));
  g_assert_true (g_file_set_contents (bad, "raise 1 1\nsink 2 2\n", -1, &error));

  r = terrain_test_run_cli (NULL, "tnt", "heights", "brush", fixture->map, "--script", script,
                            "--dry-run",
                            NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "2 dabs, 6 cells changed"));
  g_assert_nonnull (strstr (r.out, "6 of "));
  terrain_test_cli_result_clear (&r);
  after = read_file (fixture->map);
  g_assert_true (g_bytes_equal (before, after));

  r = terrain_test_run_cli (NULL, "tnt", "heights", "brush", fixture->map, "--script", script,
                            NULL);
  g_assert_cmpint (r.status, ==, 0);
  terrain_test_cli_result_clear (&r);
  map = load_map (fixture->map);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 3, 2), ==, 32 + 5);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 6, 4), ==, 7);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 7, 4), ==, 7);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 6, 3), ==, 7);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 7, 5), ==, 75);
  g_clear_object (&map);

  r = terrain_test_run_cli (NULL, "tnt", "heights", "brush", fixture->map, "--at", "1,1", "--mode",
                            "lower",
                            "--radius", "0", "--strength", "100", NULL);
  g_assert_cmpint (r.status, ==, 0);
  terrain_test_cli_result_clear (&r);
  map = load_map (fixture->map);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 1, 1), ==, 0);

  r = terrain_test_run_cli (NULL, "tnt", "heights", "brush", fixture->map, "--script", bad, NULL);
  g_assert_cmpint (r.status, ==, 64);
  g_assert_nonnull (strstr (r.err, "bad.txt:2: unknown mode"));
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "heights", "brush", fixture->map, NULL);
  g_assert_cmpint (r.status, ==, 64);
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "heights", "brush", fixture->map, "--at", "1,1", "--mode",
                            "dig",
                            NULL);
  g_assert_cmpint (r.status, ==, 64);
  g_assert_nonnull (strstr (r.err, "raise, lower, smooth, flatten, set"));
  terrain_test_cli_result_clear (&r);

  /* Issue 19: a dab entirely off the map said "0 cells changed" and exited
   * 0. It is refused, naming the map's cells, and the file is untouched. */
  g_clear_pointer (&before, g_bytes_unref);
  before = read_file (fixture->map);
  r = terrain_test_run_cli (NULL, "tnt", "heights", "brush", fixture->map, "--at", "500,-40",
                            "--radius", "3", NULL);
  g_assert_cmpint (r.status, ==, 64);
  g_assert_nonnull (strstr (r.err, "the dab at 500,-40 (radius 3) lies outside the map"));
  g_assert_null (strstr (r.out, "cells changed"));
  terrain_test_cli_result_clear (&r);
  g_clear_pointer (&after, g_bytes_unref);
  after = read_file (fixture->map);
  g_assert_true (g_bytes_equal (before, after));
  /* A dab whose centre is off the map but whose radius reaches it works. */
  r = terrain_test_run_cli (NULL, "tnt", "heights", "brush", fixture->map, "--at", "-2,1",
                            "--radius", "3", "--dry-run", NULL);
  g_assert_cmpint (r.status, ==, 0);
  terrain_test_cli_result_clear (&r);
}

static void
test_tnt_void_resize (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(TerrainTntMap) map = NULL;
  TerrainTestCliResult r;

  r = terrain_test_run_cli (NULL, "tnt", "void", fixture->map, "0", "0", "2", "2", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "voided 4 cells"));
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "void", fixture->map, "1", "1", "--unmark", NULL);
  g_assert_cmpint (r.status, ==, 0);
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "void", fixture->map, "7", "5", "2", "2", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "does not lie within the 8x6 grid"));
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "void", fixture->map, "1", "1", "2", NULL);
  g_assert_cmpint (r.status, ==, 64);
  terrain_test_cli_result_clear (&r);

  r = terrain_test_run_cli (NULL, "tnt", "paint", fixture->map, "0", "0", "1", "2", "1", NULL);
  g_assert_cmpint (r.status, ==, 0);
  terrain_test_cli_result_clear (&r);

  r = terrain_test_run_cli (NULL, "tnt", "resize", fixture->map, "--left", "2", "--bottom", "2",
                            "--fill-height", "9", "--palette", fixture->palette, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "8x6 -> 10x8 cells"));
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "resize", fixture->map, "--left", "1", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "must be even"));
  terrain_test_cli_result_clear (&r);

  map = load_map (fixture->map);
  g_assert_cmpuint (terrain_tnt_map_get_width (map), ==, 10);
  g_assert_cmpuint (terrain_tnt_map_get_height (map), ==, 8);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 2, 0), ==, TERRAIN_TNT_FEATURE_VOID);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 3, 1), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 0, 0), ==, 9);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 5, 2), ==, 32);
  /* Painted (0, 0) and (1, 0), then shifted one tile east; the fixture's
   * tile (1, 1) likewise. */
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 0, 0), ==, 0);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 1, 0), ==, 1);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 2, 0), ==, 1);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 2, 1), ==, 1);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 1, 1), ==, 0);
}

static void
test_tnt_images (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *picture = g_build_filename (fixture->dir, "picture.png", NULL);
  g_autofree char *heights = g_build_filename (fixture->dir, "heights.png", NULL);
  g_autofree char *minimap = g_build_filename (fixture->dir, "minimap.png", NULL);
  g_autofree char *out = g_build_filename (fixture->dir, "imported.tnt", NULL);
  g_autoptr(GBytes) before = read_file (fixture->map);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) png = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(GError) error = NULL;
  TerrainTestCliResult r;

  r = terrain_test_run_cli (NULL, "export-image", "--palette", fixture->palette, fixture->map,
                            picture, NULL);
  g_assert_cmpint (r.status, ==, 0);
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "import-image", fixture->map, picture, "-p",
                            fixture->palette,
                            "-o", out, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "128x96 pixels: 12 tile positions, 2 unique tiles"));
  terrain_test_cli_result_clear (&r);
  map = load_map (out);
  g_assert_cmpuint (terrain_tnt_map_get_n_tiles (map), ==, 2);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 1, 1), ==, 1);
  g_assert_cmpuint (terrain_tnt_map_get_tile (map, 1)[0], ==, 200);
  g_clear_object (&map);

  r = terrain_test_run_cli (NULL, "tnt", "import-image", fixture->map, picture, NULL);
  g_assert_cmpint (r.status, ==, 64);
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "import-image", fixture->map, fixture->palette, "-p",
                            fixture->palette,
                            NULL);
  g_assert_cmpint (r.status, ==, 2);
  terrain_test_cli_result_clear (&r);

  /* An exported heightmap imports without a change: nothing is written. */
  r = terrain_test_run_cli (NULL, "export-heightmap", fixture->map, heights, NULL);
  g_assert_cmpint (r.status, ==, 0);
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "import-heightmap", fixture->map, heights, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "8x6 heights: 0 cells changed"));
  g_assert_nonnull (strstr (r.out, "not rewritten"));
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "import-heightmap", fixture->map, picture, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "one pixel per 16x16-pixel cell"));
  terrain_test_cli_result_clear (&r);
  after = read_file (fixture->map);
  g_assert_true (g_bytes_equal (before, after));

  /* Minimap: regenerate in place and export the used rectangle. */
  r = terrain_test_run_cli (NULL, "tnt", "minimap", fixture->map, "--regenerate", "-p",
                            fixture->palette,
                            "--export", minimap, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "regenerated the 252x252 minimap"));
  terrain_test_cli_result_clear (&r);
  png = read_file (minimap);
  image = terrain_image_load_png_bytes (png, &error);
  g_assert_no_error (error);
  map = load_map (fixture->map);
  {
    guint used_w, used_h;

    terrain_tnt_map_get_minimap_used_size (map, &used_w, &used_h);
    g_assert_cmpuint (terrain_image_get_width (image), ==, used_w);
    g_assert_cmpuint (terrain_image_get_height (image), ==, used_h);
  }

  r = terrain_test_run_cli (NULL, "tnt", "minimap", fixture->map, "-p", fixture->palette, NULL);
  g_assert_cmpint (r.status, ==, 64);
  terrain_test_cli_result_clear (&r);

  /* Through the edit runner: --dry-run writes neither the map nor the
   * PNG; --export alone leaves the map as it is. */
  g_clear_pointer (&before, g_bytes_unref);
  before = read_file (fixture->map);
  g_assert_cmpint (g_remove (minimap), ==, 0);
  r = terrain_test_run_cli (NULL, "tnt", "minimap", fixture->map, "--regenerate", "-p",
                            fixture->palette, "--export", minimap, "--dry-run", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "not written"));
  terrain_test_cli_result_clear (&r);
  g_assert_false (g_file_test (minimap, G_FILE_TEST_EXISTS));
  r = terrain_test_run_cli (NULL, "tnt", "minimap", fixture->map, "-p", fixture->palette,
                            "--export", minimap, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "not rewritten"));
  terrain_test_cli_result_clear (&r);
  g_assert_true (g_file_test (minimap, G_FILE_TEST_EXISTS));
  g_clear_pointer (&after, g_bytes_unref);
  after = read_file (fixture->map);
  g_assert_true (g_bytes_equal (before, after));
}

/* A version 3 section of 2x1 tiles: tile 0 equals the fixture map's tile 1
 * (all 200), tile 1 is new (all 9); heights 50 + x + 10 y. */
static void
write_section (const char *path)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  guint32 header[7] = { 3, 0, 2, 0, 2, 1, 28 };
  guint8 block[TERRAIN_TNT_TILE_BYTES];
  gsize tiles_offset = 28 + 2 * 2 + 4 * 8;

  header[3] = (guint32) tiles_offset;
  header[1] = (guint32) (tiles_offset + 2 * TERRAIN_TNT_TILE_BYTES);
  for (guint i = 0; i < 7; i++)
    header[i] = GUINT32_TO_LE (header[i]);
  g_byte_array_append (out, (const guint8 *) header, sizeof header);
  g_byte_array_append (out, (const guint8 *) "\0\0\1\0", 4);
  for (guint y = 0; y < 2; y++)
    for (guint x = 0; x < 4; x++)
      {
        guint8 record[4] = { (guint8) (50 + x + 10 * y), 0xFF, 0xFF, 0 };

        g_byte_array_append (out, record, 4);
      }
  memset (block, 200, sizeof block);
  g_byte_array_append (out, block, sizeof block);
  memset (block, 9, sizeof block);
  g_byte_array_append (out, block, sizeof block);
  for (guint i = 0; i < 16; i++)
    g_byte_array_append (out, block, sizeof block);   /* the 128x128 preview */
  g_assert_true (g_file_set_contents (path, (const char *) out->data, out->len, &error));
}

static void
test_tnt_stamp (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *section = g_build_filename (fixture->dir, "piece.sct", NULL);
  g_autoptr(TerrainTntMap) map = NULL;
  TerrainTestCliResult r;

  write_section (section);
  r = terrain_test_run_cli (NULL, "tnt", "stamp", fixture->map, section, "2", "1", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "stamped 2x1 tiles at tile (2, 1): 1 new tile, 1 reused, "
                                   "0 clipped"));
  terrain_test_cli_result_clear (&r);
  map = load_map (fixture->map);
  g_assert_cmpuint (terrain_tnt_map_get_n_tiles (map), ==, 3);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 2, 1), ==, 1);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 3, 1), ==, 2);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 4, 2), ==, 50);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 7, 3), ==, 50 + 3 + 10);

  r = terrain_test_run_cli (NULL, "tnt", "stamp", fixture->map, section, "--", "-5", "0", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "lies entirely off"));
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "stamp", fixture->map, fixture->map, "0", "0", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "not an SCT section"));
  terrain_test_cli_result_clear (&r);
}

static void
test_tnt_failed_save (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GBytes) before = read_file (fixture->map);
  g_autoptr(GBytes) after = NULL;
  struct rlimit saved, limited;
  void (*previous) (int);
  TerrainTestCliResult r, place;

  /* A "full disk": files may not grow beyond 1 KiB. The child inherits the
   * limit and the ignored SIGXFSZ, so its write fails with EFBIG. */
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  limited = saved;
  limited.rlim_cur = 1024;
  previous = signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limited), ==, 0);
  r = terrain_test_run_cli (NULL, "tnt", "heights", "brush", fixture->map, "--at", "2,2", NULL);
  place = terrain_test_run_cli (NULL, "tnt", "features", "add", fixture->map, "Tree1", "2", "3",
                                NULL);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  signal (SIGXFSZ, previous);

  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "cannot save"));
  g_assert_null (strstr (r.out, "cells changed"));
  terrain_test_cli_result_clear (&r);

  /* Nothing claims success before the file is on disk (issue 19): the
   * report "placed Tree1 …" used to come before the save error. */
  g_assert_cmpint (place.status, ==, 2);
  g_assert_nonnull (strstr (place.err, "cannot save"));
  g_assert_null (strstr (place.out, "placed"));
  g_assert_cmpstr (place.out, ==, "");
  terrain_test_cli_result_clear (&place);

  after = read_file (fixture->map);
  g_assert_true (g_bytes_equal (before, after));

  /* With room on the disk the same edit reports, after saving. */
  place = terrain_test_run_cli (NULL, "tnt", "features", "add", fixture->map, "Tree1", "2", "3",
                                NULL);
  g_assert_cmpint (place.status, ==, 0);
  g_assert_nonnull (strstr (place.out, "placed Tree1"));
  terrain_test_cli_result_clear (&place);
}

static void
test_tnt_archive_member (Fixture       *fixture,
                         gconstpointer  data)
{
  const char *corpus = g_getenv ("TERRAIN_CORPUS_DIR");
  g_autofree char *archive = corpus != NULL ?
    g_build_filename (corpus, "ta", "archives", "mymaps_v1.hpi", NULL) : NULL;
  g_autofree char *member = NULL;
  g_autofree char *out = g_build_filename (fixture->dir, "from-archive.tnt", NULL);
  g_autoptr(TerrainTntMap) map = NULL;
  TerrainTestCliResult r;

  if (archive == NULL || !g_file_test (archive, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("corpus archive not found (TERRAIN_CORPUS_DIR/ta/archives)");
      return;
    }
  member = g_strconcat (archive, ":maps/bar.tnt", NULL);

  /* Read and dry runs work inside an archive; writing needs -o. */
  r = terrain_test_run_cli (NULL, "tnt", "heights", "brush", member, "--at", "10,10", "--dry-run",
                            NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "bytes would change"));
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "heights", "brush", member, "--at", "10,10", NULL);
  g_assert_cmpint (r.status, ==, 64);
  g_assert_nonnull (strstr (r.err, "give -o OUT"));
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "set-sea-level", member, "40", NULL);
  g_assert_cmpint (r.status, ==, 64);
  g_assert_nonnull (strstr (r.err, "give -o OUT"));
  terrain_test_cli_result_clear (&r);
  r = terrain_test_run_cli (NULL, "tnt", "heights", "brush", member, "--at", "10,10", "-o", out,
                            NULL);
  g_assert_cmpint (r.status, ==, 0);
  terrain_test_cli_result_clear (&r);
  map = load_map (out);
  g_assert_cmpuint (terrain_tnt_map_get_width (map), ==, 288);
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
  g_test_add ("/Terrain/Cli/tnt-features", Fixture, NULL, fixture_set_up, test_tnt_features,
              fixture_tear_down);
  g_test_add ("/Terrain/Cli/tnt-heights", Fixture, NULL, fixture_set_up, test_tnt_heights,
              fixture_tear_down);
  g_test_add ("/Terrain/Cli/tnt-void-resize", Fixture, NULL, fixture_set_up,
              test_tnt_void_resize, fixture_tear_down);
  g_test_add ("/Terrain/Cli/tnt-images", Fixture, NULL, fixture_set_up, test_tnt_images,
              fixture_tear_down);
  g_test_add ("/Terrain/Cli/tnt-stamp", Fixture, NULL, fixture_set_up, test_tnt_stamp,
              fixture_tear_down);
  g_test_add ("/Terrain/Cli/tnt-failed-save", Fixture, NULL, fixture_set_up,
              test_tnt_failed_save, fixture_tear_down);
  g_test_add ("/Terrain/Cli/tnt-archive-member", Fixture, NULL, fixture_set_up,
              test_tnt_archive_member, fixture_tear_down);

  return g_test_run ();
}
