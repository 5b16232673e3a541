/* terrain-command-tnt.c: `terrain tnt`, editing Total Annihilation maps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every editing subcommand runs its edits through a TerrainCommandStack, as
 * the editor does, then writes the map atomically to -o OUT or in place.
 * --dry-run prints what would change (the edits' reports and the bytes of
 * the file that differ) and writes nothing.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "terrain-cli.h"

#define MAP(run) TERRAIN_TNT_MAP (terrain_cli_edit_get_document (run))

/* ------------------------------------------------------------------------ */
/* Operands                                                                 */

static gboolean
parse_double (const char *text,
              double     *out)
{
  char *end = NULL;

  *out = g_ascii_strtod (text, &end);
  return end != text && *end == '\0';
}

/* Looks an enum value up by its nick ("raise", "floyd-steinberg"). */
static gboolean
parse_enum (const char *command,
            GType       type,
            const char *what,
            const char *text,
            gint       *out)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (type);
  GEnumValue *value = g_enum_get_value_by_nick (klass, text);

  if (value == NULL)
    {
      g_autoptr(GString) names = g_string_new (NULL);
      g_autofree char *message = NULL;

      for (guint i = 0; i < klass->n_values; i++)
        g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", klass->values[i].value_nick);
      message = g_strdup_printf (_("unknown %s “%s” (one of: %s)"), what, text, names->str);
      terrain_cli_usage_error (command, message);
      return FALSE;
    }
  *out = value->value;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Opening, applying, reporting, saving                                     */

static void
print_layout_change (GBytes        *before,
                     TerrainTntMap *map,
                     GBytes        *after)
{
  static const char * const names[] = {
    "header", "tile map", "attributes", "tiles", "features", "minimap",
  };
  g_autoptr(TerrainTntMap) old = terrain_tnt_map_new_from_bytes (before, NULL, NULL);
  g_autofree char *size_before = g_strdup_printf ("%" G_GSIZE_FORMAT, g_bytes_get_size (before));
  g_autofree char *size_after = g_strdup_printf ("%" G_GSIZE_FORMAT, g_bytes_get_size (after));

  /* Translators: the file size in bytes now, then after the edit. */
  g_print (_("the file would be laid out anew: %s -> %s bytes\n"), size_before, size_after);
  for (guint s = TERRAIN_TNT_SECTION_HEADER; s <= TERRAIN_TNT_SECTION_MINIMAP; s++)
    {
      gsize old_offset = 0, old_size = 0, offset = 0, size = 0;

      if (old != NULL)
        terrain_tnt_map_get_section_span (old, s, &old_offset, &old_size);
      terrain_tnt_map_get_section_span (map, s, &offset, &size);
      g_print ("  %-10s %10" G_GSIZE_FORMAT " bytes at %-10" G_GSIZE_FORMAT " -> %10"
               G_GSIZE_FORMAT " bytes at %" G_GSIZE_FORMAT "%s\n",
               names[s], old_size, old_offset, size, offset,
               old_size != size ? _("  (resized)") : "");
    }
}

/* What the edit runner (terrain-cli.c) needs to know of TNT edits. */
static const char *
tnt_report (TerrainCommand *command)
{
  return TERRAIN_IS_TNT_EDIT (command) ? terrain_tnt_edit_get_report (TERRAIN_TNT_EDIT (command))
                                       : NULL;
}

static GPtrArray *
tnt_issues (TerrainCommand *command)
{
  return TERRAIN_IS_TNT_EDIT (command) ? terrain_tnt_edit_get_issues (TERRAIN_TNT_EDIT (command))
                                       : NULL;
}

static void
tnt_print_changes (TerrainDocument *document,
                   GBytes          *before,
                   GBytes          *after)
{
  if (g_bytes_get_size (before) == g_bytes_get_size (after))
    terrain_cli_print_byte_ranges (document, before, after);
  else
    print_layout_change (before, TERRAIN_TNT_MAP (document), after);
}

const TerrainCliEditClass terrain_cli_tnt_edit_class = {
  terrain_tnt_map_get_type, N_("a TNT map"), tnt_report, tnt_issues, tnt_print_changes,
};

/* ------------------------------------------------------------------------ */
/* heights brush                                                            */

typedef struct
{
  TerrainTntBrush brush;
  double x;
  double y;
} Dab;

