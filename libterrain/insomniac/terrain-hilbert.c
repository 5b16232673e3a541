/* terrain-hilbert.c: the Hilbert traversal of TNLChunk rasters
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-hilbert-private.h"
#include "terrain-node-chunk.h"

void
terrain_hilbert_d2xy (guint    order,
                      guint32  d,
                      guint   *x,
                      guint   *y)
{
  guint32 t = d;
  guint cx = 0, cy = 0;

  g_assert (order <= 15);

  for (guint32 s = 1; s < (1u << order); s *= 2)
    {
      guint rx = 1 & (t / 2);
      guint ry = 1 & (t ^ rx);

      /* Rotate the quadrant so the sub-curve joins its neighbours. */
      if (ry == 0)
        {
          guint swap;

          if (rx == 1)
            {
              cx = s - 1 - cx;
              cy = s - 1 - cy;
            }
          swap = cx;
          cx = cy;
          cy = swap;
        }
      cx += s * rx;
      cy += s * ry;
      t /= 4;
    }

  *x = cx;
  *y = cy;
}

static gpointer
build_raster_order (gpointer data)
{
  guint16 *order = g_new (guint16, TERRAIN_NODE_SAMPLES);
  guint n = 0;

  for (guint32 d = 0; d < 256 * 256; d++)
    {
      guint x, y;

      terrain_hilbert_d2xy (8, d, &x, &y);
      if (x < TERRAIN_NODE_SIDE && y < TERRAIN_NODE_SIDE)
        order[n++] = (guint16) (y * TERRAIN_NODE_SIDE + x);
    }
  g_assert (n == TERRAIN_NODE_SAMPLES);

  return order;
}

const guint16 *
terrain_hilbert_raster_order (void)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, build_raster_order, NULL);
  return once.retval;
}
