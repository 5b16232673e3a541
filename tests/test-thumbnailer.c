/* test-thumbnailer.c: terrain-thumbnailer on files made by libterrain's writers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"

/* Built once for every case. */
static char *tmpdir;
static char *tnt_path;      /* 32x32 cells, two tiles in a checkerboard, a slope, sea level 100 */
static char *pal_path;      /* a grey ramp with index 1 pure red */

typedef struct
{
  int status;
  char *out;
  char *err;
} Run;

static void
run_clear (Run *run)
{
  g_free (run->out);
  g_free (run->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* Runs the thumbnailer with @args (NULL-terminated) in an environment that
 * sees no user settings unless @extra_env (NULL-terminated NAME=VALUE) says
 * otherwise. */
static void
run_thumbnailer (Run         *run,
                 const char **extra_env,
                 ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  const char *arg;
  va_list ap;
  int wait_status;

  g_ptr_array_add (argv, (gpointer) g_getenv ("TERRAIN_THUMBNAILER"));
  va_start (ap, extra_env);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);

  envp = g_environ_setenv (envp, "GSETTINGS_BACKEND", "memory", TRUE);
  for (guint i = 0; extra_env != NULL && extra_env[i] != NULL; i++)
    {
      g_auto(GStrv) pair = g_strsplit (extra_env[i], "=", 2);

      envp = g_environ_setenv (envp, pair[0], pair[1], TRUE);
    }

  memset (run, 0, sizeof *run);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &run->out, &run->err, &wait_status, &error));
  g_assert_no_error (error);
  run->status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
}

static TerrainImage *
load_png (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length;
  g_autoptr(GBytes) bytes = NULL;
  TerrainImage *image;

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_no_error (error);
  bytes = g_bytes_new_take (g_steal_pointer (&contents), length);
  image = terrain_image_load_png_bytes (bytes, &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_image_get_format (image), ==, TERRAIN_IMAGE_RGBA8);
  return image;
}

static const guint8 *
pixel (TerrainImage *image,
       guint         x,
       guint         y)
{
  return terrain_image_get_data (image, NULL) + y * terrain_image_get_stride (image) + x * 4;
}

static guint
count_colours (TerrainImage *image)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (guint y = 0; y < terrain_image_get_height (image); y++)
    for (guint x = 0; x < terrain_image_get_width (image); x++)
      {
        guint32 v;

        memcpy (&v, pixel (image, x, y), 4);
        g_hash_table_add (seen, GUINT_TO_POINTER (v));
      }
  return g_hash_table_size (seen);
}

