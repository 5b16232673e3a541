/* terrain-command-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-command.h"

G_BEGIN_DECLS

/* For containers whose children were applied one by one (the command
 * stack's user-action groups): records that the container is applied
 * without calling its apply vfunc. */
void terrain_command_set_applied (TerrainCommand *self,
                                  gboolean        applied);

G_END_DECLS
