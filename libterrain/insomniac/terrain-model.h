/* terrain-model.h: Insomniac DAT1 models (Sunset Overdrive .model)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "terrain-dat1.h"

G_BEGIN_DECLS

/**
 * TERRAIN_MODEL_ASSET_TYPE:
 *
 * The type magic of a `.model` asset (insomniac-model.md).
 */
#define TERRAIN_MODEL_ASSET_TYPE 0x6AE15C79u

/**
 * TERRAIN_MODEL_TAG_BUILT:
 *
 * Tag of the 72-byte Model Built section (bounds, quantisation).
 */
#define TERRAIN_MODEL_TAG_BUILT 0x283D0383u
/**
 * TERRAIN_MODEL_TAG_VERTICES:
 *
 * Tag of the vertex section (16 bytes per vertex).
 */
#define TERRAIN_MODEL_TAG_VERTICES 0xA98BE69Bu
/**
 * TERRAIN_MODEL_TAG_INDICES:
 *
 * Tag of the index section (u16 each).
 */
#define TERRAIN_MODEL_TAG_INDICES 0x0859863Du
/**
 * TERRAIN_MODEL_TAG_MESHES:
 *
 * Tag of the mesh section (64 bytes per submesh).
 */
#define TERRAIN_MODEL_TAG_MESHES 0x78D9CBDEu
/**
 * TERRAIN_MODEL_TAG_LOOK:
 *
 * Tag of the look section (four LOD mesh ranges).
 */
#define TERRAIN_MODEL_TAG_LOOK 0x06EB7EFCu
/**
 * TERRAIN_MODEL_TAG_UV0:
 *
 * Tag of the first UV set (half-float u, v; 4 or 8 bytes per vertex).
 */
#define TERRAIN_MODEL_TAG_UV0 0x16F3BA18u
/**
 * TERRAIN_MODEL_TAG_MATERIALS:
 *
 * Tag of the material section (32 bytes per material).
 */
#define TERRAIN_MODEL_TAG_MATERIALS 0x3250BB80u
/**
 * TERRAIN_MODEL_TAG_VERTEX_COLOR:
 *
 * Tag of the vertex colour section (kept raw).
 */
#define TERRAIN_MODEL_TAG_VERTEX_COLOR 0x5CBA9DE9u
/**
 * TERRAIN_MODEL_TAG_SKIN:
 *
 * Tag of the skin data section (kept raw).
 */
#define TERRAIN_MODEL_TAG_SKIN 0xDCA379A2u

/**
 * TERRAIN_MODEL_N_LODS:
 *
 * Number of LOD ranges in the look section.
 */
#define TERRAIN_MODEL_N_LODS 4

/**
 * TERRAIN_MODEL_ALL_LODS:
 *
 * LOD argument of the exporters selecting every distinct LOD.
 */
#define TERRAIN_MODEL_ALL_LODS (-1)

/**
 * TERRAIN_MODEL_MESH_FLAG_RELATIVE_INDICES:
 *
 * Mesh flag: the mesh's indices are relative to its vertex start.
 */
#define TERRAIN_MODEL_MESH_FLAG_RELATIVE_INDICES 0x10

/**
 * TerrainModelVertex:
 * @position: quantised position; multiply by the position scale
 *   ([method@Terrain.Model.get_position_scale])
 * @w: fourth position word (±32767 in most models; possibly a bitangent sign)
 * @normal: packed normal, see [func@Terrain.Model.decode_normal]
 * @tangent: packed tangent, kept raw
 *
 * One 16-byte vertex record as stored.
 */
typedef struct
{
  gint16  position[3];
  gint16  w;
  guint32 normal;
  guint32 tangent;
} TerrainModelVertex;

