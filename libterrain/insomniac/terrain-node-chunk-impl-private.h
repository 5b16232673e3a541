/* terrain-node-chunk-impl-private.h: the internals shared by the files
 * that implement TerrainNodeChunk
 *
 * terrain-node-chunk.c       the type, reading, header accessors
 * terrain-node-chunk-data.c  heights, rasters, textures (decode, edit)
 * terrain-node-chunk-write.c writing
 * terrain-node-chunk-check.c validation and description
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-node-chunk.h"
#include "terrain-node-codec-private.h"
#include "core/terrain-document-private.h"
#include "core/terrain-reader-private.h"

G_BEGIN_DECLS

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

enum {
  BLOCK_CHANGED,
  N_SIGNALS
};

extern guint node_chunk_signals[N_SIGNALS];
/* Section names for messages, and ids for JSON, of the blocks */
extern const char * const node_chunk_block_sections[N_BLOCKS_MAX];
extern const char * const node_chunk_block_ids[N_BLOCKS_MAX];

/* The range of the heights over all samples and over the core. */
typedef struct
{
  gint64 full_min;
  gint64 full_max;
  gint64 core_min;
  gint64 core_max;
} HeightRanges;

/* The document's vfuncs, each in the file of its concern. */
GBytes *node_chunk_save_to_bytes (TerrainDocument  *document,
                                  GError          **error);
GPtrArray *node_chunk_validate (TerrainDocument *document);
JsonNode *node_chunk_describe (TerrainDocument *document);
char *node_chunk_describe_offset (TerrainDocument *document,
                                  gsize            offset);

/* Helpers of terrain-node-chunk.c and -data.c the others call. */
gboolean node_chunk_in_core (guint x,
                             guint y);
BlockKind node_chunk_block_kind (guint b);
void node_chunk_current_bounds (TerrainNodeChunk *self,
                                float             bounds[2]);
gboolean node_chunk_bounds_match (const float         bounds[2],
                                  const HeightRanges *r,
                                  double              scale);
gint node_chunk_guess_level_from_ranges (TerrainNodeChunk    *self,
                                         const HeightRanges  *r,
                                         GError             **error);
float node_chunk_bits_to_float (guint32 bits);
guint32 node_chunk_float_to_bits (float f);
gsize node_chunk_decoded_size (guint b);
TerrainReader node_chunk_block_content (TerrainNodeChunk *self,
                                        guint             b);
TerrainBcFormat node_chunk_texture_format (guint b);
void node_chunk_ranges_init (HeightRanges *r);
void node_chunk_ranges_add_row (guint         y,
                                const gint64 *row,
                                gpointer      user_data);
void node_chunk_sample_ranges (const gint32 *values,
                               HeightRanges *r);

G_END_DECLS
