/* terrain-palette.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-palette.h"
#include "core/terrain-error.h"
#include "core/terrain-io.h"
#include "core/terrain-reader-private.h"

/* The fast nearest-colour lookup divides RGB space into 32 x 32 x 32 boxes of
 * 8 x 8 x 8 colours and keeps, per box, every palette entry that can be the
 * nearest to some colour of the box (see build_nearest_cache()). */
#define CACHE_BITS    5
#define CACHE_SIDE    (1 << CACHE_BITS)
#define CACHE_BOXES   (CACHE_SIDE * CACHE_SIDE * CACHE_SIDE)
#define BOX_SIDE      (256 / CACHE_SIDE)

typedef struct
{
  /* Candidates of box b are candidates[start[b] .. start[b + 1]), ascending. */
  guint32 start[CACHE_BOXES + 1];
  guint8 *candidates;
} NearestCache;

struct _TerrainPalette
{
  guint8 rgba[256 * 4];
  /* Bytes 3 of each PALETTE.PAL entry ("unused"), kept for writing back. */
  guint8 extra[256];
  /* Built on first use by terrain_palette_nearest_fast(); the palette never
   * changes, so neither does the cache. */
  NearestCache *cache;
};

G_DEFINE_BOXED_TYPE (TerrainPalette, terrain_palette, terrain_palette_ref, terrain_palette_unref)

#define PAL_SIZE 1024
#define PCX_PALETTE_SIZE 768
#define PCX_PALETTE_MARKER 0x0C

/**
 * terrain_palette_new_from_rgb:
 * @rgb: (array length=n_colors): R, G, B triples
 * @n_colors: number of triples, at most 256; missing entries are black
 *
 * Creates a palette from 256 RGB triples.
 *
 * Returns: (transfer full): a new palette
 */
TerrainPalette *
terrain_palette_new_from_rgb (const guint8 *rgb,
                              gsize         n_colors)
{
  TerrainPalette *palette = g_atomic_rc_box_new0 (TerrainPalette);

  n_colors = MIN (n_colors, 256);
  for (guint i = 0; i < 256; i++)
    {
      if (i < n_colors)
        memcpy (palette->rgba + 4 * i, rgb + 3 * i, 3);
      palette->rgba[4 * i + 3] = 0xff;
    }

  return palette;
}

/**
 * terrain_palette_new_from_bytes:
 * @bytes: a palette file's contents
 * @error: return location for a #GError
 *
 * Reads a palette: either a Total Annihilation `PALETTE.PAL` (exactly 1024
 * bytes: 256 entries of R, G, B, unused) or a PCX file, whose palette is the
 * last 768 bytes, preceded by the marker byte 0x0C (field-notes.md, "Total
 * Annihilation ecosystem").
 *
 * Returns: (transfer full) (nullable): the palette, or %NULL with
 *   %TERRAIN_ERROR_BAD_MAGIC or %TERRAIN_ERROR_TRUNCATED
 */
TerrainPalette *
terrain_palette_new_from_bytes (GBytes  *bytes,
                                GError **error)
{
  TerrainReader reader;
  const guint8 *data;
  TerrainPalette *palette;
  gsize size;

  g_return_val_if_fail (bytes != NULL, NULL);

  terrain_reader_init (&reader, bytes, "palette");
  size = terrain_reader_get_size (&reader);

  if (size == PAL_SIZE)
    {
      if (!terrain_reader_read_bytes (&reader, PAL_SIZE, &data, error))
        return NULL;
      palette = g_atomic_rc_box_new0 (TerrainPalette);
      for (guint i = 0; i < 256; i++)
        {
          memcpy (palette->rgba + 4 * i, data + 4 * i, 3);
          palette->rgba[4 * i + 3] = 0xff;
          palette->extra[i] = data[4 * i + 3];
        }
      return palette;
    }

  if (size >= 128 + PCX_PALETTE_SIZE + 1)
    {
      guint8 manufacturer, marker;

      if (!terrain_reader_read_u8 (&reader, &manufacturer, error) ||
          !terrain_reader_seek (&reader, size - PCX_PALETTE_SIZE - 1, error) ||
          !terrain_reader_read_u8 (&reader, &marker, error) ||
          !terrain_reader_read_bytes (&reader, PCX_PALETTE_SIZE, &data, error))
        return NULL;

      if (manufacturer == 0x0A && marker == PCX_PALETTE_MARKER)
        return terrain_palette_new_from_rgb (data, 256);
    }

  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
               "palette: %" G_GSIZE_FORMAT " bytes is neither a 1024-byte PALETTE.PAL nor a "
               "PCX file with a 256-colour palette (marker 0x0C before the last 768 bytes)",
               size);
  return NULL;
}

