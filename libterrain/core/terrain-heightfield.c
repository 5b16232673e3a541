/* terrain-heightfield.c: a grid of heights in metres
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-heightfield.h"
#include "terrain-heightfield-private.h"
#include "terrain-error.h"

/**
 * TerrainHeightfield:
 *
 * A width × height grid of heights in metres with a horizontal sample
 * spacing in metres: the common input of the terrain builders, whatever the
 * source (greyscale, Terrain-RGB or Terrarium PNG, raw16, SRTM `.hgt`,
 * Torque `.ter`, Total Annihilation `.tnt`; see
 * [func@Terrain.Heightfield.load]).
 *
 * Sample (x, y) is column x and row y, row 0 being the north edge (the top
 * of an image): world X grows with x and world Y shrinks as y grows.
 *
 * Samples are stored the cheapest way the source allows: floats, the 16-bit
 * values of a greyscale PNG with a scale and offset, or the bytes of a
 * memory-mapped raw16 or SRTM file, so a 16385² raw file costs no copy.
 * A padded grid ([method@Terrain.Heightfield.fit]) is a view that repeats the
 * last stored row and column. Only float grids made by libterrain are
 * writable ([method@Terrain.Heightfield.get_data]).
 */
G_DEFINE_FINAL_TYPE (TerrainHeightfield, terrain_heightfield, G_TYPE_OBJECT)

G_DEFINE_BOXED_TYPE (TerrainHeightfieldOptions, terrain_heightfield_options,
                     terrain_heightfield_options_copy, terrain_heightfield_options_free)

/**
 * terrain_heightfield_options_init:
 * @options: options to reset
 *
 * Sets the defaults: automatic format, vertical scale 1, offset 0, the
 * source's own spacing, an inferred raw size and no no-data value.
 */
void
terrain_heightfield_options_init (TerrainHeightfieldOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->format = TERRAIN_HEIGHTMAP_AUTO;
  options->vertical_scale = 1.0;
  options->vertical_offset = 0.0;
  options->spacing = 0.0;
  options->nodata = NAN;
}

/**
 * terrain_heightfield_options_new:
 *
 * Makes a set of heightfield source options.
 *
 * Returns: (transfer full): options with the defaults of
 *   [method@Terrain.HeightfieldOptions.init]
 */
TerrainHeightfieldOptions *
terrain_heightfield_options_new (void)
{
  TerrainHeightfieldOptions *options = g_new (TerrainHeightfieldOptions, 1);

  terrain_heightfield_options_init (options);
  return options;
}

/**
 * terrain_heightfield_options_copy:
 * @options: options
 *
 * Copies a set of options.
 *
 * Returns: (transfer full): a copy of @options
 */
TerrainHeightfieldOptions *
terrain_heightfield_options_copy (const TerrainHeightfieldOptions *options)
{
  g_return_val_if_fail (options != NULL, NULL);

  return g_memdup2 (options, sizeof *options);
}

/**
 * terrain_heightfield_options_free:
 * @options: options
 *
 * Frees options made by [ctor@Terrain.HeightfieldOptions.new].
 */
void
terrain_heightfield_options_free (TerrainHeightfieldOptions *options)
{
  g_free (options);
}

static void
terrain_heightfield_finalize (GObject *object)
{
  TerrainHeightfield *self = TERRAIN_HEIGHTFIELD (object);

  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_mutex_clear (&self->range_lock);

  G_OBJECT_CLASS (terrain_heightfield_parent_class)->finalize (object);
}

static void
terrain_heightfield_class_init (TerrainHeightfieldClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = terrain_heightfield_finalize;
}

static void
terrain_heightfield_init (TerrainHeightfield *self)
{
  self->spacing = 1.0;
  self->scale = 1.0;
  g_mutex_init (&self->range_lock);
}

