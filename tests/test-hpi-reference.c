/* test-hpi-reference.c: an HPI encoder independent of the library's
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Written from field-notes.md ("Total Annihilation ecosystem"): its own
 * directory layout (records first, names last, entries unsorted, a gap
 * before the directory, data in reverse order), its own obfuscation, its
 * own LZ77 encoder (fixed candidate distances, overlapping copies, matches
 * across the 4 KiB ring's wrap) and an independent LZ77 decoder to check
 * the library's encoder.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <zlib.h>

#include <glib/gstdio.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"
#include "terrain-test-util.h"
#include "ta/terrain-hpi-private.h"
#include "test-hpi-reference.h"

/* ------------------------------------------------------------------------ */
/* Independent reference codec                                               */

static guint8
ref_key_byte (guint32 key)
{
  guint32 k = (key * 4) | (key >> 6);

  return (guint8) (k & 0xff);
}

/* Obfuscation: plain = cipher XOR (position XOR key), from byte 20 on. */
void
ref_obfuscate (guint8  *data,
               gsize    size,
               guint32  key)
{
  guint8 k = ref_key_byte (key);

  for (gsize pos = 20; pos < size; pos++)
    data[pos] = data[pos] ^ (guint8) ((pos & 0xff) ^ k);
}

/* A decoder written from the description: a 4096-byte ring written from
 * position 1, tags LSB first, u16 = ring offset << 4 | (length - 2). */
gssize
ref_lz77_decode (const guint8 *in,
                 gsize         n,
                 guint8       *out,
                 gsize         capacity)
{
  guint8 ring[4096];
  gsize ip = 0, op = 0;
  guint rp = 1;

  memset (ring, 0, sizeof ring);
  for (;;)
    {
      guint8 tags;

      if (ip >= n)
        return -1;
      tags = in[ip++];
      for (guint b = 0; b < 8; b++)
        {
          if (!(tags & (1u << b)))
            {
              if (ip >= n || op >= capacity)
                return -1;
              out[op++] = ring[rp] = in[ip++];
              rp = (rp + 1) % 4096;
            }
          else
            {
              guint word, src, len;

              if (ip + 2 > n)
                return -1;
              word = in[ip] | (in[ip + 1] << 8);
              ip += 2;
              src = word >> 4;
              if (src == 0)
                return (gssize) op;
              len = (word & 15) + 2;
              for (guint i = 0; i < len; i++)
                {
                  if (op >= capacity)
                    return -1;
                  out[op++] = ring[rp] = ring[src];
                  src = (src + 1) % 4096;
                  rp = (rp + 1) % 4096;
                }
            }
        }
    }
}

/* An encoder unlike the library's: at each byte it tries a fixed list of
 * distances and takes the longest match (2 to 17 bytes). */
GByteArray *
ref_lz77_encode (const guint8 *in,
                 gsize         n)
{
  static const gsize distances[] = { 1, 2, 3, 4, 16, 100, 1000, 4000, 4095 };
  GByteArray *out = g_byte_array_new ();
  gsize tag_at = 0;
  guint items = 8;
  gsize i = 0;
  gboolean done = FALSE;

  while (!done)
    {
      guint8 zero = 0;
      guint best = 0;
      gsize best_distance = 0;

      if (items == 8)
        {
          tag_at = out->len;
          g_byte_array_append (out, &zero, 1);
          items = 0;
        }

      if (i == n)
        {
          guint8 end[2] = { 0, 0 };

          out->data[tag_at] |= (guint8) (1u << items);
          g_byte_array_append (out, end, 2);
          done = TRUE;
          continue;
        }

      for (guint d = 0; d < G_N_ELEMENTS (distances); d++)
        {
          gsize dist = distances[d];
          guint len = 0;

          if (dist > i || ((i - dist + 1) % 4096) == 0)
            continue;
          while (len < 17 && i + len < n && in[i + len] == in[i - dist + len])
            len++;
          if (len > best)
            {
              best = len;
              best_distance = dist;
            }
        }

      if (best >= 2)
        {
          guint src = (guint) ((i - best_distance + 1) % 4096);
          guint word = (src << 4) | (best - 2);
          guint8 bytes[2] = { word & 0xff, word >> 8 };

          out->data[tag_at] |= (guint8) (1u << items);
          g_byte_array_append (out, bytes, 2);
          i += best;
        }
      else
        {
          g_byte_array_append (out, in + i, 1);
          i++;
        }
      items++;
    }
  return out;
}

