/* terrain-node-chunk-check.c: TNLChunk validation and description
 * (the files of TerrainNodeChunk: terrain-node-chunk-impl-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-node-chunk-impl-private.h"
#include "core/terrain-bc.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"
#include "core/terrain-writer-private.h"

typedef struct
{
  GPtrArray *issues;
  guint counts[16];
} Findings;

/* Adds a finding of @kind unless MAX_ISSUES of that kind were listed. */
G_GNUC_PRINTF (7, 8)
static void
add_finding (Findings        *findings,
             guint            kind,
             TerrainSeverity  severity,
             const char      *section,
             gint64           offset,
             gint64           record,
             const char      *format,
             ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (findings->counts[kind]++ >= MAX_ISSUES)
    return;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_ptr_array_add (findings->issues,
                   terrain_issue_new_literal (severity, section, offset, record, message));
}

enum
{
  FINDING_DECODE,
  FINDING_FLAGS,
  FINDING_MARKER,
  FINDING_RAW_LENGTH,
  FINDING_LOOKAHEAD,
  FINDING_BOUNDS,
  FINDING_MASK,
  FINDING_PALETTE,
  FINDING_CONSTANT,
  FINDING_TRAILING,
};

static gint64
block_offset (TerrainNodeChunk *self,
              guint             b)
{
  return self->blocks[b].in_source ? (gint64) self->blocks[b].prefix_offset + 4 : -1;
}

/* What validation needs of a raster block, gathered sample by sample as
 * it is decoded (terrain_node_scan_raster ()) or from the decoded raster. */
typedef struct
{
  guint8 used[MASK_SIZE];      /* values that occur anywhere ... */
  guint8 core[MASK_SIZE];      /* ... and in the core */
  guint8 expected;             /* the value every inspected node holds */
  guint differ;                /* samples that differ from it */
  guint first;                 /* the first of them in raster order */
  guint8 first_value;
} RasterStats;

static void
raster_stats_init (RasterStats *r,
                   guint8       expected)
{
  memset (r, 0, sizeof *r);
  r->expected = expected;
  r->first = G_MAXUINT;
}

/* A TerrainNodeSampleFunc. */
static void
raster_stats_add (guint     index,
                  guint8    value,
                  gpointer  user_data)
{
  RasterStats *r = user_data;
  guint8 bit = (guint8) (1u << (value % 8));

  r->used[value / 8] |= bit;
  if (node_chunk_in_core (index % S, index / S))
    r->core[value / 8] |= bit;
  if (value != r->expected)
    {
      r->differ++;
      if (index < r->first)
        {
          r->first = index;
          r->first_value = value;
        }
    }
}

static gboolean
has_value (const guint8 *set,
           guint         value)
{
  return (set[value / 8] >> (value % 8)) & 1;
}

