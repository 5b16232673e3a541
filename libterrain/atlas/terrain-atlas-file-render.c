/* terrain-atlas-file-render.c: Atlas pictures, meshes and heights
 * (the files of TerrainAtlasFile: terrain-atlas-file-impl-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-atlas-file-impl-private.h"
#include "terrain-quadtree.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"
#include "core/terrain-relief-private.h"

/* ------------------------------------------------------------------------
 * Pictures and meshes
 */

/**
 * terrain_atlas_file_render_texture:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a texture TOC
 * @stub: a stub index in that TOC (0 is the root tile)
 * @order: how to read JPEG and PNG channels (§4)
 * @error: return location for a #GError
 *
 * Decodes one texture tile to RGBA, see [method@Terrain.AtlasTexture.decode].
 *
 * Returns: (transfer full) (nullable): the tile, or %NULL with a
 *   %TERRAIN_ERROR
 */
TerrainImage *
terrain_atlas_file_render_texture (TerrainAtlasFile          *self,
                                   guint                      toc,
                                   guint                      stub,
                                   TerrainAtlasChannelOrder   order,
                                   GError                   **error)
{
  g_autoptr(TerrainAtlasTexture) texture = NULL;
  TerrainImage *image;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);

  texture = terrain_atlas_file_get_texture (self, toc, stub, error);
  if (texture == NULL)
    return NULL;
  image = terrain_atlas_texture_decode (texture, order, &self->limits, error);
  if (image == NULL)
    {
      g_autofree char *where = atlas_file_describe_stub (self, toc, stub);

      g_prefix_error (error, "%s: ", where);
    }
  return image;
}

/**
 * terrain_atlas_file_export_obj:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a geometry TOC
 * @level: the tree level whose chunks to export (0 is the root)
 * @skirts: whether to include the skirt triangles (the last
 *   mSkirtSkipCount indices of each chunk)
 * @error: return location for a #GError
 *
 * Exports the chunks of one level as a Wavefront OBJ: per chunk a group
 * `chunk_L_X_Y`, its vertices (`v`, world units), texture coordinates
 * (`vt`, terrain-wide) and normals (`vn`), and its triangles (`f`, 1-based
 * indices shared by position, texture coordinate and normal). Triangles
 * with an index past the vertex array are skipped.
 *
 * Returns: (transfer full) (nullable): the OBJ text, or %NULL with a
 *   %TERRAIN_ERROR (a level the tree does not have, a chunk that does not
 *   decode)
 */
GBytes *
terrain_atlas_file_export_obj (TerrainAtlasFile  *self,
                               guint              toc,
                               guint              level,
                               gboolean           skirts,
                               GError           **error)
{
  g_autoptr(GString) obj = NULL;
  TerrainAtlasToc *t;
  guint64 base = 1;
  guint32 side;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);

  if (toc >= atlas_file_n_tocs (self))
    {
      atlas_file_check_stub (self, toc, 0, error);
      return NULL;
    }
  if (!atlas_file_check_kind (self, toc, TERRAIN_ATLAS_TOC_GEOMETRY, error))
    return NULL;
  t = atlas_file_get_toc (self, toc);
  if (level >= terrain_atlas_toc_get_tree_depth (t))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "Atlas: TOC %u has levels 0 to %u, not %u", toc,
                   terrain_atlas_toc_get_tree_depth (t) - 1, level);
      return NULL;
    }

  obj = g_string_new (NULL);
  g_string_append_printf (obj, "# libterrain Atlas export: TOC %u, level %u\n", toc, level);
  side = (guint32) 1 << level;

  for (guint32 x = 0; x < side; x++)
    for (guint32 y = 0; y < side; y++)
      {
        gint64 index = terrain_atlas_toc_find_stub (t, level, x, y);
        g_autoptr(TerrainAtlasGeometry) geometry = NULL;
        const TerrainAtlasVertex *vertices;
        const guint16 *indices;
        guint n_vertices, n_indices, end;
        char buf[3][G_ASCII_DTOSTR_BUF_SIZE];

        if (index < 0 || !atlas_file_stub_has_chunk (terrain_atlas_toc_get_stub_data (t, (guint) index)))
          continue;
        geometry = terrain_atlas_file_get_geometry (self, toc, (guint) index, error);
        if (geometry == NULL)
          return NULL;

        vertices = terrain_atlas_geometry_get_vertices (geometry, &n_vertices);
        indices = terrain_atlas_geometry_get_indices (geometry, &n_indices);
        end = n_indices;
        if (!skirts)
          end = n_indices - MIN (n_indices, terrain_atlas_geometry_get_skirt_skip_count (geometry));

        g_string_append_printf (obj, "g chunk_%u_%u_%u\n", level, x, y);
        for (guint i = 0; i < n_vertices; i++)
          {
            const TerrainAtlasVertex *v = &vertices[i];

            g_string_append_printf (obj, "v %s %s %s\n",
                                    g_ascii_formatd (buf[0], sizeof buf[0], "%.9g", v->point[0]),
                                    g_ascii_formatd (buf[1], sizeof buf[1], "%.9g", v->point[1]),
                                    g_ascii_formatd (buf[2], sizeof buf[2], "%.9g", v->point[2]));
            g_string_append_printf (obj, "vt %s %s\n",
                                    g_ascii_formatd (buf[0], sizeof buf[0], "%.9g",
                                                     v->tex_coord[0]),
                                    g_ascii_formatd (buf[1], sizeof buf[1], "%.9g",
                                                     v->tex_coord[1]));
            g_string_append_printf (obj, "vn %s %s %s\n",
                                    g_ascii_formatd (buf[0], sizeof buf[0], "%.9g", v->normal[0]),
                                    g_ascii_formatd (buf[1], sizeof buf[1], "%.9g", v->normal[1]),
                                    g_ascii_formatd (buf[2], sizeof buf[2], "%.9g", v->normal[2]));
          }
        for (guint i = 0; i + 2 < end; i += 3)
          {
            guint64 a = indices[i], b = indices[i + 1], c = indices[i + 2];

            if (a >= n_vertices || b >= n_vertices || c >= n_vertices)
              continue;
            a += base;
            b += base;
            c += base;
            g_string_append_printf (obj, "f %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "/%"
                                    G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
                                    "/%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "/%"
                                    G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "\n",
                                    a, a, a, b, b, b, c, c, c);
          }
        base += n_vertices;
      }

  return g_string_free_to_bytes (g_steal_pointer (&obj));
}

