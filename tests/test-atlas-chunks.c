/* test-atlas-chunks.c: Torque Atlas quadtree helpers, chunk classes and the CLI
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The node indexing of atlas-chu-tqt.md §1, the texture codecs, DDS, Config
 * entries and geometry checks, format detection and `terrain` on files
 * built by test-atlas-fixture.c.
 */


#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"
#include "terrain-test-util.h"
#include "test-atlas-fixture.h"

/* ------------------------------------------------------------------------
 * Quadtree helpers
 */

static void
test_quadtree (void)
{
  static const guint64 counts[] = { 0, 1, 5, 21, 85, 341, 1365 };

  for (guint d = 0; d < G_N_ELEMENTS (counts); d++)
    g_assert_cmpuint (terrain_quadtree_node_count (d), ==, counts[d]);
  g_assert_cmpuint (terrain_quadtree_node_count (16), ==, 0x55555555u);

  for (guint64 id = 0; id < 1365; id++)
    {
      guint level;
      guint32 x, y;
      guint64 parent;

      g_assert_true (terrain_quadtree_node_position (id, &level, &x, &y));
      g_assert_cmpuint (terrain_quadtree_node_id (level, x, y), ==, id);
      if (id == 0)
        g_assert_false (terrain_quadtree_parent (id, &parent));
      else
        {
          gboolean found = FALSE;

          g_assert_true (terrain_quadtree_parent (id, &parent));
          for (guint k = 0; k < 4; k++)
            found |= terrain_quadtree_child (parent, k) == id;
          g_assert_true (found);
        }
    }

  /* §6: the depth-5 example and x-major order. */
  g_assert_cmpuint (terrain_quadtree_node_id (3, 0, 0), ==, 21);
  g_assert_cmpuint (terrain_quadtree_node_id (2, 1, 0), ==, 5 + 4);
  g_assert_cmpuint (terrain_quadtree_node_id (2, 0, 1), ==, 5 + 1);
  g_assert_cmpuint (terrain_quadtree_child (0, 3), ==, 4);

  {
    guint32 x, y;

    g_assert_cmpuint (terrain_quadtree_project (3, 5, 6, 1, &x, &y), ==, 1);
    g_assert_cmpuint (x, ==, 1);
    g_assert_cmpuint (y, ==, 1);
    g_assert_cmpuint (terrain_quadtree_project (1, 1, 0, 3, &x, &y), ==, 4);
    g_assert_cmpuint (x, ==, 4);
    g_assert_cmpuint (y, ==, 0);
  }

  /* §4: texture stub (N-1-xL, yL); local UV in [0,1] for texture
   * coordinates that the CHU mapping gives points inside the node. */
  for (guint level = 0; level < 4; level++)
    {
      guint32 n = 1u << level;

      for (guint32 x = 0; x < n; x++)
        for (guint32 y = 0; y < n; y++)
          {
            guint32 tx, ty, nx, ny;
            gfloat u, v;
            /* Centre of node (x, y) in a 1x1 terrain, through §9b. */
            gfloat px = (x + 0.5f) / n, py = (y + 0.5f) / n;
            gfloat tcx = py, tcy = 1.0f - px;

            g_assert_cmpuint (terrain_quadtree_texture_stub (level, x, y, level, &tx, &ty), ==, 1);
            g_assert_cmpuint (tx, ==, n - 1 - x);
            g_assert_cmpuint (ty, ==, y);
            terrain_quadtree_texture_local_uv (level, x, y, tcx, tcy, &u, &v);
            g_assert_cmpfloat_with_epsilon (u, 0.5f, 1e-5);
            g_assert_cmpfloat_with_epsilon (v, 0.5f, 1e-5);
            terrain_quadtree_texture_node_at (level, tcx, tcy, &nx, &ny);
            g_assert_cmpuint (nx, ==, tx);
            g_assert_cmpuint (ny, ==, ty);
            /* Back from the stub to the node. */
            g_assert_true (terrain_quadtree_texture_geometry_node (level, tx, ty, &nx, &ny));
            g_assert_cmpuint (nx, ==, x);
            g_assert_cmpuint (ny, ==, y);
            /* The stub's square holds the coordinate, and the place
             * inside it is the local UV. */
            {
              double ox, oy, side = terrain_quadtree_texture_tile_rect (level, tx, ty, &ox, &oy);

              g_assert_cmpfloat_with_epsilon (side, 1.0 / n, 1e-12);
              g_assert_cmpfloat_with_epsilon ((tcx - ox) / side, u, 1e-5);
              g_assert_cmpfloat_with_epsilon ((tcy - oy) / side, v, 1e-5);
              g_assert_true (tcx >= ox && tcx < ox + side);
              g_assert_true (tcy >= oy && tcy < oy + side);
            }
          }
    }

  {
    guint32 tx, ty;

    double ox = -1, oy = -1;

    /* Outside the level: no square. */
    g_assert_cmpfloat (terrain_quadtree_texture_tile_rect (2, 4, 0, &ox, &oy), ==, 0);
    g_assert_cmpfloat (ox, ==, -1);
    g_assert_cmpfloat (terrain_quadtree_texture_tile_rect (2, 0, 4, NULL, NULL), ==, 0);
    g_assert_false (terrain_quadtree_texture_geometry_node (2, 4, 0, NULL, NULL));
    /* Stub (3, 1) of level 2: texCoord.x from 1/4, texCoord.y from 3/4. */
    g_assert_cmpfloat (terrain_quadtree_texture_tile_rect (2, 3, 1, &ox, &oy), ==, 0.25);
    g_assert_cmpfloat (ox, ==, 0.25);
    g_assert_cmpfloat (oy, ==, 0.75);

    /* A level-1 geometry node seen from texture level 3 covers 4x4 stubs. */
    g_assert_cmpuint (terrain_quadtree_texture_stub (1, 0, 1, 3, &tx, &ty), ==, 4);
    g_assert_cmpuint (tx, ==, 4);
    g_assert_cmpuint (ty, ==, 4);
  }
}

