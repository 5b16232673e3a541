/* terrain-editor-atlas-renderer.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Torque Atlas files in the 3D view, drawn from their own chunks rather
 * than from one resampled height grid (a 4097² Atlas has 21845 geometry
 * chunks and 341 texture tiles; decoding all of them to open the file
 * would take seconds and hundreds of MB).
 *
 * Geometry: the geometry TOC is a quadtree whose levels are the LODs, each
 * chunk a mesh made by the file's author with skirts and morph offsets
 * (atlas-chu-tqt.md §3). Every frame walks the tree from the root: a node
 * is refined when its geometric error, projected at the distance of its
 * bounds (the stubs' Box3F, §1a), covers more than TAU_PIXELS, or when its
 * texture tile's texels would cover more than TEXEL_PIXELS; a node outside
 * the frustum is skipped. The error of a node is the largest height morph
 * offset of its children (the offset is how far a child's vertex lies from
 * the parent's surface), measured as they are decoded; until then it is
 * estimated per level, halving from the deepest level measured (chunked
 * LOD halves the error at each level). A node is refined only when all its
 * visible children are resident: until then it is drawn itself and the
 * children are requested, so the surface never has holes. A drawn child
 * morphs towards its parent's surface while the parent's error is close to
 * the threshold, so levels do not pop.
 *
 * Textures: each drawn chunk takes the tile of the texture TOC at its own
 * level (the tree of the texture TOC may be shallower or deeper), found
 * from its texture coordinates (§4 "Texture-tree orientation": tile (x, y)
 * of level L holds texCoord.y in [x, x + 1) / 2^L and texCoord.x in [y, y +
 * 1) / 2^L); while that tile is not resident the deepest resident ancestor
 * is used, the shader mapping texture coordinates into its sub-rectangle.
 * Without a texture TOC chunks are height-shaded.
 *
 * When the texture tree is deeper than the geometry tree, tiles finer than
 * the geometry leaves are not used.
 *
 * Loading: requests are served coarse levels first, nearest first, within
 * the frame's time budget; the caller draws another frame while requests
 * remain. Chunks and tiles live in two LRU caches bounded in GPU bytes:
 * before each frame they are trimmed to their budgets (finest chunks
 * first: selection touches a node after its children), what the frame
 * uses is never evicted during it, and a load that does not fit is
 * deferred (the coarser chunk stays drawn). A chunk or tile that does not
 * decode is skipped for good (a debug message says why) and its parent
 * stays drawn.
 *
 * Levels: on request each drawn chunk is tinted by its level (the view
 * adds the chunks' bounds as lines, terrain_editor_atlas_renderer_get_
 * drawn_boxes()); the palette is Okabe and Ito's, which stays distinct for
 * the common colour-vision deficiencies.
 *
 * This file holds the geometry helpers, the TOCs, the public API and
 * drawing; terrain-editor-atlas-renderer-cache.c decodes chunks and tiles
 * into the caches and -select.c chooses what a frame draws
 * (terrain-editor-atlas-renderer-private.h).
 */

#include "config.h"

#include "terrain-editor-atlas-renderer-private.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------------
 * Geometry helpers
 */

/**
 * terrain_editor_box_visible:
 * @m: a view-projection matrix, column-major
 * @x0: the box's lowest corner, world units
 * @y0: see @x0
 * @z0: see @x0
 * @x1: the box's highest corner
 * @y1: see @x1
 * @z1: see @x1
 *
 * Whether any of an axis-aligned box can be in view: %FALSE only when all
 * eight corners lie outside the same clip plane (a conservative test, as
 * culling wants).
 *
 * Returns: whether to draw what the box bounds
 */
gboolean
terrain_editor_box_visible (const float *m,
                            double       x0,
                            double       y0,
                            double       z0,
                            double       x1,
                            double       y1,
                            double       z1)
{
  int outside[6] = { 0 };

  for (int i = 0; i < 8; i++)
    {
      double x = (i & 1) ? x1 : x0, y = (i & 2) ? y1 : y0, z = (i & 4) ? z1 : z0;
      double cx = m[0] * x + m[4] * y + m[8] * z + m[12];
      double cy = m[1] * x + m[5] * y + m[9] * z + m[13];
      double cz = m[2] * x + m[6] * y + m[10] * z + m[14];
      double cw = m[3] * x + m[7] * y + m[11] * z + m[15];

      outside[0] += cx < -cw;
      outside[1] += cx > cw;
      outside[2] += cy < -cw;
      outside[3] += cy > cw;
      outside[4] += cz < -cw;
      outside[5] += cz > cw;
    }
  for (int p = 0; p < 6; p++)
    if (outside[p] == 8)
      return FALSE;
  return TRUE;
}

/* @box: min x, y, z, then max. */
gboolean
atlas_renderer_box_visible (const float *m,
             const float *box)
{
  return terrain_editor_box_visible (m, box[0], box[1], box[2], box[3], box[4], box[5]);
}

double
atlas_renderer_box_distance (const float  *box,
              const double *eye)
{
  double dx = MAX (MAX (box[0] - eye[0], 0), eye[0] - box[3]);
  double dy = MAX (MAX (box[1] - eye[1], 0), eye[1] - box[4]);
  double dz = MAX (MAX (box[2] - eye[2], 0), eye[2] - box[5]);

  return sqrt (dx * dx + dy * dy + dz * dz);
}

