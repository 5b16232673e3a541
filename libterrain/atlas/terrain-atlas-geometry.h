/* terrain-atlas-geometry.h: Atlas geometry chunks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <glib-object.h>

#include "terrain-version.h"
#include "core/terrain-limits.h"

G_BEGIN_DECLS

/**
 * TERRAIN_ATLAS_VERSION:
 *
 * The newest Atlas resource version libterrain knows: 140 (atlas-chu-tqt.md
 * §7). Geometry layouts change at 101, 120, 130 and 140; texture and config
 * layouts never change.
 */
#define TERRAIN_ATLAS_VERSION 140

/**
 * TERRAIN_ATLAS_GEOMETRY_FOOTER:
 *
 * The U32 that ends every geometry body from version 120 on (§3).
 */
#define TERRAIN_ATLAS_GEOMETRY_FOOTER 0xCEFEDEEFu

/**
 * TERRAIN_ATLAS_COLLISION_END:
 *
 * The U16 that ends each bin list of a collision index buffer (§3).
 */
#define TERRAIN_ATLAS_COLLISION_END 0xFFFFu

/**
 * TERRAIN_ATLAS_MAX_COLLISION_DEPTH:
 *
 * Deepest collision tree the reader accepts (TGEA's quadtree limit).
 */
#define TERRAIN_ATLAS_MAX_COLLISION_DEPTH 15

/**
 * TerrainAtlasBox:
 * @min: minimum X, Y, Z
 * @max: maximum X, Y, Z
 *
 * An axis-aligned box (Torque's Box3F): six F32 values, minimum XYZ then
 * maximum XYZ, in world units. Boxes read from a file keep their exact bits.
 */
typedef struct _TerrainAtlasBox TerrainAtlasBox;

struct _TerrainAtlasBox
{
  gfloat min[3];
  gfloat max[3];
};

#define TERRAIN_TYPE_ATLAS_BOX (terrain_atlas_box_get_type ())

TERRAIN_AVAILABLE_IN_ALL
GType            terrain_atlas_box_get_type  (void) G_GNUC_CONST;
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasBox *terrain_atlas_box_copy      (const TerrainAtlasBox *box);
TERRAIN_AVAILABLE_IN_ALL
void             terrain_atlas_box_free      (TerrainAtlasBox       *box);
TERRAIN_AVAILABLE_IN_ALL
void             terrain_atlas_box_union     (TerrainAtlasBox       *box,
                                              const TerrainAtlasBox *other);
TERRAIN_AVAILABLE_IN_ALL
gboolean         terrain_atlas_box_contains  (const TerrainAtlasBox *box,
                                              const TerrainAtlasBox *other);
TERRAIN_AVAILABLE_IN_ALL
gboolean         terrain_atlas_box_equal     (const TerrainAtlasBox *a,
                                              const TerrainAtlasBox *b);

/**
 * TerrainAtlasVertex:
 * @point: position X, Y, Z in world units
 * @tex_coord: terrain-wide texture coordinate
 * @tex_morph_offset: texture-coordinate morph offset
 * @point_morph_offset: position morph offset (the height at the coarser LOD
 *   minus this vertex's height in Z)
 * @normal: surface normal; (0, 0, 1) for versions before 140, which do not
 *   store it
 *
 * One geometry vertex in the canonical version-140 field set
 * (GFXAtlasVert2, atlas-chu-tqt.md §10). Every version is decoded into it;
 * the version-specific field order is the codec's business (§3, §7).
 */
typedef struct _TerrainAtlasVertex TerrainAtlasVertex;

struct _TerrainAtlasVertex
{
  gfloat point[3];
  gfloat tex_coord[2];
  gfloat tex_morph_offset[2];
  gfloat point_morph_offset[3];
  gfloat normal[3];
};

/**
 * TerrainAtlasLoss:
 * @TERRAIN_ATLAS_LOSS_NONE: the target layout holds everything
 * @TERRAIN_ATLAS_LOSS_NORMALS: normals other than (0, 0, 1) are dropped
 *   (versions before 140)
 * @TERRAIN_ATLAS_LOSS_COLLISION: the collision block is dropped (versions
 *   before 120)
 * @TERRAIN_ATLAS_LOSS_BOUNDS: stored bounds that differ from the vertices'
 *   bounds are dropped (versions before 101 store none)
 *
 * What encoding a geometry chunk for an older version loses.
 */
typedef enum /*< flags >*/
{
  TERRAIN_ATLAS_LOSS_NONE = 0,
  TERRAIN_ATLAS_LOSS_NORMALS = 1 << 0,
  TERRAIN_ATLAS_LOSS_COLLISION = 1 << 1,
  TERRAIN_ATLAS_LOSS_BOUNDS = 1 << 2,
} TerrainAtlasLoss;

#define TERRAIN_TYPE_ATLAS_GEOMETRY (terrain_atlas_geometry_get_type ())

/**
 * TerrainAtlasGeometry:
 *
 * A decoded geometry chunk (atlas-chu-tqt.md §3) in the canonical
 * version-140 field set (§7): previousChunk, bounds, triangle-list indices
 * with their skirt count, [struct@Terrain.AtlasVertex] vertices, and an
 * optional collision block (tree of Z ranges, bin offsets, 0xFFFF-ended
 * bin lists). Codecs for every version: below 101, 101-119, 120-129,
 * 130-139 and 140 on.
 */

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainAtlasGeometry, terrain_atlas_geometry,
                      TERRAIN, ATLAS_GEOMETRY, GObject)

TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasGeometry *
terrain_atlas_geometry_new (void);

TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasGeometry *
terrain_atlas_geometry_new_from_body (GBytes               *body,
                                      guint32               version,
                                      goffset               body_offset,
                                      const TerrainLimits  *limits,
                                      GError              **error);

TERRAIN_AVAILABLE_IN_ALL
GBytes *
terrain_atlas_geometry_encode_body (TerrainAtlasGeometry  *self,
                                    guint32                version,
                                    TerrainAtlasLoss      *loss,
                                    GError               **error);

TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasGeometry *
terrain_atlas_geometry_copy (TerrainAtlasGeometry *self);

TERRAIN_AVAILABLE_IN_ALL
guint32
terrain_atlas_geometry_get_source_version (TerrainAtlasGeometry *self);

TERRAIN_AVAILABLE_IN_ALL
guint32
terrain_atlas_geometry_get_previous_chunk (TerrainAtlasGeometry *self);

TERRAIN_AVAILABLE_IN_ALL
void
terrain_atlas_geometry_set_previous_chunk (TerrainAtlasGeometry *self,
                                           guint32               offset);

TERRAIN_AVAILABLE_IN_ALL
void
terrain_atlas_geometry_get_bounds (TerrainAtlasGeometry *self,
                                   TerrainAtlasBox      *bounds);

TERRAIN_AVAILABLE_IN_ALL
void
terrain_atlas_geometry_set_bounds (TerrainAtlasGeometry  *self,
                                   const TerrainAtlasBox *bounds);

TERRAIN_AVAILABLE_IN_ALL
gboolean
terrain_atlas_geometry_compute_bounds (TerrainAtlasGeometry *self,
                                       TerrainAtlasBox      *bounds);

TERRAIN_AVAILABLE_IN_ALL
guint
terrain_atlas_geometry_get_n_vertices (TerrainAtlasGeometry *self);

TERRAIN_AVAILABLE_IN_ALL
const TerrainAtlasVertex *
terrain_atlas_geometry_get_vertices (TerrainAtlasGeometry *self,
                                     guint                *n_vertices);

TERRAIN_AVAILABLE_IN_ALL
void
terrain_atlas_geometry_set_vertices (TerrainAtlasGeometry     *self,
                                     const TerrainAtlasVertex *vertices,
                                     guint                     n_vertices);

TERRAIN_AVAILABLE_IN_ALL
void
terrain_atlas_geometry_set_vertex_height (TerrainAtlasGeometry *self,
                                          guint                 index,
                                          gfloat                z);

TERRAIN_AVAILABLE_IN_ALL
guint
terrain_atlas_geometry_get_n_indices (TerrainAtlasGeometry *self);

TERRAIN_AVAILABLE_IN_ALL
const guint16 *
terrain_atlas_geometry_get_indices (TerrainAtlasGeometry *self,
                                    guint                *n_indices);

TERRAIN_AVAILABLE_IN_ALL
guint32
terrain_atlas_geometry_get_skirt_skip_count (TerrainAtlasGeometry *self);

TERRAIN_AVAILABLE_IN_ALL
void
terrain_atlas_geometry_set_indices (TerrainAtlasGeometry *self,
                                    const guint16        *indices,
                                    guint                 n_indices,
                                    guint32               skirt_skip_count);

TERRAIN_AVAILABLE_IN_ALL
gboolean
terrain_atlas_geometry_has_collision (TerrainAtlasGeometry *self);

TERRAIN_AVAILABLE_IN_ALL
guint32
terrain_atlas_geometry_get_collision_depth (TerrainAtlasGeometry *self);

TERRAIN_AVAILABLE_IN_ALL
const gfloat *
terrain_atlas_geometry_get_collision_tree (TerrainAtlasGeometry *self,
                                           guint                *n_nodes);
TERRAIN_AVAILABLE_IN_ALL
gfloat        *terrain_atlas_geometry_dup_collision_tree (TerrainAtlasGeometry *self,
                                                          gsize                *n_values);

TERRAIN_AVAILABLE_IN_ALL
const guint16 *
terrain_atlas_geometry_get_collision_offsets (TerrainAtlasGeometry *self,
                                              guint                *n_offsets);

TERRAIN_AVAILABLE_IN_ALL
const guint16 *
terrain_atlas_geometry_get_collision_indices (TerrainAtlasGeometry *self,
                                              guint                *n_indices);

TERRAIN_AVAILABLE_IN_ALL
gboolean
terrain_atlas_geometry_set_collision (TerrainAtlasGeometry  *self,
                                      guint32                depth,
                                      const gfloat          *tree,
                                      guint                  n_nodes,
                                      const guint16         *offsets,
                                      guint                  n_offsets,
                                      const guint16         *indices,
                                      guint                  n_indices,
                                      GError               **error);

TERRAIN_AVAILABLE_IN_ALL
gboolean
terrain_atlas_geometry_set_collision_values (TerrainAtlasGeometry  *self,
                                             guint32                depth,
                                             const gfloat          *tree,
                                             gsize                  n_values,
                                             const guint16         *offsets,
                                             guint                  n_offsets,
                                             const guint16         *indices,
                                             guint                  n_indices,
                                             GError               **error);

TERRAIN_AVAILABLE_IN_ALL
void
terrain_atlas_geometry_clear_collision (TerrainAtlasGeometry *self);

TERRAIN_AVAILABLE_IN_ALL
gboolean
terrain_atlas_geometry_generate_collision (TerrainAtlasGeometry  *self,
                                           guint32                depth,
                                           GError               **error);

TERRAIN_AVAILABLE_IN_ALL
GPtrArray *
terrain_atlas_geometry_check (TerrainAtlasGeometry *self,
                              const char           *section,
                              gint64                offset,
                              gint64                record);

G_END_DECLS
