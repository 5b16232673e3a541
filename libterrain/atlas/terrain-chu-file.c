/* terrain-chu-file.c: chunked-LOD geometry trees (.chu): the reader, the
 * accessors and the in-place writer of TerrainChuFile. Its validation is in
 * terrain-chu-file-check.c, its description and pictures in
 * terrain-chu-file-render.c; the three share the instance struct and the
 * layout constants of terrain-chu-file-impl-private.h. The CHU importer is
 * terrain-chu-import.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "terrain-chu-file.h"
#include "terrain-quadtree.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue-private.h"
#include "core/terrain-issue.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-relief-private.h"
#include "core/terrain-writer-private.h"
#include "terrain-chu-file-impl-private.h"

G_DEFINE_FINAL_TYPE (TerrainChuFile, terrain_chu_file, TERRAIN_TYPE_DOCUMENT)

G_DEFINE_BOXED_TYPE (TerrainChuChunk, terrain_chu_chunk, terrain_chu_chunk_copy,
                     terrain_chu_chunk_free)

gfloat
chu_bits_to_float (guint32 bits)
{
  gfloat value;

  memcpy (&value, &bits, sizeof value);
  return value;
}

const char *
chu_variant_name (TerrainChuVariant variant)
{
  return variant == TERRAIN_CHU_VARIANT_CHU3 ? "CHU3" : "CHU";
}

/* Where a header field of the 16-bit layout (OFF_*) lies in this file:
 * with U32 words the depth moves by 2, the fields after it by 4. */
guint
chu_header_offset (TerrainChuFile *self,
               guint           offset)
{
  if (self->words == TERRAIN_CHU_WORDS_U16 || offset <= OFF_VERSION)
    return offset;
  return offset == OFF_TREE_DEPTH ? offset + 2 : offset + 4;
}

/* Checks that [pos, pos + len) lies inside the file; on failure names the
 * part and the stub whose chunk it belongs to. The message is only built on
 * failure, since this runs for every part of every chunk. */
static gboolean
need (const TerrainReader  *reader,
      guint64               pos,
      guint64               len,
      guint                 stub,
      gint32                label,
      const char           *part,
      GError              **error)
{
  g_autofree char *what = NULL;
  guint64 size = terrain_reader_get_size (reader);

  if (pos <= size && len <= size - pos)
    return TRUE;

  what = g_strdup_printf ("%s of the chunk of stub %u (label %d)", part, stub, label);
  return terrain_reader_check_span (reader, pos, len, what, error);
}

static gboolean
bad_sentinel (guint32      found,
              guint32      expected,
              const char  *what,
              gsize        offset,
              guint        stub,
              gint32       label,
              GError     **error)
{
  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
               "CHU chunk: %s at byte offset %" G_GSIZE_FORMAT " (stub %u, label %d) is "
               "0x%08X, expected 0x%08X",
               what, offset, stub, label, found, expected);
  return FALSE;
}

/* Walks the structure of one chunk (§9b "CHU chunk", or Ulrich's vertex_info)
 * without decoding its arrays: every count is read, every span checked
 * against the file and every sentinel compared. */
