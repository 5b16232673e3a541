/* test-insomniac-chunk.c: TNLChunk framing, round trips, edits, invariants and errors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * No public sample exists, so every chunk is made by libterrain's own
 * encoders (test-insomniac-fixture.c), and each invariant
 * insomniac-terrain.md states is checked on them.
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "libterrain.h"
#include "terrain-test-util.h"
#include "core/terrain-reader-private.h"
#include "insomniac/terrain-cabac-private.h"
#include "insomniac/terrain-hilbert-private.h"
#include "insomniac/terrain-node-codec-private.h"

#define S TERRAIN_NODE_SIDE

#include "test-insomniac-fixture.h"

/* Chunks ----------------------------------------------------------------- */

static void
test_chunk_framing (void)
{
  for (guint leaf = 0; leaf < 2; leaf++)
    {
      g_autoptr(TerrainNodeChunk) fresh = terrain_node_chunk_new (leaf);
      g_autoptr(GBytes) bytes = save (fresh);
      g_autoptr(TerrainNodeChunk) chunk = load_chunk (bytes);
      g_autoptr(GBytes) again = NULL;
      g_autoptr(GPtrArray) issues = NULL;
      const guint8 *data;
      gsize size, offset = 9, block_offset, block_size;
      float lo, hi;

      data = g_bytes_get_data (bytes, &size);
      /* byte 1, body length minus 5, 0xFEED, tag */
      g_assert_cmpuint (data[0], ==, 1);
      g_assert_cmpuint (terrain_get_le32 (data + 1), ==, size - 5);
      g_assert_cmpuint (terrain_get_le16 (data + 5), ==, 0xfeed);
      g_assert_cmpuint (terrain_get_le16 (data + 7), ==, leaf ? 0x9c14 : 0x1c14);
      g_assert_cmpuint (terrain_node_chunk_get_tag (chunk), ==, leaf ? 0x9c14 : 0x1c14);
      g_assert_cmpuint (terrain_node_chunk_is_leaf (chunk), ==, leaf);
      g_assert_cmpuint (terrain_node_chunk_get_n_blocks (chunk), ==, leaf ? 10 : 9);
      g_assert_cmpint (terrain_node_chunk_get_level (chunk), ==, leaf ? 8 : -1);

      /* Nine length-prefixed blocks, bounds, mask, then the leaf's tenth. */
      for (guint b = 0; b < 9; b++)
        {
          g_assert_true (terrain_node_chunk_get_block_span (chunk, b, &block_offset, &block_size));
          g_assert_cmpuint (block_offset, ==, offset + 4);
          g_assert_cmpuint (terrain_get_le32 (data + offset), ==, block_size);
          offset += 4 + block_size;
        }
      terrain_node_chunk_get_height_bounds (chunk, &lo, &hi);
      g_assert_cmpfloat (lo, ==, 0.0f);
      g_assert_cmpfloat (hi, ==, 0.0f);
      offset += 8;
      g_assert_cmpmem (data + offset, 32, terrain_node_chunk_get_material_mask (chunk), 32);
      g_assert_cmpuint (data[offset], ==, 1);   /* material 0 */
      offset += 32;
      if (leaf)
        {
          g_assert_true (terrain_node_chunk_get_block_span (chunk, TERRAIN_NODE_BLOCK_SNOW,
                                                            &block_offset, &block_size));
          g_assert_cmpuint (block_offset, ==, offset + 4);
          offset += 4 + block_size;
        }
      else
        {
          g_assert_false (terrain_node_chunk_get_block_span (chunk, TERRAIN_NODE_BLOCK_SNOW,
                                                             NULL, NULL));
        }
      g_assert_cmpuint (offset, ==, size);

      /* Defaults decode; an unedited chunk writes back byte for byte. */
      g_assert_cmpuint (terrain_node_chunk_get_raster (chunk, TERRAIN_NODE_BLOCK_GRASS_WEIGHT,
                                                       NULL)[100], ==, 0x60);
      g_assert_cmpuint (terrain_node_chunk_get_raster (chunk, TERRAIN_NODE_BLOCK_GRASS_GROUP,
                                                       NULL)[100], ==, 0xfe);
      again = save (chunk);
      terrain_test_assert_bytes_equal (again, bytes);

      issues = terrain_document_validate (TERRAIN_DOCUMENT (chunk));
      g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_ERROR), ==, 0);
      g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING), ==, 0);
    }
}

