/* terrain-tnt-map-cells.c: TNT attribute cells, tiles, feature table and minimap
 * (the files of TerrainTntMap: terrain-tnt-map-impl-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-tnt-map-impl-private.h"
#include "terrain-tnt-image.h"
#include "core/terrain-error.h"

/* ------------------------------------------------------------------------ */
/* Attribute grid                                                           */

/**
 * terrain_tnt_map_get_cell_height:
 * @self: a #TerrainTntMap
 * @x: column, less than the width
 * @y: row, less than the height
 *
 * Gets the height byte of a cell.
 *
 * Returns: the height byte of the cell (byte +0), 0..255, copied verbatim
 *   to the engine's height grid
 */
guint8
terrain_tnt_map_get_cell_height (TerrainTntMap *self,
                                 guint          x,
                                 guint          y)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);
  g_return_val_if_fail (x < self->width && y < self->height, 0);

  return cell_data (self, x, y)[0];
}

/**
 * terrain_tnt_map_set_cell_height:
 * @self: a #TerrainTntMap
 * @x: column, less than the width
 * @y: row, less than the height
 * @height: the new height, 0..255
 *
 * Sets a cell's height byte and emits #TerrainTntMap::cells-changed.
 */
void
terrain_tnt_map_set_cell_height (TerrainTntMap *self,
                                 guint          x,
                                 guint          y,
                                 guint8         height)
{
  guint8 *attributes;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));
  g_return_if_fail (x < self->width && y < self->height);

  if (cell_data (self, x, y)[0] == height)
    return;

  attributes = tnt_block_make_writable (&self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES], 0);
  attributes[((gsize) y * self->width + x) * self->cell_bytes] = height;
  tnt_mark_modified (self);
  g_signal_emit (self, tnt_map_signals[CELLS_CHANGED], 0, x, y, 1u, 1u);
}

/**
 * terrain_tnt_map_get_cell_feature:
 * @self: a #TerrainTntMap
 * @x: column, less than the width
 * @y: row, less than the height
 *
 * Returns the feature word of a cell as authored (tnt-sct.md "Attribute
 * map"): a feature-table index below %TERRAIN_TNT_FEATURE_RESERVED, or one
 * of the reserved words (%TERRAIN_TNT_FEATURE_VOID, %TERRAIN_TNT_FEATURE_FRINGE,
 * %TERRAIN_TNT_FEATURE_NONE, 0xFFFB, 0xFFFD). In a legacy map the one-byte
 * index (byte +2) is returned; its empty codes 0xFC..0xFF read as
 * %TERRAIN_TNT_FEATURE_NONE.
 *
 * These words are source data, not runtime occupancy: see
 * [method@Terrain.TntMap.build_occupancy].
 *
 * Returns: the feature word
 */
guint16
terrain_tnt_map_get_cell_feature (TerrainTntMap *self,
                                  guint          x,
                                  guint          y)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), TERRAIN_TNT_FEATURE_NONE);
  g_return_val_if_fail (x < self->width && y < self->height, TERRAIN_TNT_FEATURE_NONE);

  return cell_feature (self, (gsize) y * self->width + x);
}

/**
 * terrain_tnt_map_set_cell_feature:
 * @self: a #TerrainTntMap
 * @x: column, less than the width
 * @y: row, less than the height
 * @feature: a feature-table index or a reserved word
 * @error: return location for a #GError
 *
 * Sets a cell's feature word and emits #TerrainTntMap::cells-changed. A
 * 0x2000 map stores any u16. A legacy map stores one byte: indices
 * 0x00..0xFB, or %TERRAIN_TNT_FEATURE_NONE, written as 0xFF unless the cell
 * already holds one of the empty codes 0xFC..0xFF (which is kept).
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_INVALID_VALUE when a
 *   legacy map cannot store @feature
 */
