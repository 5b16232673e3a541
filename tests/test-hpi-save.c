/* test-hpi-save.c: saving a map into an HPI archive (issue 16, issue 15)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Archives are built in code with TerrainHpiWriter (its layout is checked
 * against an independent encoder in test-hpi-reference.c); the map is saved into
 * them with terrain_hpi_save_map() and read back. The corpus archive
 * mymaps_v1.hpi is copied to a temporary folder and a map saved into the
 * copy when the corpus is present.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"
#include "terrain-test-util.h"

static GBytes *
text_bytes (const char *text)
{
  return g_bytes_new (text, strlen (text));
}

static GBytes *
pattern_bytes (gsize  size,
               guint8 seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  guint8 *data = g_malloc (size);

  /* Half noise, so chunks do compress but not to nothing. */
  for (gsize i = 0; i < size; i++)
    data[i] = (i & 1) != 0 ? (guint8) g_rand_int (rand) : (guint8) (seed + i / 64);
  return g_bytes_new_take (data, size);
}

static GBytes *
read_path (TerrainHpiArchive *archive,
           const char        *path)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = terrain_hpi_archive_read_path (archive, path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  return bytes;
}

static guint
find_index (TerrainHpiArchive *archive,
            const char        *path)
{
  guint index = G_MAXUINT;

  g_assert_true (terrain_hpi_archive_find (archive, path, &index));
  return index;
}

static TerrainHpiArchive *
open_archive (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  TerrainHpiArchive *archive = terrain_hpi_archive_new_from_file (file, NULL, NULL, &error);

  g_assert_no_error (error);
  return archive;
}

/* An archive like a map pack: two maps, a feature TDF and a sound, mixed
 * compression, obfuscated with @key. */
static void
write_pack (const char *path,
            guint8      key)
{
  g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  struct
  {
    const char *path;
    GBytes *contents;
    TerrainHpiCompression compression;
  } files[] = {
    { "maps/Duel.tnt", pattern_bytes (150000, 1), TERRAIN_HPI_COMPRESSION_ZLIB },
    { "maps/Duel.ota", text_bytes ("[GlobalHeader]\r\n{\r\nmissionname=Duel;\r\n}\r\n"),
      TERRAIN_HPI_COMPRESSION_LZ77 },
    { "maps/Other.tnt", pattern_bytes (70000, 9), TERRAIN_HPI_COMPRESSION_LZ77 },
    { "features/rocks.tdf", text_bytes ("[Rock1]\r\n{\r\nfootprintx=2;\r\n}\r\n"),
      TERRAIN_HPI_COMPRESSION_NONE },
    { "sounds/wind.wav", pattern_bytes (5000, 3), TERRAIN_HPI_COMPRESSION_ZLIB },
  };

  terrain_hpi_writer_set_key (writer, key);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_assert_true (terrain_hpi_writer_add_file (writer, files[i].path, files[i].contents,
                                                  files[i].compression, &error));
      g_assert_no_error (error);
      g_bytes_unref (files[i].contents);
    }
  g_assert_true (terrain_hpi_writer_save (writer, file, NULL, &error));
  g_assert_no_error (error);
}

static void
test_has_file (void)
{
  g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
  g_autoptr(GBytes) bytes = text_bytes ("x");
  g_autoptr(GError) error = NULL;

  g_assert_false (terrain_hpi_writer_has_file (writer, "maps/a.tnt"));
  g_assert_true (terrain_hpi_writer_add_file (writer, "maps/a.tnt", bytes,
                                              TERRAIN_HPI_COMPRESSION_NONE, &error));
  g_assert_no_error (error);
  g_assert_true (terrain_hpi_writer_has_file (writer, "maps/a.tnt"));
  g_assert_true (terrain_hpi_writer_has_file (writer, "MAPS\\A.TNT"));
  g_assert_false (terrain_hpi_writer_has_file (writer, "maps"));
  g_assert_false (terrain_hpi_writer_has_file (writer, "maps/a.tnt/b"));
  g_assert_false (terrain_hpi_writer_has_file (writer, ""));
  g_assert_false (terrain_hpi_writer_has_file (writer, "maps/b.tnt"));
}

