/* fault-shim.h: control of fault-shim.c from a test program that links it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

/* Makes CALL fail as @spec says (see fault-shim.c) for files under @dir, an
 * absolute path without symbolic links; %NULL or "" turns faults off.
 * Returns 0, or -1 for a @spec it cannot parse. Also resets the hit count. */
int      terrain_fault_set      (const char *spec,
                                 const char *dir);
/* How many calls failed (or would have killed) since terrain_fault_set(). */
unsigned terrain_fault_get_hits (void);
