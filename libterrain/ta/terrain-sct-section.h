/* terrain-sct-section.h
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
#include "terrain-palette.h"

G_BEGIN_DECLS

/**
 * TERRAIN_SCT_PREVIEW_SIDE:
 *
 * Side in pixels of the palette-indexed preview every section carries.
 */
#define TERRAIN_SCT_PREVIEW_SIDE 128

/**
 * TERRAIN_SCT_HEADER_SIZE:
 *
 * Size in bytes of the SCT header: seven little-endian u32 words (version,
 * preview offset, tile count, tile graphics offset, width, height, tile index
 * offset).
 */
#define TERRAIN_SCT_HEADER_SIZE 28

/**
 * TERRAIN_SCT_TILE_PIXELS:
 *
 * Side of a tile in pixels; one tile-grid cell is one tile.
 */
#define TERRAIN_SCT_TILE_PIXELS 32

/**
 * TERRAIN_SCT_TILE_BYTES:
 *
 * Size of one tile's graphics: 32 x 32 palette indices.
 */
#define TERRAIN_SCT_TILE_BYTES 1024

/**
 * TerrainSctBlock:
 * @TERRAIN_SCT_BLOCK_HEADER: the 28-byte header
 * @TERRAIN_SCT_BLOCK_PREVIEW: the 128 x 128 preview
 * @TERRAIN_SCT_BLOCK_TILES: tile graphics, tile_count x 1024 bytes
 * @TERRAIN_SCT_BLOCK_TILE_MAP: u16 tile indices, width x height
 * @TERRAIN_SCT_BLOCK_HEIGHTS: height records, (2 width) x (2 height), 8 bytes
 *   each in version 2 and 4 in version 3, right after the tile map
 *
 * The blocks of an SCT file (tnt-sct.md, "SCT sections"). The header
 * points at the preview, the tile graphics and the tile index grid; their
 * order in the file varies between writers.
 */
typedef enum
{
  TERRAIN_SCT_BLOCK_HEADER,
  TERRAIN_SCT_BLOCK_PREVIEW,
  TERRAIN_SCT_BLOCK_TILES,
  TERRAIN_SCT_BLOCK_TILE_MAP,
  TERRAIN_SCT_BLOCK_HEIGHTS,
} TerrainSctBlock;

#define TERRAIN_TYPE_SCT_SECTION (terrain_sct_section_get_type ())

/**
 * TerrainSctSection:
 *
 * A Total Annihilation map-editor section (`.sct`, versions 2 and 3): a small
 * tile grid with its tile graphics, a height grid of twice its width and
 * height, and a 128x128 preview (tnt-sct.md, "SCT sections").
 *
 * Sections read lazily from the bytes they were loaded from and write back
 * byte for byte; edits of tile indices and heights change only the bytes
 * they concern.
 */

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainSctSection, terrain_sct_section, TERRAIN, SCT_SECTION, TerrainDocument)

TERRAIN_AVAILABLE_IN_ALL
TerrainSctSection *terrain_sct_section_new_from_bytes (GBytes               *bytes,
                                                       const TerrainLimits  *limits,
                                                       GError              **error);
TERRAIN_AVAILABLE_IN_ALL
guint32        terrain_sct_section_get_version      (TerrainSctSection  *self);
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_sct_section_get_width        (TerrainSctSection  *self);
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_sct_section_get_height       (TerrainSctSection  *self);
TERRAIN_AVAILABLE_IN_ALL
gsize          terrain_sct_section_get_record_size  (TerrainSctSection  *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_sct_section_get_block_span   (TerrainSctSection  *self,
                                                     TerrainSctBlock     block,
                                                     gsize              *offset,
                                                     gsize              *size);
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_sct_section_get_n_tiles      (TerrainSctSection  *self);
TERRAIN_AVAILABLE_IN_ALL
const guint8  *terrain_sct_section_get_tile         (TerrainSctSection  *self,
                                                     guint               index);
TERRAIN_AVAILABLE_IN_ALL
guint16        terrain_sct_section_get_tile_index   (TerrainSctSection  *self,
                                                     guint               column,
                                                     guint               row);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_sct_section_set_tile_index   (TerrainSctSection  *self,
                                                     guint               column,
                                                     guint               row,
                                                     guint16             tile);
TERRAIN_AVAILABLE_IN_ALL
guint8         terrain_sct_section_get_cell_height  (TerrainSctSection  *self,
                                                     guint               x,
                                                     guint               y);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_sct_section_set_cell_height  (TerrainSctSection  *self,
                                                     guint               x,
                                                     guint               y,
                                                     guint8              height);
TERRAIN_AVAILABLE_IN_ALL
const guint8  *terrain_sct_section_get_height_record (TerrainSctSection *self,
                                                      guint              x,
                                                      guint              y,
                                                      gsize             *size);
TERRAIN_AVAILABLE_IN_ALL
const guint8  *terrain_sct_section_get_preview      (TerrainSctSection  *self);
TERRAIN_AVAILABLE_IN_ALL
TerrainImage  *terrain_sct_section_render           (TerrainSctSection  *self,
                                                     TerrainPalette     *palette,
                                                     GError            **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainImage  *terrain_sct_section_render_preview   (TerrainSctSection  *self,
                                                     TerrainPalette     *palette,
                                                     GError            **error);

G_END_DECLS
