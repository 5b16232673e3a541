/* terrain-editor-gl-view-input.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The 3D view's camera (an orbit around a target on the map), picking a
 * map position by a ray cast, and pointer and keyboard input.
 */

#include "config.h"

#include "terrain-editor-gl-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

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
  return gl_view_terrain_height_at (self, self->target_x, self->target_y);
}

void
gl_view_compute_view_proj (TerrainEditorGlView *self,
                   int                  width,
                   int                  height,
                   float               *out)
{
  double forward[3], right[3], up[3], world_up[3] = { 0, 1, 0 };
  double target[3] = { self->target_x, target_height (self), self->target_y };
  double extent = MAX (MAX (gl_view_map_width (self), gl_view_map_height (self)), 16.0);
  float view[16], proj[16];

  camera_forward (self, forward);
  for (int i = 0; i < 3; i++)
    self->eye[i] = target[i] - forward[i] * self->distance;
  gl_view_vec3_cross (right, forward, world_up);
  gl_view_vec3_normalize (right);
  gl_view_vec3_cross (up, right, forward);

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

  gl_view_mat4_perspective (proj, FOV_Y, (double) MAX (width, 1) / MAX (height, 1),
                    MAX (self->distance * 0.01, 0.05), self->distance * 2 + extent * 2);
  gl_view_mat4_multiply (out, proj, view);
}

void
gl_view_clamp_camera (TerrainEditorGlView *self)
{
  double extent = MAX (MAX (gl_view_map_width (self), gl_view_map_height (self)), 16.0);

  self->pitch = CLAMP (self->pitch, 5.0 * G_PI / 180.0, 89.5 * G_PI / 180.0);
  self->distance = CLAMP (self->distance, 2.0, extent * 3);
  self->target_x = CLAMP (self->target_x, 0, gl_view_map_width (self));
  self->target_y = CLAMP (self->target_y, 0, gl_view_map_height (self));
}

void
terrain_editor_gl_view_reset_camera (TerrainEditorGlView *self)
{
  double w, h;

  g_return_if_fail (TERRAIN_EDITOR_IS_GL_VIEW (self));

  w = gl_view_map_width (self);
  h = gl_view_map_height (self);
  self->target_x = w / 2;
  self->target_y = h / 2;
  self->yaw = 0;
  self->pitch = 50.0 * G_PI / 180.0;
  /* Fit the map's depth and width in the field of view. */
  self->distance = MAX (MAX (w, h) * 0.95, 16.0);
  gl_view_clamp_camera (self);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
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

  gl_view_compute_view_proj (self, width, height, self->view_proj);
  camera_forward (self, forward);
  gl_view_vec3_cross (right, forward, world_up);
  gl_view_vec3_normalize (right);
  gl_view_vec3_cross (up, right, forward);

  aspect = (double) width / height;
  t_half = tan (FOV_Y / 2.0);
  ndc_x = 2.0 * widget_x / width - 1.0;
  ndc_y = 1.0 - 2.0 * widget_y / height;
  for (int i = 0; i < 3; i++)
    dir[i] = forward[i] + right[i] * ndc_x * t_half * aspect + up[i] * ndc_y * t_half;
  gl_view_vec3_normalize (dir);

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
  w = gl_view_map_width (self);
  h = gl_view_map_height (self);
  t_step = 0.5;
  t_max = self->distance * 4 + (w + h) * 2;
  prev_t = 0;
  for (t = 0; t < t_max; t += t_step)
    {
      double x = self->eye[0] + dir[0] * t;
      double y = self->eye[1] + dir[1] * t;
      double z = self->eye[2] + dir[2] * t;

      if (y < gl_view_terrain_height_at (self, x, z) && x >= 0 && z >= 0 && x <= w && z <= h)
        {
          double lo = prev_t, hi = t;

          for (int i = 0; i < 20; i++)
            {
              double mid = (lo + hi) / 2;
              double mx = self->eye[0] + dir[0] * mid;
              double mz = self->eye[2] + dir[2] * mid;

              if (self->eye[1] + dir[1] * mid < gl_view_terrain_height_at (self, mx, mz))
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
    g_signal_emit_by_name (self, "cell-activated", mx, my, button);
}

void
gl_view_orbit (TerrainEditorGlView *self,
       double               dx,
       double               dy)
{
  self->yaw -= dx * 0.008;
  self->pitch += dy * 0.008;
  gl_view_clamp_camera (self);
  gl_view_camera_moved (self);
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
  gl_view_clamp_camera (self);
  gl_view_camera_moved (self);
}

static void
zoom (TerrainEditorGlView *self,
      double               factor)
{
  self->distance *= factor;
  gl_view_clamp_camera (self);
  gl_view_camera_moved (self);
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
    gl_view_orbit (self, dx, dy);
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
      gl_view_orbit (self, -12, 0);
      return TRUE;
    case GDK_KEY_e: case GDK_KEY_E:
      gl_view_orbit (self, 12, 0);
      return TRUE;
    case GDK_KEY_Page_Up:
      gl_view_orbit (self, 0, 8);
      return TRUE;
    case GDK_KEY_Page_Down:
      gl_view_orbit (self, 0, -8);
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

void
gl_view_init_input (TerrainEditorGlView *self)
{
  GtkGesture *drag;
  GtkEventController *controller;

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
