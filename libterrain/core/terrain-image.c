/* terrain-image.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <setjmp.h>
#include <string.h>

#include <png.h>

#include "terrain-image.h"
#include "terrain-image-private.h"
#include "terrain-error.h"
#include "terrain-io.h"
#include "terrain-limits.h"

struct _TerrainImage
{
  TerrainImageFormat format;
  guint width;
  guint height;
  gsize stride;
  guint8 *data;
};

G_DEFINE_BOXED_TYPE (TerrainImage, terrain_image, terrain_image_ref, terrain_image_unref)

static guint
bytes_per_pixel (TerrainImageFormat format)
{
  switch (format)
    {
    case TERRAIN_IMAGE_RGBA8:
      return 4;
    case TERRAIN_IMAGE_GRAY16:
      return 2;
    case TERRAIN_IMAGE_GRAY8:
    default:
      return 1;
    }
}

/**
 * terrain_image_new:
 * @format: pixel layout
 * @width: width in pixels, at least 1
 * @height: height in pixels, at least 1
 * @error: return location for a #GError
 *
 * Allocates a zero-filled image.
 *
 * Returns: (transfer full) (nullable): the image, or %NULL with
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED when the size is zero or too large
 */
TerrainImage *
terrain_image_new (TerrainImageFormat   format,
                   guint                width,
                   guint                height,
                   GError             **error)
{
  const TerrainLimits *limits = terrain_limits_get_default ();
  TerrainImage *image;
  gsize stride;

  if (width == 0 || height == 0 ||
      width > limits->max_image_side * 4u || height > limits->max_image_side * 4u)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "image: %ux%u pixels is not a usable image size", width, height);
      return NULL;
    }
  stride = (gsize) width * bytes_per_pixel (format);
  if (!terrain_limits_check_alloc (limits, height, stride, "image rows", "image", -1, error))
    return NULL;

  image = g_atomic_rc_box_new0 (TerrainImage);
  image->format = format;
  image->width = width;
  image->height = height;
  image->stride = stride;
  image->data = g_malloc0 (stride * height);

  return image;
}

/**
 * terrain_image_shrink:
 * @image: a #TerrainImage
 * @factor: how many pixels of @image, in each direction, make one of the
 *   result; at least 1
 * @error: return location for a #GError
 *
 * Scales @image down by @factor, each pixel of the result the average of the
 * @factor x @factor block it covers (the blocks of the right and bottom
 * edges are cut short when the sides do not divide). Alpha is averaged
 * with the channels weighted by it, so transparent pixels add no colour.
 *
 * Returns: (transfer full) (nullable): a new image of the same format,
 *   `ceil(width / factor)` by `ceil(height / factor)` pixels, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE when @factor is 0
 */
TerrainImage *
terrain_image_shrink (const TerrainImage  *image,
                      guint                factor,
                      GError             **error)
{
  guint bpp, width, height;
  TerrainImage *out;

  g_return_val_if_fail (image != NULL, NULL);

  if (factor == 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "image: a shrink factor of 0");
      return NULL;
    }
  width = (image->width + factor - 1) / factor;
  height = (image->height + factor - 1) / factor;
  out = terrain_image_new (image->format, width, height, error);
  if (out == NULL)
    return NULL;
  bpp = bytes_per_pixel (image->format);

  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        guint y1 = MIN ((y + 1) * factor, image->height), x1 = MIN ((x + 1) * factor, image->width);
        guint64 sum[4] = { 0 }, n = 0;
        guint8 *dst = out->data + (gsize) y * out->stride + (gsize) x * bpp;

        for (guint sy = y * factor; sy < y1; sy++)
          for (guint sx = x * factor; sx < x1; sx++)
            {
              const guint8 *p = image->data + (gsize) sy * image->stride + (gsize) sx * bpp;

              n++;
              if (image->format == TERRAIN_IMAGE_RGBA8)
                {
                  for (guint c = 0; c < 3; c++)
                    sum[c] += (guint64) p[c] * p[3];
                  sum[3] += p[3];
                }
              else if (image->format == TERRAIN_IMAGE_GRAY16)
                {
                  guint16 v;

                  memcpy (&v, p, 2);
                  sum[0] += v;
                }
              else
                sum[0] += p[0];
            }
        if (image->format == TERRAIN_IMAGE_RGBA8)
          {
            for (guint c = 0; c < 3 && sum[3] > 0; c++)
              dst[c] = (guint8) ((sum[c] + sum[3] / 2) / sum[3]);
            dst[3] = (guint8) ((sum[3] + n / 2) / n);
          }
        else if (image->format == TERRAIN_IMAGE_GRAY16)
          {
            guint16 v = (guint16) ((sum[0] + n / 2) / n);

            memcpy (dst, &v, 2);
          }
        else
          dst[0] = (guint8) ((sum[0] + n / 2) / n);
      }
  return out;
}

