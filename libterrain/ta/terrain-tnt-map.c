/* terrain-tnt-map.c: Total Annihilation map terrain (.tnt)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-tnt-map.h"
#include "terrain-tile-private.h"
#include "terrain-tnt-map-private.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-io.h"
#include "core/terrain-issue.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-writer-private.h"

/**
 * TerrainTntMap:
 *
 * A Total Annihilation map terrain file (`.tnt`, tnt-sct.md), version 0x2000
 * or legacy 0x1020.
 *
 * The map is a view over the bytes it was read from: opening it checks the
 * header, the counts against [struct@Terrain.Limits] and every section span,
 * but copies nothing. Tile graphics, the tile map, the attribute cells, the
 * feature records and the minimap are read from the source bytes in place; a
 * section is copied into memory the map owns only when it is first edited.
 *
 * Writing patches every section from the model into a copy of the source at
 * its original offset, so an unedited map writes back byte for byte
 * (including gaps, trailing bytes, header padding and name scratch bytes).
 * An edit that changes a section's size lays the file out anew in the
 * canonical order (header, tile map, attributes, tiles, features, minimap)
 * and appends every source byte no section covered, in file order.
 */

#define HEADER_SIZE           64
#define N_HEADER_WORDS        16
#define FEATURE_RECORD_BYTES  (4 + TERRAIN_TNT_FEATURE_NAME_BYTES)
#define MINIMAP_HEADER_BYTES  8
#define DEFAULT_MINIMAP_SIDE  252
#define FINDINGS_PER_KIND     20

/* Header word indices, tnt-sct.md "Header" and "Legacy header" */
enum
{
  W_VERSION,
  W_WIDTH,
  W_HEIGHT,
  W_PTR_TILE_MAP,
  W_PTR_ATTRIBUTES,
  W_PTR_TILES,
  W_TILES,
  W_FEATURES,
  W_PTR_FEATURES,
  W_SEA_LEVEL,
  W_PTR_MINIMAP = 10,
  W_MINIMAP_FLAG = 11,
  W_LEGACY_MIN_WIND = 10,
  W_LEGACY_MAX_WIND = 11,
  W_LEGACY_UNREAD = 12,
  W_LEGACY_GRAVITY = 13,
  W_LEGACY_PTR_MINIMAP = 14,
  W_LEGACY_MINIMAP_FLAG = 15,
};

#define N_SECTIONS (TERRAIN_TNT_SECTION_MINIMAP + 1)

/* Names for error messages and findings */
static const char * const section_titles[N_SECTIONS] = {
  "TNT header",
  "TNT tile map",
  "TNT attribute map",
  "TNT tile graphics",
  "TNT feature records",
  "TNT minimap",
};

/* Names in the JSON description */
static const char * const section_keys[N_SECTIONS] = {
  "header",
  "tile_map",
  "attributes",
  "tiles",
  "features",
  "minimap",
};

static const char * const header_word_names[N_HEADER_WORDS] = {
  "IDVersion", "Width", "Height", "PtrMapData", "PtrMapAttr", "PtrTileGfx",
  "Tiles", "TileAnims", "PtrTileAnims", "SeaLevel", "PtrMiniMap",
  "MinimapPresent", "pad", "pad", "pad", "pad",
};

static const char * const legacy_header_word_names[N_HEADER_WORDS] = {
  "IDVersion", "Width", "Height", "PtrMapData", "PtrMapAttr", "PtrTileGfx",
  "Tiles", "TileAnims", "PtrTileAnims", "SeaLevel", "MinWindSpeed",
  "MaxWindSpeed", "unread", "Gravity", "PtrMiniMap", "MinimapPresent",
};

typedef struct
{
  gsize    offset;
  gsize    size;
  gboolean present;
} TntSpan;

/* A section's contents: a view into the source bytes until it is first
 * edited, then a buffer the map owns (copy-on-write). Views are the spans
 * TerrainReader hands out once it has checked them against the end of the
 * file; the accessors index them only within the section's own size, which
 * the model's dimensions and counts define. */
typedef struct
{
  const guint8 *data;
  guint8       *owned;
  gsize         size;
  gsize         capacity;
} TntBlock;

struct _TerrainTntMap
{
  TerrainDocument parent_instance;

  TerrainLimits limits;

  /* The header as it will be written: source words, edited values, and the
   * canonical pointers once the file has been laid out anew. */
  guint32 header[N_HEADER_WORDS];

  guint width;
  guint height;
  guint tile_columns;
  guint tile_rows;
  guint cell_bytes;
  guint n_tiles;
  guint n_features;
  guint minimap_width;
  guint minimap_height;
  guint has_minimap : 1;
  /* TRUE once a section changed size (or for a map made in memory): the
   * writer then lays the file out canonically. */
  guint canonical : 1;

  TntBlock blocks[N_SECTIONS];

  /* Where each section is in the file the writer would produce now; equal
   * to source_spans until the file is laid out anew. */
  TntSpan layout[N_SECTIONS];
  TntSpan source_spans[N_SECTIONS];

  /* Source bytes covered by neither the header nor a section, file order */
  GArray *gaps;
  gsize source_size;

  /* Lazily made NUL-terminated copies of the feature names */
  GPtrArray *names;
};

G_DEFINE_FINAL_TYPE (TerrainTntMap, terrain_tnt_map, TERRAIN_TYPE_DOCUMENT)

enum {
  PROP_0,
  PROP_VERSION,
  PROP_WIDTH,
  PROP_HEIGHT,
  PROP_SEA_LEVEL,
  PROP_N_TILES,
  PROP_N_FEATURES,
  PROP_MINIMAP_PRESENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  CELLS_CHANGED,
  TILES_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------------ */
/* Blocks                                                                   */

static void
block_set_view (TntBlock     *block,
                const guint8 *data,
                gsize         size)
{
  block->data = data;
  block->size = size;
}

/* Makes @block writable with room for @extra more bytes; copies the source
 * view on first use. Returns the writable buffer. */
static guint8 *
block_make_writable (TntBlock *block,
                     gsize     extra)
{
  gsize need = block->size + extra;

  if (block->owned == NULL || need > block->capacity)
    {
      gsize capacity = need;
      guint8 *buffer;

      /* Grow geometrically only once the block is already being appended to,
       * so a first edit of a fixed-size section copies exactly its size. */
      if (block->owned != NULL && capacity < block->capacity * 2)
        capacity = block->capacity * 2;
      buffer = g_malloc (MAX (capacity, 1));
      if (block->size > 0)
        memcpy (buffer, block->data, block->size);
      g_free (block->owned);
      block->owned = buffer;
      block->capacity = capacity;
      block->data = buffer;
    }

  return block->owned;
}

static void
block_take (TntBlock *block,
            guint8   *data,
            gsize     size)
{
  g_free (block->owned);
  block->owned = data;
  block->data = data;
  block->size = size;
  block->capacity = size;
}

static void
block_clear (TntBlock *block)
{
  g_clear_pointer (&block->owned, g_free);
  block->data = NULL;
  block->size = 0;
  block->capacity = 0;
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static inline gboolean
is_legacy (TerrainTntMap *self)
{
  return self->header[W_VERSION] == TERRAIN_TNT_VERSION_LEGACY;
}

static inline guint
minimap_pointer_word (TerrainTntMap *self)
{
  return is_legacy (self) ? W_LEGACY_PTR_MINIMAP : W_PTR_MINIMAP;
}

static inline guint
minimap_flag_word (TerrainTntMap *self)
{
  return is_legacy (self) ? W_LEGACY_MINIMAP_FLAG : W_MINIMAP_FLAG;
}

static inline guint
feature_byte_offset (TerrainTntMap *self)
{
  /* 0x2000: unaligned u16 at bytes 1..2; legacy: one byte at byte 2 */
  return is_legacy (self) ? 2 : 1;
}

static inline const guint8 *
cell_data (TerrainTntMap *self,
           guint          x,
           guint          y)
{
  return self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES].data +
         ((gsize) y * self->width + x) * self->cell_bytes;
}

/* The feature word of a cell as the model exposes it: the u16 of a 0x2000
 * cell, or the legacy byte with its empty codes 0xFC..0xFF mapped to
 * TERRAIN_TNT_FEATURE_NONE. */
static inline guint16
cell_feature (TerrainTntMap *self,
              gsize          cell)
{
  const guint8 *p = self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES].data + cell * self->cell_bytes;

  if (is_legacy (self))
    return p[2] >= 0xFC ? TERRAIN_TNT_FEATURE_NONE : p[2];
  return terrain_get_le16 (p + 1);
}

static inline guint16
tile_map_entry (TerrainTntMap *self,
                gsize          entry)
{
  return terrain_get_le16 (self->blocks[TERRAIN_TNT_SECTION_TILE_MAP].data + 2 * entry);
}

static gsize
section_size (TerrainTntMap     *self,
              TerrainTntSection  section)
{
  switch (section)
    {
    case TERRAIN_TNT_SECTION_HEADER:
      return HEADER_SIZE;
    case TERRAIN_TNT_SECTION_MINIMAP:
      return MINIMAP_HEADER_BYTES + self->blocks[section].size;
    case TERRAIN_TNT_SECTION_TILE_MAP:
    case TERRAIN_TNT_SECTION_ATTRIBUTES:
    case TERRAIN_TNT_SECTION_TILES:
    case TERRAIN_TNT_SECTION_FEATURES:
    default:
      return self->blocks[section].size;
    }
}

static gboolean
section_present (TerrainTntMap     *self,
                 TerrainTntSection  section)
{
  return section != TERRAIN_TNT_SECTION_MINIMAP || self->has_minimap;
}

/* Lays the file out in the canonical order and points the header at it.
 * Called whenever a section changes size; cheap (no data is moved until the
 * writer runs). */
static void
relayout (TerrainTntMap *self)
{
  static const guint pointer_words[N_SECTIONS] = {
    0, W_PTR_TILE_MAP, W_PTR_ATTRIBUTES, W_PTR_TILES, W_PTR_FEATURES, 0,
  };
  guint64 offset = HEADER_SIZE;

  self->layout[TERRAIN_TNT_SECTION_HEADER] = (TntSpan) { 0, HEADER_SIZE, TRUE };

  for (guint s = TERRAIN_TNT_SECTION_TILE_MAP; s < N_SECTIONS; s++)
    {
      TntSpan *span = &self->layout[s];
      guint32 pointer = (guint32) MIN (offset, G_MAXUINT32);

      span->present = section_present (self, s);
      span->offset = (gsize) MIN (offset, G_MAXSIZE);
      span->size = span->present ? section_size (self, s) : 0;

      if (s == TERRAIN_TNT_SECTION_MINIMAP)
        {
          /* With the flag clear the pointer word is not a pointer: keep it. */
          if (span->present)
            self->header[minimap_pointer_word (self)] = pointer;
        }
      else
        self->header[pointer_words[s]] = pointer;

      /* Overflow past 4 GiB is reported by the writer. */
      offset += span->size;
    }

  self->canonical = TRUE;
}

/* After a section may have changed size or appeared: switch to (or refresh)
 * the canonical layout when the source layout no longer fits. */
static void
update_layout (TerrainTntMap *self)
{
  gboolean changed = self->canonical;

  for (guint s = TERRAIN_TNT_SECTION_TILE_MAP; s < N_SECTIONS && !changed; s++)
    {
      gboolean present = section_present (self, s);

      if (present != self->layout[s].present ||
          (present && section_size (self, s) != self->layout[s].size))
        changed = TRUE;
    }

  if (changed)
    relayout (self);
}

static GBytes *
get_source (TerrainTntMap *self)
{
  return terrain_document_get_source_bytes (TERRAIN_DOCUMENT (self));
}

static void
mark_modified (TerrainTntMap *self)
{
  terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);
}

/* Computes the used sub-rectangle of a stored minimap of @stored_w x
 * @stored_h for this map's shape, tnt-sct.md "Minimap". */
static void
minimap_used_size_for (TerrainTntMap *self,
                       guint          stored_w,
                       guint          stored_h,
                       guint         *used_w,
                       guint         *used_h)
{
  gint64 play_right = (gint64) self->width * TERRAIN_TNT_CELL_PIXELS - 32;
  gint64 play_bottom = (gint64) self->height * TERRAIN_TNT_CELL_PIXELS - 128;

  if (play_right <= 0 || play_bottom <= 0)
    {
      /* Maps too small for the play-area margins: no crop is defined. */
      *used_w = stored_w;
      *used_h = stored_h;
    }
  else if (play_right < play_bottom)
    {
      *used_w = (guint) (play_right * stored_w / play_bottom);
      *used_h = stored_h;
    }
  else
    {
      *used_w = stored_w;
      *used_h = (guint) (play_bottom * stored_h / play_right);
    }
}

/* Point-samples the tiles into a @mw x @mh minimap (editor practice,
 * field-notes.md): the play area fills the used sub-rectangle, sampled at
 * pixel centres; the rest is the 0x64 fill. */
