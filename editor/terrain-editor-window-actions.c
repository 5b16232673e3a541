/* terrain-editor-window-actions.c
 *
 * The window actions: save and save as, undo and redo, zoom, validate,
 * resize the map, regenerate the minimap, import an image, delete a
 * feature, brush size.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-window-private.h"
#include "terrain-editor-ota-panel.h"
#include "terrain-editor-resize-dialog.h"

#include <glib/gi18n.h>
#include <math.h>

/* ------------------------------------------------------------------------ */
/* Saving                                                                   */

gboolean
window_save_to (TerrainEditorWindow *self,
         GFile               *file)
{
  g_autoptr(GError) error = NULL;

  if (self->document == NULL)
    return FALSE;
  /* The map's description first: nothing of the map is written when it
   * cannot be. */
  if (!window_ota_save (self, file, &error) ||
      !terrain_document_save (self->document, file, NULL, &error))
    {
      g_autofree char *name = g_file_get_parse_name (file);
      g_autofree char *message = g_strdup_printf (_("Could not save “%s”: %s"), name, error->message);

      terrain_editor_window_show_error (self, message);
      return FALSE;
    }
  g_set_object (&self->file, file);
  terrain_document_set_file (self->document, file);
  terrain_document_set_modified (self->document, FALSE);
  terrain_command_stack_mark_clean (self->stack);
  window_recovery_clear (self);
  terrain_editor_application_add_recent (window_get_app (self), file);
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
  window_update_title (self);
  return TRUE;
}

static void
on_save_as_response (GtkNativeDialog     *dialog,
                     int                  response,
                     TerrainEditorWindow *self)
{
  gboolean saved = FALSE;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      saved = window_save_to (self, file);
    }
  g_object_unref (dialog);
  if (saved && self->closing_after_save)
    {
      self->force_close = TRUE;
      gtk_window_close (GTK_WINDOW (self));
    }
  self->closing_after_save = FALSE;
}

void
window_save_as_dialog (TerrainEditorWindow *self)
{
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Save As"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  if (self->file != NULL)
    {
      g_autofree char *name = g_file_get_basename (self->file);
      g_autoptr(GFile) folder = g_file_get_parent (self->file);

      /* In the map's folder, not the working directory. */
      if (folder != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
    }
  g_signal_connect (chooser, "response", G_CALLBACK (on_save_as_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

gboolean
window_can_save_in_place (TerrainEditorWindow *self)
{
  GFile *file = self->document != NULL ? terrain_document_get_file (self->document) : NULL;

  /* A map opened from inside an archive has no file of its own. */
  return file != NULL && self->file != NULL && g_file_equal (file, self->file);
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);

  if (window_can_save_in_place (self))
    window_save_to (self, self->file);
  else if (window_archive_can_save (self))
    window_archive_save (self);
  else
    window_save_as_dialog (self);
}

static void
save_as_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);
  const char *uri = parameter != NULL ? g_variant_get_string (parameter, NULL) : "";

  /* win.save-as('URI') saves without asking, for scripts and tests. */
  if (uri[0] != '\0')
    {
      g_autoptr(GFile) file = g_file_new_for_uri (uri);

      window_save_to (self, file);
    }
  else
    window_save_as_dialog (self);
}

/* ------------------------------------------------------------------------ */
/* Other actions                                                            */

static void
undo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);

  if (self->stack != NULL)
    terrain_command_stack_undo (self->stack);
  g_clear_object (&self->sea_level_command);
  /* The Atlas tool shows chunk offsets and tiles an undo may change. */
  if (TERRAIN_IS_ATLAS_FILE (self->document))
    window_fill_atlas (self);
}

static void
redo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);
  g_autoptr(GError) error = NULL;

  if (self->stack != NULL && !terrain_command_stack_redo (self->stack, &error) && error != NULL)
    terrain_editor_window_show_error (self, error->message);
  if (TERRAIN_IS_ATLAS_FILE (self->document))
    window_fill_atlas (self);
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);
  double zoom = terrain_editor_map_view_get_zoom (self->map_view);

  if (g_str_equal (action_name, "win.zoom-in"))
    terrain_editor_map_view_set_zoom (self->map_view, zoom * 1.5);
  else if (g_str_equal (action_name, "win.zoom-out"))
    terrain_editor_map_view_set_zoom (self->map_view, zoom / 1.5);
  else if (g_str_equal (action_name, "win.zoom-one"))
    terrain_editor_map_view_set_zoom (self->map_view, 1.0);
  else
    terrain_editor_map_view_zoom_to_fit (self->map_view);
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static void
validate_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);

  window_fill_findings (self);
  gtk_notebook_set_current_page (self->side_notebook, 3);
}