/* Slab test: where the ray enters the box, or FALSE when it misses. */
static gboolean
ray_box (const float  *box,
         const double *o,
         const double *d,
         double       *t_enter)
{
  double t0 = 0, t1 = G_MAXDOUBLE;

  for (int i = 0; i < 3; i++)
    {
      if (fabs (d[i]) < 1e-12)
        {
          if (o[i] < box[i] || o[i] > box[i + 3])
            return FALSE;
          continue;
        }
      {
        double a = (box[i] - o[i]) / d[i], b = (box[i + 3] - o[i]) / d[i];

        t0 = MAX (t0, MIN (a, b));
        t1 = MIN (t1, MAX (a, b));
      }
    }
  *t_enter = t0;
  return t0 <= t1;
}

/* Möller–Trumbore, both sides. */
static gboolean
ray_triangle (const double *o,
              const double *d,
              const float  *a,
              const float  *b,
              const float  *c,
              double       *t)
{
  double e1[3], e2[3], p[3], q[3], s[3], det, u, v;

  for (int i = 0; i < 3; i++)
    {
      e1[i] = b[i] - a[i];
      e2[i] = c[i] - a[i];
      s[i] = o[i] - a[i];
    }
  p[0] = d[1] * e2[2] - d[2] * e2[1];
  p[1] = d[2] * e2[0] - d[0] * e2[2];
  p[2] = d[0] * e2[1] - d[1] * e2[0];
  det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
  if (fabs (det) < 1e-12)
    return FALSE;
  u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) / det;
  if (u < 0 || u > 1)
    return FALSE;
  q[0] = s[1] * e1[2] - s[2] * e1[1];
  q[1] = s[2] * e1[0] - s[0] * e1[2];
  q[2] = s[0] * e1[1] - s[1] * e1[0];
  v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) / det;
  if (v < 0 || u + v > 1)
    return FALSE;
  *t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det;
  return *t >= 0;
}

gboolean
atlas_renderer_box_is_sane (const TerrainAtlasBox *b)
{
  for (int i = 0; i < 3; i++)
    if (!isfinite (b->min[i]) || !isfinite (b->max[i]) || b->min[i] > b->max[i])
      return FALSE;
  return TRUE;
}

/* A world box (Z up, Y north) in map space. */
void
atlas_renderer_box_to_map (TerrainEditorAtlasRenderer *self,
            const TerrainAtlasBox      *b,
            float                      *box)
{
  box[0] = (float) (b->min[0] - self->origin_x);
  box[1] = b->min[2];
  box[2] = (float) (self->origin_y - b->max[1]);
  box[3] = (float) (b->max[0] - self->origin_x);
  box[4] = b->max[2];
  box[5] = (float) (self->origin_y - b->min[1]);
}

void
atlas_renderer_box_union (float       *box,
           const float *other)
{
  for (int i = 0; i < 3; i++)
    {
      box[i] = MIN (box[i], other[i]);
      box[i + 3] = MAX (box[i + 3], other[i + 3]);
    }
}

/* ------------------------------------------------------------------------
 * Texture and geometry TOCs
 */

static gint
config_slot (TerrainAtlasFile *file)
{
  gint config = terrain_atlas_file_find_toc (file, TERRAIN_ATLAS_TOC_CONFIG, 0);
  g_autoptr(TerrainAtlasConfig) entries = NULL;
  const char *type, *slot;
  guint64 value;

  if (config < 0)
    return -1;
  entries = terrain_atlas_file_get_config (file, (guint) config, 0, NULL);
  if (entries == NULL)
    return -1;
  type = terrain_atlas_config_lookup (entries, "type");
  /* Unique terrain names its colour texture; blender terrain is coloured
   * at run time from source images the file does not hold, so its opacity
   * map (the weights of those images) stands in as false colour. */
  slot = terrain_atlas_config_lookup (entries, g_strcmp0 (type, "blender") == 0 ? "opacityMapSlot"
                                                                                : "textureSlot");
  if (slot == NULL || !g_ascii_string_to_unsigned (slot, 10, 0, 255, &value, NULL))
    return -1;
  return (gint) value;
}

static void
toc_changed (GListModel                 *model,
             guint                       position,
             guint                       removed,
             guint                       added,
             TerrainEditorAtlasRenderer *self);

/* The texture TOC: the one the config names, else the first. */
static void
choose_texture_toc (TerrainEditorAtlasRenderer *self)
{
  gint nth = config_slot (self->file);
  gint slot = terrain_atlas_file_find_toc (self->file, TERRAIN_ATLAS_TOC_TEXTURE, MAX (nth, 0));
  TerrainAtlasToc *toc;

  if (slot < 0 && nth > 0)
    slot = terrain_atlas_file_find_toc (self->file, TERRAIN_ATLAS_TOC_TEXTURE, 0);
  if (slot < 0)
    return;
  toc = terrain_atlas_file_get_toc (self->file, (guint) slot);
  if (terrain_atlas_toc_get_tree_depth (toc) == 0 || terrain_atlas_toc_get_n_stubs (toc) == 0)
    return;
  self->texture_toc = g_object_ref (toc);
  self->texture_slot = (guint) slot;
  self->texture_depth = MIN (terrain_atlas_toc_get_tree_depth (toc), MAX_LEVELS - 1);
  self->texture_handler = g_signal_connect (toc, "items-changed", G_CALLBACK (toc_changed), self);
}

/* The camera's heights: the surface of the first levels, finer over
 * coarser, rasterised into a grid over the map. */
