/* terrain-command-tnt-pack.c: `terrain tnt unpack` and `terrain tnt pack`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "terrain-cli.h"

int
terrain_command_tnt_unpack (int    argc,
                            char **argv)
{
  g_autofree char *palette_path = NULL;
  const GOptionEntry entries[] = {
    { "palette", 'p', 0, G_OPTION_ARG_FILENAME, &palette_path,
      N_("The palette the tiles index, for the indexed PNGs (default: a grey ramp)"),
      N_("FILE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("tnt unpack", _("FILE.tnt DIR"),
                                _("Write the map as a folder of CSV, PNG and JSON files that "
                                  "'terrain tnt pack' rebuilds byte for byte."),
                                entries);
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(GFile) folder = NULL;
  g_autoptr(GError) error = NULL;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 3)
    {
      terrain_cli_usage_error ("tnt unpack", _("a map and a folder are needed"));
      return TERRAIN_EXIT_USAGE;
    }
  document = terrain_cli_open (argv[1]);
  if (document == NULL)
    return TERRAIN_EXIT_ERROR;
  if (!TERRAIN_IS_TNT_MAP (document))
    {
      terrain_cli_usage_error ("tnt unpack", _("not a TNT map"));
      return TERRAIN_EXIT_USAGE;
    }
  if (palette_path != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (palette_path);

      palette = terrain_palette_new_from_file (file, NULL, &error);
      if (palette == NULL)
        {
          terrain_cli_error (palette_path, error);
          return TERRAIN_EXIT_ERROR;
        }
    }
  folder = g_file_new_for_commandline_arg (argv[2]);
  if (!terrain_tnt_map_unpack (TERRAIN_TNT_MAP (document), palette, folder, NULL, &error))
    {
      terrain_cli_error (argv[1], error);
      return TERRAIN_EXIT_ERROR;
    }
  g_print (_("%s: unpacked into %s (%u tiles, %u feature records)\n"), argv[1], argv[2],
           terrain_tnt_map_get_n_tiles (TERRAIN_TNT_MAP (document)),
           terrain_tnt_map_get_n_features (TERRAIN_TNT_MAP (document)));
  return TERRAIN_EXIT_OK;
}

int
terrain_command_tnt_pack (int    argc,
                          char **argv)
{
  const GOptionEntry entries[] = { { NULL } };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("tnt pack", _("DIR OUT.tnt"),
                                _("Rebuild a map from a folder 'terrain tnt unpack' wrote, with "
                                  "the edits made to its files."),
                                entries);
  g_autoptr(GFile) folder = NULL, out = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 3)
    {
      terrain_cli_usage_error ("tnt pack", _("a folder and an output file are needed"));
      return TERRAIN_EXIT_USAGE;
    }
  folder = g_file_new_for_commandline_arg (argv[1]);
  out = g_file_new_for_commandline_arg (argv[2]);
  bytes = terrain_tnt_pack_folder (folder, NULL, NULL, &error);
  if (bytes == NULL || !terrain_file_save_bytes (out, bytes, NULL, &error))
    {
      terrain_cli_error (bytes == NULL ? argv[1] : argv[2], error);
      return TERRAIN_EXIT_ERROR;
    }
  {
    g_autofree char *size = g_strdup_printf ("%" G_GSIZE_FORMAT, g_bytes_get_size (bytes));

    /* Translators: the first %s is the output file, the second its size in bytes. */
    g_print (_("%s: %s bytes written\n"), argv[2], size);
  }
  return TERRAIN_EXIT_OK;
}
