/* test-insomniac-terrain.c: TerrainNodeLayer, FloorHeightData, format detection and the CLI
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * No public sample exists, so every fixture is made here by libterrain's own
 * encoders, and each invariant insomniac-terrain.md states is checked on
 * them. The coding primitives are in test-insomniac-codec.c, TNLChunk in
 * test-insomniac-chunk.c.
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

/* Layer ------------------------------------------------------------------ */

static void
test_layer_positions (void)
{
  guint level, column, row;

  for (guint l = 0; l <= 9; l++)
    g_assert_cmpuint (terrain_node_level_start (l), ==, ((1u << (2 * l)) - 1) / 3);
  g_assert_cmpuint (terrain_node_level_start (9), ==, TERRAIN_NODE_POSITIONS);

  g_assert_true (terrain_node_position_to_level (0, &level, &column, &row));
  g_assert_cmpuint (level, ==, 0);
  g_assert_true (terrain_node_position_to_level (5, &level, &column, &row));
  g_assert_cmpuint (level, ==, 2);   /* level 2 starts at 5 */
  g_assert_cmpuint (column, ==, 0);
  g_assert_true (terrain_node_position_to_level (5 + 4 * 2 + 3, &level, &column, &row));
  g_assert_cmpuint (column, ==, 3);
  g_assert_cmpuint (row, ==, 2);
  g_assert_true (terrain_node_position_to_level (TERRAIN_NODE_POSITIONS - 1, &level, &column,
                                                 &row));
  g_assert_cmpuint (level, ==, 8);
  g_assert_cmpuint (column, ==, 255);
  g_assert_cmpuint (row, ==, 255);
  g_assert_false (terrain_node_position_to_level (TERRAIN_NODE_POSITIONS, NULL, NULL, NULL));

  for (guint32 p = 0; p < TERRAIN_NODE_POSITIONS; p++)
    {
      g_assert_true (terrain_node_position_to_level (p, &level, &column, &row));
      g_assert_cmpuint (terrain_node_position_from_level (level, column, row), ==, p);
    }
}

static GBytes *
make_full_layer (void)
{
  g_autoptr(TerrainNodeLayer) layer = terrain_node_layer_new ();

  for (guint32 p = 0; p < TERRAIN_NODE_POSITIONS; p++)
    terrain_node_layer_append (layer, p, G_GUINT64_CONSTANT (0x1234000000000000) + p * 977);
  return save (layer);
}

static void
test_layer_roundtrip (void)
{
  g_autoptr(GBytes) bytes = make_full_layer ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainNodeLayer) layer = terrain_node_layer_new_from_bytes (bytes, NULL, &error);
  g_autoptr(GBytes) again = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(JsonNode) json = NULL;
  const guint8 *data, *data2;
  gsize size, size2, diffs = 0;

  g_assert_no_error (error);
  data = g_bytes_get_data (bytes, &size);
  /* byte 1, n, n x 25 bytes, n */
  g_assert_cmpuint (size, ==, 1 + 4 + 25 * TERRAIN_NODE_POSITIONS + 4);
  g_assert_cmpuint (data[0], ==, 1);
  g_assert_cmpuint (terrain_get_le32 (data + 1), ==, TERRAIN_NODE_POSITIONS);
  g_assert_cmpuint (terrain_get_le32 (data + size - 4), ==, TERRAIN_NODE_POSITIONS);
  g_assert_cmpuint (terrain_get_le32 (data + 5 + 25 * 7 + 12), ==, 7);

  g_assert_cmpuint (terrain_node_layer_get_n_nodes (layer), ==, TERRAIN_NODE_POSITIONS);
  g_assert_true (terrain_node_layer_is_complete (layer));
  g_assert_cmpint (terrain_node_layer_find (layer, 4242), ==, 4242);
  g_assert_cmpuint (terrain_node_layer_get_identity (layer, 4242), ==,
                    G_GUINT64_CONSTANT (0x1234000000000000) + 4242 * 977);
  g_assert_cmpint (terrain_node_layer_find (layer, TERRAIN_NODE_POSITIONS), ==, -1);

  issues = terrain_document_validate (TERRAIN_DOCUMENT (layer));
  g_assert_cmpuint (issues->len, ==, 0);
  json = terrain_document_describe (TERRAIN_DOCUMENT (layer));
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (
                     json_node_get_object (json), "nodes_per_level"), 8), ==, 65536);

  again = save (layer);
  terrain_test_assert_bytes_equal (again, bytes);

  /* Changing an identity changes those 8 bytes only. */
  terrain_node_layer_set_identity (layer, 100, 0xfedcba9876543210);
  edited = save (layer);
  data2 = g_bytes_get_data (edited, &size2);
  g_assert_cmpuint (size2, ==, size);
  for (gsize i = 0; i < size; i++)
    if (data[i] != data2[i])
      {
        g_assert_cmpuint (i, >=, 5 + 25 * 100 + 17);
        g_assert_cmpuint (i, <, 5 + 25 * 100 + 25);
        diffs++;
      }
  g_assert_cmpuint (diffs, ==, 8);
  g_assert_cmpuint (terrain_node_layer_get_identity (layer, 100), ==, 0xfedcba9876543210);

  {
    g_autofree char *where = terrain_document_describe_offset (TERRAIN_DOCUMENT (layer),
                                                               5 + 25 * 6 + 12);
    g_assert_cmpstr (where, ==, "TerrainNodeLayer item 6 (position 6: level 2, column 1, row 0), "
                                "quadtree position");
  }
}

