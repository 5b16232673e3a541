/* terrain-node-layer.c: Insomniac TerrainNodeLayer bodies
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-node-layer.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-relief-private.h"
#include "core/terrain-writer-private.h"

/* insomniac-terrain.md, "TerrainNodeLayer and TNLChunk". */
#define OFF_MARKER          0
#define OFF_COUNT           1
#define OFF_ITEMS           5

#define ITEM_STORED_WORD    0x0
#define ITEM_PREFIX         0x2
#define ITEM_POSITION       0xc
#define ITEM_STORED_BYTE    0x10
#define ITEM_IDENTITY       0x11

#define MAX_ISSUES          20

/* The quadtree map: pixels a side (4 per leaf); how far a node's bevel
 * rises over its level, across how many pixels at most; the width of a
 * pixel in levels, which makes the widest bevels 45-degree slopes. */
#define MAP_SIDE            1024
#define MAP_LEAVES          256
#define BEVEL_RISE          0.6
#define BEVEL_WIDTH         6.0
#define MAP_PIXEL_SIZE      (BEVEL_RISE / BEVEL_WIDTH)

struct _TerrainNodeLayer
{
  TerrainDocument parent_instance;

  GBytes *source;
  gsize file_size;
  gsize end;                  /* after the trailing count */

  guint8 marker;
  guint32 count;
  guint32 trailing_count;

  TerrainReader items;        /* over the source's items, until edited */
  GByteArray *copy;           /* the items once edited, or of a new layer */

  gint32 *index;              /* TERRAIN_NODE_POSITIONS entries: item or -1 */
};

G_DEFINE_FINAL_TYPE (TerrainNodeLayer, terrain_node_layer, TERRAIN_TYPE_DOCUMENT)

/**
 * terrain_node_level_start:
 * @level: a quadtree level, 0..8
 *
 * Gets the position of the first node of a quadtree level.
 *
 * Returns: the position of the first node of @level: (4^level - 1) / 3
 */
guint32
terrain_node_level_start (guint level)
{
  g_return_val_if_fail (level <= TERRAIN_NODE_LEVELS, 0);

  return (guint32) (((G_GUINT64_CONSTANT (1) << (2 * level)) - 1) / 3);
}

/**
 * terrain_node_position_to_level:
 * @position: a quadtree position
 * @level: (out) (optional): its level, 0..8
 * @column: (out) (optional): its column at that level, 0..2^level - 1
 * @row: (out) (optional): its row at that level
 *
 * Splits a quadtree position: level L holds positions (4^L - 1) / 3 onwards,
 * row-major over 2^L columns (insomniac-terrain.md, "TerrainNodeLayer and
 * TNLChunk").
 *
 * Returns: %TRUE, or %FALSE when @position is not below
 *   %TERRAIN_NODE_POSITIONS
 */
gboolean
terrain_node_position_to_level (guint32  position,
                                guint   *level,
                                guint   *column,
                                guint   *row)
{
  guint l;
  guint32 local;

  if (position >= TERRAIN_NODE_POSITIONS)
    return FALSE;

  for (l = 0; position >= terrain_node_level_start (l + 1); l++)
    ;
  local = position - terrain_node_level_start (l);

  if (level != NULL)
    *level = l;
  if (column != NULL)
    *column = local % (1u << l);
  if (row != NULL)
    *row = local >> l;
  return TRUE;
}

/**
 * terrain_node_position_from_level:
 * @level: a quadtree level, 0..8
 * @column: column at that level, below 2^level
 * @row: row at that level, below 2^level
 *
 * Gets the quadtree position of a node.
 *
 * Returns: the quadtree position of the node
 */
guint32
terrain_node_position_from_level (guint level,
                                  guint column,
                                  guint row)
{
  g_return_val_if_fail (level < TERRAIN_NODE_LEVELS, 0);
  g_return_val_if_fail (column < (1u << level) && row < (1u << level), 0);

  return terrain_node_level_start (level) + (row << level) + column;
}

/**
 * terrain_node_get_extent:
 * @level: a quadtree level, 0..8
 * @column: column at that level
 * @row: row at that level
 * @x: (out) (optional): the node's lowest x in metres
 * @y: (out) (optional): the node's lowest y in metres
 * @side: (out) (optional): the node's side in metres, 16384 / 2^level
 *
 * Places a node in the world: the quadtree covers -8192..+8192 metres along
 * x and y, the floor grid's extent, with 64-metre leaves.
 */
