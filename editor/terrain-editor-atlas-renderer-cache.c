/* terrain-editor-atlas-renderer-cache.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The Atlas renderer's chunk contents and caches: decoding a geometry
 * chunk into a mesh (with normals and its morph facts), the quadtree nodes,
 * uploading chunks and texture tiles, and the two LRU caches bounded in GPU
 * bytes.
 */

#include "config.h"

#include "terrain-editor-atlas-renderer-private.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------------
 * Chunk contents
 */


void
atlas_renderer_mesh_clear (Mesh *mesh)
{
  g_clear_pointer (&mesh->vertices, g_free);
  g_clear_pointer (&mesh->indices, g_free);
}

/* Normals from the surface triangles, area-weighted (files before version
 * 140 store none, §7: they decode as (0, 0, 1)). Skirt vertices keep up. */
static void
compute_normals (Mesh *mesh)
{
  float *v = mesh->vertices;

  for (guint i = 0; i < mesh->n_vertices; i++)
    memset (v + i * FLOATS_PER_VERTEX + 10, 0, 3 * sizeof (float));

  for (guint k = 0; k + 2 < mesh->n_surface_indices; k += 3)
    {
      float *a = v + mesh->indices[k] * FLOATS_PER_VERTEX;
      float *b = v + mesh->indices[k + 1] * FLOATS_PER_VERTEX;
      float *c = v + mesh->indices[k + 2] * FLOATS_PER_VERTEX;
      float e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
      float e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
      float n[3] = {
        e1[1] * e2[2] - e1[2] * e2[1],
        e1[2] * e2[0] - e1[0] * e2[2],
        e1[0] * e2[1] - e1[1] * e2[0],
      };

      /* Up, whatever the winding. */
      if (n[1] < 0)
        for (int i = 0; i < 3; i++)
          n[i] = -n[i];
      for (int i = 0; i < 3; i++)
        {
          a[10 + i] += n[i];
          b[10 + i] += n[i];
          c[10 + i] += n[i];
        }
    }

  for (guint i = 0; i < mesh->n_vertices; i++)
    {
      float *n = v + i * FLOATS_PER_VERTEX + 10;
      float l = sqrtf (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);

      if (l > 0)
        {
          n[0] /= l;
          n[1] /= l;
          n[2] /= l;
        }
      else
        {
          n[0] = n[2] = 0;
          n[1] = 1;
        }
    }
}

/* Decodes a geometry chunk into map-space vertices. Indices past the vertex
 * array are dropped with their triangle; a non-finite vertex fails it. */
