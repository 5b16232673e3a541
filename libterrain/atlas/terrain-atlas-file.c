/* terrain-atlas-file.c: Torque (TGEA) Atlas containers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-atlas-file.h"
#include "terrain-atlas-file-private.h"
#include "terrain-atlas-private.h"
#include "terrain-quadtree.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"
#include "core/terrain-relief-private.h"

/* ATLS, then the TOC count (§0). */
#define FILE_HEADER_SIZE 5

/* One referenced frame of the source file, for checks and offset names. */
typedef struct
{
  guint32 offset;
  guint32 length;
  guint toc;
  guint stub;
} FrameRef;

struct _TerrainAtlasFile
{
  TerrainDocument parent_instance;

  GBytes *source;            /* NULL for a file made in memory */
  gsize source_size;
  gsize toc_region_size;     /* as read; computed for files made in memory */
  TerrainLimits limits;

  GListStore *tocs;
  GArray *frames;            /* FrameRef of the source, sorted by offset */

  /* Frames appended by edits, in order, after the source bytes. */
  GPtrArray *appended;
  gsize appended_size;
};

G_DEFINE_FINAL_TYPE (TerrainAtlasFile, terrain_atlas_file, TERRAIN_TYPE_DOCUMENT)

void terrain_atlas_file_toc_changed (gpointer file);

void
terrain_atlas_file_toc_changed (gpointer file)
{
  terrain_document_set_modified (TERRAIN_DOCUMENT (file), TRUE);
}

static TerrainAtlasToc *
get_toc (TerrainAtlasFile *self,
         guint             index)
{
  /* GListStore hands out a reference; the store keeps its own. */
  TerrainAtlasToc *toc = g_list_model_get_item (G_LIST_MODEL (self->tocs), index);

  if (toc != NULL)
    g_object_unref (toc);
  return toc;
}

static guint
n_tocs (TerrainAtlasFile *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->tocs));
}

/* "TOC 1 (Tex) stub 5 (level 1, x 0, y 0)", for messages. */
static char *
describe_stub (TerrainAtlasFile *self,
               guint             toc_index,
               guint             stub_index)
{
  TerrainAtlasToc *toc = get_toc (self, toc_index);
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

static gboolean
stub_has_chunk (const TerrainAtlasStubData *data)
{
  return data->length != 0 || data->frame != NULL;
}

static void
terrain_atlas_file_dispose (GObject *object)
{
  TerrainAtlasFile *self = (TerrainAtlasFile *) object;

  if (self->tocs != NULL)
    for (guint i = 0; i < n_tocs (self); i++)
      terrain_atlas_toc_set_owner (get_toc (self, i), NULL, 0);
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

      if (!stub_has_chunk (data))
        continue;
      if (!frame_looks_valid (whole, data->offset, data->length, TERRAIN_ATLAS_TOC_CONFIG))
        return FALSE;
      if (index + 1 == count && data->offset < region_end)
        return FALSE;
    }

  if (index + 1 < count)
    return tag_follows (after);

  for (guint t = 0; t < n_tocs (self); t++)
    {
      TerrainAtlasToc *other = get_toc (self, t);

      for (guint s = 0; s < terrain_atlas_toc_get_n_stubs (other); s++)
        {
          TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (other, s);

          if (stub_has_chunk (data) && data->offset < region_end)
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

  for (guint t = 0; t <= n_tocs (self); t++)
    {
      TerrainAtlasToc *other = t < n_tocs (self) ? get_toc (self, t) : toc;

      for (guint s = 0; s < terrain_atlas_toc_get_n_stubs (other); s++)
        {
          TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (other, s);

          if (stub_has_chunk (data))
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
static gboolean
check_frame (TerrainAtlasFile  *self,
             TerrainReader     *reader,
             const FrameRef    *ref,
             GError           **error)
{
  TerrainAtlasToc *toc = get_toc (self, ref->toc);
  TerrainAtlasTocKind kind = terrain_atlas_toc_get_kind (toc);
  g_autofree char *where = describe_stub (self, ref->toc, ref->stub);
  TerrainReader frame;
  guint32 magic, body, head, tail;
  guint64 end = (guint64) ref->offset + ref->length;

  if (ref->offset < self->toc_region_size)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP,
                   "Atlas %s: chunk at byte offset %u lies inside the TOC region, which ends "
                   "at byte offset %" G_GSIZE_FORMAT,
                   where, ref->offset, self->toc_region_size);
      return FALSE;
    }
  if (end > self->source_size)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "Atlas %s: chunk at byte offset %u needs %u bytes, but the file ends at "
                   "byte offset %" G_GSIZE_FORMAT " (the file is truncated or the stub is wrong)",
                   where, ref->offset, ref->length, self->source_size);
      return FALSE;
    }
  if (ref->length < ATLAS_FRAME_OVERHEAD)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas %s: chunk length %u at byte offset %u is shorter than the 16 bytes "
                   "of a chunk frame", where, ref->length, ref->offset);
      return FALSE;
    }

  terrain_reader_sub (reader, ref->offset, ref->length, "Atlas chunk frame", &frame, NULL);
  terrain_reader_read_u32 (&frame, &magic, NULL);
  terrain_reader_read_u32 (&frame, &body, NULL);
  terrain_reader_read_u32 (&frame, &head, NULL);

  if (magic != ATLAS_FRAME_MAGIC)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                   "Atlas %s: chunk frame at byte offset %u starts with 0x%08X, not ATSP",
                   where, ref->offset, magic);
      return FALSE;
    }
  if ((guint64) body + ATLAS_FRAME_OVERHEAD != ref->length)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas %s: bodySize %u at byte offset %u does not match the stub length %u "
                   "(bodySize + 16)", where, body, ref->offset + 4, ref->length);
      return FALSE;
    }
  if (head != terrain_atlas_kind_head (kind))
    {
      guint32 expected = terrain_atlas_kind_head (kind);

      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                   "Atlas %s: head marker 0x%08X at byte offset %u is not %.4s",
                   where, head, ref->offset + 8, (const char *) &expected);
      return FALSE;
    }

  terrain_reader_seek (&frame, ref->length - 4, NULL);
  terrain_reader_read_u32 (&frame, &tail, NULL);
  if (tail != terrain_atlas_kind_tail (kind))
    {
      guint32 expected = terrain_atlas_kind_tail (kind);

      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                   "Atlas %s: tail marker 0x%08X at byte offset %" G_GUINT64_FORMAT " is not %.4s",
                   where, tail, end - 4, (const char *) &expected);
      return FALSE;
    }

  return TRUE;
}

