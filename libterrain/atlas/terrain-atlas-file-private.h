/* terrain-atlas-file-private.h: what undoable Atlas edits need of the file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-atlas-file.h"

G_BEGIN_DECLS

typedef struct _AtlasStubSnapshot AtlasStubSnapshot;

AtlasStubSnapshot *terrain_atlas_file_snapshot_stub (TerrainAtlasFile  *self,
                                                     guint              toc,
                                                     guint              stub);
void               terrain_atlas_file_restore_stub  (TerrainAtlasFile  *self,
                                                     AtlasStubSnapshot *snapshot);
void               terrain_atlas_stub_snapshot_free (AtlasStubSnapshot *snapshot);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtlasStubSnapshot, terrain_atlas_stub_snapshot_free)

G_END_DECLS
