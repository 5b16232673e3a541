/* terrain-tnt-map-bulk.c: TNT bulk edits and snapshots
 * (the files of TerrainTntMap: terrain-tnt-map-impl-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-tnt-map-impl-private.h"
#include "core/terrain-error.h"

/* ------------------------------------------------------------------------ */
/* Bulk edits                                                               */

static void
emit_all_cells_changed (TerrainTntMap *self)
{
  g_signal_emit (self, tnt_map_signals[CELLS_CHANGED], 0, 0u, 0u, self->width, self->height);
}

static void
emit_all_tiles_changed (TerrainTntMap *self)
{
  g_signal_emit (self, tnt_map_signals[TILES_CHANGED], 0, 0u, 0u, self->tile_columns, self->tile_rows);
}

/**
 * terrain_tnt_map_set_heights:
 * @self: a #TerrainTntMap
 * @x: first column of the region, in attribute cells
 * @y: first row of the region
 * @width: columns in the region
 * @height: rows in the region
 * @heights: (array): @height rows of @width heights, rows @stride bytes apart
 * @stride: distance in bytes between the starts of two rows of @heights
 *
 * Sets the height byte of every cell of a region at once (a heightmap
 * import, a stamped section) and emits #TerrainTntMap::cells-changed once
 * for the region when anything changed. Only the height bytes are written;
 * an unchanged cell is not touched.
 */
void
terrain_tnt_map_set_heights (TerrainTntMap *self,
                             guint          x,
                             guint          y,
                             guint          width,
                             guint          height,
                             const guint8  *heights,
                             gsize          stride)
{
  guint8 *attributes = NULL;
  gboolean changed = FALSE;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));
  g_return_if_fail (x <= self->width && width <= self->width - x);
  g_return_if_fail (y <= self->height && height <= self->height - y);
  g_return_if_fail (heights != NULL || width == 0 || height == 0);
  g_return_if_fail (stride >= width);

  for (guint row = 0; row < height; row++)
    for (guint column = 0; column < width; column++)
      {
        guint8 value = heights[(gsize) row * stride + column];
        gsize offset = ((gsize) (y + row) * self->width + x + column) * self->cell_bytes;

        if (self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES].data[offset] == value)
          continue;
        if (attributes == NULL)
          attributes = tnt_block_make_writable (&self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES], 0);
        attributes[offset] = value;
        changed = TRUE;
      }

  if (!changed)
    return;

  tnt_mark_modified (self);
  g_signal_emit (self, tnt_map_signals[CELLS_CHANGED], 0, x, y, width, height);
}

/**
 * terrain_tnt_map_set_tile:
 * @self: a #TerrainTntMap
 * @index: a tile index, less than the tile count
 * @pixels: (array fixed-size=1024): 32x32 palette indices, row-major
 *
 * Replaces the graphics of one tile in place (the tile section keeps its
 * size) and emits #TerrainTntMap::tiles-changed for the whole map, since
 * every position drawing the tile changes.
 */
void
terrain_tnt_map_set_tile (TerrainTntMap *self,
                          guint          index,
                          const guint8  *pixels)
{
  gsize offset;
  guint8 *tiles;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));
  g_return_if_fail (index < self->n_tiles);
  g_return_if_fail (pixels != NULL);

  offset = (gsize) index * TERRAIN_TNT_TILE_BYTES;
  if (memcmp (self->blocks[TERRAIN_TNT_SECTION_TILES].data + offset, pixels,
              TERRAIN_TNT_TILE_BYTES) == 0)
    return;

  tiles = tnt_block_make_writable (&self->blocks[TERRAIN_TNT_SECTION_TILES], 0);
  memcpy (tiles + offset, pixels, TERRAIN_TNT_TILE_BYTES);
  tnt_mark_modified (self);
  emit_all_tiles_changed (self);
}

