/* terrain-heightfield-io.c: height sources (greyscale, Terrain-RGB and
 * Terrarium PNG, raw16, SRTM .hgt, Torque .ter, TA .tnt)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-heightfield.h"
#include "terrain-heightfield-private.h"
#include "terrain-error.h"
#include "terrain-io.h"
#include "terrain-format-private.h"
#include "terrain-image-private.h"

/* SRTM void marker (big-endian S16). */
#define HGT_VOID (-32768)

/* Default spacings: SRTM3 and SRTM1 tiles are 3 and 1 arc-seconds, about 90
 * and 30 m. */
#define HGT_SRTM3_SIDE    1201
#define HGT_SRTM1_SIDE    3601
#define HGT_SRTM3_SPACING 90.0
#define HGT_SRTM1_SPACING 30.0

static const TerrainHeightfieldOptions *
options_or_default (const TerrainHeightfieldOptions *options,
                    TerrainHeightfieldOptions       *storage)
{
  if (options != NULL)
    return options;
  terrain_heightfield_options_init (storage);
  return storage;
}

static gboolean
check_options (const TerrainHeightfieldOptions  *options,
               const char                       *source,
               GError                          **error)
{
  if (!isfinite (options->vertical_scale) || !isfinite (options->vertical_offset))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s: vertical scale %g and offset %g must be finite", source,
                   options->vertical_scale, options->vertical_offset);
      return FALSE;
    }
  if (!isfinite (options->spacing) || options->spacing < 0.0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s: sample spacing %g m is not finite and positive", source,
                   options->spacing);
      return FALSE;
    }
  return TRUE;
}

static gdouble
spacing_or (const TerrainHeightfieldOptions *options,
            gdouble                          fallback)
{
  return options->spacing > 0.0 ? options->spacing : fallback;
}

gdouble
terrain_decode_terrain_rgb (const guint8 *rgb)
{
  return -10000.0 + (rgb[0] * 65536.0 + rgb[1] * 256.0 + rgb[2]) * 0.1;
}

gdouble
terrain_decode_terrarium (const guint8 *rgb)
{
  return rgb[0] * 256.0 + rgb[1] + rgb[2] / 256.0 - 32768.0;
}

/* What a colour PNG's pixels say of its encoding (terrain-heightfield-private.h).
 * Earth's heights (−11 km to 9 km) need R of 0 to 2 in Terrain-RGB and 85 to
 * 163 in Terrarium, so the two never overlap; and real terrain is continuous
 * in its encoding, while a picture read in the wrong one jumps by an R step
 * (6553.6 m in Terrain-RGB, 256 m in Terrarium) where its red changes: the
 * largest step between row neighbours must stay under half of that. */
#define TERRAIN_RGB_MAX_STEP 3276.8
#define TERRARIUM_MAX_STEP   128.0

void
terrain_colour_scan_init (TerrainColourScan *scan)
{
  *scan = (TerrainColourScan) { TRUE, 255, 0, 0.0, 0.0, INFINITY, -INFINITY, INFINITY,
                                -INFINITY, 0 };
}

void
terrain_colour_scan_row (TerrainColourScan *scan,
                         const guint8      *pixels,
                         guint              n_pixels)
{
  for (guint x = 0; x < n_pixels; x++)
    {
      const guint8 *p = pixels + 4 * (gsize) x;
      gdouble rgb = terrain_decode_terrain_rgb (p), terrarium = terrain_decode_terrarium (p);

      scan->grey = scan->grey && p[0] == p[1] && p[1] == p[2];
      scan->r_min = MIN (scan->r_min, p[0]);
      scan->r_max = MAX (scan->r_max, p[0]);
      scan->rgb_lo = MIN (scan->rgb_lo, rgb);
      scan->rgb_hi = MAX (scan->rgb_hi, rgb);
      scan->terrarium_lo = MIN (scan->terrarium_lo, terrarium);
      scan->terrarium_hi = MAX (scan->terrarium_hi, terrarium);
      if (x > 0)
        {
          scan->rgb_jump = MAX (scan->rgb_jump, fabs (rgb - terrain_decode_terrain_rgb (p - 4)));
          scan->terrarium_jump = MAX (scan->terrarium_jump,
                                      fabs (terrarium - terrain_decode_terrarium (p - 4)));
        }
    }
  scan->n_pixels += n_pixels;
}

