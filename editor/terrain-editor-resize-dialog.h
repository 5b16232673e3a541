/* terrain-editor-resize-dialog.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "terrain-editor-window.h"

G_BEGIN_DECLS

#define TERRAIN_EDITOR_TYPE_RESIZE_DIALOG (terrain_editor_resize_dialog_get_type ())

G_DECLARE_FINAL_TYPE (TerrainEditorResizeDialog, terrain_editor_resize_dialog, TERRAIN_EDITOR, RESIZE_DIALOG,
                      GtkWindow)

TerrainEditorResizeDialog *terrain_editor_resize_dialog_new               (TerrainEditorWindow       *window);
const char                *terrain_editor_resize_dialog_get_error_message (TerrainEditorResizeDialog *self);

G_END_DECLS