/**
 * terrain_tnt_map_set_tiles:
 * @self: a #TerrainTntMap
 * @pixels: (array): @n_tiles x 1024 palette indices, one 32x32 tile after the
 *   other
 * @n_tiles: the new tile count, at least 1
 * @error: return location for a #GError
 *
 * Replaces the whole tile set (an image import). Tile map entries are not
 * changed; set them with [method@Terrain.TntMap.set_tile_map]. When the
 * count changes, the tile section changes size and the next write lays the
 * file out canonically. Notifies [property@Terrain.TntMap:n-tiles] and emits
 * #TerrainTntMap::tiles-changed.
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_LIMIT_EXCEEDED when
 *   @n_tiles exceeds the map's limits or 65536 (a tile map entry is a u16)
 */
gboolean
terrain_tnt_map_set_tiles (TerrainTntMap  *self,
                           const guint8   *pixels,
                           guint           n_tiles,
                           GError        **error)
{
  const char *title = tnt_section_titles[TERRAIN_TNT_SECTION_TILES];
  guint old_count;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);
  g_return_val_if_fail (pixels != NULL, FALSE);
  g_return_val_if_fail (n_tiles > 0, FALSE);

  if (!terrain_limits_check_count (&self->limits, n_tiles,
                                   MIN (self->limits.max_tiles, G_MAXUINT16 + 1u), "tile",
                                   title, -1, error) ||
      !terrain_limits_check_alloc (&self->limits, n_tiles, TERRAIN_TNT_TILE_BYTES,
                                   "tile graphics", title, -1, error))
    return FALSE;

  old_count = self->n_tiles;
  if (old_count == n_tiles &&
      memcmp (self->blocks[TERRAIN_TNT_SECTION_TILES].data, pixels,
              (gsize) n_tiles * TERRAIN_TNT_TILE_BYTES) == 0)
    return TRUE;

  tnt_block_take (&self->blocks[TERRAIN_TNT_SECTION_TILES],
                  g_memdup2 (pixels, (gsize) n_tiles * TERRAIN_TNT_TILE_BYTES),
                  (gsize) n_tiles * TERRAIN_TNT_TILE_BYTES);
  self->n_tiles = n_tiles;
  self->header[W_TILES] = n_tiles;
  tnt_update_layout (self);
  tnt_mark_modified (self);
  if (old_count != n_tiles)
    g_object_notify_by_pspec (G_OBJECT (self), tnt_map_properties[PROP_N_TILES]);
  emit_all_tiles_changed (self);

  return TRUE;
}

/**
 * terrain_tnt_map_set_tile_map:
 * @self: a #TerrainTntMap
 * @entries: (array): one tile index per 32x32 position, row-major,
 *   [method@Terrain.TntMap.get_tile_columns] x
 *   [method@Terrain.TntMap.get_tile_rows] of them
 *
 * Sets every entry of the tile map at once and emits
 * #TerrainTntMap::tiles-changed once when anything changed. The section
 * keeps its size, so it is patched in place.
 */
void
terrain_tnt_map_set_tile_map (TerrainTntMap  *self,
                              const guint16  *entries)
{
  gsize n;
  guint8 *tile_map = NULL;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));
  g_return_if_fail (entries != NULL);

  n = (gsize) self->tile_columns * self->tile_rows;
  for (gsize i = 0; i < n; i++)
    {
      if (tile_map_entry (self, i) == entries[i])
        continue;
      if (tile_map == NULL)
        tile_map = tnt_block_make_writable (&self->blocks[TERRAIN_TNT_SECTION_TILE_MAP], 0);
      terrain_put_le16 (tile_map + 2 * i, entries[i]);
    }

  if (tile_map == NULL)
    return;

  tnt_mark_modified (self);
  emit_all_tiles_changed (self);
}

/**
 * terrain_tnt_map_find_tile:
 * @self: a #TerrainTntMap
 * @pixels: (array fixed-size=1024): 32x32 palette indices
 *
 * Looks for a tile with exactly these pixels.
 *
 * Returns: the lowest index of such a tile, or %G_MAXUINT when there is none
 */
