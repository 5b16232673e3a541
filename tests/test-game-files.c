/* test-game-files.c: an install's files as the game sees them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Builds an install in a temporary folder (archives written by the
 * library's HPI writer, loose files, a broken archive) and checks each
 * precedence rule of docs/formats/ta-files.md on its own file.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "libterrain.h"
#include "terrain-test-util.h"

typedef struct
{
  const char *path;
  const char *contents;
} ArchiveFile;

static void
write_archive (const char        *folder,
               const char        *name,
               const ArchiveFile *files,
               guint              n_files)
{
  g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  for (guint i = 0; i < n_files; i++)
    {
      g_autoptr(GBytes) bytes = g_bytes_new_static (files[i].contents, strlen (files[i].contents));

      g_assert_true (terrain_hpi_writer_add_file (writer, files[i].path, bytes,
                                                  TERRAIN_HPI_COMPRESSION_ZLIB, &error));
      g_assert_no_error (error);
    }
  g_assert_true (terrain_hpi_writer_save (writer, file, NULL, &error));
  g_assert_no_error (error);
}

static void
write_loose (const char *folder,
             const char *relative,
             const char *contents)
{
  g_autofree char *path = g_build_filename (folder, relative, NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_no_error (error);
}

static char *
read_text (TerrainGameFiles *files,
           const char       *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = terrain_game_files_read_path (files, path, &error);
  gsize size;
  const char *data;

  g_assert_no_error (error);
  data = g_bytes_get_data (bytes, &size);
  return g_strndup (data, size);
}

static const char *
source_of (TerrainGameFiles *files,
           const char       *path)
{
  guint index;
  const char *name;

  g_assert_true (terrain_game_files_find (files, path, &index));
  name = terrain_game_files_get_source_name (files, terrain_game_files_get_source (files, index));
  return strrchr (name, '/') + 1;
}

static char *
make_install (void)
{
  g_autoptr(GError) error = NULL;
  char *folder = g_dir_make_tmp ("terrain-game-files-XXXXXX", &error);
  const ArchiveFile a_hpi[] = {
    { "name.txt", "a.hpi" },
    { "only-a.txt", "a" },
  };
  const ArchiveFile b_hpi[] = {
    { "name.txt", "b.hpi" },
    { "ext.txt", "b.hpi" },
    { "Features/All Worlds/Trees.TDF",
      "[Tree1]\n{\n\tfootprintx=2;\n\tfootprintz=3;\n\tfilename=trees;\n\tseqname=tree1;\n}\n" },
  };
  const ArchiveFile a_ufo[] = {
    { "ext.txt", "a.ufo" },
    { "kinds.txt", "a.ufo" },
  };
  const ArchiveFile c_ccx[] = {
    { "kinds.txt", "c.ccx" },
  };
  const ArchiveFile g_gp3[] = {
    { "kinds.txt", "g.gp3" },
    { "loose.txt", "g.gp3" },
    { "maps/Ban.tnt", "map" },
  };

  g_assert_no_error (error);
  /* Written out of order: precedence must not follow creation. */
  write_archive (folder, "g.gp3", g_gp3, G_N_ELEMENTS (g_gp3));
  write_archive (folder, "B.HPI", b_hpi, G_N_ELEMENTS (b_hpi));
  write_archive (folder, "c.ccx", c_ccx, G_N_ELEMENTS (c_ccx));
  write_archive (folder, "a.hpi", a_hpi, G_N_ELEMENTS (a_hpi));
  write_archive (folder, "a.ufo", a_ufo, G_N_ELEMENTS (a_ufo));
  write_loose (folder, "loose.txt", "loose");
  write_loose (folder, "features/corpses/rocks.tdf",
               "[Rock1]\n{\n\tfootprintx=1;\n\tfootprintz=1;\n}\n");
  write_loose (folder, "broken.hpi", "HAPI this is not an archive");
  return folder;
}

