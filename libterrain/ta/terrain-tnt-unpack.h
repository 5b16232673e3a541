/* terrain-tnt-unpack.h: a TNT map as a folder of ordinary files, and back, byte-exact
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <gio/gio.h>

#include "terrain-version.h"
#include "core/terrain-limits.h"
#include "terrain-palette.h"
#include "terrain-tnt-map.h"

G_BEGIN_DECLS

/**
 * TERRAIN_TNT_UNPACK_MANIFEST:
 *
 * The name of the manifest of an unpacked map, `metadata.json` (kbot's name).
 */
#define TERRAIN_TNT_UNPACK_MANIFEST "metadata.json"

/**
 * TERRAIN_TNT_UNPACK_SHEET_COLUMNS:
 *
 * How many 32x32 tiles a row of `tiles.png` holds.
 */
#define TERRAIN_TNT_UNPACK_SHEET_COLUMNS 16

TERRAIN_AVAILABLE_IN_ALL
gboolean  terrain_tnt_map_unpack   (TerrainTntMap        *self,
                                    TerrainPalette       *palette,
                                    GFile                *folder,
                                    GCancellable         *cancellable,
                                    GError              **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes   *terrain_tnt_pack_folder  (GFile                *folder,
                                    const TerrainLimits  *limits,
                                    GCancellable         *cancellable,
                                    GError              **error);

G_END_DECLS
