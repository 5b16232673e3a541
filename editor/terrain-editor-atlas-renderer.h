/* terrain-editor-atlas-renderer.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <epoxy/gl.h>
#include <libterrain.h>

G_BEGIN_DECLS

typedef struct _TerrainEditorAtlasRenderer TerrainEditorAtlasRenderer;

/* Levels the per-level figures count; deeper ones count at the last. */
#define TERRAIN_EDITOR_ATLAS_STATS_LEVELS 16

/**
 * TerrainEditorAtlasStats:
 * @n_chunks_drawn: geometry chunks drawn by the last frame
 * @n_triangles_drawn: triangles the last frame submitted, skirts included
 * @n_surface_triangles_drawn: of them, surface (non-skirt) triangles
 * @n_textured_drawn: chunks drawn with a texture tile (the others are
 *   height-shaded)
 * @max_level_drawn: deepest geometry level drawn
 * @n_geometry_cached: geometry chunks resident on the GPU
 * @geometry_bytes: their vertex and index buffer bytes
 * @geometry_budget: the most @geometry_bytes may reach
 * @n_textures_cached: texture tiles resident on the GPU
 * @texture_bytes: their bytes, mipmaps included
 * @texture_budget: the most @texture_bytes may reach
 * @n_pending: chunks and tiles the last frame wanted but had no time to
 *   load: the caller draws another frame
 * @n_deferred: chunks and tiles the last frame wanted that did not fit in
 *   the caches (coarser ones are drawn instead until the camera moves)
 * @n_decoded: chunks and tiles decoded and uploaded during the last frame
 * @decode_ms: time the last frame spent decoding and uploading
 * @n_failed: chunks and tiles that did not decode (their parents are drawn)
 * @geometry_depth: levels of the geometry tree
 * @texture_depth: levels of the texture tree drawn (0: none)
 * @n_chunks_at_level: of @n_chunks_drawn, how many at each geometry level
 *
 * Figures of the Atlas renderer, for the benchmark and the tests.
 */
typedef struct
{
  guint   n_chunks_drawn;
  guint64 n_triangles_drawn;
  guint64 n_surface_triangles_drawn;
  guint   n_textured_drawn;
  guint   max_level_drawn;
  guint   n_geometry_cached;
  gsize   geometry_bytes;
  gsize   geometry_budget;
  guint   n_textures_cached;
  gsize   texture_bytes;
  gsize   texture_budget;
  guint   n_pending;
  guint   n_deferred;
  guint   n_decoded;
  double  decode_ms;
  guint   n_failed;
  guint   geometry_depth;
  guint   texture_depth;
  guint   n_chunks_at_level[TERRAIN_EDITOR_ATLAS_STATS_LEVELS];
} TerrainEditorAtlasStats;

/**
 * TerrainEditorAtlasChunkBox:
 * @level: the chunk's geometry level (0: the root)
 * @box: its bounds in map space: min x, y (height), z, max x, y, z
 *
 * A chunk the last frame drew, for the level overlay.
 */
typedef struct
{
  guint   level;
  float   box[6];
} TerrainEditorAtlasChunkBox;

/**
 * TerrainEditorAtlasFrame:
 * @view_proj: map space to clip space, column-major
 * @eye: the camera in map space
 * @pixels_per_unit: pixels one world unit covers at distance 1 (the view's
 *   full-resolution height / (2 tan(fov / 2))): screen-space errors use it
 * @light: direction towards the light, map space
 * @budget_us: time this frame may spend decoding; negative: load everything
 *   the view needs before drawing (offscreen pictures)
 */
typedef struct
{
  float   view_proj[16];
  double  eye[3];
  double  pixels_per_unit;
  float   light[3];
  gint64  budget_us;
} TerrainEditorAtlasFrame;

TerrainEditorAtlasRenderer *
terrain_editor_atlas_renderer_new              (TerrainAtlasFile              *file,
                                                GError                       **error);
void
terrain_editor_atlas_renderer_free             (TerrainEditorAtlasRenderer    *self);
void
terrain_editor_atlas_renderer_set_changed_func (TerrainEditorAtlasRenderer    *self,
                                                GFunc                          func,
                                                gpointer                       data);
void
terrain_editor_atlas_renderer_get_extent       (TerrainEditorAtlasRenderer    *self,
                                                double                        *width,
                                                double                        *height,
                                                double                        *z_min,
                                                double                        *z_max);
double
terrain_editor_atlas_renderer_height_at        (TerrainEditorAtlasRenderer    *self,
                                                double                         map_x,
                                                double                         map_y);
void
terrain_editor_atlas_renderer_set_budgets      (TerrainEditorAtlasRenderer    *self,
                                                gsize                          geometry_bytes,
                                                gsize                          texture_bytes);
void
terrain_editor_atlas_renderer_set_program      (TerrainEditorAtlasRenderer    *self,
                                                GLuint                         program,
                                                GLint                          max_texture_size);
void
terrain_editor_atlas_renderer_release_gl       (TerrainEditorAtlasRenderer    *self);
gboolean
terrain_editor_atlas_renderer_draw             (TerrainEditorAtlasRenderer    *self,
                                                const TerrainEditorAtlasFrame *frame);
gboolean
terrain_editor_atlas_renderer_pick             (TerrainEditorAtlasRenderer    *self,
                                                const double                  *origin,
                                                const double                  *direction,
                                                double                        *distance);
void
terrain_editor_atlas_renderer_get_stats        (TerrainEditorAtlasRenderer    *self,
                                                TerrainEditorAtlasStats       *stats);
void
terrain_editor_atlas_renderer_set_show_levels  (TerrainEditorAtlasRenderer    *self,
                                                gboolean                       show);
void
terrain_editor_atlas_renderer_get_drawn_boxes  (TerrainEditorAtlasRenderer    *self,
                                                GArray                        *boxes);
void
terrain_editor_atlas_renderer_world_to_map     (TerrainEditorAtlasRenderer    *self,
                                                const TerrainAtlasBox         *world,
                                                float                         *map_box);

void
terrain_editor_atlas_level_color               (guint                          level,
                                                float                         *rgb);
gboolean
terrain_editor_atlas_get_terrain_box           (TerrainAtlasFile              *file,
                                                TerrainAtlasBox               *box);
gboolean
terrain_editor_atlas_is_deep_file              (TerrainDocument               *document);
gboolean
terrain_editor_atlas_get_stub_box              (TerrainAtlasFile              *file,
                                                TerrainAtlasStub              *stub,
                                                TerrainAtlasBox               *box);

gboolean terrain_editor_box_visible (const float *m,
                                     double       x0,
                                     double       y0,
                                     double       z0,
                                     double       x1,
                                     double       y1,
                                     double       z1);

G_END_DECLS
