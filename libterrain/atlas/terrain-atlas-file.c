/* terrain-atlas-file.c: Torque (TGEA) Atlas containers: the type, reading, TOCs
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
#include "core/terrain-io-private.h"
#include "core/terrain-issue.h"
#include "core/terrain-relief-private.h"

G_DEFINE_FINAL_TYPE (TerrainAtlasFile, terrain_atlas_file, TERRAIN_TYPE_DOCUMENT)

void terrain_atlas_file_toc_changed (gpointer file);

void
terrain_atlas_file_toc_changed (gpointer file)
{
  terrain_document_set_modified (TERRAIN_DOCUMENT (file), TRUE);
}

TerrainAtlasToc *
atlas_file_get_toc (TerrainAtlasFile *self,
                    guint             index)
{
  /* GListStore hands out a reference; the store keeps its own. */
  TerrainAtlasToc *toc = g_list_model_get_item (G_LIST_MODEL (self->tocs), index);

  if (toc != NULL)
    g_object_unref (toc);
  return toc;
}

guint
atlas_file_n_tocs (TerrainAtlasFile *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->tocs));
}

/* "TOC 1 (Tex) stub 5 (level 1, x 0, y 0)", for messages. */
char *
atlas_file_describe_stub (TerrainAtlasFile *self,
                          guint             toc_index,
                          guint             stub_index)
{
  TerrainAtlasToc *toc = atlas_file_get_toc (self, toc_index);
  guint level;
  guint32 x, y;

  if (terrain_atlas_toc_get_stub_node (toc, stub_index, &level, &x, &y))
    return g_strdup_printf ("TOC %u (%s) stub %u (level %u, x %u, y %u)", toc_index,
                            terrain_atlas_toc_get_tag (toc), stub_index, level, x, y);
  if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_CONFIG)
    {
      TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (toc, stub_index);
      g_autofree char *name = g_strndup ((const char *) data->name,
                                         terrain_atlas_toc_get_name_width (toc));
      g_autofree char *escaped = g_strescape (name, NULL);

      return g_strdup_printf ("TOC %u (Config) stub %u \"%s\"", toc_index, stub_index, escaped);
    }
  return g_strdup_printf ("TOC %u (%s) stub %u", toc_index, terrain_atlas_toc_get_tag (toc),
                          stub_index);
}

gboolean
atlas_file_stub_has_chunk (const TerrainAtlasStubData *data)
{
  return data->length != 0 || data->frame != NULL;
}

static void
terrain_atlas_file_dispose (GObject *object)
{
  TerrainAtlasFile *self = (TerrainAtlasFile *) object;

  if (self->tocs != NULL)
    for (guint i = 0; i < atlas_file_n_tocs (self); i++)
      terrain_atlas_toc_set_owner (atlas_file_get_toc (self, i), NULL, 0);
  g_clear_object (&self->tocs);

  G_OBJECT_CLASS (terrain_atlas_file_parent_class)->dispose (object);
}

static void
terrain_atlas_file_finalize (GObject *object)
{
  TerrainAtlasFile *self = (TerrainAtlasFile *) object;

  g_clear_pointer (&self->source, g_bytes_unref);
  g_clear_pointer (&self->frames, g_array_unref);
  g_clear_pointer (&self->appended, g_ptr_array_unref);

  G_OBJECT_CLASS (terrain_atlas_file_parent_class)->finalize (object);
}

/* ------------------------------------------------------------------------
 * Reading
 */

/* Whether a frame with the markers of @kind starts at @offset: used to pick
 * the Config name width, so it never fails loudly. */
static gboolean
frame_looks_valid (TerrainReader       *reader,
                   guint32              offset,
                   guint32              length,
                   TerrainAtlasTocKind  kind)
{
  TerrainReader frame;
  guint32 magic, body, head;

  if (length < ATLAS_FRAME_OVERHEAD ||
      !terrain_reader_sub (reader, offset, length, "frame", &frame, NULL) ||
      !terrain_reader_read_u32 (&frame, &magic, NULL) ||
      !terrain_reader_read_u32 (&frame, &body, NULL) ||
      !terrain_reader_read_u32 (&frame, &head, NULL))
    return FALSE;
  return magic == ATLAS_FRAME_MAGIC && (guint64) body + ATLAS_FRAME_OVERHEAD == length &&
         head == terrain_atlas_kind_head (kind);
}

