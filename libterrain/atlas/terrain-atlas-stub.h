/* terrain-atlas-stub.h: one stub (chunk reference) of an Atlas TOC
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <glib-object.h>

#include "terrain-version.h"
#include "terrain-atlas-geometry.h"
#include "terrain-atlas-toc.h"

G_BEGIN_DECLS

#define TERRAIN_TYPE_ATLAS_STUB (terrain_atlas_stub_get_type ())

/**
 * TerrainAtlasStub:
 *
 * One stub of a [class@Terrain.AtlasToc] (atlas-chu-tqt.md §1a-§1c): the
 * offset, length and generation of its chunk frame, plus the bounds (or,
 * before version 101, two position floats) of a geometry stub or the name of
 * a config stub. A stub object is a live view of the TOC's values.
 */

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainAtlasStub, terrain_atlas_stub, TERRAIN, ATLAS_STUB, GObject)

TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasToc     *terrain_atlas_stub_get_toc             (TerrainAtlasStub *self);
TERRAIN_AVAILABLE_IN_ALL
guint                terrain_atlas_stub_get_index           (TerrainAtlasStub *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_atlas_stub_get_node            (TerrainAtlasStub *self,
                                                             guint            *level,
                                                             guint32          *x,
                                                             guint32          *y);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_atlas_stub_has_chunk           (TerrainAtlasStub *self);
TERRAIN_AVAILABLE_IN_ALL
guint32              terrain_atlas_stub_get_offset          (TerrainAtlasStub *self);
TERRAIN_AVAILABLE_IN_ALL
guint32              terrain_atlas_stub_get_length          (TerrainAtlasStub *self);
TERRAIN_AVAILABLE_IN_ALL
guint32              terrain_atlas_stub_get_generation      (TerrainAtlasStub *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_atlas_stub_get_bounds          (TerrainAtlasStub *self,
                                                             TerrainAtlasBox  *bounds);
TERRAIN_AVAILABLE_IN_ALL
gboolean             terrain_atlas_stub_get_legacy_position (TerrainAtlasStub *self,
                                                             gfloat           *x,
                                                             gfloat           *y);
TERRAIN_AVAILABLE_IN_ALL
char                *terrain_atlas_stub_dup_name            (TerrainAtlasStub *self);
TERRAIN_AVAILABLE_IN_ALL
gint64               terrain_atlas_stub_get_record_offset   (TerrainAtlasStub *self);

G_END_DECLS
