/* test-chu-tqt.c: chunked-LOD geometry (.chu) and texture quadtrees (.tqt)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * No public .chu or .tqt file could be obtained, so every test builds its
 * files here from atlas-chu-tqt.md §9 (TGEA's CHU3 v400 and DDS TQT) and
 * field-notes.md with Ulrich's chunklod sources (CHU\0 v9 with triangle
 * strips, TQT v1 with bare JPEG tiles): sorted, shuffled and reversed stub
 * and chunk orders, collision blocks, gaps, trailing bytes and shared tiles.
 */

#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <sys/wait.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"

/* ------------------------------------------------------------------ */
/* Byte helpers                                                        */

static void
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

typedef enum
{
  ORDER_SORTED,
  ORDER_SHUFFLED,
  ORDER_REVERSED,
} Order;

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

static GBytes *
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

static GBytes *
bytes_with_u32 (GBytes  *bytes,
                gsize    offset,
                guint32  value)
{
  guint8 b[4];

  terrain_test_set_u32 (b, value);
  return bytes_with (bytes, offset, b, 4);
}

static GBytes *
bytes_with_u16 (GBytes  *bytes,
                gsize    offset,
                guint16  value)
{
  guint8 b[2];

  set_u16 (b, value);
  return bytes_with (bytes, offset, b, 2);
}

/* ------------------------------------------------------------------ */
/* CHU fixtures                                                        */

#define CHU_VERTS        10    /* 3x3 grid plus one skirt vertex */
#define CHU_LIST_INDICES 24    /* 8 triangles */
#define CHU_TRIANGLES    8
#define CHU_LEAF         64.0f
#define CHU_VSCALE       0.25f
#define CHU_COL_DEPTH    2

/* Ulrich's strip over the same grid, two rows joined by degenerates. */
static const guint16 strip_indices[] = { 0, 3, 1, 4, 2, 5, 5, 3, 3, 6, 4, 7, 5, 8 };

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

static const ChuSpec chu_specs[] = {
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

static gint16
chu_z (guint node,
       guint i)
{
  return (gint16) (node * 37 + i * 11) - 100;
}

static gint16
chu_morph (guint node,
           guint i)
{
  return (gint16) (i * 3) - (gint16) node;
}

static void
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

static void
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

static void
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

static void
chu_fixture_clear (ChuFixture *f)
{
  g_clear_pointer (&f->bytes, g_bytes_unref);
  g_clear_pointer (&f->stub_of_node, g_free);
  g_clear_pointer (&f->label_of_node, g_free);
  g_clear_pointer (&f->chunk_offset, g_free);
  g_clear_pointer (&f->chunk_size, g_free);
}

static gsize
chu_stub_offset (const ChuFixture *f,
                 guint             node)
{
  return f->header_size + f->stub_of_node[node] * f->stub_size;
}

static TerrainChuFile *
chu_load (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  TerrainChuFile *chu = terrain_chu_file_new_from_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (chu);
  return chu;
}

static void
chu_assert_error (GBytes       *bytes,
                  TerrainError  code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainChuFile) chu = terrain_chu_file_new_from_bytes (bytes, NULL, &error);

  g_assert_null (chu);
  g_assert_error (error, TERRAIN_ERROR, (gint) code);
  g_assert_nonnull (strstr (error->message, "CHU"));
}

/* ------------------------------------------------------------------ */
/* CHU tests                                                           */

static void
test_chu_read (gconstpointer data)
{
  const ChuSpec *spec = data;
  ChuFixture f;
  g_autoptr(TerrainChuFile) chu = NULL;

  chu_fixture_init (&f, spec);
  chu = chu_load (f.bytes);

  g_assert_cmpint (terrain_chu_file_get_variant (chu), ==,
                   spec->ulrich ? TERRAIN_CHU_VARIANT_ULRICH : TERRAIN_CHU_VARIANT_CHU3);
  g_assert_cmpuint (terrain_chu_file_get_version (chu), ==, spec->ulrich ? 9 : 400);
  /* The layout the header words show, never a guess. */
  g_assert_cmpint (terrain_chu_file_get_words (chu), ==,
                   spec->wide ? TERRAIN_CHU_WORDS_U32 : TERRAIN_CHU_WORDS_U16);
  g_assert_cmpuint (terrain_chu_file_get_tree_depth (chu), ==, spec->depth);
  g_assert_cmpuint (terrain_chu_file_get_n_stubs (chu), ==, f.n);
  g_assert_cmpfloat (terrain_chu_file_get_base_max_error (chu), ==, 2.5f);
  g_assert_cmpfloat (terrain_chu_file_get_vertical_scale (chu), ==, CHU_VSCALE);
  g_assert_cmpfloat (terrain_chu_file_get_leaf_dimensions (chu), ==, CHU_LEAF);
  g_assert_cmpfloat (terrain_chu_file_get_terrain_size (chu), ==,
                     CHU_LEAF * (1 << (spec->depth - 1)));
  g_assert_cmpuint (terrain_chu_file_get_col_tree_depth (chu), ==,
                    spec->ulrich ? 0 : spec->collision ? CHU_COL_DEPTH : 4);
  g_assert_true (terrain_document_get_format (TERRAIN_DOCUMENT (chu)) == TERRAIN_FORMAT_CHU);

  for (guint node = 0; node < f.n; node++)
    {
      guint level, x, y;
      gint k = terrain_chu_file_lookup_node (chu, 0, 0, 0);
      const TerrainChuStub *stub;
      g_autoptr(TerrainChuChunk) chunk = NULL;
      g_autoptr(GError) error = NULL;
      gint min, max;

      terrain_test_node_position (node, &level, &x, &y);
      k = terrain_chu_file_lookup_node (chu, level, x, y);
      g_assert_cmpint (k, ==, (gint) f.stub_of_node[node]);
      g_assert_cmpint (terrain_chu_file_lookup_label (chu, f.label_of_node[node]), ==, k);

      stub = terrain_chu_file_get_stub (chu, (guint) k);
      g_assert_cmpint (stub->label, ==, f.label_of_node[node]);
      g_assert_cmpuint (stub->level, ==, level);
      g_assert_cmpint (stub->x, ==, (gint) x);
      g_assert_cmpint (stub->y, ==, (gint) y);
      chu_z_range (node, &min, &max);
      g_assert_cmpint (stub->min_z, ==, min - 5);
      g_assert_cmpint (stub->max_z, ==, max + 5);
      g_assert_cmpint (stub->neighbors[1], ==, -1);
      g_assert_cmpuint (stub->chunk_offset, ==, f.chunk_offset[node]);
      g_assert_cmpuint (stub->chunk_size, ==, f.chunk_size[node]);
      g_assert_cmpuint (stub->record_offset, ==, chu_stub_offset (&f, node));

      chunk = terrain_chu_file_get_chunk (chu, (guint) k, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (chunk->offset, ==, f.chunk_offset[node]);
      g_assert_cmpuint (chunk->size, ==, f.chunk_size[node]);
      g_assert_cmpuint (chunk->n_vertices, ==, CHU_VERTS);
      for (guint i = 0; i < CHU_VERTS; i++)
        {
          gint16 qx, qy;

          chu_vertex (i, &qx, &qy);
          g_assert_cmpint (chunk->vertices[i].x, ==, qx);
          g_assert_cmpint (chunk->vertices[i].y, ==, qy);
          g_assert_cmpint (chunk->vertices[i].z, ==, chu_z (node, i));
          g_assert_cmpint (chunk->vertices[i].morph, ==, chu_morph (node, i));
        }
      g_assert_cmpuint (chunk->tri_count, ==, CHU_TRIANGLES);
      g_assert_cmpuint (terrain_chu_chunk_count_triangles (chunk), ==, CHU_TRIANGLES);
      if (spec->ulrich)
        {
          g_assert_true (chunk->strip);
          g_assert_cmpmem (chunk->indices, chunk->n_indices * 2,
                           strip_indices, sizeof strip_indices);
        }
      else
        {
          g_assert_false (chunk->strip);
          g_assert_cmpuint (chunk->n_indices, ==, CHU_LIST_INDICES);
          g_assert_cmpuint (chunk->indices[4], ==, 4);
        }

      if (spec->collision && level + 1 == spec->depth)
        {
          g_autoptr(TerrainChuChunk) copy = terrain_chu_chunk_copy (chunk);

          g_assert_true (chunk->has_collision);
          g_assert_cmpuint (chunk->n_col_nodes, ==, 5);
          g_assert_cmpint (chunk->col_nodes[4].min, ==, 8);
          g_assert_cmpint (chunk->col_nodes[4].max, ==, 17);
          g_assert_cmpuint (chunk->n_col_offsets, ==, 4);
          g_assert_cmpuint (chunk->col_offsets[3], ==, 4);
          g_assert_cmpuint (chunk->n_col_indices, ==, 6);
          g_assert_cmpuint (chunk->col_indices[4], ==, 3);
          g_assert_cmpuint (copy->col_indices[5], ==, 0xFFFF);
          g_assert_true (copy->col_nodes != chunk->col_nodes);
        }
      else
        {
          g_assert_false (chunk->has_collision);
          g_assert_null (chunk->col_nodes);
        }
    }

  g_assert_cmpint (terrain_chu_file_lookup_node (chu, spec->depth, 0, 0), ==, -1);
  g_assert_cmpint (terrain_chu_file_lookup_node (chu, 0, 1, 0), ==, -1);
  g_assert_cmpint (terrain_chu_file_lookup_label (chu, -1), ==, -1);
  g_assert_cmpint (terrain_chu_file_lookup_label (chu, (gint32) f.n), ==, -1);

  chu_fixture_clear (&f);
}

static void
test_chu_roundtrip (gconstpointer data)
{
  ChuFixture f;
  g_autoptr(TerrainChuFile) chu = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GError) error = NULL;
  gsize first = 0;
  g_autofree char *section = NULL;

  chu_fixture_init (&f, data);
  chu = chu_load (f.bytes);
  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (chu), &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (f.bytes, written);
  g_assert_true (terrain_document_compare_bytes (TERRAIN_DOCUMENT (chu), written, &first,
                                                 &section));
  chu_fixture_clear (&f);
}

/* Every cut of the file before the end of its last chunk fails cleanly as
 * truncated (or as an offset beyond the end); cuts in the trailing bytes
 * load. */
static void
test_chu_truncation (gconstpointer data)
{
  ChuFixture f;
  gsize size;
  const guint8 *all;

  chu_fixture_init (&f, data);
  all = g_bytes_get_data (f.bytes, &size);

  for (gsize cut = 0; cut < size; cut++)
    {
      g_autoptr(GBytes) part = g_bytes_new (all, cut);
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainChuFile) chu = terrain_chu_file_new_from_bytes (part, NULL, &error);

      if (cut >= f.data_end)
        {
          g_assert_no_error (error);
          g_assert_nonnull (chu);
          continue;
        }
      g_assert_null (chu);
      g_assert_nonnull (error);
      if (!g_error_matches (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED) &&
          !g_error_matches (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE))
        g_error ("cut at %" G_GSIZE_FORMAT ": unexpected error %s", cut, error->message);
      g_assert_nonnull (strstr (error->message, "byte offset"));
    }
  chu_fixture_clear (&f);
}

