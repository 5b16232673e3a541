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
 *
 * This file holds the class, the CPU copy of the heights and the document
 * signals; terrain-editor-gl-view-gl.c the GL resources, -render.c the
 * frame and -input.c the camera and input (terrain-editor-gl-view-
 * private.h).
 */

#include "config.h"

#include "terrain-editor-gl-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

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

G_DEFINE_FINAL_TYPE (TerrainEditorGlView, terrain_editor_gl_view, GTK_TYPE_GL_AREA)

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
double
gl_view_terrain_height_at (TerrainEditorGlView *self,
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
double
gl_view_map_width (TerrainEditorGlView *self)
{
  double width;

  if (self->atlas != NULL)
    {
      terrain_editor_atlas_renderer_get_extent (self->atlas, &width, NULL, NULL, NULL);
      return width;
    }
  return self->grid_width - 1 + 2 * self->offset;
}

double
gl_view_map_height (TerrainEditorGlView *self)
{
  double height;

  if (self->atlas != NULL)
    {
      terrain_editor_atlas_renderer_get_extent (self->atlas, NULL, &height, NULL, NULL);
      return height;
    }
  return self->grid_height - 1 + 2 * self->offset;
}

double
gl_view_sea_level (TerrainEditorGlView *self)
{
  if (self->document != NULL && TERRAIN_IS_TNT_MAP (self->document))
    return terrain_tnt_map_get_sea_level (TERRAIN_TNT_MAP (self->document)) * self->vscale;
  return -1;
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
  gl_view_update_readout (self, TRUE);
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
 * @target_x: gl_view_orbit centre, map cell units
 * @target_y: gl_view_orbit centre, map cell units
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
  gl_view_clamp_camera (self);
  gl_view_camera_moved (self);
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
      gl_view_draw_scene (self, (int) width, (int) height);
      if (self->atlas != NULL)
        gl_view_update_readout (self, TRUE);
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

  if (!gl_view_check_gl_error (self, _("rendering offscreen")))
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
    gl_view_update_readout (self, TRUE);
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
  gl_view_clamp_camera (self);
  gl_view_camera_moved (self);
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

  gl_view_compute_view_proj (self, (int) width, (int) height, m);
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

  gl_view_init_input (self);
}
