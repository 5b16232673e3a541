/* test-hpi-v2.c: version 2 HPI archives (TA: Kingdoms)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The fixtures are built here from the documented layout
 * (docs/formats/ta-files.md, "HPI version 2", after Joe D's Hpi-fmt2.txt
 * and HPIPack.c): a 32-byte header, file data from byte 0x20, then the name
 * block, the directory block (records of each directory's subdirectories,
 * then its file entries, then those of the subdirectories) and a 78-byte
 * trailer that "Last78" points at. Each block is stored as it is or as one
 * encrypted zlib "SQSH" chunk; each file stored or as one chunk of its
 * whole contents. The checksum of each entry is computed here from its
 * description, independently of the library.
 */

#include "config.h"

#include <string.h>
#include <zlib.h>

#include "libterrain.h"
#include "terrain-test-util.h"
#include "ta/terrain-hpi-private.h"

typedef struct
{
  const char *path;
  GBytes *contents;
  guint method;            /* 0 stored, 1 LZ77, 2 zlib */
  gboolean encrypt;        /* the chunk's encrypted flag */
  guint32 date;
  /* Filled in by build () */
  gsize entry;             /* the file entry, in the decoded directory block */
  gsize start;
} V2File;

typedef struct
{
  gboolean pack_directory;
  gboolean pack_names;
  gsize dir_block;         /* filled in: where the blocks went */
  gsize dir_size;
  gsize name_block;
  gsize name_size;
  gsize last78;
  GByteArray *directory;   /* the decoded directory block */
  GByteArray *names;       /* the decoded name block */
} V2Layout;

static void
put32 (guint8  *p,
       guint32  v)
{
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
  p[2] = (v >> 16) & 0xff;
  p[3] = v >> 24;
}

static guint32
get32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

/* Four 8-bit sums, from the description of the entry checksum. */
static guint32
ref_checksum (GBytes *contents)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (contents, &size);
  guint a = 0, x = 0, ao = 0, xo = 0;

  for (gsize i = 0; i < size; i++)
    {
      a = (a + data[i]) & 0xff;
      x ^= data[i];
      ao = (ao + (data[i] ^ (i % 256))) & 0xff;
      xo ^= (data[i] + (i % 256)) & 0xff;
    }
  return a | x << 8 | ao << 16 | xo << 24;
}

/* One "SQSH" chunk of @data. */
static void
ref_chunk (GByteArray   *out,
           const guint8 *data,
           gsize         size,
           guint         method,
           gboolean      encrypt)
{
  GByteArray *payload = g_byte_array_new ();
  guint8 header[19];
  guint32 sum = 0;

  if (method == TERRAIN_HPI_COMPRESSION_LZ77)
    terrain_hpi_lz77_compress (data, size, payload);
  else
    {
      uLongf bound = compressBound (size);

      g_byte_array_set_size (payload, bound);
      g_assert_cmpint (compress2 (payload->data, &bound, data, size, 9), ==, Z_OK);
      g_byte_array_set_size (payload, bound);
    }
  if (encrypt)
    for (guint i = 0; i < payload->len; i++)
      payload->data[i] = (guint8) ((payload->data[i] ^ (i & 0xff)) + (i & 0xff));
  for (guint i = 0; i < payload->len; i++)
    sum += payload->data[i];

  memcpy (header, "SQSH", 4);
  header[4] = 2;
  header[5] = (guint8) method;
  header[6] = encrypt ? 1 : 0;
  put32 (header + 7, payload->len);
  put32 (header + 11, (guint32) size);
  put32 (header + 15, sum);
  g_byte_array_append (out, header, 19);
  g_byte_array_append (out, payload->data, payload->len);
  g_byte_array_unref (payload);
}