static void
regenerate_minimap_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);
  g_autoptr(TerrainCommand) command = NULL;

  if (window_get_tnt (self) == NULL || window_get_palette (self) == NULL)
    return;
  command = terrain_tnt_edit_new_regenerate_minimap (window_get_tnt (self), window_get_palette (self));
  if (window_execute (self, command))
    window_show_info (self, _("The minimap was regenerated from the tiles."));
}

static void
on_import_image_response (GtkNativeDialog     *dialog,
                          int                  response,
                          TerrainEditorWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT && window_get_tnt (self) != NULL && window_get_palette (self) != NULL)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) bytes = g_file_load_bytes (file, NULL, NULL, &error);
      g_autoptr(TerrainImage) image = bytes != NULL ? terrain_image_load_png_bytes (bytes, &error) : NULL;
      g_autoptr(TerrainCommand) command = NULL;

      if (image != NULL)
        command = terrain_tnt_edit_new_import_image (window_get_tnt (self), image, window_get_palette (self),
                                                     TERRAIN_DITHER_NONE, TERRAIN_TNT_IMPORT_KEEP_TILES,
                                                     &error);
      if (command == NULL)
        {
          g_autofree char *message = g_strdup_printf (_("Could not import the image: %s"), error->message);
          terrain_editor_window_show_error (self, message);
        }
      else
        window_execute (self, command);
    }
  g_object_unref (dialog);
}

static void
import_image_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);
  GtkFileChooserNative *chooser;
  GtkFileFilter *filter = gtk_file_filter_new ();

  chooser = gtk_file_chooser_native_new (_("Import Image as Tile Set"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Import"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("PNG images"));
  gtk_file_filter_add_suffix (filter, "png");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_object_unref (filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_import_image_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* Resizes the map by attribute cells on each side (even; negative
 * crops), the new area at @fill_height drawn with tile @fill_tile, as one
 * step of the history. The resize edit re-frames the minimap for the new
 * shape; with a palette it is made again from the tiles in the same step. */
gboolean
window_resize_map (TerrainEditorWindow  *self,
                   gint                  left,
                   gint                  top,
                   gint                  right,
                   gint                  bottom,
                   guint8                fill_height,
                   guint16               fill_tile,
                   GError              **error)
{
  TerrainTntMap *map = window_get_tnt (self);
  g_autoptr(TerrainCommand) command = NULL;
  gboolean ok;

  if (map == NULL || self->stack == NULL)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                           _("Only a Total Annihilation map (.tnt) can be resized"));
      return FALSE;
    }
  command = terrain_tnt_edit_new_resize (map, left, top, right, bottom, fill_height, fill_tile);
  terrain_command_stack_begin_user_action (self->stack, _("resize the map"));
  ok = terrain_command_stack_execute (self->stack, command, error);
  if (ok && window_get_palette (self) != NULL)
    {
      g_autoptr(TerrainCommand) minimap = terrain_tnt_edit_new_regenerate_minimap (map,
                                                                                  window_get_palette (self));

      terrain_command_stack_execute (self->stack, minimap, NULL);
    }
  /* The map's start positions move with its content, clamped to the new
   * edges, in the same step: Mappy keeps them on the ground they stood on. */
  if (ok && self->ota != NULL)
    {
      double max_x = terrain_tnt_map_get_width (map) * (double) TERRAIN_TNT_CELL_PIXELS;
      double max_z = terrain_tnt_map_get_height (map) * (double) TERRAIN_TNT_CELL_PIXELS;

      for (guint schema = 0; schema < terrain_ota_file_get_n_schemas (self->ota); schema++)
        {
          guint n = 0;
          g_autofree TerrainOtaStartPosition *positions =
            terrain_ota_file_get_start_positions (self->ota, schema, &n);

          for (guint i = 0; i < n; i++)
            {
              gint nx = (gint) CLAMP (positions[i].x + (double) left * TERRAIN_TNT_CELL_PIXELS, 0, max_x);
              gint nz = (gint) CLAMP (positions[i].z + (double) top * TERRAIN_TNT_CELL_PIXELS, 0, max_z);
              g_autoptr(TerrainCommand) move = NULL;

              if (nx == positions[i].x && nz == positions[i].z)
                continue;
              move = terrain_ota_edit_new_set_start_position (self->ota, schema, positions[i].player,
                                                             nx, nz);
              terrain_command_stack_execute (self->stack, move, NULL);
            }
        }
      terrain_editor_ota_panel_refresh (TERRAIN_EDITOR_OTA_PANEL (self->ota_panel));
    }
  terrain_command_stack_end_user_action (self->stack);
  if (ok)
    {
      window_fill_structure (self);
      terrain_editor_map_view_set_selection (self->map_view, FALSE, 0, 0);
    }
  return ok;
}

static void
resize_map_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);

  if (window_get_tnt (self) != NULL)
    gtk_window_present (GTK_WINDOW (terrain_editor_resize_dialog_new (self)));
}

