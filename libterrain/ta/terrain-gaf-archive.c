/* terrain-gaf-archive.c: Total Annihilation GAF sprite and animation archives
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-gaf-archive.h"
#include "terrain-gaf-private.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-writer-private.h"

/*
 * Layout (docs/formats/gaf.md; all little-endian, offsets absolute):
 *
 *   header      u32 version 0x00010100, u32 entry count, u32 unknown
 *               u32[entry count] entry offsets
 *   entry       u16 frame count, u16 unknown1, u32 unknown2, char name[32]
 *               then frame count records {u32 frame header offset, u32 unknown}
 *   frame       u16 width, u16 height, i16 x offset, i16 y offset,
 *               u8 transparency index, u8 compressed, u16 subframe count,
 *               u32 unknown2, u32 data offset, u32 unknown3
 *
 * A frame with subframes has at its data offset a table of subframe-count
 * u32 offsets of further frame headers (one level: a subframe's own count is
 * not followed, as in rwe and the game). The pixel data of a raw frame is
 * width x height palette indices, row-major; that of a compressed frame is
 * one record a row: u16 byte count, then that many bytes of runs (see
 * terrain_gaf_decode_row()).
 *
 * The reader checks every header, table and span at load; pixels are decoded
 * when a frame is asked for.
 */

#define GAF_SECTION "GAF"
#define GAF_HEADER_SIZE 12
#define GAF_ENTRY_SIZE (8 + TERRAIN_GAF_NAME_LENGTH)
#define GAF_FRAME_RECORD_SIZE 8
#define GAF_FRAME_HEADER_SIZE 24

G_DEFINE_BOXED_TYPE (TerrainGafFrame, terrain_gaf_frame, terrain_gaf_frame_copy,
                     terrain_gaf_frame_free)

/**
 * terrain_gaf_frame_copy:
 * @frame: a frame header
 *
 * Copies a frame header.
 *
 * Returns: (transfer full): a copy of @frame
 */
TerrainGafFrame *
terrain_gaf_frame_copy (const TerrainGafFrame *frame)
{
  g_return_val_if_fail (frame != NULL, NULL);

  return g_memdup2 (frame, sizeof *frame);
}

/**
 * terrain_gaf_frame_free:
 * @frame: (transfer full): a frame header
 *
 * Frees a frame header copied with [func@Terrain.gaf_frame_copy].
 */
void
terrain_gaf_frame_free (TerrainGafFrame *frame)
{
  g_free (frame);
}

typedef struct
{
  TerrainGafFrame  header;
  TerrainGafFrame *subframes;   /* header.n_subframes of them */
  guint32          record_offset;
} GafFrameRec;

typedef struct
{
  char        *name;                           /* UTF-8 form of the name */
  guint8       raw_name[TERRAIN_GAF_NAME_LENGTH];
  guint16      n_frames;
  guint16      unknown1;
  guint32      unknown2;
  guint32      offset;
  GafFrameRec *frames;
} GafEntry;

struct _TerrainGafArchive
{
  TerrainDocument parent_instance;

  GBytes        *source;
  TerrainLimits *limits;
  guint32        version;
  guint32        header_unknown;
  guint          n_entries;
  GafEntry      *entries;
};

/**
 * TerrainGafArchive:
 *
 * A Total Annihilation GAF (`.gaf`): named entries (sprites, animations),
 * each a list of frames of palette indices with an origin and a
 * transparency index. Headers are read and checked when the archive is
 * opened; pixels are decoded when a frame is asked for. A feature TDF's
 * `filename` names the GAF and its `seqname` the entry. Write new archives
 * with [class@Terrain.GafWriter]. As a [class@Terrain.Document] it opens in
 * `terrain info`, `validate` (every frame decoded) and `roundtrip`.
 */
G_DEFINE_FINAL_TYPE (TerrainGafArchive, terrain_gaf_archive, TERRAIN_TYPE_DOCUMENT)

static void
terrain_gaf_archive_finalize (GObject *object)
{
  TerrainGafArchive *self = TERRAIN_GAF_ARCHIVE (object);

  for (guint i = 0; i < self->n_entries; i++)
    {
      GafEntry *entry = &self->entries[i];

      if (entry->frames != NULL)
        for (guint f = 0; f < entry->n_frames; f++)
          g_free (entry->frames[f].subframes);
      g_free (entry->frames);
      g_free (entry->name);
    }
  g_free (self->entries);
  g_clear_pointer (&self->limits, terrain_limits_free);
  g_clear_pointer (&self->source, g_bytes_unref);

  G_OBJECT_CLASS (terrain_gaf_archive_parent_class)->finalize (object);
}

