/* terrain-node-codec.c: TNLChunk block codecs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>
#include <lz4.h>

#include "terrain-node-codec-private.h"
#include "terrain-cabac-private.h"
#include "terrain-hilbert-private.h"
#include "terrain-node-chunk.h"
#include "core/terrain-error.h"

#define S TERRAIN_NODE_SIDE

/* Contexts (insomniac-terrain.md, "Block coding"). */
#define HEIGHT_PREFIX_CONTEXTS 16
#define RANK_PREFIX_CONTEXTS   8
#define UNIFORM_CONTEXT        8

/* The arithmetic decoder reads up to two bytes ahead of the bits it has
 * used; needing more than that past the block's end means the decisions
 * depend on bytes that do not exist. */
#define MAX_LOOKAHEAD 2

typedef struct
{
  TerrainCabacDecoder cabac;
  TerrainBitReader raw;
  const char *section;
  goffset a_offset;        /* absolute offset of byte 4 of the block */
} CodedStreams;

/* Reads N and sets up A (from byte 4 on, running into B) and B. */
static gboolean
open_streams (const TerrainReader    *block,
              CodedStreams           *streams,
              TerrainCodedBlockInfo  *info,
              GError                **error)
{
  TerrainReader reader = *block;
  const guint8 *rest;
  gsize size = terrain_reader_get_size (&reader);
  guint32 n;

  memset (info, 0, sizeof *info);

  if (!terrain_reader_read_u32 (&reader, &n, error))
    return FALSE;

  if (n < 4 || n > size)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "%s: stream B offset %u at byte offset %" G_GOFFSET_FORMAT " lies outside "
                   "the %" G_GSIZE_FORMAT "-byte block (stream A starts at byte 4, so the "
                   "offset must be 4..%" G_GSIZE_FORMAT ")",
                   block->section, n, terrain_reader_abs_offset (block), size, size);
      return FALSE;
    }

  if (!terrain_reader_peek_bytes (&reader, size - 4, &rest, error))
    return FALSE;

  streams->section = block->section;
  streams->a_offset = terrain_reader_abs_offset (&reader);
  terrain_cabac_decoder_init (&streams->cabac, rest, size - 4);
  terrain_bit_reader_init (&streams->raw, rest + (n - 4), size - n,
                           streams->a_offset + (n - 4), block->section);

  info->a_end = n;
  info->b_size = size - n;
  return TRUE;
}

static gboolean
close_streams (CodedStreams           *streams,
               TerrainCodedBlockInfo  *info,
               GError                **error)
{
  info->raw_bits = streams->raw.pos;
  info->cabac_loaded = terrain_cabac_decoder_bytes_loaded (&streams->cabac);
  info->cabac_overrun = streams->cabac.overrun;

  if (streams->cabac.overrun > MAX_LOOKAHEAD)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "%s: the arithmetic decoder ran %" G_GSIZE_FORMAT " bytes past the end of "
                   "the block at byte offset %" G_GOFFSET_FORMAT " (stream A and B hold too "
                   "few bits for the decisions)",
                   streams->section, streams->cabac.overrun,
                   streams->a_offset + (goffset) streams->cabac.size);
      return FALSE;
    }
  return TRUE;
}

static void
set_prefix_error (CodedStreams  *streams,
                  const char    *what,
                  guint          index,
                  guint          max,
                  GError       **error)
{
  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
               "%s: %s %u (x=%u, y=%u): unary length prefix longer than %u bins (stream A "
               "near byte offset %" G_GOFFSET_FORMAT ")",
               streams->section, what, index, index % S, index / S, max,
               streams->a_offset + (goffset) streams->cabac.pos);
}

/* Decodes a heights block row by row: the residuals of a row, then its
 * samples, handed to @func and/or stored in @heights. Only 132 running
 * column sums are kept, not the residuals. A decoding error is reported as
 * soon as it is met; a sample out of range only at the end, so that, as
 * when every residual was decoded before any sample was summed, a decoding
 * error anywhere comes first and then the first sample out of range. */