/* The placed feature whose footprint covers a cell: of the anchors that
 * could reach it (up to the largest footprint of the map's feature table
 * up and to the left), the last in row order, as the map lists them. Runs
 * on every pointer move, so it looks at that window, not every cell. */
gboolean
window_find_feature_at (TerrainEditorWindow *self,
                        int                  x,
                        int                  y,
                        int                 *anchor_x,
                        int                 *anchor_y)
{
  TerrainTntMap *map = window_get_tnt (self);
  guint n_features, max_w = 1, max_h = 1;
  g_autofree guint *widths = NULL;
  g_autofree guint *heights = NULL;

  if (map == NULL || x < 0 || y < 0 || (guint) x >= terrain_tnt_map_get_width (map) ||
      (guint) y >= terrain_tnt_map_get_height (map))
    return FALSE;
  n_features = terrain_tnt_map_get_n_features (map);
  widths = g_new (guint, MAX (n_features, 1));
  heights = g_new (guint, MAX (n_features, 1));
  for (guint f = 0; f < n_features; f++)
    {
      widths[f] = heights[f] = 1;
      terrain_editor_map_view_get_footprint (self->map_view, terrain_tnt_map_get_feature_name (map, f),
                                             &widths[f], &heights[f]);
      max_w = MAX (max_w, widths[f]);
      max_h = MAX (max_h, heights[f]);
    }
  for (gint ay = y; ay >= 0 && ay > y - (gint) max_h; ay--)
    for (gint ax = x; ax >= 0 && ax > x - (gint) max_w; ax--)
      {
        guint16 feature = terrain_tnt_map_get_cell_feature (map, (guint) ax, (guint) ay);
        /* A word past the feature table (a retail oddity) is one cell. */
        gint w = feature < n_features ? (gint) widths[feature] : 1;
        gint h = feature < n_features ? (gint) heights[feature] : 1;

        if (feature >= TERRAIN_TNT_FEATURE_RESERVED)
          continue;
        if (x < ax + w && y < ay + h)
          {
            *anchor_x = ax;
            *anchor_y = ay;
            return TRUE;
          }
      }
  return FALSE;
}

void
window_remove_feature_at (TerrainEditorWindow *self,
                   int                  x,
                   int                  y)
{
  g_autoptr(TerrainCommand) command = NULL;
  TerrainFeatureCatalog *catalog = window_get_catalog (self);

  command = terrain_tnt_edit_new_remove_feature (window_get_tnt (self), x, y,
                                                 catalog != NULL ? terrain_feature_catalog_footprint_func : NULL,
                                                 catalog != NULL ? g_object_ref (catalog) : NULL,
                                                 catalog != NULL ? g_object_unref : NULL);
  window_execute (self, command);
  terrain_editor_map_view_set_selection (self->map_view, FALSE, 0, 0);
}

static void
delete_feature_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);
  int x, y;

  if (terrain_editor_map_view_get_selection (self->map_view, &x, &y) && window_get_tnt (self) != NULL)
    window_remove_feature_at (self, x, y);
}

/* win.brush-smaller and win.brush-larger ([ and ]): the brush radius one
 * step down or up (the radius control's page step below 8 cells, a
 * quarter of the radius above), as in paint programs. */
static void
brush_size_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);
  double radius = gtk_adjustment_get_value (self->radius_adjustment);
  double step = MAX (1.0, radius / 4);

  if (g_str_equal (action_name, "win.brush-smaller"))
    gtk_adjustment_set_value (self->radius_adjustment, radius - step);
  else
    gtk_adjustment_set_value (self->radius_adjustment, radius + step);
}

/* Installs the window actions of this file. */
void
window_actions_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.save-as", "s", save_as_action);
  gtk_widget_class_install_action (widget_class, "win.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "win.redo", NULL, redo_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-fit", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-one", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "win.validate", NULL, validate_action);
  gtk_widget_class_install_action (widget_class, "win.regenerate-minimap", NULL, regenerate_minimap_action);
  gtk_widget_class_install_action (widget_class, "win.import-image", NULL, import_image_action);
  gtk_widget_class_install_action (widget_class, "win.delete-feature", NULL, delete_feature_action);
  gtk_widget_class_install_action (widget_class, "win.resize-map", NULL, resize_map_action);
  gtk_widget_class_install_action (widget_class, "win.brush-smaller", NULL, brush_size_action);
  gtk_widget_class_install_action (widget_class, "win.brush-larger", NULL, brush_size_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketleft, 0, "win.brush-smaller", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketright, 0, "win.brush-larger", NULL);
  window_archive_class_init (widget_class);
}
