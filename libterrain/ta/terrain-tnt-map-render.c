/* terrain-tnt-map-render.c: TNT pictures and heights
 * (the files of TerrainTntMap: terrain-tnt-map-impl-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-tnt-map-impl-private.h"
#include "terrain-tnt-image.h"
#include "terrain-tile-private.h"
#include "core/terrain-error.h"

/* Rendering                                                                */

static TerrainImage *render_tiles (TerrainTntMap  *self,
                                   const guint8   *rgba,
                                   GError        **error);

static gboolean
require_palette (const guint8  *rgba,
                 GError       **error)
{
  if (rgba != NULL)
    return TRUE;

  g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TNT map: a palette is needed to render palette-indexed pixels");
  return FALSE;
}

/**
 * terrain_tnt_map_render:
 * @self: a #TerrainTntMap
 * @palette: the palette the tiles index (`PALETTE.PAL`)
 * @error: return location for a #GError
 *
 * Renders the whole map at one pixel per map pixel: `(Width/2)*32` x
 * `(Height/2)*32` RGBA pixels, each tile expanded through @palette. A tile
 * map entry not below the tile count is drawn as a magenta and black checker
 * of 8-pixel squares (magenta at the tile's top-left) so that damage is
 * visible.
 *
 * Returns: (transfer full) (nullable): the picture, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE when @palette is %NULL or the map has no
 *   whole tile, or %TERRAIN_ERROR_LIMIT_EXCEEDED when it is too large
 */
TerrainImage *
terrain_tnt_map_render (TerrainTntMap   *self,
                        TerrainPalette  *palette,
                        GError         **error)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  return render_tiles (self, palette != NULL ? terrain_palette_get_rgba_table (palette) : NULL,
                       error);
}

/* The tiles through a 256-entry RGBA table (a palette's or the render
 * options'); NULL fails. */
static TerrainImage *
render_tiles (TerrainTntMap  *self,
              const guint8   *rgba,
              GError        **error)
{
  g_autoptr(TerrainImage) image = NULL;
  const guint8 *tiles;
  guint8 *pixels;
  gsize stride;

  if (!require_palette (rgba, error))
    return NULL;

  if (self->tile_columns == 0 || self->tile_rows == 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT map: %ux%u cells hold no whole 32x32 tile to render",
                   self->width, self->height);
      return NULL;
    }

  image = terrain_image_new (TERRAIN_IMAGE_RGBA8,
                             self->tile_columns * TERRAIN_TNT_TILE_PIXELS,
                             self->tile_rows * TERRAIN_TNT_TILE_PIXELS, error);
  if (image == NULL)
    return NULL;

  tiles = self->blocks[TERRAIN_TNT_SECTION_TILES].data;
  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);

  for (guint row = 0; row < self->tile_rows; row++)
    for (guint column = 0; column < self->tile_columns; column++)
      {
        guint16 tile = tile_map_entry (self, (gsize) row * self->tile_columns + column);
        guint8 *out = pixels + (gsize) row * TERRAIN_TNT_TILE_PIXELS * stride +
                      (gsize) column * TERRAIN_TNT_TILE_PIXELS * 4;

        terrain_ta_draw_tile (out, stride,
                              tile < self->n_tiles
                                ? tiles + (gsize) tile * TERRAIN_TNT_TILE_BYTES : NULL,
                              rgba);
      }

  return g_steal_pointer (&image);
}

/**
 * terrain_tnt_map_render_minimap:
 * @self: a #TerrainTntMap
 * @palette: the palette the minimap indexes
 * @crop: %TRUE to return only the used sub-rectangle
 *   ([method@Terrain.TntMap.get_minimap_used_size]), %FALSE for the whole
 *   stored bitmap including the 0x64 fill
 * @error: return location for a #GError
 *
 * Renders the embedded minimap as RGBA. When the map embeds none (or a
 * zero-sized one), renders the 252x252 minimap
 * [method@Terrain.TntMap.update_minimap] would make (the one generator,
 * [method@Terrain.TntMap.compute_minimap]), without changing the map.
 *
 * Returns: (transfer full) (nullable): the picture, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE when @palette is %NULL
 */
TerrainImage *
terrain_tnt_map_render_minimap (TerrainTntMap   *self,
                                TerrainPalette  *palette,
                                gboolean         crop,
                                GError         **error)
{
  g_autoptr(TerrainImage) image = NULL;
  g_autofree guint8 *generated = NULL;
  const guint8 *rgba, *src;
  guint stored_w, stored_h, out_w, out_h;
  guint8 *pixels;
  gsize stride;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  if (!require_palette (palette != NULL ? terrain_palette_get_rgba_table (palette) : NULL, error))
    return NULL;

  src = terrain_tnt_map_get_minimap (self, &stored_w, &stored_h);
  if (src == NULL)
    {
      stored_w = stored_h = DEFAULT_MINIMAP_SIDE;
      generated = terrain_tnt_map_compute_minimap (self, palette, stored_w, stored_h);
      src = generated;
    }

  out_w = stored_w;
  out_h = stored_h;
  if (crop)
    {
      tnt_minimap_used_size_for (self, stored_w, stored_h, &out_w, &out_h);
      out_w = CLAMP (out_w, 1, stored_w);
      out_h = CLAMP (out_h, 1, stored_h);
    }

  image = terrain_image_new (TERRAIN_IMAGE_RGBA8, out_w, out_h, error);
  if (image == NULL)
    return NULL;

  rgba = terrain_palette_get_rgba_table (palette);
  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  for (guint y = 0; y < out_h; y++)
    for (guint x = 0; x < out_w; x++)
      memcpy (pixels + y * stride + 4 * x, rgba + 4 * src[(gsize) y * stored_w + x], 4);

  return g_steal_pointer (&image);
}

TerrainImage *
tnt_map_render_image (TerrainDocument       *document,
                      TerrainRenderOptions  *options,
                      GError               **error)
{
  return render_tiles (TERRAIN_TNT_MAP (document),
                       terrain_render_options_get_rgba_table (options), error);
}

TerrainImage *
tnt_map_export_heights (TerrainDocument  *document,
                        GError          **error)
{
  TerrainTntMap *self = TERRAIN_TNT_MAP (document);
  g_autoptr(TerrainImage) image = NULL;
  guint8 *pixels;
  gsize stride;

  image = terrain_image_new (TERRAIN_IMAGE_GRAY16, self->width, self->height, error);
  if (image == NULL)
    return NULL;

  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  for (guint y = 0; y < self->height; y++)
    {
      guint16 *row = (guint16 *) (gpointer) (pixels + y * stride);

      for (guint x = 0; x < self->width; x++)
        row[x] = (guint16) (cell_data (self, x, y)[0] * 257u);
    }

  return g_steal_pointer (&image);
}

/* ------------------------------------------------------------------------ */
