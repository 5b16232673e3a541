/* terrain-thumbnailer.c: previews of terrain files for file managers
 *
 * Run by the desktop's thumbnail service through data/terrain.thumbnailer:
 *
 *   terrain-thumbnailer -s SIZE INPUT OUTPUT.png
 *
 * What it draws, first that applies:
 *
 *  - a TNT map with a palette: its tiles, averaged down to SIZE the way the
 *    game's minimap generator does (or the embedded minimap when that is at
 *    least SIZE already);
 *  - any file libterrain renders (an SCT section through the palette, an
 *    Atlas file's root texture tile, a TQT tree's texture, a node chunk's
 *    colour, a CHU tree, a model seen from above or a plain heightmap as
 *    shaded relief, a node layer's quadtree): terrain_document_render_image();
 *  - any file with heights: terrain_document_export_heights(), shaded by
 *    slope and tinted by height, with water below a TNT map's sea level.
 *
 * The palette is --palette, or the editor's `palette-path` setting.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include <libterrain.h>

/* Exit statuses: the thumbnail service only tells success from failure. */
enum
{
  EXIT_OK = 0,
  EXIT_FAILED = 1,
  EXIT_USAGE = 64,
};

#define DEFAULT_SIZE 256
#define MAX_SIZE     4096

/* The palette the editor uses, when its settings schema is installed (it is
 * not when the editor is not built, and the thumbnail sandbox may hide the
 * user's settings; both just mean "no palette"). */
static TerrainPalette *
palette_from_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;

  if (source == NULL)
    return NULL;
  schema = g_settings_schema_source_lookup (source, TERRAIN_SETTINGS_SCHEMA, TRUE);
  if (schema == NULL || !g_settings_schema_has_key (schema, "palette-path"))
    return NULL;

  settings = g_settings_new_full (schema, NULL, NULL);
  path = g_settings_get_string (settings, "palette-path");
  if (path == NULL || *path == '\0')
    return NULL;

  file = g_file_new_for_commandline_arg (path);
  return terrain_palette_new_from_file (file, NULL, NULL);
}

/* Box-filters (or, along an axis that grows, repeats) @src into a new
 * @width x @height RGBA image. */
static TerrainImage *
scale_rgba (TerrainImage  *src,
            guint          width,
            guint          height,
            GError       **error)
{
  g_autoptr(TerrainImage) dst = terrain_image_new (TERRAIN_IMAGE_RGBA8, width, height, error);
  guint sw = terrain_image_get_width (src);
  guint sh = terrain_image_get_height (src);
  gsize src_stride = terrain_image_get_stride (src);
  gsize dst_stride;
  const guint8 *s;
  guint8 *d;

  if (dst == NULL)
    return NULL;
  s = terrain_image_get_data (src, NULL);
  d = terrain_image_get_data (dst, NULL);
  dst_stride = terrain_image_get_stride (dst);

  for (guint y = 0; y < height; y++)
    {
      guint y0 = (guint) ((guint64) y * sh / height);
      guint y1 = MAX (y0 + 1, (guint) ((guint64) (y + 1) * sh / height));

      for (guint x = 0; x < width; x++)
        {
          guint x0 = (guint) ((guint64) x * sw / width);
          guint x1 = MAX (x0 + 1, (guint) ((guint64) (x + 1) * sw / width));
          guint64 sum[4] = { 0, 0, 0, 0 };
          guint64 n = (guint64) (x1 - x0) * (y1 - y0);

          for (guint yy = y0; yy < y1; yy++)
            for (guint xx = x0; xx < x1; xx++)
              for (guint c = 0; c < 4; c++)
                sum[c] += s[yy * src_stride + xx * 4 + c];
          for (guint c = 0; c < 4; c++)
            d[y * dst_stride + x * 4 + c] = (guint8) ((sum[c] + n / 2) / n);
        }
    }

  return g_steal_pointer (&dst);
}

/* The size that fits @width x @height into a @size square, aspect kept and
 * never enlarged (a thumbnail is not larger than its picture). */