static gboolean
parse_chunk (TerrainChuFile  *self,
             TerrainReader   *reader,
             guint            k,
             GError         **error)
{
  ChuStub *stub = &self->stubs[k];
  ChunkLayout *layout = &stub->layout;
  gint32 label = stub->pub.label;
  guint64 base = stub->pub.chunk_offset;
  guint64 pos = base, len;
  guint32 value;
  guint16 n_vertices;
  gint32 n_indices;
  guint8 flag = 0;

  if (self->variant == TERRAIN_CHU_VARIANT_CHU3)
    {
      if (!need (reader, pos, 4, k, label, "sentinel", error))
        return FALSE;
      (void) terrain_reader_seek (reader, (gsize) pos, NULL);
      (void) terrain_reader_read_u32 (reader, &value, NULL);
      if (value != CHUNK_SENTINEL)
        return bad_sentinel (value, CHUNK_SENTINEL, "chunk sentinel", (gsize) pos, k, label,
                             error);
      pos += 4;
    }

  if (!need (reader, pos, 2, k, label, "vertex count", error))
    return FALSE;
  (void) terrain_reader_seek (reader, (gsize) pos, NULL);
  (void) terrain_reader_read_u16 (reader, &n_vertices, NULL);
  pos += 2;
  len = (guint64) n_vertices * VERTEX_BYTES;
  if (!need (reader, pos, len, k, label, "vertex array", error))
    return FALSE;
  pos += len;

  layout->indices_at = (gsize) (pos - base);
  if (!need (reader, pos, 4, k, label, "index count", error))
    return FALSE;
  (void) terrain_reader_seek (reader, (gsize) pos, NULL);
  (void) terrain_reader_read_i32 (reader, &n_indices, NULL);
  if (n_indices < 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "CHU chunk: index count at byte offset %" G_GUINT64_FORMAT
                   " (stub %u, label %d) is %d; it must not be negative",
                   pos, k, label, n_indices);
      return FALSE;
    }
  pos += 4;
  len = (guint64) n_indices * 2;
  if (!need (reader, pos, len, k, label, "index array", error) ||
      !terrain_limits_check_alloc (&self->limits, (guint64) n_indices, 2, "index array",
                                   "CHU chunk", (goffset) (pos - 4), error))
    return FALSE;
  pos += len;

  layout->tri_count_at = (gsize) (pos - base);
  if (!need (reader, pos, 4, k, label, "triangle count", error))
    return FALSE;
  pos += 4;

  if (self->variant == TERRAIN_CHU_VARIANT_CHU3)
    {
      if (!need (reader, pos, 1, k, label, "collision flag", error))
        return FALSE;
      (void) terrain_reader_seek (reader, (gsize) pos, NULL);
      (void) terrain_reader_read_u8 (reader, &flag, NULL);
      if (flag > 1)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "CHU chunk: collision flag at byte offset %" G_GUINT64_FORMAT
                       " (stub %u, label %d) is %u; it must be 0 or 1",
                       pos, k, label, flag);
          return FALSE;
        }
      pos += 1;

      if (flag == 1)
        {
          guint32 n_col_indices;

          if (self->col_tree_depth == 0 || self->col_tree_depth > TERRAIN_QUADTREE_MAX_DEPTH)
            {
              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                           "CHU chunk: collision flag at byte offset %" G_GUINT64_FORMAT
                           " (stub %u, label %d) is set, but the header's collision-tree "
                           "depth %u (byte offset %d) %s",
                           pos - 1, k, label, self->col_tree_depth, chu_header_offset (self, OFF_COL_TREE_DEPTH),
                           self->col_tree_depth == 0 ? "leaves the collision grid undefined"
                                                     : "is deeper than any file can hold");
              return FALSE;
            }

          layout->collision_at = (gsize) (pos - base);
          len = self->n_col_nodes * 4;
          if (!need (reader, pos, len, k, label, "collision tree", error) ||
              !terrain_limits_check_alloc (&self->limits, self->n_col_nodes,
                                           sizeof (TerrainChuColNode), "collision tree",
                                           "CHU chunk", (goffset) pos, error))
            return FALSE;
          pos += len;

          layout->mark_at = (gsize) (pos - base);
          if (!need (reader, pos, 4, k, label, "collision mark", error))
            return FALSE;
          (void) terrain_reader_seek (reader, (gsize) pos, NULL);
          (void) terrain_reader_read_u32 (reader, &value, NULL);
          if (value != COLLISION_MARK)
            return bad_sentinel (value, COLLISION_MARK, "collision mark", (gsize) pos, k,
                                 label, error);
          pos += 4;

          layout->col_offsets_at = (gsize) (pos - base);
          len = self->n_col_offsets * 2;
          if (!need (reader, pos, len, k, label, "collision-grid offsets", error) ||
              !terrain_limits_check_alloc (&self->limits, self->n_col_offsets, 2,
                                           "collision-grid offsets", "CHU chunk",
                                           (goffset) pos, error))
            return FALSE;
          pos += len;

          layout->buffer_size_at = (gsize) (pos - base);
          if (!need (reader, pos, 4, k, label, "collision buffer size", error))
            return FALSE;
          (void) terrain_reader_seek (reader, (gsize) pos, NULL);
          (void) terrain_reader_read_u32 (reader, &n_col_indices, NULL);
          pos += 4;
          len = (guint64) n_col_indices * 2;
          if (!need (reader, pos, len, k, label, "collision buffer", error) ||
              !terrain_limits_check_alloc (&self->limits, n_col_indices, 2, "collision buffer",
                                           "CHU chunk", (goffset) (pos - 4), error))
            return FALSE;
          pos += len;
          layout->n_col_indices = n_col_indices;
        }

      layout->footer_at = (gsize) (pos - base);
      if (!need (reader, pos, 4, k, label, "footer", error))
        return FALSE;
      (void) terrain_reader_seek (reader, (gsize) pos, NULL);
      (void) terrain_reader_read_u32 (reader, &value, NULL);
      if (value != CHUNK_FOOTER)
        return bad_sentinel (value, CHUNK_FOOTER, "chunk footer", (gsize) pos, k, label, error);
      pos += 4;
    }

  layout->n_vertices = n_vertices;
  layout->n_indices = (guint32) n_indices;
  layout->col_flag = flag;
  stub->pub.chunk_size = (gsize) (pos - base);

  return TRUE;
}

/* Ulrich's reader recurses depth-first from the root, four children per
 * node down to the deepest level: the file position of a chunk header fixes
 * its level and parent. */
static void
assign_preorder (ChuStub *stubs,
                 guint   *next,
                 guint    level,
                 gint     parent,
                 guint    depth,
                 guint   *levels)
{
  guint self_index = (*next)++;

  stubs[self_index].parent = parent;
  levels[self_index] = level;
  if (level + 1 < depth)
    for (guint i = 0; i < 4; i++)
      assign_preorder (stubs, next, level + 1, (gint) self_index, depth, levels);
}

