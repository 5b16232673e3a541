/* terrain-dds.h: DirectDraw Surface headers and decoding
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <glib-object.h>

#include "terrain-version.h"
#include "core/terrain-image.h"
#include "core/terrain-limits.h"

G_BEGIN_DECLS

/**
 * TERRAIN_DDS_HEADER_SIZE:
 *
 * Size of the magic `DDS ` and the DDS_HEADER that follows it.
 */
#define TERRAIN_DDS_HEADER_SIZE 128

/**
 * TerrainDdsFormat:
 * @TERRAIN_DDS_FORMAT_UNKNOWN: a pixel format libterrain cannot size or
 *   decode
 * @TERRAIN_DDS_FORMAT_BC1: DXT1 (BC1), 8 bytes per 4x4 block
 * @TERRAIN_DDS_FORMAT_BC2: DXT2/DXT3 (BC2), 16 bytes per block
 * @TERRAIN_DDS_FORMAT_BC3: DXT4/DXT5 (BC3), 16 bytes per block
 * @TERRAIN_DDS_FORMAT_UNCOMPRESSED: RGB, RGBA, luminance or alpha pixels
 *   described by bit masks
 *
 * The pixel formats of [struct@Terrain.DdsInfo].
 */
typedef enum
{
  TERRAIN_DDS_FORMAT_UNKNOWN,
  TERRAIN_DDS_FORMAT_BC1,
  TERRAIN_DDS_FORMAT_BC2,
  TERRAIN_DDS_FORMAT_BC3,
  TERRAIN_DDS_FORMAT_UNCOMPRESSED,
} TerrainDdsFormat;

/**
 * TerrainDdsInfo:
 * @width: width of the top mip level in pixels
 * @height: height of the top mip level
 * @depth: depth of a volume texture, 1 otherwise
 * @mip_count: mip levels stored (at least 1)
 * @n_surfaces: faces of a cube map times DX10 array size, 1 otherwise
 * @fourcc: the pixel format's FourCC (little-endian U32), 0 if none
 * @dxgi_format: the DX10 extension's DXGI format, 0 without extension
 * @bit_count: bits per pixel of an uncompressed format
 * @r_mask: red bit mask of an uncompressed format
 * @g_mask: green bit mask
 * @b_mask: blue bit mask
 * @a_mask: alpha bit mask
 * @luminance: the uncompressed format is luminance (its red mask is the
 *   grey level)
 * @format: the pixel format
 * @header_size: bytes before the pixels: 128, or 148 with the DX10 extension
 * @data_size: bytes of pixels the header implies (every surface and mip
 *   level), 0 when @format is unknown
 *
 * What a DDS header says, as parsed by [func@Terrain.dds_parse].
 */
typedef struct _TerrainDdsInfo TerrainDdsInfo;

struct _TerrainDdsInfo
{
  guint32 width;
  guint32 height;
  guint32 depth;
  guint32 mip_count;
  guint32 n_surfaces;
  guint32 fourcc;
  guint32 dxgi_format;
  guint32 bit_count;
  guint32 r_mask;
  guint32 g_mask;
  guint32 b_mask;
  guint32 a_mask;
  gboolean luminance;
  TerrainDdsFormat format;
  gsize header_size;
  guint64 data_size;
};

TERRAIN_AVAILABLE_IN_ALL
gboolean      terrain_dds_parse  (GBytes               *bytes,
                                  goffset               offset,
                                  TerrainDdsInfo       *info,
                                  GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainImage *terrain_dds_decode (GBytes               *bytes,
                                  const TerrainLimits  *limits,
                                  GError              **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes       *terrain_dds_encode (TerrainImage         *image,
                                  TerrainDdsFormat      format,
                                  GError              **error);

G_END_DECLS
