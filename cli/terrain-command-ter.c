/* terrain-command-ter.c: `terrain ter`, edits of Torque3D terrains (.ter v7)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "terrain-cli.h"

static const char *
ter_report (TerrainCommand *command)
{
  return TERRAIN_IS_TER7_EDIT (command) ? terrain_ter7_edit_get_report (TERRAIN_TER7_EDIT (command))
                                        : NULL;
}

static const TerrainCliEditClass ter_edit_class = {
  terrain_ter7_file_get_type, N_("a Torque3D terrain (.ter version 7)"), ter_report, NULL, NULL,
};

#define TER(run) TERRAIN_TER7_FILE (terrain_cli_edit_get_document (run))

/* The operands of a rectangle edit: FILE X Y VALUE [COLUMNS ROWS]; the
 * subcommand reads VALUE (operand 2). */
static const TerrainCliOperand rectangle[] = {
  { "X" }, { "Y" }, { NULL }, { "COLUMNS" }, { "ROWS" }
};

#define RECTANGLE(run) terrain_cli_edit_get_value (run, 0), terrain_cli_edit_get_value (run, 1), \
                       terrain_cli_edit_get_value (run, 3), terrain_cli_edit_get_value (run, 4)

static int
prepare_set_height (TerrainCliEdit *run)
{
  double *metres = terrain_cli_edit_get_data (run);
  const char *text = terrain_cli_edit_get_argv (run)[4];
  char *end = NULL;

  *metres = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !isfinite (*metres) || *metres < 0 ||
      *metres * 32.0 > G_MAXUINT16)
    {
      terrain_cli_usage_error (terrain_cli_edit_get_command (run),
                               _("METRES must be a number from 0 to 2047.97"));
      return TERRAIN_EXIT_USAGE;
    }
  return TERRAIN_EXIT_OK;
}

static TerrainCommand *
build_set_height (TerrainCliEdit *run)
{
  double *metres = terrain_cli_edit_get_data (run);

  return terrain_ter7_edit_new_set_height (TER (run), RECTANGLE (run),
                                           (guint16) lround (*metres * 32.0));
}

static int
command_set_height (int    argc,
                    char **argv)
{
  static const TerrainCliEditCommand command = {
    { "ter set-height", N_("FILE X Y METRES [COLUMNS ROWS]"),
      N_("Set a rectangle of height samples (X, Y: the first column and row) to "
         "METRES, 0 to 2047.97 in steps of 1/32 (the file's 11.5 fixed point)."),
      NULL, NULL, 4, 6, N_("expected FILE X Y VALUE [COLUMNS ROWS]") },
    rectangle, G_N_ELEMENTS (rectangle), N_("give both COLUMNS and ROWS"),
    prepare_set_height, build_set_height, NULL
  };
  double metres = 0;

  return terrain_cli_edit_main (&ter_edit_class, &command, argc, argv, &metres);
}

/* The material operand 2 names: an index, a material's name or "hole". */
static int
apply_paint (TerrainCliEdit *run)
{
  const char *material = terrain_cli_edit_get_argv (run)[4];
  guint layer = G_MAXUINT;
  guint64 index;

  if (strcmp (material, "hole") == 0)
    layer = TERRAIN_TER7_EMPTY_LAYER;
  else if (g_ascii_string_to_unsigned (material, 10, 0, G_MAXUINT8, &index, NULL))
    layer = (guint) index;
  else
    for (guint i = 0; i < terrain_ter7_file_get_n_materials (TER (run)); i++)
      if (g_strcmp0 (terrain_ter7_file_get_material_name (TER (run), i), material) == 0)
        {
          layer = i;
          break;
        }
  if (layer == G_MAXUINT)
    {
      g_autofree char *message = g_strdup_printf (_("%s names no material of this file"),
                                                  material);

      terrain_cli_usage_error (terrain_cli_edit_get_command (run), message);
      return TERRAIN_EXIT_USAGE;
    }
  if (!terrain_cli_edit_execute (run, terrain_ter7_edit_new_paint (TER (run), RECTANGLE (run),
                                                                   (guint8) layer)))
    return TERRAIN_EXIT_ERROR;
  return TERRAIN_EXIT_OK;
}

static int
command_paint (int    argc,
               char **argv)
{
  static const TerrainCliEditCommand command = {
    { "ter paint", N_("FILE X Y MATERIAL [COLUMNS ROWS]"),
      N_("Paint a rectangle of the layer map with MATERIAL: an index, the name "
         "of one of the file's materials, or “hole” (no terrain drawn or "
         "collided with)."),
      NULL, NULL, 4, 6, N_("expected FILE X Y VALUE [COLUMNS ROWS]") },
    rectangle, G_N_ELEMENTS (rectangle), N_("give both COLUMNS and ROWS"),
    NULL, NULL, apply_paint
  };

  return terrain_cli_edit_main (&ter_edit_class, &command, argc, argv, NULL);
}

static const TerrainCliCommand ter_commands[] = {
  { "set-height", N_("Set a rectangle of heights"), command_set_height },
  { "paint", N_("Paint a rectangle of the layer map with a material or a hole"), command_paint },
};

const TerrainCliGroup terrain_cli_ter_group = {
  NULL, N_("FILE…"), N_("Edit Torque3D terrains (.ter version 7)."),
  terrain_cli_edit_footer,
  ter_commands, G_N_ELEMENTS (ter_commands), FALSE
};
