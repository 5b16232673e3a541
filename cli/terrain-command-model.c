/* terrain-command-model.c: `terrain model` (Insomniac DAT1 .model assets)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "terrain-cli.h"

/* Opens FILE as a model; prints the error and returns NULL otherwise. */
static TerrainModel *
open_model (const char *path)
{
  g_autoptr(TerrainDocument) document = terrain_cli_open (path);

  if (document == NULL)
    return NULL;
  if (!TERRAIN_IS_MODEL (document))
    {
      g_printerr (_("terrain: %s: not an Insomniac model (%s)\n"), path,
                  terrain_format_get_description (terrain_document_get_format (document)));
      return NULL;
    }
  return TERRAIN_MODEL (g_steal_pointer (&document));
}

/* --lod: a LOD index, or "all". */
static gboolean
parse_lod (const char *text,
           const char *command,
           gint        fallback,
           gint       *lod)
{
  guint64 value;

  if (text == NULL)
    {
      *lod = fallback;
      return TRUE;
    }
  if (g_ascii_strcasecmp (text, "all") == 0)
    {
      *lod = TERRAIN_MODEL_ALL_LODS;
      return TRUE;
    }
  if (!g_ascii_string_to_unsigned (text, 10, 0, TERRAIN_MODEL_N_LODS - 1, &value, NULL))
    {
      terrain_cli_usage_error (command, _("--lod takes 0 to 3 or “all”"));
      return FALSE;
    }
  *lod = (gint) value;
  return TRUE;
}

/* OUT given with -o, or FILE with its extension replaced. */
static char *
output_path (const char *input,
             const char *output,
             const char *extension)
{
  g_autofree char *base = NULL;
  char *dot;

  if (output != NULL)
    return g_strdup (output);
  base = g_strdup (input);
  dot = strrchr (base, '.');
  if (dot != NULL && strchr (dot, G_DIR_SEPARATOR) == NULL)
    *dot = '\0';
  return g_strconcat (base, extension, NULL);
}

static int
model_info (int    argc,
            char **argv)
{
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print machine-readable JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("model info", _("FILE…"),
                                _("Summarise models: container (wrapper, compression, "
                                  "sections), quantisation, bounds, meshes, LODs, "
                                  "materials."),
                                entries);
  int status = TERRAIN_EXIT_OK;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc < 2)
    {
      terrain_cli_usage_error ("model info", _("no file given"));
      return TERRAIN_EXIT_USAGE;
    }

  for (int i = 1; i < argc; i++)
    {
      g_autoptr(TerrainModel) model = open_model (argv[i]);
      g_autoptr(JsonNode) node = NULL;

      if (model == NULL)
        {
          status = TERRAIN_EXIT_ERROR;
          continue;
        }
      node = terrain_document_describe (TERRAIN_DOCUMENT (model));
      json_object_set_string_member (json_node_get_object (node), "file", argv[i]);
      if (json)
        {
          g_autofree char *text = terrain_cli_json_to_string (node, TRUE);

          g_print ("%s\n", text);
        }
      else
        {
          if (argc > 2)
            g_print ("%s%s\n", i > 1 ? "\n" : "", argv[i]);
          terrain_cli_print_summary (node);
        }
    }

  return status;
}

