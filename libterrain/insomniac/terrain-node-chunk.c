/* terrain-node-chunk.c: Insomniac TNLChunk bodies: the type, reading, header accessors
 * (the files of TerrainNodeChunk: terrain-node-chunk-impl-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-node-chunk-impl-private.h"
#include "core/terrain-bc.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"
#include "core/terrain-writer-private.h"

G_DEFINE_FINAL_TYPE (TerrainNodeChunk, terrain_node_chunk, TERRAIN_TYPE_DOCUMENT)

guint node_chunk_signals[N_SIGNALS];

const char * const node_chunk_block_sections[N_BLOCKS_MAX] = {
  "TNLChunk block 0 (heights)",
  "TNLChunk block 1 (colour)",
  "TNLChunk block 2 (material ID)",
  "TNLChunk block 3 (region/flags)",
  "TNLChunk block 4 (grass weight)",
  "TNLChunk block 5 (grass group)",
  "TNLChunk block 6 (zero)",
  "TNLChunk block 7 (t18 channel)",
  "TNLChunk block 8 (occlusion)",
  "TNLChunk block 10 (snow depth)",
};

const char * const node_chunk_block_ids[N_BLOCKS_MAX] = {
  "heights", "colour", "material", "region", "grass_weight",
  "grass_group", "zero", "t18", "occlusion", "snow",
};

BlockKind
node_chunk_block_kind (guint b)
{
  switch (b)
    {
    case TERRAIN_NODE_BLOCK_HEIGHTS:
    case TERRAIN_NODE_BLOCK_SNOW:
      return KIND_HEIGHTS;
    case TERRAIN_NODE_BLOCK_COLOUR:
    case TERRAIN_NODE_BLOCK_OCCLUSION:
      return KIND_TEXTURE;
    default:
      return KIND_RASTER;
    }
}

TerrainBcFormat
node_chunk_texture_format (guint b)
{
  return b == TERRAIN_NODE_BLOCK_COLOUR ? TERRAIN_BC_FORMAT_BC1 : TERRAIN_BC_FORMAT_BC4;
}

gsize
node_chunk_decoded_size (guint b)
{
  switch (node_chunk_block_kind (b))
    {
    case KIND_HEIGHTS:
      return TERRAIN_NODE_SAMPLES * sizeof (gint32);
    case KIND_TEXTURE:
      return TERRAIN_NODE_TEXTURE_BYTES;
    case KIND_RASTER:
    default:
      return TERRAIN_NODE_SAMPLES;
    }
}

/**
 * terrain_node_height_scale:
 * @level: quadtree level, 0 (root) to 8 (leaves)
 *
 * Returns the height of one decoded unit at @level: 5000 x 2^(8 - level - 20)
 * metres (insomniac-terrain.md, "Block coding"), about 4.77 mm for leaves
 * and 1.22 m for the root.
 *
 * Returns: metres per decoded height unit
 */
double
terrain_node_height_scale (guint level)
{
  return ldexp (5000.0, 8 - (gint) level - 20);
}

float
node_chunk_bits_to_float (guint32 bits)
{
  float f;

  memcpy (&f, &bits, sizeof f);
  return f;
}

guint32
node_chunk_float_to_bits (float f)
{
  guint32 bits;

  memcpy (&bits, &f, sizeof bits);
  return bits;
}

/* The content a block would be written with: the re-encoded bytes after an
 * edit, the source bytes otherwise. */
TerrainReader
node_chunk_block_content (TerrainNodeChunk *self,
                          guint             b)
{
  NodeBlock *block = &self->blocks[b];
  TerrainReader reader;

  if (block->encoded != NULL)
    {
      gsize size;
      const guint8 *data = g_bytes_get_data (block->encoded, &size);

      terrain_reader_init_data (&reader, data, size, 0, node_chunk_block_sections[b]);
      return reader;
    }

  return block->view;
}