static gboolean
parse_stubs (TerrainChuFile  *self,
             TerrainReader   *reader,
             GError         **error)
{
  g_autofree guint *levels = NULL;
  guint64 table_end;
  gsize size = terrain_reader_get_size (reader);

  table_end = self->header_size + (guint64) self->chunk_count * self->stub_size;
  if (table_end > size)
    {
      guint64 first = (size - self->header_size) / self->stub_size;

      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "%s stubs: stub %" G_GUINT64_FORMAT " of %u at byte offset %" G_GUINT64_FORMAT
                   " is truncated: the stub table needs %" G_GUINT64_FORMAT " bytes, the file "
                   "has %" G_GSIZE_FORMAT,
                   chu_variant_name (self->variant), first, self->chunk_count,
                   self->header_size + first * self->stub_size, table_end, size);
      return FALSE;
    }

  self->stubs = g_new0 (ChuStub, self->chunk_count);
  self->label_to_stub = g_new (gint, self->chunk_count);
  self->node_to_stub = g_new (gint, self->chunk_count);
  for (guint32 i = 0; i < self->chunk_count; i++)
    self->label_to_stub[i] = self->node_to_stub[i] = -1;

  if (self->variant == TERRAIN_CHU_VARIANT_ULRICH)
    {
      guint next = 0;

      levels = g_new (guint, self->chunk_count);
      assign_preorder (self->stubs, &next, 0, -1, self->tree_depth, levels);
      g_assert (next == self->chunk_count);
    }

  (void) terrain_reader_seek (reader, self->header_size, NULL);
  for (guint k = 0; k < self->chunk_count; k++)
    {
      ChuStub *stub = &self->stubs[k];
      TerrainChuStub *pub = &stub->pub;
      gsize at = terrain_reader_tell (reader);
      guint8 level;
      guint16 u;

      pub->record_offset = at;
      if (self->variant == TERRAIN_CHU_VARIANT_CHU3)
        {
          guint32 sentinel;

          (void) terrain_reader_read_u32 (reader, &sentinel, NULL);
          if (sentinel != STUB_SENTINEL)
            {
              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                           "CHU3 stubs: sentinel of stub %u at byte offset %" G_GSIZE_FORMAT
                           " is 0x%08X, expected 0x%08X",
                           k, at, sentinel, STUB_SENTINEL);
              return FALSE;
            }
        }

      (void) terrain_reader_read_i32 (reader, &pub->label, NULL);
      for (guint i = 0; i < 4; i++)
        (void) terrain_reader_read_i32 (reader, &pub->neighbors[i], NULL);
      (void) terrain_reader_read_u8 (reader, &level, NULL);
      pub->level = level;
      if (self->words == TERRAIN_CHU_WORDS_U32)
        {
          gint32 wide[2];

          (void) terrain_reader_read_i32 (reader, &wide[0], NULL);
          (void) terrain_reader_read_i32 (reader, &wide[1], NULL);
          /* The level check below bounds them further. */
          for (guint i = 0; i < 2; i++)
            if (wide[i] < 0 || wide[i] > G_MAXINT16)
              {
                g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                             "CHU stubs: chunk header %u at byte offset %" G_GSIZE_FORMAT
                             " has %s %d, outside any tree", k, at + 21 + 4 * i,
                             i == 0 ? "x" : "z", wide[i]);
                return FALSE;
              }
          pub->x = (gint16) wide[0];
          pub->y = (gint16) wide[1];
        }
      else
        {
          (void) terrain_reader_read_u16 (reader, &u, NULL);
          pub->x = (gint16) u;
          (void) terrain_reader_read_u16 (reader, &u, NULL);
          pub->y = (gint16) u;
        }
      (void) terrain_reader_read_u16 (reader, &u, NULL);
      pub->min_z = (gint16) u;
      (void) terrain_reader_read_u16 (reader, &u, NULL);
      pub->max_z = (gint16) u;
      (void) terrain_reader_read_u32 (reader, &pub->chunk_offset, NULL);

      /* §9e: labels must be unique and cover the declared tree. The count
       * equals nodeCount(treeDepth), so unique labels below it cover it. */
      if (pub->label < 0 || (guint32) pub->label >= self->chunk_count)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                       "%s stubs: label %d of stub %u at byte offset %" G_GSIZE_FORMAT
                       " lies outside the tree (labels run from 0 to %u)",
                       chu_variant_name (self->variant), pub->label, k,
                       at + (self->variant == TERRAIN_CHU_VARIANT_CHU3 ? 4 : 0),
                       self->chunk_count - 1);
          return FALSE;
        }
      if (self->label_to_stub[pub->label] >= 0)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "%s stubs: label %d of stub %u at byte offset %" G_GSIZE_FORMAT
                       " repeats the label of stub %d; labels must be unique",
                       chu_variant_name (self->variant), pub->label, k,
                       at + (self->variant == TERRAIN_CHU_VARIANT_CHU3 ? 4 : 0),
                       self->label_to_stub[pub->label]);
          return FALSE;
        }
      self->label_to_stub[pub->label] = (gint) k;

      if (self->variant == TERRAIN_CHU_VARIANT_ULRICH)
        {
          guint64 side = G_GUINT64_CONSTANT (1) << levels[k];
          guint64 node;

          /* Ulrich's files carry no label scheme: the chunk header's
           * level and (x, z) are what place a chunk, so they must fit the
           * depth-first position and name each node once. */
          if (level != levels[k])
            {
              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                           "CHU stubs: chunk header %u at byte offset %" G_GSIZE_FORMAT
                           " says level %u, but its depth-first position is on level %u",
                           k, at + 20, level, levels[k]);
              return FALSE;
            }
          if (pub->x < 0 || pub->y < 0 || (guint64) pub->x >= side || (guint64) pub->y >= side)
            {
              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                           "CHU stubs: chunk header %u at byte offset %" G_GSIZE_FORMAT
                           " places level %u node at (%d, %d), outside 0..%" G_GUINT64_FORMAT,
                           k, at + 21, level, pub->x, pub->y, side - 1);
              return FALSE;
            }
          node = terrain_quadtree_node_id (level, (guint32) pub->x, (guint32) pub->y);
          if (self->node_to_stub[node] >= 0)
            {
              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                           "CHU stubs: chunk header %u at byte offset %" G_GSIZE_FORMAT
                           " repeats node (level %u, x %d, y %d) of chunk header %d",
                           k, at + 21, level, pub->x, pub->y, self->node_to_stub[node]);
              return FALSE;
            }
          self->node_to_stub[node] = (gint) k;
        }
      else
        {
          stub->parent = -1;
        }
    }

  if (self->variant == TERRAIN_CHU_VARIANT_CHU3)
    {
      /* §9b: Atlas node (level, x, y) uses CHU label nodeID(level, y, x). */
      for (guint64 node = 0; node < self->chunk_count; node++)
        {
          guint level;
          guint32 x, y;

          terrain_quadtree_node_position (node, &level, &x, &y);
          self->node_to_stub[node] = self->label_to_stub[terrain_quadtree_node_id (level, y, x)];
        }
      for (guint k = 0; k < self->chunk_count; k++)
        {
          guint level;
          guint32 a, b;

          terrain_quadtree_node_position ((guint64) self->stubs[k].pub.label, &level, &a, &b);
          if (level > 0)
            self->stubs[k].parent =
              self->label_to_stub[terrain_quadtree_node_id (level - 1, a >> 1, b >> 1)];
        }
    }

  return TRUE;
}

