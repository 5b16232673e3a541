/* test-palette.c: nearest-colour lookup and image quantisation
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The fast lookup must return exactly what the exhaustive search returns
 * (squared RGB distance, first exact match wins), so every test compares the
 * two over colours chosen to hit the edges of the lookup's boxes, on
 * palettes built to make ties likely, and on the real PALETTE.PAL when the
 * corpus is present. `-m slow` checks all 16.7 million colours.
 */

#include "config.h"

#include <string.h>

#include "libterrain.h"

typedef enum
{
  PALETTE_RAMP,        /* the test-core ramp, with a duplicate colour */
  PALETTE_RANDOM,      /* 256 colours from a fixed seed */
  PALETTE_ALL_SAME,    /* every entry the same colour: always index 0 */
  PALETTE_TWO,         /* black and white, repeated: ties everywhere */
  PALETTE_GREY,        /* 0, 1, ..., 255 on the grey axis */
  PALETTE_LATTICE,     /* colours on a 4-step lattice: many equidistant ties */
  N_PALETTES
} PaletteKind;

static const char * const palette_names[N_PALETTES] = {
  "ramp", "random", "all-same", "two", "grey", "lattice",
};

static TerrainPalette *
make_palette (PaletteKind kind)
{
  guint8 rgb[768];
  g_autoptr(GRand) rand = g_rand_new_with_seed (1234);

  for (guint i = 0; i < 256; i++)
    {
      guint8 *p = rgb + 3 * i;

      switch (kind)
        {
        case PALETTE_RAMP:
          p[0] = (guint8) i;
          p[1] = (guint8) (255 - i);
          p[2] = (guint8) (i / 2);
          break;
        case PALETTE_RANDOM:
          p[0] = (guint8) g_rand_int_range (rand, 0, 256);
          p[1] = (guint8) g_rand_int_range (rand, 0, 256);
          p[2] = (guint8) g_rand_int_range (rand, 0, 256);
          break;
        case PALETTE_ALL_SAME:
          p[0] = 90;
          p[1] = 20;
          p[2] = 200;
          break;
        case PALETTE_TWO:
          p[0] = p[1] = p[2] = (i % 3 == 1) ? 255 : 0;
          break;
        case PALETTE_GREY:
          p[0] = p[1] = p[2] = (guint8) i;
          break;
        case PALETTE_LATTICE:
          /* Entries at multiples of 64 per channel (4 x 4 x 4 = 64 colours),
           * each repeated four times in a shuffled order. */
          p[0] = (guint8) (((i * 37) % 4) * 64);
          p[1] = (guint8) ((((i * 37) / 4) % 4) * 64);
          p[2] = (guint8) ((((i * 37) / 16) % 4) * 64);
          break;
        case N_PALETTES:
        default:
          g_assert_not_reached ();
        }
    }
  if (kind == PALETTE_RAMP)
    memcpy (rgb + 3 * 200, rgb + 3 * 10, 3);

  return terrain_palette_new_from_rgb (rgb, 256);
}