static void
test_chu_sentinels (void)
{
  ChuFixture f;
  guint node = 4;   /* a level-1 node; level 2 leaves carry collision */
  guint leaf = terrain_test_node_count (2) + 3;
  gsize chunk, footer;
  g_autoptr(GBytes) bad_magic = NULL, bad_stub = NULL, bad_chunk = NULL, bad_footer = NULL;
  g_autoptr(GBytes) bad_mark = NULL, bad_leaf_footer = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainChuFile) chu = NULL;

  chu_fixture_init (&f, &chu_specs[2]);   /* chu3-collision */
  chunk = f.chunk_offset[node];
  footer = chunk + f.chunk_size[node] - 4;

  bad_magic = bytes_with (f.bytes, 0, "CHU4", 4);
  chu = terrain_chu_file_new_from_bytes (bad_magic, NULL, &error);
  g_assert_null (chu);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC);
  g_clear_error (&error);

  bad_stub = bytes_with_u32 (f.bytes, chu_stub_offset (&f, node), 0xDEADBEEE);
  chu_assert_error (bad_stub, TERRAIN_ERROR_BAD_MAGIC);

  bad_chunk = bytes_with_u32 (f.bytes, chunk, 0xBEEF1235);
  chu_assert_error (bad_chunk, TERRAIN_ERROR_BAD_MAGIC);

  bad_footer = bytes_with_u32 (f.bytes, footer, 0xB1E2E3F5);
  chu_assert_error (bad_footer, TERRAIN_ERROR_BAD_MAGIC);

  /* The collision mark follows the flag and the five collision-tree nodes. */
  {
    gsize flag = f.chunk_offset[leaf] + 4 + 2 + CHU_VERTS * 8 + 4 + CHU_LIST_INDICES * 2 + 4;
    gsize mark = flag + 1 + 5 * 4;
    const guint8 *all = g_bytes_get_data (f.bytes, NULL);

    g_assert_cmpuint (all[flag], ==, 1);
    g_assert_cmpuint (terrain_test_get_u32 (all + mark), ==, 0xB33FD34D);
    bad_mark = bytes_with_u32 (f.bytes, mark, 0xB33FD34E);
    chu_assert_error (bad_mark, TERRAIN_ERROR_BAD_MAGIC);

    bad_leaf_footer = bytes_with_u32 (f.bytes, f.chunk_offset[leaf] + f.chunk_size[leaf] - 4, 0);
    chu_assert_error (bad_leaf_footer, TERRAIN_ERROR_BAD_MAGIC);
  }

  chu_fixture_clear (&f);
}

static void
test_chu_invalid (void)
{
  ChuFixture f, u;
  guint node = 2, leaf = terrain_test_node_count (2);
  gsize chunk, flag, leaf_flag;
  const guint8 *all;

  chu_fixture_init (&f, &chu_specs[2]);   /* chu3-collision, depth 3 */
  chu_fixture_init (&u, &chu_specs[5]);   /* ulrich, depth 3 */
  all = g_bytes_get_data (f.bytes, NULL);
  chunk = f.chunk_offset[node];
  flag = chunk + 4 + 2 + CHU_VERTS * 8 + 4 + CHU_LIST_INDICES * 2 + 4;
  leaf_flag = f.chunk_offset[leaf] + (flag - chunk);
  g_assert_cmpuint (all[flag], ==, 0);
  g_assert_cmpuint (all[leaf_flag], ==, 1);

  {
    g_autoptr(GBytes) b = bytes_with_u16 (f.bytes, 4, 401);
    chu_assert_error (b, TERRAIN_ERROR_UNSUPPORTED_VERSION);
  }
  {
    g_autoptr(GBytes) b = bytes_with_u16 (u.bytes, 4, 8);
    chu_assert_error (b, TERRAIN_ERROR_UNSUPPORTED_VERSION);
  }
  {
    g_autoptr(GBytes) b = bytes_with_u16 (f.bytes, 6, 0);
    chu_assert_error (b, TERRAIN_ERROR_INVALID_VALUE);
  }
  {
    g_autoptr(GBytes) b = bytes_with_u16 (f.bytes, 6, 0xFFFF);   /* S16 -1 */
    chu_assert_error (b, TERRAIN_ERROR_INVALID_VALUE);
  }
  {
    /* Chunk count short of nodeCount(3) = 21. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, 20, 20);
    chu_assert_error (b, TERRAIN_ERROR_INVALID_VALUE);
  }
  {
    /* Negative index count. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, chunk + 6 + CHU_VERTS * 8, (guint32) -3);
    chu_assert_error (b, TERRAIN_ERROR_INVALID_VALUE);
  }
  {
    g_autoptr(GBytes) b = bytes_with (f.bytes, flag, "\x02", 1);
    chu_assert_error (b, TERRAIN_ERROR_INVALID_VALUE);
  }
  {
    /* A collision block needs a collision-tree depth. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, 24, 0);
    chu_assert_error (b, TERRAIN_ERROR_INVALID_VALUE);
  }
  {
    /* A huge collision-tree depth cannot fit. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, 24, 30);
    chu_assert_error (b, TERRAIN_ERROR_TRUNCATED);
  }
  {
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, 24, 99);
    chu_assert_error (b, TERRAIN_ERROR_INVALID_VALUE);
  }
  {
    /* A duplicate label leaves a node uncovered. */
    gint32 other = f.label_of_node[node + 1];
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, chu_stub_offset (&f, node) + 4,
                                          (guint32) other);
    chu_assert_error (b, TERRAIN_ERROR_INVALID_VALUE);
  }
  {
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, chu_stub_offset (&f, node) + 4, 21);
    chu_assert_error (b, TERRAIN_ERROR_OUT_OF_RANGE);
  }
  {
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, chu_stub_offset (&f, node) + 4, (guint32) -1);
    chu_assert_error (b, TERRAIN_ERROR_OUT_OF_RANGE);
  }
  {
    /* A chunk offset beyond the end of the file. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, chu_stub_offset (&f, node) + 33,
                                          (guint32) g_bytes_get_size (f.bytes) + 10);
    chu_assert_error (b, TERRAIN_ERROR_OUT_OF_RANGE);
  }
  {
    /* A chunk offset that lands on no sentinel. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, chu_stub_offset (&f, node) + 33,
                                          (guint32) chunk + 2);
    chu_assert_error (b, TERRAIN_ERROR_BAD_MAGIC);
  }
  {
    /* Ulrich: the root's level must be 0. */
    g_autoptr(GBytes) b = bytes_with (u.bytes, 24 + 20, "\x01", 1);
    chu_assert_error (b, TERRAIN_ERROR_INVALID_VALUE);
  }
  {
    /* Ulrich: a node outside its level. */
    g_autoptr(GBytes) b = bytes_with_u16 (u.bytes, 24 + 33 + 21, 2);
    chu_assert_error (b, TERRAIN_ERROR_OUT_OF_RANGE);
  }
  {
    /* Ulrich: two chunk headers naming one node (the second and third
     * headers are level 1 nodes (0, 0) and (0, 0) after this). */
    guint second = terrain_test_node_id (1, 0, 0);
    guint third = terrain_test_node_id (1, 1, 0);
    gsize at = chu_stub_offset (&u, third);

    g_assert_cmpuint (u.stub_of_node[second], ==, 1);
    g_assert_cmpuint (u.stub_of_node[third], ==, 6);
    {
      g_autoptr(GBytes) b = bytes_with_u16 (u.bytes, at + 21, 0);
      chu_assert_error (b, TERRAIN_ERROR_INVALID_VALUE);
    }
  }
  {
    /* Ulrich: negative index count. */
    gsize at = u.chunk_offset[0] + 2 + CHU_VERTS * 8;
    g_autoptr(GBytes) b = bytes_with_u32 (u.bytes, at, (guint32) -1);
    chu_assert_error (b, TERRAIN_ERROR_INVALID_VALUE);
  }

  chu_fixture_clear (&f);
  chu_fixture_clear (&u);
}

static void
test_chu_limits (void)
{
  ChuFixture f;
  g_autoptr(TerrainLimits) limits = terrain_limits_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainChuFile) chu = NULL;

  chu_fixture_init (&f, &chu_specs[0]);
  limits->max_tiles = 20;
  chu = terrain_chu_file_new_from_bytes (f.bytes, limits, &error);
  g_assert_null (chu);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
  g_clear_error (&error);

  limits->max_tiles = 21;
  limits->max_allocation = 40;   /* 24 indices of 2 bytes fit, the stub table does not */
  chu = terrain_chu_file_new_from_bytes (f.bytes, limits, &error);
  g_assert_null (chu);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
  g_clear_error (&error);

  {
    /* A depth-16 tree claims more chunks than the default budget. */
    g_autoptr(GBytes) b = bytes_with_u16 (f.bytes, 6, 16);
    g_autoptr(GBytes) c = bytes_with_u32 (b, 20, (guint32) terrain_test_node_count (16));

    chu_assert_error (c, TERRAIN_ERROR_LIMIT_EXCEEDED);
  }
  chu_fixture_clear (&f);
}

static guint
count_issues_containing (GPtrArray  *issues,
                         const char *text)
{
  guint n = 0;

  for (guint i = 0; i < issues->len; i++)
    if (strstr (terrain_issue_get_message (issues->pdata[i]), text) != NULL)
      n++;
  return n;
}