static void
fit (guint  width,
     guint  height,
     guint  size,
     guint *out_width,
     guint *out_height)
{
  if (width <= size && height <= size)
    {
      *out_width = width;
      *out_height = height;
    }
  else if (width >= height)
    {
      *out_width = size;
      *out_height = MAX (1, (guint) ((guint64) height * size / width));
    }
  else
    {
      *out_height = size;
      *out_width = MAX (1, (guint) ((guint64) width * size / height));
    }
}

/* A TNT map's tiles through @palette, fitted to @size: the play area
 * averaged into a @size square bitmap as the minimap generator does, then
 * cropped to the part that holds terrain. */
static TerrainImage *
draw_tnt (TerrainTntMap   *map,
          TerrainPalette  *palette,
          guint            size,
          GError         **error)
{
  g_autoptr(TerrainImage) image = NULL;
  g_autofree guint8 *indices = NULL;
  const guint8 *rgba = terrain_palette_get_rgba_table (palette);
  guint used_w, used_h;
  guint8 *pixels;
  gsize stride;

  /* The author's own minimap, when it is big enough. */
  if (terrain_tnt_map_get_minimap_present (map))
    {
      terrain_tnt_map_get_minimap_used_size (map, &used_w, &used_h);
      if (MAX (used_w, used_h) >= size)
        return terrain_tnt_map_render_minimap (map, palette, TRUE, error);
    }

  indices = terrain_tnt_map_compute_minimap (map, palette, size, size);
  terrain_tnt_map_get_minimap_crop (map, size, size, &used_w, &used_h);
  image = terrain_image_new (TERRAIN_IMAGE_RGBA8, MAX (used_w, 1), MAX (used_h, 1), error);
  if (image == NULL)
    return NULL;
  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  for (guint y = 0; y < terrain_image_get_height (image); y++)
    for (guint x = 0; x < terrain_image_get_width (image); x++)
      memcpy (pixels + y * stride + x * 4, rgba + indices[(gsize) y * size + x] * 4, 4);

  return g_steal_pointer (&image);
}

/* The root tile of a DDS texture quadtree. */
/* Mixes two colours, @t from 0 (@a) to 1 (@b). */
static void
mix (const guint8 *a,
     const guint8 *b,
     double        t,
     double       *out)
{
  for (guint c = 0; c < 3; c++)
    out[c] = a[c] + (b[c] - a[c]) * t;
}

/* Heights (GRAY16) fitted to @size and drawn as a relief: a colour by height
 * (lowland green, rock brown, snow white; water blue below @sea, a 16-bit
 * height or -1 for none) lit from the north-west by each cell's slope. */