static gboolean
terrain_chu_file_parse (TerrainDocument      *document,
                        GBytes               *bytes,
                        const TerrainLimits  *limits,
                        GError              **error)
{
  TerrainChuFile *self = TERRAIN_CHU_FILE (document);
  TerrainReader reader;
  guint64 expected;
  guint16 depth_word;

  self->source = g_bytes_ref (bytes);
  self->limits = *(limits != NULL ? limits : terrain_limits_get_default ());

  terrain_reader_init (&reader, bytes, "CHU header");
  self->file_size = terrain_reader_get_size (&reader);

  if (!terrain_reader_check_span (&reader, 0, 8, "magic, version and tree depth", error))
    return FALSE;
  (void) terrain_reader_copy_bytes (&reader, 4, self->magic, NULL);
  if (memcmp (self->magic, "CHU3", 4) == 0)
    {
      self->variant = TERRAIN_CHU_VARIANT_CHU3;
      self->header_size = CHU3_HEADER_SIZE;
      self->stub_size = CHU3_STUB_SIZE;
    }
  else if (memcmp (self->magic, "CHU\0", 4) == 0)
    {
      self->variant = TERRAIN_CHU_VARIANT_ULRICH;
      self->header_size = ULRICH_HEADER_SIZE;
      self->stub_size = ULRICH_STUB_SIZE;
    }
  else
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                   "CHU header: magic at byte offset 0 is %02X %02X %02X %02X, expected "
                   "\"CHU3\" (TGEA) or \"CHU\\0\" (Ulrich)",
                   self->magic[0], self->magic[1], self->magic[2], self->magic[3]);
      return FALSE;
    }

  (void) terrain_reader_read_u16 (&reader, &self->version, NULL);
  if (self->variant == TERRAIN_CHU_VARIANT_CHU3 && self->version != TERRAIN_CHU_VERSION)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNSUPPORTED_VERSION,
                   "CHU3 header: version %d at byte offset %d is not supported (CHU3 files "
                   "are version %d)",
                   (gint16) self->version, OFF_VERSION, TERRAIN_CHU_VERSION);
      return FALSE;
    }
  if (self->variant == TERRAIN_CHU_VARIANT_ULRICH && self->version != TERRAIN_CHU_VERSION_ULRICH)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNSUPPORTED_VERSION,
                   "CHU header: version %u at byte offset %d is not supported (only "
                   "version %d, with chunk data after the chunk headers, is read)",
                   self->version, OFF_VERSION, TERRAIN_CHU_VERSION_ULRICH);
      return FALSE;
    }

  /* U32 words: a U16 version 9 then a U16 0 (no tree has depth 0), and a
   * U32 depth the tree can have after them (TerrainChuWords). */
  if (self->variant == TERRAIN_CHU_VARIANT_ULRICH && terrain_reader_remaining (&reader) >= 6)
    {
      const guint8 *words;

      (void) terrain_reader_peek_bytes (&reader, 6, &words, NULL);
      if (terrain_get_le16 (words) == 0 && terrain_get_le32 (words + 2) >= 1 &&
          terrain_get_le32 (words + 2) <= TERRAIN_QUADTREE_MAX_DEPTH)
        {
          self->words = TERRAIN_CHU_WORDS_U32;
          self->header_size = ULRICH_WIDE_HEADER_SIZE;
          self->stub_size = ULRICH_WIDE_STUB_SIZE;
          (void) terrain_reader_skip (&reader, 2, NULL);
        }
    }

  if (!terrain_reader_check_span (&reader, 0, self->header_size,
                                  self->header_size == 28 ? "28-byte header" : "24-byte header",
                                  error))
    return FALSE;
  if (self->words == TERRAIN_CHU_WORDS_U32)
    {
      guint32 depth32;

      (void) terrain_reader_read_u32 (&reader, &depth32, NULL);
      depth_word = (guint16) depth32;
    }
  else
    (void) terrain_reader_read_u16 (&reader, &depth_word, NULL);
  (void) terrain_reader_read_u32 (&reader, &self->base_max_error_bits, NULL);
  (void) terrain_reader_read_u32 (&reader, &self->vertical_scale_bits, NULL);
  (void) terrain_reader_read_u32 (&reader, &self->leaf_dimensions_bits, NULL);
  (void) terrain_reader_read_u32 (&reader, &self->chunk_count, NULL);
  if (self->variant == TERRAIN_CHU_VARIANT_CHU3)
    (void) terrain_reader_read_u32 (&reader, &self->col_tree_depth, NULL);
  self->tree_depth = depth_word;

  /* CHU3 declares the depth as S16: a negative one is as invalid as zero. */
  if (depth_word == 0 || depth_word > TERRAIN_QUADTREE_MAX_DEPTH)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s header: tree depth %d at byte offset %d is invalid (a tree has 1 to %d "
                   "levels)",
                   chu_variant_name (self->variant),
                   self->variant == TERRAIN_CHU_VARIANT_CHU3 ? (gint) (gint16) depth_word
                                                             : (gint) depth_word,
                   chu_header_offset (self, OFF_TREE_DEPTH), TERRAIN_QUADTREE_MAX_DEPTH);
      return FALSE;
    }

  expected = terrain_quadtree_node_count (self->tree_depth);
  if (self->chunk_count != expected)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s header: chunk count %u at byte offset %d does not cover the tree: "
                   "a tree of depth %u has %" G_GUINT64_FORMAT " nodes",
                   chu_variant_name (self->variant), self->chunk_count,
                   chu_header_offset (self, OFF_CHUNK_COUNT),
                   self->tree_depth, expected);
      return FALSE;
    }
  if (!terrain_limits_check_count (&self->limits, self->chunk_count, self->limits.max_tiles,
                                   "chunk", "CHU header", chu_header_offset (self, OFF_CHUNK_COUNT),
                                   error) ||
      !terrain_limits_check_alloc (&self->limits, self->chunk_count, sizeof (ChuStub),
                                   "stub table", "CHU header",
                                   chu_header_offset (self, OFF_CHUNK_COUNT), error))
    return FALSE;

  if (self->col_tree_depth >= 1 && self->col_tree_depth <= TERRAIN_QUADTREE_MAX_DEPTH)
    {
      /* Only chunks with collision data use these; they are checked against
       * the file and the limits there. */
      self->n_col_nodes = terrain_quadtree_node_count (self->col_tree_depth);
      self->n_col_offsets = G_GUINT64_CONSTANT (1) << (2 * (self->col_tree_depth - 1));
    }

  if (!parse_stubs (self, &reader, error))
    return FALSE;

  terrain_reader_init (&reader, bytes, "CHU chunk");
  for (guint k = 0; k < self->chunk_count; k++)
    if (!parse_chunk (self, &reader, k, error))
      return FALSE;

  return TRUE;
}

