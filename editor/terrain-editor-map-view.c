/* terrain-editor-map-view.c: the 2D map view
 *
 * The map picture comes from terrain_document_render_image() (TNT tiles
 * through the palette; other formats fall back to their height grid) and is
 * drawn as one GdkTexture, reduced by an integer factor when the map is
 * larger than a texture should be. Overlays (contours, grid, features,
 * voids, start positions, tool previews) are drawn with Cairo over the
 * visible part only, in map cell units. The view scrolls itself
 * (GtkScrollable), so a 640x640-cell map never allocates a 10240-pixel
 * widget. On Atlas files it outlines what a stub selected in the Structure
 * tab covers, placed on the picture as the library draws it (the root
 * texture tile, or the height grid).
 *
 * This file holds the picture, drawing, the setters and the class;
 * scrolling, zoom and pointer input are in terrain-editor-map-view-input.c,
 * the overlays in -overlays.c, -sprites.c, -contours.c, -placement.c and
 * -selection.c (terrain-editor-map-view-private.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-map-view-private.h"
#include "terrain-editor-atlas-renderer.h"

#include <glib/gi18n.h>
#include <math.h>

#define MAX_TEXTURE_SIDE 4096
#define MIN_TEXTURE_SIDE 512
/* TNT maps of at least this many cells (16 x 16 pixels each) have their
 * picture made in a worker thread: the minimap stands in meanwhile. */
#define THREAD_RENDER_CELLS (256 * 256)


