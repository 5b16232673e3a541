/* terrain-chunklod-private.h: quadtree arithmetic shared by the CHU and TQT
 * readers and the CHU/TQT importer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Deepest tree whose node count fits in 64 bits with room to spare
 * (nodeCount(31) = (4^31 - 1) / 3 < 2^62). Deeper trees are refused before
 * any arithmetic. */
#define CHUNKLOD_MAX_DEPTH 31

/* nodeCount(d) = sum of 4^level for level 0..d-1 (atlas-chu-tqt.md §1,
 * "Quadtree node indexing"). */
static inline guint64
chunklod_node_count (guint depth)
{
  g_assert (depth <= CHUNKLOD_MAX_DEPTH);
  return ((G_GUINT64_CONSTANT (1) << (2 * depth)) - 1) / 3;
}

/* nodeID(level, a, b) = nodeCount(level) + (a << level) + b: X-major when
 * called as (level, x, y). CHU labels and TQT table entries use the
 * transposed call (level, y, x) (§9b, §9c). */
static inline guint64
chunklod_node_id (guint   level,
                  guint32 a,
                  guint32 b)
{
  return chunklod_node_count (level) + ((guint64) a << level) + b;
}

/* Inverse of chunklod_node_id(): the level and the two coordinates of a node
 * index below nodeCount(depth). */
static inline void
chunklod_node_position (guint64  id,
                        guint   *level,
                        guint32 *a,
                        guint32 *b)
{
  guint l = 0;
  guint64 rel;

  while (chunklod_node_count (l + 1) <= id)
    l++;
  rel = id - chunklod_node_count (l);
  *level = l;
  *a = (guint32) (rel >> l);
  *b = (guint32) (rel & ((G_GUINT64_CONSTANT (1) << l) - 1));
}

G_END_DECLS
