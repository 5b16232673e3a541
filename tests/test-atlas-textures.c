/* test-atlas-textures.c: re-encoding an Atlas file's texture TOC (TGEA's
 * atlasConvertTextureTOC): in place with history frames, or compacted.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "libterrain.h"
#include "terrain-test-util.h"

#define TILE 64

/* A 65 x 65 slope and a 128 x 128 gradient picture, PNG tiles of 64
 * pixels: a texture tree of depth 2, five tiles, in TOC 1. */
static TerrainAtlasFile *
build_textured_colour (const guint8 *colour)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainHeightfield) field = terrain_heightfield_new (65, 65, 1.0, &error);
  g_autoptr(TerrainImage) picture = terrain_image_new (TERRAIN_IMAGE_RGBA8, 128, 128, &error);
  g_autoptr(TerrainAtlasBuilder) builder = NULL;
  gfloat *heights = terrain_heightfield_get_data (field, NULL);
  guint8 *p = terrain_image_get_data (picture, NULL);
  gsize stride = terrain_image_get_stride (picture);
  TerrainAtlasFile *atlas;

  g_assert_no_error (error);
  for (guint i = 0; i < 65 * 65; i++)
    heights[i] = (gfloat) (i % 65) * 0.25f;
  for (guint y = 0; y < 128; y++)
    for (guint x = 0; x < 128; x++)
      {
        guint8 *q = p + y * stride + 4 * x;

        q[0] = colour != NULL ? colour[0] : (guint8) (2 * x);
        q[1] = colour != NULL ? colour[1] : (guint8) (2 * y);
        q[2] = colour != NULL ? colour[2] : (guint8) ((x + y) & 0xFF);
        q[3] = 255;
      }

  builder = terrain_atlas_builder_new (field);
  terrain_atlas_builder_set_tree_depth (builder, 2);
  terrain_atlas_builder_set_texture_image (builder, picture);
  terrain_atlas_builder_set_texture_format (builder, TERRAIN_ATLAS_TEXTURE_PNG, 90);
  terrain_atlas_builder_set_tile_size (builder, TILE);
  atlas = terrain_atlas_builder_build (builder, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_atlas_toc_get_kind (terrain_atlas_file_get_toc (atlas, 1)), ==,
                   TERRAIN_ATLAS_TOC_TEXTURE);
  return atlas;
}

static TerrainAtlasFile *
build_textured (void)
{
  return build_textured_colour (NULL);
}

static TerrainImage *
decode_toc_tile (TerrainAtlasFile *atlas,
                 guint             toc,
                 guint             stub,
                 guint8            expected_format)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainAtlasTexture) texture = terrain_atlas_file_get_texture (atlas, toc, stub, &error);
  TerrainImage *image;

  g_assert_no_error (error);
  g_assert_cmpuint (terrain_atlas_texture_get_format (texture), ==, expected_format);
  image = terrain_atlas_texture_decode (texture, TERRAIN_ATLAS_CHANNELS_RGB, NULL, &error);
  g_assert_no_error (error);
  return image;
}

/* A tile of texture TOC 1, where build_textured() puts it. */
static TerrainImage *
decode_tile (TerrainAtlasFile *atlas,
             guint             stub,
             guint8            expected_format)
{
  return decode_toc_tile (atlas, 1, stub, expected_format);
}

static gint64
describe_int (TerrainDocument *document,
              const char      *member)
{
  g_autoptr(JsonNode) node = terrain_document_describe (document);

  return json_object_get_int_member (json_node_get_object (node), member);
}

static void
assert_clean (TerrainDocument *document)
{
  g_autoptr(GPtrArray) issues = terrain_document_validate (document);
  gboolean any;

  g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_INFO);
}

