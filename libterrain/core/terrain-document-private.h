/* terrain-document-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-document.h"

G_BEGIN_DECLS

/* Called by subclasses' constructors: records the bytes the document was read
 * from (kept for byte-exact writing and lazy decoding) and its format. */
void terrain_document_set_source (TerrainDocument *self,
                                  GBytes          *bytes,
                                  TerrainFormat    format);

/* What [ctor@Terrain.Document.new_from_bytes] does after making the
 * document, for constructors that set up the new document first (a
 * heightmap read in a named encoding): records @bytes as the source, in the
 * class's format, and runs the class's `parse` with @limits (the defaults
 * when %NULL). */
gboolean terrain_document_parse_bytes (TerrainDocument      *self,
                                       GBytes               *bytes,
                                       const TerrainLimits  *limits,
                                       GError              **error);

G_END_DECLS