static gboolean
terrain_atlas_file_parse (TerrainAtlasFile  *self,
                          GError           **error)
{
  TerrainReader reader;
  guint32 magic;
  guint8 count;

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
      TerrainAtlasToc *toc = get_toc (self, t);

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

  terrain_reader_init (&reader, self->source, "Atlas");
  for (guint i = 0; i < self->frames->len; i++)
    {
      const FrameRef *ref = &g_array_index (self->frames, FrameRef, i);

      if (!check_frame (self, &reader, ref, error))
        return FALSE;

      /* Stubs may share a frame; distinct frames may not share bytes. */
      if (i > 0)
        {
          const FrameRef *prev = &g_array_index (self->frames, FrameRef, i - 1);
          gboolean same = prev->offset == ref->offset && prev->length == ref->length;

          if (!same && (guint64) prev->offset + prev->length > ref->offset)
            {
              g_autofree char *a = describe_stub (self, prev->toc, prev->stub);
              g_autofree char *b = describe_stub (self, ref->toc, ref->stub);

              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP,
                           "Atlas: the chunks of %s (bytes %u to %" G_GUINT64_FORMAT ") and %s "
                           "(bytes %u to %" G_GUINT64_FORMAT ") overlap",
                           a, prev->offset, (guint64) prev->offset + prev->length - 1,
                           b, ref->offset, (guint64) ref->offset + ref->length - 1);
              return FALSE;
            }
          if (same && prev->toc != ref->toc &&
              terrain_atlas_toc_get_kind (get_toc (self, prev->toc)) !=
              terrain_atlas_toc_get_kind (get_toc (self, ref->toc)))
            {
              g_autofree char *a = describe_stub (self, prev->toc, prev->stub);
              g_autofree char *b = describe_stub (self, ref->toc, ref->stub);

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
  g_autoptr(TerrainAtlasFile) self = NULL;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (TERRAIN_TYPE_ATLAS_FILE, NULL);
  self->limits = *(limits != NULL ? limits : terrain_limits_get_default ());
  self->source = g_bytes_ref (bytes);

  if (!terrain_atlas_file_parse (self, error))
    return NULL;

  terrain_document_set_source (TERRAIN_DOCUMENT (self), bytes, TERRAIN_FORMAT_ATLAS);
  return g_steal_pointer (&self);
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

  return n_tocs (self);
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
  g_return_val_if_fail (index < n_tocs (self), NULL);

  return get_toc (self, index);
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

  for (guint i = 0; i < n_tocs (self); i++)
    if (terrain_atlas_toc_get_kind (get_toc (self, i)) == kind && nth-- == 0)
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
  if (n_tocs (self) >= G_MAXUINT8)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Atlas: a file holds at most %u TOCs (a U8 count)", G_MAXUINT8);
      return FALSE;
    }

  terrain_atlas_toc_set_owner (toc, self, n_tocs (self));
  g_list_store_append (self->tocs, toc);
  terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);
  return TRUE;
}

static gsize
compute_toc_region_size (TerrainAtlasFile *self)
{
  gsize size = FILE_HEADER_SIZE;

  for (guint i = 0; i < n_tocs (self); i++)
    size += terrain_atlas_toc_get_serialized_size (get_toc (self, i));
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

  return self->source != NULL ? self->toc_region_size : compute_toc_region_size (self);
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
    return compute_toc_region_size (self);
  return self->source_size + self->appended_size;
}

/* ------------------------------------------------------------------------
 * Chunks
 */

static gboolean
check_stub (TerrainAtlasFile  *self,
            guint              toc,
            guint              stub,
            GError           **error)
{
  if (toc >= n_tocs (self))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "Atlas: no TOC %u (the file has %u)", toc, n_tocs (self));
      return FALSE;
    }
  if (stub >= terrain_atlas_toc_get_n_stubs (get_toc (self, toc)))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "Atlas: TOC %u has no stub %u (it has %u)", toc, stub,
                   terrain_atlas_toc_get_n_stubs (get_toc (self, toc)));
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_kind (TerrainAtlasFile     *self,
            guint                 toc,
            TerrainAtlasTocKind   kind,
            GError              **error)
{
  TerrainAtlasToc *t = get_toc (self, toc);

  if (terrain_atlas_toc_get_kind (t) == kind)
    return TRUE;
  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
               "Atlas: TOC %u is a %s TOC, not %s", toc, terrain_atlas_toc_get_tag (t),
               terrain_atlas_toc_kind_to_tag (kind));
  return FALSE;
}

/**
 * terrain_atlas_file_get_chunk_frame:
 * @self: a #TerrainAtlasFile
 * @toc: a TOC slot
 * @stub: a stub index in that TOC
 * @error: return location for a #GError
 *
 * Returns the stub's complete chunk frame (§2): `ATSP`, bodySize, head
 * marker, body, tail marker. For a file read from bytes this is a view of
 * those bytes, not a copy.
 *
 * Returns: (transfer full) (nullable): the frame, or %NULL with
 *   %TERRAIN_ERROR_OUT_OF_RANGE for a bad index or
 *   %TERRAIN_ERROR_INVALID_VALUE for an empty stub
 */
GBytes *
terrain_atlas_file_get_chunk_frame (TerrainAtlasFile  *self,
                                    guint              toc,
                                    guint              stub,
                                    GError           **error)
{
  TerrainAtlasStubData *data;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);

  if (!check_stub (self, toc, stub, error))
    return NULL;

  data = terrain_atlas_toc_get_stub_data (get_toc (self, toc), stub);
  if (data->frame != NULL)
    return g_bytes_ref (data->frame);
  if (!stub_has_chunk (data) || self->source == NULL)
    {
      g_autofree char *where = describe_stub (self, toc, stub);

      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas %s: the stub is empty (no chunk)", where);
      return NULL;
    }

  /* The reader checked the span against the source when it was loaded. */
  return g_bytes_new_from_bytes (self->source, data->offset, data->length);
}

/**
 * terrain_atlas_file_get_chunk_body:
 * @self: a #TerrainAtlasFile
 * @toc: a TOC slot
 * @stub: a stub index in that TOC
 * @error: return location for a #GError
 *
 * Reads the body of the chunk a stub refers to.
 *
 * Returns: (transfer full) (nullable): the bodySize bytes between the
 *   frame's head and tail markers, or %NULL as for
 *   [method@Terrain.AtlasFile.get_chunk_frame]
 */
GBytes *
terrain_atlas_file_get_chunk_body (TerrainAtlasFile  *self,
                                   guint              toc,
                                   guint              stub,
                                   GError           **error)
{
  g_autoptr(GBytes) frame = terrain_atlas_file_get_chunk_frame (self, toc, stub, error);

  if (frame == NULL)
    return NULL;
  return g_bytes_new_from_bytes (frame, ATLAS_FRAME_HEAD_SIZE,
                                 g_bytes_get_size (frame) - ATLAS_FRAME_OVERHEAD);
}

static goffset
body_offset (TerrainAtlasFile *self,
             guint             toc,
             guint             stub)
{
  return (goffset) terrain_atlas_toc_get_stub_data (get_toc (self, toc), stub)->offset +
         ATLAS_FRAME_HEAD_SIZE;
}

/**
 * terrain_atlas_file_get_geometry:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a geometry TOC
 * @stub: a stub index in that TOC
 * @error: return location for a #GError
 *
 * Decodes a stub's geometry chunk at its TOC's version, see
 * [ctor@Terrain.AtlasGeometry.new_from_body]. Each call decodes anew and
 * returns an independent object.
 *
 * Returns: (transfer full) (nullable): the chunk, or %NULL with the
 *   decoder's error, prefixed with the TOC and stub
 */
TerrainAtlasGeometry *
terrain_atlas_file_get_geometry (TerrainAtlasFile  *self,
                                 guint              toc,
                                 guint              stub,
                                 GError           **error)
{
  g_autoptr(GBytes) body = NULL;
  TerrainAtlasGeometry *geometry;
  guint32 version;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);

  if (!check_stub (self, toc, stub, error) ||
      !check_kind (self, toc, TERRAIN_ATLAS_TOC_GEOMETRY, error))
    return NULL;
  body = terrain_atlas_file_get_chunk_body (self, toc, stub, error);
  if (body == NULL)
    return NULL;

  version = terrain_atlas_toc_get_version (get_toc (self, toc));
  geometry = terrain_atlas_geometry_new_from_body (body, version, body_offset (self, toc, stub),
                                                   &self->limits, error);
  if (geometry == NULL)
    {
      g_autofree char *where = describe_stub (self, toc, stub);

      g_prefix_error (error, "%s: ", where);
    }
  return geometry;
}

/**
 * terrain_atlas_file_get_texture:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a texture TOC
 * @stub: a stub index in that TOC
 * @error: return location for a #GError
 *
 * Returns a stub's texture chunk: its format byte and encoded image, not
 * decoded (see [method@Terrain.AtlasTexture.decode]).
 *
 * Returns: (transfer full) (nullable): the chunk, or %NULL with a
 *   %TERRAIN_ERROR
 */
