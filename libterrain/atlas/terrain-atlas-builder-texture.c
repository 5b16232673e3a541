/* terrain-atlas-builder-texture.c: texture, opacity-map and lightmap trees
 * for the Atlas builder
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every tile of every level is sampled straight from its source with a box
 * filter over the tile pixel's footprint (bilinear when the footprint is
 * under a source pixel), so tiles are independent: they are made in
 * parallel and written in stub order, and a source made of many tile files
 * is read a few files at a time.
 *
 * A texture file that is a JPEG or a non-interlaced PNG is streamed
 * instead (stream_rows ()): decoded a row at a time, so a picture larger
 * than memory can be a texture. An interlaced (Adam7) PNG, and one with
 * alpha when the tiles keep alpha (PNG or DDS), are decoded whole.
 *
 * Orientation (atlas-chu-tqt.md §4 and §9b): a vertex at world (X, Y) has
 * texCoord (u, v) = (Y / size, 1 − X / size); texture stub (x, y) of level
 * L holds v in [x, x + 1) / 2^L and u in [y, y + 1) / 2^L, its rows
 * following v and its columns u. A source picture lies north up over the
 * heightfield's data (column = X, row 0 = north), so texture pixel (u, v)
 * shows picture point (1 − v, 1 − u) in picture fractions: the picture
 * appears transposed and turned in the tree, which is what puts it where
 * the geometry is.
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "terrain-atlas-builder-private.h"
#include "terrain-quadtree.h"
#include "core/terrain-error.h"
#include "core/terrain-image-private.h"
#include "core/terrain-io.h"
#include "terrain-atlas-private.h"

#define TEXTURE_BATCH 64
#define MAX_TAPS 8
#define TILE_CACHE 8

typedef enum
{
  TEXTURE_FROM_SOURCE,
  TEXTURE_OPACITY_FROM_HEIGHTS,
  TEXTURE_LIGHT_FROM_HEIGHTS,
} TextureKind;

/* A picture: one image in memory, or a grid of tile files. */
typedef struct
{
  guint width;
  guint height;
  TerrainImage *image;       /* RGBA8 */
  const char *pattern;
  guint columns;
  guint rows;
  guint tile_width;
  guint tile_height;
  GFile *streamed;           /* a JPEG or PNG file, decoded a row at a time */
} TextureSource;

typedef struct
{
  TextureKind kind;
  TextureSource source;
  guint toc;                 /* slot in state->tocs */
  guint depth;
  guint tile;
  TerrainAtlasTextureFormat format;
} TexturePlan;

typedef struct
{
  TexturePlan plans[2];
  guint n_plans;
  TerrainImage *owned[3];
  gfloat lo, hi;
} TextureJobs;

typedef struct
{
  gint column;
  gint row;
  TerrainImage *image;
  guint64 used;
} CachedTile;

typedef struct
{
  CachedTile slots[TILE_CACHE];
  guint64 clock;
} TextureScratch;

typedef struct
{
  const TexturePlan *plan;
  guint first;
  GBytes **frames;
} TextureBatch;

static TerrainImage *
to_rgba (TerrainImage  *image,
         GError       **error)
{
  TerrainImage *rgba;
  guint w = terrain_image_get_width (image), h = terrain_image_get_height (image);
  gsize in_stride = terrain_image_get_stride (image), out_stride;
  const guint8 *in;
  guint8 *out;

  if (terrain_image_get_format (image) == TERRAIN_IMAGE_RGBA8)
    return terrain_image_ref (image);

  rgba = terrain_image_new (TERRAIN_IMAGE_RGBA8, w, h, error);
  if (rgba == NULL)
    return NULL;
  in = terrain_image_get_data (image, NULL);
  out = terrain_image_get_data (rgba, NULL);
  out_stride = terrain_image_get_stride (rgba);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        guint8 v;
        guint8 *p = out + (gsize) y * out_stride + 4 * (gsize) x;

        if (terrain_image_get_format (image) == TERRAIN_IMAGE_GRAY8)
          v = in[(gsize) y * in_stride + x];
        else
          {
            guint16 w16;

            memcpy (&w16, in + (gsize) y * in_stride + 2 * (gsize) x, 2);
            v = (guint8) (w16 >> 8);
          }
        p[0] = p[1] = p[2] = v;
        p[3] = 255;
      }
  return rgba;
}

/* Reads a PNG or JPEG picture as RGBA. */
static TerrainImage *
load_picture (GFile         *file,
              GCancellable  *cancellable,
              GError       **error)
{
  static const guint8 png_magic[4] = { 0x89, 'P', 'N', 'G' };
  static const guint8 jpeg_magic[3] = { 0xFF, 0xD8, 0xFF };
  g_autoptr(GBytes) bytes = terrain_file_load_bytes (file, cancellable, error);
  g_autoptr(TerrainImage) image = NULL;
  gsize size = 0;
  const guint8 *data;

  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &size);

  if (size >= 4 && memcmp (data, png_magic, 4) == 0)
    image = terrain_image_load_png_bytes (bytes, error);
  else if (size >= 3 && memcmp (data, jpeg_magic, 3) == 0)
    {
      g_autoptr(TerrainAtlasTexture) jpeg = terrain_atlas_texture_new (TERRAIN_ATLAS_TEXTURE_JPEG,
                                                                       bytes);

      image = terrain_atlas_texture_decode (jpeg, TERRAIN_ATLAS_CHANNELS_RGB, NULL, error);
    }
  else
    g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_UNKNOWN_FORMAT,
                         "not a PNG or JPEG picture (no PNG or JPEG signature at byte "
                         "offset 0)");

  if (image == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (file);

      g_prefix_error (error, "%s: ", name);
      return NULL;
    }
  return to_rgba (image, error);
}

static char *
tile_path (const char *pattern,
           guint       column,
           guint       row)
{
  g_autofree char *x = g_strdup_printf ("%u", column);
  g_autofree char *y = g_strdup_printf ("%u", row);
  g_auto(GStrv) by_x = g_strsplit (pattern, "{x}", -1);
  g_autofree char *with_x = g_strjoinv (x, by_x);
  g_auto(GStrv) by_y = g_strsplit (with_x, "{y}", -1);

  return g_strjoinv (y, by_y);
}

static TerrainImage *
load_tile (const TextureSource  *source,
           guint                 column,
           guint                 row,
           GError              **error)
{
  g_autofree char *path = tile_path (source->pattern, column, row);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TerrainImage *image = load_picture (file, NULL, error);

  if (image != NULL && source->tile_width != 0 &&
      (terrain_image_get_width (image) != source->tile_width ||
       terrain_image_get_height (image) != source->tile_height))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s: %u x %u pixels, but the first tile of the grid is %u x %u", path,
                   terrain_image_get_width (image), terrain_image_get_height (image),
                   source->tile_width, source->tile_height);
      g_clear_pointer (&image, terrain_image_unref);
    }
  return image;
}

