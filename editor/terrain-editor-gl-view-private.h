/* terrain-editor-gl-view-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The 3D view's instance structure and the functions its files share:
 * terrain-editor-gl-view.c (the class, CPU data and document signals),
 * -gl.c (GL resources and uploads), -render.c (drawing a frame) and
 * -input.c (camera, picking and pointer input).
 */

#pragma once

#include "terrain-editor-gl-view.h"
#include "terrain-editor-atlas-renderer.h"

#include <epoxy/gl.h>

G_BEGIN_DECLS

#define RESOURCE_PREFIX "/org/libterrain/Editor/gl/shaders/"

/* Samples per chunk side, and LOD levels: step 1 .. CHUNK_SIZE. */
#define CHUNK_SIZE 64
#define N_LODS 7
/* The coarsest level whose height error projects to at most this many
 * pixels is drawn; and no step may cover more than LOD_MAX_STEP_PIXELS
 * (silhouettes, lighting). */
#define LOD_ERROR_PIXELS 1.5
#define LOD_MAX_STEP_PIXELS 48.0
#define FOV_Y (45.0 * G_PI / 180.0)

/* While the camera moves, frames whose full-resolution draw took longer
 * than INTERACTIVE_THRESHOLD_MS (software GL) are drawn at 1/LOWRES_DIVISOR
 * of the size into an FBO and scaled up; SETTLE_MS after the last move one
 * frame at full resolution follows. */
#define LOWRES_DIVISOR 2
#define INTERACTIVE_THRESHOLD_MS 12.0
#define SETTLE_MS 180

/* Time an on-screen frame may spend decoding Atlas chunks and tiles: little
 * while the camera moves, more while the view settles after it stopped.
 * Offscreen pictures load everything they need. */
#define ATLAS_BUDGET_MOVING_US 5000
#define ATLAS_BUDGET_SETTLING_US 12000

/* TNT heights are in pixels of TA's projection; a cell is 16 pixels. */
#define TNT_VERTICAL_SCALE (1.0 / TERRAIN_TNT_CELL_PIXELS)

enum {
  MODE_TILES,
  MODE_TEXTURE,
  MODE_HEIGHT,
};


/* Chunk bounding boxes are drawn in their level's colour darkened to this,
 * so that they stand out on the chunks tinted with it. */
#define LEVEL_BOX_SHADE 0.45f

typedef struct
{
  GLuint  vao;
  GLuint  vbo;
  GLuint  ibo;
  GLsizei n_indices;
} Lod;

typedef struct
{
  GLint mvp;
  GLint origin;
  GLint step;
  GLint heights;
  GLint grid_size;
  GLint vscale;
  GLint offset;
  GLint skirt;
  GLint height_norm;
  GLint mode;
  GLint map_size;
  GLint overview;
  GLint atlas;
  GLint palette;
  GLint tile_map;
  GLint atlas_columns;
  GLint atlas_shift;
  GLint n_tiles;
  GLint light;
  GLint brush;
  GLint brush_visible;
} TerrainUniforms;

/* A chunk to draw, at a LOD level, nearest first. */
typedef struct
{
  double dist;
  guint  cx;
  guint  cy;
  guint  level;
  float  skirt;
} DrawItem;

struct _TerrainEditorGlView
{
  GtkGLArea         parent_instance;

  TerrainDocument  *document;
  TerrainPalette   *palette;

  /* CPU copy of the heights (grid units), for picking and chunk bounds. */
  float            *heights;
  guint             grid_width;
  guint             grid_height;
  double            vscale;
  double            offset;
  double            height_max;
  float            *chunk_min;
  float            *chunk_max;
  /* Per chunk and LOD level: the largest height error (world units) of
   * drawing the chunk at that level instead of level 0. */
  float            *chunk_error;
  guint             chunks_x;
  guint             chunks_y;
  int               mode;

  /* Per-tile averages (k x k RGBA each) for the overview texture. */
  guint8           *tile_means;
  guint             tile_means_k;
  guint             tile_means_n;

  /* Dirty state, applied at the next render (GL needs the context). */
  gboolean          upload_all;
  gboolean          heights_dirty;
  cairo_rectangle_int_t dirty_cells;
  gboolean          tiles_dirty;
  cairo_rectangle_int_t dirty_tiles;
  gboolean          markers_dirty;