/**
 * TerrainModelMesh:
 * @sphere: bounding sphere: centre x, y, z and radius
 * @vertex_start: first vertex
 * @index_start: first index
 * @index_count: number of indices (a multiple of 3)
 * @vertex_count: number of vertices
 * @flags: flags; %TERRAIN_MODEL_MESH_FLAG_RELATIVE_INDICES
 * @material: material index
 *
 * One 64-byte submesh record (the 28 unknown bytes are kept in the file).
 */
typedef struct
{
  gfloat  sphere[4];
  guint32 vertex_start;
  guint32 index_start;
  guint32 index_count;
  guint32 vertex_count;
  guint16 flags;
  guint16 material;
} TerrainModelMesh;

/**
 * TerrainModelEditFlags:
 * @TERRAIN_MODEL_EDIT_NONE: keep the quantisation when every position fits
 *   it, otherwise take the finest that fits; recompute the bounds
 * @TERRAIN_MODEL_EDIT_BEST_SCALE: always take the finest quantisation that
 *   fits the new positions (the nibble of the quantisation word may grow)
 * @TERRAIN_MODEL_EDIT_KEEP_BOUNDS: leave the Model Built bounds and the mesh
 *   bounding spheres as they are
 *
 * Options of [method@Terrain.Model.set_positions].
 */
typedef enum
{
  TERRAIN_MODEL_EDIT_NONE = 0,
  TERRAIN_MODEL_EDIT_BEST_SCALE = 1 << 0,
  TERRAIN_MODEL_EDIT_KEEP_BOUNDS = 1 << 1,
} TerrainModelEditFlags;

#define TERRAIN_TYPE_MODEL (terrain_model_get_type ())

/**
 * TerrainModel:
 *
 * A Sunset Overdrive `.model` asset (insomniac-model.md): a [class@Terrain.Dat1]
 * whose sections hold quantised vertices (i16 positions scaled by 2^−N, packed
 * normals), u16 indices, submeshes, four LOD ranges, half-float UVs and
 * material names. Every range is checked when the model is read; vertex
 * colour and skin sections are kept raw.
 *
 * The geometry exports to Wavefront OBJ + MTL and to binary glTF 2.0, and
 * its vertex positions can be replaced (from an edited OBJ too) and
 * re-quantised; the rest of the file is written back byte for byte.
 *
 * [method@Terrain.Document.render_image] draws LOD 0 seen from above,
 * orthographically: the triangles' X and Z extent fills 1024 pixels along
 * its longer side, +X to the right and −Z (forward) up; each pixel shows
 * the highest surface over it, shaded by its true slope and tinted by
 * height, and pixels no triangle covers are transparent.
 * [method@Terrain.Document.export_heights] returns that view's heights (Y)
 * as 16 bits, the lowest 0 and the highest 65535, uncovered pixels 0. Both
 * fail with %TERRAIN_ERROR_NOT_SUPPORTED for a model without geometry.
 */

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainModel, terrain_model, TERRAIN, MODEL, TerrainDat1)

