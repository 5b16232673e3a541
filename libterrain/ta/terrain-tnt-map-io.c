/* terrain-tnt-map-io.c: reading and writing TNT maps
 * (the files of TerrainTntMap: terrain-tnt-map-impl-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-tnt-map-impl-private.h"
#include "core/terrain-error.h"
#include "core/terrain-io.h"
#include "core/terrain-writer-private.h"

/* ------------------------------------------------------------------------ */
/* Reading                                                                  */

static const char *
record_noun (TerrainTntSection section)
{
  switch (section)
    {
    case TERRAIN_TNT_SECTION_TILE_MAP:
      return "entry";
    case TERRAIN_TNT_SECTION_ATTRIBUTES:
      return "cell";
    case TERRAIN_TNT_SECTION_TILES:
      return "tile";
    case TERRAIN_TNT_SECTION_FEATURES:
      return "record";
    case TERRAIN_TNT_SECTION_MINIMAP:
      return "pixel";
    case TERRAIN_TNT_SECTION_HEADER:
    default:
      return "byte";
    }
}

/* Checks that a section of @count records of @record_size bytes (after
 * @prefix bytes of section header) lies in the file, and returns a view of
 * it. The error names the section, the pointer's header word and, when the
 * file ends inside the section, the record that is cut short. */
static gboolean
read_section (TerrainReader      *file,
              TerrainTntSection   section,
              guint               pointer_word,
              guint64             offset,
              guint64             prefix,
              guint64             count,
              guint64             record_size,
              const guint8      **data,
              GError            **error)
{
  g_autoptr(GError) local_error = NULL;
  TerrainReader sub;
  guint64 size = prefix + count * record_size;  /* checked against the limits already */
  gsize file_size = terrain_reader_get_size (file);

  if (terrain_reader_sub (file, offset, size, tnt_section_titles[section], &sub, &local_error))
    return terrain_reader_read_bytes (&sub, (gsize) size, data, error);

  if (g_error_matches (local_error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "%s: pointer %" G_GUINT64_FORMAT " (header word at byte offset 0x%02x) "
                   "lies beyond the end of the %" G_GSIZE_FORMAT "-byte file",
                   tnt_section_titles[section], offset, pointer_word * 4, file_size);
    }
  else if (g_error_matches (local_error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED))
    {
      guint64 available = file_size - offset;

      if (available < prefix)
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                     "%s: section at byte offset %" G_GUINT64_FORMAT " needs a %" G_GUINT64_FORMAT
                     "-byte header but the file ends at byte %" G_GSIZE_FORMAT,
                     tnt_section_titles[section], offset, prefix, file_size);
      else
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                     "%s: section at byte offset %" G_GUINT64_FORMAT " needs %" G_GUINT64_FORMAT
                     " bytes (%" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT " bytes) but the"
                     " file ends at byte %" G_GSIZE_FORMAT ", inside %s %" G_GUINT64_FORMAT
                     " (byte offset %" G_GUINT64_FORMAT ")",
                     tnt_section_titles[section], offset, size, count, record_size, file_size,
                     record_noun (section), (available - prefix) / record_size,
                     offset + prefix + (available - prefix) / record_size * record_size);
    }
  else
    g_propagate_error (error, g_steal_pointer (&local_error));

  return FALSE;
}

static gint
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const TntSpan *sa = a, *sb = b;

  if (sa->offset != sb->offset)
    return sa->offset < sb->offset ? -1 : 1;
  if (sa->size != sb->size)
    return sa->size < sb->size ? -1 : 1;
  return 0;
}

typedef struct
{
  TntSpan span;
  guint   section;
} NamedSpan;

static gint
compare_named_spans (gconstpointer a,
                     gconstpointer b)
{
  const NamedSpan *sa = a, *sb = b;
  gint r = compare_spans (&sa->span, &sb->span);

  return r != 0 ? r : (gint) sa->section - (gint) sb->section;
}

/* Refuses two non-empty sections (or a section and the header) sharing
 * bytes, then records the bytes no section covers. */
