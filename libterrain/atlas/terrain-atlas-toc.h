/* terrain-atlas-toc.h: one table of contents of an Atlas file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <gio/gio.h>

#include "terrain-version.h"

G_BEGIN_DECLS

/**
 * TerrainAtlasTocKind:
 * @TERRAIN_ATLAS_TOC_GEOMETRY: `Geom`: a quadtree of geometry chunks; the
 *   TOC carries mGoalBatchSize
 * @TERRAIN_ATLAS_TOC_TEXTURE: `Tex`: a quadtree of texture tiles
 * @TERRAIN_ATLAS_TOC_CONFIG: `Config`: a named list of key/value chunks
 *
 * The kinds of TOC, named by their kind tag (atlas-chu-tqt.md §1).
 */
typedef enum
{
  TERRAIN_ATLAS_TOC_GEOMETRY,
  TERRAIN_ATLAS_TOC_TEXTURE,
  TERRAIN_ATLAS_TOC_CONFIG,
} TerrainAtlasTocKind;

/**
 * TerrainAtlasQuadrant:
 * @TERRAIN_ATLAS_QUADRANT_NORTH_WEST: the north-west quarter: smaller X,
 *   larger Y (geometry node x even, y odd at level 1)
 * @TERRAIN_ATLAS_QUADRANT_NORTH_EAST: the north-east quarter
 * @TERRAIN_ATLAS_QUADRANT_SOUTH_WEST: the south-west quarter
 * @TERRAIN_ATLAS_QUADRANT_SOUTH_EAST: the south-east quarter
 *
 * A quarter of a quadtree's terrain, the root's children of
 * atlas-chu-tqt.md §6; north is +Y, east is +X (§9b). The order is
 * TGEA's mergeTQT argument order.
 */
typedef enum
{
  TERRAIN_ATLAS_QUADRANT_NORTH_WEST,
  TERRAIN_ATLAS_QUADRANT_NORTH_EAST,
  TERRAIN_ATLAS_QUADRANT_SOUTH_WEST,
  TERRAIN_ATLAS_QUADRANT_SOUTH_EAST,
} TerrainAtlasQuadrant;

/**
 * TERRAIN_ATLAS_DEFAULT_GOAL_BATCH_SIZE:
 *
 * TGEA's default mGoalBatchSize, and the value of the observed file (§1).
 */
#define TERRAIN_ATLAS_DEFAULT_GOAL_BATCH_SIZE 1500

typedef struct _TerrainAtlasStub TerrainAtlasStub;

#define TERRAIN_TYPE_ATLAS_TOC (terrain_atlas_toc_get_type ())

/**
 * TerrainAtlasToc:
 *
 * One table of contents of an Atlas file (atlas-chu-tqt.md §1): its kind
 * (geometry, texture or config), tree depth, resource version and, for
 * geometry, mGoalBatchSize; and its stubs, which it exposes as a
 * #GListModel of [class@Terrain.AtlasStub] (emitting `items-changed` when a
 * stub is rewritten). Geometry and texture stubs are quadtree nodes, stored
 * level after level from the root with X as the major axis (§1, §6).
 */

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainAtlasToc, terrain_atlas_toc, TERRAIN, ATLAS_TOC, GObject)

TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasToc     *terrain_atlas_toc_new                 (TerrainAtlasTocKind  kind,
                                                            guint32              version,
                                                            guint32              tree_depth,
                                                            guint                n_stubs);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasTocKind  terrain_atlas_toc_get_kind            (TerrainAtlasToc     *self);
TERRAIN_AVAILABLE_IN_ALL
const char          *terrain_atlas_toc_get_tag             (TerrainAtlasToc     *self);
TERRAIN_AVAILABLE_IN_ALL
const char          *terrain_atlas_toc_kind_to_tag         (TerrainAtlasTocKind  kind);
TERRAIN_AVAILABLE_IN_ALL
guint32              terrain_atlas_toc_get_version         (TerrainAtlasToc     *self);
TERRAIN_AVAILABLE_IN_ALL
guint32              terrain_atlas_toc_get_tree_depth      (TerrainAtlasToc     *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_atlas_toc_is_quadtree         (TerrainAtlasToc     *self);
TERRAIN_AVAILABLE_IN_ALL
guint32              terrain_atlas_toc_get_goal_batch_size (TerrainAtlasToc     *self);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_toc_set_goal_batch_size (TerrainAtlasToc     *self,
                                                            guint32              goal_batch_size);
TERRAIN_AVAILABLE_IN_ALL
guint                terrain_atlas_toc_get_name_width      (TerrainAtlasToc     *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_atlas_toc_set_name_width      (TerrainAtlasToc     *self,
                                                            guint                width);
TERRAIN_AVAILABLE_IN_ALL
guint                terrain_atlas_toc_get_n_stubs         (TerrainAtlasToc     *self);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasStub    *terrain_atlas_toc_get_stub            (TerrainAtlasToc     *self,
                                                            guint                index);
TERRAIN_AVAILABLE_IN_ALL
gint64               terrain_atlas_toc_find_stub           (TerrainAtlasToc     *self,
                                                            guint                level,
                                                            guint32              x,
                                                            guint32              y);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_atlas_toc_get_stub_node       (TerrainAtlasToc     *self,
                                                            guint                index,
                                                            guint               *level,
                                                            guint32             *x,
                                                            guint32             *y);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_atlas_toc_set_stub_name       (TerrainAtlasToc     *self,
                                                            guint                index,
                                                            const char          *name);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_toc_set_stub_legacy_position (TerrainAtlasToc *self,
                                                                 guint            index,
                                                                 gfloat           x,
                                                                 gfloat           y);
TERRAIN_AVAILABLE_IN_ALL
gint64               terrain_atlas_toc_get_file_offset     (TerrainAtlasToc     *self);
TERRAIN_AVAILABLE_IN_ALL
gint64               terrain_atlas_toc_get_stub_file_offset (TerrainAtlasToc    *self,
                                                             guint               index);
TERRAIN_AVAILABLE_IN_ALL
gsize                terrain_atlas_toc_get_size            (TerrainAtlasToc     *self);

G_END_DECLS
