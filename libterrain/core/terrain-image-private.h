/* terrain-image-private.h: image decoding under explicit limits
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-image.h"
#include "terrain-limits.h"

G_BEGIN_DECLS

TerrainImage *terrain_image_load_png_bytes_with_limits (GBytes               *bytes,
                                                        const TerrainLimits  *limits,
                                                        GError              **error);

G_END_DECLS
