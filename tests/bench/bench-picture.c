/* bench-picture.c: the generated picture the texture benchmarks build from
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <stdio.h>

#include <jpeglib.h>

#include "bench-picture.h"

/**
 * bench_write_picture:
 * @path: the JPEG to write
 * @side: pixels on a side
 *
 * Writes a fixed-seed, photo-like RGB JPEG of @side x @side pixels
 * (quality 90), one scanline at a time through libjpeg-turbo, so that
 * only one row is ever held.
 *
 * Returns: whether the file was written
 */
gboolean
bench_write_picture (const char *path,
                     guint       side)
{
  struct jpeg_compress_struct c;
  struct jpeg_error_mgr e;
  FILE *f = fopen (path, "wb");
  guint8 *row;
  guint32 s = 12345;

  if (f == NULL)
    return FALSE;
  row = g_malloc ((gsize) side * 3);
  c.err = jpeg_std_error (&e);
  jpeg_create_compress (&c);
  jpeg_stdio_dest (&c, f);
  c.image_width = side;
  c.image_height = side;
  c.input_components = 3;
  c.in_color_space = JCS_RGB;
  jpeg_set_defaults (&c);
  jpeg_set_quality (&c, 90, TRUE);
  jpeg_start_compress (&c, TRUE);
  for (guint y = 0; y < side; y++)
    {
      JSAMPROW p = row;

      for (guint x = 0; x < side; x++)
        {
          gdouble u = x * 4096.0 / side, v = y * 4096.0 / side;
          gdouble t = 0.5 + 0.2 * sin (u / 97.0) * cos (v / 131.0) + 0.15 * sin ((u + v) / 23.0) +
                      0.1 * sin (u / 7.3 - v / 5.1);
          gint n, r, g, b;

          s = s * 1103515245u + 12345u;
          n = (gint) ((s >> 16) & 31) - 16;
          r = (gint) (t * 200) + n;
          g = (gint) (t * 170 + 30 * sin (v / 300.0)) + n;
          b = (gint) (t * 120 + 40) + n;
          row[3 * x] = (guint8) CLAMP (r, 0, 255);
          row[3 * x + 1] = (guint8) CLAMP (g, 0, 255);
          row[3 * x + 2] = (guint8) CLAMP (b, 0, 255);
        }
      jpeg_write_scanlines (&c, &p, 1);
    }
  jpeg_finish_compress (&c);
  jpeg_destroy_compress (&c);
  g_free (row);
  return fclose (f) == 0;
}
