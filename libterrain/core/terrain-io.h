/* terrain-io.h: file input and atomic output
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <gio/gio.h>

#include "terrain-version.h"

G_BEGIN_DECLS

TERRAIN_AVAILABLE_IN_ALL
GBytes   *terrain_file_load_bytes (GFile         *file,
                                   GCancellable  *cancellable,
                                   GError       **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean  terrain_file_save_bytes (GFile         *file,
                                   GBytes        *bytes,
                                   GCancellable  *cancellable,
                                   GError       **error);

G_END_DECLS