TerrainAtlasTexture *
terrain_atlas_file_get_texture (TerrainAtlasFile  *self,
                                guint              toc,
                                guint              stub,
                                GError           **error)
{
  g_autoptr(GBytes) body = NULL;
  TerrainAtlasTexture *texture;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);

  if (!check_stub (self, toc, stub, error) ||
      !check_kind (self, toc, TERRAIN_ATLAS_TOC_TEXTURE, error))
    return NULL;
  body = terrain_atlas_file_get_chunk_body (self, toc, stub, error);
  if (body == NULL)
    return NULL;

  texture = terrain_atlas_texture_new_from_body (body, body_offset (self, toc, stub), error);
  if (texture == NULL)
    {
      g_autofree char *where = describe_stub (self, toc, stub);

      g_prefix_error (error, "%s: ", where);
    }
  return texture;
}

/**
 * terrain_atlas_file_get_config:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a Config TOC
 * @stub: a stub index in that TOC
 * @error: return location for a #GError
 *
 * Decodes a stub's config chunk, see
 * [ctor@Terrain.AtlasConfig.new_from_body].
 *
 * Returns: (transfer full) (nullable): the chunk, or %NULL with a
 *   %TERRAIN_ERROR
 */
TerrainAtlasConfig *
terrain_atlas_file_get_config (TerrainAtlasFile  *self,
                               guint              toc,
                               guint              stub,
                               GError           **error)
{
  g_autoptr(GBytes) body = NULL;
  TerrainAtlasConfig *config;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);

  if (!check_stub (self, toc, stub, error) ||
      !check_kind (self, toc, TERRAIN_ATLAS_TOC_CONFIG, error))
    return NULL;
  body = terrain_atlas_file_get_chunk_body (self, toc, stub, error);
  if (body == NULL)
    return NULL;

  config = terrain_atlas_config_new_from_body (body, body_offset (self, toc, stub),
                                               &self->limits, error);
  if (config == NULL)
    {
      g_autofree char *where = describe_stub (self, toc, stub);

      g_prefix_error (error, "%s: ", where);
    }
  return config;
}

/* ------------------------------------------------------------------------
 * Placing chunks
 */

/* Frames a body and makes it the stub's chunk. In a file read from bytes
 * the frame goes at the current end of the file, as TGEA appends it, and
 * the stub points there; in a file made in memory it waits for the writer.
 * With @bump, the generation counts one more write. */
static gboolean
place_body (TerrainAtlasFile  *self,
            guint              toc_index,
            guint              stub_index,
            GBytes            *body,
            gboolean           bump,
            GError           **error)
{
  TerrainAtlasToc *toc = get_toc (self, toc_index);
  TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (toc, stub_index);
  g_autoptr(GBytes) frame = NULL;
  gsize length;

  frame = terrain_atlas_frame_new (terrain_atlas_toc_get_kind (toc), body, error);
  if (frame == NULL)
    return FALSE;
  length = g_bytes_get_size (frame);

  if (self->source != NULL)
    {
      guint64 offset = (guint64) self->source_size + self->appended_size;

      if (offset + length > G_MAXUINT32)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                       "Atlas: appending a %" G_GSIZE_FORMAT "-byte chunk at byte offset %"
                       G_GUINT64_FORMAT " would pass the 4 GiB that 32-bit offsets address",
                       length, offset);
          return FALSE;
        }
      g_ptr_array_add (self->appended, g_bytes_ref (frame));
      self->appended_size += length;
      data->offset = (guint32) offset;
    }
  else
    data->offset = 0;

  data->length = (guint32) length;
  g_clear_pointer (&data->frame, g_bytes_unref);
  data->frame = g_steal_pointer (&frame);
  if (bump)
    data->generation++;

  terrain_atlas_toc_stub_changed (toc, stub_index);
  return TRUE;
}

/**
 * terrain_atlas_file_set_chunk_body:
 * @self: a #TerrainAtlasFile
 * @toc: a TOC slot
 * @stub: a stub index in that TOC
 * @body: the resource body, framed with the TOC kind's markers
 * @error: return location for a #GError
 *
 * Places a raw chunk body without recording history: the stub's generation
 * is left as it is. See [method@Terrain.AtlasFile.set_geometry].
 *
 * Returns: %TRUE, or %FALSE with a %TERRAIN_ERROR
 */
gboolean
terrain_atlas_file_set_chunk_body (TerrainAtlasFile  *self,
                                   guint              toc,
                                   guint              stub,
                                   GBytes            *body,
                                   GError           **error)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);
  g_return_val_if_fail (body != NULL, FALSE);

  return check_stub (self, toc, stub, error) &&
         place_body (self, toc, stub, body, FALSE, error);
}

static void
set_stub_bounds (TerrainAtlasFile      *self,
                 guint                  toc_index,
                 guint                  stub_index,
                 const TerrainAtlasBox *bounds)
{
  TerrainAtlasToc *toc = get_toc (self, toc_index);
  TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (toc, stub_index);

  if (terrain_atlas_toc_get_version (toc) < 101 || terrain_atlas_box_equal (&data->bounds, bounds))
    return;
  data->bounds = *bounds;
  terrain_atlas_toc_stub_changed (toc, stub_index);
}

/**
 * terrain_atlas_file_set_geometry:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a geometry TOC
 * @stub: a stub index in that TOC
 * @geometry: the chunk
 * @error: return location for a #GError
 *
 * Places a geometry chunk without recording history, the way an importer
 * or converter builds a file (§9b): the chunk is encoded at the TOC's
 * version with its own previousChunk and bounds, the stub's bounds become
 * the chunk's, and the stub's generation is left as it is (0 in a new
 * TOC). What the TOC's version cannot hold (normals, collision) is
 * dropped; see [method@Terrain.AtlasGeometry.encode_body]. Bounds are not
 * recomputed: set them, or call [method@Terrain.AtlasFile.update_bounds]
 * once every chunk is placed.
 *
 * In a file made in memory the chunk is laid out when the file is written;
 * in a file read from bytes it is appended at the end.
 *
 * Returns: %TRUE, or %FALSE with a %TERRAIN_ERROR
 */
gboolean
terrain_atlas_file_set_geometry (TerrainAtlasFile      *self,
                                 guint                  toc,
                                 guint                  stub,
                                 TerrainAtlasGeometry  *geometry,
                                 GError               **error)
{
  g_autoptr(GBytes) body = NULL;
  TerrainAtlasBox bounds;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (geometry), FALSE);

  if (!check_stub (self, toc, stub, error) ||
      !check_kind (self, toc, TERRAIN_ATLAS_TOC_GEOMETRY, error))
    return FALSE;

  body = terrain_atlas_geometry_encode_body (geometry,
                                             terrain_atlas_toc_get_version (get_toc (self, toc)),
                                             NULL, error);
  if (body == NULL || !place_body (self, toc, stub, body, FALSE, error))
    return FALSE;

  terrain_atlas_geometry_get_bounds (geometry, &bounds);
  set_stub_bounds (self, toc, stub, &bounds);
  return TRUE;
}

/**
 * terrain_atlas_file_set_texture:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a texture TOC
 * @stub: a stub index in that TOC
 * @texture: the chunk
 * @error: return location for a #GError
 *
 * Places a texture chunk without recording history (generation left as
 * it is), as [method@Terrain.AtlasFile.set_geometry] does. When a file made
 * in memory is written, identical frames are stored once and their stubs
 * share the offset, as TQT nodes with repeated tile offsets do (§9e).
 *
 * Returns: %TRUE, or %FALSE with a %TERRAIN_ERROR
 */
