/* terrain-dds.c: DirectDraw Surface headers and decoding
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-dds.h"
#include "core/terrain-bc.h"
#include "core/terrain-error.h"
#include "core/terrain-reader-private.h"

#define DDS_MAGIC            0x20534444u   /* "DDS " */
#define DDS_HEADER_STRUCT    124
#define DDS_PIXELFORMAT_SIZE 32
#define DDS_DX10_SIZE        20
#define DDS_MAX_MIPS         32

#define DDPF_ALPHAPIXELS     0x1
#define DDPF_ALPHA           0x2
#define DDPF_FOURCC          0x4
#define DDPF_RGB             0x40
#define DDPF_LUMINANCE       0x20000

#define DDSCAPS2_CUBEMAP     0x200
#define DDSCAPS2_CUBE_FACES  0xFC00
#define DDSCAPS2_VOLUME      0x200000

#define DX10_MISC_TEXTURECUBE 0x4

#define FOURCC(a, b, c, d) ((guint32) (a) | ((guint32) (b) << 8) | ((guint32) (c) << 16) | \
                            ((guint32) (d) << 24))

static void
set_masks (TerrainDdsInfo *info,
           guint32         bits,
           guint32         r,
           guint32         g,
           guint32         b,
           guint32         a)
{
  info->format = TERRAIN_DDS_FORMAT_UNCOMPRESSED;
  info->bit_count = bits;
  info->r_mask = r;
  info->g_mask = g;
  info->b_mask = b;
  info->a_mask = a;
}

static void
map_dxgi (TerrainDdsInfo *info)
{
  switch (info->dxgi_format)
    {
    case 71: case 72:
      info->format = TERRAIN_DDS_FORMAT_BC1;
      break;
    case 74: case 75:
      info->format = TERRAIN_DDS_FORMAT_BC2;
      break;
    case 77: case 78:
      info->format = TERRAIN_DDS_FORMAT_BC3;
      break;
    case 28: case 29:   /* R8G8B8A8 */
      set_masks (info, 32, 0xFF, 0xFF00, 0xFF0000, 0xFF000000u);
      break;
    case 87: case 91:   /* B8G8R8A8 */
      set_masks (info, 32, 0xFF0000, 0xFF00, 0xFF, 0xFF000000u);
      break;
    case 88: case 93:   /* B8G8R8X8 */
      set_masks (info, 32, 0xFF0000, 0xFF00, 0xFF, 0);
      break;
    default:
      info->format = TERRAIN_DDS_FORMAT_UNKNOWN;
      break;
    }
}

/* Bytes of one 2D slice of a mip level. */
static gboolean
level_size (const TerrainDdsInfo *info,
            guint32               width,
            guint32               height,
            guint64              *size)
{
  guint64 bw, bh;

  switch (info->format)
    {
    case TERRAIN_DDS_FORMAT_BC1:
    case TERRAIN_DDS_FORMAT_BC2:
    case TERRAIN_DDS_FORMAT_BC3:
      bw = MAX (1, ((guint64) width + 3) / 4);
      bh = MAX (1, ((guint64) height + 3) / 4);
      return g_uint64_checked_mul (size, bw * bh,
                                   info->format == TERRAIN_DDS_FORMAT_BC1 ? 8 : 16);
    case TERRAIN_DDS_FORMAT_UNCOMPRESSED:
      return g_uint64_checked_mul (size, (guint64) width * height, info->bit_count / 8);
    case TERRAIN_DDS_FORMAT_UNKNOWN:
    default:
      *size = 0;
      return TRUE;
    }
}

/**
 * terrain_dds_parse:
 * @bytes: a complete DDS stream, starting with `DDS `
 * @offset: byte offset of @bytes in its file, for error messages
 * @info: (out caller-allocates): what the header says
 * @error: return location for a #GError
 *
 * Parses a DDS header and its optional DX10 extension and checks that the
 * stream holds every byte of pixels the header implies (all surfaces and
 * mip levels): a DDS texture chunk or TQT tile must be a complete stream
 * (atlas-chu-tqt.md §4, §9e). Bytes after the pixels are allowed. For
 * pixel formats libterrain does not know, @info->format is
 * %TERRAIN_DDS_FORMAT_UNKNOWN and completeness cannot be checked.
 *
 * Returns: %TRUE, or %FALSE with %TERRAIN_ERROR_BAD_MAGIC (no `DDS `),
 *   %TERRAIN_ERROR_TRUNCATED (header or pixels cut short),
 *   %TERRAIN_ERROR_INVALID_VALUE (a wrong structure size, a zero width or
 *   height, more than 32 mip levels) or %TERRAIN_ERROR_LIMIT_EXCEEDED (sizes
 *   overflow)
 */
