/* terrain-sct-section.c: Total Annihilation editor sections (.sct)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-sct-section.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-writer-private.h"
#include "terrain-tile-private.h"

/* tnt-sct.md, "SCT sections": seven little-endian u32 header words. */
#define HEADER_WORDS          7
#define OFF_VERSION           0
#define OFF_PREVIEW           4
#define OFF_TILE_COUNT        8
#define OFF_TILES             12
#define OFF_WIDTH             16
#define OFF_HEIGHT            20
#define OFF_TILE_MAP          24

#define PREVIEW_BYTES         (TERRAIN_SCT_PREVIEW_SIDE * TERRAIN_SCT_PREVIEW_SIDE)
#define N_BLOCKS              (TERRAIN_SCT_BLOCK_HEIGHTS + 1)

/* Validation reports this many bad tile indices one by one, then a count. */
#define MAX_TILE_ISSUES       20


G_STATIC_ASSERT (HEADER_WORDS * 4 == TERRAIN_SCT_HEADER_SIZE);

typedef struct
{
  gsize offset;
  gsize size;
  /* Bounded view of the block: over the source bytes until the block is first
   * edited, then over @copy. Every read of block data goes through it. */
  TerrainReader view;
  guint8 *copy;
} SctBlock;

struct _TerrainSctSection
{
  TerrainDocument parent_instance;

  GBytes *source;
  gsize file_size;

  guint32 version;
  guint32 preview_offset;
  guint32 tile_count;
  guint32 tiles_offset;
  guint32 width;
  guint32 height;
  guint32 tile_map_offset;

  gsize record_size;
  SctBlock blocks[N_BLOCKS];
};

G_DEFINE_FINAL_TYPE (TerrainSctSection, terrain_sct_section, TERRAIN_TYPE_DOCUMENT)

enum {
  CELLS_CHANGED,
  TILES_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Names for messages and offset descriptions, and for `terrain info`. */
static const char * const block_names[N_BLOCKS] = {
  [TERRAIN_SCT_BLOCK_HEADER] = "header",
  [TERRAIN_SCT_BLOCK_PREVIEW] = "preview",
  [TERRAIN_SCT_BLOCK_TILES] = "tile graphics",
  [TERRAIN_SCT_BLOCK_TILE_MAP] = "tile index grid",
  [TERRAIN_SCT_BLOCK_HEIGHTS] = "height records",
};

static const char * const block_ids[N_BLOCKS] = {
  [TERRAIN_SCT_BLOCK_HEADER] = "header",
  [TERRAIN_SCT_BLOCK_PREVIEW] = "preview",
  [TERRAIN_SCT_BLOCK_TILES] = "tiles",
  [TERRAIN_SCT_BLOCK_TILE_MAP] = "tile_map",
  [TERRAIN_SCT_BLOCK_HEIGHTS] = "heights",
};

static const char * const header_fields[HEADER_WORDS] = {
  "version",
  "preview offset",
  "tile count",
  "tile graphics offset",
  "width",
  "height",
  "tile index offset",
};

/* Byte offset of the header word pointing at a block, or -1 when the block's
 * position is implied (the header itself, the height records). */
static const gint block_pointers[N_BLOCKS] = {
  [TERRAIN_SCT_BLOCK_HEADER] = -1,
  [TERRAIN_SCT_BLOCK_PREVIEW] = OFF_PREVIEW,
  [TERRAIN_SCT_BLOCK_TILES] = OFF_TILES,
  [TERRAIN_SCT_BLOCK_TILE_MAP] = OFF_TILE_MAP,
  [TERRAIN_SCT_BLOCK_HEIGHTS] = -1,
};

/* Borrows @size bytes at @offset of a block. The spans were validated when
 * the file was read and callers check their indices, so failure is a bug. */
static const guint8 *
block_peek (const SctBlock *block,
            gsize           offset,
            gsize           size)
{
  TerrainReader reader = block->view;
  const guint8 *data = NULL;

  if (!terrain_reader_seek (&reader, offset, NULL) ||
      !terrain_reader_peek_bytes (&reader, size, &data, NULL))
    g_assert_not_reached ();

  return data;
}

static guint16
block_read_u16 (const SctBlock *block,
                gsize           offset)
{
  TerrainReader reader = block->view;
  guint16 value = 0;

  if (!terrain_reader_seek (&reader, offset, NULL) ||
      !terrain_reader_read_u16 (&reader, &value, NULL))
    g_assert_not_reached ();

  return value;
}

/* Copy-on-write: the first edit of a block copies it out of the source and
 * points its view at the copy; later reads and the writer use the copy. */
static guint8 *
block_ensure_copy (SctBlock   *block,
                   const char *section)
{
  if (block->copy == NULL)
    {
      block->copy = g_malloc (block->size);
      memcpy (block->copy, block_peek (block, 0, block->size), block->size);
      terrain_reader_init_data (&block->view, block->copy, block->size,
                                (goffset) block->offset, section);
    }

  return block->copy;
}

static gint
compare_block_offsets (gconstpointer a,
                       gconstpointer b,
                       gpointer      user_data)
{
  const SctBlock *blocks = user_data;
  TerrainSctBlock ba = *(const TerrainSctBlock *) a;
  TerrainSctBlock bb = *(const TerrainSctBlock *) b;

  if (blocks[ba].offset != blocks[bb].offset)
    return blocks[ba].offset < blocks[bb].offset ? -1 : 1;
  if (blocks[ba].size != blocks[bb].size)
    return blocks[ba].size < blocks[bb].size ? -1 : 1;
  return (gint) ba - (gint) bb;
}

/* Fills @order with the blocks sorted by file offset. */
static void
sort_blocks (const SctBlock  *blocks,
             TerrainSctBlock  order[N_BLOCKS])
{
  for (guint i = 0; i < N_BLOCKS; i++)
    order[i] = (TerrainSctBlock) i;
  g_qsort_with_data (order, N_BLOCKS, sizeof order[0], compare_block_offsets, (gpointer) blocks);
}

static void
terrain_sct_section_cell_position (TerrainSctSection *self,
                                   guint64            record,
                                   guint             *x,
                                   guint             *y)
{
  guint64 columns = 2 * (guint64) self->width;

  *x = (guint) (record % columns);
  *y = (guint) (record / columns);
}

/* Reports a height-record span that runs past the end of the file, naming
 * the first record that is missing or incomplete. */
static void
set_heights_truncated (TerrainSctSection  *self,
                       guint64             offset,
                       guint64             count,
                       GError            **error)
{
  guint64 available = self->file_size > offset ? self->file_size - offset : 0;
  guint64 record = available / self->record_size;
  guint64 partial = available % self->record_size;
  guint64 record_offset = offset + record * self->record_size;
  guint x, y;

  terrain_sct_section_cell_position (self, record, &x, &y);

  if (partial > 0)
    g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                 "SCT height records: record %" G_GUINT64_FORMAT " (x=%u, y=%u) of %"
                 G_GUINT64_FORMAT " at byte offset %" G_GUINT64_FORMAT " is incomplete: a "
                 "version %u record is %" G_GSIZE_FORMAT " bytes, only %" G_GUINT64_FORMAT
                 " remain before the end of the file (%" G_GSIZE_FORMAT " bytes)",
                 record, x, y, count, record_offset, self->version, self->record_size,
                 partial, self->file_size);
  else
    g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                 "SCT height records: the file ends at byte offset %" G_GSIZE_FORMAT
                 " before record %" G_GUINT64_FORMAT " (x=%u, y=%u) of %" G_GUINT64_FORMAT
                 "; version %u records are %" G_GSIZE_FORMAT " bytes each, starting at byte "
                 "offset %" G_GUINT64_FORMAT,
                 self->file_size, record, x, y, count, self->version, self->record_size,
                 offset);
}