static TerrainPalette *
load_corpus_palette (void)
{
  const char *dir = g_getenv ("TERRAIN_CORPUS_DIR");
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  TerrainPalette *palette;

  if (dir == NULL)
    return NULL;
  path = g_build_filename (dir, "ta", "PALETTE.PAL", NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return NULL;
  file = g_file_new_for_path (path);
  palette = terrain_palette_new_from_file (file, NULL, &error);
  g_assert_no_error (error);
  return palette;
}

/* Channel values that hit both edges of every 8-wide box, plus a few inside. */
static guint
edge_values (guint8 *values)
{
  guint n = 0;

  for (guint v = 0; v < 256; v++)
    if (v % 8 == 0 || v % 8 == 7 || v % 8 == 3)
      values[n++] = (guint8) v;
  return n;
}

static void
check_fast_matches_exhaustive (TerrainPalette *palette,
                               const char     *name)
{
  guint8 values[256];
  guint n = edge_values (values);
  g_autoptr(GRand) rand = g_rand_new_with_seed (99);
  guint checked = 0;

  /* Every palette colour, and its neighbours one level away. */
  for (guint i = 0; i < 256; i++)
    {
      guint8 r, g, b;

      terrain_palette_get_color (palette, (guint8) i, &r, &g, &b);
      g_assert_cmpuint (terrain_palette_nearest_fast (palette, r, g, b), ==,
                        terrain_palette_nearest (palette, r, g, b));
      /* An entry maps to the first entry holding its colour. */
      g_assert_cmpuint (terrain_palette_nearest (palette, r, g, b), <=, i);
      for (int d = -1; d <= 1; d += 2)
        {
          guint8 rr = (guint8) CLAMP (r + d, 0, 255);
          guint8 gg = (guint8) CLAMP (g - d, 0, 255);
          guint8 bb = (guint8) CLAMP (b + d, 0, 255);

          g_assert_cmpuint (terrain_palette_nearest_fast (palette, rr, gg, bb), ==,
                            terrain_palette_nearest (palette, rr, gg, bb));
        }
    }

  for (guint ri = 0; ri < n; ri++)
    for (guint gi = 0; gi < n; gi++)
      for (guint bi = 0; bi < n; bi += 3)
        {
          guint8 r = values[ri], g = values[gi], b = values[(bi + ri + gi) % n];
          guint8 fast = terrain_palette_nearest_fast (palette, r, g, b);
          guint8 slow = terrain_palette_nearest (palette, r, g, b);

          if (fast != slow)
            g_error ("%s: colour (%u, %u, %u): fast lookup gives %u, exhaustive search %u",
                     name, r, g, b, fast, slow);
          checked++;
        }

  for (guint k = 0; k < 100000; k++)
    {
      guint32 v = g_rand_int (rand);
      guint8 r = v & 0xff, g = (v >> 8) & 0xff, b = (v >> 16) & 0xff;

      g_assert_cmpuint (terrain_palette_nearest_fast (palette, r, g, b), ==,
                        terrain_palette_nearest (palette, r, g, b));
      checked++;
    }

  g_test_message ("%s: %u colours agree", name, checked);
}

static void
test_nearest_fast (gconstpointer data)
{
  PaletteKind kind = GPOINTER_TO_UINT (data);
  g_autoptr(TerrainPalette) palette = make_palette (kind);

  check_fast_matches_exhaustive (palette, palette_names[kind]);

  if (kind == PALETTE_ALL_SAME)
    {
      g_assert_cmpuint (terrain_palette_nearest_fast (palette, 0, 0, 0), ==, 0);
      g_assert_cmpuint (terrain_palette_nearest_fast (palette, 255, 255, 255), ==, 0);
    }
  if (kind == PALETTE_TWO)
    {
      /* Black is entry 0, white entry 1; grey 127 is closer to black. */
      g_assert_cmpuint (terrain_palette_nearest_fast (palette, 127, 127, 127), ==, 0);
      g_assert_cmpuint (terrain_palette_nearest_fast (palette, 128, 128, 128), ==, 1);
    }
  if (kind == PALETTE_RAMP)
    {
      /* Entry 200 repeats entry 10's colour: the first exact match wins. */
      g_assert_cmpuint (terrain_palette_nearest_fast (palette, 10, 245, 5), ==, 10);
    }
}

static void
test_nearest_fast_corpus (void)
{
  g_autoptr(TerrainPalette) palette = load_corpus_palette ();

  if (palette == NULL)
    {
      g_test_skip ("corpus PALETTE.PAL not found");
      return;
    }
  check_fast_matches_exhaustive (palette, "PALETTE.PAL");
}

/* Every one of the 16.7 million colours, on the real palette when present and
 * on the tie-heavy lattice palette. */
static void
test_nearest_fast_all_colours (void)
{
  g_autoptr(TerrainPalette) corpus = load_corpus_palette ();
  g_autoptr(TerrainPalette) lattice = make_palette (PALETTE_LATTICE);
  TerrainPalette *palettes[2] = { lattice, corpus };

  if (!g_test_slow ())
    {
      g_test_skip ("checks all 2^24 colours; run with -m slow");
      return;
    }

  for (guint p = 0; p < G_N_ELEMENTS (palettes); p++)
    {
      if (palettes[p] == NULL)
        continue;
      for (guint r = 0; r < 256; r++)
        for (guint g = 0; g < 256; g++)
          for (guint b = 0; b < 256; b++)
            if (terrain_palette_nearest_fast (palettes[p], r, g, b) !=
                terrain_palette_nearest (palettes[p], r, g, b))
              g_error ("palette %u: colour (%u, %u, %u) differs", p, r, g, b);
    }
}

/* A grey image of @value, with @pad garbage bytes after each row. */
static guint8 *
make_flat_image (guint   width,
                 guint   height,
                 gsize   pad,
                 guint8  value,
                 gsize  *stride)
{
  guint8 *rgba;

  *stride = 4 * (gsize) width + pad;
  rgba = g_malloc (*stride * height);
  memset (rgba, 0xA5, *stride * height);
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        guint8 *p = rgba + y * *stride + 4 * x;

        p[0] = p[1] = p[2] = value;
        p[3] = 0xff;
      }
  return rgba;
}

