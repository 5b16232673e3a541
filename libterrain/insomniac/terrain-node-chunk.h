/* terrain-node-chunk.h: Insomniac TNLChunk bodies
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "core/terrain-document.h"
#include "core/terrain-image.h"
#include "core/terrain-limits.h"

G_BEGIN_DECLS

/**
 * TERRAIN_NODE_SIDE:
 *
 * Side of every TNLChunk raster in samples: a 128-sample core plus four
 * samples shared with the +x and +y neighbours (insomniac-terrain.md,
 * "Block coding").
 */
#define TERRAIN_NODE_SIDE 132

/**
 * TERRAIN_NODE_SAMPLES:
 *
 * Samples in a TNLChunk raster: 132 x 132 = 17,424, row-major, row along y.
 */
#define TERRAIN_NODE_SAMPLES (TERRAIN_NODE_SIDE * TERRAIN_NODE_SIDE)

/**
 * TERRAIN_NODE_CORE_SIDE:
 *
 * Side of a node's core in samples; a node's neighbour starts this many
 * samples further along x or y.
 */
#define TERRAIN_NODE_CORE_SIDE 128

/**
 * TERRAIN_NODE_EDGE_SAMPLES:
 *
 * Width of the strip a node shares with each of its +x and +y neighbours:
 * samples 128..131 of a node are samples 0..3 of its neighbour.
 */
#define TERRAIN_NODE_EDGE_SAMPLES 4

/**
 * TERRAIN_NODE_SAMPLE_ORIGIN:
 *
 * The node's physical corner is sample (2, 2) of its raster, not (0, 0)
 * (insomniac-terrain.md, "Block coding").
 */
#define TERRAIN_NODE_SAMPLE_ORIGIN 2

/**
 * TERRAIN_NODE_BC_BLOCKS:
 *
 * BC blocks in a texture tile: 33 x 33 blocks of 4 x 4 pixels cover the
 * 132 x 132 raster.
 */
#define TERRAIN_NODE_BC_BLOCKS 1089

/**
 * TERRAIN_NODE_TEXTURE_BYTES:
 *
 * Decompressed size of a texture block: 1,089 blocks of 8 bytes.
 */
#define TERRAIN_NODE_TEXTURE_BYTES (TERRAIN_NODE_BC_BLOCKS * 8)

/**
 * TERRAIN_NODE_B_TAIL:
 *
 * Bytes at the end of a coded block's raw stream B that no decoder
 * consumes; they are kept as read, and a new block gets zeros.
 */
#define TERRAIN_NODE_B_TAIL 8

/**
 * TERRAIN_NODE_HEIGHT_LIMIT:
 *
 * Largest magnitude of a decoded height (or snow) value that libterrain
 * decodes and encodes: 2^28 - 1.
 */
#define TERRAIN_NODE_HEIGHT_LIMIT ((1 << 28) - 1)

/**
 * TERRAIN_NODE_CHUNK_MAGIC:
 *
 * The u16 at byte offset 5 of every TNLChunk.
 */
#define TERRAIN_NODE_CHUNK_MAGIC 0xFEED

/**
 * TERRAIN_NODE_CHUNK_VERSION:
 *
 * The version in bits 0..9 of a TNLChunk tag.
 */
#define TERRAIN_NODE_CHUNK_VERSION 0x14

/**
 * TERRAIN_NODE_CHUNK_LEAF:
 *
 * Bit 15 of a TNLChunk tag: the chunk is a leaf and has a tenth block.
 */
#define TERRAIN_NODE_CHUNK_LEAF 0x8000

/**
 * TerrainNodeBlock:
 * @TERRAIN_NODE_BLOCK_HEIGHTS: block 0: height residuals, decoded to 132 x 132
 *   signed heights
 * @TERRAIN_NODE_BLOCK_COLOUR: block 1: LZ4 planar BC1 far colour (t17)
 * @TERRAIN_NODE_BLOCK_MATERIAL: block 2: material ID raster (low byte of t16)
 * @TERRAIN_NODE_BLOCK_REGION: block 3: region and flags (high byte of t16; the
 *   low nibble is the region)
 * @TERRAIN_NODE_BLOCK_GRASS_WEIGHT: block 4: grass weight (0x60 everywhere in
 *   the inspected world)
 * @TERRAIN_NODE_BLOCK_GRASS_GROUP: block 5: grass group override; 0xFE uses the
 *   material's group
 * @TERRAIN_NODE_BLOCK_ZERO: block 6: a raster that is zero everywhere
 * @TERRAIN_NODE_BLOCK_T18: block 7: the third channel of t18
 * @TERRAIN_NODE_BLOCK_OCCLUSION: block 8: LZ4 planar BC4 occlusion (t19)
 * @TERRAIN_NODE_BLOCK_SNOW: leaf block 10 (the tenth block): snow depth,
 *   height-coded, in 1/255 metres
 *
 * The blocks of a TNLChunk in file order (insomniac-terrain.md, "TerrainNodeLayer
 * and TNLChunk"). Blocks 0, 2..7 and the snow block are CABAC-coded; 1 and 8
 * are LZ4-compressed planar BC textures.
 */