void
terrain_node_get_extent (guint   level,
                         guint   column,
                         guint   row,
                         double *x,
                         double *y,
                         double *side)
{
  double s;

  g_return_if_fail (level < TERRAIN_NODE_LEVELS);

  s = TERRAIN_NODE_WORLD_SIDE / (1u << level);
  if (x != NULL)
    *x = -TERRAIN_NODE_WORLD_SIDE / 2 + column * s;
  if (y != NULL)
    *y = -TERRAIN_NODE_WORLD_SIDE / 2 + row * s;
  if (side != NULL)
    *side = s;
}

/**
 * terrain_node_sample_position:
 * @level: a quadtree level, 0..8
 * @column: column at that level
 * @row: row at that level
 * @sample_x: raster column, 0..131
 * @sample_y: raster row, 0..131
 * @x: (out) (optional): world x in metres
 * @y: (out) (optional): world y in metres
 *
 * Places a raster sample of a node in the world. The node's 128 samples per
 * side span its extent and sample (2, 2), not (0, 0), is its corner
 * (insomniac-terrain.md, "Block coding"), so samples 0, 1 and 130, 131 lie
 * just outside it.
 */
void
terrain_node_sample_position (guint   level,
                              guint   column,
                              guint   row,
                              guint   sample_x,
                              guint   sample_y,
                              double *x,
                              double *y)
{
  double x0, y0, side;

  g_return_if_fail (level < TERRAIN_NODE_LEVELS);

  terrain_node_get_extent (level, column, row, &x0, &y0, &side);
  if (x != NULL)
    *x = x0 + ((double) sample_x - 2) * side / 128;
  if (y != NULL)
    *y = y0 + ((double) sample_y - 2) * side / 128;
}

static const guint8 *
item_peek (TerrainNodeLayer *self,
           guint             index)
{
  TerrainReader reader;
  const guint8 *data = NULL;

  if (self->copy != NULL)
    return self->copy->data + (gsize) index * TERRAIN_NODE_LAYER_ITEM_SIZE;

  reader = self->items;
  if (!terrain_reader_seek (&reader, (gsize) index * TERRAIN_NODE_LAYER_ITEM_SIZE, NULL) ||
      !terrain_reader_peek_bytes (&reader, TERRAIN_NODE_LAYER_ITEM_SIZE, &data, NULL))
    g_assert_not_reached ();
  return data;
}

static guint64
get_le64 (const guint8 *p)
{
  return (guint64) terrain_get_le32 (p) | ((guint64) terrain_get_le32 (p + 4) << 32);
}

static void
build_index (TerrainNodeLayer *self)
{
  if (self->index == NULL)
    self->index = g_new (gint32, TERRAIN_NODE_POSITIONS);
  for (guint i = 0; i < TERRAIN_NODE_POSITIONS; i++)
    self->index[i] = -1;

  /* The first item wins when a position repeats (validation reports it). */
  for (guint i = 0; i < self->count; i++)
    {
      guint32 position = terrain_get_le32 (item_peek (self, i) + ITEM_POSITION);

      if (position < TERRAIN_NODE_POSITIONS && self->index[position] < 0)
        self->index[position] = (gint32) i;
    }
}

