/* terrain-bc.c: BC1, BC2, BC3 and BC4 block compression, the one codec of
 * every format that stores block-compressed pixels (DDS surfaces of Atlas
 * and TQT textures, Insomniac TNLChunk texture blocks)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-bc.h"
#include "terrain-error.h"
#include "terrain-reader-private.h"

/* Decoding follows one named reference decoder to the bit: bcdec v0.94 by
 * Sergii Kudlai (github.com/iOrange/bcdec, bcdec.h at commit acc33684),
 * which implements the Direct3D block compression rules
 * (learn.microsoft.com, "Block Compression (Direct3D 10)"). The D3D rules
 * leave the rounding of interpolated values to the implementation, within
 * one step; bcdec's choices, which this file copies, are:
 *
 *  - 565 endpoints widen to 8 bits as round(v * 255 / 31) and
 *    round(v * 255 / 63): (v * 527 + 23) >> 6 and (v * 259 + 33) >> 6 (not
 *    bit replication, which is one step off for 14 of the 96 values);
 *  - the two thirds of BC1's four-colour mode (and every BC2/BC3 colour
 *    block) round to nearest, (2a + b + 1) / 3; the midpoint of the
 *    three-colour mode is (a + b + 1) / 2;
 *  - the sevenths and fifths of BC3 alpha and BC4 add 1 before dividing,
 *    ((7 - i) a + i b + 1) / 7 and ((5 - i) a + i b + 1) / 5.
 *
 * tests/test-core.c holds blocks decoded by bcdec as test vectors. */

static inline guint8
mix3 (guint a,
      guint b)
{
  return (guint8) ((2 * a + b + 1) / 3);
}

static void
expand565 (guint16  c,
           guint8  *rgb)
{
  guint r = (c >> 11) & 0x1f, g = (c >> 5) & 0x3f, b = c & 0x1f;

  rgb[0] = (guint8) ((r * 527 + 23) >> 6);
  rgb[1] = (guint8) ((g * 259 + 33) >> 6);
  rgb[2] = (guint8) ((b * 527 + 23) >> 6);
}

/* The four colours a BC1 block can use, RGBA. BC2 and BC3 colour blocks
 * are always in four-colour mode (@opaque). */
static void
bc1_palette_mode (guint16   c0,
                  guint16   c1,
                  gboolean  opaque,
                  guint8    palette[4][4])
{
  expand565 (c0, palette[0]);
  expand565 (c1, palette[1]);
  palette[0][3] = palette[1][3] = 255;

  if (c0 > c1 || opaque)
    {
      for (guint k = 0; k < 3; k++)
        {
          palette[2][k] = mix3 (palette[0][k], palette[1][k]);
          palette[3][k] = mix3 (palette[1][k], palette[0][k]);
        }
      palette[2][3] = palette[3][3] = 255;
    }
  else
    {
      for (guint k = 0; k < 3; k++)
        palette[2][k] = (guint8) ((palette[0][k] + palette[1][k] + 1) / 2);
      palette[2][3] = 255;
      memset (palette[3], 0, 4);
    }
}

static void
bc1_palette (guint16  c0,
             guint16  c1,
             guint8   palette[4][4])
{
  bc1_palette_mode (c0, c1, FALSE, palette);
}

/* The eight values a BC4 block (or BC3 alpha block) can use. */
static void
bc4_palette (guint   r0,
             guint   r1,
             guint8  palette[8])
{
  palette[0] = (guint8) r0;
  palette[1] = (guint8) r1;

  if (r0 > r1)
    {
      for (guint k = 2; k < 8; k++)
        palette[k] = (guint8) (((8 - k) * r0 + (k - 1) * r1 + 1) / 7);
    }
  else
    {
      for (guint k = 2; k < 6; k++)
        palette[k] = (guint8) (((6 - k) * r0 + (k - 1) * r1 + 1) / 5);
      palette[6] = 0;
      palette[7] = 255;
    }
}