typedef struct RefDir RefDir;
struct RefDir
{
  char *name;
  GPtrArray *dirs;         /* RefDir */
  GPtrArray *files;        /* V2File */
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

static guint32
add_name (GByteArray *names,
          const char *name)
{
  guint32 at = names->len;

  g_byte_array_append (names, (const guint8 *) name, strlen (name) + 1);
  return at;
}

/* Fills in the counts and lists of the record at @record for @dir, as
 * HPIPack's BuildBlocks2 lays them out. */
static void
ref_layout (RefDir     *dir,
            gsize       record,
            GByteArray *d,
            GByteArray *names)
{
  gsize first_sub = d->len;
  gsize first_file;

  g_byte_array_set_size (d, d->len + 20 * dir->dirs->len);
  for (guint i = 0; i < dir->dirs->len; i++)
    {
      RefDir *sub = g_ptr_array_index (dir->dirs, i);

      memset (d->data + first_sub + 20 * i, 0, 20);
      put32 (d->data + first_sub + 20 * i, add_name (names, sub->name));
    }
  first_file = d->len;
  g_byte_array_set_size (d, d->len + 24 * dir->files->len);
  for (guint i = 0; i < dir->files->len; i++)
    {
      V2File *file = g_ptr_array_index (dir->files, i);
      const char *name = strrchr (file->path, '/');

      file->entry = first_file + 24 * i;
      memset (d->data + file->entry, 0, 24);
      put32 (d->data + file->entry, add_name (names, name != NULL ? name + 1 : file->path));
    }
  put32 (d->data + record + 4, dir->dirs->len > 0 ? (guint32) first_sub : 0);
  put32 (d->data + record + 8, dir->dirs->len);
  put32 (d->data + record + 12, dir->files->len > 0 ? (guint32) first_file : 0);
  put32 (d->data + record + 16, dir->files->len);
  for (guint i = 0; i < dir->dirs->len; i++)
    ref_layout (g_ptr_array_index (dir->dirs, i), first_sub + 20 * i, d, names);
}

static void
add_block (GByteArray       *a,
           const GByteArray *plain,
           gboolean          pack,
           gsize            *offset,
           gsize            *size)
{
  *offset = a->len;
  if (pack)
    ref_chunk (a, plain->data, plain->len, TERRAIN_HPI_COMPRESSION_ZLIB, TRUE);
  else
    g_byte_array_append (a, plain->data, plain->len);
  *size = a->len - *offset;
}

static GBytes *
build (V2File   *files,
       guint     n,
       V2Layout *layout)
{
  GByteArray *a = g_byte_array_new ();
  RefDir *root = ref_dir_new ("");
  static const char trailer[78] = "Copyright 1999 Cavedog Entertainment";

  for (guint i = 0; i < n; i++)
    {
      g_auto(GStrv) parts = g_strsplit (files[i].path, "/", -1);
      RefDir *dir = root;

      for (guint d = 0; parts[d + 1] != NULL; d++)
        {
          RefDir *found = NULL;

          for (guint k = 0; k < dir->dirs->len; k++)
            if (strcmp (((RefDir *) g_ptr_array_index (dir->dirs, k))->name, parts[d]) == 0)
              found = g_ptr_array_index (dir->dirs, k);
          if (found == NULL)
            g_ptr_array_add (dir->dirs, found = ref_dir_new (parts[d]));
          dir = found;
        }
      g_ptr_array_add (dir->files, &files[i]);
    }

  layout->directory = g_byte_array_new ();
  layout->names = g_byte_array_new ();
  g_byte_array_append (layout->names, (const guint8 *) "", 1);
  g_byte_array_set_size (layout->directory, 20);
  memset (layout->directory->data, 0, 20);
  ref_layout (root, 0, layout->directory, layout->names);

  g_byte_array_set_size (a, 32);
  for (guint i = 0; i < n; i++)
    {
      gsize size;
      const guint8 *data = g_bytes_get_data (files[i].contents, &size);
      guint8 *entry = layout->directory->data + files[i].entry;

      files[i].start = a->len;
      if (files[i].method == 0)
        g_byte_array_append (a, data, size);
      else
        ref_chunk (a, data, size, files[i].method, files[i].encrypt);
      put32 (entry + 4, (guint32) files[i].start);
      put32 (entry + 8, (guint32) size);
      put32 (entry + 12, files[i].method == 0 ? 0 : (guint32) (a->len - files[i].start));
      put32 (entry + 16, files[i].date);
      put32 (entry + 20, ref_checksum (files[i].contents));
    }
  add_block (a, layout->names, layout->pack_names, &layout->name_block, &layout->name_size);
  add_block (a, layout->directory, layout->pack_directory, &layout->dir_block,
             &layout->dir_size);
  layout->last78 = a->len;
  g_byte_array_append (a, (const guint8 *) trailer, sizeof trailer);

  memcpy (a->data, "HAPI", 4);
  put32 (a->data + 4, 0x00020000);
  put32 (a->data + 8, (guint32) layout->dir_block);
  put32 (a->data + 12, (guint32) layout->dir_size);
  put32 (a->data + 16, (guint32) layout->name_block);
  put32 (a->data + 20, (guint32) layout->name_size);
  put32 (a->data + 24, 0x20);
  put32 (a->data + 28, (guint32) layout->last78);

  ref_dir_free (root);
  return g_byte_array_free_to_bytes (a);
}

static void
layout_clear (V2Layout *layout)
{
  g_clear_pointer (&layout->directory, g_byte_array_unref);
  g_clear_pointer (&layout->names, g_byte_array_unref);
}

static GBytes *
make_contents (gsize size,
               guint seed)
{
  guint8 *data = g_malloc (MAX (size, 1));
  guint32 state = seed * 2654435761u + 1;

  for (gsize i = 0; i < size; i++)
    {
      state = state * 1103515245u + 12345u;
      /* Runs and repeats for the compressors, noise between them. */
      data[i] = (i / 64) % 3 == 0 ? (guint8) (i / 64) : (guint8) (state >> 24);
    }
  return g_bytes_new_take (data, size);
}

/* The files of the reference archive; the directory order the reader must
 * give: each directory's subdirectories first, then its files. */
static void
make_files (V2File files[6])
{
  const V2File template[6] = {
    { "readme.txt", NULL, 0, FALSE, 946684800 },
    { "maps/Isle.tnt", NULL, 2, FALSE, 946684801 },
    { "maps/Isle.ota", NULL, 2, TRUE, 946684802 },
    { "anims/units/knight.gaf", NULL, 1, FALSE, 946684803 },
    { "anims/units/mage.gaf", NULL, 2, FALSE, 946684804 },
    { "anims/big.bin", NULL, 2, TRUE, 946684805 },
  };
  const gsize sizes[6] = { 57, 70000, 300, 5000, 0, 200000 };

  for (guint i = 0; i < 6; i++)
    {
      files[i] = template[i];
      files[i].contents = make_contents (sizes[i], i + 1);
    }
}

static void
free_files (V2File *files,
            guint   n)
{
  for (guint i = 0; i < n; i++)
    g_bytes_unref (files[i].contents);
}

static void
test_read (gconstpointer data)
{
  guint variant = GPOINTER_TO_UINT (data);
  static const char *const order[] = {
    "maps/Isle.tnt", "maps/Isle.ota", "anims/units/knight.gaf", "anims/units/mage.gaf",
    "anims/big.bin", "readme.txt",
  };
  V2File files[6];
  V2Layout layout = { variant & 1, (variant & 2) != 0 };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainHpiArchive) archive = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *object, *block;

