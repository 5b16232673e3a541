/* terrain-editor-gl-view.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The 3D view: a GtkGLArea drawing a document's height grid as a chunked
 * heightfield. One small vertex grid per LOD level (with skirts hiding the
 * cracks between neighbours of different levels) is shared by every chunk;
 * the vertex shader reads the heights from a float texture, so an edit only
 * re-uploads the changed rectangle of that texture. TNT maps are textured in
 * the fragment shader through the tile map, a tile atlas and the palette
 * (ban.tnt is 8544x10880 pixels: far too big for one texture, but its tiles
 * are not), with a pre-averaged overview texture taking over when a texel
 * gets smaller than a screen pixel.
 *
 * Torque Atlas files are not resampled into one grid: their own quadtree of
 * LOD chunks and texture tiles is drawn by terrain-editor-atlas-renderer.c,
 * which decodes chunks as the camera needs them within a time budget per
 * frame; the view keeps asking for frames until the caches settle. Over
 * them it can show each drawn chunk's level (a tint and its bounding box,
 * with a legend and the renderer's figures in the atlas-readout property)
 * and highlight one stub's box, which the Structure tab selects.
 */

#include "config.h"

#include "terrain-editor-gl-view.h"

#include "terrain-editor-atlas-renderer.h"

#include <epoxy/gl.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

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

enum {
  GL_FAILED,
  CELL_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum {
  PROP_0,
  PROP_EMPTY_MESSAGE,
  PROP_SHOW_FEATURES,
  PROP_SHOW_CHUNK_LEVELS,
  PROP_ATLAS_READOUT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

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

G_DEFINE_FINAL_TYPE (TerrainEditorGlView, terrain_editor_gl_view, GTK_TYPE_GL_AREA)

/* ------------------------------------------------------------------------
 * Matrices (column-major, as GL wants them)
 */

static void
mat4_multiply (float       *out,
               const float *a,
               const float *b)
{
  float r[16];

  for (int c = 0; c < 4; c++)
    for (int row = 0; row < 4; row++)
      {
        float s = 0;

        for (int k = 0; k < 4; k++)
          s += a[k * 4 + row] * b[c * 4 + k];
        r[c * 4 + row] = s;
      }
  memcpy (out, r, sizeof r);
}

static void
mat4_perspective (float  *m,
                  double  fov_y,
                  double  aspect,
                  double  near,
                  double  far)
{
  double f = 1.0 / tan (fov_y / 2.0);

  memset (m, 0, 16 * sizeof (float));
  m[0] = (float) (f / aspect);
  m[5] = (float) f;
  m[10] = (float) ((far + near) / (near - far));
  m[11] = -1.0f;
  m[14] = (float) (2.0 * far * near / (near - far));
}

static void
vec3_normalize (double *v)
{
  double l = sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);

  if (l > 0)
    {
      v[0] /= l;
      v[1] /= l;
      v[2] /= l;
    }
}

static void
vec3_cross (double       *out,
            const double *a,
            const double *b)
{
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* ------------------------------------------------------------------------
 * Heights
 */

static double
grid_height_at (TerrainEditorGlView *self,
                int                  x,
                int                  y)
{
  x = CLAMP (x, 0, (int) self->grid_width - 1);
  y = CLAMP (y, 0, (int) self->grid_height - 1);
  return self->heights[(gsize) y * self->grid_width + x] * self->vscale;
}

/* World height at map position (@mx, @my), bilinear between samples. */
static double
terrain_height_at (TerrainEditorGlView *self,
                   double               mx,
                   double               my)
{
  double gx = mx - self->offset, gy = my - self->offset;
  int x0 = (int) floor (gx), y0 = (int) floor (gy);
  double fx = gx - x0, fy = gy - y0;

  if (self->heights == NULL)
    return 0;

  return (grid_height_at (self, x0, y0) * (1 - fx) + grid_height_at (self, x0 + 1, y0) * fx) * (1 - fy) +
         (grid_height_at (self, x0, y0 + 1) * (1 - fx) + grid_height_at (self, x0 + 1, y0 + 1) * fx) * fy;
}

static double
chunk_sample (TerrainEditorGlView *self,
              guint                cx,
              guint                cy,
              guint                i,
              guint                j)
{
  return self->heights[(gsize) MIN (cy * CHUNK_SIZE + j, self->grid_height - 1) * self->grid_width +
                       MIN (cx * CHUNK_SIZE + i, self->grid_width - 1)];
}

/* Geomipmapping error: how far each sample lies from the surface of the
 * coarser grid (bilinear between its corners), per level, made monotonic
 * so that a coarser level never claims less error than a finer one. */
static void
update_chunk_errors (TerrainEditorGlView *self,
                     guint                cx,
                     guint                cy)
{
  float *errors = self->chunk_error + (gsize) (cy * self->chunks_x + cx) * N_LODS;

  errors[0] = 0;
  for (guint level = 1; level < N_LODS; level++)
    {
      guint s = 1u << level;
      double worst = 0;

      for (guint j = 0; j <= CHUNK_SIZE; j++)
        for (guint i = 0; i <= CHUNK_SIZE; i++)
          {
            guint i0 = i / s * s, j0 = j / s * s;
            guint i1 = MIN (i0 + s, CHUNK_SIZE), j1 = MIN (j0 + s, CHUNK_SIZE);
            double fx = i1 > i0 ? (double) (i - i0) / (i1 - i0) : 0;
            double fy = j1 > j0 ? (double) (j - j0) / (j1 - j0) : 0;
            double coarse =
              (chunk_sample (self, cx, cy, i0, j0) * (1 - fx) + chunk_sample (self, cx, cy, i1, j0) * fx) * (1 - fy) +
              (chunk_sample (self, cx, cy, i0, j1) * (1 - fx) + chunk_sample (self, cx, cy, i1, j1) * fx) * fy;

            worst = MAX (worst, fabs (coarse - chunk_sample (self, cx, cy, i, j)));
          }
      errors[level] = MAX (errors[level - 1], (float) (worst * self->vscale));
    }
}

static void
update_chunk_bounds (TerrainEditorGlView *self,
                     guint                cx0,
                     guint                cy0,
                     guint                cx1,
                     guint                cy1)
{
  for (guint cy = cy0; cy <= cy1 && cy < self->chunks_y; cy++)
    for (guint cx = cx0; cx <= cx1 && cx < self->chunks_x; cx++)
      {
        float lo = G_MAXFLOAT, hi = -G_MAXFLOAT;
        guint x1 = MIN ((cx + 1) * CHUNK_SIZE, self->grid_width - 1);
        guint y1 = MIN ((cy + 1) * CHUNK_SIZE, self->grid_height - 1);

        for (guint y = cy * CHUNK_SIZE; y <= y1; y++)
          for (guint x = cx * CHUNK_SIZE; x <= x1; x++)
            {
              float h = self->heights[(gsize) y * self->grid_width + x];

              lo = MIN (lo, h);
              hi = MAX (hi, h);
            }
        self->chunk_min[cy * self->chunks_x + cx] = (float) (lo * self->vscale);
        self->chunk_max[cy * self->chunks_x + cx] = (float) (hi * self->vscale);
        update_chunk_errors (self, cx, cy);
      }
}

static void
drop_atlas (TerrainEditorGlView *self)
{
  if (self->atlas == NULL)
    return;
  if (self->gl_ready && gtk_widget_get_realized (GTK_WIDGET (self)))
    {
      gtk_gl_area_make_current (GTK_GL_AREA (self));
      if (gtk_gl_area_get_error (GTK_GL_AREA (self)) == NULL)
        terrain_editor_atlas_renderer_release_gl (self->atlas);
    }
  g_clear_pointer (&self->atlas, terrain_editor_atlas_renderer_free);
  self->atlas_has_program = FALSE;
  self->atlas_pending = FALSE;
}

static void
clear_cpu_data (TerrainEditorGlView *self)
{
  drop_atlas (self);
  g_clear_pointer (&self->heights, g_free);
  g_clear_pointer (&self->chunk_min, g_free);
  g_clear_pointer (&self->chunk_max, g_free);
  g_clear_pointer (&self->chunk_error, g_free);
  g_clear_pointer (&self->tile_means, g_free);
  self->grid_width = self->grid_height = 0;
  self->chunks_x = self->chunks_y = 0;
  self->tile_means_n = 0;
}

static void
read_tnt_heights (TerrainEditorGlView *self,
                  TerrainTntMap       *map,
                  guint                x0,
                  guint                y0,
                  guint                w,
                  guint                h)
{
  for (guint y = y0; y < y0 + h && y < self->grid_height; y++)
    for (guint x = x0; x < x0 + w && x < self->grid_width; x++)
      self->heights[(gsize) y * self->grid_width + x] = terrain_tnt_map_get_cell_height (map, x, y);
}

static void
atlas_changed (gpointer renderer,
               gpointer data)
{
  gtk_gl_area_queue_render (GTK_GL_AREA (data));
}

/* TerrainEditorGlView:empty-message, for a document with nothing to draw
 * in 3D (set outside rendering: the window shows it in a label). */
static void
set_empty_message (TerrainEditorGlView *self,
                   const char          *why)
{
  g_autofree char *message = NULL;

  if (self->document != NULL && why != NULL)
    message = g_strdup_printf (_("Nothing to show in 3D: %s"), why);
  else if (self->document != NULL)
    message = g_strdup (_("Nothing to show in 3D: this file has no heights."));
  if (g_strcmp0 (message, self->empty_message) == 0)
    return;
  g_free (self->empty_message);
  self->empty_message = g_steal_pointer (&message);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EMPTY_MESSAGE]);
}

static gboolean
load_cpu_data (TerrainEditorGlView *self)
{
  clear_cpu_data (self);
  if (self->empty_message != NULL)
    {
      g_clear_pointer (&self->empty_message, g_free);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EMPTY_MESSAGE]);
    }

  if (self->document == NULL)
    return TRUE;

  if (TERRAIN_IS_ATLAS_FILE (self->document))
    {
      g_autoptr(GError) error = NULL;

      self->atlas = terrain_editor_atlas_renderer_new (TERRAIN_ATLAS_FILE (self->document), &error);
      if (self->atlas != NULL)
        {
          terrain_editor_atlas_renderer_set_changed_func (self->atlas, atlas_changed, self);
          if (self->atlas_geometry_budget != 0)
            terrain_editor_atlas_renderer_set_budgets (self->atlas, self->atlas_geometry_budget,
                                                       self->atlas_texture_budget);
          return TRUE;
        }
      /* Fall back to the exported heights (which may not exist either). */
      g_debug ("3D view: %s", error->message);
    }

  if (TERRAIN_IS_TNT_MAP (self->document))
    {
      TerrainTntMap *map = TERRAIN_TNT_MAP (self->document);

      self->grid_width = terrain_tnt_map_get_width (map);
      self->grid_height = terrain_tnt_map_get_height (map);
      if (self->grid_width == 0 || self->grid_height == 0)
        return TRUE;
      self->heights = g_new (float, (gsize) self->grid_width * self->grid_height);
      read_tnt_heights (self, map, 0, 0, self->grid_width, self->grid_height);
      self->vscale = TNT_VERTICAL_SCALE;
      self->offset = 0.5;
      self->height_max = 255;
    }
  else
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainImage) image = terrain_document_export_heights (self->document, &error);
      const guint8 *data;
      gsize stride;
      guint lo = G_MAXUINT16, hi = 0;

      if (image == NULL || terrain_image_get_format (image) != TERRAIN_IMAGE_GRAY16)
        {
          g_debug ("3D view: no heights: %s", error ? error->message : "not GRAY16");
          set_empty_message (self, error != NULL ? error->message : NULL);
          return TRUE;
        }

      self->grid_width = terrain_image_get_width (image);
      self->grid_height = terrain_image_get_height (image);
      if (self->grid_width == 0 || self->grid_height == 0)
        return TRUE;
      data = terrain_image_get_data (image, NULL);
      stride = terrain_image_get_stride (image);
      self->heights = g_new (float, (gsize) self->grid_width * self->grid_height);
      for (guint y = 0; y < self->grid_height; y++)
        {
          const guint16 *row = (const guint16 *) (gconstpointer) (data + y * stride);

          for (guint x = 0; x < self->grid_width; x++)
            {
              lo = MIN (lo, row[x]);
              hi = MAX (hi, row[x]);
              self->heights[(gsize) y * self->grid_width + x] = row[x];
            }
        }
      for (gsize i = 0; i < (gsize) self->grid_width * self->grid_height; i++)
        self->heights[i] -= lo;
      /* GRAY16 units differ by format (Atlas spans 0..65535, a .ter keeps
       * its own units): show the relief as a tenth of the map's side, which
       * reads well from any angle. */
      self->vscale = 0.1 * MAX (self->grid_width, self->grid_height) / MAX (hi - lo, 1);
      self->offset = 0.0;
      self->height_max = MAX (hi - lo, 1);
    }

  self->chunks_x = (self->grid_width + CHUNK_SIZE - 2) / CHUNK_SIZE;
  self->chunks_y = (self->grid_height + CHUNK_SIZE - 2) / CHUNK_SIZE;
  self->chunks_x = MAX (self->chunks_x, 1);
  self->chunks_y = MAX (self->chunks_y, 1);
  self->chunk_min = g_new (float, self->chunks_x * self->chunks_y);
  self->chunk_max = g_new (float, self->chunks_x * self->chunks_y);
  self->chunk_error = g_new (float, (gsize) self->chunks_x * self->chunks_y * N_LODS);
  update_chunk_bounds (self, 0, 0, self->chunks_x - 1, self->chunks_y - 1);

  return TRUE;
}

