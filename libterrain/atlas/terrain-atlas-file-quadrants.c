/* terrain-atlas-file-quadrants.c: splitting an Atlas file into its four
 * quadrants and merging four back into one, along the quadtree
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * TGEA's Atlas console tools merge texture trees (mergeTQT) but have no
 * geometry merge or split: atlasConsoleGenerator.cpp offers
 * atlasGenerateBlenderTerrain, atlasGenerateUniqueTerrain and
 * atlasConvertTextureTOC, all of which copy a geometry TOC whole. These two
 * operations are libterrain's own, built on the node arithmetic of
 * atlas-chu-tqt.md §6 and the texture mapping of §4 and §9b.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-atlas-file-impl-private.h"
#include "terrain-atlas-builder.h"
#include "terrain-quadtree.h"
#include "core/terrain-error.h"
#include "core/terrain-heightfield.h"

/* Quadrant q's offsets in a tree one level deeper, in node units of the
 * level below the root: geometry node x grows eastwards and y northwards
 * (§9b), so the east and north quadrants move by 2^level. */
static inline guint
quadrant_east (guint q)
{
  return atlas_quadrants[q].west ? 0 : 1;
}

static inline guint
quadrant_north (guint q)
{
  return atlas_quadrants[q].north;
}

/* The surface triangles (the mIndexCount − mSkirtSkipCount first indices)
 * of one or more chunks, bucketed on a grid over their XY extent so that
 * the height of the surface at a point is found without looking at every
 * triangle. */
typedef struct
{
  GArray *corners;  /* gdouble[9] per triangle: x, y, z of three corners */
  GArray **cells;   /* guint triangle indices per grid cell */
  guint side;
  gdouble x0, y0, cell_w, cell_h;
} SurfaceLookup;

static void
surface_lookup_add (SurfaceLookup        *lookup,
                    TerrainAtlasGeometry *geometry,
                    const gdouble         shift[2])
{
  guint n_vertices, n_indices;
  const TerrainAtlasVertex *v = terrain_atlas_geometry_get_vertices (geometry, &n_vertices);
  const guint16 *index = terrain_atlas_geometry_get_indices (geometry, &n_indices);
  guint end = n_indices - MIN (n_indices, terrain_atlas_geometry_get_skirt_skip_count (geometry));

  for (guint k = 0; k + 2 < end; k += 3)
    {
      gdouble t[9];

      if (index[k] >= n_vertices || index[k + 1] >= n_vertices || index[k + 2] >= n_vertices)
        continue;
      for (guint c = 0; c < 3; c++)
        {
          const gfloat *p = v[index[k + c]].point;

          t[3 * c] = p[0] + shift[0];
          t[3 * c + 1] = p[1] + shift[1];
          t[3 * c + 2] = p[2];
        }
      g_array_append_vals (lookup->corners, t, 9);
    }
}

static void
surface_lookup_init (SurfaceLookup *lookup)
{
  memset (lookup, 0, sizeof *lookup);
  lookup->corners = g_array_new (FALSE, FALSE, sizeof (gdouble));
}

/* Buckets the triangles added so far over @box (x and y); about four
 * triangles a cell. */
static void
surface_lookup_index (SurfaceLookup *lookup,
                      gdouble        x0,
                      gdouble        y0,
                      gdouble        x1,
                      gdouble        y1)
{
  guint n = lookup->corners->len / 9;
  const gdouble *t = (const gdouble *) (gpointer) lookup->corners->data;

  lookup->side = CLAMP ((guint) sqrt (n / 4.0), 1u, 1024u);
  lookup->x0 = x0;
  lookup->y0 = y0;
  lookup->cell_w = MAX (x1 - x0, 1e-9) / lookup->side;
  lookup->cell_h = MAX (y1 - y0, 1e-9) / lookup->side;
  lookup->cells = g_new0 (GArray *, (gsize) lookup->side * lookup->side);
  for (guint i = 0; i < n; i++)
    {
      const gdouble *c = t + 9 * (gsize) i;
      gdouble lo_x = MIN (MIN (c[0], c[3]), c[6]), hi_x = MAX (MAX (c[0], c[3]), c[6]);
      gdouble lo_y = MIN (MIN (c[1], c[4]), c[7]), hi_y = MAX (MAX (c[1], c[4]), c[7]);
      gint cx0 = (gint) floor ((lo_x - x0) / lookup->cell_w) - 1;
      gint cx1 = (gint) floor ((hi_x - x0) / lookup->cell_w) + 1;
      gint cy0 = (gint) floor ((lo_y - y0) / lookup->cell_h) - 1;
      gint cy1 = (gint) floor ((hi_y - y0) / lookup->cell_h) + 1;

      cx0 = MAX (cx0, 0), cy0 = MAX (cy0, 0);
      cx1 = MIN (cx1, (gint) lookup->side - 1), cy1 = MIN (cy1, (gint) lookup->side - 1);
      for (gint cy = cy0; cy <= cy1; cy++)
        for (gint cx = cx0; cx <= cx1; cx++)
          {
            GArray **cell = &lookup->cells[(gsize) cy * lookup->side + (gsize) cx];

            if (*cell == NULL)
              *cell = g_array_new (FALSE, FALSE, sizeof (guint));
            g_array_append_val (*cell, i);
          }
    }
}