static gboolean
terrain_node_layer_parse (TerrainDocument      *document,
                          GBytes               *bytes,
                          const TerrainLimits  *limits,
                          GError              **error)
{
  TerrainNodeLayer *self = TERRAIN_NODE_LAYER (document);
  TerrainReader reader;
  guint64 items_size, end;

  self->source = g_bytes_ref (bytes);
  if (limits == NULL)
    limits = terrain_limits_get_default ();

  terrain_reader_init (&reader, bytes, "TerrainNodeLayer");
  self->file_size = terrain_reader_get_size (&reader);

  if (!terrain_reader_read_u8 (&reader, &self->marker, error) ||
      !terrain_reader_read_u32 (&reader, &self->count, error))
    return FALSE;

  if (!terrain_limits_check_count (limits, self->count, limits->max_tiles, "node",
                                   "TerrainNodeLayer header", OFF_COUNT, error) ||
      !terrain_limits_check_alloc (limits, self->count, TERRAIN_NODE_LAYER_ITEM_SIZE,
                                   "node items", "TerrainNodeLayer header", OFF_COUNT, error))
    return FALSE;

  items_size = (guint64) self->count * TERRAIN_NODE_LAYER_ITEM_SIZE;
  if (items_size + 4 > self->file_size - OFF_ITEMS)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "TerrainNodeLayer: node items and trailing count at byte offset %d are "
                   "truncated: the count %u at byte offset %d needs %" G_GUINT64_FORMAT
                   " bytes, only %" G_GSIZE_FORMAT " remain",
                   OFF_ITEMS, self->count, OFF_COUNT, items_size + 4,
                   self->file_size - OFF_ITEMS);
      return FALSE;
    }

  if (!terrain_reader_sub (&reader, OFF_ITEMS, items_size, "TerrainNodeLayer items",
                           &self->items, error) ||
      !terrain_reader_seek (&reader, OFF_ITEMS + (gsize) items_size, error) ||
      !terrain_reader_read_u32 (&reader, &self->trailing_count, error))
    return FALSE;

  end = OFF_ITEMS + items_size + 4;
  self->end = (gsize) end;

  if (self->trailing_count != self->count)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TerrainNodeLayer: the trailing count %u at byte offset %" G_GSIZE_FORMAT
                   " differs from the count %u at byte offset %d",
                   self->trailing_count, self->end - 4, self->count, OFF_COUNT);
      return FALSE;
    }

  build_index (self);
  return TRUE;
}

/**
 * terrain_node_layer_new_from_bytes:
 * @bytes: a TerrainNodeLayer body (`.tnl`)
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Reads a TerrainNodeLayer (insomniac-terrain.md, "TerrainNodeLayer and
 * TNLChunk"): byte 1 (kept as read), the u32 item count (at most
 * #TerrainLimits.max_tiles), the 25-byte items, and the count again, which
 * must match. Bytes after the trailing count are kept and written back.
 *
 * Returns: (transfer full) (nullable): the layer, or %NULL with
 *   %TERRAIN_ERROR_TRUNCATED, %TERRAIN_ERROR_INVALID_VALUE (the counts
 *   differ) or %TERRAIN_ERROR_LIMIT_EXCEEDED
 */
TerrainNodeLayer *
terrain_node_layer_new_from_bytes (GBytes               *bytes,
                                   const TerrainLimits  *limits,
                                   GError              **error)
{
  return TERRAIN_NODE_LAYER (terrain_document_new_from_bytes (TERRAIN_TYPE_NODE_LAYER, bytes,
                                                              limits, error));
}

/**
 * terrain_node_layer_new:
 *
 * Creates an empty layer (marker byte 1, no items); add nodes with
 * [method@Terrain.NodeLayer.append].
 *
 * Returns: (transfer full): the layer
 */
TerrainNodeLayer *
terrain_node_layer_new (void)
{
  TerrainNodeLayer *self = g_object_new (TERRAIN_TYPE_NODE_LAYER, NULL);

  self->marker = 1;
  self->copy = g_byte_array_new ();
  build_index (self);
  terrain_document_set_source (TERRAIN_DOCUMENT (self), NULL, TERRAIN_FORMAT_NODE_LAYER);

  return self;
}

/**
 * terrain_node_layer_get_n_nodes:
 * @self: a #TerrainNodeLayer
 *
 * Gets the number of items.
 *
 * Returns: the number of items (87,381 for a whole world)
 */
guint
terrain_node_layer_get_n_nodes (TerrainNodeLayer *self)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_LAYER (self), 0);

  return self->count;
}

/**
 * terrain_node_layer_get_position:
 * @self: a #TerrainNodeLayer
 * @index: an item, below [method@Terrain.NodeLayer.get_n_nodes]
 *
 * Gets an item's quadtree position.
 *
 * Returns: the item's quadtree position (see
 *   [func@Terrain.node_position_to_level])
 */
guint32
terrain_node_layer_get_position (TerrainNodeLayer *self,
                                 guint             index)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_LAYER (self), 0);
  g_return_val_if_fail (index < self->count, 0);

  return terrain_get_le32 (item_peek (self, index) + ITEM_POSITION);
}

/**
 * terrain_node_layer_get_identity:
 * @self: a #TerrainNodeLayer
 * @index: an item, below [method@Terrain.NodeLayer.get_n_nodes]
 *
 * Gets the identity of an item's TNLChunk.
 *
 * Returns: the u64 identity of the item's TNLChunk
 */
