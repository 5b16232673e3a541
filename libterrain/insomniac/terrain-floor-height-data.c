/* terrain-floor-height-data.c: Insomniac FloorHeightData bodies
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-floor-height-data.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-writer-private.h"

/* insomniac-terrain.md, "FloorHeightData". */
#define OFF_STORED_WORD   0
#define OFF_CELL_SIDE     4
#define OFF_STORED_BYTE   8

#define TR_ZERO           0x00
#define TR_SCALE          0x04
#define TR_UNNAMED        0x08
#define TR_ORIGIN_X       0x0c
#define TR_ORIGIN_Y       0x10
#define TR_ORIGIN_Z       0x14
#define TR_ZERO2          0x18
#define TR_WIDTH          0x1c
#define TR_HEIGHT         0x20
#define TR_REST           0x24

#define MAX_ISSUES        20

struct _TerrainFloorHeightData
{
  TerrainDocument parent_instance;

  GBytes *source;
  gsize file_size;

  guint8 header[TERRAIN_FLOOR_HEADER_SIZE];
  guint8 trailer[TERRAIN_FLOOR_TRAILER_SIZE];
  gsize trailer_offset;

  guint width;             /* grid size in cells; 0 for the empty body */
  guint height;
  guint32 stored_width;    /* as the trailer says */
  guint32 stored_height;
  gsize n_blocks;

  /* Bounded view of the blocks: over the source until the first edit, then
   * over @copy. Every read of block data goes through it. */
  TerrainReader blocks;
  guint8 *copy;
};

G_DEFINE_FINAL_TYPE (TerrainFloorHeightData, terrain_floor_height_data, TERRAIN_TYPE_DOCUMENT)

enum {
  CELLS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static float
le_float (const guint8 *p)
{
  guint32 bits = terrain_get_le32 (p);
  float f;

  memcpy (&f, &bits, sizeof f);
  return f;
}

static void
put_le_float (guint8 *p,
              float   f)
{
  guint32 bits;

  memcpy (&bits, &f, sizeof bits);
  terrain_put_le32 (p, bits);
}

/**
 * terrain_floor_block_decode:
 * @lo: the block's low endpoint
 * @hi: the block's high endpoint
 * @indices: sixteen two-bit indices; cell (row, column) uses bits
 *   2 x (4 x row + column)
 * @words: (out caller-allocates) (array fixed-size=16): the 4x4 words,
 *   row-major
 *
 * Decodes one FloorHeightData block: word = lo + (hi - lo) x index / 3 with
 * integer division (insomniac-terrain.md, "FloorHeightData"). A block with
 * lo > hi, which no inspected body has, decodes with the same formula in
 * signed arithmetic, truncating towards zero.
 */
void
terrain_floor_block_decode (guint16  lo,
                            guint16  hi,
                            guint32  indices,
                            guint16 *words)
{
  gint span = (gint) hi - (gint) lo;

  g_return_if_fail (words != NULL);

  for (guint i = 0; i < 16; i++)
    words[i] = (guint16) (lo + span * (gint) ((indices >> (2 * i)) & 3) / 3);
}

static guint64
block_error (const guint16 *words,
             guint          lo,
             guint          hi,
             guint32       *indices)
{
  guint palette[4];
  guint64 total = 0;

  for (guint k = 0; k < 4; k++)
    palette[k] = lo + (hi - lo) * k / 3;

  *indices = 0;
  for (guint i = 0; i < 16; i++)
    {
      guint64 best = G_MAXUINT64;
      guint best_k = 0;

      for (guint k = 0; k < 4; k++)
        {
          gint64 d = (gint64) words[i] - (gint64) palette[k];
          guint64 e = (guint64) (d * d);

          if (e < best)
            {
              best = e;
              best_k = k;
            }
        }
      total += best;
      *indices |= (guint32) best_k << (2 * i);
    }

  return total;
}

typedef struct
{
  const guint16 *words;
  guint64 error;
  guint lo, hi;
  guint32 indices;
} BlockSearch;

static void
try_endpoints (BlockSearch *search,
               gint64       lo,
               gint64       hi)
{
  guint32 indices;
  guint64 error;

  if (search->error == 0 || lo < 0 || hi > G_MAXUINT16 || lo > hi)
    return;

  error = block_error (search->words, (guint) lo, (guint) hi, &indices);
  if (error < search->error)
    {
      search->error = error;
      search->lo = (guint) lo;
      search->hi = (guint) hi;
      search->indices = indices;
    }
}

/**
 * terrain_floor_block_encode:
 * @words: (array fixed-size=16): 4x4 words, row-major
 * @lo: (out): the low endpoint
 * @hi: (out): the high endpoint, never below @lo
 * @indices: (out): the sixteen two-bit indices
 *
 * Encodes 4x4 words as a FloorHeightData block, choosing the endpoints and
 * indices with the smallest squared error under the decoder's integer
 * formula. The candidates are the range's ends, the endpoints that put the
 * lowest or highest word on an inner index (or both), and a least-squares
 * fit, each nudged by up to two; the search stops at an exact fit. Words
 * that a block decoded to (and any one or two distinct words) are always
 * reproduced exactly.
 *
 * Returns: the squared error of the decoded block against @words
 */
guint64
terrain_floor_block_encode (const guint16 *words,
                            guint16       *lo,
                            guint16       *hi,
                            guint32       *indices)
{
  BlockSearch search = { words, G_MAXUINT64, 0, 0, 0 };
  gint64 min = G_MAXINT64, max = G_MININT64, span;

  g_return_val_if_fail (words != NULL && lo != NULL && hi != NULL && indices != NULL, 0);

  for (guint i = 0; i < 16; i++)
    {
      min = MIN (min, words[i]);
      max = MAX (max, words[i]);
    }
  span = max - min;

  try_endpoints (&search, min, max);

  for (gint d = -2; d <= 2; d++)
    {
      /* hi = max, min on index 1 or 2: min = lo + (max - lo) * i / 3. */
      try_endpoints (&search, (3 * min - max) / 2 + d, max);
      try_endpoints (&search, 3 * min - 2 * max + d, max);
      /* lo = min, max on index 1 or 2. */
      try_endpoints (&search, min, min + 3 * span + d);
      try_endpoints (&search, min, min + (3 * span + 1) / 2 + d);
      /* min on index 1 and max on index 2. */
      for (gint e = -2; e <= 2; e++)
        try_endpoints (&search, min - span + d, max + span + e);
    }

  /* Least squares for the indices found: word ~ lo (1 - w) + hi w. */
  for (guint round = 0; round < 2 && search.error > 0; round++)
    {
      double aa = 0, ab = 0, bb = 0, ax = 0, bx = 0, det;

      for (guint i = 0; i < 16; i++)
        {
          double w = ((search.indices >> (2 * i)) & 3) / 3.0, v = 1 - w;

          aa += v * v;
          ab += v * w;
          bb += w * w;
          ax += v * words[i];
          bx += w * words[i];
        }
      det = aa * bb - ab * ab;
      if (fabs (det) < 1e-9)
        break;

      for (gint d = -1; d <= 1; d++)
        for (gint e = -1; e <= 1; e++)
          try_endpoints (&search, llround ((ax * bb - bx * ab) / det) + d,
                         llround ((bx * aa - ax * ab) / det) + e);
    }

  *lo = (guint16) search.lo;
  *hi = (guint16) search.hi;
  *indices = search.indices;
  return search.error;
}

static const guint8 *
block_peek (TerrainFloorHeightData *self,
            gsize                   index)
{
  TerrainReader reader = self->blocks;
  const guint8 *data = NULL;

  if (!terrain_reader_seek (&reader, index * TERRAIN_FLOOR_BLOCK_SIZE, NULL) ||
      !terrain_reader_peek_bytes (&reader, TERRAIN_FLOOR_BLOCK_SIZE, &data, NULL))
    g_assert_not_reached ();
  return data;
}

static gboolean
terrain_floor_height_data_parse (TerrainDocument         *document,
                                 GBytes                  *bytes,
                                 const TerrainLimits     *limits,
                                 GError                 **error)
{
  TerrainFloorHeightData *self = TERRAIN_FLOOR_HEIGHT_DATA (document);
  TerrainReader reader;
  guint64 cells_x, cells_y, expected_blocks, expected_size;
  float cell_side;

  self->source = g_bytes_ref (bytes);
  if (limits == NULL)
    limits = terrain_limits_get_default ();

  terrain_reader_init (&reader, bytes, "FloorHeightData");
  self->file_size = terrain_reader_get_size (&reader);

  if (self->file_size < TERRAIN_FLOOR_HEADER_SIZE + TERRAIN_FLOOR_TRAILER_SIZE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "FloorHeightData: truncated at byte offset %" G_GSIZE_FORMAT ": even an "
                   "empty grid needs the %d-byte header and the %d-byte trailer",
                   self->file_size, TERRAIN_FLOOR_HEADER_SIZE, TERRAIN_FLOOR_TRAILER_SIZE);
      return FALSE;
    }

