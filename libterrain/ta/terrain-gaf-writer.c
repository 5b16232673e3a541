/* terrain-gaf-writer.c: writing Total Annihilation GAF archives
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-gaf-writer.h"
#include "terrain-gaf-archive.h"
#include "terrain-gaf-private.h"
#include "core/terrain-error.h"
#include "core/terrain-writer-private.h"

/*
 * The layout written (docs/formats/gaf.md), the one Cavedog's tools use:
 * header, entry offsets, then each entry with its frame table, then each
 * frame's header followed by its pixels. Subframes are not written: a frame
 * is one layer.
 */

#define GAF_HEADER_SIZE 12
#define GAF_ENTRY_SIZE (8 + TERRAIN_GAF_NAME_LENGTH)
#define GAF_FRAME_HEADER_SIZE 24

typedef struct
{
  guint16  width;
  guint16  height;
  gint16   x_offset;
  gint16   y_offset;
  guint8   transparency;
  gboolean compressed;
  GBytes  *data;        /* raw pixels or the encoded rows */
} WriterFrame;

typedef struct
{
  char      name[TERRAIN_GAF_NAME_LENGTH];
  GPtrArray *frames;     /* of WriterFrame */
} WriterEntry;

struct _TerrainGafWriter
{
  GObject    parent_instance;
  GPtrArray *entries;   /* of WriterEntry */
};

/**
 * TerrainGafWriter:
 *
 * Builds a new GAF from palette-index pictures: entries in the order added,
 * each frame raw or run-length encoded. Read it back with
 * [class@Terrain.GafArchive].
 */
G_DEFINE_FINAL_TYPE (TerrainGafWriter, terrain_gaf_writer, G_TYPE_OBJECT)

static void
writer_frame_free (gpointer data)
{
  WriterFrame *frame = data;

  g_bytes_unref (frame->data);
  g_free (frame);
}

static void
writer_entry_free (gpointer data)
{
  WriterEntry *entry = data;

  g_ptr_array_unref (entry->frames);
  g_free (entry);
}

static void
terrain_gaf_writer_finalize (GObject *object)
{
  TerrainGafWriter *self = TERRAIN_GAF_WRITER (object);

  g_ptr_array_unref (self->entries);
  G_OBJECT_CLASS (terrain_gaf_writer_parent_class)->finalize (object);
}

static void
terrain_gaf_writer_class_init (TerrainGafWriterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = terrain_gaf_writer_finalize;
}

static void
terrain_gaf_writer_init (TerrainGafWriter *self)
{
  self->entries = g_ptr_array_new_with_free_func (writer_entry_free);
}

/**
 * terrain_gaf_writer_new:
 *
 * Creates an empty GAF writer: add entries, then their frames, then call
 * [method@Terrain.GafWriter.finish].
 *
 * Returns: (transfer full): a new writer
 */
TerrainGafWriter *
terrain_gaf_writer_new (void)
{
  return g_object_new (TERRAIN_TYPE_GAF_WRITER, NULL);
}

/**
 * terrain_gaf_writer_add_entry:
 * @self: a GAF writer
 * @name: the entry's name (a feature TDF's `seqname`), at most 31 bytes
 * @error: return location for a #GError
 *
 * Starts a new entry; the frames added next belong to it.
 *
 * Returns: %TRUE, or %FALSE with %TERRAIN_ERROR_INVALID_VALUE if @name does
 *   not fit the 32-byte field with its NUL
 */
gboolean
terrain_gaf_writer_add_entry (TerrainGafWriter  *self,
                              const char        *name,
                              GError           **error)
{
  WriterEntry *entry;

  g_return_val_if_fail (TERRAIN_IS_GAF_WRITER (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (strlen (name) >= TERRAIN_GAF_NAME_LENGTH)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "GAF: entry name \"%s\" is longer than %d bytes", name,
                   TERRAIN_GAF_NAME_LENGTH - 1);
      return FALSE;
    }
  if (self->entries->len >= G_MAXUINT32 / 4)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED, "GAF: too many entries");
      return FALSE;
    }
  entry = g_new0 (WriterEntry, 1);
  strncpy (entry->name, name, sizeof entry->name - 1);
  entry->frames = g_ptr_array_new_with_free_func (writer_frame_free);
  g_ptr_array_add (self->entries, entry);
  return TRUE;
}

