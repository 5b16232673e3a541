/* terrain-relief.c: pictures and height grids drawn from heights
 *
 * The documents that have no picture of their own (plain heightmaps, CHU
 * geometry trees, DAT1 models seen from above) fill a TerrainRelief, one
 * height per pixel, and turn it into a shaded-relief picture for
 * render_image and a 16-bit grid for export_heights. Both come from the
 * same grid, so the 3D view's texture lies exactly on its heights.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-relief-private.h"
#include "terrain-error.h"

/* The light comes from the top left of the picture (the north-west when
 * north is up), 45 degrees above the horizon. */
#define LIGHT_ELEVATION_TAN 1.0

/* With an automatic vertical scale, the root-mean-square slope of the grid
 * is drawn as this steep (about 35 degrees): relief shows whatever the
 * units of the heights. */
#define AUTO_RMS_SLOPE 0.7

/* Hypsometric tint from the lowest (0) to the highest (1) height. */
static const struct { gdouble t; guint8 rgb[3]; } ramp[] = {
  { 0.00, {  52, 101,  72 } },
  { 0.30, { 128, 160,  92 } },
  { 0.55, { 190, 170, 112 } },
  { 0.80, { 150, 118,  92 } },
  { 1.00, { 242, 240, 236 } },
};

/* Reserves a @width x @height grid of NaN (nothing drawn), within @limits. */
gboolean
terrain_relief_init (TerrainRelief        *relief,
                     guint                 width,
                     guint                 height,
                     const TerrainLimits  *limits,
                     const char           *section,
                     GError              **error)
{
  gsize n = (gsize) width * height;

  memset (relief, 0, sizeof *relief);
  if (limits == NULL)
    limits = terrain_limits_get_default ();
  /* The heights and the RGBA picture made from them. */
  if ((guint64) width * height * (sizeof (gfloat) + 4) > limits->max_allocation)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "%s: a %u x %u picture needs %" G_GUINT64_FORMAT " bytes, over the "
                   "allocation limit of %" G_GUINT64_FORMAT " bytes",
                   section, width, height, (guint64) width * height * (sizeof (gfloat) + 4),
                   limits->max_allocation);
      return FALSE;
    }

  relief->width = width;
  relief->height = height;
  relief->z = g_new (gfloat, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    relief->z[i] = NAN;
  return TRUE;
}

void
terrain_relief_clear (TerrainRelief *relief)
{
  g_clear_pointer (&relief->z, g_free);
  relief->width = relief->height = 0;
}

/* The lowest and highest height drawn; FALSE when nothing is. */
gboolean
terrain_relief_get_range (const TerrainRelief *relief,
                          gfloat              *lo,
                          gfloat              *hi)
{
  gsize n = (gsize) relief->width * relief->height;
  gboolean any = FALSE;

  *lo = *hi = 0.0f;
  for (gsize i = 0; i < n; i++)
    {
      gfloat z = relief->z[i];

      if (isnan (z))
        continue;
      if (!any || z < *lo)
        *lo = z;
      if (!any || z > *hi)
        *hi = z;
      any = TRUE;
    }
  return any;
}

/* Draws a triangle seen from above: corners are (column, row, height) in
 * pixels, the picture spanning 0..width and 0..height; every pixel whose
 * centre the triangle covers takes the interpolated height unless it holds
 * a higher one already (the surface seen from above is the highest). */
void
terrain_relief_triangle (TerrainRelief *relief,
                         const gdouble  a[3],
                         const gdouble  b[3],
                         const gdouble  c[3])
{
  gdouble area = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
  gdouble x0 = floor (MIN (MIN (a[0], b[0]), c[0]) - 0.5);
  gdouble x1 = ceil (MAX (MAX (a[0], b[0]), c[0]) - 0.5);
  gdouble y0 = floor (MIN (MIN (a[1], b[1]), c[1]) - 0.5);
  gdouble y1 = ceil (MAX (MAX (a[1], b[1]), c[1]) - 0.5);

  /* Edge-on (a wall, or a skirt), degenerate or not finite. */
  if (!(fabs (area) > 1e-12) || !isfinite (a[2] + b[2] + c[2]))
    return;
  x0 = MAX (x0, 0.0);
  y0 = MAX (y0, 0.0);
  x1 = MIN (x1, (gdouble) relief->width - 1);
  y1 = MIN (y1, (gdouble) relief->height - 1);

  for (gdouble y = y0; y <= y1; y++)
    for (gdouble x = x0; x <= x1; x++)
      {
        gdouble px = x + 0.5, py = y + 0.5;
        gdouble wa = ((b[0] - px) * (c[1] - py) - (c[0] - px) * (b[1] - py)) / area;
        gdouble wb = ((c[0] - px) * (a[1] - py) - (a[0] - px) * (c[1] - py)) / area;
        gdouble wc = 1.0 - wa - wb;
        gfloat z, *at;

        if (wa < -1e-9 || wb < -1e-9 || wc < -1e-9)
          continue;
        z = (gfloat) (wa * a[2] + wb * b[2] + wc * c[2]);
        at = &relief->z[(gsize) y * relief->width + (gsize) x];
        if (isnan (*at) || z > *at)
          *at = z;
      }
}

/* The slope at a pixel along one axis, in height units per pixel, from the
 * neighbours that hold a height. */
