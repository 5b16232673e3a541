/* terrain-command-insomniac.c: `terrain insomniac` (FloorHeightData, node layers and chunks)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "terrain-cli.h"

static gboolean
save_png (TerrainImage *image,
          const char   *path)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;

  if (!terrain_image_save_png (image, file, NULL, &error))
    {
      terrain_cli_error (path, error);
      return FALSE;
    }
  return TRUE;
}

static TerrainImage *
load_png (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  TerrainImage *image;

  bytes = terrain_file_load_bytes (file, NULL, &error);
  if (bytes == NULL)
    {
      terrain_cli_error (path, error);
      return NULL;
    }
  image = terrain_image_load_png_bytes (bytes, &error);
  if (image == NULL)
    terrain_cli_error (path, error);
  return image;
}

/* NODE: a quadtree position, or LEVEL/COLUMN/ROW. */
static gboolean
parse_node (const char *text,
            const char *command,
            guint32    *position)
{
  g_auto(GStrv) parts = g_strsplit (text, "/", -1);
  guint64 values[3];

  if (g_strv_length (parts) == 1)
    {
      if (g_ascii_string_to_unsigned (text, 10, 0, TERRAIN_NODE_POSITIONS - 1, &values[0], NULL))
        {
          *position = (guint32) values[0];
          return TRUE;
        }
    }
  else if (g_strv_length (parts) == 3 &&
           g_ascii_string_to_unsigned (parts[0], 10, 0, TERRAIN_NODE_LEVELS - 1, &values[0],
                                       NULL) &&
           g_ascii_string_to_unsigned (parts[1], 10, 0, (1u << values[0]) - 1, &values[1],
                                       NULL) &&
           g_ascii_string_to_unsigned (parts[2], 10, 0, (1u << values[0]) - 1, &values[2],
                                       NULL))
    {
      *position = terrain_node_position_from_level ((guint) values[0], (guint) values[1],
                                                    (guint) values[2]);
      return TRUE;
    }

  terrain_cli_usage_error (command, _("NODE is a quadtree position (0 to 87380) or "
                                      "LEVEL/COLUMN/ROW"));
  return FALSE;
}

/* The level of a chunk: --level, the node given, a leaf's 8, or the level
 * its height bounds fit. */
static gint
chunk_level (TerrainNodeChunk *chunk,
             gint              level,
             const char       *path)
{
  g_autoptr(GError) error = NULL;

  if (level >= 0)
    return level;
  if (terrain_node_chunk_get_level (chunk) >= 0)
    return terrain_node_chunk_get_level (chunk);

  level = terrain_node_chunk_guess_level (chunk, &error);
  if (level < 0)
    {
      terrain_cli_error (path, error);
      g_printerr (_("terrain: hint: give the node's level with --level or its position with "
                    "--node\n"));
    }
  return level;
}

/* Rescales a 16-bit image linearly so its lowest value becomes 0 and its
 * highest 65535; returns the input values of grey 0 and grey 65535. */
static void
stretch (TerrainImage *image,
         guint        *lowest,
         guint        *highest)
{
  gsize size, n;
  guint16 *pixels = (guint16 *) terrain_image_get_data (image, &size);
  guint lo = G_MAXUINT16, hi = 0;

  n = size / 2;
  for (gsize i = 0; i < n; i++)
    {
      lo = MIN (lo, pixels[i]);
      hi = MAX (hi, pixels[i]);
    }
  for (gsize i = 0; i < n && hi > lo; i++)
    pixels[i] = (guint16) (((guint64) (pixels[i] - lo) * G_MAXUINT16 + (hi - lo) / 2) / (hi - lo));

  *lowest = lo;
  *highest = hi;
}