  self->trailer_offset = self->file_size - TERRAIN_FLOOR_TRAILER_SIZE;
  if (!terrain_reader_copy_bytes (&reader, TERRAIN_FLOOR_HEADER_SIZE, self->header, error) ||
      !terrain_reader_seek (&reader, self->trailer_offset, error) ||
      !terrain_reader_copy_bytes (&reader, TERRAIN_FLOOR_TRAILER_SIZE, self->trailer, error))
    return FALSE;

  cell_side = le_float (self->header + OFF_CELL_SIDE);
  self->stored_width = terrain_get_le32 (self->trailer + TR_WIDTH);
  self->stored_height = terrain_get_le32 (self->trailer + TR_HEIGHT);

  /* The empty body: cell side 0 and nothing between header and trailer.
   * Its dimensions are kept as stored but describe no cells. */
  if (self->trailer_offset == TERRAIN_FLOOR_HEADER_SIZE && cell_side == 0.0f)
    {
      self->width = self->height = 0;
      self->n_blocks = 0;
      return terrain_reader_sub (&reader, TERRAIN_FLOOR_HEADER_SIZE, 0, "FloorHeightData blocks",
                                 &self->blocks, error);
    }

  /* The trailer's dimensions fix the block count; the body must hold
   * exactly that many blocks between header and trailer. */
  cells_x = ((guint64) self->stored_width + 3) / 4;
  cells_y = ((guint64) self->stored_height + 3) / 4;
  expected_blocks = cells_x * cells_y;
  expected_size = TERRAIN_FLOOR_HEADER_SIZE + TERRAIN_FLOOR_TRAILER_SIZE +
                  expected_blocks * TERRAIN_FLOOR_BLOCK_SIZE;

