/* test-map-hash.c: the hashes lobbies know a TA map by
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"

static void
test_map_hash (void)
{
  /* The CRC-32 check value: "123456789" is 0xcbf43926, however the bytes
   * fall between the .tnt and the .ota. */
  g_autoptr(GBytes) tnt = g_bytes_new_static ("1234", 4);
  g_autoptr(GBytes) ota = g_bytes_new_static ("56789", 5);
  g_autoptr(GBytes) all = g_bytes_new_static ("123456789", 9);
  g_autoptr(GBytes) none = g_bytes_new_static ("", 0);

  g_assert_cmphex (terrain_ta_map_hash (tnt, ota), ==, 0xcbf43926);
  g_assert_cmphex (terrain_ta_map_hash (all, none), ==, 0xcbf43926);
  g_assert_cmphex (terrain_ta_map_hash (none, all), ==, 0xcbf43926);
  g_assert_cmphex (terrain_ta_map_hash (ota, tnt), !=, 0xcbf43926);
}

static guint32
lobby_hash (TerrainTntMap *map)
{
  g_autoptr(GError) error = NULL;
  guint32 hash = 0;

  g_assert_true (terrain_tnt_map_get_lobby_hash (map, &hash, &error));
  g_assert_no_error (error);
  return hash;
}

static void
test_lobby_hash (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (8, 8, &error);
  guint8 tile[1024];
  guint32 base, tiles, heights;

  g_assert_no_error (error);
  base = lobby_hash (map);
  g_assert_cmphex (base, ==, lobby_hash (map));

  /* Tile pictures are not hashed. */
  memset (tile, 7, sizeof tile);
  terrain_tnt_map_set_tile (map, 0, tile);
  tiles = lobby_hash (map);
  g_assert_cmphex (tiles, ==, base);

  /* Heights (the attribute map), features and the header are. */
  terrain_tnt_map_set_cell_height (map, 3, 3, 200);
  heights = lobby_hash (map);
  g_assert_cmphex (heights, !=, base);
  terrain_tnt_map_add_feature_name (map, "Tree1");
  g_assert_cmphex (lobby_hash (map), !=, heights);
  heights = lobby_hash (map);
  terrain_tnt_map_set_sea_level (map, 20, NULL);
  g_assert_cmphex (lobby_hash (map), !=, heights);
}

static void
test_info (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (4, 4, &error);
  g_autofree char *tnt_path = NULL;
  g_autofree char *folder = NULL;
  g_autoptr(GBytes) tnt = NULL;
  g_autoptr(GBytes) ota = g_bytes_new_static ("[GlobalHeader]\n{\n}\n", 19);
  g_autofree char *expected_map = NULL;
  g_autofree char *expected_lobby = NULL;
  guint32 lobby;
  g_auto(TerrainTestCliResult) result = { 0 };

  g_assert_no_error (error);
  folder = terrain_test_write_map_folder ("terrain-map-hash", map, "Hash Test.tnt", "HASH TEST.OTA",
                                          "[GlobalHeader]\n{\n}\n", &tnt_path, NULL);
  tnt = terrain_test_read_bytes (tnt_path);
  lobby = lobby_hash (map);

  expected_map = g_strdup_printf ("\"map_hash\" : \"%08x\"", terrain_ta_map_hash (tnt, ota));
  expected_lobby = g_strdup_printf ("\"lobby_hash\" : \"%08x\"", lobby);
  result = terrain_test_run_cli (NULL, "info", "--json", tnt_path, NULL);
  g_assert_cmpint (result.status, ==, 0);
  g_assert_nonnull (strstr (result.out, expected_map));
  g_assert_nonnull (strstr (result.out, expected_lobby));
  g_assert_nonnull (strstr (result.out, "HASH TEST.OTA"));

  terrain_test_remove_tree (folder);
}

/* A map inside an archive: its .ota is the archive's file of the same path,
 * found ignoring case, for the map hash of `terrain info` and for lint. */