/* A texture tile as a map, north up and east right. Tile pixel (u, v)
 * (column, row) shows the terrain at east fraction 1 - v and north
 * fraction u (atlas-chu-tqt.md §4: texCoord = (Y / size, 1 - X / size)),
 * so map pixel (column c, row r) of an N x N tile is tile pixel
 * (N - 1 - r, N - 1 - c): the tile transposed about its other diagonal.
 * The turn is its own inverse: a north-up map turned gives the tile. */
TerrainImage *
atlas_north_up_from_tile (TerrainImage  *tile,
                    GError       **error)
{
  guint w = terrain_image_get_width (tile);
  guint h = terrain_image_get_height (tile);
  gsize bpp = terrain_image_get_format (tile) == TERRAIN_IMAGE_RGBA8 ? 4 : 0;
  gsize in_stride = terrain_image_get_stride (tile);
  const guint8 *in = terrain_image_get_data (tile, NULL);
  g_autoptr(TerrainImage) map = NULL;
  guint8 *out;
  gsize out_stride;

  if (bpp == 0)
    return g_object_ref (tile);
  map = terrain_image_new (TERRAIN_IMAGE_RGBA8, h, w, error);
  if (map == NULL)
    return NULL;
  out = terrain_image_get_data (map, NULL);
  out_stride = terrain_image_get_stride (map);
  for (guint r = 0; r < w; r++)
    for (guint c = 0; c < h; c++)
      memcpy (out + (gsize) r * out_stride + (gsize) c * bpp,
              in + (gsize) (h - 1 - c) * in_stride + (gsize) (w - 1 - r) * bpp, bpp);
  return g_steal_pointer (&map);
}

/* ------------------------------------------------------------------------
 * TerrainDocument
 */

/* Pixels per leaf chunk side in the pictures drawn from heights. */
#define HEIGHTS_PER_LEAF 64

/* How many levels drawing down to @max_level takes (G_MAXUINT: all). */
static inline guint
levels_to (guint max_level)
{
  return max_level == G_MAXUINT ? G_MAXUINT : max_level + 1;
}

/* The first geometry tree's leaves (or its chunks at @max_level, when that
 * is shallower) seen from above (non-skirt triangles), over their XY
 * extent, north up: 64 pixels per chunk side up to TERRAIN_RELIEF_MAX_SIDE;
 * @pixel_size is a pixel's width in world units. */