static void
test_convert (void)
{
  g_autoptr(TerrainAtlasFile) atlas = build_textured ();
  g_autoptr(TerrainAtlasFile) reread = NULL;
  g_autoptr(TerrainAtlasFile) compact = NULL;
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) png = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_image_unref);
  TerrainAtlasToc *toc = terrain_atlas_file_get_toc (atlas, 1);
  guint n = 0, n_stubs = terrain_atlas_toc_get_n_stubs (toc);

  g_assert_cmpuint (n_stubs, ==, 5);
  for (guint s = 0; s < n_stubs; s++)
    g_ptr_array_add (png, decode_tile (atlas, s, TERRAIN_ATLAS_TEXTURE_PNG));
  before = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (atlas), &error);
  g_assert_no_error (error);

  /* Not a texture TOC; a bad quality. */
  g_assert_false (terrain_atlas_file_convert_textures (atlas, 0, TERRAIN_ATLAS_TEXTURE_DDS, 90,
                                                       TERRAIN_ATLAS_CHANNELS_RGB, &n, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  g_assert_false (terrain_atlas_file_convert_textures (atlas, 1, TERRAIN_ATLAS_TEXTURE_JPEG, 0,
                                                       TERRAIN_ATLAS_CHANNELS_RGB, &n, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);

  /* Tiles already PNG are left alone: the file does not change. */
  g_assert_true (terrain_atlas_file_convert_textures (atlas, 1, TERRAIN_ATLAS_TEXTURE_PNG, 90,
                                                      TERRAIN_ATLAS_CHANNELS_RGB, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 0);
  again = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (atlas), &error);
  terrain_test_assert_bytes_equal (before, again);

  /* To DDS, in place: five new frames, the old ones kept as history. */
  g_assert_true (terrain_atlas_file_convert_textures (atlas, 1, TERRAIN_ATLAS_TEXTURE_DDS, 90,
                                                      TERRAIN_ATLAS_CHANNELS_RGB, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 5);
  after = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (atlas), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (after), >, g_bytes_get_size (before));
  /* Everything before the appended frames is the old file but for the
   * texture stubs (offset, length, generation). */
  g_assert_cmpmem ((const guint8 *) g_bytes_get_data (after, NULL) +
                     terrain_atlas_file_get_toc_region_size (atlas),
                   g_bytes_get_size (before) - terrain_atlas_file_get_toc_region_size (atlas),
                   (const guint8 *) g_bytes_get_data (before, NULL) +
                     terrain_atlas_file_get_toc_region_size (atlas),
                   g_bytes_get_size (before) - terrain_atlas_file_get_toc_region_size (atlas));

  reread = terrain_atlas_file_new_from_bytes (after, NULL, &error);
  g_assert_no_error (error);
  assert_clean (TERRAIN_DOCUMENT (reread));
  g_assert_cmpint (describe_int (TERRAIN_DOCUMENT (reread), "history_frames"), ==, 5);
  for (guint s = 0; s < n_stubs; s++)
    {
      g_autoptr(TerrainAtlasStub) stub = terrain_atlas_toc_get_stub (terrain_atlas_file_get_toc (reread, 1), s);
      g_autoptr(TerrainImage) dds = decode_tile (reread, s, TERRAIN_ATLAS_TEXTURE_DDS);
      TerrainImage *old = g_ptr_array_index (png, s);
      const guint8 *a = terrain_image_get_data (old, NULL), *b = terrain_image_get_data (dds, NULL);
      guint64 sum = 0;

      g_assert_cmpuint (terrain_atlas_stub_get_generation (stub), ==, 1);
      g_assert_cmpuint (terrain_image_get_width (dds), ==, TILE);
      /* BC1 of a smooth gradient: a few levels off on average. */
      for (gsize i = 0; i < (gsize) TILE * TILE * 4; i++)
        sum += (guint64) abs ((int) a[i] - (int) b[i]);
      g_assert_cmpfloat ((gdouble) sum / (TILE * TILE * 4), <, 6.0);
    }

  /* Compacted: the same tiles, no history. */
  compact = terrain_atlas_file_compact (reread, &error);
  g_assert_no_error (error);
  assert_clean (TERRAIN_DOCUMENT (compact));
  g_assert_cmpint (describe_int (TERRAIN_DOCUMENT (compact), "history_frames"), ==, 0);
  for (guint s = 0; s < n_stubs; s++)
    {
      g_autoptr(TerrainImage) x = decode_tile (reread, s, TERRAIN_ATLAS_TEXTURE_DDS);
      g_autoptr(TerrainImage) y = decode_tile (compact, s, TERRAIN_ATLAS_TEXTURE_DDS);

      g_assert_cmpmem (terrain_image_get_data (x, NULL), TILE * TILE * 4,
                       terrain_image_get_data (y, NULL), TILE * TILE * 4);
    }

  /* And back to PNG: the DDS pixels exactly (PNG is lossless). */
  g_assert_true (terrain_atlas_file_convert_textures (compact, 1, TERRAIN_ATLAS_TEXTURE_PNG, 90,
                                                      TERRAIN_ATLAS_CHANNELS_RGB, &n, &error));
  g_assert_cmpuint (n, ==, 5);
  {
    g_autoptr(TerrainImage) x = decode_tile (reread, 3, TERRAIN_ATLAS_TEXTURE_DDS);
    g_autoptr(TerrainImage) y = decode_tile (compact, 3, TERRAIN_ATLAS_TEXTURE_PNG);

    g_assert_cmpmem (terrain_image_get_data (x, NULL), TILE * TILE * 4,
                     terrain_image_get_data (y, NULL), TILE * TILE * 4);
  }
}

static void
test_cli (void)
{
  g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-atlas-textures");
  g_autofree char *in = g_build_filename (dir, "in.atlas", NULL);
  g_autofree char *out = g_build_filename (dir, "out.atlas", NULL);
  g_autoptr(TerrainAtlasFile) atlas = build_textured ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainAtlasFile) result = NULL;

  bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (atlas), &error);
  g_assert_no_error (error);
  terrain_test_write_bytes (in, bytes);

  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "atlas", "convert-textures", in, "--texture-format", "jpeg",
                            "--quality", "80", "--compact", "-o", out, NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "5 tiles re-encoded as jpeg"));
  }
  g_clear_pointer (&bytes, g_bytes_unref);
  bytes = terrain_test_read_bytes (out);
  result = terrain_atlas_file_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  assert_clean (TERRAIN_DOCUMENT (result));
  g_assert_cmpint (describe_int (TERRAIN_DOCUMENT (result), "history_frames"), ==, 0);
  g_clear_pointer (&bytes, g_bytes_unref);
  g_clear_object (&result);

  /* In place, keeping history. */
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "atlas", "convert-textures", in, "--texture-format", "dds", NULL);

    g_assert_cmpint (r.status, ==, 0);
  }
  bytes = terrain_test_read_bytes (in);
  result = terrain_atlas_file_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (describe_int (TERRAIN_DOCUMENT (result), "history_frames"), ==, 5);

  /* Four copies merged: one texture TOC a level deeper, DDS root and all. */
  {
    g_autofree char *merged = g_build_filename (dir, "merged.atlas", NULL);
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "atlas", "merge-textures", in, in, in, in, "-o", merged, NULL);
    g_autoptr(GBytes) merged_bytes = NULL;
    g_autoptr(TerrainAtlasFile) m = NULL;

    g_assert_cmpint (r.status, ==, 0);
    merged_bytes = terrain_test_read_bytes (merged);
    m = terrain_atlas_file_new_from_bytes (merged_bytes, NULL, &error);
    g_assert_no_error (error);
    assert_clean (TERRAIN_DOCUMENT (m));
    g_assert_cmpuint (terrain_atlas_toc_get_tree_depth (terrain_atlas_file_get_toc (m, 0)), ==, 3);
    g_clear_object (&m);
  }
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "atlas", "merge-textures", in, in, in, "-o", out, NULL);

    g_assert_cmpint (r.status, ==, 64);
  }

  /* Usage errors. */
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "atlas", "convert-textures", in, NULL);

    g_assert_cmpint (r.status, ==, 64);
  }
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "atlas", "convert-textures", in, "--texture-format", "gif", NULL);

    g_assert_cmpint (r.status, ==, 64);
  }
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "atlas", "convert-textures", in, "--texture-format", "png",
                            "--toc", "0", NULL);

    g_assert_cmpint (r.status, ==, 64);
  }

  terrain_test_remove_tree (dir);
}

