/* terrain-tnt-edit-tiles.c: TNT edits of the tile grid: painting tile
 * positions, resizing the map, and stamping an SCT section (its tiles,
 * reused where the map already has them, and heights). Part of
 * TerrainTntEdit (terrain-tnt-edit-impl-private.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-tnt-edit.h"
#include "terrain-tnt-edit-impl-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"

/* ------------------------------------------------------------------------ */
/* Tiles                                                                    */

typedef struct
{
  guint column;
  guint row;
  guint columns;
  guint rows;
  guint16 tile;
} PaintOp;

static gboolean
paint_operation (TerrainTntEdit  *self,
                 TerrainTntMap   *map,
                 gpointer         data,
                 GError         **error)
{
  PaintOp *op = data;

  if (op->tile >= terrain_tnt_map_get_n_tiles (map))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "TNT tile map: tile %u is not below the tile count %u",
                   op->tile, terrain_tnt_map_get_n_tiles (map));
      return FALSE;
    }
  if (!tnt_edit_check_rect (op->column, op->row, op->columns, op->rows,
                            terrain_tnt_map_get_tile_columns (map),
                            terrain_tnt_map_get_tile_rows (map), "TNT tile map", error))
    return FALSE;

  for (guint row = op->row; row < op->row + op->rows; row++)
    for (guint column = op->column; column < op->column + op->columns; column++)
      if (terrain_tnt_map_get_tile_index (map, column, row) != op->tile)
        tnt_edit_set_tile (self, map, column, row, op->tile);

  terrain_tnt_edit_set_report (self, "painted tile %u on %u of %u positions (%ux%u at (%u, %u))",
                               op->tile, self->tiles->len, op->columns * op->rows, op->columns,
                               op->rows, op->column, op->row);
  return TRUE;
}

/**
 * terrain_tnt_edit_new_paint_tiles:
 * @map: a #TerrainTntMap
 * @column: first tile column of the rectangle
 * @row: first tile row
 * @columns: tile columns, at least 1
 * @rows: tile rows, at least 1
 * @tile: the tile index to draw there, below the tile count
 *
 * Sets the tile index of a rectangle of 32x32-pixel positions. Only the
 * changed tile map entries are written. Applying fails for a tile index not
 * below the tile count or a rectangle not inside the tile grid.
 *
 * Returns: (transfer full): the edit
 */
TerrainCommand *
terrain_tnt_edit_new_paint_tiles (TerrainTntMap *map,
                                  guint          column,
                                  guint          row,
                                  guint          columns,
                                  guint          rows,
                                  guint16        tile)
{
  PaintOp *op = g_new0 (PaintOp, 1);

  op->column = column;
  op->row = row;
  op->columns = columns;
  op->rows = rows;
  op->tile = tile;
  return terrain_tnt_edit_new_operation (map, TERRAIN_TNT_EDIT_PAINT_TILES, "Paint tiles", 0,
                                         paint_operation, op, g_free);
}

/* ------------------------------------------------------------------------ */
/* Resize                                                                   */

typedef struct
{
  gint left;
  gint top;
  gint right;
  gint bottom;
  guint8 fill_height;
  guint16 fill_tile;
} ResizeOp;

/* The play area the minimap pictures, in map pixels: as
 * terrain_tnt_map_compute_minimap() frames it. */
static void
minimap_frame (TerrainTntMap *map,
               gint64        *play_w,
               gint64        *play_h)
{
  gint64 pixel_w = (gint64) terrain_tnt_map_get_tile_columns (map) * TERRAIN_TNT_TILE_PIXELS;
  gint64 pixel_h = (gint64) terrain_tnt_map_get_tile_rows (map) * TERRAIN_TNT_TILE_PIXELS;
  guint right, bottom;

  terrain_tnt_map_get_play_area (map, &right, &bottom);
  *play_w = MAX (MIN ((gint64) right, pixel_w), 1);
  *play_h = MAX (MIN ((gint64) bottom, pixel_h), 1);
}

/* Re-frames the minimap after a resize without a palette: the old picture
 * (@old, @width x @height, framing @old_play_w x @old_play_h map pixels
 * in its @old_used_w x @old_used_h corner) moves with the kept area by
 * (@left_pixels, @top_pixels), scaled into the new shape's crop; pixels
 * over added ground take the tile pixel at their centre, the rest of the
 * bitmap is the fill index. The size stays. */
