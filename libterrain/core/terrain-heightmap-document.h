/* terrain-heightmap-document.h: plain heightmaps (greyscale PNG, SRTM .hgt,
 * raw16) opened as documents
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "terrain-document.h"
#include "terrain-heightfield.h"
#include "terrain-limits.h"

G_BEGIN_DECLS

/**
 * TERRAIN_HEIGHTMAP_SRTM3_SIDE:
 *
 * Samples on a side of an SRTM3 (3 arc-second, about 90 m) `.hgt` tile.
 */
#define TERRAIN_HEIGHTMAP_SRTM3_SIDE 1201

/**
 * TERRAIN_HEIGHTMAP_SRTM1_SIDE:
 *
 * Samples on a side of an SRTM1 (1 arc-second, about 30 m) `.hgt` tile.
 */
#define TERRAIN_HEIGHTMAP_SRTM1_SIDE 3601

#define TERRAIN_TYPE_HEIGHTMAP_DOCUMENT (terrain_heightmap_document_get_type ())

/**
 * TerrainHeightmapDocument:
 *
 * A plain heightmap opened as a document (%TERRAIN_FORMAT_HEIGHTMAP): a
 * greyscale PNG, an SRTM `.hgt` tile or a headerless raw16 grid, read into
 * a [class@Terrain.Heightfield] when first needed (opening reads only the
 * header).
 *
 * The document is read-only: it has no edits, and saving it writes back the
 * bytes it was read from, unchanged. It describes the grid (`terrain info`),
 * reports what matters for building terrain from it (filled voids, a size
 * that is not a square of 2^N+1 samples), draws it as shaded relief and
 * exports its samples as a 16-bit grid, so the CLI and the editor show it
 * like any other terrain file.
 */
TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainHeightmapDocument, terrain_heightmap_document, TERRAIN,
                      HEIGHTMAP_DOCUMENT, TerrainDocument)

TERRAIN_AVAILABLE_IN_ALL
TerrainHeightmapDocument *
terrain_heightmap_document_new_from_bytes  (GBytes                   *bytes,
                                            const TerrainLimits      *limits,
                                            GError                  **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightmapDocument *
terrain_heightmap_document_new_for_format  (GBytes                   *bytes,
                                            TerrainHeightmapFormat    format,
                                            const TerrainLimits      *limits,
                                            GError                  **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightmapFormat
terrain_heightmap_document_get_source      (TerrainHeightmapDocument *self);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightfield *
terrain_heightmap_document_get_heightfield (TerrainHeightmapDocument *self);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightfield *
terrain_heightmap_document_decode_heightfield (TerrainHeightmapDocument  *self,
                                               GError                   **error);
TERRAIN_AVAILABLE_IN_ALL
guint
terrain_heightmap_document_get_sample_bits (TerrainHeightmapDocument *self);
TERRAIN_AVAILABLE_IN_ALL
guint
terrain_heightmap_document_get_n_voids     (TerrainHeightmapDocument *self);

G_END_DECLS