static gboolean
terrain_sct_section_parse (TerrainDocument      *document,
                           GBytes               *bytes,
                           const TerrainLimits  *limits,
                           GError              **error)
{
  TerrainSctSection *self = TERRAIN_SCT_SECTION (document);
  TerrainReader reader;
  TerrainSctBlock order[N_BLOCKS];
  guint64 tiles_size, map_cells, map_size, records, heights_size, heights_offset;
  guint32 words[HEADER_WORDS];

  self->source = g_bytes_ref (bytes);
  if (limits == NULL)
    limits = terrain_limits_get_default ();

  terrain_reader_init (&reader, bytes, "SCT");
  self->file_size = terrain_reader_get_size (&reader);

  if (!terrain_reader_check_span (&reader, 0, TERRAIN_SCT_HEADER_SIZE, "28-byte header", error))
    return FALSE;
  for (guint i = 0; i < HEADER_WORDS; i++)
    if (!terrain_reader_read_u32 (&reader, &words[i], error))
      return FALSE;

  self->version = words[OFF_VERSION / 4];
  self->preview_offset = words[OFF_PREVIEW / 4];
  self->tile_count = words[OFF_TILE_COUNT / 4];
  self->tiles_offset = words[OFF_TILES / 4];
  self->width = words[OFF_WIDTH / 4];
  self->height = words[OFF_HEIGHT / 4];
  self->tile_map_offset = words[OFF_TILE_MAP / 4];

  if (self->version != 2 && self->version != 3)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNSUPPORTED_VERSION,
                   "SCT header: version %u at byte offset %d is not supported "
                   "(only versions 2 and 3 are known)",
                   self->version, OFF_VERSION);
      return FALSE;
    }
  self->record_size = self->version == 2 ? 8 : 4;

  if (self->width == 0 || self->height == 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "SCT header: the tile grid is %ux%u (width at byte offset %d, height at "
                   "byte offset %d); both sides must be at least 1",
                   self->width, self->height, OFF_WIDTH, OFF_HEIGHT);
      return FALSE;
    }

  /* Counts against the budget first, so a tiny file claiming billions of
   * tiles or cells fails here, before any span arithmetic or allocation. */
  if (!terrain_limits_check_count (limits, self->width, limits->max_cells_per_side,
                                   "tile-grid column", "SCT header", OFF_WIDTH, error) ||
      !terrain_limits_check_count (limits, self->height, limits->max_cells_per_side,
                                   "tile-grid row", "SCT header", OFF_HEIGHT, error) ||
      !terrain_limits_check_count (limits, self->tile_count, limits->max_tiles,
                                   "tile", "SCT header", OFF_TILE_COUNT, error))
    return FALSE;

  if (!g_uint64_checked_mul (&map_cells, self->width, self->height) ||
      !g_uint64_checked_mul (&records, map_cells, 4) ||
      !g_uint64_checked_mul (&map_size, map_cells, 2) ||
      !g_uint64_checked_mul (&heights_size, records, self->record_size) ||
      !g_uint64_checked_mul (&tiles_size, self->tile_count, TERRAIN_SCT_TILE_BYTES) ||
      !g_uint64_checked_add (&heights_offset, self->tile_map_offset, map_size))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "SCT header: a %ux%u tile grid with %u tiles overflows 64-bit sizes",
                   self->width, self->height, self->tile_count);
      return FALSE;
    }

  /* The tile index grid and the height records are copied when first edited;
   * the tile graphics are bounded too, so no span can exceed the budget. */
  if (!terrain_limits_check_alloc (limits, map_cells, 2, "tile index grid",
                                   "SCT header", OFF_WIDTH, error) ||
      !terrain_limits_check_alloc (limits, records, self->record_size, "height records",
                                   "SCT header", OFF_WIDTH, error) ||
      !terrain_limits_check_alloc (limits, self->tile_count, TERRAIN_SCT_TILE_BYTES,
                                   "tile graphics", "SCT header", OFF_TILE_COUNT, error))
    return FALSE;

  self->blocks[TERRAIN_SCT_BLOCK_HEADER].offset = 0;
  self->blocks[TERRAIN_SCT_BLOCK_HEADER].size = TERRAIN_SCT_HEADER_SIZE;
  self->blocks[TERRAIN_SCT_BLOCK_PREVIEW].offset = self->preview_offset;
  self->blocks[TERRAIN_SCT_BLOCK_PREVIEW].size = PREVIEW_BYTES;
  self->blocks[TERRAIN_SCT_BLOCK_TILES].offset = self->tiles_offset;
  self->blocks[TERRAIN_SCT_BLOCK_TILES].size = (gsize) tiles_size;
  self->blocks[TERRAIN_SCT_BLOCK_TILE_MAP].offset = self->tile_map_offset;
  self->blocks[TERRAIN_SCT_BLOCK_TILE_MAP].size = (gsize) map_size;

  /* The height records are not pointed to: they follow the tile index grid,
   * wherever the header puts that. An offset past G_MAXSIZE cannot fit. */
  if (heights_offset > G_MAXSIZE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "SCT height records: start at byte offset %" G_GUINT64_FORMAT
                   ", beyond the end of the file (%" G_GSIZE_FORMAT " bytes)",
                   heights_offset, self->file_size);
      return FALSE;
    }
  self->blocks[TERRAIN_SCT_BLOCK_HEIGHTS].offset = (gsize) heights_offset;
  self->blocks[TERRAIN_SCT_BLOCK_HEIGHTS].size = (gsize) heights_size;

  /* Check the spans in file order, so that a truncated file is reported at
   * the block where it ends: the first block that does not fit either starts
   * inside the file and runs past its end (truncated) or starts beyond it (a
   * bad pointer, or a cut in the gap before it). */
  sort_blocks (self->blocks, order);
  for (guint i = 0; i < N_BLOCKS; i++)
    {
      TerrainSctBlock b = order[i];
      SctBlock *block = &self->blocks[b];
      g_autofree char *what = NULL;
      g_autoptr(GError) local_error = NULL;

      if (block_pointers[b] >= 0)
        what = g_strdup_printf ("%s (header pointer at byte offset %d)",
                                block_names[b], block_pointers[b]);
      else
        what = g_strdup (block_names[b]);

      if (!terrain_reader_check_span (&reader, block->offset, block->size, what, &local_error))
        {
          if (b == TERRAIN_SCT_BLOCK_HEIGHTS &&
              g_error_matches (local_error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED))
            set_heights_truncated (self, block->offset, records, error);
          else
            g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }

      if (!terrain_reader_sub (&reader, block->offset, block->size, block_names[b],
                               &block->view, error))
        return FALSE;
    }

  /* No two blocks may share a byte, including the complete version-specific
   * height-record span and the header. Empty blocks (zero tiles) hold no
   * bytes and cannot overlap. */
  {
    gsize reach = 0;
    gint reach_block = -1;

    for (guint i = 0; i < N_BLOCKS; i++)
      {
        TerrainSctBlock b = order[i];
        const SctBlock *block = &self->blocks[b];

        if (block->size == 0)
          continue;

        if (reach_block >= 0 && block->offset < reach)
          {
            const SctBlock *other = &self->blocks[reach_block];

            g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP,
                         "SCT: %s%s (bytes %" G_GSIZE_FORMAT " to %" G_GSIZE_FORMAT ") and "
                         "%s (bytes %" G_GSIZE_FORMAT " to %" G_GSIZE_FORMAT ") overlap",
                         reach_block == TERRAIN_SCT_BLOCK_HEADER ? "the 28-byte " : "",
                         block_names[reach_block], other->offset,
                         other->offset + other->size - 1,
                         block_names[b], block->offset, block->offset + block->size - 1);
            return FALSE;
          }

        if (block->offset + block->size > reach)
          {
            reach = block->offset + block->size;
            reach_block = (gint) b;
          }
      }
  }

  return TRUE;
}