static double
white_fraction (const guint8 *indices,
                gsize         n)
{
  gsize white = 0;

  for (gsize i = 0; i < n; i++)
    if (indices[i] == 1)
      white++;
  return (double) white / (double) n;
}

static void
test_quantize_none (void)
{
  g_autoptr(TerrainPalette) palette = make_palette (PALETTE_RANDOM);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  const guint width = 37, height = 23;
  gsize stride = 4 * width + 5;
  g_autofree guint8 *rgba = g_malloc (stride * height);
  g_autofree guint8 *indices = g_malloc (width * height);

  for (gsize i = 0; i < stride * height; i++)
    rgba[i] = (guint8) g_rand_int_range (rand, 0, 256);

  terrain_palette_quantize_rgba (palette, rgba, width, height, stride, TERRAIN_DITHER_NONE,
                                 indices);
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        const guint8 *p = rgba + y * stride + 4 * x;

        g_assert_cmpuint (indices[y * width + x], ==,
                          terrain_palette_nearest (palette, p[0], p[1], p[2]));
      }
}

/* A picture made of palette colours comes back as exactly those entries,
 * whatever the dithering: there is no error to spread. For ordered dithering
 * this holds only where the offset does not move the colour to another
 * entry, so it is checked on the two-colour palette, whose entries are 255
 * apart. */
static void
test_quantize_exact_colours (void)
{
  g_autoptr(TerrainPalette) palette = make_palette (PALETTE_RANDOM);
  g_autoptr(TerrainPalette) two = make_palette (PALETTE_TWO);
  const guint width = 16, height = 9;
  guint8 rgba[16 * 9 * 4];
  guint8 expected[16 * 9];
  guint8 indices[16 * 9];

  for (guint i = 0; i < width * height; i++)
    {
      guint8 index = (guint8) ((i * 29) % 256);

      terrain_palette_get_color (palette, index, &rgba[4 * i], &rgba[4 * i + 1],
                                 &rgba[4 * i + 2]);
      rgba[4 * i + 3] = 0;  /* alpha is ignored */
      expected[i] = terrain_palette_nearest (palette, rgba[4 * i], rgba[4 * i + 1],
                                             rgba[4 * i + 2]);
    }

  terrain_palette_quantize_rgba (palette, rgba, width, height, 4 * width,
                                 TERRAIN_DITHER_NONE, indices);
  g_assert_cmpmem (indices, sizeof indices, expected, sizeof expected);
  terrain_palette_quantize_rgba (palette, rgba, width, height, 4 * width,
                                 TERRAIN_DITHER_FLOYD_STEINBERG, indices);
  g_assert_cmpmem (indices, sizeof indices, expected, sizeof expected);

  for (guint i = 0; i < width * height; i++)
    {
      guint8 v = (i % 5 == 0) ? 255 : 0;

      rgba[4 * i] = rgba[4 * i + 1] = rgba[4 * i + 2] = v;
      expected[i] = v == 255 ? 1 : 0;
    }
  terrain_palette_quantize_rgba (two, rgba, width, height, 4 * width,
                                 TERRAIN_DITHER_ORDERED, indices);
  g_assert_cmpmem (indices, sizeof indices, expected, sizeof expected);
}

