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

/* ------------------------------------------------------------------------ */
/* Options shared by the editing subcommands                                */

static char **opt_footprints;
static char **opt_features;

static const GOptionEntry footprint_entries[] = {
  { "features", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opt_features,
    N_("Read feature definitions (footprintx/footprintz) from the .tdf files of a folder, or "
       "from features/ in an HPI archive; may be repeated"), N_("DIR|ARCHIVE") },
  { "footprint", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_footprints,
    N_("Footprint of a feature in attribute cells (TDF footprintx/footprintz); may be "
       "repeated. Features without one count as 1x1"), N_("NAME=WxZ") },
  { NULL }
};

/* Parses a subcommand's options: its own entries, then the shared ones. */
static gboolean
parse_options (const char          *command,
               const char          *parameters,
               const char          *summary,
               const GOptionEntry  *entries,
               gboolean             editing,
               gboolean             footprints,
               int                 *argc,
               char              ***argv)
{
  g_autoptr(GOptionContext) context = NULL;

  /* As terrain_cli_option_context() does for the shared options: every run
   * starts with the footprint options unset. */
  g_clear_pointer (&opt_footprints, g_strfreev);
  g_clear_pointer (&opt_features, g_strfreev);
  context = terrain_cli_option_context (command, parameters, summary, entries);
  if (editing)
    g_option_context_add_main_entries (context, terrain_cli_edit_entries (), GETTEXT_PACKAGE);
  if (footprints)
    g_option_context_add_main_entries (context, footprint_entries, GETTEXT_PACKAGE);
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
  return TRUE;
}

static gboolean
parse_uint (const char *command,
            const char *what,
            const char *text,
            guint64     max,
            guint      *out)
{
  g_autoptr(GError) error = NULL;
  guint64 value;

  if (!g_ascii_string_to_unsigned (text, 10, 0, max, &value, &error))
    {
      g_autofree char *message = g_strdup_printf (_("%s: %s"), what, error->message);

      terrain_cli_usage_error (command, message);
      return FALSE;
    }
  *out = (guint) value;
  return TRUE;
}

static gboolean
parse_int (const char *command,
           const char *what,
           const char *text,
           gint       *out)
{
  g_autoptr(GError) error = NULL;
  gint64 value;

  if (!g_ascii_string_to_signed (text, 10, G_MININT32, G_MAXINT32, &value, &error))
    {
      g_autofree char *message = g_strdup_printf (_("%s: %s"), what, error->message);

      terrain_cli_usage_error (command, message);
      return FALSE;
    }
  *out = (gint) value;
  return TRUE;
}

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
/* Footprints given on the command line                                     */

/* Command-line footprints win over the definitions read with --features. */
typedef struct
{
  GHashTable *table;
  TerrainFeatureCatalog *catalog;
} Footprints;

static void
footprints_clear (Footprints *footprints)
{
  g_clear_pointer (&footprints->table, g_hash_table_unref);
  g_clear_object (&footprints->catalog);
}

static void
footprints_unref (gpointer footprints)
{
  g_atomic_rc_box_release_full (footprints, (GDestroyNotify) footprints_clear);
}

static gpointer
footprints_ref (Footprints *footprints)
{
  return g_atomic_rc_box_acquire (footprints);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Footprints, footprints_unref)

static gboolean
load_feature_definitions (TerrainFeatureCatalog *catalog,
                          const char            *path)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;

  if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY)
    {
      if (!terrain_feature_catalog_load_folder (catalog, file, NULL, NULL, &error))
        {
          terrain_cli_error (NULL, error);
          return FALSE;
        }
    }
  else
    {
      g_autoptr(TerrainHpiArchive) archive = terrain_hpi_archive_new_from_file (file, NULL, NULL,
                                                                                &error);

      if (archive == NULL ||
          !terrain_feature_catalog_load_archive (catalog, archive, "features/", NULL, &error))
        {
          /* The library's messages name the file. */
          terrain_cli_error (NULL, error);
          return FALSE;
        }
    }
  return TRUE;
}

/* Footprints from --footprint NAME=WxZ and --features; NULL after printing
 * the error. */
static Footprints *
load_footprints (const char *command,
                 gboolean   *usage_error)
{
  g_autoptr(Footprints) footprints = g_atomic_rc_box_new0 (Footprints);

  *usage_error = FALSE;
  footprints->table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; opt_footprints != NULL && opt_footprints[i] != NULL; i++)
    {
      const char *spec = opt_footprints[i];
      const char *equals = strrchr (spec, '=');
      guint64 fx = 0, fz = 0;
      char *end = NULL;

      if (equals != NULL && equals != spec)
        {
          fx = g_ascii_strtoull (equals + 1, &end, 10);
          if (end != NULL && (*end == 'x' || *end == 'X'))
            fz = g_ascii_strtoull (end + 1, &end, 10);
        }
      if (equals == NULL || equals == spec || end == NULL || *end != '\0' ||
          fx == 0 || fz == 0 || fx > 256 || fz > 256)
        {
          g_autofree char *message =
            g_strdup_printf (_("--footprint “%s”: expected NAME=WxZ with sides 1..256"), spec);

          terrain_cli_usage_error (command, message);
          *usage_error = TRUE;
          return NULL;
        }
      g_hash_table_insert (footprints->table, g_ascii_strdown (spec, equals - spec),
                           GUINT_TO_POINTER ((guint) (fx << 16 | fz)));
    }

  if (opt_features != NULL)
    {
      footprints->catalog = terrain_feature_catalog_new ();
      for (guint i = 0; opt_features[i] != NULL; i++)
        if (!load_feature_definitions (footprints->catalog, opt_features[i]))
          return NULL;
      terrain_cli_print_catalog_findings (footprints->catalog);
    }

  return g_steal_pointer (&footprints);
}

