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

/* Temporary folders: a new one named after @prefix (g_dir_make_tmp();
 * "XXXXXX" is appended), and removing one with everything in it (symbolic
 * links, not what they point to). */
char                *terrain_test_make_tmp_dir      (const char           *prefix);
void                 terrain_test_remove_tree      (const char           *path);

/* A file's bytes, asserting it reads; writing @bytes to @path, asserting
 * it is written. */
GBytes              *terrain_test_read_bytes       (const char           *path);
void                 terrain_test_write_bytes      (const char           *path,
                                                    GBytes               *bytes);

/* Asserts @actual is @expected byte for byte: the lengths, then the first
 * offset that differs and both values there. */
void                 terrain_test_assert_bytes_equal (GBytes             *expected,
                                                      GBytes             *actual);

/* The path of @relative under $TERRAIN_CORPUS_DIR (e.g.
 * "ta/archives/mymaps_v1.hpi"), or %NULL when the variable is unset or no
 * regular file is there. Free with g_free(). */
char                *terrain_test_corpus_path      (const char           *relative);

/* Adds @func at @testpath when $TERRAIN_CORPUS_DIR names a folder (the
 * real files of /work/shared/corpus); otherwise the test is not listed. */
void                 terrain_test_add_corpus_func  (const char           *testpath,
                                                    GTestFunc             func);

/* The same for $TERRAIN_SAMPLES_DIR (../shared/samples: real files of
 * formats being added, read by their tests until they join the corpus). */
char                *terrain_test_sample_path      (const char           *relative);
void                 terrain_test_add_sample_func  (const char           *testpath,
                                                    GTestFunc             func);

/* Writes @bytes as a seed of @harness when TERRAIN_DUMP_FIXTURES is set
 * (terrain-test-dump.c). */
void                 terrain_test_dump_seed        (const char           *harness,
                                                    GBytes               *bytes);

G_END_DECLS