static gboolean
check_size (guint    width,
            guint    height,
            GError **error)
{
  if (width == 0 || height == 0 || width > TERRAIN_HEIGHTFIELD_MAX_SIDE ||
      height > TERRAIN_HEIGHTFIELD_MAX_SIDE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Heightfield: %u x %u samples is outside 1 to %u on a side",
                   width, height, TERRAIN_HEIGHTFIELD_MAX_SIDE);
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_spacing (gdouble   spacing,
               GError  **error)
{
  if (!isfinite (spacing) || spacing <= 0.0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Heightfield: sample spacing %g m is not finite and positive", spacing);
      return FALSE;
    }
  return TRUE;
}

TerrainHeightfield *
terrain_heightfield_new_for_storage (guint               width,
                                     guint               height,
                                     HeightfieldStorage  storage,
                                     GBytes             *bytes,
                                     gsize               offset,
                                     gdouble             scale,
                                     gdouble             value_offset,
                                     gdouble             spacing)
{
  TerrainHeightfield *self = g_object_new (TERRAIN_TYPE_HEIGHTFIELD, NULL);

  self->width = self->data_width = width;
  self->height = self->data_height = height;
  self->storage = storage;
  self->bytes = g_bytes_ref (bytes);
  self->samples = (const guint8 *) g_bytes_get_data (bytes, NULL) + offset;
  self->scale = scale;
  self->offset = value_offset;
  self->spacing = spacing;
  return self;
}

/**
 * terrain_heightfield_new:
 * @width: samples per row, 1 to %TERRAIN_HEIGHTFIELD_MAX_SIDE
 * @height: rows, 1 to %TERRAIN_HEIGHTFIELD_MAX_SIDE
 * @spacing: metres between neighbouring samples, finite and positive
 * @error: return location for a #GError
 *
 * Makes a writable grid of zero heights, stored as floats.
 *
 * Returns: (transfer full) (nullable): the heightfield, or %NULL with
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED or %TERRAIN_ERROR_INVALID_VALUE
 */
TerrainHeightfield *
terrain_heightfield_new (guint     width,
                         guint     height,
                         gdouble   spacing,
                         GError  **error)
{
  TerrainHeightfield *self;
  g_autoptr(GBytes) bytes = NULL;
  gfloat *data;

  if (!check_size (width, height, error) || !check_spacing (spacing, error))
    return NULL;

  data = g_try_new0 (gfloat, (gsize) width * height);
  if (data == NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Heightfield: no memory for %u x %u samples", width, height);
      return NULL;
    }
  bytes = g_bytes_new_take (data, (gsize) width * height * sizeof (gfloat));
  self = terrain_heightfield_new_for_storage (width, height, HEIGHTFIELD_F32, bytes, 0,
                                              1.0, 0.0, spacing);
  self->writable = TRUE;
  return self;
}

/**
 * terrain_heightfield_new_from_data:
 * @width: samples per row
 * @height: rows
 * @heights: (array) (element-type gfloat): @width × @height heights in
 *   metres, row 0 first
 * @spacing: metres between neighbouring samples
 * @error: return location for a #GError
 *
 * Makes a writable grid holding a copy of @heights.
 *
 * Returns: (transfer full) (nullable): the heightfield, or %NULL as
 *   [ctor@Terrain.Heightfield.new] fails
 */
TerrainHeightfield *
terrain_heightfield_new_from_data (guint          width,
                                   guint          height,
                                   const gfloat  *heights,
                                   gdouble        spacing,
                                   GError       **error)
{
  TerrainHeightfield *self;

  g_return_val_if_fail (heights != NULL, NULL);

  self = terrain_heightfield_new (width, height, spacing, error);
  if (self != NULL)
    memcpy ((gpointer) self->samples, heights, (gsize) width * height * sizeof (gfloat));
  return self;
}

/**
 * terrain_heightfield_get_width:
 * @self: a #TerrainHeightfield
 *
 * Gets the number of samples per row.
 *
 * Returns: samples per row
 */
guint
terrain_heightfield_get_width (TerrainHeightfield *self)
{
  g_return_val_if_fail (TERRAIN_IS_HEIGHTFIELD (self), 0);
  return self->width;
}

/**
 * terrain_heightfield_get_height:
 * @self: a #TerrainHeightfield
 *
 * Gets the number of rows.
 *
 * Returns: number of rows
 */
guint
terrain_heightfield_get_height (TerrainHeightfield *self)
{
  g_return_val_if_fail (TERRAIN_IS_HEIGHTFIELD (self), 0);
  return self->height;
}

/**
 * terrain_heightfield_get_data_size:
 * @self: a #TerrainHeightfield
 * @width: (out) (optional): columns holding source data
 * @height: (out) (optional): rows holding source data
 *
 * Gives the part of the grid that came from the source: the whole grid,
 * except after padding ([method@Terrain.Heightfield.fit]), where the columns
 * and rows beyond it repeat the edges. Textures are laid over this part.
 */
void
terrain_heightfield_get_data_size (TerrainHeightfield *self,
                                   guint              *width,
                                   guint              *height)
{
  g_return_if_fail (TERRAIN_IS_HEIGHTFIELD (self));

  if (width != NULL)
    *width = self->data_width;
  if (height != NULL)
    *height = self->data_height;
}

/**
 * terrain_heightfield_get_spacing:
 * @self: a #TerrainHeightfield
 *
 * Gets the horizontal distance between neighbouring samples.
 *
 * Returns: metres between neighbouring samples
 */
gdouble
terrain_heightfield_get_spacing (TerrainHeightfield *self)
{
  g_return_val_if_fail (TERRAIN_IS_HEIGHTFIELD (self), 1.0);
  return self->spacing;
}

/**
 * terrain_heightfield_set_spacing:
 * @self: a #TerrainHeightfield
 * @spacing: metres between neighbouring samples, finite and positive
 *
 * Changes the horizontal sample spacing.
 */
void
terrain_heightfield_set_spacing (TerrainHeightfield *self,
                                 gdouble             spacing)
{
  g_return_if_fail (TERRAIN_IS_HEIGHTFIELD (self));
  g_return_if_fail (isfinite (spacing) && spacing > 0.0);

  self->spacing = spacing;
}

/**
 * terrain_heightfield_is_mapped:
 * @self: a #TerrainHeightfield
 *
 * Tells whether the grid reads a raw16 file in place.
 *
 * Returns: %TRUE when the samples are the bytes of a (memory-mapped) raw16
 *   or SRTM file rather than a decoded copy, or the 16-bit temporary file
 *   of a tiled heightmap ([func@Terrain.Heightfield.load_tiles])
 */
gboolean
terrain_heightfield_is_mapped (TerrainHeightfield *self)
{
  g_return_val_if_fail (TERRAIN_IS_HEIGHTFIELD (self), FALSE);
  return self->storage == HEIGHTFIELD_U16_LE || self->storage == HEIGHTFIELD_S16_BE;
}

/**
 * terrain_heightfield_get_data:
 * @self: a #TerrainHeightfield
 * @n_samples: (out) (optional): width × height
 *
 * Gives write access to the samples of a float grid made by
 * [ctor@Terrain.Heightfield.new] or [ctor@Terrain.Heightfield.new_from_data]
 * (or a source decoded to floats), row 0 first.
 *
 * Returns: (nullable) (transfer none) (array length=n_samples): the
 *   samples, or %NULL when the grid is not a writable float grid (16-bit,
 *   mapped or padded)
 */
gfloat *
terrain_heightfield_get_data (TerrainHeightfield *self,
                              gsize              *n_samples)
{
  g_return_val_if_fail (TERRAIN_IS_HEIGHTFIELD (self), NULL);

  if (n_samples != NULL)
    *n_samples = 0;
  if (!self->writable || self->width != self->data_width || self->height != self->data_height)
    return NULL;
  if (n_samples != NULL)
    *n_samples = (gsize) self->width * self->height;
  return (gfloat *) (gpointer) self->samples;
}

/**
 * terrain_heightfield_get_sample:
 * @self: a #TerrainHeightfield
 * @x: column, below the width
 * @y: row, below the height
 *
 * Reads one height.
 *
 * Returns: the height at (@x, @y) in metres
 */
gfloat
terrain_heightfield_get_sample (TerrainHeightfield *self,
                                guint               x,
                                guint               y)
{
  g_return_val_if_fail (TERRAIN_IS_HEIGHTFIELD (self), 0.0f);
  g_return_val_if_fail (x < self->width && y < self->height, 0.0f);

  return terrain_heightfield_sample_stored (self, x, y);
}

/**
 * terrain_heightfield_set_sample:
 * @self: a writable #TerrainHeightfield (see
 *   [method@Terrain.Heightfield.get_data])
 * @x: column
 * @y: row
 * @z: height in metres
 *
 * Sets one height.
 */
void
terrain_heightfield_set_sample (TerrainHeightfield *self,
                                guint               x,
                                guint               y,
                                gfloat              z)
{
  gfloat *data;

  g_return_if_fail (TERRAIN_IS_HEIGHTFIELD (self));
  g_return_if_fail (x < self->width && y < self->height);

  data = terrain_heightfield_get_data (self, NULL);
  g_return_if_fail (data != NULL);
  data[(gsize) y * self->width + x] = z;
}

/**
 * terrain_heightfield_read_rect:
 * @self: a #TerrainHeightfield
 * @x: first column
 * @y: first row
 * @width: columns to read
 * @height: rows to read
 * @dest: (array) (element-type gfloat): room for @height rows of
 *   @dest_stride floats
 * @dest_stride: floats from one row of @dest to the next, at least @width
 *
 * Copies a rectangle of heights in metres, whatever the storage. Columns
 * and rows beyond the grid repeat its last column and row (edge extension),
 * so any rectangle can be read.
 */
void
terrain_heightfield_read_rect (TerrainHeightfield *self,
                               guint               x,
                               guint               y,
                               guint               width,
                               guint               height,
                               gfloat             *dest,
                               gsize               dest_stride)
{
  g_return_if_fail (TERRAIN_IS_HEIGHTFIELD (self));
  g_return_if_fail (dest != NULL);
  g_return_if_fail (dest_stride >= width);

  for (guint r = 0; r < height; r++)
    {
      guint sy = MIN ((guint64) y + r, (guint64) self->data_height - 1);
      gsize row = (gsize) sy * self->data_width;
      gfloat *out = dest + (gsize) r * dest_stride;
      guint inside = x < self->data_width ? MIN (width, self->data_width - x) : 0;
      gfloat edge;

      switch (self->storage)
        {
        case HEIGHTFIELD_F32:
          memcpy (out, (const gfloat *) (gconstpointer) self->samples + row + x,
                  inside * sizeof (gfloat));
          break;
        case HEIGHTFIELD_U16:
          {
            const guint16 *in = (const guint16 *) (gconstpointer) self->samples + row + x;

            for (guint c = 0; c < inside; c++)
              out[c] = (gfloat) (in[c] * self->scale + self->offset);
          }
          break;
        case HEIGHTFIELD_S16_BE:
          {
            const guint8 *in = self->samples + 2 * (row + x);

            for (guint c = 0; c < inside; c++)
              out[c] = (gfloat) ((gint16) (guint16) ((in[2 * c] << 8) | in[2 * c + 1]) *
                                 self->scale + self->offset);
          }
          break;
        case HEIGHTFIELD_U16_LE:
        default:
          {
            const guint8 *in = self->samples + 2 * (row + x);

            for (guint c = 0; c < inside; c++)
              out[c] = (gfloat) ((in[2 * c] | (in[2 * c + 1] << 8)) * self->scale + self->offset);
          }
          break;
        }

      edge = terrain_heightfield_sample_stored (self, self->data_width - 1, sy);
      for (guint c = inside; c < width; c++)
        out[c] = edge;
    }
}

/**
 * terrain_heightfield_sample_bilinear:
 * @self: a #TerrainHeightfield
 * @x: column, fractional; clamped to the grid
 * @y: row, fractional; clamped to the grid
 *
 * Interpolates a height between samples.
 *
 * Returns: the height at (@x, @y), interpolated bilinearly between the four
 *   nearest samples
 */
gdouble
terrain_heightfield_sample_bilinear (TerrainHeightfield *self,
                                     gdouble             x,
                                     gdouble             y)
{
  guint x0, y0, x1, y1;
  gdouble fx, fy, a, b, c, d;

  g_return_val_if_fail (TERRAIN_IS_HEIGHTFIELD (self), 0.0);

  x = CLAMP (isnan (x) ? 0.0 : x, 0.0, (gdouble) self->width - 1);
  y = CLAMP (isnan (y) ? 0.0 : y, 0.0, (gdouble) self->height - 1);
  x0 = (guint) floor (x);
  y0 = (guint) floor (y);
  x1 = MIN (x0 + 1, self->width - 1);
  y1 = MIN (y0 + 1, self->height - 1);
  fx = x - x0;
  fy = y - y0;
  a = terrain_heightfield_sample_stored (self, x0, y0);
  b = terrain_heightfield_sample_stored (self, x1, y0);
  c = terrain_heightfield_sample_stored (self, x0, y1);
  d = terrain_heightfield_sample_stored (self, x1, y1);
  return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy;
}

/* The lowest and highest stored value of a 16-bit kind, by a scan. */
static void
scan_stored_range (const TerrainHeightfield *self,
                   gint32                   *lo,
                   gint32                   *hi)
{
  gsize n = (gsize) self->data_width * self->data_height;

  switch (self->storage)
    {
    case HEIGHTFIELD_U16:
      {
        const guint16 *in = (const guint16 *) (gconstpointer) self->samples;
        guint16 l = G_MAXUINT16, h = 0;

        for (gsize i = 0; i < n; i++)
          {
            l = MIN (l, in[i]);
            h = MAX (h, in[i]);
          }
        *lo = l;
        *hi = h;
      }
      break;
    case HEIGHTFIELD_S16_BE:
      {
        gint16 l = G_MAXINT16, h = G_MININT16;

        for (gsize i = 0; i < n; i++)
          {
            gint16 v = (gint16) (guint16) ((self->samples[2 * i] << 8) | self->samples[2 * i + 1]);

            l = MIN (l, v);
            h = MAX (h, v);
          }
        *lo = l;
        *hi = h;
      }
      break;
    case HEIGHTFIELD_U16_LE:
    default:
      {
        guint16 l = G_MAXUINT16, h = 0;

        for (gsize i = 0; i < n; i++)
          {
            guint16 v = (guint16) (self->samples[2 * i] | (self->samples[2 * i + 1] << 8));

            l = MIN (l, v);
            h = MAX (h, v);
          }
        *lo = l;
        *hi = h;
      }
      break;
    }
}

/* The same, scanned once per heightfield (the samples of a 16-bit kind are
 * never written) and shared with a padded fit of it. */
static void
stored_value_range (TerrainHeightfield *self,
                    gint32             *lo,
                    gint32             *hi)
{
  g_mutex_lock (&self->range_lock);
  if (!self->stored_range_known)
    {
      scan_stored_range (self, &self->stored_lo, &self->stored_hi);
      self->stored_range_known = TRUE;
    }
  *lo = self->stored_lo;
  *hi = self->stored_hi;
  g_mutex_unlock (&self->range_lock);
}

/**
 * terrain_heightfield_get_range:
 * @self: a #TerrainHeightfield
 * @min: (out) (optional): lowest height in metres
 * @max: (out) (optional): highest height in metres
 *
 * Scans the stored samples for their range.
 */
void
terrain_heightfield_get_range (TerrainHeightfield *self,
                               gfloat             *min,
                               gfloat             *max)
{
  g_autofree gfloat *row = NULL;
  gfloat lo = INFINITY, hi = -INFINITY;

  g_return_if_fail (TERRAIN_IS_HEIGHTFIELD (self));

  /* 16-bit kinds: metres are a monotonic function of the stored value
   * (rounded once, as terrain_heightfield_sample_stored() rounds it), so
   * the extreme values give the range without converting every sample. */
  if (self->storage != HEIGHTFIELD_F32 && isfinite (self->scale) && isfinite (self->offset) &&
      self->data_width > 0 && self->data_height > 0)
    {
      gint32 vlo, vhi;
      gfloat a, b;

      stored_value_range (self, &vlo, &vhi);
      a = (gfloat) (vlo * self->scale + self->offset);
      b = (gfloat) (vhi * self->scale + self->offset);
      if (min != NULL)
        *min = MIN (a, b);
      if (max != NULL)
        *max = MAX (a, b);
      return;
    }

  row = g_new (gfloat, self->data_width);
  for (guint y = 0; y < self->data_height; y++)
    {
      terrain_heightfield_read_rect (self, 0, y, self->data_width, 1, row, self->data_width);
      for (guint x = 0; x < self->data_width; x++)
        {
          lo = MIN (lo, row[x]);
          hi = MAX (hi, row[x]);
        }
    }

  if (min != NULL)
    *min = lo;
  if (max != NULL)
    *max = hi;
}

static guint
chunkable_side (guint side)
{
  guint n = 2;

  while (n + 1 < side)
    n *= 2;
  return n + 1;
}

/**
 * terrain_heightfield_is_chunkable:
 * @self: a #TerrainHeightfield
 *
 * Tells whether the grid has the shape of a chunked-LOD tree.
 *
 * Returns: %TRUE when the grid is square and 2^N+1 samples on a side
 *   (N ≥ 1), the shape chunked-LOD trees are cut from
 */
gboolean
terrain_heightfield_is_chunkable (TerrainHeightfield *self)
{
  g_return_val_if_fail (TERRAIN_IS_HEIGHTFIELD (self), FALSE);

  return self->width == self->height && self->width >= 3 &&
         chunkable_side (self->width) == self->width;
}

/**
 * terrain_heightfield_fit:
 * @self: a #TerrainHeightfield
 * @fit: how to reach a square 2^N+1 grid
 * @error: return location for a #GError
 *
 * Makes a grid that chunked-LOD trees can be cut from: square, 2^N+1
 * samples on a side, the smallest such side not below the larger of the
 * width and height. %TERRAIN_HEIGHTFIELD_FIT_PAD keeps every sample where
 * it is and repeats the last column and row (a view sharing the samples:
 * no copy); %TERRAIN_HEIGHTFIELD_FIT_RESAMPLE stretches the grid over the
 * new one bilinearly, scaling the spacing by (old side − 1) / (new side − 1)
 * of the wider axis so the terrain keeps its size. Nothing is ever cropped.
 *
 * Returns: (transfer full) (nullable): the fitted grid (@self itself when it
 *   already fits), or %NULL with %TERRAIN_ERROR_INVALID_VALUE for
 *   %TERRAIN_HEIGHTFIELD_FIT_NONE and a grid that does not fit, or
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED when the fitted side would pass
 *   %TERRAIN_HEIGHTFIELD_MAX_SIDE
 */
TerrainHeightfield *
terrain_heightfield_fit (TerrainHeightfield     *self,
                         TerrainHeightfieldFit   fit,
                         GError                **error)
{
  TerrainHeightfield *fitted;
  guint side;

  g_return_val_if_fail (TERRAIN_IS_HEIGHTFIELD (self), NULL);

  if (terrain_heightfield_is_chunkable (self))
    return g_object_ref (self);

  side = chunkable_side (MAX (self->width, self->height));
  if (fit == TERRAIN_HEIGHTFIELD_FIT_NONE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Heightfield: %u x %u samples is not square and 2^N+1 on a side (the "
                   "next such size is %u x %u; pad or resample to reach it)",
                   self->width, self->height, side, side);
      return NULL;
    }
  if (side > TERRAIN_HEIGHTFIELD_MAX_SIDE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Heightfield: fitting %u x %u samples needs %u on a side, more than %u",
                   self->width, self->height, side, TERRAIN_HEIGHTFIELD_MAX_SIDE);
      return NULL;
    }

  if (fit == TERRAIN_HEIGHTFIELD_FIT_PAD)
    {
      fitted = g_object_new (TERRAIN_TYPE_HEIGHTFIELD, NULL);
      fitted->width = fitted->height = side;
      fitted->data_width = self->data_width;
      fitted->data_height = self->data_height;
      fitted->spacing = self->spacing;
      fitted->storage = self->storage;
      fitted->bytes = g_bytes_ref (self->bytes);
      fitted->samples = self->samples;
      fitted->scale = self->scale;
      fitted->offset = self->offset;
      fitted->writable = FALSE;
      g_mutex_lock (&self->range_lock);
      fitted->stored_range_known = self->stored_range_known;
      fitted->stored_lo = self->stored_lo;
      fitted->stored_hi = self->stored_hi;
      g_mutex_unlock (&self->range_lock);
      return fitted;
    }

  {
    guint wide = MAX (self->width, self->height);
    gdouble sx = self->width > 1 ? (self->width - 1) / (gdouble) (side - 1) : 0.0;
    gdouble sy = self->height > 1 ? (self->height - 1) / (gdouble) (side - 1) : 0.0;
    gfloat *out;

    fitted = terrain_heightfield_new (side, side,
                                      self->spacing * MAX (wide - 1, 1) / (gdouble) (side - 1),
                                      error);
    if (fitted == NULL)
      return NULL;
    out = terrain_heightfield_get_data (fitted, NULL);
    for (guint y = 0; y < side; y++)
      for (guint x = 0; x < side; x++)
        out[(gsize) y * side + x] = (gfloat) terrain_heightfield_sample_bilinear (self, x * sx,
                                                                                  y * sy);
    return fitted;
  }
}

