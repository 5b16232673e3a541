/* terrain-cli.c: shared helpers of the terrain command-line tool
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "terrain-cli.h"

/* --format, shared by every command that opens files. */
static char *format_name;

static const GOptionEntry common_entries[] = {
  { "format", 'F', 0, G_OPTION_ARG_STRING, &format_name,
    N_("Read files as FORMAT instead of detecting it (for bodies without a magic "
       "number)"), N_("FORMAT") },
  { NULL }
};

GOptionContext *
terrain_cli_option_context (const char         *command,
                            const char         *parameters,
                            const char         *summary,
                            const GOptionEntry *entries)
{
  /* The program name is already "terrain COMMAND" (see main()), so the
   * usage line only needs the parameters. */
  GOptionContext *context = g_option_context_new (parameters);

  (void) command;

  g_option_context_set_summary (context, summary);
  g_option_context_set_description (context,
                                    _("Exit status: 0 success; 1 findings (validate) or "
                                      "mismatch (roundtrip); 2 a file could not be read or "
                                      "written; 64 bad usage."));
  if (entries != NULL)
    g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, common_entries, GETTEXT_PACKAGE);

  return context;
}

gboolean
terrain_cli_parse (GOptionContext   *context,
                   int              *argc,
                   char           ***argv)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      g_printerr ("terrain: %s\n", error->message);
      return FALSE;
    }
  return TRUE;
}

void
terrain_cli_error (const char   *path,
                   const GError *error)
{
  g_autofree char *message = g_strdup (error->message);

  /* One line per error, whatever the library said. */
  g_strdelimit (message, "\n", ' ');
  if (path != NULL)
    g_printerr ("terrain: %s: %s\n", path, message);
  else
    g_printerr ("terrain: %s\n", message);
}

void
terrain_cli_usage_error (const char *command,
                         const char *message)
{
  g_printerr ("terrain %s: %s\n", command, message);
  g_printerr (_("Try “terrain %s --help” for more information.\n"), command);
}

static char *
list_format_names (void)
{
  g_autoptr(GEnumClass) formats = g_type_class_ref (TERRAIN_TYPE_FORMAT);
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < formats->n_values; i++)
    {
      TerrainFormat f = formats->values[i].value;

      if (terrain_format_can_load (f))
        g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "",
                                terrain_format_get_name (f));
    }

  return g_string_free (names, FALSE);
}

/* Opens a file with the --format given, or detects it. Prints the error on
 * failure, with a hint listing the formats --format takes when the format
 * could not be recognised. @path may also name a file inside an archive,
 * ARCHIVE:path/inside (see terrain_document_load_path()). */
TerrainDocument *
terrain_cli_open_with_error (const char  *path,
                             GError     **error)
{
  TerrainFormat format = TERRAIN_FORMAT_UNKNOWN;

  if (format_name != NULL)
    {
      format = terrain_format_from_name (format_name);
      if (format == TERRAIN_FORMAT_UNKNOWN)
        {
          g_autofree char *names = list_format_names ();

          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNKNOWN_FORMAT,
                       _("unknown format “%s” given with --format (one of: %s)"),
                       format_name, names);
          return NULL;
        }
    }

  return terrain_document_load_path (path, format, NULL, NULL, error);
}

TerrainDocument *
terrain_cli_open (const char *path)
{
  g_autoptr(GError) error = NULL;
  TerrainDocument *document = terrain_cli_open_with_error (path, &error);

  if (document == NULL)
    {
      terrain_cli_error (path, error);
      if (format_name == NULL &&
          g_error_matches (error, TERRAIN_ERROR, TERRAIN_ERROR_UNKNOWN_FORMAT))
        {
          g_autofree char *names = list_format_names ();

          g_printerr (_("terrain: hint: if it is a body without a magic number, name its format "
                        "with --format (one of: %s)\n"), names);
        }
    }

  return document;
}

char *
terrain_cli_json_to_string (JsonNode *node,
                            gboolean  pretty)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_root (generator, node);
  json_generator_set_pretty (generator, pretty);
  json_generator_set_indent (generator, 2);

  return json_generator_to_data (generator, NULL);
}

static void
print_value (JsonNode *node,
             int       indent);

static gboolean
is_scalar_array (JsonArray *array)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    if (!JSON_NODE_HOLDS_VALUE (json_array_get_element (array, i)))
      return FALSE;
  return TRUE;
}

static void
print_scalar (JsonNode *node)
{
  if (JSON_NODE_HOLDS_NULL (node))
    g_print ("-");
  else if (json_node_get_value_type (node) == G_TYPE_STRING)
    g_print ("%s", json_node_get_string (node));
  else
    {
      g_autofree char *s = json_to_string (node, FALSE);
      g_print ("%s", s);
    }
}

static void
print_object (JsonObject *object,
              int         indent)
{
  g_autoptr(GList) members = json_object_get_members (object);

  for (const GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *value = json_object_get_member (object, name);

      g_print ("%*s%s:", indent, "", name);
      print_value (value, indent);
    }
}

static void
print_value (JsonNode *node,
             int       indent)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      g_print ("\n");
      print_object (json_node_get_object (node), indent + 2);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      guint n = json_array_get_length (array);

      if (n == 0)
        g_print (" (none)\n");
      else if (is_scalar_array (array))
        {
          for (guint i = 0; i < n; i++)
            {
              g_print (i == 0 ? " " : ", ");
              print_scalar (json_array_get_element (array, i));
            }
          g_print ("\n");
        }
      else
        {
          g_print ("\n");
          for (guint i = 0; i < n; i++)
            {
              JsonNode *element = json_array_get_element (array, i);

              if (JSON_NODE_HOLDS_OBJECT (element))
                {
                  /* One line per record: "- key=value key=value". */
                  g_autoptr(GList) members =
                    json_object_get_members (json_node_get_object (element));

                  g_print ("%*s-", indent + 2, "");
                  for (const GList *l = members; l != NULL; l = l->next)
                    {
                      JsonNode *v = json_object_get_member (json_node_get_object (element),
                                                            l->data);
                      g_print (" %s=", (const char *) l->data);
                      if (JSON_NODE_HOLDS_VALUE (v) || JSON_NODE_HOLDS_NULL (v))
                        print_scalar (v);
                      else
                        {
                          g_autofree char *s = json_to_string (v, FALSE);
                          g_print ("%s", s);
                        }
                    }
                  g_print ("\n");
                }
              else
                {
                  g_print ("%*s-", indent + 2, "");
                  print_value (element, indent + 2);
                }
            }
        }
    }
  else
    {
      g_print (" ");
      print_scalar (node);
      g_print ("\n");
    }
}

/* Prints a document description as indented "key: value" lines. */
void
terrain_cli_print_summary (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    print_object (json_node_get_object (node), 0);
  else
    print_value (node, 0);
}
