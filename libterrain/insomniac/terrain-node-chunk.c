/* terrain-node-chunk.c: Insomniac TNLChunk bodies
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-node-chunk.h"
#include "terrain-bc.h"
#include "terrain-node-codec-private.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-writer-private.h"

/* insomniac-terrain.md, "TerrainNodeLayer and TNLChunk". */
#define OFF_MARKER       0
#define OFF_LENGTH       1
#define OFF_MAGIC        5
#define OFF_TAG          7
#define HEADER_SIZE      9
#define BOUNDS_SIZE      8
#define MASK_SIZE        32
#define N_FRAME_BLOCKS   9
#define N_BLOCKS_MAX     10

#define TAG_VERSION_MASK 0x03ff
#define TAG_FLAGS_MASK   0x7c00
#define TAG_FLAGS        0x1c00
#define TAG_INTERNAL     (TAG_FLAGS | TERRAIN_NODE_CHUNK_VERSION)

#define N_LEVELS         9
#define S                TERRAIN_NODE_SIDE

/* Validation lists this many findings of one kind, then a count. */
#define MAX_ISSUES       20

typedef enum
{
  KIND_HEIGHTS,
  KIND_TEXTURE,
  KIND_RASTER,
} BlockKind;

typedef struct
{
  gsize prefix_offset;         /* of the u32 length in the source */
  gsize size;                  /* content size as read */
  gboolean in_source;
  TerrainReader view;          /* content as read */

  GBytes *encoded;             /* content re-encoded after an edit, or of a new chunk */
  gpointer decoded;            /* gint32[S*S], guint8[S*S] or guint8[8712] BC blocks */
  TerrainCodedBlockInfo *info; /* of the content in the source, once decoded */
  guint decoded_valid : 1;
  guint source_decoded : 1;    /* info describes the source content */
  guint dirty : 1;             /* decoded holds an edit not yet encoded */
} NodeBlock;

struct _TerrainNodeChunk
{
  TerrainDocument parent_instance;

  GBytes *source;
  gsize file_size;
  gsize end;                   /* 5 + body length */

  guint8 marker;
  guint32 body_length;
  guint16 magic;
  guint16 tag;
  guint32 bounds_bits[2];
  guint8 mask[MASK_SIZE];
  gsize bounds_offset;
  gsize mask_offset;

  guint n_blocks;
  NodeBlock blocks[N_BLOCKS_MAX];

  gint level;
  guint bounds_dirty : 1;
  guint mask_dirty : 1;
};

G_DEFINE_FINAL_TYPE (TerrainNodeChunk, terrain_node_chunk, TERRAIN_TYPE_DOCUMENT)