static gdouble
slope (const gfloat *z,
       gsize         at,
       guint         pos,
       guint         length,
       gsize         step)
{
  gboolean before = pos > 0 && !isnan (z[at - step]);
  gboolean after = pos + 1 < length && !isnan (z[at + step]);

  if (before && after)
    return (z[at + step] - z[at - step]) * 0.5;
  if (after)
    return z[at + step] - z[at];
  if (before)
    return z[at] - z[at - step];
  return 0.0;
}

static void
tint (gdouble t,
      gdouble rgb[3])
{
  guint i = 1;

  t = CLAMP (t, 0.0, 1.0);
  while (i + 1 < G_N_ELEMENTS (ramp) && t > ramp[i].t)
    i++;
  for (guint c = 0; c < 3; c++)
    {
      gdouble f = (t - ramp[i - 1].t) / (ramp[i].t - ramp[i - 1].t);

      rgb[c] = ramp[i - 1].rgb[c] + (ramp[i].rgb[c] - ramp[i - 1].rgb[c]) * CLAMP (f, 0.0, 1.0);
    }
}

/* Draws the grid as shaded relief (RGBA8, one pixel per height): a
 * hypsometric tint from the lowest height (green) to the highest (white),
 * lit from the top left. @pixel_size is the width of a pixel in the units
 * of the heights, for true slopes; 0 chooses a vertical scale that shows the
 * relief whatever the units. Pixels without a height are transparent. */
TerrainImage *
terrain_relief_render (const TerrainRelief  *relief,
                       gdouble               pixel_size,
                       GError              **error)
{
  g_autoptr(TerrainImage) image = NULL;
  guint w = relief->width, h = relief->height;
  guint8 *pixels;
  gsize stride;
  gfloat lo, hi;
  gdouble k = 1.0, range;
  gboolean any;

  image = terrain_image_new (TERRAIN_IMAGE_RGBA8, MAX (w, 1), MAX (h, 1), error);
  if (image == NULL)
    return NULL;
  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  memset (pixels, 0, stride * MAX (h, 1));

  any = terrain_relief_get_range (relief, &lo, &hi);
  if (!any)
    return g_steal_pointer (&image);
  range = (gdouble) hi - lo;

  if (pixel_size > 0.0)
    k = 1.0 / pixel_size;
  else
    {
      gdouble sum = 0.0;
      gsize count = 0;

      for (guint y = 0; y < h; y++)
        for (guint x = 0; x < w; x++)
          {
            gsize at = (gsize) y * w + x;
            gdouble dx, dy;

            if (isnan (relief->z[at]))
              continue;
            dx = slope (relief->z, at, x, w, 1);
            dy = slope (relief->z, at, y, h, w);
            sum += dx * dx + dy * dy;
            count++;
          }
      if (count > 0 && sum > 0.0)
        k = AUTO_RMS_SLOPE / sqrt (sum / count);
    }

  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        gsize at = (gsize) y * w + x;
        guint8 *p = pixels + (gsize) y * stride + 4 * (gsize) x;
        gdouble gx, gy, len, lit, shade, rgb[3];

        if (isnan (relief->z[at]))
          continue;
        /* Normal (−gx, −gy, 1) / len with y pointing down the picture;
         * light (−1, −1, √2) / 2. A flat pixel gets shade 1. */
        gx = k * slope (relief->z, at, x, w, 1);
        gy = k * slope (relief->z, at, y, h, w);
        len = sqrt (gx * gx + gy * gy + 1.0);
        lit = (gx + gy + G_SQRT2 * LIGHT_ELEVATION_TAN) / (2.0 * len) / (G_SQRT2 / 2.0);
        shade = 0.3 + 0.7 * CLAMP (lit, 0.0, 1.45);
        tint (range > 0.0 ? (relief->z[at] - lo) / range : 0.5, rgb);
        for (guint c = 0; c < 3; c++)
          p[c] = (guint8) CLAMP (lround (rgb[c] * shade), 0, 255);
        p[3] = 255;
      }

  return g_steal_pointer (&image);
}

/* The grid as GRAY16: the lowest height 0, the highest 65535, linear
 * between; pixels without a height (and every pixel of a flat grid) 0. */
TerrainImage *
terrain_relief_to_gray16 (const TerrainRelief  *relief,
                          GError              **error)
{
  g_autoptr(TerrainImage) image = NULL;
  guint w = relief->width, h = relief->height;
  guint8 *pixels;
  gsize stride;
  gfloat lo, hi;
  gdouble range;

  image = terrain_image_new (TERRAIN_IMAGE_GRAY16, MAX (w, 1), MAX (h, 1), error);
  if (image == NULL)
    return NULL;
  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  memset (pixels, 0, stride * MAX (h, 1));
  if (!terrain_relief_get_range (relief, &lo, &hi))
    return g_steal_pointer (&image);
  range = (gdouble) hi - lo;

  for (guint y = 0; y < h; y++)
    {
      guint16 *row = (guint16 *) (gpointer) (pixels + (gsize) y * stride);

      for (guint x = 0; x < w; x++)
        {
          gfloat z = relief->z[(gsize) y * w + x];

          if (!isnan (z) && range > 0.0)
            row[x] = (guint16) CLAMP (lround ((z - lo) / range * 65535.0), 0, 65535);
        }
    }

  return g_steal_pointer (&image);
}