static void
raster_triangle (TerrainEditorAtlasRenderer *self,
                 const float                *a,
                 const float                *b,
                 const float                *c)
{
  guint side = HEIGHT_GRID_SIDE;
  double sx = (side - 1) / MAX (self->extent_x, 1e-9), sz = (side - 1) / MAX (self->extent_y, 1e-9);
  double ax = a[0] * sx, az = a[2] * sz, bx = b[0] * sx, bz = b[2] * sz;
  double cx = c[0] * sx, cz = c[2] * sz;
  double area = (bx - ax) * (cz - az) - (cx - ax) * (bz - az);
  double x0 = MAX (0, ceil (MIN (MIN (ax, bx), cx)));
  double x1 = MIN (side - 1, floor (MAX (MAX (ax, bx), cx)));
  double z0 = MAX (0, ceil (MIN (MIN (az, bz), cz)));
  double z1 = MIN (side - 1, floor (MAX (MAX (az, bz), cz)));

  if (!(fabs (area) > 1e-12))
    return;
  for (double z = z0; z <= z1; z++)
    for (double x = x0; x <= x1; x++)
      {
        double wa = ((bx - x) * (cz - z) - (cx - x) * (bz - z)) / area;
        double wb = ((cx - x) * (az - z) - (ax - x) * (cz - z)) / area;
        double wc = 1.0 - wa - wb;

        if (wa < -1e-6 || wb < -1e-6 || wc < -1e-6)
          continue;
        self->height_grid[(gsize) z * side + (gsize) x] =
          (float) (wa * a[1] + wb * b[1] + wc * c[1]);
      }
}

static void
build_height_grid (TerrainEditorAtlasRenderer *self)
{
  gsize n = (gsize) HEIGHT_GRID_SIDE * HEIGHT_GRID_SIDE;
  float lo = G_MAXFLOAT, hi = -G_MAXFLOAT;

  self->height_grid = g_new (float, n);
  for (gsize i = 0; i < n; i++)
    self->height_grid[i] = NAN;

  for (guint level = 0; level < MIN (HEIGHT_GRID_LEVELS, self->geometry_depth); level++)
    for (guint32 x = 0; x < (1u << level); x++)
      for (guint32 y = 0; y < (1u << level); y++)
        {
          g_autoptr(GError) error = NULL;
          Node node;
          Mesh mesh;

          atlas_renderer_node_init (self, &node, NULL, level, x, y);
          if (node.state != STATE_UNLOADED)
            continue;
          if (!atlas_renderer_load_mesh (self, &node, &mesh, &error))
            {
              g_debug ("3D view: Atlas heights: %s", error->message);
              continue;
            }
          for (guint k = 0; k + 2 < mesh.n_surface_indices; k += 3)
            raster_triangle (self, mesh.vertices + (gsize) mesh.indices[k] * FLOATS_PER_VERTEX,
                             mesh.vertices + (gsize) mesh.indices[k + 1] * FLOATS_PER_VERTEX,
                             mesh.vertices + (gsize) mesh.indices[k + 2] * FLOATS_PER_VERTEX);
          atlas_renderer_mesh_clear (&mesh);
        }

  for (gsize i = 0; i < n; i++)
    if (!isnan (self->height_grid[i]))
      {
        lo = MIN (lo, self->height_grid[i]);
        hi = MAX (hi, self->height_grid[i]);
      }
  if (lo <= hi)
    {
      self->z_min = lo;
      self->z_max = hi;
    }
}

static gboolean
init_root (TerrainEditorAtlasRenderer  *self,
           GError                     **error)
{
  TerrainAtlasBox bounds;
  gboolean have_bounds = FALSE;
  gint64 stub = terrain_atlas_toc_find_stub (self->geometry_toc, 0, 0, 0);

  if (stub < 0)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                           "Atlas: the geometry tree has no root");
      return FALSE;
    }
  {
    g_autoptr(TerrainAtlasStub) s = terrain_atlas_toc_get_stub (self->geometry_toc, (guint) stub);

    if (!terrain_atlas_stub_has_chunk (s))
      {
        g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                             "Atlas: the geometry tree's root has no chunk");
        return FALSE;
      }
    have_bounds = terrain_atlas_stub_get_bounds (s, &bounds) && atlas_renderer_box_is_sane (&bounds);
  }
  if (!have_bounds)
    {
      /* Before version 101 (or with broken stub bounds) the root chunk
       * says where the terrain is. */
      g_autoptr(TerrainAtlasGeometry) root = NULL;

      root = terrain_atlas_file_get_geometry (self->file, self->geometry_slot, (guint) stub, error);

      if (root == NULL)
        return FALSE;
      if (!terrain_atlas_geometry_compute_bounds (root, &bounds) || !atlas_renderer_box_is_sane (&bounds))
        {
          g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                               "Atlas: the root chunk has no vertices");
          return FALSE;
        }
    }
  if (!(bounds.max[0] - bounds.min[0] > 0) || !(bounds.max[1] - bounds.min[1] > 0))
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                           "Atlas: the terrain has no extent");
      return FALSE;
    }

  self->origin_x = bounds.min[0];
  self->origin_y = bounds.max[1];
  self->extent_x = (double) bounds.max[0] - bounds.min[0];
  self->extent_y = (double) bounds.max[1] - bounds.min[1];
  self->z_min = bounds.min[2];
  self->z_max = bounds.max[2];

  self->root = g_new (Node, 1);
  atlas_renderer_node_init (self, self->root, NULL, 0, 0, 0);
  if (!have_bounds)
    atlas_renderer_box_to_map (self, &bounds, self->root->box);
  return TRUE;
}

/* A stub was rewritten (an Atlas edit): forget what was made from it. */
static Node *
find_node (TerrainEditorAtlasRenderer *self,
           guint                       level,
           guint32                     x,
           guint32                     y)
{
  Node *node = self->root;

  for (guint l = 1; l <= level && node != NULL; l++)
    {
      guint shift = level - l;
      guint which = (((x >> shift) & 1) << 1) | ((y >> shift) & 1);

      node = node->children != NULL ? &node->children[which] : NULL;
    }
  return node;
}