  if (expected_blocks == 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "FloorHeightData: the trailer's dimensions %ux%u (byte offset %" G_GSIZE_FORMAT
                   ") name no cells, but the cell side at byte offset %d is %g, not the empty "
                   "grid's 0",
                   self->stored_width, self->stored_height, self->trailer_offset + TR_WIDTH,
                   OFF_CELL_SIDE, cell_side);
      return FALSE;
    }
  if (expected_size > self->file_size)
    {
      /* A body cut short has blocks, not a trailer, in its last 51 bytes:
       * their "dimensions" are then seldom multiples of 4 and the stored
       * zero words seldom zero. Say what happened rather than quote them. */
      if (self->stored_width % 4 != 0 || self->stored_height % 4 != 0 ||
          terrain_get_le32 (self->trailer + TR_ZERO) != 0 ||
          terrain_get_le32 (self->trailer + TR_ZERO2) != 0)
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                     "FloorHeightData: truncated at byte offset %" G_GSIZE_FORMAT ": the body "
                     "ends inside its blocks, since its last %d bytes (from byte offset %"
                     G_GSIZE_FORMAT ") are no trailer (they would name %ux%u cells)",
                     self->file_size, TERRAIN_FLOOR_TRAILER_SIZE, self->trailer_offset,
                     self->stored_width, self->stored_height);
      else
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                     "FloorHeightData: truncated at byte offset %" G_GSIZE_FORMAT ": the "
                     "trailer's dimensions %ux%u (byte offset %" G_GSIZE_FORMAT ") need %"
                     G_GUINT64_FORMAT " blocks, a %" G_GUINT64_FORMAT "-byte body",
                     self->file_size, self->stored_width, self->stored_height,
                     self->trailer_offset + TR_WIDTH, expected_blocks, expected_size);
      return FALSE;
    }
  if (expected_size < self->file_size)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "FloorHeightData: the trailer's dimensions %ux%u (byte offset %" G_GSIZE_FORMAT
                   ") need %" G_GUINT64_FORMAT " blocks, a %" G_GUINT64_FORMAT "-byte body; "
                   "this one is %" G_GSIZE_FORMAT " bytes, which leaves %" G_GUINT64_FORMAT
                   " bytes unexplained",
                   self->stored_width, self->stored_height, self->trailer_offset + TR_WIDTH,
                   expected_blocks, expected_size, self->file_size,
                   self->file_size - expected_size);
      return FALSE;
    }
  if (self->stored_width % 4 != 0 || self->stored_height % 4 != 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "FloorHeightData: the trailer's dimensions %ux%u at byte offset %" G_GSIZE_FORMAT
                   " are not multiples of the 4-cell block side",
                   self->stored_width, self->stored_height, self->trailer_offset + TR_WIDTH);
      return FALSE;
    }
  if (!terrain_limits_check_count (limits, self->stored_width, limits->max_cells_per_side,
                                   "cell column", "FloorHeightData trailer",
                                   (goffset) (self->trailer_offset + TR_WIDTH), error) ||
      !terrain_limits_check_count (limits, self->stored_height, limits->max_cells_per_side,
                                   "cell row", "FloorHeightData trailer",
                                   (goffset) (self->trailer_offset + TR_HEIGHT), error) ||
      !terrain_limits_check_alloc (limits, expected_blocks, TERRAIN_FLOOR_BLOCK_SIZE, "blocks",
                                   "FloorHeightData trailer",
                                   (goffset) (self->trailer_offset + TR_WIDTH), error))
    return FALSE;

  self->width = self->stored_width;
  self->height = self->stored_height;
  self->n_blocks = (gsize) expected_blocks;

  return terrain_reader_sub (&reader, TERRAIN_FLOOR_HEADER_SIZE,
                             self->n_blocks * TERRAIN_FLOOR_BLOCK_SIZE, "FloorHeightData blocks",
                             &self->blocks, error);
}

/**
 * terrain_floor_height_data_new_from_bytes:
 * @bytes: a FloorHeightData body (`.fhd`)
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Reads a FloorHeightData body (insomniac-terrain.md, "FloorHeightData").
 * The body has no length field: the trailer is its last 51 bytes, and the
 * dimensions there (multiples of 4, each at most
 * #TerrainLimits.max_cells_per_side) must account for every byte between
 * the 9-byte header and the trailer. A 60-byte body with cell side 0 is the
 * empty grid. Nothing is decoded up front.
 *
 * Returns: (transfer full) (nullable): the grid, or %NULL with
 *   %TERRAIN_ERROR_TRUNCATED (the body is shorter than its dimensions
 *   need; when those are not multiples of 4 or the trailer's zero words are
 *   not zero, the body was cut inside its blocks and the message says so
 *   instead of quoting them), %TERRAIN_ERROR_INVALID_VALUE (longer, or
 *   dimensions that are not multiples of 4) or %TERRAIN_ERROR_LIMIT_EXCEEDED
 */
TerrainFloorHeightData *
terrain_floor_height_data_new_from_bytes (GBytes               *bytes,
                                          const TerrainLimits  *limits,
                                          GError              **error)
{
  TerrainDocument *document = terrain_document_new_from_bytes (TERRAIN_TYPE_FLOOR_HEIGHT_DATA,
                                                               bytes, limits, error);

  return TERRAIN_FLOOR_HEIGHT_DATA (document);
}

/**
 * terrain_floor_height_data_new:
 * @width: cells along x, a multiple of 4, at most 8192
 * @height: cells along y, a multiple of 4, at most 8192
 * @cell_side: side of a cell in metres (2 in the inspected world), or 0
 *   with a 0 x 0 grid for the empty body
 * @error: return location for a #GError
 *
 * Creates a flat grid (every word 0) with the inspected world's header and
 * trailer values: height scale 0.0618794 m per word, the unnamed 338.86, an
 * origin centring the grid on 0, 0 (z origin -3584) and the same 15 final
 * bytes, with @cell_side in its float.
 *
 * Returns: (transfer full) (nullable): the grid, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE for unusable dimensions
 */