/**
 * terrain_sct_section_new_from_bytes:
 * @bytes: the contents of an `.sct` file
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Reads a Total Annihilation editor section (tnt-sct.md, "SCT sections").
 *
 * The seven-word header is checked first: its version must be 2 or 3, its
 * tile grid at least 1x1 and within [struct@Terrain.Limits] (width and height
 * at most `max_cells_per_side`, the tile count at most `max_tiles`, every
 * block within `max_allocation`). Then every block — the 128x128 preview,
 * the tile graphics, the tile index grid and the height records that follow
 * it — must lie inside the file, and no two blocks (the header included)
 * may share a byte. Block order and gaps between blocks are free.
 *
 * Nothing is decoded up front: the section keeps a reference to @bytes and
 * reads its blocks from it on demand, copying a block only when it is first
 * edited. An unedited section writes back byte for byte.
 *
 * Returns: (transfer full) (nullable): the section, or %NULL with a
 *   %TERRAIN_ERROR set: %TERRAIN_ERROR_TRUNCATED when the header or a block
 *   runs past the end of the file (for the height records, the message names
 *   the first missing or incomplete record), %TERRAIN_ERROR_OUT_OF_RANGE when
 *   a block starts beyond the end of the file, %TERRAIN_ERROR_UNSUPPORTED_VERSION,
 *   %TERRAIN_ERROR_INVALID_VALUE for a zero width or height,
 *   %TERRAIN_ERROR_OVERLAP for blocks sharing bytes, or
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED
 */