static inline gboolean
decode_heights (const TerrainReader    *block,
                gint32                 *heights,
                TerrainNodeRowFunc      func,
                gpointer                user_data,
                TerrainCodedBlockInfo  *info,
                GError                **error)
{
  CodedStreams streams;
  gint64 column[S], row[S];
  gint64 first = 0, bad_value = 0;
  guint bad = G_MAXUINT;

  if (!open_streams (block, &streams, info, error))
    return FALSE;

  for (guint y = 0; y < S; y++)
    {
      gint64 h = 0;

      for (guint x = 0; x < S; x++)
        {
          guint i = y * S + x;
          guint k = 0;
          guint32 suffix;
          guint64 v;
          gint64 r;

          while (terrain_cabac_decode (&streams.cabac, MIN (k, HEIGHT_PREFIX_CONTEXTS - 1)))
            {
              if (++k > TERRAIN_NODE_MAX_PREFIX)
                {
                  set_prefix_error (&streams, "height residual", i, TERRAIN_NODE_MAX_PREFIX,
                                    error);
                  return FALSE;
                }
            }
          info->bins += k + 1;

          if (!terrain_bit_reader_read (&streams.raw, k, &suffix, error))
            return FALSE;

          v = (G_GUINT64_CONSTANT (1) << k) - 1 + suffix;
          r = (v & 1) ? (gint64) ((v + 1) / 2) : -(gint64) (v / 2);

          /* The 2-D prefix sum: down the first column, across the first
           * row, then each later row: vertically (column[x] sums the
           * residuals of column x, seeded by the first row's), then
           * horizontally. */
          if (x == 0)
            first = h = first + r;
          else if (y == 0)
            h += (column[x] = r);
          else
            h += (column[x] += r);

          if (bad == G_MAXUINT && (h < -TERRAIN_NODE_HEIGHT_LIMIT ||
                                   h > TERRAIN_NODE_HEIGHT_LIMIT))
            {
              bad = i;
              bad_value = h;
            }
          row[x] = h;
          if (heights != NULL)
            heights[i] = (gint32) h;
        }
      if (func != NULL)
        func (y, row, user_data);
    }

  if (bad != G_MAXUINT)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "%s: sample %u (x=%u, y=%u) reconstructs to %" G_GINT64_FORMAT
                   ", outside -%d..%d",
                   block->section, bad, bad % S, bad / S, bad_value,
                   TERRAIN_NODE_HEIGHT_LIMIT, TERRAIN_NODE_HEIGHT_LIMIT);
      return FALSE;
    }

  return close_streams (&streams, info, error);
}

gboolean
terrain_node_decode_heights (const TerrainReader    *block,
                             gint32                 *heights,
                             TerrainCodedBlockInfo  *info,
                             GError                **error)
{
  g_return_val_if_fail (block != NULL && heights != NULL && info != NULL, FALSE);

  return decode_heights (block, heights, NULL, NULL, info, error);
}

gboolean
terrain_node_scan_heights (const TerrainReader    *block,
                           TerrainNodeRowFunc      func,
                           gpointer                user_data,
                           TerrainCodedBlockInfo  *info,
                           GError                **error)
{
  g_return_val_if_fail (block != NULL && func != NULL && info != NULL, FALSE);

  return decode_heights (block, NULL, func, user_data, info, error);
}

/* u32 N, A, B, tail. */
static GBytes *
assemble (GByteArray   *a,
          GByteArray   *b,
          const guint8 *tail,
          gsize         tail_size)
{
  GByteArray *out = g_byte_array_sized_new (4 + a->len + b->len + (guint) tail_size);
  guint8 n[4];

  terrain_put_le32 (n, 4 + a->len);
  g_byte_array_append (out, n, 4);
  g_byte_array_append (out, a->data, a->len);
  g_byte_array_append (out, b->data, b->len);
  if (tail_size > 0)
    g_byte_array_append (out, tail, (guint) tail_size);

  return g_byte_array_free_to_bytes (out);
}