void
terrain_gaf_encode_row (const guint8 *row,
                        guint         width,
                        guint8        transparency,
                        GByteArray   *out)
{
  guint x = 0;

  while (x < width)
    {
      guint run = 1;

      while (x + run < width && row[x + run] == row[x])
        run++;

      if (row[x] == transparency)
        {
          guint8 control;

          run = MIN (run, 127u);
          control = (guint8) ((run << 1) | 1);
          g_byte_array_append (out, &control, 1);
        }
      else if (run >= 2)
        {
          guint8 control;

          run = MIN (run, 64u);
          control = (guint8) (((run - 1) << 2) | 2);
          g_byte_array_append (out, &control, 1);
          g_byte_array_append (out, &row[x], 1);
        }
      else
        {
          guint8 control;

          /* Literals until a transparent pixel or a repeat begins. */
          run = 1;
          while (x + run < width && run < 64 && row[x + run] != transparency &&
                 !(x + run + 1 < width && row[x + run] == row[x + run + 1]))
            run++;
          control = (guint8) ((run - 1) << 2);
          g_byte_array_append (out, &control, 1);
          g_byte_array_append (out, &row[x], run);
        }
      x += run;
    }
}

/**
 * terrain_gaf_writer_add_frame:
 * @self: a GAF writer
 * @pixels: (array length=width): @width x @height palette indices, row-major
 *   (the C length is @width times @height)
 * @width: width in pixels, 1 to 65535
 * @height: height in pixels, 1 to 65535
 * @x_offset: column of the sprite's origin in the picture
 * @y_offset: row of the origin
 * @transparency_index: the palette index drawn as transparent
 * @compress: %TRUE to write the run-length rows, %FALSE for raw pixels
 * @error: return location for a #GError
 *
 * Adds a frame to the last entry added.
 *
 * Returns: %TRUE, or %FALSE with %TERRAIN_ERROR_INVALID_VALUE for sizes or
 *   offsets a GAF frame cannot hold, or when no entry was added
 */
gboolean
terrain_gaf_writer_add_frame (TerrainGafWriter  *self,
                              const guint8      *pixels,
                              guint              width,
                              guint              height,
                              gint               x_offset,
                              gint               y_offset,
                              guint8             transparency_index,
                              gboolean           compress,
                              GError           **error)
{
  WriterEntry *entry;
  WriterFrame *frame;

  g_return_val_if_fail (TERRAIN_IS_GAF_WRITER (self), FALSE);
  g_return_val_if_fail (pixels != NULL, FALSE);

  if (self->entries->len == 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "GAF: a frame needs an entry to belong to");
      return FALSE;
    }
  entry = g_ptr_array_index (self->entries, self->entries->len - 1);
  if (width == 0 || height == 0 || width > G_MAXUINT16 || height > G_MAXUINT16 ||
      x_offset < G_MININT16 || x_offset > G_MAXINT16 ||
      y_offset < G_MININT16 || y_offset > G_MAXINT16 || entry->frames->len >= G_MAXUINT16)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "GAF: frame %u of entry %s: %ux%u pixels at origin (%d, %d) do not fit "
                   "a GAF frame (1 to 65535 a side, 16-bit origin, 65535 frames)",
                   entry->frames->len, entry->name, width, height, x_offset, y_offset);
      return FALSE;
    }

  frame = g_new0 (WriterFrame, 1);
  frame->width = width;
  frame->height = height;
  frame->x_offset = x_offset;
  frame->y_offset = y_offset;
  frame->transparency = transparency_index;
  frame->compressed = compress;
  if (compress)
    {
      g_autoptr(GByteArray) rows = g_byte_array_new ();

      for (guint y = 0; y < height; y++)
        {
          gsize start = rows->len;
          guint8 length[2] = { 0, 0 };
          gsize row_length;

          g_byte_array_append (rows, length, 2);
          terrain_gaf_encode_row (pixels + (gsize) y * width, width, transparency_index, rows);
          row_length = rows->len - start - 2;
          /* At most two bytes a pixel, so 65535 pixels can overflow. */
          if (row_length > G_MAXUINT16)
            {
              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                           "GAF: row %u of a %u-pixel frame encodes to %" G_GSIZE_FORMAT
                           " bytes, more than a row's 16-bit length holds", y, width, row_length);
              writer_frame_free (frame);
              return FALSE;
            }
          rows->data[start] = row_length & 0xff;
          rows->data[start + 1] = row_length >> 8;
        }
      frame->data = g_byte_array_free_to_bytes (g_steal_pointer (&rows));
    }
  else
    {
      frame->data = g_bytes_new (pixels, (gsize) width * height);
    }
  g_ptr_array_add (entry->frames, frame);
  return TRUE;
}

