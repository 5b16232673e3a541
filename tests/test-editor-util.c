/* test-editor-util.c: helpers the editor's UI tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "test-editor-util.h"

#include <libterrain.h>
#include <string.h>

void
editor_test_init (int    *argc,
                  char ***argv)
{
  g_autoptr(GError) error = NULL;

  gtk_test_init (argc, argv, NULL);
  app = terrain_editor_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  g_application_hold (G_APPLICATION (app));
}

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

TerrainEditorWindow *
open_presented (GFile *file)
{
  TerrainEditorWindow *window = open_and_wait (file);
  GtkWidget *view = terrain_editor_window_get_map_view (window);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  g_object_set (window, "show-contours", FALSE, "show-grid", FALSE, "show-start-positions", FALSE, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 760);
  gtk_window_present (GTK_WINDOW (window));
  while ((!gtk_widget_get_mapped (view) || gtk_widget_get_width (view) < 200
          || terrain_editor_map_view_get_picture (TERRAIN_EDITOR_MAP_VIEW (view)) != TERRAIN_EDITOR_MAP_PICTURE_FULL)
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  iterate (300);
  g_assert_cmpint (gtk_widget_get_width (view), >=, 200);
  return window;
}

void
close_window (TerrainEditorWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  iterate (50);
}

/* Waits (up to 5 s) for the object @ref points to, a window being closed,
 * to be finalized; asserts it is and clears @ref. */
void
assert_finalized (GWeakRef *ref)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < deadline)
    {
      GObject *still = g_weak_ref_get (ref);

      if (still == NULL)
        break;
      g_object_unref (still);
      g_main_context_iteration (NULL, FALSE);
    }
  iterate (200);
  g_assert_null (g_weak_ref_get (ref));
  g_weak_ref_clear (ref);
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
find_pixels (GtkWidget *widget,
             gboolean (*match) (const guint8 *p),
             double    *wx,
             double    *wy)
{
  g_autoptr(GdkTexture) texture = render_widget (widget);
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guint8 *pixels = g_malloc ((gsize) width * height * 4);
  double sx = 0, sy = 0;
  guint n = 0;

  gdk_texture_download (texture, pixels, (gsize) width * 4);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      if (match (pixels + ((gsize) y * width + x) * 4))
        {
          sx += x + 0.5;
          sy += y + 0.5;
          n++;
        }
  if (n > 0)
    {
      *wx = sx / n;
      *wy = sy / n;
    }
  return n;
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

GObject *
child_object (TerrainEditorWindow *window,
              const char          *name)
{
  return gtk_widget_get_template_child (GTK_WIDGET (window), TERRAIN_EDITOR_TYPE_WINDOW, name);
}

typedef gboolean (*WidgetMatch) (GtkWidget  *widget,
                                 const char *key);

static GtkWidget *
find_widget (GtkWidget   *widget,
             WidgetMatch  match,
             const char  *key)
{
  if (match (widget, key))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_widget (c, match, key);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
is_named (GtkWidget  *widget,
          const char *name)
{
  return g_strcmp0 (gtk_widget_get_name (widget), name) == 0;
}

static gboolean
has_buildable_id (GtkWidget  *widget,
                  const char *id)
{
  return GTK_IS_BUILDABLE (widget) &&
         g_strcmp0 (gtk_buildable_get_buildable_id (GTK_BUILDABLE (widget)), id) == 0;
}

static gboolean
shows_text (GtkWidget  *widget,
            const char *text)
{
  return GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL;
}

GtkWidget *
find_named (GtkWidget  *widget,
            const char *name)
{
  return find_widget (widget, is_named, name);
}

GtkWidget *
find_buildable (GtkWidget  *widget,
                const char *id)
{
  return find_widget (widget, has_buildable_id, id);
}

gboolean
has_label_containing (GtkWidget  *widget,
                      const char *text)
{
  return find_widget (widget, shows_text, text) != NULL;
}

GtkWindow *
find_transient_of_type (GtkWindow *parent,
                        GType      type)
{
  g_autoptr(GListModel) toplevels = g_object_ref (gtk_window_get_toplevels ());

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (gtk_window_get_transient_for (w) == parent && G_TYPE_CHECK_INSTANCE_TYPE (w, type))
        return w;
    }
  return NULL;
}
