/* test-insomniac-codec.c: the coding primitives of Insomniac terrain: CABAC, the
 * Hilbert order, BC blocks, the height and raster codecs, planar textures
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Checked against hand-computed values and round trips through libterrain's
 * own encoders (insomniac-terrain.md); the documents built on them are in
 * test-insomniac-chunk.c and test-insomniac-terrain.c.
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

static TerrainReader
reader_for (GBytes     *bytes,
            const char *section)
{
  TerrainReader reader;

  terrain_reader_init (&reader, bytes, section);
  return reader;
}

/* CABAC ------------------------------------------------------------------ */

static void
test_cabac_tables (void)
{
  guint sum = 0;

  /* field-notes.md, "CABAC". */
  g_assert_cmpuint (terrain_cabac_range_lps[0][0], ==, 128);
  g_assert_cmpuint (terrain_cabac_range_lps[0][1], ==, 176);
  g_assert_cmpuint (terrain_cabac_range_lps[0][2], ==, 208);
  g_assert_cmpuint (terrain_cabac_range_lps[0][3], ==, 240);
  for (guint q = 0; q < 4; q++)
    g_assert_cmpuint (terrain_cabac_range_lps[63][q], ==, 2);

  for (guint i = 0; i < 64; i++)
    sum += terrain_cabac_trans_lps[i];
  g_assert_cmpuint (sum, ==, 1442);

  /* MPS transitions are i + 1, saturating at 62; 63 is the terminal state. */
  for (guint i = 0; i < 62; i++)
    g_assert_cmpuint (terrain_cabac_trans_mps[i], ==, i + 1);
  g_assert_cmpuint (terrain_cabac_trans_mps[62], ==, 62);

  /* Each row grows with the range quarter; each column shrinks with the
   * state, and states below 63 keep rLPS >= 6 (the decoder's shift bound). */
  for (guint i = 0; i < 63; i++)
    for (guint q = 0; q < 4; q++)
      {
        if (q > 0)
          g_assert_cmpuint (terrain_cabac_range_lps[i][q], >=, terrain_cabac_range_lps[i][q - 1]);
        g_assert_cmpuint (terrain_cabac_range_lps[i + 1][q], <=, terrain_cabac_range_lps[i][q]);
        g_assert_cmpuint (terrain_cabac_range_lps[i][q], >=, 6);
      }
}

static GBytes *
encode_bins (const guint *ctx,
             const guint *bins,
             gsize        n,
             guint8      *final_contexts)
{
  GByteArray *out = g_byte_array_new ();
  TerrainCabacEncoder encoder;

  terrain_cabac_encoder_init (&encoder, out);
  for (gsize i = 0; i < n; i++)
    terrain_cabac_encode (&encoder, ctx[i], bins[i]);
  terrain_cabac_encoder_finish (&encoder);
  if (final_contexts != NULL)
    memcpy (final_contexts, encoder.contexts, TERRAIN_CABAC_N_CONTEXTS);

  return g_byte_array_free_to_bytes (out);
}

/* Worked by hand from H.264 9.3.4.2 (see the comments): the encoder's bytes
 * and the decoder's bins and context states. */
static void
test_cabac_hand_encoded (void)
{
  static const guint ctx1[] = { 0 }, bins1[] = { 1 };
  static const guint ctx3[] = { 0, 0, 0 }, bins3[] = { 0, 0, 1 };
  static const guint8 expect1[] = { 0x87, 0x00 }, expect3[] = { 0x27, 0x00 };
  g_autoptr(GBytes) out1 = NULL, out3 = NULL;
  TerrainCabacDecoder decoder;
  guint8 contexts[TERRAIN_CABAC_N_CONTEXTS];
  const guint8 *data;
  gsize size;

  /* One LPS at state 0: range 510 -> rLPS 240, low = 270, range 240, MPS
   * flips to 1; one renormalisation makes low 270 -> 14 outstanding, then
   * 28. Flush: first bit dropped, the outstanding 1, then low's nine bits
   * 000011100: 1000 0111 00 -> 0x87 0x00. */
  out1 = encode_bins (ctx1, bins1, 1, contexts);
  data = g_bytes_get_data (out1, &size);
  g_assert_cmpmem (data, size, expect1, sizeof expect1);
  g_assert_cmpuint (TERRAIN_CABAC_STATE (contexts[0]), ==, 0);
  g_assert_cmpuint (TERRAIN_CABAC_MPS (contexts[0]), ==, 1);

  /* Offset 100001110 = 270 >= range 270: LPS. */
  terrain_cabac_decoder_init (&decoder, data, size);
  g_assert_cmpuint (terrain_cabac_decode (&decoder, 0), ==, 1);
  g_assert_cmpuint (decoder.contexts[0], ==, 1);   /* state 0, MPS 1 */
  g_assert_cmpuint (decoder.range, ==, 480);

  /* 0, 0, 1: MPS (range 270, state 1); MPS (rLPS 128, range 142 -> 284,
   * state 2, bit 0 dropped); LPS (rLPS 128, low 156, range 128 -> 256, low
   * 312, a 0 bit, state 1). Flush: bit 0 and low's nine bits 100111000:
   * 0010 0111 000 -> 0x27 0x00. */
  out3 = encode_bins (ctx3, bins3, 3, contexts);
  data = g_bytes_get_data (out3, &size);
  g_assert_cmpmem (data, size, expect3, sizeof expect3);

  /* Offset 001001110 = 78: 78 < 270 MPS; 78 < 142 MPS, offset 156; 156 >=
   * 156 LPS. */
  terrain_cabac_decoder_init (&decoder, data, size);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpuint (terrain_cabac_decode (&decoder, 0), ==, bins3[i]);
  g_assert_cmpuint (TERRAIN_CABAC_STATE (decoder.contexts[0]), ==, 1);
  g_assert_cmpuint (TERRAIN_CABAC_MPS (decoder.contexts[0]), ==, 0);
  g_assert_cmpmem (decoder.contexts, sizeof decoder.contexts, contexts, sizeof contexts);
}