static void
toc_changed (GListModel                 *model,
             guint                       position,
             guint                       removed,
             guint                       added,
             TerrainEditorAtlasRenderer *self)
{
  TerrainAtlasToc *toc = TERRAIN_ATLAS_TOC (model);

  for (guint i = position; i < position + added; i++)
    {
      guint level;
      guint32 x, y;

      if (!terrain_atlas_toc_get_stub_node (toc, i, &level, &x, &y))
        continue;
      if (toc == self->geometry_toc)
        {
          Node *node = find_node (self, level, x, y);

          if (node != NULL)
            {
              Node *parent = node->parent, *children = node->children;
              float box[6];

              /* The children keep their own chunks and stubs; without stub
               * bounds (before version 101) the old box stays. */
              memcpy (box, node->box, sizeof box);
              atlas_renderer_drop_chunk (self, node);
              atlas_renderer_node_init (self, node, parent, level, x, y);
              node->children = children;
              if (self->geometry_version < 101)
                memcpy (node->box, box, sizeof box);
            }
        }
      else
        {
          Tile *tile = g_hash_table_lookup (self->tiles, GUINT_TO_POINTER (i));

          if (tile != NULL)
            {
              atlas_renderer_drop_tile (self, tile);
              g_hash_table_remove (self->tiles, GUINT_TO_POINTER (i));
            }
        }
    }
  if (self->changed_func != NULL)
    self->changed_func (self, self->changed_data);
}

/* ------------------------------------------------------------------------
 * Public
 */

/**
 * terrain_editor_atlas_renderer_new:
 * @file: an Atlas file
 * @error: where to say why the file cannot be drawn
 *
 * Reads what drawing needs without GL: the first geometry TOC, the texture
 * TOC the config names (or the first), the root's bounds, and a coarse
 * height grid from the first levels (for the camera). Chunks are decoded
 * when frames need them.
 *
 * Returns: (transfer full) (nullable): the renderer, or %NULL when the
 *   file has no drawable geometry tree
 */
TerrainEditorAtlasRenderer *
terrain_editor_atlas_renderer_new (TerrainAtlasFile  *file,
                                   GError           **error)
{
  TerrainEditorAtlasRenderer *self;
  gint slot;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (file), NULL);

  slot = terrain_atlas_file_find_toc (file, TERRAIN_ATLAS_TOC_GEOMETRY, 0);
  if (slot < 0 ||
      terrain_atlas_toc_get_tree_depth (terrain_atlas_file_get_toc (file, (guint) slot)) == 0)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                           "Atlas: no geometry tree to draw");
      return NULL;
    }

  self = g_new0 (TerrainEditorAtlasRenderer, 1);
  self->file = g_object_ref (file);
  self->geometry_slot = (guint) slot;
  self->geometry_toc = g_object_ref (terrain_atlas_file_get_toc (file, (guint) slot));
  self->geometry_depth = MIN (terrain_atlas_toc_get_tree_depth (self->geometry_toc),
                              MAX_LEVELS - 1);
  self->geometry_version = terrain_atlas_toc_get_version (self->geometry_toc);
  self->geometry_budget = DEFAULT_GEOMETRY_BUDGET;
  self->texture_budget = DEFAULT_TEXTURE_BUDGET;
  self->tiles = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->draw_list = g_array_new (FALSE, FALSE, sizeof (DrawItem));
  self->requests = g_array_new (FALSE, FALSE, sizeof (Request));
  self->dead_buffers = g_array_new (FALSE, FALSE, sizeof (GLuint));
  self->dead_arrays = g_array_new (FALSE, FALSE, sizeof (GLuint));
  self->dead_textures = g_array_new (FALSE, FALSE, sizeof (GLuint));
  self->max_texture_size = 2048;
  for (guint i = 0; i < MAX_LEVELS; i++)
    self->level_morph[i] = -1;

  if (!init_root (self, error))
    {
      terrain_editor_atlas_renderer_free (self);
      return NULL;
    }
  build_height_grid (self);
  self->prior_error = MAX (self->z_max - self->z_min, 1e-3) / 2;
  choose_texture_toc (self);
  self->geometry_handler = g_signal_connect (self->geometry_toc, "items-changed",
                                             G_CALLBACK (toc_changed), self);
  return self;
}

/**
 * terrain_editor_atlas_renderer_free:
 *
 * Frees the renderer. Its GL objects must have been released with
 * terrain_editor_atlas_renderer_release_gl() while the context was current
 * (or the context destroyed).
 */
void
terrain_editor_atlas_renderer_free (TerrainEditorAtlasRenderer *self)
{
  if (self == NULL)
    return;
  if (self->geometry_handler != 0)
    g_signal_handler_disconnect (self->geometry_toc, self->geometry_handler);
  if (self->texture_handler != 0)
    g_signal_handler_disconnect (self->texture_toc, self->texture_handler);
  /* Every chunk is in the LRU list (their GL objects are gone already). */
  while (self->chunk_lru.head != NULL)
    {
      Chunk *chunk = self->chunk_lru.head->data;

      g_queue_unlink (&self->chunk_lru, &chunk->link);
      g_free (chunk);
    }
  if (self->root != NULL)
    {
      atlas_renderer_node_free_children (self->root);
      g_free (self->root);
    }
  g_clear_pointer (&self->tiles, g_hash_table_unref);
  g_clear_pointer (&self->draw_list, g_array_unref);
  g_clear_pointer (&self->requests, g_array_unref);
  g_clear_pointer (&self->dead_buffers, g_array_unref);
  g_clear_pointer (&self->dead_arrays, g_array_unref);
  g_clear_pointer (&self->dead_textures, g_array_unref);
  g_clear_pointer (&self->height_grid, g_free);
  g_clear_object (&self->geometry_toc);
  g_clear_object (&self->texture_toc);
  g_clear_object (&self->file);
  g_free (self);
}

