/* terrain-atlas-texture.c: Atlas texture chunks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "terrain-atlas-texture.h"
#include "terrain-atlas-private.h"
#include "terrain-dds.h"
#include "core/terrain-error.h"
#include "core/terrain-image-private.h"

static const guint8 png_signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };

struct _TerrainAtlasTexture
{
  GObject parent_instance;

  guint8 format;
  GBytes *data;
};

G_DEFINE_FINAL_TYPE (TerrainAtlasTexture, terrain_atlas_texture, G_TYPE_OBJECT)

static void
terrain_atlas_texture_finalize (GObject *object)
{
  TerrainAtlasTexture *self = (TerrainAtlasTexture *) object;

  g_clear_pointer (&self->data, g_bytes_unref);

  G_OBJECT_CLASS (terrain_atlas_texture_parent_class)->finalize (object);
}

static void
terrain_atlas_texture_class_init (TerrainAtlasTextureClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = terrain_atlas_texture_finalize;
}

static void
terrain_atlas_texture_init (TerrainAtlasTexture *self)
{
}

/**
 * terrain_atlas_texture_new:
 * @format: mFormat: a #TerrainAtlasTextureFormat, or any other byte to keep
 * @data: the complete encoded image
 *
 * Creates a texture chunk from an encoded image, kept as it is: a TQT
 * tile's DDS stream, say (§9c).
 *
 * Returns: (transfer full): a new #TerrainAtlasTexture
 */
TerrainAtlasTexture *
terrain_atlas_texture_new (guint8  format,
                           GBytes *data)
{
  TerrainAtlasTexture *self;

  g_return_val_if_fail (data != NULL, NULL);

  self = g_object_new (TERRAIN_TYPE_ATLAS_TEXTURE, NULL);
  self->format = format;
  self->data = g_bytes_ref (data);
  return self;
}

/**
 * terrain_atlas_texture_new_from_body:
 * @body: a texture chunk body: the bytes between `TexH` and `TexT`
 * @body_offset: byte offset of @body in its file, for error messages
 * @error: return location for a #GError
 *
 * Splits a texture body (§4) into its format byte and the encoded image,
 * which is every remaining byte. Nothing is decoded: see
 * [method@Terrain.AtlasTexture.decode].
 *
 * Returns: (transfer full) (nullable): the chunk, or %NULL with
 *   %TERRAIN_ERROR_TRUNCATED for an empty body
 */
TerrainAtlasTexture *
terrain_atlas_texture_new_from_body (GBytes   *body,
                                     goffset   body_offset,
                                     GError  **error)
{
  g_autoptr(GBytes) data = NULL;
  TerrainReader reader;
  guint8 format;

  g_return_val_if_fail (body != NULL, NULL);

  terrain_reader_init_data (&reader, g_bytes_get_data (body, NULL), g_bytes_get_size (body),
                            body_offset, "Atlas texture chunk");
  if (!terrain_reader_read_u8 (&reader, &format, error))
    {
      g_prefix_error (error, "mFormat: ");
      return NULL;
    }

  data = g_bytes_new_from_bytes (body, 1, g_bytes_get_size (body) - 1);
  return terrain_atlas_texture_new (format, data);
}

/**
 * terrain_atlas_texture_encode_body:
 * @self: a #TerrainAtlasTexture
 * @error: return location for a #GError
 *
 * Serialises the chunk body: the format byte and the encoded image.
 *
 * Returns: (transfer full) (nullable): the body: the format byte followed
 *   by the encoded image
 */
GBytes *
terrain_atlas_texture_encode_body (TerrainAtlasTexture  *self,
                                   GError              **error)
{
  TerrainWriter writer;
  const guint8 *data;
  gsize size = 0;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_TEXTURE (self), NULL);

  data = g_bytes_get_data (self->data, &size);
  terrain_writer_init (&writer, size + 1);
  terrain_writer_set_section (&writer, "Atlas texture chunk");
  terrain_writer_put_u8 (&writer, self->format);
  terrain_writer_put_bytes (&writer, data, size);
  return terrain_writer_finish (&writer, error);
}