static gboolean
tag_follows (TerrainReader *reader)
{
  TerrainReader peek = *reader;
  TerrainAtlasTocKind kind;
  const guint8 *tag;
  guint8 length;

  return terrain_reader_read_u8 (&peek, &length, NULL) &&
         terrain_reader_read_bytes (&peek, length, &tag, NULL) &&
         terrain_atlas_toc_kind_from_tag (tag, length, &kind);
}

/* How well a Config TOC read with one name width fits the rest of the file
 * (field-notes.md: "decide by which width makes the TOC region and chunk
 * references consistent"): its stubs must point at Config frames, and what
 * follows must be the next TOC or, after the last TOC, no chunk may start
 * inside the TOC region. */
static gboolean
config_width_consistent (TerrainAtlasFile *self,
                         TerrainReader    *whole,
                         TerrainAtlasToc  *toc,
                         TerrainReader    *after,
                         guint             index,
                         guint             count)
{
  gsize region_end = terrain_reader_tell (after);

  for (guint s = 0; s < terrain_atlas_toc_get_n_stubs (toc); s++)
    {
      TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (toc, s);

      if (!atlas_file_stub_has_chunk (data))
        continue;
      if (!frame_looks_valid (whole, data->offset, data->length, TERRAIN_ATLAS_TOC_CONFIG))
        return FALSE;
      if (index + 1 == count && data->offset < region_end)
        return FALSE;
    }

  if (index + 1 < count)
    return tag_follows (after);

  for (guint t = 0; t < atlas_file_n_tocs (self); t++)
    {
      TerrainAtlasToc *other = atlas_file_get_toc (self, t);

      for (guint s = 0; s < terrain_atlas_toc_get_n_stubs (other); s++)
        {
          TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (other, s);

          if (atlas_file_stub_has_chunk (data) && data->offset < region_end)
            return FALSE;
        }
    }
  return TRUE;
}

/* The lowest chunk offset of the TOCs read so far and @toc, or
 * G_MAXUINT32 when none has a chunk. */
static guint32
lowest_chunk_offset (TerrainAtlasFile *self,
                     TerrainAtlasToc  *toc)
{
  guint32 lowest = G_MAXUINT32;

  for (guint t = 0; t <= atlas_file_n_tocs (self); t++)
    {
      TerrainAtlasToc *other = t < atlas_file_n_tocs (self) ? atlas_file_get_toc (self, t) : toc;

      for (guint s = 0; s < terrain_atlas_toc_get_n_stubs (other); s++)
        {
          TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (other, s);

          if (atlas_file_stub_has_chunk (data))
            lowest = MIN (lowest, data->offset);
        }
    }
  return lowest;
}