static char *
temp_path (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

static void
save_document (TerrainDocument *document,
               const char      *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  g_assert_true (terrain_document_save (document, file, NULL, &error));
  g_assert_no_error (error);
}

static void
make_fixtures (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (32, 32, &error);
  guint8 tiles[2 * 1024];
  guint16 tile_map[16 * 16];
  guint8 heights[32 * 32];
  guint8 rgb[256 * 3];
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(GBytes) pal = NULL;

  g_assert_no_error (error);
  /* Tile 0 is palette index 0 (black), tile 1 index 1 (red). */
  memset (tiles, 0, 1024);
  memset (tiles + 1024, 1, 1024);
  g_assert_true (terrain_tnt_map_set_tiles (map, tiles, 2, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (tile_map); i++)
    tile_map[i] = (i / 16 + i % 16) % 2;
  terrain_tnt_map_set_tile_map (map, tile_map);
  /* Heights rise from 0 on the left to 248 on the right; sea level 100. */
  for (guint y = 0; y < 32; y++)
    for (guint x = 0; x < 32; x++)
      heights[y * 32 + x] = (guint8) (x * 8);
  terrain_tnt_map_set_heights (map, 0, 0, 32, 32, heights, 32);
  terrain_tnt_map_set_sea_level (map, 100, NULL);
  /* The embedded minimap from the new tiles (it is 252 pixels wide). */
  terrain_tnt_map_update_minimap (map, terrain_test_grey_palette ());
  tnt_path = temp_path ("map.tnt");
  save_document (TERRAIN_DOCUMENT (map), tnt_path);

  for (guint i = 0; i < 256; i++)
    memset (rgb + i * 3, (int) i, 3);
  rgb[3] = 255;
  rgb[4] = 0;
  rgb[5] = 0;
  palette = terrain_palette_new_from_rgb (rgb, 256);
  pal = terrain_palette_to_pal_bytes (palette);
  pal_path = temp_path ("palette.pal");
  g_assert_true (g_file_set_contents (pal_path, g_bytes_get_data (pal, NULL),
                                      g_bytes_get_size (pal), &error));
  g_assert_no_error (error);
}

/* Tiles through a palette: black and red tiles, nothing else. The play area
 * is 512-32 by 512-128 pixels, so the picture is 5:4. */
static void
check_tnt_palette (const char *size,
                   guint       width,
                   guint       height)
{
  g_autofree char *out = g_strdup_printf ("%s/tnt-palette-%s.png", tmpdir, size);
  g_autoptr(TerrainImage) image = NULL;
  g_auto(Run) run;
  guint reds = 0;

  run_thumbnailer (&run, NULL, "-s", size, "-p", pal_path, tnt_path, out, NULL);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);

  image = load_png (out);
  g_assert_cmpuint (terrain_image_get_width (image), ==, width);
  g_assert_cmpuint (terrain_image_get_height (image), ==, height);
  for (guint y = 0; y < terrain_image_get_height (image); y++)
    for (guint x = 0; x < terrain_image_get_width (image); x++)
      {
        const guint8 *p = pixel (image, x, y);

        g_assert_cmpuint (p[1], ==, p[2]);   /* red, black or their average */
        g_assert_cmpuint (p[3], ==, 255);
        reds += p[0] > 128 && p[1] < 64;
      }
  g_assert_cmpuint (reds, >, 0);
}

/* Smaller than the embedded 252-pixel minimap: that minimap, scaled. */
static void
test_tnt_palette_minimap (void)
{
  check_tnt_palette ("64", 64, 64 * 201 / 252);
}

/* Larger: the tiles averaged down to the size asked for. */
static void
test_tnt_palette_tiles (void)
{
  check_tnt_palette ("400", 400, 400 * 384 / 480);
}

/* Without a palette: shaded heights, water blue on the low (left) side. */
static void
test_tnt_heights (void)
{
  g_autofree char *out = temp_path ("tnt-heights.png");
  g_autoptr(TerrainImage) image = NULL;
  const guint8 *water, *land;
  g_auto(Run) run;

  run_thumbnailer (&run, NULL, "-s", "128", tnt_path, out, NULL);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);

  image = load_png (out);
  /* One pixel per cell: a thumbnail is never larger than its picture. */
  g_assert_cmpuint (terrain_image_get_width (image), ==, 32);
  g_assert_cmpuint (terrain_image_get_height (image), ==, 32);
  water = pixel (image, 2, 16);     /* height 16 < 100 */
  land = pixel (image, 28, 16);     /* height 224 */
  g_assert_cmpuint (water[2], >, water[0] + 40);
  g_assert_cmpuint (land[0], >=, land[2]);
  g_assert_cmpuint (count_colours (image), >, 8);
}

