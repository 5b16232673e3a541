/* terrain-tnt-map-private.h: snapshots of a map for undo
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-tnt-map.h"

G_BEGIN_DECLS

/* Bit of a TerrainTntSection in a snapshot's section mask */
#define TNT_SECTION_BIT(s) (1u << (s))
#define TNT_ALL_SECTIONS   0x3Fu

/* The state of a map that undo of a size-changing edit restores: every
 * header word, the dimensions and counts, the layout the writer would use
 * (so that undo brings back the in-place writer and its byte-exact output),
 * and the contents of the sections in the mask. A section still viewed from
 * the source bytes is kept as a view; an edited one is copied. */
typedef struct _TntMapSnapshot TntMapSnapshot;

TntMapSnapshot *terrain_tnt_map_snapshot        (TerrainTntMap  *self,
                                                 guint           sections);
/* Puts the map back as it was when @snapshot was taken and frees it. The
 * sections outside its mask must not have changed since. Emits the
 * notifications and signals for everything that differs. */
void            terrain_tnt_map_restore         (TerrainTntMap  *self,
                                                 TntMapSnapshot *snapshot);
void            terrain_tnt_map_snapshot_free   (TntMapSnapshot *snapshot);
gsize           terrain_tnt_map_snapshot_size   (TntMapSnapshot *snapshot);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TntMapSnapshot, terrain_tnt_map_snapshot_free)

G_END_DECLS
