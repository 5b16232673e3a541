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
 * instead (terrain-atlas-builder-texture-stream.c): decoded a row at a time, so a picture larger
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

#include "terrain-atlas-builder-texture-private.h"
#include "terrain-quadtree.h"
#include "core/terrain-error.h"
#include "core/terrain-image-private.h"
#include "core/terrain-io.h"
#include "terrain-atlas-private.h"

#define TEXTURE_BATCH 64
#define TILE_CACHE 8


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

guint
texture_depth_for (guint pixels,
                   guint tile)
{
  guint depth = 1;

  while (((guint64) tile << (depth - 1)) < pixels && depth < ATLAS_MAX_TREE_DEPTH)
    depth++;
  return depth;
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
  plan->depth = depth > 0 ? depth : texture_depth_for (MAX (plan->source.width, plan->source.height),
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
  heights_depth = texture_depth_for (state->side, tex->tile_size);

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
                    texture_depth_for (MAX (plan->source.width, plan->source.height), plan->tile);
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
      streamed = tex->texture_image == NULL ? texture_plan_streamed_file (plan, tex, state->cancellable, error) :
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
          ok = texture_stream_rows (state, plan, toc, &done, total, error);
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
