/* terrain-chu-file.c: chunked-LOD geometry trees (.chu)
 *
 * Why one file of about 1,850 lines (house rule: ~1,500): one class,
 * TerrainChuFile, whose reader, in-place writer, validation and relief
 * rendering share the file-static stub and chunk tables; the CHU importer
 * is already apart (terrain-chu-import.c). The seam for a split is the one
 * TerrainAtlasFile used (an impl-private header, then -check.c for
 * validation from "Validation findings" and -render.c for the
 * relief); left for a later pass because another helper was working in
 * atlas/ during the issue-20 pass.
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

/* atlas-chu-tqt.md §9b: the CHU3 header and stub. */
#define CHU3_HEADER_SIZE      28
#define CHU3_STUB_SIZE        37
/* Ulrich's chunklod.cpp, format version 9: a 24-byte header (no collision
 * depth) and 33-byte chunk headers (no sentinel) in depth-first order. */
#define ULRICH_HEADER_SIZE    24
#define ULRICH_STUB_SIZE      33
/* The same with U32 version, tree depth and chunk x, z (TerrainChuWords). */
#define ULRICH_WIDE_HEADER_SIZE 28
#define ULRICH_WIDE_STUB_SIZE   37

#define OFF_MAGIC             0
#define OFF_VERSION           4
#define OFF_TREE_DEPTH        6
#define OFF_BASE_MAX_ERROR    8
#define OFF_VERTICAL_SCALE    12
#define OFF_LEAF_DIMENSIONS   16
#define OFF_CHUNK_COUNT       20
#define OFF_COL_TREE_DEPTH    24

#define STUB_SENTINEL         0xDEADBEEFu
#define CHUNK_SENTINEL        0xBEEF1234u
#define COLLISION_MARK        0xB33FD34Du
#define CHUNK_FOOTER          0xB1E2E3F4u

#define VERTEX_BYTES          8

/* Validation lists this many findings of a kind, then one summary. */

/* Pictures and height grids: the chunks of one level, at most this deep
 * (4^6 = 4096 chunks to decode), at least this many pixels a side. */
#define RENDER_MAX_LEVEL      6
#define RENDER_MIN_SIDE       256

/* Where the parts of a chunk lie, relative to its start; filled when the
 * chunk's structure is walked at load time. */
typedef struct
{
  guint32 n_vertices;
  guint32 n_indices;
  guint8  col_flag;
  guint32 n_col_indices;
  gsize   indices_at;      /* the index count */
  gsize   tri_count_at;
  gsize   collision_at;    /* first collision-tree node (CHU3 with collision) */
  gsize   mark_at;
  gsize   col_offsets_at;
  gsize   buffer_size_at;
  gsize   footer_at;       /* CHU3 only */
} ChunkLayout;

typedef struct
{
  TerrainChuStub pub;
  ChunkLayout    layout;
  gint           parent;   /* stub index of the parent node, -1 at the root */
} ChuStub;

struct _TerrainChuFile
{
  TerrainDocument parent_instance;

  GBytes *source;
  gsize file_size;
  TerrainLimits limits;

  TerrainChuVariant variant;
  TerrainChuWords words;
  guint8 magic[4];
  guint16 version;
  guint16 tree_depth;
  guint32 base_max_error_bits;
  guint32 vertical_scale_bits;
  guint32 leaf_dimensions_bits;
  guint32 chunk_count;
  guint32 col_tree_depth;

  gsize header_size;
  gsize stub_size;
  guint64 n_col_nodes;      /* per chunk with collision, from col_tree_depth */
  guint64 n_col_offsets;

  ChuStub *stubs;           /* chunk_count, in file order */
  gint *label_to_stub;      /* chunk_count */
  gint *node_to_stub;       /* chunk_count, by Atlas nodeID(level, x, y) */
};

G_DEFINE_FINAL_TYPE (TerrainChuFile, terrain_chu_file, TERRAIN_TYPE_DOCUMENT)

G_DEFINE_BOXED_TYPE (TerrainChuChunk, terrain_chu_chunk, terrain_chu_chunk_copy,
                     terrain_chu_chunk_free)

static gfloat
bits_to_float (guint32 bits)
{
  gfloat value;

  memcpy (&value, &bits, sizeof value);
  return value;
}

