/* terrain-heightmap-document-private.h: what a plain heightmap looks like,
 * for format detection (terrain-format.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-heightmap-document.h"

G_BEGIN_DECLS

typedef enum
{
  HEIGHTMAP_SHAPE_NONE,      /* none of the below */
  HEIGHTMAP_SHAPE_GRAY_PNG,  /* a PNG whose IHDR says greyscale (colour type 0) */
  HEIGHTMAP_SHAPE_PNG,       /* any other PNG (colour, palette, grey with alpha) */
  HEIGHTMAP_SHAPE_SRTM,      /* exactly 1201² or 3601² 16-bit samples */
  HEIGHTMAP_SHAPE_SQUARE16,  /* any other square of 2 x 2 or more 16-bit samples */
} HeightmapShape;

HeightmapShape terrain_heightmap_shape (const guint8 *data,
                                        gsize         size);

G_END_DECLS
