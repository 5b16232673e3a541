/* terrain-editor-atlas-renderer-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The Atlas renderer's nodes, chunks, tiles and instance structure, and
 * the functions its files share: terrain-editor-atlas-renderer.c (geometry
 * helpers, the TOCs, the public API and drawing), -cache.c (decoding
 * chunks and tiles into the LRU caches) and -select.c (choosing what a
 * frame draws).
 */

#pragma once

#include "terrain-editor-atlas-renderer.h"

#include <epoxy/gl.h>

G_BEGIN_DECLS

#define TAU_PIXELS 2.0
#define TEXEL_PIXELS 1.5
#define DEFAULT_GEOMETRY_BUDGET ((gsize) 96 << 20)
#define DEFAULT_TEXTURE_BUDGET ((gsize) 160 << 20)
#define DEFAULT_TILE_PIXELS 256
#define MAX_ROUNDS 64
#define MAX_LEVELS 32
/* Camera heights come from the chunks of the first levels, rasterised. */
#define HEIGHT_GRID_SIDE 257
#define HEIGHT_GRID_LEVELS 3
/* position (3), position morph (3), texture coordinate and its morph (4),
 * normal (3) */
#define FLOATS_PER_VERTEX 13
/* How much of a chunk's colour the level tint replaces. */
#define LEVEL_TINT 0.85f

enum {
  STATE_UNLOADED,
  STATE_RESIDENT,
  STATE_ABSENT,      /* no stub or no chunk in the file */
  STATE_FAILED,      /* did not decode */
};

typedef enum {
  LOAD_OK,
  LOAD_FAILED,
  LOAD_NO_ROOM,
} LoadResult;

typedef struct _Node Node;
typedef struct _Chunk Chunk;

struct _Node
{
  Node    *parent;
  Node    *children;     /* four, made when first needed */
  Chunk   *chunk;
  gint64   stub;
  guint32  length;       /* of the chunk's frame: a size estimate */
  guint32  x;
  guint32  y;
  guint8   level;
  guint8   state;
  gboolean have_tc;
  float    box[6];       /* map space: min x, y, z, max x, y, z */
  float    morph_error;  /* largest |height morph| of the chunk, < 0: unknown */
  float    tc_min[2];
  float    tc_max[2];
  guint64  requested;    /* selection round of the last request */
};

struct _Chunk
{
  GList    link;         /* in the geometry LRU, data = the chunk */
  Node    *node;
  GLuint   vao;
  GLuint   vbo;
  GLuint   ibo;
  GLsizei  n_indices;
  guint    n_surface_triangles;
  gsize    bytes;
  guint64  used;
};

typedef struct
{
  GList    link;         /* in the texture LRU while resident */
  gint64   stub;
  guint32  x;
  guint32  y;
  guint8   level;
  guint8   state;
  GLuint   texture;
  gsize    bytes;
  guint64  used;
  guint64  requested;
} Tile;

typedef struct
{
  Node    *node;
  Tile    *tile;
  double   dist;
  float    morph;
} DrawItem;

typedef struct
{
  Node    *node;         /* a geometry request, or */
  Tile    *tile;         /* a texture one */
  guint    level;
  double   dist;
} Request;

struct _TerrainEditorAtlasRenderer
{
  TerrainAtlasFile *file;
  TerrainAtlasToc  *geometry_toc;
  guint             geometry_slot;
  guint             geometry_depth;
  guint32           geometry_version;
  TerrainAtlasToc  *texture_toc;
  guint             texture_slot;
  guint             texture_depth;
  gulong            geometry_handler;
  gulong            texture_handler;
  GFunc             changed_func;
  gpointer          changed_data;

  /* Map space: x = X − origin_x, y = Z, z = origin_y − Y (rows run south,
   * like the 2D view's pictures). */
  double            origin_x;
  double            origin_y;
  double            extent_x;
  double            extent_y;
  double            z_min;
  double            z_max;
  float            *height_grid;