static void
test_layer_errors (void)
{
  g_autoptr(TerrainNodeLayer) small = terrain_node_layer_new ();
  g_autoptr(GBytes) bytes = NULL;
  gsize size;

  terrain_node_layer_append (small, 0, 1);
  terrain_node_layer_append (small, 3, 2);
  terrain_node_layer_append (small, 3, 3);             /* repeated */
  terrain_node_layer_append (small, 999999, 4);        /* beyond the quadtree */
  bytes = save (small);
  size = g_bytes_get_size (bytes);

  for (gsize cut = 0; cut < size; cut++)
    {
      g_autoptr(GBytes) part = bytes_slice (bytes, 0, cut);
      g_autoptr(GError) error = NULL;

      g_assert_null (terrain_node_layer_new_from_bytes (part, NULL, &error));
      g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
    }

  {
    g_autoptr(GBytes) bad = bytes_patched (bytes, size - 4, (const guint8[]) { 5, 0, 0, 0 }, 4);
    g_autoptr(GError) error = NULL;

    g_assert_null (terrain_node_layer_new_from_bytes (bad, NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    g_assert_nonnull (strstr (error->message, "trailing count 5"));
  }
  {
    g_autoptr(GBytes) bad = bytes_patched (bytes, 1, (const guint8[]) { 0, 0, 0, 0x40 }, 4);
    g_autoptr(GError) error = NULL;

    g_assert_null (terrain_node_layer_new_from_bytes (bad, NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainNodeLayer) layer = terrain_node_layer_new_from_bytes (bytes, NULL, &error);
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (layer));

    g_assert_no_error (error);
    g_assert_true (has_issue (issues, "position 3 repeats item 1"));
    g_assert_true (has_issue (issues, "999999 lies beyond"));
    g_assert_true (has_issue (issues, "covers 2 of the 87381"));
    g_assert_false (terrain_node_layer_is_complete (layer));
    g_assert_cmpint (terrain_node_layer_find (layer, 3), ==, 1);
  }
}

/* FloorHeightData -------------------------------------------------------- */

static void
test_floor_block_codec (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  guint16 words[16], back[16], lo, hi;
  guint32 indices = 0;

  /* lo + (hi - lo) x index / 3, integer division; cell (r, c) at 2(4r + c). */
  for (guint i = 0; i < 16; i++)
    indices |= (guint32) (i % 4) << (2 * i);
  terrain_floor_block_decode (100, 400, indices, words);
  g_assert_cmpmem (words, 8, ((guint16[]) { 100, 200, 300, 400 }), 8);
  terrain_floor_block_decode (0, 10, indices, words);
  g_assert_cmpmem (words, 8, ((guint16[]) { 0, 3, 6, 10 }), 8);
  terrain_floor_block_decode (7, 7, 0xffffffff, words);
  g_assert_cmpuint (words[15], ==, 7);

  /* Decoded blocks re-encode exactly; lo <= hi always. */
  for (guint round = 0; round < 3000; round++)
    {
      guint16 a = (guint16) g_rand_int (rand), b = (guint16) g_rand_int (rand);
      guint32 ind = g_rand_int (rand);

      if (round % 3 == 0)
        b = (guint16) MIN (65535, a + g_rand_int_range (rand, 0, 12));
      if (round % 5 == 0)
        ind &= 0x55555555;   /* indices 0 and 1 only */
      if (round % 7 == 0)
        ind |= 0x55555555;   /* indices 1 and 3 only */
      terrain_floor_block_decode (MIN (a, b), MAX (a, b), ind, words);
      g_assert_cmpuint (terrain_floor_block_encode (words, &lo, &hi, &indices), ==, 0);
      g_assert_cmpuint (lo, <=, hi);
      terrain_floor_block_decode (lo, hi, indices, back);
      g_assert_cmpmem (back, sizeof back, words, sizeof words);
    }

  /* Arbitrary words: lo <= hi and the error is what the decoder gives. */
  for (guint round = 0; round < 500; round++)
    {
      guint64 error = 0, reported;
      guint16 base = (guint16) g_rand_int_range (rand, 0, 60000);

      for (guint i = 0; i < 16; i++)
        words[i] = (guint16) (base + g_rand_int_range (rand, 0, 3000));
      reported = terrain_floor_block_encode (words, &lo, &hi, &indices);
      g_assert_cmpuint (lo, <=, hi);
      terrain_floor_block_decode (lo, hi, indices, back);
      for (guint i = 0; i < 16; i++)
        error += (guint64) ((gint) back[i] - words[i]) * ((gint) back[i] - words[i]);
      g_assert_cmpuint (error, ==, reported);
      /* No worse than the plain range ends. */
      {
        guint16 mn = 65535, mx = 0;
        guint64 naive = 0;

        for (guint i = 0; i < 16; i++)
          {
            mn = MIN (mn, words[i]);
            mx = MAX (mx, words[i]);
          }
        for (guint i = 0; i < 16; i++)
          {
            guint64 best = G_MAXUINT64;

            for (guint k = 0; k < 4; k++)
              {
                gint64 d = (gint64) (mn + (mx - mn) * k / 3) - words[i];
                best = MIN (best, (guint64) (d * d));
              }
            naive += best;
          }
        g_assert_cmpuint (reported, <=, naive);
      }
    }
}

static TerrainFloorHeightData *
load_floor (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  TerrainFloorHeightData *floor_data = terrain_floor_height_data_new_from_bytes (bytes, NULL,
                                                                                 &error);

  g_assert_no_error (error);
  g_assert_nonnull (floor_data);
  return floor_data;
}

/* Words that 4x4 blocks hold exactly: one level per block plus 3 per column
 * inside the block (lo, lo + 3, lo + 6, lo + 9). */
static guint16
floor_word (guint cx,
            guint cy)
{
  return (guint16) (1000 + 40 * (cy / 4) + 7 * (cx / 4) + 3 * (cx % 4));
}

static void
test_floor_roundtrip (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainFloorHeightData) fresh = terrain_floor_height_data_new (64, 48, 2.0f, &error);
  g_autoptr(TerrainFloorHeightData) grid = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) again = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autofree guint16 *words = g_new (guint16, 64 * 48);
  g_autofree guint16 *back = g_new (guint16, 64 * 48);
  guint16 patch[5 * 3] = { 0 };
  const guint8 *data, *data2;
  gsize size;
  float x, y, z;

  g_assert_no_error (error);
  for (guint cy = 0; cy < 48; cy++)
    for (guint cx = 0; cx < 64; cx++)
      words[cy * 64 + cx] = floor_word (cx, cy);
  terrain_floor_height_data_set_region (fresh, 0, 0, 64, 48, words);
  bytes = save (fresh);

  data = g_bytes_get_data (bytes, &size);
  g_assert_cmpuint (size, ==, 9 + 8 * (16 * 12) + 51);
  g_assert_cmpuint (terrain_get_le32 (data), ==, 1);
  g_assert_cmpuint (terrain_get_le32 (data + size - 51 + 0x1c), ==, 64);
  g_assert_cmpuint (terrain_get_le32 (data + size - 51 + 0x20), ==, 48);
  g_assert_cmpuint (terrain_get_le32 (data + size - 51 + 4), ==, 0x3d7d7540);

  grid = load_floor (bytes);
  g_assert_cmpuint (terrain_floor_height_data_get_width (grid), ==, 64);
  g_assert_cmpuint (terrain_floor_height_data_get_height (grid), ==, 48);
  g_assert_cmpfloat (terrain_floor_height_data_get_cell_side (grid), ==, 2.0f);
  /* 0x3D7D7540, "0.0618794" as the spec rounds it. */
  g_assert_cmpfloat_with_epsilon (terrain_floor_height_data_get_height_scale (grid), 0.0618794,
                                  1e-8);
  terrain_floor_height_data_get_origin (grid, &x, &y, &z);
  g_assert_cmpfloat (x, ==, -64.0f);
  g_assert_cmpfloat (y, ==, -48.0f);
  g_assert_cmpfloat (z, ==, -3584.0f);

  terrain_floor_height_data_get_region (grid, 0, 0, 64, 48, back);
  g_assert_cmpmem (back, 64 * 48 * 2, words, 64 * 48 * 2);
  g_assert_cmpuint (terrain_floor_height_data_get_word (grid, 13, 29), ==, 1304);
  g_assert_cmpfloat (terrain_floor_height_data_get_world_height (grid, 13, 29), ==,
                     1304 * (double) terrain_floor_height_data_get_height_scale (grid));

  /* Blocks and cells are row-major with row along y. */
  {
    guint16 lo, hi;
    guint32 indices;

    terrain_floor_height_data_get_block (grid, 1, 2, &lo, &hi, &indices);
    g_assert_cmpuint (lo, ==, 1087);
    g_assert_cmpuint (hi, ==, 1096);
    g_assert_cmpuint (indices, ==, 0xe4e4e4e4);
    g_assert_cmpuint (terrain_get_le16 (data + 9 + 8 * (2 * 16 + 1)), ==, lo);
  }

  /* An odd sub-rectangle, read and written. */
  terrain_floor_height_data_get_region (grid, 7, 5, 5, 3, patch);
  g_assert_cmpuint (patch[0], ==, words[5 * 64 + 7]);
  g_assert_cmpuint (patch[14], ==, words[7 * 64 + 11]);

  again = save (grid);
  terrain_test_assert_bytes_equal (again, bytes);

  image = terrain_document_export_heights (TERRAIN_DOCUMENT (grid), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (((guint16 *) terrain_image_get_data (image, NULL))[29 * 64 + 13], ==, 1304);

  /* Editing (7..11, 5..7) re-encodes blocks (1..2, 1) only. */
  for (guint i = 0; i < G_N_ELEMENTS (patch); i++)
    patch[i] = (guint16) (5000 + i);
  terrain_floor_height_data_set_region (grid, 7, 5, 5, 3, patch);
  g_assert_true (terrain_document_get_modified (TERRAIN_DOCUMENT (grid)));
  edited = save (grid);
  data2 = g_bytes_get_data (edited, NULL);
  for (gsize i = 0; i < size; i++)
    if (data[i] != data2[i])
      {
        gsize block = (i - 9) / 8;

        g_assert_cmpuint (i, >=, 9);
        g_assert_true (block == 16 + 1 || block == 16 + 2);
      }

  {
    g_autoptr(TerrainFloorHeightData) reread = load_floor (edited);
    guint16 got[5 * 3];
    guint16 lo, hi;

    terrain_floor_height_data_get_region (reread, 7, 5, 5, 3, got);
    /* The edit is not representable exactly in blocks it shares with old
     * words, but stays close; untouched cells nearby stay close too. */
    for (guint i = 0; i < G_N_ELEMENTS (got); i++)
      g_assert_cmpint (ABS ((gint) got[i] - (gint) patch[i]), <, 2500);
    terrain_floor_height_data_get_block (reread, 1, 1, &lo, &hi, NULL);
    g_assert_cmpuint (lo, <=, hi);
    g_assert_cmpuint (terrain_floor_height_data_get_word (reread, 20, 5), ==, words[5 * 64 + 20]);
  }

  /* A whole-block edit is exact. */
  {
    guint16 block_words[16];

    for (guint i = 0; i < 16; i++)
      block_words[i] = (guint16) (i * 1000);
    terrain_floor_height_data_set_region (grid, 8, 8, 4, 4, block_words);
    terrain_floor_height_data_get_region (grid, 8, 8, 4, 4, back);
    for (guint i = 0; i < 16; i++)
      g_assert_cmpint (ABS ((gint) back[i] - (gint) block_words[i]), <=, 3000);
  }
}

static void
test_floor_empty (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainFloorHeightData) fresh = terrain_floor_height_data_new (0, 0, 0.0f, &error);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainFloorHeightData) grid = NULL;
  g_autoptr(GBytes) again = NULL;
  g_autoptr(GPtrArray) issues = NULL;

  g_assert_no_error (error);
  bytes = save (fresh);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 60);

  grid = load_floor (bytes);
  g_assert_true (terrain_floor_height_data_is_empty (grid));
  g_assert_cmpuint (terrain_floor_height_data_get_width (grid), ==, 0);
  g_assert_cmpfloat (terrain_floor_height_data_get_cell_side (grid), ==, 0.0f);
  again = save (grid);
  terrain_test_assert_bytes_equal (again, bytes);
  issues = terrain_document_validate (TERRAIN_DOCUMENT (grid));
  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING), ==, 0);

  g_assert_null (terrain_document_export_heights (TERRAIN_DOCUMENT (grid), &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);

  /* An empty body whose trailer still names dimensions is accepted. */
  {
    g_autoptr(GBytes) named = bytes_patched (bytes, 9 + 0x1c,
                                             (const guint8[]) { 0, 32, 0, 0, 0, 32, 0, 0 }, 8);
    g_autoptr(TerrainFloorHeightData) odd = load_floor (named);

    g_assert_true (terrain_floor_height_data_is_empty (odd));
    g_clear_pointer (&issues, g_ptr_array_unref);
    issues = terrain_document_validate (TERRAIN_DOCUMENT (odd));
    g_assert_true (has_issue (issues, "names 8192x8192 cells"));
  }

  g_assert_null (terrain_floor_height_data_new (6, 4, 2.0f, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
}

static void
test_floor_full_size (void)
{
  /* A whole 8192 x 8192 world: 4,194,304 blocks, made as bytes directly;
   * reading a region decodes only the blocks it touches. */
  gsize n_blocks = (gsize) 2048 * 2048;
  gsize size = 9 + 8 * n_blocks + 51;
  guint8 *data = g_malloc0 (size);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainFloorHeightData) grid = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  guint16 region[8 * 8];

  terrain_put_le32 (data, 1);
  terrain_put_le32 (data + 4, 0x40000000);   /* 2.0f */
  for (gsize b = 0; b < n_blocks; b++)
    {
      guint bx = (guint) (b % 2048), by = (guint) (b / 2048);

      terrain_put_le16 (data + 9 + 8 * b, (guint16) (bx * 16));
      terrain_put_le16 (data + 9 + 8 * b + 2, (guint16) (bx * 16 + 3 * by % 300));
      terrain_put_le32 (data + 9 + 8 * b + 4, 0xe4e4e4e4);   /* indices 0,1,2,3 per row */
    }
  terrain_put_le32 (data + size - 51 + 4, 0x3d7d7540);
  terrain_put_le32 (data + size - 51 + 0x1c, 8192);
  terrain_put_le32 (data + size - 51 + 0x20, 8192);
  bytes = g_bytes_new_take (data, size);

  grid = load_floor (bytes);
  g_assert_cmpuint (terrain_floor_height_data_get_width (grid), ==, 8192);
  g_assert_cmpuint (terrain_floor_height_data_get_height (grid), ==, 8192);

  terrain_floor_height_data_get_region (grid, 8188, 8188, 4, 4, region);
  {
    guint lo = 2047 * 16, hi = lo + 3 * 2047 % 300;

    g_assert_cmpuint (region[0], ==, lo);
    g_assert_cmpuint (region[3], ==, hi);
    g_assert_cmpuint (region[1], ==, lo + (hi - lo) / 3);
  }
  terrain_floor_height_data_get_region (grid, 4094, 2, 8, 8, region);
  g_assert_cmpuint (region[2], ==, 1024 * 16);   /* x = 4096: block 1024, index 0 */

  issues = terrain_document_validate (TERRAIN_DOCUMENT (grid));
  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING), ==, 0);
}