guint
terrain_tnt_map_find_tile (TerrainTntMap *self,
                           const guint8  *pixels)
{
  const guint8 *tiles;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), G_MAXUINT);
  g_return_val_if_fail (pixels != NULL, G_MAXUINT);

  tiles = self->blocks[TERRAIN_TNT_SECTION_TILES].data;
  for (guint i = 0; i < self->n_tiles; i++)
    if (memcmp (tiles + (gsize) i * TERRAIN_TNT_TILE_BYTES, pixels, TERRAIN_TNT_TILE_BYTES) == 0)
      return i;

  return G_MAXUINT;
}

/**
 * terrain_tnt_map_find_feature:
 * @self: a #TerrainTntMap
 * @name: a feature name
 *
 * Looks a name up in the feature table, case-insensitively (ASCII), as the
 * engine matches names against feature definitions.
 *
 * Returns: the position of the first record with that name, or %G_MAXUINT
 */
guint
terrain_tnt_map_find_feature (TerrainTntMap *self,
                              const char    *name)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), G_MAXUINT);
  g_return_val_if_fail (name != NULL, G_MAXUINT);

  for (guint i = 0; i < self->n_features; i++)
    if (g_ascii_strcasecmp (terrain_tnt_map_get_feature_name (self, i), name) == 0)
      return i;

  return G_MAXUINT;
}

/**
 * terrain_tnt_map_list_placements:
 * @self: a #TerrainTntMap
 *
 * Lists the features placed on the map: every cell whose feature word is a
 * live index (below %TERRAIN_TNT_FEATURE_RESERVED, including indices not
 * below the feature count, which [method@Terrain.Document.validate]
 * reports), in row-major order. The cell is the anchor, the top-left corner
 * of the feature's footprint.
 *
 * Returns: (transfer full) (element-type TerrainTntPlacement): the
 *   placements
 */
GArray *
terrain_tnt_map_list_placements (TerrainTntMap *self)
{
  GArray *placements;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  placements = g_array_new (FALSE, FALSE, sizeof (TerrainTntPlacement));
  for (guint y = 0; y < self->height; y++)
    for (guint x = 0; x < self->width; x++)
      {
        guint16 feature = cell_feature (self, (gsize) y * self->width + x);
        TerrainTntPlacement placement = { x, y, feature };

        if (feature < TERRAIN_TNT_FEATURE_RESERVED)
          g_array_append_val (placements, placement);
      }

  return placements;
}

/* Rewrites the feature table keeping the records whose @new_index is not
 * G_MAXUINT (in their old order, so that new indices must be increasing),
 * and renumbers the cells: a cell naming a dropped record becomes empty.
 * Words not below the old count are left alone. */