/* One script line: MODE X Y [radius=R] [strength=S] [falloff=F] [level=L] */
static gboolean
parse_script_line (const char             *line,
                   const TerrainTntBrush  *defaults,
                   Dab                    *dab,
                   GError                **error)
{
  g_auto(GStrv) words = g_strsplit_set (line, " \t", -1);
  g_autoptr(GEnumClass) modes = g_type_class_ref (TERRAIN_TYPE_TNT_BRUSH_MODE);
  g_autoptr(GEnumClass) falloffs = g_type_class_ref (TERRAIN_TYPE_TNT_FALLOFF);
  const char *fields[3] = { NULL, NULL, NULL };
  guint n = 0;
  GEnumValue *value;

  dab->brush = *defaults;
  for (guint i = 0; words[i] != NULL; i++)
    {
      const char *word = words[i];
      const char *equals = strchr (word, '=');
      double number;

      if (*word == '\0')
        continue;
      if (equals == NULL)
        {
          if (n == 3)
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("unexpected “%s” (expected MODE X Y and key=value settings)"), word);
              return FALSE;
            }
          fields[n++] = word;
          continue;
        }
      if (g_str_has_prefix (word, "falloff="))
        {
          if ((value = g_enum_get_value_by_nick (falloffs, equals + 1)) == NULL)
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("unknown falloff “%s”"), equals + 1);
              return FALSE;
            }
          dab->brush.falloff = value->value;
          continue;
        }
      if (!parse_double (equals + 1, &number))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("“%s” is not a number"), equals + 1);
          return FALSE;
        }
      if (g_str_has_prefix (word, "radius="))
        dab->brush.radius = number;
      else if (g_str_has_prefix (word, "strength="))
        dab->brush.strength = number;
      else if (g_str_has_prefix (word, "level=") && number >= 0 && number <= 255)
        dab->brush.level = (guint8) number;
      else
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("unknown setting “%s” (radius, strength, falloff, level 0..255)"),
                       word);
          return FALSE;
        }
    }

  if (n != 3)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("expected MODE X Y"));
      return FALSE;
    }
  if ((value = g_enum_get_value_by_nick (modes, fields[0])) == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("unknown mode “%s” (raise, lower, smooth, flatten, set)"), fields[0]);
      return FALSE;
    }
  dab->brush.mode = value->value;
  if (!parse_double (fields[1], &dab->x) || !parse_double (fields[2], &dab->y))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("“%s %s” is not a position"), fields[1], fields[2]);
      return FALSE;
    }
  return terrain_tnt_brush_check (&dab->brush, error);
}

static gboolean
read_script (const char             *path,
             const TerrainTntBrush  *defaults,
             GArray                 *dabs)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  gsize length = 0;

  if (strcmp (path, "-") == 0)
    {
      GString *input = g_string_new (NULL);
      char buffer[4096];
      gsize n;

      while ((n = fread (buffer, 1, sizeof buffer, stdin)) > 0)
        g_string_append_len (input, buffer, (gssize) n);
      if (ferror (stdin))
        {
          g_printerr (_("terrain: cannot read the script from standard input\n"));
          g_string_free (input, TRUE);
          return FALSE;
        }
      text = g_string_free (input, FALSE);
    }
  else if (!g_file_get_contents (path, &text, &length, &error))
    {
      terrain_cli_error (path, error);
      return FALSE;
    }

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *line = g_strstrip (g_strdup (lines[i]));
      char *comment = strchr (line, '#');
      Dab dab;

      if (comment != NULL)
        *comment = '\0';
      g_strstrip (line);
      if (*line == '\0')
        continue;
      if (!parse_script_line (line, defaults, &dab, &error))
        {
          g_printerr ("terrain: %s:%u: %s\n", path, i + 1, error->message);
          return FALSE;
        }
      g_array_append_val (dabs, dab);
    }

  return TRUE;
}

/* The brush subcommand's options and the dabs made of them. */
typedef struct
{
  char *mode;
  char *falloff;
  char *script;
  char **positions;
  double radius;
  double strength;
  int level;
  GArray *dabs;
} BrushOptions;