static int
model_export_obj (int    argc,
                  char **argv)
{
  g_autofree char *output = NULL;
  g_autofree char *lod_text = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write OUT.obj (and OUT.mtl beside it) instead of FILE.obj"), N_("OUT") },
    { "lod", 0, 0, G_OPTION_ARG_STRING, &lod_text,
      N_("Export LOD N (0 to 3, default 0) or “all” (one object per LOD)"), N_("N") },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("model export-obj", _("FILE"),
                                _("Export a model's geometry as Wavefront OBJ with an MTL "
                                  "library of its materials. Each mesh writes its vertex "
                                  "window in turn; keep the vertex order to bring edited "
                                  "positions back with “terrain model import-obj”."),
                                entries);
  g_autoptr(TerrainModel) model = NULL;
  g_autoptr(GBytes) obj = NULL;
  g_autoptr(GBytes) mtl = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *obj_path = NULL;
  g_autofree char *mtl_path = NULL;
  g_autofree char *mtl_name = NULL;
  gint lod;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 2)
    {
      terrain_cli_usage_error ("model export-obj", _("expected one FILE"));
      return TERRAIN_EXIT_USAGE;
    }
  if (!parse_lod (lod_text, "model export-obj", 0, &lod))
    return TERRAIN_EXIT_USAGE;

  model = open_model (argv[1]);
  if (model == NULL)
    return TERRAIN_EXIT_ERROR;

  obj_path = output_path (argv[1], output, ".obj");
  mtl_path = output_path (obj_path, NULL, ".mtl");
  mtl_name = g_path_get_basename (mtl_path);

  obj = terrain_model_export_obj (model, lod, mtl_name, &mtl, &error);
  if (obj == NULL)
    {
      terrain_cli_error (argv[1], error);
      return TERRAIN_EXIT_ERROR;
    }
  if (!terrain_cli_save_bytes (mtl_path, mtl) || !terrain_cli_save_bytes (obj_path, obj))
    return TERRAIN_EXIT_ERROR;

  g_print (_("%s: wrote %s and %s\n"), argv[1], obj_path, mtl_path);
  return TERRAIN_EXIT_OK;
}

static int
model_export_gltf (int    argc,
                   char **argv)
{
  g_autofree char *output = NULL;
  g_autofree char *lod_text = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write OUT instead of FILE.glb"), N_("OUT") },
    { "lod", 0, 0, G_OPTION_ARG_STRING, &lod_text,
      N_("Export LOD N (0 to 3) or “all” (default: one glTF mesh per LOD)"), N_("N") },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("model export-gltf", _("FILE"),
                                _("Export a model's geometry as binary glTF 2.0 (.glb): "
                                  "positions, normals, UVs, one mesh per LOD, materials by "
                                  "name."),
                                entries);
  g_autoptr(TerrainModel) model = NULL;
  g_autoptr(GBytes) glb = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  gint lod;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 2)
    {
      terrain_cli_usage_error ("model export-gltf", _("expected one FILE"));
      return TERRAIN_EXIT_USAGE;
    }
  if (!parse_lod (lod_text, "model export-gltf", TERRAIN_MODEL_ALL_LODS, &lod))
    return TERRAIN_EXIT_USAGE;

  model = open_model (argv[1]);
  if (model == NULL)
    return TERRAIN_EXIT_ERROR;

  glb = terrain_model_export_glb (model, lod, &error);
  if (glb == NULL)
    {
      terrain_cli_error (argv[1], error);
      return TERRAIN_EXIT_ERROR;
    }
  path = output_path (argv[1], output, ".glb");
  if (!terrain_cli_save_bytes (path, glb))
    return TERRAIN_EXIT_ERROR;

  g_print (_("%s: wrote %s\n"), argv[1], path);
  return TERRAIN_EXIT_OK;
}

