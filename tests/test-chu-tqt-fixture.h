/* test-chu-tqt-fixture.h: .chu and .tqt files built byte by byte
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * From atlas-chu-tqt.md §9 (TGEA's CHU3 v400 and DDS TQT) and field-notes.md
 * with Ulrich's chunklod sources (CHU\0 v9, TQT v1 with JPEG tiles). Each
 * fixture records where it put every stub, chunk and tile, so that tests
 * can check the reader's offsets and cut or patch the bytes.
 */

#pragma once

#include "libterrain.h"

G_BEGIN_DECLS

typedef enum
{
  ORDER_SORTED,
  ORDER_SHUFFLED,
  ORDER_REVERSED,
} Order;

/* ------------------------------------------------------------------ */
/* CHU fixtures                                                        */

#define CHU_VERTS        10    /* 3x3 grid plus one skirt vertex */
#define CHU_LIST_INDICES 24    /* 8 triangles */
#define CHU_TRIANGLES    8
#define CHU_LEAF         64.0f
#define CHU_VSCALE       0.25f
#define CHU_COL_DEPTH    2

typedef struct
{
  const char *name;
  gboolean ulrich;
  guint depth;
  Order stub_order;    /* CHU3: stub records in file */
  Order chunk_order;   /* chunk data in file */
  gboolean collision;  /* CHU3: leaves carry a collision block */
  gsize gap;
  gsize trailing;
  gboolean wide;       /* Ulrich: U32 version, depth and chunk x, z */
} ChuSpec;

/* Ulrich's strip over the same grid, two rows joined by degenerates. */
#define N_STRIP_INDICES 14
extern const guint16 strip_indices[N_STRIP_INDICES];

/* The CHU layouts every table-driven test runs on. */
#define N_CHU_SPECS 10
extern const ChuSpec chu_specs[N_CHU_SPECS];

typedef struct
{
  const ChuSpec *spec;
  GBytes *bytes;
  guint n;
  gsize header_size;
  gsize stub_size;
  /* By Atlas node id nodeID(level, x, y): */
  guint *stub_of_node;     /* stub index in file order */
  gint32 *label_of_node;
  gsize *chunk_offset;
  gsize *chunk_size;
  gsize data_end;          /* end of the last chunk */
} ChuFixture;

/* ------------------------------------------------------------------ */
/* TQT fixtures                                                        */

#define TQT_TILE 8

typedef enum
{
  TILE_DXT1,
  TILE_RGBA,
  TILE_JPEG,
} TileKind;

typedef struct
{
  const char *name;
  TileKind kind;
  guint32 version;
  guint depth;
  Order order;          /* tile data in file */
  gboolean shared;      /* two deepest-level nodes share one tile */
  gsize gap;
  gsize trailing;
} TqtSpec;

/* The TQT layouts every table-driven test runs on. */
#define N_TQT_SPECS 7
extern const TqtSpec tqt_specs[N_TQT_SPECS];

typedef struct
{
  const TqtSpec *spec;
  GBytes *bytes;
  guint n;
  /* By logical node nodeID(level, x, y): */
  gsize *tile_offset;
  gsize *tile_span;
  GBytes **image;          /* expected image stream */
  gsize data_end;
} TqtFixture;

void
put_bytes (GByteArray   *a,
           const void   *data,
           gsize         size);

GBytes *
bytes_with (GBytes      *bytes,
            gsize        offset,
            const void  *data,
            gsize        size);

GBytes *
bytes_with_u32 (GBytes  *bytes,
                gsize    offset,
                guint32  value);

GBytes *
bytes_with_u16 (GBytes  *bytes,
                gsize    offset,
                guint16  value);

gint16
chu_z (guint node,
       guint i);

gint16
chu_morph (guint node,
           guint i);

void
chu_vertex (guint   i,
            gint16 *qx,
            gint16 *qy);

void
chu_z_range (guint  node,
             gint  *min,
             gint  *max);

void
chu_fixture_init (ChuFixture    *f,
                  const ChuSpec *spec);

void
chu_fixture_clear (ChuFixture *f);

gsize
chu_stub_offset (const ChuFixture *f,
                 guint             node);

TerrainChuFile *
chu_load (GBytes *bytes);

void
chu_assert_error (GBytes       *bytes,
                  TerrainError  code);

guint
count_issues_containing (GPtrArray  *issues,
                         const char *text);

void
tqt_fixture_init (TqtFixture    *f,
                  const TqtSpec *spec);

void
tqt_fixture_clear (TqtFixture *f);

TerrainTqtFile *
tqt_load (GBytes *bytes);

void
tqt_assert_error (GBytes       *bytes,
                  TerrainError  code);

gsize
tqt_entry_offset (guint level,
                  guint x,
                  guint y);

const guint8 *
rgba_at (TerrainImage *image,
         guint         x,
         guint         y);

G_END_DECLS