static void
test_chu_validate (void)
{
  ChuFixture f, u;
  guint node = 3;
  gsize stub;
  g_autoptr(GPtrArray) clean = NULL, clean_u = NULL;

  chu_fixture_init (&f, &chu_specs[2]);
  chu_fixture_init (&u, &chu_specs[6]);
  stub = chu_stub_offset (&f, node);

  {
    g_autoptr(TerrainChuFile) chu = chu_load (f.bytes);
    g_autoptr(TerrainChuFile) ulrich = chu_load (u.bytes);

    clean = terrain_document_validate (TERRAIN_DOCUMENT (chu));
    clean_u = terrain_document_validate (TERRAIN_DOCUMENT (ulrich));
    g_assert_cmpuint (clean->len, ==, 0);
    g_assert_cmpuint (clean_u->len, ==, 0);
  }

  {
    /* Stub bounds narrower than the chunk's heights. */
    g_autoptr(GBytes) b = bytes_with_u16 (f.bytes, stub + 4 + 4 + 16 + 1 + 4 + 2, 0);
    g_autoptr(TerrainChuFile) chu = chu_load (b);
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (chu));

    g_assert_cmpuint (issues->len, ==, 1);
    g_assert_cmpint (terrain_issue_get_severity (issues->pdata[0]), ==, TERRAIN_SEVERITY_WARNING);
    g_assert_cmpint (terrain_issue_get_record (issues->pdata[0]), ==, f.stub_of_node[node]);
    g_assert_cmpint (terrain_issue_get_offset (issues->pdata[0]), ==, (gint64) stub);
    g_assert_nonnull (strstr (terrain_issue_get_message (issues->pdata[0]), "bounds"));
  }
  {
    /* A stored triangle count that the indices do not give. */
    gsize tri = f.chunk_offset[node] + 4 + 2 + CHU_VERTS * 8 + 4 + CHU_LIST_INDICES * 2;
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, tri, 9);
    g_autoptr(TerrainChuFile) chu = chu_load (b);
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (chu));

    g_assert_cmpuint (issues->len, ==, 1);
    g_assert_cmpint (terrain_issue_get_offset (issues->pdata[0]), ==, (gint64) tri);
    g_assert_nonnull (strstr (terrain_issue_get_message (issues->pdata[0]), "triangle count 9"));
  }
  {
    /* An index past the vertices. */
    gsize index = f.chunk_offset[node] + 4 + 2 + CHU_VERTS * 8 + 4 + 2 * 5;
    g_autoptr(GBytes) b = bytes_with_u16 (f.bytes, index, CHU_VERTS);
    g_autoptr(TerrainChuFile) chu = chu_load (b);
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (chu));

    g_assert_cmpuint (issues->len, ==, 1);
    g_assert_cmpint (terrain_issue_get_offset (issues->pdata[0]), ==, (gint64) index);
    g_assert_nonnull (strstr (terrain_issue_get_message (issues->pdata[0]), "beyond"));
  }
  {
    /* A stub whose x disagrees with its label, and a neighbour beyond the
     * tree. */
    g_autoptr(GBytes) b = bytes_with_u16 (f.bytes, stub + 4 + 4 + 16 + 1, 0);
    g_autoptr(GBytes) c = bytes_with_u32 (b, stub + 4 + 4 + 12, 99);
    g_autoptr(TerrainChuFile) chu = chu_load (c);
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (chu));

    g_assert_cmpuint (issues->len, ==, 2);
    g_assert_cmpuint (count_issues_containing (issues, "but its label"), ==, 1);
    g_assert_cmpuint (count_issues_containing (issues, "outside the tree"), ==, 1);
  }
  {
    /* Ulrich: a child outside its parent. */
    guint child = terrain_test_node_id (2, 3, 3);
    gsize at = chu_stub_offset (&u, child);
    g_autoptr(GBytes) b = bytes_with_u16 (u.bytes, at + 21, 0);
    g_autoptr(GBytes) c = NULL;
    g_autoptr(TerrainChuFile) chu = NULL;
    g_autoptr(GPtrArray) issues = NULL;

    /* Swap with the node it now names, so the tree stays complete. */
    c = bytes_with_u16 (b, chu_stub_offset (&u, terrain_test_node_id (2, 0, 3)) + 21, 3);
    chu = chu_load (c);
    issues = terrain_document_validate (TERRAIN_DOCUMENT (chu));
    g_assert_cmpuint (count_issues_containing (issues, "does not lie inside its parent"), ==, 2);
  }
  {
    /* Many findings of one kind: at most 20 listed, then a summary. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, 16, 0);   /* leaf dimensions 0 */
    GBytes *cur = g_bytes_ref (b);
    g_autoptr(TerrainChuFile) chu = NULL;
    g_autoptr(GPtrArray) issues = NULL;

    for (guint n = 0; n < f.n; n++)
      {
        GBytes *next = bytes_with_u16 (cur, chu_stub_offset (&f, n) + 4 + 4 + 16 + 1 + 4 + 2,
                                       (guint16) -200);
        g_bytes_unref (cur);
        cur = next;
      }
    chu = chu_load (cur);
    g_bytes_unref (cur);
    issues = terrain_document_validate (TERRAIN_DOCUMENT (chu));
    g_assert_cmpuint (count_issues_containing (issues, "bounds its heights"), ==, 20);
    g_assert_cmpuint (count_issues_containing (issues, "1 more findings about stub height"), ==, 1);
    g_assert_cmpuint (count_issues_containing (issues, "leaf dimensions"), ==, 1);
  }

  chu_fixture_clear (&f);
  chu_fixture_clear (&u);
}

static void
test_chu_describe (gconstpointer data)
{
  const ChuSpec *spec = data;
  ChuFixture f;
  g_autoptr(TerrainChuFile) chu = NULL;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *object;
  JsonArray *levels;

  chu_fixture_init (&f, spec);
  chu = chu_load (f.bytes);
  node = terrain_document_describe (TERRAIN_DOCUMENT (chu));
  object = json_node_get_object (node);

  g_assert_cmpstr (json_object_get_string_member (object, "format"), ==, "chu");
  g_assert_cmpstr (json_object_get_string_member (object, "variant"), ==,
                   spec->ulrich ? "ulrich" : "chu3");
  g_assert_cmpint (json_object_get_int_member (object, "tree_depth"), ==, spec->depth);
  if (spec->ulrich)
    g_assert_true (g_str_has_prefix (json_object_get_string_member (object, "header_words"),
                                     spec->wide ? "u32" : "u16"));
  else
    g_assert_false (json_object_has_member (object, "header_words"));
  g_assert_cmpint (json_object_get_int_member (object, "chunk_count"), ==, f.n);
  g_assert_cmpint (json_object_get_int_member (object, "vertices"), ==, f.n * CHU_VERTS);
  g_assert_cmpint (json_object_get_int_member (object, "file_size"), ==,
                   g_bytes_get_size (f.bytes));
  g_assert_cmpint (json_object_get_int_member (object, "unreferenced_bytes"), ==,
                   spec->gap * f.n + spec->trailing);
  g_assert_cmpint (json_object_get_boolean_member (object, "stubs_in_label_order"), ==,
                   f.n == 1 || (!spec->ulrich && spec->stub_order == ORDER_SORTED));
  levels = json_object_get_array_member (object, "levels");
  g_assert_cmpuint (json_array_get_length (levels), ==, spec->depth);
  g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (levels, 0),
                                                    "chunk_size"),
                     ==, CHU_LEAF * (1 << (spec->depth - 1)));
  chu_fixture_clear (&f);
}

static void
test_chu_describe_offset (void)
{
  ChuFixture f;
  g_autoptr(TerrainChuFile) chu = NULL;
  TerrainDocument *doc;
  guint leaf = terrain_test_node_count (1) + 1;
  char *s;

  chu_fixture_init (&f, &chu_specs[3]);   /* chu3-gaps, depth 2 with collision */
  chu = chu_load (f.bytes);
  doc = TERRAIN_DOCUMENT (chu);

  s = terrain_document_describe_offset (doc, 9);
  g_assert_cmpstr (s, ==, "header, base max error, byte +1");
  g_free (s);
  s = terrain_document_describe_offset (doc, chu_stub_offset (&f, leaf) + 8);
  g_assert_nonnull (strstr (s, "neighbour 0"));
  g_assert_nonnull (strstr (s, "label"));
  g_free (s);
  s = terrain_document_describe_offset (doc, f.chunk_offset[leaf] + 6 + 8 * 2 + 3);
  g_assert_nonnull (strstr (s, "vertex 2, byte +3"));
  g_free (s);
  s = terrain_document_describe_offset (doc, f.chunk_offset[leaf] + f.chunk_size[leaf] - 1);
  g_assert_nonnull (strstr (s, "footer"));
  g_free (s);
  s = terrain_document_describe_offset (doc, f.chunk_offset[leaf] + f.chunk_size[leaf] - 6);
  g_assert_nonnull (strstr (s, "collision buffer entry 5"));
  g_free (s);
  s = terrain_document_describe_offset (doc, f.chunk_offset[leaf] - 1);
  g_assert_cmpstr (s, ==, "gap");
  g_free (s);
  s = terrain_document_describe_offset (doc, g_bytes_get_size (f.bytes) - 1);
  g_assert_cmpstr (s, ==, "trailing bytes");
  g_free (s);
  s = terrain_document_describe_offset (doc, g_bytes_get_size (f.bytes));
  g_assert_cmpstr (s, ==, "end of file");
  g_free (s);
  chu_fixture_clear (&f);
  g_clear_object (&chu);

  /* Ulrich's 32-bit words: the depth at 8, the chunk headers' z at 25. */
  chu_fixture_init (&f, &chu_specs[8]);   /* ulrich-u32 */
  chu = chu_load (f.bytes);
  doc = TERRAIN_DOCUMENT (chu);
  s = terrain_document_describe_offset (doc, 10);
  g_assert_cmpstr (s, ==, "header, tree depth, byte +2");
  g_free (s);
  s = terrain_document_describe_offset (doc, 24);
  g_assert_cmpstr (s, ==, "header, chunk count, byte +0");
  g_free (s);
  s = terrain_document_describe_offset (doc, 28 + 37 + 27);
  g_assert_nonnull (strstr (s, ", y"));
  g_free (s);
  s = terrain_document_describe_offset (doc, 28 + 37 + 33);
  g_assert_nonnull (strstr (s, "chunk offset"));
  g_free (s);

  chu_fixture_clear (&f);
}

static void
test_chu_detect (void)
{
  ChuFixture f, u;

  chu_fixture_init (&f, &chu_specs[0]);
  chu_fixture_init (&u, &chu_specs[5]);
  g_assert_cmpint (terrain_format_detect (f.bytes, NULL), ==, TERRAIN_FORMAT_CHU);
  g_assert_cmpint (terrain_format_detect (u.bytes, "terrain.bin"), ==, TERRAIN_FORMAT_CHU);
  g_assert_true (terrain_format_can_load (TERRAIN_FORMAT_CHU));

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainDocument) doc = terrain_document_load_bytes (u.bytes, "x.chu",
                                                                  TERRAIN_FORMAT_UNKNOWN,
                                                                  NULL, &error);
    g_assert_no_error (error);
    g_assert_true (TERRAIN_IS_CHU_FILE (doc));
  }
  chu_fixture_clear (&f);
  chu_fixture_clear (&u);
}

/* Random byte flips: every load either succeeds (and then validates,
 * describes and writes back) or fails with a TERRAIN_ERROR. */
