/* terrain-editor-gl-view.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <libterrain.h>

#include "terrain-editor-atlas-renderer.h"

G_BEGIN_DECLS

#define TERRAIN_EDITOR_TYPE_GL_VIEW (terrain_editor_gl_view_get_type ())

G_DECLARE_FINAL_TYPE (TerrainEditorGlView, terrain_editor_gl_view, TERRAIN_EDITOR, GL_VIEW, GtkGLArea)

GtkWidget    *terrain_editor_gl_view_new          (void);
void          terrain_editor_gl_view_set_document (TerrainEditorGlView  *self,
                                                   TerrainDocument      *document);
TerrainDocument *terrain_editor_gl_view_get_document (TerrainEditorGlView *self);
void          terrain_editor_gl_view_set_palette  (TerrainEditorGlView  *self,
                                                   TerrainPalette       *palette);
void          terrain_editor_gl_view_set_brush    (TerrainEditorGlView  *self,
                                                   gboolean              visible,
                                                   double                x,
                                                   double                y,
                                                   double                radius);
void          terrain_editor_gl_view_set_show_features (TerrainEditorGlView *self,
                                                        gboolean             show);
void          terrain_editor_gl_view_set_camera   (TerrainEditorGlView  *self,
                                                   double                target_x,
                                                   double                target_y,
                                                   double                yaw,
                                                   double                pitch,
                                                   double                distance);
void          terrain_editor_gl_view_get_camera   (TerrainEditorGlView  *self,
                                                   double               *target_x,
                                                   double               *target_y,
                                                   double               *yaw,
                                                   double               *pitch,
                                                   double               *distance);
void          terrain_editor_gl_view_reset_camera (TerrainEditorGlView  *self);
gboolean      terrain_editor_gl_view_pick         (TerrainEditorGlView  *self,
                                                   double                widget_x,
                                                   double                widget_y,
                                                   double               *map_x,
                                                   double               *map_y);
TerrainImage *terrain_editor_gl_view_render_image (TerrainEditorGlView  *self,
                                                   guint                 width,
                                                   guint                 height,
                                                   GError              **error);
double        terrain_editor_gl_view_get_last_render_time (TerrainEditorGlView *self);
gboolean      terrain_editor_gl_view_get_last_frame_reduced (TerrainEditorGlView *self);
gboolean      terrain_editor_gl_view_get_atlas_stats (TerrainEditorGlView     *self,
                                                      TerrainEditorAtlasStats *stats);
void          terrain_editor_gl_view_set_atlas_cache_budget (TerrainEditorGlView *self,
                                                             gsize                geometry_bytes,
                                                             gsize                texture_bytes);
void          terrain_editor_gl_view_set_show_chunk_levels (TerrainEditorGlView *self,
                                                            gboolean             show);
gboolean      terrain_editor_gl_view_get_show_chunk_levels (TerrainEditorGlView *self);
const char   *terrain_editor_gl_view_get_atlas_readout (TerrainEditorGlView *self);
char         *terrain_editor_gl_view_format_atlas_readout (const TerrainEditorAtlasStats *stats);
void          terrain_editor_gl_view_set_atlas_highlight (TerrainEditorGlView   *self,
                                                          const TerrainAtlasBox *box);
gboolean      terrain_editor_gl_view_get_atlas_highlight (TerrainEditorGlView *self,
                                                          TerrainAtlasBox     *box);
void          terrain_editor_gl_view_frame_atlas_box (TerrainEditorGlView   *self,
                                                      const TerrainAtlasBox *box);
gboolean      terrain_editor_gl_view_project      (TerrainEditorGlView  *self,
                                                   double                map_x,
                                                   double                map_y,
                                                   double                elevation,
                                                   guint                 width,
                                                   guint                 height,
                                                   double               *x,
                                                   double               *y);

G_END_DECLS
