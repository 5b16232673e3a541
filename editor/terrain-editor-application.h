/* terrain-editor-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <libterrain.h>

G_BEGIN_DECLS

#define TERRAIN_EDITOR_TYPE_APPLICATION (terrain_editor_application_get_type ())

G_DECLARE_FINAL_TYPE (TerrainEditorApplication, terrain_editor_application, TERRAIN_EDITOR, APPLICATION,
                      GtkApplication)

TerrainEditorApplication *terrain_editor_application_new          (GApplicationFlags          flags);
GSettings                *terrain_editor_application_get_settings (TerrainEditorApplication  *self);
TerrainPalette           *terrain_editor_application_get_palette  (TerrainEditorApplication  *self);
TerrainFeatureCatalog    *terrain_editor_application_get_catalog  (TerrainEditorApplication  *self);
TerrainGameFiles         *terrain_editor_application_get_game_files (TerrainEditorApplication *self);
TerrainFeatureSprites    *terrain_editor_application_get_feature_sprites (TerrainEditorApplication *self);
TerrainHeightmapFormat    terrain_editor_application_get_heightmap_format (TerrainEditorApplication *self);
void                      terrain_editor_application_set_heightmap_format (TerrainEditorApplication *self,
                                                                           TerrainHeightmapFormat    format);
GtkWindow                *terrain_editor_application_open_file    (TerrainEditorApplication  *self,
                                                                   GFile                     *file);
const char               *terrain_editor_application_get_palette_error (TerrainEditorApplication *self);
gboolean                  terrain_editor_application_get_offers_game_files (TerrainEditorApplication *self);
void                      terrain_editor_application_dismiss_game_files_offer (TerrainEditorApplication *self);
void                      terrain_editor_application_set_game_files (TerrainEditorApplication *self,
                                                                     GListModel               *files);
GtkWindow                *terrain_editor_application_offer_recovery (TerrainEditorApplication *self);
void                      terrain_editor_application_add_recent   (TerrainEditorApplication  *self,
                                                                   GFile                     *file);

G_END_DECLS
