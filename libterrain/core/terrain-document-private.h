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

G_END_DECLS
