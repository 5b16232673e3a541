/* test-atlas.c: Torque Atlas containers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * No public .atlas file could be obtained, so every file here is built by
 * this test's own serialiser from atlas-chu-tqt.md (§0-§8) and the TGEA
 * conventions of field-notes.md: every geometry version branch (<101,
 * 101-119, 120-129, 130-139, >=140), the exact TOC prefix of §8, shuffled
 * chunk order, history frames, gaps, shared frames, empty stubs, both Config
 * name widths, collision present and absent.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"
#include "terrain-test-util.h"

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

static const FixtureSpec specs[] = {
  { "v100", 0, 2, { GEOM (100, 3), CONFIG (100, 1, 8) } },
  { "v110", 0, 2, { GEOM (110, 3), TEX (110, 2) } },
  { "v120-collision", F_COLLISION, 2, { GEOM (120, 3), CONFIG (120, 1, 8) } },
  { "v125-no-collision", 0, 1, { GEOM (125, 3) } },
  { "v130", F_COLLISION, 1, { GEOM (130, 2) } },
  { "v135", 0, 2, { TEX (135, 2), GEOM (135, 3) } },
  { "v140-collision", F_COLLISION, 3, { GEOM (140, 3), TEX (140, 2), CONFIG (140, 1, 8) } },
  { "v140-no-collision", 0, 2, { GEOM (140, 3), TEX (140, 1) } },
  { "shuffled", F_SHUFFLE | F_COLLISION, 3, { GEOM (140, 3), TEX (140, 2), CONFIG (140, 1, 8) } },
  { "history", F_HISTORY | F_COLLISION, 3, { GEOM (140, 3), TEX (140, 2), CONFIG (140, 2, 8) } },
  { "history-v110", F_HISTORY | F_SHUFFLE, 2, { GEOM (110, 3), CONFIG (110, 1, 8) } },
  { "gaps", F_GAPS | F_SHUFFLE, 3, { GEOM (120, 2), TEX (120, 2), CONFIG (120, 1, 8) } },
  { "everything", F_GAPS | F_SHUFFLE | F_HISTORY | F_COLLISION | F_EMPTY | F_SHARED, 4,
    { GEOM (140, 3), TEX (140, 2), TEX (140, 3), CONFIG (140, 3, 8) } },
  { "config-128", 0, 2, { CONFIG (140, 3, 128), GEOM (140, 2) } },
  { "config-128-last", F_LONG_NAME, 2, { GEOM (140, 2), CONFIG (140, 1, 128) } },
  { "config-8-multi", F_SHUFFLE, 2, { CONFIG (140, 4, 8), TEX (140, 2) } },
  { "config-only", 0, 1, { CONFIG (140, 1, 8) } },
  { "empty-and-shared", F_EMPTY | F_SHARED, 1, { TEX (140, 3) } },
};

/* The file of atlas-chu-tqt.md §8: TOCs end at 0x1DA2, where the first
 * chunk starts. */
static const FixtureSpec section8 = {
  "section-8", F_SHUFFLE | F_COLLISION | F_NO_GAP_AFTER_TOCS, 4,
  { GEOM (140, 4), TEX (140, 3), TEX (140, 5), CONFIG (140, 1, 8) }
};

/* ------------------------------------------------------------------------
 * Serialiser
 */

static void
put_box (GByteArray            *out,
         const TerrainAtlasBox *box)
{
  for (guint i = 0; i < 3; i++)
    terrain_test_put_f32 (out, box->min[i]);
  for (guint i = 0; i < 3; i++)
    terrain_test_put_f32 (out, box->max[i]);
}

static guint
spec_n_stubs (const TocSpec *toc)
{
  if (toc->n_stubs != 0)
    return toc->n_stubs;
  if (toc->kind == TERRAIN_ATLAS_TOC_CONFIG)
    return 1;
  return (guint) terrain_quadtree_node_count (toc->depth);
}

static const char *
tag_of (TerrainAtlasTocKind kind)
{
  return kind == TERRAIN_ATLAS_TOC_GEOMETRY ? "Geom" : kind == TERRAIN_ATLAS_TOC_TEXTURE ? "Tex"
                                                                                         : "Config";
}

/* Deterministic chunk contents. */
#define N_INDICES 9
#define SKIRT 3
static const guint16 fixture_indices[N_INDICES] = { 0, 1, 2, 0, 2, 3, 1, 3, 2 };

static guint
fx_n_vertices (guint stub)
{
  return 4 + stub % 3;
}

static void
fx_vertex (guint                toc,
           guint                stub,
           guint                i,
           guint32              version,
           TerrainAtlasVertex  *v)
{
  v->point[0] = stub * 8.0f + i;
  v->point[1] = toc * 3.0f + stub * 2.0f + (i % 2);
  v->point[2] = 50.0f + stub + i * 0.5f;
  v->tex_coord[0] = i * 0.125f;
  v->tex_coord[1] = 1.0f - i * 0.125f;
  v->tex_morph_offset[0] = i * 0.01f;
  v->tex_morph_offset[1] = -(gfloat) i * 0.02f;
  v->point_morph_offset[0] = 0.0f;
  v->point_morph_offset[1] = 0.0f;
  v->point_morph_offset[2] = i * 0.25f - 0.5f;
  if (version >= 140)
    {
      v->normal[0] = 0.1f * i;
      v->normal[1] = 0.2f;
      v->normal[2] = 0.9f;
    }
  else
    {
      v->normal[0] = 0.0f;
      v->normal[1] = 0.0f;
      v->normal[2] = 1.0f;
    }
}

static void
fx_own_bounds (guint            toc,
               guint            stub,
               TerrainAtlasBox *box)
{
  for (guint i = 0; i < fx_n_vertices (stub); i++)
    {
      TerrainAtlasVertex v;

      fx_vertex (toc, stub, i, 140, &v);
      for (guint a = 0; a < 3; a++)
        {
          if (i == 0 || v.point[a] < box->min[a])
            box->min[a] = v.point[a];
          if (i == 0 || v.point[a] > box->max[a])
            box->max[a] = v.point[a];
        }
    }
}

static gboolean
fx_is_leaf (const TocSpec *toc,
            guint          stub)
{
  guint level;

  return terrain_quadtree_node_position (stub, &level, NULL, NULL) && level + 1 == toc->depth;
}

/* Collision of depth 2 (2x2 bins): bin 0 holds triangle 0, bin 1 triangle
 * 3, bin 2 both, bin 3 none. */
static const guint16 fx_col_offsets[4] = { 0, 2, 4, 7 };
static const guint16 fx_col_indices[8] = { 0, 0xFFFF, 3, 0xFFFF, 0, 3, 0xFFFF, 0xFFFF };

static void
fx_collision_tree (guint            toc,
                   guint            stub,
                   const TerrainAtlasBox *bounds,
                   gfloat           tree[10])
{
  gfloat lo[2], hi[2];

  for (guint t = 0; t < 2; t++)
    {
      for (guint k = 0; k < 3; k++)
        {
          TerrainAtlasVertex v;

          fx_vertex (toc, stub, fixture_indices[3 * t + k], 140, &v);
          if (k == 0 || v.point[2] < lo[t])
            lo[t] = v.point[2];
          if (k == 0 || v.point[2] > hi[t])
            hi[t] = v.point[2];
        }
    }
  tree[2] = lo[0]; tree[3] = hi[0];
  tree[4] = lo[1]; tree[5] = hi[1];
  tree[6] = MIN (lo[0], lo[1]); tree[7] = MAX (hi[0], hi[1]);
  tree[8] = bounds->max[2] + 1.0f; tree[9] = bounds->min[2] - 1.0f;   /* empty bin */
  tree[0] = tree[6]; tree[1] = tree[7];
}

static GByteArray *
fx_geometry_body (guint32                version,
                  guint                  toc,
                  guint                  stub,
                  guint32                previous,
                  const TerrainAtlasBox *bounds,
                  gboolean               collision)
{
  GByteArray *out = g_byte_array_new ();
  guint nv = fx_n_vertices (stub);

  terrain_test_put_u32 (out, previous);
  if (version >= 120)
    put_box (out, bounds);
  terrain_test_put_u32 (out, N_INDICES);
  terrain_test_put_u32 (out, SKIRT);
  for (guint i = 0; i < N_INDICES; i++)
    terrain_test_put_u16 (out, fixture_indices[i]);
  terrain_test_put_u32 (out, nv);
  for (guint i = 0; i < nv; i++)
    {
      TerrainAtlasVertex v;

      fx_vertex (toc, stub, i, version, &v);
      for (guint k = 0; k < 3; k++)
        terrain_test_put_f32 (out, v.point[k]);
      terrain_test_put_f32 (out, v.tex_coord[0]);
      terrain_test_put_f32 (out, v.tex_coord[1]);
      if (version < 130)
        {
          for (guint k = 0; k < 3; k++)
            terrain_test_put_f32 (out, v.point_morph_offset[k]);
          terrain_test_put_f32 (out, v.tex_morph_offset[0]);
          terrain_test_put_f32 (out, v.tex_morph_offset[1]);
        }
      else
        {
          terrain_test_put_f32 (out, v.tex_morph_offset[0]);
          terrain_test_put_f32 (out, v.tex_morph_offset[1]);
          for (guint k = 0; k < 3; k++)
            terrain_test_put_f32 (out, v.point_morph_offset[k]);
        }
      if (version >= 140)
        for (guint k = 0; k < 3; k++)
          terrain_test_put_f32 (out, v.normal[k]);
    }
  if (version >= 101 && version < 120)
    put_box (out, bounds);
  if (version >= 120)
    {
      if (collision)
        {
          gfloat tree[10];

          fx_collision_tree (toc, stub, bounds, tree);
          terrain_test_put_u8 (out, 0xDF);
          terrain_test_put_u32 (out, 2);
          for (guint i = 0; i < 10; i++)
            terrain_test_put_f32 (out, tree[i]);
          terrain_test_put_u32 (out, 4);
          for (guint i = 0; i < 4; i++)
            terrain_test_put_u16 (out, fx_col_offsets[i]);
          terrain_test_put_u32 (out, 8);
          for (guint i = 0; i < 8; i++)
            terrain_test_put_u16 (out, fx_col_indices[i]);
        }
      else
        terrain_test_put_u8 (out, 0x0F);
      terrain_test_put_u32 (out, FOOTER);
    }
  return out;
}

/* Small real images for texture chunks, made once. */
static GBytes *
fx_dds_dxt1 (void)
{
  static GBytes *dds;

  if (dds == NULL)
    {
      GByteArray *out = g_byte_array_new ();
      guint32 bits = 0;

      terrain_test_put_u32 (out, 0x20534444);
      terrain_test_put_u32 (out, 124);
      terrain_test_put_u32 (out, 0x81007);
      terrain_test_put_u32 (out, 4);   /* height */
                            terrain_test_put_u32 (out, 4);   /* width */
                            terrain_test_put_u32 (out, 8);
      terrain_test_put_u32 (out, 0);
      terrain_test_put_u32 (out, 1);
      for (guint i = 0; i < 11; i++)
        terrain_test_put_u32 (out, 0);
      terrain_test_put_u32 (out, 32);
      terrain_test_put_u32 (out, 4);
      terrain_test_put_u32 (out, 0x31545844);   /* DXT1 */
                            for (guint i = 0; i < 5; i++)
                            terrain_test_put_u32 (out, 0);
      terrain_test_put_u32 (out, 0x1000);
      for (guint i = 0; i < 4; i++)
        terrain_test_put_u32 (out, 0);
      g_assert_cmpuint (out->len, ==, 128);
      terrain_test_put_u16 (out, 0xF800);   /* red */
                            terrain_test_put_u16 (out, 0x001F);   /* blue */
                            for (guint i = 0; i < 16; i++)
                            bits |= (guint32) (i % 4) << (2 * i);
      terrain_test_put_u32 (out, bits);
      dds = g_byte_array_free_to_bytes (out);
    }
  return dds;
}

static TerrainImage *
fx_picture (guint width,
            guint height)
{
  TerrainImage *image = terrain_image_new (TERRAIN_IMAGE_RGBA8, width, height, NULL);
  guint8 *p = terrain_image_get_data (image, NULL);

  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        guint8 *q = p + (gsize) y * terrain_image_get_stride (image) + 4 * x;

        q[0] = (guint8) (x * 30);
        q[1] = (guint8) (y * 30);
        q[2] = 200;
        q[3] = 255;
      }
  return image;
}

static GBytes *
fx_image_payload (guint format)
{
  static GBytes *payloads[3];

  if (payloads[format] == NULL)
    {
      if (format == TERRAIN_ATLAS_TEXTURE_DDS)
        payloads[format] = g_bytes_ref (fx_dds_dxt1 ());
      else
        {
          g_autoptr(TerrainImage) image = fx_picture (8, 8);
          g_autoptr(TerrainAtlasTexture) texture = NULL;
          g_autoptr(GError) error = NULL;

          texture = terrain_atlas_texture_new_from_image (image, format, 90,
                                                          TERRAIN_ATLAS_CHANNELS_RGB, &error);
          g_assert_no_error (error);
          payloads[format] = g_bytes_ref (terrain_atlas_texture_get_data (texture));
        }
    }
  return payloads[format];
}

static GByteArray *
fx_texture_body (guint stub)
{
  GByteArray *out = g_byte_array_new ();
  GBytes *payload = fx_image_payload (stub % 3);

  terrain_test_put_u8 (out, (guint8) (stub % 3));
  g_byte_array_append (out, g_bytes_get_data (payload, NULL), g_bytes_get_size (payload));
  return out;
}

