/* terrain-tnt-preview.c: kbot-style map previews with feature sprites and start positions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-tnt-preview.h"
#include "terrain-feature-sprites-private.h"
#include "core/terrain-error.h"

/*
 * The picture is kbot's `tnt preview` (coreprime/kbot,
 * `internal/tntpreview/preview.go`): the tiles drawn through the palette,
 * each placed feature's sprite placed on its anchor as the game does
 * ([class@Terrain.FeatureSprites], terrain-feature-sprites.c: the anchor
 * is the centre of the footprint lifted by half the ground height), and a
 * numbered disc at every start position of one schema. Metal
 * and geothermal features get a ring on their anchor (TA Forever's map
 * previews mark both); features that cannot be drawn get an outline of their
 * footprint so they still show.
 */

#define CELL TERRAIN_TNT_CELL_PIXELS

typedef struct
{
  guint8 *pixels;
  gsize   stride;
  gint    width;
  gint    height;
} Canvas;

static void
blend (Canvas       *canvas,
       gint          x,
       gint          y,
       const guint8  rgb[3],
       guint         alpha)
{
  guint8 *p;

  if (x < 0 || y < 0 || x >= canvas->width || y >= canvas->height || alpha == 0)
    return;
  p = canvas->pixels + (gsize) y * canvas->stride + 4 * (gsize) x;
  for (guint c = 0; c < 3; c++)
    p[c] = (guint8) ((p[c] * (255 - alpha) + rgb[c] * alpha + 127) / 255);
  p[3] = 0xff;
}

/* A disc of radius @r (pixels) centred on (@cx, @cy), edges smoothed over a pixel. */
static void
disc (Canvas       *canvas,
      gint          cx,
      gint          cy,
      gdouble       r,
      const guint8  rgb[3],
      guint         alpha)
{
  gint reach = (gint) r + 1;

  for (gint dy = -reach; dy <= reach; dy++)
    for (gint dx = -reach; dx <= reach; dx++)
      {
        gdouble d = dx * dx + dy * dy;
        gdouble cover;

        if (d > (r + 0.5) * (r + 0.5))
          continue;
        cover = d <= (r - 0.5) * (r - 0.5) ? 1.0 : (r + 0.5) - sqrt (d);
        blend (canvas, cx + dx, cy + dy, rgb, (guint) (alpha * CLAMP (cover, 0.0, 1.0)));
      }
}

static void
ring (Canvas       *canvas,
      gint          cx,
      gint          cy,
      gdouble       r,
      gdouble       width,
      const guint8  rgb[3])
{
  gint reach = (gint) (r + width) + 1;

  for (gint dy = -reach; dy <= reach; dy++)
    for (gint dx = -reach; dx <= reach; dx++)
      {
        gdouble d = sqrt ((gdouble) (dx * dx + dy * dy));
        gdouble cover = width / 2 + 0.5 - ABS (d - r);

        if (cover > 0)
          blend (canvas, cx + dx, cy + dy, rgb, (guint) (255 * MIN (cover, 1.0)));
      }
}

static void
outline (Canvas       *canvas,
         gint          x0,
         gint          y0,
         gint          w,
         gint          h,
         const guint8  rgb[3])
{
  for (gint t = 0; t < 2; t++)
    {
      for (gint x = x0; x < x0 + w; x++)
        {
          blend (canvas, x, y0 + t, rgb, 255);
          blend (canvas, x, y0 + h - 1 - t, rgb, 255);
        }
      for (gint y = y0; y < y0 + h; y++)
        {
          blend (canvas, x0 + t, y, rgb, 255);
          blend (canvas, x0 + w - 1 - t, y, rgb, 255);
        }
    }
}

/* Digits 0-9, 5x7, one byte a row, the high five bits of the low byte used. */
static const guint8 digit_font[10][7] = {
  { 0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e },
  { 0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e },
  { 0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f },
  { 0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e },
  { 0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02 },
  { 0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e },
  { 0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e },
  { 0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08 },
  { 0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e },
  { 0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c },
};