gboolean
terrain_atlas_file_set_texture (TerrainAtlasFile     *self,
                                guint                 toc,
                                guint                 stub,
                                TerrainAtlasTexture  *texture,
                                GError              **error)
{
  g_autoptr(GBytes) body = NULL;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TEXTURE (texture), FALSE);

  if (!check_stub (self, toc, stub, error) ||
      !check_kind (self, toc, TERRAIN_ATLAS_TOC_TEXTURE, error))
    return FALSE;
  body = terrain_atlas_texture_encode_body (texture, error);
  return body != NULL && place_body (self, toc, stub, body, FALSE, error);
}

/**
 * terrain_atlas_file_set_config:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a Config TOC
 * @stub: a stub index in that TOC
 * @config: the chunk
 * @error: return location for a #GError
 *
 * Places a config chunk without recording history, as
 * [method@Terrain.AtlasFile.set_geometry] does. The stub's name is set with
 * [method@Terrain.AtlasToc.set_stub_name].
 *
 * Returns: %TRUE, or %FALSE with a %TERRAIN_ERROR
 */
gboolean
terrain_atlas_file_set_config (TerrainAtlasFile    *self,
                               guint                toc,
                               guint                stub,
                               TerrainAtlasConfig  *config,
                               GError             **error)
{
  g_autoptr(GBytes) body = NULL;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_ATLAS_CONFIG (config), FALSE);

  if (!check_stub (self, toc, stub, error) ||
      !check_kind (self, toc, TERRAIN_ATLAS_TOC_CONFIG, error))
    return FALSE;
  body = terrain_atlas_config_encode_body (config, error);
  return body != NULL && place_body (self, toc, stub, body, FALSE, error);
}

/* The bounds a node should have (TGEA's generate(), §9b): its own
 * vertices and the stored bounds of its children that have chunks. */
static void
node_bounds (TerrainAtlasFile     *self,
             guint                 toc_index,
             guint                 stub_index,
             TerrainAtlasGeometry *geometry,
             TerrainAtlasBox      *bounds)
{
  TerrainAtlasToc *toc = get_toc (self, toc_index);
  gboolean any = terrain_atlas_geometry_compute_bounds (geometry, bounds);
  guint level;

  if (!terrain_atlas_toc_get_stub_node (toc, stub_index, &level, NULL, NULL) ||
      level + 1 >= terrain_atlas_toc_get_tree_depth (toc))
    return;

  for (guint k = 0; k < 4; k++)
    {
      guint64 child = terrain_quadtree_child (stub_index, k);
      TerrainAtlasStubData *data;

      if (child >= terrain_atlas_toc_get_n_stubs (toc))
        continue;
      data = terrain_atlas_toc_get_stub_data (toc, (guint) child);
      if (!stub_has_chunk (data))
        continue;
      if (any)
        terrain_atlas_box_union (bounds, &data->bounds);
      else
        *bounds = data->bounds;
      any = TRUE;
    }
}

/**
 * terrain_atlas_file_update_bounds:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a geometry TOC of version 101 or later
 * @error: return location for a #GError
 *
 * Recomputes the bounds of a whole geometry tree from the leaves to the
 * root (§9b): each chunk's bounds hold its own vertices and the bounds of
 * its children; chunk and stub get the same box. Chunks whose bounds change
 * are placed again without recording history, as
 * [method@Terrain.AtlasFile.set_geometry] does; an importer calls this once
 * after placing every chunk. TOCs before version 101 store no bounds and
 * are left alone.
 *
 * Returns: %TRUE, or %FALSE with a %TERRAIN_ERROR (a chunk that does not
 *   decode)
 */
gboolean
terrain_atlas_file_update_bounds (TerrainAtlasFile  *self,
                                  guint              toc,
                                  GError           **error)
{
  TerrainAtlasToc *t;
  guint n;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);

  if (toc >= n_tocs (self))
    return check_stub (self, toc, 0, error);
  if (!check_kind (self, toc, TERRAIN_ATLAS_TOC_GEOMETRY, error))
    return FALSE;

  t = get_toc (self, toc);
  if (terrain_atlas_toc_get_version (t) < 101)
    return TRUE;

  n = terrain_atlas_toc_get_n_stubs (t);
  for (guint i = n; i-- > 0;)
    {
      TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (t, i);
      g_autoptr(TerrainAtlasGeometry) geometry = NULL;
      TerrainAtlasBox bounds, stored;

      if (!stub_has_chunk (data))
        continue;
      geometry = terrain_atlas_file_get_geometry (self, toc, i, error);
      if (geometry == NULL)
        return FALSE;

      node_bounds (self, toc, i, geometry, &bounds);
      terrain_atlas_geometry_get_bounds (geometry, &stored);
      if (!terrain_atlas_box_equal (&bounds, &stored))
        {
          terrain_atlas_geometry_set_bounds (geometry, &bounds);
          if (!terrain_atlas_file_set_geometry (self, toc, i, geometry, error))
            return FALSE;
        }
      set_stub_bounds (self, toc, i, &bounds);
    }

  return TRUE;
}

/**
 * terrain_atlas_file_replace_geometry:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a geometry TOC
 * @stub: a stub index in that TOC
 * @geometry: the edited chunk, e.g. from
 *   [method@Terrain.AtlasFile.get_geometry] with moved vertices; its
 *   previousChunk, bounds and collision are updated in place
 * @error: return location for a #GError
 *
 * Writes an edited geometry chunk the way TGEA does (field-notes.md,
 * "Atlas (TGEA) writer conventions"): previousChunk becomes the stub's old
 * offset; the chunk's bounds are recomputed (its vertices and its
 * children's bounds) and, if it has collision, so is its collision block
 * (same depth, see [method@Terrain.AtlasGeometry.generate_collision]); the
 * frame is appended at the end of the file; the stub gets the new offset,
 * length and bounds and one more generation. Every ancestor whose bounds no
 * longer match is rewritten the same way, up to the root. The old frames
 * stay in the file as history and every other byte is kept.
 *
 * Returns: %TRUE, or %FALSE with a %TERRAIN_ERROR
 */
gboolean
terrain_atlas_file_replace_geometry (TerrainAtlasFile      *self,
                                     guint                  toc,
                                     guint                  stub,
                                     TerrainAtlasGeometry  *geometry,
                                     GError               **error)
{
  TerrainAtlasToc *t;
  TerrainAtlasStubData *data;
  g_autoptr(GBytes) body = NULL;
  TerrainAtlasBox bounds;
  guint32 version;
  guint64 node;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (geometry), FALSE);

  if (!check_stub (self, toc, stub, error) ||
      !check_kind (self, toc, TERRAIN_ATLAS_TOC_GEOMETRY, error))
    return FALSE;

  t = get_toc (self, toc);
  version = terrain_atlas_toc_get_version (t);
  data = terrain_atlas_toc_get_stub_data (t, stub);

  terrain_atlas_geometry_set_previous_chunk (geometry, data->offset);
  node_bounds (self, toc, stub, geometry, &bounds);
  terrain_atlas_geometry_set_bounds (geometry, &bounds);
  if (version >= 120 && terrain_atlas_geometry_has_collision (geometry))
    {
      guint32 depth = terrain_atlas_geometry_get_collision_depth (geometry);

      if (depth >= 1 && depth <= 8 &&
          !terrain_atlas_geometry_generate_collision (geometry, depth, error))
        return FALSE;
    }

  body = terrain_atlas_geometry_encode_body (geometry, version, NULL, error);
  if (body == NULL || !place_body (self, toc, stub, body, TRUE, error))
    return FALSE;
  set_stub_bounds (self, toc, stub, &bounds);

  if (version < 101)
    return TRUE;

  /* Up the tree while bounds change. */
  node = stub;
  while (terrain_quadtree_parent (node, &node) && node < terrain_atlas_toc_get_n_stubs (t))
    {
      g_autoptr(TerrainAtlasGeometry) parent = NULL;
      g_autoptr(GBytes) parent_body = NULL;
      TerrainAtlasBox stored;

      data = terrain_atlas_toc_get_stub_data (t, (guint) node);
      if (!stub_has_chunk (data))
        break;
      parent = terrain_atlas_file_get_geometry (self, toc, (guint) node, error);
      if (parent == NULL)
        return FALSE;

      node_bounds (self, toc, (guint) node, parent, &bounds);
      terrain_atlas_geometry_get_bounds (parent, &stored);
      if (terrain_atlas_box_equal (&bounds, &stored) &&
          terrain_atlas_box_equal (&bounds, &data->bounds))
        break;

      terrain_atlas_geometry_set_bounds (parent, &bounds);
      terrain_atlas_geometry_set_previous_chunk (parent, data->offset);
      parent_body = terrain_atlas_geometry_encode_body (parent, version, NULL, error);
      if (parent_body == NULL || !place_body (self, toc, (guint) node, parent_body, TRUE, error))
        return FALSE;
      set_stub_bounds (self, toc, (guint) node, &bounds);
    }

  return TRUE;
}