/* Map units: cells for grids; for Atlas files, world units east of the
 * terrain's west edge and south of its north edge. */
static double
map_width (TerrainEditorGlView *self)
{
  double width;

  if (self->atlas != NULL)
    {
      terrain_editor_atlas_renderer_get_extent (self->atlas, &width, NULL, NULL, NULL);
      return width;
    }
  return self->grid_width - 1 + 2 * self->offset;
}

static double
map_height (TerrainEditorGlView *self)
{
  double height;

  if (self->atlas != NULL)
    {
      terrain_editor_atlas_renderer_get_extent (self->atlas, NULL, &height, NULL, NULL);
      return height;
    }
  return self->grid_height - 1 + 2 * self->offset;
}

static double
sea_level (TerrainEditorGlView *self)
{
  if (self->document != NULL && TERRAIN_IS_TNT_MAP (self->document))
    return terrain_tnt_map_get_sea_level (TERRAIN_TNT_MAP (self->document)) * self->vscale;
  return -1;
}

/* ------------------------------------------------------------------------
 * GL helpers
 */

static void
fail (TerrainEditorGlView *self,
      const char          *format,
      ...) G_GNUC_PRINTF (2, 3);

static void
fail (TerrainEditorGlView *self,
      const char          *format,
      ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  if (self->gl_failed)
    return;
  self->gl_failed = TRUE;
  g_debug ("3D view: %s", message);
  g_signal_emit (self, signals[GL_FAILED], 0, message);
}

static gboolean
check_gl_error (TerrainEditorGlView *self,
                const char          *where)
{
  GLenum err = glGetError ();

  if (err == GL_NO_ERROR)
    return TRUE;
  while (glGetError () != GL_NO_ERROR)
    ;
  fail (self, _("OpenGL error 0x%04x while %s"), err, where);
  return FALSE;
}

static GLuint
compile_shader (TerrainEditorGlView  *self,
                GLenum                type,
                const char           *name,
                GError              **error)
{
  g_autofree char *path = g_strconcat (RESOURCE_PREFIX, name, NULL);
  g_autoptr(GBytes) bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  const char *header;
  const char *sources[2];
  GLint lengths[2];
  GLuint shader;
  GLint ok = 0;

  if (bytes == NULL)
    return 0;

  /* The same source serves GL 3.3 core and GLES 3.0. */
  if (self->use_es)
    header = "#version 300 es\n"
             "precision highp float;\n"
             "precision highp int;\n"
             "precision highp sampler2D;\n"
             "precision highp usampler2D;\n";
  else
    header = "#version 330 core\n";

  sources[0] = header;
  lengths[0] = (GLint) strlen (header);
  sources[1] = g_bytes_get_data (bytes, NULL);
  lengths[1] = (GLint) g_bytes_get_size (bytes);

  shader = glCreateShader (type);
  glShaderSource (shader, 2, sources, lengths);
  glCompileShader (shader);
  glGetShaderiv (shader, GL_COMPILE_STATUS, &ok);
  if (!ok)
    {
      GLint len = 0;
      g_autofree char *log = NULL;

      glGetShaderiv (shader, GL_INFO_LOG_LENGTH, &len);
      log = g_malloc0 (MAX (len, 1) + 1);
      glGetShaderInfoLog (shader, len, NULL, log);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("Compiling shader %s failed: %s"), name, log);
      glDeleteShader (shader);
      return 0;
    }

  return shader;
}

static GLuint
link_program (TerrainEditorGlView  *self,
              const char           *vertex,
              const char           *fragment,
              GError              **error)
{
  GLuint vs, fs, program;
  GLint ok = 0;

  vs = compile_shader (self, GL_VERTEX_SHADER, vertex, error);
  if (vs == 0)
    return 0;
  fs = compile_shader (self, GL_FRAGMENT_SHADER, fragment, error);
  if (fs == 0)
    {
      glDeleteShader (vs);
      return 0;
    }

  program = glCreateProgram ();
  glAttachShader (program, vs);
  glAttachShader (program, fs);
  glLinkProgram (program);
  glDetachShader (program, vs);
  glDetachShader (program, fs);
  glDeleteShader (vs);
  glDeleteShader (fs);

  glGetProgramiv (program, GL_LINK_STATUS, &ok);
  if (!ok)
    {
      GLint len = 0;
      g_autofree char *log = NULL;

      glGetProgramiv (program, GL_INFO_LOG_LENGTH, &len);
      log = g_malloc0 (MAX (len, 1) + 1);
      glGetProgramInfoLog (program, len, NULL, log);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("Linking shaders %s + %s failed: %s"), vertex, fragment, log);
      glDeleteProgram (program);
      return 0;
    }

  return program;
}

/* One shared patch per LOD level: (n+1)^2 grid vertices, then a skirt
 * vertex under every border vertex. */
static void
create_lod (Lod  *lod,
            guint level)
{
  guint n = CHUNK_SIZE >> level;
  guint side = n + 1;
  g_autoptr(GArray) vertices = g_array_new (FALSE, FALSE, sizeof (float));
  g_autoptr(GArray) indices = g_array_new (FALSE, FALSE, sizeof (guint16));
  guint skirt_base = side * side;
  guint16 border[4][CHUNK_SIZE + 1];

#define VERTEX(x, y, s) G_STMT_START { \
    float v_[3] = { (float) (x), (float) (y), (float) (s) }; \
    g_array_append_vals (vertices, v_, 3); \
  } G_STMT_END
#define TRI(a, b, c) G_STMT_START { \
    guint16 t_[3] = { (guint16) (a), (guint16) (b), (guint16) (c) }; \
    g_array_append_vals (indices, t_, 3); \
  } G_STMT_END

  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      VERTEX (x, y, 0);

  for (guint y = 0; y < n; y++)
    for (guint x = 0; x < n; x++)
      {
        guint a = y * side + x, b = a + 1, c = a + side, d = c + 1;

        TRI (a, c, b);
        TRI (b, c, d);
      }

  /* Border rings: top (y = 0), right, bottom, left, each in order. */
  for (guint i = 0; i < side; i++)
    {
      border[0][i] = (guint16) i;
      border[1][i] = (guint16) (i * side + n);
      border[2][i] = (guint16) (n * side + i);
      border[3][i] = (guint16) (i * side);
    }

  for (guint e = 0; e < 4; e++)
    {
      guint base = skirt_base + e * side;

      for (guint i = 0; i < side; i++)
        {
          const float *src = &g_array_index (vertices, float, border[e][i] * 3);
          float x = src[0], y = src[1];

          VERTEX (x, y, 1);
        }
      /* Both windings: skirts are seen from either side. */
      for (guint i = 0; i < n; i++)
        {
          TRI (border[e][i], base + i, border[e][i + 1]);
          TRI (border[e][i + 1], base + i, base + i + 1);
          TRI (border[e][i], border[e][i + 1], base + i);
          TRI (border[e][i + 1], base + i + 1, base + i);
        }
    }
#undef VERTEX
#undef TRI

  glGenVertexArrays (1, &lod->vao);
  glBindVertexArray (lod->vao);
  glGenBuffers (1, &lod->vbo);
  glBindBuffer (GL_ARRAY_BUFFER, lod->vbo);
  glBufferData (GL_ARRAY_BUFFER, vertices->len * sizeof (float), vertices->data, GL_STATIC_DRAW);
  glGenBuffers (1, &lod->ibo);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, lod->ibo);
  glBufferData (GL_ELEMENT_ARRAY_BUFFER, indices->len * sizeof (guint16), indices->data, GL_STATIC_DRAW);
  glEnableVertexAttribArray (0);
  glVertexAttribPointer (0, 3, GL_FLOAT, GL_FALSE, 3 * sizeof (float), NULL);
  glBindVertexArray (0);
  lod->n_indices = (GLsizei) indices->len;
}

static GLuint
create_texture (void)
{
  GLuint tex;

  glGenTextures (1, &tex);
  glBindTexture (GL_TEXTURE_2D, tex);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  return tex;
}

static void
delete_textures (TerrainEditorGlView *self)
{
  GLuint *textures[] = {
    &self->tex_heights, &self->tex_overview, &self->tex_atlas,
    &self->tex_palette, &self->tex_tile_map,
  };

  for (guint i = 0; i < G_N_ELEMENTS (textures); i++)
    if (*textures[i] != 0)
      {
        glDeleteTextures (1, textures[i]);
        *textures[i] = 0;
      }
  self->n_tiles_uploaded = 0;
}

/* ------------------------------------------------------------------------
 * Uploads
 */

static void
upload_heights (TerrainEditorGlView *self,
                gboolean             all)
{
  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  if (all || self->tex_heights == 0)
    {
      if (self->tex_heights == 0)
        self->tex_heights = create_texture ();
      glBindTexture (GL_TEXTURE_2D, self->tex_heights);
      glTexImage2D (GL_TEXTURE_2D, 0, GL_R32F, (GLsizei) self->grid_width,
                    (GLsizei) self->grid_height, 0, GL_RED, GL_FLOAT, self->heights);
      return;
    }

  glBindTexture (GL_TEXTURE_2D, self->tex_heights);
  glPixelStorei (GL_UNPACK_ROW_LENGTH, (GLint) self->grid_width);
  glTexSubImage2D (GL_TEXTURE_2D, 0, self->dirty_cells.x, self->dirty_cells.y,
                   self->dirty_cells.width, self->dirty_cells.height, GL_RED, GL_FLOAT,
                   self->heights + (gsize) self->dirty_cells.y * self->grid_width + self->dirty_cells.x);
  glPixelStorei (GL_UNPACK_ROW_LENGTH, 0);
}

/* Averages each tile's k x k blocks once; the overview texture is then
 * assembled from these for any tile-map rectangle. */
static void
compute_tile_means (TerrainEditorGlView *self,
                    TerrainTntMap       *map,
                    guint                k)
{
  const guint8 *rgba = terrain_palette_get_rgba_table (self->palette);
  guint n = terrain_tnt_map_get_n_tiles (map);
  guint block = TERRAIN_TNT_TILE_PIXELS / k;

  g_free (self->tile_means);
  self->tile_means = g_new0 (guint8, (gsize) MAX (n, 1) * k * k * 4);
  self->tile_means_k = k;
  self->tile_means_n = n;

  for (guint t = 0; t < n; t++)
    {
      const guint8 *pixels = terrain_tnt_map_get_tile (map, t);

      for (guint by = 0; by < k; by++)
        for (guint bx = 0; bx < k; bx++)
          {
            guint sum[3] = { 0, 0, 0 };
            guint8 *out = self->tile_means + (((gsize) t * k + by) * k + bx) * 4;

            for (guint y = by * block; y < (by + 1) * block; y++)
              for (guint x = bx * block; x < (bx + 1) * block; x++)
                {
                  const guint8 *c = rgba + pixels[y * TERRAIN_TNT_TILE_PIXELS + x] * 4;

                  sum[0] += c[0];
                  sum[1] += c[1];
                  sum[2] += c[2];
                }
            for (guint i = 0; i < 3; i++)
              out[i] = (guint8) (sum[i] / (block * block));
            out[3] = 255;
          }
    }
}

