/* bench-formats-inputs.h: the inputs bench-formats generates
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each make_*() writes its file(s) into @dir with libterrain's own writers
 * (or byte by byte, for the formats it cannot create) and fixed seeds, and
 * returns the path (make_models() adds its two paths to @paths).
 */

#pragma once

#include "libterrain.h"

G_BEGIN_DECLS

char *
make_large_tnt (const char *dir);

/* A depth-DEPTH geometry quadtree of SIDE x SIDE vertex chunks with
 * collision, a depth-(DEPTH-1) texture quadtree of 128x128 JPEG tiles, and a
 * config: ~100 MB with DEPTH 6 and SIDE 33. */
char *
make_large_atlas (const char *dir,
                  guint       depth,
                  guint       side);

/* An SCT v3 section (tnt-sct.md: header, tile map, heights, tiles,
 * preview), WIDTH x HEIGHT blocks, written by the library's writer after a
 * load and an edit so the writer's path is the one measured. */
char *
make_sct (const char *dir);

char *
make_node_chunk (const char *dir);

char *
make_node_layer (const char *dir);

char *
make_floor (const char *dir);

void
make_models (const char *dir,
             GPtrArray  *generated);

/* A CHU3 chunk LOD tree (the layout tests/test-chu-tqt-fixture.c builds):
 * depth CHU_DEPTH (1365 chunks) of CHU_SIDE x CHU_SIDE vertices with
 * triangle lists, stubs in label order, chunks in node order. */
char *
make_chu (const char *dir);

/* A TQT texture quadtree (version 2, DDS tiles; the layout
 * tests/test-chu-tqt-fixture.c builds): depth TQT_DEPTH (1365 tiles), each a
 * TQT_TILE x TQT_TILE DXT1 image with its full mip chain, preceded by its
 * u32 size. */
char *
make_tqt (const char *dir);

G_END_DECLS
