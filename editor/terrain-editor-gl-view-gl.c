/* terrain-editor-gl-view-gl.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The 3D view's GL resources: shaders, the LOD vertex grids, the height,
 * tile, overview and palette textures and their uploads (whole or the
 * changed rectangle), and realizing and unrealizing the context.
 */

#include "config.h"

#include "terrain-editor-gl-view-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

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
  g_signal_emit_by_name (self, "gl-failed", message);
}

gboolean
gl_view_check_gl_error (TerrainEditorGlView *self,
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
  g_autoptr(TerrainRenderOptions) options = terrain_palette_to_render_options (self->palette);
  g_autoptr(TerrainImage) image = terrain_document_render_image (self->document, options, &error);
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
      double base = gl_view_terrain_height_at (self, cx, cz);
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

void
gl_view_apply_pending_uploads (TerrainEditorGlView *self)
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
      gl_view_check_gl_error (self, _("uploading the terrain"));
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
 * Realize / unrealize
 */

void
terrain_editor_gl_view_realize (GtkWidget *widget)
{
  TerrainEditorGlView *self = TERRAIN_EDITOR_GL_VIEW (widget);
  GtkGLArea *area = GTK_GL_AREA (widget);
  g_autoptr(GError) error = NULL;
  GdkGLContext *context;
  int major = 0, minor = 0;

  GTK_WIDGET_CLASS (g_type_class_peek (GTK_TYPE_GL_AREA))->realize (widget);

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

  if (!gl_view_check_gl_error (self, _("setting up the 3D view")))
    return;

  self->upload_all = TRUE;
  self->gl_ready = TRUE;
}

void
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
      gl_view_delete_lowres_target (self);
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

  GTK_WIDGET_CLASS (g_type_class_peek (GTK_TYPE_GL_AREA))->unrealize (widget);
}

/* GtkGLArea 4.8 asks for desktop GL only unless use-es is set, so a
 * display that offers only OpenGL ES (GDK_DEBUG=gl-gles, many embedded
 * drivers) gave no context at all: allow both and let GDK choose. The
 * shaders and the code work with either (compile_shader picks the
 * version prelude from gdk_gl_context_get_use_es). */
GdkGLContext *
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
void
terrain_editor_gl_view_size_allocate (GtkWidget *widget,
                                      int        width,
                                      int        height,
                                      int        baseline)
{
  GTK_WIDGET_CLASS (g_type_class_peek (GTK_TYPE_GL_AREA))->size_allocate (widget, width, height, baseline);
  gtk_gl_area_queue_render (GTK_GL_AREA (widget));
}
