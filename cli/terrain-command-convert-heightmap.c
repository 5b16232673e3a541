/* terrain-command-convert-heightmap.c: `terrain convert-heightmap`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "terrain-cli.h"

int
terrain_command_convert_heightmap (int    argc,
                                   char **argv)
{
  gdouble out_scale = NAN, out_offset = NAN;
  gboolean fit_grid = FALSE, quiet = FALSE;
  const GOptionEntry entries[] = {
    { "out-scale", 0, 0, G_OPTION_ARG_DOUBLE, &out_scale,
      N_("Metres per 16-bit unit of the output (default: 1 for whole metres in 0-65535, else "
         "the range over 0-65535)"), N_("S") },
    { "out-offset", 0, 0, G_OPTION_ARG_DOUBLE, &out_offset,
      N_("Metres of output value 0 (default: 0, or the lowest height)"), N_("O") },
    { "chunkable", 0, 0, G_OPTION_ARG_NONE, &fit_grid,
      N_("Pad or resample (see --fit) to a square 2^N+1 grid, as TGEA's raw input needs"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print nothing but errors"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("convert-heightmap", _("IN OUT.png|OUT.raw"),
                                _("Convert any heightmap source build-atlas reads into a 16-bit "
                                  "greyscale PNG or a raw little-endian U16 file (.raw, .r16). "
                                  "The encoding used is printed so that build-atlas can read it "
                                  "back with --vertical-scale and --vertical-offset."),
                                entries);
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(GFile) output = NULL;
  g_autoptr(GError) error = NULL;
  TerrainHeightfieldFit fit;
  gboolean usage = FALSE, ok, raw;
  const char *out_path, *dot;
  gdouble scale, offset;

  terrain_cli_add_heightmap_options (context);
  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 3)
    {
      terrain_cli_usage_error ("convert-heightmap", _("expected IN and OUT.png or OUT.raw"));
      return TERRAIN_EXIT_USAGE;
    }
  out_path = argv[2];
  dot = strrchr (out_path, '.');
  raw = dot != NULL && (g_ascii_strcasecmp (dot, ".raw") == 0 ||
                        g_ascii_strcasecmp (dot, ".r16") == 0);
  if (!raw && (dot == NULL || g_ascii_strcasecmp (dot, ".png") != 0))
    {
      terrain_cli_usage_error ("convert-heightmap", _("OUT must end in .png, .raw or .r16"));
      return TERRAIN_EXIT_USAGE;
    }
  if ((!isnan (out_scale) && (!isfinite (out_scale) || out_scale == 0.0)) ||
      (!isnan (out_offset) && !isfinite (out_offset)))
    {
      terrain_cli_usage_error ("convert-heightmap", _("--out-scale must be finite and non-zero, "
                                                      "--out-offset finite"));
      return TERRAIN_EXIT_USAGE;
    }
  if (!terrain_cli_heightmap_fit ("convert-heightmap", &fit))
    return TERRAIN_EXIT_USAGE;

  field = terrain_cli_load_heightfield ("convert-heightmap", argv[1], &usage);
  if (field == NULL)
    return usage ? TERRAIN_EXIT_USAGE : TERRAIN_EXIT_ERROR;

  if (fit_grid)
    {
      TerrainHeightfield *fitted = terrain_heightfield_fit (field, fit, &error);

      if (fitted == NULL)
        {
          terrain_cli_error (argv[1], error);
          return TERRAIN_EXIT_ERROR;
        }
      g_object_unref (field);
      field = fitted;
    }

  terrain_heightfield_get_auto_encoding (field, &scale, &offset);
  if (!isnan (out_scale))
    scale = out_scale;
  if (!isnan (out_offset))
    offset = out_offset;

  output = g_file_new_for_commandline_arg (out_path);
  if (raw)
    {
      g_autoptr(GBytes) bytes = terrain_heightfield_to_raw16 (field, scale, offset, &error);

      ok = bytes != NULL && terrain_file_save_bytes (output, bytes, NULL, &error);
    }
  else
    {
      g_autoptr(TerrainImage) image = terrain_heightfield_to_image (field, scale, offset, &error);

      ok = image != NULL && terrain_image_save_png (image, output, NULL, &error);
    }
  if (!ok)
    {
      terrain_cli_error (out_path, error);
      return TERRAIN_EXIT_ERROR;
    }

  if (!quiet)
    g_print (_("%s: %u x %u samples, metres = value × %.9g + %.9g, spacing %.9g m "
               "(build-atlas --vertical-scale %.9g --vertical-offset %.9g --spacing %.9g)\n"),
             out_path, terrain_heightfield_get_width (field),
             terrain_heightfield_get_height (field), scale, offset,
             terrain_heightfield_get_spacing (field), scale, offset,
             terrain_heightfield_get_spacing (field));
  return TERRAIN_EXIT_OK;
}