/* The palette comes from the editor's `palette-path` setting. */
static void
test_tnt_settings_palette (void)
{
  g_autofree char *out = temp_path ("tnt-settings.png");
  g_autofree char *expected_path = temp_path ("tnt-settings-expected.png");
  g_autofree char *config = temp_path ("config");
  g_autofree char *settings_dir = g_build_filename (config, "glib-2.0", "settings", NULL);
  g_autofree char *keyfile = g_build_filename (settings_dir, "keyfile", NULL);
  g_autofree char *keyfile_text = NULL;
  g_autofree char *schema_dir = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "..", "data",
                                                  NULL);
  g_autofree char *env_config = g_strconcat ("XDG_CONFIG_HOME=", config, NULL);
  g_autofree char *env_schema = g_strconcat ("GSETTINGS_SCHEMA_DIR=", schema_dir, NULL);
  const char *env[] = { env_config, env_schema, "GSETTINGS_BACKEND=keyfile", NULL };
  g_autofree char *got = NULL, *expected = NULL;
  gsize got_length, expected_length;
  g_autoptr(GError) error = NULL;
  g_auto(Run) run;
  g_auto(Run) reference;

  g_assert_cmpint (g_mkdir_with_parents (settings_dir, 0700), ==, 0);
  keyfile_text = g_strdup_printf ("[%s]\npalette-path='%s'\n",
                                  TERRAIN_SETTINGS_PATH, pal_path);
  g_assert_true (g_file_set_contents (keyfile, keyfile_text, -1, &error));
  g_assert_no_error (error);

  run_thumbnailer (&run, env, "-s", "48", tnt_path, out, NULL);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);
  run_thumbnailer (&reference, NULL, "-s", "48", "-p", pal_path, tnt_path, expected_path, NULL);
  g_assert_cmpint (reference.status, ==, 0);

  g_assert_true (g_file_get_contents (out, &got, &got_length, NULL));
  g_assert_true (g_file_get_contents (expected_path, &expected, &expected_length, NULL));
  g_assert_cmpmem (got, got_length, expected, expected_length);
}

/* An Atlas file: its root texture tile. */
static void
test_atlas_texture (void)
{
  g_autofree char *path = temp_path ("texture.atlas");
  g_autofree char *out = temp_path ("atlas.png");
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainAtlasFile) atlas = terrain_atlas_file_new ();
  g_autoptr(TerrainAtlasToc) toc = terrain_atlas_toc_new (TERRAIN_ATLAS_TOC_TEXTURE, 140, 1, 1);
  g_autoptr(TerrainImage) tile = terrain_image_new (TERRAIN_IMAGE_RGBA8, 40, 20, &error);
  g_autoptr(TerrainAtlasTexture) texture = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_auto(Run) run;

  g_assert_no_error (error);
  for (guint y = 0; y < 20; y++)
    for (guint x = 0; x < 40; x++)
      {
        guint8 *p = terrain_image_get_data (tile, NULL) + y * terrain_image_get_stride (tile)
                    + x * 4;

        p[0] = (guint8) (x * 6);
        p[1] = (guint8) (y * 12);
        p[2] = 77;
        p[3] = 255;
      }
  texture = terrain_atlas_texture_new_from_image (tile, TERRAIN_ATLAS_TEXTURE_PNG, 90,
                                                  TERRAIN_ATLAS_CHANNELS_RGB, &error);
  g_assert_no_error (error);
  g_assert_true (terrain_atlas_file_add_toc (atlas, toc, &error));
  g_assert_no_error (error);
  g_assert_true (terrain_atlas_file_set_texture (atlas, 0, 0, texture, &error));
  g_assert_no_error (error);
  save_document (TERRAIN_DOCUMENT (atlas), path);

  run_thumbnailer (&run, NULL, "-s", "20", path, out, NULL);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);

  /* The map is the tile turned north up (map pixel (c, r) is tile pixel
   * (39 - r, 19 - c)): 20 x 40, thumbnailed to 10 x 20. */
  image = load_png (out);
  g_assert_cmpuint (terrain_image_get_width (image), ==, 10);
  g_assert_cmpuint (terrain_image_get_height (image), ==, 20);
  /* Each pixel averages a 2x2 block of the map: thumbnail pixel (5, 3) is
   * map (10-11, 6-7), tile columns 32-33 and rows 8-9. */
  g_assert_cmpuint (pixel (image, 5, 3)[0], ==, (192 + 198 + 1) / 2);
  g_assert_cmpuint (pixel (image, 5, 3)[1], ==, (96 + 108) / 2);
  g_assert_cmpuint (pixel (image, 5, 3)[2], ==, 77);
}

