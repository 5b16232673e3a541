/* terrain-command-export.c: `terrain export-image` and `terrain export-heightmap`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "terrain-cli.h"

static int
save_image (TerrainImage *image,
            const char   *path)
{
  g_autoptr(GFile) out = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;

  if (!terrain_image_save_png (image, out, NULL, &error))
    {
      terrain_cli_error (path, error);
      return TERRAIN_EXIT_ERROR;
    }
  return TERRAIN_EXIT_OK;
}

int
terrain_command_export_image (int    argc,
                              char **argv)
{
  g_autofree char *palette_path = NULL;
  const GOptionEntry entries[] = {
    { "palette", 'p', 0, G_OPTION_ARG_FILENAME, &palette_path,
      N_("Palette: a 1024-byte PALETTE.PAL or a 256-colour PCX"), N_("FILE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("export-image", _("FILE OUT.png"),
                                _("Render a map's picture to PNG (for TNT and SCT: every tile "
                                  "through the palette, one pixel per map pixel)."),
                                entries);
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(TerrainRenderOptions) options = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GError) error = NULL;

  /* A heightmap is read as build-atlas reads it. */
  g_option_context_add_main_entries (context, terrain_cli_heightmap_format_entries (),
                                     GETTEXT_PACKAGE);
  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 3)
    {
      terrain_cli_usage_error ("export-image", _("expected FILE and OUT.png"));
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

  document = terrain_cli_open (argv[1]);
  if (document == NULL)
    return TERRAIN_EXIT_ERROR;

  options = terrain_palette_to_render_options (palette);
  image = terrain_document_render_image (document, options, &error);
  if (image == NULL)
    {
      /* Only when the library asks for one: a tile that does not decode
       * is also an invalid value. */
      if (palette == NULL && g_error_matches (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE)
          && strstr (error->message, "palette") != NULL)
        {
          /* A missing option, not a bad file: a usage error. */
          g_printerr ("terrain: %s: %s (%s)\n", argv[1], error->message,
                      _("give one with --palette"));
          return TERRAIN_EXIT_USAGE;
        }
      terrain_cli_error (argv[1], error);
      return TERRAIN_EXIT_ERROR;
    }

  return save_image (image, argv[2]);
}

int
terrain_command_export_heightmap (int    argc,
                                  char **argv)
{
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("export-heightmap", _("FILE OUT.png"),
                                _("Write a map's heights as a 16-bit greyscale PNG, one pixel "
                                  "per height sample. 8-bit heights are multiplied by 257, so "
                                  "0..255 maps exactly onto 0..65535."),
                                NULL);
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GError) error = NULL;

  /* A heightmap is read as build-atlas reads it. */
  g_option_context_add_main_entries (context, terrain_cli_heightmap_format_entries (),
                                     GETTEXT_PACKAGE);
  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 3)
    {
      terrain_cli_usage_error ("export-heightmap", _("expected FILE and OUT.png"));
      return TERRAIN_EXIT_USAGE;
    }

  document = terrain_cli_open (argv[1]);
  if (document == NULL)
    return TERRAIN_EXIT_ERROR;

  image = terrain_document_export_heights (document, &error);
  if (image == NULL)
    {
      terrain_cli_error (argv[1], error);
      return TERRAIN_EXIT_ERROR;
    }

  return save_image (image, argv[2]);
}