TerrainFloorHeightData *
terrain_floor_height_data_new (guint    width,
                               guint    height,
                               float    cell_side,
                               GError **error)
{
  static const guint8 rest[15] = { 1, 1, 4, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0 };
  g_autoptr(TerrainFloorHeightData) self = NULL;
  gsize n_blocks;

  if (width % 4 != 0 || height % 4 != 0 || width > 8192 || height > 8192 ||
      (width == 0) != (height == 0) || ((width == 0) != (cell_side == 0.0f)))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "FloorHeightData: a %ux%u grid with %g-metre cells cannot be made (sides "
                   "must be multiples of 4 up to 8192; only the empty 0x0 grid has cell "
                   "side 0)", width, height, cell_side);
      return NULL;
    }

  self = g_object_new (TERRAIN_TYPE_FLOOR_HEIGHT_DATA, NULL);
  self->width = self->stored_width = width;
  self->height = self->stored_height = height;
  n_blocks = self->n_blocks = (gsize) (width / 4) * (height / 4);

  terrain_put_le32 (self->header + OFF_STORED_WORD, 1);
  put_le_float (self->header + OFF_CELL_SIDE, cell_side);
  self->header[OFF_STORED_BYTE] = 0;

  terrain_put_le32 (self->trailer + TR_SCALE, 0x3d7d7540);
  put_le_float (self->trailer + TR_UNNAMED, 338.86f);
  put_le_float (self->trailer + TR_ORIGIN_X, -(float) width * cell_side / 2);
  put_le_float (self->trailer + TR_ORIGIN_Y, -(float) height * cell_side / 2);
  put_le_float (self->trailer + TR_ORIGIN_Z, -3584.0f);
  terrain_put_le32 (self->trailer + TR_WIDTH, width);
  terrain_put_le32 (self->trailer + TR_HEIGHT, height);
  memcpy (self->trailer + TR_REST, rest, sizeof rest);
  put_le_float (self->trailer + TR_REST + 6, cell_side);

  self->copy = g_malloc0 (MAX (n_blocks * TERRAIN_FLOOR_BLOCK_SIZE, 1));
  terrain_reader_init_data (&self->blocks, self->copy, n_blocks * TERRAIN_FLOOR_BLOCK_SIZE,
                            TERRAIN_FLOOR_HEADER_SIZE, "FloorHeightData blocks");
  self->file_size = TERRAIN_FLOOR_HEADER_SIZE + n_blocks * TERRAIN_FLOOR_BLOCK_SIZE +
                    TERRAIN_FLOOR_TRAILER_SIZE;
  self->trailer_offset = self->file_size - TERRAIN_FLOOR_TRAILER_SIZE;

  terrain_document_set_source (TERRAIN_DOCUMENT (self), NULL, TERRAIN_FORMAT_FLOOR_HEIGHT);
  return g_steal_pointer (&self);
}

/**
 * terrain_floor_height_data_get_width:
 * @self: a #TerrainFloorHeightData
 *
 * Gets the grid's width in cells.
 *
 * Returns: the grid's width in cells (8192 for a whole world, 0 when empty)
 */
guint
terrain_floor_height_data_get_width (TerrainFloorHeightData *self)
{
  g_return_val_if_fail (TERRAIN_IS_FLOOR_HEIGHT_DATA (self), 0);

  return self->width;
}

/**
 * terrain_floor_height_data_get_height:
 * @self: a #TerrainFloorHeightData
 *
 * Gets the grid's height in cells.
 *
 * Returns: the grid's height in cells (along y; 0 when empty)
 */
guint
terrain_floor_height_data_get_height (TerrainFloorHeightData *self)
{
  g_return_val_if_fail (TERRAIN_IS_FLOOR_HEIGHT_DATA (self), 0);

  return self->height;
}

/**
 * terrain_floor_height_data_is_empty:
 * @self: a #TerrainFloorHeightData
 *
 * Checks whether the body is empty.
 *
 * Returns: %TRUE for an empty body (no blocks), like the inspected
 *   WhiteRoom grid
 */
gboolean
terrain_floor_height_data_is_empty (TerrainFloorHeightData *self)
{
  g_return_val_if_fail (TERRAIN_IS_FLOOR_HEIGHT_DATA (self), TRUE);

  return self->n_blocks == 0;
}

/**
 * terrain_floor_height_data_get_cell_side:
 * @self: a #TerrainFloorHeightData
 *
 * Gets the side of a cell in metres.
 *
 * Returns: the side of a cell in metres (2 in the inspected world, 0 in an
 *   empty body)
 */
float
terrain_floor_height_data_get_cell_side (TerrainFloorHeightData *self)
{
  g_return_val_if_fail (TERRAIN_IS_FLOOR_HEIGHT_DATA (self), 0.0f);

  return le_float (self->header + OFF_CELL_SIDE);
}

/**
 * terrain_floor_height_data_get_height_scale:
 * @self: a #TerrainFloorHeightData
 *
 * Gets the number of metres per height word.
 *
 * Returns: metres per height word, from the trailer (0.0618794 in the
 *   inspected world; the interpretation agrees with entity placements
 *   within 0.16 %)
 */
float
terrain_floor_height_data_get_height_scale (TerrainFloorHeightData *self)
{
  g_return_val_if_fail (TERRAIN_IS_FLOOR_HEIGHT_DATA (self), 0.0f);

  return le_float (self->trailer + TR_SCALE);
}