static gboolean
reframe_minimap (TerrainTntMap  *map,
                 const guint8   *old,
                 guint           width,
                 guint           height,
                 guint           old_used_w,
                 guint           old_used_h,
                 gint64          old_play_w,
                 gint64          old_play_h,
                 gint64          left_pixels,
                 gint64          top_pixels,
                 GError        **error)
{
  g_autofree guint8 *pixels = g_malloc ((gsize) width * height);
  guint used_w, used_h, n_tiles = terrain_tnt_map_get_n_tiles (map);
  gint64 play_w, play_h;

  memset (pixels, TERRAIN_PALETTE_MINIMAP_FILL, (gsize) width * height);
  minimap_frame (map, &play_w, &play_h);
  terrain_tnt_map_get_minimap_crop (map, width, height, &used_w, &used_h);
  used_w = CLAMP (used_w, 1, width);
  used_h = CLAMP (used_h, 1, height);
  old_used_w = CLAMP (old_used_w, 1, width);
  old_used_h = CLAMP (old_used_h, 1, height);

  for (guint my = 0; my < used_h; my++)
    for (guint mx = 0; mx < used_w; mx++)
      {
        /* The map pixel at the minimap pixel's centre, now and before. */
        gint64 px = ((gint64) mx * 2 + 1) * play_w / (2 * (gint64) used_w);
        gint64 py = ((gint64) my * 2 + 1) * play_h / (2 * (gint64) used_h);
        gint64 ox = px - left_pixels, oy = py - top_pixels;
        guint8 *out = pixels + (gsize) my * width + mx;

        if (ox >= 0 && oy >= 0 && ox < old_play_w && oy < old_play_h)
          *out = old[(gsize) (oy * old_used_h / old_play_h) * width +
                     (gsize) (ox * old_used_w / old_play_w)];
        else
          {
            guint16 tile = terrain_tnt_map_get_tile_index (map, (guint) (px / 32), (guint) (py / 32));

            *out = tile < n_tiles ? terrain_tnt_map_get_tile (map, tile)[(py % 32) * 32 + px % 32] : 0;
          }
      }
  return terrain_tnt_map_set_minimap (map, width, height, pixels, error);
}

static gboolean
resize_operation (TerrainTntEdit  *self,
                  TerrainTntMap   *map,
                  gpointer         data,
                  GError         **error)
{
  ResizeOp *op = data;
  guint old_width = terrain_tnt_map_get_width (map), old_height = terrain_tnt_map_get_height (map);
  g_autofree guint8 *old_minimap = NULL;
  guint minimap_w = 0, minimap_h = 0, old_used_w = 0, old_used_h = 0;
  gint64 old_play_w = 0, old_play_h = 0;
  const guint8 *stored;

  if ((op->left > 0 || op->top > 0 || op->right > 0 || op->bottom > 0) &&
      op->fill_tile >= terrain_tnt_map_get_n_tiles (map))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "TNT tile map: fill tile %u is not below the tile count %u",
                   op->fill_tile, terrain_tnt_map_get_n_tiles (map));
      return FALSE;
    }
  stored = terrain_tnt_map_get_minimap (map, &minimap_w, &minimap_h);
  if (stored != NULL && minimap_w > 0 && minimap_h > 0)
    {
      old_minimap = g_memdup2 (stored, (gsize) minimap_w * minimap_h);
      terrain_tnt_map_get_minimap_crop (map, minimap_w, minimap_h, &old_used_w, &old_used_h);
      minimap_frame (map, &old_play_w, &old_play_h);
    }
  if (!terrain_tnt_map_resize (map, op->left, op->top, op->right, op->bottom, op->fill_height,
                               op->fill_tile, error))
    return FALSE;
  if (old_minimap != NULL &&
      (op->left != 0 || op->top != 0 || op->right != 0 || op->bottom != 0) &&
      !reframe_minimap (map, old_minimap, minimap_w, minimap_h, old_used_w, old_used_h,
                        old_play_w, old_play_h, (gint64) op->left * TERRAIN_TNT_CELL_PIXELS,
                        (gint64) op->top * TERRAIN_TNT_CELL_PIXELS, error))
    return FALSE;

  terrain_tnt_edit_set_report (self, "%ux%u -> %ux%u cells (left %+d, top %+d, right %+d, "
                               "bottom %+d)", old_width, old_height,
                               terrain_tnt_map_get_width (map), terrain_tnt_map_get_height (map),
                               op->left, op->top, op->right, op->bottom);
  return TRUE;
}