gboolean
terrain_tnt_map_set_cell_feature (TerrainTntMap  *self,
                                  guint           x,
                                  guint           y,
                                  guint16         feature,
                                  GError        **error)
{
  gsize cell;
  guint8 *attributes;
  const guint8 *p;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);
  g_return_val_if_fail (x < self->width && y < self->height, FALSE);

  cell = (gsize) y * self->width + x;
  p = cell_data (self, x, y);

  if (is_legacy (self))
    {
      if (feature > 0xFB && feature != TERRAIN_TNT_FEATURE_NONE)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TNT attribute map: cell %" G_GSIZE_FORMAT " (x=%u, y=%u): a legacy "
                       "(0x1020) cell holds a one-byte feature index 0x00..0xFB or empty, "
                       "not 0x%04x",
                       cell, x, y, feature);
          return FALSE;
        }
      if (cell_feature (self, cell) == feature)
        return TRUE;

      attributes = tnt_block_make_writable (&self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES], 0);
      attributes[cell * self->cell_bytes + 2] =
        feature == TERRAIN_TNT_FEATURE_NONE ? 0xFF : (guint8) feature;
    }
  else
    {
      if (terrain_get_le16 (p + 1) == feature)
        return TRUE;

      attributes = tnt_block_make_writable (&self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES], 0);
      terrain_put_le16 (attributes + cell * self->cell_bytes + 1, feature);
    }

  tnt_mark_modified (self);
  g_signal_emit (self, tnt_map_signals[CELLS_CHANGED], 0, x, y, 1u, 1u);

  return TRUE;
}

/**
 * terrain_tnt_map_get_cell_extra:
 * @self: a #TerrainTntMap
 * @x: column, less than the width
 * @y: row, less than the height
 *
 * Gets attribute byte +3 of a cell.
 *
 * Returns: attribute byte +3 of the cell, unread by the engine and 0 in
 *   every retail map (tnt-sct.md "Attribute map")
 */
guint8
terrain_tnt_map_get_cell_extra (TerrainTntMap *self,
                                guint          x,
                                guint          y)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);
  g_return_val_if_fail (x < self->width && y < self->height, 0);

  return cell_data (self, x, y)[3];
}

/**
 * terrain_tnt_map_get_cell_metal:
 * @self: a #TerrainTntMap
 * @x: column, less than the width
 * @y: row, less than the height
 *
 * Gets the metal byte of a legacy map's cell.
 *
 * Returns: the per-cell metal byte of a legacy map (byte +6 of its 8-byte
 *   cells, tnt-sct.md "Legacy header"), 0 for a 0x2000 map
 */
guint8
terrain_tnt_map_get_cell_metal (TerrainTntMap *self,
                                guint          x,
                                guint          y)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);
  g_return_val_if_fail (x < self->width && y < self->height, 0);

  return is_legacy (self) ? cell_data (self, x, y)[6] : 0;
}

/* ------------------------------------------------------------------------ */
/* Tiles                                                                    */

/**
 * terrain_tnt_map_get_n_tiles:
 * @self: a #TerrainTntMap
 *
 * Gets the number of 32x32 tiles.
 *
 * Returns: the number of 32x32 tiles (header word Tiles)
 */
guint
terrain_tnt_map_get_n_tiles (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  return self->n_tiles;
}

/**
 * terrain_tnt_map_get_tile:
 * @self: a #TerrainTntMap
 * @index: a tile index
 *
 * Returns the graphics of one tile: 32x32 palette indices, row-major.
 *
 * Returns: (transfer none) (array fixed-size=1024) (nullable): the tile's
 *   1024 bytes, valid until the next edit of the map's tiles, or %NULL when
 *   @index is not less than the tile count
 */
const guint8 *
terrain_tnt_map_get_tile (TerrainTntMap *self,
                          guint          index)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  if (index >= self->n_tiles)
    return NULL;

  return self->blocks[TERRAIN_TNT_SECTION_TILES].data + (gsize) index * TERRAIN_TNT_TILE_BYTES;
}

/**
 * terrain_tnt_map_add_tile:
 * @self: a #TerrainTntMap
 * @pixels: (array fixed-size=1024): 32x32 palette indices, row-major
 *
 * Appends a tile to the tile graphics. The tile section changes size, so
 * the next write lays the file out canonically. Notifies
 * [property@Terrain.TntMap:n-tiles].
 *
 * Returns: the new tile's index, or %G_MAXUINT (with a critical warning)
 *   when the map already holds as many tiles as its limits allow
 */
