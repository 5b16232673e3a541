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

static int
ota_set (int    argc,
         char **argv)
{
  g_autofree char *output = NULL;
  g_auto(GStrv) starts = NULL;
  int schema = 0;
  gboolean dry_run = FALSE;
  const GOptionEntry entries[] = {
    { "start", 0, 0, G_OPTION_ARG_STRING_ARRAY, &starts,
      N_("Move start position N to X, Z pixels (added if missing); repeatable"), N_("N:X,Z") },
    { "schema", 0, 0, G_OPTION_ARG_INT, &schema,
      N_("Schema of the start positions (default 0)"), N_("S") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write to OUT instead of changing FILE in place"), N_("OUT") },
    { "dry-run", 'n', 0, G_OPTION_ARG_NONE, &dry_run,
      N_("Print what would change and write nothing"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("ota set", _("FILE [KEY=VALUE…]"),
                                _("Change a map description. KEY is a [GlobalHeader] key, or "
                                  "BLOCK/…/KEY from the top level (e.g. \"GlobalHeader/Schema "
                                  "0/MohoMetal=50\"). Only the changed values' bytes change; "
                                  "the file is saved atomically."),
                                entries);
  g_autoptr(TerrainOtaFile) ota = NULL;
  TerrainTdfDocument *tdf;
  g_autoptr(GError) error = NULL;
  guint changes = 0;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc < 2)
    {
      terrain_cli_usage_error ("ota set", _("expected FILE"));
      return TERRAIN_EXIT_USAGE;
    }
  if (schema < 0)
    {
      terrain_cli_usage_error ("ota set", _("--schema takes a number from 0"));
      return TERRAIN_EXIT_USAGE;
    }

  ota = open_ota (argv[1]);
  if (ota == NULL)
    return TERRAIN_EXIT_ERROR;
  tdf = TERRAIN_TDF_DOCUMENT (ota);

  for (int i = 2; i < argc; i++)
    {
      const char *equals = strchr (argv[i], '=');
      g_autofree char *key_path = NULL;
      const char *slash, *key;
      TerrainTdfSection *section;
      const char *old;

      if (equals == NULL || equals == argv[i])
        {
          terrain_cli_usage_error ("ota set", _("expected KEY=VALUE"));
          return TERRAIN_EXIT_USAGE;
        }
      key_path = g_strndup (argv[i], (gsize) (equals - argv[i]));
      slash = strrchr (key_path, '/');
      if (slash != NULL)
        {
          g_autofree char *block = g_strndup (key_path, (gsize) (slash - key_path));

          section = terrain_tdf_document_find_section (tdf, block);
          key = slash + 1;
          if (section == NULL)
            {
              g_printerr (_("terrain: %s: no block “%s”\n"), argv[1], block);
              return TERRAIN_EXIT_ERROR;
            }
        }
      else
        {
          section = terrain_ota_file_get_global_header (ota);
          key = key_path;
          if (section == NULL)
            {
              g_printerr (_("terrain: %s: the file has no [GlobalHeader]\n"), argv[1]);
              return TERRAIN_EXIT_ERROR;
            }
        }

      old = terrain_tdf_section_get_value (section, key);
      if (dry_run)
        g_print ("%s: %s -> %s\n", key_path, old != NULL ? old : _("(new)"), equals + 1);
      if (g_strcmp0 (old, equals + 1) != 0)
        changes++;
      if (!terrain_tdf_document_set_value (tdf, section, key, equals + 1, &error))
        {
          terrain_cli_error (argv[1], error);
          return TERRAIN_EXIT_USAGE;
        }
    }

  for (guint i = 0; starts != NULL && starts[i] != NULL; i++)
    {
      guint player;
      gint x, z, old_x, old_z;
      gboolean existed;

      if (!parse_start (starts[i], &player, &x, &z))
        {
          terrain_cli_usage_error ("ota set", _("--start takes N:X,Z, e.g. 1:512,768"));
          return TERRAIN_EXIT_USAGE;
        }
      existed = terrain_ota_file_get_start_position (ota, (guint) schema, player, &old_x, &old_z);
      if (dry_run)
        {
          if (existed)
            g_print ("Schema %d StartPos%u: %d,%d -> %d,%d\n", schema, player, old_x, old_z, x, z);
          else
            g_print ("Schema %d StartPos%u: (new) -> %d,%d\n", schema, player, x, z);
        }
      if (!existed || old_x != x || old_z != z)
        changes++;
      if (!terrain_ota_file_set_start_position (ota, (guint) schema, player, x, z, &error))
        {
          terrain_cli_error (argv[1], error);
          return TERRAIN_EXIT_ERROR;
        }
    }

  if (dry_run)
    {
      g_autoptr(GBytes) written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ota), &error);
      GBytes *source = terrain_document_get_source_bytes (TERRAIN_DOCUMENT (ota));

      if (written == NULL)
        {
          terrain_cli_error (argv[1], error);
          return TERRAIN_EXIT_ERROR;
        }
      {
        g_autofree char *new_size = g_strdup_printf ("%" G_GSIZE_FORMAT,
                                                     g_bytes_get_size (written));
        g_autofree char *old_size = g_strdup_printf ("%" G_GSIZE_FORMAT,
                                                     source != NULL ?
                                                     g_bytes_get_size (source) : 0);

        /* Translators: the number of changes (%u), the size that would be
         * written in bytes, the current size in bytes, then a file name. */
        g_print (_("%u changes; would write %s bytes (now %s) to %s\n"), changes,
                 new_size, old_size, output != NULL ? output : argv[1]);
      }
      return TERRAIN_EXIT_OK;
    }

  {
    g_autoptr(GFile) destination = NULL;
    const char *target = output != NULL ? output : argv[1];

    if (output != NULL)
      destination = g_file_new_for_commandline_arg (output);
    else if (terrain_document_get_file (TERRAIN_DOCUMENT (ota)) == NULL)
      {
        g_printerr (_("terrain: %s: a file inside an archive cannot be changed in place; "
                      "give -o OUT\n"), argv[1]);
        return TERRAIN_EXIT_USAGE;
      }
    if (!terrain_document_save (TERRAIN_DOCUMENT (ota), destination, NULL, &error))
      {
        terrain_cli_error (target, error);
        return TERRAIN_EXIT_ERROR;
      }
  }
  return TERRAIN_EXIT_OK;
}

static const TerrainCliCommand ota_commands[] = {
  { "show", N_("Show header fields, schemas and start positions"), ota_show },
  { "set", N_("Change header keys and start positions"), ota_set },
};

const TerrainCliGroup terrain_cli_ota_group = {
  NULL, N_("FILE…"),
  N_("Total Annihilation map descriptions (.ota). Edits keep every "
     "other byte of the file as it was."),
  NULL, ota_commands, G_N_ELEMENTS (ota_commands), FALSE
};
