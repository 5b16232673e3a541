/* terrain-ter7-edit.h: undoable edits of a Torque3D terrain (.ter v7)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "core/terrain-command.h"
#include "torque/terrain-ter7-file.h"

G_BEGIN_DECLS

#define TERRAIN_TYPE_TER7_EDIT (terrain_ter7_edit_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainTer7Edit, terrain_ter7_edit, TERRAIN, TER7_EDIT, TerrainCommand)

TERRAIN_AVAILABLE_IN_ALL
TerrainCommand *terrain_ter7_edit_new_set_height (TerrainTer7File *file,
                                                  guint            x,
                                                  guint            y,
                                                  guint            width,
                                                  guint            height,
                                                  guint16          value);
TERRAIN_AVAILABLE_IN_ALL
TerrainCommand *terrain_ter7_edit_new_paint      (TerrainTer7File *file,
                                                  guint            x,
                                                  guint            y,
                                                  guint            width,
                                                  guint            height,
                                                  guint8           layer);
TERRAIN_AVAILABLE_IN_ALL
void            terrain_ter7_edit_set_stroke     (TerrainTer7Edit *self,
                                                  guint            stroke);
TERRAIN_AVAILABLE_IN_ALL
guint           terrain_ter7_edit_get_stroke     (TerrainTer7Edit *self);
TERRAIN_AVAILABLE_IN_ALL
const char     *terrain_ter7_edit_get_report     (TerrainTer7Edit *self);

G_END_DECLS