static void
upload_overview_rect (TerrainEditorGlView *self,
                      TerrainTntMap       *map,
                      guint                c0,
                      guint                r0,
                      guint                cols,
                      guint                rows,
                      gboolean             allocate)
{
  guint k = self->tile_means_k;
  g_autofree guint8 *pixels = g_new (guint8, (gsize) cols * k * rows * k * 4);
  gsize stride = (gsize) cols * k * 4;

  for (guint r = 0; r < rows; r++)
    for (guint c = 0; c < cols; c++)
      {
        guint tile = terrain_tnt_map_get_tile_index (map, c0 + c, r0 + r);

        tile = self->tile_means_n ? MIN (tile, self->tile_means_n - 1) : 0;
        for (guint by = 0; by < k; by++)
          memcpy (pixels + (r * k + by) * stride + c * k * 4,
                  self->tile_means + ((gsize) tile * k + by) * k * 4, k * 4);
      }

  glBindTexture (GL_TEXTURE_2D, self->tex_overview);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  if (allocate)
    glTexImage2D (GL_TEXTURE_2D, 0, GL_RGBA8, (GLsizei) (cols * k), (GLsizei) (rows * k), 0,
                  GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  else
    glTexSubImage2D (GL_TEXTURE_2D, 0, (GLint) (c0 * k), (GLint) (r0 * k),
                     (GLsizei) (cols * k), (GLsizei) (rows * k), GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  glGenerateMipmap (GL_TEXTURE_2D);
}

static void
upload_tile_map_rect (TerrainEditorGlView *self,
                      TerrainTntMap       *map,
                      guint                c0,
                      guint                r0,
                      guint                cols,
                      guint                rows,
                      gboolean             allocate)
{
  g_autofree guint16 *entries = g_new (guint16, (gsize) cols * rows);

  for (guint r = 0; r < rows; r++)
    for (guint c = 0; c < cols; c++)
      entries[(gsize) r * cols + c] = terrain_tnt_map_get_tile_index (map, c0 + c, r0 + r);

  glBindTexture (GL_TEXTURE_2D, self->tex_tile_map);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 2);
  if (allocate)
    glTexImage2D (GL_TEXTURE_2D, 0, GL_R16UI, (GLsizei) cols, (GLsizei) rows, 0,
                  GL_RED_INTEGER, GL_UNSIGNED_SHORT, entries);
  else
    glTexSubImage2D (GL_TEXTURE_2D, 0, (GLint) c0, (GLint) r0, (GLsizei) cols, (GLsizei) rows,
                     GL_RED_INTEGER, GL_UNSIGNED_SHORT, entries);
}

static void
upload_tnt_textures (TerrainEditorGlView *self,
                     TerrainTntMap       *map)
{
  guint n_tiles = terrain_tnt_map_get_n_tiles (map);
  guint columns = terrain_tnt_map_get_tile_columns (map);
  guint rows = terrain_tnt_map_get_tile_rows (map);
  GLint max = self->max_texture_size;
  guint atlas_columns = 64, atlas_rows, k = 4;
  g_autofree guint8 *atlas = NULL;

  if (self->tex_palette == 0)
    self->tex_palette = create_texture ();
  glBindTexture (GL_TEXTURE_2D, self->tex_palette);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_RGBA8, 256, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                terrain_palette_get_rgba_table (self->palette));

  /* Tile atlas: 32x32 palette indices per tile, in rows of atlas_columns. */
  while ((n_tiles + atlas_columns - 1) / atlas_columns * TERRAIN_TNT_TILE_PIXELS > (guint) max &&
         atlas_columns * 2 * TERRAIN_TNT_TILE_PIXELS <= (guint) max)
    atlas_columns *= 2;
  atlas_rows = MAX ((n_tiles + atlas_columns - 1) / atlas_columns, 1);
  atlas = g_new0 (guint8, (gsize) atlas_columns * atlas_rows * TERRAIN_TNT_TILE_BYTES);
  for (guint t = 0; t < n_tiles; t++)
    {
      const guint8 *tile = terrain_tnt_map_get_tile (map, t);
      gsize stride = (gsize) atlas_columns * TERRAIN_TNT_TILE_PIXELS;
      guint8 *dst = atlas + (t / atlas_columns) * TERRAIN_TNT_TILE_PIXELS * stride +
                    (t % atlas_columns) * TERRAIN_TNT_TILE_PIXELS;

      for (guint y = 0; y < TERRAIN_TNT_TILE_PIXELS; y++)
        memcpy (dst + y * stride, tile + y * TERRAIN_TNT_TILE_PIXELS, TERRAIN_TNT_TILE_PIXELS);
    }
  if (self->tex_atlas == 0)
    self->tex_atlas = create_texture ();
  glBindTexture (GL_TEXTURE_2D, self->tex_atlas);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_R8, (GLsizei) (atlas_columns * TERRAIN_TNT_TILE_PIXELS),
                (GLsizei) (atlas_rows * TERRAIN_TNT_TILE_PIXELS), 0, GL_RED, GL_UNSIGNED_BYTE, atlas);
  self->atlas_columns = (GLint) atlas_columns;
  self->n_tiles_uploaded = n_tiles;

  if (self->tex_tile_map == 0)
    self->tex_tile_map = create_texture ();
  upload_tile_map_rect (self, map, 0, 0, columns, rows, TRUE);

  /* Overview: k x k averages per tile, as fine as the texture size allows. */
  while (k > 1 && ((guint) max < columns * k || (guint) max < rows * k))
    k /= 2;
  compute_tile_means (self, map, k);
  if (self->tex_overview == 0)
    {
      self->tex_overview = create_texture ();
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_NEAREST);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    }
  upload_overview_rect (self, map, 0, 0, columns, rows, TRUE);
}

/* Any other document: its rendered picture, halved until it fits. */
static gboolean
upload_document_texture (TerrainEditorGlView *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainImage) image = terrain_document_render_image (self->document, self->palette, &error);
  guint w, h;
  gsize stride;
  guint8 *data;
  g_autofree guint8 *scaled = NULL;

  if (image == NULL || terrain_image_get_format (image) != TERRAIN_IMAGE_RGBA8)
    {
      g_debug ("3D view: no texture: %s", error ? error->message : "not RGBA8");
      return FALSE;
    }

  w = terrain_image_get_width (image);
  h = terrain_image_get_height (image);
  stride = terrain_image_get_stride (image);
  data = terrain_image_get_data (image, NULL);

  while (w > (guint) self->max_texture_size || h > (guint) self->max_texture_size)
    {
      guint nw = MAX (w / 2, 1), nh = MAX (h / 2, 1);
      guint8 *out = g_new (guint8, (gsize) nw * nh * 4);

      for (guint y = 0; y < nh; y++)
        for (guint x = 0; x < nw; x++)
          for (guint c = 0; c < 4; c++)
            {
              const guint8 *p = data + (gsize) (y * 2) * stride + (x * 2) * 4 + c;

              out[((gsize) y * nw + x) * 4 + c] =
                (guint8) ((p[0] + p[4] + p[stride] + p[stride + 4] + 2) / 4);
            }
      g_free (scaled);
      scaled = out;
      data = out;
      w = nw;
      h = nh;
      stride = (gsize) w * 4;
    }

  if (self->tex_overview == 0)
    {
      self->tex_overview = create_texture ();
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_NEAREST);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    }
  glBindTexture (GL_TEXTURE_2D, self->tex_overview);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei (GL_UNPACK_ROW_LENGTH, (GLint) (stride / 4));
  glTexImage2D (GL_TEXTURE_2D, 0, GL_RGBA8, (GLsizei) w, (GLsizei) h, 0, GL_RGBA,
                GL_UNSIGNED_BYTE, data);
  glPixelStorei (GL_UNPACK_ROW_LENGTH, 0);
  glGenerateMipmap (GL_TEXTURE_2D);
  return TRUE;
}

/* Feature markers: a small shaded pillar on each placed feature's anchor. */
static void
upload_markers (TerrainEditorGlView *self)
{
  g_autoptr(GArray) vertices = g_array_new (FALSE, FALSE, sizeof (float));
  g_autoptr(GArray) placements = NULL;

  if (self->document != NULL && TERRAIN_IS_TNT_MAP (self->document) && self->heights != NULL)
    placements = terrain_tnt_map_list_placements (TERRAIN_TNT_MAP (self->document));

  for (guint i = 0; placements != NULL && i < placements->len; i++)
    {
      const TerrainTntPlacement *p = &g_array_index (placements, TerrainTntPlacement, i);
      double cx = p->x + 0.5, cz = p->y + 0.5, s = 0.2, top = 1.2;
      double base = terrain_height_at (self, cx, cz);
      /* Four sides (shade by facing) and the top. */
      static const double sides[5][4] = {
        { -1, -1, 1, -1 }, { 1, -1, 1, 1 }, { 1, 1, -1, 1 }, { -1, 1, -1, -1 }, { 0, 0, 0, 0 },
      };
      static const float shades[5] = { 0.75f, 0.9f, 0.6f, 0.5f, 1.0f };

      for (guint f = 0; f < 4; f++)
        {
          float q[6][4] = {
            { (float) (cx + sides[f][0] * s), (float) base, (float) (cz + sides[f][1] * s), shades[f] },
            { (float) (cx + sides[f][2] * s), (float) base, (float) (cz + sides[f][3] * s), shades[f] },
            { (float) (cx + sides[f][2] * s), (float) (base + top), (float) (cz + sides[f][3] * s), shades[f] },
            { (float) (cx + sides[f][0] * s), (float) base, (float) (cz + sides[f][1] * s), shades[f] },
            { (float) (cx + sides[f][2] * s), (float) (base + top), (float) (cz + sides[f][3] * s), shades[f] },
            { (float) (cx + sides[f][0] * s), (float) (base + top), (float) (cz + sides[f][1] * s), shades[f] },
          };

          g_array_append_vals (vertices, q, 24);
        }
      {
        float y = (float) (base + top);
        float q[6][4] = {
          { (float) (cx - s), y, (float) (cz - s), shades[4] },
          { (float) (cx + s), y, (float) (cz - s), shades[4] },
          { (float) (cx + s), y, (float) (cz + s), shades[4] },
          { (float) (cx - s), y, (float) (cz - s), shades[4] },
          { (float) (cx + s), y, (float) (cz + s), shades[4] },
          { (float) (cx - s), y, (float) (cz + s), shades[4] },
        };

        g_array_append_vals (vertices, q, 24);
      }
    }

  if (self->marker_vao == 0)
    {
      glGenVertexArrays (1, &self->marker_vao);
      glGenBuffers (1, &self->marker_vbo);
      glBindVertexArray (self->marker_vao);
      glBindBuffer (GL_ARRAY_BUFFER, self->marker_vbo);
      glEnableVertexAttribArray (0);
      glVertexAttribPointer (0, 4, GL_FLOAT, GL_FALSE, 4 * sizeof (float), NULL);
      glBindVertexArray (0);
    }
  glBindBuffer (GL_ARRAY_BUFFER, self->marker_vbo);
  glBufferData (GL_ARRAY_BUFFER, MAX (vertices->len, 4) * sizeof (float),
                vertices->len ? vertices->data : NULL, GL_DYNAMIC_DRAW);
  self->n_marker_vertices = (GLsizei) (vertices->len / 4);
}

static void
apply_pending_uploads (TerrainEditorGlView *self)
{
  TerrainTntMap *map = NULL;

  if (self->document != NULL && TERRAIN_IS_TNT_MAP (self->document))
    map = TERRAIN_TNT_MAP (self->document);

  if (self->upload_all)
    {
      self->upload_all = FALSE;
      self->heights_dirty = self->tiles_dirty = FALSE;
      self->markers_dirty = TRUE;
      delete_textures (self);
      g_clear_pointer (&self->tile_means, g_free);
      self->mode = MODE_HEIGHT;

      if (self->heights == NULL)
        return;
      upload_heights (self, TRUE);

      if (map != NULL && self->palette != NULL && terrain_tnt_map_get_n_tiles (map) > 0)
        {
          upload_tnt_textures (self, map);
          self->mode = MODE_TILES;
        }
      else if (map == NULL && upload_document_texture (self))
        self->mode = MODE_TEXTURE;
      check_gl_error (self, _("uploading the terrain"));
    }

  if (self->heights_dirty && self->heights != NULL)
    {
      self->heights_dirty = FALSE;
      upload_heights (self, FALSE);
    }

  if (self->tiles_dirty && map != NULL && self->mode == MODE_TILES)
    {
      self->tiles_dirty = FALSE;
      if (terrain_tnt_map_get_n_tiles (map) != self->n_tiles_uploaded ||
          ((guint) self->dirty_tiles.width >= terrain_tnt_map_get_tile_columns (map) &&
           (guint) self->dirty_tiles.height >= terrain_tnt_map_get_tile_rows (map)))
        upload_tnt_textures (self, map);
      else
        {
          upload_tile_map_rect (self, map, self->dirty_tiles.x, self->dirty_tiles.y,
                                self->dirty_tiles.width, self->dirty_tiles.height, FALSE);
          upload_overview_rect (self, map, self->dirty_tiles.x, self->dirty_tiles.y,
                                self->dirty_tiles.width, self->dirty_tiles.height, FALSE);
        }
    }

  if (self->markers_dirty)
    {
      self->markers_dirty = FALSE;
      upload_markers (self);
    }
}

/* ------------------------------------------------------------------------
 * Camera
 */

static void
camera_forward (TerrainEditorGlView *self,
                double              *dir)
{
  dir[0] = -cos (self->pitch) * sin (self->yaw);
  dir[1] = -sin (self->pitch);
  dir[2] = -cos (self->pitch) * cos (self->yaw);
}

static double
target_height (TerrainEditorGlView *self)
{
  if (self->atlas != NULL)
    return terrain_editor_atlas_renderer_height_at (self->atlas, self->target_x, self->target_y);
  return terrain_height_at (self, self->target_x, self->target_y);
}

static void
compute_view_proj (TerrainEditorGlView *self,
                   int                  width,
                   int                  height,
                   float               *out)
{
  double forward[3], right[3], up[3], world_up[3] = { 0, 1, 0 };
  double target[3] = { self->target_x, target_height (self), self->target_y };
  double extent = MAX (MAX (map_width (self), map_height (self)), 16.0);
  float view[16], proj[16];

  camera_forward (self, forward);
  for (int i = 0; i < 3; i++)
    self->eye[i] = target[i] - forward[i] * self->distance;
  vec3_cross (right, forward, world_up);
  vec3_normalize (right);
  vec3_cross (up, right, forward);

  memset (view, 0, sizeof view);
  for (int i = 0; i < 3; i++)
    {
      view[i * 4 + 0] = (float) right[i];
      view[i * 4 + 1] = (float) up[i];
      view[i * 4 + 2] = (float) -forward[i];
    }
  view[12] = (float) -(right[0] * self->eye[0] + right[1] * self->eye[1] + right[2] * self->eye[2]);
  view[13] = (float) -(up[0] * self->eye[0] + up[1] * self->eye[1] + up[2] * self->eye[2]);
  view[14] = (float) (forward[0] * self->eye[0] + forward[1] * self->eye[1] + forward[2] * self->eye[2]);
  view[15] = 1.0f;

  mat4_perspective (proj, FOV_Y, (double) MAX (width, 1) / MAX (height, 1),
                    MAX (self->distance * 0.01, 0.05), self->distance * 2 + extent * 2);
  mat4_multiply (out, proj, view);
}

