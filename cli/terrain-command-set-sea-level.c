/* terrain-command-set-sea-level.c: `terrain set-sea-level`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "terrain-cli.h"

int
terrain_command_set_sea_level (int    argc,
                               char **argv)
{
  g_autofree char *output = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write to OUT instead of changing FILE in place"), N_("OUT") },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("set-sea-level", _("FILE LEVEL"),
                                _("Set a map's sea level (height units, 0..255 for TNT). Only "
                                  "the sea-level field changes; the file is saved atomically."),
                                entries);
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  guint64 level;
  const char *target;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 3)
    {
      terrain_cli_usage_error ("set-sea-level", _("expected FILE and LEVEL"));
      return TERRAIN_EXIT_USAGE;
    }
  if (!g_ascii_string_to_unsigned (argv[2], 10, 0, G_MAXUINT32, &level, &error))
    {
      terrain_cli_usage_error ("set-sea-level", error->message);
      return TERRAIN_EXIT_USAGE;
    }

  document = terrain_cli_open (argv[1]);
  if (document == NULL)
    return TERRAIN_EXIT_ERROR;

  if (!TERRAIN_IS_TNT_MAP (document))
    {
      g_printerr ("terrain: %s: %s files have no sea level\n", argv[1],
                  terrain_format_get_description (terrain_document_get_format (document)));
      return TERRAIN_EXIT_ERROR;
    }
  /* The library's one rule (terrain_tnt_map_check_sea_level()) and its
   * message. */
  if (!terrain_tnt_map_set_sea_level (TERRAIN_TNT_MAP (document), (guint32) level, &error))
    {
      terrain_cli_error (argv[1], error);
      return TERRAIN_EXIT_USAGE;
    }

  if (output == NULL && terrain_document_get_file (document) == NULL)
    {
      g_printerr (_("terrain: %s: a file inside an archive cannot be changed in place; "
                    "give -o OUT\n"), argv[1]);
      return TERRAIN_EXIT_USAGE;
    }
  target = output != NULL ? output : argv[1];
  if (!terrain_cli_save (document, target))
    return TERRAIN_EXIT_ERROR;

  return TERRAIN_EXIT_OK;
}
