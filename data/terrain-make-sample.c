/* terrain-make-sample.c: builds the bundled sample map with libterrain's own writer
 *
 * The sample is generated, never copied from someone else's map: value noise
 * from a fixed seed gives the heights, a generated 256-colour palette gives
 * the colours, and the tiles are painted from the heights.
 *
 * Usage: terrain-make-sample OUT.tnt OUT.pal [OUT-heightmap.png OUT-texture.png]
 *
 * With the last two, the same noise also gives a 257 x 257 16-bit heightmap
 * (centimetres: read it with --vertical-scale 0.01) and a 512 x 512 texture
 * painted from it, the sample input of `terrain build-atlas`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <libterrain.h>

#define SAMPLE_SEED 20261130
#define SAMPLE_WIDTH 64   /* attribute cells */
#define SAMPLE_HEIGHT 48
#define SAMPLE_SEA_LEVEL 60
#define LATTICE 9

typedef struct
{
  double lattice[LATTICE][LATTICE];
  double fine[LATTICE * 4][LATTICE * 4];
} Noise;

static void
noise_init (Noise *noise,
            GRand *rand)
{
  for (guint y = 0; y < LATTICE; y++)
    for (guint x = 0; x < LATTICE; x++)
      noise->lattice[y][x] = g_rand_double (rand);
  for (guint y = 0; y < LATTICE * 4; y++)
    for (guint x = 0; x < LATTICE * 4; x++)
      noise->fine[y][x] = g_rand_double (rand);
}

static double
smooth (double t)
{
  return t * t * (3.0 - 2.0 * t);
}

static double
sample_grid (const double *grid,
             guint         side,
             double        u,
             double        v)
{
  double gx = u * (side - 1), gy = v * (side - 1);
  guint x0 = MIN ((guint) gx, side - 2), y0 = MIN ((guint) gy, side - 2);
  double tx = smooth (gx - x0), ty = smooth (gy - y0);
  double a = grid[y0 * side + x0], b = grid[y0 * side + x0 + 1];
  double c = grid[(y0 + 1) * side + x0], d = grid[(y0 + 1) * side + x0 + 1];

  return (a * (1 - tx) + b * tx) * (1 - ty) + (c * (1 - tx) + d * tx) * ty;
}

/* Terrain height 0..255 at a point given in map fractions. */
static double
terrain_height (const Noise *noise,
                double       u,
                double       v)
{
  double h = 0.75 * sample_grid (&noise->lattice[0][0], LATTICE, u, v) +
             0.25 * sample_grid (&noise->fine[0][0], LATTICE * 4, u, v);

  return CLAMP (h * 1.4 - 0.2, 0.0, 1.0) * 255.0;
}

/* A 256-entry elevation ramp: deep water, shallows, sand, grass, rock, snow.
 * Index i is the colour of height i, so tiles are painted by height. */
static TerrainPalette *
make_palette (void)
{
  static const struct { double at; guint8 r, g, b; } stops[] = {
    { 0.00, 10, 30, 90 },
    { 0.22, 40, 90, 170 },
    { 0.25, 200, 190, 140 },
    { 0.30, 90, 150, 60 },
    { 0.60, 50, 110, 40 },
    { 0.80, 120, 100, 80 },
    { 0.92, 160, 150, 140 },
    { 1.00, 250, 250, 250 },
  };
  guint8 rgb[256 * 3];

  for (guint i = 0; i < 256; i++)
    {
      double t = i / 255.0;
      guint s = 0;

      while (s + 2 < G_N_ELEMENTS (stops) && t > stops[s + 1].at)
        s++;
      {
        double f = (t - stops[s].at) / (stops[s + 1].at - stops[s].at);

        f = CLAMP (f, 0.0, 1.0);
        rgb[3 * i] = (guint8) lround (stops[s].r + f * (stops[s + 1].r - stops[s].r));
        rgb[3 * i + 1] = (guint8) lround (stops[s].g + f * (stops[s + 1].g - stops[s].g));
        rgb[3 * i + 2] = (guint8) lround (stops[s].b + f * (stops[s + 1].b - stops[s].b));
      }
    }

  return terrain_palette_new_from_rgb (rgb, 256);
}