enum {
  BLOCK_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char * const block_sections[N_BLOCKS_MAX] = {
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

static const char * const block_ids[N_BLOCKS_MAX] = {
  "heights", "colour", "material", "region", "grass_weight",
  "grass_group", "zero", "t18", "occlusion", "snow",
};

static BlockKind
block_kind (guint b)
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

static TerrainBcFormat
texture_format (guint b)
{
  return b == TERRAIN_NODE_BLOCK_COLOUR ? TERRAIN_BC_FORMAT_BC1 : TERRAIN_BC_FORMAT_BC4;
}

static gsize
decoded_size (guint b)
{
  switch (block_kind (b))
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

static float
bits_to_float (guint32 bits)
{
  float f;

  memcpy (&f, &bits, sizeof f);
  return f;
}

static guint32
float_to_bits (float f)
{
  guint32 bits;

  memcpy (&bits, &f, sizeof bits);
  return bits;
}

/* The content a block would be written with: the re-encoded bytes after an
 * edit, the source bytes otherwise. */
static TerrainReader
block_content (TerrainNodeChunk *self,
               guint             b)
{
  NodeBlock *block = &self->blocks[b];
  TerrainReader reader;

  if (block->encoded != NULL)
    {
      gsize size;
      const guint8 *data = g_bytes_get_data (block->encoded, &size);

      terrain_reader_init_data (&reader, data, size, 0, block_sections[b]);
      return reader;
    }

  return block->view;
}

static gboolean
terrain_node_chunk_parse (TerrainNodeChunk     *self,
                          GBytes               *bytes,
                          const TerrainLimits  *limits,
                          GError              **error)
{
  TerrainReader file, reader;
  guint64 end;

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

      if (!terrain_limits_check_alloc (limits, size, 1, block_sections[b], "TNLChunk",
                                       (goffset) block->prefix_offset, error))
        return FALSE;

      if (!terrain_reader_sub (&reader, terrain_reader_tell (&reader), size, block_sections[b],
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
  g_autoptr(TerrainNodeChunk) self = NULL;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (TERRAIN_TYPE_NODE_CHUNK, NULL);
  if (!terrain_node_chunk_parse (self, bytes, limits, error))
    return NULL;

  self->source = g_bytes_ref (bytes);
  terrain_document_set_source (TERRAIN_DOCUMENT (self), bytes, TERRAIN_FORMAT_NODE_CHUNK);

  return g_steal_pointer (&self);
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

      block->decoded = g_malloc0 (decoded_size (b));
      block->decoded_valid = TRUE;
      block->dirty = TRUE;

      if (block_kind (b) == KIND_RASTER)
        memset (block->decoded, raster_values[b], TERRAIN_NODE_SAMPLES);
      else if (block_kind (b) == KIND_TEXTURE)
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
    *min = bits_to_float (self->bounds_bits[0]);
  if (max != NULL)
    *max = bits_to_float (self->bounds_bits[1]);
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

static gboolean
ensure_decoded (TerrainNodeChunk  *self,
                guint              b,
                GError           **error)
{
  NodeBlock *block = &self->blocks[b];
  TerrainReader content;
  gboolean ok;

  if (block->decoded_valid)
    return TRUE;

  g_assert (block->in_source);

  if (block->decoded == NULL)
    block->decoded = g_malloc (decoded_size (b));
  if (block->info == NULL && block_kind (b) != KIND_TEXTURE)
    block->info = g_new0 (TerrainCodedBlockInfo, 1);

  content = block_content (self, b);
  switch (block_kind (b))
    {
    case KIND_HEIGHTS:
      ok = terrain_node_decode_heights (&content, block->decoded, block->info, error);
      break;
    case KIND_TEXTURE:
      ok = terrain_node_decode_texture (&content, texture_format (b), block->decoded, error);
      break;
    case KIND_RASTER:
    default:
      ok = terrain_node_decode_raster (&content, block->decoded, block->info, error);
      break;
    }

  if (ok)
    {
      block->decoded_valid = TRUE;
      block->source_decoded = TRUE;
    }
  return ok;
}

/* The range of the heights over all samples and over the core. */
typedef struct
{
  gint64 full_min;
  gint64 full_max;
  gint64 core_min;
  gint64 core_max;
} HeightRanges;

static void
ranges_init (HeightRanges *r)
{
  r->full_min = r->core_min = G_MAXINT64;
  r->full_max = r->core_max = G_MININT64;
}

static inline gboolean
in_core (guint x,
         guint y)
{
  return x >= TERRAIN_NODE_SAMPLE_ORIGIN && y >= TERRAIN_NODE_SAMPLE_ORIGIN &&
         x < TERRAIN_NODE_SAMPLE_ORIGIN + TERRAIN_NODE_CORE_SIDE &&
         y < TERRAIN_NODE_SAMPLE_ORIGIN + TERRAIN_NODE_CORE_SIDE;
}

/* A TerrainNodeRowFunc. */
static void
ranges_add_row (guint         y,
                const gint64 *row,
                gpointer      user_data)
{
  HeightRanges *r = user_data;

  for (guint x = 0; x < S; x++)
    {
      gint64 v = row[x];

      r->full_min = MIN (r->full_min, v);
      r->full_max = MAX (r->full_max, v);
      if (in_core (x, y))
        {
          r->core_min = MIN (r->core_min, v);
          r->core_max = MAX (r->core_max, v);
        }
    }
}

static void
sample_ranges (const gint32 *values,
               HeightRanges *r)
{
  gint64 row[S];

  ranges_init (r);
  for (guint y = 0; y < S; y++)
    {
      for (guint x = 0; x < S; x++)
        row[x] = values[y * S + x];
      ranges_add_row (y, row, r);
    }
}

/* Whether stored bounds fit decoded heights at @scale: the stored range must
 * cover the core's heights and lie within all samples' heights, give or
 * take one height unit and float rounding (the spec does not say which of
 * the two ranges the bounds describe; our encoder stores the full one). */
static gboolean
bounds_match (const float         bounds[2],
              const HeightRanges *r,
              double              scale)
{
  double tolerance = scale + 1e-6 * MAX (fabs (bounds[0]), fabs (bounds[1]));

  return bounds[0] >= r->full_min * scale - tolerance &&
         bounds[0] <= r->core_min * scale + tolerance &&
         bounds[1] <= r->full_max * scale + tolerance &&
         bounds[1] >= r->core_max * scale - tolerance;
}

/* The stored bounds, or the bounds of the edited heights. */
static void
current_bounds (TerrainNodeChunk *self,
                float             bounds[2])
{
  bounds[0] = bits_to_float (self->bounds_bits[0]);
  bounds[1] = bits_to_float (self->bounds_bits[1]);
}

/* The lowest level at which the heights' ranges fit the stored bounds. */
static gint
guess_level_from_ranges (TerrainNodeChunk    *self,
                         const HeightRanges  *r,
                         GError             **error)
{
  float bounds[2];

  current_bounds (self, bounds);
  for (guint level = 0; level < N_LEVELS; level++)
    if (bounds_match (bounds, r, terrain_node_height_scale (level)))
      return (gint) level;

  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
               "TNLChunk: the height bounds %g..%g m at byte offset %" G_GSIZE_FORMAT " fit the "
               "decoded heights at no quadtree level 0..8",
               bounds[0], bounds[1], self->bounds_offset);
  return -1;
}

/**
 * terrain_node_chunk_guess_level:
 * @self: a #TerrainNodeChunk
 * @error: return location for a #GError
 *
 * Finds the quadtree level whose height scale makes the decoded heights
 * agree with the stored height bounds, for an internal chunk read without
 * its layer. A chunk whose heights are all zero fits every level; the
 * lowest is returned. The chunk's own level is not changed.
 *
 * Returns: the level, 0..8, or -1 with %TERRAIN_ERROR_INVALID_VALUE when no
 *   level fits (or the heights' decoding error)
 */
gint
terrain_node_chunk_guess_level (TerrainNodeChunk  *self,
                                GError           **error)
{
  const gint32 *heights;
  HeightRanges ranges;

  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), -1);

  heights = terrain_node_chunk_get_heights (self, error);
  if (heights == NULL)
    return -1;

  sample_ranges (heights, &ranges);
  return guess_level_from_ranges (self, &ranges, error);
}

/**
 * terrain_node_chunk_get_heights:
 * @self: a #TerrainNodeChunk
 * @error: return location for a #GError
 *
 * Decodes block 0 (insomniac-terrain.md, "Block coding"): 132 x 132 signed
 * heights, row-major with row along y. Multiply by
 * [func@Terrain.node_height_scale] of the node's level for metres; sample
 * (2, 2) is the node's corner.
 *
 * Returns: (transfer none) (array fixed-size=17424) (nullable): the heights,
 *   valid until the next height edit, or %NULL with the decoding error:
 *   %TERRAIN_ERROR_TRUNCATED, %TERRAIN_ERROR_OUT_OF_RANGE or
 *   %TERRAIN_ERROR_INVALID_VALUE, naming the byte offset and sample
 */
const gint32 *
terrain_node_chunk_get_heights (TerrainNodeChunk  *self,
                                GError           **error)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), NULL);

  if (!ensure_decoded (self, TERRAIN_NODE_BLOCK_HEIGHTS, error))
    return NULL;
  return self->blocks[TERRAIN_NODE_BLOCK_HEIGHTS].decoded;
}

static gboolean
check_height_values (const gint32  *values,
                     const char    *what,
                     GError       **error)
{
  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    if (values[i] < -TERRAIN_NODE_HEIGHT_LIMIT || values[i] > TERRAIN_NODE_HEIGHT_LIMIT)
      {
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                     "TNLChunk %s: sample %u (x=%u, y=%u) is %d, outside the codable range "
                     "-%d..%d",
                     what, i, i % S, i / S, values[i],
                     TERRAIN_NODE_HEIGHT_LIMIT, TERRAIN_NODE_HEIGHT_LIMIT);
        return FALSE;
      }
  return TRUE;
}

/* Prepares a block for an edit: decodes the source content first (its
 * palette order and the unconsumed tail of B are kept by the re-encoding;
 * a block that does not decode is replaced whole). */
static void
begin_edit (TerrainNodeChunk *self,
            guint             b)
{
  NodeBlock *block = &self->blocks[b];

  if (!block->decoded_valid)
    {
      g_autoptr(GError) ignored = NULL;

      if (!ensure_decoded (self, b, &ignored))
        {
          if (block->decoded == NULL)
            block->decoded = g_malloc0 (decoded_size (b));
          block->decoded_valid = TRUE;
        }
    }
}

static void
end_edit (TerrainNodeChunk *self,
          guint             b)
{
  NodeBlock *block = &self->blocks[b];

  block->dirty = TRUE;
  g_clear_pointer (&block->encoded, g_bytes_unref);
  terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);
  g_signal_emit (self, signals[BLOCK_CHANGED], 0, b);
}

static void
update_bounds (TerrainNodeChunk *self)
{
  const gint32 *heights = self->blocks[TERRAIN_NODE_BLOCK_HEIGHTS].decoded;
  HeightRanges r;
  double scale = terrain_node_height_scale ((guint) self->level);

  sample_ranges (heights, &r);
  self->bounds_bits[0] = float_to_bits ((float) (r.full_min * scale));
  self->bounds_bits[1] = float_to_bits ((float) (r.full_max * scale));
}