enum {
  PROP_0,
  PROP_ZOOM,
  PROP_SHOW_GRID,
  PROP_SHOW_FEATURES,
  PROP_SHOW_CONTOURS,
  PROP_SHOW_VOIDS,
  PROP_SHOW_START_POSITIONS,
  N_PROPS,
  /* GtkScrollable */
  PROP_HADJUSTMENT,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

enum {
  CELL_EVENT,
  SELECTION_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE_WITH_CODE (TerrainEditorMapView, terrain_editor_map_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

static TerrainTntMap *
get_tnt (TerrainEditorMapView *self)
{
  return TERRAIN_IS_TNT_MAP (self->document) ? TERRAIN_TNT_MAP (self->document) : NULL;
}

void
map_view_notify_zoom (TerrainEditorMapView *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

void
map_view_signal_cell_event (TerrainEditorMapView  *self,
                            TerrainEditorMapPhase  phase,
                            double                 x,
                            double                 y,
                            guint                  button,
                            GdkModifierType        state)
{
  g_signal_emit (self, signals[CELL_EVENT], 0, phase, x, y, button, state);
}

/* ------------------------------------------------------------------------ */
/* The picture                                                              */

/* The picture reduced by @factor (a box filter over factor x factor
 * blocks), or magnified by @magnify (each pixel repeated over a block);
 * grey images are spread to RGB (16-bit heights keep their high byte). */
static GdkTexture *
texture_from_image (TerrainImage *image,
                    guint         factor,
                    guint         magnify)
{
  guint width = terrain_image_get_width (image);
  guint height = terrain_image_get_height (image);
  guint out_width = (width + factor - 1) / factor * magnify;
  guint out_height = (height + factor - 1) / factor * magnify;
  TerrainImageFormat format = terrain_image_get_format (image);
  gsize stride = terrain_image_get_stride (image);
  const guint8 *data = terrain_image_get_data (image, NULL);
  guint8 *out = g_malloc ((gsize) out_width * out_height * 4);
  g_autoptr(GBytes) bytes = NULL;

  for (guint oy = 0; oy < out_height; oy += magnify)
    for (guint ox = 0; ox < out_width; ox += magnify)
      {
        guint sx = ox / magnify * factor, sy = oy / magnify * factor;
        guint sum[4] = { 0, 0, 0, 0 };
        guint n = 0;

        for (guint y = sy; y < MIN (height, sy + factor); y++)
          for (guint x = sx; x < MIN (width, sx + factor); x++)
            {
              const guint8 *row = data + y * stride;

              if (format == TERRAIN_IMAGE_RGBA8)
                {
                  for (guint c = 0; c < 4; c++)
                    sum[c] += row[x * 4 + c];
                }
              else
                {
                  guint v;

                  if (format == TERRAIN_IMAGE_GRAY8)
                    v = row[x];
                  else
                    v = ((const guint16 *) row)[x] >> 8;
                  sum[0] += v;
                  sum[1] += v;
                  sum[2] += v;
                  sum[3] += 255;
                }
              n++;
            }

        for (guint my = oy; my < oy + magnify; my++)
          for (guint mx = ox; mx < ox + magnify; mx++)
            for (guint c = 0; c < 4; c++)
              out[((gsize) my * out_width + mx) * 4 + c] = n > 0 ? (guint8) (sum[c] / n) : 0;
      }

  bytes = g_bytes_new_take (out, (gsize) out_width * out_height * 4);
  return gdk_memory_texture_new (out_width, out_height, GDK_MEMORY_R8G8B8A8, bytes,
                                 (gsize) out_width * 4);
}

void
map_view_emit_selection_changed (TerrainEditorMapView *self)
{
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

static void
invalidate_features (TerrainEditorMapView *self)
{
  g_clear_object (&self->water);
  self->water_valid = FALSE;
  g_clear_object (&self->contours);
  g_clear_pointer (&self->placements, g_array_unref);
  g_clear_pointer (&self->occupancy, g_free);
  g_clear_pointer (&self->overlapping, g_hash_table_unref);
}

gboolean
map_view_catalog_footprint (const char *name,
                   guint      *footprint_x,
                   guint      *footprint_z,
                   gpointer    user_data)
{
  TerrainEditorMapView *self = user_data;

  if (self->catalog == NULL)
    return FALSE;
  return terrain_feature_catalog_get_footprint (self->catalog, name, footprint_x, footprint_z);
}

gboolean
terrain_editor_map_view_get_footprint (TerrainEditorMapView *self,
                                       const char           *name,
                                       guint                *width,
                                       guint                *height)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self), FALSE);

  *width = 1;
  *height = 1;
  return map_view_catalog_footprint (name, width, height, self);
}

void
map_view_ensure_features (TerrainEditorMapView *self)
{
  TerrainTntMap *map = get_tnt (self);
  g_autoptr(GPtrArray) issues = NULL;

  if (map == NULL || self->placements != NULL)
    return;

  issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  self->placements = terrain_tnt_map_list_placements (map);
  self->occupancy = terrain_tnt_map_build_occupancy (map, map_view_catalog_footprint, self, NULL, issues);
  self->overlapping = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < issues->len; i++)
    {
      gint x, y;

      if (terrain_issue_get_position (g_ptr_array_index (issues, i), &x, &y))
        g_hash_table_add (self->overlapping, GUINT_TO_POINTER (((guint) y << 16) | (guint) x));
    }
}

/* Whether a render or export failed only because the format has no such
 * picture. */
static gboolean
no_picture (const GError *error)
{
  return error == NULL || g_error_matches (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
}

/* Water colour, and its opacity over the shallowest and at WATER_DEPTH
 * height units or deeper. */
#define WATER_R 20
#define WATER_G 70
#define WATER_B 190
#define WATER_ALPHA_SHALLOW 70
#define WATER_ALPHA_DEEP 210
#define WATER_DEPTH 64

/* The depth tint of a TNT map's cells under its sea level, whatever the
 * picture below (tiles, heights in grey or in colour). */
static void
ensure_water (TerrainEditorMapView *self)
{
  TerrainTntMap *map = get_tnt (self);
  guint w, h, sea;
  guint8 *texels;
  gboolean any = FALSE;
  g_autoptr(GBytes) bytes = NULL;

  if (self->water_valid)
    return;
  self->water_valid = TRUE;
  g_clear_object (&self->water);
  if (map == NULL)
    return;
  w = terrain_tnt_map_get_width (map);
  h = terrain_tnt_map_get_height (map);
  sea = terrain_tnt_map_get_sea_level (map);
  if (w == 0 || h == 0 || sea == 0)
    return;

  texels = g_malloc0 ((gsize) w * h * 4);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        guint height = terrain_tnt_map_get_cell_height (map, x, y);
        guint8 *p = texels + ((gsize) y * w + x) * 4;
        guint depth, alpha;

        if (height >= sea)
          continue;
        depth = MIN (sea - height, WATER_DEPTH);
        alpha = WATER_ALPHA_SHALLOW + (WATER_ALPHA_DEEP - WATER_ALPHA_SHALLOW) * depth / WATER_DEPTH;
        /* Premultiplied. */
        p[0] = (guint8) (WATER_R * alpha / 255);
        p[1] = (guint8) (WATER_G * alpha / 255);
        p[2] = (guint8) (WATER_B * alpha / 255);
        p[3] = (guint8) alpha;
        any = TRUE;
      }
  if (!any)
    {
      g_free (texels);
      return;
    }
  bytes = g_bytes_new_take (texels, (gsize) w * h * 4);
  self->water = gdk_memory_texture_new ((int) w, (int) h, GDK_MEMORY_R8G8B8A8_PREMULTIPLIED, bytes, (gsize) w * 4);
}

static void
on_sea_level_changed (TerrainEditorMapView *self)
{
  g_clear_object (&self->water);
  self->water_valid = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * terrain_editor_map_view_get_water:
 * @self: a map view
 *
 * The depth tint the view draws over a TNT map's cells under its sea
 * level: one texel a cell, premultiplied RGBA, more opaque the deeper.
 *
 * Returns: (transfer none) (nullable): the tint, %NULL when no cell is
 *   under water or the document is no TNT map
 */
GdkTexture *
terrain_editor_map_view_get_water (TerrainEditorMapView *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self), NULL);

  ensure_water (self);
  return self->water;
}

/* The factor that brings a picture under MAX_TEXTURE_SIDE. */
static guint
reduction_factor (guint width,
                  guint height)
{
  guint factor = 1;

  while (width / factor > MAX_TEXTURE_SIDE || height / factor > MAX_TEXTURE_SIDE)
    factor++;
  return factor;
}

