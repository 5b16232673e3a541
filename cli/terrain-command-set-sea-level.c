/* terrain-command-set-sea-level.c: `terrain set-sea-level`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A TNT edit, run by the edit runner (terrain_cli_edit_main()) as the `tnt`
 * editing subcommands are: -o OUT or FILE changed in place, atomically,
 * --dry-run printing the byte ranges that would change.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "terrain-cli.h"

/* The library's one rule (terrain_tnt_map_check_sea_level()) and its
 * message, before FILE is opened. */
static int
prepare_sea_level (TerrainCliEdit *run)
{
  g_autoptr(GError) error = NULL;

  if (!terrain_tnt_map_check_sea_level (terrain_cli_edit_get_value (run, 0), &error))
    {
      terrain_cli_error (terrain_cli_edit_get_argv (run)[1], error);
      return TERRAIN_EXIT_USAGE;
    }
  return TERRAIN_EXIT_OK;
}

static TerrainCommand *
build_sea_level (TerrainCliEdit *run)
{
  return terrain_tnt_edit_new_sea_level (TERRAIN_TNT_MAP (terrain_cli_edit_get_document (run)),
                                         terrain_cli_edit_get_value (run, 0));
}

int
terrain_command_set_sea_level (int    argc,
                               char **argv)
{
  static const TerrainCliOperand operands[] = { { "LEVEL" } };
  static const TerrainCliEditCommand command = {
    { "set-sea-level", N_("FILE LEVEL"),
      N_("Set a map's sea level (height units, 0..255 for TNT). Only the sea-level field "
         "changes."),
      NULL, NULL, 2, 2, N_("expected FILE and LEVEL") },
    operands, G_N_ELEMENTS (operands), NULL, prepare_sea_level, build_sea_level, NULL
  };

  return terrain_cli_edit_main (&terrain_cli_tnt_edit_class, &command, argc, argv, NULL);
}