/**
 * terrain_atlas_file_replace_texture:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a texture TOC
 * @stub: a stub index in that TOC
 * @texture: the new texture, e.g. from
 *   [ctor@Terrain.AtlasTexture.new_from_image]
 * @error: return location for a #GError
 *
 * Writes a new texture chunk the TGEA way: appended at the end of the file,
 * the stub pointing at it with one more generation, the old frame kept as
 * history. Texture bodies have no previousChunk (§2).
 *
 * Returns: %TRUE, or %FALSE with a %TERRAIN_ERROR
 */
gboolean
terrain_atlas_file_replace_texture (TerrainAtlasFile     *self,
                                    guint                 toc,
                                    guint                 stub,
                                    TerrainAtlasTexture  *texture,
                                    GError              **error)
{
  g_autoptr(GBytes) body = NULL;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TEXTURE (texture), FALSE);

  if (!check_stub (self, toc, stub, error) ||
      !check_kind (self, toc, TERRAIN_ATLAS_TOC_TEXTURE, error))
    return FALSE;
  body = terrain_atlas_texture_encode_body (texture, error);
  return body != NULL && place_body (self, toc, stub, body, TRUE, error);
}

/**
 * terrain_atlas_file_replace_config:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a Config TOC
 * @stub: a stub index in that TOC
 * @config: the edited entries, e.g. from
 *   [method@Terrain.AtlasFile.get_config] after
 *   [method@Terrain.AtlasConfig.set]; its previousChunk is set in place
 * @error: return location for a #GError
 *
 * Writes edited config entries the TGEA way: previousChunk becomes the old
 * offset, the frame is appended, the stub gets one more generation.
 *
 * Returns: %TRUE, or %FALSE with a %TERRAIN_ERROR
 */
gboolean
terrain_atlas_file_replace_config (TerrainAtlasFile    *self,
                                   guint                toc,
                                   guint                stub,
                                   TerrainAtlasConfig  *config,
                                   GError             **error)
{
  g_autoptr(GBytes) body = NULL;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_ATLAS_CONFIG (config), FALSE);

  if (!check_stub (self, toc, stub, error) ||
      !check_kind (self, toc, TERRAIN_ATLAS_TOC_CONFIG, error))
    return FALSE;
  terrain_atlas_config_set_previous_chunk (config,
                                           terrain_atlas_toc_get_stub_data (get_toc (self, toc),
                                                                            stub)->offset);
  body = terrain_atlas_config_encode_body (config, error);
  return body != NULL && place_body (self, toc, stub, body, TRUE, error);
}

/* ------------------------------------------------------------------------
 * Undo support (terrain-atlas-edit.c)
 */

struct _AtlasStubSnapshot
{
  guint toc;
  guint stub;
  guint32 offset;
  guint32 length;
  guint32 generation;
  GBytes *frame;
  guint n_appended;
  gsize appended_size;
};

/* Records what place_body() changes for one stub, so that
 * terrain_atlas_file_restore_stub() can put it back exactly: the stub's
 * offset, length, generation and frame, and the frames appended so far. */
AtlasStubSnapshot *
terrain_atlas_file_snapshot_stub (TerrainAtlasFile *self,
                                  guint             toc,
                                  guint             stub)
{
  TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (get_toc (self, toc), stub);
  AtlasStubSnapshot *snapshot = g_new0 (AtlasStubSnapshot, 1);

  snapshot->toc = toc;
  snapshot->stub = stub;
  snapshot->offset = data->offset;
  snapshot->length = data->length;
  snapshot->generation = data->generation;
  snapshot->frame = data->frame != NULL ? g_bytes_ref (data->frame) : NULL;
  snapshot->n_appended = self->appended->len;
  snapshot->appended_size = self->appended_size;
  return snapshot;
}

void
terrain_atlas_file_restore_stub (TerrainAtlasFile  *self,
                                 AtlasStubSnapshot *snapshot)
{
  TerrainAtlasToc *toc = get_toc (self, snapshot->toc);
  TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (toc, snapshot->stub);

  if (self->appended->len > snapshot->n_appended)
    g_ptr_array_set_size (self->appended, snapshot->n_appended);
  self->appended_size = snapshot->appended_size;

  data->offset = snapshot->offset;
  data->length = snapshot->length;
  data->generation = snapshot->generation;
  g_clear_pointer (&data->frame, g_bytes_unref);
  data->frame = snapshot->frame != NULL ? g_bytes_ref (snapshot->frame) : NULL;

  terrain_atlas_toc_stub_changed (toc, snapshot->stub);
}

void
terrain_atlas_stub_snapshot_free (AtlasStubSnapshot *snapshot)
{
  if (snapshot == NULL)
    return;
  g_clear_pointer (&snapshot->frame, g_bytes_unref);
  g_free (snapshot);
}

/* ------------------------------------------------------------------------
 * Writing
 */

