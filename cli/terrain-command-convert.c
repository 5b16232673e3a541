/* terrain-command-convert.c: `terrain convert`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "terrain-cli.h"

int
terrain_command_convert (int    argc,
                         char **argv)
{
  gint64 version = -1;
  const GOptionEntry entries[] = {
    { "version", 'V', 0, G_OPTION_ARG_INT64, &version,
      N_("Resource version to write (Atlas: e.g. 100, 110, 120, 130, 140)"), N_("V") },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("convert", _("IN OUT --version V"),
                                _("Write a file at another format version. Atlas files: every "
                                  "TOC takes version V; geometry chunks are re-encoded in its "
                                  "layout. Information the target version cannot hold "
                                  "(normals before 140, collision before 120) is reported."),
                                entries);
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(TerrainAtlasFile) converted = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autoptr(GError) error = NULL;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 3)
    {
      terrain_cli_usage_error ("convert", _("expected IN and OUT"));
      return TERRAIN_EXIT_USAGE;
    }
  if (version < 0 || version > G_MAXUINT32)
    {
      terrain_cli_usage_error ("convert", _("--version V is required"));
      return TERRAIN_EXIT_USAGE;
    }

  document = terrain_cli_open (argv[1]);
  if (document == NULL)
    return TERRAIN_EXIT_ERROR;
  if (!TERRAIN_IS_ATLAS_FILE (document))
    {
      g_printerr (_("terrain: %s: %s files cannot be converted between versions\n"), argv[1],
                  terrain_format_get_description (terrain_document_get_format (document)));
      return TERRAIN_EXIT_ERROR;
    }

  converted = terrain_atlas_file_convert (TERRAIN_ATLAS_FILE (document), (guint32) version,
                                          &warnings, &error);
  if (converted == NULL)
    {
      terrain_cli_error (argv[1], error);
      return TERRAIN_EXIT_ERROR;
    }
  for (guint i = 0; i < warnings->len; i++)
    {
      g_autofree char *text = terrain_issue_to_string (g_ptr_array_index (warnings, i));

      g_printerr ("terrain: %s: %s\n", argv[1], text);
    }

  if (!terrain_cli_save (TERRAIN_DOCUMENT (converted), argv[2]))
    return TERRAIN_EXIT_ERROR;
  return TERRAIN_EXIT_OK;
}