static void
terrain_image_finalize (TerrainImage *image)
{
  g_free (image->data);
}

/**
 * terrain_image_ref:
 * @image: a #TerrainImage
 *
 * Takes a reference on @image.
 *
 * Returns: (transfer full): @image
 */
TerrainImage *
terrain_image_ref (TerrainImage *image)
{
  return g_atomic_rc_box_acquire (image);
}

/**
 * terrain_image_unref:
 * @image: (transfer full): a #TerrainImage
 *
 * Drops a reference.
 */
void
terrain_image_unref (TerrainImage *image)
{
  g_atomic_rc_box_release_full (image, (GDestroyNotify) terrain_image_finalize);
}

/**
 * terrain_image_get_format:
 * @image: a #TerrainImage
 *
 * Gets the pixel layout.
 *
 * Returns: the pixel layout
 */
TerrainImageFormat
terrain_image_get_format (const TerrainImage *image)
{
  return image->format;
}

/**
 * terrain_image_get_width:
 * @image: a #TerrainImage
 *
 * Gets the width in pixels.
 *
 * Returns: width in pixels
 */
guint
terrain_image_get_width (const TerrainImage *image)
{
  return image->width;
}

/**
 * terrain_image_get_height:
 * @image: a #TerrainImage
 *
 * Gets the height in pixels.
 *
 * Returns: height in pixels
 */
guint
terrain_image_get_height (const TerrainImage *image)
{
  return image->height;
}

/**
 * terrain_image_get_stride:
 * @image: a #TerrainImage
 *
 * Gets the number of bytes per row.
 *
 * Returns: bytes per row (rows are tightly packed)
 */
gsize
terrain_image_get_stride (const TerrainImage *image)
{
  return image->stride;
}

/**
 * terrain_image_get_data:
 * @image: a #TerrainImage
 * @size: (out) (optional): size of the pixel data in bytes
 *
 * Gets the pixel rows, [method@Terrain.Image.get_stride] bytes apart, in the
 * layout of [method@Terrain.Image.get_format].
 *
 * Returns: (transfer none) (array length=size): the pixels, writable
 */
guint8 *
terrain_image_get_data (TerrainImage *image,
                        gsize        *size)
{
  if (size != NULL)
    *size = image->stride * image->height;
  return image->data;
}

static void
png_write_to_array (png_structp  png,
                    png_bytep    data,
                    png_size_t   length)
{
  GByteArray *array = png_get_io_ptr (png);

  g_byte_array_append (array, data, (guint) length);
}

static void
png_flush_nothing (png_structp png)
{
}

static void
png_error_to_gerror (png_structp      png,
                     png_const_charp  message)
{
  GError **error = png_get_error_ptr (png);

  if (error != NULL && *error == NULL)
    g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE, "PNG: %s", message);
  png_longjmp (png, 1);
}

static void
png_warning_ignore (png_structp      png,
                    png_const_charp  message)
{
}

/**
 * terrain_image_save_png_bytes:
 * @image: a #TerrainImage
 * @error: return location for a #GError
 *
 * Encodes @image as PNG with libpng: RGBA8 as 8-bit RGBA, GRAY8 as 8-bit
 * greyscale, GRAY16 as 16-bit greyscale.
 *
 * Returns: (transfer full) (nullable): the PNG file's bytes
 */