static void
generate_minimap (TerrainTntMap *self,
                  guint          mw,
                  guint          mh,
                  guint8        *out)
{
  const guint8 *tiles = self->blocks[TERRAIN_TNT_SECTION_TILES].data;
  gint64 play_w = (gint64) self->width * TERRAIN_TNT_CELL_PIXELS - 32;
  gint64 play_h = (gint64) self->height * TERRAIN_TNT_CELL_PIXELS - 128;
  gint64 pixel_w = (gint64) self->tile_columns * TERRAIN_TNT_TILE_PIXELS;
  gint64 pixel_h = (gint64) self->tile_rows * TERRAIN_TNT_TILE_PIXELS;
  guint used_w, used_h;

  memset (out, TERRAIN_PALETTE_MINIMAP_FILL, (gsize) mw * mh);
  if (pixel_w == 0 || pixel_h == 0)
    return;

  if (play_w <= 0 || play_h <= 0)
    {
      play_w = pixel_w;
      play_h = pixel_h;
    }
  minimap_used_size_for (self, mw, mh, &used_w, &used_h);

  for (guint my = 0; my < used_h; my++)
    {
      gint64 py = MIN ((2 * (gint64) my + 1) * play_h / (2 * (gint64) used_h), pixel_h - 1);

      for (guint mx = 0; mx < used_w; mx++)
        {
          gint64 px = MIN ((2 * (gint64) mx + 1) * play_w / (2 * (gint64) used_w), pixel_w - 1);
          guint16 tile = tile_map_entry (self, (gsize) (py / 32) * self->tile_columns + px / 32);
          gsize pixel = (gsize) tile * TERRAIN_TNT_TILE_BYTES + (py % 32) * 32 + px % 32;

          out[(gsize) my * mw + mx] = tile < self->n_tiles ? tiles[pixel] : 0;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
terrain_tnt_map_finalize (GObject *object)
{
  TerrainTntMap *self = (TerrainTntMap *)object;

  for (guint s = 0; s < N_SECTIONS; s++)
    block_clear (&self->blocks[s]);
  g_clear_pointer (&self->gaps, g_array_unref);
  g_clear_pointer (&self->names, g_ptr_array_unref);

  G_OBJECT_CLASS (terrain_tnt_map_parent_class)->finalize (object);
}

static void
terrain_tnt_map_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TerrainTntMap *self = TERRAIN_TNT_MAP (object);

  switch (prop_id)
    {
    case PROP_VERSION:
      g_value_set_uint (value, self->header[W_VERSION]);
      break;
    case PROP_WIDTH:
      g_value_set_uint (value, self->width);
      break;
    case PROP_HEIGHT:
      g_value_set_uint (value, self->height);
      break;
    case PROP_SEA_LEVEL:
      g_value_set_uint (value, self->header[W_SEA_LEVEL]);
      break;
    case PROP_N_TILES:
      g_value_set_uint (value, self->n_tiles);
      break;
    case PROP_N_FEATURES:
      g_value_set_uint (value, self->n_features);
      break;
    case PROP_MINIMAP_PRESENT:
      g_value_set_boolean (value, terrain_tnt_map_get_minimap_present (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_tnt_map_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TerrainTntMap *self = TERRAIN_TNT_MAP (object);

  switch (prop_id)
    {
    case PROP_SEA_LEVEL:
      terrain_tnt_map_set_sea_level (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GBytes        *terrain_tnt_map_save_to_bytes   (TerrainDocument  *document,
                                                       GError          **error);
static GPtrArray     *terrain_tnt_map_validate        (TerrainDocument  *document);
static JsonNode      *terrain_tnt_map_describe        (TerrainDocument  *document);
static TerrainImage  *terrain_tnt_map_render_image    (TerrainDocument  *document,
                                                       TerrainPalette   *palette,
                                                       GError          **error);
static TerrainImage  *terrain_tnt_map_export_heights  (TerrainDocument  *document,
                                                       GError          **error);
static char          *terrain_tnt_map_describe_offset (TerrainDocument  *document,
                                                       gsize             offset);

static void
terrain_tnt_map_class_init (TerrainTntMapClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  object_class->finalize = terrain_tnt_map_finalize;
  object_class->get_property = terrain_tnt_map_get_property;
  object_class->set_property = terrain_tnt_map_set_property;

  document_class->save_to_bytes = terrain_tnt_map_save_to_bytes;
  document_class->validate = terrain_tnt_map_validate;
  document_class->describe = terrain_tnt_map_describe;
  document_class->render_image = terrain_tnt_map_render_image;
  document_class->export_heights = terrain_tnt_map_export_heights;
  document_class->describe_offset = terrain_tnt_map_describe_offset;

  /**
   * TerrainTntMap:version:
   *
   * The header's version word: %TERRAIN_TNT_VERSION or
   * %TERRAIN_TNT_VERSION_LEGACY.
   */
  properties[PROP_VERSION] =
    g_param_spec_uint ("version", NULL, NULL,
                       0, G_MAXUINT32, TERRAIN_TNT_VERSION,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainTntMap:width:
   *
   * Width of the map in attribute cells (16 pixels each).
   */
  properties[PROP_WIDTH] =
    g_param_spec_uint ("width", NULL, NULL,
                       0, G_MAXUINT32, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainTntMap:height:
   *
   * Height of the map in attribute cells (16 pixels each).
   */
  properties[PROP_HEIGHT] =
    g_param_spec_uint ("height", NULL, NULL,
                       0, G_MAXUINT32, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainTntMap:sea-level:
   *
   * The water level in height units (header word 0x24): cells lower than
   * this are under water. Heights are bytes, so the property takes 0 to
   * 255 (a higher level would drown every cell); a file's own word is
   * read as it is, and [method@Terrain.TntMap.set_sea_level] writes any.
   */
  properties[PROP_SEA_LEVEL] =
    g_param_spec_uint ("sea-level", NULL, NULL,
                       0, 255, 0,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainTntMap:n-tiles:
   *
   * Number of 32x32 tiles in the tile graphics section.
   */
  properties[PROP_N_TILES] =
    g_param_spec_uint ("n-tiles", NULL, NULL,
                       0, G_MAXUINT32, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainTntMap:n-features:
   *
   * Number of feature records.
   */
  properties[PROP_N_FEATURES] =
    g_param_spec_uint ("n-features", NULL, NULL,
                       0, G_MAXUINT32, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainTntMap:minimap-present:
   *
   * Whether bit 0 of the header's MinimapPresent word is set, that is whether
   * the file embeds a minimap.
   */
  properties[PROP_MINIMAP_PRESENT] =
    g_param_spec_boolean ("minimap-present", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TerrainTntMap::cells-changed:
   * @self: the map
   * @x: first changed column, in attribute cells
   * @y: first changed row, in attribute cells
   * @width: number of changed columns
   * @height: number of changed rows
   *
   * Emitted after the height or the feature word of attribute cells changed.
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
   * TerrainTntMap::tiles-changed:
   * @self: the map
   * @column: first changed tile column
   * @row: first changed tile row
   * @width: number of changed columns
   * @height: number of changed rows
   *
   * Emitted after entries of the tile map changed.
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
terrain_tnt_map_init (TerrainTntMap *self)
{
  self->limits = *terrain_limits_get_default ();
  self->gaps = g_array_new (FALSE, FALSE, sizeof (TntSpan));
  self->names = g_ptr_array_new_with_free_func (g_free);
}

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

  if (terrain_reader_sub (file, offset, size, section_titles[section], &sub, &local_error))
    return terrain_reader_read_bytes (&sub, (gsize) size, data, error);

  if (g_error_matches (local_error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "%s: pointer %" G_GUINT64_FORMAT " (header word at byte offset 0x%02x) "
                   "lies beyond the end of the %" G_GSIZE_FORMAT "-byte file",
                   section_titles[section], offset, pointer_word * 4, file_size);
    }
  else if (g_error_matches (local_error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED))
    {
      guint64 available = file_size - offset;

      if (available < prefix)
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                     "%s: section at byte offset %" G_GUINT64_FORMAT " needs a %" G_GUINT64_FORMAT
                     "-byte header but the file ends at byte %" G_GSIZE_FORMAT,
                     section_titles[section], offset, prefix, file_size);
      else
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                     "%s: section at byte offset %" G_GUINT64_FORMAT " needs %" G_GUINT64_FORMAT
                     " bytes (%" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT " bytes) but the"
                     " file ends at byte %" G_GSIZE_FORMAT ", inside %s %" G_GUINT64_FORMAT
                     " (byte offset %" G_GUINT64_FORMAT ")",
                     section_titles[section], offset, size, count, record_size, file_size,
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
                       section_titles[spans[i].section], span->offset, span->size,
                       prev->section == TERRAIN_TNT_SECTION_HEADER ? "the 64-byte header"
                                                                   : section_titles[prev->section],
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
  const char *title = section_titles[TERRAIN_TNT_SECTION_MINIMAP];
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
  block_set_view (&self->blocks[TERRAIN_TNT_SECTION_MINIMAP],
                  (gsize) mw * mh > 0 ? data : NULL, (gsize) mw * mh);
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
  g_autoptr(TerrainTntMap) self = NULL;
  TerrainReader file, header;
  guint32 words[N_HEADER_WORDS];
  guint64 tile_map_entries, cells, size;
  guint cell_bytes, ptr_minimap_word, flag_word;
  const guint8 *data;

  g_return_val_if_fail (bytes != NULL, NULL);

  if (limits == NULL)
    limits = terrain_limits_get_default ();

  terrain_reader_init (&file, bytes, "TNT file");
  if (!terrain_reader_sub (&file, 0, HEADER_SIZE, section_titles[TERRAIN_TNT_SECTION_HEADER],
                           &header, error))
    return NULL;
  for (guint i = 0; i < N_HEADER_WORDS; i++)
    if (!terrain_reader_read_u32 (&header, &words[i], error))
      return NULL;

  if (words[W_VERSION] != TERRAIN_TNT_VERSION && words[W_VERSION] != TERRAIN_TNT_VERSION_LEGACY)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNSUPPORTED_VERSION,
                   "TNT header: unsupported version word 0x%08x at byte offset 0 "
                   "(expected 0x%08x or the legacy 0x%08x)",
                   words[W_VERSION], TERRAIN_TNT_VERSION, TERRAIN_TNT_VERSION_LEGACY);
      return NULL;
    }

  for (guint w = W_WIDTH; w <= W_HEIGHT; w++)
    {
      if (words[w] == 0)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TNT header: %s is 0 at byte offset %u; a map needs at least one cell",
                       w == W_WIDTH ? "width" : "height", w * 4);
          return NULL;
        }
      if (!terrain_limits_check_count (limits, words[w], limits->max_cells_per_side,
                                       w == W_WIDTH ? "width (attribute cells)"
                                                    : "height (attribute cells)",
                                       "TNT header", w * 4, error))
        return NULL;
    }

  if (!terrain_limits_check_count (limits, words[W_TILES], limits->max_tiles,
                                   "tile", "TNT header", W_TILES * 4, error) ||
      !terrain_limits_check_count (limits, words[W_FEATURES], limits->max_features,
                                   "feature record", "TNT header", W_FEATURES * 4, error))
    return NULL;

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
      return NULL;
    }

  /* Every section may be copied on its first edit, and the occupancy grid
   * needs a u16 per cell: check those allocations now. */
  if (!terrain_limits_check_alloc (limits, tile_map_entries, 2, "tile map",
                                   section_titles[TERRAIN_TNT_SECTION_TILE_MAP], 4, error) ||
      !terrain_limits_check_alloc (limits, cells, cell_bytes, "attribute cells",
                                   section_titles[TERRAIN_TNT_SECTION_ATTRIBUTES], 4, error) ||
      !terrain_limits_check_alloc (limits, cells, 2, "occupancy grid",
                                   section_titles[TERRAIN_TNT_SECTION_ATTRIBUTES], 4, error) ||
      !terrain_limits_check_alloc (limits, words[W_TILES], TERRAIN_TNT_TILE_BYTES, "tile graphics",
                                   section_titles[TERRAIN_TNT_SECTION_TILES], W_TILES * 4, error) ||
      !terrain_limits_check_alloc (limits, words[W_FEATURES], FEATURE_RECORD_BYTES,
                                   "feature records", section_titles[TERRAIN_TNT_SECTION_FEATURES],
                                   W_FEATURES * 4, error))
    return NULL;

  self = g_object_new (TERRAIN_TYPE_TNT_MAP, NULL);
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
              return NULL;
            continue;
          }

        size = p->count * p->record_size;
        if (!read_section (&file, p->section, p->pointer_word, p->offset, 0, p->count,
                           p->record_size, &data, error))
          return NULL;
        self->source_spans[p->section] = (TntSpan) { (gsize) p->offset, (gsize) size, TRUE };
        block_set_view (&self->blocks[p->section], data, (gsize) size);
      }
  }

  if (!check_overlaps_and_find_gaps (self, error))
    return NULL;

  memcpy (self->layout, self->source_spans, sizeof self->layout);
  g_ptr_array_set_size (self->names, self->n_features);
  terrain_document_set_source (TERRAIN_DOCUMENT (self), bytes, TERRAIN_FORMAT_TNT);

  return g_steal_pointer (&self);
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
 * [method@Terrain.TntMap.update_minimap] (MinimapPresent = 1). The map is
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
  block_take (&self->blocks[TERRAIN_TNT_SECTION_TILE_MAP],
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
  block_take (&self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES], attributes, cells * 4);
  block_take (&self->blocks[TERRAIN_TNT_SECTION_TILES],
              g_malloc0 (TERRAIN_TNT_TILE_BYTES), TERRAIN_TNT_TILE_BYTES);

  terrain_document_set_source (TERRAIN_DOCUMENT (self), NULL, TERRAIN_FORMAT_TNT);
  relayout (self);
  terrain_tnt_map_update_minimap (self);
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

  terrain_writer_set_section (&writer, section_titles[TERRAIN_TNT_SECTION_HEADER]);
  encode_header (self, head);
  terrain_writer_patch_bytes (&writer, 0, head, sizeof head);

  for (guint s = TERRAIN_TNT_SECTION_TILE_MAP; s < N_SECTIONS; s++)
    {
      const TntSpan *span = &self->layout[s];
      gsize offset = span->offset;

      if (!span->present || span->size == 0)
        continue;

      terrain_writer_set_section (&writer, section_titles[s]);
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
  terrain_writer_set_section (&writer, section_titles[TERRAIN_TNT_SECTION_HEADER]);
  encode_header (self, head);
  terrain_writer_put_bytes (&writer, head, sizeof head);

  for (guint s = TERRAIN_TNT_SECTION_TILE_MAP; s < N_SECTIONS; s++)
    {
      if (!self->layout[s].present)
        continue;

      terrain_writer_set_section (&writer, section_titles[s]);
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

static GBytes *
terrain_tnt_map_save_to_bytes (TerrainDocument  *document,
                               GError          **error)
{
  TerrainTntMap *self = TERRAIN_TNT_MAP (document);
  GBytes *source = get_source (self);

  if (source != NULL && !self->canonical)
    return write_in_place (self, source, error);

  return write_canonical (self, source, error);
}

/* ------------------------------------------------------------------------ */
/* Header                                                                   */

/**
 * terrain_tnt_map_get_version:
 * @self: a #TerrainTntMap
 *
 * Gets the version word.
 *
 * Returns: the version word, %TERRAIN_TNT_VERSION (0x2000) or
 *   %TERRAIN_TNT_VERSION_LEGACY (0x1020)
 */
guint32
terrain_tnt_map_get_version (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  return self->header[W_VERSION];
}

/**
 * terrain_tnt_map_get_width:
 * @self: a #TerrainTntMap
 *
 * Gets the width of the attribute grid.
 *
 * Returns: the width of the attribute grid in cells (16 pixels each)
 */
guint
terrain_tnt_map_get_width (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  return self->width;
}

/**
 * terrain_tnt_map_get_height:
 * @self: a #TerrainTntMap
 *
 * Gets the height of the attribute grid.
 *
 * Returns: the height of the attribute grid in cells (16 pixels each)
 */
guint
terrain_tnt_map_get_height (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  return self->height;
}

/**
 * terrain_tnt_map_get_tile_columns:
 * @self: a #TerrainTntMap
 *
 * Gets the number of tile columns.
 *
 * Returns: the number of tile columns, `Width / 2` (integer division)
 */
guint
terrain_tnt_map_get_tile_columns (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  return self->tile_columns;
}

/**
 * terrain_tnt_map_get_tile_rows:
 * @self: a #TerrainTntMap
 *
 * Gets the number of tile rows.
 *
 * Returns: the number of tile rows, `Height / 2` (integer division)
 */
guint
terrain_tnt_map_get_tile_rows (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  return self->tile_rows;
}

/**
 * terrain_tnt_map_get_header_word:
 * @self: a #TerrainTntMap
 * @index: word index, 0..15 (byte offset / 4)
 *
 * Returns one of the sixteen u32 words of the header as the writer would
 * write it now: the words read from the file, with edited values (sea level,
 * counts, MinimapPresent) and, once an edit changed a section's size, the
 * pointers of the new layout. Words 0x30..0x3C keep whatever they held.
 *
 * Returns: the header word
 */
guint32
terrain_tnt_map_get_header_word (TerrainTntMap *self,
                                 guint          index)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);
  g_return_val_if_fail (index < N_HEADER_WORDS, 0);

  return self->header[index];
}

/**
 * terrain_tnt_map_get_sea_level:
 * @self: a #TerrainTntMap
 *
 * Gets the sea level.
 *
 * Returns: the sea level in height units (header word 0x24)
 */
guint32
terrain_tnt_map_get_sea_level (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  return self->header[W_SEA_LEVEL];
}

/**
 * terrain_tnt_map_set_sea_level:
 * @self: a #TerrainTntMap
 * @sea_level: the new sea level in height units; cells lower than this are
 *   under water
 *
 * Sets the header's SeaLevel word (0x24, in both versions) and notifies
 * [property@Terrain.TntMap:sea-level]. Every 32-bit value is written as
 * given, for byte-level work; maps use 0 to 255, and validation warns
 * about a higher level (the property refuses one).
 */
void
terrain_tnt_map_set_sea_level (TerrainTntMap *self,
                               guint32        sea_level)
{
  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));

  if (self->header[W_SEA_LEVEL] == sea_level)
    return;

  self->header[W_SEA_LEVEL] = sea_level;
  mark_modified (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEA_LEVEL]);
}

/**
 * terrain_tnt_map_get_section_span:
 * @self: a #TerrainTntMap
 * @section: a section
 * @offset: (out) (optional): byte offset of the section
 * @size: (out) (optional): size of the section in bytes (the minimap's
 *   includes its 8-byte width/height prefix)
 *
 * Tells where a section lies in the file the writer would produce now: in
 * the source's layout until an edit changes a section's size, then in the
 * canonical layout. A section with no records has size 0 and the offset its
 * pointer holds.
 *
 * Returns: %FALSE for the minimap when the map has none, otherwise %TRUE
 */
gboolean
terrain_tnt_map_get_section_span (TerrainTntMap     *self,
                                  TerrainTntSection  section,
                                  gsize             *offset,
                                  gsize             *size)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);
  g_return_val_if_fail (section <= TERRAIN_TNT_SECTION_MINIMAP, FALSE);

  if (offset != NULL)
    *offset = self->layout[section].offset;
  if (size != NULL)
    *size = self->layout[section].size;

  return self->layout[section].present;
}

/**
 * terrain_tnt_map_get_legacy_header:
 * @self: a #TerrainTntMap
 * @min_wind: (out) (optional): MinWindSpeed (word 0x28)
 * @max_wind: (out) (optional): MaxWindSpeed (word 0x2C)
 * @gravity: (out) (optional): Gravity (word 0x34); 0 means the engine default
 *
 * Reads the fields only the legacy 0x1020 header carries (tnt-sct.md
 * "Legacy header").
 *
 * Returns: %TRUE for a legacy map, %FALSE (outputs set to 0) otherwise
 */
gboolean
terrain_tnt_map_get_legacy_header (TerrainTntMap *self,
                                   guint32       *min_wind,
                                   guint32       *max_wind,
                                   guint32       *gravity)
{
  gboolean legacy;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);

  legacy = is_legacy (self);
  if (min_wind != NULL)
    *min_wind = legacy ? self->header[W_LEGACY_MIN_WIND] : 0;
  if (max_wind != NULL)
    *max_wind = legacy ? self->header[W_LEGACY_MAX_WIND] : 0;
  if (gravity != NULL)
    *gravity = legacy ? self->header[W_LEGACY_GRAVITY] : 0;

  return legacy;
}

/* ------------------------------------------------------------------------ */
/* Attribute grid                                                           */

/**
 * terrain_tnt_map_get_cell_height:
 * @self: a #TerrainTntMap
 * @x: column, less than the width
 * @y: row, less than the height
 *
 * Gets the height byte of a cell.
 *
 * Returns: the height byte of the cell (byte +0), 0..255, copied verbatim
 *   to the engine's height grid
 */
guint8
terrain_tnt_map_get_cell_height (TerrainTntMap *self,
                                 guint          x,
                                 guint          y)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);
  g_return_val_if_fail (x < self->width && y < self->height, 0);

  return cell_data (self, x, y)[0];
}

