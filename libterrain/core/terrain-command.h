/* terrain-command.h: one undoable edit
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <glib-object.h>

#include "terrain-version.h"
#include "terrain-document.h"

G_BEGIN_DECLS

#define TERRAIN_TYPE_COMMAND (terrain_command_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (TerrainCommand, terrain_command, TERRAIN, COMMAND, GObject)

/**
 * TerrainCommandClass:
 * @parent_class: the parent class
 * @apply: performs the edit on the command's document, the first time and on
 *   every redo; on failure it leaves the document as it found it and sets
 *   the error
 * @revert: undoes what the last @apply did; the document is then exactly as
 *   it was before (for a file-backed document: it writes the same bytes)
 * @merge: folds @next, an edit already applied right after this one, into
 *   this one so that both undo as one step; returns %FALSE (the default)
 *   when the two cannot merge
 *
 * The virtual methods of [class@Terrain.Command]. Subclasses implement
 * @apply and @revert; @merge is optional.
 */
struct _TerrainCommandClass
{
  GObjectClass parent_class;

  gboolean (*apply)  (TerrainCommand  *self,
                      GError         **error);
  void     (*revert) (TerrainCommand  *self);
  gboolean (*merge)  (TerrainCommand  *self,
                      TerrainCommand  *next);

  /*< private >*/
  gpointer padding[8];
};

TERRAIN_AVAILABLE_IN_ALL
TerrainDocument *terrain_command_get_document    (TerrainCommand  *self);
TERRAIN_AVAILABLE_IN_ALL
const char      *terrain_command_get_description (TerrainCommand  *self);
TERRAIN_AVAILABLE_IN_ALL
void             terrain_command_set_description (TerrainCommand  *self,
                                                  const char      *description);
TERRAIN_AVAILABLE_IN_ALL
gboolean         terrain_command_get_applied     (TerrainCommand  *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean         terrain_command_apply           (TerrainCommand  *self,
                                                  GError         **error);
TERRAIN_AVAILABLE_IN_ALL
void             terrain_command_revert          (TerrainCommand  *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean         terrain_command_merge           (TerrainCommand  *self,
                                                  TerrainCommand  *next);

G_END_DECLS
