/* terrain-ter7-file.h: Torque3D terrain (.ter TerrainFile version 7)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "core/terrain-document.h"
#include "core/terrain-heightfield.h"
#include "core/terrain-limits.h"

G_BEGIN_DECLS

/**
 * TERRAIN_TER7_VERSION:
 *
 * The version byte of a Torque3D TerrainFile: 7 (`TerrainFile::FILE_VERSION`,
 * docs/formats/torque3d-ter.md).
 */
#define TERRAIN_TER7_VERSION 7

/**
 * TERRAIN_TER7_EMPTY_LAYER:
 *
 * The layer index of a hole: no terrain is drawn or collided with in the
 * square whose south-west sample has it (`TerrainFile::isEmptyAt()`).
 */
#define TERRAIN_TER7_EMPTY_LAYER 255

/**
 * TERRAIN_TER7_DEFAULT_SQUARE_SIZE:
 *
 * The `squareSize` of a new TerrainBlock in Torque3D: metres between height
 * samples (the file does not store it; the mission does).
 */
#define TERRAIN_TER7_DEFAULT_SQUARE_SIZE 1

/**
 * TerrainTer7Section:
 * @TERRAIN_TER7_SECTION_VERSION: the U8 version (7)
 * @TERRAIN_TER7_SECTION_SIZE: the U32 side of both maps, in samples
 * @TERRAIN_TER7_SECTION_HEIGHTS: size × size U16 heights, 11.5 fixed point
 * @TERRAIN_TER7_SECTION_LAYER_MAP: size × size U8 material indices (255:
 *   a hole)
 * @TERRAIN_TER7_SECTION_MATERIAL_NAMES: the U32 material count and each
 *   material's internal name (a U8 length, or 255 and a U16 length, then
 *   the bytes)
 * @TERRAIN_TER7_SECTION_TRAILING: bytes after the material names
 *
 * The blocks of a version 7 `.ter` file, in file order.
 */
typedef enum
{
  TERRAIN_TER7_SECTION_VERSION,
  TERRAIN_TER7_SECTION_SIZE,
  TERRAIN_TER7_SECTION_HEIGHTS,
  TERRAIN_TER7_SECTION_LAYER_MAP,
  TERRAIN_TER7_SECTION_MATERIAL_NAMES,
  TERRAIN_TER7_SECTION_TRAILING,
} TerrainTer7Section;

#define TERRAIN_TYPE_TER7_FILE (terrain_ter7_file_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainTer7File, terrain_ter7_file, TERRAIN, TER7_FILE, TerrainDocument)

TERRAIN_AVAILABLE_IN_ALL
TerrainTer7File    *terrain_ter7_file_new_from_bytes       (GBytes               *bytes,
                                                            const TerrainLimits  *limits,
                                                            GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainTer7File    *terrain_ter7_file_new_from_heightfield (TerrainHeightfield   *field,
                                                            gdouble               offset,
                                                            const char * const   *materials,
                                                            GError              **error);
TERRAIN_AVAILABLE_IN_ALL
guint               terrain_ter7_file_get_size             (TerrainTer7File      *self);
TERRAIN_AVAILABLE_IN_ALL
guint16             terrain_ter7_file_get_height           (TerrainTer7File      *self,
                                                            guint                 x,
                                                            guint                 y);
TERRAIN_AVAILABLE_IN_ALL
void                terrain_ter7_file_set_height           (TerrainTer7File      *self,
                                                            guint                 x,
                                                            guint                 y,
                                                            guint16               value);
TERRAIN_AVAILABLE_IN_ALL
guint8              terrain_ter7_file_get_layer            (TerrainTer7File      *self,
                                                            guint                 x,
                                                            guint                 y);
TERRAIN_AVAILABLE_IN_ALL
void                terrain_ter7_file_set_layer            (TerrainTer7File      *self,
                                                            guint                 x,
                                                            guint                 y,
                                                            guint8                index);
TERRAIN_AVAILABLE_IN_ALL
guint               terrain_ter7_file_get_n_materials      (TerrainTer7File      *self);
TERRAIN_AVAILABLE_IN_ALL
const char         *terrain_ter7_file_get_material_name    (TerrainTer7File      *self,
                                                            guint                 index);
TERRAIN_AVAILABLE_IN_ALL
gboolean            terrain_ter7_file_set_material_name    (TerrainTer7File      *self,
                                                            guint                 index,
                                                            const char           *name,
                                                            GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean            terrain_ter7_file_add_material         (TerrainTer7File      *self,
                                                            const char           *name,
                                                            guint                *index,
                                                            GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean            terrain_ter7_file_get_section_span     (TerrainTer7File      *self,
                                                            TerrainTer7Section    section,
                                                            gsize                *offset,
                                                            gsize                *size);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightfield *terrain_ter7_file_to_heightfield       (TerrainTer7File      *self,
                                                            gdouble               square_size,
                                                            GError              **error);

G_END_DECLS