static const char * const fx_config[][2] = {
  { "type", "blender" },
  { "opacityMapSlot", "1" },
  { "shadowMapSlot", "2" },
  { "virtualTexSize", "32768" },
  { "sourceImageCount", "1" },
  { "sourceImage0", "grass.png" },
};

static GByteArray *
fx_config_body (guint   stub,
                guint32 previous)
{
  GByteArray *out = g_byte_array_new ();
  guint n = G_N_ELEMENTS (fx_config) - stub % 2;

  terrain_test_put_u32 (out, previous);
  terrain_test_put_u32 (out, n);
  for (guint i = 0; i < n; i++)
    for (guint k = 0; k < 2; k++)
      {
        terrain_test_put_u32 (out, (guint32) strlen (fx_config[i][k]));
        g_byte_array_append (out, (const guint8 *) fx_config[i][k],
                             (guint) strlen (fx_config[i][k]));
      }
  return out;
}

static char *
fx_config_name (const FixtureSpec *spec,
                guint              stub)
{
  if (spec->flags & F_LONG_NAME)
    return g_strdup_printf ("terrainConfigurationMain%u", stub);
  return g_strdup_printf ("cfg%u", stub);
}

static void
put_frame (GByteArray          *out,
           TerrainAtlasTocKind  kind,
           GByteArray          *body)
{
  terrain_test_put_u32 (out, MAGIC_ATSP);
  terrain_test_put_u32 (out, body->len);
  terrain_test_put_u32 (out, kind == TERRAIN_ATLAS_TOC_GEOMETRY ? GEOM_HEAD
                        : kind == TERRAIN_ATLAS_TOC_TEXTURE ? TEX_HEAD : CFG_HEAD);
  g_byte_array_append (out, body->data, body->len);
  terrain_test_put_u32 (out, kind == TERRAIN_ATLAS_TOC_GEOMETRY ? GEOM_TAIL
                        : kind == TERRAIN_ATLAS_TOC_TEXTURE ? TEX_TAIL : CFG_TAIL);
}

static void
put_filler (GByteArray *out,
            gsize       n)
{
  for (gsize i = 0; i < n; i++)
    terrain_test_put_u8 (out, (guint8) (0xA0 | (out->len & 0x0F)));
}

static gboolean
fx_stub_empty (const FixtureSpec *spec,
               const TocSpec     *toc,
               guint              stub)
{
  return (spec->flags & F_EMPTY) && toc->kind == TERRAIN_ATLAS_TOC_TEXTURE && stub % 7 == 6;
}

static gboolean
fx_stub_shared (const FixtureSpec *spec,
                const TocSpec     *toc,
                guint              stub)
{
  return (spec->flags & F_SHARED) && toc->kind == TERRAIN_ATLAS_TOC_TEXTURE && stub % 5 == 4 &&
         !fx_stub_empty (spec, toc, stub) && !fx_stub_empty (spec, toc, stub - 1);
}

static gsize
stub_size (const TocSpec *toc)
{
  switch (toc->kind)
    {
    case TERRAIN_ATLAS_TOC_GEOMETRY:
      return toc->version < 101 ? 20 : 37;
    case TERRAIN_ATLAS_TOC_TEXTURE:
      return 12;
    case TERRAIN_ATLAS_TOC_CONFIG:
    default:
      return 12 + toc->name_width;
    }
}

static Fixture *
fixture_build (const FixtureSpec *spec)
{
  Fixture *f = g_new0 (Fixture, 1);
  GByteArray *out = g_byte_array_new ();
  GArray *order = g_array_new (FALSE, FALSE, sizeof (guint) * 2);
  guint32 seed = 12345;

  f->spec = spec;
  terrain_test_put_u32 (out, MAGIC_ATLS);
  terrain_test_put_u8 (out, (guint8) spec->n_tocs);

  for (guint t = 0; t < spec->n_tocs; t++)
    {
      const TocSpec *toc = &spec->tocs[t];
      const char *tag = tag_of (toc->kind);
      guint n = spec_n_stubs (toc);

      f->n_stubs[t] = n;
      f->offset[t] = g_new0 (guint32, n);
      f->length[t] = g_new0 (guint32, n);
      f->generation[t] = g_new0 (guint32, n);
      f->previous[t] = g_new0 (guint32, n);
      f->bounds[t] = g_new0 (TerrainAtlasBox, n);

      f->toc_offset[t] = out->len;
      terrain_test_put_u8 (out, (guint8) strlen (tag));
      g_byte_array_append (out, (const guint8 *) tag, (guint) strlen (tag));
      if (toc->kind == TERRAIN_ATLAS_TOC_GEOMETRY)
        terrain_test_put_u32 (out, 1500);
      terrain_test_put_u32 (out, toc->depth);
      terrain_test_put_u32 (out, n);
      terrain_test_put_u32 (out, toc->version);
      f->stub_base[t] = out->len;
      for (gsize i = 0; i < n * stub_size (toc); i++)
        terrain_test_put_u8 (out, 0);

      /* Bounds from the leaves up: own vertices and children (§9b). */
      if (toc->kind == TERRAIN_ATLAS_TOC_GEOMETRY)
        for (guint s = n; s-- > 0;)
          {
            fx_own_bounds (t, s, &f->bounds[t][s]);
            if (toc->version >= 101 && !fx_is_leaf (toc, s))
              for (guint k = 0; k < 4; k++)
                {
                  guint64 c = terrain_quadtree_child (s, k);

                  if (c < n)
                    terrain_atlas_box_union (&f->bounds[t][s], &f->bounds[t][c]);
                }
          }

      for (guint s = 0; s < n; s++)
        {
          guint pair[2] = { t, s };

          if (fx_stub_empty (spec, toc, s) || fx_stub_shared (spec, toc, s))
            continue;
          g_array_append_val (order, pair);
        }
    }
  f->region_end = out->len;

  if ((spec->flags & F_GAPS) && !(spec->flags & F_NO_GAP_AFTER_TOCS))
    put_filler (out, 17);

  if (spec->flags & F_SHUFFLE)
    for (guint i = order->len; i > 1; i--)
      {
        guint j, tmp[2];

        seed = seed * 1103515245u + 12345u;
        j = (seed >> 8) % i;
        memcpy (tmp, &g_array_index (order, guint, 2 * (i - 1)), sizeof tmp);
        memcpy (&g_array_index (order, guint, 2 * (i - 1)), &g_array_index (order, guint, 2 * j),
                sizeof tmp);
        memcpy (&g_array_index (order, guint, 2 * j), tmp, sizeof tmp);
      }

  for (guint k = 0; k < order->len; k++)
    {
      guint t = g_array_index (order, guint, 2 * k), s = g_array_index (order, guint, 2 * k + 1);
      const TocSpec *toc = &spec->tocs[t];
      gboolean collision = (spec->flags & F_COLLISION) && fx_is_leaf (toc, s);
      GByteArray *body;
      guint32 previous = 0;

      f->generation[t][s] = s % 3;
      if ((spec->flags & F_HISTORY) && k % 2 == 0)
        {
          TerrainAtlasBox old;

          /* An older write of the same stub, left in place as history. */
          previous = out->len;
          switch (toc->kind)
            {
            case TERRAIN_ATLAS_TOC_GEOMETRY:
              fx_own_bounds (t, s + 1000, &old);
              body = fx_geometry_body (toc->version, t, s + 1000, 0, &old, FALSE);
              break;
            case TERRAIN_ATLAS_TOC_TEXTURE:
              body = fx_texture_body (s + 1);
              break;
            case TERRAIN_ATLAS_TOC_CONFIG:
            default:
              body = fx_config_body (s + 1, 0);
              break;
            }
          put_frame (out, toc->kind, body);
          g_byte_array_unref (body);
          f->n_history++;
          f->generation[t][s] += 1;
          if (spec->flags & F_GAPS)
            put_filler (out, 5);
        }

      switch (toc->kind)
        {
        case TERRAIN_ATLAS_TOC_GEOMETRY:
          body = fx_geometry_body (toc->version, t, s, previous, &f->bounds[t][s], collision);
          break;
        case TERRAIN_ATLAS_TOC_TEXTURE:
          body = fx_texture_body (s);
          previous = 0;
          break;
        case TERRAIN_ATLAS_TOC_CONFIG:
        default:
          body = fx_config_body (s, previous);
          break;
        }
      f->previous[t][s] = previous;
      f->offset[t][s] = out->len;
      f->length[t][s] = body->len + 16;
      put_frame (out, toc->kind, body);
      g_byte_array_unref (body);
      f->n_frames++;

      if ((spec->flags & F_GAPS) && k + 1 < order->len)
        put_filler (out, (k % 5) * 3 + 1);
    }
  if (spec->flags & F_GAPS)
    put_filler (out, 11);

  /* Stubs. */
  for (guint t = 0; t < spec->n_tocs; t++)
    {
      const TocSpec *toc = &spec->tocs[t];

      for (guint s = 0; s < f->n_stubs[t]; s++)
        {
          guint8 *p = out->data + f->stub_base[t] + s * stub_size (toc);

          if (fx_stub_shared (spec, toc, s))
            {
              f->offset[t][s] = f->offset[t][s - 1];
              f->length[t][s] = f->length[t][s - 1];
              f->generation[t][s] = 7;
            }
          terrain_test_set_u32 (p, f->offset[t][s]);
          terrain_test_set_u32 (p + 4, f->length[t][s]);
          terrain_test_set_u32 (p + 8, f->generation[t][s]);
          if (toc->kind == TERRAIN_ATLAS_TOC_GEOMETRY)
            {
              if (toc->version < 101)
                {
                  gfloat pos[2] = { s * 1.5f, -(gfloat) s };

                  memcpy (p + 12, pos, 8);
                }
              else
                {
                  memcpy (p + 12, &f->bounds[t][s], 24);
                  p[36] = 0xD0;
                }
            }
          else if (toc->kind == TERRAIN_ATLAS_TOC_CONFIG)
            {
              g_autofree char *name = fx_config_name (spec, s);

              memcpy (p + 12, name, MIN (strlen (name), toc->name_width));
            }
        }
    }

  g_array_unref (order);
  f->bytes = g_byte_array_free_to_bytes (out);
  return f;
}

static void
fixture_free (Fixture *f)
{
  for (guint t = 0; t < MAX_TOCS; t++)
    {
      g_free (f->offset[t]);
      g_free (f->length[t]);
      g_free (f->generation[t]);
      g_free (f->previous[t]);
      g_free (f->bounds[t]);
    }
  g_bytes_unref (f->bytes);
  g_free (f);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Fixture, fixture_free)

static TerrainAtlasFile *
load (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  TerrainAtlasFile *file = terrain_atlas_file_new_from_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (file);
  return file;
}

static TerrainAtlasToc *
toc_at (TerrainAtlasFile *file,
        guint             toc)
{
  return terrain_atlas_file_get_toc (file, toc);
}

static TerrainAtlasStub *
stub_at (TerrainAtlasFile *file,
         guint             toc,
         guint             stub)
{
  return terrain_atlas_toc_get_stub (toc_at (file, toc), stub);
}

static void
assert_vertex_equal (const TerrainAtlasVertex *a,
                     const TerrainAtlasVertex *b)
{
  g_assert_cmpmem (a, sizeof *a, b, sizeof *b);
}

/* ------------------------------------------------------------------------
 * Reading every fixture
 */

static void
check_geometry (const Fixture        *f,
                guint                 t,
                guint                 s,
                TerrainAtlasGeometry *g)
{
  const TocSpec *toc = &f->spec->tocs[t];
  const TerrainAtlasVertex *vertices;
  const guint16 *indices;
  TerrainAtlasBox bounds;
  guint n_vertices, n_indices;
  gboolean collision = (f->spec->flags & F_COLLISION) && fx_is_leaf (toc, s) && toc->version >= 120;

  g_assert_cmpuint (terrain_atlas_geometry_get_source_version (g), ==, toc->version);
  g_assert_cmpuint (terrain_atlas_geometry_get_previous_chunk (g), ==, f->previous[t][s]);

  indices = terrain_atlas_geometry_get_indices (g, &n_indices);
  g_assert_cmpmem (indices, n_indices * 2, fixture_indices, sizeof fixture_indices);
  g_assert_cmpuint (terrain_atlas_geometry_get_skirt_skip_count (g), ==, SKIRT);

  vertices = terrain_atlas_geometry_get_vertices (g, &n_vertices);
  g_assert_cmpuint (n_vertices, ==, fx_n_vertices (s));
  for (guint i = 0; i < n_vertices; i++)
    {
      TerrainAtlasVertex expected;

      fx_vertex (t, s, i, toc->version, &expected);
      assert_vertex_equal (&vertices[i], &expected);
    }

  /* Canonical bounds: derived before 101, stored from 101. */
  terrain_atlas_geometry_get_bounds (g, &bounds);
  if (toc->version < 101)
    {
      TerrainAtlasBox own;

      fx_own_bounds (t, s, &own);
      g_assert_true (terrain_atlas_box_equal (&bounds, &own));
    }
  else
    g_assert_true (terrain_atlas_box_equal (&bounds, &f->bounds[t][s]));

  g_assert_cmpint (terrain_atlas_geometry_has_collision (g), ==, collision);
  if (collision)
    {
      const gfloat *tree;
      const guint16 *offsets, *buffer;
      guint n_nodes, n_offsets, n_buffer;
      gfloat expected[10];

      fx_collision_tree (t, s, &f->bounds[t][s], expected);
      g_assert_cmpuint (terrain_atlas_geometry_get_collision_depth (g), ==, 2);
      tree = terrain_atlas_geometry_get_collision_tree (g, &n_nodes);
      g_assert_cmpuint (n_nodes, ==, 5);
      g_assert_cmpmem (tree, 10 * sizeof (gfloat), expected, sizeof expected);
      offsets = terrain_atlas_geometry_get_collision_offsets (g, &n_offsets);
      g_assert_cmpmem (offsets, n_offsets * 2, fx_col_offsets, sizeof fx_col_offsets);
      buffer = terrain_atlas_geometry_get_collision_indices (g, &n_buffer);
      g_assert_cmpmem (buffer, n_buffer * 2, fx_col_indices, sizeof fx_col_indices);
    }
  else
    {
      guint n = 99;

      g_assert_null (terrain_atlas_geometry_get_collision_tree (g, &n));
      g_assert_cmpuint (n, ==, 0);
    }
}