/**
 * terrain_gaf_writer_finish:
 * @self: a GAF writer
 * @error: return location for a #GError
 *
 * Lays the archive out: header, entry offsets, entries with their frame
 * tables, then each frame header followed by its pixels.
 *
 * Returns: (transfer full) (nullable): the GAF's bytes, or %NULL if the
 *   archive would pass 4 GiB
 */
GBytes *
terrain_gaf_writer_finish (TerrainGafWriter  *self,
                           GError           **error)
{
  TerrainWriter writer;
  gsize frame_tables;

  g_return_val_if_fail (TERRAIN_IS_GAF_WRITER (self), NULL);

  terrain_writer_init (&writer, 4096);
  terrain_writer_set_section (&writer, "GAF");
  terrain_writer_put_u32 (&writer, TERRAIN_GAF_VERSION);
  terrain_writer_put_u32 (&writer, self->entries->len);
  terrain_writer_put_u32 (&writer, 0);
  terrain_writer_put_zeros (&writer, 4 * (gsize) self->entries->len);

  for (guint i = 0; i < self->entries->len; i++)
    {
      WriterEntry *entry = g_ptr_array_index (self->entries, i);

      terrain_writer_patch_u32 (&writer, GAF_HEADER_SIZE + 4 * i, terrain_writer_tell (&writer));
      terrain_writer_put_u16 (&writer, entry->frames->len);
      terrain_writer_put_u16 (&writer, 1);
      terrain_writer_put_u32 (&writer, 0);
      terrain_writer_put_bytes (&writer, (const guint8 *) entry->name, TERRAIN_GAF_NAME_LENGTH);
      terrain_writer_put_zeros (&writer, 8 * (gsize) entry->frames->len);
    }
  frame_tables = GAF_HEADER_SIZE + 4 * (gsize) self->entries->len;

  for (guint i = 0; i < self->entries->len; i++)
    {
      WriterEntry *entry = g_ptr_array_index (self->entries, i);
      gsize table = frame_tables + GAF_ENTRY_SIZE;

      for (guint f = 0; f < entry->frames->len; f++)
        {
          WriterFrame *frame = g_ptr_array_index (entry->frames, f);
          gsize header = terrain_writer_tell (&writer);
          gsize size;
          const guint8 *data = g_bytes_get_data (frame->data, &size);

          terrain_writer_patch_u32 (&writer, table + 8 * f, header);
          terrain_writer_patch_u32 (&writer, table + 8 * f + 4, 0);
          terrain_writer_put_u16 (&writer, frame->width);
          terrain_writer_put_u16 (&writer, frame->height);
          terrain_writer_put_u16 (&writer, (guint16) frame->x_offset);
          terrain_writer_put_u16 (&writer, (guint16) frame->y_offset);
          terrain_writer_put_u8 (&writer, frame->transparency);
          terrain_writer_put_u8 (&writer, frame->compressed ? 1 : 0);
          terrain_writer_put_u16 (&writer, 0);
          terrain_writer_put_u32 (&writer, 0);
          terrain_writer_put_u32 (&writer, header + GAF_FRAME_HEADER_SIZE);
          terrain_writer_put_u32 (&writer, 0);
          terrain_writer_put_bytes (&writer, data, size);
        }
      frame_tables += GAF_ENTRY_SIZE + 8 * (gsize) entry->frames->len;
    }
  return terrain_writer_finish (&writer, error);
}