static int
prepare_brush (TerrainCliEdit *run)
{
  const char *command = terrain_cli_edit_get_command (run);
  BrushOptions *options = terrain_cli_edit_get_data (run);
  TerrainTntBrush defaults = { TERRAIN_TNT_BRUSH_RAISE, 2, 8, TERRAIN_TNT_FALLOFF_SMOOTH, 0 };
  g_autoptr(GError) error = NULL;
  gint value;

  if (options->mode != NULL)
    {
      if (!parse_enum (command, TERRAIN_TYPE_TNT_BRUSH_MODE, _("mode"), options->mode, &value))
        return TERRAIN_EXIT_USAGE;
      defaults.mode = value;
    }
  if (options->falloff != NULL)
    {
      if (!parse_enum (command, TERRAIN_TYPE_TNT_FALLOFF, _("falloff"), options->falloff,
                       &value))
        return TERRAIN_EXIT_USAGE;
      defaults.falloff = value;
    }
  if (options->level < 0 || options->level > 255)
    {
      terrain_cli_usage_error (command, _("--level must be 0..255"));
      return TERRAIN_EXIT_USAGE;
    }
  defaults.radius = options->radius;
  defaults.strength = options->strength;
  defaults.level = (guint8) options->level;
  if (!terrain_tnt_brush_check (&defaults, &error))
    {
      terrain_cli_usage_error (command, error->message);
      return TERRAIN_EXIT_USAGE;
    }

  options->dabs = terrain_cli_edit_keep (run, g_array_new (FALSE, FALSE, sizeof (Dab)),
                                         (GDestroyNotify) g_array_unref);
  for (guint i = 0; options->positions != NULL && options->positions[i] != NULL; i++)
    {
      g_auto(GStrv) xy = g_strsplit (options->positions[i], ",", -1);
      Dab dab = { defaults, 0, 0 };

      if (g_strv_length (xy) != 2 || !parse_double (xy[0], &dab.x) ||
          !parse_double (xy[1], &dab.y))
        {
          g_autofree char *message = g_strdup_printf (_("--at “%s”: expected X,Y"),
                                                      options->positions[i]);

          terrain_cli_usage_error (command, message);
          return TERRAIN_EXIT_USAGE;
        }
      g_array_append_val (options->dabs, dab);
    }
  if (options->script != NULL && !read_script (options->script, &defaults, options->dabs))
    return TERRAIN_EXIT_USAGE;
  if (options->dabs->len == 0)
    {
      terrain_cli_usage_error (command, _("no dabs: give --at X,Y or --script FILE"));
      return TERRAIN_EXIT_USAGE;
    }
  return TERRAIN_EXIT_OK;
}

static int
apply_brush (TerrainCliEdit *run)
{
  BrushOptions *options = terrain_cli_edit_get_data (run);
  GArray *dabs = options->dabs;
  gboolean ok = TRUE;

  for (guint i = 0; i < dabs->len; i++)
    {
      const Dab *dab = &g_array_index (dabs, Dab, i);

      if (!terrain_tnt_brush_reaches_map (&dab->brush, MAP (run), dab->x, dab->y))
        {
          g_autofree char *message =
            g_strdup_printf (_("the dab at %g,%g (radius %g) lies outside the map, whose "
                               "cells are columns 0..%u and rows 0..%u"),
                             dab->x, dab->y, dab->brush.radius,
                             terrain_tnt_map_get_width (MAP (run)) - 1,
                             terrain_tnt_map_get_height (MAP (run)) - 1);

          terrain_cli_usage_error (terrain_cli_edit_get_command (run), message);
          return TERRAIN_EXIT_USAGE;
        }
    }

  /* One stroke: the dabs merge into one edit. */
  terrain_command_stack_begin_user_action (terrain_cli_edit_get_stack (run), _("Brush heights"));
  for (guint i = 0; i < dabs->len && ok; i++)
    {
      const Dab *dab = &g_array_index (dabs, Dab, i);

      ok = terrain_cli_edit_execute (run, terrain_tnt_edit_new_brush (MAP (run), &dab->brush,
                                                                      dab->x, dab->y, 1));
    }
  terrain_command_stack_end_user_action (terrain_cli_edit_get_stack (run));
  if (!ok)
    return TERRAIN_EXIT_ERROR;

  /* The dabs (one stroke) merged into the first edit: report that one. */
  terrain_cli_edit_report_first (run);
  return TERRAIN_EXIT_OK;
}

