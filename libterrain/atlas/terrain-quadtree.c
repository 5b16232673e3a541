/* terrain-quadtree.c: quadtree node arithmetic of Atlas TOCs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>

#include "terrain-quadtree.h"

/**
 * terrain_quadtree_node_count:
 * @depth: number of levels, at most %TERRAIN_QUADTREE_MAX_DEPTH
 *
 * Counts the nodes of a complete quadtree of @depth levels:
 * `nodeCount(d) = 0x55555555 & ((1 << 2d) - 1)`, the sum of 4^level for
 * level 0..d-1 (atlas-chu-tqt.md §1, "Quadtree node indexing", and §6).
 * It is also the index of the first node of level @depth.
 *
 * Returns: the node count: 0, 1, 5, 21, 85, 341, ...
 */
guint64
terrain_quadtree_node_count (guint depth)
{
  g_return_val_if_fail (depth <= TERRAIN_QUADTREE_MAX_DEPTH, 0);

  return G_GUINT64_CONSTANT (0x5555555555555555) &
         ((G_GUINT64_CONSTANT (1) << (2 * depth)) - 1);
}

/**
 * terrain_quadtree_node_id:
 * @level: tree level, 0 at the root, below %TERRAIN_QUADTREE_MAX_DEPTH
 * @x: node X coordinate, below 2^@level
 * @y: node Y coordinate, below 2^@level
 *
 * Computes the index of a node in a TOC's stub array: complete levels are
 * stored one after another from the root, and within a level X is the
 * major axis: `nodeID = nodeCount(level) + (x << level) + y` (§1, §6).
 *
 * Returns: the stub index
 */
guint64
terrain_quadtree_node_id (guint   level,
                          guint32 x,
                          guint32 y)
{
  g_return_val_if_fail (level < TERRAIN_QUADTREE_MAX_DEPTH, 0);
  g_return_val_if_fail ((guint64) x < (G_GUINT64_CONSTANT (1) << level), 0);
  g_return_val_if_fail ((guint64) y < (G_GUINT64_CONSTANT (1) << level), 0);

  return terrain_quadtree_node_count (level) + ((guint64) x << level) + y;
}

/**
 * terrain_quadtree_node_position:
 * @id: a stub index
 * @level: (out) (optional): the node's level
 * @x: (out) (optional): the node's X coordinate
 * @y: (out) (optional): the node's Y coordinate
 *
 * Inverse of [func@Terrain.quadtree_node_id].
 *
 * Returns: %TRUE, or %FALSE when @id lies beyond a tree of
 *   %TERRAIN_QUADTREE_MAX_DEPTH levels
 */
gboolean
terrain_quadtree_node_position (guint64  id,
                                guint   *level,
                                guint32 *x,
                                guint32 *y)
{
  guint l = 0;
  guint64 rel;

  if (id >= terrain_quadtree_node_count (TERRAIN_QUADTREE_MAX_DEPTH))
    return FALSE;

  while (terrain_quadtree_node_count (l + 1) <= id)
    l++;
  rel = id - terrain_quadtree_node_count (l);

  if (level != NULL)
    *level = l;
  if (x != NULL)
    *x = (guint32) (rel >> l);
  if (y != NULL)
    *y = (guint32) (rel & ((G_GUINT64_CONSTANT (1) << l) - 1));

  return TRUE;
}

/**
 * terrain_quadtree_parent:
 * @id: a stub index
 * @parent: (out) (optional): the parent's stub index
 *
 * Finds the node one level up that covers @id: (level - 1, x / 2, y / 2).
 *
 * Returns: %TRUE, or %FALSE for the root (or an index out of range)
 */
gboolean
terrain_quadtree_parent (guint64  id,
                         guint64 *parent)
{
  guint level;
  guint32 x, y;

  if (!terrain_quadtree_node_position (id, &level, &x, &y) || level == 0)
    return FALSE;

  if (parent != NULL)
    *parent = terrain_quadtree_node_id (level - 1, x >> 1, y >> 1);
  return TRUE;
}

/**
 * terrain_quadtree_child:
 * @id: a stub index, not on the deepest supported level
 * @which: child number 0 to 3: bit 1 adds 1 to X, bit 0 adds 1 to Y
 *
 * Finds a child of a node: (level + 1, 2x + (which >> 1), 2y + (which & 1)).
 * Children 0 to 3 are thus in stub order.
 *
 * Returns: the child's stub index; whether the TOC has that many levels is
 *   for the caller to check
 */
guint64
terrain_quadtree_child (guint64 id,
                        guint   which)
{
  guint level;
  guint32 x, y;

  g_return_val_if_fail (which < 4, 0);

  if (!terrain_quadtree_node_position (id, &level, &x, &y) ||
      level + 1 >= TERRAIN_QUADTREE_MAX_DEPTH)
    g_return_val_if_reached (0);

  return terrain_quadtree_node_id (level + 1, 2 * x + (which >> 1), 2 * y + (which & 1));
}