static gboolean
footprint_lookup (const char *name,
                  guint      *footprint_x,
                  guint      *footprint_z,
                  gpointer    user_data)
{
  Footprints *footprints = user_data;
  g_autofree char *key = g_ascii_strdown (name, -1);
  guint packed = GPOINTER_TO_UINT (g_hash_table_lookup (footprints->table, key));

  if (packed != 0)
    {
      *footprint_x = packed >> 16;
      *footprint_z = packed & 0xFFFF;
      return TRUE;
    }
  if (footprints->catalog != NULL)
    return terrain_feature_catalog_footprint_func (name, footprint_x, footprint_z,
                                                   footprints->catalog);
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Opening, applying, reporting, saving                                     */

static TerrainPalette *
open_palette (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;
  TerrainPalette *palette = terrain_palette_new_from_file (file, NULL, &error);

  if (palette == NULL)
    terrain_cli_error (path, error);
  return palette;
}

static TerrainTntMap *
open_map (const char *path)
{
  g_autoptr(TerrainDocument) document = terrain_cli_open (path);

  if (document == NULL)
    return NULL;
  if (!TERRAIN_IS_TNT_MAP (document))
    {
      g_printerr (_("terrain: %s: a %s file, not a TNT map\n"), path,
                  terrain_format_get_description (terrain_document_get_format (document)));
      return NULL;
    }
  return TERRAIN_TNT_MAP (g_steal_pointer (&document));
}

static void
print_ranges (TerrainTntMap *map,
              GBytes        *before,
              GBytes        *after)
{
  gsize na, nb, total = 0, n_ranges = 0, i = 0;
  const guint8 *a = g_bytes_get_data (before, &na), *b = g_bytes_get_data (after, &nb);
  const guint shown = 12;

  g_assert (na == nb);
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
          g_autofree char *where = terrain_document_describe_offset (TERRAIN_DOCUMENT (map),
                                                                     start);
          g_autofree char *first = g_strdup_printf ("%" G_GSIZE_FORMAT, start);
          g_autofree char *final = g_strdup_printf ("%" G_GSIZE_FORMAT, last);
          g_autofree char *n_changed = g_strdup_printf ("%" G_GSIZE_FORMAT, changed);

          /* Translators: the first and last byte offset of a range, the
           * number of bytes in it that change, then the section it is in. */
          g_print (_("  bytes %s..%s (%s changed): %s\n"), first, final, n_changed, where);
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
    print_ranges (TERRAIN_TNT_MAP (document), before, after);
  else
    print_layout_change (before, TERRAIN_TNT_MAP (document), after);
}

static const TerrainCliEditClass tnt_edit_class = {
  terrain_tnt_map_get_type, N_("a TNT map"), tnt_report, tnt_issues, tnt_print_changes,
};

#define MAP(run) TERRAIN_TNT_MAP (terrain_cli_edit_get_document (run))

static gboolean
expect_args (const char *command,
             int         argc,
             int         min,
             int         max,
             const char *expected)
{
  if (argc - 1 >= min && argc - 1 <= max)
    return TRUE;
  terrain_cli_usage_error (command, expected);
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* features                                                                 */

static int
features_list (int    argc,
               char **argv)
{
  const char *command = "tnt features list";
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON"), NULL },
    { NULL }
  };
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(Footprints) table = NULL;
  gboolean usage_error;
  g_autoptr(GArray) placements = NULL;
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autofree guint16 *occupancy = NULL;
  g_autofree guint *uses = NULL;

  if (!parse_options (command, _("FILE"),
                      _("List the features placed on a map: anchor cell (the top-left cell of "
                        "the footprint), record index, name and footprint, then the feature "
                        "table with how often each record is used."),
                      entries, FALSE, TRUE, &argc, &argv) ||
      !expect_args (command, argc, 1, 1, _("expected FILE")))
    return TERRAIN_EXIT_USAGE;
  if ((table = load_footprints (command, &usage_error)) == NULL)
    return usage_error ? TERRAIN_EXIT_USAGE : TERRAIN_EXIT_ERROR;

  map = open_map (argv[1]);
  if (map == NULL)
    return TERRAIN_EXIT_ERROR;

  placements = terrain_tnt_map_list_placements (map);
  issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  occupancy = terrain_tnt_map_build_occupancy (map, footprint_lookup, table, NULL, issues);
  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "placements");
  json_builder_begin_array (builder);
  for (guint i = 0; i < placements->len; i++)
    {
      const TerrainTntPlacement *p = &g_array_index (placements, TerrainTntPlacement, i);
      const char *name = terrain_tnt_map_get_feature_name (map, p->feature);
      g_autofree char *footprint = NULL;
      guint fx = 1, fz = 1;

      if (name == NULL || !footprint_lookup (name, &fx, &fz, table))
        fx = fz = 1;
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "x");
      json_builder_add_int_value (builder, p->x);
      json_builder_set_member_name (builder, "y");
      json_builder_add_int_value (builder, p->y);
      json_builder_set_member_name (builder, "record");
      json_builder_add_int_value (builder, p->feature);
      json_builder_set_member_name (builder, "name");
      if (name != NULL)
        json_builder_add_string_value (builder, name);
      else
        json_builder_add_null_value (builder);
      json_builder_set_member_name (builder, "footprint");
      footprint = g_strdup_printf ("%ux%u", fx, fz);
      json_builder_add_string_value (builder, footprint);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  uses = g_new0 (guint, MAX (terrain_tnt_map_get_n_features (map), 1));
  for (guint i = 0; i < placements->len; i++)
    {
      guint16 feature = g_array_index (placements, TerrainTntPlacement, i).feature;

      if (feature < terrain_tnt_map_get_n_features (map))
        uses[feature]++;
    }

  json_builder_set_member_name (builder, "records");
  json_builder_begin_array (builder);
  for (guint r = 0; r < terrain_tnt_map_get_n_features (map); r++)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "record");
      json_builder_add_int_value (builder, r);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, terrain_tnt_map_get_feature_name (map, r));
      json_builder_set_member_name (builder, "placed");
      json_builder_add_int_value (builder, uses[r]);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "findings");
  json_builder_begin_array (builder);
  for (guint i = 0; i < issues->len; i++)
    json_builder_add_string_value (builder,
                                   terrain_issue_get_message (g_ptr_array_index (issues, i)));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  {
    g_autoptr(JsonNode) root = json_builder_get_root (builder);

    if (json)
      {
        g_autofree char *text = terrain_cli_json_to_string (root, TRUE);

        g_print ("%s\n", text);
      }
    else
      terrain_cli_print_summary (root);
  }

  return TERRAIN_EXIT_OK;
}

