/* terrain-palette.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <gio/gio.h>

#include "terrain-version.h"
#include "core/terrain-image.h"
#include "core/terrain-render-options.h"

G_BEGIN_DECLS

#define TERRAIN_TYPE_PALETTE (terrain_palette_get_type ())

/**
 * TerrainPalette:
 *
 * A 256-colour palette, as used by Total Annihilation's indexed-colour tiles
 * and minimaps. Immutable once made.
 */
typedef struct _TerrainPalette TerrainPalette;

/**
 * TERRAIN_PALETTE_MINIMAP_FILL:
 *
 * Palette index of the blue that fills the unused part of a TNT minimap.
 */
#define TERRAIN_PALETTE_MINIMAP_FILL 0x64

/**
 * TerrainDither:
 * @TERRAIN_DITHER_NONE: every pixel maps to its nearest palette entry
 * @TERRAIN_DITHER_ORDERED: an 8x8 Bayer threshold matrix offsets each pixel
 *   by up to half of %TERRAIN_PALETTE_ORDERED_SPREAD before the lookup
 * @TERRAIN_DITHER_FLOYD_STEINBERG: Floyd-Steinberg error diffusion (7/16 right,
 *   3/16 below left, 5/16 below, 1/16 below right), rows left to right
 *
 * How [method@Terrain.Palette.quantize_rgba] spreads the error between an
 * image's colours and the palette's.
 */
typedef enum
{
  TERRAIN_DITHER_NONE,
  TERRAIN_DITHER_ORDERED,
  TERRAIN_DITHER_FLOYD_STEINBERG,
} TerrainDither;

/**
 * TERRAIN_PALETTE_ORDERED_SPREAD:
 *
 * Range, in levels per channel, of the offsets ordered dithering adds: from
 * -16 to +15.
 */
#define TERRAIN_PALETTE_ORDERED_SPREAD 32

TERRAIN_AVAILABLE_IN_ALL
GType           terrain_palette_get_type        (void) G_GNUC_CONST;
TERRAIN_AVAILABLE_IN_ALL
TerrainPalette *terrain_palette_new_from_bytes  (GBytes                *bytes,
                                                 GError               **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainPalette *terrain_palette_new_from_file   (GFile                 *file,
                                                 GCancellable          *cancellable,
                                                 GError               **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainPalette *terrain_palette_new_from_rgb    (const guint8          *rgb,
                                                 gsize                  n_colors);
TERRAIN_AVAILABLE_IN_ALL
TerrainPalette *terrain_palette_ref             (TerrainPalette        *palette);
TERRAIN_AVAILABLE_IN_ALL
void            terrain_palette_unref           (TerrainPalette        *palette);
TERRAIN_AVAILABLE_IN_ALL
void            terrain_palette_get_color       (const TerrainPalette  *palette,
                                                 guint8                 index,
                                                 guint8                *r,
                                                 guint8                *g,
                                                 guint8                *b);
TERRAIN_AVAILABLE_IN_ALL
const guint8   *terrain_palette_get_rgba_table  (const TerrainPalette  *palette);
TERRAIN_AVAILABLE_IN_ALL
guint8          terrain_palette_nearest         (const TerrainPalette  *palette,
                                                 guint8                 r,
                                                 guint8                 g,
                                                 guint8                 b);
TERRAIN_AVAILABLE_IN_ALL
guint8          terrain_palette_nearest_fast    (const TerrainPalette  *palette,
                                                 guint8                 r,
                                                 guint8                 g,
                                                 guint8                 b);
TERRAIN_AVAILABLE_IN_ALL
void            terrain_palette_quantize_rgba   (const TerrainPalette  *palette,
                                                 const guint8          *rgba,
                                                 guint                  width,
                                                 guint                  height,
                                                 gsize                  stride,
                                                 TerrainDither          dither,
                                                 guint8                *indices);
TERRAIN_AVAILABLE_IN_ALL
GBytes         *terrain_palette_quantize_rgba_bytes (const TerrainPalette  *palette,
                                                     GBytes                *rgba,
                                                     guint                  width,
                                                     guint                  height,
                                                     gsize                  stride,
                                                     TerrainDither          dither,
                                                     GError               **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes         *terrain_palette_quantize_image  (const TerrainPalette  *palette,
                                                 TerrainImage          *image,
                                                 TerrainDither          dither,
                                                 GError               **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes         *terrain_palette_to_pal_bytes    (const TerrainPalette  *palette);
TERRAIN_AVAILABLE_IN_ALL
TerrainRenderOptions *terrain_palette_to_render_options (const TerrainPalette *palette);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerrainPalette, terrain_palette_unref)

G_END_DECLS
