/* test-tnt-edit-fixture.h: the map, palette and command-stack helpers that
 * test-tnt-edit.c and test-tnt-image.c share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "libterrain.h"

G_BEGIN_DECLS

/* The fixed TNT header (tnt-sct.md). */
#define HEADER_BYTES 64

gboolean
footprint_lookup (const char *name,
                  guint      *fx,
                  guint      *fz,
                  gpointer    user_data);

GBytes *
save (TerrainTntMap *map);

/* Offsets at which two equally long byte strings differ. */
GArray *
differences (GBytes *a,
             GBytes *b);

TerrainPalette *
test_palette (void);

void
fill_tile (guint8 *tile,
           guint   seed);

/* A 16x12-cell map (8x6 tiles) read back from its own bytes, so that it has
 * a source and writes in place: three tiles, heights in a ramp, features
 * Tree1 at (1, 1), Rock 2x2 at (5, 5) with authored fringe, and an unused
 * record "Big". */
TerrainTntMap *
fixture_map (GBytes **original);

void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *counter);

void
execute (TerrainCommandStack *stack,
         TerrainCommand      *command);

void
execute_fails (TerrainCommandStack *stack,
               TerrainCommand      *command,
               gint                 code);

TerrainTntEdit *
top_edit (TerrainCommandStack *stack);

void
undo_all (TerrainCommandStack *stack);

gsize
attribute_offset (TerrainTntMap *map,
                  guint          x,
                  guint          y);

/* Edits @map, whose file holds @original, and saves it where the save must
 * fail (a full disk, a missing folder): the file keeps @original and no
 * temporary file is left. */
void
check_failed_save (TerrainTntMap *map,
                   GBytes        *original);

G_END_DECLS
