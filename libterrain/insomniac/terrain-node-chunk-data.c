/* terrain-node-chunk-data.c: TNLChunk heights, rasters and textures
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
    block->decoded = g_malloc (node_chunk_decoded_size (b));
  if (block->info == NULL && node_chunk_block_kind (b) != KIND_TEXTURE)
    block->info = g_new0 (TerrainCodedBlockInfo, 1);

  content = node_chunk_block_content (self, b);
  switch (node_chunk_block_kind (b))
    {
    case KIND_HEIGHTS:
      ok = terrain_node_decode_heights (&content, block->decoded, block->info, error);
      break;
    case KIND_TEXTURE:
      ok = terrain_node_decode_texture (&content, node_chunk_texture_format (b), block->decoded, error);
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

void
node_chunk_ranges_init (HeightRanges *r)
{
  r->full_min = r->core_min = G_MAXINT64;
  r->full_max = r->core_max = G_MININT64;
}

gboolean
node_chunk_in_core (guint x,
                    guint y)
{
  return x >= TERRAIN_NODE_SAMPLE_ORIGIN && y >= TERRAIN_NODE_SAMPLE_ORIGIN &&
         x < TERRAIN_NODE_SAMPLE_ORIGIN + TERRAIN_NODE_CORE_SIDE &&
         y < TERRAIN_NODE_SAMPLE_ORIGIN + TERRAIN_NODE_CORE_SIDE;
}

/* A TerrainNodeRowFunc. */
void
node_chunk_ranges_add_row (guint         y,
                           const gint64 *row,
                           gpointer      user_data)
{
  HeightRanges *r = user_data;

  for (guint x = 0; x < S; x++)
    {
      gint64 v = row[x];

      r->full_min = MIN (r->full_min, v);
      r->full_max = MAX (r->full_max, v);
      if (node_chunk_in_core (x, y))
        {
          r->core_min = MIN (r->core_min, v);
          r->core_max = MAX (r->core_max, v);
        }
    }
}

void
node_chunk_sample_ranges (const gint32 *values,
                          HeightRanges *r)
{
  gint64 row[S];

  node_chunk_ranges_init (r);
  for (guint y = 0; y < S; y++)
    {
      for (guint x = 0; x < S; x++)
        row[x] = values[y * S + x];
      node_chunk_ranges_add_row (y, row, r);
    }
}

/* Whether stored bounds fit decoded heights at @scale: the stored range must
 * cover the core's heights and lie within all samples' heights, give or
 * take one height unit and float rounding (the spec does not say which of
 * the two ranges the bounds describe; our encoder stores the full one). */
gboolean
node_chunk_bounds_match (const float         bounds[2],
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
void
node_chunk_current_bounds (TerrainNodeChunk *self,
                           float             bounds[2])
{
  bounds[0] = node_chunk_bits_to_float (self->bounds_bits[0]);
  bounds[1] = node_chunk_bits_to_float (self->bounds_bits[1]);
}

/* The lowest level at which the heights' ranges fit the stored bounds. */
gint
node_chunk_guess_level_from_ranges (TerrainNodeChunk    *self,
                                    const HeightRanges  *r,
                                    GError             **error)
{
  float bounds[2];

  node_chunk_current_bounds (self, bounds);
  for (guint level = 0; level < N_LEVELS; level++)
    if (node_chunk_bounds_match (bounds, r, terrain_node_height_scale (level)))
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

  node_chunk_sample_ranges (heights, &ranges);
  return node_chunk_guess_level_from_ranges (self, &ranges, error);
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
            block->decoded = g_malloc0 (node_chunk_decoded_size (b));
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
  g_signal_emit (self, node_chunk_signals[BLOCK_CHANGED], 0, b);
}

static void
update_bounds (TerrainNodeChunk *self)
{
  const gint32 *heights = self->blocks[TERRAIN_NODE_BLOCK_HEIGHTS].decoded;
  HeightRanges r;
  double scale = terrain_node_height_scale ((guint) self->level);

  node_chunk_sample_ranges (heights, &r);
  self->bounds_bits[0] = node_chunk_float_to_bits ((float) (r.full_min * scale));
  self->bounds_bits[1] = node_chunk_float_to_bits ((float) (r.full_max * scale));
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
  memcpy (block->decoded, heights, node_chunk_decoded_size (TERRAIN_NODE_BLOCK_HEIGHTS));
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
                   "TNLChunk: an internal chunk has no %s block", node_chunk_block_ids[block]);
      return FALSE;
    }
  g_return_val_if_fail (node_chunk_block_kind (block) == kind, FALSE);
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
  g_return_val_if_fail (node_chunk_block_kind (block) == KIND_RASTER, NULL);

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
  g_return_val_if_fail (node_chunk_block_kind (block) == KIND_RASTER, FALSE);
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
          node_chunk_decoded_size (TERRAIN_NODE_BLOCK_SNOW));
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
  g_return_val_if_fail (node_chunk_block_kind (block) == KIND_TEXTURE, NULL);

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
  g_return_val_if_fail (node_chunk_block_kind (block) == KIND_TEXTURE, FALSE);
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
  g_return_val_if_fail (node_chunk_block_kind (block) == KIND_TEXTURE, NULL);

  blocks = terrain_node_chunk_get_texture_blocks (self, block, error);
  if (blocks == NULL)
    return NULL;

  return terrain_bc_decode_image (node_chunk_texture_format (block), blocks, TERRAIN_NODE_TEXTURE_BYTES,
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
  g_return_val_if_fail (node_chunk_block_kind (block) == KIND_TEXTURE, FALSE);
  g_return_val_if_fail (image != NULL, FALSE);

  if (terrain_image_get_width (image) != S || terrain_image_get_height (image) != S)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNLChunk %s: the image is %ux%u; textures are %ux%u",
                   node_chunk_block_ids[block], terrain_image_get_width (image),
                   terrain_image_get_height (image), S, S);
      return FALSE;
    }

  blocks = terrain_bc_encode_image (node_chunk_texture_format (block), image, error);
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

  node_chunk_sample_ranges (heights, &r);
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
