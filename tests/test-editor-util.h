/* test-editor-util.h: helpers the editor's UI tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "terrain-editor-application.h"
#include "terrain-editor-map-view.h"
#include "terrain-editor-window.h"

G_BEGIN_DECLS

/* The application every test opens its windows in (made by main()). */
extern TerrainEditorApplication *app;

/* Runs the main loop for ms milliseconds. */
void                  iterate       (guint                ms);
/* Opens a file in a new window and waits until it is loaded, without error. */
TerrainEditorWindow  *open_and_wait (GFile               *file);
void                  close_window  (TerrainEditorWindow *window);
/* The widget as drawn now, at its size (full ref). */
GdkTexture           *render_widget (GtkWidget           *widget);
/* Saves the widget as drawn now to NAME in $TERRAIN_EDITOR_SCREENSHOT_DIR,
 * when that is set. */
void                  save_screenshot (GtkWidget         *widget,
                                       const char        *name);
/* Distinct colours among every 7th pixel. */
guint                 count_colours (GdkTexture          *texture);
/* A template child of the window, by its id in terrain-editor-window.ui. */
GtkWidget            *child         (TerrainEditorWindow *window,
                                     const char          *name);
TerrainEditorMapView *map_view      (TerrainEditorWindow *window);

G_END_DECLS
