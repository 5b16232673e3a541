/* test-tnt-preview.c: kbot-style map previews (sprites, resource marks, starts, shading)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A 16x16-cell map over a made-up install folder: a feature TDF, a GAF
 * sprite built with TerrainGafWriter and a palette, all written in code.
 * Every mark is checked at the pixel where the anchor rule puts it; the
 * feature sprite API the preview draws with is checked on its own.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"
#include "terrain-test-util.h"

#define TILE_COLOR 5
#define SPRITE_COLOR 200

static const char ota_text[] =
  "[GlobalHeader]\n{\n\tmissionname=Preview;\n"
  "\t[Schema 0]\n\t{\n\tType=Network 1;\n"
  "\t\t[specials]\n\t\t{\n"
  "\t\t\t[special0]\n\t\t\t{\n\t\t\tspecialwhat=StartPos1;\n\t\t\tXPos=200;\n\t\t\tZPos=200;\n\t\t\t}\n"
  "\t\t}\n\t}\n}\n";

static const char features_text[] =
  "[Tree1]\n{\n\tfilename=Trees;\n\tseqname=tree1;\n\tfootprintx=2;\n\tfootprintz=2;\n}\n"
  "[Metal1]\n{\n\tfootprintx=1;\n\tfootprintz=1;\n\tmetal=20;\n}\n"
  "[Geo1]\n{\n\tfootprintx=1;\n\tfootprintz=1;\n\tgeothermal=1;\n}\n";

static TerrainPalette *
make_palette (void)
{
  guint8 rgb[256 * 3];

  for (guint i = 0; i < 256; i++)
    {
      rgb[3 * i] = (guint8) i;
      rgb[3 * i + 1] = (guint8) (255 - i);
      rgb[3 * i + 2] = (guint8) (i * 7);
    }
  return terrain_palette_new_from_rgb (rgb, 256);
}

static TerrainTntMap *
make_map (void)
{
  g_autoptr(GError) error = NULL;
  TerrainTntMap *map = terrain_tnt_map_new (16, 16, &error);
  guint8 tile[1024];
  guint t, tree, metal, geo, ghost;

  g_assert_no_error (error);
  memset (tile, TILE_COLOR, sizeof tile);
  t = terrain_tnt_map_add_tile (map, tile);
  for (guint row = 0; row < 8; row++)
    for (guint column = 0; column < 8; column++)
      terrain_tnt_map_set_tile_index (map, column, row, (guint16) t);
  for (guint y = 0; y < 16; y++)
    for (guint x = 0; x < 16; x++)
      terrain_tnt_map_set_cell_height (map, x, y, 128);
  terrain_tnt_map_set_sea_level (map, 50, NULL);
  terrain_tnt_map_set_cell_height (map, 0, 15, 10);   /* under water */
  terrain_tnt_map_set_cell_height (map, 1, 15, 0);    /* lowest ground */
  terrain_tnt_map_set_cell_height (map, 2, 15, 255);  /* highest ground */
  terrain_tnt_map_set_cell_height (map, 4, 4, 20);    /* the tree's anchor cell */
  terrain_tnt_map_set_cell_height (map, 12, 2, 0);    /* metal and geothermal: no lift */
  terrain_tnt_map_set_cell_height (map, 2, 10, 0);

  tree = terrain_tnt_map_add_feature_name (map, "Tree1");
  metal = terrain_tnt_map_add_feature_name (map, "Metal1");
  geo = terrain_tnt_map_add_feature_name (map, "Geo1");
  ghost = terrain_tnt_map_add_feature_name (map, "Ghost");
  g_assert_true (terrain_tnt_map_set_cell_feature (map, 4, 4, tree, &error));
  g_assert_true (terrain_tnt_map_set_cell_feature (map, 12, 2, metal, &error));
  g_assert_true (terrain_tnt_map_set_cell_feature (map, 2, 10, geo, &error));
  g_assert_true (terrain_tnt_map_set_cell_feature (map, 10, 10, ghost, &error));
  g_assert_no_error (error);
  return map;
}