/* Mid grey on a black-and-white palette: without dithering every pixel goes
 * to white (128 is nearer 255 than 0); ordered dithering and error diffusion
 * mix the two so that the average comes close to 128 / 255. */
static void
test_quantize_dither_mix (void)
{
  g_autoptr(TerrainPalette) palette = make_palette (PALETTE_TWO);
  const guint width = 64, height = 64;
  gsize stride;
  g_autofree guint8 *rgba = make_flat_image (width, height, 12, 128, &stride);
  g_autofree guint8 *none = g_malloc (width * height);
  g_autofree guint8 *ordered = g_malloc (width * height);
  g_autofree guint8 *fs = g_malloc (width * height);
  g_autofree guint8 *again = g_malloc (width * height);
  g_autofree guint8 *dark = make_flat_image (width, height, 0, 64, &stride);
  double f;

  stride = 4 * width + 12;
  terrain_palette_quantize_rgba (palette, rgba, width, height, stride, TERRAIN_DITHER_NONE, none);
  g_assert_cmpfloat (white_fraction (none, width * height), ==, 1.0);

  terrain_palette_quantize_rgba (palette, rgba, width, height, stride, TERRAIN_DITHER_ORDERED,
                                 ordered);
  /* Offsets -16..+15 around 128: the pixels whose offset is negative go black. */
  f = white_fraction (ordered, width * height);
  g_assert_cmpfloat (f, >, 0.4);
  g_assert_cmpfloat (f, <, 0.6);
  /* The pattern repeats every 8 pixels. */
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      g_assert_cmpuint (ordered[y * width + x], ==, ordered[(y % 8) * width + x % 8]);

  terrain_palette_quantize_rgba (palette, rgba, width, height, stride,
                                 TERRAIN_DITHER_FLOYD_STEINBERG, fs);
  f = white_fraction (fs, width * height);
  g_assert_cmpfloat (ABS (f - 128.0 / 255.0), <, 0.01);

  /* Deterministic. */
  terrain_palette_quantize_rgba (palette, rgba, width, height, stride,
                                 TERRAIN_DITHER_FLOYD_STEINBERG, again);
  g_assert_cmpmem (fs, width * height, again, width * height);

  /* A darker grey gives proportionally fewer white pixels. */
  stride = 4 * width;
  terrain_palette_quantize_rgba (palette, dark, width, height, stride,
                                 TERRAIN_DITHER_FLOYD_STEINBERG, fs);
  f = white_fraction (fs, width * height);
  g_assert_cmpfloat (ABS (f - 64.0 / 255.0), <, 0.01);
}

