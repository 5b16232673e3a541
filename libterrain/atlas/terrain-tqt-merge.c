/* terrain-tqt-merge.c: four quadrant TQT files merged into one (TGEA's
 * mergeTQT)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-tqt-file.h"
#include "terrain-atlas-texture.h"
#include "terrain-quadtree.h"
#include "terrain-atlas-file-impl-private.h"
#include "core/terrain-error.h"
#include "core/terrain-reader-private.h"

static TerrainAtlasTextureFormat
tile_format (TerrainTqtFile *tqt)
{
  return terrain_tqt_file_get_encoding (tqt) == TERRAIN_TQT_ENCODING_DDS
    ? TERRAIN_ATLAS_TEXTURE_DDS : TERRAIN_ATLAS_TEXTURE_JPEG;
}

/**
 * terrain_tqt_file_new_merged:
 * @north_west: the texture tree of the north-west quadrant
 * @north_east: the north-east quadrant's
 * @south_west: the south-west quadrant's
 * @south_east: the south-east quadrant's
 * @quality: JPEG quality, 1 to 100, of the new root tile of a JPEG tree
 * @error: return location for a #GError
 *
 * Merges four quadrant texture quadtrees into one a level deeper, as TGEA's
 * `mergeTQT` does: every tile keeps its bytes and moves one level down
 * under the new root, which is the four old roots, each halved (2 × 2 box
 * filter) and put side by side north up, encoded as the trees are (DDS for
 * TGEA's version 2, JPEG for Ulrich's version 1). The header's version and
 * tile size are the north-west tree's. Tiles lie in node order after the
 * offset table. See [ctor@Terrain.AtlasFile.new_merged_textures] for
 * Atlas texture TOCs.
 *
 * Returns: (transfer full) (nullable): the merged tree, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE naming the quadrant whose depth, encoding
 *   or root size differs from the north-west one's, or
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED when the merged tree would not fit a
 *   TQT file's 32-bit offsets
 */
TerrainTqtFile *
terrain_tqt_file_new_merged (TerrainTqtFile  *north_west,
                             TerrainTqtFile  *north_east,
                             TerrainTqtFile  *south_west,
                             TerrainTqtFile  *south_east,
                             guint            quality,
                             GError         **error)
{
  TerrainTqtFile *in[4] = { north_west, north_east, south_west, south_east };
  GBytes *sources[4] = { NULL };
  TerrainImage *roots[4] = { NULL };
  g_autoptr(TerrainImage) root = NULL;
  g_autoptr(TerrainAtlasTexture) root_texture = NULL;
  g_autoptr(GByteArray) out = NULL;
  TerrainTqtFile *merged = NULL;
  guint depth, n_entries;
  guint32 side = 0, h = 0;
  guint8 word[4];
  gsize table;

  for (guint q = 0; q < 4; q++)
    g_return_val_if_fail (TERRAIN_IS_TQT_FILE (in[q]), NULL);
  if (quality < 1 || quality > 100)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TQT: JPEG quality %u is not 1 to 100", quality);
      return NULL;
    }

  depth = terrain_tqt_file_get_tree_depth (north_west);
  for (guint q = 0; q < 4; q++)
    {
      guint32 w = 0;

      if (terrain_tqt_file_get_n_tiles (in[q]) > 0)
        (void) terrain_tqt_file_get_tile_dimensions (in[q], 0, &w, &h);
      if (q == 0)
        side = w;
      if (terrain_tqt_file_get_tree_depth (in[q]) != depth ||
          terrain_tqt_file_get_encoding (in[q]) != terrain_tqt_file_get_encoding (north_west) ||
          w != side || h != side || side < 2 || (side & 1) != 0)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TQT: the %s quadrant's tree (depth %u, root %u x %u) does not match "
                       "the north-west one's (depth %u, root %u x %u, an even side, the same "
                       "encoding)", atlas_quadrants[q].name,
                       terrain_tqt_file_get_tree_depth (in[q]), w, h, depth, side, side);
          return NULL;
        }
    }
  if (depth + 1 > TERRAIN_QUADTREE_MAX_DEPTH || terrain_quadtree_node_count (depth + 1) > G_MAXUINT32 / 8)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "TQT: merging trees of depth %u needs depth %u, too deep", depth, depth + 1);
      return NULL;
    }
  n_entries = (guint) terrain_quadtree_node_count (depth + 1);

  /* The root: the four old ones, halved, side by side. */
  for (guint q = 0; q < 4; q++)
    {
      g_autoptr(GBytes) stream = terrain_tqt_file_get_tile_bytes (in[q], 0);
      g_autoptr(TerrainAtlasTexture) texture = terrain_atlas_texture_new (tile_format (in[q]), stream);

      roots[q] = terrain_atlas_texture_decode (texture, TERRAIN_ATLAS_CHANNELS_RGB, NULL, error);
      if (roots[q] == NULL)
        {
          g_prefix_error (error, "the %s quadrant's root tile: ", atlas_quadrants[q].name);
          goto out;
        }
    }
  root = atlas_merge_root_tiles (roots, error);
  if (root == NULL)
    goto out;
  root_texture = terrain_atlas_texture_new_from_image (root, tile_format (north_west), quality,
                                                       TERRAIN_ATLAS_CHANNELS_RGB, error);
  if (root_texture == NULL)
    goto out;

  /* Header, an offset table to fill in, then the tiles. */
  out = g_byte_array_new ();
  g_byte_array_append (out, (const guint8 *) "tqt\0", 4);
  terrain_put_le32 (word, terrain_tqt_file_get_version (north_west));
  g_byte_array_append (out, word, 4);
  terrain_put_le32 (word, depth + 1);
  g_byte_array_append (out, word, 4);
  terrain_put_le32 (word, terrain_tqt_file_get_tile_size (north_west));
  g_byte_array_append (out, word, 4);
  table = out->len;
  g_byte_array_set_size (out, (guint) (table + 4 * (gsize) n_entries));
  memset (out->data + table, 0, 4 * (gsize) n_entries);

