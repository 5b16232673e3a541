/* terrain-tnt-image.h: TNT images in and out
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "core/terrain-command.h"
#include "core/terrain-image.h"
#include "terrain-palette.h"
#include "terrain-tnt-map.h"

G_BEGIN_DECLS

/**
 * TerrainTntImportFlags:
 * @TERRAIN_TNT_IMPORT_NONE: build a fresh tile set: the picture's distinct
 *   tiles in order of first appearance, row by row
 * @TERRAIN_TNT_IMPORT_KEEP_TILES: keep the map's tile set as it is and its
 *   tile map where the picture did not change: a position whose picture
 *   tile shows the same colours as its current tile keeps its entry,
 *   another reuses the first tile of the set with its colours, and only
 *   tiles the set lacks are appended (tiles compare by colour, since a
 *   palette may hold a colour at two indices).
 *   Re-importing an exported picture then changes nothing, and touching up
 *   part of it changes only those positions (and appends their tiles).
 *
 * Options of [ctor@Terrain.TntEdit.new_import_image].
 */
typedef enum /*< flags >*/
{
  TERRAIN_TNT_IMPORT_NONE = 0,
  TERRAIN_TNT_IMPORT_KEEP_TILES = 1 << 0,
} TerrainTntImportFlags;

/* Import */
TERRAIN_AVAILABLE_IN_ALL
TerrainCommand *terrain_tnt_edit_new_import_image       (TerrainTntMap            *map,
                                                         TerrainImage             *image,
                                                         TerrainPalette           *palette,
                                                         TerrainDither             dither,
                                                         TerrainTntImportFlags     flags,
                                                         GError                  **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainCommand *terrain_tnt_edit_new_import_heightmap   (TerrainTntMap            *map,
                                                         TerrainImage             *image,
                                                         GError                  **error);

/* Minimap */
TERRAIN_AVAILABLE_IN_ALL
guint8         *terrain_tnt_map_compute_minimap         (TerrainTntMap            *self,
                                                         TerrainPalette           *palette,
                                                         guint                     width,
                                                         guint                     height);
TERRAIN_AVAILABLE_IN_ALL
GBytes         *terrain_tnt_map_compute_minimap_bytes   (TerrainTntMap            *self,
                                                         TerrainPalette           *palette,
                                                         guint                     width,
                                                         guint                     height);
TERRAIN_AVAILABLE_IN_ALL
TerrainCommand *terrain_tnt_edit_new_regenerate_minimap (TerrainTntMap            *map,
                                                         TerrainPalette           *palette);

/* Export */
TERRAIN_AVAILABLE_IN_ALL
TerrainImage   *terrain_tnt_map_render_features         (TerrainTntMap            *self,
                                                         TerrainPalette           *palette,
                                                         TerrainTntFootprintFunc   footprint_func,
                                                         gpointer                  user_data,
                                                         guint                     cell_pixels,
                                                         GError                  **error);

G_END_DECLS
