/* terrain-atlas-builder-collision.c: a leaf chunk's collision block for
 * the Atlas builder
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The lists TGEA's generator makes (field-notes.md, "Collision"), the same
 * bins as terrain_atlas_geometry_generate_collision(), made in one pass over
 * the triangles with the bins around each bounding box
 * (terrain-atlas-builder-geometry.c calls it for every leaf).
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-atlas-builder-collision-private.h"
#include "terrain-atlas-geometry-impl-private.h"
#include "terrain-quadtree.h"

/* A triangle prepared for triangle_overlaps_rect() of
 * terrain-atlas-geometry.c: the same decisions, bit for bit (touching counts
 * as overlap, so the bins are the ones
 * [method@Terrain.AtlasGeometry.generate_collision] makes), with the edge
 * axes worked out once and each axis's extreme rectangle corner picked by
 * sign instead of trying all four. A bin of make_collision() overlaps the
 * triangle when it meets the bounding box and, on each edge normal (nx,
 * ny) from the edge's start (sx, sy), the rectangle's extent [nx (xa − sx)
 * + ny (ya − sy), nx (xb − sx) + ny (yb − sy)] (the corners picked by the
 * normal's signs) meets the triangle's [lo, hi]. */
typedef struct
{
  gfloat xmin, xmax, ymin, ymax;
  double sx[3], sy[3];      /* edge start */
  double nx[3], ny[3];      /* edge normal */
  double lo[3], hi[3];      /* the triangle's extent on each normal */
} PreparedTriangle;

static void
prepare_triangle (PreparedTriangle *t,
                  const gfloat     *a,
                  const gfloat     *b,
                  const gfloat     *c)
{
  const gfloat *p[3] = { a, b, c };

  t->xmin = MIN (MIN (a[0], b[0]), c[0]);
  t->xmax = MAX (MAX (a[0], b[0]), c[0]);
  t->ymin = MIN (MIN (a[1], b[1]), c[1]);
  t->ymax = MAX (MAX (a[1], b[1]), c[1]);
  for (guint e = 0; e < 3; e++)
    {
      const gfloat *s = p[e], *q = p[(e + 1) % 3], *o = p[(e + 2) % 3];
      double nx = -(double) (q[1] - s[1]), ny = (double) (q[0] - s[0]);
      double tri = nx * (o[0] - s[0]) + ny * (o[1] - s[1]);

      t->sx[e] = s[0];
      t->sy[e] = s[1];
      t->nx[e] = nx;
      t->ny[e] = ny;
      t->lo[e] = MIN (0.0, tri);
      t->hi[e] = MAX (0.0, tri);
    }
}

void
terrain_atlas_builder_collision_clear (Collision *c)
{
  g_free (c->tree);
  g_free (c->offsets);
  g_free (c->entries);
  memset (c, 0, sizeof *c);
}

/* The bins of one axis whose rectangle meets [lo, hi]: a guess from the
 * bin width, widened by one and clamped, then narrowed by the bins' sides
 * as the overlap test computes them (@origin + @side × i, in double). */
static inline void
bin_span (gfloat   lo,
          gfloat   hi,
          gfloat   origin,
          double   side,
          double   inv,
          guint32  grid,
          gint64  *first,
          gint64  *last)
{
  gint64 i0 = CLAMP ((gint64) ((lo - origin) * inv) - 1, 0, (gint64) grid - 1);
  gint64 i1 = CLAMP ((gint64) ((hi - origin) * inv) + 1, 0, (gint64) grid - 1);

  while (i0 < i1 && origin + side * (i0 + 1) < lo)
    i0++;
  while (i1 > i0 && origin + side * i1 > hi)
    i1--;
  *first = i0;
  *last = i1;
}

/* The collision block TGEA's generator makes (field-notes.md): the point
 * bounds cut into 2^(depth−1) bins a side, each surface triangle listed in
 * every bin its XY projection touches (index offsets into mIndex, 0xFFFF
 * after each bin), leaf nodes holding their triangles' Z range. Same result
 * as terrain_atlas_geometry_generate_collision(), but each triangle only
 * visits the bins around its bounding box. Returns FALSE when an offset
 * does not fit in 16 bits. */