static const char *
colour_format_name (TerrainHeightmapFormat format)
{
  return format == TERRAIN_HEIGHTMAP_TERRAIN_RGB ? "Terrain-RGB" :
         format == TERRAIN_HEIGHTMAP_TERRARIUM ? "Terrarium" : "gray";
}

gboolean
terrain_colour_scan_finish (const TerrainColourScan  *scan,
                            TerrainHeightmapFormat    requested,
                            TerrainHeightmapFormat   *format,
                            gdouble                  *lo,
                            gdouble                  *hi,
                            GError                  **error)
{
  TerrainHeightmapFormat found = TERRAIN_HEIGHTMAP_AUTO;

  if (scan->n_pixels == 0)
    found = TERRAIN_HEIGHTMAP_GRAY;
  else if (scan->grey)
    found = TERRAIN_HEIGHTMAP_GRAY;
  else if (scan->r_max <= 2 && scan->rgb_jump <= TERRAIN_RGB_MAX_STEP)
    found = TERRAIN_HEIGHTMAP_TERRAIN_RGB;
  else if (scan->r_min >= 85 && scan->r_max <= 163 && scan->terrarium_jump <= TERRARIUM_MAX_STEP)
    found = TERRAIN_HEIGHTMAP_TERRARIUM;

  /* A named encoding is taken as named, except grey, which only a colour
   * image whose pixels are all grey can be (never a luminance guess). */
  if (requested == TERRAIN_HEIGHTMAP_TERRAIN_RGB || requested == TERRAIN_HEIGHTMAP_TERRARIUM)
    found = requested;
  else if (requested == TERRAIN_HEIGHTMAP_GRAY && found != TERRAIN_HEIGHTMAP_GRAY)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "PNG heightmap: a colour image whose pixels are not grey cannot be read as "
                   "gray heights (red spans %u to %u%s%s); name its encoding with "
                   "--heightmap-format terrain-rgb or terrarium, or convert it to greyscale",
                   scan->r_min, scan->r_max,
                   found != TERRAIN_HEIGHTMAP_AUTO ? ", as in " : "",
                   found != TERRAIN_HEIGHTMAP_AUTO ? colour_format_name (found) : "");
      return FALSE;
    }
  else if (found == TERRAIN_HEIGHTMAP_AUTO)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "PNG heightmap: a colour image that is neither grey nor recognisably "
                   "Terrain-RGB or Terrarium (red spans %u to %u): its heights cannot be told "
                   "from its pixels; name its encoding with --heightmap-format terrain-rgb, "
                   "terrarium or gray (a greyscale copy)", scan->r_min, scan->r_max);
      return FALSE;
    }

  if (format != NULL)
    *format = found;
  if (lo != NULL)
    *lo = found == TERRAIN_HEIGHTMAP_TERRAIN_RGB ? scan->rgb_lo :
          found == TERRAIN_HEIGHTMAP_TERRARIUM ? scan->terrarium_lo : scan->r_min;
  if (hi != NULL)
    *hi = found == TERRAIN_HEIGHTMAP_TERRAIN_RGB ? scan->rgb_hi :
          found == TERRAIN_HEIGHTMAP_TERRARIUM ? scan->terrarium_hi : scan->r_max;
  return TRUE;
}

/* Rows a detection sniff decodes at most: enough to tell an encoded
 * heightmap from a texture, few enough to cost nothing on a large one. */
#define SNIFF_ROWS 16

gboolean
terrain_heightmap_sniff_colour_png (const guint8 *data,
                                    gsize         size)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainPngRows) rows = NULL;
  TerrainImageFormat kind;
  TerrainHeightmapFormat found;
  TerrainColourScan scan;
  guint n_rows;

  if (data == NULL || size == 0)
    return FALSE;
  bytes = g_bytes_new_static (data, size);
  rows = terrain_png_rows_new (bytes, terrain_limits_get_default (), "PNG heightmap", NULL);
  if (rows == NULL)
    return FALSE;
  n_rows = terrain_png_rows_get_info (rows, NULL, NULL, &kind, NULL);
  if (kind != TERRAIN_IMAGE_RGBA8)
    return FALSE;

  terrain_colour_scan_init (&scan);
  for (guint i = 0; i < MIN (n_rows, SNIFF_ROWS); i++)
    {
      TerrainPngRow row;

      if (!terrain_png_rows_next (rows, &row, NULL))
        return FALSE;
      terrain_colour_scan_row (&scan, row.pixels, row.n_pixels);
    }
  return !scan.grey &&
         terrain_colour_scan_finish (&scan, TERRAIN_HEIGHTMAP_AUTO, &found, NULL, NULL, NULL) &&
         (found == TERRAIN_HEIGHTMAP_TERRAIN_RGB || found == TERRAIN_HEIGHTMAP_TERRARIUM);
}