void
terrain_editor_atlas_renderer_set_changed_func (TerrainEditorAtlasRenderer *self,
                                                GFunc                       func,
                                                gpointer                    data)
{
  self->changed_func = func;
  self->changed_data = data;
}

/**
 * terrain_editor_atlas_renderer_get_extent:
 * @width: (out) (optional): map width (world X), world units
 * @height: (out) (optional): map height (world Y)
 * @z_min: (out) (optional): lowest surface height of the first levels
 * @z_max: (out) (optional): highest
 */
void
terrain_editor_atlas_renderer_get_extent (TerrainEditorAtlasRenderer *self,
                                          double                     *width,
                                          double                     *height,
                                          double                     *z_min,
                                          double                     *z_max)
{
  if (width != NULL)
    *width = self->extent_x;
  if (height != NULL)
    *height = self->extent_y;
  if (z_min != NULL)
    *z_min = self->z_min;
  if (z_max != NULL)
    *z_max = self->z_max;
}

/**
 * terrain_editor_atlas_renderer_height_at:
 * @map_x: map position, world units east of the west edge
 * @map_y: world units south of the north edge
 *
 * Returns: the height there, from the first levels of the tree (a stable
 *   value for the camera, not the finest surface)
 */
double
terrain_editor_atlas_renderer_height_at (TerrainEditorAtlasRenderer *self,
                                         double                      map_x,
                                         double                      map_y)
{
  double gx = CLAMP (map_x / MAX (self->extent_x, 1e-9), 0, 1) * (HEIGHT_GRID_SIDE - 1);
  double gz = CLAMP (map_y / MAX (self->extent_y, 1e-9), 0, 1) * (HEIGHT_GRID_SIDE - 1);
  guint x0 = MIN ((guint) gx, HEIGHT_GRID_SIDE - 2), z0 = MIN ((guint) gz, HEIGHT_GRID_SIDE - 2);
  double fx = gx - x0, fz = gz - z0, sum = 0, weight = 0;

  for (guint k = 0; k < 4; k++)
    {
      guint dx = k & 1, dz = k >> 1;
      float h = self->height_grid[(gsize) (z0 + dz) * HEIGHT_GRID_SIDE + x0 + dx];
      double w = (dx ? fx : 1 - fx) * (dz ? fz : 1 - fz);

      if (!isnan (h))
        {
          sum += w * h;
          weight += w;
        }
    }
  return weight > 1e-9 ? sum / weight : (self->z_min + self->z_max) / 2;
}

/**
 * terrain_editor_atlas_renderer_set_budgets:
 * @geometry_bytes: GPU bytes the geometry cache may hold
 * @texture_bytes: GPU bytes the texture cache may hold
 *
 * Bounds the caches (96 MiB and 160 MiB by default). Entries over the new
 * budgets are evicted by the next frame.
 */
void
terrain_editor_atlas_renderer_set_budgets (TerrainEditorAtlasRenderer *self,
                                           gsize                       geometry_bytes,
                                           gsize                       texture_bytes)
{
  self->geometry_budget = geometry_bytes;
  self->texture_budget = texture_bytes;
}

/**
 * terrain_editor_atlas_renderer_set_program:
 * @program: the linked atlas.vert.glsl + atlas.frag.glsl program
 * @max_texture_size: GL_MAX_TEXTURE_SIZE
 *
 * Called with the context current, after the view made its programs.
 */
void
terrain_editor_atlas_renderer_set_program (TerrainEditorAtlasRenderer *self,
                                           GLuint                      program,
                                           GLint                       max_texture_size)
{
  self->program = program;
  self->max_texture_size = max_texture_size;
  self->u_mvp = glGetUniformLocation (program, "u_mvp");
  self->u_morph = glGetUniformLocation (program, "u_morph");
  self->u_tile = glGetUniformLocation (program, "u_tile");
  self->u_textured = glGetUniformLocation (program, "u_textured");
  self->u_texture = glGetUniformLocation (program, "u_texture");
  self->u_light = glGetUniformLocation (program, "u_light");
  self->u_height_range = glGetUniformLocation (program, "u_height_range");
  self->u_tint = glGetUniformLocation (program, "u_tint");
}

/**
 * terrain_editor_atlas_renderer_release_gl:
 *
 * Deletes every GL object (the context must be current) and forgets the
 * program; chunks and tiles are decoded again by later frames.
 */
void
terrain_editor_atlas_renderer_release_gl (TerrainEditorAtlasRenderer *self)
{
  GHashTableIter iter;
  gpointer value;

  while (self->chunk_lru.head != NULL)
    atlas_renderer_drop_chunk (self, ((Chunk *) self->chunk_lru.head->data)->node);
  g_hash_table_iter_init (&iter, self->tiles);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    atlas_renderer_drop_tile (self, value);
  atlas_renderer_delete_dead (self);
  self->program = 0;
  g_array_set_size (self->draw_list, 0);
}

/**
 * terrain_editor_atlas_renderer_draw:
 * @frame: the camera and the time budget
 *
 * Chooses the chunks and tiles the view needs, loads what it can within
 * the budget (coarse levels first), and draws. The caller has set the
 * viewport, cleared and enabled the depth test.
 *
 * Returns: %TRUE when chunks or tiles are still wanted and could be loaded
 *   by another frame
 */