/* Degenerate sizes and saturated colours do not overflow the error sums. */
static void
test_quantize_edges (void)
{
  g_autoptr(TerrainPalette) palette = make_palette (PALETTE_GREY);
  g_autoptr(TerrainPalette) two = make_palette (PALETTE_TWO);
  guint8 pixel[4] = { 255, 0, 255, 255 };
  guint8 index = 0xEE;
  guint8 column[4 * 50];
  guint8 out[50];

  terrain_palette_quantize_rgba (palette, pixel, 1, 1, 4, TERRAIN_DITHER_FLOYD_STEINBERG, &index);
  g_assert_cmpuint (index, ==, terrain_palette_nearest (palette, 255, 0, 255));
  terrain_palette_quantize_rgba (palette, pixel, 1, 1, 4, TERRAIN_DITHER_ORDERED, &index);
  /* Bayer threshold 0 at (0, 0): offset -16. */
  g_assert_cmpuint (index, ==, terrain_palette_nearest (palette, 255 - 16, 0, 255 - 16));

  /* Nothing to do for an empty image, and nothing written. */
  index = 0xEE;
  terrain_palette_quantize_rgba (palette, NULL, 0, 5, 0, TERRAIN_DITHER_FLOYD_STEINBERG, NULL);
  g_assert_cmpuint (index, ==, 0xEE);

  /* One column of alternating extremes through error diffusion. */
  for (guint i = 0; i < 50; i++)
    {
      column[4 * i] = column[4 * i + 1] = column[4 * i + 2] = (i % 2) ? 255 : 0;
      column[4 * i + 3] = 255;
    }
  terrain_palette_quantize_rgba (two, column, 1, 50, 4, TERRAIN_DITHER_FLOYD_STEINBERG, out);
  for (guint i = 0; i < 50; i++)
    g_assert_cmpuint (out[i], ==, (i % 2) ? 1 : 0);
}

