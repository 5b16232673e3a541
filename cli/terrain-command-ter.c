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

static gboolean
parse_options (const char   *command,
               const char   *parameters,
               const char   *summary,
               int          *argc,
               char       ***argv)
{
  const GOptionEntry none[] = { { NULL } };
  g_autoptr(GOptionContext) context = terrain_cli_option_context (command, parameters, summary,
                                                                  none);

  g_option_context_add_main_entries (context, terrain_cli_edit_entries (), GETTEXT_PACKAGE);
  return terrain_cli_parse (context, argc, argv);
}

static gboolean
parse_uint (const char *command,
            const char *what,
            const char *text,
            guint      *out)
{
  g_autoptr(GError) error = NULL;
  guint64 value;

  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32, &value, &error))
    {
      g_autofree char *message = g_strdup_printf (_("%s: %s"), what, error->message);

      terrain_cli_usage_error (command, message);
      return FALSE;
    }
  *out = (guint) value;
  return TRUE;
}

/* X Y at argv[2..3], then the value at argv[4], then [COLUMNS ROWS]. */
static gboolean
parse_rectangle (const char  *command,
                 int          argc,
                 char       **argv,
                 guint       *x,
                 guint       *y,
                 guint       *columns,
                 guint       *rows)
{
  *columns = *rows = 1;
  if (argc != 5 && argc != 7)
    {
      terrain_cli_usage_error (command, argc == 6 ? _("give both COLUMNS and ROWS")
                                                  : _("expected FILE X Y VALUE [COLUMNS ROWS]"));
      return FALSE;
    }
  return parse_uint (command, "X", argv[2], x) && parse_uint (command, "Y", argv[3], y) &&
         (argc == 5 || (parse_uint (command, "COLUMNS", argv[5], columns) &&
                        parse_uint (command, "ROWS", argv[6], rows)));
}

static int
command_set_height (int    argc,
                    char **argv)
{
  const char *command = "ter set-height";
  g_autoptr(TerrainCliEdit) run = NULL;
  guint x, y, columns, rows;
  double metres;
  char *end = NULL;

  if (!parse_options (command, _("FILE X Y METRES [COLUMNS ROWS]"),
                      _("Set a rectangle of height samples (X, Y: the first column and row) to "
                        "METRES, 0 to 2047.97 in steps of 1/32 (the file's 11.5 fixed point)."),
                      &argc, &argv) ||
      !parse_rectangle (command, argc, argv, &x, &y, &columns, &rows))
    return TERRAIN_EXIT_USAGE;
  metres = g_ascii_strtod (argv[4], &end);
  if (end == argv[4] || *end != '\0' || !isfinite (metres) || metres < 0 ||
      metres * 32.0 > G_MAXUINT16)
    {
      terrain_cli_usage_error (command, _("METRES must be a number from 0 to 2047.97"));
      return TERRAIN_EXIT_USAGE;
    }

  if ((run = terrain_cli_edit_open (&ter_edit_class, command, argv[1])) == NULL)
    return TERRAIN_EXIT_ERROR;
  return terrain_cli_edit_run (run, terrain_ter7_edit_new_set_height (TER (run), x, y, columns,
                                                                      rows,
                                                                      (guint16) lround (metres * 32.0)));
}

static int
command_paint (int    argc,
               char **argv)
{
  const char *command = "ter paint";
  g_autoptr(TerrainCliEdit) run = NULL;
  guint x, y, columns, rows, layer = G_MAXUINT;
  guint64 index;

  if (!parse_options (command, _("FILE X Y MATERIAL [COLUMNS ROWS]"),
                      _("Paint a rectangle of the layer map with MATERIAL: an index, the name "
                        "of one of the file's materials, or “hole” (no terrain drawn or "
                        "collided with)."),
                      &argc, &argv) ||
      !parse_rectangle (command, argc, argv, &x, &y, &columns, &rows))
    return TERRAIN_EXIT_USAGE;

  if ((run = terrain_cli_edit_open (&ter_edit_class, command, argv[1])) == NULL)
    return TERRAIN_EXIT_ERROR;
  if (strcmp (argv[4], "hole") == 0)
    layer = TERRAIN_TER7_EMPTY_LAYER;
  else if (g_ascii_string_to_unsigned (argv[4], 10, 0, G_MAXUINT8, &index, NULL))
    layer = (guint) index;
  else
    for (guint i = 0; i < terrain_ter7_file_get_n_materials (TER (run)); i++)
      if (g_strcmp0 (terrain_ter7_file_get_material_name (TER (run), i), argv[4]) == 0)
        {
          layer = i;
          break;
        }
  if (layer == G_MAXUINT)
    {
      g_autofree char *message = g_strdup_printf (_("%s names no material of this file"),
                                                  argv[4]);

      terrain_cli_usage_error (command, message);
      return TERRAIN_EXIT_USAGE;
    }
  return terrain_cli_edit_run (run, terrain_ter7_edit_new_paint (TER (run), x, y, columns, rows,
                                                                 (guint8) layer));
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
