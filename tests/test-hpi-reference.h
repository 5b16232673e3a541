/* test-hpi-reference.h: an HPI encoder independent of the library's
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Archives built from field-notes.md alone (test-hpi-reference.c), so that
 * test-hpi.c does not check the reader only against the library's writer.
 */

#pragma once

#include "libterrain.h"

G_BEGIN_DECLS

typedef struct
{
  const char *path;
  TerrainHpiCompression method;
  gboolean encrypt;
  GBytes *contents;

  /* Filled by the builder. */
  gsize entry_offset;
  gsize name_offset;
  gsize record_offset;
  gsize data_offset;
} RefFile;

/* The files every archive test packs: each compression, encrypted or not. */

typedef struct
{
  RefFile files[8];
  guint n;
} RefSet;

/* Obfuscation: plain = cipher XOR (position XOR key), from byte 20 on. */
void
ref_obfuscate (guint8  *data,
               gsize    size,
               guint32  key);

/* A decoder written from the description: a 4096-byte ring written from
 * position 1, tags LSB first, u16 = ring offset << 4 | (length - 2). */
gssize
ref_lz77_decode (const guint8 *in,
                 gsize         n,
                 guint8       *out,
                 gsize         capacity);

/* An encoder unlike the library's: at each byte it tries a fixed list of
 * distances and takes the longest match (2 to 17 bytes). */
GByteArray *
ref_lz77_encode (const guint8 *in,
                 gsize         n);

/* Builds an archive holding @files; @gap junk bytes between the header and
 * the directory. The offsets of each file's structures are written back
 * into @files (before obfuscation, which does not move anything). */
GBytes *
ref_build (RefFile *files,
           guint    n,
           guint32  key,
           gsize    gap);

/* Contents with long repeats (some 4000 bytes back, across the ring's wrap),
 * runs, and noise. */
GBytes *
make_contents (gsize  size,
               guint  seed);

void        ref_set_init  (RefSet *set);
void        ref_set_clear (RefSet *set);

/* Asserts @archive lists and reads every one of @files; that saving
 * @archive gives @bytes again. */
void
assert_archive_holds (TerrainHpiArchive *archive,
                      const RefFile     *files,
                      guint              n);

void
assert_round_trip (TerrainHpiArchive *archive,
                   GBytes            *bytes);

G_END_DECLS