/**
 * terrain_quadtree_project:
 * @level: a node's level
 * @x: the node's X coordinate
 * @y: the node's Y coordinate
 * @to_level: the level to project to
 * @to_x: (out) (optional): X coordinate at @to_level
 * @to_y: (out) (optional): Y coordinate at @to_level
 *
 * Projects node coordinates to another level. Going up (@to_level smaller)
 * gives the one ancestor covering the node; going down gives the first (lowest
 * X and Y) of the 2^(to_level - level) x 2^(to_level - level) descendants the
 * node covers.
 *
 * Returns: the side of the covered block in nodes of @to_level: 1 when
 *   projecting up or to the same level
 */
guint32
terrain_quadtree_project (guint    level,
                          guint32  x,
                          guint32  y,
                          guint    to_level,
                          guint32 *to_x,
                          guint32 *to_y)
{
  guint32 px, py, span = 1;

  g_return_val_if_fail (level < TERRAIN_QUADTREE_MAX_DEPTH, 0);
  g_return_val_if_fail (to_level < TERRAIN_QUADTREE_MAX_DEPTH, 0);

  if (to_level <= level)
    {
      px = x >> (level - to_level);
      py = y >> (level - to_level);
    }
  else
    {
      px = x << (to_level - level);
      py = y << (to_level - level);
      span = (guint32) 1 << (to_level - level);
    }

  if (to_x != NULL)
    *to_x = px;
  if (to_y != NULL)
    *to_y = py;
  return span;
}

/**
 * terrain_quadtree_texture_stub:
 * @geometry_level: level of a geometry node
 * @x: the geometry node's X coordinate
 * @y: the geometry node's Y coordinate
 * @texture_level: level of the texture tree to look up
 * @texture_x: (out) (optional): lowest texture stub X covering the node
 * @texture_y: (out) (optional): lowest texture stub Y covering the node
 *
 * Maps a geometry node to the texture stubs that texture it. Atlas texture
 * trees reflect the X axis of the geometry tree (atlas-chu-tqt.md §4,
 * "Texture-tree orientation"): with N = 2^@texture_level and (xL, yL) the
 * node projected to @texture_level (see [func@Terrain.quadtree_project]),
 * the texture stub is (N - 1 - xL, yL).
 *
 * When the texture level is deeper than the geometry level the node covers
 * a block of texture stubs; the block's lowest corner is returned (the
 * reflection makes it N - xL - side) and its side is the return value.
 *
 * Returns: the side of the covered block of texture stubs, 1 when the
 *   texture level is not deeper than the geometry level
 */
guint32
terrain_quadtree_texture_stub (guint    geometry_level,
                               guint32  x,
                               guint32  y,
                               guint    texture_level,
                               guint32 *texture_x,
                               guint32 *texture_y)
{
  guint32 xl, yl, span;
  guint64 n;

  g_return_val_if_fail (geometry_level < TERRAIN_QUADTREE_MAX_DEPTH, 0);
  g_return_val_if_fail (texture_level < TERRAIN_QUADTREE_MAX_DEPTH, 0);

  span = terrain_quadtree_project (geometry_level, x, y, texture_level, &xl, &yl);
  n = G_GUINT64_CONSTANT (1) << texture_level;

  if (texture_x != NULL)
    *texture_x = (guint32) (n - xl - span);
  if (texture_y != NULL)
    *texture_y = yl;
  return span;
}

/**
 * terrain_quadtree_texture_local_uv:
 * @texture_level: level L of the texture tree
 * @x: geometry X coordinate xL, projected to @texture_level
 * @y: geometry Y coordinate yL, projected to @texture_level
 * @tex_coord_x: a vertex's texCoord.x (whole-terrain texture space, 0 to 1)
 * @tex_coord_y: a vertex's texCoord.y
 * @u: (out) (optional): U inside the texture stub's tile
 * @v: (out) (optional): V inside the texture stub's tile
 *
 * Converts a vertex's terrain-wide texture coordinate to the coordinate
 * inside the tile of the texture stub (N - 1 - xL, yL) (§4): with N = 2^L,
 * `U = N * texCoord.x - yL` and `V = N * texCoord.y + xL + 1 - N`.
 */
void
terrain_quadtree_texture_local_uv (guint    texture_level,
                                   guint32  x,
                                   guint32  y,
                                   gfloat   tex_coord_x,
                                   gfloat   tex_coord_y,
                                   gfloat  *u,
                                   gfloat  *v)
{
  double n;

  g_return_if_fail (texture_level < TERRAIN_QUADTREE_MAX_DEPTH);

  n = (double) (G_GUINT64_CONSTANT (1) << texture_level);
  if (u != NULL)
    *u = (gfloat) (n * tex_coord_x - y);
  if (v != NULL)
    *v = (gfloat) (n * tex_coord_y + x + 1 - n);
}

