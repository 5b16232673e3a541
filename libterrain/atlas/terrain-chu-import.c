/* terrain-chu-import.c: CHU and TQT trees to Atlas TOCs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "terrain-chu-import.h"
#include "terrain-quadtree.h"
#include "terrain-atlas-private.h"
#include "core/terrain-error.h"

/* §9b "Mapping CHU to Atlas geometry": the chunk's world size and origin. */
static void
chunk_frame (TerrainChuFile       *chu,
             const TerrainChuStub *stub,
             gdouble              *size,
             gdouble              *origin_x,
             gdouble              *origin_y)
{
  guint depth = terrain_chu_file_get_tree_depth (chu);

  *size = ldexp ((gdouble) terrain_chu_file_get_leaf_dimensions (chu),
                 (gint) depth - 1 - (gint) stub->level);
  *origin_x = *size * stub->x;
  *origin_y = *size * stub->y;
}

/**
 * terrain_chu_import_vertices:
 * @chu: a #TerrainChuFile
 * @index: the stub whose chunk @chunk is
 * @chunk: the decoded chunk ([method@Terrain.ChuFile.get_chunk])
 * @n_vertices: (out): number of vertices returned
 *
 * Dequantises a chunk's vertices into the canonical Atlas vertex
 * (atlas-chu-tqt.md §9b). With size = leafDimensions × 2^(treeDepth-1-level)
 * and origin = size × (stub x, stub y):
 *
 * - point.x = ((x / 16384) × 0.5 + 0.5) × size + origin.x, likewise Y;
 *   values outside ±16384 (skirts) are kept as they are
 * - point.z = z × verticalScale
 * - texCoord = (point.y / terrainHeight, 1 − point.x / terrainWidth)
 * - pointMorphOffset = (0, 0, morph × verticalScale), texMorphOffset = 0
 * - normal = (0, 0, 1)
 *
 * The arithmetic is done in double precision and rounded once to F32.
 *
 * Returns: (transfer full) (array length=n_vertices): the vertices, free
 *   with g_free()
 */
TerrainAtlasVertex *
terrain_chu_import_vertices (TerrainChuFile        *chu,
                             guint                  index,
                             const TerrainChuChunk *chunk,
                             guint                 *n_vertices)
{
  const TerrainChuStub *stub;
  TerrainAtlasVertex *vertices;
  gdouble size, origin_x, origin_y, terrain, scale;

  g_return_val_if_fail (TERRAIN_IS_CHU_FILE (chu), NULL);
  g_return_val_if_fail (index < terrain_chu_file_get_n_stubs (chu), NULL);
  g_return_val_if_fail (chunk != NULL, NULL);
  g_return_val_if_fail (n_vertices != NULL, NULL);

  stub = terrain_chu_file_get_stub (chu, index);
  chunk_frame (chu, stub, &size, &origin_x, &origin_y);
  terrain = terrain_chu_file_get_terrain_size (chu);
  scale = terrain_chu_file_get_vertical_scale (chu);

  vertices = g_new0 (TerrainAtlasVertex, MAX (chunk->n_vertices, 1));
  for (guint i = 0; i < chunk->n_vertices; i++)
    {
      const TerrainChuVertex *q = &chunk->vertices[i];
      TerrainAtlasVertex *v = &vertices[i];
      gdouble px = ((q->x / 16384.0) * 0.5 + 0.5) * size + origin_x;
      gdouble py = ((q->y / 16384.0) * 0.5 + 0.5) * size + origin_y;

      v->point[0] = (gfloat) px;
      v->point[1] = (gfloat) py;
      v->point[2] = (gfloat) (q->z * scale);
      v->tex_coord[0] = (gfloat) (py / terrain);
      v->tex_coord[1] = (gfloat) (1.0 - px / terrain);
      v->point_morph_offset[2] = (gfloat) (q->morph * scale);
      v->normal[2] = 1.0f;
    }

  *n_vertices = chunk->n_vertices;
  return vertices;
}