/**
 * terrain_tnt_map_set_cell_height:
 * @self: a #TerrainTntMap
 * @x: column, less than the width
 * @y: row, less than the height
 * @height: the new height, 0..255
 *
 * Sets a cell's height byte and emits #TerrainTntMap::cells-changed.
 */
void
terrain_tnt_map_set_cell_height (TerrainTntMap *self,
                                 guint          x,
                                 guint          y,
                                 guint8         height)
{
  guint8 *attributes;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));
  g_return_if_fail (x < self->width && y < self->height);

  if (cell_data (self, x, y)[0] == height)
    return;

  attributes = block_make_writable (&self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES], 0);
  attributes[((gsize) y * self->width + x) * self->cell_bytes] = height;
  mark_modified (self);
  g_signal_emit (self, signals[CELLS_CHANGED], 0, x, y, 1u, 1u);
}

/**
 * terrain_tnt_map_get_cell_feature:
 * @self: a #TerrainTntMap
 * @x: column, less than the width
 * @y: row, less than the height
 *
 * Returns the feature word of a cell as authored (tnt-sct.md "Attribute
 * map"): a feature-table index below %TERRAIN_TNT_FEATURE_RESERVED, or one
 * of the reserved words (%TERRAIN_TNT_FEATURE_VOID, %TERRAIN_TNT_FEATURE_FRINGE,
 * %TERRAIN_TNT_FEATURE_NONE, 0xFFFB, 0xFFFD). In a legacy map the one-byte
 * index (byte +2) is returned; its empty codes 0xFC..0xFF read as
 * %TERRAIN_TNT_FEATURE_NONE.
 *
 * These words are source data, not runtime occupancy: see
 * [method@Terrain.TntMap.build_occupancy].
 *
 * Returns: the feature word
 */
guint16
terrain_tnt_map_get_cell_feature (TerrainTntMap *self,
                                  guint          x,
                                  guint          y)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), TERRAIN_TNT_FEATURE_NONE);
  g_return_val_if_fail (x < self->width && y < self->height, TERRAIN_TNT_FEATURE_NONE);

  return cell_feature (self, (gsize) y * self->width + x);
}

/**
 * terrain_tnt_map_set_cell_feature:
 * @self: a #TerrainTntMap
 * @x: column, less than the width
 * @y: row, less than the height
 * @feature: a feature-table index or a reserved word
 * @error: return location for a #GError
 *
 * Sets a cell's feature word and emits #TerrainTntMap::cells-changed. A
 * 0x2000 map stores any u16. A legacy map stores one byte: indices
 * 0x00..0xFB, or %TERRAIN_TNT_FEATURE_NONE, written as 0xFF unless the cell
 * already holds one of the empty codes 0xFC..0xFF (which is kept).
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_INVALID_VALUE when a
 *   legacy map cannot store @feature
 */
gboolean
terrain_tnt_map_set_cell_feature (TerrainTntMap  *self,
                                  guint           x,
                                  guint           y,
                                  guint16         feature,
                                  GError        **error)
{
  gsize cell;
  guint8 *attributes;
  const guint8 *p;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);
  g_return_val_if_fail (x < self->width && y < self->height, FALSE);

  cell = (gsize) y * self->width + x;
  p = cell_data (self, x, y);

  if (is_legacy (self))
    {
      if (feature > 0xFB && feature != TERRAIN_TNT_FEATURE_NONE)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TNT attribute map: cell %" G_GSIZE_FORMAT " (x=%u, y=%u): a legacy "
                       "(0x1020) cell holds a one-byte feature index 0x00..0xFB or empty, "
                       "not 0x%04x",
                       cell, x, y, feature);
          return FALSE;
        }
      if (cell_feature (self, cell) == feature)
        return TRUE;

      attributes = block_make_writable (&self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES], 0);
      attributes[cell * self->cell_bytes + 2] =
        feature == TERRAIN_TNT_FEATURE_NONE ? 0xFF : (guint8) feature;
    }
  else
    {
      if (terrain_get_le16 (p + 1) == feature)
        return TRUE;

      attributes = block_make_writable (&self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES], 0);
      terrain_put_le16 (attributes + cell * self->cell_bytes + 1, feature);
    }

  mark_modified (self);
  g_signal_emit (self, signals[CELLS_CHANGED], 0, x, y, 1u, 1u);

  return TRUE;
}

/**
 * terrain_tnt_map_get_cell_extra:
 * @self: a #TerrainTntMap
 * @x: column, less than the width
 * @y: row, less than the height
 *
 * Gets attribute byte +3 of a cell.
 *
 * Returns: attribute byte +3 of the cell, unread by the engine and 0 in
 *   every retail map (tnt-sct.md "Attribute map")
 */
guint8
terrain_tnt_map_get_cell_extra (TerrainTntMap *self,
                                guint          x,
                                guint          y)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);
  g_return_val_if_fail (x < self->width && y < self->height, 0);

  return cell_data (self, x, y)[3];
}

/**
 * terrain_tnt_map_get_cell_metal:
 * @self: a #TerrainTntMap
 * @x: column, less than the width
 * @y: row, less than the height
 *
 * Gets the metal byte of a legacy map's cell.
 *
 * Returns: the per-cell metal byte of a legacy map (byte +6 of its 8-byte
 *   cells, tnt-sct.md "Legacy header"), 0 for a 0x2000 map
 */
guint8
terrain_tnt_map_get_cell_metal (TerrainTntMap *self,
                                guint          x,
                                guint          y)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);
  g_return_val_if_fail (x < self->width && y < self->height, 0);

  return is_legacy (self) ? cell_data (self, x, y)[6] : 0;
}

/* ------------------------------------------------------------------------ */
/* Tiles                                                                    */

/**
 * terrain_tnt_map_get_n_tiles:
 * @self: a #TerrainTntMap
 *
 * Gets the number of 32x32 tiles.
 *
 * Returns: the number of 32x32 tiles (header word Tiles)
 */
guint
terrain_tnt_map_get_n_tiles (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  return self->n_tiles;
}

/**
 * terrain_tnt_map_get_tile:
 * @self: a #TerrainTntMap
 * @index: a tile index
 *
 * Returns the graphics of one tile: 32x32 palette indices, row-major.
 *
 * Returns: (transfer none) (array fixed-size=1024) (nullable): the tile's
 *   1024 bytes, valid until the next edit of the map's tiles, or %NULL when
 *   @index is not less than the tile count
 */
const guint8 *
terrain_tnt_map_get_tile (TerrainTntMap *self,
                          guint          index)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  if (index >= self->n_tiles)
    return NULL;

  return self->blocks[TERRAIN_TNT_SECTION_TILES].data + (gsize) index * TERRAIN_TNT_TILE_BYTES;
}

/**
 * terrain_tnt_map_add_tile:
 * @self: a #TerrainTntMap
 * @pixels: (array fixed-size=1024): 32x32 palette indices, row-major
 *
 * Appends a tile to the tile graphics. The tile section changes size, so
 * the next write lays the file out canonically. Notifies
 * [property@Terrain.TntMap:n-tiles].
 *
 * Returns: the new tile's index, or %G_MAXUINT (with a critical warning)
 *   when the map already holds as many tiles as its limits allow
 */
guint
terrain_tnt_map_add_tile (TerrainTntMap *self,
                          const guint8  *pixels)
{
  TntBlock *block;
  guint8 *data;
  guint index;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), G_MAXUINT);
  g_return_val_if_fail (pixels != NULL, G_MAXUINT);
  g_return_val_if_fail (self->n_tiles < self->limits.max_tiles, G_MAXUINT);

  block = &self->blocks[TERRAIN_TNT_SECTION_TILES];
  data = block_make_writable (block, TERRAIN_TNT_TILE_BYTES);
  memcpy (data + block->size, pixels, TERRAIN_TNT_TILE_BYTES);
  block->size += TERRAIN_TNT_TILE_BYTES;

  index = self->n_tiles++;
  self->header[W_TILES] = self->n_tiles;
  update_layout (self);
  mark_modified (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_TILES]);

  return index;
}

/**
 * terrain_tnt_map_get_tile_index:
 * @self: a #TerrainTntMap
 * @column: tile column, less than [method@Terrain.TntMap.get_tile_columns]
 * @row: tile row, less than [method@Terrain.TntMap.get_tile_rows]
 *
 * Gets the tile drawn at a 32x32-pixel position.
 *
 * Returns: the tile drawn at a 32x32-pixel position of the map (it may be
 *   out of range in a damaged file; [method@Terrain.Document.validate]
 *   reports that)
 */
guint16
terrain_tnt_map_get_tile_index (TerrainTntMap *self,
                                guint          column,
                                guint          row)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);
  g_return_val_if_fail (column < self->tile_columns && row < self->tile_rows, 0);

  return tile_map_entry (self, (gsize) row * self->tile_columns + column);
}

/**
 * terrain_tnt_map_set_tile_index:
 * @self: a #TerrainTntMap
 * @column: tile column, less than [method@Terrain.TntMap.get_tile_columns]
 * @row: tile row, less than [method@Terrain.TntMap.get_tile_rows]
 * @tile: a tile index; one not below the tile count is stored as given and
 *   rendered as a magenta checker
 *
 * Sets the tile drawn at a 32x32-pixel position and emits
 * #TerrainTntMap::tiles-changed.
 */
void
terrain_tnt_map_set_tile_index (TerrainTntMap *self,
                                guint          column,
                                guint          row,
                                guint16        tile)
{
  gsize entry;
  guint8 *tile_map;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));
  g_return_if_fail (column < self->tile_columns && row < self->tile_rows);

  entry = (gsize) row * self->tile_columns + column;
  if (tile_map_entry (self, entry) == tile)
    return;

  tile_map = block_make_writable (&self->blocks[TERRAIN_TNT_SECTION_TILE_MAP], 0);
  terrain_put_le16 (tile_map + 2 * entry, tile);
  mark_modified (self);
  g_signal_emit (self, signals[TILES_CHANGED], 0, column, row, 1u, 1u);
}

/* ------------------------------------------------------------------------ */
/* Feature table                                                            */

static inline const guint8 *
feature_record (TerrainTntMap *self,
                guint          index)
{
  return self->blocks[TERRAIN_TNT_SECTION_FEATURES].data + (gsize) index * FEATURE_RECORD_BYTES;
}

/**
 * terrain_tnt_map_get_n_features:
 * @self: a #TerrainTntMap
 *
 * Gets the number of feature records.
 *
 * Returns: the number of feature records (header word TileAnims)
 */
guint
terrain_tnt_map_get_n_features (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  return self->n_features;
}

/**
 * terrain_tnt_map_get_feature_name:
 * @self: a #TerrainTntMap
 * @index: position in the feature table, less than the feature count
 *
 * Returns a feature record's name: the bytes of its 128-byte name field up
 * to the first NUL (all 128 when there is none). Bytes after the NUL are
 * kept for writing but not returned.
 *
 * Returns: (transfer none) (nullable): the name, owned by the map, or %NULL
 *   when @index is out of range
 */
