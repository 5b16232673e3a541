/* terrain-node-chunk-write.c: writing TNLChunk bodies
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
  switch (node_chunk_block_kind (b))
    {
    case KIND_HEIGHTS:
      /* The values were range-checked when they were set. */
      block->encoded = terrain_node_encode_heights (block->decoded, tail_data, tail_size, NULL);
      g_assert (block->encoded != NULL);
      break;
    case KIND_TEXTURE:
      block->encoded = terrain_node_encode_texture (node_chunk_texture_format (b), block->decoded);
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

  content = node_chunk_block_content (self, b);
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

GBytes *
node_chunk_save_to_bytes (TerrainDocument  *document,
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
