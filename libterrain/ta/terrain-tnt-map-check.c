/* terrain-tnt-map-check.c: TNT footprints, validation and description
 * (the files of TerrainTntMap: terrain-tnt-map-impl-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-tnt-map-impl-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"
#include "core/terrain-issue-private.h"

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

/* Collects findings through the one capped collector
 * (core/terrain-issue-private.h), at most @cap of each kind; sink_finish()
 * adds the summaries and appends everything to @issues (NULL: findings are
 * dropped). */
typedef struct
{
  TerrainIssueCollector found;
  GPtrArray *issues;
} TntSink;

static const char *finding_kind_description (TntFindingKind kind);

static void
sink_init (TntSink   *sink,
           GPtrArray *issues,
           guint      cap)
{
  terrain_issue_collector_init (&sink->found, cap);
  sink->issues = issues;
}

static void
sink_add (TntSink        *sink,
          TntFindingKind  kind,
          TerrainIssue   *issue)
{
  /* Header-level findings are few by construction and never capped. */
  if (sink->issues != NULL &&
      (kind == TNT_FINDING_OTHER ||
       terrain_issue_collector_admit (&sink->found, finding_kind_description (kind),
                                      terrain_issue_get_severity (issue),
                                      terrain_issue_get_section (issue))))
    terrain_issue_collector_take (&sink->found, issue);
  else
    terrain_issue_unref (issue);
}

static const char *
finding_kind_description (TntFindingKind kind)
{
  switch (kind)
    {
    case TNT_FINDING_TILE_INDEX:
      return "tile map entries naming a tile beyond the tile count";
    case TNT_FINDING_FEATURE_INDEX:
      return "cells naming a feature beyond the feature table";
    case TNT_FINDING_FOOTPRINT_OVERLAP:
      return "feature footprints overlapping occupied cells";
    case TNT_FINDING_FOOTPRINT_CLIPPED:
      return "feature footprints running off the map edge";
    case TNT_FINDING_RECORD_INDEX:
      return "feature records whose index word differs from their position";
    case TNT_FINDING_ATTRIBUTE_EXTRA:
      return "cells with a nonzero attribute byte +3";
    case TNT_FINDING_FEATURE_NAME:
      return "feature records with an unusable name";
    case TNT_FINDING_OTHER:
    case TNT_FINDING_N_KINDS:
    default:
      return "findings of this kind";
    }
}

/* Appends the findings, with one summary per kind that was cut short. */
static void
sink_finish (TntSink *sink)
{
  GPtrArray *found = terrain_issue_collector_finish (&sink->found);

  if (sink->issues != NULL)
    g_ptr_array_extend_and_steal (sink->issues, found);
  else
    g_ptr_array_unref (found);
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
  const char *title = tnt_section_titles[TERRAIN_TNT_SECTION_ATTRIBUTES];
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
 * Bindings, which cannot know the arrays' length or append to a caller's
 * array, call [method@Terrain.TntMap.build_occupancy_grid] under this name.
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
  guint16 *occupancy;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);

  sink_init (&sink, issues, G_MAXUINT);
  occupancy = build_occupancy (self, footprint_func, user_data, owners, &sink);
  sink_finish (&sink);
  return occupancy;
}

/**
 * terrain_tnt_map_build_occupancy_grid: (rename-to terrain_tnt_map_build_occupancy)
 * @self: a #TerrainTntMap
 * @footprint_func: (nullable) (scope call) (closure user_data): looks up a
 *   feature's footprint; %NULL (or a lookup returning %FALSE) means 1x1
 * @user_data: data for @footprint_func
 * @n_cells: (out): return location for the number of cells, `Width x Height`
 * @owners: (out) (optional) (transfer full) (array length=n_cells): return
 *   location for the @n_cells owner words: for every anchor and fringe cell
 *   the feature index that owns it, 0xFFFF elsewhere
 * @issues: (out) (optional) (transfer container) (element-type TerrainIssue):
 *   return location for the findings (warnings with the cell position set)
 *
 * The occupancy of [method@Terrain.TntMap.build_occupancy] (the same
 * reconstruction, the same findings) in the form bindings can call: the
 * arrays carry their length, and the findings come back in a new array.
 * The word of cell (x, y) is at `y * Width + x`.
 *
 * Returns: (transfer full) (array length=n_cells): the @n_cells occupancy
 *   words, row-major: a feature index at an anchor, 0xFFFE on the rest of
 *   a footprint, 0xFFFC on an authored void, 0xFFFF where the cell is empty
 */
guint16 *
terrain_tnt_map_build_occupancy_grid (TerrainTntMap            *self,
                                      TerrainTntFootprintFunc   footprint_func,
                                      gpointer                  user_data,
                                      gsize                    *n_cells,
                                      guint16                 **owners,
                                      GPtrArray               **issues)
{
  g_autoptr(GPtrArray) found = NULL;
  guint16 *occupancy;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), NULL);
  g_return_val_if_fail (n_cells != NULL, NULL);

  if (issues != NULL)
    found = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  occupancy = terrain_tnt_map_build_occupancy (self, footprint_func, user_data, owners, found);
  *n_cells = (gsize) self->width * self->height;
  if (issues != NULL)
    *issues = g_steal_pointer (&found);
  return occupancy;
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
  GBytes *source = tnt_get_source (self);
  TerrainReader reader, sub;
  guint64 offset = self->header[minimap_pointer_word (self)];

  if (source == NULL || self->canonical)
    return FALSE;

  terrain_reader_init (&reader, source, tnt_section_titles[TERRAIN_TNT_SECTION_MINIMAP]);
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
  const char *title = tnt_section_titles[TERRAIN_TNT_SECTION_HEADER];
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
                                     tnt_section_titles[TERRAIN_TNT_SECTION_MINIMAP],
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
                                 tnt_section_titles[TERRAIN_TNT_SECTION_TILE_MAP],
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
  const char *title = tnt_section_titles[TERRAIN_TNT_SECTION_ATTRIBUTES];
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
                                 tnt_section_titles[TERRAIN_TNT_SECTION_ATTRIBUTES],
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
  const char *title = tnt_section_titles[TERRAIN_TNT_SECTION_FEATURES];
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

GPtrArray *
tnt_map_validate (TerrainDocument *document)
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

JsonNode *
tnt_map_describe (TerrainDocument *document)
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

  if (tnt_get_source (self) != NULL && !self->canonical)
    file_size = self->source_size;
  else
    file_size += unreferenced_bytes (self);
  add_int (builder, "file_size", (gint64) file_size);
  add_int (builder, "unreferenced_bytes", (gint64) unreferenced_bytes (self));

  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

char *
tnt_map_describe_offset (TerrainDocument *document,
                         gsize            offset)
{
  TerrainTntMap *self = TERRAIN_TNT_MAP (document);
  const TntSpan *spans = tnt_get_source (self) != NULL ? self->source_spans : self->layout;
  gsize file_size = tnt_get_source (self) != NULL ? self->source_size : 0;
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