/**
 * terrain_floor_height_data_get_origin:
 * @self: a #TerrainFloorHeightData
 * @x: (out) (optional): x of the grid's first cell corner, metres
 * @y: (out) (optional): y of the grid's first cell corner, metres
 * @z: (out) (optional): the stored z origin; its relation to decoded
 *   heights is unresolved
 *
 * Returns the trailer's origin (-8192, -8192, -3584 in the inspected
 * world).
 */
void
terrain_floor_height_data_get_origin (TerrainFloorHeightData *self,
                                      float                  *x,
                                      float                  *y,
                                      float                  *z)
{
  g_return_if_fail (TERRAIN_IS_FLOOR_HEIGHT_DATA (self));

  if (x != NULL)
    *x = le_float (self->trailer + TR_ORIGIN_X);
  if (y != NULL)
    *y = le_float (self->trailer + TR_ORIGIN_Y);
  if (z != NULL)
    *z = le_float (self->trailer + TR_ORIGIN_Z);
}

/**
 * terrain_floor_height_data_get_trailer:
 * @self: a #TerrainFloorHeightData
 *
 * Gets the trailer as stored.
 *
 * Returns: (transfer none) (array fixed-size=51): the trailer as stored
 */
const guint8 *
terrain_floor_height_data_get_trailer (TerrainFloorHeightData *self)
{
  g_return_val_if_fail (TERRAIN_IS_FLOOR_HEIGHT_DATA (self), NULL);

  return self->trailer;
}

/**
 * terrain_floor_height_data_get_block:
 * @self: a #TerrainFloorHeightData
 * @block_x: block column, below width / 4
 * @block_y: block row, below height / 4
 * @lo: (out) (optional): the low endpoint
 * @hi: (out) (optional): the high endpoint
 * @indices: (out) (optional): the sixteen two-bit indices
 *
 * Reads one stored block.
 */
void
terrain_floor_height_data_get_block (TerrainFloorHeightData *self,
                                     guint                   block_x,
                                     guint                   block_y,
                                     guint16                *lo,
                                     guint16                *hi,
                                     guint32                *indices)
{
  const guint8 *block;

  g_return_if_fail (TERRAIN_IS_FLOOR_HEIGHT_DATA (self));
  g_return_if_fail (block_x < self->width / 4 && block_y < self->height / 4);

  block = block_peek (self, (gsize) block_y * (self->width / 4) + block_x);
  if (lo != NULL)
    *lo = terrain_get_le16 (block);
  if (hi != NULL)
    *hi = terrain_get_le16 (block + 2);
  if (indices != NULL)
    *indices = terrain_get_le32 (block + 4);
}

static void
decode_block_at (TerrainFloorHeightData *self,
                 gsize                   index,
                 guint16                *words)
{
  const guint8 *block = block_peek (self, index);

  terrain_floor_block_decode (terrain_get_le16 (block), terrain_get_le16 (block + 2),
                              terrain_get_le32 (block + 4), words);
}

/**
 * terrain_floor_height_data_get_word:
 * @self: a #TerrainFloorHeightData
 * @x: cell column, below the width
 * @y: cell row, below the height
 *
 * Gets the height word of a cell.
 *
 * Returns: the height word of cell (@x, @y)
 */
guint16
terrain_floor_height_data_get_word (TerrainFloorHeightData *self,
                                    guint                   x,
                                    guint                   y)
{
  guint16 words[16];

  g_return_val_if_fail (TERRAIN_IS_FLOOR_HEIGHT_DATA (self), 0);
  g_return_val_if_fail (x < self->width && y < self->height, 0);

  decode_block_at (self, (gsize) (y / 4) * (self->width / 4) + x / 4, words);
  return words[4 * (y % 4) + x % 4];
}

/**
 * terrain_floor_height_data_get_world_height:
 * @self: a #TerrainFloorHeightData
 * @x: cell column, below the width
 * @y: cell row, below the height
 *
 * Gets the height of a cell in metres.
 *
 * Returns: the cell's word times the height scale, in metres above the
 *   grid's (unresolved) vertical origin
 */
double
terrain_floor_height_data_get_world_height (TerrainFloorHeightData *self,
                                            guint                   x,
                                            guint                   y)
{
  g_return_val_if_fail (TERRAIN_IS_FLOOR_HEIGHT_DATA (self), 0.0);
  g_return_val_if_fail (x < self->width && y < self->height, 0.0);

  return terrain_floor_height_data_get_word (self, x, y) *
         (double) terrain_floor_height_data_get_height_scale (self);
}

static gboolean
check_region (TerrainFloorHeightData *self,
              guint                   x,
              guint                   y,
              guint                   width,
              guint                   height)
{
  return x <= self->width && y <= self->height &&
         width <= self->width - x && height <= self->height - y;
}

/**
 * terrain_floor_height_data_get_region: (skip)
 * @self: a #TerrainFloorHeightData
 * @x: first cell column
 * @y: first cell row
 * @width: columns to read
 * @height: rows to read
 * @words: (out caller-allocates) (array): @width x @height words,
 *   row-major, row 0 = cell row @y
 *
 * Decodes a rectangle of the grid; only the blocks it touches are read.
 *
 * Not introspectable: @words is sized by @width x @height, which no single
 * length describes; bindings call
 * [method@Terrain.FloorHeightData.dup_region] under this name.
 */