static gboolean
terrain_node_chunk_parse (TerrainDocument      *document,
                          GBytes               *bytes,
                          const TerrainLimits  *limits,
                          GError              **error)
{
  TerrainNodeChunk *self = TERRAIN_NODE_CHUNK (document);
  TerrainReader file, reader;
  guint64 end;

  self->source = g_bytes_ref (bytes);
  terrain_reader_init (&file, bytes, "TNLChunk");
  reader = file;
  self->file_size = terrain_reader_get_size (&file);

  if (!terrain_reader_check_span (&reader, 0, HEADER_SIZE, "9-byte chunk header", error) ||
      !terrain_reader_read_u8 (&reader, &self->marker, error) ||
      !terrain_reader_read_u32 (&reader, &self->body_length, error) ||
      !terrain_reader_read_u16 (&reader, &self->magic, error) ||
      !terrain_reader_read_u16 (&reader, &self->tag, error))
    return FALSE;

  if (self->magic != TERRAIN_NODE_CHUNK_MAGIC)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                   "TNLChunk header: 0x%04X at byte offset %d is not the chunk magic 0xFEED",
                   self->magic, OFF_MAGIC);
      return FALSE;
    }

  if ((self->tag & TAG_VERSION_MASK) != TERRAIN_NODE_CHUNK_VERSION)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNSUPPORTED_VERSION,
                   "TNLChunk header: tag 0x%04X at byte offset %d has version 0x%X; only "
                   "version 0x%X is known",
                   self->tag, OFF_TAG, self->tag & TAG_VERSION_MASK, TERRAIN_NODE_CHUNK_VERSION);
      return FALSE;
    }

  end = (guint64) self->body_length + 5;
  if (end > self->file_size)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "TNLChunk header: the body length %u at byte offset %d declares %"
                   G_GUINT64_FORMAT " bytes, but the data holds %" G_GSIZE_FORMAT,
                   self->body_length, OFF_LENGTH, end, self->file_size);
      return FALSE;
    }
  self->end = (gsize) end;

  /* Everything the chunk holds lies inside its declared length. */
  if (!terrain_reader_sub (&file, 0, self->end, "TNLChunk", &reader, error) ||
      !terrain_reader_seek (&reader, HEADER_SIZE, error))
    return FALSE;

  self->n_blocks = (self->tag & TERRAIN_NODE_CHUNK_LEAF) ? N_BLOCKS_MAX : N_FRAME_BLOCKS;

  for (guint b = 0; b < self->n_blocks; b++)
    {
      NodeBlock *block = &self->blocks[b];
      guint32 size;

      if (b == N_FRAME_BLOCKS)
        {
          /* Height bounds and material mask sit between block 8 and the
           * leaf's tenth block. */
          self->bounds_offset = terrain_reader_tell (&reader);
          if (!terrain_reader_read_u32 (&reader, &self->bounds_bits[0], error) ||
              !terrain_reader_read_u32 (&reader, &self->bounds_bits[1], error))
            return FALSE;
          self->mask_offset = terrain_reader_tell (&reader);
          if (!terrain_reader_copy_bytes (&reader, MASK_SIZE, self->mask, error))
            return FALSE;
        }

      block->prefix_offset = terrain_reader_tell (&reader);
      if (!terrain_reader_read_u32 (&reader, &size, error))
        return FALSE;

      if (!terrain_limits_check_alloc (limits, size, 1, node_chunk_block_sections[b], "TNLChunk",
                                       (goffset) block->prefix_offset, error))
        return FALSE;

      if (!terrain_reader_sub (&reader, terrain_reader_tell (&reader), size, node_chunk_block_sections[b],
                               &block->view, error))
        {
          g_prefix_error (error, "length %u at byte offset %" G_GSIZE_FORMAT ": ",
                          size, block->prefix_offset);
          return FALSE;
        }
      block->size = size;
      block->in_source = TRUE;
      if (!terrain_reader_skip (&reader, size, error))
        return FALSE;
    }

  if (self->n_blocks == N_FRAME_BLOCKS)
    {
      self->bounds_offset = terrain_reader_tell (&reader);
      if (!terrain_reader_read_u32 (&reader, &self->bounds_bits[0], error) ||
          !terrain_reader_read_u32 (&reader, &self->bounds_bits[1], error))
        return FALSE;
      self->mask_offset = terrain_reader_tell (&reader);
      if (!terrain_reader_copy_bytes (&reader, MASK_SIZE, self->mask, error))
        return FALSE;
    }

  if (terrain_reader_tell (&reader) != self->end)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNLChunk: the %s chunk's blocks, bounds and mask end at byte offset %"
                   G_GSIZE_FORMAT ", but the body length %u at byte offset %d puts the end at %"
                   G_GSIZE_FORMAT,
                   self->n_blocks == N_BLOCKS_MAX ? "leaf" : "internal",
                   terrain_reader_tell (&reader), self->body_length, OFF_LENGTH, self->end);
      return FALSE;
    }

  self->level = (self->tag & TERRAIN_NODE_CHUNK_LEAF) ? N_LEVELS - 1 : -1;
  return TRUE;
}