static void
validate_coded_block (TerrainNodeChunk            *self,
                      Findings                    *findings,
                      guint                        b,
                      const TerrainCodedBlockInfo *info,
                      const RasterStats           *stats)
{
  guint64 raw_bytes = (info->raw_bits + 7) / 8;

  if (raw_bytes + TERRAIN_NODE_B_TAIL != info->b_size)
    add_finding (findings, FINDING_RAW_LENGTH, TERRAIN_SEVERITY_WARNING, node_chunk_block_sections[b],
                 block_offset (self, b) + info->a_end, b,
                 "stream B holds %" G_GSIZE_FORMAT " bytes; the decoder used %" G_GUINT64_FORMAT
                 " raw bits (%" G_GUINT64_FORMAT " bytes), so %" G_GINT64_FORMAT " bytes are "
                 "left over where %d are expected",
                 info->b_size, info->raw_bits, raw_bytes,
                 (gint64) info->b_size - (gint64) raw_bytes, TERRAIN_NODE_B_TAIL);

  if (info->cabac_overrun > 0)
    add_finding (findings, FINDING_LOOKAHEAD, TERRAIN_SEVERITY_INFO, node_chunk_block_sections[b],
                 block_offset (self, b) + (gint64) self->blocks[b].size, b,
                 "the arithmetic decoder's look-ahead ran %" G_GSIZE_FORMAT " bytes past the "
                 "end of the block", info->cabac_overrun);

  if (node_chunk_block_kind (b) == KIND_RASTER)
    {
      gboolean seen[256] = { FALSE };

      for (guint i = 0; i < info->palette_count; i++)
        {
          guint8 v = info->palette[i];

          if (seen[v])
            add_finding (findings, FINDING_PALETTE, TERRAIN_SEVERITY_WARNING, node_chunk_block_sections[b],
                         block_offset (self, b) + info->a_end + 4 + i, b,
                         "palette entry %u repeats value %u", i, v);
          else if (!has_value (stats->used, v))
            add_finding (findings, FINDING_PALETTE, TERRAIN_SEVERITY_INFO, node_chunk_block_sections[b],
                         block_offset (self, b) + info->a_end + 4 + i, b,
                         "palette entry %u (value %u) is never used", i, v);
          seen[v] = TRUE;
        }
    }
}

static void
validate_constant (TerrainNodeChunk  *self,
                   Findings          *findings,
                   guint              b,
                   const RasterStats *stats)
{
  guint first = stats->first;

  if (stats->differ > 0)
    add_finding (findings, FINDING_CONSTANT, TERRAIN_SEVERITY_INFO, node_chunk_block_sections[b],
                 block_offset (self, b), first,
                 "%u samples differ from 0x%02X, the value every inspected node holds "
                 "(first: sample %u, x=%u, y=%u, value 0x%02X)",
                 stats->differ, stats->expected, first, first % S, first / S,
                 stats->first_value);
}

/* A TerrainNodeRowFunc for blocks whose samples validation does not look
 * at. */
static void
ignore_row (guint         y,
            const gint64 *row,
            gpointer      user_data)
{
}

/* Decodes block @b for validation. A block already decoded (edited, or
 * asked for) is read from its raster; any other is decoded as a stream
 * into @heights or @stats, so that validating a chunk holds no decoded
 * raster: only 132 running sums, a few bitsets and, for a texture, one
 * tile on the stack. Returns whether the block decodes, with its coding
 * findings added. */
static gboolean
validate_block (TerrainNodeChunk  *self,
                Findings          *findings,
                guint              b,
                HeightRanges      *heights,
                RasterStats       *stats,
                GError           **error)
{
  NodeBlock *block = &self->blocks[b];
  TerrainCodedBlockInfo scanned;
  const TerrainCodedBlockInfo *info;
  TerrainReader content;
  gboolean ok;

  node_chunk_ranges_init (heights);
  raster_stats_init (stats, b == TERRAIN_NODE_BLOCK_GRASS_WEIGHT ? 0x60 : 0);

  if (block->decoded_valid)
    {
      if (node_chunk_block_kind (b) == KIND_HEIGHTS)
        node_chunk_sample_ranges (block->decoded, heights);
      else if (node_chunk_block_kind (b) == KIND_RASTER)
        for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
          raster_stats_add (i, ((const guint8 *) block->decoded)[i], stats);
      info = block->info;
    }
  else
    {
      g_assert (block->in_source);

      content = node_chunk_block_content (self, b);
      switch (node_chunk_block_kind (b))
        {
        case KIND_HEIGHTS:
          ok = terrain_node_scan_heights (&content,
                                          b == TERRAIN_NODE_BLOCK_HEIGHTS
                                            ? node_chunk_ranges_add_row : ignore_row,
                                          heights, &scanned, error);
          break;
        case KIND_TEXTURE:
          ok = terrain_node_check_texture (&content, node_chunk_texture_format (b), error);
          break;
        case KIND_RASTER:
        default:
          ok = terrain_node_scan_raster (&content, raster_stats_add, stats, &scanned, error);
          break;
        }
      if (!ok)
        return FALSE;
      info = &scanned;
    }

  /* Coding findings describe the block as read from the file. */
  if (node_chunk_block_kind (b) != KIND_TEXTURE && block->in_source && block->encoded == NULL &&
      (block->source_decoded || !block->decoded_valid))
    validate_coded_block (self, findings, b, info, stats);
  return TRUE;
}

