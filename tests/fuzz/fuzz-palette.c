/* fuzz-palette.c: libFuzzer harness for palettes (PALETTE.PAL and PCX)
 *
 * terrain_palette_new_from_bytes() either reads a palette or fails with a
 * TERRAIN_ERROR. A palette writes back as a PALETTE.PAL that reads again to
 * the same colours, byte-exact when the input was a PALETTE.PAL; the input
 * bytes, taken as colours, also go through the nearest-colour search.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libterrain.h"

#define PAL_SIZE 1024

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(TerrainPalette) again = NULL;
  g_autoptr(GBytes) written = NULL;

  palette = terrain_palette_new_from_bytes (bytes, &error);
  if (palette == NULL)
    {
      if (error == NULL || error->domain != TERRAIN_ERROR)
        abort ();
      return 0;
    }

  written = terrain_palette_to_pal_bytes (palette);
  if (size == PAL_SIZE && !g_bytes_equal (written, bytes))
    {
      g_printerr ("a PALETTE.PAL does not write back byte-exact\n");
      abort ();
    }
  again = terrain_palette_new_from_bytes (written, &error);
  if (again == NULL ||
      memcmp (terrain_palette_get_rgba_table (palette), terrain_palette_get_rgba_table (again),
              256 * 4) != 0)
    {
      g_printerr ("a written palette does not read back to the same colours\n");
      abort ();
    }

  /* The exhaustive search on the input's own bytes as colours. The fast
   * table (terrain_palette_nearest_fast(), quantisation) costs tens of
   * milliseconds to build under the sanitizers for each palette, which would
   * leave the fuzzer a few inputs a second; test-palette checks it against
   * this search instead. */
  for (gsize i = 0; i + 3 <= size && i < 3 * 64; i += 3)
    {
      guint8 index = terrain_palette_nearest (palette, data[i], data[i + 1], data[i + 2]);
      guint8 r, g, b;

      terrain_palette_get_color (palette, index, &r, &g, &b);
      if (terrain_palette_nearest (palette, r, g, b) > index)
        {
          g_printerr ("entry %u is not the nearest to its own colour\n", index);
          abort ();
        }
    }

  return 0;
}