static int
insomniac_export_heights (int    argc,
                          char **argv)
{
  gboolean world = FALSE;
  gint level = -1;
  const GOptionEntry entries[] = {
    { "world", 'w', 0, G_OPTION_ARG_NONE, &world,
      N_("Write world heights in metres, stretched over the 16-bit range, and print the scale"),
      NULL },
    { "level", 'l', 0, G_OPTION_ARG_INT, &level,
      N_("Quadtree level of a node chunk (0-8), for --world"), N_("LEVEL") },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("insomniac export-heights", _("FILE OUT.png"),
                                _("Write the decoded height words of a FloorHeightData grid "
                                  "(or a TNLChunk's decoded heights) as a 16-bit greyscale "
                                  "PNG, row 0 = the first row of cells (lowest y)."),
                                entries);
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GError) error = NULL;
  double metres_per_unit = 0, offset_units = 0;
  guint lowest, highest;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 3)
    {
      terrain_cli_usage_error ("insomniac export-heights", _("expected FILE and OUT.png"));
      return TERRAIN_EXIT_USAGE;
    }
  if (level < -1 || level >= TERRAIN_NODE_LEVELS)
    {
      terrain_cli_usage_error ("insomniac export-heights", _("--level takes 0 to 8"));
      return TERRAIN_EXIT_USAGE;
    }

  document = terrain_cli_open (argv[1]);
  if (document == NULL)
    return TERRAIN_EXIT_ERROR;

  if (TERRAIN_IS_NODE_CHUNK (document))
    {
      TerrainNodeChunk *chunk = TERRAIN_NODE_CHUNK (document);
      gint32 offset = 0;

      image = terrain_node_chunk_export_heights (chunk, &offset, &error);
      offset_units = offset;
      if (image != NULL && world)
        {
          level = chunk_level (chunk, level, argv[1]);
          if (level < 0)
            return TERRAIN_EXIT_ERROR;
          metres_per_unit = terrain_node_height_scale ((guint) level);
        }
      else if (image != NULL && offset != 0)
        {
          g_print (_("decoded height = grey %c %d\n"), offset < 0 ? '-' : '+', ABS (offset));
        }
    }
  else
    {
      image = terrain_document_export_heights (document, &error);
      if (TERRAIN_IS_FLOOR_HEIGHT_DATA (document))
        metres_per_unit = terrain_floor_height_data_get_height_scale (
                            TERRAIN_FLOOR_HEIGHT_DATA (document));
      else if (world)
        {
          g_printerr (_("terrain: %s: --world needs a FloorHeightData grid or a TNLChunk\n"),
                      argv[1]);
          return TERRAIN_EXIT_ERROR;
        }
    }

  if (image == NULL)
    {
      terrain_cli_error (argv[1], error);
      return TERRAIN_EXIT_ERROR;
    }

  if (world)
    {
      double step;

      stretch (image, &lowest, &highest);
      step = highest > lowest ? (highest - lowest) * metres_per_unit / G_MAXUINT16 : 0.0;
      g_print (_("metres = %.6f + grey × %.9f (heights %.3f to %.3f m)\n"),
               (lowest + offset_units) * metres_per_unit, step,
               (lowest + offset_units) * metres_per_unit,
               (highest + offset_units) * metres_per_unit);
    }

  return save_png (image, argv[2]) ? TERRAIN_EXIT_OK : TERRAIN_EXIT_ERROR;
}

/* Opens the chunk of NODE: FILE itself when it is a chunk, or the chunk a
 * layer names, found as IDENTITY.tnlc (16 hex digits) in @chunks_dir or
 * beside the layer. */
static TerrainNodeChunk *
open_node_chunk (const char *path,
                 guint32     position,
                 const char *chunks_dir)
{
  g_autoptr(TerrainDocument) document = terrain_cli_open (path);
  g_autofree char *dir = NULL;
  g_autofree char *name = NULL;
  g_autofree char *chunk_path = NULL;
  TerrainNodeLayer *layer;
  gint index;

  if (document == NULL)
    return NULL;
  if (TERRAIN_IS_NODE_CHUNK (document))
    return TERRAIN_NODE_CHUNK (g_steal_pointer (&document));
  if (!TERRAIN_IS_NODE_LAYER (document))
    {
      g_printerr (_("terrain: %s: neither a TNLChunk nor a TerrainNodeLayer (%s)\n"), path,
                  terrain_format_get_description (terrain_document_get_format (document)));
      return NULL;
    }

  layer = TERRAIN_NODE_LAYER (document);
  index = terrain_node_layer_find (layer, position);
  if (index < 0)
    {
      g_printerr (_("terrain: %s: the layer has no node at position %u\n"), path, position);
      return NULL;
    }

  dir = chunks_dir != NULL ? g_strdup (chunks_dir) : g_path_get_dirname (path);
  name = g_strdup_printf ("%016" G_GINT64_MODIFIER "x.tnlc",
                          terrain_node_layer_get_identity (layer, (guint) index));
  chunk_path = g_build_filename (dir, name, NULL);

  {
    g_autoptr(GFile) file = g_file_new_for_path (chunk_path);
    g_autoptr(GError) error = NULL;
    TerrainDocument *chunk = terrain_document_load_as (file, TERRAIN_FORMAT_NODE_CHUNK, NULL,
                                                       NULL, &error);

    if (chunk == NULL)
      {
        terrain_cli_error (chunk_path, error);
        return NULL;
      }
    return TERRAIN_NODE_CHUNK (chunk);
  }
}