/**
 * terrain_node_chunk_new_from_bytes:
 * @bytes: a TNLChunk body (`.tnlc`)
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Reads the framing of a TNLChunk (insomniac-terrain.md, "TerrainNodeLayer
 * and TNLChunk"): byte 1 (kept as read), the body length minus 5, the magic
 * 0xFEED, the tag (its version, bits 0..9, must be 0x14; bit 15 marks a
 * leaf), nine blocks each prefixed by a u32 length, two f32 height bounds,
 * the 32-byte material mask and, for a leaf, a tenth block. The blocks,
 * bounds and mask must end exactly where the body length says; bytes after
 * that end are kept and written back.
 *
 * Blocks are decoded on first use. An internal chunk's quadtree level is
 * unknown until set with [method@Terrain.NodeChunk.set_level] or guessed
 * with [method@Terrain.NodeChunk.guess_level]; leaves are level 8.
 *
 * Returns: (transfer full) (nullable): the chunk, or %NULL with
 *   %TERRAIN_ERROR_TRUNCATED (the data ends inside the framing or a block),
 *   %TERRAIN_ERROR_BAD_MAGIC (no 0xFEED), %TERRAIN_ERROR_UNSUPPORTED_VERSION,
 *   %TERRAIN_ERROR_INVALID_VALUE (the framing does not end at the body
 *   length) or %TERRAIN_ERROR_LIMIT_EXCEEDED
 */
TerrainNodeChunk *
terrain_node_chunk_new_from_bytes (GBytes               *bytes,
                                   const TerrainLimits  *limits,
                                   GError              **error)
{
  return TERRAIN_NODE_CHUNK (terrain_document_new_from_bytes (TERRAIN_TYPE_NODE_CHUNK, bytes,
                                                              limits, error));
}

/**
 * terrain_node_chunk_new:
 * @leaf: whether the chunk is a leaf (level 8, with a snow-depth block)
 *
 * Creates a flat chunk: heights 0, material 0, region 0, grass weight 0x60,
 * grass group 0xFE (the material's group), zero and t18 rasters 0, a grey
 * colour texture, occlusion 255, snow depth 0; height bounds 0 and the mask
 * of material 0. A leaf is level 8; set an internal chunk's level with
 * [method@Terrain.NodeChunk.set_level] before editing its heights.
 *
 * Returns: (transfer full): the new chunk
 */