gboolean
terrain_dds_parse (GBytes          *bytes,
                   goffset          offset,
                   TerrainDdsInfo  *info,
                   GError         **error)
{
  TerrainReader reader;
  const guint8 *data;
  gsize size = 0;
  guint32 magic, header_struct, flags, pitch, mips, pf_size, pf_flags, caps, caps2;
  guint64 total = 0, surface = 0;

  g_return_val_if_fail (bytes != NULL, FALSE);
  g_return_val_if_fail (info != NULL, FALSE);

  memset (info, 0, sizeof *info);
  data = g_bytes_get_data (bytes, &size);
  terrain_reader_init_data (&reader, data, size, offset, "DDS");

  if (!terrain_reader_read_u32 (&reader, &magic, error))
    return FALSE;
  if (magic != DDS_MAGIC)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                   "DDS: magic 0x%08X at byte offset %" G_GOFFSET_FORMAT " is not \"DDS \"",
                   magic, offset);
      return FALSE;
    }
  if (!terrain_reader_check_span (&reader, 0, TERRAIN_DDS_HEADER_SIZE, "DDS header", error))
    return FALSE;

  terrain_reader_read_u32 (&reader, &header_struct, NULL);
  terrain_reader_read_u32 (&reader, &flags, NULL);
  terrain_reader_read_u32 (&reader, &info->height, NULL);
  terrain_reader_read_u32 (&reader, &info->width, NULL);
  terrain_reader_read_u32 (&reader, &pitch, NULL);
  terrain_reader_read_u32 (&reader, &info->depth, NULL);
  terrain_reader_read_u32 (&reader, &mips, NULL);
  terrain_reader_skip (&reader, 11 * 4, NULL);
  terrain_reader_read_u32 (&reader, &pf_size, NULL);
  terrain_reader_read_u32 (&reader, &pf_flags, NULL);
  terrain_reader_read_u32 (&reader, &info->fourcc, NULL);
  terrain_reader_read_u32 (&reader, &info->bit_count, NULL);
  terrain_reader_read_u32 (&reader, &info->r_mask, NULL);
  terrain_reader_read_u32 (&reader, &info->g_mask, NULL);
  terrain_reader_read_u32 (&reader, &info->b_mask, NULL);
  terrain_reader_read_u32 (&reader, &info->a_mask, NULL);
  terrain_reader_read_u32 (&reader, &caps, NULL);
  terrain_reader_read_u32 (&reader, &caps2, NULL);
  terrain_reader_skip (&reader, 3 * 4, NULL);

  if (header_struct != DDS_HEADER_STRUCT || pf_size != DDS_PIXELFORMAT_SIZE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "DDS: header size %u and pixel format size %u at byte offsets %"
                   G_GOFFSET_FORMAT " and %" G_GOFFSET_FORMAT " must be 124 and 32",
                   header_struct, pf_size, offset + 4, offset + 76);
      return FALSE;
    }
  if (info->width == 0 || info->height == 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "DDS: the header at byte offset %" G_GOFFSET_FORMAT " declares a %ux%u image",
                   offset, info->width, info->height);
      return FALSE;
    }

  info->header_size = TERRAIN_DDS_HEADER_SIZE;
  info->mip_count = MAX (mips, 1);
  info->n_surfaces = 1;
  info->depth = (caps2 & DDSCAPS2_VOLUME) ? MAX (info->depth, 1) : 1;
  if (caps2 & DDSCAPS2_CUBEMAP)
    info->n_surfaces = (guint32) __builtin_popcount (caps2 & DDSCAPS2_CUBE_FACES);
  info->n_surfaces = MAX (info->n_surfaces, 1);

  if (info->mip_count > DDS_MAX_MIPS)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "DDS: %u mip levels (byte offset %" G_GOFFSET_FORMAT ") exceed %d",
                   info->mip_count, offset + 28, DDS_MAX_MIPS);
      return FALSE;
    }

  if (pf_flags & DDPF_FOURCC)
    {
      switch (info->fourcc)
        {
        case FOURCC ('D', 'X', 'T', '1'):
          info->format = TERRAIN_DDS_FORMAT_BC1;
          break;
        case FOURCC ('D', 'X', 'T', '2'):
        case FOURCC ('D', 'X', 'T', '3'):
          info->format = TERRAIN_DDS_FORMAT_BC2;
          break;
        case FOURCC ('D', 'X', 'T', '4'):
        case FOURCC ('D', 'X', 'T', '5'):
          info->format = TERRAIN_DDS_FORMAT_BC3;
          break;
        case FOURCC ('D', 'X', '1', '0'):
          {
            guint32 dimension, misc, array_size;

            if (!terrain_reader_read_u32 (&reader, &info->dxgi_format, error) ||
                !terrain_reader_read_u32 (&reader, &dimension, error) ||
                !terrain_reader_read_u32 (&reader, &misc, error) ||
                !terrain_reader_read_u32 (&reader, &array_size, error) ||
                !terrain_reader_skip (&reader, 4, error))
              {
                g_prefix_error (error, "DX10 header extension: ");
                return FALSE;
              }
            info->header_size += DDS_DX10_SIZE;
            /* Six faces per element of a cube array: keep the product in 32 bits. */
            if ((misc & DX10_MISC_TEXTURECUBE) && array_size > G_MAXUINT32 / 6)
              {
                g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                             "DDS: a cube map array of %u elements (byte offset %"
                             G_GOFFSET_FORMAT ") has more than 2^32 faces",
                             array_size, offset + 140);
                return FALSE;
              }
            info->n_surfaces = MAX (array_size, 1) * ((misc & DX10_MISC_TEXTURECUBE) ? 6 : 1);
            map_dxgi (info);
          }
          break;
        default:
          info->format = TERRAIN_DDS_FORMAT_UNKNOWN;
          break;
        }
    }
  else if (pf_flags & (DDPF_RGB | DDPF_LUMINANCE | DDPF_ALPHA))
    {
      info->luminance = (pf_flags & DDPF_LUMINANCE) != 0;
      if (!(pf_flags & (DDPF_ALPHAPIXELS | DDPF_ALPHA)))
        info->a_mask = 0;
      if (info->bit_count == 8 || info->bit_count == 16 || info->bit_count == 24 ||
          info->bit_count == 32)
        info->format = TERRAIN_DDS_FORMAT_UNCOMPRESSED;
    }

  if (info->format == TERRAIN_DDS_FORMAT_UNKNOWN)
    return TRUE;

  for (guint m = 0; m < info->mip_count; m++)
    {
      guint32 w = MAX (1, info->width >> MIN (m, 31));
      guint32 h = MAX (1, info->height >> MIN (m, 31));
      guint32 d = MAX (1, info->depth >> MIN (m, 31));
      guint64 slice;

      if (!level_size (info, w, h, &slice) ||
          !g_uint64_checked_mul (&slice, slice, d) ||
          !g_uint64_checked_add (&surface, surface, slice))
        goto overflow;
    }
  if (!g_uint64_checked_mul (&total, surface, info->n_surfaces))
    goto overflow;
  info->data_size = total;

  if (total > terrain_reader_remaining (&reader))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "DDS: a %ux%u image with %u mip levels and %u surfaces needs %" G_GUINT64_FORMAT
                   " bytes of pixels from byte offset %" G_GOFFSET_FORMAT ", only %" G_GSIZE_FORMAT
                   " remain",
                   info->width, info->height, info->mip_count, info->n_surfaces, total,
                   terrain_reader_abs_offset (&reader), terrain_reader_remaining (&reader));
      return FALSE;
    }

  return TRUE;