static int
heights_brush (int    argc,
               char **argv)
{
  BrushOptions options = { .radius = 2, .strength = 8 };
  const GOptionEntry entries[] = {
    { "mode", 'm', 0, G_OPTION_ARG_STRING, &options.mode,
      N_("raise, lower, smooth, flatten or set (default raise)"), N_("MODE") },
    { "radius", 'r', 0, G_OPTION_ARG_DOUBLE, &options.radius,
      N_("Radius in attribute cells (default 2)"), N_("R") },
    { "strength", 's', 0, G_OPTION_ARG_DOUBLE, &options.strength,
      N_("Height units for raise/lower, 0..1 for smooth/flatten (default 8)"), N_("S") },
    { "falloff", 'f', 0, G_OPTION_ARG_STRING, &options.falloff,
      N_("constant, linear or smooth (default smooth)"), N_("F") },
    { "level", 'l', 0, G_OPTION_ARG_INT, &options.level,
      N_("Target height of flatten and set, 0..255"), N_("L") },
    { "at", 'a', 0, G_OPTION_ARG_STRING_ARRAY, &options.positions,
      N_("A dab at cell X,Y; repeat for a stroke"), N_("X,Y") },
    { "script", 0, 0, G_OPTION_ARG_FILENAME, &options.script,
      N_("Read dabs from FILE (- for standard input), one per line: MODE X Y "
         "[radius=R] [strength=S] [falloff=F] [level=L]; # starts a comment"), N_("FILE") },
    { NULL }
  };
  const TerrainCliEditCommand command = {
    { "tnt heights brush", N_("FILE"),
      N_("Paint heights with a brush over the attribute grid (one height per 16x16-pixel "
         "cell). Give dabs with --at or --script; all dabs are one edit. Only the height bytes "
         "of the cells the brush changes are written."),
      entries, NULL, 1, 1, N_("expected FILE") },
    NULL, 0, NULL, prepare_brush, NULL, apply_brush
  };

  return terrain_cli_edit_main (&terrain_cli_tnt_edit_class, &command, argc, argv, &options);
}

/* ------------------------------------------------------------------------ */
/* void, paint, resize                                                      */

#define VALUE(run, i) terrain_cli_edit_get_value (run, i)

static TerrainCommand *
build_void (TerrainCliEdit *run)
{
  gboolean *unmark = terrain_cli_edit_get_data (run);

  return terrain_tnt_edit_new_void (MAP (run), VALUE (run, 0), VALUE (run, 1), VALUE (run, 2),
                                    VALUE (run, 3), !*unmark);
}

static int
command_void (int    argc,
              char **argv)
{
  static const TerrainCliOperand operands[] = { { "X" }, { "Y" }, { "WIDTH" }, { "HEIGHT" } };
  gboolean unmark = FALSE;
  const GOptionEntry entries[] = {
    { "unmark", 'u', 0, G_OPTION_ARG_NONE, &unmark,
      N_("Unmark void cells (back to empty) instead of marking them"), NULL },
    { NULL }
  };
  const TerrainCliEditCommand command = {
    { "tnt void", N_("FILE X Y [WIDTH HEIGHT]"),
      N_("Mark a rectangle of attribute cells void (feature word 0xFFFC: blocked and not "
         "drawn), or unmark it. Cells anchoring a feature are left alone."),
      entries, NULL, 3, 5, N_("expected FILE X Y [WIDTH HEIGHT]") },
    operands, G_N_ELEMENTS (operands), N_("give both WIDTH and HEIGHT"), NULL, build_void, NULL
  };

  return terrain_cli_edit_main (&terrain_cli_tnt_edit_class, &command, argc, argv, &unmark);
}

static TerrainCommand *
build_paint (TerrainCliEdit *run)
{
  return terrain_tnt_edit_new_paint_tiles (MAP (run), VALUE (run, 0), VALUE (run, 1),
                                           VALUE (run, 3), VALUE (run, 4),
                                           (guint16) VALUE (run, 2));
}

static int
command_paint (int    argc,
               char **argv)
{
  static const TerrainCliOperand operands[] = {
    { "COLUMN" }, { "ROW" }, { "TILE", G_MAXUINT16 }, { "COLUMNS" }, { "ROWS" }
  };
  static const TerrainCliEditCommand command = {
    { "tnt paint", N_("FILE COLUMN ROW TILE [COLUMNS ROWS]"),
      N_("Draw tile TILE on a rectangle of 32x32-pixel positions."),
      NULL, NULL, 4, 6, N_("expected FILE COLUMN ROW TILE [COLUMNS ROWS]") },
    operands, G_N_ELEMENTS (operands), N_("give both COLUMNS and ROWS"), NULL, build_paint, NULL
  };

  return terrain_cli_edit_main (&terrain_cli_tnt_edit_class, &command, argc, argv, NULL);
}

/* A palette for the run, freed with it; NULL after printing the error. */
static TerrainPalette *
open_palette (TerrainCliEdit *run,
              const char     *path)
{
  return terrain_cli_edit_keep (run, terrain_cli_open_palette (path),
                                (GDestroyNotify) terrain_palette_unref);
}