/**
 * terrain_node_chunk_set_heights:
 * @self: a #TerrainNodeChunk
 * @heights: (array fixed-size=17424): 132 x 132 heights in decoded units,
 *   row-major, each within ±%TERRAIN_NODE_HEIGHT_LIMIT
 * @error: return location for a #GError
 *
 * Replaces the heights. Block 0 is re-encoded when the chunk is saved, and
 * the height bounds become the lowest and highest of the new heights times
 * the level's scale, so the level must be known (always for leaves; see
 * [method@Terrain.NodeChunk.set_level]). Emits
 * [signal@Terrain.NodeChunk::block-changed].
 *
 * Returns: %TRUE, or %FALSE with %TERRAIN_ERROR_INVALID_VALUE for a value
 *   out of range or an unknown level
 */
gboolean
terrain_node_chunk_set_heights (TerrainNodeChunk  *self,
                                const gint32      *heights,
                                GError           **error)
{
  NodeBlock *block;

  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), FALSE);
  g_return_val_if_fail (heights != NULL, FALSE);

  if (!check_height_values (heights, "heights", error))
    return FALSE;
  if (self->level < 0)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                           "TNLChunk heights: the node's quadtree level is unknown, so the "
                           "height bounds cannot be recomputed; set the level first");
      return FALSE;
    }

  begin_edit (self, TERRAIN_NODE_BLOCK_HEIGHTS);
  block = &self->blocks[TERRAIN_NODE_BLOCK_HEIGHTS];
  memcpy (block->decoded, heights, decoded_size (TERRAIN_NODE_BLOCK_HEIGHTS));
  update_bounds (self);
  self->bounds_dirty = TRUE;
  end_edit (self, TERRAIN_NODE_BLOCK_HEIGHTS);
  return TRUE;
}

/**
 * terrain_node_chunk_get_world_height:
 * @self: a #TerrainNodeChunk
 * @x: sample column, 0..131
 * @y: sample row, 0..131
 * @metres: (out): the world height: decoded x 5000 x 2^(8 - level - 20)
 * @error: return location for a #GError
 *
 * Gets the world height of a sample in metres.
 *
 * Returns: %TRUE, or %FALSE with %TERRAIN_ERROR_INVALID_VALUE when the level
 *   is unknown, or the heights' decoding error
 */
gboolean
terrain_node_chunk_get_world_height (TerrainNodeChunk  *self,
                                     guint              x,
                                     guint              y,
                                     double            *metres,
                                     GError           **error)
{
  const gint32 *heights;

  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), FALSE);
  g_return_val_if_fail (x < S && y < S, FALSE);
  g_return_val_if_fail (metres != NULL, FALSE);

  if (self->level < 0)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                           "TNLChunk: world heights need the node's quadtree level, which is "
                           "unknown");
      return FALSE;
    }
  heights = terrain_node_chunk_get_heights (self, error);
  if (heights == NULL)
    return FALSE;

  *metres = heights[y * S + x] * terrain_node_height_scale ((guint) self->level);
  return TRUE;
}

static gboolean
check_block (TerrainNodeChunk  *self,
             TerrainNodeBlock   block,
             BlockKind          kind,
             GError           **error)
{
  if ((guint) block >= self->n_blocks)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "TNLChunk: an internal chunk has no %s block", block_ids[block]);
      return FALSE;
    }
  g_return_val_if_fail (block_kind (block) == kind, FALSE);
  return TRUE;
}

/**
 * terrain_node_chunk_get_raster:
 * @self: a #TerrainNodeChunk
 * @block: a raster block: %TERRAIN_NODE_BLOCK_MATERIAL ..
 *   %TERRAIN_NODE_BLOCK_T18
 * @error: return location for a #GError
 *
 * Decodes a raster block (palette, Hilbert traversal, uniform runs, ranks;
 * insomniac-terrain.md, "Block coding"): 132 x 132 bytes, row-major with row
 * along y.
 *
 * Returns: (transfer none) (array fixed-size=17424) (nullable): the samples,
 *   valid until the block is next edited, or %NULL with the decoding error
 */
const guint8 *
terrain_node_chunk_get_raster (TerrainNodeChunk  *self,
                               TerrainNodeBlock   block,
                               GError           **error)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), NULL);
  g_return_val_if_fail (block_kind (block) == KIND_RASTER, NULL);

  if (!ensure_decoded (self, block, error))
    return NULL;
  return self->blocks[block].decoded;
}

static void
update_mask (TerrainNodeChunk *self)
{
  const guint8 *materials = self->blocks[TERRAIN_NODE_BLOCK_MATERIAL].decoded;

  memset (self->mask, 0, MASK_SIZE);
  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    self->mask[materials[i] / 8] |= (guint8) (1u << (materials[i] % 8));
}

/**
 * terrain_node_chunk_set_raster:
 * @self: a #TerrainNodeChunk
 * @block: a raster block: %TERRAIN_NODE_BLOCK_MATERIAL ..
 *   %TERRAIN_NODE_BLOCK_T18
 * @samples: (array fixed-size=17424): 132 x 132 new samples, row-major
 * @error: return location for a #GError
 *
 * Replaces a raster. The block is re-encoded when the chunk is saved,
 * keeping the order of its old palette for the values still used; an edit
 * of the material raster updates the material mask. Emits
 * [signal@Terrain.NodeChunk::block-changed].
 *
 * Returns: %TRUE
 */
gboolean
terrain_node_chunk_set_raster (TerrainNodeChunk  *self,
                               TerrainNodeBlock   block,
                               const guint8      *samples,
                               GError           **error)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), FALSE);
  g_return_val_if_fail (block_kind (block) == KIND_RASTER, FALSE);
  g_return_val_if_fail (samples != NULL, FALSE);

  begin_edit (self, block);
  memcpy (self->blocks[block].decoded, samples, TERRAIN_NODE_SAMPLES);
  if (block == TERRAIN_NODE_BLOCK_MATERIAL)
    {
      update_mask (self);
      self->mask_dirty = TRUE;
    }
  end_edit (self, block);
  return TRUE;
}

/**
 * terrain_node_chunk_get_snow_depth:
 * @self: a leaf #TerrainNodeChunk
 * @error: return location for a #GError
 *
 * Decodes the leaf's tenth block, height-coded like block 0: the physics
 * snow depth, subtracted from the surface as value / 255 metres.
 *
 * Returns: (transfer none) (array fixed-size=17424) (nullable): the depths,
 *   or %NULL with %TERRAIN_ERROR_NOT_SUPPORTED for an internal chunk, or the
 *   decoding error
 */
const gint32 *
terrain_node_chunk_get_snow_depth (TerrainNodeChunk  *self,
                                   GError           **error)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), NULL);

  if (!check_block (self, TERRAIN_NODE_BLOCK_SNOW, KIND_HEIGHTS, error) ||
      !ensure_decoded (self, TERRAIN_NODE_BLOCK_SNOW, error))
    return NULL;
  return self->blocks[TERRAIN_NODE_BLOCK_SNOW].decoded;
}

