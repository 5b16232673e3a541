/* test-insomniac-terrain.c: FloorHeightData, TerrainNodeLayer and TNLChunk
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * No public sample exists, so every fixture is made here by libterrain's own
 * encoders, and each invariant insomniac-terrain.md states is checked on
 * them; the coding primitives are also checked against hand-computed values.
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

/* Helpers ---------------------------------------------------------------- */

static GBytes *
save (gpointer document)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (document), &error);

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  return bytes;
}

static GBytes *
bytes_slice (GBytes *bytes,
             gsize   offset,
             gsize   size)
{
  return g_bytes_new_from_bytes (bytes, offset, size);
}

static GBytes *
bytes_patched (GBytes       *bytes,
               gsize         offset,
               const guint8 *data,
               gsize         size)
{
  gsize n;
  const guint8 *src = g_bytes_get_data (bytes, &n);
  guint8 *copy = g_memdup2 (src, n);

  g_assert_cmpuint (offset + size, <=, n);
  memcpy (copy + offset, data, size);
  return g_bytes_new_take (copy, n);
}

static TerrainReader
reader_for (GBytes     *bytes,
            const char *section)
{
  TerrainReader reader;

  terrain_reader_init (&reader, bytes, section);
  return reader;
}

/* A smooth, hilly height field sampled at global sample (gx, gy), so that
 * neighbouring nodes cut from it share their edge strips. */
static gint32
terrain_at (gint gx,
            gint gy,
            guint seed)
{
  double v = 20000.0 * sin (gx * 0.021 + seed) * cos (gy * 0.017 - seed) +
             9000.0 * sin ((gx + 2 * gy) * 0.05) + 3.0 * ((gx * 31 + gy * 17 + (gint) seed) % 7);

  return (gint32) lrint (v);
}

static void
fill_heights (gint32 *heights,
              gint    origin_x,
              gint    origin_y,
              guint   seed)
{
  for (guint y = 0; y < S; y++)
    for (guint x = 0; x < S; x++)
      heights[y * S + x] = terrain_at (origin_x + (gint) x, origin_y + (gint) y, seed);
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

/* Chunks ----------------------------------------------------------------- */

static TerrainNodeChunk *
load_chunk (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  TerrainNodeChunk *chunk = terrain_node_chunk_new_from_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (chunk);
  return chunk;
}

/* A leaf (or internal node at @level) with hills, materials in stripes,
 * colour and occlusion gradients. */
static GBytes *
make_chunk_bytes (gboolean leaf,
                  gint     level,
                  gint     origin_x,
                  gint     origin_y)
{
  g_autoptr(TerrainNodeChunk) chunk = terrain_node_chunk_new (leaf);
  g_autofree gint32 *heights = g_new (gint32, TERRAIN_NODE_SAMPLES);
  g_autofree guint8 *raster = g_new (guint8, TERRAIN_NODE_SAMPLES);
  g_autoptr(TerrainImage) colour = terrain_image_new (TERRAIN_IMAGE_RGBA8, S, S, NULL);
  g_autoptr(TerrainImage) occlusion = terrain_image_new (TERRAIN_IMAGE_GRAY8, S, S, NULL);
  g_autoptr(GError) error = NULL;
  guint8 *pixels;

  if (!leaf)
    terrain_node_chunk_set_level (chunk, level);

  fill_heights (heights, origin_x, origin_y, 1);
  g_assert_true (terrain_node_chunk_set_heights (chunk, heights, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    raster[i] = (guint8) (((i % S) / 20 + (i / S) / 33) % 5 * 11);
  g_assert_true (terrain_node_chunk_set_raster (chunk, TERRAIN_NODE_BLOCK_MATERIAL, raster, NULL));
  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    raster[i] = (guint8) (0x10 | ((i / S) / 40));
  g_assert_true (terrain_node_chunk_set_raster (chunk, TERRAIN_NODE_BLOCK_REGION, raster, NULL));

  pixels = terrain_image_get_data (colour, NULL);
  for (guint y = 0; y < S; y++)
    for (guint x = 0; x < S; x++)
      memcpy (pixels + 4 * (y * S + x),
              ((guint8[]) { (guint8) (x * 2), (guint8) (y * 2), 90, 255 }), 4);
  g_assert_true (terrain_node_chunk_set_texture (chunk, TERRAIN_NODE_BLOCK_COLOUR, colour, NULL));
  pixels = terrain_image_get_data (occlusion, NULL);
  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    pixels[i] = (guint8) (255 - (i % S));
  g_assert_true (terrain_node_chunk_set_texture (chunk, TERRAIN_NODE_BLOCK_OCCLUSION, occlusion,
                                                 NULL));

  if (leaf)
    {
      for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
        heights[i] = (gint32) ((i % S) < 60 ? 0 : 255 + (i / S));
      g_assert_true (terrain_node_chunk_set_snow_depth (chunk, heights, NULL));
    }

  return save (chunk);
}

static guint
count_issues (GPtrArray       *issues,
              TerrainSeverity  severity)
{
  guint n = 0;

  for (guint i = 0; i < issues->len; i++)
    if (terrain_issue_get_severity (g_ptr_array_index (issues, i)) == severity)
      n++;
  return n;
}

static gboolean
has_issue (GPtrArray   *issues,
           const char  *text)
{
  for (guint i = 0; i < issues->len; i++)
    if (strstr (terrain_issue_get_message (g_ptr_array_index (issues, i)), text) != NULL)
      return TRUE;
  return FALSE;
}

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
  g_test_add_func ("/Terrain/Insomniac/Chunk/framing", test_chunk_framing);
  g_test_add_func ("/Terrain/Insomniac/Chunk/roundtrip", test_chunk_roundtrip);
  g_test_add_func ("/Terrain/Insomniac/Chunk/edit", test_chunk_edit);
  g_test_add_func ("/Terrain/Insomniac/Chunk/invariants", test_chunk_invariants);
  g_test_add_func ("/Terrain/Insomniac/Chunk/errors", test_chunk_errors);
  g_test_add_func ("/Terrain/Insomniac/Chunk/fuzz", test_chunk_fuzz);
  g_test_add_func ("/Terrain/Insomniac/Chunk/validate-streamed", test_chunk_validate_streamed);
  g_test_add_func ("/Terrain/Insomniac/Chunk/edges", test_chunk_edges);
  g_test_add_func ("/Terrain/Insomniac/Chunk/describe", test_chunk_describe);
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
