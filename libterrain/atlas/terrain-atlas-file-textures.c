/* terrain-atlas-file-textures.c: re-encoding an Atlas file's texture TOC
 * (TGEA's atlasConvertTextureTOC) and merging four quadrant texture trees
 * into one (TGEA's mergeTQT)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-atlas-file.h"
#include "terrain-atlas-stub.h"
#include "terrain-atlas-toc.h"
#include "terrain-quadtree.h"
#include "terrain-atlas-file-impl-private.h"
#include "core/terrain-error.h"

#include <string.h>

/**
 * terrain_atlas_file_convert_textures:
 * @self: a #TerrainAtlasFile
 * @toc: index of a texture TOC
 * @format: the encoding to write: JPEG, PNG or DDS (BC1, or BC3 for a tile
 *   with alpha, with its full mip chain)
 * @quality: JPEG quality, 1 to 100 (ignored for PNG and DDS)
 * @order: how the tiles' JPEG and PNG channels are stored, for decoding the
 *   old tiles and encoding the new ones (%TERRAIN_ATLAS_CHANNELS_BGR for
 *   trees made from BGR data; DDS tiles are always RGB)
 * @n_converted: (out) (optional): the number of tiles re-encoded
 * @error: return location for a #GError
 *
 * Re-encodes every texture tile of a texture TOC in @format, as TGEA's
 * `atlasConvertTextureTOC` does: each tile is decoded and encoded with the
 * encoders [method@Terrain.AtlasBuilder.build] uses, and placed as
 * [method@Terrain.AtlasFile.replace_texture] places it: a new frame at the
 * end of the file, the stub's generation bumped, the old frame kept as
 * history. Tiles already in @format are left as they are. Compact the file
 * afterwards ([method@Terrain.AtlasFile.compact]) to drop the old frames.
 *
 * Returns: %TRUE, or %FALSE with %TERRAIN_ERROR_INVALID_VALUE when @toc is
 *   not a texture TOC or @quality is out of range, or the error of the
 *   first tile that does not decode or encode (the tiles before it are
 *   converted)
 */
gboolean
terrain_atlas_file_convert_textures (TerrainAtlasFile          *self,
                                     guint                      toc,
                                     TerrainAtlasTextureFormat  format,
                                     guint                      quality,
                                     TerrainAtlasChannelOrder   order,
                                     guint                     *n_converted,
                                     GError                   **error)
{
  TerrainAtlasToc *t;
  guint n_stubs, converted = 0;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);

  if (n_converted != NULL)
    *n_converted = 0;
  if (toc >= terrain_atlas_file_get_n_tocs (self) ||
      terrain_atlas_toc_get_kind (terrain_atlas_file_get_toc (self, toc)) !=
        TERRAIN_ATLAS_TOC_TEXTURE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas: TOC %u is not a texture TOC", toc);
      return FALSE;
    }
  if (format > TERRAIN_ATLAS_TEXTURE_DDS || quality < 1 || quality > 100)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas: texture format %u or JPEG quality %u is out of range",
                   (guint) format, quality);
      return FALSE;
    }

  t = terrain_atlas_file_get_toc (self, toc);
  n_stubs = terrain_atlas_toc_get_n_stubs (t);
  for (guint s = 0; s < n_stubs; s++)
    {
      g_autoptr(TerrainAtlasStub) stub = terrain_atlas_toc_get_stub (t, s);
      g_autoptr(TerrainAtlasTexture) old = NULL;
      g_autoptr(TerrainAtlasTexture) tile = NULL;
      g_autoptr(TerrainImage) image = NULL;

      if (!terrain_atlas_stub_has_chunk (stub))
        continue;
      old = terrain_atlas_file_get_texture (self, toc, s, error);
      if (old == NULL)
        return FALSE;
      if (terrain_atlas_texture_get_format (old) == format)
        continue;
      image = terrain_atlas_texture_decode (old, order, NULL, error);
      if (image == NULL)
        return FALSE;
      tile = terrain_atlas_texture_new_from_image (image, format, quality, order, error);
      if (tile == NULL || !terrain_atlas_file_replace_texture (self, toc, s, tile, error))
        {
          g_prefix_error (error, "TOC %u stub %u: ", toc, s);
          if (n_converted != NULL)
            *n_converted = converted;
          return FALSE;
        }
      converted++;
    }

  if (n_converted != NULL)
    *n_converted = converted;
  return TRUE;
}