GBytes *
terrain_image_save_png_bytes (const TerrainImage  *image,
                              GError             **error)
{
  g_autoptr(GByteArray) array = g_byte_array_new ();
  g_autofree guint8 *row = NULL;
  png_structp png;
  png_infop info;
  int color_type;
  int depth;

  g_return_val_if_fail (image != NULL, NULL);

  png = png_create_write_struct (PNG_LIBPNG_VER_STRING, error,
                                 png_error_to_gerror, png_warning_ignore);
  if (png == NULL)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_IO, "PNG: out of memory");
      return NULL;
    }
  info = png_create_info_struct (png);
  row = g_malloc (image->stride);

  if (setjmp (png_jmpbuf (png)))
    {
      png_destroy_write_struct (&png, &info);
      return NULL;
    }

  switch (image->format)
    {
    case TERRAIN_IMAGE_RGBA8:
      color_type = PNG_COLOR_TYPE_RGB_ALPHA;
      depth = 8;
      break;
    case TERRAIN_IMAGE_GRAY16:
      color_type = PNG_COLOR_TYPE_GRAY;
      depth = 16;
      break;
    case TERRAIN_IMAGE_GRAY8:
    default:
      color_type = PNG_COLOR_TYPE_GRAY;
      depth = 8;
      break;
    }

  png_set_write_fn (png, array, png_write_to_array, png_flush_nothing);
  png_set_IHDR (png, info, image->width, image->height, depth, color_type,
                PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info (png, info);

  for (guint y = 0; y < image->height; y++)
    {
      const guint8 *src = image->data + (gsize) y * image->stride;

      if (image->format == TERRAIN_IMAGE_GRAY16)
        {
          /* PNG stores 16-bit samples big-endian. */
          for (guint x = 0; x < image->width; x++)
            {
              guint16 v;

              memcpy (&v, src + 2 * x, 2);
              row[2 * x] = v >> 8;
              row[2 * x + 1] = v & 0xff;
            }
          png_write_row (png, row);
        }
      else
        png_write_row (png, src);
    }

  png_write_end (png, info);
  png_destroy_write_struct (&png, &info);

  return g_byte_array_free_to_bytes (g_steal_pointer (&array));
}

/**
 * terrain_image_save_png:
 * @image: a #TerrainImage
 * @file: destination
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Encodes @image as PNG (see [method@Terrain.Image.save_png_bytes]) and
 * writes it atomically.
 *
 * Returns: %TRUE on success
 */
gboolean
terrain_image_save_png (const TerrainImage  *image,
                        GFile               *file,
                        GCancellable        *cancellable,
                        GError             **error)
{
  g_autoptr(GBytes) bytes = terrain_image_save_png_bytes (image, error);

  if (bytes == NULL)
    return FALSE;
  return terrain_file_save_bytes (file, bytes, cancellable, error);
}

typedef struct
{
  const guint8 *data;
  gsize size;
  gsize pos;
  /* Here rather than in a local: src lives in memory, so setjmp() keeps it. */
  const TerrainLimits *limits;
} PngSource;

static void
png_read_from_source (png_structp  png,
                      png_bytep    data,
                      png_size_t   length)
{
  PngSource *src = png_get_io_ptr (png);

  if (length > src->size - src->pos)
    {
      /* png_error() hands the message on before it returns. */
      char message[160];

      g_snprintf (message, sizeof message,
                  "truncated PNG data: %" G_GSIZE_FORMAT " bytes wanted at byte offset %"
                  G_GSIZE_FORMAT ", the data ends at %" G_GSIZE_FORMAT,
                  (gsize) length, src->pos, src->size);
      png_error (png, message);
    }
  memcpy (data, src->data + src->pos, length);
  src->pos += length;
}

/**
 * terrain_image_load_png_bytes:
 * @bytes: a PNG file's bytes
 * @error: return location for a #GError
 *
 * Decodes a PNG with libpng. Greyscale images of 16 bits become
 * %TERRAIN_IMAGE_GRAY16, other greyscale images %TERRAIN_IMAGE_GRAY8, and
 * everything else (palette, RGB, with or without alpha) %TERRAIN_IMAGE_RGBA8.
 * The default #TerrainLimits apply.
 *
 * Returns: (transfer full) (nullable): the image
 */
TerrainImage *
terrain_image_load_png_bytes (GBytes  *bytes,
                              GError **error)
{
  return terrain_image_load_png_bytes_with_limits (bytes, NULL, error);
}

/* Deflate cannot expand a byte into more than 1032 (RFC 1951: a 258-byte
 * match in at most two bits), so a PNG of N bytes holds at most about
 * 1032 N bytes of image data. */
#define PNG_MAX_INFLATE_RATIO 1032

