/* terrain.c: the terrain command-line tool
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "terrain-cli.h"

static const TerrainCliCommand commands[] = {
  { "info", N_("Summarise files (header fields, counts, sections)"), terrain_command_info },
  { "validate", N_("Check files and list findings with byte offsets"), terrain_command_validate },
  { "roundtrip", N_("Read, write back and compare bytes"), terrain_command_roundtrip },
  { "export-image", N_("Render a map to PNG through a palette"), terrain_command_export_image },
  { "export-heightmap", N_("Write heights as a 16-bit greyscale PNG"),
    terrain_command_export_heightmap },
  { "set-sea-level", N_("Change a map's sea level"), terrain_command_set_sea_level },
  { "model", N_("Insomniac models"), NULL, &terrain_cli_model_group },
  { "import-chu", N_("Convert a CHU geometry tree and TQT textures to an Atlas file"),
    terrain_command_import_chu },
  { "atlas", N_("Atlas files"), NULL, &terrain_cli_atlas_group },
  { "build-atlas", N_("Build an Atlas file from a heightmap and a texture"),
    terrain_command_build_atlas },
  { "convert-heightmap", N_("Convert a heightmap to 16-bit PNG, raw16 or a Torque3D .ter"),
    terrain_command_convert_heightmap },
  { "convert", N_("Write a file at another format version"), terrain_command_convert },
  { "insomniac", N_("Insomniac terrain"), NULL, &terrain_cli_insomniac_group },
  { "hpi", N_("HPI archives"), NULL, &terrain_cli_hpi_group },
  { "ota", N_("Map descriptions (.ota)"), NULL, &terrain_cli_ota_group },
  { "ter", N_("Edit Torque3D terrains (.ter v7)"), NULL, &terrain_cli_ter_group },
  { "tnt", N_("Edit TA maps"), NULL, &terrain_cli_tnt_group },
};

static const TerrainCliGroup terrain_group = {
  "terrain", N_("FILE…"),
  N_("Read, check and edit legacy game terrain files: Total Annihilation maps and archives, "
     "Torque Atlas, CHU and TQT, Insomniac terrain and models."),
  N_("Exit status: 0 success; 1 findings (validate) or mismatch (roundtrip); 2 a file could "
     "not be read or written; 64 bad usage."),
  commands, G_N_ELEMENTS (commands), TRUE
};

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  /* TERRAIN_LOCALEDIR: the build tree's catalogues (set by `meson devenv`). */
  bindtextdomain (GETTEXT_PACKAGE,
                  g_getenv ("TERRAIN_LOCALEDIR") != NULL ? g_getenv ("TERRAIN_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  return terrain_cli_dispatch (&terrain_group, argc, argv);
}