static void
test_cabac_hand_decoded (void)
{
  guint8 zeros[64] = { 0 }, ones[64];
  TerrainCabacDecoder decoder;

  /* Offset 0 is below every range: all MPS, the state climbing to 62. */
  terrain_cabac_decoder_init (&decoder, zeros, sizeof zeros);
  for (guint i = 0; i < 100; i++)
    g_assert_cmpuint (terrain_cabac_decode (&decoder, 7), ==, 0);
  g_assert_cmpuint (TERRAIN_CABAC_STATE (decoder.contexts[7]), ==, 62);
  g_assert_cmpuint (TERRAIN_CABAC_MPS (decoder.contexts[7]), ==, 0);
  g_assert_cmpuint (decoder.contexts[0], ==, 0);

  /* Offset 511: LPS (offset 241, range 240 -> 480, offset 483); with MPS 1,
   * rLPS 240 leaves range 240 and 483 >= 240: LPS again, a 0, MPS back to 0;
   * and so on: 1, 0, 1, 0, ... at state 0. */
  memset (ones, 0xff, sizeof ones);
  terrain_cabac_decoder_init (&decoder, ones, sizeof ones);
  for (guint i = 0; i < 8; i++)
    {
      g_assert_cmpuint (terrain_cabac_decode (&decoder, 3), ==, (i + 1) % 2);
      g_assert_cmpuint (TERRAIN_CABAC_STATE (decoder.contexts[3]), ==, 0);
    }

  /* Past the end the decoder reads zeros and counts them. */
  terrain_cabac_decoder_init (&decoder, ones, 1);
  g_assert_cmpuint (decoder.overrun, ==, 1);
  g_assert_cmpuint (terrain_cabac_decoder_bytes_loaded (&decoder), ==, 1);
}

static void
test_cabac_random_roundtrip (void)
{
  for (guint seed = 1; seed <= 6; seed++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
      gsize n = 20000 + 40000 * seed;
      g_autofree guint *ctx = g_new (guint, n);
      g_autofree guint *bins = g_new (guint, n);
      double p[TERRAIN_CABAC_N_CONTEXTS];
      guint8 contexts[TERRAIN_CABAC_N_CONTEXTS];
      g_autoptr(GBytes) coded = NULL;
      g_autoptr(GByteArray) padded = g_byte_array_new ();
      TerrainCabacDecoder decoder;
      const guint8 *data;
      gsize size;

      /* Contexts from nearly certain to fair, and runs of one context. */
      for (guint c = 0; c < TERRAIN_CABAC_N_CONTEXTS; c++)
        p[c] = c % 5 == 0 ? 0.5 : c % 5 == 1 ? 0.001 : g_rand_double (rand);
      for (gsize i = 0; i < n; i++)
        {
          ctx[i] = (i / 100) % 3 == 0 ? 1 : g_rand_int_range (rand, 0, TERRAIN_CABAC_N_CONTEXTS);
          bins[i] = g_rand_double (rand) < p[ctx[i]];
        }

      coded = encode_bins (ctx, bins, n, contexts);
      data = g_bytes_get_data (coded, &size);

      /* Stream A is followed by unrelated bytes (stream B) that the decoder
       * may read; they must not change any decision. */
      g_byte_array_append (padded, data, (guint) size);
      for (guint i = 0; i < 16; i++)
        {
          guint8 junk = (guint8) g_rand_int (rand);
          g_byte_array_append (padded, &junk, 1);
        }

      terrain_cabac_decoder_init (&decoder, padded->data, padded->len);
      for (gsize i = 0; i < n; i++)
        if (terrain_cabac_decode (&decoder, ctx[i]) != bins[i])
          g_error ("seed %u: bin %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " decoded wrong",
                   seed, i, n);
      g_assert_cmpmem (decoder.contexts, sizeof decoder.contexts, contexts, sizeof contexts);
      g_assert_cmpuint (decoder.overrun, ==, 0);
      /* The look-ahead runs at most two bytes past what the encoder wrote. */
      g_assert_cmpuint (terrain_cabac_decoder_bytes_loaded (&decoder), <=, size + 2);

      /* Without padding too (zeros past the end). */
      terrain_cabac_decoder_init (&decoder, data, size);
      for (gsize i = 0; i < n; i++)
        g_assert_cmpuint (terrain_cabac_decode (&decoder, ctx[i]), ==, bins[i]);
      g_assert_cmpuint (decoder.overrun, <=, 2);
    }
}