  /* GL objects */
  gboolean          gl_ready;
  gboolean          gl_failed;
  gboolean          use_es;
  GLint             max_texture_size;
  GLuint            terrain_program;
  GLuint            flat_program;
  TerrainUniforms   u;
  GLint             flat_mvp;
  GLint             flat_color;
  Lod               lods[N_LODS];
  GLuint            tex_heights;
  GLuint            tex_overview;
  GLuint            tex_atlas;
  GLuint            tex_palette;
  GLuint            tex_tile_map;
  GLint             atlas_columns;
  guint             n_tiles_uploaded;
  GLuint            water_vao;
  GLuint            water_vbo;
  gsize             water_vbo_size;
  GArray           *water_quads;    /* floats, 6 vertices x 4 per quad */
  GLuint            lowres_fbo;
  GLuint            lowres_color;
  GLuint            lowres_depth;
  int               lowres_width;
  int               lowres_height;
  GLuint            marker_vao;
  GLuint            marker_vbo;
  GLsizei           n_marker_vertices;

  /* Camera: orbit around a target on the map. */
  double            target_x;
  double            target_y;
  double            yaw;
  double            pitch;
  double            distance;
  float             view_proj[16];
  double            eye[3];

  /* Brush ring (map cell units). */
  gboolean          brush_visible;
  double            brush_x;
  double            brush_y;
  double            brush_radius;
  gboolean          show_features;
  char             *empty_message;   /* why there is nothing to draw, or NULL */

  /* Pointer interaction. */
  guint             drag_button;
  gboolean          drag_orbit;
  double            drag_last_x;
  double            drag_last_y;

  double            last_render_time;
  double            full_render_time;   /* last frame at full resolution */
  gboolean          camera_moving;
  guint             settle_id;
  gboolean          last_frame_reduced;
  GArray           *draw_list;

  /* Atlas files: their chunk quadtree, drawn by the Atlas renderer. */
  TerrainEditorAtlasRenderer *atlas;
  gboolean          atlas_has_program;
  gboolean          atlas_pending;
  gsize             atlas_geometry_budget;   /* 0: the renderer's default */
  gsize             atlas_texture_budget;
  GLuint            atlas_program;
  guint             refine_id;
  double            lod_height;              /* pixels the LOD is chosen for */
  gint64            atlas_budget_us;

  /* Atlas overlays: chunk levels and the highlighted stub (world units). */
  gboolean          show_chunk_levels;
  gboolean          highlight_visible;
  TerrainAtlasBox   highlight;
  GArray           *chunk_boxes;             /* TerrainEditorAtlasChunkBox */
  GArray           *line_vertices;           /* floats, 4 per vertex */
  GLuint            lines_vao;
  GLuint            lines_vbo;
  gsize             lines_vbo_size;
  char             *atlas_readout;
  char             *pending_readout;
  guint             readout_id;
};

/* terrain-editor-gl-view.c */
double gl_view_map_height (TerrainEditorGlView *self);
double gl_view_map_width (TerrainEditorGlView *self);
double gl_view_sea_level (TerrainEditorGlView *self);
double gl_view_terrain_height_at (TerrainEditorGlView *self,
                                  double               mx,
                                  double               my);

/* terrain-editor-gl-view-gl.c */
void gl_view_apply_pending_uploads (TerrainEditorGlView *self);
gboolean gl_view_check_gl_error (TerrainEditorGlView *self,
                                 const char          *where);
GdkGLContext * terrain_editor_gl_view_create_context (GtkGLArea *area);
void terrain_editor_gl_view_realize (GtkWidget *widget);
void terrain_editor_gl_view_size_allocate (GtkWidget *widget,
                                           int        width,
                                           int        height,
                                           int        baseline);
void terrain_editor_gl_view_unrealize (GtkWidget *widget);

/* terrain-editor-gl-view-render.c */
void gl_view_camera_moved (TerrainEditorGlView *self);
void gl_view_delete_lowres_target (TerrainEditorGlView *self);
void gl_view_draw_scene (TerrainEditorGlView *self,
                         int                  width,
                         int                  height);
void gl_view_mat4_multiply (float       *out,
                            const float *a,
                            const float *b);
void gl_view_mat4_perspective (float  *m,
                               double  fov_y,
                               double  aspect,
                               double  near,
                               double  far);
gboolean terrain_editor_gl_view_render (GtkGLArea    *area,
                                        GdkGLContext *context);
void gl_view_update_readout (TerrainEditorGlView *self,
                             gboolean             now);
void gl_view_vec3_cross (double       *out,
                         const double *a,
                         const double *b);
void gl_view_vec3_normalize (double *v);

/* terrain-editor-gl-view-input.c */
void gl_view_clamp_camera (TerrainEditorGlView *self);
void gl_view_compute_view_proj (TerrainEditorGlView *self,
                                int                  width,
                                int                  height,
                                float               *out);
void gl_view_orbit (TerrainEditorGlView *self,
                    double               dx,
                    double               dy);
void gl_view_init_input (TerrainEditorGlView *self);

G_END_DECLS