/* The tile holding source pixel (x, y), through the thread's cache. */
static TerrainImage *
cached_tile (const TextureSource  *source,
             TextureScratch       *scratch,
             guint                 column,
             guint                 row,
             GError              **error)
{
  CachedTile *oldest = &scratch->slots[0];

  for (guint i = 0; i < TILE_CACHE; i++)
    {
      CachedTile *slot = &scratch->slots[i];

      if (slot->image != NULL && slot->column == (gint) column && slot->row == (gint) row)
        {
          slot->used = ++scratch->clock;
          return slot->image;
        }
      if (slot->used < oldest->used)
        oldest = slot;
    }

  g_clear_pointer (&oldest->image, terrain_image_unref);
  oldest->image = load_tile (source, column, row, error);
  if (oldest->image == NULL)
    return NULL;
  oldest->column = (gint) column;
  oldest->row = (gint) row;
  oldest->used = ++scratch->clock;
  return oldest->image;
}

static inline gboolean
source_pixel (const TextureSource  *source,
              TextureScratch       *scratch,
              gint64                x,
              gint64                y,
              guint8                rgba[4],
              GError              **error)
{
  TerrainImage *image;
  gint64 lx, ly;

  x = CLAMP (x, 0, (gint64) source->width - 1);
  y = CLAMP (y, 0, (gint64) source->height - 1);

  if (source->image != NULL)
    {
      image = source->image;
      lx = x;
      ly = y;
    }
  else
    {
      image = cached_tile (source, scratch, (guint) (x / source->tile_width),
                           (guint) (y / source->tile_height), error);
      if (image == NULL)
        return FALSE;
      lx = x % source->tile_width;
      ly = y % source->tile_height;
    }

  memcpy (rgba, terrain_image_get_data (image, NULL) +
                (gsize) ly * terrain_image_get_stride (image) + 4 * (gsize) lx, 4);
  return TRUE;
}

/* The picture's colour over the footprint centred at (cx, cy) pixels
 * (pixel k spans [k, k + 1)) and spanning (sx, sy) pixels. */
static gboolean
sample_source (const TextureSource  *source,
               TextureScratch       *scratch,
               gdouble               cx,
               gdouble               cy,
               gdouble               sx,
               gdouble               sy,
               guint8                out[4],
               GError              **error)
{
  if (sx <= 1.0 && sy <= 1.0)
    {
      gdouble px = cx - 0.5, py = cy - 0.5;
      gint64 x0 = (gint64) floor (px), y0 = (gint64) floor (py);
      gdouble fx = px - x0, fy = py - y0;
      guint8 a[4], b[4], c[4], d[4];

      if (!source_pixel (source, scratch, x0, y0, a, error) ||
          !source_pixel (source, scratch, x0 + 1, y0, b, error) ||
          !source_pixel (source, scratch, x0, y0 + 1, c, error) ||
          !source_pixel (source, scratch, x0 + 1, y0 + 1, d, error))
        return FALSE;
      for (guint k = 0; k < 4; k++)
        {
          gdouble v = (a[k] * (1 - fx) + b[k] * fx) * (1 - fy) + (c[k] * (1 - fx) + d[k] * fx) * fy;

          out[k] = (guint8) CLAMP (lround (v), 0, 255);
        }
      return TRUE;
    }

  {
    guint kx = (guint) MIN (ceil (sx), MAX_TAPS), ky = (guint) MIN (ceil (sy), MAX_TAPS);
    guint sum[4] = { 0, 0, 0, 0 };

    kx = MAX (kx, 1);
    ky = MAX (ky, 1);
    for (guint j = 0; j < ky; j++)
      for (guint i = 0; i < kx; i++)
        {
          gdouble x = cx - sx / 2 + sx * (i + 0.5) / kx;
          gdouble y = cy - sy / 2 + sy * (j + 0.5) / ky;
          guint8 p[4];

          if (!source_pixel (source, scratch, (gint64) floor (x), (gint64) floor (y), p, error))
            return FALSE;
          for (guint k = 0; k < 4; k++)
            sum[k] += p[k];
        }
    for (guint k = 0; k < 4; k++)
      out[k] = (guint8) ((sum[k] + kx * ky / 2) / (kx * ky));
  }
  return TRUE;
}

static gpointer
texture_scratch_new (BuildState *state)
{
  (void) state;
  return g_new0 (TextureScratch, 1);
}

static void
texture_scratch_free (gpointer data)
{
  TextureScratch *scratch = data;

  for (guint i = 0; i < TILE_CACHE; i++)
    g_clear_pointer (&scratch->slots[i].image, terrain_image_unref);
  g_free (scratch);
}

/* Band weights of @n source images at normalised height @t. */
static void
opacity_bands (gdouble  t,
               guint    n,
               guint8   out[4])
{
  gdouble w[4] = { 0, 0, 0, 0 }, sum = 0;

  if (n <= 1)
    {
      out[0] = 255;
      out[1] = out[2] = out[3] = 0;
      return;
    }
  for (guint k = 0; k < n; k++)
    {
      w[k] = MAX (0.0, 1.0 - fabs (t - (gdouble) k / (n - 1)) * (n - 1));
      sum += w[k];
    }
  for (guint k = 0; k < 4; k++)
    out[k] = (guint8) (sum > 0 ? lround (255.0 * w[k] / sum) : 0);
}

