/* terrain-tnt-image.c: TNT images in and out
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Tile-set and heightmap import, the averaged minimap and the feature
 * overlay (issue 5, "Images"; field-notes.md, "Total Annihilation
 * ecosystem").
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-tnt-image.h"
#include "terrain-tnt-edit.h"
#include "terrain-tnt-edit-private.h"
#include "terrain-tnt-map-private.h"
#include "core/terrain-error.h"

#define DEFAULT_MINIMAP_SIDE 252

/* ------------------------------------------------------------------------ */
/* Tile-set import                                                          */

typedef struct
{
  guint8 *tiles;        /* n_tiles x 1024, the picture's distinct tiles */
  guint n_tiles;
  guint16 *entries;     /* columns x rows, indices into tiles */
  guint columns;
  guint rows;
  TerrainTntImportFlags flags;
  /* Each palette index as the picture's quantising would give it back (the
   * first entry of its colour): tiles compare by colour, since a palette
   * may hold a colour twice. */
  guint8 canonical[256];
} ImportImageOp;

static void
import_image_op_free (gpointer data)
{
  ImportImageOp *op = data;

  g_free (op->tiles);
  g_free (op->entries);
  g_free (op);
}

static guint
tile_hash (gconstpointer key)
{
  const guint8 *p = key;
  guint32 h = 2166136261u;

  for (guint i = 0; i < TERRAIN_TNT_TILE_BYTES; i++)
    h = (h ^ p[i]) * 16777619u;
  return h;
}

static gboolean
tile_equal (gconstpointer a,
            gconstpointer b)
{
  return memcmp (a, b, TERRAIN_TNT_TILE_BYTES) == 0;
}

static gboolean
check_map_shape (TerrainTntMap  *map,
                 guint           columns,
                 guint           rows,
                 GError        **error)
{
  if (terrain_tnt_map_get_tile_columns (map) == columns &&
      terrain_tnt_map_get_tile_rows (map) == rows)
    return TRUE;

  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
               "TNT tile map: the imported image was made for %ux%u tiles but the map now has "
               "%ux%u", columns, rows, terrain_tnt_map_get_tile_columns (map),
               terrain_tnt_map_get_tile_rows (map));
  return FALSE;
}

/* TERRAIN_TNT_IMPORT_KEEP_TILES: map the picture onto the map's tile set. */
/* Copies a map tile with its indices made canonical. */
static void
canonical_tile (const ImportImageOp *op,
                const guint8        *tile,
                guint8              *out)
{
  for (guint i = 0; i < TERRAIN_TNT_TILE_BYTES; i++)
    out[i] = op->canonical[tile[i]];
}

