/* terrain-atlas-file-write.c: writing, compacting and converting Atlas files
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

/* ------------------------------------------------------------------------
 * Writing
 */

static void
serialize_prefix (TerrainAtlasFile  *self,
                  TerrainWriter     *writer,
                  guint32          **spans)
{
  terrain_writer_put_u32 (writer, ATLAS_MAGIC);
  terrain_writer_put_u8 (writer, (guint8) atlas_file_n_tocs (self));
  for (guint i = 0; i < atlas_file_n_tocs (self); i++)
    terrain_atlas_toc_serialize (atlas_file_get_toc (self, i), writer, spans != NULL ? spans[i] : NULL);
}

/* Writes a fresh layout: the TOCs, then every chunk once in TOC and stub
 * order; frames of the source are shared by offset, frames made in memory
 * by content (so identical tiles are stored once). With @zero_history,
 * previousChunk of geometry and config bodies becomes 0 (compaction drops
 * the frames it would point at). */
static GBytes *
write_canonical (TerrainAtlasFile  *self,
                 gboolean           zero_history,
                 GError           **error)
{
  g_autoptr(GHashTable) by_source = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GHashTable) by_frame = g_hash_table_new (g_bytes_hash, g_bytes_equal);
  guint count = atlas_file_n_tocs (self);
  g_autofree guint32 **spans = g_new0 (guint32 *, MAX (count, 1));
  gsize prefix = atlas_file_compute_toc_region_size (self);
  TerrainWriter writer, header;
  GBytes *result = NULL;

  terrain_writer_init (&writer, prefix);
  terrain_writer_set_section (&writer, "Atlas");
  terrain_writer_put_zeros (&writer, prefix);

  for (guint t = 0; t < count; t++)
    {
      TerrainAtlasToc *toc = atlas_file_get_toc (self, t);
      TerrainAtlasTocKind kind = terrain_atlas_toc_get_kind (toc);
      guint n = terrain_atlas_toc_get_n_stubs (toc);

      spans[t] = g_new0 (guint32, 2 * (gsize) MAX (n, 1));
      for (guint s = 0; s < n; s++)
        {
          TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (toc, s);
          g_autoptr(GBytes) frame = NULL;
          gpointer key, value;
          GHashTable *table;
          gsize at, size;
          const guint8 *bytes;

          if (!atlas_file_stub_has_chunk (data))
            continue;

          if (data->frame != NULL)
            {
              table = by_frame;
              key = data->frame;
            }
          else
            {
              table = by_source;
              key = GUINT_TO_POINTER (data->offset);
            }
          if (g_hash_table_lookup_extended (table, key, NULL, &value))
            {
              spans[t][2 * s] = GPOINTER_TO_UINT (value);
              spans[t][2 * s + 1] = data->length;
              continue;
            }

          frame = terrain_atlas_file_get_chunk_frame (self, t, s, error);
          if (frame == NULL)
            goto out;
          at = terrain_writer_tell (&writer);
          bytes = g_bytes_get_data (frame, &size);
          if (at + size > G_MAXUINT32)
            {
              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                           "Atlas: the chunks do not fit in the 4 GiB 32-bit offsets address");
              goto out;
            }
          terrain_writer_put_bytes (&writer, bytes, size);
          if (zero_history && kind != TERRAIN_ATLAS_TOC_TEXTURE)
            terrain_writer_patch_u32 (&writer, at + ATLAS_FRAME_HEAD_SIZE, 0);

          g_hash_table_insert (table, key, GUINT_TO_POINTER ((guint) at));
          spans[t][2 * s] = (guint32) at;
          spans[t][2 * s + 1] = (guint32) size;
        }
    }

  terrain_writer_init (&header, prefix);
  serialize_prefix (self, &header, spans);
  g_assert (terrain_writer_tell (&header) == prefix);
  terrain_writer_patch_bytes (&writer, 0, header.buffer->data, prefix);
  terrain_writer_clear (&header);

  result = terrain_writer_finish (&writer, error);
  writer.buffer = NULL;

out:
  if (writer.buffer != NULL)
    terrain_writer_clear (&writer);
  for (guint t = 0; t < count; t++)
    g_free (spans[t]);
  return result;
}

/* Writes a file read from bytes: a copy of the source (so that gaps,
 * history and frame order survive), the TOC region serialised from the
 * model over it, then the frames edits appended. */
