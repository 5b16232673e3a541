/* terrain-editor-map-view-contours.c: height contours of the 2D map view
 *
 * A contour runs between two cells whose heights fall in different bands
 * of the contour interval (16 height units), drawn in the colour of the
 * higher band: cyan low ground through yellow, orange and red to pink
 * peaks. From 2 screen pixels a cell up they are Cairo lines along the
 * cell edges of the visible cells; below that (Fit on a large map) the
 * interval is coarser (terrain_editor_map_view_get_contour_interval()),
 * and they are drawn as one texture of a texel a cell, each line
 * as wide as a screen pixel, made once per interval and kept until the
 * cells change.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-map-view-private.h"

#include <math.h>

#define CONTOUR_INTERVAL 16
/* The band count of the interval at full detail: 256 / 16. */
#define N_BANDS (256 / CONTOUR_INTERVAL)

/* The colour of the contour at the bottom of a band starting at @height
 * (0-255): a hypsometric ramp. */
static void
contour_colour (guint   height,
                double *r,
                double *g,
                double *b)
{
  /* Saturated, to stand out on grass, rock and water tiles alike. */
  static const struct { double h, r, g, b; } ramp[] = {
    { 0, 0.00, 0.85, 1.00 },
    { 64, 0.85, 1.00, 0.10 },
    { 128, 1.00, 0.55, 0.00 },
    { 192, 0.95, 0.10, 0.10 },
    { 255, 1.00, 0.60, 1.00 },
  };

  for (guint i = 1; i < G_N_ELEMENTS (ramp); i++)
    if (height <= ramp[i].h || i + 1 == G_N_ELEMENTS (ramp))
      {
        double t = CLAMP ((height - ramp[i - 1].h) / (ramp[i].h - ramp[i - 1].h), 0.0, 1.0);

        *r = ramp[i - 1].r + t * (ramp[i].r - ramp[i - 1].r);
        *g = ramp[i - 1].g + t * (ramp[i].g - ramp[i - 1].g);
        *b = ramp[i - 1].b + t * (ramp[i].b - ramp[i - 1].b);
        return;
      }
}

/**
 * terrain_editor_map_view_get_contour_interval:
 * @self: a map view
 *
 * Gets the height units between two contours at the current zoom: 16 from
 * 2 screen pixels a cell up, 32 down to half a pixel a cell, doubled for
 * each halving of the zoom below that (128 at most).
 *
 * Returns: the contour interval, height units
 */
guint
terrain_editor_map_view_get_contour_interval (TerrainEditorMapView *self)
{
  double scale;
  guint interval = CONTOUR_INTERVAL;

  g_return_val_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self), CONTOUR_INTERVAL);

  scale = self->zoom * self->cell_pixels;
  if (scale >= 2.0)
    return interval;
  /* 32 down to half a pixel a cell, then doubled at each halving. */
  interval *= 2;
  while (scale < 0.5 && interval < 128)
    {
      scale *= 2;
      interval *= 2;
    }
  return interval;
}

void
map_view_draw_contours (TerrainEditorMapView *self,
                        cairo_t              *cr,
                        TerrainTntMap        *map,
                        guint x0, guint y0, guint x1, guint y1)
{
  guint width = terrain_tnt_map_get_width (map);
  guint height = terrain_tnt_map_get_height (map);
  /* The edges of each band (x, y, 0 vertical or 1 horizontal), one pass
   * over the cells, then one stroke a band in its colour. */
  GArray *edges[N_BANDS] = { NULL };

  for (guint y = y0; y < y1; y++)
    for (guint x = x0; x < x1; x++)
      {
        guint c = terrain_tnt_map_get_cell_height (map, x, y) / CONTOUR_INTERVAL;

        for (guint horizontal = 0; horizontal < 2; horizontal++)
          {
            guint nx = x + !horizontal, ny = y + horizontal, n, band;
            guint edge[3] = { x, y, horizontal };

            if (nx >= width || ny >= height)
              continue;
            n = terrain_tnt_map_get_cell_height (map, nx, ny) / CONTOUR_INTERVAL;
            if (n == c)
              continue;
            band = MAX (c, n);
            if (edges[band] == NULL)
              edges[band] = g_array_new (FALSE, FALSE, sizeof edge);
            g_array_append_val (edges[band], edge);
          }
      }
  for (guint band = 1; band < N_BANDS; band++)
    if (edges[band] != NULL)
      {
        double r, g, b;

        cairo_new_path (cr);
        for (guint i = 0; i < edges[band]->len; i++)
          {
            const guint *e = &g_array_index (edges[band], guint, 3 * i);

            if (e[2] == 0)
              {
                cairo_move_to (cr, e[0] + 1, e[1]);
                cairo_line_to (cr, e[0] + 1, e[1] + 1);
              }
            else
              {
                cairo_move_to (cr, e[0], e[1] + 1);
                cairo_line_to (cr, e[0] + 1, e[1] + 1);
              }
          }
        contour_colour (band * CONTOUR_INTERVAL, &r, &g, &b);
        cairo_set_source_rgba (cr, r, g, b, 0.9);
        cairo_stroke (cr);
        g_array_unref (edges[band]);
      }
}

/* The contours of @interval as a texel a cell, each cell on the lower
 * side of a contour coloured, @thickness cells deep. */
static GdkTexture *
make_texture (TerrainTntMap *map,
              guint          interval,
              guint          thickness)
{
  guint w = terrain_tnt_map_get_width (map), h = terrain_tnt_map_get_height (map);
  guint8 *texels = g_malloc0 ((gsize) w * h * 4);
  g_autoptr(GBytes) bytes = NULL;

  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        guint c = terrain_tnt_map_get_cell_height (map, x, y) / interval;
        guint top = c;

        /* The highest band within @thickness cells right or below. */
        for (guint d = 1; d <= thickness; d++)
          {
            if (x + d < w)
              top = MAX (top, terrain_tnt_map_get_cell_height (map, x + d, y) / interval);
            if (y + d < h)
              top = MAX (top, terrain_tnt_map_get_cell_height (map, x, y + d) / interval);
          }
        if (top != c)
          {
            guint8 *t = texels + ((gsize) y * w + x) * 4;
            double r, g, b;

            contour_colour (top * interval, &r, &g, &b);
            t[0] = (guint8) (r * 255);
            t[1] = (guint8) (g * 255);
            t[2] = (guint8) (b * 255);
            t[3] = 230;
          }
      }
  bytes = g_bytes_new_take (texels, (gsize) w * h * 4);
  return gdk_memory_texture_new ((int) w, (int) h, GDK_MEMORY_R8G8B8A8, bytes, (gsize) w * 4);
}

void
map_view_snapshot_contours (TerrainEditorMapView *self,
                            GtkSnapshot          *snapshot,
                            TerrainTntMap        *map,
                            double                h,
                            double                v)
{
  guint interval = terrain_editor_map_view_get_contour_interval (self);
  double scale = self->zoom * self->cell_pixels;
  guint thickness = (guint) MAX (1.0, ceil (1.0 / MAX (scale, 1.0 / 64)));

  if (self->contours == NULL || self->contours_interval != interval || self->contours_thickness != thickness)
    {
      g_clear_object (&self->contours);
      self->contours = make_texture (map, interval, thickness);
      self->contours_interval = interval;
      self->contours_thickness = thickness;
    }
  gtk_snapshot_append_texture (snapshot, self->contours,
                               &GRAPHENE_RECT_INIT (-h, -v, self->map_width * self->zoom,
                                                    self->map_height * self->zoom));
}
