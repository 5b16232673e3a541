/* terrain-limits.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <glib-object.h>

#include "terrain-version.h"

G_BEGIN_DECLS

#define TERRAIN_TYPE_LIMITS (terrain_limits_get_type ())

/**
 * TerrainLimits:
 * @max_cells_per_side: largest grid side (attribute cells, samples or tiles) a
 *   reader accepts; default 8192
 * @max_tiles: largest tile count; default 1048576 (1M)
 * @max_features: largest feature table; default 65536
 * @max_image_side: largest side of an embedded image (minimap, preview,
 *   texture) in pixels; default 16384
 * @max_allocation: largest single allocation, in bytes, that a count read
 *   from a file may cause; default 2 GiB
 *
 * An allocation budget. Every reader checks the counts it reads from a file
 * against these limits before it allocates, so a small corrupt file cannot
 * make the library allocate gigabytes. The defaults accept every real file
 * known to the project.
 */
typedef struct _TerrainLimits TerrainLimits;

struct _TerrainLimits
{
  guint32 max_cells_per_side;
  guint32 max_tiles;
  guint32 max_features;
  guint32 max_image_side;
  guint64 max_allocation;
};

TERRAIN_AVAILABLE_IN_ALL
GType          terrain_limits_get_type    (void) G_GNUC_CONST;
TERRAIN_AVAILABLE_IN_ALL
TerrainLimits *terrain_limits_new         (void);
TERRAIN_AVAILABLE_IN_ALL
TerrainLimits *terrain_limits_copy        (const TerrainLimits  *limits);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_limits_free        (TerrainLimits        *limits);
TERRAIN_AVAILABLE_IN_ALL
const TerrainLimits *
               terrain_limits_get_default (void);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_limits_check_count (const TerrainLimits  *limits,
                                           guint64               count,
                                           guint64               max,
                                           const char           *what,
                                           const char           *section,
                                           goffset               offset,
                                           GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_limits_check_alloc (const TerrainLimits  *limits,
                                           guint64               count,
                                           guint64               element_size,
                                           const char           *what,
                                           const char           *section,
                                           goffset               offset,
                                           GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerrainLimits, terrain_limits_free)

G_END_DECLS