/**
 * terrain_atlas_texture_get_format:
 * @self: a #TerrainAtlasTexture
 *
 * Gets mFormat, the encoding of the image stream.
 *
 * Returns: mFormat, normally a #TerrainAtlasTextureFormat; other values are
 *   kept and reported by validation
 */
guint8
terrain_atlas_texture_get_format (TerrainAtlasTexture *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TEXTURE (self), 0);

  return self->format;
}

/**
 * terrain_atlas_texture_get_data:
 * @self: a #TerrainAtlasTexture
 *
 * Gets the encoded image stream.
 *
 * Returns: (transfer none): the encoded image stream
 */
GBytes *
terrain_atlas_texture_get_data (TerrainAtlasTexture *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TEXTURE (self), NULL);

  return self->data;
}

/**
 * terrain_atlas_texture_get_extension:
 * @self: a #TerrainAtlasTexture
 *
 * Gets the file extension that suits the encoded image.
 *
 * Returns: the file extension of the encoded image: "jpg", "png", "dds", or
 *   "bin" for an unknown format
 */
const char *
terrain_atlas_texture_get_extension (TerrainAtlasTexture *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TEXTURE (self), NULL);

  switch (self->format)
    {
    case TERRAIN_ATLAS_TEXTURE_JPEG:
      return "jpg";
    case TERRAIN_ATLAS_TEXTURE_PNG:
      return "png";
    case TERRAIN_ATLAS_TEXTURE_DDS:
      return "dds";
    default:
      return "bin";
    }
}

/* libjpeg reports errors through longjmp. */
typedef struct
{
  struct jpeg_error_mgr manager;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
  gboolean truncated;
} JpegError;

static void
jpeg_error_exit (j_common_ptr info)
{
  JpegError *error = (JpegError *) info->err;

  info->err->format_message (info, error->message);
  longjmp (error->jump, 1);
}

static void
jpeg_output_nothing (j_common_ptr info)
{
}

/* When the data ends early libjpeg only warns and decodes the rest as grey.
 * A texture stream that stops short is truncated: that fails. */
static void
jpeg_stop_at_end_of_data (j_common_ptr info,
                          int          level)
{
  if (level < 0 && info->err->msg_code == JWRN_JPEG_EOF)
    {
      ((JpegError *) info->err)->truncated = TRUE;
      jpeg_error_exit (info);
    }
}

static gboolean
jpeg_data (TerrainAtlasTexture  *self,
           const guint8        **data,
           gsize                *size,
           GError              **error)
{
  *data = g_bytes_get_data (self->data, size);
  if (*size < 2 || (*data)[0] != 0xFF || (*data)[1] != 0xD8)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                           "Atlas texture: a JPEG texture (mFormat 0) does not start with the "
                           "JPEG marker FF D8");
      return FALSE;
    }
  return TRUE;
}

