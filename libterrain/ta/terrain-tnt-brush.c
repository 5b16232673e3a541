/* terrain-tnt-brush.c: height brushes over a TNT attribute grid
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>

#include "terrain-tnt-brush.h"
#include "core/terrain-error.h"

G_DEFINE_BOXED_TYPE (TerrainTntBrush, terrain_tnt_brush, terrain_tnt_brush_copy,
                     terrain_tnt_brush_free)

/**
 * terrain_tnt_brush_new:
 * @mode: what the brush does
 * @radius: radius in attribute cells
 * @strength: height units (raise, lower) or blend factor (smooth, flatten)
 * @falloff: how the weight falls off towards the edge
 * @level: target height of flatten and set
 *
 * Creates a brush.
 *
 * Returns: (transfer full): a new brush; free with
 *   [method@Terrain.TntBrush.free]
 */
TerrainTntBrush *
terrain_tnt_brush_new (TerrainTntBrushMode mode,
                       double              radius,
                       double              strength,
                       TerrainTntFalloff   falloff,
                       guint8              level)
{
  TerrainTntBrush *brush = g_new0 (TerrainTntBrush, 1);

  brush->mode = mode;
  brush->radius = radius;
  brush->strength = strength;
  brush->falloff = falloff;
  brush->level = level;
  return brush;
}

/**
 * terrain_tnt_brush_copy:
 * @brush: a #TerrainTntBrush
 *
 * Copies @brush.
 *
 * Returns: (transfer full): a copy of @brush
 */
TerrainTntBrush *
terrain_tnt_brush_copy (const TerrainTntBrush *brush)
{
  g_return_val_if_fail (brush != NULL, NULL);

  return g_memdup2 (brush, sizeof *brush);
}

/**
 * terrain_tnt_brush_free:
 * @brush: (transfer full) (nullable): a #TerrainTntBrush
 *
 * Frees a brush made by [ctor@Terrain.TntBrush.new] or
 * [method@Terrain.TntBrush.copy].
 */
void
terrain_tnt_brush_free (TerrainTntBrush *brush)
{
  g_free (brush);
}

/**
 * terrain_tnt_brush_check:
 * @brush: a #TerrainTntBrush
 * @error: return location for a #GError
 *
 * Checks a brush's settings: a known mode and falloff, a finite radius in
 * 0..%TERRAIN_TNT_BRUSH_MAX_RADIUS and a finite, non-negative strength.
 *
 * Returns: %TRUE if the brush can be used; %FALSE with
 *   %TERRAIN_ERROR_INVALID_VALUE naming the bad setting
 */
gboolean
terrain_tnt_brush_check (const TerrainTntBrush  *brush,
                         GError                **error)
{
  g_return_val_if_fail (brush != NULL, FALSE);

  if ((guint) brush->mode > TERRAIN_TNT_BRUSH_SET)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT brush: mode %d is not a brush mode", (int) brush->mode);
      return FALSE;
    }
  if ((guint) brush->falloff > TERRAIN_TNT_FALLOFF_SMOOTH)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT brush: falloff %d is not a falloff", (int) brush->falloff);
      return FALSE;
    }
  if (!isfinite (brush->radius) || brush->radius < 0 ||
      brush->radius > TERRAIN_TNT_BRUSH_MAX_RADIUS)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT brush: radius %g is outside 0..%g cells",
                   brush->radius, TERRAIN_TNT_BRUSH_MAX_RADIUS);
      return FALSE;
    }
  if (!isfinite (brush->strength) || brush->strength < 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT brush: strength %g must be finite and not negative", brush->strength);
      return FALSE;
    }

  return TRUE;
}

/**
 * terrain_tnt_brush_get_weight:
 * @brush: a #TerrainTntBrush
 * @distance: distance from the brush's centre, in cells
 *
 * Gets the brush's weight at a distance from its centre.
 *
 * Returns: the brush's weight at @distance, 0..1; 0 outside the radius
 */
