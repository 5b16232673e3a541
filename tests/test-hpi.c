/* test-hpi.c: HPI archives: reader, writer, archive paths
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * So that the reader is not tested only against the library's own writer,
 * the archives are built by an independent encoder (test-hpi-reference.c)
 * and the library's LZ77 output is checked by an independent decoder. Real
 * files are checked when the corpus is present.
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
/* Codec                                                                     */

static void
test_lz77_codec (void)
{
  static const gsize sizes[] = { 0, 1, 2, 3, 17, 18, 4095, 4096, 4097, 9000, 65536 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint seed = 0; seed < 3; seed++)
      {
        g_autoptr(GBytes) contents = NULL;
        g_autoptr(GByteArray) packed = g_byte_array_new ();
        g_autoptr(GByteArray) reference = NULL;
        const guint8 *data;
        g_autofree guint8 *out = g_malloc (sizes[s] + 1);
        const char *why = NULL;
        gsize used = 0;

        if (seed == 0)
          contents = make_contents (sizes[s], 7);
        else if (seed == 1)
          contents = g_bytes_new_take (g_malloc0 (sizes[s] + 1), sizes[s]);  /* all zero */
        else
          {
            guint8 *noise = g_malloc (sizes[s] + 1);
            g_autoptr(GRand) rand = g_rand_new_with_seed ((guint32) sizes[s]);

            for (gsize i = 0; i < sizes[s]; i++)
              noise[i] = (guint8) g_rand_int_range (rand, 0, 256);
            contents = g_bytes_new_take (noise, sizes[s]);
          }
        data = g_bytes_get_data (contents, NULL);

        /* The library's encoder, checked by the reference decoder and the
         * library's decoder. */
        terrain_hpi_lz77_compress (data, sizes[s], packed);
        g_assert_cmpint (ref_lz77_decode (packed->data, packed->len, out, sizes[s]), ==,
                         (gssize) sizes[s]);
        g_assert_cmpmem (out, sizes[s], data, sizes[s]);
        memset (out, 0xEE, sizes[s]);
        g_assert_true (terrain_hpi_lz77_decompress (packed->data, packed->len, out, sizes[s],
                                                    &used, &why));
        g_assert_cmpuint (used, ==, packed->len);
        g_assert_cmpmem (out, sizes[s], data, sizes[s]);
        if (seed == 1 && sizes[s] >= 4096)
          g_assert_cmpuint (packed->len, <, sizes[s] / 7);

        /* The reference encoder, decoded by the library. */
        if (sizes[s] <= 9000)
          {
            reference = ref_lz77_encode (data, sizes[s]);
            memset (out, 0xEE, sizes[s]);
            g_assert_true (terrain_hpi_lz77_decompress (reference->data, reference->len, out,
                                                        sizes[s], NULL, &why));
            g_assert_cmpmem (out, sizes[s], data, sizes[s]);
          }

        /* Wrong sizes and cut data are errors, never overruns. */
        if (sizes[s] > 0)
          {
            g_assert_false (terrain_hpi_lz77_decompress (packed->data, packed->len, out,
                                                         sizes[s] - 1, NULL, &why));
            g_assert_nonnull (why);
            g_assert_false (terrain_hpi_lz77_decompress (packed->data, packed->len - 1, out,
                                                         sizes[s], NULL, &why));
          }
        {
          g_autofree guint8 *bigger = g_malloc (sizes[s] + 2);

          g_assert_false (terrain_hpi_lz77_decompress (packed->data, packed->len, bigger,
                                                       sizes[s] + 1, NULL, &why));
        }
      }
}

/* ------------------------------------------------------------------------ */
/* Reading the reference archives                                            */

static void
test_read_reference (gconstpointer data)
{
  guint32 key = GPOINTER_TO_UINT (data);
  RefSet set;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainHpiArchive) archive = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autofree char *where = NULL;

  ref_set_init (&set);
  bytes = ref_build (set.files, set.n, key, 4);

  archive = terrain_hpi_archive_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_hpi_archive_get_key (archive), ==, key);
  assert_archive_holds (archive, set.files, set.n);

  /* Paths are case-insensitive, with either separator. */
  g_assert_true (terrain_hpi_archive_find (archive, "SUB\\deeper\\ENC.LZ", NULL));
  g_assert_true (terrain_hpi_archive_find (archive, "/maps/Z.DAT", NULL));
  g_assert_false (terrain_hpi_archive_find (archive, "maps", NULL));
  g_assert_false (terrain_hpi_archive_find (archive, "maps/z.da", NULL));
  {
    g_autoptr(GBytes) tiny = terrain_hpi_archive_read_path (archive, "sub/TINY.Z", &error);

    g_assert_no_error (error);
    g_assert_cmpmem (g_bytes_get_data (tiny, NULL), 1, "x", 1);
    g_assert_null (terrain_hpi_archive_read_path (archive, "sub/none", &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO);
    g_clear_error (&error);
    g_assert_null (terrain_hpi_archive_read_file (archive, 99, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
    g_clear_error (&error);
  }

  /* The document: byte-exact, described, valid. */
  assert_round_trip (archive, bytes);
  node = terrain_document_describe (TERRAIN_DOCUMENT (archive));
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (node), "files"), ==, set.n);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (node), "directories"), ==, 3);
  issues = terrain_document_validate (TERRAIN_DOCUMENT (archive));
  g_assert_cmpuint (issues->len, ==, 0);
  where = terrain_document_describe_offset (TERRAIN_DOCUMENT (archive),
                                            set.files[3].data_offset + 4 * 2 + 3);
  g_assert_cmpstr (where, ==, "chunk 0 of \"maps/z.dat\", header");
  g_free (where);
  where = terrain_document_describe_offset (TERRAIN_DOCUMENT (archive), 21);
  g_assert_cmpstr (where, ==, "between the header and the directory");
  g_free (where);
  where = terrain_document_describe_offset (TERRAIN_DOCUMENT (archive), set.files[0].name_offset);
  g_assert_true (g_str_has_prefix (where, "directory, name of entry"));

  ref_set_clear (&set);
}

