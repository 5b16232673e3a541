/* test-chu-tqt-fixture.c: .chu and .tqt files built byte by byte from
 * atlas-chu-tqt.md §9, for test-chu.c, test-tqt.c and test-chu-import.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <sys/wait.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"
#include "test-chu-tqt-fixture.h"

/* ------------------------------------------------------------------ */
/* Byte helpers                                                        */

void
put_bytes (GByteArray   *a,
           const void   *data,
           gsize         size)
{
  g_byte_array_append (a, data, (guint) size);
}

static void
put_filler (GByteArray *a,
            gsize       n)
{
  for (gsize i = 0; i < n; i++)
    terrain_test_put_u8 (a, (guint8) (0xA0 | ((a->len + i) & 0x0F)));
}

static void
set_u16 (guint8  *p,
         guint16  v)
{
  p[0] = v & 0xff;
  p[1] = v >> 8;
}

/* A deterministic permutation of 0..n-1. */
static guint *
make_order (guint  n,
            Order  order,
            guint32 seed)
{
  guint *p = g_new (guint, MAX (n, 1));
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);

  for (guint i = 0; i < n; i++)
    p[i] = order == ORDER_REVERSED ? n - 1 - i : i;
  if (order == ORDER_SHUFFLED)
    for (guint i = n; i > 1; i--)
      {
        guint j = (guint) g_rand_int_range (rand, 0, (gint32) i);
        guint t = p[i - 1];

        p[i - 1] = p[j];
        p[j] = t;
      }
  return p;
}

GBytes *
bytes_with (GBytes      *bytes,
            gsize        offset,
            const void  *data,
            gsize        size)
{
  gsize len;
  guint8 *copy = g_bytes_unref_to_data (g_bytes_ref (bytes), &len);

  g_assert_cmpuint (offset + size, <=, len);
  memcpy (copy + offset, data, size);
  return g_bytes_new_take (copy, len);
}

GBytes *
bytes_with_u32 (GBytes  *bytes,
                gsize    offset,
                guint32  value)
{
  guint8 b[4];

  terrain_test_set_u32 (b, value);
  return bytes_with (bytes, offset, b, 4);
}

GBytes *
bytes_with_u16 (GBytes  *bytes,
                gsize    offset,
                guint16  value)
{
  guint8 b[2];

  set_u16 (b, value);
  return bytes_with (bytes, offset, b, 2);
}

/* Ulrich's strip over the same grid, two rows joined by degenerates. */
const guint16 strip_indices[N_STRIP_INDICES] = { 0, 3, 1, 4, 2, 5, 5, 3, 3, 6, 4, 7, 5, 8 };

const ChuSpec chu_specs[N_CHU_SPECS] = {
  { "chu3", FALSE, 3, ORDER_SORTED, ORDER_SORTED, FALSE, 0, 0 },
  { "chu3-shuffled", FALSE, 3, ORDER_SHUFFLED, ORDER_REVERSED, FALSE, 0, 0 },
  { "chu3-collision", FALSE, 3, ORDER_SHUFFLED, ORDER_SHUFFLED, TRUE, 0, 0 },
  { "chu3-gaps", FALSE, 2, ORDER_REVERSED, ORDER_SHUFFLED, TRUE, 5, 7 },
  { "chu3-root", FALSE, 1, ORDER_SORTED, ORDER_SORTED, TRUE, 0, 3 },
  { "ulrich", TRUE, 3, ORDER_SORTED, ORDER_SORTED, FALSE, 0, 0 },
  { "ulrich-shuffled", TRUE, 3, ORDER_SORTED, ORDER_SHUFFLED, FALSE, 3, 2 },
  { "ulrich-root", TRUE, 1, ORDER_SORTED, ORDER_SORTED, FALSE, 0, 0 },
  { "ulrich-u32", TRUE, 3, ORDER_SORTED, ORDER_SORTED, FALSE, 0, 0, TRUE },
  { "ulrich-u32-gaps", TRUE, 2, ORDER_SORTED, ORDER_SHUFFLED, FALSE, 3, 2, TRUE },
};

