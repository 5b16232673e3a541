/* terrain-command-tnt-lint.c: `terrain tnt lint`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "terrain-cli.h"

static void
print_issue (const char   *file,
             TerrainIssue *issue)
{
  g_autofree char *line = terrain_issue_to_string (issue);

  g_print ("%s: [%s] %s\n", file, terrain_issue_get_rule (issue), line);
}

static JsonNode *
issues_to_json (const char *file,
                const char *ota,
                GPtrArray  *issues)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "file");
  json_builder_add_string_value (b, file);
  json_builder_set_member_name (b, "ota");
  if (ota != NULL)
    json_builder_add_string_value (b, ota);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "findings");
  json_builder_begin_array (b);
  for (guint i = 0; i < issues->len; i++)
    {
      TerrainIssue *issue = g_ptr_array_index (issues, i);
      gint x, y;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "rule");
      json_builder_add_string_value (b, terrain_issue_get_rule (issue));
      json_builder_set_member_name (b, "severity");
      json_builder_add_string_value (b,
                                     terrain_severity_to_string (terrain_issue_get_severity (issue)));
      json_builder_set_member_name (b, "section");
      json_builder_add_string_value (b, terrain_issue_get_section (issue));
      json_builder_set_member_name (b, "offset");
      json_builder_add_int_value (b, terrain_issue_get_offset (issue));
      if (terrain_issue_get_position (issue, &x, &y))
        {
          json_builder_set_member_name (b, "x");
          json_builder_add_int_value (b, x);
          json_builder_set_member_name (b, "y");
          json_builder_add_int_value (b, y);
        }
      json_builder_set_member_name (b, "message");
      json_builder_add_string_value (b, terrain_issue_get_message (issue));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

int
terrain_command_tnt_lint (int    argc,
                          char **argv)
{
  gboolean json = FALSE, sarif = FALSE;
  g_autofree char *ota_path = NULL;
  g_auto(GStrv) archives = NULL;
  const GOptionEntry entries[] = {
    { "ota", 0, 0, G_OPTION_ARG_FILENAME, &ota_path,
      N_("The map's .ota (default: the one of the same name beside it)"), N_("FILE") },
    { "archives", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &archives,
      N_("A TA install folder or archive to read the feature TDFs from, as the game does "
         "(repeatable; later ones win)"), N_("PATH") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print machine-readable JSON"), NULL },
    { "sarif", 0, 0, G_OPTION_ARG_NONE, &sarif, N_("Print a SARIF 2.1.0 log"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("tnt lint", _("FILE.tnt"),
                                _("Check a map as kbot's lint does: validation, .ota fields, "
                                  "start positions, schema slots, metal near starts, void "
                                  "islands, cliffs, tiles, and features missing from the "
                                  "catalogue."),
                                entries);
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(TerrainOtaFile) ota = NULL;
  g_autoptr(TerrainFeatureCatalog) catalog = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autofree char *ota_name = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;
  TerrainSeverity worst;
  gboolean any;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 2)
    {
      terrain_cli_usage_error ("tnt lint", argc < 2 ? _("no map given") : _("one map at a time"));
      return TERRAIN_EXIT_USAGE;
    }
  if (json && sarif)
    {
      terrain_cli_usage_error ("tnt lint", _("--json and --sarif exclude each other"));
      return TERRAIN_EXIT_USAGE;
    }

  document = terrain_cli_open (argv[1]);
  if (document == NULL)
    return TERRAIN_EXIT_ERROR;
  if (!TERRAIN_IS_TNT_MAP (document))
    {
      terrain_cli_usage_error ("tnt lint", _("not a TNT map"));
      return TERRAIN_EXIT_USAGE;
    }

  if (ota_path != NULL)
    {
      g_autoptr(GFile) ota_file = g_file_new_for_commandline_arg (ota_path);
      g_autoptr(GError) error = NULL;

      ota = terrain_ota_file_new_from_file (ota_file, NULL, NULL, &error);
      ota_name = g_file_get_parse_name (ota_file);
      if (ota == NULL)
        {
          terrain_cli_error (ota_name, error);
          return TERRAIN_EXIT_ERROR;
        }
    }
  else
    {
      /* Beside the file, or beside the map inside its archive. */
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) bytes = terrain_ta_map_load_ota (argv[1], &ota_name, NULL, &error);

      if (bytes == NULL && error != NULL)
        {
          terrain_cli_error (argv[1], error);
          return TERRAIN_EXIT_ERROR;
        }
      if (bytes != NULL && (ota = terrain_ota_file_new_from_bytes (bytes, NULL, &error)) == NULL)
        {
          terrain_cli_error (ota_name, error);
          return TERRAIN_EXIT_ERROR;
        }
    }
  if (archives != NULL && (catalog = terrain_cli_open_catalog (archives, NULL)) == NULL)
    return TERRAIN_EXIT_ERROR;

  issues = terrain_tnt_lint (TERRAIN_TNT_MAP (document), ota, catalog);
  worst = terrain_issues_max_severity (issues, &any);

  if (sarif || json)
    {
      node = sarif ? terrain_tnt_lint_to_sarif (issues, argv[1])
                   : issues_to_json (argv[1], ota_name, issues);
      text = terrain_cli_json_to_string (node, TRUE);
      g_print ("%s\n", text);
    }
  else
    {
      for (guint i = 0; i < issues->len; i++)
        print_issue (argv[1], g_ptr_array_index (issues, i));
      if (ota_name == NULL)
        g_print ("%s: %s\n", argv[1], _("no .ota beside the map: start, schema and metadata "
                                         "checks skipped"));
      if (catalog == NULL)
        g_print ("%s: %s\n", argv[1], _("no --archives: feature and metal checks skipped"));
      if (!any || worst == TERRAIN_SEVERITY_INFO)
        g_print ("%s: %s\n", argv[1], _("clean"));
    }

  if (any && worst >= TERRAIN_SEVERITY_ERROR)
    return TERRAIN_EXIT_ERROR;
  if (any && worst >= TERRAIN_SEVERITY_WARNING)
    return TERRAIN_EXIT_WARNINGS;
  return TERRAIN_EXIT_OK;
}
