/* terrain-atlas-builder.h: Atlas files from heightfields and images
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <gio/gio.h>

#include "terrain-version.h"
#include "core/terrain-heightfield.h"
#include "core/terrain-image.h"
#include "core/terrain-issue.h"
#include "terrain-atlas-file.h"
#include "terrain-atlas-texture.h"

G_BEGIN_DECLS

/**
 * TERRAIN_ATLAS_BUILDER_DEFAULT_ERROR:
 *
 * Default geometric error of the finest level, in metres (TGEA 1.8's
 * automatic default, field-notes.md).
 */
#define TERRAIN_ATLAS_BUILDER_DEFAULT_ERROR 2.0

/**
 * TERRAIN_ATLAS_BUILDER_DEFAULT_TILE_SIZE:
 *
 * Default texture tile side in pixels (TGEA 1.8's default).
 */
#define TERRAIN_ATLAS_BUILDER_DEFAULT_TILE_SIZE 256

/**
 * TERRAIN_ATLAS_BUILDER_DEFAULT_COLLISION_DEPTH:
 *
 * Default collision tree depth of leaf chunks: 4 levels, 8 × 8 bins.
 */
#define TERRAIN_ATLAS_BUILDER_DEFAULT_COLLISION_DEPTH 4

/**
 * TERRAIN_ATLAS_BUILDER_DEFAULT_VIRTUAL_SIZE:
 *
 * Default virtual texture size of blender terrain (TGEA 1.8's default).
 */
#define TERRAIN_ATLAS_BUILDER_DEFAULT_VIRTUAL_SIZE 32768

/**
 * TERRAIN_ATLAS_BUILDER_MAX_SOURCE_IMAGES:
 *
 * Largest number of blender source images: one per opacity channel.
 */
#define TERRAIN_ATLAS_BUILDER_MAX_SOURCE_IMAGES 4

/**
 * TERRAIN_ATLAS_BUILDER_MAX_COORDINATE:
 *
 * Largest magnitude, in metres, of any height, horizontal extent or error
 * threshold the builder accepts. Atlas files store bounds, vertex offsets
 * and quantisation steps as 32-bit floats; keeping every input within
 * 10^30 m (a float reaches 3.4 × 10^38) leaves room for the sums, spans
 * and per-level error doublings the builder computes, so that every float
 * it writes is finite.
 */
#define TERRAIN_ATLAS_BUILDER_MAX_COORDINATE 1e30

/**
 * TerrainAtlasTerrainType:
 * @TERRAIN_ATLAS_TERRAIN_UNIQUE: one texture over the whole terrain: a
 *   geometry TOC, a texture TOC and a config TOC with `type=unique`,
 *   `textureSlot=0` (or only the geometry TOC when there is no texture)
 * @TERRAIN_ATLAS_TERRAIN_BLENDER: terrain textured at run time by blending
 *   source images: a geometry TOC, an opacity-map TOC, a lightmap TOC and a
 *   config TOC with `type=blender`, the slots, `virtualTexSize` and the
 *   source image names
 *
 * The kinds of Atlas terrain TGEA's generators make (field-notes.md).
 */
typedef enum
{
  TERRAIN_ATLAS_TERRAIN_UNIQUE,
  TERRAIN_ATLAS_TERRAIN_BLENDER,
} TerrainAtlasTerrainType;

/**
 * TerrainAtlasLevelStats:
 * @n_chunks: chunks of the level
 * @n_vertices: their vertices, skirts included
 * @n_triangles: their surface (non-skirt) triangles
 * @max_error: largest difference in metres between the level's meshes and
 *   the heightfield at any sample, when measured
 *   ([method@Terrain.AtlasBuilder.set_measure_error]; otherwise -1)
 *
 * Figures of one geometry tree level of the last build, as in L3DT's
 * Atlas export report.
 */
typedef struct _TerrainAtlasLevelStats TerrainAtlasLevelStats;

struct _TerrainAtlasLevelStats
{
  guint n_chunks;
  guint64 n_vertices;
  guint64 n_triangles;
  gdouble max_error;
};

