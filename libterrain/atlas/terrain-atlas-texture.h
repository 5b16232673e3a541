/* terrain-atlas-texture.h: Atlas texture chunks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <glib-object.h>

#include "terrain-version.h"
#include "core/terrain-image.h"
#include "core/terrain-limits.h"

G_BEGIN_DECLS

/**
 * TerrainAtlasTextureFormat:
 * @TERRAIN_ATLAS_TEXTURE_JPEG: mFormat 0: a JPEG stream, no mipmaps
 * @TERRAIN_ATLAS_TEXTURE_PNG: mFormat 1: a PNG stream, no mipmaps
 * @TERRAIN_ATLAS_TEXTURE_DDS: mFormat 2: a DDS stream with its mipmaps
 *
 * The image encodings of a texture chunk (atlas-chu-tqt.md §4).
 */
typedef enum
{
  TERRAIN_ATLAS_TEXTURE_JPEG = 0,
  TERRAIN_ATLAS_TEXTURE_PNG = 1,
  TERRAIN_ATLAS_TEXTURE_DDS = 2,
} TerrainAtlasTextureFormat;

/**
 * TerrainAtlasChannelOrder:
 * @TERRAIN_ATLAS_CHANNELS_RGB: decoded channels are used as they are
 * @TERRAIN_ATLAS_CHANNELS_BGR: the JPEG or PNG was made from BGR(A) bitmap
 *   data, so decoded red and blue are swapped back (§4, "Texture
 *   color-channel interpretation"); DDS ignores this
 *
 * How to read the colour channels of a JPEG or PNG texture.
 */
typedef enum
{
  TERRAIN_ATLAS_CHANNELS_RGB,
  TERRAIN_ATLAS_CHANNELS_BGR,
} TerrainAtlasChannelOrder;

#define TERRAIN_TYPE_ATLAS_TEXTURE (terrain_atlas_texture_get_type ())

/**
 * TerrainAtlasTexture:
 *
 * A texture chunk (atlas-chu-tqt.md §4): the format byte and the encoded
 * JPEG, PNG or DDS image, kept as it is and decoded to RGBA on request.
 */

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainAtlasTexture, terrain_atlas_texture, TERRAIN, ATLAS_TEXTURE, GObject)

TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasTexture *terrain_atlas_texture_new            (guint8                    format,
                                                           GBytes                   *data);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasTexture *terrain_atlas_texture_new_from_body  (GBytes                   *body,
                                                           goffset                   body_offset,
                                                           GError                  **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasTexture *terrain_atlas_texture_new_from_image (TerrainImage             *image,
                                                           TerrainAtlasTextureFormat format,
                                                           guint                     quality,
                                                           TerrainAtlasChannelOrder  order,
                                                           GError                  **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes              *terrain_atlas_texture_encode_body    (TerrainAtlasTexture      *self,
                                                           GError                  **error);
TERRAIN_AVAILABLE_IN_ALL
guint8               terrain_atlas_texture_get_format     (TerrainAtlasTexture      *self);
TERRAIN_AVAILABLE_IN_ALL
GBytes              *terrain_atlas_texture_get_data       (TerrainAtlasTexture      *self);
TERRAIN_AVAILABLE_IN_ALL
const char          *terrain_atlas_texture_get_extension  (TerrainAtlasTexture      *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_atlas_texture_get_size       (TerrainAtlasTexture      *self,
                                                           guint                    *width,
                                                           guint                    *height,
                                                           GError                  **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainImage        *terrain_atlas_texture_decode         (TerrainAtlasTexture      *self,
                                                           TerrainAtlasChannelOrder  order,
                                                           const TerrainLimits      *limits,
                                                           GError                  **error);
TERRAIN_AVAILABLE_IN_ALL
GPtrArray           *terrain_atlas_texture_check          (TerrainAtlasTexture      *self,
                                                           const char               *section,
                                                           gint64                    offset,
                                                           gint64                    record);

G_END_DECLS
