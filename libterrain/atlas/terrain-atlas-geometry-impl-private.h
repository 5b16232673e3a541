/* terrain-atlas-geometry-impl-private.h: what the files of
 * TerrainAtlasGeometry share (terrain-atlas-geometry.c: the chunk body, its
 * accessors and validation; -collision.c: the collision block of
 * atlas-chu-tqt.md §3, its accessors and TGEA's generator): the instance
 * struct.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-atlas-geometry.h"

G_BEGIN_DECLS

struct _TerrainAtlasGeometry
{
  GObject parent_instance;

  guint32 source_version;
  guint32 previous_chunk;
  TerrainAtlasBox bounds;

  TerrainAtlasVertex *vertices;
  guint n_vertices;
  guint16 *indices;
  guint n_indices;
  guint32 skirt_skip_count;

  gboolean has_collision;
  guint32 collision_depth;
  gfloat *collision_tree;       /* min, max per node */
  guint n_collision_nodes;
  guint16 *collision_offsets;
  guint n_collision_offsets;
  guint16 *collision_indices;
  guint n_collision_indices;
};

/* terrain-atlas-geometry-collision.c: a collision tree's inner nodes from
 * its leaves (TGEA's generator and the builder's make_collision()). */
void terrain_atlas_collision_close_tree (gfloat                *tree,
                                         guint32                depth,
                                         const TerrainAtlasBox *box);

G_END_DECLS
