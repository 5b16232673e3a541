/* terrain-formats.c: the format families, assembled above core
 *
 * Core walks this list (terrain-format-private.h) and includes none of the
 * families; a new family adds its table here. The order is detection's:
 * the first weak signature found wins when nothing matches strongly.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "core/terrain-format-private.h"

const TerrainFormatFamily * const terrain_format_families[] = {
  &terrain_ta_format_family,
  &terrain_atlas_format_family,
  &terrain_insomniac_format_family,
  &terrain_torque_format_family,
  &terrain_core_format_family,
  NULL,
};