static inline void
encode_unary (TerrainCabacEncoder *cabac,
              guint                k,
              guint                n_contexts)
{
  for (guint j = 0; j < k; j++)
    terrain_cabac_encode (cabac, MIN (j, n_contexts - 1), 1);
  terrain_cabac_encode (cabac, MIN (k, n_contexts - 1), 0);
}

GBytes *
terrain_node_encode_heights (const gint32  *heights,
                             const guint8  *tail,
                             gsize          tail_size,
                             GError       **error)
{
  g_autoptr(GByteArray) a = g_byte_array_sized_new (4096);
  g_autoptr(GByteArray) b = g_byte_array_sized_new (4096);
  TerrainCabacEncoder cabac;
  TerrainBitWriter raw;

  g_return_val_if_fail (heights != NULL, NULL);

  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    if (heights[i] < -TERRAIN_NODE_HEIGHT_LIMIT || heights[i] > TERRAIN_NODE_HEIGHT_LIMIT)
      {
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                     "TNLChunk heights: sample %u (x=%u, y=%u) is %d, outside the codable "
                     "range -%d..%d",
                     i, i % S, i / S, heights[i],
                     TERRAIN_NODE_HEIGHT_LIMIT, TERRAIN_NODE_HEIGHT_LIMIT);
        return NULL;
      }

  terrain_cabac_encoder_init (&cabac, a);
  terrain_bit_writer_init (&raw, b);

  for (guint y = 0; y < S; y++)
    for (guint x = 0; x < S; x++)
      {
        gint64 r = heights[y * S + x];
        guint64 v;
        guint k;

        /* Inverse of the 2-D prefix sum. */
        if (x > 0)
          r -= heights[y * S + x - 1];
        if (y > 0)
          r -= heights[(y - 1) * S + x];
        if (x > 0 && y > 0)
          r += heights[(y - 1) * S + x - 1];

        v = r > 0 ? (guint64) (2 * r - 1) : (guint64) (-2 * r);
        k = g_bit_storage (v + 1) - 1;
        g_assert (k <= TERRAIN_NODE_MAX_PREFIX);

        encode_unary (&cabac, k, HEIGHT_PREFIX_CONTEXTS);
        terrain_bit_writer_put (&raw, (guint32) (v + 1 - (G_GUINT64_CONSTANT (1) << k)), k);
      }

  terrain_cabac_encoder_finish (&cabac);
  terrain_bit_writer_flush (&raw);

  return assemble (a, b, tail, tail_size);
}

static gboolean
decode_rank (CodedStreams  *streams,
             guint8        *list,
             guint          count,
             guint          index,
             guint8        *symbol,
             guint64       *bins,
             GError       **error)
{
  guint k = 0;
  guint32 suffix, rank;

  while (terrain_cabac_decode (&streams->cabac, MIN (k, RANK_PREFIX_CONTEXTS - 1)))
    {
      /* Ranks are at most 256, so k is at most 8. */
      if (++k > 8)
        {
          set_prefix_error (streams, "sample", index, 8, error);
          return FALSE;
        }
    }
  *bins += k + 1;

  if (!terrain_bit_reader_read (&streams->raw, k, &suffix, error))
    return FALSE;

  rank = (1u << k) + suffix;
  if (rank > count)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "%s: sample %u (x=%u, y=%u): symbol rank %u exceeds the palette of %u "
                   "entries (raw bits near byte offset %" G_GOFFSET_FORMAT ")",
                   streams->section, index, index % S, index / S, rank, count,
                   streams->raw.base + (goffset) (streams->raw.pos / 8));
      return FALSE;
    }

  *symbol = terrain_node_rank_list_take (list, rank);
  return TRUE;
}

/* Decodes a raster block, storing the samples in @samples and/or handing
 * them to @func in the order they are decoded. */
