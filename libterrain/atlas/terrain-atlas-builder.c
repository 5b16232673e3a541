/* terrain-atlas-builder.c: Atlas files from heightfields and images: the
 * builder object, the threaded driver that sequences the passes, and its
 * progress, cancellation and output plumbing. The builder's options are in
 * terrain-atlas-builder-options.c; the passes are apart
 * (terrain-atlas-builder-activation.c, -geometry.c, -texture.c); all share
 * terrain-atlas-builder-private.h.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "terrain-atlas-builder.h"
#include "terrain-atlas-builder-private.h"
#include "terrain-atlas-config.h"
#include "terrain-quadtree.h"
#include "core/terrain-error.h"
#include "core/terrain-io.h"
#include "core/terrain-writer-private.h"

/* Default leaf chunk size: TGEA 1.8 uses 128 cells above 1024 samples
 * wide, else 64 (field-notes.md). */
#define CHUNK_SIZE_LARGE 128
#define CHUNK_SIZE_SMALL 64
#define CHUNK_SIZE_LARGE_ABOVE 1024

/* Progress reports at most this often (microseconds). */
#define PROGRESS_INTERVAL (100 * 1000)

/* The name of the config stub (8-byte field of atlas-chu-tqt.md §1c). */
#define CONFIG_STUB_NAME "schema"

/**
 * TerrainAtlasBuilder:
 *
 * Builds Torque (TGEA) Atlas files from a [class@Terrain.Heightfield] and,
 * optionally, images: the authoring path of `terrain build-atlas`.
 *
 * Geometry (a `Geom` TOC, atlas-chu-tqt.md §1 and §3): a chunked-LOD
 * quadtree in the manner of Ulrich's and Lindstrom's (field-notes.md,
 * "Chunked LOD error metric"). Each vertex gets an activation level from the
 * exact error its removal makes over its whole diamond; leaf chunks stay
 * within the error threshold (metres) at every sample and each level up
 * doubles it. Chunks share their border vertices exactly with their
 * neighbours on the same level, hang skirts below their borders (counted
 * by mSkirtSkipCount so collision skips them), morph towards their parent's
 * mesh (point morph offsets; texture morph offsets are 0 since texture
 * coordinates follow X and Y), store normals from version 140, carry bounds
 * that hold their own vertices (before and after morphing) and their
 * children's, and, for leaves, a collision block. The tree depth follows from
 * the heightfield size and a target chunk size (or is given); leaves that
 * would pass 65,535 vertices or 16-bit collision offsets deepen the tree,
 * and inner levels that would pass 65,535 vertices get a coarser error, so
 * no setting is refused. Texture coordinates follow §9b: (Y / size, 1 − X /
 * size).
 *
 * Textures (`Tex` TOCs, §4): the image (one picture of any size, or a grid
 * of tiles named by a pattern) is cut into a quadtree of tiles, each level
 * sampled from the source with a box filter, encoded as JPEG or PNG,
 * optionally in BGR order, and placed with the texture-tree orientation of
 * §4 so that it lies where the geometry is. Unique terrain gets a config
 * TOC `type=unique`, `textureSlot=0`; blender terrain gets an opacity-map
 * TOC, a lightmap TOC (computed from the heights when no image is given)
 * and a config TOC with the slots, `virtualTexSize` and the source image
 * names (field-notes.md, "Atlas (TGEA) writer conventions").
 *
 * The heightfield is read tile by tile through its own storage (a
 * memory-mapped raw16 file is never copied), work is spread over threads
 * (a #GThreadPool), chunks are streamed to the output as they are made, so
 * memory stays bounded by one byte per sample plus the threads' buffers,
 * and a build reports progress and can be cancelled.
 */
G_DEFINE_FINAL_TYPE (TerrainAtlasBuilder, terrain_atlas_builder, G_TYPE_OBJECT)

G_DEFINE_BOXED_TYPE (TerrainAtlasBuildStats, terrain_atlas_build_stats,
                     terrain_atlas_build_stats_copy, terrain_atlas_build_stats_free)

/**
 * terrain_atlas_build_stats_copy:
 * @stats: build figures
 *
 * Copies build figures.
 *
 * Returns: (transfer full): a copy of @stats
 */
