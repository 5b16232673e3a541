/* terrain-editor-window-stamp.c
 *
 * The Stamp tool: a Total Annihilation section (.sct) chosen in the
 * sections palette (terrain-editor-section-palette.c) is stamped onto the
 * TNT map where the map is clicked, as Mappy and Annihilator do. Its
 * footprint (whole tiles: 32 pixels, 2×2 cells each) follows the pointer,
 * centred on it and snapped to the tile grid, its tiles drawn translucent
 * in it (with a palette), red where part of it would fall off the map; a
 * click applies terrain_tnt_edit_new_stamp_section()
 * on the window's command stack (one undo step). Sections are added with
 * the Add Sections… file chooser, by dropping .sct files on the window or
 * with win.add-section (a path); the game files' sections/ are listed too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-window-private.h"
#include "terrain-editor-section-palette.h"

#include <glib/gi18n.h>
#include <math.h>

static TerrainEditorSectionPalette *
palette_of (TerrainEditorWindow *self)
{
  return TERRAIN_EDITOR_SECTION_PALETTE (self->section_palette);
}

/* The tile column and row of the section's top-left tile for the pointer
 * at cell (@fx, @fy): the footprint centred on the pointer, snapped to
 * whole tiles, so that it always covers the tile under the pointer. */
static void
footprint_origin (TerrainSctSection *section,
                  double             fx,
                  double             fy,
                  int               *column,
                  int               *row)
{
  double w = terrain_sct_section_get_width (section);
  double h = terrain_sct_section_get_height (section);

  *column = (int) floor (fx / 2 - w / 2 + 0.5);
  *row = (int) floor (fy / 2 - h / 2 + 0.5);
}

static void
hide_footprint (TerrainEditorWindow *self)
{
  terrain_editor_map_view_set_preview_rect (self->map_view, FALSE, 0, 0, 0, 0, FALSE);
}

void
window_stamp_event (TerrainEditorWindow   *self,
                    TerrainEditorMapPhase  phase,
                    double                 fx,
                    double                 fy,
                    guint                  button)
{
  TerrainTntMap *map = window_get_tnt (self);
  TerrainSctSection *section = terrain_editor_section_palette_get_selected (palette_of (self));
  int column, row, w, h;
  gboolean off_map;

  if (section == NULL || phase == TERRAIN_EDITOR_MAP_LEAVE)
    {
      hide_footprint (self);
      return;
    }
  footprint_origin (section, fx, fy, &column, &row);
  w = (int) terrain_sct_section_get_width (section);
  h = (int) terrain_sct_section_get_height (section);
  off_map = column < 0 || row < 0 || column + w > (int) terrain_tnt_map_get_tile_columns (map)
            || row + h > (int) terrain_tnt_map_get_tile_rows (map);
  terrain_editor_map_view_set_preview_texture (self->map_view, self->section_texture);
  terrain_editor_map_view_set_preview_rect (self->map_view, TRUE, column * 2, row * 2, w * 2, h * 2, off_map);

  if (phase == TERRAIN_EDITOR_MAP_PRESS && button == GDK_BUTTON_PRIMARY)
    {
      g_autoptr(TerrainCommand) command = terrain_tnt_edit_new_stamp_section (map, section, column, row);

      terrain_command_stack_seal (self->stack);
      window_execute (self, command);
      terrain_command_stack_seal (self->stack);
    }
}

/* What the page says about the chosen section. */
static void
on_section_selected (TerrainEditorWindow *self)
{
  TerrainEditorSectionPalette *palette = palette_of (self);
  TerrainSctSection *section = terrain_editor_section_palette_get_selected (palette);
  g_autofree char *text = NULL;

  if (section != NULL)
    /* TRANSLATORS: the section to stamp, its size in tiles and in height cells */
    text = g_strdup_printf (_("Stamping “%s”: %u×%u tiles (%u×%u cells)"),
                            terrain_editor_section_palette_get_selected_name (palette),
                            terrain_sct_section_get_width (section), terrain_sct_section_get_height (section),
                            terrain_sct_section_get_width (section) * 2,
                            terrain_sct_section_get_height (section) * 2);
  else
    text = g_strdup (_("Choose a section below."));
  gtk_label_set_text (self->section_label, text);
  hide_footprint (self);

  /* Its tiles, drawn in the footprint. */
  g_clear_object (&self->section_texture);
  if (section != NULL && window_get_palette (self) != NULL)
    {
      g_autoptr(TerrainImage) image = terrain_sct_section_render (section, window_get_palette (self), NULL);

      if (image != NULL)
        self->section_texture = terrain_editor_texture_new_for_image (image);
    }
}

