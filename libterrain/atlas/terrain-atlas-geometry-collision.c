/* terrain-atlas-geometry-collision.c: the collision block of an Atlas
 * geometry chunk (atlas-chu-tqt.md §3, "Collision data"; field-notes.md,
 * "Collision tree"): accessors, setters and TGEA's generator
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-atlas-geometry-impl-private.h"
#include "terrain-atlas-private.h"
#include "terrain-quadtree.h"
#include "core/terrain-error.h"

/**
 * terrain_atlas_geometry_has_collision:
 * @self: a #TerrainAtlasGeometry
 *
 * Checks whether the chunk carries a collision block.
 *
 * Returns: %TRUE if the chunk carries a collision block (flag 0xDF, version
 *   120 and later)
 */
gboolean
terrain_atlas_geometry_has_collision (TerrainAtlasGeometry *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), FALSE);

  return self->has_collision;
}

/**
 * terrain_atlas_geometry_get_collision_depth:
 * @self: a #TerrainAtlasGeometry
 *
 * Gets mColTreeDepth, the depth of the collision quadtree.
 *
 * Returns: mColTreeDepth (commonly 4: 8x8 bins), or 0 without collision
 */
guint32
terrain_atlas_geometry_get_collision_depth (TerrainAtlasGeometry *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), 0);

  return self->has_collision ? self->collision_depth : 0;
}

/**
 * terrain_atlas_geometry_get_collision_tree: (skip)
 * @self: a #TerrainAtlasGeometry
 * @n_nodes: (out) (optional): nodeCount(mColTreeDepth)
 *
 * Returns the collision quadtree: per node (in stub order, see
 * [func@Terrain.quadtree_node_id]) the minimum and maximum triangle Z,
 * 2 x @n_nodes floats.
 *
 * Not introspectable: the array holds twice @n_nodes values, a length no
 * annotation can state; bindings call
 * [method@Terrain.AtlasGeometry.dup_collision_tree] under this name.
 *
 * Returns: (transfer none) (nullable): the tree, or %NULL without collision
 */
const gfloat *
terrain_atlas_geometry_get_collision_tree (TerrainAtlasGeometry *self,
                                           guint                *n_nodes)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), NULL);

  if (n_nodes != NULL)
    *n_nodes = self->has_collision ? self->n_collision_nodes : 0;
  return self->has_collision ? self->collision_tree : NULL;
}

/**
 * terrain_atlas_geometry_dup_collision_tree: (rename-to terrain_atlas_geometry_get_collision_tree)
 * @self: a #TerrainAtlasGeometry
 * @n_values: (out): return location for the number of floats, 2 x
 *   nodeCount(mColTreeDepth), 0 without collision
 *
 * Copies the collision quadtree of
 * [method@Terrain.AtlasGeometry.get_collision_tree] in the form bindings
 * can call: node k's minimum triangle Z is value 2 k, its maximum 2 k + 1,
 * nodes in stub order ([func@Terrain.quadtree_node_id]).
 *
 * Returns: (transfer full) (nullable) (array length=n_values): the
 *   @n_values floats, or %NULL without collision
 */
gfloat *
terrain_atlas_geometry_dup_collision_tree (TerrainAtlasGeometry *self,
                                           gsize                *n_values)
{
  const gfloat *tree;
  guint n_nodes = 0;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), NULL);
  g_return_val_if_fail (n_values != NULL, NULL);

  tree = terrain_atlas_geometry_get_collision_tree (self, &n_nodes);
  *n_values = tree != NULL ? 2 * (gsize) n_nodes : 0;
  return tree != NULL ? g_memdup2 (tree, *n_values * sizeof (gfloat)) : NULL;
}

/**
 * terrain_atlas_geometry_get_collision_offsets:
 * @self: a #TerrainAtlasGeometry
 * @n_offsets: (out) (optional): mColOffsetCount
 *
 * Returns the bin offsets into the collision index buffer: one per leaf bin,
 * bin (x, y) at x * 2^(depth-1) + y.
 *
 * Returns: (transfer none) (nullable) (array length=n_offsets): the offsets
 */
const guint16 *
terrain_atlas_geometry_get_collision_offsets (TerrainAtlasGeometry *self,
                                              guint                *n_offsets)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), NULL);

  if (n_offsets != NULL)
    *n_offsets = self->has_collision ? self->n_collision_offsets : 0;
  return self->has_collision ? self->collision_offsets : NULL;
}