static TerrainAtlasToc *
read_config_toc (TerrainAtlasFile  *self,
                 TerrainReader     *reader,
                 guint              index,
                 guint              count,
                 GError           **error)
{
  g_autoptr(TerrainAtlasToc) narrow = NULL;
  g_autoptr(TerrainAtlasToc) wide = NULL;
  g_autoptr(GError) narrow_error = NULL;
  TerrainReader whole, narrow_reader = *reader, wide_reader = *reader;
  gboolean narrow_ok = FALSE, wide_ok = FALSE;

  terrain_reader_init (&whole, self->source, "Atlas");

  narrow = terrain_atlas_toc_read (&narrow_reader, index, ATLAS_NAME_WIDTH_SHORT,
                                   &self->limits, &narrow_error);
  wide = terrain_atlas_toc_read (&wide_reader, index, ATLAS_NAME_WIDTH_LONG, &self->limits, NULL);

  if (narrow != NULL)
    narrow_ok = config_width_consistent (self, &whole, narrow, &narrow_reader, index, count);
  if (wide != NULL)
    wide_ok = config_width_consistent (self, &whole, wide, &wide_reader, index, count);

  if (wide_ok && narrow_ok)
    {
      /* Both fit: only a last TOC with one stub and room before the first
       * chunk gets here. The width after which the chunk data starts
       * exactly wins; otherwise a name running on past 8 bytes means 128,
       * and the observed 8 stays. */
      guint32 lowest = lowest_chunk_offset (self, wide);
      gsize narrow_end = terrain_reader_tell (&narrow_reader);
      gsize wide_end = terrain_reader_tell (&wide_reader);

      if (lowest == wide_end && lowest != narrow_end)
        wide_ok = TRUE;
      else if (lowest == narrow_end)
        wide_ok = FALSE;
      else if (terrain_atlas_toc_get_n_stubs (wide) > 0)
        {
          TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (wide, 0);

          wide_ok = memchr (data->name, 0, ATLAS_NAME_WIDTH_SHORT) == NULL &&
                    data->name[ATLAS_NAME_WIDTH_SHORT] != 0;
        }
      else
        wide_ok = FALSE;
      narrow_ok = !wide_ok;
    }

  if (wide_ok && !narrow_ok)
    {
      *reader = wide_reader;
      return g_steal_pointer (&wide);
    }

  /* The narrow reading, consistent or not: the frame checks that follow
   * report what is wrong with it. */
  if (narrow == NULL)
    {
      if (wide != NULL)
        {
          *reader = wide_reader;
          return g_steal_pointer (&wide);
        }
      g_propagate_error (error, g_steal_pointer (&narrow_error));
      return NULL;
    }
  *reader = narrow_reader;
  return g_steal_pointer (&narrow);
}

static gint
compare_frames (gconstpointer a,
                gconstpointer b)
{
  const FrameRef *fa = a, *fb = b;

  if (fa->offset != fb->offset)
    return fa->offset < fb->offset ? -1 : 1;
  if (fa->length != fb->length)
    return fa->length < fb->length ? -1 : 1;
  if (fa->toc != fb->toc)
    return fa->toc < fb->toc ? -1 : 1;
  return fa->stub < fb->stub ? -1 : (fa->stub > fb->stub);
}

/* Checks one referenced frame (§2): inside the file and after the TOCs,
 * ATSP, bodySize + 16 == stub length, the kind's head and tail markers. */
/* A few bytes of the source around the frame marks being checked. The
 * marks are read with terrain_bytes_pread(), not through the mapping: a
 * fault maps up to 64 KiB of the file around the bytes read, so checking
 * the head and tail of every frame through the mapping would map (and, at
 * exit, unmap) the whole file. One read of a frame's tail also takes in
 * the head of a frame that follows it. */
typedef struct
{
  guint64 offset;
  gsize length;
  guint8 bytes[64];
} FrameWindow;

/* The little-endian u32 at @offset of the source (inside it: checked). */
static guint32
frame_window_u32 (TerrainAtlasFile *self,
                  FrameWindow      *window,
                  guint64           offset)
{
  guint32 value;

  if (offset < window->offset || offset + 4 > window->offset + window->length)
    {
      window->offset = offset;
      window->length = MIN (sizeof window->bytes, self->source_size - offset);
      terrain_bytes_pread (self->source, offset, window->bytes, window->length);
    }
  memcpy (&value, window->bytes + (offset - window->offset), 4);
  return GUINT32_FROM_LE (value);
}

