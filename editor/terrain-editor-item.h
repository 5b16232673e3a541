/* terrain-editor-item.h: a row of the editor's side panels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define TERRAIN_EDITOR_TYPE_ITEM (terrain_editor_item_get_type ())

G_DECLARE_FINAL_TYPE (TerrainEditorItem, terrain_editor_item, TERRAIN_EDITOR, ITEM, GObject)

TerrainEditorItem *terrain_editor_item_new          (const char        *title,
                                                     const char        *value);
const char        *terrain_editor_item_get_title    (TerrainEditorItem *self);
const char        *terrain_editor_item_get_value    (TerrainEditorItem *self);
GListModel        *terrain_editor_item_get_children (TerrainEditorItem *self);
void               terrain_editor_item_set_children (TerrainEditorItem *self,
                                                     GListModel        *children);
gboolean           terrain_editor_item_get_position (TerrainEditorItem *self,
                                                     int               *x,
                                                     int               *y);
void               terrain_editor_item_set_position (TerrainEditorItem *self,
                                                     int                x,
                                                     int                y);
gpointer           terrain_editor_item_get_data     (TerrainEditorItem *self);
void               terrain_editor_item_set_data     (TerrainEditorItem *self,
                                                     gpointer           data,
                                                     GDestroyNotify     destroy);

G_END_DECLS