guint64
terrain_node_layer_get_identity (TerrainNodeLayer *self,
                                 guint             index)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_LAYER (self), 0);
  g_return_val_if_fail (index < self->count, 0);

  return get_le64 (item_peek (self, index) + ITEM_IDENTITY);
}

/**
 * terrain_node_layer_get_item:
 * @self: a #TerrainNodeLayer
 * @index: an item, below [method@Terrain.NodeLayer.get_n_nodes]
 *
 * Returns an item's bytes as stored: a u16 and 10 bytes of unknown meaning,
 * the u32 position at byte 12, a byte at 16 (0 throughout the inspected
 * layer) and the u64 chunk identity at byte 17.
 *
 * Returns: (transfer none) (array fixed-size=25): the item, valid until the
 *   layer is next edited
 */
const guint8 *
terrain_node_layer_get_item (TerrainNodeLayer *self,
                             guint             index)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_LAYER (self), NULL);
  g_return_val_if_fail (index < self->count, NULL);

  return item_peek (self, index);
}

/**
 * terrain_node_layer_find:
 * @self: a #TerrainNodeLayer
 * @position: a quadtree position
 *
 * Finds the item with a quadtree position.
 *
 * Returns: the first item with @position, or -1
 */
gint
terrain_node_layer_find (TerrainNodeLayer *self,
                         guint32           position)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_LAYER (self), -1);

  if (position >= TERRAIN_NODE_POSITIONS)
    return -1;
  return self->index[position];
}

static void
ensure_copy (TerrainNodeLayer *self)
{
  const guint8 *data;

  if (self->copy != NULL)
    return;

  self->copy = g_byte_array_sized_new ((guint) terrain_reader_get_size (&self->items));
  if (terrain_reader_get_size (&self->items) > 0)
    {
      if (!terrain_reader_peek_bytes (&self->items, terrain_reader_get_size (&self->items),
                                      &data, NULL))
        g_assert_not_reached ();
      g_byte_array_append (self->copy, data, (guint) terrain_reader_get_size (&self->items));
    }
}

/**
 * terrain_node_layer_set_identity:
 * @self: a #TerrainNodeLayer
 * @index: an item, below [method@Terrain.NodeLayer.get_n_nodes]
 * @identity: the new chunk identity
 *
 * Points an item at another TNLChunk; only those eight bytes change.
 */
void
terrain_node_layer_set_identity (TerrainNodeLayer *self,
                                 guint             index,
                                 guint64           identity)
{
  guint8 *item;

  g_return_if_fail (TERRAIN_IS_NODE_LAYER (self));
  g_return_if_fail (index < self->count);

  if (terrain_node_layer_get_identity (self, index) == identity)
    return;

  ensure_copy (self);
  item = self->copy->data + (gsize) index * TERRAIN_NODE_LAYER_ITEM_SIZE;
  terrain_put_le32 (item + ITEM_IDENTITY, (guint32) identity);
  terrain_put_le32 (item + ITEM_IDENTITY + 4, (guint32) (identity >> 32));
  terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);
}

/**
 * terrain_node_layer_append:
 * @self: a #TerrainNodeLayer
 * @position: a quadtree position
 * @identity: the identity of the node's TNLChunk
 *
 * Adds an item; its unknown bytes are zero.
 *
 * Returns: the new item's index
 */
guint
terrain_node_layer_append (TerrainNodeLayer *self,
                           guint32           position,
                           guint64           identity)
{
  guint8 item[TERRAIN_NODE_LAYER_ITEM_SIZE] = { 0 };

  g_return_val_if_fail (TERRAIN_IS_NODE_LAYER (self), 0);
  g_return_val_if_fail (self->count < G_MAXINT32, 0);

  ensure_copy (self);
  terrain_put_le32 (item + ITEM_POSITION, position);
  terrain_put_le32 (item + ITEM_IDENTITY, (guint32) identity);
  terrain_put_le32 (item + ITEM_IDENTITY + 4, (guint32) (identity >> 32));
  g_byte_array_append (self->copy, item, sizeof item);

  if (position < TERRAIN_NODE_POSITIONS && self->index[position] < 0)
    self->index[position] = (gint32) self->count;
  self->count++;
  self->trailing_count = self->count;
  terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);

  return self->count - 1;
}