TerrainAtlasBuildStats *
terrain_atlas_build_stats_copy (const TerrainAtlasBuildStats *stats)
{
  g_return_val_if_fail (stats != NULL, NULL);
  return g_memdup2 (stats, sizeof *stats);
}

/**
 * terrain_atlas_build_stats_free:
 * @stats: build figures from [func@Terrain.AtlasBuildStats.copy]
 *
 * Frees a copy of build figures.
 */
void
terrain_atlas_build_stats_free (TerrainAtlasBuildStats *stats)
{
  g_free (stats);
}

static void
terrain_atlas_builder_dispose (GObject *object)
{
  TerrainAtlasBuilder *self = TERRAIN_ATLAS_BUILDER (object);

  g_clear_object (&self->heightfield);
  g_clear_object (&self->textures.texture_file);
  g_clear_pointer (&self->textures.texture_image, terrain_image_unref);
  g_clear_pointer (&self->textures.opacity_image, terrain_image_unref);
  g_clear_pointer (&self->textures.lightmap_image, terrain_image_unref);
  if (self->progress_destroy != NULL)
    self->progress_destroy (self->progress_data);
  self->progress_destroy = NULL;
  self->progress = NULL;

  G_OBJECT_CLASS (terrain_atlas_builder_parent_class)->dispose (object);
}

static void
terrain_atlas_builder_finalize (GObject *object)
{
  TerrainAtlasBuilder *self = TERRAIN_ATLAS_BUILDER (object);

  g_free (self->textures.tile_pattern);
  g_ptr_array_unref (self->textures.source_images);
  g_ptr_array_unref (self->issues);

  G_OBJECT_CLASS (terrain_atlas_builder_parent_class)->finalize (object);
}

static void
terrain_atlas_builder_class_init (TerrainAtlasBuilderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = terrain_atlas_builder_dispose;
  object_class->finalize = terrain_atlas_builder_finalize;
}

static void
terrain_atlas_builder_init (TerrainAtlasBuilder *self)
{
  self->fit = TERRAIN_HEIGHTFIELD_FIT_PAD;
  self->issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  self->error = TERRAIN_ATLAS_BUILDER_DEFAULT_ERROR;
  self->version = TERRAIN_ATLAS_VERSION;
  self->goal_batch_size = TERRAIN_ATLAS_DEFAULT_GOAL_BATCH_SIZE;
  self->collision_depth = TERRAIN_ATLAS_BUILDER_DEFAULT_COLLISION_DEPTH;
  self->textures.type = TERRAIN_ATLAS_TERRAIN_UNIQUE;
  self->textures.texture_format = TERRAIN_ATLAS_TEXTURE_JPEG;
  self->textures.quality = 90;
  self->textures.tile_size = TERRAIN_ATLAS_BUILDER_DEFAULT_TILE_SIZE;
  self->textures.order = TERRAIN_ATLAS_CHANNELS_RGB;
  self->textures.source_images = g_ptr_array_new_with_free_func (g_free);
  self->textures.virtual_size = TERRAIN_ATLAS_BUILDER_DEFAULT_VIRTUAL_SIZE;
  self->stats.max_error = -1.0;
}

/**
 * terrain_atlas_builder_new:
 * @heightfield: the heights to build from
 *
 * Makes a builder with TGEA's defaults: 2 m error at the finest level,
 * leaf chunks of 128 cells above 1024 samples wide (else 64), resource
 * version 140, mGoalBatchSize 1500, collision trees of depth 4, JPEG
 * texture tiles of 256 pixels at quality 90, unique terrain.
 *
 * Returns: (transfer full): the builder
 */
TerrainAtlasBuilder *
terrain_atlas_builder_new (TerrainHeightfield *heightfield)
{
  TerrainAtlasBuilder *self;

  g_return_val_if_fail (TERRAIN_IS_HEIGHTFIELD (heightfield), NULL);

  self = g_object_new (TERRAIN_TYPE_ATLAS_BUILDER, NULL);
  self->heightfield = g_object_ref (heightfield);
  return self;
}

/* ------------------------------------------------------------------------
 * Threads and progress
 */

typedef struct
{
  BuildState *state;
  guint n_items;
  BuildItemFunc func;
  gpointer data;
  gpointer (*scratch_new) (BuildState *state);
  GDestroyNotify scratch_free;

  gint next;
  gint done;
  gint failed;
  guint running;
  GMutex lock;
  GCond cond;
  GError *error;
} ParallelRun;