/**
 * TerrainAtlasBuildStats:
 * @tree_depth: geometry tree depth used
 * @requested_depth: the depth asked for (or chosen from the chunk size)
 *   before it was raised to keep leaf chunks within the 16-bit limits
 * @leaf_size: cells on a side of a leaf chunk
 * @n_chunks: geometry chunks written
 * @n_vertices: vertices of every chunk, skirts included
 * @n_skirt_vertices: skirt vertices among them
 * @n_triangles: surface (non-skirt) triangles of every chunk
 * @n_skirt_triangles: skirt triangles
 * @n_degenerate_triangles: degenerate triangles (the builder writes
 *   triangle lists, so always 0)
 * @n_leaf_vertices: vertices of the leaf chunks, skirts excluded
 * @n_leaf_triangles: surface triangles of the leaf chunks
 * @n_leaf_samples: distinct heightfield samples the finest level uses (the
 *   figure Ulrich's chunker prints as "output verts")
 * @max_chunk_vertices: most vertices in one chunk (at most 65535)
 * @n_coarsened_levels: levels whose error was raised so that their chunks
 *   stay within 65535 vertices
 * @max_error: largest difference in metres between the leaf meshes and the
 *   heightfield at any sample, when measured (otherwise -1)
 * @n_texture_tiles: texture chunks written
 * @file_size: bytes written
 * @texture_width: pixels across the unique texture (the whole
 *   picture, or the grid of tiles), 0 without one
 * @texture_height: pixels down the unique texture, 0 without one
 * @texture_depth: levels of the unique texture's tree, 0 without one
 * @texture_tile_size: side of its tiles in pixels, 0 without one
 * @data_width: heightfield samples across before fitting (the texture
 *   covers these)
 * @data_height: heightfield samples down before fitting
 * @spacing: metres between samples
 * @levels: (array fixed-size=16): per geometry level (root first), the
 *   first @tree_depth entries used
 *
 * Figures of the last build ([method@Terrain.AtlasBuilder.get_stats]).
 */
typedef struct _TerrainAtlasBuildStats TerrainAtlasBuildStats;

struct _TerrainAtlasBuildStats
{
  guint tree_depth;
  guint requested_depth;
  guint leaf_size;
  guint n_chunks;
  guint64 n_vertices;
  guint64 n_skirt_vertices;
  guint64 n_triangles;
  guint64 n_skirt_triangles;
  guint64 n_degenerate_triangles;
  guint64 n_leaf_vertices;
  guint64 n_leaf_triangles;
  guint64 n_leaf_samples;
  guint max_chunk_vertices;
  guint n_coarsened_levels;
  gdouble max_error;
  guint n_texture_tiles;
  guint64 file_size;
  guint texture_width;
  guint texture_height;
  guint texture_depth;
  guint texture_tile_size;
  guint data_width;
  guint data_height;
  gdouble spacing;
  TerrainAtlasLevelStats levels[16];
};

#define TERRAIN_TYPE_ATLAS_BUILD_STATS (terrain_atlas_build_stats_get_type ())

TERRAIN_AVAILABLE_IN_ALL
GType                   terrain_atlas_build_stats_get_type (void) G_GNUC_CONST;
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasBuildStats *terrain_atlas_build_stats_copy     (const TerrainAtlasBuildStats *stats);
TERRAIN_AVAILABLE_IN_ALL
void                    terrain_atlas_build_stats_free     (TerrainAtlasBuildStats       *stats);

/**
 * TerrainAtlasBuilderProgress:
 * @fraction: work done, 0 to 1
 * @stage: what is being done ("heights", "geometry", "textures", ...)
 * @user_data: the data given with the function
 *
 * Reports the progress of a build. It is called in the thread that runs
 * the build (a worker thread for [method@Terrain.AtlasBuilder.build_async]),
 * a few times a second at most.
 */
typedef void (*TerrainAtlasBuilderProgress) (gdouble     fraction,
                                             const char *stage,
                                             gpointer    user_data);

#define TERRAIN_TYPE_ATLAS_BUILDER (terrain_atlas_builder_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainAtlasBuilder, terrain_atlas_builder, TERRAIN, ATLAS_BUILDER, GObject)

TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasBuilder *terrain_atlas_builder_new                  (TerrainHeightfield         *heightfield);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightfield  *terrain_atlas_builder_get_heightfield      (TerrainAtlasBuilder        *self);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_fit              (TerrainAtlasBuilder        *self,
                                                                 TerrainHeightfieldFit       fit);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_error            (TerrainAtlasBuilder        *self,
                                                                 gdouble                     metres);
TERRAIN_AVAILABLE_IN_ALL
gdouble              terrain_atlas_builder_get_error            (TerrainAtlasBuilder        *self);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_tree_depth       (TerrainAtlasBuilder        *self,
                                                                 guint                       depth);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_chunk_size       (TerrainAtlasBuilder        *self,
                                                                 guint                       cells);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_version          (TerrainAtlasBuilder        *self,
                                                                 guint32                     version);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_goal_batch_size  (TerrainAtlasBuilder        *self,
                                                                 guint32                     goal_batch_size);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_collision_depth  (TerrainAtlasBuilder        *self,
                                                                 guint                       depth);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_n_threads        (TerrainAtlasBuilder        *self,
                                                                 guint                       n_threads);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_measure_error    (TerrainAtlasBuilder        *self,
                                                                 gboolean                    measure);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_terrain_type     (TerrainAtlasBuilder        *self,
                                                                 TerrainAtlasTerrainType     type);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_texture_image    (TerrainAtlasBuilder        *self,
                                                                 TerrainImage               *image);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_texture_file     (TerrainAtlasBuilder        *self,
                                                                 GFile                      *file);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_texture_tiles    (TerrainAtlasBuilder        *self,
                                                                 const char                 *pattern,
                                                                 guint                       columns,
                                                                 guint                       rows);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_texture_format   (TerrainAtlasBuilder        *self,
                                                                 TerrainAtlasTextureFormat   format,
                                                                 guint                       quality);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_tile_size        (TerrainAtlasBuilder        *self,
                                                                 guint                       pixels);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_texture_depth    (TerrainAtlasBuilder        *self,
                                                                 guint                       depth);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_channel_order    (TerrainAtlasBuilder        *self,
                                                                 TerrainAtlasChannelOrder    order);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_add_source_image     (TerrainAtlasBuilder        *self,
                                                                 const char                 *name);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_opacity_image    (TerrainAtlasBuilder        *self,
                                                                 TerrainImage               *image);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_lightmap_image   (TerrainAtlasBuilder        *self,
                                                                 TerrainImage               *image);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_virtual_texture_size (TerrainAtlasBuilder    *self,
                                                                     guint                   size);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_set_progress_func    (TerrainAtlasBuilder        *self,
                                                                 TerrainAtlasBuilderProgress func,
                                                                 gpointer                    user_data,
                                                                 GDestroyNotify              destroy);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_atlas_builder_build_to_file        (TerrainAtlasBuilder        *self,
                                                                 GFile                      *file,
                                                                 GCancellable               *cancellable,
                                                                 GError                    **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasFile    *terrain_atlas_builder_build                (TerrainAtlasBuilder        *self,
                                                                 GCancellable               *cancellable,
                                                                 GError                    **error);
TERRAIN_AVAILABLE_IN_ALL
void                 terrain_atlas_builder_build_async          (TerrainAtlasBuilder        *self,
                                                                 GFile                      *file,
                                                                 GCancellable               *cancellable,
                                                                 GAsyncReadyCallback         callback,
                                                                 gpointer                    user_data);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_atlas_builder_build_finish         (TerrainAtlasBuilder        *self,
                                                                 GAsyncResult               *result,
                                                                 GError                    **error);
TERRAIN_AVAILABLE_IN_ALL
const TerrainAtlasBuildStats *
                     terrain_atlas_builder_get_stats            (TerrainAtlasBuilder        *self);
TERRAIN_AVAILABLE_IN_ALL
GPtrArray           *terrain_atlas_builder_get_issues           (TerrainAtlasBuilder        *self);

G_END_DECLS