/* Everything up to the first image data (signature, IHDR and the chunks
 * before IDAT), checked: a side above 4 x max_image_side (heightmaps are
 * wider than textures), or an image larger than the data could inflate to,
 * is refused before anything is allocated for the pixels, so a few bytes of
 * header cannot make the decoder allocate gigabytes. Sets the transforms
 * that give @format's layout, without interlace handling. Called with
 * libpng's jump buffer set; FALSE with @error set on a refusal of its own. */
static gboolean
png_read_header_full (png_structp          png,
                      png_infop            info,
                      PngSource           *src,
                      gboolean             indices,
                      TerrainImageFormat  *format,
                      GError             **error)
{
  png_uint_32 width, height;
  int depth, color_type;
  guint64 row_bits, packed_bytes;

  png_set_read_fn (png, src, png_read_from_source);
  png_set_user_limits (png, MIN (src->limits->max_image_side, G_MAXUINT32 / 4) * 4u,
                       MIN (src->limits->max_image_side, G_MAXUINT32 / 4) * 4u);
  png_read_info (png, info);
  png_get_IHDR (png, info, &width, &height, &depth, &color_type, NULL, NULL, NULL);

  /* width < 2^31 and at most 64 bits a pixel: the row fits in 64 bits. */
  row_bits = (guint64) width * (guint64) depth * png_get_channels (png, info);
  if (!g_uint64_checked_mul (&packed_bytes, (row_bits + 7) / 8, height) ||
      packed_bytes > (guint64) src->size * PNG_MAX_INFLATE_RATIO)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "PNG: the pixels of a %ux%u image (header at byte offset 16) need more bytes "
                   "than %" G_GSIZE_FORMAT " bytes of compressed data can hold",
                   (guint) width, (guint) height, src->size);
      return FALSE;
    }

  if (indices)
    {
      if (color_type != PNG_COLOR_TYPE_PALETTE &&
          !(color_type == PNG_COLOR_TYPE_GRAY && depth == 8))
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "PNG: an indexed-colour (or 8-bit greyscale) image is needed for palette "
                       "indices, this one has colour type %d at %d bits (header at byte offset "
                       "16)", color_type, depth);
          return FALSE;
        }
      *format = TERRAIN_IMAGE_GRAY8;
      png_set_packing (png);
    }
  else if (color_type == PNG_COLOR_TYPE_GRAY && depth == 16)
    {
      *format = TERRAIN_IMAGE_GRAY16;
      if (G_BYTE_ORDER == G_LITTLE_ENDIAN)
        png_set_swap (png);
    }
  else if (color_type == PNG_COLOR_TYPE_GRAY)
    {
      *format = TERRAIN_IMAGE_GRAY8;
      png_set_expand_gray_1_2_4_to_8 (png);
    }
  else
    {
      *format = TERRAIN_IMAGE_RGBA8;
      png_set_expand (png);
      png_set_strip_16 (png);
      png_set_gray_to_rgb (png);
      png_set_add_alpha (png, 0xff, PNG_FILLER_AFTER);
    }
  return TRUE;
}

static gboolean
png_read_header (png_structp          png,
                 png_infop            info,
                 PngSource           *src,
                 TerrainImageFormat  *format,
                 GError             **error)
{
  return png_read_header_full (png, info, src, FALSE, format, error);
}

static gboolean
png_source_init (PngSource            *src,
                 GBytes               *bytes,
                 const TerrainLimits  *limits,
                 GError              **error)
{
  src->limits = limits != NULL ? limits : terrain_limits_get_default ();
  src->data = g_bytes_get_data (bytes, &src->size);
  src->pos = 0;
  if (src->size < 8 || png_sig_cmp (src->data, 0, 8) != 0)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                           "PNG: missing PNG signature at byte offset 0");
      return FALSE;
    }
  return TRUE;
}

/* Like terrain_image_load_png_bytes(), under @limits (NULL for the defaults):
 * a side above 4 x max_image_side (heightmaps are wider than textures), an
 * image above max_allocation, or one larger than the data could inflate to
 * is refused before the pixels are allocated, so a few bytes of header
 * cannot make the decoder allocate gigabytes. */
