/* terrain-command-atlas.c: `terrain atlas` (Torque Atlas containers)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "terrain-cli.h"

/* Opens FILE as an Atlas file; prints the error and returns NULL otherwise. */
static TerrainAtlasFile *
open_atlas (const char *path)
{
  g_autoptr(TerrainDocument) document = terrain_cli_open (path);

  if (document == NULL)
    return NULL;
  if (!TERRAIN_IS_ATLAS_FILE (document))
    {
      g_printerr (_("terrain: %s: not an Atlas file (%s)\n"), path,
                  terrain_format_get_description (terrain_document_get_format (document)));
      return NULL;
    }
  return TERRAIN_ATLAS_FILE (g_steal_pointer (&document));
}

static void
print_stub (TerrainAtlasStub *stub)
{
  guint level;
  guint32 x, y;
  TerrainAtlasBox box;

  g_print ("  %5u", terrain_atlas_stub_get_index (stub));
  if (terrain_atlas_stub_get_node (stub, &level, &x, &y))
    g_print ("  level %2u  x %5u  y %5u", level, x, y);
  if (!terrain_atlas_stub_has_chunk (stub))
    g_print ("  (empty)");
  else
    g_print ("  offset %10u  length %9u  generation %u", terrain_atlas_stub_get_offset (stub),
             terrain_atlas_stub_get_length (stub), terrain_atlas_stub_get_generation (stub));
  if (terrain_atlas_stub_get_bounds (stub, &box))
    g_print ("  bounds (%g, %g, %g)-(%g, %g, %g)", box.min[0], box.min[1], box.min[2],
             box.max[0], box.max[1], box.max[2]);
  {
    g_autofree char *name = terrain_atlas_stub_dup_name (stub);

    if (name != NULL)
      g_print ("  name \"%s\"", name);
  }
  g_print ("\n");
}

static void
add_stub_json (JsonBuilder      *builder,
               TerrainAtlasStub *stub)
{
  guint level;
  guint32 x, y;
  TerrainAtlasBox box;
  g_autofree char *name = terrain_atlas_stub_dup_name (stub);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "index");
  json_builder_add_int_value (builder, terrain_atlas_stub_get_index (stub));
  if (terrain_atlas_stub_get_node (stub, &level, &x, &y))
    {
      json_builder_set_member_name (builder, "level");
      json_builder_add_int_value (builder, level);
      json_builder_set_member_name (builder, "x");
      json_builder_add_int_value (builder, x);
      json_builder_set_member_name (builder, "y");
      json_builder_add_int_value (builder, y);
    }
  json_builder_set_member_name (builder, "has_chunk");
  json_builder_add_boolean_value (builder, terrain_atlas_stub_has_chunk (stub));
  if (terrain_atlas_stub_has_chunk (stub))
    {
      json_builder_set_member_name (builder, "offset");
      json_builder_add_int_value (builder, terrain_atlas_stub_get_offset (stub));
      json_builder_set_member_name (builder, "length");
      json_builder_add_int_value (builder, terrain_atlas_stub_get_length (stub));
      json_builder_set_member_name (builder, "generation");
      json_builder_add_int_value (builder, terrain_atlas_stub_get_generation (stub));
    }
  if (terrain_atlas_stub_get_bounds (stub, &box))
    {
      json_builder_set_member_name (builder, "bounds");
      json_builder_begin_array (builder);
      for (guint i = 0; i < 3; i++)
        json_builder_add_double_value (builder, box.min[i]);
      for (guint i = 0; i < 3; i++)
        json_builder_add_double_value (builder, box.max[i]);
      json_builder_end_array (builder);
    }
  if (name != NULL)
    {
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, name);
    }
  json_builder_end_object (builder);
}