static void
test_read (gconstpointer data)
{
  const FixtureSpec *spec = data;
  g_autoptr(Fixture) f = fixture_build (spec);
  g_autoptr(TerrainAtlasFile) file = load (f->bytes);
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(JsonNode) info = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *object;

  g_assert_cmpuint (terrain_atlas_file_get_n_tocs (file), ==, spec->n_tocs);
  g_assert_cmpuint (terrain_atlas_file_get_toc_region_size (file), ==, f->region_end);
  g_assert_cmpuint (g_list_model_get_n_items (terrain_atlas_file_get_tocs (file)), ==,
                    spec->n_tocs);

  for (guint t = 0; t < spec->n_tocs; t++)
    {
      const TocSpec *ts = &spec->tocs[t];
      TerrainAtlasToc *toc = terrain_atlas_file_get_toc (file, t);

      g_assert_cmpint (terrain_atlas_toc_get_kind (toc), ==, ts->kind);
      g_assert_cmpstr (terrain_atlas_toc_get_tag (toc), ==, tag_of (ts->kind));
      g_assert_cmpuint (terrain_atlas_toc_get_version (toc), ==, ts->version);
      g_assert_cmpuint (terrain_atlas_toc_get_tree_depth (toc), ==, ts->depth);
      g_assert_cmpuint (terrain_atlas_toc_get_n_stubs (toc), ==, f->n_stubs[t]);
      g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (toc)), ==, f->n_stubs[t]);
      g_assert_cmpint (terrain_atlas_toc_get_file_offset (toc), ==, (gint64) f->toc_offset[t]);
      g_assert_cmpuint (terrain_atlas_toc_get_goal_batch_size (toc), ==,
                        (ts->kind == TERRAIN_ATLAS_TOC_GEOMETRY ? 1500 : 0));
      g_assert_cmpuint (terrain_atlas_toc_get_name_width (toc), ==,
                        (ts->kind == TERRAIN_ATLAS_TOC_CONFIG ? ts->name_width : 0));

      for (guint s = 0; s < f->n_stubs[t]; s++)
        {
          g_autoptr(TerrainAtlasStub) stub = g_list_model_get_item (G_LIST_MODEL (toc), s);
          gboolean has = f->length[t][s] != 0;
          TerrainAtlasBox box;
          guint level;
          guint32 x, y;

          g_assert_cmpuint (terrain_atlas_stub_get_index (stub), ==, s);
          g_assert_cmpuint (terrain_atlas_stub_get_offset (stub), ==, f->offset[t][s]);
          g_assert_cmpuint (terrain_atlas_stub_get_length (stub), ==, f->length[t][s]);
          g_assert_cmpuint (terrain_atlas_stub_get_generation (stub), ==, f->generation[t][s]);
          g_assert_cmpint (terrain_atlas_stub_has_chunk (stub), ==, has);
          g_assert_cmpint (terrain_atlas_stub_get_record_offset (stub), ==,
                           (gint64) (f->stub_base[t] + s * stub_size (ts)));

          if (ts->kind != TERRAIN_ATLAS_TOC_CONFIG)
            {
              g_assert_true (terrain_atlas_stub_get_node (stub, &level, &x, &y));
              g_assert_cmpuint (terrain_quadtree_node_id (level, x, y), ==, s);
              g_assert_cmpint (terrain_atlas_toc_find_stub (toc, level, x, y), ==, s);
            }
          else
            {
              g_autofree char *name = terrain_atlas_stub_dup_name (stub);
              g_autofree char *expected = fx_config_name (spec, s);

              g_assert_false (terrain_atlas_stub_get_node (stub, NULL, NULL, NULL));
              expected[MIN (strlen (expected), ts->name_width)] = '\0';
              g_assert_cmpstr (name, ==, expected);
            }

          if (ts->kind == TERRAIN_ATLAS_TOC_GEOMETRY)
            {
              gfloat px, py;

              if (ts->version >= 101)
                {
                  g_assert_true (terrain_atlas_stub_get_bounds (stub, &box));
                  g_assert_true (terrain_atlas_box_equal (&box, &f->bounds[t][s]));
                  g_assert_false (terrain_atlas_stub_get_legacy_position (stub, NULL, NULL));
                }
              else
                {
                  g_assert_false (terrain_atlas_stub_get_bounds (stub, &box));
                  g_assert_true (terrain_atlas_stub_get_legacy_position (stub, &px, &py));
                  g_assert_cmpfloat (px, ==, s * 1.5f);
                  g_assert_cmpfloat (py, ==, -(gfloat) s);
                }
            }

          if (!has)
            {
              g_autoptr(GBytes) none = terrain_atlas_file_get_chunk_frame (file, t, s, &error);

              g_assert_null (none);
              g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
              g_clear_error (&error);
              continue;
            }

          switch (ts->kind)
            {
            case TERRAIN_ATLAS_TOC_GEOMETRY:
              {
                g_autoptr(TerrainAtlasGeometry) g = terrain_atlas_file_get_geometry (file, t, s,
                                                                                     &error);
                g_autoptr(GBytes) body = NULL;
                g_autoptr(GBytes) again = NULL;

                g_assert_no_error (error);
                check_geometry (f, t, s, g);

                /* Encoding at the read version gives the same body. */
                body = terrain_atlas_file_get_chunk_body (file, t, s, &error);
                g_assert_no_error (error);
                again = terrain_atlas_geometry_encode_body (g, ts->version, NULL, &error);
                g_assert_no_error (error);
                terrain_test_assert_bytes_equal (body, again);
              }
              break;
            case TERRAIN_ATLAS_TOC_TEXTURE:
              {
                g_autoptr(TerrainAtlasTexture) tex = terrain_atlas_file_get_texture (file, t, s,
                                                                                    &error);
                guint format = f->offset[t][s] == f->offset[t][s > 0 ? s - 1 : 0] && s > 0 &&
                               fx_stub_shared (spec, ts, s) ? (s - 1) % 3 : s % 3;

                g_assert_no_error (error);
                g_assert_cmpuint (terrain_atlas_texture_get_format (tex), ==, format);
                g_assert_true (g_bytes_equal (terrain_atlas_texture_get_data (tex),
                                              fx_image_payload (format)));
              }
              break;
            case TERRAIN_ATLAS_TOC_CONFIG:
            default:
              {
                g_autoptr(TerrainAtlasConfig) config = terrain_atlas_file_get_config (file, t, s,
                                                                                     &error);

                g_assert_no_error (error);
                g_assert_cmpuint (terrain_atlas_config_get_previous_chunk (config), ==,
                                  f->previous[t][s]);
                g_assert_cmpuint (terrain_atlas_config_get_n_entries (config), ==,
                                  G_N_ELEMENTS (fx_config) - s % 2);
                g_assert_cmpstr (terrain_atlas_config_get_key (config, 0, NULL), ==, "type");
                g_assert_cmpstr (terrain_atlas_config_lookup (config, "TYPE"), ==, "blender");
                g_assert_cmpstr (terrain_atlas_config_lookup (config, "virtualTexSize"), ==,
                                 "32768");
              }
              break;
            }
        }
    }

  /* Byte-exact round trip. */
  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (file), &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (written, f->bytes);
  g_assert_true (terrain_document_compare_bytes (TERRAIN_DOCUMENT (file), written, NULL, NULL));
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (file)));

  /* Consistent files have no findings beyond remarks. */
  issues = terrain_document_validate (TERRAIN_DOCUMENT (file));
  for (guint i = 0; i < issues->len; i++)
    {
      TerrainIssue *issue = g_ptr_array_index (issues, i);

      if (terrain_issue_get_severity (issue) != TERRAIN_SEVERITY_INFO)
        {
          g_autofree char *text = terrain_issue_to_string (issue);

          g_error ("unexpected finding: %s", text);
        }
    }

  info = terrain_document_describe (TERRAIN_DOCUMENT (file));
  object = json_node_get_object (info);
  g_assert_cmpstr (json_object_get_string_member (object, "format"), ==, "atlas");
  g_assert_cmpint (json_object_get_int_member (object, "toc_region_size"), ==, f->region_end);
  g_assert_cmpint (json_object_get_int_member (object, "chunk_frames"), ==, f->n_frames);
  g_assert_cmpint (json_object_get_int_member (object, "history_frames"), ==, f->n_history);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "tocs")), ==,
                    spec->n_tocs);
}

/* ------------------------------------------------------------------------
 * §8 layout
 */

static void
test_section8 (void)
{
  g_autoptr(Fixture) f = fixture_build (&section8);
  g_autoptr(TerrainAtlasFile) file = load (f->bytes);
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) info = NULL;
  static const gint64 toc_offsets[4] = { 0x05, 0xC63, 0xD6F, 0x1D7B };
  static const gint64 first_stubs[4] = { 0x1A, 0xC73, 0xD7F, 0x1D8E };
  static const guint counts[4] = { 85, 21, 341, 1 };
  static const guint depths[4] = { 4, 3, 5, 0 };
  guint32 lowest = G_MAXUINT32;
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (f->bytes, &size);

  g_assert_cmpuint (terrain_atlas_file_get_n_tocs (file), ==, 4);
  for (guint t = 0; t < 4; t++)
    {
      TerrainAtlasToc *toc = terrain_atlas_file_get_toc (file, t);

      g_assert_cmpint (terrain_atlas_toc_get_file_offset (toc), ==, toc_offsets[t]);
      g_assert_cmpint (terrain_atlas_toc_get_stub_file_offset (toc, 0), ==, first_stubs[t]);
      g_assert_cmpuint (terrain_atlas_toc_get_n_stubs (toc), ==, counts[t]);
      g_assert_cmpuint (terrain_atlas_toc_get_tree_depth (toc), ==, depths[t]);
      g_assert_cmpuint (terrain_atlas_toc_get_version (toc), ==, 140);
      for (guint s = 0; s < counts[t]; s++)
        lowest = MIN (lowest, f->offset[t][s]);
    }
  g_assert_cmpint (terrain_atlas_toc_get_stub_file_offset (toc_at (file, 0), 84)
                   + 37, ==, 0xC63);
  g_assert_cmpint (terrain_atlas_toc_get_stub_file_offset (toc_at (file, 2), 340)
                   + 12, ==, 0x1D7B);
  g_assert_cmpuint (terrain_atlas_toc_get_name_width (toc_at (file, 3)), ==, 8);
  g_assert_cmpuint (terrain_atlas_file_get_toc_region_size (file), ==, 0x1DA2);
  g_assert_cmpuint (lowest, ==, 0x1DA2);

  /* The bytes the spec lists. */
  g_assert_cmpmem (data, 4, "ATLS", 4);
  g_assert_cmpuint (data[4], ==, 4);
  g_assert_cmpmem (data + 5, 5, "\004Geom", 5);
  g_assert_cmpuint (terrain_test_get_u32 (data + 0x0A), ==, 1500);
  g_assert_cmpuint (terrain_test_get_u32 (data + 0x0E), ==, 4);
  g_assert_cmpuint (terrain_test_get_u32 (data + 0x12), ==, 85);
  g_assert_cmpuint (terrain_test_get_u32 (data + 0x16), ==, 140);
  g_assert_cmpmem (data + 0xC63, 4, "\003Tex", 4);
  g_assert_cmpmem (data + 0xD6F, 4, "\003Tex", 4);
  g_assert_cmpmem (data + 0x1D7B, 7, "\006Config", 7);
  g_assert_cmpuint (data[0x1A + 36], ==, 0xD0);

  info = terrain_document_describe (TERRAIN_DOCUMENT (file));
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (info), "chunk_frames"), ==,
                   448);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (info), "gap_bytes"), ==, 0);

  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (file), &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (written, f->bytes);

  /* Offsets are named for round-trip reports. */
  {
    g_autofree char *a = terrain_document_describe_offset (TERRAIN_DOCUMENT (file), 0x1A + 36);
    g_autofree char *b = terrain_document_describe_offset (TERRAIN_DOCUMENT (file), 0xC64);
    g_autofree char *c = terrain_document_describe_offset (TERRAIN_DOCUMENT (file), 0x1D8E + 12);
    g_autofree char *d = terrain_document_describe_offset (TERRAIN_DOCUMENT (file),
                                                            f->offset[1][0] + 20);
    g_autofree char *e = terrain_document_describe_offset (TERRAIN_DOCUMENT (file), 2);

    g_assert_cmpstr (a, ==, "TOC 0 (Geom) stub 0 (level 0, x 0, y 0) record, sentinel 0xD0");
    g_assert_cmpstr (b, ==, "TOC 1 (Tex) header, kindTag");
    g_assert_cmpstr (c, ==, "TOC 3 (Config) stub 0 \"cfg0\" record, name");
    g_assert_cmpstr (d, ==, "chunk of TOC 1 (Tex) stub 0 (level 0, x 0, y 0), body byte +8");
    g_assert_cmpstr (e, ==, "header, magic ATLS");
  }
}

