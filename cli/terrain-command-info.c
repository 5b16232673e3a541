/* terrain-command-info.c: `terrain info`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "terrain-cli.h"

/* The hashes lobbies know a TA map by (docs/formats/tnt-sct.md): the
 * engine's, and the TA Forever one when the .ota is beside the map. */
static void
add_map_hashes (TerrainDocument *document,
                const char      *spec,
                JsonObject      *object)
{
  guint32 hash;
  g_autofree char *text = NULL;
  g_autofree char *ota_name = NULL;
  g_autoptr(GBytes) ota_bytes = NULL;
  GBytes *tnt_bytes;

  if (!TERRAIN_IS_TNT_MAP (document))
    return;
  if (terrain_tnt_map_get_lobby_hash (TERRAIN_TNT_MAP (document), &hash, NULL))
    {
      text = g_strdup_printf ("%08x", hash);
      json_object_set_string_member (object, "lobby_hash", text);
      g_clear_pointer (&text, g_free);
    }

  /* The .ota beside the file, or beside the map inside its archive. */
  tnt_bytes = terrain_document_get_source_bytes (document);
  if (tnt_bytes == NULL ||
      (ota_bytes = terrain_ta_map_load_ota (spec, &ota_name, NULL, NULL)) == NULL)
    return;
  text = g_strdup_printf ("%08x", terrain_ta_map_hash (tnt_bytes, ota_bytes));
  json_object_set_string_member (object, "map_hash", text);
  json_object_set_string_member (object, "map_hash_ota", ota_name);
}

int
terrain_command_info (int    argc,
                      char **argv)
{
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print machine-readable JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("info", _("FILE…"),
                                _("Summarise terrain files: format, header fields, counts, "
                                  "sections."),
                                entries);
  g_autoptr(JsonBuilder) all = json_builder_new ();
  int status = TERRAIN_EXIT_OK;

  /* A heightmap is read as build-atlas reads it. */
  g_option_context_add_main_entries (context, terrain_cli_heightmap_format_entries (),
                                     GETTEXT_PACKAGE);
  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc < 2)
    {
      terrain_cli_usage_error ("info", _("no file given"));
      return TERRAIN_EXIT_USAGE;
    }

  json_builder_begin_array (all);

  for (int i = 1; i < argc; i++)
    {
      g_autoptr(TerrainDocument) document = terrain_cli_open (argv[i]);
      g_autoptr(JsonNode) node = NULL;

      if (document == NULL)
        {
          status = TERRAIN_EXIT_ERROR;
          continue;
        }

      node = terrain_document_describe (document);
      if (JSON_NODE_HOLDS_OBJECT (node))
        {
          json_object_set_string_member (json_node_get_object (node), "file", argv[i]);
          add_map_hashes (document, argv[i], json_node_get_object (node));
        }

      if (json)
        {
          json_builder_add_value (all, g_steal_pointer (&node));
        }
      else
        {
          if (argc > 2)
            g_print ("%s%s\n", i > 1 ? "\n" : "", argv[i]);
          terrain_cli_print_summary (node);
        }
    }

  json_builder_end_array (all);

  if (json)
    {
      g_autoptr(JsonNode) root = json_builder_get_root (all);
      JsonArray *array = json_node_get_array (root);
      g_autofree char *text = NULL;

      /* One file gives one object; several give an array. */
      if (argc == 2 && json_array_get_length (array) == 1)
        text = terrain_cli_json_to_string (json_array_get_element (array, 0), TRUE);
      else
        text = terrain_cli_json_to_string (root, TRUE);
      g_print ("%s\n", text);
    }

  return status;
}
