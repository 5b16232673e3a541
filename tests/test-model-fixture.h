/* test-model-fixture.h: .model fixtures and checks that test-model.c and
 * test-model-edit.c share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * On top of terrain-test-fixtures.h's DAT1 builder: a second LOD, the
 * 36-byte wrapper and LZ4 blocks, loading and the plane's expected
 * geometry, and a structural check of exported .glb files.
 */

#pragma once

#include <json-glib/json-glib.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"

G_BEGIN_DECLS



/* A second mesh in LOD 1 (absolute indices, its own vertex range) after
 * the plane's, so the look has two distinct LODs. */
void
fixture_add_lod1 (TerrainTestDat1 *f);

GBytes *
lz4_block (GBytes *image);

GBytes *
wrap (guint32  magic,
      GBytes  *body,
      guint32  size);

/* The plane behind the wrapper, as one raw LZ4 block: how all 8,780 models
 * of the census are stored. */
GBytes *
plane_wrapped_lz4 (void);

TerrainModel *
load_model (GBytes *bytes);

void
assert_load_fails (GBytes *bytes,
                   gint    code);

gsize
count_severity (GPtrArray       *issues,
                TerrainSeverity  severity);

void
assert_plane_geometry (TerrainModel *model);

/* The plane's first UV pair, read through the 8-byte stride. */
void
assert_plane_geometry_uv8 (TerrainModel *model);

/* Structural check of a .glb, independent of any validator: header, chunk
 * lengths, buffer views inside the buffer, accessors inside their views,
 * POSITION min/max equal to the data, indices inside the attributes, unit
 * normals. Returns the JSON for further checks. */
JsonNode *
check_glb (GBytes *glb);

G_END_DECLS
