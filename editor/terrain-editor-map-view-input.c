/* terrain-editor-map-view-input.c: scrolling, zoom and pointer input of
 * the 2D map view
 *
 * The GtkScrollable adjustments, zooming (about a point, to fit), the map
 * position under a point, and the drag, motion and Ctrl+scroll controllers
 * that report cell events. Part of TerrainEditorMapView
 * (terrain-editor-map-view-private.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-map-view-private.h"

#include <math.h>


/* ------------------------------------------------------------------------ */
/* Scrolling and zoom                                                       */

static void
configure_adjustment (GtkAdjustment *adjustment,
                      double         content,
                      double         page)
{
  double value;

  if (adjustment == NULL)
    return;

  value = gtk_adjustment_get_value (adjustment);
  if (content < page)
    value = -(page - content) / 2; /* centre a small map */
  else
    value = CLAMP (value, 0, content - page);
  gtk_adjustment_configure (adjustment, value, MIN (0, -(page - content) / 2),
                            MAX (content, page), page * 0.1, page * 0.9, page);
}

void
map_view_update_adjustments (TerrainEditorMapView *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));

  configure_adjustment (self->hadjustment, self->map_width * self->zoom, width);
  configure_adjustment (self->vadjustment, self->map_height * self->zoom, height);
}

double
map_view_hvalue (TerrainEditorMapView *self)
{
  return self->hadjustment != NULL ? gtk_adjustment_get_value (self->hadjustment) : 0;
}

double
map_view_vvalue (TerrainEditorMapView *self)
{
  return self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;
}

/**
 * terrain_editor_map_view_cell_at:
 * @self: a map view
 * @wx: widget X, pixels
 * @wy: widget Y, pixels
 * @x: (out): map X under the point, cell units (fractional)
 * @y: (out): map Y under the point, cell units
 *
 * The map position drawn at a point of the view, whatever the picture
 * (16 pixels a cell with a palette, one without, an Atlas picture) and the
 * zoom. Every pointer event the view reports goes through this.
 */
void
terrain_editor_map_view_cell_at (TerrainEditorMapView *self,
                                 double                wx,
                                 double                wy,
                                 double               *x,
                                 double               *y)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  *x = (wx + map_view_hvalue (self)) / self->zoom / self->cell_pixels;
  *y = (wy + map_view_vvalue (self)) / self->zoom / self->cell_pixels;
}

static void
zoom_around (TerrainEditorMapView *self,
             double                zoom,
             double                wx,
             double                wy)
{
  double mx, my;

  zoom = CLAMP (zoom, MIN_ZOOM, MAX_ZOOM / self->cell_pixels);
  if (zoom == self->zoom)
    return;

  mx = (wx + map_view_hvalue (self)) / self->zoom;
  my = (wy + map_view_vvalue (self)) / self->zoom;
  self->zoom = zoom;
  map_view_update_adjustments (self);
  if (self->hadjustment != NULL && self->map_width * zoom > gtk_widget_get_width (GTK_WIDGET (self)))
    gtk_adjustment_set_value (self->hadjustment, mx * zoom - wx);
  if (self->vadjustment != NULL && self->map_height * zoom > gtk_widget_get_height (GTK_WIDGET (self)))
    gtk_adjustment_set_value (self->vadjustment, my * zoom - wy);
  map_view_notify_zoom (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

double
terrain_editor_map_view_get_zoom (TerrainEditorMapView *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self), 1.0);
  return self->zoom;
}

void
terrain_editor_map_view_set_zoom (TerrainEditorMapView *self,
                                  double                zoom)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  self->fit_pending = FALSE;
  zoom_around (self, zoom,
               gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
               gtk_widget_get_height (GTK_WIDGET (self)) / 2.0);
}

gboolean
map_view_apply_fit (TerrainEditorMapView *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));

  if (width <= 1 || height <= 1 || self->map_width <= 0)
    return FALSE;

  self->zoom = CLAMP (MIN (width / self->map_width, height / self->map_height), MIN_ZOOM,
                      MAX_ZOOM / self->cell_pixels);
  map_view_update_adjustments (self);
  map_view_notify_zoom (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

void
terrain_editor_map_view_zoom_to_fit (TerrainEditorMapView *self)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  /* Before the first allocation there is nothing to fit into yet. */
  self->fit_pending = !map_view_apply_fit (self);
}

void
terrain_editor_map_view_center_on (TerrainEditorMapView *self,
                                   double                x,
                                   double                y)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  if (self->hadjustment != NULL)
    gtk_adjustment_set_value (self->hadjustment,
                              x * self->cell_pixels * self->zoom
                              - gtk_widget_get_width (GTK_WIDGET (self)) / 2.0);
  if (self->vadjustment != NULL)
    gtk_adjustment_set_value (self->vadjustment,
                              y * self->cell_pixels * self->zoom
                              - gtk_widget_get_height (GTK_WIDGET (self)) / 2.0);
}