/* Exact integer square root of @n, or 0 when @n is not a square. */
guint
terrain_exact_sqrt (guint64 n)
{
  guint64 r = (guint64) sqrt ((double) n);

  while (r * r > n)
    r--;
  while ((r + 1) * (r + 1) <= n)
    r++;
  return r * r == n && r <= G_MAXUINT ? (guint) r : 0;
}

/* One pass of linear interpolation along lines (rows when @step is 1,
 * columns when it is the width) over samples whose state is 0 (valid):
 * states 1 (unfilled) and 2 (filled by a previous direction) take the
 * interpolated value (averaged with the previous one for 2) and become 3. */
static void
fill_lines (gfloat *samples,
            guint8 *state,
            guint   lines,
            guint   length,
            gsize   line_step,
            gsize   step,
            gboolean average)
{
  for (guint l = 0; l < lines; l++)
    {
      gsize base = l * line_step;
      gint64 prev = -1;

      for (guint i = 0; i <= length; i++)
        {
          gboolean valid = i < length && state[base + i * step] == 0;

          if (!valid && i < length)
            continue;
          /* A run of voids lies between prev and i (exclusive). */
          if ((gint64) i > prev + 1 && (prev >= 0 || i < length))
            for (guint64 k = (guint64) (prev + 1); k < i; k++)
              {
                gsize at = base + k * step;
                gfloat value;

                if (prev < 0)
                  value = samples[base + i * step];
                else if (i >= length)
                  value = samples[base + (gsize) prev * step];
                else
                  {
                    gfloat a = samples[base + (gsize) prev * step];
                    gfloat b = samples[base + i * step];
                    gdouble t = (gdouble) (k - (guint64) prev) / (gdouble) (i - (guint64) prev);

                    value = (gfloat) (a + (b - a) * t);
                  }
                if (average && state[at] == 2)
                  samples[at] = (samples[at] + value) * 0.5f;
                else
                  samples[at] = value;
                state[at] = average ? 3 : 2;
              }
          prev = i;
        }
    }
}

gboolean
terrain_heightfield_fill_voids (gfloat       *samples,
                                guint         width,
                                guint         height,
                                const guint8 *void_mask)
{
  g_autofree guint8 *state = NULL;
  gsize n = (gsize) width * height;
  gboolean any_valid = FALSE, any_void = FALSE;

  for (gsize i = 0; i < n; i++)
    {
      any_valid |= void_mask[i] == 0;
      any_void |= void_mask[i] != 0;
    }
  if (!any_void)
    return TRUE;
  if (!any_valid)
    return FALSE;

  state = g_malloc (n);
  for (gsize i = 0; i < n; i++)
    state[i] = void_mask[i] != 0 ? 1 : 0;

  /* Rows, then columns (averaged with the rows' value): a void is filled
   * from the valid samples around it in both directions. */
  fill_lines (samples, state, height, width, width, 1, FALSE);
  fill_lines (samples, state, width, height, 1, width, TRUE);

  /* Voids whose row and column had no valid sample take their row's values
   * now that the rest is filled. */
  for (gsize i = 0; i < n; i++)
    state[i] = state[i] == 1 ? 1 : 0;
  fill_lines (samples, state, height, width, width, 1, FALSE);

  return TRUE;
}

TerrainHeightfield *
terrain_heightfield_new_for_source (guint                             width,
                                    guint                             height,
                                    const TerrainHeightfieldOptions  *options,
                                    gdouble                           default_spacing,
                                    GError                          **error)
{
  return terrain_heightfield_new (width, height, spacing_or (options, default_spacing), error);
}

static gboolean
finish_voids (TerrainHeightfield  *field,
              const guint8        *mask,
              const char          *source,
              GError             **error)
{
  guint w = terrain_heightfield_get_width (field), h = terrain_heightfield_get_height (field);

  if (!terrain_heightfield_fill_voids (terrain_heightfield_get_data (field, NULL), w, h, mask))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s: every one of the %u x %u samples is void (no data)", source, w, h);
      return FALSE;
    }
  return TRUE;
}