/* Insomniac FloorHeightData: heights only. */
static void
test_floor_heights (void)
{
  g_autofree char *path = temp_path ("world.fhd");
  g_autofree char *out = temp_path ("floor.png");
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainFloorHeightData) floor = terrain_floor_height_data_new (64, 64, 2.0f, &error);
  g_autofree guint16 *words = g_new (guint16, 64 * 64);
  g_autoptr(TerrainImage) image = NULL;
  g_auto(Run) run;

  g_assert_no_error (error);
  for (guint y = 0; y < 64; y++)
    for (guint x = 0; x < 64; x++)
      words[y * 64 + x] = (guint16) ((x + y) * 500);
  terrain_floor_height_data_set_region (floor, 0, 0, 64, 64, words);
  save_document (TERRAIN_DOCUMENT (floor), path);

  run_thumbnailer (&run, NULL, "--size=16", path, out, NULL);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);

  image = load_png (out);
  g_assert_cmpuint (terrain_image_get_width (image), ==, 16);
  g_assert_cmpuint (terrain_image_get_height (image), ==, 16);
  g_assert_cmpuint (count_colours (image), >, 4);
}

static void
write_bytes (const char *path,
             GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
}

/* Files whose picture libterrain draws: a CHU tree and a raw16 heightmap
 * as shaded relief, a JPEG texture tree assembled (red across, green down). */
static void
test_rendered (void)
{
  g_autofree char *chu_path = temp_path ("hills.chu");
  g_autofree char *raw_path = temp_path ("hills.r16");
  g_autofree char *tqt_path = temp_path ("picture.tqt");
  g_autoptr(GBytes) chu = terrain_test_chu3_hills (3, 9);
  g_autoptr(GBytes) tqt = terrain_test_tqt_picture (2, 16, TRUE);
  g_autofree guint16 *samples = g_new (guint16, 65 * 65);
  g_autoptr(GBytes) raw = NULL;
  const char *paths[] = { chu_path, raw_path };

  for (guint i = 0; i < 65 * 65; i++)
    samples[i] = GUINT16_TO_LE ((guint16) (terrain_test_hills ((i % 65) / 64.0,
                                                               (i / 65) / 64.0) * 40000));
  raw = g_bytes_new (samples, 65 * 65 * 2);
  write_bytes (chu_path, chu);
  write_bytes (raw_path, raw);
  write_bytes (tqt_path, tqt);

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autofree char *out = temp_path ("rendered.png");
      g_autoptr(TerrainImage) image = NULL;
      g_auto(Run) run;

      run_thumbnailer (&run, NULL, "-s", "32", paths[i], out, NULL);
      g_assert_cmpstr (run.err, ==, "");
      g_assert_cmpint (run.status, ==, 0);
      image = load_png (out);
      g_assert_cmpuint (terrain_image_get_width (image), ==, 32);
      g_assert_cmpuint (count_colours (image), >, 16);
      g_unlink (out);
    }

  {
    g_autofree char *out = temp_path ("tqt.png");
    g_autoptr(TerrainImage) image = NULL;
    g_auto(Run) run;

    run_thumbnailer (&run, NULL, "-s", "16", tqt_path, out, NULL);
    g_assert_cmpstr (run.err, ==, "");
    g_assert_cmpint (run.status, ==, 0);
    image = load_png (out);
    g_assert_cmpuint (terrain_image_get_width (image), ==, 16);
    g_assert_cmpuint (pixel (image, 0, 0)[0], <, 40);
    g_assert_cmpuint (pixel (image, 0, 0)[1], <, 40);
    g_assert_cmpuint (pixel (image, 15, 15)[0], >, 200);
    g_assert_cmpuint (pixel (image, 15, 15)[1], >, 200);
  }
}

