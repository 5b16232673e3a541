/* terrain-tnt-map-impl-private.h: the internals shared by the files that
 * implement TerrainTntMap
 *
 * terrain-tnt-map.c        the type, its properties and signals, section
 *                          blocks, layout, header accessors
 * terrain-tnt-map-io.c     reading and writing
 * terrain-tnt-map-cells.c  attribute cells, tiles, feature table, minimap
 * terrain-tnt-map-bulk.c   bulk edits and snapshots
 * terrain-tnt-map-render.c pictures and heights
 * terrain-tnt-map-check.c  footprints, validation, description
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-tnt-map.h"
#include "terrain-tnt-map-private.h"
#include "core/terrain-document-private.h"
#include "core/terrain-limits.h"
#include "core/terrain-reader-private.h"

G_BEGIN_DECLS

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



enum {
  CELLS_CHANGED,
  TILES_CHANGED,
  N_SIGNALS
};

extern GParamSpec *tnt_map_properties[N_PROPS];
extern guint tnt_map_signals[N_SIGNALS];
extern const char * const tnt_section_titles[N_SECTIONS];

/* Blocks (terrain-tnt-map.c): a view of the source until first edited. */
void     tnt_block_set_view      (TntBlock      *block,
                                  const guint8  *data,
                                  gsize          size);
/* Makes @block writable with room for @extra more bytes; copies the source
 * view on first use. Returns the writable buffer. */
guint8  *tnt_block_make_writable (TntBlock      *block,
                                  gsize          extra);
void     tnt_block_take          (TntBlock      *block,
                                  guint8        *data,
                                  gsize          size);
void     tnt_block_clear         (TntBlock      *block);

/* Layout (terrain-tnt-map.c) */
gsize    tnt_section_size        (TerrainTntMap     *self,
                                  TerrainTntSection  section);
gboolean tnt_section_present     (TerrainTntMap     *self,
                                  TerrainTntSection  section);
/* Lays the file out in the canonical order and points the header at it. */
void     tnt_relayout            (TerrainTntMap     *self);
/* After a section may have changed size or appeared: switch to (or refresh)
 * the canonical layout when the source layout no longer fits. */
void     tnt_update_layout       (TerrainTntMap     *self);
GBytes  *tnt_get_source          (TerrainTntMap     *self);
void     tnt_mark_modified       (TerrainTntMap     *self);

/* Minimap (terrain-tnt-map.c) */
void     tnt_minimap_used_size_for (TerrainTntMap *self,
                                    guint          stored_w,
                                    guint          stored_h,
                                    guint         *used_w,
                                    guint         *used_h);

/* The document's vfuncs, each in the file of its concern. */
gboolean      tnt_map_parse           (TerrainDocument      *document,
                                       GBytes               *bytes,
                                       const TerrainLimits  *limits,
                                       GError              **error);
GBytes       *tnt_map_save_to_bytes   (TerrainDocument  *document,
                                       GError          **error);
GPtrArray    *tnt_map_validate        (TerrainDocument  *document);
JsonNode     *tnt_map_describe        (TerrainDocument  *document);
TerrainImage *tnt_map_render_image    (TerrainDocument       *document,
                                       TerrainRenderOptions  *options,
                                       GError               **error);
TerrainImage *tnt_map_export_heights  (TerrainDocument  *document,
                                       GError          **error);
char         *tnt_map_describe_offset (TerrainDocument  *document,
                                       gsize             offset);

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

static inline const guint8 *
feature_record (TerrainTntMap *self,
                guint          index)
{
  return self->blocks[TERRAIN_TNT_SECTION_FEATURES].data + (gsize) index * FEATURE_RECORD_BYTES;
}

G_END_DECLS