/**
 * terrain_chu_import_indices:
 * @chunk: a decoded chunk
 * @n_indices: (out): number of indices returned
 * @error: return location for a #GError
 *
 * Maps a chunk's indices to an Atlas triangle list: `CHU3` indices map
 * directly (§9b); the triangle strips of Ulrich's files are unrolled, every
 * odd triangle with its first two indices swapped to keep the winding, and
 * degenerate triangles (two equal indices) dropped.
 *
 * Returns: (transfer full) (array length=n_indices) (nullable): the
 *   indices, free with g_free(); %NULL with %TERRAIN_ERROR_OUT_OF_RANGE when
 *   an index names no vertex (§9b: indices must refer to existing vertices)
 */
guint16 *
terrain_chu_import_indices (const TerrainChuChunk  *chunk,
                            guint                  *n_indices,
                            GError                **error)
{
  g_autofree guint16 *list = NULL;
  guint n = 0;

  g_return_val_if_fail (chunk != NULL, NULL);
  g_return_val_if_fail (n_indices != NULL, NULL);

  for (guint i = 0; i < chunk->n_indices; i++)
    if (chunk->indices[i] >= chunk->n_vertices)
      {
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                     "CHU chunk: index %u at byte offset %" G_GSIZE_FORMAT " (index position "
                     "%u) is %u, but the chunk has %u vertices",
                     i, chunk->offset, i, chunk->indices[i], chunk->n_vertices);
        return NULL;
      }

  if (!chunk->strip)
    {
      *n_indices = chunk->n_indices;
      return g_memdup2 (chunk->indices, MAX (chunk->n_indices, 1) * sizeof (guint16));
    }

  /* A strip of n indices holds at most n - 2 triangles. */
  list = g_new (guint16, MAX (3 * (gsize) chunk->n_indices, 1));
  for (guint i = 0; i + 2 < chunk->n_indices; i++)
    {
      guint16 a = chunk->indices[i], b = chunk->indices[i + 1], c = chunk->indices[i + 2];

      if (a == b || b == c || a == c)
        continue;
      if (i % 2 == 1)
        {
          guint16 t = a;

          a = b;
          b = t;
        }
      list[n++] = a;
      list[n++] = b;
      list[n++] = c;
    }

  *n_indices = n;
  return g_steal_pointer (&list);
}

static void
box_add_point (TerrainAtlasBox *box,
               const gfloat     p[3])
{
  for (guint c = 0; c < 3; c++)
    {
      box->min[c] = MIN (box->min[c], p[c]);
      box->max[c] = MAX (box->max[c], p[c]);
    }
}

static void
box_add_box (TerrainAtlasBox       *box,
             const TerrainAtlasBox *other)
{
  box_add_point (box, other->min);
  box_add_point (box, other->max);
}

/**
 * terrain_chu_import_bounds:
 * @chu: a #TerrainChuFile
 * @n_nodes: (out): number of boxes returned, nodeCount(treeDepth)
 * @error: return location for a #GError
 *
 * Computes the bounds every Atlas geometry node gets (§9b): each box holds
 * its own chunk's dequantised vertices and the boxes of its four children,
 * so boxes are built from the leaves toward the root. A chunk without
 * vertices and without children gets its square at height 0.
 *
 * Returns: (transfer full) (array length=n_nodes) (nullable): the boxes,
 *   indexed by Atlas nodeID(level, x, y), free with g_free(); %NULL when a
 *   chunk cannot be decoded
 */
