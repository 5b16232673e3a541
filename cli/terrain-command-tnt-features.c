/* terrain-command-tnt-features.c: `terrain tnt features`, placing features
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Footprints come from --footprint NAME=WxZ and the feature definitions
 * read with --features; the edits run through the edit runner
 * (terrain-cli.c) as every `terrain tnt` edit does.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "terrain-cli.h"

#define MAP(run) TERRAIN_TNT_MAP (terrain_cli_edit_get_document (run))

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

/* --features and --footprint, for the subcommands that place features:
 * per run, like a subcommand's own options. */
typedef struct
{
  char **footprints;
  char **features;
  GOptionEntry entries[3];
  Footprints *table;       /* what load_footprints() made of them */
} FootprintOptions;

static const GOptionEntry *
footprint_entries (FootprintOptions *options)
{
  const GOptionEntry entries[] = {
    { "features", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &options->features,
      N_("Read feature definitions (footprintx/footprintz) from the .tdf files of a folder, or "
         "from features/ in an HPI archive; may be repeated"), N_("DIR|ARCHIVE") },
    { "footprint", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options->footprints,
      N_("Footprint of a feature in attribute cells (TDF footprintx/footprintz); may be "
         "repeated. Features without one count as 1x1"), N_("NAME=WxZ") },
    { NULL }
  };

  G_STATIC_ASSERT (sizeof entries == sizeof options->entries);
  memcpy (options->entries, entries, sizeof entries);
  return options->entries;
}