static gboolean
check_overlaps_and_find_gaps (TerrainTntMap  *self,
                              GError        **error)
{
  NamedSpan spans[N_SECTIONS];
  guint n = 0;
  gsize end = 0;

  for (guint s = 0; s < N_SECTIONS; s++)
    if (self->source_spans[s].present && self->source_spans[s].size > 0)
      spans[n++] = (NamedSpan) { self->source_spans[s], s };

  qsort (spans, n, sizeof spans[0], compare_named_spans);

  for (guint i = 0; i < n; i++)
    {
      const TntSpan *span = &spans[i].span;

      if (i > 0 && span->offset < end)
        {
          const NamedSpan *prev = &spans[i - 1];

          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP,
                       "%s: section at byte offset %" G_GSIZE_FORMAT " (%" G_GSIZE_FORMAT
                       " bytes) overlaps %s at byte offsets %" G_GSIZE_FORMAT "..%" G_GSIZE_FORMAT,
                       tnt_section_titles[spans[i].section], span->offset, span->size,
                       prev->section == TERRAIN_TNT_SECTION_HEADER ? "the 64-byte header"
                                                                   : tnt_section_titles[prev->section],
                       span->offset, MIN (end, span->offset + span->size) - 1);
          return FALSE;
        }
      if (span->offset > end)
        {
          TntSpan gap = { end, span->offset - end, TRUE };
          g_array_append_val (self->gaps, gap);
        }
      end = span->offset + span->size;
    }

  if (end < self->source_size)
    {
      TntSpan gap = { end, self->source_size - end, TRUE };
      g_array_append_val (self->gaps, gap);
    }

  return TRUE;
}

static gboolean
checked_size (guint64  a,
              guint64  b,
              guint64 *out)
{
  return g_uint64_checked_mul (out, a, b);
}

typedef struct
{
  TerrainTntSection section;
  guint             pointer_word;
  guint64           offset;
  guint64           prefix;
  guint64           count;
  guint64           record_size;
} PendingSection;

static gint
compare_pending (gconstpointer a,
                 gconstpointer b)
{
  const PendingSection *pa = a, *pb = b;

  if (pa->offset != pb->offset)
    return pa->offset < pb->offset ? -1 : 1;
  return (gint) pa->section - (gint) pb->section;
}

/* Reads the minimap's u32 width and height, checks them against the limits,
 * then checks the pixels' span. */
static gboolean
read_minimap (TerrainTntMap        *self,
              TerrainReader        *file,
              const PendingSection *p,
              const TerrainLimits  *limits,
              GError              **error)
{
  const char *title = tnt_section_titles[TERRAIN_TNT_SECTION_MINIMAP];
  TerrainReader minimap;
  const guint8 *data;
  guint32 mw, mh;

  if (!read_section (file, TERRAIN_TNT_SECTION_MINIMAP, p->pointer_word, p->offset,
                     MINIMAP_HEADER_BYTES, 0, 1, &data, error))
    return FALSE;
  terrain_reader_init_data (&minimap, data, MINIMAP_HEADER_BYTES, (goffset) p->offset, title);
  if (!terrain_reader_read_u32 (&minimap, &mw, error) ||
      !terrain_reader_read_u32 (&minimap, &mh, error))
    return FALSE;

  if (!terrain_limits_check_count (limits, mw, limits->max_image_side, "width (pixels)",
                                   title, (goffset) p->offset, error) ||
      !terrain_limits_check_count (limits, mh, limits->max_image_side, "height (pixels)",
                                   title, (goffset) p->offset + 4, error) ||
      !terrain_limits_check_alloc (limits, (guint64) mw * mh, 1, "minimap pixels",
                                   title, (goffset) p->offset, error))
    return FALSE;

  if (!read_section (file, TERRAIN_TNT_SECTION_MINIMAP, p->pointer_word, p->offset,
                     MINIMAP_HEADER_BYTES, (guint64) mw * mh, 1, &data, error))
    return FALSE;
  terrain_reader_init_data (&minimap, data, MINIMAP_HEADER_BYTES + (gsize) mw * mh,
                            (goffset) p->offset, title);
  if (!terrain_reader_skip (&minimap, MINIMAP_HEADER_BYTES, error) ||
      !terrain_reader_read_bytes (&minimap, (gsize) mw * mh, &data, error))
    return FALSE;

  self->has_minimap = TRUE;
  self->minimap_width = mw;
  self->minimap_height = mh;
  self->source_spans[TERRAIN_TNT_SECTION_MINIMAP] =
    (TntSpan) { (gsize) p->offset, MINIMAP_HEADER_BYTES + (gsize) mw * mh, TRUE };
  /* The block holds the pixels; width and height are model fields. */
  tnt_block_set_view (&self->blocks[TERRAIN_TNT_SECTION_MINIMAP],
                      (gsize) mw * mh > 0 ? data : NULL, (gsize) mw * mh);
  return TRUE;
}