gboolean
atlas_renderer_load_mesh (TerrainEditorAtlasRenderer  *self,
           Node                        *node,
           Mesh                        *mesh,
           GError                     **error)
{
  g_autoptr(TerrainAtlasGeometry) geometry = NULL;
  const TerrainAtlasVertex *in;
  const guint16 *indices;
  guint n_vertices, n_indices, n_surface;
  gboolean have_normals = FALSE;

  memset (mesh, 0, sizeof *mesh);
  geometry = terrain_atlas_file_get_geometry (self->file, self->geometry_slot, (guint) node->stub,
                                              error);
  if (geometry == NULL)
    return FALSE;

  in = terrain_atlas_geometry_get_vertices (geometry, &n_vertices);
  indices = terrain_atlas_geometry_get_indices (geometry, &n_indices);
  n_indices -= n_indices % 3;
  n_surface = n_indices - MIN (n_indices, terrain_atlas_geometry_get_skirt_skip_count (geometry));
  n_surface -= n_surface % 3;

  mesh->vertices = g_new (float, (gsize) MAX (n_vertices, 1) * FLOATS_PER_VERTEX);
  mesh->n_vertices = n_vertices;
  mesh->morph_error = 0;
  for (guint i = 0; i < n_vertices; i++)
    {
      const TerrainAtlasVertex *p = &in[i];
      float *out = mesh->vertices + (gsize) i * FLOATS_PER_VERTEX;
      float to_y;

      for (int c = 0; c < 3; c++)
        if (!isfinite (p->point[c]) || !isfinite (p->point_morph_offset[c]) ||
            !isfinite (p->normal[c]))
          {
            g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                         "Atlas: geometry stub %" G_GINT64_FORMAT ": vertex %u is not finite",
                         node->stub, i);
            atlas_renderer_mesh_clear (mesh);
            return FALSE;
          }
      out[0] = (float) (p->point[0] - self->origin_x);
      out[1] = p->point[2];
      out[2] = (float) (self->origin_y - p->point[1]);
      out[3] = p->point_morph_offset[0];
      out[4] = p->point_morph_offset[2];
      out[5] = -p->point_morph_offset[1];
      out[6] = isfinite (p->tex_coord[0]) ? p->tex_coord[0] : 0;
      out[7] = isfinite (p->tex_coord[1]) ? p->tex_coord[1] : 0;
      out[8] = isfinite (p->tex_morph_offset[0]) ? p->tex_morph_offset[0] : 0;
      out[9] = isfinite (p->tex_morph_offset[1]) ? p->tex_morph_offset[1] : 0;
      out[10] = p->normal[0];
      out[11] = p->normal[2];
      out[12] = -p->normal[1];
      if (p->normal[0] != 0 || p->normal[1] != 0 || p->normal[2] != 1)
        have_normals = TRUE;

      /* Bounds: where each vertex is and where it morphs to. */
      to_y = out[1] + out[4];
      if (i == 0)
        {
          mesh->box[0] = mesh->box[3] = out[0];
          mesh->box[1] = mesh->box[4] = out[1];
          mesh->box[2] = mesh->box[5] = out[2];
        }
      mesh->box[0] = MIN (mesh->box[0], out[0]);
      mesh->box[3] = MAX (mesh->box[3], out[0]);
      mesh->box[1] = MIN (mesh->box[1], MIN (out[1], to_y));
      mesh->box[4] = MAX (mesh->box[4], MAX (out[1], to_y));
      mesh->box[2] = MIN (mesh->box[2], out[2]);
      mesh->box[5] = MAX (mesh->box[5], out[2]);
    }

  /* Triangles whose indices all name a vertex: surface ones, then skirts. */
  mesh->indices = g_new (guint16, MAX (n_indices, 3));
  for (guint k = 0; k + 2 < n_indices; k += 3)
    {
      if (k == n_surface)
        mesh->n_surface_indices = mesh->n_indices;
      if (indices[k] >= n_vertices || indices[k + 1] >= n_vertices || indices[k + 2] >= n_vertices)
        continue;
      memcpy (mesh->indices + mesh->n_indices, indices + k, 3 * sizeof (guint16));
      mesh->n_indices += 3;
    }
  if (n_surface >= n_indices)
    mesh->n_surface_indices = mesh->n_indices;

  /* The surface's texture coordinates and morph error. */
  for (guint k = 0; k < mesh->n_surface_indices; k++)
    {
      const float *p = mesh->vertices + (gsize) mesh->indices[k] * FLOATS_PER_VERTEX;

      mesh->morph_error = MAX (mesh->morph_error, fabsf (p[4]));
      if (!mesh->have_tc)
        {
          mesh->tc_min[0] = mesh->tc_max[0] = p[6];
          mesh->tc_min[1] = mesh->tc_max[1] = p[7];
          mesh->have_tc = TRUE;
        }
      mesh->tc_min[0] = MIN (mesh->tc_min[0], p[6]);
      mesh->tc_max[0] = MAX (mesh->tc_max[0], p[6]);
      mesh->tc_min[1] = MIN (mesh->tc_min[1], p[7]);
      mesh->tc_max[1] = MAX (mesh->tc_max[1], p[7]);
    }

  if (!have_normals || self->geometry_version < 140)
    compute_normals (mesh);
  return TRUE;
}

/* ------------------------------------------------------------------------
 * Nodes
 */