TerrainNodeChunk *
terrain_node_chunk_new (gboolean leaf)
{
  TerrainNodeChunk *self = g_object_new (TERRAIN_TYPE_NODE_CHUNK, NULL);
  static const guint8 raster_values[N_FRAME_BLOCKS] = {
    [TERRAIN_NODE_BLOCK_MATERIAL] = 0,
    [TERRAIN_NODE_BLOCK_REGION] = 0,
    [TERRAIN_NODE_BLOCK_GRASS_WEIGHT] = 0x60,
    [TERRAIN_NODE_BLOCK_GRASS_GROUP] = 0xfe,
    [TERRAIN_NODE_BLOCK_ZERO] = 0,
    [TERRAIN_NODE_BLOCK_T18] = 0,
  };
  /* Grey 0x8410 in both endpoints; occlusion 255 in both endpoints. */
  static const guint8 colour_block[8] = { 0x10, 0x84, 0x10, 0x84, 0, 0, 0, 0 };
  static const guint8 occlusion_block[8] = { 0xff, 0xff, 0, 0, 0, 0, 0, 0 };

  self->marker = 1;
  self->magic = TERRAIN_NODE_CHUNK_MAGIC;
  self->tag = TAG_INTERNAL | (leaf ? TERRAIN_NODE_CHUNK_LEAF : 0);
  self->n_blocks = leaf ? N_BLOCKS_MAX : N_FRAME_BLOCKS;
  self->level = leaf ? N_LEVELS - 1 : -1;
  self->mask[0] = 1;

  for (guint b = 0; b < self->n_blocks; b++)
    {
      NodeBlock *block = &self->blocks[b];

      block->decoded = g_malloc0 (node_chunk_decoded_size (b));
      block->decoded_valid = TRUE;
      block->dirty = TRUE;

      if (node_chunk_block_kind (b) == KIND_RASTER)
        memset (block->decoded, raster_values[b], TERRAIN_NODE_SAMPLES);
      else if (node_chunk_block_kind (b) == KIND_TEXTURE)
        for (guint i = 0; i < TERRAIN_NODE_BC_BLOCKS; i++)
          memcpy ((guint8 *) block->decoded + 8 * i,
                  b == TERRAIN_NODE_BLOCK_COLOUR ? colour_block : occlusion_block, 8);
    }

  terrain_document_set_source (TERRAIN_DOCUMENT (self), NULL, TERRAIN_FORMAT_NODE_CHUNK);
  return self;
}

/**
 * terrain_node_chunk_get_tag:
 * @self: a #TerrainNodeChunk
 *
 * Gets the chunk's tag word.
 *
 * Returns: the tag: version in bits 0..9 (0x14), flags in bits 10..14
 *   (0x1C00 in every inspected chunk), bit 15 for a leaf
 */
guint16
terrain_node_chunk_get_tag (TerrainNodeChunk *self)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), 0);

  return self->tag;
}

/**
 * terrain_node_chunk_is_leaf:
 * @self: a #TerrainNodeChunk
 *
 * Checks whether the chunk is a leaf.
 *
 * Returns: %TRUE for a leaf chunk (tag bit 15), which has the tenth,
 *   snow-depth block
 */
gboolean
terrain_node_chunk_is_leaf (TerrainNodeChunk *self)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), FALSE);

  return (self->tag & TERRAIN_NODE_CHUNK_LEAF) != 0;
}

/**
 * terrain_node_chunk_get_n_blocks:
 * @self: a #TerrainNodeChunk
 *
 * Gets the number of blocks in the chunk.
 *
 * Returns: 9 for an internal chunk, 10 for a leaf
 */
guint
terrain_node_chunk_get_n_blocks (TerrainNodeChunk *self)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), 0);

  return self->n_blocks;
}

/**
 * terrain_node_chunk_get_block_span:
 * @self: a #TerrainNodeChunk
 * @block: a block
 * @offset: (out) (optional): byte offset of the block's contents (after its
 *   u32 length) in the data the chunk was read from
 * @size: (out) (optional): size of the contents in bytes
 *
 * Locates a block in the data the chunk was read from.
 *
 * Returns: %TRUE, or %FALSE if the chunk was not read from data or has no
 *   such block (the snow block of an internal chunk)
 */
gboolean
terrain_node_chunk_get_block_span (TerrainNodeChunk *self,
                                   TerrainNodeBlock  block,
                                   gsize            *offset,
                                   gsize            *size)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), FALSE);

  if ((guint) block >= self->n_blocks || !self->blocks[block].in_source)
    return FALSE;

  if (offset != NULL)
    *offset = self->blocks[block].prefix_offset + 4;
  if (size != NULL)
    *size = self->blocks[block].size;
  return TRUE;
}

/**
 * terrain_node_chunk_get_height_bounds:
 * @self: a #TerrainNodeChunk
 * @min: (out) (optional): the lower bound in metres
 * @max: (out) (optional): the upper bound in metres
 *
 * Returns the stored height bounds: the lowest and highest world height of
 * the node's samples. After a height edit they describe the edited heights
 * (they are recomputed when the chunk is saved, and here).
 */