/* The document's `parse`: the reader terrain_tnt_map_new_from_bytes()
 * documents. */
gboolean
tnt_map_parse (TerrainDocument      *document,
               GBytes               *bytes,
               const TerrainLimits  *limits,
               GError              **error)
{
  TerrainTntMap *self = TERRAIN_TNT_MAP (document);
  TerrainReader file, header;
  guint32 words[N_HEADER_WORDS];
  guint64 tile_map_entries, cells, size;
  guint cell_bytes, ptr_minimap_word, flag_word;
  const guint8 *data;

  terrain_reader_init (&file, bytes, "TNT file");
  if (!terrain_reader_sub (&file, 0, HEADER_SIZE, tnt_section_titles[TERRAIN_TNT_SECTION_HEADER],
                           &header, error))
    return FALSE;
  for (guint i = 0; i < N_HEADER_WORDS; i++)
    if (!terrain_reader_read_u32 (&header, &words[i], error))
      return FALSE;

  if (words[W_VERSION] != TERRAIN_TNT_VERSION && words[W_VERSION] != TERRAIN_TNT_VERSION_LEGACY)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNSUPPORTED_VERSION,
                   "TNT header: unsupported version word 0x%08x at byte offset 0 "
                   "(expected 0x%08x or the legacy 0x%08x)",
                   words[W_VERSION], TERRAIN_TNT_VERSION, TERRAIN_TNT_VERSION_LEGACY);
      return FALSE;
    }

  for (guint w = W_WIDTH; w <= W_HEIGHT; w++)
    {
      if (words[w] == 0)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TNT header: %s is 0 at byte offset %u; a map needs at least one cell",
                       w == W_WIDTH ? "width" : "height", w * 4);
          return FALSE;
        }
      if (!terrain_limits_check_count (limits, words[w], limits->max_cells_per_side,
                                       w == W_WIDTH ? "width (attribute cells)"
                                                    : "height (attribute cells)",
                                       "TNT header", w * 4, error))
        return FALSE;
    }

  if (!terrain_limits_check_count (limits, words[W_TILES], limits->max_tiles,
                                   "tile", "TNT header", W_TILES * 4, error) ||
      !terrain_limits_check_count (limits, words[W_FEATURES], limits->max_features,
                                   "feature record", "TNT header", W_FEATURES * 4, error))
    return FALSE;

  cell_bytes = words[W_VERSION] == TERRAIN_TNT_VERSION_LEGACY ? 8 : 4;
  ptr_minimap_word = words[W_VERSION] == TERRAIN_TNT_VERSION_LEGACY ? W_LEGACY_PTR_MINIMAP
                                                                     : W_PTR_MINIMAP;
  flag_word = words[W_VERSION] == TERRAIN_TNT_VERSION_LEGACY ? W_LEGACY_MINIMAP_FLAG
                                                              : W_MINIMAP_FLAG;

  if (!checked_size (words[W_WIDTH] / 2, words[W_HEIGHT] / 2, &tile_map_entries) ||
      !checked_size (words[W_WIDTH], words[W_HEIGHT], &cells))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "TNT header: %ux%u cells (byte offset 4) overflow 64-bit arithmetic",
                   words[W_WIDTH], words[W_HEIGHT]);
      return FALSE;
    }

  /* Every section may be copied on its first edit, and the occupancy grid
   * needs a u16 per cell: check those allocations now. */
  if (!terrain_limits_check_alloc (limits, tile_map_entries, 2, "tile map",
                                   tnt_section_titles[TERRAIN_TNT_SECTION_TILE_MAP], 4, error) ||
      !terrain_limits_check_alloc (limits, cells, cell_bytes, "attribute cells",
                                   tnt_section_titles[TERRAIN_TNT_SECTION_ATTRIBUTES], 4, error) ||
      !terrain_limits_check_alloc (limits, cells, 2, "occupancy grid",
                                   tnt_section_titles[TERRAIN_TNT_SECTION_ATTRIBUTES], 4, error) ||
      !terrain_limits_check_alloc (limits, words[W_TILES], TERRAIN_TNT_TILE_BYTES, "tile graphics",
                                   tnt_section_titles[TERRAIN_TNT_SECTION_TILES], W_TILES * 4, error) ||
      !terrain_limits_check_alloc (limits, words[W_FEATURES], FEATURE_RECORD_BYTES,
                                   "feature records", tnt_section_titles[TERRAIN_TNT_SECTION_FEATURES],
                                   W_FEATURES * 4, error))
    return FALSE;

  self->limits = *limits;
  memcpy (self->header, words, sizeof words);
  self->width = words[W_WIDTH];
  self->height = words[W_HEIGHT];
  self->tile_columns = words[W_WIDTH] / 2;
  self->tile_rows = words[W_HEIGHT] / 2;
  self->cell_bytes = cell_bytes;
  self->n_tiles = words[W_TILES];
  self->n_features = words[W_FEATURES];
  self->source_size = terrain_reader_get_size (&file);
  self->source_spans[TERRAIN_TNT_SECTION_HEADER] = (TntSpan) { 0, HEADER_SIZE, TRUE };

  /* Sections are read in file order, so that a file cut short reports the
   * section the cut falls in, whatever order the sections come in. */
  {
    PendingSection pending[N_SECTIONS];
    guint n_pending = 0;

    for (guint s = TERRAIN_TNT_SECTION_TILE_MAP; s < N_SECTIONS; s++)
      {
        PendingSection *p = &pending[n_pending];

        p->section = s;
        p->prefix = 0;
        switch (s)
          {
          case TERRAIN_TNT_SECTION_TILE_MAP:
            p->pointer_word = W_PTR_TILE_MAP;
            p->count = tile_map_entries;
            p->record_size = 2;
            break;
          case TERRAIN_TNT_SECTION_ATTRIBUTES:
            p->pointer_word = W_PTR_ATTRIBUTES;
            p->count = cells;
            p->record_size = cell_bytes;
            break;
          case TERRAIN_TNT_SECTION_TILES:
            p->pointer_word = W_PTR_TILES;
            p->count = words[W_TILES];
            p->record_size = TERRAIN_TNT_TILE_BYTES;
            break;
          case TERRAIN_TNT_SECTION_FEATURES:
            p->pointer_word = W_PTR_FEATURES;
            p->count = words[W_FEATURES];
            p->record_size = FEATURE_RECORD_BYTES;
            break;
          case TERRAIN_TNT_SECTION_MINIMAP:
          case TERRAIN_TNT_SECTION_HEADER:
          default:
            /* Only dereferenced when MinimapPresent bit 0 is set */
            if ((words[flag_word] & 1) == 0)
              {
                self->source_spans[s] = (TntSpan) { 0, 0, FALSE };
                continue;
              }
            p->pointer_word = ptr_minimap_word;
            p->count = 0;  /* read from the section's own header */
            p->record_size = 1;
            p->prefix = MINIMAP_HEADER_BYTES;
            break;
          }
        p->offset = words[p->pointer_word];

        if (p->prefix + p->count * p->record_size == 0)
          {
            /* An empty section: its pointer is not dereferenced. */
            self->source_spans[s] = (TntSpan) { (gsize) p->offset, 0, TRUE };
            continue;
          }
        n_pending++;
      }

    qsort (pending, n_pending, sizeof pending[0], compare_pending);

    for (guint i = 0; i < n_pending; i++)
      {
        PendingSection *p = &pending[i];

        if (p->section == TERRAIN_TNT_SECTION_MINIMAP)
          {
            if (!read_minimap (self, &file, p, limits, error))
              return FALSE;
            continue;
          }

        size = p->count * p->record_size;
        if (!read_section (&file, p->section, p->pointer_word, p->offset, 0, p->count,
                           p->record_size, &data, error))
          return FALSE;
        self->source_spans[p->section] = (TntSpan) { (gsize) p->offset, (gsize) size, TRUE };
        tnt_block_set_view (&self->blocks[p->section], data, (gsize) size);
      }
  }

  if (!check_overlaps_and_find_gaps (self, error))
    return FALSE;

  memcpy (self->layout, self->source_spans, sizeof self->layout);
  g_ptr_array_set_size (self->names, self->n_features);

  return TRUE;
}