static void
test_chu_mutations (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (1234);

  for (guint s = 0; s < G_N_ELEMENTS (chu_specs); s++)
    {
      ChuFixture f;
      gsize size;

      chu_fixture_init (&f, &chu_specs[s]);
      size = g_bytes_get_size (f.bytes);
      for (guint round = 0; round < 300; round++)
        {
          gsize len;
          guint8 *copy = g_bytes_unref_to_data (g_bytes_ref (f.bytes), &len);
          g_autoptr(GBytes) mutated = NULL;
          g_autoptr(GError) error = NULL;
          g_autoptr(TerrainChuFile) chu = NULL;
          guint flips = (guint) g_rand_int_range (rand, 1, 4);

          for (guint i = 0; i < flips; i++)
            copy[g_rand_int_range (rand, 0, (gint32) size)] = (guint8) g_rand_int (rand);
          mutated = g_bytes_new_take (copy, len);
          chu = terrain_chu_file_new_from_bytes (mutated, NULL, &error);
          if (chu == NULL)
            {
              g_assert_nonnull (error);
              g_assert_true (error->domain == TERRAIN_ERROR);
              continue;
            }
          {
            g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (chu));
            g_autoptr(JsonNode) node = terrain_document_describe (TERRAIN_DOCUMENT (chu));
            g_autoptr(GBytes) written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (chu),
                                                                        &error);
            g_autofree char *where = terrain_document_describe_offset (TERRAIN_DOCUMENT (chu),
                                                                       size / 2);

            g_autoptr(TerrainAtlasFile) atlas = NULL;

            g_assert_no_error (error);
            terrain_test_assert_bytes_equal (mutated, written);
            g_assert_nonnull (issues);
            g_assert_nonnull (node);
            g_assert_nonnull (where);

            /* Importing either works or fails with a TERRAIN_ERROR. */
            atlas = terrain_chu_import (chu, NULL, 1500,
                                        round % 2 ? TERRAIN_CHU_IMPORT_COLLISION
                                                  : TERRAIN_CHU_IMPORT_NONE,
                                        &error);
            if (atlas == NULL)
              g_assert_true (error->domain == TERRAIN_ERROR);
          }
        }
      chu_fixture_clear (&f);
    }
}

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

static const TqtSpec tqt_specs[] = {
  { "dds", TILE_DXT1, 2, 3, ORDER_SORTED, FALSE, 0, 0 },
  { "dds-shuffled", TILE_DXT1, 2, 3, ORDER_SHUFFLED, TRUE, 0, 0 },
  { "dds-gaps", TILE_DXT1, 2, 2, ORDER_REVERSED, FALSE, 6, 9 },
  { "dds-rgba", TILE_RGBA, 2, 2, ORDER_SORTED, TRUE, 1, 0 },
  { "jpeg", TILE_JPEG, 1, 3, ORDER_SORTED, FALSE, 0, 0 },
  { "jpeg-shuffled", TILE_JPEG, 1, 3, ORDER_SHUFFLED, TRUE, 2, 5 },
  { "empty", TILE_DXT1, 2, 0, ORDER_SORTED, FALSE, 0, 0 },
};

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

static void
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

static void
tqt_fixture_clear (TqtFixture *f)
{
  for (guint i = 0; i < f->n; i++)
    g_clear_pointer (&f->image[i], g_bytes_unref);
  g_clear_pointer (&f->image, g_free);
  g_clear_pointer (&f->bytes, g_bytes_unref);
  g_clear_pointer (&f->tile_offset, g_free);
  g_clear_pointer (&f->tile_span, g_free);
}

static TerrainTqtFile *
tqt_load (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  TerrainTqtFile *tqt = terrain_tqt_file_new_from_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (tqt);
  return tqt;
}

static void
tqt_assert_error (GBytes       *bytes,
                  TerrainError  code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTqtFile) tqt = terrain_tqt_file_new_from_bytes (bytes, NULL, &error);

  g_assert_null (tqt);
  g_assert_error (error, TERRAIN_ERROR, (gint) code);
  g_assert_nonnull (strstr (error->message, "TQT"));
}

static gsize
tqt_entry_offset (guint level,
                  guint x,
                  guint y)
{
  return 16 + 4 * (gsize) terrain_test_node_id (level, y, x);
}

/* ------------------------------------------------------------------ */
/* TQT tests                                                           */

static void
test_tqt_read (gconstpointer data)
{
  const TqtSpec *spec = data;
  TqtFixture f;
  g_autoptr(TerrainTqtFile) tqt = NULL;

  tqt_fixture_init (&f, spec);
  tqt = tqt_load (f.bytes);

  g_assert_cmpuint (terrain_tqt_file_get_version (tqt), ==, spec->version);
  g_assert_cmpuint (terrain_tqt_file_get_tree_depth (tqt), ==, spec->depth);
  g_assert_cmpuint (terrain_tqt_file_get_tile_size (tqt), ==,
                    spec->kind == TILE_RGBA ? 4 : TQT_TILE);
  g_assert_cmpint (terrain_tqt_file_get_encoding (tqt), ==,
                   spec->kind == TILE_JPEG ? TERRAIN_TQT_ENCODING_JPEG
                                           : TERRAIN_TQT_ENCODING_DDS);
  g_assert_cmpuint (terrain_tqt_file_get_n_tiles (tqt), ==, f.n);

  for (guint node = 0; node < f.n; node++)
    {
      guint level, x, y;
      gint entry;
      gsize offset, span;
      guint32 width, height;
      g_autoptr(GBytes) image = NULL;

      terrain_test_node_position (node, &level, &x, &y);
      entry = terrain_tqt_file_lookup_node (tqt, level, x, y);
      g_assert_cmpint (entry, ==, (gint) terrain_test_node_id (level, y, x));
      g_assert_cmpuint (terrain_tqt_file_get_tile_offset (tqt, (guint) entry), ==,
                        f.tile_offset[node]);
      terrain_tqt_file_get_tile_span (tqt, (guint) entry, &offset, &span);
      g_assert_cmpuint (offset, ==, f.tile_offset[node]);
      g_assert_cmpuint (span, ==, f.tile_span[node]);
      image = terrain_tqt_file_get_tile_bytes (tqt, (guint) entry);
      g_assert_true (g_bytes_equal (image, f.image[node]));
      g_assert_true (terrain_tqt_file_get_tile_dimensions (tqt, (guint) entry, &width, &height));
      g_assert_cmpuint (width, ==, spec->kind == TILE_RGBA ? 4 : TQT_TILE);
      g_assert_cmpuint (height, ==, spec->kind == TILE_RGBA ? 2 : TQT_TILE);
    }
  g_assert_cmpint (terrain_tqt_file_lookup_node (tqt, spec->depth, 0, 0), ==, -1);

  tqt_fixture_clear (&f);
}

static void
test_tqt_roundtrip (gconstpointer data)
{
  TqtFixture f;
  g_autoptr(TerrainTqtFile) tqt = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GError) error = NULL;

  tqt_fixture_init (&f, data);
  tqt = tqt_load (f.bytes);
  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (tqt), &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (f.bytes, written);
  tqt_fixture_clear (&f);
}

static void
test_tqt_truncation (gconstpointer data)
{
  TqtFixture f;
  gsize size;
  const guint8 *all;

  tqt_fixture_init (&f, data);
  all = g_bytes_get_data (f.bytes, &size);

  for (gsize cut = 0; cut < size; cut++)
    {
      g_autoptr(GBytes) part = g_bytes_new (all, cut);
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainTqtFile) tqt = terrain_tqt_file_new_from_bytes (part, NULL, &error);

      if (cut >= f.data_end)
        {
          g_assert_no_error (error);
          g_assert_nonnull (tqt);
          continue;
        }
      g_assert_null (tqt);
      if (!g_error_matches (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED) &&
          !g_error_matches (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE))
        g_error ("cut at %" G_GSIZE_FORMAT ": unexpected error %s", cut, error->message);
      g_assert_nonnull (strstr (error->message, "byte offset"));
    }
  tqt_fixture_clear (&f);
}

static void
test_tqt_errors (void)
{
  TqtFixture f, j;
  guint leaf = terrain_test_node_id (2, 1, 0);
  guint other = terrain_test_node_id (2, 2, 3);
  const guint8 *all;

  tqt_fixture_init (&f, &tqt_specs[0]);   /* dds, depth 3 */
  tqt_fixture_init (&j, &tqt_specs[4]);   /* jpeg, depth 3 */
  all = g_bytes_get_data (f.bytes, NULL);

  {
    g_autoptr(GBytes) b = bytes_with (f.bytes, 0, "tqt1", 4);
    tqt_assert_error (b, TERRAIN_ERROR_BAD_MAGIC);
  }
  {
    /* A tile stream that does not start with "DDS ". */
    g_autoptr(GBytes) b = bytes_with (f.bytes, f.tile_offset[leaf] + 4, "DDT ", 4);
    tqt_assert_error (b, TERRAIN_ERROR_BAD_MAGIC);
  }
  {
    /* A DDS stream shorter than its mip chain: claim 5 mip levels. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, f.tile_offset[leaf] + 4 + 4 + 24, 5);
    tqt_assert_error (b, TERRAIN_ERROR_TRUNCATED);
  }
  {
    /* A size prefix smaller than the DDS header. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, f.tile_offset[leaf], 100);
    tqt_assert_error (b, TERRAIN_ERROR_TRUNCATED);
  }
  {
    /* A size prefix running past the end of the file. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, f.tile_offset[leaf], 0x7FFFFFF0);
    tqt_assert_error (b, TERRAIN_ERROR_TRUNCATED);
  }
  {
    /* A tile offset beyond the end of the file. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, tqt_entry_offset (2, 1, 0),
                                          (guint32) g_bytes_get_size (f.bytes));
    tqt_assert_error (b, TERRAIN_ERROR_OUT_OF_RANGE);
  }
  {
    /* Two distinct tiles partly overlapping: point one entry 4 bytes before
     * another tile's end, with a prefix that makes a complete DDS stream. */
    gsize at = f.tile_offset[other];
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, tqt_entry_offset (2, 1, 0), (guint32) at);
    g_autoptr(GBytes) c = bytes_with_u32 (b, at, terrain_test_get_u32 (all + at) + 8);
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainTqtFile) tqt = NULL;

    /* Entry (2, 1, 0) now shares the tile of (2, 2, 3), whose size now
     * reaches 8 bytes into the next tile. */
    tqt = terrain_tqt_file_new_from_bytes (c, NULL, &error);
    g_assert_null (tqt);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP);
    g_assert_nonnull (strstr (error->message, "partly overlaps"));
  }
  {
    /* A tile inside the offset table. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, tqt_entry_offset (2, 1, 0), 16);
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainTqtFile) tqt = terrain_tqt_file_new_from_bytes (b, NULL, &error);

    /* Its "size" is the table's first entry and no DDS follows. */
    g_assert_null (tqt);
    g_assert_nonnull (error);
    g_assert_true (error->domain == TERRAIN_ERROR);
  }
  {
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, 8, 32);
    tqt_assert_error (b, TERRAIN_ERROR_INVALID_VALUE);
  }
  {
    /* JPEG: no start-of-image. */
    g_autoptr(GBytes) b = bytes_with (j.bytes, j.tile_offset[leaf] + 1, "\xD9", 1);
    tqt_assert_error (b, TERRAIN_ERROR_BAD_MAGIC);
  }
  {
    /* JPEG: a segment length below 2. */
    g_autoptr(GBytes) b = bytes_with (j.bytes, j.tile_offset[leaf] + 4, "\x00\x01", 2);
    tqt_assert_error (b, TERRAIN_ERROR_INVALID_VALUE);
  }
  {
    /* JPEG: garbage where a marker belongs. */
    g_autoptr(GBytes) b = bytes_with (j.bytes, j.tile_offset[leaf] + 2, "\x12", 1);
    tqt_assert_error (b, TERRAIN_ERROR_INVALID_VALUE);
  }
  {
    /* JPEG: the last tile's end-of-image removed. */
    gsize size = g_bytes_get_size (j.bytes);
    g_autoptr(GBytes) b = bytes_with (j.bytes, size - 1, "\x00", 1);
    tqt_assert_error (b, TERRAIN_ERROR_TRUNCATED);
  }

  {
    /* JPEG: a tile nested inside another (a complete stream hidden in an
     * APP1 segment) is a partial overlap, whichever is scanned first. */
    static const guint8 outer[] = { 0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x06, 0xFF, 0xD8, 0xFF, 0xD9,
                                    0xFF, 0xD9 };
    g_autoptr(GByteArray) a = g_byte_array_new ();
    g_autoptr(GBytes) b = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainTqtFile) tqt = NULL;
    guint32 at = 16 + 4 * 5;

    put_bytes (a, "tqt\0", 4);
    terrain_test_put_u32 (a, 1);
    terrain_test_put_u32 (a, 2);
    terrain_test_put_u32 (a, 8);
    for (guint i = 0; i < 4; i++)
      terrain_test_put_u32 (a, at);
    terrain_test_put_u32 (a, at + 6);
    put_bytes (a, outer, sizeof outer);
    b = g_byte_array_free_to_bytes (g_steal_pointer (&a));
    tqt = terrain_tqt_file_new_from_bytes (b, NULL, &error);
    g_assert_null (tqt);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP);
  }

  tqt_fixture_clear (&f);
  tqt_fixture_clear (&j);
}