TerrainAtlasBox *
terrain_chu_import_bounds (TerrainChuFile  *chu,
                           guint           *n_nodes,
                           GError         **error)
{
  g_autofree TerrainAtlasBox *boxes = NULL;
  guint depth, n;

  g_return_val_if_fail (TERRAIN_IS_CHU_FILE (chu), NULL);
  g_return_val_if_fail (n_nodes != NULL, NULL);

  depth = terrain_chu_file_get_tree_depth (chu);
  n = terrain_chu_file_get_n_stubs (chu);
  boxes = g_new (TerrainAtlasBox, n);

  for (guint level = depth; level-- > 0;)
    for (guint64 id = terrain_quadtree_node_count (level); id < terrain_quadtree_node_count (level + 1); id++)
      {
        TerrainAtlasBox *box = &boxes[id];
        guint l;
        guint32 x, y;
        gint stub;
        g_autoptr(TerrainChuChunk) chunk = NULL;
        g_autofree TerrainAtlasVertex *vertices = NULL;
        guint n_vertices;

        terrain_quadtree_node_position (id, &l, &x, &y);
        stub = terrain_chu_file_lookup_node (chu, level, x, y);
        g_assert (stub >= 0);
        chunk = terrain_chu_file_get_chunk (chu, (guint) stub, error);
        if (chunk == NULL)
          return NULL;
        vertices = terrain_chu_import_vertices (chu, (guint) stub, chunk, &n_vertices);

        for (guint c = 0; c < 3; c++)
          {
            box->min[c] = INFINITY;
            box->max[c] = -INFINITY;
          }
        for (guint i = 0; i < n_vertices; i++)
          box_add_point (box, vertices[i].point);
        if (level + 1 < depth)
          for (guint i = 0; i < 4; i++)
            box_add_box (box, &boxes[terrain_quadtree_node_id (level + 1, 2 * x + (i >> 1),
                                                       2 * y + (i & 1))]);

        if (box->min[0] > box->max[0])
          {
            const TerrainChuStub *s = terrain_chu_file_get_stub (chu, (guint) stub);
            gdouble size, ox, oy;

            chunk_frame (chu, s, &size, &ox, &oy);
            box->min[0] = (gfloat) ox;
            box->min[1] = (gfloat) oy;
            box->max[0] = (gfloat) (ox + size);
            box->max[1] = (gfloat) (oy + size);
            box->min[2] = box->max[2] = 0.0f;
          }
      }

  *n_nodes = n;
  return g_steal_pointer (&boxes);
}

static gboolean
import_geometry (TerrainAtlasFile       *atlas,
                 guint                   toc_index,
                 TerrainChuFile         *chu,
                 TerrainChuImportFlags   flags,
                 GError                **error)
{
  TerrainAtlasToc *toc = terrain_atlas_file_get_toc (atlas, toc_index);
  g_autofree TerrainAtlasBox *boxes = NULL;
  guint depth = terrain_chu_file_get_tree_depth (chu);
  guint32 col_depth = terrain_chu_file_get_col_tree_depth (chu);
  guint n_nodes;

  if (col_depth == 0 || col_depth > TERRAIN_ATLAS_MAX_COLLISION_DEPTH)
    col_depth = TERRAIN_CHU_IMPORT_COLLISION_DEPTH;

  boxes = terrain_chu_import_bounds (chu, &n_nodes, error);
  if (boxes == NULL)
    return FALSE;

  for (guint64 id = 0; id < n_nodes; id++)
    {
      g_autoptr(TerrainAtlasGeometry) geometry = terrain_atlas_geometry_new ();
      g_autoptr(TerrainChuChunk) chunk = NULL;
      g_autofree TerrainAtlasVertex *vertices = NULL;
      g_autofree guint16 *indices = NULL;
      guint level, n_vertices, n_indices;
      guint32 x, y;
      gint stub;
      gint64 atlas_stub;

      terrain_quadtree_node_position (id, &level, &x, &y);
      stub = terrain_chu_file_lookup_node (chu, level, x, y);
      atlas_stub = terrain_atlas_toc_find_stub (toc, level, x, y);
      g_assert (stub >= 0 && atlas_stub >= 0);

      chunk = terrain_chu_file_get_chunk (chu, (guint) stub, error);
      if (chunk == NULL)
        return FALSE;
      indices = terrain_chu_import_indices (chunk, &n_indices, error);
      if (indices == NULL)
        {
          g_prefix_error (error, "Atlas node (level %u, x %u, y %u), CHU stub %d: ",
                          level, x, y, stub);
          return FALSE;
        }
      vertices = terrain_chu_import_vertices (chu, (guint) stub, chunk, &n_vertices);

      /* §9b: no mSkirtSkipCount equivalent, so zero; no history, so
       * previousChunk 0; the bounds go to the chunk and (through the file)
       * to its stub. */
      terrain_atlas_geometry_set_vertices (geometry, vertices, n_vertices);
      terrain_atlas_geometry_set_indices (geometry, indices, n_indices, 0);
      terrain_atlas_geometry_set_previous_chunk (geometry, 0);
      terrain_atlas_geometry_set_bounds (geometry, &boxes[id]);

      if ((flags & TERRAIN_CHU_IMPORT_COLLISION) != 0 && level + 1 == depth &&
          !terrain_atlas_geometry_generate_collision (geometry, col_depth, error))
        return FALSE;

      if (!terrain_atlas_file_set_geometry (atlas, toc_index, (guint) atlas_stub, geometry, error))
        return FALSE;
    }

  return TRUE;
}