void
atlas_renderer_node_init (TerrainEditorAtlasRenderer *self,
           Node                       *node,
           Node                       *parent,
           guint                       level,
           guint32                     x,
           guint32                     y)
{
  TerrainAtlasBox bounds;

  memset (node, 0, sizeof *node);
  node->parent = parent;
  node->level = (guint8) level;
  node->x = x;
  node->y = y;
  node->morph_error = -1;
  node->stub = terrain_atlas_toc_find_stub (self->geometry_toc, level, x, y);
  node->state = STATE_ABSENT;
  if (parent != NULL)
    memcpy (node->box, parent->box, sizeof node->box);

  if (node->stub >= 0)
    {
      g_autoptr(TerrainAtlasStub) stub = NULL;

      stub = terrain_atlas_toc_get_stub (self->geometry_toc, (guint) node->stub);

      if (terrain_atlas_stub_has_chunk (stub))
        node->state = STATE_UNLOADED;
      node->length = terrain_atlas_stub_get_length (stub);
      /* Before version 101 stubs have no bounds: the parent's box stands in
       * (it is conservative for culling) until the chunk is decoded. */
      if (terrain_atlas_stub_get_bounds (stub, &bounds) && atlas_renderer_box_is_sane (&bounds))
        atlas_renderer_box_to_map (self, &bounds, node->box);
    }
}

void
atlas_renderer_node_expand (TerrainEditorAtlasRenderer *self,
             Node                       *node)
{
  if (node->children != NULL)
    return;
  node->children = g_new (Node, 4);
  for (guint i = 0; i < 4; i++)
    atlas_renderer_node_init (self, &node->children[i], node, node->level + 1u,
               2 * node->x + (i >> 1), 2 * node->y + (i & 1));
}

void
atlas_renderer_node_free_children (Node *node)
{
  if (node->children == NULL)
    return;
  for (guint i = 0; i < 4; i++)
    atlas_renderer_node_free_children (&node->children[i]);
  g_free (node->children);
  node->children = NULL;
}

static void
apply_mesh_facts (TerrainEditorAtlasRenderer *self,
                  Node                       *node,
                  const Mesh                 *mesh)
{
  if (mesh->n_vertices > 0)
    atlas_renderer_box_union (node->box, mesh->box);
  node->morph_error = mesh->morph_error;
  if (node->level < MAX_LEVELS)
    self->level_morph[node->level] = MAX (self->level_morph[node->level], mesh->morph_error);
  node->have_tc = mesh->have_tc;
  memcpy (node->tc_min, mesh->tc_min, sizeof node->tc_min);
  memcpy (node->tc_max, mesh->tc_max, sizeof node->tc_max);
}

/* ------------------------------------------------------------------------
 * GPU caches
 */

static void
bury (GArray *names,
      GLuint  name)
{
  if (name != 0)
    g_array_append_val (names, name);
}

void
atlas_renderer_drop_chunk (TerrainEditorAtlasRenderer *self,
            Node                       *node)
{
  Chunk *chunk = node->chunk;

  if (chunk == NULL)
    return;
  bury (self->dead_arrays, chunk->vao);
  bury (self->dead_buffers, chunk->vbo);
  bury (self->dead_buffers, chunk->ibo);
  g_queue_unlink (&self->chunk_lru, &chunk->link);
  self->geometry_bytes -= chunk->bytes;
  self->n_chunks--;
  g_free (chunk);
  node->chunk = NULL;
  if (node->state == STATE_RESIDENT)
    node->state = STATE_UNLOADED;
}

void
atlas_renderer_drop_tile (TerrainEditorAtlasRenderer *self,
           Tile                       *tile)
{
  if (tile->state != STATE_RESIDENT)
    return;
  bury (self->dead_textures, tile->texture);
  tile->texture = 0;
  g_queue_unlink (&self->tile_lru, &tile->link);
  self->texture_bytes -= tile->bytes;
  self->n_tiles--;
  tile->bytes = 0;
  tile->state = STATE_UNLOADED;
}

void
atlas_renderer_delete_dead (TerrainEditorAtlasRenderer *self)
{
  if (self->dead_arrays->len > 0)
    glDeleteVertexArrays ((GLsizei) self->dead_arrays->len,
                          (GLuint *) (gpointer) self->dead_arrays->data);
  if (self->dead_buffers->len > 0)
    glDeleteBuffers ((GLsizei) self->dead_buffers->len,
                     (GLuint *) (gpointer) self->dead_buffers->data);
  if (self->dead_textures->len > 0)
    glDeleteTextures ((GLsizei) self->dead_textures->len,
                      (GLuint *) (gpointer) self->dead_textures->data);
  g_array_set_size (self->dead_arrays, 0);
  g_array_set_size (self->dead_buffers, 0);
  g_array_set_size (self->dead_textures, 0);
}