static TerrainImage *
load_png (GBytes               *bytes,
          const TerrainLimits  *limits,
          gboolean              indices,
          GError              **error)
{
  PngSource src = { 0 };
  TerrainImage *volatile image = NULL;
  png_bytep *volatile rows = NULL;
  png_structp png;
  png_infop info;
  png_uint_32 width, height;
  TerrainImageFormat format;

  if (!png_source_init (&src, bytes, limits, error))
    return NULL;

  png = png_create_read_struct (PNG_LIBPNG_VER_STRING, error,
                                png_error_to_gerror, png_warning_ignore);
  if (png == NULL)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_IO, "PNG: out of memory");
      return NULL;
    }
  info = png_create_info_struct (png);

  if (setjmp (png_jmpbuf (png)))
    {
      png_destroy_read_struct (&png, &info, NULL);
      g_free (rows);
      if (image != NULL)
        terrain_image_unref (image);
      return NULL;
    }

  if (!png_read_header_full (png, info, &src, indices, &format, error))
    {
      png_destroy_read_struct (&png, &info, NULL);
      return NULL;
    }
  width = png_get_image_width (png, info);
  height = png_get_image_height (png, info);
  png_set_interlace_handling (png);
  png_read_update_info (png, info);

  if (!terrain_limits_check_alloc (src.limits, height, png_get_rowbytes (png, info),
                                   "image rows", "PNG", 16, error))
    {
      png_destroy_read_struct (&png, &info, NULL);
      return NULL;
    }
  image = terrain_image_new (format, width, height, error);
  if (image == NULL)
    {
      png_destroy_read_struct (&png, &info, NULL);
      return NULL;
    }
  if (png_get_rowbytes (png, info) != image->stride)
    png_error (png, "unexpected row size after transformations");

  rows = g_new (png_bytep, height);
  for (guint y = 0; y < height; y++)
    rows[y] = image->data + (gsize) y * image->stride;
  png_read_image (png, rows);
  png_read_end (png, NULL);
  png_destroy_read_struct (&png, &info, NULL);
  g_free (rows);

  return image;
}

TerrainImage *
terrain_image_load_png_bytes_with_limits (GBytes               *bytes,
                                          const TerrainLimits  *limits,
                                          GError              **error)
{
  return load_png (bytes, limits, FALSE, error);
}

/* terrain-image-private.h */
TerrainImage *
terrain_image_load_indexed_png_bytes (GBytes               *bytes,
                                      const TerrainLimits  *limits,
                                      GError              **error)
{
  return load_png (bytes, limits, TRUE, error);
}

/* terrain-image-private.h */
GBytes *
terrain_image_save_indexed_png_bytes (const TerrainImage  *image,
                                      const guint8        *rgb,
                                      GError             **error)
{
  g_autoptr(GByteArray) array = g_byte_array_new ();
  png_color colors[256];
  png_structp png;
  png_infop info;

  g_return_val_if_fail (image != NULL && image->format == TERRAIN_IMAGE_GRAY8, NULL);
  g_return_val_if_fail (rgb != NULL, NULL);

  for (guint i = 0; i < 256; i++)
    colors[i] = (png_color) { rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2] };
  png = png_create_write_struct (PNG_LIBPNG_VER_STRING, error,
                                 png_error_to_gerror, png_warning_ignore);
  if (png == NULL)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_IO, "PNG: out of memory");
      return NULL;
    }
  info = png_create_info_struct (png);
  if (setjmp (png_jmpbuf (png)))
    {
      png_destroy_write_struct (&png, &info);
      return NULL;
    }
  png_set_write_fn (png, array, png_write_to_array, png_flush_nothing);
  png_set_IHDR (png, info, image->width, image->height, 8, PNG_COLOR_TYPE_PALETTE,
                PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_PLTE (png, info, colors, 256);
  png_write_info (png, info);
  for (guint y = 0; y < image->height; y++)
    png_write_row (png, image->data + (gsize) y * image->stride);
  png_write_end (png, info);
  png_destroy_write_struct (&png, &info);
  return g_byte_array_free_to_bytes (g_steal_pointer (&array));
}

/* A PNG decoded one row at a time (terrain-image-private.h). */
struct _TerrainPngRows
{
  PngSource src;
  GBytes *bytes;
  png_structp png;
  png_infop info;
  GError *error;           /* set by libpng's error callback during a call */
  char *section;
  TerrainImageFormat format;
  guint width;
  guint height;
  gboolean interlaced;
  guint n_rows;            /* rows of every pass */
  guint next_row;
  int pass;                /* of the row last read */
  guint pass_row;          /* its number within the pass */
  gboolean failed;
  guint8 *row;             /* one row of the whole width, after transforms */
};

/* Errors name the section and where the decoder was: the row and the byte
 * offset the compressed data had been read up to. */