static const char *
variant_name (TerrainChuVariant variant)
{
  return variant == TERRAIN_CHU_VARIANT_CHU3 ? "CHU3" : "CHU";
}

/* Where a header field of the 16-bit layout (OFF_*) lies in this file:
 * with U32 words the depth moves by 2, the fields after it by 4. */
static guint
header_offset (TerrainChuFile *self,
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
                           pos - 1, k, label, self->col_tree_depth, header_offset (self, OFF_COL_TREE_DEPTH),
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
                   variant_name (self->variant), first, self->chunk_count,
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
                       variant_name (self->variant), pub->label, k,
                       at + (self->variant == TERRAIN_CHU_VARIANT_CHU3 ? 4 : 0),
                       self->chunk_count - 1);
          return FALSE;
        }
      if (self->label_to_stub[pub->label] >= 0)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "%s stubs: label %d of stub %u at byte offset %" G_GSIZE_FORMAT
                       " repeats the label of stub %d; labels must be unique",
                       variant_name (self->variant), pub->label, k,
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
                   variant_name (self->variant),
                   self->variant == TERRAIN_CHU_VARIANT_CHU3 ? (gint) (gint16) depth_word
                                                             : (gint) depth_word,
                   header_offset (self, OFF_TREE_DEPTH), TERRAIN_QUADTREE_MAX_DEPTH);
      return FALSE;
    }

  expected = terrain_quadtree_node_count (self->tree_depth);
  if (self->chunk_count != expected)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s header: chunk count %u at byte offset %d does not cover the tree: "
                   "a tree of depth %u has %" G_GUINT64_FORMAT " nodes",
                   variant_name (self->variant), self->chunk_count,
                   header_offset (self, OFF_CHUNK_COUNT),
                   self->tree_depth, expected);
      return FALSE;
    }
  if (!terrain_limits_check_count (&self->limits, self->chunk_count, self->limits.max_tiles,
                                   "chunk", "CHU header", header_offset (self, OFF_CHUNK_COUNT),
                                   error) ||
      !terrain_limits_check_alloc (&self->limits, self->chunk_count, sizeof (ChuStub),
                                   "stub table", "CHU header",
                                   header_offset (self, OFF_CHUNK_COUNT), error))
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

  return bits_to_float (self->base_max_error_bits);
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

  return bits_to_float (self->vertical_scale_bits);
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

  return bits_to_float (self->leaf_dimensions_bits);
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

  return ldexp ((gdouble) bits_to_float (self->leaf_dimensions_bits), self->tree_depth - 1);
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

/* Validation findings, at most TERRAIN_ISSUE_CAP_PER_KIND of each kind,
 * then one summary per kind. */
typedef enum
{
  KIND_HEADER,
  KIND_POSITION,
  KIND_NEIGHBOR,
  KIND_BOUNDS,
  KIND_TRIANGLES,
  KIND_INDICES,
  KIND_OVERLAP,
  N_KINDS
} IssueKind;

static const char * const kind_sections[N_KINDS] = {
  [KIND_HEADER] = "CHU header",
  [KIND_POSITION] = "CHU stubs",
  [KIND_NEIGHBOR] = "CHU stubs",
  [KIND_BOUNDS] = "CHU stubs",
  [KIND_TRIANGLES] = "CHU chunks",
  [KIND_INDICES] = "CHU chunks",
  [KIND_OVERLAP] = "CHU chunks",
};

static const char * const kind_names[N_KINDS] = {
  [KIND_HEADER] = "header values",
  [KIND_POSITION] = "stub positions",
  [KIND_NEIGHBOR] = "neighbour labels",
  [KIND_BOUNDS] = "stub height bounds",
  [KIND_TRIANGLES] = "triangle counts",
  [KIND_INDICES] = "vertex indices",
  [KIND_OVERLAP] = "chunk overlaps",
};

/* Findings go through the one capped collector (core/terrain-issue-private.h),
 * keyed by kind_names. */
typedef TerrainIssueCollector Findings;

static void add_finding (Findings   *findings,
                         IssueKind   kind,
                         gint64      offset,
                         gint64      record,
                         const char *format,
                         ...) G_GNUC_PRINTF (5, 6);