static void
test_ota_in_archive (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (4, 4, &error);
  g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
  g_autoptr(GBytes) tnt = NULL;
  g_autoptr(GBytes) ota = g_bytes_new_static ("[GlobalHeader]\n{\n}\n", 19);
  g_autoptr(GBytes) archive = NULL;
  g_autoptr(GBytes) found = NULL;
  g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-map-hash-archive");
  g_autofree char *path = g_build_filename (dir, "duel.ufo", NULL);
  g_autofree char *spec = g_strconcat (path, ":MAPS/duel.TNT", NULL);
  g_autofree char *lone = g_strconcat (path, ":maps/lone.tnt", NULL);
  g_autofree char *found_spec = NULL;
  g_autofree char *expected_spec = g_strconcat (path, ":maps/Duel.ota", NULL);
  g_autofree char *expected_map = NULL;
  g_auto(TerrainTestCliResult) result = { 0 };

  g_assert_no_error (error);
  tnt = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (map), &error);
  g_assert_no_error (error);
  g_assert_true (terrain_hpi_writer_add_file (writer, "maps/Duel.tnt", tnt,
                                              TERRAIN_HPI_COMPRESSION_ZLIB, &error));
  g_assert_true (terrain_hpi_writer_add_file (writer, "maps/Duel.ota", ota,
                                              TERRAIN_HPI_COMPRESSION_ZLIB, &error));
  g_assert_true (terrain_hpi_writer_add_file (writer, "maps/lone.tnt", tnt,
                                              TERRAIN_HPI_COMPRESSION_ZLIB, &error));
  archive = terrain_hpi_writer_to_bytes (writer, &error);
  g_assert_no_error (error);
  terrain_test_write_bytes (path, archive);

  found = terrain_ta_map_load_ota (spec, &found_spec, NULL, &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (ota, found);
  g_assert_cmpstr (found_spec, ==, expected_spec);
  g_clear_pointer (&found, g_bytes_unref);
  g_clear_pointer (&found_spec, g_free);
  found = terrain_ta_map_load_ota (lone, &found_spec, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (found);
  g_assert_null (found_spec);

  expected_map = g_strdup_printf ("\"map_hash\" : \"%08x\"", terrain_ta_map_hash (tnt, ota));
  result = terrain_test_run_cli (NULL, "info", "--json", spec, NULL);
  g_assert_cmpint (result.status, ==, 0);
  g_assert_nonnull (strstr (result.out, expected_map));
  g_assert_nonnull (strstr (result.out, "duel.ufo:maps/Duel.ota"));
  terrain_test_cli_result_clear (&result);

  /* Lint reads the same .ota: its metadata checks run. */
  result = terrain_test_run_cli (NULL, "tnt", "lint", "--json", spec, NULL);
  g_assert_nonnull (strstr (result.out, "duel.ufo:maps/Duel.ota\""));
  g_assert_nonnull (strstr (result.out, "\"ota.fields\""));

  terrain_test_remove_tree (dir);
}

static void
test_corpus (void)
{
  const char *corpus = g_getenv ("TERRAIN_CORPUS_DIR");
  const char * const maps[] = { "ban", "bar" };
  g_autoptr(GBytes) empty = g_bytes_new_static ("", 0);
  for (guint i = 0; i < G_N_ELEMENTS (maps); i++)
    {
      g_autofree char *tnt_name = g_strdup_printf ("%s.tnt", maps[i]);
      g_autofree char *tnt_path = g_build_filename (corpus, "ta", "maps", tnt_name, NULL);
      g_autoptr(GFile) tnt_file = g_file_new_for_path (tnt_path);
      g_autoptr(GFile) ota_file = terrain_ta_map_find_ota (tnt_file, NULL);
      g_autoptr(GBytes) tnt = g_file_load_bytes (tnt_file, NULL, NULL, NULL);
      g_autoptr(GBytes) ota = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainTntMap) map = NULL;
      g_autoptr(GBytes) joined = NULL;
      GByteArray *both = g_byte_array_new ();

      g_assert_nonnull (ota_file);
      ota = g_file_load_bytes (ota_file, NULL, NULL, NULL);
      g_assert_nonnull (tnt);
      g_assert_nonnull (ota);
      /* One CRC over the two files joined. */
      g_byte_array_append (both, g_bytes_get_data (tnt, NULL), g_bytes_get_size (tnt));
      g_byte_array_append (both, g_bytes_get_data (ota, NULL), g_bytes_get_size (ota));
      joined = g_byte_array_free_to_bytes (both);
      g_assert_cmphex (terrain_ta_map_hash (tnt, ota), ==,
                       terrain_ta_map_hash (joined, empty));
      g_test_message ("%s: map hash %08x", maps[i], terrain_ta_map_hash (tnt, ota));
      /* Recorded in docs/formats/tnt-sct.md, "Corpus maps" (zlib.crc32 of
       * the two files joined, computed outside libterrain). */
      g_assert_cmphex (terrain_ta_map_hash (tnt, ota), ==, i == 0 ? 0x997b04cd : 0xd7c6292f);

      map = terrain_tnt_map_new_from_bytes (tnt, NULL, &error);
      g_assert_no_error (error);
      g_test_message ("%s: lobby hash %08x", maps[i], lobby_hash (map));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/MapHash/ta-forever", test_map_hash);
  g_test_add_func ("/Terrain/MapHash/lobby", test_lobby_hash);
  g_test_add_func ("/Terrain/MapHash/info", test_info);
  g_test_add_func ("/Terrain/MapHash/ota-in-archive", test_ota_in_archive);
  /* The real maps, when ../shared/corpus is there (as test-corpus). */
  terrain_test_add_corpus_func ("/Terrain/MapHash/corpus", test_corpus);

  return g_test_run ();
}