#define PUT_ENTRY(entry) terrain_put_le32 (out->data + table + 4 * (gsize) (entry), out->len)
  {
    GBytes *stream = terrain_atlas_texture_get_data (root_texture);
    gsize size;
    const guint8 *data = g_bytes_get_data (stream, &size);

    PUT_ENTRY (0);
    if (tile_format (north_west) == TERRAIN_ATLAS_TEXTURE_DDS)
      {
        terrain_put_le32 (word, (guint32) size);
        g_byte_array_append (out, word, 4);
      }
    g_byte_array_append (out, data, (guint) size);
  }
  for (guint q = 0; q < 4; q++)
    {
      gsize source_size;
      const guint8 *source;

      sources[q] = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (in[q]), error);
      if (sources[q] == NULL)
        goto out;
      source = g_bytes_get_data (sources[q], &source_size);
      for (guint level = 0; level < depth; level++)
        for (guint x = 0; x < (1u << level); x++)
          for (guint y = 0; y < (1u << level); y++)
            {
              gint from = terrain_tqt_file_lookup_node (in[q], level, x, y);
              guint64 to = terrain_quadtree_node_id (level + 1,
                                                     y + (atlas_quadrants[q].north << level),
                                                     x + (atlas_quadrants[q].west << level));
              gsize offset, size;

              if (from < 0 || terrain_tqt_file_get_tile_offset (in[q], (guint) from) == 0)
                continue;
              terrain_tqt_file_get_tile_span (in[q], (guint) from, &offset, &size);
              if (offset > source_size || size > source_size - offset ||
                  (guint64) out->len + size > G_MAXUINT32)
                {
                  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                               "TQT: the merged tree passes the 4 GiB a TQT offset reaches");
                  goto out;
                }
              PUT_ENTRY (to);
              g_byte_array_append (out, source + offset, (guint) size);
            }
    }
#undef PUT_ENTRY

  {
    g_autoptr(GBytes) bytes = g_byte_array_free_to_bytes (g_steal_pointer (&out));

    merged = terrain_tqt_file_new_from_bytes (bytes, NULL, error);
  }

out:
  for (guint q = 0; q < 4; q++)
    {
      g_clear_pointer (&roots[q], terrain_image_unref);
      g_clear_pointer (&sources[q], g_bytes_unref);
    }
  return merged;
}