static void
test_cabac_raw_bits (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  guint32 values[500], widths[500], value;
  TerrainBitWriter writer;
  TerrainBitReader reader;
  guint64 total = 0;

  terrain_bit_writer_init (&writer, bytes);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      widths[i] = g_rand_int_range (rand, 0, 33);
      values[i] = widths[i] == 0 ? 0 : g_rand_int (rand) & (G_MAXUINT32 >> (32 - widths[i]));
      terrain_bit_writer_put (&writer, values[i], widths[i]);
      total += widths[i];
    }
  terrain_bit_writer_flush (&writer);
  g_assert_cmpuint (bytes->len, ==, (total + 7) / 8);

  terrain_bit_reader_init (&reader, bytes->data, bytes->len, 100, "test stream");
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_assert_true (terrain_bit_reader_read (&reader, widths[i], &value, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (value, ==, values[i]);
    }

  /* Big-endian: 0xA5 0x0F read as 1, 01, 0010 1000 01, 111. */
  {
    static const guint8 stream[] = { 0xa5, 0x0f };
    terrain_bit_reader_init (&reader, stream, sizeof stream, 0, "hand");
    g_assert_true (terrain_bit_reader_read (&reader, 1, &value, NULL));
    g_assert_cmpuint (value, ==, 1);
    g_assert_true (terrain_bit_reader_read (&reader, 2, &value, NULL));
    g_assert_cmpuint (value, ==, 1);
    g_assert_true (terrain_bit_reader_read (&reader, 10, &value, NULL));
    g_assert_cmpuint (value, ==, 0xa1);
    g_assert_true (terrain_bit_reader_read (&reader, 3, &value, NULL));
    g_assert_cmpuint (value, ==, 7);
    g_assert_false (terrain_bit_reader_read (&reader, 1, &value, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (error->message, "byte offset 2"));
  }
}

/* Hilbert ---------------------------------------------------------------- */

static void
test_hilbert (void)
{
  const guint16 *order = terrain_hilbert_raster_order ();
  g_autofree guint8 *seen = g_new0 (guint8, TERRAIN_NODE_SAMPLES);
  guint x, y, px = 0, py = 0;

  terrain_hilbert_d2xy (8, 0, &x, &y);
  g_assert_cmpuint (x, ==, 0);
  g_assert_cmpuint (y, ==, 0);
  terrain_hilbert_d2xy (8, 1, &x, &y);
  g_assert_cmpuint (x, ==, 1);   /* first step +x */
  g_assert_cmpuint (y, ==, 0);
  terrain_hilbert_d2xy (8, 65535, &x, &y);
  g_assert_cmpuint (x, ==, 255);
  g_assert_cmpuint (y, ==, 0);

  /* A curve: every step moves to a 4-neighbour, and every cell is visited. */
  for (guint32 d = 1; d < 65536; d++)
    {
      terrain_hilbert_d2xy (8, d, &x, &y);
      g_assert_cmpuint (ABS ((gint) x - (gint) px) + ABS ((gint) y - (gint) py), ==, 1);
      px = x;
      py = y;
    }

  /* Clipped to 132 x 132: each sample exactly once, in curve order. */
  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    {
      g_assert_cmpuint (order[i], <, TERRAIN_NODE_SAMPLES);
      g_assert_cmpuint (seen[order[i]], ==, 0);
      seen[order[i]] = 1;
    }
  g_assert_cmpuint (order[0], ==, 0);
  g_assert_cmpuint (order[1], ==, 1);          /* (1, 0) */
  g_assert_cmpuint (order[2], ==, S + 1);      /* (1, 1) */
  g_assert_cmpuint (order[3], ==, S);          /* (0, 1) */
  g_assert_true (terrain_hilbert_raster_order () == order);
}

/* BC --------------------------------------------------------------------- */

static void
test_bc_decode (void)
{
  /* Red and blue, indices 0..3 in the first row. */
  static const guint8 bc1[8] = { 0x00, 0xf8, 0x1f, 0x00, 0xe4, 0x00, 0x00, 0x00 };
  static const guint8 bc1_three[8] = { 0x1f, 0x00, 0x00, 0xf8, 0xe4, 0x00, 0x00, 0x00 };
  guint8 rgba[4 * 4 * 4], grey[16], block[8] = { 200, 100 };
  guint64 indices = 0;

  terrain_bc1_decode_block (bc1, rgba, 16);
  g_assert_cmpmem (rgba, 4, ((guint8[]) { 255, 0, 0, 255 }), 4);
  g_assert_cmpmem (rgba + 4, 4, ((guint8[]) { 0, 0, 255, 255 }), 4);
  g_assert_cmpmem (rgba + 8, 4, ((guint8[]) { 170, 0, 85, 255 }), 4);
  g_assert_cmpmem (rgba + 12, 4, ((guint8[]) { 85, 0, 170, 255 }), 4);
  g_assert_cmpmem (rgba + 16, 4, ((guint8[]) { 255, 0, 0, 255 }), 4);  /* row 1: index 0 */

  /* c0 <= c1: midpoint and transparent black. */
  terrain_bc1_decode_block (bc1_three, rgba, 16);
  g_assert_cmpmem (rgba + 8, 4, ((guint8[]) { 128, 0, 128, 255 }), 4);
  g_assert_cmpmem (rgba + 12, 4, ((guint8[]) { 0, 0, 0, 0 }), 4);

  /* BC4, eight values: index k of pixel k. */
  for (guint i = 0; i < 8; i++)
    indices |= (guint64) i << (3 * i);
  for (guint i = 0; i < 6; i++)
    block[2 + i] = (guint8) (indices >> (8 * i));
  terrain_bc4_decode_block (block, grey, 4);
  g_assert_cmpmem (grey, 8, ((guint8[]) { 200, 100, 185, 171, 157, 143, 128, 114 }), 8);

  /* Six values plus 0 and 255. */
  block[0] = 100;
  block[1] = 200;
  terrain_bc4_decode_block (block, grey, 4);
  g_assert_cmpmem (grey, 8, ((guint8[]) { 100, 200, 120, 140, 160, 180, 0, 255 }), 8);
}

static void
test_bc_encode (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  guint8 rgba[64], out[64], grey[16], back[16], block[8];
  double total = 0;

  /* A single colour is exact up to RGB565. */
  for (guint i = 0; i < 16; i++)
    memcpy (rgba + 4 * i, ((guint8[]) { 0xff, 0x80, 0x08, 0xff }), 4);
  terrain_bc1_encode_block (rgba, 16, block);
  terrain_bc1_decode_block (block, out, 16);
  for (guint i = 0; i < 16; i++)
    {
      g_assert_cmpint (ABS (out[4 * i] - 0xff), <=, 4);
      g_assert_cmpint (ABS (out[4 * i + 1] - 0x80), <=, 2);
      g_assert_cmpint (ABS (out[4 * i + 2] - 0x08), <=, 4);
      g_assert_cmpuint (out[4 * i + 3], ==, 255);
    }

  /* A gradient of 16 steps over 240 on two channels: four levels 80 apart
   * leave about 20 of error on those two channels at best, so about 13.3
   * on average over all three. */
  for (guint i = 0; i < 16; i++)
    memcpy (rgba + 4 * i, ((guint8[]) { (guint8) (i * 16), (guint8) (255 - i * 16), 100, 255 }), 4);
  terrain_bc1_encode_block (rgba, 16, block);
  terrain_bc1_decode_block (block, out, 16);
  for (guint i = 0; i < 64; i++)
    if (i % 4 != 3)
      total += ABS (out[i] - rgba[i]);
  g_assert_cmpfloat (total / 48, <, 13.5);

  /* Two BC4 values are exact; random values are close. */
  for (guint i = 0; i < 16; i++)
    grey[i] = i % 3 ? 17 : 230;
  terrain_bc4_encode_block (grey, 4, block);
  terrain_bc4_decode_block (block, back, 4);
  g_assert_cmpmem (back, 16, grey, 16);

  for (guint round = 0; round < 100; round++)
    {
      for (guint i = 0; i < 16; i++)
        grey[i] = (guint8) g_rand_int (rand);
      terrain_bc4_encode_block (grey, 4, block);
      terrain_bc4_decode_block (block, back, 4);
      for (guint i = 0; i < 16; i++)
        g_assert_cmpint (ABS (back[i] - grey[i]), <=, 20);
    }
}

/* Height codec ----------------------------------------------------------- */

/* Builds a height block from explicit residual codes: (k, suffix) per
 * sample, all other residuals 0. */
typedef struct
{
  guint index;
  guint k;
  guint32 suffix;
} ResidualCode;

static GBytes *
hand_height_block (const ResidualCode *codes,
                   guint               n_codes)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  TerrainCabacEncoder cabac;
  TerrainBitWriter raw;
  GByteArray *out = g_byte_array_new ();
  guint8 n[4];

  terrain_cabac_encoder_init (&cabac, a);
  terrain_bit_writer_init (&raw, b);
  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    {
      guint k = 0;
      guint32 suffix = 0;

      for (guint c = 0; c < n_codes; c++)
        if (codes[c].index == i)
          {
            k = codes[c].k;
            suffix = codes[c].suffix;
          }
      for (guint j = 0; j < k; j++)
        terrain_cabac_encode (&cabac, MIN (j, 15), 1);
      terrain_cabac_encode (&cabac, MIN (k, 15), 0);
      terrain_bit_writer_put (&raw, suffix, k);
    }
  terrain_cabac_encoder_finish (&cabac);
  terrain_bit_writer_flush (&raw);

  terrain_put_le32 (n, 4 + a->len);
  g_byte_array_append (out, n, 4);
  g_byte_array_append (out, a->data, a->len);
  g_byte_array_append (out, b->data, b->len);
  g_byte_array_append (out, (const guint8[8]) { 0 }, 8);
  return g_byte_array_free_to_bytes (out);
}