/**
 * terrain_heightfield_new_from_image:
 * @image: a decoded PNG: %TERRAIN_IMAGE_GRAY8 or %TERRAIN_IMAGE_GRAY16 for
 *   %TERRAIN_HEIGHTMAP_GRAY, %TERRAIN_IMAGE_RGBA8 for the RGB encodings
 * @format: %TERRAIN_HEIGHTMAP_GRAY, %TERRAIN_HEIGHTMAP_TERRAIN_RGB or
 *   %TERRAIN_HEIGHTMAP_TERRARIUM
 * @options: (nullable): vertical scale and offset, spacing and no-data
 *   value, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Reads heights from an image, row 0 (the top) being the north edge.
 * Greyscale: metres = value × vertical scale + vertical offset; a 16-bit
 * image without a no-data value is used in place (no float copy). Mapbox
 * Terrain-RGB: −10000 + (R × 65536 + G × 256 + B) × 0.1; Terrarium: R × 256
 * + G + B / 256 − 32768; both then × vertical scale + vertical offset.
 * Samples equal to the no-data value (greyscale value, or the decoded metres
 * of the RGB encodings) are filled from their neighbours.
 *
 * Returns: (transfer full) (nullable): the heightfield, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE when the image's channels do not suit
 *   @format or the options are bad
 */
TerrainHeightfield *
terrain_heightfield_new_from_image (TerrainImage                     *image,
                                    TerrainHeightmapFormat            format,
                                    const TerrainHeightfieldOptions  *options,
                                    GError                          **error)
{
  TerrainHeightfieldOptions defaults;
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autofree guint8 *mask = NULL;
  TerrainImageFormat kind;
  guint w, h;
  gsize stride;
  const guint8 *pixels;
  gfloat *out;
  gboolean has_nodata;
  gdouble scale, offset;

  g_return_val_if_fail (image != NULL, NULL);

  options = options_or_default (options, &defaults);
  if (!check_options (options, "Heightmap image", error))
    return NULL;

  kind = terrain_image_get_format (image);
  w = terrain_image_get_width (image);
  h = terrain_image_get_height (image);
  stride = terrain_image_get_stride (image);
  pixels = terrain_image_get_data (image, NULL);
  has_nodata = !isnan (options->nodata);
  scale = options->vertical_scale;
  offset = options->vertical_offset;

  /* A colour image's pixels decide (or check) its encoding: the one rule
   * every heightmap reader follows (terrain_colour_scan_finish()). */
  if (kind == TERRAIN_IMAGE_RGBA8 &&
      (format == TERRAIN_HEIGHTMAP_AUTO || format == TERRAIN_HEIGHTMAP_GRAY))
    {
      TerrainColourScan scan;

      terrain_colour_scan_init (&scan);
      for (guint y = 0; y < h; y++)
        terrain_colour_scan_row (&scan, pixels + (gsize) y * stride, w);
      if (!terrain_colour_scan_finish (&scan, format, &format, NULL, NULL, error))
        return NULL;
    }
  else if (format == TERRAIN_HEIGHTMAP_AUTO)
    format = TERRAIN_HEIGHTMAP_GRAY;
  if ((format == TERRAIN_HEIGHTMAP_TERRAIN_RGB || format == TERRAIN_HEIGHTMAP_TERRARIUM) &&
      kind != TERRAIN_IMAGE_RGBA8)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Heightmap image: a greyscale image cannot hold %s heights (RGB needed)",
                   format == TERRAIN_HEIGHTMAP_TERRAIN_RGB ? "Terrain-RGB" : "Terrarium");
      return NULL;
    }
  if (format != TERRAIN_HEIGHTMAP_GRAY && format != TERRAIN_HEIGHTMAP_TERRAIN_RGB &&
      format != TERRAIN_HEIGHTMAP_TERRARIUM)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                           "Heightmap image: only greyscale, Terrain-RGB and Terrarium images "
                           "hold heights");
      return NULL;
    }
  if (w == 0 || h == 0 || w > TERRAIN_HEIGHTFIELD_MAX_SIDE || h > TERRAIN_HEIGHTFIELD_MAX_SIDE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Heightmap image: %u x %u pixels is outside 1 to %u on a side", w, h,
                   TERRAIN_HEIGHTFIELD_MAX_SIDE);
      return NULL;
    }

  /* 16-bit grey: keep the decoded image as the storage. */
  if (kind == TERRAIN_IMAGE_GRAY16 && !has_nodata && stride == (gsize) w * 2)
    {
      g_autoptr(GBytes) bytes = g_bytes_new_with_free_func (pixels, (gsize) h * stride,
                                                            (GDestroyNotify) terrain_image_unref,
                                                            terrain_image_ref (image));

      return terrain_heightfield_new_for_storage (w, h, HEIGHTFIELD_U16, bytes, 0, scale, offset,
                                                  spacing_or (options, 1.0));
    }

  field = terrain_heightfield_new_for_source (w, h, options, 1.0, error);
  if (field == NULL)
    return NULL;
  out = terrain_heightfield_get_data (field, NULL);
  if (has_nodata)
    mask = g_malloc0 ((gsize) w * h);

  for (guint y = 0; y < h; y++)
    {
      const guint8 *row = pixels + (gsize) y * stride;

      for (guint x = 0; x < w; x++)
        {
          gsize i = (gsize) y * w + x;
          gdouble value;

          switch (kind)
            {
            case TERRAIN_IMAGE_GRAY8:
              value = row[x];
              break;
            case TERRAIN_IMAGE_GRAY16:
              {
                guint16 v;

                memcpy (&v, row + 2 * (gsize) x, 2);
                value = v;
              }
              break;
            case TERRAIN_IMAGE_RGBA8:
            default:
              {
                const guint8 *p = row + 4 * (gsize) x;

                if (format == TERRAIN_HEIGHTMAP_GRAY)
                  value = p[0];   /* every pixel grey: checked above */
                else if (format == TERRAIN_HEIGHTMAP_TERRAIN_RGB)
                  value = terrain_decode_terrain_rgb (p);
                else
                  value = terrain_decode_terrarium (p);
              }
              break;
            }

          if (has_nodata && value == options->nodata)
            mask[i] = 1;
          out[i] = (gfloat) (value * scale + offset);
        }
    }

  if (mask != NULL && !finish_voids (field, mask, "Heightmap image", error))
    return NULL;

  return g_steal_pointer (&field);
}