/**
 * terrain_node_layer_is_complete:
 * @self: a #TerrainNodeLayer
 *
 * Checks whether the layer covers the whole quadtree.
 *
 * Returns: %TRUE when every one of the 87,381 quadtree positions has an
 *   item, as in a whole world's layer
 */
gboolean
terrain_node_layer_is_complete (TerrainNodeLayer *self)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_LAYER (self), FALSE);

  for (guint i = 0; i < TERRAIN_NODE_POSITIONS; i++)
    if (self->index[i] < 0)
      return FALSE;
  return TRUE;
}

static GBytes *
terrain_node_layer_save_to_bytes (TerrainDocument  *document,
                                  GError          **error)
{
  TerrainNodeLayer *self = TERRAIN_NODE_LAYER (document);
  TerrainWriter writer;

  terrain_writer_init (&writer, OFF_ITEMS + (gsize) self->count * TERRAIN_NODE_LAYER_ITEM_SIZE + 4);
  terrain_writer_set_section (&writer, "TerrainNodeLayer");

  terrain_writer_put_u8 (&writer, self->marker);
  terrain_writer_put_u32 (&writer, self->count);
  for (guint i = 0; i < self->count; i++)
    terrain_writer_put_bytes (&writer, item_peek (self, i), TERRAIN_NODE_LAYER_ITEM_SIZE);
  terrain_writer_put_u32 (&writer, self->count);

  if (self->source != NULL && self->file_size > self->end)
    {
      TerrainReader reader;
      const guint8 *extra;

      terrain_reader_init (&reader, self->source, "TerrainNodeLayer");
      if (terrain_reader_seek (&reader, self->end, NULL) &&
          terrain_reader_peek_bytes (&reader, self->file_size - self->end, &extra, NULL))
        terrain_writer_put_bytes (&writer, extra, self->file_size - self->end);
    }

  return terrain_writer_finish (&writer, error);
}

static gint64
item_offset (guint index)
{
  return OFF_ITEMS + (gint64) index * TERRAIN_NODE_LAYER_ITEM_SIZE;
}

static GPtrArray *
terrain_node_layer_validate (TerrainDocument *document)
{
  TerrainNodeLayer *self = TERRAIN_NODE_LAYER (document);
  g_autoptr(GPtrArray) issues =
    g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  guint out_of_range = 0, duplicates = 0, stored = 0, present = 0;

  if (self->marker != 1)
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_WARNING, "TerrainNodeLayer header",
                                                OFF_MARKER, -1,
                                                "the first byte is %u; the inspected layer "
                                                "starts with 1", self->marker));

  for (guint i = 0; i < self->count; i++)
    {
      const guint8 *item = item_peek (self, i);
      guint32 position = terrain_get_le32 (item + ITEM_POSITION);

      if (position >= TERRAIN_NODE_POSITIONS)
        {
          if (out_of_range++ < MAX_ISSUES)
            g_ptr_array_add (issues,
                             terrain_issue_new (TERRAIN_SEVERITY_WARNING, "TerrainNodeLayer items",
                                                item_offset (i) + ITEM_POSITION, i,
                                                "quadtree position %u lies beyond the nine "
                                                "levels (%u positions)",
                                                position, TERRAIN_NODE_POSITIONS));
          continue;
        }

      if (self->index[position] != (gint32) i)
        {
          if (duplicates++ < MAX_ISSUES)
            g_ptr_array_add (issues,
                             terrain_issue_new (TERRAIN_SEVERITY_WARNING, "TerrainNodeLayer items",
                                                item_offset (i) + ITEM_POSITION, i,
                                                "quadtree position %u repeats item %d",
                                                position, self->index[position]));
        }

      if (item[ITEM_STORED_BYTE] != 0 && stored++ < MAX_ISSUES)
        g_ptr_array_add (issues,
                         terrain_issue_new (TERRAIN_SEVERITY_INFO, "TerrainNodeLayer items",
                                            item_offset (i) + ITEM_STORED_BYTE, i,
                                            "byte 16 of the item is %u; it is 0 throughout the "
                                            "inspected layer", item[ITEM_STORED_BYTE]));
    }

  if (out_of_range > MAX_ISSUES)
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_WARNING, "TerrainNodeLayer items",
                                                -1, -1, "%u more positions out of range",
                                                out_of_range - MAX_ISSUES));
  if (duplicates > MAX_ISSUES)
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_WARNING, "TerrainNodeLayer items",
                                                -1, -1, "%u more repeated positions",
                                                duplicates - MAX_ISSUES));
  if (stored > MAX_ISSUES)
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_INFO, "TerrainNodeLayer items",
                                                -1, -1, "%u more items with a non-zero byte 16",
                                                stored - MAX_ISSUES));

  for (guint i = 0; i < TERRAIN_NODE_POSITIONS; i++)
    if (self->index[i] >= 0)
      present++;
  if (present != TERRAIN_NODE_POSITIONS)
    {
      guint first = 0;

      while (self->index[first] >= 0)
        first++;
      g_ptr_array_add (issues,
                       terrain_issue_new (TERRAIN_SEVERITY_INFO, "TerrainNodeLayer items", -1, -1,
                                          "the layer covers %u of the %u quadtree positions "
                                          "(first missing: %u)",
                                          present, TERRAIN_NODE_POSITIONS, first));
    }

  if (self->source != NULL && self->file_size > self->end)
    g_ptr_array_add (issues,
                     terrain_issue_new (TERRAIN_SEVERITY_INFO, "TerrainNodeLayer",
                                        (gint64) self->end, -1,
                                        "%" G_GSIZE_FORMAT " bytes follow the trailing count "
                                        "(kept as they are)", self->file_size - self->end));

  return g_steal_pointer (&issues);
}