/* Four one-colour quadrants: the leaves keep their bytes one level down,
 * and the root shows each colour in its corner of the map. */
static void
test_merge (void)
{
  static const guint8 colours[4][3] = {
    { 255, 0, 0 }, { 0, 255, 0 }, { 0, 0, 255 }, { 255, 255, 255 },
  };
  /* Where each quadrant's level-0 tile lands at level 1: x grows west, y
   * north. */
  static const guint32 at[4][2] = { { 1, 1 }, { 0, 1 }, { 1, 0 }, { 0, 0 } };
  TerrainAtlasFile *q[4];
  g_autoptr(TerrainAtlasFile) merged = NULL;
  g_autoptr(TerrainAtlasFile) reread = NULL;
  g_autoptr(TerrainAtlasFile) shallow = NULL;
  g_autoptr(TerrainImage) root = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  TerrainAtlasToc *toc;
  const guint8 *p;
  gsize stride;

  for (guint i = 0; i < 4; i++)
    q[i] = build_textured_colour (colours[i]);

  merged = terrain_atlas_file_new_merged_textures (q[0], q[1], q[2], q[3], 90, &error);
  g_assert_no_error (error);
  bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (merged), &error);
  g_assert_no_error (error);
  reread = terrain_atlas_file_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  assert_clean (TERRAIN_DOCUMENT (reread));
  g_assert_cmpuint (terrain_atlas_file_get_n_tocs (reread), ==, 1);
  toc = terrain_atlas_file_get_toc (reread, 0);
  g_assert_cmpuint (terrain_atlas_toc_get_tree_depth (toc), ==, 3);
  g_assert_cmpuint (terrain_atlas_toc_get_n_stubs (toc), ==, 21);

  for (guint i = 0; i < 4; i++)
    for (guint level = 0; level < 2; level++)
      for (guint32 x = 0; x < (1u << level); x++)
        for (guint32 y = 0; y < (1u << level); y++)
          {
            TerrainAtlasToc *from = terrain_atlas_file_get_toc (q[i], 1);
            gint64 a = terrain_atlas_toc_find_stub (from, level, x, y);
            gint64 b = terrain_atlas_toc_find_stub (toc, level + 1, x + (at[i][0] << level),
                                                    y + (at[i][1] << level));
            g_autoptr(GBytes) old = terrain_atlas_file_get_chunk_body (q[i], 1, (guint) a, &error);
            g_autoptr(GBytes) new = terrain_atlas_file_get_chunk_body (reread, 0, (guint) b, &error);

            g_assert_no_error (error);
            terrain_test_assert_bytes_equal (old, new);
          }

  /* Map pixel (c, r) of the root is tile pixel (N − 1 − r, N − 1 − c). */
  root = decode_toc_tile (reread, 0, 0, TERRAIN_ATLAS_TEXTURE_PNG);
  g_assert_cmpuint (terrain_image_get_width (root), ==, TILE);
  p = terrain_image_get_data (root, NULL);
  stride = terrain_image_get_stride (root);
  g_assert_cmpmem (p + (gsize) (TILE - 1) * stride + (TILE - 1) * 4, 3, colours[0], 3);   /* NW */
  g_assert_cmpmem (p + (gsize) 0 * stride + (TILE - 1) * 4, 3, colours[1], 3);            /* NE */
  g_assert_cmpmem (p + (gsize) (TILE - 1) * stride + 0 * 4, 3, colours[2], 3);            /* SW */
  g_assert_cmpmem (p, 3, colours[3], 3);                                                  /* SE */

  /* Trees of different depths do not merge. */
  {
    g_autoptr(TerrainHeightfield) field = terrain_heightfield_new (33, 33, 1.0, &error);
    g_autoptr(TerrainImage) picture = terrain_image_new (TERRAIN_IMAGE_RGBA8, 64, 64, &error);
    g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
    g_autoptr(TerrainAtlasFile) none = NULL;

    memset (terrain_image_get_data (picture, NULL), 200, 64 * 64 * 4);
    terrain_atlas_builder_set_tree_depth (builder, 1);
    terrain_atlas_builder_set_texture_image (builder, picture);
    terrain_atlas_builder_set_texture_format (builder, TERRAIN_ATLAS_TEXTURE_PNG, 90);
    terrain_atlas_builder_set_tile_size (builder, TILE);
    shallow = terrain_atlas_builder_build (builder, NULL, &error);
    g_assert_no_error (error);
    none = terrain_atlas_file_new_merged_textures (q[0], q[1], shallow, q[3], 90, &error);
    g_assert_null (none);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    g_assert_nonnull (strstr (error->message, "south-west"));
  }

  for (guint i = 0; i < 4; i++)
    g_object_unref (q[i]);
}