GPtrArray *
node_chunk_validate (TerrainDocument *document)
{
  TerrainNodeChunk *self = TERRAIN_NODE_CHUNK (document);
  Findings findings = { g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref) };
  gboolean decoded[N_BLOCKS_MAX] = { FALSE };
  HeightRanges ranges, heights;
  RasterStats stats, material, grass_weight, zero;

  if (self->marker != 1)
    add_finding (&findings, FINDING_MARKER, TERRAIN_SEVERITY_WARNING, "TNLChunk header",
                 OFF_MARKER, -1, "the first byte is %u; every inspected chunk starts with 1",
                 self->marker);
  if ((self->tag & TAG_FLAGS_MASK) != TAG_FLAGS)
    add_finding (&findings, FINDING_FLAGS, TERRAIN_SEVERITY_WARNING, "TNLChunk header", OFF_TAG,
                 -1, "tag 0x%04X has flags 0x%04X; every inspected chunk has 0x%04X",
                 self->tag, self->tag & TAG_FLAGS_MASK, TAG_FLAGS);

  for (guint b = 0; b < self->n_blocks; b++)
    {
      g_autoptr(GError) error = NULL;

      decoded[b] = validate_block (self, &findings, b, &ranges, &stats, &error);
      if (!decoded[b])
        {
          add_finding (&findings, FINDING_DECODE, TERRAIN_SEVERITY_ERROR, node_chunk_block_sections[b],
                       block_offset (self, b), b, "%s", error->message);
          continue;
        }
      if (b == TERRAIN_NODE_BLOCK_HEIGHTS)
        heights = ranges;
      else if (b == TERRAIN_NODE_BLOCK_MATERIAL)
        material = stats;
      else if (b == TERRAIN_NODE_BLOCK_GRASS_WEIGHT)
        grass_weight = stats;
      else if (b == TERRAIN_NODE_BLOCK_ZERO)
        zero = stats;
    }

  if (decoded[TERRAIN_NODE_BLOCK_HEIGHTS])
    {
      float bounds[2];

      node_chunk_current_bounds (self, bounds);
      if (self->level >= 0)
        {
          double scale = terrain_node_height_scale ((guint) self->level);

          if (!node_chunk_bounds_match (bounds, &heights, scale))
            add_finding (&findings, FINDING_BOUNDS, TERRAIN_SEVERITY_WARNING,
                         "TNLChunk height bounds", (gint64) self->bounds_offset, -1,
                         "stored bounds %g..%g m disagree with the decoded heights at level %d "
                         "(%g..%g m over all samples, %g..%g m over the core)",
                         bounds[0], bounds[1], self->level, heights.full_min * scale,
                         heights.full_max * scale, heights.core_min * scale,
                         heights.core_max * scale);
        }
      else
        {
          g_autoptr(GError) error = NULL;
          gint level = node_chunk_guess_level_from_ranges (self, &heights, &error);

          if (level < 0)
            add_finding (&findings, FINDING_BOUNDS, TERRAIN_SEVERITY_WARNING,
                         "TNLChunk height bounds", (gint64) self->bounds_offset, -1,
                         "%s", error->message);
          else
            add_finding (&findings, FINDING_BOUNDS, TERRAIN_SEVERITY_INFO,
                         "TNLChunk height bounds", (gint64) self->bounds_offset, -1,
                         "the level is unknown; the stored bounds fit level %d", level);
        }
    }

  if (decoded[TERRAIN_NODE_BLOCK_MATERIAL])
    {
      /* The mask must name every material of the core and none absent from
       * the raster. */
      for (guint m = 0; m < 256; m++)
        {
          gboolean in_mask = has_value (self->mask, m);

          if (in_mask && !has_value (material.used, m))
            add_finding (&findings, FINDING_MASK, TERRAIN_SEVERITY_WARNING,
                         "TNLChunk material mask", (gint64) (self->mask_offset + m / 8), m,
                         "material %u is in the mask but not in the material raster", m);
          else if (!in_mask && has_value (material.core, m))
            add_finding (&findings, FINDING_MASK, TERRAIN_SEVERITY_WARNING,
                         "TNLChunk material mask", (gint64) (self->mask_offset + m / 8), m,
                         "material %u occurs in the material raster but not in the mask", m);
        }
    }

  if (decoded[TERRAIN_NODE_BLOCK_GRASS_WEIGHT])
    validate_constant (self, &findings, TERRAIN_NODE_BLOCK_GRASS_WEIGHT, &grass_weight);
  if (decoded[TERRAIN_NODE_BLOCK_ZERO])
    validate_constant (self, &findings, TERRAIN_NODE_BLOCK_ZERO, &zero);

  if (self->source != NULL && self->file_size > self->end)
    add_finding (&findings, FINDING_TRAILING, TERRAIN_SEVERITY_INFO, "TNLChunk",
                 (gint64) self->end, -1,
                 "%" G_GSIZE_FORMAT " bytes follow the chunk's declared end (kept as they are)",
                 self->file_size - self->end);

  for (guint kind = 0; kind < G_N_ELEMENTS (findings.counts); kind++)
    if (findings.counts[kind] > MAX_ISSUES)
      g_ptr_array_add (findings.issues,
                       terrain_issue_new (TERRAIN_SEVERITY_INFO, "TNLChunk", -1, -1,
                                          "%u more findings of this kind (%u in all; only the "
                                          "first %d are listed)",
                                          findings.counts[kind] - MAX_ISSUES,
                                          findings.counts[kind], MAX_ISSUES));

  return findings.issues;
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

