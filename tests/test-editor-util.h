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

/* gtk_test_init(), then the application made, registered and held. */
void                  editor_test_init (int              *argc,
                                        char           ***argv);
/* Runs the main loop for ms milliseconds. */
void                  iterate       (guint                ms);
/* Opens a file in a new window and waits until it is loaded, without error. */
TerrainEditorWindow  *open_and_wait (GFile               *file);
void                  close_window  (TerrainEditorWindow *window);
/* open_and_wait(), then shown at 1100x760 without contours, grid and start
 * positions, waiting until the map view is mapped and its full picture
 * made. */
TerrainEditorWindow  *open_presented (GFile              *file);
void                  assert_finalized (GWeakRef         *ref);
/* The widget as drawn now, at its size (full ref). */
GdkTexture           *render_widget (GtkWidget           *widget);
/* Saves the widget as drawn now to NAME in $TERRAIN_EDITOR_SCREENSHOT_DIR,
 * when that is set. */
void                  save_screenshot (GtkWidget         *widget,
                                       const char        *name);
/* The centre of @widget's drawn pixels that @match (BGRA, as
 * gdk_texture_download() gives them), and how many; the centre is left
 * alone when none match. */
guint                 find_pixels   (GtkWidget           *widget,
                                     gboolean           (*match) (const guint8 *p),
                                     double              *wx,
                                     double              *wy);
/* Distinct colours among every 7th pixel. */
guint                 count_colours (GdkTexture          *texture);
/* A template child of the window, by its id in terrain-editor-window.ui. */
GtkWidget            *child         (TerrainEditorWindow *window,
                                     const char          *name);
/* A template child that is not a widget (an adjustment, a model). */
GObject              *child_object  (TerrainEditorWindow *window,
                                     const char          *name);
TerrainEditorMapView *map_view      (TerrainEditorWindow *window);
/* The first widget under @widget (itself included) whose widget name
 * (gtk_widget_get_name()), or buildable id in its .ui file, is @name, or
 * NULL. */
GtkWidget            *find_named     (GtkWidget          *widget,
                                      const char         *name);
GtkWidget            *find_buildable (GtkWidget          *widget,
                                      const char         *id);
/* Whether a label under @widget shows @text. */
gboolean              has_label_containing (GtkWidget    *widget,
                                            const char   *text);
/* A toplevel of @type transient for @parent, or NULL. */
GtkWindow            *find_transient_of_type (GtkWindow  *parent,
                                              GType       type);

G_END_DECLS