/* ------------------------------------------------------------------------
 * Errors
 */

static void
assert_load_error (GBytes     *bytes,
                   gint        code,
                   const char *needle)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainAtlasFile) file = terrain_atlas_file_new_from_bytes (bytes, NULL, &error);

  g_assert_null (file);
  g_assert_error (error, TERRAIN_ERROR, code);
  if (needle != NULL && strstr (error->message, needle) == NULL)
    g_error ("message \"%s\" lacks \"%s\"", error->message, needle);
}

static GBytes *
mutate (GBytes *bytes,
        gsize   offset,
        guint32 value,
        guint   width)
{
  gsize size = 0;
  guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, &size), g_bytes_get_size (bytes));

  g_assert_cmpuint (offset + width, <=, size);
  if (width == 1)
    copy[offset] = (guint8) value;
  else
    terrain_test_set_u32 (copy + offset, value);
  return g_bytes_new_take (copy, size);
}

static const FixtureSpec small_spec = {
  "small", F_COLLISION | F_SHUFFLE, 3, { GEOM (140, 2), TEX (140, 2), CONFIG (140, 1, 8) }
};

/* Cutting the file anywhere must fail cleanly with TERRAIN_ERROR_TRUNCATED:
 * the last byte of the fixture belongs to a referenced frame. */
static void
test_truncation (void)
{
  g_autoptr(Fixture) f = fixture_build (&small_spec);
  gsize size = g_bytes_get_size (f->bytes);

  for (gsize cut = 0; cut < size; cut++)
    {
      g_autoptr(GBytes) part = g_bytes_new_from_bytes (f->bytes, 0, cut);

      assert_load_error (part, TERRAIN_ERROR_TRUNCATED, cut >= f->region_end ? "chunk" : NULL);
    }
}

static void
test_truncation_section8 (void)
{
  g_autoptr(Fixture) f = fixture_build (&section8);
  gsize size = g_bytes_get_size (f->bytes);

  for (gsize cut = 0; cut < size; cut += cut < 0x1DB0 ? 13 : 997)
    {
      g_autoptr(GBytes) part = g_bytes_new_from_bytes (f->bytes, 0, cut);

      assert_load_error (part, TERRAIN_ERROR_TRUNCATED, NULL);
    }
}

/* Every body, cut anywhere, fails to decode with TERRAIN_ERROR_TRUNCATED,
 * for every version branch, with and without collision. */
static void
test_body_truncation (void)
{
  static const guint32 versions[] = { 100, 110, 120, 125, 130, 135, 140, 141 };

  for (guint v = 0; v < G_N_ELEMENTS (versions); v++)
    for (guint collision = 0; collision < 2; collision++)
      {
        TerrainAtlasBox box;
        g_autoptr(GByteArray) body = NULL;

        fx_own_bounds (0, 5, &box);
        body = fx_geometry_body (versions[v], 0, 5, 77, &box, collision && versions[v] >= 120);
        for (guint cut = 0; cut < body->len; cut++)
          {
            g_autoptr(GBytes) part = g_bytes_new (body->data, cut);
            g_autoptr(GError) error = NULL;
            g_autoptr(TerrainAtlasGeometry) g = NULL;

            g = terrain_atlas_geometry_new_from_body (part, versions[v], 1000, NULL, &error);
            g_assert_null (g);
            g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
          }
      }

  {
    g_autoptr(GByteArray) body = fx_config_body (0, 5);

    for (guint cut = 0; cut < body->len; cut++)
      {
        g_autoptr(GBytes) part = g_bytes_new (body->data, cut);
        g_autoptr(GError) error = NULL;
        g_autoptr(TerrainAtlasConfig) c = NULL;

        c = terrain_atlas_config_new_from_body (part, 0, NULL, &error);

        g_assert_null (c);
        g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
      }
  }

  {
    g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainAtlasTexture) tex = terrain_atlas_texture_new_from_body (empty, 0, &error);

    g_assert_null (tex);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
  }
}

static void
test_bad_sentinels (void)
{
  g_autoptr(Fixture) f = fixture_build (&small_spec);
  guint32 geom = f->offset[0][0], tex = f->offset[1][0], cfg = f->offset[2][0];
  struct {
    gsize offset;
    guint32 value;
    guint width;
    gint code;
    const char *needle;
  } cases[] = {
    { 0, 0x534C5442, 4, TERRAIN_ERROR_BAD_MAGIC, "not ATLS" },
    { 6, 'X', 1, TERRAIN_ERROR_BAD_MAGIC, "kind tag \"Xeom\"" },
    { 5, 9, 1, TERRAIN_ERROR_BAD_MAGIC, "kind tag" },
    { f->stub_base[0] + 36, 0xD1, 1, TERRAIN_ERROR_BAD_MAGIC, "stub 0: sentinel 0xD1" },
    { f->stub_base[0] + 37 * 4 + 36, 0x00, 1, TERRAIN_ERROR_BAD_MAGIC, "stub 4: sentinel" },
    { f->toc_offset[0] + 9, 16, 4, TERRAIN_ERROR_INVALID_VALUE, "treeDepth 16" },
    { f->toc_offset[0] + 13, 0x7FFFFFF, 4, TERRAIN_ERROR_LIMIT_EXCEEDED, "stub count" },
    { f->toc_offset[0] + 13, 6, 4, TERRAIN_ERROR_BAD_MAGIC, NULL },
    { geom, 0x50535442, 4, TERRAIN_ERROR_BAD_MAGIC, "not ATSP" },
    { geom + 8, TEX_HEAD, 4, TERRAIN_ERROR_BAD_MAGIC, "is not agch" },
    { geom + f->length[0][0] - 4, GEOM_HEAD, 4, TERRAIN_ERROR_BAD_MAGIC, "is not agct" },
    { tex + 8, GEOM_HEAD, 4, TERRAIN_ERROR_BAD_MAGIC, "is not TexH" },
    { tex + f->length[1][0] - 4, CFG_TAIL, 4, TERRAIN_ERROR_BAD_MAGIC, "is not TexT" },
    { cfg + f->length[2][0] - 4, TEX_TAIL, 4, TERRAIN_ERROR_BAD_MAGIC, "is not CfgT" },
    { geom + 4, f->length[0][0] - 15, 4, TERRAIN_ERROR_INVALID_VALUE, "bodySize" },
    { f->stub_base[0], 7, 4, TERRAIN_ERROR_OVERLAP, "inside the TOC region" },
    { f->stub_base[0] + 4, 8, 4, TERRAIN_ERROR_INVALID_VALUE, "shorter than the 16 bytes" },
    { f->stub_base[0], 0x7FFFFFF0, 4, TERRAIN_ERROR_TRUNCATED, "file ends" },
    { f->stub_base[0], geom + 4, 4, TERRAIN_ERROR_BAD_MAGIC, NULL },
    { f->stub_base[1], geom, 4, TERRAIN_ERROR_INVALID_VALUE, "does not match the stub length" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) bad = mutate (f->bytes, cases[i].offset, cases[i].value, cases[i].width);

      assert_load_error (bad, cases[i].code, cases[i].needle);
    }

  /* A texture stub pointing at a geometry frame. */
  {
    g_autoptr(GBytes) step = mutate (f->bytes, f->stub_base[1], geom, 4);
    g_autoptr(GBytes) bad = mutate (step, f->stub_base[1] + 4, f->length[0][0], 4);

    assert_load_error (bad, TERRAIN_ERROR_BAD_MAGIC, "is not TexH");
  }

  /* Overlapping frames: a stub pointing into the middle of another frame
   * that happens to hold a valid frame header is still refused. */
  {
    gsize size = 0;
    guint8 *copy = g_memdup2 (g_bytes_get_data (f->bytes, &size), g_bytes_get_size (f->bytes));
    g_autoptr(GBytes) bad = NULL;
    guint32 inner = geom + 16;

    terrain_test_set_u32 (copy + inner, MAGIC_ATSP);
    terrain_test_set_u32 (copy + inner + 4, 0);
    terrain_test_set_u32 (copy + inner + 8, GEOM_HEAD);
    terrain_test_set_u32 (copy + inner + 12, GEOM_TAIL);
    terrain_test_set_u32 (copy + f->stub_base[0] + 37, inner);
    terrain_test_set_u32 (copy + f->stub_base[0] + 37 + 4, 16);
    bad = g_bytes_new_take (copy, size);
    assert_load_error (bad, TERRAIN_ERROR_OVERLAP, "overlap");
  }
}

/* Sentinels inside bodies fail when the chunk is decoded, and validation
 * reports them as errors. */
static void
test_bad_body_sentinels (void)
{
  g_autoptr(Fixture) f = fixture_build (&small_spec);
  guint leaf = 1;   /* a leaf, with collision */
  guint32 at = f->offset[0][leaf];
  gsize colflag = at + 12 + f->length[0][leaf] - 16 - 4 - (1 + 4 + 40 + 4 + 8 + 4 + 16);
  struct {
    gsize offset;
    guint32 value;
    guint width;
    gint code;
    const char *needle;
  } cases[] = {
    { at + 12 + f->length[0][leaf] - 16 - 4, 0xCEFEDEEE, 4, TERRAIN_ERROR_BAD_MAGIC, "0xCEFEDEEF" },
    { colflag, 0x0E, 1, TERRAIN_ERROR_BAD_MAGIC, "collision flag 0x0E" },
    { colflag, 0x0F, 1, TERRAIN_ERROR_BAD_MAGIC, "footer 0x00000002" },
    { colflag + 1, 16, 4, TERRAIN_ERROR_INVALID_VALUE, "collision tree depth 16" },
    { colflag + 1, 9, 4, TERRAIN_ERROR_TRUNCATED, "collision tree of depth 9" },
    { at + 12 + 4 + 24, 0x10000, 4, TERRAIN_ERROR_TRUNCATED, "index count 65536" },
    { at + 12 + 4 + 24 + 8 + 18, 0x7FFFFFFF, 4, TERRAIN_ERROR_TRUNCATED, "vertex count" },
  };

  g_assert_cmpuint (terrain_test_get_u32 ((const guint8 *) g_bytes_get_data (f->bytes,
                                          NULL) + colflag + 1),
                                          ==, 2);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) bad = mutate (f->bytes, cases[i].offset, cases[i].value, cases[i].width);
      g_autoptr(TerrainAtlasFile) file = load (bad);
      g_autoptr(TerrainAtlasGeometry) g = NULL;
      g_autoptr(GPtrArray) issues = NULL;
      g_autoptr(GError) error = NULL;
      gboolean found = FALSE;

      g = terrain_atlas_file_get_geometry (file, 0, leaf, &error);
      g_assert_null (g);
      g_assert_error (error, TERRAIN_ERROR, cases[i].code);
      g_assert_nonnull (strstr (error->message, "TOC 0 (Geom) stub 1 (level 1, x 0, y 0)"));
      if (strstr (error->message, cases[i].needle) == NULL)
        g_error ("message \"%s\" lacks \"%s\"", error->message, cases[i].needle);

      issues = terrain_document_validate (TERRAIN_DOCUMENT (file));
      for (guint k = 0; k < issues->len; k++)
        if (terrain_issue_get_severity (g_ptr_array_index (issues, k)) == TERRAIN_SEVERITY_ERROR)
          found = TRUE;
      g_assert_true (found);
    }

  /* A config entry running past the body. */
  {
    g_autoptr(GBytes) bad = mutate (f->bytes, f->offset[2][0] + 12 + 8, 1000, 4);
    g_autoptr(TerrainAtlasFile) file = load (bad);
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainAtlasConfig) c = terrain_atlas_file_get_config (file, 2, 0, &error);

    g_assert_null (c);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (error->message, "entry 0"));
  }
}

/* ------------------------------------------------------------------------
 * Config name widths
 */

/* The bytes of a Config-only fixture with @gap bytes of @fill inserted
 * between the TOC region and the chunk. */
static GBytes *
insert_gap (const Fixture *f,
            gsize          gap,
            guint8         fill)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (f->bytes, &size);
  GByteArray *out = g_byte_array_new ();
  guint8 *filler = g_malloc (MAX (gap, 1));

  memset (filler, fill, gap);
  g_byte_array_append (out, data, (guint) f->region_end);
  g_byte_array_append (out, filler, (guint) gap);
  g_byte_array_append (out, data + f->region_end, (guint) (size - f->region_end));
  terrain_test_set_u32 (out->data + f->stub_base[0], f->offset[0][0] + (guint32) gap);
  g_free (filler);
  return g_byte_array_free_to_bytes (out);
}