static gboolean
check_frame (TerrainAtlasFile  *self,
             FrameWindow       *window,
             const FrameRef    *ref,
             GError           **error)
{
  TerrainAtlasToc *toc = atlas_file_get_toc (self, ref->toc);
  TerrainAtlasTocKind kind = terrain_atlas_toc_get_kind (toc);
  g_autofree char *where = NULL;
  guint32 magic, body, head, tail;
  guint64 end = (guint64) ref->offset + ref->length;

  if (ref->offset < self->toc_region_size)
    {
      where = atlas_file_describe_stub (self, ref->toc, ref->stub);
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP,
                   "Atlas %s: chunk at byte offset %u lies inside the TOC region, which ends "
                   "at byte offset %" G_GSIZE_FORMAT,
                   where, ref->offset, self->toc_region_size);
      return FALSE;
    }
  if (end > self->source_size)
    {
      where = atlas_file_describe_stub (self, ref->toc, ref->stub);
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "Atlas %s: chunk at byte offset %u needs %u bytes, but the file ends at "
                   "byte offset %" G_GSIZE_FORMAT " (the file is truncated or the stub is wrong)",
                   where, ref->offset, ref->length, self->source_size);
      return FALSE;
    }
  if (ref->length < ATLAS_FRAME_OVERHEAD)
    {
      where = atlas_file_describe_stub (self, ref->toc, ref->stub);
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas %s: chunk length %u at byte offset %u is shorter than the 16 bytes "
                   "of a chunk frame", where, ref->length, ref->offset);
      return FALSE;
    }

  magic = frame_window_u32 (self, window, ref->offset);
  body = frame_window_u32 (self, window, (guint64) ref->offset + 4);
  head = frame_window_u32 (self, window, (guint64) ref->offset + 8);

  if (magic != ATLAS_FRAME_MAGIC)
    {
      where = atlas_file_describe_stub (self, ref->toc, ref->stub);
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                   "Atlas %s: chunk frame at byte offset %u starts with 0x%08X, not ATSP",
                   where, ref->offset, magic);
      return FALSE;
    }
  if ((guint64) body + ATLAS_FRAME_OVERHEAD != ref->length)
    {
      where = atlas_file_describe_stub (self, ref->toc, ref->stub);
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas %s: bodySize %u at byte offset %u does not match the stub length %u "
                   "(bodySize + 16)", where, body, ref->offset + 4, ref->length);
      return FALSE;
    }
  if (head != terrain_atlas_kind_head (kind))
    {
      guint32 expected = terrain_atlas_kind_head (kind);

      where = atlas_file_describe_stub (self, ref->toc, ref->stub);
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                   "Atlas %s: head marker 0x%08X at byte offset %u is not %.4s",
                   where, head, ref->offset + 8, (const char *) &expected);
      return FALSE;
    }

  tail = frame_window_u32 (self, window, end - 4);
  if (tail != terrain_atlas_kind_tail (kind))
    {
      guint32 expected = terrain_atlas_kind_tail (kind);

      where = atlas_file_describe_stub (self, ref->toc, ref->stub);
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                   "Atlas %s: tail marker 0x%08X at byte offset %" G_GUINT64_FORMAT " is not %.4s",
                   where, tail, end - 4, (const char *) &expected);
      return FALSE;
    }

  return TRUE;
}