/**
 * terrain_node_chunk_set_snow_depth:
 * @self: a leaf #TerrainNodeChunk
 * @depth: (array fixed-size=17424): 132 x 132 depths in 1/255 metres
 * @error: return location for a #GError
 *
 * Replaces the snow depth of a leaf.
 *
 * Returns: %TRUE, or %FALSE with %TERRAIN_ERROR_NOT_SUPPORTED for an internal
 *   chunk or %TERRAIN_ERROR_INVALID_VALUE for a value out of range
 */
gboolean
terrain_node_chunk_set_snow_depth (TerrainNodeChunk  *self,
                                   const gint32      *depth,
                                   GError           **error)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), FALSE);
  g_return_val_if_fail (depth != NULL, FALSE);

  if (!check_block (self, TERRAIN_NODE_BLOCK_SNOW, KIND_HEIGHTS, error) ||
      !check_height_values (depth, "snow depth", error))
    return FALSE;

  begin_edit (self, TERRAIN_NODE_BLOCK_SNOW);
  memcpy (self->blocks[TERRAIN_NODE_BLOCK_SNOW].decoded, depth,
          decoded_size (TERRAIN_NODE_BLOCK_SNOW));
  end_edit (self, TERRAIN_NODE_BLOCK_SNOW);
  return TRUE;
}

/**
 * terrain_node_chunk_get_texture_blocks:
 * @self: a #TerrainNodeChunk
 * @block: %TERRAIN_NODE_BLOCK_COLOUR (BC1) or %TERRAIN_NODE_BLOCK_OCCLUSION
 *   (BC4)
 * @error: return location for a #GError
 *
 * Decompresses a texture block and re-interleaves its endpoint and index
 * planes into ordinary BC blocks, ready for upload.
 *
 * Returns: (transfer none) (array fixed-size=8712) (nullable): 1,089 BC
 *   blocks, 33 per row, or %NULL with %TERRAIN_ERROR_INVALID_VALUE when the
 *   LZ4 data is corrupt or not 8,712 bytes decompressed
 */
const guint8 *
terrain_node_chunk_get_texture_blocks (TerrainNodeChunk  *self,
                                       TerrainNodeBlock   block,
                                       GError           **error)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), NULL);
  g_return_val_if_fail (block_kind (block) == KIND_TEXTURE, NULL);

  if (!ensure_decoded (self, block, error))
    return NULL;
  return self->blocks[block].decoded;
}

/**
 * terrain_node_chunk_set_texture_blocks:
 * @self: a #TerrainNodeChunk
 * @block: %TERRAIN_NODE_BLOCK_COLOUR or %TERRAIN_NODE_BLOCK_OCCLUSION
 * @blocks: (array fixed-size=8712): 1,089 ordinary BC1 or BC4 blocks
 * @error: return location for a #GError
 *
 * Replaces a texture with ready-made BC blocks; they are split into planes
 * and LZ4-compressed when the chunk is saved.
 *
 * Returns: %TRUE
 */
gboolean
terrain_node_chunk_set_texture_blocks (TerrainNodeChunk  *self,
                                       TerrainNodeBlock   block,
                                       const guint8      *blocks,
                                       GError           **error)
{
  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), FALSE);
  g_return_val_if_fail (block_kind (block) == KIND_TEXTURE, FALSE);
  g_return_val_if_fail (blocks != NULL, FALSE);

  if (self->blocks[block].decoded == NULL)
    self->blocks[block].decoded = g_malloc (TERRAIN_NODE_TEXTURE_BYTES);
  self->blocks[block].decoded_valid = TRUE;
  memcpy (self->blocks[block].decoded, blocks, TERRAIN_NODE_TEXTURE_BYTES);
  end_edit (self, block);
  return TRUE;
}

/**
 * terrain_node_chunk_render_texture:
 * @self: a #TerrainNodeChunk
 * @block: %TERRAIN_NODE_BLOCK_COLOUR or %TERRAIN_NODE_BLOCK_OCCLUSION
 * @error: return location for a #GError
 *
 * Decodes a texture: the colour as a 132 x 132 %TERRAIN_IMAGE_RGBA8 image,
 * the occlusion as %TERRAIN_IMAGE_GRAY8.
 *
 * Returns: (transfer full) (nullable): the image, or %NULL with the
 *   decoding error
 */
TerrainImage *
terrain_node_chunk_render_texture (TerrainNodeChunk  *self,
                                   TerrainNodeBlock   block,
                                   GError           **error)
{
  const guint8 *blocks;

  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), NULL);
  g_return_val_if_fail (block_kind (block) == KIND_TEXTURE, NULL);

  blocks = terrain_node_chunk_get_texture_blocks (self, block, error);
  if (blocks == NULL)
    return NULL;

  return terrain_bc_decode_image (texture_format (block), blocks, TERRAIN_NODE_TEXTURE_BYTES,
                                  S, S, error);
}

/**
 * terrain_node_chunk_set_texture:
 * @self: a #TerrainNodeChunk
 * @block: %TERRAIN_NODE_BLOCK_COLOUR or %TERRAIN_NODE_BLOCK_OCCLUSION
 * @image: a 132 x 132 image: %TERRAIN_IMAGE_RGBA8 for the colour,
 *   %TERRAIN_IMAGE_GRAY8 for the occlusion
 * @error: return location for a #GError
 *
 * Block-compresses @image ([func@Terrain.bc_encode_image]) and replaces the
 * texture with it.
 *
 * Returns: %TRUE, or %FALSE with %TERRAIN_ERROR_INVALID_VALUE for an image of
 *   the wrong size or pixel format
 */
gboolean
terrain_node_chunk_set_texture (TerrainNodeChunk  *self,
                                TerrainNodeBlock   block,
                                TerrainImage      *image,
                                GError           **error)
{
  g_autoptr(GBytes) blocks = NULL;

  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), FALSE);
  g_return_val_if_fail (block_kind (block) == KIND_TEXTURE, FALSE);
  g_return_val_if_fail (image != NULL, FALSE);

  if (terrain_image_get_width (image) != S || terrain_image_get_height (image) != S)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNLChunk %s: the image is %ux%u; textures are %ux%u",
                   block_ids[block], terrain_image_get_width (image),
                   terrain_image_get_height (image), S, S);
      return FALSE;
    }

  blocks = terrain_bc_encode_image (texture_format (block), image, error);
  if (blocks == NULL)
    return FALSE;

  return terrain_node_chunk_set_texture_blocks (self, block,
                                                g_bytes_get_data (blocks, NULL), error);
}

/**
 * terrain_node_chunk_export_heights:
 * @self: a #TerrainNodeChunk
 * @offset: (out) (optional): the decoded height of grey level 0
 * @error: return location for a #GError
 *
 * Returns the decoded heights as a 132 x 132 %TERRAIN_IMAGE_GRAY16 image,
 * row 0 first. Heights that all lie in 0..65535 are written as they are
 * (@offset 0); otherwise the lowest height becomes 0 and @offset says which
 * height that is, so decoded = grey + @offset.
 *
 * Returns: (transfer full) (nullable): the image, or %NULL with the
 *   decoding error, or %TERRAIN_ERROR_OUT_OF_RANGE when the heights span
 *   more than 65,535 units
 */