static void
test_config_width_ambiguous (void)
{
  /* One Config stub as the last TOC: with room before the chunk both
   * widths fit. The width after which the chunk starts exactly wins; then
   * a name running on past 8 bytes means 128; else 8 stays. */
  static const struct {
    guint width;
    guint flags;
    gsize gap;
    guint8 fill;
    guint expected;
  } cases[] = {
    { 128, 0, 0, 0, 128 },             /* written with 128, contiguous */
    { 128, F_LONG_NAME, 0, 0, 128 },
    { 8, 0, 0, 0, 8 },                 /* 128 would overlap the chunk */
    { 8, 0, 50, 0xAA, 8 },
    { 8, 0, 120, 0, 128 },             /* indistinguishable from 128 */
    { 8, 0, 200, 0, 8 },               /* neither contiguous, short name */
    { 128, F_LONG_NAME, 200, 0, 128 }, /* neither contiguous, long name */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      FixtureSpec spec = { "ambiguous", cases[i].flags, 1, { CONFIG (140, 1, cases[i].width) } };
      g_autoptr(Fixture) f = fixture_build (&spec);
      g_autoptr(GBytes) bytes = insert_gap (f, cases[i].gap, cases[i].fill);
      g_autoptr(TerrainAtlasFile) file = load (bytes);
      g_autoptr(GBytes) written = NULL;
      g_autoptr(TerrainAtlasFile) compact = NULL;
      g_autoptr(TerrainAtlasConfig) config = NULL;
      TerrainAtlasToc *toc = terrain_atlas_file_get_toc (file, 0);

      g_test_message ("case %u", i);
      g_assert_cmpuint (terrain_atlas_toc_get_name_width (toc), ==, cases[i].expected);
      written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (file), NULL);
      terrain_test_assert_bytes_equal (written, bytes);
      config = terrain_atlas_file_get_config (file, 0, 0, NULL);
      g_assert_nonnull (config);

      /* The writer keeps the width it read. */
      compact = terrain_atlas_file_compact (file, NULL);
      g_assert_cmpuint (terrain_atlas_toc_get_name_width (toc_at (compact, 0)), ==,
                        cases[i].expected);
    }
}

/* ------------------------------------------------------------------------
 * Edits
 */

/* Byte ranges of the source that an edit may change. */
typedef struct
{
  gsize start;
  gsize end;
} Span;

static void
assert_changes_within (GBytes     *before,
                       GBytes     *after,
                       const Span *allowed,
                       guint       n_allowed)
{
  gsize nb = 0, na = 0;
  const guint8 *b = g_bytes_get_data (before, &nb), *a = g_bytes_get_data (after, &na);

  g_assert_cmpuint (na, >=, nb);
  for (gsize i = 0; i < nb; i++)
    {
      gboolean ok = FALSE;

      if (a[i] == b[i])
        continue;
      for (guint k = 0; k < n_allowed; k++)
        if (i >= allowed[k].start && i < allowed[k].end)
          ok = TRUE;
      if (!ok)
        g_error ("byte %" G_GSIZE_FORMAT " changed outside the allowed spans", i);
    }
}

static gboolean
has_issue (GPtrArray  *issues,
           const char *needle)
{
  for (guint i = 0; i < issues->len; i++)
    if (strstr (terrain_issue_get_message (g_ptr_array_index (issues, i)), needle) != NULL)
      return TRUE;
  return FALSE;
}

static const FixtureSpec edit_spec = {
  "edit", F_COLLISION | F_HISTORY | F_GAPS, 3, { GEOM (140, 3), TEX (140, 2), CONFIG (140, 1, 8) }
};

static void
test_edit_geometry (void)
{
  g_autoptr(Fixture) f = fixture_build (&edit_spec);
  g_autoptr(TerrainAtlasFile) file = load (f->bytes);
  g_autoptr(TerrainAtlasGeometry) g = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(TerrainAtlasFile) reread = NULL;
  g_autoptr(GError) error = NULL;
  guint leaf = 20;   /* level 2 (3, 3); parent 4, root 0 */
  guint chain[3] = { 20, 4, 0 };
  Span allowed[3];
  gsize size = g_bytes_get_size (f->bytes);
  TerrainAtlasBox box;

  g = terrain_atlas_file_get_geometry (file, 0, leaf, &error);
  g_assert_no_error (error);
  terrain_atlas_geometry_set_vertex_height (g, 2, 1000.0f);
  g_assert_true (terrain_atlas_file_replace_geometry (file, 0, leaf, g, &error));
  g_assert_no_error (error);
  g_assert_true (terrain_document_get_modified (TERRAIN_DOCUMENT (file)));
  g_assert_cmpuint (terrain_atlas_geometry_get_previous_chunk (g), ==, f->offset[0][leaf]);

  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (file), &error);
  g_assert_no_error (error);

  /* Only the three stub records change; everything else is kept. */
  for (guint i = 0; i < 3; i++)
    {
      allowed[i].start = f->stub_base[0] + chain[i] * 37;
      allowed[i].end = allowed[i].start + 37;
    }
  assert_changes_within (f->bytes, written, allowed, 3);
  g_assert_cmpuint (g_bytes_get_size (written), >, size);

  reread = load (written);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(TerrainAtlasStub) stub = stub_at (reread, 0, chain[i]);
      g_autoptr(TerrainAtlasGeometry) cg = terrain_atlas_file_get_geometry (reread, 0, chain[i],
                                                                            &error);

      g_assert_no_error (error);
      g_assert_cmpuint (terrain_atlas_stub_get_offset (stub), >=, size);
      g_assert_cmpuint (terrain_atlas_stub_get_generation (stub), ==,
                        f->generation[0][chain[i]] + 1);
      g_assert_cmpuint (terrain_atlas_geometry_get_previous_chunk (cg), ==, f->offset[0][chain[i]]);
      g_assert_true (terrain_atlas_stub_get_bounds (stub, &box));
      g_assert_cmpfloat (box.max[2], ==, 1000.0f);
      {
        TerrainAtlasBox chunk_box;

        terrain_atlas_geometry_get_bounds (cg, &chunk_box);
        g_assert_true (terrain_atlas_box_equal (&box, &chunk_box));
      }
    }

  /* The leaf carries the new height and a regenerated collision tree. */
  {
    g_autoptr(TerrainAtlasGeometry) cg = terrain_atlas_file_get_geometry (reread, 0, leaf, &error);
    g_autoptr(GPtrArray) issues = terrain_atlas_geometry_check (cg, NULL, -1, -1);
    const TerrainAtlasVertex *v = terrain_atlas_geometry_get_vertices (cg, NULL);
    const gfloat *tree;

    g_assert_cmpfloat (v[2].point[2], ==, 1000.0f);
    g_assert_true (terrain_atlas_geometry_has_collision (cg));
    tree = terrain_atlas_geometry_get_collision_tree (cg, NULL);
    g_assert_cmpfloat (tree[1], ==, 1000.0f);
    g_assert_cmpuint (issues->len, ==, 0);
  }

  /* The history frames are all still there, plus the old versions. */
  {
    g_autoptr(JsonNode) info = terrain_document_describe (TERRAIN_DOCUMENT (reread));

    g_assert_cmpint (json_object_get_int_member (json_node_get_object (info), "history_frames"),
                     ==, f->n_history + 3);
  }

  /* A sibling was untouched. */
  {
    g_autoptr(TerrainAtlasStub) stub = stub_at (reread, 0, 19);

    g_assert_cmpuint (terrain_atlas_stub_get_offset (stub), ==, f->offset[0][19]);
  }
}

/* Lowering a vertex that is not an extreme changes only the leaf. */
static void
test_edit_geometry_local (void)
{
  g_autoptr(Fixture) f = fixture_build (&edit_spec);
  g_autoptr(TerrainAtlasFile) file = load (f->bytes);
  g_autoptr(TerrainAtlasGeometry) g = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GError) error = NULL;
  guint leaf = 7;
  Span allowed;
  const TerrainAtlasVertex *v;
  gsize size = g_bytes_get_size (f->bytes);
  const guint8 *data;

  g = terrain_atlas_file_get_geometry (file, 0, leaf, &error);
  v = terrain_atlas_geometry_get_vertices (g, NULL);
  terrain_atlas_geometry_set_vertex_height (g, 1, v[1].point[2] + 0.125f);
  g_assert_true (terrain_atlas_file_replace_geometry (file, 0, leaf, g, &error));
  g_assert_no_error (error);
  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (file), &error);
  g_assert_no_error (error);

  allowed.start = f->stub_base[0] + leaf * 37;
  allowed.end = allowed.start + 12;   /* offset, length, generation only */
  assert_changes_within (f->bytes, written, &allowed, 1);

  /* One frame appended, exactly at the old end of the file. */
  data = g_bytes_get_data (written, NULL);
  g_assert_cmpuint (terrain_test_get_u32 (data + allowed.start), ==, size);
  g_assert_cmpuint (g_bytes_get_size (written), ==,
                    size + terrain_test_get_u32 (data + allowed.start + 4));
  g_assert_cmpuint (terrain_test_get_u32 (data + size), ==, MAGIC_ATSP);
  g_assert_cmpuint (terrain_test_get_u32 (data + size + 12), ==, f->offset[0][leaf]);

  /* A second edit chains to the first appended frame. */
  {
    g_autoptr(GBytes) twice = NULL;
    g_autoptr(TerrainAtlasFile) reread = NULL;
    g_autoptr(TerrainAtlasGeometry) back = NULL;
    g_autoptr(TerrainAtlasStub) stub = NULL;
    g_autoptr(GPtrArray) issues = NULL;

    terrain_atlas_geometry_set_vertex_height (g, 1, v[1].point[2] + 0.25f);
    g_assert_true (terrain_atlas_file_replace_geometry (file, 0, leaf, g, &error));
    g_assert_no_error (error);
    issues = terrain_document_validate (TERRAIN_DOCUMENT (file));
    g_assert_false (has_issue (issues, "previousChunk"));

    twice = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (file), &error);
    g_assert_no_error (error);
    reread = load (twice);
    stub = stub_at (reread, 0, leaf);
    back = terrain_atlas_file_get_geometry (reread, 0, leaf, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (terrain_atlas_stub_get_generation (stub), ==, f->generation[0][leaf] + 2);
    g_assert_cmpuint (terrain_atlas_geometry_get_previous_chunk (back), ==, size);
    assert_changes_within (written, twice, &allowed, 1);
    g_assert_cmpuint (g_bytes_get_size (twice), >, g_bytes_get_size (written));
  }
}

static void
test_edit_texture_and_config (void)
{
  g_autoptr(Fixture) f = fixture_build (&edit_spec);
  g_autoptr(TerrainAtlasFile) file = load (f->bytes);
  g_autoptr(TerrainImage) picture = fx_picture (4, 4);
  g_autoptr(TerrainAtlasTexture) tex = NULL;
  g_autoptr(TerrainAtlasConfig) config = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(TerrainAtlasFile) reread = NULL;
  g_autoptr(GError) error = NULL;
  Span allowed[2];
  gsize size = g_bytes_get_size (f->bytes);

  tex = terrain_atlas_texture_new_from_image (picture, TERRAIN_ATLAS_TEXTURE_PNG, 0,
                                              TERRAIN_ATLAS_CHANNELS_RGB, &error);
  g_assert_no_error (error);
  g_assert_true (terrain_atlas_file_replace_texture (file, 1, 3, tex, &error));
  g_assert_no_error (error);

  config = terrain_atlas_file_get_config (file, 2, 0, &error);
  g_assert_no_error (error);
  terrain_atlas_config_set (config, "textureSlot", "0");
  terrain_atlas_config_set (config, "Type", "unique");
  g_assert_true (terrain_atlas_file_replace_config (file, 2, 0, config, &error));
  g_assert_no_error (error);

  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (file), &error);
  g_assert_no_error (error);
  allowed[0].start = f->stub_base[1] + 3 * 12;
  allowed[0].end = allowed[0].start + 12;
  allowed[1].start = f->stub_base[2];
  allowed[1].end = allowed[1].start + 12;
  assert_changes_within (f->bytes, written, allowed, 2);

  reread = load (written);
  {
    g_autoptr(TerrainAtlasTexture) t2 = terrain_atlas_file_get_texture (reread, 1, 3, &error);
    g_autoptr(TerrainImage) image = terrain_atlas_file_render_texture (reread, 1, 3,
                                                                      TERRAIN_ATLAS_CHANNELS_RGB,
                                                                      &error);
    g_autoptr(TerrainAtlasStub) stub = stub_at (reread, 1, 3);

    g_assert_no_error (error);
    g_assert_cmpuint (terrain_atlas_texture_get_format (t2), ==, TERRAIN_ATLAS_TEXTURE_PNG);
    g_assert_cmpmem (terrain_image_get_data (image, NULL), 64,
                     terrain_image_get_data (picture, NULL), 64);
    g_assert_cmpuint (terrain_atlas_stub_get_offset (stub), ==, size);
    g_assert_cmpuint (terrain_atlas_stub_get_generation (stub), ==, f->generation[1][3] + 1);
  }
  {
    g_autoptr(TerrainAtlasConfig) c2 = terrain_atlas_file_get_config (reread, 2, 0, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (terrain_atlas_config_get_previous_chunk (c2), ==, f->offset[2][0]);
    g_assert_cmpstr (terrain_atlas_config_get_key (c2, 0, NULL), ==, "textureSlot");
    g_assert_cmpstr (terrain_atlas_config_get_key (c2, 1, NULL), ==, "type");
    g_assert_cmpstr (terrain_atlas_config_lookup (c2, "type"), ==, "unique");
  }

  /* Renaming a Config stub changes its name bytes only. */
  {
    g_autoptr(TerrainAtlasFile) again = load (f->bytes);
    g_autoptr(GBytes) renamed = NULL;

    g_assert_true (terrain_atlas_toc_set_stub_name (toc_at (again, 2), 0, "main"));
    g_assert_false (terrain_atlas_toc_set_stub_name (toc_at (again, 2), 0,
                                                     "far too long"));
    renamed = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (again), &error);
    g_assert_no_error (error);
    allowed[0].start = f->stub_base[2] + 12;
    allowed[0].end = allowed[0].start + 8;
    assert_changes_within (f->bytes, renamed, allowed, 1);
    g_assert_cmpuint (g_bytes_get_size (renamed), ==, size);
  }
}