static void
add_toc_json (JsonBuilder     *builder,
              guint            index,
              TerrainAtlasToc *toc)
{
  GListModel *stubs = G_LIST_MODEL (toc);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "toc");
  json_builder_add_int_value (builder, index);
  json_builder_set_member_name (builder, "tag");
  json_builder_add_string_value (builder, terrain_atlas_toc_get_tag (toc));
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, terrain_atlas_toc_get_version (toc));
  json_builder_set_member_name (builder, "tree_depth");
  json_builder_add_int_value (builder, terrain_atlas_toc_get_tree_depth (toc));
  if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_GEOMETRY)
    {
      json_builder_set_member_name (builder, "goal_batch_size");
      json_builder_add_int_value (builder, terrain_atlas_toc_get_goal_batch_size (toc));
    }
  if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_CONFIG)
    {
      json_builder_set_member_name (builder, "name_width");
      json_builder_add_int_value (builder, terrain_atlas_toc_get_name_width (toc));
    }
  json_builder_set_member_name (builder, "stubs");
  json_builder_begin_array (builder);
  for (guint s = 0; s < g_list_model_get_n_items (stubs); s++)
    {
      g_autoptr(TerrainAtlasStub) stub = g_list_model_get_item (stubs, s);

      add_stub_json (builder, stub);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

static int
atlas_list (int    argc,
            char **argv)
{
  gint only = -1;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "toc", 't', 0, G_OPTION_ARG_INT, &only, N_("List only TOC N"), N_("N") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print machine-readable JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("atlas list", _("FILE"),
                                _("List the TOCs of an Atlas file and their stubs: quadtree "
                                  "level and position, chunk offset, length and generation, "
                                  "bounds of geometry stubs, names of Config stubs."),
                                entries);
  g_autoptr(TerrainAtlasFile) file = NULL;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 2)
    {
      terrain_cli_usage_error ("atlas list", _("expected one FILE"));
      return TERRAIN_EXIT_USAGE;
    }

  file = open_atlas (argv[1]);
  if (file == NULL)
    return TERRAIN_EXIT_ERROR;
  if (only >= (gint) terrain_atlas_file_get_n_tocs (file))
    {
      terrain_cli_usage_error ("atlas list", _("--toc is beyond the file's TOCs"));
      return TERRAIN_EXIT_USAGE;
    }

  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *text = NULL;

      json_builder_begin_array (builder);
      for (guint t = 0; t < terrain_atlas_file_get_n_tocs (file); t++)
        if (only < 0 || (guint) only == t)
          add_toc_json (builder, t, terrain_atlas_file_get_toc (file, t));
      json_builder_end_array (builder);
      root = json_builder_get_root (builder);
      text = terrain_cli_json_to_string (root, TRUE);
      g_print ("%s\n", text);
      return TERRAIN_EXIT_OK;
    }

  for (guint t = 0; t < terrain_atlas_file_get_n_tocs (file); t++)
    {
      TerrainAtlasToc *toc = terrain_atlas_file_get_toc (file, t);
      GListModel *stubs = G_LIST_MODEL (toc);

      if (only >= 0 && (guint) only != t)
        continue;

      g_print ("TOC %u: %s, version %u, tree depth %u, %u stubs", t,
               terrain_atlas_toc_get_tag (toc), terrain_atlas_toc_get_version (toc),
               terrain_atlas_toc_get_tree_depth (toc), g_list_model_get_n_items (stubs));
      if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_GEOMETRY)
        g_print (", goal batch size %u", terrain_atlas_toc_get_goal_batch_size (toc));
      if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_CONFIG)
        g_print (", %u-byte names", terrain_atlas_toc_get_name_width (toc));
      g_print ("\n");

      for (guint s = 0; s < g_list_model_get_n_items (stubs); s++)
        {
          g_autoptr(TerrainAtlasStub) stub = g_list_model_get_item (stubs, s);

          print_stub (stub);
        }
    }

  return TERRAIN_EXIT_OK;
}

