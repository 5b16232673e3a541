/* terrain-dds-encode.c: writing DirectDraw Surfaces (BC1, BC3) with a full
 * mip chain, for Atlas and TQT texture tiles (atlas-chu-tqt.md §4 "mFormat
 * 2")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-dds.h"
#include "core/terrain-error.h"
#include "core/terrain-writer-private.h"
#include "core/terrain-bc.h"

#define DDS_MAGIC             0x20534444u   /* "DDS " */
#define DDS_HEADER_STRUCT     124
#define DDS_PIXELFORMAT_SIZE  32

#define DDSD_CAPS             0x1u
#define DDSD_HEIGHT           0x2u
#define DDSD_WIDTH            0x4u
#define DDSD_PIXELFORMAT      0x1000u
#define DDSD_MIPMAPCOUNT      0x20000u
#define DDSD_LINEARSIZE       0x80000u
#define DDPF_FOURCC           0x4u
#define DDSCAPS_COMPLEX       0x8u
#define DDSCAPS_TEXTURE       0x1000u
#define DDSCAPS_MIPMAP        0x400000u

#define FOURCC(a, b, c, d) ((guint32) (a) | ((guint32) (b) << 8) | ((guint32) (c) << 16) | \
                            ((guint32) (d) << 24))

/* The next mip level: each pixel the mean of the 2x2 (or 2x1, 1x2 at an odd
 * edge) pixels it covers, rounded. */
static TerrainImage *
half_size (TerrainImage  *image,
           GError       **error)
{
  guint w = terrain_image_get_width (image), h = terrain_image_get_height (image);
  guint nw = MAX (w / 2, 1), nh = MAX (h / 2, 1);
  TerrainImage *next = terrain_image_new (TERRAIN_IMAGE_RGBA8, nw, nh, error);
  const guint8 *src = terrain_image_get_data (image, NULL);
  gsize stride = terrain_image_get_stride (image);
  guint8 *dst;
  gsize dst_stride;

  if (next == NULL)
    return NULL;
  dst = terrain_image_get_data (next, NULL);
  dst_stride = terrain_image_get_stride (next);
  for (guint y = 0; y < nh; y++)
    for (guint x = 0; x < nw; x++)
      {
        guint x0 = MIN (2 * x, w - 1), x1 = MIN (2 * x + 1, w - 1);
        guint y0 = MIN (2 * y, h - 1), y1 = MIN (2 * y + 1, h - 1);

        for (guint c = 0; c < 4; c++)
          {
            guint sum = src[y0 * stride + x0 * 4 + c] + src[y0 * stride + x1 * 4 + c] +
                        src[y1 * stride + x0 * 4 + c] + src[y1 * stride + x1 * 4 + c];

            dst[y * dst_stride + x * 4 + c] = (guint8) ((sum + 2) / 4);
          }
      }
  return next;
}

/* Encodes one mip level, 4x4 blocks row-major; a level narrower or shorter
 * than a block repeats its last column and row into the block. */
static void
put_level (TerrainWriter    *writer,
           TerrainImage     *image,
           TerrainDdsFormat  format)
{
  guint w = terrain_image_get_width (image), h = terrain_image_get_height (image);
  const guint8 *src = terrain_image_get_data (image, NULL);
  gsize stride = terrain_image_get_stride (image);

  for (guint by = 0; by < (h + 3) / 4; by++)
    for (guint bx = 0; bx < (w + 3) / 4; bx++)
      {
        guint8 rgba[16 * 4], alpha[16], block[8];

        for (guint y = 0; y < 4; y++)
          for (guint x = 0; x < 4; x++)
            {
              const guint8 *p = src + MIN (by * 4 + y, h - 1) * stride +
                                MIN (bx * 4 + x, w - 1) * 4;

              memcpy (rgba + (y * 4 + x) * 4, p, 4);
              alpha[y * 4 + x] = p[3];
            }
        if (format == TERRAIN_DDS_FORMAT_BC3)
          {
            /* A BC3 alpha block is laid out as a BC4 block. */
            terrain_bc4_encode_block (alpha, 4, block);
            terrain_writer_put_bytes (writer, block, sizeof block);
          }
        terrain_bc1_encode_block (rgba, 16, block);
        terrain_writer_put_bytes (writer, block, sizeof block);
      }
}

