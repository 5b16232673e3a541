/* terrain-tnt-unpack-private.h: packing an unpacked map held in memory
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-tnt-unpack.h"

G_BEGIN_DECLS

/* terrain_tnt_pack_folder() over @members, a table of file name (as in the
 * folder: "metadata.json", "tilemap.csv", ...) to #GBytes; a missing member
 * is a TERRAIN_ERROR_INVALID_VALUE. What the fuzzer drives. */
GBytes *terrain_tnt_pack_members (GHashTable           *members,
                                  const TerrainLimits  *limits,
                                  GError              **error);

G_END_DECLS