/* Renders texture stub (level, tx, ty) of a plan. */
static TerrainImage *
render_tile (BuildState         *state,
             const TexturePlan  *plan,
             TextureScratch     *scratch,
             guint               level,
             guint32             tx,
             guint32             ty,
             GError            **error)
{
  const TextureJobs *jobs = state->texture_jobs;
  g_autoptr(TerrainImage) tile = terrain_image_new (TERRAIN_IMAGE_RGBA8, plan->tile, plan->tile,
                                                    error);
  gdouble n = (gdouble) ((guint64) 1 << level), size = n * plan->tile;
  gdouble side = state->side;
  guint data_w, data_h;
  gdouble scale_x = 1.0, scale_y = 1.0;
  guint8 *pixels;
  gsize stride;

  if (tile == NULL)
    return NULL;
  pixels = terrain_image_get_data (tile, NULL);
  stride = terrain_image_get_stride (tile);

  /* Pictures cover the heightfield's data; a padded grid's extra rows and
   * columns repeat the picture's edge. */
  terrain_heightfield_get_data_size (state->field, &data_w, &data_h);
  if (plan->kind == TEXTURE_FROM_SOURCE)
    {
      scale_x = side / MAX (data_w - 1, 1) * plan->source.width;
      scale_y = side / MAX (data_h - 1, 1) * plan->source.height;
    }

  for (guint j = 0; j < plan->tile; j++)
    for (guint i = 0; i < plan->tile; i++)
      {
        gdouble u = (ty + (i + 0.5) / plan->tile) / n;
        gdouble v = (tx + (j + 0.5) / plan->tile) / n;
        guint8 *out = pixels + (gsize) j * stride + 4 * (gsize) i;

        switch (plan->kind)
          {
          case TEXTURE_FROM_SOURCE:
            if (!sample_source (&plan->source, scratch, (1.0 - v) * scale_x,
                                (1.0 - u) * scale_y, scale_x / size, scale_y / size, out, error))
              return NULL;
            break;

          case TEXTURE_OPACITY_FROM_HEIGHTS:
            {
              gdouble h = terrain_heightfield_sample_bilinear (state->field, (1.0 - v) * side,
                                                               (1.0 - u) * side);
              gdouble t = jobs->hi > jobs->lo ? (h - jobs->lo) / (jobs->hi - jobs->lo) : 0.0;

              opacity_bands (CLAMP (t, 0.0, 1.0),
                             state->builder != NULL ?
                             terrain_atlas_builder_get_texture_settings (state->builder)->source_images->len : 1,
                             out);
            }
            break;

          case TEXTURE_LIGHT_FROM_HEIGHTS:
          default:
            {
              gdouble gx = (1.0 - v) * side, gy = (1.0 - u) * side;
              gdouble sp = state->spacing;
              gdouble dx = (terrain_heightfield_sample_bilinear (state->field, gx + 1, gy) -
                            terrain_heightfield_sample_bilinear (state->field, gx - 1, gy)) / (2 * sp);
              gdouble dy = (terrain_heightfield_sample_bilinear (state->field, gx, gy + 1) -
                            terrain_heightfield_sample_bilinear (state->field, gx, gy - 1)) / (2 * sp);
              /* Normal (−dz/dX, −dz/dY, 1) with dz/dY = −dz/drow; light
               * from the north-west, 45° up. */
              gdouble nx = -dx, ny = dy, nz = 1.0, len = sqrt (nx * nx + ny * ny + 1.0);
              gdouble lit = (-nx + ny + nz * M_SQRT2) / (2.0 * len);
              guint8 g = (guint8) CLAMP (lround (255.0 * (0.3 + 0.7 * MAX (lit, 0.0))), 0, 255);

              out[0] = out[1] = out[2] = g;
              out[3] = 255;
            }
            break;
          }
      }

  return g_steal_pointer (&tile);
}

static gboolean
texture_item (BuildState  *state,
              gpointer     data,
              gpointer     scratch,
              guint        item,
              GError     **error)
{
  TextureBatch *batch = data;
  const TexturePlan *plan = batch->plan;
  guint index = batch->first + item;
  g_autoptr(TerrainImage) tile = NULL;
  g_autoptr(TerrainAtlasTexture) texture = NULL;
  g_autoptr(GBytes) body = NULL;
  guint level;
  guint32 x, y;

  terrain_quadtree_node_position (index, &level, &x, &y);
  tile = render_tile (state, plan, scratch, level, x, y, error);
  if (tile == NULL)
    return FALSE;
  texture = terrain_atlas_texture_new_from_image (tile, plan->format,
                                                  terrain_atlas_builder_get_texture_settings (state->builder)->quality,
                                                  terrain_atlas_builder_get_texture_settings (state->builder)->order,
                                                  error);
  if (texture == NULL)
    return FALSE;
  body = terrain_atlas_texture_encode_body (texture, error);
  if (body == NULL)
    return FALSE;
  batch->frames[item] = terrain_atlas_frame_new (TERRAIN_ATLAS_TOC_TEXTURE, body, error);
  return batch->frames[item] != NULL;
}

static guint
depth_for (guint pixels,
           guint tile)
{
  guint depth = 1;

  while (((guint64) tile << (depth - 1)) < pixels && depth < ATLAS_MAX_TREE_DEPTH)
    depth++;
  return depth;
}

/* ------------------------------------------------------------------------
 * A JPEG or PNG file streamed: decoded a row at a time, every level's tiles made
 * from a window of the last rows as soon as the rows they sample have
 * passed, and encoded in parallel while decoding goes on. The samples are
 * exactly those of render_tile () and sample_source () (the same
 * expressions, the same taps), so the tiles are the same bytes; only the
 * order of the work changes. Memory: the window of rows the widest
 * footprint spans, one stub row of tiles per level, the tiles waiting for
 * an encoder and the encoded tiles, which are written in stub order at
 * the end.
 */

#define STREAM_IN_FLIGHT_PER_THREAD 1

typedef struct
{
  guint tile;
  guint n;                 /* stubs a side */
  guint size;              /* pixels a side: n × tile */
  gboolean bilinear;
  guint kx, ky;            /* box taps (bilinear: 2) */
  guint32 *cols;           /* size × kx source columns, by tile pixel V */
  guint32 *rows;           /* size × ky source rows, by tile pixel G */
  gdouble *fx;             /* bilinear weights */
  gdouble *fy;
  guint32 *ready;          /* size: the source row after which G is made */
  gint64 next;             /* next G to make (they go down), -1 when done */
  guint level;
  guint8 **band;           /* n RGB tiles of the stub row being made */
} StreamLevel;

/* Encoded tiles wait in an unlinked temporary file, in the order they
 * were made, until they are written in stub order at the end. */
typedef struct
{
  BuildState *state;
  const TexturePlan *plan;
  int spill;               /* the temporary file */
  guint64 spilled;         /* its size */
  guint64 *offsets;        /* by stub */
  guint32 *sizes;          /* by stub; 0 not made */
  guint32 largest;
  GAsyncQueue *free_tiles; /* tile buffers to use again (no heap churn) */
  guint n_tiles;           /* tile buffers made */
  guint max_tiles;         /* at most: one stub row of every level */
  GMutex lock;
  GCond cond;
  guint in_flight;
  GError *error;
} StreamEncoders;

typedef struct
{
  guint8 *rgb;             /* tile × tile pixels */
  guint stub;
} StreamTile;

/* The texture of one tile (RGB, alpha 255 as every streamed pixel's): a JPEG
 * straight from the rows, any other format through an RGBA8 image. */
