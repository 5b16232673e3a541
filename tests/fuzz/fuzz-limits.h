/* fuzz-limits.h: the allocation budget of every harness
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "libterrain.h"

/* Small enough that no input can exhaust the fuzzer's memory limit
 * (-rss_limit_mb=2048, which libFuzzer also applies to one malloc) and that
 * the largest image an input may declare still decodes in well under a
 * second. */
static inline const TerrainLimits *
fuzz_limits (void)
{
  static TerrainLimits *limits;

  if (limits == NULL)
    {
      limits = terrain_limits_new ();
      limits->max_allocation = 64 * 1024 * 1024;
      limits->max_cells_per_side = 2048;
      limits->max_image_side = 2048;
    }
  return limits;
}
