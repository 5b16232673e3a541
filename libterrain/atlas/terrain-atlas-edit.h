/* terrain-atlas-edit.h: undoable edits of an Atlas file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "core/terrain-command.h"
#include "terrain-atlas-config.h"
#include "terrain-atlas-file.h"
#include "terrain-atlas-texture.h"

G_BEGIN_DECLS

/**
 * TerrainAtlasEditKind:
 * @TERRAIN_ATLAS_EDIT_REPLACE_TEXTURE: replace one texture tile
 * @TERRAIN_ATLAS_EDIT_REPLACE_CONFIG: replace the entries of one config stub
 *
 * The kinds of [class@Terrain.AtlasEdit].
 */
typedef enum
{
  TERRAIN_ATLAS_EDIT_REPLACE_TEXTURE,
  TERRAIN_ATLAS_EDIT_REPLACE_CONFIG,
} TerrainAtlasEditKind;

#define TERRAIN_TYPE_ATLAS_EDIT (terrain_atlas_edit_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainAtlasEdit, terrain_atlas_edit, TERRAIN, ATLAS_EDIT, TerrainCommand)

TERRAIN_AVAILABLE_IN_ALL
TerrainCommand       *terrain_atlas_edit_new_replace_texture (TerrainAtlasFile    *file,
                                                              guint                toc,
                                                              guint                stub,
                                                              TerrainAtlasTexture *texture);
TERRAIN_AVAILABLE_IN_ALL
TerrainCommand       *terrain_atlas_edit_new_replace_config  (TerrainAtlasFile    *file,
                                                              guint                toc,
                                                              guint                stub,
                                                              TerrainAtlasConfig  *config);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasEditKind  terrain_atlas_edit_get_kind            (TerrainAtlasEdit    *self);
TERRAIN_AVAILABLE_IN_ALL
guint                 terrain_atlas_edit_get_toc             (TerrainAtlasEdit    *self);
TERRAIN_AVAILABLE_IN_ALL
guint                 terrain_atlas_edit_get_stub            (TerrainAtlasEdit    *self);

G_END_DECLS