/**
 * terrain_tnt_map_new_from_bytes:
 * @bytes: the contents of a `.tnt` file
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Reads a TNT map (tnt-sct.md "Reference"): the 64-byte header of version
 * 0x2000 or the legacy 0x1020, then the tile map (`(Width/2) x (Height/2)`
 * u16), the attribute map (`Width x Height` cells of 4 bytes, 8 in legacy
 * files), the tile graphics (`Tiles x 1024` bytes), the feature records
 * (`TileAnims x 132` bytes) and, when bit 0 of the MinimapPresent word is
 * set, the minimap (u32 width, u32 height, pixels). Sections may come in any
 * order, with gaps between them and bytes after the last; a section with no
 * records does not dereference its pointer.
 *
 * Opening is cheap: counts are checked against @limits and every section
 * span against the file before anything is allocated, and nothing is copied.
 * The map keeps a reference to @bytes and reads from it.
 *
 * An odd width or height is accepted (the tile grid is the integer half) and
 * reported by [method@Terrain.Document.validate].
 *
 * Returns: (transfer full) (nullable): the map, or %NULL with a
 *   %TERRAIN_ERROR set: %TERRAIN_ERROR_TRUNCATED when the file is shorter
 *   than the header or a section runs past its end,
 *   %TERRAIN_ERROR_UNSUPPORTED_VERSION for another version word,
 *   %TERRAIN_ERROR_INVALID_VALUE for a zero width or height,
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED when a count exceeds @limits,
 *   %TERRAIN_ERROR_OUT_OF_RANGE when a pointer lies beyond the end of the
 *   file and %TERRAIN_ERROR_OVERLAP when two sections share bytes
 */