/* TERRAIN_TNT_IMPORT_KEEP_TILES: map the picture onto the map's tile set. */
static gboolean
import_keeping_tiles (TerrainTntEdit  *self,
                      TerrainTntMap   *map,
                      ImportImageOp   *op,
                      GError         **error)
{
  g_autoptr(GHashTable) known = g_hash_table_new_full (tile_hash, tile_equal, g_free, NULL);
  g_autofree guint *resolved = g_new0 (guint, MAX (op->n_tiles, 1));
  g_autofree guint16 *entries = g_new (guint16, (gsize) op->columns * op->rows);
  guint before = terrain_tnt_map_get_n_tiles (map), added = 0, changed = 0;
  guint8 scratch[TERRAIN_TNT_TILE_BYTES];

  /* The map's tiles as the picture would show them; the lowest index wins,
   * so insert from the last tile to the first. */
  for (guint i = before; i > 0; i--)
    {
      guint8 *copy = g_malloc (TERRAIN_TNT_TILE_BYTES);

      canonical_tile (op, terrain_tnt_map_get_tile (map, i - 1), copy);
      g_hash_table_insert (known, copy, GUINT_TO_POINTER (i));
    }

  for (guint row = 0; row < op->rows; row++)
    for (guint column = 0; column < op->columns; column++)
      {
        gsize position = (gsize) row * op->columns + column;
        guint unique = op->entries[position];
        const guint8 *pixels = op->tiles + (gsize) unique * TERRAIN_TNT_TILE_BYTES;
        guint16 current = terrain_tnt_map_get_tile_index (map, column, row);

        if (current < before)
          {
            canonical_tile (op, terrain_tnt_map_get_tile (map, current), scratch);
            if (memcmp (scratch, pixels, TERRAIN_TNT_TILE_BYTES) == 0)
              {
                entries[position] = current;
                continue;
              }
          }
        if (resolved[unique] == 0)
          {
            guint index = GPOINTER_TO_UINT (g_hash_table_lookup (known, pixels));

            if (index == 0)
              {
                if (before + added > G_MAXUINT16)
                  {
                    g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                                 "TNT tile graphics: the map's %u tiles and the picture's new "
                                 "ones exceed the 65536 a tile map entry can name", before);
                    return FALSE;
                  }
                index = before + ++added;
              }
            resolved[unique] = index;
          }
        entries[position] = (guint16) (resolved[unique] - 1);
        changed++;
      }

  if (added > 0)
    {
      g_autofree guint8 *tiles = g_malloc ((gsize) (before + added) * TERRAIN_TNT_TILE_BYTES);

      for (guint i = 0; i < before; i++)
        memcpy (tiles + (gsize) i * TERRAIN_TNT_TILE_BYTES, terrain_tnt_map_get_tile (map, i),
                TERRAIN_TNT_TILE_BYTES);
      for (guint u = 0; u < op->n_tiles; u++)
        if (resolved[u] > before)
          memcpy (tiles + (gsize) (resolved[u] - 1) * TERRAIN_TNT_TILE_BYTES,
                  op->tiles + (gsize) u * TERRAIN_TNT_TILE_BYTES, TERRAIN_TNT_TILE_BYTES);
      if (!terrain_tnt_map_set_tiles (map, tiles, before + added, error))
        return FALSE;
    }
  terrain_tnt_map_set_tile_map (map, entries);

  terrain_tnt_edit_set_report (self, "%ux%u pixels: %u of %u tile positions changed, %u new "
                               "tile%s (the map had %u)",
                               op->columns * TERRAIN_TNT_TILE_PIXELS,
                               op->rows * TERRAIN_TNT_TILE_PIXELS, changed,
                               op->columns * op->rows, added, added == 1 ? "" : "s", before);
  return TRUE;
}

static gboolean
import_image_operation (TerrainTntEdit  *self,
                        TerrainTntMap   *map,
                        gpointer         data,
                        GError         **error)
{
  ImportImageOp *op = data;
  guint before = terrain_tnt_map_get_n_tiles (map);

  if (!check_map_shape (map, op->columns, op->rows, error))
    return FALSE;
  if (op->flags & TERRAIN_TNT_IMPORT_KEEP_TILES)
    return import_keeping_tiles (self, map, op, error);

  if (!terrain_tnt_map_set_tiles (map, op->tiles, op->n_tiles, error))
    return FALSE;
  terrain_tnt_map_set_tile_map (map, op->entries);

  terrain_tnt_edit_set_report (self, "%ux%u pixels: %u tile positions, %u unique tiles "
                               "(the map had %u)",
                               op->columns * TERRAIN_TNT_TILE_PIXELS,
                               op->rows * TERRAIN_TNT_TILE_PIXELS, op->columns * op->rows,
                               op->n_tiles, before);
  return TRUE;
}

/**
 * terrain_tnt_edit_new_import_image:
 * @map: a #TerrainTntMap
 * @image: the map's picture, exactly `(Width/2)*32` x `(Height/2)*32`
 *   pixels (indexed PNGs load as RGBA)
 * @palette: the palette the tiles index (`PALETTE.PAL`)
 * @dither: how to spread the quantisation error
 * @flags: whether to build a fresh tile set or keep the map's
 * @error: return location for a #GError
 *
 * Makes the edit that replaces the map's tile set with @image (issue 5,
 * "Images"; field-notes.md, "Tile import"): the picture is quantised to
 * @palette (nearest colour by squared RGB distance, the first exact match
 * winning, optionally dithered) and split into 32x32 tiles, identical tiles
 * kept once. Without flags the picture's distinct tiles, in order of first
 * appearance row by row, become the tile set and the tile map points every
 * position at its tile; with %TERRAIN_TNT_IMPORT_KEEP_TILES the existing
 * tile set and unchanged entries are kept (see #TerrainTntImportFlags). The
 * quantising is done here, once; the report gives the number of unique or
 * new tiles. Heights, features and the minimap are not changed.
 *
 * Returns: (transfer full) (nullable): the edit, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE when the picture's size is not the map's,
 *   or %TERRAIN_ERROR_LIMIT_EXCEEDED when it holds more than 65536 distinct
 *   tiles (a tile map entry is a u16)
 */