/**
 * terrain_palette_new_from_file:
 * @file: a `.pal` or `.pcx` file
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Loads a palette file, see [ctor@Terrain.Palette.new_from_bytes].
 *
 * Returns: (transfer full) (nullable): the palette
 */
TerrainPalette *
terrain_palette_new_from_file (GFile         *file,
                               GCancellable  *cancellable,
                               GError       **error)
{
  g_autoptr(GBytes) bytes = terrain_file_load_bytes (file, cancellable, error);

  if (bytes == NULL)
    return NULL;
  return terrain_palette_new_from_bytes (bytes, error);
}

/**
 * terrain_palette_ref:
 * @palette: a #TerrainPalette
 *
 * Takes a reference on @palette.
 *
 * Returns: (transfer full): @palette
 */
TerrainPalette *
terrain_palette_ref (TerrainPalette *palette)
{
  return g_atomic_rc_box_acquire (palette);
}

/**
 * terrain_palette_unref:
 * @palette: (transfer full): a #TerrainPalette
 *
 * Drops a reference.
 */
static void
terrain_palette_clear (TerrainPalette *palette)
{
  if (palette->cache != NULL)
    {
      g_free (palette->cache->candidates);
      g_free (palette->cache);
    }
}

void
terrain_palette_unref (TerrainPalette *palette)
{
  g_atomic_rc_box_release_full (palette, (GDestroyNotify) terrain_palette_clear);
}

/**
 * terrain_palette_get_color:
 * @palette: a #TerrainPalette
 * @index: palette index
 * @r: (out): red
 * @g: (out): green
 * @b: (out): blue
 *
 * Looks up one entry.
 */
void
terrain_palette_get_color (const TerrainPalette *palette,
                           guint8                index,
                           guint8               *r,
                           guint8               *g,
                           guint8               *b)
{
  *r = palette->rgba[4 * index];
  *g = palette->rgba[4 * index + 1];
  *b = palette->rgba[4 * index + 2];
}

/**
 * terrain_palette_get_rgba_table:
 * @palette: a #TerrainPalette
 *
 * Gets the palette as an RGBA lookup table.
 *
 * Returns: (transfer none) (array fixed-size=1024): 256 R, G, B, A entries
 *   (alpha is always 255), for expanding indexed pixels quickly
 */
const guint8 *
terrain_palette_get_rgba_table (const TerrainPalette *palette)
{
  return palette->rgba;
}

/**
 * terrain_palette_to_render_options:
 * @palette: (nullable): a #TerrainPalette
 *
 * Makes the format-neutral input of [method@Terrain.Document.render_image]
 * that draws palette indices through @palette: its colour table is
 * [method@Terrain.Palette.get_rgba_table].
 *
 * Returns: (transfer full): new options; with no colour table when @palette
 *   is %NULL (indexed-colour formats then fail to render, saying that a
 *   palette is needed)
 */
TerrainRenderOptions *
terrain_palette_to_render_options (const TerrainPalette *palette)
{
  TerrainRenderOptions *options = terrain_render_options_new ();

  if (palette != NULL)
    {
      g_autoptr(GBytes) rgba = g_bytes_new (palette->rgba, sizeof palette->rgba);

      if (!terrain_render_options_set_colors (options, rgba, NULL))
        g_assert_not_reached ();
    }

  return options;
}

/**
 * terrain_palette_nearest:
 * @palette: a #TerrainPalette
 * @r: red
 * @g: green
 * @b: blue
 *
 * Finds the entry closest to a colour by squared RGB distance; among equally
 * close entries the lowest index wins, so an exact match returns the first
 * entry holding that colour.
 *
 * Returns: the palette index
 */
guint8
terrain_palette_nearest (const TerrainPalette *palette,
                         guint8                r,
                         guint8                g,
                         guint8                b)
{
  guint best = 0;
  guint best_distance = G_MAXUINT;

  for (guint i = 0; i < 256; i++)
    {
      int dr = (int) palette->rgba[4 * i] - r;
      int dg = (int) palette->rgba[4 * i + 1] - g;
      int db = (int) palette->rgba[4 * i + 2] - b;
      guint distance = (guint) (dr * dr + dg * dg + db * db);

      if (distance < best_distance)
        {
          best = i;
          best_distance = distance;
          if (distance == 0)
            break;
        }
    }

  return (guint8) best;
}