/**
 * terrain_atlas_geometry_get_collision_indices:
 * @self: a #TerrainAtlasGeometry
 * @n_indices: (out) (optional): mColIndexCount
 *
 * Returns the collision index buffer: per bin a list of offsets into the
 * index array (each selects the three indices of a triangle), ended by
 * 0xFFFF.
 *
 * Returns: (transfer none) (nullable) (array length=n_indices): the buffer
 */
const guint16 *
terrain_atlas_geometry_get_collision_indices (TerrainAtlasGeometry *self,
                                              guint                *n_indices)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), NULL);

  if (n_indices != NULL)
    *n_indices = self->has_collision ? self->n_collision_indices : 0;
  return self->has_collision ? self->collision_indices : NULL;
}

/**
 * terrain_atlas_geometry_set_collision: (skip)
 * @self: a #TerrainAtlasGeometry
 * @depth: collision tree depth, 1 to %TERRAIN_ATLAS_MAX_COLLISION_DEPTH
 * @tree: min and max Z per node, 2 x @n_nodes floats
 * @n_nodes: must be nodeCount(@depth)
 * @offsets: (array length=n_offsets): bin offsets
 * @n_offsets: number of bin offsets
 * @indices: (array length=n_indices): the collision index buffer
 * @n_indices: its length
 * @error: return location for a #GError
 *
 * Replaces the collision block verbatim. Consistency (bins, terminators,
 * triangle offsets) is checked by [method@Terrain.AtlasGeometry.check].
 *
 * Not introspectable: @tree holds twice @n_nodes values, a length no
 * annotation can state; bindings call
 * [method@Terrain.AtlasGeometry.set_collision_values] under this name.
 *
 * Returns: %TRUE, or %FALSE with %TERRAIN_ERROR_INVALID_VALUE when @depth is
 *   out of range or @n_nodes does not match it
 */
gboolean
terrain_atlas_geometry_set_collision (TerrainAtlasGeometry  *self,
                                      guint32                depth,
                                      const gfloat          *tree,
                                      guint                  n_nodes,
                                      const guint16         *offsets,
                                      guint                  n_offsets,
                                      const guint16         *indices,
                                      guint                  n_indices,
                                      GError               **error)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), FALSE);

  if (depth == 0 || depth > TERRAIN_ATLAS_MAX_COLLISION_DEPTH ||
      n_nodes != terrain_quadtree_node_count (depth))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas geometry collision: a tree of depth %u cannot have %u nodes", depth,
                   n_nodes);
      return FALSE;
    }

  terrain_atlas_geometry_clear_collision (self);
  self->has_collision = TRUE;
  self->collision_depth = depth;
  self->n_collision_nodes = n_nodes;
  self->collision_tree = g_memdup2 (tree, 2 * sizeof (gfloat) * n_nodes);
  self->n_collision_offsets = n_offsets;
  self->collision_offsets = g_new (guint16, MAX (n_offsets, 1));
  if (n_offsets > 0)
    memcpy (self->collision_offsets, offsets, sizeof (guint16) * n_offsets);
  self->n_collision_indices = n_indices;
  self->collision_indices = g_new (guint16, MAX (n_indices, 1));
  if (n_indices > 0)
    memcpy (self->collision_indices, indices, sizeof (guint16) * n_indices);
  return TRUE;
}

/**
 * terrain_atlas_geometry_set_collision_values: (rename-to terrain_atlas_geometry_set_collision)
 * @self: a #TerrainAtlasGeometry
 * @depth: collision tree depth, 1 to %TERRAIN_ATLAS_MAX_COLLISION_DEPTH
 * @tree: (array length=n_values): min and max Z per node, node k's minimum
 *   at 2 k and maximum at 2 k + 1, nodes in stub order, as
 *   [method@Terrain.AtlasGeometry.dup_collision_tree] gives them
 * @n_values: 2 x nodeCount(@depth)
 * @offsets: (array length=n_offsets): bin offsets
 * @n_offsets: number of bin offsets
 * @indices: (array length=n_indices): the collision index buffer
 * @n_indices: its length
 * @error: return location for a #GError
 *
 * [method@Terrain.AtlasGeometry.set_collision] in the form bindings can
 * call: the tree's length counts floats, not nodes.
 *
 * Returns: %TRUE, or %FALSE with %TERRAIN_ERROR_INVALID_VALUE when @depth is
 *   out of range or @n_values is not twice its node count
 */
