/* terrain-cabac.c: H.264 CABAC engine and raw bit streams
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-cabac-private.h"
#include "core/terrain-error.h"

/* ITU-T H.264 Table 9-44: rangeTabLPS[pStateIdx][qCodIRangeIdx]. */
const guint8 terrain_cabac_range_lps[64][4] = {
  { 128, 176, 208, 240 }, { 128, 167, 197, 227 }, { 128, 158, 187, 216 }, { 123, 150, 178, 205 },
  { 116, 142, 169, 195 }, { 111, 135, 160, 185 }, { 105, 128, 152, 175 }, { 100, 122, 144, 166 },
  {  95, 116, 137, 158 }, {  90, 110, 130, 150 }, {  85, 104, 123, 142 }, {  81,  99, 117, 135 },
  {  77,  94, 111, 128 }, {  73,  89, 105, 122 }, {  69,  85, 100, 116 }, {  66,  80,  95, 110 },
  {  62,  76,  90, 104 }, {  59,  72,  86,  99 }, {  56,  69,  81,  94 }, {  53,  65,  77,  89 },
  {  51,  62,  73,  85 }, {  48,  59,  69,  80 }, {  46,  56,  66,  76 }, {  43,  53,  63,  72 },
  {  41,  50,  59,  69 }, {  39,  48,  56,  65 }, {  37,  45,  54,  62 }, {  35,  43,  51,  59 },
  {  33,  41,  48,  56 }, {  32,  39,  46,  53 }, {  30,  37,  43,  50 }, {  29,  35,  41,  48 },
  {  27,  33,  39,  45 }, {  26,  31,  37,  43 }, {  24,  30,  35,  41 }, {  23,  28,  33,  39 },
  {  22,  27,  32,  37 }, {  21,  26,  30,  35 }, {  20,  24,  29,  33 }, {  19,  23,  27,  31 },
  {  18,  22,  26,  30 }, {  17,  21,  25,  28 }, {  16,  20,  23,  27 }, {  15,  19,  22,  25 },
  {  14,  18,  21,  24 }, {  14,  17,  20,  23 }, {  13,  16,  19,  22 }, {  12,  15,  18,  21 },
  {  12,  14,  17,  20 }, {  11,  14,  16,  19 }, {  11,  13,  15,  18 }, {  10,  12,  15,  17 },
  {  10,  12,  14,  16 }, {   9,  11,  13,  15 }, {   9,  11,  12,  14 }, {   8,  10,  12,  14 },
  {   8,   9,  11,  13 }, {   7,   9,  11,  12 }, {   7,   9,  10,  12 }, {   7,   8,  10,  11 },
  {   6,   8,   9,  11 }, {   6,   7,   9,  10 }, {   6,   7,   8,   9 }, {   2,   2,   2,   2 },
};

/* ITU-T H.264 Table 9-45: transIdxLPS and transIdxMPS. */
const guint8 terrain_cabac_trans_lps[64] = {
   0,  0,  1,  2,  2,  4,  4,  5,  6,  7,  8,  9,  9, 11, 11, 12,
  13, 13, 15, 15, 16, 16, 18, 18, 19, 19, 21, 21, 22, 22, 23, 24,
  24, 25, 26, 26, 27, 27, 28, 29, 29, 30, 30, 30, 31, 32, 32, 33,
  33, 33, 34, 34, 35, 35, 35, 36, 36, 36, 37, 37, 37, 38, 38, 63,
};

const guint8 terrain_cabac_trans_mps[64] = {
   1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,
  17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
  33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
  49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 62, 63,
};

/* Starts decoding @size bytes at @data: range 510, the offset from the first
 * nine bits, every context at state 0 with MPS 0 (insomniac-terrain.md,
 * "Block coding"). */
void
terrain_cabac_decoder_init (TerrainCabacDecoder *decoder,
                            const guint8        *data,
                            gsize                size)
{
  g_assert (data != NULL || size == 0);

  decoder->data = data;
  decoder->size = size;
  decoder->pos = 0;
  decoder->overrun = 0;
  decoder->range = 510;
  decoder->value = (guint32) terrain_cabac_decoder_next_byte (decoder) << 8;
  decoder->value |= terrain_cabac_decoder_next_byte (decoder);
  decoder->bits_needed = -8;
  memset (decoder->contexts, 0, sizeof decoder->contexts);
}

void
terrain_bit_writer_init (TerrainBitWriter *writer,
                         GByteArray       *bytes)
{
  writer->bytes = bytes;
  writer->acc = 0;
  writer->n_acc = 0;
  writer->n_bits = 0;
}

/* Appends the low @count bits of @value, most significant first. */
void
terrain_bit_writer_put (TerrainBitWriter *writer,
                        guint32           value,
                        guint             count)
{
  g_assert (count <= 32);

  if (count == 0)
    return;

  writer->acc = (writer->acc << count) | (value & (G_MAXUINT32 >> (32 - count)));
  writer->n_acc += count;
  writer->n_bits += count;

  while (writer->n_acc >= 8)
    {
      guint8 byte = (guint8) (writer->acc >> (writer->n_acc - 8));

      g_byte_array_append (writer->bytes, &byte, 1);
      writer->n_acc -= 8;
    }
  writer->acc &= (G_GUINT64_CONSTANT (1) << writer->n_acc) - 1;
}

