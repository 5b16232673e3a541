/* terrain-chu-file.h: chunked-LOD geometry trees (.chu)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "core/terrain-document.h"
#include "core/terrain-limits.h"

G_BEGIN_DECLS

/**
 * TERRAIN_CHU_VERSION:
 *
 * Version of TGEA `CHU3` files (atlas-chu-tqt.md §9b).
 */
#define TERRAIN_CHU_VERSION 400

/**
 * TERRAIN_CHU_VERSION_ULRICH:
 *
 * Version of Thatcher Ulrich's own `CHU\0` files (field-notes.md, "Chunked
 * LOD error metric").
 */
#define TERRAIN_CHU_VERSION_ULRICH 9

/**
 * TERRAIN_CHU_QUANTIZED_HALF:
 *
 * Quantised X/Y value of a chunk's edge: vertex coordinates run from
 * -16384 to +16384 across a chunk (§9b, "Mapping CHU to Atlas geometry").
 */
#define TERRAIN_CHU_QUANTIZED_HALF 16384

/**
 * TerrainChuVariant:
 * @TERRAIN_CHU_VARIANT_CHU3: TGEA `CHU3` version 400: 28-byte header, 37-byte
 *   stubs starting with 0xDEADBEEF in any order, chunks framed by 0xBEEF1234
 *   and 0xB1E2E3F4 with an optional collision block (§9b)
 * @TERRAIN_CHU_VARIANT_ULRICH: Thatcher Ulrich's `CHU\0` version 9: 24-byte
 *   header, 33-byte chunk headers in depth-first tree order, unframed chunk
 *   data with triangle-strip indices and the height in the second vertex
 *   coordinate
 *
 * The two layouts a `.chu` file comes in.
 */
typedef enum
{
  TERRAIN_CHU_VARIANT_CHU3,
  TERRAIN_CHU_VARIANT_ULRICH,
} TerrainChuVariant;

/**
 * TerrainChuWords:
 * @TERRAIN_CHU_WORDS_U16: the version and tree depth of the header and each
 *   chunk header's x and z are U16, as Ulrich's viewer (chunklod.cpp) reads
 *   them; every `CHU3` file
 * @TERRAIN_CHU_WORDS_U32: they are U32 (28-byte header, 37-byte chunk
 *   headers), as `.chu` files from some builds of Ulrich's
 *   heightfield_chunker are written; told by the header words (a U16
 *   version 9 followed by a U16 0, then a U32 depth of 1 to
 *   %TERRAIN_QUADTREE_MAX_DEPTH), never guessed
 *
 * The width of the header's version and tree depth and the chunk headers'
 * x and z in Ulrich's `CHU\0` files.
 */
typedef enum
{
  TERRAIN_CHU_WORDS_U16,
  TERRAIN_CHU_WORDS_U32,
} TerrainChuWords;

/**
 * TerrainChuStub:
 * @label: logical node label; in `CHU3` files nodeID(level, y, x) of the
 *   Atlas node the chunk maps to (§9b)
 * @neighbors: four same-level neighbour labels, negative for none (direction
 *   order unknown)
 * @level: tree level, 0 at the root
 * @x: node X coordinate at @level
 * @y: node Y coordinate at @level (Ulrich's files call it z)
 * @min_z: quantised conservative minimum height (units of the vertical scale)
 * @max_z: quantised conservative maximum height
 * @chunk_offset: absolute offset of the chunk (its 0xBEEF1234 sentinel in
 *   `CHU3`, its vertex count in Ulrich's files)
 * @record_offset: absolute offset of the stub record itself
 * @chunk_size: size in bytes of the chunk, derived from its structure (CHU
 *   chunks carry no length)
 *
 * One node of a CHU geometry tree, as stored in its stub (chunk header).
 */
typedef struct _TerrainChuStub TerrainChuStub;