TerrainSctSection *
terrain_sct_section_new_from_bytes (GBytes               *bytes,
                                    const TerrainLimits  *limits,
                                    GError              **error)
{
  return TERRAIN_SCT_SECTION (terrain_document_new_from_bytes (TERRAIN_TYPE_SCT_SECTION, bytes,
                                                               limits, error));
}

/**
 * terrain_sct_section_get_version:
 * @self: a #TerrainSctSection
 *
 * Gets the version word.
 *
 * Returns: the version word, 2 or 3; it fixes the height-record size
 */
guint32
terrain_sct_section_get_version (TerrainSctSection *self)
{
  g_return_val_if_fail (TERRAIN_IS_SCT_SECTION (self), 0);

  return self->version;
}

/**
 * terrain_sct_section_get_width:
 * @self: a #TerrainSctSection
 *
 * Gets the number of tile-grid columns.
 *
 * Returns: the number of tile-grid columns (32-pixel tiles); the height grid
 *   has twice as many columns
 */
guint
terrain_sct_section_get_width (TerrainSctSection *self)
{
  g_return_val_if_fail (TERRAIN_IS_SCT_SECTION (self), 0);

  return self->width;
}

/**
 * terrain_sct_section_get_height:
 * @self: a #TerrainSctSection
 *
 * Gets the number of tile-grid rows.
 *
 * Returns: the number of tile-grid rows (32-pixel tiles); the height grid has
 *   twice as many rows
 */
guint
terrain_sct_section_get_height (TerrainSctSection *self)
{
  g_return_val_if_fail (TERRAIN_IS_SCT_SECTION (self), 0);

  return self->height;
}

/**
 * terrain_sct_section_get_record_size:
 * @self: a #TerrainSctSection
 *
 * Gets the size of one height record in bytes.
 *
 * Returns: the size of one height record in bytes: 8 in version 2, 4 in
 *   version 3 (tnt-sct.md, "SCT sections")
 */
gsize
terrain_sct_section_get_record_size (TerrainSctSection *self)
{
  g_return_val_if_fail (TERRAIN_IS_SCT_SECTION (self), 0);

  return self->record_size;
}

/**
 * terrain_sct_section_get_block_span:
 * @self: a #TerrainSctSection
 * @block: a block
 * @offset: (out) (optional): the block's byte offset in the file
 * @size: (out) (optional): the block's size in bytes
 *
 * Locates a block in the file the section was read from. Blocks never move:
 * edits are written back in place.
 *
 * Returns: %TRUE, or %FALSE if @block is not a #TerrainSctBlock
 */
gboolean
terrain_sct_section_get_block_span (TerrainSctSection *self,
                                    TerrainSctBlock    block,
                                    gsize             *offset,
                                    gsize             *size)
{
  g_return_val_if_fail (TERRAIN_IS_SCT_SECTION (self), FALSE);

  if ((guint) block >= N_BLOCKS)
    return FALSE;

  if (offset != NULL)
    *offset = self->blocks[block].offset;
  if (size != NULL)
    *size = self->blocks[block].size;

  return TRUE;
}

/**
 * terrain_sct_section_get_n_tiles:
 * @self: a #TerrainSctSection
 *
 * Gets the number of 32x32 tiles.
 *
 * Returns: the number of 32x32 tiles in the tile graphics block
 */
guint
terrain_sct_section_get_n_tiles (TerrainSctSection *self)
{
  g_return_val_if_fail (TERRAIN_IS_SCT_SECTION (self), 0);

  return self->tile_count;
}

/**
 * terrain_sct_section_get_tile:
 * @self: a #TerrainSctSection
 * @index: a tile number, less than [method@Terrain.SctSection.get_n_tiles]
 *
 * Returns one tile's graphics: 32x32 palette indices, row-major, top row
 * first.
 *
 * Returns: (transfer none) (array fixed-size=1024): the tile's pixels, valid
 *   as long as @self
 */
const guint8 *
terrain_sct_section_get_tile (TerrainSctSection *self,
                              guint              index)
{
  g_return_val_if_fail (TERRAIN_IS_SCT_SECTION (self), NULL);
  g_return_val_if_fail (index < self->tile_count, NULL);

  return block_peek (&self->blocks[TERRAIN_SCT_BLOCK_TILES],
                     (gsize) index * TERRAIN_SCT_TILE_BYTES, TERRAIN_SCT_TILE_BYTES);
}

/**
 * terrain_sct_section_get_tile_index:
 * @self: a #TerrainSctSection
 * @column: tile-grid column, less than [method@Terrain.SctSection.get_width]
 * @row: tile-grid row, less than [method@Terrain.SctSection.get_height]
 *
 * Gets the tile drawn at a tile-grid position.
 *
 * Returns: the tile drawn at (@column, @row); it may be out of range for the
 *   tile graphics, see [method@Terrain.Document.validate]
 */
guint16
terrain_sct_section_get_tile_index (TerrainSctSection *self,
                                    guint              column,
                                    guint              row)
{
  g_return_val_if_fail (TERRAIN_IS_SCT_SECTION (self), 0);
  g_return_val_if_fail (column < self->width, 0);
  g_return_val_if_fail (row < self->height, 0);

  return block_read_u16 (&self->blocks[TERRAIN_SCT_BLOCK_TILE_MAP],
                         2 * ((gsize) row * self->width + column));
}