const char *
terrain_tnt_map_get_feature_name (TerrainTntMap *self,
                                  guint          index)
{
  char *name;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  if (index >= self->n_features)
    return NULL;

  name = g_ptr_array_index (self->names, index);
  if (name == NULL)
    {
      name = g_strndup ((const char *) feature_record (self, index) + 4,
                        TERRAIN_TNT_FEATURE_NAME_BYTES);
      g_ptr_array_index (self->names, index) = name;
    }

  return name;
}

/**
 * terrain_tnt_map_get_feature_record_index:
 * @self: a #TerrainTntMap
 * @index: position in the feature table, less than the feature count
 *
 * Returns the leading u32 of a feature record. It equals the record's
 * position in observed data; cells refer to features by position, not by
 * this word.
 *
 * Returns: the record's index word, or 0 when @index is out of range
 */
guint32
terrain_tnt_map_get_feature_record_index (TerrainTntMap *self,
                                          guint          index)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  if (index >= self->n_features)
    return 0;

  return terrain_get_le32 (feature_record (self, index));
}

/**
 * terrain_tnt_map_add_feature_name:
 * @self: a #TerrainTntMap
 * @name: the feature's name (a TDF section name), shorter than 128 bytes
 *
 * Appends a feature record whose index word is its position and whose name
 * field is @name padded with NULs to 128 bytes. The feature section changes
 * size, so the next write lays the file out canonically. Notifies
 * [property@Terrain.TntMap:n-features].
 *
 * Returns: the new record's position, or %G_MAXUINT (with a critical
 *   warning) when @name is 128 bytes or longer or the feature table is full
 */
guint
terrain_tnt_map_add_feature_name (TerrainTntMap *self,
                                  const char    *name)
{
  TntBlock *block;
  guint8 *data;
  gsize length;
  guint index;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), G_MAXUINT);
  g_return_val_if_fail (name != NULL, G_MAXUINT);
  length = strlen (name);
  g_return_val_if_fail (length < TERRAIN_TNT_FEATURE_NAME_BYTES, G_MAXUINT);
  g_return_val_if_fail (self->n_features < self->limits.max_features, G_MAXUINT);

  block = &self->blocks[TERRAIN_TNT_SECTION_FEATURES];
  data = block_make_writable (block, FEATURE_RECORD_BYTES) + block->size;
  index = self->n_features;
  terrain_put_le32 (data, index);
  memset (data + 4, 0, TERRAIN_TNT_FEATURE_NAME_BYTES);
  memcpy (data + 4, name, length);
  block->size += FEATURE_RECORD_BYTES;

  self->n_features++;
  self->header[W_FEATURES] = self->n_features;
  g_ptr_array_add (self->names, g_strdup (name));
  update_layout (self);
  mark_modified (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_FEATURES]);

  return index;
}

/* ------------------------------------------------------------------------ */
/* Minimap                                                                  */

/**
 * terrain_tnt_map_get_minimap_present:
 * @self: a #TerrainTntMap
 *
 * Gets whether the file embeds a minimap.
 *
 * Returns: whether bit 0 of the MinimapPresent header word is set, that is
 *   whether the file embeds a minimap (otherwise the engine generates one)
 */
gboolean
terrain_tnt_map_get_minimap_present (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);

  return (self->header[minimap_flag_word (self)] & 1) != 0;
}

/**
 * terrain_tnt_map_get_minimap: (skip)
 * @self: a #TerrainTntMap
 * @width: (out) (optional): stored width in pixels
 * @height: (out) (optional): stored height in pixels
 *
 * Returns the embedded minimap as stored: @width x @height palette indices,
 * row-major. Only the top-left sub-rectangle given by
 * [method@Terrain.TntMap.get_minimap_used_size] holds terrain; the rest is
 * the 0x64 fill.
 *
 * Returns: (transfer none) (nullable): the pixels, valid until the next
 *   minimap edit, or %NULL (and 0x0) when the map embeds no minimap or a
 *   zero-sized one
 */
const guint8 *
terrain_tnt_map_get_minimap (TerrainTntMap *self,
                             guint         *width,
                             guint         *height)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  if (width != NULL)
    *width = self->has_minimap ? self->minimap_width : 0;
  if (height != NULL)
    *height = self->has_minimap ? self->minimap_height : 0;

  if (!self->has_minimap || self->blocks[TERRAIN_TNT_SECTION_MINIMAP].size == 0)
    return NULL;

  return self->blocks[TERRAIN_TNT_SECTION_MINIMAP].data;
}

/**
 * terrain_tnt_map_get_minimap_used_size:
 * @self: a #TerrainTntMap
 * @width: (out) (optional): used width in pixels
 * @height: (out) (optional): used height in pixels
 *
 * Computes the top-left sub-rectangle of the stored minimap that holds
 * terrain (tnt-sct.md "Minimap", how the used sub-rectangle is sized). With
 * `PlayRight = Width*16-32` and `PlayBottom = Height*16-128`: when
 * `PlayRight < PlayBottom` the used width is `PlayRight*storedW/PlayBottom`
 * (truncated) and the used height `storedH`; otherwise the used width is
 * `storedW` and the used height `PlayBottom*storedH/PlayRight`. Maps too
 * small for those margins (either value <= 0) use the whole stored size.
 * Without an embedded minimap the stored size is taken as 252x252, the size
 * [method@Terrain.TntMap.update_minimap] would make.
 */
void
terrain_tnt_map_get_minimap_used_size (TerrainTntMap *self,
                                       guint         *width,
                                       guint         *height)
{
  guint stored_w = DEFAULT_MINIMAP_SIDE, stored_h = DEFAULT_MINIMAP_SIDE;
  guint used_w, used_h;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));

  if (self->has_minimap)
    {
      stored_w = self->minimap_width;
      stored_h = self->minimap_height;
    }
  minimap_used_size_for (self, stored_w, stored_h, &used_w, &used_h);

  if (width != NULL)
    *width = used_w;
  if (height != NULL)
    *height = used_h;
}

/**
 * terrain_tnt_map_get_minimap_crop:
 * @self: a #TerrainTntMap
 * @stored_width: width of a minimap bitmap in pixels
 * @stored_height: height of a minimap bitmap in pixels
 * @used_width: (out) (optional): used width in pixels
 * @used_height: (out) (optional): used height in pixels
 *
 * Applies the retail crop rule of [method@Terrain.TntMap.get_minimap_used_size]
 * to a bitmap of any stored size: the top-left sub-rectangle of a
 * @stored_width x @stored_height minimap that holds this map's play area.
 */
void
terrain_tnt_map_get_minimap_crop (TerrainTntMap *self,
                                  guint          stored_width,
                                  guint          stored_height,
                                  guint         *used_width,
                                  guint         *used_height)
{
  guint used_w, used_h;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));

  minimap_used_size_for (self, stored_width, stored_height, &used_w, &used_h);
  if (used_width != NULL)
    *used_width = used_w;
  if (used_height != NULL)
    *used_height = used_h;
}

/* Replaces the minimap with @pixels (taken), sets MinimapPresent bit 0. */
static void
take_minimap (TerrainTntMap *self,
              guint          width,
              guint          height,
              guint8        *pixels)
{
  gboolean was_present = terrain_tnt_map_get_minimap_present (self);

  block_take (&self->blocks[TERRAIN_TNT_SECTION_MINIMAP], pixels, (gsize) width * height);
  self->minimap_width = width;
  self->minimap_height = height;
  self->has_minimap = TRUE;
  self->header[minimap_flag_word (self)] |= 1;
  update_layout (self);
  mark_modified (self);

  if (!was_present)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MINIMAP_PRESENT]);
}

/**
 * terrain_tnt_map_set_minimap:
 * @self: a #TerrainTntMap
 * @width: stored width in pixels (252 in nearly all retail maps)
 * @height: stored height in pixels
 * @pixels: (array) (nullable): @width x @height palette indices, row-major;
 *   may be %NULL only when the size is 0
 * @error: return location for a #GError
 *
 * Replaces the embedded minimap and sets bit 0 of MinimapPresent. Unchanged
 * pixels leave the map unmodified. A different size changes the minimap
 * section's size, so the next write lays the file out canonically.
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_LIMIT_EXCEEDED when
 *   a side exceeds the map's image-side limit
 */
gboolean
terrain_tnt_map_set_minimap (TerrainTntMap  *self,
                             guint           width,
                             guint           height,
                             const guint8   *pixels,
                             GError        **error)
{
  gsize size;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);
  g_return_val_if_fail (pixels != NULL || (gsize) width * height == 0, FALSE);

  if (!terrain_limits_check_count (&self->limits, width, self->limits.max_image_side,
                                   "width (pixels)", section_titles[TERRAIN_TNT_SECTION_MINIMAP],
                                   -1, error) ||
      !terrain_limits_check_count (&self->limits, height, self->limits.max_image_side,
                                   "height (pixels)", section_titles[TERRAIN_TNT_SECTION_MINIMAP],
                                   -1, error) ||
      !terrain_limits_check_alloc (&self->limits, (guint64) width * height, 1, "minimap pixels",
                                   section_titles[TERRAIN_TNT_SECTION_MINIMAP], -1, error))
    return FALSE;

  size = (gsize) width * height;
  if (self->has_minimap && terrain_tnt_map_get_minimap_present (self) &&
      self->minimap_width == width && self->minimap_height == height &&
      (size == 0 || memcmp (self->blocks[TERRAIN_TNT_SECTION_MINIMAP].data, pixels, size) == 0))
    return TRUE;

  take_minimap (self, width, height, size > 0 ? g_memdup2 (pixels, size) : NULL);
  return TRUE;
}

/**
 * terrain_tnt_map_update_minimap:
 * @self: a #TerrainTntMap
 *
 * Regenerates the embedded minimap from the tiles at its stored size (252x252
 * when the map has none or a zero-sized one): the play area (`Width*16-32` by
 * `Height*16-128` pixels) is point-sampled at pixel centres into the used
 * sub-rectangle of [method@Terrain.TntMap.get_minimap_used_size] and the rest
 * is filled with index 0x64 (field-notes.md, "Minimap from tiles"). Sets bit
 * 0 of MinimapPresent.
 */
void
terrain_tnt_map_update_minimap (TerrainTntMap *self)
{
  guint width = DEFAULT_MINIMAP_SIDE, height = DEFAULT_MINIMAP_SIDE;
  g_autofree guint8 *pixels = NULL;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));

  if (self->has_minimap && self->minimap_width > 0 && self->minimap_height > 0)
    {
      width = self->minimap_width;
      height = self->minimap_height;
    }

  pixels = g_malloc ((gsize) width * height);
  generate_minimap (self, width, height, pixels);

  if (self->has_minimap && terrain_tnt_map_get_minimap_present (self) &&
      self->minimap_width == width && self->minimap_height == height &&
      memcmp (self->blocks[TERRAIN_TNT_SECTION_MINIMAP].data, pixels, (gsize) width * height) == 0)
    return;

  take_minimap (self, width, height, g_steal_pointer (&pixels));
}

/* ------------------------------------------------------------------------ */
/* Bulk edits                                                               */

static void
emit_all_cells_changed (TerrainTntMap *self)
{
  g_signal_emit (self, signals[CELLS_CHANGED], 0, 0u, 0u, self->width, self->height);
}

static void
emit_all_tiles_changed (TerrainTntMap *self)
{
  g_signal_emit (self, signals[TILES_CHANGED], 0, 0u, 0u, self->tile_columns, self->tile_rows);
}

/**
 * terrain_tnt_map_set_heights:
 * @self: a #TerrainTntMap
 * @x: first column of the region, in attribute cells
 * @y: first row of the region
 * @width: columns in the region
 * @height: rows in the region
 * @heights: (array): @height rows of @width heights, rows @stride bytes apart
 * @stride: distance in bytes between the starts of two rows of @heights
 *
 * Sets the height byte of every cell of a region at once (a heightmap
 * import, a stamped section) and emits #TerrainTntMap::cells-changed once
 * for the region when anything changed. Only the height bytes are written;
 * an unchanged cell is not touched.
 */
void
terrain_tnt_map_set_heights (TerrainTntMap *self,
                             guint          x,
                             guint          y,
                             guint          width,
                             guint          height,
                             const guint8  *heights,
                             gsize          stride)
{
  guint8 *attributes = NULL;
  gboolean changed = FALSE;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));
  g_return_if_fail (x <= self->width && width <= self->width - x);
  g_return_if_fail (y <= self->height && height <= self->height - y);
  g_return_if_fail (heights != NULL || width == 0 || height == 0);
  g_return_if_fail (stride >= width);

  for (guint row = 0; row < height; row++)
    for (guint column = 0; column < width; column++)
      {
        guint8 value = heights[(gsize) row * stride + column];
        gsize offset = ((gsize) (y + row) * self->width + x + column) * self->cell_bytes;

        if (self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES].data[offset] == value)
          continue;
        if (attributes == NULL)
          attributes = block_make_writable (&self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES], 0);
        attributes[offset] = value;
        changed = TRUE;
      }

  if (!changed)
    return;

  mark_modified (self);
  g_signal_emit (self, signals[CELLS_CHANGED], 0, x, y, width, height);
}

/**
 * terrain_tnt_map_set_tile:
 * @self: a #TerrainTntMap
 * @index: a tile index, less than the tile count
 * @pixels: (array fixed-size=1024): 32x32 palette indices, row-major
 *
 * Replaces the graphics of one tile in place (the tile section keeps its
 * size) and emits #TerrainTntMap::tiles-changed for the whole map, since
 * every position drawing the tile changes.
 */
void
terrain_tnt_map_set_tile (TerrainTntMap *self,
                          guint          index,
                          const guint8  *pixels)
{
  gsize offset;
  guint8 *tiles;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));
  g_return_if_fail (index < self->n_tiles);
  g_return_if_fail (pixels != NULL);

  offset = (gsize) index * TERRAIN_TNT_TILE_BYTES;
  if (memcmp (self->blocks[TERRAIN_TNT_SECTION_TILES].data + offset, pixels,
              TERRAIN_TNT_TILE_BYTES) == 0)
    return;

  tiles = block_make_writable (&self->blocks[TERRAIN_TNT_SECTION_TILES], 0);
  memcpy (tiles + offset, pixels, TERRAIN_TNT_TILE_BYTES);
  mark_modified (self);
  emit_all_tiles_changed (self);
}

/**
 * terrain_tnt_map_set_tiles:
 * @self: a #TerrainTntMap
 * @pixels: (array): @n_tiles x 1024 palette indices, one 32x32 tile after the
 *   other
 * @n_tiles: the new tile count, at least 1
 * @error: return location for a #GError
 *
 * Replaces the whole tile set (an image import). Tile map entries are not
 * changed; set them with [method@Terrain.TntMap.set_tile_map]. When the
 * count changes, the tile section changes size and the next write lays the
 * file out canonically. Notifies [property@Terrain.TntMap:n-tiles] and emits
 * #TerrainTntMap::tiles-changed.
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_LIMIT_EXCEEDED when
 *   @n_tiles exceeds the map's limits or 65536 (a tile map entry is a u16)
 */