static int
features_add (int    argc,
              char **argv)
{
  const char *command = "tnt features add";
  g_autoptr(TerrainCliEdit) run = NULL;
  g_autoptr(Footprints) table = NULL;
  gboolean usage_error;
  guint x, y;

  if (!parse_options (command, _("FILE NAME X Y"),
                      _("Place a feature with its anchor (the top-left cell of its footprint) at "
                        "attribute cell X, Y. The name is added to the feature table when it is "
                        "not there; covered empty cells get the fringe word 0xFFFE. Overlaps "
                        "are reported."),
                      NULL, TRUE, TRUE, &argc, &argv) ||
      !expect_args (command, argc, 4, 4, _("expected FILE NAME X Y")) ||
      !parse_uint (command, "X", argv[3], G_MAXUINT32, &x) ||
      !parse_uint (command, "Y", argv[4], G_MAXUINT32, &y))
    return TERRAIN_EXIT_USAGE;
  if ((table = load_footprints (command, &usage_error)) == NULL)
    return usage_error ? TERRAIN_EXIT_USAGE : TERRAIN_EXIT_ERROR;

  if ((run = terrain_cli_edit_open (&tnt_edit_class, command, argv[1])) == NULL ||
      !terrain_cli_edit_execute (run,
                                 terrain_tnt_edit_new_place_feature (MAP (run), argv[2], x, y,
                                                                     footprint_lookup,
                                                                     footprints_ref (table),
                                                                     footprints_unref)))
    return TERRAIN_EXIT_ERROR;
  return terrain_cli_edit_finish (run);
}

static int
features_move (int    argc,
               char **argv)
{
  const char *command = "tnt features move";
  g_autoptr(TerrainCliEdit) run = NULL;
  g_autoptr(Footprints) table = NULL;
  gboolean usage_error;
  guint x, y, nx, ny;

  if (!parse_options (command, _("FILE X Y NEW_X NEW_Y"),
                      _("Move the feature anchored at cell X, Y to NEW_X, NEW_Y, with its "
                        "fringe. The feature table does not change."),
                      NULL, TRUE, TRUE, &argc, &argv) ||
      !expect_args (command, argc, 5, 5, _("expected FILE X Y NEW_X NEW_Y")) ||
      !parse_uint (command, "X", argv[2], G_MAXUINT32, &x) ||
      !parse_uint (command, "Y", argv[3], G_MAXUINT32, &y) ||
      !parse_uint (command, "NEW_X", argv[4], G_MAXUINT32, &nx) ||
      !parse_uint (command, "NEW_Y", argv[5], G_MAXUINT32, &ny))
    return TERRAIN_EXIT_USAGE;
  if ((table = load_footprints (command, &usage_error)) == NULL)
    return usage_error ? TERRAIN_EXIT_USAGE : TERRAIN_EXIT_ERROR;

  if ((run = terrain_cli_edit_open (&tnt_edit_class, command, argv[1])) == NULL ||
      !terrain_cli_edit_execute (run,
                                 terrain_tnt_edit_new_move_feature (MAP (run), x, y, nx, ny,
                                                                    footprint_lookup,
                                                                    footprints_ref (table),
                                                                    footprints_unref)))
    return TERRAIN_EXIT_ERROR;
  return terrain_cli_edit_finish (run);
}