TerrainCommand *
terrain_tnt_edit_new_import_image (TerrainTntMap          *map,
                                   TerrainImage           *image,
                                   TerrainPalette         *palette,
                                   TerrainDither           dither,
                                   TerrainTntImportFlags   flags,
                                   GError                **error)
{
  g_autoptr(GBytes) indices = NULL;
  g_autoptr(GHashTable) seen = NULL;
  g_autoptr(GByteArray) tiles = NULL;
  g_autofree guint16 *entries = NULL;
  ImportImageOp *op;
  const guint8 *pixels;
  guint columns, rows, width, n_tiles = 0;
  guint8 tile[TERRAIN_TNT_TILE_BYTES];

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (map), NULL);
  g_return_val_if_fail (image != NULL, NULL);
  g_return_val_if_fail (palette != NULL, NULL);

  columns = terrain_tnt_map_get_tile_columns (map);
  rows = terrain_tnt_map_get_tile_rows (map);
  width = terrain_image_get_width (image);
  if (width != columns * TERRAIN_TNT_TILE_PIXELS ||
      terrain_image_get_height (image) != rows * TERRAIN_TNT_TILE_PIXELS)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "image: %ux%u pixels, but the map is %ux%u pixels (%ux%u tiles of 32x32); "
                   "the tile set is imported from a picture of the map's exact size",
                   width, terrain_image_get_height (image), columns * TERRAIN_TNT_TILE_PIXELS,
                   rows * TERRAIN_TNT_TILE_PIXELS, columns, rows);
      return NULL;
    }

  indices = terrain_palette_quantize_image (palette, image, dither, error);
  if (indices == NULL)
    return NULL;
  pixels = g_bytes_get_data (indices, NULL);

  seen = g_hash_table_new (tile_hash, tile_equal);
  tiles = g_byte_array_new ();
  entries = g_new (guint16, (gsize) columns * rows);

  for (guint row = 0; row < rows; row++)
    for (guint column = 0; column < columns; column++)
      {
        gpointer found;

        for (guint y = 0; y < TERRAIN_TNT_TILE_PIXELS; y++)
          memcpy (tile + y * TERRAIN_TNT_TILE_PIXELS,
                  pixels + ((gsize) row * TERRAIN_TNT_TILE_PIXELS + y) * width +
                  (gsize) column * TERRAIN_TNT_TILE_PIXELS,
                  TERRAIN_TNT_TILE_PIXELS);

        /* Keys index the array's data, which moves as it grows: look them
         * up through their offset, stored as the value. */
        found = g_hash_table_lookup (seen, tile);
        if (found == NULL)
          {
            if (n_tiles > G_MAXUINT16)
              {
                g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                             "image: more than 65536 distinct 32x32 tiles (at tile column %u, "
                             "row %u); a tile map entry names at most 65536",
                             column, row);
                return NULL;
              }
            g_byte_array_append (tiles, tile, TERRAIN_TNT_TILE_BYTES);
            found = GUINT_TO_POINTER (++n_tiles);
            g_hash_table_insert (seen, g_memdup2 (tile, TERRAIN_TNT_TILE_BYTES), found);
          }
        entries[(gsize) row * columns + column] = (guint16) (GPOINTER_TO_UINT (found) - 1);
      }

  /* The keys were copies; free them now that the table is done. */
  {
    GHashTableIter iter;
    gpointer key;

    g_hash_table_iter_init (&iter, seen);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      g_free (key);
  }

  op = g_new0 (ImportImageOp, 1);
  op->n_tiles = n_tiles;
  op->tiles = g_byte_array_free (g_steal_pointer (&tiles), FALSE);
  op->entries = g_steal_pointer (&entries);
  op->columns = columns;
  op->rows = rows;
  op->flags = flags;
  for (guint i = 0; i < 256; i++)
    {
      guint8 r, g, b;

      terrain_palette_get_color (palette, (guint8) i, &r, &g, &b);
      op->canonical[i] = terrain_palette_nearest (palette, r, g, b);
    }

  return terrain_tnt_edit_new_operation (map, TERRAIN_TNT_EDIT_IMPORT_IMAGE, "Import tile image",
                                         TNT_SECTION_BIT (TERRAIN_TNT_SECTION_TILES) |
                                         TNT_SECTION_BIT (TERRAIN_TNT_SECTION_TILE_MAP),
                                         import_image_operation, op, import_image_op_free);
}