#define HEIGHTMAP_SIDE 257      /* 2^8 + 1 samples */
#define HEIGHTMAP_METRES 120.0   /* height of noise 255 */
#define TEXTURE_SIDE 512

/* Heights in centimetres, north up, as a 16-bit greyscale PNG. */
static gboolean
write_heightmap (const Noise  *noise,
                 const char   *path,
                 GError      **error)
{
  g_autoptr(TerrainImage) image = terrain_image_new (TERRAIN_IMAGE_GRAY16, HEIGHTMAP_SIDE,
                                                     HEIGHTMAP_SIDE, error);
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  guint8 *pixels;

  if (image == NULL)
    return FALSE;
  pixels = terrain_image_get_data (image, NULL);
  for (guint y = 0; y < HEIGHTMAP_SIDE; y++)
    for (guint x = 0; x < HEIGHTMAP_SIDE; x++)
      {
        double h = terrain_height (noise, x / (double) (HEIGHTMAP_SIDE - 1),
                                   y / (double) (HEIGHTMAP_SIDE - 1));
        guint16 centimetres = (guint16) lround (h / 255.0 * HEIGHTMAP_METRES * 100.0);

        memcpy (pixels + y * terrain_image_get_stride (image) + 2 * x, &centimetres, 2);
      }
  return terrain_image_save_png (image, file, NULL, error);
}

/* The heights painted through the palette's elevation ramp and lit from
 * the north-west. */