/**
 * terrain_heightfield_new_from_raw16:
 * @bytes: headerless little-endian U16 samples, row 0 (north) first
 * @options: (nullable): the grid size (@raw_width, @raw_height; a square is
 *   inferred from the length when both are 0), vertical scale and offset,
 *   spacing and no-data value
 * @error: return location for a #GError
 *
 * Reads a raw16 heightmap, TGEA's input format: metres = value × vertical
 * scale + vertical offset. The grid is a view of @bytes (memory-mapped when
 * it comes from [func@Terrain.Heightfield.load]), not a copy, unless a
 * no-data value asks for voids to be filled.
 *
 * Returns: (transfer full) (nullable): the heightfield, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE when the length does not match the given
 *   size or is not that of a square grid
 */
TerrainHeightfield *
terrain_heightfield_new_from_raw16 (GBytes                           *bytes,
                                    const TerrainHeightfieldOptions  *options,
                                    GError                          **error)
{
  TerrainHeightfieldOptions defaults;
  gsize size = 0;
  const guint8 *data;
  guint64 samples;
  guint w, h;

  g_return_val_if_fail (bytes != NULL, NULL);

  options = options_or_default (options, &defaults);
  if (!check_options (options, "Raw16 heightmap", error))
    return NULL;

  data = g_bytes_get_data (bytes, &size);
  if (size % 2 != 0 || size == 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Raw16 heightmap: %" G_GSIZE_FORMAT " bytes is not a whole, non-zero number "
                   "of 16-bit samples", size);
      return NULL;
    }
  samples = size / 2;

  w = options->raw_width;
  h = options->raw_height;
  if (w == 0 && h == 0)
    {
      w = h = terrain_exact_sqrt (samples);
      if (w == 0)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "Raw16 heightmap: %" G_GUINT64_FORMAT " samples do not make a square "
                       "grid; give the size (WIDTHxHEIGHT)", samples);
          return NULL;
        }
    }
  else if (h == 0 || w == 0)
    {
      guint given = MAX (w, h);

      if (samples % given != 0)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "Raw16 heightmap: %" G_GUINT64_FORMAT " samples are not a whole number "
                       "of rows of %u", samples, given);
          return NULL;
        }
      if (w == 0)
        w = (guint) MIN (samples / given, (guint64) G_MAXUINT);
      else
        h = (guint) MIN (samples / given, (guint64) G_MAXUINT);
    }
  if ((guint64) w * h != samples)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Raw16 heightmap: %u x %u samples need %" G_GUINT64_FORMAT " bytes, the "
                   "file has %" G_GSIZE_FORMAT, w, h, (guint64) w * h * 2, size);
      return NULL;
    }
  if (w > TERRAIN_HEIGHTFIELD_MAX_SIDE || h > TERRAIN_HEIGHTFIELD_MAX_SIDE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Raw16 heightmap: %u x %u samples is more than %u on a side", w, h,
                   TERRAIN_HEIGHTFIELD_MAX_SIDE);
      return NULL;
    }

  if (isnan (options->nodata))
    return terrain_heightfield_new_for_storage (w, h, HEIGHTFIELD_U16_LE, bytes, 0,
                                                options->vertical_scale,
                                                options->vertical_offset,
                                                spacing_or (options, 1.0));

  {
    g_autoptr(TerrainHeightfield) field = terrain_heightfield_new_for_source (w, h, options, 1.0, error);
    g_autofree guint8 *mask = NULL;
    gfloat *out;

    if (field == NULL)
      return NULL;
    out = terrain_heightfield_get_data (field, NULL);
    mask = g_malloc0 (samples);
    for (gsize i = 0; i < samples; i++)
      {
        guint16 v = (guint16) (data[2 * i] | (data[2 * i + 1] << 8));

        mask[i] = v == options->nodata;
        out[i] = (gfloat) (v * options->vertical_scale + options->vertical_offset);
      }
    if (!finish_voids (field, mask, "Raw16 heightmap", error))
      return NULL;
    return g_steal_pointer (&field);
  }
}

