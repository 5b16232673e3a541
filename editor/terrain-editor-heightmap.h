/* terrain-editor-heightmap.h: a plain heightmap shown as a document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libterrain.h>

G_BEGIN_DECLS

#define TERRAIN_EDITOR_TYPE_HEIGHTMAP (terrain_editor_heightmap_get_type ())

G_DECLARE_FINAL_TYPE (TerrainEditorHeightmap, terrain_editor_heightmap, TERRAIN_EDITOR, HEIGHTMAP,
                      TerrainDocument)

TerrainDocument    *terrain_editor_heightmap_load              (GFile                  *file,
                                                                GBytes                 *bytes,
                                                                GError                **error);
TerrainHeightfield *terrain_editor_heightmap_get_heightfield   (TerrainEditorHeightmap *self);
const char         *terrain_editor_heightmap_get_description   (TerrainEditorHeightmap *self);

G_END_DECLS