static gboolean
check_encoding (gdouble   scale,
                gdouble   offset,
                GError  **error)
{
  if (!isfinite (scale) || scale == 0.0 || !isfinite (offset))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Heightfield: cannot encode with vertical scale %g and offset %g (the "
                   "scale must be finite and non-zero, the offset finite)", scale, offset);
      return FALSE;
    }
  return TRUE;
}

static guint16
encode_u16 (gfloat  z,
            gdouble scale,
            gdouble offset)
{
  gdouble v = round ((z - offset) / scale);

  return (guint16) CLAMP (isnan (v) ? 0.0 : v, 0.0, 65535.0);
}

/**
 * terrain_heightfield_to_image:
 * @self: a #TerrainHeightfield
 * @scale: metres per unit of the 16-bit values, non-zero
 * @offset: metres of value 0
 * @error: return location for a #GError
 *
 * Encodes the grid as a 16-bit greyscale image: value = round((metres −
 * @offset) / @scale), clamped to 0-65535. Reading it back as
 * %TERRAIN_HEIGHTMAP_GRAY with the same scale and offset restores the
 * heights to within half a unit. [method@Terrain.Heightfield.get_auto_encoding]
 * picks a scale and offset that fit the range.
 *
 * Returns: (transfer full) (nullable): a %TERRAIN_IMAGE_GRAY16 image, or
 *   %NULL with %TERRAIN_ERROR_INVALID_VALUE for a zero or non-finite scale
 */