TerrainTntMap *
terrain_tnt_map_new_from_bytes (GBytes               *bytes,
                                const TerrainLimits  *limits,
                                GError              **error)
{
  return TERRAIN_TNT_MAP (terrain_document_new_from_bytes (TERRAIN_TYPE_TNT_MAP, bytes, limits,
                                                           error));
}

/**
 * terrain_tnt_map_new_from_file:
 * @file: a `.tnt` file
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Maps @file into memory and reads it with
 * [ctor@Terrain.TntMap.new_from_bytes]; the map remembers @file.
 *
 * Returns: (transfer full) (nullable): the map, or %NULL with a
 *   %TERRAIN_ERROR set (%TERRAIN_ERROR_IO when the file cannot be read)
 */
TerrainTntMap *
terrain_tnt_map_new_from_file (GFile                *file,
                               const TerrainLimits  *limits,
                               GCancellable         *cancellable,
                               GError              **error)
{
  g_autoptr(GBytes) bytes = NULL;
  TerrainTntMap *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  bytes = terrain_file_load_bytes (file, cancellable, error);
  if (bytes == NULL)
    return NULL;

  self = terrain_tnt_map_new_from_bytes (bytes, limits, error);
  if (self != NULL)
    terrain_document_set_file (TERRAIN_DOCUMENT (self), file);

  return self;
}

/**
 * terrain_tnt_map_new:
 * @width: width in attribute cells (16 pixels each), even, at least 2
 * @height: height in attribute cells, even, at least 2
 * @error: return location for a #GError
 *
 * Creates a blank version 0x2000 map: one all-zero tile that the whole tile
 * map uses, every cell at height 0 with the empty feature word 0xFFFF, no
 * feature records, sea level 0, and a 252x252 minimap generated by
 * [method@Terrain.TntMap.update_minimap] (MinimapPresent = 1): index 0 in
 * the used sub-rectangle, the 0x64 fill around it. The map is
 * written in the canonical section order.
 *
 * Returns: (transfer full) (nullable): the map, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE when a dimension is zero, odd or larger
 *   than the default [struct@Terrain.Limits]
 */