static void
test_install_order (void)
{
  g_autofree char *folder = make_install ();
  g_autoptr(GFile) root = g_file_new_for_path (folder);
  g_autoptr(TerrainGameFiles) files = terrain_game_files_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL, *ext = NULL, *kinds = NULL, *loose = NULL;
  GPtrArray *warnings;
  guint index;

  g_assert_true (terrain_game_files_add (files, root, NULL, &error));
  g_assert_no_error (error);

  /* Archives of one kind: the later name (ignoring case) wins. */
  name = read_text (files, "name.txt");
  g_assert_cmpstr (name, ==, "b.hpi");
  g_assert_cmpstr (source_of (files, "name.txt"), ==, "B.HPI");
  /* A later kind wins over an earlier one, whatever the names. */
  ext = read_text (files, "ext.txt");
  g_assert_cmpstr (ext, ==, "a.ufo");
  kinds = read_text (files, "kinds.txt");
  g_assert_cmpstr (kinds, ==, "g.gp3");
  /* Loose files win over every archive. */
  loose = read_text (files, "loose.txt");
  g_assert_cmpstr (loose, ==, "loose");
  g_assert_cmpstr (source_of (files, "loose.txt"), ==, strrchr (folder, '/') + 1);
  g_assert_true (terrain_game_files_find (files, "loose.txt", &index));
  g_assert_cmpuint (terrain_game_files_get_n_shadowed (files, index), ==, 1);
  g_assert_true (terrain_game_files_find (files, "kinds.txt", &index));
  g_assert_cmpuint (terrain_game_files_get_n_shadowed (files, index), ==, 2);

  /* Case and separators do not matter; the winner's spelling is kept. */
  g_assert_true (terrain_game_files_find (files, "MAPS\\BAN.TNT", &index));
  g_assert_cmpstr (terrain_game_files_get_path (files, index), ==, "maps/Ban.tnt");
  g_assert_false (terrain_game_files_find (files, "maps/bar.tnt", NULL));
  g_assert_null (terrain_game_files_read_path (files, "maps/bar.tnt", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* Archives are not files of the loose tree; the broken one is left out
   * with a warning. */
  g_assert_false (terrain_game_files_find (files, "a.hpi", NULL));
  g_assert_false (terrain_game_files_find (files, "broken.hpi", NULL));
  warnings = terrain_game_files_get_warnings (files);
  g_assert_cmpuint (warnings->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (warnings, 0), "broken.hpi"));
  /* 5 archives and the folder, lowest first, the folder last. */
  g_assert_cmpuint (terrain_game_files_get_n_sources (files), ==, 6);
  g_assert_true (g_str_has_suffix (terrain_game_files_get_source_name (files, 0), "a.hpi"));
  g_assert_true (g_str_has_suffix (terrain_game_files_get_source_name (files, 4), "g.gp3"));

  /* Sorted listing; 8 distinct paths in all. */
  g_assert_cmpuint (terrain_game_files_get_n_files (files), ==, 8);
  for (guint i = 1; i < terrain_game_files_get_n_files (files); i++)
    g_assert_cmpint (g_ascii_strcasecmp (terrain_game_files_get_path (files, i - 1),
                                         terrain_game_files_get_path (files, i)), <, 0);
  {
    g_auto(GStrv) tdfs = terrain_game_files_list (files, "FEATURES", ".tdf");

    g_assert_cmpuint (g_strv_length (tdfs), ==, 2);
    g_assert_cmpstr (tdfs[0], ==, "Features/All Worlds/Trees.TDF");
    g_assert_cmpstr (tdfs[1], ==, "features/corpses/rocks.tdf");
  }

  /* The feature catalogue reads through the tree. */
  {
    g_autoptr(TerrainFeatureCatalog) catalog = terrain_feature_catalog_new ();
    TerrainFeatureDefinition *tree;
    guint fx, fz;

    g_assert_true (terrain_feature_catalog_load_game_files (catalog, files, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (terrain_feature_catalog_get_n_features (catalog), ==, 2);
    tree = terrain_feature_catalog_lookup (catalog, "TREE1");
    g_assert_nonnull (tree);
    terrain_feature_definition_get_footprint (tree, &fx, &fz);
    g_assert_cmpuint (fx, ==, 2);
    g_assert_cmpuint (fz, ==, 3);
    g_assert_true (g_str_has_suffix (terrain_feature_definition_get_origin (tree),
                                     "B.HPI:Features/All Worlds/Trees.TDF"));
  }

  terrain_test_remove_tree (folder);
}

static void
test_explicit_archives (void)
{
  g_autofree char *folder = make_install ();
  g_autofree char *a = g_build_filename (folder, "a.ufo", NULL);
  g_autofree char *b = g_build_filename (folder, "B.HPI", NULL);
  g_autoptr(GFile) file_a = g_file_new_for_path (a);
  g_autoptr(GFile) file_b = g_file_new_for_path (b);
  g_autoptr(GFile) broken = NULL;
  g_autoptr(TerrainGameFiles) files = terrain_game_files_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *ext = NULL;
  g_autofree char *broken_path = g_build_filename (folder, "broken.hpi", NULL);

  /* Archives named one by one: the later one wins, whatever its kind. */
  g_assert_true (terrain_game_files_add (files, file_a, NULL, &error));
  g_assert_true (terrain_game_files_add (files, file_b, NULL, &error));
  g_assert_no_error (error);
  ext = read_text (files, "ext.txt");
  g_assert_cmpstr (ext, ==, "b.hpi");

  /* An archive named on its own that cannot be read is an error. */
  broken = g_file_new_for_path (broken_path);
  g_assert_false (terrain_game_files_add (files, broken, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNSUPPORTED_VERSION);
  g_clear_error (&error);

  terrain_test_remove_tree (folder);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/GameFiles/install-order", test_install_order);
  g_test_add_func ("/Terrain/GameFiles/explicit-archives", test_explicit_archives);

  return g_test_run ();
}