static void
add_finding (Findings   *findings,
             IssueKind   kind,
             gint64      offset,
             gint64      record,
             const char *format,
             ...)
{
  va_list args;

  va_start (args, format);
  terrain_issue_collector_addv (findings, kind_names[kind], TERRAIN_SEVERITY_WARNING,
                                kind_sections[kind], offset, record, format, args);
  va_end (args);
}

typedef struct
{
  gsize offset;
  gsize size;
  guint stub;
} Span;

static gint
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const Span *sa = a, *sb = b;

  if (sa->offset != sb->offset)
    return sa->offset < sb->offset ? -1 : 1;
  if (sa->size != sb->size)
    return sa->size < sb->size ? -1 : 1;
  return (gint) sa->stub - (gint) sb->stub;
}

static void
validate_overlaps (TerrainChuFile *self,
                   Findings       *findings)
{
  g_autofree Span *spans = g_new (Span, self->chunk_count);
  gsize table_end = self->header_size + (gsize) self->chunk_count * self->stub_size;
  gsize reach = 0;
  gint reach_stub = -1;

  for (guint k = 0; k < self->chunk_count; k++)
    {
      spans[k].offset = self->stubs[k].pub.chunk_offset;
      spans[k].size = self->stubs[k].pub.chunk_size;
      spans[k].stub = k;
    }
  qsort (spans, self->chunk_count, sizeof (Span), compare_spans);

  for (guint i = 0; i < self->chunk_count; i++)
    {
      const Span *span = &spans[i];

      if (span->offset < table_end)
        add_finding (findings, KIND_OVERLAP, (gint64) span->offset, span->stub,
                     "the chunk of stub %u (bytes %" G_GSIZE_FORMAT " to %" G_GSIZE_FORMAT
                     ") overlaps the header and stub table (bytes 0 to %" G_GSIZE_FORMAT ")",
                     span->stub, span->offset, span->offset + span->size - 1, table_end - 1);

      /* Identical spans are one chunk shared by several nodes (§9e). */
      if (i > 0 && span->offset == spans[i - 1].offset && span->size == spans[i - 1].size)
        continue;
      if (reach_stub >= 0 && span->offset < reach)
        add_finding (findings, KIND_OVERLAP, (gint64) span->offset, span->stub,
                     "the chunk of stub %u (bytes %" G_GSIZE_FORMAT " to %" G_GSIZE_FORMAT
                     ") partly overlaps the chunk of stub %d (ending at byte %" G_GSIZE_FORMAT
                     ")",
                     span->stub, span->offset, span->offset + span->size - 1, reach_stub,
                     reach - 1);
      if (span->offset + span->size > reach)
        {
          reach = span->offset + span->size;
          reach_stub = (gint) span->stub;
        }
    }
}

typedef struct
{
  gint min;   /* G_MAXINT when the chunk has no vertices */
  gint max;
} HeightRange;

static void
check_bounds (Findings             *findings,
              const TerrainChuStub *stub,
              guint                 k,
              gint64                at,
              const HeightRange    *range)
{
  if (range->min <= range->max && (range->min < stub->min_z || range->max > stub->max_z))
    add_finding (findings, KIND_BOUNDS, at, k,
                 "stub %u bounds its heights to %d..%d, but its chunk's vertices reach %d..%d",
                 k, stub->min_z, stub->max_z, range->min, range->max);
}