static GBytes *
write_in_place (TerrainAtlasFile  *self,
                GError           **error)
{
  TerrainWriter writer, header;
  TerrainReader reader;
  const guint8 *all;

  terrain_reader_init (&reader, self->source, "Atlas");
  if (!terrain_reader_peek_bytes (&reader, self->source_size, &all, error))
    return NULL;

  terrain_writer_init_copy (&writer, all, self->source_size);
  terrain_writer_set_section (&writer, "Atlas");

  terrain_writer_init (&header, self->toc_region_size);
  serialize_prefix (self, &header, NULL);
  g_assert (terrain_writer_tell (&header) == self->toc_region_size);
  terrain_writer_patch_bytes (&writer, 0, header.buffer->data, self->toc_region_size);
  terrain_writer_clear (&header);

  for (guint i = 0; i < self->appended->len; i++)
    {
      gsize size = 0;
      const guint8 *data = g_bytes_get_data (g_ptr_array_index (self->appended, i), &size);

      terrain_writer_put_bytes (&writer, data, size);
    }

  return terrain_writer_finish (&writer, error);
}

GBytes *
atlas_file_save_to_bytes (TerrainDocument  *document,
                          GError          **error)
{
  TerrainAtlasFile *self = TERRAIN_ATLAS_FILE (document);

  if (self->source != NULL)
    return write_in_place (self, error);
  return write_canonical (self, FALSE, error);
}

/**
 * terrain_atlas_file_compact:
 * @self: a #TerrainAtlasFile
 * @error: return location for a #GError
 *
 * Writes a fresh copy of the file with no history: the TOCs, then every
 * referenced chunk once, in TOC and stub order, back to back. Unreferenced
 * frames and gaps are dropped and previousChunk of geometry and config
 * chunks becomes 0, since the frames it pointed at are gone; generations,
 * bounds, names and chunk contents are kept.
 *
 * Returns: (transfer full) (nullable): the compacted file, read back from
 *   the new bytes (save it with [method@Terrain.Document.save]), or %NULL
 *   with a %TERRAIN_ERROR
 */
TerrainAtlasFile *
terrain_atlas_file_compact (TerrainAtlasFile  *self,
                            GError           **error)
{
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);

  bytes = write_canonical (self, TRUE, error);
  if (bytes == NULL)
    return NULL;
  return terrain_atlas_file_new_from_bytes (bytes, &self->limits, error);
}

static void
add_warning (TerrainIssueCollector *issues,
             const char         *kind,
             const char         *where,
             gint64              offset,
             guint               stub,
             const char         *message)
{
  terrain_issue_collector_add (issues, kind, TERRAIN_SEVERITY_WARNING, where, offset, stub,
                            "%s", message);
}

/**
 * terrain_atlas_file_convert:
 * @self: a #TerrainAtlasFile
 * @version: the resource version to write, e.g. 100, 110, 120, 130 or 140
 * @warnings: (out) (optional) (transfer full) (element-type TerrainIssue):
 *   what the conversion lost, one warning per chunk (at most 20 of a kind)
 * @error: return location for a #GError
 *
 * Writes the file at another resource version (§7): every TOC takes
 * @version; geometry chunks are decoded into the canonical field set and
 * encoded in the layout of @version. Upgrading fills the canonical values
 * (bounds derived from the vertices, normals (0, 0, 1), no collision);
 * downgrading drops normals before 140, collision before 120, and stored
 * bounds before 101, with a warning for each chunk that loses information.
 * Texture and config chunks keep their bodies.
 *
 * As TGEA does when it copies TOCs (field-notes.md), each chunk is written
 * once more: previousChunk of geometry and config chunks becomes the chunk's
 * offset in @self and generations go up by one. The new file has the fresh
 * layout of [method@Terrain.AtlasFile.compact].
 *
 * Returns: (transfer full) (nullable): the converted file, read back from
 *   its bytes, or %NULL with a %TERRAIN_ERROR (a chunk that does not decode)
 */
