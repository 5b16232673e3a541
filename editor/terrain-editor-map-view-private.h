/* terrain-editor-map-view-private.h
 *
 * The map view's instance structure and what its files share:
 * terrain-editor-map-view.c (the picture, drawing, the class), -input.c
 * (scrolling, zoom, pointer input),
 * -overlays.c (the Cairo overlays in map cell units), -sprites.c (features
 * drawn as their GAF sprites), -contours.c (height contours), -placement.c (where a feature would go)
 * and -selection.c (the selected feature).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "terrain-editor-map-view.h"

G_BEGIN_DECLS

#define MIN_ZOOM (1.0 / 64.0)
/* At most this many screen pixels a cell (a map pixel for pictures other
 * than TNT maps), whatever the picture's pixels a cell. */
#define MAX_ZOOM 256.0

typedef struct _MapViewSprite MapViewSprite;

struct _TerrainEditorMapView
{
  GtkWidget parent_instance;

  TerrainDocument *document;
  TerrainPalette *palette;
  TerrainFeatureCatalog *catalog;
  TerrainOtaFile *ota;
  guint ota_schema;       /* the schema whose start positions are drawn */
  /* The features' sprites, and their textures by folded feature name
   * (NULL values: no sprite), terrain-editor-map-view-sprites.c. */
  TerrainFeatureSprites *sprites;
  GHashTable *sprite_textures;
  gulong cells_changed_id;
  gulong tiles_changed_id;
  gulong sea_level_id;

  /* Underwater cells tinted by depth: one texel a cell over the picture,
   * NULL when stale or when nothing is under water. */
  GdkTexture *water;
  gboolean water_valid;
  /* Contours below 2 pixels a cell (-contours.c): a texel a cell, of this
   * interval and line thickness in cells; NULL when stale. */
  GdkTexture *contours;
  guint contours_interval;
  guint contours_thickness;

  GdkTexture *texture;
  gboolean coarse;        /* the texture is a stand-in while the picture is made */
  /* A picture made in a worker thread: the document and palette the
   * texture shows, and the render under way (cancelled by the next). */
  gpointer picture_document;
  gpointer picture_palette;
  GCancellable *render_cancellable;
  guint render_generation;
  double texture_scale;   /* map pixels per texture pixel */
  double cell_pixels;     /* map pixels per cell */
  double map_width;       /* in map pixels */
  double map_height;
  char *message;
  guint rerender_id;

  GArray *placements;     /* TerrainTntPlacement, NULL when stale */
  guint16 *occupancy;     /* runtime occupancy, NULL when stale */
  GHashTable *overlapping; /* anchors (y << 16 | x) of overlapping features */

  double zoom;
  GtkAdjustment *hadjustment;
  GtkAdjustment *vadjustment;
  GtkScrollablePolicy hscroll_policy;
  GtkScrollablePolicy vscroll_policy;
  gboolean fit_pending;

  gboolean show_grid;
  gboolean show_features;
  gboolean show_contours;
  gboolean show_voids;
  gboolean show_start_positions;

  gboolean brush_visible;
  double brush_x, brush_y, brush_radius;
  gboolean rect_visible;
  int rect_x, rect_y, rect_width, rect_height;
  gboolean rect_blocked;
  /* Drawn translucent in the previewed rectangle (the section stamped). */
  GdkTexture *rect_texture;
  /* The Features tool's placement preview (-placement.c): the feature's
   * name (NULL: none), its anchor and the anchor of the one moved. */
  char *placement_name;
  int placement_x, placement_y;
  int placement_ignore_x, placement_ignore_y;
  gboolean highlight_visible;
  int highlight_x, highlight_y;
  /* The selected feature's anchor cell. */
  gboolean selection_visible;
  int selection_x, selection_y;

  /* Atlas files: the terrain's extent (world units) and the outline. */
  gboolean have_atlas_extent;
  TerrainAtlasBox atlas_extent;
  gboolean outline_visible;
  TerrainAtlasBox outline;

  double pan_h, pan_v;
  gboolean panning;

  /* The pointer over the view (widget coordinates), for Ctrl+scroll. */
  gboolean pointer_inside;
  double pointer_x, pointer_y;
};

/* A footprint is drawn at least this many screen pixels wide, so that a
 * 1x1 tree still shows at Fit. */
