/* terrain-tile-private.h: drawing Total Annihilation tiles
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Side of the magenta/black squares drawn where a tile index has no tile. */
#define TERRAIN_TILE_CHECKER_SQUARE 8

void terrain_ta_draw_tile (guint8       *dest,
                           gsize         stride,
                           const guint8 *tile,
                           const guint8 *rgba);

G_END_DECLS
