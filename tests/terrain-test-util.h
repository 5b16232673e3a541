/* terrain-test-util.h: helpers the unit tests share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What a run of the terrain tool gave: its exit status (-1 when it did not
 * exit normally) and everything it printed. */
typedef struct
{
  int   status;
  char *out;
  char *err;
} TerrainTestCliResult;

TerrainTestCliResult terrain_test_run_cli        (const char           *cwd,
                                                  const char           *first,
                                                  ...) G_GNUC_NULL_TERMINATED;
void                 terrain_test_cli_result_clear (TerrainTestCliResult *result);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TerrainTestCliResult, terrain_test_cli_result_clear)

/* Writes @bytes as a seed of @harness when TERRAIN_DUMP_FIXTURES is set
 * (terrain-test-dump.c). */
void                 terrain_test_dump_seed        (const char           *harness,
                                                    GBytes               *bytes);

G_END_DECLS
