/* terrain-relief-private.h: pictures and height grids drawn from heights,
 * for formats whose picture libterrain makes (heightmaps, CHU trees, models)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-image.h"
#include "terrain-limits.h"

G_BEGIN_DECLS

/* Largest side, in pixels, of a picture or height grid a document renders
 * rather than stores (also capped by TerrainLimits.max_image_side). */
#define TERRAIN_RELIEF_MAX_SIDE 4096

/* A grid of heights: row-major, row 0 at the top of the picture, NaN where
 * there is nothing (drawn transparent, exported as 0). */
typedef struct
{
  guint   width;
  guint   height;
  gfloat *z;
} TerrainRelief;

gboolean      terrain_relief_init      (TerrainRelief        *relief,
                                        guint                 width,
                                        guint                 height,
                                        const TerrainLimits  *limits,
                                        const char           *section,
                                        GError              **error);
void          terrain_relief_clear     (TerrainRelief        *relief);
gboolean      terrain_relief_get_range (const TerrainRelief  *relief,
                                        gfloat               *lo,
                                        gfloat               *hi);
void          terrain_relief_triangle  (TerrainRelief        *relief,
                                        const gdouble         a[3],
                                        const gdouble         b[3],
                                        const gdouble         c[3]);
TerrainImage *terrain_relief_render    (const TerrainRelief  *relief,
                                        gdouble               pixel_size,
                                        GError              **error);
TerrainImage *terrain_relief_to_gray16 (const TerrainRelief  *relief,
                                        GError              **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TerrainRelief, terrain_relief_clear)

G_END_DECLS