/**
 * terrain_chu_file_new_from_bytes:
 * @bytes: the contents of a `.chu` file
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Reads a chunked-LOD geometry tree: TGEA `CHU3` version 400
 * (atlas-chu-tqt.md §9b) or Ulrich's `CHU\0` version 9.
 *
 * Structural checks (§9e) fail the load: the magic, the version, a tree
 * depth of 1 to 31 whose node count equals the chunk count and fits
 * `max_tiles` of [struct@Terrain.Limits]; every stub inside the file, with
 * sentinel 0xDEADBEEF (`CHU3`) and a unique label below the chunk count; in
 * Ulrich's files, each chunk header's level matching its depth-first
 * position and its (x, z) naming each node once; every chunk's sentinel
 * 0xBEEF1234, non-negative index count, collision flag 0 or 1 (a set flag
 * needs a non-zero collision-tree depth), collision mark 0xB33FD34D and
 * footer 0xB1E2E3F4, and every array inside the file. Consistency findings
 * (stub bounds, triangle counts, positions against labels, overlapping
 * chunks) come from [method@Terrain.Document.validate].
 *
 * Returns: (transfer full) (nullable): the file, or %NULL with a
 *   %TERRAIN_ERROR set: %TERRAIN_ERROR_TRUNCATED or
 *   %TERRAIN_ERROR_OUT_OF_RANGE when a structure runs past or starts beyond
 *   the end of the file, %TERRAIN_ERROR_BAD_MAGIC for a wrong magic or
 *   sentinel, %TERRAIN_ERROR_UNSUPPORTED_VERSION, %TERRAIN_ERROR_INVALID_VALUE,
 *   or %TERRAIN_ERROR_LIMIT_EXCEEDED
 */
TerrainChuFile *
terrain_chu_file_new_from_bytes (GBytes               *bytes,
                                 const TerrainLimits  *limits,
                                 GError              **error)
{
  return TERRAIN_CHU_FILE (terrain_document_new_from_bytes (TERRAIN_TYPE_CHU_FILE, bytes,
                                                            limits, error));
}

/**
 * terrain_chu_file_get_variant:
 * @self: a #TerrainChuFile
 *
 * Gets which of the two CHU layouts the file uses.
 *
 * Returns: which of the two CHU layouts the file uses
 */
TerrainChuVariant
terrain_chu_file_get_variant (TerrainChuFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_CHU_FILE (self), TERRAIN_CHU_VARIANT_CHU3);

  return self->variant;
}

/**
 * terrain_chu_file_get_words:
 * @self: a #TerrainChuFile
 *
 * Gets the width of the header's version and tree depth and of the chunk
 * headers' x and z, as the file's header words showed it.
 *
 * Returns: %TERRAIN_CHU_WORDS_U32 for Ulrich's files written with 32-bit
 *   words, else %TERRAIN_CHU_WORDS_U16 (every `CHU3` file)
 */
TerrainChuWords
terrain_chu_file_get_words (TerrainChuFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_CHU_FILE (self), TERRAIN_CHU_WORDS_U16);

  return self->words;
}

/**
 * terrain_chu_file_get_version:
 * @self: a #TerrainChuFile
 *
 * Gets the version word.
 *
 * Returns: the version word: %TERRAIN_CHU_VERSION (400) or
 *   %TERRAIN_CHU_VERSION_ULRICH (9)
 */
guint
terrain_chu_file_get_version (TerrainChuFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_CHU_FILE (self), 0);

  return self->version;
}

/**
 * terrain_chu_file_get_tree_depth:
 * @self: a #TerrainChuFile
 *
 * Gets the number of tree levels.
 *
 * Returns: the number of tree levels (at least 1)
 */
guint
terrain_chu_file_get_tree_depth (TerrainChuFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_CHU_FILE (self), 0);

  return self->tree_depth;
}