static TerrainAtlasTexture *
encode_texture (StreamEncoders  *enc,
                const guint8    *rgb,
                GError         **error)
{
  const BuildTextureSettings *tex = terrain_atlas_builder_get_texture_settings (enc->state->builder);
  guint side = enc->plan->tile;
  g_autoptr(TerrainImage) tile = NULL;
  gsize stride;
  guint8 *pixels;

  if (enc->plan->format == TERRAIN_ATLAS_TEXTURE_JPEG)
    return terrain_atlas_texture_new_jpeg_rgb (rgb, side, side, (gsize) side * 3, tex->quality,
                                               tex->order, error);

  tile = terrain_image_new (TERRAIN_IMAGE_RGBA8, side, side, error);
  if (tile == NULL)
    return NULL;
  pixels = terrain_image_get_data (tile, NULL);
  stride = terrain_image_get_stride (tile);
  for (guint y = 0; y < side; y++)
    {
      const guint8 *in = rgb + (gsize) y * side * 3;
      guint8 *out = pixels + (gsize) y * stride;

      for (guint x = 0; x < side; x++, in += 3, out += 4)
        {
          out[0] = in[0];
          out[1] = in[1];
          out[2] = in[2];
          out[3] = 255;
        }
    }
  return terrain_atlas_texture_new_from_image (tile, enc->plan->format, tex->quality, tex->order,
                                               error);
}

/* Encodes one tile and spills its frame. */
static gboolean
encode_tile (StreamEncoders  *enc,
             const guint8    *rgb,
             guint            stub,
             GError         **error)
{
  g_autoptr(TerrainAtlasTexture) texture = encode_texture (enc, rgb, error);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GBytes) frame = NULL;
  const guint8 *data;
  gsize size = 0;
  guint64 at;

  if (texture == NULL)
    return FALSE;
  body = terrain_atlas_texture_encode_body (texture, error);
  if (body == NULL)
    return FALSE;
  frame = terrain_atlas_frame_new (TERRAIN_ATLAS_TOC_TEXTURE, body, error);
  if (frame == NULL)
    return FALSE;
  data = g_bytes_get_data (frame, &size);

  g_mutex_lock (&enc->lock);
  at = enc->spilled;
  enc->spilled += size;
  enc->largest = MAX (enc->largest, (guint32) size);
  g_mutex_unlock (&enc->lock);
  while (size > 0)
    {
      gssize n = pwrite (enc->spill, data, size, (off_t) at);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int saved = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       "Atlas builder: cannot write a texture tile to a temporary file: %s",
                       g_strerror (saved));
          return FALSE;
        }
      data += n;
      size -= (gsize) n;
      at += (guint64) n;
    }
  enc->offsets[stub] = at - g_bytes_get_size (frame);
  enc->sizes[stub] = (guint32) g_bytes_get_size (frame);
  return TRUE;
}

static void
stream_encode (gpointer data,
               gpointer user_data)
{
  StreamTile *job = data;
  StreamEncoders *enc = user_data;
  GError *local = NULL;

  if (!encode_tile (enc, job->rgb, job->stub, &local))
    {
      g_mutex_lock (&enc->lock);
      if (enc->error == NULL)
        enc->error = g_steal_pointer (&local);
      g_mutex_unlock (&enc->lock);
      g_clear_error (&local);
    }
  g_async_queue_push (enc->free_tiles, job->rgb);
  g_free (job);

  g_mutex_lock (&enc->lock);
  enc->in_flight--;
  g_cond_signal (&enc->cond);
  g_mutex_unlock (&enc->lock);
}

/* Hands a finished tile to the encoders (or encodes it here, with one
 * thread); waits while too many are waiting. Takes @rgb. */
static gboolean
stream_submit (StreamEncoders  *enc,
               GThreadPool     *pool,
               guint8          *rgb,
               guint            stub,
               GError         **error)
{
  StreamTile *job;

  if (pool == NULL)
    {
      gboolean ok = encode_tile (enc, rgb, stub, error);

      g_async_queue_push (enc->free_tiles, rgb);
      return ok;
    }

  g_mutex_lock (&enc->lock);
  while (enc->in_flight >= STREAM_IN_FLIGHT_PER_THREAD * enc->state->n_threads &&
         enc->error == NULL)
    g_cond_wait (&enc->cond, &enc->lock);
  if (enc->error != NULL)
    {
      g_mutex_unlock (&enc->lock);
      g_async_queue_push (enc->free_tiles, rgb);
      return TRUE;        /* reported once the encoders are done */
    }
  enc->in_flight++;
  g_mutex_unlock (&enc->lock);

  job = g_new (StreamTile, 1);
  job->rgb = rgb;
  job->stub = stub;
  return g_thread_pool_push (pool, job, error);
}

/* The taps of one axis, as sample_source () takes them: @c is the
 * footprint's centre and @s its span in source pixels. */
static void
stream_taps (gdouble   c,
             gdouble   s,
             gboolean  bilinear,
             guint     k,
             guint     limit,
             guint32  *out,
             gdouble  *weight)
{
  if (bilinear)
    {
      gdouble p = c - 0.5;
      gint64 x0 = (gint64) floor (p);

      *weight = p - x0;
      out[0] = (guint32) CLAMP (x0, 0, (gint64) limit - 1);
      out[1] = (guint32) CLAMP (x0 + 1, 0, (gint64) limit - 1);
      return;
    }
  for (guint i = 0; i < k; i++)
    {
      gdouble x = c - s / 2 + s * (i + 0.5) / k;

      out[i] = (guint32) CLAMP ((gint64) floor (x), 0, (gint64) limit - 1);
    }
}

static void
stream_level_clear (StreamLevel *l)
{
  g_free (l->cols);
  g_free (l->rows);
  g_free (l->fx);
  g_free (l->fy);
  g_free (l->ready);
  if (l->band != NULL)
    for (guint i = 0; i < l->n; i++)
      g_free (l->band[i]);
  g_free (l->band);
}

/* Plans level @level: every tile pixel's taps; returns the rows of the
 * window it needs. */