static gboolean
write_raster (TerrainNodeChunk *chunk,
              TerrainNodeBlock  block,
              const char       *dir,
              const char       *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autofree char *path = g_build_filename (dir, name, NULL);
  const guint8 *samples = terrain_node_chunk_get_raster (chunk, block, &error);

  if (samples == NULL)
    {
      terrain_cli_error (name, error);
      return FALSE;
    }
  image = terrain_image_new (TERRAIN_IMAGE_GRAY8, TERRAIN_NODE_SIDE, TERRAIN_NODE_SIDE, &error);
  memcpy (terrain_image_get_data (image, NULL), samples, TERRAIN_NODE_SAMPLES);
  return save_png (image, path);
}

static int
insomniac_export_node (int    argc,
                       char **argv)
{
  g_autofree char *chunks_dir = NULL;
  const GOptionEntry entries[] = {
    { "chunks", 0, 0, G_OPTION_ARG_FILENAME, &chunks_dir,
      N_("Folder holding a layer's chunks as IDENTITY.tnlc (default: the layer's folder)"),
      N_("DIR") },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("insomniac export-node", _("FILE NODE DIR"),
                                _("Write one terrain node as PNGs: heights.png (16-bit decoded "
                                  "heights), colour.png, occlusion.png, material.png, "
                                  "region.png, grass-weight.png, grass-group.png, zero.png, "
                                  "t18.png and, for leaves, snow.png. FILE is a .tnlc chunk "
                                  "(NODE then gives its level) or a .tnl layer (NODE picks the "
                                  "chunk). NODE is a quadtree position or LEVEL/COLUMN/ROW."),
                                entries);
  g_autoptr(TerrainNodeChunk) chunk = NULL;
  g_autoptr(TerrainImage) heights = NULL;
  g_autoptr(GError) error = NULL;
  static const struct { TerrainNodeBlock block; const char *name; } rasters[] = {
    { TERRAIN_NODE_BLOCK_MATERIAL, "material.png" },
    { TERRAIN_NODE_BLOCK_REGION, "region.png" },
    { TERRAIN_NODE_BLOCK_GRASS_WEIGHT, "grass-weight.png" },
    { TERRAIN_NODE_BLOCK_GRASS_GROUP, "grass-group.png" },
    { TERRAIN_NODE_BLOCK_ZERO, "zero.png" },
    { TERRAIN_NODE_BLOCK_T18, "t18.png" },
  };
  static const struct { TerrainNodeBlock block; const char *name; } textures[] = {
    { TERRAIN_NODE_BLOCK_COLOUR, "colour.png" },
    { TERRAIN_NODE_BLOCK_OCCLUSION, "occlusion.png" },
  };
  const char *dir;
  guint32 position;
  guint level, column, row;
  gint32 offset = 0;
  double x0, y0, side;
  float lo, hi;
  int status = TERRAIN_EXIT_OK;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 4)
    {
      terrain_cli_usage_error ("insomniac export-node", _("expected FILE, NODE and DIR"));
      return TERRAIN_EXIT_USAGE;
    }
  if (!parse_node (argv[2], "insomniac export-node", &position))
    return TERRAIN_EXIT_USAGE;
  dir = argv[3];

  chunk = open_node_chunk (argv[1], position, chunks_dir);
  if (chunk == NULL)
    return TERRAIN_EXIT_ERROR;

  terrain_node_position_to_level (position, &level, &column, &row);
  if (terrain_node_chunk_is_leaf (chunk) && level != TERRAIN_NODE_LEVELS - 1)
    g_printerr (_("terrain: %s: warning: a leaf chunk at level %u (leaves are level 8)\n"),
                argv[1], level);
  terrain_node_chunk_set_level (chunk, (gint) level);

  if (g_mkdir_with_parents (dir, 0777) != 0)
    {
      g_printerr (_("terrain: %s: cannot create the folder: %s\n"), dir, g_strerror (errno));
      return TERRAIN_EXIT_ERROR;
    }

  heights = terrain_node_chunk_export_heights (chunk, &offset, &error);
  if (heights == NULL)
    {
      terrain_cli_error (argv[1], error);
      return TERRAIN_EXIT_ERROR;
    }
  {
    g_autofree char *path = g_build_filename (dir, "heights.png", NULL);

    if (!save_png (heights, path))
      status = TERRAIN_EXIT_ERROR;
  }

  for (guint i = 0; i < G_N_ELEMENTS (textures); i++)
    {
      g_autoptr(TerrainImage) image = NULL;
      g_autofree char *path = g_build_filename (dir, textures[i].name, NULL);

      g_clear_error (&error);
      image = terrain_node_chunk_render_texture (chunk, textures[i].block, &error);
      if (image == NULL)
        {
          terrain_cli_error (argv[1], error);
          status = TERRAIN_EXIT_ERROR;
        }
      else if (!save_png (image, path))
        status = TERRAIN_EXIT_ERROR;
    }

  for (guint i = 0; i < G_N_ELEMENTS (rasters); i++)
    if (!write_raster (chunk, rasters[i].block, dir, rasters[i].name))
      status = TERRAIN_EXIT_ERROR;

  if (terrain_node_chunk_is_leaf (chunk))
    {
      const gint32 *depth;
      g_autoptr(TerrainImage) image = NULL;
      g_autofree char *path = g_build_filename (dir, "snow.png", NULL);

      g_clear_error (&error);
      depth = terrain_node_chunk_get_snow_depth (chunk, &error);
      if (depth == NULL)
        {
          terrain_cli_error (argv[1], error);
          status = TERRAIN_EXIT_ERROR;
        }
      else
        {
          guint16 *pixels;

          image = terrain_image_new (TERRAIN_IMAGE_GRAY16, TERRAIN_NODE_SIDE, TERRAIN_NODE_SIDE,
                                     NULL);
          pixels = (guint16 *) terrain_image_get_data (image, NULL);
          for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
            pixels[i] = (guint16) CLAMP (depth[i], 0, G_MAXUINT16);
          if (!save_png (image, path))
            status = TERRAIN_EXIT_ERROR;
        }
    }

  terrain_node_get_extent (level, column, row, &x0, &y0, &side);
  terrain_node_chunk_get_height_bounds (chunk, &lo, &hi);
  g_print (_("node %u: level %u, column %u, row %u; %s\n"), position, level, column, row,
           terrain_node_chunk_is_leaf (chunk) ? _("leaf") : _("internal"));
  g_print (_("extent: x %.1f to %.1f m, y %.1f to %.1f m; sample (2, 2) is the corner\n"),
           x0, x0 + side, y0, y0 + side);
  g_print (_("heights.png: decoded height = grey %c %d (import with --offset=%d); metres = "
             "decoded × %.9g\n"),
           offset < 0 ? '-' : '+', ABS (offset), offset, terrain_node_height_scale (level));
  g_print (_("height bounds: %.3f to %.3f m\n"), lo, hi);
  if (terrain_node_chunk_is_leaf (chunk))
    g_print (_("snow.png: depth in metres = grey / 255\n"));

  return status;
}

