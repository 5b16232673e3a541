/* terrain-editor-window-tools.c
 *
 * The editing tools of the 2D and 3D views: sea level, height brush,
 * features, voids, tiles and the inspector's cell properties.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-window-private.h"
#include "terrain-editor-feature-palette.h"

#include <glib/gi18n.h>
#include <math.h>

/* ------------------------------------------------------------------------ */
/* Tools                                                                    */

static void select_feature (TerrainEditorWindow *self,
                            gboolean             selected,
                            int                  x,
                            int                  y);
static gboolean get_selection (TerrainEditorWindow *self,
                               int                 *x,
                               int                 *y);

static void
on_sea_level_changed (TerrainEditorWindow *self)
{
  TerrainTntMap *map = window_get_tnt (self);
  guint32 level = (guint32) gtk_adjustment_get_value (self->sea_adjustment);
  gint64 now = g_get_monotonic_time ();
  g_autoptr(TerrainCommand) command = NULL;

  if (self->updating_sea_level || map == NULL || level == terrain_tnt_map_get_sea_level (map))
    return;

  /* Dragging the slider is one undo step: the previous change, if it is
   * still the newest and recent, is undone and replaced. */
  if (self->sea_level_command != NULL
      && terrain_command_stack_peek_undo (self->stack) == self->sea_level_command
      && now - self->sea_level_time < SEA_LEVEL_MERGE_USEC)
    {
      self->updating_sea_level = TRUE;
      terrain_command_stack_undo (self->stack);
      self->updating_sea_level = FALSE;
    }

  command = terrain_tnt_edit_new_sea_level (map, level);
  if (window_execute (self, command))
    {
      g_set_object (&self->sea_level_command, command);
      self->sea_level_time = now;
    }
  else
    window_on_sea_level_notify (self);
}

static TerrainTntBrush
current_brush (TerrainEditorWindow *self)
{
  TerrainTntBrush brush = {
    .mode = (TerrainTntBrushMode) gtk_drop_down_get_selected (self->brush_mode),
    .radius = gtk_adjustment_get_value (self->radius_adjustment),
    .strength = gtk_adjustment_get_value (self->strength_adjustment),
    .falloff = (TerrainTntFalloff) gtk_drop_down_get_selected (self->brush_falloff),
    .level = (guint8) gtk_adjustment_get_value (self->level_adjustment),
  };

  return brush;
}

static void
brush_dab (TerrainEditorWindow *self,
           double               x,
           double               y)
{
  TerrainTntBrush brush = current_brush (self);
  g_autoptr(TerrainCommand) command = terrain_tnt_edit_new_brush (window_get_tnt (self), &brush, x, y, self->stroke);

  window_execute (self, command);
  self->last_dab_x = x;
  self->last_dab_y = y;
}

static void
brush_event (TerrainEditorWindow   *self,
             TerrainEditorMapPhase  phase,
             double                 x,
             double                 y,
             guint                  button,
             GdkModifierType        state)
{
  TerrainTntMap *map = window_get_tnt (self);
  double radius = gtk_adjustment_get_value (self->radius_adjustment);

  if (phase == TERRAIN_EDITOR_MAP_LEAVE)
    {
      terrain_editor_map_view_set_brush (self->map_view, FALSE, 0, 0, 0);
      if (self->gl_view != NULL)
        terrain_editor_gl_view_set_brush (TERRAIN_EDITOR_GL_VIEW (self->gl_view), FALSE, 0, 0, 0);
      return;
    }
  terrain_editor_map_view_set_brush (self->map_view, TRUE, x, y, radius);
  if (self->gl_view != NULL)
    terrain_editor_gl_view_set_brush (TERRAIN_EDITOR_GL_VIEW (self->gl_view), TRUE, x, y, radius);

  if (phase == TERRAIN_EDITOR_MAP_PRESS && button == GDK_BUTTON_PRIMARY && (state & GDK_CONTROL_MASK) != 0)
    {
      /* Ctrl+click picks the level of flatten and set. */
      if (x >= 0 && y >= 0 && x < terrain_tnt_map_get_width (map) && y < terrain_tnt_map_get_height (map))
        gtk_adjustment_set_value (self->level_adjustment,
                                  terrain_tnt_map_get_cell_height (map, (guint) x, (guint) y));
      return;
    }

  if (phase == TERRAIN_EDITOR_MAP_PRESS && button == GDK_BUTTON_PRIMARY)
    {
      self->stroke++;
      if (self->stroke == 0)
        self->stroke = 1;
      self->stroking = TRUE;
      terrain_command_stack_seal (self->stack);
      terrain_command_stack_begin_user_action (self->stack, _("brush stroke"));
      brush_dab (self, x, y);
    }
  else if (phase == TERRAIN_EDITOR_MAP_DRAG && self->stroking)
    {
      double spacing = MAX (0.5, radius * 0.25);

      if (hypot (x - self->last_dab_x, y - self->last_dab_y) >= spacing)
        brush_dab (self, x, y);
    }
  else if (phase == TERRAIN_EDITOR_MAP_RELEASE && self->stroking)
    {
      self->stroking = FALSE;
      terrain_command_stack_end_user_action (self->stack);
      terrain_command_stack_seal (self->stack);
    }
}

