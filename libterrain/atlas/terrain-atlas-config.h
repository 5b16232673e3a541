/* terrain-atlas-config.h: Atlas config chunks
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

#define TERRAIN_TYPE_ATLAS_CONFIG (terrain_atlas_config_get_type ())

/**
 * TerrainAtlasConfig:
 *
 * A config chunk (atlas-chu-tqt.md §5): previousChunk and key/value byte
 * strings, newest first, such as `type`, `textureSlot` or `virtualTexSize`
 * (field-notes.md).
 */

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainAtlasConfig, terrain_atlas_config, TERRAIN, ATLAS_CONFIG, GObject)

TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasConfig *terrain_atlas_config_new                (void);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasConfig *terrain_atlas_config_new_from_body      (GBytes               *body,
                                                             goffset               body_offset,
                                                             const TerrainLimits  *limits,
                                                             GError              **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes             *terrain_atlas_config_encode_body        (TerrainAtlasConfig   *self,
                                                             GError              **error);
TERRAIN_AVAILABLE_IN_ALL
guint32             terrain_atlas_config_get_previous_chunk (TerrainAtlasConfig   *self);
TERRAIN_AVAILABLE_IN_ALL
void                terrain_atlas_config_set_previous_chunk (TerrainAtlasConfig   *self,
                                                             guint32               offset);
TERRAIN_AVAILABLE_IN_ALL
guint               terrain_atlas_config_get_n_entries      (TerrainAtlasConfig   *self);
TERRAIN_AVAILABLE_IN_ALL
const char         *terrain_atlas_config_get_key            (TerrainAtlasConfig   *self,
                                                             guint                 index,
                                                             gsize                *length);
TERRAIN_AVAILABLE_IN_ALL
const char         *terrain_atlas_config_get_value          (TerrainAtlasConfig   *self,
                                                             guint                 index,
                                                             gsize                *length);
TERRAIN_AVAILABLE_IN_ALL
const char         *terrain_atlas_config_lookup             (TerrainAtlasConfig   *self,
                                                             const char           *key);
TERRAIN_AVAILABLE_IN_ALL
void                terrain_atlas_config_set                (TerrainAtlasConfig   *self,
                                                             const char           *key,
                                                             const char           *value);
TERRAIN_AVAILABLE_IN_ALL
gboolean            terrain_atlas_config_remove             (TerrainAtlasConfig   *self,
                                                             const char           *key);

G_END_DECLS