static GPtrArray *
terrain_chu_file_validate (TerrainDocument *document)
{
  TerrainChuFile *self = TERRAIN_CHU_FILE (document);
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autofree HeightRange *ranges = g_new0 (HeightRange, self->chunk_count);
  Findings findings = { 0 };
  gfloat vertical_scale = bits_to_float (self->vertical_scale_bits);
  gfloat leaf = bits_to_float (self->leaf_dimensions_bits);

  terrain_issue_collector_init (&findings, 0);

  if (!isfinite (leaf) || leaf <= 0.0f)
    add_finding (&findings, KIND_HEADER, header_offset (self, OFF_LEAF_DIMENSIONS), -1,
                 "leaf dimensions %g are not finite and positive; the chunks have no size",
                 (gdouble) leaf);
  if (!isfinite (vertical_scale) || vertical_scale <= 0.0f)
    add_finding (&findings, KIND_HEADER, header_offset (self, OFF_VERTICAL_SCALE), -1,
                 "vertical scale %g is not finite and positive", (gdouble) vertical_scale);

  for (guint k = 0; k < self->chunk_count; k++)
    {
      const ChuStub *stub = &self->stubs[k];
      const TerrainChuStub *pub = &stub->pub;
      g_autoptr(TerrainChuChunk) chunk = NULL;
      gint64 at = (gint64) pub->record_offset;
      gpointer first;

      if (self->variant == TERRAIN_CHU_VARIANT_CHU3)
        {
          guint level;
          guint32 a, b;

          /* Label nodeID(level, a, b) is Atlas node (level, b, a), whose
           * chunk origin is the stub's (x, y) (§9b). */
          terrain_quadtree_node_position ((guint64) pub->label, &level, &a, &b);
          if (pub->level != level || pub->x != (gint32) b || pub->y != (gint32) a)
            add_finding (&findings, KIND_POSITION, at, k,
                         "stub %u says level %u, x %d, y %d, but its label %d is node "
                         "(level %u, x %u, y %u)",
                         k, pub->level, pub->x, pub->y, pub->label, level, b, a);
        }
      else if (stub->parent >= 0)
        {
          const TerrainChuStub *up = &self->stubs[stub->parent].pub;

          if ((pub->x >> 1) != up->x || (pub->y >> 1) != up->y)
            add_finding (&findings, KIND_POSITION, at, k,
                         "chunk header %u at (level %u, x %d, y %d) does not lie inside its "
                         "parent, chunk header %d at (level %u, x %d, y %d)",
                         k, pub->level, pub->x, pub->y, stub->parent, up->level, up->x, up->y);
        }

      for (guint i = 0; i < 4; i++)
        if (pub->neighbors[i] >= 0 && (guint32) pub->neighbors[i] >= self->chunk_count)
          add_finding (&findings, KIND_NEIGHBOR, at, k,
                       "neighbour %u of stub %u is label %d, outside the tree (0 to %u)",
                       i, k, pub->neighbors[i], self->chunk_count - 1);

      /* A chunk shared by several stubs is decoded and checked once; each
       * stub's own bounds are still compared with its heights. */
      if (g_hash_table_lookup_extended (seen, GUINT_TO_POINTER (pub->chunk_offset), NULL,
                                        &first))
        {
          const HeightRange *range = &ranges[GPOINTER_TO_UINT (first)];

          check_bounds (&findings, pub, k, at, range);
          continue;
        }
      g_hash_table_insert (seen, GUINT_TO_POINTER (pub->chunk_offset), GUINT_TO_POINTER (k));

      ranges[k].min = G_MAXINT;
      ranges[k].max = G_MININT;
      chunk = terrain_chu_file_get_chunk (self, k, NULL);
      if (chunk == NULL)
        continue;

      for (guint i = 0; i < chunk->n_vertices; i++)
        {
          ranges[k].min = MIN (ranges[k].min, chunk->vertices[i].z);
          ranges[k].max = MAX (ranges[k].max, chunk->vertices[i].z);
        }
      check_bounds (&findings, pub, k, at, &ranges[k]);

      {
        guint derived = terrain_chu_chunk_count_triangles (chunk);

        if (!chunk->strip && chunk->n_indices % 3 != 0)
          add_finding (&findings, KIND_TRIANGLES,
                       (gint64) (pub->chunk_offset + stub->layout.indices_at), k,
                       "the chunk of stub %u has %u indices, not a whole number of triangles",
                       k, chunk->n_indices);
        if (chunk->tri_count != derived)
          add_finding (&findings, KIND_TRIANGLES,
                       (gint64) (pub->chunk_offset + stub->layout.tri_count_at), k,
                       "the chunk of stub %u stores triangle count %u, its indices describe %u",
                       k, chunk->tri_count, derived);
      }

      {
        guint bad = 0, first_bad = 0;

        for (guint i = 0; i < chunk->n_indices; i++)
          if (chunk->indices[i] >= chunk->n_vertices)
            {
              if (bad++ == 0)
                first_bad = i;
            }
        if (bad > 0)
          add_finding (&findings, KIND_INDICES,
                       (gint64) (pub->chunk_offset + stub->layout.indices_at + 4 + 2 * first_bad),
                       k,
                       "the chunk of stub %u has %u indices beyond its %u vertices (the first "
                       "is index %u, value %u)",
                       k, bad, chunk->n_vertices, first_bad, chunk->indices[first_bad]);
      }
    }

  validate_overlaps (self, &findings);

  return terrain_issue_collector_finish (&findings);
}

