/* terrain-editor-window-ota.c
 *
 * A TNT map's description (.ota) in the window: the Map page of the side
 * panel (TerrainEditorOtaPanel), whose edits go on the map's undo history,
 * dragging the numbered start positions in the 2D view, and saving the
 * description with the map.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-window-private.h"
#include "terrain-editor-ota-panel.h"

#include <glib/gi18n.h>
#include <math.h>

/* How near (in screen pixels) a press must be to a start marker (drawn
 * with a 12-pixel radius) to pick it up. */
#define START_GRAB_PIXELS 14

static void
on_panel_command (TerrainEditorWindow *self,
                  TerrainCommand      *command)
{
  window_execute (self, command);
  gtk_widget_queue_draw (GTK_WIDGET (self->map_view));
}

static void
on_panel_schema (TerrainEditorWindow *self)
{
  terrain_editor_map_view_set_ota_schema (self->map_view,
                                          terrain_editor_ota_panel_get_schema (TERRAIN_EDITOR_OTA_PANEL (self->ota_panel)));
}

/* After an undo or redo (the top of a history changed): the page and the
 * markers show the file again. */
static void
on_history_changed (TerrainEditorWindow *self)
{
  if (self->ota == NULL)
    return;
  terrain_editor_ota_panel_refresh (TERRAIN_EDITOR_OTA_PANEL (self->ota_panel));
  gtk_widget_queue_draw (GTK_WIDGET (self->map_view));
}

void
window_ota_init (TerrainEditorWindow *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  self->ota_panel = terrain_editor_ota_panel_new ();
  gtk_widget_set_name (self->ota_panel, "ota-panel");
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->ota_panel);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_notebook_append_page (self->side_notebook, scrolled, gtk_label_new (_("Map")));
  g_signal_connect_swapped (self->ota_panel, "command", G_CALLBACK (on_panel_command), self);
  g_signal_connect_swapped (self->ota_panel, "notify::schema", G_CALLBACK (on_panel_schema), self);
}

/* The Map page of the window's document: shown for TNT maps. */
void
window_ota_set_document (TerrainEditorWindow *self)
{
  GtkWidget *page = gtk_widget_get_ancestor (self->ota_panel, GTK_TYPE_SCROLLED_WINDOW);

  self->dragging_start = FALSE;
  terrain_editor_ota_panel_set_ota (TERRAIN_EDITOR_OTA_PANEL (self->ota_panel),
                                    window_get_tnt (self) != NULL ? self->ota : NULL);
  gtk_widget_set_visible (page, window_get_tnt (self) != NULL);
  if (self->stack != NULL)
    {
      g_signal_connect_swapped (self->stack, "notify::undo-description", G_CALLBACK (on_history_changed), self);
      g_signal_connect_swapped (self->stack, "notify::redo-description", G_CALLBACK (on_history_changed), self);
    }
}

/* The start position of the shown schema under (@x, @y) (cells), if any. */
static gboolean
find_start_at (TerrainEditorWindow *self,
               double               x,
               double               y,
               guint               *player,
               double              *dx,
               double              *dz)
{
  guint schema = terrain_editor_ota_panel_get_schema (TERRAIN_EDITOR_OTA_PANEL (self->ota_panel));
  double zoom = terrain_editor_map_view_get_zoom (self->map_view);
  double reach = START_GRAB_PIXELS / (zoom > 0 ? zoom : 1.0);
  double px = x * TERRAIN_TNT_CELL_PIXELS, pz = y * TERRAIN_TNT_CELL_PIXELS;
  g_autofree TerrainOtaStartPosition *positions = NULL;
  double best = G_MAXDOUBLE;
  guint n = 0;

  if (schema >= terrain_ota_file_get_n_schemas (self->ota))
    return FALSE;
  positions = terrain_ota_file_get_start_positions (self->ota, schema, &n);
  for (guint i = 0; i < n; i++)
    {
      double d = hypot (positions[i].x - px, positions[i].z - pz);

      if (d <= reach && d < best)
        {
          best = d;
          *player = positions[i].player;
          *dx = positions[i].x - px;
          *dz = positions[i].z - pz;
        }
    }
  return best < G_MAXDOUBLE;
}

