/* terrain-ta-map-hash.h: the hashes lobbies identify Total Annihilation maps by
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <gio/gio.h>

#include "terrain-version.h"
#include "terrain-tnt-map.h"

G_BEGIN_DECLS

TERRAIN_AVAILABLE_IN_ALL
guint32  terrain_ta_map_hash               (GBytes         *tnt,
                                            GBytes         *ota);
TERRAIN_AVAILABLE_IN_ALL
GFile   *terrain_ta_map_find_ota           (GFile          *tnt_file,
                                            GCancellable   *cancellable);
TERRAIN_AVAILABLE_IN_ALL
GBytes  *terrain_ta_map_load_ota           (const char     *spec,
                                            char          **ota_spec,
                                            GCancellable   *cancellable,
                                            GError        **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean terrain_tnt_map_get_lobby_hash    (TerrainTntMap  *self,
                                            guint32        *hash,
                                            GError        **error);

G_END_DECLS