void
map_view_on_adjustment_changed (TerrainEditorMapView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
map_view_set_adjustment (TerrainEditorMapView  *self,
                         GtkAdjustment        **slot,
                         GtkAdjustment         *adjustment)
{
  if (*slot == adjustment && adjustment != NULL)
    return;

  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_func (*slot, map_view_on_adjustment_changed, self);
      g_clear_object (slot);
    }
  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  *slot = g_object_ref_sink (adjustment);
  g_signal_connect_swapped (adjustment, "value-changed",
                            G_CALLBACK (map_view_on_adjustment_changed), self);
  map_view_update_adjustments (self);
}

/* ------------------------------------------------------------------------ */
/* Input                                                                    */

static void
emit_cell_event (TerrainEditorMapView  *self,
                 TerrainEditorMapPhase  phase,
                 double                 wx,
                 double                 wy,
                 guint                  button,
                 GdkModifierType        state)
{
  double x, y;

  if (self->map_width <= 0)
    return;
  terrain_editor_map_view_cell_at (self, wx, wy, &x, &y);
  map_view_signal_cell_event (self, phase, x, y, button, state);
}

static void
on_drag_begin (GtkGestureDrag       *gesture,
               double                x,
               double                y,
               TerrainEditorMapView *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (button == GDK_BUTTON_MIDDLE)
    {
      self->panning = TRUE;
      self->pan_h = map_view_hvalue (self);
      self->pan_v = map_view_vvalue (self);
      return;
    }
  emit_cell_event (self, TERRAIN_EDITOR_MAP_PRESS, x, y, button, state);
}

static void
on_drag_update (GtkGestureDrag       *gesture,
                double                dx,
                double                dy,
                TerrainEditorMapView *self)
{
  double sx, sy;
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  if (self->panning)
    {
      gtk_adjustment_set_value (self->hadjustment, self->pan_h - dx);
      gtk_adjustment_set_value (self->vadjustment, self->pan_v - dy);
      return;
    }
  gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
  emit_cell_event (self, TERRAIN_EDITOR_MAP_DRAG, sx + dx, sy + dy, button, state);
}

static void
on_drag_end (GtkGestureDrag       *gesture,
             double                dx,
             double                dy,
             TerrainEditorMapView *self)
{
  double sx, sy;
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  if (self->panning)
    {
      self->panning = FALSE;
      return;
    }
  gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
  emit_cell_event (self, TERRAIN_EDITOR_MAP_RELEASE, sx + dx, sy + dy, button, state);
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           TerrainEditorMapView     *self)
{
  self->pointer_inside = TRUE;
  self->pointer_x = x;
  self->pointer_y = y;
  emit_cell_event (self, TERRAIN_EDITOR_MAP_HOVER, x, y, 0, 0);
}

static void
on_leave (GtkEventControllerMotion *controller,
          TerrainEditorMapView     *self)
{
  self->pointer_inside = FALSE;
  if (self->map_width > 0)
    map_view_signal_cell_event (self, TERRAIN_EDITOR_MAP_LEAVE, -1.0, -1.0, 0u, 0);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           TerrainEditorMapView     *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if ((state & GDK_CONTROL_MASK) == 0)
    return FALSE;

  /* About the pointer (the motion controller's last position: a scroll
   * event's own position is the surface's), else the centre. */
  if (self->pointer_inside)
    terrain_editor_map_view_zoom_at (self, self->zoom * pow (1.2, -dy), self->pointer_x, self->pointer_y);
  else
    terrain_editor_map_view_zoom_at (self, self->zoom * pow (1.2, -dy), gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
                                     gtk_widget_get_height (GTK_WIDGET (self)) / 2.0);
  return TRUE;
}

/**
 * terrain_editor_map_view_zoom_at:
 * @self: a map view
 * @zoom: the new zoom (screen pixels per picture pixel), clamped
 * @wx: widget X that keeps showing the same map position
 * @wy: widget Y
 *
 * Zooms about a point of the view, as Ctrl+scroll does about the pointer:
 * the map position under (@wx, @wy) stays there (when the map is larger
 * than the view; a smaller map is centred).
 */
void
terrain_editor_map_view_zoom_at (TerrainEditorMapView *self,
                                 double                zoom,
                                 double                wx,
                                 double                wy)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  self->fit_pending = FALSE;
  zoom_around (self, zoom, wx, wy);
}

/* The pointer and scroll controllers (terrain_editor_map_view_init). */
void
map_view_init_input (TerrainEditorMapView *self)
{
  GtkGesture *drag;
  GtkEventController *controller;

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
