/* terrain-atlas-builder-texture-stream.c: an Atlas texture tree from a JPEG
 * or PNG file streamed a row at a time, for the Atlas builder
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "terrain-atlas-builder-texture-private.h"
#include "terrain-quadtree.h"
#include "core/terrain-error.h"
#include "core/terrain-image-private.h"
#include "core/terrain-io.h"
#include "terrain-atlas-private.h"

/* A JPEG or PNG file streamed: decoded a row at a time, every level's tiles made
 * from a window of the last rows as soon as the rows they sample have
 * passed, and encoded in parallel while decoding goes on. The samples are
 * exactly those of render_tile () and sample_source () in
 * terrain-atlas-builder-texture.c (the same
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

gboolean
texture_stream_rows (BuildState         *state,
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
gint
texture_plan_streamed_file (TexturePlan                 *plan,
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
                    texture_depth_for (MAX (rows.width, rows.height), plan->tile);
    }
  row_source_clear (&rows);
  if (streamed < 0)
    {
      g_autofree char *name = g_file_get_parse_name (tex->texture_file);

      g_prefix_error (error, "%s: ", name);
    }
  return streamed;
}