/**
 * terrain_sct_section_set_tile_index:
 * @self: a #TerrainSctSection
 * @column: tile-grid column, less than [method@Terrain.SctSection.get_width]
 * @row: tile-grid row, less than [method@Terrain.SctSection.get_height]
 * @tile: the tile to draw there
 *
 * Changes one entry of the tile index grid: writing the section then changes
 * only its two bytes. Emits [signal@Terrain.SctSection::tiles-changed] and
 * marks the document modified, unless the entry already holds @tile. A tile
 * number without graphics is accepted and reported by validation.
 */
void
terrain_sct_section_set_tile_index (TerrainSctSection *self,
                                    guint              column,
                                    guint              row,
                                    guint16            tile)
{
  SctBlock *block;
  gsize offset;

  g_return_if_fail (TERRAIN_IS_SCT_SECTION (self));
  g_return_if_fail (column < self->width);
  g_return_if_fail (row < self->height);

  block = &self->blocks[TERRAIN_SCT_BLOCK_TILE_MAP];
  offset = 2 * ((gsize) row * self->width + column);
  if (block_read_u16 (block, offset) == tile)
    return;

  terrain_put_le16 (block_ensure_copy (block, block_names[TERRAIN_SCT_BLOCK_TILE_MAP]) + offset,
                    tile);

  terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);
  g_signal_emit (self, signals[TILES_CHANGED], 0, column, row, 1u, 1u);
}

static gboolean
check_cell (TerrainSctSection *self,
            guint              x,
            guint              y)
{
  return (guint64) x < 2 * (guint64) self->width && (guint64) y < 2 * (guint64) self->height;
}

static gsize
record_offset (TerrainSctSection *self,
               guint              x,
               guint              y)
{
  return ((gsize) y * 2 * self->width + x) * self->record_size;
}

/**
 * terrain_sct_section_get_cell_height:
 * @self: a #TerrainSctSection
 * @x: height-grid column, less than twice [method@Terrain.SctSection.get_width]
 * @y: height-grid row, less than twice [method@Terrain.SctSection.get_height]
 *
 * Reads byte +0 of a height record: the unsigned height the editors copy
 * into their height grid (tnt-sct.md, "SCT sections").
 *
 * Returns: the height, 0 to 255
 */
guint8
terrain_sct_section_get_cell_height (TerrainSctSection *self,
                                     guint              x,
                                     guint              y)
{
  g_return_val_if_fail (TERRAIN_IS_SCT_SECTION (self), 0);
  g_return_val_if_fail (check_cell (self, x, y), 0);

  return block_peek (&self->blocks[TERRAIN_SCT_BLOCK_HEIGHTS], record_offset (self, x, y), 1)[0];
}

/**
 * terrain_sct_section_set_cell_height:
 * @self: a #TerrainSctSection
 * @x: height-grid column, less than twice [method@Terrain.SctSection.get_width]
 * @y: height-grid row, less than twice [method@Terrain.SctSection.get_height]
 * @height: the new height
 *
 * Changes byte +0 of one height record; the record's other bytes, whose
 * meaning is unknown, are kept. Emits [signal@Terrain.SctSection::cells-changed]
 * and marks the document modified, unless the height is already @height.
 */
void
terrain_sct_section_set_cell_height (TerrainSctSection *self,
                                     guint              x,
                                     guint              y,
                                     guint8             height)
{
  SctBlock *block;
  gsize offset;

  g_return_if_fail (TERRAIN_IS_SCT_SECTION (self));
  g_return_if_fail (check_cell (self, x, y));

  block = &self->blocks[TERRAIN_SCT_BLOCK_HEIGHTS];
  offset = record_offset (self, x, y);
  if (block_peek (block, offset, 1)[0] == height)
    return;

  block_ensure_copy (block, block_names[TERRAIN_SCT_BLOCK_HEIGHTS])[offset] = height;

  terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);
  g_signal_emit (self, signals[CELLS_CHANGED], 0, x, y, 1u, 1u);
}

/**
 * terrain_sct_section_get_height_record:
 * @self: a #TerrainSctSection
 * @x: height-grid column, less than twice [method@Terrain.SctSection.get_width]
 * @y: height-grid row, less than twice [method@Terrain.SctSection.get_height]
 * @size: (out) (optional): the record size, 8 (version 2) or 4 (version 3)
 *
 * Returns a raw height record: byte +0 is the height; the other bytes are
 * kept verbatim without an assigned meaning (observed `01 FF 00 00 00 00 00`
 * in version 2 and `FF FF 00` in version 3).
 *
 * Returns: (transfer none) (array length=size): the record's bytes, valid
 *   until the next height edit
 */
const guint8 *
terrain_sct_section_get_height_record (TerrainSctSection *self,
                                       guint              x,
                                       guint              y,
                                       gsize             *size)
{
  g_return_val_if_fail (TERRAIN_IS_SCT_SECTION (self), NULL);
  g_return_val_if_fail (check_cell (self, x, y), NULL);

  if (size != NULL)
    *size = self->record_size;

  return block_peek (&self->blocks[TERRAIN_SCT_BLOCK_HEIGHTS],
                     record_offset (self, x, y), self->record_size);
}

/**
 * terrain_sct_section_get_preview:
 * @self: a #TerrainSctSection
 *
 * Returns the section's preview: 128x128 palette indices, row-major.
 *
 * Returns: (transfer none) (array fixed-size=16384): the preview pixels,
 *   valid as long as @self
 */
const guint8 *
terrain_sct_section_get_preview (TerrainSctSection *self)
{
  g_return_val_if_fail (TERRAIN_IS_SCT_SECTION (self), NULL);

  return block_peek (&self->blocks[TERRAIN_SCT_BLOCK_PREVIEW], 0, PREVIEW_BYTES);
}