static GBytes     *gaf_document_save            (TerrainDocument  *document,
                                                  GError          **error);
static GPtrArray  *gaf_document_validate        (TerrainDocument  *document);
static JsonNode   *gaf_document_describe        (TerrainDocument  *document);
static char       *gaf_document_describe_offset (TerrainDocument  *document,
                                                  gsize             offset);
static gboolean    gaf_document_parse           (TerrainDocument      *document,
                                                  GBytes               *bytes,
                                                  const TerrainLimits  *limits,
                                                  GError              **error);

static void
terrain_gaf_archive_class_init (TerrainGafArchiveClass *klass)
{
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = terrain_gaf_archive_finalize;
  document_class->save_to_bytes = gaf_document_save;
  document_class->validate = gaf_document_validate;
  document_class->describe = gaf_document_describe;
  document_class->describe_offset = gaf_document_describe_offset;
  document_class->parse = gaf_document_parse;
  document_class->format = TERRAIN_FORMAT_GAF;
}

static void
terrain_gaf_archive_init (TerrainGafArchive *self)
{
}

static gboolean
read_frame_header (TerrainReader   *reader,
                   guint32          offset,
                   const char      *what,
                   TerrainGafFrame *frame,
                   GError         **error)
{
  guint16 width, height, n_subframes;
  gint16 x, y;
  guint8 transparency, compressed;
  guint32 unknown2, data_offset, unknown3;

  if (!terrain_reader_check_span (reader, offset, GAF_FRAME_HEADER_SIZE, what, error) ||
      !terrain_reader_seek (reader, offset, error) ||
      !terrain_reader_read_u16 (reader, &width, error) ||
      !terrain_reader_read_u16 (reader, &height, error) ||
      !terrain_reader_read_i16 (reader, &x, error) ||
      !terrain_reader_read_i16 (reader, &y, error) ||
      !terrain_reader_read_u8 (reader, &transparency, error) ||
      !terrain_reader_read_u8 (reader, &compressed, error) ||
      !terrain_reader_read_u16 (reader, &n_subframes, error) ||
      !terrain_reader_read_u32 (reader, &unknown2, error) ||
      !terrain_reader_read_u32 (reader, &data_offset, error) ||
      !terrain_reader_read_u32 (reader, &unknown3, error))
    return FALSE;

  *frame = (TerrainGafFrame) {
    .width = width,
    .height = height,
    .x_offset = x,
    .y_offset = y,
    .transparency_index = transparency,
    .compressed = compressed,
    .n_subframes = n_subframes,
    .unknown2 = unknown2,
    .data_offset = data_offset,
    .unknown3 = unknown3,
    .header_offset = offset,
  };
  return TRUE;
}