static void
surface_lookup_clear (SurfaceLookup *lookup)
{
  if (lookup->cells != NULL)
    for (gsize i = 0; i < (gsize) lookup->side * lookup->side; i++)
      if (lookup->cells[i] != NULL)
        g_array_unref (lookup->cells[i]);
  g_clear_pointer (&lookup->cells, g_free);
  g_clear_pointer (&lookup->corners, g_array_unref);
}

/* The surface height at (x, y): the triangle holding the point, or, for a
 * point just outside every triangle (the outer edge, by rounding), the one
 * it is least outside of. NaN when no triangle is near. */
static gdouble
surface_lookup_height (const SurfaceLookup *lookup,
                       gdouble              x,
                       gdouble              y)
{
  gint cx = (gint) floor ((x - lookup->x0) / lookup->cell_w);
  gint cy = (gint) floor ((y - lookup->y0) / lookup->cell_h);
  const gdouble *t = (const gdouble *) (gpointer) lookup->corners->data;
  GArray *cell;
  gdouble best = -G_MAXDOUBLE, best_z = NAN;

  cx = CLAMP (cx, 0, (gint) lookup->side - 1);
  cy = CLAMP (cy, 0, (gint) lookup->side - 1);
  cell = lookup->cells[(gsize) cy * lookup->side + (gsize) cx];
  if (cell == NULL)
    return NAN;
  for (guint k = 0; k < cell->len; k++)
    {
      const gdouble *c = t + 9 * (gsize) g_array_index (cell, guint, k);
      gdouble area = (c[3] - c[0]) * (c[7] - c[1]) - (c[6] - c[0]) * (c[4] - c[1]);
      gdouble wa, wb, wc, worst;

      if (!(fabs (area) > 1e-12))
        continue;
      wa = ((c[3] - x) * (c[7] - y) - (c[6] - x) * (c[4] - y)) / area;
      wb = ((c[6] - x) * (c[1] - y) - (c[0] - x) * (c[7] - y)) / area;
      wc = 1.0 - wa - wb;
      worst = MIN (MIN (wa, wb), wc);
      if (worst > best)
        {
          best = worst;
          best_z = wa * c[2] + wb * c[5] + wc * c[8];
          if (worst >= 0.0)
            break;
        }
    }
  return best > -0.01 ? best_z : NAN;
}

/* Which vertices the surface triangles use (the others are skirt). */
static gboolean *
surface_vertices (TerrainAtlasGeometry *geometry)
{
  guint n_vertices, n_indices;
  const guint16 *index = terrain_atlas_geometry_get_indices (geometry, &n_indices);
  guint end = n_indices - MIN (n_indices, terrain_atlas_geometry_get_skirt_skip_count (geometry));
  gboolean *surface;

  terrain_atlas_geometry_get_vertices (geometry, &n_vertices);
  surface = g_new0 (gboolean, MAX (n_vertices, 1));
  for (guint k = 0; k < end; k++)
    if (index[k] < n_vertices)
      surface[index[k]] = TRUE;
  return surface;
}

/* A writable copy of @geometry's vertices. */
static TerrainAtlasVertex *
vertices_dup (TerrainAtlasGeometry *geometry,
              guint                *n)
{
  const TerrainAtlasVertex *v = terrain_atlas_geometry_get_vertices (geometry, n);

  return g_memdup2 (v, sizeof *v * MAX (*n, 1));
}

/* A chunk moved into another tree: points shifted by @shift, texture
 * coordinates through tc' = scale · tc + offset (their morph offsets
 * scaled alike), and the stored bounds shifted with the points. */
static void
transform_geometry (TerrainAtlasGeometry *geometry,
                    const gdouble         shift[2],
                    gdouble               scale,
                    const gdouble         offset[2])
{
  guint n;
  g_autofree TerrainAtlasVertex *v = vertices_dup (geometry, &n);
  TerrainAtlasBox box;

  for (guint i = 0; i < n; i++)
    {
      v[i].point[0] = (gfloat) (v[i].point[0] + shift[0]);
      v[i].point[1] = (gfloat) (v[i].point[1] + shift[1]);
      for (guint a = 0; a < 2; a++)
        {
          v[i].tex_coord[a] = (gfloat) (scale * v[i].tex_coord[a] + offset[a]);
          v[i].tex_morph_offset[a] = (gfloat) (scale * v[i].tex_morph_offset[a]);
        }
    }
  terrain_atlas_geometry_set_vertices (geometry, v, n);
  terrain_atlas_geometry_get_bounds (geometry, &box);
  for (guint a = 0; a < 2; a++)
    {
      box.min[a] = (gfloat) (box.min[a] + shift[a]);
      box.max[a] = (gfloat) (box.max[a] + shift[a]);
    }
  terrain_atlas_geometry_set_bounds (geometry, &box);
  terrain_atlas_geometry_set_previous_chunk (geometry, 0);
}