/**
 * terrain_chu_file_get_base_max_error:
 * @self: a #TerrainChuFile
 *
 * Gets the header's base maximum error.
 *
 * Returns: the header's base maximum error (probably the LOD error of the
 *   root chunk; its exact use is unconfirmed)
 */
gfloat
terrain_chu_file_get_base_max_error (TerrainChuFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_CHU_FILE (self), 0.0f);

  return chu_bits_to_float (self->base_max_error_bits);
}

/**
 * terrain_chu_file_get_vertical_scale:
 * @self: a #TerrainChuFile
 *
 * Gets the vertical scale of the quantised heights.
 *
 * Returns: world height units per quantised height unit
 */
gfloat
terrain_chu_file_get_vertical_scale (TerrainChuFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_CHU_FILE (self), 0.0f);

  return chu_bits_to_float (self->vertical_scale_bits);
}

/**
 * terrain_chu_file_get_leaf_dimensions:
 * @self: a #TerrainChuFile
 *
 * Gets the world X/Y width of one leaf chunk.
 *
 * Returns: the world X/Y width of one leaf (deepest-level) chunk
 */
gfloat
terrain_chu_file_get_leaf_dimensions (TerrainChuFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_CHU_FILE (self), 0.0f);

  return chu_bits_to_float (self->leaf_dimensions_bits);
}

/**
 * terrain_chu_file_get_terrain_size:
 * @self: a #TerrainChuFile
 *
 * Gets the world width (and height) of the whole terrain.
 *
 * Returns: the world width (and height) of the whole terrain,
 *   leafDimensions × 2^(treeDepth-1) (§9b)
 */
gdouble
terrain_chu_file_get_terrain_size (TerrainChuFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_CHU_FILE (self), 0.0);

  return ldexp ((gdouble) chu_bits_to_float (self->leaf_dimensions_bits), self->tree_depth - 1);
}

/**
 * terrain_chu_file_get_col_tree_depth:
 * @self: a #TerrainChuFile
 *
 * Gets the collision-tree depth used by chunks with collision data.
 *
 * Returns: the collision-tree depth used by chunks with collision data
 *   (`CHU3`; 0 for Ulrich's files, which have none)
 */
guint32
terrain_chu_file_get_col_tree_depth (TerrainChuFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_CHU_FILE (self), 0);

  return self->col_tree_depth;
}

/**
 * terrain_chu_file_get_n_stubs:
 * @self: a #TerrainChuFile
 *
 * Gets the number of stubs.
 *
 * Returns: the number of stubs, nodeCount(treeDepth)
 */
guint
terrain_chu_file_get_n_stubs (TerrainChuFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_CHU_FILE (self), 0);

  return self->chunk_count;
}

/**
 * terrain_chu_file_get_stub:
 * @self: a #TerrainChuFile
 * @index: stub index in file order, below [method@Terrain.ChuFile.get_n_stubs]
 *
 * Gets stub @index.
 *
 * Returns: (transfer none): the stub
 */
const TerrainChuStub *
terrain_chu_file_get_stub (TerrainChuFile *self,
                           guint           index)
{
  g_return_val_if_fail (TERRAIN_IS_CHU_FILE (self), NULL);
  g_return_val_if_fail (index < self->chunk_count, NULL);

  return &self->stubs[index].pub;
}

/**
 * terrain_chu_file_lookup_label:
 * @self: a #TerrainChuFile
 * @label: a node label
 *
 * Finds the stub carrying a node label.
 *
 * Returns: the index of the stub carrying @label, or -1 when @label lies
 *   outside the tree
 */
gint
terrain_chu_file_lookup_label (TerrainChuFile *self,
                               gint32          label)
{
  g_return_val_if_fail (TERRAIN_IS_CHU_FILE (self), -1);

  if (label < 0 || (guint32) label >= self->chunk_count)
    return -1;
  return self->label_to_stub[label];
}

/**
 * terrain_chu_file_lookup_node:
 * @self: a #TerrainChuFile
 * @level: tree level, 0 at the root
 * @x: Atlas node X at @level
 * @y: Atlas node Y at @level
 *
 * Finds the chunk that becomes Atlas geometry node (@level, @x, @y). In
 * `CHU3` files that is the stub labelled nodeID(@level, @y, @x) (§9b, the
 * CHU/Atlas X/Y transpose); in Ulrich's files, which have no label scheme,
 * the chunk header with that level, x and z.
 *
 * Returns: the stub index, or -1 when the node lies outside the tree
 */
gint
terrain_chu_file_lookup_node (TerrainChuFile *self,
                              guint           level,
                              guint           x,
                              guint           y)
{
  g_return_val_if_fail (TERRAIN_IS_CHU_FILE (self), -1);

  if (level >= self->tree_depth || x >= (1u << level) || y >= (1u << level))
    return -1;
  return self->node_to_stub[terrain_quadtree_node_id (level, x, y)];
}

/**
 * terrain_chu_file_get_chunk:
 * @self: a #TerrainChuFile
 * @index: stub index
 * @error: return location for a #GError
 *
 * Decodes the chunk of a stub from the file's bytes. Chunks shared by
 * several stubs decode once per call.
 *
 * Returns: (transfer full) (nullable): the chunk, or %NULL with a
 *   %TERRAIN_ERROR set (%TERRAIN_ERROR_LIMIT_EXCEEDED when its arrays
 *   exceed the limits the file was loaded with)
 */