static gboolean
check_pixels_header (const TerrainGafArchive *self,
                     const TerrainGafFrame   *frame,
                     const char              *what,
                     GError                 **error)
{
  if (frame->compressed > 1)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   GAF_SECTION ": %s at byte offset %u: compression method %u is not TA's "
                   "(0 raw, 1 run-length); Kingdoms' 4444/5551 colour frames are not read",
                   what, frame->header_offset, frame->compressed);
      return FALSE;
    }
  if (frame->width > self->limits->max_image_side || frame->height > self->limits->max_image_side)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   GAF_SECTION ": %s at byte offset %u: %ux%u pixels exceed the limit of %u a side",
                   what, frame->header_offset, frame->width, frame->height,
                   self->limits->max_image_side);
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_entry (TerrainGafArchive *self,
            TerrainReader     *reader,
            guint              index,
            guint64           *total_frames,
            GError           **error)
{
  GafEntry *entry = &self->entries[index];
  const guint8 *name;
  gsize name_length;

  if (!terrain_reader_check_span (reader, entry->offset, GAF_ENTRY_SIZE, "entry", error) ||
      !terrain_reader_seek (reader, entry->offset, error) ||
      !terrain_reader_read_u16 (reader, &entry->n_frames, error) ||
      !terrain_reader_read_u16 (reader, &entry->unknown1, error) ||
      !terrain_reader_read_u32 (reader, &entry->unknown2, error) ||
      !terrain_reader_read_bytes (reader, TERRAIN_GAF_NAME_LENGTH, &name, error))
    {
      g_prefix_error (error, "entry %u: ", index);
      return FALSE;
    }
  memcpy (entry->raw_name, name, TERRAIN_GAF_NAME_LENGTH);
  name_length = strnlen ((const char *) name, TERRAIN_GAF_NAME_LENGTH);
  entry->name = g_utf8_make_valid ((const char *) name, name_length);

  /* Entries may share frame tables, so the budget counts every frame of
   * every entry, not the bytes of the file. */
  *total_frames += entry->n_frames;
  if (!terrain_limits_check_alloc (self->limits, *total_frames, sizeof (GafFrameRec),
                                   "GAF frames", GAF_SECTION, entry->offset, error) ||
      !terrain_reader_check_span (reader, entry->offset + GAF_ENTRY_SIZE,
                                  (guint64) entry->n_frames * GAF_FRAME_RECORD_SIZE,
                                  "frame table", error))
    {
      g_prefix_error (error, "entry %u (%s): ", index, entry->name);
      return FALSE;
    }

  entry->frames = g_new0 (GafFrameRec, entry->n_frames);
  for (guint f = 0; f < entry->n_frames; f++)
    {
      GafFrameRec *rec = &entry->frames[f];
      guint32 frame_offset, frame_unknown;
      char what[64];

      rec->record_offset = entry->offset + GAF_ENTRY_SIZE + f * GAF_FRAME_RECORD_SIZE;
      g_snprintf (what, sizeof what, "frame %u of entry %s", f, entry->name);
      if (!terrain_reader_seek (reader, rec->record_offset, error) ||
          !terrain_reader_read_u32 (reader, &frame_offset, error) ||
          !terrain_reader_read_u32 (reader, &frame_unknown, error) ||
          !read_frame_header (reader, frame_offset, what, &rec->header, error))
        return FALSE;
      rec->header.entry_unknown = frame_unknown;

      if (rec->header.n_subframes == 0)
        {
          if (!check_pixels_header (self, &rec->header, what, error))
            return FALSE;
          continue;
        }

      *total_frames += rec->header.n_subframes;
      if (!terrain_limits_check_alloc (self->limits, *total_frames, sizeof (GafFrameRec),
                                       "GAF frames", GAF_SECTION, frame_offset, error) ||
          !terrain_reader_check_span (reader, rec->header.data_offset,
                                      (guint64) rec->header.n_subframes * 4,
                                      "subframe table", error))
        {
          g_prefix_error (error, "%s: ", what);
          return FALSE;
        }
      if (rec->header.width > self->limits->max_image_side ||
          rec->header.height > self->limits->max_image_side)
        return check_pixels_header (self, &rec->header, what, error);

      rec->subframes = g_new0 (TerrainGafFrame, rec->header.n_subframes);
      for (guint s = 0; s < rec->header.n_subframes; s++)
        {
          guint32 sub_offset;
          char sub_what[96];

          g_snprintf (sub_what, sizeof sub_what, "subframe %u of frame %u of entry %s",
                      s, f, entry->name);
          if (!terrain_reader_seek (reader, rec->header.data_offset + 4 * s, error) ||
              !terrain_reader_read_u32 (reader, &sub_offset, error) ||
              !read_frame_header (reader, sub_offset, sub_what, &rec->subframes[s], error) ||
              !check_pixels_header (self, &rec->subframes[s], sub_what, error))
            return FALSE;
        }
    }
  return TRUE;
}

/**
 * terrain_gaf_archive_new_from_bytes:
 * @bytes: the contents of a `.gaf` file
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Reads a Total Annihilation GAF: its header, entries, frame headers and
 * subframe headers (docs/formats/gaf.md). Every offset, count and size is
 * checked against the data and @limits; pixels are decoded later, by
 * [method@Terrain.GafArchive.decode_frame]. @bytes is kept, not copied.
 *
 * Returns: (transfer full) (nullable): the archive, or %NULL with a
 *   %TERRAIN_ERROR naming the structure and byte offset
 */
TerrainGafArchive *
terrain_gaf_archive_new_from_bytes (GBytes               *bytes,
                                    const TerrainLimits  *limits,
                                    GError              **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return TERRAIN_GAF_ARCHIVE (terrain_document_new_from_bytes (TERRAIN_TYPE_GAF_ARCHIVE, bytes,
                                                               limits, error));
}

