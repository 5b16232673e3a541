/* terrain-tnt-lint.h: map-design checks for Total Annihilation maps
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <json-glib/json-glib.h>

#include "terrain-version.h"
#include "terrain-feature-catalog.h"
#include "terrain-ota-file.h"
#include "terrain-tnt-map.h"

G_BEGIN_DECLS

/**
 * TERRAIN_TNT_LINT_METAL_RANGE:
 *
 * How far, in 32-pixel tiles, a start position may be from the nearest
 * metal-producing feature before `tnt.metal-near-start` reports it (kbot's
 * `MetalProximityTiles`).
 */
#define TERRAIN_TNT_LINT_METAL_RANGE 24

/**
 * TERRAIN_TNT_LINT_CLIFF:
 *
 * Height difference between neighbouring attribute cells above which
 * `tnt.height-cliffs` counts a cliff edge (kbot's
 * `HeightDiscontinuityThreshold`).
 */
#define TERRAIN_TNT_LINT_CLIFF 32

/**
 * TERRAIN_TNT_LINT_ISLAND_CELLS:
 *
 * Passable cells unreachable from every start at which `tnt.void-islands`
 * reports them (kbot's `VoidIslandsTolerance`).
 */
#define TERRAIN_TNT_LINT_ISLAND_CELLS 20

TERRAIN_AVAILABLE_IN_ALL
GPtrArray *terrain_tnt_lint              (TerrainTntMap         *map,
                                          TerrainOtaFile        *ota,
                                          TerrainFeatureCatalog *catalog);
TERRAIN_AVAILABLE_IN_ALL
JsonNode  *terrain_tnt_lint_to_sarif     (GPtrArray             *issues,
                                          const char            *artifact_uri);
TERRAIN_AVAILABLE_IN_ALL
const char * const *
           terrain_tnt_lint_get_rules    (void);
TERRAIN_AVAILABLE_IN_ALL
const char *terrain_tnt_lint_describe_rule (const char          *rule);

G_END_DECLS