static JsonNode *
terrain_node_layer_describe (TerrainDocument *document)
{
  TerrainNodeLayer *self = TERRAIN_NODE_LAYER (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  guint per_level[TERRAIN_NODE_LEVELS] = { 0 };
  guint out_of_range = 0;

  for (guint i = 0; i < self->count; i++)
    {
      guint level;

      if (terrain_node_position_to_level (terrain_node_layer_get_position (self, i), &level,
                                          NULL, NULL))
        per_level[level]++;
      else
        out_of_range++;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, terrain_format_get_name (TERRAIN_FORMAT_NODE_LAYER));
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, (gint64) self->file_size);
  json_builder_set_member_name (builder, "nodes");
  json_builder_add_int_value (builder, self->count);
  json_builder_set_member_name (builder, "complete");
  json_builder_add_boolean_value (builder, terrain_node_layer_is_complete (self));
  json_builder_set_member_name (builder, "nodes_per_level");
  json_builder_begin_array (builder);
  for (guint l = 0; l < TERRAIN_NODE_LEVELS; l++)
    json_builder_add_int_value (builder, per_level[l]);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "positions_out_of_range");
  json_builder_add_int_value (builder, out_of_range);
  json_builder_set_member_name (builder, "items_offset");
  json_builder_add_int_value (builder, OFF_ITEMS);
  json_builder_set_member_name (builder, "item_size");
  json_builder_add_int_value (builder, TERRAIN_NODE_LAYER_ITEM_SIZE);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static char *
terrain_node_layer_describe_offset (TerrainDocument *document,
                                    gsize            offset)
{
  TerrainNodeLayer *self = TERRAIN_NODE_LAYER (document);
  gsize items_end = OFF_ITEMS + (gsize) self->count * TERRAIN_NODE_LAYER_ITEM_SIZE;

  if (offset >= self->file_size)
    return g_strdup ("end of file");
  if (offset == OFF_MARKER)
    return g_strdup ("TerrainNodeLayer header, first byte");
  if (offset < OFF_ITEMS)
    return g_strdup ("TerrainNodeLayer header, count");
  if (offset < items_end)
    {
      guint index = (guint) ((offset - OFF_ITEMS) / TERRAIN_NODE_LAYER_ITEM_SIZE);
      gsize rel = (offset - OFF_ITEMS) % TERRAIN_NODE_LAYER_ITEM_SIZE;
      guint32 position = terrain_node_layer_get_position (self, index);
      const char *field = rel < ITEM_PREFIX ? "stored word"
                          : rel < ITEM_POSITION ? "stored prefix"
                          : rel < ITEM_STORED_BYTE ? "quadtree position"
                          : rel < ITEM_IDENTITY ? "stored byte" : "chunk identity";
      guint level, column, row;

      if (terrain_node_position_to_level (position, &level, &column, &row))
        return g_strdup_printf ("TerrainNodeLayer item %u (position %u: level %u, column %u, "
                                "row %u), %s", index, position, level, column, row, field);
      return g_strdup_printf ("TerrainNodeLayer item %u (position %u), %s",
                              index, position, field);
    }
  if (offset < items_end + 4)
    return g_strdup ("TerrainNodeLayer trailing count");
  return g_strdup ("bytes after the trailing count");
}

