/* terrain-command-roundtrip.c: `terrain roundtrip`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "terrain-cli.h"

int
terrain_command_roundtrip (int    argc,
                           char **argv)
{
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print machine-readable JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("roundtrip", _("FILE…"),
                                _("Read each file, write it back to memory and compare the "
                                  "bytes. Reports the first differing offset and its section. "
                                  "Exit 0 when every file is byte-exact, 1 on a mismatch, 2 "
                                  "when a file cannot be read or written."),
                                entries);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(TerrainCliProgress) progress = NULL;
  int status = TERRAIN_EXIT_OK;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc < 2)
    {
      terrain_cli_usage_error ("roundtrip", _("no file given"));
      return TERRAIN_EXIT_USAGE;
    }

  progress = terrain_cli_progress_new ("roundtrip", argc - 1);
  json_builder_begin_array (builder);

  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainDocument) document = NULL;
      g_autoptr(GBytes) written = NULL;
      g_autofree char *section = NULL;
      gint64 start, loaded, saved, compared;
      gsize difference = 0;
      gboolean same;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "file");
      json_builder_add_string_value (builder, argv[i]);

      terrain_cli_progress_update (progress, i - 1, argv[i]);
      start = g_get_monotonic_time ();
      document = terrain_cli_open_with_error (argv[i], &error);
      loaded = g_get_monotonic_time ();
      if (document != NULL)
        written = terrain_document_save_to_bytes (document, &error);
      saved = g_get_monotonic_time ();
      terrain_cli_progress_clear (progress);

      if (written == NULL)
        {
          if (!json)
            terrain_cli_error (argv[i], error);
          json_builder_set_member_name (builder, "status");
          json_builder_add_string_value (builder, "error");
          json_builder_set_member_name (builder, "error");
          json_builder_add_string_value (builder, error->message);
          json_builder_end_object (builder);
          status = TERRAIN_EXIT_ERROR;
          continue;
        }

      same = terrain_document_compare_bytes (document, written, &difference, &section);
      compared = g_get_monotonic_time ();

      json_builder_set_member_name (builder, "status");
      json_builder_add_string_value (builder, same ? "pass" : "mismatch");
      json_builder_set_member_name (builder, "size");
      json_builder_add_int_value (builder, g_bytes_get_size (written));
      json_builder_set_member_name (builder, "read_us");
      json_builder_add_int_value (builder, loaded - start);
      json_builder_set_member_name (builder, "write_us");
      json_builder_add_int_value (builder, saved - loaded);
      json_builder_set_member_name (builder, "compare_us");
      json_builder_add_int_value (builder, compared - saved);
      if (!same)
        {
          json_builder_set_member_name (builder, "first_difference");
          json_builder_add_int_value (builder, difference);
          json_builder_set_member_name (builder, "section");
          json_builder_add_string_value (builder, section);
        }
      json_builder_end_object (builder);

      if (same)
        {
          if (!json)
            {
              g_autofree char *size = g_strdup_printf ("%" G_GSIZE_FORMAT,
                                                       g_bytes_get_size (written));

              /* Translators: file name, byte count, milliseconds */
              g_print (_("%s: pass (%s bytes byte-exact; read %.2f ms, write %.2f ms)\n"),
                       argv[i], size, (loaded - start) / 1000.0, (saved - loaded) / 1000.0);
            }
        }
      else
        {
          if (!json)
            {
              g_autofree char *offset = g_strdup_printf ("%" G_GSIZE_FORMAT " (0x%" G_GSIZE_MODIFIER
                                                         "x)", difference, difference);

              /* Translators: file name, byte offset, section name */
              g_print (_("%s: MISMATCH at byte offset %s, in %s\n"), argv[i], offset, section);
            }
          status = MAX (status, TERRAIN_EXIT_WARNINGS);
        }
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