/* The Inspect tool drags start positions: a press on a marker picks it
 * up, every move moves it (one undo step for the drag), the release puts
 * it down. Returns whether the event was a start position's. */
gboolean
window_ota_cell_event (TerrainEditorWindow   *self,
                       TerrainEditorMapPhase  phase,
                       double                 x,
                       double                 y,
                       guint                  button)
{
  TerrainTntMap *map = window_get_tnt (self);
  guint schema;

  if (self->ota == NULL || map == NULL || !self->show_start_positions || g_strcmp0 (self->tool, "inspect") != 0)
    return FALSE;
  schema = terrain_editor_ota_panel_get_schema (TERRAIN_EDITOR_OTA_PANEL (self->ota_panel));

  if (phase == TERRAIN_EDITOR_MAP_PRESS && button == GDK_BUTTON_PRIMARY)
    {
      if (!find_start_at (self, x, y, &self->drag_player, &self->drag_dx, &self->drag_dz))
        return FALSE;
      self->dragging_start = TRUE;
      terrain_command_stack_seal (self->stack);
      return TRUE;
    }
  if (!self->dragging_start)
    return FALSE;
  if (phase == TERRAIN_EDITOR_MAP_DRAG || phase == TERRAIN_EDITOR_MAP_RELEASE)
    {
      double max_x = terrain_tnt_map_get_width (map) * (double) TERRAIN_TNT_CELL_PIXELS;
      double max_z = terrain_tnt_map_get_height (map) * (double) TERRAIN_TNT_CELL_PIXELS;
      gint nx = (gint) lround (CLAMP (x * TERRAIN_TNT_CELL_PIXELS + self->drag_dx, 0, max_x));
      gint nz = (gint) lround (CLAMP (y * TERRAIN_TNT_CELL_PIXELS + self->drag_dz, 0, max_z));
      gint ox, oz;

      if (terrain_ota_file_get_start_position (self->ota, schema, self->drag_player, &ox, &oz)
          && (ox != nx || oz != nz))
        {
          g_autoptr(TerrainCommand) command =
            terrain_ota_edit_new_set_start_position (self->ota, schema, self->drag_player, nx, nz);

          window_execute (self, command);
          terrain_editor_ota_panel_refresh (TERRAIN_EDITOR_OTA_PANEL (self->ota_panel));
          gtk_widget_queue_draw (GTK_WIDGET (self->map_view));
        }
      if (phase == TERRAIN_EDITOR_MAP_RELEASE)
        {
          self->dragging_start = FALSE;
          terrain_command_stack_seal (self->stack);
        }
    }
  return TRUE;
}

/* Saves the map description with the map saved to @tnt_file: back to its
 * own file when the map is saved in place, else as NAME.ota beside
 * NAME.tnt. Written on every save, unedited as the source bytes, so that
 * an undo after a save is saved too. */
gboolean
window_ota_save (TerrainEditorWindow  *self,
                 GFile                *tnt_file,
                 GError              **error)
{
  GFile *own = self->ota != NULL ? terrain_document_get_file (TERRAIN_DOCUMENT (self->ota)) : NULL;
  GFile *map_file = self->document != NULL ? terrain_document_get_file (self->document) : NULL;
  g_autofree char *path = NULL;
  g_autofree char *stem = NULL;
  g_autofree char *ota_path = NULL;
  g_autoptr(GFile) destination = NULL;
  const char *dot;

  if (self->ota == NULL || window_get_tnt (self) == NULL)
    return TRUE;
  if (own != NULL && map_file != NULL && g_file_equal (map_file, tnt_file))
    return terrain_document_save (TERRAIN_DOCUMENT (self->ota), own, NULL, error);

  path = g_file_get_path (tnt_file);
  if (path == NULL)
    return TRUE;
  dot = strrchr (path, '.');
  if (dot == NULL || strchr (dot, G_DIR_SEPARATOR) != NULL)
    dot = path + strlen (path);
  stem = g_strndup (path, (gsize) (dot - path));
  ota_path = g_strconcat (stem, ".ota", NULL);
  destination = g_file_new_for_path (ota_path);
  return terrain_document_save (TERRAIN_DOCUMENT (self->ota), destination, NULL, error);
}