/**
 * terrain_heightfield_new_from_hgt:
 * @bytes: an SRTM `.hgt` tile: big-endian S16 metres, row 0 the north edge
 * @options: (nullable): vertical scale and offset and spacing (by default
 *   90 m for 1201² SRTM3 tiles, 30 m for 3601² SRTM1 tiles, else 1 m)
 * @error: return location for a #GError
 *
 * Reads an SRTM tile. The side follows from the file length (a square);
 * voids (−32768, or the no-data value when one is given) are filled by
 * interpolating the valid samples along the row and the column around them.
 * A tile without voids is read in place from @bytes, not copied.
 *
 * Returns: (transfer full) (nullable): the heightfield, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE when the length is not that of a square
 *   grid of 16-bit samples or every sample is void
 */
TerrainHeightfield *
terrain_heightfield_new_from_hgt (GBytes                           *bytes,
                                  const TerrainHeightfieldOptions  *options,
                                  GError                          **error)
{
  TerrainHeightfieldOptions defaults;
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autofree guint8 *mask = NULL;
  gsize size = 0;
  const guint8 *data;
  gfloat *out;
  guint side;
  gdouble spacing;
  gboolean any_void = FALSE;

  g_return_val_if_fail (bytes != NULL, NULL);

  options = options_or_default (options, &defaults);
  if (!check_options (options, "HGT", error))
    return NULL;

  data = g_bytes_get_data (bytes, &size);
  side = size % 2 == 0 ? terrain_exact_sqrt (size / 2) : 0;
  if (side == 0 || side > TERRAIN_HEIGHTFIELD_MAX_SIDE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "HGT: %" G_GSIZE_FORMAT " bytes is not a square grid of 16-bit samples "
                   "(1201 x 1201 or 3601 x 3601 for SRTM tiles)", size);
      return NULL;
    }

  spacing = side == HGT_SRTM3_SIDE ? HGT_SRTM3_SPACING :
            side == HGT_SRTM1_SIDE ? HGT_SRTM1_SPACING : 1.0;

  /* Without voids the tile is used in place (memory-mapped when loaded
   * from a file); voids need a filled copy. */
  for (gsize i = 0; i < (gsize) side * side && !any_void; i++)
    {
      gint16 v = (gint16) (guint16) ((data[2 * i] << 8) | data[2 * i + 1]);

      any_void = v == HGT_VOID || v == options->nodata;
    }
  if (!any_void)
    return terrain_heightfield_new_for_storage (side, side, HEIGHTFIELD_S16_BE, bytes, 0,
                                                options->vertical_scale,
                                                options->vertical_offset,
                                                spacing_or (options, spacing));
  any_void = FALSE;

  field = terrain_heightfield_new_for_source (side, side, options, spacing, error);
  if (field == NULL)
    return NULL;
  out = terrain_heightfield_get_data (field, NULL);
  mask = g_malloc0 ((gsize) side * side);

  for (gsize i = 0; i < (gsize) side * side; i++)
    {
      gint16 v = (gint16) (guint16) ((data[2 * i] << 8) | data[2 * i + 1]);

      if (v == HGT_VOID || v == options->nodata)
        {
          mask[i] = 1;
          any_void = TRUE;
        }
      out[i] = (gfloat) (v * options->vertical_scale + options->vertical_offset);
    }

  if (any_void && !finish_voids (field, mask, "HGT", error))
    return NULL;
  return g_steal_pointer (&field);
}