/* ------------------------------------------------------------------------ */
/* Independent reference archive builder                                     */

typedef struct _RefDir RefDir;
struct _RefDir
{
  char *name;
  GPtrArray *dirs;    /* RefDir */
  GPtrArray *files;   /* RefFile, borrowed */
  gsize record_offset;
};

static RefDir *
ref_dir_new (const char *name)
{
  RefDir *dir = g_new0 (RefDir, 1);

  dir->name = g_strdup (name);
  dir->dirs = g_ptr_array_new ();
  dir->files = g_ptr_array_new ();
  return dir;
}

static void
ref_dir_free (RefDir *dir)
{
  for (guint i = 0; i < dir->dirs->len; i++)
    ref_dir_free (g_ptr_array_index (dir->dirs, i));
  g_ptr_array_unref (dir->dirs);
  g_ptr_array_unref (dir->files);
  g_free (dir->name);
  g_free (dir);
}

static gsize
reserve (GByteArray *a,
         gsize       n)
{
  gsize at = a->len;

  g_byte_array_set_size (a, a->len + n);
  memset (a->data + at, 0, n);
  return at;
}

/* Records and entry lists first (entries in reverse order), file records,
 * then names, then subdirectories. */
static void
ref_layout (RefDir     *dir,
            GByteArray *a)
{
  guint n = dir->dirs->len + dir->files->len;
  gsize entries;
  g_autofree gsize *name_at = g_new0 (gsize, n + 1);

  dir->record_offset = reserve (a, 8);
  entries = reserve (a, 9 * (gsize) n);
  terrain_test_set_u32 (a->data + dir->record_offset, n);
  terrain_test_set_u32 (a->data + dir->record_offset + 4, (guint32) entries);

  for (guint i = 0; i < dir->files->len; i++)
    {
      RefFile *file = g_ptr_array_index (dir->files, i);

      file->record_offset = reserve (a, 9);
    }
  for (guint i = 0; i < n; i++)
    {
      const char *name = i < dir->files->len
        ? strrchr (((RefFile *) g_ptr_array_index (dir->files, i))->path, '/')
        : NULL;
      const char *base;

      if (i < dir->files->len)
        base = name != NULL ? name + 1 : ((RefFile *) g_ptr_array_index (dir->files, i))->path;
      else
        base = ((RefDir *) g_ptr_array_index (dir->dirs, i - dir->files->len))->name;
      name_at[i] = reserve (a, strlen (base) + 1);
      memcpy (a->data + name_at[i], base, strlen (base));
    }
  for (guint i = 0; i < dir->dirs->len; i++)
    ref_layout (g_ptr_array_index (dir->dirs, i), a);

  /* Entries, last child first. */
  for (guint i = 0; i < n; i++)
    {
      guint child = n - 1 - i;
      gsize entry = entries + 9 * (gsize) i;

      terrain_test_set_u32 (a->data + entry, (guint32) name_at[child]);
      if (child < dir->files->len)
        {
          RefFile *file = g_ptr_array_index (dir->files, child);

          file->entry_offset = entry;
          file->name_offset = name_at[child];
          terrain_test_set_u32 (a->data + entry + 4, (guint32) file->record_offset);
          a->data[entry + 8] = 0;
        }
      else
        {
          RefDir *sub = g_ptr_array_index (dir->dirs, child - dir->files->len);

          terrain_test_set_u32 (a->data + entry + 4, (guint32) sub->record_offset);
          a->data[entry + 8] = 1;
        }
    }
}

