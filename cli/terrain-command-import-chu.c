/* terrain-command-import-chu.c: `terrain import-chu`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "terrain-cli.h"

int
terrain_command_import_chu (int    argc,
                            char **argv)
{
  gint goal_batch_size = TERRAIN_ATLAS_DEFAULT_GOAL_BATCH_SIZE;
  gboolean collision = FALSE;
  gboolean no_companion = FALSE;
  const GOptionEntry entries[] = {
    { "goal-batch-size", 0, 0, G_OPTION_ARG_INT, &goal_batch_size,
      N_("mGoalBatchSize of the geometry TOC (default 1500; CHU files have none)"), N_("N") },
    { "collision", 0, 0, G_OPTION_ARG_NONE, &collision,
      N_("Regenerate Atlas collision data for the leaf chunks"), NULL },
    { "no-companion", 0, 0, G_OPTION_ARG_NONE, &no_companion,
      N_("Do not look for a same-named .tqt beside IN.chu"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("import-chu", _("IN.chu [IN.tqt] OUT.atlas"),
                                _("Convert a chunked-LOD geometry tree (CHU3 or Ulrich's CHU) "
                                  "and a texture quadtree (TQT) into a new Atlas file: one "
                                  "geometry TOC and one texture TOC. Without IN.tqt, a .tqt "
                                  "with the same name beside IN.chu is used when there is one. "
                                  "IN.chu may also be a lone .tqt."),
                                entries);
  g_autoptr(TerrainDocument) first = NULL;
  g_autoptr(TerrainDocument) second = NULL;
  g_autoptr(TerrainAtlasFile) atlas = NULL;
  g_autoptr(GError) error = NULL;
  TerrainChuFile *chu = NULL;
  TerrainTqtFile *tqt = NULL;
  TerrainChuImportFlags flags = TERRAIN_CHU_IMPORT_NONE;
  const char *output_path;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 3 && argc != 4)
    {
      terrain_cli_usage_error ("import-chu", _("expected IN.chu, an optional IN.tqt and "
                                               "OUT.atlas"));
      return TERRAIN_EXIT_USAGE;
    }
  if (goal_batch_size < 0)
    {
      terrain_cli_usage_error ("import-chu", _("--goal-batch-size must not be negative"));
      return TERRAIN_EXIT_USAGE;
    }
  output_path = argv[argc - 1];

  first = terrain_cli_open (argv[1]);
  if (first == NULL)
    return TERRAIN_EXIT_ERROR;

  if (argc == 4)
    {
      second = terrain_cli_open (argv[2]);
      if (second == NULL)
        return TERRAIN_EXIT_ERROR;
    }
  else if (TERRAIN_IS_CHU_FILE (first) && !no_companion)
    {
      g_autoptr(GFile) input = g_file_new_for_commandline_arg (argv[1]);
      g_autoptr(GFile) companion = terrain_chu_find_companion_tqt (input, NULL);

      if (companion != NULL)
        {
          g_autofree char *path = g_file_get_path (companion);

          second = terrain_document_load (companion, NULL, NULL, &error);
          if (second == NULL)
            {
              terrain_cli_error (path, error);
              return TERRAIN_EXIT_ERROR;
            }
          g_printerr (_("terrain: using textures from %s\n"), path);
        }
    }

  if (TERRAIN_IS_CHU_FILE (first))
    chu = TERRAIN_CHU_FILE (first);
  else if (TERRAIN_IS_TQT_FILE (first) && second == NULL)
    tqt = TERRAIN_TQT_FILE (first);
  else
    {
      g_printerr (_("terrain: %s: not a .chu geometry tree\n"), argv[1]);
      return TERRAIN_EXIT_ERROR;
    }
  if (second != NULL)
    {
      if (!TERRAIN_IS_TQT_FILE (second))
        {
          g_printerr (_("terrain: %s: not a .tqt texture tree\n"), argv[2]);
          return TERRAIN_EXIT_ERROR;
        }
      tqt = TERRAIN_TQT_FILE (second);
    }

  if (collision)
    flags |= TERRAIN_CHU_IMPORT_COLLISION;
  atlas = terrain_chu_import (chu, tqt, (guint32) goal_batch_size, flags, &error);
  if (atlas == NULL)
    {
      terrain_cli_error (argv[1], error);
      return TERRAIN_EXIT_ERROR;
    }

  if (!terrain_cli_save (TERRAIN_DOCUMENT (atlas), output_path))
    return TERRAIN_EXIT_ERROR;

  return TERRAIN_EXIT_OK;
}
