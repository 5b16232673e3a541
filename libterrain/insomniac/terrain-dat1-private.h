/* terrain-dat1-private.h: DAT1 internals shared with asset subclasses and
 * format detection
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-dat1.h"
#include "core/terrain-reader-private.h"

G_BEGIN_DECLS

/* What the first bytes of a file say about a DAT1 (field-notes.md): a plain
 * DAT1, a 36-byte wrapper before a plain DAT1 or before a raw LZ4 block, or a
 * bare raw LZ4 block. */
typedef struct
{
  gboolean has_wrapper;
  gboolean compressed;
  gsize    body_offset;  /* where the DAT1 or the LZ4 block starts */
  guint32  asset_type;   /* wrapper magic, or the DAT1 header's type when
                          * visible; 0 when unknown */
} TerrainDat1Sniff;

gboolean  terrain_dat1_sniff            (const guint8         *data,
                                         gsize                 size,
                                         TerrainDat1Sniff     *sniff);

/* A bounded reader over the current contents of a section, named @name in
 * errors; its offsets are file offsets for a plain DAT1, and image offsets for
 * a compressed one (the name then says so). Returns FALSE when the section is
 * absent. */
gboolean  terrain_dat1_get_section_reader (TerrainDat1        *self,
                                           guint32             tag,
                                           const char         *name,
                                           TerrainReader      *reader);

/* Copy-on-write access for in-place edits of a section (the size stays the
 * same); marks the document modified. Returns NULL when the section is
 * absent. */
guint8   *terrain_dat1_edit_section     (TerrainDat1          *self,
                                         guint32               tag,
                                         gsize                *size);

G_END_DECLS