/* A root's morph offsets are zero: it has no parent to morph to (§9b). */
static void
clear_morph (TerrainAtlasGeometry *geometry)
{
  guint n;
  g_autofree TerrainAtlasVertex *v = vertices_dup (geometry, &n);

  for (guint i = 0; i < n; i++)
    {
      memset (v[i].tex_morph_offset, 0, sizeof v[i].tex_morph_offset);
      memset (v[i].point_morph_offset, 0, sizeof v[i].point_morph_offset);
    }
  terrain_atlas_geometry_set_vertices (geometry, v, n);
}

/* A new, empty TOC shaped like @toc at @depth. */
static TerrainAtlasToc *
toc_like (TerrainAtlasToc *toc,
          guint            depth)
{
  TerrainAtlasToc *out = terrain_atlas_toc_new (terrain_atlas_toc_get_kind (toc),
                                                terrain_atlas_toc_get_version (toc), depth,
                                                (guint) terrain_quadtree_node_count (depth));

  if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_GEOMETRY)
    terrain_atlas_toc_set_goal_batch_size (out, terrain_atlas_toc_get_goal_batch_size (toc));
  return out;
}

/* Config TOC @t of @in copied into @out: its stub names and chunks, each
 * chunk's previousChunk cleared as in any new file. */
static gboolean
copy_config_toc (TerrainAtlasFile  *out,
                 TerrainAtlasFile  *in,
                 guint              t,
                 GError           **error)
{
  TerrainAtlasToc *toc = terrain_atlas_file_get_toc (in, t);
  guint n = terrain_atlas_toc_get_n_stubs (toc);
  g_autoptr(TerrainAtlasToc) copy = terrain_atlas_toc_new (TERRAIN_ATLAS_TOC_CONFIG,
                                                           terrain_atlas_toc_get_version (toc),
                                                           0, n);
  guint slot = terrain_atlas_file_get_n_tocs (out);

  if (!terrain_atlas_toc_set_name_width (copy, terrain_atlas_toc_get_name_width (toc)))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas: config TOC %u's name width %u cannot be copied", t,
                   terrain_atlas_toc_get_name_width (toc));
      return FALSE;
    }
  for (guint s = 0; s < n; s++)
    {
      g_autoptr(TerrainAtlasStub) stub = terrain_atlas_toc_get_stub (toc, s);
      g_autofree char *name = terrain_atlas_stub_dup_name (stub);

      if (!terrain_atlas_toc_set_stub_name (copy, s, name != NULL ? name : ""))
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "Atlas: config stub %u's name does not fit the new TOC", s);
          return FALSE;
        }
    }
  if (!terrain_atlas_file_add_toc (out, copy, error))
    return FALSE;
  for (guint s = 0; s < n; s++)
    {
      g_autoptr(TerrainAtlasStub) stub = terrain_atlas_toc_get_stub (toc, s);
      g_autoptr(TerrainAtlasConfig) config = NULL;

      if (!terrain_atlas_stub_has_chunk (stub))
        continue;
      config = terrain_atlas_file_get_config (in, t, s, error);
      if (config == NULL)
        return FALSE;
      terrain_atlas_config_set_previous_chunk (config, 0);
      if (!terrain_atlas_file_set_config (out, slot, s, config, error))
        return FALSE;
    }
  return TRUE;
}

/* Geometry TOC @t's root, decoded, and its XY extent in @box: where the
 * terrain lies. %NULL with an error when there is no root covering an
 * area. */
static TerrainAtlasGeometry *
root_geometry (TerrainAtlasFile  *file,
               guint              t,
               const char        *what,
               TerrainAtlasBox   *box,
               GError           **error)
{
  g_autoptr(TerrainAtlasStub) stub = terrain_atlas_toc_get_stub (terrain_atlas_file_get_toc (file, t), 0);
  g_autoptr(TerrainAtlasGeometry) root = NULL;

  root = terrain_atlas_stub_has_chunk (stub) ? terrain_atlas_file_get_geometry (file, t, 0, error)
                                             : NULL;
  if (root == NULL || !terrain_atlas_geometry_compute_bounds (root, box) ||
      !(box->max[0] > box->min[0]) || !(box->max[1] > box->min[1]))
    {
      if (error == NULL || *error == NULL)
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                     "Atlas: %s geometry TOC %u has no root chunk covering an area", what, t);
      else
        g_prefix_error (error, "%s geometry TOC %u's root: ", what, t);
      return NULL;
    }
  return g_steal_pointer (&root);
}