static void
clamp_camera (TerrainEditorGlView *self)
{
  double extent = MAX (MAX (map_width (self), map_height (self)), 16.0);

  self->pitch = CLAMP (self->pitch, 5.0 * G_PI / 180.0, 89.5 * G_PI / 180.0);
  self->distance = CLAMP (self->distance, 2.0, extent * 3);
  self->target_x = CLAMP (self->target_x, 0, map_width (self));
  self->target_y = CLAMP (self->target_y, 0, map_height (self));
}

void
terrain_editor_gl_view_reset_camera (TerrainEditorGlView *self)
{
  double w, h;

  g_return_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self));

  w = map_width (self);
  h = map_height (self);
  self->target_x = w / 2;
  self->target_y = h / 2;
  self->yaw = 0;
  self->pitch = 50.0 * G_PI / 180.0;
  /* Fit the map's depth and width in the field of view. */
  self->distance = MAX (MAX (w, h) * 0.95, 16.0);
  clamp_camera (self);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

/* ------------------------------------------------------------------------
 * Drawing
 */

typedef struct
{
  double dist;
  guint  cx;
  guint  cy;
  guint  level;
  float  skirt;
} DrawItem;

static int
compare_draw_items (gconstpointer a,
                    gconstpointer b)
{
  const DrawItem *x = a, *y = b;

  return (x->dist > y->dist) - (x->dist < y->dist);
}

/* ------------------------------------------------------------------------
 * Atlas overlays: chunk levels, the highlighted stub, the readout
 */

/* The corners of a map-space box: bit 0 max x, bit 1 max y, bit 2 max z. */
static void
box_corner (const float *box,
            guint        corner,
            float       *out)
{
  out[0] = box[(corner & 1) ? 3 : 0];
  out[1] = box[(corner & 2) ? 4 : 1];
  out[2] = box[(corner & 4) ? 5 : 2];
  out[3] = 1.0f;
}

static void
append_box_edges (GArray      *vertices,
                  const float *box)
{
  static const guint8 edges[12][2] = {
    { 0, 1 }, { 2, 3 }, { 4, 5 }, { 6, 7 },
    { 0, 2 }, { 1, 3 }, { 4, 6 }, { 5, 7 },
    { 0, 4 }, { 1, 5 }, { 2, 6 }, { 3, 7 },
  };

  for (guint e = 0; e < G_N_ELEMENTS (edges); e++)
    for (guint end = 0; end < 2; end++)
      {
        float v[4];

        box_corner (box, edges[e][end], v);
        g_array_append_vals (vertices, v, 4);
      }
}

static void
append_box_faces (GArray      *vertices,
                  const float *box)
{
  static const guint8 faces[6][4] = {
    { 0, 2, 6, 4 }, { 1, 3, 7, 5 }, { 0, 1, 5, 4 },
    { 2, 3, 7, 6 }, { 0, 1, 3, 2 }, { 4, 5, 7, 6 },
  };
  static const guint8 fan[6] = { 0, 1, 2, 0, 2, 3 };

  for (guint f = 0; f < G_N_ELEMENTS (faces); f++)
    for (guint k = 0; k < G_N_ELEMENTS (fan); k++)
      {
        float v[4];

        box_corner (box, faces[f][fan[k]], v);
        g_array_append_vals (vertices, v, 4);
      }
}

/* The level boxes of the chunks just drawn, then the highlighted stub's
 * box: seen through the terrain faintly, in front of it fully, its edges
 * two pixels wide (core profiles draw lines one pixel wide: the edges are
 * drawn again a pixel to the right, down and both). */
static void
draw_atlas_overlays (TerrainEditorGlView *self,
                     int                  width,
                     int                  height)
{
  guint level_first[TERRAIN_EDITOR_ATLAS_STATS_LEVELS + 1];
  guint highlight_edges = 0, highlight_faces = 0;
  guint n_levels = 0;
  gsize bytes;

  g_array_set_size (self->line_vertices, 0);
  if (self->show_chunk_levels)
    {
      g_array_set_size (self->chunk_boxes, 0);
      terrain_editor_atlas_renderer_get_drawn_boxes (self->atlas, self->chunk_boxes);
      for (guint level = 0; level < TERRAIN_EDITOR_ATLAS_STATS_LEVELS; level++)
        {
          level_first[level] = self->line_vertices->len / 4;
          for (guint i = 0; i < self->chunk_boxes->len; i++)
            {
              const TerrainEditorAtlasChunkBox *b =
                &g_array_index (self->chunk_boxes, TerrainEditorAtlasChunkBox, i);

              if (MIN (b->level, TERRAIN_EDITOR_ATLAS_STATS_LEVELS - 1) == level)
                append_box_edges (self->line_vertices, b->box);
            }
        }
      n_levels = TERRAIN_EDITOR_ATLAS_STATS_LEVELS;
      level_first[n_levels] = self->line_vertices->len / 4;
    }
  if (self->highlight_visible)
    {
      float box[6];

      terrain_editor_atlas_renderer_world_to_map (self->atlas, &self->highlight, box);
      highlight_edges = self->line_vertices->len / 4;
      append_box_edges (self->line_vertices, box);
      highlight_faces = self->line_vertices->len / 4;
      append_box_faces (self->line_vertices, box);
    }
  if (self->line_vertices->len == 0)
    return;

  if (self->lines_vao == 0)
    {
      glGenVertexArrays (1, &self->lines_vao);
      glGenBuffers (1, &self->lines_vbo);
      glBindVertexArray (self->lines_vao);
      glBindBuffer (GL_ARRAY_BUFFER, self->lines_vbo);
      glEnableVertexAttribArray (0);
      glVertexAttribPointer (0, 4, GL_FLOAT, GL_FALSE, 4 * sizeof (float), NULL);
    }
  glBindVertexArray (self->lines_vao);
  glBindBuffer (GL_ARRAY_BUFFER, self->lines_vbo);
  bytes = self->line_vertices->len * sizeof (float);
  if (bytes > self->lines_vbo_size)
    {
      glBufferData (GL_ARRAY_BUFFER, bytes, NULL, GL_DYNAMIC_DRAW);
      self->lines_vbo_size = bytes;
    }
  glBufferSubData (GL_ARRAY_BUFFER, 0, bytes, self->line_vertices->data);

  glUseProgram (self->flat_program);
  glUniformMatrix4fv (self->flat_mvp, 1, GL_FALSE, self->view_proj);
  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LEQUAL);
  for (guint level = 0; level < n_levels; level++)
    {
      GLsizei count = (GLsizei) (level_first[level + 1] - level_first[level]);
      float rgb[3];

      if (count == 0)
        continue;
      terrain_editor_atlas_level_color (level, rgb);
      glUniform4f (self->flat_color, rgb[0] * LEVEL_BOX_SHADE, rgb[1] * LEVEL_BOX_SHADE,
                   rgb[2] * LEVEL_BOX_SHADE, 1.0f);
      glDrawArrays (GL_LINES, (GLint) level_first[level], count);
    }

  if (self->highlight_visible)
    {
      glEnable (GL_BLEND);
      glBlendFuncSeparate (GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
      glDepthMask (GL_FALSE);
      /* Through the terrain: a light veil and faint edges. */
      glDisable (GL_DEPTH_TEST);
      glUniform4f (self->flat_color, 1.0f, 1.0f, 1.0f, 0.22f);
      glDrawArrays (GL_TRIANGLES, (GLint) highlight_faces, 36);
      glUniform4f (self->flat_color, 1.0f, 1.0f, 1.0f, 0.5f);
      glDrawArrays (GL_LINES, (GLint) highlight_edges, 24);
      /* In front of it: solid edges. */
      glEnable (GL_DEPTH_TEST);
      glUniform4f (self->flat_color, 1.0f, 1.0f, 1.0f, 1.0f);
      for (guint k = 0; k < 4; k++)
        {
          float shifted[16];

          /* Clip x += dx · 2 / width · w: a shift of dx pixels. */
          memcpy (shifted, self->view_proj, sizeof shifted);
          for (guint c = 0; c < 4; c++)
            {
              shifted[c * 4 + 0] += (float) ((k & 1) * 2.0 / MAX (width, 1)) * shifted[c * 4 + 3];
              shifted[c * 4 + 1] -= (float) ((k >> 1) * 2.0 / MAX (height, 1)) * shifted[c * 4 + 3];
            }
          glUniformMatrix4fv (self->flat_mvp, 1, GL_FALSE, shifted);
          glDrawArrays (GL_LINES, (GLint) highlight_edges, 24);
        }
      glDepthMask (GL_TRUE);
      glDisable (GL_BLEND);
    }
  glBindVertexArray (0);
  glUseProgram (0);
}

/* Appends "\n" and @line (taken) as markup. */
static void
append_escaped_line (GString *text,
                     char    *line)
{
  g_autofree char *escaped = g_markup_escape_text (line, -1);

  g_string_append_printf (text, "\n%s", escaped);
  g_free (line);
}

/**
 * terrain_editor_gl_view_format_atlas_readout:
 * @stats: figures of the Atlas renderer
 *
 * The chunk-level legend and figures the view shows while chunk levels are
 * on: per level its colour and how many chunks the frame drew, then the
 * triangles drawn and what the two caches hold.
 *
 * Returns: (transfer full): Pango markup, one line per figure
 */
char *
terrain_editor_gl_view_format_atlas_readout (const TerrainEditorAtlasStats *stats)
{
  GString *text = g_string_new (NULL);
  guint n_levels = MIN (MAX (stats->geometry_depth, 1), TERRAIN_EDITOR_ATLAS_STATS_LEVELS);
  g_autofree char *triangles = g_strdup_printf ("%" G_GUINT64_FORMAT, stats->n_triangles_drawn);
  g_autofree char *surface = g_strdup_printf ("%" G_GUINT64_FORMAT, stats->n_surface_triangles_drawn);
  g_autofree char *geometry_bytes = g_format_size_full (stats->geometry_bytes, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *geometry_budget = g_format_size_full (stats->geometry_budget, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *texture_bytes = g_format_size_full (stats->texture_bytes, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *texture_budget = g_format_size_full (stats->texture_budget, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *heading = g_markup_escape_text (_("Chunk levels"), -1);
  g_autofree char *line = NULL;

  /* Translations are text: every line is escaped whole. */
  g_string_append_printf (text, "<b>%s</b>", heading);
  for (guint level = 0; level < n_levels; level++)
    {
      guint n = stats->n_chunks_at_level[level];
      g_autofree char *plain = NULL;
      float rgb[3];

      terrain_editor_atlas_level_color (level, rgb);
      /* Translators: how many chunks of a level of detail the 3D view draws. */
      plain = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Level %u: %u chunk", "Level %u: %u chunks", n),
                               level, n);
      g_free (line);
      line = g_markup_escape_text (plain, -1);
      g_string_append_printf (text, "\n<span background=\"#%02x%02x%02x\">\u2003\u2003</span> %s",
                              (guint) (rgb[0] * 255 + 0.5f), (guint) (rgb[1] * 255 + 0.5f),
                              (guint) (rgb[2] * 255 + 0.5f), line);
    }

  /* Translators: triangles drawn, then those of them on the surface (the
   * rest are the skirts hiding the seams between levels). */
  append_escaped_line (text, g_strdup_printf (_("Triangles: %s (surface %s)"), triangles, surface));
  append_escaped_line (text, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                           "Geometry cache: %u chunk, %s of %s",
                                                           "Geometry cache: %u chunks, %s of %s",
                                                           stats->n_geometry_cached),
                                              stats->n_geometry_cached, geometry_bytes, geometry_budget));
  if (stats->texture_depth > 0)
    append_escaped_line (text, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                             "Texture cache: %u tile, %s of %s",
                                                             "Texture cache: %u tiles, %s of %s",
                                                             stats->n_textures_cached),
                                                stats->n_textures_cached, texture_bytes, texture_budget));
  else
    append_escaped_line (text, g_strdup (_("No texture tiles")));
  return g_string_free (text, FALSE);
}

static void
set_readout (TerrainEditorGlView *self,
             const char          *readout)
{
  if (g_strcmp0 (self->atlas_readout, readout) == 0)
    return;
  g_free (self->atlas_readout);
  self->atlas_readout = g_strdup (readout);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ATLAS_READOUT]);
}

static gboolean
on_readout_idle (gpointer data)
{
  TerrainEditorGlView *self = data;
  g_autofree char *readout = g_steal_pointer (&self->pending_readout);

  self->readout_id = 0;
  set_readout (self, readout);
  return G_SOURCE_REMOVE;
}

/* After an Atlas frame: the readout follows it, at once for offscreen
 * pictures and after the frame for on-screen ones (a label changed while
 * GTK paints would wait for the next frame anyway). */
static void
update_readout (TerrainEditorGlView *self,
                gboolean             now)
{
  g_autofree char *readout = NULL;

  if (self->show_chunk_levels && self->atlas != NULL)
    {
      TerrainEditorAtlasStats stats;

      terrain_editor_atlas_renderer_get_stats (self->atlas, &stats);
      readout = terrain_editor_gl_view_format_atlas_readout (&stats);
    }
  else
    readout = g_strdup ("");

  if (now)
    {
      g_clear_handle_id (&self->readout_id, g_source_remove);
      g_clear_pointer (&self->pending_readout, g_free);
      set_readout (self, readout);
      return;
    }
  if (g_strcmp0 (readout, self->atlas_readout) == 0 && self->readout_id == 0)
    return;
  g_free (self->pending_readout);
  self->pending_readout = g_steal_pointer (&readout);
  if (self->readout_id == 0)
    self->readout_id = g_idle_add (on_readout_idle, self);
}