guint
terrain_tnt_map_add_tile (TerrainTntMap *self,
                          const guint8  *pixels)
{
  TntBlock *block;
  guint8 *data;
  guint index;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), G_MAXUINT);
  g_return_val_if_fail (pixels != NULL, G_MAXUINT);
  g_return_val_if_fail (self->n_tiles < self->limits.max_tiles, G_MAXUINT);

  block = &self->blocks[TERRAIN_TNT_SECTION_TILES];
  data = tnt_block_make_writable (block, TERRAIN_TNT_TILE_BYTES);
  memcpy (data + block->size, pixels, TERRAIN_TNT_TILE_BYTES);
  block->size += TERRAIN_TNT_TILE_BYTES;

  index = self->n_tiles++;
  self->header[W_TILES] = self->n_tiles;
  tnt_update_layout (self);
  tnt_mark_modified (self);
  g_object_notify_by_pspec (G_OBJECT (self), tnt_map_properties[PROP_N_TILES]);

  return index;
}

/**
 * terrain_tnt_map_get_tile_index:
 * @self: a #TerrainTntMap
 * @column: tile column, less than [method@Terrain.TntMap.get_tile_columns]
 * @row: tile row, less than [method@Terrain.TntMap.get_tile_rows]
 *
 * Gets the tile drawn at a 32x32-pixel position.
 *
 * Returns: the tile drawn at a 32x32-pixel position of the map (it may be
 *   out of range in a damaged file; [method@Terrain.Document.validate]
 *   reports that)
 */
guint16
terrain_tnt_map_get_tile_index (TerrainTntMap *self,
                                guint          column,
                                guint          row)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);
  g_return_val_if_fail (column < self->tile_columns && row < self->tile_rows, 0);

  return tile_map_entry (self, (gsize) row * self->tile_columns + column);
}

/**
 * terrain_tnt_map_set_tile_index:
 * @self: a #TerrainTntMap
 * @column: tile column, less than [method@Terrain.TntMap.get_tile_columns]
 * @row: tile row, less than [method@Terrain.TntMap.get_tile_rows]
 * @tile: a tile index; one not below the tile count is stored as given and
 *   rendered as a magenta checker
 *
 * Sets the tile drawn at a 32x32-pixel position and emits
 * #TerrainTntMap::tiles-changed.
 */
void
terrain_tnt_map_set_tile_index (TerrainTntMap *self,
                                guint          column,
                                guint          row,
                                guint16        tile)
{
  gsize entry;
  guint8 *tile_map;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));
  g_return_if_fail (column < self->tile_columns && row < self->tile_rows);

  entry = (gsize) row * self->tile_columns + column;
  if (tile_map_entry (self, entry) == tile)
    return;

  tile_map = tnt_block_make_writable (&self->blocks[TERRAIN_TNT_SECTION_TILE_MAP], 0);
  terrain_put_le16 (tile_map + 2 * entry, tile);
  tnt_mark_modified (self);
  g_signal_emit (self, tnt_map_signals[TILES_CHANGED], 0, column, row, 1u, 1u);
}

/* ------------------------------------------------------------------------ */
/* Feature table                                                            */

/**
 * terrain_tnt_map_get_n_features:
 * @self: a #TerrainTntMap
 *
 * Gets the number of feature records.
 *
 * Returns: the number of feature records (header word TileAnims)
 */
guint
terrain_tnt_map_get_n_features (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  return self->n_features;
}

/**
 * terrain_tnt_map_get_feature_name:
 * @self: a #TerrainTntMap
 * @index: position in the feature table, less than the feature count
 *
 * Returns a feature record's name: the bytes of its 128-byte name field up
 * to the first NUL (all 128 when there is none). Bytes after the NUL are
 * kept for writing but not returned.
 *
 * Returns: (transfer none) (nullable): the name, owned by the map, or %NULL
 *   when @index is out of range
 */
const char *
terrain_tnt_map_get_feature_name (TerrainTntMap *self,
                                  guint          index)
{
  char *name;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  if (index >= self->n_features)
    return NULL;

  name = g_ptr_array_index (self->names, index);
  if (name == NULL)
    {
      name = g_strndup ((const char *) feature_record (self, index) + 4,
                        TERRAIN_TNT_FEATURE_NAME_BYTES);
      g_ptr_array_index (self->names, index) = name;
    }

  return name;
}