void
terrain_editor_window_brush_stroke (TerrainEditorWindow *self,
                                    const double        *points,
                                    guint                n_points)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_WINDOW (self));
  g_return_if_fail (n_points > 0);

  brush_event (self, TERRAIN_EDITOR_MAP_PRESS, points[0], points[1], GDK_BUTTON_PRIMARY, 0);
  for (guint i = 1; i < n_points; i++)
    brush_event (self, TERRAIN_EDITOR_MAP_DRAG, points[i * 2], points[i * 2 + 1], GDK_BUTTON_PRIMARY, 0);
  brush_event (self, TERRAIN_EDITOR_MAP_RELEASE, points[(n_points - 1) * 2], points[(n_points - 1) * 2 + 1],
               GDK_BUTTON_PRIMARY, 0);
}

static void
features_event (TerrainEditorWindow   *self,
                TerrainEditorMapPhase  phase,
                double                 fx,
                double                 fy,
                guint                  button)
{
  TerrainTntMap *map = window_get_tnt (self);
  TerrainFeatureCatalog *catalog = window_get_catalog (self);
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->feature_entry));
  int x = (int) floor (fx), y = (int) floor (fy);
  int ax, ay;

  if (phase == TERRAIN_EDITOR_MAP_LEAVE)
    {
      terrain_editor_map_view_set_placement (self->map_view, NULL, 0, 0, -1, -1);
      return;
    }

  if (self->moving_feature)
    {
      const char *moved = terrain_tnt_map_get_feature_name (map, terrain_tnt_map_get_cell_feature (map, self->move_from_x,
                                                                                                   self->move_from_y));
      int nx = self->move_from_x + (x - self->press_x);
      int ny = self->move_from_y + (y - self->press_y);

      /* Where it would land, red where blocked. */
      terrain_editor_map_view_set_placement (self->map_view, moved, nx, ny, self->move_from_x, self->move_from_y);
      if (phase == TERRAIN_EDITOR_MAP_RELEASE)
        {
          self->moving_feature = FALSE;
          /* The drop shows as the selection frame, not a stale preview. */
          terrain_editor_map_view_set_placement (self->map_view, NULL, 0, 0, -1, -1);
          if (nx != self->move_from_x || ny != self->move_from_y)
            {
              g_autoptr(TerrainCommand) command =
                terrain_tnt_edit_new_move_feature (map, self->move_from_x, self->move_from_y,
                                                   MAX (nx, 0), MAX (ny, 0),
                                                   catalog != NULL ? terrain_feature_catalog_footprint_func : NULL,
                                                   catalog != NULL ? g_object_ref (catalog) : NULL,
                                                   catalog != NULL ? g_object_unref : NULL);
              if (window_execute (self, command))
                select_feature (self, TRUE, MAX (nx, 0), MAX (ny, 0));
            }
        }
      return;
    }

  if (phase == TERRAIN_EDITOR_MAP_HOVER)
    {
      /* The feature to place under the pointer, red where it would
       * overlap another footprint, a void or the edge; over a placed
       * feature (which a click selects) nothing. */
      if (name[0] != '\0' && !window_find_feature_at (self, x, y, &ax, &ay))
        terrain_editor_map_view_set_placement (self->map_view, name, x, y, -1, -1);
      else
        terrain_editor_map_view_set_placement (self->map_view, NULL, 0, 0, -1, -1);
      return;
    }

  if (phase != TERRAIN_EDITOR_MAP_PRESS)
    return;

  if (window_find_feature_at (self, x, y, &ax, &ay))
    {
      select_feature (self, TRUE, ax, ay);
      if (button == GDK_BUTTON_SECONDARY)
        window_remove_feature_at (self, ax, ay);
      else
        {
          self->moving_feature = TRUE;
          self->move_from_x = ax;
          self->move_from_y = ay;
          self->press_x = x;
          self->press_y = y;
        }
      return;
    }

  if (button == GDK_BUTTON_PRIMARY && name[0] != '\0' && x >= 0 && y >= 0)
    {
      g_autoptr(TerrainCommand) command =
        terrain_tnt_edit_new_place_feature (map, name, x, y,
                                            catalog != NULL ? terrain_feature_catalog_footprint_func : NULL,
                                            catalog != NULL ? g_object_ref (catalog) : NULL,
                                            catalog != NULL ? g_object_unref : NULL);

      terrain_editor_map_view_set_placement (self->map_view, NULL, 0, 0, -1, -1);
      if (window_execute (self, command))
        select_feature (self, TRUE, x, y);
    }
  else if (get_selection (self, NULL, NULL))
    select_feature (self, FALSE, 0, 0);
}