static void
draw_atlas (TerrainEditorGlView *self,
            int                  width,
            int                  height)
{
  TerrainEditorAtlasFrame frame;

  if (!self->atlas_has_program)
    {
      terrain_editor_atlas_renderer_set_program (self->atlas, self->atlas_program,
                                                 self->max_texture_size);
      self->atlas_has_program = TRUE;
    }

  compute_view_proj (self, width, height, self->view_proj);
  memcpy (frame.view_proj, self->view_proj, sizeof frame.view_proj);
  memcpy (frame.eye, self->eye, sizeof frame.eye);
  /* The level of detail follows the view's full size, also in reduced
   * frames, so that the chunks do not change when the camera stops. */
  frame.pixels_per_unit = MAX (self->lod_height, height) / (2.0 * tan (FOV_Y / 2.0));
  frame.light[0] = -0.4f;
  frame.light[1] = 0.8f;
  frame.light[2] = -0.45f;
  frame.budget_us = self->atlas_budget_us;
  terrain_editor_atlas_renderer_set_show_levels (self->atlas, self->show_chunk_levels);

  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LEQUAL);
  glDisable (GL_BLEND);
  glDisable (GL_CULL_FACE);
  self->atlas_pending = terrain_editor_atlas_renderer_draw (self->atlas, &frame);
  draw_atlas_overlays (self, width, height);
}

static void
draw_scene (TerrainEditorGlView *self,
            int                  width,
            int                  height)
{
  double pixels_per_unit_at_1 = height / (2.0 * tan (FOV_Y / 2.0));
  double sea = sea_level (self);

  glViewport (0, 0, width, height);
  glClearColor (0.62f, 0.72f, 0.82f, 1.0f);
  glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

  if (self->atlas != NULL)
    {
      if (self->atlas_program != 0)
        draw_atlas (self, width, height);
      return;
    }

  if (self->heights == NULL || self->terrain_program == 0)
    return;

  apply_pending_uploads (self);
  compute_view_proj (self, width, height, self->view_proj);

  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LEQUAL);
  glDisable (GL_BLEND);
  glDisable (GL_CULL_FACE);

  glUseProgram (self->terrain_program);
  glUniformMatrix4fv (self->u.mvp, 1, GL_FALSE, self->view_proj);
  glUniform2i (self->u.grid_size, (GLint) self->grid_width, (GLint) self->grid_height);
  glUniform1f (self->u.vscale, (float) self->vscale);
  glUniform1f (self->u.offset, (float) self->offset);
  glUniform1f (self->u.height_norm, (float) (1.0 / MAX (self->height_max * self->vscale, 1e-6)));
  glUniform1i (self->u.mode, self->mode);
  glUniform2f (self->u.map_size, (float) map_width (self), (float) map_height (self));
  glUniform1i (self->u.atlas_columns, MAX (self->atlas_columns, 1));
  glUniform1i (self->u.atlas_shift, g_bit_storage (MAX (self->atlas_columns, 1)) - 1);
  glUniform1i (self->u.n_tiles, (GLint) MAX (self->n_tiles_uploaded, 1));
  glUniform3f (self->u.light, -0.4f, 0.8f, -0.45f);
  glUniform4f (self->u.brush, (float) self->brush_x, (float) self->brush_y,
               (float) self->brush_radius, 0);
  glUniform1f (self->u.brush_visible, self->brush_visible ? 1.0f : 0.0f);

  glActiveTexture (GL_TEXTURE0);
  glBindTexture (GL_TEXTURE_2D, self->tex_heights);
  glUniform1i (self->u.heights, 0);
  glActiveTexture (GL_TEXTURE1);
  glBindTexture (GL_TEXTURE_2D, self->tex_overview);
  glUniform1i (self->u.overview, 1);
  glActiveTexture (GL_TEXTURE2);
  glBindTexture (GL_TEXTURE_2D, self->tex_atlas);
  glUniform1i (self->u.atlas, 2);
  glActiveTexture (GL_TEXTURE3);
  glBindTexture (GL_TEXTURE_2D, self->tex_palette);
  glUniform1i (self->u.palette, 3);
  glActiveTexture (GL_TEXTURE4);
  glBindTexture (GL_TEXTURE_2D, self->tex_tile_map);
  glUniform1i (self->u.tile_map, 4);

  g_array_set_size (self->draw_list, 0);
  for (guint cy = 0; cy < self->chunks_y; cy++)
    for (guint cx = 0; cx < self->chunks_x; cx++)
      {
        double x0 = cx * CHUNK_SIZE + self->offset;
        double z0 = cy * CHUNK_SIZE + self->offset;
        double x1 = MIN ((cx + 1) * CHUNK_SIZE, self->grid_width - 1) + self->offset;
        double z1 = MIN ((cy + 1) * CHUNK_SIZE, self->grid_height - 1) + self->offset;
        double lo = self->chunk_min[cy * self->chunks_x + cx];
        double hi = self->chunk_max[cy * self->chunks_x + cx];
        double dx, dy, dz, dist, step_pixels;
        guint level = 0;

        if (!terrain_editor_box_visible (self->view_proj, x0, lo - 1, z0, x1, hi, z1))
          continue;

        /* Distance from the eye to the chunk's box decides the level. */
        dx = MAX (MAX (x0 - self->eye[0], 0), self->eye[0] - x1);
        dy = MAX (MAX (lo - self->eye[1], 0), self->eye[1] - hi);
        dz = MAX (MAX (z0 - self->eye[2], 0), self->eye[2] - z1);
        dist = MAX (sqrt (dx * dx + dy * dy + dz * dz), 1e-3);
        step_pixels = pixels_per_unit_at_1 / dist;
        while (level + 1 < N_LODS &&
               self->chunk_error[(cy * self->chunks_x + cx) * N_LODS + level + 1] * step_pixels <= LOD_ERROR_PIXELS &&
               step_pixels * (1 << (level + 1)) <= LOD_MAX_STEP_PIXELS)
          level++;

        {
          DrawItem item = { dist, cx, cy, level, (float) (hi - lo + 1.0) };

          g_array_append_val (self->draw_list, item);
        }
      }

  /* Front to back, so that the depth test rejects hidden fragments early. */
  g_array_sort (self->draw_list, compare_draw_items);
  for (guint i = 0; i < self->draw_list->len; i++)
    {
      const DrawItem *item = &g_array_index (self->draw_list, DrawItem, i);

      glUniform2f (self->u.origin, (float) (item->cx * CHUNK_SIZE), (float) (item->cy * CHUNK_SIZE));
      glUniform1f (self->u.step, (float) (1 << item->level));
      glUniform1f (self->u.skirt, item->skirt);
      glBindVertexArray (self->lods[item->level].vao);
      glDrawElements (GL_TRIANGLES, self->lods[item->level].n_indices, GL_UNSIGNED_SHORT, NULL);
    }

  glUseProgram (self->flat_program);
  glUniformMatrix4fv (self->flat_mvp, 1, GL_FALSE, self->view_proj);

  if (self->show_features && self->n_marker_vertices > 0)
    {
      glUniform4f (self->flat_color, 1.0f, 0.45f, 0.1f, 1.0f);
      glBindVertexArray (self->marker_vao);
      glDrawArrays (GL_TRIANGLES, 0, self->n_marker_vertices);
    }

  if (sea > 0)
    {
      /* Water only over the chunks that reach below the sea: one quad per
       * run of such chunks in a row, skipping chunks entirely above it
       * (and runs outside the view). */
      float w = (float) map_width (self), h = (float) map_height (self), y = (float) sea;
      gsize bytes;

      g_array_set_size (self->water_quads, 0);
      for (guint cy = 0; cy < self->chunks_y; cy++)
        {
          guint cx = 0;

          while (cx < self->chunks_x)
            {
              guint end;
              float x0, x1, z0, z1;

              if (self->chunk_min[cy * self->chunks_x + cx] >= sea)
                {
                  cx++;
                  continue;
                }
              for (end = cx + 1; end < self->chunks_x && self->chunk_min[cy * self->chunks_x + end] < sea; end++)
                ;
              /* Edge chunks reach the map's border (the offset margin). */
              x0 = cx == 0 ? 0.0f : (float) (cx * CHUNK_SIZE + self->offset);
              x1 = end == self->chunks_x ? w : (float) (MIN (end * CHUNK_SIZE, self->grid_width - 1) + self->offset);
              z0 = cy == 0 ? 0.0f : (float) (cy * CHUNK_SIZE + self->offset);
              z1 = cy + 1 == self->chunks_y ? h
                                            : (float) (MIN ((cy + 1) * CHUNK_SIZE, self->grid_height - 1) + self->offset);
              if (terrain_editor_box_visible (self->view_proj, x0, y - 0.01, z0, x1, y + 0.01, z1))
                {
                  float quad[6][4] = {
                    { x0, y, z0, 1 }, { x0, y, z1, 1 }, { x1, y, z1, 1 },
                    { x0, y, z0, 1 }, { x1, y, z1, 1 }, { x1, y, z0, 1 },
                  };

                  g_array_append_vals (self->water_quads, quad, 24);
                }
              cx = end;
            }
        }

      if (self->water_quads->len > 0)
        {
          bytes = self->water_quads->len * sizeof (float);
          glBindVertexArray (self->water_vao);
          glBindBuffer (GL_ARRAY_BUFFER, self->water_vbo);
          if (bytes > self->water_vbo_size)
            {
              glBufferData (GL_ARRAY_BUFFER, bytes, NULL, GL_DYNAMIC_DRAW);
              self->water_vbo_size = bytes;
            }
          glBufferSubData (GL_ARRAY_BUFFER, 0, bytes, self->water_quads->data);
          glEnable (GL_BLEND);
          glBlendFuncSeparate (GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
          glDepthMask (GL_FALSE);
          glUniform4f (self->flat_color, 0.12f, 0.32f, 0.55f, 0.6f);
          glDrawArrays (GL_TRIANGLES, 0, (GLsizei) (self->water_quads->len / 4));
          glDepthMask (GL_TRUE);
          glDisable (GL_BLEND);
        }
    }

  glBindVertexArray (0);
  glUseProgram (0);
}

static void
delete_lowres_target (TerrainEditorGlView *self)
{
  if (self->lowres_fbo != 0)
    glDeleteFramebuffers (1, &self->lowres_fbo);
  if (self->lowres_color != 0)
    glDeleteRenderbuffers (1, &self->lowres_color);
  if (self->lowres_depth != 0)
    glDeleteRenderbuffers (1, &self->lowres_depth);
  self->lowres_fbo = self->lowres_color = self->lowres_depth = 0;
  self->lowres_width = self->lowres_height = 0;
}

/* The reduced-resolution target, (re)made at @width x @height. */
static gboolean
ensure_lowres_target (TerrainEditorGlView *self,
                      int                  width,
                      int                  height)
{
  if (self->lowres_fbo != 0 && self->lowres_width == width && self->lowres_height == height)
    return TRUE;

  delete_lowres_target (self);
  glGenFramebuffers (1, &self->lowres_fbo);
  glGenRenderbuffers (1, &self->lowres_color);
  glGenRenderbuffers (1, &self->lowres_depth);
  glBindRenderbuffer (GL_RENDERBUFFER, self->lowres_color);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindRenderbuffer (GL_RENDERBUFFER, self->lowres_depth);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
  glBindRenderbuffer (GL_RENDERBUFFER, 0);

  {
    GLint previous = 0;
    GLenum status;

    glGetIntegerv (GL_FRAMEBUFFER_BINDING, &previous);
    glBindFramebuffer (GL_FRAMEBUFFER, self->lowres_fbo);
    glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, self->lowres_color);
    glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, self->lowres_depth);
    status = glCheckFramebufferStatus (GL_FRAMEBUFFER);
    glBindFramebuffer (GL_FRAMEBUFFER, (GLuint) previous);
    if (status != GL_FRAMEBUFFER_COMPLETE)
      {
        /* Not fatal: frames are then drawn at full resolution. */
        delete_lowres_target (self);
        return FALSE;
      }
  }
  self->lowres_width = width;
  self->lowres_height = height;
  return TRUE;
}

static gboolean
on_camera_settled (gpointer data)
{
  TerrainEditorGlView *self = data;

  self->settle_id = 0;
  self->camera_moving = FALSE;
  if (self->last_frame_reduced)
    gtk_gl_area_queue_render (GTK_GL_AREA (self));
  return G_SOURCE_REMOVE;
}