/**
 * terrain_tnt_map_get_feature_record_index:
 * @self: a #TerrainTntMap
 * @index: position in the feature table, less than the feature count
 *
 * Returns the leading u32 of a feature record. It equals the record's
 * position in observed data; cells refer to features by position, not by
 * this word.
 *
 * Returns: the record's index word, or 0 when @index is out of range
 */
guint32
terrain_tnt_map_get_feature_record_index (TerrainTntMap *self,
                                          guint          index)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  if (index >= self->n_features)
    return 0;

  return terrain_get_le32 (feature_record (self, index));
}

/**
 * terrain_tnt_map_add_feature_name:
 * @self: a #TerrainTntMap
 * @name: the feature's name (a TDF section name), shorter than 128 bytes
 *
 * Appends a feature record whose index word is its position and whose name
 * field is @name padded with NULs to 128 bytes. The feature section changes
 * size, so the next write lays the file out canonically. Notifies
 * [property@Terrain.TntMap:n-features].
 *
 * Returns: the new record's position, or %G_MAXUINT (with a critical
 *   warning) when @name is 128 bytes or longer or the feature table is full
 */
guint
terrain_tnt_map_add_feature_name (TerrainTntMap *self,
                                  const char    *name)
{
  TntBlock *block;
  guint8 *data;
  gsize length;
  guint index;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), G_MAXUINT);
  g_return_val_if_fail (name != NULL, G_MAXUINT);
  length = strlen (name);
  g_return_val_if_fail (length < TERRAIN_TNT_FEATURE_NAME_BYTES, G_MAXUINT);
  g_return_val_if_fail (self->n_features < self->limits.max_features, G_MAXUINT);

  block = &self->blocks[TERRAIN_TNT_SECTION_FEATURES];
  data = tnt_block_make_writable (block, FEATURE_RECORD_BYTES) + block->size;
  index = self->n_features;
  terrain_put_le32 (data, index);
  memset (data + 4, 0, TERRAIN_TNT_FEATURE_NAME_BYTES);
  memcpy (data + 4, name, length);
  block->size += FEATURE_RECORD_BYTES;

  self->n_features++;
  self->header[W_FEATURES] = self->n_features;
  g_ptr_array_add (self->names, g_strdup (name));
  tnt_update_layout (self);
  tnt_mark_modified (self);
  g_object_notify_by_pspec (G_OBJECT (self), tnt_map_properties[PROP_N_FEATURES]);

  return index;
}

/* ------------------------------------------------------------------------ */
/* Minimap                                                                  */

/**
 * terrain_tnt_map_get_minimap_present:
 * @self: a #TerrainTntMap
 *
 * Gets whether the file embeds a minimap.
 *
 * Returns: whether bit 0 of the MinimapPresent header word is set, that is
 *   whether the file embeds a minimap (otherwise the engine generates one)
 */
gboolean
terrain_tnt_map_get_minimap_present (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);

  return (self->header[minimap_flag_word (self)] & 1) != 0;
}

/**
 * terrain_tnt_map_get_minimap: (skip)
 * @self: a #TerrainTntMap
 * @width: (out) (optional): stored width in pixels
 * @height: (out) (optional): stored height in pixels
 *
 * Returns the embedded minimap as stored: @width x @height palette indices,
 * row-major, without a copy. Bindings call
 * [method@Terrain.TntMap.get_minimap_bytes] under this name. Only the top-left sub-rectangle given by
 * [method@Terrain.TntMap.get_minimap_used_size] holds terrain; the rest is
 * the 0x64 fill.
 *
 * Returns: (transfer none) (nullable): the pixels, valid until the next
 *   minimap edit, or %NULL (and 0x0) when the map embeds no minimap or a
 *   zero-sized one
 */
const guint8 *
terrain_tnt_map_get_minimap (TerrainTntMap *self,
                             guint         *width,
                             guint         *height)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  if (width != NULL)
    *width = self->has_minimap ? self->minimap_width : 0;
  if (height != NULL)
    *height = self->has_minimap ? self->minimap_height : 0;

  if (!self->has_minimap || self->blocks[TERRAIN_TNT_SECTION_MINIMAP].size == 0)
    return NULL;

  return self->blocks[TERRAIN_TNT_SECTION_MINIMAP].data;
}