static inline gboolean
decode_raster (const TerrainReader    *block,
               guint8                 *samples,
               TerrainNodeSampleFunc   func,
               gpointer                user_data,
               TerrainCodedBlockInfo  *info,
               GError                **error)
{
  const guint16 *order = terrain_hilbert_raster_order ();
  CodedStreams streams;
  guint8 list[TERRAIN_NODE_RASTER_MAX_RANKS];
  guint32 chunk_length, count;

  if (!open_streams (block, &streams, info, error))
    return FALSE;

  if (!terrain_bit_reader_read (&streams.raw, 16, &chunk_length, error) ||
      !terrain_bit_reader_read (&streams.raw, 16, &count, error))
    return FALSE;

  if (chunk_length == 0 || chunk_length > TERRAIN_NODE_SAMPLES)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s: chunk length %u at byte offset %" G_GOFFSET_FORMAT " (start of stream "
                   "B) must be 1..%u samples",
                   block->section, chunk_length, streams.raw.base, TERRAIN_NODE_SAMPLES);
      return FALSE;
    }
  if (count == 0 || count > TERRAIN_NODE_RASTER_MAX_RANKS)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s: palette count %u at byte offset %" G_GOFFSET_FORMAT " must be 1..%u",
                   block->section, count, streams.raw.base + 2, TERRAIN_NODE_RASTER_MAX_RANKS);
      return FALSE;
    }

  for (guint i = 0; i < count; i++)
    {
      guint32 value;

      if (!terrain_bit_reader_read (&streams.raw, 8, &value, error))
        return FALSE;
      info->palette[i] = list[i] = (guint8) value;
    }
  info->chunk_length = chunk_length;
  info->palette_count = count;

  for (guint start = 0; start < TERRAIN_NODE_SAMPLES; start += chunk_length)
    {
      guint end = MIN (start + chunk_length, TERRAIN_NODE_SAMPLES);

      info->chunks++;
      info->bins++;
      if (terrain_cabac_decode (&streams.cabac, UNIFORM_CONTEXT))
        {
          guint8 symbol;

          info->uniform_chunks++;
          if (!decode_rank (&streams, list, count, order[start], &symbol, &info->bins, error))
            return FALSE;
          for (guint i = start; i < end; i++)
            {
              if (samples != NULL)
                samples[order[i]] = symbol;
              if (func != NULL)
                func (order[i], symbol, user_data);
            }
        }
      else
        {
          for (guint i = start; i < end; i++)
            {
              guint8 symbol;

              if (!decode_rank (&streams, list, count, order[i], &symbol, &info->bins, error))
                return FALSE;
              if (samples != NULL)
                samples[order[i]] = symbol;
              if (func != NULL)
                func (order[i], symbol, user_data);
            }
        }
    }

  return close_streams (&streams, info, error);
}

gboolean
terrain_node_decode_raster (const TerrainReader    *block,
                            guint8                 *samples,
                            TerrainCodedBlockInfo  *info,
                            GError                **error)
{
  g_return_val_if_fail (block != NULL && samples != NULL && info != NULL, FALSE);

  return decode_raster (block, samples, NULL, NULL, info, error);
}

gboolean
terrain_node_scan_raster (const TerrainReader    *block,
                          TerrainNodeSampleFunc   func,
                          gpointer                user_data,
                          TerrainCodedBlockInfo  *info,
                          GError                **error)
{
  g_return_val_if_fail (block != NULL && func != NULL && info != NULL, FALSE);

  return decode_raster (block, NULL, func, user_data, info, error);
}

static void
encode_rank (TerrainCabacEncoder *cabac,
             TerrainBitWriter    *raw,
             guint8              *list,
             guint8              *position,
             guint8               symbol)
{
  guint rank = position[symbol] + 1u;
  guint k = g_bit_storage (rank) - 1;

  encode_unary (cabac, k, RANK_PREFIX_CONTEXTS);
  terrain_bit_writer_put (raw, rank - (1u << k), k);

  if (rank > 1)
    {
      guint8 other = list[rank / 2 - 1];

      terrain_node_rank_list_take (list, rank);
      position[symbol] = (guint8) (rank / 2 - 1);
      position[other] = (guint8) (rank - 1);
    }
}

