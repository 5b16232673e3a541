/* terrain-tile.c: drawing Total Annihilation tiles
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-tile-private.h"
#include "terrain-tnt-map.h"

/*
 * terrain_ta_draw_tile:
 * @dest: the tile's top-left pixel in an RGBA image
 * @stride: bytes per image row
 * @tile: (nullable): 32x32 palette indices, row-major, or %NULL for a tile
 *   index that has no graphics
 * @rgba: the palette's 256 RGBA entries
 *
 * Draws one 32x32 tile through the palette. A missing tile is drawn as a
 * magenta and black checker of 8-pixel squares, magenta at the top-left, so
 * damage is visible (TNT maps and SCT sections draw it the same way).
 */
void
terrain_ta_draw_tile (guint8       *dest,
                      gsize         stride,
                      const guint8 *tile,
                      const guint8 *rgba)
{
  for (guint y = 0; y < TERRAIN_TNT_TILE_PIXELS; y++, dest += stride)
    {
      if (tile != NULL)
        {
          const guint8 *src = tile + y * TERRAIN_TNT_TILE_PIXELS;

          for (guint x = 0; x < TERRAIN_TNT_TILE_PIXELS; x++)
            memcpy (dest + 4 * x, rgba + 4 * src[x], 4);
          continue;
        }

      for (guint x = 0; x < TERRAIN_TNT_TILE_PIXELS; x++)
        {
          gboolean magenta = ((x / TERRAIN_TILE_CHECKER_SQUARE +
                               y / TERRAIN_TILE_CHECKER_SQUARE) & 1) == 0;

          dest[4 * x + 0] = magenta ? 0xff : 0x00;
          dest[4 * x + 1] = 0x00;
          dest[4 * x + 2] = magenta ? 0xff : 0x00;
          dest[4 * x + 3] = 0xff;
        }
    }
}