/* ------------------------------------------------------------------------ */
/* Heightmap import                                                         */

typedef struct
{
  guint8 *heights;
  guint width;
  guint height;
} ImportHeightsOp;

static void
import_heights_op_free (gpointer data)
{
  ImportHeightsOp *op = data;

  g_free (op->heights);
  g_free (op);
}

static gboolean
import_heights_operation (TerrainTntEdit  *self,
                          TerrainTntMap   *map,
                          gpointer         data,
                          GError         **error)
{
  ImportHeightsOp *op = data;
  guint changed = 0;

  if (terrain_tnt_map_get_width (map) != op->width ||
      terrain_tnt_map_get_height (map) != op->height)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT attribute map: the heightmap was made for %ux%u cells but the map now "
                   "has %ux%u", op->width, op->height, terrain_tnt_map_get_width (map),
                   terrain_tnt_map_get_height (map));
      return FALSE;
    }

  for (guint y = 0; y < op->height; y++)
    for (guint x = 0; x < op->width; x++)
      if (terrain_tnt_map_get_cell_height (map, x, y) != op->heights[(gsize) y * op->width + x])
        changed++;

  terrain_tnt_map_set_heights (map, 0, 0, op->width, op->height, op->heights, op->width);
  terrain_tnt_edit_set_report (self, "%ux%u heights: %u cell%s changed", op->width, op->height,
                               changed, changed == 1 ? "" : "s");
  return TRUE;
}

/**
 * terrain_tnt_edit_new_import_heightmap:
 * @map: a #TerrainTntMap
 * @image: a greyscale heightmap at 1/16 of the map's pixel size: one pixel
 *   per attribute cell, `Width` x `Height`
 * @error: return location for a #GError
 *
 * Makes the edit that sets every cell's height from a heightmap. A 16-bit
 * image is scaled back the way [method@Terrain.Document.export_heights]
 * scaled it (value / 257, rounded), so an exported heightmap imports
 * exactly; an 8-bit image gives the heights directly. An RGB(A) image is
 * accepted when it is grey (R = G = B; alpha is ignored). Only the height
 * bytes change; feature words and the other attribute bytes stay.
 *
 * Returns: (transfer full) (nullable): the edit, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE when the image's size is not the map's
 *   cell grid or a pixel is not grey
 */
TerrainCommand *
terrain_tnt_edit_new_import_heightmap (TerrainTntMap  *map,
                                       TerrainImage   *image,
                                       GError        **error)
{
  ImportHeightsOp *op;
  const guint8 *data;
  guint width, height;
  gsize stride;
  g_autofree guint8 *heights = NULL;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (map), NULL);
  g_return_val_if_fail (image != NULL, NULL);

  width = terrain_tnt_map_get_width (map);
  height = terrain_tnt_map_get_height (map);
  if (terrain_image_get_width (image) != width || terrain_image_get_height (image) != height)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "heightmap: %ux%u pixels, but the map has %ux%u attribute cells; a "
                   "heightmap has one pixel per 16x16-pixel cell (1/16 of the map's %ux%u "
                   "pixels)",
                   terrain_image_get_width (image), terrain_image_get_height (image),
                   width, height, width * TERRAIN_TNT_CELL_PIXELS,
                   height * TERRAIN_TNT_CELL_PIXELS);
      return NULL;
    }

  data = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  heights = g_malloc ((gsize) width * height);

  for (guint y = 0; y < height; y++)
    {
      const guint8 *row = data + (gsize) y * stride;

      for (guint x = 0; x < width; x++)
        {
          guint8 value;

          switch (terrain_image_get_format (image))
            {
            case TERRAIN_IMAGE_GRAY16:
              {
                guint16 v;

                memcpy (&v, row + 2 * (gsize) x, 2);
                value = (guint8) ((v + 128u) / 257u);
              }
              break;
            case TERRAIN_IMAGE_RGBA8:
              {
                const guint8 *p = row + 4 * (gsize) x;

                if (p[0] != p[1] || p[0] != p[2])
                  {
                    g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                                 "heightmap: pixel (x=%u, y=%u) is not grey (R=%u G=%u B=%u); "
                                 "heights are read from greyscale images", x, y, p[0], p[1],
                                 p[2]);
                    return NULL;
                  }
                value = p[0];
              }
              break;
            case TERRAIN_IMAGE_GRAY8:
            default:
              value = row[x];
              break;
            }
          heights[(gsize) y * width + x] = value;
        }
    }

  op = g_new0 (ImportHeightsOp, 1);
  op->heights = g_steal_pointer (&heights);
  op->width = width;
  op->height = height;

  return terrain_tnt_edit_new_operation (map, TERRAIN_TNT_EDIT_IMPORT_HEIGHTMAP,
                                         "Import heightmap",
                                         TNT_SECTION_BIT (TERRAIN_TNT_SECTION_ATTRIBUTES),
                                         import_heights_operation, op, import_heights_op_free);
}

