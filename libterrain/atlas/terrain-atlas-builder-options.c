/* terrain-atlas-builder-options.c: the Atlas builder's options: the
 * heightfield fit, error, tree depth, chunk size, version and batch size,
 * threads, texture source, format and layout, blender images, progress
 * function, and the figures and findings of the last build. Part of
 * TerrainAtlasBuilder (terrain-atlas-builder-private.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>

#include "terrain-atlas-builder.h"
#include "terrain-atlas-builder-private.h"


/**
 * terrain_atlas_builder_get_heightfield:
 * @self: a #TerrainAtlasBuilder
 *
 * Gets the heights the builder builds from.
 *
 * Returns: (transfer none): the heightfield
 */
TerrainHeightfield *
terrain_atlas_builder_get_heightfield (TerrainAtlasBuilder *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_BUILDER (self), NULL);
  return self->heightfield;
}

/**
 * terrain_atlas_builder_set_fit:
 * @self: a #TerrainAtlasBuilder
 * @fit: how a heightfield that is not square and 2^N+1 is made so
 *
 * Chooses padding (the default, by edge extension), resampling, or refusal
 * for heightfields of other sizes (see [method@Terrain.Heightfield.fit]).
 */
void
terrain_atlas_builder_set_fit (TerrainAtlasBuilder   *self,
                               TerrainHeightfieldFit  fit)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  self->fit = fit;
}

/**
 * terrain_atlas_builder_set_error:
 * @self: a #TerrainAtlasBuilder
 * @metres: largest height difference between the finest level and the
 *   heightfield, in metres, positive (each coarser level doubles it)
 *
 * Sets the error threshold of the leaf chunks.
 */
void
terrain_atlas_builder_set_error (TerrainAtlasBuilder *self,
                                 gdouble              metres)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  g_return_if_fail (isfinite (metres) && metres > 0.0);
  self->error = metres;
}

/**
 * terrain_atlas_builder_get_error:
 * @self: a #TerrainAtlasBuilder
 *
 * Gets the error threshold of the leaf chunks.
 *
 * Returns: metres
 */
gdouble
terrain_atlas_builder_get_error (TerrainAtlasBuilder *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_BUILDER (self), 0.0);
  return self->error;
}

/**
 * terrain_atlas_builder_set_tree_depth:
 * @self: a #TerrainAtlasBuilder
 * @depth: geometry tree levels, 1 to 15; 0 to derive it from the chunk
 *   size
 *
 * Sets the geometry tree depth. A depth whose leaves would hold more than a
 * 2^N+1 grid allows is lowered to fit; one whose leaves break the 16-bit
 * limits is raised (see [method@Terrain.AtlasBuilder.get_stats]).
 */
void
terrain_atlas_builder_set_tree_depth (TerrainAtlasBuilder *self,
                                      guint                depth)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  g_return_if_fail (depth <= ATLAS_MAX_TREE_DEPTH);
  self->tree_depth = depth;
}

/**
 * terrain_atlas_builder_set_chunk_size:
 * @self: a #TerrainAtlasBuilder
 * @cells: target leaf chunk side in cells (rounded to a power of two); 0
 *   for TGEA's default
 *
 * Sets the leaf chunk size the tree depth is derived from when no depth is
 * given.
 */
void
terrain_atlas_builder_set_chunk_size (TerrainAtlasBuilder *self,
                                      guint                cells)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  self->chunk_size = cells;
}

/**
 * terrain_atlas_builder_set_version:
 * @self: a #TerrainAtlasBuilder
 * @version: resource version of every TOC, 100 to %TERRAIN_ATLAS_VERSION
 *
 * Writes an older layout (atlas-chu-tqt.md §7): no normals below 140, no
 * collision below 120, no bounds below 101 (stubs get the chunk centre).
 */
void
terrain_atlas_builder_set_version (TerrainAtlasBuilder *self,
                                   guint32              version)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  g_return_if_fail (version <= TERRAIN_ATLAS_VERSION);
  self->version = version;
}

/**
 * terrain_atlas_builder_set_goal_batch_size:
 * @self: a #TerrainAtlasBuilder
 * @goal_batch_size: the geometry TOC's mGoalBatchSize
 *
 * Sets the batch size recorded in the geometry TOC (§1; TGEA uses 1500).
 */