TerrainImage *
terrain_node_chunk_export_heights (TerrainNodeChunk  *self,
                                   gint32            *offset,
                                   GError           **error)
{
  g_autoptr(TerrainImage) image = NULL;
  gint64 full_min, full_max, base;
  HeightRanges r;
  const gint32 *heights;
  guint8 *pixels;
  gsize stride;

  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), NULL);

  heights = terrain_node_chunk_get_heights (self, error);
  if (heights == NULL)
    return NULL;

  sample_ranges (heights, &r);
  full_min = r.full_min;
  full_max = r.full_max;
  base = full_min >= 0 && full_max <= G_MAXUINT16 ? 0 : full_min;
  if (full_max - base > G_MAXUINT16)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "TNLChunk heights: they span %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT
                   ", more than a 16-bit image holds",
                   full_min, full_max);
      return NULL;
    }

  image = terrain_image_new (TERRAIN_IMAGE_GRAY16, S, S, error);
  if (image == NULL)
    return NULL;
  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  for (guint y = 0; y < S; y++)
    for (guint x = 0; x < S; x++)
      {
        guint16 v = (guint16) (heights[y * S + x] - base);

        memcpy (pixels + y * stride + 2 * x, &v, sizeof v);
      }

  if (offset != NULL)
    *offset = (gint32) base;
  return g_steal_pointer (&image);
}

/**
 * terrain_node_chunk_compare_edge:
 * @self: a #TerrainNodeChunk
 * @neighbour: the chunk of the node after @self along @edge, at the same
 *   level
 * @edge: which neighbour @neighbour is
 * @mismatches: (out) (optional): how many of the 4 x 132 shared heights differ
 * @error: return location for a #GError
 *
 * Checks the strip two neighbouring nodes share (insomniac-terrain.md,
 * "Block coding"): samples 128..131 of @self along @edge are samples 0..3 of
 * @neighbour, at every position across the edge.
 *
 * Returns: %TRUE when both chunks' heights decode (read @mismatches for the
 *   result), or %FALSE with the decoding error, or %TERRAIN_ERROR_INVALID_VALUE
 *   when their known levels differ
 */
gboolean
terrain_node_chunk_compare_edge (TerrainNodeChunk  *self,
                                 TerrainNodeChunk  *neighbour,
                                 TerrainNodeEdge    edge,
                                 guint             *mismatches,
                                 GError           **error)
{
  const gint32 *a, *b;
  guint count = 0;

  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_NODE_CHUNK (neighbour), FALSE);
  g_return_val_if_fail (edge == TERRAIN_NODE_EDGE_X || edge == TERRAIN_NODE_EDGE_Y, FALSE);

  if (self->level >= 0 && neighbour->level >= 0 && self->level != neighbour->level)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNLChunk: nodes of levels %d and %d do not share an edge strip",
                   self->level, neighbour->level);
      return FALSE;
    }

  a = terrain_node_chunk_get_heights (self, error);
  if (a == NULL)
    return FALSE;
  b = terrain_node_chunk_get_heights (neighbour, error);
  if (b == NULL)
    return FALSE;

  for (guint across = 0; across < S; across++)
    for (guint i = 0; i < TERRAIN_NODE_EDGE_SAMPLES; i++)
      {
        guint along = TERRAIN_NODE_CORE_SIDE + i;
        gint32 va = edge == TERRAIN_NODE_EDGE_X ? a[across * S + along] : a[along * S + across];
        gint32 vb = edge == TERRAIN_NODE_EDGE_X ? b[across * S + i] : b[i * S + across];

        if (va != vb)
          count++;
      }

  if (mismatches != NULL)
    *mismatches = count;
  return TRUE;
}

/* The unconsumed end of B in the source content: kept when the block is
 * re-encoded. Blocks that never decoded, or new ones, get zeros. */
static GBytes *
source_tail (TerrainNodeChunk *self,
             guint             b)
{
  NodeBlock *block = &self->blocks[b];
  TerrainReader reader = block->view;
  const guint8 *data;
  guint64 used;

  if (!block->in_source || !block->source_decoded || block->info == NULL)
    return g_bytes_new (NULL, 0);

  used = (guint64) block->info->a_end + (block->info->raw_bits + 7) / 8;
  if (used > block->size ||
      !terrain_reader_seek (&reader, (gsize) used, NULL) ||
      !terrain_reader_peek_bytes (&reader, block->size - (gsize) used, &data, NULL))
    return g_bytes_new (NULL, 0);

  return g_bytes_new (data, block->size - (gsize) used);
}

static const guint8 zero_tail[TERRAIN_NODE_B_TAIL];

static void
encode_block (TerrainNodeChunk *self,
              guint             b)
{
  NodeBlock *block = &self->blocks[b];
  g_autoptr(GBytes) tail = NULL;
  const guint8 *tail_data;
  gsize tail_size;

  if (block->in_source && block->source_decoded)
    {
      tail = source_tail (self, b);
      tail_data = g_bytes_get_data (tail, &tail_size);
    }
  else
    {
      tail_data = zero_tail;
      tail_size = sizeof zero_tail;
    }

  g_clear_pointer (&block->encoded, g_bytes_unref);
  switch (block_kind (b))
    {
    case KIND_HEIGHTS:
      /* The values were range-checked when they were set. */
      block->encoded = terrain_node_encode_heights (block->decoded, tail_data, tail_size, NULL);
      g_assert (block->encoded != NULL);
      break;
    case KIND_TEXTURE:
      block->encoded = terrain_node_encode_texture (texture_format (b), block->decoded);
      break;
    case KIND_RASTER:
    default:
      if (block->in_source && block->source_decoded)
        block->encoded = terrain_node_encode_raster (block->decoded, block->info->palette,
                                                     block->info->palette_count,
                                                     block->info->chunk_length,
                                                     tail_data, tail_size);
      else
        block->encoded = terrain_node_encode_raster (block->decoded, NULL, 0, 0,
                                                     tail_data, tail_size);
      break;
    }
  block->dirty = FALSE;
}

static void
put_block (TerrainNodeChunk *self,
           TerrainWriter    *writer,
           guint             b)
{
  TerrainReader content;
  const guint8 *data;
  gsize size;

  if (self->blocks[b].dirty)
    encode_block (self, b);

  content = block_content (self, b);
  size = terrain_reader_get_size (&content);
  if (!terrain_reader_peek_bytes (&content, size, &data, NULL))
    g_assert_not_reached ();

  if (size > G_MAXUINT32)
    {
      writer->overflow = TRUE;
      return;
    }
  terrain_writer_put_u32 (writer, (guint32) size);
  terrain_writer_put_bytes (writer, data, size);
}