TerrainImage *
terrain_heightfield_to_image (TerrainHeightfield  *self,
                              gdouble              scale,
                              gdouble              offset,
                              GError             **error)
{
  g_autoptr(TerrainImage) image = NULL;
  g_autofree gfloat *row = NULL;
  guint8 *pixels;
  gsize stride;

  g_return_val_if_fail (TERRAIN_IS_HEIGHTFIELD (self), NULL);

  if (!check_encoding (scale, offset, error))
    return NULL;
  image = terrain_image_new (TERRAIN_IMAGE_GRAY16, self->width, self->height, error);
  if (image == NULL)
    return NULL;

  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  row = g_new (gfloat, self->width);
  for (guint y = 0; y < self->height; y++)
    {
      guint16 *out = (guint16 *) (gpointer) (pixels + (gsize) y * stride);

      terrain_heightfield_read_rect (self, 0, y, self->width, 1, row, self->width);
      for (guint x = 0; x < self->width; x++)
        out[x] = encode_u16 (row[x], scale, offset);
    }

  return g_steal_pointer (&image);
}

/**
 * terrain_heightfield_to_raw16:
 * @self: a #TerrainHeightfield
 * @scale: metres per unit, non-zero
 * @offset: metres of value 0
 * @error: return location for a #GError
 *
 * Encodes the grid as headerless little-endian U16 samples, row 0 first,
 * the raw16 layout TGEA reads, with the encoding of
 * [method@Terrain.Heightfield.to_image].
 *
 * Returns: (transfer full) (nullable): width × height × 2 bytes, or %NULL
 *   with %TERRAIN_ERROR_INVALID_VALUE for a zero or non-finite scale
 */