static gboolean
check_version (TerrainAtlasToc  *toc,
               guint             t,
               const char       *what,
               GError          **error)
{
  if (terrain_atlas_toc_get_version (toc) < 101)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "Atlas: %s geometry TOC %u is version %u, which stores no chunk bounds; "
                   "convert it to version 101 or later first",
                   what, t, terrain_atlas_toc_get_version (toc));
      return FALSE;
    }
  return TRUE;
}

/**
 * terrain_atlas_file_new_quadrant:
 * @self: a #TerrainAtlasFile
 * @quadrant: which quarter of the terrain to keep
 * @error: return location for a #GError
 *
 * Makes a new Atlas file holding one quarter of @self, cut along the
 * quadtree (atlas-chu-tqt.md §6): in every geometry and texture TOC, the
 * subtree under the root's child in @quadrant becomes the new tree, one
 * level shallower. A node (L, x, y) of that subtree becomes (L − 1,
 * x − e·2^(L−1), y − n·2^(L−1)), e and n being 1 for the east and north
 * quadrants (for texture trees the reflected X of §4).
 *
 * Geometry chunks move so that the quarter starts where the terrain
 * started: points shift by minus the quarter's offset in metres, texture
 * coordinates are rescaled to span the quarter (§9b: tc' = 2·tc − offset,
 * texture morph offsets doubled), and the new root's morph offsets are
 * cleared, a root having no parent. Texture tiles keep their bytes. Config
 * TOCs are copied as they are. Stub generations are 0 and previousChunk
 * fields are cleared, as in any new file; bounds are recomputed.
 *
 * TGEA's tools have no such operation (see the file's comment).
 *
 * Returns: (transfer full) (nullable): the quarter as a new file in memory,
 *   or %NULL with a %TERRAIN_ERROR: a quadtree TOC of depth 1 (no subtree
 *   to keep), a geometry TOC before version 101, or a chunk that does not
 *   decode
 */
TerrainAtlasFile *
terrain_atlas_file_new_quadrant (TerrainAtlasFile      *self,
                                 TerrainAtlasQuadrant   quadrant,
                                 GError               **error)
{
  g_autoptr(TerrainAtlasFile) out = NULL;
  guint q = (guint) quadrant;
  guint e = 0, n = 0;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);
  g_return_val_if_fail (q < 4, NULL);
  e = quadrant_east (q);
  n = quadrant_north (q);

  out = terrain_atlas_file_new ();
  for (guint t = 0; t < terrain_atlas_file_get_n_tocs (self); t++)
    {
      TerrainAtlasToc *toc = terrain_atlas_file_get_toc (self, t);
      TerrainAtlasTocKind kind = terrain_atlas_toc_get_kind (toc);
      gboolean geometry = kind == TERRAIN_ATLAS_TOC_GEOMETRY;
      guint depth = terrain_atlas_toc_get_tree_depth (toc);
      g_autoptr(TerrainAtlasToc) part = NULL;
      guint slot = terrain_atlas_file_get_n_tocs (out);
      TerrainAtlasBox extent;
      gdouble shift[2] = { 0, 0 }, offset[2] = { 0, 0 };

      if (kind == TERRAIN_ATLAS_TOC_CONFIG)
        {
          if (!copy_config_toc (out, self, t, error))
            return NULL;
          continue;
        }
      if (depth < 2)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "Atlas: TOC %u (%s) has %u level; a quarter needs a tree of two levels "
                       "or more", t, terrain_atlas_toc_get_tag (toc), depth);
          return NULL;
        }
      if (geometry)
        {
          g_autoptr(TerrainAtlasGeometry) root = NULL;

          if (!check_version (toc, t, "the", error) ||
              (root = root_geometry (self, t, "the", &extent, error)) == NULL)
            return NULL;
          shift[0] = -(gdouble) e * (extent.max[0] - extent.min[0]) / 2.0;
          shift[1] = -(gdouble) n * (extent.max[1] - extent.min[1]) / 2.0;
          offset[0] = -(gdouble) n;
          offset[1] = -(1.0 - e);
        }

      part = toc_like (toc, depth - 1);
      if (!terrain_atlas_file_add_toc (out, part, error))
        return NULL;
      for (guint level = 1; level < depth; level++)
        {
          guint32 half = (guint32) 1 << (level - 1);
          guint32 from_x = geometry ? e * half : atlas_quadrants[q].west * half;
          guint32 from_y = n * half;

          for (guint32 x = 0; x < half; x++)
            for (guint32 y = 0; y < half; y++)
              {
                gint64 from = terrain_atlas_toc_find_stub (toc, level, from_x + x, from_y + y);
                gint64 to = terrain_atlas_toc_find_stub (part, level - 1, x, y);
                g_autoptr(TerrainAtlasStub) stub = NULL;
                gboolean ok;

                if (from < 0 || to < 0)
                  continue;
                stub = terrain_atlas_toc_get_stub (toc, (guint) from);
                if (!terrain_atlas_stub_has_chunk (stub))
                  continue;
                if (geometry)
                  {
                    g_autoptr(TerrainAtlasGeometry) chunk =
                      terrain_atlas_file_get_geometry (self, t, (guint) from, error);

                    if (chunk == NULL)
                      return NULL;
                    transform_geometry (chunk, shift, 2.0, offset);
                    if (level == 1)
                      clear_morph (chunk);
                    ok = terrain_atlas_file_set_geometry (out, slot, (guint) to, chunk, error);
                  }
                else
                  {
                    g_autoptr(GBytes) body =
                      terrain_atlas_file_get_chunk_body (self, t, (guint) from, error);

                    ok = body != NULL &&
                         terrain_atlas_file_set_chunk_body (out, slot, (guint) to, body, error);
                  }
                if (!ok)
                  {
                    g_prefix_error (error, "TOC %u, stub %" G_GINT64_FORMAT ": ", t, from);
                    return NULL;
                  }
              }
        }
      if (geometry && !terrain_atlas_file_update_bounds (out, slot, error))
        return NULL;
    }
  return g_steal_pointer (&out);
}