#define MIN_FOOTPRINT_PIXELS 3.0

/* terrain-editor-map-view.c */
void     map_view_emit_selection_changed (TerrainEditorMapView *self);
gboolean map_view_catalog_footprint (const char *name,
                                     guint      *footprint_x,
                                     guint      *footprint_z,
                                     gpointer    user_data);
void     map_view_ensure_features   (TerrainEditorMapView *self);

/* terrain-editor-map-view-overlays.c: each draws in map cell units (the
 * Cairo context scaled so that one unit is a cell; @unit is a screen
 * pixel in cells) over the visible cells x0..x1, y0..y1. */
void map_view_draw_features        (TerrainEditorMapView *self,
                                    cairo_t              *cr,
                                    TerrainTntMap        *map,
                                    double                unit,
                                    guint x0, guint y0, guint x1, guint y1);
void map_view_draw_voids           (TerrainEditorMapView *self,
                                    cairo_t              *cr,
                                    TerrainTntMap        *map,
                                    guint x0, guint y0, guint x1, guint y1);
void map_view_draw_grid            (TerrainEditorMapView *self,
                                    cairo_t              *cr,
                                    guint x0, guint y0, guint x1, guint y1);
void map_view_draw_start_positions (TerrainEditorMapView *self,
                                    cairo_t              *cr,
                                    double                unit);
void map_view_snapshot_preview_texture (TerrainEditorMapView *self,
                                        GtkSnapshot          *snapshot,
                                        double                h,
                                        double                v,
                                        double                scale);
void map_view_draw_previews        (TerrainEditorMapView *self,
                                    cairo_t              *cr,
                                    TerrainTntMap        *map,
                                    double                unit);

/* terrain-editor-map-view-sprites.c */
const MapViewSprite *map_view_feature_sprite (TerrainEditorMapView *self,
                                              const char           *name);
void map_view_clear_sprites        (TerrainEditorMapView *self);
void map_view_snapshot_sprites     (TerrainEditorMapView *self,
                                    GtkSnapshot          *snapshot,
                                    TerrainTntMap        *map,
                                    double                h,
                                    double                v,
                                    double                scale,
                                    int                   width,
                                    int                   height);

/* terrain-editor-map-view-contours.c */
void map_view_draw_contours        (TerrainEditorMapView *self,
                                    cairo_t              *cr,
                                    TerrainTntMap        *map,
                                    guint x0, guint y0, guint x1, guint y1);
void map_view_snapshot_contours    (TerrainEditorMapView *self,
                                    GtkSnapshot          *snapshot,
                                    TerrainTntMap        *map,
                                    double                h,
                                    double                v);

/* terrain-editor-map-view.c: notify the zoom property; emit cell-event
 * (map cell units). */
void     map_view_notify_zoom         (TerrainEditorMapView  *self);
void     map_view_signal_cell_event   (TerrainEditorMapView  *self,
                                       TerrainEditorMapPhase  phase,
                                       double                 x,
                                       double                 y,
                                       guint                  button,
                                       GdkModifierType        state);

/* terrain-editor-map-view-input.c: the adjustments (set, sized to the
 * map at the zoom, their values), fitting the zoom (FALSE before the first
 * allocation), and the input controllers. */
void     map_view_update_adjustments  (TerrainEditorMapView  *self);
gboolean map_view_apply_fit           (TerrainEditorMapView  *self);
double   map_view_hvalue              (TerrainEditorMapView  *self);
double   map_view_vvalue              (TerrainEditorMapView  *self);
void     map_view_set_adjustment      (TerrainEditorMapView  *self,
                                       GtkAdjustment        **slot,
                                       GtkAdjustment         *adjustment);
void     map_view_on_adjustment_changed (TerrainEditorMapView *self);
void     map_view_init_input          (TerrainEditorMapView  *self);

/* terrain-editor-map-view-placement.c */
void map_view_draw_placement       (TerrainEditorMapView *self,
                                    cairo_t              *cr,
                                    TerrainTntMap        *map,
                                    double                unit);

/* terrain-editor-map-view-selection.c */
void map_view_check_selection      (TerrainEditorMapView *self);
void map_view_draw_selection       (TerrainEditorMapView *self,
                                    cairo_t              *cr,
                                    TerrainTntMap        *map,
                                    double                unit);

G_END_DECLS
