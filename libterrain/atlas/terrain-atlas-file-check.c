/* terrain-atlas-file-check.c: Atlas description and validation
 * (the files of TerrainAtlasFile: terrain-atlas-file-impl-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-atlas-file-impl-private.h"
#include "terrain-quadtree.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"
#include "core/terrain-relief-private.h"

/* Whether an ATSP frame starts at @offset of the source (for history). */
static gboolean
history_frame_at (TerrainAtlasFile *self,
                  guint64           offset,
                  guint32          *length)
{
  TerrainReader reader, frame;
  guint32 magic, body, tail;

  terrain_reader_init (&reader, self->source, "Atlas");
  if (offset + ATLAS_FRAME_OVERHEAD > self->source_size ||
      !terrain_reader_sub (&reader, offset, ATLAS_FRAME_HEAD_SIZE, "frame", &frame, NULL))
    return FALSE;
  terrain_reader_read_u32 (&frame, &magic, NULL);
  terrain_reader_read_u32 (&frame, &body, NULL);
  if (magic != ATLAS_FRAME_MAGIC ||
      offset + (guint64) body + ATLAS_FRAME_OVERHEAD > self->source_size ||
      !terrain_reader_seek (&reader, offset + ATLAS_FRAME_HEAD_SIZE + body, NULL) ||
      !terrain_reader_read_u32 (&reader, &tail, NULL) ||
      (tail != ATLAS_GEOM_TAIL && tail != ATLAS_TEX_TAIL && tail != ATLAS_CONFIG_TAIL))
    return FALSE;
  *length = body + ATLAS_FRAME_OVERHEAD;
  return TRUE;
}

typedef struct
{
  guint64 referenced;
  guint unique_frames;
  guint history_frames;
  guint64 history_bytes;
  guint64 gap_bytes;
} LayoutStats;

/* Walks the unreferenced stretches of the source: frames found at their
 * start (and one after another) count as history, the rest as gaps. */
static void
layout_stats (TerrainAtlasFile *self,
              LayoutStats      *stats)
{
  guint64 cursor = self->toc_region_size;

  memset (stats, 0, sizeof *stats);
  if (self->source == NULL)
    return;

  for (guint i = 0; i <= self->frames->len; i++)
    {
      guint64 start = self->source_size, end = self->source_size;

      if (i < self->frames->len)
        {
          const FrameRef *ref = &g_array_index (self->frames, FrameRef, i);

          start = ref->offset;
          end = (guint64) ref->offset + ref->length;
          if (i > 0 && g_array_index (self->frames, FrameRef, i - 1).offset == ref->offset)
            continue;
          stats->unique_frames++;
          stats->referenced += ref->length;
        }

      if (cursor < start)
        {
          TerrainReader reader, stretch;
          const guint8 *bytes;
          gsize rel = 0, size = start - cursor;

          terrain_reader_init (&reader, self->source, "Atlas");
          terrain_reader_sub (&reader, cursor, size, "unreferenced bytes", &stretch, NULL);
          terrain_reader_peek_bytes (&stretch, size, &bytes, NULL);

          /* Frames may sit after filler: look for each ATSP marker. */
          while (rel < size)
            {
              const guint8 *hit = memmem (bytes + rel, size - rel, "ATSP", 4);
              guint32 length;
              gsize at;

              if (hit == NULL)
                {
                  stats->gap_bytes += size - rel;
                  break;
                }
              at = (gsize) (hit - bytes);
              if (history_frame_at (self, cursor + at, &length) && at + length <= size)
                {
                  stats->gap_bytes += at - rel;
                  stats->history_frames++;
                  stats->history_bytes += length;
                  rel = at + length;
                }
              else
                {
                  stats->gap_bytes += at + 1 - rel;
                  rel = at + 1;
                }
            }
        }
      cursor = MAX (cursor, end);
    }
}

