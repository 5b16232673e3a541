/* terrain-editor-new-map-dialog.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <libterrain.h>

#include "terrain-editor-application.h"

G_BEGIN_DECLS

#define TERRAIN_EDITOR_TYPE_NEW_MAP_DIALOG (terrain_editor_new_map_dialog_get_type ())

G_DECLARE_FINAL_TYPE (TerrainEditorNewMapDialog, terrain_editor_new_map_dialog, TERRAIN_EDITOR, NEW_MAP_DIALOG,
                      GtkWindow)

TerrainEditorNewMapDialog *terrain_editor_new_map_dialog_new               (TerrainEditorApplication  *application,
                                                                           GtkWindow                 *parent);
TerrainTntMap             *terrain_editor_new_map_dialog_build_map         (TerrainEditorNewMapDialog *self,
                                                                           GError                   **error);
const char                *terrain_editor_new_map_dialog_get_error_message (TerrainEditorNewMapDialog *self);

G_END_DECLS
