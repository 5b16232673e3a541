/* terrain-ter-file.h: Torque / Tribes 2 legacy terrain (.ter)
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
 * TERRAIN_TER_SIZE:
 *
 * Samples on a side of a legacy terrain block: 256 (field-notes.md, "Legacy
 * Torque terrain").
 */
#define TERRAIN_TER_SIZE 256

/**
 * TERRAIN_TER_MATERIALS:
 *
 * Number of material name slots of a `.ter` file.
 */
#define TERRAIN_TER_MATERIALS 8

/**
 * TERRAIN_TER_DEFAULT_SQUARE_SIZE:
 *
 * The mission's default `squareSize`: metres between height samples.
 */
#define TERRAIN_TER_DEFAULT_SQUARE_SIZE 8

/**
 * TerrainTerSection:
 * @TERRAIN_TER_SECTION_VERSION: the U8 version
 * @TERRAIN_TER_SECTION_HEIGHTS: 256 × 256 U16 heights, 11.5 fixed point
 * @TERRAIN_TER_SECTION_MATERIAL_MAP: 256 × 256 U8 material index (low
 *   three bits) and flags
 * @TERRAIN_TER_SECTION_MATERIAL_NAMES: eight U8-length-prefixed names
 * @TERRAIN_TER_SECTION_ALPHA_MAPS: one 256 × 256 U8 map per named material
 *   (version 2 and later)
 * @TERRAIN_TER_SECTION_TEXTURE_SCRIPT: U32 length + texture script (version 3)
 * @TERRAIN_TER_SECTION_HEIGHT_SCRIPT: U32 length + heightfield script
 *   (version 3)
 * @TERRAIN_TER_SECTION_TRAILING: bytes after the last known block
 *
 * The blocks of a `.ter` file, in file order.
 */
typedef enum
{
  TERRAIN_TER_SECTION_VERSION,
  TERRAIN_TER_SECTION_HEIGHTS,
  TERRAIN_TER_SECTION_MATERIAL_MAP,
  TERRAIN_TER_SECTION_MATERIAL_NAMES,
  TERRAIN_TER_SECTION_ALPHA_MAPS,
  TERRAIN_TER_SECTION_TEXTURE_SCRIPT,
  TERRAIN_TER_SECTION_HEIGHT_SCRIPT,
  TERRAIN_TER_SECTION_TRAILING,
} TerrainTerSection;

#define TERRAIN_TYPE_TER_FILE (terrain_ter_file_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainTerFile, terrain_ter_file, TERRAIN, TER_FILE, TerrainDocument)

TERRAIN_AVAILABLE_IN_ALL
TerrainTerFile     *terrain_ter_file_new_from_bytes      (GBytes               *bytes,
                                                          const TerrainLimits  *limits,
                                                          GError              **error);
TERRAIN_AVAILABLE_IN_ALL
guint8              terrain_ter_file_get_version         (TerrainTerFile       *self);
TERRAIN_AVAILABLE_IN_ALL
guint16             terrain_ter_file_get_height          (TerrainTerFile       *self,
                                                          guint                 x,
                                                          guint                 y);
TERRAIN_AVAILABLE_IN_ALL
void                terrain_ter_file_set_height          (TerrainTerFile       *self,
                                                          guint                 x,
                                                          guint                 y,
                                                          guint16               value);
TERRAIN_AVAILABLE_IN_ALL
guint8              terrain_ter_file_get_material        (TerrainTerFile       *self,
                                                          guint                 x,
                                                          guint                 y);
TERRAIN_AVAILABLE_IN_ALL
const char         *terrain_ter_file_get_material_name   (TerrainTerFile       *self,
                                                          guint                 slot);
TERRAIN_AVAILABLE_IN_ALL
guint               terrain_ter_file_get_n_alpha_maps    (TerrainTerFile       *self);
TERRAIN_AVAILABLE_IN_ALL
const guint8       *terrain_ter_file_get_alpha_map       (TerrainTerFile       *self,
                                                          guint                 index,
                                                          gsize                *size);
TERRAIN_AVAILABLE_IN_ALL
char               *terrain_ter_file_dup_texture_script  (TerrainTerFile       *self);
TERRAIN_AVAILABLE_IN_ALL
char               *terrain_ter_file_dup_height_script   (TerrainTerFile       *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean            terrain_ter_file_get_section_span    (TerrainTerFile       *self,
                                                          TerrainTerSection     section,
                                                          gsize                *offset,
                                                          gsize                *size);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightfield *terrain_ter_file_to_heightfield      (TerrainTerFile       *self,
                                                          gdouble               square_size,
                                                          GError              **error);

G_END_DECLS