/* The largest |point morph offset| of the surface vertices of level 1: how
 * far the root strays from its children, an estimate of the root's error. */
static gdouble
root_morph_error (TerrainAtlasFile  *file,
                  guint              t,
                  GError           **error)
{
  TerrainAtlasToc *toc = terrain_atlas_file_get_toc (file, t);
  gdouble worst = 0.0;

  for (guint k = 0; k < 4; k++)
    {
      gint64 s = terrain_atlas_toc_find_stub (toc, 1, k >> 1, k & 1);
      g_autoptr(TerrainAtlasStub) stub = NULL;
      g_autoptr(TerrainAtlasGeometry) chunk = NULL;
      g_autofree gboolean *surface = NULL;
      const TerrainAtlasVertex *v;
      guint nv;

      if (s < 0)
        continue;
      stub = terrain_atlas_toc_get_stub (toc, (guint) s);
      if (!terrain_atlas_stub_has_chunk (stub))
        continue;
      chunk = terrain_atlas_file_get_geometry (file, t, (guint) s, error);
      if (chunk == NULL)
        return -1.0;
      surface = surface_vertices (chunk);
      v = terrain_atlas_geometry_get_vertices (chunk, &nv);
      for (guint i = 0; i < nv; i++)
        if (surface[i] && isfinite (v[i].point_morph_offset[2]))
          worst = MAX (worst, fabs (v[i].point_morph_offset[2]));
    }
  return worst;
}

/* Grid intervals per quadrant side for the heights the new root is built
 * from: about the spacing of the quadrant roots' own vertices (a root of V
 * vertices is about a √V × √V grid of them), a power of two from 16 to 64:
 * a 129 × 129 grid at most, whose one chunk stays within the 16-bit vertex
 * limit however rough the terrain, so the builder keeps its depth of 1. */
static guint
root_grid_intervals (TerrainAtlasGeometry *roots[4])
{
  guint most = 0, r = 16;

  for (guint q = 0; q < 4; q++)
    most = MAX (most, terrain_atlas_geometry_get_n_vertices (roots[q]));
  while (r < 64 && (gdouble) r * r < most)
    r *= 2;
  return r;
}

/* The root of the merged tree: the four quadrant roots, placed, sampled on
 * a (2R + 1)² grid and simplified by the builder to @root_error metres. */