/* Applies @edit (taken), then, given a palette, regenerates the minimap:
 * one user action. */
static int
execute_with_minimap (TerrainCliEdit *run,
                      const char     *action,
                      TerrainCommand *edit,
                      TerrainPalette *palette)
{
  TerrainCommandStack *stack = terrain_cli_edit_get_stack (run);
  gboolean ok;

  terrain_command_stack_begin_user_action (stack, action);
  ok = terrain_cli_edit_execute (run, edit) &&
       (palette == NULL ||
        terrain_cli_edit_execute (run, terrain_tnt_edit_new_regenerate_minimap (MAP (run),
                                                                                palette)));
  terrain_command_stack_end_user_action (stack);
  return ok ? TERRAIN_EXIT_OK : TERRAIN_EXIT_ERROR;
}

typedef struct
{
  int left, top, right, bottom, fill_height, fill_tile;
  char *palette_path;
  TerrainPalette *palette;
} ResizeEdit;

static int
prepare_resize (TerrainCliEdit *run)
{
  const char *command = terrain_cli_edit_get_command (run);
  ResizeEdit *edit = terrain_cli_edit_get_data (run);

  if (edit->fill_height < 0 || edit->fill_height > 255 || edit->fill_tile < 0 ||
      edit->fill_tile > G_MAXUINT16)
    {
      terrain_cli_usage_error (command, _("--fill-height must be 0..255 and --fill-tile "
                                          "0..65535"));
      return TERRAIN_EXIT_USAGE;
    }
  if (edit->palette_path != NULL &&
      (edit->palette = open_palette (run, edit->palette_path)) == NULL)
    return TERRAIN_EXIT_ERROR;
  return TERRAIN_EXIT_OK;
}

static int
apply_resize (TerrainCliEdit *run)
{
  char **argv = terrain_cli_edit_get_argv (run);
  ResizeEdit *edit = terrain_cli_edit_get_data (run);
  int status = execute_with_minimap (run, _("Resize map"),
                                     terrain_tnt_edit_new_resize (MAP (run), edit->left,
                                                                  edit->top, edit->right,
                                                                  edit->bottom,
                                                                  (guint8) edit->fill_height,
                                                                  (guint16) edit->fill_tile),
                                     edit->palette);

  if (status == TERRAIN_EXIT_OK && edit->palette == NULL)
    g_printerr (_("terrain: %s: the minimap was re-framed from the old picture for the new "
                  "shape; give --palette to regenerate it from the tiles\n"), argv[1]);
  return status;
}

static int
command_resize (int    argc,
                char **argv)
{
  ResizeEdit edit = { 0 };
  const GOptionEntry entries[] = {
    { "left", 0, 0, G_OPTION_ARG_INT, &edit.left,
      N_("Cells to add on the west side (negative: remove); even"), N_("N") },
    { "top", 0, 0, G_OPTION_ARG_INT, &edit.top,
      N_("Cells to add on the north side (negative: remove); even"), N_("N") },
    { "right", 0, 0, G_OPTION_ARG_INT, &edit.right,
      N_("Cells to add on the east side (negative: remove); even"), N_("N") },
    { "bottom", 0, 0, G_OPTION_ARG_INT, &edit.bottom,
      N_("Cells to add on the south side (negative: remove); even"), N_("N") },
    { "fill-height", 0, 0, G_OPTION_ARG_INT, &edit.fill_height,
      N_("Height of added cells (default 0)"), N_("H") },
    { "fill-tile", 0, 0, G_OPTION_ARG_INT, &edit.fill_tile,
      N_("Tile drawn on added positions (default 0)"), N_("T") },
    { "palette", 'p', 0, G_OPTION_ARG_FILENAME, &edit.palette_path,
      N_("Regenerate the minimap for the new shape through this palette"), N_("FILE") },
    { NULL }
  };
  const TerrainCliEditCommand command = {
    { "tnt resize", N_("FILE"),
      N_("Add or remove attribute cells on any side of a map (by twos, so that tiles stay "
         "aligned). Kept cells, tiles and features keep their contents."),
      entries, NULL, 1, 1, N_("expected FILE") },
    NULL, 0, NULL, prepare_resize, NULL, apply_resize
  };

  return terrain_cli_edit_main (&terrain_cli_tnt_edit_class, &command, argc, argv, &edit);
}