static void
add_int_member (JsonBuilder *builder,
                const char  *name,
                gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

static void
add_double_member (JsonBuilder *builder,
                   const char  *name,
                   gdouble      value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_double_value (builder, value);
}

static JsonNode *
terrain_chu_file_describe (TerrainDocument *document)
{
  TerrainChuFile *self = TERRAIN_CHU_FILE (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree Span *spans = g_new (Span, self->chunk_count);
  guint64 vertices = 0, indices = 0, referenced, distinct = 0;
  guint with_collision = 0;
  gboolean ordered = TRUE;
  gsize reach;

  for (guint k = 0; k < self->chunk_count; k++)
    {
      const ChuStub *stub = &self->stubs[k];

      vertices += stub->layout.n_vertices;
      indices += stub->layout.n_indices;
      with_collision += stub->layout.col_flag;
      if (stub->pub.label != (gint32) k)
        ordered = FALSE;
      spans[k].offset = stub->pub.chunk_offset;
      spans[k].size = stub->pub.chunk_size;
      spans[k].stub = k;
    }

  /* Bytes covered by the header, the stubs and the union of the chunks. */
  qsort (spans, self->chunk_count, sizeof (Span), compare_spans);
  referenced = reach = self->header_size + (gsize) self->chunk_count * self->stub_size;
  for (guint i = 0; i < self->chunk_count; i++)
    {
      gsize end = spans[i].offset + spans[i].size;

      if (i == 0 || spans[i].offset != spans[i - 1].offset)
        distinct++;
      if (end <= reach)
        continue;
      referenced += end - MAX (reach, spans[i].offset);
      reach = end;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, terrain_format_get_name (TERRAIN_FORMAT_CHU));
  json_builder_set_member_name (builder, "variant");
  json_builder_add_string_value (builder, self->variant == TERRAIN_CHU_VARIANT_CHU3 ? "chu3"
                                                                                   : "ulrich");
  if (self->variant == TERRAIN_CHU_VARIANT_ULRICH)
    {
      json_builder_set_member_name (builder, "header_words");
      json_builder_add_string_value (builder, self->words == TERRAIN_CHU_WORDS_U32
                                              ? "u32 (heightfield_chunker's)"
                                              : "u16 (the chunklod viewer's)");
    }
  add_int_member (builder, "version", self->version);
  add_int_member (builder, "tree_depth", self->tree_depth);
  add_double_member (builder, "base_max_error", bits_to_float (self->base_max_error_bits));
  add_double_member (builder, "vertical_scale", bits_to_float (self->vertical_scale_bits));
  add_double_member (builder, "leaf_dimensions", bits_to_float (self->leaf_dimensions_bits));
  add_double_member (builder, "terrain_size", terrain_chu_file_get_terrain_size (self));
  add_int_member (builder, "chunk_count", self->chunk_count);
  if (self->variant == TERRAIN_CHU_VARIANT_CHU3)
    add_int_member (builder, "col_tree_depth", self->col_tree_depth);
  json_builder_set_member_name (builder, "stubs_in_label_order");
  json_builder_add_boolean_value (builder, ordered);
  add_int_member (builder, "distinct_chunks", (gint64) distinct);
  add_int_member (builder, "chunks_with_collision", with_collision);
  add_int_member (builder, "vertices", (gint64) vertices);
  add_int_member (builder, "indices", (gint64) indices);
  json_builder_set_member_name (builder, "index_layout");
  json_builder_add_string_value (builder, self->variant == TERRAIN_CHU_VARIANT_CHU3
                                          ? "triangle-list" : "triangle-strip");

  json_builder_set_member_name (builder, "levels");
  json_builder_begin_array (builder);
  for (guint level = 0; level < self->tree_depth; level++)
    {
      guint64 n = G_GUINT64_CONSTANT (1) << (2 * level);
      guint64 level_vertices = 0, bytes = 0;

      for (guint64 node = terrain_quadtree_node_count (level); node < terrain_quadtree_node_count (level + 1);
           node++)
        {
          const ChuStub *stub = &self->stubs[self->node_to_stub[node]];

          level_vertices += stub->layout.n_vertices;
          bytes += stub->pub.chunk_size;
        }
      json_builder_begin_object (builder);
      add_int_member (builder, "level", level);
      add_int_member (builder, "chunks", (gint64) n);
      add_double_member (builder, "chunk_size",
                         ldexp ((gdouble) bits_to_float (self->leaf_dimensions_bits),
                                self->tree_depth - 1 - level));
      add_int_member (builder, "vertices", (gint64) level_vertices);
      add_int_member (builder, "bytes", (gint64) bytes);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  add_int_member (builder, "file_size", (gint64) self->file_size);
  add_int_member (builder, "unreferenced_bytes",
                  (gint64) (self->file_size - MIN (referenced, self->file_size)));
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static const struct
{
  guint offset;
  guint size;
  const char *name;
} header_fields[] = {
  { OFF_MAGIC, 4, "magic" },
  { OFF_VERSION, 2, "version" },
  { OFF_TREE_DEPTH, 2, "tree depth" },
  { OFF_BASE_MAX_ERROR, 4, "base max error" },
  { OFF_VERTICAL_SCALE, 4, "vertical scale" },
  { OFF_LEAF_DIMENSIONS, 4, "leaf dimensions" },
  { OFF_CHUNK_COUNT, 4, "chunk count" },
  { OFF_COL_TREE_DEPTH, 4, "collision-tree depth" },
};

/* Stub fields after the CHU3 sentinel (Ulrich's start at the label). */
static const struct
{
  guint offset;
  const char *name;
} stub_fields[] = {
  { 0, "label" },
  { 4, "neighbour 0" },
  { 8, "neighbour 1" },
  { 12, "neighbour 2" },
  { 16, "neighbour 3" },
  { 20, "level" },
  { 21, "x" },
  { 23, "y" },
  { 25, "min" },
  { 27, "max" },
  { 29, "chunk offset" },
};

static char *
describe_chunk_part (TerrainChuFile *self,
                     const ChuStub  *stub,
                     guint           k,
                     gsize           rel)
{
  const ChunkLayout *l = &stub->layout;
  gsize vertices_at = self->variant == TERRAIN_CHU_VARIANT_CHU3 ? 6 : 2;
  const char *where = "";
  g_autofree char *detail = NULL;

  if (self->variant == TERRAIN_CHU_VARIANT_CHU3 && rel < 4)
    where = "sentinel";
  else if (rel < vertices_at)
    where = "vertex count";
  else if (rel < l->indices_at)
    detail = g_strdup_printf ("vertex %" G_GSIZE_FORMAT ", byte +%" G_GSIZE_FORMAT,
                              (rel - vertices_at) / VERTEX_BYTES,
                              (rel - vertices_at) % VERTEX_BYTES);
  else if (rel < l->indices_at + 4)
    where = "index count";
  else if (rel < l->tri_count_at)
    detail = g_strdup_printf ("index %" G_GSIZE_FORMAT, (rel - l->indices_at - 4) / 2);
  else if (rel < l->tri_count_at + 4)
    where = "triangle count";
  else if (rel == l->tri_count_at + 4)
    where = "collision flag";
  else if (l->col_flag == 1 && rel < l->mark_at)
    detail = g_strdup_printf ("collision-tree node %" G_GSIZE_FORMAT,
                              (rel - l->collision_at) / 4);
  else if (l->col_flag == 1 && rel < l->mark_at + 4)
    where = "collision mark";
  else if (l->col_flag == 1 && rel < l->buffer_size_at)
    detail = g_strdup_printf ("collision-grid offset %" G_GSIZE_FORMAT,
                              (rel - l->col_offsets_at) / 2);
  else if (l->col_flag == 1 && rel < l->buffer_size_at + 4)
    where = "collision buffer size";
  else if (l->col_flag == 1 && rel < l->footer_at)
    detail = g_strdup_printf ("collision buffer entry %" G_GSIZE_FORMAT,
                              (rel - l->buffer_size_at - 4) / 2);
  else
    where = "footer";

  return g_strdup_printf ("chunk of stub %u (label %d, level %u, x %d, y %d), %s", k,
                          stub->pub.label, stub->pub.level, stub->pub.x, stub->pub.y,
                          detail != NULL ? detail : where);
}

static char *
terrain_chu_file_describe_offset (TerrainDocument *document,
                                  gsize            offset)
{
  TerrainChuFile *self = TERRAIN_CHU_FILE (document);
  gsize table_end = self->header_size + (gsize) self->chunk_count * self->stub_size;
  gboolean before_chunk = FALSE;

  if (offset >= self->file_size)
    return g_strdup ("end of file");

  if (offset < self->header_size)
    {
      for (guint i = 0; i < G_N_ELEMENTS (header_fields); i++)
        {
          guint at = header_offset (self, header_fields[i].offset);
          guint size = header_fields[i].size;

          if (self->words == TERRAIN_CHU_WORDS_U32 &&
              (header_fields[i].offset == OFF_VERSION || header_fields[i].offset == OFF_TREE_DEPTH))
            size = 4;
          if (offset >= at && offset < at + size)
            return g_strdup_printf ("header, %s, byte +%" G_GSIZE_FORMAT, header_fields[i].name,
                                    offset - at);
        }
      g_assert_not_reached ();
    }

  if (offset < table_end)
    {
      gsize k = (offset - self->header_size) / self->stub_size;
      gsize rel = (offset - self->header_size) % self->stub_size;
      const TerrainChuStub *stub = &self->stubs[k].pub;
      const char *field = "sentinel";

      if (self->variant == TERRAIN_CHU_VARIANT_CHU3)
        rel = rel < 4 ? G_MAXSIZE : rel - 4;
      if (rel != G_MAXSIZE)
        for (guint i = 0; i < G_N_ELEMENTS (stub_fields); i++)
          /* U32 x and z: the fields from y on are 2 and 4 bytes later. */
          if (rel >= stub_fields[i].offset +
                     (self->words == TERRAIN_CHU_WORDS_U32 && stub_fields[i].offset > 21
                      ? (stub_fields[i].offset == 23 ? 2 : 4) : 0))
            field = stub_fields[i].name;
      return g_strdup_printf ("stub %" G_GSIZE_FORMAT " (label %d, level %u, x %d, y %d), %s", k,
                              stub->label, stub->level, stub->x, stub->y, field);
    }

  for (guint k = 0; k < self->chunk_count; k++)
    {
      const ChuStub *stub = &self->stubs[k];

      if (offset >= stub->pub.chunk_offset &&
          offset - stub->pub.chunk_offset < stub->pub.chunk_size)
        return describe_chunk_part (self, stub, k, offset - stub->pub.chunk_offset);
      if (stub->pub.chunk_offset > offset)
        before_chunk = TRUE;
    }

  return g_strdup (before_chunk ? "gap" : "trailing bytes");
}

/* The level drawn and the picture's side: the finest level down to
 * RENDER_MAX_LEVEL, at about one pixel per vertex spacing of its first
 * chunk, between RENDER_MIN_SIDE and the picture limit. */
static guint
render_level (TerrainChuFile *self,
              guint          *side)
{
  guint level = MIN ((guint) self->tree_depth - 1, RENDER_MAX_LEVEL);
  guint max = MIN ((guint) TERRAIN_RELIEF_MAX_SIDE, self->limits.max_image_side);
  gint stub = terrain_chu_file_lookup_node (self, level, 0, 0);
  guint32 n_vertices = stub >= 0 ? self->stubs[stub].layout.n_vertices : 0;
  guint64 per_chunk = 1;

  while (per_chunk * per_chunk < n_vertices && per_chunk < max)
    per_chunk *= 2;
  per_chunk <<= level;
  per_chunk = MAX (per_chunk, MIN ((guint) RENDER_MIN_SIDE, max));
  per_chunk = MIN (per_chunk, (guint64) max);
  /* Whole pixels per chunk. */
  *side = MAX ((guint) (per_chunk >> level), 1u) << level;
  return level;
}

/* Draws the chunks of the render level seen from above, north (+Y) up:
 * column = X across the terrain's width, row 0 at the largest Y, heights in
 * world units. */
static gboolean
fill_relief (TerrainChuFile  *self,
             TerrainRelief   *relief,
             GError         **error)
{
  gdouble leaf = bits_to_float (self->leaf_dimensions_bits);
  gdouble scale = bits_to_float (self->vertical_scale_bits);
  gdouble terrain = terrain_chu_file_get_terrain_size (self);
  guint side, level = render_level (self, &side);
  gdouble chunk_size;

  if (!isfinite (leaf) || leaf <= 0.0 || !isfinite (terrain))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s header: leaf dimensions %g at byte offset %d are not finite and "
                   "positive, so the chunks have no place to be drawn at",
                   variant_name (self->variant), leaf, header_offset (self, OFF_LEAF_DIMENSIONS));
      return FALSE;
    }
  /* Without a usable scale, heights stay in quantised units. */
  if (!isfinite (scale) || scale == 0.0)
    scale = 1.0;
  chunk_size = ldexp (leaf, (gint) self->tree_depth - 1 - (gint) level);

  if (!terrain_relief_init (relief, side, side, &self->limits, "CHU picture", error))
    return FALSE;

  for (guint k = 0; k < self->chunk_count; k++)
    {
      const TerrainChuStub *stub = &self->stubs[k].pub;
      g_autoptr(TerrainChuChunk) chunk = NULL;
      gdouble origin_x = chunk_size * stub->x, origin_y = chunk_size * stub->y;
      guint step;

      if (stub->level != level)
        continue;
      chunk = terrain_chu_file_get_chunk (self, k, error);
      if (chunk == NULL)
        return FALSE;

      step = chunk->strip ? 1 : 3;
      for (guint i = 0; i + 2 < chunk->n_indices; i += step)
        {
          gdouble corner[3][3];
          gboolean valid = TRUE;

          for (guint c = 0; c < 3 && valid; c++)
            {
              guint16 index = chunk->indices[i + c];
              const TerrainChuVertex *v;
              gdouble x, y;

              if (index >= chunk->n_vertices)
                {
                  valid = FALSE;
                  break;
                }
              v = &chunk->vertices[index];
              /* atlas-chu-tqt.md §9b, "Mapping CHU to Atlas geometry". */
              x = (v->x / (gdouble) TERRAIN_CHU_QUANTIZED_HALF * 0.5 + 0.5) * chunk_size + origin_x;
              y = (v->y / (gdouble) TERRAIN_CHU_QUANTIZED_HALF * 0.5 + 0.5) * chunk_size + origin_y;
              corner[c][0] = x / terrain * side;
              corner[c][1] = (terrain - y) / terrain * side;
              corner[c][2] = v->z * scale;
            }
          /* Strips join with degenerate triangles, which draw nothing. */
          if (valid)
            terrain_relief_triangle (relief, corner[0], corner[1], corner[2]);
        }
    }
  return TRUE;
}

/* Shaded relief of the finest level drawn (see fill_relief). */
static TerrainImage *
terrain_chu_file_render_image (TerrainDocument  *document,
                               TerrainRenderOptions *options,
                               GError          **error)
{
  TerrainChuFile *self = TERRAIN_CHU_FILE (document);
  g_auto(TerrainRelief) relief = { 0 };

  (void) options;
  if (!fill_relief (self, &relief, error))
    return NULL;
  return terrain_relief_render (&relief, 0.0, error);
}

/* The same grid as 16 bits, lowest height 0, highest 65535. */
static TerrainImage *
terrain_chu_file_export_heights (TerrainDocument  *document,
                                 GError          **error)
{
  TerrainChuFile *self = TERRAIN_CHU_FILE (document);
  g_auto(TerrainRelief) relief = { 0 };

  if (!fill_relief (self, &relief, error))
    return NULL;
  return terrain_relief_to_gray16 (&relief, error);
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
  document_class->validate = terrain_chu_file_validate;
  document_class->describe = terrain_chu_file_describe;
  document_class->render_image = terrain_chu_file_render_image;
  document_class->export_heights = terrain_chu_file_export_heights;
  document_class->describe_offset = terrain_chu_file_describe_offset;
  document_class->parse = terrain_chu_file_parse;
  document_class->format = TERRAIN_FORMAT_CHU;
}

static void
terrain_chu_file_init (TerrainChuFile *self)
{
}