gboolean
terrain_editor_atlas_renderer_draw (TerrainEditorAtlasRenderer    *self,
                                    const TerrainEditorAtlasFrame *frame)
{
  gint64 start = g_get_monotonic_time ();
  gint64 deadline = frame->budget_us < 0 ? G_MAXINT64 : start + frame->budget_us;
  gboolean out_of_time = FALSE;
  guint n_decoded = 0;
  gint64 decode_us = 0;

  gboolean geometry_full = FALSE, texture_full = FALSE;

  self->frame++;
  atlas_renderer_trim_caches (self);
  atlas_renderer_delete_dead (self);
  memset (&self->stats, 0, sizeof self->stats);

  for (guint round = 0; round < MAX_ROUNDS; round++)
    {
      gboolean loaded = FALSE;

      atlas_renderer_select_all (self, frame);
      if (self->requests->len == 0 || self->program == 0)
        break;
      if (g_get_monotonic_time () >= deadline)
        {
          out_of_time = TRUE;
          break;
        }
      g_array_sort (self->requests, atlas_renderer_compare_requests);
      for (guint i = 0; i < self->requests->len; i++)
        {
          const Request *r = &g_array_index (self->requests, Request, i);
          gint64 t0 = g_get_monotonic_time ();
          LoadResult result;

          if (t0 >= deadline)
            break;
          /* A full cache stays full for the rest of the frame. */
          if (r->node != NULL ? geometry_full : texture_full)
            continue;
          result = r->node != NULL ? atlas_renderer_load_chunk (self, r->node) : atlas_renderer_load_tile (self, r->tile);
          decode_us += g_get_monotonic_time () - t0;
          if (result == LOAD_OK)
            {
              loaded = TRUE;
              n_decoded++;
            }
          else if (result == LOAD_NO_ROOM && r->node != NULL)
            geometry_full = TRUE;
          else if (result == LOAD_NO_ROOM)
            texture_full = TRUE;
        }
      if (!loaded)
        break;
    }

  if (self->program != 0)
    {
      glUseProgram (self->program);
      glUniformMatrix4fv (self->u_mvp, 1, GL_FALSE, frame->view_proj);
      glUniform3f (self->u_light, frame->light[0], frame->light[1], frame->light[2]);
      glUniform2f (self->u_height_range, (float) self->z_min,
                   (float) (1.0 / MAX (self->z_max - self->z_min, 1e-6)));
      glUniform1i (self->u_texture, 0);
      glUniform4f (self->u_tint, 0, 0, 0, 0);
      glActiveTexture (GL_TEXTURE0);

      g_array_sort (self->draw_list, atlas_renderer_compare_draw_items);
      for (guint i = 0; i < self->draw_list->len; i++)
        {
          const DrawItem *item = &g_array_index (self->draw_list, DrawItem, i);
          const Chunk *chunk = item->node->chunk;

          if (chunk == NULL)
            continue;
          glUniform1f (self->u_morph, item->morph);
          if (item->tile != NULL)
            {
              double tx, ty, side = terrain_quadtree_texture_tile_rect (item->tile->level, item->tile->x,
                                                                        item->tile->y, &tx, &ty);

              glBindTexture (GL_TEXTURE_2D, item->tile->texture);
              glUniform3f (self->u_tile, (float) tx, (float) ty, (float) (1.0 / side));
              glUniform1i (self->u_textured, 1);
              self->stats.n_textured_drawn++;
            }
          else
            glUniform1i (self->u_textured, 0);
          if (self->show_levels)
            {
              float rgb[3];

              terrain_editor_atlas_level_color (item->node->level, rgb);
              glUniform4f (self->u_tint, rgb[0], rgb[1], rgb[2], LEVEL_TINT);
            }
          glBindVertexArray (chunk->vao);
          glDrawElements (GL_TRIANGLES, chunk->n_indices, GL_UNSIGNED_SHORT, NULL);

          self->stats.n_chunks_drawn++;
          self->stats.n_triangles_drawn += (guint64) chunk->n_indices / 3;
          self->stats.n_surface_triangles_drawn += chunk->n_surface_triangles;
          self->stats.max_level_drawn = MAX (self->stats.max_level_drawn, item->node->level);
          self->stats.n_chunks_at_level[MIN (item->node->level,
                                             TERRAIN_EDITOR_ATLAS_STATS_LEVELS - 1)]++;
        }
      glBindVertexArray (0);
      glUseProgram (0);
    }

  /* Requests left by a round that ran out of time can be served next
   * frame; ones that failed or found no room cannot. */
  if (!out_of_time && self->requests->len > 0 && g_get_monotonic_time () >= deadline)
    out_of_time = TRUE;
  if (out_of_time)
    self->stats.n_pending = self->requests->len;
  else
    self->stats.n_deferred = self->requests->len;
  self->stats.n_decoded = n_decoded;
  self->stats.decode_ms = decode_us / 1000.0;
  return self->stats.n_pending > 0;
}

/**
 * terrain_editor_atlas_renderer_pick:
 * @origin: ray origin, map space
 * @direction: ray direction (normalised), map space
 * @distance: (out): where along the ray it meets the terrain
 *
 * Casts a ray against the chunks the last frame drew (the root before any
 * frame), decoding them again on the CPU, nearest bounds first.
 *
 * Returns: whether the ray meets the terrain
 */
