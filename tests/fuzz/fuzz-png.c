/* fuzz-png.c: libFuzzer harness for the PNG decoder
 *
 * terrain_image_load_png_bytes() either decodes or fails with a
 * TERRAIN_ERROR; a decoded image encodes again (terrain_image_save_png_bytes())
 * and that PNG decodes to the same pixels. PNG encoding is not byte-exact
 * (zlib settings, chunks), so the round trip compares pixels, not bytes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libterrain.h"
#include "core/terrain-image-private.h"
#include "fuzz-limits.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static gboolean
same_pixels (TerrainImage *a,
             TerrainImage *b)
{
  gsize size_a = 0, size_b = 0;
  const guint8 *data_a = terrain_image_get_data (a, &size_a);
  const guint8 *data_b = terrain_image_get_data (b, &size_b);

  return terrain_image_get_format (a) == terrain_image_get_format (b) &&
         terrain_image_get_width (a) == terrain_image_get_width (b) &&
         terrain_image_get_height (a) == terrain_image_get_height (b) &&
         size_a == size_b && memcmp (data_a, data_b, size_a) == 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(TerrainImage) again = NULL;
  g_autoptr(GBytes) written = NULL;

  image = terrain_image_load_png_bytes_with_limits (bytes, fuzz_limits (), &error);
  if (image == NULL)
    {
      if (error == NULL || error->domain != TERRAIN_ERROR)
        abort ();
      return 0;
    }

  written = terrain_image_save_png_bytes (image, &error);
  if (written == NULL)
    {
      g_printerr ("a decoded PNG does not encode: %s\n", error->message);
      abort ();
    }
  again = terrain_image_load_png_bytes_with_limits (written, fuzz_limits (), &error);
  if (again == NULL)
    {
      g_printerr ("an encoded PNG does not decode: %s\n", error->message);
      abort ();
    }
  if (!same_pixels (image, again))
    {
      g_printerr ("re-encoded PNG decodes to other pixels\n");
      abort ();
    }

  return 0;
}