gboolean
terrain_tnt_map_set_tiles (TerrainTntMap  *self,
                           const guint8   *pixels,
                           guint           n_tiles,
                           GError        **error)
{
  const char *title = section_titles[TERRAIN_TNT_SECTION_TILES];
  guint old_count;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);
  g_return_val_if_fail (pixels != NULL, FALSE);
  g_return_val_if_fail (n_tiles > 0, FALSE);

  if (!terrain_limits_check_count (&self->limits, n_tiles,
                                   MIN (self->limits.max_tiles, G_MAXUINT16 + 1u), "tile",
                                   title, -1, error) ||
      !terrain_limits_check_alloc (&self->limits, n_tiles, TERRAIN_TNT_TILE_BYTES,
                                   "tile graphics", title, -1, error))
    return FALSE;

  old_count = self->n_tiles;
  if (old_count == n_tiles &&
      memcmp (self->blocks[TERRAIN_TNT_SECTION_TILES].data, pixels,
              (gsize) n_tiles * TERRAIN_TNT_TILE_BYTES) == 0)
    return TRUE;

  block_take (&self->blocks[TERRAIN_TNT_SECTION_TILES],
              g_memdup2 (pixels, (gsize) n_tiles * TERRAIN_TNT_TILE_BYTES),
              (gsize) n_tiles * TERRAIN_TNT_TILE_BYTES);
  self->n_tiles = n_tiles;
  self->header[W_TILES] = n_tiles;
  update_layout (self);
  mark_modified (self);
  if (old_count != n_tiles)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_TILES]);
  emit_all_tiles_changed (self);

  return TRUE;
}

/**
 * terrain_tnt_map_set_tile_map:
 * @self: a #TerrainTntMap
 * @entries: (array): one tile index per 32x32 position, row-major,
 *   [method@Terrain.TntMap.get_tile_columns] x
 *   [method@Terrain.TntMap.get_tile_rows] of them
 *
 * Sets every entry of the tile map at once and emits
 * #TerrainTntMap::tiles-changed once when anything changed. The section
 * keeps its size, so it is patched in place.
 */
void
terrain_tnt_map_set_tile_map (TerrainTntMap  *self,
                              const guint16  *entries)
{
  gsize n;
  guint8 *tile_map = NULL;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));
  g_return_if_fail (entries != NULL);

  n = (gsize) self->tile_columns * self->tile_rows;
  for (gsize i = 0; i < n; i++)
    {
      if (tile_map_entry (self, i) == entries[i])
        continue;
      if (tile_map == NULL)
        tile_map = block_make_writable (&self->blocks[TERRAIN_TNT_SECTION_TILE_MAP], 0);
      terrain_put_le16 (tile_map + 2 * i, entries[i]);
    }

  if (tile_map == NULL)
    return;

  mark_modified (self);
  emit_all_tiles_changed (self);
}

/**
 * terrain_tnt_map_find_tile:
 * @self: a #TerrainTntMap
 * @pixels: (array fixed-size=1024): 32x32 palette indices
 *
 * Looks for a tile with exactly these pixels.
 *
 * Returns: the lowest index of such a tile, or %G_MAXUINT when there is none
 */
guint
terrain_tnt_map_find_tile (TerrainTntMap *self,
                           const guint8  *pixels)
{
  const guint8 *tiles;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), G_MAXUINT);
  g_return_val_if_fail (pixels != NULL, G_MAXUINT);

  tiles = self->blocks[TERRAIN_TNT_SECTION_TILES].data;
  for (guint i = 0; i < self->n_tiles; i++)
    if (memcmp (tiles + (gsize) i * TERRAIN_TNT_TILE_BYTES, pixels, TERRAIN_TNT_TILE_BYTES) == 0)
      return i;

  return G_MAXUINT;
}

/**
 * terrain_tnt_map_find_feature:
 * @self: a #TerrainTntMap
 * @name: a feature name
 *
 * Looks a name up in the feature table, case-insensitively (ASCII), as the
 * engine matches names against feature definitions.
 *
 * Returns: the position of the first record with that name, or %G_MAXUINT
 */
guint
terrain_tnt_map_find_feature (TerrainTntMap *self,
                              const char    *name)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), G_MAXUINT);
  g_return_val_if_fail (name != NULL, G_MAXUINT);

  for (guint i = 0; i < self->n_features; i++)
    if (g_ascii_strcasecmp (terrain_tnt_map_get_feature_name (self, i), name) == 0)
      return i;

  return G_MAXUINT;
}

/**
 * terrain_tnt_map_list_placements:
 * @self: a #TerrainTntMap
 *
 * Lists the features placed on the map: every cell whose feature word is a
 * live index (below %TERRAIN_TNT_FEATURE_RESERVED, including indices not
 * below the feature count, which [method@Terrain.Document.validate]
 * reports), in row-major order. The cell is the anchor, the top-left corner
 * of the feature's footprint.
 *
 * Returns: (transfer full) (element-type TerrainTntPlacement): the
 *   placements
 */
GArray *
terrain_tnt_map_list_placements (TerrainTntMap *self)
{
  GArray *placements;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  placements = g_array_new (FALSE, FALSE, sizeof (TerrainTntPlacement));
  for (guint y = 0; y < self->height; y++)
    for (guint x = 0; x < self->width; x++)
      {
        guint16 feature = cell_feature (self, (gsize) y * self->width + x);
        TerrainTntPlacement placement = { x, y, feature };

        if (feature < TERRAIN_TNT_FEATURE_RESERVED)
          g_array_append_val (placements, placement);
      }

  return placements;
}

/* Rewrites the feature table keeping the records whose @new_index is not
 * G_MAXUINT (in their old order, so that new indices must be increasing),
 * and renumbers the cells: a cell naming a dropped record becomes empty.
 * Words not below the old count are left alone. */
static void
remap_features (TerrainTntMap *self,
                const guint   *new_index,
                guint          n_kept)
{
  const guint8 *old_records = self->blocks[TERRAIN_TNT_SECTION_FEATURES].data;
  guint old_count = self->n_features;
  gsize cells = (gsize) self->width * self->height;
  gboolean legacy = is_legacy (self);
  guint8 *records, *attributes = NULL;

  records = g_malloc (MAX ((gsize) n_kept * FEATURE_RECORD_BYTES, 1));
  for (guint i = 0; i < old_count; i++)
    {
      guint8 *record;

      if (new_index[i] == G_MAXUINT)
        continue;
      record = records + (gsize) new_index[i] * FEATURE_RECORD_BYTES;
      memcpy (record, old_records + (gsize) i * FEATURE_RECORD_BYTES, FEATURE_RECORD_BYTES);
      /* The index word follows the record's position where it did. */
      if (terrain_get_le32 (record) == i)
        terrain_put_le32 (record, new_index[i]);
    }

  for (gsize cell = 0; cell < cells; cell++)
    {
      guint16 feature = cell_feature (self, cell);
      guint16 word;

      if (feature >= old_count || feature >= TERRAIN_TNT_FEATURE_RESERVED ||
          new_index[feature] == feature)
        continue;

      word = new_index[feature] == G_MAXUINT ? TERRAIN_TNT_FEATURE_NONE
                                             : (guint16) new_index[feature];
      if (attributes == NULL)
        attributes = block_make_writable (&self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES], 0);
      if (legacy)
        attributes[cell * self->cell_bytes + 2] = word == TERRAIN_TNT_FEATURE_NONE ? 0xFF
                                                                                   : (guint8) word;
      else
        terrain_put_le16 (attributes + cell * self->cell_bytes + 1, word);
    }

  block_take (&self->blocks[TERRAIN_TNT_SECTION_FEATURES], records,
              (gsize) n_kept * FEATURE_RECORD_BYTES);
  self->n_features = n_kept;
  self->header[W_FEATURES] = n_kept;
  g_ptr_array_set_size (self->names, 0);
  g_ptr_array_set_size (self->names, n_kept);
  update_layout (self);
  mark_modified (self);
  if (n_kept != old_count)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_FEATURES]);
  if (attributes != NULL)
    emit_all_cells_changed (self);
}

/**
 * terrain_tnt_map_remove_feature:
 * @self: a #TerrainTntMap
 * @index: position of the record to remove, less than the feature count
 *
 * Removes one record from the feature table. Later records move down one
 * place and the cells naming them are renumbered; cells naming the removed
 * record become empty (0xFFFF). A record's leading index word that equalled
 * its position is updated to the new position. The feature section shrinks,
 * so the next write lays the file out canonically.
 */
void
terrain_tnt_map_remove_feature (TerrainTntMap *self,
                                guint          index)
{
  g_autofree guint *new_index = NULL;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));
  g_return_if_fail (index < self->n_features);

  new_index = g_new (guint, self->n_features);
  for (guint i = 0; i < self->n_features; i++)
    new_index[i] = i < index ? i : i == index ? G_MAXUINT : i - 1;
  remap_features (self, new_index, self->n_features - 1);
}

/**
 * terrain_tnt_map_remove_unused_features:
 * @self: a #TerrainTntMap
 *
 * Drops every feature record no cell names (the "clean up" of stale entries
 * left by deleting features: editors otherwise keep the table as it is, so
 * that an edit does not renumber it). The remaining records keep their
 * order and the cells are renumbered. Does nothing when every record is
 * used.
 *
 * Returns: the number of records removed
 */
guint
terrain_tnt_map_remove_unused_features (TerrainTntMap *self)
{
  g_autofree gboolean *used = NULL;
  g_autofree guint *new_index = NULL;
  gsize cells;
  guint kept = 0, removed;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  if (self->n_features == 0)
    return 0;

  used = g_new0 (gboolean, self->n_features);
  cells = (gsize) self->width * self->height;
  for (gsize cell = 0; cell < cells; cell++)
    {
      guint16 feature = cell_feature (self, cell);

      if (feature < self->n_features)
        used[feature] = TRUE;
    }

  new_index = g_new (guint, self->n_features);
  for (guint i = 0; i < self->n_features; i++)
    new_index[i] = used[i] ? kept++ : G_MAXUINT;

  if (kept == self->n_features)
    return 0;

  removed = self->n_features - kept;
  remap_features (self, new_index, kept);
  return removed;
}

/**
 * terrain_tnt_map_resize:
 * @self: a #TerrainTntMap
 * @left: attribute cells to add on the west side (negative: to remove)
 * @top: cells to add on the north side (negative: to remove)
 * @right: cells to add on the east side (negative: to remove)
 * @bottom: cells to add on the south side (negative: to remove)
 * @fill_height: height of the added cells
 * @fill_tile: tile index drawn on the added 32x32 positions
 * @error: return location for a #GError
 *
 * Grows or shrinks the map on any side. Every amount must be even, so that
 * the tile grid (one tile per 2x2 cells) stays aligned with the attribute
 * grid. Kept cells and tile positions keep their contents, shifted by
 * (@left, @top); added cells get @fill_height, the empty feature word and
 * zero in their other bytes; features anchored in removed cells disappear
 * (their records stay in the table). The tile graphics, the feature table
 * and the minimap are not changed (regenerate the minimap afterwards). The
 * tile map and the attribute map change size, so the next write lays the
 * file out canonically. Notifies [property@Terrain.TntMap:width] and
 * [property@Terrain.TntMap:height].
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_INVALID_VALUE for an
 *   odd amount or a result below 2x2 cells, or %TERRAIN_ERROR_LIMIT_EXCEEDED
 *   when the result exceeds the map's limits
 */
gboolean
terrain_tnt_map_resize (TerrainTntMap  *self,
                        gint            left,
                        gint            top,
                        gint            right,
                        gint            bottom,
                        guint8          fill_height,
                        guint16         fill_tile,
                        GError        **error)
{
  const char *title = section_titles[TERRAIN_TNT_SECTION_ATTRIBUTES];
  gint64 new_width, new_height;
  guint columns, rows, old_width = self->width, old_height = self->height;
  guint8 *attributes, *tile_map;
  guint8 empty[8] = { 0 };
  gsize cells;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);

  if (left % 2 != 0 || top % 2 != 0 || right % 2 != 0 || bottom % 2 != 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT map: resizing by %+d/%+d/%+d/%+d cells (left/top/right/bottom): every "
                   "amount must be even, since a 32x32 tile covers 2x2 attribute cells",
                   left, top, right, bottom);
      return FALSE;
    }

  new_width = (gint64) self->width + left + right;
  new_height = (gint64) self->height + top + bottom;
  if (new_width < 2 || new_height < 2)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT map: resizing %ux%u cells by %+d/%+d/%+d/%+d (left/top/right/bottom) "
                   "leaves %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "; a map needs at least 2x2",
                   self->width, self->height, left, top, right, bottom, new_width, new_height);
      return FALSE;
    }
  if (!terrain_limits_check_count (&self->limits, (guint64) new_width,
                                   self->limits.max_cells_per_side, "width (attribute cells)",
                                   title, -1, error) ||
      !terrain_limits_check_count (&self->limits, (guint64) new_height,
                                   self->limits.max_cells_per_side, "height (attribute cells)",
                                   title, -1, error) ||
      !terrain_limits_check_alloc (&self->limits, (guint64) new_width * (guint64) new_height,
                                   self->cell_bytes, "attribute cells", title, -1, error))
    return FALSE;

  if (left == 0 && top == 0 && right == 0 && bottom == 0)
    return TRUE;

  /* The new empty cell: height, then the empty feature word. */
  empty[0] = fill_height;
  if (is_legacy (self))
    empty[2] = 0xFF;
  else
    terrain_put_le16 (empty + 1, TERRAIN_TNT_FEATURE_NONE);

  cells = (gsize) new_width * (gsize) new_height;
  attributes = g_malloc (cells * self->cell_bytes);
  for (gint64 y = 0; y < new_height; y++)
    for (gint64 x = 0; x < new_width; x++)
      {
        gint64 ox = x - left, oy = y - top;
        guint8 *out = attributes + ((gsize) y * (gsize) new_width + (gsize) x) * self->cell_bytes;

        if (ox >= 0 && oy >= 0 && ox < self->width && oy < self->height)
          memcpy (out, cell_data (self, (guint) ox, (guint) oy), self->cell_bytes);
        else
          memcpy (out, empty, self->cell_bytes);
      }

  columns = (guint) new_width / 2;
  rows = (guint) new_height / 2;
  tile_map = g_malloc (MAX ((gsize) columns * rows * 2, 1));
  for (guint row = 0; row < rows; row++)
    for (guint column = 0; column < columns; column++)
      {
        gint64 oc = (gint64) column - left / 2, orow = (gint64) row - top / 2;
        guint16 entry = fill_tile;

        if (oc >= 0 && orow >= 0 && oc < self->tile_columns && orow < self->tile_rows)
          entry = tile_map_entry (self, (gsize) orow * self->tile_columns + (gsize) oc);
        terrain_put_le16 (tile_map + 2 * ((gsize) row * columns + column), entry);
      }

  block_take (&self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES], attributes,
              cells * self->cell_bytes);
  block_take (&self->blocks[TERRAIN_TNT_SECTION_TILE_MAP], tile_map, (gsize) columns * rows * 2);
  self->width = (guint) new_width;
  self->height = (guint) new_height;
  self->tile_columns = columns;
  self->tile_rows = rows;
  self->header[W_WIDTH] = self->width;
  self->header[W_HEIGHT] = self->height;
  update_layout (self);
  mark_modified (self);

  g_object_freeze_notify (G_OBJECT (self));
  if (old_width != self->width)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WIDTH]);
  if (old_height != self->height)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HEIGHT]);
  g_object_thaw_notify (G_OBJECT (self));
  emit_all_cells_changed (self);
  emit_all_tiles_changed (self);

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Snapshots (terrain-tnt-map-private.h)                                    */