static int
atlas_extract_textures (int    argc,
                        char **argv)
{
  gboolean decode = FALSE, bgr = FALSE;
  const GOptionEntry entries[] = {
    { "png", 0, 0, G_OPTION_ARG_NONE, &decode,
      N_("Decode every tile and write it as PNG instead of its stored encoding"), NULL },
    { "bgr", 0, 0, G_OPTION_ARG_NONE, &bgr,
      N_("With --png: the JPEG/PNG tiles were made from BGR data; swap red and blue"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("atlas extract-textures", _("FILE DIR"),
                                _("Write every texture tile of every texture TOC to DIR as "
                                  "tocT-L<level>-<x>-<y>.<jpg|png|dds>, as stored (or as PNG "
                                  "with --png)."),
                                entries);
  g_autoptr(TerrainAtlasFile) file = NULL;
  g_autoptr(GFile) dir = NULL;
  g_autoptr(GError) error = NULL;
  int status = TERRAIN_EXIT_OK;
  guint written = 0;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 3)
    {
      terrain_cli_usage_error ("atlas extract-textures", _("expected FILE and DIR"));
      return TERRAIN_EXIT_USAGE;
    }

  file = open_atlas (argv[1]);
  if (file == NULL)
    return TERRAIN_EXIT_ERROR;

  dir = g_file_new_for_commandline_arg (argv[2]);
  if (!g_file_make_directory_with_parents (dir, NULL, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS))
    {
      terrain_cli_error (argv[2], error);
      return TERRAIN_EXIT_ERROR;
    }
  g_clear_error (&error);

  for (guint t = 0; t < terrain_atlas_file_get_n_tocs (file); t++)
    {
      TerrainAtlasToc *toc = terrain_atlas_file_get_toc (file, t);

      if (terrain_atlas_toc_get_kind (toc) != TERRAIN_ATLAS_TOC_TEXTURE)
        continue;

      for (guint s = 0; s < terrain_atlas_toc_get_n_stubs (toc); s++)
        {
          g_autoptr(TerrainAtlasStub) stub = terrain_atlas_toc_get_stub (toc, s);
          g_autoptr(TerrainAtlasTexture) texture = NULL;
          g_autoptr(GBytes) bytes = NULL;
          g_autoptr(GFile) out = NULL;
          g_autofree char *name = NULL;
          g_autofree char *path = NULL;
          guint level = 0;
          guint32 x = 0, y = 0;

          if (!terrain_atlas_stub_has_chunk (stub))
            continue;
          texture = terrain_atlas_file_get_texture (file, t, s, &error);
          if (texture == NULL)
            {
              terrain_cli_error (argv[1], error);
              g_clear_error (&error);
              status = TERRAIN_EXIT_ERROR;
              continue;
            }

          if (decode)
            {
              g_autoptr(TerrainImage) image =
                terrain_atlas_texture_decode (texture,
                                              bgr ? TERRAIN_ATLAS_CHANNELS_BGR
                                                  : TERRAIN_ATLAS_CHANNELS_RGB,
                                              NULL, &error);

              if (image != NULL)
                bytes = terrain_image_save_png_bytes (image, &error);
              if (bytes == NULL)
                {
                  terrain_cli_error (argv[1], error);
                  g_clear_error (&error);
                  status = TERRAIN_EXIT_ERROR;
                  continue;
                }
            }
          else
            bytes = g_bytes_ref (terrain_atlas_texture_get_data (texture));

          if (terrain_atlas_stub_get_node (stub, &level, &x, &y))
            name = g_strdup_printf ("toc%u-L%u-%u-%u.%s", t, level, x, y,
                                    decode ? "png" : terrain_atlas_texture_get_extension (texture));
          else
            name = g_strdup_printf ("toc%u-stub%u.%s", t, s,
                                    decode ? "png" : terrain_atlas_texture_get_extension (texture));
          out = g_file_get_child (dir, name);
          path = g_file_get_path (out);
          if (!terrain_cli_save_bytes (path, bytes))
            {
              status = TERRAIN_EXIT_ERROR;
              continue;
            }
          written++;
        }
    }

  g_print (ngettext ("%u texture tile written to %s\n", "%u texture tiles written to %s\n",
                     written), written, argv[2]);
  return status;
}

static int
atlas_export_mesh (int    argc,
                   char **argv)
{
  gint toc_index = -1, level = 0;
  gboolean skirts = FALSE;
  const GOptionEntry entries[] = {
    { "toc", 't', 0, G_OPTION_ARG_INT, &toc_index,
      N_("Geometry TOC to export (default: the first)"), N_("N") },
    { "level", 'l', 0, G_OPTION_ARG_INT, &level, N_("Tree level to export (0 is the root)"),
      N_("L") },
    { "skirts", 0, 0, G_OPTION_ARG_NONE, &skirts, N_("Include the skirt triangles"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("atlas export-mesh", _("FILE OUT.obj"),
                                _("Export the geometry chunks of one tree level as a Wavefront "
                                  "OBJ, one group per chunk."),
                                entries);
  g_autoptr(TerrainAtlasFile) file = NULL;
  g_autoptr(GBytes) obj = NULL;
  g_autoptr(GError) error = NULL;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 3)
    {
      terrain_cli_usage_error ("atlas export-mesh", _("expected FILE and OUT.obj"));
      return TERRAIN_EXIT_USAGE;
    }
  if (level < 0)
    {
      terrain_cli_usage_error ("atlas export-mesh", _("--level must not be negative"));
      return TERRAIN_EXIT_USAGE;
    }

  file = open_atlas (argv[1]);
  if (file == NULL)
    return TERRAIN_EXIT_ERROR;
  if (toc_index < 0)
    toc_index = terrain_atlas_file_find_toc (file, TERRAIN_ATLAS_TOC_GEOMETRY, 0);
  if (toc_index < 0)
    {
      g_printerr (_("terrain: %s: the file has no geometry TOC\n"), argv[1]);
      return TERRAIN_EXIT_ERROR;
    }

  obj = terrain_atlas_file_export_obj (file, (guint) toc_index, (guint) level, skirts, &error);
  if (obj == NULL)
    {
      terrain_cli_error (argv[1], error);
      return TERRAIN_EXIT_ERROR;
    }
  return terrain_cli_save_bytes (argv[2], obj) ? TERRAIN_EXIT_OK : TERRAIN_EXIT_ERROR;
}

static int
atlas_compact (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("atlas compact", _("IN OUT"),
                                _("Write a fresh copy of an Atlas file without history: the "
                                  "TOCs, then every referenced chunk once, in TOC and stub "
                                  "order."),
                                NULL);
  g_autoptr(TerrainAtlasFile) file = NULL;
  g_autoptr(TerrainAtlasFile) compact = NULL;
  g_autoptr(GError) error = NULL;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 3)
    {
      terrain_cli_usage_error ("atlas compact", _("expected IN and OUT"));
      return TERRAIN_EXIT_USAGE;
    }

  file = open_atlas (argv[1]);
  if (file == NULL)
    return TERRAIN_EXIT_ERROR;
  compact = terrain_atlas_file_compact (file, &error);
  if (compact == NULL)
    {
      terrain_cli_error (argv[1], error);
      return TERRAIN_EXIT_ERROR;
    }

  if (!terrain_cli_save (TERRAIN_DOCUMENT (compact), argv[2]))
    return TERRAIN_EXIT_ERROR;
  {
    g_autofree char *new_size = g_strdup_printf ("%" G_GSIZE_FORMAT,
                                                 terrain_atlas_file_get_size (compact));
    g_autofree char *old_size = g_strdup_printf ("%" G_GSIZE_FORMAT,
                                                 terrain_atlas_file_get_size (file));

    /* Translators: the first %s is a file name, the second its new size in
     * bytes, the third its size in bytes before compacting. */
    g_print (_("%s: %s bytes (was %s)\n"), argv[2], new_size, old_size);
  }
  return TERRAIN_EXIT_OK;
}

static int
atlas_convert_textures (int    argc,
                        char **argv)
{
  g_autofree char *texture_format = NULL;
  g_autofree char *output = NULL;
  gint toc_index = -1, quality = 90;
  gboolean compact = FALSE, bgr = FALSE;
  const GOptionEntry entries[] = {
    { "texture-format", 0, 0, G_OPTION_ARG_STRING, &texture_format,
      N_("Encoding to write: jpeg, png or dds (BC1, BC3 with alpha, full mip chain)"),
      N_("ENCODING") },
    { "toc", 't', 0, G_OPTION_ARG_INT, &toc_index,
      N_("Convert only texture TOC N (default: every texture TOC)"), N_("N") },
    { "quality", 0, 0, G_OPTION_ARG_INT, &quality,
      N_("JPEG quality, 1 to 100 (default 90)"), N_("Q") },
    { "bgr", 0, 0, G_OPTION_ARG_NONE, &bgr,
      N_("The JPEG and PNG tiles hold BGR data (kept so in the new tiles)"), NULL },
    { "compact", 0, 0, G_OPTION_ARG_NONE, &compact,
      N_("Write a fresh copy without the old frames instead of keeping them as history"),
      NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write to OUT instead of changing IN in place"), N_("OUT") },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("atlas convert-textures", _("IN --texture-format ENCODING"),
                                _("Re-encode an Atlas file's texture tiles as JPEG, PNG or DDS, "
                                  "as TGEA's atlasConvertTextureTOC does: each new tile is a new "
                                  "frame at the end of the file and the old one stays as history "
                                  "(--compact drops it). Tiles already in that encoding are "
                                  "kept."),
                                entries);
  g_autoptr(TerrainAtlasFile) file = NULL;
  g_autoptr(GError) error = NULL;
  TerrainAtlasTextureFormat format;
  TerrainDocument *result;
  g_autoptr(TerrainAtlasFile) compacted = NULL;
  guint total = 0, n_textures = 0;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 2)
    {
      terrain_cli_usage_error ("atlas convert-textures", _("expected IN"));
      return TERRAIN_EXIT_USAGE;
    }
  if (texture_format == NULL)
    {
      terrain_cli_usage_error ("atlas convert-textures", _("give --texture-format"));
      return TERRAIN_EXIT_USAGE;
    }
  if (!terrain_cli_texture_format ("atlas convert-textures", texture_format, &format))
    return TERRAIN_EXIT_USAGE;
  if (quality < 1 || quality > 100)
    {
      terrain_cli_usage_error ("atlas convert-textures", _("--quality takes 1 to 100"));
      return TERRAIN_EXIT_USAGE;
    }

  file = open_atlas (argv[1]);
  if (file == NULL)
    return TERRAIN_EXIT_ERROR;
  if (output == NULL && !g_file_test (argv[1], G_FILE_TEST_IS_REGULAR))
    {
      terrain_cli_usage_error ("atlas convert-textures", _("give -o for a file inside an archive"));
      return TERRAIN_EXIT_USAGE;
    }

  for (guint t = 0; t < terrain_atlas_file_get_n_tocs (file); t++)
    {
      guint n = 0;

      if (terrain_atlas_toc_get_kind (terrain_atlas_file_get_toc (file, t)) !=
            TERRAIN_ATLAS_TOC_TEXTURE || (toc_index >= 0 && (guint) toc_index != t))
        continue;
      n_textures++;
      if (!terrain_atlas_file_convert_textures (file, t, format, (guint) quality,
                                                bgr ? TERRAIN_ATLAS_CHANNELS_BGR
                                                    : TERRAIN_ATLAS_CHANNELS_RGB,
                                                &n, &error))
        {
          terrain_cli_error (argv[1], error);
          return TERRAIN_EXIT_ERROR;
        }
      total += n;
    }
  if (n_textures == 0)
    {
      g_printerr (_("terrain: %s: no texture TOC to convert\n"), argv[1]);
      return toc_index >= 0 ? TERRAIN_EXIT_USAGE : TERRAIN_EXIT_ERROR;
    }

  result = TERRAIN_DOCUMENT (file);
  if (compact)
    {
      compacted = terrain_atlas_file_compact (file, &error);
      if (compacted == NULL)
        {
          terrain_cli_error (argv[1], error);
          return TERRAIN_EXIT_ERROR;
        }
      result = TERRAIN_DOCUMENT (compacted);
    }

  if (!terrain_cli_save (result, output != NULL ? output : argv[1]))
    return TERRAIN_EXIT_ERROR;
  {
    g_autofree char *size = g_strdup_printf ("%" G_GSIZE_FORMAT,
                                             terrain_atlas_file_get_size (TERRAIN_ATLAS_FILE (result)));

    /* Translators: a file name, the tiles re-encoded, the encoding, the
     * new file size in bytes. */
    g_print (_("%s: %u tiles re-encoded as %s, %s bytes\n"), output != NULL ? output : argv[1],
             total, texture_format, size);
  }
  return TERRAIN_EXIT_OK;
}

static int
atlas_merge_textures (int    argc,
                      char **argv)
{
  g_autofree char *output = NULL;
  gint quality = 90;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the merged tree to OUT"),
      N_("OUT") },
    { "quality", 0, 0, G_OPTION_ARG_INT, &quality,
      N_("JPEG quality of the new root tile, 1 to 100 (default 90)"), N_("Q") },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("atlas merge-textures", _("NW NE SW SE -o OUT"),
                                _("Merge the texture trees of four quadrant Atlas or TQT files "
                                  "into one a level deeper, as TGEA's mergeTQT does: every tile "
                                  "keeps its bytes one level down, and the new root is the four "
                                  "roots halved and put together north up. OUT is a TQT file "
                                  "for TQT quadrants, else an Atlas file holding the one texture "
                                  "TOC."),
                                entries);
  TerrainDocument *quadrant[4] = { NULL };
  g_autoptr(TerrainDocument) merged = NULL;
  guint n_tqt = 0, n_atlas = 0, depth;
  g_autoptr(GError) error = NULL;
  int status = TERRAIN_EXIT_ERROR;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 5 || output == NULL)
    {
      terrain_cli_usage_error ("atlas merge-textures",
                               _("expected four quadrant files (north-west, north-east, "
                                 "south-west, south-east) and -o OUT"));
      return TERRAIN_EXIT_USAGE;
    }
  if (quality < 1 || quality > 100)
    {
      terrain_cli_usage_error ("atlas merge-textures", _("--quality takes 1 to 100"));
      return TERRAIN_EXIT_USAGE;
    }

  for (guint q = 0; q < 4; q++)
    {
      if ((quadrant[q] = terrain_cli_open (argv[1 + q])) == NULL)
        goto out;
      n_tqt += TERRAIN_IS_TQT_FILE (quadrant[q]);
      n_atlas += TERRAIN_IS_ATLAS_FILE (quadrant[q]);
    }
  if (n_tqt == 4)
    merged = TERRAIN_DOCUMENT (terrain_tqt_file_new_merged (TERRAIN_TQT_FILE (quadrant[0]),
                                                            TERRAIN_TQT_FILE (quadrant[1]),
                                                            TERRAIN_TQT_FILE (quadrant[2]),
                                                            TERRAIN_TQT_FILE (quadrant[3]),
                                                            (guint) quality, &error));
  else if (n_atlas == 4)
    merged = TERRAIN_DOCUMENT (terrain_atlas_file_new_merged_textures (
      TERRAIN_ATLAS_FILE (quadrant[0]), TERRAIN_ATLAS_FILE (quadrant[1]),
      TERRAIN_ATLAS_FILE (quadrant[2]), TERRAIN_ATLAS_FILE (quadrant[3]), (guint) quality,
      &error));
  else
    {
      terrain_cli_usage_error ("atlas merge-textures",
                               _("the four quadrants must all be Atlas files or all TQT files"));
      status = TERRAIN_EXIT_USAGE;
      goto out;
    }
  if (merged == NULL)
    {
      terrain_cli_error (argv[1], error);
      goto out;
    }
  if (!terrain_cli_save (TERRAIN_DOCUMENT (merged), output))
    goto out;
  depth = TERRAIN_IS_TQT_FILE (merged)
    ? terrain_tqt_file_get_tree_depth (TERRAIN_TQT_FILE (merged))
    : terrain_atlas_toc_get_tree_depth (terrain_atlas_file_get_toc (TERRAIN_ATLAS_FILE (merged), 0));
  g_print (_("%s: texture tree of depth %u from four of depth %u\n"), output, depth, depth - 1);
  status = TERRAIN_EXIT_OK;

out:
  for (guint q = 0; q < 4; q++)
    g_clear_object (&quadrant[q]);
  return status;
}

static const char *const quadrant_suffix[4] = { "nw", "ne", "sw", "se" };

static int
atlas_split (int    argc,
             char **argv)
{
  g_autofree char *output = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write PREFIX-nw.atlas, PREFIX-ne.atlas, PREFIX-sw.atlas and PREFIX-se.atlas "
         "(default: FILE without .atlas)"), N_("PREFIX") },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("atlas split", _("FILE [-o PREFIX]"),
                                _("Split an Atlas file into its four quadrants along the "
                                  "quadtree: in every geometry and texture TOC, the subtree "
                                  "under each of the root's children becomes a tree of its own, "
                                  "one level shallower, moved to where the terrain starts; "
                                  "config TOCs are copied. `terrain atlas merge` puts them "
                                  "back together."),
                                entries);
  g_autoptr(TerrainDocument) document = NULL;
  g_autofree char *prefix = NULL;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 2)
    {
      terrain_cli_usage_error ("atlas split", _("expected one Atlas file"));
      return TERRAIN_EXIT_USAGE;
    }
  if ((document = terrain_cli_open (argv[1])) == NULL)
    return TERRAIN_EXIT_ERROR;
  if (!TERRAIN_IS_ATLAS_FILE (document))
    {
      terrain_cli_usage_error ("atlas split", _("not an Atlas file"));
      return TERRAIN_EXIT_USAGE;
    }
  prefix = output != NULL ? g_strdup (output)
         : g_str_has_suffix (argv[1], ".atlas")
         ? g_strndup (argv[1], strlen (argv[1]) - strlen (".atlas")) : g_strdup (argv[1]);

  for (guint q = 0; q < 4; q++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainAtlasFile) quarter =
        terrain_atlas_file_new_quadrant (TERRAIN_ATLAS_FILE (document), (TerrainAtlasQuadrant) q,
                                         &error);
      g_autofree char *path = g_strdup_printf ("%s-%s.atlas", prefix, quadrant_suffix[q]);

      if (quarter == NULL)
        {
          terrain_cli_error (argv[1], error);
          return TERRAIN_EXIT_ERROR;
        }
      if (!terrain_cli_save (TERRAIN_DOCUMENT (quarter), path))
        return TERRAIN_EXIT_ERROR;
      /* Translators: a file name, the depth of its first tree. */
      g_print (_("%s: a quadrant, tree depth %u\n"), path,
               terrain_atlas_toc_get_tree_depth (terrain_atlas_file_get_toc (quarter, 0)));
    }
  return TERRAIN_EXIT_OK;
}