typedef struct
{
  GBytes         *map;        /* the TNT map saved, so edits cannot race */
  TerrainPalette *palette;
  guint           generation;
} RenderJob;

static void
render_job_free (RenderJob *job)
{
  g_bytes_unref (job->map);
  terrain_palette_unref (job->palette);
  g_free (job);
}

static void
render_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  RenderJob *job = task_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new_from_bytes (job->map, NULL, &error);
  g_autoptr(TerrainImage) image = NULL;

  if (map != NULL && !g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_autoptr(TerrainRenderOptions) options = terrain_palette_to_render_options (job->palette);

      image = terrain_document_render_image (TERRAIN_DOCUMENT (map), options, &error);
    }
  if (image != NULL && !g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      guint factor = reduction_factor (terrain_image_get_width (image), terrain_image_get_height (image));

      g_task_return_pointer (task, texture_from_image (image, factor, 1), g_object_unref);
      return;
    }
  g_task_return_error (task, g_steal_pointer (&error));
}

static void
render_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  TerrainEditorMapView *self = TERRAIN_EDITOR_MAP_VIEW (source);
  RenderJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = g_task_propagate_pointer (G_TASK (result), &error);

  if (job->generation != self->render_generation)
    return;   /* a newer render is under way, or the document went */
  g_clear_object (&self->render_cancellable);
  if (texture == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("The map's picture could not be drawn: %s", error->message);
      return;
    }
  g_set_object (&self->texture, texture);
  self->coarse = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Starts making a large TNT map's picture in a worker thread. Until it
 * is done the view shows the picture it had of this map, else the
 * minimap stretched over the map (its colours, at once). */
static void
rerender_in_thread (TerrainEditorMapView *self,
                    GdkTexture           *previous,
                    gboolean              previous_coarse)
{
  TerrainTntMap *map = get_tnt (self);
  guint width = terrain_tnt_map_get_width (map) * TERRAIN_TNT_CELL_PIXELS;
  guint height = terrain_tnt_map_get_height (map) * TERRAIN_TNT_CELL_PIXELS;
  g_autoptr(GError) error = NULL;
  RenderJob *job;
  GTask *task;

  job = g_new0 (RenderJob, 1);
  job->map = terrain_document_save_to_bytes (self->document, &error);
  if (job->map == NULL)
    {
      g_free (job);
      self->message = g_strdup_printf (_("The picture could not be drawn: %s"), error->message);
      return;
    }
  job->palette = terrain_palette_ref (self->palette);
  job->generation = ++self->render_generation;

  if (previous != NULL && self->picture_document == (gpointer) self->document &&
      self->picture_palette == (gpointer) self->palette && self->map_width == width &&
      self->map_height == height)
    {
      self->texture = g_object_ref (previous);
      self->coarse = previous_coarse;
    }
  else
    {
      g_autoptr(TerrainImage) minimap = terrain_tnt_map_render_minimap (map, self->palette, TRUE, NULL);

      if (minimap == NULL || terrain_image_get_width (minimap) == 0)
        minimap = terrain_document_export_heights (self->document, NULL);
      if (minimap != NULL)
        self->texture = texture_from_image (minimap, 1, 1);
      self->coarse = TRUE;
    }
  self->picture_document = self->document;
  self->picture_palette = self->palette;
  self->map_width = width;
  self->map_height = height;
  self->cell_pixels = TERRAIN_TNT_CELL_PIXELS;

  self->render_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->render_cancellable, render_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) render_job_free);
  g_task_set_name (task, "terrain-editor-map-picture");
  g_task_run_in_thread (task, render_thread);
  g_object_unref (task);
}

/* A deep Atlas's picture (terrain_editor_atlas_is_deep_file()) is drawn
 * in a worker thread, from a copy opened from its file. */
typedef struct
{
  GFile *file;
  guint  generation;
} AtlasJob;

typedef struct
{
  GdkTexture *texture;
  guint       width, height, factor, magnify;
} AtlasPicture;

static void
atlas_job_free (AtlasJob *job)
{
  g_object_unref (job->file);
  g_free (job);
}

static void
atlas_picture_free (AtlasPicture *picture)
{
  g_clear_object (&picture->texture);
  g_free (picture);
}

/* The texture of a picture, reduced or magnified as the view shows it. */
static AtlasPicture *
atlas_picture_new (TerrainImage *image)
{
  AtlasPicture *picture = g_new0 (AtlasPicture, 1);

  picture->width = terrain_image_get_width (image);
  picture->height = terrain_image_get_height (image);
  picture->factor = reduction_factor (picture->width, picture->height);
  picture->magnify = picture->factor == 1
                     ? MAX (1, MIN_TEXTURE_SIDE / MAX (picture->width, picture->height)) : 1;
  picture->texture = texture_from_image (image, picture->factor, picture->magnify);
  return picture;
}

/* Shows @picture: the coarse one while the full one is made, or the full
 * one. The full picture has more pixels than the coarse one over the same
 * terrain, so the zoom is divided by their ratio: the view shows the same
 * part of the terrain at the same size, the scroll positions unchanged. */