static void
decode_color (const guint8 *block,
              gboolean      opaque,
              guint8       *rgba,
              gsize         stride)
{
  guint8 palette[4][4];
  guint32 indices;

  bc1_palette_mode (terrain_get_le16 (block), terrain_get_le16 (block + 2), opaque, palette);
  indices = terrain_get_le32 (block + 4);

  for (guint i = 0; i < 16; i++)
    memcpy (rgba + (i / 4) * stride + (i % 4) * 4, palette[(indices >> (2 * i)) & 3], 4);
}

/* A BC4 block into every @step-th byte of a 4x4 area. */
static void
decode_bc4 (const guint8 *block,
            guint8       *pixels,
            gsize         stride,
            guint         step)
{
  guint8 palette[8];
  guint64 indices = 0;

  bc4_palette (block[0], block[1], palette);
  for (guint i = 0; i < 6; i++)
    indices |= (guint64) block[2 + i] << (8 * i);

  for (guint i = 0; i < 16; i++)
    pixels[(i / 4) * stride + (i % 4) * step] = palette[(indices >> (3 * i)) & 7];
}

/**
 * terrain_bc1_decode_block: (skip)
 * @block: (array fixed-size=8): one BC1 block
 * @rgba: the top-left pixel of a 4x4 RGBA area to fill
 * @stride: bytes from one row of @rgba to the next
 *
 * Decodes a BC1 block. With the first endpoint greater than the second the
 * block has four opaque colours (the two endpoints and two thirds between);
 * otherwise three colours (the endpoints and their midpoint) and transparent
 * black. Rounding is bcdec's (see [func@Terrain.bc3_decode_block]).
 *
 * Not introspectable: it works on a 4x4 window of the caller's buffer at
 * @stride, which bindings cannot pass; they decode and encode whole images
 * with [func@Terrain.bc_decode_image] and [func@Terrain.bc_encode_image] (a
 * 4x4 image is one block).
 */
void
terrain_bc1_decode_block (const guint8 *block,
                          guint8       *rgba,
                          gsize         stride)
{
  g_return_if_fail (block != NULL);
  g_return_if_fail (rgba != NULL);

  decode_color (block, FALSE, rgba, stride);
}

/**
 * terrain_bc2_decode_block: (skip)
 * @block: (array fixed-size=16): one BC2 (DXT2/DXT3) block
 * @rgba: the top-left pixel of a 4x4 RGBA area to fill
 * @stride: bytes from one row of @rgba to the next
 *
 * Decodes a BC2 block: sixteen explicit 4-bit alphas (u64 little-endian,
 * pixel i at bits `4 * i`, widened by 17), then a colour block that is
 * always in four-colour mode.
 *
 * Not introspectable: it works on a 4x4 window of the caller's buffer at
 * @stride, which bindings cannot pass; they decode BC2 and BC3 surfaces
 * whole with [func@Terrain.dds_decode].
 */
void
terrain_bc2_decode_block (const guint8 *block,
                          guint8       *rgba,
                          gsize         stride)
{
  g_return_if_fail (block != NULL);
  g_return_if_fail (rgba != NULL);

  decode_color (block + 8, TRUE, rgba, stride);
  for (guint i = 0; i < 16; i++)
    rgba[(i / 4) * stride + (i % 4) * 4 + 3] = (guint8) (((block[i / 2] >> (4 * (i % 2))) & 0xf) * 17);
}

/**
 * terrain_bc3_decode_block: (skip)
 * @block: (array fixed-size=16): one BC3 (DXT4/DXT5) block
 * @rgba: the top-left pixel of a 4x4 RGBA area to fill
 * @stride: bytes from one row of @rgba to the next
 *
 * Decodes a BC3 block: an alpha block laid out as a BC4 block, then a colour
 * block that is always in four-colour mode.
 *
 * Rounding, here and in every decoder of this file, is that of the bcdec
 * reference decoder v0.94 (github.com/iOrange/bcdec): endpoints widen as
 * round(v * 255 / 31) and round(v * 255 / 63), colour thirds are (2a + b +
 * 1) / 3, the three-colour midpoint (a + b + 1) / 2, alpha and BC4 steps
 * ((7 - i) a + i b + 1) / 7 and ((5 - i) a + i b + 1) / 5.
 *
 * Not introspectable: it works on a 4x4 window of the caller's buffer at
 * @stride, which bindings cannot pass; they decode BC2 and BC3 surfaces
 * whole with [func@Terrain.dds_decode].
 */