static GBytes *
terrain_node_chunk_save_to_bytes (TerrainDocument  *document,
                                  GError          **error)
{
  TerrainNodeChunk *self = TERRAIN_NODE_CHUNK (document);
  TerrainWriter writer;
  gsize end;

  terrain_writer_init (&writer, self->file_size > 0 ? self->file_size : 65536);
  terrain_writer_set_section (&writer, "TNLChunk");

  terrain_writer_put_u8 (&writer, self->marker);
  terrain_writer_put_u32 (&writer, 0);
  terrain_writer_put_u16 (&writer, self->magic);
  terrain_writer_put_u16 (&writer, self->tag);

  for (guint b = 0; b < N_FRAME_BLOCKS; b++)
    put_block (self, &writer, b);

  terrain_writer_put_u32 (&writer, self->bounds_bits[0]);
  terrain_writer_put_u32 (&writer, self->bounds_bits[1]);
  terrain_writer_put_bytes (&writer, self->mask, MASK_SIZE);

  if (self->n_blocks == N_BLOCKS_MAX)
    put_block (self, &writer, TERRAIN_NODE_BLOCK_SNOW);

  end = terrain_writer_tell (&writer);
  if (end - 5 > G_MAXUINT32)
    {
      writer.overflow = TRUE;
    }
  else
    {
      terrain_writer_patch_u32 (&writer, OFF_LENGTH, (guint32) (end - 5));
    }

  /* Bytes after the declared end of the source chunk. */
  if (self->source != NULL && self->file_size > self->end)
    {
      TerrainReader reader;
      const guint8 *extra;

      terrain_reader_init (&reader, self->source, "TNLChunk");
      if (terrain_reader_seek (&reader, self->end, NULL) &&
          terrain_reader_peek_bytes (&reader, self->file_size - self->end, &extra, NULL))
        terrain_writer_put_bytes (&writer, extra, self->file_size - self->end);
    }

  return terrain_writer_finish (&writer, error);
}

typedef struct
{
  GPtrArray *issues;
  guint counts[16];
} Findings;

/* Adds a finding of @kind unless MAX_ISSUES of that kind were listed. */
G_GNUC_PRINTF (7, 8)
static void
add_finding (Findings        *findings,
             guint            kind,
             TerrainSeverity  severity,
             const char      *section,
             gint64           offset,
             gint64           record,
             const char      *format,
             ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (findings->counts[kind]++ >= MAX_ISSUES)
    return;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_ptr_array_add (findings->issues,
                   terrain_issue_new (severity, section, offset, record, "%s", message));
}

enum
{
  FINDING_DECODE,
  FINDING_FLAGS,
  FINDING_MARKER,
  FINDING_RAW_LENGTH,
  FINDING_LOOKAHEAD,
  FINDING_BOUNDS,
  FINDING_MASK,
  FINDING_PALETTE,
  FINDING_CONSTANT,
  FINDING_TRAILING,
};

static gint64
block_offset (TerrainNodeChunk *self,
              guint             b)
{
  return self->blocks[b].in_source ? (gint64) self->blocks[b].prefix_offset + 4 : -1;
}

/* What validation needs of a raster block, gathered sample by sample as
 * it is decoded (terrain_node_scan_raster ()) or from the decoded raster. */
typedef struct
{
  guint8 used[MASK_SIZE];      /* values that occur anywhere ... */
  guint8 core[MASK_SIZE];      /* ... and in the core */
  guint8 expected;             /* the value every inspected node holds */
  guint differ;                /* samples that differ from it */
  guint first;                 /* the first of them in raster order */
  guint8 first_value;
} RasterStats;

static void
raster_stats_init (RasterStats *r,
                   guint8       expected)
{
  memset (r, 0, sizeof *r);
  r->expected = expected;
  r->first = G_MAXUINT;
}

/* A TerrainNodeSampleFunc. */
static void
raster_stats_add (guint     index,
                  guint8    value,
                  gpointer  user_data)
{
  RasterStats *r = user_data;
  guint8 bit = (guint8) (1u << (value % 8));

  r->used[value / 8] |= bit;
  if (in_core (index % S, index / S))
    r->core[value / 8] |= bit;
  if (value != r->expected)
    {
      r->differ++;
      if (index < r->first)
        {
          r->first = index;
          r->first_value = value;
        }
    }
}

static gboolean
has_value (const guint8 *set,
           guint         value)
{
  return (set[value / 8] >> (value % 8)) & 1;
}

static void
validate_coded_block (TerrainNodeChunk            *self,
                      Findings                    *findings,
                      guint                        b,
                      const TerrainCodedBlockInfo *info,
                      const RasterStats           *stats)
{
  guint64 raw_bytes = (info->raw_bits + 7) / 8;

  if (raw_bytes + TERRAIN_NODE_B_TAIL != info->b_size)
    add_finding (findings, FINDING_RAW_LENGTH, TERRAIN_SEVERITY_WARNING, block_sections[b],
                 block_offset (self, b) + info->a_end, b,
                 "stream B holds %" G_GSIZE_FORMAT " bytes; the decoder used %" G_GUINT64_FORMAT
                 " raw bits (%" G_GUINT64_FORMAT " bytes), so %" G_GINT64_FORMAT " bytes are "
                 "left over where %d are expected",
                 info->b_size, info->raw_bits, raw_bytes,
                 (gint64) info->b_size - (gint64) raw_bytes, TERRAIN_NODE_B_TAIL);

  if (info->cabac_overrun > 0)
    add_finding (findings, FINDING_LOOKAHEAD, TERRAIN_SEVERITY_INFO, block_sections[b],
                 block_offset (self, b) + (gint64) self->blocks[b].size, b,
                 "the arithmetic decoder's look-ahead ran %" G_GSIZE_FORMAT " bytes past the "
                 "end of the block", info->cabac_overrun);

  if (block_kind (b) == KIND_RASTER)
    {
      gboolean seen[256] = { FALSE };

      for (guint i = 0; i < info->palette_count; i++)
        {
          guint8 v = info->palette[i];

          if (seen[v])
            add_finding (findings, FINDING_PALETTE, TERRAIN_SEVERITY_WARNING, block_sections[b],
                         block_offset (self, b) + info->a_end + 4 + i, b,
                         "palette entry %u repeats value %u", i, v);
          else if (!has_value (stats->used, v))
            add_finding (findings, FINDING_PALETTE, TERRAIN_SEVERITY_INFO, block_sections[b],
                         block_offset (self, b) + info->a_end + 4 + i, b,
                         "palette entry %u (value %u) is never used", i, v);
          seen[v] = TRUE;
        }
    }
}

static void
validate_constant (TerrainNodeChunk  *self,
                   Findings          *findings,
                   guint              b,
                   const RasterStats *stats)
{
  guint first = stats->first;

  if (stats->differ > 0)
    add_finding (findings, FINDING_CONSTANT, TERRAIN_SEVERITY_INFO, block_sections[b],
                 block_offset (self, b), first,
                 "%u samples differ from 0x%02X, the value every inspected node holds "
                 "(first: sample %u, x=%u, y=%u, value 0x%02X)",
                 stats->differ, stats->expected, first, first % S, first / S,
                 stats->first_value);
}

/* A TerrainNodeRowFunc for blocks whose samples validation does not look
 * at. */
static void
ignore_row (guint         y,
            const gint64 *row,
            gpointer      user_data)
{
}

