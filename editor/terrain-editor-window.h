/* terrain-editor-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <libterrain.h>

#include "terrain-editor-application.h"
#include "terrain-editor-recovery.h"

G_BEGIN_DECLS

#define TERRAIN_EDITOR_TYPE_WINDOW (terrain_editor_window_get_type ())

G_DECLARE_FINAL_TYPE (TerrainEditorWindow, terrain_editor_window, TERRAIN_EDITOR, WINDOW, GtkApplicationWindow)

TerrainEditorWindow *terrain_editor_window_new               (TerrainEditorApplication *application);
void                 terrain_editor_window_load              (TerrainEditorWindow      *self,
                                                              GFile                    *file);
void                 terrain_editor_window_show_new_map      (TerrainEditorWindow      *self,
                                                              TerrainDocument          *document);
gboolean             terrain_editor_window_is_empty          (TerrainEditorWindow      *self);
gboolean             terrain_editor_window_get_busy          (TerrainEditorWindow      *self);
GFile               *terrain_editor_window_get_file          (TerrainEditorWindow      *self);
TerrainDocument     *terrain_editor_window_get_document      (TerrainEditorWindow      *self);
TerrainCommandStack *terrain_editor_window_get_command_stack (TerrainEditorWindow      *self);
GtkWidget           *terrain_editor_window_get_map_view      (TerrainEditorWindow      *self);
const char          *terrain_editor_window_get_error_message (TerrainEditorWindow      *self);
void                 terrain_editor_window_reload_resources  (TerrainEditorWindow      *self);
void                 terrain_editor_window_show_error        (TerrainEditorWindow      *self,
                                                              const char               *message);
void                 terrain_editor_window_recover           (TerrainEditorWindow      *self,
                                                              const TerrainEditorRecoveryEntry *entry);
void                 terrain_editor_window_brush_stroke      (TerrainEditorWindow      *self,
                                                              const double             *points,
                                                              guint                     n_points);
gboolean             terrain_editor_window_add_section       (TerrainEditorWindow      *self,
                                                              GFile                    *file,
                                                              GError                  **error);

G_END_DECLS