static void
void_event (TerrainEditorWindow   *self,
            TerrainEditorMapPhase  phase,
            double                 fx,
            double                 fy,
            guint                  button)
{
  TerrainTntMap *map = window_get_tnt (self);
  int x = CLAMP ((int) floor (fx), 0, (int) terrain_tnt_map_get_width (map) - 1);
  int y = CLAMP ((int) floor (fy), 0, (int) terrain_tnt_map_get_height (map) - 1);
  int x0 = MIN (x, self->press_x), y0 = MIN (y, self->press_y);
  int w = ABS (x - self->press_x) + 1, h = ABS (y - self->press_y) + 1;

  switch (phase)
    {
    case TERRAIN_EDITOR_MAP_PRESS:
      self->press_x = x;
      self->press_y = y;
      self->stroking = TRUE;
      terrain_editor_map_view_set_preview_rect (self->map_view, TRUE, x, y, 1, 1, button != GDK_BUTTON_PRIMARY);
      break;
    case TERRAIN_EDITOR_MAP_DRAG:
      if (self->stroking)
        terrain_editor_map_view_set_preview_rect (self->map_view, TRUE, x0, y0, w, h, button != GDK_BUTTON_PRIMARY);
      break;
    case TERRAIN_EDITOR_MAP_RELEASE:
      if (self->stroking)
        {
          g_autoptr(TerrainCommand) command =
            terrain_tnt_edit_new_void (map, x0, y0, w, h, button == GDK_BUTTON_PRIMARY);

          self->stroking = FALSE;
          terrain_editor_map_view_set_preview_rect (self->map_view, FALSE, 0, 0, 0, 0, FALSE);
          window_execute (self, command);
        }
      break;
    default:
      break;
    }
}

static void
tiles_event (TerrainEditorWindow   *self,
             TerrainEditorMapPhase  phase,
             double                 fx,
             double                 fy,
             guint                  button)
{
  TerrainTntMap *map = window_get_tnt (self);
  int column = (int) floor (fx / 2), row = (int) floor (fy / 2);
  guint16 tile = (guint16) gtk_adjustment_get_value (self->tile_adjustment);

  if (column < 0 || row < 0 || column >= (int) terrain_tnt_map_get_tile_columns (map)
      || row >= (int) terrain_tnt_map_get_tile_rows (map))
    {
      terrain_editor_map_view_set_preview_rect (self->map_view, FALSE, 0, 0, 0, 0, FALSE);
      return;
    }
  terrain_editor_map_view_set_preview_rect (self->map_view, phase != TERRAIN_EDITOR_MAP_LEAVE,
                                            column * 2, row * 2, 2, 2, FALSE);

  if (phase == TERRAIN_EDITOR_MAP_PRESS && button == GDK_BUTTON_SECONDARY)
    {
      gtk_adjustment_set_value (self->tile_adjustment, terrain_tnt_map_get_tile_index (map, column, row));
      return;
    }
  if (phase == TERRAIN_EDITOR_MAP_PRESS && button == GDK_BUTTON_PRIMARY)
    {
      self->stroking = TRUE;
      terrain_command_stack_seal (self->stack);
      terrain_command_stack_begin_user_action (self->stack, _("paint tiles"));
    }
  if ((phase == TERRAIN_EDITOR_MAP_PRESS || phase == TERRAIN_EDITOR_MAP_DRAG) && self->stroking
      && terrain_tnt_map_get_tile_index (map, column, row) != tile)
    {
      g_autoptr(TerrainCommand) command = terrain_tnt_edit_new_paint_tiles (map, column, row, 1, 1, tile);

      window_execute (self, command);
    }
  if (phase == TERRAIN_EDITOR_MAP_RELEASE && self->stroking)
    {
      self->stroking = FALSE;
      terrain_command_stack_end_user_action (self->stack);
    }
}