struct _TerrainChuStub
{
  gint32  label;
  gint32  neighbors[4];
  guint8  level;
  gint16  x;
  gint16  y;
  gint16  min_z;
  gint16  max_z;
  guint32 chunk_offset;
  gsize   record_offset;
  gsize   chunk_size;
};

/**
 * TerrainChuVertex:
 * @x: quantised X, -16384..16384 across the chunk (may lie outside for
 *   skirts)
 * @y: quantised Y, likewise
 * @z: quantised height, in units of the vertical scale
 * @morph: height morph delta, in units of the vertical scale
 *
 * One quantised CHU vertex. Ulrich's files store (x, height, y, morph); the
 * reader swaps the middle two so that both variants read the same.
 */
typedef struct _TerrainChuVertex TerrainChuVertex;

struct _TerrainChuVertex
{
  gint16 x;
  gint16 y;
  gint16 z;
  gint16 morph;
};

/**
 * TerrainChuColNode:
 * @min: quantised minimum height of the node's triangles (inferred)
 * @max: quantised maximum height (inferred)
 *
 * One node of a `CHU3` chunk's collision quadtree.
 */
typedef struct _TerrainChuColNode TerrainChuColNode;

struct _TerrainChuColNode
{
  gint16 min;
  gint16 max;
};

#define TERRAIN_TYPE_CHU_CHUNK (terrain_chu_chunk_get_type ())

/**
 * TerrainChuChunk:
 * @offset: absolute offset of the chunk in its file
 * @size: size of the chunk in bytes
 * @n_vertices: number of vertices
 * @vertices: (array length=n_vertices): the vertices
 * @n_indices: number of indices
 * @indices: (array length=n_indices): vertex indices
 * @strip: %TRUE when @indices form one triangle strip (Ulrich's files),
 *   %FALSE for a triangle list (`CHU3`)
 * @tri_count: the stored triangle count (probably the source triangle count)
 * @has_collision: whether a collision block is present (`CHU3` only)
 * @n_col_nodes: number of collision-tree nodes, nodeCount(colTreeDepth)
 * @col_nodes: (array length=n_col_nodes): quantised height range of each
 *   collision-tree node
 * @n_col_offsets: number of collision-grid offsets, 4^(colTreeDepth-1)
 * @col_offsets: (array length=n_col_offsets): collision-grid offsets
 * @n_col_indices: number of collision-buffer entries
 * @col_indices: (array length=n_col_indices): collision buffer; 0xFFFF ends
 *   a cell's list
 *
 * The decoded contents of one CHU chunk (§9b "CHU chunk").
 */
typedef struct _TerrainChuChunk TerrainChuChunk;

struct _TerrainChuChunk
{
  gsize             offset;
  gsize             size;
  guint             n_vertices;
  TerrainChuVertex *vertices;
  guint             n_indices;
  guint16          *indices;
  gboolean          strip;
  guint32           tri_count;
  gboolean          has_collision;
  guint             n_col_nodes;
  TerrainChuColNode *col_nodes;
  guint             n_col_offsets;
  guint16          *col_offsets;
  guint             n_col_indices;
  guint16          *col_indices;
};

TERRAIN_AVAILABLE_IN_ALL
GType            terrain_chu_chunk_get_type (void) G_GNUC_CONST;
TERRAIN_AVAILABLE_IN_ALL
TerrainChuChunk *terrain_chu_chunk_copy     (const TerrainChuChunk *chunk);
TERRAIN_AVAILABLE_IN_ALL
void             terrain_chu_chunk_free     (TerrainChuChunk       *chunk);
TERRAIN_AVAILABLE_IN_ALL
guint            terrain_chu_chunk_count_triangles (const TerrainChuChunk *chunk);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerrainChuChunk, terrain_chu_chunk_free)

#define TERRAIN_TYPE_CHU_FILE (terrain_chu_file_get_type ())