gint16
chu_z (guint node,
       guint i)
{
  return (gint16) (node * 37 + i * 11) - 100;
}

gint16
chu_morph (guint node,
           guint i)
{
  return (gint16) (i * 3) - (gint16) node;
}

void
chu_vertex (guint   i,
            gint16 *qx,
            gint16 *qy)
{
  if (i < 9)
    {
      *qx = (gint16) (((gint) (i % 3) - 1) * 16384);
      *qy = (gint16) (((gint) (i / 3) - 1) * 16384);
    }
  else
    {
      /* A skirt vertex outside the chunk: kept as it is (§9b). */
      *qx = -20000;
      *qy = 16384;
    }
}

void
chu_z_range (guint  node,
             gint  *min,
             gint  *max)
{
  *min = G_MAXINT;
  *max = G_MININT;
  for (guint i = 0; i < CHU_VERTS; i++)
    {
      *min = MIN (*min, chu_z (node, i));
      *max = MAX (*max, chu_z (node, i));
    }
}

static GByteArray *
chu_build_chunk (const ChuSpec *spec,
                 guint          node,
                 gboolean       leaf)
{
  GByteArray *a = g_byte_array_new ();

  if (!spec->ulrich)
    terrain_test_put_u32 (a, 0xBEEF1234);
  terrain_test_put_u16 (a, CHU_VERTS);
  for (guint i = 0; i < CHU_VERTS; i++)
    {
      gint16 qx, qy;

      chu_vertex (i, &qx, &qy);
      terrain_test_put_u16 (a, (guint16) qx);
      if (spec->ulrich)
        {
          /* Ulrich: x, height, z, morph. */
          terrain_test_put_u16 (a, (guint16) chu_z (node, i));
          terrain_test_put_u16 (a, (guint16) qy);
        }
      else
        {
          terrain_test_put_u16 (a, (guint16) qy);
          terrain_test_put_u16 (a, (guint16) chu_z (node, i));
        }
      terrain_test_put_u16 (a, (guint16) chu_morph (node, i));
    }

  if (spec->ulrich)
    {
      terrain_test_put_u32 (a, G_N_ELEMENTS (strip_indices));
      for (guint i = 0; i < G_N_ELEMENTS (strip_indices); i++)
        terrain_test_put_u16 (a, strip_indices[i]);
      terrain_test_put_u32 (a, CHU_TRIANGLES);
      return a;
    }

  terrain_test_put_u32 (a, CHU_LIST_INDICES);
  for (guint cy = 0; cy < 2; cy++)
    for (guint cx = 0; cx < 2; cx++)
      {
        guint16 v0 = (guint16) (cy * 3 + cx);

        terrain_test_put_u16 (a, v0);
        terrain_test_put_u16 (a, v0 + 1);
        terrain_test_put_u16 (a, v0 + 3);
        terrain_test_put_u16 (a, v0 + 1);
        terrain_test_put_u16 (a, v0 + 4);
        terrain_test_put_u16 (a, v0 + 3);
      }
  terrain_test_put_u32 (a, CHU_TRIANGLES);

  if (spec->collision && leaf)
    {
      static const guint16 offsets[4] = { 0, 2, 3, 4 };
      static const guint16 buffer[6] = { 0, 0xFFFF, 0xFFFF, 0xFFFF, 3, 0xFFFF };

      terrain_test_put_u8 (a, 1);
      for (guint i = 0; i < 5; i++)
        {
          terrain_test_put_u16 (a, (guint16) (i * 2));
          terrain_test_put_u16 (a, (guint16) (i * 2 + 9));
        }
      terrain_test_put_u32 (a, 0xB33FD34D);
      for (guint i = 0; i < 4; i++)
        terrain_test_put_u16 (a, offsets[i]);
      terrain_test_put_u32 (a, 6);
      for (guint i = 0; i < 6; i++)
        terrain_test_put_u16 (a, buffer[i]);
    }
  else
    {
      terrain_test_put_u8 (a, 0);
    }
  terrain_test_put_u32 (a, 0xB1E2E3F4);
  return a;
}

/* Ulrich's chunk headers come in depth-first order, children in the order
 * (2x, 2z), (2x+1, 2z), (2x, 2z+1), (2x+1, 2z+1). */