static TerrainImage *render_tiles (TerrainSctSection  *self,
                                   const guint8       *rgba,
                                   GError            **error);

static gboolean
check_palette (const guint8  *rgba,
               const char    *what,
               GError       **error)
{
  if (rgba != NULL)
    return TRUE;

  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
               "SCT: rendering the %s needs a palette (sections store palette indices)",
               what);
  return FALSE;
}

/**
 * terrain_sct_section_render:
 * @self: a #TerrainSctSection
 * @palette: the palette the tiles index
 * @error: return location for a #GError
 *
 * Draws every tile of the tile grid through @palette: an RGBA image of
 * (32 x width) x (32 x height) pixels. A tile index without graphics is drawn
 * as a magenta and black checker of 8-pixel squares (magenta in the tile's
 * top-left square).
 *
 * Returns: (transfer full) (nullable): the image, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE when @palette is %NULL, or
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED when the image would be too large
 */
TerrainImage *
terrain_sct_section_render (TerrainSctSection  *self,
                            TerrainPalette     *palette,
                            GError            **error)
{
  g_return_val_if_fail (TERRAIN_IS_SCT_SECTION (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return render_tiles (self, palette != NULL ? terrain_palette_get_rgba_table (palette) : NULL,
                       error);
}

/* The tile grid through a 256-entry RGBA table (a palette's or the render
 * options'); NULL fails. */
static TerrainImage *
render_tiles (TerrainSctSection  *self,
              const guint8       *rgba,
              GError            **error)
{
  g_autoptr(TerrainImage) image = NULL;
  const SctBlock *tiles;
  guint8 *pixels;
  gsize stride;
  guint32 image_width, image_height;

  if (!check_palette (rgba, "tile grid", error))
    return NULL;

  if (!g_uint_checked_mul (&image_width, self->width, TERRAIN_SCT_TILE_PIXELS) ||
      !g_uint_checked_mul (&image_height, self->height, TERRAIN_SCT_TILE_PIXELS))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "SCT: a %ux%u tile grid is too large to render", self->width, self->height);
      return NULL;
    }

  image = terrain_image_new (TERRAIN_IMAGE_RGBA8, image_width, image_height, error);
  if (image == NULL)
    return NULL;

  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  tiles = &self->blocks[TERRAIN_SCT_BLOCK_TILES];

  for (guint row = 0; row < self->height; row++)
    for (guint column = 0; column < self->width; column++)
      {
        guint16 index = terrain_sct_section_get_tile_index (self, column, row);
        const guint8 *tile = NULL;
        guint8 *dest = pixels + (gsize) row * TERRAIN_SCT_TILE_PIXELS * stride +
                       (gsize) column * TERRAIN_SCT_TILE_PIXELS * 4;

        if (index < self->tile_count)
          tile = block_peek (tiles, (gsize) index * TERRAIN_SCT_TILE_BYTES,
                             TERRAIN_SCT_TILE_BYTES);

        terrain_ta_draw_tile (dest, stride, tile, rgba);
      }

  return g_steal_pointer (&image);
}

/**
 * terrain_sct_section_render_preview:
 * @self: a #TerrainSctSection
 * @palette: the palette the preview indexes
 * @error: return location for a #GError
 *
 * Draws the stored 128x128 preview through @palette as RGBA.
 *
 * Returns: (transfer full) (nullable): a 128x128 image, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE when @palette is %NULL
 */
