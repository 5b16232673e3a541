/* terrain-editor-recovery-dialog.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "terrain-editor-application.h"

G_BEGIN_DECLS

GtkWindow *terrain_editor_recovery_dialog_new (TerrainEditorApplication *application,
                                               GtkWindow                *parent,
                                               const char               *dir,
                                               GPtrArray                *entries);

G_END_DECLS