static void
parallel_work (ParallelRun *run)
{
  gpointer scratch = run->scratch_new != NULL ? run->scratch_new (run->state) : NULL;

  for (;;)
    {
      GError *local = NULL;
      gint i;

      if (g_atomic_int_get (&run->failed) ||
          g_cancellable_is_cancelled (run->state->cancellable))
        break;
      i = g_atomic_int_add (&run->next, 1);
      if (i < 0 || (guint) i >= run->n_items)
        break;
      if (!run->func (run->state, run->data, scratch, (guint) i, &local))
        {
          g_mutex_lock (&run->lock);
          if (run->error == NULL)
            run->error = local;
          else
            g_error_free (local);
          g_mutex_unlock (&run->lock);
          g_atomic_int_set (&run->failed, 1);
          break;
        }
      g_atomic_int_inc (&run->done);
    }

  if (scratch != NULL)
    run->scratch_free (scratch);
}

static void
parallel_worker (gpointer data,
                 gpointer user_data)
{
  ParallelRun *run = data;

  (void) user_data;
  parallel_work (run);

  g_mutex_lock (&run->lock);
  run->running--;
  g_cond_signal (&run->cond);
  g_mutex_unlock (&run->lock);
}

void
build_progress (BuildState *state,
                gdouble     fraction)
{
  TerrainAtlasBuilder *self = state->builder;
  gint64 now;

  if (self->progress == NULL)
    return;
  now = g_get_monotonic_time ();
  if (fraction < 1.0 && now - state->last_report < PROGRESS_INTERVAL)
    return;
  state->last_report = now;
  self->progress (state->progress_base + state->progress_span * CLAMP (fraction, 0.0, 1.0),
                  state->stage, self->progress_data);
}

/* Runs @func on every item, spread over the builder's threads (or in this
 * thread when there is one). Stops at the first error or cancellation. */
gboolean
build_run_parallel (BuildState      *state,
                    guint            n_items,
                    BuildItemFunc    func,
                    gpointer         data,
                    gpointer       (*scratch_new) (BuildState *state),
                    GDestroyNotify   scratch_free,
                    GError         **error)
{
  ParallelRun run = { 0 };
  guint workers = MIN (state->n_threads, n_items);

  run.state = state;
  run.n_items = n_items;
  run.func = func;
  run.data = data;
  run.scratch_new = scratch_new;
  run.scratch_free = scratch_free;
  g_mutex_init (&run.lock);
  g_cond_init (&run.cond);

  if (workers <= 1 || state->pool == NULL)
    parallel_work (&run);
  else
    {
      run.running = workers;
      for (guint i = 0; i < workers; i++)
        g_thread_pool_push (state->pool, &run, NULL);

      g_mutex_lock (&run.lock);
      while (run.running > 0)
        {
          /* Long single runs (activation levels) report as they go. */
          if (state->item_progress)
            {
              g_mutex_unlock (&run.lock);
              build_progress (state, (gdouble) g_atomic_int_get (&run.done) / n_items);
              g_mutex_lock (&run.lock);
              if (run.running == 0)
                break;
            }
          g_cond_wait_until (&run.cond, &run.lock,
                             g_get_monotonic_time () + PROGRESS_INTERVAL);
        }
      g_mutex_unlock (&run.lock);
    }

  g_mutex_clear (&run.lock);
  g_cond_clear (&run.cond);

  if (run.error != NULL)
    {
      g_propagate_error (error, run.error);
      return FALSE;
    }
  return !g_cancellable_set_error_if_cancelled (state->cancellable, error);
}

/* ------------------------------------------------------------------------
 * Output
 */

static gboolean
sink_io_error (BuildSink   *sink,
               const char  *verb,
               int          saved_errno,
               GError     **error)
{
  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO, "%s: cannot %s: %s",
               sink->path != NULL ? sink->path : "Atlas", verb, g_strerror (saved_errno));
  return FALSE;
}

