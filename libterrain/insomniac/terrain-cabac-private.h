/* terrain-cabac-private.h: H.264 CABAC engine and raw bit streams
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

/*
 * The coded blocks of a TNLChunk (insomniac-terrain.md, "Block coding") mix
 * two streams: A, decoded by the arithmetic engine of H.264 CABAC (ITU-T
 * H.264 9.3.3.2: a 9-bit range starting at 510, a 9-bit offset, the standard
 * rangeTabLPS and transIdxLPS tables, 50 adaptive contexts starting at state
 * 0 with MPS 0), and B, raw big-endian bits.
 *
 * These readers are the bit-level counterparts of TerrainReader: they are
 * handed a span that TerrainReader has bounded and never read outside it.
 * The arithmetic decoder may run past the end of A into B (the engine
 * decoder does, and the format relies on it); past the end of the span it
 * reads zero bytes and counts them, so corrupt data cannot make it read out
 * of bounds. Callers bound the number of decisions they ask for.
 */

#define TERRAIN_CABAC_N_CONTEXTS 50

extern const guint8 terrain_cabac_range_lps[64][4];
extern const guint8 terrain_cabac_trans_lps[64];
extern const guint8 terrain_cabac_trans_mps[64];

/* A context: pStateIdx << 1 | valMPS. */
#define TERRAIN_CABAC_STATE(c) ((c) >> 1)
#define TERRAIN_CABAC_MPS(c)   ((c) & 1)

typedef struct
{
  const guint8 *data;
  gsize         size;
  gsize         pos;        /* next byte to load */
  gsize         overrun;    /* zero bytes supplied past the end of data */
  guint32       range;      /* 9 bits, 256..510 between decisions */
  guint32       value;      /* offset << 7 plus 7 look-ahead bits */
  gint          bits_needed;
  guint8        contexts[TERRAIN_CABAC_N_CONTEXTS];
} TerrainCabacDecoder;

void     terrain_cabac_decoder_init  (TerrainCabacDecoder *decoder,
                                      const guint8        *data,
                                      gsize                size);

/* Bytes the decoder has loaded from its span (the look-ahead included),
 * not counting zero bytes supplied past its end. */
static inline gsize
terrain_cabac_decoder_bytes_loaded (const TerrainCabacDecoder *decoder)
{
  return decoder->pos;
}

static inline guint8
terrain_cabac_decoder_next_byte (TerrainCabacDecoder *decoder)
{
  if (G_LIKELY (decoder->pos < decoder->size))
    return decoder->data[decoder->pos++];
  decoder->overrun++;
  return 0;
}

/* DecodeDecision (H.264 9.3.3.2.1) with context @ctx. */
static inline guint
terrain_cabac_decode (TerrainCabacDecoder *decoder,
                      guint                ctx)
{
  guint8 *context = &decoder->contexts[ctx];
  guint state = TERRAIN_CABAC_STATE (*context);
  guint mps = TERRAIN_CABAC_MPS (*context);
  guint32 lps = terrain_cabac_range_lps[state][(decoder->range >> 6) & 3];
  guint32 scaled_range;

  decoder->range -= lps;
  scaled_range = decoder->range << 7;

  if (decoder->value < scaled_range)
    {
      *context = (guint8) (terrain_cabac_trans_mps[state] << 1 | mps);
      if (scaled_range < (256u << 7))
        {
          decoder->range <<= 1;
          decoder->value <<= 1;
          if (++decoder->bits_needed == 0)
            {
              decoder->bits_needed = -8;
              decoder->value |= terrain_cabac_decoder_next_byte (decoder);
            }
        }
      return mps;
    }
  else
    {
      /* rLPS >= 6 for states 0..62 (transIdxMPS saturates at 62), so the
       * shift is 1..6 bits and the range lands in 256..510. */
      guint shift = 9 - g_bit_storage (lps);
      guint bin = 1 - mps;

      decoder->value = (decoder->value - scaled_range) << shift;
      decoder->range = lps << shift;
      decoder->bits_needed += (gint) shift;
      if (decoder->bits_needed >= 0)
        {
          decoder->value |= (guint32) terrain_cabac_decoder_next_byte (decoder)
                            << decoder->bits_needed;
          decoder->bits_needed -= 8;
        }
      /* An LPS at state 0 swaps the meaning of MPS and LPS. */
      *context = (guint8) (terrain_cabac_trans_lps[state] << 1 | (state == 0 ? bin : mps));
      return bin;
    }
}

/* Big-endian bit writer, used for raw B streams and the encoder's A. */
typedef struct
{
  GByteArray *bytes;
  guint64     acc;
  guint       n_acc;       /* bits held in acc, < 8 between calls */
  guint64     n_bits;      /* bits written in all */
} TerrainBitWriter;

void     terrain_bit_writer_init   (TerrainBitWriter *writer,
                                    GByteArray       *bytes);
void     terrain_bit_writer_put    (TerrainBitWriter *writer,
                                    guint32           value,
                                    guint             count);
void     terrain_bit_writer_flush  (TerrainBitWriter *writer);

/* EncodeDecision and RenormE (H.264 9.3.4.2). */
typedef struct
{
  TerrainBitWriter bits;
  guint32          low;          /* 10 bits */
  guint32          range;        /* 9 bits */
  guint64          outstanding;
  gboolean         first_bit;
  guint64          n_bins;
  guint8           contexts[TERRAIN_CABAC_N_CONTEXTS];
} TerrainCabacEncoder;

void     terrain_cabac_encoder_init   (TerrainCabacEncoder *encoder,
                                       GByteArray          *out);
void     terrain_cabac_encode         (TerrainCabacEncoder *encoder,
                                       guint                ctx,
                                       guint                bin);
void     terrain_cabac_encoder_finish (TerrainCabacEncoder *encoder);

/* Raw big-endian bits of a B stream. */
typedef struct
{
  const guint8 *data;
  gsize         size;
  guint64       pos;        /* in bits */
  goffset       base;       /* absolute offset of data[0], for errors */
  const char   *section;
} TerrainBitReader;

void     terrain_bit_reader_init   (TerrainBitReader *reader,
                                    const guint8     *data,
                                    gsize             size,
                                    goffset           base,
                                    const char       *section);
gboolean terrain_bit_reader_read_slow (TerrainBitReader *reader,
                                       guint             count,
                                       guint32          *value,
                                       GError          **error);

/* Reads @count (at most 32) bits, most significant first; fails with
 * TERRAIN_ERROR_TRUNCATED at the end of the stream. */
static inline gboolean
terrain_bit_reader_read (TerrainBitReader  *reader,
                         guint              count,
                         guint32           *value,
                         GError           **error)
{
  gsize first = (gsize) (reader->pos >> 3);

  /* Fast path: eight whole bytes available from the current one. */
  if (G_LIKELY (count > 0 && reader->size >= 8 && first <= reader->size - 8))
    {
      guint64 acc;

      memcpy (&acc, reader->data + first, 8);
      acc = GUINT64_FROM_BE (acc) << (reader->pos & 7);
      *value = (guint32) (acc >> (64 - count));
      reader->pos += count;
      return TRUE;
    }
  return terrain_bit_reader_read_slow (reader, count, value, error);
}

G_END_DECLS