overflow:
  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
               "DDS: the pixel sizes of a %ux%u image (header at byte offset %" G_GOFFSET_FORMAT
               ") overflow 64 bits", info->width, info->height, offset);
  return FALSE;
}

static guint8
extract (guint32 pixel,
         guint32 mask,
         guint8  missing)
{
  guint shift, bits;
  guint32 value, max;

  if (mask == 0)
    return missing;
  shift = (guint) __builtin_ctz (mask);
  bits = (guint) __builtin_popcount (mask);
  value = (pixel & mask) >> shift;
  max = bits >= 32 ? G_MAXUINT32 : (((guint32) 1 << bits) - 1);
  return (guint8) (((guint64) value * 255 + max / 2) / max);
}

/**
 * terrain_dds_decode:
 * @bytes: a complete DDS stream
 * @limits: (nullable): allocation limits (max_image_side), or %NULL for the
 *   defaults
 * @error: return location for a #GError
 *
 * Decodes the top mip level of the first surface (first face, first slice)
 * to RGBA: DXT1/BC1 (with its one-bit alpha), DXT2/3/BC2, DXT4/5/BC3, and
 * uncompressed RGB, RGBA, luminance and alpha formats through their bit
 * masks. DDS channels follow the pixel-format masks or DXGI format, never
 * the Atlas BGR convention (atlas-chu-tqt.md §4). Blocks decode through
 * libterrain's one BC codec ([func@Terrain.bc3_decode_block]), rounding as
 * the bcdec reference decoder does.
 *
 * Returns: (transfer full) (nullable): the image, or %NULL with the errors
 *   of [func@Terrain.dds_parse], %TERRAIN_ERROR_NOT_SUPPORTED for an unknown
 *   pixel format, or %TERRAIN_ERROR_LIMIT_EXCEEDED for an image wider or
 *   taller than the limits
 */