/* ------------------------------------------------------------------------ */
/* Images                                                                   */

/* A PNG image for the run, freed with it; NULL after printing the error. */
static TerrainImage *
open_png (TerrainCliEdit *run,
          const char     *path)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  TerrainImage *image;

  bytes = terrain_file_load_bytes (file, NULL, &error);
  image = bytes != NULL ? terrain_image_load_png_bytes (bytes, &error) : NULL;
  if (image == NULL)
    terrain_cli_error (path, error);
  return terrain_cli_edit_keep (run, image, (GDestroyNotify) terrain_image_unref);
}

typedef struct
{
  char *palette_path;
  char *dither;
  gboolean keep_tiles;
  gboolean keep_minimap;
  gint dither_mode;
  TerrainPalette *palette;
  TerrainImage *image;
} ImageEdit;

static int
prepare_import_image (TerrainCliEdit *run)
{
  const char *command = terrain_cli_edit_get_command (run);
  char **argv = terrain_cli_edit_get_argv (run);
  ImageEdit *edit = terrain_cli_edit_get_data (run);

  edit->dither_mode = TERRAIN_DITHER_NONE;
  if (edit->palette_path == NULL)
    {
      terrain_cli_usage_error (command, _("--palette is required"));
      return TERRAIN_EXIT_USAGE;
    }
  if (edit->dither != NULL && !parse_enum (command, TERRAIN_TYPE_DITHER, _("dither mode"),
                                           edit->dither, &edit->dither_mode))
    return TERRAIN_EXIT_USAGE;
  if ((edit->palette = open_palette (run, edit->palette_path)) == NULL ||
      (edit->image = open_png (run, argv[2])) == NULL)
    return TERRAIN_EXIT_ERROR;
  return TERRAIN_EXIT_OK;
}

static int
apply_import_image (TerrainCliEdit *run)
{
  char **argv = terrain_cli_edit_get_argv (run);
  ImageEdit *edit = terrain_cli_edit_get_data (run);
  g_autoptr(GError) error = NULL;
  TerrainCommand *import;

  import = terrain_tnt_edit_new_import_image (MAP (run), edit->image, edit->palette,
                                              edit->dither_mode,
                                              edit->keep_tiles ? TERRAIN_TNT_IMPORT_KEEP_TILES
                                                               : TERRAIN_TNT_IMPORT_NONE,
                                              &error);
  if (import == NULL)
    {
      terrain_cli_error (argv[2], error);
      return TERRAIN_EXIT_ERROR;
    }
  return execute_with_minimap (run, _("Import tile image"), import,
                               edit->keep_minimap ? NULL : edit->palette);
}

static int
import_image (int    argc,
              char **argv)
{
  ImageEdit edit = { NULL };
  const GOptionEntry entries[] = {
    { "palette", 'p', 0, G_OPTION_ARG_FILENAME, &edit.palette_path,
      N_("The palette the tiles index (PALETTE.PAL); required"), N_("FILE") },
    { "dither", 0, 0, G_OPTION_ARG_STRING, &edit.dither,
      N_("none, ordered or floyd-steinberg (default none)"), N_("MODE") },
    { "keep-tiles", 0, 0, G_OPTION_ARG_NONE, &edit.keep_tiles,
      N_("Keep the map's tile set and the entries of unchanged positions; append only new "
         "tiles (for a touched-up export: unchanged areas stay byte for byte)"), NULL },
    { "keep-minimap", 0, 0, G_OPTION_ARG_NONE, &edit.keep_minimap,
      N_("Do not regenerate the minimap from the new tiles"), NULL },
    { NULL }
  };
  const TerrainCliEditCommand command = {
    { "tnt import-image", N_("FILE IMAGE.png"),
      N_("Make the map's tile set from a picture of the map's exact pixel size (indexed or "
         "RGB/RGBA PNG): quantised to the palette, split into 32x32 tiles, identical tiles "
         "kept once. The minimap is regenerated too."),
      entries, NULL, 2, 2, N_("expected FILE and IMAGE.png") },
    NULL, 0, NULL, prepare_import_image, NULL, apply_import_image
  };

  return terrain_cli_edit_main (&terrain_cli_tnt_edit_class, &command, argc, argv, &edit);
}

static int
prepare_import_heightmap (TerrainCliEdit *run)
{
  ImageEdit *edit = terrain_cli_edit_get_data (run);

  edit->image = open_png (run, terrain_cli_edit_get_argv (run)[2]);
  return edit->image != NULL ? TERRAIN_EXIT_OK : TERRAIN_EXIT_ERROR;
}