static void
ulrich_preorder (guint  level,
                 guint  x,
                 guint  y,
                 guint  depth,
                 guint *nodes,
                 guint *next)
{
  nodes[(*next)++] = terrain_test_node_id (level, x, y);
  if (level + 1 < depth)
    for (guint i = 0; i < 4; i++)
      ulrich_preorder (level + 1, 2 * x + (i & 1), 2 * y + (i >> 1), depth, nodes, next);
}

void
chu_fixture_init (ChuFixture    *f,
                  const ChuSpec *spec)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autofree guint *file_nodes = NULL;   /* node of each stub, in file order */
  g_autofree guint *chunk_nodes = NULL;  /* node of each chunk, in file order */
  g_autoptr(GPtrArray) chunks =
    g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
  gsize pos;

  memset (f, 0, sizeof *f);
  f->spec = spec;
  f->n = terrain_test_node_count (spec->depth);
  f->header_size = spec->ulrich && !spec->wide ? 24 : 28;
  f->stub_size = spec->ulrich && !spec->wide ? 33 : 37;
  f->stub_of_node = g_new (guint, f->n);
  f->label_of_node = g_new (gint32, f->n);
  f->chunk_offset = g_new (gsize, f->n);
  f->chunk_size = g_new (gsize, f->n);

  file_nodes = g_new (guint, f->n);
  if (spec->ulrich)
    {
      guint next = 0;

      ulrich_preorder (0, 0, 0, spec->depth, file_nodes, &next);
      g_assert_cmpuint (next, ==, f->n);
    }
  else
    {
      /* The order is over labels: ORDER_SORTED writes stubs by label. */
      g_autofree guint *order = make_order (f->n, spec->stub_order, 7);

      for (guint k = 0; k < f->n; k++)
        {
          guint level, row, column;

          terrain_test_node_position (order[k], &level, &row, &column);
          file_nodes[k] = terrain_test_node_id (level, column, row);
        }
    }

  for (guint k = 0; k < f->n; k++)
    {
      guint node = file_nodes[k], level, x, y;

      terrain_test_node_position (node, &level, &x, &y);
      f->stub_of_node[node] = k;
      /* CHU3: Atlas node (level, x, y) has label nodeID(level, y, x) (§9b).
       * Ulrich's labels follow no scheme: number them backwards. */
      f->label_of_node[node] = spec->ulrich ? (gint32) (f->n - 1 - k)
                                            : (gint32) terrain_test_node_id (level, y, x);
    }

  for (guint node = 0; node < f->n; node++)
    {
      guint level, x, y;

      terrain_test_node_position (node, &level, &x, &y);
      g_ptr_array_add (chunks, chu_build_chunk (spec, node, level + 1 == spec->depth));
    }

  chunk_nodes = make_order (f->n, spec->chunk_order, 11);
  pos = f->header_size + f->n * f->stub_size;
  for (guint i = 0; i < f->n; i++)
    {
      guint node = chunk_nodes[i];
      GByteArray *chunk = chunks->pdata[node];

      pos += spec->gap;
      f->chunk_offset[node] = pos;
      f->chunk_size[node] = chunk->len;
      pos += chunk->len;
    }
  f->data_end = pos;

  if (spec->ulrich)
    {
      put_bytes (a, "CHU\0", 4);
      if (spec->wide)
        {
          terrain_test_put_u32 (a, 9);
          terrain_test_put_u32 (a, spec->depth);
        }
      else
        {
          terrain_test_put_u16 (a, 9);
          terrain_test_put_u16 (a, (guint16) spec->depth);
        }
      terrain_test_put_f32 (a, 2.5f);
      terrain_test_put_f32 (a, CHU_VSCALE);
      terrain_test_put_f32 (a, CHU_LEAF);
      terrain_test_put_u32 (a, f->n);
    }
  else
    {
      put_bytes (a, "CHU3", 4);
      terrain_test_put_u16 (a, 400);
      terrain_test_put_u16 (a, (guint16) spec->depth);
      terrain_test_put_f32 (a, 2.5f);
      terrain_test_put_f32 (a, CHU_VSCALE);
      terrain_test_put_f32 (a, CHU_LEAF);
      terrain_test_put_u32 (a, f->n);
      terrain_test_put_u32 (a, spec->collision ? CHU_COL_DEPTH : 4);
    }

  for (guint k = 0; k < f->n; k++)
    {
      guint node = file_nodes[k], level, x, y;
      gint min, max;
      gint32 label = f->label_of_node[node];

      terrain_test_node_position (node, &level, &x, &y);
      chu_z_range (node, &min, &max);
      if (!spec->ulrich)
        terrain_test_put_u32 (a, 0xDEADBEEF);
      terrain_test_put_u32 (a, (guint32) label);
      terrain_test_put_u32 (a, (guint32) ((guint32) label + 1 < f->n ? label + 1 : -1));
      terrain_test_put_u32 (a, (guint32) -1);
      terrain_test_put_u32 (a, (guint32) (label > 0 ? label - 1 : -1));
      terrain_test_put_u32 (a, (guint32) -1);
      terrain_test_put_u8 (a, (guint8) level);
      if (spec->wide)
        {
          terrain_test_put_u32 (a, x);
          terrain_test_put_u32 (a, y);
        }
      else
        {
          terrain_test_put_u16 (a, (guint16) x);
          terrain_test_put_u16 (a, (guint16) y);
        }
      terrain_test_put_u16 (a, (guint16) (min - 5));
      terrain_test_put_u16 (a, (guint16) (max + 5));
      terrain_test_put_u32 (a, (guint32) f->chunk_offset[node]);
    }

  for (guint i = 0; i < f->n; i++)
    {
      GByteArray *chunk = chunks->pdata[chunk_nodes[i]];

      put_filler (a, spec->gap);
      g_assert_cmpuint (a->len, ==, f->chunk_offset[chunk_nodes[i]]);
      put_bytes (a, chunk->data, chunk->len);
    }
  put_filler (a, spec->trailing);

  f->bytes = g_byte_array_free_to_bytes (g_steal_pointer (&a));
}