  make_files (files);
  /* The empty file cannot be a chunk that inflates to nothing: stored. */
  files[4].method = 0;
  bytes = build (files, 6, &layout);
  archive = terrain_hpi_archive_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmphex (terrain_hpi_archive_get_version (archive), ==, 0x00020000);
  g_assert_cmpuint (terrain_hpi_archive_get_key (archive), ==, 0);
  g_assert_cmpuint (terrain_hpi_archive_get_n_files (archive), ==, 6);
  for (guint i = 0; i < 6; i++)
    g_assert_cmpstr (terrain_hpi_archive_get_path (archive, i), ==, order[i]);

  for (guint i = 0; i < 6; i++)
    {
      g_autoptr(GBytes) contents = NULL;
      g_autofree char *upper = g_ascii_strup (files[i].path, -1);
      guint index = G_MAXUINT;

      g_assert_true (terrain_hpi_archive_find (archive, upper, &index));
      g_assert_cmpstr (terrain_hpi_archive_get_path (archive, index), ==, files[i].path);
      g_assert_cmpuint (terrain_hpi_archive_get_file_size (archive, index), ==,
                        g_bytes_get_size (files[i].contents));
      g_assert_cmpint (terrain_hpi_archive_get_compression (archive, index), ==,
                       files[i].method);
      contents = terrain_hpi_archive_read_file (archive, index, &error);
      g_assert_no_error (error);
      terrain_test_assert_bytes_equal (files[i].contents, contents);
    }

  /* Unedited: written back byte for byte. */
  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (archive), &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (bytes, written);

  issues = terrain_document_validate (TERRAIN_DOCUMENT (archive));
  g_assert_cmpuint (issues->len, ==, 0);