static gboolean
terrain_atlas_file_parse (TerrainDocument      *document,
                          GBytes               *bytes,
                          const TerrainLimits  *limits,
                          GError              **error)
{
  TerrainAtlasFile *self = TERRAIN_ATLAS_FILE (document);
  FrameWindow window = { 0, 0, { 0 } };
  TerrainReader reader;
  guint32 magic;
  guint8 count;

  self->limits = *limits;
  self->source = g_bytes_ref (bytes);
  terrain_reader_init (&reader, self->source, "Atlas header");
  self->source_size = terrain_reader_get_size (&reader);

  if (!terrain_reader_read_u32 (&reader, &magic, error))
    return FALSE;
  if (magic != ATLAS_MAGIC)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                   "Atlas header: magic 0x%08X at byte offset 0 is not ATLS", magic);
      return FALSE;
    }
  if (!terrain_reader_read_u8 (&reader, &count, error))
    {
      g_prefix_error (error, "TOC count: ");
      return FALSE;
    }

  for (guint i = 0; i < count; i++)
    {
      g_autoptr(TerrainAtlasToc) toc = NULL;
      TerrainReader peek = reader;
      TerrainAtlasTocKind kind = TERRAIN_ATLAS_TOC_GEOMETRY;
      const guint8 *tag;
      guint8 tag_length;

      if (terrain_reader_read_u8 (&peek, &tag_length, NULL) &&
          terrain_reader_read_bytes (&peek, tag_length, &tag, NULL))
        terrain_atlas_toc_kind_from_tag (tag, tag_length, &kind);

      if (kind == TERRAIN_ATLAS_TOC_CONFIG)
        toc = read_config_toc (self, &reader, i, count, error);
      else
        toc = terrain_atlas_toc_read (&reader, i, ATLAS_NAME_WIDTH_SHORT, &self->limits, error);
      if (toc == NULL)
        return FALSE;

      terrain_atlas_toc_set_owner (toc, self, i);
      g_list_store_append (self->tocs, toc);
    }
  self->toc_region_size = terrain_reader_tell (&reader);

  /* Every referenced frame, checked in file order so that a truncated file
   * is reported at the first chunk it cuts. */
  for (guint t = 0; t < count; t++)
    {
      TerrainAtlasToc *toc = atlas_file_get_toc (self, t);

      for (guint s = 0; s < terrain_atlas_toc_get_n_stubs (toc); s++)
        {
          TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (toc, s);
          FrameRef ref = { data->offset, data->length, t, s };

          if (data->offset == 0 && data->length == 0)
            continue;
          g_array_append_val (self->frames, ref);
        }
    }
  g_array_sort (self->frames, compare_frames);

  for (guint i = 0; i < self->frames->len; i++)
    {
      const FrameRef *ref = &g_array_index (self->frames, FrameRef, i);

      if (!check_frame (self, &window, ref, error))
        return FALSE;

      /* Stubs may share a frame; distinct frames may not share bytes. */
      if (i > 0)
        {
          const FrameRef *prev = &g_array_index (self->frames, FrameRef, i - 1);
          gboolean same = prev->offset == ref->offset && prev->length == ref->length;

          if (!same && (guint64) prev->offset + prev->length > ref->offset)
            {
              g_autofree char *a = atlas_file_describe_stub (self, prev->toc, prev->stub);
              g_autofree char *b = atlas_file_describe_stub (self, ref->toc, ref->stub);

              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP,
                           "Atlas: the chunks of %s (bytes %u to %" G_GUINT64_FORMAT ") and %s "
                           "(bytes %u to %" G_GUINT64_FORMAT ") overlap",
                           a, prev->offset, (guint64) prev->offset + prev->length - 1,
                           b, ref->offset, (guint64) ref->offset + ref->length - 1);
              return FALSE;
            }
          if (same && prev->toc != ref->toc &&
              terrain_atlas_toc_get_kind (atlas_file_get_toc (self, prev->toc)) !=
              terrain_atlas_toc_get_kind (atlas_file_get_toc (self, ref->toc)))
            {
              g_autofree char *a = atlas_file_describe_stub (self, prev->toc, prev->stub);
              g_autofree char *b = atlas_file_describe_stub (self, ref->toc, ref->stub);

              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP,
                           "Atlas: %s and %s, of different kinds, share the chunk at byte "
                           "offset %u", a, b, ref->offset);
              return FALSE;
            }
        }
    }

  return TRUE;
}

