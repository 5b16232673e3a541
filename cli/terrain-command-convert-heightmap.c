/* terrain-command-convert-heightmap.c: `terrain convert-heightmap`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "terrain-cli.h"

/* A Torque3D terrain: metres = value / 32 + offset; the offset is the
 * lowest height unless the heights already fit 0..2047.97 m. */
static int
write_ter (TerrainHeightfield  *field,
           const char          *out_path,
           GFile               *output,
           gdouble              offset,
           const char * const  *materials,
           gboolean             quiet)
{
  g_autoptr(TerrainTer7File) ter = NULL;
  g_autoptr(GError) error = NULL;
  gfloat lo, hi;

  terrain_heightfield_get_range (field, &lo, &hi);
  if (isnan (offset))
    offset = lo >= 0.0 && hi * 32.0 < 65535.5 ? 0.0 : lo;
  ter = terrain_ter7_file_new_from_heightfield (field, offset, materials, &error);
  if (ter == NULL || !terrain_document_save (TERRAIN_DOCUMENT (ter), output, NULL, &error))
    {
      terrain_cli_error (out_path, error);
      return TERRAIN_EXIT_ERROR;
    }
  if (!quiet)
    g_print (_("%s: Torque3D terrain of %u x %u samples from %u x %u, metres = value / 32 + "
               "%.9g (place the TerrainBlock at z = %.9g), squareSize %.9g, %u materials\n"),
             out_path, terrain_ter7_file_get_size (ter), terrain_ter7_file_get_size (ter),
             terrain_heightfield_get_width (field), terrain_heightfield_get_height (field),
             offset, offset, terrain_heightfield_get_spacing (field),
             terrain_ter7_file_get_n_materials (ter));
  return TERRAIN_EXIT_OK;
}

int
terrain_command_convert_heightmap (int    argc,
                                   char **argv)
{
  gdouble out_scale = NAN, out_offset = NAN;
  gboolean fit_grid = FALSE, quiet = FALSE;
  g_auto(GStrv) materials = NULL;
  const GOptionEntry entries[] = {
    { "out-scale", 0, 0, G_OPTION_ARG_DOUBLE, &out_scale,
      N_("Metres per 16-bit unit of the output (default: 1 for whole metres in 0-65535, else "
         "the range over 0-65535)"), N_("S") },
    { "out-offset", 0, 0, G_OPTION_ARG_DOUBLE, &out_offset,
      N_("Metres of output value 0 (default: 0, or the lowest height)"), N_("O") },
    { "chunkable", 0, 0, G_OPTION_ARG_NONE, &fit_grid,
      N_("Pad or resample (see --fit) to a square 2^N+1 grid, as TGEA's raw input needs"), NULL },
    { "material", 0, 0, G_OPTION_ARG_STRING_ARRAY, &materials,
      N_("A Torque3D .ter's material (internal name), layer 0 first; repeat for more"),
      N_("NAME") },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print nothing but errors"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("convert-heightmap", _("IN OUT.png|OUT.raw|OUT.ter"),
                                _("Convert any heightmap source build-atlas reads into a 16-bit "
                                  "greyscale PNG, a raw little-endian U16 file (.raw, .r16) or a "
                                  "Torque3D terrain (.ter, TerrainFile version 7). The encoding "
                                  "used is printed so that build-atlas can read it back with "
                                  "--vertical-scale and --vertical-offset."),
                                entries);
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(GFile) output = NULL;
  g_autoptr(GError) error = NULL;
  TerrainHeightfieldFit fit;
  gboolean usage = FALSE, ok, raw, ter;
  const char *out_path, *dot;
  gdouble scale, offset;

  terrain_cli_add_heightmap_options (context);
  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 3)
    {
      terrain_cli_usage_error ("convert-heightmap", _("expected IN and OUT.png, OUT.raw or OUT.ter"));
      return TERRAIN_EXIT_USAGE;
    }
  out_path = argv[2];
  dot = strrchr (out_path, '.');
  raw = dot != NULL && (g_ascii_strcasecmp (dot, ".raw") == 0 ||
                        g_ascii_strcasecmp (dot, ".r16") == 0);
  ter = dot != NULL && g_ascii_strcasecmp (dot, ".ter") == 0;
  if (!raw && !ter && (dot == NULL || g_ascii_strcasecmp (dot, ".png") != 0))
    {
      terrain_cli_usage_error ("convert-heightmap", _("OUT must end in .png, .raw, .r16 or .ter"));
      return TERRAIN_EXIT_USAGE;
    }
  if (ter && !isnan (out_scale))
    {
      terrain_cli_usage_error ("convert-heightmap", _("a .ter stores 1/32 m a unit: --out-scale "
                                                      "does not apply (scale the input with "
                                                      "--vertical-scale)"));
      return TERRAIN_EXIT_USAGE;
    }
  if (!ter && materials != NULL)
    {
      terrain_cli_usage_error ("convert-heightmap", _("--material is for OUT.ter only"));
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

  /* A Torque3D terrain is a power of two a side: an N+1 grid drops its
   * wrapping edge, others are padded by the library, or resampled here. */
  if (ter)
    fit_grid = fit == TERRAIN_HEIGHTFIELD_FIT_RESAMPLE;
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
  if (ter)
    return write_ter (field, out_path, output, out_offset, (const char * const *) materials, quiet);
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