static int
features_remove (int    argc,
                 char **argv)
{
  const char *command = "tnt features remove";
  g_autoptr(TerrainCliEdit) run = NULL;
  g_autoptr(Footprints) table = NULL;
  gboolean usage_error;
  guint x, y;

  if (!parse_options (command, _("FILE X Y"),
                      _("Remove the feature anchored at cell X, Y and the fringe only it "
                        "covered. Its record stays in the feature table; see “cleanup”."),
                      NULL, TRUE, TRUE, &argc, &argv) ||
      !expect_args (command, argc, 3, 3, _("expected FILE X Y")) ||
      !parse_uint (command, "X", argv[2], G_MAXUINT32, &x) ||
      !parse_uint (command, "Y", argv[3], G_MAXUINT32, &y))
    return TERRAIN_EXIT_USAGE;
  if ((table = load_footprints (command, &usage_error)) == NULL)
    return usage_error ? TERRAIN_EXIT_USAGE : TERRAIN_EXIT_ERROR;

  if ((run = terrain_cli_edit_open (&tnt_edit_class, command, argv[1])) == NULL ||
      !terrain_cli_edit_execute (run,
                                 terrain_tnt_edit_new_remove_feature (MAP (run), x, y,
                                                                      footprint_lookup,
                                                                      footprints_ref (table),
                                                                      footprints_unref)))
    return TERRAIN_EXIT_ERROR;
  return terrain_cli_edit_finish (run);
}

static int
features_cleanup (int    argc,
                  char **argv)
{
  const char *command = "tnt features cleanup";
  g_autoptr(TerrainCliEdit) run = NULL;

  if (!parse_options (command, _("FILE"),
                      _("Drop the feature records no cell uses and renumber the cells. Nothing "
                        "else removes records, so that an edit never renumbers the table."),
                      NULL, TRUE, FALSE, &argc, &argv) ||
      !expect_args (command, argc, 1, 1, _("expected FILE")))
    return TERRAIN_EXIT_USAGE;

  if ((run = terrain_cli_edit_open (&tnt_edit_class, command, argv[1])) == NULL ||
      !terrain_cli_edit_execute (run, terrain_tnt_edit_new_cleanup_features (MAP (run))))
    return TERRAIN_EXIT_ERROR;
  return terrain_cli_edit_finish (run);
}

static int
features_overlay (int    argc,
                  char **argv)
{
  const char *command = "tnt features overlay";
  g_autofree char *palette_path = NULL;
  int cell_pixels = 4;
  const GOptionEntry entries[] = {
    { "palette", 'p', 0, G_OPTION_ARG_FILENAME, &palette_path,
      N_("Draw the tiles through this palette (otherwise the heights in grey)"), N_("FILE") },
    { "cell-pixels", 0, 0, G_OPTION_ARG_INT, &cell_pixels,
      N_("Pixels per attribute cell, 1..16 (16 is full size; default 4)"), N_("N") },
    { NULL }
  };
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(Footprints) table = NULL;
  gboolean usage_error;
  g_autoptr(GFile) out = NULL;
  g_autoptr(GError) error = NULL;

  if (!parse_options (command, _("FILE OUT.png"),
                      _("Render the map with every feature's footprint tinted (anchors "
                        "strongly, fringe lightly) and void cells in dark red."),
                      entries, FALSE, TRUE, &argc, &argv) ||
      !expect_args (command, argc, 2, 2, _("expected FILE and OUT.png")))
    return TERRAIN_EXIT_USAGE;
  if (cell_pixels < 1 || cell_pixels > 16)
    {
      terrain_cli_usage_error (command, _("--cell-pixels must be 1..16"));
      return TERRAIN_EXIT_USAGE;
    }
  if ((table = load_footprints (command, &usage_error)) == NULL)
    return usage_error ? TERRAIN_EXIT_USAGE : TERRAIN_EXIT_ERROR;
  if (palette_path != NULL && (palette = open_palette (palette_path)) == NULL)
    return TERRAIN_EXIT_ERROR;
  if ((map = open_map (argv[1])) == NULL)
    return TERRAIN_EXIT_ERROR;

  image = terrain_tnt_map_render_features (map, palette, footprint_lookup, table,
                                           (guint) cell_pixels, &error);
  out = g_file_new_for_commandline_arg (argv[2]);
  if (image == NULL || !terrain_image_save_png (image, out, NULL, &error))
    {
      terrain_cli_error (image == NULL ? argv[1] : argv[2], error);
      return TERRAIN_EXIT_ERROR;
    }
  return TERRAIN_EXIT_OK;
}

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