static void
number (Canvas       *canvas,
        gint          cx,
        gint          cy,
        guint         value,
        gint          scale,
        const guint8  rgb[3])
{
  char text[12];
  gint n = g_snprintf (text, sizeof text, "%u", value);
  gint w = n * 6 * scale - scale, h = 7 * scale;
  gint x0 = cx - w / 2, y0 = cy - h / 2;

  for (gint i = 0; i < n; i++)
    for (gint row = 0; row < 7; row++)
      for (gint col = 0; col < 5; col++)
        if (digit_font[text[i] - '0'][row] & (0x10 >> col))
          for (gint sy = 0; sy < scale; sy++)
            for (gint sx = 0; sx < scale; sx++)
              blend (canvas, x0 + (i * 6 + col) * scale + sx, y0 + row * scale + sy, rgb, 255);
}

static void
shade (Canvas                 *canvas,
       TerrainTntMap          *map,
       TerrainTntPreviewFlags  flags)
{
  static const guint8 black[3] = { 0, 0, 0 }, white[3] = { 255, 255, 255 };
  static const guint8 water[3] = { 0x18, 0x40, 0x98 };
  guint sea = terrain_tnt_map_get_sea_level (map);

  for (gint cy = 0; cy * CELL < canvas->height && (guint) cy < terrain_tnt_map_get_height (map);
       cy++)
    for (gint cx = 0; cx * CELL < canvas->width && (guint) cx < terrain_tnt_map_get_width (map);
         cx++)
      {
        guint h = terrain_tnt_map_get_cell_height (map, cx, cy);
        const guint8 *tint = NULL;
        guint alpha = 0;

        if ((flags & TERRAIN_TNT_PREVIEW_WATER_SHADING) && h < sea)
          {
            tint = water;
            alpha = 90 + 110 * (sea - h) / MAX (sea, 1);
          }
        else if (flags & TERRAIN_TNT_PREVIEW_HEIGHT_SHADING)
          {
            /* Height 128 leaves the tile as it is; 0 darkens by 45%, 255 lightens by 35%. */
            tint = h < 128 ? black : white;
            alpha = h < 128 ? 115 * (128 - h) / 128 : 90 * (h - 128) / 127;
          }
        for (gint y = cy * CELL; tint != NULL && y < (cy + 1) * CELL; y++)
          for (gint x = cx * CELL; x < (cx + 1) * CELL; x++)
            blend (canvas, x, y, tint, alpha);
      }
}

static void
draw_sprite (Canvas       *canvas,
             TerrainImage *image,
             gint          x0,
             gint          y0)
{
  const guint8 *src = terrain_image_get_data (image, NULL);
  gsize stride = terrain_image_get_stride (image);

  for (guint y = 0; y < terrain_image_get_height (image); y++)
    for (guint x = 0; x < terrain_image_get_width (image); x++)
      {
        const guint8 *p = src + y * stride + 4 * x;

        blend (canvas, x0 + (gint) x, y0 + (gint) y, p, p[3]);
      }
}