static void
serialize_prefix (TerrainAtlasFile  *self,
                  TerrainWriter     *writer,
                  guint32          **spans)
{
  terrain_writer_put_u32 (writer, ATLAS_MAGIC);
  terrain_writer_put_u8 (writer, (guint8) n_tocs (self));
  for (guint i = 0; i < n_tocs (self); i++)
    terrain_atlas_toc_serialize (get_toc (self, i), writer, spans != NULL ? spans[i] : NULL);
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
  guint count = n_tocs (self);
  g_autofree guint32 **spans = g_new0 (guint32 *, MAX (count, 1));
  gsize prefix = compute_toc_region_size (self);
  TerrainWriter writer, header;
  GBytes *result = NULL;

  terrain_writer_init (&writer, prefix);
  terrain_writer_set_section (&writer, "Atlas");
  terrain_writer_put_zeros (&writer, prefix);

  for (guint t = 0; t < count; t++)
    {
      TerrainAtlasToc *toc = get_toc (self, t);
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

          if (!stub_has_chunk (data))
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

static GBytes *
terrain_atlas_file_save_to_bytes (TerrainDocument  *document,
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
add_warning (TerrainAtlasIssues *issues,
             const char         *kind,
             const char         *where,
             gint64              offset,
             guint               stub,
             const char         *message)
{
  terrain_atlas_issues_add (issues, kind, TERRAIN_SEVERITY_WARNING, where, offset, stub,
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
  TerrainAtlasIssues issues;
  g_autoptr(GPtrArray) found = NULL;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);

  out = terrain_atlas_file_new ();
  out->limits = self->limits;
  terrain_atlas_issues_init (&issues);

  for (guint t = 0; t < n_tocs (self); t++)
    {
      TerrainAtlasToc *toc = get_toc (self, t);
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
          if (!stub_has_chunk (from))
            continue;

          /* Stubs sharing a frame keep sharing one. */
          if (from->frame == NULL && (frame = g_hash_table_lookup (done, key)) != NULL)
            {
              to->frame = g_bytes_ref (frame);
              to->length = (guint32) g_bytes_get_size (frame);
              continue;
            }

          where = describe_stub (self, t, s);
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

  found = terrain_atlas_issues_finish (&issues);
  if (warnings != NULL)
    *warnings = g_steal_pointer (&found);
  return terrain_atlas_file_new_from_bytes (bytes, &self->limits, error);

fail:
  g_ptr_array_unref (terrain_atlas_issues_finish (&issues));
  return NULL;
}

/* ------------------------------------------------------------------------
 * Pictures and meshes
 */

/**
 * terrain_atlas_file_render_texture:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a texture TOC
 * @stub: a stub index in that TOC (0 is the root tile)
 * @order: how to read JPEG and PNG channels (§4)
 * @error: return location for a #GError
 *
 * Decodes one texture tile to RGBA, see [method@Terrain.AtlasTexture.decode].
 *
 * Returns: (transfer full) (nullable): the tile, or %NULL with a
 *   %TERRAIN_ERROR
 */
TerrainImage *
terrain_atlas_file_render_texture (TerrainAtlasFile          *self,
                                   guint                      toc,
                                   guint                      stub,
                                   TerrainAtlasChannelOrder   order,
                                   GError                   **error)
{
  g_autoptr(TerrainAtlasTexture) texture = NULL;
  TerrainImage *image;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);

  texture = terrain_atlas_file_get_texture (self, toc, stub, error);
  if (texture == NULL)
    return NULL;
  image = terrain_atlas_texture_decode (texture, order, &self->limits, error);
  if (image == NULL)
    {
      g_autofree char *where = describe_stub (self, toc, stub);

      g_prefix_error (error, "%s: ", where);
    }
  return image;
}

/**
 * terrain_atlas_file_export_obj:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a geometry TOC
 * @level: the tree level whose chunks to export (0 is the root)
 * @skirts: whether to include the skirt triangles (the last
 *   mSkirtSkipCount indices of each chunk)
 * @error: return location for a #GError
 *
 * Exports the chunks of one level as a Wavefront OBJ: per chunk a group
 * `chunk_L_X_Y`, its vertices (`v`, world units), texture coordinates
 * (`vt`, terrain-wide) and normals (`vn`), and its triangles (`f`, 1-based
 * indices shared by position, texture coordinate and normal). Triangles
 * with an index past the vertex array are skipped.
 *
 * Returns: (transfer full) (nullable): the OBJ text, or %NULL with a
 *   %TERRAIN_ERROR (a level the tree does not have, a chunk that does not
 *   decode)
 */
GBytes *
terrain_atlas_file_export_obj (TerrainAtlasFile  *self,
                               guint              toc,
                               guint              level,
                               gboolean           skirts,
                               GError           **error)
{
  g_autoptr(GString) obj = NULL;
  TerrainAtlasToc *t;
  guint64 base = 1;
  guint32 side;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);

  if (toc >= n_tocs (self))
    {
      check_stub (self, toc, 0, error);
      return NULL;
    }
  if (!check_kind (self, toc, TERRAIN_ATLAS_TOC_GEOMETRY, error))
    return NULL;
  t = get_toc (self, toc);
  if (level >= terrain_atlas_toc_get_tree_depth (t))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "Atlas: TOC %u has levels 0 to %u, not %u", toc,
                   terrain_atlas_toc_get_tree_depth (t) - 1, level);
      return NULL;
    }

  obj = g_string_new (NULL);
  g_string_append_printf (obj, "# libterrain Atlas export: TOC %u, level %u\n", toc, level);
  side = (guint32) 1 << level;

  for (guint32 x = 0; x < side; x++)
    for (guint32 y = 0; y < side; y++)
      {
        gint64 index = terrain_atlas_toc_find_stub (t, level, x, y);
        g_autoptr(TerrainAtlasGeometry) geometry = NULL;
        const TerrainAtlasVertex *vertices;
        const guint16 *indices;
        guint n_vertices, n_indices, end;
        char buf[3][G_ASCII_DTOSTR_BUF_SIZE];

        if (index < 0 || !stub_has_chunk (terrain_atlas_toc_get_stub_data (t, (guint) index)))
          continue;
        geometry = terrain_atlas_file_get_geometry (self, toc, (guint) index, error);
        if (geometry == NULL)
          return NULL;

        vertices = terrain_atlas_geometry_get_vertices (geometry, &n_vertices);
        indices = terrain_atlas_geometry_get_indices (geometry, &n_indices);
        end = n_indices;
        if (!skirts)
          end = n_indices - MIN (n_indices, terrain_atlas_geometry_get_skirt_skip_count (geometry));

        g_string_append_printf (obj, "g chunk_%u_%u_%u\n", level, x, y);
        for (guint i = 0; i < n_vertices; i++)
          {
            const TerrainAtlasVertex *v = &vertices[i];

            g_string_append_printf (obj, "v %s %s %s\n",
                                    g_ascii_formatd (buf[0], sizeof buf[0], "%.9g", v->point[0]),
                                    g_ascii_formatd (buf[1], sizeof buf[1], "%.9g", v->point[1]),
                                    g_ascii_formatd (buf[2], sizeof buf[2], "%.9g", v->point[2]));
            g_string_append_printf (obj, "vt %s %s\n",
                                    g_ascii_formatd (buf[0], sizeof buf[0], "%.9g",
                                                     v->tex_coord[0]),
                                    g_ascii_formatd (buf[1], sizeof buf[1], "%.9g",
                                                     v->tex_coord[1]));
            g_string_append_printf (obj, "vn %s %s %s\n",
                                    g_ascii_formatd (buf[0], sizeof buf[0], "%.9g", v->normal[0]),
                                    g_ascii_formatd (buf[1], sizeof buf[1], "%.9g", v->normal[1]),
                                    g_ascii_formatd (buf[2], sizeof buf[2], "%.9g", v->normal[2]));
          }
        for (guint i = 0; i + 2 < end; i += 3)
          {
            guint64 a = indices[i], b = indices[i + 1], c = indices[i + 2];

            if (a >= n_vertices || b >= n_vertices || c >= n_vertices)
              continue;
            a += base;
            b += base;
            c += base;
            g_string_append_printf (obj, "f %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "/%"
                                    G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
                                    "/%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "/%"
                                    G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "\n",
                                    a, a, a, b, b, b, c, c, c);
          }
        base += n_vertices;
      }

  return g_string_free_to_bytes (g_steal_pointer (&obj));
}

/* A texture tile as a map, north up and east right. Tile pixel (u, v)
 * (column, row) shows the terrain at east fraction 1 - v and north
 * fraction u (atlas-chu-tqt.md §4: texCoord = (Y / size, 1 - X / size)),
 * so map pixel (column c, row r) of an N x N tile is tile pixel
 * (N - 1 - r, N - 1 - c): the tile transposed about its other diagonal. */
