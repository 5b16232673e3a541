/* terrain-image.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <gio/gio.h>

#include "terrain-version.h"

G_BEGIN_DECLS

/**
 * TerrainImageFormat:
 * @TERRAIN_IMAGE_RGBA8: 4 bytes per pixel, R, G, B, A
 * @TERRAIN_IMAGE_GRAY8: 1 byte per pixel
 * @TERRAIN_IMAGE_GRAY16: 2 bytes per pixel, host byte order
 *
 * Pixel layout of a [struct@Terrain.Image].
 */
typedef enum
{
  TERRAIN_IMAGE_RGBA8,
  TERRAIN_IMAGE_GRAY8,
  TERRAIN_IMAGE_GRAY16,
} TerrainImageFormat;

#define TERRAIN_TYPE_IMAGE (terrain_image_get_type ())

/**
 * TerrainImage:
 *
 * A simple pixel buffer (tightly packed rows, top row first) used to hand
 * rendered maps, minimaps and heightmaps to the CLI, the editor and PNG
 * encoding.
 */
typedef struct _TerrainImage TerrainImage;

TERRAIN_AVAILABLE_IN_ALL
GType               terrain_image_get_type       (void) G_GNUC_CONST;
TERRAIN_AVAILABLE_IN_ALL
TerrainImage       *terrain_image_new            (TerrainImageFormat   format,
                                                  guint                width,
                                                  guint                height,
                                                  GError             **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainImage       *terrain_image_shrink         (const TerrainImage  *image,
                                                  guint                factor,
                                                  GError             **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainImage       *terrain_image_ref            (TerrainImage        *image);
TERRAIN_AVAILABLE_IN_ALL
void                terrain_image_unref          (TerrainImage        *image);
TERRAIN_AVAILABLE_IN_ALL
TerrainImageFormat  terrain_image_get_format     (const TerrainImage  *image);
TERRAIN_AVAILABLE_IN_ALL
guint               terrain_image_get_width      (const TerrainImage  *image);
TERRAIN_AVAILABLE_IN_ALL
guint               terrain_image_get_height     (const TerrainImage  *image);
TERRAIN_AVAILABLE_IN_ALL
gsize               terrain_image_get_stride     (const TerrainImage  *image);
TERRAIN_AVAILABLE_IN_ALL
guint8             *terrain_image_get_data       (TerrainImage        *image,
                                                  gsize               *size);
TERRAIN_AVAILABLE_IN_ALL
GBytes             *terrain_image_save_png_bytes (const TerrainImage  *image,
                                                  GError             **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean            terrain_image_save_png       (const TerrainImage  *image,
                                                  GFile               *file,
                                                  GCancellable        *cancellable,
                                                  GError             **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainImage       *terrain_image_load_png_bytes (GBytes              *bytes,
                                                  GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerrainImage, terrain_image_unref)

G_END_DECLS