gboolean
terrain_atlas_geometry_set_collision_values (TerrainAtlasGeometry  *self,
                                             guint32                depth,
                                             const gfloat          *tree,
                                             gsize                  n_values,
                                             const guint16         *offsets,
                                             guint                  n_offsets,
                                             const guint16         *indices,
                                             guint                  n_indices,
                                             GError               **error)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), FALSE);

  if (n_values % 2 != 0 || n_values / 2 > G_MAXUINT)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas geometry collision: %" G_GSIZE_FORMAT " tree values are not a minimum "
                   "and a maximum per node", n_values);
      return FALSE;
    }
  return terrain_atlas_geometry_set_collision (self, depth, tree, (guint) (n_values / 2), offsets,
                                               n_offsets, indices, n_indices, error);
}

/**
 * terrain_atlas_geometry_clear_collision:
 * @self: a #TerrainAtlasGeometry
 *
 * Drops the collision block: the chunk is then written with flag 0x0F.
 */
void
terrain_atlas_geometry_clear_collision (TerrainAtlasGeometry *self)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self));

  self->has_collision = FALSE;
  self->collision_depth = 0;
  g_clear_pointer (&self->collision_tree, g_free);
  g_clear_pointer (&self->collision_offsets, g_free);
  g_clear_pointer (&self->collision_indices, g_free);
  self->n_collision_nodes = self->n_collision_offsets = self->n_collision_indices = 0;
}

/* Separating-axis test of a triangle's XY projection against a rectangle,
 * touching counting as overlap. The collision bins span the whole Z range
 * of the chunk, so this equals TGEA's triangle/box test. */
static gboolean
triangle_overlaps_rect (const gfloat *a,
                        const gfloat *b,
                        const gfloat *c,
                        double        x0,
                        double        y0,
                        double        x1,
                        double        y1)
{
  const gfloat *p[3] = { a, b, c };
  double corners[4][2] = { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } };

  if (MAX (MAX (a[0], b[0]), c[0]) < x0 || MIN (MIN (a[0], b[0]), c[0]) > x1 ||
      MAX (MAX (a[1], b[1]), c[1]) < y0 || MIN (MIN (a[1], b[1]), c[1]) > y1)
    return FALSE;

  for (guint e = 0; e < 3; e++)
    {
      const gfloat *s = p[e], *t = p[(e + 1) % 3], *o = p[(e + 2) % 3];
      double nx = -(double) (t[1] - s[1]), ny = (double) (t[0] - s[0]);
      double tri = nx * (o[0] - s[0]) + ny * (o[1] - s[1]);
      double lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE;

      for (guint k = 0; k < 4; k++)
        {
          double d = nx * (corners[k][0] - s[0]) + ny * (corners[k][1] - s[1]);

          lo = MIN (lo, d);
          hi = MAX (hi, d);
        }
      /* The triangle projects to [min(0, tri), max(0, tri)] on this axis. */
      if (hi < MIN (0.0, tri) || lo > MAX (0.0, tri))
        return FALSE;
    }

  return TRUE;
}

/* Fills the inner nodes of a collision tree of @depth levels from its
 * leaves, level by level up to the root: each node holds the Z range of
 * its four children, starting from 100 m outside @box's Z range (TGEA's
 * generator; empty leaves keep the inverted range they were given).
 * Shared with the builder's make_collision(). */
void
terrain_atlas_collision_close_tree (gfloat                *tree,
                                    guint32                depth,
                                    const TerrainAtlasBox *box)
{
  for (gint level = (gint) depth - 2; level >= 0; level--)
    for (guint32 i = 0; i < ((guint32) 1 << level); i++)
      for (guint32 j = 0; j < ((guint32) 1 << level); j++)
        {
          guint64 node = terrain_quadtree_node_id ((guint) level, i, j);
          gfloat lo = box->max[2] + 100.0f, hi = box->min[2] - 100.0f;

          for (guint k = 0; k < 4; k++)
            {
              guint64 child = terrain_quadtree_node_id ((guint) level + 1, 2 * i + (k >> 1),
                                                        2 * j + (k & 1));
              lo = MIN (lo, tree[2 * child]);
              hi = MAX (hi, tree[2 * child + 1]);
            }
          tree[2 * node] = lo;
          tree[2 * node + 1] = hi;
        }
}