static gboolean
import_textures (TerrainAtlasFile  *atlas,
                 guint              toc_index,
                 TerrainTqtFile    *tqt,
                 GError           **error)
{
  TerrainAtlasToc *toc = terrain_atlas_file_get_toc (atlas, toc_index);
  guint8 format = terrain_tqt_file_get_encoding (tqt) == TERRAIN_TQT_ENCODING_DDS
                  ? TERRAIN_ATLAS_TEXTURE_DDS : TERRAIN_ATLAS_TEXTURE_JPEG;
  guint n = terrain_tqt_file_get_n_tiles (tqt);

  for (guint64 id = 0; id < n; id++)
    {
      g_autoptr(TerrainAtlasTexture) texture = NULL;
      g_autoptr(GBytes) image = NULL;
      guint level;
      guint32 x, y;
      gint entry;
      gint64 atlas_stub;

      /* §9c: Atlas stub (level, x, y) gets the tile of table entry
       * nodeID(level, y, x). */
      terrain_quadtree_node_position (id, &level, &x, &y);
      entry = terrain_tqt_file_lookup_node (tqt, level, x, y);
      atlas_stub = terrain_atlas_toc_find_stub (toc, level, x, y);
      g_assert (entry >= 0 && atlas_stub >= 0);

      image = terrain_tqt_file_get_tile_bytes (tqt, (guint) entry);
      texture = terrain_atlas_texture_new (format, image);
      if (!terrain_atlas_file_set_texture (atlas, toc_index, (guint) atlas_stub, texture, error))
        return FALSE;
    }

  return TRUE;
}

