/* terrain-error.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-error.h"
#include "terrain-error-private.h"

/**
 * terrain_error_quark:
 *
 * Gets the error domain of libterrain, %TERRAIN_ERROR.
 *
 * Returns: the quark naming the domain
 */
G_DEFINE_QUARK (terrain-error-quark, terrain_error)

/*
 * terrain_error_ensure_utf8:
 * @error: (nullable): a return location for a #GError, as the caller got it
 *
 * Makes the message of a set error UTF-8, as GError messages must be:
 * messages quote names from files (HPI paths, TDF keys), which may be in a
 * legacy code page. Invalid bytes become U+FFFD (the rest of the message is
 * UTF-8 already, so it cannot be re-read as a legacy code page). Public
 * functions that can fail with such a message call this before returning.
 */
void
terrain_error_ensure_utf8 (GError **error)
{
  char *valid;

  if (error == NULL || *error == NULL || g_utf8_validate ((*error)->message, -1, NULL))
    return;
  valid = g_utf8_make_valid ((*error)->message, -1);
  g_free ((*error)->message);
  (*error)->message = valid;
}