static TerrainAtlasGeometry *
build_merged_root (TerrainAtlasGeometry *roots[4],
                   const gdouble         shifts[4][2],
                   const TerrainAtlasBox *extent,
                   guint32                version,
                   gdouble                root_error,
                   GError               **error)
{
  gdouble width = extent->max[0] - extent->min[0];
  gdouble height = extent->max[1] - extent->min[1];
  guint r = root_grid_intervals (roots);
  guint side = 2 * r + 1;
  SurfaceLookup lookup;
  g_autofree gfloat *heights = g_new (gfloat, (gsize) side * side);
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(TerrainAtlasBuilder) builder = NULL;
  g_autoptr(TerrainAtlasFile) built = NULL;
  TerrainAtlasGeometry *root = NULL;
  gdouble spacing = width / (2.0 * r);
  gdouble shift[2] = { extent->min[0], extent->min[1] };
  gdouble unit[2] = { 0.0, 0.0 };
  gint t;

  surface_lookup_init (&lookup);
  for (guint q = 0; q < 4; q++)
    surface_lookup_add (&lookup, roots[q], shifts[q]);
  surface_lookup_index (&lookup, extent->min[0], extent->min[1], extent->max[0], extent->max[1]);
  /* Row 0 is the north edge (§9b: world Y grows against the rows). */
  for (guint gy = 0; gy < side; gy++)
    for (guint gx = 0; gx < side; gx++)
      {
        gdouble x = extent->min[0] + width * gx / (side - 1);
        gdouble y = extent->max[1] - height * gy / (side - 1);
        gdouble z = surface_lookup_height (&lookup, x, y);

        if (isnan (z))
          {
            surface_lookup_clear (&lookup);
            g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                         "Atlas: the quadrant roots leave a hole at (%g, %g); the four trees "
                         "do not cover the merged terrain", x, y);
            return NULL;
          }
        heights[(gsize) gy * side + gx] = (gfloat) z;
      }
  surface_lookup_clear (&lookup);

  field = terrain_heightfield_new_from_data (side, side, heights, spacing, error);
  if (field == NULL)
    return NULL;
  builder = terrain_atlas_builder_new (field);
  terrain_atlas_builder_set_tree_depth (builder, 1);
  terrain_atlas_builder_set_error (builder, root_error);
  terrain_atlas_builder_set_version (builder, version);
  terrain_atlas_builder_set_collision_depth (builder, 0);
  terrain_atlas_builder_set_n_threads (builder, 1);
  built = terrain_atlas_builder_build (builder, NULL, error);
  if (built == NULL)
    {
      g_prefix_error (error, "the merged root: ");
      return NULL;
    }
  t = terrain_atlas_file_find_toc (built, TERRAIN_ATLAS_TOC_GEOMETRY, 0);
  if (t < 0 || (root = terrain_atlas_file_get_geometry (built, (guint) t, 0, error)) == NULL)
    {
      if (error == NULL || *error == NULL)
        g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                             "Atlas: the builder made no merged root");
      return NULL;
    }
  /* The builder's terrain starts at (0, 0) with square cells; the merged
   * one starts at the north-west quadrant's origin, and may be oblong. */
  if (fabs (height - width) > 1e-6 * MAX (width, height))
    {
      guint nv;
      g_autofree TerrainAtlasVertex *v = vertices_dup (root, &nv);

      for (guint i = 0; i < nv; i++)
        v[i].point[1] = (gfloat) (v[i].point[1] * height / width);
      terrain_atlas_geometry_set_vertices (root, v, nv);
    }
  transform_geometry (root, shift, 1.0, unit);
  return root;
}

/* Level 1 of the merged tree (the old roots): each surface vertex morphs
 * to the new root's surface beneath it (§9b), skirt vertices not at all,
 * as the builder makes them. */
static gboolean
morph_to_root (TerrainAtlasGeometry *chunk,
               const SurfaceLookup  *root)
{
  guint n;
  g_autofree TerrainAtlasVertex *v = vertices_dup (chunk, &n);
  g_autofree gboolean *surface = surface_vertices (chunk);

  for (guint i = 0; i < n; i++)
    {
      gdouble z = surface[i] ? surface_lookup_height (root, v[i].point[0], v[i].point[1]) : NAN;

      memset (v[i].tex_morph_offset, 0, sizeof v[i].tex_morph_offset);
      v[i].point_morph_offset[0] = v[i].point_morph_offset[1] = 0.0f;
      v[i].point_morph_offset[2] = isnan (z) ? 0.0f : (gfloat) (z - v[i].point[2]);
      if (surface[i] && isnan (z))
        return FALSE;
    }
  terrain_atlas_geometry_set_vertices (chunk, v, n);
  return TRUE;
}