/* ------------------------------------------------------------------------ */
/* Minimap                                                                  */

/**
 * terrain_tnt_map_compute_minimap: (skip)
 * @self: a #TerrainTntMap
 * @palette: the palette the tiles and the minimap index
 * @width: width of the minimap bitmap in pixels, at least 1
 * @height: height of the minimap bitmap in pixels, at least 1
 *
 * libterrain's one minimap generator, used by
 * [method@Terrain.TntMap.update_minimap], the regenerate-minimap edit
 * (`terrain tnt regenerate-minimap`), [method@Terrain.TntMap.render_minimap]
 * for maps without one, and the thumbnailer. It box-averages, because that
 * is what Total Annihilation's own tools did: on the retail maps measured
 * (field-notes.md, "Minimap from tiles"), truncated box means quantised back
 * to the palette reproduce 99.5% and 99.9% of the stored minimaps' used
 * pixels, which point sampling does not come near.
 *
 * The play area ([method@Terrain.TntMap.get_play_area]; the whole picture
 * for maps too small for its margins) is fitted into
 * the top-left used sub-rectangle given by
 * [method@Terrain.TntMap.get_minimap_crop], long side first with the short
 * side truncated; each minimap pixel is the average colour of the source
 * pixels it covers (a box of `PlayRight/usedW` by `PlayBottom/usedH` map
 * pixels, bounds truncated; each channel's mean truncated), quantised back
 * to @palette by
 * terrain_palette_nearest(); the rest of the bitmap is the fill index 0x64.
 * Tile map entries not below the tile count count as palette index 0.
 * Bindings call [method@Terrain.TntMap.compute_minimap_bytes] under this
 * name.
 *
 * Returns: (transfer full) (array): @width x @height palette indices,
 *   row-major
 */