/* ------------------------------------------------------------------------
 * Chunk classes
 */

static void
test_texture_codecs (void)
{
  g_autoptr(TerrainImage) picture = fx_picture (8, 8);
  g_autoptr(GError) error = NULL;

  /* PNG is exact, BGR swaps red and blue both ways. */
  {
    g_autoptr(TerrainAtlasTexture) png = NULL;
    g_autoptr(TerrainImage) same = NULL;
    g_autoptr(TerrainImage) swapped = NULL;
    guint w, h;

    png = terrain_atlas_texture_new_from_image (picture, TERRAIN_ATLAS_TEXTURE_PNG, 0,
                                                TERRAIN_ATLAS_CHANNELS_BGR, &error);
    g_assert_no_error (error);
    g_assert_true (terrain_atlas_texture_get_size (png, &w, &h, &error));
    g_assert_cmpuint (w, ==, 8);
    g_assert_cmpuint (h, ==, 8);
    same = terrain_atlas_texture_decode (png, TERRAIN_ATLAS_CHANNELS_BGR, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpmem (terrain_image_get_data (same, NULL), 256,
                     terrain_image_get_data (picture, NULL), 256);
    swapped = terrain_atlas_texture_decode (png, TERRAIN_ATLAS_CHANNELS_RGB, NULL, &error);
    g_assert_cmpuint (terrain_image_get_data (swapped, NULL)[4 * 3 + 2], ==, 3 * 30);
    g_assert_cmpuint (terrain_image_get_data (swapped, NULL)[4 * 3 + 0], ==, 200);
    g_assert_cmpstr (terrain_atlas_texture_get_extension (png), ==, "png");
  }

  /* JPEG is lossy: close enough. */
  {
    g_autoptr(TerrainAtlasTexture) jpeg = NULL;
    g_autoptr(TerrainImage) image = NULL;
    const guint8 *a, *b;

    jpeg = terrain_atlas_texture_new_from_image (picture, TERRAIN_ATLAS_TEXTURE_JPEG, 95,
                                                 TERRAIN_ATLAS_CHANNELS_RGB, &error);
    g_assert_no_error (error);
    image = terrain_atlas_texture_decode (jpeg, TERRAIN_ATLAS_CHANNELS_RGB, NULL, &error);
    g_assert_no_error (error);
    a = terrain_image_get_data (image, NULL);
    b = terrain_image_get_data (picture, NULL);
    for (guint i = 0; i < 256; i++)
      g_assert_cmpint (ABS ((gint) a[i] - (gint) b[i]), <=, 24);
  }

  /* A broken JPEG is an error, not a crash. */
  {
    static const guint8 junk[] = { 0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 'J', 'F' };
    g_autoptr(GBytes) data = g_bytes_new_static (junk, sizeof junk);
    g_autoptr(TerrainAtlasTexture) bad = terrain_atlas_texture_new (TERRAIN_ATLAS_TEXTURE_JPEG,
                                                                    data);
    g_autoptr(TerrainImage) image = NULL;

    image = terrain_atlas_texture_decode (bad, TERRAIN_ATLAS_CHANNELS_RGB, NULL, &error);

    /* The stream stops inside its first marker segment. */
    g_assert_null (image);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
    g_clear_error (&error);
  }

  /* DXT1 with the four palette entries. */
  {
    g_autoptr(TerrainAtlasTexture) dds = terrain_atlas_texture_new (TERRAIN_ATLAS_TEXTURE_DDS,
                                                                    fx_dds_dxt1 ());
    g_autoptr(TerrainImage) image = NULL;
    static const guint8 expected[4][4] = {
      { 255, 0, 0, 255 }, { 0, 0, 255, 255 }, { 170, 0, 85, 255 }, { 85, 0, 170, 255 },
    };
    const guint8 *p;

    image = terrain_atlas_texture_decode (dds, TERRAIN_ATLAS_CHANNELS_BGR, NULL, &error);
    g_assert_no_error (error);
    p = terrain_image_get_data (image, NULL);
    for (guint i = 0; i < 16; i++)
      g_assert_cmpmem (p + 4 * i, 4, expected[i % 4], 4);
  }
}

static GBytes *
make_dds (guint32       fourcc,
          guint32       pf_flags,
          guint32       bits,
          const guint32 masks[4],
          const guint8 *pixels,
          gsize         n_pixels)
{
  GByteArray *out = g_byte_array_new ();

  terrain_test_put_u32 (out, 0x20534444);
  terrain_test_put_u32 (out, 124);
  terrain_test_put_u32 (out, 0x1007);
  terrain_test_put_u32 (out, 4);
  terrain_test_put_u32 (out, 4);
  terrain_test_put_u32 (out, 0);
  terrain_test_put_u32 (out, 0);
  terrain_test_put_u32 (out, 1);
  for (guint i = 0; i < 11; i++)
    terrain_test_put_u32 (out, 0);
  terrain_test_put_u32 (out, 32);
  terrain_test_put_u32 (out, pf_flags);
  terrain_test_put_u32 (out, fourcc);
  terrain_test_put_u32 (out, bits);
  for (guint i = 0; i < 4; i++)
    terrain_test_put_u32 (out, masks != NULL ? masks[i] : 0);
  terrain_test_put_u32 (out, 0x1000);
  for (guint i = 0; i < 4; i++)
    terrain_test_put_u32 (out, 0);
  g_byte_array_append (out, pixels, (guint) n_pixels);
  return g_byte_array_free_to_bytes (out);
}

static void
test_dds (void)
{
  g_autoptr(GError) error = NULL;

  /* DXT3: explicit 4-bit alpha. */
  {
    guint8 block[16] = { 0 };
    g_autoptr(GBytes) dds = NULL;
    g_autoptr(TerrainImage) image = NULL;
    const guint8 *p;

    block[0] = 0xF0;   /* pixel 0 alpha 0, pixel 1 alpha 15 */
    block[8] = 0x00; block[9] = 0xF8;   /* c0 red */
    dds = make_dds (0x33545844, 4, 0, NULL, block, 16);
    image = terrain_dds_decode (dds, NULL, &error);
    g_assert_no_error (error);
    p = terrain_image_get_data (image, NULL);
    g_assert_cmpuint (p[3], ==, 0);
    g_assert_cmpuint (p[7], ==, 255);
    g_assert_cmpuint (p[0], ==, 255);
  }

  /* DXT5: interpolated alpha, index 1 everywhere selects a1. */
  {
    guint8 block[16] = { 10, 250, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24 };
    g_autoptr(GBytes) dds = make_dds (0x35545844, 4, 0, NULL, block, 16);
    g_autoptr(TerrainImage) image = terrain_dds_decode (dds, NULL, &error);
    const guint8 *p = terrain_image_get_data (image, NULL);

    g_assert_no_error (error);
    for (guint i = 0; i < 16; i++)
      g_assert_cmpuint (p[4 * i + 3], ==, 250);
  }

  /* Uncompressed BGRA through masks. */
  {
    guint8 pixels[64];
    static const guint32 masks[4] = { 0xFF0000, 0xFF00, 0xFF, 0xFF000000u };
    g_autoptr(GBytes) dds = NULL;
    g_autoptr(TerrainImage) image = NULL;
    const guint8 *p;

    for (guint i = 0; i < 16; i++)
      {
        pixels[4 * i] = 1;       /* B */
        pixels[4 * i + 1] = 2;   /* G */
        pixels[4 * i + 2] = 3;   /* R */
        pixels[4 * i + 3] = 4;   /* A */
      }
    dds = make_dds (0, 0x41, 32, masks, pixels, 64);
    image = terrain_dds_decode (dds, NULL, &error);
    g_assert_no_error (error);
    p = terrain_image_get_data (image, NULL);
    g_assert_cmpuint (p[0], ==, 3);
    g_assert_cmpuint (p[1], ==, 2);
    g_assert_cmpuint (p[2], ==, 1);
    g_assert_cmpuint (p[3], ==, 4);
  }

  /* Incomplete streams and bad magic are errors; unknown formats parse but
   * do not decode. */
  {
    guint8 block[8] = { 0 };
    g_autoptr(GBytes) short_dds = make_dds (0x31545844, 4, 0, NULL, block, 7);
    g_autoptr(GBytes) odd = make_dds (0x30303030, 4, 0, NULL, block, 8);
    g_autoptr(GBytes) not_dds = g_bytes_new_static ("PNG.....", 8);
    g_autoptr(TerrainImage) image = NULL;
    TerrainDdsInfo info;

    g_assert_false (terrain_dds_parse (short_dds, 500, &info, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (error->message, "byte offset 628"));
    g_clear_error (&error);
    g_assert_true (terrain_dds_parse (odd, 0, &info, &error));
    g_assert_cmpint (info.format, ==, TERRAIN_DDS_FORMAT_UNKNOWN);
    image = terrain_dds_decode (odd, NULL, &error);
    g_assert_null (image);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
    g_clear_error (&error);
    g_assert_false (terrain_dds_parse (not_dds, 0, &info, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC);
  }
}

static void
test_config_entries (void)
{
  g_autoptr(TerrainAtlasConfig) config = terrain_atlas_config_new ();
  g_autoptr(GBytes) body = NULL;
  g_autoptr(TerrainAtlasConfig) back = NULL;
  g_autoptr(GError) error = NULL;
  gsize length;

  terrain_atlas_config_set (config, "type", "blender");
  terrain_atlas_config_set (config, "opacityMapSlot", "1");
  terrain_atlas_config_set (config, "TYPE", "unique");
  g_assert_cmpuint (terrain_atlas_config_get_n_entries (config), ==, 2);
  /* Newest first; an existing key keeps its place. */
  g_assert_cmpstr (terrain_atlas_config_get_key (config, 0, &length), ==, "opacityMapSlot");
  g_assert_cmpuint (length, ==, 14);
  g_assert_cmpstr (terrain_atlas_config_get_value (config, 1, NULL), ==, "unique");
  g_assert_null (terrain_atlas_config_lookup (config, "missing"));
  g_assert_true (terrain_atlas_config_remove (config, "opacitymapslot"));
  g_assert_false (terrain_atlas_config_remove (config, "opacitymapslot"));
  terrain_atlas_config_set_previous_chunk (config, 99);

  body = terrain_atlas_config_encode_body (config, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (body), ==, 4 + 4 + 4 + 4 + 4 + 6);
  back = terrain_atlas_config_new_from_body (body, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_atlas_config_get_previous_chunk (back), ==, 99);
  g_assert_cmpstr (terrain_atlas_config_lookup (back, "type"), ==, "unique");

  /* Trailing bytes after the last entry are refused. */
  {
    g_autoptr(GByteArray) longer = g_byte_array_new ();
    g_autoptr(GBytes) bad = NULL;
    g_autoptr(TerrainAtlasConfig) none = NULL;

    g_byte_array_append (longer, g_bytes_get_data (body, NULL), (guint) g_bytes_get_size (body));
    terrain_test_put_u8 (longer, 0);
    bad = g_bytes_new (longer->data, longer->len);
    none = terrain_atlas_config_new_from_body (bad, 0, NULL, &error);
    g_assert_null (none);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  }
}

static void
test_geometry_check (void)
{
  g_autoptr(TerrainAtlasGeometry) g = terrain_atlas_geometry_new ();
  g_autoptr(GPtrArray) issues = NULL;
  static const guint16 bad_indices[] = { 0, 1, 9, 0, 1 };
  static const guint16 offsets[4] = { 0, 2, 4, 40 };
  static const guint16 buffer[6] = { 0, 0xFFFF, 7, 0xFFFF, 0, 3 };
  gfloat tree[10] = { 0 };
  TerrainAtlasVertex v[4];
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 4; i++)
    fx_vertex (0, 0, i, 140, &v[i]);
  terrain_atlas_geometry_set_vertices (g, v, 4);
  terrain_atlas_geometry_set_indices (g, bad_indices, 5, 9);
  g_assert_true (terrain_atlas_geometry_set_collision (g, 2, tree, 5, offsets, 4, buffer, 6,
                                                       &error));
  g_assert_false (terrain_atlas_geometry_set_collision (g, 2, tree, 4, offsets, 4, buffer, 6,
                                                        &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);

  issues = terrain_atlas_geometry_check (g, "test", 0, 0);
  g_assert_true (has_issue (issues, "index 2 is 9"));
  g_assert_true (has_issue (issues, "whole triangles"));
  g_assert_true (has_issue (issues, "skirt skip count 9"));
  g_assert_true (has_issue (issues, "do not contain every vertex"));
  g_assert_true (has_issue (issues, "entry 2: triangle offset 7 runs past"));
  g_assert_true (has_issue (issues, "bin 3 starts at entry 40"));
  g_assert_true (has_issue (issues, "bin 2 (from entry 4) is not ended by 0xFFFF"));
  g_assert_true (has_issue (issues, "outside the bin's range"));
}

static void
test_detect_and_load (void)
{
  g_autoptr(Fixture) f = fixture_build (&small_spec);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(GBytes) obj = NULL;
  g_autoptr(TerrainAtlasFile) file = NULL;
  g_autofree char *text = NULL;
  guint v = 0, faces = 0;
  char **lines;

  g_assert_cmpint (terrain_format_detect (f->bytes, NULL), ==, TERRAIN_FORMAT_ATLAS);
  g_assert_true (terrain_format_can_load (TERRAIN_FORMAT_ATLAS));
  document = terrain_document_load_bytes (f->bytes, "x.atlas", TERRAIN_FORMAT_UNKNOWN, NULL,
                                          &error);
  g_assert_no_error (error);
  g_assert_true (TERRAIN_IS_ATLAS_FILE (document));

  /* OBJ of level 1: four chunks, non-skirt triangles only. */
  file = load (f->bytes);
  obj = terrain_atlas_file_export_obj (file, 0, 1, FALSE, &error);
  g_assert_no_error (error);
  text = g_strndup (g_bytes_get_data (obj, NULL), g_bytes_get_size (obj));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      v += g_str_has_prefix (lines[i], "v ");
      faces += g_str_has_prefix (lines[i], "f ");
    }
  g_strfreev (lines);
  g_assert_cmpuint (v, ==, fx_n_vertices (1) + fx_n_vertices (2) + fx_n_vertices (3) +
                           fx_n_vertices (4));
  g_assert_cmpuint (faces, ==, 4 * 2);
  g_assert_nonnull (strstr (text, "g chunk_1_1_1\n"));

  g_clear_pointer (&obj, g_bytes_unref);
  obj = terrain_atlas_file_export_obj (file, 0, 2, FALSE, &error);
  g_assert_null (obj);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
}

/* ------------------------------------------------------------------------
 * The command-line tool
 */

static void
test_cli (void)
{
  g_autoptr(Fixture) f = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *tiles = NULL;
  g_autofree char *obj = NULL;
  g_autofree char *compact = NULL;
  g_autofree char *old = NULL;
  g_autofree char *obj_text = NULL;

  if (g_getenv ("TERRAIN_CLI") == NULL)
    {
      g_test_skip ("TERRAIN_CLI is not set");
      return;
    }

  f = fixture_build (&specs[12]);   /* "everything" */
  dir = g_dir_make_tmp ("terrain-atlas-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "terrain.atlas", NULL);
  tiles = g_build_filename (dir, "tiles", NULL);
  obj = g_build_filename (dir, "level1.obj", NULL);
  compact = g_build_filename (dir, "compact.atlas", NULL);
  old = g_build_filename (dir, "v110.atlas", NULL);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (f->bytes, NULL),
                                      (gssize) g_bytes_get_size (f->bytes), &error));

  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "info", path, NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "format: atlas"));
    g_assert_nonnull (strstr (r.out, "history_frames:"));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "validate", path, NULL);

    g_assert_cmpint (r.status, ==, 0);
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "roundtrip", path, NULL);

    g_assert_cmpint (r.status, ==, 0);
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "atlas", "list", path, NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "TOC 0: Geom, version 140, tree depth 3, 21 stubs, "
                                     "goal batch size 1500"));
    g_assert_nonnull (strstr (r.out, "TOC 3: Config, version 140, tree depth 0, 3 stubs, "
                                     "8-byte names"));
    g_assert_nonnull (strstr (r.out, "(empty)"));
    g_assert_nonnull (strstr (r.out, "name \"cfg2\""));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "atlas", "extract-textures", path,
                                                           tiles, NULL);
    g_autofree char *first = g_build_filename (tiles, "toc1-L0-0-0.jpg", NULL);
    g_autofree char *dds = g_build_filename (tiles, "toc2-L1-0-1.dds", NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_file_test (first, G_FILE_TEST_EXISTS));
    g_assert_true (g_file_test (dds, G_FILE_TEST_EXISTS));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "atlas", "extract-textures",
                                                           "--png", path, tiles, NULL);
    g_autofree char *png = g_build_filename (tiles, "toc2-L1-0-1.png", NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_file_test (png, G_FILE_TEST_EXISTS));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "atlas", "export-mesh", "--level",
                                                           "1", path, obj, NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_file_get_contents (obj, &obj_text, NULL, &error));
    g_assert_nonnull (strstr (obj_text, "g chunk_1_1_0\n"));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "atlas", "export-mesh", "--level",
                                                           "7", path, obj, NULL);

    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "levels 0 to 2"));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "atlas", "compact", path, compact,
                                                           NULL);
    g_auto(TerrainTestCliResult) r2 = terrain_test_run_cli (NULL, "roundtrip", compact, NULL);
    g_auto(TerrainTestCliResult) r3 = terrain_test_run_cli (NULL, "info", compact, NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpint (r2.status, ==, 0);
    g_assert_nonnull (strstr (r3.out, "history_frames: 0"));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "convert", path, old, "--version",
                                                           "110", NULL);
    g_auto(TerrainTestCliResult) r2 = terrain_test_run_cli (NULL, "atlas", "list", old, NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.err, "normals"));
    g_assert_nonnull (strstr (r.err, "collision"));
    g_assert_nonnull (strstr (r2.out, "TOC 0: Geom, version 110"));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "convert", path, old, NULL);

    g_assert_cmpint (r.status, ==, 64);
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "atlas", "frobnicate", path, NULL);

    g_assert_cmpint (r.status, ==, 64);
  }

  /* A broken file is reported with its offset, not crashed on. */
  {
    g_autoptr(GBytes) bad = mutate (f->bytes, f->stub_base[0] + 36, 0xD1, 1);
    g_auto(TerrainTestCliResult) r = { 0 };

    g_assert_true (g_file_set_contents (path, g_bytes_get_data (bad, NULL),
                                        (gssize) g_bytes_get_size (bad), &error));
    r = terrain_test_run_cli (NULL, "info", path, NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "sentinel 0xD1"));
  }

  {
    g_autoptr(GFile) top = g_file_new_for_path (dir);
    const char *names[] = { "terrain.atlas", "level1.obj", "compact.atlas", "v110.atlas" };
    g_autoptr(GDir) d = g_dir_open (tiles, 0, NULL);
    const char *name;

    while (d != NULL && (name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *p = g_build_filename (tiles, name, NULL);

        g_unlink (p);
      }
    g_rmdir (tiles);
    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *p = g_build_filename (dir, names[i], NULL);

        g_unlink (p);
      }
    g_rmdir (dir);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/Atlas/quadtree", test_quadtree);
  g_test_add_func ("/Terrain/Atlas/texture-codecs", test_texture_codecs);
  g_test_add_func ("/Terrain/Atlas/dds", test_dds);
  g_test_add_func ("/Terrain/Atlas/config-entries", test_config_entries);
  g_test_add_func ("/Terrain/Atlas/geometry-check", test_geometry_check);
  g_test_add_func ("/Terrain/Atlas/detect-and-export", test_detect_and_load);
  g_test_add_func ("/Terrain/Atlas/cli", test_cli);

  return g_test_run ();
}
