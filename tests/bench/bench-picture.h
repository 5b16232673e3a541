/* bench-picture.h: the generated picture the texture benchmarks build from
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean bench_write_picture (const char *path,
                              guint       side);

G_END_DECLS
