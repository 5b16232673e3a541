/* terrain-editor-map-view-placement.c: where a feature would go
 *
 * The Features tool shows, under the pointer, the footprint of the
 * feature it would place (or of the one being dragged) before the click:
 * each cell blue where it is free and red where the engine's occupancy
 * (terrain_tnt_map_build_occupancy(): other footprints and authored voids)
 * or the map's edge blocks it, the footprints it would overlap outlined
 * in dashed red, and the feature's sprite, when it has one, drawn
 * translucent where it would stand.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-map-view-private.h"

static TerrainTntMap *
get_tnt (TerrainEditorMapView *self)
{
  return TERRAIN_IS_TNT_MAP (self->document) ? TERRAIN_TNT_MAP (self->document) : NULL;
}

/* Whether cell (@cx, @cy) is blocked for a feature placed there: off the
 * map, void, or covered by a footprint other than that of the feature
 * anchored at (@ignore_x, @ignore_y) (the one being moved; -1 for none). */
static gboolean
cell_blocked (TerrainEditorMapView *self,
              TerrainTntMap        *map,
              int                   cx,
              int                   cy,
              int                   ignore_x,
              int                   ignore_y)
{
  guint width = terrain_tnt_map_get_width (map);
  guint16 word;

  if (cx < 0 || cy < 0 || cx >= (int) width || cy >= (int) terrain_tnt_map_get_height (map))
    return TRUE;
  word = self->occupancy[(gsize) cy * width + cx];
  if (word == TERRAIN_TNT_FEATURE_NONE)
    return FALSE;
  if (word != TERRAIN_TNT_FEATURE_VOID && ignore_x >= 0 && ignore_y >= 0)
    {
      guint16 moved = terrain_tnt_map_get_cell_feature (map, ignore_x, ignore_y);
      guint fw = 1, fh = 1;

      if (moved < terrain_tnt_map_get_n_features (map))
        map_view_catalog_footprint (terrain_tnt_map_get_feature_name (map, moved), &fw, &fh, self);
      if (cx >= ignore_x && cx < ignore_x + (int) fw && cy >= ignore_y && cy < ignore_y + (int) fh)
        return FALSE;
    }
  return TRUE;
}

/**
 * terrain_editor_map_view_count_blocked:
 * @self: a map view on a TNT map
 * @name: a feature name
 * @x: the anchor cell the feature would have
 * @y: its row
 * @ignore_x: the anchor of a feature to disregard (the one being moved),
 *   or -1
 * @ignore_y: its row, or -1
 *
 * Counts the cells of @name's footprint (from the catalogue, 1x1 without
 * a definition) anchored at (@x, @y) that are blocked: off the map, void,
 * or covered by another feature's footprint.
 *
 * Returns: the number of blocked cells, 0 when the feature fits
 */
guint
terrain_editor_map_view_count_blocked (TerrainEditorMapView *self,
                                       const char           *name,
                                       int                   x,
                                       int                   y,
                                       int                   ignore_x,
                                       int                   ignore_y)
{
  TerrainTntMap *map = get_tnt (self);
  guint fw = 1, fh = 1, n = 0;

  g_return_val_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self), 0);
  g_return_val_if_fail (name != NULL, 0);

  if (map == NULL)
    return 0;
  map_view_ensure_features (self);
  map_view_catalog_footprint (name, &fw, &fh, self);
  for (guint dy = 0; dy < fh; dy++)
    for (guint dx = 0; dx < fw; dx++)
      n += cell_blocked (self, map, x + (int) dx, y + (int) dy, ignore_x, ignore_y);
  return n;
}

/**
 * terrain_editor_map_view_set_placement:
 * @self: a map view
 * @name: (nullable): the feature to show, or %NULL to show none
 * @x: the anchor cell it would have
 * @y: its row
 * @ignore_x: the anchor of the feature being moved, or -1
 * @ignore_y: its row, or -1
 *
 * Shows where @name would go: its footprint's cells blue where free and
 * red where blocked (terrain_editor_map_view_count_blocked()), and its
 * sprite, when it has one, translucent.
 */
