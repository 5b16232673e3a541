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

/* Import */
TERRAIN_AVAILABLE_IN_ALL
TerrainCommand *terrain_tnt_edit_new_import_image       (TerrainTntMap            *map,
                                                         TerrainImage             *image,
                                                         TerrainPalette           *palette,
                                                         TerrainDither             dither,
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
