/* terrain-chu-file-impl-private.h: what the files of TerrainChuFile share
 * (terrain-chu-file.c: reading and writing; -check.c: validation;
 * -render.c: description and pictures): the layout constants of
 * atlas-chu-tqt.md §9b and Ulrich's chunklod format, and the instance
 * struct.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "terrain-chu-file.h"
#include "core/terrain-document-private.h"

G_BEGIN_DECLS

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

/* A chunk's bytes in the file, for overlap checks and the description. */
typedef struct
{
  gsize offset;
  gsize size;
  guint stub;
} Span;

/* qsort() order of Spans: by offset. */
gint          chu_compare_spans        (gconstpointer    a,
                                        gconstpointer    b);

/* The IEEE bits of a float header field as the float. */
gfloat        chu_bits_to_float        (guint32          bits);
/* "CHU3" or "CHU", for messages. */
const char   *chu_variant_name         (TerrainChuVariant variant);
/* Where a header field of the 16-bit layout (OFF_*) lies in this file. */
guint         chu_header_offset        (TerrainChuFile  *self,
                                        guint            offset);

/* TerrainDocument virtual functions of the class, in -check.c and
 * -render.c. */
GPtrArray    *chu_file_validate        (TerrainDocument *document);
JsonNode     *chu_file_describe        (TerrainDocument *document);
char         *chu_file_describe_offset (TerrainDocument *document,
                                        gsize            offset);
TerrainImage *chu_file_render_image    (TerrainDocument *document,
                                        TerrainRenderOptions *options,
                                        GError         **error);
TerrainImage *chu_file_export_heights  (TerrainDocument *document,
                                        GError         **error);

G_END_DECLS
