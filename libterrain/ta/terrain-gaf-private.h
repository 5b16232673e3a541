/* terrain-gaf-private.h: the GAF run-length row codec
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean terrain_gaf_decode_row (const guint8  *data,
                                 gsize          length,
                                 guint8        *row,
                                 guint          width,
                                 guint8         transparency,
                                 gsize          offset,
                                 GError       **error);
void     terrain_gaf_encode_row (const guint8  *row,
                                 guint          width,
                                 guint8         transparency,
                                 GByteArray    *out);

G_END_DECLS