  node = terrain_document_describe (TERRAIN_DOCUMENT (archive));
  object = json_node_get_object (node);
  g_assert_cmpint (json_object_get_int_member (object, "version"), ==, 0x00020000);
  g_assert_cmpint (json_object_get_int_member (object, "files"), ==, 6);
  g_assert_cmpint (json_object_get_int_member (object, "directories"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (object, "last78"), ==, (gint64) layout.last78);
  block = json_object_get_object_member (object, "directory_block");
  g_assert_cmpint (json_object_get_int_member (block, "offset"), ==, (gint64) layout.dir_block);
  g_assert_cmpint (json_object_get_boolean_member (block, "compressed"), ==,
                   layout.pack_directory);
  g_assert_cmpint (json_object_get_int_member (block, "decoded_size"), ==,
                   layout.directory->len);
  block = json_object_get_object_member (object, "name_block");
  g_assert_cmpint (json_object_get_boolean_member (block, "compressed"), ==, layout.pack_names);
  {
    JsonObject *entry = json_array_get_object_element (
      json_object_get_array_member (object, "entries"), 5);

    g_assert_cmpstr (json_object_get_string_member (entry, "path"), ==, "readme.txt");
    g_assert_cmpint (json_object_get_int_member (entry, "date"), ==, 946684800);
    g_assert_cmpint (json_object_get_int_member (entry, "checksum"), ==,
                     ref_checksum (files[0].contents));
  }

  /* Where bytes are. */
  {
    g_autofree char *header = terrain_document_describe_offset (TERRAIN_DOCUMENT (archive), 20);
    g_autofree char *chunk = terrain_document_describe_offset (TERRAIN_DOCUMENT (archive),
                                                               files[1].start + 3);
    g_autofree char *trailer = terrain_document_describe_offset (TERRAIN_DOCUMENT (archive),
                                                                 layout.last78 + 1);
    g_autofree char *entry = terrain_document_describe_offset (
      TERRAIN_DOCUMENT (archive),
      layout.dir_block + (layout.pack_directory ? 20 : files[0].entry + 2));

    g_assert_cmpstr (header, ==, "header");
    g_assert_cmpstr (chunk, ==, "chunk of \"maps/Isle.tnt\", header");
    g_assert_cmpstr (trailer, ==, "trailer");
    g_assert_cmpstr (entry, ==, layout.pack_directory ? "directory block, compressed"
                                                      : "directory block, entry of "
                                                        "\"readme.txt\"");
  }

  layout_clear (&layout);
  free_files (files, 6);
}

/* A copy of @bytes with the u32 at @at set to @value. */
static guint8 *
patched (GBytes      *bytes,
         gsize        at,
         guint32      value,
         gsize       *size)
{
  guint8 *p = g_memdup2 (g_bytes_get_data (bytes, size), g_bytes_get_size (bytes));

  put32 (p + at, value);
  return p;
}

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
expect_error (guint8     *data,
              gsize       size,
              gint        code,
              const char *fragment)
{
  g_autoptr(GError) error = load_and_read (data, size);

  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_error (error, TERRAIN_ERROR, code);
  if (fragment != NULL && strstr (error->message, fragment) == NULL)
    g_error ("message \"%s\" lacks \"%s\"", error->message, fragment);
  g_free (data);
}

static void
test_malformed (void)
{
  V2File files[6];
  V2Layout layout = { FALSE, FALSE };
  g_autoptr(GBytes) bytes = NULL;
  gsize size;
  gsize dir, names;
  guint8 *p;

  make_files (files);
  files[4].method = 0;
  bytes = build (files, 6, &layout);
  dir = layout.dir_block;
  names = layout.name_block;
  size = g_bytes_get_size (bytes);

  /* Header */
  expect_error (g_memdup2 (g_bytes_get_data (bytes, NULL), size), 30,
                TERRAIN_ERROR_TRUNCATED, "HPI header");
  expect_error (patched (bytes, 8, (guint32) size + 1, &size), size,
                TERRAIN_ERROR_OUT_OF_RANGE, "directory block (header fields at byte offsets "
                "8 and 12)");
  expect_error (patched (bytes, 20, (guint32) (size - names + 1), &size), size,
                TERRAIN_ERROR_TRUNCATED, "name block (header fields at byte offsets 16 and "
                "20)");
  expect_error (patched (bytes, 12, 19, &size), size, TERRAIN_ERROR_TRUNCATED,
                "root directory record");

  /* Directory records */
  expect_error (patched (bytes, dir + 8, 1000, &size), size, TERRAIN_ERROR_OVERLAP,
                "lists 1000 subdirectories");
  expect_error (patched (bytes, dir + 4, (guint32) layout.directory->len - 30, &size), size,
                TERRAIN_ERROR_OUT_OF_RANGE, "subdirectory list of \"/\"");
  expect_error (patched (bytes, dir + 12, (guint32) layout.directory->len - 20, &size), size,
                TERRAIN_ERROR_OUT_OF_RANGE, "file list of \"/\"");
  /* The first subdirectory ("maps") lists itself as its subdirectory. */
  {
    guint32 first_sub = get32 (layout.directory->data + 4);

    p = patched (bytes, dir + first_sub + 4, first_sub, &size);
    put32 (p + dir + first_sub + 8, 1);
    expect_error (p, size, TERRAIN_ERROR_OVERLAP, "already lists");
  }

  /* Names */
  expect_error (patched (bytes, dir + files[0].entry, (guint32) layout.names->len, &size),
                size, TERRAIN_ERROR_OUT_OF_RANGE, "name block, which holds");
  p = g_memdup2 (g_bytes_get_data (bytes, NULL), size);
  p[names + layout.names->len - 1] = 'x';
  expect_error (p, size, TERRAIN_ERROR_TRUNCATED, "no terminating NUL");
  p = g_memdup2 (g_bytes_get_data (bytes, NULL), size);
  memcpy (p + names + get32 (layout.directory->data + files[0].entry), "..\0", 3);
  expect_error (p, size, TERRAIN_ERROR_INVALID_VALUE, "not a valid file name");

  /* File data */
  expect_error (patched (bytes, dir + files[0].entry + 8, (guint32) size, &size), size,
                TERRAIN_ERROR_TRUNCATED, "data of \"readme.txt\"");
  expect_error (patched (bytes, dir + files[1].entry + 12, 18, &size), size,
                TERRAIN_ERROR_INVALID_VALUE, "less than a 19-byte chunk header");
  expect_error (patched (bytes, dir + files[1].entry + 4, (guint32) size - 20, &size), size,
                TERRAIN_ERROR_TRUNCATED, "chunk of \"maps/Isle.tnt\"");
  p = g_memdup2 (g_bytes_get_data (bytes, NULL), size);
  p[files[1].start + 5] = 7;
  expect_error (p, size, TERRAIN_ERROR_INVALID_VALUE, "compression method 7");
  p = g_memdup2 (g_bytes_get_data (bytes, NULL), size);
  p[files[1].start + 40] ^= 0x55;
  expect_error (p, size, TERRAIN_ERROR_INVALID_VALUE, "checksum");
  expect_error (patched (bytes, dir + files[1].entry + 8, 1u << 31, &size), size,
                TERRAIN_ERROR_INVALID_VALUE, "can inflate to");
  expect_error (patched (bytes, dir + files[1].entry + 8, 69999, &size), size,
                TERRAIN_ERROR_INVALID_VALUE, "69999 are needed");
  p = g_memdup2 (g_bytes_get_data (bytes, NULL), size);
  memcpy (p + files[1].start, "SQSX", 4);
  expect_error (p, size, TERRAIN_ERROR_BAD_MAGIC, "chunk of \"maps/Isle.tnt\"");

  /* A wrong entry checksum reads, but validation reports it. */
  {
    g_autoptr(GBytes) changed = g_bytes_new_take (patched (bytes, dir + files[0].entry + 20,
                                                           0x12345678, &size), size);
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainHpiArchive) archive = terrain_hpi_archive_new_from_bytes (changed, NULL,
                                                                               &error);
    g_autoptr(GPtrArray) issues = NULL;

    g_assert_no_error (error);
    issues = terrain_document_validate (TERRAIN_DOCUMENT (archive));
    g_assert_cmpuint (issues->len, ==, 1);
    g_assert_nonnull (strstr (terrain_issue_get_message (g_ptr_array_index (issues, 0)),
                              "\"readme.txt\" (entry at byte"));
    g_assert_nonnull (strstr (terrain_issue_get_message (g_ptr_array_index (issues, 0)),
                              "records checksum 0x12345678"));
  }