static void
test_chunk_roundtrip (void)
{
  g_autoptr(GBytes) bytes = make_chunk_bytes (TRUE, 8, 0, 0);
  g_autoptr(TerrainNodeChunk) chunk = load_chunk (bytes);
  g_autoptr(GBytes) again = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(TerrainImage) colour = NULL;
  g_autofree gint32 *expected = g_new (gint32, TERRAIN_NODE_SAMPLES);
  const gint32 *heights;
  const guint8 *mask;
  double scale = terrain_node_height_scale (8), metres;
  float lo, hi;
  gint32 min = G_MAXINT32, max = G_MININT32;

  fill_heights (expected, 0, 0, 1);
  heights = terrain_node_chunk_get_heights (chunk, NULL);
  g_assert_nonnull (heights);
  g_assert_cmpmem (heights, TERRAIN_NODE_SAMPLES * 4, expected, TERRAIN_NODE_SAMPLES * 4);

  /* Height bounds: decoded x 5000 x 2^(8 - L - 20) over the samples. */
  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    {
      min = MIN (min, expected[i]);
      max = MAX (max, expected[i]);
    }
  terrain_node_chunk_get_height_bounds (chunk, &lo, &hi);
  g_assert_cmpfloat_with_epsilon (lo, min * scale, 1e-3);
  g_assert_cmpfloat_with_epsilon (hi, max * scale, 1e-3);
  g_assert_cmpfloat (scale, ==, 5000.0 / 4096.0 / 256.0);
  g_assert_true (terrain_node_chunk_get_world_height (chunk, 10, 20, &metres, NULL));
  g_assert_cmpfloat (metres, ==, expected[20 * S + 10] * scale);

  /* Material mask = the materials present: 0, 11, 22, 33, 44. */
  mask = terrain_node_chunk_get_material_mask (chunk);
  for (guint m = 0; m < 256; m++)
    g_assert_cmpuint ((mask[m / 8] >> (m % 8)) & 1, ==, m % 11 == 0 && m <= 44);

  colour = terrain_node_chunk_render_texture (chunk, TERRAIN_NODE_BLOCK_COLOUR, NULL);
  g_assert_nonnull (colour);
  g_assert_cmpuint (terrain_image_get_width (colour), ==, S);
  {
    const guint8 *px = terrain_image_get_data (colour, NULL) + 4 * (50 * S + 40);

    g_assert_cmpint (ABS (px[0] - 80), <=, 8);
    g_assert_cmpint (ABS (px[1] - 100), <=, 8);
  }

  g_assert_cmpint (terrain_node_chunk_get_snow_depth (chunk, NULL)[70 * S + 100], ==, 255 + 70);

  again = save (chunk);
  terrain_test_assert_bytes_equal (again, bytes);

  issues = terrain_document_validate (TERRAIN_DOCUMENT (chunk));
  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_ERROR), ==, 0);
  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING), ==, 0);

  /* Through the document API and format table. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainDocument) doc = terrain_document_load_bytes (bytes, "x.tnlc",
                                                                  TERRAIN_FORMAT_UNKNOWN, NULL,
                                                                  &error);
    g_autoptr(TerrainImage) grey = NULL;
    gint32 offset;

    g_assert_no_error (error);
    g_assert_true (TERRAIN_IS_NODE_CHUNK (doc));
    g_assert_cmpint (terrain_document_get_format (doc), ==, TERRAIN_FORMAT_NODE_CHUNK);
    grey = terrain_node_chunk_export_heights (TERRAIN_NODE_CHUNK (doc), &offset, &error);
    g_assert_no_error (error);
    g_assert_cmpint (offset, ==, min);
    g_assert_cmpuint (((guint16 *) terrain_image_get_data (grey, NULL))[5], ==,
                      (guint16) (expected[5] - min));
  }
}

static void
count_signal (TerrainNodeChunk *chunk,
              guint             block,
              guint            *count)
{
  (*count)++;
}

static void
test_chunk_edit (void)
{
  g_autoptr(GBytes) bytes = make_chunk_bytes (FALSE, 5, 0, 0);
  g_autoptr(TerrainNodeChunk) chunk = NULL;
  g_autoptr(TerrainNodeChunk) reread = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) tailed = NULL;
  g_autofree gint32 *heights = g_new (gint32, TERRAIN_NODE_SAMPLES);
  g_autofree guint8 *materials = g_new (guint8, TERRAIN_NODE_SAMPLES);
  static const guint8 tail[8] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4 };
  gsize offset, size, offset2, size2;
  const guint8 *data, *data2;
  float lo, hi;
  guint changed = 0, signals = 0;

  /* Give block 0 and block 2 distinctive unconsumed B tails. */
  {
    g_autoptr(TerrainNodeChunk) probe = load_chunk (bytes);

    g_assert_true (terrain_node_chunk_get_block_span (probe, TERRAIN_NODE_BLOCK_HEIGHTS,
                                                      &offset, &size));
    g_assert_true (terrain_node_chunk_get_block_span (probe, TERRAIN_NODE_BLOCK_MATERIAL,
                                                      &offset2, &size2));
    {
      g_autoptr(GBytes) step = bytes_patched (bytes, offset + size - 8, tail, 8);
      tailed = bytes_patched (step, offset2 + size2 - 8, tail, 8);
    }
  }

  chunk = load_chunk (tailed);
  g_assert_cmpint (terrain_node_chunk_get_level (chunk), ==, -1);
  g_assert_cmpint (terrain_node_chunk_guess_level (chunk, NULL), ==, 5);

  /* Without a level, heights cannot be set (the bounds depend on it). */
  fill_heights (heights, 500, 300, 2);
  {
    g_autoptr(GError) error = NULL;

    g_assert_false (terrain_node_chunk_set_heights (chunk, heights, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  }
  terrain_node_chunk_set_level (chunk, 5);

  g_signal_connect (chunk, "block-changed", G_CALLBACK (count_signal), &signals);
  g_assert_true (terrain_node_chunk_set_heights (chunk, heights, NULL));
  memcpy (materials, terrain_node_chunk_get_raster (chunk, TERRAIN_NODE_BLOCK_MATERIAL, NULL),
          TERRAIN_NODE_SAMPLES);
  for (guint i = 0; i < 500; i++)
    materials[i * 13] = 200;
  g_assert_true (terrain_node_chunk_set_raster (chunk, TERRAIN_NODE_BLOCK_MATERIAL, materials,
                                                NULL));
  g_assert_true (terrain_document_get_modified (TERRAIN_DOCUMENT (chunk)));
  g_assert_cmpuint (signals, ==, 2);

  edited = save (chunk);
  reread = load_chunk (edited);
  terrain_node_chunk_set_level (reread, 5);

  /* The edits decode back. */
  g_assert_cmpmem (terrain_node_chunk_get_heights (reread, NULL), TERRAIN_NODE_SAMPLES * 4,
                   heights, TERRAIN_NODE_SAMPLES * 4);
  g_assert_cmpmem (terrain_node_chunk_get_raster (reread, TERRAIN_NODE_BLOCK_MATERIAL, NULL),
                   TERRAIN_NODE_SAMPLES, materials, TERRAIN_NODE_SAMPLES);

  /* Bounds and mask follow the edits. */
  {
    gint32 min = G_MAXINT32, max = G_MININT32;
    double scale = terrain_node_height_scale (5);

    for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
      {
        min = MIN (min, heights[i]);
        max = MAX (max, heights[i]);
      }
    terrain_node_chunk_get_height_bounds (reread, &lo, &hi);
    g_assert_cmpfloat (lo, ==, (float) (min * scale));
    g_assert_cmpfloat (hi, ==, (float) (max * scale));
    g_assert_cmpuint (terrain_node_chunk_get_material_mask (reread)[200 / 8] >> (200 % 8) & 1,
                      ==, 1);
  }

  /* The re-encoded blocks keep their tails; the other blocks keep their
   * bytes. */
  for (guint b = 0; b < 9; b++)
    {
      gsize o1, s1, o2, s2;

      g_assert_true (terrain_node_chunk_get_block_span (chunk, b, &o1, &s1));
      g_assert_true (terrain_node_chunk_get_block_span (reread, b, &o2, &s2));
      data = (const guint8 *) g_bytes_get_data (tailed, NULL) + o1;
      data2 = (const guint8 *) g_bytes_get_data (edited, NULL) + o2;
      if (b == TERRAIN_NODE_BLOCK_HEIGHTS || b == TERRAIN_NODE_BLOCK_MATERIAL)
        {
          g_assert_cmpmem (data2 + s2 - 8, 8, tail, 8);
          changed++;
        }
      else
        {
          g_assert_cmpmem (data2, s2, data, s1);
        }
    }
  g_assert_cmpuint (changed, ==, 2);

  {
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (reread));

    g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING), ==, 0);
    g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_ERROR), ==, 0);
  }

  /* Snow belongs to leaves. */
  {
    g_autoptr(GError) error = NULL;

    g_assert_null (terrain_node_chunk_get_snow_depth (chunk, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
  }
}

/* Assembles a chunk from block contents, for framing and invariant tests. */
static GBytes *
assemble_chunk (guint16        tag,
                GBytes       **blocks,
                guint          n_blocks,
                const float    bounds[2],
                const guint8   mask[32])
{
  GByteArray *out = g_byte_array_new ();
  guint8 word[4];

  g_byte_array_append (out, (const guint8[]) { 1, 0, 0, 0, 0, 0xed, 0xfe }, 7);
  terrain_put_le16 (word, tag);
  g_byte_array_append (out, word, 2);
  for (guint b = 0; b < n_blocks; b++)
    {
      gsize size;
      const guint8 *data = g_bytes_get_data (blocks[b], &size);

      if (b == 9)
        {
          g_byte_array_append (out, (const guint8 *) bounds, 8);
          g_byte_array_append (out, mask, 32);
        }
      terrain_put_le32 (word, (guint32) size);
      g_byte_array_append (out, word, 4);
      g_byte_array_append (out, data, (guint) size);
    }
  if (n_blocks == 9)
    {
      g_byte_array_append (out, (const guint8 *) bounds, 8);
      g_byte_array_append (out, mask, 32);
    }
  terrain_put_le32 (out->data + 1, out->len - 5);
  return g_byte_array_free_to_bytes (out);
}

static void
test_chunk_invariants (void)
{
  g_autofree gint32 *heights = g_new (gint32, TERRAIN_NODE_SAMPLES);
  g_autofree guint8 *raster = g_new (guint8, TERRAIN_NODE_SAMPLES);
  g_autofree guint8 *texture = g_new0 (guint8, TERRAIN_NODE_TEXTURE_BYTES);
  GBytes *blocks[9];
  guint8 mask[32] = { 0 };
  double scale = terrain_node_height_scale (3);
  float bounds[2];
  gint32 min = G_MAXINT32, max = G_MININT32;

  fill_heights (heights, 0, 0, 9);
  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    {
      min = MIN (min, heights[i]);
      max = MAX (max, heights[i]);
      raster[i] = (guint8) (i % 3);
    }
  bounds[0] = (float) (min * scale);
  bounds[1] = (float) (max * scale);
  mask[0] = 0x07;

  blocks[0] = terrain_node_encode_heights (heights, (const guint8[8]) { 0 }, 8, NULL);
  blocks[1] = terrain_node_encode_texture (TERRAIN_BC_FORMAT_BC1, texture);
  blocks[8] = terrain_node_encode_texture (TERRAIN_BC_FORMAT_BC4, texture);
  for (guint b = 2; b < 8; b++)
    {
      g_autofree guint8 *constant = g_malloc (TERRAIN_NODE_SAMPLES);

      memset (constant, b == 4 ? 0x60 : 0, TERRAIN_NODE_SAMPLES);
      blocks[b] = terrain_node_encode_raster (b == 2 ? raster : constant, NULL, 0, 0,
                                              (const guint8[8]) { 0 }, 8);
    }

  /* Consistent: the level is found from the bounds; no warnings. */
  {
    g_autoptr(GBytes) bytes = assemble_chunk (0x1c14, blocks, 9, bounds, mask);
    g_autoptr(TerrainNodeChunk) chunk = load_chunk (bytes);
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (chunk));

    g_assert_cmpint (terrain_node_chunk_guess_level (chunk, NULL), ==, 3);
    g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING), ==, 0);
    g_assert_true (has_issue (issues, "fit level 3"));
  }

  /* Bounds at no level. */
  {
    float wrong[2] = { bounds[0], bounds[1] * 3 };
    g_autoptr(GBytes) bytes = assemble_chunk (0x1c14, blocks, 9, wrong, mask);
    g_autoptr(TerrainNodeChunk) chunk = load_chunk (bytes);
    g_autoptr(GPtrArray) issues = NULL;
    g_autoptr(GError) error = NULL;

    g_assert_cmpint (terrain_node_chunk_guess_level (chunk, &error), ==, -1);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    issues = terrain_document_validate (TERRAIN_DOCUMENT (chunk));
    g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING), ==, 1);

    /* With the level known the finding names the ranges. */
    terrain_node_chunk_set_level (chunk, 3);
    g_clear_pointer (&issues, g_ptr_array_unref);
    issues = terrain_document_validate (TERRAIN_DOCUMENT (chunk));
    g_assert_true (has_issue (issues, "disagree with the decoded heights at level 3"));
  }

  /* Mask naming an absent material, and missing a present one. */
  {
    guint8 wrong[32] = { 0x0b };   /* 0, 1, 3: no 2, extra 3 */
    g_autoptr(GBytes) bytes = assemble_chunk (0x1c14, blocks, 9, bounds, wrong);
    g_autoptr(TerrainNodeChunk) chunk = load_chunk (bytes);
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (chunk));

    g_assert_true (has_issue (issues, "material 3 is in the mask but not"));
    g_assert_true (has_issue (issues, "material 2 occurs in the material raster but not"));
  }

  /* Flags other than 0x1C00, a non-constant grass weight, B without its
   * unconsumed tail. */
  {
    GBytes *saved[3] = { blocks[0], blocks[4], NULL };
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(TerrainNodeChunk) chunk = NULL;
    g_autoptr(GPtrArray) issues = NULL;

    blocks[0] = bytes_slice (saved[0], 0, g_bytes_get_size (saved[0]) - 8);
    blocks[4] = terrain_node_encode_raster (raster, NULL, 0, 0, (const guint8[8]) { 0 }, 8);
    bytes = assemble_chunk (0x0c14, blocks, 9, bounds, mask);
    chunk = load_chunk (bytes);
    issues = terrain_document_validate (TERRAIN_DOCUMENT (chunk));
    g_assert_true (has_issue (issues, "flags 0x0C00"));
    g_assert_true (has_issue (issues, "differ from 0x60"));
    g_assert_true (has_issue (issues, "left over where 8 are expected"));
    g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_ERROR), ==, 0);

    g_bytes_unref (blocks[0]);
    g_bytes_unref (blocks[4]);
    blocks[0] = saved[0];
    blocks[4] = saved[1];
  }

  /* A block that does not decode: validation reports an error at it. */
  {
    GBytes *saved = blocks[3];
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(TerrainNodeChunk) chunk = NULL;
    g_autoptr(GPtrArray) issues = NULL;
    g_autoptr(GError) error = NULL;

    blocks[3] = g_bytes_new_static ("\x02\x00\x00\x00", 4);
    bytes = assemble_chunk (0x1c14, blocks, 9, bounds, mask);
    chunk = load_chunk (bytes);
    g_assert_null (terrain_node_chunk_get_raster (chunk, TERRAIN_NODE_BLOCK_REGION, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
    g_assert_nonnull (strstr (error->message, "block 3"));
    issues = terrain_document_validate (TERRAIN_DOCUMENT (chunk));
    g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_ERROR), ==, 1);
    g_bytes_unref (blocks[3]);
    blocks[3] = saved;
  }

  for (guint b = 0; b < 9; b++)
    g_bytes_unref (blocks[b]);
}