/* The camera moved: draw reduced frames until it rests for SETTLE_MS. */
static void
camera_moved (TerrainEditorGlView *self)
{
  self->camera_moving = TRUE;
  if (self->settle_id != 0)
    g_source_remove (self->settle_id);
  self->settle_id = g_timeout_add (SETTLE_MS, on_camera_settled, self);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

static gboolean
on_refine (gpointer data)
{
  TerrainEditorGlView *self = data;

  self->refine_id = 0;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
  return G_SOURCE_REMOVE;
}

static gboolean
terrain_editor_gl_view_render (GtkGLArea    *area,
                               GdkGLContext *context)
{
  TerrainEditorGlView *self = TERRAIN_EDITOR_GL_VIEW (area);
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  gint64 start = g_get_monotonic_time ();
  int width, height;
  gboolean reduced;

  if (!self->gl_ready || self->gl_failed)
    {
      glClearColor (0.3f, 0.3f, 0.3f, 1.0f);
      glClear (GL_COLOR_BUFFER_BIT);
      return TRUE;
    }

  width = gtk_widget_get_width (GTK_WIDGET (self)) * scale;
  height = gtk_widget_get_height (GTK_WIDGET (self)) * scale;
  self->lod_height = height;
  self->atlas_budget_us = self->camera_moving ? ATLAS_BUDGET_MOVING_US : ATLAS_BUDGET_SETTLING_US;
  reduced = self->camera_moving && self->full_render_time > INTERACTIVE_THRESHOLD_MS
            && width >= 2 * LOWRES_DIVISOR && height >= 2 * LOWRES_DIVISOR
            && ensure_lowres_target (self, width / LOWRES_DIVISOR, height / LOWRES_DIVISOR);
  if (reduced)
    {
      GLint target = 0;

      /* GtkGLArea has bound its own framebuffer: draw small, blit up. */
      glGetIntegerv (GL_DRAW_FRAMEBUFFER_BINDING, &target);
      glBindFramebuffer (GL_FRAMEBUFFER, self->lowres_fbo);
      draw_scene (self, self->lowres_width, self->lowres_height);
      glBindFramebuffer (GL_READ_FRAMEBUFFER, self->lowres_fbo);
      glBindFramebuffer (GL_DRAW_FRAMEBUFFER, (GLuint) target);
      glBlitFramebuffer (0, 0, self->lowres_width, self->lowres_height, 0, 0, width, height,
                         GL_COLOR_BUFFER_BIT, GL_LINEAR);
      glBindFramebuffer (GL_FRAMEBUFFER, (GLuint) target);
    }
  else
    draw_scene (self, width, height);
  check_gl_error (self, _("drawing the terrain"));
  glFinish ();
  self->last_render_time = (g_get_monotonic_time () - start) / 1000.0;
  self->last_frame_reduced = reduced;
  if (!reduced)
    self->full_render_time = self->last_render_time;
  /* Atlas chunks are still loading: another frame, after the main loop
   * has had its turn. */
  if (self->atlas != NULL && self->atlas_pending && self->refine_id == 0)
    self->refine_id = g_idle_add (on_refine, self);
  if (self->atlas != NULL)
    update_readout (self, FALSE);

  return TRUE;
}

/* ------------------------------------------------------------------------
 * Realize / unrealize
 */

static void
terrain_editor_gl_view_realize (GtkWidget *widget)
{
  TerrainEditorGlView *self = TERRAIN_EDITOR_GL_VIEW (widget);
  GtkGLArea *area = GTK_GL_AREA (widget);
  g_autoptr(GError) error = NULL;
  GdkGLContext *context;
  int major = 0, minor = 0;

  GTK_WIDGET_CLASS (terrain_editor_gl_view_parent_class)->realize (widget);

  gtk_gl_area_make_current (area);
  if (gtk_gl_area_get_error (area) != NULL)
    {
      fail (self, _("OpenGL is not available: %s"), gtk_gl_area_get_error (area)->message);
      return;
    }

  context = gtk_gl_area_get_context (area);
  self->use_es = gdk_gl_context_get_use_es (context);
  gdk_gl_context_get_version (context, &major, &minor);
  if (major * 10 + minor < (self->use_es ? 30 : 33))
    {
      fail (self, _("OpenGL%s %d.%d is too old: the 3D view needs OpenGL 3.3 or OpenGL ES 3.0"),
            self->use_es ? " ES" : "", major, minor);
      return;
    }

  g_debug ("3D view: %s, %s", (const char *) glGetString (GL_VERSION),
           (const char *) glGetString (GL_RENDERER));
  glGetIntegerv (GL_MAX_TEXTURE_SIZE, &self->max_texture_size);
  self->max_texture_size = MAX (self->max_texture_size, 2048);

  self->terrain_program = link_program (self, "terrain.vert.glsl", "terrain.frag.glsl", &error);
  if (self->terrain_program != 0)
    self->flat_program = link_program (self, "flat.vert.glsl", "flat.frag.glsl", &error);
  if (self->flat_program != 0)
    self->atlas_program = link_program (self, "atlas.vert.glsl", "atlas.frag.glsl", &error);
  if (self->atlas_program == 0)
    {
      fail (self, "%s", error->message);
      return;
    }

#define U(name) self->u.name = glGetUniformLocation (self->terrain_program, "u_" #name)
  U (mvp); U (origin); U (step); U (heights); U (grid_size); U (vscale); U (offset);
  U (skirt); U (height_norm); U (mode); U (map_size); U (overview); U (atlas);
  U (palette); U (tile_map); U (atlas_columns); U (atlas_shift); U (n_tiles); U (light); U (brush);
  U (brush_visible);
#undef U
  self->flat_mvp = glGetUniformLocation (self->flat_program, "u_mvp");
  self->flat_color = glGetUniformLocation (self->flat_program, "u_color");

  for (guint i = 0; i < N_LODS; i++)
    create_lod (&self->lods[i], i);

  glGenVertexArrays (1, &self->water_vao);
  glGenBuffers (1, &self->water_vbo);
  glBindVertexArray (self->water_vao);
  glBindBuffer (GL_ARRAY_BUFFER, self->water_vbo);
  glBufferData (GL_ARRAY_BUFFER, 6 * 4 * sizeof (float), NULL, GL_DYNAMIC_DRAW);
  self->water_vbo_size = 6 * 4 * sizeof (float);
  glEnableVertexAttribArray (0);
  glVertexAttribPointer (0, 4, GL_FLOAT, GL_FALSE, 4 * sizeof (float), NULL);
  glBindVertexArray (0);

  if (!check_gl_error (self, _("setting up the 3D view")))
    return;

  self->upload_all = TRUE;
  self->gl_ready = TRUE;
}

static void
terrain_editor_gl_view_unrealize (GtkWidget *widget)
{
  TerrainEditorGlView *self = TERRAIN_EDITOR_GL_VIEW (widget);
  GtkGLArea *area = GTK_GL_AREA (widget);

  gtk_gl_area_make_current (area);
  if (gtk_gl_area_get_error (area) == NULL)
    {
      if (self->atlas != NULL)
        terrain_editor_atlas_renderer_release_gl (self->atlas);
      if (self->atlas_program != 0)
        glDeleteProgram (self->atlas_program);
      delete_textures (self);
      for (guint i = 0; i < N_LODS; i++)
        {
          if (self->lods[i].vao != 0)
            glDeleteVertexArrays (1, &self->lods[i].vao);
          if (self->lods[i].vbo != 0)
            glDeleteBuffers (1, &self->lods[i].vbo);
          if (self->lods[i].ibo != 0)
            glDeleteBuffers (1, &self->lods[i].ibo);
        }
      if (self->water_vao != 0)
        glDeleteVertexArrays (1, &self->water_vao);
      if (self->water_vbo != 0)
        glDeleteBuffers (1, &self->water_vbo);
      if (self->marker_vao != 0)
        glDeleteVertexArrays (1, &self->marker_vao);
      if (self->marker_vbo != 0)
        glDeleteBuffers (1, &self->marker_vbo);
      if (self->lines_vao != 0)
        glDeleteVertexArrays (1, &self->lines_vao);
      if (self->lines_vbo != 0)
        glDeleteBuffers (1, &self->lines_vbo);
      if (self->terrain_program != 0)
        glDeleteProgram (self->terrain_program);
      if (self->flat_program != 0)
        glDeleteProgram (self->flat_program);
      delete_lowres_target (self);
    }
  self->lowres_fbo = self->lowres_color = self->lowres_depth = 0;
  self->lowres_width = self->lowres_height = 0;
  self->water_vbo_size = 0;
  memset (self->lods, 0, sizeof self->lods);
  self->water_vao = self->water_vbo = self->marker_vao = self->marker_vbo = 0;
  self->lines_vao = self->lines_vbo = 0;
  self->lines_vbo_size = 0;
  self->terrain_program = self->flat_program = self->atlas_program = 0;
  self->atlas_has_program = FALSE;
  self->n_marker_vertices = 0;
  self->gl_ready = FALSE;

  GTK_WIDGET_CLASS (terrain_editor_gl_view_parent_class)->unrealize (widget);
}

/* GtkGLArea 4.8 asks for desktop GL only unless use-es is set, so a
 * display that offers only OpenGL ES (GDK_DEBUG=gl-gles, many embedded
 * drivers) gave no context at all: allow both and let GDK choose. The
 * shaders and the code work with either (compile_shader picks the
 * version prelude from gdk_gl_context_get_use_es). */
static GdkGLContext *
terrain_editor_gl_view_create_context (GtkGLArea *area)
{
  GtkWidget *widget = GTK_WIDGET (area);
  GtkNative *native = gtk_widget_get_native (widget);
  g_autoptr(GdkGLContext) context = NULL;
  GError *error = NULL;

  context = gdk_surface_create_gl_context (gtk_native_get_surface (native), &error);
  if (context == NULL)
    {
      gtk_gl_area_set_error (area, error);
      g_clear_error (&error);
      return NULL;
    }
  gdk_gl_context_set_allowed_apis (context, GDK_GL_API_GL | GDK_GL_API_GLES);
  if (!gdk_gl_context_realize (context, &error))
    {
      gtk_gl_area_set_error (area, error);
      g_clear_error (&error);
      return NULL;
    }
  return g_steal_pointer (&context);
}

/* Auto-render is off (a redraw of the window around the view should not
 * redraw the terrain), so a new size has to ask for a frame itself. */
static void
terrain_editor_gl_view_size_allocate (GtkWidget *widget,
                                      int        width,
                                      int        height,
                                      int        baseline)
{
  GTK_WIDGET_CLASS (terrain_editor_gl_view_parent_class)->size_allocate (widget, width, height, baseline);
  gtk_gl_area_queue_render (GTK_GL_AREA (widget));
}

/* ------------------------------------------------------------------------
 * Picking
 */

gboolean
terrain_editor_gl_view_pick (TerrainEditorGlView *self,
                             double               widget_x,
                             double               widget_y,
                             double              *map_x,
                             double              *map_y)
{
  int width, height;
  double forward[3], right[3], up[3], world_up[3] = { 0, 1, 0 }, dir[3];
  double ndc_x, ndc_y, t_half, aspect, t, t_step, t_max, prev_t;
  double w, h;

  g_return_val_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self), FALSE);

  width = gtk_widget_get_width (GTK_WIDGET (self));
  height = gtk_widget_get_height (GTK_WIDGET (self));
  if ((self->heights == NULL && self->atlas == NULL) || width <= 0 || height <= 0)
    return FALSE;

  compute_view_proj (self, width, height, self->view_proj);
  camera_forward (self, forward);
  vec3_cross (right, forward, world_up);
  vec3_normalize (right);
  vec3_cross (up, right, forward);

  aspect = (double) width / height;
  t_half = tan (FOV_Y / 2.0);
  ndc_x = 2.0 * widget_x / width - 1.0;
  ndc_y = 1.0 - 2.0 * widget_y / height;
  for (int i = 0; i < 3; i++)
    dir[i] = forward[i] + right[i] * ndc_x * t_half * aspect + up[i] * ndc_y * t_half;
  vec3_normalize (dir);

  if (self->atlas != NULL)
    {
      /* Against the chunks the last frame drew. */
      if (!terrain_editor_atlas_renderer_pick (self->atlas, self->eye, dir, &t))
        return FALSE;
      if (map_x != NULL)
        *map_x = self->eye[0] + dir[0] * t;
      if (map_y != NULL)
        *map_y = self->eye[2] + dir[2] * t;
      return TRUE;
    }

  /* March in half-cell steps, then bisect the crossing. */
  w = map_width (self);
  h = map_height (self);
  t_step = 0.5;
  t_max = self->distance * 4 + (w + h) * 2;
  prev_t = 0;
  for (t = 0; t < t_max; t += t_step)
    {
      double x = self->eye[0] + dir[0] * t;
      double y = self->eye[1] + dir[1] * t;
      double z = self->eye[2] + dir[2] * t;

      if (y < terrain_height_at (self, x, z) && x >= 0 && z >= 0 && x <= w && z <= h)
        {
          double lo = prev_t, hi = t;

          for (int i = 0; i < 20; i++)
            {
              double mid = (lo + hi) / 2;
              double mx = self->eye[0] + dir[0] * mid;
              double mz = self->eye[2] + dir[2] * mid;

              if (self->eye[1] + dir[1] * mid < terrain_height_at (self, mx, mz))
                hi = mid;
              else
                lo = mid;
            }
          if (map_x != NULL)
            *map_x = self->eye[0] + dir[0] * hi;
          if (map_y != NULL)
            *map_y = self->eye[2] + dir[2] * hi;
          return TRUE;
        }
      prev_t = t;
      /* Coarser steps far from the eye, where a cell is under a pixel. */
      t_step = MAX (0.5, t * 0.002);
    }

  return FALSE;
}

/* ------------------------------------------------------------------------
 * Input
 */

static void
activate_at (TerrainEditorGlView *self,
             double               x,
             double               y,
             guint                button)
{
  double mx, my;

  if (terrain_editor_gl_view_pick (self, x, y, &mx, &my))
    g_signal_emit (self, signals[CELL_ACTIVATED], 0, mx, my, button);
}

static void
orbit (TerrainEditorGlView *self,
       double               dx,
       double               dy)
{
  self->yaw -= dx * 0.008;
  self->pitch += dy * 0.008;
  clamp_camera (self);
  camera_moved (self);
}

