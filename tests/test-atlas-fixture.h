/* test-atlas-fixture.h: Torque Atlas files built by the tests' own serialiser
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A FixtureSpec names the TOCs (kind, version, depth, Config entries) and
 * layout flags; fixture_build() writes the file and records where every
 * stub and frame went, and the fx_* generators say what each chunk holds.
 */

#pragma once

#include "libterrain.h"

G_BEGIN_DECLS

#define MAGIC_ATLS   0x534C5441u
#define MAGIC_ATSP   0x50535441u
#define GEOM_HEAD    0x68636761u
#define GEOM_TAIL    0x74636761u
#define TEX_HEAD     0x48786554u
#define TEX_TAIL     0x54786554u
#define CFG_HEAD     0x48676643u
#define CFG_TAIL     0x54676643u
#define FOOTER       0xCEFEDEEFu

#define MAX_TOCS 4

enum
{
  F_SHUFFLE   = 1 << 0,
  F_HISTORY   = 1 << 1,
  F_GAPS      = 1 << 2,
  F_COLLISION = 1 << 3,
  F_EMPTY     = 1 << 4,
  F_SHARED    = 1 << 5,
  F_LONG_NAME = 1 << 6,
  F_NO_GAP_AFTER_TOCS = 1 << 7,
};

typedef struct
{
  TerrainAtlasTocKind kind;
  guint32 version;
  guint32 depth;
  guint n_stubs;      /* 0: a complete tree of depth (Config: 1) */
  guint name_width;   /* Config only */
} TocSpec;

typedef struct
{
  const char *name;
  guint flags;
  guint n_tocs;
  TocSpec tocs[MAX_TOCS];
} FixtureSpec;

typedef struct
{
  const FixtureSpec *spec;
  GBytes *bytes;
  gsize region_end;
  gsize toc_offset[MAX_TOCS];
  gsize stub_base[MAX_TOCS];
  guint n_stubs[MAX_TOCS];
  guint32 *offset[MAX_TOCS];
  guint32 *length[MAX_TOCS];
  guint32 *generation[MAX_TOCS];
  guint32 *previous[MAX_TOCS];
  TerrainAtlasBox *bounds[MAX_TOCS];
  guint n_frames;       /* distinct referenced frames */
  guint n_history;      /* unreferenced frames written */
} Fixture;

#define GEOM(v, d) { TERRAIN_ATLAS_TOC_GEOMETRY, v, d, 0, 0 }
#define TEX(v, d) { TERRAIN_ATLAS_TOC_TEXTURE, v, d, 0, 0 }
#define CONFIG(v, n, w) { TERRAIN_ATLAS_TOC_CONFIG, v, 0, n, w }

/* Deterministic chunk contents. */
#define N_INDICES 9
#define SKIRT 3

/* Every geometry version branch and layout the read test runs on. */
#define N_SPECS 18
extern const FixtureSpec specs[N_SPECS];

/* A small file with collision and shuffled chunks, for cuts and flips. */
extern const FixtureSpec small_spec;

/* What the chunks hold: every leaf's index list, the collision of depth 2
 * (2x2 bins: bin 0 holds triangle 0, bin 1 triangle 3, bin 2 both, bin 3
 * none) and the Config entries. */
extern const guint16 fixture_indices[N_INDICES];
extern const guint16 fx_col_offsets[4];
extern const guint16 fx_col_indices[8];
#define N_FX_CONFIG 6
extern const char * const fx_config[N_FX_CONFIG][2];

const char *
tag_of (TerrainAtlasTocKind kind);

guint
fx_n_vertices (guint stub);

void
fx_vertex (guint                toc,
           guint                stub,
           guint                i,
           guint32              version,
           TerrainAtlasVertex  *v);

void
fx_own_bounds (guint            toc,
               guint            stub,
               TerrainAtlasBox *box);

gboolean
fx_is_leaf (const TocSpec *toc,
            guint          stub);

void
fx_collision_tree (guint            toc,
                   guint            stub,
                   const TerrainAtlasBox *bounds,
                   gfloat           tree[10]);

GByteArray *
fx_geometry_body (guint32                version,
                  guint                  toc,
                  guint                  stub,
                  guint32                previous,
                  const TerrainAtlasBox *bounds,
                  gboolean               collision);

/* Small real images for texture chunks, made once. */
GBytes *
fx_dds_dxt1 (void);

TerrainImage *
fx_picture (guint width,
            guint height);

GBytes *
fx_image_payload (guint format);

GByteArray *
fx_config_body (guint   stub,
                guint32 previous);

char *
fx_config_name (const FixtureSpec *spec,
                guint              stub);

gboolean
fx_stub_shared (const FixtureSpec *spec,
                const TocSpec     *toc,
                guint              stub);

gsize
stub_size (const TocSpec *toc);

Fixture *
fixture_build (const FixtureSpec *spec);

void
fixture_free (Fixture *f);

TerrainAtlasFile *
load (GBytes *bytes);

TerrainAtlasToc *
toc_at (TerrainAtlasFile *file,
        guint             toc);

TerrainAtlasStub *
stub_at (TerrainAtlasFile *file,
         guint             toc,
         guint             stub);

void
assert_vertex_equal (const TerrainAtlasVertex *a,
                     const TerrainAtlasVertex *b);

GBytes *
mutate (GBytes *bytes,
        gsize   offset,
        guint32 value,
        guint   width);

gboolean
has_issue (GPtrArray  *issues,
           const char *needle);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Fixture, fixture_free)

G_END_DECLS