static TerrainImage *
decode_jpeg (TerrainAtlasTexture  *self,
             const TerrainLimits  *limits,
             gboolean              header_only,
             guint                *width,
             guint                *height,
             GError              **error)
{
  struct jpeg_decompress_struct info;
  JpegError jerr;
  TerrainImage *volatile image = NULL;
  const guint8 *data;
  gsize size;

  if (!jpeg_data (self, &data, &size, error))
    return NULL;

  memset (&info, 0, sizeof info);
  info.err = jpeg_std_error (&jerr.manager);
  jerr.manager.error_exit = jpeg_error_exit;
  jerr.manager.output_message = jpeg_output_nothing;
  jerr.manager.emit_message = jpeg_stop_at_end_of_data;
  jerr.message[0] = '\0';
  jerr.truncated = FALSE;

  if (setjmp (jerr.jump))
    {
      g_set_error (error, TERRAIN_ERROR,
                   jerr.truncated ? TERRAIN_ERROR_TRUNCATED : TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas texture: JPEG: %s (the stream is %" G_GSIZE_FORMAT " bytes)",
                   jerr.message, size);
      jpeg_destroy_decompress (&info);
      if (image != NULL)
        terrain_image_unref (image);
      return NULL;
    }

  jpeg_create_decompress (&info);
  jpeg_mem_src (&info, data, (unsigned long) size);
  jpeg_read_header (&info, TRUE);

  if (width != NULL)
    *width = info.image_width;
  if (height != NULL)
    *height = info.image_height;
  if (header_only)
    {
      jpeg_destroy_decompress (&info);
      return NULL;
    }

  if (info.image_width > limits->max_image_side || info.image_height > limits->max_image_side)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Atlas texture: a %ux%u JPEG exceeds the image side limit of %u",
                   info.image_width, info.image_height, limits->max_image_side);
      jpeg_destroy_decompress (&info);
      return NULL;
    }
  if (info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                           "Atlas texture: CMYK JPEG textures cannot be decoded");
      jpeg_destroy_decompress (&info);
      return NULL;
    }

  info.out_color_space = JCS_EXT_RGBA;
  jpeg_start_decompress (&info);

  image = terrain_image_new (TERRAIN_IMAGE_RGBA8, info.output_width, info.output_height, error);
  if (image == NULL)
    {
      jpeg_destroy_decompress (&info);
      return NULL;
    }

  while (info.output_scanline < info.output_height)
    {
      guint8 *pixels = terrain_image_get_data (image, NULL);
      JSAMPROW row = pixels + (gsize) info.output_scanline * terrain_image_get_stride (image);

      jpeg_read_scanlines (&info, &row, 1);
    }
  jpeg_finish_decompress (&info);
  jpeg_destroy_decompress (&info);

  return image;
}

#define JPEG_ROWS_BUFFER 65536

struct _TerrainJpegRows
{
  struct jpeg_decompress_struct info;
  struct jpeg_source_mgr source;
  JpegError jerr;
  GInputStream *stream;
  GError *read_error;       /* of the stream, reported as the failure */
  guint8 *buffer;           /* JPEG_ROWS_BUFFER bytes read ahead */
  guint8 *row;
};

static void
jpeg_rows_init_source (j_decompress_ptr info)
{
}

static boolean
jpeg_rows_fill (j_decompress_ptr info)
{
  TerrainJpegRows *rows = (TerrainJpegRows *) info;
  static const JOCTET eoi[2] = { 0xFF, JPEG_EOI };
  gssize n = 0;

  if (rows->read_error == NULL)
    n = g_input_stream_read (rows->stream, rows->buffer, JPEG_ROWS_BUFFER, NULL,
                             &rows->read_error);
  if (n <= 0)
    {
      /* As libjpeg's own sources do: warn (which fails as truncated, see
       * jpeg_stop_at_end_of_data ()) and end the image. */
      WARNMS (info, JWRN_JPEG_EOF);
      rows->source.next_input_byte = eoi;
      rows->source.bytes_in_buffer = 2;
      return TRUE;
    }
  rows->source.next_input_byte = rows->buffer;
  rows->source.bytes_in_buffer = (gsize) n;
  return TRUE;
}

static void
jpeg_rows_skip (j_decompress_ptr info,
                long             count)
{
  TerrainJpegRows *rows = (TerrainJpegRows *) info;

  while (count > 0)
    {
      if ((gsize) count <= rows->source.bytes_in_buffer)
        {
          rows->source.next_input_byte += count;
          rows->source.bytes_in_buffer -= (gsize) count;
          return;
        }
      count -= (long) rows->source.bytes_in_buffer;
      rows->source.bytes_in_buffer = 0;
      jpeg_rows_fill (info);
    }
}

static void
jpeg_rows_term_source (j_decompress_ptr info)
{
}