static guint
stream_level_init (StreamLevel        *l,
                   const TexturePlan  *plan,
                   guint               level,
                   gdouble             scale_x,
                   gdouble             scale_y)
{
  gdouble n = (gdouble) ((guint64) 1 << level), size = n * plan->tile;
  gdouble sx = scale_x / size, sy = scale_y / size;
  guint span = 1;

  l->level = level;
  l->tile = plan->tile;
  l->n = 1u << level;
  l->size = l->n * plan->tile;
  l->bilinear = sx <= 1.0 && sy <= 1.0;
  if (l->bilinear)
    l->kx = l->ky = 2;
  else
    {
      l->kx = MAX ((guint) MIN (ceil (sx), MAX_TAPS), 1);
      l->ky = MAX ((guint) MIN (ceil (sy), MAX_TAPS), 1);
    }
  l->cols = g_new (guint32, (gsize) l->size * l->kx);
  l->rows = g_new (guint32, (gsize) l->size * l->ky);
  l->fx = g_new0 (gdouble, l->size);
  l->fy = g_new0 (gdouble, l->size);
  l->ready = g_new (guint32, l->size);
  l->band = g_new0 (guint8 *, l->n);

  /* V = tx × tile + j (a tile row, a source column); G = ty × tile + i. */
  for (guint32 t = 0; t < l->n; t++)
    for (guint q = 0; q < plan->tile; q++)
      {
        gdouble v = (t + (q + 0.5) / plan->tile) / n;
        gdouble u = v;    /* the same expression for ty, i */
        gsize k = (gsize) t * plan->tile + q;

        stream_taps ((1.0 - v) * scale_x, sx, l->bilinear, l->kx, plan->source.width,
                     l->cols + k * l->kx, &l->fx[k]);
        stream_taps ((1.0 - u) * scale_y, sy, l->bilinear, l->ky, plan->source.height,
                     l->rows + k * l->ky, &l->fy[k]);
      }

  /* G is made once its last row has come and every G above it is made. */
  for (gint64 g = (gint64) l->size - 1; g >= 0; g--)
    {
      const guint32 *r = l->rows + (gsize) g * l->ky;
      guint32 lo = r[0], hi = r[0];

      for (guint t = 1; t < l->ky; t++)
        {
          lo = MIN (lo, r[t]);
          hi = MAX (hi, r[t]);
        }
      if (g + 1 < (gint64) l->size)
        hi = MAX (hi, l->ready[g + 1]);
      l->ready[g] = hi;
      span = MAX (span, hi - lo + 1);
    }
  l->next = (gint64) l->size - 1;
  return span;
}

/* Makes tile pixel column G of the level's stub row from the window. */
/* A tile buffer for a stub row: one given back by the encoders, a new one
 * while fewer than enc->max_tiles exist, else the next one an encoder
 * gives back. So the tiles in memory are at most one stub row of every
 * level: a row's tiles waiting for an encoder are the buffers of the
 * level's next row. */
static guint8 *
stream_tile (StreamEncoders *enc,
             gsize           size)
{
  guint8 *rgb = g_async_queue_try_pop (enc->free_tiles);

  if (rgb != NULL)
    return rgb;
  if (enc->n_tiles < enc->max_tiles)
    {
      enc->n_tiles++;
      return g_malloc (size);
    }
  return g_async_queue_pop (enc->free_tiles);
}

static void
stream_make (StreamLevel    *l,
             StreamEncoders *enc,
             const guint8   *window,
             gsize           row_bytes,
             guint           window_rows,
             guint           g)
{
  guint i = g % l->tile;
  const guint32 *rows = l->rows + (gsize) g * l->ky;
  const guint8 *line[MAX_TAPS];

  for (guint t = 0; t < l->ky; t++)
    line[t] = window + (gsize) (rows[t] % window_rows) * row_bytes;

  for (guint tx = 0; tx < l->n; tx++)
    {
      guint8 *pixels;
      gsize stride = (gsize) l->tile * 3;

      if (l->band[tx] == NULL)
        l->band[tx] = stream_tile (enc, (gsize) l->tile * stride);
      pixels = l->band[tx];

      for (guint j = 0; j < l->tile; j++)
        {
          gsize vk = (gsize) tx * l->tile + j;
          const guint32 *cols = l->cols + vk * l->kx;
          guint8 *out = pixels + (gsize) j * stride + 3 * (gsize) i;

          if (l->bilinear)
            {
              gdouble fx = l->fx[vk], fy = l->fy[g];
              const guint8 *a = line[0] + 4 * (gsize) cols[0], *b = line[0] + 4 * (gsize) cols[1];
              const guint8 *c = line[1] + 4 * (gsize) cols[0], *d = line[1] + 4 * (gsize) cols[1];

              for (guint k = 0; k < 3; k++)
                {
                  gdouble v = (a[k] * (1 - fx) + b[k] * fx) * (1 - fy) +
                              (c[k] * (1 - fx) + d[k] * fx) * fy;
                  /* lround () of a v in [0, 255 + ε] (the weights are in
                   * [0, 1]): v − trunc (v) is exact there, and a half
                   * goes up, as lround's. */
                  gint whole = (gint) v;

                  whole += v - whole >= 0.5;
                  out[k] = (guint8) MIN (whole, 255);
                }
            }
          else
            {
              guint sum[3] = { 0, 0, 0 };
              guint taps = l->kx * l->ky;

              for (guint ty = 0; ty < l->ky; ty++)
                for (guint t = 0; t < l->kx; t++)
                  {
                    const guint8 *p = line[ty] + 4 * (gsize) cols[t];

                    sum[0] += p[0];
                    sum[1] += p[1];
                    sum[2] += p[2];
                  }
              for (guint k = 0; k < 3; k++)
                out[k] = (guint8) ((sum[k] + taps / 2) / taps);
            }
        }
    }
}

/* A texture file's rows, top to bottom, as the RGBA8 rows load_picture ()
 * gives: a JPEG read from a stream, or a PNG mapped and decoded a row at a
 * time. */
typedef struct
{
  GFileInputStream *input;
  TerrainJpegRows *jpeg;
  GBytes *bytes;
  TerrainPngRows *png;
  TerrainImageFormat format;
  guint width;
  guint height;
  guint8 *rgba;            /* a grey PNG row as RGBA */
} RowSource;

static void
row_source_clear (RowSource *src)
{
  g_clear_pointer (&src->jpeg, terrain_jpeg_rows_free);
  g_clear_object (&src->input);
  g_clear_pointer (&src->png, terrain_png_rows_free);
  g_clear_pointer (&src->bytes, g_bytes_unref);
  g_clear_pointer (&src->rgba, g_free);
}

/* Whether a PNG has alpha: an alpha channel (colour type 4 or 6) or a
 * tRNS chunk before its image data. Damaged chunks say no: the decoder
 * reports them. */
static gboolean
png_has_alpha (const guint8 *data,
               gsize         size)
{
  gsize pos = 8;

  if (size < 26)
    return FALSE;
  if (data[25] == 4 || data[25] == 6)
    return TRUE;
  while (pos + 8 <= size)
    {
      guint32 length = ((guint32) data[pos] << 24) | ((guint32) data[pos + 1] << 16) |
                       ((guint32) data[pos + 2] << 8) | data[pos + 3];
      const guint8 *type = data + pos + 4;

      if (memcmp (type, "tRNS", 4) == 0)
        return TRUE;
      if (memcmp (type, "IDAT", 4) == 0 || length > size - pos - 8)
        return FALSE;
      pos += 12 + (gsize) length;
    }
  return FALSE;
}