/**
 * terrain_tnt_map_get_minimap_bytes: (rename-to terrain_tnt_map_get_minimap)
 * @self: a #TerrainTntMap
 * @width: (out) (optional): stored width in pixels
 * @height: (out) (optional): stored height in pixels
 *
 * Copies the embedded minimap as stored: @width x @height palette indices
 * (one byte each), row-major, as [method@Terrain.TntMap.get_minimap] returns
 * them; the form for bindings, which cannot know that pointer's length.
 * Only the top-left sub-rectangle given by
 * [method@Terrain.TntMap.get_minimap_used_size] holds terrain; the rest is
 * the 0x64 fill.
 *
 * Returns: (transfer full) (nullable): a copy of the @width x @height pixels,
 *   or %NULL (and 0x0) when the map embeds no minimap or a zero-sized one
 */
GBytes *
terrain_tnt_map_get_minimap_bytes (TerrainTntMap *self,
                                   guint         *width,
                                   guint         *height)
{
  const guint8 *pixels;
  guint w = 0, h = 0;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  pixels = terrain_tnt_map_get_minimap (self, &w, &h);
  if (width != NULL)
    *width = w;
  if (height != NULL)
    *height = h;

  return pixels != NULL ? g_bytes_new (pixels, (gsize) w * h) : NULL;
}

/**
 * terrain_tnt_map_get_minimap_used_size:
 * @self: a #TerrainTntMap
 * @width: (out) (optional): used width in pixels
 * @height: (out) (optional): used height in pixels
 *
 * Computes the top-left sub-rectangle of the stored minimap that holds
 * terrain (tnt-sct.md "Minimap", how the used sub-rectangle is sized). With
 * `PlayRight = Width*16-32` and `PlayBottom = Height*16-128`: when
 * `PlayRight < PlayBottom` the used width is `PlayRight*storedW/PlayBottom`
 * (truncated) and the used height `storedH`; otherwise the used width is
 * `storedW` and the used height `PlayBottom*storedH/PlayRight`. Maps too
 * small for those margins (either value <= 0) use the whole stored size.
 * Without an embedded minimap the stored size is taken as 252x252, the size
 * [method@Terrain.TntMap.update_minimap] would make.
 */
void
terrain_tnt_map_get_minimap_used_size (TerrainTntMap *self,
                                       guint         *width,
                                       guint         *height)
{
  guint stored_w = DEFAULT_MINIMAP_SIDE, stored_h = DEFAULT_MINIMAP_SIDE;
  guint used_w, used_h;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));

  if (self->has_minimap)
    {
      stored_w = self->minimap_width;
      stored_h = self->minimap_height;
    }
  tnt_minimap_used_size_for (self, stored_w, stored_h, &used_w, &used_h);

  if (width != NULL)
    *width = used_w;
  if (height != NULL)
    *height = used_h;
}

/**
 * terrain_tnt_map_get_minimap_crop:
 * @self: a #TerrainTntMap
 * @stored_width: width of a minimap bitmap in pixels
 * @stored_height: height of a minimap bitmap in pixels
 * @used_width: (out) (optional): used width in pixels
 * @used_height: (out) (optional): used height in pixels
 *
 * Applies the retail crop rule of [method@Terrain.TntMap.get_minimap_used_size]
 * to a bitmap of any stored size: the top-left sub-rectangle of a
 * @stored_width x @stored_height minimap that holds this map's play area.
 */
void
terrain_tnt_map_get_minimap_crop (TerrainTntMap *self,
                                  guint          stored_width,
                                  guint          stored_height,
                                  guint         *used_width,
                                  guint         *used_height)
{
  guint used_w, used_h;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));

  tnt_minimap_used_size_for (self, stored_width, stored_height, &used_w, &used_h);
  if (used_width != NULL)
    *used_width = used_w;
  if (used_height != NULL)
    *used_height = used_h;
}