/* ------------------------------------------------------------------------
 * Compaction, conversion, building
 */

static void
test_compact (void)
{
  const FixtureSpec *spec = &specs[12];   /* "everything" */
  g_autoptr(Fixture) f = fixture_build (spec);
  g_autoptr(TerrainAtlasFile) file = load (f->bytes);
  g_autoptr(TerrainAtlasFile) compact = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(JsonNode) info = NULL;
  g_autoptr(GError) error = NULL;
  gsize expected = f->region_end;

  g_assert_cmpstr (spec->name, ==, "everything");
  compact = terrain_atlas_file_compact (file, &error);
  g_assert_no_error (error);

  info = terrain_document_describe (TERRAIN_DOCUMENT (compact));
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (info), "history_frames"), ==,
                   0);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (info), "gap_bytes"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (info), "chunk_frames"), ==,
                   f->n_frames);

  for (guint t = 0; t < spec->n_tocs; t++)
    for (guint s = 0; s < f->n_stubs[t]; s++)
      {
        g_autoptr(TerrainAtlasStub) stub = stub_at (compact, t, s);
        g_autoptr(GBytes) a = NULL;
        g_autoptr(GBytes) b = NULL;

        g_assert_cmpuint (terrain_atlas_stub_get_generation (stub), ==, f->generation[t][s]);
        g_assert_cmpuint (terrain_atlas_stub_get_length (stub), ==, f->length[t][s]);
        if (f->length[t][s] == 0)
          continue;
        if (!fx_stub_shared (spec, &spec->tocs[t], s))
          expected += f->length[t][s];
        else
          {
            g_autoptr(TerrainAtlasStub) prev = stub_at (compact, t, s - 1);

            g_assert_cmpuint (terrain_atlas_stub_get_offset (stub), ==,
                              terrain_atlas_stub_get_offset (prev));
          }

        /* Bodies are kept, except previousChunk, now 0. */
        a = terrain_atlas_file_get_chunk_body (file, t, s, &error);
        b = terrain_atlas_file_get_chunk_body (compact, t, s, &error);
        g_assert_no_error (error);
        if (spec->tocs[t].kind == TERRAIN_ATLAS_TOC_TEXTURE)
          terrain_test_assert_bytes_equal (a, b);
        else
          {
            g_assert_cmpuint (terrain_test_get_u32 (g_bytes_get_data (b, NULL)), ==, 0);
            g_assert_cmpmem ((const guint8 *) g_bytes_get_data (a, NULL) + 4,
                             g_bytes_get_size (a) - 4,
                             (const guint8 *) g_bytes_get_data (b, NULL) + 4,
                             g_bytes_get_size (b) - 4);
          }
      }
  g_assert_cmpuint (terrain_atlas_file_get_size (compact), ==, expected);

  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (compact), &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (written, terrain_document_get_source_bytes (TERRAIN_DOCUMENT (compact)));
}