static gboolean
sink_open (BuildSink   *sink,
           GFile       *file,
           GError     **error)
{
  memset (sink, 0, sizeof *sink);
  sink->fd = -1;

  if (file == NULL)
    {
      sink->memory = g_byte_array_new ();
      return TRUE;
    }

  {
    g_autofree char *dir = NULL;
    g_autofree char *base = NULL;
    GStatBuf st;
    int mode = 0666;

    sink->path = g_file_get_path (file);
    dir = g_path_get_dirname (sink->path);
    base = g_path_get_basename (sink->path);
    if (g_stat (sink->path, &st) == 0)
      mode = st.st_mode & 0777;
    sink->temp_path = g_strdup_printf ("%s%c.%s.XXXXXX", dir, G_DIR_SEPARATOR, base);
    sink->fd = g_mkstemp_full (sink->temp_path, O_RDWR, mode);
    if (sink->fd < 0)
      {
        int saved = errno;

        g_clear_pointer (&sink->temp_path, g_free);
        return sink_io_error (sink, "create a temporary file beside it", saved, error);
      }
  }
  return TRUE;
}

static gboolean
write_all (int            fd,
           const guint8  *data,
           gsize          size,
           goffset        offset,
           int           *saved_errno)
{
  while (size > 0)
    {
      gssize n = offset >= 0 ? pwrite (fd, data, size, offset) : write (fd, data, size);

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          *saved_errno = errno;
          return FALSE;
        }
      data += n;
      size -= (gsize) n;
      if (offset >= 0)
        offset += n;
    }
  return TRUE;
}

gboolean
build_sink_append (BuildSink     *sink,
                   const guint8  *data,
                   gsize          size,
                   guint32       *offset,
                   GError       **error)
{
  int saved = 0;

  if (sink->size + size > G_MAXUINT32)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Atlas builder: a %" G_GSIZE_FORMAT "-byte chunk at byte offset %"
                   G_GUINT64_FORMAT " would pass the 4 GiB that 32-bit offsets address "
                   "(raise the error threshold or use a smaller texture)", size, sink->size);
      return FALSE;
    }

  if (sink->memory != NULL)
    g_byte_array_append (sink->memory, data, (guint) size);
  else if (!write_all (sink->fd, data, size, -1, &saved))
    return sink_io_error (sink, "write", saved, error);

  if (offset != NULL)
    *offset = (guint32) sink->size;
  sink->size += size;
  return TRUE;
}

static gboolean
sink_write_at (BuildSink     *sink,
               guint64        offset,
               const guint8  *data,
               gsize          size,
               GError       **error)
{
  int saved = 0;

  if (sink->memory != NULL)
    {
      memcpy (sink->memory->data + offset, data, size);
      return TRUE;
    }
  if (!write_all (sink->fd, data, size, (goffset) offset, &saved))
    return sink_io_error (sink, "write", saved, error);
  return TRUE;
}

static gboolean
sink_reset (BuildSink  *sink,
            GError    **error)
{
  sink->size = 0;
  if (sink->memory != NULL)
    {
      g_byte_array_set_size (sink->memory, 0);
      return TRUE;
    }
  if (ftruncate (sink->fd, 0) != 0 || lseek (sink->fd, 0, SEEK_SET) != 0)
    return sink_io_error (sink, "truncate", errno, error);
  return TRUE;
}

static void
sink_abandon (BuildSink *sink)
{
  if (sink->fd >= 0)
    {
      close (sink->fd);
      sink->fd = -1;
    }
  if (sink->temp_path != NULL)
    g_unlink (sink->temp_path);
  g_clear_pointer (&sink->temp_path, g_free);
  g_clear_pointer (&sink->path, g_free);
  g_clear_pointer (&sink->memory, g_byte_array_unref);
}

/* Flushes and renames the temporary file over the target (or hands over
 * the bytes): the target is never seen half written. */
static gboolean
sink_finish (BuildSink  *sink,
             GBytes    **bytes,
             GError    **error)
{
  if (sink->memory != NULL)
    {
      *bytes = g_byte_array_free_to_bytes (g_steal_pointer (&sink->memory));
      return TRUE;
    }

  if (fsync (sink->fd) != 0)
    return sink_io_error (sink, "flush", errno, error);
  if (close (sink->fd) != 0)
    {
      sink->fd = -1;
      return sink_io_error (sink, "close", errno, error);
    }
  sink->fd = -1;
  if (g_rename (sink->temp_path, sink->path) != 0)
    return sink_io_error (sink, "rename the finished file into place", errno, error);
  g_clear_pointer (&sink->temp_path, g_free);
  g_clear_pointer (&sink->path, g_free);
  return TRUE;
}