guint8 *
terrain_tnt_map_compute_minimap (TerrainTntMap  *self,
                                 TerrainPalette *palette,
                                 guint           width,
                                 guint           height)
{
  const guint8 *rgba;
  guint columns, rows, n_tiles, used_w, used_h, play_right, play_bottom;
  gint64 play_w, play_h, pixel_w, pixel_h;
  guint8 *out;
  guint8 lookup_cache_key[3] = { 0, 0, 0 };
  guint8 lookup_cache_value = 0;
  gboolean cached = FALSE;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);
  g_return_val_if_fail (palette != NULL, NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  out = g_malloc ((gsize) width * height);
  memset (out, TERRAIN_PALETTE_MINIMAP_FILL, (gsize) width * height);

  columns = terrain_tnt_map_get_tile_columns (self);
  rows = terrain_tnt_map_get_tile_rows (self);
  n_tiles = terrain_tnt_map_get_n_tiles (self);
  pixel_w = (gint64) columns * TERRAIN_TNT_TILE_PIXELS;
  pixel_h = (gint64) rows * TERRAIN_TNT_TILE_PIXELS;
  if (pixel_w == 0 || pixel_h == 0)
    return out;

  if (terrain_tnt_map_get_play_area (self, &play_right, &play_bottom))
    {
      play_w = play_right;
      play_h = play_bottom;
    }
  else
    {
      play_w = pixel_w;
      play_h = pixel_h;
    }
  play_w = MIN (play_w, pixel_w);
  play_h = MIN (play_h, pixel_h);

  terrain_tnt_map_get_minimap_crop (self, width, height, &used_w, &used_h);
  used_w = CLAMP (used_w, 1, width);
  used_h = CLAMP (used_h, 1, height);
  rgba = terrain_palette_get_rgba_table (palette);

  for (guint my = 0; my < used_h; my++)
    {
      gint64 y0 = (gint64) my * play_h / used_h;
      gint64 y1 = MAX ((gint64) (my + 1) * play_h / used_h, y0 + 1);

      for (guint mx = 0; mx < used_w; mx++)
        {
          gint64 x0 = (gint64) mx * play_w / used_w;
          gint64 x1 = MAX ((gint64) (mx + 1) * play_w / used_w, x0 + 1);
          guint64 sum[3] = { 0, 0, 0 }, n = 0;
          guint8 r, g, b;

          for (gint64 py = y0; py < y1 && py < pixel_h; py++)
            {
              const guint8 *graphics = NULL;
              gint64 graphics_column = -1;

              for (gint64 px = x0; px < x1 && px < pixel_w; px++)
                {
                  guint8 index;

                  /* One tile lookup per 32-pixel run of the row. */
                  if (px / 32 != graphics_column)
                    {
                      guint16 tile;

                      graphics_column = px / 32;
                      tile = terrain_tnt_map_get_tile_index (self, (guint) graphics_column,
                                                             (guint) (py / 32));
                      graphics = tile < n_tiles ? terrain_tnt_map_get_tile (self, tile) +
                                                  (py % 32) * 32
                                                : NULL;
                    }
                  index = graphics != NULL ? graphics[px % 32] : 0;

                  sum[0] += rgba[4 * index];
                  sum[1] += rgba[4 * index + 1];
                  sum[2] += rgba[4 * index + 2];
                  n++;
                }
            }

          if (n == 0)
            continue;
          /* Truncated means: on the retail maps measured (ban, bar) they
           * reproduce 99.5% and 99.9% of the stored minimaps' used pixels,
           * rounded means 98.2% and 99.7%. */
          r = (guint8) (sum[0] / n);
          g = (guint8) (sum[1] / n);
          b = (guint8) (sum[2] / n);

          /* Neighbouring pixels often average to the same colour. */
          if (!cached || lookup_cache_key[0] != r || lookup_cache_key[1] != g ||
              lookup_cache_key[2] != b)
            {
              lookup_cache_key[0] = r;
              lookup_cache_key[1] = g;
              lookup_cache_key[2] = b;
              lookup_cache_value = terrain_palette_nearest (palette, r, g, b);
              cached = TRUE;
            }
          out[(gsize) my * width + mx] = lookup_cache_value;
        }
    }

  return out;
}

/**
 * terrain_tnt_map_compute_minimap_bytes: (rename-to terrain_tnt_map_compute_minimap)
 * @self: a #TerrainTntMap
 * @palette: the palette the tiles and the minimap index
 * @width: width of the minimap bitmap in pixels, at least 1
 * @height: height of the minimap bitmap in pixels, at least 1
 *
 * [method@Terrain.TntMap.compute_minimap] for bindings, which cannot know
 * the length of that function's array: the same generator and the same
 * pixels, in a #GBytes.
 *
 * Returns: (transfer full): @width x @height palette indices (one byte
 *   each), row-major
 */
GBytes *
terrain_tnt_map_compute_minimap_bytes (TerrainTntMap  *self,
                                       TerrainPalette *palette,
                                       guint           width,
                                       guint           height)
{
  guint8 *pixels;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);
  g_return_val_if_fail (palette != NULL, NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  pixels = terrain_tnt_map_compute_minimap (self, palette, width, height);
  return g_bytes_new_take (pixels, (gsize) width * height);
}

typedef struct
{
  TerrainPalette *palette;
} MinimapOp;

static void
minimap_op_free (gpointer data)
{
  MinimapOp *op = data;

  g_clear_pointer (&op->palette, terrain_palette_unref);
  g_free (op);
}

