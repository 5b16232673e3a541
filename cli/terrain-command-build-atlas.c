/* terrain-command-build-atlas.c: `terrain build-atlas`, and the heightmap
 * options it shares with `terrain convert-heightmap`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "terrain-cli.h"

/* ------------------------------------------------------------------------
 * Heightmap sources
 */

static struct
{
  gdouble vertical_scale;
  gdouble vertical_offset;
  gdouble spacing;
  char *raw_size;
  gdouble nodata;
  char *fit;
  char *tile_overlap;
  gboolean tile_flip_y;
} heightmap = { 1.0, 0.0, 0.0, NULL, NAN, NULL, NULL, FALSE };

static const GOptionEntry heightmap_entries[] = {
  { "vertical-scale", 0, 0, G_OPTION_ARG_DOUBLE, &heightmap.vertical_scale,
    N_("Multiply grey or raw values (other sources: metres) by S (default 1)"), N_("S") },
  { "vertical-offset", 0, 0, G_OPTION_ARG_DOUBLE, &heightmap.vertical_offset,
    N_("Add O metres after scaling (default 0)"), N_("O") },
  { "spacing", 0, 0, G_OPTION_ARG_DOUBLE, &heightmap.spacing,
    N_("Metres between samples (default: the source's; .ter 8, .tnt 16, SRTM 90/30, else 1)"),
    N_("M") },
  { "raw-size", 0, 0, G_OPTION_ARG_STRING, &heightmap.raw_size,
    N_("Size of a raw16 file (default: a square from its length)"), N_("W[xH]") },
  { "nodata", 0, 0, G_OPTION_ARG_DOUBLE, &heightmap.nodata,
    N_("Source value of missing samples, filled from their neighbours"), N_("V") },
  { "tile-overlap", 0, 0, G_OPTION_ARG_STRING, &heightmap.tile_overlap,
    N_("Samples neighbouring tiles of a tiled HEIGHTMAP share: N, or “auto” (the default: 1 "
       "when they repeat their common edge, else 0)"), N_("N") },
  { "tile-flip-y", 0, 0, G_OPTION_ARG_NONE, &heightmap.tile_flip_y,
    N_("Tile rows of a tiled HEIGHTMAP count from the south (Gaea's Flip Y Axis)"), NULL },
  { "fit", 0, 0, G_OPTION_ARG_STRING, &heightmap.fit,
    N_("Reach a square 2^N+1 grid by “pad” (edge extension, the default) or “resample”"),
    N_("HOW") },
  { NULL }
};

