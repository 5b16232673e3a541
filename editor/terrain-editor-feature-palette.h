/* terrain-editor-feature-palette.h: the searchable list of features to place
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <libterrain.h>

G_BEGIN_DECLS

/* The texture of a feature's sprite, or NULL (transfer none). */
typedef GdkTexture *(*TerrainEditorSpriteFunc) (const char *name,
                                                gpointer    user_data);

#define TERRAIN_EDITOR_TYPE_FEATURE_PALETTE (terrain_editor_feature_palette_get_type ())

G_DECLARE_FINAL_TYPE (TerrainEditorFeaturePalette, terrain_editor_feature_palette, TERRAIN_EDITOR,
                      FEATURE_PALETTE, GtkBox)

GtkWidget  *terrain_editor_feature_palette_new             (void);
void        terrain_editor_feature_palette_set_catalog     (TerrainEditorFeaturePalette *self,
                                                            TerrainFeatureCatalog       *catalog);
void        terrain_editor_feature_palette_set_sprite_func (TerrainEditorFeaturePalette *self,
                                                            TerrainEditorSpriteFunc      func,
                                                            gpointer                     user_data);
void        terrain_editor_feature_palette_set_search      (TerrainEditorFeaturePalette *self,
                                                            const char                  *text);
void        terrain_editor_feature_palette_set_world       (TerrainEditorFeaturePalette *self,
                                                            const char                  *world);
GListModel *terrain_editor_feature_palette_get_shown       (TerrainEditorFeaturePalette *self);
gboolean    terrain_editor_feature_palette_select          (TerrainEditorFeaturePalette *self,
                                                            const char                  *name);
const char *terrain_editor_feature_palette_get_selected    (TerrainEditorFeaturePalette *self);

G_END_DECLS
