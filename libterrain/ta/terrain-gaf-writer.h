/* terrain-gaf-writer.h: writing Total Annihilation GAF archives
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

#define TERRAIN_TYPE_GAF_WRITER (terrain_gaf_writer_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainGafWriter, terrain_gaf_writer, TERRAIN, GAF_WRITER, GObject)

TERRAIN_AVAILABLE_IN_ALL
TerrainGafWriter *terrain_gaf_writer_new       (void);
TERRAIN_AVAILABLE_IN_ALL
gboolean          terrain_gaf_writer_add_entry (TerrainGafWriter  *self,
                                                const char        *name,
                                                GError           **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean          terrain_gaf_writer_add_frame (TerrainGafWriter  *self,
                                                const guint8      *pixels,
                                                guint              width,
                                                guint              height,
                                                gint               x_offset,
                                                gint               y_offset,
                                                guint8             transparency_index,
                                                gboolean           compress,
                                                GError           **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes           *terrain_gaf_writer_finish    (TerrainGafWriter  *self,
                                                GError           **error);

G_END_DECLS