JsonNode *
atlas_file_describe (TerrainDocument *document)
{
  TerrainAtlasFile *self = TERRAIN_ATLAS_FILE (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  LayoutStats stats;

  layout_stats (self, &stats);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, terrain_format_get_name (TERRAIN_FORMAT_ATLAS));
  json_builder_set_member_name (builder, "file_size");
  json_builder_add_int_value (builder, (gint64) terrain_atlas_file_get_size (self));
  json_builder_set_member_name (builder, "toc_region_size");
  json_builder_add_int_value (builder, (gint64) terrain_atlas_file_get_toc_region_size (self));

  json_builder_set_member_name (builder, "tocs");
  json_builder_begin_array (builder);
  for (guint t = 0; t < atlas_file_n_tocs (self); t++)
    {
      TerrainAtlasToc *toc = atlas_file_get_toc (self, t);
      guint n = terrain_atlas_toc_get_n_stubs (toc), with_chunks = 0;

      for (guint s = 0; s < n; s++)
        with_chunks += atlas_file_stub_has_chunk (terrain_atlas_toc_get_stub_data (toc, s));

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "index");
      json_builder_add_int_value (builder, t);
      json_builder_set_member_name (builder, "kind");
      json_builder_add_string_value (builder, terrain_atlas_toc_get_tag (toc));
      json_builder_set_member_name (builder, "offset");
      json_builder_add_int_value (builder, terrain_atlas_toc_get_file_offset (toc));
      json_builder_set_member_name (builder, "version");
      json_builder_add_int_value (builder, terrain_atlas_toc_get_version (toc));
      json_builder_set_member_name (builder, "tree_depth");
      json_builder_add_int_value (builder, terrain_atlas_toc_get_tree_depth (toc));
      json_builder_set_member_name (builder, "stubs");
      json_builder_add_int_value (builder, n);
      json_builder_set_member_name (builder, "chunks");
      json_builder_add_int_value (builder, with_chunks);
      if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_GEOMETRY)
        {
          json_builder_set_member_name (builder, "goal_batch_size");
          json_builder_add_int_value (builder, terrain_atlas_toc_get_goal_batch_size (toc));
        }
      if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_CONFIG)
        {
          json_builder_set_member_name (builder, "name_width");
          json_builder_add_int_value (builder, terrain_atlas_toc_get_name_width (toc));
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "chunk_frames");
  json_builder_add_int_value (builder, stats.unique_frames);
  json_builder_set_member_name (builder, "referenced_bytes");
  json_builder_add_int_value (builder, (gint64) stats.referenced);
  json_builder_set_member_name (builder, "history_frames");
  json_builder_add_int_value (builder, stats.history_frames);
  json_builder_set_member_name (builder, "history_bytes");
  json_builder_add_int_value (builder, (gint64) stats.history_bytes);
  json_builder_set_member_name (builder, "gap_bytes");
  json_builder_add_int_value (builder, (gint64) stats.gap_bytes);
  json_builder_set_member_name (builder, "appended_frames");
  json_builder_add_int_value (builder, self->appended != NULL ? self->appended->len : 0);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static const char * const geom_stub_fields[] = {
  "offset", "length", "generation", "mBounds.min.x", "mBounds.min.y", "mBounds.min.z",
  "mBounds.max.x", "mBounds.max.y", "mBounds.max.z",
};

static char *
describe_toc_offset (TerrainAtlasFile *self,
                     guint             t,
                     gsize             rel)
{
  TerrainAtlasToc *toc = atlas_file_get_toc (self, t);
  TerrainAtlasTocKind kind = terrain_atlas_toc_get_kind (toc);
  gsize tag = strlen (terrain_atlas_toc_get_tag (toc));
  gsize head = 1 + tag + (kind == TERRAIN_ATLAS_TOC_GEOMETRY ? 4 : 0) + 12;
  gsize stub_size = terrain_atlas_toc_get_stub_size (toc);
  g_autofree char *where = NULL;
  gsize s, field;
  const char *name;

  if (rel < head)
    {
      static const char * const common[] = { "treeDepth", "stubCount", "csmVersion" };
      gsize body = head - 12;

      if (rel == 0)
        name = "tagLength";
      else if (rel < 1 + tag)
        name = "kindTag";
      else if (rel < body)
        name = "mGoalBatchSize";
      else
        name = common[(rel - body) / 4];
      return g_strdup_printf ("TOC %u (%s) header, %s", t, terrain_atlas_toc_get_tag (toc), name);
    }

  s = (rel - head) / stub_size;
  field = (rel - head) % stub_size;
  where = atlas_file_describe_stub (self, t, (guint) s);
  if (field < 12)
    name = geom_stub_fields[field / 4];
  else if (kind == TERRAIN_ATLAS_TOC_CONFIG)
    name = "name";
  else if (terrain_atlas_toc_get_version (toc) < 101)
    name = field < 16 ? "pos.x" : "pos.y";
  else if (field < 36)
    name = geom_stub_fields[field / 4];
  else
    name = "sentinel 0xD0";
  return g_strdup_printf ("%s record, %s", where, name);
}