static void
test_chunk_errors (void)
{
  g_autoptr(GBytes) bytes = make_chunk_bytes (TRUE, 8, 0, 0);
  gsize size = g_bytes_get_size (bytes);

  /* Every cut: TRUNCATED. */
  for (gsize cut = 0; cut < size; cut += (cut < 200 ? 1 : 61))
    {
      g_autoptr(GBytes) part = bytes_slice (bytes, 0, cut);
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainNodeChunk) chunk = terrain_node_chunk_new_from_bytes (part, NULL, &error);

      g_assert_null (chunk);
      g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
    }

  {
    g_autoptr(GBytes) bad = bytes_patched (bytes, 5, (const guint8[]) { 0xee, 0xfe }, 2);
    g_autoptr(GError) error = NULL;

    g_assert_null (terrain_node_chunk_new_from_bytes (bad, NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC);
    g_assert_nonnull (strstr (error->message, "byte offset 5"));
  }
  {
    g_autoptr(GBytes) bad = bytes_patched (bytes, 7, (const guint8[]) { 0x15, 0x9c }, 2);
    g_autoptr(GError) error = NULL;

    g_assert_null (terrain_node_chunk_new_from_bytes (bad, NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNSUPPORTED_VERSION);
  }
  /* The leaf bit cleared: nine blocks end before the declared length. */
  {
    g_autoptr(GBytes) bad = bytes_patched (bytes, 7, (const guint8[]) { 0x14, 0x1c }, 2);
    g_autoptr(GError) error = NULL;

    g_assert_null (terrain_node_chunk_new_from_bytes (bad, NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  }
  /* A block length past the end. */
  {
    g_autoptr(GBytes) bad = bytes_patched (bytes, 9, (const guint8[]) { 0xff, 0xff, 0xff, 0x7f },
                                           4);
    g_autoptr(GError) error = NULL;

    g_assert_null (terrain_node_chunk_new_from_bytes (bad, NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (error->message, "byte offset 9"));
  }
  /* Trailing bytes after the declared end are kept. */
  {
    g_autoptr(GByteArray) longer = g_byte_array_new ();
    g_autoptr(GBytes) extra = NULL;
    g_autoptr(TerrainNodeChunk) chunk = NULL;
    g_autoptr(GBytes) again = NULL;

    g_byte_array_append (longer, g_bytes_get_data (bytes, NULL), (guint) size);
    g_byte_array_append (longer, (const guint8 *) "tail", 4);
    extra = g_bytes_new (longer->data, longer->len);
    chunk = load_chunk (extra);
    again = save (chunk);
    terrain_test_assert_bytes_equal (again, extra);
  }
}

static void
test_chunk_fuzz (void)
{
  g_autoptr(GBytes) bytes = make_chunk_bytes (TRUE, 8, 0, 0);
  g_autoptr(GRand) rand = g_rand_new_with_seed (2024);
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  guint loaded = 0;

  for (guint round = 0; round < 150; round++)
    {
      g_autofree guint8 *copy = g_memdup2 (data, size);
      g_autoptr(GBytes) mutated = NULL;
      g_autoptr(TerrainNodeChunk) chunk = NULL;
      g_autoptr(GError) error = NULL;
      guint flips = g_rand_int_range (rand, 1, 8);

      for (guint f = 0; f < flips; f++)
        copy[g_rand_int_range (rand, 0, (gint32) size)] ^= (guint8) g_rand_int_range (rand, 1, 256);
      mutated = g_bytes_new_take (g_steal_pointer (&copy), size);

      chunk = terrain_node_chunk_new_from_bytes (mutated, NULL, &error);
      if (chunk == NULL)
        {
          g_assert_true (error->domain == TERRAIN_ERROR);
          continue;
        }
      loaded++;
      {
        g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (chunk));
        g_autoptr(GBytes) again = save (chunk);
        g_autoptr(JsonNode) json = terrain_document_describe (TERRAIN_DOCUMENT (chunk));

        terrain_test_assert_bytes_equal (again, mutated);
        g_assert_nonnull (issues);
        g_assert_nonnull (json);
      }
    }
  g_assert_cmpuint (loaded, >, 0);
}

static GPtrArray *
validate_chunk (TerrainNodeChunk *chunk)
{
  return terrain_document_validate (TERRAIN_DOCUMENT (chunk));
}

static void
assert_same_issues (GPtrArray *a,
                    GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      TerrainIssue *x = g_ptr_array_index (a, i), *y = g_ptr_array_index (b, i);

      g_assert_cmpint (terrain_issue_get_severity (x), ==, terrain_issue_get_severity (y));
      g_assert_cmpint (terrain_issue_get_offset (x), ==, terrain_issue_get_offset (y));
      g_assert_cmpint (terrain_issue_get_record (x), ==, terrain_issue_get_record (y));
      g_assert_cmpstr (terrain_issue_get_message (x), ==, terrain_issue_get_message (y));
    }
}

/* Validation decodes blocks nobody asked for as streams, without keeping
 * their rasters; blocks already decoded it reads from memory. Both must find
 * the same, for intact and damaged blocks (flipped bits inside block
 * contents: decoding errors, out-of-range heights, bounds, masks, palettes)
 * and for a level that is known or not. */
static void
test_chunk_validate_streamed (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (1130);

  for (guint kind = 0; kind < 3; kind++)
    {
      g_autoptr(GBytes) bytes = make_chunk_bytes (kind != 1, 4, 0, 0);
      g_autoptr(TerrainNodeChunk) shape = NULL;
      gsize size;
      const guint8 *data;

      /* The third: grass weight and the zero block not constant. */
      if (kind == 2)
        {
          g_autoptr(TerrainNodeChunk) varied = load_chunk (bytes);
          guint8 raster[TERRAIN_NODE_SAMPLES];

          memset (raster, 0x60, sizeof raster);
          raster[9000] = raster[40] = raster[17000] = 0x61;
          g_assert_true (terrain_node_chunk_set_raster (varied, TERRAIN_NODE_BLOCK_GRASS_WEIGHT,
                                                        raster, NULL));
          memset (raster, 0, sizeof raster);
          raster[300] = raster[299] = 7;
          g_assert_true (terrain_node_chunk_set_raster (varied, TERRAIN_NODE_BLOCK_ZERO, raster,
                                                        NULL));
          g_bytes_unref (bytes);
          bytes = save (varied);
        }
      shape = load_chunk (bytes);
      data = g_bytes_get_data (bytes, &size);

      for (guint round = 0; round < 120; round++)
        {
          g_autofree guint8 *copy = g_memdup2 (data, size);
          g_autoptr(GBytes) mutated = NULL;
          g_autoptr(TerrainNodeChunk) chunk = NULL;
          g_autoptr(GPtrArray) streamed = NULL;
          g_autoptr(GPtrArray) unknown_streamed = NULL;
          g_autoptr(GPtrArray) decoded = NULL;
          g_autoptr(GPtrArray) unknown_decoded = NULL;
          guint flips = round == 0 ? 0 : (guint) g_rand_int_range (rand, 1, 4);
          gint level;

          for (guint f = 0; f < flips; f++)
            {
              guint n = terrain_node_chunk_get_n_blocks (shape);
              guint b = (guint) g_rand_int_range (rand, 0, (gint32) n);
              gsize offset, length;

              g_assert_true (terrain_node_chunk_get_block_span (shape, b, &offset, &length));
              if (length > 0)
                copy[offset + (gsize) g_rand_int_range (rand, 0, (gint32) length)] ^=
                  (guint8) (1u << g_rand_int_range (rand, 0, 8));
            }
          mutated = g_bytes_new_take (g_steal_pointer (&copy), size);
          chunk = load_chunk (mutated);
          level = terrain_node_chunk_get_level (chunk);

          streamed = validate_chunk (chunk);
          terrain_node_chunk_set_level (chunk, -1);
          unknown_streamed = validate_chunk (chunk);
          terrain_node_chunk_set_level (chunk, level);

          for (guint b = 0; b < terrain_node_chunk_get_n_blocks (chunk); b++)
            {
              g_autoptr(GError) ignored = NULL;

              if (b == TERRAIN_NODE_BLOCK_HEIGHTS)
                terrain_node_chunk_get_heights (chunk, &ignored);
              else if (b == TERRAIN_NODE_BLOCK_SNOW)
                terrain_node_chunk_get_snow_depth (chunk, &ignored);
              else if (b == TERRAIN_NODE_BLOCK_COLOUR || b == TERRAIN_NODE_BLOCK_OCCLUSION)
                terrain_node_chunk_get_texture_blocks (chunk, b, &ignored);
              else
                terrain_node_chunk_get_raster (chunk, b, &ignored);
            }
          decoded = validate_chunk (chunk);
          terrain_node_chunk_set_level (chunk, -1);
          unknown_decoded = validate_chunk (chunk);

          if (round == 0)
            {
              g_assert_cmpuint (count_issues (streamed, TERRAIN_SEVERITY_ERROR), ==, 0);
              g_assert_true (kind != 2 || has_issue (streamed, "first: sample 40, x=40"));
            }
          assert_same_issues (streamed, decoded);
          assert_same_issues (unknown_streamed, unknown_decoded);
        }
    }
}

static void
test_chunk_edges (void)
{
  /* Two level-8 neighbours cut from one field, 128 samples apart. */
  g_autoptr(GBytes) a_bytes = make_chunk_bytes (TRUE, 8, 0, 0);
  g_autoptr(GBytes) x_bytes = make_chunk_bytes (TRUE, 8, TERRAIN_NODE_CORE_SIDE, 0);
  g_autoptr(GBytes) y_bytes = make_chunk_bytes (TRUE, 8, 0, TERRAIN_NODE_CORE_SIDE);
  g_autoptr(TerrainNodeChunk) a = load_chunk (a_bytes);
  g_autoptr(TerrainNodeChunk) x = load_chunk (x_bytes);
  g_autoptr(TerrainNodeChunk) y = load_chunk (y_bytes);
  g_autofree gint32 *heights = g_new (gint32, TERRAIN_NODE_SAMPLES);
  guint mismatches = 99;

  g_assert_true (terrain_node_chunk_compare_edge (a, x, TERRAIN_NODE_EDGE_X, &mismatches, NULL));
  g_assert_cmpuint (mismatches, ==, 0);
  g_assert_true (terrain_node_chunk_compare_edge (a, y, TERRAIN_NODE_EDGE_Y, &mismatches, NULL));
  g_assert_cmpuint (mismatches, ==, 0);
  /* Not neighbours that way round. */
  g_assert_true (terrain_node_chunk_compare_edge (a, y, TERRAIN_NODE_EDGE_X, &mismatches, NULL));
  g_assert_cmpuint (mismatches, >, 0);

  memcpy (heights, terrain_node_chunk_get_heights (x, NULL), TERRAIN_NODE_SAMPLES * 4);
  heights[10 * S + 2] += 1;
  heights[11 * S + 0] += 1;
  g_assert_true (terrain_node_chunk_set_heights (x, heights, NULL));
  g_assert_true (terrain_node_chunk_compare_edge (a, x, TERRAIN_NODE_EDGE_X, &mismatches, NULL));
  g_assert_cmpuint (mismatches, ==, 2);

  /* The sample origin: (2, 2) is the node's corner; sample 130 its far
   * edge, where the neighbour's (2, 2) lies. */
  {
    double wx, wy, x0, y0, side, nx, ny;

    terrain_node_get_extent (8, 10, 20, &x0, &y0, &side);
    g_assert_cmpfloat (side, ==, 64.0);
    g_assert_cmpfloat (x0, ==, -8192.0 + 640.0);
    terrain_node_sample_position (8, 10, 20, 2, 2, &wx, &wy);
    g_assert_cmpfloat (wx, ==, x0);
    g_assert_cmpfloat (wy, ==, y0);
    terrain_node_sample_position (8, 10, 20, 130, 0, &wx, &wy);
    terrain_node_sample_position (8, 11, 20, 2, 0, &nx, &ny);
    g_assert_cmpfloat (wx, ==, nx);
    g_assert_cmpfloat (wy, ==, y0 - 1.0);
    terrain_node_get_extent (0, 0, 0, &x0, &y0, &side);
    g_assert_cmpfloat (side, ==, 16384.0);
    g_assert_cmpfloat (x0, ==, -8192.0);
  }
}

static void
test_chunk_describe (void)
{
  g_autoptr(GBytes) bytes = make_chunk_bytes (TRUE, 8, 0, 0);
  g_autoptr(TerrainNodeChunk) chunk = load_chunk (bytes);
  g_autoptr(JsonNode) json = terrain_document_describe (TERRAIN_DOCUMENT (chunk));
  JsonObject *object = json_node_get_object (json);
  JsonArray *blocks = json_object_get_array_member (object, "blocks");
  g_autofree char *header = NULL, *stream = NULL, *mask = NULL;
  gsize offset, size;

  g_assert_cmpstr (json_object_get_string_member (object, "format"), ==, "node-chunk");
  g_assert_true (json_object_get_boolean_member (object, "leaf"));
  g_assert_cmpint (json_object_get_int_member (object, "level"), ==, 8);
  g_assert_cmpuint (json_array_get_length (blocks), ==, 10);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "materials")),
                    ==, 5);
  g_assert_true (json_object_has_member (json_array_get_object_element (blocks, 0), "stream_a"));

  header = terrain_document_describe_offset (TERRAIN_DOCUMENT (chunk), 6);
  g_assert_cmpstr (header, ==, "TNLChunk header, magic");
  terrain_node_chunk_get_block_span (chunk, TERRAIN_NODE_BLOCK_REGION, &offset, &size);
  stream = terrain_document_describe_offset (TERRAIN_DOCUMENT (chunk), offset + size - 1);
  g_assert_nonnull (strstr (stream, "block 3"));
  g_assert_nonnull (strstr (stream, "unconsumed tail"));
  terrain_node_chunk_get_block_span (chunk, TERRAIN_NODE_BLOCK_OCCLUSION, &offset, &size);
  mask = terrain_document_describe_offset (TERRAIN_DOCUMENT (chunk), offset + size + 8);
  g_assert_nonnull (strstr (mask, "material mask"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/Insomniac/Chunk/framing", test_chunk_framing);
  g_test_add_func ("/Terrain/Insomniac/Chunk/roundtrip", test_chunk_roundtrip);
  g_test_add_func ("/Terrain/Insomniac/Chunk/edit", test_chunk_edit);
  g_test_add_func ("/Terrain/Insomniac/Chunk/invariants", test_chunk_invariants);
  g_test_add_func ("/Terrain/Insomniac/Chunk/errors", test_chunk_errors);
  g_test_add_func ("/Terrain/Insomniac/Chunk/fuzz", test_chunk_fuzz);
  g_test_add_func ("/Terrain/Insomniac/Chunk/validate-streamed", test_chunk_validate_streamed);
  g_test_add_func ("/Terrain/Insomniac/Chunk/edges", test_chunk_edges);
  g_test_add_func ("/Terrain/Insomniac/Chunk/describe", test_chunk_describe);

  return g_test_run ();
}
