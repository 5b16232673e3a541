/* fuzz-tnt-pack.c: libFuzzer harness for packing unpacked TNT maps
 *
 * An unpacked folder (metadata.json and the CSV and PNG files) of a small
 * map built at start-up is held in memory; each input replaces one of its
 * files (the first byte picks which, the rest is the new content) and
 * terrain_tnt_pack_members() either rebuilds a map that loads, of the size
 * the manifest gives, or fails with a TERRAIN_ERROR. The unedited folder
 * packs to the map byte for byte.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libterrain.h"
#include "ta/terrain-tnt-unpack-private.h"
#include "fuzz-limits.h"

static const char * const member_names[] = {
  TERRAIN_TNT_UNPACK_MANIFEST, "tilemap.csv", "features.csv", "feature-table.csv",
  "heightmap.png", "tiles.png", "minimap.png",
};

static GHashTable *members;

static void
set_up (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (8, 6, &error);
  g_autofree char *root = g_dir_make_tmp ("fuzz-tnt-pack-XXXXXX", &error);
  g_autoptr(GFile) folder = NULL;
  g_autoptr(GBytes) source = NULL, packed = NULL;
  guint8 tile[1024];

  if (map == NULL || root == NULL)
    abort ();
  memset (tile, 7, sizeof tile);
  terrain_tnt_map_add_tile (map, tile);
  terrain_tnt_map_set_tile_index (map, 1, 1, 1);
  terrain_tnt_map_set_cell_height (map, 2, 3, 77);
  terrain_tnt_map_set_cell_feature (map, 1, 2, terrain_tnt_map_add_feature_name (map, "Tree1"),
                                    NULL);
  terrain_tnt_map_set_cell_feature (map, 4, 4, TERRAIN_TNT_FEATURE_VOID, NULL);
  folder = g_file_new_for_path (root);
  if (!terrain_tnt_map_unpack (map, NULL, folder, NULL, &error))
    abort ();
  members = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_bytes_unref);
  for (guint i = 0; i < G_N_ELEMENTS (member_names); i++)
    {
      g_autofree char *path = g_build_filename (root, member_names[i], NULL);
      char *contents = NULL;
      gsize length = 0;

      if (g_file_get_contents (path, &contents, &length, NULL))
        g_hash_table_insert (members, (gpointer) member_names[i],
                             g_bytes_new_take (contents, length));
      g_unlink (path);
    }
  g_rmdir (root);

  source = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (map), &error);
  packed = terrain_tnt_pack_members (members, fuzz_limits (), &error);
  if (source == NULL || packed == NULL || !g_bytes_equal (source, packed))
    {
      g_printerr ("the unedited folder does not pack byte-exact: %s\n",
                  error != NULL ? error->message : "");
      abort ();
    }
}

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GHashTable) edited = NULL;
  g_autoptr(GBytes) packed = NULL;
  g_autoptr(GError) error = NULL;
  GHashTableIter iter;
  gpointer key, value;

  if (members == NULL)
    set_up ();
  if (size == 0)
    return 0;

  edited = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_bytes_unref);
  g_hash_table_iter_init (&iter, members);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (edited, key, g_bytes_ref (value));
  g_hash_table_insert (edited, (gpointer) member_names[data[0] % G_N_ELEMENTS (member_names)],
                       g_bytes_new (data + 1, size - 1));

  packed = terrain_tnt_pack_members (edited, fuzz_limits (), &error);
  if (packed == NULL)
    {
      if (error == NULL || error->domain != TERRAIN_ERROR ||
          !g_utf8_validate (error->message, -1, NULL))
        abort ();
      return 0;
    }
  {
    g_autoptr(TerrainTntMap) map = terrain_tnt_map_new_from_bytes (packed, fuzz_limits (), &error);

    if (map == NULL)
      abort ();
  }
  return 0;
}