static void
atlas_show_picture (TerrainEditorMapView *self,
                    AtlasPicture         *picture,
                    gboolean              coarse)
{
  gboolean rescale = self->texture != NULL && self->map_width > 0 && !self->fit_pending &&
                     picture->width != (guint) self->map_width;

  if (rescale)
    {
      self->zoom *= self->map_width / (double) picture->width;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
    }
  g_set_object (&self->texture, picture->texture);
  self->texture_scale = (double) picture->factor / picture->magnify;
  self->map_width = picture->width;
  self->map_height = picture->height;
  self->cell_pixels = 1.0;
  self->coarse = coarse;
  self->have_atlas_extent =
    terrain_editor_atlas_get_terrain_box (TERRAIN_ATLAS_FILE (self->document), &self->atlas_extent) &&
    self->atlas_extent.max[0] > self->atlas_extent.min[0] &&
    self->atlas_extent.max[1] > self->atlas_extent.min[1];
  map_view_update_adjustments (self);
  if (self->fit_pending)
    self->fit_pending = !map_view_apply_fit (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Level 3 of a deep Atlas (64 chunks, or a texture level of 8 x 8 tiles),
 * drawn at once from the window's document while the full picture is made
 * in a thread. */
#define ATLAS_COARSE_LEVEL 3

static void
atlas_show_coarse (TerrainEditorMapView *self)
{
  g_autoptr(TerrainRenderOptions) options = terrain_palette_to_render_options (NULL);
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GError) error = NULL;
  AtlasPicture *picture;

  terrain_render_options_set_max_level (options, ATLAS_COARSE_LEVEL);
  image = terrain_document_render_image (self->document, options, &error);
  if (image == NULL)
    {
      g_debug ("No coarse picture of the Atlas: %s", error->message);
      return;
    }
  picture = atlas_picture_new (image);
  atlas_show_picture (self, picture, TRUE);
  atlas_picture_free (picture);
}

static void
atlas_render_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  AtlasJob *job = task_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) copy = terrain_document_load (job->file, NULL, cancellable, &error);
  g_autoptr(TerrainImage) image = NULL;
  AtlasPicture *picture;

  if (copy != NULL && !g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_autoptr(TerrainRenderOptions) options = terrain_palette_to_render_options (NULL);

      image = terrain_document_render_image (copy, options, &error);
      if (image == NULL)
        {
          g_clear_error (&error);
          image = terrain_document_export_heights (copy, &error);
        }
    }
  if (image == NULL || g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  picture = atlas_picture_new (image);
  g_task_return_pointer (task, picture, (GDestroyNotify) atlas_picture_free);
}

static void
atlas_render_done (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  TerrainEditorMapView *self = TERRAIN_EDITOR_MAP_VIEW (source);
  AtlasJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  AtlasPicture *picture = g_task_propagate_pointer (G_TASK (result), &error);

  if (job->generation != self->render_generation)
    {
      g_clear_pointer (&picture, atlas_picture_free);
      return;   /* a newer render is under way, or the document went */
    }
  g_clear_object (&self->render_cancellable);
  g_clear_pointer (&self->message, g_free);
  if (picture == NULL)
    {
      /* The coarse picture, if any, is all there is: say why instead. */
      g_clear_object (&self->texture);
      self->coarse = FALSE;
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        self->message = g_strdup_printf (_("The picture could not be drawn: %s"), error->message);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  atlas_show_picture (self, picture, FALSE);
  atlas_picture_free (picture);
}

/* Starts drawing a deep Atlas's picture in a worker thread, from a copy
 * opened from its file; until it is done the view shows a coarse picture
 * (atlas_show_coarse()) and says the full one is being drawn. */
static void
rerender_atlas_in_thread (TerrainEditorMapView *self)
{
  AtlasJob *job = g_new0 (AtlasJob, 1);
  GTask *task;

  job->file = g_object_ref (terrain_document_get_file (self->document));
  job->generation = ++self->render_generation;
  self->map_width = self->map_height = 0;
  self->picture_document = self->picture_palette = NULL;
  self->have_atlas_extent = FALSE;
  self->message = g_strdup (_("Drawing the terrain…"));

  self->render_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->render_cancellable, atlas_render_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) atlas_job_free);
  g_task_set_name (task, "terrain-editor-atlas-picture");
  g_task_run_in_thread (task, atlas_render_thread);
  g_object_unref (task);
  atlas_show_coarse (self);
}