/* The quadtree as terraces: each pixel stands at the level of the deepest
 * node of the layer that covers it, so deeper nodes rise above their
 * parents, and each node's square is bevelled so its bounds show; pixels
 * no node covers stay empty. Column = node column, row 0 = node row 0 (the
 * lowest y, as in the floor grid's heights). */
static gboolean
fill_map (TerrainNodeLayer  *self,
          TerrainRelief     *relief,
          GError           **error)
{
  g_autofree guint8 *deepest = g_malloc (MAP_LEAVES * MAP_LEAVES);
  guint per_leaf = MAP_SIDE / MAP_LEAVES;

  if (!terrain_relief_init (relief, MAP_SIDE, MAP_SIDE, NULL, "TerrainNodeLayer picture", error))
    return FALSE;

  /* Positions grow with the level, so deeper nodes are drawn last. */
  memset (deepest, 0xff, MAP_LEAVES * MAP_LEAVES);
  for (guint32 position = 0; position < TERRAIN_NODE_POSITIONS; position++)
    {
      guint level, column, row, span;

      if (self->index[position] < 0)
        continue;
      terrain_node_position_to_level (position, &level, &column, &row);
      span = MAP_LEAVES >> level;
      for (guint y = row * span; y < (row + 1) * span; y++)
        memset (deepest + (gsize) y * MAP_LEAVES + column * span, (int) level, span);
    }

  for (guint y = 0; y < MAP_SIDE; y++)
    for (guint x = 0; x < MAP_SIDE; x++)
      {
        guint level = deepest[(y / per_leaf) * MAP_LEAVES + x / per_leaf];
        guint side, u, v, edge;
        gdouble bevel, t;

        if (level == 0xff)
          continue;
        side = MAP_SIDE >> level;
        u = x % side;
        v = y % side;
        edge = MIN (MIN (u, side - 1 - u), MIN (v, side - 1 - v));
        bevel = MIN (BEVEL_WIDTH, side / 4.0);
        t = MIN ((edge + 0.5) / bevel, 1.0);
        relief->z[(gsize) y * MAP_SIDE + x] = (gfloat) (level + BEVEL_RISE * t * t * (3 - 2 * t));
      }
  return TRUE;
}

/* A map of the quadtree the layer indexes (fill_map), tinted by level:
 * the layer holds no heights or colours of its own, only which nodes
 * exist. */
static TerrainImage *
terrain_node_layer_render_image (TerrainDocument  *document,
                                 TerrainRenderOptions *options,
                                 GError          **error)
{
  g_auto(TerrainRelief) relief = { 0 };

  (void) options;
  if (!fill_map (TERRAIN_NODE_LAYER (document), &relief, error))
    return NULL;
  return terrain_relief_render (&relief, MAP_PIXEL_SIZE, error);
}

static TerrainImage *
terrain_node_layer_export_heights (TerrainDocument  *document,
                                   GError          **error)
{
  g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                       "TerrainNodeLayer: the layer holds no heights (they are in the "
                       "TNLChunk of each node)");
  return NULL;
}

static void
terrain_node_layer_finalize (GObject *object)
{
  TerrainNodeLayer *self = (TerrainNodeLayer *) object;

  g_clear_pointer (&self->copy, g_byte_array_unref);
  g_clear_pointer (&self->index, g_free);
  g_clear_pointer (&self->source, g_bytes_unref);

  G_OBJECT_CLASS (terrain_node_layer_parent_class)->finalize (object);
}

static void
terrain_node_layer_class_init (TerrainNodeLayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  object_class->finalize = terrain_node_layer_finalize;

  document_class->save_to_bytes = terrain_node_layer_save_to_bytes;
  document_class->validate = terrain_node_layer_validate;
  document_class->describe = terrain_node_layer_describe;
  document_class->render_image = terrain_node_layer_render_image;
  document_class->export_heights = terrain_node_layer_export_heights;
  document_class->describe_offset = terrain_node_layer_describe_offset;
  document_class->parse = terrain_node_layer_parse;
  document_class->format = TERRAIN_FORMAT_NODE_LAYER;
}

static void
terrain_node_layer_init (TerrainNodeLayer *self)
{
}