static void
remap_features (TerrainTntMap *self,
                const guint   *new_index,
                guint          n_kept)
{
  const guint8 *old_records = self->blocks[TERRAIN_TNT_SECTION_FEATURES].data;
  guint old_count = self->n_features;
  gsize cells = (gsize) self->width * self->height;
  gboolean legacy = is_legacy (self);
  guint8 *records, *attributes = NULL;

  records = g_malloc (MAX ((gsize) n_kept * FEATURE_RECORD_BYTES, 1));
  for (guint i = 0; i < old_count; i++)
    {
      guint8 *record;

      if (new_index[i] == G_MAXUINT)
        continue;
      record = records + (gsize) new_index[i] * FEATURE_RECORD_BYTES;
      memcpy (record, old_records + (gsize) i * FEATURE_RECORD_BYTES, FEATURE_RECORD_BYTES);
      /* The index word follows the record's position where it did. */
      if (terrain_get_le32 (record) == i)
        terrain_put_le32 (record, new_index[i]);
    }

  for (gsize cell = 0; cell < cells; cell++)
    {
      guint16 feature = cell_feature (self, cell);
      guint16 word;

      if (feature >= old_count || feature >= TERRAIN_TNT_FEATURE_RESERVED ||
          new_index[feature] == feature)
        continue;

      word = new_index[feature] == G_MAXUINT ? TERRAIN_TNT_FEATURE_NONE
                                             : (guint16) new_index[feature];
      if (attributes == NULL)
        attributes = tnt_block_make_writable (&self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES], 0);
      if (legacy)
        attributes[cell * self->cell_bytes + 2] = word == TERRAIN_TNT_FEATURE_NONE ? 0xFF
                                                                                   : (guint8) word;
      else
        terrain_put_le16 (attributes + cell * self->cell_bytes + 1, word);
    }

  tnt_block_take (&self->blocks[TERRAIN_TNT_SECTION_FEATURES], records,
                  (gsize) n_kept * FEATURE_RECORD_BYTES);
  self->n_features = n_kept;
  self->header[W_FEATURES] = n_kept;
  g_ptr_array_set_size (self->names, 0);
  g_ptr_array_set_size (self->names, n_kept);
  tnt_update_layout (self);
  tnt_mark_modified (self);
  if (n_kept != old_count)
    g_object_notify_by_pspec (G_OBJECT (self), tnt_map_properties[PROP_N_FEATURES]);
  if (attributes != NULL)
    emit_all_cells_changed (self);
}

/**
 * terrain_tnt_map_remove_feature:
 * @self: a #TerrainTntMap
 * @index: position of the record to remove, less than the feature count
 *
 * Removes one record from the feature table. Later records move down one
 * place and the cells naming them are renumbered; cells naming the removed
 * record become empty (0xFFFF). A record's leading index word that equalled
 * its position is updated to the new position. The feature section shrinks,
 * so the next write lays the file out canonically.
 */
void
terrain_tnt_map_remove_feature (TerrainTntMap *self,
                                guint          index)
{
  g_autofree guint *new_index = NULL;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));
  g_return_if_fail (index < self->n_features);

  new_index = g_new (guint, self->n_features);
  for (guint i = 0; i < self->n_features; i++)
    new_index[i] = i < index ? i : i == index ? G_MAXUINT : i - 1;
  remap_features (self, new_index, self->n_features - 1);
}

/**
 * terrain_tnt_map_remove_unused_features:
 * @self: a #TerrainTntMap
 *
 * Drops every feature record no cell names (the "clean up" of stale entries
 * left by deleting features: editors otherwise keep the table as it is, so
 * that an edit does not renumber it). The remaining records keep their
 * order and the cells are renumbered. Does nothing when every record is
 * used.
 *
 * Returns: the number of records removed
 */
guint
terrain_tnt_map_remove_unused_features (TerrainTntMap *self)
{
  g_autofree gboolean *used = NULL;
  g_autofree guint *new_index = NULL;
  gsize cells;
  guint kept = 0, removed;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  if (self->n_features == 0)
    return 0;

  used = g_new0 (gboolean, self->n_features);
  cells = (gsize) self->width * self->height;
  for (gsize cell = 0; cell < cells; cell++)
    {
      guint16 feature = cell_feature (self, cell);

      if (feature < self->n_features)
        used[feature] = TRUE;
    }

  new_index = g_new (guint, self->n_features);
  for (guint i = 0; i < self->n_features; i++)
    new_index[i] = used[i] ? kept++ : G_MAXUINT;

  if (kept == self->n_features)
    return 0;

  removed = self->n_features - kept;
  remap_features (self, new_index, kept);
  return removed;
}

