/* terrain-ota-file.h: Total Annihilation map descriptions (.ota)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "terrain-tdf-document.h"

G_BEGIN_DECLS

/**
 * TerrainOtaStartPosition:
 * @player: N of the `specialwhat=StartPosN` entry (1 for the first player)
 * @x: `XPos`, in map pixels from the west edge
 * @z: `ZPos`, in map pixels from the north edge
 *
 * A start position of a schema's `[specials]` block.
 */
typedef struct
{
  guint player;
  gint x;
  gint z;
} TerrainOtaStartPosition;

#define TERRAIN_TYPE_OTA_FILE (terrain_ota_file_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainOtaFile, terrain_ota_file, TERRAIN, OTA_FILE, TerrainTdfDocument)

TERRAIN_AVAILABLE_IN_ALL
TerrainOtaFile     *terrain_ota_file_new                    (const char           *mission_name,
                                                             GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainOtaFile     *terrain_ota_file_new_from_bytes         (GBytes               *bytes,
                                                             const TerrainLimits  *limits,
                                                             GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainOtaFile     *terrain_ota_file_new_from_file          (GFile                *file,
                                                             const TerrainLimits  *limits,
                                                             GCancellable         *cancellable,
                                                             GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainTdfSection  *terrain_ota_file_get_global_header      (TerrainOtaFile       *self);
TERRAIN_AVAILABLE_IN_ALL
const char         *terrain_ota_file_get_header_value       (TerrainOtaFile       *self,
                                                             const char           *key);
TERRAIN_AVAILABLE_IN_ALL
gboolean            terrain_ota_file_set_header_value       (TerrainOtaFile       *self,
                                                             const char           *key,
                                                             const char           *value,
                                                             GError              **error);
TERRAIN_AVAILABLE_IN_ALL
const char         *terrain_ota_file_get_mission_name       (TerrainOtaFile       *self);
TERRAIN_AVAILABLE_IN_ALL
const char         *terrain_ota_file_get_size               (TerrainOtaFile       *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean            terrain_ota_file_parse_size             (TerrainOtaFile       *self,
                                                             guint                *width,
                                                             guint                *height);
TERRAIN_AVAILABLE_IN_ALL
gint                terrain_ota_file_get_schema_count       (TerrainOtaFile       *self);
TERRAIN_AVAILABLE_IN_ALL
guint               terrain_ota_file_get_n_schemas          (TerrainOtaFile       *self);
TERRAIN_AVAILABLE_IN_ALL
TerrainTdfSection  *terrain_ota_file_get_schema             (TerrainOtaFile       *self,
                                                             guint                 number);
TERRAIN_AVAILABLE_IN_ALL
const char         *terrain_ota_file_get_schema_type        (TerrainOtaFile       *self,
                                                             guint                 number);
TERRAIN_AVAILABLE_IN_ALL
TerrainOtaStartPosition *
                    terrain_ota_file_get_start_positions    (TerrainOtaFile       *self,
                                                             guint                 schema,
                                                             guint                *n_positions);
TERRAIN_AVAILABLE_IN_ALL
gboolean            terrain_ota_file_get_start_position     (TerrainOtaFile       *self,
                                                             guint                 schema,
                                                             guint                 player,
                                                             gint                 *x,
                                                             gint                 *z);
TERRAIN_AVAILABLE_IN_ALL
gboolean            terrain_ota_file_set_start_position     (TerrainOtaFile       *self,
                                                             guint                 schema,
                                                             guint                 player,
                                                             gint                  x,
                                                             gint                  z,
                                                             GError              **error);

G_END_DECLS
