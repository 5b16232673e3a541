/* terrain-writer-private.h: little-endian writer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * TerrainWriter appends little-endian values to a growing buffer and patches
 * values at earlier offsets (for pointers written before their targets).
 * File formats here address their contents with 32-bit offsets, so the writer
 * refuses to grow past 4 GiB; the first failure is remembered and reported by
 * terrain_writer_finish(), so callers can write a whole structure and check
 * once.
 */
typedef struct
{
  GByteArray *buffer;
  const char *section;
  gboolean    overflow;
} TerrainWriter;

void      terrain_writer_init        (TerrainWriter *writer,
                                      gsize          reserve);
void      terrain_writer_init_copy   (TerrainWriter *writer,
                                      const guint8  *data,
                                      gsize          size);
void      terrain_writer_clear       (TerrainWriter *writer);
gsize     terrain_writer_tell        (const TerrainWriter *writer);
void      terrain_writer_set_section (TerrainWriter *writer,
                                      const char    *section);
void      terrain_writer_put_u8      (TerrainWriter *writer,
                                      guint8         value);
void      terrain_writer_put_u16     (TerrainWriter *writer,
                                      guint16        value);
void      terrain_writer_put_u32     (TerrainWriter *writer,
                                      guint32        value);
void      terrain_writer_put_u64     (TerrainWriter *writer,
                                      guint64        value);
void      terrain_writer_put_f32     (TerrainWriter *writer,
                                      gfloat         value);
void      terrain_writer_put_bytes   (TerrainWriter *writer,
                                      const guint8  *data,
                                      gsize          size);
void      terrain_writer_put_zeros   (TerrainWriter *writer,
                                      gsize          size);
void      terrain_writer_put_u16_array (TerrainWriter *writer,
                                        const guint16 *values,
                                        gsize          count);
gboolean  terrain_writer_patch_u32   (TerrainWriter *writer,
                                      gsize          offset,
                                      guint32        value);
gboolean  terrain_writer_patch_bytes (TerrainWriter *writer,
                                      gsize          offset,
                                      const guint8  *data,
                                      gsize          size);
GBytes   *terrain_writer_finish      (TerrainWriter *writer,
                                      GError       **error);

G_END_DECLS
