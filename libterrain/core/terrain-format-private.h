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

/* Container formats (HPI archives): whether @format holds files, and reading
 * one of them by its path inside, for terrain_document_load_path(). */
gboolean        terrain_format_is_container  (TerrainFormat         format);
GBytes         *terrain_format_read_member   (TerrainFormat         format,
                                              GBytes               *container,
                                              const char           *path,
                                              const TerrainLimits  *limits,
                                              GError              **error);

G_END_DECLS