GBytes *
terrain_heightfield_to_raw16 (TerrainHeightfield  *self,
                              gdouble              scale,
                              gdouble              offset,
                              GError             **error)
{
  g_autofree gfloat *row = NULL;
  guint8 *out;
  gsize size;

  g_return_val_if_fail (TERRAIN_IS_HEIGHTFIELD (self), NULL);

  if (!check_encoding (scale, offset, error))
    return NULL;

  size = (gsize) self->width * self->height * 2;
  out = g_try_malloc (size);
  if (out == NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Heightfield: no memory for %" G_GSIZE_FORMAT " bytes of raw16 samples", size);
      return NULL;
    }
  row = g_new (gfloat, self->width);
  for (guint y = 0; y < self->height; y++)
    {
      guint8 *p = out + (gsize) y * self->width * 2;

      terrain_heightfield_read_rect (self, 0, y, self->width, 1, row, self->width);
      for (guint x = 0; x < self->width; x++)
        {
          guint16 v = encode_u16 (row[x], scale, offset);

          p[2 * x] = v & 0xff;
          p[2 * x + 1] = v >> 8;
        }
    }

  return g_bytes_new_take (out, size);
}

/**
 * terrain_heightfield_get_auto_encoding:
 * @self: a #TerrainHeightfield
 * @scale: (out): metres per 16-bit unit
 * @offset: (out): metres of value 0
 *
 * Picks a 16-bit encoding for [method@Terrain.Heightfield.to_image]: scale
 * 1 and offset 0 when every height is a whole number of metres from 0 to
 * 65535 (so 16-bit sources keep their values); otherwise the range mapped
 * onto 0-65535.
 */
void
terrain_heightfield_get_auto_encoding (TerrainHeightfield *self,
                                       gdouble            *scale,
                                       gdouble            *offset)
{
  g_autofree gfloat *row = NULL;
  gboolean integral = TRUE;
  gfloat lo, hi;

  g_return_if_fail (TERRAIN_IS_HEIGHTFIELD (self));
  g_return_if_fail (scale != NULL && offset != NULL);

  terrain_heightfield_get_range (self, &lo, &hi);
  if (lo >= 0.0f && hi <= 65535.0f)
    {
      row = g_new (gfloat, self->data_width);
      for (guint y = 0; y < self->data_height && integral; y++)
        {
          terrain_heightfield_read_rect (self, 0, y, self->data_width, 1, row, self->data_width);
          for (guint x = 0; x < self->data_width && integral; x++)
            integral = row[x] == floorf (row[x]);
        }
    }
  else
    integral = FALSE;

  if (integral)
    {
      *scale = 1.0;
      *offset = 0.0;
    }
  else
    {
      *offset = lo;
      *scale = hi > lo ? ((gdouble) hi - lo) / 65535.0 : 1.0;
    }
}