static void
test_tqt_limits (void)
{
  TqtFixture f;
  g_autoptr(TerrainLimits) limits = terrain_limits_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTqtFile) tqt = NULL;

  tqt_fixture_init (&f, &tqt_specs[0]);
  limits->max_tiles = 20;
  tqt = terrain_tqt_file_new_from_bytes (f.bytes, limits, &error);
  g_assert_null (tqt);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);

  {
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, 8, 12);
    tqt_assert_error (b, TERRAIN_ERROR_LIMIT_EXCEEDED);
  }
  tqt_fixture_clear (&f);
}

static void
test_tqt_validate (void)
{
  TqtFixture f;

  tqt_fixture_init (&f, &tqt_specs[1]);
  {
    g_autoptr(TerrainTqtFile) tqt = tqt_load (f.bytes);
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (tqt));

    g_assert_cmpuint (issues->len, ==, 0);
  }
  tqt_fixture_clear (&f);

  tqt_fixture_init (&f, &tqt_specs[0]);
  {
    /* Tile size 16 against 21 8x8 DDS tiles: 20 findings, then a summary. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, 12, 16);
    g_autoptr(TerrainTqtFile) tqt = tqt_load (b);
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (tqt));

    g_assert_cmpuint (issues->len, ==, 21);
    g_assert_cmpuint (count_issues_containing (issues, "tile size is 16"), ==, 20);
    g_assert_cmpuint (count_issues_containing (issues, "more findings about tile dimensions"),
                      ==, 1);
  }
  {
    /* A version that names neither layout. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, 4, 7);
    g_autoptr(TerrainTqtFile) tqt = tqt_load (b);
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (tqt));

    g_assert_cmpuint (issues->len, ==, 1);
    g_assert_cmpint (terrain_issue_get_offset (issues->pdata[0]), ==, 4);
  }
  tqt_fixture_clear (&f);

  tqt_fixture_init (&f, &tqt_specs[2]);   /* dds-gaps: 6 filler bytes before each tile */
  {
    /* Grow the first tile in file order into the gap after it. */
    guint first = 0;
    g_autoptr(GBytes) b = NULL;
    g_autoptr(TerrainTqtFile) tqt = NULL;
    g_autoptr(GPtrArray) issues = NULL;

    for (guint node = 0; node < f.n; node++)
      if (f.tile_offset[node] < f.tile_offset[first])
        first = node;
    b = bytes_with_u32 (f.bytes, f.tile_offset[first],
                        (guint32) g_bytes_get_size (f.image[first]) + 3);
    tqt = tqt_load (b);
    issues = terrain_document_validate (TERRAIN_DOCUMENT (tqt));
    g_assert_cmpuint (issues->len, ==, 1);
    g_assert_nonnull (strstr (terrain_issue_get_message (issues->pdata[0]),
                              "3 more than its header implies"));
  }
  tqt_fixture_clear (&f);
}

static void
test_tqt_describe (gconstpointer data)
{
  const TqtSpec *spec = data;
  TqtFixture f;
  g_autoptr(TerrainTqtFile) tqt = NULL;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *object;
  guint distinct;

  tqt_fixture_init (&f, spec);
  tqt = tqt_load (f.bytes);
  node = terrain_document_describe (TERRAIN_DOCUMENT (tqt));
  object = json_node_get_object (node);
  distinct = f.n - (spec->shared ? 1 : 0);

  g_assert_cmpstr (json_object_get_string_member (object, "format"), ==, "tqt");
  g_assert_cmpstr (json_object_get_string_member (object, "encoding"), ==,
                   spec->kind == TILE_JPEG ? "jpeg" : "dds");
  g_assert_cmpint (json_object_get_int_member (object, "tiles"), ==, f.n);
  g_assert_cmpint (json_object_get_int_member (object, "distinct_tiles"), ==, distinct);
  g_assert_cmpint (json_object_get_int_member (object, "unreferenced_bytes"), ==,
                   spec->gap * distinct + spec->trailing);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "levels")),
                    ==, spec->depth);
  tqt_fixture_clear (&f);
}

static void
test_tqt_describe_offset (void)
{
  TqtFixture f;
  g_autoptr(TerrainTqtFile) tqt = NULL;
  TerrainDocument *doc;
  guint node = terrain_test_node_id (1, 1, 0);
  char *s;

  tqt_fixture_init (&f, &tqt_specs[2]);
  tqt = tqt_load (f.bytes);
  doc = TERRAIN_DOCUMENT (tqt);

  s = terrain_document_describe_offset (doc, 13);
  g_assert_cmpstr (s, ==, "header, tile size, byte +1");
  g_free (s);
  s = terrain_document_describe_offset (doc, tqt_entry_offset (1, 1, 0) + 2);
  g_assert_cmpstr (s, ==, "offset table, entry 2 (level 1, x 1, y 0), byte +2");
  g_free (s);
  s = terrain_document_describe_offset (doc, f.tile_offset[node] + 1);
  g_assert_cmpstr (s, ==, "tile 2 (level 1, x 1, y 0), size prefix");
  g_free (s);
  s = terrain_document_describe_offset (doc, f.tile_offset[node] + 4 + 130);
  g_assert_cmpstr (s, ==, "tile 2 (level 1, x 1, y 0), DDS stream byte +130");
  g_free (s);
  s = terrain_document_describe_offset (doc, f.tile_offset[node] - 1);
  g_assert_cmpstr (s, ==, "gap");
  g_free (s);
  s = terrain_document_describe_offset (doc, g_bytes_get_size (f.bytes) - 1);
  g_assert_cmpstr (s, ==, "trailing bytes");
  g_free (s);
  tqt_fixture_clear (&f);
}

static void
test_tqt_detect (void)
{
  TqtFixture f;

  tqt_fixture_init (&f, &tqt_specs[4]);
  g_assert_cmpint (terrain_format_detect (f.bytes, NULL), ==, TERRAIN_FORMAT_TQT);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainDocument) doc = terrain_document_load_bytes (f.bytes, NULL,
                                                                  TERRAIN_FORMAT_UNKNOWN,
                                                                  NULL, &error);
    g_assert_no_error (error);
    g_assert_true (TERRAIN_IS_TQT_FILE (doc));
  }
  tqt_fixture_clear (&f);
}

static void
test_tqt_mutations (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (4321);

  for (guint s = 0; s < G_N_ELEMENTS (tqt_specs); s++)
    {
      TqtFixture f;
      gsize size;

      tqt_fixture_init (&f, &tqt_specs[s]);
      size = g_bytes_get_size (f.bytes);
      for (guint round = 0; round < 300; round++)
        {
          gsize len;
          guint8 *copy = g_bytes_unref_to_data (g_bytes_ref (f.bytes), &len);
          g_autoptr(GBytes) mutated = NULL;
          g_autoptr(GError) error = NULL;
          g_autoptr(TerrainTqtFile) tqt = NULL;
          guint flips = (guint) g_rand_int_range (rand, 1, 4);

          for (guint i = 0; i < flips; i++)
            copy[g_rand_int_range (rand, 0, (gint32) size)] = (guint8) g_rand_int (rand);
          mutated = g_bytes_new_take (copy, len);
          tqt = terrain_tqt_file_new_from_bytes (mutated, NULL, &error);
          if (tqt == NULL)
            {
              g_assert_true (error->domain == TERRAIN_ERROR);
              continue;
            }
          {
            g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (tqt));
            g_autoptr(JsonNode) node = terrain_document_describe (TERRAIN_DOCUMENT (tqt));
            g_autoptr(GBytes) written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (tqt),
                                                                        &error);
            g_autofree char *where = terrain_document_describe_offset (TERRAIN_DOCUMENT (tqt),
                                                                       size / 2);

            g_assert_no_error (error);
            terrain_test_assert_bytes_equal (mutated, written);
            g_assert_nonnull (issues);
            g_assert_nonnull (node);
            g_assert_nonnull (where);
          }
        }
      tqt_fixture_clear (&f);
    }
}

/* ------------------------------------------------------------------ */
/* Import                                                              */

/* §9b, evaluated here in double precision. */
static void
expected_vertex (const ChuSpec *spec,
                 guint          node,
                 guint          i,
                 gdouble        point[3],
                 gdouble        tex[2],
                 gdouble       *morph)
{
  guint level, x, y;
  gint16 qx, qy;
  gdouble size, terrain;

  terrain_test_node_position (node, &level, &x, &y);
  chu_vertex (i, &qx, &qy);
  size = CHU_LEAF * (gdouble) (1u << (spec->depth - 1 - level));
  terrain = CHU_LEAF * (gdouble) (1u << (spec->depth - 1));
  point[0] = ((qx / 16384.0) * 0.5 + 0.5) * size + size * x;
  point[1] = ((qy / 16384.0) * 0.5 + 0.5) * size + size * y;
  point[2] = chu_z (node, i) * (gdouble) CHU_VSCALE;
  tex[0] = point[1] / terrain;
  tex[1] = 1.0 - point[0] / terrain;
  *morph = chu_morph (node, i) * (gdouble) CHU_VSCALE;
}

