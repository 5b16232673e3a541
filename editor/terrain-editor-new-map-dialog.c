/* terrain-editor-new-map-dialog.c
 *
 * The New Map dialog: a blank Total Annihilation map
 * (terrain_tnt_map_new()) of a size in 32-pixel tiles, shown with its
 * attribute cells and its size in pixels as Mappy shows it, with a sea
 * level, the height of every cell, and the palette index its one tile is
 * filled with (a swatch shows the colour through the editor's palette).
 * Create opens the map in the empty window the dialog came from, else in
 * a new window, unsaved: Save asks where to write it. The choices Create
 * used are kept in GSettings (new-map-*), so the dialog opens with them.
 *
 * The actions (new-map.create, new-map.cancel) are the dialog's code path;
 * the tests drive them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-new-map-dialog.h"
#include "terrain-editor-window.h"

#include <glib/gi18n.h>
#include <string.h>

struct _TerrainEditorNewMapDialog
{
  GtkWindow parent_instance;

  TerrainEditorApplication *application;

  GtkSpinButton *width_spin;
  GtkSpinButton *height_spin;
  GtkSpinButton *sea_level_spin;
  GtkSpinButton *fill_height_spin;
  GtkSpinButton *fill_colour_spin;
  GtkLabel *size_label;
  GtkLabel *water_label;
  GtkImage *colour_swatch;
  GtkLabel *error_label;
  GtkWidget *create_button;
  GtkWidget *cancel_button;

  char *error_message;
};

G_DEFINE_FINAL_TYPE (TerrainEditorNewMapDialog, terrain_editor_new_map_dialog, GTK_TYPE_WINDOW)

/* Each spin button and the GSettings key that remembers it. */
static const struct
{
  const char *key;
  gsize offset;
} remembered[] = {
  { "new-map-width", G_STRUCT_OFFSET (TerrainEditorNewMapDialog, width_spin) },
  { "new-map-height", G_STRUCT_OFFSET (TerrainEditorNewMapDialog, height_spin) },
  { "new-map-sea-level", G_STRUCT_OFFSET (TerrainEditorNewMapDialog, sea_level_spin) },
  { "new-map-fill-height", G_STRUCT_OFFSET (TerrainEditorNewMapDialog, fill_height_spin) },
  { "new-map-fill-colour", G_STRUCT_OFFSET (TerrainEditorNewMapDialog, fill_colour_spin) },
};

static GSettings *
get_settings (TerrainEditorNewMapDialog *self)
{
  return self->application != NULL ? terrain_editor_application_get_settings (self->application) : NULL;
}

static TerrainPalette *
get_palette (TerrainEditorNewMapDialog *self)
{
  return self->application != NULL ? terrain_editor_application_get_palette (self->application) : NULL;
}

static guint
spin_uint (GtkSpinButton *spin)
{
  return (guint) gtk_spin_button_get_value_as_int (spin);
}

/* ------------------------------------------------------------------------ */
/* What the choices mean                                                    */

static void
update_size_label (TerrainEditorNewMapDialog *self)
{
  guint columns = spin_uint (self->width_spin), rows = spin_uint (self->height_spin);
  /* Translators: a map's size: tiles, attribute cells, pixels. */
  g_autofree char *text = g_strdup_printf (_("%u × %u tiles (%u × %u cells, %u × %u px)"), columns, rows,
                                           columns * 2, rows * 2, columns * TERRAIN_TNT_TILE_PIXELS,
                                           rows * TERRAIN_TNT_TILE_PIXELS);

  gtk_label_set_text (self->size_label, text);
}

static void
update_water_label (TerrainEditorNewMapDialog *self)
{
  guint sea = spin_uint (self->sea_level_spin), height = spin_uint (self->fill_height_spin);

  gtk_label_set_text (self->water_label, height < sea ? _("under water") : _("dry land"));
}

/* The fill colour through the palette; without one, the index as grey,
 * as the map view draws a map without a palette. */