static TerrainImage *
draw_heights (TerrainImage  *heights,
              gint           sea,
              guint          size,
              GError       **error)
{
  static const guint8 low[3] = { 74, 122, 64 };
  static const guint8 mid[3] = { 150, 128, 92 };
  static const guint8 high[3] = { 240, 240, 236 };
  static const guint8 shallow[3] = { 64, 118, 178 };
  static const guint8 deep[3] = { 22, 48, 102 };
  guint sw = terrain_image_get_width (heights);
  guint sh = terrain_image_get_height (heights);
  gsize src_stride = terrain_image_get_stride (heights);
  const guint8 *src = terrain_image_get_data (heights, NULL);
  g_autofree double *grid = NULL;
  g_autoptr(TerrainImage) image = NULL;
  double lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE, range;
  guint w, h;
  guint8 *out;
  gsize stride;

  /* Average the heights down first: a whole world's grid is 8192 x 8192. */
  fit (sw, sh, size, &w, &h);
  grid = g_new (double, (gsize) w * h);
  for (guint y = 0; y < h; y++)
    {
      guint y0 = (guint) ((guint64) y * sh / h);
      guint y1 = MAX (y0 + 1, (guint) ((guint64) (y + 1) * sh / h));

      for (guint x = 0; x < w; x++)
        {
          guint x0 = (guint) ((guint64) x * sw / w);
          guint x1 = MAX (x0 + 1, (guint) ((guint64) (x + 1) * sw / w));
          double sum = 0;

          for (guint yy = y0; yy < y1; yy++)
            for (guint xx = x0; xx < x1; xx++)
              {
                guint16 v;

                memcpy (&v, src + yy * src_stride + xx * 2, 2);
                sum += v;
              }
          grid[(gsize) y * w + x] = sum / ((double) (x1 - x0) * (y1 - y0));
          lo = MIN (lo, grid[(gsize) y * w + x]);
          hi = MAX (hi, grid[(gsize) y * w + x]);
        }
    }
  range = MAX (hi - lo, 1.0);

  image = terrain_image_new (TERRAIN_IMAGE_RGBA8, w, h, error);
  if (image == NULL)
    return NULL;
  out = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);

  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        double v = grid[(gsize) y * w + x];
        double left = grid[(gsize) y * w + (x > 0 ? x - 1 : x)];
        double right = grid[(gsize) y * w + (x + 1 < w ? x + 1 : x)];
        double up = grid[(gsize) (y > 0 ? y - 1 : y) * w + x];
        double down = grid[(gsize) (y + 1 < h ? y + 1 : y) * w + x];
        /* Slopes in "grid widths", so the relief looks alike at any size. */
        double dx = (right - left) / range * w / 4.0;
        double dy = (down - up) / range * h / 4.0;
        double light = CLAMP (0.75 - 0.35 * (dx + dy), 0.35, 1.15);
        double t = (v - lo) / range;
        double colour[3];
        guint8 *p = out + y * stride + x * 4;

        if (sea >= 0 && v < sea)
          {
            mix (shallow, deep, CLAMP ((sea - v) / MAX (sea - lo, 1.0), 0.0, 1.0), colour);
            light = 1.0;
          }
        else if (t < 0.5)
          mix (low, mid, t * 2, colour);
        else
          mix (mid, high, (t - 0.5) * 2, colour);

        for (guint c = 0; c < 3; c++)
          p[c] = (guint8) CLAMP (colour[c] * light + 0.5, 0.0, 255.0);
        p[3] = 255;
      }

  return g_steal_pointer (&image);
}

static TerrainImage *
draw (TerrainDocument  *document,
      TerrainPalette   *palette,
      guint             size,
      GError          **error)
{
  g_autoptr(GError) render_error = NULL;
  g_autoptr(TerrainImage) picture = NULL;
  g_autoptr(TerrainImage) heights = NULL;
  gint sea = -1;

  if (TERRAIN_IS_TNT_MAP (document) && palette != NULL)
    return draw_tnt (TERRAIN_TNT_MAP (document), palette, size, error);

  /* A TNT map without a palette has nothing to render but its heights. */
  if (!TERRAIN_IS_TNT_MAP (document))
    {
      g_autoptr(TerrainRenderOptions) options = terrain_palette_to_render_options (palette);

      picture = terrain_document_render_image (document, options, &render_error);
      if (picture != NULL)
        return g_steal_pointer (&picture);
    }

  heights = terrain_document_export_heights (document, NULL);
  if (heights == NULL)
    {
      if (render_error != NULL)
        g_propagate_error (error, g_steal_pointer (&render_error));
      else
        g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                             _("nothing to draw: no picture and no heights"));
      return NULL;
    }

  if (TERRAIN_IS_TNT_MAP (document))
    sea = (gint) MIN (terrain_tnt_map_get_sea_level (TERRAIN_TNT_MAP (document)), 255) * 257;
  return draw_heights (heights, sea, size, error);
}

/* Converts whatever layout @image has to RGBA. */
static TerrainImage *
to_rgba (TerrainImage  *image,
         GError       **error)
{
  TerrainImageFormat format = terrain_image_get_format (image);
  g_autoptr(TerrainImage) rgba = NULL;
  const guint8 *src;
  guint8 *dst;
  gsize src_stride, dst_stride;

  if (format == TERRAIN_IMAGE_RGBA8)
    return terrain_image_ref (image);

  rgba = terrain_image_new (TERRAIN_IMAGE_RGBA8, terrain_image_get_width (image),
                            terrain_image_get_height (image), error);
  if (rgba == NULL)
    return NULL;
  src = terrain_image_get_data (image, NULL);
  dst = terrain_image_get_data (rgba, NULL);
  src_stride = terrain_image_get_stride (image);
  dst_stride = terrain_image_get_stride (rgba);
  for (guint y = 0; y < terrain_image_get_height (image); y++)
    for (guint x = 0; x < terrain_image_get_width (image); x++)
      {
        guint8 v;

        if (format == TERRAIN_IMAGE_GRAY8)
          v = src[y * src_stride + x];
        else
          {
            guint16 v16;

            memcpy (&v16, src + y * src_stride + x * 2, 2);
            v = (guint8) (v16 >> 8);
          }
        memset (dst + y * dst_stride + x * 4, v, 3);
        dst[y * dst_stride + x * 4 + 3] = 255;
      }
  return g_steal_pointer (&rgba);
}