/* ------------------------------------------------------------------------ */
/* Writer                                                                    */

static GBytes *
write_set (RefSet   *set,
           guint8    key,
           gboolean  encrypt)
{
  g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
  g_autoptr(GError) error = NULL;
  GBytes *bytes;

  terrain_hpi_writer_set_key (writer, key);
  terrain_hpi_writer_set_encrypt_chunks (writer, encrypt);
  for (guint i = 0; i < set->n; i++)
    g_assert_true (terrain_hpi_writer_add_file (writer, set->files[i].path,
                                                set->files[i].contents, set->files[i].method,
                                                &error));
  bytes = terrain_hpi_writer_to_bytes (writer, &error);
  g_assert_no_error (error);
  return bytes;
}

static void
test_writer (gconstpointer data)
{
  guint variant = GPOINTER_TO_UINT (data);
  guint8 key = variant & 1 ? 0xA7 : 0;
  gboolean encrypt = (variant & 2) != 0;
  RefSet set;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) plain = NULL;
  g_autoptr(TerrainHpiArchive) archive = NULL;
  g_autoptr(GError) error = NULL;

  ref_set_init (&set);
  bytes = write_set (&set, key, encrypt);
  archive = terrain_hpi_archive_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  assert_archive_holds (archive, set.files, set.n);
  assert_round_trip (archive, bytes);

  /* The same archive unkeyed: the reference obfuscation of it must give the
   * keyed one, byte for byte past the header's key field. */
  plain = write_set (&set, 0, encrypt);
  {
    gsize size = g_bytes_get_size (plain);
    g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (plain, NULL), size);

    g_assert_cmpuint (size, ==, g_bytes_get_size (bytes));
    if (key != 0)
      ref_obfuscate (copy, size, key);
    copy[12] = key;
    g_assert_cmpmem (copy, size, g_bytes_get_data (bytes, NULL), size);
  }

  /* Entries come out in case-insensitive order, at the layout real
   * archives use: root record at 20, its entries at 28. */
  {
    const guint8 *p = g_bytes_get_data (plain, NULL);

    g_assert_cmpmem (p, 4, "HAPI", 4);
    g_assert_cmpuint (p[16], ==, 20);
    g_assert_cmpuint (p[24], ==, 28);
    g_assert_cmpstr (terrain_hpi_archive_get_path (archive, 0), ==, "maps/big.bin");
    g_assert_cmpstr (terrain_hpi_archive_get_path (archive, 2), ==, "maps/z.dat");
    g_assert_cmpstr (terrain_hpi_archive_get_path (archive, 3), ==, "maps/zero.bin");
    g_assert_cmpstr (terrain_hpi_archive_get_path (archive, 4), ==, "readme.txt");
    g_assert_cmpstr (terrain_hpi_archive_get_path (archive, 5), ==, "Sub/Deeper/enc.lz");
  }

  ref_set_clear (&set);
}