static void
pan (TerrainEditorGlView *self,
     double               right,
     double               ahead)
{
  double s = sin (self->yaw), c = cos (self->yaw);

  /* Screen right is (cos, -sin) on the map; ahead is (-sin, -cos). */
  self->target_x += right * c - ahead * s;
  self->target_y += -right * s - ahead * c;
  clamp_camera (self);
  camera_moved (self);
}

static void
zoom (TerrainEditorGlView *self,
      double               factor)
{
  self->distance *= factor;
  clamp_camera (self);
  camera_moved (self);
}

static void
drag_begin (GtkGestureDrag      *gesture,
            double               x,
            double               y,
            TerrainEditorGlView *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  self->drag_button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  self->drag_orbit = (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0;
  self->drag_last_x = 0;
  self->drag_last_y = 0;
  gtk_widget_grab_focus (GTK_WIDGET (self));

  if (self->drag_button == GDK_BUTTON_PRIMARY && !self->drag_orbit)
    activate_at (self, x, y, self->drag_button);
}

static void
drag_update (GtkGestureDrag      *gesture,
             double               offset_x,
             double               offset_y,
             TerrainEditorGlView *self)
{
  double dx = offset_x - self->drag_last_x, dy = offset_y - self->drag_last_y;
  double start_x, start_y;

  self->drag_last_x = offset_x;
  self->drag_last_y = offset_y;

  if (self->drag_button == GDK_BUTTON_MIDDLE ||
      (self->drag_button == GDK_BUTTON_PRIMARY && self->drag_orbit))
    orbit (self, dx, dy);
  else if (self->drag_button == GDK_BUTTON_SECONDARY)
    {
      /* Move the map with the pointer: one pixel is distance-dependent. */
      double per_pixel = 2.0 * self->distance * tan (FOV_Y / 2.0) /
                         MAX (gtk_widget_get_height (GTK_WIDGET (self)), 1);

      pan (self, -dx * per_pixel, dy * per_pixel / MAX (sin (self->pitch), 0.2));
    }
  else if (self->drag_button == GDK_BUTTON_PRIMARY &&
           gtk_gesture_drag_get_start_point (gesture, &start_x, &start_y))
    /* A stroke: tools see every position the pointer passes. */
    activate_at (self, start_x + offset_x, start_y + offset_y, self->drag_button);
}

static gboolean
scroll (GtkEventControllerScroll *controller,
        double                    dx,
        double                    dy,
        TerrainEditorGlView      *self)
{
  zoom (self, pow (1.15, dy));
  return TRUE;
}

static gboolean
key_pressed (GtkEventControllerKey *controller,
             guint                  keyval,
             guint                  keycode,
             GdkModifierType        state,
             TerrainEditorGlView   *self)
{
  double step = self->distance * 0.05;

  switch (keyval)
    {
    case GDK_KEY_Left: case GDK_KEY_a: case GDK_KEY_A:
      pan (self, -step, 0);
      return TRUE;
    case GDK_KEY_Right: case GDK_KEY_d: case GDK_KEY_D:
      pan (self, step, 0);
      return TRUE;
    case GDK_KEY_Up: case GDK_KEY_w: case GDK_KEY_W:
      pan (self, 0, step);
      return TRUE;
    case GDK_KEY_Down: case GDK_KEY_s: case GDK_KEY_S:
      pan (self, 0, -step);
      return TRUE;
    case GDK_KEY_q: case GDK_KEY_Q:
      orbit (self, -12, 0);
      return TRUE;
    case GDK_KEY_e: case GDK_KEY_E:
      orbit (self, 12, 0);
      return TRUE;
    case GDK_KEY_Page_Up:
      orbit (self, 0, 8);
      return TRUE;
    case GDK_KEY_Page_Down:
      orbit (self, 0, -8);
      return TRUE;
    case GDK_KEY_plus: case GDK_KEY_equal: case GDK_KEY_KP_Add:
      zoom (self, 1 / 1.2);
      return TRUE;
    case GDK_KEY_minus: case GDK_KEY_KP_Subtract:
      zoom (self, 1.2);
      return TRUE;
    case GDK_KEY_Home:
      terrain_editor_gl_view_reset_camera (self);
      return TRUE;
    default:
      return FALSE;
    }
}

/* ------------------------------------------------------------------------
 * Document signals
 */

static void
union_rect (gboolean              *have,
            cairo_rectangle_int_t *rect,
            int                    x,
            int                    y,
            int                    w,
            int                    h)
{
  if (!*have)
    {
      *rect = (cairo_rectangle_int_t) { x, y, w, h };
      *have = TRUE;
      return;
    }
  {
    int x1 = MAX (rect->x + rect->width, x + w), y1 = MAX (rect->y + rect->height, y + h);

    rect->x = MIN (rect->x, x);
    rect->y = MIN (rect->y, y);
    rect->width = x1 - rect->x;
    rect->height = y1 - rect->y;
  }
}

static void
cells_changed (TerrainTntMap       *map,
               guint                x,
               guint                y,
               guint                w,
               guint                h,
               TerrainEditorGlView *self)
{
  if (self->heights == NULL ||
      terrain_tnt_map_get_width (map) != self->grid_width ||
      terrain_tnt_map_get_height (map) != self->grid_height)
    {
      /* Resized: start over. */
      load_cpu_data (self);
      self->upload_all = TRUE;
      gtk_gl_area_queue_render (GTK_GL_AREA (self));
      return;
    }

  if (x >= self->grid_width || y >= self->grid_height || w == 0 || h == 0)
    return;
  w = MIN (w, self->grid_width - x);
  h = MIN (h, self->grid_height - y);

  read_tnt_heights (self, map, x, y, w, h);
  /* Chunks share their border samples with their neighbours. */
  update_chunk_bounds (self,
                       x > 0 ? (x - 1) / CHUNK_SIZE : 0, y > 0 ? (y - 1) / CHUNK_SIZE : 0,
                       (x + w) / CHUNK_SIZE, (y + h) / CHUNK_SIZE);
  union_rect (&self->heights_dirty, &self->dirty_cells, (int) x, (int) y, (int) w, (int) h);
  self->markers_dirty = TRUE;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

static void
tiles_changed (TerrainTntMap       *map,
               guint                column,
               guint                row,
               guint                columns,
               guint                rows,
               TerrainEditorGlView *self)
{
  guint tc = terrain_tnt_map_get_tile_columns (map), tr = terrain_tnt_map_get_tile_rows (map);

  if (column >= tc || row >= tr || columns == 0 || rows == 0)
    return;
  columns = MIN (columns, tc - column);
  rows = MIN (rows, tr - row);
  union_rect (&self->tiles_dirty, &self->dirty_tiles, (int) column, (int) row, (int) columns, (int) rows);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

static void
sea_level_changed (GObject             *object,
                   GParamSpec          *pspec,
                   TerrainEditorGlView *self)
{
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

static void
atlas_tocs_changed (TerrainEditorGlView *self)
{
  load_cpu_data (self);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

static void
disconnect_document (TerrainEditorGlView *self)
{
  if (self->document == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->document, self);
  if (TERRAIN_IS_ATLAS_FILE (self->document))
    {
      GListModel *tocs = terrain_atlas_file_get_tocs (TERRAIN_ATLAS_FILE (self->document));

      g_signal_handlers_disconnect_by_data (tocs, self);
    }
}

/* ------------------------------------------------------------------------
 * Public API
 */

GtkWidget *
terrain_editor_gl_view_new (void)
{
  return g_object_new (TERRAIN_EDITOR_TYPE_GL_VIEW, NULL);
}

void
terrain_editor_gl_view_set_document (TerrainEditorGlView *self,
                                     TerrainDocument     *document)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self));
  g_return_if_fail (document == NULL || TERRAIN_IS_DOCUMENT (document));

  if (self->document == document)
    return;

  disconnect_document (self);
  g_set_object (&self->document, document);

  if (document != NULL && TERRAIN_IS_TNT_MAP (document))
    {
      g_signal_connect_object (document, "cells-changed", G_CALLBACK (cells_changed), self, 0);
      g_signal_connect_object (document, "tiles-changed", G_CALLBACK (tiles_changed), self, 0);
    }
  /* Stubs rewritten by an edit reach the Atlas renderer through their
   * TOC; a TOC added or removed starts it over. */
  if (document != NULL && TERRAIN_IS_ATLAS_FILE (document))
    g_signal_connect_object (terrain_atlas_file_get_tocs (TERRAIN_ATLAS_FILE (document)),
                             "items-changed", G_CALLBACK (atlas_tocs_changed), self,
                             G_CONNECT_SWAPPED);
  if (document != NULL &&
      g_object_class_find_property (G_OBJECT_GET_CLASS (document), "sea-level") != NULL)
    g_signal_connect_object (document, "notify::sea-level", G_CALLBACK (sea_level_changed), self, 0);

  load_cpu_data (self);
  self->upload_all = TRUE;
  self->highlight_visible = FALSE;
  update_readout (self, TRUE);
  terrain_editor_gl_view_reset_camera (self);
}

TerrainDocument *
terrain_editor_gl_view_get_document (TerrainEditorGlView *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self), NULL);

  return self->document;
}

void
terrain_editor_gl_view_set_palette (TerrainEditorGlView *self,
                                    TerrainPalette      *palette)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self));

  if (self->palette == palette)
    return;
  g_clear_pointer (&self->palette, terrain_palette_unref);
  if (palette != NULL)
    self->palette = terrain_palette_ref (palette);
  self->upload_all = TRUE;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

void
terrain_editor_gl_view_set_brush (TerrainEditorGlView *self,
                                  gboolean             visible,
                                  double               x,
                                  double               y,
                                  double               radius)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self));

  visible = !!visible;
  if (self->brush_visible == visible && self->brush_x == x && self->brush_y == y &&
      self->brush_radius == radius)
    return;
  self->brush_visible = visible;
  self->brush_x = x;
  self->brush_y = y;
  self->brush_radius = radius;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

void
terrain_editor_gl_view_set_show_features (TerrainEditorGlView *self,
                                          gboolean             show)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self));

  show = !!show;
  if (self->show_features == show)
    return;
  self->show_features = show;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_FEATURES]);
}

/**
 * terrain_editor_gl_view_set_camera:
 * @target_x: orbit centre, map cell units
 * @target_y: orbit centre, map cell units
 * @yaw: rotation about the vertical, radians (0: looking north)
 * @pitch: elevation above the horizon, radians
 * @distance: from the target, cell units
 */
void
terrain_editor_gl_view_set_camera (TerrainEditorGlView *self,
                                   double               target_x,
                                   double               target_y,
                                   double               yaw,
                                   double               pitch,
                                   double               distance)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self));

  self->target_x = target_x;
  self->target_y = target_y;
  self->yaw = yaw;
  self->pitch = pitch;
  self->distance = distance;
  clamp_camera (self);
  camera_moved (self);
}

void
terrain_editor_gl_view_get_camera (TerrainEditorGlView *self,
                                   double              *target_x,
                                   double              *target_y,
                                   double              *yaw,
                                   double              *pitch,
                                   double              *distance)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self));

  if (target_x != NULL)
    *target_x = self->target_x;
  if (target_y != NULL)
    *target_y = self->target_y;
  if (yaw != NULL)
    *yaw = self->yaw;
  if (pitch != NULL)
    *pitch = self->pitch;
  if (distance != NULL)
    *distance = self->distance;
}

/**
 * terrain_editor_gl_view_get_last_frame_reduced:
 *
 * Returns: whether the last on-screen frame was drawn at reduced
 *   resolution (the camera was moving and full frames are slow)
 */
gboolean
terrain_editor_gl_view_get_last_frame_reduced (TerrainEditorGlView *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self), FALSE);

  return self->last_frame_reduced;
}

/**
 * terrain_editor_gl_view_get_atlas_stats:
 * @stats: (out): the Atlas renderer's figures of the last frame
 *
 * Returns: %TRUE when the document is drawn by the Atlas renderer
 */
gboolean
terrain_editor_gl_view_get_atlas_stats (TerrainEditorGlView     *self,
                                        TerrainEditorAtlasStats *stats)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self), FALSE);
  g_return_val_if_fail (stats != NULL, FALSE);

  memset (stats, 0, sizeof *stats);
  if (self->atlas == NULL)
    return FALSE;
  terrain_editor_atlas_renderer_get_stats (self->atlas, stats);
  return TRUE;
}

/**
 * terrain_editor_gl_view_set_atlas_cache_budget:
 * @geometry_bytes: GPU bytes for Atlas geometry chunks, 0 for the default
 * @texture_bytes: GPU bytes for Atlas texture tiles
 *
 * Bounds the Atlas renderer's caches (tests, small GPUs).
 */
void
terrain_editor_gl_view_set_atlas_cache_budget (TerrainEditorGlView *self,
                                               gsize                geometry_bytes,
                                               gsize                texture_bytes)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self));

  self->atlas_geometry_budget = geometry_bytes;
  self->atlas_texture_budget = texture_bytes;
  if (self->atlas != NULL && geometry_bytes != 0)
    terrain_editor_atlas_renderer_set_budgets (self->atlas, geometry_bytes, texture_bytes);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

/**
 * terrain_editor_gl_view_render_image:
 * @width: image width in pixels
 * @height: image height in pixels
 *
 * Draws the current view into an offscreen framebuffer and reads it back
 * (screenshots, tests, the benchmark). The view must be realized.
 *
 * Returns: (transfer full): an RGBA8 image, row 0 at the top
 */
