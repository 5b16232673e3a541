/* terrain-editor-map-view-selection.c: the selected feature of the 2D
 * map view
 *
 * The view holds the one selection state of a window: the anchor cell of
 * the selected feature. Whatever changes the cells (an edit, an undo, a
 * redo) drops a selection whose anchor no longer holds a feature, so the
 * frame never outlives the feature; the window hears of every change
 * through #TerrainEditorMapView::selection-changed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-map-view-private.h"

/* Whether a placed feature is anchored at (@x, @y): the TNT stores a
 * feature's index in its anchor cell only. */
static gboolean
feature_anchored_at (TerrainTntMap *map,
                     int            x,
                     int            y)
{
  return x >= 0 && y >= 0 && x < (int) terrain_tnt_map_get_width (map)
         && y < (int) terrain_tnt_map_get_height (map)
         && terrain_tnt_map_get_cell_feature (map, x, y) < terrain_tnt_map_get_n_features (map);
}

void
map_view_check_selection (TerrainEditorMapView *self)
{
  TerrainTntMap *map = TERRAIN_IS_TNT_MAP (self->document) ? TERRAIN_TNT_MAP (self->document) : NULL;

  if (!self->selection_visible)
    return;
  if (map == NULL || !feature_anchored_at (map, self->selection_x, self->selection_y))
    terrain_editor_map_view_set_selection (self, FALSE, 0, 0);
}

/* The selected feature: its footprint in a thick cyan frame on a dark
 * rim, visible on any picture and at any zoom. */
void
map_view_draw_selection (TerrainEditorMapView *self,
                         cairo_t              *cr,
                         TerrainTntMap        *map,
                         double                unit)
{
  const char *name;
  guint fw = 1, fh = 1;
  double min, w, h;

  if (!feature_anchored_at (map, self->selection_x, self->selection_y))
    return;
  name = terrain_tnt_map_get_feature_name (map, terrain_tnt_map_get_cell_feature (map, self->selection_x,
                                                                                  self->selection_y));
  if (name != NULL)
    map_view_catalog_footprint (name, &fw, &fh, self);

  cairo_save (cr);
  cairo_new_path (cr);
  min = (MIN_FOOTPRINT_PIXELS + 4) * unit;
  w = MAX (fw + 4 * unit, min);
  h = MAX (fh + 4 * unit, min);
  cairo_rectangle (cr, self->selection_x + (fw - w) / 2, self->selection_y + (fh - h) / 2, w, h);
  cairo_set_line_width (cr, 5 * unit);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.7);
  cairo_stroke_preserve (cr);
  cairo_set_line_width (cr, 3 * unit);
  cairo_set_source_rgb (cr, 0.0, 1.0, 1.0);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/**
 * terrain_editor_map_view_set_selection:
 * @self: a map view
 * @visible: whether a feature is selected
 * @x: the selected feature's anchor cell
 * @y: its row
 *
 * Selects the feature anchored at (@x, @y), or nothing: the view frames
 * its footprint from the catalogue (one cell without a definition), at
 * every zoom. Emits #TerrainEditorMapView::selection-changed when the
 * selection changes.
 */
void
terrain_editor_map_view_set_selection (TerrainEditorMapView *self,
                                       gboolean              visible,
                                       int                   x,
                                       int                   y)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  if (!visible)
    x = y = 0;
  if (self->selection_visible == visible && self->selection_x == x && self->selection_y == y)
    return;
  self->selection_visible = visible;
  self->selection_x = x;
  self->selection_y = y;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  map_view_emit_selection_changed (self);
}

/**
 * terrain_editor_map_view_get_selection:
 * @self: a map view
 * @x: (out) (optional): the selected feature's anchor cell
 * @y: (out) (optional): its row
 *
 * Returns: whether a feature is selected
 */
gboolean
terrain_editor_map_view_get_selection (TerrainEditorMapView *self,
                                       int                  *x,
                                       int                  *y)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self), FALSE);

  if (x != NULL)
    *x = self->selection_x;
  if (y != NULL)
    *y = self->selection_y;
  return self->selection_visible;
}