/* Saving into an existing archive replaces the map's two files, keeps
 * every other file byte for byte with its method, the key and the
 * archive's spelling, and keeps the old archive as ARCHIVE.bak. */
static void
test_save_into_existing (gconstpointer data)
{
  guint8 key = (guint8) GPOINTER_TO_UINT (data);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("terrain-hpi-save-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "pack.ufo", NULL);
  g_autofree char *backup_path = g_build_filename (dir, "pack.ufo.bak", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) backup = NULL;
  g_autoptr(TerrainHpiArchive) before = NULL;
  g_autoptr(TerrainHpiArchive) after = NULL;
  g_autoptr(TerrainHpiArchive) kept = NULL;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) backed_up = NULL;
  g_autoptr(GBytes) tnt = pattern_bytes (140000, 42);
  g_autoptr(GBytes) ota = text_bytes ("[GlobalHeader]\r\n{\r\nmissionname=Duel II;\r\n}\r\n");

  g_assert_no_error (error);
  write_pack (path, key);
  before = open_archive (path);
  original = terrain_file_load_bytes (file, NULL, &error);
  g_assert_no_error (error);

  /* Any case finds the archive's entries; their spelling stays. */
  g_assert_true (terrain_hpi_save_map (file, "MAPS/duel.TNT", tnt, ota, NULL, NULL, &error));
  g_assert_no_error (error);

  after = open_archive (path);
  g_assert_cmpuint (terrain_hpi_archive_get_n_files (after), ==,
                    terrain_hpi_archive_get_n_files (before));
  g_assert_cmpuint (terrain_hpi_archive_get_key (after), ==, key);
  for (guint i = 0; i < terrain_hpi_archive_get_n_files (before); i++)
    {
      const char *name = terrain_hpi_archive_get_path (before, i);
      guint j = find_index (after, name);
      g_autoptr(GBytes) old_bytes = read_path (before, name);
      g_autoptr(GBytes) new_bytes = read_path (after, name);

      g_assert_cmpstr (terrain_hpi_archive_get_path (after, j), ==, name);
      g_assert_cmpint (terrain_hpi_archive_get_compression (after, j), ==,
                       terrain_hpi_archive_get_compression (before, i));
      if (g_str_equal (name, "maps/Duel.tnt"))
        g_assert_true (g_bytes_equal (new_bytes, tnt));
      else if (g_str_equal (name, "maps/Duel.ota"))
        g_assert_true (g_bytes_equal (new_bytes, ota));
      else
        g_assert_true (g_bytes_equal (new_bytes, old_bytes));
    }

  /* The backup is the old archive, byte for byte. */
  backup = terrain_hpi_backup_file (file);
  g_assert_cmpstr (g_file_peek_path (backup), ==, backup_path);
  backed_up = terrain_file_load_bytes (backup, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (backed_up, original));

  /* Without an .ota the archive's own stays. */
  kept = NULL;
  {
    g_autoptr(GBytes) tnt2 = pattern_bytes (1000, 5);
    g_autoptr(GBytes) ota_read = NULL;

    g_assert_true (terrain_hpi_save_map (file, "maps/Duel.tnt", tnt2, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
    kept = open_archive (path);
    ota_read = read_path (kept, "maps/duel.ota");
    g_assert_true (g_bytes_equal (ota_read, ota));
    g_bytes_unref (ota_read);
    ota_read = read_path (kept, "maps/Duel.tnt");
    g_assert_true (g_bytes_equal (ota_read, tnt2));
  }

  terrain_test_remove_tree (dir);
}

/* A new archive holds just the map's files; a map not in an existing
 * archive joins it. */
static void
test_save_new_and_join (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("terrain-hpi-save-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "Duel.ufo", NULL);
  g_autofree char *bak = g_build_filename (dir, "Duel.ufo.bak", NULL);
  g_autofree char *custom = g_build_filename (dir, "old-copy.hpi", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) custom_file = g_file_new_for_path (custom);
  g_autoptr(TerrainHpiArchive) archive = NULL;
  g_autoptr(GBytes) tnt = pattern_bytes (90000, 11);
  g_autoptr(GBytes) ota = text_bytes ("[GlobalHeader]\r\n{\r\n}\r\n");
  g_autoptr(GBytes) other = pattern_bytes (300, 2);
  g_autoptr(GBytes) read = NULL;
  g_autoptr(GBytes) first = NULL;
  g_autoptr(GBytes) kept = NULL;

  g_assert_no_error (error);
  g_assert_true (terrain_hpi_save_map (file, "maps/Duel.tnt", tnt, ota, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (bak, G_FILE_TEST_EXISTS));
  archive = open_archive (path);
  g_assert_cmpuint (terrain_hpi_archive_get_n_files (archive), ==, 2);
  g_assert_cmpint (terrain_hpi_archive_get_compression (archive, find_index (archive, "maps/Duel.tnt")),
                   ==, TERRAIN_HPI_COMPRESSION_ZLIB);
  read = read_path (archive, "maps/Duel.tnt");
  g_assert_true (g_bytes_equal (read, tnt));
  g_clear_pointer (&read, g_bytes_unref);
  read = read_path (archive, "maps/Duel.ota");
  g_assert_true (g_bytes_equal (read, ota));
  g_clear_pointer (&read, g_bytes_unref);
  g_clear_object (&archive);

  /* A second map joins; the backup goes where it is asked to. */
  first = terrain_file_load_bytes (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (terrain_hpi_save_map (file, "maps/Second.tnt", other, NULL, custom_file, NULL,
                                       &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (bak, G_FILE_TEST_EXISTS));
  kept = terrain_file_load_bytes (custom_file, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (kept, first));
  archive = open_archive (path);
  g_assert_cmpuint (terrain_hpi_archive_get_n_files (archive), ==, 3);
  read = read_path (archive, "maps/Second.tnt");
  g_assert_true (g_bytes_equal (read, other));
  g_clear_pointer (&read, g_bytes_unref);
  read = read_path (archive, "maps/Duel.tnt");
  g_assert_true (g_bytes_equal (read, tnt));

  terrain_test_remove_tree (dir);
}

/* A file that is not an archive, a damaged archive and a bad path are
 * refused, and nothing is written. */
static void
test_save_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("terrain-hpi-save-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "notes.ufo", NULL);
  g_autofree char *bak = g_build_filename (dir, "notes.ufo.bak", NULL);
  g_autofree char *damaged = g_build_filename (dir, "damaged.ufo", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) damaged_file = g_file_new_for_path (damaged);
  g_autoptr(GBytes) tnt = pattern_bytes (100, 1);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) bytes = NULL;
  guint8 *data;
  gsize size;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, "not an archive", -1, &error));
  g_assert_false (terrain_hpi_save_map (file, "maps/Duel.tnt", tnt, NULL, NULL, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC);
  g_assert_nonnull (strstr (error->message, "notes.ufo"));
  g_clear_error (&error);
  g_assert_false (g_file_test (bak, G_FILE_TEST_EXISTS));
  after = terrain_file_load_bytes (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (after, NULL), g_bytes_get_size (after), "not an archive", 14);

  /* A chunk whose checksum fails: the other file cannot be carried over. */
  write_pack (damaged, 0);
  bytes = terrain_file_load_bytes (damaged_file, NULL, &error);
  g_assert_no_error (error);
  data = g_bytes_unref_to_data (g_steal_pointer (&bytes), &size);
  data[size - 100] ^= 0x5A;           /* inside sounds/wind.wav, the last file */
  g_assert_true (g_file_set_contents (damaged, (char *) data, (gssize) size, &error));
  g_assert_false (terrain_hpi_save_map (damaged_file, "maps/Duel.tnt", tnt, NULL, NULL, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "sounds/wind.wav"));
  g_clear_error (&error);
  bytes = terrain_file_load_bytes (damaged_file, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), data, size);
  g_free (data);

  /* A path the archive cannot hold. */
  g_assert_false (terrain_hpi_save_map (file, "maps/../x.tnt", tnt, NULL, NULL, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC);
  g_clear_error (&error);
  g_assert_true (g_unlink (path) == 0);
  g_assert_false (terrain_hpi_save_map (file, "maps/../x.tnt", tnt, NULL, NULL, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  terrain_test_remove_tree (dir);
}

/* An edited ban.tnt saved into a copy of mymaps_v1.hpi: bar and foo are
 * carried over byte for byte, and the edit reads back. */
/* terrain_hpi_writer_update(): the path `hpi pack --update` takes. */
static void
test_writer_update (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("terrain-hpi-save-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "pack.ufo", NULL);
  g_autofree char *fresh = g_build_filename (dir, "fresh.ufo", NULL);
  g_autofree char *bak = g_build_filename (dir, "kept.bak", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) fresh_file = g_file_new_for_path (fresh);
  g_autoptr(GFile) bak_file = g_file_new_for_path (bak);
  g_autoptr(GBytes) tnt = pattern_bytes (4000, 21);
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) kept = NULL;
  g_autoptr(TerrainHpiArchive) before = NULL;
  g_autoptr(TerrainHpiArchive) after = NULL;
  guint n = G_MAXUINT;

  g_assert_no_error (error);
  write_pack (path, 0x44);
  original = terrain_file_load_bytes (file, NULL, &error);
  g_assert_no_error (error);
  before = terrain_hpi_archive_new_from_bytes (original, NULL, &error);
  g_assert_no_error (error);

  /* Into the existing archive, its key kept: the namesake replaced (the
   * archive's spelling kept), the others byte for byte, the backup given. */
  {
    g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();

    g_assert_true (terrain_hpi_writer_add_file (writer, "MAPS/duel.TNT", tnt,
                                                TERRAIN_HPI_COMPRESSION_ZLIB, &error));
    g_assert_true (terrain_hpi_writer_update (writer, file, TRUE, bak_file, &n, NULL, &error));
    g_assert_no_error (error);
  }
  g_assert_cmpuint (n, ==, 5);
  after = open_archive (path);
  g_assert_cmpuint (terrain_hpi_archive_get_key (after), ==, 0x44);
  g_assert_cmpuint (terrain_hpi_archive_get_n_files (after), ==, 5);
  for (guint i = 0; i < terrain_hpi_archive_get_n_files (before); i++)
    {
      const char *name = terrain_hpi_archive_get_path (before, i);
      g_autoptr(GBytes) old_bytes = read_path (before, name);
      g_autoptr(GBytes) new_bytes = read_path (after, name);

      g_assert_true (g_bytes_equal (new_bytes, g_str_equal (name, "maps/Duel.tnt") ? tnt
                                                                                   : old_bytes));
    }
  kept = terrain_file_load_bytes (bak_file, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (kept, original));
  g_clear_object (&after);

  /* The writer's own key when told so. */
  {
    g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();

    terrain_hpi_writer_set_key (writer, 9);
    g_assert_true (terrain_hpi_writer_update (writer, file, FALSE, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
  }
  after = open_archive (path);
  g_assert_cmpuint (terrain_hpi_archive_get_key (after), ==, 9);
  g_assert_cmpuint (terrain_hpi_archive_get_n_files (after), ==, 5);

  /* No archive yet: the writer's files, nothing carried over. */
  {
    g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
    g_autoptr(TerrainHpiArchive) created = NULL;

    g_assert_true (terrain_hpi_writer_add_file (writer, "maps/New.tnt", tnt,
                                                TERRAIN_HPI_COMPRESSION_LZ77, &error));
    g_assert_true (terrain_hpi_writer_update (writer, fresh_file, TRUE, NULL, &n, NULL,
                                              &error));
    g_assert_no_error (error);
    g_assert_cmpuint (n, ==, 0);
    created = open_archive (fresh);
    g_assert_cmpuint (terrain_hpi_archive_get_n_files (created), ==, 1);
  }

  /* Not an archive: refused, nothing written. */
  {
    g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
    g_autoptr(GBytes) text = NULL;

    g_assert_true (g_file_set_contents (fresh, "plain text", -1, &error));
    g_assert_false (terrain_hpi_writer_update (writer, fresh_file, TRUE, NULL, NULL, NULL,
                                               &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC);
    g_clear_error (&error);
    text = terrain_file_load_bytes (fresh_file, NULL, &error);
    g_assert_cmpmem (g_bytes_get_data (text, NULL), g_bytes_get_size (text), "plain text", 10);
  }

  terrain_test_remove_tree (dir);
}

static void
test_corpus (void)
{
  g_autofree char *source = terrain_test_corpus_path ("ta/archives/mymaps_v1.hpi");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *spec = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) source_file = NULL;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainHpiArchive) before = NULL;
  g_autoptr(TerrainHpiArchive) after = NULL;
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(TerrainDocument) reread = NULL;
  g_autoptr(GBytes) tnt = NULL;
  g_autoptr(GBytes) reread_bytes = NULL;
  TerrainTntMap *map;

  if (source == NULL)
    {
      g_test_skip ("corpus archive not found");
      return;
    }
  dir = g_dir_make_tmp ("terrain-hpi-save-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "mymaps_v1.hpi", NULL);
  file = g_file_new_for_path (path);
  source_file = g_file_new_for_path (source);
  original = terrain_file_load_bytes (source_file, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (terrain_file_save_bytes (file, original, NULL, &error));
  g_assert_no_error (error);

  spec = g_strconcat (path, ":maps/ban.tnt", NULL);
  document = terrain_document_load_path (spec, TERRAIN_FORMAT_UNKNOWN, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (TERRAIN_IS_TNT_MAP (document));
  map = TERRAIN_TNT_MAP (document);
  terrain_tnt_map_set_sea_level (map, (guint8) (terrain_tnt_map_get_sea_level (map) + 3), NULL);
  tnt = terrain_document_save_to_bytes (document, &error);
  g_assert_no_error (error);

  g_assert_true (terrain_hpi_save_map (file, "maps/ban.tnt", tnt, NULL, NULL, NULL, &error));
  g_assert_no_error (error);

  before = terrain_hpi_archive_new_from_bytes (original, NULL, &error);
  g_assert_no_error (error);
  after = open_archive (path);
  g_assert_cmpuint (terrain_hpi_archive_get_n_files (after), ==, 6);
  for (guint i = 0; i < terrain_hpi_archive_get_n_files (before); i++)
    {
      const char *name = terrain_hpi_archive_get_path (before, i);
      g_autoptr(GBytes) old_bytes = read_path (before, name);
      g_autoptr(GBytes) new_bytes = read_path (after, name);

      if (g_str_equal (name, "maps/ban.tnt"))
        g_assert_true (g_bytes_equal (new_bytes, tnt));
      else
        g_assert_true (g_bytes_equal (new_bytes, old_bytes));
    }

  reread = terrain_document_load_path (spec, TERRAIN_FORMAT_UNKNOWN, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_tnt_map_get_sea_level (TERRAIN_TNT_MAP (reread)), ==,
                    terrain_tnt_map_get_sea_level (map));
  {
    g_autofree char *bak = g_strconcat (path, ".bak", NULL);
    g_autoptr(GFile) bak_file = g_file_new_for_path (bak);

    reread_bytes = terrain_file_load_bytes (bak_file, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (g_bytes_equal (reread_bytes, original));
  }

  terrain_test_remove_tree (dir);
}

/* `terrain hpi pack --update`: the given file replaces its namesake, the
 * others and the key stay, the old archive is OUT.bak. */
static void
test_cli_update (void)
{
  const char *cli = g_getenv ("TERRAIN_CLI");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *tnt_path = NULL;
  g_autofree char *bak = NULL;
  g_autoptr(GBytes) tnt = pattern_bytes (3000, 77);
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) kept = NULL;
  g_autoptr(TerrainHpiArchive) before = NULL;
  g_autoptr(TerrainHpiArchive) after = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) bak_file = NULL;
  g_auto(TerrainTestCliResult) run = { 0 };

  if (cli == NULL || !g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("TERRAIN_CLI not set");
      return;
    }
  dir = g_dir_make_tmp ("terrain-hpi-save-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "pack.ufo", NULL);
  bak = g_build_filename (dir, "pack.ufo.bak", NULL);
  tnt_path = g_build_filename (dir, "duel.TNT", NULL);
  write_pack (path, 0x21);
  file = g_file_new_for_path (path);
  original = terrain_file_load_bytes (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (tnt_path, g_bytes_get_data (tnt, NULL),
                                      (gssize) g_bytes_get_size (tnt), &error));

  run = terrain_test_run_cli (NULL, "hpi", "pack", "--update", path, tnt_path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "1 files packed into the 5 of the archive"));
  g_assert_nonnull (strstr (run.out, "pack.ufo.bak"));

  before = terrain_hpi_archive_new_from_bytes (original, NULL, &error);
  g_assert_no_error (error);
  after = open_archive (path);
  g_assert_cmpuint (terrain_hpi_archive_get_n_files (after), ==, 5);
  g_assert_cmpuint (terrain_hpi_archive_get_key (after), ==, 0x21);
  for (guint i = 0; i < terrain_hpi_archive_get_n_files (before); i++)
    {
      const char *name = terrain_hpi_archive_get_path (before, i);
      g_autoptr(GBytes) old_bytes = read_path (before, name);
      g_autoptr(GBytes) new_bytes = read_path (after, name);

      if (g_str_equal (name, "maps/Duel.tnt"))
        g_assert_true (g_bytes_equal (new_bytes, tnt));
      else
        g_assert_true (g_bytes_equal (new_bytes, old_bytes));
    }
  bak_file = g_file_new_for_path (bak);
  kept = terrain_file_load_bytes (bak_file, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (kept, original));

  /* Not an archive: refused, nothing written. */
  terrain_test_cli_result_clear (&run);
  g_assert_true (g_file_set_contents (path, "plain text", -1, &error));
  g_assert_true (g_unlink (bak) == 0);
  run = terrain_test_run_cli (NULL, "hpi", "pack", "--update", path, tnt_path, NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_false (g_file_test (bak, G_FILE_TEST_EXISTS));

  terrain_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/HpiSave/has-file", test_has_file);
  g_test_add_data_func ("/Terrain/HpiSave/into-existing/plain", GUINT_TO_POINTER (0),
                        test_save_into_existing);
  g_test_add_data_func ("/Terrain/HpiSave/into-existing/keyed", GUINT_TO_POINTER (0x7B),
                        test_save_into_existing);
  g_test_add_func ("/Terrain/HpiSave/new-and-join", test_save_new_and_join);
  g_test_add_func ("/Terrain/HpiSave/errors", test_save_errors);
  g_test_add_func ("/Terrain/HpiSave/cli-update", test_cli_update);
  g_test_add_func ("/Terrain/HpiSave/writer-update", test_writer_update);
  g_test_add_func ("/Terrain/HpiSave/corpus", test_corpus);
  return g_test_run ();
}