typedef struct
{
  const guint8 *view;   /* a view into the source bytes, or NULL */
  guint8       *copy;   /* an edited block's contents, or NULL */
  gsize         size;
} SnapshotBlock;

struct _TntMapSnapshot
{
  guint sections;
  guint32 header[N_HEADER_WORDS];
  guint width;
  guint height;
  guint tile_columns;
  guint tile_rows;
  guint n_tiles;
  guint n_features;
  guint minimap_width;
  guint minimap_height;
  gboolean has_minimap;
  gboolean canonical;
  TntSpan layout[N_SECTIONS];
  SnapshotBlock blocks[N_SECTIONS];
};

TntMapSnapshot *
terrain_tnt_map_snapshot (TerrainTntMap *self,
                          guint          sections)
{
  TntMapSnapshot *snapshot;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  snapshot = g_new0 (TntMapSnapshot, 1);
  snapshot->sections = sections & TNT_ALL_SECTIONS & ~TNT_SECTION_BIT (TERRAIN_TNT_SECTION_HEADER);
  memcpy (snapshot->header, self->header, sizeof self->header);
  snapshot->width = self->width;
  snapshot->height = self->height;
  snapshot->tile_columns = self->tile_columns;
  snapshot->tile_rows = self->tile_rows;
  snapshot->n_tiles = self->n_tiles;
  snapshot->n_features = self->n_features;
  snapshot->minimap_width = self->minimap_width;
  snapshot->minimap_height = self->minimap_height;
  snapshot->has_minimap = self->has_minimap;
  snapshot->canonical = self->canonical;
  memcpy (snapshot->layout, self->layout, sizeof self->layout);

  for (guint s = TERRAIN_TNT_SECTION_TILE_MAP; s < N_SECTIONS; s++)
    {
      const TntBlock *block = &self->blocks[s];
      SnapshotBlock *saved = &snapshot->blocks[s];

      if ((snapshot->sections & TNT_SECTION_BIT (s)) == 0)
        continue;

      saved->size = block->size;
      if (block->owned == NULL)
        saved->view = block->data;
      else
        saved->copy = g_memdup2 (block->data, MAX (block->size, 1));
    }

  return snapshot;
}

void
terrain_tnt_map_snapshot_free (TntMapSnapshot *snapshot)
{
  if (snapshot == NULL)
    return;

  for (guint s = 0; s < N_SECTIONS; s++)
    g_free (snapshot->blocks[s].copy);
  g_free (snapshot);
}

gsize
terrain_tnt_map_snapshot_size (TntMapSnapshot *snapshot)
{
  gsize size = sizeof *snapshot;

  for (guint s = 0; s < N_SECTIONS; s++)
    if (snapshot->blocks[s].copy != NULL)
      size += snapshot->blocks[s].size;

  return size;
}

void
terrain_tnt_map_restore (TerrainTntMap  *self,
                         TntMapSnapshot *snapshot)
{
  GObject *object = G_OBJECT (self);
  guint old_width = self->width, old_height = self->height;
  guint old_tiles = self->n_tiles, old_features = self->n_features;
  guint32 old_sea = self->header[W_SEA_LEVEL];
  gboolean old_present = terrain_tnt_map_get_minimap_present (self);
  gboolean cells_changed, tiles_changed;

  g_return_if_fail (TERRAIN_IS_TNT_MAP (self));
  g_return_if_fail (snapshot != NULL);

  for (guint s = TERRAIN_TNT_SECTION_TILE_MAP; s < N_SECTIONS; s++)
    {
      SnapshotBlock *saved = &snapshot->blocks[s];

      if ((snapshot->sections & TNT_SECTION_BIT (s)) == 0)
        continue;

      block_clear (&self->blocks[s]);
      if (saved->copy != NULL)
        block_take (&self->blocks[s], g_steal_pointer (&saved->copy), saved->size);
      else
        block_set_view (&self->blocks[s], saved->view, saved->size);
    }

  memcpy (self->header, snapshot->header, sizeof self->header);
  self->width = snapshot->width;
  self->height = snapshot->height;
  self->tile_columns = snapshot->tile_columns;
  self->tile_rows = snapshot->tile_rows;
  self->n_tiles = snapshot->n_tiles;
  self->n_features = snapshot->n_features;
  self->minimap_width = snapshot->minimap_width;
  self->minimap_height = snapshot->minimap_height;
  self->has_minimap = snapshot->has_minimap;
  self->canonical = snapshot->canonical;
  memcpy (self->layout, snapshot->layout, sizeof self->layout);
  g_ptr_array_set_size (self->names, 0);
  g_ptr_array_set_size (self->names, self->n_features);

  cells_changed = (snapshot->sections & TNT_SECTION_BIT (TERRAIN_TNT_SECTION_ATTRIBUTES)) != 0 ||
                  old_width != self->width || old_height != self->height;
  tiles_changed = (snapshot->sections & (TNT_SECTION_BIT (TERRAIN_TNT_SECTION_TILE_MAP) |
                                         TNT_SECTION_BIT (TERRAIN_TNT_SECTION_TILES))) != 0 ||
                  cells_changed;
  terrain_tnt_map_snapshot_free (snapshot);

  mark_modified (self);
  g_object_freeze_notify (object);
  if (old_width != self->width)
    g_object_notify_by_pspec (object, properties[PROP_WIDTH]);
  if (old_height != self->height)
    g_object_notify_by_pspec (object, properties[PROP_HEIGHT]);
  if (old_tiles != self->n_tiles)
    g_object_notify_by_pspec (object, properties[PROP_N_TILES]);
  if (old_features != self->n_features)
    g_object_notify_by_pspec (object, properties[PROP_N_FEATURES]);
  if (old_sea != self->header[W_SEA_LEVEL])
    g_object_notify_by_pspec (object, properties[PROP_SEA_LEVEL]);
  if (old_present != terrain_tnt_map_get_minimap_present (self))
    g_object_notify_by_pspec (object, properties[PROP_MINIMAP_PRESENT]);
  g_object_thaw_notify (object);
  if (cells_changed)
    emit_all_cells_changed (self);
  if (tiles_changed)
    emit_all_tiles_changed (self);
}

/* ------------------------------------------------------------------------ */
/* Rendering                                                                */

static gboolean
require_palette (TerrainPalette  *palette,
                 GError         **error)
{
  if (palette != NULL)
    return TRUE;

  g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TNT map: a palette is needed to render palette-indexed pixels");
  return FALSE;
}

/**
 * terrain_tnt_map_render:
 * @self: a #TerrainTntMap
 * @palette: the palette the tiles index (`PALETTE.PAL`)
 * @error: return location for a #GError
 *
 * Renders the whole map at one pixel per map pixel: `(Width/2)*32` x
 * `(Height/2)*32` RGBA pixels, each tile expanded through @palette. A tile
 * map entry not below the tile count is drawn as a magenta and black checker
 * of 8-pixel squares (magenta at the tile's top-left) so that damage is
 * visible.
 *
 * Returns: (transfer full) (nullable): the picture, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE when @palette is %NULL or the map has no
 *   whole tile, or %TERRAIN_ERROR_LIMIT_EXCEEDED when it is too large
 */
TerrainImage *
terrain_tnt_map_render (TerrainTntMap   *self,
                        TerrainPalette  *palette,
                        GError         **error)
{
  g_autoptr(TerrainImage) image = NULL;
  const guint8 *rgba;
  const guint8 *tiles;
  guint8 *pixels;
  gsize stride;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  if (!require_palette (palette, error))
    return NULL;

  if (self->tile_columns == 0 || self->tile_rows == 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT map: %ux%u cells hold no whole 32x32 tile to render",
                   self->width, self->height);
      return NULL;
    }

  image = terrain_image_new (TERRAIN_IMAGE_RGBA8,
                             self->tile_columns * TERRAIN_TNT_TILE_PIXELS,
                             self->tile_rows * TERRAIN_TNT_TILE_PIXELS, error);
  if (image == NULL)
    return NULL;

  rgba = terrain_palette_get_rgba_table (palette);
  tiles = self->blocks[TERRAIN_TNT_SECTION_TILES].data;
  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);

  for (guint row = 0; row < self->tile_rows; row++)
    for (guint column = 0; column < self->tile_columns; column++)
      {
        guint16 tile = tile_map_entry (self, (gsize) row * self->tile_columns + column);
        guint8 *out = pixels + (gsize) row * TERRAIN_TNT_TILE_PIXELS * stride +
                      (gsize) column * TERRAIN_TNT_TILE_PIXELS * 4;

        terrain_ta_draw_tile (out, stride,
                              tile < self->n_tiles
                                ? tiles + (gsize) tile * TERRAIN_TNT_TILE_BYTES : NULL,
                              rgba);
      }

  return g_steal_pointer (&image);
}

/**
 * terrain_tnt_map_render_minimap:
 * @self: a #TerrainTntMap
 * @palette: the palette the minimap indexes
 * @crop: %TRUE to return only the used sub-rectangle
 *   ([method@Terrain.TntMap.get_minimap_used_size]), %FALSE for the whole
 *   stored bitmap including the 0x64 fill
 * @error: return location for a #GError
 *
 * Renders the embedded minimap as RGBA. When the map embeds none (or a
 * zero-sized one), renders the minimap the engine would generate: the tiles
 * sampled as [method@Terrain.TntMap.update_minimap] does, without changing
 * the map.
 *
 * Returns: (transfer full) (nullable): the picture, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE when @palette is %NULL
 */
TerrainImage *
terrain_tnt_map_render_minimap (TerrainTntMap   *self,
                                TerrainPalette  *palette,
                                gboolean         crop,
                                GError         **error)
{
  g_autoptr(TerrainImage) image = NULL;
  g_autofree guint8 *generated = NULL;
  const guint8 *rgba, *src;
  guint stored_w, stored_h, out_w, out_h;
  guint8 *pixels;
  gsize stride;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  if (!require_palette (palette, error))
    return NULL;

  src = terrain_tnt_map_get_minimap (self, &stored_w, &stored_h);
  if (src == NULL)
    {
      stored_w = stored_h = DEFAULT_MINIMAP_SIDE;
      generated = g_malloc ((gsize) stored_w * stored_h);
      generate_minimap (self, stored_w, stored_h, generated);
      src = generated;
    }

  out_w = stored_w;
  out_h = stored_h;
  if (crop)
    {
      minimap_used_size_for (self, stored_w, stored_h, &out_w, &out_h);
      out_w = CLAMP (out_w, 1, stored_w);
      out_h = CLAMP (out_h, 1, stored_h);
    }

  image = terrain_image_new (TERRAIN_IMAGE_RGBA8, out_w, out_h, error);
  if (image == NULL)
    return NULL;

  rgba = terrain_palette_get_rgba_table (palette);
  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  for (guint y = 0; y < out_h; y++)
    for (guint x = 0; x < out_w; x++)
      memcpy (pixels + y * stride + 4 * x, rgba + 4 * src[(gsize) y * stored_w + x], 4);

  return g_steal_pointer (&image);
}

static TerrainImage *
terrain_tnt_map_render_image (TerrainDocument  *document,
                              TerrainPalette   *palette,
                              GError          **error)
{
  return terrain_tnt_map_render (TERRAIN_TNT_MAP (document), palette, error);
}

static TerrainImage *
terrain_tnt_map_export_heights (TerrainDocument  *document,
                                GError          **error)
{
  TerrainTntMap *self = TERRAIN_TNT_MAP (document);
  g_autoptr(TerrainImage) image = NULL;
  guint8 *pixels;
  gsize stride;

  image = terrain_image_new (TERRAIN_IMAGE_GRAY16, self->width, self->height, error);
  if (image == NULL)
    return NULL;

  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  for (guint y = 0; y < self->height; y++)
    {
      guint16 *row = (guint16 *) (gpointer) (pixels + y * stride);

      for (guint x = 0; x < self->width; x++)
        row[x] = (guint16) (cell_data (self, x, y)[0] * 257u);
    }

  return g_steal_pointer (&image);
}

/* ------------------------------------------------------------------------ */
/* Footprints                                                               */

typedef enum
{
  TNT_FINDING_OTHER,
  TNT_FINDING_TILE_INDEX,
  TNT_FINDING_FEATURE_INDEX,
  TNT_FINDING_FOOTPRINT_OVERLAP,
  TNT_FINDING_FOOTPRINT_CLIPPED,
  TNT_FINDING_RECORD_INDEX,
  TNT_FINDING_ATTRIBUTE_EXTRA,
  TNT_FINDING_FEATURE_NAME,
  TNT_FINDING_N_KINDS
} TntFindingKind;

/* Collects findings, keeping at most @cap of each kind; the rest are
 * counted and summarised by sink_finish(). */
typedef struct
{
  GPtrArray *issues;
  guint      cap;
  guint      counts[TNT_FINDING_N_KINDS];
  TerrainSeverity severities[TNT_FINDING_N_KINDS];
  const char *sections[TNT_FINDING_N_KINDS];
} TntSink;

static void
sink_init (TntSink   *sink,
           GPtrArray *issues,
           guint      cap)
{
  memset (sink, 0, sizeof *sink);
  sink->issues = issues;
  sink->cap = cap;
}

static void
sink_add (TntSink        *sink,
          TntFindingKind  kind,
          TerrainIssue   *issue)
{
  sink->counts[kind]++;
  sink->severities[kind] = terrain_issue_get_severity (issue);
  sink->sections[kind] = terrain_issue_get_section (issue) != NULL ?
                         g_intern_string (terrain_issue_get_section (issue)) : NULL;

  /* Header-level findings are few by construction and never capped. */
  if (sink->issues != NULL && (kind == TNT_FINDING_OTHER || sink->counts[kind] <= sink->cap))
    g_ptr_array_add (sink->issues, issue);
  else
    terrain_issue_unref (issue);
}

static const char *
finding_kind_description (TntFindingKind kind)
{
  switch (kind)
    {
    case TNT_FINDING_TILE_INDEX:
      return "tile map entries name a tile beyond the tile count";
    case TNT_FINDING_FEATURE_INDEX:
      return "cells name a feature beyond the feature table";
    case TNT_FINDING_FOOTPRINT_OVERLAP:
      return "feature footprints overlap occupied cells";
    case TNT_FINDING_FOOTPRINT_CLIPPED:
      return "feature footprints run off the map edge";
    case TNT_FINDING_RECORD_INDEX:
      return "feature records have an index word differing from their position";
    case TNT_FINDING_ATTRIBUTE_EXTRA:
      return "cells have a nonzero attribute byte +3";
    case TNT_FINDING_FEATURE_NAME:
      return "feature records have an unusable name";
    case TNT_FINDING_OTHER:
    case TNT_FINDING_N_KINDS:
    default:
      return "findings of this kind";
    }
}

