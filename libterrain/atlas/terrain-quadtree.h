/* terrain-quadtree.h: quadtree node arithmetic of Atlas TOCs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <glib.h>

#include "terrain-version.h"

G_BEGIN_DECLS

/**
 * TERRAIN_QUADTREE_MAX_DEPTH:
 *
 * Deepest tree the quadtree helpers accept: 31 levels, whose node count
 * ((4^31 - 1) / 3) still fits in 64 bits with room to spare and whose
 * coordinates fit in 32 bits. Atlas TOCs are limited further, to 15 levels
 * (TGEA refuses deeper trees).
 */
#define TERRAIN_QUADTREE_MAX_DEPTH 31

TERRAIN_AVAILABLE_IN_ALL
guint64  terrain_quadtree_node_count       (guint     depth);
TERRAIN_AVAILABLE_IN_ALL
guint64  terrain_quadtree_node_id          (guint     level,
                                            guint32   x,
                                            guint32   y);
TERRAIN_AVAILABLE_IN_ALL
gboolean terrain_quadtree_node_position    (guint64   id,
                                            guint    *level,
                                            guint32  *x,
                                            guint32  *y);
TERRAIN_AVAILABLE_IN_ALL
gboolean terrain_quadtree_parent           (guint64   id,
                                            guint64  *parent);
TERRAIN_AVAILABLE_IN_ALL
guint64  terrain_quadtree_child            (guint64   id,
                                            guint     which);
TERRAIN_AVAILABLE_IN_ALL
guint32  terrain_quadtree_project          (guint     level,
                                            guint32   x,
                                            guint32   y,
                                            guint     to_level,
                                            guint32  *to_x,
                                            guint32  *to_y);
TERRAIN_AVAILABLE_IN_ALL
guint32  terrain_quadtree_texture_stub     (guint     geometry_level,
                                            guint32   x,
                                            guint32   y,
                                            guint     texture_level,
                                            guint32  *texture_x,
                                            guint32  *texture_y);
TERRAIN_AVAILABLE_IN_ALL
void     terrain_quadtree_texture_local_uv (guint     texture_level,
                                            guint32   x,
                                            guint32   y,
                                            gfloat    tex_coord_x,
                                            gfloat    tex_coord_y,
                                            gfloat   *u,
                                            gfloat   *v);
TERRAIN_AVAILABLE_IN_ALL
void     terrain_quadtree_texture_node_at  (guint     texture_level,
                                            gfloat    tex_coord_x,
                                            gfloat    tex_coord_y,
                                            guint32  *x,
                                            guint32  *y);
TERRAIN_AVAILABLE_IN_ALL
gboolean terrain_quadtree_texture_geometry_node (guint    texture_level,
                                                 guint32  x,
                                                 guint32  y,
                                                 guint32 *geometry_x,
                                                 guint32 *geometry_y);
TERRAIN_AVAILABLE_IN_ALL
gdouble  terrain_quadtree_texture_tile_rect (guint    texture_level,
                                             guint32  x,
                                             guint32  y,
                                             gdouble *tex_coord_x,
                                             gdouble *tex_coord_y);

G_END_DECLS
