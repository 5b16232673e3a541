/* terrain-format-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-document.h"

G_BEGIN_DECLS

typedef TerrainDocument *(*TerrainLoadFunc) (GBytes               *bytes,
                                             const TerrainLimits  *limits,
                                             GError              **error);

TerrainLoadFunc terrain_format_get_loader (TerrainFormat format);

G_END_DECLS
