/* terrain-command-stack.h: undo and redo
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <glib-object.h>

#include "terrain-version.h"
#include "terrain-command.h"
#include "terrain-document.h"

G_BEGIN_DECLS

#define TERRAIN_TYPE_COMMAND_STACK (terrain_command_stack_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainCommandStack, terrain_command_stack, TERRAIN, COMMAND_STACK, GObject)

TERRAIN_AVAILABLE_IN_ALL
TerrainCommandStack *terrain_command_stack_new                  (TerrainDocument      *document);
TERRAIN_AVAILABLE_IN_ALL
TerrainDocument     *terrain_command_stack_get_document         (TerrainCommandStack  *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_command_stack_execute              (TerrainCommandStack  *self,
                                                                 TerrainCommand       *command,
                                                                 GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_command_stack_undo                 (TerrainCommandStack  *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_command_stack_redo                 (TerrainCommandStack  *self,
                                                                 GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_command_stack_get_can_undo         (TerrainCommandStack  *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_command_stack_get_can_redo         (TerrainCommandStack  *self);
TERRAIN_AVAILABLE_IN_ALL
const char          *terrain_command_stack_get_undo_description (TerrainCommandStack  *self);
TERRAIN_AVAILABLE_IN_ALL
const char          *terrain_command_stack_get_redo_description (TerrainCommandStack  *self);
TERRAIN_AVAILABLE_IN_ALL
guint                terrain_command_stack_get_undo_depth       (TerrainCommandStack  *self);
TERRAIN_AVAILABLE_IN_ALL
guint                terrain_command_stack_get_redo_depth       (TerrainCommandStack  *self);
TERRAIN_AVAILABLE_IN_ALL
TerrainCommand      *terrain_command_stack_peek_undo            (TerrainCommandStack  *self);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_command_stack_begin_user_action    (TerrainCommandStack  *self,
                                                                 const char           *description);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_command_stack_end_user_action      (TerrainCommandStack  *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_command_stack_get_in_user_action   (TerrainCommandStack  *self);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_command_stack_seal                 (TerrainCommandStack  *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_command_stack_get_clean            (TerrainCommandStack  *self);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_command_stack_mark_clean           (TerrainCommandStack  *self);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_command_stack_clear                (TerrainCommandStack  *self);
TERRAIN_AVAILABLE_IN_ALL
guint                terrain_command_stack_get_max_depth        (TerrainCommandStack  *self);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_command_stack_set_max_depth        (TerrainCommandStack  *self,
                                                                 guint                 max_depth);

G_END_DECLS
