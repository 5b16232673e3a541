/* terrain-floor-height-data.h: Insomniac FloorHeightData bodies
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "core/terrain-document.h"
#include "core/terrain-limits.h"

G_BEGIN_DECLS

/**
 * TERRAIN_FLOOR_HEADER_SIZE:
 *
 * Bytes before the first block: a stored u32 (1), the f32 cell side and a
 * stored byte (0).
 */
#define TERRAIN_FLOOR_HEADER_SIZE 9

/**
 * TERRAIN_FLOOR_TRAILER_SIZE:
 *
 * Bytes after the last block: zero u32, f32 height scale, an unnamed f32,
 * f32 x and y origin, f32 stored z origin, zero u32, u32 width and height in
 * cells, and 15 further bytes.
 */
#define TERRAIN_FLOOR_TRAILER_SIZE 51

/**
 * TERRAIN_FLOOR_BLOCK_SIZE:
 *
 * Size of a block of 4x4 cells: u16 low endpoint, u16 high endpoint, u32 of
 * sixteen two-bit indices.
 */
#define TERRAIN_FLOOR_BLOCK_SIZE 8

#define TERRAIN_TYPE_FLOOR_HEIGHT_DATA (terrain_floor_height_data_get_type ())

/**
 * TerrainFloorHeightData:
 *
 * The whole-world floor grid of an Insomniac open world (a FloorHeightData
 * body, `.fhd`; insomniac-terrain.md, "FloorHeightData"): a 9-byte header,
 * blocks of 4x4 height words and a 51-byte trailer. The word of a cell is
 * lo + (hi - lo) x index / 3 (integer division); blocks and cells run
 * row-major with row along y. World heights are words times the trailer's
 * height scale (metres per word), relative to an unresolved vertical origin.
 *
 * The grid (8192 x 8192 cells for a whole world) is decoded on demand, one
 * region at a time. An edited region is re-encoded block by block; blocks
 * whose words do not change keep their bytes, so an unedited body writes
 * back byte for byte. An empty body (cell side 0, no blocks) is a 0 x 0
 * grid.
 */
TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainFloorHeightData, terrain_floor_height_data, TERRAIN,
                      FLOOR_HEIGHT_DATA, TerrainDocument)

TERRAIN_AVAILABLE_IN_ALL
TerrainFloorHeightData *terrain_floor_height_data_new_from_bytes (GBytes               *bytes,
                                                                  const TerrainLimits  *limits,
                                                                  GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainFloorHeightData *terrain_floor_height_data_new            (guint                 width,
                                                                  guint                 height,
                                                                  float                 cell_side,
                                                                  GError              **error);
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_floor_height_data_get_width        (TerrainFloorHeightData *self);
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_floor_height_data_get_height       (TerrainFloorHeightData *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_floor_height_data_is_empty         (TerrainFloorHeightData *self);
TERRAIN_AVAILABLE_IN_ALL
float          terrain_floor_height_data_get_cell_side    (TerrainFloorHeightData *self);
TERRAIN_AVAILABLE_IN_ALL
float          terrain_floor_height_data_get_height_scale (TerrainFloorHeightData *self);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_floor_height_data_get_origin       (TerrainFloorHeightData *self,
                                                           float                  *x,
                                                           float                  *y,
                                                           float                  *z);
TERRAIN_AVAILABLE_IN_ALL
const guint8  *terrain_floor_height_data_get_trailer      (TerrainFloorHeightData *self);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_floor_height_data_get_block        (TerrainFloorHeightData *self,
                                                           guint                   block_x,
                                                           guint                   block_y,
                                                           guint16                *lo,
                                                           guint16                *hi,
                                                           guint32                *indices);
TERRAIN_AVAILABLE_IN_ALL
guint16        terrain_floor_height_data_get_word         (TerrainFloorHeightData *self,
                                                           guint                   x,
                                                           guint                   y);
TERRAIN_AVAILABLE_IN_ALL
double         terrain_floor_height_data_get_world_height (TerrainFloorHeightData *self,
                                                           guint                   x,
                                                           guint                   y);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_floor_height_data_get_region       (TerrainFloorHeightData *self,
                                                           guint                   x,
                                                           guint                   y,
                                                           guint                   width,
                                                           guint                   height,
                                                           guint16                *words);
TERRAIN_AVAILABLE_IN_ALL
guint16       *terrain_floor_height_data_dup_region       (TerrainFloorHeightData *self,
                                                           guint                   x,
                                                           guint                   y,
                                                           guint                   width,
                                                           guint                   height,
                                                           gsize                  *n_words);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_floor_height_data_set_region       (TerrainFloorHeightData *self,
                                                           guint                   x,
                                                           guint                   y,
                                                           guint                   width,
                                                           guint                   height,
                                                           const guint16          *words);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_floor_block_decode                 (guint16                 lo,
                                                           guint16                 hi,
                                                           guint32                 indices,
                                                           guint16                *words);
TERRAIN_AVAILABLE_IN_ALL
guint64        terrain_floor_block_encode                 (const guint16          *words,
                                                           guint16                *lo,
                                                           guint16                *hi,
                                                           guint32                *indices);

G_END_DECLS
