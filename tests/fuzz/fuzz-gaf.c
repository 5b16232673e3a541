/* fuzz-gaf.c: libFuzzer harness for GAF sprite archives
 *
 * terrain_gaf_archive_new_from_bytes() either reads the archive or fails with
 * a TERRAIN_ERROR. A read archive rewrites byte-exact; every frame either
 * decodes to width x height indices and renders through a palette, or fails
 * with a TERRAIN_ERROR.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "libterrain.h"
#include "fuzz-limits.h"

/* Frames decoded per input: a small file may declare thousands of frames
 * sharing one picture, and each costs the same. */
#define MAX_FRAMES 64

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static TerrainPalette *palette;
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainGafArchive) gaf = NULL;
  g_autoptr(GBytes) written = NULL;
  guint decoded = 0;

  if (palette == NULL)
    {
      guint8 rgb[768];

      for (guint i = 0; i < 768; i++)
        rgb[i] = i & 0xff;
      palette = terrain_palette_new_from_rgb (rgb, 256);
    }

  gaf = terrain_gaf_archive_new_from_bytes (bytes, fuzz_limits (), &error);
  if (gaf == NULL)
    {
      if (error == NULL || error->domain != TERRAIN_ERROR)
        abort ();
      return 0;
    }

  written = terrain_gaf_archive_save_to_bytes (gaf);
  if (!g_bytes_equal (written, bytes))
    {
      g_printerr ("an unedited GAF does not rewrite byte-exact\n");
      abort ();
    }

  for (guint e = 0; e < terrain_gaf_archive_get_n_entries (gaf) && decoded < MAX_FRAMES; e++)
    for (guint f = 0; f < terrain_gaf_archive_get_n_frames (gaf, e) && decoded < MAX_FRAMES; f++)
      {
        const TerrainGafFrame *frame = terrain_gaf_archive_get_frame (gaf, e, f);
        g_autoptr(TerrainImage) image = NULL;

        decoded++;
        image = terrain_gaf_archive_render_frame (gaf, e, f, palette, &error);
        if (image == NULL)
          {
            if (error == NULL || error->domain != TERRAIN_ERROR)
              abort ();
            g_clear_error (&error);
            continue;
          }
        if (terrain_image_get_width (image) != MAX (frame->width, 1) ||
            terrain_image_get_height (image) != MAX (frame->height, 1))
          abort ();
      }

  return 0;
}