static void
jpeg_rows_set_error (TerrainJpegRows  *rows,
                     GError          **error)
{
  if (rows->read_error != NULL)
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&rows->read_error),
                                  "JPEG: reading row %u of %u: ", rows->info.output_scanline,
                                  rows->info.output_height);
      return;
    }
  g_set_error (error, TERRAIN_ERROR,
               rows->jerr.truncated ? TERRAIN_ERROR_TRUNCATED : TERRAIN_ERROR_INVALID_VALUE,
               "JPEG: %s (row %u of %u)", rows->jerr.message, rows->info.output_scanline,
               rows->info.output_height);
}

/* Opens @stream (a JPEG stream, read 64 KiB at a time) for decoding a row
 * at a time: the header is read and checked against @limits (the image
 * side) here; *@width and *@height get the picture's size. */
TerrainJpegRows *
terrain_jpeg_rows_new (GInputStream         *stream,
                       const TerrainLimits  *limits,
                       guint                *width,
                       guint                *height,
                       GError              **error)
{
  TerrainJpegRows *rows = g_new0 (TerrainJpegRows, 1);
  volatile guint max_side = (limits != NULL ? limits : terrain_limits_get_default ())->max_image_side;

  rows->stream = g_object_ref (stream);
  rows->buffer = g_malloc (JPEG_ROWS_BUFFER);
  rows->info.err = jpeg_std_error (&rows->jerr.manager);
  rows->jerr.manager.error_exit = jpeg_error_exit;
  rows->jerr.manager.output_message = jpeg_output_nothing;
  rows->jerr.manager.emit_message = jpeg_stop_at_end_of_data;
  jpeg_create_decompress (&rows->info);
  rows->source.init_source = jpeg_rows_init_source;
  rows->source.fill_input_buffer = jpeg_rows_fill;
  rows->source.skip_input_data = jpeg_rows_skip;
  rows->source.resync_to_restart = jpeg_resync_to_restart;
  rows->source.term_source = jpeg_rows_term_source;
  rows->info.src = &rows->source;
  if (setjmp (rows->jerr.jump))
    {
      jpeg_rows_set_error (rows, error);
      terrain_jpeg_rows_free (rows);
      return NULL;
    }
  jpeg_read_header (&rows->info, TRUE);
  if (rows->info.image_width > max_side || rows->info.image_height > max_side)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "JPEG: a %ux%u picture exceeds the image side limit of %u",
                   rows->info.image_width, rows->info.image_height, max_side);
      terrain_jpeg_rows_free (rows);
      return NULL;
    }
  if (rows->info.jpeg_color_space == JCS_CMYK || rows->info.jpeg_color_space == JCS_YCCK)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                           "JPEG: CMYK pictures cannot be decoded");
      terrain_jpeg_rows_free (rows);
      return NULL;
    }
  rows->info.out_color_space = JCS_EXT_RGBA;
  jpeg_start_decompress (&rows->info);
  rows->row = g_malloc ((gsize) rows->info.output_width * 4);
  *width = rows->info.output_width;
  *height = rows->info.output_height;
  return rows;
}

/* The next row, top first (width × 4 bytes, valid until the next call), or
 * NULL with @error set when the stream is damaged or past its last row. */
const guint8 *
terrain_jpeg_rows_next (TerrainJpegRows  *rows,
                        GError          **error)
{
  JSAMPROW row = rows->row;

  if (rows->info.output_scanline >= rows->info.output_height)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "JPEG: no row past the last (%u)", rows->info.output_height);
      return NULL;
    }
  if (setjmp (rows->jerr.jump))
    {
      jpeg_rows_set_error (rows, error);
      return NULL;
    }
  jpeg_read_scanlines (&rows->info, &row, 1);
  return rows->row;
}

void
terrain_jpeg_rows_free (TerrainJpegRows *rows)
{
  if (rows == NULL)
    return;
  /* Destroying aborts a decompression in any state; it never fails. */
  jpeg_destroy_decompress (&rows->info);
  g_clear_error (&rows->read_error);
  g_object_unref (rows->stream);
  g_free (rows->buffer);
  g_free (rows->row);
  g_free (rows);
}