void
terrain_heightfield_apply_vertical (TerrainHeightfield              *field,
                                    const TerrainHeightfieldOptions *options)
{
  gsize n = 0;
  gfloat *data = terrain_heightfield_get_data (field, &n);

  if (options->vertical_scale == 1.0 && options->vertical_offset == 0.0)
    return;
  for (gsize i = 0; i < n; i++)
    data[i] = (gfloat) (data[i] * options->vertical_scale + options->vertical_offset);
}

/* Walks every family's height sources; stops when @func returns TRUE. */
static const TerrainHeightSourceInfo *
find_source (gboolean (*func) (const TerrainHeightSourceInfo *info, gconstpointer data),
             gconstpointer data)
{
  for (guint f = 0; terrain_format_families[f] != NULL; f++)
    {
      const TerrainFormatFamily *family = terrain_format_families[f];

      for (guint i = 0; i < family->n_height_sources; i++)
        if (func (&family->height_sources[i], data))
          return &family->height_sources[i];
    }
  return NULL;
}

typedef struct
{
  const guint8 *data;
  gsize size;
} SourceBytes;

static gboolean
source_matches (const TerrainHeightSourceInfo *info,
                gconstpointer                  data)
{
  const SourceBytes *bytes = data;

  return info->match != NULL && info->match (bytes->data, bytes->size);
}