typedef enum
{
  TERRAIN_NODE_BLOCK_HEIGHTS,
  TERRAIN_NODE_BLOCK_COLOUR,
  TERRAIN_NODE_BLOCK_MATERIAL,
  TERRAIN_NODE_BLOCK_REGION,
  TERRAIN_NODE_BLOCK_GRASS_WEIGHT,
  TERRAIN_NODE_BLOCK_GRASS_GROUP,
  TERRAIN_NODE_BLOCK_ZERO,
  TERRAIN_NODE_BLOCK_T18,
  TERRAIN_NODE_BLOCK_OCCLUSION,
  TERRAIN_NODE_BLOCK_SNOW,
} TerrainNodeBlock;

/**
 * TerrainNodeEdge:
 * @TERRAIN_NODE_EDGE_X: the neighbour at +x (next column)
 * @TERRAIN_NODE_EDGE_Y: the neighbour at +y (next row)
 *
 * Which neighbour [method@Terrain.NodeChunk.compare_edge] checks.
 */
typedef enum
{
  TERRAIN_NODE_EDGE_X,
  TERRAIN_NODE_EDGE_Y,
} TerrainNodeEdge;

#define TERRAIN_TYPE_NODE_CHUNK (terrain_node_chunk_get_type ())

/**
 * TerrainNodeChunk:
 *
 * One detailed terrain tile of an Insomniac open world (a TNLChunk body,
 * `.tnlc`; insomniac-terrain.md, "TerrainNodeLayer and TNLChunk"): byte 1,
 * the body length minus 5, 0xFEED, a tag (version 0x14, flags 0x1C00, bit 15
 * for leaves), nine length-prefixed blocks, two f32 height bounds, a 32-byte
 * material mask and, for leaves, a tenth block.
 *
 * Loading checks the framing only; each block is decoded the first time it
 * is asked for, and [method@Terrain.Document.validate] decodes them all.
 * Edited blocks are re-encoded when the chunk is saved (the height bounds
 * and the material mask follow the edit); every other byte is written back
 * as read.
 */
TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainNodeChunk, terrain_node_chunk, TERRAIN, NODE_CHUNK, TerrainDocument)

TERRAIN_AVAILABLE_IN_ALL
TerrainNodeChunk *terrain_node_chunk_new_from_bytes  (GBytes               *bytes,
                                                      const TerrainLimits  *limits,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainNodeChunk *terrain_node_chunk_new             (gboolean              leaf);
TERRAIN_AVAILABLE_IN_ALL
guint16        terrain_node_chunk_get_tag            (TerrainNodeChunk     *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_node_chunk_is_leaf            (TerrainNodeChunk     *self);
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_node_chunk_get_n_blocks       (TerrainNodeChunk     *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_node_chunk_get_block_span     (TerrainNodeChunk     *self,
                                                      TerrainNodeBlock      block,
                                                      gsize                *offset,
                                                      gsize                *size);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_node_chunk_get_height_bounds  (TerrainNodeChunk     *self,
                                                      float                *min,
                                                      float                *max);
TERRAIN_AVAILABLE_IN_ALL
const guint8  *terrain_node_chunk_get_material_mask  (TerrainNodeChunk     *self);
TERRAIN_AVAILABLE_IN_ALL
gint           terrain_node_chunk_get_level          (TerrainNodeChunk     *self);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_node_chunk_set_level          (TerrainNodeChunk     *self,
                                                      gint                  level);
TERRAIN_AVAILABLE_IN_ALL
gint           terrain_node_chunk_guess_level        (TerrainNodeChunk     *self,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
double         terrain_node_height_scale             (guint                 level);

TERRAIN_AVAILABLE_IN_ALL
const gint32  *terrain_node_chunk_get_heights        (TerrainNodeChunk     *self,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_node_chunk_set_heights        (TerrainNodeChunk     *self,
                                                      const gint32         *heights,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_node_chunk_get_world_height   (TerrainNodeChunk     *self,
                                                      guint                 x,
                                                      guint                 y,
                                                      double               *metres,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
const guint8  *terrain_node_chunk_get_raster         (TerrainNodeChunk     *self,
                                                      TerrainNodeBlock      block,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_node_chunk_set_raster         (TerrainNodeChunk     *self,
                                                      TerrainNodeBlock      block,
                                                      const guint8         *samples,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
const gint32  *terrain_node_chunk_get_snow_depth     (TerrainNodeChunk     *self,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_node_chunk_set_snow_depth     (TerrainNodeChunk     *self,
                                                      const gint32         *depth,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
const guint8  *terrain_node_chunk_get_texture_blocks (TerrainNodeChunk     *self,
                                                      TerrainNodeBlock      block,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_node_chunk_set_texture_blocks (TerrainNodeChunk     *self,
                                                      TerrainNodeBlock      block,
                                                      const guint8         *blocks,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainImage  *terrain_node_chunk_render_texture     (TerrainNodeChunk     *self,
                                                      TerrainNodeBlock      block,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_node_chunk_set_texture        (TerrainNodeChunk     *self,
                                                      TerrainNodeBlock      block,
                                                      TerrainImage         *image,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainImage  *terrain_node_chunk_export_heights     (TerrainNodeChunk     *self,
                                                      gint32               *offset,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_node_chunk_compare_edge       (TerrainNodeChunk     *self,
                                                      TerrainNodeChunk     *neighbour,
                                                      TerrainNodeEdge       edge,
                                                      guint                *mismatches,
                                                      GError              **error);

G_END_DECLS
