/* terrain-command-ota.c: `terrain ota show|set`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "terrain-cli.h"

static TerrainOtaFile *
open_ota (const char *path)
{
  TerrainDocument *document = terrain_cli_open (path);

  if (document == NULL)
    return NULL;
  if (!TERRAIN_IS_OTA_FILE (document))
    {
      g_printerr (_("terrain: %s: not a map description (.ota) but %s\n"), path,
                  terrain_format_get_description (terrain_document_get_format (document)));
      g_object_unref (document);
      return NULL;
    }
  return TERRAIN_OTA_FILE (document);
}

static void
print_field (const char *label,
             const char *value)
{
  g_print ("%-20s %s\n", label, value != NULL ? value : "-");
}

static int
ota_show (int    argc,
          char **argv)
{
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print machine-readable JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("ota show", _("FILE"),
                                _("Show a map description's header fields, schemas and start "
                                  "positions (in pixels). FILE may be ARCHIVE:maps/NAME.ota."),
                                entries);
  g_autoptr(TerrainOtaFile) ota = NULL;
  guint n;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 2)
    {
      terrain_cli_usage_error ("ota show", _("expected one FILE"));
      return TERRAIN_EXIT_USAGE;
    }

  ota = open_ota (argv[1]);
  if (ota == NULL)
    return TERRAIN_EXIT_ERROR;

  if (json)
    {
      g_autoptr(JsonNode) node = terrain_document_describe (TERRAIN_DOCUMENT (ota));
      g_autofree char *text = terrain_cli_json_to_string (node, TRUE);

      g_print ("%s\n", text);
      return TERRAIN_EXIT_OK;
    }

  print_field ("missionname", terrain_ota_file_get_mission_name (ota));
  print_field ("missiondescription",
               terrain_ota_file_get_header_value (ota, "missiondescription"));
  print_field ("planet", terrain_ota_file_get_header_value (ota, "planet"));
  print_field ("size", terrain_ota_file_get_size (ota));
  print_field ("numplayers", terrain_ota_file_get_header_value (ota, "numplayers"));
  print_field ("memory", terrain_ota_file_get_header_value (ota, "memory"));
  g_print ("%-20s %d\n", "SCHEMACOUNT", terrain_ota_file_get_schema_count (ota));

  n = terrain_ota_file_get_n_schemas (ota);
  for (guint s = 0; s < n; s++)
    {
      g_autofree TerrainOtaStartPosition *positions = NULL;
      guint n_positions = 0;

      if (terrain_ota_file_get_schema (ota, s) == NULL)
        continue;
      g_print ("[Schema %u] %s\n", s,
               terrain_ota_file_get_schema_type (ota, s) != NULL
                 ? terrain_ota_file_get_schema_type (ota, s) : "");
      positions = terrain_ota_file_get_start_positions (ota, s, &n_positions);
      for (guint k = 0; k < n_positions; k++)
        g_print ("  StartPos%-3u x=%-6d z=%d\n", positions[k].player, positions[k].x,
                 positions[k].z);
    }
  return TERRAIN_EXIT_OK;
}

/* "N:X,Z" */
static gboolean
parse_start (const char *text,
             guint      *player,
             gint       *x,
             gint       *z)
{
  g_auto(GStrv) parts = g_strsplit_set (text, ":,", -1);
  guint64 p;
  gint64 vx, vz;

  if (g_strv_length (parts) != 3 ||
      !g_ascii_string_to_unsigned (parts[0], 10, 1, 1000, &p, NULL) ||
      !g_ascii_string_to_signed (parts[1], 10, G_MININT, G_MAXINT, &vx, NULL) ||
      !g_ascii_string_to_signed (parts[2], 10, G_MININT, G_MAXINT, &vz, NULL))
    return FALSE;
  *player = (guint) p;
  *x = (gint) vx;
  *z = (gint) vz;
  return TRUE;
}

/* `terrain ota set`: TerrainOtaEdit commands, run by the edit runner
 * (terrain_cli_edit_main()) as the `tnt` editing subcommands are. */
static const char *
ota_report (TerrainCommand *command)
{
  return TERRAIN_IS_OTA_EDIT (command) ? terrain_ota_edit_get_report (TERRAIN_OTA_EDIT (command))
                                       : NULL;
}

static const TerrainCliEditClass ota_edit_class = {
  terrain_ota_file_get_type, N_("a map description (.ota)"), ota_report, NULL, NULL,
};

