/* terrain-node-layer.h: Insomniac TerrainNodeLayer bodies
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "core/terrain-document.h"
#include "core/terrain-limits.h"

G_BEGIN_DECLS

/**
 * TERRAIN_NODE_LEVELS:
 *
 * Levels of the terrain quadtree: 0 (the root, one node) to 8 (256 x 256
 * leaves of 64 metres).
 */
#define TERRAIN_NODE_LEVELS 9

/**
 * TERRAIN_NODE_POSITIONS:
 *
 * Nodes in the full nine-level quadtree: (4^9 - 1) / 3 = 87,381.
 */
#define TERRAIN_NODE_POSITIONS 87381

/**
 * TERRAIN_NODE_LAYER_ITEM_SIZE:
 *
 * Size of one TerrainNodeLayer item in bytes.
 */
#define TERRAIN_NODE_LAYER_ITEM_SIZE 25

/**
 * TERRAIN_NODE_WORLD_SIDE:
 *
 * Side of the area the quadtree covers, in metres (256 leaves of 64 m);
 * it spans -8192..+8192 along x and y like the floor grid.
 */
#define TERRAIN_NODE_WORLD_SIDE 16384.0

TERRAIN_AVAILABLE_IN_ALL
guint32   terrain_node_level_start         (guint      level);
TERRAIN_AVAILABLE_IN_ALL
gboolean  terrain_node_position_to_level   (guint32    position,
                                            guint     *level,
                                            guint     *column,
                                            guint     *row);
TERRAIN_AVAILABLE_IN_ALL
guint32   terrain_node_position_from_level (guint      level,
                                            guint      column,
                                            guint      row);
TERRAIN_AVAILABLE_IN_ALL
void      terrain_node_get_extent          (guint      level,
                                            guint      column,
                                            guint      row,
                                            double    *x,
                                            double    *y,
                                            double    *side);
TERRAIN_AVAILABLE_IN_ALL
void      terrain_node_sample_position     (guint      level,
                                            guint      column,
                                            guint      row,
                                            guint      sample_x,
                                            guint      sample_y,
                                            double    *x,
                                            double    *y);

#define TERRAIN_TYPE_NODE_LAYER (terrain_node_layer_get_type ())

/**
 * TerrainNodeLayer:
 *
 * The index of an Insomniac open world's detailed terrain tiles (a
 * TerrainNodeLayer body, `.tnl`; insomniac-terrain.md, "TerrainNodeLayer and
 * TNLChunk"): byte 1, a u32 count n, n 25-byte items and n again. Each item
 * holds a quadtree position (level L starts at (4^L - 1) / 3, then row-major
 * over 2^L columns) and the u64 identity of the [class@Terrain.NodeChunk]
 * with that node's data; its other bytes are kept as read.
 *
 * The layer holds no heights or colours, only which nodes exist:
 * [method@Terrain.Document.render_image] draws its quadtree as terraces,
 * 1024 pixels (4 per leaf) a side, column = node column and row 0 = node
 * row 0 (the lowest y): each pixel rises to the level of the deepest node
 * covering it, tinted by level, each node's square bevelled so its bounds
 * show; pixels no node covers are transparent.
 * [method@Terrain.Document.export_heights] fails with
 * %TERRAIN_ERROR_NOT_SUPPORTED (the heights are in the TNLChunks).
 */
TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainNodeLayer, terrain_node_layer, TERRAIN, NODE_LAYER, TerrainDocument)

TERRAIN_AVAILABLE_IN_ALL
TerrainNodeLayer *terrain_node_layer_new_from_bytes (GBytes               *bytes,
                                                     const TerrainLimits  *limits,
                                                     GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainNodeLayer *terrain_node_layer_new            (void);
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_node_layer_get_n_nodes       (TerrainNodeLayer  *self);
TERRAIN_AVAILABLE_IN_ALL
guint32        terrain_node_layer_get_position      (TerrainNodeLayer  *self,
                                                     guint              index);
TERRAIN_AVAILABLE_IN_ALL
guint64        terrain_node_layer_get_identity      (TerrainNodeLayer  *self,
                                                     guint              index);
TERRAIN_AVAILABLE_IN_ALL
const guint8  *terrain_node_layer_get_item          (TerrainNodeLayer  *self,
                                                     guint              index);
TERRAIN_AVAILABLE_IN_ALL
gint           terrain_node_layer_find              (TerrainNodeLayer  *self,
                                                     guint32            position);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_node_layer_set_identity      (TerrainNodeLayer  *self,
                                                     guint              index,
                                                     guint64            identity);
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_node_layer_append            (TerrainNodeLayer  *self,
                                                     guint32            position,
                                                     guint64            identity);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_node_layer_is_complete       (TerrainNodeLayer  *self);

G_END_DECLS