static int
heights_brush (int    argc,
               char **argv)
{
  const char *command = "tnt heights brush";
  g_autofree char *mode = NULL;
  g_autofree char *falloff = NULL;
  g_autofree char *script = NULL;
  g_auto(GStrv) positions = NULL;
  double radius = 2, strength = 8;
  int level = 0;
  const GOptionEntry entries[] = {
    { "mode", 'm', 0, G_OPTION_ARG_STRING, &mode,
      N_("raise, lower, smooth, flatten or set (default raise)"), N_("MODE") },
    { "radius", 'r', 0, G_OPTION_ARG_DOUBLE, &radius,
      N_("Radius in attribute cells (default 2)"), N_("R") },
    { "strength", 's', 0, G_OPTION_ARG_DOUBLE, &strength,
      N_("Height units for raise/lower, 0..1 for smooth/flatten (default 8)"), N_("S") },
    { "falloff", 'f', 0, G_OPTION_ARG_STRING, &falloff,
      N_("constant, linear or smooth (default smooth)"), N_("F") },
    { "level", 'l', 0, G_OPTION_ARG_INT, &level,
      N_("Target height of flatten and set, 0..255"), N_("L") },
    { "at", 'a', 0, G_OPTION_ARG_STRING_ARRAY, &positions,
      N_("A dab at cell X,Y; repeat for a stroke"), N_("X,Y") },
    { "script", 0, 0, G_OPTION_ARG_FILENAME, &script,
      N_("Read dabs from FILE (- for standard input), one per line: MODE X Y "
         "[radius=R] [strength=S] [falloff=F] [level=L]; # starts a comment"), N_("FILE") },
    { NULL }
  };
  g_autoptr(TerrainCliEdit) run = NULL;
  g_autoptr(GArray) dabs = g_array_new (FALSE, FALSE, sizeof (Dab));
  TerrainTntBrush defaults = { TERRAIN_TNT_BRUSH_RAISE, 2, 8, TERRAIN_TNT_FALLOFF_SMOOTH, 0 };
  g_autoptr(GError) error = NULL;
  gint value;
  gboolean ok = TRUE;

  if (!parse_options (command, _("FILE"),
                      _("Paint heights with a brush over the attribute grid (one height per "
                        "16x16-pixel cell). Give dabs with --at or --script; all dabs are one "
                        "edit. Only the height bytes of the cells the brush changes are "
                        "written."),
                      entries, TRUE, FALSE, &argc, &argv) ||
      !expect_args (command, argc, 1, 1, _("expected FILE")))
    return TERRAIN_EXIT_USAGE;

  if (mode != NULL)
    {
      if (!parse_enum (command, TERRAIN_TYPE_TNT_BRUSH_MODE, _("mode"), mode, &value))
        return TERRAIN_EXIT_USAGE;
      defaults.mode = value;
    }
  if (falloff != NULL)
    {
      if (!parse_enum (command, TERRAIN_TYPE_TNT_FALLOFF, _("falloff"), falloff, &value))
        return TERRAIN_EXIT_USAGE;
      defaults.falloff = value;
    }
  if (level < 0 || level > 255)
    {
      terrain_cli_usage_error (command, _("--level must be 0..255"));
      return TERRAIN_EXIT_USAGE;
    }
  defaults.radius = radius;
  defaults.strength = strength;
  defaults.level = (guint8) level;
  if (!terrain_tnt_brush_check (&defaults, &error))
    {
      terrain_cli_usage_error (command, error->message);
      return TERRAIN_EXIT_USAGE;
    }

  for (guint i = 0; positions != NULL && positions[i] != NULL; i++)
    {
      g_auto(GStrv) xy = g_strsplit (positions[i], ",", -1);
      Dab dab = { defaults, 0, 0 };

      if (g_strv_length (xy) != 2 || !parse_double (xy[0], &dab.x) ||
          !parse_double (xy[1], &dab.y))
        {
          g_autofree char *message = g_strdup_printf (_("--at “%s”: expected X,Y"),
                                                      positions[i]);

          terrain_cli_usage_error (command, message);
          return TERRAIN_EXIT_USAGE;
        }
      g_array_append_val (dabs, dab);
    }
  if (script != NULL && !read_script (script, &defaults, dabs))
    return TERRAIN_EXIT_USAGE;
  if (dabs->len == 0)
    {
      terrain_cli_usage_error (command, _("no dabs: give --at X,Y or --script FILE"));
      return TERRAIN_EXIT_USAGE;
    }

  if ((run = terrain_cli_edit_open (&tnt_edit_class, command, argv[1])) == NULL)
    return TERRAIN_EXIT_ERROR;
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

          terrain_cli_usage_error (command, message);
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
  return terrain_cli_edit_finish (run);
}

/* ------------------------------------------------------------------------ */
/* void, paint, resize                                                      */

static int
command_void (int    argc,
              char **argv)
{
  const char *command = "tnt void";
  gboolean unmark = FALSE;
  const GOptionEntry entries[] = {
    { "unmark", 'u', 0, G_OPTION_ARG_NONE, &unmark,
      N_("Unmark void cells (back to empty) instead of marking them"), NULL },
    { NULL }
  };
  g_autoptr(TerrainCliEdit) run = NULL;
  guint x, y, w = 1, h = 1;

  if (!parse_options (command, _("FILE X Y [WIDTH HEIGHT]"),
                      _("Mark a rectangle of attribute cells void (feature word 0xFFFC: blocked "
                        "and not drawn), or unmark it. Cells anchoring a feature are left "
                        "alone."),
                      entries, TRUE, FALSE, &argc, &argv) ||
      !expect_args (command, argc, 3, 5, _("expected FILE X Y [WIDTH HEIGHT]")) ||
      argc == 5 ||
      !parse_uint (command, "X", argv[2], G_MAXUINT32, &x) ||
      !parse_uint (command, "Y", argv[3], G_MAXUINT32, &y) ||
      (argc == 6 && (!parse_uint (command, "WIDTH", argv[4], G_MAXUINT32, &w) ||
                     !parse_uint (command, "HEIGHT", argv[5], G_MAXUINT32, &h))))
    {
      if (argc == 5)
        terrain_cli_usage_error (command, _("give both WIDTH and HEIGHT"));
      return TERRAIN_EXIT_USAGE;
    }

  if ((run = terrain_cli_edit_open (&tnt_edit_class, command, argv[1])) == NULL ||
      !terrain_cli_edit_execute (run, terrain_tnt_edit_new_void (MAP (run), x, y, w, h, !unmark)))
    return TERRAIN_EXIT_ERROR;
  return terrain_cli_edit_finish (run);
}

