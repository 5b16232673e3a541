/* terrain-atlas-builder-collision-private.h: a leaf chunk's collision
 * block for the Atlas builder
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "terrain-atlas-geometry.h"

G_BEGIN_DECLS

/* Index offsets a collision entry can name (0xFFFF ends a list). */
#define MAX_COLLISION_INDEX 0xFFFFu

/* A leaf's collision block as the builder makes it (field-notes.md): the
 * quadtree of Z ranges and each bin's list of index offsets. */
typedef struct
{
  guint32 depth;
  guint n_nodes;
  gfloat *tree;
  guint n_offsets;
  guint16 *offsets;
  guint n_entries;
  guint16 *entries;  /* each bin's offsets and TERRAIN_ATLAS_COLLISION_END */
} Collision;

/* A worker's buffers for terrain_atlas_builder_make_collision(), grown to
 * the largest leaf met and kept across chunks; freed with the scratch
 * that holds them. */
typedef struct
{
  guint32 *pairs;      /* the (bin, offset) pairs */
  gsize pairs_size;
  gdouble *sides;      /* the bins' sides and edge extents */
  gsize sides_size;
} CollisionScratch;

gboolean terrain_atlas_builder_make_collision (CollisionScratch         *s,
                                               const TerrainAtlasVertex *v,
                                               guint                     n_vertices,
                                               const guint32            *indices,
                                               guint                     n_surface,
                                               guint32                   depth,
                                               Collision                *c);
void     terrain_atlas_builder_collision_clear (Collision *c);

G_END_DECLS