  /* Every truncation fails cleanly or reads. */
  for (gsize cut = 0; cut < layout.last78; cut += cut < 64 ? 1 : 997)
    {
      g_autoptr(GError) error = load_and_read (g_bytes_get_data (bytes, NULL), cut);

      g_assert_nonnull (error);
      g_assert_true (error->domain == TERRAIN_ERROR);
    }

  layout_clear (&layout);
  free_files (files, 6);
}

/* A compressed directory block whose chunk is damaged. */
static void
test_packed_block_errors (void)
{
  V2File files[6];
  V2Layout layout = { TRUE, TRUE };
  g_autoptr(GBytes) bytes = NULL;
  gsize size;
  guint8 *p;

  make_files (files);
  files[4].method = 0;
  bytes = build (files, 6, &layout);
  size = g_bytes_get_size (bytes);

  p = g_memdup2 (g_bytes_get_data (bytes, NULL), size);
  p[layout.dir_block + 25] ^= 1;
  expect_error (p, size, TERRAIN_ERROR_INVALID_VALUE, "HPI: directory block at byte offset");
  expect_error (patched (bytes, layout.name_block + 11, 1u << 31, &size), size,
                TERRAIN_ERROR_INVALID_VALUE, "more than its");
  /* Plausible for the chunk, but over the limits: not allocated. */
  {
    g_autoptr(TerrainLimits) limits = terrain_limits_new ();
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainHpiArchive) archive = NULL;

    limits->max_allocation = 64;
    archive = terrain_hpi_archive_new_from_bytes (bytes, limits, &error);
    g_assert_null (archive);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
  }
  expect_error (patched (bytes, 12, 10, &size), size, TERRAIN_ERROR_TRUNCATED,
                "cannot hold a 19-byte chunk header");

  layout_clear (&layout);
  free_files (files, 6);
}