static void
assert_float_near (gfloat  actual,
                   gdouble expected)
{
  /* One float rounding of the exact value, with a little headroom. */
  if (fabs ((gdouble) actual - expected) > 2 * G_MINFLOAT + fabs (expected) * 2 * FLT_EPSILON)
    g_error ("%.9g is not %.9g within float precision", (gdouble) actual, expected);
}

/* The triangles of strip_indices, unrolled with odd triangles swapped. */
static const guint16 strip_as_list[] = {
  0, 3, 1,  1, 3, 4,  1, 4, 2,  2, 4, 5,  3, 6, 4,  4, 6, 7,  4, 7, 5,  5, 7, 8,
};

static void
box_include (TerrainAtlasBox *box,
             const gfloat     p[3])
{
  for (guint c = 0; c < 3; c++)
    {
      box->min[c] = MIN (box->min[c], p[c]);
      box->max[c] = MAX (box->max[c], p[c]);
    }
}

static void
check_imported (TerrainAtlasFile *atlas,
                const ChuFixture *f,
                const TqtFixture *t)
{
  TerrainAtlasToc *geom = terrain_atlas_file_get_toc (atlas, 0);
  TerrainAtlasToc *tex = terrain_atlas_file_get_toc (atlas, 1);
  g_autofree TerrainAtlasBox *boxes = g_new (TerrainAtlasBox, f->n);

  g_assert_cmpuint (terrain_atlas_file_get_n_tocs (atlas), ==, 2);
  g_assert_cmpint (terrain_atlas_toc_get_kind (geom), ==, TERRAIN_ATLAS_TOC_GEOMETRY);
  g_assert_cmpuint (terrain_atlas_toc_get_version (geom), ==, 140);
  g_assert_cmpuint (terrain_atlas_toc_get_tree_depth (geom), ==, f->spec->depth);
  g_assert_cmpuint (terrain_atlas_toc_get_n_stubs (geom), ==, f->n);
  g_assert_cmpuint (terrain_atlas_toc_get_goal_batch_size (geom), ==, 777);
  g_assert_cmpint (terrain_atlas_toc_get_kind (tex), ==, TERRAIN_ATLAS_TOC_TEXTURE);
  g_assert_cmpuint (terrain_atlas_toc_get_tree_depth (tex), ==, t->spec->depth);
  g_assert_cmpuint (terrain_atlas_toc_get_n_stubs (tex), ==, t->n);

  /* Leaves first, so that every parent can check it holds its children. */
  for (guint node = f->n; node-- > 0;)
    {
      guint level, x, y, n_vertices, n_indices;
      gint64 index = 0;
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainAtlasGeometry) geometry = NULL;
      g_autoptr(TerrainAtlasStub) stub = NULL;
      const TerrainAtlasVertex *vertices;
      const guint16 *indices;
      TerrainAtlasBox chunk_box, stub_box, expected;

      terrain_test_node_position (node, &level, &x, &y);
      index = terrain_atlas_toc_find_stub (geom, level, x, y);
      g_assert_cmpint (index, ==, node);
      geometry = terrain_atlas_file_get_geometry (atlas, 0, (guint) index, &error);
      g_assert_no_error (error);
      stub = terrain_atlas_toc_get_stub (geom, (guint) index);

      vertices = terrain_atlas_geometry_get_vertices (geometry, &n_vertices);
      g_assert_cmpuint (n_vertices, ==, CHU_VERTS);
      for (guint c = 0; c < 3; c++)
        {
          expected.min[c] = INFINITY;
          expected.max[c] = -INFINITY;
        }
      for (guint i = 0; i < n_vertices; i++)
        {
          gdouble point[3], tc[2], morph;

          expected_vertex (f->spec, node, i, point, tc, &morph);
          for (guint c = 0; c < 3; c++)
            assert_float_near (vertices[i].point[c], point[c]);
          assert_float_near (vertices[i].tex_coord[0], tc[0]);
          assert_float_near (vertices[i].tex_coord[1], tc[1]);
          g_assert_cmpfloat (vertices[i].tex_morph_offset[0], ==, 0.0f);
          g_assert_cmpfloat (vertices[i].tex_morph_offset[1], ==, 0.0f);
          g_assert_cmpfloat (vertices[i].point_morph_offset[0], ==, 0.0f);
          g_assert_cmpfloat (vertices[i].point_morph_offset[1], ==, 0.0f);
          assert_float_near (vertices[i].point_morph_offset[2], morph);
          g_assert_cmpfloat (vertices[i].normal[0], ==, 0.0f);
          g_assert_cmpfloat (vertices[i].normal[1], ==, 0.0f);
          g_assert_cmpfloat (vertices[i].normal[2], ==, 1.0f);
          box_include (&expected, vertices[i].point);
        }

      indices = terrain_atlas_geometry_get_indices (geometry, &n_indices);
      if (f->spec->ulrich)
        g_assert_cmpmem (indices, n_indices * 2, strip_as_list, sizeof strip_as_list);
      else
        g_assert_cmpuint (n_indices, ==, CHU_LIST_INDICES);
      g_assert_cmpuint (terrain_atlas_geometry_get_skirt_skip_count (geometry), ==, 0);
      g_assert_cmpuint (terrain_atlas_geometry_get_previous_chunk (geometry), ==, 0);
      g_assert_cmpuint (terrain_atlas_stub_get_generation (stub), ==, 0);

      /* Bounds: own vertices plus the four children, in chunk and stub. */
      if (level + 1 < f->spec->depth)
        for (guint i = 0; i < 4; i++)
          {
            const TerrainAtlasBox *child = &boxes[terrain_test_node_id (level + 1, 2 * x + (i & 1),
                                                           2 * y + (i >> 1))];

            box_include (&expected, child->min);
            box_include (&expected, child->max);
          }
      terrain_atlas_geometry_get_bounds (geometry, &chunk_box);
      g_assert_true (terrain_atlas_stub_get_bounds (stub, &stub_box));
      g_assert_cmpmem (&chunk_box, sizeof chunk_box, &expected, sizeof expected);
      g_assert_cmpmem (&stub_box, sizeof stub_box, &expected, sizeof expected);
      boxes[node] = expected;
    }

  for (guint node = 0; node < t->n; node++)
    {
      guint level, x, y;
      gint64 index;
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainAtlasTexture) texture = NULL;
      g_autoptr(TerrainAtlasStub) stub = NULL;

      terrain_test_node_position (node, &level, &x, &y);
      index = terrain_atlas_toc_find_stub (tex, level, x, y);
      g_assert_cmpint (index, ==, node);
      texture = terrain_atlas_file_get_texture (atlas, 1, (guint) index, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (terrain_atlas_texture_get_format (texture), ==,
                        t->spec->kind == TILE_JPEG ? 0 : 2);
      g_assert_true (g_bytes_equal (terrain_atlas_texture_get_data (texture), t->image[node]));
      stub = terrain_atlas_toc_get_stub (tex, (guint) index);
      g_assert_cmpuint (terrain_atlas_stub_get_generation (stub), ==, 0);
    }
}

static void
test_import (gconstpointer data)
{
  const ChuSpec *spec = data;
  ChuFixture f;
  TqtFixture t;
  TqtSpec tspec = tqt_specs[spec->ulrich ? 4 : 1];
  g_autoptr(TerrainChuFile) chu = NULL;
  g_autoptr(TerrainTqtFile) tqt = NULL;
  g_autoptr(TerrainAtlasFile) atlas = NULL;
  g_autoptr(TerrainAtlasFile) reread = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GError) error = NULL;

  tspec.depth = spec->depth;
  tspec.shared = spec->depth > 1 && tspec.shared;
  chu_fixture_init (&f, spec);
  tqt_fixture_init (&t, &tspec);
  chu = chu_load (f.bytes);
  tqt = tqt_load (t.bytes);

  atlas = terrain_chu_import (chu, tqt, 777, TERRAIN_CHU_IMPORT_NONE, &error);
  g_assert_no_error (error);
  check_imported (atlas, &f, &t);

  /* CHU + TQT -> Atlas -> read back: the same vertices (issue 3, "Done"). */
  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (atlas), &error);
  g_assert_no_error (error);
  reread = terrain_atlas_file_new_from_bytes (written, NULL, &error);
  g_assert_no_error (error);
  check_imported (reread, &f, &t);

  /* Every version-140 geometry stub ends with sentinel 0xD0 (§1a, §9b). */
  {
    TerrainAtlasToc *geom = terrain_atlas_file_get_toc (reread, 0);
    const guint8 *all = g_bytes_get_data (written, NULL);

    for (guint i = 0; i < f.n; i++)
      {
        gint64 at = terrain_atlas_toc_get_stub_file_offset (geom, i);

        g_assert_cmpint (at, >, 0);
        g_assert_cmpuint (all[at + 36], ==, 0xD0);
      }
  }

  {
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (reread));

    for (guint i = 0; i < issues->len; i++)
      g_assert_cmpint (terrain_issue_get_severity (issues->pdata[i]), <,
                       TERRAIN_SEVERITY_WARNING);
  }

  chu_fixture_clear (&f);
  tqt_fixture_clear (&t);
}

static void
test_import_collision (void)
{
  ChuFixture f;
  g_autoptr(TerrainChuFile) chu = NULL;
  g_autoptr(TerrainAtlasFile) atlas = NULL;
  g_autoptr(GError) error = NULL;

  chu_fixture_init (&f, &chu_specs[2]);
  chu = chu_load (f.bytes);

  atlas = terrain_chu_import (chu, NULL, 1500, TERRAIN_CHU_IMPORT_COLLISION, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_atlas_file_get_n_tocs (atlas), ==, 1);
  for (guint node = 0; node < f.n; node++)
    {
      guint level, x, y;
      g_autoptr(TerrainAtlasGeometry) geometry = NULL;

      terrain_test_node_position (node, &level, &x, &y);
      geometry = terrain_atlas_file_get_geometry (atlas, 0, node, &error);
      g_assert_no_error (error);
      g_assert_cmpint (terrain_atlas_geometry_has_collision (geometry), ==,
                       level + 1 == f.spec->depth);
      if (level + 1 == f.spec->depth)
        g_assert_cmpuint (terrain_atlas_geometry_get_collision_depth (geometry), ==,
                          CHU_COL_DEPTH);
    }
  g_clear_object (&atlas);

  /* Without the flag no chunk has collision, CHU collision or not. */
  atlas = terrain_chu_import (chu, NULL, 1500, TERRAIN_CHU_IMPORT_NONE, &error);
  g_assert_no_error (error);
  for (guint node = 0; node < f.n; node++)
    {
      g_autoptr(TerrainAtlasGeometry) geometry =
        terrain_atlas_file_get_geometry (atlas, 0, node, &error);

      g_assert_no_error (error);
      g_assert_false (terrain_atlas_geometry_has_collision (geometry));
    }
  chu_fixture_clear (&f);
}