static gboolean
fill_leaf_relief (TerrainAtlasFile  *self,
                  guint              max_level,
                  TerrainRelief     *relief,
                  gdouble           *pixel_size,
                  GError           **error)
{
  g_autoptr(GPtrArray) leaves = g_ptr_array_new_with_free_func (g_object_unref);
  TerrainAtlasBox extent = { { 0 } };
  TerrainAtlasToc *toc;
  gint t = terrain_atlas_file_find_toc (self, TERRAIN_ATLAS_TOC_GEOMETRY, 0);
  guint32 depth, side;
  gdouble width, height;
  gboolean any = FALSE;

  if (t < 0 || (depth = terrain_atlas_toc_get_tree_depth (atlas_file_get_toc (self, (guint) t))) == 0)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                           "Atlas: no geometry tree to take heights from");
      return FALSE;
    }
  toc = atlas_file_get_toc (self, (guint) t);
  depth = MIN (depth, levels_to (max_level));

  for (guint64 s = terrain_quadtree_node_count (depth - 1);
       s < MIN (terrain_quadtree_node_count (depth), terrain_atlas_toc_get_n_stubs (toc)); s++)
    {
      TerrainAtlasGeometry *geometry;
      TerrainAtlasBox box;

      if (!atlas_file_stub_has_chunk (terrain_atlas_toc_get_stub_data (toc, (guint) s)))
        continue;
      geometry = terrain_atlas_file_get_geometry (self, (guint) t, (guint) s, error);
      if (geometry == NULL)
        return FALSE;
      g_ptr_array_add (leaves, geometry);
      if (!terrain_atlas_geometry_compute_bounds (geometry, &box))
        continue;
      if (any)
        terrain_atlas_box_union (&extent, &box);
      else
        extent = box;
      any = TRUE;
    }
  width = (gdouble) extent.max[0] - extent.min[0];
  height = (gdouble) extent.max[1] - extent.min[1];
  if (!any || !(width > 0.0) || !(height > 0.0))
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                           "Atlas: the geometry tree's leaves cover no area");
      return FALSE;
    }

  side = MIN ((guint32) TERRAIN_RELIEF_MAX_SIDE,
              (guint32) HEIGHTS_PER_LEAF << MIN (depth - 1, 12));
  if (!terrain_relief_init (relief, side, side, &self->limits, "Atlas heights", error))
    return FALSE;
  *pixel_size = MAX (width, height) / side;

  for (guint i = 0; i < leaves->len; i++)
    {
      TerrainAtlasGeometry *geometry = g_ptr_array_index (leaves, i);
      guint n_vertices, n_indices, end;
      const TerrainAtlasVertex *v = terrain_atlas_geometry_get_vertices (geometry, &n_vertices);
      const guint16 *index = terrain_atlas_geometry_get_indices (geometry, &n_indices);

      end = n_indices - MIN (n_indices, terrain_atlas_geometry_get_skirt_skip_count (geometry));
      for (guint k = 0; k + 2 < end; k += 3)
        {
          gdouble corner[3][3];

          if (index[k] >= n_vertices || index[k + 1] >= n_vertices || index[k + 2] >= n_vertices)
            continue;
          for (guint c = 0; c < 3; c++)
            {
              const gfloat *p = v[index[k + c]].point;

              /* Columns east, rows south from the north edge. */
              corner[c][0] = (p[0] - extent.min[0]) / width * side;
              corner[c][1] = (extent.max[1] - p[1]) / height * side;
              corner[c][2] = p[2];
            }
          terrain_relief_triangle (relief, corner[0], corner[1], corner[2]);
        }
    }
  return TRUE;
}

/* The tiles of texture TOC @t at @level assembled as one map, north up:
 * tile (x, y) covers texture v in [x, x + 1) / 2^level and u in
 * [y, y + 1) / 2^level (§4), so, turned like the root tile, it lands in
 * block column 2^level - 1 - x and block row 2^level - 1 - y. %NULL without
 * an error when a tile of the level is missing or not the same size as the
 * first. */
