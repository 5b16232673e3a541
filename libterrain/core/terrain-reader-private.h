/* terrain-reader-private.h: bounded little-endian reader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * TerrainReader is the only code in libterrain that touches the bytes of an
 * input buffer. Every read is checked against the end of the buffer; a failed
 * read sets a TERRAIN_ERROR_TRUNCATED error naming the section, the byte offset
 * and what was being read, and leaves the position unchanged.
 *
 * Offsets reported in errors are absolute: a reader over a part of a file
 * (terrain_reader_sub()) adds its base offset.
 */
typedef struct
{
  const guint8 *data;
  gsize         size;
  gsize         pos;
  goffset       base;     /* absolute offset of data[0] in the file */
  const char   *section;  /* static string naming the section, for errors */
} TerrainReader;

void          terrain_reader_init        (TerrainReader  *reader,
                                          GBytes         *bytes,
                                          const char     *section);
void          terrain_reader_init_data   (TerrainReader  *reader,
                                          const guint8   *data,
                                          gsize           size,
                                          goffset         base,
                                          const char     *section);
gsize         terrain_reader_get_size    (const TerrainReader *reader);
gsize         terrain_reader_tell        (const TerrainReader *reader);
gsize         terrain_reader_remaining   (const TerrainReader *reader);
goffset       terrain_reader_abs_offset  (const TerrainReader *reader);
gboolean      terrain_reader_seek        (TerrainReader  *reader,
                                          gsize           pos,
                                          GError        **error);
gboolean      terrain_reader_skip        (TerrainReader  *reader,
                                          gsize           count,
                                          GError        **error);
gboolean      terrain_reader_check_span  (const TerrainReader *reader,
                                          guint64         offset,
                                          guint64         length,
                                          const char     *what,
                                          GError        **error);
gboolean      terrain_reader_sub         (const TerrainReader *reader,
                                          guint64         offset,
                                          guint64         length,
                                          const char     *section,
                                          TerrainReader  *sub,
                                          GError        **error);
gboolean      terrain_reader_read_u8     (TerrainReader  *reader,
                                          guint8         *value,
                                          GError        **error);
gboolean      terrain_reader_read_u16    (TerrainReader  *reader,
                                          guint16        *value,
                                          GError        **error);
gboolean      terrain_reader_read_u32    (TerrainReader  *reader,
                                          guint32        *value,
                                          GError        **error);
gboolean      terrain_reader_read_u64    (TerrainReader  *reader,
                                          guint64        *value,
                                          GError        **error);
gboolean      terrain_reader_read_i16    (TerrainReader  *reader,
                                          gint16         *value,
                                          GError        **error);
gboolean      terrain_reader_read_i32    (TerrainReader  *reader,
                                          gint32         *value,
                                          GError        **error);
gboolean      terrain_reader_read_f32    (TerrainReader  *reader,
                                          gfloat         *value,
                                          GError        **error);
gboolean      terrain_reader_read_be_u16 (TerrainReader  *reader,
                                          guint16        *value,
                                          GError        **error);
gboolean      terrain_reader_read_be_u32 (TerrainReader  *reader,
                                          guint32        *value,
                                          GError        **error);
gboolean      terrain_reader_peek_bytes  (TerrainReader  *reader,
                                          gsize           count,
                                          const guint8  **data,
                                          GError        **error);
gboolean      terrain_reader_read_bytes  (TerrainReader  *reader,
                                          gsize           count,
                                          const guint8  **data,
                                          GError        **error);
gboolean      terrain_reader_copy_bytes  (TerrainReader  *reader,
                                          gsize           count,
                                          guint8         *dest,
                                          GError        **error);
gboolean      terrain_reader_read_u16_array (TerrainReader *reader,
                                             gsize          count,
                                             guint16       *dest,
                                             GError       **error);

/* Little-endian accessors for buffers the library owns and has sized itself
 * (model arrays), never for input buffers: those go through TerrainReader. */
static inline guint16
terrain_get_le16 (const guint8 *p)
{
  return (guint16) (p[0] | (p[1] << 8));
}

static inline guint32
terrain_get_le32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
}

static inline void
terrain_put_le16 (guint8  *p,
                  guint16  v)
{
  p[0] = v & 0xff;
  p[1] = v >> 8;
}

static inline void
terrain_put_le32 (guint8  *p,
                  guint32  v)
{
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
  p[2] = (v >> 16) & 0xff;
  p[3] = (v >> 24) & 0xff;
}

G_END_DECLS