/* Adds the heightmap source options as their own group. */
void
terrain_cli_add_heightmap_options (GOptionContext *context)
{
  GOptionGroup *group = g_option_group_new ("heightmap", _("Heightmap options:"),
                                            _("Show heightmap options"), NULL, NULL);

  g_option_group_add_entries (group, terrain_cli_heightmap_format_entries ());
  g_option_group_add_entries (group, heightmap_entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_context_add_group (context, group);
}

/* How --fit asks a grid to be made chunkable; FALSE for a bad name. */
gboolean
terrain_cli_heightmap_fit (const char            *command,
                           TerrainHeightfieldFit *fit)
{
  if (heightmap.fit == NULL || g_ascii_strcasecmp (heightmap.fit, "pad") == 0)
    *fit = TERRAIN_HEIGHTFIELD_FIT_PAD;
  else if (g_ascii_strcasecmp (heightmap.fit, "resample") == 0)
    *fit = TERRAIN_HEIGHTFIELD_FIT_RESAMPLE;
  else if (g_ascii_strcasecmp (heightmap.fit, "none") == 0)
    *fit = TERRAIN_HEIGHTFIELD_FIT_NONE;
  else
    {
      terrain_cli_usage_error (command, _("--fit takes pad, resample or none"));
      return FALSE;
    }
  return TRUE;
}

/* The --texture-format names (build-atlas, atlas convert-textures): jpeg
 * when @name is NULL; FALSE, after a usage error, for a bad name. */
gboolean
terrain_cli_texture_format (const char                *command,
                            const char                *name,
                            TerrainAtlasTextureFormat *format)
{
  if (name == NULL || g_ascii_strcasecmp (name, "jpeg") == 0 ||
      g_ascii_strcasecmp (name, "jpg") == 0)
    *format = TERRAIN_ATLAS_TEXTURE_JPEG;
  else if (g_ascii_strcasecmp (name, "png") == 0)
    *format = TERRAIN_ATLAS_TEXTURE_PNG;
  else if (g_ascii_strcasecmp (name, "dds") == 0)
    *format = TERRAIN_ATLAS_TEXTURE_DDS;
  else
    {
      terrain_cli_usage_error (command, _("--texture-format takes dds, jpeg or png"));
      return FALSE;
    }
  return TRUE;
}

/* Loads a heightmap with the options given; prints errors. Returns NULL
 * and sets *usage for a bad option. */
TerrainHeightfield *
terrain_cli_load_heightfield (const char *command,
                              const char *path,
                              gboolean   *usage)
{
  g_autoptr(TerrainHeightfieldOptions) options = terrain_heightfield_options_new ();
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;
  TerrainHeightfield *field;

  *usage = FALSE;
  if (!terrain_cli_heightmap_format (command, &options->format))
    {
      *usage = TRUE;
      return NULL;
    }
  if (!isfinite (heightmap.vertical_scale) || !isfinite (heightmap.vertical_offset) ||
      !isfinite (heightmap.spacing) || heightmap.spacing < 0)
    {
      terrain_cli_usage_error (command, _("--vertical-scale, --vertical-offset and --spacing "
                                          "must be finite, --spacing positive"));
      *usage = TRUE;
      return NULL;
    }
  options->vertical_scale = heightmap.vertical_scale;
  options->vertical_offset = heightmap.vertical_offset;
  options->spacing = heightmap.spacing;
  options->nodata = heightmap.nodata;
  if (heightmap.raw_size != NULL)
    {
      char *end = NULL;
      guint64 w = g_ascii_strtoull (heightmap.raw_size, &end, 10), h = 0;

      if (end != NULL && (*end == 'x' || *end == 'X'))
        h = g_ascii_strtoull (end + 1, &end, 10);
      if (end == NULL || *end != '\0' || w == 0 || w > TERRAIN_HEIGHTFIELD_MAX_SIDE ||
          h > TERRAIN_HEIGHTFIELD_MAX_SIDE)
        {
          terrain_cli_usage_error (command, _("--raw-size takes WIDTH or WIDTHxHEIGHT"));
          *usage = TRUE;
          return NULL;
        }
      options->raw_width = (guint) w;
      options->raw_height = (guint) h;
    }

  /* A folder of tiles, or a pattern of their names (World Machine, Gaea). */
  if (g_file_test (path, G_FILE_TEST_IS_DIR) ||
      (!g_file_test (path, G_FILE_TEST_EXISTS) &&
       (strpbrk (path, "*?") != NULL || strstr (path, "%x") != NULL ||
        strstr (path, "%y") != NULL || strstr (path, "%X%") != NULL ||
        strstr (path, "%Y%") != NULL)))
    {
      gint overlap = -1;

      if (heightmap.tile_overlap != NULL && g_ascii_strcasecmp (heightmap.tile_overlap, "auto") != 0)
        {
          char *end = NULL;
          guint64 n = g_ascii_strtoull (heightmap.tile_overlap, &end, 10);

          if (end == heightmap.tile_overlap || *end != '\0' || n > 64)
            {
              terrain_cli_usage_error (command, _("--tile-overlap takes a number of samples "
                                                  "(0 to 64) or auto"));
              *usage = TRUE;
              return NULL;
            }
          overlap = (gint) n;
        }
      field = terrain_heightfield_load_tiles (path, options, overlap, heightmap.tile_flip_y,
                                              NULL, NULL, &error);
    }
  else
    field = terrain_heightfield_load (file, options, NULL, &error);
  if (field == NULL)
    {
      terrain_cli_error (NULL, error);
      return NULL;
    }
  {
    gfloat lo, hi;

    terrain_heightfield_get_range (field, &lo, &hi);
    if (!isfinite (lo) || !isfinite (hi))
      {
        g_autofree char *message =
          g_strdup_printf (_("--vertical-scale=%g and --vertical-offset=%g take %s beyond "
                             "what a 32-bit float holds"), heightmap.vertical_scale,
                           heightmap.vertical_offset, path);
        terrain_cli_usage_error (command, message);
        *usage = TRUE;
        g_object_unref (field);
        return NULL;
      }
  }
  return field;
}

/* The builder's limits (TERRAIN_ATLAS_BUILDER_MAX_COORDINATE), checked here
 * too so that the message names the option that broke them. */
static gboolean
check_build_ranges (TerrainHeightfield *field,
                    gdouble             error_metres)
{
  const gdouble limit = TERRAIN_ATLAS_BUILDER_MAX_COORDINATE;
  guint side = MAX (terrain_heightfield_get_width (field),
                    terrain_heightfield_get_height (field));
  gdouble spacing = terrain_heightfield_get_spacing (field);
  g_autofree char *message = NULL;
  gfloat lo, hi;

  terrain_heightfield_get_range (field, &lo, &hi);
  if (fabs (lo) > limit || fabs (hi) > limit)
    message = g_strdup_printf (_("--vertical-scale=%g and --vertical-offset=%g make heights "
                                 "from %g to %g m; an Atlas holds ±%g m"),
                               heightmap.vertical_scale, heightmap.vertical_offset,
                               (gdouble) lo, (gdouble) hi, limit);
  else if (spacing * 2.0 * side > limit)
    message = g_strdup_printf (_("--spacing=%g over %u samples spans more than the ±%g m an "
                                 "Atlas holds"), spacing, side, limit);
  else if (error_metres * 65536.0 > limit)
    message = g_strdup_printf (_("--error=%g, doubled for each of up to 16 levels, is more "
                                 "than the %g m an Atlas holds"), error_metres, limit);
  if (message == NULL)
    return TRUE;
  terrain_cli_usage_error ("build-atlas", message);
  return FALSE;
}

/* ------------------------------------------------------------------------
 * build-atlas
 */

/* The builder's findings (terrain_atlas_builder_get_issues()): warnings
 * on standard error, remarks on standard output unless @remarks is FALSE. */
static void
print_issues (const char          *output_path,
              TerrainAtlasBuilder *builder,
              gboolean             remarks)
{
  GPtrArray *issues = terrain_atlas_builder_get_issues (builder);

  for (guint i = 0; i < issues->len; i++)
    {
      const TerrainIssue *issue = g_ptr_array_index (issues, i);

      if (terrain_issue_get_severity (issue) >= TERRAIN_SEVERITY_WARNING)
        /* Translators: the output file, then the builder's message. */
        g_printerr (_("%s: warning: %s\n"), output_path, terrain_issue_get_message (issue));
      else if (remarks)
        g_print ("%s: %s\n", output_path, terrain_issue_get_message (issue));
    }
}

/* Texture texels per metre at geometry level @level: the texture tree's
 * level of that number (its finest beyond), whose 2^level tiles a side span
 * the whole (fitted) terrain; 0 without a texture. */
static gdouble
texels_per_metre (const TerrainAtlasBuildStats *stats,
                  guint                         level)
{
  gdouble side_metres = (gdouble) stats->leaf_size * (1u << (stats->tree_depth - 1)) *
                        stats->spacing;
  guint texture_level = MIN (level, stats->texture_depth - 1);

  if (stats->texture_depth == 0 || side_metres <= 0)
    return 0.0;
  return (gdouble) stats->texture_tile_size * (1u << texture_level) / side_metres;
}

/* The L3DT-like report: one line a geometry level. */
static void
print_levels (const TerrainAtlasBuildStats *stats)
{
  /* Translators: the header of the per-level table of build-atlas. */
  g_print (_("level  chunks   triangles  max error (m)  texels/m\n"));
  for (guint i = 0; i < stats->tree_depth && i < G_N_ELEMENTS (stats->levels); i++)
    {
      const TerrainAtlasLevelStats *l = &stats->levels[i];
      g_autofree char *error = l->max_error >= 0 ? g_strdup_printf ("%.4g", l->max_error)
                                                 : g_strdup (_("not measured"));

      g_print ("%5u  %6u  %10" G_GUINT64_FORMAT "  %13s  %8.4g\n", i, l->n_chunks,
               l->n_triangles, error, texels_per_metre (stats, i));
    }
}

static JsonNode *
report_json (const char                   *output_path,
             const TerrainAtlasBuildStats *stats)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "file");
  json_builder_add_string_value (b, output_path);
  json_builder_set_member_name (b, "size");
  json_builder_add_int_value (b, (gint64) stats->file_size);
  json_builder_set_member_name (b, "tree_depth");
  json_builder_add_int_value (b, stats->tree_depth);
  json_builder_set_member_name (b, "leaf_size");
  json_builder_add_int_value (b, stats->leaf_size);
  json_builder_set_member_name (b, "spacing");
  json_builder_add_double_value (b, stats->spacing);
  json_builder_set_member_name (b, "chunks");
  json_builder_add_int_value (b, stats->n_chunks);
  json_builder_set_member_name (b, "vertices");
  json_builder_add_int_value (b, (gint64) stats->n_vertices);
  json_builder_set_member_name (b, "triangles");
  json_builder_add_int_value (b, (gint64) stats->n_triangles);
  json_builder_set_member_name (b, "skirt_triangles");
  json_builder_add_int_value (b, (gint64) stats->n_skirt_triangles);
  json_builder_set_member_name (b, "texture_tiles");
  json_builder_add_int_value (b, stats->n_texture_tiles);
  json_builder_set_member_name (b, "texture_width");
  json_builder_add_int_value (b, stats->texture_width);
  json_builder_set_member_name (b, "texture_height");
  json_builder_add_int_value (b, stats->texture_height);
  json_builder_set_member_name (b, "levels");
  json_builder_begin_array (b);
  for (guint i = 0; i < stats->tree_depth && i < G_N_ELEMENTS (stats->levels); i++)
    {
      const TerrainAtlasLevelStats *l = &stats->levels[i];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "level");
      json_builder_add_int_value (b, i);
      json_builder_set_member_name (b, "chunks");
      json_builder_add_int_value (b, l->n_chunks);
      json_builder_set_member_name (b, "vertices");
      json_builder_add_int_value (b, (gint64) l->n_vertices);
      json_builder_set_member_name (b, "triangles");
      json_builder_add_int_value (b, (gint64) l->n_triangles);
      json_builder_set_member_name (b, "max_error");
      if (l->max_error >= 0)
        json_builder_add_double_value (b, l->max_error);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "texels_per_metre");
      json_builder_add_double_value (b, texels_per_metre (stats, i));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