gboolean
terrain_editor_atlas_renderer_pick (TerrainEditorAtlasRenderer *self,
                                    const double               *origin,
                                    const double               *direction,
                                    double                     *distance)
{
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (DrawItem));
  double best = G_MAXDOUBLE;

  if (self->draw_list->len == 0)
    {
      DrawItem root = { self->root, NULL, 0, 0 };

      if (self->root->state == STATE_FAILED || self->root->state == STATE_ABSENT)
        return FALSE;
      g_array_append_val (hits, root);
    }
  for (guint i = 0; i < self->draw_list->len; i++)
    {
      DrawItem item = g_array_index (self->draw_list, DrawItem, i);

      if (item.node->state != STATE_FAILED &&
          ray_box (item.node->box, origin, direction, &item.dist))
        g_array_append_val (hits, item);
    }
  if (self->draw_list->len == 0 && !ray_box (self->root->box, origin, direction,
                                             &g_array_index (hits, DrawItem, 0).dist))
    return FALSE;
  g_array_sort (hits, atlas_renderer_compare_draw_items);

  for (guint i = 0; i < hits->len; i++)
    {
      const DrawItem *item = &g_array_index (hits, DrawItem, i);
      g_autoptr(GError) error = NULL;
      Mesh mesh;

      if (item->dist > best)
        break;
      if (!atlas_renderer_load_mesh (self, item->node, &mesh, &error))
        continue;
      for (guint k = 0; k + 2 < mesh.n_surface_indices; k += 3)
        {
          float p[3][3];
          double t;

          for (guint c = 0; c < 3; c++)
            {
              const float *v = mesh.vertices + (gsize) mesh.indices[k + c] * FLOATS_PER_VERTEX;

              for (guint j = 0; j < 3; j++)
                p[c][j] = v[j] + item->morph * v[3 + j];
            }
          if (ray_triangle (origin, direction, p[0], p[1], p[2], &t) && t < best)
            best = t;
        }
      atlas_renderer_mesh_clear (&mesh);
    }

  if (best == G_MAXDOUBLE)
    return FALSE;
  *distance = best;
  return TRUE;
}

/**
 * terrain_editor_atlas_renderer_get_stats:
 * @stats: (out): figures of the last frame and the caches
 */
void
terrain_editor_atlas_renderer_get_stats (TerrainEditorAtlasRenderer *self,
                                         TerrainEditorAtlasStats    *stats)
{
  *stats = self->stats;
  stats->n_geometry_cached = self->n_chunks;
  stats->geometry_bytes = self->geometry_bytes;
  stats->geometry_budget = self->geometry_budget;
  stats->n_textures_cached = self->n_tiles;
  stats->texture_bytes = self->texture_bytes;
  stats->texture_budget = self->texture_budget;
  stats->n_failed = self->n_failed;
  stats->geometry_depth = self->geometry_depth;
  stats->texture_depth = self->texture_toc != NULL ? self->texture_depth : 0;
}

/**
 * terrain_editor_atlas_renderer_set_show_levels:
 * @show: whether to tint each chunk by its level
 *
 * Takes effect with the next frame.
 */
void
terrain_editor_atlas_renderer_set_show_levels (TerrainEditorAtlasRenderer *self,
                                               gboolean                    show)
{
  self->show_levels = !!show;
}

/**
 * terrain_editor_atlas_renderer_get_drawn_boxes:
 * @boxes: a #GArray of #TerrainEditorAtlasChunkBox to append to
 *
 * The chunks the last frame drew: their levels and bounds (map space).
 */
void
terrain_editor_atlas_renderer_get_drawn_boxes (TerrainEditorAtlasRenderer *self,
                                               GArray                     *boxes)
{
  for (guint i = 0; i < self->draw_list->len; i++)
    {
      const DrawItem *item = &g_array_index (self->draw_list, DrawItem, i);
      TerrainEditorAtlasChunkBox box;

      /* As draw() does: a node without a chunk was not drawn. */
      if (item->node->chunk == NULL)
        continue;
      box.level = item->node->level;
      memcpy (box.box, item->node->box, sizeof box.box);
      g_array_append_val (boxes, box);
    }
}

/**
 * terrain_editor_atlas_renderer_world_to_map:
 * @world: a box in world units (Z up, Y north)
 * @map_box: (out caller-allocates) (array fixed-size=6): the box in map
 *   space (x east of the west edge, y up, z south of the north edge): min
 *   x, y, z, then max
 */
void
terrain_editor_atlas_renderer_world_to_map (TerrainEditorAtlasRenderer *self,
                                            const TerrainAtlasBox      *world,
                                            float                      *map_box)
{
  atlas_renderer_box_to_map (self, world, map_box);
}

/**
 * terrain_editor_atlas_level_color:
 * @level: a geometry level
 * @rgb: (out caller-allocates) (array fixed-size=3): its colour, 0 to 1
 *
 * The colour chunks of @level are tinted with: Okabe and Ito's seven
 * colours (black left out), ordered so that neighbouring levels contrast,
 * repeating after level 6.
 */
void
terrain_editor_atlas_level_color (guint  level,
                                  float *rgb)
{
  static const guint8 palette[][3] = {
    { 0x00, 0x72, 0xb2 },   /* blue */
    { 0xe6, 0x9f, 0x00 },   /* orange */
    { 0x00, 0x9e, 0x73 },   /* bluish green */
    { 0xcc, 0x79, 0xa7 },   /* reddish purple */
    { 0xf0, 0xe4, 0x42 },   /* yellow */
    { 0x56, 0xb4, 0xe9 },   /* sky blue */
    { 0xd5, 0x5e, 0x00 },   /* vermillion */
  };
  const guint8 *c = palette[level % G_N_ELEMENTS (palette)];

  for (guint i = 0; i < 3; i++)
    rgb[i] = c[i] / 255.0f;
}

static gboolean
stub_world_box (TerrainAtlasFile *file,
                TerrainAtlasToc  *toc,
                guint             index,
                TerrainAtlasBox  *box)
{
  g_autoptr(TerrainAtlasStub) stub = terrain_atlas_toc_get_stub (toc, index);
  g_autoptr(TerrainAtlasGeometry) geometry = NULL;
  g_autoptr(GError) error = NULL;

  if (terrain_atlas_stub_get_bounds (stub, box) && atlas_renderer_box_is_sane (box))
    return TRUE;
  /* Before version 101 the chunk says where it is. */
  if (!terrain_atlas_stub_has_chunk (stub))
    return FALSE;
  for (guint slot = 0; slot < terrain_atlas_file_get_n_tocs (file); slot++)
    if (terrain_atlas_file_get_toc (file, slot) == toc)
      geometry = terrain_atlas_file_get_geometry (file, slot, index, &error);
  if (geometry == NULL)
    {
      g_debug ("Atlas stub bounds: %s", error != NULL ? error->message : "not in the file");
      return FALSE;
    }
  return terrain_atlas_geometry_compute_bounds (geometry, box) && atlas_renderer_box_is_sane (box);
}