/* Evicts least recently used entries the current frame does not use until
 * @need more bytes fit. */
static gboolean
make_room_geometry (TerrainEditorAtlasRenderer *self,
                    gsize                       need)
{
  while (self->geometry_bytes + need > self->geometry_budget)
    {
      Chunk *last = self->chunk_lru.tail != NULL ? self->chunk_lru.tail->data : NULL;

      if (last == NULL || last->used == self->frame)
        return FALSE;
      atlas_renderer_drop_chunk (self, last->node);
    }
  return TRUE;
}

static gboolean
make_room_texture (TerrainEditorAtlasRenderer *self,
                   gsize                       need)
{
  while (self->texture_bytes + need > self->texture_budget)
    {
      Tile *last = self->tile_lru.tail != NULL ? self->tile_lru.tail->data : NULL;

      if (last == NULL || last->used == self->frame)
        return FALSE;
      atlas_renderer_drop_tile (self, last);
    }
  return TRUE;
}

/* Before a frame (nothing is in use yet): down to the budgets, which may
 * have been lowered. Selection touches nodes after their children, so the
 * finest chunks go first and the ancestors, which every view needs, last. */
void
atlas_renderer_trim_caches (TerrainEditorAtlasRenderer *self)
{
  while (self->geometry_bytes > self->geometry_budget && self->chunk_lru.tail != NULL)
    atlas_renderer_drop_chunk (self, ((Chunk *) self->chunk_lru.tail->data)->node);
  while (self->texture_bytes > self->texture_budget && self->tile_lru.tail != NULL)
    atlas_renderer_drop_tile (self, self->tile_lru.tail->data);
}

void
atlas_renderer_touch_chunk (TerrainEditorAtlasRenderer *self,
             Chunk                      *chunk)
{
  if (chunk == NULL || chunk->used == self->frame)
    return;
  chunk->used = self->frame;
  g_queue_unlink (&self->chunk_lru, &chunk->link);
  g_queue_push_head_link (&self->chunk_lru, &chunk->link);
}

void
atlas_renderer_touch_tile (TerrainEditorAtlasRenderer *self,
            Tile                       *tile)
{
  if (tile == NULL || tile->state != STATE_RESIDENT || tile->used == self->frame)
    return;
  tile->used = self->frame;
  g_queue_unlink (&self->tile_lru, &tile->link);
  g_queue_push_head_link (&self->tile_lru, &tile->link);
}

LoadResult
atlas_renderer_load_chunk (TerrainEditorAtlasRenderer *self,
            Node                       *node)
{
  g_autoptr(GError) error = NULL;
  Mesh mesh;
  Chunk *chunk;
  gsize vertex_bytes, index_bytes;

  /* The file's bytes are close to the GPU's (52 bytes a vertex): no
   * decoding for a chunk that will not fit. */
  if (!make_room_geometry (self, node->length))
    return LOAD_NO_ROOM;
  if (!atlas_renderer_load_mesh (self, node, &mesh, &error))
    {
      g_debug ("3D view: skipping Atlas geometry chunk (level %u, %u, %u): %s",
               node->level, node->x, node->y, error->message);
      node->state = STATE_FAILED;
      self->n_failed++;
      return LOAD_FAILED;
    }

  vertex_bytes = (gsize) mesh.n_vertices * FLOATS_PER_VERTEX * sizeof (float);
  index_bytes = (gsize) mesh.n_indices * sizeof (guint16);
  if (!make_room_geometry (self, vertex_bytes + index_bytes))
    {
      atlas_renderer_mesh_clear (&mesh);
      return LOAD_NO_ROOM;
    }

  apply_mesh_facts (self, node, &mesh);

  chunk = g_new0 (Chunk, 1);
  chunk->link.data = chunk;
  chunk->node = node;
  chunk->bytes = vertex_bytes + index_bytes;
  chunk->n_indices = (GLsizei) mesh.n_indices;
  chunk->n_surface_triangles = mesh.n_surface_indices / 3;
  chunk->used = self->frame;

  glGenVertexArrays (1, &chunk->vao);
  glBindVertexArray (chunk->vao);
  glGenBuffers (1, &chunk->vbo);
  glBindBuffer (GL_ARRAY_BUFFER, chunk->vbo);
  glBufferData (GL_ARRAY_BUFFER, MAX (vertex_bytes, 4), mesh.vertices, GL_STATIC_DRAW);
  glGenBuffers (1, &chunk->ibo);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, chunk->ibo);
  glBufferData (GL_ELEMENT_ARRAY_BUFFER, MAX (index_bytes, 2), mesh.indices, GL_STATIC_DRAW);
