/* test-insomniac-fixture.h: Insomniac terrain fixtures made by libterrain's encoders
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "libterrain.h"

G_BEGIN_DECLS

/* A document's bytes, asserting the save succeeds. */
GBytes           *save             (gpointer         document);

/* @size bytes of @bytes from @offset; a copy of @bytes with @size bytes
 * of @data written at @offset. */
GBytes           *bytes_slice      (GBytes          *bytes,
                                    gsize            offset,
                                    gsize            size);
GBytes           *bytes_patched    (GBytes          *bytes,
                                    gsize            offset,
                                    const guint8    *data,
                                    gsize            size);

/* A smooth, hilly height field sampled at global sample (gx, gy), so that
 * neighbouring nodes cut from it share their edge strips; a node's
 * TERRAIN_NODE_SIDE² heights of it from (@origin_x, @origin_y). */
gint32            terrain_at       (gint             gx,
                                    gint             gy,
                                    guint            seed);
void              fill_heights     (gint32          *heights,
                                    gint             origin_x,
                                    gint             origin_y,
                                    guint            seed);

/* A chunk read from @bytes, asserting it reads. */
TerrainNodeChunk *load_chunk       (GBytes          *bytes);

/* A leaf (or internal node at @level) with hills, materials in stripes,
 * colour and occlusion gradients. */
GBytes           *make_chunk_bytes (gboolean         leaf,
                                    gint             level,
                                    gint             origin_x,
                                    gint             origin_y);

/* How many of @issues have @severity; whether one's message contains
 * @text. */
guint             count_issues     (GPtrArray       *issues,
                                    TerrainSeverity  severity);
gboolean          has_issue        (GPtrArray       *issues,
                                    const char      *text);

G_END_DECLS
