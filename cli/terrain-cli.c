/* terrain-cli.c: shared helpers of the terrain command-line tool
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "terrain-cli.h"
#include "terrain-cli-diff.h"

/* --format, shared by every command that opens files. */
static char *format_name;

/* --version, listed in every command's --help and acted on by
 * terrain_cli_parse(); main() answers the forms no option parser sees (see
 * terrain_cli_wants_version()). */
static gboolean version_flag;

/* Commands with a --version option of their own (the format version they
 * write): for them only `terrain COMMAND --version` alone prints ours. */
static const char * const own_version_commands[] = { "convert", "build-atlas" };

static const GOptionEntry common_entries[] = {
  { "format", 'F', 0, G_OPTION_ARG_STRING, &format_name,
    N_("Read files as FORMAT instead of detecting it (for bodies without a magic "
       "number)"), N_("FORMAT") },
  { NULL }
};

/* --heightmap-format, shared by every command that reads heights
 * (terrain_cli_heightmap_format_entries()). */
static char *heightmap_format_name;

static const GOptionEntry heightmap_format_entries[] = {
  { "heightmap-format", 0, 0, G_OPTION_ARG_STRING, &heightmap_format_name,
    N_("Height source encoding: gray, terrain-rgb, terrarium, raw16, hgt, ter, tnt (default: "
       "from the file)"), N_("FORMAT") },
  { NULL }
};

static void edit_reset_options (void);

static const GOptionEntry version_entries[] = {
  { "version", 0, 0, G_OPTION_ARG_NONE, &version_flag,
    N_("Print the program version and exit"), NULL },
  { NULL }
};

void
terrain_cli_print_version (void)
{
  g_print ("terrain %s (libterrain %s)\n", PACKAGE_VERSION, TERRAIN_VERSION_S);
}

/* Whether `terrain COMMAND ARGS…` (@argv[0] is the program) asks for the
 * version in a form the command's option parser would not see: --version
 * last, after nothing but words, as in `terrain tnt features --version`,
 * where "tnt" and "features" only dispatch. A --version among other options
 * reaches terrain_cli_parse() instead. */
gboolean
terrain_cli_wants_version (const char  *command,
                           int          argc,
                           char       **argv)
{
  for (guint i = 0; i < G_N_ELEMENTS (own_version_commands); i++)
    if (strcmp (command, own_version_commands[i]) == 0)
      return argc == 2 && strcmp (argv[1], "--version") == 0;

  if (argc < 2 || strcmp (argv[argc - 1], "--version") != 0)
    return FALSE;
  for (int i = 1; i < argc - 1; i++)
    if (argv[i][0] == '-')
      return FALSE;
  return TRUE;
}

static gboolean
has_long_option (const GOptionEntry *entries,
                 const char         *name)
{
  for (const GOptionEntry *e = entries; e != NULL && e->long_name != NULL; e++)
    if (strcmp (e->long_name, name) == 0)
      return TRUE;
  return FALSE;
}

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

  /* The shared options start unset for every command run, so that a run
   * inside one process (the fuzz-cli harness, a future shell) neither sees
   * the last run's --format nor leaks it. */
  g_clear_pointer (&format_name, g_free);
  g_clear_pointer (&heightmap_format_name, g_free);
  version_flag = FALSE;
  edit_reset_options ();

  g_option_context_set_summary (context, summary);
  g_option_context_set_description (context,
                                    _("Exit status: 0 success; 1 findings (validate) or "
                                      "mismatch (roundtrip); 2 a file could not be read or "
                                      "written; 64 bad usage."));
  if (entries != NULL)
    g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, common_entries, GETTEXT_PACKAGE);
  if (!has_long_option (entries, "version"))
    g_option_context_add_main_entries (context, version_entries, GETTEXT_PACKAGE);

  return context;
}

/* The --heightmap-format entry, for a command's main entries or the
 * heightmap option group of build-atlas and convert-heightmap: one option,
 * one variable, one parser (terrain_cli_heightmap_format()). */
const GOptionEntry *
terrain_cli_heightmap_format_entries (void)
{
  return heightmap_format_entries;
}

/* The encoding --heightmap-format names (TERRAIN_HEIGHTMAP_AUTO when it was
 * not given or is "auto"); FALSE, with a usage error, for an unknown name. */