static int
command_paint (int    argc,
               char **argv)
{
  const char *command = "tnt paint";
  g_autoptr(TerrainCliEdit) run = NULL;
  guint column, row, columns = 1, rows = 1, tile;

  if (!parse_options (command, _("FILE COLUMN ROW TILE [COLUMNS ROWS]"),
                      _("Draw tile TILE on a rectangle of 32x32-pixel positions."),
                      NULL, TRUE, FALSE, &argc, &argv) ||
      !expect_args (command, argc, 4, 6, _("expected FILE COLUMN ROW TILE [COLUMNS ROWS]")) ||
      argc == 6 ||
      !parse_uint (command, "COLUMN", argv[2], G_MAXUINT32, &column) ||
      !parse_uint (command, "ROW", argv[3], G_MAXUINT32, &row) ||
      !parse_uint (command, "TILE", argv[4], G_MAXUINT16, &tile) ||
      (argc == 7 && (!parse_uint (command, "COLUMNS", argv[5], G_MAXUINT32, &columns) ||
                     !parse_uint (command, "ROWS", argv[6], G_MAXUINT32, &rows))))
    {
      if (argc == 6)
        terrain_cli_usage_error (command, _("give both COLUMNS and ROWS"));
      return TERRAIN_EXIT_USAGE;
    }

  if ((run = terrain_cli_edit_open (&tnt_edit_class, command, argv[1])) == NULL ||
      !terrain_cli_edit_execute (run, terrain_tnt_edit_new_paint_tiles (MAP (run), column, row,
                                                                        columns, rows,
                                                                        (guint16) tile)))
    return TERRAIN_EXIT_ERROR;
  return terrain_cli_edit_finish (run);
}

static int
command_resize (int    argc,
                char **argv)
{
  const char *command = "tnt resize";
  int left = 0, top = 0, right = 0, bottom = 0, fill_height = 0, fill_tile = 0;
  g_autofree char *palette_path = NULL;
  const GOptionEntry entries[] = {
    { "left", 0, 0, G_OPTION_ARG_INT, &left,
      N_("Cells to add on the west side (negative: remove); even"), N_("N") },
    { "top", 0, 0, G_OPTION_ARG_INT, &top,
      N_("Cells to add on the north side (negative: remove); even"), N_("N") },
    { "right", 0, 0, G_OPTION_ARG_INT, &right,
      N_("Cells to add on the east side (negative: remove); even"), N_("N") },
    { "bottom", 0, 0, G_OPTION_ARG_INT, &bottom,
      N_("Cells to add on the south side (negative: remove); even"), N_("N") },
    { "fill-height", 0, 0, G_OPTION_ARG_INT, &fill_height,
      N_("Height of added cells (default 0)"), N_("H") },
    { "fill-tile", 0, 0, G_OPTION_ARG_INT, &fill_tile,
      N_("Tile drawn on added positions (default 0)"), N_("T") },
    { "palette", 'p', 0, G_OPTION_ARG_FILENAME, &palette_path,
      N_("Regenerate the minimap for the new shape through this palette"), N_("FILE") },
    { NULL }
  };
  g_autoptr(TerrainCliEdit) run = NULL;
  g_autoptr(TerrainPalette) palette = NULL;

  if (!parse_options (command, _("FILE"),
                      _("Add or remove attribute cells on any side of a map (by twos, so that "
                        "tiles stay aligned). Kept cells, tiles and features keep their "
                        "contents."),
                      entries, TRUE, FALSE, &argc, &argv) ||
      !expect_args (command, argc, 1, 1, _("expected FILE")))
    return TERRAIN_EXIT_USAGE;
  if (fill_height < 0 || fill_height > 255 || fill_tile < 0 || fill_tile > G_MAXUINT16)
    {
      terrain_cli_usage_error (command, _("--fill-height must be 0..255 and --fill-tile "
                                          "0..65535"));
      return TERRAIN_EXIT_USAGE;
    }
  if (palette_path != NULL && (palette = open_palette (palette_path)) == NULL)
    return TERRAIN_EXIT_ERROR;

  if ((run = terrain_cli_edit_open (&tnt_edit_class, command, argv[1])) == NULL)
    return TERRAIN_EXIT_ERROR;
  terrain_command_stack_begin_user_action (terrain_cli_edit_get_stack (run), _("Resize map"));
  if (!terrain_cli_edit_execute (run, terrain_tnt_edit_new_resize (MAP (run), left, top, right,
                                                                   bottom, (guint8) fill_height,
                                                                   (guint16) fill_tile)) ||
      (palette != NULL &&
       !terrain_cli_edit_execute (run, terrain_tnt_edit_new_regenerate_minimap (MAP (run),
                                                                                palette))))
    {
      terrain_command_stack_end_user_action (terrain_cli_edit_get_stack (run));
      return TERRAIN_EXIT_ERROR;
    }
  terrain_command_stack_end_user_action (terrain_cli_edit_get_stack (run));
  if (palette == NULL)
    g_printerr (_("terrain: %s: the minimap still shows the old shape; give --palette to "
                  "regenerate it\n"), argv[1]);
  return terrain_cli_edit_finish (run);
}

/* ------------------------------------------------------------------------ */
/* Images                                                                   */

static TerrainImage *
open_png (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  TerrainImage *image;

  bytes = terrain_file_load_bytes (file, NULL, &error);
  image = bytes != NULL ? terrain_image_load_png_bytes (bytes, &error) : NULL;
  if (image == NULL)
    terrain_cli_error (path, error);
  return image;
}