/**
 * terrain_tnt_edit_new_resize:
 * @map: a #TerrainTntMap
 * @left: attribute cells to add on the west side (negative: remove), even
 * @top: cells to add on the north side (negative: remove), even
 * @right: cells to add on the east side (negative: remove), even
 * @bottom: cells to add on the south side (negative: remove), even
 * @fill_height: height of added cells
 * @fill_tile: tile drawn on added positions, below the tile count
 *
 * Resizes the map with [method@Terrain.TntMap.resize] and re-frames an
 * embedded minimap for the new shape at its stored size, without a palette:
 * the kept part of the old picture moves and scales with the kept ground
 * into the new crop ([method@Terrain.TntMap.get_minimap_crop]), pixels over
 * added ground take the tile pixel at their centre, and the rest of the
 * bitmap is the fill index 0x64. For a picture averaged from the tiles,
 * regenerate it afterwards with [ctor@Terrain.TntEdit.new_regenerate_minimap].
 *
 * Returns: (transfer full): the edit
 */
TerrainCommand *
terrain_tnt_edit_new_resize (TerrainTntMap *map,
                             gint           left,
                             gint           top,
                             gint           right,
                             gint           bottom,
                             guint8         fill_height,
                             guint16        fill_tile)
{
  ResizeOp *op = g_new0 (ResizeOp, 1);

  op->left = left;
  op->top = top;
  op->right = right;
  op->bottom = bottom;
  op->fill_height = fill_height;
  op->fill_tile = fill_tile;
  return terrain_tnt_edit_new_operation (map, TERRAIN_TNT_EDIT_RESIZE, "Resize map",
                                         TNT_ALL_SECTIONS, resize_operation, op, g_free);
}

/* ------------------------------------------------------------------------ */
/* Stamping a section                                                       */

typedef struct
{
  TerrainSctSection *section;
  gint column;
  gint row;
} StampOp;

static void
stamp_op_free (gpointer data)
{
  StampOp *op = data;

  g_clear_object (&op->section);
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
stamp_operation (TerrainTntEdit  *self,
                 TerrainTntMap   *map,
                 gpointer         data,
                 GError         **error)
{
  StampOp *op = data;
  guint sw = terrain_sct_section_get_width (op->section);
  guint sh = terrain_sct_section_get_height (op->section);
  guint sn = terrain_sct_section_get_n_tiles (op->section);
  guint columns = terrain_tnt_map_get_tile_columns (map);
  guint rows = terrain_tnt_map_get_tile_rows (map);
  g_autoptr(GHashTable) known = NULL;
  g_autofree guint *section_to_map = NULL;
  g_autofree guint8 *heights = NULL;
  gint64 c0, r0, c1, r1;
  guint added = 0, reused = 0, clipped;

  /* The part of the section that lands on the map, in map tile units. */
  c0 = MAX ((gint64) op->column, 0);
  r0 = MAX ((gint64) op->row, 0);
  c1 = MIN ((gint64) op->column + sw, (gint64) columns);
  r1 = MIN ((gint64) op->row + sh, (gint64) rows);
  if (c1 <= c0 || r1 <= r0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "TNT tile map: a %ux%u-tile section at tile (%d, %d) lies entirely off the "
                   "%ux%u-tile map", sw, sh, op->column, op->row, columns, rows);
      return FALSE;
    }

  /* Check the section's tile map before changing anything. */
  for (gint64 r = r0; r < r1; r++)
    for (gint64 c = c0; c < c1; c++)
      {
        guint sc = (guint) (c - op->column), sr = (guint) (r - op->row);
        guint16 t = terrain_sct_section_get_tile_index (op->section, sc, sr);

        if (t >= sn)
          {
            g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                         "SCT tile map: entry (column %u, row %u) names tile %u but the section "
                         "has %u tiles", sc, sr, t, sn);
            return FALSE;
          }
      }

  /* Deduplicate into the map's tile set: identical tiles are reused. */
  known = g_hash_table_new_full (tile_hash, tile_equal, g_free, NULL);
  for (guint i = terrain_tnt_map_get_n_tiles (map); i > 0; i--)
    g_hash_table_insert (known, g_memdup2 (terrain_tnt_map_get_tile (map, i - 1),
                                           TERRAIN_TNT_TILE_BYTES),
                         GUINT_TO_POINTER (i));
  section_to_map = g_new0 (guint, MAX (sn, 1));

  for (gint64 r = r0; r < r1; r++)
    for (gint64 c = c0; c < c1; c++)
      {
        guint16 t = terrain_sct_section_get_tile_index (op->section, (guint) (c - op->column),
                                                        (guint) (r - op->row));
        const guint8 *pixels;
        guint index;

        if (section_to_map[t] == 0)
          {
            pixels = terrain_sct_section_get_tile (op->section, t);
            index = GPOINTER_TO_UINT (g_hash_table_lookup (known, pixels));
            if (index == 0)
              {
                if (terrain_tnt_map_get_n_tiles (map) >= G_MAXUINT16 + 1u)
                  {
                    g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                                 "TNT tile graphics: stamping needs more than 65536 tiles, "
                                 "more than a tile map entry can name");
                    return FALSE;
                  }
                index = terrain_tnt_map_add_tile (map, pixels);
                if (index == G_MAXUINT)
                  {
                    g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                                 "TNT tile graphics: the map's tile limit is reached");
                    return FALSE;
                  }
                index++;
                g_hash_table_insert (known, g_memdup2 (pixels, TERRAIN_TNT_TILE_BYTES),
                                     GUINT_TO_POINTER (index));
                added++;
              }
            else
              reused++;
            section_to_map[t] = index;
          }
        tnt_edit_set_tile (self, map, (guint) c, (guint) r, (guint16) (section_to_map[t] - 1));
      }

  /* Heights: the section's grid is twice its tile grid, like the map's. */
  {
    guint cx0 = (guint) c0 * 2, cy0 = (guint) r0 * 2;
    guint cw = (guint) (c1 - c0) * 2, ch = (guint) (r1 - r0) * 2;

    cw = MIN (cw, terrain_tnt_map_get_width (map) - cx0);
    ch = MIN (ch, terrain_tnt_map_get_height (map) - cy0);
    heights = g_malloc ((gsize) cw * ch);
    for (guint j = 0; j < ch; j++)
      for (guint i = 0; i < cw; i++)
        heights[(gsize) j * cw + i] =
          terrain_sct_section_get_cell_height (op->section,
                                               (guint) (cx0 + i - 2 * (gint64) op->column),
                                               (guint) (cy0 + j - 2 * (gint64) op->row));
    terrain_tnt_map_set_heights (map, cx0, cy0, cw, ch, heights, cw);
  }

  clipped = sw * sh - (guint) ((c1 - c0) * (r1 - r0));
  if (clipped > 0)
    terrain_tnt_edit_add_issue (self,
                                terrain_issue_new (TERRAIN_SEVERITY_INFO, "TNT tile map", -1, -1,
                                                   "%u of the section's %u tile positions lie "
                                                   "off the map and were left out",
                                                   clipped, sw * sh));

  terrain_tnt_edit_set_report (self, "stamped %ux%u tiles at tile (%d, %d): %u new tile%s, "
                               "%u reused, %u clipped", sw, sh, op->column, op->row,
                               added, added == 1 ? "" : "s", reused, clipped);
  return TRUE;
}