/**
 * terrain_editor_atlas_get_terrain_box:
 * @file: an Atlas file
 * @box: (out): the bounds of the first geometry tree's root, world units
 *
 * From the root stub, or (before version 101) its decoded chunk.
 *
 * Returns: %FALSE when the file has no geometry root with bounds
 */
gboolean
terrain_editor_atlas_get_terrain_box (TerrainAtlasFile *file,
                                      TerrainAtlasBox  *box)
{
  gint slot = terrain_atlas_file_find_toc (file, TERRAIN_ATLAS_TOC_GEOMETRY, 0);
  TerrainAtlasToc *toc;
  gint64 root;

  if (slot < 0)
    return FALSE;
  toc = terrain_atlas_file_get_toc (file, (guint) slot);
  root = terrain_atlas_toc_find_stub (toc, 0, 0, 0);
  return root >= 0 && stub_world_box (file, toc, (guint) root, box);
}

/* An Atlas tree this deep or deeper has 1,024 leaf chunks and more. */
#define DEEP_TREE_LEVELS 6

/**
 * terrain_editor_atlas_is_deep_file:
 * @document: any document
 *
 * Whether @document is an unedited Atlas, opened from a file, whose first
 * geometry tree has 6 levels or more (1,024 leaf chunks and up): the work
 * that decodes every chunk of such a file (its 2D picture, its findings)
 * takes seconds for a 500 MB file, so the editor does it in a worker
 * thread, on a copy opened from the same file (the window's document is
 * never touched off the main thread).
 *
 * Returns: %TRUE for such an Atlas
 */
gboolean
terrain_editor_atlas_is_deep_file (TerrainDocument *document)
{
  TerrainAtlasFile *atlas;
  gint toc;

  if (!TERRAIN_IS_ATLAS_FILE (document) || terrain_document_get_file (document) == NULL ||
      terrain_document_get_modified (document))
    return FALSE;
  atlas = TERRAIN_ATLAS_FILE (document);
  toc = terrain_atlas_file_find_toc (atlas, TERRAIN_ATLAS_TOC_GEOMETRY, 0);
  return toc >= 0 &&
         terrain_atlas_toc_get_tree_depth (terrain_atlas_file_get_toc (atlas, (guint) toc))
         >= DEEP_TREE_LEVELS;
}

/**
 * terrain_editor_atlas_get_stub_box:
 * @file: the Atlas file holding @stub
 * @stub: a geometry or texture stub
 * @box: (out): what it covers, world units
 *
 * A geometry stub covers its bounds (from the stub, or its chunk before
 * version 101). A texture tile covers the square of the geometry node it
 * textures (terrain_quadtree_texture_geometry_node(): texture tree X
 * mirrors geometry X, atlas-chu-tqt.md §4), a 2^L-th of the root's extent; its heights are those of that node's stub (or the
 * deepest one over it), else the root's.
 *
 * Returns: %FALSE for config stubs and stubs off the trees
 */
gboolean
terrain_editor_atlas_get_stub_box (TerrainAtlasFile *file,
                                   TerrainAtlasStub *stub,
                                   TerrainAtlasBox  *box)
{
  TerrainAtlasToc *toc = terrain_atlas_stub_get_toc (stub);
  TerrainAtlasBox root, heights;
  guint level;
  guint32 x, y, gx, gy;
  double n, w, h;
  gint slot;

  if (toc == NULL || !terrain_atlas_stub_get_node (stub, &level, &x, &y))
    return FALSE;
  if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_GEOMETRY)
    return stub_world_box (file, toc, terrain_atlas_stub_get_index (stub), box);
  if (terrain_atlas_toc_get_kind (toc) != TERRAIN_ATLAS_TOC_TEXTURE ||
      level >= MAX_LEVELS || !terrain_editor_atlas_get_terrain_box (file, &root))
    return FALSE;

  if (!terrain_quadtree_texture_geometry_node (level, x, y, &gx, &gy))
    return FALSE;
  n = ldexp (1.0, (int) level);
  w = ((double) root.max[0] - root.min[0]) / n;
  h = ((double) root.max[1] - root.min[1]) / n;
  box->min[0] = (float) (root.min[0] + gx * w);
  box->max[0] = (float) (root.min[0] + (gx + 1) * w);
  box->min[1] = (float) (root.min[1] + gy * h);
  box->max[1] = (float) (root.min[1] + (gy + 1) * h);
  box->min[2] = root.min[2];
  box->max[2] = root.max[2];

  slot = terrain_atlas_file_find_toc (file, TERRAIN_ATLAS_TOC_GEOMETRY, 0);
  if (slot >= 0)
    {
      TerrainAtlasToc *geometry = terrain_atlas_file_get_toc (file, (guint) slot);
      guint depth = terrain_atlas_toc_get_tree_depth (geometry);
      guint at = MIN (level, depth > 0 ? depth - 1 : 0);
      gint64 index = terrain_atlas_toc_find_stub (geometry, at, gx >> (level - at), gy >> (level - at));

      if (index >= 0 && stub_world_box (file, geometry, (guint) index, &heights))
        {
          box->min[2] = heights.min[2];
          box->max[2] = heights.max[2];
        }
    }
  return TRUE;
}