/**
 * terrain_tnt_map_resize:
 * @self: a #TerrainTntMap
 * @left: attribute cells to add on the west side (negative: to remove)
 * @top: cells to add on the north side (negative: to remove)
 * @right: cells to add on the east side (negative: to remove)
 * @bottom: cells to add on the south side (negative: to remove)
 * @fill_height: height of the added cells
 * @fill_tile: tile index drawn on the added 32x32 positions
 * @error: return location for a #GError
 *
 * Grows or shrinks the map on any side. Every amount must be even, so that
 * the tile grid (one tile per 2x2 cells) stays aligned with the attribute
 * grid. Kept cells and tile positions keep their contents, shifted by
 * (@left, @top); added cells get @fill_height, the empty feature word and
 * zero in their other bytes; features anchored in removed cells disappear
 * (their records stay in the table). The tile graphics, the feature table
 * and the minimap are not changed (regenerate the minimap afterwards). The
 * tile map and the attribute map change size, so the next write lays the
 * file out canonically. Notifies [property@Terrain.TntMap:width] and
 * [property@Terrain.TntMap:height].
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_INVALID_VALUE for an
 *   odd amount or a result below 2x2 cells, or %TERRAIN_ERROR_LIMIT_EXCEEDED
 *   when the result exceeds the map's limits
 */
gboolean
terrain_tnt_map_resize (TerrainTntMap  *self,
                        gint            left,
                        gint            top,
                        gint            right,
                        gint            bottom,
                        guint8          fill_height,
                        guint16         fill_tile,
                        GError        **error)
{
  const char *title = tnt_section_titles[TERRAIN_TNT_SECTION_ATTRIBUTES];
  gint64 new_width, new_height;
  guint columns, rows, old_width = self->width, old_height = self->height;
  guint8 *attributes, *tile_map;
  guint8 empty[8] = { 0 };
  gsize cells;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);

  if (left % 2 != 0 || top % 2 != 0 || right % 2 != 0 || bottom % 2 != 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT map: resizing by %+d/%+d/%+d/%+d cells (left/top/right/bottom): every "
                   "amount must be even, since a 32x32 tile covers 2x2 attribute cells",
                   left, top, right, bottom);
      return FALSE;
    }

  new_width = (gint64) self->width + left + right;
  new_height = (gint64) self->height + top + bottom;
  if (new_width < 2 || new_height < 2)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT map: resizing %ux%u cells by %+d/%+d/%+d/%+d (left/top/right/bottom) "
                   "leaves %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "; a map needs at least 2x2",
                   self->width, self->height, left, top, right, bottom, new_width, new_height);
      return FALSE;
    }
  if (!terrain_limits_check_count (&self->limits, (guint64) new_width,
                                   self->limits.max_cells_per_side, "width (attribute cells)",
                                   title, -1, error) ||
      !terrain_limits_check_count (&self->limits, (guint64) new_height,
                                   self->limits.max_cells_per_side, "height (attribute cells)",
                                   title, -1, error) ||
      !terrain_limits_check_alloc (&self->limits, (guint64) new_width * (guint64) new_height,
                                   self->cell_bytes, "attribute cells", title, -1, error))
    return FALSE;

  if (left == 0 && top == 0 && right == 0 && bottom == 0)
    return TRUE;

  /* The new empty cell: height, then the empty feature word. */
  empty[0] = fill_height;
  if (is_legacy (self))
    empty[2] = 0xFF;
  else
    terrain_put_le16 (empty + 1, TERRAIN_TNT_FEATURE_NONE);

  cells = (gsize) new_width * (gsize) new_height;
  attributes = g_malloc (cells * self->cell_bytes);
  for (gint64 y = 0; y < new_height; y++)
    for (gint64 x = 0; x < new_width; x++)
      {
        gint64 ox = x - left, oy = y - top;
        guint8 *out = attributes + ((gsize) y * (gsize) new_width + (gsize) x) * self->cell_bytes;

        if (ox >= 0 && oy >= 0 && ox < self->width && oy < self->height)
          memcpy (out, cell_data (self, (guint) ox, (guint) oy), self->cell_bytes);
        else
          memcpy (out, empty, self->cell_bytes);
      }

  columns = (guint) new_width / 2;
  rows = (guint) new_height / 2;
  tile_map = g_malloc (MAX ((gsize) columns * rows * 2, 1));
  for (guint row = 0; row < rows; row++)
    for (guint column = 0; column < columns; column++)
      {
        gint64 oc = (gint64) column - left / 2, orow = (gint64) row - top / 2;
        guint16 entry = fill_tile;

        if (oc >= 0 && orow >= 0 && oc < self->tile_columns && orow < self->tile_rows)
          entry = tile_map_entry (self, (gsize) orow * self->tile_columns + (gsize) oc);
        terrain_put_le16 (tile_map + 2 * ((gsize) row * columns + column), entry);
      }

  tnt_block_take (&self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES], attributes,
                  cells * self->cell_bytes);
  tnt_block_take (&self->blocks[TERRAIN_TNT_SECTION_TILE_MAP], tile_map, (gsize) columns * rows * 2);
  self->width = (guint) new_width;
  self->height = (guint) new_height;
  self->tile_columns = columns;
  self->tile_rows = rows;
  self->header[W_WIDTH] = self->width;
  self->header[W_HEIGHT] = self->height;
  tnt_update_layout (self);
  tnt_mark_modified (self);

  g_object_freeze_notify (G_OBJECT (self));
  if (old_width != self->width)
    g_object_notify_by_pspec (G_OBJECT (self), tnt_map_properties[PROP_WIDTH]);
  if (old_height != self->height)
    g_object_notify_by_pspec (G_OBJECT (self), tnt_map_properties[PROP_HEIGHT]);
  g_object_thaw_notify (G_OBJECT (self));
  emit_all_cells_changed (self);
  emit_all_tiles_changed (self);

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Snapshots (terrain-tnt-map-private.h)                                    */