static void
decode_heights_ok (GBytes *block,
                   gint32 *heights,
                   TerrainCodedBlockInfo *info)
{
  g_autoptr(GError) error = NULL;
  TerrainReader reader = reader_for (block, "test heights");

  g_assert_true (terrain_node_decode_heights (&reader, heights, info, &error));
  g_assert_no_error (error);
}

static void
test_heights_signed_mapping (void)
{
  /* v = 2^k - 1 + suffix; odd v -> (v + 1) / 2, even v -> -v / 2. */
  static const struct { guint k; guint32 suffix; gint32 residual; } cases[] = {
    { 0, 0, 0 }, { 1, 0, 1 }, { 1, 1, -1 }, { 2, 0, 2 }, { 2, 1, -2 }, { 2, 3, -3 },
    { 3, 5, -6 }, { 4, 0, 8 }, { 20, 12345, -530460 },
  };
  g_autofree gint32 *heights = g_new (gint32, TERRAIN_NODE_SAMPLES);
  TerrainCodedBlockInfo info;

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      ResidualCode code = { 0, cases[c].k, cases[c].suffix };
      g_autoptr(GBytes) block = hand_height_block (&code, 1);
      gint32 expected = cases[c].residual;

      /* A residual at (0, 0) alone spreads to every sample. */
      decode_heights_ok (block, heights, &info);
      for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
        g_assert_cmpint (heights[i], ==, expected);
      g_assert_cmpuint (info.raw_bits, ==, cases[c].k);
      g_assert_cmpuint (info.bins, ==, TERRAIN_NODE_SAMPLES + cases[c].k);
    }
}