/* The quadrants' order in terrain_atlas_file_new_merged_textures(), and
 * where each lands: a tile (level, x, y) lies in block column 2^level − 1
 * − x and row 2^level − 1 − y of the north-up map (§4), so x grows west
 * and y north. TQT trees map onto Atlas texture TOCs node for node and
 * pixel for pixel (§9c), so the same holds for them. */
const AtlasQuadrant atlas_quadrants[4] = {
  { "north-west", 1, 1 },
  { "north-east", 0, 1 },
  { "south-west", 1, 0 },
  { "south-east", 0, 0 },
};

/* The root of a merged tree from the four quadrant roots (RGBA tiles of
 * one even side, in atlas_quadrants order): side by side north up, halved
 * by a 2 x 2 box filter, turned back into a tile (mergeTQT). */
TerrainImage *
atlas_merge_root_tiles (TerrainImage  *roots[4],
                        GError       **error)
{
  guint side = terrain_image_get_width (roots[0]);
  g_autoptr(TerrainImage) map = NULL;
  g_autoptr(TerrainImage) half = NULL;
  guint8 *pixels, *out;
  gsize stride, out_stride;

  map = terrain_image_new (TERRAIN_IMAGE_RGBA8, 2 * side, 2 * side, error);
  if (map == NULL)
    return NULL;
  pixels = terrain_image_get_data (map, NULL);
  stride = terrain_image_get_stride (map);
  for (guint q = 0; q < 4; q++)
    {
      g_autoptr(TerrainImage) turned = NULL;
      guint column = atlas_quadrants[q].west ? 0 : side, row = atlas_quadrants[q].north ? 0 : side;

      if (terrain_image_get_format (roots[q]) != TERRAIN_IMAGE_RGBA8 ||
          terrain_image_get_width (roots[q]) != side || terrain_image_get_height (roots[q]) != side)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "the %s root tile is not a %u x %u colour tile like the north-west one",
                       atlas_quadrants[q].name, side, side);
          return NULL;
        }
      turned = atlas_north_up_from_tile (roots[q], error);
      if (turned == NULL)
        return NULL;
      for (guint r = 0; r < side; r++)
        memcpy (pixels + (gsize) (row + r) * stride + (gsize) column * 4,
                (const guint8 *) terrain_image_get_data (turned, NULL) +
                  (gsize) r * terrain_image_get_stride (turned),
                (gsize) side * 4);
    }

  half = terrain_image_new (TERRAIN_IMAGE_RGBA8, side, side, error);
  if (half == NULL)
    return NULL;
  out = terrain_image_get_data (half, NULL);
  out_stride = terrain_image_get_stride (half);
  for (guint r = 0; r < side; r++)
    for (guint c = 0; c < side; c++)
      for (guint k = 0; k < 4; k++)
        {
          const guint8 *a = pixels + (gsize) (2 * r) * stride + (gsize) (2 * c) * 4 + k;

          out[(gsize) r * out_stride + (gsize) c * 4 + k] =
            (guint8) ((a[0] + a[4] + a[stride] + a[stride + 4] + 2) / 4);
        }
  return atlas_north_up_from_tile (half, error);
}