void
terrain_floor_height_data_get_region (TerrainFloorHeightData *self,
                                      guint                   x,
                                      guint                   y,
                                      guint                   width,
                                      guint                   height,
                                      guint16                *words)
{
  guint blocks_per_row;

  g_return_if_fail (TERRAIN_IS_FLOOR_HEIGHT_DATA (self));
  g_return_if_fail (check_region (self, x, y, width, height));
  g_return_if_fail (words != NULL || width == 0 || height == 0);

  if (width == 0 || height == 0)
    return;

  blocks_per_row = self->width / 4;
  for (guint by = y / 4; by <= (y + height - 1) / 4; by++)
    for (guint bx = x / 4; bx <= (x + width - 1) / 4; bx++)
      {
        guint16 block[16];

        decode_block_at (self, (gsize) by * blocks_per_row + bx, block);
        for (guint r = 0; r < 4; r++)
          for (guint c = 0; c < 4; c++)
            {
              guint cx = bx * 4 + c, cy = by * 4 + r;

              if (cx >= x && cx < x + width && cy >= y && cy < y + height)
                words[(gsize) (cy - y) * width + (cx - x)] = block[4 * r + c];
            }
      }
}

/**
 * terrain_floor_height_data_dup_region: (rename-to terrain_floor_height_data_get_region)
 * @self: a #TerrainFloorHeightData
 * @x: first cell column
 * @y: first cell row
 * @width: columns to read
 * @height: rows to read
 * @n_words: (out): return location for the number of words, @width x @height
 *
 * Decodes a rectangle of the grid as
 * [method@Terrain.FloorHeightData.get_region] does, into a new array: the
 * form bindings can call. The word of cell (x + i, y + j) is at `j * width
 * + i`.
 *
 * Returns: (transfer full) (array length=n_words): the @n_words words,
 *   row-major, row 0 = cell row @y
 */
guint16 *
terrain_floor_height_data_dup_region (TerrainFloorHeightData *self,
                                      guint                   x,
                                      guint                   y,
                                      guint                   width,
                                      guint                   height,
                                      gsize                  *n_words)
{
  guint16 *words;

  g_return_val_if_fail (TERRAIN_IS_FLOOR_HEIGHT_DATA (self), NULL);
  g_return_val_if_fail (check_region (self, x, y, width, height), NULL);
  g_return_val_if_fail (n_words != NULL, NULL);

  *n_words = (gsize) width * height;
  words = g_new (guint16, MAX (*n_words, 1));
  terrain_floor_height_data_get_region (self, x, y, width, height, words);
  return words;
}

/**
 * terrain_floor_height_data_set_region:
 * @self: a #TerrainFloorHeightData
 * @x: first cell column
 * @y: first cell row
 * @width: columns to write
 * @height: rows to write
 * @words: (array): @width x @height words, row-major
 *
 * Writes a rectangle of the grid. Every block the rectangle touches is
 * re-encoded with [func@Terrain.floor_block_encode] from its new words
 * (cells outside the rectangle keep their old words as far as the block
 * can hold them); a block whose words come out unchanged keeps its bytes.
 * Emits [signal@Terrain.FloorHeightData::cells-changed] when anything
 * changed.
 */
void
terrain_floor_height_data_set_region (TerrainFloorHeightData *self,
                                      guint                   x,
                                      guint                   y,
                                      guint                   width,
                                      guint                   height,
                                      const guint16          *words)
{
  gboolean changed = FALSE;
  guint blocks_per_row;

  g_return_if_fail (TERRAIN_IS_FLOOR_HEIGHT_DATA (self));
  g_return_if_fail (check_region (self, x, y, width, height));
  g_return_if_fail (words != NULL || width == 0 || height == 0);

  if (width == 0 || height == 0)
    return;

  blocks_per_row = self->width / 4;
  for (guint by = y / 4; by <= (y + height - 1) / 4; by++)
    for (guint bx = x / 4; bx <= (x + width - 1) / 4; bx++)
      {
        gsize index = (gsize) by * blocks_per_row + bx;
        guint16 old[16], wanted[16], lo, hi;
        guint32 indices;
        guint8 *block;

        decode_block_at (self, index, old);
        memcpy (wanted, old, sizeof wanted);
        for (guint r = 0; r < 4; r++)
          for (guint c = 0; c < 4; c++)
            {
              guint cx = bx * 4 + c, cy = by * 4 + r;

              if (cx >= x && cx < x + width && cy >= y && cy < y + height)
                wanted[4 * r + c] = words[(gsize) (cy - y) * width + (cx - x)];
            }

        if (memcmp (old, wanted, sizeof old) == 0)
          continue;

        if (self->copy == NULL)
          {
            gsize size = self->n_blocks * TERRAIN_FLOOR_BLOCK_SIZE;

            self->copy = g_malloc (size);
            memcpy (self->copy, block_peek (self, 0), size);
            terrain_reader_init_data (&self->blocks, self->copy, size,
                                      TERRAIN_FLOOR_HEADER_SIZE, "FloorHeightData blocks");
          }

        terrain_floor_block_encode (wanted, &lo, &hi, &indices);
        block = self->copy + index * TERRAIN_FLOOR_BLOCK_SIZE;
        terrain_put_le16 (block, lo);
        terrain_put_le16 (block + 2, hi);
        terrain_put_le32 (block + 4, indices);
        changed = TRUE;
      }

  if (changed)
    {
      terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);
      g_signal_emit (self, signals[CELLS_CHANGED], 0, x, y, width, height);
    }
}