TerrainImage *
terrain_sct_section_render_preview (TerrainSctSection  *self,
                                    TerrainPalette     *palette,
                                    GError            **error)
{
  g_autoptr(TerrainImage) image = NULL;
  const guint8 *preview, *rgba;
  guint8 *pixels;

  g_return_val_if_fail (TERRAIN_IS_SCT_SECTION (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_palette (palette != NULL ? terrain_palette_get_rgba_table (palette) : NULL,
                      "preview", error))
    return NULL;

  image = terrain_image_new (TERRAIN_IMAGE_RGBA8, TERRAIN_SCT_PREVIEW_SIDE,
                             TERRAIN_SCT_PREVIEW_SIDE, error);
  if (image == NULL)
    return NULL;

  rgba = terrain_palette_get_rgba_table (palette);
  pixels = terrain_image_get_data (image, NULL);
  preview = terrain_sct_section_get_preview (self);
  for (gsize i = 0; i < PREVIEW_BYTES; i++)
    memcpy (pixels + 4 * i, rgba + 4 * preview[i], 4);

  return g_steal_pointer (&image);
}

static GBytes *
terrain_sct_section_save_to_bytes (TerrainDocument  *document,
                                   GError          **error)
{
  TerrainSctSection *self = TERRAIN_SCT_SECTION (document);
  TerrainWriter writer;
  TerrainReader reader;
  const guint8 *all;
  guint32 words[HEADER_WORDS];

  /* Start from the source so that gaps, padding and trailing bytes, which
   * belong to no block, survive; then write every block from the model at
   * the offset it was read from. Blocks never move, so the layout holds. */
  terrain_reader_init (&reader, self->source, "SCT");
  if (!terrain_reader_peek_bytes (&reader, self->file_size, &all, error))
    return NULL;
  terrain_writer_init_copy (&writer, all, self->file_size);
  terrain_writer_set_section (&writer, "SCT");

  words[OFF_VERSION / 4] = self->version;
  words[OFF_PREVIEW / 4] = self->preview_offset;
  words[OFF_TILE_COUNT / 4] = self->tile_count;
  words[OFF_TILES / 4] = self->tiles_offset;
  words[OFF_WIDTH / 4] = self->width;
  words[OFF_HEIGHT / 4] = self->height;
  words[OFF_TILE_MAP / 4] = self->tile_map_offset;
  for (guint i = 0; i < HEADER_WORDS; i++)
    terrain_writer_patch_u32 (&writer, 4 * i, words[i]);

  for (guint b = TERRAIN_SCT_BLOCK_PREVIEW; b < N_BLOCKS; b++)
    {
      const SctBlock *block = &self->blocks[b];

      terrain_writer_patch_bytes (&writer, block->offset,
                                  block_peek (block, 0, block->size), block->size);
    }

  return terrain_writer_finish (&writer, error);
}

static GPtrArray *
terrain_sct_section_validate (TerrainDocument *document)
{
  TerrainSctSection *self = TERRAIN_SCT_SECTION (document);
  g_autoptr(GPtrArray) issues = NULL;
  const SctBlock *map = &self->blocks[TERRAIN_SCT_BLOCK_TILE_MAP];
  guint64 bad = 0;
  gint64 first_unreported = -1;

  issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  for (guint row = 0; row < self->height; row++)
    for (guint column = 0; column < self->width; column++)
      {
        gsize entry = (gsize) row * self->width + column;
        guint16 tile = block_read_u16 (map, 2 * entry);
        TerrainIssue *issue;

        if (tile < self->tile_count)
          continue;

        bad++;
        if (bad > MAX_TILE_ISSUES)
          {
            if (first_unreported < 0)
              first_unreported = (gint64) entry;
            continue;
          }

        issue = terrain_issue_new (TERRAIN_SEVERITY_WARNING,
                                   block_names[TERRAIN_SCT_BLOCK_TILE_MAP],
                                   (gint64) (map->offset + 2 * entry), (gint64) entry,
                                   "tile index %u at column %u, row %u has no graphics "
                                   "(the section has %u tiles)",
                                   tile, column, row, self->tile_count);
        terrain_issue_set_position (issue, (gint) column, (gint) row);
        g_ptr_array_add (issues, issue);
      }

  if (bad > MAX_TILE_ISSUES)
    g_ptr_array_add (issues,
                     terrain_issue_new (TERRAIN_SEVERITY_WARNING,
                                        block_names[TERRAIN_SCT_BLOCK_TILE_MAP],
                                        (gint64) (map->offset + 2 * (gsize) first_unreported),
                                        first_unreported,
                                        "%" G_GUINT64_FORMAT " more tile indices have no "
                                        "graphics (%" G_GUINT64_FORMAT " in all; only the "
                                        "first %d are listed)",
                                        bad - MAX_TILE_ISSUES, bad, MAX_TILE_ISSUES));

  return g_steal_pointer (&issues);
}

static JsonNode *
terrain_sct_section_describe (TerrainDocument *document)
{
  TerrainSctSection *self = TERRAIN_SCT_SECTION (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  TerrainSctBlock order[N_BLOCKS];
  gsize referenced = 0;

  sort_blocks (self->blocks, order);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, terrain_format_get_name (TERRAIN_FORMAT_SCT));
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, self->version);
  json_builder_set_member_name (builder, "width");
  json_builder_add_int_value (builder, self->width);
  json_builder_set_member_name (builder, "height");
  json_builder_add_int_value (builder, self->height);

  json_builder_set_member_name (builder, "height_grid");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "width");
  json_builder_add_int_value (builder, 2 * (gint64) self->width);
  json_builder_set_member_name (builder, "height");
  json_builder_add_int_value (builder, 2 * (gint64) self->height);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "record_size");
  json_builder_add_int_value (builder, (gint64) self->record_size);
  json_builder_set_member_name (builder, "tiles");
  json_builder_add_int_value (builder, self->tile_count);

  json_builder_set_member_name (builder, "blocks");
  json_builder_begin_array (builder);
  for (guint i = 0; i < N_BLOCKS; i++)
    {
      const SctBlock *block = &self->blocks[order[i]];

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, block_ids[order[i]]);
      json_builder_set_member_name (builder, "offset");
      json_builder_add_int_value (builder, (gint64) block->offset);
      json_builder_set_member_name (builder, "size");
      json_builder_add_int_value (builder, (gint64) block->size);
      json_builder_end_object (builder);

      /* Blocks never overlap (the reader rejects that), so sizes add up. */
      referenced += block->size;
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "file_size");
  json_builder_add_int_value (builder, (gint64) self->file_size);
  json_builder_set_member_name (builder, "unreferenced_bytes");
  json_builder_add_int_value (builder, (gint64) (self->file_size - referenced));
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static TerrainImage *
terrain_sct_section_render_image (TerrainDocument       *document,
                                  TerrainRenderOptions  *options,
                                  GError               **error)
{
  return render_tiles (TERRAIN_SCT_SECTION (document),
                       terrain_render_options_get_rgba_table (options), error);
}

static TerrainImage *
terrain_sct_section_export_heights (TerrainDocument  *document,
                                    GError          **error)
{
  TerrainSctSection *self = TERRAIN_SCT_SECTION (document);
  g_autoptr(TerrainImage) image = NULL;
  const SctBlock *heights = &self->blocks[TERRAIN_SCT_BLOCK_HEIGHTS];
  guint columns, rows;
  gsize row_bytes, stride;
  guint8 *pixels;

  if (!g_uint_checked_mul (&columns, self->width, 2) ||
      !g_uint_checked_mul (&rows, self->height, 2))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "SCT: a %ux%u tile grid is too large to export", self->width, self->height);
      return NULL;
    }

  image = terrain_image_new (TERRAIN_IMAGE_GRAY16, columns, rows, error);
  if (image == NULL)
    return NULL;

  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  row_bytes = (gsize) columns * self->record_size;

  for (guint y = 0; y < rows; y++)
    {
      const guint8 *records = block_peek (heights, (gsize) y * row_bytes, row_bytes);

      for (guint x = 0; x < columns; x++)
        {
          guint16 value = (guint16) (records[(gsize) x * self->record_size] * 257);

          memcpy (pixels + (gsize) y * stride + 2 * (gsize) x, &value, sizeof value);
        }
    }

  return g_steal_pointer (&image);
}