TerrainImage *
terrain_editor_gl_view_render_image (TerrainEditorGlView  *self,
                                     guint                 width,
                                     guint                 height,
                                     GError              **error)
{
  g_autoptr(TerrainImage) image = NULL;
  GLuint fbo = 0, color = 0, depth = 0;
  guint8 *data;
  gsize stride;
  g_autofree guint8 *row = NULL;

  g_return_val_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self), NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  if (!self->gl_ready || self->gl_failed)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("The 3D view has no working OpenGL context"));
      return NULL;
    }

  image = terrain_image_new (TERRAIN_IMAGE_RGBA8, width, height, error);
  if (image == NULL)
    return NULL;

  gtk_gl_area_make_current (GTK_GL_AREA (self));
  glGenFramebuffers (1, &fbo);
  glBindFramebuffer (GL_FRAMEBUFFER, fbo);
  glGenRenderbuffers (1, &color);
  glBindRenderbuffer (GL_RENDERBUFFER, color);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_RGBA8, (GLsizei) width, (GLsizei) height);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
  glGenRenderbuffers (1, &depth);
  glBindRenderbuffer (GL_RENDERBUFFER, depth);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, (GLsizei) width, (GLsizei) height);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth);

  if (glCheckFramebufferStatus (GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("Could not create an offscreen framebuffer"));
    }
  else
    {
      gint64 start = g_get_monotonic_time ();

      /* A complete picture: every Atlas chunk and tile it needs. */
      self->lod_height = height;
      self->atlas_budget_us = -1;
      draw_scene (self, (int) width, (int) height);
      if (self->atlas != NULL)
        update_readout (self, TRUE);
      glPixelStorei (GL_PACK_ALIGNMENT, 4);
      data = terrain_image_get_data (image, NULL);
      stride = terrain_image_get_stride (image);
      glReadPixels (0, 0, (GLsizei) width, (GLsizei) height, GL_RGBA, GL_UNSIGNED_BYTE, data);
      self->last_render_time = (g_get_monotonic_time () - start) / 1000.0;

      /* GL's row 0 is the bottom one. */
      row = g_malloc (stride);
      for (guint y = 0; y < height / 2; y++)
        {
          memcpy (row, data + y * stride, stride);
          memcpy (data + y * stride, data + (height - 1 - y) * stride, stride);
          memcpy (data + (height - 1 - y) * stride, row, stride);
        }
    }

  glBindFramebuffer (GL_FRAMEBUFFER, 0);
  glDeleteRenderbuffers (1, &color);
  glDeleteRenderbuffers (1, &depth);
  glDeleteFramebuffers (1, &fbo);

  if (!check_gl_error (self, _("rendering offscreen")))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("OpenGL error while rendering"));
      return NULL;
    }
  if (error != NULL && *error != NULL)
    return NULL;

  return g_steal_pointer (&image);
}

/**
 * terrain_editor_gl_view_get_last_render_time:
 *
 * Returns: milliseconds the last frame took to draw, including glFinish
 */
double
terrain_editor_gl_view_get_last_render_time (TerrainEditorGlView *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self), 0);

  return self->last_render_time;
}

/**
 * terrain_editor_gl_view_set_show_chunk_levels:
 * @show: whether to show Atlas chunk levels
 *
 * Sets #TerrainEditorGlView:show-chunk-levels.
 */
void
terrain_editor_gl_view_set_show_chunk_levels (TerrainEditorGlView *self,
                                              gboolean             show)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self));

  show = !!show;
  if (self->show_chunk_levels == show)
    return;
  self->show_chunk_levels = show;
  if (!show)
    update_readout (self, TRUE);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_CHUNK_LEVELS]);
}

gboolean
terrain_editor_gl_view_get_show_chunk_levels (TerrainEditorGlView *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self), FALSE);

  return self->show_chunk_levels;
}

/**
 * terrain_editor_gl_view_get_atlas_readout:
 *
 * Returns: (transfer none): #TerrainEditorGlView:atlas-readout
 */
const char *
terrain_editor_gl_view_get_atlas_readout (TerrainEditorGlView *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self), NULL);

  return self->atlas_readout;
}

/**
 * terrain_editor_gl_view_set_atlas_highlight:
 * @box: (nullable): what to highlight, world units (an Atlas stub's
 *   bounds, terrain_editor_atlas_get_stub_box()), or %NULL for nothing
 *
 * Draws @box over an Atlas terrain: its edges, and faintly where the
 * terrain hides them.
 */
void
terrain_editor_gl_view_set_atlas_highlight (TerrainEditorGlView   *self,
                                            const TerrainAtlasBox *box)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self));

  if (box == NULL && !self->highlight_visible)
    return;
  self->highlight_visible = box != NULL;
  if (box != NULL)
    self->highlight = *box;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

/**
 * terrain_editor_gl_view_get_atlas_highlight:
 * @box: (out) (optional): the highlighted box, world units
 *
 * Returns: whether a box is highlighted
 */
gboolean
terrain_editor_gl_view_get_atlas_highlight (TerrainEditorGlView *self,
                                            TerrainAtlasBox     *box)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self), FALSE);

  if (box != NULL && self->highlight_visible)
    *box = self->highlight;
  return self->highlight_visible;
}

/**
 * terrain_editor_gl_view_frame_atlas_box:
 * @box: a box in world units
 *
 * Moves the camera, keeping its direction, to look at the middle of @box
 * from where the whole box fits in the view.
 */
void
terrain_editor_gl_view_frame_atlas_box (TerrainEditorGlView   *self,
                                        const TerrainAtlasBox *box)
{
  float b[6];
  double radius;

  g_return_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self));
  g_return_if_fail (box != NULL);

  if (self->atlas == NULL)
    return;
  terrain_editor_atlas_renderer_world_to_map (self->atlas, box, b);
  radius = sqrt ((b[3] - b[0]) * (b[3] - b[0]) + (b[4] - b[1]) * (b[4] - b[1]) +
                 (b[5] - b[2]) * (b[5] - b[2])) / 2;
  self->target_x = (b[0] + b[3]) / 2;
  self->target_y = (b[2] + b[5]) / 2;
  /* The sphere around the box fills about 80% of the view's height. */
  self->distance = radius / sin (FOV_Y / 2) * 1.25;
  clamp_camera (self);
  camera_moved (self);
}

/**
 * terrain_editor_gl_view_project:
 * @map_x: map position (as terrain_editor_gl_view_pick() gives)
 * @map_y: map position
 * @elevation: height above the map's zero, world units (Atlas) or drawn
 *   units
 * @width: width of the picture to project into, pixels
 * @height: its height
 * @x: (out): where the point lands, pixels from the left
 * @y: (out): pixels from the top
 *
 * Projects a point with the current camera, as a frame of @width ×
 * @height (the widget's size, or that given to
 * terrain_editor_gl_view_render_image()) draws it.
 *
 * Returns: %FALSE when the point is behind the camera
 */
gboolean
terrain_editor_gl_view_project (TerrainEditorGlView *self,
                                double               map_x,
                                double               map_y,
                                double               elevation,
                                guint                width,
                                guint                height,
                                double              *x,
                                double              *y)
{
  float m[16];
  double cx, cy, cw;

  g_return_val_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self), FALSE);

  compute_view_proj (self, (int) width, (int) height, m);
  cx = m[0] * map_x + m[4] * elevation + m[8] * map_y + m[12];
  cy = m[1] * map_x + m[5] * elevation + m[9] * map_y + m[13];
  cw = m[3] * map_x + m[7] * elevation + m[11] * map_y + m[15];
  if (cw <= 1e-9)
    return FALSE;
  *x = (cx / cw + 1) / 2 * width;
  *y = (1 - cy / cw) / 2 * height;
  return TRUE;
}

/* ------------------------------------------------------------------------
 * GObject
 */

static void
terrain_editor_gl_view_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  TerrainEditorGlView *self = TERRAIN_EDITOR_GL_VIEW (object);

  switch (prop_id)
    {
    case PROP_EMPTY_MESSAGE:
      g_value_set_string (value, self->empty_message);
      break;
    case PROP_SHOW_FEATURES:
      g_value_set_boolean (value, self->show_features);
      break;
    case PROP_SHOW_CHUNK_LEVELS:
      g_value_set_boolean (value, self->show_chunk_levels);
      break;
    case PROP_ATLAS_READOUT:
      g_value_set_string (value, self->atlas_readout);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_editor_gl_view_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  TerrainEditorGlView *self = TERRAIN_EDITOR_GL_VIEW (object);

  switch (prop_id)
    {
    case PROP_SHOW_FEATURES:
      terrain_editor_gl_view_set_show_features (self, g_value_get_boolean (value));
      break;
    case PROP_SHOW_CHUNK_LEVELS:
      terrain_editor_gl_view_set_show_chunk_levels (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_editor_gl_view_dispose (GObject *object)
{
  TerrainEditorGlView *self = TERRAIN_EDITOR_GL_VIEW (object);

  disconnect_document (self);
  g_clear_object (&self->document);
  g_clear_pointer (&self->palette, terrain_palette_unref);
  g_clear_handle_id (&self->settle_id, g_source_remove);
  g_clear_handle_id (&self->refine_id, g_source_remove);
  g_clear_handle_id (&self->readout_id, g_source_remove);

  G_OBJECT_CLASS (terrain_editor_gl_view_parent_class)->dispose (object);
}

static void
terrain_editor_gl_view_finalize (GObject *object)
{
  TerrainEditorGlView *self = TERRAIN_EDITOR_GL_VIEW (object);

  clear_cpu_data (self);
  g_array_unref (self->draw_list);
  g_array_unref (self->water_quads);
  g_array_unref (self->chunk_boxes);
  g_array_unref (self->line_vertices);
  g_free (self->atlas_readout);
  g_free (self->pending_readout);
  g_free (self->empty_message);

  G_OBJECT_CLASS (terrain_editor_gl_view_parent_class)->finalize (object);
}

static void
terrain_editor_gl_view_class_init (TerrainEditorGlViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkGLAreaClass *area_class = GTK_GL_AREA_CLASS (klass);

  object_class->get_property = terrain_editor_gl_view_get_property;
  object_class->set_property = terrain_editor_gl_view_set_property;
  object_class->dispose = terrain_editor_gl_view_dispose;
  object_class->finalize = terrain_editor_gl_view_finalize;
  widget_class->realize = terrain_editor_gl_view_realize;
  widget_class->unrealize = terrain_editor_gl_view_unrealize;
  widget_class->size_allocate = terrain_editor_gl_view_size_allocate;
  area_class->render = terrain_editor_gl_view_render;
  area_class->create_context = terrain_editor_gl_view_create_context;

  /**
   * TerrainEditorGlView::gl-failed:
   * @message: what went wrong
   *
   * OpenGL could not start, a shader did not build, or a GL error
   * happened. The view stops drawing; the window shows @message and falls
   * back to the 2D view.
   */
  signals[GL_FAILED] =
    g_signal_new ("gl-failed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * TerrainEditorGlView::cell-activated:
   * @x: map position, cell units
   * @y: map position, cell units
   * @button: the mouse button
   *
   * A primary click on the terrain (picked by a ray cast), then every
   * position a primary-button drag passes over (a stroke).
   */
  signals[CELL_ACTIVATED] =
    g_signal_new ("cell-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_UINT);

  /**
   * TerrainEditorGlView:empty-message:
   *
   * Why the document has nothing to draw in 3D (an archive, a texture tree
   * without heights), for the window to show; %NULL when there is.
   */
  properties[PROP_EMPTY_MESSAGE] =
    g_param_spec_string ("empty-message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * TerrainEditorGlView:show-features:
   *
   * Whether placed features are drawn as markers on a TNT map.
   */
  properties[PROP_SHOW_FEATURES] =
    g_param_spec_boolean ("show-features", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * TerrainEditorGlView:show-chunk-levels:
   *
   * Whether Atlas chunks are tinted by their quadtree level and drawn with
   * their bounding boxes (see #TerrainEditorGlView:atlas-readout).
   */
  properties[PROP_SHOW_CHUNK_LEVELS] =
    g_param_spec_boolean ("show-chunk-levels", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * TerrainEditorGlView:atlas-readout:
   *
   * While chunk levels are shown on an Atlas file: the legend of the level
   * colours with the chunks drawn per level, the triangles and the caches
   * of the last frame (Pango markup,
   * terrain_editor_gl_view_format_atlas_readout()); else empty. Follows
   * on-screen frames once they are drawn, offscreen pictures at once.
   */
  properties[PROP_ATLAS_READOUT] =
    g_param_spec_string ("atlas-readout", NULL, NULL, "",
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "terrain-gl-view");
}

static void
terrain_editor_gl_view_init (TerrainEditorGlView *self)
{
  GtkGesture *drag;
  GtkEventController *controller;

  self->show_features = TRUE;
  self->draw_list = g_array_new (FALSE, FALSE, sizeof (DrawItem));
  self->water_quads = g_array_new (FALSE, FALSE, sizeof (float));
  self->chunk_boxes = g_array_new (FALSE, FALSE, sizeof (TerrainEditorAtlasChunkBox));
  self->line_vertices = g_array_new (FALSE, FALSE, sizeof (float));
  self->atlas_readout = g_strdup ("");
  self->yaw = 0;
  self->pitch = 50.0 * G_PI / 180.0;
  self->distance = 64;

  gtk_gl_area_set_has_depth_buffer (GTK_GL_AREA (self), TRUE);
  gtk_gl_area_set_auto_render (GTK_GL_AREA (self), FALSE);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