static GBytes *
terrain_floor_height_data_save_to_bytes (TerrainDocument  *document,
                                         GError          **error)
{
  TerrainFloorHeightData *self = TERRAIN_FLOOR_HEIGHT_DATA (document);
  TerrainWriter writer;
  gsize size = self->n_blocks * TERRAIN_FLOOR_BLOCK_SIZE;

  terrain_writer_init (&writer, self->file_size);
  terrain_writer_set_section (&writer, "FloorHeightData");
  terrain_writer_put_bytes (&writer, self->header, TERRAIN_FLOOR_HEADER_SIZE);
  if (size > 0)
    terrain_writer_put_bytes (&writer, block_peek (self, 0), size);
  terrain_writer_put_bytes (&writer, self->trailer, TERRAIN_FLOOR_TRAILER_SIZE);

  return terrain_writer_finish (&writer, error);
}

static GPtrArray *
terrain_floor_height_data_validate (TerrainDocument *document)
{
  TerrainFloorHeightData *self = TERRAIN_FLOOR_HEIGHT_DATA (document);
  g_autoptr(GPtrArray) issues =
    g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  guint64 reversed = 0;
  float cell_side = terrain_floor_height_data_get_cell_side (self);

  if (terrain_get_le32 (self->header + OFF_STORED_WORD) != 1)
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_INFO, "FloorHeightData header",
                                                OFF_STORED_WORD, -1,
                                                "the first word is %u; both inspected bodies "
                                                "hold 1",
                                                terrain_get_le32 (self->header)));
  if (self->header[OFF_STORED_BYTE] != 0)
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_INFO, "FloorHeightData header",
                                                OFF_STORED_BYTE, -1,
                                                "byte 8 is %u; both inspected bodies hold 0",
                                                self->header[OFF_STORED_BYTE]));
  if (self->n_blocks > 0 && !(cell_side > 0.0f))
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_WARNING, "FloorHeightData header",
                                                OFF_CELL_SIDE, -1,
                                                "the cell side is %g metres; a grid with cells "
                                                "needs a positive side", cell_side));
  if (self->n_blocks == 0 && (self->stored_width != 0 || self->stored_height != 0))
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_INFO, "FloorHeightData trailer",
                                                (gint64) (self->trailer_offset + TR_WIDTH), -1,
                                                "the empty body's trailer names %ux%u cells",
                                                self->stored_width, self->stored_height));
  if (terrain_get_le32 (self->trailer + TR_ZERO) != 0 ||
      terrain_get_le32 (self->trailer + TR_ZERO2) != 0)
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_INFO, "FloorHeightData trailer",
                                                (gint64) self->trailer_offset, -1,
                                                "the trailer's stored words at +0 and +24 are "
                                                "%u and %u; both inspected bodies hold 0",
                                                terrain_get_le32 (self->trailer + TR_ZERO),
                                                terrain_get_le32 (self->trailer + TR_ZERO2)));

  /* Every inspected block has lo <= hi. */
  for (gsize i = 0; i < self->n_blocks; i++)
    {
      const guint8 *block = block_peek (self, i);
      guint16 lo = terrain_get_le16 (block), hi = terrain_get_le16 (block + 2);
      TerrainIssue *issue;
      guint bx = (guint) (i % (self->width / 4)), by = (guint) (i / (self->width / 4));

      if (lo <= hi)
        continue;
      if (reversed++ >= MAX_ISSUES)
        continue;

      issue = terrain_issue_new (TERRAIN_SEVERITY_WARNING, "FloorHeightData blocks",
                                 (gint64) (TERRAIN_FLOOR_HEADER_SIZE +
                                           i * TERRAIN_FLOOR_BLOCK_SIZE),
                                 (gint64) i,
                                 "block %" G_GSIZE_FORMAT " (cells x=%u..%u, y=%u..%u) has low "
                                 "endpoint %u above high endpoint %u",
                                 i, bx * 4, bx * 4 + 3, by * 4, by * 4 + 3, lo, hi);
      terrain_issue_set_position (issue, (gint) bx * 4, (gint) by * 4);
      g_ptr_array_add (issues, issue);
    }
  if (reversed > MAX_ISSUES)
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_WARNING, "FloorHeightData blocks",
                                                -1, -1,
                                                "%" G_GUINT64_FORMAT " more blocks have lo > hi "
                                                "(%" G_GUINT64_FORMAT " in all)",
                                                reversed - MAX_ISSUES, reversed));

  return g_steal_pointer (&issues);
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
terrain_floor_height_data_describe (TerrainDocument *document)
{
  TerrainFloorHeightData *self = TERRAIN_FLOOR_HEIGHT_DATA (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  float x, y, z;

  terrain_floor_height_data_get_origin (self, &x, &y, &z);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, terrain_format_get_name (TERRAIN_FORMAT_FLOOR_HEIGHT));
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, (gint64) self->file_size);
  json_builder_set_member_name (builder, "empty");
  json_builder_add_boolean_value (builder, self->n_blocks == 0);
  json_builder_set_member_name (builder, "width");
  json_builder_add_int_value (builder, self->width);
  json_builder_set_member_name (builder, "height");
  json_builder_add_int_value (builder, self->height);
  json_builder_set_member_name (builder, "stored_dimensions");
  json_builder_begin_array (builder);
  json_builder_add_int_value (builder, self->stored_width);
  json_builder_add_int_value (builder, self->stored_height);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "blocks");
  json_builder_add_int_value (builder, (gint64) self->n_blocks);
  json_builder_set_member_name (builder, "cell_side");
  add_float (builder, terrain_floor_height_data_get_cell_side (self));
  json_builder_set_member_name (builder, "height_scale");
  add_float (builder, terrain_floor_height_data_get_height_scale (self));
  json_builder_set_member_name (builder, "unnamed_float");
  add_float (builder, le_float (self->trailer + TR_UNNAMED));
  json_builder_set_member_name (builder, "origin");
  json_builder_begin_array (builder);
  add_float (builder, x);
  add_float (builder, y);
  add_float (builder, z);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "blocks_offset");
  json_builder_add_int_value (builder, TERRAIN_FLOOR_HEADER_SIZE);
  json_builder_set_member_name (builder, "trailer_offset");
  json_builder_add_int_value (builder, (gint64) self->trailer_offset);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static char *
