/* fuzz-dds.c: libFuzzer harness for the DDS header parser and decoder
 *
 * terrain_dds_parse() and terrain_dds_decode() either succeed or fail with a
 * TERRAIN_ERROR. A stream that decodes has a parsed header whose pixel data
 * fits in the input, and decodes to the size its header declares; an Atlas
 * DDS texture chunk of the same stream reports the same size and writes its
 * body back byte-exact. libterrain writes no DDS, so there is no re-encoding.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "libterrain.h"
#include "fuzz-limits.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainAtlasTexture) texture = terrain_atlas_texture_new (TERRAIN_ATLAS_TEXTURE_DDS,
                                                                       bytes);
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(TerrainAtlasTexture) reread = NULL;
  TerrainDdsInfo info;
  guint width = 0, height = 0;

  issues = terrain_atlas_texture_check (texture, NULL, 0, 0);
  body = terrain_atlas_texture_encode_body (texture, &error);
  if (body == NULL)
    abort ();
  reread = terrain_atlas_texture_new_from_body (body, 0, &error);
  if (reread == NULL || !g_bytes_equal (terrain_atlas_texture_get_data (reread), bytes))
    abort ();

  if (!terrain_dds_parse (bytes, 0, &info, &error))
    {
      if (error == NULL || error->domain != TERRAIN_ERROR)
        abort ();
      return 0;
    }
  if (info.format != TERRAIN_DDS_FORMAT_UNKNOWN &&
      (info.header_size > size || info.data_size > size - info.header_size))
    {
      g_printerr ("a parsed header's pixels do not fit in the stream\n");
      abort ();
    }

  image = terrain_dds_decode (bytes, fuzz_limits (), &error);
  if (image == NULL)
    {
      if (error == NULL || error->domain != TERRAIN_ERROR)
        abort ();
      return 0;
    }
  if (terrain_image_get_width (image) != info.width ||
      terrain_image_get_height (image) != info.height)
    {
      g_printerr ("the header says %ux%u, the decoder gives %ux%u\n", info.width, info.height,
                  terrain_image_get_width (image), terrain_image_get_height (image));
      abort ();
    }
  if (!terrain_atlas_texture_get_size (texture, &width, &height, &error) ||
      width != info.width || height != info.height)
    {
      g_printerr ("the texture chunk reports another size than its DDS header\n");
      abort ();
    }

  return 0;
}