TerrainImage *
terrain_dds_decode (GBytes               *bytes,
                    const TerrainLimits  *limits,
                    GError              **error)
{
  g_autoptr(TerrainImage) image = NULL;
  TerrainDdsInfo info;
  TerrainReader reader, pixels_reader;
  guint8 *out;
  gsize stride;

  g_return_val_if_fail (bytes != NULL, NULL);

  if (limits == NULL)
    limits = terrain_limits_get_default ();

  if (!terrain_dds_parse (bytes, 0, &info, error))
    return NULL;

  if (info.format == TERRAIN_DDS_FORMAT_UNKNOWN)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "DDS: pixel format (FourCC 0x%08X, DXGI format %u) cannot be decoded",
                   info.fourcc, info.dxgi_format);
      return NULL;
    }
  if (!terrain_limits_check_count (limits, info.width, limits->max_image_side, "DDS pixel column",
                                   "DDS", 16, error) ||
      !terrain_limits_check_count (limits, info.height, limits->max_image_side, "DDS pixel row",
                                   "DDS", 12, error))
    return NULL;

  image = terrain_image_new (TERRAIN_IMAGE_RGBA8, info.width, info.height, error);
  if (image == NULL)
    return NULL;
  out = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);

  terrain_reader_init (&reader, bytes, "DDS");
  if (!terrain_reader_sub (&reader, info.header_size, info.data_size, "DDS pixels",
                           &pixels_reader, error))
    return NULL;

  if (info.format == TERRAIN_DDS_FORMAT_UNCOMPRESSED)
    {
      guint bpp = info.bit_count / 8;

      for (guint32 y = 0; y < info.height; y++)
        for (guint32 x = 0; x < info.width; x++)
          {
            const guint8 *p;
            guint32 pixel = 0;
            guint8 *dest = out + (gsize) y * stride + 4 * (gsize) x;

            if (!terrain_reader_read_bytes (&pixels_reader, bpp, &p, error))
              return NULL;
            for (guint k = 0; k < bpp; k++)
              pixel |= (guint32) p[k] << (8 * k);

            dest[0] = extract (pixel, info.r_mask, 0);
            if (info.luminance)
              dest[1] = dest[2] = dest[0];
            else
              {
                dest[1] = extract (pixel, info.g_mask, 0);
                dest[2] = extract (pixel, info.b_mask, 0);
              }
            dest[3] = extract (pixel, info.a_mask, 0xFF);
          }
    }
  else
    {
      guint block_size = info.format == TERRAIN_DDS_FORMAT_BC1 ? 8 : 16;
      guint32 bw = MAX (1, (info.width + 3) / 4), bh = MAX (1, (info.height + 3) / 4);

      for (guint32 by = 0; by < bh; by++)
        for (guint32 bx = 0; bx < bw; bx++)
          {
            guint8 pixels[16][4];
            const guint8 *block;

            if (!terrain_reader_read_bytes (&pixels_reader, block_size, &block, error))
              return NULL;

            switch (info.format)
              {
              case TERRAIN_DDS_FORMAT_BC1:
                terrain_bc1_decode_block (block, &pixels[0][0], 16);
                break;
              case TERRAIN_DDS_FORMAT_BC2:
                terrain_bc2_decode_block (block, &pixels[0][0], 16);
                break;
              case TERRAIN_DDS_FORMAT_BC3:
              default:
                terrain_bc3_decode_block (block, &pixels[0][0], 16);
                break;
              }

            for (guint i = 0; i < 16; i++)
              {
                guint32 x = bx * 4 + i % 4, y = by * 4 + i / 4;

                if (x < info.width && y < info.height)
                  memcpy (out + (gsize) y * stride + 4 * (gsize) x, pixels[i], 4);
              }
          }
    }

  return g_steal_pointer (&image);
}