/* Encodes rows of @components bytes a pixel in @space (libjpeg reads
 * the colour channels and skips an RGBA pixel's alpha). */
static GBytes *
encode_jpeg_rows (const guint8  *pixels,
                  guint          width,
                  guint          height,
                  gsize          stride,
                  int            components,
                  J_COLOR_SPACE  space,
                  guint          quality,
                  GError       **error)
{
  struct jpeg_compress_struct info;
  JpegError jerr;
  unsigned char *volatile buffer = NULL;
  unsigned long size = 0;
  GBytes *bytes;

  memset (&info, 0, sizeof info);
  info.err = jpeg_std_error (&jerr.manager);
  jerr.manager.error_exit = jpeg_error_exit;
  jerr.manager.output_message = jpeg_output_nothing;

  if (setjmp (jerr.jump))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas texture: JPEG encoding failed: %s", jerr.message);
      jpeg_destroy_compress (&info);
      free (buffer);
      return NULL;
    }

  jpeg_create_compress (&info);
  jpeg_mem_dest (&info, (unsigned char **) &buffer, &size);
  info.image_width = width;
  info.image_height = height;
  info.input_components = components;
  info.in_color_space = space;
  jpeg_set_defaults (&info);
  jpeg_set_quality (&info, (int) CLAMP (quality, 1, 100), TRUE);
  jpeg_start_compress (&info, TRUE);
  while (info.next_scanline < info.image_height)
    {
      JSAMPROW row = (JSAMPROW) pixels + (gsize) info.next_scanline * stride;

      jpeg_write_scanlines (&info, &row, 1);
    }
  jpeg_finish_compress (&info);
  jpeg_destroy_compress (&info);

  bytes = g_bytes_new (buffer, size);
  free (buffer);
  return bytes;
}

static GBytes *
encode_jpeg (TerrainImage  *image,
             guint          quality,
             GError       **error)
{
  gboolean grey = terrain_image_get_format (image) == TERRAIN_IMAGE_GRAY8;

  return encode_jpeg_rows (terrain_image_get_data (image, NULL), terrain_image_get_width (image),
                           terrain_image_get_height (image), terrain_image_get_stride (image),
                           grey ? 1 : 4, grey ? JCS_GRAYSCALE : JCS_EXT_RGBA, quality, error);
}

/* A JPEG chunk straight from RGB rows: the same bytes
 * terrain_atlas_texture_new_from_image () writes for those pixels as an
 * opaque RGBA8 image (libjpeg converts RGB, BGR and RGBA pixels to YCbCr
 * alike), without the RGBA copy. %TERRAIN_ATLAS_CHANNELS_BGR reads the
 * rows as BGR, which stores red and blue swapped. */
TerrainAtlasTexture *
terrain_atlas_texture_new_jpeg_rgb (const guint8              *rgb,
                                    guint                      width,
                                    guint                      height,
                                    gsize                      stride,
                                    guint                      quality,
                                    TerrainAtlasChannelOrder   order,
                                    GError                   **error)
{
  g_autoptr(GBytes) data = encode_jpeg_rows (rgb, width, height, stride, 3,
                                             order == TERRAIN_ATLAS_CHANNELS_BGR ? JCS_EXT_BGR :
                                                                                   JCS_RGB,
                                             quality, error);

  if (data == NULL)
    return NULL;
  return terrain_atlas_texture_new (TERRAIN_ATLAS_TEXTURE_JPEG, data);
}

static void
swap_red_blue (TerrainImage *image)
{
  guint8 *pixels = terrain_image_get_data (image, NULL);
  gsize stride = terrain_image_get_stride (image);

  for (guint y = 0; y < terrain_image_get_height (image); y++)
    for (guint x = 0; x < terrain_image_get_width (image); x++)
      {
        guint8 *p = pixels + (gsize) y * stride + 4 * (gsize) x;
        guint8 t = p[0];

        p[0] = p[2];
        p[2] = t;
      }
}

