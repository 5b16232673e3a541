/* terrain-chu-import.h: CHU and TQT trees to Atlas TOCs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <gio/gio.h>

#include "terrain-atlas-file.h"
#include "terrain-atlas-geometry.h"
#include "terrain-chu-file.h"
#include "terrain-tqt-file.h"

G_BEGIN_DECLS

/**
 * TerrainChuImportFlags:
 * @TERRAIN_CHU_IMPORT_NONE: map the geometry without Atlas collision data
 * @TERRAIN_CHU_IMPORT_COLLISION: regenerate Atlas collision data for the
 *   leaf chunks from their triangles, as TGEA's importer does (CHU collision
 *   blocks are not field-compatible with Atlas collision, §9b)
 *
 * Options of [func@Terrain.chu_import].
 */
typedef enum /*< flags >*/
{
  TERRAIN_CHU_IMPORT_NONE = 0,
  TERRAIN_CHU_IMPORT_COLLISION = 1 << 0,
} TerrainChuImportFlags;

/**
 * TERRAIN_CHU_IMPORT_COLLISION_DEPTH:
 *
 * Collision-tree depth of regenerated leaf collision when the CHU file does
 * not name one: 4, TGEA's 8x8 bins (field-notes.md).
 */
#define TERRAIN_CHU_IMPORT_COLLISION_DEPTH 4

TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasVertex *terrain_chu_import_vertices (TerrainChuFile         *chu,
                                                 guint                   index,
                                                 const TerrainChuChunk  *chunk,
                                                 guint                  *n_vertices);
TERRAIN_AVAILABLE_IN_ALL
guint16            *terrain_chu_import_indices  (const TerrainChuChunk  *chunk,
                                                 guint                  *n_indices,
                                                 GError                **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasBox    *terrain_chu_import_bounds   (TerrainChuFile         *chu,
                                                 guint                  *n_nodes,
                                                 GError                **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasFile   *terrain_chu_import          (TerrainChuFile         *chu,
                                                 TerrainTqtFile         *tqt,
                                                 guint32                 goal_batch_size,
                                                 TerrainChuImportFlags   flags,
                                                 GError                **error);
TERRAIN_AVAILABLE_IN_ALL
GFile              *terrain_chu_find_companion_tqt (GFile               *chu_file,
                                                    GCancellable        *cancellable);

G_END_DECLS
