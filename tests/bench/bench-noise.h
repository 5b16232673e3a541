/* bench-noise.h: the generated terrain the benchmarks build from
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "libterrain.h"

G_BEGIN_DECLS

TerrainHeightfield *bench_make_noise (guint side);

G_END_DECLS