/* Opens @file's rows. Returns 1 when they stream, 0 when the file is no
 * JPEG or PNG, an interlaced PNG, or (unless @alpha_dropped) a PNG with
 * alpha, -1 on error (not prefixed with the file's name). */
static gint
row_source_open (RowSource     *src,
                 GFile         *file,
                 gboolean       alpha_dropped,
                 GCancellable  *cancellable,
                 GError       **error)
{
  static const guint8 png_magic[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
  guint8 magic[8] = { 0 };
  gsize got = 0;

  memset (src, 0, sizeof *src);
  src->input = g_file_read (file, cancellable, error);
  if (src->input == NULL ||
      !g_input_stream_read_all (G_INPUT_STREAM (src->input), magic, sizeof magic, &got,
                                cancellable, error))
    return -1;

  if (got >= 3 && magic[0] == 0xFF && magic[1] == 0xD8 && magic[2] == 0xFF)
    {
      if (!g_seekable_seek (G_SEEKABLE (src->input), 0, G_SEEK_SET, cancellable, error))
        return -1;
      src->jpeg = terrain_jpeg_rows_new (G_INPUT_STREAM (src->input), NULL, &src->width,
                                         &src->height, error);
      if (src->jpeg == NULL)
        return -1;
      src->format = TERRAIN_IMAGE_RGBA8;
      return 1;
    }
  g_clear_object (&src->input);
  if (got < sizeof magic || memcmp (magic, png_magic, sizeof magic) != 0)
    return 0;

  {
    gboolean interlaced = FALSE;
    gsize size = 0;
    const guint8 *data;

    src->bytes = terrain_file_load_bytes (file, cancellable, error);
    if (src->bytes == NULL)
      return -1;
    data = g_bytes_get_data (src->bytes, &size);
    if (!alpha_dropped && png_has_alpha (data, size))
      return 0;
    src->png = terrain_png_rows_new (src->bytes, NULL, "PNG texture", error);
    if (src->png == NULL)
      return -1;
    terrain_png_rows_get_info (src->png, &src->width, &src->height, &src->format, &interlaced);
    if (interlaced)
      return 0;
    if (src->format != TERRAIN_IMAGE_RGBA8)
      src->rgba = g_malloc ((gsize) src->width * 4);
  }
  return 1;
}

/* The next row, RGBA8, valid until the next call; after the last the PNG's
 * remaining chunks are read, as the whole-picture decoder does. */
static const guint8 *
row_source_next (RowSource  *src,
                 guint       r,
                 GError    **error)
{
  TerrainPngRow row;

  if (src->jpeg != NULL)
    return terrain_jpeg_rows_next (src->jpeg, error);

  if (!terrain_png_rows_next (src->png, &row, error))
    return NULL;
  if (r + 1 == src->height && !terrain_png_rows_finish (src->png, error))
    return NULL;
  if (src->format == TERRAIN_IMAGE_RGBA8)
    return row.pixels;
  /* As to_rgba () makes grey. */
  for (guint x = 0; x < src->width; x++)
    {
      guint8 v, *p = src->rgba + 4 * (gsize) x;

      if (src->format == TERRAIN_IMAGE_GRAY8)
        v = row.pixels[x];
      else
        {
          guint16 w16;

          memcpy (&w16, row.pixels + 2 * (gsize) x, 2);
          v = (guint8) (w16 >> 8);
        }
      p[0] = p[1] = p[2] = v;
      p[3] = 255;
    }
  return src->rgba;
}

static gboolean
stream_rows (BuildState         *state,
             const TexturePlan  *plan,
             TerrainAtlasToc    *toc,
             guint64            *done,
             guint64             total,
             GError            **error)
{
  guint n_stubs = (guint) terrain_quadtree_node_count (plan->depth);
  RowSource rows = { 0 };
  g_autofree char *spill_path = NULL;
  g_autofree guint8 *frame = NULL;
  StreamLevel levels[ATLAS_MAX_TREE_DEPTH];
  StreamEncoders enc = { 0 };
  GThreadPool *pool = NULL;
  guint width = 0, height = 0, data_w, data_h, window_rows = 2;
  gdouble side = state->side, scale_x, scale_y;
  gsize row_bytes;
  guint8 *window = NULL;
  gboolean ok = TRUE;

  memset (levels, 0, sizeof levels);
  enc.spill = -1;
  enc.free_tiles = g_async_queue_new_full (g_free);
  g_mutex_init (&enc.lock);
  g_cond_init (&enc.cond);

  switch (row_source_open (&rows, plan->source.streamed, plan->format == TERRAIN_ATLAS_TEXTURE_JPEG,
                           state->cancellable, error))
    {
    case 1:
      width = rows.width;
      height = rows.height;
      break;
    case 0:
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                           "Atlas builder: the texture file changed since it was planned");
      G_GNUC_FALLTHROUGH;
    default:
      {
        g_autofree char *name = g_file_get_parse_name (plan->source.streamed);

        g_prefix_error (error, "%s: ", name);
        ok = FALSE;
        goto out;
      }
    }
  if (width != plan->source.width || height != plan->source.height)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas builder: the texture changed size (%u x %u, planned %u x %u)",
                   width, height, plan->source.width, plan->source.height);
      ok = FALSE;
      goto out;
    }

  terrain_heightfield_get_data_size (state->field, &data_w, &data_h);
  scale_x = side / MAX (data_w - 1, 1) * plan->source.width;
  scale_y = side / MAX (data_h - 1, 1) * plan->source.height;
  for (guint level = 0; level < plan->depth; level++)
    {
      /* Not inside MAX (), which would plan the level twice. */
      guint span = stream_level_init (&levels[level], plan, level, scale_x, scale_y);

      window_rows = MAX (window_rows, span);
      enc.max_tiles += levels[level].n;
    }

  row_bytes = (gsize) width * 4;
  window = g_try_malloc ((gsize) window_rows * row_bytes);
  if (window == NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Atlas builder: no memory for %u rows of the %u x %u texture",
                   window_rows, width, height);
      ok = FALSE;
      goto out;
    }

  enc.state = state;
  enc.plan = plan;
  enc.offsets = g_new0 (guint64, n_stubs);
  enc.sizes = g_new0 (guint32, n_stubs);
  enc.spill = g_file_open_tmp ("terrain-atlas-tiles-XXXXXX", &spill_path, error);
  if (enc.spill < 0)
    {
      g_prefix_error (error, "Atlas builder: a temporary file for the texture tiles: ");
      ok = FALSE;
      goto out;
    }
  g_unlink (spill_path);
  if (state->n_threads > 1)
    {
      pool = g_thread_pool_new (stream_encode, &enc, (gint) state->n_threads, FALSE, error);
      if (pool == NULL)
        ok = FALSE;
    }

  for (guint32 r = 0; ok && r < height; r++)
    {
      const guint8 *row = row_source_next (&rows, r, error);

      if (row == NULL)
        {
          g_autofree char *name = g_file_get_parse_name (plan->source.streamed);

          g_prefix_error (error, "%s: ", name);
          ok = FALSE;
          break;
        }
      memcpy (window + (gsize) (r % window_rows) * row_bytes, row, row_bytes);

      for (guint level = 0; ok && level < plan->depth; level++)
        {
          StreamLevel *l = &levels[level];

          while (ok && l->next >= 0 && l->ready[l->next] <= r)
            {
              guint g = (guint) l->next;

              stream_make (l, &enc, window, row_bytes, window_rows, g);
              if (g % l->tile == 0)
                {
                  guint32 ty = g / l->tile;

                  for (guint32 tx = 0; ok && tx < l->n; tx++)
                    ok = stream_submit (&enc, pool, g_steal_pointer (&l->band[tx]),
                                        (guint) terrain_quadtree_node_id (level, tx, ty), error);
                }
              l->next--;
            }
        }

      if (ok && (r & 63) == 63)
        {
          if (g_cancellable_set_error_if_cancelled (state->cancellable, error))
            ok = FALSE;
          build_progress (state, total > 0 ?
                          (*done + (gdouble) n_stubs * (r + 1) / height) / (gdouble) total : 1.0);
        }
    }

  if (pool != NULL)
    g_thread_pool_free (pool, FALSE, TRUE);
  if (enc.error != NULL)
    {
      if (ok)
        g_propagate_error (error, g_steal_pointer (&enc.error));
      g_clear_error (&enc.error);
      ok = FALSE;
    }

  if (ok)
    frame = g_malloc (MAX (enc.largest, 1));
  for (guint i = 0; ok && i < n_stubs; i++)
    {
      TerrainAtlasStubData *d = terrain_atlas_toc_get_stub_data (toc, i);
      guint32 offset = 0;
      gsize got = 0;

      if (enc.sizes[i] == 0)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "Atlas builder: texture stub %u was not made", i);
          ok = FALSE;
          break;
        }
      while (got < enc.sizes[i])
        {
          gssize n = pread (enc.spill, frame + got, enc.sizes[i] - got,
                            (off_t) (enc.offsets[i] + got));

          if (n < 0 && errno == EINTR)
            continue;
          if (n <= 0)
            {
              int saved = n < 0 ? errno : EIO;

              g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                           "Atlas builder: cannot read a texture tile back from its temporary "
                           "file: %s", g_strerror (saved));
              ok = FALSE;
              break;
            }
          got += (gsize) n;
        }
      if (ok)
        ok = build_sink_append (&state->sink, frame, enc.sizes[i], &offset, error);
      d->offset = offset;
      d->length = enc.sizes[i];
      state->stats.n_texture_tiles++;
    }
  *done += n_stubs;
  build_progress (state, total > 0 ? (gdouble) *done / (gdouble) total : 1.0);