/**
 * terrain_quadtree_texture_node_at:
 * @texture_level: level L of the texture tree
 * @tex_coord_x: terrain-wide texCoord.x, 0 to 1
 * @tex_coord_y: terrain-wide texCoord.y, 0 to 1
 * @x: (out) (optional): texture stub X
 * @y: (out) (optional): texture stub Y
 *
 * Finds the texture stub whose tile holds a terrain-wide texture coordinate,
 * the inverse of [func@Terrain.quadtree_texture_local_uv]: with N = 2^L the
 * stub is (floor(N * texCoord.y), floor(N * texCoord.x)), clamped to the
 * level. Coordinates are clamped to 0..N-1, so 1.0 maps to the last tile.
 */
void
terrain_quadtree_texture_node_at (guint    texture_level,
                                  gfloat   tex_coord_x,
                                  gfloat   tex_coord_y,
                                  guint32 *x,
                                  guint32 *y)
{
  double n, fx, fy;

  g_return_if_fail (texture_level < TERRAIN_QUADTREE_MAX_DEPTH);

  n = (double) (G_GUINT64_CONSTANT (1) << texture_level);
  fx = floor (n * tex_coord_y);
  fy = floor (n * tex_coord_x);
  /* NaN compares false everywhere and lands on 0. */
  fx = fx >= 0 ? MIN (fx, n - 1) : 0;
  fy = fy >= 0 ? MIN (fy, n - 1) : 0;

  if (x != NULL)
    *x = (guint32) fx;
  if (y != NULL)
    *y = (guint32) fy;
}

/**
 * terrain_quadtree_texture_tile_rect:
 * @texture_level: level L of the texture tree
 * @x: texture stub X
 * @y: texture stub Y
 * @tex_coord_x: (out) (optional): lowest terrain-wide texCoord.x in the tile
 * @tex_coord_y: (out) (optional): lowest terrain-wide texCoord.y in the tile
 *
 * The square of terrain-wide texture coordinates that texture stub
 * (@x, @y) of level L covers, the inverse of
 * [func@Terrain.quadtree_texture_node_at] (atlas-chu-tqt.md §4,
 * "Texture-tree orientation": the texture tree swaps the axes): with
 * N = 2^L and s = 1/N the tile holds texCoord.x in [@y s, (@y + 1) s) and
 * texCoord.y in [@x s, (@x + 1) s). A coordinate's place inside the tile
 * (0 to 1 across it, as its picture is sampled) is
 * `((texCoord.x, texCoord.y) - (tex_coord_x, tex_coord_y)) / s`, which is
 * [func@Terrain.quadtree_texture_local_uv] for a stub given directly
 * rather than through the geometry node it textures.
 *
 * Returns: the side s of the square, 1/2^L; 0 when @x or @y lies outside
 *   the level (the outputs are then not set)
 */
gdouble
terrain_quadtree_texture_tile_rect (guint    texture_level,
                                    guint32  x,
                                    guint32  y,
                                    gdouble *tex_coord_x,
                                    gdouble *tex_coord_y)
{
  guint64 n;
  double side;

  g_return_val_if_fail (texture_level < TERRAIN_QUADTREE_MAX_DEPTH, 0);

  n = G_GUINT64_CONSTANT (1) << texture_level;
  if (x >= n || y >= n)
    return 0;
  side = 1.0 / (double) n;
  if (tex_coord_x != NULL)
    *tex_coord_x = y * side;
  if (tex_coord_y != NULL)
    *tex_coord_y = x * side;
  return side;
}

/**
 * terrain_quadtree_texture_geometry_node:
 * @texture_level: level L of the texture tree
 * @x: texture stub X
 * @y: texture stub Y
 * @geometry_x: (out) (optional): X of the geometry node at level L
 * @geometry_y: (out) (optional): Y of the geometry node at level L
 *
 * The geometry node that texture stub (@x, @y) textures, the inverse of
 * [func@Terrain.quadtree_texture_stub] at one level: the texture tree
 * reflects geometry X (atlas-chu-tqt.md §4, "Texture-tree orientation"),
 * so with N = 2^L the node is (N - 1 - @x, @y).
 *
 * Returns: %FALSE when @x or @y lies outside the level (the outputs are
 *   then not set)
 */
gboolean
terrain_quadtree_texture_geometry_node (guint    texture_level,
                                        guint32  x,
                                        guint32  y,
                                        guint32 *geometry_x,
                                        guint32 *geometry_y)
{
  guint64 n;

  g_return_val_if_fail (texture_level < TERRAIN_QUADTREE_MAX_DEPTH, FALSE);

  n = G_GUINT64_CONSTANT (1) << texture_level;
  if (x >= n || y >= n)
    return FALSE;
  if (geometry_x != NULL)
    *geometry_x = (guint32) (n - 1 - x);
  if (geometry_y != NULL)
    *geometry_y = y;
  return TRUE;
}
