/* terrain-tdf-document-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-tdf-document.h"

G_BEGIN_DECLS

/* Parses @bytes into @self (a new, empty document of any TDF subclass) and
 * records them as its source, with @format as the document's format. */
gboolean terrain_tdf_document_parse (TerrainTdfDocument   *self,
                                     GBytes               *bytes,
                                     TerrainFormat         format,
                                     const TerrainLimits  *limits,
                                     GError              **error);

/* Text for messages and JSON: the bytes as they are when they are UTF-8,
 * otherwise read as Windows-1252, the code page TA's tools wrote. */
char    *terrain_tdf_to_utf8        (const char           *text);

G_END_DECLS