/* PNG decoding may give grey images; textures are handed out as RGBA. */
static TerrainImage *
to_rgba (TerrainImage  *image,
         GError       **error)
{
  g_autoptr(TerrainImage) rgba = NULL;
  TerrainImageFormat format = terrain_image_get_format (image);
  guint width = terrain_image_get_width (image), height = terrain_image_get_height (image);
  guint8 *src, *dest;

  if (format == TERRAIN_IMAGE_RGBA8)
    return terrain_image_ref (image);

  rgba = terrain_image_new (TERRAIN_IMAGE_RGBA8, width, height, error);
  if (rgba == NULL)
    return NULL;
  src = terrain_image_get_data (image, NULL);
  dest = terrain_image_get_data (rgba, NULL);
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        const guint8 *s = src + (gsize) y * terrain_image_get_stride (image);
        guint8 *d = dest + (gsize) y * terrain_image_get_stride (rgba) + 4 * (gsize) x;
        guint8 grey;

        if (format == TERRAIN_IMAGE_GRAY16)
          {
            guint16 v;

            memcpy (&v, s + 2 * (gsize) x, 2);
            grey = (guint8) (v >> 8);
          }
        else
          grey = s[x];
        d[0] = d[1] = d[2] = grey;
        d[3] = 0xFF;
      }

  return g_steal_pointer (&rgba);
}

/* Whether any pixel of an RGBA picture is not opaque. */
static gboolean
has_alpha (TerrainImage *rgba)
{
  const guint8 *p = terrain_image_get_data (rgba, NULL);
  gsize stride = terrain_image_get_stride (rgba);
  guint w = terrain_image_get_width (rgba), h = terrain_image_get_height (rgba);

  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      if (p[y * stride + x * 4 + 3] != 255)
        return TRUE;
  return FALSE;
}

/**
 * terrain_atlas_texture_new_from_image:
 * @image: the picture, %TERRAIN_IMAGE_RGBA8 or %TERRAIN_IMAGE_GRAY8
 * @format: %TERRAIN_ATLAS_TEXTURE_JPEG, %TERRAIN_ATLAS_TEXTURE_PNG or
 *   %TERRAIN_ATLAS_TEXTURE_DDS
 * @quality: JPEG quality, 1 to 100 (ignored for PNG and DDS)
 * @order: %TERRAIN_ATLAS_CHANNELS_BGR to store red and blue swapped, as
 *   content made from BGR bitmaps is (§4)
 * @error: return location for a #GError
 *
 * Encodes a picture as a JPEG (libjpeg-turbo), PNG (libpng) or DDS
 * texture chunk. JPEG drops alpha; DDS is BC1 (DXT1) for an opaque
 * picture and BC3 (DXT5) for one with alpha, with its full mip chain
 * ([func@Terrain.dds_encode]).
 *
 * Returns: (transfer full) (nullable): the chunk, or %NULL with
 *   %TERRAIN_ERROR_NOT_SUPPORTED for an unknown format or a
 *   %TERRAIN_IMAGE_GRAY16 JPEG, or an encoder error
 */