TerrainTntMap *
terrain_tnt_map_new (guint    width,
                     guint    height,
                     GError **error)
{
  const TerrainLimits *limits = terrain_limits_get_default ();
  g_autoptr(TerrainTntMap) self = NULL;
  gsize cells;
  guint8 *attributes;

  if (width == 0 || height == 0 || width % 2 != 0 || height % 2 != 0 ||
      width > limits->max_cells_per_side || height > limits->max_cells_per_side)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT map: %ux%u cells is not a valid size (both sides must be even, "
                   "between 2 and %u)",
                   width, height, limits->max_cells_per_side);
      return NULL;
    }

  self = g_object_new (TERRAIN_TYPE_TNT_MAP, NULL);
  self->header[W_VERSION] = TERRAIN_TNT_VERSION;
  self->header[W_WIDTH] = width;
  self->header[W_HEIGHT] = height;
  self->header[W_TILES] = 1;
  self->header[W_FEATURES] = 0;
  self->header[W_SEA_LEVEL] = 0;
  self->header[W_MINIMAP_FLAG] = 0;
  self->width = width;
  self->height = height;
  self->tile_columns = width / 2;
  self->tile_rows = height / 2;
  self->cell_bytes = 4;
  self->n_tiles = 1;
  self->n_features = 0;

  cells = (gsize) width * height;
  tnt_block_take (&self->blocks[TERRAIN_TNT_SECTION_TILE_MAP],
                  g_malloc0 ((gsize) self->tile_columns * self->tile_rows * 2),
                  (gsize) self->tile_columns * self->tile_rows * 2);
  attributes = g_malloc (cells * 4);
  for (gsize i = 0; i < cells; i++)
    {
      attributes[4 * i] = 0;
      attributes[4 * i + 1] = 0xFF;
      attributes[4 * i + 2] = 0xFF;
      attributes[4 * i + 3] = 0;
    }
  tnt_block_take (&self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES], attributes, cells * 4);
  tnt_block_take (&self->blocks[TERRAIN_TNT_SECTION_TILES],
                  g_malloc0 (TERRAIN_TNT_TILE_BYTES), TERRAIN_TNT_TILE_BYTES);

  terrain_document_set_source (TERRAIN_DOCUMENT (self), NULL, TERRAIN_FORMAT_TNT);
  tnt_relayout (self);
  {
    /* The blank map's tiles are all index 0, so its minimap is index 0
     * through any palette: a one-entry palette generates it. */
    static const guint8 black[3] = { 0, 0, 0 };
    g_autoptr(TerrainPalette) palette = terrain_palette_new_from_rgb (black, 1);

    terrain_tnt_map_update_minimap (self, palette);
  }
  terrain_document_set_modified (TERRAIN_DOCUMENT (self), FALSE);

  return g_steal_pointer (&self);
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                  */

static void
encode_header (TerrainTntMap *self,
               guint8         out[HEADER_SIZE])
{
  for (guint i = 0; i < N_HEADER_WORDS; i++)
    terrain_put_le32 (out + 4 * i, self->header[i]);
}

static void
encode_minimap_header (TerrainTntMap *self,
                       guint8         out[MINIMAP_HEADER_BYTES])
{
  terrain_put_le32 (out, self->minimap_width);
  terrain_put_le32 (out + 4, self->minimap_height);
}

/* Writes the model into a copy of the source, every section at its
 * original offset: bytes no section covers stay as they were. */