typedef struct
{
  char **starts;
  int schema;
} OtaSet;

static int
prepare_ota_set (TerrainCliEdit *run)
{
  const char *command = terrain_cli_edit_get_command (run);
  char **argv = terrain_cli_edit_get_argv (run);
  OtaSet *set = terrain_cli_edit_get_data (run);

  if (set->schema < 0)
    {
      terrain_cli_usage_error (command, _("--schema takes a number from 0"));
      return TERRAIN_EXIT_USAGE;
    }
  for (int i = 2; argv[i] != NULL; i++)
    {
      const char *equals = strchr (argv[i], '=');

      if (equals == NULL || equals == argv[i])
        {
          terrain_cli_usage_error (command, _("expected KEY=VALUE"));
          return TERRAIN_EXIT_USAGE;
        }
    }
  for (guint i = 0; set->starts != NULL && set->starts[i] != NULL; i++)
    {
      guint player;
      gint x, z;

      if (!parse_start (set->starts[i], &player, &x, &z))
        {
          terrain_cli_usage_error (command, _("--start takes N:X,Z, e.g. 1:512,768"));
          return TERRAIN_EXIT_USAGE;
        }
    }
  return TERRAIN_EXIT_OK;
}

/* KEY=VALUE edits first, then the start positions, in the order given. */
static int
apply_ota_set (TerrainCliEdit *run)
{
  TerrainOtaFile *ota = TERRAIN_OTA_FILE (terrain_cli_edit_get_document (run));
  char **argv = terrain_cli_edit_get_argv (run);
  OtaSet *set = terrain_cli_edit_get_data (run);

  for (int i = 2; argv[i] != NULL; i++)
    {
      const char *equals = strchr (argv[i], '=');
      g_autofree char *key_path = g_strndup (argv[i], (gsize) (equals - argv[i]));
      char *slash = strrchr (key_path, '/');
      const char *block = NULL, *key = key_path;

      /* BLOCK/…/KEY from the top level, or a [GlobalHeader] key. */
      if (slash != NULL)
        {
          *slash = '\0';
          block = key_path;
          key = slash + 1;
        }
      if (!terrain_cli_edit_execute (run, terrain_ota_edit_new_set_value (ota, block, key,
                                                                          equals + 1)))
        return TERRAIN_EXIT_ERROR;
    }
  for (guint i = 0; set->starts != NULL && set->starts[i] != NULL; i++)
    {
      guint player;
      gint x, z;

      parse_start (set->starts[i], &player, &x, &z);
      if (!terrain_cli_edit_execute (run, terrain_ota_edit_new_set_start_position (ota,
                                                                                   (guint) set->schema,
                                                                                   player, x, z)))
        return TERRAIN_EXIT_ERROR;
    }
  return TERRAIN_EXIT_OK;
}

static int
ota_set (int    argc,
         char **argv)
{
  OtaSet set = { NULL };
  const GOptionEntry entries[] = {
    { "start", 0, 0, G_OPTION_ARG_STRING_ARRAY, &set.starts,
      N_("Move start position N to X, Z pixels (added if missing); repeatable"), N_("N:X,Z") },
    { "schema", 0, 0, G_OPTION_ARG_INT, &set.schema,
      N_("Schema of the start positions (default 0)"), N_("S") },
    { NULL }
  };
  const TerrainCliEditCommand command = {
    { "ota set", N_("FILE [KEY=VALUE…]"),
      N_("Change a map description. KEY is a [GlobalHeader] key, or BLOCK/…/KEY from the top "
         "level (e.g. \"GlobalHeader/Schema 0/MohoMetal=50\"). Only the changed values' bytes "
         "change."),
      entries, NULL, 1, G_MAXINT, N_("expected FILE") },
    NULL, 0, NULL, prepare_ota_set, NULL, apply_ota_set
  };

  return terrain_cli_edit_main (&ota_edit_class, &command, argc, argv, &set);
}

static const TerrainCliCommand ota_commands[] = {
  { "show", N_("Show header fields, schemas and start positions"), ota_show },
  { "set", N_("Change header keys and start positions"), ota_set },
};

const TerrainCliGroup terrain_cli_ota_group = {
  NULL, N_("FILE…"),
  N_("Total Annihilation map descriptions (.ota). Edits keep every "
     "other byte of the file as it was."),
  terrain_cli_edit_footer, ota_commands, G_N_ELEMENTS (ota_commands), FALSE
};