/* The feature anchored at (@ax, @ay) as Properties shows it: its name and
 * cell, and from its TDF definition the footprint, reclaim values and the
 * file and section it was read from. */
static void
describe_feature (TerrainEditorWindow *self,
                  GString             *text,
                  const char          *heading,
                  int                  ax,
                  int                  ay)
{
  TerrainTntMap *map = window_get_tnt (self);
  guint16 feature = terrain_tnt_map_get_cell_feature (map, ax, ay);
  const char *name = feature < terrain_tnt_map_get_n_features (map)
                     ? terrain_tnt_map_get_feature_name (map, feature) : NULL;
  TerrainFeatureCatalog *catalog = window_get_catalog (self);
  TerrainFeatureDefinition *definition = catalog != NULL && name != NULL
                                         ? terrain_feature_catalog_lookup (catalog, name) : NULL;
  guint fw = 1, fh = 1;

  if (name == NULL)
    return;
  /* TRANSLATORS: "Selected" or "Feature", the feature's name, its cell */
  g_string_append_printf (text, _("%s: “%s” at cell %d, %d\n"), heading, name, ax, ay);
  if (definition == NULL)
    {
      g_string_append (text, _("Footprint: 1×1 (no definition loaded)\n"));
      return;
    }
  terrain_feature_definition_get_footprint (definition, &fw, &fh);
  g_string_append_printf (text, _("Footprint: %u×%u cells\n"), fw, fh);
  g_string_append_printf (text, _("Reclaim: %d metal, %d energy\n"),
                          terrain_feature_definition_get_metal (definition),
                          terrain_feature_definition_get_energy (definition));
  if (terrain_feature_definition_get_world (definition) != NULL)
    g_string_append_printf (text, _("World: %s\n"), terrain_feature_definition_get_world (definition));
  if (terrain_feature_definition_get_category (definition) != NULL)
    g_string_append_printf (text, _("Category: %s\n"), terrain_feature_definition_get_category (definition));
  if (terrain_feature_definition_get_description (definition) != NULL)
    g_string_append_printf (text, _("Description: %s\n"), terrain_feature_definition_get_description (definition));
  if (window_get_sprites (self) != NULL)
    {
      g_autoptr(TerrainFeatureSprite) sprite = terrain_feature_sprites_lookup (window_get_sprites (self), name, NULL);

      if (sprite != NULL)
        /* TRANSLATORS: the GAF path and the entry of a feature's sprite */
        g_string_append_printf (text, _("Sprite: %s, entry “%s”\n"), terrain_feature_sprite_get_path (sprite),
                                terrain_feature_sprite_get_entry (sprite));
    }
  g_string_append_printf (text, _("TDF: %s, section [%s]\n"),
                          terrain_feature_definition_get_origin (definition) ?: _("(unknown file)"),
                          terrain_feature_definition_get_name (definition));
}