void
terrain_atlas_builder_set_goal_batch_size (TerrainAtlasBuilder *self,
                                           guint32              goal_batch_size)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  self->goal_batch_size = goal_batch_size;
}

/**
 * terrain_atlas_builder_set_collision_depth:
 * @self: a #TerrainAtlasBuilder
 * @depth: collision tree depth of leaf chunks, 1 to 8; 0 for none
 *
 * Sets the collision tree depth (§3, "Collision data"; 4 gives 8 × 8 bins).
 */
void
terrain_atlas_builder_set_collision_depth (TerrainAtlasBuilder *self,
                                           guint                depth)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  g_return_if_fail (depth <= 8);
  self->collision_depth = depth;
}

/**
 * terrain_atlas_builder_set_n_threads:
 * @self: a #TerrainAtlasBuilder
 * @n_threads: worker threads; 0 for one per processor
 *
 * Sets how many threads share the work.
 */
void
terrain_atlas_builder_set_n_threads (TerrainAtlasBuilder *self,
                                     guint                n_threads)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  self->n_threads = n_threads;
}

/**
 * terrain_atlas_builder_set_measure_error:
 * @self: a #TerrainAtlasBuilder
 * @measure: whether to measure
 *
 * Measures, while building, the largest difference between the leaf meshes
 * and the heightfield over every sample (reported as
 * #TerrainAtlasBuildStats.max_error). It costs one more pass over the
 * samples.
 */
void
terrain_atlas_builder_set_measure_error (TerrainAtlasBuilder *self,
                                         gboolean             measure)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  self->measure = measure;
}

/**
 * terrain_atlas_builder_set_terrain_type:
 * @self: a #TerrainAtlasBuilder
 * @type: unique or blender terrain
 *
 * Chooses the kind of terrain, and so the TOCs written.
 */
void
terrain_atlas_builder_set_terrain_type (TerrainAtlasBuilder     *self,
                                        TerrainAtlasTerrainType  type)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  self->textures.type = type;
}

/**
 * terrain_atlas_builder_set_texture_image:
 * @self: a #TerrainAtlasBuilder
 * @image: (nullable): the texture of the whole terrain, or %NULL
 *
 * Sets the texture of unique terrain from a picture in memory. The image
 * covers the part of the heightfield that holds data (see
 * [method@Terrain.Heightfield.get_data_size]), top row north.
 */
void
terrain_atlas_builder_set_texture_image (TerrainAtlasBuilder *self,
                                         TerrainImage        *image)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));

  if (image != NULL)
    terrain_image_ref (image);
  g_clear_pointer (&self->textures.texture_image, terrain_image_unref);
  self->textures.texture_image = image;
}

/**
 * terrain_atlas_builder_set_texture_file:
 * @self: a #TerrainAtlasBuilder
 * @file: (nullable): a PNG or JPEG file, or %NULL
 *
 * Sets the texture of unique terrain from a file, read when the build
 * starts.
 */
void
terrain_atlas_builder_set_texture_file (TerrainAtlasBuilder *self,
                                        GFile               *file)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  g_return_if_fail (file == NULL || G_IS_FILE (file));

  g_set_object (&self->textures.texture_file, file);
}

/**
 * terrain_atlas_builder_set_texture_tiles:
 * @self: a #TerrainAtlasBuilder
 * @pattern: (nullable): a path with `{x}` for the tile column and `{y}` for
 *   the tile row (from the top-left, starting at 0), e.g.
 *   `tiles/t_{x}_{y}.jpg`; %NULL to drop the grid
 * @columns: tiles per row
 * @rows: rows of tiles
 *
 * Sets the texture of unique terrain from a grid of equally sized PNG or
 * JPEG tiles, read as needed, so the whole picture is never in memory.
 */
void
terrain_atlas_builder_set_texture_tiles (TerrainAtlasBuilder *self,
                                         const char          *pattern,
                                         guint                columns,
                                         guint                rows)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  g_return_if_fail (pattern == NULL || (columns > 0 && rows > 0));

  g_free (self->textures.tile_pattern);
  self->textures.tile_pattern = g_strdup (pattern);
  self->textures.tile_columns = columns;
  self->textures.tile_rows = rows;
}