static int
insomniac_import_heights (int    argc,
                          char **argv)
{
  g_autofree char *output = NULL;
  g_autofree char *node = NULL;
  gint x = 0, y = 0, offset = 0, level = -1;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write here instead of changing FILE in place"), N_("OUT") },
    { "x", 'x', 0, G_OPTION_ARG_INT, &x, N_("FloorHeightData: first cell column"), N_("X") },
    { "y", 'y', 0, G_OPTION_ARG_INT, &y, N_("FloorHeightData: first cell row"), N_("Y") },
    { "offset", 0, 0, G_OPTION_ARG_INT, &offset,
      N_("TNLChunk: decoded height = grey + OFFSET (as export-node prints)"), N_("OFFSET") },
    { "level", 'l', 0, G_OPTION_ARG_INT, &level,
      N_("TNLChunk: the node's quadtree level (0-8)"), N_("LEVEL") },
    { "node", 0, 0, G_OPTION_ARG_STRING, &node,
      N_("TNLChunk: the node's position (or LEVEL/COLUMN/ROW), for its level"), N_("NODE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("insomniac import-heights", _("FILE IN.png"),
                                _("Re-encode heights from a 16-bit greyscale PNG. For a "
                                  "FloorHeightData grid the PNG is a rectangle of height words "
                                  "placed at --x, --y; every 4x4 block it touches is re-encoded "
                                  "and the others keep their bytes. For a TNLChunk the PNG is "
                                  "the 132x132 decoded heights minus --offset; block 0 is "
                                  "re-encoded and the height bounds follow."),
                                entries);
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GError) error = NULL;
  const guint16 *pixels;
  guint width, height;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 3)
    {
      terrain_cli_usage_error ("insomniac import-heights", _("expected FILE and IN.png"));
      return TERRAIN_EXIT_USAGE;
    }
  if (x < 0 || y < 0 || level < -1 || level >= TERRAIN_NODE_LEVELS)
    {
      terrain_cli_usage_error ("insomniac import-heights",
                               _("--x and --y must not be negative; --level takes 0 to 8"));
      return TERRAIN_EXIT_USAGE;
    }
  if (node != NULL)
    {
      guint32 position;
      guint node_level;

      if (!parse_node (node, "insomniac import-heights", &position))
        return TERRAIN_EXIT_USAGE;
      terrain_node_position_to_level (position, &node_level, NULL, NULL);
      level = (gint) node_level;
    }

  document = terrain_cli_open (argv[1]);
  if (document == NULL)
    return TERRAIN_EXIT_ERROR;
  image = load_png (argv[2]);
  if (image == NULL)
    return TERRAIN_EXIT_ERROR;
  if (terrain_image_get_format (image) != TERRAIN_IMAGE_GRAY16)
    {
      g_printerr (_("terrain: %s: not a 16-bit greyscale PNG\n"), argv[2]);
      return TERRAIN_EXIT_ERROR;
    }
  width = terrain_image_get_width (image);
  height = terrain_image_get_height (image);
  pixels = (const guint16 *) terrain_image_get_data (image, NULL);

  if (TERRAIN_IS_FLOOR_HEIGHT_DATA (document))
    {
      TerrainFloorHeightData *grid = TERRAIN_FLOOR_HEIGHT_DATA (document);
      guint grid_width = terrain_floor_height_data_get_width (grid);
      guint grid_height = terrain_floor_height_data_get_height (grid);

      if ((guint) x > grid_width || (guint) y > grid_height ||
          width > grid_width - (guint) x || height > grid_height - (guint) y)
        {
          g_printerr (_("terrain: %s: a %ux%u image at (%d, %d) does not fit the %ux%u grid\n"),
                      argv[2], width, height, x, y, grid_width, grid_height);
          return TERRAIN_EXIT_ERROR;
        }
      terrain_floor_height_data_set_region (grid, (guint) x, (guint) y, width, height, pixels);
    }
  else if (TERRAIN_IS_NODE_CHUNK (document))
    {
      TerrainNodeChunk *chunk = TERRAIN_NODE_CHUNK (document);
      g_autofree gint32 *values = NULL;

      if (width != TERRAIN_NODE_SIDE || height != TERRAIN_NODE_SIDE)
        {
          g_printerr (_("terrain: %s: the image is %ux%u; node heights are 132x132\n"),
                      argv[2], width, height);
          return TERRAIN_EXIT_ERROR;
        }
      level = chunk_level (chunk, level, argv[1]);
      if (level < 0)
        return TERRAIN_EXIT_ERROR;
      terrain_node_chunk_set_level (chunk, level);

      values = g_new (gint32, TERRAIN_NODE_SAMPLES);
      for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
        values[i] = (gint32) pixels[i] + offset;
      if (!terrain_node_chunk_set_heights (chunk, values, &error))
        {
          terrain_cli_error (argv[1], error);
          return TERRAIN_EXIT_ERROR;
        }
    }
  else
    {
      g_printerr (_("terrain: %s: import-heights takes a FloorHeightData grid or a TNLChunk "
                    "(%s)\n"),
                  argv[1], terrain_format_get_description (terrain_document_get_format (document)));
      return TERRAIN_EXIT_ERROR;
    }

  if (!terrain_cli_save (document, output != NULL ? output : argv[1]))
    return TERRAIN_EXIT_ERROR;
  return TERRAIN_EXIT_OK;
}

static const TerrainCliCommand insomniac_commands[] = {
  { "export-heights", N_("Write heights as a 16-bit greyscale PNG"), insomniac_export_heights },
  { "export-node", N_("Write a terrain node's rasters and textures as PNGs"),
    insomniac_export_node },
  { "import-heights", N_("Re-encode a node's or a floor region's heights from a PNG"),
    insomniac_import_heights },
};

const TerrainCliGroup terrain_cli_insomniac_group = {
  NULL, N_("FILE…"),
  N_("Export and edit Insomniac open-world terrain: FloorHeightData "
     "(.fhd), TerrainNodeLayer (.tnl) and TNLChunk (.tnlc) bodies. "
     "These have no magic number: name the format with --format "
     "when the extension does not."),
  NULL, insomniac_commands, G_N_ELEMENTS (insomniac_commands), FALSE
};