static inline guint
squared_distance (const guint8 *entry,
                  int           r,
                  int           g,
                  int           b)
{
  int dr = (int) entry[0] - r;
  int dg = (int) entry[1] - g;
  int db = (int) entry[2] - b;

  return (guint) (dr * dr + dg * dg + db * db);
}

/* Squared distance from @v to the nearest and the farthest point of the
 * interval [lo, lo + BOX_SIDE - 1]. */
static inline void
axis_range (int   v,
            int   lo,
            guint *near,
            guint *far)
{
  int hi = lo + BOX_SIDE - 1;
  int dn = v < lo ? lo - v : v > hi ? v - hi : 0;
  int df = MAX (ABS (v - lo), ABS (v - hi));

  *near = (guint) (dn * dn);
  *far = (guint) (df * df);
}

/* For each box, an entry j can be the nearest to some colour c of the box
 * only if its distance to the box (dmin_j) is at most M, the smallest over all
 * entries of the distance to the box's farthest corner (dmax): the winner at
 * c is no farther than the entry achieving M, which is at most M from every
 * colour of the box. Keeping every entry with dmin_j <= M, in ascending index
 * order, therefore keeps every entry that can tie for nearest anywhere in the
 * box, and a search over the list with the same "strictly closer" rule
 * returns exactly what the search over all 256 entries returns. */
static NearestCache *
build_nearest_cache (const TerrainPalette *palette)
{
  NearestCache *cache = g_new0 (NearestCache, 1);
  GByteArray *candidates = g_byte_array_sized_new (CACHE_BOXES * 8);
  /* Per axis and box row, each entry's squared distance to the nearest and
   * the farthest value of the row; a box's distances are sums of three. */
  g_autofree guint *near = g_new (guint, 3 * CACHE_SIDE * 256);
  g_autofree guint *far = g_new (guint, 3 * CACHE_SIDE * 256);
  guint near_rg[256], far_rg[256];
  guint box = 0;

  for (guint axis = 0; axis < 3; axis++)
    for (guint k = 0; k < CACHE_SIDE; k++)
      for (guint i = 0; i < 256; i++)
        axis_range (palette->rgba[4 * i + axis], (int) (k * BOX_SIDE),
                    &near[(axis * CACHE_SIDE + k) * 256 + i],
                    &far[(axis * CACHE_SIDE + k) * 256 + i]);

  for (guint rb = 0; rb < CACHE_SIDE; rb++)
    for (guint gb = 0; gb < CACHE_SIDE; gb++)
      {
        const guint *nr = near + (0 * CACHE_SIDE + rb) * 256;
        const guint *fr = far + (0 * CACHE_SIDE + rb) * 256;
        const guint *ng = near + (1 * CACHE_SIDE + gb) * 256;
        const guint *fg = far + (1 * CACHE_SIDE + gb) * 256;

        for (guint i = 0; i < 256; i++)
          {
            near_rg[i] = nr[i] + ng[i];
            far_rg[i] = fr[i] + fg[i];
          }

        for (guint bb = 0; bb < CACHE_SIDE; bb++, box++)
          {
            const guint *nb = near + (2 * CACHE_SIDE + bb) * 256;
            const guint *fb = far + (2 * CACHE_SIDE + bb) * 256;
            guint limit = G_MAXUINT;

            for (guint i = 0; i < 256; i++)
              limit = MIN (limit, far_rg[i] + fb[i]);

            cache->start[box] = candidates->len;
            for (guint i = 0; i < 256; i++)
              if (near_rg[i] + nb[i] <= limit)
                {
                  guint8 index = (guint8) i;

                  g_byte_array_append (candidates, &index, 1);
                }
          }
      }
  cache->start[CACHE_BOXES] = candidates->len;
  cache->candidates = g_byte_array_free (candidates, FALSE);

  return cache;
}

static const NearestCache *
get_nearest_cache (const TerrainPalette *palette)
{
  /* The palette is immutable; the cache is derived data, built once. */
  TerrainPalette *mutable = (TerrainPalette *) palette;

  if (g_once_init_enter (&mutable->cache))
    g_once_init_leave (&mutable->cache, build_nearest_cache (palette));

  return palette->cache;
}