static void
update_swatch (TerrainEditorNewMapDialog *self)
{
  TerrainPalette *palette = get_palette (self);
  guint8 index = (guint8) spin_uint (self->fill_colour_spin);
  guint8 rgb[3] = { index, index, index };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  if (palette != NULL)
    terrain_palette_get_color (palette, index, &rgb[0], &rgb[1], &rgb[2]);
  bytes = g_bytes_new (rgb, sizeof rgb);
  texture = gdk_memory_texture_new (1, 1, GDK_MEMORY_R8G8B8, bytes, sizeof rgb);
  gtk_image_set_from_paintable (self->colour_swatch, GDK_PAINTABLE (texture));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->colour_swatch),
                               palette != NULL ? NULL
                                               : _("No palette is set: the index is shown as grey"));
}

static void
show_error (TerrainEditorNewMapDialog *self,
            const char                *message)
{
  g_free (self->error_message);
  self->error_message = g_strdup (message);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */

/* The empty editor window the dialog was opened from, else a new one. */
static TerrainEditorWindow *
target_window (TerrainEditorNewMapDialog *self)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));

  if (TERRAIN_EDITOR_IS_WINDOW (parent) && terrain_editor_window_is_empty (TERRAIN_EDITOR_WINDOW (parent)))
    return TERRAIN_EDITOR_WINDOW (parent);
  return terrain_editor_window_new (self->application);
}

static void
create_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TerrainEditorNewMapDialog *self = TERRAIN_EDITOR_NEW_MAP_DIALOG (widget);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = NULL;
  TerrainEditorWindow *window;

  for (guint i = 0; i < G_N_ELEMENTS (remembered); i++)
    gtk_spin_button_update (G_STRUCT_MEMBER (GtkSpinButton *, self, remembered[i].offset));
  map = terrain_editor_new_map_dialog_build_map (self, &error);
  if (map == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not create the map: %s"), error->message);

      show_error (self, message);
      return;
    }
  if (get_settings (self) != NULL)
    for (guint i = 0; i < G_N_ELEMENTS (remembered); i++)
      g_settings_set_int (get_settings (self), remembered[i].key,
                          gtk_spin_button_get_value_as_int (G_STRUCT_MEMBER (GtkSpinButton *, self,
                                                                             remembered[i].offset)));
  window = target_window (self);
  terrain_editor_window_show_new_map (window, TERRAIN_DOCUMENT (map));
  gtk_window_present (GTK_WINDOW (window));
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
terrain_editor_new_map_dialog_finalize (GObject *object)
{
  TerrainEditorNewMapDialog *self = TERRAIN_EDITOR_NEW_MAP_DIALOG (object);

  g_free (self->error_message);

  G_OBJECT_CLASS (terrain_editor_new_map_dialog_parent_class)->finalize (object);
}

static void
terrain_editor_new_map_dialog_class_init (TerrainEditorNewMapDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = terrain_editor_new_map_dialog_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libterrain/Editor/terrain-editor-new-map-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorNewMapDialog, width_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorNewMapDialog, height_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorNewMapDialog, sea_level_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorNewMapDialog, fill_height_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorNewMapDialog, fill_colour_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorNewMapDialog, size_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorNewMapDialog, water_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorNewMapDialog, colour_swatch);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorNewMapDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorNewMapDialog, create_button);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorNewMapDialog, cancel_button);

  gtk_widget_class_install_action (widget_class, "new-map.create", NULL, create_action);
  gtk_widget_class_install_action (widget_class, "new-map.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "new-map.cancel", NULL);
}