static char *
terrain_sct_section_describe_offset (TerrainDocument *document,
                                     gsize            offset)
{
  TerrainSctSection *self = TERRAIN_SCT_SECTION (document);
  TerrainSctBlock order[N_BLOCKS];
  gboolean before_any = FALSE;

  if (offset >= self->file_size)
    return g_strdup ("end of file");

  for (guint b = 0; b < N_BLOCKS; b++)
    {
      const SctBlock *block = &self->blocks[b];
      gsize rel;

      if (offset < block->offset || offset - block->offset >= block->size)
        continue;
      rel = offset - block->offset;

      switch ((TerrainSctBlock) b)
        {
        case TERRAIN_SCT_BLOCK_HEADER:
          return g_strdup_printf ("header, %s (word %" G_GSIZE_FORMAT "), byte +%" G_GSIZE_FORMAT,
                                  header_fields[rel / 4], rel / 4, rel % 4);

        case TERRAIN_SCT_BLOCK_PREVIEW:
          return g_strdup_printf ("preview, pixel %" G_GSIZE_FORMAT " (x=%" G_GSIZE_FORMAT
                                  ", y=%" G_GSIZE_FORMAT ")",
                                  rel, rel % TERRAIN_SCT_PREVIEW_SIDE,
                                  rel / TERRAIN_SCT_PREVIEW_SIDE);

        case TERRAIN_SCT_BLOCK_TILES:
          {
            gsize pixel = rel % TERRAIN_SCT_TILE_BYTES;

            return g_strdup_printf ("tile graphics, tile %" G_GSIZE_FORMAT ", pixel %"
                                    G_GSIZE_FORMAT " (x=%" G_GSIZE_FORMAT ", y=%"
                                    G_GSIZE_FORMAT ")",
                                    rel / TERRAIN_SCT_TILE_BYTES, pixel,
                                    pixel % TERRAIN_SCT_TILE_PIXELS,
                                    pixel / TERRAIN_SCT_TILE_PIXELS);
          }

        case TERRAIN_SCT_BLOCK_TILE_MAP:
          {
            gsize entry = rel / 2;

            return g_strdup_printf ("tile index grid, entry %" G_GSIZE_FORMAT " (column=%"
                                    G_GSIZE_FORMAT ", row=%" G_GSIZE_FORMAT "), byte +%"
                                    G_GSIZE_FORMAT,
                                    entry, entry % self->width, entry / self->width, rel % 2);
          }

        case TERRAIN_SCT_BLOCK_HEIGHTS:
          {
            gsize record = rel / self->record_size;
            guint x, y;

            terrain_sct_section_cell_position (self, record, &x, &y);
            return g_strdup_printf ("height records, record %" G_GSIZE_FORMAT
                                    " (x=%u, y=%u), byte +%" G_GSIZE_FORMAT,
                                    record, x, y, rel % self->record_size);
          }

        default:
          g_assert_not_reached ();
        }
    }

  /* Not in a block: a gap if some block follows, else trailing bytes. */
  sort_blocks (self->blocks, order);
  for (guint i = 0; i < N_BLOCKS; i++)
    if (self->blocks[order[i]].size > 0 && self->blocks[order[i]].offset > offset)
      before_any = TRUE;

  return g_strdup (before_any ? "gap" : "trailing bytes");
}

static void
terrain_sct_section_finalize (GObject *object)
{
  TerrainSctSection *self = (TerrainSctSection *) object;

  for (guint b = 0; b < N_BLOCKS; b++)
    g_clear_pointer (&self->blocks[b].copy, g_free);
  g_clear_pointer (&self->source, g_bytes_unref);

  G_OBJECT_CLASS (terrain_sct_section_parent_class)->finalize (object);
}

static void
terrain_sct_section_class_init (TerrainSctSectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  object_class->finalize = terrain_sct_section_finalize;

  document_class->save_to_bytes = terrain_sct_section_save_to_bytes;
  document_class->validate = terrain_sct_section_validate;
  document_class->describe = terrain_sct_section_describe;
  document_class->render_image = terrain_sct_section_render_image;
  document_class->export_heights = terrain_sct_section_export_heights;
  document_class->describe_offset = terrain_sct_section_describe_offset;
  document_class->parse = terrain_sct_section_parse;
  document_class->format = TERRAIN_FORMAT_SCT;

  /**
   * TerrainSctSection::cells-changed:
   * @self: the section
   * @x: first height-grid column changed
   * @y: first height-grid row changed
   * @width: number of columns changed
   * @height: number of rows changed
   *
   * Emitted after heights in a rectangle of the (2 x width) x (2 x height)
   * height grid changed.
   */
  signals[CELLS_CHANGED] =
    g_signal_new ("cells-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 4, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT);

  /**
   * TerrainSctSection::tiles-changed:
   * @self: the section
   * @column: first tile-grid column changed
   * @row: first tile-grid row changed
   * @width: number of columns changed
   * @height: number of rows changed
   *
   * Emitted after tile indices in a rectangle of the tile grid changed.
   */
  signals[TILES_CHANGED] =
    g_signal_new ("tiles-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 4, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT);
}

static void
terrain_sct_section_init (TerrainSctSection *self)
{
}
