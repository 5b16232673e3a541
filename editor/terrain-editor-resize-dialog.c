/* terrain-editor-resize-dialog.c
 *
 * The Resize Map dialog of a window showing a Total Annihilation map: the
 * 32-pixel tiles to add on each side (a negative number crops), the size
 * that gives in tiles, cells and pixels, and the height and tile of the
 * added area (the Tiles tool's tile to start with, its picture beside
 * it). Resize runs terrain_tnt_edit_new_resize() on the window's history
 * (window_resize_map()), so Undo gives the map back as it was.
 *
 * The amounts and the fill height a resize used are kept in GSettings
 * (resize-*), so the dialog opens with them (clamped to what this map
 * allows; the fill height is the sea level until one was used). The fill
 * tile is an index into this map's tile set, so it starts at the Tiles
 * tool's tile each time.
 *
 * The actions (resize.apply, resize.cancel) are the dialog's code path;
 * the tests drive them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-resize-dialog.h"
#include "terrain-editor-window-private.h"

#include <glib/gi18n.h>

struct _TerrainEditorResizeDialog
{
  GtkWindow parent_instance;

  TerrainEditorWindow *window;  /* the parent: it outlives the dialog */

  GtkSpinButton *left_spin;
  GtkSpinButton *top_spin;
  GtkSpinButton *right_spin;
  GtkSpinButton *bottom_spin;
  GtkSpinButton *fill_height_spin;
  GtkSpinButton *fill_tile_spin;
  GtkPicture *tile_picture;
  GtkLabel *size_label;
  GtkLabel *error_label;
  GtkWidget *resize_button;
  GtkWidget *cancel_button;

  char *error_message;
};

G_DEFINE_FINAL_TYPE (TerrainEditorResizeDialog, terrain_editor_resize_dialog, GTK_TYPE_WINDOW)

static GSettings *
get_settings (TerrainEditorResizeDialog *self)
{
  TerrainEditorApplication *app = window_get_app (self->window);

  return app != NULL ? terrain_editor_application_get_settings (app) : NULL;
}

static int
spin_int (GtkSpinButton *spin)
{
  return gtk_spin_button_get_value_as_int (spin);
}

/* The map's size after the resize, in tiles; FALSE when nothing would be
 * left of it or it would pass the library's limit. */
static gboolean
new_size (TerrainEditorResizeDialog *self,
          TerrainTntMap             *map,
          gint64                    *columns,
          gint64                    *rows)
{
  gint64 max_tiles = terrain_limits_get_default ()->max_cells_per_side / 2;

  *columns = (gint64) terrain_tnt_map_get_tile_columns (map) + spin_int (self->left_spin) +
             spin_int (self->right_spin);
  *rows = (gint64) terrain_tnt_map_get_tile_rows (map) + spin_int (self->top_spin) + spin_int (self->bottom_spin);
  return *columns >= 1 && *rows >= 1 && *columns <= max_tiles && *rows <= max_tiles;
}

static void
update (TerrainEditorResizeDialog *self)
{
  TerrainTntMap *map = window_get_tnt (self->window);
  g_autofree char *text = NULL;
  gint64 columns, rows;
  gboolean valid;

  if (map == NULL)
    return;
  valid = new_size (self, map, &columns, &rows);
  if (valid)
    /* Translators: a map's size now, then after the resize: tiles,
     * attribute cells, pixels. */
    text = g_strdup_printf (_("Now %u × %u tiles; after resizing %u × %u tiles (%u × %u cells, %u × %u px)"),
                            terrain_tnt_map_get_tile_columns (map), terrain_tnt_map_get_tile_rows (map),
                            (guint) columns, (guint) rows, (guint) columns * 2, (guint) rows * 2,
                            (guint) columns * TERRAIN_TNT_TILE_PIXELS, (guint) rows * TERRAIN_TNT_TILE_PIXELS);
  else if (columns < 1 || rows < 1)
    text = g_strdup_printf (_("Now %u × %u tiles; cropping that much leaves nothing of the map"),
                            terrain_tnt_map_get_tile_columns (map), terrain_tnt_map_get_tile_rows (map));
  else
    text = g_strdup_printf (_("A map can have at most %u tiles a side"),
                            terrain_limits_get_default ()->max_cells_per_side / 2);
  gtk_label_set_text (self->size_label, text);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "resize.apply", valid);
  gtk_picture_set_paintable (self->tile_picture,
                             GDK_PAINTABLE (window_get_tile_texture (self->window,
                                                                     (guint) spin_int (self->fill_tile_spin))));
}