show_progress (gdouble     fraction,
               const char *stage,
               gpointer    user_data)
{
  terrain_cli_progress_update (user_data, (guint64) (fraction * 1000.0), stage);
}

int
terrain_command_build_atlas (int    argc,
                             char **argv)
{
  g_autofree char *output_path = NULL;
  g_autofree char *texture_path = NULL;
  g_autofree char *tiles_pattern = NULL;
  g_autofree char *tiles_grid = NULL;
  g_autofree char *texture_format = NULL;
  g_autofree char *opacity_path = NULL;
  g_autofree char *lightmap_path = NULL;
  g_auto(GStrv) source_images = NULL;
  gint depth = 0, chunk_size = 0, tile_size = TERRAIN_ATLAS_BUILDER_DEFAULT_TILE_SIZE;
  gint texture_depth = 0, quality = 90, version = TERRAIN_ATLAS_VERSION;
  gint goal_batch_size = TERRAIN_ATLAS_DEFAULT_GOAL_BATCH_SIZE;
  gint collision_depth = TERRAIN_ATLAS_BUILDER_DEFAULT_COLLISION_DEPTH, threads = 0;
  gint virtual_size = TERRAIN_ATLAS_BUILDER_DEFAULT_VIRTUAL_SIZE;
  gdouble error_metres = TERRAIN_ATLAS_BUILDER_DEFAULT_ERROR;
  gboolean bgr = FALSE, blender = FALSE, measure = FALSE, quiet = FALSE, json = FALSE;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output_path,
      N_("The Atlas file to write"), N_("OUT.atlas") },
    { "error", 'e', 0, G_OPTION_ARG_DOUBLE, &error_metres,
      N_("Largest height error of the finest level, in metres (default 2)"), N_("METRES") },
    { "depth", 'd', 0, G_OPTION_ARG_INT, &depth,
      N_("Geometry tree depth, 1 to 15 (default: from the chunk size)"), N_("N") },
    { "chunk-size", 0, 0, G_OPTION_ARG_INT, &chunk_size,
      N_("Leaf chunk side in cells (default 128 above 1024 samples, else 64)"), N_("N") },
    { "texture", 0, 0, G_OPTION_ARG_FILENAME, &texture_path,
      N_("Texture of the whole terrain, PNG or JPEG, north up"), N_("IMG") },
    { "texture-tiles", 0, 0, G_OPTION_ARG_FILENAME, &tiles_pattern,
      N_("Texture as a grid of tiles; {x} and {y} in the path are the tile column and row"),
      N_("PATTERN") },
    { "tiles", 0, 0, G_OPTION_ARG_STRING, &tiles_grid,
      N_("Size of the --texture-tiles grid"), N_("COLUMNSxROWS") },
    { "texture-format", 0, 0, G_OPTION_ARG_STRING, &texture_format,
      N_("Texture tile encoding: jpeg (default), png, or dds (BC1, BC3 with alpha, full mip "
         "chain)"), N_("ENCODING") },
    { "quality", 0, 0, G_OPTION_ARG_INT, &quality,
      N_("JPEG quality, 1 to 100 (default 90)"), N_("Q") },
    { "tile-size", 0, 0, G_OPTION_ARG_INT, &tile_size,
      N_("Texture tile side in pixels, a power of two (default 256)"), N_("N") },
    { "texture-depth", 0, 0, G_OPTION_ARG_INT, &texture_depth,
      N_("Texture tree depth (default: leaves at the picture's resolution)"), N_("N") },
    { "bgr", 0, 0, G_OPTION_ARG_NONE, &bgr,
      N_("Store texture tiles with red and blue swapped (BGR content)"), NULL },
    { "version", 0, 0, G_OPTION_ARG_INT, &version,
      N_("Atlas resource version, 100 to 140 (default 140)"), N_("V") },
    { "goal-batch-size", 0, 0, G_OPTION_ARG_INT, &goal_batch_size,
      N_("mGoalBatchSize of the geometry TOC (default 1500)"), N_("N") },
    { "collision-depth", 0, 0, G_OPTION_ARG_INT, &collision_depth,
      N_("Collision tree depth of leaf chunks, 0 for none (default 4)"), N_("N") },
    { "blender", 0, 0, G_OPTION_ARG_NONE, &blender,
      N_("Blender terrain: opacity map, lightmap and source image names instead of a texture"),
      NULL },
    { "source-image", 0, 0, G_OPTION_ARG_STRING_ARRAY, &source_images,
      N_("Blender source image name (repeat, up to 4)"), N_("NAME") },
    { "opacity", 0, 0, G_OPTION_ARG_FILENAME, &opacity_path,
      N_("Blender opacity map, channel k weighing source image k (default: height bands)"),
      N_("IMG") },
    { "lightmap", 0, 0, G_OPTION_ARG_FILENAME, &lightmap_path,
      N_("Blender lightmap (default: lit from the heights)"), N_("IMG") },
    { "virtual-size", 0, 0, G_OPTION_ARG_INT, &virtual_size,
      N_("Blender virtualTexSize, a power of two (default 32768)"), N_("N") },
    { "threads", 'j', 0, G_OPTION_ARG_INT, &threads,
      N_("Worker threads (default: one per processor)"), N_("N") },
    { "measure-error", 0, 0, G_OPTION_ARG_NONE, &measure,
      N_("Measure the finest level's largest error against every sample"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet,
      N_("Print nothing but errors"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print the build report (per level: chunks, triangles, measured error, texels per "
         "metre) as JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("HEIGHTMAP -o OUT.atlas"));
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(TerrainAtlasBuilder) builder = NULL;
  g_autoptr(TerrainCliProgress) progress = NULL;
  g_autoptr(GFile) output = NULL;
  g_autoptr(GError) error = NULL;
  TerrainHeightfieldFit fit;
  TerrainAtlasTextureFormat tile_format;
  gboolean usage = FALSE;
  guint columns = 0, rows = 0;

  /* Not terrain_cli_option_context(): its --format (read files as FORMAT)
   * means nothing here, since heightmaps have their own --heightmap-format
   * and textures are plain images. */
  g_option_context_set_summary (context,
                                _("Build a Torque (TGEA) Atlas file from a heightmap (8/16-bit "
                                  "grey, Terrain-RGB or Terrarium PNG, raw16, SRTM .hgt, Torque "
                                  ".ter, TA .tnt) and optionally a texture: a chunked-LOD "
                                  "geometry tree within the error given, texture tiles, and the "
                                  "config TGEA reads. A progress bar is shown when stderr is a "
                                  "terminal."));
  g_option_context_set_description (context,
                                    _("Exit status: 0 success; 1 findings (validate) or "
                                      "mismatch (roundtrip); 2 a file could not be read or "
                                      "written; 64 bad usage."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  terrain_cli_add_heightmap_options (context);
  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 2 || output_path == NULL)
    {
      terrain_cli_usage_error ("build-atlas", _("expected HEIGHTMAP and -o OUT.atlas"));
      return TERRAIN_EXIT_USAGE;
    }
  if (!(isfinite (error_metres) && error_metres > 0) || depth < 0 || depth > 15 ||
      chunk_size < 0 || quality < 1 || quality > 100 || tile_size < 8 || tile_size > 4096 ||
      (tile_size & (tile_size - 1)) != 0 || texture_depth < 0 || texture_depth > 15 ||
      version < 100 || version > TERRAIN_ATLAS_VERSION || goal_batch_size < 0 ||
      collision_depth < 0 || collision_depth > 8 || threads < 0 || virtual_size < 1 ||
      (virtual_size & (virtual_size - 1)) != 0)
    {
      terrain_cli_usage_error ("build-atlas", _("an option is out of range (see --help)"));
      return TERRAIN_EXIT_USAGE;
    }
  if (!terrain_cli_texture_format ("build-atlas", texture_format, &tile_format))
    return TERRAIN_EXIT_USAGE;
  if (texture_path != NULL && tiles_pattern != NULL)
    {
      terrain_cli_usage_error ("build-atlas", _("give --texture or --texture-tiles, not both"));
      return TERRAIN_EXIT_USAGE;
    }
  if (tiles_pattern != NULL)
    {
      char *end = NULL;

      columns = tiles_grid != NULL ? (guint) g_ascii_strtoull (tiles_grid, &end, 10) : 0;
      if (end != NULL && (*end == 'x' || *end == 'X'))
        rows = (guint) g_ascii_strtoull (end + 1, &end, 10);
      if (end == NULL || *end != '\0' || columns == 0 || rows == 0 || columns > 65536 ||
          rows > 65536)
        {
          terrain_cli_usage_error ("build-atlas", _("--texture-tiles needs --tiles "
                                                    "COLUMNSxROWS"));
          return TERRAIN_EXIT_USAGE;
        }
    }
  if (source_images != NULL && g_strv_length (source_images) > TERRAIN_ATLAS_BUILDER_MAX_SOURCE_IMAGES)
    {
      terrain_cli_usage_error ("build-atlas", _("at most 4 --source-image names"));
      return TERRAIN_EXIT_USAGE;
    }
  if (!blender && (source_images != NULL || opacity_path != NULL || lightmap_path != NULL))
    {
      terrain_cli_usage_error ("build-atlas", _("--source-image, --opacity and --lightmap "
                                                "need --blender"));
      return TERRAIN_EXIT_USAGE;
    }
  if (!terrain_cli_heightmap_fit ("build-atlas", &fit))
    return TERRAIN_EXIT_USAGE;

  field = terrain_cli_load_heightfield ("build-atlas", argv[1], &usage);
  if (field == NULL)
    return usage ? TERRAIN_EXIT_USAGE : TERRAIN_EXIT_ERROR;

  if (!check_build_ranges (field, error_metres))
    return TERRAIN_EXIT_USAGE;

  builder = terrain_atlas_builder_new (field);
  terrain_atlas_builder_set_fit (builder, fit);
  terrain_atlas_builder_set_error (builder, error_metres);
  terrain_atlas_builder_set_tree_depth (builder, (guint) depth);
  terrain_atlas_builder_set_chunk_size (builder, (guint) chunk_size);
  terrain_atlas_builder_set_version (builder, (guint32) version);
  terrain_atlas_builder_set_goal_batch_size (builder, (guint32) goal_batch_size);
  terrain_atlas_builder_set_collision_depth (builder, (guint) collision_depth);
  terrain_atlas_builder_set_n_threads (builder, (guint) threads);
  terrain_atlas_builder_set_measure_error (builder, measure);
  terrain_atlas_builder_set_texture_format (builder, tile_format, (guint) quality);
  terrain_atlas_builder_set_tile_size (builder, (guint) tile_size);
  terrain_atlas_builder_set_texture_depth (builder, (guint) texture_depth);
  terrain_atlas_builder_set_channel_order (builder, bgr ? TERRAIN_ATLAS_CHANNELS_BGR :
                                                          TERRAIN_ATLAS_CHANNELS_RGB);
  if (texture_path != NULL)
    {
      g_autoptr(GFile) texture = g_file_new_for_commandline_arg (texture_path);

      terrain_atlas_builder_set_texture_file (builder, texture);
    }
  if (tiles_pattern != NULL)
    terrain_atlas_builder_set_texture_tiles (builder, tiles_pattern, columns, rows);

  if (blender)
    {
      terrain_atlas_builder_set_terrain_type (builder, TERRAIN_ATLAS_TERRAIN_BLENDER);
      terrain_atlas_builder_set_virtual_texture_size (builder, (guint) virtual_size);
      for (guint i = 0; source_images != NULL && source_images[i] != NULL; i++)
        terrain_atlas_builder_add_source_image (builder, source_images[i]);
      for (guint k = 0; k < 2; k++)
        {
          const char *path = k == 0 ? opacity_path : lightmap_path;
          g_autoptr(GFile) file = NULL;
          g_autoptr(GBytes) bytes = NULL;
          g_autoptr(TerrainImage) image = NULL;

          if (path == NULL)
            continue;
          file = g_file_new_for_commandline_arg (path);
          bytes = terrain_file_load_bytes (file, NULL, &error);
          if (bytes != NULL)
            image = terrain_image_load_png_bytes (bytes, &error);
          if (image == NULL)
            {
              terrain_cli_error (path, error);
              return TERRAIN_EXIT_ERROR;
            }
          if (k == 0)
            terrain_atlas_builder_set_opacity_image (builder, image);
          else
            terrain_atlas_builder_set_lightmap_image (builder, image);
        }
    }

  if (!quiet && !json)
    {
      progress = terrain_cli_progress_new ("build-atlas", 1000);
      terrain_atlas_builder_set_progress_func (builder, show_progress, progress, NULL);
    }

  output = g_file_new_for_commandline_arg (output_path);
  if (!terrain_atlas_builder_build_to_file (builder, output, NULL, &error))
    {
      terrain_cli_progress_clear (progress);
      terrain_cli_error (output_path, error);
      return TERRAIN_EXIT_ERROR;
    }
  terrain_cli_progress_clear (progress);

  if (json)
    {
      g_autoptr(JsonNode) node = report_json (output_path, terrain_atlas_builder_get_stats (builder));
      g_autofree char *text = terrain_cli_json_to_string (node, TRUE);

      g_print ("%s\n", text);
      print_issues (output_path, builder, FALSE);
    }
  else if (!quiet)
    {
      const TerrainAtlasBuildStats *stats = terrain_atlas_builder_get_stats (builder);
      g_autofree char *file_size = g_strdup_printf ("%" G_GUINT64_FORMAT, stats->file_size);
      g_autofree char *n_vertices = g_strdup_printf ("%" G_GUINT64_FORMAT, stats->n_vertices);
      g_autofree char *n_triangles = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                                      stats->n_triangles +
                                                      stats->n_skirt_triangles);
      g_autofree char *n_skirt = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                                  stats->n_skirt_triangles);

      /* Translators: in order: the output file name, its size in bytes (%s),
       * the geometry tree depth (%u), the leaf chunk size in cells (%u), the
       * number of chunks (%u), of vertices (%s), of triangles (%s), of those
       * in skirts (%s) and of texture tiles (%u). */
      g_print (_("%s: %s bytes; geometry depth %u (leaves of %u cells), "
                 "%u chunks, %s vertices, %s triangles (%s in skirts); "
                 "%u texture tiles\n"),
               output_path, file_size, stats->tree_depth, stats->leaf_size,
               stats->n_chunks, n_vertices, n_triangles, n_skirt, stats->n_texture_tiles);
      print_issues (output_path, builder, TRUE);
      if (stats->max_error >= 0)
        g_print (_("%s: largest error of the finest level: %.4g m\n"), output_path,
                 stats->max_error);
      print_levels (stats);
    }

  return TERRAIN_EXIT_OK;
}