void
chu_fixture_clear (ChuFixture *f)
{
  g_clear_pointer (&f->bytes, g_bytes_unref);
  g_clear_pointer (&f->stub_of_node, g_free);
  g_clear_pointer (&f->label_of_node, g_free);
  g_clear_pointer (&f->chunk_offset, g_free);
  g_clear_pointer (&f->chunk_size, g_free);
}

gsize
chu_stub_offset (const ChuFixture *f,
                 guint             node)
{
  return f->header_size + f->stub_of_node[node] * f->stub_size;
}

TerrainChuFile *
chu_load (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  TerrainChuFile *chu = terrain_chu_file_new_from_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (chu);
  return chu;
}

void
chu_assert_error (GBytes       *bytes,
                  TerrainError  code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainChuFile) chu = terrain_chu_file_new_from_bytes (bytes, NULL, &error);

  g_assert_null (chu);
  g_assert_error (error, TERRAIN_ERROR, (gint) code);
  g_assert_nonnull (strstr (error->message, "CHU"));
}

guint
count_issues_containing (GPtrArray  *issues,
                         const char *text)
{
  guint n = 0;

  for (guint i = 0; i < issues->len; i++)
    if (strstr (terrain_issue_get_message (issues->pdata[i]), text) != NULL)
      n++;
  return n;
}

const TqtSpec tqt_specs[N_TQT_SPECS] = {
  { "dds", TILE_DXT1, 2, 3, ORDER_SORTED, FALSE, 0, 0 },
  { "dds-shuffled", TILE_DXT1, 2, 3, ORDER_SHUFFLED, TRUE, 0, 0 },
  { "dds-gaps", TILE_DXT1, 2, 2, ORDER_REVERSED, FALSE, 6, 9 },
  { "dds-rgba", TILE_RGBA, 2, 2, ORDER_SORTED, TRUE, 1, 0 },
  { "jpeg", TILE_JPEG, 1, 3, ORDER_SORTED, FALSE, 0, 0 },
  { "jpeg-shuffled", TILE_JPEG, 1, 3, ORDER_SHUFFLED, TRUE, 2, 5 },
  { "empty", TILE_DXT1, 2, 0, ORDER_SORTED, FALSE, 0, 0 },
};