void
terrain_bc3_decode_block (const guint8 *block,
                          guint8       *rgba,
                          gsize         stride)
{
  g_return_if_fail (block != NULL);
  g_return_if_fail (rgba != NULL);

  decode_color (block + 8, TRUE, rgba, stride);
  decode_bc4 (block, rgba + 3, stride, 4);
}

/**
 * terrain_bc4_decode_block: (skip)
 * @block: (array fixed-size=8): one BC4 block
 * @pixels: the top-left pixel of a 4x4 single-channel area to fill
 * @stride: bytes from one row of @pixels to the next
 *
 * Decodes an unsigned BC4 block: with the first endpoint greater than the
 * second, eight values (the endpoints and six sevenths between); otherwise
 * six (the endpoints and four fifths between) plus 0 and 255. Rounding is
 * bcdec's (see [func@Terrain.bc3_decode_block]).
 *
 * Not introspectable: it works on a 4x4 window of the caller's buffer at
 * @stride, which bindings cannot pass; they decode and encode whole images
 * with [func@Terrain.bc_decode_image] and [func@Terrain.bc_encode_image] (a
 * 4x4 image is one block).
 */
void
terrain_bc4_decode_block (const guint8 *block,
                          guint8       *pixels,
                          gsize         stride)
{
  g_return_if_fail (block != NULL);
  g_return_if_fail (pixels != NULL);

  decode_bc4 (block, pixels, stride, 1);
}

static guint16
quantise565 (const float *rgb)
{
  guint r = (guint) CLAMP (lrintf (rgb[0] * 31.0f / 255.0f), 0, 31);
  guint g = (guint) CLAMP (lrintf (rgb[1] * 63.0f / 255.0f), 0, 63);
  guint b = (guint) CLAMP (lrintf (rgb[2] * 31.0f / 255.0f), 0, 31);

  return (guint16) ((r << 11) | (g << 5) | b);
}

/* Picks the nearest palette colour for each pixel; returns the squared
 * error and fills @indices. */
static guint
bc1_assign (const guint8  pixels[16][3],
            guint16       c0,
            guint16       c1,
            guint32      *indices)
{
  guint8 palette[4][4];
  guint total = 0;
  guint n = c0 > c1 ? 4 : 3;

  bc1_palette (c0, c1, palette);
  *indices = 0;

  for (guint i = 0; i < 16; i++)
    {
      guint best = G_MAXUINT, best_k = 0;

      for (guint k = 0; k < n; k++)
        {
          guint e = 0;

          for (guint c = 0; c < 3; c++)
            {
              gint d = (gint) pixels[i][c] - (gint) palette[k][c];
              e += (guint) (d * d);
            }
          if (e < best)
            {
              best = e;
              best_k = k;
            }
        }
      total += best;
      *indices |= (guint32) best_k << (2 * i);
    }

  return total;
}

/* Least-squares endpoints for fixed indices: each pixel is w * e0 + (1 - w) * e1
 * with w = 1, 0, 2/3, 1/3 for indices 0..3. */