static void
rerender (TerrainEditorMapView *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) heights_error = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(TerrainRenderOptions) options = NULL;
  g_autoptr(GdkTexture) previous = g_steal_pointer (&self->texture);
  gboolean previous_coarse = self->coarse;
  guint width, height, factor = 1, magnify = 1;

  g_clear_pointer (&self->message, g_free);
  invalidate_features (self);
  self->coarse = FALSE;
  self->render_generation++;
  if (self->render_cancellable != NULL)
    g_cancellable_cancel (self->render_cancellable);
  g_clear_object (&self->render_cancellable);

  if (self->document == NULL)
    {
      self->map_width = self->map_height = 0;
      self->picture_document = self->picture_palette = NULL;
      goto out;
    }

  if (get_tnt (self) != NULL && self->palette != NULL &&
      (guint64) terrain_tnt_map_get_width (get_tnt (self)) * terrain_tnt_map_get_height (get_tnt (self))
      >= THREAD_RENDER_CELLS)
    {
      rerender_in_thread (self, previous, previous_coarse);
      goto out;
    }
  if (terrain_editor_atlas_is_deep_file (self->document))
    {
      rerender_atlas_in_thread (self);
      goto out;
    }
  self->map_width = self->map_height = 0;
  self->picture_document = self->picture_palette = NULL;

  options = terrain_palette_to_render_options (self->palette);
  image = terrain_document_render_image (self->document, options, &error);
  if (image == NULL)
    image = terrain_document_export_heights (self->document, &heights_error);
  self->have_atlas_extent =
    image != NULL && TERRAIN_IS_ATLAS_FILE (self->document) &&
    terrain_editor_atlas_get_terrain_box (TERRAIN_ATLAS_FILE (self->document), &self->atlas_extent) &&
    self->atlas_extent.max[0] > self->atlas_extent.min[0] &&
    self->atlas_extent.max[1] > self->atlas_extent.min[1];
  if (image == NULL)
    {
      if (get_tnt (self) != NULL && self->palette == NULL)
        self->message = g_strdup (_("Choose a palette (PALETTE.PAL) in the preferences to see the map’s tiles."));
      else if (TERRAIN_IS_HPI_ARCHIVE (self->document))
        self->message = g_strdup (_("An archive has no picture of its own. Double-click a map "
                                    "in the Structure tab to open it."));
      else if (no_picture (error) && no_picture (heights_error))
        self->message = g_strdup (_("This file has no picture or height grid to show. The "
                                    "Structure tab lists what it holds."));
      else
        /* Drawing it failed: say why. */
        self->message = g_strdup_printf (_("The picture could not be drawn: %s"),
                                         !no_picture (error) ? error->message
                                                             : heights_error->message);
      goto out;
    }

  width = terrain_image_get_width (image);
  height = terrain_image_get_height (image);
  factor = reduction_factor (width, height);

  /* A small picture is drawn magnified many times, and GTK 4.8's GL
   * renderer then blends its edge texels with what lies beside it in the
   * texture atlas: a light seam along the map's edge. Magnified here by
   * whole pixels, it keeps the seam under a screen pixel and the cells
   * sharp. */
  if (factor == 1)
    magnify = MAX (1, MIN_TEXTURE_SIDE / MAX (width, height));
  self->texture = texture_from_image (image, factor, magnify);
  self->texture_scale = (double) factor / magnify;
  self->map_width = width;
  self->map_height = height;
  /* A TNT map's picture has 16 pixels a cell with a palette, one (its
   * heights) without: the cell size follows the picture. */
  self->cell_pixels = 1.0;
  if (get_tnt (self) != NULL && terrain_tnt_map_get_width (get_tnt (self)) > 0)
    self->cell_pixels = (double) width / terrain_tnt_map_get_width (get_tnt (self));

out:
  map_view_update_adjustments (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
rerender_idle (gpointer user_data)
{
  TerrainEditorMapView *self = user_data;

  self->rerender_id = 0;
  rerender (self);
  return G_SOURCE_REMOVE;
}

static void
queue_rerender (TerrainEditorMapView *self)
{
  if (self->rerender_id == 0)
    self->rerender_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, rerender_idle, self, NULL);
}

static void
on_cells_changed (TerrainEditorMapView *self)
{
  /* With a palette, heights and feature words feed the overlays only;
   * without one the picture is the heights in grey: drawn again (once
   * an idle, however many dabs a stroke makes before it). */
  invalidate_features (self);
  map_view_check_selection (self);
  if (self->palette == NULL)
    queue_rerender (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                  */

/* An Atlas world position on the picture, in cells (picture pixels). Every
 * picture the library draws of an Atlas (its texture tree, or its leaves as
 * relief, or their heights) is a map north up, east right, covering the
 * terrain edge to edge. */
static void
atlas_to_picture (TerrainEditorMapView *self,
                  double                world_x,
                  double                world_y,
                  double               *x,
                  double               *y)
{
  const TerrainAtlasBox *e = &self->atlas_extent;
  double east = (world_x - e->min[0]) / ((double) e->max[0] - e->min[0]);
  double north = (world_y - e->min[1]) / ((double) e->max[1] - e->min[1]);

  *x = east * self->map_width;
  *y = (1 - north) * self->map_height;
}

/**
 * terrain_editor_map_view_get_atlas_outline:
 * @x: (out) (optional): left edge of the outline, cells
 * @y: (out) (optional): top edge
 * @width: (out) (optional): its width
 * @height: (out) (optional): its height
 *
 * Returns: whether an Atlas outline is shown
 */
gboolean
terrain_editor_map_view_get_atlas_outline (TerrainEditorMapView *self,
                                           double               *x,
                                           double               *y,
                                           double               *width,
                                           double               *height)
{
  double x0, y0, x1, y1;

  g_return_val_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self), FALSE);

  if (!self->outline_visible || !self->have_atlas_extent || self->texture == NULL)
    return FALSE;
  atlas_to_picture (self, self->outline.min[0], self->outline.min[1], &x0, &y0);
  atlas_to_picture (self, self->outline.max[0], self->outline.max[1], &x1, &y1);
  if (x != NULL)
    *x = MIN (x0, x1);
  if (y != NULL)
    *y = MIN (y0, y1);
  if (width != NULL)
    *width = fabs (x1 - x0);
  if (height != NULL)
    *height = fabs (y1 - y0);
  return TRUE;
}

