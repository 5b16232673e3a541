/* terrain-editor-gl-view-render.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Drawing a frame of the 3D view: the chunk list chosen by projected
 * error, water, markers, the Atlas renderer with its level overlays and
 * readout, and the reduced-resolution frames while the camera moves.
 */

#include "config.h"

#include "terrain-editor-gl-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------------
 * Matrices (column-major, as GL wants them)
 */

void
gl_view_mat4_multiply (float       *out,
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

void
gl_view_mat4_perspective (float  *m,
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

void
gl_view_vec3_normalize (double *v)
{
  double l = sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);

  if (l > 0)
    {
      v[0] /= l;
      v[1] /= l;
      v[2] /= l;
    }
}

void
gl_view_vec3_cross (double       *out,
            const double *a,
            const double *b)
{
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* ------------------------------------------------------------------------
 * Drawing
 */

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
  g_object_notify (G_OBJECT (self), "atlas-readout");
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
void
gl_view_update_readout (TerrainEditorGlView *self,
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

  gl_view_compute_view_proj (self, width, height, self->view_proj);
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

void
gl_view_draw_scene (TerrainEditorGlView *self,
            int                  width,
            int                  height)
{
  double pixels_per_unit_at_1 = height / (2.0 * tan (FOV_Y / 2.0));
  double sea = gl_view_sea_level (self);

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

  gl_view_apply_pending_uploads (self);
  gl_view_compute_view_proj (self, width, height, self->view_proj);

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
  glUniform2f (self->u.map_size, (float) gl_view_map_width (self), (float) gl_view_map_height (self));
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
      float w = (float) gl_view_map_width (self), h = (float) gl_view_map_height (self), y = (float) sea;
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

void
gl_view_delete_lowres_target (TerrainEditorGlView *self)
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

  gl_view_delete_lowres_target (self);
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
        gl_view_delete_lowres_target (self);
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
void
gl_view_camera_moved (TerrainEditorGlView *self)
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

gboolean
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
      gl_view_draw_scene (self, self->lowres_width, self->lowres_height);
      glBindFramebuffer (GL_READ_FRAMEBUFFER, self->lowres_fbo);
      glBindFramebuffer (GL_DRAW_FRAMEBUFFER, (GLuint) target);
      glBlitFramebuffer (0, 0, self->lowres_width, self->lowres_height, 0, 0, width, height,
                         GL_COLOR_BUFFER_BIT, GL_LINEAR);
      glBindFramebuffer (GL_FRAMEBUFFER, (GLuint) target);
    }
  else
    gl_view_draw_scene (self, width, height);
  gl_view_check_gl_error (self, _("drawing the terrain"));
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
    gl_view_update_readout (self, FALSE);

  return TRUE;
}