static GBytes *
write_in_place (TerrainTntMap  *self,
                GBytes         *source,
                GError        **error)
{
  TerrainReader reader;
  TerrainWriter writer;
  const guint8 *data;
  guint8 head[HEADER_SIZE];

  terrain_reader_init (&reader, source, "TNT file");
  if (!terrain_reader_peek_bytes (&reader, terrain_reader_get_size (&reader), &data, error))
    return NULL;
  terrain_writer_init_copy (&writer, data, terrain_reader_get_size (&reader));

  terrain_writer_set_section (&writer, tnt_section_titles[TERRAIN_TNT_SECTION_HEADER]);
  encode_header (self, head);
  terrain_writer_patch_bytes (&writer, 0, head, sizeof head);

  for (guint s = TERRAIN_TNT_SECTION_TILE_MAP; s < N_SECTIONS; s++)
    {
      const TntSpan *span = &self->layout[s];
      gsize offset = span->offset;

      if (!span->present || span->size == 0)
        continue;

      terrain_writer_set_section (&writer, tnt_section_titles[s]);
      if (s == TERRAIN_TNT_SECTION_MINIMAP)
        {
          guint8 mini[MINIMAP_HEADER_BYTES];

          encode_minimap_header (self, mini);
          terrain_writer_patch_bytes (&writer, offset, mini, sizeof mini);
          offset += MINIMAP_HEADER_BYTES;
        }
      /* A block that is still the view of the source at this offset holds
       * the bytes the copy already has: patching it would copy the section a
       * second time (half the cost of an unedited save). */
      if (self->blocks[s].data == data + offset)
        continue;
      terrain_writer_patch_bytes (&writer, offset, self->blocks[s].data, self->blocks[s].size);
    }

  return terrain_writer_finish (&writer, error);
}

/* Writes header, tile map, attributes, tiles, features and minimap back to
 * back, then every source byte no section covered, in file order. */
static GBytes *
write_canonical (TerrainTntMap  *self,
                 GBytes         *source,
                 GError        **error)
{
  TerrainWriter writer;
  TerrainReader reader;
  guint8 head[HEADER_SIZE];
  guint64 total = HEADER_SIZE;

  for (guint s = TERRAIN_TNT_SECTION_TILE_MAP; s < N_SECTIONS; s++)
    total += self->layout[s].size;
  for (guint i = 0; i < self->gaps->len; i++)
    total += g_array_index (self->gaps, TntSpan, i).size;

  terrain_writer_init (&writer, (gsize) MIN (total, G_MAXUINT32));
  terrain_writer_set_section (&writer, tnt_section_titles[TERRAIN_TNT_SECTION_HEADER]);
  encode_header (self, head);
  terrain_writer_put_bytes (&writer, head, sizeof head);

  for (guint s = TERRAIN_TNT_SECTION_TILE_MAP; s < N_SECTIONS; s++)
    {
      if (!self->layout[s].present)
        continue;

      terrain_writer_set_section (&writer, tnt_section_titles[s]);
      g_assert (self->layout[s].offset == terrain_writer_tell (&writer) || writer.overflow);
      if (s == TERRAIN_TNT_SECTION_MINIMAP)
        {
          guint8 mini[MINIMAP_HEADER_BYTES];

          encode_minimap_header (self, mini);
          terrain_writer_put_bytes (&writer, mini, sizeof mini);
        }
      terrain_writer_put_bytes (&writer, self->blocks[s].data, self->blocks[s].size);
    }

  if (source != NULL && self->gaps->len > 0)
    {
      terrain_writer_set_section (&writer, "TNT unreferenced bytes");
      terrain_reader_init (&reader, source, "TNT file");
      for (guint i = 0; i < self->gaps->len; i++)
        {
          const TntSpan *gap = &g_array_index (self->gaps, TntSpan, i);
          TerrainReader sub;
          const guint8 *data;

          if (!terrain_reader_sub (&reader, gap->offset, gap->size, "TNT unreferenced bytes",
                                   &sub, error) ||
              !terrain_reader_read_bytes (&sub, gap->size, &data, error))
            {
              terrain_writer_clear (&writer);
              return NULL;
            }
          terrain_writer_put_bytes (&writer, data, gap->size);
        }
    }

  return terrain_writer_finish (&writer, error);
}

GBytes *
tnt_map_save_to_bytes (TerrainDocument  *document,
                       GError          **error)
{
  TerrainTntMap *self = TERRAIN_TNT_MAP (document);
  GBytes *source = tnt_get_source (self);

  if (source != NULL && !self->canonical)
    return write_in_place (self, source, error);

  return write_canonical (self, source, error);
}