static GByteArray *
dds_header (guint32 width,
            guint32 height,
            guint32 mips,
            gboolean rgba)
{
  GByteArray *a = g_byte_array_new ();

  put_bytes (a, "DDS ", 4);
  terrain_test_put_u32 (a, 124);
  terrain_test_put_u32 (a, 0x1007 | (mips > 1 ? 0x20000 : 0));
  terrain_test_put_u32 (a, height);
  terrain_test_put_u32 (a, width);
  terrain_test_put_u32 (a, rgba ? width * 4 : MAX (1, width / 4) * MAX (1, height / 4) * 8);
  terrain_test_put_u32 (a, 0);
  terrain_test_put_u32 (a, mips);
  for (guint i = 0; i < 11; i++)
    terrain_test_put_u32 (a, 0);
  terrain_test_put_u32 (a, 32);
  if (rgba)
    {
      terrain_test_put_u32 (a, 0x41);   /* RGB | ALPHAPIXELS */
                            terrain_test_put_u32 (a, 0);
      terrain_test_put_u32 (a, 32);
      terrain_test_put_u32 (a, 0x00FF0000);
      terrain_test_put_u32 (a, 0x0000FF00);
      terrain_test_put_u32 (a, 0x000000FF);
      terrain_test_put_u32 (a, 0xFF000000);
    }
  else
    {
      terrain_test_put_u32 (a, 0x4);    /* FOURCC */
                            put_bytes (a, "DXT1", 4);
      for (guint i = 0; i < 5; i++)
        terrain_test_put_u32 (a, 0);
    }
  terrain_test_put_u32 (a, 0x401008);
  for (guint i = 0; i < 4; i++)
    terrain_test_put_u32 (a, 0);
  g_assert_cmpuint (a->len, ==, 128);
  return a;
}

/* The encoded image of logical node @node. */
static GBytes *
tqt_image (TileKind kind,
           guint    node)
{
  GByteArray *a;

  if (kind == TILE_JPEG)
    {
      static const guint8 app0[] = { 0xFF, 0xE0, 0x00, 0x10, 'J', 'F', 'I', 'F', 0, 1, 1, 0,
                                     0, 1, 0, 1, 0, 0 };
      static const guint8 sof[] = { 0xFF, 0xC0, 0x00, 0x0B, 8, 0, TQT_TILE, 0, TQT_TILE, 1,
                                    1, 0x11, 0 };
      static const guint8 sos[] = { 0xFF, 0xDA, 0x00, 0x08, 1, 1, 0x00, 0, 63, 0 };

      a = g_byte_array_new ();
      put_bytes (a, "\xFF\xD8", 2);
      put_bytes (a, app0, sizeof app0);
      put_bytes (a, sof, sizeof sof);
      put_bytes (a, sos, sizeof sos);
      /* Entropy-coded data with a stuffed 0xFF, a restart marker and fill. */
      terrain_test_put_u8 (a, (guint8) node);
      put_bytes (a, "\xFF\x00\x12\xFF\xD0\x34", 6);
      for (guint i = 0; i < node % 5; i++)
        terrain_test_put_u8 (a, (guint8) (0x40 + i));
      put_bytes (a, "\xFF\xFF\xD9", 3);
      return g_byte_array_free_to_bytes (a);
    }

  if (kind == TILE_RGBA)
    {
      a = dds_header (4, 2, 1, TRUE);
      for (guint i = 0; i < 4 * 2 * 4; i++)
        terrain_test_put_u8 (a, (guint8) (node * 3 + i));
      return g_byte_array_free_to_bytes (a);
    }

  /* DXT1 8x8 with 4 mip levels: 4 + 1 + 1 + 1 blocks of 8 bytes. */
  a = dds_header (TQT_TILE, TQT_TILE, 4, FALSE);
  for (guint i = 0; i < 7 * 8; i++)
    terrain_test_put_u8 (a, (guint8) (node * 7 + i));
  return g_byte_array_free_to_bytes (a);
}

