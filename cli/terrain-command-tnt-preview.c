/* terrain-command-tnt-preview.c: `terrain tnt preview`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "terrain-cli.h"

int
terrain_command_tnt_preview (int    argc,
                             char **argv)
{
  g_autofree char *out_path = NULL, *ota_path = NULL, *palette_path = NULL;
  g_auto(GStrv) archives = NULL;
  gint schema = 0, shrink = 1;
  gboolean height = FALSE, water = FALSE, no_features = FALSE, no_starts = FALSE;
  gboolean no_resources = FALSE;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out_path, N_("The PNG to write (required)"),
      N_("OUT.png") },
    { "archives", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &archives,
      N_("A TA install folder or archive to read feature TDFs, GAF sprites and the palette "
         "from, as the game does (repeatable; later ones win)"), N_("PATH") },
    { "palette", 'p', 0, G_OPTION_ARG_FILENAME, &palette_path,
      N_("The palette (default: palettes/PALETTE.PAL of --archives)"), N_("FILE") },
    { "ota", 0, 0, G_OPTION_ARG_FILENAME, &ota_path,
      N_("The map's .ota (default: the one of the same name beside it)"), N_("FILE") },
    { "schema", 0, 0, G_OPTION_ARG_INT, &schema,
      N_("The schema whose start positions are drawn (default 0)"), N_("N") },
    { "shrink", 0, 0, G_OPTION_ARG_INT, &shrink,
      N_("Scale the picture down by N, averaging N x N pixels (default 1: one pixel per map "
         "pixel)"), N_("N") },
    { "height-shading", 0, 0, G_OPTION_ARG_NONE, &height,
      N_("Darken low ground and lighten high ground"), NULL },
    { "water-shading", 0, 0, G_OPTION_ARG_NONE, &water,
      N_("Tint the cells below the sea level blue"), NULL },
    { "no-features", 0, 0, G_OPTION_ARG_NONE, &no_features, N_("Leave the feature sprites out"),
      NULL },
    { "no-resources", 0, 0, G_OPTION_ARG_NONE, &no_resources,
      N_("Leave the metal and geothermal marks out"), NULL },
    { "no-starts", 0, 0, G_OPTION_ARG_NONE, &no_starts, N_("Leave the start positions out"),
      NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("tnt preview", _("FILE.tnt -o OUT.png"),
                                _("Render the map as kbot's preview does: the tiles, feature "
                                  "sprites at their anchors, metal and geothermal marks, and "
                                  "numbered start positions."),
                                entries);
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(TerrainGameFiles) files = NULL;
  g_autoptr(TerrainFeatureCatalog) catalog = NULL;
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(TerrainOtaFile) ota = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GFile) ota_file = NULL, out = NULL;
  g_autoptr(GError) error = NULL;
  TerrainTntPreviewFlags flags = TERRAIN_TNT_PREVIEW_DEFAULT;
  TerrainTntPreviewStats stats;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 2 || out_path == NULL || schema < 0 || shrink < 1)
    {
      terrain_cli_usage_error ("tnt preview",
                               argc < 2 ? _("no map given")
                               : argc > 2 ? _("one map at a time")
                               : out_path == NULL ? _("-o OUT.png is required")
                               : schema < 0 ? _("--schema must be 0 or more")
                               : _("--shrink must be 1 or more"));
      return TERRAIN_EXIT_USAGE;
    }

  document = terrain_cli_open (argv[1]);
  if (document == NULL)
    return TERRAIN_EXIT_ERROR;
  if (!TERRAIN_IS_TNT_MAP (document))
    {
      terrain_cli_usage_error ("tnt preview", _("not a TNT map"));
      return TERRAIN_EXIT_USAGE;
    }
  if (archives != NULL && (catalog = terrain_cli_open_catalog (archives, &files)) == NULL)
    return TERRAIN_EXIT_ERROR;

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
  else if (files == NULL || (palette = terrain_game_files_load_palette (files, &error)) == NULL)
    {
      terrain_cli_usage_error ("tnt preview",
                               _("give --palette, or --archives holding palettes/PALETTE.PAL"));
      return TERRAIN_EXIT_USAGE;
    }

  if (ota_path != NULL)
    ota_file = g_file_new_for_commandline_arg (ota_path);
  else if (terrain_document_get_file (document) != NULL)
    ota_file = terrain_ta_map_find_ota (terrain_document_get_file (document), NULL);
  if (ota_file != NULL)
    {
      g_autofree char *name = g_file_get_parse_name (ota_file);

      ota = terrain_ota_file_new_from_file (ota_file, NULL, NULL, &error);
      if (ota == NULL)
        {
          terrain_cli_error (name, error);
          return TERRAIN_EXIT_ERROR;
        }
    }

  if (height)
    flags |= TERRAIN_TNT_PREVIEW_HEIGHT_SHADING;
  if (water)
    flags |= TERRAIN_TNT_PREVIEW_WATER_SHADING;
  if (no_features)
    flags |= TERRAIN_TNT_PREVIEW_NO_FEATURES;
  if (no_resources)
    flags |= TERRAIN_TNT_PREVIEW_NO_RESOURCES;
  if (no_starts)
    flags |= TERRAIN_TNT_PREVIEW_NO_STARTS;

  image = terrain_tnt_map_render_preview (TERRAIN_TNT_MAP (document), palette, ota, (guint) schema,
                                          files, catalog, flags, &stats, &error);
  if (image != NULL && shrink > 1)
    {
      TerrainImage *small = terrain_image_shrink (image, (guint) shrink, &error);

      terrain_image_unref (image);
      image = small;
    }
  out = g_file_new_for_commandline_arg (out_path);
  if (image == NULL || !terrain_image_save_png (image, out, NULL, &error))
    {
      terrain_cli_error (image == NULL ? argv[1] : out_path, error);
      return TERRAIN_EXIT_ERROR;
    }

  g_print (_("%s: %u feature sprites drawn, %u outlined (no definition or sprite), "
             "%u metal and %u geothermal marks, %u start positions\n"),
           out_path, stats.sprites, stats.unresolved, stats.metal, stats.geothermal, stats.starts);
  if (ota == NULL && !no_starts)
    g_print ("%s: %s\n", argv[1], _("no .ota beside the map: no start positions drawn"));
  if (catalog == NULL && !no_features)
    g_print ("%s: %s\n", argv[1], _("no --archives: features outlined, no sprites"));
  return TERRAIN_EXIT_OK;
}