/**
 * terrain_atlas_file_new_merged:
 * @north_west: the north-west quadrant
 * @north_east: the north-east quadrant
 * @south_west: the south-west quadrant
 * @south_east: the south-east quadrant
 * @root_error: the new root's error in metres, or 0 to derive it (twice the
 *   largest morph offset of the quadrants' level 1, the doubling of each
 *   coarser level; needs trees of two levels or more)
 * @quality: JPEG quality (1 to 100) of a new JPEG texture root
 * @error: return location for a #GError
 *
 * Merges four Atlas files into one whose terrain is the four side by side,
 * the inverse of [method@Terrain.AtlasFile.new_quadrant], along the
 * quadtree (atlas-chu-tqt.md §6).
 *
 * The first geometry TOC of each quadrant moves one level down: node
 * (L, x, y) of quadrant (e, n) becomes (L + 1, x + e·2^L, y + n·2^L), its
 * points shifted to the quadrant's place: the merged terrain starts where
 * the north-west quadrant starts (its smallest X and Y), and each quadrant
 * lies e widths east and n heights north of there and its texture coordinates halved into the quadrant's
 * part (§9b). The new root is built: the four roots are sampled on a grid
 * of about their own vertex spacing and simplified at @root_error by the
 * same mesher as [method@Terrain.AtlasBuilder.build]; the old roots' morph
 * offsets then point at it. Collision data and normals are kept.
 *
 * When all four have a texture TOC, their first ones are merged as
 * [method@Terrain.AtlasFile.new_merged_textures] does (mergeTQT), after
 * the geometry TOC; the north-west quadrant's config TOCs are copied last.
 * The quadrants' geometry trees must have one depth and version (101 or
 * later) and equal extents.
 *
 * Returns: (transfer full) (nullable): the merged file in memory, or %NULL
 *   with a %TERRAIN_ERROR saying which quadrant does not fit and why
 */