/* A TQT of depth 2 with DDS tiles, TGEA's version 2: tile (level, x, y)
 * one colour, (base + 40 level, 10 x, 10 y), so every tile's bytes differ.
 * Entry nodeID(level, y, x) holds logical node (level, x, y) (§9c). */
static TerrainTqtFile *
make_tqt (guint8 base)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  guint8 word[4];
  TerrainTqtFile *tqt;

  g_byte_array_append (a, (const guint8 *) "tqt\0", 4);
  for (guint i = 0; i < 3; i++)
    {
      guint32 v = i == 0 ? 2 : i == 1 ? 2 : TILE;

      word[0] = v & 0xFF; word[1] = (v >> 8) & 0xFF; word[2] = word[3] = 0;
      g_byte_array_append (a, word, 4);
    }
  g_byte_array_set_size (a, 16 + 4 * 5);
  for (guint level = 0; level < 2; level++)
    for (guint x = 0; x < (1u << level); x++)
      for (guint y = 0; y < (1u << level); y++)
        {
          g_autoptr(TerrainImage) image = terrain_image_new (TERRAIN_IMAGE_RGBA8, TILE, TILE, &error);
          g_autoptr(TerrainAtlasTexture) texture = NULL;
          guint8 *p = terrain_image_get_data (image, NULL);
          guint entry = level == 0 ? 0 : 1 + 2 * y + x;
          gsize size;
          const guint8 *data;

          for (guint i = 0; i < TILE * TILE; i++)
            {
              p[4 * i] = (guint8) (base + 40 * level);
              p[4 * i + 1] = (guint8) (10 * x);
              p[4 * i + 2] = (guint8) (10 * y);
              p[4 * i + 3] = 255;
            }
          texture = terrain_atlas_texture_new_from_image (image, TERRAIN_ATLAS_TEXTURE_DDS, 90,
                                                          TERRAIN_ATLAS_CHANNELS_RGB, &error);
          g_assert_no_error (error);
          data = g_bytes_get_data (terrain_atlas_texture_get_data (texture), &size);
          a->data[16 + 4 * entry] = a->len & 0xFF;
          a->data[16 + 4 * entry + 1] = (a->len >> 8) & 0xFF;
          a->data[16 + 4 * entry + 2] = (a->len >> 16) & 0xFF;
          a->data[16 + 4 * entry + 3] = 0;
          word[0] = size & 0xFF; word[1] = (size >> 8) & 0xFF; word[2] = (size >> 16) & 0xFF; word[3] = 0;
          g_byte_array_append (a, word, 4);
          g_byte_array_append (a, data, (guint) size);
        }
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&a));
  tqt = terrain_tqt_file_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  return tqt;
}

