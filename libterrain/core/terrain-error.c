/* terrain-error.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-error.h"

G_DEFINE_QUARK (terrain-error-quark, terrain_error)