/* Encodes a raster. @palette, when given, fixes the initial list order of
 * the values it holds (a re-encoded block keeps its palette order); values
 * it lacks follow, most frequent first, and values no sample uses are
 * dropped. */
GBytes *
terrain_node_encode_raster (const guint8 *samples,
                            const guint8 *palette,
                            guint         palette_count,
                            guint         chunk_length,
                            const guint8 *tail,
                            gsize         tail_size)
{
  const guint16 *order = terrain_hilbert_raster_order ();
  g_autoptr(GByteArray) a = g_byte_array_sized_new (1024);
  g_autoptr(GByteArray) b = g_byte_array_sized_new (1024);
  TerrainCabacEncoder cabac;
  TerrainBitWriter raw;
  guint histogram[256] = { 0 };
  gboolean listed[256] = { FALSE };
  guint8 list[256], position[256];
  guint count = 0;

  g_return_val_if_fail (samples != NULL, NULL);
  g_return_val_if_fail (palette != NULL || palette_count == 0, NULL);
  g_return_val_if_fail (chunk_length <= TERRAIN_NODE_SAMPLES, NULL);

  if (chunk_length == 0)
    chunk_length = 64;

  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    histogram[samples[i]]++;

  for (guint i = 0; i < palette_count; i++)
    if (histogram[palette[i]] > 0 && !listed[palette[i]])
      {
        listed[palette[i]] = TRUE;
        list[count++] = palette[i];
      }

  /* Remaining values by descending frequency, ties by value. */
  for (;;)
    {
      guint best = 256;

      for (guint v = 0; v < 256; v++)
        if (!listed[v] && histogram[v] > 0 && (best == 256 || histogram[v] > histogram[best]))
          best = v;
      if (best == 256)
        break;
      listed[best] = TRUE;
      list[count++] = (guint8) best;
    }

  terrain_cabac_encoder_init (&cabac, a);
  terrain_bit_writer_init (&raw, b);

  terrain_bit_writer_put (&raw, chunk_length, 16);
  terrain_bit_writer_put (&raw, count, 16);
  for (guint i = 0; i < count; i++)
    {
      terrain_bit_writer_put (&raw, list[i], 8);
      position[list[i]] = (guint8) i;
    }

  for (guint start = 0; start < TERRAIN_NODE_SAMPLES; start += chunk_length)
    {
      guint end = MIN (start + chunk_length, TERRAIN_NODE_SAMPLES);
      guint8 first = samples[order[start]];
      gboolean uniform = TRUE;

      for (guint i = start + 1; i < end && uniform; i++)
        uniform = samples[order[i]] == first;

      terrain_cabac_encode (&cabac, UNIFORM_CONTEXT, uniform);
      if (uniform)
        encode_rank (&cabac, &raw, list, position, first);
      else
        for (guint i = start; i < end; i++)
          encode_rank (&cabac, &raw, list, position, samples[order[i]]);
    }

  terrain_cabac_encoder_finish (&cabac);
  terrain_bit_writer_flush (&raw);

  return assemble (a, b, tail, tail_size);
}

static gsize
endpoint_bytes (TerrainBcFormat format)
{
  return format == TERRAIN_BC_FORMAT_BC1 ? 4 : 2;
}

void
terrain_node_texture_interleave (TerrainBcFormat  format,
                                 const guint8    *planar,
                                 guint8          *blocks)
{
  gsize e = endpoint_bytes (format), x = TERRAIN_BC_BLOCK_SIZE - e;
  const guint8 *indices = planar + TERRAIN_NODE_BC_BLOCKS * e;

  for (gsize i = 0; i < TERRAIN_NODE_BC_BLOCKS; i++)
    {
      memcpy (blocks + i * TERRAIN_BC_BLOCK_SIZE, planar + i * e, e);
      memcpy (blocks + i * TERRAIN_BC_BLOCK_SIZE + e, indices + i * x, x);
    }
}