static int
atlas_merge (int    argc,
             char **argv)
{
  g_autofree char *output = NULL;
  gdouble root_error = 0.0;
  gint quality = 90;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the merged file to OUT"),
      N_("OUT") },
    { "error", 'e', 0, G_OPTION_ARG_DOUBLE, &root_error,
      N_("Error of the new root chunk in metres (default: twice the largest morph of the "
         "quadrants' second level)"), N_("METRES") },
    { "quality", 0, 0, G_OPTION_ARG_INT, &quality,
      N_("JPEG quality of the new root tile, 1 to 100 (default 90)"), N_("Q") },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("atlas merge", _("NW NE SW SE -o OUT"),
                                _("Merge four quadrant Atlas files into one a level deeper: "
                                  "every geometry chunk moves one level down to its quadrant's "
                                  "place, a new root is built from the four roots, and the "
                                  "first texture TOCs are merged as `merge-textures` does when "
                                  "all four have one. The inverse of `terrain atlas split`."),
                                entries);
  TerrainDocument *quadrant[4] = { NULL };
  g_autoptr(TerrainAtlasFile) merged = NULL;
  g_autoptr(GError) error = NULL;
  int status = TERRAIN_EXIT_ERROR;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 5 || output == NULL)
    {
      terrain_cli_usage_error ("atlas merge",
                               _("expected four quadrant files (north-west, north-east, "
                                 "south-west, south-east) and -o OUT"));
      return TERRAIN_EXIT_USAGE;
    }
  if (quality < 1 || quality > 100 || !(root_error >= 0.0) || !isfinite (root_error))
    {
      terrain_cli_usage_error ("atlas merge",
                               _("--quality takes 1 to 100 and --error a length of 0 or more"));
      return TERRAIN_EXIT_USAGE;
    }
  for (guint q = 0; q < 4; q++)
    {
      if ((quadrant[q] = terrain_cli_open (argv[1 + q])) == NULL)
        goto out;
      if (!TERRAIN_IS_ATLAS_FILE (quadrant[q]))
        {
          terrain_cli_usage_error ("atlas merge", _("the four quadrants must be Atlas files"));
          status = TERRAIN_EXIT_USAGE;
          goto out;
        }
    }
  merged = terrain_atlas_file_new_merged (TERRAIN_ATLAS_FILE (quadrant[0]),
                                          TERRAIN_ATLAS_FILE (quadrant[1]),
                                          TERRAIN_ATLAS_FILE (quadrant[2]),
                                          TERRAIN_ATLAS_FILE (quadrant[3]), root_error,
                                          (guint) quality, &error);
  if (merged == NULL)
    {
      terrain_cli_error (argv[1], error);
      goto out;
    }
  if (!terrain_cli_save (TERRAIN_DOCUMENT (merged), output))
    goto out;
  /* Translators: a file name, the new geometry tree depth, the TOC count. */
  g_print (_("%s: geometry tree of depth %u, %u TOCs\n"), output,
           terrain_atlas_toc_get_tree_depth (terrain_atlas_file_get_toc (merged, 0)),
           terrain_atlas_file_get_n_tocs (merged));
  status = TERRAIN_EXIT_OK;

out:
  for (guint q = 0; q < 4; q++)
    g_clear_object (&quadrant[q]);
  return status;
}

static const TerrainCliCommand atlas_commands[] = {
  { "list", N_("List TOCs and stubs"), atlas_list },
  { "extract-textures", N_("Write texture tiles to a folder"), atlas_extract_textures },
  { "export-mesh", N_("Export one tree level as Wavefront OBJ"), atlas_export_mesh },
  { "compact", N_("Write a copy without history frames"), atlas_compact },
  { "convert-textures", N_("Re-encode the texture tiles as JPEG, PNG or DDS"),
    atlas_convert_textures },
  { "merge-textures", N_("Merge four quadrant texture trees into one"), atlas_merge_textures },
  { "split", N_("Split a file into its four quadrants"), atlas_split },
  { "merge", N_("Merge four quadrant files into one"), atlas_merge },
};

const TerrainCliGroup terrain_cli_atlas_group = {
  NULL, N_("FILE…"),
  N_("Inspect and rewrite Torque (TGEA) Atlas terrain files. "
     "`terrain info`, `validate`, `roundtrip` and `convert` take "
     "Atlas files too."),
  NULL, atlas_commands, G_N_ELEMENTS (atlas_commands), FALSE
};