/**
 * terrain_editor_map_view_set_atlas_outline:
 * @box: (nullable): what to outline, Atlas world units (its X and Y
 *   extent), or %NULL for nothing
 */
void
terrain_editor_map_view_set_atlas_outline (TerrainEditorMapView  *self,
                                           const TerrainAtlasBox *box)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  if (box == NULL && !self->outline_visible)
    return;
  self->outline_visible = box != NULL;
  if (box != NULL)
    self->outline = *box;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
terrain_editor_map_view_snapshot (GtkWidget   *widget,
                                  GtkSnapshot *snapshot)
{
  TerrainEditorMapView *self = TERRAIN_EDITOR_MAP_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  double h = map_view_hvalue (self), v = map_view_vvalue (self);
  TerrainTntMap *map = get_tnt (self);
  double scale, unit;
  cairo_t *cr;
  guint x0, y0, x1, y1;

  if (self->texture == NULL)
    {
      if (self->message != NULL)
        {
          PangoLayout *layout = gtk_widget_create_pango_layout (widget, self->message);
          int lw, lh;

          pango_layout_set_width (layout, MAX (1, width - 48) * PANGO_SCALE);
          pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
          pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
          pango_layout_get_pixel_size (layout, &lw, &lh);
          gtk_snapshot_save (snapshot);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (24, (height - lh) / 2.0));
          gtk_snapshot_append_layout (snapshot, layout, &(GdkRGBA) { 0.5, 0.5, 0.5, 1 });
          gtk_snapshot_restore (snapshot);
          g_object_unref (layout);
        }
      return;
    }

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gtk_snapshot_append_texture (snapshot, self->texture,
                               &GRAPHENE_RECT_INIT (-h, -v,
                                                    self->map_width * self->zoom,
                                                    self->map_height * self->zoom));
  ensure_water (self);
  if (self->water != NULL)
    gtk_snapshot_append_texture (snapshot, self->water,
                                 &GRAPHENE_RECT_INIT (-h, -v, self->map_width * self->zoom,
                                                      self->map_height * self->zoom));

  /* Overlays in cell units, over the visible cells only. */
  scale = self->zoom * self->cell_pixels;
  if (map != NULL && self->show_contours && scale < 2.0)
    map_view_snapshot_contours (self, snapshot, map, h, v);
  if (map != NULL && self->show_features)
    map_view_snapshot_sprites (self, snapshot, map, h, v, scale, width, height);
  map_view_snapshot_preview_texture (self, snapshot, h, v, scale);
  unit = 1.0 / scale;
  x0 = (guint) MAX (0, floor (h / scale));
  y0 = (guint) MAX (0, floor (v / scale));
  x1 = (guint) MIN (self->map_width / self->cell_pixels, ceil ((h + width) / scale));
  y1 = (guint) MIN (self->map_height / self->cell_pixels, ceil ((v + height) / scale));
  /* A resize (or its undo) changes the map before the idle that draws its
   * picture again: no cell past the map's edge now. */
  if (map != NULL)
    {
      x1 = MIN (x1, terrain_tnt_map_get_width (map));
      y1 = MIN (y1, terrain_tnt_map_get_height (map));
    }

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_translate (cr, -h, -v);
  cairo_scale (cr, scale, scale);
  cairo_set_line_width (cr, unit);

  if (map != NULL && x1 > x0 && y1 > y0)
    {
      /* Voids cost a cell read each: skip them when cells are smaller
       * than a pixel and the picture would be noise; contours are a
       * texture there (map_view_snapshot_contours()). */
      if (self->show_voids && scale >= 1.0)
        map_view_draw_voids (self, cr, map, x0, y0, x1, y1);
      if (self->show_contours && scale >= 2.0)
        map_view_draw_contours (self, cr, map, x0, y0, x1, y1);
      if (self->show_grid && scale >= 4.0)
        map_view_draw_grid (self, cr, x0, y0, x1, y1);
      if (self->show_features)
        map_view_draw_features (self, cr, map, unit, x0, y0, x1, y1);
      if (self->selection_visible)
        map_view_draw_selection (self, cr, map, unit);
    }
  if (self->show_start_positions)
    map_view_draw_start_positions (self, cr, unit);

  map_view_draw_previews (self, cr, map, unit);

  cairo_destroy (cr);

  /* The progress while the picture is made: a note over the stand-in. */
  if (self->coarse)
    {
      PangoLayout *layout =
        gtk_widget_create_pango_layout (widget, self->message != NULL ? self->message
                                                                      : _("Drawing the map’s tiles…"));
      int lw, lh;
      GskRoundedRect pill;

      pango_layout_get_pixel_size (layout, &lw, &lh);
      gsk_rounded_rect_init_from_rect (&pill, &GRAPHENE_RECT_INIT ((width - lw) / 2.0 - 12, 12, lw + 24, lh + 12),
                                       (lh + 12) / 2.0);
      gtk_snapshot_push_rounded_clip (snapshot, &pill);
      gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 0, 0, 0, 0.7 }, &pill.bounds);
      gtk_snapshot_pop (snapshot);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((width - lw) / 2.0, 18));
      gtk_snapshot_append_layout (snapshot, layout, &(GdkRGBA) { 1, 1, 1, 1 });
      gtk_snapshot_restore (snapshot);
      g_object_unref (layout);
    }
  gtk_snapshot_pop (snapshot);
}