static gboolean
gaf_document_parse (TerrainDocument      *document,
                    GBytes               *bytes,
                    const TerrainLimits  *limits,
                    GError              **error)
{
  TerrainGafArchive *self = TERRAIN_GAF_ARCHIVE (document);
  TerrainReader reader;
  guint32 n_entries;
  guint64 total_frames = 0;

  self->source = g_bytes_ref (bytes);
  self->limits = terrain_limits_copy (limits);

  terrain_reader_init (&reader, bytes, GAF_SECTION);
  if (!terrain_reader_read_u32 (&reader, &self->version, error) ||
      !terrain_reader_read_u32 (&reader, &n_entries, error) ||
      !terrain_reader_read_u32 (&reader, &self->header_unknown, error))
    return FALSE;
  if (self->version != TERRAIN_GAF_VERSION)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                   GAF_SECTION ": version word 0x%08x at byte offset 0 is not a GAF's (0x%08x)",
                   self->version, TERRAIN_GAF_VERSION);
      return FALSE;
    }
  if (!terrain_reader_check_span (&reader, GAF_HEADER_SIZE, (guint64) n_entries * 4,
                                  "entry table", error))
    return FALSE;

  self->entries = g_new0 (GafEntry, n_entries);
  self->n_entries = n_entries;
  for (guint i = 0; i < n_entries; i++)
    {
      if (!terrain_reader_seek (&reader, GAF_HEADER_SIZE + 4 * i, error) ||
          !terrain_reader_read_u32 (&reader, &self->entries[i].offset, error))
        return FALSE;
    }
  for (guint i = 0; i < n_entries; i++)
    if (!read_entry (self, &reader, i, &total_frames, error))
      return FALSE;
  return TRUE;
}

/**
 * terrain_gaf_archive_get_n_entries:
 * @self: a GAF archive
 *
 * Gets the number of entries of the archive's header.
 *
 * Returns: the number of entries (sprites or animations)
 */
guint
terrain_gaf_archive_get_n_entries (TerrainGafArchive *self)
{
  g_return_val_if_fail (TERRAIN_IS_GAF_ARCHIVE (self), 0);

  return self->n_entries;
}

/**
 * terrain_gaf_archive_get_entry_name:
 * @self: a GAF archive
 * @entry: an entry index
 *
 * Gets an entry's name.
 *
 * Returns: (transfer none): the entry's name (up to the first NUL of its
 *   32-byte field, made valid UTF-8), as a feature TDF's `seqname` names it
 */
const char *
terrain_gaf_archive_get_entry_name (TerrainGafArchive *self,
                                    guint              entry)
{
  g_return_val_if_fail (TERRAIN_IS_GAF_ARCHIVE (self), NULL);
  g_return_val_if_fail (entry < self->n_entries, NULL);

  return self->entries[entry].name;
}

/**
 * terrain_gaf_archive_find_entry:
 * @self: a GAF archive
 * @name: an entry name
 * @entry: (out) (optional): the index of the first entry of that name
 *
 * Looks an entry up by name, ignoring ASCII case as the game does.
 *
 * Returns: %TRUE if found
 */
gboolean
terrain_gaf_archive_find_entry (TerrainGafArchive *self,
                                const char        *name,
                                guint             *entry)
{
  g_return_val_if_fail (TERRAIN_IS_GAF_ARCHIVE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  for (guint i = 0; i < self->n_entries; i++)
    if (g_ascii_strcasecmp (self->entries[i].name, name) == 0)
      {
        if (entry != NULL)
          *entry = i;
        return TRUE;
      }
  return FALSE;
}

/**
 * terrain_gaf_archive_get_n_frames:
 * @self: a GAF archive
 * @entry: an entry index
 *
 * Gets the number of frames of an entry (an animation's length).
 *
 * Returns: the number of frames of the entry
 */
guint
terrain_gaf_archive_get_n_frames (TerrainGafArchive *self,
                                  guint              entry)
{
  g_return_val_if_fail (TERRAIN_IS_GAF_ARCHIVE (self), 0);
  g_return_val_if_fail (entry < self->n_entries, 0);

  return self->entries[entry].n_frames;
}

/**
 * terrain_gaf_archive_get_frame:
 * @self: a GAF archive
 * @entry: an entry index
 * @frame: a frame index within the entry
 *
 * Gets a frame's header: its size, origin, transparency index, encoding and
 * the offsets it was read from.
 *
 * Returns: (transfer none): the frame's header as read
 */
const TerrainGafFrame *
terrain_gaf_archive_get_frame (TerrainGafArchive *self,
                               guint              entry,
                               guint              frame)
{
  g_return_val_if_fail (TERRAIN_IS_GAF_ARCHIVE (self), NULL);
  g_return_val_if_fail (entry < self->n_entries, NULL);
  g_return_val_if_fail (frame < self->entries[entry].n_frames, NULL);

  return &self->entries[entry].frames[frame].header;
}

/**
 * terrain_gaf_archive_get_subframe:
 * @self: a GAF archive
 * @entry: an entry index
 * @frame: a frame index within the entry
 * @subframe: a subframe index, below the frame's @n_subframes
 *
 * Gets the header of one layer of a frame made of subframes.
 *
 * Returns: (transfer none): the subframe's header as read
 */
const TerrainGafFrame *
terrain_gaf_archive_get_subframe (TerrainGafArchive *self,
                                  guint              entry,
                                  guint              frame,
                                  guint              subframe)
{
  const GafFrameRec *rec;

  g_return_val_if_fail (TERRAIN_IS_GAF_ARCHIVE (self), NULL);
  g_return_val_if_fail (entry < self->n_entries, NULL);
  g_return_val_if_fail (frame < self->entries[entry].n_frames, NULL);
  rec = &self->entries[entry].frames[frame];
  g_return_val_if_fail (subframe < rec->header.n_subframes, NULL);

  return &rec->subframes[subframe];
}

/* Decodes one run-length row into @row (@width pixels). The runs, by the low
 * bits of their control byte c:
 *   c & 1         c >> 1 transparent pixels
 *   c & 2         one byte, repeated (c >> 2) + 1 times
 *   otherwise     (c >> 2) + 1 literal bytes
 * Pixels the runs leave unset are transparent. Runs that pass the row's end
 * are clipped to it (TAUtil's reading; the game draws no further either);
 * a run needing bytes past the row's declared length is an error. */
gboolean
terrain_gaf_decode_row (const guint8  *data,
                        gsize          length,
                        guint8        *row,
                        guint          width,
                        guint8         transparency,
                        gsize          offset,
                        GError       **error)
{
  gsize in = 0;
  guint out = 0;

  while (in < length && out < width)
    {
      guint8 control = data[in++];
      guint count;

      if (control & 1)
        {
          count = MIN (control >> 1, width - out);
          memset (row + out, transparency, count);
        }
      else if (control & 2)
        {
          if (in >= length)
            goto short_row;
          count = MIN ((control >> 2) + 1u, width - out);
          memset (row + out, data[in], count);
          in++;
        }
      else
        {
          guint literal = (control >> 2) + 1u;

          if (literal > length - in)
            goto short_row;
          count = MIN (literal, width - out);
          memcpy (row + out, data + in, count);
          in += literal;
        }
      out += count;
    }
  if (out < width)
    memset (row + out, transparency, width - out);
  return TRUE;

short_row:
  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
               GAF_SECTION ": run-length row at byte offset %" G_GSIZE_FORMAT
               ": a run at row byte %" G_GSIZE_FORMAT " needs bytes past the row's %"
               G_GSIZE_FORMAT, offset, in - 1, length);
  return FALSE;
}