/* ------------------------------------------------------------------------
 * Building
 */

static guint
ceil_log2 (guint64 v)
{
  guint n = 0;

  while (((guint64) 1 << n) < v)
    n++;
  return n;
}

static gsize
prefix_size (BuildState *state)
{
  gsize size = 5;

  for (guint i = 0; i < state->tocs->len; i++)
    size += terrain_atlas_toc_get_serialized_size (g_ptr_array_index (state->tocs, i));
  return size;
}

static gboolean
write_prefix (BuildState  *state,
              GError     **error)
{
  TerrainWriter writer;
  gboolean ok;

  terrain_writer_init (&writer, state->prefix_size);
  terrain_writer_set_section (&writer, "Atlas");
  terrain_writer_put_u32 (&writer, ATLAS_MAGIC);
  terrain_writer_put_u8 (&writer, (guint8) state->tocs->len);
  for (guint i = 0; i < state->tocs->len; i++)
    terrain_atlas_toc_serialize (g_ptr_array_index (state->tocs, i), &writer, NULL);
  g_assert (terrain_writer_tell (&writer) == state->prefix_size);
  ok = sink_write_at (&state->sink, 0, writer.buffer->data, writer.buffer->len, error);
  terrain_writer_clear (&writer);
  return ok;
}

static gboolean
reserve_prefix (BuildState  *state,
                GError     **error)
{
  g_autofree guint8 *zeros = NULL;

  state->prefix_size = prefix_size (state);
  if (state->prefix_size > G_MAXUINT32)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Atlas builder: the TOCs alone (%" G_GSIZE_FORMAT " bytes) pass 4 GiB; "
                   "use a shallower tree", state->prefix_size);
      return FALSE;
    }
  zeros = g_malloc0 (state->prefix_size);
  return sink_reset (&state->sink, error) &&
         build_sink_append (&state->sink, zeros, state->prefix_size, NULL, error);
}

static void
set_stage (BuildState *state,
           const char *stage,
           gdouble     base,
           gdouble     span)
{
  gint64 now = g_get_monotonic_time ();

  if (state->stage != NULL)
    g_debug ("Atlas builder: %s took %.3f s", state->stage,
             (now - state->stage_start) / (gdouble) G_USEC_PER_SEC);
  state->stage_start = now;
  state->stage = stage;
  state->progress_base = base;
  state->progress_span = span;
  state->last_report = 0;
  build_progress (state, 0.0);
}

static gboolean
write_config (BuildState  *state,
              GError     **error)
{
  const BuildTextureSettings *tex = &state->builder->textures;
  g_autoptr(TerrainAtlasConfig) config = terrain_atlas_config_new ();
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GBytes) frame = NULL;
  TerrainAtlasToc *toc = g_ptr_array_index (state->tocs, state->tocs->len - 1);
  TerrainAtlasStubData *d = terrain_atlas_toc_get_stub_data (toc, 0);
  guint32 offset = 0;
  gsize size = 0;
  const guint8 *data;

  /* Entries are stored newest first (§5); set in the order TGEA's
   * generators do, the type first. */
  if (tex->type == TERRAIN_ATLAS_TERRAIN_BLENDER)
    {
      g_autofree char *virtual_size = g_strdup_printf ("%u", tex->virtual_size);
      g_autofree char *count = g_strdup_printf ("%u", tex->source_images->len);

      terrain_atlas_config_set (config, "type", "blender");
      terrain_atlas_config_set (config, "opacityMapSlot", "0");
      terrain_atlas_config_set (config, "shadowMapSlot", "1");
      terrain_atlas_config_set (config, "virtualTexSize", virtual_size);
      terrain_atlas_config_set (config, "sourceImageCount", count);
      for (guint i = 0; i < tex->source_images->len; i++)
        {
          g_autofree char *key = g_strdup_printf ("sourceImage%u", i);

          terrain_atlas_config_set (config, key, g_ptr_array_index (tex->source_images, i));
        }
    }
  else
    {
      terrain_atlas_config_set (config, "type", "unique");
      terrain_atlas_config_set (config, "textureSlot", "0");
    }

  body = terrain_atlas_config_encode_body (config, error);
  if (body == NULL)
    return FALSE;
  frame = terrain_atlas_frame_new (TERRAIN_ATLAS_TOC_CONFIG, body, error);
  if (frame == NULL)
    return FALSE;
  data = g_bytes_get_data (frame, &size);
  if (!build_sink_append (&state->sink, data, size, &offset, error))
    return FALSE;
  d->offset = offset;
  d->length = (guint32) size;
  return TRUE;
}