static int
import_image (int    argc,
              char **argv)
{
  const char *command = "tnt import-image";
  g_autofree char *palette_path = NULL;
  g_autofree char *dither = NULL;
  gboolean keep_minimap = FALSE, keep_tiles = FALSE;
  const GOptionEntry entries[] = {
    { "palette", 'p', 0, G_OPTION_ARG_FILENAME, &palette_path,
      N_("The palette the tiles index (PALETTE.PAL); required"), N_("FILE") },
    { "dither", 0, 0, G_OPTION_ARG_STRING, &dither,
      N_("none, ordered or floyd-steinberg (default none)"), N_("MODE") },
    { "keep-tiles", 0, 0, G_OPTION_ARG_NONE, &keep_tiles,
      N_("Keep the map's tile set and the entries of unchanged positions; append only new "
         "tiles (for a touched-up export: unchanged areas stay byte for byte)"), NULL },
    { "keep-minimap", 0, 0, G_OPTION_ARG_NONE, &keep_minimap,
      N_("Do not regenerate the minimap from the new tiles"), NULL },
    { NULL }
  };
  g_autoptr(TerrainCliEdit) run = NULL;
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GError) error = NULL;
  TerrainCommand *edit;
  gint value = TERRAIN_DITHER_NONE;

  if (!parse_options (command, _("FILE IMAGE.png"),
                      _("Make the map's tile set from a picture of the map's exact pixel size "
                        "(indexed or RGB/RGBA PNG): quantised to the palette, split into 32x32 "
                        "tiles, identical tiles kept once. The minimap is regenerated too."),
                      entries, TRUE, FALSE, &argc, &argv) ||
      !expect_args (command, argc, 2, 2, _("expected FILE and IMAGE.png")))
    return TERRAIN_EXIT_USAGE;
  if (palette_path == NULL)
    {
      terrain_cli_usage_error (command, _("--palette is required"));
      return TERRAIN_EXIT_USAGE;
    }
  if (dither != NULL && !parse_enum (command, TERRAIN_TYPE_DITHER, _("dither mode"), dither,
                                     &value))
    return TERRAIN_EXIT_USAGE;
  if ((palette = open_palette (palette_path)) == NULL || (image = open_png (argv[2])) == NULL ||
      (run = terrain_cli_edit_open (&tnt_edit_class, command, argv[1])) == NULL)
    return TERRAIN_EXIT_ERROR;

  edit = terrain_tnt_edit_new_import_image (MAP (run), image, palette, value,
                                            keep_tiles ? TERRAIN_TNT_IMPORT_KEEP_TILES
                                            : TERRAIN_TNT_IMPORT_NONE,
                                            &error);
  if (edit == NULL)
    {
      terrain_cli_error (argv[2], error);
      return TERRAIN_EXIT_ERROR;
    }
  terrain_command_stack_begin_user_action (terrain_cli_edit_get_stack (run),
                                           _("Import tile image"));
  if (!terrain_cli_edit_execute (run, edit) ||
      (!keep_minimap &&
       !terrain_cli_edit_execute (run, terrain_tnt_edit_new_regenerate_minimap (MAP (run),
                                                                                palette))))
    {
      terrain_command_stack_end_user_action (terrain_cli_edit_get_stack (run));
      return TERRAIN_EXIT_ERROR;
    }
  terrain_command_stack_end_user_action (terrain_cli_edit_get_stack (run));
  return terrain_cli_edit_finish (run);
}

static int
import_heightmap (int    argc,
                  char **argv)
{
  const char *command = "tnt import-heightmap";
  g_autoptr(TerrainCliEdit) run = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GError) error = NULL;
  TerrainCommand *edit;

  if (!parse_options (command, _("FILE HEIGHTS.png"),
                      _("Set every cell's height from a greyscale PNG of one pixel per "
                        "attribute cell (1/16 of the map's pixel size). 16-bit values are "
                        "divided by 257, as export-heightmap multiplied them; 8-bit values are "
                        "heights."),
                      NULL, TRUE, FALSE, &argc, &argv) ||
      !expect_args (command, argc, 2, 2, _("expected FILE and HEIGHTS.png")))
    return TERRAIN_EXIT_USAGE;
  if ((image = open_png (argv[2])) == NULL ||
      (run = terrain_cli_edit_open (&tnt_edit_class, command, argv[1])) == NULL)
    return TERRAIN_EXIT_ERROR;

  edit = terrain_tnt_edit_new_import_heightmap (MAP (run), image, &error);
  if (edit == NULL)
    {
      terrain_cli_error (argv[2], error);
      return TERRAIN_EXIT_ERROR;
    }
  if (!terrain_cli_edit_execute (run, edit))
    return TERRAIN_EXIT_ERROR;
  return terrain_cli_edit_finish (run);
}