/**
 * terrain_atlas_file_new_from_bytes:
 * @bytes: the contents of an `.atlas` file
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Reads a Torque Atlas container (atlas-chu-tqt.md §0-§2, §8): the magic
 * `ATLS`, the TOC count and every TOC with its stubs, for any resource
 * version (geometry stubs of 20 bytes before version 101, of 37 bytes ending
 * with the sentinel 0xD0 from 101 on). A Config TOC's name width, 8 or 128
 * bytes, is the one whose stubs point at Config frames and after which the
 * next TOC, or the chunk data, follows (field-notes.md); when both fit, 8
 * is kept unless the name runs on past 8 bytes.
 *
 * Every stub's frame is checked without decoding its body: it lies after the
 * TOCs and inside the file, starts with `ATSP`, its bodySize plus 16 is the
 * stub length, and its head and tail markers are its TOC kind's. Stubs with
 * offset and length 0 are empty. Stubs may share a frame; distinct frames
 * may not overlap. Frame order, gaps and unreferenced (history) frames are
 * free, and survive writing byte for byte.
 *
 * Chunk bodies are decoded on demand ([method@Terrain.AtlasFile.get_geometry]
 * and siblings) from @bytes, which the file keeps: a large file opens at
 * once.
 *
 * Returns: (transfer full) (nullable): the file, or %NULL with a
 *   %TERRAIN_ERROR naming the TOC, stub and byte offset:
 *   %TERRAIN_ERROR_BAD_MAGIC (magic, kind tag, stub sentinel, frame
 *   markers), %TERRAIN_ERROR_TRUNCATED (a TOC or a chunk runs past the end),
 *   %TERRAIN_ERROR_INVALID_VALUE (a tree deeper than 15, bodySize not
 *   matching the stub length, a frame shorter than 16 bytes),
 *   %TERRAIN_ERROR_OVERLAP (a chunk inside the TOC region, overlapping
 *   chunks) or %TERRAIN_ERROR_LIMIT_EXCEEDED (more stubs than
 *   `max_tiles`)
 */
TerrainAtlasFile *
terrain_atlas_file_new_from_bytes (GBytes               *bytes,
                                   const TerrainLimits  *limits,
                                   GError              **error)
{
  return TERRAIN_ATLAS_FILE (terrain_document_new_from_bytes (TERRAIN_TYPE_ATLAS_FILE, bytes,
                                                              limits, error));
}

/**
 * terrain_atlas_file_new:
 *
 * Creates an empty Atlas file in memory, to be built with
 * [method@Terrain.AtlasFile.add_toc] and
 * [method@Terrain.AtlasFile.set_geometry] and its siblings (an importer's
 * way in). Writing it lays out the TOCs and then every chunk once, in TOC
 * and stub order, with no history.
 *
 * Returns: (transfer full): a new #TerrainAtlasFile
 */
TerrainAtlasFile *
terrain_atlas_file_new (void)
{
  TerrainAtlasFile *self = g_object_new (TERRAIN_TYPE_ATLAS_FILE, NULL);

  self->limits = *terrain_limits_get_default ();
  terrain_document_set_source (TERRAIN_DOCUMENT (self), NULL, TERRAIN_FORMAT_ATLAS);
  return self;
}

/* ------------------------------------------------------------------------
 * TOCs
 */

/**
 * terrain_atlas_file_get_n_tocs:
 * @self: a #TerrainAtlasFile
 *
 * Gets NUM_TOCs, the number of TOCs in the file.
 *
 * Returns: NUM_TOCs
 */
guint
terrain_atlas_file_get_n_tocs (TerrainAtlasFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), 0);

  return atlas_file_n_tocs (self);
}

/**
 * terrain_atlas_file_get_toc:
 * @self: a #TerrainAtlasFile
 * @index: a TOC slot, in serialised order from 0
 *
 * Gets the TOC in slot @index.
 *
 * Returns: (transfer none): the TOC
 */
TerrainAtlasToc *
terrain_atlas_file_get_toc (TerrainAtlasFile *self,
                            guint             index)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);
  g_return_val_if_fail (index < atlas_file_n_tocs (self), NULL);

  return atlas_file_get_toc (self, index);
}

/**
 * terrain_atlas_file_get_tocs:
 * @self: a #TerrainAtlasFile
 *
 * Gets the TOCs as a list model.
 *
 * Returns: (transfer none): the TOCs, a #GListModel of #TerrainAtlasToc
 */
GListModel *
terrain_atlas_file_get_tocs (TerrainAtlasFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);

  return G_LIST_MODEL (self->tocs);
}

/**
 * terrain_atlas_file_find_toc:
 * @self: a #TerrainAtlasFile
 * @kind: a kind of TOC
 * @nth: which of the TOCs of @kind, from 0
 *
 * Finds the slot of the @nth TOC of @kind.
 *
 * Returns: the slot of the @nth TOC of @kind, or -1
 */
