/* fuzz-jpeg.c: libFuzzer harness for the JPEG texture decoder
 *
 * The input is an Atlas JPEG texture stream (mFormat 0). Its header size,
 * its validation and its decoding either succeed or fail with a
 * TERRAIN_ERROR; a decoded image has the size the header gave, the chunk
 * body writes back byte-exact, and the image encodes again as a JPEG that
 * decodes to the same size (JPEG is lossy: pixels are not compared).
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
  g_autoptr(TerrainAtlasTexture) texture = terrain_atlas_texture_new (TERRAIN_ATLAS_TEXTURE_JPEG,
                                                                       bytes);
  g_autoptr(TerrainAtlasTexture) encoded = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(TerrainImage) again = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(TerrainAtlasTexture) reread = NULL;
  guint width = 0, height = 0;

  issues = terrain_atlas_texture_check (texture, NULL, 0, 0);
  body = terrain_atlas_texture_encode_body (texture, &error);
  if (body == NULL)
    abort ();
  reread = terrain_atlas_texture_new_from_body (body, 0, &error);
  if (reread == NULL || !g_bytes_equal (terrain_atlas_texture_get_data (reread), bytes))
    abort ();

  if (!terrain_atlas_texture_get_size (texture, &width, &height, &error))
    {
      if (error == NULL || error->domain != TERRAIN_ERROR)
        abort ();
      return 0;
    }

  image = terrain_atlas_texture_decode (texture, TERRAIN_ATLAS_CHANNELS_RGB, fuzz_limits (),
                                        &error);
  if (image == NULL)
    {
      if (error == NULL || error->domain != TERRAIN_ERROR)
        abort ();
      return 0;
    }
  if (terrain_image_get_width (image) != width || terrain_image_get_height (image) != height)
    {
      g_printerr ("the header says %ux%u, the decoder gives %ux%u\n", width, height,
                  terrain_image_get_width (image), terrain_image_get_height (image));
      abort ();
    }

  encoded = terrain_atlas_texture_new_from_image (image, TERRAIN_ATLAS_TEXTURE_JPEG, 75,
                                                  TERRAIN_ATLAS_CHANNELS_RGB, &error);
  if (encoded == NULL)
    {
      g_printerr ("a decoded JPEG does not encode: %s\n", error->message);
      abort ();
    }
  again = terrain_atlas_texture_decode (encoded, TERRAIN_ATLAS_CHANNELS_RGB, fuzz_limits (),
                                        &error);
  if (again == NULL ||
      terrain_image_get_width (again) != width || terrain_image_get_height (again) != height)
    {
      g_printerr ("a re-encoded JPEG does not decode to the same size\n");
      abort ();
    }

  return 0;
}