double
terrain_tnt_brush_get_weight (const TerrainTntBrush *brush,
                              double                 distance)
{
  double u;

  g_return_val_if_fail (brush != NULL, 0);

  if (brush->radius <= 0)
    return distance <= 0.5 ? 1.0 : 0.0;
  if (distance > brush->radius)
    return 0.0;

  u = distance / brush->radius;
  switch (brush->falloff)
    {
    case TERRAIN_TNT_FALLOFF_LINEAR:
      return 1.0 - u;
    case TERRAIN_TNT_FALLOFF_SMOOTH:
      return 0.5 * (1.0 + cos (G_PI * u));
    case TERRAIN_TNT_FALLOFF_CONSTANT:
    default:
      return 1.0;
    }
}

static inline guint8
clamp_height (double value)
{
  double rounded = floor (value + 0.5);

  return (guint8) CLAMP (rounded, 0.0, 255.0);
}

/* The cells of @map within the bounding box of a dab at @x, @y: FALSE when
 * there are none (the dab lies entirely off the map). */
static gboolean
brush_region (const TerrainTntBrush *brush,
              TerrainTntMap         *map,
              double                 x,
              double                 y,
              guint                 *region_x,
              guint                 *region_y,
              guint                 *region_width,
              guint                 *region_height)
{
  guint width = terrain_tnt_map_get_width (map);
  guint height = terrain_tnt_map_get_height (map);
  double reach = MAX (brush->radius, 0.5);
  double x0, y0, x1, y1;

  if (!isfinite (x) || !isfinite (y))
    return FALSE;
  x0 = MAX (ceil (x - reach), 0.0);
  y0 = MAX (ceil (y - reach), 0.0);
  x1 = MIN (floor (x + reach), (double) width - 1);
  y1 = MIN (floor (y + reach), (double) height - 1);
  if (x1 < x0 || y1 < y0)
    return FALSE;
  *region_x = (guint) x0;
  *region_y = (guint) y0;
  *region_width = (guint) (x1 - x0) + 1;
  *region_height = (guint) (y1 - y0) + 1;
  return TRUE;
}

/**
 * terrain_tnt_brush_reaches_map:
 * @brush: a checked #TerrainTntBrush (see [method@Terrain.TntBrush.check])
 * @map: the map the brush is over
 * @x: dab centre, column in attribute cells (cell centres are integers)
 * @y: dab centre, row in attribute cells
 *
 * Whether a dab of @brush at @x, @y covers at least one cell of @map: the
 * cells within the brush's bounding box (its radius, at least half a cell,
 * around the centre) that lie inside the map's width x height attribute
 * cells. A dab that reaches none changes nothing; the CLI refuses it with a
 * message rather than reporting "0 cells changed".
 *
 * Returns: %TRUE when the dab touches the map
 */
gboolean
terrain_tnt_brush_reaches_map (const TerrainTntBrush *brush,
                               TerrainTntMap         *map,
                               double                 x,
                               double                 y)
{
  guint rx, ry, rw, rh;

  g_return_val_if_fail (brush != NULL, FALSE);
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (map), FALSE);

  return brush_region (brush, map, x, y, &rx, &ry, &rw, &rh);
}

/**
 * terrain_tnt_brush_evaluate: (skip)
 * @brush: a checked #TerrainTntBrush (see [method@Terrain.TntBrush.check])
 * @map: the map the brush is over
 * @x: dab centre, column in attribute cells (cell centres are integers)
 * @y: dab centre, row in attribute cells
 * @region_x: (out): first column of the region the brush covers
 * @region_y: (out): first row of the region
 * @region_width: (out): columns in the region
 * @region_height: (out): rows in the region
 *
 * Computes the heights one dab of @brush would leave, without changing the
 * map @map: the region is the part of the map within the brush's bounding box,
 * and the result holds a height for every cell of it (cells outside the
 * radius keep theirs). Smoothing averages each cell's 3x3 neighbourhood as
 * it was before the dab (cells beyond the map edge are left out).
 *
 * Not introspectable: the returned array's length is the product of two
 * out values; bindings call [method@Terrain.TntBrush.evaluate_bytes] under
 * this name.
 *
 * Returns: (transfer full) (nullable) (array): @region_width x
 *   @region_height heights, row-major, or %NULL when the dab lies entirely
 *   off the map
 */