static TerrainImage *
assemble_texture_level (TerrainAtlasFile  *self,
                        guint              t,
                        guint              level,
                        guint              tile_side,
                        GError           **error)
{
  TerrainAtlasToc *toc = atlas_file_get_toc (self, t);
  guint n = 1u << level;
  g_autoptr(TerrainImage) map = NULL;
  guint8 *out;
  gsize out_stride;

  if (!terrain_limits_check_alloc (&self->limits, (guint64) n * tile_side * n * tile_side, 4,
                                   "texture picture", "Atlas", 0, error))
    return NULL;
  map = terrain_image_new (TERRAIN_IMAGE_RGBA8, n * tile_side, n * tile_side, error);
  if (map == NULL)
    return NULL;
  out = terrain_image_get_data (map, NULL);
  out_stride = terrain_image_get_stride (map);

  for (guint x = 0; x < n; x++)
    for (guint y = 0; y < n; y++)
      {
        gint64 stub = terrain_atlas_toc_find_stub (toc, level, x, y);
        g_autoptr(TerrainImage) tile = NULL;
        g_autoptr(TerrainImage) turned = NULL;
        const guint8 *in;
        gsize in_stride;

        if (stub < 0 || !atlas_file_stub_has_chunk (terrain_atlas_toc_get_stub_data (toc, (guint) stub)))
          return NULL;
        tile = terrain_atlas_file_render_texture (self, t, (guint) stub,
                                                  TERRAIN_ATLAS_CHANNELS_RGB, error);
        if (tile == NULL)
          return NULL;
        if (terrain_image_get_format (tile) != TERRAIN_IMAGE_RGBA8 ||
            terrain_image_get_width (tile) != tile_side ||
            terrain_image_get_height (tile) != tile_side)
          return NULL;
        turned = atlas_north_up_from_tile (tile, error);
        if (turned == NULL)
          return NULL;
        in = terrain_image_get_data (turned, NULL);
        in_stride = terrain_image_get_stride (turned);
        for (guint r = 0; r < tile_side; r++)
          memcpy (out + ((gsize) (n - 1 - y) * tile_side + r) * out_stride +
                    (gsize) (n - 1 - x) * tile_side * 4,
                  in + (gsize) r * in_stride, (gsize) tile_side * 4);
      }
  return g_steal_pointer (&map);
}

/* The texture tree's deepest complete level that fits in
 * TERRAIN_RELIEF_MAX_SIDE pixels (and the limits) and is no deeper than the
 * options' max-level, assembled north up; the
 * root tile, turned north up, when no deeper level is complete; without a
 * texture tree, the leaves' heights as shaded relief. */
TerrainImage *
atlas_file_render_image (TerrainDocument  *document,
                         TerrainRenderOptions *options,
                         GError          **error)
{
  TerrainAtlasFile *self = TERRAIN_ATLAS_FILE (document);
  g_auto(TerrainRelief) relief = { 0 };
  gdouble pixel_size = 0.0;
  guint max_level = terrain_render_options_get_max_level (options);

  for (guint t = 0; t < atlas_file_n_tocs (self); t++)
    {
      TerrainAtlasToc *toc = atlas_file_get_toc (self, t);

      if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_TEXTURE &&
          terrain_atlas_toc_get_n_stubs (toc) > 0 &&
          atlas_file_stub_has_chunk (terrain_atlas_toc_get_stub_data (toc, 0)))
        {
          g_autoptr(TerrainImage) tile = NULL;
          guint side, max_side, depth = terrain_atlas_toc_get_tree_depth (toc);

          tile = terrain_atlas_file_render_texture (self, t, 0, TERRAIN_ATLAS_CHANNELS_RGB, error);
          if (tile == NULL)
            return NULL;
          side = terrain_image_get_width (tile);
          max_side = MIN ((guint) TERRAIN_RELIEF_MAX_SIDE, self->limits.max_image_side);
          if (terrain_image_get_format (tile) == TERRAIN_IMAGE_RGBA8 && side > 0 &&
              side == terrain_image_get_height (tile))
            for (guint level = MIN (MIN (depth, 13), levels_to (max_level)); level-- > 1;)
              {
                TerrainImage *map;

                if (((guint64) side << level) > max_side)
                  continue;
                map = assemble_texture_level (self, t, level, side, error);
                if (map != NULL)
                  return map;
                if (error != NULL && *error != NULL)
                  return NULL;
              }
          return atlas_north_up_from_tile (tile, error);
        }
    }

  if (!fill_leaf_relief (self, max_level, &relief, &pixel_size, error))
    return NULL;
  return terrain_relief_render (&relief, pixel_size, error);
}

/* The leaves' heights (fill_leaf_relief) as GRAY16, north up: the lowest
 * vertex 0, the highest 65535; uncovered samples 0. */
TerrainImage *
atlas_file_export_heights (TerrainDocument  *document,
                           GError          **error)
{
  TerrainAtlasFile *self = TERRAIN_ATLAS_FILE (document);
  g_auto(TerrainRelief) relief = { 0 };
  gdouble pixel_size = 0.0;

  if (!fill_leaf_relief (self, G_MAXUINT, &relief, &pixel_size, error))
    return NULL;
  return terrain_relief_to_gray16 (&relief, error);
}
