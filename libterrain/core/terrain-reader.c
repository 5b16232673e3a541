/* terrain-reader.c: bounded little-endian reader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-reader-private.h"
#include "terrain-error.h"

void
terrain_reader_init (TerrainReader *reader,
                     GBytes        *bytes,
                     const char    *section)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  terrain_reader_init_data (reader, data, size, 0, section);
}

void
terrain_reader_init_data (TerrainReader *reader,
                          const guint8  *data,
                          gsize          size,
                          goffset        base,
                          const char    *section)
{
  g_assert (reader != NULL);
  g_assert (data != NULL || size == 0);

  reader->data = data;
  reader->size = size;
  reader->pos = 0;
  reader->base = base;
  reader->section = section != NULL ? section : "data";
}

gsize
terrain_reader_get_size (const TerrainReader *reader)
{
  return reader->size;
}

gsize
terrain_reader_tell (const TerrainReader *reader)
{
  return reader->pos;
}

gsize
terrain_reader_remaining (const TerrainReader *reader)
{
  return reader->size - reader->pos;
}

goffset
terrain_reader_abs_offset (const TerrainReader *reader)
{
  return reader->base + (goffset) reader->pos;
}

static gboolean
set_truncated (const TerrainReader  *reader,
               gsize                 want,
               const char           *what,
               GError              **error)
{
  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
               "%s: truncated at byte offset %" G_GOFFSET_FORMAT
               ": %s needs %" G_GSIZE_FORMAT " bytes, %" G_GSIZE_FORMAT " remain",
               reader->section, terrain_reader_abs_offset (reader), what,
               want, terrain_reader_remaining (reader));
  return FALSE;
}

static inline gboolean
ensure (const TerrainReader  *reader,
        gsize                 want,
        const char           *what,
        GError              **error)
{
  if (G_LIKELY (reader->size - reader->pos >= want))
    return TRUE;
  return set_truncated (reader, want, what, error);
}

gboolean
terrain_reader_seek (TerrainReader  *reader,
                     gsize           pos,
                     GError        **error)
{
  if (pos > reader->size)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "%s: offset %" G_GOFFSET_FORMAT " lies beyond the end of the data "
                   "(%" G_GSIZE_FORMAT " bytes from offset %" G_GOFFSET_FORMAT ")",
                   reader->section, reader->base + (goffset) pos, reader->size, reader->base);
      return FALSE;
    }
  reader->pos = pos;
  return TRUE;
}

gboolean
terrain_reader_skip (TerrainReader  *reader,
                     gsize           count,
                     GError        **error)
{
  if (!ensure (reader, count, "skipped bytes", error))
    return FALSE;
  reader->pos += count;
  return TRUE;
}

/*
 * terrain_reader_check_span:
 *
 * Checks that [offset, offset + length) lies inside the reader's data.
 * Offsets are relative to the reader's data. Sets TERRAIN_ERROR_OUT_OF_RANGE
 * when the span starts past the end, TERRAIN_ERROR_TRUNCATED when it starts
 * inside and runs past the end.
 */
gboolean
terrain_reader_check_span (const TerrainReader  *reader,
                           guint64               offset,
                           guint64               length,
                           const char           *what,
                           GError              **error)
{
  guint64 end;

  if (offset > reader->size)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "%s: %s starts at byte offset %" G_GUINT64_FORMAT
                   ", beyond the end of the data (%" G_GSIZE_FORMAT " bytes)",
                   reader->section, what, (guint64) reader->base + offset, reader->size);
      return FALSE;
    }

  if (!g_uint64_checked_add (&end, offset, length) || end > reader->size)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "%s: %s at byte offset %" G_GUINT64_FORMAT " needs %" G_GUINT64_FORMAT
                   " bytes, only %" G_GUINT64_FORMAT " remain",
                   reader->section, what, (guint64) reader->base + offset, length,
                   (guint64) (reader->size - offset));
      return FALSE;
    }

  return TRUE;
}

gboolean
terrain_reader_sub (const TerrainReader  *reader,
                    guint64               offset,
                    guint64               length,
                    const char           *section,
                    TerrainReader        *sub,
                    GError              **error)
{
  if (!terrain_reader_check_span (reader, offset, length, section, error))
    return FALSE;

  terrain_reader_init_data (sub, reader->data + offset, (gsize) length,
                            reader->base + (goffset) offset, section);
  return TRUE;
}