static void
test_floor_errors (void)
{
  g_autoptr(TerrainFloorHeightData) fresh = terrain_floor_height_data_new (16, 8, 2.0f, NULL);
  g_autoptr(GBytes) bytes = NULL;
  guint16 words[16 * 8];
  gsize size;

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    words[i] = (guint16) (i * 411 + 7);
  terrain_floor_height_data_set_region (fresh, 0, 0, 16, 8, words);
  bytes = save (fresh);
  size = g_bytes_get_size (bytes);

  /* Cuts: the body has no length field, so a cut body's "trailer" is made
   * of other bytes; the dimensions it names then need more bytes than there
   * are (truncated) or fewer, or are unusable (invalid). */
  for (gsize cut = 0; cut < size; cut++)
    {
      g_autoptr(GBytes) part = bytes_slice (bytes, 0, cut);
      g_autoptr(GError) error = NULL;

      g_assert_null (terrain_floor_height_data_new_from_bytes (part, NULL, &error));
      if (cut < 60)
        g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
      else
        g_assert_true (g_error_matches (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED) ||
                       g_error_matches (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE));
    }

  /* Dimensions that need more blocks than there are. */
  {
    g_autoptr(GBytes) bad = bytes_patched (bytes, size - 51 + 0x1c,
                                           (const guint8[]) { 32, 0, 0, 0 }, 4);
    g_autoptr(GError) error = NULL;

    g_assert_null (terrain_floor_height_data_new_from_bytes (bad, NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (error->message, "32x8"));
  }
  /* Fewer. */
  {
    g_autoptr(GBytes) bad = bytes_patched (bytes, size - 51 + 0x1c,
                                           (const guint8[]) { 8, 0, 0, 0 }, 4);
    g_autoptr(GError) error = NULL;

    g_assert_null (terrain_floor_height_data_new_from_bytes (bad, NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  }
  /* Not a multiple of 4 (15 x 8 still needs 4 x 2 blocks). */
  {
    g_autoptr(GBytes) bad = bytes_patched (bytes, size - 51 + 0x1c,
                                           (const guint8[]) { 15, 0, 0, 0 }, 4);
    g_autoptr(GError) error = NULL;

    g_assert_null (terrain_floor_height_data_new_from_bytes (bad, NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    g_assert_nonnull (strstr (error->message, "multiples of the 4-cell"));
  }
  /* Over the limit: a 16-cell-wide grid with a limit of 8 cells. */
  {
    g_autoptr(TerrainLimits) limits = terrain_limits_new ();
    g_autoptr(GError) error = NULL;

    limits->max_cells_per_side = 8;
    g_assert_null (terrain_floor_height_data_new_from_bytes (bytes, limits, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
  }
  /* lo > hi is a warning. */
  {
    g_autoptr(GBytes) bad = bytes_patched (bytes, 9 + 8 * 3, (const guint8[]) { 9, 0, 2, 0 }, 4);
    g_autoptr(TerrainFloorHeightData) grid = load_floor (bad);
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (grid));

    g_assert_true (has_issue (issues, "block 3 (cells x=12..15, y=0..3) has low endpoint 9 above"));
    g_assert_cmpuint (terrain_floor_height_data_get_word (grid, 12, 0), ==, 9);
  }
}

/* Formats ---------------------------------------------------------------- */

static void
test_formats (void)
{
  static const struct { const char *name; const char *ext; TerrainFormat format; } table[] = {
    { "floor-height", "x.fhd", TERRAIN_FORMAT_FLOOR_HEIGHT },
    { "node-layer", "x.TNL", TERRAIN_FORMAT_NODE_LAYER },
    { "node-chunk", "dir/x.tnlc", TERRAIN_FORMAT_NODE_CHUNK },
  };
  g_autoptr(TerrainNodeLayer) layer = terrain_node_layer_new ();
  g_autoptr(GBytes) layer_bytes = NULL;

  terrain_node_layer_append (layer, 0, 1);
  layer_bytes = save (layer);

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    {
      g_assert_cmpint (terrain_format_from_name (table[i].name), ==, table[i].format);
      g_assert_cmpstr (terrain_format_get_name (table[i].format), ==, table[i].name);
      g_assert_true (terrain_format_can_load (table[i].format));
      g_assert_cmpint (terrain_format_detect (NULL, table[i].ext), ==, table[i].format);
    }

  /* No magic: an unknown name is not guessed, but --format reads it. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainDocument) doc = NULL;

    g_assert_null (terrain_document_load_bytes (layer_bytes, "x.bin", TERRAIN_FORMAT_UNKNOWN,
                                                NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNKNOWN_FORMAT);
    g_clear_error (&error);
    doc = terrain_document_load_bytes (layer_bytes, "x.bin", TERRAIN_FORMAT_NODE_LAYER, NULL,
                                       &error);
    g_assert_no_error (error);
    g_assert_true (TERRAIN_IS_NODE_LAYER (doc));
  }
}

/* What the libFuzzer harness checks, on seeded random mutations of each
 * format: a load fails with a TERRAIN_ERROR or succeeds, and then validate,
 * describe and describe_offset (at every offset) work, the document writes
 * back byte for byte and describes the same when read again. */
static void
test_mutations (void)
{
  g_autoptr(TerrainFloorHeightData) grid = terrain_floor_height_data_new (16, 16, 2.0f, NULL);
  g_autoptr(TerrainNodeLayer) layer = terrain_node_layer_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (77);
  g_autoptr(TerrainLimits) limits = terrain_limits_new ();
  GBytes *seeds[3];
  const TerrainFormat formats[3] = {
    TERRAIN_FORMAT_FLOOR_HEIGHT, TERRAIN_FORMAT_NODE_LAYER, TERRAIN_FORMAT_NODE_CHUNK,
  };
  guint16 words[256];

  limits->max_allocation = 64 * 1024 * 1024;
  for (guint i = 0; i < 256; i++)
    words[i] = (guint16) (i * 97);
  terrain_floor_height_data_set_region (grid, 0, 0, 16, 16, words);
  for (guint p = 0; p < 40; p++)
    terrain_node_layer_append (layer, p * 7, p);
  seeds[0] = save (grid);
  seeds[1] = save (layer);
  seeds[2] = make_chunk_bytes (FALSE, 4, 0, 0);

  for (guint f = 0; f < 3; f++)
    for (guint round = 0; round < (f == 2 ? 60 : 300); round++)
      {
        gsize size;
        const guint8 *data = g_bytes_get_data (seeds[f], &size);
        g_autoptr(GByteArray) copy = g_byte_array_new ();
        g_autoptr(GBytes) mutated = NULL;
        g_autoptr(GError) error = NULL;
        g_autoptr(TerrainDocument) doc = NULL;
        guint kind = g_rand_int_range (rand, 0, 3);

        g_byte_array_append (copy, data, (guint) size);
        if (kind == 0 || copy->len < 8)
          for (guint n = g_rand_int_range (rand, 1, 6); n > 0; n--)
            copy->data[g_rand_int_range (rand, 0, (gint32) copy->len)] ^=
              (guint8) g_rand_int_range (rand, 1, 256);
        else if (kind == 1)
          g_byte_array_set_size (copy, g_rand_int_range (rand, 0, (gint32) copy->len));
        else
          for (guint n = g_rand_int_range (rand, 1, 20); n > 0; n--)
            {
              guint8 byte = (guint8) g_rand_int (rand);
              g_byte_array_append (copy, &byte, 1);
            }
        mutated = g_bytes_new (copy->data, copy->len);

        doc = terrain_document_load_bytes (mutated, NULL, formats[f], limits, &error);
        if (doc == NULL)
          {
            g_assert_nonnull (error);
            g_assert_true (error->domain == TERRAIN_ERROR);
            continue;
          }

        {
          g_autoptr(GPtrArray) issues = terrain_document_validate (doc);
          g_autoptr(JsonNode) first = terrain_document_describe (doc);
          g_autoptr(JsonNode) second = NULL;
          g_autoptr(GBytes) written = save (doc);
          g_autoptr(TerrainDocument) again = NULL;

          for (gsize o = 0; o <= copy->len; o += (f == 2 ? 7 : 1))
            g_free (terrain_document_describe_offset (doc, o));
          terrain_test_assert_bytes_equal (written, mutated);
          again = terrain_document_load_bytes (written, NULL, formats[f], limits, &error);
          g_assert_no_error (error);
          second = terrain_document_describe (again);
          g_assert_true (json_node_equal (first, second));
          g_assert_nonnull (issues);
        }
      }

  for (guint f = 0; f < 3; f++)
    g_bytes_unref (seeds[f]);
}

/* CLI -------------------------------------------------------------------- */

static TerrainImage *
read_png (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  g_autoptr(GBytes) bytes = NULL;
  TerrainImage *image;
  gsize size;

  g_file_get_contents (path, &data, &size, &error);
  g_assert_no_error (error);
  bytes = g_bytes_new_take (g_steal_pointer (&data), size);
  image = terrain_image_load_png_bytes (bytes, &error);
  g_assert_no_error (error);
  return image;
}

static void
test_cli (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("terrain-insomniac-XXXXXX", &error);
  g_autofree char *fhd = g_build_filename (dir, "world.fhd", NULL);
  g_autofree char *bin = g_build_filename (dir, "world.bin", NULL);
  g_autofree char *tnl = g_build_filename (dir, "layer.tnl", NULL);
  g_autofree char *tnlc = g_build_filename (dir, "00000000000000ab.tnlc", NULL);
  g_autofree char *png = g_build_filename (dir, "words.png", NULL);
  g_autofree char *node_dir = g_build_filename (dir, "node", NULL);
  g_autofree char *heights_png = g_build_filename (node_dir, "heights.png", NULL);
  g_autofree char *edited_png = g_build_filename (dir, "edited.png", NULL);
  g_autofree char *edited = g_build_filename (dir, "edited.tnlc", NULL);
  g_autoptr(TerrainFloorHeightData) grid = terrain_floor_height_data_new (64, 32, 2.0f, NULL);
  g_autoptr(TerrainNodeLayer) layer = terrain_node_layer_new ();
  g_autoptr(GBytes) chunk_bytes = make_chunk_bytes (TRUE, 8, 0, 0);
  g_autoptr(GBytes) grid_bytes = NULL;
  g_autoptr(GBytes) layer_bytes = NULL;
  guint16 words[64 * 32];

  if (g_getenv ("TERRAIN_CLI") == NULL)
    {
      g_test_skip ("TERRAIN_CLI is not set");
      return;
    }
  g_assert_no_error (error);

  for (guint cy = 0; cy < 32; cy++)
    for (guint cx = 0; cx < 64; cx++)
      words[cy * 64 + cx] = floor_word (cx, cy);
  terrain_floor_height_data_set_region (grid, 0, 0, 64, 32, words);
  grid_bytes = save (grid);
  terrain_test_write_bytes (fhd, grid_bytes);
  terrain_test_write_bytes (bin, grid_bytes);
  terrain_node_layer_append (layer, TERRAIN_NODE_POSITIONS - 1, 0xab);
  layer_bytes = save (layer);
  terrain_test_write_bytes (tnl, layer_bytes);
  terrain_test_write_bytes (tnlc, chunk_bytes);

  /* No magic: the extension decides, or --format, which the hint names. */
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "info", bin, NULL);

    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "--format"));
    g_assert_nonnull (strstr (r.err, "floor-height"));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "info", "--format",
                                                           "floor-height", bin, NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "floor-height"));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "roundtrip", fhd, tnl, tnlc, NULL);

    g_assert_cmpint (r.status, ==, 0);
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "validate", fhd, tnlc, NULL);

    g_assert_cmpint (r.status, ==, 0);
  }

  /* export-heights: the words, row 0 first. */
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "insomniac", "export-heights",
                                                           fhd, png, NULL);
    g_autoptr(TerrainImage) image = NULL;

    g_assert_cmpint (r.status, ==, 0);
    image = read_png (png);
    g_assert_cmpint (terrain_image_get_format (image), ==, TERRAIN_IMAGE_GRAY16);
    g_assert_cmpmem (terrain_image_get_data (image, NULL), sizeof words, words, sizeof words);
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "insomniac", "export-heights",
                                                           "--world", fhd, png, NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "metres = "));
  }

  /* export-node through the layer, then import-heights of an edit. */
  {
    static const char * const node_files[] = {
      "heights.png", "colour.png", "occlusion.png", "material.png", "region.png",
      "grass-weight.png", "grass-group.png", "zero.png", "t18.png", "snow.png",
    };
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "insomniac", "export-node", tnl,
                                                           "8/255/255", node_dir, NULL);
    g_autoptr(TerrainNodeChunk) chunk = load_chunk (chunk_bytes);
    g_autoptr(TerrainImage) image = NULL;
    g_autoptr(TerrainNodeChunk) reread = NULL;
    g_autoptr(GBytes) reread_bytes = NULL;
    g_autofree gint32 *expected = g_new (gint32, TERRAIN_NODE_SAMPLES);
    g_autofree char *offset_arg = NULL;
    const gint32 *heights = terrain_node_chunk_get_heights (chunk, NULL);
    guint16 *grey;
    gint32 offset;
    gsize size;
    char *data;

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "level 8, column 255, row 255"));
    for (guint i = 0; i < G_N_ELEMENTS (node_files); i++)
      {
        g_autofree char *path = g_build_filename (node_dir, node_files[i], NULL);
        g_autoptr(TerrainImage) written = read_png (path);

        g_assert_cmpuint (terrain_image_get_width (written), ==, S);
      }
    terrain_image_unref (terrain_node_chunk_export_heights (chunk, &offset, NULL));

    image = read_png (heights_png);
    grey = (guint16 *) terrain_image_get_data (image, NULL);
    for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
      g_assert_cmpint (grey[i] + offset, ==, heights[i]);

    for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
      {
        if ((i % S) >= 30 && (i % S) < 70 && (i / S) >= 50 && (i / S) < 60)
          grey[i] = (guint16) (grey[i] + 300);
        expected[i] = grey[i] + offset;
      }
    {
      g_autoptr(GBytes) png_bytes = terrain_image_save_png_bytes (image, &error);

      g_assert_no_error (error);
      terrain_test_write_bytes (edited_png, png_bytes);
    }

    offset_arg = g_strdup_printf ("--offset=%d", offset);
    {
      g_auto(TerrainTestCliResult) r2 = terrain_test_run_cli (NULL, "insomniac", "import-heights",
                                                              offset_arg, tnlc, edited_png,
                                                              "-o", edited, NULL);

      g_assert_cmpint (r2.status, ==, 0);
    }
    g_file_get_contents (edited, &data, &size, &error);
    g_assert_no_error (error);
    reread_bytes = g_bytes_new_take (data, size);
    reread = load_chunk (reread_bytes);
    g_assert_cmpmem (terrain_node_chunk_get_heights (reread, NULL), TERRAIN_NODE_SAMPLES * 4,
                     expected, TERRAIN_NODE_SAMPLES * 4);
  }

  /* import-heights of a floor region, block-aligned and exact. */
  {
    g_autoptr(TerrainImage) patch = terrain_image_new (TERRAIN_IMAGE_GRAY16, 8, 4, NULL);
    g_autoptr(GBytes) patch_bytes = NULL;
    g_autoptr(GBytes) after = NULL;
    g_autoptr(TerrainFloorHeightData) reread = NULL;
    guint16 *p = (guint16 *) terrain_image_get_data (patch, NULL), got[8 * 4];
    char *data;
    gsize size;

    for (guint i = 0; i < 32; i++)
      p[i] = (guint16) (9000 + 30 * (i % 4));
    patch_bytes = terrain_image_save_png_bytes (patch, NULL);
    terrain_test_write_bytes (png, patch_bytes);
    {
      g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "insomniac", "import-heights",
                                                             "--x", "16", "--y", "8", fhd,
                                                             png, NULL);

      g_assert_cmpint (r.status, ==, 0);
    }
    g_file_get_contents (fhd, &data, &size, &error);
    g_assert_no_error (error);
    after = g_bytes_new_take (data, size);
    reread = load_floor (after);
    terrain_floor_height_data_get_region (reread, 16, 8, 8, 4, got);
    g_assert_cmpmem (got, sizeof got, p, sizeof got);
    g_assert_cmpuint (terrain_floor_height_data_get_word (reread, 15, 8), ==, floor_word (15, 8));
  }

  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "insomniac", "export-node", tnl,
                                                           "87381", node_dir, NULL);

    g_assert_cmpint (r.status, ==, 64);
  }

  terrain_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/Insomniac/Layer/positions", test_layer_positions);
  g_test_add_func ("/Terrain/Insomniac/Layer/roundtrip", test_layer_roundtrip);
  g_test_add_func ("/Terrain/Insomniac/Layer/errors", test_layer_errors);
  g_test_add_func ("/Terrain/Insomniac/Floor/block-codec", test_floor_block_codec);
  g_test_add_func ("/Terrain/Insomniac/Floor/roundtrip", test_floor_roundtrip);
  g_test_add_func ("/Terrain/Insomniac/Floor/empty", test_floor_empty);
  g_test_add_func ("/Terrain/Insomniac/Floor/full-size", test_floor_full_size);
  g_test_add_func ("/Terrain/Insomniac/Floor/errors", test_floor_errors);
  g_test_add_func ("/Terrain/Insomniac/Format/detect", test_formats);
  g_test_add_func ("/Terrain/Insomniac/Format/mutations", test_mutations);
  g_test_add_func ("/Terrain/Insomniac/Cli/commands", test_cli);

  return g_test_run ();
}
