/* terrain-error-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void      terrain_error_ensure_utf8      (GError     **error);
char     *terrain_utf8_make_printable    (const char  *text);
gboolean  terrain_utf8_is_printable      (const char  *text);

G_END_DECLS