static gboolean
bc1_refine (const guint8  pixels[16][3],
            guint32       indices,
            float         e0[3],
            float         e1[3])
{
  static const float weights[4] = { 1.0f, 0.0f, 2.0f / 3.0f, 1.0f / 3.0f };
  float aa = 0, ab = 0, bb = 0, det;
  float ax[3] = { 0 }, bx[3] = { 0 };

  for (guint i = 0; i < 16; i++)
    {
      float w = weights[(indices >> (2 * i)) & 3];
      float v = 1.0f - w;

      aa += w * w;
      ab += w * v;
      bb += v * v;
      for (guint c = 0; c < 3; c++)
        {
          ax[c] += w * pixels[i][c];
          bx[c] += v * pixels[i][c];
        }
    }

  det = aa * bb - ab * ab;
  if (fabsf (det) < 1e-6f)
    return FALSE;

  for (guint c = 0; c < 3; c++)
    {
      e0[c] = CLAMP ((ax[c] * bb - bx[c] * ab) / det, 0.0f, 255.0f);
      e1[c] = CLAMP ((bx[c] * aa - ax[c] * ab) / det, 0.0f, 255.0f);
    }
  return TRUE;
}

static void
bc1_put (guint8   *block,
         guint16   c0,
         guint16   c1,
         guint32   indices)
{
  terrain_put_le16 (block, c0);
  terrain_put_le16 (block + 2, c1);
  terrain_put_le32 (block + 4, indices);
}

/* Evaluates endpoints in four-colour order (c0 > c1), swapping them and
 * remapping the indices if needed; keeps the best block seen in @best. */
static void
bc1_try (const guint8  pixels[16][3],
         guint16       a,
         guint16       b,
         guint        *best_error,
         guint8       *best)
{
  guint16 c0 = MAX (a, b), c1 = MIN (a, b);
  guint32 indices;
  guint error;

  if (c0 == c1)
    {
      /* One colour: three-colour mode, every index 0 (index 3 would be
       * transparent black). */
      guint8 palette[4][4];

      bc1_palette (c0, c1, palette);
      indices = 0;
      error = 0;
      for (guint i = 0; i < 16; i++)
        for (guint c = 0; c < 3; c++)
          {
            gint d = (gint) pixels[i][c] - (gint) palette[0][c];
            error += (guint) (d * d);
          }
    }
  else
    {
      error = bc1_assign (pixels, c0, c1, &indices);
    }

  if (error < *best_error)
    {
      *best_error = error;
      bc1_put (best, c0, c1, indices);
    }
}

/**
 * terrain_bc1_encode_block: (skip)
 * @rgba: the top-left pixel of a 4x4 RGBA area
 * @stride: bytes from one row of @rgba to the next
 * @block: (out caller-allocates) (array fixed-size=8): the BC1 block
 *
 * Encodes 4x4 pixels as an opaque four-colour BC1 block (alpha is ignored):
 * endpoints from the extremes along the colours' principal axis, then two
 * rounds of least-squares refinement, keeping whichever gives the smallest
 * squared error. A single-colour area decodes back to its colour up to 565
 * quantisation.
 *
 * Not introspectable: it works on a 4x4 window of the caller's buffer at
 * @stride, which bindings cannot pass; they decode and encode whole images
 * with [func@Terrain.bc_decode_image] and [func@Terrain.bc_encode_image] (a
 * 4x4 image is one block).
 */