static void
make_geometry_toc (BuildState *state)
{
  TerrainAtlasToc *toc = terrain_atlas_toc_new (TERRAIN_ATLAS_TOC_GEOMETRY, state->version,
                                                state->depth,
                                                (guint) terrain_quadtree_node_count (state->depth));

  terrain_atlas_toc_set_goal_batch_size (toc, state->builder->goal_batch_size);
  if (state->geometry_toc < (gint) state->tocs->len)
    {
      g_object_unref (g_ptr_array_index (state->tocs, state->geometry_toc));
      g_ptr_array_index (state->tocs, state->geometry_toc) = toc;
    }
  else
    g_ptr_array_add (state->tocs, toc);
}

static gboolean
choose_depth (BuildState  *state,
              GError     **error)
{
  TerrainAtlasBuilder *self = state->builder;
  guint depth;

  if (self->tree_depth > 0)
    depth = self->tree_depth;
  else
    {
      guint chunk = self->chunk_size > 0 ? self->chunk_size :
                    state->side > CHUNK_SIZE_LARGE_ABOVE ? CHUNK_SIZE_LARGE : CHUNK_SIZE_SMALL;
      guint chunk_log = ceil_log2 (MAX (chunk, 2));

      depth = state->n > chunk_log ? state->n - chunk_log + 1 : 1;
    }

  /* Leaves of at least 2 cells, and no deeper than Atlas allows. */
  depth = CLAMP (depth, 1, MIN (state->n, (guint) ATLAS_MAX_TREE_DEPTH));
  if (terrain_quadtree_node_count (depth) > G_MAXUINT32 / 64)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Atlas builder: a tree of depth %u has too many chunks for a file", depth);
      return FALSE;
    }
  state->depth = depth;
  state->stats.requested_depth = depth;
  return TRUE;
}

/* Every float the builder writes derives from the heights, the spacing
 * times the grid side, and the error threshold doubled once a level: each
 * within TERRAIN_ATLAS_BUILDER_MAX_COORDINATE keeps them all finite. */
static gboolean
check_ranges (TerrainAtlasBuilder  *self,
              GError              **error)
{
  const gdouble limit = TERRAIN_ATLAS_BUILDER_MAX_COORDINATE;
  gdouble spacing = terrain_heightfield_get_spacing (self->heightfield);
  guint side = MAX (terrain_heightfield_get_width (self->heightfield),
                    terrain_heightfield_get_height (self->heightfield));
  gfloat lo, hi;

  terrain_heightfield_get_range (self->heightfield, &lo, &hi);
  if (!isfinite (lo) || !isfinite (hi) || fabs (lo) > limit || fabs (hi) > limit)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "Atlas builder: heights from %g to %g m are beyond the ±%g m an Atlas "
                   "holds (check the vertical scale and offset)", (gdouble) lo, (gdouble) hi,
                   limit);
      return FALSE;
    }
  if (!isfinite (spacing) || spacing <= 0.0 || spacing * 2.0 * side > limit)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "Atlas builder: a sample spacing of %g m over %u samples is beyond the "
                   "±%g m an Atlas holds", spacing, side, limit);
      return FALSE;
    }
  if (self->error * 65536.0 > limit)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "Atlas builder: an error threshold of %g m, doubled for each of up to 16 "
                   "levels, is beyond the %g m an Atlas holds", self->error, limit);
      return FALSE;
    }
  return TRUE;
}