void
terrain_node_chunk_get_height_bounds (TerrainNodeChunk *self,
                                      float            *min,
                                      float            *max)
{
  g_return_if_fail (TERRAIN_IS_NODE_CHUNK (self));

  if (min != NULL)
    *min = node_chunk_bits_to_float (self->bounds_bits[0]);
  if (max != NULL)
    *max = node_chunk_bits_to_float (self->bounds_bits[1]);
}

/**
 * terrain_node_chunk_get_material_mask:
 * @self: a #TerrainNodeChunk
 *
 * Returns the material mask: bit m (byte m / 8, bit m % 8, least
 * significant first) is set when material ID m occurs in the material
 * raster. It follows material edits.
 *
 * Returns: (transfer none) (array fixed-size=32): the mask
 */
const guint8 *
terrain_node_chunk_get_material_mask (TerrainNodeChunk *self)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), NULL);

  return self->mask;
}

/**
 * terrain_node_chunk_get_level:
 * @self: a #TerrainNodeChunk
 *
 * Gets the node's quadtree level.
 *
 * Returns: the node's quadtree level (0..8), or -1 when unknown (an
 *   internal chunk read on its own); leaves are level 8
 */
gint
terrain_node_chunk_get_level (TerrainNodeChunk *self)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), -1);

  return self->level;
}

/**
 * terrain_node_chunk_set_level:
 * @self: a #TerrainNodeChunk
 * @level: the quadtree level, 0..8 (see
 *   [func@Terrain.node_position_to_level]), or -1 for unknown
 *
 * Tells the chunk its level, which fixes the metres per height unit
 * ([func@Terrain.node_height_scale]) and so the height bounds. The layer
 * that addresses a chunk knows it; a chunk does not store it.
 */
void
terrain_node_chunk_set_level (TerrainNodeChunk *self,
                              gint              level)
{
  g_return_if_fail (TERRAIN_IS_NODE_CHUNK (self));
  g_return_if_fail (level >= -1 && level < N_LEVELS);

  self->level = level;
}

static TerrainImage *
terrain_node_chunk_render_image (TerrainDocument  *document,
                                 TerrainRenderOptions *options,
                                 GError          **error)
{
  return terrain_node_chunk_render_texture (TERRAIN_NODE_CHUNK (document),
                                            TERRAIN_NODE_BLOCK_COLOUR, error);
}

static TerrainImage *
terrain_node_chunk_document_export_heights (TerrainDocument  *document,
                                            GError          **error)
{
  return terrain_node_chunk_export_heights (TERRAIN_NODE_CHUNK (document), NULL, error);
}

static void
terrain_node_chunk_finalize (GObject *object)
{
  TerrainNodeChunk *self = (TerrainNodeChunk *) object;

  for (guint b = 0; b < N_BLOCKS_MAX; b++)
    {
      g_clear_pointer (&self->blocks[b].decoded, g_free);
      g_clear_pointer (&self->blocks[b].info, g_free);
      g_clear_pointer (&self->blocks[b].encoded, g_bytes_unref);
    }
  g_clear_pointer (&self->source, g_bytes_unref);

  G_OBJECT_CLASS (terrain_node_chunk_parent_class)->finalize (object);
}

static void
terrain_node_chunk_class_init (TerrainNodeChunkClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  object_class->finalize = terrain_node_chunk_finalize;

  document_class->save_to_bytes = node_chunk_save_to_bytes;
  document_class->validate = node_chunk_validate;
  document_class->describe = node_chunk_describe;
  document_class->render_image = terrain_node_chunk_render_image;
  document_class->export_heights = terrain_node_chunk_document_export_heights;
  document_class->describe_offset = node_chunk_describe_offset;
  document_class->parse = terrain_node_chunk_parse;
  document_class->format = TERRAIN_FORMAT_NODE_CHUNK;

  /**
   * TerrainNodeChunk::block-changed:
   * @self: the chunk
   * @block: the #TerrainNodeBlock that changed
   *
   * Emitted after a block's decoded contents were replaced.
   */
  node_chunk_signals[BLOCK_CHANGED] =
    g_signal_new ("block-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
terrain_node_chunk_init (TerrainNodeChunk *self)
{
  self->level = -1;
}