static TerrainCommand *
build_import_heightmap (TerrainCliEdit *run)
{
  char **argv = terrain_cli_edit_get_argv (run);
  ImageEdit *edit = terrain_cli_edit_get_data (run);
  g_autoptr(GError) error = NULL;
  TerrainCommand *import = terrain_tnt_edit_new_import_heightmap (MAP (run), edit->image,
                                                                  &error);

  if (import == NULL)
    terrain_cli_error (argv[2], error);
  return import;
}

static int
import_heightmap (int    argc,
                  char **argv)
{
  static const TerrainCliEditCommand command = {
    { "tnt import-heightmap", N_("FILE HEIGHTS.png"),
      N_("Set every cell's height from a greyscale PNG of one pixel per attribute cell (1/16 "
         "of the map's pixel size). 16-bit values are divided by 257, as export-heightmap "
         "multiplied them; 8-bit values are heights."),
      NULL, NULL, 2, 2, N_("expected FILE and HEIGHTS.png") },
    NULL, 0, NULL, prepare_import_heightmap, build_import_heightmap, NULL
  };
  ImageEdit edit = { NULL };

  return terrain_cli_edit_main (&terrain_cli_tnt_edit_class, &command, argc, argv, &edit);
}

typedef struct
{
  char *palette_path;
  char *export_path;
  gboolean regenerate;
  gboolean uncropped;
  TerrainPalette *palette;
} MinimapEdit;

static int
prepare_minimap (TerrainCliEdit *run)
{
  const char *command = terrain_cli_edit_get_command (run);
  MinimapEdit *edit = terrain_cli_edit_get_data (run);

  if (!edit->regenerate && edit->export_path == NULL)
    {
      terrain_cli_usage_error (command, _("give --regenerate, --export OUT.png or both"));
      return TERRAIN_EXIT_USAGE;
    }
  if (edit->palette_path == NULL)
    {
      terrain_cli_usage_error (command, _("--palette is required"));
      return TERRAIN_EXIT_USAGE;
    }
  edit->palette = open_palette (run, edit->palette_path);
  return edit->palette != NULL ? TERRAIN_EXIT_OK : TERRAIN_EXIT_ERROR;
}

/* Only --export: no edit, and the map is not rewritten. */
static int
apply_minimap (TerrainCliEdit *run)
{
  MinimapEdit *edit = terrain_cli_edit_get_data (run);

  if (edit->regenerate &&
      !terrain_cli_edit_execute (run, terrain_tnt_edit_new_regenerate_minimap (MAP (run),
                                                                               edit->palette)))
    return TERRAIN_EXIT_ERROR;
  return TERRAIN_EXIT_OK;
}

/* Once the map is written: the minimap as PNG, regenerated when asked. */
static int
export_minimap (TerrainCliEdit *run)
{
  MinimapEdit *edit = terrain_cli_edit_get_data (run);
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GFile) out = NULL;
  g_autoptr(GError) error = NULL;

  if (edit->export_path == NULL)
    return TERRAIN_EXIT_OK;
  image = terrain_tnt_map_render_minimap (MAP (run), edit->palette, !edit->uncropped, &error);
  out = g_file_new_for_commandline_arg (edit->export_path);
  if (image == NULL || !terrain_image_save_png (image, out, NULL, &error))
    {
      terrain_cli_error (edit->export_path, error);
      return TERRAIN_EXIT_ERROR;
    }
  return TERRAIN_EXIT_OK;
}

static int
command_minimap (int    argc,
                 char **argv)
{
  MinimapEdit edit = { NULL };
  const GOptionEntry entries[] = {
    { "regenerate", 0, 0, G_OPTION_ARG_NONE, &edit.regenerate,
      N_("Regenerate the embedded minimap from the tiles (needs --palette)"), NULL },
    { "palette", 'p', 0, G_OPTION_ARG_FILENAME, &edit.palette_path,
      N_("The palette the tiles and the minimap index (PALETTE.PAL)"), N_("FILE") },
    { "export", 0, 0, G_OPTION_ARG_FILENAME, &edit.export_path,
      N_("Write the minimap as PNG (after regenerating, when asked; needs --palette)"),
      N_("OUT.png") },
    { "uncropped", 0, 0, G_OPTION_ARG_NONE, &edit.uncropped,
      N_("Export the whole stored bitmap, with its 0x64 fill"), NULL },
    { NULL }
  };
  const TerrainCliEditCommand command = {
    { "tnt minimap", N_("FILE"),
      N_("Regenerate the minimap the retail way (play area Width*16-32 by Height*16-128, long "
         "side fitted, average colour per pixel quantised to the palette, fill 0x64, stored "
         "size kept), and/or export it."),
      entries, NULL, 1, 1, N_("expected FILE") },
    NULL, 0, NULL, prepare_minimap, NULL, apply_minimap, export_minimap
  };

  return terrain_cli_edit_main (&terrain_cli_tnt_edit_class, &command, argc, argv, &edit);
}