static void
show_error (TerrainEditorResizeDialog *self,
            const char                *message)
{
  g_free (self->error_message);
  self->error_message = g_strdup (message);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */

static void
apply_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  TerrainEditorResizeDialog *self = TERRAIN_EDITOR_RESIZE_DIALOG (widget);
  GtkSpinButton *spins[] = { self->left_spin, self->top_spin, self->right_spin, self->bottom_spin,
                             self->fill_height_spin, self->fill_tile_spin };
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (spins); i++)
    gtk_spin_button_update (spins[i]);
  /* Tiles are two cells a side. */
  if (!window_resize_map (self->window, 2 * spin_int (self->left_spin), 2 * spin_int (self->top_spin),
                          2 * spin_int (self->right_spin), 2 * spin_int (self->bottom_spin),
                          (guint8) spin_int (self->fill_height_spin), (guint16) spin_int (self->fill_tile_spin),
                          &error))
    {
      g_autofree char *message = g_strdup_printf (_("Could not resize the map: %s"), error->message);

      show_error (self, message);
      return;
    }
  if (get_settings (self) != NULL)
    {
      const char *keys[] = { "resize-left", "resize-top", "resize-right", "resize-bottom", "resize-fill-height" };

      for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
        g_settings_set_int (get_settings (self), keys[i], spin_int (spins[i]));
    }
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  gtk_window_destroy (GTK_WINDOW (widget));
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
terrain_editor_resize_dialog_finalize (GObject *object)
{
  TerrainEditorResizeDialog *self = TERRAIN_EDITOR_RESIZE_DIALOG (object);

  g_free (self->error_message);

  G_OBJECT_CLASS (terrain_editor_resize_dialog_parent_class)->finalize (object);
}

static void
terrain_editor_resize_dialog_class_init (TerrainEditorResizeDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = terrain_editor_resize_dialog_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libterrain/Editor/terrain-editor-resize-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorResizeDialog, left_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorResizeDialog, top_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorResizeDialog, right_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorResizeDialog, bottom_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorResizeDialog, fill_height_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorResizeDialog, fill_tile_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorResizeDialog, tile_picture);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorResizeDialog, size_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorResizeDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorResizeDialog, resize_button);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorResizeDialog, cancel_button);

  gtk_widget_class_install_action (widget_class, "resize.apply", NULL, apply_action);
  gtk_widget_class_install_action (widget_class, "resize.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "resize.cancel", NULL);
}

static void
terrain_editor_resize_dialog_init (TerrainEditorResizeDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  {
    GtkSpinButton *spins[] = { self->left_spin, self->top_spin, self->right_spin, self->bottom_spin,
                               self->fill_tile_spin };

    for (guint i = 0; i < G_N_ELEMENTS (spins); i++)
      g_signal_connect_swapped (spins[i], "value-changed", G_CALLBACK (update), self);
  }
}

/* ------------------------------------------------------------------------ */
/* API                                                                      */

/* A dialog resizing the TNT map @window shows. The new area starts at the
 * sea level with the Tiles tool's tile. */
TerrainEditorResizeDialog *
terrain_editor_resize_dialog_new (TerrainEditorWindow *window)
{
  TerrainEditorResizeDialog *self;
  TerrainTntMap *map;
  guint max_tiles = terrain_limits_get_default ()->max_cells_per_side / 2;
  GtkSpinButton *sides[4];

  g_return_val_if_fail (TERRAIN_EDITOR_IS_WINDOW (window), NULL);
  map = window_get_tnt (window);
  g_return_val_if_fail (map != NULL, NULL);

  self = g_object_new (TERRAIN_EDITOR_TYPE_RESIZE_DIALOG,
                       "transient-for", window,
                       "modal", TRUE,
                       "destroy-with-parent", TRUE,
                       NULL);
  self->window = window;
  sides[0] = self->left_spin;
  sides[1] = self->right_spin;
  sides[2] = self->top_spin;
  sides[3] = self->bottom_spin;
  /* Each side alone can crop all but one tile, or grow to the limit. */
  for (guint i = 0; i < 4; i++)
    {
      guint now = i < 2 ? terrain_tnt_map_get_tile_columns (map) : terrain_tnt_map_get_tile_rows (map);
      GtkAdjustment *adjustment = gtk_spin_button_get_adjustment (sides[i]);

      gtk_adjustment_set_lower (adjustment, -((double) now - 1));
      gtk_adjustment_set_upper (adjustment, now < max_tiles ? max_tiles - now : 0);
    }
  gtk_adjustment_set_upper (gtk_spin_button_get_adjustment (self->fill_tile_spin),
                            terrain_tnt_map_get_n_tiles (map) - 1);
  gtk_spin_button_set_value (self->fill_tile_spin, gtk_adjustment_get_value (window->tile_adjustment));
  gtk_spin_button_set_value (self->fill_height_spin, MIN (terrain_tnt_map_get_sea_level (map), 255));
  if (get_settings (self) != NULL)
    {
      GSettings *settings = get_settings (self);
      int fill_height = g_settings_get_int (settings, "resize-fill-height");

      gtk_spin_button_set_value (self->left_spin, g_settings_get_int (settings, "resize-left"));
      gtk_spin_button_set_value (self->top_spin, g_settings_get_int (settings, "resize-top"));
      gtk_spin_button_set_value (self->right_spin, g_settings_get_int (settings, "resize-right"));
      gtk_spin_button_set_value (self->bottom_spin, g_settings_get_int (settings, "resize-bottom"));
      if (fill_height >= 0)
        gtk_spin_button_set_value (self->fill_height_spin, fill_height);
    }
  update (self);
  return self;
}

/* The error the dialog shows, or NULL. */
const char *
terrain_editor_resize_dialog_get_error_message (TerrainEditorResizeDialog *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_RESIZE_DIALOG (self), NULL);
  return self->error_message;
}