static void
draw_features (Canvas                 *canvas,
               TerrainTntMap          *map,
               TerrainPalette         *palette,
               TerrainGameFiles       *files,
               TerrainFeatureCatalog  *catalog,
               TerrainTntPreviewFlags  flags,
               TerrainTntPreviewStats *stats)
{
  static const guint8 missing[3] = { 0xff, 0x30, 0xd0 };
  static const guint8 metal[3] = { 0xe8, 0xe8, 0xf0 }, metal_edge[3] = { 0x20, 0x28, 0x38 };
  static const guint8 geo[3] = { 0xff, 0x70, 0x10 };
  g_autoptr(TerrainFeatureSprites) sprites = catalog != NULL && !(flags & TERRAIN_TNT_PREVIEW_NO_FEATURES)
                                             ? terrain_feature_sprites_new (files, catalog, palette) : NULL;
  g_autoptr(GArray) placements = terrain_tnt_map_list_placements (map);
  g_autoptr(GArray) marks = g_array_new (FALSE, FALSE, sizeof (gint) * 3);

  /* Placements come in row order, so nearer (lower) features cover farther ones. */
  for (guint i = 0; i < placements->len; i++)
    {
      const TerrainTntPlacement *p = &g_array_index (placements, TerrainTntPlacement, i);
      TerrainFeatureDefinition *definition = NULL;
      guint fx = 1, fz = 1;
      gint ax, ay;
      g_autoptr(TerrainFeatureSprite) sprite = NULL;

      if (p->feature < terrain_tnt_map_get_n_features (map) && catalog != NULL)
        definition = terrain_feature_catalog_lookup (
          catalog, terrain_tnt_map_get_feature_name (map, p->feature));
      if (definition != NULL)
        {
          terrain_feature_definition_get_footprint (definition, &fx, &fz);
          fx = CLAMP (fx, 1, TERRAIN_FEATURE_MAX_FOOTPRINT);
          fz = CLAMP (fz, 1, TERRAIN_FEATURE_MAX_FOOTPRINT);
        }
      terrain_feature_anchor (map, p->x, p->y, fx, fz, &ax, &ay);

      if (!(flags & TERRAIN_TNT_PREVIEW_NO_FEATURES))
        {
          if (definition != NULL)
            sprite = terrain_feature_sprites_lookup (sprites, terrain_feature_definition_get_name (definition),
                                                     NULL);
          if (sprite != NULL)
            {
              gint left, top;

              terrain_feature_sprite_get_position (sprite, map, p->x, p->y, &left, &top);
              draw_sprite (canvas, terrain_feature_sprite_get_image (sprite), left, top);
              stats->sprites++;
            }
          else
            {
              outline (canvas, (gint) p->x * CELL, (gint) p->y * CELL, (gint) fx * CELL,
                       (gint) fz * CELL, missing);
              stats->unresolved++;
            }
        }
      if (definition != NULL && !(flags & TERRAIN_TNT_PREVIEW_NO_RESOURCES))
        {
          gint kind = terrain_feature_definition_get_boolean (definition, "geothermal", FALSE) ? 2
                      : terrain_feature_definition_get_metal (definition) > 0 ? 1 : 0;

          if (kind != 0)
            g_array_append_vals (marks, ((gint[3]) { ax, ay, kind }), 1);
        }
    }

  /* Resource marks over every sprite, so a tree beside a patch does not hide it. */
  for (guint i = 0; i < marks->len; i++)
    {
      const gint *m = &g_array_index (marks, gint, 3 * i);

      if (m[2] == 2)
        {
          ring (canvas, m[0], m[1], 9, 4, metal_edge);
          ring (canvas, m[0], m[1], 9, 2.5, geo);
          disc (canvas, m[0], m[1], 3, geo, 255);
          stats->geothermal++;
        }
      else
        {
          ring (canvas, m[0], m[1], 6, 3.5, metal_edge);
          ring (canvas, m[0], m[1], 6, 2, metal);
          stats->metal++;
        }
    }
}

static void
draw_starts (Canvas                 *canvas,
             TerrainOtaFile         *ota,
             guint                   schema,
             TerrainTntPreviewStats *stats)
{
  /* kbot's badge: shadow, dark outer ring, amber band, white disc, dark number. */
  static const guint8 shadow[3] = { 0, 0, 0 }, outer[3] = { 0x18, 0x22, 0x33 };
  static const guint8 accent[3] = { 0xe8, 0xc1, 0x4a }, inner[3] = { 0xff, 0xff, 0xff };
  gint radius = MAX (MAX (canvas->width, canvas->height) / 64, 18);
  gint accent_r = radius - MAX (radius / 9, 2);
  gint inner_r = MAX (accent_r - MAX (radius / 5, 3), 4);
  gint scale = MAX (inner_r / 4, 2);
  g_autofree TerrainOtaStartPosition *starts = NULL;
  guint n = 0;

  if (ota == NULL || schema >= terrain_ota_file_get_n_schemas (ota))
    return;
  starts = terrain_ota_file_get_start_positions (ota, schema, &n);
  for (guint i = 0; i < n; i++)
    {
      /* A start off the map is drawn on its edge, so a wrong .ota still shows. */
      gint x = CLAMP (starts[i].x, 0, canvas->width - 1);
      gint y = CLAMP (starts[i].z, 0, canvas->height - 1);

      disc (canvas, x + MAX (radius / 8, 1), y + MAX (radius / 6, 2), radius, shadow, 0x55);
      disc (canvas, x, y, radius, outer, 255);
      disc (canvas, x, y, accent_r, accent, 255);
      disc (canvas, x, y, inner_r, inner, 255);
      number (canvas, x, y, starts[i].player,
              starts[i].player >= 10 ? MAX (scale * 2 / 3, 1) : scale, outer);
      stats->starts++;
    }
}

