/* terrain-hilbert-private.h: the Hilbert traversal of TNLChunk rasters
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Maps a distance @d along the Hilbert curve of order @order (side 2^order)
 * to a cell, with the classic d2xy mapping: the curve starts (0,0) -> (1,0),
 * a +x first step (field-notes.md, "CABAC"). */
void           terrain_hilbert_d2xy          (guint    order,
                                              guint32  d,
                                              guint   *x,
                                              guint   *y);

/* The order-8 curve clipped to a 132x132 raster: 17,424 sample indices
 * (y * 132 + x) in traversal order (insomniac-terrain.md, "Block coding").
 * Computed once; never freed. */
const guint16 *terrain_hilbert_raster_order  (void);

G_END_DECLS