static void
png_rows_fail (TerrainPngRows  *rows,
               const char      *doing,
               GError         **error)
{
  GError *local = g_steal_pointer (&rows->error);

  rows->failed = TRUE;
  if (local == NULL)
    local = g_error_new_literal (TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE, "PNG: unknown error");
  g_prefix_error (&local, "%s: %s (compressed data read up to byte offset %" G_GSIZE_FORMAT "): ",
                  rows->section, doing, rows->src.pos);
  g_propagate_error (error, local);
}

/* The header and the row set-up of terrain_png_rows_new(), under libpng's
 * jump buffer (a function of its own, so that no caller's local lives across
 * the setjmp). */
static gboolean
png_rows_start (TerrainPngRows  *rows,
                GError         **error)
{
  if (setjmp (png_jmpbuf (rows->png)))
    {
      /* Header errors are the whole loader's: no section prefix. */
      rows->failed = TRUE;
      if (rows->error != NULL)
        g_propagate_error (error, g_steal_pointer (&rows->error));
      else
        g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                             "PNG: unknown error");
      return FALSE;
    }

  if (!png_read_header (rows->png, rows->info, &rows->src, &rows->format, error))
    return FALSE;
  rows->width = png_get_image_width (rows->png, rows->info);
  rows->height = png_get_image_height (rows->png, rows->info);
  rows->interlaced = png_get_interlace_type (rows->png, rows->info) != PNG_INTERLACE_NONE;
  /* Without interlace handling libpng gives an interlaced image's passes as
   * the small images they are, row by row; empty passes are skipped. */
  png_read_update_info (rows->png, rows->info);
  if (rows->interlaced)
    {
      for (int pass = 0; pass < 7; pass++)
        if (PNG_PASS_COLS (rows->width, pass) > 0)
          rows->n_rows += PNG_PASS_ROWS (rows->height, pass);
    }
  else
    rows->n_rows = rows->height;
  if (png_get_rowbytes (rows->png, rows->info) !=
      (gsize) rows->width * bytes_per_pixel (rows->format))
    png_error (rows->png, "unexpected row size after transformations");
  rows->row = g_malloc (png_get_rowbytes (rows->png, rows->info));
  return TRUE;
}

/* One row into rows->row, under libpng's jump buffer; its pass and its
 * number within the pass in rows->pass and rows->pass_row. */
static gboolean
png_rows_read_row (TerrainPngRows  *rows,
                   GError         **error)
{
  if (setjmp (png_jmpbuf (rows->png)))
    {
      g_autofree char *doing = g_strdup_printf ("decoding row %u of %u", rows->next_row,
                                                rows->n_rows);

      png_rows_fail (rows, doing, error);
      return FALSE;
    }
  rows->pass = rows->interlaced ? png_get_current_pass_number (rows->png) : 0;
  rows->pass_row = png_get_current_row_number (rows->png);
  png_read_row (rows->png, rows->row, NULL);
  rows->next_row++;
  return TRUE;
}

/**
 * terrain_png_rows_new: (skip)
 * @bytes: a PNG file's bytes, kept by the reader
 * @limits: (nullable): the limits, or %NULL for the defaults
 * @section: names the file in errors ("PNG heightmap")
 * @error: return location for a #GError
 *
 * Reads a PNG up to its image data, with the checks of
 * terrain_image_load_png_bytes_with_limits() (signature, header, the sides
 * under 4 x max_image_side, no more pixels than the data can inflate to),
 * and prepares to decode it a row at a time into the layout
 * terrain_image_load_png_bytes() gives (GRAY16 in host order, GRAY8, or
 * RGBA8). Nothing the size of the image is allocated: one row, and libpng's
 * own row and inflate buffers.
 *
 * Returns: (transfer full) (nullable): the reader
 */
TerrainPngRows *
terrain_png_rows_new (GBytes               *bytes,
                      const TerrainLimits  *limits,
                      const char           *section,
                      GError              **error)
{
  g_autoptr(TerrainPngRows) rows = g_new0 (TerrainPngRows, 1);

  if (!png_source_init (&rows->src, bytes, limits, error))
    return NULL;
  rows->section = g_strdup (section);
  rows->bytes = g_bytes_ref (bytes);
  rows->png = png_create_read_struct (PNG_LIBPNG_VER_STRING, &rows->error,
                                      png_error_to_gerror, png_warning_ignore);
  if (rows->png == NULL)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_IO, "PNG: out of memory");
      return NULL;
    }
  rows->info = png_create_info_struct (rows->png);
  if (!png_rows_start (rows, error))
    return NULL;
  return g_steal_pointer (&rows);
}