guint8 *
terrain_tnt_brush_evaluate (const TerrainTntBrush *brush,
                            TerrainTntMap         *map,
                            double                 x,
                            double                 y,
                            guint                 *region_x,
                            guint                 *region_y,
                            guint                 *region_width,
                            guint                 *region_height)
{
  double strength, blend;
  guint width, height, rx, ry, rw, rh;
  guint8 *out;

  g_return_val_if_fail (brush != NULL, NULL);
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (map), NULL);
  g_return_val_if_fail (terrain_tnt_brush_check (brush, NULL), NULL);

  *region_x = *region_y = *region_width = *region_height = 0;
  if (!brush_region (brush, map, x, y, &rx, &ry, &rw, &rh))
    return NULL;
  width = terrain_tnt_map_get_width (map);
  height = terrain_tnt_map_get_height (map);
  out = g_malloc ((gsize) rw * rh);

  strength = brush->strength;
  blend = MIN (strength, 1.0);

  for (guint j = 0; j < rh; j++)
    for (guint i = 0; i < rw; i++)
      {
        guint cx = rx + i, cy = ry + j;
        double h = terrain_tnt_map_get_cell_height (map, cx, cy);
        double weight = terrain_tnt_brush_get_weight (brush, hypot (cx - x, cy - y));
        double result = h;

        if (weight > 0)
          switch (brush->mode)
            {
            case TERRAIN_TNT_BRUSH_RAISE:
              result = h + strength * weight;
              break;
            case TERRAIN_TNT_BRUSH_LOWER:
              result = h - strength * weight;
              break;
            case TERRAIN_TNT_BRUSH_FLATTEN:
              result = h + (brush->level - h) * blend * weight;
              break;
            case TERRAIN_TNT_BRUSH_SET:
              result = brush->level;
              break;
            case TERRAIN_TNT_BRUSH_SMOOTH:
            default:
              {
                double sum = 0;
                guint n = 0;

                for (int dy = -1; dy <= 1; dy++)
                  for (int dx = -1; dx <= 1; dx++)
                    {
                      gint64 nx = (gint64) cx + dx, ny = (gint64) cy + dy;

                      if (nx < 0 || ny < 0 || nx >= width || ny >= height)
                        continue;
                      sum += terrain_tnt_map_get_cell_height (map, (guint) nx, (guint) ny);
                      n++;
                    }
                result = h + (sum / n - h) * blend * weight;
              }
              break;
            }

        out[(gsize) j * rw + i] = clamp_height (result);
      }

  *region_x = rx;
  *region_y = ry;
  *region_width = rw;
  *region_height = rh;
  return out;
}

/**
 * terrain_tnt_brush_evaluate_bytes: (rename-to terrain_tnt_brush_evaluate)
 * @brush: a checked #TerrainTntBrush (see [method@Terrain.TntBrush.check])
 * @map: the map the brush is over
 * @x: dab centre, column in attribute cells (cell centres are integers)
 * @y: dab centre, row in attribute cells
 * @region_x: (out) (optional): first column of the region the brush covers
 * @region_y: (out) (optional): first row of the region
 * @region_width: (out) (optional): columns in the region
 * @region_height: (out) (optional): rows in the region
 *
 * The heights of [method@Terrain.TntBrush.evaluate] in the form bindings
 * can call: the same computation, the heights in a #GBytes that carries
 * its length. The height of region cell (i, j) is byte `j * region_width +
 * i`. The map is not changed.
 *
 * Returns: (transfer full) (nullable): @region_width x @region_height
 *   heights (one byte each), row-major, or %NULL (and a 0x0 region) when
 *   the dab lies entirely off the map
 */
GBytes *
terrain_tnt_brush_evaluate_bytes (const TerrainTntBrush *brush,
                                  TerrainTntMap         *map,
                                  double                 x,
                                  double                 y,
                                  guint                 *region_x,
                                  guint                 *region_y,
                                  guint                 *region_width,
                                  guint                 *region_height)
{
  guint rx = 0, ry = 0, rw = 0, rh = 0;
  guint8 *heights;

  g_return_val_if_fail (brush != NULL, NULL);
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (map), NULL);

  heights = terrain_tnt_brush_evaluate (brush, map, x, y, &rx, &ry, &rw, &rh);
  if (heights == NULL)
    rx = ry = rw = rh = 0;
  if (region_x != NULL)
    *region_x = rx;
  if (region_y != NULL)
    *region_y = ry;
  if (region_width != NULL)
    *region_width = rw;
  if (region_height != NULL)
    *region_height = rh;
  return heights != NULL ? g_bytes_new_take (heights, (gsize) rw * rh) : NULL;
}
