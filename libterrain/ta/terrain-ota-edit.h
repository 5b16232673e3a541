/* terrain-ota-edit.h: undoable edits of a TA map description (.ota)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "core/terrain-command.h"
#include "terrain-ota-file.h"

G_BEGIN_DECLS

#define TERRAIN_TYPE_OTA_EDIT (terrain_ota_edit_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainOtaEdit, terrain_ota_edit, TERRAIN, OTA_EDIT, TerrainCommand)

TERRAIN_AVAILABLE_IN_ALL
TerrainCommand *terrain_ota_edit_new_set_value          (TerrainOtaFile *ota,
                                                         const char     *block,
                                                         const char     *key,
                                                         const char     *value);
TERRAIN_AVAILABLE_IN_ALL
TerrainCommand *terrain_ota_edit_new_set_start_position (TerrainOtaFile *ota,
                                                         guint           schema,
                                                         guint           player,
                                                         gint            x,
                                                         gint            z);
TERRAIN_AVAILABLE_IN_ALL
TerrainOtaFile *terrain_ota_edit_get_ota                (TerrainOtaEdit *self);
TERRAIN_AVAILABLE_IN_ALL
const char     *terrain_ota_edit_get_report             (TerrainOtaEdit *self);

G_END_DECLS
