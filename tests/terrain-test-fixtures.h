/* terrain-test-fixtures.h: small files of the formats libterrain reads,
 * built byte by byte
 *
 * Shared by the unit tests (test-sct.c, test-model.c, test-heightfield.c)
 * and the editor test, which opens one file of every format. The builders
 * follow the format notes rather than the library's writers, so a test that
 * reads what they build checks the reader against the notes. Only public
 * API is used: the editor test links the shared library.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "libterrain.h"
#include "terrain-test-util.h"

G_BEGIN_DECLS

/* A 256-entry palette whose entry i is the grey (i, i, i): every entry a
 * distinct colour, so a uniform area quantises back to its own index. One
 * shared instance; do not unref. */
TerrainPalette *terrain_test_grey_palette (void);

/* A new temporary folder (named after @prefix) holding @map saved as
 * @tnt_name and @ota_text as @ota_name, the way a map ships; the paths of
 * the two files in @tnt_path and @ota_path (either may be NULL). Remove it
 * with terrain_test_remove_tree(). */
char    *terrain_test_write_map_folder (const char     *prefix,
                                        TerrainTntMap  *map,
                                        const char     *tnt_name,
                                        const char     *ota_name,
                                        const char     *ota_text,
                                        char          **tnt_path,
                                        char          **ota_path);

/* Little-endian appends and patches. */
void     terrain_test_put_u8  (GByteArray   *out,
                               guint8        value);
void     terrain_test_put_u16 (GByteArray   *out,
                               guint16       value);
void     terrain_test_put_u32 (GByteArray   *out,
                               guint32       value);
void     terrain_test_put_f32 (GByteArray   *out,
                               gfloat        value);
void     terrain_test_set_u32 (guint8       *p,
                               guint32       value);
guint32  terrain_test_get_u32 (const guint8 *p);

/* ------------------------------------------------------------------------ */
/* Total Annihilation editor sections (.sct), tnt-sct.md "SCT sections"     */

#define TERRAIN_TEST_SCT_N_BLOCKS (TERRAIN_SCT_BLOCK_HEIGHTS + 1)

typedef enum
{
  TERRAIN_TEST_SCT_V2,          /* header, tile map, heights, preview, tiles */
  TERRAIN_TEST_SCT_V3,          /* header, tile map, heights, tiles, preview */
  TERRAIN_TEST_SCT_STANDALONE,  /* header, preview, tiles, tile map, heights (version 3) */
} TerrainTestSctLayout;

typedef struct
{
  const char *name;
  TerrainTestSctLayout layout;
  guint width;
  guint height;
  guint n_tiles;
  gsize gap;       /* filler bytes between some blocks */
  gsize trailing;  /* bytes after the last block */
} TerrainTestSctSpec;

typedef struct
{
  GBytes *bytes;
  guint32 version;
  guint width;
  guint height;
  guint n_tiles;
  gsize record_size;
  gsize offset[TERRAIN_TEST_SCT_N_BLOCKS];
  gsize size[TERRAIN_TEST_SCT_N_BLOCKS];
  TerrainSctBlock order[TERRAIN_TEST_SCT_N_BLOCKS];  /* blocks in file order */
  gsize end;                                          /* end of the last block */
  gsize unreferenced;                                 /* gap and trailing bytes */
} TerrainTestSct;

void          terrain_test_sct_build       (TerrainTestSct           *f,
                                            const TerrainTestSctSpec *spec);
void          terrain_test_sct_clear       (TerrainTestSct           *f);
const guint8 *terrain_test_sct_record_tail (guint32                   version);

/* What each byte of a built section holds. */
guint16       terrain_test_sct_tile_index  (const TerrainTestSct     *f,
                                            guint                     column,
                                            guint                     row);
guint8        terrain_test_sct_height      (guint                     x,
                                            guint                     y);
guint8        terrain_test_sct_preview     (gsize                     i);
guint8        terrain_test_sct_tile_pixel  (guint                     tile,
                                            guint                     pixel);
guint8        terrain_test_sct_filler      (gsize                     offset);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TerrainTestSct, terrain_test_sct_clear)

/* ------------------------------------------------------------------------ */
/* Insomniac DAT1 containers and models, insomniac-model.md                 */

#define TERRAIN_TEST_DAT1_MAX_SECTIONS 16

/* Sections by tag, and a string block. Material records hold offsets
 * relative to the string block; the layout adds its DAT1 offset. */
typedef struct
{
  guint32     asset_type;
  guint       n;
  guint32     tags[TERRAIN_TEST_DAT1_MAX_SECTIONS];
  GByteArray *data[TERRAIN_TEST_DAT1_MAX_SECTIONS];
  GByteArray *strings;
  guint32     extra[4];
  guint       n_extra;
} TerrainTestDat1;

TerrainTestDat1 *terrain_test_dat1_plane        (void);
TerrainTestDat1 *terrain_test_dat1_hill         (guint           n);
void             terrain_test_dat1_free         (TerrainTestDat1 *f);
GByteArray      *terrain_test_dat1_section      (TerrainTestDat1 *f,
                                                 guint32          tag);
void             terrain_test_dat1_remove       (TerrainTestDat1 *f,
                                                 guint32          tag);
guint32          terrain_test_dat1_strings_base (const TerrainTestDat1 *f);
void             terrain_test_dat1_add_vertex   (GByteArray      *out,
                                                 gint16           x,
                                                 gint16           y,
                                                 gint16           z,
                                                 guint32          normal);
void             terrain_test_dat1_add_mesh     (GByteArray      *out,
                                                 guint32          vertex_start,
                                                 guint32          index_start,
                                                 guint32          index_count,
                                                 guint32          vertex_count,
                                                 guint16          flags,
                                                 guint16          material);
void             terrain_test_dat1_add_material (TerrainTestDat1 *f,
                                                 const char      *path,
                                                 const char      *name);
GBytes          *terrain_test_dat1_layout       (TerrainTestDat1 *f);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerrainTestDat1, terrain_test_dat1_free)

/* ------------------------------------------------------------------------ */
/* Torque legacy terrain (.ter), field-notes.md                             */

GBytes *terrain_test_ter (guint8   version,
                          gboolean scripts,
                          guint    trailing);

/* ------------------------------------------------------------------------ */
/* Chunked LOD (.chu) and texture quadtrees (.tqt), atlas-chu-tqt.md §9     */

/* Quadtree node indexing (§1), written out so that tests check the
 * library's. */
guint    terrain_test_node_count    (guint   depth);
guint    terrain_test_node_id       (guint   level,
                                     guint   a,
                                     guint   b);
void     terrain_test_node_position (guint   id,
                                     guint  *level,
                                     guint  *a,
                                     guint  *b);

GBytes *terrain_test_chu3       (guint   depth);
GBytes *terrain_test_chu3_hills (guint   depth,
                                 guint   grid);
GBytes *terrain_test_tqt        (guint   depth);

/* A tree cut from a picture (red across, green down, a blue checker of
 * 8-pixel squares), @tile pixels a tile: DDS A8R8G8B8 (version 2) or JPEG
 * (version 1) tiles; the picture of a level, for comparisons. */
GBytes       *terrain_test_tqt_picture       (guint    depth,
                                              guint    tile,
                                              gboolean jpeg);
TerrainImage *terrain_test_tqt_picture_level (guint    depth,
                                              guint    tile,
                                              guint    level);

/* Heights 0 to about 1 over the unit square: the higher hill's peak at
 * (0.7, 0.35), a lower one at (0.25, 0.7). */
gdouble terrain_test_hills      (gdouble u,
                                 gdouble v);

G_END_DECLS
