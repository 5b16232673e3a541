/* terrain-error.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-error.h"

/**
 * terrain_error_quark:
 *
 * Gets the error domain of libterrain, %TERRAIN_ERROR.
 *
 * Returns: the quark naming the domain
 */
G_DEFINE_QUARK (terrain-error-quark, terrain_error)