/* anims/trees.gaf: entry tree1, one 4x6 frame of SPRITE_COLOR with its top
 * left pixel transparent (index 0) and its origin at (2, 5). */
static GBytes *
make_gaf (void)
{
  g_autoptr(TerrainGafWriter) writer = terrain_gaf_writer_new ();
  g_autoptr(GError) error = NULL;
  guint8 pixels[4 * 6];
  GBytes *bytes;

  memset (pixels, SPRITE_COLOR, sizeof pixels);
  pixels[0] = 0;
  g_assert_true (terrain_gaf_writer_add_entry (writer, "Tree1", &error));
  g_assert_true (terrain_gaf_writer_add_frame (writer, pixels, 4, 6, 2, 5, 0, TRUE, &error));
  bytes = terrain_gaf_writer_finish (writer, &error);
  g_assert_no_error (error);
  return bytes;
}

static char *
make_install (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("terrain-preview-XXXXXX", &error);
  g_autofree char *features = g_build_filename (root, "install", "features", NULL);
  g_autofree char *anims = g_build_filename (root, "install", "anims", NULL);
  g_autofree char *palettes = g_build_filename (root, "install", "palettes", NULL);
  g_autofree char *tdf = g_build_filename (features, "trees.tdf", NULL);
  g_autofree char *gaf_path = g_build_filename (anims, "TREES.GAF", NULL);
  g_autofree char *pal_path = g_build_filename (palettes, "PALETTE.PAL", NULL);
  g_autoptr(GBytes) gaf = make_gaf ();
  g_autoptr(TerrainPalette) palette = make_palette ();
  g_autoptr(GBytes) pal = terrain_palette_to_pal_bytes (palette);

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (features, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (anims, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (palettes, 0755), ==, 0);
  g_assert_true (g_file_set_contents (tdf, features_text, -1, &error));
  g_assert_true (g_file_set_contents (gaf_path, g_bytes_get_data (gaf, NULL),
                                      (gssize) g_bytes_get_size (gaf), &error));
  g_assert_true (g_file_set_contents (pal_path, g_bytes_get_data (pal, NULL),
                                      (gssize) g_bytes_get_size (pal), &error));
  g_assert_no_error (error);
  return g_steal_pointer (&root);
}

static const guint8 *
pixel (TerrainImage *image,
       guint         x,
       guint         y)
{
  return terrain_image_get_data (image, NULL) + y * terrain_image_get_stride (image) + 4 * x;
}

static void
assert_rgb (TerrainImage *image,
            guint         x,
            guint         y,
            guint8        r,
            guint8        g,
            guint8        b)
{
  const guint8 *p = pixel (image, x, y);

  if (p[0] != r || p[1] != g || p[2] != b)
    g_error ("pixel (%u, %u) is %02x%02x%02x, expected %02x%02x%02x", x, y, p[0], p[1], p[2], r,
             g, b);
}

static void
assert_palette_color (TerrainImage   *image,
                      TerrainPalette *palette,
                      guint           x,
                      guint           y,
                      guint8          index)
{
  guint8 r, g, b;

  terrain_palette_get_color (palette, index, &r, &g, &b);
  assert_rgb (image, x, y, r, g, b);
}

typedef struct
{
  char                  *root;
  TerrainGameFiles      *files;
  TerrainFeatureCatalog *catalog;
  TerrainPalette        *palette;
  TerrainOtaFile        *ota;
  TerrainTntMap         *map;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *install = NULL;
  g_autoptr(GFile) folder = NULL;
  g_autoptr(GBytes) ota = g_bytes_new_static (ota_text, strlen (ota_text));

  f->root = make_install ();
  install = g_build_filename (f->root, "install", NULL);
  folder = g_file_new_for_path (install);
  f->files = terrain_game_files_new (NULL);
  g_assert_true (terrain_game_files_add (f->files, folder, NULL, &error));
  g_assert_no_error (error);
  f->catalog = terrain_feature_catalog_new ();
  g_assert_true (terrain_feature_catalog_load_game_files (f->catalog, f->files, NULL, &error));
  g_assert_no_error (error);
  f->palette = terrain_game_files_load_palette (f->files, &error);
  g_assert_no_error (error);
  f->ota = terrain_ota_file_new_from_bytes (ota, NULL, &error);
  g_assert_no_error (error);
  f->map = make_map ();
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  terrain_test_remove_tree (f->root);
  g_free (f->root);
  g_object_unref (f->files);
  g_object_unref (f->catalog);
  terrain_palette_unref (f->palette);
  g_object_unref (f->ota);
  g_object_unref (f->map);
}

static void
test_marks (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  TerrainTntPreviewStats stats;
  g_autoptr(TerrainImage) image =
    terrain_tnt_map_render_preview (f->map, f->palette, f->ota, 0, f->files, f->catalog,
                                    TERRAIN_TNT_PREVIEW_DEFAULT, &stats, &error);
  /* Tree1 at cell (4, 4), 2x2, height 20: anchor (4*16 + 16, 4*16 + 16 - 10) = (80, 70);
   * its origin (2, 5) lands there, so the frame's top left is at (78, 65). */
  const guint sx = 78, sy = 65;

  g_assert_no_error (error);
  g_assert_cmpuint (terrain_image_get_width (image), ==, 256);
  g_assert_cmpuint (terrain_image_get_height (image), ==, 256);
  g_assert_cmpuint (stats.sprites, ==, 1);
  g_assert_cmpuint (stats.unresolved, ==, 3);  /* Metal1 and Geo1 have no sprite; Ghost no TDF */
  g_assert_cmpuint (stats.metal, ==, 1);
  g_assert_cmpuint (stats.geothermal, ==, 1);
  g_assert_cmpuint (stats.starts, ==, 1);

  /* The sprite, its transparent pixel and the ground around it. */
  assert_palette_color (image, f->palette, sx + 1, sy + 1, SPRITE_COLOR);
  assert_palette_color (image, f->palette, sx + 3, sy + 5, SPRITE_COLOR);
  assert_palette_color (image, f->palette, sx, sy, TILE_COLOR);
  assert_palette_color (image, f->palette, sx + 4, sy + 5, TILE_COLOR);
  assert_palette_color (image, f->palette, sx + 1, sy + 6, TILE_COLOR);
  assert_palette_color (image, f->palette, sx - 1, sy + 1, TILE_COLOR);

  /* Metal1 at (12, 2): anchor (200, 40), a white ring of radius 6. */
  assert_rgb (image, 200 + 6, 40, 0xe8, 0xe8, 0xf0);
  assert_rgb (image, 200, 40 - 6, 0xe8, 0xe8, 0xf0);
  assert_palette_color (image, f->palette, 200, 40, TILE_COLOR);
  /* Geo1 at (2, 10): anchor (40, 168), an orange dot in an orange ring. */
  assert_rgb (image, 40, 168, 0xff, 0x70, 0x10);
  assert_rgb (image, 40 + 9, 168, 0xff, 0x70, 0x10);
  /* Ghost, which no TDF defines: a magenta outline of one cell at (160, 160). */
  assert_rgb (image, 160, 160, 0xff, 0x30, 0xd0);
  assert_rgb (image, 175, 175, 0xff, 0x30, 0xd0);
  assert_palette_color (image, f->palette, 168, 168, TILE_COLOR);

  /* StartPos1 at (200, 200): radius 18 on a 256-pixel map; the dark ring
   * between radius 16 and 18, the white disc inside radius 13, the "1"
   * (15x21 pixels, centred) in dark blue. */
  assert_rgb (image, 200 + 17, 200, 0x18, 0x22, 0x33);
  assert_rgb (image, 200 - 17, 200, 0x18, 0x22, 0x33);
  assert_rgb (image, 200, 200 + 15, 0xe8, 0xc1, 0x4a);
  assert_rgb (image, 200 + 11, 200, 0xff, 0xff, 0xff);
  assert_rgb (image, 200, 200, 0x18, 0x22, 0x33);
  assert_palette_color (image, f->palette, 200 + 25, 200 - 25, TILE_COLOR);
}

static void
test_flags (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  TerrainTntPreviewStats stats;
  g_autoptr(TerrainImage) bare =
    terrain_tnt_map_render_preview (f->map, f->palette, f->ota, 0, f->files, f->catalog,
                                    TERRAIN_TNT_PREVIEW_NO_FEATURES |
                                    TERRAIN_TNT_PREVIEW_NO_RESOURCES |
                                    TERRAIN_TNT_PREVIEW_NO_STARTS, &stats, &error);
  g_autoptr(TerrainImage) plain = terrain_tnt_map_render (f->map, f->palette, &error);
  g_autoptr(TerrainImage) shaded = NULL;
  g_autoptr(TerrainImage) other_schema = NULL;
  guint8 r, g, b;

  g_assert_no_error (error);
  g_assert_cmpuint (stats.sprites + stats.unresolved + stats.metal + stats.geothermal +
                    stats.starts, ==, 0);
  /* With everything left out the preview is the plain render. */
  g_assert_cmpmem (terrain_image_get_data (bare, NULL), 256 * 256 * 4,
                   terrain_image_get_data (plain, NULL), 256 * 256 * 4);

  shaded = terrain_tnt_map_render_preview (f->map, f->palette, NULL, 0, NULL, NULL,
                                           TERRAIN_TNT_PREVIEW_HEIGHT_SHADING |
                                           TERRAIN_TNT_PREVIEW_WATER_SHADING |
                                           TERRAIN_TNT_PREVIEW_NO_FEATURES, &stats, &error);
  g_assert_no_error (error);
  terrain_palette_get_color (f->palette, TILE_COLOR, &r, &g, &b);
  /* Height 128 is left as it is, 0 is darker, 255 lighter, water bluer. */
  assert_rgb (shaded, 8 * 16 + 3, 3, r, g, b);
  g_assert_cmpuint (pixel (shaded, 16 + 3, 15 * 16 + 3)[1], <, g);
  g_assert_cmpuint (pixel (shaded, 32 + 3, 15 * 16 + 3)[0], >, r);
  g_assert_cmpuint (pixel (shaded, 3, 15 * 16 + 3)[2], >, b);
  g_assert_cmpuint (pixel (shaded, 3, 15 * 16 + 3)[1], <, g);
  /* No .ota, no catalogue: resources unknown, the placed features outlined. */
  g_assert_cmpuint (stats.metal + stats.geothermal + stats.starts + stats.sprites, ==, 0);

  /* A schema the .ota does not have draws no start position. */
  other_schema = terrain_tnt_map_render_preview (f->map, f->palette, f->ota, 3, NULL, NULL,
                                                 TERRAIN_TNT_PREVIEW_NO_FEATURES, &stats,
                                                 &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stats.starts, ==, 0);

  /* No palette: the render's error. */
  g_assert_null (terrain_tnt_map_render_preview (f->map, NULL, NULL, 0, NULL, NULL,
                                                 TERRAIN_TNT_PREVIEW_DEFAULT, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
}

static void
test_shrink (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainImage) image = terrain_image_new (TERRAIN_IMAGE_RGBA8, 3, 3, &error);
  g_autoptr(TerrainImage) small = NULL;
  g_autoptr(TerrainImage) gray = terrain_image_new (TERRAIN_IMAGE_GRAY16, 2, 1, &error);
  g_autoptr(TerrainImage) gray_small = NULL;
  guint8 *p = terrain_image_get_data (image, NULL);
  guint16 values[2] = { 1000, 3001 }, v;

  g_assert_no_error (error);
  /* Top-left 2x2 block: two opaque red, one opaque blue, one transparent green. */
  memcpy (p + 0, (guint8[4]) { 255, 0, 0, 255 }, 4);
  memcpy (p + 4, (guint8[4]) { 255, 0, 0, 255 }, 4);
  memcpy (p + 12, (guint8[4]) { 0, 0, 255, 255 }, 4);
  memcpy (p + 16, (guint8[4]) { 0, 255, 0, 0 }, 4);
  memcpy (p + 32, (guint8[4]) { 10, 20, 30, 255 }, 4);
  small = terrain_image_shrink (image, 2, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_image_get_width (small), ==, 2);
  g_assert_cmpuint (terrain_image_get_height (small), ==, 2);
  p = terrain_image_get_data (small, NULL);
  /* Transparent green adds nothing; alpha is 3/4. */
  g_assert_cmpmem (p, 4, ((guint8[4]) { 170, 0, 85, 191 }), 4);
  /* The bottom-right block is the one pixel (2, 2). */
  g_assert_cmpmem (p + terrain_image_get_stride (small) + 4, 4, ((guint8[4]) { 10, 20, 30, 255 }),
                   4);

  memcpy (terrain_image_get_data (gray, NULL), values, sizeof values);
  gray_small = terrain_image_shrink (gray, 2, &error);
  g_assert_no_error (error);
  memcpy (&v, terrain_image_get_data (gray_small, NULL), 2);
  g_assert_cmpuint (v, ==, 2001);

  g_assert_null (terrain_image_shrink (image, 0, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
}

static void
test_cli (Fixture       *f,
          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tnt_path = g_build_filename (f->root, "preview.tnt", NULL);
  g_autofree char *ota_path = g_build_filename (f->root, "preview.ota", NULL);
  g_autofree char *png_path = g_build_filename (f->root, "out.png", NULL);
  g_autofree char *install = g_build_filename (f->root, "install", NULL);
  g_autoptr(GFile) tnt_file = g_file_new_for_path (tnt_path);

  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (f->map), tnt_file, NULL, &error));
  g_assert_true (g_file_set_contents (ota_path, ota_text, -1, &error));
  g_assert_no_error (error);

  {
    g_auto(TerrainTestCliResult) result =
      terrain_test_run_cli (NULL, "tnt", "preview", tnt_path, "--archives", install, "-o",
                            png_path, "--shrink", "2", NULL);
    g_autofree char *contents = NULL;
    gsize length;
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(TerrainImage) image = NULL;

    g_assert_cmpint (result.status, ==, 0);
    g_assert_nonnull (strstr (result.out, "1 feature sprites drawn, 3 outlined"));
    g_assert_nonnull (strstr (result.out, "1 metal and 1 geothermal marks, 1 start positions"));
    g_assert_true (g_file_get_contents (png_path, &contents, &length, &error));
    bytes = g_bytes_new_take (g_steal_pointer (&contents), length);
    image = terrain_image_load_png_bytes (bytes, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (terrain_image_get_width (image), ==, 128);
  }
  /* No palette to be had: a usage error. */
  {
    g_auto(TerrainTestCliResult) result =
      terrain_test_run_cli (NULL, "tnt", "preview", tnt_path, "-o", png_path, NULL);

    g_assert_cmpint (result.status, ==, 64);
    g_assert_nonnull (strstr (result.err, "--palette"));
  }
  /* -o is required. */
  {
    g_auto(TerrainTestCliResult) result =
      terrain_test_run_cli (NULL, "tnt", "preview", tnt_path, "--archives", install, NULL);

    g_assert_cmpint (result.status, ==, 64);
  }
}

/* The sprite API the preview and the editor draw with: Tree1's frame
 * through the palette, its origin, footprint and GAF, placed on its
 * anchor as the preview places it; the features without a sprite fail
 * with an error that says why, and the same error a second time. */
static void
test_sprites (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainFeatureSprites) sprites = terrain_feature_sprites_new (f->files, f->catalog, f->palette);
  g_autoptr(TerrainFeatureSprites) no_files = terrain_feature_sprites_new (NULL, f->catalog, f->palette);
  g_autoptr(TerrainFeatureSprite) tree = terrain_feature_sprites_lookup (sprites, "TREE1", &error);
  g_autoptr(TerrainFeatureSprite) again = NULL;
  TerrainFeatureSprite *missing;
  TerrainImage *image;
  const guint8 *p;
  guint8 r, g, b;
  gint ox, oy, left, top;
  guint fx, fz;

  g_assert_no_error (error);
  g_assert_nonnull (tree);
  image = terrain_feature_sprite_get_image (tree);
  g_assert_cmpuint (terrain_image_get_width (image), ==, 4);
  g_assert_cmpuint (terrain_image_get_height (image), ==, 6);
  /* Index 0 is the frame's transparency; the rest SPRITE_COLOR, opaque. */
  p = terrain_image_get_data (image, NULL);
  g_assert_cmpuint (p[3], ==, 0);
  terrain_palette_get_color (f->palette, SPRITE_COLOR, &r, &g, &b);
  g_assert_cmpmem (p + 4, 4, ((guint8[4]) { r, g, b, 255 }), 4);
  terrain_feature_sprite_get_origin (tree, &ox, &oy);
  g_assert_cmpint (ox, ==, 2);
  g_assert_cmpint (oy, ==, 5);
  terrain_feature_sprite_get_footprint (tree, &fx, &fz);
  g_assert_cmpuint (fx, ==, 2);
  g_assert_cmpuint (fz, ==, 2);
  g_assert_cmpstr (terrain_feature_sprite_get_path (tree), ==, "anims/trees.gaf");
  g_assert_cmpstr (terrain_feature_sprite_get_entry (tree), ==, "Tree1");
  /* At (4, 4), height 20: the frame's top left at (78, 65), as test_marks. */
  terrain_feature_sprite_get_position (tree, f->map, 4, 4, &left, &top);
  g_assert_cmpint (left, ==, 78);
  g_assert_cmpint (top, ==, 65);
  /* Off the map the ground counts as height 0. */
  terrain_feature_sprite_get_position (tree, f->map, 100, 0, &left, &top);
  g_assert_cmpint (left, ==, 100 * 16 + 16 - 2);
  g_assert_cmpint (top, ==, 16 - 5);
  /* Made once: the second lookup is the same sprite. */
  again = terrain_feature_sprites_lookup (sprites, "tree1", &error);
  g_assert_true (again == tree);

  missing = terrain_feature_sprites_lookup (sprites, "Metal1", &error);
  g_assert_null (missing);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "no filename"));
  g_clear_error (&error);
  g_assert_null (terrain_feature_sprites_lookup (sprites, "metal1", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (terrain_feature_sprites_lookup (sprites, "Ghost", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "no definition"));
  g_clear_error (&error);
  g_assert_null (terrain_feature_sprites_lookup (no_files, "Tree1", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "anims/trees.gaf"));
  g_clear_error (&error);
}

/* A GAF that is not one: the reader's error, with the path. */
static void
test_sprites_bad_gaf (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *gaf_path = g_build_filename (f->root, "install", "anims", "TREES.GAF", NULL);
  g_autofree char *install = g_build_filename (f->root, "install", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (install);
  g_autoptr(TerrainGameFiles) files = terrain_game_files_new (NULL);
  g_autoptr(TerrainFeatureSprites) sprites = NULL;

  g_assert_true (g_file_set_contents (gaf_path, "not a GAF at all", -1, &error));
  g_assert_true (terrain_game_files_add (files, folder, NULL, &error));
  g_assert_no_error (error);
  sprites = terrain_feature_sprites_new (files, f->catalog, f->palette);
  g_assert_null (terrain_feature_sprites_lookup (sprites, "Tree1", &error));
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, "anims/trees.gaf: "));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/Terrain/TntPreview/marks", Fixture, NULL, fixture_set_up, test_marks,
              fixture_tear_down);
  g_test_add ("/Terrain/TntPreview/flags", Fixture, NULL, fixture_set_up, test_flags,
              fixture_tear_down);
  g_test_add ("/Terrain/TntPreview/cli", Fixture, NULL, fixture_set_up, test_cli,
              fixture_tear_down);
  g_test_add ("/Terrain/FeatureSprites/lookup", Fixture, NULL, fixture_set_up, test_sprites,
              fixture_tear_down);
  g_test_add ("/Terrain/FeatureSprites/bad-gaf", Fixture, NULL, fixture_set_up, test_sprites_bad_gaf,
              fixture_tear_down);
  g_test_add_func ("/Terrain/Image/shrink", test_shrink);

  return g_test_run ();
}
