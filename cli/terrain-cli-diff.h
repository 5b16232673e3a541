/* terrain-cli-diff.h: the byte ranges an edit changes, for --dry-run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One changed range: @old_length bytes at @old_start of the old file become
 * @new_length bytes at @new_start of the new one (either length may be 0). */
typedef struct
{
  gsize old_start;
  gsize old_length;
  gsize new_start;
  gsize new_length;
} TerrainCliHunk;

gboolean terrain_cli_diff       (const guint8 *a,
                                 gsize         na,
                                 const guint8 *b,
                                 gsize         nb,
                                 guint         max_distance,
                                 GArray       *hunks);
void     terrain_cli_diff_merge (GArray       *hunks,
                                 gsize         gap);

G_END_DECLS