/* Pads the last byte with zero bits. */
void
terrain_bit_writer_flush (TerrainBitWriter *writer)
{
  if (writer->n_acc > 0)
    {
      guint8 byte = (guint8) (writer->acc << (8 - writer->n_acc));

      g_byte_array_append (writer->bytes, &byte, 1);
      writer->acc = 0;
      writer->n_acc = 0;
    }
}

void
terrain_cabac_encoder_init (TerrainCabacEncoder *encoder,
                            GByteArray          *out)
{
  terrain_bit_writer_init (&encoder->bits, out);
  encoder->low = 0;
  encoder->range = 510;
  encoder->outstanding = 0;
  encoder->first_bit = TRUE;
  encoder->n_bins = 0;
  memset (encoder->contexts, 0, sizeof encoder->contexts);
}

/* PutBit (H.264 9.3.4.2): the very first bit is dropped, as the decoder
 * reads nine bits where the encoder's low register holds ten. */
static void
put_bit (TerrainCabacEncoder *encoder,
         guint                bit)
{
  if (encoder->first_bit)
    encoder->first_bit = FALSE;
  else
    terrain_bit_writer_put (&encoder->bits, bit, 1);

  while (encoder->outstanding > 0)
    {
      guint n = (guint) MIN (encoder->outstanding, 32);

      terrain_bit_writer_put (&encoder->bits, bit ? 0 : G_MAXUINT32, n);
      encoder->outstanding -= n;
    }
}

void
terrain_cabac_encode (TerrainCabacEncoder *encoder,
                      guint                ctx,
                      guint                bin)
{
  guint8 *context = &encoder->contexts[ctx];
  guint state = TERRAIN_CABAC_STATE (*context);
  guint mps = TERRAIN_CABAC_MPS (*context);
  guint32 lps = terrain_cabac_range_lps[state][(encoder->range >> 6) & 3];

  g_assert (ctx < TERRAIN_CABAC_N_CONTEXTS);

  encoder->n_bins++;
  encoder->range -= lps;
  if (bin != mps)
    {
      encoder->low += encoder->range;
      encoder->range = lps;
      if (state == 0)
        mps = 1 - mps;
      state = terrain_cabac_trans_lps[state];
    }
  else
    {
      state = terrain_cabac_trans_mps[state];
    }
  *context = (guint8) (state << 1 | mps);

  /* RenormE. low + range <= 1024 holds throughout, so low never needs more
   * than ten bits. */
  while (encoder->range < 256)
    {
      if (encoder->low < 256)
        {
          put_bit (encoder, 0);
        }
      else if (encoder->low >= 512)
        {
          encoder->low -= 512;
          put_bit (encoder, 1);
        }
      else
        {
          encoder->low -= 256;
          encoder->outstanding++;
        }
      encoder->range <<= 1;
      encoder->low <<= 1;
    }
}

/* Writes all ten bits of low, then pads to a byte. Any bits that follow (the
 * decoder reads on into B) add less than one unit of the final range, so the
 * code value stays inside the final interval and every decision decodes
 * right. The decoder consumes exactly as many bits as were written here:
 * nine at the start and one per renormalisation shift. */
void
terrain_cabac_encoder_finish (TerrainCabacEncoder *encoder)
{
  put_bit (encoder, (encoder->low >> 9) & 1);
  terrain_bit_writer_put (&encoder->bits, encoder->low & 0x1ff, 9);
  terrain_bit_writer_flush (&encoder->bits);
}

void
terrain_bit_reader_init (TerrainBitReader *reader,
                         const guint8     *data,
                         gsize             size,
                         goffset           base,
                         const char       *section)
{
  g_assert (data != NULL || size == 0);

  reader->data = data;
  reader->size = size;
  reader->pos = 0;
  reader->base = base;
  reader->section = section != NULL ? section : "bit stream";
}

/* The bounds-checked path of terrain_bit_reader_read(), near the end of
 * the stream. */
gboolean
terrain_bit_reader_read_slow (TerrainBitReader  *reader,
                              guint              count,
                              guint32           *value,
                              GError           **error)
{
  guint64 total = (guint64) reader->size * 8;
  gsize first;
  guint need, n_bytes;
  guint64 acc = 0;

  g_assert (count <= 32);

  if (count == 0)
    {
      *value = 0;
      return TRUE;
    }

  if (reader->pos > total || count > total - reader->pos)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "%s: truncated at byte offset %" G_GOFFSET_FORMAT " (bit %u): %u raw bits "
                   "needed, %" G_GUINT64_FORMAT " remain before the end of the stream at byte "
                   "offset %" G_GOFFSET_FORMAT,
                   reader->section, reader->base + (goffset) (reader->pos / 8),
                   (guint) (reader->pos % 8), count, total - MIN (total, reader->pos),
                   reader->base + (goffset) reader->size);
      return FALSE;
    }

  first = (gsize) (reader->pos >> 3);
  need = (guint) (reader->pos & 7) + count;
  n_bytes = (need + 7) / 8;
  for (guint i = 0; i < n_bytes; i++)
    acc = (acc << 8) | reader->data[first + i];
  acc >>= n_bytes * 8 - need;

  *value = (guint32) (acc & (G_MAXUINT32 >> (32 - count)));
  reader->pos += count;
  return TRUE;
}