typedef struct
{
  const guint8 *view;   /* a view into the source bytes, or NULL */
  guint8       *copy;   /* an edited block's contents, or NULL */
  gsize         size;
} SnapshotBlock;

struct _TntMapSnapshot
{
  guint sections;
  guint32 header[N_HEADER_WORDS];
  guint width;
  guint height;
  guint tile_columns;
  guint tile_rows;
  guint n_tiles;
  guint n_features;
  guint minimap_width;
  guint minimap_height;
  gboolean has_minimap;
  gboolean canonical;
  TntSpan layout[N_SECTIONS];
  SnapshotBlock blocks[N_SECTIONS];
};

TntMapSnapshot *
terrain_tnt_map_snapshot (TerrainTntMap *self,
                          guint          sections)
{
  TntMapSnapshot *snapshot;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  snapshot = g_new0 (TntMapSnapshot, 1);
  snapshot->sections = sections & TNT_ALL_SECTIONS & ~TNT_SECTION_BIT (TERRAIN_TNT_SECTION_HEADER);
  memcpy (snapshot->header, self->header, sizeof self->header);
  snapshot->width = self->width;
  snapshot->height = self->height;
  snapshot->tile_columns = self->tile_columns;
  snapshot->tile_rows = self->tile_rows;
  snapshot->n_tiles = self->n_tiles;
  snapshot->n_features = self->n_features;
  snapshot->minimap_width = self->minimap_width;
  snapshot->minimap_height = self->minimap_height;
  snapshot->has_minimap = self->has_minimap;
  snapshot->canonical = self->canonical;
  memcpy (snapshot->layout, self->layout, sizeof self->layout);

  for (guint s = TERRAIN_TNT_SECTION_TILE_MAP; s < N_SECTIONS; s++)
    {
      const TntBlock *block = &self->blocks[s];
      SnapshotBlock *saved = &snapshot->blocks[s];

      if ((snapshot->sections & TNT_SECTION_BIT (s)) == 0)
        continue;

      saved->size = block->size;
      if (block->owned == NULL)
        saved->view = block->data;
      else
        saved->copy = g_memdup2 (block->data, MAX (block->size, 1));
    }

  return snapshot;
}

void
terrain_tnt_map_snapshot_free (TntMapSnapshot *snapshot)
{
  if (snapshot == NULL)
    return;

  for (guint s = 0; s < N_SECTIONS; s++)
    g_free (snapshot->blocks[s].copy);
  g_free (snapshot);
}