void
terrain_bc1_encode_block (const guint8 *rgba,
                          gsize         stride,
                          guint8       *block)
{
  guint8 pixels[16][3];
  float mean[3] = { 0 }, cov[6] = { 0 }, axis[3] = { 1, 1, 1 };
  float lo = G_MAXFLOAT, hi = -G_MAXFLOAT, e0[3], e1[3];
  guint best_error = G_MAXUINT;
  guint32 indices;

  g_return_if_fail (rgba != NULL);
  g_return_if_fail (block != NULL);

  for (guint i = 0; i < 16; i++)
    for (guint c = 0; c < 3; c++)
      {
        pixels[i][c] = rgba[(i / 4) * stride + (i % 4) * 4 + c];
        mean[c] += pixels[i][c] / 16.0f;
      }

  for (guint i = 0; i < 16; i++)
    {
      float d[3] = { pixels[i][0] - mean[0], pixels[i][1] - mean[1], pixels[i][2] - mean[2] };

      cov[0] += d[0] * d[0];
      cov[1] += d[0] * d[1];
      cov[2] += d[0] * d[2];
      cov[3] += d[1] * d[1];
      cov[4] += d[1] * d[2];
      cov[5] += d[2] * d[2];
    }

  /* Principal axis by power iteration, from the covariance column of
   * largest norm (a fixed start such as grey can be orthogonal to it). */
  {
    const float columns[3][3] = {
      { cov[0], cov[1], cov[2] }, { cov[1], cov[3], cov[4] }, { cov[2], cov[4], cov[5] },
    };
    float best = 0;

    for (guint c = 0; c < 3; c++)
      {
        float norm = columns[c][0] * columns[c][0] + columns[c][1] * columns[c][1] +
                     columns[c][2] * columns[c][2];

        if (norm > best)
          {
            best = norm;
            memcpy (axis, columns[c], sizeof axis);
          }
      }
  }
  for (guint iter = 0; iter < 8; iter++)
    {
      float next[3] = {
        cov[0] * axis[0] + cov[1] * axis[1] + cov[2] * axis[2],
        cov[1] * axis[0] + cov[3] * axis[1] + cov[4] * axis[2],
        cov[2] * axis[0] + cov[4] * axis[1] + cov[5] * axis[2],
      };
      float norm = sqrtf (next[0] * next[0] + next[1] * next[1] + next[2] * next[2]);

      if (norm < 1e-6f)
        break;
      for (guint c = 0; c < 3; c++)
        axis[c] = next[c] / norm;
    }

  for (guint i = 0; i < 16; i++)
    {
      float t = (pixels[i][0] - mean[0]) * axis[0] + (pixels[i][1] - mean[1]) * axis[1] +
                (pixels[i][2] - mean[2]) * axis[2];

      lo = MIN (lo, t);
      hi = MAX (hi, t);
    }

  for (guint c = 0; c < 3; c++)
    {
      e0[c] = CLAMP (mean[c] + hi * axis[c], 0.0f, 255.0f);
      e1[c] = CLAMP (mean[c] + lo * axis[c], 0.0f, 255.0f);
    }

  bc1_try (pixels, quantise565 (e0), quantise565 (e1), &best_error, block);
  bc1_try (pixels, quantise565 (mean), quantise565 (mean), &best_error, block);

  for (guint round = 0; round < 2 && best_error > 0; round++)
    {
      guint16 c0 = terrain_get_le16 (block), c1 = terrain_get_le16 (block + 2);

      if (c0 <= c1)
        break;
      bc1_assign (pixels, c0, c1, &indices);
      if (!bc1_refine (pixels, indices, e0, e1))
        break;
      bc1_try (pixels, quantise565 (e0), quantise565 (e1), &best_error, block);
    }
}

static guint
bc4_assign (const guint8  pixels[16],
            guint         r0,
            guint         r1,
            guint64      *indices)
{
  guint8 palette[8];
  guint total = 0;

  bc4_palette (r0, r1, palette);
  *indices = 0;

  for (guint i = 0; i < 16; i++)
    {
      guint best = G_MAXUINT, best_k = 0;

      for (guint k = 0; k < 8; k++)
        {
          gint d = (gint) pixels[i] - (gint) palette[k];
          guint e = (guint) (d * d);

          if (e < best)
            {
              best = e;
              best_k = k;
            }
        }
      total += best;
      *indices |= (guint64) best_k << (3 * i);
    }

  return total;
}

static void
bc4_try (const guint8  pixels[16],
         guint         r0,
         guint         r1,
         guint        *best_error,
         guint8       *best)
{
  guint64 indices;
  guint error = bc4_assign (pixels, r0, r1, &indices);

  if (error < *best_error)
    {
      *best_error = error;
      best[0] = (guint8) r0;
      best[1] = (guint8) r1;
      for (guint i = 0; i < 6; i++)
        best[2 + i] = (guint8) (indices >> (8 * i));
    }
}