static gboolean
minimap_operation (TerrainTntEdit  *self,
                   TerrainTntMap   *map,
                   gpointer         data,
                   GError         **error)
{
  MinimapOp *op = data;
  const guint8 *rgba = terrain_palette_get_rgba_table (op->palette);
  const guint8 *old_pixels;
  g_autofree guint8 *old_copy = NULL;
  g_autofree guint8 *pixels = NULL;
  guint width = 0, height = 0, used_w, used_h;
  guint64 identical = 0, total = 0;
  double distance = 0;

  old_pixels = terrain_tnt_map_get_minimap (map, &width, &height);
  if (old_pixels == NULL || width == 0 || height == 0)
    {
      width = height = DEFAULT_MINIMAP_SIDE;
      old_pixels = NULL;
    }
  else
    old_copy = g_memdup2 (old_pixels, (gsize) width * height);

  pixels = terrain_tnt_map_compute_minimap (map, op->palette, width, height);
  if (!terrain_tnt_map_set_minimap (map, width, height, pixels, error))
    return FALSE;

  terrain_tnt_map_get_minimap_crop (map, width, height, &used_w, &used_h);
  if (old_copy == NULL)
    {
      terrain_tnt_edit_set_report (self, "generated a %ux%u minimap (used %ux%u)", width, height,
                                   used_w, used_h);
      return TRUE;
    }

  /* How far the new picture is from the one it replaces, over the used
   * rectangle: a measure of agreement with the previous generator. */
  for (guint y = 0; y < MIN (used_h, height); y++)
    for (guint x = 0; x < MIN (used_w, width); x++)
      {
        guint8 a = old_copy[(gsize) y * width + x], b = pixels[(gsize) y * width + x];
        int dr = (int) rgba[4 * a] - rgba[4 * b];
        int dg = (int) rgba[4 * a + 1] - rgba[4 * b + 1];
        int db = (int) rgba[4 * a + 2] - rgba[4 * b + 2];

        identical += a == b;
        distance += sqrt ((double) (dr * dr + dg * dg + db * db));
        total++;
      }

  terrain_tnt_edit_set_report (self, "regenerated the %ux%u minimap (used %ux%u): %.1f%% of the "
                               "used pixels as before, mean colour distance %.1f",
                               width, height, used_w, used_h,
                               total > 0 ? 100.0 * identical / total : 100.0,
                               total > 0 ? distance / total : 0.0);
  return TRUE;
}

/**
 * terrain_tnt_edit_new_regenerate_minimap:
 * @map: a #TerrainTntMap
 * @palette: the palette the tiles and the minimap index; a reference is
 *   kept
 *
 * Makes the edit that regenerates the embedded minimap with
 * [method@Terrain.TntMap.compute_minimap] at its stored size (252x252 when
 * the map has none) and sets MinimapPresent. The report tells how much of
 * the used rectangle changed (share of identical pixels and mean RGB
 * distance). Only the minimap's pixels change when its size stays.
 *
 * Returns: (transfer full): the edit
 */
TerrainCommand *
terrain_tnt_edit_new_regenerate_minimap (TerrainTntMap  *map,
                                         TerrainPalette *palette)
{
  MinimapOp *op;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (map), NULL);
  g_return_val_if_fail (palette != NULL, NULL);

  op = g_new0 (MinimapOp, 1);
  op->palette = terrain_palette_ref (palette);
  return terrain_tnt_edit_new_operation (map, TERRAIN_TNT_EDIT_MINIMAP, "Regenerate minimap",
                                         TNT_SECTION_BIT (TERRAIN_TNT_SECTION_MINIMAP),
                                         minimap_operation, op, minimap_op_free);
}

/* ------------------------------------------------------------------------ */
/* Feature overlay                                                          */

static void
feature_colour (guint16 feature,
                guint8  rgb[3])
{
  /* Well-spread hues: the golden-ratio sequence on the colour wheel. */
  double hue = fmod (feature * 0.618033988749895, 1.0) * 6.0;
  double f = hue - floor (hue);
  guint8 hi = 255, lo = 40, up = (guint8) (lo + (hi - lo) * f), down = (guint8) (hi - (hi - lo) * f);

  switch ((int) hue)
    {
    case 0: rgb[0] = hi; rgb[1] = up; rgb[2] = lo; break;
    case 1: rgb[0] = down; rgb[1] = hi; rgb[2] = lo; break;
    case 2: rgb[0] = lo; rgb[1] = hi; rgb[2] = up; break;
    case 3: rgb[0] = lo; rgb[1] = down; rgb[2] = hi; break;
    case 4: rgb[0] = up; rgb[1] = lo; rgb[2] = hi; break;
    default: rgb[0] = hi; rgb[1] = lo; rgb[2] = down; break;
    }
}

