/* terrain-hpi-private.h: HPI layout constants and codecs shared by the
 * archive reader and the writer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* field-notes.md, "Total Annihilation ecosystem". */
#define HPI_HEADER_SIZE        20
#define HPI_VERSION            0x00010000u
#define HPI_VERSION_2          0x00020000u      /* TA: Kingdoms */
#define HPI_BANK               0x4B4E4142u      /* "BANK": a saved game */
#define HPI_DIR_RECORD_SIZE    8                /* u32 entry count, u32 entries offset */
#define HPI_ENTRY_SIZE         9                /* u32 name, u32 data, u8 is-directory */
#define HPI_FILE_RECORD_SIZE   9                /* u32 data offset, u32 size, u8 method */
#define HPI_CHUNK_HEADER_SIZE  19               /* "SQSH", u8 version, u8 method, u8 encrypted,
                                                   u32 compressed, u32 decompressed, u32 sum */
#define HPI_CHUNK_VERSION      2
#define HPI_MAX_NAME           1024

#define HPI_LZ77_WINDOW        4096

/* The byte XORed with (position XOR key byte) for a non-zero header key k:
 * (k << 2) | (k >> 6), over 8 bits. */
static inline guint8
terrain_hpi_key_byte (guint32 header_key)
{
  return (guint8) (((header_key << 2) | (header_key >> 6)) & 0xff);
}

/* Obfuscates or clears @size bytes that sit at absolute file offset
 * @position (the operation is its own inverse). */
static inline void
terrain_hpi_xor (guint8 *data,
                 gsize   size,
                 guint64 position,
                 guint8  key)
{
  for (gsize i = 0; i < size; i++)
    data[i] ^= (guint8) ((position + i) ^ key);
}

/* Chunk-level encryption: stored byte b decodes as (b - i) XOR i. */
static inline void
terrain_hpi_chunk_decrypt (guint8 *data,
                           gsize   size)
{
  for (gsize i = 0; i < size; i++)
    data[i] = (guint8) ((guint8) (data[i] - (guint8) i) ^ (guint8) i);
}

static inline void
terrain_hpi_chunk_encrypt (guint8 *data,
                           gsize   size)
{
  for (gsize i = 0; i < size; i++)
    data[i] = (guint8) ((guint8) (data[i] ^ (guint8) i) + (guint8) i);
}

static inline guint32
terrain_hpi_checksum (const guint8 *data,
                      gsize         size)
{
  guint32 sum = 0;

  for (gsize i = 0; i < size; i++)
    sum += data[i];
  return sum;
}

gboolean terrain_hpi_lz77_decompress (const guint8  *in,
                                      gsize          in_size,
                                      guint8        *out,
                                      gsize          out_size,
                                      gsize         *in_used,
                                      const char   **why);
void     terrain_hpi_lz77_compress   (const guint8  *in,
                                      gsize          in_size,
                                      GByteArray    *out);

G_END_DECLS