TerrainAtlasTexture *
terrain_atlas_texture_new_from_image (TerrainImage              *image,
                                      TerrainAtlasTextureFormat  format,
                                      guint                      quality,
                                      TerrainAtlasChannelOrder   order,
                                      GError                   **error)
{
  g_autoptr(TerrainImage) source = NULL;
  g_autoptr(GBytes) data = NULL;

  g_return_val_if_fail (image != NULL, NULL);

  if (format != TERRAIN_ATLAS_TEXTURE_JPEG && format != TERRAIN_ATLAS_TEXTURE_PNG &&
      format != TERRAIN_ATLAS_TEXTURE_DDS)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "Atlas texture: format %d cannot be encoded (JPEG, PNG or DDS)", format);
      return NULL;
    }

  if (terrain_image_get_format (image) == TERRAIN_IMAGE_GRAY8 &&
      format == TERRAIN_ATLAS_TEXTURE_JPEG)
    source = terrain_image_ref (image);
  else
    {
      source = to_rgba (image, error);
      if (source == NULL)
        return NULL;
      if (order == TERRAIN_ATLAS_CHANNELS_BGR && format != TERRAIN_ATLAS_TEXTURE_DDS)
        {
          /* Work on a copy: the caller's image stays as it is. */
          g_autoptr(TerrainImage) copy = terrain_image_new (TERRAIN_IMAGE_RGBA8,
                                                            terrain_image_get_width (source),
                                                            terrain_image_get_height (source),
                                                            error);
          gsize size = 0;
          guint8 *src = terrain_image_get_data (source, &size);

          if (copy == NULL)
            return NULL;
          memcpy (terrain_image_get_data (copy, NULL), src, size);
          swap_red_blue (copy);
          g_clear_pointer (&source, terrain_image_unref);
          source = g_steal_pointer (&copy);
        }
    }

  if (format == TERRAIN_ATLAS_TEXTURE_JPEG)
    data = encode_jpeg (source, quality, error);
  else if (format == TERRAIN_ATLAS_TEXTURE_DDS)
    data = terrain_dds_encode (source, has_alpha (source) ? TERRAIN_DDS_FORMAT_BC3 :
                                                            TERRAIN_DDS_FORMAT_BC1, error);
  else
    data = terrain_image_save_png_bytes (source, error);
  if (data == NULL)
    return NULL;

  return terrain_atlas_texture_new (format, data);
}

/**
 * terrain_atlas_texture_get_size:
 * @self: a #TerrainAtlasTexture
 * @width: (out) (optional): image width in pixels
 * @height: (out) (optional): image height in pixels
 * @error: return location for a #GError
 *
 * Reads the image's dimensions from its header without decoding pixels.
 *
 * Returns: %TRUE, or %FALSE with %TERRAIN_ERROR_NOT_SUPPORTED for an unknown
 *   format or the header's error
 */
gboolean
terrain_atlas_texture_get_size (TerrainAtlasTexture  *self,
                                guint                *width,
                                guint                *height,
                                GError              **error)
{
  guint w = 0, h = 0;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_TEXTURE (self), FALSE);

  switch (self->format)
    {
    case TERRAIN_ATLAS_TEXTURE_JPEG:
      {
        GError *local_error = NULL;

        decode_jpeg (self, terrain_limits_get_default (), TRUE, &w, &h, &local_error);
        if (local_error != NULL)
          {
            g_propagate_error (error, local_error);
            return FALSE;
          }
      }
      break;

    case TERRAIN_ATLAS_TEXTURE_PNG:
      {
        TerrainReader reader;
        const guint8 *signature;
        guint32 length, type;

        terrain_reader_init (&reader, self->data, "Atlas texture PNG");
        if (!terrain_reader_read_bytes (&reader, 8, &signature, error) ||
            !terrain_reader_read_be_u32 (&reader, &length, error) ||
            !terrain_reader_read_be_u32 (&reader, &type, error) ||
            !terrain_reader_read_be_u32 (&reader, &w, error) ||
            !terrain_reader_read_be_u32 (&reader, &h, error))
          return FALSE;
        if (memcmp (signature, png_signature, 8) != 0 || type != 0x49484452u)
          {
            g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                                 "Atlas texture: a PNG texture (mFormat 1) does not start with "
                                 "the PNG signature and IHDR");
            return FALSE;
          }
      }
      break;

    case TERRAIN_ATLAS_TEXTURE_DDS:
      {
        TerrainDdsInfo info;

        if (!terrain_dds_parse (self->data, 0, &info, error))
          return FALSE;
        w = info.width;
        h = info.height;
      }
      break;

    default:
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "Atlas texture: unknown image format %u (0 JPEG, 1 PNG, 2 DDS)",
                   self->format);
      return FALSE;
    }

  if (width != NULL)
    *width = w;
  if (height != NULL)
    *height = h;
  return TRUE;
}