/**
 * terrain_tnt_edit_new_stamp_section:
 * @map: a #TerrainTntMap
 * @section: the section to stamp; a reference is kept
 * @column: tile column of the section's top-left tile (may be negative)
 * @row: tile row of the section's top-left tile (may be negative)
 *
 * Stamps an SCT section into the map at a tile position (tnt-sct.md, "SCT
 * sections"): each section tile's graphics are looked up in the map's tile
 * set and reused when identical, otherwise appended (the tile section
 * grows); the tile map entries are set; the section's heights (a grid twice
 * its tile grid, like the map's attribute grid) are copied onto the cells
 * under it. Feature words are not touched. The part of the section off the
 * map is left out (reported); a section entirely off the map, or whose tile
 * map names a tile it lacks, makes the apply fail.
 *
 * Returns: (transfer full): the edit
 */
TerrainCommand *
terrain_tnt_edit_new_stamp_section (TerrainTntMap     *map,
                                    TerrainSctSection *section,
                                    gint               column,
                                    gint               row)
{
  StampOp *op;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (map), NULL);
  g_return_val_if_fail (TERRAIN_IS_SCT_SECTION (section), NULL);

  op = g_new0 (StampOp, 1);
  op->section = g_object_ref (section);
  op->column = column;
  op->row = row;
  return terrain_tnt_edit_new_operation (map, TERRAIN_TNT_EDIT_STAMP_SECTION, "Stamp section",
                                         TNT_SECTION_BIT (TERRAIN_TNT_SECTION_TILES) |
                                         TNT_SECTION_BIT (TERRAIN_TNT_SECTION_TILE_MAP) |
                                         TNT_SECTION_BIT (TERRAIN_TNT_SECTION_ATTRIBUTES),
                                         stamp_operation, op, stamp_op_free);
}