/**
 * terrain_chu_import:
 * @chu: (nullable): a geometry tree, or %NULL
 * @tqt: (nullable): a texture tree, or %NULL
 * @goal_batch_size: the geometry TOC's mGoalBatchSize, which CHU files do
 *   not carry (%TERRAIN_ATLAS_DEFAULT_GOAL_BATCH_SIZE is TGEA's default)
 * @flags: import options
 * @error: return location for a #GError
 *
 * Converts a CHU geometry tree and a TQT texture tree into a new Atlas file
 * (atlas-chu-tqt.md §9b–§9d) at resource version 140: a geometry TOC
 * (when @chu is given) followed by a texture TOC (when @tqt is given).
 *
 * Geometry: the TOC has the CHU tree depth; Atlas node (level, x, y) takes
 * the chunk that [method@Terrain.ChuFile.lookup_node] names (label
 * nodeID(level, y, x) in `CHU3`); vertices are dequantised with
 * [func@Terrain.chu_import_vertices], indices mapped with
 * [func@Terrain.chu_import_indices], mSkirtSkipCount is 0, bounds come from
 * [func@Terrain.chu_import_bounds] (leaves to root) into both chunk and
 * stub, stubs end with sentinel 0xD0, and generation and previousChunk are
 * 0. CHU collision blocks are dropped; with %TERRAIN_CHU_IMPORT_COLLISION
 * the leaves get collision regenerated from their triangles, at the CHU
 * header's collision-tree depth (or %TERRAIN_CHU_IMPORT_COLLISION_DEPTH when
 * it names none, or one deeper than Atlas accepts).
 *
 * Textures: the TOC has the TQT tree depth; Atlas stub (level, x, y) takes
 * table entry nodeID(level, y, x); DDS tiles become mFormat 2 chunks with
 * the exact DDS stream, JPEG tiles (Ulrich's version 1) mFormat 0 chunks
 * with the exact JPEG stream. No transcoding is done.
 *
 * Returns: (transfer full) (nullable): the Atlas file, in memory (save it
 *   with [method@Terrain.Document.save]), or %NULL with a %TERRAIN_ERROR
 *   set: %TERRAIN_ERROR_INVALID_VALUE when neither tree is given, or the CHU
 *   leaf dimensions are not finite and positive or the leaf dimensions or
 *   vertical scale give coordinates beyond 32-bit floats,
 *   %TERRAIN_ERROR_NOT_SUPPORTED
 *   for trees deeper than Atlas allows, %TERRAIN_ERROR_OUT_OF_RANGE for an
 *   index naming no vertex, or an error of the Atlas writer
 */
TerrainAtlasFile *
terrain_chu_import (TerrainChuFile         *chu,
                    TerrainTqtFile         *tqt,
                    guint32                 goal_batch_size,
                    TerrainChuImportFlags   flags,
                    GError                **error)
{
  g_autoptr(TerrainAtlasFile) atlas = NULL;

  g_return_val_if_fail (chu == NULL || TERRAIN_IS_CHU_FILE (chu), NULL);
  g_return_val_if_fail (tqt == NULL || TERRAIN_IS_TQT_FILE (tqt), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (chu == NULL && tqt == NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "CHU import: neither a geometry tree nor a texture tree was given");
      return NULL;
    }

  if (chu != NULL)
    {
      gfloat leaf = terrain_chu_file_get_leaf_dimensions (chu);
      gfloat scale = terrain_chu_file_get_vertical_scale (chu);

      if (!isfinite (leaf) || leaf <= 0.0f)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "CHU header: leaf dimensions %g at byte offset 16 are not finite and "
                       "positive, so the chunks have no size to import",
                       (gdouble) leaf);
          return NULL;
        }
      /* Every F32 the mapping produces must be finite: coordinates reach
       * about 32769 chunk widths (S16 stub positions), heights 32768 units. */
      if (terrain_chu_file_get_terrain_size (chu) * 65536.0 > FLT_MAX)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "CHU header: leaf dimensions %g at byte offset 16 are too large for "
                       "Atlas coordinates (32-bit floats)",
                       (gdouble) leaf);
          return NULL;
        }
      if (!isfinite (scale) || fabs ((gdouble) scale) * 65536.0 > FLT_MAX)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "CHU header: vertical scale %g at byte offset 12 gives heights that "
                       "32-bit floats cannot hold",
                       (gdouble) scale);
          return NULL;
        }
      if (terrain_chu_file_get_tree_depth (chu) > ATLAS_MAX_TREE_DEPTH)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                       "CHU header: tree depth %u is deeper than an Atlas TOC allows (%d)",
                       terrain_chu_file_get_tree_depth (chu), ATLAS_MAX_TREE_DEPTH);
          return NULL;
        }
    }
  if (tqt != NULL && terrain_tqt_file_get_tree_depth (tqt) > ATLAS_MAX_TREE_DEPTH)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "TQT header: tree depth %u is deeper than an Atlas TOC allows (%d)",
                   terrain_tqt_file_get_tree_depth (tqt), ATLAS_MAX_TREE_DEPTH);
      return NULL;
    }

  atlas = terrain_atlas_file_new ();

  if (chu != NULL)
    {
      guint depth = terrain_chu_file_get_tree_depth (chu);
      g_autoptr(TerrainAtlasToc) toc =
        terrain_atlas_toc_new (TERRAIN_ATLAS_TOC_GEOMETRY, TERRAIN_ATLAS_VERSION, depth,
                               terrain_chu_file_get_n_stubs (chu));

      terrain_atlas_toc_set_goal_batch_size (toc, goal_batch_size);
      if (!terrain_atlas_file_add_toc (atlas, toc, error) ||
          !import_geometry (atlas, terrain_atlas_file_get_n_tocs (atlas) - 1, chu, flags, error))
        return NULL;
    }

  if (tqt != NULL)
    {
      g_autoptr(TerrainAtlasToc) toc =
        terrain_atlas_toc_new (TERRAIN_ATLAS_TOC_TEXTURE, TERRAIN_ATLAS_VERSION,
                               terrain_tqt_file_get_tree_depth (tqt),
                               terrain_tqt_file_get_n_tiles (tqt));

      if (!terrain_atlas_file_add_toc (atlas, toc, error) ||
          !import_textures (atlas, terrain_atlas_file_get_n_tocs (atlas) - 1, tqt, error))
        return NULL;
    }

  return g_steal_pointer (&atlas);
}

