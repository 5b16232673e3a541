/* terrain-tnt-preview.h: kbot-style map previews with feature sprites and start positions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "terrain-version.h"
#include "core/terrain-image.h"
#include "terrain-feature-catalog.h"
#include "terrain-game-files.h"
#include "terrain-ota-file.h"
#include "terrain-palette.h"
#include "terrain-tnt-map.h"

G_BEGIN_DECLS

/**
 * TerrainTntPreviewFlags:
 * @TERRAIN_TNT_PREVIEW_DEFAULT: feature sprites, resource marks and start
 *   positions over the tiles
 * @TERRAIN_TNT_PREVIEW_HEIGHT_SHADING: darken low ground and lighten high
 *   ground, cell by cell
 * @TERRAIN_TNT_PREVIEW_WATER_SHADING: tint the cells below the sea level
 *   blue, deeper ones more
 * @TERRAIN_TNT_PREVIEW_NO_FEATURES: leave the feature sprites out
 * @TERRAIN_TNT_PREVIEW_NO_RESOURCES: leave the metal and geothermal marks out
 * @TERRAIN_TNT_PREVIEW_NO_STARTS: leave the start positions out
 *
 * What [method@Terrain.TntMap.render_preview] draws.
 */
typedef enum /*< flags >*/
{
  TERRAIN_TNT_PREVIEW_DEFAULT = 0,
  TERRAIN_TNT_PREVIEW_HEIGHT_SHADING = 1 << 0,
  TERRAIN_TNT_PREVIEW_WATER_SHADING = 1 << 1,
  TERRAIN_TNT_PREVIEW_NO_FEATURES = 1 << 2,
  TERRAIN_TNT_PREVIEW_NO_RESOURCES = 1 << 3,
  TERRAIN_TNT_PREVIEW_NO_STARTS = 1 << 4,
} TerrainTntPreviewFlags;

/**
 * TerrainTntPreviewStats:
 * @sprites: placed features drawn with their GAF sprite
 * @unresolved: placed features drawn as an outline of their footprint: no
 *   definition in the catalogue, no `filename`, or no readable GAF entry
 * @metal: metal marks drawn (features whose definition has `metal` above 0)
 * @geothermal: geothermal marks drawn (features with `geothermal=1`)
 * @starts: start positions drawn
 *
 * What a preview drew.
 */
typedef struct
{
  guint sprites;
  guint unresolved;
  guint metal;
  guint geothermal;
  guint starts;
} TerrainTntPreviewStats;

TERRAIN_AVAILABLE_IN_ALL
TerrainImage *terrain_tnt_map_render_preview (TerrainTntMap          *self,
                                              TerrainPalette         *palette,
                                              TerrainOtaFile         *ota,
                                              guint                   schema,
                                              TerrainGameFiles       *files,
                                              TerrainFeatureCatalog  *catalog,
                                              TerrainTntPreviewFlags  flags,
                                              TerrainTntPreviewStats *stats,
                                              GError                **error);

G_END_DECLS
