/* terrain-editor-ota-panel.h: the Map page, a TNT map's .ota settings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <libterrain.h>

G_BEGIN_DECLS

#define TERRAIN_EDITOR_TYPE_OTA_PANEL (terrain_editor_ota_panel_get_type ())

G_DECLARE_FINAL_TYPE (TerrainEditorOtaPanel, terrain_editor_ota_panel, TERRAIN_EDITOR, OTA_PANEL, GtkBox)

GtkWidget      *terrain_editor_ota_panel_new        (void);
void            terrain_editor_ota_panel_set_ota    (TerrainEditorOtaPanel *self,
                                                     TerrainOtaFile        *ota);
TerrainOtaFile *terrain_editor_ota_panel_get_ota    (TerrainEditorOtaPanel *self);
guint           terrain_editor_ota_panel_get_schema (TerrainEditorOtaPanel *self);
void            terrain_editor_ota_panel_set_schema (TerrainEditorOtaPanel *self,
                                                     guint                  schema);
void            terrain_editor_ota_panel_refresh    (TerrainEditorOtaPanel *self);
GtkWidget      *terrain_editor_ota_panel_get_field  (TerrainEditorOtaPanel *self,
                                                     const char            *key);
GtkWidget      *terrain_editor_ota_panel_get_start_spin (TerrainEditorOtaPanel *self,
                                                         guint                  player,
                                                         gboolean               z);

G_END_DECLS