/**
 * terrain_atlas_texture_decode:
 * @self: a #TerrainAtlasTexture
 * @order: how to read JPEG and PNG channels (§4)
 * @limits: (nullable): allocation limits (max_image_side, max_allocation),
 *   or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Decodes the texture to RGBA: JPEG with libjpeg-turbo, PNG with libpng,
 * DDS with [func@Terrain.dds_decode] (top mip level). With
 * %TERRAIN_ATLAS_CHANNELS_BGR, red and blue of JPEG and PNG textures are
 * swapped back. A JPEG or PNG stream that ends before its last pixel is an
 * error, not an image padded with grey.
 *
 * Returns: (transfer full) (nullable): the image, or %NULL with
 *   %TERRAIN_ERROR_NOT_SUPPORTED for an unknown format,
 *   %TERRAIN_ERROR_TRUNCATED for a stream that ends early,
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED for an image larger than @limits allow,
 *   or the decoder's error
 */
TerrainImage *
terrain_atlas_texture_decode (TerrainAtlasTexture       *self,
                              TerrainAtlasChannelOrder   order,
                              const TerrainLimits       *limits,
                              GError                   **error)
{
  g_autoptr(TerrainImage) image = NULL;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_TEXTURE (self), NULL);

  if (limits == NULL)
    limits = terrain_limits_get_default ();

  switch (self->format)
    {
    case TERRAIN_ATLAS_TEXTURE_JPEG:
      image = decode_jpeg (self, limits, FALSE, NULL, NULL, error);
      break;
    case TERRAIN_ATLAS_TEXTURE_PNG:
      {
        g_autoptr(TerrainImage) png = terrain_image_load_png_bytes_with_limits (self->data,
                                                                                 limits, error);

        if (png != NULL)
          image = to_rgba (png, error);
      }
      break;
    case TERRAIN_ATLAS_TEXTURE_DDS:
      return terrain_dds_decode (self->data, limits, error);
    default:
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "Atlas texture: unknown image format %u (0 JPEG, 1 PNG, 2 DDS)",
                   self->format);
      return NULL;
    }

  if (image != NULL && order == TERRAIN_ATLAS_CHANNELS_BGR)
    swap_red_blue (image);
  return g_steal_pointer (&image);
}

/**
 * terrain_atlas_texture_check:
 * @self: a #TerrainAtlasTexture
 * @section: (nullable): section name for the findings
 * @offset: byte offset of the chunk in its file, or -1
 * @record: record (stub) index, or -1
 *
 * Checks, without decoding pixels, that the format byte is known and the
 * image stream starts the way its format requires (JPEG SOI marker, PNG
 * signature and IHDR, a complete DDS stream).
 *
 * Returns: (transfer full) (element-type TerrainIssue): the findings
 */
GPtrArray *
terrain_atlas_texture_check (TerrainAtlasTexture *self,
                             const char          *section,
                             gint64               offset,
                             gint64               record)
{
  TerrainIssueCollector issues;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_TEXTURE (self), NULL);

  if (section == NULL)
    section = "texture chunk";
  terrain_issue_collector_init (&issues, 0);

  if (self->format > TERRAIN_ATLAS_TEXTURE_DDS)
    terrain_issue_collector_add (&issues, "texture-format", TERRAIN_SEVERITY_WARNING, section,
                              offset, record, "unknown image format %u (0 JPEG, 1 PNG, 2 DDS)",
                              self->format);
  else if (!terrain_atlas_texture_get_size (self, NULL, NULL, &error))
    terrain_issue_collector_add (&issues, "texture-image", TERRAIN_SEVERITY_ERROR, section, offset,
                              record, "%s", error->message);

  return terrain_issue_collector_finish (&issues);
}