gboolean
terrain_reader_read_u8 (TerrainReader  *reader,
                        guint8         *value,
                        GError        **error)
{
  if (!ensure (reader, 1, "u8", error))
    return FALSE;
  *value = reader->data[reader->pos];
  reader->pos += 1;
  return TRUE;
}

gboolean
terrain_reader_read_u16 (TerrainReader  *reader,
                         guint16        *value,
                         GError        **error)
{
  if (!ensure (reader, 2, "u16", error))
    return FALSE;
  *value = terrain_get_le16 (reader->data + reader->pos);
  reader->pos += 2;
  return TRUE;
}

gboolean
terrain_reader_read_u32 (TerrainReader  *reader,
                         guint32        *value,
                         GError        **error)
{
  if (!ensure (reader, 4, "u32", error))
    return FALSE;
  *value = terrain_get_le32 (reader->data + reader->pos);
  reader->pos += 4;
  return TRUE;
}

gboolean
terrain_reader_read_u64 (TerrainReader  *reader,
                         guint64        *value,
                         GError        **error)
{
  const guint8 *p;

  if (!ensure (reader, 8, "u64", error))
    return FALSE;
  p = reader->data + reader->pos;
  *value = (guint64) terrain_get_le32 (p) | ((guint64) terrain_get_le32 (p + 4) << 32);
  reader->pos += 8;
  return TRUE;
}

gboolean
terrain_reader_read_i16 (TerrainReader  *reader,
                         gint16         *value,
                         GError        **error)
{
  guint16 u;

  if (!terrain_reader_read_u16 (reader, &u, error))
    return FALSE;
  *value = (gint16) u;
  return TRUE;
}

gboolean
terrain_reader_read_i32 (TerrainReader  *reader,
                         gint32         *value,
                         GError        **error)
{
  guint32 u;

  if (!terrain_reader_read_u32 (reader, &u, error))
    return FALSE;
  *value = (gint32) u;
  return TRUE;
}

gboolean
terrain_reader_read_f32 (TerrainReader  *reader,
                         gfloat         *value,
                         GError        **error)
{
  guint32 u;

  if (!terrain_reader_read_u32 (reader, &u, error))
    return FALSE;
  memcpy (value, &u, sizeof *value);
  return TRUE;
}

gboolean
terrain_reader_read_be_u16 (TerrainReader  *reader,
                            guint16        *value,
                            GError        **error)
{
  const guint8 *p;

  if (!ensure (reader, 2, "big-endian u16", error))
    return FALSE;
  p = reader->data + reader->pos;
  *value = (guint16) ((p[0] << 8) | p[1]);
  reader->pos += 2;
  return TRUE;
}

gboolean
terrain_reader_read_be_u32 (TerrainReader  *reader,
                            guint32        *value,
                            GError        **error)
{
  const guint8 *p;

  if (!ensure (reader, 4, "big-endian u32", error))
    return FALSE;
  p = reader->data + reader->pos;
  *value = ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
  reader->pos += 4;
  return TRUE;
}

/* Borrows @count bytes at the current position without advancing. The pointer
 * stays valid as long as the underlying buffer does. */
gboolean
terrain_reader_peek_bytes (TerrainReader  *reader,
                           gsize           count,
                           const guint8  **data,
                           GError        **error)
{
  if (!ensure (reader, count, "byte block", error))
    return FALSE;
  *data = reader->data + reader->pos;
  return TRUE;
}

gboolean
terrain_reader_read_bytes (TerrainReader  *reader,
                           gsize           count,
                           const guint8  **data,
                           GError        **error)
{
  if (!terrain_reader_peek_bytes (reader, count, data, error))
    return FALSE;
  reader->pos += count;
  return TRUE;
}

gboolean
terrain_reader_copy_bytes (TerrainReader  *reader,
                           gsize           count,
                           guint8         *dest,
                           GError        **error)
{
  const guint8 *src;

  if (!terrain_reader_read_bytes (reader, count, &src, error))
    return FALSE;
  if (count > 0)
    memcpy (dest, src, count);
  return TRUE;
}

gboolean
terrain_reader_read_u16_array (TerrainReader  *reader,
                               gsize           count,
                               guint16        *dest,
                               GError        **error)
{
  const guint8 *src;

  if (count > G_MAXSIZE / 2)
    return set_truncated (reader, G_MAXSIZE, "u16 array", error);
  if (!terrain_reader_read_bytes (reader, count * 2, &src, error))
    return FALSE;
  for (gsize i = 0; i < count; i++)
    dest[i] = terrain_get_le16 (src + 2 * i);
  return TRUE;
}