static void
show_cell_properties (TerrainEditorWindow *self,
                      double               fx,
                      double               fy)
{
  TerrainTntMap *map = window_get_tnt (self);
  GString *text = g_string_new (NULL);
  int x = (int) floor (fx), y = (int) floor (fy);
  int sx, sy;
  gboolean selected = get_selection (self, &sx, &sy);
  g_autofree char *status = NULL;

  self->properties_x = fx;
  self->properties_y = fy;
  if (map != NULL && x >= 0 && y >= 0 && x < (int) terrain_tnt_map_get_width (map)
      && y < (int) terrain_tnt_map_get_height (map))
    {
      guint16 feature = terrain_tnt_map_get_cell_feature (map, x, y);
      guint8 height = terrain_tnt_map_get_cell_height (map, x, y);
      int ax, ay;

      if (selected)
        {
          describe_feature (self, text, _("Selected"), sx, sy);
          g_string_append_c (text, '\n');
        }
      g_string_append_printf (text, _("Cell: %d, %d\n"), x, y);
      g_string_append_printf (text, _("Height: %u%s\n"), height,
                              height < terrain_tnt_map_get_sea_level (map) ? _(" (under water)") : "");
      g_string_append_printf (text, _("Tile: %u at %d, %d\n"), terrain_tnt_map_get_tile_index (map, x / 2, y / 2),
                              x / 2, y / 2);
      if (feature == TERRAIN_TNT_FEATURE_VOID)
        g_string_append (text, _("Feature word: void\n"));
      else if (feature < terrain_tnt_map_get_n_features (map))
        g_string_append_printf (text, _("Feature word: %u (%s)\n"), feature,
                                terrain_tnt_map_get_feature_name (map, feature));
      else
        g_string_append_printf (text, _("Feature word: 0x%04X\n"), feature);

      if (window_find_feature_at (self, x, y, &ax, &ay)
          && !(selected && ax == sx && ay == sy))
        {
          g_string_append_c (text, '\n');
          describe_feature (self, text, _("Feature"), ax, ay);
        }
      status = g_strdup_printf (_("Cell %d, %d — height %u"), x, y, height);
    }
  else if (self->document != NULL && x >= 0 && y >= 0)
    status = g_strdup_printf (_("Position %d, %d"), x, y);

  gtk_label_set_text (self->properties_label, text->str);
  gtk_label_set_text (self->status_label, status != NULL ? status : "");
  g_string_free (text, TRUE);
}

/* The selected feature is the map view's (one state, which an undo that
 * takes the feature away drops). */
static gboolean
get_selection (TerrainEditorWindow *self,
               int                 *x,
               int                 *y)
{
  return terrain_editor_map_view_get_selection (self->map_view, x, y);
}

/* Selects the feature anchored at (@x, @y), or nothing: the view frames
 * it and Properties describes it. */
static void
select_feature (TerrainEditorWindow *self,
                gboolean             selected,
                int                  x,
                int                  y)
{
  terrain_editor_map_view_set_selection (self->map_view, selected, x, y);
  show_cell_properties (self, x, y);
}

/* Any change of the selection (an undo dropping it, say) shows in
 * Properties at once. */
static void
on_selection_changed (TerrainEditorWindow *self)
{
  show_cell_properties (self, self->properties_x, self->properties_y);
}

static void
on_cell_event (TerrainEditorWindow   *self,
               TerrainEditorMapPhase  phase,
               double                 x,
               double                 y,
               guint                  button,
               GdkModifierType        state)
{
  gboolean tnt = window_get_tnt (self) != NULL;

  if (phase == TERRAIN_EDITOR_MAP_HOVER || phase == TERRAIN_EDITOR_MAP_PRESS)
    show_cell_properties (self, x, y);
  if (phase == TERRAIN_EDITOR_MAP_PRESS)
    terrain_editor_map_view_set_highlight (self->map_view, FALSE, 0, 0);
  if (!tnt || self->stack == NULL)
    return;
  /* A start position under the pointer (terrain-editor-window-ota.c). */
  if (window_ota_cell_event (self, phase, x, y, button))
    return;

  if (g_strcmp0 (self->tool, "brush") == 0)
    brush_event (self, phase, x, y, button, state);
  else if (g_strcmp0 (self->tool, "features") == 0)
    features_event (self, phase, x, y, button);
  else if (g_strcmp0 (self->tool, "void") == 0)
    void_event (self, phase, x, y, button);
  else if (g_strcmp0 (self->tool, "tiles") == 0)
    tiles_event (self, phase, x, y, button);
  else if (g_strcmp0 (self->tool, "stamp") == 0)
    window_stamp_event (self, phase, x, y, button);
  else if (g_strcmp0 (self->tool, "inspect") == 0 && phase == TERRAIN_EDITOR_MAP_PRESS)
    {
      int ax, ay;
      gboolean found = window_find_feature_at (self, (int) floor (x), (int) floor (y), &ax, &ay);

      select_feature (self, found, found ? ax : 0, found ? ay : 0);
      if (found)
        gtk_notebook_set_current_page (self->side_notebook, 4);
    }
}