static void
test_heights_accumulation (void)
{
  g_autofree gint32 *heights = g_new (gint32, TERRAIN_NODE_SAMPLES);
  TerrainCodedBlockInfo info;

  /* A lone interior residual r at (5, 7) adds r to every sample with
   * x >= 5 and y >= 7: the raster is the 2-D prefix sum. */
  {
    ResidualCode code = { 7 * S + 5, 2, 0 };   /* v = 3: +2 */
    g_autoptr(GBytes) block = hand_height_block (&code, 1);

    decode_heights_ok (block, heights, &info);
    for (guint y = 0; y < S; y++)
      for (guint x = 0; x < S; x++)
        g_assert_cmpint (heights[y * S + x], ==, x >= 5 && y >= 7 ? 2 : 0);
  }

  /* On the first column: rows below it; on the first row: columns right. */
  {
    ResidualCode codes[] = { { 3 * S, 1, 1 }, { 4, 2, 0 } };   /* -1 at (0,3), +2 at (4,0) */
    g_autoptr(GBytes) block = hand_height_block (codes, 2);

    decode_heights_ok (block, heights, &info);
    for (guint y = 0; y < S; y++)
      for (guint x = 0; x < S; x++)
        g_assert_cmpint (heights[y * S + x], ==, (y >= 3 ? -1 : 0) + (x >= 4 ? 2 : 0));
  }

  /* h = 3x + 5y + xy: residual 3 along the first row, 5 down the first
   * column, 1 inside; the encoder produces exactly those codes. */
  {
    g_autofree gint32 *plane = g_new (gint32, TERRAIN_NODE_SAMPLES);
    g_autoptr(GBytes) block = NULL;
    g_autoptr(GBytes) expected = NULL;
    g_autofree ResidualCode *codes = g_new (ResidualCode, TERRAIN_NODE_SAMPLES);

    for (guint y = 0; y < S; y++)
      for (guint x = 0; x < S; x++)
        {
          guint i = y * S + x;

          plane[i] = (gint32) (3 * x + 5 * y + x * y);
          /* +1: v = 1 (k 1, suffix 0); +3: v = 5 (k 2, suffix 2); +5: v = 9 (k 3, suffix 2) */
          codes[i].index = i;
          codes[i].k = i == 0 ? 0 : y == 0 ? 2 : x == 0 ? 3 : 1;
          codes[i].suffix = i == 0 ? 0 : y == 0 ? 2 : x == 0 ? 2 : 0;
        }
    block = terrain_node_encode_heights (plane, (const guint8[8]) { 0 }, 8, NULL);
    expected = hand_height_block (codes, TERRAIN_NODE_SAMPLES);
    terrain_test_assert_bytes_equal (block, expected);
    decode_heights_ok (block, heights, &info);
    g_assert_cmpmem (heights, TERRAIN_NODE_SAMPLES * 4, plane, TERRAIN_NODE_SAMPLES * 4);
  }
}