/**
 * terrain_bc4_encode_block: (skip)
 * @pixels: the top-left pixel of a 4x4 single-channel area
 * @stride: bytes from one row of @pixels to the next
 * @block: (out caller-allocates) (array fixed-size=8): the BC4 block
 *
 * Encodes 4x4 single-channel pixels as an unsigned BC4 block, trying the
 * eight-value mode over the full range and the six-value mode over the
 * values other than 0 and 255, and nudging each endpoint by one, keeping the
 * smallest squared error. An area of at most two distinct values decodes
 * back exactly.
 *
 * Not introspectable: it works on a 4x4 window of the caller's buffer at
 * @stride, which bindings cannot pass; they decode and encode whole images
 * with [func@Terrain.bc_decode_image] and [func@Terrain.bc_encode_image] (a
 * 4x4 image is one block).
 */
void
terrain_bc4_encode_block (const guint8 *pixels,
                          gsize         stride,
                          guint8       *block)
{
  guint8 values[16];
  guint lo = 255, hi = 0, inner_lo = 255, inner_hi = 0;
  guint best_error = G_MAXUINT;

  g_return_if_fail (pixels != NULL);
  g_return_if_fail (block != NULL);

  for (guint i = 0; i < 16; i++)
    {
      guint v = values[i] = pixels[(i / 4) * stride + (i % 4)];

      lo = MIN (lo, v);
      hi = MAX (hi, v);
      if (v != 0 && v != 255)
        {
          inner_lo = MIN (inner_lo, v);
          inner_hi = MAX (inner_hi, v);
        }
    }

  /* r0 > r1 selects eight values; r0 == r1 is the six-value mode, where
   * index 0 still gives r0. */
  bc4_try (values, hi, lo, &best_error, block);
  if (inner_lo <= inner_hi)
    bc4_try (values, inner_lo, inner_hi, &best_error, block);

  for (gint d0 = -1; d0 <= 1 && best_error > 0; d0++)
    for (gint d1 = -1; d1 <= 1; d1++)
      {
        gint r0 = (gint) hi + d0, r1 = (gint) lo + d1;

        if (r0 > r1 && r1 >= 0 && r0 <= 255)
          bc4_try (values, (guint) r0, (guint) r1, &best_error, block);
      }
}

static gboolean
check_image_size (TerrainBcFormat   format,
                  guint             width,
                  guint             height,
                  gsize            *n_blocks,
                  GError          **error)
{
  if (width == 0 || height == 0 || width % 4 != 0 || height % 4 != 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s: a %ux%u image cannot be block-compressed (both sides must be "
                   "non-zero multiples of 4)",
                   format == TERRAIN_BC_FORMAT_BC1 ? "BC1" : "BC4", width, height);
      return FALSE;
    }
  *n_blocks = (gsize) (width / 4) * (height / 4);
  return TRUE;
}

/**
 * terrain_bc_decode_image:
 * @format: the block format
 * @blocks: (array length=size): the blocks, row-major, (width / 4) per row
 * @size: size of @blocks in bytes
 * @width: image width in pixels, a multiple of 4
 * @height: image height in pixels, a multiple of 4
 * @error: return location for a #GError
 *
 * Decodes a whole block-compressed image: BC1 to %TERRAIN_IMAGE_RGBA8, BC4
 * to %TERRAIN_IMAGE_GRAY8.
 *
 * Returns: (transfer full) (nullable): the image, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE if a side is not a multiple of 4, or
 *   %TERRAIN_ERROR_TRUNCATED if @size is not 8 bytes per block
 */