TerrainAtlasFile *
terrain_atlas_file_convert (TerrainAtlasFile  *self,
                            guint32            version,
                            GPtrArray        **warnings,
                            GError           **error)
{
  g_autoptr(TerrainAtlasFile) out = NULL;
  g_autoptr(GBytes) bytes = NULL;
  TerrainIssueCollector issues;
  g_autoptr(GPtrArray) found = NULL;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);

  out = terrain_atlas_file_new ();
  out->limits = self->limits;
  terrain_issue_collector_init (&issues, 0);

  for (guint t = 0; t < atlas_file_n_tocs (self); t++)
    {
      TerrainAtlasToc *toc = atlas_file_get_toc (self, t);
      TerrainAtlasTocKind kind = terrain_atlas_toc_get_kind (toc);
      guint32 source_version = terrain_atlas_toc_get_version (toc);
      guint n = terrain_atlas_toc_get_n_stubs (toc);
      g_autoptr(TerrainAtlasToc) copy = NULL;
      g_autoptr(GHashTable) done = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                                          (GDestroyNotify) g_bytes_unref);

      copy = terrain_atlas_toc_new (kind, version, terrain_atlas_toc_get_tree_depth (toc), n);
      if (kind == TERRAIN_ATLAS_TOC_GEOMETRY)
        terrain_atlas_toc_set_goal_batch_size (copy, terrain_atlas_toc_get_goal_batch_size (toc));
      if (kind == TERRAIN_ATLAS_TOC_CONFIG)
        terrain_atlas_toc_set_name_width (copy, terrain_atlas_toc_get_name_width (toc));
      if (!terrain_atlas_file_add_toc (out, copy, error))
        goto fail;

      for (guint s = 0; s < n; s++)
        {
          TerrainAtlasStubData *from = terrain_atlas_toc_get_stub_data (toc, s);
          TerrainAtlasStubData *to = terrain_atlas_toc_get_stub_data (copy, s);
          g_autoptr(GBytes) body = NULL;
          g_autofree char *where = NULL;
          GBytes *frame;
          gpointer key = GUINT_TO_POINTER (from->offset);

          if (kind == TERRAIN_ATLAS_TOC_CONFIG)
            memcpy (to->name, from->name, terrain_atlas_toc_get_name_width (toc));
          to->position[0] = from->position[0];
          to->position[1] = from->position[1];
          to->bounds = from->bounds;
          to->generation = from->generation + 1;
          if (!atlas_file_stub_has_chunk (from))
            continue;

          /* Stubs sharing a frame keep sharing one. */
          if (from->frame == NULL && (frame = g_hash_table_lookup (done, key)) != NULL)
            {
              to->frame = g_bytes_ref (frame);
              to->length = (guint32) g_bytes_get_size (frame);
              continue;
            }

          where = atlas_file_describe_stub (self, t, s);
          if (kind == TERRAIN_ATLAS_TOC_GEOMETRY)
            {
              g_autoptr(TerrainAtlasGeometry) geometry = NULL;
              TerrainAtlasLoss loss;

              geometry = terrain_atlas_file_get_geometry (self, t, s, error);
              if (geometry == NULL)
                goto fail;
              terrain_atlas_geometry_set_previous_chunk (geometry, from->offset);
              body = terrain_atlas_geometry_encode_body (geometry, version, &loss, error);
              if (body == NULL)
                goto fail;
              terrain_atlas_geometry_get_bounds (geometry, &to->bounds);
              if (version < 101 && source_version >= 101)
                {
                  /* pos.x/pos.y: TGEA ignores them; keep the centre. */
                  to->position[0] = (to->bounds.min[0] + to->bounds.max[0]) / 2;
                  to->position[1] = (to->bounds.min[1] + to->bounds.max[1]) / 2;
                }

              if (loss & TERRAIN_ATLAS_LOSS_NORMALS)
                add_warning (&issues, "loss-normals", where, from->offset, s,
                             "normals other than (0, 0, 1) are dropped: versions before 140 "
                             "store none");
              if (loss & TERRAIN_ATLAS_LOSS_COLLISION)
                add_warning (&issues, "loss-collision", where, from->offset, s,
                             "the collision block is dropped: versions before 120 store none");
              if (loss & TERRAIN_ATLAS_LOSS_BOUNDS)
                add_warning (&issues, "loss-bounds", where, from->offset, s,
                             "the stored bounds differ from the vertices' and are dropped: "
                             "versions before 101 derive them");
            }
          else
            {
              body = terrain_atlas_file_get_chunk_body (self, t, s, error);
              if (body == NULL)
                goto fail;
              if (kind == TERRAIN_ATLAS_TOC_CONFIG && g_bytes_get_size (body) >= 4)
                {
                  gsize size = 0;
                  guint8 *patched = g_bytes_unref_to_data (g_steal_pointer (&body), &size);

                  terrain_put_le32 (patched, from->offset);
                  body = g_bytes_new_take (patched, size);
                }
            }

          frame = terrain_atlas_frame_new (kind, body, error);
          if (frame == NULL)
            goto fail;
          to->frame = frame;
          to->length = (guint32) g_bytes_get_size (frame);
          if (from->frame == NULL)
            g_hash_table_insert (done, key, g_bytes_ref (frame));
        }
    }

  bytes = write_canonical (out, FALSE, error);
  if (bytes == NULL)
    goto fail;

  found = terrain_issue_collector_finish (&issues);
  if (warnings != NULL)
    *warnings = g_steal_pointer (&found);
  return terrain_atlas_file_new_from_bytes (bytes, &self->limits, error);

fail:
  g_ptr_array_unref (terrain_issue_collector_finish (&issues));
  return NULL;
}
