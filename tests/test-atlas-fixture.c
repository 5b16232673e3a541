/* test-atlas-fixture.c: Torque Atlas files built by the tests' own serialiser,
 * for test-atlas.c, test-atlas-rewrite.c and test-atlas-chunks.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * From atlas-chu-tqt.md (§0-§8) and the TGEA conventions of field-notes.md:
 * every geometry version branch (<101, 101-119, 120-129, 130-139, >=140),
 * the exact TOC prefix of §8, shuffled chunk order, history frames, gaps,
 * shared frames, empty stubs, both Config name widths, collision present
 * and absent.
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
#include "test-atlas-fixture.h"

const FixtureSpec specs[N_SPECS] = {
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

const char *
tag_of (TerrainAtlasTocKind kind)
{
  return kind == TERRAIN_ATLAS_TOC_GEOMETRY ? "Geom" : kind == TERRAIN_ATLAS_TOC_TEXTURE ? "Tex"
                                                                                         : "Config";
}

const guint16 fixture_indices[N_INDICES] = { 0, 1, 2, 0, 2, 3, 1, 3, 2 };

guint
fx_n_vertices (guint stub)
{
  return 4 + stub % 3;
}

void
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

void
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

gboolean
fx_is_leaf (const TocSpec *toc,
            guint          stub)
{
  guint level;

  return terrain_quadtree_node_position (stub, &level, NULL, NULL) && level + 1 == toc->depth;
}

/* Collision of depth 2 (2x2 bins): bin 0 holds triangle 0, bin 1 triangle
 * 3, bin 2 both, bin 3 none. */
const guint16 fx_col_offsets[4] = { 0, 2, 4, 7 };
const guint16 fx_col_indices[8] = { 0, 0xFFFF, 3, 0xFFFF, 0, 3, 0xFFFF, 0xFFFF };

void
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

GByteArray *
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
GBytes *
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

TerrainImage *
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

GBytes *
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

const char * const fx_config[N_FX_CONFIG][2] = {
  { "type", "blender" },
  { "opacityMapSlot", "1" },
  { "shadowMapSlot", "2" },
  { "virtualTexSize", "32768" },
  { "sourceImageCount", "1" },
  { "sourceImage0", "grass.png" },
};

GByteArray *
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

char *
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

gboolean
fx_stub_shared (const FixtureSpec *spec,
                const TocSpec     *toc,
                guint              stub)
{
  return (spec->flags & F_SHARED) && toc->kind == TERRAIN_ATLAS_TOC_TEXTURE && stub % 5 == 4 &&
         !fx_stub_empty (spec, toc, stub) && !fx_stub_empty (spec, toc, stub - 1);
}

gsize
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

Fixture *
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

void
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

TerrainAtlasFile *
load (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  TerrainAtlasFile *file = terrain_atlas_file_new_from_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (file);
  return file;
}

TerrainAtlasToc *
toc_at (TerrainAtlasFile *file,
        guint             toc)
{
  return terrain_atlas_file_get_toc (file, toc);
}

TerrainAtlasStub *
stub_at (TerrainAtlasFile *file,
         guint             toc,
         guint             stub)
{
  return terrain_atlas_toc_get_stub (toc_at (file, toc), stub);
}

void
assert_vertex_equal (const TerrainAtlasVertex *a,
                     const TerrainAtlasVertex *b)
{
  g_assert_cmpmem (a, sizeof *a, b, sizeof *b);
}

GBytes *
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

const FixtureSpec small_spec = {
  "small", F_COLLISION | F_SHUFFLE, 3, { GEOM (140, 2), TEX (140, 2), CONFIG (140, 1, 8) }
};

gboolean
has_issue (GPtrArray  *issues,
           const char *needle)
{
  for (guint i = 0; i < issues->len; i++)
    if (strstr (terrain_issue_get_message (g_ptr_array_index (issues, i)), needle) != NULL)
      return TRUE;
  return FALSE;
}
