/* terrain-image-private.h: image decoding under explicit limits
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-image.h"
#include "terrain-limits.h"

G_BEGIN_DECLS

TerrainImage *terrain_image_load_png_bytes_with_limits (GBytes               *bytes,
                                                        const TerrainLimits  *limits,
                                                        GError              **error);

/* Palette indices: an indexed-colour PNG (any bit depth) or an 8-bit
 * greyscale one read as GRAY8 indices, the palette itself ignored; any
 * other colour type is refused (TERRAIN_ERROR_INVALID_VALUE). */
TerrainImage *terrain_image_load_indexed_png_bytes     (GBytes               *bytes,
                                                        const TerrainLimits  *limits,
                                                        GError              **error);
/* A GRAY8 image of indices written as an 8-bit indexed-colour PNG whose
 * PLTE is the 256 colours of @rgb (768 bytes, R, G, B). */
GBytes       *terrain_image_save_indexed_png_bytes     (const TerrainImage   *image,
                                                        const guint8         *rgb,
                                                        GError              **error);

/* A PNG decoded a row at a time, in bounded memory (terrain-image.c). */
typedef struct _TerrainPngRows TerrainPngRows;

typedef struct
{
  const guint8 *pixels;    /* n_pixels pixels in the reader's format */
  guint y;                 /* the image row they belong to */
  guint x0;                /* the column of the first, then every x_step */
  guint x_step;
  guint n_pixels;
} TerrainPngRow;

TerrainPngRows *terrain_png_rows_new      (GBytes               *bytes,
                                           const TerrainLimits  *limits,
                                           const char           *section,
                                           GError              **error);
guint           terrain_png_rows_get_info (TerrainPngRows       *rows,
                                           guint                *width,
                                           guint                *height,
                                           TerrainImageFormat   *format,
                                           gboolean             *interlaced);
gboolean        terrain_png_rows_next     (TerrainPngRows       *rows,
                                           TerrainPngRow        *row,
                                           GError              **error);
gboolean        terrain_png_rows_finish   (TerrainPngRows       *rows,
                                           GError              **error);
void            terrain_png_rows_free     (TerrainPngRows       *rows);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerrainPngRows, terrain_png_rows_free)

G_END_DECLS