TerrainImage *
terrain_bc_decode_image (TerrainBcFormat   format,
                         const guint8     *blocks,
                         gsize             size,
                         guint             width,
                         guint             height,
                         GError          **error)
{
  g_autoptr(TerrainImage) image = NULL;
  gsize n_blocks, stride, bpp;
  guint8 *pixels;

  g_return_val_if_fail (blocks != NULL || size == 0, NULL);

  if (!check_image_size (format, width, height, &n_blocks, error))
    return NULL;
  if (size != n_blocks * TERRAIN_BC_BLOCK_SIZE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "%s: a %ux%u image needs %" G_GSIZE_FORMAT " bytes of blocks, %"
                   G_GSIZE_FORMAT " given",
                   format == TERRAIN_BC_FORMAT_BC1 ? "BC1" : "BC4", width, height,
                   n_blocks * TERRAIN_BC_BLOCK_SIZE, size);
      return NULL;
    }

  image = terrain_image_new (format == TERRAIN_BC_FORMAT_BC1 ? TERRAIN_IMAGE_RGBA8
                                                             : TERRAIN_IMAGE_GRAY8,
                             width, height, error);
  if (image == NULL)
    return NULL;

  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  bpp = format == TERRAIN_BC_FORMAT_BC1 ? 4 : 1;

  for (gsize i = 0; i < n_blocks; i++)
    {
      gsize bx = i % (width / 4), by = i / (width / 4);
      guint8 *dest = pixels + by * 4 * stride + bx * 4 * bpp;

      if (format == TERRAIN_BC_FORMAT_BC1)
        terrain_bc1_decode_block (blocks + i * TERRAIN_BC_BLOCK_SIZE, dest, stride);
      else
        terrain_bc4_decode_block (blocks + i * TERRAIN_BC_BLOCK_SIZE, dest, stride);
    }

  return g_steal_pointer (&image);
}

/**
 * terrain_bc_encode_image:
 * @format: the block format
 * @image: the image: %TERRAIN_IMAGE_RGBA8 for BC1, %TERRAIN_IMAGE_GRAY8 for
 *   BC4, both sides multiples of 4
 * @error: return location for a #GError
 *
 * Encodes a whole image with [func@Terrain.bc1_encode_block] or
 * [func@Terrain.bc4_encode_block], blocks row-major.
 *
 * Returns: (transfer full) (nullable): 8 bytes per 4x4 block, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE for a wrong pixel format or size
 */
GBytes *
terrain_bc_encode_image (TerrainBcFormat   format,
                         TerrainImage     *image,
                         GError          **error)
{
  TerrainImageFormat want = format == TERRAIN_BC_FORMAT_BC1 ? TERRAIN_IMAGE_RGBA8
                                                            : TERRAIN_IMAGE_GRAY8;
  guint width, height;
  gsize n_blocks, stride, bpp;
  const guint8 *pixels;
  guint8 *out;

  g_return_val_if_fail (image != NULL, NULL);

  width = terrain_image_get_width (image);
  height = terrain_image_get_height (image);
  if (terrain_image_get_format (image) != want)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s: the image must be %s",
                   format == TERRAIN_BC_FORMAT_BC1 ? "BC1" : "BC4",
                   format == TERRAIN_BC_FORMAT_BC1 ? "RGBA" : "8-bit greyscale");
      return NULL;
    }
  if (!check_image_size (format, width, height, &n_blocks, error))
    return NULL;

  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  bpp = format == TERRAIN_BC_FORMAT_BC1 ? 4 : 1;
  out = g_malloc (n_blocks * TERRAIN_BC_BLOCK_SIZE);

  for (gsize i = 0; i < n_blocks; i++)
    {
      gsize bx = i % (width / 4), by = i / (width / 4);
      const guint8 *src = pixels + by * 4 * stride + bx * 4 * bpp;

      if (format == TERRAIN_BC_FORMAT_BC1)
        terrain_bc1_encode_block (src, stride, out + i * TERRAIN_BC_BLOCK_SIZE);
      else
        terrain_bc4_encode_block (src, stride, out + i * TERRAIN_BC_BLOCK_SIZE);
    }

  return g_bytes_new_take (out, n_blocks * TERRAIN_BC_BLOCK_SIZE);
}