/**
 * terrain_tnt_map_render_features:
 * @self: a #TerrainTntMap
 * @palette: (nullable): the palette the tiles index; %NULL draws the
 *   heights in grey instead of the tiles
 * @footprint_func: (nullable) (scope call): looks up a feature's footprint;
 *   %NULL counts every feature as 1x1
 * @user_data: data for @footprint_func
 * @cell_pixels: output pixels per attribute cell, 1..16 (16 is the map's
 *   full size; smaller values sample the tiles at each output pixel)
 * @error: return location for a #GError
 *
 * Renders the feature overlay: the map (or its heights) with every
 * feature's footprint as the game reconstructs it
 * ([method@Terrain.TntMap.build_occupancy]) tinted in a colour per feature
 * record, anchor cells strongly and the rest of the footprint lightly, and
 * void cells darkened red.
 *
 * Returns: (transfer full) (nullable): an RGBA image of `Width*cell_pixels`
 *   x `Height*cell_pixels` pixels, or %NULL with %TERRAIN_ERROR_INVALID_VALUE
 *   for a @cell_pixels outside 1..16 or %TERRAIN_ERROR_LIMIT_EXCEEDED when
 *   the image would be too large
 */
TerrainImage *
terrain_tnt_map_render_features (TerrainTntMap           *self,
                                 TerrainPalette          *palette,
                                 TerrainTntFootprintFunc  footprint_func,
                                 gpointer                 user_data,
                                 guint                    cell_pixels,
                                 GError                 **error)
{
  g_autoptr(TerrainImage) image = NULL;
  g_autofree guint16 *occupancy = NULL;
  g_autofree guint16 *owners = NULL;
  const guint8 *rgba = palette != NULL ? terrain_palette_get_rgba_table (palette) : NULL;
  guint width, height, columns, rows, n_tiles;
  guint8 *pixels;
  gsize stride;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  if (cell_pixels < 1 || cell_pixels > TERRAIN_TNT_CELL_PIXELS)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "feature overlay: %u pixels per cell is outside 1..16", cell_pixels);
      return NULL;
    }

  width = terrain_tnt_map_get_width (self);
  height = terrain_tnt_map_get_height (self);
  columns = terrain_tnt_map_get_tile_columns (self);
  rows = terrain_tnt_map_get_tile_rows (self);
  n_tiles = terrain_tnt_map_get_n_tiles (self);
  image = terrain_image_new (TERRAIN_IMAGE_RGBA8, width * cell_pixels, height * cell_pixels,
                             error);
  if (image == NULL)
    return NULL;

  occupancy = terrain_tnt_map_build_occupancy (self, footprint_func, user_data, &owners, NULL);
  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);

  for (guint cy = 0; cy < height; cy++)
    for (guint cx = 0; cx < width; cx++)
      {
        gsize cell = (gsize) cy * width + cx;
        guint16 word = occupancy[cell];
        guint8 tint[3] = { 0, 0, 0 };
        guint alpha = 0;

        if (word == TERRAIN_TNT_FEATURE_VOID)
          {
            tint[0] = 120;
            alpha = 160;
          }
        else if (word != TERRAIN_TNT_FEATURE_NONE)
          {
            feature_colour (owners[cell], tint);
            alpha = word == TERRAIN_TNT_FEATURE_FRINGE ? 110 : 210;
          }

        for (guint j = 0; j < cell_pixels; j++)
          for (guint i = 0; i < cell_pixels; i++)
            {
              guint8 *out = pixels + (gsize) (cy * cell_pixels + j) * stride +
                            4 * (gsize) (cx * cell_pixels + i);
              /* The map pixel under the centre of this output pixel. */
              guint px = cx * TERRAIN_TNT_CELL_PIXELS +
                         (2 * i + 1) * TERRAIN_TNT_CELL_PIXELS / (2 * cell_pixels);
              guint py = cy * TERRAIN_TNT_CELL_PIXELS +
                         (2 * j + 1) * TERRAIN_TNT_CELL_PIXELS / (2 * cell_pixels);
              guint8 base[3];

              if (rgba != NULL && px / 32 < columns && py / 32 < rows)
                {
                  guint16 tile = terrain_tnt_map_get_tile_index (self, px / 32, py / 32);
                  guint8 index = tile < n_tiles ?
                                 terrain_tnt_map_get_tile (self, tile)[(py % 32) * 32 + px % 32] :
                                 0;

                  memcpy (base, rgba + 4 * index, 3);
                }
              else
                base[0] = base[1] = base[2] = terrain_tnt_map_get_cell_height (self, cx, cy);

              for (guint c = 0; c < 3; c++)
                out[c] = (guint8) ((base[c] * (255 - alpha) + tint[c] * alpha + 127) / 255);
              out[3] = 255;
            }
      }

  return g_steal_pointer (&image);
}