static int
model_import_obj (int    argc,
                  char **argv)
{
  g_autofree char *output = NULL;
  g_autofree char *lod_text = NULL;
  gboolean best_scale = FALSE, keep_bounds = FALSE;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write OUT instead of changing FILE in place"), N_("OUT") },
    { "lod", 0, 0, G_OPTION_ARG_STRING, &lod_text,
      N_("The LOD the OBJ was exported with (default 0, or “all”)"), N_("N") },
    { "best-scale", 0, 0, G_OPTION_ARG_NONE, &best_scale,
      N_("Re-quantise at the finest scale the positions fit"), NULL },
    { "keep-bounds", 0, 0, G_OPTION_ARG_NONE, &keep_bounds,
      N_("Leave the bounds and mesh spheres as they are"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("model import-obj", _("FILE EDITED.obj"),
                                _("Replace a model's vertex positions with those of an OBJ "
                                  "written by “terrain model export-obj” and edited without "
                                  "changing its topology; re-quantise and save atomically."),
                                entries);
  g_autoptr(TerrainModel) model = NULL;
  g_autoptr(GBytes) obj = NULL;
  g_autoptr(GFile) obj_file = NULL;
  g_autoptr(GError) error = NULL;
  TerrainModelEditFlags flags = TERRAIN_MODEL_EDIT_NONE;
  const char *target;
  gint lod;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 3)
    {
      terrain_cli_usage_error ("model import-obj", _("expected FILE and EDITED.obj"));
      return TERRAIN_EXIT_USAGE;
    }
  if (!parse_lod (lod_text, "model import-obj", 0, &lod))
    return TERRAIN_EXIT_USAGE;
  if (best_scale)
    flags |= TERRAIN_MODEL_EDIT_BEST_SCALE;
  if (keep_bounds)
    flags |= TERRAIN_MODEL_EDIT_KEEP_BOUNDS;

  model = open_model (argv[1]);
  if (model == NULL)
    return TERRAIN_EXIT_ERROR;

  obj_file = g_file_new_for_commandline_arg (argv[2]);
  obj = terrain_file_load_bytes (obj_file, NULL, &error);
  if (obj == NULL || !terrain_model_import_obj (model, obj, lod, flags, &error))
    {
      terrain_cli_error (argv[2], error);
      return TERRAIN_EXIT_ERROR;
    }

  target = output != NULL ? output : argv[1];
  if (!terrain_cli_save (TERRAIN_DOCUMENT (model), target))
    return TERRAIN_EXIT_ERROR;

  g_print (_("%s: wrote %s (position scale 2^-%u)\n"), argv[2], target,
           terrain_model_get_position_shift (model));
  return TERRAIN_EXIT_OK;
}

static int
model_roundtrip (int    argc,
                 char **argv)
{
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print machine-readable JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("model roundtrip", _("FILE…"),
                                _("Check the model writer on each file: the stored write must "
                                  "give back the file's bytes exactly, and a re-compressed "
                                  "write must read back to the same DAT1 image. Exit 0 when "
                                  "both hold for every file, 1 on a mismatch, 2 when a file "
                                  "cannot be read or written."),
                                entries);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  int status = TERRAIN_EXIT_OK;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc < 2)
    {
      terrain_cli_usage_error ("model roundtrip", _("no file given"));
      return TERRAIN_EXIT_USAGE;
    }

  json_builder_begin_array (builder);
  for (int i = 1; i < argc; i++)
    {
      g_autoptr(TerrainModel) model = open_model (argv[i]);
      g_autoptr(GBytes) stored = NULL;
      g_autoptr(GBytes) recompressed = NULL;
      g_autoptr(GBytes) image = NULL;
      g_autoptr(GBytes) again_image = NULL;
      g_autoptr(TerrainDat1) again = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *section = NULL;
      gsize difference = 0;
      gboolean exact, same_image, compressed;

      if (model == NULL)
        {
          status = MAX (status, TERRAIN_EXIT_ERROR);
          continue;
        }

      stored = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (model), &error);
      if (stored != NULL)
        recompressed = terrain_dat1_save_to_bytes_full (TERRAIN_DAT1 (model),
                                                        TERRAIN_DAT1_WRITE_RECOMPRESS, &error);
      if (recompressed != NULL)
        again = terrain_dat1_new_from_bytes (recompressed, NULL, &error);
      if (again != NULL)
        image = terrain_dat1_get_image (TERRAIN_DAT1 (model), &error);
      if (image != NULL)
        again_image = terrain_dat1_get_image (again, &error);
      if (again_image == NULL)
        {
          terrain_cli_error (argv[i], error);
          status = MAX (status, TERRAIN_EXIT_ERROR);
          continue;
        }

      compressed = terrain_dat1_get_compression (TERRAIN_DAT1 (model)) ==
                   TERRAIN_DAT1_COMPRESSION_LZ4;
      exact = terrain_document_compare_bytes (TERRAIN_DOCUMENT (model), stored, &difference,
                                              &section);
      same_image = g_bytes_equal (image, again_image);
      if (!exact || !same_image)
        status = MAX (status, TERRAIN_EXIT_WARNINGS);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "file");
      json_builder_add_string_value (builder, argv[i]);
      json_builder_set_member_name (builder, "stored");
      json_builder_add_string_value (builder, exact ? "pass" : "mismatch");
      if (!exact)
        {
          json_builder_set_member_name (builder, "first_difference");
          json_builder_add_int_value (builder, difference);
          json_builder_set_member_name (builder, "section");
          json_builder_add_string_value (builder, section);
        }
      json_builder_set_member_name (builder, "recompressed");
      json_builder_add_string_value (builder, same_image ? "pass" : "mismatch");
      json_builder_set_member_name (builder, "size");
      json_builder_add_int_value (builder, g_bytes_get_size (stored));
      json_builder_set_member_name (builder, "recompressed_size");
      json_builder_add_int_value (builder, g_bytes_get_size (recompressed));
      json_builder_set_member_name (builder, "dat1_size");
      json_builder_add_int_value (builder, g_bytes_get_size (image));
      json_builder_end_object (builder);

      if (!json)
        {
          g_autofree char *stored_size = g_strdup_printf ("%" G_GSIZE_FORMAT,
                                                          g_bytes_get_size (stored));
          g_autofree char *offset = g_strdup_printf ("%" G_GSIZE_FORMAT, difference);
          g_autofree char *written_size = g_strdup_printf ("%" G_GSIZE_FORMAT,
                                                           g_bytes_get_size (recompressed));
          g_autofree char *image_size = g_strdup_printf ("%" G_GSIZE_FORMAT,
                                                         g_bytes_get_size (image));

          if (exact)
            /* Translators: a file name, then its size in bytes. */
            g_print (_("%s: stored write byte-exact (%s bytes)"), argv[i], stored_size);
          else
            /* Translators: a file name, the byte offset of the first
             * difference, then the name of the section holding it. */
            g_print (_("%s: stored write MISMATCH at byte offset %s, in %s"),
                     argv[i], offset, section);
          if (same_image)
            /* Translators: the first %s is "re-compressed" or "fresh", the
             * second the size of that write in bytes, the third the size in
             * bytes of the DAT1 image it decompresses to. */
            g_print (_("; %s write (%s bytes) reads back to the same %s-byte DAT1\n"),
                     compressed ? _("re-compressed") : _("fresh"),
                     written_size, image_size);
          else
            g_print (_("; %s write reads back to a DIFFERENT DAT1\n"),
                     compressed ? _("re-compressed") : _("fresh"));
        }
    }
  json_builder_end_array (builder);

  if (json)
    {
      g_autoptr(JsonNode) root = json_builder_get_root (builder);
      g_autofree char *text = terrain_cli_json_to_string (root, TRUE);

      g_print ("%s\n", text);
    }

  return status;
}

static const TerrainCliCommand model_commands[] = {
  { "info", N_("Summarise models"), model_info },
  { "export-obj", N_("Export geometry as Wavefront OBJ + MTL"), model_export_obj },
  { "export-gltf", N_("Export geometry as binary glTF 2.0 (.glb)"), model_export_gltf },
  { "import-obj", N_("Take vertex positions from an edited OBJ"), model_import_obj },
  { "roundtrip", N_("Check byte-exact and re-compressed writes"), model_roundtrip },
};

const TerrainCliGroup terrain_cli_model_group = {
  NULL, N_("FILE…"),
  N_("Read, export and edit Insomniac DAT1 .model assets (plain, "
     "wrapped, LZ4-compressed)."),
  NULL, model_commands, G_N_ELEMENTS (model_commands), FALSE
};