static void
on_gl_cell_activated (TerrainEditorWindow *self,
                      double               x,
                      double               y,
                      guint                button)
{
  /* A click in the 3D view acts like a click and release in the 2D view. */
  on_cell_event (self, TERRAIN_EDITOR_MAP_PRESS, x, y, button, 0);
  on_cell_event (self, TERRAIN_EDITOR_MAP_RELEASE, x, y, button, 0);
}

/* The 3D view's chunk-level legend and figures, shown while there are
 * some (levels on, an Atlas file). */
/* A file with nothing to draw in 3D says why there (as the 2D view does). */
static void
on_gl_empty_message (TerrainEditorWindow *self)
{
  g_autofree char *message = NULL;

  g_object_get (self->gl_view, "empty-message", &message, NULL);
  gtk_label_set_text (self->gl_empty_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->gl_empty_label), message != NULL);
}

static void
on_atlas_readout (TerrainEditorWindow *self)
{
  const char *readout = terrain_editor_gl_view_get_atlas_readout (TERRAIN_EDITOR_GL_VIEW (self->gl_view));

  gtk_label_set_markup (self->chunk_levels_label, readout);
  gtk_widget_set_visible (GTK_WIDGET (self->chunk_levels_label), readout[0] != '\0');
}

static void
on_gl_failed (TerrainEditorWindow *self,
              const char          *message)
{
  g_autofree char *text = g_strdup_printf (_("The 3D view is not available: %s"), message);

  terrain_editor_window_show_error (self, text);
  gtk_notebook_set_current_page (self->view_notebook, 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->gl_box), FALSE);
}

void
window_set_tool (TerrainEditorWindow *self,
          const char          *tool)
{
  if (g_strcmp0 (self->tool, tool) == 0)
    return;
  /* Alt+2 on an Atlas file, say: the tool has nothing to edit there. */
  if (self->document != NULL && !window_tool_applies (self, tool))
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  g_free (self->tool);
  self->tool = g_strdup (tool);
  if (gtk_stack_get_child_by_name (self->tool_stack, tool) != NULL)
    gtk_stack_set_visible_child_name (self->tool_stack, tool);
  gtk_notebook_set_current_page (self->side_notebook, 0);
  terrain_editor_map_view_set_brush (self->map_view, FALSE, 0, 0, 0);
  terrain_editor_map_view_set_preview_rect (self->map_view, FALSE, 0, 0, 0, 0, FALSE);
  terrain_editor_map_view_set_preview_texture (self->map_view, NULL);
  terrain_editor_map_view_set_placement (self->map_view, NULL, 0, 0, -1, -1);
  if (self->gl_view != NULL)
    terrain_editor_gl_view_set_brush (TERRAIN_EDITOR_GL_VIEW (self->gl_view), FALSE, 0, 0, 0);
  g_object_notify (G_OBJECT (self), "tool");
}

/* The brush's units beside its controls: the strength is height units a
 * dab for Raise and Lower, a blend factor for Smooth and Flatten, unused
 * by Set. */
static void
on_brush_mode_changed (TerrainEditorWindow *self)
{
  GtkGrid *grid = GTK_GRID (gtk_widget_get_parent (GTK_WIDGET (self->brush_mode)));
  GtkWidget *unit = gtk_grid_get_child_at (grid, 2, 2);
  GtkWidget *spin = gtk_grid_get_child_at (grid, 1, 2);
  const char *text, *tooltip;

  switch ((TerrainTntBrushMode) gtk_drop_down_get_selected (self->brush_mode))
    {
    case TERRAIN_TNT_BRUSH_RAISE:
    case TERRAIN_TNT_BRUSH_LOWER:
      text = _("height units a dab");
      tooltip = _("Height units each dab adds or takes away at the brush’s centre, less towards its edge "
                  "by the falloff (heights run from 0 to 255)");
      break;
    case TERRAIN_TNT_BRUSH_SMOOTH:
    case TERRAIN_TNT_BRUSH_FLATTEN:
      text = _("blend, 0–1");
      tooltip = _("How far each dab moves a height towards its neighbours’ mean (Smooth) or the level "
                  "(Flatten): 1 or more goes all the way");
      break;
    default:
      text = _("not used");
      tooltip = _("Set writes the level to every cell inside the radius");
      break;
    }
  gtk_label_set_text (GTK_LABEL (unit), text);
  gtk_widget_set_tooltip_text (unit, tooltip);
  gtk_widget_set_tooltip_text (spin, tooltip);
  gtk_widget_set_sensitive (spin, gtk_drop_down_get_selected (self->brush_mode) != TERRAIN_TNT_BRUSH_SET);
}