out:
  row_source_clear (&rows);
  if (enc.spill >= 0)
    close (enc.spill);
  g_free (enc.offsets);
  g_free (enc.sizes);
  g_mutex_clear (&enc.lock);
  g_cond_clear (&enc.cond);
  g_async_queue_unref (enc.free_tiles);
  g_free (window);
  for (guint level = 0; level < plan->depth; level++)
    stream_level_clear (&levels[level]);
  return ok;
}

/* A texture file that is a JPEG or a non-interlaced PNG (without alpha,
 * unless the tiles drop it) is streamed: its header is read here.
 * Returns 1 when @plan streams it, 0 when it takes the whole-picture path,
 * -1 on error. */
static gint
plan_streamed_file (TexturePlan                 *plan,
                    const BuildTextureSettings  *tex,
                    GCancellable                *cancellable,
                    GError                     **error)
{
  RowSource rows;
  gint streamed;

  if (tex->texture_file == NULL)
    return 0;
  streamed = row_source_open (&rows, tex->texture_file, plan->format == TERRAIN_ATLAS_TEXTURE_JPEG,
                              cancellable, error);
  if (streamed > 0)
    {
      plan->kind = TEXTURE_FROM_SOURCE;
      plan->source.streamed = g_object_ref (tex->texture_file);
      plan->source.width = rows.width;
      plan->source.height = rows.height;
      plan->depth = tex->texture_depth > 0 ? tex->texture_depth :
                    depth_for (MAX (rows.width, rows.height), plan->tile);
    }
  row_source_clear (&rows);
  if (streamed < 0)
    {
      g_autofree char *name = g_file_get_parse_name (tex->texture_file);

      g_prefix_error (error, "%s: ", name);
    }
  return streamed;
}

guint
build_texture_toc_count (TerrainAtlasBuilder *builder)
{
  const BuildTextureSettings *tex = terrain_atlas_builder_get_texture_settings (builder);

  if (tex->type == TERRAIN_ATLAS_TERRAIN_BLENDER)
    return 2;
  return tex->texture_image != NULL || tex->texture_file != NULL || tex->tile_pattern != NULL;
}

static void
texture_jobs_free (TextureJobs *jobs)
{
  if (jobs == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (jobs->owned); i++)
    g_clear_pointer (&jobs->owned[i], terrain_image_unref);
  for (guint i = 0; i < G_N_ELEMENTS (jobs->plans); i++)
    g_clear_object (&jobs->plans[i].source.streamed);
  g_free (jobs);
}

/* The stats of the unique texture: its size, tree and tiles. */
static void
record_texture (BuildState        *state,
                const TexturePlan *plan)
{
  state->stats.texture_width = plan->source.width;
  state->stats.texture_height = plan->source.height;
  state->stats.texture_depth = plan->depth;
  state->stats.texture_tile_size = plan->tile;
}

static gboolean
plan_source (BuildState     *state,
             TextureJobs    *jobs,
             TexturePlan    *plan,
             TerrainImage   *image,
             guint           depth,
             GError        **error)
{
  TerrainImage *rgba = to_rgba (image, error);

  if (rgba == NULL)
    return FALSE;
  jobs->owned[jobs->n_plans] = rgba;
  plan->kind = TEXTURE_FROM_SOURCE;
  plan->source.image = rgba;
  plan->source.width = terrain_image_get_width (rgba);
  plan->source.height = terrain_image_get_height (rgba);
  plan->depth = depth > 0 ? depth : depth_for (MAX (plan->source.width, plan->source.height),
                                               plan->tile);
  (void) state;
  return TRUE;
}

