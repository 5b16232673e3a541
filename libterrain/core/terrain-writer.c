/* terrain-writer.c: little-endian writer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-writer-private.h"
#include "terrain-reader-private.h"
#include "terrain-error.h"

#define WRITER_MAX_SIZE ((gsize) G_MAXUINT32)

void
terrain_writer_init (TerrainWriter *writer,
                     gsize          reserve)
{
  writer->buffer = g_byte_array_sized_new (MIN (reserve, WRITER_MAX_SIZE));
  writer->section = "output";
  writer->overflow = FALSE;
}

/* Starts with a copy of @data, to patch sections into an existing layout. */
void
terrain_writer_init_copy (TerrainWriter *writer,
                          const guint8  *data,
                          gsize          size)
{
  terrain_writer_init (writer, size);
  terrain_writer_put_bytes (writer, data, size);
}

void
terrain_writer_clear (TerrainWriter *writer)
{
  g_clear_pointer (&writer->buffer, g_byte_array_unref);
}

gsize
terrain_writer_tell (const TerrainWriter *writer)
{
  return writer->buffer->len;
}

void
terrain_writer_set_section (TerrainWriter *writer,
                            const char    *section)
{
  writer->section = section;
}

static inline gboolean
room (TerrainWriter *writer,
      gsize          size)
{
  if (writer->overflow || size > WRITER_MAX_SIZE - writer->buffer->len)
    {
      writer->overflow = TRUE;
      return FALSE;
    }
  return TRUE;
}

void
terrain_writer_put_bytes (TerrainWriter *writer,
                          const guint8  *data,
                          gsize          size)
{
  if (size == 0 || !room (writer, size))
    return;
  g_byte_array_append (writer->buffer, data, (guint) size);
}

void
terrain_writer_put_zeros (TerrainWriter *writer,
                          gsize          size)
{
  guint old;

  if (size == 0 || !room (writer, size))
    return;
  old = writer->buffer->len;
  g_byte_array_set_size (writer->buffer, old + (guint) size);
  memset (writer->buffer->data + old, 0, size);
}

void
terrain_writer_put_u8 (TerrainWriter *writer,
                       guint8         value)
{
  terrain_writer_put_bytes (writer, &value, 1);
}

void
terrain_writer_put_u16 (TerrainWriter *writer,
                        guint16        value)
{
  guint8 b[2];

  terrain_put_le16 (b, value);
  terrain_writer_put_bytes (writer, b, sizeof b);
}

void
terrain_writer_put_u32 (TerrainWriter *writer,
                        guint32        value)
{
  guint8 b[4];

  terrain_put_le32 (b, value);
  terrain_writer_put_bytes (writer, b, sizeof b);
}

void
terrain_writer_put_u64 (TerrainWriter *writer,
                        guint64        value)
{
  terrain_writer_put_u32 (writer, (guint32) value);
  terrain_writer_put_u32 (writer, (guint32) (value >> 32));
}

void
terrain_writer_put_f32 (TerrainWriter *writer,
                        gfloat         value)
{
  guint32 u;

  memcpy (&u, &value, sizeof u);
  terrain_writer_put_u32 (writer, u);
}

void
terrain_writer_put_u16_array (TerrainWriter *writer,
                              const guint16 *values,
                              gsize          count)
{
  guint old;

  if (count == 0 || count > WRITER_MAX_SIZE / 2 || !room (writer, count * 2))
    {
      if (count != 0)
        writer->overflow = TRUE;
      return;
    }
  old = writer->buffer->len;
  g_byte_array_set_size (writer->buffer, old + (guint) (count * 2));
  for (gsize i = 0; i < count; i++)
    terrain_put_le16 (writer->buffer->data + old + 2 * i, values[i]);
}

gboolean
terrain_writer_patch_bytes (TerrainWriter *writer,
                            gsize          offset,
                            const guint8  *data,
                            gsize          size)
{
  if (offset > writer->buffer->len || size > writer->buffer->len - offset)
    {
      /* A patch outside what was written is a bug in the format code. */
      g_critical ("%s: patch of %" G_GSIZE_FORMAT " bytes at %" G_GSIZE_FORMAT
                  " lies outside the %u bytes written",
                  writer->section, size, offset, writer->buffer->len);
      writer->overflow = TRUE;
      return FALSE;
    }
  if (size > 0)
    memcpy (writer->buffer->data + offset, data, size);
  return TRUE;
}

gboolean
terrain_writer_patch_u32 (TerrainWriter *writer,
                          gsize          offset,
                          guint32        value)
{
  guint8 b[4];

  terrain_put_le32 (b, value);
  return terrain_writer_patch_bytes (writer, offset, b, sizeof b);
}

/* Returns the written bytes and releases the writer; on overflow sets
 * TERRAIN_ERROR_LIMIT_EXCEEDED and returns NULL. */
GBytes *
terrain_writer_finish (TerrainWriter  *writer,
                       GError        **error)
{
  if (writer->overflow)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "%s: output would exceed %" G_GSIZE_FORMAT " bytes, the largest "
                   "size 32-bit file offsets can address",
                   writer->section, WRITER_MAX_SIZE);
      terrain_writer_clear (writer);
      return NULL;
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&writer->buffer));
}
