/* terrain-chu-file-render.c: what TerrainChuFile says of itself: its
 * description (terrain info), the part of the file at an offset, and the
 * relief picture and height grid drawn from the chunks of one level.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "terrain-chu-file.h"
#include "terrain-quadtree.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue-private.h"
#include "core/terrain-issue.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-relief-private.h"
#include "core/terrain-writer-private.h"
#include "terrain-chu-file-impl-private.h"

static void
add_int_member (JsonBuilder *builder,
                const char  *name,
                gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

static void
add_double_member (JsonBuilder *builder,
                   const char  *name,
                   gdouble      value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_double_value (builder, value);
}

JsonNode *
chu_file_describe (TerrainDocument *document)
{
  TerrainChuFile *self = TERRAIN_CHU_FILE (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree Span *spans = g_new (Span, self->chunk_count);
  guint64 vertices = 0, indices = 0, referenced, distinct = 0;
  guint with_collision = 0;
  gboolean ordered = TRUE;
  gsize reach;

  for (guint k = 0; k < self->chunk_count; k++)
    {
      const ChuStub *stub = &self->stubs[k];

      vertices += stub->layout.n_vertices;
      indices += stub->layout.n_indices;
      with_collision += stub->layout.col_flag;
      if (stub->pub.label != (gint32) k)
        ordered = FALSE;
      spans[k].offset = stub->pub.chunk_offset;
      spans[k].size = stub->pub.chunk_size;
      spans[k].stub = k;
    }

  /* Bytes covered by the header, the stubs and the union of the chunks. */
  qsort (spans, self->chunk_count, sizeof (Span), chu_compare_spans);
  referenced = reach = self->header_size + (gsize) self->chunk_count * self->stub_size;
  for (guint i = 0; i < self->chunk_count; i++)
    {
      gsize end = spans[i].offset + spans[i].size;

      if (i == 0 || spans[i].offset != spans[i - 1].offset)
        distinct++;
      if (end <= reach)
        continue;
      referenced += end - MAX (reach, spans[i].offset);
      reach = end;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, terrain_format_get_name (TERRAIN_FORMAT_CHU));
  json_builder_set_member_name (builder, "variant");
  json_builder_add_string_value (builder, self->variant == TERRAIN_CHU_VARIANT_CHU3 ? "chu3"
                                                                                   : "ulrich");
  if (self->variant == TERRAIN_CHU_VARIANT_ULRICH)
    {
      json_builder_set_member_name (builder, "header_words");
      json_builder_add_string_value (builder, self->words == TERRAIN_CHU_WORDS_U32
                                              ? "u32 (heightfield_chunker's)"
                                              : "u16 (the chunklod viewer's)");
    }
  add_int_member (builder, "version", self->version);
  add_int_member (builder, "tree_depth", self->tree_depth);
  add_double_member (builder, "base_max_error", chu_bits_to_float (self->base_max_error_bits));
  add_double_member (builder, "vertical_scale", chu_bits_to_float (self->vertical_scale_bits));
  add_double_member (builder, "leaf_dimensions", chu_bits_to_float (self->leaf_dimensions_bits));
  add_double_member (builder, "terrain_size", terrain_chu_file_get_terrain_size (self));
  add_int_member (builder, "chunk_count", self->chunk_count);
  if (self->variant == TERRAIN_CHU_VARIANT_CHU3)
    add_int_member (builder, "col_tree_depth", self->col_tree_depth);
  json_builder_set_member_name (builder, "stubs_in_label_order");
  json_builder_add_boolean_value (builder, ordered);
  add_int_member (builder, "distinct_chunks", (gint64) distinct);
  add_int_member (builder, "chunks_with_collision", with_collision);
  add_int_member (builder, "vertices", (gint64) vertices);
  add_int_member (builder, "indices", (gint64) indices);
  json_builder_set_member_name (builder, "index_layout");
  json_builder_add_string_value (builder, self->variant == TERRAIN_CHU_VARIANT_CHU3
                                          ? "triangle-list" : "triangle-strip");

  json_builder_set_member_name (builder, "levels");
  json_builder_begin_array (builder);
  for (guint level = 0; level < self->tree_depth; level++)
    {
      guint64 n = G_GUINT64_CONSTANT (1) << (2 * level);
      guint64 level_vertices = 0, bytes = 0;

      for (guint64 node = terrain_quadtree_node_count (level); node < terrain_quadtree_node_count (level + 1);
           node++)
        {
          const ChuStub *stub = &self->stubs[self->node_to_stub[node]];

          level_vertices += stub->layout.n_vertices;
          bytes += stub->pub.chunk_size;
        }
      json_builder_begin_object (builder);
      add_int_member (builder, "level", level);
      add_int_member (builder, "chunks", (gint64) n);
      add_double_member (builder, "chunk_size",
                         ldexp ((gdouble) chu_bits_to_float (self->leaf_dimensions_bits),
                                self->tree_depth - 1 - level));
      add_int_member (builder, "vertices", (gint64) level_vertices);
      add_int_member (builder, "bytes", (gint64) bytes);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  add_int_member (builder, "file_size", (gint64) self->file_size);
  add_int_member (builder, "unreferenced_bytes",
                  (gint64) (self->file_size - MIN (referenced, self->file_size)));
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static const struct
{
  guint offset;
  guint size;
  const char *name;
} header_fields[] = {
  { OFF_MAGIC, 4, "magic" },
  { OFF_VERSION, 2, "version" },
  { OFF_TREE_DEPTH, 2, "tree depth" },
  { OFF_BASE_MAX_ERROR, 4, "base max error" },
  { OFF_VERTICAL_SCALE, 4, "vertical scale" },
  { OFF_LEAF_DIMENSIONS, 4, "leaf dimensions" },
  { OFF_CHUNK_COUNT, 4, "chunk count" },
  { OFF_COL_TREE_DEPTH, 4, "collision-tree depth" },
};

/* Stub fields after the CHU3 sentinel (Ulrich's start at the label). */
static const struct
{
  guint offset;
  const char *name;
} stub_fields[] = {
  { 0, "label" },
  { 4, "neighbour 0" },
  { 8, "neighbour 1" },
  { 12, "neighbour 2" },
  { 16, "neighbour 3" },
  { 20, "level" },
  { 21, "x" },
  { 23, "y" },
  { 25, "min" },
  { 27, "max" },
  { 29, "chunk offset" },
};

static char *
describe_chunk_part (TerrainChuFile *self,
                     const ChuStub  *stub,
                     guint           k,
                     gsize           rel)
{
  const ChunkLayout *l = &stub->layout;
  gsize vertices_at = self->variant == TERRAIN_CHU_VARIANT_CHU3 ? 6 : 2;
  const char *where = "";
  g_autofree char *detail = NULL;

  if (self->variant == TERRAIN_CHU_VARIANT_CHU3 && rel < 4)
    where = "sentinel";
  else if (rel < vertices_at)
    where = "vertex count";
  else if (rel < l->indices_at)
    detail = g_strdup_printf ("vertex %" G_GSIZE_FORMAT ", byte +%" G_GSIZE_FORMAT,
                              (rel - vertices_at) / VERTEX_BYTES,
                              (rel - vertices_at) % VERTEX_BYTES);
  else if (rel < l->indices_at + 4)
    where = "index count";
  else if (rel < l->tri_count_at)
    detail = g_strdup_printf ("index %" G_GSIZE_FORMAT, (rel - l->indices_at - 4) / 2);
  else if (rel < l->tri_count_at + 4)
    where = "triangle count";
  else if (rel == l->tri_count_at + 4)
    where = "collision flag";
  else if (l->col_flag == 1 && rel < l->mark_at)
    detail = g_strdup_printf ("collision-tree node %" G_GSIZE_FORMAT,
                              (rel - l->collision_at) / 4);
  else if (l->col_flag == 1 && rel < l->mark_at + 4)
    where = "collision mark";
  else if (l->col_flag == 1 && rel < l->buffer_size_at)
    detail = g_strdup_printf ("collision-grid offset %" G_GSIZE_FORMAT,
                              (rel - l->col_offsets_at) / 2);
  else if (l->col_flag == 1 && rel < l->buffer_size_at + 4)
    where = "collision buffer size";
  else if (l->col_flag == 1 && rel < l->footer_at)
    detail = g_strdup_printf ("collision buffer entry %" G_GSIZE_FORMAT,
                              (rel - l->buffer_size_at - 4) / 2);
  else
    where = "footer";

  return g_strdup_printf ("chunk of stub %u (label %d, level %u, x %d, y %d), %s", k,
                          stub->pub.label, stub->pub.level, stub->pub.x, stub->pub.y,
                          detail != NULL ? detail : where);
}

char *
chu_file_describe_offset (TerrainDocument *document,
                                  gsize            offset)
{
  TerrainChuFile *self = TERRAIN_CHU_FILE (document);
  gsize table_end = self->header_size + (gsize) self->chunk_count * self->stub_size;
  gboolean before_chunk = FALSE;

  if (offset >= self->file_size)
    return g_strdup ("end of file");

  if (offset < self->header_size)
    {
      for (guint i = 0; i < G_N_ELEMENTS (header_fields); i++)
        {
          guint at = chu_header_offset (self, header_fields[i].offset);
          guint size = header_fields[i].size;

          if (self->words == TERRAIN_CHU_WORDS_U32 &&
              (header_fields[i].offset == OFF_VERSION || header_fields[i].offset == OFF_TREE_DEPTH))
            size = 4;
          if (offset >= at && offset < at + size)
            return g_strdup_printf ("header, %s, byte +%" G_GSIZE_FORMAT, header_fields[i].name,
                                    offset - at);
        }
      g_assert_not_reached ();
    }

  if (offset < table_end)
    {
      gsize k = (offset - self->header_size) / self->stub_size;
      gsize rel = (offset - self->header_size) % self->stub_size;
      const TerrainChuStub *stub = &self->stubs[k].pub;
      const char *field = "sentinel";

      if (self->variant == TERRAIN_CHU_VARIANT_CHU3)
        rel = rel < 4 ? G_MAXSIZE : rel - 4;
      if (rel != G_MAXSIZE)
        for (guint i = 0; i < G_N_ELEMENTS (stub_fields); i++)
          /* U32 x and z: the fields from y on are 2 and 4 bytes later. */
          if (rel >= stub_fields[i].offset +
                     (self->words == TERRAIN_CHU_WORDS_U32 && stub_fields[i].offset > 21
                      ? (stub_fields[i].offset == 23 ? 2 : 4) : 0))
            field = stub_fields[i].name;
      return g_strdup_printf ("stub %" G_GSIZE_FORMAT " (label %d, level %u, x %d, y %d), %s", k,
                              stub->label, stub->level, stub->x, stub->y, field);
    }

  for (guint k = 0; k < self->chunk_count; k++)
    {
      const ChuStub *stub = &self->stubs[k];

      if (offset >= stub->pub.chunk_offset &&
          offset - stub->pub.chunk_offset < stub->pub.chunk_size)
        return describe_chunk_part (self, stub, k, offset - stub->pub.chunk_offset);
      if (stub->pub.chunk_offset > offset)
        before_chunk = TRUE;
    }

  return g_strdup (before_chunk ? "gap" : "trailing bytes");
}

/* The level drawn and the picture's side: the finest level down to
 * RENDER_MAX_LEVEL, at about one pixel per vertex spacing of its first
 * chunk, between RENDER_MIN_SIDE and the picture limit. */
static guint
render_level (TerrainChuFile *self,
              guint          *side)
{
  guint level = MIN ((guint) self->tree_depth - 1, RENDER_MAX_LEVEL);
  guint max = MIN ((guint) TERRAIN_RELIEF_MAX_SIDE, self->limits.max_image_side);
  gint stub = terrain_chu_file_lookup_node (self, level, 0, 0);
  guint32 n_vertices = stub >= 0 ? self->stubs[stub].layout.n_vertices : 0;
  guint64 per_chunk = 1;

  while (per_chunk * per_chunk < n_vertices && per_chunk < max)
    per_chunk *= 2;
  per_chunk <<= level;
  per_chunk = MAX (per_chunk, MIN ((guint) RENDER_MIN_SIDE, max));
  per_chunk = MIN (per_chunk, (guint64) max);
  /* Whole pixels per chunk. */
  *side = MAX ((guint) (per_chunk >> level), 1u) << level;
  return level;
}

/* Draws the chunks of the render level seen from above, north (+Y) up:
 * column = X across the terrain's width, row 0 at the largest Y, heights in
 * world units. */
static gboolean
fill_relief (TerrainChuFile  *self,
             TerrainRelief   *relief,
             GError         **error)
{
  gdouble leaf = chu_bits_to_float (self->leaf_dimensions_bits);
  gdouble scale = chu_bits_to_float (self->vertical_scale_bits);
  gdouble terrain = terrain_chu_file_get_terrain_size (self);
  guint side, level = render_level (self, &side);
  gdouble chunk_size;

  if (!isfinite (leaf) || leaf <= 0.0 || !isfinite (terrain))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s header: leaf dimensions %g at byte offset %d are not finite and "
                   "positive, so the chunks have no place to be drawn at",
                   chu_variant_name (self->variant), leaf, chu_header_offset (self, OFF_LEAF_DIMENSIONS));
      return FALSE;
    }
  /* Without a usable scale, heights stay in quantised units. */
  if (!isfinite (scale) || scale == 0.0)
    scale = 1.0;
  chunk_size = ldexp (leaf, (gint) self->tree_depth - 1 - (gint) level);

  if (!terrain_relief_init (relief, side, side, &self->limits, "CHU picture", error))
    return FALSE;

  for (guint k = 0; k < self->chunk_count; k++)
    {
      const TerrainChuStub *stub = &self->stubs[k].pub;
      g_autoptr(TerrainChuChunk) chunk = NULL;
      gdouble origin_x = chunk_size * stub->x, origin_y = chunk_size * stub->y;
      guint step;

      if (stub->level != level)
        continue;
      chunk = terrain_chu_file_get_chunk (self, k, error);
      if (chunk == NULL)
        return FALSE;

      step = chunk->strip ? 1 : 3;
      for (guint i = 0; i + 2 < chunk->n_indices; i += step)
        {
          gdouble corner[3][3];
          gboolean valid = TRUE;

          for (guint c = 0; c < 3 && valid; c++)
            {
              guint16 index = chunk->indices[i + c];
              const TerrainChuVertex *v;
              gdouble x, y;

              if (index >= chunk->n_vertices)
                {
                  valid = FALSE;
                  break;
                }
              v = &chunk->vertices[index];
              /* atlas-chu-tqt.md §9b, "Mapping CHU to Atlas geometry". */
              x = (v->x / (gdouble) TERRAIN_CHU_QUANTIZED_HALF * 0.5 + 0.5) * chunk_size + origin_x;
              y = (v->y / (gdouble) TERRAIN_CHU_QUANTIZED_HALF * 0.5 + 0.5) * chunk_size + origin_y;
              corner[c][0] = x / terrain * side;
              corner[c][1] = (terrain - y) / terrain * side;
              corner[c][2] = v->z * scale;
            }
          /* Strips join with degenerate triangles, which draw nothing. */
          if (valid)
            terrain_relief_triangle (relief, corner[0], corner[1], corner[2]);
        }
    }
  return TRUE;
}

/* Shaded relief of the finest level drawn (see fill_relief). */
TerrainImage *
chu_file_render_image (TerrainDocument  *document,
                               TerrainRenderOptions *options,
                               GError          **error)
{
  TerrainChuFile *self = TERRAIN_CHU_FILE (document);
  g_auto(TerrainRelief) relief = { 0 };

  (void) options;
  if (!fill_relief (self, &relief, error))
    return NULL;
  return terrain_relief_render (&relief, 0.0, error);
}

/* The same grid as 16 bits, lowest height 0, highest 65535. */
TerrainImage *
chu_file_export_heights (TerrainDocument  *document,
                                 GError          **error)
{
  TerrainChuFile *self = TERRAIN_CHU_FILE (document);
  g_auto(TerrainRelief) relief = { 0 };

  if (!fill_relief (self, &relief, error))
    return NULL;
  return terrain_relief_to_gray16 (&relief, error);
}
