/* terrain-editor-build-dialog.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <libterrain.h>

#include "terrain-editor-application.h"

G_BEGIN_DECLS

#define TERRAIN_EDITOR_TYPE_BUILD_DIALOG (terrain_editor_build_dialog_get_type ())

G_DECLARE_FINAL_TYPE (TerrainEditorBuildDialog, terrain_editor_build_dialog, TERRAIN_EDITOR, BUILD_DIALOG, GtkWindow)

TerrainEditorBuildDialog *terrain_editor_build_dialog_new               (TerrainEditorApplication *application,
                                                                         GtkWindow                *parent);
void                      terrain_editor_build_dialog_set_heightmap     (TerrainEditorBuildDialog *self,
                                                                         GFile                    *file);
void                      terrain_editor_build_dialog_set_texture       (TerrainEditorBuildDialog *self,
                                                                         GFile                    *file);
void                      terrain_editor_build_dialog_set_output        (TerrainEditorBuildDialog *self,
                                                                         GFile                    *file);
gboolean                  terrain_editor_build_dialog_get_running       (TerrainEditorBuildDialog *self);
GFile                    *terrain_editor_build_dialog_get_result        (TerrainEditorBuildDialog *self);
const char               *terrain_editor_build_dialog_get_error_message (TerrainEditorBuildDialog *self);
const char               *terrain_editor_build_dialog_get_issues_text   (TerrainEditorBuildDialog *self);

G_END_DECLS