TerrainChuChunk *
terrain_chu_file_get_chunk (TerrainChuFile  *self,
                            guint            index,
                            GError         **error)
{
  g_autoptr(TerrainChuChunk) chunk = NULL;
  const ChuStub *stub;
  const ChunkLayout *layout;
  TerrainReader file, reader;

  g_return_val_if_fail (TERRAIN_IS_CHU_FILE (self), NULL);
  g_return_val_if_fail (index < self->chunk_count, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  stub = &self->stubs[index];
  layout = &stub->layout;

  if (!terrain_limits_check_alloc (&self->limits, layout->n_vertices, sizeof (TerrainChuVertex),
                                   "vertex array", "CHU chunk", stub->pub.chunk_offset, error) ||
      !terrain_limits_check_alloc (&self->limits, layout->n_indices, 2, "index array",
                                   "CHU chunk", stub->pub.chunk_offset, error))
    return NULL;

  terrain_reader_init (&file, self->source, "CHU chunk");
  if (!terrain_reader_sub (&file, stub->pub.chunk_offset, stub->pub.chunk_size, "CHU chunk",
                           &reader, error))
    return NULL;

  chunk = g_new0 (TerrainChuChunk, 1);
  chunk->offset = stub->pub.chunk_offset;
  chunk->size = stub->pub.chunk_size;
  chunk->strip = self->variant == TERRAIN_CHU_VARIANT_ULRICH;
  chunk->n_vertices = layout->n_vertices;
  chunk->vertices = g_new (TerrainChuVertex, MAX (layout->n_vertices, 1));

  if (!terrain_reader_seek (&reader, self->variant == TERRAIN_CHU_VARIANT_CHU3 ? 6 : 2, error))
    return NULL;
  for (guint i = 0; i < layout->n_vertices; i++)
    {
      gint16 v[4];

      for (guint c = 0; c < 4; c++)
        if (!terrain_reader_read_i16 (&reader, &v[c], error))
          return NULL;

      chunk->vertices[i].x = v[0];
      if (self->variant == TERRAIN_CHU_VARIANT_CHU3)
        {
          chunk->vertices[i].y = v[1];
          chunk->vertices[i].z = v[2];
        }
      else
        {
          /* Ulrich's vertices are (x, height, z, morph): Y is up. */
          chunk->vertices[i].y = v[2];
          chunk->vertices[i].z = v[1];
        }
      chunk->vertices[i].morph = v[3];
    }

  chunk->n_indices = layout->n_indices;
  chunk->indices = g_new (guint16, MAX (layout->n_indices, 1));
  if (!terrain_reader_seek (&reader, layout->indices_at + 4, error) ||
      !terrain_reader_read_u16_array (&reader, layout->n_indices, chunk->indices, error) ||
      !terrain_reader_read_u32 (&reader, &chunk->tri_count, error))
    return NULL;

  if (layout->col_flag == 1)
    {
      chunk->has_collision = TRUE;
      chunk->n_col_nodes = (guint) self->n_col_nodes;
      chunk->col_nodes = g_new (TerrainChuColNode, chunk->n_col_nodes);
      if (!terrain_reader_seek (&reader, layout->collision_at, error))
        return NULL;
      for (guint i = 0; i < chunk->n_col_nodes; i++)
        if (!terrain_reader_read_i16 (&reader, &chunk->col_nodes[i].min, error) ||
            !terrain_reader_read_i16 (&reader, &chunk->col_nodes[i].max, error))
          return NULL;

      chunk->n_col_offsets = (guint) self->n_col_offsets;
      chunk->col_offsets = g_new (guint16, chunk->n_col_offsets);
      chunk->n_col_indices = layout->n_col_indices;
      chunk->col_indices = g_new (guint16, MAX (layout->n_col_indices, 1));
      if (!terrain_reader_seek (&reader, layout->col_offsets_at, error) ||
          !terrain_reader_read_u16_array (&reader, chunk->n_col_offsets, chunk->col_offsets,
                                          error) ||
          !terrain_reader_seek (&reader, layout->buffer_size_at + 4, error) ||
          !terrain_reader_read_u16_array (&reader, chunk->n_col_indices, chunk->col_indices,
                                          error))
        return NULL;
    }

  return g_steal_pointer (&chunk);
}

/**
 * terrain_chu_chunk_copy:
 * @chunk: a #TerrainChuChunk
 *
 * Copies @chunk, with its arrays.
 *
 * Returns: (transfer full): a deep copy of @chunk
 */
TerrainChuChunk *
terrain_chu_chunk_copy (const TerrainChuChunk *chunk)
{
  TerrainChuChunk *copy;

  g_return_val_if_fail (chunk != NULL, NULL);

  copy = g_memdup2 (chunk, sizeof *chunk);
  copy->vertices = g_memdup2 (chunk->vertices,
                              MAX (chunk->n_vertices, 1) * sizeof (TerrainChuVertex));
  copy->indices = g_memdup2 (chunk->indices, MAX (chunk->n_indices, 1) * sizeof (guint16));
  if (chunk->col_nodes != NULL)
    copy->col_nodes = g_memdup2 (chunk->col_nodes,
                                 chunk->n_col_nodes * sizeof (TerrainChuColNode));
  if (chunk->col_offsets != NULL)
    copy->col_offsets = g_memdup2 (chunk->col_offsets, chunk->n_col_offsets * sizeof (guint16));
  if (chunk->col_indices != NULL)
    copy->col_indices = g_memdup2 (chunk->col_indices,
                                   MAX (chunk->n_col_indices, 1) * sizeof (guint16));
  return copy;
}

/**
 * terrain_chu_chunk_free:
 * @chunk: (transfer full) (nullable): a #TerrainChuChunk
 *
 * Frees a chunk and its arrays.
 */
void
terrain_chu_chunk_free (TerrainChuChunk *chunk)
{
  if (chunk == NULL)
    return;
  g_free (chunk->vertices);
  g_free (chunk->indices);
  g_free (chunk->col_nodes);
  g_free (chunk->col_offsets);
  g_free (chunk->col_indices);
  g_free (chunk);
}

/**
 * terrain_chu_chunk_count_triangles:
 * @chunk: a #TerrainChuChunk
 *
 * Counts the triangles the indices describe: a third of a triangle list;
 * for a strip, the triangles whose three indices differ (strips join with
 * degenerate triangles). Compare with @tri_count (§9e, a consistency
 * check).
 *
 * Returns: the triangle count
 */
guint
terrain_chu_chunk_count_triangles (const TerrainChuChunk *chunk)
{
  guint count = 0;

  g_return_val_if_fail (chunk != NULL, 0);

  if (!chunk->strip)
    return chunk->n_indices / 3;

  for (guint i = 0; i + 2 < chunk->n_indices; i++)
    {
      guint16 a = chunk->indices[i], b = chunk->indices[i + 1], c = chunk->indices[i + 2];

      if (a != b && b != c && a != c)
        count++;
    }
  return count;
}

static GBytes *
terrain_chu_file_save_to_bytes (TerrainDocument  *document,
                                GError          **error)
{
  TerrainChuFile *self = TERRAIN_CHU_FILE (document);
  TerrainWriter writer;
  TerrainReader reader;
  const guint8 *all;

  /* Chunks are not edited, so they stay where they are; start from the
   * source so that gaps, trailing bytes and chunk order survive, then write
   * the header and every stub from the model at the offset it came from. */
  terrain_reader_init (&reader, self->source, "CHU");
  if (!terrain_reader_peek_bytes (&reader, self->file_size, &all, error))
    return NULL;
  terrain_writer_init_copy (&writer, all, self->file_size);
  terrain_writer_set_section (&writer, "CHU");

  {
    TerrainWriter header;
    g_autoptr(GBytes) head = NULL;
    gsize size;
    const guint8 *data;

    terrain_writer_init (&header, self->header_size);
    terrain_writer_put_bytes (&header, self->magic, 4);
    if (self->words == TERRAIN_CHU_WORDS_U32)
      {
        terrain_writer_put_u32 (&header, self->version);
        terrain_writer_put_u32 (&header, self->tree_depth);
      }
    else
      {
        terrain_writer_put_u16 (&header, self->version);
        terrain_writer_put_u16 (&header, self->tree_depth);
      }
    terrain_writer_put_u32 (&header, self->base_max_error_bits);
    terrain_writer_put_u32 (&header, self->vertical_scale_bits);
    terrain_writer_put_u32 (&header, self->leaf_dimensions_bits);
    terrain_writer_put_u32 (&header, self->chunk_count);
    if (self->variant == TERRAIN_CHU_VARIANT_CHU3)
      terrain_writer_put_u32 (&header, self->col_tree_depth);
    head = terrain_writer_finish (&header, NULL);
    data = g_bytes_get_data (head, &size);
    g_assert (size == self->header_size);
    terrain_writer_patch_bytes (&writer, 0, data, size);
  }

  for (guint k = 0; k < self->chunk_count; k++)
    {
      const TerrainChuStub *stub = &self->stubs[k].pub;
      TerrainWriter record;
      g_autoptr(GBytes) bytes = NULL;
      gsize size;
      const guint8 *data;

      terrain_writer_init (&record, self->stub_size);
      if (self->variant == TERRAIN_CHU_VARIANT_CHU3)
        terrain_writer_put_u32 (&record, STUB_SENTINEL);
      terrain_writer_put_u32 (&record, (guint32) stub->label);
      for (guint i = 0; i < 4; i++)
        terrain_writer_put_u32 (&record, (guint32) stub->neighbors[i]);
      terrain_writer_put_u8 (&record, stub->level);
      if (self->words == TERRAIN_CHU_WORDS_U32)
        {
          terrain_writer_put_u32 (&record, (guint32) stub->x);
          terrain_writer_put_u32 (&record, (guint32) stub->y);
        }
      else
        {
          terrain_writer_put_u16 (&record, (guint16) stub->x);
          terrain_writer_put_u16 (&record, (guint16) stub->y);
        }
      terrain_writer_put_u16 (&record, (guint16) stub->min_z);
      terrain_writer_put_u16 (&record, (guint16) stub->max_z);
      terrain_writer_put_u32 (&record, stub->chunk_offset);
      bytes = terrain_writer_finish (&record, NULL);
      data = g_bytes_get_data (bytes, &size);
      g_assert (size == self->stub_size);
      terrain_writer_patch_bytes (&writer, stub->record_offset, data, size);
    }

  return terrain_writer_finish (&writer, error);
}

static void
terrain_chu_file_finalize (GObject *object)
{
  TerrainChuFile *self = (TerrainChuFile *) object;

  g_clear_pointer (&self->stubs, g_free);
  g_clear_pointer (&self->label_to_stub, g_free);
  g_clear_pointer (&self->node_to_stub, g_free);
  g_clear_pointer (&self->source, g_bytes_unref);

  G_OBJECT_CLASS (terrain_chu_file_parent_class)->finalize (object);
}

static void
terrain_chu_file_class_init (TerrainChuFileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  object_class->finalize = terrain_chu_file_finalize;

  document_class->save_to_bytes = terrain_chu_file_save_to_bytes;
  document_class->validate = chu_file_validate;
  document_class->describe = chu_file_describe;
  document_class->render_image = chu_file_render_image;
  document_class->export_heights = chu_file_export_heights;
  document_class->describe_offset = chu_file_describe_offset;
  document_class->parse = terrain_chu_file_parse;
  document_class->format = TERRAIN_FORMAT_CHU;
}

static void
terrain_chu_file_init (TerrainChuFile *self)
{
}