static inline guint8
cache_lookup (const TerrainPalette *palette,
              const NearestCache   *cache,
              guint8                r,
              guint8                g,
              guint8                b)
{
  guint box = ((guint) (r >> (8 - CACHE_BITS)) << (2 * CACHE_BITS)) |
              ((guint) (g >> (8 - CACHE_BITS)) << CACHE_BITS) |
              (guint) (b >> (8 - CACHE_BITS));
  guint first = cache->start[box];
  guint last = cache->start[box + 1];
  guint best = cache->candidates[first];
  guint best_distance;

  if (last - first == 1)
    return (guint8) best;

  best_distance = squared_distance (palette->rgba + 4 * best, r, g, b);
  for (guint k = first + 1; k < last && best_distance > 0; k++)
    {
      guint i = cache->candidates[k];
      guint distance = squared_distance (palette->rgba + 4 * i, r, g, b);

      if (distance < best_distance)
        {
          best = i;
          best_distance = distance;
        }
    }

  return (guint8) best;
}

/**
 * terrain_palette_nearest_fast:
 * @palette: a #TerrainPalette
 * @r: red
 * @g: green
 * @b: blue
 *
 * Returns exactly what [method@Terrain.Palette.nearest] returns (squared RGB
 * distance, lowest index among equally close entries), through a table built
 * on the first call: RGB space is cut into 32 x 32 x 32 boxes, each holding
 * the few entries that can be nearest somewhere in it. Building takes a few
 * milliseconds and about 200 KiB; a lookup then compares a handful of
 * entries instead of 256. Thread-safe.
 *
 * Returns: the palette index
 */
guint8
terrain_palette_nearest_fast (const TerrainPalette *palette,
                              guint8                r,
                              guint8                g,
                              guint8                b)
{
  g_return_val_if_fail (palette != NULL, 0);

  return cache_lookup (palette, get_nearest_cache (palette), r, g, b);
}

/* The 8x8 Bayer matrix: thresholds 0..63 in the classic recursive order. */
static const guint8 bayer8[8][8] = {
  {  0, 32,  8, 40,  2, 34, 10, 42 },
  { 48, 16, 56, 24, 50, 18, 58, 26 },
  { 12, 44,  4, 36, 14, 46,  6, 38 },
  { 60, 28, 52, 20, 62, 30, 54, 22 },
  {  3, 35, 11, 43,  1, 33,  9, 41 },
  { 51, 19, 59, 27, 49, 17, 57, 25 },
  { 15, 47,  7, 39, 13, 45,  5, 37 },
  { 63, 31, 55, 23, 61, 29, 53, 21 },
};

static inline guint8
clamp_channel (int v)
{
  return (guint8) CLAMP (v, 0, 255);
}

/* Rounds @sum / 16 to the nearest integer, halves away from zero, so that
 * the diffusion is symmetric for positive and negative errors. */
static inline int
div16_round (int sum)
{
  return sum >= 0 ? (sum + 8) / 16 : -((-sum + 8) / 16);
}

static void
quantize_floyd_steinberg (const TerrainPalette *palette,
                          const NearestCache   *cache,
                          const guint8         *rgba,
                          guint                 width,
                          guint                 height,
                          gsize                 stride,
                          guint8               *indices)
{
  /* Error sums (in sixteenths) for this row and the next, one spare column
   * at each end so that the edges need no special case. */
  gsize columns = (gsize) width + 2;
  g_autofree int *current = g_new0 (int, 3 * columns);
  g_autofree int *next = g_new0 (int, 3 * columns);

  for (guint y = 0; y < height; y++)
    {
      const guint8 *row = rgba + (gsize) y * stride;
      int *swap;

      memset (next, 0, 3 * columns * sizeof (int));
      for (guint x = 0; x < width; x++)
        {
          int *err = current + 3 * ((gsize) x + 1);
          int value[3];
          const guint8 *chosen;
          guint8 index;

          for (guint c = 0; c < 3; c++)
            value[c] = clamp_channel (row[4 * (gsize) x + c] + div16_round (err[c]));

          index = cache_lookup (palette, cache, (guint8) value[0], (guint8) value[1],
                                (guint8) value[2]);
          indices[(gsize) y * width + x] = index;
          chosen = palette->rgba + 4 * index;

          for (guint c = 0; c < 3; c++)
            {
              int e = value[c] - chosen[c];

              err[3 + c] += 7 * e;
              next[3 * (gsize) x + c] += 3 * e;
              next[3 * ((gsize) x + 1) + c] += 5 * e;
              next[3 * ((gsize) x + 2) + c] += e;
            }
        }
      swap = current;
      current = next;
      next = swap;
    }
}