JsonNode *
node_chunk_describe (TerrainDocument *document)
{
  TerrainNodeChunk *self = TERRAIN_NODE_CHUNK (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  float bounds[2];

  node_chunk_current_bounds (self, bounds);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, terrain_format_get_name (TERRAIN_FORMAT_NODE_CHUNK));
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, (gint64) self->file_size);
  json_builder_set_member_name (builder, "body_length");
  json_builder_add_int_value (builder, self->body_length);
  json_builder_set_member_name (builder, "tag");
  json_builder_add_int_value (builder, self->tag);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, self->tag & TAG_VERSION_MASK);
  json_builder_set_member_name (builder, "flags");
  json_builder_add_int_value (builder, self->tag & TAG_FLAGS_MASK);
  json_builder_set_member_name (builder, "leaf");
  json_builder_add_boolean_value (builder, (self->tag & TERRAIN_NODE_CHUNK_LEAF) != 0);
  json_builder_set_member_name (builder, "level");
  if (self->level >= 0)
    json_builder_add_int_value (builder, self->level);
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "height_bounds");
  json_builder_begin_array (builder);
  add_float (builder, bounds[0]);
  add_float (builder, bounds[1]);
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "materials");
  json_builder_begin_array (builder);
  for (guint m = 0; m < 256; m++)
    if ((self->mask[m / 8] >> (m % 8)) & 1)
      json_builder_add_int_value (builder, m);
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "blocks");
  json_builder_begin_array (builder);
  for (guint b = 0; b < self->n_blocks; b++)
    {
      NodeBlock *block = &self->blocks[b];
      TerrainReader content = block->view;
      guint32 n;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "index");
      json_builder_add_int_value (builder, b == TERRAIN_NODE_BLOCK_SNOW ? 10 : b);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, node_chunk_block_ids[b]);
      if (block->in_source)
        {
          json_builder_set_member_name (builder, "offset");
          json_builder_add_int_value (builder, (gint64) block->prefix_offset + 4);
          json_builder_set_member_name (builder, "size");
          json_builder_add_int_value (builder, (gint64) block->size);
          if (node_chunk_block_kind (b) != KIND_TEXTURE && terrain_reader_read_u32 (&content, &n, NULL) &&
              n >= 4 && n <= block->size)
            {
              json_builder_set_member_name (builder, "stream_a");
              json_builder_add_int_value (builder, n - 4);
              json_builder_set_member_name (builder, "stream_b");
              json_builder_add_int_value (builder, (gint64) (block->size - n));
            }
        }
      json_builder_set_member_name (builder, "coding");
      json_builder_add_string_value (builder,
                                     node_chunk_block_kind (b) == KIND_TEXTURE
                                       ? (b == TERRAIN_NODE_BLOCK_COLOUR ? "lz4-planar-bc1"
                                                                         : "lz4-planar-bc4")
                                       : node_chunk_block_kind (b) == KIND_HEIGHTS ? "cabac-heights"
                                                                        : "cabac-raster");
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