static void
test_import_errors (void)
{
  ChuFixture f;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainAtlasFile) atlas = NULL;

  chu_fixture_init (&f, &chu_specs[0]);

  atlas = terrain_chu_import (NULL, NULL, 1500, TERRAIN_CHU_IMPORT_NONE, &error);
  g_assert_null (atlas);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);

  {
    /* An index naming no vertex loads (a warning) but does not import. */
    gsize index = f.chunk_offset[2] + 4 + 2 + CHU_VERTS * 8 + 4 + 2 * 7;
    g_autoptr(GBytes) b = bytes_with_u16 (f.bytes, index, 200);
    g_autoptr(TerrainChuFile) chu = chu_load (b);

    atlas = terrain_chu_import (chu, NULL, 1500, TERRAIN_CHU_IMPORT_NONE, &error);
    g_assert_null (atlas);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
    g_assert_nonnull (strstr (error->message, "level 1"));
    g_clear_error (&error);
  }
  {
    /* Leaf dimensions that give the chunks no size. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, 16, 0xFFC00000);   /* NaN */
    g_autoptr(TerrainChuFile) chu = chu_load (b);

    atlas = terrain_chu_import (chu, NULL, 1500, TERRAIN_CHU_IMPORT_NONE, &error);
    g_assert_null (atlas);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    g_clear_error (&error);
  }
  {
    /* Leaf dimensions or a vertical scale beyond 32-bit float coordinates. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, 16, 0x7E000000);   /* about 4e37 */
    g_autoptr(GBytes) c = bytes_with_u32 (f.bytes, 12, 0x7F000000);
    g_autoptr(TerrainChuFile) big = chu_load (b);
    g_autoptr(TerrainChuFile) tall = chu_load (c);

    atlas = terrain_chu_import (big, NULL, 1500, TERRAIN_CHU_IMPORT_NONE, &error);
    g_assert_null (atlas);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    g_clear_error (&error);
    atlas = terrain_chu_import (tall, NULL, 1500, TERRAIN_CHU_IMPORT_NONE, &error);
    g_assert_null (atlas);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    g_clear_error (&error);
  }
  {
    /* The mapping functions on their own. */
    g_autoptr(TerrainChuFile) chu = chu_load (f.bytes);
    g_autoptr(TerrainChuChunk) chunk = terrain_chu_file_get_chunk (chu, 0, &error);
    g_autofree TerrainAtlasBox *boxes = NULL;
    g_autofree guint16 *list = NULL;
    guint n, n_indices;

    g_assert_no_error (error);
    boxes = terrain_chu_import_bounds (chu, &n, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (n, ==, f.n);
    /* The root holds the whole terrain, skirts included. */
    g_assert_cmpfloat (boxes[0].max[0], ==, CHU_LEAF * 4);
    g_assert_cmpfloat (boxes[0].min[1], ==, 0.0f);
    g_assert_cmpfloat (boxes[0].min[0], <, 0.0f);
    list = terrain_chu_import_indices (chunk, &n_indices, &error);
    g_assert_no_error (error);
    g_assert_cmpmem (list, n_indices * 2, chunk->indices, chunk->n_indices * 2);
  }
  chu_fixture_clear (&f);
}

static void
test_import_companion (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("terrain-chu-XXXXXX", &error);
  g_autofree char *chu_path = NULL, *upper = NULL, *other = NULL, *exact = NULL;
  g_autoptr(GFile) chu_file = NULL;
  g_autoptr(GFile) found = NULL;

  g_assert_no_error (error);
  chu_path = g_build_filename (dir, "Canyon.chu", NULL);
  upper = g_build_filename (dir, "Canyon.TQT", NULL);
  other = g_build_filename (dir, "canyon.tqt", NULL);
  exact = g_build_filename (dir, "Canyon.tqt", NULL);
  chu_file = g_file_new_for_path (chu_path);

  g_assert_true (g_file_set_contents (chu_path, "CHU3", 4, NULL));
  found = terrain_chu_find_companion_tqt (chu_file, NULL);
  g_assert_null (found);

  /* The stem must match exactly; the extension in any case. */
  g_assert_true (g_file_set_contents (other, "tqt", 4, NULL));
  found = terrain_chu_find_companion_tqt (chu_file, NULL);
  g_assert_null (found);

  g_assert_true (g_file_set_contents (upper, "tqt", 4, NULL));
  found = terrain_chu_find_companion_tqt (chu_file, NULL);
  g_assert_nonnull (found);
  {
    g_autofree char *name = g_file_get_basename (found);
    g_assert_cmpstr (name, ==, "Canyon.TQT");
  }
  g_clear_object (&found);

  g_assert_true (g_file_set_contents (exact, "tqt", 4, NULL));
  found = terrain_chu_find_companion_tqt (chu_file, NULL);
  {
    g_autofree char *name = g_file_get_basename (found);
    g_assert_cmpstr (name, ==, "Canyon.tqt");
  }

  g_unlink (chu_path);
  g_unlink (upper);
  g_unlink (other);
  g_unlink (exact);
  g_rmdir (dir);
}