/**
 * terrain_atlas_file_new_merged_textures:
 * @north_west: the Atlas file whose first texture TOC covers the north-west
 *   quadrant
 * @north_east: the north-east quadrant's
 * @south_west: the south-west quadrant's
 * @south_east: the south-east quadrant's
 * @quality: JPEG quality, 1 to 100, of the new root tile when the roots are
 *   JPEG
 * @error: return location for a #GError
 *
 * Merges four quadrant texture trees into one a level deeper, as TGEA's
 * `mergeTQT` does: every tile of a quadrant keeps its bytes and moves one
 * level down under the new root, and the root is the four old roots, each
 * halved (2 × 2 box filter) and put side by side north up, encoded as the
 * north-west root is (JPEG, PNG or DDS). The four trees must have the same
 * depth and root tile size.
 *
 * Returns: (transfer full) (nullable): a new Atlas file holding the one
 *   texture TOC (not yet saved), or %NULL with %TERRAIN_ERROR_INVALID_VALUE
 *   naming the quadrant without a texture TOC, with another depth or root
 *   size, or %TERRAIN_ERROR_LIMIT_EXCEEDED when the merged tree would be
 *   deeper than an Atlas TOC holds; a tile that does not decode gives its
 *   error
 */
TerrainAtlasFile *
terrain_atlas_file_new_merged_textures (TerrainAtlasFile  *north_west,
                                        TerrainAtlasFile  *north_east,
                                        TerrainAtlasFile  *south_west,
                                        TerrainAtlasFile  *south_east,
                                        guint              quality,
                                        GError           **error)
{
  TerrainAtlasFile *in[4] = { north_west, north_east, south_west, south_east };
  g_autoptr(TerrainAtlasFile) out = NULL;

  for (guint q = 0; q < 4; q++)
    g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (in[q]), NULL);
  out = terrain_atlas_file_new ();
  if (!atlas_file_add_merged_textures (out, in, quality, error))
    return NULL;
  return g_steal_pointer (&out);
}

/* terrain_atlas_file_new_merged_textures() into @out: the merged tree as a
 * new texture TOC after @out's TOCs. */