static gboolean
decode_layer (TerrainGafArchive     *self,
              const TerrainGafFrame *frame,
              guint8                *pixels,
              GError               **error)
{
  TerrainReader reader;
  gsize n = (gsize) frame->width * frame->height;

  terrain_reader_init (&reader, self->source, GAF_SECTION);
  if (frame->compressed == 0)
    {
      if (!terrain_reader_check_span (&reader, frame->data_offset, n, "raw frame pixels", error) ||
          !terrain_reader_seek (&reader, frame->data_offset, error) ||
          !terrain_reader_copy_bytes (&reader, n, pixels, error))
        return FALSE;
      return TRUE;
    }

  if (!terrain_reader_seek (&reader, frame->data_offset, error))
    {
      g_prefix_error (error, "frame at byte offset %u: ", frame->header_offset);
      return FALSE;
    }
  for (guint y = 0; y < frame->height; y++)
    {
      guint16 length;
      const guint8 *data;
      gsize row_offset = terrain_reader_tell (&reader);

      if (!terrain_reader_read_u16 (&reader, &length, error) ||
          !terrain_reader_read_bytes (&reader, length, &data, error) ||
          !terrain_gaf_decode_row (data, length, pixels + (gsize) y * frame->width,
                                   frame->width, frame->transparency_index, row_offset, error))
        {
          g_prefix_error (error, "row %u of the frame at byte offset %u: ", y,
                          frame->header_offset);
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * terrain_gaf_archive_decode_frame:
 * @self: a GAF archive
 * @entry: an entry index
 * @frame: a frame index within the entry
 * @error: return location for a #GError
 *
 * Decodes a frame to palette indices: width x height bytes, row-major
 * (the sizes of [method@Terrain.GafArchive.get_frame]). A frame made of
 * subframes is composed on a canvas of the frame's size filled with its
 * transparency index: each subframe is drawn in order with its origin on
 * the frame's, its own transparent pixels left out.
 *
 * Returns: (transfer full) (nullable): the indices, or %NULL with a
 *   %TERRAIN_ERROR naming the row and byte offset
 */
GBytes *
terrain_gaf_archive_decode_frame (TerrainGafArchive *self,
                                  guint              entry,
                                  guint              frame,
                                  GError           **error)
{
  const GafFrameRec *rec;
  g_autofree guint8 *canvas = NULL;
  gsize n;

  g_return_val_if_fail (TERRAIN_IS_GAF_ARCHIVE (self), NULL);
  g_return_val_if_fail (entry < self->n_entries, NULL);
  g_return_val_if_fail (frame < self->entries[entry].n_frames, NULL);

  rec = &self->entries[entry].frames[frame];
  n = (gsize) rec->header.width * rec->header.height;
  if (!terrain_limits_check_alloc (self->limits, n, 1, "frame pixels", GAF_SECTION,
                                   rec->header.header_offset, error))
    return NULL;
  canvas = g_malloc (MAX (n, 1));

  if (rec->header.n_subframes == 0)
    {
      if (!decode_layer (self, &rec->header, canvas, error))
        return NULL;
      return g_bytes_new_take (g_steal_pointer (&canvas), n);
    }

  memset (canvas, rec->header.transparency_index, n);
  for (guint s = 0; s < rec->header.n_subframes; s++)
    {
      const TerrainGafFrame *sub = &rec->subframes[s];
      gsize sub_n = (gsize) sub->width * sub->height;
      g_autofree guint8 *layer = NULL;
      /* Frame pixel (cx, cy) is at (cx - fx, cy - fy) from the origin;
       * subframe pixel (lx, ly) at (lx - sx, ly - sy). */
      gint dx = (gint) rec->header.x_offset - sub->x_offset;
      gint dy = (gint) rec->header.y_offset - sub->y_offset;

      if (!terrain_limits_check_alloc (self->limits, sub_n, 1, "subframe pixels", GAF_SECTION,
                                       sub->header_offset, error))
        return NULL;
      layer = g_malloc (MAX (sub_n, 1));
      if (!decode_layer (self, sub, layer, error))
        return NULL;
      for (gint ly = 0; ly < sub->height; ly++)
        {
          gint cy = ly + dy;

          if (cy < 0 || cy >= rec->header.height)
            continue;
          for (gint lx = 0; lx < sub->width; lx++)
            {
              gint cx = lx + dx;
              guint8 p = layer[(gsize) ly * sub->width + lx];

              if (cx < 0 || cx >= rec->header.width || p == sub->transparency_index)
                continue;
              canvas[(gsize) cy * rec->header.width + cx] = p;
            }
        }
    }
  return g_bytes_new_take (g_steal_pointer (&canvas), n);
}

/**
 * terrain_gaf_archive_render_frame:
 * @self: a GAF archive
 * @entry: an entry index
 * @frame: a frame index within the entry
 * @palette: the palette the indices refer to (the game's PALETTE.PAL)
 * @error: return location for a #GError
 *
 * Draws a frame through @palette: an RGBA image of the frame's size, the
 * frame's transparency index fully transparent, every other pixel opaque.
 * The sprite's origin is at the frame's x and y offsets.
 *
 * Returns: (transfer full) (nullable): the picture, or %NULL with an error
 */
TerrainImage *
terrain_gaf_archive_render_frame (TerrainGafArchive *self,
                                  guint              entry,
                                  guint              frame,
                                  TerrainPalette    *palette,
                                  GError           **error)
{
  const TerrainGafFrame *header;
  g_autoptr(GBytes) indices = NULL;
  g_autoptr(TerrainImage) image = NULL;
  const guint8 *rgba = NULL;
  const guint8 *src;
  guint8 *dst;
  gsize stride;

  g_return_val_if_fail (TERRAIN_IS_GAF_ARCHIVE (self), NULL);
  g_return_val_if_fail (palette != NULL, NULL);

  indices = terrain_gaf_archive_decode_frame (self, entry, frame, error);
  if (indices == NULL)
    return NULL;
  header = &self->entries[entry].frames[frame].header;
  image = terrain_image_new (TERRAIN_IMAGE_RGBA8, MAX (header->width, 1), MAX (header->height, 1),
                             error);
  if (image == NULL)
    return NULL;
  rgba = terrain_palette_get_rgba_table (palette);
  src = g_bytes_get_data (indices, NULL);
  dst = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  for (guint y = 0; y < header->height; y++)
    for (guint x = 0; x < header->width; x++)
      {
        guint8 p = src[(gsize) y * header->width + x];
        guint8 *out = dst + y * stride + 4 * x;

        if (p == header->transparency_index)
          continue;
        memcpy (out, rgba + 4 * p, 3);
        out[3] = 0xff;
      }
  return g_steal_pointer (&image);
}

static void
patch_u16 (TerrainWriter *writer,
           gsize          offset,
           guint16        value)
{
  guint8 b[2];

  terrain_put_le16 (b, value);
  terrain_writer_patch_bytes (writer, offset, b, sizeof b);
}

static void
patch_frame_header (TerrainWriter         *writer,
                    const TerrainGafFrame *frame)
{
  guint8 b[GAF_FRAME_HEADER_SIZE];

  terrain_put_le16 (b, frame->width);
  terrain_put_le16 (b + 2, frame->height);
  terrain_put_le16 (b + 4, (guint16) frame->x_offset);
  terrain_put_le16 (b + 6, (guint16) frame->y_offset);
  b[8] = frame->transparency_index;
  b[9] = frame->compressed;
  terrain_put_le16 (b + 10, frame->n_subframes);
  terrain_put_le32 (b + 12, frame->unknown2);
  terrain_put_le32 (b + 16, frame->data_offset);
  terrain_put_le32 (b + 20, frame->unknown3);
  terrain_writer_patch_bytes (writer, frame->header_offset, b, sizeof b);
}

/**
 * terrain_gaf_archive_save_to_bytes:
 * @self: a GAF archive
 *
 * Writes the archive: every header, table and frame header is serialised
 * from the model into a copy of the source, so that pixel data, gaps and
 * unknown words stay as they were. An archive read and written unchanged is
 * byte-identical to its source.
 *
 * Returns: (transfer full): the file's bytes
 */
GBytes *
terrain_gaf_archive_save_to_bytes (TerrainGafArchive *self)
{
  TerrainWriter writer;
  gsize size;
  const guint8 *data;

  g_return_val_if_fail (TERRAIN_IS_GAF_ARCHIVE (self), NULL);

  data = g_bytes_get_data (self->source, &size);
  terrain_writer_init_copy (&writer, data, size);
  terrain_writer_set_section (&writer, GAF_SECTION);
  terrain_writer_patch_u32 (&writer, 0, self->version);
  terrain_writer_patch_u32 (&writer, 4, self->n_entries);
  terrain_writer_patch_u32 (&writer, 8, self->header_unknown);
  for (guint i = 0; i < self->n_entries; i++)
    {
      const GafEntry *entry = &self->entries[i];

      terrain_writer_patch_u32 (&writer, GAF_HEADER_SIZE + 4 * i, entry->offset);
      patch_u16 (&writer, entry->offset, entry->n_frames);
      patch_u16 (&writer, entry->offset + 2, entry->unknown1);
      terrain_writer_patch_u32 (&writer, entry->offset + 4, entry->unknown2);
      terrain_writer_patch_bytes (&writer, entry->offset + 8, entry->raw_name,
                                  TERRAIN_GAF_NAME_LENGTH);
      for (guint f = 0; f < entry->n_frames; f++)
        {
          const GafFrameRec *rec = &entry->frames[f];

          terrain_writer_patch_u32 (&writer, rec->record_offset, rec->header.header_offset);
          terrain_writer_patch_u32 (&writer, rec->record_offset + 4, rec->header.entry_unknown);
          patch_frame_header (&writer, &rec->header);
          for (guint s = 0; s < rec->header.n_subframes; s++)
            {
              terrain_writer_patch_u32 (&writer, rec->header.data_offset + 4 * s,
                                        rec->subframes[s].header_offset);
              patch_frame_header (&writer, &rec->subframes[s]);
            }
        }
    }
  /* Every span patched was checked against the source at load. */
  return terrain_writer_finish (&writer, NULL);
}

/* ------------------------------------------------------------------------ */
/* Document                                                                  */

/* Validation lists this many failing frames one by one, then a count. */
#define GAF_MAX_ISSUES 20

static GBytes *
gaf_document_save (TerrainDocument  *document,
                   GError          **error)
{
  return terrain_gaf_archive_save_to_bytes (TERRAIN_GAF_ARCHIVE (document));
}

/* Decodes every frame, as drawing them would. */
static GPtrArray *
gaf_document_validate (TerrainDocument *document)
{
  TerrainGafArchive *self = TERRAIN_GAF_ARCHIVE (document);
  GPtrArray *issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  guint bad = 0;

  for (guint e = 0; e < self->n_entries; e++)
    for (guint f = 0; f < self->entries[e].n_frames; f++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(GBytes) pixels = terrain_gaf_archive_decode_frame (self, e, f, &error);

        if (pixels == NULL && bad++ < GAF_MAX_ISSUES)
          g_ptr_array_add (issues,
                           terrain_issue_new (TERRAIN_SEVERITY_WARNING, GAF_SECTION,
                                              self->entries[e].frames[f].header.header_offset,
                                              (gint) e, "entry \"%s\", frame %u: %s",
                                              self->entries[e].name, f, error->message));
      }
  if (bad > GAF_MAX_ISSUES)
    g_ptr_array_add (issues,
                     terrain_issue_new (TERRAIN_SEVERITY_WARNING, GAF_SECTION, -1, -1,
                                        "%u more frames cannot be decoded (%u in all)",
                                        bad - GAF_MAX_ISSUES, bad));
  return issues;
}

static JsonNode *
gaf_document_describe (TerrainDocument *document)
{
  TerrainGafArchive *self = TERRAIN_GAF_ARCHIVE (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  guint64 frames = 0, subframes = 0;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, terrain_format_get_name (TERRAIN_FORMAT_GAF));
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, (gint64) g_bytes_get_size (self->source));
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, self->version);
  json_builder_set_member_name (builder, "header_unknown");
  json_builder_add_int_value (builder, self->header_unknown);
  json_builder_set_member_name (builder, "entries");
  json_builder_add_int_value (builder, self->n_entries);
  json_builder_set_member_name (builder, "entry_list");
  json_builder_begin_array (builder);
  for (guint e = 0; e < self->n_entries; e++)
    {
      const GafEntry *entry = &self->entries[e];
      guint entry_subframes = 0, compressed = 0;

      for (guint f = 0; f < entry->n_frames; f++)
        {
          const TerrainGafFrame *header = &entry->frames[f].header;

          entry_subframes += header->n_subframes;
          compressed += header->n_subframes == 0 ? header->compressed != 0 : 0;
          for (guint s = 0; s < header->n_subframes; s++)
            compressed += entry->frames[f].subframes[s].compressed != 0;
        }
      frames += entry->n_frames;
      subframes += entry_subframes;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, entry->name);
      json_builder_set_member_name (builder, "offset");
      json_builder_add_int_value (builder, entry->offset);
      json_builder_set_member_name (builder, "frames");
      json_builder_add_int_value (builder, entry->n_frames);
      json_builder_set_member_name (builder, "subframes");
      json_builder_add_int_value (builder, entry_subframes);
      json_builder_set_member_name (builder, "run_length_pictures");
      json_builder_add_int_value (builder, compressed);
      if (entry->n_frames > 0)
        {
          const TerrainGafFrame *first = &entry->frames[0].header;

          json_builder_set_member_name (builder, "width");
          json_builder_add_int_value (builder, first->width);
          json_builder_set_member_name (builder, "height");
          json_builder_add_int_value (builder, first->height);
          json_builder_set_member_name (builder, "x_offset");
          json_builder_add_int_value (builder, first->x_offset);
          json_builder_set_member_name (builder, "y_offset");
          json_builder_add_int_value (builder, first->y_offset);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "frames");
  json_builder_add_int_value (builder, (gint64) frames);
  json_builder_set_member_name (builder, "subframes");
  json_builder_add_int_value (builder, (gint64) subframes);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static gboolean
in_span (gsize   offset,
         guint64 start,
         guint64 size)
{
  return offset >= start && offset - start < size;
}

static char *
gaf_document_describe_offset (TerrainDocument *document,
                              gsize            offset)
{
  TerrainGafArchive *self = TERRAIN_GAF_ARCHIVE (document);

  if (offset < GAF_HEADER_SIZE)
    return g_strdup ("header");
  if (in_span (offset, GAF_HEADER_SIZE, 4 * (guint64) self->n_entries))
    return g_strdup_printf ("entry table, entry %" G_GSIZE_FORMAT,
                            (offset - GAF_HEADER_SIZE) / 4);
  for (guint e = 0; e < self->n_entries; e++)
    {
      const GafEntry *entry = &self->entries[e];

      if (in_span (offset, entry->offset, GAF_ENTRY_SIZE))
        return g_strdup_printf ("entry \"%s\", header", entry->name);
      if (in_span (offset, (guint64) entry->offset + GAF_ENTRY_SIZE,
                   (guint64) entry->n_frames * GAF_FRAME_RECORD_SIZE))
        return g_strdup_printf ("entry \"%s\", frame table", entry->name);
      for (guint f = 0; f < entry->n_frames; f++)
        {
          const GafFrameRec *rec = &entry->frames[f];

          if (in_span (offset, rec->header.header_offset, GAF_FRAME_HEADER_SIZE))
            return g_strdup_printf ("entry \"%s\", frame %u, header", entry->name, f);
          if (rec->header.n_subframes > 0 &&
              in_span (offset, rec->header.data_offset, 4 * (guint64) rec->header.n_subframes))
            return g_strdup_printf ("entry \"%s\", frame %u, subframe table", entry->name, f);
          for (guint s = 0; s < rec->header.n_subframes; s++)
            if (in_span (offset, rec->subframes[s].header_offset, GAF_FRAME_HEADER_SIZE))
              return g_strdup_printf ("entry \"%s\", frame %u, subframe %u, header",
                                      entry->name, f, s);
        }
    }
  return g_strdup ("pixel data or unreferenced bytes");
}