static void
test_merge_tqt (void)
{
  static const guint32 at[4][2] = { { 1, 1 }, { 0, 1 }, { 1, 0 }, { 0, 0 } };
  TerrainTqtFile *q[4];
  g_autoptr(TerrainTqtFile) merged = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  gboolean any;

  for (guint i = 0; i < 4; i++)
    q[i] = make_tqt ((guint8) (50 * i));
  merged = terrain_tqt_file_new_merged (q[0], q[1], q[2], q[3], 90, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_tqt_file_get_tree_depth (merged), ==, 3);
  g_assert_cmpuint (terrain_tqt_file_get_n_tiles (merged), ==, 21);
  g_assert_cmpint (terrain_tqt_file_get_encoding (merged), ==, TERRAIN_TQT_ENCODING_DDS);
  issues = terrain_document_validate (TERRAIN_DOCUMENT (merged));
  g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_INFO);

  for (guint i = 0; i < 4; i++)
    for (guint level = 0; level < 2; level++)
      for (guint x = 0; x < (1u << level); x++)
        for (guint y = 0; y < (1u << level); y++)
          {
            g_autoptr(GBytes) old =
              terrain_tqt_file_get_tile_bytes (q[i], (guint) terrain_tqt_file_lookup_node (q[i], level, x, y));
            g_autoptr(GBytes) new =
              terrain_tqt_file_get_tile_bytes (merged, (guint) terrain_tqt_file_lookup_node (
                merged, level + 1, x + (at[i][0] << level), y + (at[i][1] << level)));

            terrain_test_assert_bytes_equal (old, new);
          }

  /* A quality out of range. */
  {
    g_autoptr(TerrainTqtFile) none = terrain_tqt_file_new_merged (q[0], q[1], q[2], q[3], 0, &error);

    g_assert_null (none);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  }
  /* On the command line: four .tqt in, a .tqt out; mixed inputs refused. */
  {
    g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-merge-tqt");
    char *paths[4] = { NULL };
    g_autofree char *out = g_build_filename (dir, "merged.tqt", NULL);
    g_autofree char *atlas_path = g_build_filename (dir, "a.atlas", NULL);
    g_autoptr(TerrainAtlasFile) atlas = build_textured ();
    g_autoptr(GBytes) atlas_bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (atlas), NULL);
    g_autoptr(GBytes) written = NULL;
    g_autoptr(GBytes) expected = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (merged), NULL);

    for (guint i = 0; i < 4; i++)
      {
        g_autoptr(GBytes) bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (q[i]), NULL);
        g_autofree char *name = g_strdup_printf ("q%u.tqt", i);

        paths[i] = g_build_filename (dir, name, NULL);
        terrain_test_write_bytes (paths[i], bytes);
      }
    terrain_test_write_bytes (atlas_path, atlas_bytes);
    {
      g_auto(TerrainTestCliResult) r =
        terrain_test_run_cli (NULL, "atlas", "merge-textures", paths[0], paths[1], paths[2],
                              paths[3], "-o", out, NULL);

      g_assert_cmpint (r.status, ==, 0);
    }
    written = terrain_test_read_bytes (out);
    terrain_test_assert_bytes_equal (expected, written);
    {
      g_auto(TerrainTestCliResult) r =
        terrain_test_run_cli (NULL, "atlas", "merge-textures", paths[0], paths[1], paths[2],
                              atlas_path, "-o", out, NULL);

      g_assert_cmpint (r.status, ==, 64);
    }
    for (guint i = 0; i < 4; i++)
      g_free (paths[i]);
    terrain_test_remove_tree (dir);
  }

  for (guint i = 0; i < 4; i++)
    g_object_unref (q[i]);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/AtlasTextures/convert", test_convert);
  g_test_add_func ("/Terrain/AtlasTextures/cli", test_cli);
  g_test_add_func ("/Terrain/AtlasTextures/merge", test_merge);
  g_test_add_func ("/Terrain/AtlasTextures/merge-tqt", test_merge_tqt);

  return g_test_run ();
}