static void
ref_add_chunk (GByteArray   *a,
               const RefFile *file,
               const guint8 *data,
               gsize         length,
               guint32      *stored_size)
{
  GByteArray *payload;
  guint8 header[19];
  guint32 sum = 0;

  if (file->method == TERRAIN_HPI_COMPRESSION_LZ77)
    payload = ref_lz77_encode (data, length);
  else
    {
      uLongf bound = compressBound (length);

      payload = g_byte_array_sized_new (bound);
      g_byte_array_set_size (payload, bound);
      g_assert_cmpint (compress2 (payload->data, &bound, data, length, 9), ==, Z_OK);
      g_byte_array_set_size (payload, bound);
    }
  if (file->encrypt)
    for (guint i = 0; i < payload->len; i++)
      payload->data[i] = (guint8) (((payload->data[i] ^ (i & 0xff)) + (i & 0xff)) & 0xff);
  for (guint i = 0; i < payload->len; i++)
    sum += payload->data[i];

  memcpy (header, "SQSH", 4);
  header[4] = 2;
  header[5] = (guint8) file->method;
  header[6] = file->encrypt ? 1 : 0;
  header[7] = payload->len & 0xff;
  header[8] = (payload->len >> 8) & 0xff;
  header[9] = (payload->len >> 16) & 0xff;
  header[10] = payload->len >> 24;
  header[11] = length & 0xff;
  header[12] = (length >> 8) & 0xff;
  header[13] = (length >> 16) & 0xff;
  header[14] = (guint8) (length >> 24);
  header[15] = sum & 0xff;
  header[16] = (sum >> 8) & 0xff;
  header[17] = (sum >> 16) & 0xff;
  header[18] = sum >> 24;
  g_byte_array_append (a, header, 19);
  g_byte_array_append (a, payload->data, payload->len);
  *stored_size = 19 + payload->len;
  g_byte_array_unref (payload);
}

static void
ref_add_data (GByteArray *a,
              RefFile    *file)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (file->contents, &size);
  guint n_chunks = (guint) ((size + 65535) / 65536);
  gsize table;

  file->data_offset = a->len;
  if (file->method == TERRAIN_HPI_COMPRESSION_NONE)
    {
      g_byte_array_append (a, data, size);
      return;
    }
  table = reserve (a, 4 * (gsize) n_chunks);
  for (guint k = 0; k < n_chunks; k++)
    {
      guint32 stored;

      ref_add_chunk (a, file, data + (gsize) k * 65536, MIN (65536, size - (gsize) k * 65536),
                     &stored);
      terrain_test_set_u32 (a->data + table + 4 * k, stored);
    }
}

/* Builds an archive holding @files; @gap junk bytes between the header and
 * the directory. The offsets of each file's structures are written back
 * into @files (before obfuscation, which does not move anything). */
GBytes *
ref_build (RefFile *files,
           guint    n,
           guint32  key,
           gsize    gap)
{
  RefDir *root = ref_dir_new ("");
  GByteArray *a = g_byte_array_new ();
  gsize directory_end;

  for (guint i = 0; i < n; i++)
    {
      g_auto(GStrv) names = g_strsplit (files[i].path, "/", -1);
      guint depth = g_strv_length (names);
      RefDir *dir = root;

      for (guint d = 0; d + 1 < depth; d++)
        {
          RefDir *found = NULL;

          for (guint k = 0; k < dir->dirs->len; k++)
            if (strcmp (((RefDir *) g_ptr_array_index (dir->dirs, k))->name, names[d]) == 0)
              found = g_ptr_array_index (dir->dirs, k);
          if (found == NULL)
            {
              found = ref_dir_new (names[d]);
              g_ptr_array_add (dir->dirs, found);
            }
          dir = found;
        }
      g_ptr_array_add (dir->files, &files[i]);
    }

  reserve (a, 20);
  for (gsize i = 0; i < gap; i++)
    {
      guint8 junk = (guint8) (0xC0 + i);

      g_byte_array_append (a, &junk, 1);
    }
  ref_layout (root, a);
  directory_end = a->len;

  /* Data in reverse file order. */
  for (guint i = n; i > 0; i--)
    ref_add_data (a, &files[i - 1]);
  for (guint i = 0; i < n; i++)
    terrain_test_set_u32 (a->data + files[i].record_offset, (guint32) files[i].data_offset);
  for (guint i = 0; i < n; i++)
    {
      terrain_test_set_u32 (a->data + files[i].record_offset + 4,
                            (guint32) g_bytes_get_size (files[i].contents));
      a->data[files[i].record_offset + 8] = (guint8) files[i].method;
    }

  memcpy (a->data, "HAPI", 4);
  terrain_test_set_u32 (a->data + 4, 0x00010000);
  terrain_test_set_u32 (a->data + 8, (guint32) directory_end);
  terrain_test_set_u32 (a->data + 12, key);
  terrain_test_set_u32 (a->data + 16, (guint32) (20 + gap));
  if (key != 0)
    ref_obfuscate (a->data, a->len, key);

  ref_dir_free (root);
  return g_byte_array_free_to_bytes (a);
}