char *
atlas_file_describe_offset (TerrainDocument *document,
                            gsize            offset)
{
  TerrainAtlasFile *self = TERRAIN_ATLAS_FILE (document);
  gsize toc_start = FILE_HEADER_SIZE;
  guint lo = 0, hi;

  if (self->source == NULL)
    return NULL;
  if (offset >= self->source_size)
    return g_strdup (offset < self->source_size + self->appended_size ? "appended chunk frames"
                                                                      : "end of file");
  if (offset < 4)
    return g_strdup ("header, magic ATLS");
  if (offset < FILE_HEADER_SIZE)
    return g_strdup ("header, TOC count");

  if (offset < self->toc_region_size)
    for (guint t = 0; t < atlas_file_n_tocs (self); t++)
      {
        gsize size = terrain_atlas_toc_get_serialized_size (atlas_file_get_toc (self, t));

        if (offset < toc_start + size)
          return describe_toc_offset (self, t, offset - toc_start);
        toc_start += size;
      }

  /* The last frame starting at or before @offset. */
  hi = self->frames->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->frames, FrameRef, mid).offset <= offset)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo > 0)
    {
      const FrameRef *ref = &g_array_index (self->frames, FrameRef, lo - 1);

      if (offset - ref->offset < ref->length)
        {
          g_autofree char *where = atlas_file_describe_stub (self, ref->toc, ref->stub);
          gsize rel = offset - ref->offset;

          if (rel < 4)
            return g_strdup_printf ("chunk of %s, frame marker ATSP", where);
          if (rel < 8)
            return g_strdup_printf ("chunk of %s, bodySize", where);
          if (rel < 12)
            return g_strdup_printf ("chunk of %s, head marker", where);
          if (rel >= ref->length - 4)
            return g_strdup_printf ("chunk of %s, tail marker", where);
          return g_strdup_printf ("chunk of %s, body byte +%" G_GSIZE_FORMAT, where, rel - 12);
        }
    }

  return g_strdup ("unreferenced bytes (history frames or a gap)");
}

static void
check_previous_chunk (TerrainAtlasFile   *self,
                      TerrainIssueCollector *issues,
                      const char         *where,
                      const TerrainAtlasStubData *data,
                      guint               stub,
                      guint32             previous)
{
  guint32 length;

  if (previous == 0 || self->source == NULL)
    return;
  if (previous >= self->toc_region_size && history_frame_at (self, previous, &length))
    return;
  /* A frame an earlier edit appended. */
  if (previous >= self->source_size && previous < self->source_size + self->appended_size)
    return;
  terrain_issue_collector_add (issues, "previous-chunk", TERRAIN_SEVERITY_INFO, where,
                            data->offset, stub,
                            "previousChunk %u does not point at a chunk frame of this file "
                            "(the history it names is not here)", previous);
}

static void
take_issues (TerrainIssueCollector *issues,
             GPtrArray          *found)
{
  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (issues->issues, terrain_issue_ref (g_ptr_array_index (found, i)));
  g_ptr_array_unref (found);
}

