/* test-editor-util.c: helpers the editor's UI tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "test-editor-util.h"

#include <libterrain.h>

void
iterate (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

TerrainEditorWindow *
open_and_wait (GFile *file)
{
  TerrainEditorWindow *window;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  window = TERRAIN_EDITOR_WINDOW (terrain_editor_application_open_file (app, file));
  while (terrain_editor_window_get_busy (window) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (terrain_editor_window_get_busy (window));
  g_assert_null (terrain_editor_window_get_error_message (window));
  g_assert_nonnull (terrain_editor_window_get_document (window));
  return window;
}

void
close_window (TerrainEditorWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  iterate (50);
}

/* What the widget drew in its last frame. A widget that queued a redraw
 * has no picture until its next frame (GtkWidgetPaintable is empty until
 * then), which on a loaded machine can come later than the caller's
 * iterate (): wait for that frame, up to 10 s. */
GdkTexture *
render_widget (GtkWidget *widget)
{
  GdkPaintable *paintable = gtk_widget_paintable_new (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(GskRenderNode) node = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  GdkTexture *texture;

  for (;;)
    {
      GtkSnapshot *snapshot = gtk_snapshot_new ();

      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (snapshot);
      if (node != NULL || g_get_monotonic_time () > deadline)
        break;
      iterate (20);
    }
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_object_unref (paintable);
  return texture;
}

void
save_screenshot (GtkWidget  *widget,
                 const char *name)
{
  const char *out_dir = g_getenv ("TERRAIN_EDITOR_SCREENSHOT_DIR");
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *png = NULL;

  if (out_dir == NULL)
    return;
  iterate (50);
  texture = render_widget (widget);
  png = g_build_filename (out_dir, name, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("screenshot: %s", png);
}

guint
count_colours (GdkTexture *texture)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guint8 *data = g_malloc ((gsize) width * height * 4);
  g_autoptr(GHashTable) colours = g_hash_table_new (NULL, NULL);

  gdk_texture_download (texture, data, (gsize) width * 4);
  for (gsize i = 0; i < (gsize) width * height; i += 7)
    g_hash_table_add (colours, GUINT_TO_POINTER (((guint32 *) data)[i]));
  return g_hash_table_size (colours);
}

GtkWidget *
child (TerrainEditorWindow *window,
       const char          *name)
{
  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (window), TERRAIN_EDITOR_TYPE_WINDOW,
                                                   name));
}

TerrainEditorMapView *
map_view (TerrainEditorWindow *window)
{
  return TERRAIN_EDITOR_MAP_VIEW (terrain_editor_window_get_map_view (window));
}
