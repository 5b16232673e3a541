/* terrain-format.h: format detection
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <glib-object.h>

#include "terrain-version.h"

G_BEGIN_DECLS

/**
 * TerrainFormat:
 * @TERRAIN_FORMAT_UNKNOWN: not a format libterrain recognises
 * @TERRAIN_FORMAT_TNT: Total Annihilation map terrain (`.tnt`, 0x2000 or legacy 0x1020)
 * @TERRAIN_FORMAT_SCT: Total Annihilation editor section (`.sct`, v2 or v3)
 * @TERRAIN_FORMAT_ATLAS: Torque (TGEA) Atlas container (`.atlas`, magic `ATLS`)
 * @TERRAIN_FORMAT_CHU: chunked-LOD geometry (`.chu`, magic `CHU3`, or `CHU\0` in Ulrich's files)
 * @TERRAIN_FORMAT_TQT: texture quadtree (`.tqt`, magic `tqt\0`)
 * @TERRAIN_FORMAT_TER: Torque / Tribes 2 legacy terrain or Torque3D terrain (`.ter`,
 *   versions 1 to 3 or 7)
 * @TERRAIN_FORMAT_HPI: Total Annihilation archive (`.hpi`, `.ufo`, `.ccx`, `.gp3`, magic `HAPI`)
 * @TERRAIN_FORMAT_DAT1: Insomniac DAT1 container (magic `1TAD`)
 * @TERRAIN_FORMAT_FLOOR_HEIGHT: Insomniac FloorHeightData body (`.fhd`, no magic)
 * @TERRAIN_FORMAT_NODE_LAYER: Insomniac TerrainNodeLayer body (`.tnl`, no magic)
 * @TERRAIN_FORMAT_NODE_CHUNK: Insomniac TNLChunk body (`.tnlc`, no magic)
 * @TERRAIN_FORMAT_OTA: Total Annihilation map description (`.ota`, TDF syntax, no magic)
 * @TERRAIN_FORMAT_TDF: Total Annihilation TDF-syntax text, e.g. feature definitions
 *   (`.tdf`, no magic)
 * @TERRAIN_FORMAT_HEIGHTMAP: a plain heightmap, read by
 *   [class@Terrain.HeightmapDocument]: a greyscale PNG (by its signature and
 *   IHDR colour type 0, whatever its name), an SRTM tile (`.hgt` of exactly
 *   1201² or 3601² 16-bit samples) or a raw16 grid (`.raw`, `.r16` holding a
 *   square of 16-bit samples). A colour PNG, or a square of 16-bit samples
 *   under another name, is not detected but opens when this format is named
 * @TERRAIN_FORMAT_GAF: Total Annihilation sprite and animation archive (`.gaf`,
 *   version word 0x00010100), read by [class@Terrain.GafArchive]
 *
 * The file formats libterrain detects.
 */
typedef enum
{
  TERRAIN_FORMAT_UNKNOWN,
  TERRAIN_FORMAT_TNT,
  TERRAIN_FORMAT_SCT,
  TERRAIN_FORMAT_ATLAS,
  TERRAIN_FORMAT_CHU,
  TERRAIN_FORMAT_TQT,
  TERRAIN_FORMAT_TER,
  TERRAIN_FORMAT_HPI,
  TERRAIN_FORMAT_DAT1,
  TERRAIN_FORMAT_FLOOR_HEIGHT,
  TERRAIN_FORMAT_NODE_LAYER,
  TERRAIN_FORMAT_NODE_CHUNK,
  TERRAIN_FORMAT_OTA,
  TERRAIN_FORMAT_TDF,
  TERRAIN_FORMAT_HEIGHTMAP,
  TERRAIN_FORMAT_GAF,
} TerrainFormat;

TERRAIN_AVAILABLE_IN_ALL
TerrainFormat        terrain_format_detect          (GBytes        *bytes,
                                                     const char    *filename);
TERRAIN_AVAILABLE_IN_ALL
TerrainFormat        terrain_format_from_name       (const char    *name);
TERRAIN_AVAILABLE_IN_ALL
const char          *terrain_format_get_name        (TerrainFormat  format);
TERRAIN_AVAILABLE_IN_ALL
const char          *terrain_format_get_description (TerrainFormat  format);
TERRAIN_AVAILABLE_IN_ALL
const char * const  *terrain_format_get_extensions  (TerrainFormat  format);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_format_can_load        (TerrainFormat  format);

G_END_DECLS