/**
 * terrain_palette_quantize_rgba: (skip)
 * @palette: a #TerrainPalette
 * @rgba: (array): @height rows of @width R, G, B, A pixels, @stride bytes apart
 * @width: pixels per row
 * @height: rows
 * @stride: bytes from one row to the next, at least 4 x @width
 * @dither: how to spread the quantisation error
 * @indices: (out caller-allocates) (array): @width x @height bytes, row-major,
 *   receiving the palette indices
 *
 * Maps an RGBA image to palette indices: each pixel (alpha ignored) to its
 * nearest entry by squared RGB distance, first exact match winning, as in
 * [method@Terrain.Palette.nearest] (field-notes.md, "Total Annihilation
 * ecosystem"). With %TERRAIN_DITHER_NONE a pixel whose colour is in the
 * palette maps to that colour's first entry. Dithering is deterministic
 * (integer arithmetic only), so the same input always gives the same indices.
 *
 * Not introspectable: both buffers are sized by @stride and @height, which
 * no single length describes; bindings call
 * [method@Terrain.Palette.quantize_rgba_bytes] under this name.
 */
void
terrain_palette_quantize_rgba (const TerrainPalette *palette,
                               const guint8         *rgba,
                               guint                 width,
                               guint                 height,
                               gsize                 stride,
                               TerrainDither         dither,
                               guint8               *indices)
{
  const NearestCache *cache;

  g_return_if_fail (palette != NULL);
  g_return_if_fail (rgba != NULL || width == 0 || height == 0);
  g_return_if_fail (stride / 4 >= width);
  g_return_if_fail (indices != NULL || width == 0 || height == 0);

  if (width == 0 || height == 0)
    return;

  cache = get_nearest_cache (palette);

  switch (dither)
    {
    case TERRAIN_DITHER_FLOYD_STEINBERG:
      quantize_floyd_steinberg (palette, cache, rgba, width, height, stride, indices);
      break;

    case TERRAIN_DITHER_ORDERED:
      for (guint y = 0; y < height; y++)
        {
          const guint8 *row = rgba + (gsize) y * stride;

          for (guint x = 0; x < width; x++)
            {
              /* Offsets -16..+15, centred on the threshold's cell. */
              int offset = bayer8[y & 7][x & 7] * TERRAIN_PALETTE_ORDERED_SPREAD / 64 -
                           TERRAIN_PALETTE_ORDERED_SPREAD / 2;
              const guint8 *p = row + 4 * (gsize) x;

              indices[(gsize) y * width + x] =
                cache_lookup (palette, cache, clamp_channel (p[0] + offset),
                              clamp_channel (p[1] + offset), clamp_channel (p[2] + offset));
            }
        }
      break;

    case TERRAIN_DITHER_NONE:
    default:
      for (guint y = 0; y < height; y++)
        {
          const guint8 *row = rgba + (gsize) y * stride;

          for (guint x = 0; x < width; x++)
            {
              const guint8 *p = row + 4 * (gsize) x;

              indices[(gsize) y * width + x] = cache_lookup (palette, cache, p[0], p[1], p[2]);
            }
        }
      break;
    }
}

/**
 * terrain_palette_quantize_rgba_bytes: (rename-to terrain_palette_quantize_rgba)
 * @palette: a #TerrainPalette
 * @rgba: @height rows of @width R, G, B, A pixels, @stride bytes apart (the
 *   last row may stop after its pixels)
 * @width: pixels per row
 * @height: rows
 * @stride: bytes from one row to the next, at least 4 x @width
 * @dither: how to spread the quantisation error
 * @error: return location for a #GError
 *
 * Quantises as [method@Terrain.Palette.quantize_rgba] does (the same
 * indices), in the form bindings can call: the pixels and the result are
 * #GBytes, which carry their lengths.
 *
 * Returns: (transfer full) (nullable): @width x @height palette indices,
 *   row-major, or %NULL with %TERRAIN_ERROR_INVALID_VALUE when @stride is
 *   less than 4 x @width or @rgba holds fewer bytes than the rows need
 */
