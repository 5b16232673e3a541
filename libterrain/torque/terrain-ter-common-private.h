/* terrain-ter-common-private.h: what the legacy Torque reader
 * (terrain-ter-file.c) and the Torque3D version 7 reader (terrain-ter7-file.c)
 * share: the block table, and the heights (U16 11.5 fixed point, read in
 * place or from the copy the first edit makes)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "core/terrain-heightfield.h"

G_BEGIN_DECLS

/* More than either family's blocks (TerrainTerSection has 8). */
#define TERRAIN_TER_MAX_SECTIONS 8

/* Where each block of a file lies: the byte offset and size of every block
 * the file has, indexed by the family's section enum, and the blocks'
 * names (for `describe` and byte offsets). */
typedef struct
{
  const char * const *names;
  guint               n;
  gsize               offsets[TERRAIN_TER_MAX_SECTIONS];
  gsize               sizes[TERRAIN_TER_MAX_SECTIONS];
  gboolean            present[TERRAIN_TER_MAX_SECTIONS];
} TerrainTerSections;

/* @names holds @n names, one per section, and outlives @self. */
void     terrain_ter_sections_init     (TerrainTerSections       *self,
                                        const char * const       *names,
                                        guint                     n);
/* Records that the file has @section, @size bytes at @offset. */
void     terrain_ter_sections_mark     (TerrainTerSections       *self,
                                        guint                     section,
                                        gsize                     offset,
                                        gsize                     size);
/* The get_section_span() of both families: FALSE when the file lacks it. */
gboolean terrain_ter_sections_get_span (const TerrainTerSections *self,
                                        guint                     section,
                                        gsize                    *offset,
                                        gsize                    *size);
/* The section holding byte @offset, and @offset within it; -1 past the
 * end. */
gint     terrain_ter_sections_find     (const TerrainTerSections *self,
                                        gsize                     offset,
                                        gsize                    *within);
/* Adds to @issues (of TerrainIssue) a warning for the bytes of the
 * @trailing section, when the file has them, in @section ("TER"): they
 * follow @what ("the last block") and are kept. */
void     terrain_ter_sections_check_trailing (const TerrainTerSections *self,
                                              guint                     trailing,
                                              const char               *section,
                                              const char               *what,
                                              GPtrArray                *issues);
/* Adds the member "sections": an array of { name, offset, size }, one per
 * block the file has, in file order. */
void     terrain_ter_sections_describe (const TerrainTerSections *self,
                                        JsonBuilder              *builder);

/* Heights: N x N samples, row-major, sample i the U16 at @stored + 2 i, or
 * @edited[i] once an edit made a copy (NULL before). */
guint16             terrain_ter_height_at          (const guint8             *stored,
                                                    const guint16            *edited,
                                                    gsize                     i);
/* The copy of @n stored samples an edit makes. */
guint16            *terrain_ter_heights_copy       (const guint8             *stored,
                                                    gsize                     n);
/* The lowest and highest of @n samples (G_MAXUINT16 and 0 for none). */
void                terrain_ter_height_range       (const guint8             *stored,
                                                    const guint16            *edited,
                                                    gsize                     n,
                                                    guint16                  *lo,
                                                    guint16                  *hi);
/* The to_heightfield() of both families: (N+1) x (N+1) metres (value /
 * 32), rows north to south, the last row and column repeating the first
 * (sample (x, r) is file sample (x mod N, (N - r) mod N)). @what names the
 * format in the error for a side past TERRAIN_HEIGHTFIELD_MAX_SIDE. */
TerrainHeightfield *terrain_ter_to_heightfield     (const guint8             *stored,
                                                    const guint16            *edited,
                                                    guint                     n,
                                                    gdouble                   square_size,
                                                    const char               *what,
                                                    GError                  **error);

G_END_DECLS
