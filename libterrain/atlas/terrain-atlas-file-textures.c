/* terrain-atlas-file-textures.c: re-encoding an Atlas file's texture TOC
 * (TGEA's atlasConvertTextureTOC)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-atlas-file.h"
#include "terrain-atlas-stub.h"
#include "terrain-atlas-toc.h"
#include "core/terrain-error.h"

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
