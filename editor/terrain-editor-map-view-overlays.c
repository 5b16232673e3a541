/* terrain-editor-map-view-overlays.c: what the 2D map view draws over
 * the picture
 *
 * Voids, the tile grid, feature footprints, start positions
 * and the tools' previews (brush ring, rectangle, highlight), drawn with
 * Cairo in map cell units, and the setters of the tools' previews (the
 * selected feature is in terrain-editor-map-view-selection.c, contours in
 * -contours.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-map-view-private.h"

#include <math.h>

/* A footprint's rectangle, at least MIN_FOOTPRINT_PIXELS on screen so
 * that a 1x1 tree still shows at Fit. */
static void
footprint_rectangle (cairo_t *cr,
                     double   unit,
                     int      x,
                     int      y,
                     guint    fw,
                     guint    fh)
{
  double min = MIN_FOOTPRINT_PIXELS * unit;
  double w = MAX (fw, min), h = MAX (fh, min);

  cairo_rectangle (cr, x + (fw - w) / 2, y + (fh - h) / 2, w, h);
}

void
map_view_draw_features (TerrainEditorMapView *self,
               cairo_t              *cr,
               TerrainTntMap        *map,
               double                unit,
               guint x0, guint y0, guint x1, guint y1)
{
  map_view_ensure_features (self);

  /* Each footprint (its TDF footprintx x footprintz, one cell when no
   * definition is loaded) of a feature without a sprite filled and
   * outlined at every zoom: green when known, yellow when not, red when
   * it overlaps another. */
  for (guint i = 0; i < self->placements->len; i++)
    {
      const TerrainTntPlacement *p = &g_array_index (self->placements, TerrainTntPlacement, i);
      const char *name = terrain_tnt_map_get_feature_name (map, p->feature);
      guint fw = 1, fh = 1;
      gboolean known = name != NULL && map_view_catalog_footprint (name, &fw, &fh, self);
      gboolean overlap = g_hash_table_contains (self->overlapping,
                                                GUINT_TO_POINTER ((p->y << 16) | p->x));

      if (p->x + fw + 1 < x0 || p->x > x1 + 1 || p->y + fh + 1 < y0 || p->y > y1 + 1)
        continue;

      /* A feature drawn as its sprite (terrain-editor-map-view-sprites.c)
       * keeps only the red outline of an overlap. */
      if (map_view_feature_sprite (self, name) != NULL)
        {
          if (overlap)
            {
              cairo_rectangle (cr, p->x, p->y, fw, fh);
              cairo_set_source_rgb (cr, 1.0, 0.1, 0.1);
              cairo_stroke (cr);
            }
          continue;
        }

      footprint_rectangle (cr, unit, p->x, p->y, fw, fh);
      if (overlap)
        cairo_set_source_rgba (cr, 1.0, 0.1, 0.1, 0.55);
      else if (known)
        cairo_set_source_rgba (cr, 0.1, 0.9, 0.2, 0.45);
      else
        cairo_set_source_rgba (cr, 1.0, 0.85, 0.1, 0.45);
      cairo_fill_preserve (cr);
      if (overlap)
        cairo_set_source_rgb (cr, 0.6, 0.0, 0.0);
      else if (known)
        cairo_set_source_rgb (cr, 0.0, 0.35, 0.05);
      else
        cairo_set_source_rgb (cr, 0.45, 0.35, 0.0);
      cairo_stroke (cr);
    }
}

void
map_view_draw_voids (TerrainEditorMapView *self,
            cairo_t              *cr,
            TerrainTntMap        *map,
            guint x0, guint y0, guint x1, guint y1)
{
  cairo_set_source_rgba (cr, 0.05, 0.0, 0.15, 0.7);
  for (guint y = y0; y < y1; y++)
    for (guint x = x0; x < x1; x++)
      if (terrain_tnt_map_get_cell_feature (map, x, y) == TERRAIN_TNT_FEATURE_VOID)
        cairo_rectangle (cr, x, y, 1, 1);
  cairo_fill (cr);
}

void
map_view_draw_grid (TerrainEditorMapView *self,
           cairo_t              *cr,
           guint x0, guint y0, guint x1, guint y1)
{
  /* One line per 32-pixel tile: every second attribute cell. */
  cairo_set_source_rgba (cr, 1, 1, 1, 0.35);
  for (guint x = x0 & ~1u; x <= x1; x += 2)
    {
      cairo_move_to (cr, x, y0);
      cairo_line_to (cr, x, y1);
    }
  for (guint y = y0 & ~1u; y <= y1; y += 2)
    {
      cairo_move_to (cr, x0, y);
      cairo_line_to (cr, x1, y);
    }
  cairo_stroke (cr);
}

void
map_view_draw_start_positions (TerrainEditorMapView *self,
                      cairo_t              *cr,
                      double                unit)
{
  g_autofree TerrainOtaStartPosition *positions = NULL;
  guint n = 0;

  if (self->ota == NULL || self->ota_schema >= terrain_ota_file_get_n_schemas (self->ota))
    return;

  positions = terrain_ota_file_get_start_positions (self->ota, self->ota_schema, &n);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size (cr, 14 * unit);
  for (guint i = 0; i < n; i++)
    {
      double x = positions[i].x / self->cell_pixels;
      double y = positions[i].z / self->cell_pixels;
      char label[16];
      cairo_text_extents_t extents;

      cairo_new_path (cr);
      cairo_arc (cr, x, y, 12 * unit, 0, 2 * G_PI);
      cairo_set_source_rgba (cr, 0.9, 0.1, 0.9, 0.85);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_stroke (cr);
      g_snprintf (label, sizeof label, "%u", positions[i].player);
      cairo_text_extents (cr, label, &extents);
      cairo_move_to (cr, x - extents.width / 2 - extents.x_bearing,
                     y - extents.height / 2 - extents.y_bearing);
      cairo_show_text (cr, label);
      cairo_new_path (cr);
    }
}