/**
 * terrain_png_rows_free: (skip)
 * @rows: (transfer full): a #TerrainPngRows
 *
 * Frees the reader and drops its reference on the bytes.
 */
void
terrain_png_rows_free (TerrainPngRows *rows)
{
  if (rows == NULL)
    return;
  if (rows->png != NULL)
    png_destroy_read_struct (&rows->png, &rows->info, NULL);
  g_clear_pointer (&rows->bytes, g_bytes_unref);
  g_clear_error (&rows->error);
  g_free (rows->section);
  g_free (rows->row);
  g_free (rows);
}

/**
 * terrain_png_rows_get_info: (skip)
 * @rows: a #TerrainPngRows
 * @width: (out) (optional): the width in pixels
 * @height: (out) (optional): the height in pixels
 * @format: (out) (optional): the layout rows are decoded into
 * @interlaced: (out) (optional): whether the image is Adam7-interlaced
 *
 * Gets what the header says.
 *
 * Returns: the number of rows terrain_png_rows_next() gives: the height, or
 *   for an interlaced image the rows of all its passes
 */
guint
terrain_png_rows_get_info (TerrainPngRows     *rows,
                           guint              *width,
                           guint              *height,
                           TerrainImageFormat *format,
                           gboolean           *interlaced)
{
  if (width != NULL)
    *width = rows->width;
  if (height != NULL)
    *height = rows->height;
  if (format != NULL)
    *format = rows->format;
  if (interlaced != NULL)
    *interlaced = rows->interlaced;
  return rows->n_rows;
}

/**
 * terrain_png_rows_next: (skip)
 * @rows: a #TerrainPngRows
 * @row: (out caller-allocates): the row
 * @error: return location for a #GError
 *
 * Decodes the next row. Of an image that is not interlaced, rows come top
 * to bottom, each the whole width; of an interlaced one, the rows of each
 * Adam7 pass in turn, each @row->n_pixels pixels that belong at columns
 * @row->x0, @row->x0 + @row->x_step, ... of image row @row->y. The pixels
 * stay valid until the next call.
 *
 * Returns: %FALSE with @error set (the section, the row, and the byte
 *   offset read up to) when the data is damaged or every row was read
 */
gboolean
terrain_png_rows_next (TerrainPngRows  *rows,
                       TerrainPngRow   *row,
                       GError         **error)
{
  guint pass_row;
  int pass;

  if (rows->failed || rows->next_row >= rows->n_rows)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s: no row to decode after row %u", rows->section, rows->next_row);
      return FALSE;
    }
  if (!png_rows_read_row (rows, error))
    return FALSE;
  pass = rows->pass;
  pass_row = rows->pass_row;

  row->pixels = rows->row;
  if (rows->interlaced)
    {
      row->y = PNG_ROW_FROM_PASS_ROW (pass_row, pass);
      row->x0 = PNG_PASS_START_COL (pass);
      row->x_step = 1u << PNG_PASS_COL_SHIFT (pass);
      row->n_pixels = PNG_PASS_COLS (rows->width, pass);
    }
  else
    {
      row->y = pass_row;
      row->x0 = 0;
      row->x_step = 1;
      row->n_pixels = rows->width;
    }
  return TRUE;
}

/**
 * terrain_png_rows_finish: (skip)
 * @rows: a #TerrainPngRows whose rows were all read
 * @error: return location for a #GError
 *
 * Reads the chunks after the image data, as terrain_image_load_png_bytes()
 * does, so that a file damaged there fails here too.
 *
 * Returns: %TRUE when the rest of the file is sound
 */
gboolean
terrain_png_rows_finish (TerrainPngRows  *rows,
                         GError         **error)
{
  if (rows->failed || rows->next_row < rows->n_rows)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s: the end read before row %u of %u", rows->section, rows->next_row,
                   rows->n_rows);
      return FALSE;
    }
  if (setjmp (png_jmpbuf (rows->png)))
    {
      png_rows_fail (rows, "reading the chunks after the image data", error);
      return FALSE;
    }
  png_read_end (rows->png, NULL);
  return TRUE;
}
