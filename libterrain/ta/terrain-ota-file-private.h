/* terrain-ota-file-private.h: what TerrainOtaFile shares with its edits
 * (terrain-ota-edit.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-ota-file.h"

G_BEGIN_DECLS

/* The `[specials]` block name of a schema. */
#define OTA_SPECIALS "specials"

TerrainTdfSection *ota_file_find_start_special (TerrainTdfSection *schema,
                                                guint              player);

G_END_DECLS
