/* terrain-command-validate.c: `terrain validate`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "terrain-cli.h"

static void
add_issue_json (JsonBuilder  *builder,
                TerrainIssue *issue)
{
  gint x, y;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "severity");
  json_builder_add_string_value (builder,
                                 terrain_severity_to_string (terrain_issue_get_severity (issue)));
  json_builder_set_member_name (builder, "section");
  json_builder_add_string_value (builder, terrain_issue_get_section (issue));
  json_builder_set_member_name (builder, "offset");
  json_builder_add_int_value (builder, terrain_issue_get_offset (issue));
  json_builder_set_member_name (builder, "record");
  json_builder_add_int_value (builder, terrain_issue_get_record (issue));
  if (terrain_issue_get_position (issue, &x, &y))
    {
      json_builder_set_member_name (builder, "x");
      json_builder_add_int_value (builder, x);
      json_builder_set_member_name (builder, "y");
      json_builder_add_int_value (builder, y);
    }
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, terrain_issue_get_message (issue));
  json_builder_end_object (builder);
}

int
terrain_command_validate (int    argc,
                          char **argv)
{
  gboolean json = FALSE;
  gboolean quiet = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print machine-readable JSON"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print only warnings and errors"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("validate", _("FILE…"),
                                _("Check terrain files. Structural errors (the file cannot be "
                                  "read) exit 2; consistency warnings exit 1; clean files "
                                  "exit 0. Each finding names its section and byte offset."),
                                entries);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(TerrainCliProgress) progress = NULL;
  int status = TERRAIN_EXIT_OK;

  /* A heightmap is read as build-atlas reads it. */
  g_option_context_add_main_entries (context, terrain_cli_heightmap_format_entries (),
                                     GETTEXT_PACKAGE);
  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc < 2)
    {
      terrain_cli_usage_error ("validate", _("no file given"));
      return TERRAIN_EXIT_USAGE;
    }

  progress = terrain_cli_progress_new ("validate", argc - 1);
  json_builder_begin_array (builder);

  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainDocument) document = NULL;
      g_autoptr(GPtrArray) issues = NULL;
      TerrainSeverity worst;
      gboolean any;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "file");
      json_builder_add_string_value (builder, argv[i]);

      terrain_cli_progress_update (progress, i - 1, argv[i]);
      document = terrain_cli_open_with_error (argv[i], &error);
      if (document != NULL)
        issues = terrain_document_validate (document);
      terrain_cli_progress_clear (progress);
      if (document == NULL)
        {
          json_builder_set_member_name (builder, "status");
          json_builder_add_string_value (builder, "error");
          json_builder_set_member_name (builder, "error");
          json_builder_add_string_value (builder, error->message);
          json_builder_end_object (builder);
          if (!json)
            g_print ("%s: error: %s\n", argv[i], error->message);
          status = TERRAIN_EXIT_ERROR;
          continue;
        }

      worst = terrain_issues_max_severity (issues, &any);

      json_builder_set_member_name (builder, "format");
      json_builder_add_string_value (builder,
                                     terrain_format_get_name (terrain_document_get_format (document)));
      json_builder_set_member_name (builder, "issues");
      json_builder_begin_array (builder);
      for (guint j = 0; j < issues->len; j++)
        {
          TerrainIssue *issue = g_ptr_array_index (issues, j);

          add_issue_json (builder, issue);
          if (!json && !(quiet && terrain_issue_get_severity (issue) == TERRAIN_SEVERITY_INFO))
            {
              g_autofree char *line = terrain_issue_to_string (issue);
              g_print ("%s: %s\n", argv[i], line);
            }
        }
      json_builder_end_array (builder);

      if (any && worst >= TERRAIN_SEVERITY_ERROR)
        status = MAX (status, TERRAIN_EXIT_ERROR);
      else if (any && worst >= TERRAIN_SEVERITY_WARNING)
        status = MAX (status, TERRAIN_EXIT_WARNINGS);

      json_builder_set_member_name (builder, "status");
      json_builder_add_string_value (builder,
                                     !any || worst == TERRAIN_SEVERITY_INFO ? "clean"
                                     : terrain_severity_to_string (worst));
      json_builder_end_object (builder);

      if (!json && (!any || worst == TERRAIN_SEVERITY_INFO))
        g_print ("%s: %s\n", argv[i], _("clean"));
    }

  json_builder_end_array (builder);
  g_clear_pointer (&progress, terrain_cli_progress_free);

  if (json)
    {
      g_autoptr(JsonNode) root = json_builder_get_root (builder);
      g_autofree char *text = terrain_cli_json_to_string (root, TRUE);

      g_print ("%s\n", text);
    }

  return status;
}