/**
 * terrain_atlas_builder_set_texture_format:
 * @self: a #TerrainAtlasBuilder
 * @format: %TERRAIN_ATLAS_TEXTURE_JPEG, %TERRAIN_ATLAS_TEXTURE_PNG or
 *   %TERRAIN_ATLAS_TEXTURE_DDS
 * @quality: JPEG quality, 1 to 100
 *
 * Chooses how texture and lightmap tiles are encoded (opacity maps are
 * always PNG: they need their alpha channel). DDS tiles are BC1 (DXT1), or
 * BC3 (DXT5) for a tile with alpha, each with its full mip chain, as TGEA's
 * own texture trees are.
 */
void
terrain_atlas_builder_set_texture_format (TerrainAtlasBuilder       *self,
                                          TerrainAtlasTextureFormat  format,
                                          guint                      quality)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  g_return_if_fail (format == TERRAIN_ATLAS_TEXTURE_JPEG || format == TERRAIN_ATLAS_TEXTURE_PNG ||
                    format == TERRAIN_ATLAS_TEXTURE_DDS);
  g_return_if_fail (quality >= 1 && quality <= 100);

  self->textures.texture_format = format;
  self->textures.quality = quality;
}

/**
 * terrain_atlas_builder_set_tile_size:
 * @self: a #TerrainAtlasBuilder
 * @pixels: texture tile side, a power of two from 8 to 4096
 *
 * Sets the texture tile size (256 by default).
 */
void
terrain_atlas_builder_set_tile_size (TerrainAtlasBuilder *self,
                                     guint                pixels)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  g_return_if_fail (pixels >= 8 && pixels <= 4096 && (pixels & (pixels - 1)) == 0);
  self->textures.tile_size = pixels;
}

/**
 * terrain_atlas_builder_set_texture_depth:
 * @self: a #TerrainAtlasBuilder
 * @depth: texture tree levels, 1 to 15; 0 to give the leaves about the
 *   source's resolution
 *
 * Sets the texture tree depth: the leaf level holds tile size × 2^(depth−1)
 * pixels on a side.
 */
void
terrain_atlas_builder_set_texture_depth (TerrainAtlasBuilder *self,
                                         guint                depth)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  g_return_if_fail (depth <= ATLAS_MAX_TREE_DEPTH);
  self->textures.texture_depth = depth;
}

/**
 * terrain_atlas_builder_set_channel_order:
 * @self: a #TerrainAtlasBuilder
 * @order: %TERRAIN_ATLAS_CHANNELS_BGR to store red and blue swapped, as
 *   content made from BGR bitmaps is (§4)
 *
 * Chooses the channel order of encoded tiles.
 */
void
terrain_atlas_builder_set_channel_order (TerrainAtlasBuilder      *self,
                                         TerrainAtlasChannelOrder  order)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  self->textures.order = order;
}

/**
 * terrain_atlas_builder_add_source_image:
 * @self: a #TerrainAtlasBuilder
 * @name: the name a blender terrain's config gives a source image (what
 *   TGEA loads, e.g. `terrains/grass.jpg`)
 *
 * Adds one source image of blender terrain, up to
 * %TERRAIN_ATLAS_BUILDER_MAX_SOURCE_IMAGES (one per opacity channel: red
 * weighs the first, green the second, and so on).
 */
void
terrain_atlas_builder_add_source_image (TerrainAtlasBuilder *self,
                                        const char          *name)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (self->textures.source_images->len < TERRAIN_ATLAS_BUILDER_MAX_SOURCE_IMAGES);

  g_ptr_array_add (self->textures.source_images, g_strdup (name));
}

/**
 * terrain_atlas_builder_set_opacity_image:
 * @self: a #TerrainAtlasBuilder
 * @image: (nullable): the opacity map of blender terrain (channel k weighs
 *   source image k), or %NULL to derive one from the heights
 *
 * Sets the opacity map. Without one, the source images are spread over the
 * height range in bands.
 */