static void
test_heights_roundtrip (void)
{
  g_autofree gint32 *heights = g_new (gint32, TERRAIN_NODE_SAMPLES);
  g_autofree gint32 *back = g_new (gint32, TERRAIN_NODE_SAMPLES);
  g_autoptr(GRand) rand = g_rand_new_with_seed (99);
  g_autoptr(GError) error = NULL;
  static const guint8 tail[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

  for (guint round = 0; round < 4; round++)
    {
      g_autoptr(GBytes) block = NULL;
      TerrainCodedBlockInfo info;
      gsize size;
      const guint8 *data;

      for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
        switch (round)
          {
          case 0: heights[i] = 0; break;
          case 1: heights[i] = terrain_at ((gint) (i % S), (gint) (i / S), 3); break;
          case 2: heights[i] = g_rand_int_range (rand, -TERRAIN_NODE_HEIGHT_LIMIT,
                                                 TERRAIN_NODE_HEIGHT_LIMIT + 1); break;
          default: heights[i] = (i % 2) ? TERRAIN_NODE_HEIGHT_LIMIT : -TERRAIN_NODE_HEIGHT_LIMIT;
          }

      block = terrain_node_encode_heights (heights, tail, sizeof tail, &error);
      g_assert_no_error (error);
      decode_heights_ok (block, back, &info);
      g_assert_cmpmem (back, TERRAIN_NODE_SAMPLES * 4, heights, TERRAIN_NODE_SAMPLES * 4);

      /* Raw-bit length: B is the used raw bits, rounded up, plus the tail. */
      data = g_bytes_get_data (block, &size);
      g_assert_cmpuint (info.a_end, ==, terrain_get_le32 (data));
      g_assert_cmpuint ((info.raw_bits + 7) / 8 + sizeof tail, ==, info.b_size);
      g_assert_cmpmem (data + size - 8, 8, tail, 8);
      g_assert_cmpuint (info.cabac_overrun, ==, 0);
    }

  heights[77] = TERRAIN_NODE_HEIGHT_LIMIT + 1;
  g_assert_null (terrain_node_encode_heights (heights, NULL, 0, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "sample 77"));
}

static void
test_heights_corrupt (void)
{
  g_autofree gint32 *heights = g_new0 (gint32, TERRAIN_NODE_SAMPLES);
  g_autoptr(GBytes) block = NULL;
  TerrainCodedBlockInfo info;
  gsize size;

  fill_heights (heights, 0, 0, 5);
  block = terrain_node_encode_heights (heights, NULL, 0, NULL);
  size = g_bytes_get_size (block);

  /* Every cut of the block fails with an error, never a crash. */
  for (gsize cut = 0; cut < size; cut += (cut < 64 ? 1 : 97))
    {
      g_autoptr(GBytes) part = bytes_slice (block, 0, cut);
      g_autoptr(GError) error = NULL;
      TerrainReader reader = reader_for (part, "cut heights");

      g_assert_false (terrain_node_decode_heights (&reader, heights, &info, &error));
      g_assert_true (g_error_matches (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED) ||
                     g_error_matches (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE) ||
                     g_error_matches (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE));
    }

  /* N outside 4..size. */
  {
    g_autoptr(GBytes) bad = bytes_patched (block, 0, (const guint8[]) { 2, 0, 0, 0 }, 4);
    g_autoptr(GError) error = NULL;
    TerrainReader reader = reader_for (bad, "bad N");

    g_assert_false (terrain_node_decode_heights (&reader, heights, &info, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
    g_assert_nonnull (strstr (error->message, "stream B offset 2"));
  }

  /* An endless unary prefix. */
  {
    GByteArray *a = g_byte_array_new ();
    TerrainCabacEncoder cabac;
    g_autoptr(GBytes) bad = NULL;
    g_autoptr(GError) error = NULL;
    guint8 n[4];
    TerrainReader reader;

    terrain_cabac_encoder_init (&cabac, a);
    for (guint j = 0; j < 40; j++)
      terrain_cabac_encode (&cabac, MIN (j, 15), 1);
    terrain_cabac_encoder_finish (&cabac);
    terrain_put_le32 (n, 4 + a->len);
    g_byte_array_prepend (a, n, 4);
    g_byte_array_append (a, (const guint8[16]) { 0 }, 16);
    bad = g_byte_array_free_to_bytes (a);
    reader = reader_for (bad, "long prefix");

    g_assert_false (terrain_node_decode_heights (&reader, heights, &info, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    g_test_message ("%s", error->message);
    g_assert_nonnull (strstr (error->message, "residual 0"));
  }
}

/* Raster codec ----------------------------------------------------------- */

static void
test_raster_rank_list (void)
{
  guint8 list[5] = { 'a', 'b', 'c', 'd', 'e' };

  /* A rank above one swaps with rank / 2. */
  g_assert_cmpuint (terrain_node_rank_list_take (list, 5), ==, 'e');
  g_assert_cmpmem (list, 5, "aecdb", 5);
  g_assert_cmpuint (terrain_node_rank_list_take (list, 3), ==, 'c');
  g_assert_cmpmem (list, 5, "ceadb", 5);
  g_assert_cmpuint (terrain_node_rank_list_take (list, 1), ==, 'c');
  g_assert_cmpmem (list, 5, "ceadb", 5);
  g_assert_cmpuint (terrain_node_rank_list_take (list, 2), ==, 'e');
  g_assert_cmpmem (list, 5, "ecadb", 5);
  g_assert_cmpuint (terrain_node_rank_list_take (list, 4), ==, 'd');
  g_assert_cmpmem (list, 5, "edacb", 5);
}

static void
put_rank (TerrainCabacEncoder *cabac,
          TerrainBitWriter    *raw,
          guint                rank)
{
  guint k = g_bit_storage (rank) - 1;

  for (guint j = 0; j < k; j++)
    terrain_cabac_encode (cabac, MIN (j, 7), 1);
  terrain_cabac_encode (cabac, MIN (k, 7), 0);
  terrain_bit_writer_put (raw, rank - (1u << k), k);
}

static void
test_raster_hand_stream (void)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  g_autoptr(GBytes) block = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *samples = g_new (guint8, TERRAIN_NODE_SAMPLES);
  GByteArray *out = g_byte_array_new ();
  TerrainCabacEncoder cabac;
  TerrainBitWriter raw;
  TerrainCodedBlockInfo info;
  TerrainReader reader;
  guint8 n[4];

  /* Runs of 4 samples; palette { 1, 2 }. The first run (the curve's first
   * four samples, (0,0) (1,0) (1,1) (0,1)) is mixed, ranks 1, 2, 2, 1:
   * 1; 2 (list -> 2 1); 1 (list -> 1 2); 1. Every later run is uniform,
   * rank 1: the value 1. */
  terrain_cabac_encoder_init (&cabac, a);
  terrain_bit_writer_init (&raw, b);
  terrain_bit_writer_put (&raw, 4, 16);
  terrain_bit_writer_put (&raw, 2, 16);
  terrain_bit_writer_put (&raw, 1, 8);
  terrain_bit_writer_put (&raw, 2, 8);
  terrain_cabac_encode (&cabac, 8, 0);
  put_rank (&cabac, &raw, 1);
  put_rank (&cabac, &raw, 2);
  put_rank (&cabac, &raw, 2);
  put_rank (&cabac, &raw, 1);
  for (guint run = 1; run < TERRAIN_NODE_SAMPLES / 4; run++)
    {
      terrain_cabac_encode (&cabac, 8, 1);
      put_rank (&cabac, &raw, 1);
    }
  terrain_cabac_encoder_finish (&cabac);
  terrain_bit_writer_flush (&raw);
  terrain_put_le32 (n, 4 + a->len);
  g_byte_array_append (out, n, 4);
  g_byte_array_append (out, a->data, a->len);
  g_byte_array_append (out, b->data, b->len);
  g_byte_array_append (out, (const guint8[8]) { 0 }, 8);
  block = g_byte_array_free_to_bytes (out);

  reader = reader_for (block, "hand raster");
  g_assert_true (terrain_node_decode_raster (&reader, samples, &info, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (info.chunk_length, ==, 4);
  g_assert_cmpuint (info.palette_count, ==, 2);
  g_assert_cmpuint (info.chunks, ==, TERRAIN_NODE_SAMPLES / 4);
  g_assert_cmpuint (info.uniform_chunks, ==, TERRAIN_NODE_SAMPLES / 4 - 1);
  g_assert_cmpuint (samples[0], ==, 1);
  g_assert_cmpuint (samples[1], ==, 2);
  g_assert_cmpuint (samples[S + 1], ==, 1);
  g_assert_cmpuint (samples[S], ==, 1);
  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    if (i != 1)
      g_assert_cmpuint (samples[i], ==, 1);
  g_assert_cmpuint ((info.raw_bits + 7) / 8 + 8, ==, info.b_size);
}

static void
test_raster_roundtrip (void)
{
  g_autofree guint8 *samples = g_new (guint8, TERRAIN_NODE_SAMPLES);
  g_autofree guint8 *back = g_new (guint8, TERRAIN_NODE_SAMPLES);
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  static const guint chunk_lengths[] = { 0, 1, 7, 64, 256, TERRAIN_NODE_SAMPLES };

  for (guint kind = 0; kind < 4; kind++)
    for (guint c = 0; c < G_N_ELEMENTS (chunk_lengths); c++)
      {
        g_autoptr(GBytes) block = NULL;
        g_autoptr(GError) error = NULL;
        TerrainCodedBlockInfo info;
        TerrainReader reader;
        guint used = 0;
        gboolean present[256] = { FALSE };

        for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
          switch (kind)
            {
            case 0: samples[i] = 0x60; break;
            case 1: samples[i] = (i % S) < 66 ? 3 : 250; break;
            case 2: samples[i] = (guint8) g_rand_int_range (rand, 0, 256); break;
            default: samples[i] = (guint8) (((i % S) / 10 + (i / S) / 13) % 9 * 7); break;
            }
        for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
          if (!present[samples[i]])
            {
              present[samples[i]] = TRUE;
              used++;
            }

        block = terrain_node_encode_raster (samples, NULL, 0, chunk_lengths[c], NULL, 0);
        reader = reader_for (block, "raster");
        g_assert_true (terrain_node_decode_raster (&reader, back, &info, &error));
        g_assert_no_error (error);
        g_assert_cmpmem (back, TERRAIN_NODE_SAMPLES, samples, TERRAIN_NODE_SAMPLES);
        g_assert_cmpuint (info.chunk_length, ==, chunk_lengths[c] ? chunk_lengths[c] : 64);
        g_assert_cmpuint (info.palette_count, ==, used);
        g_assert_cmpuint (info.chunks, ==,
                          (TERRAIN_NODE_SAMPLES + info.chunk_length - 1) / info.chunk_length);
        if (kind == 0)
          g_assert_cmpuint (info.uniform_chunks, ==, info.chunks);
        g_assert_cmpuint ((info.raw_bits + 7) / 8, ==, info.b_size);
      }

  /* A given palette order is kept for the values still used. */
  {
    static const guint8 palette[] = { 250, 99, 3 };
    g_autoptr(GBytes) block = NULL;
    TerrainCodedBlockInfo info;
    TerrainReader reader;

    for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
      samples[i] = (i % 5 == 0) ? 3 : (i % 7 == 0) ? 42 : 250;
    block = terrain_node_encode_raster (samples, palette, 3, 32, NULL, 0);
    reader = reader_for (block, "raster");
    g_assert_true (terrain_node_decode_raster (&reader, back, &info, NULL));
    g_assert_cmpuint (info.palette_count, ==, 3);
    g_assert_cmpmem (info.palette, 3, ((guint8[]) { 250, 3, 42 }), 3);
  }
}

static void
test_raster_corrupt (void)
{
  g_autofree guint8 *samples = g_new (guint8, TERRAIN_NODE_SAMPLES);
  g_autoptr(GBytes) block = NULL;
  TerrainCodedBlockInfo info;
  guint32 n;
  gsize size;
  const guint8 *data;

  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    samples[i] = (guint8) ((i * 7919) % 13);
  block = terrain_node_encode_raster (samples, NULL, 0, 16, NULL, 0);
  data = g_bytes_get_data (block, &size);
  n = terrain_get_le32 (data);

  /* Chunk length 0, palette count 0 and 300 (bytes N..N+3 of B). */
  {
    static const guint8 patches[][4] = { { 0, 0, 0, 5 }, { 0, 16, 0, 0 }, { 0, 16, 1, 44 } };

    for (guint p = 0; p < G_N_ELEMENTS (patches); p++)
      {
        g_autoptr(GBytes) bad = bytes_patched (block, n, patches[p], 4);
        g_autoptr(GError) error = NULL;
        TerrainReader reader = reader_for (bad, "bad raster");

        g_assert_false (terrain_node_decode_raster (&reader, samples, &info, &error));
        g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
      }
  }

  /* A palette of one entry where ranks up to 13 are coded. */
  {
    g_autoptr(GBytes) bad = bytes_patched (block, n + 2, (const guint8[]) { 0, 1 }, 2);
    g_autoptr(GError) error = NULL;
    TerrainReader reader = reader_for (bad, "short palette");

    g_assert_false (terrain_node_decode_raster (&reader, samples, &info, &error));
    g_assert_true (g_error_matches (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE) ||
                   g_error_matches (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED));
  }

  for (gsize cut = 0; cut < size; cut += 13)
    {
      g_autoptr(GBytes) part = bytes_slice (block, 0, cut);
      g_autoptr(GError) error = NULL;
      TerrainReader reader = reader_for (part, "cut raster");

      g_assert_false (terrain_node_decode_raster (&reader, samples, &info, &error));
      g_assert_nonnull (error);
      g_assert_true (error->domain == TERRAIN_ERROR);
    }
}

/* Textures --------------------------------------------------------------- */

static void
test_texture_planar (void)
{
  g_autofree guint8 *blocks = g_new (guint8, TERRAIN_NODE_TEXTURE_BYTES);
  g_autofree guint8 *planar = g_new (guint8, TERRAIN_NODE_TEXTURE_BYTES);
  g_autofree guint8 *back = g_new (guint8, TERRAIN_NODE_TEXTURE_BYTES);

  for (guint i = 0; i < TERRAIN_NODE_TEXTURE_BYTES; i++)
    blocks[i] = (guint8) (i * 37 + i / 8);

  /* BC1: 4 endpoint bytes per block, then 4 index bytes per block. */
  terrain_node_texture_deinterleave (TERRAIN_BC_FORMAT_BC1, blocks, planar);
  g_assert_cmpmem (planar + 4 * 10, 4, blocks + 8 * 10, 4);
  g_assert_cmpmem (planar + 4 * 1089 + 4 * 10, 4, blocks + 8 * 10 + 4, 4);
  terrain_node_texture_interleave (TERRAIN_BC_FORMAT_BC1, planar, back);
  g_assert_cmpmem (back, TERRAIN_NODE_TEXTURE_BYTES, blocks, TERRAIN_NODE_TEXTURE_BYTES);

  /* BC4: 2 endpoint bytes, then 6 index bytes. */
  terrain_node_texture_deinterleave (TERRAIN_BC_FORMAT_BC4, blocks, planar);
  g_assert_cmpmem (planar + 2 * 1088, 2, blocks + 8 * 1088, 2);
  g_assert_cmpmem (planar + 2 * 1089 + 6 * 1088, 6, blocks + 8 * 1088 + 2, 6);

  for (guint f = 0; f < 2; f++)
    {
      TerrainBcFormat format = f == 0 ? TERRAIN_BC_FORMAT_BC1 : TERRAIN_BC_FORMAT_BC4;
      g_autoptr(GBytes) coded = terrain_node_encode_texture (format, blocks);
      g_autoptr(GError) error = NULL;
      TerrainReader reader = reader_for (coded, "texture");

      g_assert_true (terrain_node_decode_texture (&reader, format, back, &error));
      g_assert_no_error (error);
      g_assert_cmpmem (back, TERRAIN_NODE_TEXTURE_BYTES, blocks, TERRAIN_NODE_TEXTURE_BYTES);
    }

  /* LZ4 of the wrong size, and corrupt LZ4. */
  {
    g_autoptr(GBytes) coded = terrain_node_encode_texture (TERRAIN_BC_FORMAT_BC1, blocks);
    g_autoptr(GBytes) cut = bytes_slice (coded, 0, g_bytes_get_size (coded) - 3);
    g_autoptr(GBytes) junk = g_bytes_new_static ("\xff\xff\xff\xff\xff\xff\xff\xff", 8);
    g_autoptr(GError) error = NULL;
    TerrainReader reader = reader_for (cut, "cut texture");

    g_assert_false (terrain_node_decode_texture (&reader, TERRAIN_BC_FORMAT_BC1, back, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    g_clear_error (&error);
    reader = reader_for (junk, "junk texture");
    g_assert_false (terrain_node_decode_texture (&reader, TERRAIN_BC_FORMAT_BC4, back, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/Insomniac/Cabac/tables", test_cabac_tables);
  g_test_add_func ("/Terrain/Insomniac/Cabac/hand-encoded", test_cabac_hand_encoded);
  g_test_add_func ("/Terrain/Insomniac/Cabac/hand-decoded", test_cabac_hand_decoded);
  g_test_add_func ("/Terrain/Insomniac/Cabac/random-roundtrip", test_cabac_random_roundtrip);
  g_test_add_func ("/Terrain/Insomniac/Cabac/raw-bits", test_cabac_raw_bits);
  g_test_add_func ("/Terrain/Insomniac/Hilbert/order", test_hilbert);
  g_test_add_func ("/Terrain/Insomniac/BC/decode", test_bc_decode);
  g_test_add_func ("/Terrain/Insomniac/BC/encode", test_bc_encode);
  g_test_add_func ("/Terrain/Insomniac/Heights/signed-mapping", test_heights_signed_mapping);
  g_test_add_func ("/Terrain/Insomniac/Heights/accumulation", test_heights_accumulation);
  g_test_add_func ("/Terrain/Insomniac/Heights/roundtrip", test_heights_roundtrip);
  g_test_add_func ("/Terrain/Insomniac/Heights/corrupt", test_heights_corrupt);
  g_test_add_func ("/Terrain/Insomniac/Raster/rank-list", test_raster_rank_list);
  g_test_add_func ("/Terrain/Insomniac/Raster/hand-stream", test_raster_hand_stream);
  g_test_add_func ("/Terrain/Insomniac/Raster/roundtrip", test_raster_roundtrip);
  g_test_add_func ("/Terrain/Insomniac/Raster/corrupt", test_raster_corrupt);
  g_test_add_func ("/Terrain/Insomniac/Texture/planar", test_texture_planar);

  return g_test_run ();
}