char *
node_chunk_describe_offset (TerrainDocument *document,
                            gsize            offset)
{
  TerrainNodeChunk *self = TERRAIN_NODE_CHUNK (document);

  if (offset >= self->file_size)
    return g_strdup ("end of file");
  if (offset < HEADER_SIZE)
    {
      static const char * const fields[HEADER_SIZE] = {
        "first byte", "body length", "body length", "body length", "body length",
        "magic", "magic", "tag", "tag",
      };
      return g_strdup_printf ("TNLChunk header, %s", fields[offset]);
    }
  if (offset >= self->end)
    return g_strdup ("bytes after the chunk's declared end");
  if (offset >= self->bounds_offset && offset < self->bounds_offset + BOUNDS_SIZE)
    return g_strdup_printf ("height bounds, %s", offset < self->bounds_offset + 4 ? "min" : "max");
  if (offset >= self->mask_offset && offset < self->mask_offset + MASK_SIZE)
    return g_strdup_printf ("material mask, byte %" G_GSIZE_FORMAT " (materials %" G_GSIZE_FORMAT
                            "..%" G_GSIZE_FORMAT ")",
                            offset - self->mask_offset, 8 * (offset - self->mask_offset),
                            8 * (offset - self->mask_offset) + 7);

  for (guint b = 0; b < self->n_blocks; b++)
    {
      NodeBlock *block = &self->blocks[b];
      gsize start = block->prefix_offset + 4, rel;
      TerrainReader content = block->view;
      guint32 n;

      if (offset >= block->prefix_offset && offset < start)
        return g_strdup_printf ("%s, length", node_chunk_block_sections[b]);
      if (offset < start || offset - start >= block->size)
        continue;

      rel = offset - start;
      if (node_chunk_block_kind (b) == KIND_TEXTURE)
        return g_strdup_printf ("%s, LZ4 data byte %" G_GSIZE_FORMAT, node_chunk_block_sections[b], rel);
      if (rel < 4)
        return g_strdup_printf ("%s, stream B offset", node_chunk_block_sections[b]);
      if (!terrain_reader_read_u32 (&content, &n, NULL) || n < 4 || n > block->size)
        return g_strdup_printf ("%s, byte %" G_GSIZE_FORMAT, node_chunk_block_sections[b], rel);
      if (rel < n)
        return g_strdup_printf ("%s, stream A (CABAC) byte %" G_GSIZE_FORMAT,
                                node_chunk_block_sections[b], rel - 4);
      return g_strdup_printf ("%s, stream B (raw bits) byte %" G_GSIZE_FORMAT "%s",
                              node_chunk_block_sections[b], rel - n,
                              block->size - rel <= TERRAIN_NODE_B_TAIL ? ", unconsumed tail" : "");
    }

  return NULL;
}