static gboolean
run_build (TerrainAtlasBuilder  *self,
           GFile                *file,
           GBytes              **bytes,
           GCancellable         *cancellable,
           GError              **error)
{
  BuildState state_storage = { 0 };
  BuildState *state = &state_storage;
  g_autoptr(TerrainHeightfield) field = NULL;
  guint n_texture_tocs;
  gboolean ok = FALSE;

  memset (&self->stats, 0, sizeof self->stats);
  self->stats.max_error = -1.0;
  g_ptr_array_set_size (self->issues, 0);

  if (self->version < 100)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas builder: resource version %u is older than any Atlas layout "
                   "(100 to %d)", self->version, TERRAIN_ATLAS_VERSION);
      return FALSE;
    }

  if (!check_ranges (self, error))
    return FALSE;
  field = terrain_heightfield_fit (self->heightfield, self->fit, error);
  if (field == NULL)
    return FALSE;

  state->builder = self;
  state->field = field;
  state->cancellable = cancellable;
  state->side = terrain_heightfield_get_width (field) - 1;
  state->n = ceil_log2 (state->side);
  state->spacing = terrain_heightfield_get_spacing (field);
  state->error = self->error;
  state->version = self->version;
  state->collision_depth = self->collision_depth;
  state->measure = self->measure;
  state->midpoint_metric = self->midpoint_metric;
  state->n_threads = self->n_threads > 0 ? self->n_threads : g_get_num_processors ();
  state->tocs = g_ptr_array_new_with_free_func (g_object_unref);
  state->stats.max_error = self->measure ? 0.0 : -1.0;
  for (guint i = 0; i < G_N_ELEMENTS (state->stats.levels); i++)
    state->stats.levels[i].max_error = self->measure ? 0.0 : -1.0;
  g_mutex_init (&state->stats_lock);

  if (!sink_open (&state->sink, file, error))
    goto out;
  if (state->n_threads > 1)
    {
      state->pool = g_thread_pool_new (parallel_worker, NULL, (gint) state->n_threads, FALSE,
                                       error);
      if (state->pool == NULL)
        goto out;
    }

  n_texture_tocs = build_texture_toc_count (self);

  set_stage (state, "heights", 0.0, 0.3);
  state->item_progress = TRUE;
  if (!choose_depth (state, error) || !build_activation (state, error))
    goto out;
  state->item_progress = FALSE;

  set_stage (state, "geometry", 0.3, n_texture_tocs > 0 ? 0.5 : 0.7);
  if (!build_geometry_plan (state, error))
    goto out;
  g_debug ("Atlas builder: planned depth %u in %.3f s", state->depth,
           (g_get_monotonic_time () - state->stage_start) / (gdouble) G_USEC_PER_SEC);

  /* TOCs in file order: geometry, textures, config. */
  state->geometry_toc = 0;
  make_geometry_toc (state);
  if (!build_texture_prepare (state, error))
    goto out;
  if (state->tocs->len > 1 || self->textures.type == TERRAIN_ATLAS_TERRAIN_BLENDER)
    {
      TerrainAtlasToc *config = terrain_atlas_toc_new (TERRAIN_ATLAS_TOC_CONFIG, state->version,
                                                       0, 1);

      terrain_atlas_toc_set_stub_name (config, 0, CONFIG_STUB_NAME);
      g_ptr_array_add (state->tocs, config);
    }

  for (;;)
    {
      g_autoptr(GError) local = NULL;
      guint planned = state->depth;

      if (!reserve_prefix (state, error))
        goto out;

      state->stats.n_chunks = 0;
      state->stats.n_vertices = state->stats.n_skirt_vertices = 0;
      state->stats.n_triangles = state->stats.n_skirt_triangles = 0;
      state->stats.n_leaf_vertices = state->stats.n_leaf_triangles = 0;
      state->stats.max_chunk_vertices = 0;
      for (guint i = 0; i < G_N_ELEMENTS (state->stats.levels); i++)
        state->stats.levels[i] = (TerrainAtlasLevelStats) { 0, 0, 0,
                                                            state->measure ? 0.0 : -1.0 };
      if (build_geometry (state, &local))
        break;
      if (!g_error_matches (local, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED) ||
          !state->retry || planned >= ATLAS_MAX_TREE_DEPTH || (state->side >> planned) < 2)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          goto out;
        }
      /* A leaf's collision lists outgrew 16-bit offsets: split further. */
      state->retry = FALSE;
      state->depth = planned + 1;
      if (!build_geometry_plan (state, error))
        goto out;
      make_geometry_toc (state);
    }

  terrain_heightfield_get_data_size (field, &state->stats.data_width, &state->stats.data_height);
  state->stats.spacing = state->spacing;
  state->stats.tree_depth = state->depth;
  state->stats.leaf_size = state->leaf;

  /* The texture TOCs were made (empty) before the geometry; fill them. */
  if (n_texture_tocs > 0)
    set_stage (state, "textures", 0.8, 0.2);
  if (!build_textures (state, error))
    goto out;
  if (state->tocs->len > 1 && !write_config (state, error))
    goto out;
  if (!write_prefix (state, error))
    goto out;

  state->stats.file_size = state->sink.size;
  if (!sink_finish (&state->sink, bytes, error))
    goto out;

  set_stage (state, "done", 1.0, 0.0);
  build_progress (state, 1.0);
  self->stats = state->stats;
  g_ptr_array_unref (self->issues);
  self->issues = terrain_atlas_build_issues_new (&self->stats, self->fit, state->side + 1);
  ok = TRUE;