/* A file libterrain cannot read: failure, no thumbnail. */
static void
test_unreadable (void)
{
  g_autofree char *path = temp_path ("broken.tnt");
  g_autofree char *out = temp_path ("broken.png");
  g_auto(Run) run;
  static const char broken[] = "\x00\x20\x00\x00 not a map";

  g_assert_true (g_file_set_contents (path, broken, sizeof broken - 1, NULL));
  run_thumbnailer (&run, NULL, path, out, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "broken.tnt"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

static void
test_usage (void)
{
  g_auto(Run) no_args;
  g_auto(Run) bad_size;
  g_auto(Run) version;

  run_thumbnailer (&no_args, NULL, NULL);
  g_assert_cmpint (no_args.status, ==, 64);
  run_thumbnailer (&bad_size, NULL, "-s", "0", tnt_path, "out.png", NULL);
  g_assert_cmpint (bad_size.status, ==, 64);
  run_thumbnailer (&version, NULL, "--version", NULL);
  g_assert_cmpint (version.status, ==, 0);
  g_assert_true (g_str_has_prefix (version.out, "terrain-thumbnailer " PACKAGE_VERSION));
}

/* data/terrain.thumbnailer names only types data/libterrain-mime.xml
 * registers, and every type the thumbnailer draws. */
static void
test_thumbnailer_file (void)
{
  const char *drawn[] = {
    "application/x-ta-tnt", "application/x-ta-sct", "application/x-torque-atlas",
    "application/x-chunklod-chu", "application/x-chunklod-tqt", "application/x-torque-ter",
    "application/x-insomniac-dat1", "application/x-insomniac-floor-height",
    "application/x-insomniac-node-layer", "application/x-insomniac-node-chunk",
    "application/x-srtm-hgt", "application/x-raw16-heightmap",
  };
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "data",
                                            "terrain.thumbnailer", NULL);
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *mime_xml = NULL;
  g_auto(GStrv) types = NULL;
  g_autofree char *exec = NULL;

  g_assert_true (g_key_file_load_from_file (keyfile, path, G_KEY_FILE_NONE, &error));
  g_assert_no_error (error);
  exec = g_key_file_get_string (keyfile, "Thumbnailer Entry", "Exec", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (exec, ==, "terrain-thumbnailer -s %s %i %o");
  types = g_key_file_get_string_list (keyfile, "Thumbnailer Entry", "MimeType", NULL, &error);
  g_assert_no_error (error);

  g_assert_true (g_file_get_contents (g_getenv ("TERRAIN_MIME_XML"), &mime_xml, NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; types[i] != NULL; i++)
    {
      g_autofree char *needle = g_strdup_printf ("<mime-type type=\"%s\">", types[i]);

      g_assert_nonnull (strstr (mime_xml, needle));
    }
  for (guint i = 0; i < G_N_ELEMENTS (drawn); i++)
    g_assert_true (g_strv_contains ((const char * const *) types, drawn[i]));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  tmpdir = g_dir_make_tmp ("terrain-thumbnailer-XXXXXX", &error);
  g_assert_no_error (error);
  make_fixtures ();

  g_test_add_func ("/Terrain/Thumbnailer/tnt-palette-minimap", test_tnt_palette_minimap);
  g_test_add_func ("/Terrain/Thumbnailer/tnt-palette-tiles", test_tnt_palette_tiles);
  g_test_add_func ("/Terrain/Thumbnailer/tnt-heights", test_tnt_heights);
  g_test_add_func ("/Terrain/Thumbnailer/tnt-settings-palette", test_tnt_settings_palette);
  g_test_add_func ("/Terrain/Thumbnailer/atlas-texture", test_atlas_texture);
  g_test_add_func ("/Terrain/Thumbnailer/floor-heights", test_floor_heights);
  g_test_add_func ("/Terrain/Thumbnailer/rendered", test_rendered);
  g_test_add_func ("/Terrain/Thumbnailer/unreadable", test_unreadable);
  g_test_add_func ("/Terrain/Thumbnailer/usage", test_usage);
  g_test_add_func ("/Terrain/Thumbnailer/thumbnailer-file", test_thumbnailer_file);

  status = g_test_run ();

  terrain_test_remove_tree (tmpdir);
  g_free (tnt_path);
  g_free (pal_path);
  g_free (tmpdir);
  return status;
}
