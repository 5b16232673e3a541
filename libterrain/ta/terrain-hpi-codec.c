/* terrain-hpi-codec.c: the LZ77 variant of HPI chunks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-hpi-private.h"
#include "core/terrain-reader-private.h"

/*
 * field-notes.md, "Total Annihilation ecosystem": a 4 KiB window; a tag byte
 * announces the next eight items, least significant bit first: 0 a literal
 * byte, 1 a little-endian u16 match = offset << 4 | (length - 2). The offset
 * is a position in the 4096-byte ring the decoder writes every output byte
 * to, starting at position 1; offset 0 ends the chunk. So a match reaches
 * back at most 4095 bytes, copies 2 to 17 bytes one at a time (overlapping
 * copies repeat), and the ring position 0 can never start a match.
 */

#define WINDOW_MASK     (HPI_LZ77_WINDOW - 1)
#define MIN_MATCH       3       /* a 2-byte match costs as much as 2 literals */
#define MAX_MATCH       17
#define HASH_BITS       13
#define HASH_SIZE       (1 << HASH_BITS)
#define MAX_CHAIN       48

gboolean
terrain_hpi_lz77_decompress (const guint8  *in,
                             gsize          in_size,
                             guint8        *out,
                             gsize          out_size,
                             gsize         *in_used,
                             const char   **why)
{
  TerrainReader reader;
  guint8 window[HPI_LZ77_WINDOW] = { 0 };
  guint write = 1;
  gsize written = 0;
  guint8 tags;
  guint bit = 1;

  terrain_reader_init_data (&reader, in, in_size, 0, "LZ77");
  if (!terrain_reader_read_u8 (&reader, &tags, NULL))
    {
      *why = "the data ends before its first tag byte";
      return FALSE;
    }

  for (;;)
    {
      if ((tags & bit) == 0)
        {
          guint8 byte;

          if (!terrain_reader_read_u8 (&reader, &byte, NULL))
            {
              *why = "the data ends inside a literal, before the end marker";
              return FALSE;
            }
          if (written >= out_size)
            {
              *why = "it decodes to more bytes than the chunk declares";
              return FALSE;
            }
          out[written++] = byte;
          window[write] = byte;
          write = (write + 1) & WINDOW_MASK;
        }
      else
        {
          guint16 word;
          guint from, length;

          if (!terrain_reader_read_u16 (&reader, &word, NULL))
            {
              *why = "the data ends inside a match, before the end marker";
              return FALSE;
            }
          from = word >> 4;
          if (from == 0)
            break;
          length = (word & 0x0f) + 2;
          if (length > out_size - written)
            {
              *why = "it decodes to more bytes than the chunk declares";
              return FALSE;
            }
          for (guint k = 0; k < length; k++)
            {
              guint8 byte = window[from];

              out[written++] = byte;
              window[write] = byte;
              from = (from + 1) & WINDOW_MASK;
              write = (write + 1) & WINDOW_MASK;
            }
        }

      bit <<= 1;
      if (bit == 0x100)
        {
          bit = 1;
          if (!terrain_reader_read_u8 (&reader, &tags, NULL))
            {
              *why = "the data ends before a tag byte, without an end marker";
              return FALSE;
            }
        }
    }

  if (written != out_size)
    {
      *why = "it decodes to fewer bytes than the chunk declares";
      return FALSE;
    }
  if (in_used != NULL)
    *in_used = terrain_reader_tell (&reader);
  return TRUE;
}

static inline guint
hash3 (const guint8 *p)
{
  return ((guint) p[0] << 10 ^ (guint) p[1] << 5 ^ p[2]) & (HASH_SIZE - 1);
}

typedef struct
{
  GByteArray *out;
  gsize tag_at;    /* index of the current tag byte in out */
  guint bit;       /* next tag bit; 0x100 when a new tag byte is due */
} Emitter;

static void
emit_item (Emitter      *e,
           gboolean      match,
           const guint8 *bytes,
           guint         n)
{
  if (e->bit == 0x100)
    {
      guint8 zero = 0;

      e->tag_at = e->out->len;
      g_byte_array_append (e->out, &zero, 1);
      e->bit = 1;
    }
  if (match)
    e->out->data[e->tag_at] |= (guint8) e->bit;
  g_byte_array_append (e->out, bytes, n);
  e->bit <<= 1;
}

/* Greedy LZ77 with hash chains over the last 4095 bytes. Input indices map
 * to ring positions (index + 1) mod 4096, as the decoder writes them. */
void
terrain_hpi_lz77_compress (const guint8 *in,
                           gsize         in_size,
                           GByteArray   *out)
{
  g_autofree gint32 *head = g_new (gint32, HASH_SIZE);
  g_autofree gint32 *prev = g_new (gint32, MAX (in_size, 1));
  Emitter e = { out, 0, 0x100 };
  gsize i = 0;
  guint8 end[2] = { 0, 0 };

  g_assert (in_size <= G_MAXINT32);

  for (guint h = 0; h < HASH_SIZE; h++)
    head[h] = -1;

  while (i < in_size)
    {
      guint best_length = 0;
      gsize best_from = 0;

      if (i + MIN_MATCH <= in_size)
        {
          gint32 candidate = head[hash3 (in + i)];
          guint chain = 0;

          while (candidate >= 0 && chain++ < MAX_CHAIN && i - (gsize) candidate < HPI_LZ77_WINDOW)
            {
              gsize j = (gsize) candidate;
              guint length = 0;
              guint limit = (guint) MIN (MAX_MATCH, in_size - i);

              /* Ring position 0 would read as the end marker. */
              if (((j + 1) & WINDOW_MASK) != 0)
                {
                  while (length < limit && in[j + length] == in[i + length])
                    length++;
                  if (length > best_length)
                    {
                      best_length = length;
                      best_from = j;
                      if (length == MAX_MATCH)
                        break;
                    }
                }
              candidate = prev[j];
            }
        }

      if (best_length >= MIN_MATCH)
        {
          guint16 word = (guint16) ((((best_from + 1) & WINDOW_MASK) << 4) | (best_length - 2));
          guint8 bytes[2] = { word & 0xff, word >> 8 };

          emit_item (&e, TRUE, bytes, 2);
        }
      else
        {
          best_length = 1;
          emit_item (&e, FALSE, in + i, 1);
        }

      for (guint k = 0; k < best_length; k++, i++)
        if (i + MIN_MATCH <= in_size)
          {
            guint h = hash3 (in + i);

            prev[i] = head[h];
            head[h] = (gint32) i;
          }
    }

  emit_item (&e, TRUE, end, 2);
}