void
terrain_node_texture_deinterleave (TerrainBcFormat  format,
                                   const guint8    *blocks,
                                   guint8          *planar)
{
  gsize e = endpoint_bytes (format), x = TERRAIN_BC_BLOCK_SIZE - e;
  guint8 *indices = planar + TERRAIN_NODE_BC_BLOCKS * e;

  for (gsize i = 0; i < TERRAIN_NODE_BC_BLOCKS; i++)
    {
      memcpy (planar + i * e, blocks + i * TERRAIN_BC_BLOCK_SIZE, e);
      memcpy (indices + i * x, blocks + i * TERRAIN_BC_BLOCK_SIZE + e, x);
    }
}

/* Decompresses a texture block into @planar (TERRAIN_NODE_TEXTURE_BYTES). */
static gboolean
decompress_texture (const TerrainReader  *block,
                    TerrainBcFormat       format,
                    guint8               *planar,
                    GError              **error)
{
  TerrainReader reader = *block;
  gsize size = terrain_reader_get_size (&reader);
  const guint8 *data;
  int n;

  if (size > (gsize) LZ4_compressBound (TERRAIN_NODE_TEXTURE_BYTES))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s: %" G_GSIZE_FORMAT " bytes of LZ4 data at byte offset %" G_GOFFSET_FORMAT
                   " exceed the largest possible encoding of %d bytes (%d)",
                   block->section, size, terrain_reader_abs_offset (&reader),
                   TERRAIN_NODE_TEXTURE_BYTES, LZ4_compressBound (TERRAIN_NODE_TEXTURE_BYTES));
      return FALSE;
    }
  if (!terrain_reader_peek_bytes (&reader, size, &data, error))
    return FALSE;

  n = LZ4_decompress_safe ((const char *) data, (char *) planar, (int) size,
                           TERRAIN_NODE_TEXTURE_BYTES);
  if (n != TERRAIN_NODE_TEXTURE_BYTES)
    {
      if (n < 0)
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                     "%s: the LZ4 block of %" G_GSIZE_FORMAT " bytes at byte offset %"
                     G_GOFFSET_FORMAT " is corrupt or decompresses to more than %d bytes",
                     block->section, size, terrain_reader_abs_offset (&reader),
                     TERRAIN_NODE_TEXTURE_BYTES);
      else
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                     "%s: the LZ4 block at byte offset %" G_GOFFSET_FORMAT " decompresses to "
                     "%d bytes; a planar %s tile is %d bytes (1,089 blocks)",
                     block->section, terrain_reader_abs_offset (&reader), n,
                     format == TERRAIN_BC_FORMAT_BC1 ? "BC1" : "BC4",
                     TERRAIN_NODE_TEXTURE_BYTES);
      return FALSE;
    }
  return TRUE;
}

gboolean
terrain_node_decode_texture (const TerrainReader  *block,
                             TerrainBcFormat       format,
                             guint8               *blocks,
                             GError              **error)
{
  guint8 planar[TERRAIN_NODE_TEXTURE_BYTES];

  g_return_val_if_fail (block != NULL && blocks != NULL, FALSE);

  if (!decompress_texture (block, format, planar, error))
    return FALSE;
  terrain_node_texture_interleave (format, planar, blocks);
  return TRUE;
}

gboolean
terrain_node_check_texture (const TerrainReader  *block,
                            TerrainBcFormat       format,
                            GError              **error)
{
  guint8 planar[TERRAIN_NODE_TEXTURE_BYTES];

  g_return_val_if_fail (block != NULL, FALSE);

  return decompress_texture (block, format, planar, error);
}

GBytes *
terrain_node_encode_texture (TerrainBcFormat  format,
                             const guint8    *blocks)
{
  guint8 planar[TERRAIN_NODE_TEXTURE_BYTES];
  int bound = LZ4_compressBound (TERRAIN_NODE_TEXTURE_BYTES);
  guint8 *out = g_malloc (bound);
  int n;

  terrain_node_texture_deinterleave (format, blocks, planar);
  n = LZ4_compress_default ((const char *) planar, (char *) out, TERRAIN_NODE_TEXTURE_BYTES,
                            bound);
  g_assert (n > 0);

  return g_bytes_new_take (g_realloc (out, n), n);
}