static void
test_cli (void)
{
  g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-hpi-v2");
  g_autofree char *archive = g_build_filename (dir, "kingdoms.hpi", NULL);
  g_autofree char *out = g_build_filename (dir, "out", NULL);
  g_autofree char *extracted = NULL;
  V2File files[6];
  V2Layout layout = { TRUE, TRUE };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) back = NULL;
  TerrainTestCliResult run;

  make_files (files);
  files[4].method = 0;
  bytes = build (files, 6, &layout);
  terrain_test_write_bytes (archive, bytes);

  run = terrain_test_run_cli (NULL, "hpi", "list", archive, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "     70000  zlib    maps/Isle.tnt\n"));
  g_assert_nonnull (strstr (run.out, "      5000  lz77    anims/units/knight.gaf\n"));
  g_assert_nonnull (strstr (run.out, "        57  stored  readme.txt\n"));
  terrain_test_cli_result_clear (&run);

  run = terrain_test_run_cli (NULL, "hpi", "extract", "-q", archive, out, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "");
  terrain_test_cli_result_clear (&run);
  extracted = g_build_filename (out, "anims", "big.bin", NULL);
  back = terrain_test_read_bytes (extracted);
  terrain_test_assert_bytes_equal (files[5].contents, back);

  run = terrain_test_run_cli (NULL, "validate", archive, NULL);
  g_assert_cmpint (run.status, ==, 0);
  terrain_test_cli_result_clear (&run);

  /* Without -q: the count of files. */
  run = terrain_test_run_cli (NULL, "hpi", "extract", archive, out, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, ": 6 files, "));
  terrain_test_cli_result_clear (&run);

  /* Writing into it is refused, and it stays as it was. */
  {
    g_autofree char *readme = g_build_filename (out, "readme.txt", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (archive);
    g_autoptr(GBytes) after = NULL;
    g_autoptr(GError) error = NULL;

    run = terrain_test_run_cli (NULL, "hpi", "pack", "--update", archive, readme, NULL);
    g_assert_cmpint (run.status, ==, 2);
    g_assert_nonnull (strstr (run.err, "TA: Kingdoms (version 2) archive"));
    terrain_test_cli_result_clear (&run);

    g_assert_false (terrain_hpi_save_map (file, "maps/Isle.tnt", files[1].contents, NULL, NULL,
                                          NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
    after = terrain_test_read_bytes (archive);
    terrain_test_assert_bytes_equal (bytes, after);
  }

  terrain_test_remove_tree (dir);
  layout_clear (&layout);
  free_files (files, 6);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/Terrain/HpiV2/read/plain-blocks", GUINT_TO_POINTER (0), test_read);
  g_test_add_data_func ("/Terrain/HpiV2/read/packed-directory", GUINT_TO_POINTER (1),
                        test_read);
  g_test_add_data_func ("/Terrain/HpiV2/read/packed-names", GUINT_TO_POINTER (2), test_read);
  g_test_add_data_func ("/Terrain/HpiV2/read/packed-blocks", GUINT_TO_POINTER (3), test_read);
  g_test_add_func ("/Terrain/HpiV2/malformed", test_malformed);
  g_test_add_func ("/Terrain/HpiV2/packed-block-errors", test_packed_block_errors);
  g_test_add_func ("/Terrain/HpiV2/cli", test_cli);
  return g_test_run ();
}