typedef struct
{
  TerrainDocument *section;
  gint column, row;
} StampEdit;

static int
prepare_stamp (TerrainCliEdit *run)
{
  const char *command = terrain_cli_edit_get_command (run);
  char **argv = terrain_cli_edit_get_argv (run);
  StampEdit *edit = terrain_cli_edit_get_data (run);

  if (!terrain_cli_parse_int (command, "COLUMN", argv[3], &edit->column) ||
      !terrain_cli_parse_int (command, "ROW", argv[4], &edit->row))
    return TERRAIN_EXIT_USAGE;
  edit->section = terrain_cli_edit_keep (run, terrain_cli_open_as (argv[2],
                                                                    terrain_sct_section_get_type,
                                                                    N_("an SCT section")),
                                         g_object_unref);
  return edit->section != NULL ? TERRAIN_EXIT_OK : TERRAIN_EXIT_ERROR;
}

static TerrainCommand *
build_stamp (TerrainCliEdit *run)
{
  StampEdit *edit = terrain_cli_edit_get_data (run);

  return terrain_tnt_edit_new_stamp_section (MAP (run), TERRAIN_SCT_SECTION (edit->section),
                                             edit->column, edit->row);
}

static int
command_stamp (int    argc,
               char **argv)
{
  static const TerrainCliEditCommand command = {
    { "tnt stamp", N_("FILE SECTION.sct COLUMN ROW"),
      N_("Stamp an SCT section into the map with its top-left tile at tile COLUMN, ROW: its "
         "tiles join the map's tile set (identical tiles are reused) and its heights are "
         "copied. The part off the map is left out."),
      NULL, NULL, 4, 4, N_("expected FILE SECTION.sct COLUMN ROW") },
    NULL, 0, NULL, prepare_stamp, build_stamp, NULL
  };
  StampEdit edit = { NULL };

  return terrain_cli_edit_main (&terrain_cli_tnt_edit_class, &command, argc, argv, &edit);
}

/* ------------------------------------------------------------------------ */
/* Dispatch                                                                 */

static const TerrainCliCommand height_commands[] = {
  { "brush", N_("Raise, lower, smooth, flatten or set heights with a brush"), heights_brush },
};

static const TerrainCliGroup heights_group = {
  NULL, N_("FILE…"), NULL, terrain_cli_edit_footer,
  height_commands, G_N_ELEMENTS (height_commands), FALSE
};

static const TerrainCliCommand tnt_commands[] = {
  { "features", N_("Place, move, remove, list and clean up features"), NULL,
    &terrain_cli_tnt_features_group },
  { "heights", N_("Edit heights (brush)"), NULL, &heights_group },
  { "void", N_("Mark or unmark void cells"), command_void },
  { "paint", N_("Draw a tile on 32x32 positions"), command_paint },
  { "resize", N_("Add or remove cells on any side"), command_resize },
  { "import-image", N_("Make the tile set from a PNG"), import_image },
  { "import-heightmap", N_("Set the heights from a PNG"), import_heightmap },
  { "minimap", N_("Regenerate or export the minimap"), command_minimap },
  { "stamp", N_("Stamp an SCT section into the map"), command_stamp },
  { "lint", N_("Check the map's design as kbot does (--json, --sarif)"),
    terrain_command_tnt_lint },
  { "preview", N_("Render the map with feature sprites and start positions as PNG"),
    terrain_command_tnt_preview },
  { "unpack", N_("Write the map as a folder of CSV, PNG and JSON files"),
    terrain_command_tnt_unpack },
  { "pack", N_("Rebuild a map from an unpacked folder"), terrain_command_tnt_pack },
};

const TerrainCliGroup terrain_cli_tnt_group = {
  NULL, N_("FILE…"), N_("Edit Total Annihilation maps (.tnt)."), terrain_cli_edit_footer,
  tnt_commands, G_N_ELEMENTS (tnt_commands), FALSE
};