/**
 * terrain_chu_find_companion_tqt:
 * @chu_file: a `.chu` file
 * @cancellable: (nullable): a #GCancellable
 *
 * Finds the texture tree that goes with a geometry tree by the convention
 * of §9d: a file in the same directory with the same name stem and the
 * extension `tqt` in any letter case (`terrain.chu` → `terrain.tqt`,
 * `terrain.TQT`, ...). An exact-case `.tqt` is preferred; otherwise the
 * directory is listed.
 *
 * Returns: (transfer full) (nullable): the companion, or %NULL when there
 *   is none (or the directory cannot be listed)
 */
GFile *
terrain_chu_find_companion_tqt (GFile        *chu_file,
                                GCancellable *cancellable)
{
  g_autoptr(GFile) parent = NULL;
  g_autoptr(GFile) exact = NULL;
  g_autoptr(GFileEnumerator) children = NULL;
  g_autofree char *name = NULL;
  g_autofree char *stem = NULL;
  g_autofree char *exact_name = NULL;
  const char *dot;

  g_return_val_if_fail (G_IS_FILE (chu_file), NULL);

  parent = g_file_get_parent (chu_file);
  name = g_file_get_basename (chu_file);
  if (parent == NULL || name == NULL)
    return NULL;
  dot = strrchr (name, '.');
  stem = dot != NULL && dot != name ? g_strndup (name, (gsize) (dot - name)) : g_strdup (name);

  exact_name = g_strconcat (stem, ".tqt", NULL);
  exact = g_file_get_child (parent, exact_name);
  if (g_file_query_file_type (exact, G_FILE_QUERY_INFO_NONE, cancellable) == G_FILE_TYPE_REGULAR)
    return g_steal_pointer (&exact);

  children = g_file_enumerate_children (parent, G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                        G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                        G_FILE_QUERY_INFO_NONE, cancellable, NULL);
  if (children == NULL)
    return NULL;

  for (;;)
    {
      GFileInfo *info = NULL;
      const char *child;
      gsize stem_len = strlen (stem);

      if (!g_file_enumerator_iterate (children, &info, NULL, cancellable, NULL) || info == NULL)
        break;
      child = g_file_info_get_name (info);
      /* The stem is matched exactly, the extension in any case. */
      if (g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR &&
          strncmp (child, stem, stem_len) == 0 &&
          g_ascii_strcasecmp (child + stem_len, ".tqt") == 0)
        return g_file_get_child (parent, child);
    }

  return NULL;
}