  Node             *root;
  GQueue            chunk_lru;
  GQueue            tile_lru;
  GHashTable       *tiles;        /* texture stub → Tile */
  gsize             geometry_bytes;
  gsize             texture_bytes;
  gsize             geometry_budget;
  gsize             texture_budget;
  guint             n_chunks;
  guint             n_tiles;
  guint             n_failed;
  float             level_morph[MAX_LEVELS];
  double            prior_error;
  guint             tile_pixels;

  guint64           frame;
  guint64           round;
  GArray           *draw_list;
  GArray           *requests;
  GArray           *dead_buffers;
  GArray           *dead_arrays;
  GArray           *dead_textures;

  GLuint            program;
  GLint             max_texture_size;
  GLint             u_mvp;
  GLint             u_morph;
  GLint             u_tile;
  GLint             u_textured;
  GLint             u_texture;
  GLint             u_light;
  GLint             u_height_range;
  GLint             u_tint;
  gboolean          show_levels;

  TerrainEditorAtlasStats stats;
};

/* A geometry chunk decoded for upload (FLOATS_PER_VERTEX floats a vertex). */
typedef struct
{
  float   *vertices;      /* FLOATS_PER_VERTEX each, map space */
  guint    n_vertices;
  guint16 *indices;       /* surface triangles, then skirts; bad ones dropped */
  guint    n_indices;
  guint    n_surface_indices;
  float    box[6];
  float    morph_error;
  float    tc_min[2];
  float    tc_max[2];
  gboolean have_tc;
} Mesh;

/* terrain-editor-atlas-renderer.c */
double atlas_renderer_box_distance (const float  *box,
                                    const double *eye);
gboolean atlas_renderer_box_is_sane (const TerrainAtlasBox *b);
void atlas_renderer_box_to_map (TerrainEditorAtlasRenderer *self,
                                const TerrainAtlasBox      *b,
                                float                      *box);
void atlas_renderer_box_union (float       *box,
                               const float *other);
gboolean atlas_renderer_box_visible (const float *m,
                                     const float *box);

/* terrain-editor-atlas-renderer-cache.c */
void atlas_renderer_delete_dead (TerrainEditorAtlasRenderer *self);
void atlas_renderer_drop_chunk (TerrainEditorAtlasRenderer *self,
                                Node                       *node);
void atlas_renderer_drop_tile (TerrainEditorAtlasRenderer *self,
                               Tile                       *tile);
LoadResult atlas_renderer_load_chunk (TerrainEditorAtlasRenderer *self,
                                      Node                       *node);
gboolean atlas_renderer_load_mesh (TerrainEditorAtlasRenderer  *self,
                                   Node                        *node,
                                   Mesh                        *mesh,
                                   GError                     **error);
LoadResult atlas_renderer_load_tile (TerrainEditorAtlasRenderer *self,
                                     Tile                       *tile);
void atlas_renderer_mesh_clear (Mesh *mesh);
void atlas_renderer_node_expand (TerrainEditorAtlasRenderer *self,
                                 Node                       *node);
void atlas_renderer_node_free_children (Node *node);
void atlas_renderer_node_init (TerrainEditorAtlasRenderer *self,
                               Node                       *node,
                               Node                       *parent,
                               guint                       level,
                               guint32                     x,
                               guint32                     y);
void atlas_renderer_touch_chunk (TerrainEditorAtlasRenderer *self,
                                 Chunk                      *chunk);
void atlas_renderer_touch_tile (TerrainEditorAtlasRenderer *self,
                                Tile                       *tile);
void atlas_renderer_trim_caches (TerrainEditorAtlasRenderer *self);

/* terrain-editor-atlas-renderer-select.c */
int atlas_renderer_compare_draw_items (gconstpointer a,
                                       gconstpointer b);
int atlas_renderer_compare_requests (gconstpointer a,
                                     gconstpointer b);
void atlas_renderer_select_all (TerrainEditorAtlasRenderer    *self,
                                const TerrainEditorAtlasFrame *frame);

G_END_DECLS
