/* terrain-node-codec-private.h: TNLChunk block codecs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "core/terrain-reader-private.h"
#include "core/terrain-bc.h"

G_BEGIN_DECLS

/*
 * Codecs of the blocks inside a TNLChunk (insomniac-terrain.md, "Block
 * coding"). Each works on one block's contents, without its u32 length
 * prefix, through a TerrainReader whose base offset and section name make
 * the errors point into the file.
 *
 * Coded blocks (0, 2-7 and the leaf's block 10):
 *
 *   u32 N | A: bytes 4 .. N-1 (CABAC) | B: bytes N .. end (raw bits, MSB first)
 *
 * B ends with bytes no decoder consumes (TERRAIN_NODE_B_TAIL of them in the
 * inspected files); the encoders append the tail they are given so that a
 * re-encoded block keeps the bytes it had.
 *
 * Where the specification leaves a detail open, these codecs fix it as
 * follows (our encoder and decoder agree; see docs/insomniac-terrain.md):
 *
 *  - Heights and snow: residual i in raster order (row-major, y down) is
 *    coded as a unary length k with contexts min(j, 15) for bin j (k ones,
 *    then a zero), k raw bits of suffix, v = 2^k - 1 + suffix, residual
 *    (v + 1) / 2 for odd v and -v / 2 for even v. The raster is the 2-D
 *    prefix sum of the residuals, computed down the first column, across the
 *    first row, then for each later row vertically (running column sums of
 *    the residuals, seeded by the first row's) and horizontally.
 *  - Rasters: B starts with the chunk length (16 bits), the palette count
 *    (16 bits, 1..256) and the palette (8 bits each). The 132x132 samples are
 *    visited along the clipped order-8 Hilbert curve in runs of chunk-length
 *    samples; each run starts with a decision on context 8, 1 for a uniform
 *    run (one symbol for the whole run). A symbol is a one-based rank in an
 *    adaptive list initialised to the palette: unary length k on contexts
 *    min(j, 7), k raw suffix bits, rank = 2^k + suffix; after use, a rank
 *    above one swaps with rank / 2.
 *  - Textures (blocks 1 and 8): a raw LZ4 block (no frame, no size) of
 *    8,712 bytes: 1,089 blocks in raster order of the 33x33 block grid, first
 *    every block's endpoint bytes (4 for BC1, 2 for BC4), then every block's
 *    index bytes (4 for BC1, 6 for BC4).
 */

#define TERRAIN_NODE_MAX_PREFIX       31
#define TERRAIN_NODE_RASTER_MAX_RANKS 256

typedef struct
{
  /* Coded blocks */
  guint32 a_end;            /* N: where B starts, relative to the block */
  gsize   b_size;
  guint64 raw_bits;         /* bits read from B */
  gsize   cabac_loaded;     /* bytes the arithmetic decoder loaded, from byte 4 */
  gsize   cabac_overrun;    /* zero bytes it read past the block's end */
  guint64 bins;             /* decisions decoded */

  /* Rasters */
  guint   chunk_length;
  guint   palette_count;
  guint8  palette[TERRAIN_NODE_RASTER_MAX_RANKS];
  guint   uniform_chunks;
  guint   chunks;
} TerrainCodedBlockInfo;

gboolean terrain_node_decode_heights  (const TerrainReader    *block,
                                       gint32                 *heights,
                                       TerrainCodedBlockInfo  *info,
                                       GError                **error);

/* The samples of a heights block, one row at a time (row y, 132 values),
 * without a buffer for the whole raster: for validation. */
typedef void (*TerrainNodeRowFunc) (guint          y,
                                    const gint64  *row,
                                    gpointer       user_data);

gboolean terrain_node_scan_heights    (const TerrainReader    *block,
                                       TerrainNodeRowFunc      func,
                                       gpointer                user_data,
                                       TerrainCodedBlockInfo  *info,
                                       GError                **error);
GBytes  *terrain_node_encode_heights  (const gint32           *heights,
                                       const guint8           *tail,
                                       gsize                   tail_size,
                                       GError                **error);

gboolean terrain_node_decode_raster   (const TerrainReader    *block,
                                       guint8                 *samples,
                                       TerrainCodedBlockInfo  *info,
                                       GError                **error);

/* The samples of a raster block in the order they are decoded (@index is
 * y * 132 + x), without a buffer for the raster: for validation. */
typedef void (*TerrainNodeSampleFunc) (guint     index,
                                       guint8    value,
                                       gpointer  user_data);

gboolean terrain_node_scan_raster     (const TerrainReader    *block,
                                       TerrainNodeSampleFunc   func,
                                       gpointer                user_data,
                                       TerrainCodedBlockInfo  *info,
                                       GError                **error);
GBytes  *terrain_node_encode_raster   (const guint8           *samples,
                                       const guint8           *palette,
                                       guint                   palette_count,
                                       guint                   chunk_length,
                                       const guint8           *tail,
                                       gsize                   tail_size);

/* The adaptive symbol list of rasters: returns the symbol at one-based
 * @rank and applies the swap rule. */
static inline guint8
terrain_node_rank_list_take (guint8 *list,
                             guint   rank)
{
  guint8 symbol = list[rank - 1];

  if (rank > 1)
    {
      list[rank - 1] = list[rank / 2 - 1];
      list[rank / 2 - 1] = symbol;
    }
  return symbol;
}

gboolean terrain_node_decode_texture  (const TerrainReader    *block,
                                       TerrainBcFormat         format,
                                       guint8                 *blocks,
                                       GError                **error);
/* Whether a texture block decodes, with a stack buffer for the tile. */
gboolean terrain_node_check_texture   (const TerrainReader    *block,
                                       TerrainBcFormat         format,
                                       GError                **error);
GBytes  *terrain_node_encode_texture  (TerrainBcFormat         format,
                                       const guint8           *blocks);

/* Planar <-> ordinary BC blocks, 1,089 blocks of 8 bytes. */
void     terrain_node_texture_interleave   (TerrainBcFormat  format,
                                            const guint8    *planar,
                                            guint8          *blocks);
void     terrain_node_texture_deinterleave (TerrainBcFormat  format,
                                            const guint8    *blocks,
                                            guint8          *planar);

G_END_DECLS