/* Appends one summary issue per kind that was cut short. */
static void
sink_finish (TntSink *sink)
{
  if (sink->issues == NULL)
    return;

  for (guint k = 0; k < TNT_FINDING_N_KINDS; k++)
    if (sink->counts[k] > sink->cap && k != TNT_FINDING_OTHER)
      g_ptr_array_add (sink->issues,
                       terrain_issue_new (sink->severities[k], sink->sections[k], -1, -1,
                                          "%u %s in total; only the first %u are listed",
                                          sink->counts[k], finding_kind_description (k),
                                          sink->cap));
}

static gsize
attribute_offset (TerrainTntMap *self,
                  gsize          cell)
{
  return self->layout[TERRAIN_TNT_SECTION_ATTRIBUTES].offset + cell * self->cell_bytes;
}

/* Reconstructs runtime feature occupancy, tnt-sct.md "Source words are not
 * runtime occupancy". */
static guint16 *
build_occupancy (TerrainTntMap           *self,
                                      TerrainTntFootprintFunc  footprint_func,
                                      gpointer                 user_data,
                                      guint16                **owners,
                                      TntSink                 *sink)
{
  const char *title = section_titles[TERRAIN_TNT_SECTION_ATTRIBUTES];
  gsize cells = (gsize) self->width * self->height;
  guint feature_byte = feature_byte_offset (self);
  guint16 *occupancy, *owner = NULL;
  gboolean legacy = is_legacy (self);

  occupancy = g_new (guint16, cells);
  for (gsize i = 0; i < cells; i++)
    occupancy[i] = TERRAIN_TNT_FEATURE_NONE;
  if (owners != NULL)
    {
      owner = g_new (guint16, cells);
      for (gsize i = 0; i < cells; i++)
        owner[i] = TERRAIN_TNT_FEATURE_NONE;
    }

  /* Authored voids first; the legacy encoding has no void code. */
  if (!legacy)
    for (gsize i = 0; i < cells; i++)
      if (cell_feature (self, i) == TERRAIN_TNT_FEATURE_VOID)
        occupancy[i] = TERRAIN_TNT_FEATURE_VOID;

  /* Then live indices in row-major order; authored fringe, 0xFFFB and
   * 0xFFFD stamp nothing. */
  for (guint y = 0; y < self->height; y++)
    for (guint x = 0; x < self->width; x++)
      {
        gsize cell = (gsize) y * self->width + x;
        guint16 feature = cell_feature (self, cell);
        guint fx = 1, fz = 1, overlapped = 0;
        gboolean clipped = FALSE;
        const char *name;

        if (feature >= TERRAIN_TNT_FEATURE_RESERVED)
          continue;

        if (feature >= self->n_features)
          {
            TerrainIssue *issue =
              terrain_issue_new (TERRAIN_SEVERITY_WARNING, title,
                                 (gint64) (attribute_offset (self, cell) + feature_byte),
                                 (gint64) cell,
                                 "cell (x=%u, y=%u) names feature %u but the feature table "
                                 "has %u records; the feature is skipped",
                                 x, y, feature, self->n_features);
            terrain_issue_set_position (issue, (gint) x, (gint) y);
            sink_add (sink, TNT_FINDING_FEATURE_INDEX, issue);
            continue;
          }

        name = terrain_tnt_map_get_feature_name (self, feature);
        if (footprint_func == NULL || !footprint_func (name, &fx, &fz, user_data))
          fx = fz = 1;
        fx = MAX (fx, 1);
        fz = MAX (fz, 1);

        for (guint dz = 0; dz < fz; dz++)
          for (guint dx = 0; dx < fx; dx++)
            {
              guint64 cx = (guint64) x + dx, cz = (guint64) y + dz;
              gsize covered;

              if (cx >= self->width || cz >= self->height)
                {
                  clipped = TRUE;
                  continue;
                }
              covered = (gsize) cz * self->width + (gsize) cx;
              if (occupancy[covered] != TERRAIN_TNT_FEATURE_NONE)
                {
                  overlapped++;
                  continue;
                }
              occupancy[covered] = (dx == 0 && dz == 0) ? feature : TERRAIN_TNT_FEATURE_FRINGE;
              if (owner != NULL)
                owner[covered] = feature;
            }

        if (overlapped > 0)
          {
            TerrainIssue *issue =
              terrain_issue_new (TERRAIN_SEVERITY_WARNING, title,
                                 (gint64) (attribute_offset (self, cell) + feature_byte),
                                 (gint64) cell,
                                 "feature %u (%s) anchored at (x=%u, y=%u) with a %ux%u "
                                 "footprint overlaps %u occupied cell%s; the earlier "
                                 "occupant keeps them",
                                 feature, name, x, y, fx, fz, overlapped,
                                 overlapped == 1 ? "" : "s");
            terrain_issue_set_position (issue, (gint) x, (gint) y);
            sink_add (sink, TNT_FINDING_FOOTPRINT_OVERLAP, issue);
          }
        if (clipped)
          {
            TerrainIssue *issue =
              terrain_issue_new (TERRAIN_SEVERITY_WARNING, title,
                                 (gint64) (attribute_offset (self, cell) + feature_byte),
                                 (gint64) cell,
                                 "feature %u (%s) anchored at (x=%u, y=%u) with a %ux%u "
                                 "footprint runs off the %ux%u map; it is clipped",
                                 feature, name, x, y, fx, fz, self->width, self->height);
            terrain_issue_set_position (issue, (gint) x, (gint) y);
            sink_add (sink, TNT_FINDING_FOOTPRINT_CLIPPED, issue);
          }
      }

  if (owners != NULL)
    *owners = owner;

  return occupancy;
}

/**
 * terrain_tnt_map_build_occupancy: (skip)
 * @self: a #TerrainTntMap
 * @footprint_func: (nullable) (scope call): looks up a feature's footprint;
 *   %NULL (or a lookup returning %FALSE) means 1x1
 * @user_data: data for @footprint_func
 * @owners: (out) (optional) (transfer full) (array): return location for a
 *   `Width x Height` array holding, for every anchor and fringe cell, the
 *   feature index that owns it, and 0xFFFF elsewhere
 * @issues: (nullable) (element-type TerrainIssue): array to append findings
 *   to (warnings with the cell position set)
 *
 * Reconstructs the runtime feature occupancy from the source feature words,
 * as the engine's loader does (tnt-sct.md, "Source words are not runtime
 * occupancy"): every cell starts empty (0xFFFF); authored voids (0xFFFC) are
 * stamped first; then, in row-major order, each live index (below 0xFFFB;
 * the one-byte index of a legacy map) stamps its feature's footprint with
 * the anchor at that cell as its top-left corner: the anchor holds the
 * feature index, the other covered cells 0xFFFE. Authored 0xFFFE, 0xFFFB and
 * 0xFFFD stamp nothing, so an uncovered authored fringe becomes empty and a
 * covered 0xFFFF becomes fringe.
 *
 * Reported in @issues: a footprint overlapping an occupied cell (the earlier
 * occupant keeps it), a footprint running off the map edge (clipped), and
 * an index not below the feature count (skipped).
 *
 * Returns: (transfer full) (array): `Width x Height` occupancy words,
 *   row-major; free with g_free()
 */
guint16 *
terrain_tnt_map_build_occupancy (TerrainTntMap           *self,
                                 TerrainTntFootprintFunc  footprint_func,
                                 gpointer                 user_data,
                                 guint16                **owners,
                                 GPtrArray               *issues)
{
  TntSink sink;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  sink_init (&sink, issues, G_MAXUINT);
  return build_occupancy (self, footprint_func, user_data, owners, &sink);
}

/* ------------------------------------------------------------------------ */
/* Validation                                                               */

/* Whether the bytes at the minimap pointer look like a minimap, for a map
 * whose MinimapPresent bit is clear. */
static gboolean
pointer_holds_plausible_minimap (TerrainTntMap *self,
                                 guint32       *mw,
                                 guint32       *mh)
{
  GBytes *source = get_source (self);
  TerrainReader reader, sub;
  guint64 offset = self->header[minimap_pointer_word (self)];

  if (source == NULL || self->canonical)
    return FALSE;

  terrain_reader_init (&reader, source, section_titles[TERRAIN_TNT_SECTION_MINIMAP]);
  if (offset < HEADER_SIZE ||
      !terrain_reader_sub (&reader, offset, MINIMAP_HEADER_BYTES, NULL, &sub, NULL) ||
      !terrain_reader_read_u32 (&sub, mw, NULL) ||
      !terrain_reader_read_u32 (&sub, mh, NULL))
    return FALSE;

  if (*mw == 0 || *mh == 0 || *mw > 4096 || *mh > 4096)
    return FALSE;

  return terrain_reader_check_span (&reader, offset, MINIMAP_HEADER_BYTES + (guint64) *mw * *mh,
                                    "minimap", NULL);
}

static void
validate_header (TerrainTntMap *self,
                 TntSink       *sink)
{
  const char *title = section_titles[TERRAIN_TNT_SECTION_HEADER];
  guint flag_word = minimap_flag_word (self);
  guint32 mw, mh;

  if (self->width % 2 != 0 || self->height % 2 != 0)
    sink_add (sink, TNT_FINDING_OTHER,
              terrain_issue_new (TERRAIN_SEVERITY_WARNING, title,
                                 self->width % 2 != 0 ? W_WIDTH * 4 : W_HEIGHT * 4, -1,
                                 "the map is %ux%u cells: an odd side leaves a strip of cells "
                                 "no tile covers (the tile grid is %ux%u) and the Nanolathe "
                                 "reader refuses it",
                                 self->width, self->height, self->tile_columns, self->tile_rows));

  if (is_legacy (self))
    {
      if (self->header[W_LEGACY_UNREAD] != 0)
        sink_add (sink, TNT_FINDING_OTHER,
                  terrain_issue_new (TERRAIN_SEVERITY_INFO, title, W_LEGACY_UNREAD * 4, -1,
                                     "unread legacy header word at byte offset 0x30 holds "
                                     "0x%08x", self->header[W_LEGACY_UNREAD]));
    }
  else
    {
      for (guint w = 12; w < N_HEADER_WORDS; w++)
        if (self->header[w] != 0)
          sink_add (sink, TNT_FINDING_OTHER,
                    terrain_issue_new (TERRAIN_SEVERITY_INFO, title, w * 4, -1,
                                       "header pad word at byte offset 0x%02x holds 0x%08x "
                                       "(0 in every retail map; not read by the engine)",
                                       w * 4, self->header[w]));
    }

  if (self->header[W_SEA_LEVEL] > 255)
    sink_add (sink, TNT_FINDING_OTHER,
              terrain_issue_new (TERRAIN_SEVERITY_WARNING, title, W_SEA_LEVEL * 4, -1,
                                 "sea level %u is above the highest height a cell can have "
                                 "(255): every cell is under water",
                                 self->header[W_SEA_LEVEL]));

  if (terrain_tnt_map_get_minimap_present (self))
    {
      if (self->minimap_width == 0 || self->minimap_height == 0)
        sink_add (sink, TNT_FINDING_OTHER,
                  terrain_issue_new (TERRAIN_SEVERITY_WARNING,
                                     section_titles[TERRAIN_TNT_SECTION_MINIMAP],
                                     (gint64) self->layout[TERRAIN_TNT_SECTION_MINIMAP].offset, -1,
                                     "MinimapPresent bit 0 is set but the minimap is %ux%u "
                                     "pixels: there is nothing to show",
                                     self->minimap_width, self->minimap_height));
    }
  else if (pointer_holds_plausible_minimap (self, &mw, &mh))
    sink_add (sink, TNT_FINDING_OTHER,
              terrain_issue_new (TERRAIN_SEVERITY_WARNING, title, flag_word * 4, -1,
                                 "MinimapPresent bit 0 is clear but the minimap pointer (%u) "
                                 "points at what looks like a %ux%u minimap; the engine will "
                                 "ignore it and generate one from the tiles",
                                 self->header[minimap_pointer_word (self)], mw, mh));
}

/* Whether any tile map entry names a tile beyond the tile count. A
 * branch-free pass the compiler vectorises; validate_tile_map () walks the
 * entries again only on a map that has such findings. */
static gboolean
tile_map_has_bad_entries (TerrainTntMap *self)
{
  gsize entries = (gsize) self->tile_columns * self->tile_rows;
  const guint8 *data = self->blocks[TERRAIN_TNT_SECTION_TILE_MAP].data;
  guint32 n_tiles = self->n_tiles;
  guint bad = 0;

  for (gsize i = 0; i < entries; i++)
    bad |= terrain_get_le16 (data + 2 * i) >= n_tiles;

  return bad != 0;
}

static void
validate_tile_map (TerrainTntMap *self,
                   TntSink       *sink)
{
  gsize entries = (gsize) self->tile_columns * self->tile_rows;
  gsize base = self->layout[TERRAIN_TNT_SECTION_TILE_MAP].offset;

  if (!tile_map_has_bad_entries (self))
    return;

  for (gsize i = 0; i < entries; i++)
    {
      guint16 tile = tile_map_entry (self, i);
      TerrainIssue *issue;

      if (tile < self->n_tiles)
        continue;

      issue = terrain_issue_new (TERRAIN_SEVERITY_WARNING,
                                 section_titles[TERRAIN_TNT_SECTION_TILE_MAP],
                                 (gint64) (base + 2 * i), (gint64) i,
                                 "tile (column=%u, row=%u) is tile %u but the map has %u tiles",
                                 (guint) (i % self->tile_columns), (guint) (i / self->tile_columns),
                                 tile, self->n_tiles);
      terrain_issue_set_position (issue,
                                  (gint) (i % self->tile_columns) * 2,
                                  (gint) (i / self->tile_columns) * 2);
      sink_add (sink, TNT_FINDING_TILE_INDEX, issue);
    }
}

/* What build_occupancy () reports without footprints, in one streaming
 * pass with no Width x Height grid: every live index then stamps only its
 * own (empty) cell, so neither overlaps nor clipping can occur and the only
 * finding is an index beyond the feature table, in the same row-major
 * order. */