void
terrain_atlas_builder_set_opacity_image (TerrainAtlasBuilder *self,
                                         TerrainImage        *image)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));

  if (image != NULL)
    terrain_image_ref (image);
  g_clear_pointer (&self->textures.opacity_image, terrain_image_unref);
  self->textures.opacity_image = image;
}

/**
 * terrain_atlas_builder_set_lightmap_image:
 * @self: a #TerrainAtlasBuilder
 * @image: (nullable): the lightmap of blender terrain, or %NULL to light
 *   the heights from the north-west
 *
 * Sets the lightmap (shadow map).
 */
void
terrain_atlas_builder_set_lightmap_image (TerrainAtlasBuilder *self,
                                          TerrainImage        *image)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));

  if (image != NULL)
    terrain_image_ref (image);
  g_clear_pointer (&self->textures.lightmap_image, terrain_image_unref);
  self->textures.lightmap_image = image;
}

/**
 * terrain_atlas_builder_set_virtual_texture_size:
 * @self: a #TerrainAtlasBuilder
 * @size: the `virtualTexSize` of blender terrain, a power of two
 *
 * Sets the size of the texture TGEA blends at run time (32768 by default).
 */
void
terrain_atlas_builder_set_virtual_texture_size (TerrainAtlasBuilder *self,
                                                guint                size)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  g_return_if_fail (size >= 1 && (size & (size - 1)) == 0);
  self->textures.virtual_size = size;
}

/**
 * terrain_atlas_builder_set_progress_func:
 * @self: a #TerrainAtlasBuilder
 * @func: (nullable) (scope notified) (closure user_data) (destroy destroy):
 *   called with the progress of a build, or %NULL
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Sets the function told how far a build has come.
 */
void
terrain_atlas_builder_set_progress_func (TerrainAtlasBuilder         *self,
                                         TerrainAtlasBuilderProgress  func,
                                         gpointer                     user_data,
                                         GDestroyNotify               destroy)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));

  if (self->progress_destroy != NULL)
    self->progress_destroy (self->progress_data);
  self->progress = func;
  self->progress_data = user_data;
  self->progress_destroy = destroy;
}

/**
 * terrain_atlas_builder_get_stats:
 * @self: a #TerrainAtlasBuilder
 *
 * Gets the figures of the last build: depth, chunk, vertex and triangle
 * counts, measured error, file size.
 *
 * Returns: (transfer none): the figures
 */
const TerrainAtlasBuildStats *
terrain_atlas_builder_get_stats (TerrainAtlasBuilder *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_BUILDER (self), NULL);
  return &self->stats;
}

/**
 * terrain_atlas_builder_get_issues:
 * @self: a #TerrainAtlasBuilder
 *
 * Gets what the last build that succeeded did that its user should know,
 * told from its figures ([method@Terrain.AtlasBuilder.get_stats]):
 * warnings when a heightmap that is not square and 2^N+1 was padded (the
 * share of the terrain that is padding; rule `padded-heightmap`, section
 * `heights`) and when the texture is out of the heightmap's proportions and
 * so stretched (the metres a pixel covers each way; `stretched-texture`,
 * section `texture`), and remarks (%TERRAIN_SEVERITY_INFO) when the tree
 * depth was raised to keep leaf chunks within the 16-bit limits
 * (`raised-depth`) and when coarser levels got a larger error to stay
 * within 65,535 vertices a chunk (`coarsened-levels`). `terrain
 * build-atlas` prints them and the editor's Build Atlas dialog shows them.
 * Empty before a build and after one that failed.
 *
 * Returns: (transfer none) (element-type TerrainIssue): the findings, in
 *   that order
 */
GPtrArray *
terrain_atlas_builder_get_issues (TerrainAtlasBuilder *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_BUILDER (self), NULL);
  return self->issues;
}

void
terrain_atlas_builder_set_midpoint_metric (TerrainAtlasBuilder *self,
                                           gboolean             midpoint)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_BUILDER (self));
  self->midpoint_metric = midpoint;
}

const BuildTextureSettings *
terrain_atlas_builder_get_texture_settings (TerrainAtlasBuilder *self)
{
  return &self->textures;
}
