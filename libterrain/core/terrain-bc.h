/* terrain-bc.h: BC1, BC2, BC3 and BC4 block compression
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <glib-object.h>

#include "terrain-version.h"
#include "terrain-image.h"

G_BEGIN_DECLS

/**
 * TERRAIN_BC_BLOCK_SIZE:
 *
 * Size in bytes of one BC1 or BC4 block, which covers 4x4 pixels.
 */
#define TERRAIN_BC_BLOCK_SIZE 8

/**
 * TERRAIN_BC_WIDE_BLOCK_SIZE:
 *
 * Size in bytes of one BC2 or BC3 block: 8 bytes of alpha, then a BC1
 * colour block.
 */
#define TERRAIN_BC_WIDE_BLOCK_SIZE 16

/**
 * TerrainBcFormat:
 * @TERRAIN_BC_FORMAT_BC1: BC1 (DXT1): two RGB565 endpoints (u16 little-endian
 *   each) and sixteen 2-bit indices (u32 little-endian, pixel `4 * row +
 *   column` at bits `2 * i`); decodes to RGBA
 * @TERRAIN_BC_FORMAT_BC4: BC4 (ATI1) unsigned: two 8-bit endpoints and sixteen
 *   3-bit indices (48 bits little-endian, pixel i at bits `3 * i`); decodes to
 *   one 8-bit channel
 *
 * The block-compressed image formats [func@Terrain.bc_decode_image] and
 * [func@Terrain.bc_encode_image] read and write whole (TNLChunk texture
 * blocks: insomniac-terrain.md, "Block coding"; field-notes.md, "BC
 * decoding"). DDS surfaces decode BC2 and BC3 blocks too
 * ([func@Terrain.bc3_decode_block]).
 */
typedef enum
{
  TERRAIN_BC_FORMAT_BC1,
  TERRAIN_BC_FORMAT_BC4,
} TerrainBcFormat;

TERRAIN_AVAILABLE_IN_ALL
void          terrain_bc1_decode_block  (const guint8        *block,
                                         guint8              *rgba,
                                         gsize                stride);
TERRAIN_AVAILABLE_IN_ALL
void          terrain_bc2_decode_block  (const guint8        *block,
                                         guint8              *rgba,
                                         gsize                stride);
TERRAIN_AVAILABLE_IN_ALL
void          terrain_bc3_decode_block  (const guint8        *block,
                                         guint8              *rgba,
                                         gsize                stride);
TERRAIN_AVAILABLE_IN_ALL
void          terrain_bc4_decode_block  (const guint8        *block,
                                         guint8              *pixels,
                                         gsize                stride);
TERRAIN_AVAILABLE_IN_ALL
void          terrain_bc1_encode_block  (const guint8        *rgba,
                                         gsize                stride,
                                         guint8              *block);
TERRAIN_AVAILABLE_IN_ALL
void          terrain_bc4_encode_block  (const guint8        *pixels,
                                         gsize                stride,
                                         guint8              *block);
TERRAIN_AVAILABLE_IN_ALL
TerrainImage *terrain_bc_decode_image   (TerrainBcFormat      format,
                                         const guint8        *blocks,
                                         gsize                size,
                                         guint                width,
                                         guint                height,
                                         GError             **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes       *terrain_bc_encode_image   (TerrainBcFormat      format,
                                         TerrainImage        *image,
                                         GError             **error);

G_END_DECLS