/**
 * TerrainChuFile:
 *
 * A chunked-LOD geometry tree (`.chu`): TGEA's `CHU3` version 400 or Thatcher
 * Ulrich's `CHU\0` version 9 (atlas-chu-tqt.md §9b, field-notes.md).
 *
 * The header and every stub are read up front; each chunk's structure is
 * walked once to check its sentinels and that it lies inside the file, but
 * its arrays are decoded only on request ([method@Terrain.ChuFile.get_chunk]).
 * Stubs keep their file order, which `CHU3` writers do not sort; an unedited
 * file writes back byte for byte. [func@Terrain.chu_import] converts the
 * tree into an Atlas geometry TOC.
 *
 * [method@Terrain.Document.render_image] draws the finest level, or level 6
 * (4096 chunks) in deeper trees, seen from above as shaded relief: the
 * terrain's square (leafDimensions × 2^(treeDepth−1) world units) fills the
 * picture, +X to the right and +Y (north) up; the picture has about one
 * pixel per vertex spacing, at least 256 and at most 4096 pixels (and
 * #TerrainLimits.max_image_side) a side. Where chunks overlap, the highest
 * surface shows. [method@Terrain.Document.export_heights] returns the same
 * grid's heights (z × verticalScale) as 16 bits, the lowest 0 and the
 * highest 65535, pixels no triangle covers 0. Both fail with
 * %TERRAIN_ERROR_INVALID_VALUE when the leaf dimensions are not finite and
 * positive.
 */

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainChuFile, terrain_chu_file, TERRAIN, CHU_FILE, TerrainDocument)

TERRAIN_AVAILABLE_IN_ALL
TerrainChuFile   *terrain_chu_file_new_from_bytes     (GBytes               *bytes,
                                                       const TerrainLimits  *limits,
                                                       GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainChuVariant terrain_chu_file_get_variant        (TerrainChuFile       *self);
TERRAIN_AVAILABLE_IN_ALL
TerrainChuWords   terrain_chu_file_get_words          (TerrainChuFile       *self);
TERRAIN_AVAILABLE_IN_ALL
guint             terrain_chu_file_get_version        (TerrainChuFile       *self);
TERRAIN_AVAILABLE_IN_ALL
guint             terrain_chu_file_get_tree_depth     (TerrainChuFile       *self);
TERRAIN_AVAILABLE_IN_ALL
gfloat            terrain_chu_file_get_base_max_error (TerrainChuFile       *self);
TERRAIN_AVAILABLE_IN_ALL
gfloat            terrain_chu_file_get_vertical_scale (TerrainChuFile       *self);
TERRAIN_AVAILABLE_IN_ALL
gfloat            terrain_chu_file_get_leaf_dimensions (TerrainChuFile      *self);
TERRAIN_AVAILABLE_IN_ALL
gdouble           terrain_chu_file_get_terrain_size   (TerrainChuFile       *self);
TERRAIN_AVAILABLE_IN_ALL
guint32           terrain_chu_file_get_col_tree_depth (TerrainChuFile       *self);
TERRAIN_AVAILABLE_IN_ALL
guint             terrain_chu_file_get_n_stubs        (TerrainChuFile       *self);
TERRAIN_AVAILABLE_IN_ALL
const TerrainChuStub *terrain_chu_file_get_stub       (TerrainChuFile       *self,
                                                       guint                 index);
TERRAIN_AVAILABLE_IN_ALL
gint              terrain_chu_file_lookup_label       (TerrainChuFile       *self,
                                                       gint32                label);
TERRAIN_AVAILABLE_IN_ALL
gint              terrain_chu_file_lookup_node        (TerrainChuFile       *self,
                                                       guint                 level,
                                                       guint                 x,
                                                       guint                 y);
TERRAIN_AVAILABLE_IN_ALL
TerrainChuChunk  *terrain_chu_file_get_chunk          (TerrainChuFile       *self,
                                                       guint                 index,
                                                       GError              **error);

G_END_DECLS