static void
terrain_editor_map_view_measure (GtkWidget      *widget,
                                 GtkOrientation  orientation,
                                 int             for_size,
                                 int            *minimum,
                                 int            *natural,
                                 int            *minimum_baseline,
                                 int            *natural_baseline)
{
  *minimum = 64;
  *natural = 480;
}

static void
terrain_editor_map_view_size_allocate (GtkWidget *widget,
                                       int        width,
                                       int        height,
                                       int        baseline)
{
  TerrainEditorMapView *self = TERRAIN_EDITOR_MAP_VIEW (widget);

  if (self->fit_pending)
    self->fit_pending = !map_view_apply_fit (self);
  map_view_update_adjustments (self);
}

/* ------------------------------------------------------------------------ */
/* Setters                                                                  */

void
terrain_editor_map_view_set_document (TerrainEditorMapView *self,
                                      TerrainDocument      *document)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  if (self->document == document)
    return;

  if (self->document != NULL)
    {
      g_clear_signal_handler (&self->cells_changed_id, self->document);
      g_clear_signal_handler (&self->tiles_changed_id, self->document);
      g_clear_signal_handler (&self->sea_level_id, self->document);
    }
  g_set_object (&self->document, document);
  invalidate_features (self);
  map_view_check_selection (self);
  self->outline_visible = FALSE;
  if (TERRAIN_IS_TNT_MAP (document))
    {
      self->cells_changed_id = g_signal_connect_swapped (document, "cells-changed",
                                                         G_CALLBACK (on_cells_changed), self);
      self->tiles_changed_id = g_signal_connect_swapped (document, "tiles-changed",
                                                         G_CALLBACK (queue_rerender), self);
      self->sea_level_id = g_signal_connect_swapped (document, "notify::sea-level",
                                                     G_CALLBACK (on_sea_level_changed), self);
    }
  rerender (self);
  terrain_editor_map_view_zoom_to_fit (self);
}

TerrainDocument *
terrain_editor_map_view_get_document (TerrainEditorMapView *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self), NULL);
  return self->document;
}

/* What the view says instead of a picture (the file has none, or needs a
 * palette), or %NULL when it shows one. */
/**
 * terrain_editor_map_view_get_picture:
 * @self: a map view
 *
 * Whether the view shows the document's picture, a coarse one while that
 * is made, or none.
 *
 * Returns: what the view shows
 */
TerrainEditorMapPicture
terrain_editor_map_view_get_picture (TerrainEditorMapView *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self), TERRAIN_EDITOR_MAP_PICTURE_NONE);

  if (self->texture == NULL)
    return TERRAIN_EDITOR_MAP_PICTURE_NONE;
  return self->coarse ? TERRAIN_EDITOR_MAP_PICTURE_COARSE : TERRAIN_EDITOR_MAP_PICTURE_FULL;
}

const char *
terrain_editor_map_view_get_message (TerrainEditorMapView *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self), NULL);
  return self->message;
}

void
terrain_editor_map_view_set_palette (TerrainEditorMapView *self,
                                     TerrainPalette       *palette)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  if (self->palette == palette)
    return;
  g_clear_pointer (&self->palette, terrain_palette_unref);
  if (palette != NULL)
    self->palette = terrain_palette_ref (palette);
  if (self->document != NULL)
    {
      /* The picture changes size (16 pixels a cell with a palette, one
       * without): the old zoom would show a corner of it. */
      rerender (self);
      terrain_editor_map_view_zoom_to_fit (self);
    }
}

void
terrain_editor_map_view_set_catalog (TerrainEditorMapView  *self,
                                     TerrainFeatureCatalog *catalog)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  if (g_set_object (&self->catalog, catalog))
    {
      invalidate_features (self);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

TerrainOtaFile *
terrain_editor_map_view_get_ota (TerrainEditorMapView *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self), NULL);
  return self->ota;
}

void
terrain_editor_map_view_set_ota (TerrainEditorMapView *self,
                                 TerrainOtaFile       *ota)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  if (g_set_object (&self->ota, ota))
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static gboolean *
flag_for_prop (TerrainEditorMapView *self,
               guint                 prop_id)
{
  switch (prop_id)
    {
    case PROP_SHOW_GRID: return &self->show_grid;
    case PROP_SHOW_FEATURES: return &self->show_features;
    case PROP_SHOW_CONTOURS: return &self->show_contours;
    case PROP_SHOW_VOIDS: return &self->show_voids;
    case PROP_SHOW_START_POSITIONS: return &self->show_start_positions;
    default: return NULL;
    }
}