gint
terrain_atlas_file_find_toc (TerrainAtlasFile    *self,
                             TerrainAtlasTocKind  kind,
                             guint                nth)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), -1);

  for (guint i = 0; i < atlas_file_n_tocs (self); i++)
    if (terrain_atlas_toc_get_kind (atlas_file_get_toc (self, i)) == kind && nth-- == 0)
      return (gint) i;
  return -1;
}

/**
 * terrain_atlas_file_add_toc:
 * @self: a #TerrainAtlasFile made with [ctor@Terrain.AtlasFile.new]
 * @toc: a TOC made with [ctor@Terrain.AtlasToc.new], in no other file
 * @error: return location for a #GError
 *
 * Appends a TOC. Only files made in memory take new TOCs: in a file read
 * from bytes, a longer TOC region would move every chunk.
 *
 * Returns: %TRUE, or %FALSE with %TERRAIN_ERROR_NOT_SUPPORTED for a file
 *   read from bytes, or %TERRAIN_ERROR_LIMIT_EXCEEDED past 255 TOCs
 */
gboolean
terrain_atlas_file_add_toc (TerrainAtlasFile  *self,
                            TerrainAtlasToc   *toc,
                            GError           **error)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TOC (toc), FALSE);
  g_return_val_if_fail (terrain_atlas_toc_get_owner (toc) == NULL, FALSE);

  if (self->source != NULL)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                           "Atlas: TOCs can only be added to a file made in memory");
      return FALSE;
    }
  if (atlas_file_n_tocs (self) >= G_MAXUINT8)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Atlas: a file holds at most %u TOCs (a U8 count)", G_MAXUINT8);
      return FALSE;
    }

  terrain_atlas_toc_set_owner (toc, self, atlas_file_n_tocs (self));
  g_list_store_append (self->tocs, toc);
  terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);
  return TRUE;
}

gsize
atlas_file_compute_toc_region_size (TerrainAtlasFile *self)
{
  gsize size = FILE_HEADER_SIZE;

  for (guint i = 0; i < atlas_file_n_tocs (self); i++)
    size += terrain_atlas_toc_get_serialized_size (atlas_file_get_toc (self, i));
  return size;
}

/**
 * terrain_atlas_file_get_toc_region_size:
 * @self: a #TerrainAtlasFile
 *
 * Gets the size of the TOC prefix of the file.
 *
 * Returns: the size of the TOC prefix: the magic, the TOC count and every
 *   TOC (0x1DA2 for the file of §8)
 */
gsize
terrain_atlas_file_get_toc_region_size (TerrainAtlasFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), 0);

  return self->source != NULL ? self->toc_region_size : atlas_file_compute_toc_region_size (self);
}

/**
 * terrain_atlas_file_get_size:
 * @self: a #TerrainAtlasFile
 *
 * Gets the size the file has now.
 *
 * Returns: the size the file has now: the bytes read plus the frames edits
 *   appended; for a file made in memory, the TOC region only (chunks are
 *   laid out when it is written)
 */
gsize
terrain_atlas_file_get_size (TerrainAtlasFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), 0);

  if (self->source == NULL)
    return atlas_file_compute_toc_region_size (self);
  return self->source_size + self->appended_size;
}

static void
terrain_atlas_file_class_init (TerrainAtlasFileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  object_class->dispose = terrain_atlas_file_dispose;
  object_class->finalize = terrain_atlas_file_finalize;

  document_class->save_to_bytes = atlas_file_save_to_bytes;
  document_class->validate = atlas_file_validate;
  document_class->describe = atlas_file_describe;
  document_class->render_image = atlas_file_render_image;
  document_class->export_heights = atlas_file_export_heights;
  document_class->parse = terrain_atlas_file_parse;
  document_class->format = TERRAIN_FORMAT_ATLAS;
  document_class->describe_offset = atlas_file_describe_offset;
}

static void
terrain_atlas_file_init (TerrainAtlasFile *self)
{
  self->tocs = g_list_store_new (TERRAIN_TYPE_ATLAS_TOC);
  self->frames = g_array_new (FALSE, FALSE, sizeof (FrameRef));
  self->appended = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
}