gboolean
terrain_atlas_builder_make_collision (CollisionScratch         *s,
                                      const TerrainAtlasVertex *v,
                                      guint                     n_vertices,
                                      const guint32            *indices,
                                      guint                     n_surface,
                                      guint32                   depth,
                                      Collision                *c)
{
  TerrainAtlasBox box;
  guint32 grid = (guint32) 1 << (depth - 1);
  guint64 nodes = terrain_quadtree_node_count (depth);
  guint64 leaf_base = terrain_quadtree_node_count (depth - 1);
  g_autofree guint32 *counts = g_new0 (guint32, (gsize) grid * grid + 1);
  g_autofree guint32 *fill = NULL;
  g_autofree guint16 *flat = NULL;
  g_autofree gfloat *bin_lo = g_new (gfloat, (gsize) grid * grid);
  g_autofree gfloat *bin_hi = g_new (gfloat, (gsize) grid * grid);
  gsize n_pairs = 0;
  double sx, sy, inv_x, inv_y;
  double *xs, *ys, *by_lo, *by_hi;
  guint total = 0;

  memcpy (box.min, v[0].point, sizeof box.min);
  memcpy (box.max, v[0].point, sizeof box.max);
  for (guint i = 1; i < n_vertices; i++)
    for (guint a = 0; a < 3; a++)
      {
        box.min[a] = MIN (box.min[a], v[i].point[a]);
        box.max[a] = MAX (box.max[a], v[i].point[a]);
      }
  sx = ((double) box.max[0] - box.min[0]) / grid;
  sy = ((double) box.max[1] - box.min[1]) / grid;
  inv_x = sx > 0 ? 1.0 / sx : 0.0;
  inv_y = sy > 0 ? 1.0 / sy : 0.0;
  /* The bins' sides, xs[i] = box.min[0] + sx * i as the test computes
   * them, and room for each edge's share of a rectangle's extent on its
   * normal per row of bins (by_lo, by_hi: 3 a row). */
  if (s->sides_size < 8 * (gsize) grid + 2)
    {
      s->sides_size = 8 * (gsize) grid + 2;
      g_free (s->sides);
      s->sides = g_new (gdouble, s->sides_size);
    }
  xs = s->sides;
  ys = xs + grid + 1;
  by_lo = ys + grid + 1;
  by_hi = by_lo + 3 * (gsize) grid;
  for (guint32 i = 0; i <= grid; i++)
    {
      xs[i] = box.min[0] + sx * i;
      ys[i] = box.min[1] + sy * i;
    }
  for (guint32 b = 0; b < grid * grid; b++)
    {
      bin_lo[b] = box.max[2] + 1.0f;
      bin_hi[b] = box.min[2] - 1.0f;
    }

  /* One pass over the triangles collects (bin, offset) pairs in index
   * order; a counting sort by bin keeps that order within each bin. */
  if (n_surface > MAX_COLLISION_INDEX)
    return FALSE;
  if (s->pairs == NULL)
    {
      s->pairs_size = n_surface / 2 + 16;
      s->pairs = g_new (guint32, s->pairs_size);
    }
  for (guint k = 0; k + 2 < n_surface; k += 3)
    {
      const gfloat *a = v[indices[k]].point, *b = v[indices[k + 1]].point;
      const gfloat *cc = v[indices[k + 2]].point;
      PreparedTriangle t;
      gboolean prepared = FALSE;
      gint64 i0 = 0, i1 = grid - 1, j0 = 0, j1 = grid - 1;
      gfloat zlo, zhi;

      if (indices[k] == indices[k + 1] || indices[k + 1] == indices[k + 2] ||
          indices[k + 2] == indices[k])
        continue;
      /* The bounding box now, the edge axes only for a bin that does not
       * hold the whole box. */
      t.xmin = MIN (MIN (a[0], b[0]), cc[0]);
      t.xmax = MAX (MAX (a[0], b[0]), cc[0]);
      t.ymin = MIN (MIN (a[1], b[1]), cc[1]);
      t.ymax = MAX (MAX (a[1], b[1]), cc[1]);
      zlo = MIN (MIN (a[2], b[2]), cc[2]);
      zhi = MAX (MAX (a[2], b[2]), cc[2]);

      /* Only the bins whose rectangle (computed as the test computes it)
       * meets the triangle's bounding box. */
      if (sx > 0)
        bin_span (t.xmin, t.xmax, box.min[0], sx, inv_x, grid, &i0, &i1);
      if (sy > 0)
        bin_span (t.ymin, t.ymax, box.min[1], sy, inv_y, grid, &j0, &j1);

      for (gint64 i = i0; i <= i1; i++)
        {
          double x0 = xs[i], x1 = xs[i + 1];
          gboolean x_in = t.xmin >= x0 && t.xmax <= x1;
          gboolean x_out = t.xmax < x0 || t.xmin > x1;
          gboolean column = FALSE;
          double ax_lo[3], ax_hi[3];

          for (gint64 j = j0; j <= j1; j++)
            {
              double y0 = ys[j], y1 = ys[j + 1];
              guint32 bin = (guint32) (i * grid + j), pair;

              /* A bin holding the triangle's box overlaps it: every edge
               * axis then sees the rectangle's extent reach both sides of
               * the edge's start (products of exact signs), so the test
               * would pass too. Else prepared_overlaps_rect()'s test, its
               * products (nx * (x - sx), ny * (y - sy)) worked out once a
               * column and once a row of bins. */
              if (!(x_in && t.ymin >= y0 && t.ymax <= y1))
                {
                  gsize r = 3 * (gsize) (j - j0);
                  gboolean miss = FALSE;

                  if (!prepared)
                    {
                      prepare_triangle (&t, a, b, cc);
                      for (gint64 jj = j0; jj <= j1; jj++)
                        for (guint e = 0; e < 3; e++)
                          {
                            double ny = t.ny[e], ya = ys[jj], yb = ys[jj + 1];

                            by_lo[3 * (jj - j0) + e] = ny * ((ny >= 0 ? ya : yb) - t.sy[e]);
                            by_hi[3 * (jj - j0) + e] = ny * ((ny >= 0 ? yb : ya) - t.sy[e]);
                          }
                      prepared = TRUE;
                    }
                  if (x_out || t.ymax < y0 || t.ymin > y1)
                    continue;
                  if (!column)
                    {
                      for (guint e = 0; e < 3; e++)
                        {
                          double nx = t.nx[e];

                          ax_lo[e] = nx * ((nx >= 0 ? x0 : x1) - t.sx[e]);
                          ax_hi[e] = nx * ((nx >= 0 ? x1 : x0) - t.sx[e]);
                        }
                      column = TRUE;
                    }
                  for (guint e = 0; e < 3 && !miss; e++)
                    {
                      double lo = ax_lo[e] + by_lo[r + e], hi = ax_hi[e] + by_hi[r + e];

                      miss = hi < t.lo[e] || lo > t.hi[e];
                    }
                  if (miss)
                    continue;
                }
              counts[bin]++;
              bin_lo[bin] = MIN (bin_lo[bin], zlo);
              bin_hi[bin] = MAX (bin_hi[bin], zhi);
              pair = (bin << 16) | k;
              if (G_UNLIKELY (n_pairs == s->pairs_size))
                {
                  s->pairs_size *= 2;
                  s->pairs = g_renew (guint32, s->pairs, s->pairs_size);
                }
              s->pairs[n_pairs++] = pair;
            }
        }
    }

  fill = g_new (guint32, (gsize) grid * grid);
  for (guint32 b = 0; b < grid * grid; b++)
    {
      fill[b] = total;
      total += counts[b] + 1;
    }
  flat = g_new (guint16, MAX (total, 1));
  for (gsize i = 0; i < n_pairs; i++)
    {
      guint32 pair = s->pairs[i];

      flat[fill[pair >> 16]++] = (guint16) (pair & 0xFFFF);
    }

  c->depth = depth;
  c->n_nodes = (guint) nodes;
  c->tree = g_new (gfloat, 2 * nodes);
  c->n_offsets = grid * grid;
  c->offsets = g_new (guint16, (gsize) grid * grid);
  /* The flat lists are the entries once each bin's end is marked: fill[b]
   * has reached the slot after bin b's offsets. */
  for (guint32 b = 0; b < grid * grid; b++)
    flat[fill[b]] = TERRAIN_ATLAS_COLLISION_END;
  c->n_entries = total;
  c->entries = g_steal_pointer (&flat);
  {
    guint at = 0;

    for (guint32 b = 0; b < grid * grid; b++)
      {
        if (at > G_MAXUINT16)
          return FALSE;
        c->offsets[b] = (guint16) at;
        at += counts[b] + 1;
        c->tree[2 * (leaf_base + b)] = bin_lo[b];
        c->tree[2 * (leaf_base + b) + 1] = bin_hi[b];
      }
  }

  terrain_atlas_collision_close_tree (c->tree, depth, &box);

  return TRUE;
}