static void
test_convert (void)
{
  static const guint32 versions[] = { 100, 110, 120, 130, 140 };
  const FixtureSpec spec = {
    "convert", F_COLLISION | F_HISTORY, 2, { GEOM (140, 3), CONFIG (140, 1, 8) }
  };
  g_autoptr(Fixture) f = fixture_build (&spec);
  g_autoptr(TerrainAtlasFile) source = load (f->bytes);

  for (guint v = 0; v < G_N_ELEMENTS (versions); v++)
    {
      g_autoptr(TerrainAtlasFile) down = NULL;
      g_autoptr(TerrainAtlasFile) up = NULL;
      g_autoptr(GPtrArray) warnings = NULL;
      g_autoptr(GPtrArray) back_warnings = NULL;
      g_autoptr(GError) error = NULL;
      guint32 version = versions[v];

      down = terrain_atlas_file_convert (source, version, &warnings, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (terrain_atlas_toc_get_version (toc_at (down, 0)), ==, version);
      g_assert_cmpint (has_issue (warnings, "normals"), ==, version < 140);
      g_assert_cmpint (has_issue (warnings, "collision"), ==, version < 120);
      g_assert_cmpint (has_issue (warnings, "bounds"), ==, version < 101);

      for (guint s = 0; s < f->n_stubs[0]; s++)
        {
          g_autoptr(TerrainAtlasGeometry) a = terrain_atlas_file_get_geometry (source, 0, s,
                                                                               &error);
          g_autoptr(TerrainAtlasGeometry) b = terrain_atlas_file_get_geometry (down, 0, s, &error);
          g_autoptr(TerrainAtlasStub) stub = stub_at (down, 0, s);
          const TerrainAtlasVertex *va = terrain_atlas_geometry_get_vertices (a, NULL);
          const TerrainAtlasVertex *vb = terrain_atlas_geometry_get_vertices (b, NULL);
          TerrainAtlasBox box;

          g_assert_no_error (error);
          g_assert_cmpuint (terrain_atlas_geometry_get_previous_chunk (b), ==, f->offset[0][s]);
          g_assert_cmpuint (terrain_atlas_stub_get_generation (stub), ==, f->generation[0][s] + 1);
          for (guint i = 0; i < terrain_atlas_geometry_get_n_vertices (a); i++)
            {
              g_assert_cmpmem (va[i].point, 40, vb[i].point, 40);
              if (version >= 140)
                g_assert_cmpmem (va[i].normal, 12, vb[i].normal, 12);
              else
                g_assert_cmpfloat (vb[i].normal[2], ==, 1.0f);
            }
          g_assert_cmpint (terrain_atlas_geometry_has_collision (b), ==,
                           version >= 120 && terrain_atlas_geometry_has_collision (a));
          if (version >= 101)
            {
              g_assert_true (terrain_atlas_stub_get_bounds (stub, &box));
              g_assert_true (terrain_atlas_box_equal (&box, &f->bounds[0][s]));
            }
        }

      /* And back up: canonical values, nothing more lost. */
      up = terrain_atlas_file_convert (down, 140, &back_warnings, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (back_warnings->len, ==, 0);
      {
        g_autoptr(TerrainAtlasGeometry) b = terrain_atlas_file_get_geometry (up, 0, 5, &error);
        const TerrainAtlasVertex *vb = terrain_atlas_geometry_get_vertices (b, NULL);
        TerrainAtlasVertex expected;

        fx_vertex (0, 5, 1, version, &expected);
        assert_vertex_equal (&vb[1], &expected);
      }
    }
}

static void
test_build (void)
{
  g_autoptr(TerrainAtlasFile) file = terrain_atlas_file_new ();
  g_autoptr(TerrainAtlasToc) geom = terrain_atlas_toc_new (TERRAIN_ATLAS_TOC_GEOMETRY, 140, 2, 5);
  g_autoptr(TerrainAtlasToc) tex = terrain_atlas_toc_new (TERRAIN_ATLAS_TOC_TEXTURE, 140, 2, 5);
  g_autoptr(TerrainAtlasToc) cfg = terrain_atlas_toc_new (TERRAIN_ATLAS_TOC_CONFIG, 140, 0, 1);
  g_autoptr(TerrainAtlasConfig) config = terrain_atlas_config_new ();
  g_autoptr(GBytes) shared = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainAtlasFile) reread = NULL;
  g_autoptr(GError) error = NULL;
  gsize expected_region = 5 + (1 + 4 + 4 + 12 + 5 * 37) + (1 + 3 + 12 + 5 * 12) +
                          (1 + 6 + 12 + 140);

  terrain_atlas_toc_set_goal_batch_size (geom, 777);
  g_assert_true (terrain_atlas_toc_set_name_width (cfg, 128));
  g_assert_true (terrain_atlas_toc_set_stub_name (cfg, 0, "config"));
  g_assert_true (terrain_atlas_file_add_toc (file, geom, &error));
  g_assert_true (terrain_atlas_file_add_toc (file, tex, &error));
  g_assert_true (terrain_atlas_file_add_toc (file, cfg, &error));
  g_assert_false (terrain_atlas_toc_set_name_width (cfg, 8));
  g_assert_cmpuint (terrain_atlas_file_get_toc_region_size (file), ==, expected_region);

  for (guint s = 0; s < 5; s++)
    {
      g_autoptr(TerrainAtlasGeometry) g = terrain_atlas_geometry_new ();
      TerrainAtlasVertex v[6];
      TerrainAtlasBox box;

      for (guint i = 0; i < fx_n_vertices (s); i++)
        fx_vertex (0, s, i, 140, &v[i]);
      terrain_atlas_geometry_set_vertices (g, v, fx_n_vertices (s));
      terrain_atlas_geometry_set_indices (g, fixture_indices, N_INDICES, SKIRT);
      terrain_atlas_geometry_compute_bounds (g, &box);
      terrain_atlas_geometry_set_bounds (g, &box);
      if (s > 0)
        g_assert_true (terrain_atlas_geometry_generate_collision (g, 4, &error));
      g_assert_true (terrain_atlas_file_set_geometry (file, 0, s, g, &error));
      g_assert_no_error (error);
    }
  g_assert_true (terrain_atlas_file_update_bounds (file, 0, &error));
  g_assert_no_error (error);

  /* Two stubs sharing one frame, as TQT tiles may. */
  {
    g_autoptr(TerrainAtlasTexture) t = terrain_atlas_texture_new (TERRAIN_ATLAS_TEXTURE_DDS,
                                                                  fx_dds_dxt1 ());

    shared = terrain_atlas_texture_encode_body (t, &error);
    for (guint s = 0; s < 5; s++)
      g_assert_true (terrain_atlas_file_set_chunk_body (file, 1, s, shared, &error));
  }
  terrain_atlas_config_set (config, "type", "unique");
  terrain_atlas_config_set (config, "textureSlot", "0");
  g_assert_true (terrain_atlas_file_set_config (file, 2, 0, config, &error));

  bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (file), &error);
  g_assert_no_error (error);
  reread = load (bytes);

  g_assert_cmpuint (terrain_atlas_file_get_toc_region_size (reread), ==, expected_region);
  g_assert_cmpuint (terrain_atlas_toc_get_goal_batch_size (toc_at (reread, 0)), ==, 777);
  g_assert_cmpuint (terrain_atlas_toc_get_name_width (toc_at (reread, 2)), ==, 128);

  {
    TerrainAtlasToc *t = terrain_atlas_file_get_toc (reread, 0);
    g_autoptr(TerrainAtlasStub) root = terrain_atlas_toc_get_stub (t, 0);
    TerrainAtlasBox root_box, own;

    terrain_atlas_stub_get_bounds (root, &root_box);
    for (guint s = 0; s < 5; s++)
      {
        g_autoptr(TerrainAtlasStub) stub = terrain_atlas_toc_get_stub (t, s);
        TerrainAtlasBox box;

        g_assert_cmpuint (terrain_atlas_stub_get_generation (stub), ==, 0);
        terrain_atlas_stub_get_bounds (stub, &box);
        g_assert_true (terrain_atlas_box_contains (&root_box, &box));
        fx_own_bounds (0, s, &own);
        g_assert_true (terrain_atlas_box_contains (&box, &own));
      }
    g_assert_cmpuint (terrain_atlas_stub_get_offset (root), ==, expected_region);
  }
  {
    TerrainAtlasToc *t = terrain_atlas_file_get_toc (reread, 1);
    g_autoptr(TerrainAtlasStub) a = terrain_atlas_toc_get_stub (t, 0);
    g_autoptr(TerrainAtlasStub) b = terrain_atlas_toc_get_stub (t, 4);

    g_assert_cmpuint (terrain_atlas_stub_get_offset (a), ==, terrain_atlas_stub_get_offset (b));
  }
  {
    g_autoptr(TerrainAtlasStub) stub = stub_at (reread, 2, 0);
    g_autofree char *name = terrain_atlas_stub_dup_name (stub);

    g_assert_cmpstr (name, ==, "config");
  }

  /* Heights: the leaves rasterised, Z scaled over the vertices' range. */
  {
    g_autoptr(TerrainImage) heights = terrain_document_export_heights (TERRAIN_DOCUMENT (reread),
                                                                      &error);
    const guint16 *px;
    guint16 lo = G_MAXUINT16, hi = 0;
    guint covered = 0;

    g_assert_no_error (error);
    g_assert_cmpint (terrain_image_get_format (heights), ==, TERRAIN_IMAGE_GRAY16);
    g_assert_cmpuint (terrain_image_get_width (heights), ==, 128);
    px = (const guint16 *) (gpointer) terrain_image_get_data (heights, NULL);
    for (guint i = 0; i < 128 * 128; i++)
      if (px[i] != 0)
        {
          covered++;
          lo = MIN (lo, px[i]);
          hi = MAX (hi, px[i]);
        }
    g_assert_cmpuint (covered, >, 100);
    g_assert_cmpuint (hi, >, lo);
  }

  /* What the document calls its picture: the deepest complete texture
   * level (here level 1 of a depth-2 tree: 2 x 2 tiles of 4 pixels). */
  {
    g_autoptr(TerrainImage) image = terrain_document_render_image (TERRAIN_DOCUMENT (reread), NULL,
                                                                   &error);

    g_assert_no_error (error);
    g_assert_cmpuint (terrain_image_get_width (image), ==, 8);
    g_assert_cmpuint (terrain_image_get_height (image), ==, 8);
  }

  /* Building and reading agree: no findings. */
  {
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (reread));

    for (guint i = 0; i < issues->len; i++)
      {
        g_autofree char *text = terrain_issue_to_string (g_ptr_array_index (issues, i));

        g_error ("unexpected finding: %s", text);
      }
  }

  /* TOCs can only be added in memory. */
  {
    g_autoptr(TerrainAtlasToc) extra = terrain_atlas_toc_new (TERRAIN_ATLAS_TOC_TEXTURE, 140, 1, 1);

    g_assert_false (terrain_atlas_file_add_toc (reread, extra, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
  }
}

/* ------------------------------------------------------------------------
 * Quadtree helpers
 */

static void
test_quadtree (void)
{
  static const guint64 counts[] = { 0, 1, 5, 21, 85, 341, 1365 };

  for (guint d = 0; d < G_N_ELEMENTS (counts); d++)
    g_assert_cmpuint (terrain_quadtree_node_count (d), ==, counts[d]);
  g_assert_cmpuint (terrain_quadtree_node_count (16), ==, 0x55555555u);

  for (guint64 id = 0; id < 1365; id++)
    {
      guint level;
      guint32 x, y;
      guint64 parent;

      g_assert_true (terrain_quadtree_node_position (id, &level, &x, &y));
      g_assert_cmpuint (terrain_quadtree_node_id (level, x, y), ==, id);
      if (id == 0)
        g_assert_false (terrain_quadtree_parent (id, &parent));
      else
        {
          gboolean found = FALSE;

          g_assert_true (terrain_quadtree_parent (id, &parent));
          for (guint k = 0; k < 4; k++)
            found |= terrain_quadtree_child (parent, k) == id;
          g_assert_true (found);
        }
    }

  /* §6: the depth-5 example and x-major order. */
  g_assert_cmpuint (terrain_quadtree_node_id (3, 0, 0), ==, 21);
  g_assert_cmpuint (terrain_quadtree_node_id (2, 1, 0), ==, 5 + 4);
  g_assert_cmpuint (terrain_quadtree_node_id (2, 0, 1), ==, 5 + 1);
  g_assert_cmpuint (terrain_quadtree_child (0, 3), ==, 4);

  {
    guint32 x, y;

    g_assert_cmpuint (terrain_quadtree_project (3, 5, 6, 1, &x, &y), ==, 1);
    g_assert_cmpuint (x, ==, 1);
    g_assert_cmpuint (y, ==, 1);
    g_assert_cmpuint (terrain_quadtree_project (1, 1, 0, 3, &x, &y), ==, 4);
    g_assert_cmpuint (x, ==, 4);
    g_assert_cmpuint (y, ==, 0);
  }

  /* §4: texture stub (N-1-xL, yL); local UV in [0,1] for texture
   * coordinates that the CHU mapping gives points inside the node. */
  for (guint level = 0; level < 4; level++)
    {
      guint32 n = 1u << level;

      for (guint32 x = 0; x < n; x++)
        for (guint32 y = 0; y < n; y++)
          {
            guint32 tx, ty, nx, ny;
            gfloat u, v;
            /* Centre of node (x, y) in a 1x1 terrain, through §9b. */
            gfloat px = (x + 0.5f) / n, py = (y + 0.5f) / n;
            gfloat tcx = py, tcy = 1.0f - px;

            g_assert_cmpuint (terrain_quadtree_texture_stub (level, x, y, level, &tx, &ty), ==, 1);
            g_assert_cmpuint (tx, ==, n - 1 - x);
            g_assert_cmpuint (ty, ==, y);
            terrain_quadtree_texture_local_uv (level, x, y, tcx, tcy, &u, &v);
            g_assert_cmpfloat_with_epsilon (u, 0.5f, 1e-5);
            g_assert_cmpfloat_with_epsilon (v, 0.5f, 1e-5);
            terrain_quadtree_texture_node_at (level, tcx, tcy, &nx, &ny);
            g_assert_cmpuint (nx, ==, tx);
            g_assert_cmpuint (ny, ==, ty);
            /* Back from the stub to the node. */
            g_assert_true (terrain_quadtree_texture_geometry_node (level, tx, ty, &nx, &ny));
            g_assert_cmpuint (nx, ==, x);
            g_assert_cmpuint (ny, ==, y);
            /* The stub's square holds the coordinate, and the place
             * inside it is the local UV. */
            {
              double ox, oy, side = terrain_quadtree_texture_tile_rect (level, tx, ty, &ox, &oy);

              g_assert_cmpfloat_with_epsilon (side, 1.0 / n, 1e-12);
              g_assert_cmpfloat_with_epsilon ((tcx - ox) / side, u, 1e-5);
              g_assert_cmpfloat_with_epsilon ((tcy - oy) / side, v, 1e-5);
              g_assert_true (tcx >= ox && tcx < ox + side);
              g_assert_true (tcy >= oy && tcy < oy + side);
            }
          }
    }

  {
    guint32 tx, ty;

    double ox = -1, oy = -1;

    /* Outside the level: no square. */
    g_assert_cmpfloat (terrain_quadtree_texture_tile_rect (2, 4, 0, &ox, &oy), ==, 0);
    g_assert_cmpfloat (ox, ==, -1);
    g_assert_cmpfloat (terrain_quadtree_texture_tile_rect (2, 0, 4, NULL, NULL), ==, 0);
    g_assert_false (terrain_quadtree_texture_geometry_node (2, 4, 0, NULL, NULL));
    /* Stub (3, 1) of level 2: texCoord.x from 1/4, texCoord.y from 3/4. */
    g_assert_cmpfloat (terrain_quadtree_texture_tile_rect (2, 3, 1, &ox, &oy), ==, 0.25);
    g_assert_cmpfloat (ox, ==, 0.25);
    g_assert_cmpfloat (oy, ==, 0.75);

    /* A level-1 geometry node seen from texture level 3 covers 4x4 stubs. */
    g_assert_cmpuint (terrain_quadtree_texture_stub (1, 0, 1, 3, &tx, &ty), ==, 4);
    g_assert_cmpuint (tx, ==, 4);
    g_assert_cmpuint (ty, ==, 4);
  }
}

/* ------------------------------------------------------------------------
 * Chunk classes
 */

static void
test_texture_codecs (void)
{
  g_autoptr(TerrainImage) picture = fx_picture (8, 8);
  g_autoptr(GError) error = NULL;

  /* PNG is exact, BGR swaps red and blue both ways. */
  {
    g_autoptr(TerrainAtlasTexture) png = NULL;
    g_autoptr(TerrainImage) same = NULL;
    g_autoptr(TerrainImage) swapped = NULL;
    guint w, h;

    png = terrain_atlas_texture_new_from_image (picture, TERRAIN_ATLAS_TEXTURE_PNG, 0,
                                                TERRAIN_ATLAS_CHANNELS_BGR, &error);
    g_assert_no_error (error);
    g_assert_true (terrain_atlas_texture_get_size (png, &w, &h, &error));
    g_assert_cmpuint (w, ==, 8);
    g_assert_cmpuint (h, ==, 8);
    same = terrain_atlas_texture_decode (png, TERRAIN_ATLAS_CHANNELS_BGR, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpmem (terrain_image_get_data (same, NULL), 256,
                     terrain_image_get_data (picture, NULL), 256);
    swapped = terrain_atlas_texture_decode (png, TERRAIN_ATLAS_CHANNELS_RGB, NULL, &error);
    g_assert_cmpuint (terrain_image_get_data (swapped, NULL)[4 * 3 + 2], ==, 3 * 30);
    g_assert_cmpuint (terrain_image_get_data (swapped, NULL)[4 * 3 + 0], ==, 200);
    g_assert_cmpstr (terrain_atlas_texture_get_extension (png), ==, "png");
  }

  /* JPEG is lossy: close enough. */
  {
    g_autoptr(TerrainAtlasTexture) jpeg = NULL;
    g_autoptr(TerrainImage) image = NULL;
    const guint8 *a, *b;

    jpeg = terrain_atlas_texture_new_from_image (picture, TERRAIN_ATLAS_TEXTURE_JPEG, 95,
                                                 TERRAIN_ATLAS_CHANNELS_RGB, &error);
    g_assert_no_error (error);
    image = terrain_atlas_texture_decode (jpeg, TERRAIN_ATLAS_CHANNELS_RGB, NULL, &error);
    g_assert_no_error (error);
    a = terrain_image_get_data (image, NULL);
    b = terrain_image_get_data (picture, NULL);
    for (guint i = 0; i < 256; i++)
      g_assert_cmpint (ABS ((gint) a[i] - (gint) b[i]), <=, 24);
  }

  /* A broken JPEG is an error, not a crash. */
  {
    static const guint8 junk[] = { 0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 'J', 'F' };
    g_autoptr(GBytes) data = g_bytes_new_static (junk, sizeof junk);
    g_autoptr(TerrainAtlasTexture) bad = terrain_atlas_texture_new (TERRAIN_ATLAS_TEXTURE_JPEG,
                                                                    data);
    g_autoptr(TerrainImage) image = NULL;

    image = terrain_atlas_texture_decode (bad, TERRAIN_ATLAS_CHANNELS_RGB, NULL, &error);

    /* The stream stops inside its first marker segment. */
    g_assert_null (image);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
    g_clear_error (&error);
  }

  /* DXT1 with the four palette entries. */
  {
    g_autoptr(TerrainAtlasTexture) dds = terrain_atlas_texture_new (TERRAIN_ATLAS_TEXTURE_DDS,
                                                                    fx_dds_dxt1 ());
    g_autoptr(TerrainImage) image = NULL;
    static const guint8 expected[4][4] = {
      { 255, 0, 0, 255 }, { 0, 0, 255, 255 }, { 170, 0, 85, 255 }, { 85, 0, 170, 255 },
    };
    const guint8 *p;

    image = terrain_atlas_texture_decode (dds, TERRAIN_ATLAS_CHANNELS_BGR, NULL, &error);
    g_assert_no_error (error);
    p = terrain_image_get_data (image, NULL);
    for (guint i = 0; i < 16; i++)
      g_assert_cmpmem (p + 4 * i, 4, expected[i % 4], 4);
  }
}

static GBytes *
make_dds (guint32       fourcc,
          guint32       pf_flags,
          guint32       bits,
          const guint32 masks[4],
          const guint8 *pixels,
          gsize         n_pixels)
{
  GByteArray *out = g_byte_array_new ();

  terrain_test_put_u32 (out, 0x20534444);
  terrain_test_put_u32 (out, 124);
  terrain_test_put_u32 (out, 0x1007);
  terrain_test_put_u32 (out, 4);
  terrain_test_put_u32 (out, 4);
  terrain_test_put_u32 (out, 0);
  terrain_test_put_u32 (out, 0);
  terrain_test_put_u32 (out, 1);
  for (guint i = 0; i < 11; i++)
    terrain_test_put_u32 (out, 0);
  terrain_test_put_u32 (out, 32);
  terrain_test_put_u32 (out, pf_flags);
  terrain_test_put_u32 (out, fourcc);
  terrain_test_put_u32 (out, bits);
  for (guint i = 0; i < 4; i++)
    terrain_test_put_u32 (out, masks != NULL ? masks[i] : 0);
  terrain_test_put_u32 (out, 0x1000);
  for (guint i = 0; i < 4; i++)
    terrain_test_put_u32 (out, 0);
  g_byte_array_append (out, pixels, (guint) n_pixels);
  return g_byte_array_free_to_bytes (out);
}

static void
test_dds (void)
{
  g_autoptr(GError) error = NULL;

  /* DXT3: explicit 4-bit alpha. */
  {
    guint8 block[16] = { 0 };
    g_autoptr(GBytes) dds = NULL;
    g_autoptr(TerrainImage) image = NULL;
    const guint8 *p;

    block[0] = 0xF0;   /* pixel 0 alpha 0, pixel 1 alpha 15 */
    block[8] = 0x00; block[9] = 0xF8;   /* c0 red */
    dds = make_dds (0x33545844, 4, 0, NULL, block, 16);
    image = terrain_dds_decode (dds, NULL, &error);
    g_assert_no_error (error);
    p = terrain_image_get_data (image, NULL);
    g_assert_cmpuint (p[3], ==, 0);
    g_assert_cmpuint (p[7], ==, 255);
    g_assert_cmpuint (p[0], ==, 255);
  }

  /* DXT5: interpolated alpha, index 1 everywhere selects a1. */
  {
    guint8 block[16] = { 10, 250, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24 };
    g_autoptr(GBytes) dds = make_dds (0x35545844, 4, 0, NULL, block, 16);
    g_autoptr(TerrainImage) image = terrain_dds_decode (dds, NULL, &error);
    const guint8 *p = terrain_image_get_data (image, NULL);

    g_assert_no_error (error);
    for (guint i = 0; i < 16; i++)
      g_assert_cmpuint (p[4 * i + 3], ==, 250);
  }

  /* Uncompressed BGRA through masks. */
  {
    guint8 pixels[64];
    static const guint32 masks[4] = { 0xFF0000, 0xFF00, 0xFF, 0xFF000000u };
    g_autoptr(GBytes) dds = NULL;
    g_autoptr(TerrainImage) image = NULL;
    const guint8 *p;

    for (guint i = 0; i < 16; i++)
      {
        pixels[4 * i] = 1;       /* B */
        pixels[4 * i + 1] = 2;   /* G */
        pixels[4 * i + 2] = 3;   /* R */
        pixels[4 * i + 3] = 4;   /* A */
      }
    dds = make_dds (0, 0x41, 32, masks, pixels, 64);
    image = terrain_dds_decode (dds, NULL, &error);
    g_assert_no_error (error);
    p = terrain_image_get_data (image, NULL);
    g_assert_cmpuint (p[0], ==, 3);
    g_assert_cmpuint (p[1], ==, 2);
    g_assert_cmpuint (p[2], ==, 1);
    g_assert_cmpuint (p[3], ==, 4);
  }

  /* Incomplete streams and bad magic are errors; unknown formats parse but
   * do not decode. */
  {
    guint8 block[8] = { 0 };
    g_autoptr(GBytes) short_dds = make_dds (0x31545844, 4, 0, NULL, block, 7);
    g_autoptr(GBytes) odd = make_dds (0x30303030, 4, 0, NULL, block, 8);
    g_autoptr(GBytes) not_dds = g_bytes_new_static ("PNG.....", 8);
    g_autoptr(TerrainImage) image = NULL;
    TerrainDdsInfo info;

    g_assert_false (terrain_dds_parse (short_dds, 500, &info, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (error->message, "byte offset 628"));
    g_clear_error (&error);
    g_assert_true (terrain_dds_parse (odd, 0, &info, &error));
    g_assert_cmpint (info.format, ==, TERRAIN_DDS_FORMAT_UNKNOWN);
    image = terrain_dds_decode (odd, NULL, &error);
    g_assert_null (image);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
    g_clear_error (&error);
    g_assert_false (terrain_dds_parse (not_dds, 0, &info, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC);
  }
}

static void
test_config_entries (void)
{
  g_autoptr(TerrainAtlasConfig) config = terrain_atlas_config_new ();
  g_autoptr(GBytes) body = NULL;
  g_autoptr(TerrainAtlasConfig) back = NULL;
  g_autoptr(GError) error = NULL;
  gsize length;

  terrain_atlas_config_set (config, "type", "blender");
  terrain_atlas_config_set (config, "opacityMapSlot", "1");
  terrain_atlas_config_set (config, "TYPE", "unique");
  g_assert_cmpuint (terrain_atlas_config_get_n_entries (config), ==, 2);
  /* Newest first; an existing key keeps its place. */
  g_assert_cmpstr (terrain_atlas_config_get_key (config, 0, &length), ==, "opacityMapSlot");
  g_assert_cmpuint (length, ==, 14);
  g_assert_cmpstr (terrain_atlas_config_get_value (config, 1, NULL), ==, "unique");
  g_assert_null (terrain_atlas_config_lookup (config, "missing"));
  g_assert_true (terrain_atlas_config_remove (config, "opacitymapslot"));
  g_assert_false (terrain_atlas_config_remove (config, "opacitymapslot"));
  terrain_atlas_config_set_previous_chunk (config, 99);

  body = terrain_atlas_config_encode_body (config, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (body), ==, 4 + 4 + 4 + 4 + 4 + 6);
  back = terrain_atlas_config_new_from_body (body, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_atlas_config_get_previous_chunk (back), ==, 99);
  g_assert_cmpstr (terrain_atlas_config_lookup (back, "type"), ==, "unique");

  /* Trailing bytes after the last entry are refused. */
  {
    g_autoptr(GByteArray) longer = g_byte_array_new ();
    g_autoptr(GBytes) bad = NULL;
    g_autoptr(TerrainAtlasConfig) none = NULL;

    g_byte_array_append (longer, g_bytes_get_data (body, NULL), (guint) g_bytes_get_size (body));
    terrain_test_put_u8 (longer, 0);
    bad = g_bytes_new (longer->data, longer->len);
    none = terrain_atlas_config_new_from_body (bad, 0, NULL, &error);
    g_assert_null (none);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  }
}

static void
test_geometry_check (void)
{
  g_autoptr(TerrainAtlasGeometry) g = terrain_atlas_geometry_new ();
  g_autoptr(GPtrArray) issues = NULL;
  static const guint16 bad_indices[] = { 0, 1, 9, 0, 1 };
  static const guint16 offsets[4] = { 0, 2, 4, 40 };
  static const guint16 buffer[6] = { 0, 0xFFFF, 7, 0xFFFF, 0, 3 };
  gfloat tree[10] = { 0 };
  TerrainAtlasVertex v[4];
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 4; i++)
    fx_vertex (0, 0, i, 140, &v[i]);
  terrain_atlas_geometry_set_vertices (g, v, 4);
  terrain_atlas_geometry_set_indices (g, bad_indices, 5, 9);
  g_assert_true (terrain_atlas_geometry_set_collision (g, 2, tree, 5, offsets, 4, buffer, 6,
                                                       &error));
  g_assert_false (terrain_atlas_geometry_set_collision (g, 2, tree, 4, offsets, 4, buffer, 6,
                                                        &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);

  issues = terrain_atlas_geometry_check (g, "test", 0, 0);
  g_assert_true (has_issue (issues, "index 2 is 9"));
  g_assert_true (has_issue (issues, "whole triangles"));
  g_assert_true (has_issue (issues, "skirt skip count 9"));
  g_assert_true (has_issue (issues, "do not contain every vertex"));
  g_assert_true (has_issue (issues, "entry 2: triangle offset 7 runs past"));
  g_assert_true (has_issue (issues, "bin 3 starts at entry 40"));
  g_assert_true (has_issue (issues, "bin 2 (from entry 4) is not ended by 0xFFFF"));
  g_assert_true (has_issue (issues, "outside the bin's range"));
}

static void
test_detect_and_load (void)
{
  g_autoptr(Fixture) f = fixture_build (&small_spec);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(GBytes) obj = NULL;
  g_autoptr(TerrainAtlasFile) file = NULL;
  g_autofree char *text = NULL;
  guint v = 0, faces = 0;
  char **lines;

  g_assert_cmpint (terrain_format_detect (f->bytes, NULL), ==, TERRAIN_FORMAT_ATLAS);
  g_assert_true (terrain_format_can_load (TERRAIN_FORMAT_ATLAS));
  document = terrain_document_load_bytes (f->bytes, "x.atlas", TERRAIN_FORMAT_UNKNOWN, NULL,
                                          &error);
  g_assert_no_error (error);
  g_assert_true (TERRAIN_IS_ATLAS_FILE (document));

  /* OBJ of level 1: four chunks, non-skirt triangles only. */
  file = load (f->bytes);
  obj = terrain_atlas_file_export_obj (file, 0, 1, FALSE, &error);
  g_assert_no_error (error);
  text = g_strndup (g_bytes_get_data (obj, NULL), g_bytes_get_size (obj));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      v += g_str_has_prefix (lines[i], "v ");
      faces += g_str_has_prefix (lines[i], "f ");
    }
  g_strfreev (lines);
  g_assert_cmpuint (v, ==, fx_n_vertices (1) + fx_n_vertices (2) + fx_n_vertices (3) +
                           fx_n_vertices (4));
  g_assert_cmpuint (faces, ==, 4 * 2);
  g_assert_nonnull (strstr (text, "g chunk_1_1_1\n"));

  g_clear_pointer (&obj, g_bytes_unref);
  obj = terrain_atlas_file_export_obj (file, 0, 2, FALSE, &error);
  g_assert_null (obj);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
}

/* ------------------------------------------------------------------------
 * The command-line tool
 */

static void
test_cli (void)
{
  g_autoptr(Fixture) f = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *tiles = NULL;
  g_autofree char *obj = NULL;
  g_autofree char *compact = NULL;
  g_autofree char *old = NULL;
  g_autofree char *obj_text = NULL;

  if (g_getenv ("TERRAIN_CLI") == NULL)
    {
      g_test_skip ("TERRAIN_CLI is not set");
      return;
    }

  f = fixture_build (&specs[12]);   /* "everything" */
  dir = g_dir_make_tmp ("terrain-atlas-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "terrain.atlas", NULL);
  tiles = g_build_filename (dir, "tiles", NULL);
  obj = g_build_filename (dir, "level1.obj", NULL);
  compact = g_build_filename (dir, "compact.atlas", NULL);
  old = g_build_filename (dir, "v110.atlas", NULL);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (f->bytes, NULL),
                                      (gssize) g_bytes_get_size (f->bytes), &error));

  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "info", path, NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "format: atlas"));
    g_assert_nonnull (strstr (r.out, "history_frames:"));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "validate", path, NULL);

    g_assert_cmpint (r.status, ==, 0);
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "roundtrip", path, NULL);

    g_assert_cmpint (r.status, ==, 0);
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "atlas", "list", path, NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "TOC 0: Geom, version 140, tree depth 3, 21 stubs, "
                                     "goal batch size 1500"));
    g_assert_nonnull (strstr (r.out, "TOC 3: Config, version 140, tree depth 0, 3 stubs, "
                                     "8-byte names"));
    g_assert_nonnull (strstr (r.out, "(empty)"));
    g_assert_nonnull (strstr (r.out, "name \"cfg2\""));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "atlas", "extract-textures", path,
                                                           tiles, NULL);
    g_autofree char *first = g_build_filename (tiles, "toc1-L0-0-0.jpg", NULL);
    g_autofree char *dds = g_build_filename (tiles, "toc2-L1-0-1.dds", NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_file_test (first, G_FILE_TEST_EXISTS));
    g_assert_true (g_file_test (dds, G_FILE_TEST_EXISTS));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "atlas", "extract-textures",
                                                           "--png", path, tiles, NULL);
    g_autofree char *png = g_build_filename (tiles, "toc2-L1-0-1.png", NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_file_test (png, G_FILE_TEST_EXISTS));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "atlas", "export-mesh", "--level",
                                                           "1", path, obj, NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_file_get_contents (obj, &obj_text, NULL, &error));
    g_assert_nonnull (strstr (obj_text, "g chunk_1_1_0\n"));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "atlas", "export-mesh", "--level",
                                                           "7", path, obj, NULL);

    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "levels 0 to 2"));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "atlas", "compact", path, compact,
                                                           NULL);
    g_auto(TerrainTestCliResult) r2 = terrain_test_run_cli (NULL, "roundtrip", compact, NULL);
    g_auto(TerrainTestCliResult) r3 = terrain_test_run_cli (NULL, "info", compact, NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpint (r2.status, ==, 0);
    g_assert_nonnull (strstr (r3.out, "history_frames: 0"));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "convert", path, old, "--version",
                                                           "110", NULL);
    g_auto(TerrainTestCliResult) r2 = terrain_test_run_cli (NULL, "atlas", "list", old, NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.err, "normals"));
    g_assert_nonnull (strstr (r.err, "collision"));
    g_assert_nonnull (strstr (r2.out, "TOC 0: Geom, version 110"));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "convert", path, old, NULL);

    g_assert_cmpint (r.status, ==, 64);
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "atlas", "frobnicate", path, NULL);

    g_assert_cmpint (r.status, ==, 64);
  }

  /* A broken file is reported with its offset, not crashed on. */
  {
    g_autoptr(GBytes) bad = mutate (f->bytes, f->stub_base[0] + 36, 0xD1, 1);
    g_auto(TerrainTestCliResult) r = { 0 };

    g_assert_true (g_file_set_contents (path, g_bytes_get_data (bad, NULL),
                                        (gssize) g_bytes_get_size (bad), &error));
    r = terrain_test_run_cli (NULL, "info", path, NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "sentinel 0xD1"));
  }

  {
    g_autoptr(GFile) top = g_file_new_for_path (dir);
    const char *names[] = { "terrain.atlas", "level1.obj", "compact.atlas", "v110.atlas" };
    g_autoptr(GDir) d = g_dir_open (tiles, 0, NULL);
    const char *name;

    while (d != NULL && (name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *p = g_build_filename (tiles, name, NULL);

        g_unlink (p);
      }
    g_rmdir (tiles);
    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *p = g_build_filename (dir, names[i], NULL);

        g_unlink (p);
      }
    g_rmdir (dir);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    {
      g_autofree char *path = g_strdup_printf ("/Terrain/Atlas/read/%s", specs[i].name);

      g_test_add_data_func (path, &specs[i], test_read);
    }
  g_test_add_data_func ("/Terrain/Atlas/read/section-8", &section8, test_read);
  g_test_add_func ("/Terrain/Atlas/section-8-layout", test_section8);
  g_test_add_func ("/Terrain/Atlas/config-width-ambiguous", test_config_width_ambiguous);
  g_test_add_func ("/Terrain/Atlas/truncation", test_truncation);
  g_test_add_func ("/Terrain/Atlas/truncation-section-8", test_truncation_section8);
  g_test_add_func ("/Terrain/Atlas/body-truncation", test_body_truncation);
  g_test_add_func ("/Terrain/Atlas/bad-sentinels", test_bad_sentinels);
  g_test_add_func ("/Terrain/Atlas/bad-body-sentinels", test_bad_body_sentinels);
  g_test_add_func ("/Terrain/Atlas/edit/geometry", test_edit_geometry);
  g_test_add_func ("/Terrain/Atlas/edit/geometry-local", test_edit_geometry_local);
  g_test_add_func ("/Terrain/Atlas/edit/texture-and-config", test_edit_texture_and_config);
  g_test_add_func ("/Terrain/Atlas/compact", test_compact);
  g_test_add_func ("/Terrain/Atlas/convert", test_convert);
  g_test_add_func ("/Terrain/Atlas/build", test_build);
  g_test_add_func ("/Terrain/Atlas/quadtree", test_quadtree);
  g_test_add_func ("/Terrain/Atlas/texture-codecs", test_texture_codecs);
  g_test_add_func ("/Terrain/Atlas/dds", test_dds);
  g_test_add_func ("/Terrain/Atlas/config-entries", test_config_entries);
  g_test_add_func ("/Terrain/Atlas/geometry-check", test_geometry_check);
  g_test_add_func ("/Terrain/Atlas/detect-and-export", test_detect_and_load);
  g_test_add_func ("/Terrain/Atlas/cli", test_cli);

  return g_test_run ();
}