/**
 * terrain_atlas_geometry_generate_collision:
 * @self: a #TerrainAtlasGeometry
 * @depth: collision tree depth, 1 to %TERRAIN_ATLAS_MAX_COLLISION_DEPTH
 *   (TGEA uses 4)
 * @error: return location for a #GError
 *
 * Rebuilds the collision block from the mesh the way TGEA's generator does
 * (field-notes.md, "Collision tree"): the vertex bounds are cut into
 * 2^(depth-1) x 2^(depth-1) bins; every non-degenerate non-skirt triangle
 * goes into each bin its XY projection touches; leaf nodes hold the Z range
 * of their triangles (an empty bin keeps TGEA's inverted range), inner nodes
 * the range of their children; each bin's list of index offsets ends with
 * 0xFFFF. Identical lists are not shared.
 *
 * Returns: %TRUE, or %FALSE with %TERRAIN_ERROR_INVALID_VALUE for a bad
 *   depth or %TERRAIN_ERROR_LIMIT_EXCEEDED when offsets no longer fit in
 *   16 bits
 */
gboolean
terrain_atlas_geometry_generate_collision (TerrainAtlasGeometry  *self,
                                           guint32                depth,
                                           GError               **error)
{
  g_autoptr(GArray) buffer = NULL;
  g_autofree guint16 *offsets = NULL;
  g_autofree gfloat *tree = NULL;
  TerrainAtlasBox box;
  guint32 grid;
  guint64 nodes, leaf_base;
  guint n_solid;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), FALSE);

  if (depth == 0 || depth > 8)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas geometry collision: cannot generate a tree of depth %u "
                   "(1 to 8 levels are supported)", depth);
      return FALSE;
    }

  terrain_atlas_geometry_compute_bounds (self, &box);
  grid = (guint32) 1 << (depth - 1);
  nodes = terrain_quadtree_node_count (depth);
  leaf_base = terrain_quadtree_node_count (depth - 1);
  tree = g_new (gfloat, 2 * nodes);
  offsets = g_new (guint16, (gsize) grid * grid);
  buffer = g_array_new (FALSE, FALSE, sizeof (guint16));
  n_solid = self->n_indices > self->skirt_skip_count ?
            self->n_indices - self->skirt_skip_count : 0;

  for (guint32 i = 0; i < grid; i++)
    for (guint32 j = 0; j < grid; j++)
      {
        double sx = ((double) box.max[0] - box.min[0]) / grid;
        double sy = ((double) box.max[1] - box.min[1]) / grid;
        double x0 = box.min[0] + sx * i, x1 = box.min[0] + sx * (i + 1);
        double y0 = box.min[1] + sy * j, y1 = box.min[1] + sy * (j + 1);
        gfloat bin_min = box.max[2] + 1.0f, bin_max = box.min[2] - 1.0f;
        guint32 bin = i * grid + j;
        guint16 end = TERRAIN_ATLAS_COLLISION_END;

        if (buffer->len > G_MAXUINT16)
          {
            g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                         "Atlas geometry collision: bin %u starts at buffer entry %u, "
                         "beyond what a U16 offset can address", bin, buffer->len);
            return FALSE;
          }
        offsets[bin] = (guint16) buffer->len;

        for (guint v = 0; v + 2 < n_solid; v += 3)
          {
            guint16 ia = self->indices[v], ib = self->indices[v + 1], ic = self->indices[v + 2];
            const gfloat *a, *b, *c;
            guint16 entry;

            if (ia == ib || ib == ic || ic == ia ||
                ia >= self->n_vertices || ib >= self->n_vertices || ic >= self->n_vertices)
              continue;
            a = self->vertices[ia].point;
            b = self->vertices[ib].point;
            c = self->vertices[ic].point;
            if (!triangle_overlaps_rect (a, b, c, x0, y0, x1, y1))
              continue;

            if (v >= TERRAIN_ATLAS_COLLISION_END)
              {
                g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                             "Atlas geometry collision: triangle at index %u cannot be "
                             "addressed by a U16 collision entry", v);
                return FALSE;
              }
            entry = (guint16) v;
            g_array_append_val (buffer, entry);
            bin_min = MIN (bin_min, MIN (MIN (a[2], b[2]), c[2]));
            bin_max = MAX (bin_max, MAX (MAX (a[2], b[2]), c[2]));
          }
        g_array_append_val (buffer, end);

        tree[2 * (leaf_base + bin)] = bin_min;
        tree[2 * (leaf_base + bin) + 1] = bin_max;
      }

  terrain_atlas_collision_close_tree (tree, depth, &box);

  return terrain_atlas_geometry_set_collision (self, depth, tree, (guint) nodes,
                                               offsets, grid * grid,
                                               (const guint16 *) (gpointer) buffer->data,
                                               buffer->len, error);
}
