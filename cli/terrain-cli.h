/* terrain-cli.h: shared helpers of the terrain command-line tool
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libterrain.h>

G_BEGIN_DECLS

/* Exit statuses shared by every subcommand (documented in `terrain --help`). */
enum
{
  TERRAIN_EXIT_OK = 0,
  TERRAIN_EXIT_WARNINGS = 1,   /* validate: findings; roundtrip: mismatch */
  TERRAIN_EXIT_ERROR = 2,      /* a file could not be read or written */
  TERRAIN_EXIT_USAGE = 64,     /* bad command line */
};

typedef int (*TerrainCommandFunc) (int    argc,
                                   char **argv);

typedef struct _TerrainCliGroup TerrainCliGroup;

/* One row of a command table: a command that runs (@run) or a family of
 * subcommands (@group, `terrain tnt`, `terrain tnt features`), which the
 * dispatcher enters in turn. The texts are untranslated (N_()). */
typedef struct
{
  const char            *name;
  const char            *summary;
  TerrainCommandFunc     run;
  const TerrainCliGroup *group;
} TerrainCliCommand;

/* A command with subcommands (`terrain`, `terrain tnt`, `terrain tnt
 * features`, …): terrain_cli_dispatch() prints its --help, finds the
 * subcommand named by argv[1] and runs it with "NAME SUBCOMMAND" as the
 * program name. The texts are untranslated (N_()); @description and
 * @footer may be %NULL. @name is the program name of the root table
 * ("terrain"); a nested table's is its parent's and its row's ("terrain tnt
 * features"), so it leaves @name %NULL. In the root's --help, a family's
 * summary is followed by the names of its subcommands. */
struct _TerrainCliGroup
{
  const char              *name;          /* "terrain"; NULL when nested */
  const char              *parameters;    /* after "COMMAND [OPTION…]" */
  const char              *description;
  const char              *footer;
  const TerrainCliCommand *commands;
  guint                    n_commands;
  gboolean                 top_level;     /* answers `terrain CMD … --version` */
};

int   terrain_cli_dispatch             (const TerrainCliGroup *group,
                                        int                    argc,
                                        char                 **argv);

/* The command families, each in its terrain-command-FAMILY.c. */
extern const TerrainCliGroup terrain_cli_model_group;
extern const TerrainCliGroup terrain_cli_atlas_group;
extern const TerrainCliGroup terrain_cli_insomniac_group;
extern const TerrainCliGroup terrain_cli_hpi_group;
extern const TerrainCliGroup terrain_cli_ota_group;
extern const TerrainCliGroup terrain_cli_ter_group;
extern const TerrainCliGroup terrain_cli_tnt_group;

int   terrain_command_info             (int argc, char **argv);
int   terrain_command_validate         (int argc, char **argv);
int   terrain_command_roundtrip        (int argc, char **argv);
int   terrain_command_export_image     (int argc, char **argv);
int   terrain_command_export_heightmap (int argc, char **argv);
int   terrain_command_set_sea_level    (int argc, char **argv);
int   terrain_command_import_chu       (int argc, char **argv);
int   terrain_command_convert          (int argc, char **argv);
int   terrain_command_tnt_lint         (int argc, char **argv);
int   terrain_command_tnt_preview      (int argc, char **argv);
int   terrain_command_tnt_unpack       (int argc, char **argv);
int   terrain_command_tnt_pack         (int argc, char **argv);
int   terrain_command_build_atlas      (int argc, char **argv);
int   terrain_command_convert_heightmap (int argc, char **argv);

/* Heightmap source options shared by build-atlas and convert-heightmap
 * (terrain-command-build-atlas.c). */
void                terrain_cli_add_heightmap_options (GOptionContext        *context);
gboolean            terrain_cli_heightmap_fit         (const char            *command,
                                                       TerrainHeightfieldFit *fit);
gboolean            terrain_cli_texture_format        (const char                *command,
                                                       const char                *name,
                                                       TerrainAtlasTextureFormat *format);
TerrainHeightfield *terrain_cli_load_heightfield      (const char            *command,
                                                       const char            *path,
                                                       gboolean              *usage);

/* --heightmap-format, one option and one parser for every command that
 * reads heights (terrain-cli.c). */
const GOptionEntry *terrain_cli_heightmap_format_entries (void);
gboolean            terrain_cli_heightmap_format         (const char             *command,
                                                          TerrainHeightmapFormat *format);

/* Operands: an unsigned number up to @max, or any int; FALSE after a usage
 * error naming @what ("X: …"). */
gboolean         terrain_cli_parse_uint      (const char    *command,
                                              const char    *what,
                                              const char    *text,
                                              guint64        max,
                                              guint         *out);