gboolean
terrain_cli_heightmap_format (const char             *command,
                              TerrainHeightmapFormat *format)
{
  *format = TERRAIN_HEIGHTMAP_AUTO;
  if (heightmap_format_name == NULL)
    return TRUE;
  *format = terrain_heightmap_format_from_name (heightmap_format_name);
  if (*format == TERRAIN_HEIGHTMAP_AUTO && g_ascii_strcasecmp (heightmap_format_name, "auto") != 0)
    {
      terrain_cli_usage_error (command, _("--heightmap-format takes gray, terrain-rgb, "
                                          "terrarium, raw16, hgt, ter or tnt"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_number (const char *command,
              const char *what,
              const char *text,
              gboolean    is_signed,
              gint64      min,
              guint64     max,
              gint64     *out)
{
  g_autoptr(GError) error = NULL;
  guint64 unsigned_value = 0;
  gboolean ok;

  if (is_signed)
    ok = g_ascii_string_to_signed (text, 10, min, (gint64) max, out, &error);
  else if ((ok = g_ascii_string_to_unsigned (text, 10, 0, max, &unsigned_value, &error)))
    *out = (gint64) unsigned_value;
  if (!ok)
    {
      g_autofree char *message = g_strdup_printf (_("%s: %s"), what, error->message);

      terrain_cli_usage_error (command, message);
    }
  return ok;
}

gboolean
terrain_cli_parse_uint (const char *command,
                        const char *what,
                        const char *text,
                        guint64     max,
                        guint      *out)
{
  gint64 value;

  if (!parse_number (command, what, text, FALSE, 0, MIN (max, G_MAXUINT), &value))
    return FALSE;
  *out = (guint) value;
  return TRUE;
}

gboolean
terrain_cli_parse_int (const char *command,
                       const char *what,
                       const char *text,
                       gint       *out)
{
  gint64 value;

  if (!parse_number (command, what, text, TRUE, G_MININT32, G_MAXINT32, &value))
    return FALSE;
  *out = (gint) value;
  return TRUE;
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
  if (version_flag)
    {
      terrain_cli_print_version ();
      exit (TERRAIN_EXIT_OK);
    }
  if (heightmap_format_name != NULL)
    {
      const char *prgname = g_get_prgname ();
      TerrainHeightmapFormat heightmap_format;

      /* "terrain COMMAND" (see terrain_cli_dispatch()). */
      if (prgname != NULL && g_str_has_prefix (prgname, "terrain "))
        prgname += strlen ("terrain ");
      if (!terrain_cli_heightmap_format (prgname != NULL ? prgname : "terrain",
                                         &heightmap_format))
        return FALSE;
      if (format_name != NULL && heightmap_format != TERRAIN_HEIGHTMAP_AUTO &&
          terrain_format_from_name (format_name) != TERRAIN_FORMAT_HEIGHTMAP)
        {
          terrain_cli_usage_error (prgname != NULL ? prgname : "terrain",
                                   _("--heightmap-format names how a heightmap is read; "
                                     "give it without --format, or with --format heightmap"));
          return FALSE;
        }
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
  /* I/O errors from the library already start with the file's name. */
  if (path != NULL && !g_error_matches (error, TERRAIN_ERROR, TERRAIN_ERROR_IO))
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

/* A row's summary in its table's --help: in the root's, a family's summary
 * is followed by the names of its subcommands, so the list never goes stale. */
static char *
command_summary (const TerrainCliGroup   *group,
                 const TerrainCliCommand *command)
{
  g_autoptr(GString) names = NULL;

  if (!group->top_level || command->group == NULL)
    return g_strdup (_(command->summary));
  names = g_string_new (NULL);
  for (guint i = 0; i < command->group->n_commands; i++)
    g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", command->group->commands[i].name);
  /* Translators: a family of commands, then the names of its subcommands. */
  return g_strdup_printf (_("%s: %s"), _(command->summary), names->str);
}

static void
print_group_usage (const TerrainCliGroup *group,
                   const char            *name,
                   FILE                  *stream)
{
  int width = 12;

  for (guint i = 0; i < group->n_commands; i++)
    width = MAX (width, (int) strlen (group->commands[i].name) + 2);

  fprintf (stream, _("Usage: %s COMMAND [OPTION…] %s\n"), name, _(group->parameters));
  fprintf (stream, "\n");
  if (group->description != NULL)
    fprintf (stream, "%s\n\n", _(group->description));
  fprintf (stream, "%s\n", _("Commands:"));
  for (guint i = 0; i < group->n_commands; i++)
    {
      g_autofree char *summary = command_summary (group, &group->commands[i]);

      fprintf (stream, "  %-*s %s\n", width, group->commands[i].name, summary);
    }
  fprintf (stream, "\n");
  if (group->footer != NULL)
    fprintf (stream, "%s\n", _(group->footer));
  fprintf (stream, _("Run “%s COMMAND --help” for a command's options.\n"), name);
}

/* terrain_cli_dispatch() for the table @group named @name (the program name
 * so far, "terrain tnt"). */
static int
dispatch (const TerrainCliGroup *group,
          const char            *name,
          int                    argc,
          char                 **argv)
{
  const char *sub;

  if (argc < 2)
    {
      print_group_usage (group, name, stderr);
      return TERRAIN_EXIT_USAGE;
    }

  sub = argv[1];
  if (strcmp (sub, "--help") == 0 || strcmp (sub, "-h") == 0 || strcmp (sub, "help") == 0)
    {
      print_group_usage (group, name, stdout);
      return TERRAIN_EXIT_OK;
    }
  if (group->top_level && strcmp (sub, "--version") == 0)
    {
      terrain_cli_print_version ();
      return TERRAIN_EXIT_OK;
    }

  for (guint i = 0; i < group->n_commands; i++)
    if (strcmp (sub, group->commands[i].name) == 0)
      {
        const TerrainCliCommand *command = &group->commands[i];
        /* The subcommand sees "NAME SUBCOMMAND" as its program name. */
        g_autofree char *prgname = g_strdup_printf ("%s %s", name, sub);

        if (group->top_level && terrain_cli_wants_version (sub, argc - 1, argv + 1))
          {
            terrain_cli_print_version ();
            return TERRAIN_EXIT_OK;
          }
        argv[1] = argv[0];
        if (command->group != NULL)
          return dispatch (command->group, prgname, argc - 1, argv + 1);
        g_set_prgname (prgname);
        return command->run (argc - 1, argv + 1);
      }

  g_printerr (_("%s: unknown command “%s”\n"), name, sub);
  g_printerr (_("Try “%s --help” for the list of commands.\n"), name);
  return TERRAIN_EXIT_USAGE;
}

/**
 * terrain_cli_dispatch:
 * @group: the root table of commands
 * @argc: argument count; @argv[0] is the program, @argv[1] the command
 * @argv: arguments (overwritten)
 *
 * Runs the command @argv[1] of @group, entering nested tables for the words
 * after it (`terrain tnt features add`), or prints a table's usage: on
 * stdout for --help, -h and help (exit 0), on stderr when no subcommand is
 * given (exit 64). An unknown subcommand is a usage error.
 *
 * Returns: the exit status
 */
int
terrain_cli_dispatch (const TerrainCliGroup *group,
                      int                    argc,
                      char                 **argv)
{
  return dispatch (group, group->name, argc, argv);
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

/* Saves @document to @path (a command-line argument: a path or URI),
 * atomically; on failure prints the error naming @path. */
gboolean
terrain_cli_save (TerrainDocument *document,
                  const char      *path)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;

  if (terrain_document_save (document, file, NULL, &error))
    return TRUE;
  terrain_cli_error (path, error);
  return FALSE;
}

/* Writes @bytes to @path (a command-line argument: a path or URI),
 * atomically; on failure prints the error naming @path. */
gboolean
terrain_cli_save_bytes (const char *path,
                        GBytes     *bytes)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;

  if (terrain_file_save_bytes (file, bytes, NULL, &error))
    return TRUE;
  terrain_cli_error (path, error);
  return FALSE;
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
  TerrainHeightmapFormat heightmap_format = TERRAIN_HEIGHTMAP_AUTO;

  /* Checked by terrain_cli_parse(). */
  if (heightmap_format_name != NULL)
    heightmap_format = terrain_heightmap_format_from_name (heightmap_format_name);
  if (heightmap_format != TERRAIN_HEIGHTMAP_AUTO)
    return terrain_document_load_heightmap_path (path, heightmap_format, NULL, NULL, error);

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
          if (g_str_has_suffix (path, ".png") || g_str_has_suffix (path, ".PNG"))
            g_printerr (_("terrain: hint: a colour PNG heightmap opens with --heightmap-format "
                          "terrain-rgb, terrarium or gray\n"));
        }
    }

  return document;
}

TerrainDocument *
terrain_cli_open_as (const char  *path,
                     GType      (*type) (void),
                     const char  *noun)
{
  g_autoptr(TerrainDocument) document = terrain_cli_open (path);

  if (document == NULL)
    return NULL;
  if (!g_type_is_a (G_OBJECT_TYPE (document), type ()))
    {
      g_printerr (_("terrain: %s: a %s file, not %s\n"), path,
                  terrain_format_get_description (terrain_document_get_format (document)),
                  _(noun));
      return NULL;
    }
  return g_steal_pointer (&document);
}

TerrainPalette *
terrain_cli_open_palette (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;
  TerrainPalette *palette = terrain_palette_new_from_file (file, NULL, &error);

  if (palette == NULL)
    terrain_cli_error (path, error);
  return palette;
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
  else if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    {
      /* Seven significant digits: most values are floats from the file,
       * whose last digits as doubles are noise (--json keeps them all). */
      char buffer[G_ASCII_DTOSTR_BUF_SIZE];

      g_print ("%s", g_ascii_formatd (buffer, sizeof buffer, "%.7g", json_node_get_double (node)));
    }
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

/* Progress ---------------------------------------------------------------- */

struct _TerrainCliProgress
{
  char *label;
  guint64 total;
  gint64 start;        /* monotonic µs */
  gint64 last_draw;    /* monotonic µs, 0 before the first draw */
  gint64 interval;     /* µs between redraws */
  gboolean active;
  gboolean drawn;      /* a line is on screen and must be erased */
};

/* Redraws at most this often, so that thousands of small files do not spend
 * their time writing to the terminal. */
#define PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 10)

static gboolean
progress_wanted (void)
{
  const char *env = g_getenv ("TERRAIN_PROGRESS");
  const char *term = g_getenv ("TERM");

  if (g_strcmp0 (env, "always") == 0)
    return TRUE;
  if (g_strcmp0 (env, "never") == 0)
    return FALSE;
  if (g_strcmp0 (term, "dumb") == 0)
    return FALSE;
  return isatty (STDERR_FILENO);
}

static guint
terminal_columns (void)
{
  struct winsize size;
  const char *columns = g_getenv ("COLUMNS");

  if (ioctl (STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    return size.ws_col;
  if (columns != NULL && g_ascii_strtoull (columns, NULL, 10) > 0)
    return (guint) MIN (g_ascii_strtoull (columns, NULL, 10), 1000);
  return 80;
}

static char *
format_duration (gint64 us)
{
  gint64 s = (us + G_USEC_PER_SEC / 2) / G_USEC_PER_SEC;

  if (s >= 3600)
    return g_strdup_printf ("%" G_GINT64_FORMAT ":%02d:%02d", s / 3600, (int) (s / 60 % 60),
                            (int) (s % 60));
  return g_strdup_printf ("%d:%02d", (int) (s / 60), (int) (s % 60));
}

/* Starts a progress line for @total steps of @label (e.g. "validate"). It
 * shows nothing for fewer than two steps. */
TerrainCliProgress *
terrain_cli_progress_new (const char *label,
                          guint64     total)
{
  TerrainCliProgress *self = g_new0 (TerrainCliProgress, 1);

  self->label = g_strdup (label);
  self->total = total;
  self->start = g_get_monotonic_time ();
  self->active = total >= 2 && progress_wanted ();
  /* Forced on (tests, logs), every step is drawn. */
  self->interval = g_strcmp0 (g_getenv ("TERRAIN_PROGRESS"), "always") == 0 ? 0
                   : PROGRESS_INTERVAL_US;
  return self;
}

/* Shows that @done of the steps are finished and @item is being worked on:
 * "LABEL  DONE/TOTAL [####....]  PP%  ETA M:SS  ITEM", cut to the terminal. */
void
terrain_cli_progress_update (TerrainCliProgress *self,
                             guint64             done,
                             const char         *item)
{
  const guint bar_width = 20;
  gint64 now = g_get_monotonic_time ();
  g_autoptr(GString) line = NULL;
  g_autofree char *eta = NULL;
  guint filled, columns;
  long chars;

  if (self == NULL || !self->active)
    return;
  done = MIN (done, self->total);
  if (self->last_draw != 0 && now - self->last_draw < self->interval && done < self->total)
    return;
  self->last_draw = now;

  filled = (guint) (done * bar_width / self->total);
  line = g_string_new (NULL);
  g_string_append_printf (line, "%s  %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " [",
                          self->label, done, self->total);
  for (guint i = 0; i < bar_width; i++)
    g_string_append_c (line, i < filled ? '#' : '.');
  g_string_append_printf (line, "] %3u%%", (guint) (done * 100 / self->total));
  if (done > 0)
    {
      eta = format_duration ((now - self->start) * (gint64) (self->total - done) / (gint64) done);
      /* Translators: estimated time left, e.g. "ETA 0:12" */
      g_string_append_printf (line, "  %s %s", _("ETA"), eta);
    }
  if (item != NULL)
    g_string_append_printf (line, "  %s", item);

  /* Cut to the terminal width (in characters) so the line never wraps. */
  columns = terminal_columns ();
  chars = g_utf8_strlen (line->str, -1);
  if (chars >= (long) columns)
    g_string_truncate (line, g_utf8_offset_to_pointer (line->str, columns - 1) - line->str);

  fprintf (stderr, "\r%s\033[K", line->str);
  fflush (stderr);
  self->drawn = TRUE;
}

/* Erases the line, so the command can print; the next update redraws it. */
void
terrain_cli_progress_clear (TerrainCliProgress *self)
{
  if (self == NULL || !self->drawn)
    return;
  fputs ("\r\033[K", stderr);
  fflush (stderr);
  self->drawn = FALSE;
}

void
terrain_cli_progress_free (TerrainCliProgress *self)
{
  if (self == NULL)
    return;
  terrain_cli_progress_clear (self);
  g_free (self->label);
  g_free (self);
}

/* ------------------------------------------------------------------------ */
/* Editing subcommands                                                      */

struct _TerrainCliEdit
{
  const TerrainCliEditClass *klass;
  const char *command;
  const char *path;
  TerrainDocument *document;
  TerrainCommandStack *stack;
  GBytes *before;              /* what FILE would be written as on opening */
  GPtrArray *edits;            /* TerrainCommand, the ones to report */
  char **argv;                 /* terrain_cli_edit_main(): the operands */
  gpointer data;
  guint values[8];
  GArray *kept;                /* Kept, what terrain_cli_edit_keep() was given */
};

typedef struct
{
  gpointer data;
  GDestroyNotify destroy;
} Kept;

static char *edit_output;
static gboolean edit_dry_run;

static const GOptionEntry edit_entries[] = {
  { "output", 'o', 0, G_OPTION_ARG_FILENAME, &edit_output,
    N_("Write to OUT instead of changing FILE in place"), N_("OUT") },
  { "dry-run", 'n', 0, G_OPTION_ARG_NONE, &edit_dry_run,
    N_("Print what would change and write nothing"), NULL },
  { NULL }
};

const char terrain_cli_edit_footer[] =
  N_("Editing commands write to -o OUT or change FILE in place (atomically); --dry-run "
     "prints what would change.");

static void
edit_reset_options (void)
{
  g_clear_pointer (&edit_output, g_free);
  edit_dry_run = FALSE;
}

void
terrain_cli_edit_free (TerrainCliEdit *self)
{
  if (self == NULL)
    return;
  for (guint i = self->kept != NULL ? self->kept->len : 0; i > 0; i--)
    {
      Kept *kept = &g_array_index (self->kept, Kept, i - 1);

      kept->destroy (kept->data);
    }
  g_clear_pointer (&self->kept, g_array_unref);
  g_clear_pointer (&self->edits, g_ptr_array_unref);
  g_clear_pointer (&self->before, g_bytes_unref);
  g_clear_object (&self->stack);
  g_clear_object (&self->document);
  g_free (self);
}

/* Opens @path into @self, or prints why not. */
static gboolean
edit_load (TerrainCliEdit *self,
           const char     *path)
{
  g_autoptr(GError) error = NULL;

  self->path = path;
  self->document = terrain_cli_open_as (path, self->klass->document_type,
                                        self->klass->document_noun);
  if (self->document == NULL)
    return FALSE;

  /* What the file would be written as now: the reference for --dry-run. */
  self->before = terrain_document_save_to_bytes (self->document, &error);
  if (self->before == NULL)
    {
      terrain_cli_error (path, error);
      return FALSE;
    }
  self->stack = terrain_command_stack_new (self->document);
  self->edits = g_ptr_array_new_with_free_func (g_object_unref);
  return TRUE;
}

const char *
terrain_cli_edit_get_command (TerrainCliEdit *self)
{
  return self->command;
}

char **
terrain_cli_edit_get_argv (TerrainCliEdit *self)
{
  return self->argv;
}

gpointer
terrain_cli_edit_get_data (TerrainCliEdit *self)
{
  return self->data;
}

guint
terrain_cli_edit_get_value (TerrainCliEdit *self,
                            guint           i)
{
  g_return_val_if_fail (i < G_N_ELEMENTS (self->values), 0);
  return self->values[i];
}

gpointer
terrain_cli_edit_keep (TerrainCliEdit *self,
                       gpointer        data,
                       GDestroyNotify  destroy)
{
  Kept kept = { data, destroy };

  if (data == NULL)
    return NULL;
  if (self->kept == NULL)
    self->kept = g_array_new (FALSE, FALSE, sizeof (Kept));
  g_array_append_val (self->kept, kept);
  return data;
}

TerrainDocument *
terrain_cli_edit_get_document (TerrainCliEdit *self)
{
  return self->document;
}

TerrainCommandStack *
terrain_cli_edit_get_stack (TerrainCliEdit *self)
{
  return self->stack;
}

gboolean
terrain_cli_edit_execute (TerrainCliEdit *self,
                          TerrainCommand *command)
{
  g_autoptr(TerrainCommand) owned = command;
  g_autoptr(GError) error = NULL;
  GPtrArray *issues;

  if (owned == NULL)
    return FALSE;
  if (!terrain_command_stack_execute (self->stack, owned, &error))
    {
      g_printerr (_("terrain: %s: %s refused: %s\n"), self->path,
                  terrain_command_get_description (owned), error->message);
      return FALSE;
    }
  issues = self->klass->issues != NULL ? self->klass->issues (owned) : NULL;
  for (guint i = 0; issues != NULL && i < issues->len; i++)
    {
      TerrainIssue *issue = g_ptr_array_index (issues, i);

      g_printerr ("terrain: %s: %s: %s\n", self->path,
                  terrain_severity_to_string (terrain_issue_get_severity (issue)),
                  terrain_issue_get_message (issue));
    }
  g_ptr_array_add (self->edits, g_steal_pointer (&owned));
  return TRUE;
}

void
terrain_cli_edit_report_first (TerrainCliEdit *self)
{
  if (self->edits->len > 1)
    g_ptr_array_set_size (self->edits, 1);
}

static void
print_reports (TerrainCliEdit *self)
{
  for (guint i = 0; i < self->edits->len && self->klass->report != NULL; i++)
    {
      TerrainCommand *command = g_ptr_array_index (self->edits, i);
      const char *report = self->klass->report (command);

      if (report != NULL)
        g_print ("%s: %s\n", terrain_command_get_description (command), report);
    }
}

/* The most bytes inserted and deleted, and the most bytes between the
 * common start and end, for which a dry run looks for the edit's ranges:
 * beyond either (a map resized, a file re-encoded) it names the one range
 * between the bytes that stay at the start and at the end. */
#define RESIZED_MAX_DISTANCE 2048
#define RESIZED_MAX_SPAN     ((gsize) 1 << 20)

/* A range of an edit that changes the file's size, named by the section it
 * starts in: @old_length bytes at @old_start become @new_length bytes. */
static void
print_resized_hunk (TerrainDocument *document,
                    gsize            old_start,
                    gsize            old_length,
                    gsize            new_length)
{
  g_autofree char *where = terrain_document_describe_offset (document, old_start);
  g_autofree char *first = g_strdup_printf ("%" G_GSIZE_FORMAT, old_start);
  g_autofree char *n_old = g_strdup_printf ("%" G_GSIZE_FORMAT, old_length);
  g_autofree char *n_new = g_strdup_printf ("%" G_GSIZE_FORMAT, new_length);

  if (where == NULL)
    where = g_strdup ("-");
  if (old_length > 0 && new_length > 0)
    {
      g_autofree char *final = g_strdup_printf ("%" G_GSIZE_FORMAT, old_start + old_length - 1);

      /* Translators: the first and last byte offset of a range, its size
       * in bytes now and after the edit, then the section it is in. */
      g_print (ngettext ("  bytes %s..%s (%s) become %s byte: %s\n",
                         "  bytes %s..%s (%s) become %s bytes: %s\n", new_length),
               first, final, n_old, n_new, where);
    }
  else if (old_length > 0)
    {
      g_autofree char *final = g_strdup_printf ("%" G_GSIZE_FORMAT, old_start + old_length - 1);

      /* Translators: the first and last byte offset of a range, its size
       * in bytes, then the section it is in. */
      g_print (_("  bytes %s..%s (%s) removed: %s\n"), first, final, n_old, where);
    }
  else
    /* Translators: a number of bytes, a byte offset, then the section it
     * is in. */
    g_print (ngettext ("  %s byte inserted at byte %s: %s\n",
                       "  %s bytes inserted at byte %s: %s\n", new_length), n_new, first, where);
}

/* An edit that changes the file's size: the sizes, then the ranges of the
 * shortest edit script (terrain_cli_diff(), ranges at most 8 unchanged
 * bytes apart joined, the first twelve listed), or past its bounds the one
 * range between the bytes that stay at the start and at the end. */
static void
print_resized_range (TerrainDocument *document,
                     const guint8    *a,
                     gsize            na,
                     const guint8    *b,
                     gsize            nb)
{
  g_autoptr(GArray) hunks = g_array_new (FALSE, FALSE, sizeof (TerrainCliHunk));
  gsize head = 0, tail = 0, kept = na;
  g_autofree char *size_before = g_strdup_printf ("%" G_GSIZE_FORMAT, na);
  g_autofree char *size_after = g_strdup_printf ("%" G_GSIZE_FORMAT, nb);
  g_autofree char *first = NULL;
  g_autofree char *n_tail = NULL;
  const guint shown = 12;

  while (head < MIN (na, nb) && a[head] == b[head])
    head++;
  while (tail < MIN (na, nb) - head && a[na - 1 - tail] == b[nb - 1 - tail])
    tail++;

  if (MAX (na, nb) - head - tail <= RESIZED_MAX_SPAN &&
      terrain_cli_diff (a, na, b, nb, RESIZED_MAX_DISTANCE, hunks))
    {
      g_autofree char *n_kept = NULL;

      terrain_cli_diff_merge (hunks, 8);
      /* Translators: the file size in bytes now, then after the edit. */
      g_print (_("the file would change size: %s -> %s bytes\n"), size_before, size_after);
      for (guint i = 0; i < hunks->len; i++)
        {
          const TerrainCliHunk *h = &g_array_index (hunks, TerrainCliHunk, i);

          kept -= h->old_length;
          if (i < shown)
            print_resized_hunk (document, h->old_start, h->old_length, h->new_length);
        }
      if (hunks->len > shown)
        {
          g_autofree char *more = g_strdup_printf ("%u", hunks->len - shown);

          /* Translators: a number of ranges of bytes. */
          g_print (_("  … and %s more ranges\n"), more);
        }
      n_kept = g_strdup_printf ("%" G_GSIZE_FORMAT, kept);
      /* Translators: a number of bytes, then the file's size in bytes. */
      g_print (_("%s of the %s bytes stay byte for byte, in the same order\n"), n_kept, size_before);
      return;
    }

  /* Translators: the file size in bytes now, then after the edit. */
  g_print (_("the file would be laid out anew: %s -> %s bytes\n"), size_before, size_after);
  print_resized_hunk (document, head, na - tail - head, nb - tail - head);
  first = g_strdup_printf ("%" G_GSIZE_FORMAT, head);
  n_tail = g_strdup_printf ("%" G_GSIZE_FORMAT, tail);
  /* Translators: numbers of bytes. */
  g_print (_("the first %s and the last %s bytes stay byte for byte\n"), first, n_tail);
}

/* --dry-run of an edit: the ranges of bytes that would change (differing
 * bytes at most 8 apart), each with the section it is in, the first twelve
 * listed; for an edit that changes the file's size, print_resized_range().
 * The edit runner's listing when the command family has no print_changes. */
void
terrain_cli_print_byte_ranges (TerrainDocument *document,
                               GBytes          *before,
                               GBytes          *after)
{
  gsize na, nb, total = 0, n_ranges = 0, i = 0;
  const guint8 *a = g_bytes_get_data (before, &na), *b = g_bytes_get_data (after, &nb);
  const guint shown = 12;

  if (na != nb)
    {
      print_resized_range (document, a, na, b, nb);
      return;
    }
  while (i < na)
    {
      gsize start, last, changed = 0;

      if (a[i] == b[i])
        {
          i++;
          continue;
        }

      /* A range: differing bytes at most 8 apart. */
      start = last = i;
      while (i < na && i - last <= 8)
        {
          if (a[i] != b[i])
            {
              last = i;
              changed++;
            }
          i++;
        }
      i = last + 1;

      if (n_ranges < shown)
        {
          g_autofree char *where = terrain_document_describe_offset (document, start);
          g_autofree char *first = g_strdup_printf ("%" G_GSIZE_FORMAT, start);
          g_autofree char *final = g_strdup_printf ("%" G_GSIZE_FORMAT, last);
          g_autofree char *n_changed = g_strdup_printf ("%" G_GSIZE_FORMAT, changed);

          /* Translators: the first and last byte offset of a range, the
           * number of bytes in it that change, then the section it is in. */
          if (where != NULL)
            g_print (_("  bytes %s..%s (%s changed): %s\n"), first, final, n_changed, where);
          else
            g_print (_("  bytes %s..%s (%s changed)\n"), first, final, n_changed);
        }
      n_ranges++;
      total += changed;
    }

  if (n_ranges > shown)
    {
      g_autofree char *more = g_strdup_printf ("%" G_GSIZE_FORMAT, n_ranges - shown);

      /* Translators: %s is a number of byte ranges. */
      g_print (_("  … and %s more ranges\n"), more);
    }
  {
    g_autofree char *n_total = g_strdup_printf ("%" G_GSIZE_FORMAT, total);
    g_autofree char *size = g_strdup_printf ("%" G_GSIZE_FORMAT, na);
    g_autofree char *n = g_strdup_printf ("%" G_GSIZE_FORMAT, n_ranges);

    /* Translators: the number of bytes that would change, the file size in
     * bytes, then the number of byte ranges. */
    g_print (_("%s of %s bytes would change, in %s range(s); the rest of the file stays "
               "byte for byte\n"), n_total, size, n);
  }
}

/* Writes the document (or, with --dry-run, what would change), then the
 * reports. Returns the exit status. */
static int
edit_finish (TerrainCliEdit *self)
{
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) destination = NULL;
  const char *target = edit_output != NULL ? edit_output : self->path;

  after = terrain_document_save_to_bytes (self->document, &error);
  if (after == NULL)
    {
      terrain_cli_error (self->path, error);
      return TERRAIN_EXIT_ERROR;
    }

  if (edit_dry_run)
    {
      print_reports (self);
      if (g_bytes_equal (self->before, after))
        g_print (_("dry run: nothing would change; %s not written\n"), target);
      else
        {
          if (self->klass->print_changes != NULL)
            self->klass->print_changes (self->document, self->before, after);
          else
            terrain_cli_print_byte_ranges (self->document, self->before, after);
          g_print (_("dry run: %s not written\n"), target);
        }
      return TERRAIN_EXIT_OK;
    }

  if (edit_output == NULL && g_bytes_equal (self->before, after))
    {
      print_reports (self);
      g_print (_("nothing changed; %s not rewritten\n"), target);
      return TERRAIN_EXIT_OK;
    }

  if (edit_output != NULL)
    destination = g_file_new_for_commandline_arg (edit_output);
  else if (terrain_document_get_file (self->document) != NULL)
    destination = g_object_ref (terrain_document_get_file (self->document));
  else
    {
      /* ARCHIVE:path/inside: archives are written by `terrain hpi pack`. */
      g_printerr (_("terrain: %s: the map was read from inside an archive and cannot be "
                    "changed in place; give -o OUT\n"), self->path);
      return TERRAIN_EXIT_USAGE;
    }
  /* The reports say what was done: only once it is on disk. */
  if (!terrain_document_save (self->document, destination, NULL, &error))
    {
      terrain_cli_error (target, error);
      return TERRAIN_EXIT_ERROR;
    }
  print_reports (self);
  return TERRAIN_EXIT_OK;
}

gboolean
terrain_cli_parse_usage (const TerrainCliUsage  *usage,
                         gboolean                editing,
                         int                    *argc,
                         char                 ***argv)
{
  g_autoptr(GOptionContext) context = terrain_cli_option_context (usage->command,
                                                                  _(usage->parameters),
                                                                  _(usage->summary),
                                                                  usage->entries);

  if (editing)
    g_option_context_add_main_entries (context, edit_entries, GETTEXT_PACKAGE);
  if (usage->more_entries != NULL)
    g_option_context_add_main_entries (context, usage->more_entries, GETTEXT_PACKAGE);
  if (!terrain_cli_parse (context, argc, argv))
    return FALSE;

  /* GOption leaves the "--" that lets a negative number through. */
  for (int i = 1; i < *argc; i++)
    if (strcmp ((*argv)[i], "--") == 0)
      {
        memmove (*argv + i, *argv + i + 1, (size_t) (*argc - i) * sizeof (char *));
        (*argc)--;
        break;
      }

  if (*argc - 1 < usage->min_operands || *argc - 1 > usage->max_operands)
    {
      terrain_cli_usage_error (usage->command, _(usage->expected));
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_operands (const char              *command,
                int                      argc,
                char                   **argv,
                const TerrainCliOperand *operands,
                guint                    n_operands,
                const char              *both,
                guint                   *values)
{
  guint given = (guint) argc - 2;

  if (both != NULL)
    {
      values[n_operands - 2] = values[n_operands - 1] = 1;
      if (given == n_operands - 1)
        {
          terrain_cli_usage_error (command, _(both));
          return FALSE;
        }
    }
  for (guint i = 0; i < MIN (given, n_operands); i++)
    if (operands[i].name != NULL &&
        !terrain_cli_parse_uint (command, operands[i].name, argv[2 + i],
                                 operands[i].max != 0 ? operands[i].max : G_MAXUINT32,
                                 &values[i]))
      return FALSE;
  return TRUE;
}

/* Frees the strings GOption stored for @entries (the runner owns the option
 * values of the subcommands it runs). */
static void
clear_option_values (const GOptionEntry *entries)
{
  for (const GOptionEntry *e = entries; e != NULL && e->long_name != NULL; e++)
    if (e->arg == G_OPTION_ARG_STRING || e->arg == G_OPTION_ARG_FILENAME)
      g_clear_pointer ((char **) e->arg_data, g_free);
    else if (e->arg == G_OPTION_ARG_STRING_ARRAY || e->arg == G_OPTION_ARG_FILENAME_ARRAY)
      g_clear_pointer ((char ***) e->arg_data, g_strfreev);
}

static int
edit_main (TerrainCliEdit              *run,
           const TerrainCliEditCommand *command,
           int                          argc,
           char                       **argv)
{
  int status;

  if (!terrain_cli_parse_usage (&command->usage, TRUE, &argc, &argv) ||
      !parse_operands (run->command, argc, argv, command->operands, command->n_operands,
                       command->both, run->values))
    return TERRAIN_EXIT_USAGE;
  run->argv = argv;
  if (command->prepare != NULL && (status = command->prepare (run)) != TERRAIN_EXIT_OK)
    return status;
  if (!edit_load (run, argv[1]))
    return TERRAIN_EXIT_ERROR;
  if (command->build != NULL)
    status = terrain_cli_edit_execute (run, command->build (run)) ? TERRAIN_EXIT_OK
                                                                  : TERRAIN_EXIT_ERROR;
  else
    status = command->apply (run);
  if (status != TERRAIN_EXIT_OK)
    return status;
  status = edit_finish (run);
  if (status == TERRAIN_EXIT_OK && !edit_dry_run && command->after != NULL)
    status = command->after (run);
  return status;
}

int
terrain_cli_edit_main (const TerrainCliEditClass   *klass,
                       const TerrainCliEditCommand *command,
                       int                          argc,
                       char                       **argv,
                       gpointer                     data)
{
  g_autoptr(TerrainCliEdit) run = g_new0 (TerrainCliEdit, 1);
  int status;

  g_return_val_if_fail (command->n_operands <= G_N_ELEMENTS (run->values), TERRAIN_EXIT_USAGE);
  run->klass = klass;
  run->command = command->usage.command;
  run->data = data;
  status = edit_main (run, command, argc, argv);
  clear_option_values (command->usage.entries);
  clear_option_values (command->usage.more_entries);
  return status;
}

void
terrain_cli_print_catalog_findings (TerrainFeatureCatalog *catalog)
{
  GPtrArray *issues = terrain_feature_catalog_get_issues (catalog);

  for (guint i = 0; i < issues->len; i++)
    {
      g_autofree char *line = terrain_issue_to_string (g_ptr_array_index (issues, i));

      g_printerr ("terrain: %s\n", line);
    }
}

TerrainFeatureCatalog *
terrain_cli_open_catalog (char              **archives,
                          TerrainGameFiles  **files_out)
{
  g_autoptr(TerrainGameFiles) files = terrain_game_files_new (NULL);
  g_autoptr(TerrainFeatureCatalog) catalog = terrain_feature_catalog_new ();
  g_autoptr(GError) error = NULL;
  GPtrArray *warnings;

  for (guint i = 0; archives[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (archives[i]);

      if (!terrain_game_files_add (files, file, NULL, &error))
        {
          terrain_cli_error (archives[i], error);
          return NULL;
        }
    }
  warnings = terrain_game_files_get_warnings (files);
  for (guint i = 0; i < warnings->len; i++)
    g_printerr ("terrain: %s\n", (const char *) g_ptr_array_index (warnings, i));
  terrain_feature_catalog_load_game_files (catalog, files, NULL, NULL);
  terrain_cli_print_catalog_findings (catalog);
  if (files_out != NULL)
    *files_out = g_steal_pointer (&files);
  return g_steal_pointer (&catalog);
}