int
main (int    argc,
      char **argv)
{
  gint size = DEFAULT_SIZE;
  g_autofree char *palette_path = NULL;
  gboolean version = FALSE;
  const GOptionEntry entries[] = {
    { "size", 's', 0, G_OPTION_ARG_INT, &size,
      N_("Longest side of the thumbnail in pixels (default 256)"), N_("SIZE") },
    { "palette", 'p', 0, G_OPTION_ARG_FILENAME, &palette_path,
      N_("Palette for Total Annihilation maps: PALETTE.PAL or a 256-colour PCX "
         "(default: the editor's palette setting)"), N_("FILE") },
    { "version", 0, 0, G_OPTION_ARG_NONE, &version, N_("Print the program version and exit"),
      NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) input = NULL;
  g_autoptr(GFile) output = NULL;
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(TerrainImage) picture = NULL;
  g_autoptr(TerrainImage) rgba = NULL;
  g_autoptr(TerrainImage) thumbnail = NULL;
  guint width, height;

  setlocale (LC_ALL, "");
  /* TERRAIN_LOCALEDIR: the build tree's catalogues (set by `meson devenv`). */
  bindtextdomain (GETTEXT_PACKAGE,
                  g_getenv ("TERRAIN_LOCALEDIR") != NULL ? g_getenv ("TERRAIN_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  context = g_option_context_new (_("INPUT OUTPUT.png"));
  g_option_context_set_summary (context,
                                _("Draw a PNG preview of a terrain file for file managers: a "
                                  "map's tiles through a palette, the picture libterrain "
                                  "renders of it, or shaded heights."));
  g_option_context_set_description (context,
                                    _("Exit status: 0 thumbnail written; 1 the file could not "
                                      "be read or has nothing to draw; 64 bad usage."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("terrain-thumbnailer: %s\n", error->message);
      return EXIT_USAGE;
    }
  if (version)
    {
      g_print ("terrain-thumbnailer %s (libterrain %s)\n", PACKAGE_VERSION, TERRAIN_VERSION_S);
      return EXIT_OK;
    }
  if (argc != 3 || size < 1 || size > MAX_SIZE)
    {
      g_printerr (_("terrain-thumbnailer: expected [-s SIZE] INPUT OUTPUT.png, SIZE 1..%d\n"),
                  MAX_SIZE);
      return EXIT_USAGE;
    }

  if (palette_path != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (palette_path);

      palette = terrain_palette_new_from_file (file, NULL, &error);
      if (palette == NULL)
        {
          g_printerr ("terrain-thumbnailer: %s: %s\n", palette_path, error->message);
          return EXIT_FAILED;
        }
    }
  else
    palette = palette_from_settings ();

  input = g_file_new_for_commandline_arg (argv[1]);
  output = g_file_new_for_commandline_arg (argv[2]);
  document = terrain_document_load (input, NULL, NULL, &error);
  if (document != NULL)
    picture = draw (document, palette, (guint) size, &error);
  if (picture != NULL)
    rgba = to_rgba (picture, &error);
  if (rgba != NULL)
    {
      fit (terrain_image_get_width (rgba), terrain_image_get_height (rgba), (guint) size,
           &width, &height);
      if (width == terrain_image_get_width (rgba) && height == terrain_image_get_height (rgba))
        thumbnail = terrain_image_ref (rgba);
      else
        thumbnail = scale_rgba (rgba, width, height, &error);
    }
  if (thumbnail == NULL || !terrain_image_save_png (thumbnail, output, NULL, &error))
    {
      g_printerr ("terrain-thumbnailer: %s: %s\n", argv[1], error->message);
      return EXIT_FAILED;
    }

  return EXIT_OK;
}