/* Replaces the minimap with @pixels (taken), sets MinimapPresent bit 0. */
static void
take_minimap (TerrainTntMap *self,
              guint          width,
              guint          height,
              guint8        *pixels)
{
  gboolean was_present = terrain_tnt_map_get_minimap_present (self);

  tnt_block_take (&self->blocks[TERRAIN_TNT_SECTION_MINIMAP], pixels, (gsize) width * height);
  self->minimap_width = width;
  self->minimap_height = height;
  self->has_minimap = TRUE;
  self->header[minimap_flag_word (self)] |= 1;
  tnt_update_layout (self);
  tnt_mark_modified (self);

  if (!was_present)
    g_object_notify_by_pspec (G_OBJECT (self), tnt_map_properties[PROP_MINIMAP_PRESENT]);
}

/**
 * terrain_tnt_map_set_minimap:
 * @self: a #TerrainTntMap
 * @width: stored width in pixels (252 in nearly all retail maps)
 * @height: stored height in pixels
 * @pixels: (array) (nullable): @width x @height palette indices, row-major;
 *   may be %NULL only when the size is 0
 * @error: return location for a #GError
 *
 * Replaces the embedded minimap and sets bit 0 of MinimapPresent. Unchanged
 * pixels leave the map unmodified. A different size changes the minimap
 * section's size, so the next write lays the file out canonically.
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_LIMIT_EXCEEDED when
 *   a side exceeds the map's image-side limit
 */
gboolean
terrain_tnt_map_set_minimap (TerrainTntMap  *self,
                             guint           width,
                             guint           height,
                             const guint8   *pixels,
                             GError        **error)
{
  gsize size;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);
  g_return_val_if_fail (pixels != NULL || (gsize) width * height == 0, FALSE);

  if (!terrain_limits_check_count (&self->limits, width, self->limits.max_image_side,
                                   "width (pixels)", tnt_section_titles[TERRAIN_TNT_SECTION_MINIMAP],
                                   -1, error) ||
      !terrain_limits_check_count (&self->limits, height, self->limits.max_image_side,
                                   "height (pixels)", tnt_section_titles[TERRAIN_TNT_SECTION_MINIMAP],
                                   -1, error) ||
      !terrain_limits_check_alloc (&self->limits, (guint64) width * height, 1, "minimap pixels",
                                   tnt_section_titles[TERRAIN_TNT_SECTION_MINIMAP], -1, error))
    return FALSE;

  size = (gsize) width * height;
  if (self->has_minimap && terrain_tnt_map_get_minimap_present (self) &&
      self->minimap_width == width && self->minimap_height == height &&
      (size == 0 || memcmp (self->blocks[TERRAIN_TNT_SECTION_MINIMAP].data, pixels, size) == 0))
    return TRUE;

  take_minimap (self, width, height, size > 0 ? g_memdup2 (pixels, size) : NULL);
  return TRUE;
}

/**
 * terrain_tnt_map_update_minimap:
 * @self: a #TerrainTntMap
 * @palette: the palette the tiles and the minimap index
 *
 * Regenerates the embedded minimap from the tiles at its stored size (252x252
 * when the map has none or a zero-sized one) with libterrain's one minimap
 * generator, [method@Terrain.TntMap.compute_minimap]. Sets bit 0 of
 * MinimapPresent. Only the minimap changes; an unchanged one is left as it
 * was.
 */
void
terrain_tnt_map_update_minimap (TerrainTntMap  *self,
                                TerrainPalette *palette)
{
  guint width = DEFAULT_MINIMAP_SIDE, height = DEFAULT_MINIMAP_SIDE;
  g_autofree guint8 *pixels = NULL;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));
  g_return_if_fail (palette != NULL);

  if (self->has_minimap && self->minimap_width > 0 && self->minimap_height > 0)
    {
      width = self->minimap_width;
      height = self->minimap_height;
    }

  pixels = terrain_tnt_map_compute_minimap (self, palette, width, height);

  if (self->has_minimap && terrain_tnt_map_get_minimap_present (self) &&
      self->minimap_width == width && self->minimap_height == height &&
      memcmp (self->blocks[TERRAIN_TNT_SECTION_MINIMAP].data, pixels, (gsize) width * height) == 0)
    return;

  take_minimap (self, width, height, g_steal_pointer (&pixels));
}