TERRAIN_AVAILABLE_IN_ALL
TerrainModel *terrain_model_new_from_bytes     (GBytes                *bytes,
                                                const TerrainLimits   *limits,
                                                GError               **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainModel *terrain_model_new_from_file      (GFile                 *file,
                                                const TerrainLimits   *limits,
                                                GCancellable          *cancellable,
                                                GError               **error);

TERRAIN_AVAILABLE_IN_ALL
void          terrain_model_decode_normal      (guint32                packed,
                                                gfloat                 normal[3]);

/* Model Built */
TERRAIN_AVAILABLE_IN_ALL
gboolean      terrain_model_has_geometry       (TerrainModel          *self);
TERRAIN_AVAILABLE_IN_ALL
void          terrain_model_get_bounds         (TerrainModel          *self,
                                                gfloat                 centre[3],
                                                gfloat                *radius,
                                                gfloat                 half_extents[3]);
TERRAIN_AVAILABLE_IN_ALL
guint32       terrain_model_get_quantization   (TerrainModel          *self);
TERRAIN_AVAILABLE_IN_ALL
guint         terrain_model_get_position_shift (TerrainModel          *self);
TERRAIN_AVAILABLE_IN_ALL
gdouble       terrain_model_get_position_scale (TerrainModel          *self);
TERRAIN_AVAILABLE_IN_ALL
void          terrain_model_get_lod_distances  (TerrainModel          *self,
                                                gfloat                 distances[3]);

/* Vertices */
TERRAIN_AVAILABLE_IN_ALL
guint         terrain_model_get_n_vertices     (TerrainModel          *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean      terrain_model_get_vertex         (TerrainModel          *self,
                                                guint                  index,
                                                TerrainModelVertex    *vertex);
TERRAIN_AVAILABLE_IN_ALL
gboolean      terrain_model_get_position       (TerrainModel          *self,
                                                guint                  index,
                                                gfloat                 position[3]);
TERRAIN_AVAILABLE_IN_ALL
gboolean      terrain_model_get_normal         (TerrainModel          *self,
                                                guint                  index,
                                                gfloat                 normal[3]);
TERRAIN_AVAILABLE_IN_ALL
guint         terrain_model_get_uv_stride      (TerrainModel          *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean      terrain_model_get_uv             (TerrainModel          *self,
                                                guint                  index,
                                                gfloat                 uv[2]);

/* Indices and meshes */
TERRAIN_AVAILABLE_IN_ALL
guint         terrain_model_get_n_indices      (TerrainModel          *self);
TERRAIN_AVAILABLE_IN_ALL
guint16       terrain_model_get_index          (TerrainModel          *self,
                                                guint                  index);
TERRAIN_AVAILABLE_IN_ALL
guint         terrain_model_get_n_meshes       (TerrainModel          *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean      terrain_model_get_mesh           (TerrainModel          *self,
                                                guint                  index,
                                                TerrainModelMesh      *mesh);
TERRAIN_AVAILABLE_IN_ALL
guint         terrain_model_get_mesh_vertex    (TerrainModel          *self,
                                                guint                  mesh,
                                                guint                  corner);
TERRAIN_AVAILABLE_IN_ALL
gboolean      terrain_model_get_mesh_window    (TerrainModel          *self,
                                                guint                  mesh,
                                                guint                 *first,
                                                guint                 *count);

/* LODs */
TERRAIN_AVAILABLE_IN_ALL
guint         terrain_model_get_n_lods         (TerrainModel          *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean      terrain_model_get_lod            (TerrainModel          *self,
                                                guint                  lod,
                                                guint                 *first_mesh,
                                                guint                 *n_meshes);

/* Materials */
TERRAIN_AVAILABLE_IN_ALL
guint         terrain_model_get_n_materials    (TerrainModel          *self);
TERRAIN_AVAILABLE_IN_ALL
const char   *terrain_model_get_material_path  (TerrainModel          *self,
                                                guint                  index);
TERRAIN_AVAILABLE_IN_ALL
const char   *terrain_model_get_material_name  (TerrainModel          *self,
                                                guint                  index);

/* Edits */
TERRAIN_AVAILABLE_IN_ALL
gboolean      terrain_model_set_positions      (TerrainModel          *self,
                                                const gfloat          *positions,
                                                gsize                  n_vertices,
                                                TerrainModelEditFlags  flags,
                                                GError               **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean      terrain_model_import_obj         (TerrainModel          *self,
                                                GBytes                *obj,
                                                gint                   lod,
                                                TerrainModelEditFlags  flags,
                                                GError               **error);

/* Export (terrain-model-export.c) */
TERRAIN_AVAILABLE_IN_ALL
GBytes       *terrain_model_export_obj         (TerrainModel          *self,
                                                gint                   lod,
                                                const char            *mtl_name,
                                                GBytes               **mtl,
                                                GError               **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes       *terrain_model_export_glb         (TerrainModel          *self,
                                                gint                   lod,
                                                GError               **error);

G_END_DECLS