GBytes *
terrain_palette_quantize_rgba_bytes (const TerrainPalette  *palette,
                                     GBytes                *rgba,
                                     guint                  width,
                                     guint                  height,
                                     gsize                  stride,
                                     TerrainDither          dither,
                                     GError               **error)
{
  gsize size, needed;
  const guint8 *pixels;
  guint8 *indices;

  g_return_val_if_fail (palette != NULL, NULL);
  g_return_val_if_fail (rgba != NULL, NULL);

  pixels = g_bytes_get_data (rgba, &size);
  needed = height > 0 ? stride * (height - 1) + 4 * (gsize) width : 0;
  if (stride / 4 < width || size < needed)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "palette: %ux%u RGBA pixels with a stride of %" G_GSIZE_FORMAT " need %"
                   G_GSIZE_FORMAT " bytes (and a stride of at least %" G_GSIZE_FORMAT "), %"
                   G_GSIZE_FORMAT " given", width, height, stride, needed, 4 * (gsize) width,
                   size);
      return NULL;
    }
  indices = g_malloc ((gsize) width * height + 1);
  if ((gsize) width * height > 0)
    terrain_palette_quantize_rgba (palette, pixels, width, height, stride, dither, indices);
  return g_bytes_new_take (indices, (gsize) width * height);
}

/**
 * terrain_palette_quantize_image:
 * @palette: a #TerrainPalette
 * @image: a %TERRAIN_IMAGE_RGBA8 or %TERRAIN_IMAGE_GRAY8 image
 * @dither: how to spread the quantisation error
 * @error: return location for a #GError
 *
 * Quantises an image to palette indices, see
 * [method@Terrain.Palette.quantize_rgba]. Grey pixels count as R = G = B.
 *
 * Returns: (transfer full) (nullable): width x height indices, row-major, or
 *   %NULL with %TERRAIN_ERROR_INVALID_VALUE for a 16-bit image
 */
GBytes *
terrain_palette_quantize_image (const TerrainPalette  *palette,
                                TerrainImage          *image,
                                TerrainDither          dither,
                                GError               **error)
{
  guint width, height;
  gsize stride, n;
  const guint8 *data;
  g_autofree guint8 *rgba = NULL;
  guint8 *indices;

  g_return_val_if_fail (palette != NULL, NULL);
  g_return_val_if_fail (image != NULL, NULL);

  width = terrain_image_get_width (image);
  height = terrain_image_get_height (image);
  stride = terrain_image_get_stride (image);
  data = terrain_image_get_data (image, NULL);
  n = (gsize) width * height;

  switch (terrain_image_get_format (image))
    {
    case TERRAIN_IMAGE_RGBA8:
      break;

    case TERRAIN_IMAGE_GRAY8:
      rgba = g_malloc (4 * n);
      for (guint y = 0; y < height; y++)
        for (guint x = 0; x < width; x++)
          {
            guint8 v = data[(gsize) y * stride + x];
            guint8 *p = rgba + 4 * ((gsize) y * width + x);

            p[0] = p[1] = p[2] = v;
            p[3] = 0xff;
          }
      data = rgba;
      stride = 4 * (gsize) width;
      break;

    case TERRAIN_IMAGE_GRAY16:
    default:
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "palette: cannot quantise a 16-bit greyscale image (%ux%u) to palette "
                   "colours; heights are not pictures", width, height);
      return NULL;
    }

  indices = g_malloc (MAX (n, 1));
  terrain_palette_quantize_rgba (palette, data, width, height, stride, dither, indices);

  return g_bytes_new_take (indices, n);
}

/**
 * terrain_palette_to_pal_bytes:
 * @palette: a #TerrainPalette
 *
 * Serialises the palette as a 1024-byte `PALETTE.PAL`. A palette read from a
 * PAL file writes back byte-exact, including the unused fourth bytes.
 *
 * Returns: (transfer full): the file's bytes
 */
GBytes *
terrain_palette_to_pal_bytes (const TerrainPalette *palette)
{
  guint8 *data = g_malloc (PAL_SIZE);

  for (guint i = 0; i < 256; i++)
    {
      memcpy (data + 4 * i, palette->rgba + 4 * i, 3);
      data[4 * i + 3] = palette->extra[i];
    }

  return g_bytes_new_take (data, PAL_SIZE);
}
