/* terrain-model-impl-private.h: what the files of TerrainModel share
 * (terrain-model.c: type, reading the sections, accessors, document
 * vfuncs; -edit.c: position edits and OBJ import; -check.c: validation and
 * description; terrain-model-export.c, through terrain-model-private.h:
 * OBJ and glTF export): the record layout of insomniac-model.md, the
 * instance struct and the section readers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "terrain-model.h"
#include "terrain-dat1-private.h"

G_BEGIN_DECLS


/* insomniac-model.md: record sizes and field offsets. */
#define BUILT_SIZE           72
#define BUILT_CENTRE         0x00
#define BUILT_RADIUS         0x0C
#define BUILT_HALF_EXTENTS   0x10
#define BUILT_QUANTIZATION   0x1C
#define BUILT_LOD_DISTANCES  0x24

#define VERTEX_SIZE          16
#define INDEX_SIZE           2
#define MESH_SIZE            64
#define MESH_VERTEX_START    0x10
#define MESH_FLAGS           0x20
#define LOOK_SIZE            16
#define MATERIAL_SIZE        32

typedef struct
{
  guint32 first;
  guint32 count;
} VertexWindow;

struct _TerrainModel
{
  TerrainDat1 parent_instance;

  gboolean      has_built;
  guint         n_vertices;
  guint         n_indices;
  guint         n_meshes;
  guint         n_materials;
  guint         uv_stride;
  gboolean      has_look;
  guint16       lods[TERRAIN_MODEL_N_LODS][2];
  guint         n_lods;

  /* Per mesh: the vertices its indices reach, with its own range. */
  VertexWindow *windows;
  /* Strings of the DAT1 string block, owned by the container. */
  const char  **material_paths;
  const char  **material_names;
};

/* Sections (terrain-model.c): the name of a section tag in messages
 * (NULL for tags a model does not know); mesh and vertex records of a
 * section whose spans were checked when the model was read. */
const char *model_tag_name          (guint32             tag);
void        model_read_mesh         (TerrainModel       *self,
                                     guint               index,
                                     TerrainModelMesh   *mesh);
void        model_read_vertex       (TerrainModel       *self,
                                     guint               index,
                                     TerrainModelVertex *vertex);

/* Edits (terrain-model-edit.c): the box around every vertex; zeros for a
 * model without vertices. */
void        model_vertex_extent     (TerrainModel       *self,
                                     gfloat              lo[3],
                                     gfloat              hi[3]);

/* Validation and description (terrain-model-check.c), called by the
 * document vfuncs after their parent's: add the model's findings to
 * @issues, its "model" member to the description @root. */
void        model_add_issues        (TerrainModel       *self,
                                     GPtrArray          *issues);
void        model_add_description   (TerrainModel       *self,
                                     JsonNode           *root);
char       *model_describe_section_offset (TerrainDat1 *dat1,
                                           guint32      tag,
                                           gsize        offset);

G_END_DECLS