void
terrain_editor_map_view_set_placement (TerrainEditorMapView *self,
                                       const char           *name,
                                       int                   x,
                                       int                   y,
                                       int                   ignore_x,
                                       int                   ignore_y)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  if (name == NULL && self->placement_name == NULL)
    return;
  if (name != NULL && g_strcmp0 (name, self->placement_name) == 0 && x == self->placement_x
      && y == self->placement_y && ignore_x == self->placement_ignore_x && ignore_y == self->placement_ignore_y)
    return;
  g_free (self->placement_name);
  self->placement_name = g_strdup (name);
  self->placement_x = x;
  self->placement_y = y;
  self->placement_ignore_x = ignore_x;
  self->placement_ignore_y = ignore_y;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * terrain_editor_map_view_get_placement:
 * @self: a map view
 * @x: (out) (optional): the anchor cell shown
 * @y: (out) (optional): its row
 * @n_blocked: (out) (optional): how many of its cells are blocked
 *
 * Returns: (nullable): the name of the feature whose placement is shown,
 *   or %NULL
 */
const char *
terrain_editor_map_view_get_placement (TerrainEditorMapView *self,
                                       int                  *x,
                                       int                  *y,
                                       guint                *n_blocked)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self), NULL);

  if (x != NULL)
    *x = self->placement_x;
  if (y != NULL)
    *y = self->placement_y;
  if (n_blocked != NULL)
    *n_blocked = self->placement_name != NULL
                 ? terrain_editor_map_view_count_blocked (self, self->placement_name, self->placement_x,
                                                          self->placement_y, self->placement_ignore_x,
                                                          self->placement_ignore_y)
                 : 0;
  return self->placement_name;
}

void
map_view_draw_placement (TerrainEditorMapView *self,
                         cairo_t              *cr,
                         TerrainTntMap        *map,
                         double                unit)
{
  guint fw = 1, fh = 1;

  if (self->placement_name == NULL || map == NULL)
    return;
  map_view_ensure_features (self);
  map_view_catalog_footprint (self->placement_name, &fw, &fh, self);

  cairo_save (cr);
  cairo_new_path (cr);
  for (guint dy = 0; dy < fh; dy++)
    for (guint dx = 0; dx < fw; dx++)
      {
        int cx = self->placement_x + (int) dx, cy = self->placement_y + (int) dy;

        if (cell_blocked (self, map, cx, cy, self->placement_ignore_x, self->placement_ignore_y))
          cairo_set_source_rgba (cr, 1.0, 0.05, 0.05, 0.65);
        else
          cairo_set_source_rgba (cr, 0.2, 0.6, 1.0, 0.45);
        cairo_rectangle (cr, cx, cy, 1, 1);
        cairo_fill (cr);
      }
  /* The footprints it would overlap, outlined: a sprite stands above its
   * cells (lifted by half the ground height), so show the cells. */
  cairo_set_line_width (cr, 1.5 * unit);
  cairo_set_dash (cr, (double[]) { 3 * unit, 2 * unit }, 2, 0);
  for (guint i = 0; i < self->placements->len; i++)
    {
      const TerrainTntPlacement *p = &g_array_index (self->placements, TerrainTntPlacement, i);
      guint pw = 1, ph = 1;

      if ((int) p->x == self->placement_ignore_x && (int) p->y == self->placement_ignore_y)
        continue;
      map_view_catalog_footprint (terrain_tnt_map_get_feature_name (map, p->feature), &pw, &ph, self);
      if ((int) (p->x + pw) <= self->placement_x || (int) p->x >= self->placement_x + (int) fw
          || (int) (p->y + ph) <= self->placement_y || (int) p->y >= self->placement_y + (int) fh)
        continue;
      cairo_rectangle (cr, p->x, p->y, pw, ph);
      cairo_set_source_rgb (cr, 1.0, 0.2, 0.2);
      cairo_stroke (cr);
    }
  cairo_set_dash (cr, NULL, 0, 0);

  /* The whole footprint in white on a dark rim, at least a few pixels. */
  {
    double min = MIN_FOOTPRINT_PIXELS * unit;
    double w = MAX (fw, min), h = MAX (fh, min);

    cairo_rectangle (cr, self->placement_x + (fw - w) / 2, self->placement_y + (fh - h) / 2, w, h);
  }
  cairo_set_line_width (cr, 3 * unit);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.6);
  cairo_stroke_preserve (cr);
  cairo_set_line_width (cr, 1.5 * unit);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_stroke (cr);
  cairo_restore (cr);
}