/* Contents with long repeats (some 4000 bytes back, across the ring's wrap),
 * runs, and noise. */
GBytes *
make_contents (gsize  size,
               guint  seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  guint8 *data = g_malloc (MAX (size, 1));

  for (gsize i = 0; i < size; i++)
    {
      guint kind = (guint) ((i / 700) % 4);

      if (kind == 0)
        data[i] = (guint8) g_rand_int_range (rand, 0, 256);
      else if (kind == 1)
        data[i] = (guint8) (i / 50);
      else if (kind == 2 && i >= 4000)
        data[i] = data[i - 4000];
      else
        data[i] = (guint8) "terrain "[i % 8];
    }
  return g_bytes_new_take (data, size);
}

void
ref_set_init (RefSet *set)
{
  RefFile files[] = {
    { "readme.txt", TERRAIN_HPI_COMPRESSION_NONE, FALSE,
      g_bytes_new_static ("Maps for testing.\r\n", 19) },
    { "maps/big.bin", TERRAIN_HPI_COMPRESSION_LZ77, FALSE, make_contents (150000, 1) },
    { "maps/zero.bin", TERRAIN_HPI_COMPRESSION_ZLIB, FALSE, g_bytes_new_static ("", 0) },
    { "maps/z.dat", TERRAIN_HPI_COMPRESSION_ZLIB, TRUE, make_contents (70000, 2) },
    { "maps/exact.bin", TERRAIN_HPI_COMPRESSION_NONE, FALSE, make_contents (65536, 3) },
    { "Sub/Deeper/enc.lz", TERRAIN_HPI_COMPRESSION_LZ77, TRUE, make_contents (65537, 4) },
    { "Sub/tiny.z", TERRAIN_HPI_COMPRESSION_ZLIB, FALSE, g_bytes_new_static ("x", 1) },
  };

  memcpy (set->files, files, sizeof files);
  set->n = G_N_ELEMENTS (files);
}

void
ref_set_clear (RefSet *set)
{
  for (guint i = 0; i < set->n; i++)
    g_bytes_unref (set->files[i].contents);
}

void
assert_archive_holds (TerrainHpiArchive *archive,
                      const RefFile     *files,
                      guint              n)
{
  g_assert_cmpuint (terrain_hpi_archive_get_n_files (archive), ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) contents = NULL;
      guint index = G_MAXUINT;

      g_assert_true (terrain_hpi_archive_find (archive, files[i].path, &index));
      g_assert_cmpstr (terrain_hpi_archive_get_path (archive, index), ==, files[i].path);
      g_assert_cmpuint (terrain_hpi_archive_get_file_size (archive, index), ==,
                        g_bytes_get_size (files[i].contents));
      g_assert_cmpint (terrain_hpi_archive_get_compression (archive, index), ==, files[i].method);
      contents = terrain_hpi_archive_read_file (archive, index, &error);
      g_assert_no_error (error);
      g_assert_true (g_bytes_equal (contents, files[i].contents));
    }
}

void
assert_round_trip (TerrainHpiArchive *archive,
                   GBytes            *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (archive), &error);

  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (written, bytes));
}