/* Decodes block @b for validation. A block already decoded (edited, or
 * asked for) is read from its raster; any other is decoded as a stream
 * into @heights or @stats, so that validating a chunk holds no decoded
 * raster: only 132 running sums, a few bitsets and, for a texture, one
 * tile on the stack. Returns whether the block decodes, with its coding
 * findings added. */
static gboolean
validate_block (TerrainNodeChunk  *self,
                Findings          *findings,
                guint              b,
                HeightRanges      *heights,
                RasterStats       *stats,
                GError           **error)
{
  NodeBlock *block = &self->blocks[b];
  TerrainCodedBlockInfo scanned;
  const TerrainCodedBlockInfo *info;
  TerrainReader content;
  gboolean ok;

  ranges_init (heights);
  raster_stats_init (stats, b == TERRAIN_NODE_BLOCK_GRASS_WEIGHT ? 0x60 : 0);

  if (block->decoded_valid)
    {
      if (block_kind (b) == KIND_HEIGHTS)
        sample_ranges (block->decoded, heights);
      else if (block_kind (b) == KIND_RASTER)
        for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
          raster_stats_add (i, ((const guint8 *) block->decoded)[i], stats);
      info = block->info;
    }
  else
    {
      g_assert (block->in_source);

      content = block_content (self, b);
      switch (block_kind (b))
        {
        case KIND_HEIGHTS:
          ok = terrain_node_scan_heights (&content,
                                          b == TERRAIN_NODE_BLOCK_HEIGHTS ? ranges_add_row
                                                                          : ignore_row,
                                          heights, &scanned, error);
          break;
        case KIND_TEXTURE:
          ok = terrain_node_check_texture (&content, texture_format (b), error);
          break;
        case KIND_RASTER:
        default:
          ok = terrain_node_scan_raster (&content, raster_stats_add, stats, &scanned, error);
          break;
        }
      if (!ok)
        return FALSE;
      info = &scanned;
    }

  /* Coding findings describe the block as read from the file. */
  if (block_kind (b) != KIND_TEXTURE && block->in_source && block->encoded == NULL &&
      (block->source_decoded || !block->decoded_valid))
    validate_coded_block (self, findings, b, info, stats);
  return TRUE;
}

static GPtrArray *
terrain_node_chunk_validate (TerrainDocument *document)
{
  TerrainNodeChunk *self = TERRAIN_NODE_CHUNK (document);
  Findings findings = { g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref) };
  gboolean decoded[N_BLOCKS_MAX] = { FALSE };
  HeightRanges ranges, heights;
  RasterStats stats, material, grass_weight, zero;

  if (self->marker != 1)
    add_finding (&findings, FINDING_MARKER, TERRAIN_SEVERITY_WARNING, "TNLChunk header",
                 OFF_MARKER, -1, "the first byte is %u; every inspected chunk starts with 1",
                 self->marker);
  if ((self->tag & TAG_FLAGS_MASK) != TAG_FLAGS)
    add_finding (&findings, FINDING_FLAGS, TERRAIN_SEVERITY_WARNING, "TNLChunk header", OFF_TAG,
                 -1, "tag 0x%04X has flags 0x%04X; every inspected chunk has 0x%04X",
                 self->tag, self->tag & TAG_FLAGS_MASK, TAG_FLAGS);

  for (guint b = 0; b < self->n_blocks; b++)
    {
      g_autoptr(GError) error = NULL;

      decoded[b] = validate_block (self, &findings, b, &ranges, &stats, &error);
      if (!decoded[b])
        {
          add_finding (&findings, FINDING_DECODE, TERRAIN_SEVERITY_ERROR, block_sections[b],
                       block_offset (self, b), b, "%s", error->message);
          continue;
        }
      if (b == TERRAIN_NODE_BLOCK_HEIGHTS)
        heights = ranges;
      else if (b == TERRAIN_NODE_BLOCK_MATERIAL)
        material = stats;
      else if (b == TERRAIN_NODE_BLOCK_GRASS_WEIGHT)
        grass_weight = stats;
      else if (b == TERRAIN_NODE_BLOCK_ZERO)
        zero = stats;
    }

  if (decoded[TERRAIN_NODE_BLOCK_HEIGHTS])
    {
      float bounds[2];

      current_bounds (self, bounds);
      if (self->level >= 0)
        {
          double scale = terrain_node_height_scale ((guint) self->level);

          if (!bounds_match (bounds, &heights, scale))
            add_finding (&findings, FINDING_BOUNDS, TERRAIN_SEVERITY_WARNING,
                         "TNLChunk height bounds", (gint64) self->bounds_offset, -1,
                         "stored bounds %g..%g m disagree with the decoded heights at level %d "
                         "(%g..%g m over all samples, %g..%g m over the core)",
                         bounds[0], bounds[1], self->level, heights.full_min * scale,
                         heights.full_max * scale, heights.core_min * scale,
                         heights.core_max * scale);
        }
      else
        {
          g_autoptr(GError) error = NULL;
          gint level = guess_level_from_ranges (self, &heights, &error);

          if (level < 0)
            add_finding (&findings, FINDING_BOUNDS, TERRAIN_SEVERITY_WARNING,
                         "TNLChunk height bounds", (gint64) self->bounds_offset, -1,
                         "%s", error->message);
          else
            add_finding (&findings, FINDING_BOUNDS, TERRAIN_SEVERITY_INFO,
                         "TNLChunk height bounds", (gint64) self->bounds_offset, -1,
                         "the level is unknown; the stored bounds fit level %d", level);
        }
    }

  if (decoded[TERRAIN_NODE_BLOCK_MATERIAL])
    {
      /* The mask must name every material of the core and none absent from
       * the raster. */
      for (guint m = 0; m < 256; m++)
        {
          gboolean in_mask = has_value (self->mask, m);

          if (in_mask && !has_value (material.used, m))
            add_finding (&findings, FINDING_MASK, TERRAIN_SEVERITY_WARNING,
                         "TNLChunk material mask", (gint64) (self->mask_offset + m / 8), m,
                         "material %u is in the mask but not in the material raster", m);
          else if (!in_mask && has_value (material.core, m))
            add_finding (&findings, FINDING_MASK, TERRAIN_SEVERITY_WARNING,
                         "TNLChunk material mask", (gint64) (self->mask_offset + m / 8), m,
                         "material %u occurs in the material raster but not in the mask", m);
        }
    }

  if (decoded[TERRAIN_NODE_BLOCK_GRASS_WEIGHT])
    validate_constant (self, &findings, TERRAIN_NODE_BLOCK_GRASS_WEIGHT, &grass_weight);
  if (decoded[TERRAIN_NODE_BLOCK_ZERO])
    validate_constant (self, &findings, TERRAIN_NODE_BLOCK_ZERO, &zero);

  if (self->source != NULL && self->file_size > self->end)
    add_finding (&findings, FINDING_TRAILING, TERRAIN_SEVERITY_INFO, "TNLChunk",
                 (gint64) self->end, -1,
                 "%" G_GSIZE_FORMAT " bytes follow the chunk's declared end (kept as they are)",
                 self->file_size - self->end);

  for (guint kind = 0; kind < G_N_ELEMENTS (findings.counts); kind++)
    if (findings.counts[kind] > MAX_ISSUES)
      g_ptr_array_add (findings.issues,
                       terrain_issue_new (TERRAIN_SEVERITY_INFO, "TNLChunk", -1, -1,
                                          "%u more findings of this kind (%u in all; only the "
                                          "first %d are listed)",
                                          findings.counts[kind] - MAX_ISSUES,
                                          findings.counts[kind], MAX_ISSUES));

  return findings.issues;
}