terrain_floor_height_data_describe_offset (TerrainDocument *document,
                                           gsize            offset)
{
  TerrainFloorHeightData *self = TERRAIN_FLOOR_HEIGHT_DATA (document);

  if (offset >= self->file_size)
    return g_strdup ("end of file");
  if (offset < OFF_CELL_SIDE)
    return g_strdup ("FloorHeightData header, stored word");
  if (offset < OFF_STORED_BYTE)
    return g_strdup ("FloorHeightData header, cell side");
  if (offset < TERRAIN_FLOOR_HEADER_SIZE)
    return g_strdup ("FloorHeightData header, stored byte");
  if (offset < self->trailer_offset)
    {
      gsize index = (offset - TERRAIN_FLOOR_HEADER_SIZE) / TERRAIN_FLOOR_BLOCK_SIZE;
      gsize rel = (offset - TERRAIN_FLOOR_HEADER_SIZE) % TERRAIN_FLOOR_BLOCK_SIZE;
      guint bx = (guint) (index % (self->width / 4)), by = (guint) (index / (self->width / 4));

      return g_strdup_printf ("FloorHeightData block %" G_GSIZE_FORMAT " (cells x=%u..%u, "
                              "y=%u..%u), %s",
                              index, bx * 4, bx * 4 + 3, by * 4, by * 4 + 3,
                              rel < 2 ? "low endpoint" : rel < 4 ? "high endpoint" : "indices");
    }
  else
    {
      static const struct { gsize end; const char *name; } fields[] = {
        { TR_SCALE, "stored word" }, { TR_UNNAMED, "height scale" },
        { TR_ORIGIN_X, "unnamed float" }, { TR_ORIGIN_Y, "x origin" },
        { TR_ORIGIN_Z, "y origin" }, { TR_ZERO2, "z origin" }, { TR_WIDTH, "stored word" },
        { TR_HEIGHT, "width" }, { TR_REST, "height" },
        { TERRAIN_FLOOR_TRAILER_SIZE, "remaining bytes" },
      };
      gsize rel = offset - self->trailer_offset;

      for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
        if (rel < fields[i].end)
          return g_strdup_printf ("FloorHeightData trailer, %s", fields[i].name);
    }
  return NULL;
}

static TerrainImage *
terrain_floor_height_data_export_heights (TerrainDocument  *document,
                                          GError          **error)
{
  TerrainFloorHeightData *self = TERRAIN_FLOOR_HEIGHT_DATA (document);
  g_autoptr(TerrainImage) image = NULL;
  g_autofree guint16 *row = NULL;
  guint8 *pixels;
  gsize stride;

  if (self->n_blocks == 0)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                           "FloorHeightData: the grid is empty");
      return NULL;
    }

  image = terrain_image_new (TERRAIN_IMAGE_GRAY16, self->width, self->height, error);
  if (image == NULL)
    return NULL;

  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  row = g_new (guint16, (gsize) self->width * 4);

  /* Four rows of cells (one row of blocks) at a time. */
  for (guint y = 0; y < self->height; y += 4)
    {
      terrain_floor_height_data_get_region (self, 0, y, self->width, 4, row);
      for (guint r = 0; r < 4; r++)
        memcpy (pixels + (gsize) (y + r) * stride, row + (gsize) r * self->width,
                (gsize) self->width * 2);
    }

  return g_steal_pointer (&image);
}

static void
terrain_floor_height_data_finalize (GObject *object)
{
  TerrainFloorHeightData *self = (TerrainFloorHeightData *) object;

  g_clear_pointer (&self->copy, g_free);
  g_clear_pointer (&self->source, g_bytes_unref);

  G_OBJECT_CLASS (terrain_floor_height_data_parent_class)->finalize (object);
}

static void
terrain_floor_height_data_class_init (TerrainFloorHeightDataClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  object_class->finalize = terrain_floor_height_data_finalize;

  document_class->save_to_bytes = terrain_floor_height_data_save_to_bytes;
  document_class->validate = terrain_floor_height_data_validate;
  document_class->describe = terrain_floor_height_data_describe;
  document_class->export_heights = terrain_floor_height_data_export_heights;
  document_class->describe_offset = terrain_floor_height_data_describe_offset;
  document_class->parse = terrain_floor_height_data_parse;
  document_class->format = TERRAIN_FORMAT_FLOOR_HEIGHT;

  /**
   * TerrainFloorHeightData::cells-changed:
   * @self: the grid
   * @x: first cell column changed
   * @y: first cell row changed
   * @width: number of columns
   * @height: number of rows
   *
   * Emitted after [method@Terrain.FloorHeightData.set_region] changed words
   * in a rectangle.
   */
  signals[CELLS_CHANGED] =
    g_signal_new ("cells-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 4, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT);
}

static void
terrain_floor_height_data_init (TerrainFloorHeightData *self)
{
}