gsize
terrain_tnt_map_snapshot_size (TntMapSnapshot *snapshot)
{
  gsize size = sizeof *snapshot;

  for (guint s = 0; s < N_SECTIONS; s++)
    if (snapshot->blocks[s].copy != NULL)
      size += snapshot->blocks[s].size;

  return size;
}

void
terrain_tnt_map_restore (TerrainTntMap  *self,
                         TntMapSnapshot *snapshot)
{
  GObject *object = G_OBJECT (self);
  guint old_width = self->width, old_height = self->height;
  guint old_tiles = self->n_tiles, old_features = self->n_features;
  guint32 old_sea = self->header[W_SEA_LEVEL];
  gboolean old_present = terrain_tnt_map_get_minimap_present (self);
  gboolean cells_changed, tiles_changed;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));
  g_return_if_fail (snapshot != NULL);

  for (guint s = TERRAIN_TNT_SECTION_TILE_MAP; s < N_SECTIONS; s++)
    {
      SnapshotBlock *saved = &snapshot->blocks[s];

      if ((snapshot->sections & TNT_SECTION_BIT (s)) == 0)
        continue;

      tnt_block_clear (&self->blocks[s]);
      if (saved->copy != NULL)
        tnt_block_take (&self->blocks[s], g_steal_pointer (&saved->copy), saved->size);
      else
        tnt_block_set_view (&self->blocks[s], saved->view, saved->size);
    }

  memcpy (self->header, snapshot->header, sizeof self->header);
  self->width = snapshot->width;
  self->height = snapshot->height;
  self->tile_columns = snapshot->tile_columns;
  self->tile_rows = snapshot->tile_rows;
  self->n_tiles = snapshot->n_tiles;
  self->n_features = snapshot->n_features;
  self->minimap_width = snapshot->minimap_width;
  self->minimap_height = snapshot->minimap_height;
  self->has_minimap = snapshot->has_minimap;
  self->canonical = snapshot->canonical;
  memcpy (self->layout, snapshot->layout, sizeof self->layout);
  g_ptr_array_set_size (self->names, 0);
  g_ptr_array_set_size (self->names, self->n_features);

  cells_changed = (snapshot->sections & TNT_SECTION_BIT (TERRAIN_TNT_SECTION_ATTRIBUTES)) != 0 ||
                  old_width != self->width || old_height != self->height;
  tiles_changed = (snapshot->sections & (TNT_SECTION_BIT (TERRAIN_TNT_SECTION_TILE_MAP) |
                                         TNT_SECTION_BIT (TERRAIN_TNT_SECTION_TILES))) != 0 ||
                  cells_changed;
  terrain_tnt_map_snapshot_free (snapshot);

  tnt_mark_modified (self);
  g_object_freeze_notify (object);
  if (old_width != self->width)
    g_object_notify_by_pspec (object, tnt_map_properties[PROP_WIDTH]);
  if (old_height != self->height)
    g_object_notify_by_pspec (object, tnt_map_properties[PROP_HEIGHT]);
  if (old_tiles != self->n_tiles)
    g_object_notify_by_pspec (object, tnt_map_properties[PROP_N_TILES]);
  if (old_features != self->n_features)
    g_object_notify_by_pspec (object, tnt_map_properties[PROP_N_FEATURES]);
  if (old_sea != self->header[W_SEA_LEVEL])
    g_object_notify_by_pspec (object, tnt_map_properties[PROP_SEA_LEVEL]);
  if (old_present != terrain_tnt_map_get_minimap_present (self))
    g_object_notify_by_pspec (object, tnt_map_properties[PROP_MINIMAP_PRESENT]);
  g_object_thaw_notify (object);
  if (cells_changed)
    emit_all_cells_changed (self);
  if (tiles_changed)
    emit_all_tiles_changed (self);
}

/* ------------------------------------------------------------------------ */