/**
 * terrain_dds_encode:
 * @image: the picture, %TERRAIN_IMAGE_RGBA8, at most 32768 pixels a side
 * @format: %TERRAIN_DDS_FORMAT_BC1 (DXT1, opaque) or
 *   %TERRAIN_DDS_FORMAT_BC3 (DXT5, with alpha)
 * @error: return location for a #GError
 *
 * Encodes a picture as a DDS stream with the full mip chain, down to 1x1
 * (each level the rounded mean of 2x2 pixels of the one above), with
 * libterrain's BC encoder ([func@Terrain.bc1_encode_block]; BC3 alpha
 * with [func@Terrain.bc4_encode_block]). BC3 colour blocks are the
 * encoder's four-colour blocks, as BC3 reads them. [func@Terrain.dds_decode]
 * reads the result back.
 *
 * Returns: (transfer full) (nullable): the DDS stream, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE for another pixel format or block format,
 *   or %TERRAIN_ERROR_LIMIT_EXCEEDED for too large a picture
 */
GBytes *
terrain_dds_encode (TerrainImage      *image,
                    TerrainDdsFormat   format,
                    GError           **error)
{
  g_autoptr(TerrainImage) level = NULL;
  TerrainWriter writer;
  guint w, h, n_mips = 1;
  guint block_bytes = format == TERRAIN_DDS_FORMAT_BC3 ? 16 : 8;

  g_return_val_if_fail (image != NULL, NULL);

  if (format != TERRAIN_DDS_FORMAT_BC1 && format != TERRAIN_DDS_FORMAT_BC3)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                           "DDS: only BC1 and BC3 surfaces can be written");
      return NULL;
    }
  if (terrain_image_get_format (image) != TERRAIN_IMAGE_RGBA8)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                           "DDS: the picture to encode must be RGBA");
      return NULL;
    }
  w = terrain_image_get_width (image);
  h = terrain_image_get_height (image);
  if (w == 0 || h == 0 || w > 32768 || h > 32768)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "DDS: a %u x %u picture is outside 1 to 32768 pixels a side", w, h);
      return NULL;
    }
  for (guint s = MAX (w, h); s > 1; s /= 2)
    n_mips++;

  terrain_writer_init (&writer, TERRAIN_DDS_HEADER_SIZE + (gsize) ((w + 3) / 4) *
                                ((h + 3) / 4) * block_bytes * 4 / 3 + 64);
  terrain_writer_set_section (&writer, "DDS");
  terrain_writer_put_u32 (&writer, DDS_MAGIC);
  terrain_writer_put_u32 (&writer, DDS_HEADER_STRUCT);
  terrain_writer_put_u32 (&writer, DDSD_CAPS | DDSD_HEIGHT | DDSD_WIDTH | DDSD_PIXELFORMAT |
                                   DDSD_MIPMAPCOUNT | DDSD_LINEARSIZE);
  terrain_writer_put_u32 (&writer, h);
  terrain_writer_put_u32 (&writer, w);
  /* dwPitchOrLinearSize: bytes of the top level. */
  terrain_writer_put_u32 (&writer, ((w + 3) / 4) * ((h + 3) / 4) * block_bytes);
  terrain_writer_put_u32 (&writer, 0);          /* dwDepth */
  terrain_writer_put_u32 (&writer, n_mips);
  terrain_writer_put_zeros (&writer, 11 * 4);   /* dwReserved1 */
  terrain_writer_put_u32 (&writer, DDS_PIXELFORMAT_SIZE);
  terrain_writer_put_u32 (&writer, DDPF_FOURCC);
  terrain_writer_put_u32 (&writer, format == TERRAIN_DDS_FORMAT_BC3 ? FOURCC ('D', 'X', 'T', '5')
                                                                    : FOURCC ('D', 'X', 'T', '1'));
  terrain_writer_put_zeros (&writer, 5 * 4);    /* bit count and masks */
  terrain_writer_put_u32 (&writer, DDSCAPS_TEXTURE | DDSCAPS_COMPLEX | DDSCAPS_MIPMAP);
  terrain_writer_put_zeros (&writer, 4 * 4);    /* dwCaps2..4, dwReserved2 */

  level = terrain_image_ref (image);
  for (guint i = 0; i < n_mips; i++)
    {
      put_level (&writer, level, format);
      if (i + 1 < n_mips)
        {
          TerrainImage *next = half_size (level, error);

          if (next == NULL)
            {
              terrain_writer_clear (&writer);
              return NULL;
            }
          terrain_image_unref (level);
          level = next;
        }
    }
  return terrain_writer_finish (&writer, error);
}