static gboolean
source_has_extension (const TerrainHeightSourceInfo *info,
                      gconstpointer                  data)
{
  for (guint i = 0; info->extensions != NULL && info->extensions[i] != NULL; i++)
    if (g_ascii_strcasecmp (info->extensions[i], data) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
source_has_name (const TerrainHeightSourceInfo *info,
                 gconstpointer                  data)
{
  for (guint i = 0; info->names != NULL && info->names[i] != NULL; i++)
    if (g_ascii_strcasecmp (info->names[i], data) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
source_has_format (const TerrainHeightSourceInfo *info,
                   gconstpointer                  data)
{
  return info->format == *(const TerrainHeightmapFormat *) data;
}

/**
 * terrain_heightmap_format_detect:
 * @bytes: (nullable): the file's contents
 * @filename: (nullable): the file's name, for its extension
 *
 * Guesses a height source: a PNG signature or `.png` means a PNG heightmap,
 * returned as %TERRAIN_HEIGHTMAP_GRAY; reading it with
 * %TERRAIN_HEIGHTMAP_AUTO then lets its pixels decide between grey,
 * Terrain-RGB and Terrarium, and refuses a colour picture that is none,
 * `.hgt` SRTM, `.raw`, `.r16` or `.r16le` raw16, `.ter` Torque, `.tnt` TA.
 *
 * Returns: the format, or %TERRAIN_HEIGHTMAP_AUTO when it is unknown
 */
TerrainHeightmapFormat
terrain_heightmap_format_detect (GBytes     *bytes,
                                 const char *filename)
{
  const TerrainHeightSourceInfo *info;
  const char *dot;

  if (bytes != NULL)
    {
      SourceBytes data = { NULL, 0 };

      data.data = g_bytes_get_data (bytes, &data.size);
      if (data.data != NULL && (info = find_source (source_matches, &data)) != NULL)
        return info->format;
    }

  dot = filename != NULL ? strrchr (filename, '.') : NULL;
  if (dot != NULL && strchr (dot, G_DIR_SEPARATOR) == NULL &&
      (info = find_source (source_has_extension, dot + 1)) != NULL)
    return info->format;

  return TERRAIN_HEIGHTMAP_AUTO;
}

TerrainFormat
terrain_heightmap_format_get_document_format (TerrainHeightmapFormat format)
{
  const TerrainHeightSourceInfo *info = find_source (source_has_format, &format);

  return info != NULL ? info->document_format : TERRAIN_FORMAT_UNKNOWN;
}

/**
 * terrain_heightmap_format_from_name:
 * @name: a name: `gray` (or `grey`, `png`), `terrain-rgb` (or `mapbox`),
 *   `terrarium`, `raw16` (or `raw`, `r16`), `hgt` (or `srtm`), `ter`, `tnt`,
 *   `auto`; case is ignored
 *
 * Looks a height source up by name, as the command line names it.
 *
 * Returns: the format, or %TERRAIN_HEIGHTMAP_AUTO for `auto` and unknown
 *   names
 */
TerrainHeightmapFormat
terrain_heightmap_format_from_name (const char *name)
{
  const TerrainHeightSourceInfo *info;

  g_return_val_if_fail (name != NULL, TERRAIN_HEIGHTMAP_AUTO);

  info = find_source (source_has_name, name);
  return info != NULL ? info->format : TERRAIN_HEIGHTMAP_AUTO;
}

/**
 * terrain_heightfield_new_from_bytes:
 * @bytes: the source's contents
 * @filename: (nullable): the source's name, for its extension when the
 *   format is automatic, and for messages
 * @options: (nullable): how to read the source, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Reads heights from any source [enum@Terrain.HeightmapFormat] names
 * (detected with [func@Terrain.heightmap_format_detect] when
 * @options asks for %TERRAIN_HEIGHTMAP_AUTO). Raw16 grids stay views of
 * @bytes.
 *
 * Returns: (transfer full) (nullable): the heightfield, or %NULL with
 *   %TERRAIN_ERROR_UNKNOWN_FORMAT when the format cannot be told, or the
 *   source's error
 */
TerrainHeightfield *
terrain_heightfield_new_from_bytes (GBytes                           *bytes,
                                    const char                       *filename,
                                    const TerrainHeightfieldOptions  *options,
                                    GError                          **error)
{
  TerrainHeightfieldOptions defaults;
  const TerrainHeightSourceInfo *info;
  TerrainHeightmapFormat format;

  g_return_val_if_fail (bytes != NULL, NULL);

  options = options_or_default (options, &defaults);
  if (!check_options (options, filename != NULL ? filename : "Heightmap", error))
    return NULL;

  format = options->format;
  if (format == TERRAIN_HEIGHTMAP_AUTO)
    format = terrain_heightmap_format_detect (bytes, filename);

  info = format != TERRAIN_HEIGHTMAP_AUTO ? find_source (source_has_format, &format) : NULL;
  if (info == NULL)
    {
      g_autoptr(GString) known = g_string_new (NULL);

      for (guint f = 0; terrain_format_families[f] != NULL; f++)
        for (guint i = 0; i < terrain_format_families[f]->n_height_sources; i++)
          {
            const char * const *extensions = terrain_format_families[f]->height_sources[i].extensions;

            for (guint e = 0; extensions != NULL && extensions[e] != NULL; e++)
              g_string_append_printf (known, "%s.%s", known->len > 0 ? ", " : "", extensions[e]);
          }
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNKNOWN_FORMAT,
                   "Heightmap: not a source libterrain recognises (%s); name the format",
                   known->str);
      return NULL;
    }
  return info->read (bytes, options, error);
}

/**
 * terrain_heightfield_load:
 * @file: the source
 * @options: (nullable): how to read it, or %NULL for the defaults
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Reads heights from a file (see [ctor@Terrain.Heightfield.new_from_bytes]).
 * Local files are memory-mapped, so a raw16 grid is read in place and costs
 * no memory beyond the pages the builder touches.
 *
 * Returns: (transfer full) (nullable): the heightfield, or %NULL with a
 *   %TERRAIN_ERROR
 */
TerrainHeightfield *
terrain_heightfield_load (GFile                            *file,
                          const TerrainHeightfieldOptions  *options,
                          GCancellable                     *cancellable,
                          GError                          **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *name = NULL;
  TerrainHeightfield *field;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  bytes = terrain_file_load_bytes (file, cancellable, error);
  if (bytes == NULL)
    return NULL;
  name = g_file_get_basename (file);
  field = terrain_heightfield_new_from_bytes (bytes, name, options, error);
  if (field == NULL)
    {
      g_autofree char *parse_name = g_file_get_parse_name (file);

      g_prefix_error (error, "%s: ", parse_name);
    }
  return field;
}