static void
validate_feature_indices (TerrainTntMap *self,
                          TntSink       *sink)
{
  const char *title = section_titles[TERRAIN_TNT_SECTION_ATTRIBUTES];
  const guint8 *data = self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES].data;
  gsize cells = (gsize) self->width * self->height;
  guint feature_byte = feature_byte_offset (self);
  gboolean legacy = is_legacy (self);

  for (gsize cell = 0; cell < cells; cell++)
    {
      const guint8 *p = data + cell * self->cell_bytes;
      guint16 feature;
      guint x, y;
      TerrainIssue *issue;

      if (legacy)
        feature = p[2] >= 0xFC ? TERRAIN_TNT_FEATURE_NONE : p[2];
      else
        feature = terrain_get_le16 (p + 1);
      if (feature >= TERRAIN_TNT_FEATURE_RESERVED || feature < self->n_features)
        continue;

      x = (guint) (cell % self->width);
      y = (guint) (cell / self->width);
      issue = terrain_issue_new (TERRAIN_SEVERITY_WARNING, title,
                                 (gint64) (attribute_offset (self, cell) + feature_byte),
                                 (gint64) cell,
                                 "cell (x=%u, y=%u) names feature %u but the feature table "
                                 "has %u records; the feature is skipped",
                                 x, y, feature, self->n_features);
      terrain_issue_set_position (issue, (gint) x, (gint) y);
      sink_add (sink, TNT_FINDING_FEATURE_INDEX, issue);
    }
}

/* One branch-free pass over the attribute cells (which the compiler
 * vectorises, the stride being a constant in each branch) finding whether
 * any cell has a nonzero byte +3 and whether any names a feature beyond the
 * feature table, with the rules of validate_attributes () and
 * validate_feature_indices (). Those walk the cells again, one finding at a
 * time, only on a map that has such findings: most have none, and the
 * attribute map is the bulk of a TNT file. */
static void
scan_attributes (TerrainTntMap *self,
                 gboolean      *has_extra,
                 gboolean      *has_bad_feature)
{
  gsize cells = (gsize) self->width * self->height;
  const guint8 *data = self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES].data;
  guint32 n_features = self->n_features;
  guint32 extra = 0;
  guint bad = 0;

  if (is_legacy (self))
    {
      /* Byte +2 is the feature; 0xFC and above mean none. */
      guint32 span = n_features < 0xFC ? 0xFC - n_features : 0;

      for (gsize i = 0; i < cells; i++)
        {
          const guint8 *p = data + 8 * i;

          extra |= p[3];
          bad |= (guint32) p[2] - n_features < span;
        }
    }
  else
    {
      /* Bytes +1..+2 are the feature; TERRAIN_TNT_FEATURE_RESERVED and
       * above are not indices. */
      guint32 span = n_features < TERRAIN_TNT_FEATURE_RESERVED ?
                     TERRAIN_TNT_FEATURE_RESERVED - n_features : 0;

      for (gsize i = 0; i < cells; i++)
        {
          guint32 word;

          memcpy (&word, data + 4 * i, sizeof word);
          word = GUINT32_FROM_LE (word);
          extra |= word >> 24;
          bad |= ((word >> 8) & 0xFFFF) - n_features < span;
        }
    }

  *has_extra = extra != 0;
  *has_bad_feature = bad != 0;
}

static void
validate_attributes (TerrainTntMap *self,
                     TntSink       *sink)
{
  gsize cells = (gsize) self->width * self->height;
  const guint8 *data = self->blocks[TERRAIN_TNT_SECTION_ATTRIBUTES].data;
  gboolean has_extra, has_bad_feature;

  scan_attributes (self, &has_extra, &has_bad_feature);

  for (gsize i = 0; has_extra && i < cells; i++)
    {
      guint8 extra = data[i * self->cell_bytes + 3];
      TerrainIssue *issue;

      if (extra == 0)
        continue;

      issue = terrain_issue_new (TERRAIN_SEVERITY_INFO,
                                 section_titles[TERRAIN_TNT_SECTION_ATTRIBUTES],
                                 (gint64) (attribute_offset (self, i) + 3), (gint64) i,
                                 "cell (x=%u, y=%u) has attribute byte +3 = 0x%02x (0 in every "
                                 "retail map; not read by the engine)",
                                 (guint) (i % self->width), (guint) (i / self->width), extra);
      terrain_issue_set_position (issue, (gint) (i % self->width), (gint) (i / self->width));
      sink_add (sink, TNT_FINDING_ATTRIBUTE_EXTRA, issue);
    }

  if (has_bad_feature)
    validate_feature_indices (self, sink);
}

static void
validate_features (TerrainTntMap *self,
                   TntSink       *sink)
{
  const char *title = section_titles[TERRAIN_TNT_SECTION_FEATURES];
  gsize base = self->layout[TERRAIN_TNT_SECTION_FEATURES].offset;

  for (guint i = 0; i < self->n_features; i++)
    {
      const guint8 *record = feature_record (self, i);
      guint32 word = terrain_get_le32 (record);
      const char *name = terrain_tnt_map_get_feature_name (self, i);
      gsize offset = base + (gsize) i * FEATURE_RECORD_BYTES;

      if (word != i)
        sink_add (sink, TNT_FINDING_RECORD_INDEX,
                  terrain_issue_new (TERRAIN_SEVERITY_INFO, title, (gint64) offset, i,
                                     "record %u has index word %u; cells refer to features by "
                                     "position, so the word is ignored", i, word));
      if (memchr (record + 4, 0, TERRAIN_TNT_FEATURE_NAME_BYTES) == NULL)
        sink_add (sink, TNT_FINDING_FEATURE_NAME,
                  terrain_issue_new (TERRAIN_SEVERITY_WARNING, title, (gint64) offset + 4, i,
                                     "record %u: the name \"%.128s\" has no NUL terminator within "
                                     "its 128 bytes", i, name));
      else if (name[0] == '\0')
        sink_add (sink, TNT_FINDING_FEATURE_NAME,
                  terrain_issue_new (TERRAIN_SEVERITY_WARNING, title, (gint64) offset + 4, i,
                                     "record %u has an empty name, which no feature file can "
                                     "resolve", i));
    }
}

static gint
compare_sections_by_offset (gconstpointer a,
                            gconstpointer b,
                            gpointer      user_data)
{
  TerrainTntMap *self = user_data;
  guint sa = *(const guint *) a, sb = *(const guint *) b;

  if (self->layout[sa].offset != self->layout[sb].offset)
    return self->layout[sa].offset < self->layout[sb].offset ? -1 : 1;
  return (gint) sa - (gint) sb;
}

static GPtrArray *
validate_capped (TerrainTntMap *self,
                 guint          cap)
{
  GPtrArray *issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  guint order[N_SECTIONS];
  TntSink sink;

  sink_init (&sink, issues, cap);

  for (guint s = 0; s < N_SECTIONS; s++)
    order[s] = s;
  g_qsort_with_data (order, N_SECTIONS, sizeof order[0], compare_sections_by_offset, self);

  /* Findings in the order of the sections in the file */
  for (guint i = 0; i < N_SECTIONS; i++)
    switch (order[i])
      {
      case TERRAIN_TNT_SECTION_HEADER:
        validate_header (self, &sink);
        break;
      case TERRAIN_TNT_SECTION_TILE_MAP:
        validate_tile_map (self, &sink);
        break;
      case TERRAIN_TNT_SECTION_ATTRIBUTES:
        validate_attributes (self, &sink);
        break;
      case TERRAIN_TNT_SECTION_FEATURES:
        validate_features (self, &sink);
        break;
      case TERRAIN_TNT_SECTION_TILES:
      case TERRAIN_TNT_SECTION_MINIMAP:
      default:
        break;
      }

  sink_finish (&sink);
  return issues;
}

static GPtrArray *
terrain_tnt_map_validate (TerrainDocument *document)
{
  return validate_capped (TERRAIN_TNT_MAP (document), FINDINGS_PER_KIND);
}

/* ------------------------------------------------------------------------ */
/* Description                                                              */

static void
add_int (JsonBuilder *builder,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

static gsize
unreferenced_bytes (TerrainTntMap *self)
{
  gsize total = 0;

  for (guint i = 0; i < self->gaps->len; i++)
    total += g_array_index (self->gaps, TntSpan, i).size;

  return total;
}

static JsonNode *
terrain_tnt_map_describe (TerrainDocument *document)
{
  TerrainTntMap *self = TERRAIN_TNT_MAP (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *version_hex = g_strdup_printf ("0x%04x", self->header[W_VERSION]);
  guint order[N_SECTIONS];
  guint used_w, used_h;
  guint64 file_size = HEADER_SIZE;

  json_builder_begin_object (builder);

  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, "tnt");
  add_int (builder, "version", self->header[W_VERSION]);
  json_builder_set_member_name (builder, "version_hex");
  json_builder_add_string_value (builder, version_hex);
  json_builder_set_member_name (builder, "legacy");
  json_builder_add_boolean_value (builder, is_legacy (self));
  add_int (builder, "width", self->width);
  add_int (builder, "height", self->height);
  add_int (builder, "tile_columns", self->tile_columns);
  add_int (builder, "tile_rows", self->tile_rows);
  add_int (builder, "pixel_width", (gint64) self->tile_columns * TERRAIN_TNT_TILE_PIXELS);
  add_int (builder, "pixel_height", (gint64) self->tile_rows * TERRAIN_TNT_TILE_PIXELS);
  add_int (builder, "attribute_cell_bytes", self->cell_bytes);
  add_int (builder, "tiles", self->n_tiles);
  add_int (builder, "sea_level", self->header[W_SEA_LEVEL]);

  if (is_legacy (self))
    {
      add_int (builder, "min_wind", self->header[W_LEGACY_MIN_WIND]);
      add_int (builder, "max_wind", self->header[W_LEGACY_MAX_WIND]);
      add_int (builder, "gravity", self->header[W_LEGACY_GRAVITY]);
    }

  json_builder_set_member_name (builder, "features");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->n_features; i++)
    {
      json_builder_begin_object (builder);
      add_int (builder, "index", i);
      add_int (builder, "record_index", terrain_get_le32 (feature_record (self, i)));
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, terrain_tnt_map_get_feature_name (self, i));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  terrain_tnt_map_get_minimap_used_size (self, &used_w, &used_h);
  json_builder_set_member_name (builder, "minimap");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "present");
  json_builder_add_boolean_value (builder, terrain_tnt_map_get_minimap_present (self));
  add_int (builder, "width", self->has_minimap ? self->minimap_width : 0);
  add_int (builder, "height", self->has_minimap ? self->minimap_height : 0);
  add_int (builder, "used_width", self->has_minimap ? used_w : 0);
  add_int (builder, "used_height", self->has_minimap ? used_h : 0);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "header_words");
  json_builder_begin_array (builder);
  for (guint i = 0; i < N_HEADER_WORDS; i++)
    json_builder_add_int_value (builder, self->header[i]);
  json_builder_end_array (builder);

  for (guint s = 0; s < N_SECTIONS; s++)
    order[s] = s;
  g_qsort_with_data (order, N_SECTIONS, sizeof order[0], compare_sections_by_offset, self);

  json_builder_set_member_name (builder, "sections");
  json_builder_begin_array (builder);
  for (guint i = 0; i < N_SECTIONS; i++)
    {
      const TntSpan *span = &self->layout[order[i]];

      if (!span->present)
        continue;
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, section_keys[order[i]]);
      add_int (builder, "offset", (gint64) span->offset);
      add_int (builder, "size", (gint64) span->size);
      json_builder_end_object (builder);
      if (order[i] != TERRAIN_TNT_SECTION_HEADER)
        file_size += span->size;
    }
  json_builder_end_array (builder);

  if (get_source (self) != NULL && !self->canonical)
    file_size = self->source_size;
  else
    file_size += unreferenced_bytes (self);
  add_int (builder, "file_size", (gint64) file_size);
  add_int (builder, "unreferenced_bytes", (gint64) unreferenced_bytes (self));

  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static char *
terrain_tnt_map_describe_offset (TerrainDocument *document,
                                 gsize            offset)
{
  TerrainTntMap *self = TERRAIN_TNT_MAP (document);
  const TntSpan *spans = get_source (self) != NULL ? self->source_spans : self->layout;
  gsize file_size = get_source (self) != NULL ? self->source_size : 0;
  gsize end = 0;

  if (offset < HEADER_SIZE)
    {
      const char * const *names = is_legacy (self) ? legacy_header_word_names : header_word_names;
      guint word = (guint) (offset / 4);

      return g_strdup_printf ("header, word %u at 0x%02x (%s), byte +%u",
                              word, word * 4, names[word], (guint) (offset % 4));
    }

  for (guint s = TERRAIN_TNT_SECTION_TILE_MAP; s < N_SECTIONS; s++)
    {
      const TntSpan *span = &spans[s];
      gsize rel;

      if (!span->present || span->size == 0)
        continue;
      end = MAX (end, span->offset + span->size);
      if (offset < span->offset || offset - span->offset >= span->size)
        continue;

      rel = offset - span->offset;
      switch (s)
        {
        case TERRAIN_TNT_SECTION_TILE_MAP:
          {
            gsize entry = rel / 2;
            return g_strdup_printf ("tile map, entry %" G_GSIZE_FORMAT
                                    " (column=%u, row=%u), byte +%u",
                                    entry, (guint) (entry % MAX (self->tile_columns, 1)),
                                    (guint) (entry / MAX (self->tile_columns, 1)),
                                    (guint) (rel % 2));
          }
        case TERRAIN_TNT_SECTION_ATTRIBUTES:
          {
            gsize cell = rel / self->cell_bytes;
            return g_strdup_printf ("attribute map, cell %" G_GSIZE_FORMAT
                                    " (x=%u, y=%u), byte +%u",
                                    cell, (guint) (cell % self->width),
                                    (guint) (cell / self->width),
                                    (guint) (rel % self->cell_bytes));
          }
        case TERRAIN_TNT_SECTION_TILES:
          {
            gsize pixel = rel % TERRAIN_TNT_TILE_BYTES;
            return g_strdup_printf ("tile graphics, tile %" G_GSIZE_FORMAT ", pixel (x=%u, y=%u)",
                                    rel / TERRAIN_TNT_TILE_BYTES, (guint) (pixel % 32),
                                    (guint) (pixel / 32));
          }
        case TERRAIN_TNT_SECTION_FEATURES:
          {
            gsize within = rel % FEATURE_RECORD_BYTES;
            if (within < 4)
              return g_strdup_printf ("feature records, record %" G_GSIZE_FORMAT
                                      ", index word, byte +%u",
                                      rel / FEATURE_RECORD_BYTES, (guint) within);
            return g_strdup_printf ("feature records, record %" G_GSIZE_FORMAT ", name, byte +%u",
                                    rel / FEATURE_RECORD_BYTES, (guint) (within - 4));
          }
        case TERRAIN_TNT_SECTION_MINIMAP:
        default:
          {
            gsize pixel;

            if (rel < 4)
              return g_strdup_printf ("minimap, width word, byte +%u", (guint) rel);
            if (rel < MINIMAP_HEADER_BYTES)
              return g_strdup_printf ("minimap, height word, byte +%u", (guint) (rel - 4));
            pixel = rel - MINIMAP_HEADER_BYTES;
            return g_strdup_printf ("minimap, pixel (x=%u, y=%u)",
                                    (guint) (pixel % MAX (self->minimap_width, 1)),
                                    (guint) (pixel / MAX (self->minimap_width, 1)));
          }
        }
    }

  if (file_size > 0 && offset >= file_size)
    return g_strdup ("beyond the end of the file");
  if (offset >= end)
    return g_strdup ("trailing bytes after the last section");
  return g_strdup ("gap between sections");
}