static int
command_minimap (int    argc,
                 char **argv)
{
  const char *command = "tnt minimap";
  g_autofree char *palette_path = NULL;
  g_autofree char *export_path = NULL;
  gboolean regenerate = FALSE, uncropped = FALSE;
  const GOptionEntry entries[] = {
    { "regenerate", 0, 0, G_OPTION_ARG_NONE, &regenerate,
      N_("Regenerate the embedded minimap from the tiles (needs --palette)"), NULL },
    { "palette", 'p', 0, G_OPTION_ARG_FILENAME, &palette_path,
      N_("The palette the tiles and the minimap index (PALETTE.PAL)"), N_("FILE") },
    { "export", 0, 0, G_OPTION_ARG_FILENAME, &export_path,
      N_("Write the minimap as PNG (after regenerating, when asked; needs --palette)"),
      N_("OUT.png") },
    { "uncropped", 0, 0, G_OPTION_ARG_NONE, &uncropped,
      N_("Export the whole stored bitmap, with its 0x64 fill"), NULL },
    { NULL }
  };
  g_autoptr(TerrainCliEdit) run = NULL;
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(GError) error = NULL;
  int status = TERRAIN_EXIT_OK;

  if (!parse_options (command, _("FILE"),
                      _("Regenerate the minimap the retail way (play area Width*16-32 by "
                        "Height*16-128, long side fitted, average colour per pixel quantised "
                        "to the palette, fill 0x64, stored size kept), and/or export it."),
                      entries, TRUE, FALSE, &argc, &argv) ||
      !expect_args (command, argc, 1, 1, _("expected FILE")))
    return TERRAIN_EXIT_USAGE;
  if (!regenerate && export_path == NULL)
    {
      terrain_cli_usage_error (command, _("give --regenerate, --export OUT.png or both"));
      return TERRAIN_EXIT_USAGE;
    }
  if (palette_path == NULL)
    {
      terrain_cli_usage_error (command, _("--palette is required"));
      return TERRAIN_EXIT_USAGE;
    }
  if ((palette = open_palette (palette_path)) == NULL ||
      (run = terrain_cli_edit_open (&tnt_edit_class, command, argv[1])) == NULL)
    return TERRAIN_EXIT_ERROR;

  if (regenerate)
    {
      if (!terrain_cli_edit_execute (run, terrain_tnt_edit_new_regenerate_minimap (MAP (run),
                                                                                   palette)))
        return TERRAIN_EXIT_ERROR;
      status = terrain_cli_edit_finish (run);
      if (status != TERRAIN_EXIT_OK)
        return status;
    }

  if (export_path != NULL)
    {
      g_autoptr(TerrainImage) image = terrain_tnt_map_render_minimap (MAP (run), palette,
                                                                      !uncropped, &error);
      g_autoptr(GFile) out = g_file_new_for_commandline_arg (export_path);

      if (image == NULL || !terrain_image_save_png (image, out, NULL, &error))
        {
          terrain_cli_error (export_path, error);
          return TERRAIN_EXIT_ERROR;
        }
    }

  return status;
}

static int
command_stamp (int    argc,
               char **argv)
{
  const char *command = "tnt stamp";
  g_autoptr(TerrainCliEdit) run = NULL;
  g_autoptr(TerrainDocument) section = NULL;
  gint column, row;

  if (!parse_options (command, _("FILE SECTION.sct COLUMN ROW"),
                      _("Stamp an SCT section into the map with its top-left tile at tile "
                        "COLUMN, ROW: its tiles join the map's tile set (identical tiles are "
                        "reused) and its heights are copied. The part off the map is left out."),
                      NULL, TRUE, FALSE, &argc, &argv) ||
      !expect_args (command, argc, 4, 4, _("expected FILE SECTION.sct COLUMN ROW")) ||
      !parse_int (command, "COLUMN", argv[3], &column) ||
      !parse_int (command, "ROW", argv[4], &row))
    return TERRAIN_EXIT_USAGE;

  section = terrain_cli_open (argv[2]);
  if (section == NULL)
    return TERRAIN_EXIT_ERROR;
  if (!TERRAIN_IS_SCT_SECTION (section))
    {
      g_printerr (_("terrain: %s: a %s file, not an SCT section\n"), argv[2],
                  terrain_format_get_description (terrain_document_get_format (section)));
      return TERRAIN_EXIT_ERROR;
    }

  if ((run = terrain_cli_edit_open (&tnt_edit_class, command, argv[1])) == NULL ||
      !terrain_cli_edit_execute (run,
                                 terrain_tnt_edit_new_stamp_section (MAP (run),
                                                                     TERRAIN_SCT_SECTION (section),
                                                                     column, row)))
    return TERRAIN_EXIT_ERROR;
  return terrain_cli_edit_finish (run);
}

/* ------------------------------------------------------------------------ */
/* Dispatch                                                                 */

static const TerrainCliCommand feature_commands[] = {
  { "list", N_("List placed features and the feature table"), features_list },
  { "add", N_("Place a feature at a cell"), features_add },
  { "move", N_("Move a placed feature"), features_move },
  { "remove", N_("Remove a placed feature"), features_remove },
  { "cleanup", N_("Drop unused feature records"), features_cleanup },
  { "overlay", N_("Render the map with feature footprints as PNG"), features_overlay },
};

static const TerrainCliCommand height_commands[] = {
  { "brush", N_("Raise, lower, smooth, flatten or set heights with a brush"), heights_brush },
};

static const TerrainCliGroup features_group = {
  NULL, N_("FILE…"), NULL, terrain_cli_edit_footer,
  feature_commands, G_N_ELEMENTS (feature_commands), FALSE
};

static const TerrainCliGroup heights_group = {
  NULL, N_("FILE…"), NULL, terrain_cli_edit_footer,
  height_commands, G_N_ELEMENTS (height_commands), FALSE
};

static const TerrainCliCommand tnt_commands[] = {
  { "features", N_("Place, move, remove, list and clean up features"), NULL, &features_group },
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