/* Loads the pictures and adds the (empty) texture TOCs to state->tocs. */
gboolean
build_texture_prepare (BuildState  *state,
                       GError     **error)
{
  const BuildTextureSettings *tex = terrain_atlas_builder_get_texture_settings (state->builder);
  TextureJobs *jobs = g_new0 (TextureJobs, 1);
  guint heights_depth;

  state->texture_jobs = jobs;
  jobs->lo = state->height_min;
  jobs->hi = state->height_max;
  heights_depth = depth_for (state->side, tex->tile_size);

  if (tex->type == TERRAIN_ATLAS_TERRAIN_BLENDER)
    {
      TexturePlan *opacity = &jobs->plans[jobs->n_plans];

      opacity->tile = tex->tile_size;
      opacity->format = TERRAIN_ATLAS_TEXTURE_PNG;
      if (tex->opacity_image != NULL)
        {
          if (!plan_source (state, jobs, opacity, tex->opacity_image, 0, error))
            return FALSE;
        }
      else
        {
          opacity->kind = TEXTURE_OPACITY_FROM_HEIGHTS;
          opacity->depth = heights_depth;
        }
      jobs->n_plans++;

      {
        TexturePlan *light = &jobs->plans[jobs->n_plans];

        light->tile = tex->tile_size;
        light->format = tex->texture_format;
        if (tex->lightmap_image != NULL)
          {
            if (!plan_source (state, jobs, light, tex->lightmap_image, 0, error))
              return FALSE;
          }
        else
          {
            light->kind = TEXTURE_LIGHT_FROM_HEIGHTS;
            light->depth = heights_depth;
          }
        jobs->n_plans++;
      }
    }
  else if (tex->tile_pattern != NULL)
    {
      TexturePlan *plan = &jobs->plans[jobs->n_plans];
      g_autoptr(TerrainImage) first = NULL;

      plan->kind = TEXTURE_FROM_SOURCE;
      plan->tile = tex->tile_size;
      plan->format = tex->texture_format;
      plan->source.pattern = tex->tile_pattern;
      plan->source.columns = tex->tile_columns;
      plan->source.rows = tex->tile_rows;
      first = load_tile (&plan->source, 0, 0, error);
      if (first == NULL)
        return FALSE;
      plan->source.tile_width = terrain_image_get_width (first);
      plan->source.tile_height = terrain_image_get_height (first);
      if ((guint64) plan->source.tile_width * tex->tile_columns > G_MAXINT32 ||
          (guint64) plan->source.tile_height * tex->tile_rows > G_MAXINT32)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                       "Atlas builder: a %u x %u grid of %u x %u tiles is too large a picture",
                       tex->tile_columns, tex->tile_rows, plan->source.tile_width,
                       plan->source.tile_height);
          return FALSE;
        }
      plan->source.width = plan->source.tile_width * tex->tile_columns;
      plan->source.height = plan->source.tile_height * tex->tile_rows;
      plan->depth = tex->texture_depth > 0 ? tex->texture_depth :
                    depth_for (MAX (plan->source.width, plan->source.height), plan->tile);
      record_texture (state, plan);
      jobs->n_plans++;
    }
  else if (tex->texture_image != NULL || tex->texture_file != NULL)
    {
      TexturePlan *plan = &jobs->plans[jobs->n_plans];
      g_autoptr(TerrainImage) loaded = NULL;
      gint streamed;

      plan->tile = tex->tile_size;
      plan->format = tex->texture_format;
      streamed = tex->texture_image == NULL ? plan_streamed_file (plan, tex, state->cancellable, error) :
                 0;
      if (streamed < 0)
        return FALSE;
      if (streamed == 0)
        {
          if (tex->texture_image == NULL)
            {
              loaded = load_picture (tex->texture_file, state->cancellable, error);
              if (loaded == NULL)
                return FALSE;
            }
          if (!plan_source (state, jobs, plan,
                            loaded != NULL ? loaded : tex->texture_image, tex->texture_depth,
                            error))
            return FALSE;
        }
      record_texture (state, plan);
      jobs->n_plans++;
    }

  for (guint i = 0; i < jobs->n_plans; i++)
    {
      TexturePlan *plan = &jobs->plans[i];

      plan->toc = state->tocs->len;
      g_ptr_array_add (state->tocs,
                       terrain_atlas_toc_new (TERRAIN_ATLAS_TOC_TEXTURE, state->version,
                                              plan->depth,
                                              (guint) terrain_quadtree_node_count (plan->depth)));
    }
  return TRUE;
}

void
build_texture_cleanup (BuildState *state)
{
  g_clear_pointer (&state->texture_jobs, texture_jobs_free);
}

/* Makes and writes every tile of every texture TOC, in stub order. */
gboolean
build_textures (BuildState  *state,
                GError     **error)
{
  TextureJobs *jobs = state->texture_jobs;
  guint64 total = 0, done = 0;
  GBytes **frames = g_new0 (GBytes *, TEXTURE_BATCH);
  gboolean ok = TRUE;

  for (guint p = 0; p < jobs->n_plans; p++)
    total += terrain_quadtree_node_count (jobs->plans[p].depth);

  for (guint p = 0; p < jobs->n_plans && ok; p++)
    {
      const TexturePlan *plan = &jobs->plans[p];
      TerrainAtlasToc *toc = g_ptr_array_index (state->tocs, plan->toc);
      guint n = (guint) terrain_quadtree_node_count (plan->depth);

      if (plan->source.streamed != NULL)
        {
          ok = stream_rows (state, plan, toc, &done, total, error);
          continue;
        }
      for (guint first = 0; first < n && ok; first += TEXTURE_BATCH)
        {
          TextureBatch batch = { plan, first, frames };
          guint count = MIN (TEXTURE_BATCH, n - first);

          ok = build_run_parallel (state, count, texture_item, &batch, texture_scratch_new,
                                   texture_scratch_free, error);
          for (guint i = 0; i < count; i++)
            {
              if (ok && frames[i] != NULL)
                {
                  TerrainAtlasStubData *d = terrain_atlas_toc_get_stub_data (toc, first + i);
                  gsize size = 0;
                  const guint8 *data = g_bytes_get_data (frames[i], &size);
                  guint32 offset = 0;

                  ok = build_sink_append (&state->sink, data, size, &offset, error);
                  d->offset = offset;
                  d->length = (guint32) size;
                  state->stats.n_texture_tiles++;
                }
              g_clear_pointer (&frames[i], g_bytes_unref);
            }
          done += count;
          build_progress (state, total > 0 ? (gdouble) done / (gdouble) total : 1.0);
        }
    }

  g_free (frames);
  build_texture_cleanup (state);
  return ok;
}