gboolean
atlas_file_add_merged_textures (TerrainAtlasFile  *out,
                                TerrainAtlasFile  *in[4],
                                guint              quality,
                                GError           **error)
{
  gint tocs[4];
  g_autoptr(TerrainAtlasToc) merged = NULL;
  TerrainImage *roots[4] = { NULL };
  g_autoptr(TerrainImage) root = NULL;
  g_autoptr(TerrainAtlasTexture) root_texture = NULL;
  guint depth = 0, side = 0, slot = terrain_atlas_file_get_n_tocs (out);
  guint8 root_format = TERRAIN_ATLAS_TEXTURE_JPEG;

  if (quality < 1 || quality > 100)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas: JPEG quality %u is not 1 to 100", quality);
      return FALSE;
    }

  /* The quadrants: a texture TOC each, one depth, one root size. */
  for (guint q = 0; q < 4; q++)
    {
      TerrainAtlasToc *toc;
      g_autoptr(TerrainAtlasStub) stub = NULL;
      g_autoptr(TerrainAtlasTexture) texture = NULL;
      guint w, h;

      tocs[q] = terrain_atlas_file_find_toc (in[q], TERRAIN_ATLAS_TOC_TEXTURE, 0);
      if (tocs[q] < 0)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "Atlas: the %s quadrant has no texture TOC", atlas_quadrants[q].name);
          return FALSE;
        }
      toc = terrain_atlas_file_get_toc (in[q], (guint) tocs[q]);
      stub = terrain_atlas_toc_get_stub (toc, 0);
      texture = terrain_atlas_stub_has_chunk (stub)
        ? terrain_atlas_file_get_texture (in[q], (guint) tocs[q], 0, error) : NULL;
      if (texture == NULL || !terrain_atlas_texture_get_size (texture, &w, &h, error))
        {
          if (error == NULL || *error == NULL)
            g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                         "Atlas: the %s quadrant's texture TOC has no root tile",
                         atlas_quadrants[q].name);
          else
            g_prefix_error (error, "the %s quadrant's root tile: ", atlas_quadrants[q].name);
          return FALSE;
        }
      if (q == 0)
        {
          depth = terrain_atlas_toc_get_tree_depth (toc);
          side = w;
          root_format = terrain_atlas_texture_get_format (texture);
        }
      if (terrain_atlas_toc_get_tree_depth (toc) != depth || w != side || h != side ||
          side < 2 || (side & 1) != 0)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "Atlas: the %s quadrant's texture tree (depth %u, root %u x %u) does "
                       "not match the north-west one's (depth %u, root %u x %u, an even side)",
                       atlas_quadrants[q].name, terrain_atlas_toc_get_tree_depth (toc), w, h,
                       depth, side, side);
          return FALSE;
        }
    }
  if (depth + 1 > TERRAIN_QUADTREE_MAX_DEPTH ||
      terrain_quadtree_node_count (depth + 1) > G_MAXUINT32)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Atlas: merging trees of depth %u needs depth %u, more than a TOC holds",
                   depth, depth + 1);
      return FALSE;
    }

  merged = terrain_atlas_toc_new (TERRAIN_ATLAS_TOC_TEXTURE, TERRAIN_ATLAS_VERSION, depth + 1,
                                  (guint) terrain_quadtree_node_count (depth + 1));
  if (!terrain_atlas_file_add_toc (out, merged, error))
    return FALSE;

  /* Every quadrant tile one level down, its body as it is. */
  for (guint q = 0; q < 4; q++)
    {
      TerrainAtlasToc *toc = terrain_atlas_file_get_toc (in[q], (guint) tocs[q]);

      for (guint level = 0; level < depth; level++)
        for (guint32 x = 0; x < (1u << level); x++)
          for (guint32 y = 0; y < (1u << level); y++)
            {
              gint64 from = terrain_atlas_toc_find_stub (toc, level, x, y);
              gint64 to = terrain_atlas_toc_find_stub (merged, level + 1,
                                                       x + (atlas_quadrants[q].west << level),
                                                       y + (atlas_quadrants[q].north << level));
              g_autoptr(TerrainAtlasStub) stub = NULL;
              g_autoptr(GBytes) body = NULL;

              if (from < 0 || to < 0)
                continue;
              stub = terrain_atlas_toc_get_stub (toc, (guint) from);
              if (!terrain_atlas_stub_has_chunk (stub))
                continue;
              body = terrain_atlas_file_get_chunk_body (in[q], (guint) tocs[q], (guint) from,
                                                        error);
              if (body == NULL ||
                  !terrain_atlas_file_set_chunk_body (out, slot, (guint) to, body, error))
                {
                  g_prefix_error (error, "the %s quadrant: ", atlas_quadrants[q].name);
                  return FALSE;
                }
            }
    }

  /* The root: the four roots side by side north up, halved. */
  for (guint q = 0; q < 4; q++)
    {
      roots[q] = terrain_atlas_file_render_texture (in[q], (guint) tocs[q], 0,
                                                    TERRAIN_ATLAS_CHANNELS_RGB, error);
      if (roots[q] == NULL)
        {
          for (guint i = 0; i < q; i++)
            terrain_image_unref (roots[i]);
          return FALSE;
        }
    }
  root = atlas_merge_root_tiles (roots, error);
  for (guint q = 0; q < 4; q++)
    g_clear_pointer (&roots[q], terrain_image_unref);
  if (root == NULL)
    return FALSE;
  root_texture = terrain_atlas_texture_new_from_image (root, (TerrainAtlasTextureFormat) root_format,
                                                       quality, TERRAIN_ATLAS_CHANNELS_RGB, error);
  if (root_texture == NULL || !terrain_atlas_file_set_texture (out, slot, 0, root_texture, error))
    return FALSE;

  return TRUE;
}