static TerrainImage *
north_up_from_tile (TerrainImage  *tile,
                    GError       **error)
{
  guint w = terrain_image_get_width (tile);
  guint h = terrain_image_get_height (tile);
  gsize bpp = terrain_image_get_format (tile) == TERRAIN_IMAGE_RGBA8 ? 4 : 0;
  gsize in_stride = terrain_image_get_stride (tile);
  const guint8 *in = terrain_image_get_data (tile, NULL);
  g_autoptr(TerrainImage) map = NULL;
  guint8 *out;
  gsize out_stride;

  if (bpp == 0)
    return g_object_ref (tile);
  map = terrain_image_new (TERRAIN_IMAGE_RGBA8, h, w, error);
  if (map == NULL)
    return NULL;
  out = terrain_image_get_data (map, NULL);
  out_stride = terrain_image_get_stride (map);
  for (guint r = 0; r < w; r++)
    for (guint c = 0; c < h; c++)
      memcpy (out + (gsize) r * out_stride + (gsize) c * bpp,
              in + (gsize) (h - 1 - c) * in_stride + (gsize) (w - 1 - r) * bpp, bpp);
  return g_steal_pointer (&map);
}

/* ------------------------------------------------------------------------
 * TerrainDocument
 */

/* Pixels per leaf chunk side in the pictures drawn from heights. */
#define HEIGHTS_PER_LEAF 64

/* The first geometry tree's leaves seen from above (non-skirt triangles),
 * over their XY extent, north up: 64 pixels per leaf side up to
 * TERRAIN_RELIEF_MAX_SIDE; @pixel_size is a pixel's width in world units. */
static gboolean
fill_leaf_relief (TerrainAtlasFile  *self,
                  TerrainRelief     *relief,
                  gdouble           *pixel_size,
                  GError           **error)
{
  g_autoptr(GPtrArray) leaves = g_ptr_array_new_with_free_func (g_object_unref);
  TerrainAtlasBox extent = { { 0 } };
  TerrainAtlasToc *toc;
  gint t = terrain_atlas_file_find_toc (self, TERRAIN_ATLAS_TOC_GEOMETRY, 0);
  guint32 depth, side;
  gdouble width, height;
  gboolean any = FALSE;

  if (t < 0 || (depth = terrain_atlas_toc_get_tree_depth (get_toc (self, (guint) t))) == 0)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                           "Atlas: no geometry tree to take heights from");
      return FALSE;
    }
  toc = get_toc (self, (guint) t);

  for (guint64 s = terrain_quadtree_node_count (depth - 1);
       s < MIN (terrain_quadtree_node_count (depth), terrain_atlas_toc_get_n_stubs (toc)); s++)
    {
      TerrainAtlasGeometry *geometry;
      TerrainAtlasBox box;

      if (!stub_has_chunk (terrain_atlas_toc_get_stub_data (toc, (guint) s)))
        continue;
      geometry = terrain_atlas_file_get_geometry (self, (guint) t, (guint) s, error);
      if (geometry == NULL)
        return FALSE;
      g_ptr_array_add (leaves, geometry);
      if (!terrain_atlas_geometry_compute_bounds (geometry, &box))
        continue;
      if (any)
        terrain_atlas_box_union (&extent, &box);
      else
        extent = box;
      any = TRUE;
    }
  width = (gdouble) extent.max[0] - extent.min[0];
  height = (gdouble) extent.max[1] - extent.min[1];
  if (!any || !(width > 0.0) || !(height > 0.0))
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                           "Atlas: the geometry tree's leaves cover no area");
      return FALSE;
    }

  side = MIN ((guint32) TERRAIN_RELIEF_MAX_SIDE,
              (guint32) HEIGHTS_PER_LEAF << MIN (depth - 1, 12));
  if (!terrain_relief_init (relief, side, side, &self->limits, "Atlas heights", error))
    return FALSE;
  *pixel_size = MAX (width, height) / side;

  for (guint i = 0; i < leaves->len; i++)
    {
      TerrainAtlasGeometry *geometry = g_ptr_array_index (leaves, i);
      guint n_vertices, n_indices, end;
      const TerrainAtlasVertex *v = terrain_atlas_geometry_get_vertices (geometry, &n_vertices);
      const guint16 *index = terrain_atlas_geometry_get_indices (geometry, &n_indices);

      end = n_indices - MIN (n_indices, terrain_atlas_geometry_get_skirt_skip_count (geometry));
      for (guint k = 0; k + 2 < end; k += 3)
        {
          gdouble corner[3][3];

          if (index[k] >= n_vertices || index[k + 1] >= n_vertices || index[k + 2] >= n_vertices)
            continue;
          for (guint c = 0; c < 3; c++)
            {
              const gfloat *p = v[index[k + c]].point;

              /* Columns east, rows south from the north edge. */
              corner[c][0] = (p[0] - extent.min[0]) / width * side;
              corner[c][1] = (extent.max[1] - p[1]) / height * side;
              corner[c][2] = p[2];
            }
          terrain_relief_triangle (relief, corner[0], corner[1], corner[2]);
        }
    }
  return TRUE;
}

/* The tiles of texture TOC @t at @level assembled as one map, north up:
 * tile (x, y) covers texture v in [x, x + 1) / 2^level and u in
 * [y, y + 1) / 2^level (§4), so, turned like the root tile, it lands in
 * block column 2^level - 1 - x and block row 2^level - 1 - y. %NULL without
 * an error when a tile of the level is missing or not the same size as the
 * first. */
static TerrainImage *
assemble_texture_level (TerrainAtlasFile  *self,
                        guint              t,
                        guint              level,
                        guint              tile_side,
                        GError           **error)
{
  TerrainAtlasToc *toc = get_toc (self, t);
  guint n = 1u << level;
  g_autoptr(TerrainImage) map = NULL;
  guint8 *out;
  gsize out_stride;

  if (!terrain_limits_check_alloc (&self->limits, (guint64) n * tile_side * n * tile_side, 4,
                                   "texture picture", "Atlas", 0, error))
    return NULL;
  map = terrain_image_new (TERRAIN_IMAGE_RGBA8, n * tile_side, n * tile_side, error);
  if (map == NULL)
    return NULL;
  out = terrain_image_get_data (map, NULL);
  out_stride = terrain_image_get_stride (map);

  for (guint x = 0; x < n; x++)
    for (guint y = 0; y < n; y++)
      {
        gint64 stub = terrain_atlas_toc_find_stub (toc, level, x, y);
        g_autoptr(TerrainImage) tile = NULL;
        g_autoptr(TerrainImage) turned = NULL;
        const guint8 *in;
        gsize in_stride;

        if (stub < 0 || !stub_has_chunk (terrain_atlas_toc_get_stub_data (toc, (guint) stub)))
          return NULL;
        tile = terrain_atlas_file_render_texture (self, t, (guint) stub,
                                                  TERRAIN_ATLAS_CHANNELS_RGB, error);
        if (tile == NULL)
          return NULL;
        if (terrain_image_get_format (tile) != TERRAIN_IMAGE_RGBA8 ||
            terrain_image_get_width (tile) != tile_side ||
            terrain_image_get_height (tile) != tile_side)
          return NULL;
        turned = north_up_from_tile (tile, error);
        if (turned == NULL)
          return NULL;
        in = terrain_image_get_data (turned, NULL);
        in_stride = terrain_image_get_stride (turned);
        for (guint r = 0; r < tile_side; r++)
          memcpy (out + ((gsize) (n - 1 - y) * tile_side + r) * out_stride +
                    (gsize) (n - 1 - x) * tile_side * 4,
                  in + (gsize) r * in_stride, (gsize) tile_side * 4);
      }
  return g_steal_pointer (&map);
}

/* The texture tree's deepest complete level that fits in
 * TERRAIN_RELIEF_MAX_SIDE pixels (and the limits), assembled north up; the
 * root tile, turned north up, when no deeper level is complete; without a
 * texture tree, the leaves' heights as shaded relief. */