gboolean         terrain_cli_parse_int       (const char    *command,
                                              const char    *what,
                                              const char    *text,
                                              gint          *out);

GOptionContext  *terrain_cli_option_context  (const char    *command,
                                              const char    *parameters,
                                              const char    *summary,
                                              const GOptionEntry *entries);
gboolean         terrain_cli_parse           (GOptionContext *context,
                                              int           *argc,
                                              char        ***argv);
TerrainDocument *terrain_cli_open            (const char    *path);
/* Saves @document to @path atomically; on failure prints the error naming
 * @path and returns FALSE. */
gboolean         terrain_cli_save            (TerrainDocument *document,
                                              const char      *path);
/* Writes @bytes to @path atomically; the same on failure. */
gboolean         terrain_cli_save_bytes      (const char      *path,
                                              GBytes          *bytes);
TerrainDocument *terrain_cli_open_with_error (const char    *path,
                                              GError       **error);
/* terrain_cli_open(), then "a … file, not @noun" (N_()) unless the document
 * is a @type. */
TerrainDocument *terrain_cli_open_as         (const char    *path,
                                              GType        (*type) (void),
                                              const char    *noun);
TerrainPalette  *terrain_cli_open_palette    (const char    *path);

void             terrain_cli_error           (const char    *path,
                                              const GError  *error);
void             terrain_cli_usage_error     (const char    *command,
                                              const char    *message);
void             terrain_cli_print_version   (void);
gboolean         terrain_cli_wants_version   (const char    *command,
                                              int            argc,
                                              char         **argv);
char            *terrain_cli_json_to_string  (JsonNode      *node,
                                              gboolean       pretty);
void             terrain_cli_print_summary   (JsonNode      *node);

/* `--archives PATH…` (installs, archives or folders, later ones winning, as
 * the game mounts them): the feature catalogue read from them, and the file
 * tree when @files_out is given. Warnings go to stderr; an unreadable PATH
 * prints its error and returns NULL. */
/* Prints what loading feature definitions found (bad footprints, names
 * defined twice, files skipped) to stderr, one line each. */
void                   terrain_cli_print_catalog_findings (TerrainFeatureCatalog *catalog);
TerrainFeatureCatalog *terrain_cli_open_catalog (char              **archives,
                                                 TerrainGameFiles  **files_out);

/* The one runner of editing subcommands (`terrain tnt …`): the -o/-n
 * options, opening FILE as the document type the class names, applying
 * commands through a TerrainCommandStack, and saving. Nothing claims
 * success before the file is on disk: the commands' reports are printed
 * only once the save succeeded (or, with --dry-run, with what would
 * change). The class supplies what is specific to a document type through
 * the library's own API. */
typedef struct
{
  GType      (*document_type)  (void);   /* terrain_tnt_map_get_type */
  const char  *document_noun;   /* "a TNT map", for "a … file, not …" */
  /* A command's one-line report after it is applied, or NULL. */
  const char *(*report)        (TerrainCommand  *command);
  /* What a command found while applying (warnings), or NULL. */
  GPtrArray  *(*issues)        (TerrainCommand  *command);
  /* --dry-run: prints how @after differs from @before; NULL for
   * terrain_cli_print_byte_ranges(). */
  void        (*print_changes) (TerrainDocument *document,
                                GBytes          *before,
                                GBytes          *after);
} TerrainCliEditClass;

typedef struct _TerrainCliEdit TerrainCliEdit;

/* A subcommand's command line: its own options, then @more_entries (a
 * family's, e.g. `terrain tnt`'s --footprint), then the shared ones, and
 * between @min_operands and @max_operands operands, FILE counted; the texts
 * are untranslated (N_()). */
typedef struct
{
  const char         *command;          /* "tnt void", for messages */
  const char         *parameters;       /* "FILE X Y [WIDTH HEIGHT]" */
  const char         *summary;
  const GOptionEntry *entries;          /* or NULL */
  const GOptionEntry *more_entries;     /* or NULL */
  int                 min_operands;
  int                 max_operands;
  const char         *expected;         /* the usage error for another count */
} TerrainCliUsage;

/* Parses @usage's command line, with the -o/-n options when @editing, and
 * drops the "--" GOption leaves before operands (for negative numbers).
 * Prints the usage error and returns FALSE when it is off. */
gboolean terrain_cli_parse_usage (const TerrainCliUsage  *usage,
                                  gboolean                editing,
                                  int                    *argc,
                                  char                 ***argv);

/* An operand after FILE: its name in usage errors ("X"; NULL for one the
 * subcommand reads itself) and its maximum (0: G_MAXUINT32). */
typedef struct
{
  const char *name;
  guint64     max;
} TerrainCliOperand;

