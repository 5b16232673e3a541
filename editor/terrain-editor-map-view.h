/* terrain-editor-map-view.h: the 2D map view
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <libterrain.h>

G_BEGIN_DECLS

/**
 * TerrainEditorMapPhase:
 * @TERRAIN_EDITOR_MAP_PRESS: a button went down on the map
 * @TERRAIN_EDITOR_MAP_DRAG: the pointer moved with the button down
 * @TERRAIN_EDITOR_MAP_RELEASE: the button went up
 * @TERRAIN_EDITOR_MAP_HOVER: the pointer moved with no button down
 * @TERRAIN_EDITOR_MAP_LEAVE: the pointer left the view
 *
 * The phase of a #TerrainEditorMapView::cell-event.
 */
typedef enum
{
  TERRAIN_EDITOR_MAP_PRESS,
  TERRAIN_EDITOR_MAP_DRAG,
  TERRAIN_EDITOR_MAP_RELEASE,
  TERRAIN_EDITOR_MAP_HOVER,
  TERRAIN_EDITOR_MAP_LEAVE,
} TerrainEditorMapPhase;

/**
 * TerrainEditorMapPicture:
 * @TERRAIN_EDITOR_MAP_PICTURE_NONE: nothing drawn (no document, or it has
 *   no picture)
 * @TERRAIN_EDITOR_MAP_PICTURE_COARSE: a quick picture while the full one
 *   is made (a large TNT map's tiles averaged, one colour a tile)
 * @TERRAIN_EDITOR_MAP_PICTURE_FULL: the document's picture
 *
 * What a #TerrainEditorMapView shows.
 */
typedef enum
{
  TERRAIN_EDITOR_MAP_PICTURE_NONE,
  TERRAIN_EDITOR_MAP_PICTURE_COARSE,
  TERRAIN_EDITOR_MAP_PICTURE_FULL,
} TerrainEditorMapPicture;

#define TERRAIN_EDITOR_TYPE_MAP_VIEW (terrain_editor_map_view_get_type ())

G_DECLARE_FINAL_TYPE (TerrainEditorMapView, terrain_editor_map_view, TERRAIN_EDITOR, MAP_VIEW, GtkWidget)

GtkWidget       *terrain_editor_map_view_new              (void);
void             terrain_editor_map_view_set_document     (TerrainEditorMapView  *self,
                                                           TerrainDocument       *document);
TerrainDocument *terrain_editor_map_view_get_document     (TerrainEditorMapView  *self);
void             terrain_editor_map_view_set_palette      (TerrainEditorMapView  *self,
                                                           TerrainPalette        *palette);
void             terrain_editor_map_view_set_catalog      (TerrainEditorMapView  *self,
                                                           TerrainFeatureCatalog *catalog);
void             terrain_editor_map_view_set_sprites      (TerrainEditorMapView  *self,
                                                           TerrainFeatureSprites *sprites);
gboolean         terrain_editor_map_view_has_sprite       (TerrainEditorMapView  *self,
                                                           const char            *name);
GdkTexture      *terrain_editor_map_view_get_sprite_texture (TerrainEditorMapView *self,
                                                             const char           *name);
void             terrain_editor_map_view_set_ota          (TerrainEditorMapView  *self,
                                                           TerrainOtaFile        *ota);
TerrainOtaFile  *terrain_editor_map_view_get_ota          (TerrainEditorMapView  *self);
void             terrain_editor_map_view_set_ota_schema   (TerrainEditorMapView  *self,
                                                           guint                  schema);
double           terrain_editor_map_view_get_zoom         (TerrainEditorMapView  *self);
void             terrain_editor_map_view_set_zoom         (TerrainEditorMapView  *self,
                                                           double                 zoom);
void             terrain_editor_map_view_zoom_to_fit      (TerrainEditorMapView  *self);
void             terrain_editor_map_view_zoom_at          (TerrainEditorMapView  *self,
                                                           double                 zoom,
                                                           double                 wx,
                                                           double                 wy);
void             terrain_editor_map_view_cell_at          (TerrainEditorMapView  *self,
                                                           double                 wx,
                                                           double                 wy,
                                                           double                *x,
                                                           double                *y);
void             terrain_editor_map_view_center_on        (TerrainEditorMapView  *self,
                                                           double                 x,
                                                           double                 y);
void             terrain_editor_map_view_set_brush        (TerrainEditorMapView  *self,
                                                           gboolean               visible,
                                                           double                 x,
                                                           double                 y,
                                                           double                 radius);
void             terrain_editor_map_view_set_preview_rect (TerrainEditorMapView  *self,
                                                           gboolean               visible,
                                                           int                    x,
                                                           int                    y,
                                                           int                    width,
                                                           int                    height,
                                                           gboolean               blocked);
void             terrain_editor_map_view_set_preview_texture (TerrainEditorMapView *self,
                                                              GdkTexture           *texture);
gboolean         terrain_editor_map_view_get_preview_rect (TerrainEditorMapView  *self,
                                                           int                   *x,
                                                           int                   *y,
                                                           int                   *width,
                                                           int                   *height,
                                                           gboolean              *blocked);
guint            terrain_editor_map_view_get_contour_interval (TerrainEditorMapView *self);
void             terrain_editor_map_view_set_placement    (TerrainEditorMapView  *self,
                                                           const char            *name,
                                                           int                    x,
                                                           int                    y,
                                                           int                    ignore_x,
                                                           int                    ignore_y);
const char      *terrain_editor_map_view_get_placement    (TerrainEditorMapView  *self,
                                                           int                   *x,
                                                           int                   *y,
                                                           guint                 *n_blocked);
guint            terrain_editor_map_view_count_blocked    (TerrainEditorMapView  *self,
                                                           const char            *name,
                                                           int                    x,
                                                           int                    y,
                                                           int                    ignore_x,
                                                           int                    ignore_y);
void             terrain_editor_map_view_set_highlight    (TerrainEditorMapView  *self,
                                                           gboolean               visible,
                                                           int                    x,
                                                           int                    y);
void             terrain_editor_map_view_set_selection    (TerrainEditorMapView  *self,
                                                           gboolean               visible,
                                                           int                    x,
                                                           int                    y);
gboolean         terrain_editor_map_view_get_selection    (TerrainEditorMapView  *self,
                                                           int                   *x,
                                                           int                   *y);
void             terrain_editor_map_view_set_atlas_outline (TerrainEditorMapView  *self,
                                                            const TerrainAtlasBox *box);
gboolean         terrain_editor_map_view_get_atlas_outline (TerrainEditorMapView  *self,
                                                            double                *x,
                                                            double                *y,
                                                            double                *width,
                                                            double                *height);
const char      *terrain_editor_map_view_get_message      (TerrainEditorMapView  *self);
TerrainEditorMapPicture terrain_editor_map_view_get_picture (TerrainEditorMapView *self);
GdkTexture      *terrain_editor_map_view_get_water        (TerrainEditorMapView  *self);
gboolean         terrain_editor_map_view_get_footprint    (TerrainEditorMapView  *self,
                                                           const char            *name,
                                                           guint                 *width,
                                                           guint                 *height);

/* An RGBA8 image (not premultiplied) as a texture (full ref). */
GdkTexture      *terrain_editor_texture_new_for_image     (TerrainImage          *image);

G_END_DECLS