void
tqt_fixture_init (TqtFixture    *f,
                  const TqtSpec *spec)
{
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autofree guint *order = NULL;
  gsize pos;
  guint sharer = 0, owner = 0;

  memset (f, 0, sizeof *f);
  f->spec = spec;
  f->n = terrain_test_node_count (spec->depth);
  f->tile_offset = g_new0 (gsize, MAX (f->n, 1));
  f->tile_span = g_new0 (gsize, MAX (f->n, 1));
  f->image = g_new0 (GBytes *, MAX (f->n, 1));

  if (spec->shared)
    {
      guint level = spec->depth - 1;

      owner = terrain_test_node_id (level, 0, 1);
      sharer = terrain_test_node_id (level, 1, 0);
    }

  for (guint node = 0; node < f->n; node++)
    f->image[node] = tqt_image (spec->kind, spec->shared && node == sharer ? owner : node);

  order = make_order (f->n, spec->order, 5);
  pos = 16 + 4 * f->n;
  for (guint i = 0; i < f->n; i++)
    {
      guint node = order[i];

      if (spec->shared && node == sharer)
        continue;
      pos += spec->gap;
      f->tile_offset[node] = pos;
      f->tile_span[node] = g_bytes_get_size (f->image[node]) + (spec->kind == TILE_JPEG ? 0 : 4);
      pos += f->tile_span[node];
    }
  if (spec->shared)
    {
      f->tile_offset[sharer] = f->tile_offset[owner];
      f->tile_span[sharer] = f->tile_span[owner];
    }
  f->data_end = pos;

  put_bytes (a, "tqt\0", 4);
  terrain_test_put_u32 (a, spec->version);
  terrain_test_put_u32 (a, spec->depth);
  terrain_test_put_u32 (a, spec->kind == TILE_RGBA ? 4 : TQT_TILE);
  /* Table entry nodeID(level, y, x) holds logical node (level, x, y). */
  for (guint entry = 0; entry < f->n; entry++)
    {
      guint level, y, x;

      terrain_test_node_position (entry, &level, &y, &x);
      terrain_test_put_u32 (a, (guint32) f->tile_offset[terrain_test_node_id (level, x, y)]);
    }
  for (guint i = 0; i < f->n; i++)
    {
      guint node = order[i];
      gsize size;
      const guint8 *image = g_bytes_get_data (f->image[node], &size);

      if (spec->shared && node == sharer)
        continue;
      put_filler (a, spec->gap);
      g_assert_cmpuint (a->len, ==, f->tile_offset[node]);
      if (spec->kind != TILE_JPEG)
        terrain_test_put_u32 (a, (guint32) size);
      put_bytes (a, image, size);
    }
  put_filler (a, spec->trailing);

  f->bytes = g_byte_array_free_to_bytes (g_steal_pointer (&a));
}

void
tqt_fixture_clear (TqtFixture *f)
{
  for (guint i = 0; i < f->n; i++)
    g_clear_pointer (&f->image[i], g_bytes_unref);
  g_clear_pointer (&f->image, g_free);
  g_clear_pointer (&f->bytes, g_bytes_unref);
  g_clear_pointer (&f->tile_offset, g_free);
  g_clear_pointer (&f->tile_span, g_free);
}

TerrainTqtFile *
tqt_load (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  TerrainTqtFile *tqt = terrain_tqt_file_new_from_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (tqt);
  return tqt;
}

void
tqt_assert_error (GBytes       *bytes,
                  TerrainError  code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTqtFile) tqt = terrain_tqt_file_new_from_bytes (bytes, NULL, &error);

  g_assert_null (tqt);
  g_assert_error (error, TERRAIN_ERROR, (gint) code);
  g_assert_nonnull (strstr (error->message, "TQT"));
}

gsize
tqt_entry_offset (guint level,
                  guint x,
                  guint y)
{
  return 16 + 4 * (gsize) terrain_test_node_id (level, y, x);
}

const guint8 *
rgba_at (TerrainImage *image,
         guint         x,
         guint         y)
{
  return terrain_image_get_data (image, NULL) + y * terrain_image_get_stride (image) + 4 * x;
}