/**
 * terrain_tnt_map_render_preview:
 * @self: a #TerrainTntMap
 * @palette: the palette the tiles and sprites index (`PALETTE.PAL`)
 * @ota: (nullable): the map's `.ota`, for the start positions
 * @schema: the schema whose start positions are drawn (0 for the first)
 * @files: (nullable): the game's files, for the GAF sprites under `anims/`
 *   ([class@Terrain.GameFiles])
 * @catalog: (nullable): the feature definitions (footprint, `filename`,
 *   `seqname`, `metal`, `geothermal`), usually read from @files
 * @flags: what to draw
 * @stats: (out caller-allocates) (optional): what was drawn
 * @error: return location for a #GError
 *
 * Renders the map as kbot's `tnt preview` does (docs/formats/ta-files.md,
 * "Map preview"): the tiles through @palette, one pixel per map pixel;
 * optionally shaded by height or water depth, cell by cell; every placed
 * feature's sprite ([method@Terrain.FeatureSprites.lookup]: the first
 * frame of the `seqname` entry of `anims/<filename>.gaf`) with its origin
 * on the feature's anchor, the centre of its footprint lifted by half the
 * ground height there ([method@Terrain.FeatureSprite.get_position]); a ring on
 * every metal (white) and geothermal (orange) feature; and a numbered disc
 * on each start position of @schema. A feature the catalogue does not
 * define, or whose sprite cannot be read, is outlined in magenta over its
 * footprint (1x1 cells when unknown).
 *
 * Returns: (transfer full) (nullable): an RGBA picture of
 *   `tile_columns * 32` by `tile_rows * 32` pixels, or %NULL with the error
 *   of [method@Terrain.TntMap.render]
 */
TerrainImage *
terrain_tnt_map_render_preview (TerrainTntMap          *self,
                                TerrainPalette         *palette,
                                TerrainOtaFile         *ota,
                                guint                   schema,
                                TerrainGameFiles       *files,
                                TerrainFeatureCatalog  *catalog,
                                TerrainTntPreviewFlags  flags,
                                TerrainTntPreviewStats *stats,
                                GError                **error)
{
  g_autoptr(TerrainImage) image = NULL;
  TerrainTntPreviewStats counted = { 0 };
  Canvas canvas;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);
  g_return_val_if_fail (ota == NULL || TERRAIN_IS_OTA_FILE (ota), NULL);
  g_return_val_if_fail (files == NULL || TERRAIN_IS_GAME_FILES (files), NULL);
  g_return_val_if_fail (catalog == NULL || TERRAIN_IS_FEATURE_CATALOG (catalog), NULL);

  image = terrain_tnt_map_render (self, palette, error);
  if (image == NULL)
    return NULL;
  canvas.pixels = terrain_image_get_data (image, NULL);
  canvas.stride = terrain_image_get_stride (image);
  canvas.width = (gint) terrain_image_get_width (image);
  canvas.height = (gint) terrain_image_get_height (image);

  if (flags & (TERRAIN_TNT_PREVIEW_HEIGHT_SHADING | TERRAIN_TNT_PREVIEW_WATER_SHADING))
    shade (&canvas, self, flags);
  if ((flags & (TERRAIN_TNT_PREVIEW_NO_FEATURES | TERRAIN_TNT_PREVIEW_NO_RESOURCES)) !=
      (TERRAIN_TNT_PREVIEW_NO_FEATURES | TERRAIN_TNT_PREVIEW_NO_RESOURCES))
    draw_features (&canvas, self, palette, files, catalog, flags, &counted);
  if (!(flags & TERRAIN_TNT_PREVIEW_NO_STARTS))
    draw_starts (&canvas, ota, schema, &counted);

  if (stats != NULL)
    *stats = counted;
  return g_steal_pointer (&image);
}