gboolean
terrain_editor_window_add_section (TerrainEditorWindow  *self,
                                   GFile                *file,
                                   GError              **error)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (!terrain_editor_section_palette_add_file (palette_of (self), file, error))
    return FALSE;
  if (window_get_tnt (self) != NULL)
    window_set_tool (self, "stamp");
  return TRUE;
}

/* Adds @file, saying why in the info bar when it cannot be read. */
static void
add_section_or_show (TerrainEditorWindow *self,
                     GFile               *file)
{
  g_autoptr(GError) error = NULL;

  if (!terrain_editor_window_add_section (self, file, &error))
    {
      g_autofree char *name = g_file_get_parse_name (file);
      g_autofree char *message = g_strdup_printf (_("Could not add the section “%s”: %s"), name, error->message);

      terrain_editor_window_show_error (self, message);
    }
}

gboolean
window_stamp_drop_file (TerrainEditorWindow *self,
                        GFile               *file)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *lower = name != NULL ? g_ascii_strdown (name, -1) : NULL;

  if (lower == NULL || !g_str_has_suffix (lower, ".sct"))
    return FALSE;
  add_section_or_show (self, file);
  return TRUE;
}

static void
add_section_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (g_variant_get_string (parameter, NULL));

  add_section_or_show (self, file);
}

static void
on_add_sections_response (GtkNativeDialog     *dialog,
                          int                  response,
                          TerrainEditorWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));

      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        {
          g_autoptr(GFile) file = g_list_model_get_item (files, i);

          add_section_or_show (self, file);
        }
    }
  g_object_unref (dialog);
}

static void
add_sections_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);
  GtkFileChooserNative *chooser;
  GtkFileFilter *filter = gtk_file_filter_new ();

  chooser = gtk_file_chooser_native_new (_("Add Sections"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                         _("_Add"), _("_Cancel"));
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
  gtk_file_filter_set_name (filter, _("Total Annihilation sections"));
  gtk_file_filter_add_suffix (filter, "sct");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_object_unref (filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_add_sections_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* The palette lists the game files' sections, drawn through the palette. */
void
window_stamp_reload (TerrainEditorWindow *self)
{
  TerrainEditorApplication *app = window_get_app (self);

  if (self->section_palette == NULL)
    return;
  terrain_editor_section_palette_set_palette (palette_of (self), window_get_palette (self));
  terrain_editor_section_palette_set_game_files (palette_of (self),
                                                 app != NULL ? terrain_editor_application_get_game_files (app)
                                                             : NULL);
  /* The footprint's picture through the new palette. */
  on_section_selected (self);
}

void
window_stamp_dispose (TerrainEditorWindow *self)
{
  g_clear_object (&self->section_texture);
}

/* The Stamp page of the Tools tab. */
void
window_stamp_init (TerrainEditorWindow *self)
{
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *hint = gtk_label_new (_("Pick a section and click the map to stamp its tiles and heights there: its "
                                     "footprint follows the pointer, snapped to whole tiles and showing its tiles, "
                                     "red where part of it would fall off the map. Add .sct files with Add "
                                     "Sections… or by dropping them on the window."));

  self->section_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_name (GTK_WIDGET (self->section_label), "section-chosen");
  gtk_label_set_xalign (self->section_label, 0);
  gtk_label_set_wrap (self->section_label, TRUE);
  gtk_label_set_max_width_chars (self->section_label, 36);
  gtk_box_append (GTK_BOX (page), GTK_WIDGET (self->section_label));

  self->section_palette = terrain_editor_section_palette_new ();
  g_signal_connect_swapped (self->section_palette, "notify::selected-name", G_CALLBACK (on_section_selected),
                            self);
  gtk_box_append (GTK_BOX (page), self->section_palette);

  gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (hint), 36);
  gtk_label_set_xalign (GTK_LABEL (hint), 0);
  gtk_widget_add_css_class (hint, "dim-label");
  gtk_box_append (GTK_BOX (page), hint);

  gtk_stack_add_named (self->tool_stack, page, "stamp");
  on_section_selected (self);
}

void
window_stamp_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.add-section", "s", add_section_action);
  gtk_widget_class_install_action (widget_class, "win.add-sections", NULL, add_sections_action);
}