static void
footprint_options_clear (FootprintOptions *options)
{
  g_clear_pointer (&options->footprints, g_strfreev);
  g_clear_pointer (&options->features, g_strfreev);
  g_clear_pointer (&options->table, footprints_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (FootprintOptions, footprint_options_clear)

/* Footprints from --footprint NAME=WxZ and --features, into
 * @options->table; the exit status, after printing the error. */
static int
load_footprints (const char       *command,
                 FootprintOptions *options)
{
  g_autoptr(Footprints) footprints = g_atomic_rc_box_new0 (Footprints);
  char **opt_footprints = options->footprints, **opt_features = options->features;

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
          return TERRAIN_EXIT_USAGE;
        }
      g_hash_table_insert (footprints->table, g_ascii_strdown (spec, equals - spec),
                           GUINT_TO_POINTER ((guint) (fx << 16 | fz)));
    }

  if (opt_features != NULL)
    {
      footprints->catalog = terrain_feature_catalog_new ();
      for (guint i = 0; opt_features[i] != NULL; i++)
        if (!load_feature_definitions (footprints->catalog, opt_features[i]))
          return TERRAIN_EXIT_ERROR;
      terrain_cli_print_catalog_findings (footprints->catalog);
    }

  options->table = g_steal_pointer (&footprints);
  return TERRAIN_EXIT_OK;
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
/* features                                                                 */

static TerrainTntMap *
open_map (const char *path)
{
  return (TerrainTntMap *) terrain_cli_open_as (path, terrain_tnt_map_get_type,
                                                terrain_cli_tnt_edit_class.document_noun);
}

static int
features_list (int    argc,
               char **argv)
{
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON"), NULL },
    { NULL }
  };
  g_auto(FootprintOptions) options = { NULL };
  const TerrainCliUsage usage = {
    "tnt features list", N_("FILE"),
    N_("List the features placed on a map: anchor cell (the top-left cell of the footprint), "
       "record index, name and footprint, then the feature table with how often each record "
       "is used."),
    entries, footprint_entries (&options), 1, 1, N_("expected FILE")
  };
  g_autoptr(TerrainTntMap) map = NULL;
  Footprints *table;
  int status;
  g_autoptr(GArray) placements = NULL;
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autofree guint16 *occupancy = NULL;
  g_autofree guint *uses = NULL;

  if (!terrain_cli_parse_usage (&usage, FALSE, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if ((status = load_footprints (usage.command, &options)) != TERRAIN_EXIT_OK)
    return status;
  table = options.table;

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
prepare_feature_edit (TerrainCliEdit *run)
{
  return load_footprints (terrain_cli_edit_get_command (run), terrain_cli_edit_get_data (run));
}

#define CELL(run, i) terrain_cli_edit_get_value (run, i)
#define TABLE(run) footprints_ref (((FootprintOptions *) terrain_cli_edit_get_data (run))->table)

static TerrainCommand *
build_add (TerrainCliEdit *run)
{
  return terrain_tnt_edit_new_place_feature (MAP (run), terrain_cli_edit_get_argv (run)[2],
                                             CELL (run, 1), CELL (run, 2), footprint_lookup,
                                             TABLE (run), footprints_unref);
}

static TerrainCommand *
build_move (TerrainCliEdit *run)
{
  return terrain_tnt_edit_new_move_feature (MAP (run), CELL (run, 0), CELL (run, 1),
                                            CELL (run, 2), CELL (run, 3), footprint_lookup,
                                            TABLE (run), footprints_unref);
}

static TerrainCommand *
build_remove (TerrainCliEdit *run)
{
  return terrain_tnt_edit_new_remove_feature (MAP (run), CELL (run, 0), CELL (run, 1),
                                              footprint_lookup, TABLE (run), footprints_unref);
}

static int
features_add (int    argc,
              char **argv)
{
  static const TerrainCliOperand operands[] = { { NULL }, { "X" }, { "Y" } };
  g_auto(FootprintOptions) options = { NULL };
  const TerrainCliEditCommand command = {
    { "tnt features add", N_("FILE NAME X Y"),
      N_("Place a feature with its anchor (the top-left cell of its footprint) at attribute "
         "cell X, Y. The name is added to the feature table when it is not there; covered "
         "empty cells get the fringe word 0xFFFE. Overlaps are reported."),
      NULL, footprint_entries (&options), 4, 4, N_("expected FILE NAME X Y") },
    operands, G_N_ELEMENTS (operands), NULL, prepare_feature_edit, build_add, NULL
  };

  return terrain_cli_edit_main (&terrain_cli_tnt_edit_class, &command, argc, argv, &options);
}

static int
features_move (int    argc,
               char **argv)
{
  static const TerrainCliOperand operands[] = { { "X" }, { "Y" }, { "NEW_X" }, { "NEW_Y" } };
  g_auto(FootprintOptions) options = { NULL };
  const TerrainCliEditCommand command = {
    { "tnt features move", N_("FILE X Y NEW_X NEW_Y"),
      N_("Move the feature anchored at cell X, Y to NEW_X, NEW_Y, with its fringe. The feature "
         "table does not change."),
      NULL, footprint_entries (&options), 5, 5, N_("expected FILE X Y NEW_X NEW_Y") },
    operands, G_N_ELEMENTS (operands), NULL, prepare_feature_edit, build_move, NULL
  };

  return terrain_cli_edit_main (&terrain_cli_tnt_edit_class, &command, argc, argv, &options);
}

static int
features_remove (int    argc,
                 char **argv)
{
  static const TerrainCliOperand operands[] = { { "X" }, { "Y" } };
  g_auto(FootprintOptions) options = { NULL };
  const TerrainCliEditCommand command = {
    { "tnt features remove", N_("FILE X Y"),
      N_("Remove the feature anchored at cell X, Y and the fringe only it covered. Its record "
         "stays in the feature table; see “cleanup”."),
      NULL, footprint_entries (&options), 3, 3, N_("expected FILE X Y") },
    operands, G_N_ELEMENTS (operands), NULL, prepare_feature_edit, build_remove, NULL
  };

  return terrain_cli_edit_main (&terrain_cli_tnt_edit_class, &command, argc, argv, &options);
}

static TerrainCommand *
build_cleanup (TerrainCliEdit *run)
{
  return terrain_tnt_edit_new_cleanup_features (MAP (run));
}

static int
features_cleanup (int    argc,
                  char **argv)
{
  static const TerrainCliEditCommand command = {
    { "tnt features cleanup", N_("FILE"),
      N_("Drop the feature records no cell uses and renumber the cells. Nothing else removes "
         "records, so that an edit never renumbers the table."),
      NULL, NULL, 1, 1, N_("expected FILE") },
    NULL, 0, NULL, NULL, build_cleanup, NULL
  };

  return terrain_cli_edit_main (&terrain_cli_tnt_edit_class, &command, argc, argv, NULL);
}

static int
features_overlay (int    argc,
                  char **argv)
{
  g_autofree char *palette_path = NULL;
  int cell_pixels = 4;
  const GOptionEntry entries[] = {
    { "palette", 'p', 0, G_OPTION_ARG_FILENAME, &palette_path,
      N_("Draw the tiles through this palette (otherwise the heights in grey)"), N_("FILE") },
    { "cell-pixels", 0, 0, G_OPTION_ARG_INT, &cell_pixels,
      N_("Pixels per attribute cell, 1..16 (16 is full size; default 4)"), N_("N") },
    { NULL }
  };
  g_auto(FootprintOptions) options = { NULL };
  const TerrainCliUsage usage = {
    "tnt features overlay", N_("FILE OUT.png"),
    N_("Render the map with every feature's footprint tinted (anchors strongly, fringe "
       "lightly) and void cells in dark red."),
    entries, footprint_entries (&options), 2, 2, N_("expected FILE and OUT.png")
  };
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GFile) out = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if (!terrain_cli_parse_usage (&usage, FALSE, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (cell_pixels < 1 || cell_pixels > 16)
    {
      terrain_cli_usage_error (usage.command, _("--cell-pixels must be 1..16"));
      return TERRAIN_EXIT_USAGE;
    }
  if ((status = load_footprints (usage.command, &options)) != TERRAIN_EXIT_OK)
    return status;
  if (palette_path != NULL && (palette = terrain_cli_open_palette (palette_path)) == NULL)
    return TERRAIN_EXIT_ERROR;
  if ((map = open_map (argv[1])) == NULL)
    return TERRAIN_EXIT_ERROR;

  image = terrain_tnt_map_render_features (map, palette, footprint_lookup, options.table,
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
/* Dispatch                                                                 */

static const TerrainCliCommand feature_commands[] = {
  { "list", N_("List placed features and the feature table"), features_list },
  { "add", N_("Place a feature at a cell"), features_add },
  { "move", N_("Move a placed feature"), features_move },
  { "remove", N_("Remove a placed feature"), features_remove },
  { "cleanup", N_("Drop unused feature records"), features_cleanup },
  { "overlay", N_("Render the map with feature footprints as PNG"), features_overlay },
};

const TerrainCliGroup terrain_cli_tnt_features_group = {
  NULL, N_("FILE…"), NULL, terrain_cli_edit_footer,
  feature_commands, G_N_ELEMENTS (feature_commands), FALSE
};