/* JSON has no NaN or infinity: corrupt floats describe as null. */
static void
add_float (JsonBuilder *builder,
           double       value)
{
  if (isfinite (value))
    json_builder_add_double_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static JsonNode *
terrain_node_chunk_describe (TerrainDocument *document)
{
  TerrainNodeChunk *self = TERRAIN_NODE_CHUNK (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  float bounds[2];

  current_bounds (self, bounds);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, terrain_format_get_name (TERRAIN_FORMAT_NODE_CHUNK));
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, (gint64) self->file_size);
  json_builder_set_member_name (builder, "body_length");
  json_builder_add_int_value (builder, self->body_length);
  json_builder_set_member_name (builder, "tag");
  json_builder_add_int_value (builder, self->tag);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, self->tag & TAG_VERSION_MASK);
  json_builder_set_member_name (builder, "flags");
  json_builder_add_int_value (builder, self->tag & TAG_FLAGS_MASK);
  json_builder_set_member_name (builder, "leaf");
  json_builder_add_boolean_value (builder, (self->tag & TERRAIN_NODE_CHUNK_LEAF) != 0);
  json_builder_set_member_name (builder, "level");
  if (self->level >= 0)
    json_builder_add_int_value (builder, self->level);
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "height_bounds");
  json_builder_begin_array (builder);
  add_float (builder, bounds[0]);
  add_float (builder, bounds[1]);
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "materials");
  json_builder_begin_array (builder);
  for (guint m = 0; m < 256; m++)
    if ((self->mask[m / 8] >> (m % 8)) & 1)
      json_builder_add_int_value (builder, m);
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "blocks");
  json_builder_begin_array (builder);
  for (guint b = 0; b < self->n_blocks; b++)
    {
      NodeBlock *block = &self->blocks[b];
      TerrainReader content = block->view;
      guint32 n;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "index");
      json_builder_add_int_value (builder, b == TERRAIN_NODE_BLOCK_SNOW ? 10 : b);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, block_ids[b]);
      if (block->in_source)
        {
          json_builder_set_member_name (builder, "offset");
          json_builder_add_int_value (builder, (gint64) block->prefix_offset + 4);
          json_builder_set_member_name (builder, "size");
          json_builder_add_int_value (builder, (gint64) block->size);
          if (block_kind (b) != KIND_TEXTURE && terrain_reader_read_u32 (&content, &n, NULL) &&
              n >= 4 && n <= block->size)
            {
              json_builder_set_member_name (builder, "stream_a");
              json_builder_add_int_value (builder, n - 4);
              json_builder_set_member_name (builder, "stream_b");
              json_builder_add_int_value (builder, (gint64) (block->size - n));
            }
        }
      json_builder_set_member_name (builder, "coding");
      json_builder_add_string_value (builder,
                                     block_kind (b) == KIND_TEXTURE
                                       ? (b == TERRAIN_NODE_BLOCK_COLOUR ? "lz4-planar-bc1"
                                                                         : "lz4-planar-bc4")
                                       : block_kind (b) == KIND_HEIGHTS ? "cabac-heights"
                                                                        : "cabac-raster");
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static char *
terrain_node_chunk_describe_offset (TerrainDocument *document,
                                    gsize            offset)
{
  TerrainNodeChunk *self = TERRAIN_NODE_CHUNK (document);

  if (offset >= self->file_size)
    return g_strdup ("end of file");
  if (offset < HEADER_SIZE)
    {
      static const char * const fields[HEADER_SIZE] = {
        "first byte", "body length", "body length", "body length", "body length",
        "magic", "magic", "tag", "tag",
      };
      return g_strdup_printf ("TNLChunk header, %s", fields[offset]);
    }
  if (offset >= self->end)
    return g_strdup ("bytes after the chunk's declared end");
  if (offset >= self->bounds_offset && offset < self->bounds_offset + BOUNDS_SIZE)
    return g_strdup_printf ("height bounds, %s", offset < self->bounds_offset + 4 ? "min" : "max");
  if (offset >= self->mask_offset && offset < self->mask_offset + MASK_SIZE)
    return g_strdup_printf ("material mask, byte %" G_GSIZE_FORMAT " (materials %" G_GSIZE_FORMAT
                            "..%" G_GSIZE_FORMAT ")",
                            offset - self->mask_offset, 8 * (offset - self->mask_offset),
                            8 * (offset - self->mask_offset) + 7);

  for (guint b = 0; b < self->n_blocks; b++)
    {
      NodeBlock *block = &self->blocks[b];
      gsize start = block->prefix_offset + 4, rel;
      TerrainReader content = block->view;
      guint32 n;

      if (offset >= block->prefix_offset && offset < start)
        return g_strdup_printf ("%s, length", block_sections[b]);
      if (offset < start || offset - start >= block->size)
        continue;

      rel = offset - start;
      if (block_kind (b) == KIND_TEXTURE)
        return g_strdup_printf ("%s, LZ4 data byte %" G_GSIZE_FORMAT, block_sections[b], rel);
      if (rel < 4)
        return g_strdup_printf ("%s, stream B offset", block_sections[b]);
      if (!terrain_reader_read_u32 (&content, &n, NULL) || n < 4 || n > block->size)
        return g_strdup_printf ("%s, byte %" G_GSIZE_FORMAT, block_sections[b], rel);
      if (rel < n)
        return g_strdup_printf ("%s, stream A (CABAC) byte %" G_GSIZE_FORMAT,
                                block_sections[b], rel - 4);
      return g_strdup_printf ("%s, stream B (raw bits) byte %" G_GSIZE_FORMAT "%s",
                              block_sections[b], rel - n,
                              block->size - rel <= TERRAIN_NODE_B_TAIL ? ", unconsumed tail" : "");
    }

  return NULL;
}

static TerrainImage *
terrain_node_chunk_render_image (TerrainDocument  *document,
                                 TerrainPalette   *palette,
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

  document_class->save_to_bytes = terrain_node_chunk_save_to_bytes;
  document_class->validate = terrain_node_chunk_validate;
  document_class->describe = terrain_node_chunk_describe;
  document_class->render_image = terrain_node_chunk_render_image;
  document_class->export_heights = terrain_node_chunk_document_export_heights;
  document_class->describe_offset = terrain_node_chunk_describe_offset;

  /**
   * TerrainNodeChunk::block-changed:
   * @self: the chunk
   * @block: the #TerrainNodeBlock that changed
   *
   * Emitted after a block's decoded contents were replaced.
   */
  signals[BLOCK_CHANGED] =
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