/* The schema of the map description whose start positions are drawn (the
 * one the Map page shows). */
void
terrain_editor_map_view_set_ota_schema (TerrainEditorMapView *self,
                                        guint                 schema)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  self->ota_schema = schema;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ------------------------------------------------------------------------ */
/* The tools' previews                                                      */

/* Over everything else: the rectangle of the void and tile tools, a
 * feature's placement, the brush ring, the Atlas stub's outline and the
 * highlighted cell of a finding. */
void
map_view_draw_previews (TerrainEditorMapView *self,
                        cairo_t              *cr,
                        TerrainTntMap        *map,
                        double                unit)
{
  map_view_draw_placement (self, cr, map, unit);
  if (self->rect_visible)
    {
      cairo_rectangle (cr, self->rect_x, self->rect_y, self->rect_width, self->rect_height);
      /* Over a picture of what lands there only a red tint if blocked. */
      if (self->rect_blocked)
        cairo_set_source_rgba (cr, 1, 0, 0, 0.5);
      else if (self->rect_texture != NULL)
        cairo_set_source_rgba (cr, 0, 0, 0, 0);
      else
        cairo_set_source_rgba (cr, 0.2, 0.6, 1, 0.5);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_stroke (cr);
    }

  if (self->brush_visible)
    {
      cairo_set_line_width (cr, 2 * unit);
      cairo_new_path (cr);
      cairo_arc (cr, self->brush_x, self->brush_y, MAX (self->brush_radius, 0.5), 0, 2 * G_PI);
      cairo_set_source_rgba (cr, 1, 1, 1, 0.15);
      cairo_fill_preserve (cr);
      cairo_set_source_rgba (cr, 1, 1, 1, 0.9);
      cairo_stroke (cr);
    }

  {
    double ox, oy, ow, oh;

    if (terrain_editor_map_view_get_atlas_outline (self, &ox, &oy, &ow, &oh))
      {
        /* White on a dark rim: visible on any picture. */
        cairo_rectangle (cr, ox, oy, ow, oh);
        cairo_set_source_rgba (cr, 1, 1, 1, 0.2);
        cairo_fill_preserve (cr);
        cairo_set_line_width (cr, 4 * unit);
        cairo_set_source_rgba (cr, 0, 0, 0, 0.6);
        cairo_stroke_preserve (cr);
        cairo_set_line_width (cr, 2 * unit);
        cairo_set_source_rgb (cr, 1, 1, 1);
        cairo_stroke (cr);
      }
  }

  if (self->highlight_visible)
    {
      cairo_set_line_width (cr, 3 * unit);
      cairo_rectangle (cr, self->highlight_x - 0.5, self->highlight_y - 0.5, 2, 2);
      cairo_set_source_rgb (cr, 1, 0.2, 0.2);
      cairo_stroke (cr);
    }
}

void
terrain_editor_map_view_set_brush (TerrainEditorMapView *self,
                                   gboolean              visible,
                                   double                x,
                                   double                y,
                                   double                radius)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  self->brush_visible = visible;
  self->brush_x = x;
  self->brush_y = y;
  self->brush_radius = radius;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
terrain_editor_map_view_set_preview_rect (TerrainEditorMapView *self,
                                          gboolean              visible,
                                          int                   x,
                                          int                   y,
                                          int                   width,
                                          int                   height,
                                          gboolean              blocked)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  self->rect_visible = visible;
  self->rect_x = x;
  self->rect_y = y;
  self->rect_width = width;
  self->rect_height = height;
  self->rect_blocked = blocked;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The picture of what lands in the previewed rectangle, translucent,
 * stretched over it (in widget pixels: @h, @v the scroll offsets, @scale
 * screen pixels a cell). */
void
map_view_snapshot_preview_texture (TerrainEditorMapView *self,
                                   GtkSnapshot          *snapshot,
                                   double                h,
                                   double                v,
                                   double                scale)
{
  if (!self->rect_visible || self->rect_texture == NULL)
    return;
  gtk_snapshot_push_opacity (snapshot, 0.75);
  gtk_snapshot_append_texture (snapshot, self->rect_texture,
                               &GRAPHENE_RECT_INIT (self->rect_x * scale - h, self->rect_y * scale - v,
                                                    self->rect_width * scale, self->rect_height * scale));
  gtk_snapshot_pop (snapshot);
}

/* What the previewed rectangle shows inside its outline (the section a
 * click stamps), or %NULL for a blue tint. */
void
terrain_editor_map_view_set_preview_texture (TerrainEditorMapView *self,
                                             GdkTexture           *texture)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  if (g_set_object (&self->rect_texture, texture))
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The rectangle a tool previews (the Voids drag, the tile painted, the
 * section stamped), in cells; FALSE when none shows. */
gboolean
terrain_editor_map_view_get_preview_rect (TerrainEditorMapView *self,
                                          int                  *x,
                                          int                  *y,
                                          int                  *width,
                                          int                  *height,
                                          gboolean             *blocked)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self), FALSE);

  if (x != NULL)
    *x = self->rect_x;
  if (y != NULL)
    *y = self->rect_y;
  if (width != NULL)
    *width = self->rect_width;
  if (height != NULL)
    *height = self->rect_height;
  if (blocked != NULL)
    *blocked = self->rect_blocked;
  return self->rect_visible;
}

void
terrain_editor_map_view_set_highlight (TerrainEditorMapView *self,
                                       gboolean              visible,
                                       int                   x,
                                       int                   y)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  self->highlight_visible = visible;
  self->highlight_x = x;
  self->highlight_y = y;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
