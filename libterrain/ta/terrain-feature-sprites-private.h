/* terrain-feature-sprites-private.h: where a feature's sprite is anchored
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-feature-sprites.h"

G_BEGIN_DECLS

/* The anchor of a feature of @footprint_x x @footprint_z cells placed at
 * cell (@x, @y), in map pixels: the centre of its footprint lifted by half
 * the ground height at (@x, @y) (0 off the map), as the game draws it. */
void terrain_feature_anchor (TerrainTntMap *map,
                             guint          x,
                             guint          y,
                             guint          footprint_x,
                             guint          footprint_z,
                             gint          *anchor_x,
                             gint          *anchor_y);

G_END_DECLS