#define ATTRIBUTE(index, size, offset) G_STMT_START { \
    glEnableVertexAttribArray (index); \
    glVertexAttribPointer (index, size, GL_FLOAT, GL_FALSE, FLOATS_PER_VERTEX * sizeof (float), \
                           (gconstpointer) (gsize) ((offset) * sizeof (float))); \
  } G_STMT_END
  ATTRIBUTE (0, 3, 0);
  ATTRIBUTE (1, 3, 3);
  ATTRIBUTE (2, 4, 6);
  ATTRIBUTE (3, 3, 10);
#undef ATTRIBUTE
  glBindVertexArray (0);
  atlas_renderer_mesh_clear (&mesh);

  node->chunk = chunk;
  node->state = STATE_RESIDENT;
  g_queue_push_head_link (&self->chunk_lru, &chunk->link);
  self->geometry_bytes += chunk->bytes;
  self->n_chunks++;
  return LOAD_OK;
}

LoadResult
atlas_renderer_load_tile (TerrainEditorAtlasRenderer *self,
           Tile                       *tile)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainAtlasTexture) texture = NULL;
  g_autoptr(TerrainImage) image = NULL;
  guint w, h;
  gsize bytes, stride;

  if (self->tile_pixels != 0 &&
      !make_room_texture (self, (gsize) self->tile_pixels * self->tile_pixels * 4 * 4 / 3))
    return LOAD_NO_ROOM;
  texture = terrain_atlas_file_get_texture (self->file, self->texture_slot, (guint) tile->stub,
                                            &error);
  if (texture != NULL)
    image = terrain_atlas_texture_decode (texture, TERRAIN_ATLAS_CHANNELS_RGB, NULL, &error);
  if (image != NULL && terrain_image_get_format (image) != TERRAIN_IMAGE_RGBA8)
    g_set_error_literal (&error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED, "not RGBA");
  if (image != NULL && error == NULL &&
      (terrain_image_get_width (image) > (guint) self->max_texture_size ||
       terrain_image_get_height (image) > (guint) self->max_texture_size ||
       terrain_image_get_stride (image) % 4 != 0))
    g_set_error (&error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                 "%u x %u is larger than the GL texture limit %d",
                 terrain_image_get_width (image), terrain_image_get_height (image),
                 self->max_texture_size);
  if (error != NULL)
    {
      g_debug ("3D view: skipping Atlas texture tile (level %u, %u, %u): %s",
               tile->level, tile->x, tile->y, error->message);
      tile->state = STATE_FAILED;
      self->n_failed++;
      return LOAD_FAILED;
    }

  w = terrain_image_get_width (image);
  h = terrain_image_get_height (image);
  stride = terrain_image_get_stride (image);
  bytes = (gsize) w * h * 4 * 4 / 3;
  if (!make_room_texture (self, bytes))
    return LOAD_NO_ROOM;

  if (self->tile_pixels == 0)
    self->tile_pixels = MAX (w, h);

  glGenTextures (1, &tile->texture);
  glBindTexture (GL_TEXTURE_2D, tile->texture);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_NEAREST);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei (GL_UNPACK_ROW_LENGTH, (GLint) (stride / 4));
  glTexImage2D (GL_TEXTURE_2D, 0, GL_RGBA8, (GLsizei) w, (GLsizei) h, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                terrain_image_get_data (image, NULL));
  glPixelStorei (GL_UNPACK_ROW_LENGTH, 0);
  glGenerateMipmap (GL_TEXTURE_2D);

  tile->bytes = bytes;
  tile->used = self->frame;
  tile->state = STATE_RESIDENT;
  g_queue_push_head_link (&self->tile_lru, &tile->link);
  self->texture_bytes += bytes;
  self->n_tiles++;
  return LOAD_OK;
}