static gboolean
write_texture (const Noise     *noise,
               TerrainPalette  *palette,
               const char      *path,
               GError         **error)
{
  g_autoptr(TerrainImage) image = terrain_image_new (TERRAIN_IMAGE_RGBA8, TEXTURE_SIDE,
                                                     TEXTURE_SIDE, error);
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  guint8 *pixels;

  if (image == NULL)
    return FALSE;
  pixels = terrain_image_get_data (image, NULL);
  for (guint y = 0; y < TEXTURE_SIDE; y++)
    for (guint x = 0; x < TEXTURE_SIDE; x++)
      {
        double u = (x + 0.5) / TEXTURE_SIDE, v = (y + 0.5) / TEXTURE_SIDE, d = 1.0 / TEXTURE_SIDE;
        double h = terrain_height (noise, u, v);
        double slope = terrain_height (noise, MAX (u - d, 0.0), MAX (v - d, 0.0)) - h;
        double light = CLAMP (1.0 + slope * 0.15, 0.6, 1.3);
        guint8 *p = pixels + y * terrain_image_get_stride (image) + 4 * x;
        guint8 r, g, b;

        terrain_palette_get_color (palette, (guint8) CLAMP (lround (h), 0, 255), &r, &g, &b);
        p[0] = (guint8) CLAMP (lround (r * light), 0, 255);
        p[1] = (guint8) CLAMP (lround (g * light), 0, 255);
        p[2] = (guint8) CLAMP (lround (b * light), 0, 255);
        p[3] = 255;
      }
  return terrain_image_save_png (image, file, NULL, error);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (SAMPLE_SEED);
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(GBytes) pal_bytes = NULL;
  g_autoptr(GFile) tnt_file = NULL;
  g_autoptr(GFile) pal_file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree Noise *noise = g_new0 (Noise, 1);
  guint tree, rock;

  if (argc != 3 && argc != 5)
    {
      g_printerr ("Usage: %s OUT.tnt OUT.pal [OUT-heightmap.png OUT-texture.png]\n", argv[0]);
      return 64;
    }

  noise_init (noise, rand);
  palette = make_palette ();

  map = terrain_tnt_map_new (SAMPLE_WIDTH, SAMPLE_HEIGHT, &error);
  if (map == NULL)
    {
      g_printerr ("%s: %s\n", argv[0], error->message);
      return 1;
    }

  /* Heights at cell corners. */
  for (guint y = 0; y < SAMPLE_HEIGHT; y++)
    for (guint x = 0; x < SAMPLE_WIDTH; x++)
      terrain_tnt_map_set_cell_height (map, x, y,
                                       (guint8) lround (terrain_height (noise,
                                                                        x / (double) SAMPLE_WIDTH,
                                                                        y / (double) SAMPLE_HEIGHT)));

  /* One tile per 32x32 block, painted pixel by pixel from the height field
   * with a little dither; identical tiles (open water) are shared. */
  for (guint row = 0; row < SAMPLE_HEIGHT / 2; row++)
    for (guint column = 0; column < SAMPLE_WIDTH / 2; column++)
      {
        guint8 pixels[TERRAIN_TNT_TILE_BYTES];
        guint index;

        for (guint py = 0; py < 32; py++)
          for (guint px = 0; px < 32; px++)
            {
              double u = (column * 32 + px) / (SAMPLE_WIDTH * 16.0);
              double v = (row * 32 + py) / (SAMPLE_HEIGHT * 16.0);
              double h = terrain_height (noise, u, v);

              if (h < SAMPLE_SEA_LEVEL)
                h = floor (h / 16.0) * 16.0;  /* flat water bands dedupe well */
              else
                h += g_rand_double_range (rand, -3.0, 3.0);
              pixels[py * 32 + px] = (guint8) CLAMP (lround (h), 0, 255);
            }

        index = G_MAXUINT;
        for (guint t = 0; t < terrain_tnt_map_get_n_tiles (map); t++)
          if (memcmp (terrain_tnt_map_get_tile (map, t), pixels, sizeof pixels) == 0)
            {
              index = t;
              break;
            }
        if (index == G_MAXUINT)
          index = terrain_tnt_map_add_tile (map, pixels);
        terrain_tnt_map_set_tile_index (map, column, row, (guint16) index);
      }

  /* A few features on dry land. */
  tree = terrain_tnt_map_add_feature_name (map, "Tree1");
  rock = terrain_tnt_map_add_feature_name (map, "Rock2");
  for (guint i = 0; i < 24; i++)
    {
      guint x = g_rand_int_range (rand, 1, SAMPLE_WIDTH - 1);
      guint y = g_rand_int_range (rand, 1, SAMPLE_HEIGHT - 1);

      if (terrain_tnt_map_get_cell_height (map, x, y) > SAMPLE_SEA_LEVEL + 10 &&
          !terrain_tnt_map_set_cell_feature (map, x, y, (guint16) (i % 3 == 0 ? rock : tree),
                                             &error))
        {
          g_printerr ("%s: %s\n", argv[0], error->message);
          return 1;
        }
    }

  terrain_tnt_map_set_sea_level (map, SAMPLE_SEA_LEVEL, NULL);
  terrain_tnt_map_update_minimap (map, palette);

  tnt_file = g_file_new_for_commandline_arg (argv[1]);
  pal_file = g_file_new_for_commandline_arg (argv[2]);
  pal_bytes = terrain_palette_to_pal_bytes (palette);

  if (!terrain_document_save (TERRAIN_DOCUMENT (map), tnt_file, NULL, &error) ||
      !terrain_file_save_bytes (pal_file, pal_bytes, NULL, &error))
    {
      g_printerr ("%s: %s\n", argv[0], error->message);
      return 1;
    }

  if (argc == 5 &&
      (!write_heightmap (noise, argv[3], &error) ||
       !write_texture (noise, palette, argv[4], &error)))
    {
      g_printerr ("%s: %s\n", argv[0], error->message);
      return 1;
    }

  return 0;
}