static void
test_quantize_image (void)
{
  g_autoptr(TerrainPalette) palette = make_palette (PALETTE_GREY);
  g_autoptr(TerrainImage) grey = NULL;
  g_autoptr(TerrainImage) rgba = NULL;
  g_autoptr(TerrainImage) deep = NULL;
  g_autoptr(GBytes) indices = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *data;
  guint8 *pixels;
  gsize size, stride;

  grey = terrain_image_new (TERRAIN_IMAGE_GRAY8, 5, 3, &error);
  g_assert_no_error (error);
  pixels = terrain_image_get_data (grey, NULL);
  stride = terrain_image_get_stride (grey);
  for (guint y = 0; y < 3; y++)
    for (guint x = 0; x < 5; x++)
      pixels[y * stride + x] = (guint8) (y * 50 + x);

  indices = terrain_palette_quantize_image (palette, grey, TERRAIN_DITHER_NONE, &error);
  g_assert_no_error (error);
  data = g_bytes_get_data (indices, &size);
  g_assert_cmpuint (size, ==, 15);
  for (guint y = 0; y < 3; y++)
    for (guint x = 0; x < 5; x++)
      g_assert_cmpuint (data[y * 5 + x], ==, y * 50 + x);
  g_clear_pointer (&indices, g_bytes_unref);

  rgba = terrain_image_new (TERRAIN_IMAGE_RGBA8, 2, 2, &error);
  g_assert_no_error (error);
  pixels = terrain_image_get_data (rgba, &size);
  memset (pixels, 200, size);
  indices = terrain_palette_quantize_image (palette, rgba, TERRAIN_DITHER_ORDERED, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (indices), ==, 4);

  deep = terrain_image_new (TERRAIN_IMAGE_GRAY16, 2, 2, &error);
  g_assert_no_error (error);
  g_assert_null (terrain_palette_quantize_image (palette, deep, TERRAIN_DITHER_NONE, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
}

/* Not an assertion on speed, a measurement for the report: one megapixel of
 * noise through the exhaustive search and through the table. */
static void
test_quantize_speed (void)
{
  g_autoptr(TerrainPalette) corpus = load_corpus_palette ();
  g_autoptr(TerrainPalette) fallback = make_palette (PALETTE_RANDOM);
  TerrainPalette *palette = corpus != NULL ? corpus : fallback;
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  const guint side = 1024;
  g_autofree guint8 *rgba = g_malloc ((gsize) 4 * side * side);
  g_autofree guint8 *fast = g_malloc ((gsize) side * side);
  g_autofree guint8 *slow = g_malloc ((gsize) side * side);
  gint64 t0, t1, t2, t3;

  for (gsize i = 0; i < (gsize) 4 * side * side; i++)
    rgba[i] = (guint8) g_rand_int_range (rand, 0, 256);

  t0 = g_get_monotonic_time ();
  terrain_palette_nearest_fast (palette, 0, 0, 0);  /* builds the table */
  t1 = g_get_monotonic_time ();
  terrain_palette_quantize_rgba (palette, rgba, side, side, 4 * side, TERRAIN_DITHER_NONE, fast);
  t2 = g_get_monotonic_time ();
  for (gsize i = 0; i < (gsize) side * side; i++)
    slow[i] = terrain_palette_nearest (palette, rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2]);
  t3 = g_get_monotonic_time ();

  g_assert_cmpmem (fast, (gsize) side * side, slow, (gsize) side * side);
  g_test_message ("%s: table built in %.1f ms; 1 Mpixel quantised in %.1f ms (table) vs "
                  "%.1f ms (exhaustive)", corpus != NULL ? "PALETTE.PAL" : "random palette",
                  (t1 - t0) / 1000.0, (t2 - t1) / 1000.0, (t3 - t2) / 1000.0);
}

/* A palette gives render_image its colours through the format-neutral
 * TerrainRenderOptions; NULL gives options without a table. */
static void
test_render_options (void)
{
  guint8 rgb[3 * 256] = { 0 };
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(TerrainRenderOptions) options = NULL;
  g_autoptr(TerrainRenderOptions) empty = NULL;
  g_autoptr(GBytes) short_table = g_bytes_new_static (rgb, sizeof rgb);
  g_autoptr(GError) error = NULL;
  const guint8 *table;

  for (guint i = 0; i < 256; i++)
    {
      rgb[3 * i] = (guint8) i;
      rgb[3 * i + 1] = (guint8) (255 - i);
      rgb[3 * i + 2] = (guint8) (i * 7);
    }
  palette = terrain_palette_new_from_rgb (rgb, 256);
  options = terrain_palette_to_render_options (palette);
  table = terrain_render_options_get_rgba_table (options);
  g_assert_nonnull (table);
  g_assert_cmpuint (g_bytes_get_size (terrain_render_options_get_colors (options)), ==, 1024);
  g_assert_cmpmem (table, 1024, terrain_palette_get_rgba_table (palette), 1024);
  g_assert_cmpuint (table[4 * 200 + 1], ==, 55);
  g_assert_cmpuint (table[4 * 200 + 3], ==, 255);

  empty = terrain_palette_to_render_options (NULL);
  g_assert_null (terrain_render_options_get_rgba_table (empty));
  g_assert_null (terrain_render_options_get_rgba_table (NULL));

  /* A table of 256 RGB entries is not a table of RGBA ones. */
  g_assert_false (terrain_render_options_set_colors (options, short_table, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_cmpmem (terrain_render_options_get_rgba_table (options), 1024,
                   terrain_palette_get_rgba_table (palette), 1024);
  g_assert_true (terrain_render_options_set_colors (options, NULL, NULL));
  g_assert_null (terrain_render_options_get_colors (options));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint k = 0; k < N_PALETTES; k++)
    {
      g_autofree char *path = g_strdup_printf ("/Terrain/Palette/nearest-fast/%s",
                                               palette_names[k]);

      g_test_add_data_func (path, GUINT_TO_POINTER (k), test_nearest_fast);
    }
  g_test_add_func ("/Terrain/Palette/nearest-fast/corpus", test_nearest_fast_corpus);
  g_test_add_func ("/Terrain/Palette/nearest-fast/all-colours", test_nearest_fast_all_colours);
  g_test_add_func ("/Terrain/Palette/quantize/none", test_quantize_none);
  g_test_add_func ("/Terrain/Palette/quantize/exact-colours", test_quantize_exact_colours);
  g_test_add_func ("/Terrain/Palette/quantize/dither-mix", test_quantize_dither_mix);
  g_test_add_func ("/Terrain/Palette/quantize/edges", test_quantize_edges);
  g_test_add_func ("/Terrain/Palette/quantize/image", test_quantize_image);
  g_test_add_func ("/Terrain/Palette/quantize/speed", test_quantize_speed);
  g_test_add_func ("/Terrain/Palette/render-options", test_render_options);

  return g_test_run ();
}