static void
terrain_editor_new_map_dialog_init (TerrainEditorNewMapDialog *self)
{
  const TerrainLimits *limits = terrain_limits_get_default ();
  double max_tiles = limits->max_cells_per_side / 2;

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_adjustment_set_upper (gtk_spin_button_get_adjustment (self->width_spin), max_tiles);
  gtk_adjustment_set_upper (gtk_spin_button_get_adjustment (self->height_spin), max_tiles);
  gtk_adjustment_set_upper (gtk_spin_button_get_adjustment (self->sea_level_spin), TERRAIN_TNT_MAX_SEA_LEVEL);
  g_signal_connect_swapped (self->width_spin, "value-changed", G_CALLBACK (update_size_label), self);
  g_signal_connect_swapped (self->height_spin, "value-changed", G_CALLBACK (update_size_label), self);
  g_signal_connect_swapped (self->sea_level_spin, "value-changed", G_CALLBACK (update_water_label), self);
  g_signal_connect_swapped (self->fill_height_spin, "value-changed", G_CALLBACK (update_water_label), self);
  g_signal_connect_swapped (self->fill_colour_spin, "value-changed", G_CALLBACK (update_swatch), self);
  update_size_label (self);
  update_water_label (self);
}

/* ------------------------------------------------------------------------ */
/* API                                                                      */

TerrainEditorNewMapDialog *
terrain_editor_new_map_dialog_new (TerrainEditorApplication *application,
                                   GtkWindow                *parent)
{
  TerrainEditorNewMapDialog *self;

  self = g_object_new (TERRAIN_EDITOR_TYPE_NEW_MAP_DIALOG,
                       "application", application,
                       "transient-for", parent,
                       "modal", parent != NULL,
                       NULL);
  self->application = application;
  if (get_settings (self) != NULL)
    for (guint i = 0; i < G_N_ELEMENTS (remembered); i++)
      gtk_spin_button_set_value (G_STRUCT_MEMBER (GtkSpinButton *, self, remembered[i].offset),
                                 g_settings_get_int (get_settings (self), remembered[i].key));
  update_swatch (self);
  return self;
}

/* The map the dialog's choices describe (full ref), or NULL with @error
 * set when the library refuses the size. Its one tile is filled with the
 * chosen palette index, every cell has the fill height, and the minimap is
 * made through the editor's palette (through a grey ramp without one, so
 * that it holds the same index). */
TerrainTntMap *
terrain_editor_new_map_dialog_build_map (TerrainEditorNewMapDialog  *self,
                                         GError                    **error)
{
  guint width = spin_uint (self->width_spin) * 2, height = spin_uint (self->height_spin) * 2;
  guint8 colour = (guint8) spin_uint (self->fill_colour_spin);
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(TerrainPalette) ramp = NULL;
  g_autofree guint8 *heights = NULL;
  guint8 tile[TERRAIN_TNT_TILE_BYTES];

  g_return_val_if_fail (TERRAIN_EDITOR_IS_NEW_MAP_DIALOG (self), NULL);

  map = terrain_tnt_map_new (width, height, error);
  if (map == NULL)
    return NULL;
  if (!terrain_tnt_map_set_sea_level (map, spin_uint (self->sea_level_spin), error))
    return NULL;
  heights = g_malloc ((gsize) width * height);
  memset (heights, (guint8) spin_uint (self->fill_height_spin), (gsize) width * height);
  terrain_tnt_map_set_heights (map, 0, 0, width, height, heights, width);
  memset (tile, colour, sizeof tile);
  terrain_tnt_map_set_tile (map, 0, tile);
  if (get_palette (self) == NULL)
    {
      guint8 rgb[256 * 3];

      for (guint i = 0; i < 256; i++)
        rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = (guint8) i;
      ramp = terrain_palette_new_from_rgb (rgb, 256);
    }
  terrain_tnt_map_update_minimap (map, ramp != NULL ? ramp : get_palette (self));
  return g_steal_pointer (&map);
}

/* The error the dialog shows, or NULL. */
const char *
terrain_editor_new_map_dialog_get_error_message (TerrainEditorNewMapDialog *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_NEW_MAP_DIALOG (self), NULL);
  return self->error_message;
}