static void
terrain_editor_map_view_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  TerrainEditorMapView *self = TERRAIN_EDITOR_MAP_VIEW (object);
  gboolean *flag = flag_for_prop (self, prop_id);

  if (flag != NULL)
    {
      g_value_set_boolean (value, *flag);
      return;
    }

  switch (prop_id)
    {
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_editor_map_view_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  TerrainEditorMapView *self = TERRAIN_EDITOR_MAP_VIEW (object);
  gboolean *flag = flag_for_prop (self, prop_id);

  if (flag != NULL)
    {
      if (*flag != g_value_get_boolean (value))
        {
          *flag = g_value_get_boolean (value);
          gtk_widget_queue_draw (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      return;
    }

  switch (prop_id)
    {
    case PROP_ZOOM:
      terrain_editor_map_view_set_zoom (self, g_value_get_double (value));
      break;
    case PROP_HADJUSTMENT:
      map_view_set_adjustment (self, &self->hadjustment, g_value_get_object (value));
      break;
    case PROP_VADJUSTMENT:
      map_view_set_adjustment (self, &self->vadjustment, g_value_get_object (value));
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_editor_map_view_dispose (GObject *object)
{
  TerrainEditorMapView *self = TERRAIN_EDITOR_MAP_VIEW (object);

  g_clear_handle_id (&self->rerender_id, g_source_remove);
  self->render_generation++;
  if (self->render_cancellable != NULL)
    g_cancellable_cancel (self->render_cancellable);
  g_clear_object (&self->render_cancellable);
  if (self->document != NULL)
    {
      g_clear_signal_handler (&self->cells_changed_id, self->document);
      g_clear_signal_handler (&self->tiles_changed_id, self->document);
      g_clear_signal_handler (&self->sea_level_id, self->document);
    }
  g_clear_object (&self->document);
  g_clear_pointer (&self->palette, terrain_palette_unref);
  g_clear_object (&self->catalog);
  map_view_clear_sprites (self);
  g_clear_object (&self->ota);
  g_clear_object (&self->texture);
  g_clear_object (&self->rect_texture);
  invalidate_features (self);
  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->hadjustment, map_view_on_adjustment_changed, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->vadjustment, map_view_on_adjustment_changed, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);

  G_OBJECT_CLASS (terrain_editor_map_view_parent_class)->dispose (object);
}

static void
terrain_editor_map_view_finalize (GObject *object)
{
  TerrainEditorMapView *self = TERRAIN_EDITOR_MAP_VIEW (object);

  g_free (self->message);
  g_free (self->placement_name);

  G_OBJECT_CLASS (terrain_editor_map_view_parent_class)->finalize (object);
}

static void
terrain_editor_map_view_class_init (TerrainEditorMapViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = terrain_editor_map_view_get_property;
  object_class->set_property = terrain_editor_map_view_set_property;
  object_class->dispose = terrain_editor_map_view_dispose;
  object_class->finalize = terrain_editor_map_view_finalize;

  widget_class->snapshot = terrain_editor_map_view_snapshot;
  widget_class->measure = terrain_editor_map_view_measure;
  widget_class->size_allocate = terrain_editor_map_view_size_allocate;

  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL, MIN_ZOOM, MAX_ZOOM, 1.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_GRID] =
    g_param_spec_boolean ("show-grid", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_FEATURES] =
    g_param_spec_boolean ("show-features", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_CONTOURS] =
    g_param_spec_boolean ("show-contours", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_VOIDS] =
    g_param_spec_boolean ("show-voids", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_START_POSITIONS] =
    g_param_spec_boolean ("show-start-positions", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  /**
   * TerrainEditorMapView::cell-event:
   * @self: the view
   * @phase: a #TerrainEditorMapPhase
   * @x: pointer position in map cells (fractional)
   * @y: pointer position in map cells
   * @button: the mouse button, 0 for hover
   * @state: the modifier state
   *
   * Reports pointer activity over the map, for the tools.
   */
  signals[CELL_EVENT] =
    g_signal_new ("cell-event",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 5, G_TYPE_INT, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_UINT,
                  GDK_TYPE_MODIFIER_TYPE);

  /**
   * TerrainEditorMapView::selection-changed:
   * @self: the view
   *
   * The selected feature changed: another one, none, or the selection
   * dropped because an edit or undo took its feature away.
   */
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_css_name (widget_class, "terrain-map-view");
}

static void
terrain_editor_map_view_init (TerrainEditorMapView *self)
{
  self->zoom = 1.0;
  self->cell_pixels = TERRAIN_TNT_CELL_PIXELS;
  self->texture_scale = 1.0;
  self->show_features = TRUE;
  self->show_voids = TRUE;
  self->show_start_positions = TRUE;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  map_view_init_input (self);
}

GtkWidget *
terrain_editor_map_view_new (void)
{
  return g_object_new (TERRAIN_EDITOR_TYPE_MAP_VIEW, NULL);
}