TerrainAtlasFile *
terrain_atlas_file_new_merged (TerrainAtlasFile  *north_west,
                               TerrainAtlasFile  *north_east,
                               TerrainAtlasFile  *south_west,
                               TerrainAtlasFile  *south_east,
                               gdouble            root_error,
                               guint              quality,
                               GError           **error)
{
  TerrainAtlasFile *in[4] = { north_west, north_east, south_west, south_east };
  TerrainAtlasGeometry *roots[4] = { NULL };
  gint tocs[4];
  TerrainAtlasBox boxes[4], extent;
  gdouble shifts[4][2];
  guint depth = 0;
  guint32 version = 0;
  gboolean textures = TRUE;
  g_autoptr(TerrainAtlasFile) out = NULL;
  g_autoptr(TerrainAtlasToc) merged = NULL;
  g_autoptr(TerrainAtlasGeometry) root = NULL;
  TerrainAtlasFile *result = NULL;
  SurfaceLookup lookup = { 0 };

  for (guint q = 0; q < 4; q++)
    g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (in[q]), NULL);
  if (!(root_error >= 0.0) || !isfinite (root_error) || quality < 1 || quality > 100)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas: root error %g m or JPEG quality %u is out of range", root_error,
                   quality);
      return NULL;
    }

  /* The quadrants: a geometry TOC each, one depth and version, one size. */
  for (guint q = 0; q < 4; q++)
    {
      const char *name = atlas_quadrants[q].name;
      TerrainAtlasToc *toc;

      tocs[q] = terrain_atlas_file_find_toc (in[q], TERRAIN_ATLAS_TOC_GEOMETRY, 0);
      textures = textures && terrain_atlas_file_find_toc (in[q], TERRAIN_ATLAS_TOC_TEXTURE, 0) >= 0;
      if (tocs[q] < 0)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "Atlas: the %s quadrant has no geometry TOC", name);
          goto out;
        }
      toc = terrain_atlas_file_get_toc (in[q], (guint) tocs[q]);
      if (!check_version (toc, (guint) tocs[q], name, error) ||
          (roots[q] = root_geometry (in[q], (guint) tocs[q], name, &boxes[q], error)) == NULL)
        goto out;
      if (q == 0)
        {
          depth = terrain_atlas_toc_get_tree_depth (toc);
          version = terrain_atlas_toc_get_version (toc);
        }
      if (terrain_atlas_toc_get_tree_depth (toc) != depth ||
          terrain_atlas_toc_get_version (toc) != version ||
          fabs ((boxes[q].max[0] - boxes[q].min[0]) - (boxes[0].max[0] - boxes[0].min[0])) >
            1e-4 * (boxes[0].max[0] - boxes[0].min[0]) ||
          fabs ((boxes[q].max[1] - boxes[q].min[1]) - (boxes[0].max[1] - boxes[0].min[1])) >
            1e-4 * (boxes[0].max[1] - boxes[0].min[1]))
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "Atlas: the %s quadrant's geometry tree (depth %u, version %u, %g × %g m) "
                       "does not match the north-west one's (depth %u, version %u, %g × %g m)",
                       name, terrain_atlas_toc_get_tree_depth (toc),
                       terrain_atlas_toc_get_version (toc),
                       boxes[q].max[0] - boxes[q].min[0], boxes[q].max[1] - boxes[q].min[1],
                       depth, version, boxes[0].max[0] - boxes[0].min[0],
                       boxes[0].max[1] - boxes[0].min[1]);
          goto out;
        }
    }
  if (depth + 1 > 15)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Atlas: merging geometry trees of depth %u needs depth %u, more than the 15 "
                   "a geometry TOC holds", depth, depth + 1);
      goto out;
    }
  if (root_error == 0.0)
    {
      for (guint q = 0; q < 4 && depth >= 2; q++)
        {
          gdouble e = root_morph_error (in[q], (guint) tocs[q], error);

          if (e < 0.0)
            goto out;
          root_error = MAX (root_error, 2.0 * e);
        }
      if (!(root_error > 0.0))
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "Atlas: the quadrants' trees (depth %u) give no error to derive the "
                       "merged root's from; give it", depth);
          goto out;
        }
    }

  /* Where each quadrant goes: east and north of the north-west origin. */
  {
    gdouble w = boxes[0].max[0] - boxes[0].min[0], h = boxes[0].max[1] - boxes[0].min[1];
    gdouble x0 = boxes[0].min[0], y0 = boxes[0].min[1];

    for (guint q = 0; q < 4; q++)
      {
        shifts[q][0] = x0 + quadrant_east (q) * w - boxes[q].min[0];
        shifts[q][1] = y0 + quadrant_north (q) * h - boxes[q].min[1];
      }
    extent.min[0] = (gfloat) x0;
    extent.min[1] = (gfloat) y0;
    extent.max[0] = (gfloat) (x0 + 2 * w);
    extent.max[1] = (gfloat) (y0 + 2 * h);
  }

  out = terrain_atlas_file_new ();
  merged = toc_like (terrain_atlas_file_get_toc (in[0], (guint) tocs[0]), depth + 1);
  if (!terrain_atlas_file_add_toc (out, merged, error))
    goto out;

  root = build_merged_root (roots, (const gdouble (*)[2]) shifts, &extent, version, root_error,
                            error);
  if (root == NULL || !terrain_atlas_file_set_geometry (out, 0, 0, root, error))
    goto out;
  surface_lookup_init (&lookup);
  {
    gdouble none[2] = { 0.0, 0.0 };

    surface_lookup_add (&lookup, root, none);
  }
  surface_lookup_index (&lookup, extent.min[0], extent.min[1], extent.max[0], extent.max[1]);

  /* Every quadrant chunk one level down, placed and re-mapped. */
  for (guint q = 0; q < 4; q++)
    {
      TerrainAtlasToc *toc = terrain_atlas_file_get_toc (in[q], (guint) tocs[q]);
      guint e = quadrant_east (q), n = quadrant_north (q);
      gdouble offset[2] = { n / 2.0, (1.0 - e) / 2.0 };

      for (guint level = 0; level < depth; level++)
        for (guint32 x = 0; x < (1u << level); x++)
          for (guint32 y = 0; y < (1u << level); y++)
            {
              gint64 from = terrain_atlas_toc_find_stub (toc, level, x, y);
              gint64 to = terrain_atlas_toc_find_stub (merged, level + 1, x + (e << level),
                                                       y + (n << level));
              g_autoptr(TerrainAtlasStub) stub = NULL;
              g_autoptr(TerrainAtlasGeometry) chunk = NULL;

              if (from < 0 || to < 0)
                continue;
              stub = terrain_atlas_toc_get_stub (toc, (guint) from);
              if (!terrain_atlas_stub_has_chunk (stub))
                continue;
              /* The root was decoded already. */
              chunk = level == 0 ? terrain_atlas_geometry_copy (roots[q])
                                 : terrain_atlas_file_get_geometry (in[q], (guint) tocs[q],
                                                                    (guint) from, error);
              if (chunk == NULL)
                {
                  g_prefix_error (error, "the %s quadrant: ", atlas_quadrants[q].name);
                  goto out;
                }
              transform_geometry (chunk, shifts[q], 0.5, offset);
              if (level == 0 && !morph_to_root (chunk, &lookup))
                {
                  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                               "Atlas: the %s quadrant's root lies outside the merged root",
                               atlas_quadrants[q].name);
                  goto out;
                }
              if (!terrain_atlas_file_set_geometry (out, 0, (guint) to, chunk, error))
                {
                  g_prefix_error (error, "the %s quadrant: ", atlas_quadrants[q].name);
                  goto out;
                }
            }
    }
  if (!terrain_atlas_file_update_bounds (out, 0, error))
    goto out;

  /* The texture trees, merged as mergeTQT does, in a TOC of their own. */
  if (textures && !atlas_file_add_merged_textures (out, in, quality, error))
    goto out;
  for (guint t = 0; t < terrain_atlas_file_get_n_tocs (north_west); t++)
    if (terrain_atlas_toc_get_kind (terrain_atlas_file_get_toc (north_west, t)) ==
          TERRAIN_ATLAS_TOC_CONFIG &&
        !copy_config_toc (out, north_west, t, error))
      goto out;

  result = g_steal_pointer (&out);
out:
  if (lookup.corners != NULL)
    surface_lookup_clear (&lookup);
  for (guint q = 0; q < 4; q++)
    g_clear_object (&roots[q]);
  return result;
}