static void
test_writer_errors (void)
{
  g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
  g_autoptr(GBytes) one = g_bytes_new_static ("1", 1);
  static const char * const bad[] = {
    "", "/x", "a//b", "a/", "a/../b", "./a", "c:d", "a\tb",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (terrain_hpi_writer_add_file (writer, bad[i], one,
                                                   TERRAIN_HPI_COMPRESSION_NONE, &error));
      g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    }
  {
    g_autoptr(GError) error = NULL;

    g_assert_true (terrain_hpi_writer_add_file (writer, "maps/a.tnt", one,
                                                TERRAIN_HPI_COMPRESSION_ZLIB, &error));
    g_assert_false (terrain_hpi_writer_add_file (writer, "MAPS\\A.TNT", one,
                                                 TERRAIN_HPI_COMPRESSION_ZLIB, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    g_clear_error (&error);
    g_assert_false (terrain_hpi_writer_add_file (writer, "maps/a.tnt/x", one,
                                                 TERRAIN_HPI_COMPRESSION_ZLIB, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    g_clear_error (&error);
    g_assert_false (terrain_hpi_writer_add_file (writer, "maps", one,
                                                 TERRAIN_HPI_COMPRESSION_ZLIB, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  }
}

static void
test_pack_map_and_paths (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (8, 6, &error);
  g_autoptr(TerrainOtaFile) ota = NULL;
  g_autoptr(GBytes) tnt_bytes = NULL;
  g_autoptr(GBytes) ota_bytes = NULL;
  g_autoptr(GBytes) archive_bytes = NULL;
  g_autoptr(TerrainHpiArchive) archive = NULL;
  g_autofree char *dir = g_dir_make_tmp ("terrain-hpi-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "mine.ufo", NULL);
  g_autofree char *spec = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(TerrainDocument) inner = NULL;
  g_autoptr(GBytes) written = NULL;

  g_assert_no_error (error);
  ota = terrain_ota_file_new ("Mine", &error);
  g_assert_no_error (error);
  tnt_bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (map), &error);
  ota_bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ota), &error);
  g_assert_no_error (error);

  g_assert_null (terrain_hpi_pack_map ("a/b", tnt_bytes, ota_bytes, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);

  archive_bytes = terrain_hpi_pack_map ("Mine", tnt_bytes, ota_bytes, &error);
  g_assert_no_error (error);
  archive = terrain_hpi_archive_new_from_bytes (archive_bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_hpi_archive_get_n_files (archive), ==, 2);
  g_assert_cmpstr (terrain_hpi_archive_get_path (archive, 0), ==, "maps/Mine.ota");
  g_assert_cmpstr (terrain_hpi_archive_get_path (archive, 1), ==, "maps/Mine.tnt");
  g_assert_cmpint (terrain_hpi_archive_get_compression (archive, 1), ==,
                   TERRAIN_HPI_COMPRESSION_ZLIB);
  g_assert_true (terrain_file_save_bytes (file, archive_bytes, NULL, &error));

  /* ARCHIVE:path opens the map inside, byte-identical. */
  spec = g_strdup_printf ("%s:maps/mine.TNT", path);
  inner = terrain_document_load_path (spec, TERRAIN_FORMAT_UNKNOWN, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (TERRAIN_IS_TNT_MAP (inner));
  g_assert_null (terrain_document_get_file (inner));
  written = terrain_document_save_to_bytes (inner, &error);
  g_assert_true (g_bytes_equal (written, tnt_bytes));
  g_clear_object (&inner);
  g_free (spec);

  spec = g_strdup_printf ("%s:maps\\Mine.ota", path);
  inner = terrain_document_load_path (spec, TERRAIN_FORMAT_UNKNOWN, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (TERRAIN_IS_OTA_FILE (inner));
  g_assert_cmpstr (terrain_ota_file_get_mission_name (TERRAIN_OTA_FILE (inner)), ==, "Mine");
  g_clear_object (&inner);
  g_free (spec);

  /* The split load_path() makes, on its own: the archive and the path. */
  spec = g_strdup_printf ("%s:maps/mine.TNT", path);
  {
    g_autoptr(GFile) container = NULL;
    g_autofree char *member = NULL;

    g_assert_true (terrain_document_split_archive_path (spec, &container, &member, NULL));
    g_assert_true (g_file_equal (container, file));
    g_assert_cmpstr (member, ==, "maps/mine.TNT");
    g_assert_true (terrain_document_split_archive_path (spec, NULL, NULL, NULL));
  }
  g_free (spec);
  /* Not inside an archive: an existing file, no ':', an empty member. */
  g_assert_false (terrain_document_split_archive_path (path, NULL, NULL, NULL));
  g_assert_false (terrain_document_split_archive_path ("no-colon", NULL, NULL, NULL));
  spec = g_strdup_printf ("%s:", path);
  g_assert_false (terrain_document_split_archive_path (spec, NULL, NULL, NULL));
  g_free (spec);

  /* The archive itself, by its plain path. */
  inner = terrain_document_load_path (path, TERRAIN_FORMAT_UNKNOWN, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (TERRAIN_IS_HPI_ARCHIVE (inner));
  g_clear_object (&inner);

  /* Errors: no such member, not an archive, nothing at all. */
  spec = g_strdup_printf ("%s:maps/other.tnt", path);
  g_assert_null (terrain_document_load_path (spec, TERRAIN_FORMAT_UNKNOWN, NULL, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "maps/other.tnt"));
  g_clear_error (&error);
  g_free (spec);
  {
    g_autofree char *text_path = g_build_filename (dir, "plain.txt", NULL);

    g_assert_true (g_file_set_contents (text_path, "hello", -1, NULL));
    spec = g_strdup_printf ("%s:inside", text_path);
    g_assert_null (terrain_document_load_path (spec, TERRAIN_FORMAT_UNKNOWN, NULL, NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
    g_clear_error (&error);
    g_free (spec);
    g_remove (text_path);
  }
  spec = g_build_filename (dir, "missing.hpi:maps/x.tnt", NULL);
  g_assert_null (terrain_document_load_path (spec, TERRAIN_FORMAT_UNKNOWN, NULL, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO);
  g_clear_error (&error);

  /* Extraction. */
  {
    g_autofree char *out = g_build_filename (dir, "out", NULL);
    g_autofree char *extracted = g_build_filename (out, "maps", "Mine.tnt", NULL);
    g_autofree char *extracted_ota = g_build_filename (out, "maps", "Mine.ota", NULL);
    g_autoptr(GFile) folder = g_file_new_for_path (out);
    g_autofree char *contents = NULL;
    gsize length = 0;

    g_assert_true (terrain_hpi_archive_extract (archive, folder, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (extracted, &contents, &length, NULL));
    g_assert_cmpmem (contents, length, g_bytes_get_data (tnt_bytes, NULL),
                     g_bytes_get_size (tnt_bytes));
    /* Again over existing files. */
    g_assert_true (terrain_hpi_archive_extract (archive, folder, NULL, &error));
    g_remove (extracted);
    g_remove (extracted_ota);
    {
      g_autofree char *maps = g_build_filename (out, "maps", NULL);

      g_rmdir (maps);
    }
    g_rmdir (out);
  }

  g_remove (path);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------------ */
/* Malformed archives                                                        */

typedef struct
{
  RefSet set;
  GBytes *bytes;
} Small;

/* A plain archive: one stored file, one zlib file of two chunks, one LZ77
 * file, for patching. */
static void
small_init (Small *s)
{
  RefFile files[] = {
    { "a/stored.bin", TERRAIN_HPI_COMPRESSION_NONE, FALSE, make_contents (300, 9) },
    { "a/zlib.bin", TERRAIN_HPI_COMPRESSION_ZLIB, FALSE, make_contents (70000, 10) },
    { "lz.bin", TERRAIN_HPI_COMPRESSION_LZ77, FALSE, make_contents (5000, 11) },
  };

  memcpy (s->set.files, files, sizeof files);
  s->set.n = G_N_ELEMENTS (files);
  s->bytes = ref_build (s->set.files, s->set.n, 0, 0);
}

static void
small_clear (Small *s)
{
  ref_set_clear (&s->set);
  g_bytes_unref (s->bytes);
}

static guint8 *
small_copy (Small *s,
            gsize *size)
{
  return g_memdup2 (g_bytes_get_data (s->bytes, size), g_bytes_get_size (s->bytes));
}

/* Loads @data; if loading works, reads every file. Returns the first error. */
static GError *
load_and_read (const guint8 *data,
               gsize         size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(TerrainHpiArchive) archive = NULL;
  GError *error = NULL;

  archive = terrain_hpi_archive_new_from_bytes (bytes, NULL, &error);
  if (archive == NULL)
    return error;
  for (guint i = 0; i < terrain_hpi_archive_get_n_files (archive); i++)
    {
      g_autoptr(GBytes) contents = terrain_hpi_archive_read_file (archive, i, &error);

      if (contents == NULL)
        return error;
    }
  return NULL;
}

static void
expect_error (const guint8 *data,
              gsize         size,
              gint          code,
              const char   *fragment)
{
  g_autoptr(GError) error = load_and_read (data, size);

  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_error (error, TERRAIN_ERROR, code);
  if (fragment != NULL && strstr (error->message, fragment) == NULL)
    g_error ("message \"%s\" lacks \"%s\"", error->message, fragment);
}

static void
test_malformed (void)
{
  Small s;
  gsize size;
  g_autofree guint8 *p = NULL;
  const RefFile *stored, *zlib, *lz;
  gsize zchunk;

  small_init (&s);
  stored = &s.set.files[0];
  zlib = &s.set.files[1];
  lz = &s.set.files[2];
  zchunk = zlib->data_offset + 8;   /* two chunk sizes, then chunk 0 */

  g_assert_null (load_and_read (g_bytes_get_data (s.bytes, NULL), g_bytes_get_size (s.bytes)));

#define FRESH() (g_free (p), p = small_copy (&s, &size))

  FRESH ();
  p[0] = 'X';
  expect_error (p, size, TERRAIN_ERROR_BAD_MAGIC, "HAPI");
  FRESH ();
  memcpy (p + 4, "BANK", 4);
  expect_error (p, size, TERRAIN_ERROR_UNSUPPORTED_VERSION, "saved game");
  FRESH ();
  terrain_test_set_u32 (p + 4, 0x00030000);
  expect_error (p, size, TERRAIN_ERROR_UNSUPPORTED_VERSION, "Kingdoms");
  FRESH ();
  terrain_test_set_u32 (p + 16, 12);
  expect_error (p, size, TERRAIN_ERROR_OUT_OF_RANGE, "directory start 12");
  FRESH ();
  terrain_test_set_u32 (p + 8, (guint32) size + 1);
  expect_error (p, size, TERRAIN_ERROR_TRUNCATED, "directory");
  FRESH ();
  expect_error (p, 19, TERRAIN_ERROR_TRUNCATED, NULL);

  /* Root entry count beyond what the directory holds. */
  FRESH ();
  terrain_test_set_u32 (p + 20, 1000);
  expect_error (p, size, TERRAIN_ERROR_OUT_OF_RANGE, "entry list");
  /* A name outside the directory, a name without its NUL. */
  FRESH ();
  terrain_test_set_u32 (p + stored->entry_offset, (guint32) size - 2);
  expect_error (p, size, TERRAIN_ERROR_OUT_OF_RANGE, "name");
  FRESH ();
  {
    guint32 end = p[8] | (p[9] << 8) | (p[10] << 16) | ((guint32) p[11] << 24);

    terrain_test_set_u32 (p + stored->entry_offset, end - 1);
    p[end - 1] = 'x';
    expect_error (p, size, TERRAIN_ERROR_TRUNCATED, "NUL");
  }
  /* Names that would escape the extraction folder. */
  FRESH ();
  memcpy (p + stored->name_offset, "..\0", 3);
  expect_error (p, size, TERRAIN_ERROR_INVALID_VALUE, "not a valid file name");
  FRESH ();
  p[stored->name_offset + 1] = '/';
  expect_error (p, size, TERRAIN_ERROR_INVALID_VALUE, "not a valid file name");
  /* A directory entry pointing back at the root: a loop. */
  FRESH ();
  terrain_test_set_u32 (p + stored->entry_offset + 4, 20);
  p[stored->entry_offset + 8] = 1;
  expect_error (p, size, TERRAIN_ERROR_OVERLAP, "already uses");
  FRESH ();
  p[stored->entry_offset + 8] = 7;
  expect_error (p, size, TERRAIN_ERROR_INVALID_VALUE, "directory flag 7");
  /* File records. */
  FRESH ();
  p[stored->record_offset + 8] = 3;
  expect_error (p, size, TERRAIN_ERROR_INVALID_VALUE, "compression method 3");
  FRESH ();
  terrain_test_set_u32 (p + stored->record_offset, (guint32) size + 10);
  expect_error (p, size, TERRAIN_ERROR_OUT_OF_RANGE, "stored.bin");
  FRESH ();
  terrain_test_set_u32 (p + stored->record_offset + 4, G_MAXUINT32);
  expect_error (p, size, TERRAIN_ERROR_TRUNCATED, "stored.bin");
  FRESH ();
  terrain_test_set_u32 (p + zlib->data_offset, 5);
  expect_error (p, size, TERRAIN_ERROR_INVALID_VALUE, "less than its 19-byte header");
  FRESH ();
  terrain_test_set_u32 (p + zlib->data_offset + 4, 0x7FFFFFFF);
  expect_error (p, size, TERRAIN_ERROR_TRUNCATED, "chunk 1 of \"a/zlib.bin\"");
  FRESH ();
  /* 11 chunks: the table overlaps the data */
  terrain_test_set_u32 (p + zlib->record_offset + 4, 700000);
  expect_error (p, size, TERRAIN_ERROR_TRUNCATED, "a/zlib.bin");

  /* Chunks. */
  FRESH ();
  p[zchunk] = 'X';
  expect_error (p, size, TERRAIN_ERROR_BAD_MAGIC, "chunk 0 of 2 of \"a/zlib.bin\"");
  FRESH ();
  p[zchunk + 5] = 0;
  expect_error (p, size, TERRAIN_ERROR_INVALID_VALUE, "compression method 0");
  FRESH ();
  p[zchunk + 19 + 10] ^= 0x55;
  expect_error (p, size, TERRAIN_ERROR_INVALID_VALUE, "checksum");
  FRESH ();
  terrain_test_set_u32 (p + zchunk + 11, 65535);
  expect_error (p, size, TERRAIN_ERROR_INVALID_VALUE, "decompressed bytes");
  FRESH ();
  terrain_test_set_u32 (p + zchunk + 7, 0x00FFFFFF);
  expect_error (p, size, TERRAIN_ERROR_TRUNCATED, "compressed bytes");
  {
    /* A corrupt zlib stream with a matching checksum. */
    guint32 sum = 0;
    guint32 length;

    FRESH ();
    length = p[zchunk + 7] | (p[zchunk + 8] << 8) | (p[zchunk + 9] << 16);
    p[zchunk + 19 + 2] ^= 0xFF;
    for (guint32 i = 0; i < length; i++)
      sum += p[zchunk + 19 + i];
    terrain_test_set_u32 (p + zchunk + 15, sum);
    expect_error (p, size, TERRAIN_ERROR_INVALID_VALUE, "zlib");
  }
  {
    /* An LZ77 chunk whose end marker is cut off (checksum fixed up). */
    gsize chunk = lz->data_offset + 4;
    guint32 length, sum = 0;

    FRESH ();
    length = p[chunk + 7] | (p[chunk + 8] << 8) | (p[chunk + 9] << 16);
    terrain_test_set_u32 (p + chunk + 7, length - 2);
    for (guint32 i = 0; i < length - 2; i++)
      sum += p[chunk + 19 + i];
    terrain_test_set_u32 (p + chunk + 15, sum);
    expect_error (p, size, TERRAIN_ERROR_INVALID_VALUE, "LZ77");
  }

  /* Limits: reading a file larger than the budget. */
  {
    g_autoptr(TerrainLimits) limits = terrain_limits_new ();
    g_autoptr(TerrainHpiArchive) archive = NULL;
    g_autoptr(GError) error = NULL;
    guint index;

    limits->max_allocation = 60000;
    archive = terrain_hpi_archive_new_from_bytes (s.bytes, limits, &error);
    g_assert_no_error (error);
    g_assert_true (terrain_hpi_archive_find (archive, "a/zlib.bin", &index));
    g_assert_null (terrain_hpi_archive_read_file (archive, index, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
  }

  /* Findings of a validation: an undecodable file is a warning. */
  {
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(TerrainHpiArchive) archive = NULL;
    g_autoptr(GPtrArray) issues = NULL;
    g_autoptr(GError) error = NULL;

    FRESH ();
    p[zchunk + 19 + 10] ^= 0x55;
    bytes = g_bytes_new (p, size);
    archive = terrain_hpi_archive_new_from_bytes (bytes, NULL, &error);
    g_assert_no_error (error);
    issues = terrain_document_validate (TERRAIN_DOCUMENT (archive));
    g_assert_cmpuint (issues->len, ==, 1);
    g_assert_nonnull (strstr (terrain_issue_get_message (g_ptr_array_index (issues, 0)),
                              "checksum"));
    /* It still writes back byte for byte. */
    assert_round_trip (archive, bytes);
  }

#undef FRESH
  small_clear (&s);
}

/* Every prefix, and bytes overwritten all over, of keyed and plain
 * archives: errors, never crashes. */
static void
test_truncations_and_mutations (void)
{
  RefFile files[] = {
    { "m/a.bin", TERRAIN_HPI_COMPRESSION_LZ77, TRUE, make_contents (3000, 12) },
    { "m/b.bin", TERRAIN_HPI_COMPRESSION_ZLIB, FALSE, make_contents (2000, 13) },
    { "c.bin", TERRAIN_HPI_COMPRESSION_NONE, FALSE, make_contents (100, 14) },
  };
  static const guint32 keys[] = { 0, 0x33 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  guint failures = 0, survivors = 0;

  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      g_autoptr(GBytes) bytes = ref_build (files, G_N_ELEMENTS (files), keys[k], 0);
      gsize size = 0;
      const guint8 *data = g_bytes_get_data (bytes, &size);
      g_autofree guint8 *copy = g_memdup2 (data, size);

      for (gsize length = 0; length < size; length++)
        {
          GError *error = load_and_read (data, length);

          /* Cutting the last byte may leave a readable archive only when
           * nothing lives there. */
          if (error == NULL)
            survivors++;
          else
            {
              g_assert_true (error->domain == TERRAIN_ERROR);
              g_error_free (error);
              failures++;
            }
        }

      for (guint m = 0; m < 3000; m++)
        {
          gsize at = (gsize) g_rand_int_range (rand, 0, (gint32) size);
          guint8 saved = copy[at];
          GError *error;

          copy[at] = (guint8) g_rand_int_range (rand, 0, 256);
          error = load_and_read (copy, size);
          if (error != NULL)
            {
              g_assert_true (error->domain == TERRAIN_ERROR);
              g_error_free (error);
            }
          else
            {
              g_autoptr(GBytes) mutated = g_bytes_new (copy, size);
              g_autoptr(TerrainHpiArchive) archive =
                terrain_hpi_archive_new_from_bytes (mutated, NULL, NULL);
              g_autoptr(GBytes) written =
                terrain_document_save_to_bytes (TERRAIN_DOCUMENT (archive), NULL);
              g_autoptr(JsonNode) node = terrain_document_describe (TERRAIN_DOCUMENT (archive));

              g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
              g_assert_true (g_bytes_equal (written, mutated));
            }
          copy[at] = saved;
        }
    }
  g_test_message ("%u truncated archives rejected, %u accepted", failures, survivors);
  g_assert_cmpuint (survivors, ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    g_bytes_unref (files[i].contents);
}

/* ------------------------------------------------------------------------ */
/* Corpus                                                                    */

static void
test_corpus_archive (void)
{
  g_autofree char *path = terrain_test_corpus_path ("ta/archives/mymaps_v1.hpi");
  g_autoptr(GFile) file = NULL;
  g_autoptr(TerrainHpiArchive) archive = NULL;
  g_autoptr(GError) error = NULL;
  static const char * const expected[] = {
    "maps/ban.ota", "maps/ban.tnt", "maps/bar.ota", "maps/bar.tnt", "maps/foo.ota", "maps/foo.tnt",
  };
  guint64 total = 0;
  gint64 start, elapsed;
  g_autoptr(GPtrArray) contents = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  if (path == NULL)
    {
      g_test_skip ("corpus archive not found");
      return;
    }
  file = g_file_new_for_path (path);
  archive = terrain_hpi_archive_new_from_file (file, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_hpi_archive_get_key (archive), ==, 0);
  g_assert_cmpuint (terrain_hpi_archive_get_n_files (archive), ==, G_N_ELEMENTS (expected));

  start = g_get_monotonic_time ();
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      GBytes *bytes;

      g_assert_cmpstr (terrain_hpi_archive_get_path (archive, i), ==, expected[i]);
      g_assert_cmpint (terrain_hpi_archive_get_compression (archive, i), ==,
                       TERRAIN_HPI_COMPRESSION_ZLIB);
      bytes = terrain_hpi_archive_read_file (archive, i, &error);
      g_assert_no_error (error);
      total += g_bytes_get_size (bytes);
      g_ptr_array_add (contents, bytes);
    }
  elapsed = MAX (g_get_monotonic_time () - start, 1);
  g_test_message ("mymaps_v1.hpi: %" G_GUINT64_FORMAT " bytes decoded (zlib, checksums checked) "
                  "in %.1f ms: %.0f MB/s", total, elapsed / 1000.0,
                  (double) total / (double) elapsed);

  /* Repacked by the writer, each method, plain and keyed: the same files. */
  for (guint method = 0; method <= TERRAIN_HPI_COMPRESSION_ZLIB; method++)
    {
      g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
      g_autoptr(GBytes) packed = NULL;
      g_autoptr(TerrainHpiArchive) again = NULL;
      gint64 t0, t1, t2;

      terrain_hpi_writer_set_key (writer, method == TERRAIN_HPI_COMPRESSION_LZ77 ? 0x21 : 0);
      for (guint i = 0; i < contents->len; i++)
        g_assert_true (terrain_hpi_writer_add_file (writer, expected[i],
                                                    g_ptr_array_index (contents, i),
                                                    (TerrainHpiCompression) method, &error));
      t0 = g_get_monotonic_time ();
      packed = terrain_hpi_writer_to_bytes (writer, &error);
      t1 = g_get_monotonic_time ();
      g_assert_no_error (error);
      again = terrain_hpi_archive_new_from_bytes (packed, NULL, &error);
      g_assert_no_error (error);
      for (guint i = 0; i < contents->len; i++)
        {
          g_autoptr(GBytes) back = terrain_hpi_archive_read_file (again, i, &error);

          g_assert_no_error (error);
          g_assert_true (g_bytes_equal (back, g_ptr_array_index (contents, i)));
        }
      t2 = g_get_monotonic_time ();
      g_test_message ("repacked %s: %" G_GSIZE_FORMAT " bytes (original %" G_GSIZE_FORMAT
                      "); packing %.0f MB/s, reading back %.0f MB/s",
                      method == 0 ? "stored" : method == 1 ? "lz77 (key 0x21)" : "zlib",
                      g_bytes_get_size (packed),
                      g_bytes_get_size (terrain_document_get_source_bytes (
                                          TERRAIN_DOCUMENT (archive))),
                      (double) total / (double) MAX (t1 - t0, 1),
                      (double) total / (double) MAX (t2 - t1, 1));
    }
}

/* ban and bar opened from inside the archive are the loose files, byte for
 * byte; foo has 52 void cells. */
static void
test_corpus_members (void)
{
  g_autofree char *archive = terrain_test_corpus_path ("ta/archives/mymaps_v1.hpi");
  static const char * const names[] = { "ban", "bar" };
  g_autoptr(GError) error = NULL;

  if (archive == NULL)
    {
      g_test_skip ("corpus archive not found");
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    for (guint ext = 0; ext < 2; ext++)
      {
        const char *suffix = ext == 0 ? "tnt" : "ota";
        g_autofree char *spec = g_strdup_printf ("%s:maps/%s.%s", archive, names[i], suffix);
        g_autofree char *relative = g_strdup_printf ("ta/maps/%s.%s", names[i], suffix);
        g_autofree char *loose_path = terrain_test_corpus_path (relative);
        g_autoptr(GFile) loose_file = NULL;
        g_autoptr(GBytes) loose = NULL;
        g_autoptr(TerrainDocument) document = NULL;
        g_autoptr(TerrainDocument) loose_document = NULL;
        g_autoptr(GBytes) written = NULL;
        g_autoptr(JsonNode) a = NULL;
        g_autoptr(JsonNode) b = NULL;

        document = terrain_document_load_path (spec, TERRAIN_FORMAT_UNKNOWN, NULL, NULL, &error);
        g_assert_no_error (error);
        g_assert_cmpint (terrain_document_get_format (document), ==,
                         ext == 0 ? TERRAIN_FORMAT_TNT : TERRAIN_FORMAT_OTA);
        if (loose_path == NULL)
          continue;
        loose_file = g_file_new_for_path (loose_path);
        loose = terrain_file_load_bytes (loose_file, NULL, &error);
        g_assert_no_error (error);
        g_assert_true (g_bytes_equal (terrain_document_get_source_bytes (document), loose));
        written = terrain_document_save_to_bytes (document, &error);
        g_assert_true (g_bytes_equal (written, loose));

        /* The same description as the loose file's. */
        loose_document = terrain_document_load (loose_file, NULL, NULL, &error);
        a = terrain_document_describe (document);
        b = terrain_document_describe (loose_document);
        g_assert_true (json_node_equal (a, b));
      }

  {
    g_autofree char *spec = g_strdup_printf ("%s:MAPS/FOO.TNT", archive);
    g_autoptr(TerrainDocument) document =
      terrain_document_load_path (spec, TERRAIN_FORMAT_UNKNOWN, NULL, NULL, &error);
    TerrainTntMap *map;
    guint voids = 0;
    g_autoptr(GPtrArray) issues = NULL;
    gboolean any;

    g_assert_no_error (error);
    g_assert_true (TERRAIN_IS_TNT_MAP (document));
    map = TERRAIN_TNT_MAP (document);
    for (guint y = 0; y < terrain_tnt_map_get_height (map); y++)
      for (guint x = 0; x < terrain_tnt_map_get_width (map); x++)
        voids += terrain_tnt_map_get_cell_feature (map, x, y) == TERRAIN_TNT_FEATURE_VOID;
    g_assert_cmpuint (voids, ==, 52);
    issues = terrain_document_validate (document);
    g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_INFO);
  }
}

/* ------------------------------------------------------------------------ */
/* Command line                                                              */

static void
test_cli (void)
{
  const char *cli = g_getenv ("TERRAIN_CLI");
  g_autofree char *dir = NULL;
  g_autofree char *tnt_path = NULL;
  g_autofree char *ota_path = NULL;
  g_autofree char *archive = NULL;
  g_autofree char *keyed = NULL;
  g_autofree char *out = NULL;
  g_autofree char *spec = NULL;
  g_autofree char *edited = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(TerrainOtaFile) ota = NULL;
  g_autoptr(GBytes) tnt_bytes = NULL;
  g_autoptr(GBytes) ota_bytes = NULL;
  TerrainTestCliResult run;

  if (cli == NULL || !g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("TERRAIN_CLI not set");
      return;
    }

  dir = g_dir_make_tmp ("terrain-hpi-cli-XXXXXX", &error);
  g_assert_no_error (error);
  tnt_path = g_build_filename (dir, "Duel.tnt", NULL);
  ota_path = g_build_filename (dir, "Duel.ota", NULL);
  archive = g_build_filename (dir, "duel.ufo", NULL);
  keyed = g_build_filename (dir, "keyed.hpi", NULL);
  out = g_build_filename (dir, "out", NULL);
  edited = g_build_filename (dir, "edited.ota", NULL);

  map = terrain_tnt_map_new (8, 8, &error);
  ota = terrain_ota_file_new ("Duel", &error);
  g_assert_no_error (error);
  g_assert_true (terrain_ota_file_set_start_position (ota, 0, 1, 40, 50, &error));
  tnt_bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (map), &error);
  ota_bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ota), &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (tnt_path, g_bytes_get_data (tnt_bytes, NULL),
                                      (gssize) g_bytes_get_size (tnt_bytes), NULL));
  g_assert_true (g_file_set_contents (ota_path, g_bytes_get_data (ota_bytes, NULL),
                                      (gssize) g_bytes_get_size (ota_bytes), NULL));

  /* pack: .tnt and .ota go to maps/. */
  run = terrain_test_run_cli (NULL, "hpi", "pack", archive, tnt_path, ota_path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  terrain_test_cli_result_clear (&run);
  run = terrain_test_run_cli (NULL, "hpi", "list", archive, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "zlib    maps/Duel.ota"));
  g_assert_nonnull (strstr (run.out, "maps/Duel.tnt"));
  terrain_test_cli_result_clear (&run);
  {
    g_autofree char *renamed = g_strconcat (tnt_path, "=deep/x/map.TNT", NULL);

    run = terrain_test_run_cli (NULL, "hpi", "pack", "--key=9", "--compression=lz77",
                                "--encrypt-chunks", keyed,
                                renamed, NULL);
    g_assert_cmpint (run.status, ==, 0);
    terrain_test_cli_result_clear (&run);
  }
  run = terrain_test_run_cli (NULL, "hpi", "list", "--json", keyed, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "\"key\" : 9"));
  g_assert_nonnull (strstr (run.out, "deep/x/map.TNT"));
  terrain_test_cli_result_clear (&run);

  /* extract, then the extracted map is the original. */
  run = terrain_test_run_cli (NULL, "hpi", "extract", archive, out, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "2 files"));
  terrain_test_cli_result_clear (&run);
  {
    g_autofree char *extracted = g_build_filename (out, "maps", "Duel.tnt", NULL);
    g_autofree char *contents = NULL;
    gsize length;

    g_assert_true (g_file_get_contents (extracted, &contents, &length, NULL));
    g_assert_cmpmem (contents, length, g_bytes_get_data (tnt_bytes, NULL),
                     g_bytes_get_size (tnt_bytes));
  }

  /* info, validate and roundtrip take ARCHIVE:path. */
  spec = g_strdup_printf ("%s:maps/duel.tnt", archive);
  run = terrain_test_run_cli (NULL, "roundtrip", spec, archive, keyed, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "pass"));
  terrain_test_cli_result_clear (&run);
  run = terrain_test_run_cli (NULL, "info", spec, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "format: tnt"));
  terrain_test_cli_result_clear (&run);
  run = terrain_test_run_cli (NULL, "validate", spec, NULL);
  g_assert_cmpint (run.status, ==, 0);
  terrain_test_cli_result_clear (&run);
  g_free (spec);
  spec = g_strdup_printf ("%s:maps/none.tnt", archive);
  run = terrain_test_run_cli (NULL, "info", spec, NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "no file \"maps/none.tnt\""));
  terrain_test_cli_result_clear (&run);
  g_free (spec);

  /* ota show and set. */
  spec = g_strdup_printf ("%s:maps/Duel.ota", archive);
  run = terrain_test_run_cli (NULL, "ota", "show", spec, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "missionname          Duel"));
  g_assert_nonnull (strstr (run.out, "StartPos1   x=40     z=50"));
  terrain_test_cli_result_clear (&run);
  /* A file inside an archive is not changed in place. */
  run = terrain_test_run_cli (NULL, "ota", "set", spec, "planet=Moon", NULL);
  g_assert_cmpint (run.status, ==, 64);
  terrain_test_cli_result_clear (&run);
  run = terrain_test_run_cli (NULL, "ota", "set", "--dry-run", ota_path, "planet=Moon", "--start",
                              "2:7,8", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "planet:  -> Moon"));
  g_assert_nonnull (strstr (run.out, "StartPos2: (new) -> 7,8"));
  /* The edit runner's listing: the ranges of the shortest edit, each
   * named by its section, the value set and the section added apart. */
  g_assert_nonnull (strstr (run.out, "the file would change size"));
  g_assert_nonnull (strstr (run.out, "  4 bytes inserted at byte 71: [GlobalHeader], key \"planet\""));
  g_assert_nonnull (strstr (run.out, "  83 bytes inserted at byte 743: "));
  g_assert_nonnull (strstr (run.out, "768 of the 768 bytes stay byte for byte"));
  g_assert_nonnull (strstr (run.out, "dry run: "));
  terrain_test_cli_result_clear (&run);
  /* A value the file cannot hold is refused, with the library's reason. */
  run = terrain_test_run_cli (NULL, "ota", "set", ota_path, "planet=a;b", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "refused"));
  terrain_test_cli_result_clear (&run);
  run = terrain_test_run_cli (NULL, "ota", "set", ota_path, "-o", edited, "planet=Moon", "--start",
                              "1:41,50",
                              "GlobalHeader/Schema 0/MohoMetal=31", NULL);
  g_assert_cmpint (run.status, ==, 0);
  terrain_test_cli_result_clear (&run);
  {
    g_autoptr(GFile) file = g_file_new_for_path (edited);
    g_autoptr(TerrainOtaFile) back = terrain_ota_file_new_from_file (file, NULL, NULL, &error);
    gint x, z;

    g_assert_no_error (error);
    g_assert_cmpstr (terrain_ota_file_get_header_value (back, "planet"), ==, "Moon");
    g_assert_true (terrain_ota_file_get_start_position (back, 0, 1, &x, &z));
    g_assert_cmpint (x, ==, 41);
    g_assert_cmpstr (terrain_tdf_section_get_value (terrain_ota_file_get_schema (back, 0),
                                                    "mohometal"), ==, "31");
  }
  run = terrain_test_run_cli (NULL, "ota", "set", ota_path, "--start", "1:x", NULL);
  g_assert_cmpint (run.status, ==, 64);
  terrain_test_cli_result_clear (&run);
  run = terrain_test_run_cli (NULL, "ota", "show", tnt_path, NULL);
  g_assert_cmpint (run.status, ==, 2);
  terrain_test_cli_result_clear (&run);
  run = terrain_test_run_cli (NULL, "hpi", "list", tnt_path, NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "HAPI"));
  terrain_test_cli_result_clear (&run);

  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

    g_assert_cmpint (system (cmd), ==, 0);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/Hpi/lz77-codec", test_lz77_codec);
  g_test_add_data_func ("/Terrain/Hpi/read-reference/plain", GUINT_TO_POINTER (0),
                        test_read_reference);
  g_test_add_data_func ("/Terrain/Hpi/read-reference/key-0x7b", GUINT_TO_POINTER (0x7B),
                        test_read_reference);
  /* Non-zero, yet its key byte ((k << 2) | (k >> 6)) & 0xff is 0. */
  g_test_add_data_func ("/Terrain/Hpi/read-reference/key-0x4000", GUINT_TO_POINTER (0x4000),
                        test_read_reference);
  g_test_add_data_func ("/Terrain/Hpi/writer/plain", GUINT_TO_POINTER (0), test_writer);
  g_test_add_data_func ("/Terrain/Hpi/writer/keyed", GUINT_TO_POINTER (1), test_writer);
  g_test_add_data_func ("/Terrain/Hpi/writer/encrypted-chunks", GUINT_TO_POINTER (2),
                        test_writer);
  g_test_add_data_func ("/Terrain/Hpi/writer/keyed-encrypted", GUINT_TO_POINTER (3),
                        test_writer);
  g_test_add_func ("/Terrain/Hpi/writer/errors", test_writer_errors);
  g_test_add_func ("/Terrain/Hpi/pack-map-and-paths", test_pack_map_and_paths);
  g_test_add_func ("/Terrain/Hpi/malformed", test_malformed);
  g_test_add_func ("/Terrain/Hpi/truncations-and-mutations", test_truncations_and_mutations);
  g_test_add_func ("/Terrain/Hpi/cli", test_cli);
  g_test_add_func ("/Terrain/Hpi/corpus/archive", test_corpus_archive);
  g_test_add_func ("/Terrain/Hpi/corpus/members", test_corpus_members);

  return g_test_run ();
}