static TerrainImage *
terrain_atlas_file_render_image (TerrainDocument  *document,
                                 TerrainPalette   *palette,
                                 GError          **error)
{
  TerrainAtlasFile *self = TERRAIN_ATLAS_FILE (document);
  g_auto(TerrainRelief) relief = { 0 };
  gdouble pixel_size = 0.0;

  (void) palette;
  for (guint t = 0; t < n_tocs (self); t++)
    {
      TerrainAtlasToc *toc = get_toc (self, t);

      if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_TEXTURE &&
          terrain_atlas_toc_get_n_stubs (toc) > 0 &&
          stub_has_chunk (terrain_atlas_toc_get_stub_data (toc, 0)))
        {
          g_autoptr(TerrainImage) tile = NULL;
          guint side, max_side, depth = terrain_atlas_toc_get_tree_depth (toc);

          tile = terrain_atlas_file_render_texture (self, t, 0, TERRAIN_ATLAS_CHANNELS_RGB, error);
          if (tile == NULL)
            return NULL;
          side = terrain_image_get_width (tile);
          max_side = MIN ((guint) TERRAIN_RELIEF_MAX_SIDE, self->limits.max_image_side);
          if (terrain_image_get_format (tile) == TERRAIN_IMAGE_RGBA8 && side > 0 &&
              side == terrain_image_get_height (tile))
            for (guint level = MIN (depth, 13); level-- > 1;)
              {
                TerrainImage *map;

                if (((guint64) side << level) > max_side)
                  continue;
                map = assemble_texture_level (self, t, level, side, error);
                if (map != NULL)
                  return map;
                if (error != NULL && *error != NULL)
                  return NULL;
              }
          return north_up_from_tile (tile, error);
        }
    }

  if (!fill_leaf_relief (self, &relief, &pixel_size, error))
    return NULL;
  return terrain_relief_render (&relief, pixel_size, error);
}

/* The leaves' heights (fill_leaf_relief) as GRAY16, north up: the lowest
 * vertex 0, the highest 65535; uncovered samples 0. */
static TerrainImage *
terrain_atlas_file_export_heights (TerrainDocument  *document,
                                   GError          **error)
{
  TerrainAtlasFile *self = TERRAIN_ATLAS_FILE (document);
  g_auto(TerrainRelief) relief = { 0 };
  gdouble pixel_size = 0.0;

  if (!fill_leaf_relief (self, &relief, &pixel_size, error))
    return NULL;
  return terrain_relief_to_gray16 (&relief, error);
}

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

static JsonNode *
terrain_atlas_file_describe (TerrainDocument *document)
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
  for (guint t = 0; t < n_tocs (self); t++)
    {
      TerrainAtlasToc *toc = get_toc (self, t);
      guint n = terrain_atlas_toc_get_n_stubs (toc), with_chunks = 0;

      for (guint s = 0; s < n; s++)
        with_chunks += stub_has_chunk (terrain_atlas_toc_get_stub_data (toc, s));

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
  TerrainAtlasToc *toc = get_toc (self, t);
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
  where = describe_stub (self, t, (guint) s);
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

static char *
terrain_atlas_file_describe_offset (TerrainDocument *document,
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
    for (guint t = 0; t < n_tocs (self); t++)
      {
        gsize size = terrain_atlas_toc_get_serialized_size (get_toc (self, t));

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
          g_autofree char *where = describe_stub (self, ref->toc, ref->stub);
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
                      TerrainAtlasIssues *issues,
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
  terrain_atlas_issues_add (issues, "previous-chunk", TERRAIN_SEVERITY_INFO, where,
                            data->offset, stub,
                            "previousChunk %u does not point at a chunk frame of this file "
                            "(the history it names is not here)", previous);
}

static void
take_issues (TerrainAtlasIssues *issues,
             GPtrArray          *found)
{
  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (issues->issues, terrain_issue_ref (g_ptr_array_index (found, i)));
  g_ptr_array_unref (found);
}

static GPtrArray *
terrain_atlas_file_validate (TerrainDocument *document)
{
  TerrainAtlasFile *self = TERRAIN_ATLAS_FILE (document);
  TerrainAtlasIssues issues;

  terrain_atlas_issues_init (&issues);

  for (guint t = 0; t < n_tocs (self); t++)
    {
      TerrainAtlasToc *toc = get_toc (self, t);
      TerrainAtlasTocKind kind = terrain_atlas_toc_get_kind (toc);
      guint32 version = terrain_atlas_toc_get_version (toc);
      guint32 depth = terrain_atlas_toc_get_tree_depth (toc);
      guint n = terrain_atlas_toc_get_n_stubs (toc);
      g_autofree char *section = g_strdup_printf ("TOC %u (%s)", t,
                                                  terrain_atlas_toc_get_tag (toc));

      if (version > TERRAIN_ATLAS_VERSION)
        terrain_atlas_issues_add (&issues, "version", TERRAIN_SEVERITY_WARNING, section,
                                  terrain_atlas_toc_get_file_offset (toc), -1,
                                  "resource version %u is newer than %d, the newest known; "
                                  "it is read with the version-%d layouts",
                                  version, TERRAIN_ATLAS_VERSION, TERRAIN_ATLAS_VERSION);
      if (kind != TERRAIN_ATLAS_TOC_CONFIG && n != terrain_quadtree_node_count (depth))
        terrain_atlas_issues_add (&issues, "tree", TERRAIN_SEVERITY_WARNING, section,
                                  terrain_atlas_toc_get_file_offset (toc), -1,
                                  "%u stubs, but a complete quadtree of depth %u has %"
                                  G_GUINT64_FORMAT, n, depth, terrain_quadtree_node_count (depth));

      for (guint s = 0; s < n; s++)
        {
          TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (toc, s);
          g_autofree char *where = NULL;
          g_autoptr(GError) error = NULL;

          if (!stub_has_chunk (data))
            continue;
          where = describe_stub (self, t, s);

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
                    terrain_atlas_issues_add (&issues, "geometry", TERRAIN_SEVERITY_ERROR, where,
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
                  terrain_atlas_issues_add (&issues, "stub-bounds", TERRAIN_SEVERITY_WARNING,
                                            where, data->offset, s,
                                            "the stub's bounds differ from its chunk's (TGEA "
                                            "copies the chunk's into the stub)");
                if (!terrain_quadtree_parent (s, &parent) || parent >= n)
                  break;
                up = terrain_atlas_toc_get_stub_data (toc, (guint) parent);
                if (stub_has_chunk (up) && !terrain_atlas_box_contains (&up->bounds, &data->bounds))
                  terrain_atlas_issues_add (&issues, "parent-bounds", TERRAIN_SEVERITY_WARNING,
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
                  terrain_atlas_issues_add (&issues, "texture", TERRAIN_SEVERITY_ERROR, where,
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
                  terrain_atlas_issues_add (&issues, "config", TERRAIN_SEVERITY_ERROR, where,
                                            data->offset, s, "%s", error->message);
                else
                  check_previous_chunk (self, &issues, where, data, s,
                                        terrain_atlas_config_get_previous_chunk (config));
              }
              break;
            }
        }
    }

  return terrain_atlas_issues_finish (&issues);
}

static void
terrain_atlas_file_class_init (TerrainAtlasFileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  object_class->dispose = terrain_atlas_file_dispose;
  object_class->finalize = terrain_atlas_file_finalize;

  document_class->save_to_bytes = terrain_atlas_file_save_to_bytes;
  document_class->validate = terrain_atlas_file_validate;
  document_class->describe = terrain_atlas_file_describe;
  document_class->render_image = terrain_atlas_file_render_image;
  document_class->export_heights = terrain_atlas_file_export_heights;
  document_class->describe_offset = terrain_atlas_file_describe_offset;
}

static void
terrain_atlas_file_init (TerrainAtlasFile *self)
{
  self->tocs = g_list_store_new (TERRAIN_TYPE_ATLAS_TOC);
  self->frames = g_array_new (FALSE, FALSE, sizeof (FrameRef));
  self->appended = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
}