out:
  if (state->pool != NULL)
    g_thread_pool_free (state->pool, FALSE, TRUE);
  sink_abandon (&state->sink);
  build_texture_cleanup (state);
  g_clear_pointer (&state->act, g_free);
  g_clear_pointer (&state->tocs, g_ptr_array_unref);
  g_mutex_clear (&state->stats_lock);
  return ok;
}

/**
 * terrain_atlas_builder_build_to_file:
 * @self: a #TerrainAtlasBuilder
 * @file: where to write the Atlas file (a local file)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Builds the Atlas file and writes it. Chunks are streamed to a temporary
 * file beside @file as they are made and the TOCs written last; the
 * temporary file is flushed and renamed over @file only when complete, so
 * @file is never left half written (a failed or cancelled build leaves it
 * as it was). Files without a local path are built in memory and saved
 * atomically.
 *
 * Returns: %TRUE, or %FALSE with a %TERRAIN_ERROR (%TERRAIN_ERROR_IO,
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED for files past 4 GiB,
 *   %TERRAIN_ERROR_INVALID_VALUE for bad settings or images, an image
 *   reader's error) or %G_IO_ERROR_CANCELLED
 */
gboolean
terrain_atlas_builder_build_to_file (TerrainAtlasBuilder  *self,
                                     GFile                *file,
                                     GCancellable         *cancellable,
                                     GError              **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_BUILDER (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  path = g_file_get_path (file);
  if (path != NULL)
    return run_build (self, file, NULL, cancellable, error);

  return run_build (self, NULL, &bytes, cancellable, error) &&
         terrain_file_save_bytes (file, bytes, cancellable, error);
}

/**
 * terrain_atlas_builder_build:
 * @self: a #TerrainAtlasBuilder
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Builds the Atlas file in memory, for callers that inspect or edit it
 * before saving (large terrains are better streamed with
 * [method@Terrain.AtlasBuilder.build_to_file]).
 *
 * Returns: (transfer full) (nullable): the file, read back from the built
 *   bytes, or %NULL with an error as for
 *   [method@Terrain.AtlasBuilder.build_to_file]
 */
TerrainAtlasFile *
terrain_atlas_builder_build (TerrainAtlasBuilder  *self,
                             GCancellable         *cancellable,
                             GError              **error)
{
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_BUILDER (self), NULL);

  if (!run_build (self, NULL, &bytes, cancellable, error))
    return NULL;
  return terrain_atlas_file_new_from_bytes (bytes, NULL, error);
}

static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  GError *error = NULL;

  if (terrain_atlas_builder_build_to_file (source_object, task_data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * terrain_atlas_builder_build_async:
 * @self: a #TerrainAtlasBuilder
 * @file: where to write the Atlas file
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async) (closure user_data): called when the build ends
 * @user_data: data for @callback
 *
 * Runs [method@Terrain.AtlasBuilder.build_to_file] in a worker thread. The
 * progress function is called in that thread. Do not change the builder's
 * settings until it ends.
 */
void
terrain_atlas_builder_build_async (TerrainAtlasBuilder *self,
                                   GFile               *file,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, terrain_atlas_builder_build_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, build_thread);
}

/**
 * terrain_atlas_builder_build_finish:
 * @self: a #TerrainAtlasBuilder
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Ends a build started with [method@Terrain.AtlasBuilder.build_async].
 *
 * Returns: %TRUE when the file was written
 */
gboolean
terrain_atlas_builder_build_finish (TerrainAtlasBuilder  *self,
                                    GAsyncResult         *result,
                                    GError              **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        terrain_atlas_builder_build_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