static void
brush_units_init (TerrainEditorWindow *self)
{
  GtkGrid *grid = GTK_GRID (gtk_widget_get_parent (GTK_WIDGET (self->brush_mode)));
  GtkWidget *cells = gtk_label_new (_("cells"));
  GtkWidget *unit = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (cells), 0);
  gtk_widget_add_css_class (cells, "dim-label");
  gtk_widget_set_name (cells, "radius-unit");
  gtk_grid_attach (grid, cells, 2, 1, 1, 1);
  gtk_label_set_xalign (GTK_LABEL (unit), 0);
  gtk_label_set_wrap (GTK_LABEL (unit), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (unit), 10);
  gtk_widget_add_css_class (unit, "dim-label");
  gtk_widget_set_name (unit, "strength-unit");
  gtk_grid_attach (grid, unit, 2, 2, 1, 1);
  g_signal_connect_swapped (self->brush_mode, "notify::selected", G_CALLBACK (on_brush_mode_changed), self);
  on_brush_mode_changed (self);
}

/* The feature palette's choice is the feature the tool places. */
static void
on_palette_selected (TerrainEditorWindow *self)
{
  const char *name = terrain_editor_feature_palette_get_selected (TERRAIN_EDITOR_FEATURE_PALETTE (self->feature_palette));

  if (name != NULL && g_strcmp0 (name, gtk_editable_get_text (GTK_EDITABLE (self->feature_entry))) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->feature_entry), name);
}

static GdkTexture *
palette_sprite (const char *name,
                gpointer    user_data)
{
  TerrainEditorWindow *self = user_data;

  return terrain_editor_map_view_get_sprite_texture (self->map_view, name);
}

/* The palette lists the catalogue's definitions with the view's sprites. */
void
window_update_feature_palette (TerrainEditorWindow *self)
{
  if (self->feature_palette == NULL)
    return;
  terrain_editor_feature_palette_set_sprite_func (TERRAIN_EDITOR_FEATURE_PALETTE (self->feature_palette),
                                                  palette_sprite, self);
  terrain_editor_feature_palette_set_catalog (TERRAIN_EDITOR_FEATURE_PALETTE (self->feature_palette),
                                              window_get_catalog (self));
}

/* Connects the tools to the views and the sea-level control (after the
 * 3D view is made). */
void
window_tools_init (TerrainEditorWindow *self)
{
  /* The library's rule (terrain_tnt_map_check_sea_level()) bounds the
   * control; the edit checks it again. */
  gtk_adjustment_set_upper (self->sea_adjustment, TERRAIN_TNT_MAX_SEA_LEVEL);
  g_signal_connect_swapped (self->sea_adjustment, "value-changed", G_CALLBACK (on_sea_level_changed), self);
  g_signal_connect_swapped (self->map_view, "cell-event", G_CALLBACK (on_cell_event), self);
  g_signal_connect_swapped (self->map_view, "selection-changed", G_CALLBACK (on_selection_changed), self);
  g_signal_connect_swapped (self->gl_view, "notify::atlas-readout", G_CALLBACK (on_atlas_readout), self);
  g_signal_connect_swapped (self->gl_view, "notify::empty-message", G_CALLBACK (on_gl_empty_message),
                            self);
  g_signal_connect_swapped (self->gl_view, "gl-failed", G_CALLBACK (on_gl_failed), self);
  g_signal_connect_swapped (self->gl_view, "cell-activated", G_CALLBACK (on_gl_cell_activated), self);

  brush_units_init (self);

  /* Under the Features tool's name entry. */
  self->feature_palette = terrain_editor_feature_palette_new ();
  gtk_widget_set_name (self->feature_palette, "feature-palette");
  gtk_box_append (GTK_BOX (gtk_widget_get_parent (GTK_WIDGET (self->feature_entry))), self->feature_palette);
  g_signal_connect_swapped (self->feature_palette, "notify::selected", G_CALLBACK (on_palette_selected), self);
  window_update_feature_palette (self);

  window_stamp_init (self);
}
