/* terrain-atlas-builder-private.h: internals shared by the Atlas builder's
 * files (orchestration and output, options, geometry, textures)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-atlas-builder.h"
#include "terrain-atlas-private.h"
#include "core/terrain-heightfield-private.h"

G_BEGIN_DECLS

/* Where the file goes: a temporary file renamed over the target at the
 * end, or memory. Chunks are appended; the TOC region is written last. */
typedef struct
{
  int fd;                  /* -1: memory */
  GByteArray *memory;
  guint64 size;
  char *path;
  char *temp_path;
} BuildSink;

typedef struct _BuildState BuildState;

/* terrain-atlas-builder-issues.c: the findings of a build that succeeded
 * (of TerrainIssue). */
GPtrArray *terrain_atlas_build_issues_new (const TerrainAtlasBuildStats *stats,
                                           TerrainHeightfieldFit         fit,
                                           guint                         fitted_side);

/* One parallel job: every item is handed to one worker thread. @scratch is
 * the worker's own state, made by @scratch_new for each worker. */
typedef gboolean (*BuildItemFunc) (BuildState  *state,
                                   gpointer     data,
                                   gpointer     scratch,
                                   guint        item,
                                   GError     **error);

struct _BuildState
{
  TerrainAtlasBuilder *builder;
  TerrainHeightfield *field;       /* fitted: square, 2^n + 1 */
  GCancellable *cancellable;
  GThreadPool *pool;
  guint n_threads;

  /* Geometry */
  guint n;                 /* side = 2^n cells */
  guint32 side;
  gdouble spacing;
  gdouble error;           /* metres, > 0 */
  gdouble relief;          /* highest minus lowest height */
  gfloat height_min;       /* found while computing activation levels */
  gfloat height_max;
  gfloat thresholds[256];  /* error * 2^k */
  guint8 *act;             /* (side + 1)^2 activation levels */
  guint depth;
  guint leaf;              /* cells per leaf side */
  guint lod[16];           /* per level: vertices with act > lod[L] */
  guint32 version;
  guint collision_depth;
  gboolean measure;
  gboolean retry;          /* a leaf broke a limit the plan missed */
  gboolean midpoint_metric; /* Ulrich's midpoint error, for comparisons */
  GAsyncQueue *scratch_cache; /* geometry workers' scratch, kept across batches */

  /* Output */
  BuildSink sink;
  GPtrArray *tocs;         /* TerrainAtlasToc, in file order */
  gsize prefix_size;
  gint geometry_toc;

  /* Progress */
  gdouble progress_base;
  gdouble progress_span;
  const char *stage;
  gboolean item_progress;  /* parallel runs report their items' progress */
  gint64 stage_start;
  gint64 last_report;

  TerrainAtlasBuildStats stats;
  GMutex stats_lock;

  /* Textures (terrain-atlas-builder-texture.c) */
  gpointer texture_jobs;
};

/* terrain-atlas-builder.c */
gboolean   build_run_parallel     (BuildState      *state,
                                   guint            n_items,
                                   BuildItemFunc    func,
                                   gpointer         data,
                                   gpointer       (*scratch_new) (BuildState *state),
                                   GDestroyNotify   scratch_free,
                                   GError         **error);
void       build_progress         (BuildState      *state,
                                   gdouble          fraction);
gboolean   build_sink_append      (BuildSink       *sink,
                                   const guint8    *data,
                                   gsize            size,
                                   guint32         *offset,
                                   GError         **error);

/* terrain-atlas-builder-geometry.c */
gboolean   build_geometry         (BuildState      *state,
                                   GError         **error);
gboolean   build_geometry_plan    (BuildState      *state,
                                   GError         **error);
gboolean   build_activation       (BuildState      *state,
                                   GError         **error);

/* terrain-atlas-builder-texture.c */
gboolean   build_texture_prepare  (BuildState      *state,
                                   GError         **error);
gboolean   build_textures         (BuildState      *state,
                                   GError         **error);
guint      build_texture_toc_count (TerrainAtlasBuilder *builder);
void       build_texture_cleanup  (BuildState      *state);

/* Settings the other files read. */
typedef struct
{
  TerrainAtlasTerrainType type;
  TerrainImage *texture_image;
  GFile *texture_file;
  char *tile_pattern;
  guint tile_columns;
  guint tile_rows;
  TerrainAtlasTextureFormat texture_format;
  guint quality;
  guint tile_size;
  guint texture_depth;
  TerrainAtlasChannelOrder order;
  GPtrArray *source_images;    /* char * */
  TerrainImage *opacity_image;
  TerrainImage *lightmap_image;
  guint virtual_size;
} BuildTextureSettings;

/* The builder object (terrain-atlas-builder.c, -options.c). */
struct _TerrainAtlasBuilder
{
  GObject parent_instance;

  TerrainHeightfield *heightfield;
  TerrainHeightfieldFit fit;
  gdouble error;
  guint tree_depth;
  guint chunk_size;
  guint32 version;
  guint32 goal_batch_size;
  guint collision_depth;
  guint n_threads;
  gboolean measure;
  gboolean midpoint_metric;

  BuildTextureSettings textures;

  TerrainAtlasBuilderProgress progress;
  gpointer progress_data;
  GDestroyNotify progress_destroy;

  TerrainAtlasBuildStats stats;
  GPtrArray *issues;   /* of TerrainIssue: the last build's */
};

const BuildTextureSettings *terrain_atlas_builder_get_texture_settings (TerrainAtlasBuilder *self);

/* Measures vertex errors as Ulrich's chunker does (the midpoint's distance
 * from its edge, levels rounded in log2), instead of over whole diamonds:
 * for benchmarks that compare with it. The finest level then no longer
 * keeps within the error everywhere. */
void terrain_atlas_builder_set_midpoint_metric (TerrainAtlasBuilder *self,
                                                gboolean             midpoint);

/* Geometry (terrain-atlas-builder-activation.c, -geometry.c): a vertex's
 * slot in the activation grid, and the diagonal of a 4-8 mesh square. */
static inline gsize
act_index (const BuildState *state,
           gint64            x,
           gint64            y)
{
  return (gsize) y * (state->side + 1) + (gsize) x;
}

/* The 4-8 mesh's squares alternate their diagonal: square (i, j) of a
 * level (grid units of its side) runs from its top-left to its
 * bottom-right corner when i + j is even, else from top-right to
 * bottom-left. */
static inline gboolean
square_is_type_a (gint64 x0,
                  gint64 y0,
                  gint64 size)
{
  return (((x0 / size) ^ (y0 / size)) & 1) == 0;
}

G_END_DECLS