/* An editing subcommand: what it adds to the runner. The runner parses
 * @usage, then the unsigned @operands after FILE, for
 * terrain_cli_edit_get_value(). With @both (a usage error marked for
 * translation, such as "give both COLUMNS and ROWS"), the last two operands
 * are optional together and 1 when not given. The callbacks return an
 * exit status, TERRAIN_EXIT_OK to go on: @prepare (or NULL) checks the rest
 * and reads other inputs before FILE is opened; then either @build makes
 * the one command to apply (NULL after printing why: exit 2) or @apply
 * applies commands itself with terrain_cli_edit_execute() (none applied is
 * fine: nothing is rewritten). @after (or NULL) runs once the file is
 * written, not with --dry-run, for what the subcommand writes besides it
 * (`tnt minimap --export`). */
typedef struct
{
  TerrainCliUsage          usage;
  const TerrainCliOperand *operands;
  guint                    n_operands;
  const char              *both;
  int                      (*prepare) (TerrainCliEdit *run);
  TerrainCommand          *(*build)   (TerrainCliEdit *run);
  int                      (*apply)   (TerrainCliEdit *run);
  int                      (*after)   (TerrainCliEdit *run);
} TerrainCliEditCommand;

/* The whole of an editing subcommand: parses its command line, prepares,
 * opens FILE as @klass's document type, builds or applies, writes FILE
 * (or, with --dry-run, prints what would change), then @after. @data is
 * the subcommand's, for its callbacks (terrain_cli_edit_get_data()); the
 * strings its options were given are freed at the end. Returns the exit
 * status. */
int                  terrain_cli_edit_main         (const TerrainCliEditClass   *klass,
                                                    const TerrainCliEditCommand *command,
                                                    int                          argc,
                                                    char                       **argv,
                                                    gpointer                     data);

/* The --help footer of a family of editing subcommands. */
extern const char    terrain_cli_edit_footer[];
const char          *terrain_cli_edit_get_command  (TerrainCliEdit            *self);
/* In the callbacks of terrain_cli_edit_main(): the operands (argv[1] is
 * FILE), the subcommand's data and the value of operand @i after FILE. */
char               **terrain_cli_edit_get_argv     (TerrainCliEdit            *self);
gpointer             terrain_cli_edit_get_data     (TerrainCliEdit            *self);
guint                terrain_cli_edit_get_value    (TerrainCliEdit            *self,
                                                    guint                      i);
/* Frees @data with @destroy when the run ends, as the runner frees the
 * strings of the subcommand's options; returns @data. */
gpointer             terrain_cli_edit_keep         (TerrainCliEdit            *self,
                                                    gpointer                   data,
                                                    GDestroyNotify             destroy);
TerrainDocument     *terrain_cli_edit_get_document (TerrainCliEdit            *self);
TerrainCommandStack *terrain_cli_edit_get_stack    (TerrainCliEdit            *self);
/* Applies @command (taken; NULL fails); prints the refusal or the findings. */
gboolean             terrain_cli_edit_execute      (TerrainCliEdit            *self,
                                                    TerrainCommand            *command);
/* Reports only the first command applied (a stroke whose dabs merged). */
void                 terrain_cli_edit_report_first (TerrainCliEdit            *self);
/* --dry-run of an edit: the byte ranges that change, each named by the
 * section terrain_document_describe_offset() gives; for a change of size,
 * the one range between the bytes that stay at the start and at the end. */
void                 terrain_cli_print_byte_ranges (TerrainDocument           *document,
                                                    GBytes                    *before,
                                                    GBytes                    *after);
void                 terrain_cli_edit_free         (TerrainCliEdit            *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerrainCliEdit, terrain_cli_edit_free)

/* `terrain tnt` (terrain-command-tnt.c): the editing class of TNT maps,
 * and the `terrain tnt features` table (terrain-command-tnt-features.c). */
extern const TerrainCliEditClass terrain_cli_tnt_edit_class;
extern const TerrainCliGroup     terrain_cli_tnt_features_group;

/* A progress line on stderr for operations over many files or items: shown
 * only when stderr is a terminal (TERRAIN_PROGRESS=always|never overrides),
 * so pipes, logs and --json output stay clean. */
typedef struct _TerrainCliProgress TerrainCliProgress;

TerrainCliProgress *terrain_cli_progress_new    (const char         *label,
                                                 guint64             total);
void                terrain_cli_progress_update (TerrainCliProgress *self,
                                                 guint64             done,
                                                 const char         *item);
void                terrain_cli_progress_clear  (TerrainCliProgress *self);
void                terrain_cli_progress_free   (TerrainCliProgress *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerrainCliProgress, terrain_cli_progress_free)

G_END_DECLS