GPtrArray *
atlas_file_validate (TerrainDocument *document)
{
  TerrainAtlasFile *self = TERRAIN_ATLAS_FILE (document);
  TerrainIssueCollector issues;

  terrain_issue_collector_init (&issues, 0);

  for (guint t = 0; t < atlas_file_n_tocs (self); t++)
    {
      TerrainAtlasToc *toc = atlas_file_get_toc (self, t);
      TerrainAtlasTocKind kind = terrain_atlas_toc_get_kind (toc);
      guint32 version = terrain_atlas_toc_get_version (toc);
      guint32 depth = terrain_atlas_toc_get_tree_depth (toc);
      guint n = terrain_atlas_toc_get_n_stubs (toc);
      g_autofree char *section = g_strdup_printf ("TOC %u (%s)", t,
                                                  terrain_atlas_toc_get_tag (toc));

      if (version > TERRAIN_ATLAS_VERSION)
        terrain_issue_collector_add (&issues, "version", TERRAIN_SEVERITY_WARNING, section,
                                  terrain_atlas_toc_get_file_offset (toc), -1,
                                  "resource version %u is newer than %d, the newest known; "
                                  "it is read with the version-%d layouts",
                                  version, TERRAIN_ATLAS_VERSION, TERRAIN_ATLAS_VERSION);
      if (kind != TERRAIN_ATLAS_TOC_CONFIG && n != terrain_quadtree_node_count (depth))
        terrain_issue_collector_add (&issues, "tree", TERRAIN_SEVERITY_WARNING, section,
                                  terrain_atlas_toc_get_file_offset (toc), -1,
                                  "%u stubs, but a complete quadtree of depth %u has %"
                                  G_GUINT64_FORMAT, n, depth, terrain_quadtree_node_count (depth));

      for (guint s = 0; s < n; s++)
        {
          TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (toc, s);
          g_autofree char *where = NULL;
          g_autoptr(GError) error = NULL;

          if (!atlas_file_stub_has_chunk (data))
            continue;
          where = atlas_file_describe_stub (self, t, s);

          switch (kind)
            {
            case TERRAIN_ATLAS_TOC_GEOMETRY:
              {
                g_autoptr(TerrainAtlasGeometry) geometry = NULL;
                TerrainAtlasBox bounds;
                TerrainAtlasStubData *up;
                guint64 parent;

                geometry = terrain_atlas_file_get_geometry (self, t, s, &error);
                if (geometry == NULL)
                  {
                    terrain_issue_collector_add (&issues, "geometry", TERRAIN_SEVERITY_ERROR, where,
                                              data->offset, s, "%s", error->message);
                    break;
                  }
                take_issues (&issues, terrain_atlas_geometry_check (geometry, where,
                                                                    data->offset, s));
                check_previous_chunk (self, &issues, where, data, s,
                                      terrain_atlas_geometry_get_previous_chunk (geometry));
                if (version < 101)
                  break;

                terrain_atlas_geometry_get_bounds (geometry, &bounds);
                if (!terrain_atlas_box_equal (&bounds, &data->bounds))
                  terrain_issue_collector_add (&issues, "stub-bounds", TERRAIN_SEVERITY_WARNING,
                                            where, data->offset, s,
                                            "the stub's bounds differ from its chunk's (TGEA "
                                            "copies the chunk's into the stub)");
                if (!terrain_quadtree_parent (s, &parent) || parent >= n)
                  break;
                up = terrain_atlas_toc_get_stub_data (toc, (guint) parent);
                if (atlas_file_stub_has_chunk (up) && !terrain_atlas_box_contains (&up->bounds, &data->bounds))
                  terrain_issue_collector_add (&issues, "parent-bounds", TERRAIN_SEVERITY_WARNING,
                                            where, data->offset, s,
                                            "the parent's bounds (stub %" G_GUINT64_FORMAT
                                            ") do not contain this chunk's", parent);
              }
              break;

            case TERRAIN_ATLAS_TOC_TEXTURE:
              {
                g_autoptr(TerrainAtlasTexture) texture = NULL;

                texture = terrain_atlas_file_get_texture (self, t, s, &error);
                if (texture == NULL)
                  terrain_issue_collector_add (&issues, "texture", TERRAIN_SEVERITY_ERROR, where,
                                            data->offset, s, "%s", error->message);
                else
                  take_issues (&issues, terrain_atlas_texture_check (texture, where,
                                                                     data->offset, s));
              }
              break;

            case TERRAIN_ATLAS_TOC_CONFIG:
            default:
              {
                g_autoptr(TerrainAtlasConfig) config = NULL;

                config = terrain_atlas_file_get_config (self, t, s, &error);
                if (config == NULL)
                  terrain_issue_collector_add (&issues, "config", TERRAIN_SEVERITY_ERROR, where,
                                            data->offset, s, "%s", error->message);
                else
                  check_previous_chunk (self, &issues, where, data, s,
                                        terrain_atlas_config_get_previous_chunk (config));
              }
              break;
            }
        }
    }

  return terrain_issue_collector_finish (&issues);
}