/* Runs the terrain tool; returns its exit status. */
static gint
run_cli (char       **out,
         char       **err,
         const char  *first,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *arg;
  gint status = -1;
  va_list args;

  g_ptr_array_add (argv, (gpointer) g_getenv ("TERRAIN_CLI"));
  va_start (args, first);
  for (arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err,
                &status, &error);
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

static void
test_import_cli (void)
{
  ChuFixture f;
  TqtFixture t;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *chu_path = NULL, *tqt_path = NULL, *out_path = NULL, *lone = NULL;
  const char *tools[] = { "info", "validate", "roundtrip" };

  if (g_getenv ("TERRAIN_CLI") == NULL)
    {
      g_test_skip ("TERRAIN_CLI is not set (run the test through meson)");
      return;
    }

  chu_fixture_init (&f, &chu_specs[1]);
  tqt_fixture_init (&t, &tqt_specs[0]);
  dir = g_dir_make_tmp ("terrain-chu-cli-XXXXXX", &error);
  g_assert_no_error (error);
  chu_path = g_build_filename (dir, "Canyon.chu", NULL);
  tqt_path = g_build_filename (dir, "Canyon.Tqt", NULL);
  out_path = g_build_filename (dir, "canyon.atlas", NULL);
  lone = g_build_filename (dir, "lone.atlas", NULL);
  g_assert_true (g_file_set_contents (chu_path, g_bytes_get_data (f.bytes, NULL),
                                      (gssize) g_bytes_get_size (f.bytes), NULL));
  g_assert_true (g_file_set_contents (tqt_path, g_bytes_get_data (t.bytes, NULL),
                                      (gssize) g_bytes_get_size (t.bytes), NULL));

  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    {
      g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;

      g_assert_cmpint (run_cli (&out, &err, tools[i], chu_path, NULL), ==, 0);
      g_assert_cmpint (run_cli (&out2, &err2, tools[i], tqt_path, NULL), ==, 0);
    }

  /* The companion Canyon.Tqt is found beside Canyon.chu. */
  {
    g_autofree char *out = NULL, *err = NULL;
    g_autoptr(GFile) file = g_file_new_for_path (out_path);
    g_autoptr(TerrainDocument) doc = NULL;

    g_assert_cmpint (run_cli (&out, &err, "import-chu", "--goal-batch-size", "777", chu_path,
                              out_path, NULL), ==, 0);
    g_assert_nonnull (strstr (err, "Canyon.Tqt"));
    doc = terrain_document_load (file, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (TERRAIN_IS_ATLAS_FILE (doc));
    check_imported (TERRAIN_ATLAS_FILE (doc), &f, &t);
  }
  /* Named explicitly, and refused the wrong way round. */
  {
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (run_cli (&out, &err, "import-chu", "--goal-batch-size", "777", chu_path,
                              tqt_path, out_path, NULL), ==, 0);
  }
  {
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (run_cli (&out, &err, "import-chu", tqt_path, chu_path, out_path, NULL),
                     ==, 2);
    g_assert_cmpint (run_cli (NULL, NULL, "import-chu", chu_path, NULL), ==, 64);
  }
  /* --no-companion: geometry only. */
  {
    g_autofree char *out = NULL, *err = NULL;
    g_autoptr(GFile) file = g_file_new_for_path (lone);
    g_autoptr(TerrainDocument) doc = NULL;

    g_assert_cmpint (run_cli (&out, &err, "import-chu", "--no-companion", chu_path, lone, NULL),
                     ==, 0);
    doc = terrain_document_load (file, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (terrain_atlas_file_get_n_tocs (TERRAIN_ATLAS_FILE (doc)), ==, 1);
  }

  g_unlink (chu_path);
  g_unlink (tqt_path);
  g_unlink (out_path);
  g_unlink (lone);
  g_rmdir (dir);
  chu_fixture_clear (&f);
  tqt_fixture_clear (&t);
}

/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* Pictures and heights                                                */

static guint16
gray16_at (TerrainImage *image,
           guint         x,
           guint         y)
{
  guint16 v;

  memcpy (&v, terrain_image_get_data (image, NULL) + y * terrain_image_get_stride (image) + 2 * x,
          2);
  return v;
}

static const guint8 *
rgba_at (TerrainImage *image,
         guint         x,
         guint         y)
{
  return terrain_image_get_data (image, NULL) + y * terrain_image_get_stride (image) + 4 * x;
}

/* Every CHU fixture draws: a picture and a height grid of the same size. */
static void
test_chu_picture (gconstpointer data)
{
  ChuFixture f;
  g_autoptr(TerrainChuFile) chu = NULL;
  g_autoptr(TerrainImage) picture = NULL;
  g_autoptr(TerrainImage) heights = NULL;
  g_autoptr(GError) error = NULL;

  chu_fixture_init (&f, data);
  chu = chu_load (f.bytes);
  picture = terrain_document_render_image (TERRAIN_DOCUMENT (chu), NULL, &error);
  g_assert_no_error (error);
  heights = terrain_document_export_heights (TERRAIN_DOCUMENT (chu), &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_image_get_format (picture), ==, TERRAIN_IMAGE_RGBA8);
  g_assert_cmpint (terrain_image_get_format (heights), ==, TERRAIN_IMAGE_GRAY16);
  g_assert_cmpuint (terrain_image_get_width (picture), >=, 256);
  g_assert_cmpuint (terrain_image_get_width (picture), ==, terrain_image_get_height (picture));
  g_assert_cmpuint (terrain_image_get_width (heights), ==, terrain_image_get_width (picture));
  chu_fixture_clear (&f);
}

/* A tree of hills: the finest level, assembled, holds the hills where the
 * chunks put them, north (+Y) up. */
static void
test_chu_hills (void)
{
  g_autoptr(GBytes) bytes = terrain_test_chu3_hills (4, 9);
  g_autoptr(TerrainChuFile) chu = chu_load (bytes);
  g_autoptr(TerrainImage) picture = NULL;
  g_autoptr(TerrainImage) heights = NULL;
  g_autoptr(GError) error = NULL;
  guint side, best = 0, bx = 0, by = 0;
  gdouble fmin = G_MAXDOUBLE, fmax = -G_MAXDOUBLE;

  picture = terrain_document_render_image (TERRAIN_DOCUMENT (chu), NULL, &error);
  g_assert_no_error (error);
  heights = terrain_document_export_heights (TERRAIN_DOCUMENT (chu), &error);
  g_assert_no_error (error);
  side = terrain_image_get_width (picture);
  g_assert_cmpuint (side, ==, 256);

  /* Leaves meet without a gap: every pixel is drawn. */
  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      g_assert_cmpuint (rgba_at (picture, x, y)[3], ==, 255);

  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      {
        gdouble f = terrain_test_hills ((x + 0.5) / side, (y + 0.5) / side);

        fmin = MIN (fmin, f);
        fmax = MAX (fmax, f);
        if (gray16_at (heights, x, y) > best)
          {
            best = gray16_at (heights, x, y);
            bx = x;
            by = y;
          }
      }
  g_assert_cmpuint (best, ==, 65535);
  g_assert_cmpfloat (fabs ((bx + 0.5) / side - 0.7), <, 0.03);
  g_assert_cmpfloat (fabs ((by + 0.5) / side - 0.35), <, 0.03);

  /* The grid follows the heights, spread over 0..65535. */
  for (guint y = 0; y < side; y += 7)
    for (guint x = 0; x < side; x += 5)
      {
        gdouble f = terrain_test_hills ((x + 0.5) / side, (y + 0.5) / side);

        g_assert_cmpfloat (fabs (gray16_at (heights, x, y) / 65535.0 - (f - fmin) / (fmax - fmin)),
                           <, 0.05);
      }
}

/* A deep tree is drawn from level 6 (4096 chunks) at most. */
static void
test_chu_picture_deep (void)
{
  g_autoptr(GBytes) bytes = terrain_test_chu3_hills (8, 3);
  g_autoptr(TerrainChuFile) chu = chu_load (bytes);
  g_autoptr(TerrainImage) picture = NULL;
  g_autoptr(GError) error = NULL;

  picture = terrain_document_render_image (TERRAIN_DOCUMENT (chu), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_image_get_width (picture), ==, 256);
  for (guint y = 0; y < 256; y += 3)
    for (guint x = 0; x < 256; x += 3)
      g_assert_cmpuint (rgba_at (picture, x, y)[3], ==, 255);
}

/* Without usable leaf dimensions, chunks have no place. */
static void
test_chu_picture_errors (void)
{
  g_autoptr(GBytes) bytes = terrain_test_chu3_hills (2, 3);
  guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_autoptr(GBytes) bad = NULL;
  g_autoptr(TerrainChuFile) chu = NULL;
  g_autoptr(GError) error = NULL;

  memset (copy + 16, 0, 4);
  bad = g_bytes_new_take (copy, g_bytes_get_size (bytes));
  chu = chu_load (bad);
  g_assert_null (terrain_document_render_image (TERRAIN_DOCUMENT (chu), NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_true (g_str_has_prefix (error->message, "CHU3 header: "));
  g_assert_nonnull (strstr (error->message, "byte offset 16"));
}

static void
assert_same_picture (TerrainImage *actual,
                     TerrainImage *expected,
                     guint         tolerance)
{
  guint side = terrain_image_get_width (expected);
  guint64 difference = 0;

  g_assert_cmpuint (terrain_image_get_width (actual), ==, side);
  g_assert_cmpuint (terrain_image_get_height (actual), ==, terrain_image_get_height (expected));
  for (guint y = 0; y < terrain_image_get_height (expected); y++)
    for (guint x = 0; x < side; x++)
      for (guint c = 0; c < 4; c++)
        difference += ABS (rgba_at (actual, x, y)[c] - rgba_at (expected, x, y)[c]);
  /* The mean difference per channel. */
  g_assert_cmpuint (difference / (4 * (guint64) side * terrain_image_get_height (expected)), <=,
                    tolerance);
}

/* The finest level that fits, assembled: the picture the tree was cut
 * from, each tile where its node says. */
static void
test_tqt_picture (void)
{
  g_autoptr(GBytes) dds = terrain_test_tqt_picture (3, 16, FALSE);
  g_autoptr(GBytes) jpeg = terrain_test_tqt_picture (2, 16, TRUE);
  g_autoptr(TerrainLimits) limits = terrain_limits_new ();
  g_autoptr(GError) error = NULL;

  {
    g_autoptr(TerrainTqtFile) tqt = tqt_load (dds);
    g_autoptr(TerrainImage) picture = terrain_document_render_image (TERRAIN_DOCUMENT (tqt),
                                                                     NULL, &error);
    g_autoptr(TerrainImage) expected = terrain_test_tqt_picture_level (3, 16, 2);

    g_assert_no_error (error);
    assert_same_picture (picture, expected, 0);
    /* Exactly: DDS A8R8G8B8 is lossless. */
    g_assert_cmpmem (rgba_at (picture, 0, 0), 4 * 64 * 64, rgba_at (expected, 0, 0), 4 * 64 * 64);

    g_assert_null (terrain_document_export_heights (TERRAIN_DOCUMENT (tqt), &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
    g_clear_error (&error);
  }

  /* A coarser level when the finest would pass max_image_side. */
  limits->max_image_side = 32;
  {
    g_autoptr(TerrainTqtFile) tqt = terrain_tqt_file_new_from_bytes (dds, limits, &error);
    g_autoptr(TerrainImage) picture = NULL;
    g_autoptr(TerrainImage) expected = terrain_test_tqt_picture_level (3, 16, 1);

    g_assert_no_error (error);
    picture = terrain_document_render_image (TERRAIN_DOCUMENT (tqt), NULL, &error);
    g_assert_no_error (error);
    assert_same_picture (picture, expected, 0);
  }

  /* Ulrich's JPEG tiles. */
  {
    g_autoptr(TerrainTqtFile) tqt = tqt_load (jpeg);
    g_autoptr(TerrainImage) picture = terrain_document_render_image (TERRAIN_DOCUMENT (tqt),
                                                                     NULL, &error);
    g_autoptr(TerrainImage) expected = terrain_test_tqt_picture_level (2, 16, 1);

    g_assert_no_error (error);
    assert_same_picture (picture, expected, 6);
  }
}

static void
test_tqt_picture_errors (void)
{
  TqtFixture f;
  g_autoptr(GError) error = NULL;

  /* No levels, nothing to draw. */
  tqt_fixture_init (&f, &tqt_specs[6]);
  {
    g_autoptr(TerrainTqtFile) tqt = tqt_load (f.bytes);

    g_assert_null (terrain_document_render_image (TERRAIN_DOCUMENT (tqt), NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
    g_clear_error (&error);
  }
  tqt_fixture_clear (&f);

  /* A tile that does not decode names its node and offset. */
  tqt_fixture_init (&f, &tqt_specs[4]);
  {
    g_autoptr(TerrainTqtFile) tqt = tqt_load (f.bytes);

    g_assert_null (terrain_document_render_image (TERRAIN_DOCUMENT (tqt), NULL, &error));
    g_assert_nonnull (error);
    g_assert_true (g_str_has_prefix (error->message, "TQT tile of node (level 0, x 0, y 0) at "
                                                     "byte offset "));
  }
  tqt_fixture_clear (&f);
}

int
main (int   argc,
      char *argv[])
{
  static const struct
  {
    const char *name;
    GTestDataFunc func;
  } chu_tests[] = {
    { "read", test_chu_read },
    { "roundtrip", test_chu_roundtrip },
    { "truncation", test_chu_truncation },
    { "describe", test_chu_describe },
    { "picture", test_chu_picture },
  }, tqt_tests[] = {
    { "read", test_tqt_read },
    { "roundtrip", test_tqt_roundtrip },
    { "truncation", test_tqt_truncation },
    { "describe", test_tqt_describe },
  };

  g_test_init (&argc, &argv, NULL);

  for (guint t = 0; t < G_N_ELEMENTS (chu_tests); t++)
    for (guint s = 0; s < G_N_ELEMENTS (chu_specs); s++)
      {
        g_autofree char *path = g_strdup_printf ("/Terrain/Chu/%s/%s", chu_tests[t].name,
                                                 chu_specs[s].name);

        g_test_add_data_func (path, &chu_specs[s], chu_tests[t].func);
      }
  g_test_add_func ("/Terrain/Chu/sentinels", test_chu_sentinels);
  g_test_add_func ("/Terrain/Chu/invalid", test_chu_invalid);
  g_test_add_func ("/Terrain/Chu/limits", test_chu_limits);
  g_test_add_func ("/Terrain/Chu/validate", test_chu_validate);
  g_test_add_func ("/Terrain/Chu/describe-offset", test_chu_describe_offset);
  g_test_add_func ("/Terrain/Chu/detect", test_chu_detect);
  g_test_add_func ("/Terrain/Chu/mutations", test_chu_mutations);
  g_test_add_func ("/Terrain/Chu/picture-hills", test_chu_hills);
  g_test_add_func ("/Terrain/Chu/picture-deep", test_chu_picture_deep);
  g_test_add_func ("/Terrain/Chu/picture-errors", test_chu_picture_errors);

  for (guint t = 0; t < G_N_ELEMENTS (tqt_tests); t++)
    for (guint s = 0; s < G_N_ELEMENTS (tqt_specs); s++)
      {
        g_autofree char *path = g_strdup_printf ("/Terrain/Tqt/%s/%s", tqt_tests[t].name,
                                                 tqt_specs[s].name);

        g_test_add_data_func (path, &tqt_specs[s], tqt_tests[t].func);
      }
  g_test_add_func ("/Terrain/Tqt/errors", test_tqt_errors);
  g_test_add_func ("/Terrain/Tqt/limits", test_tqt_limits);
  g_test_add_func ("/Terrain/Tqt/validate", test_tqt_validate);
  g_test_add_func ("/Terrain/Tqt/describe-offset", test_tqt_describe_offset);
  g_test_add_func ("/Terrain/Tqt/detect", test_tqt_detect);
  g_test_add_func ("/Terrain/Tqt/mutations", test_tqt_mutations);
  g_test_add_func ("/Terrain/Tqt/picture", test_tqt_picture);
  g_test_add_func ("/Terrain/Tqt/picture-errors", test_tqt_picture_errors);

  for (guint s = 0; s < G_N_ELEMENTS (chu_specs); s++)
    {
      g_autofree char *path = g_strdup_printf ("/Terrain/Chu/import/%s", chu_specs[s].name);

      g_test_add_data_func (path, &chu_specs[s], test_import);
    }
  g_test_add_func ("/Terrain/Chu/import-collision", test_import_collision);
  g_test_add_func ("/Terrain/Chu/import-errors", test_import_errors);
  g_test_add_func ("/Terrain/Chu/import-companion", test_import_companion);
  g_test_add_func ("/Terrain/Chu/import-cli", test_import_cli);

  return g_test_run ();
}
