/* test-chu.c: chunked-LOD geometry (.chu): reading, byte-exact writing, errors,
 * validation, description and pictures
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * No public .chu file could be obtained, so every test builds its files from
 * atlas-chu-tqt.md §9 (TGEA's CHU3 v400) and field-notes.md with Ulrich's
 * chunklod sources (CHU\0 v9 with triangle strips): sorted, shuffled and
 * reversed stub and chunk orders, collision blocks, gaps and trailing bytes
 * (test-chu-tqt-fixture.c). Texture quadtrees are in test-tqt.c, imports
 * into Atlas files in test-chu-import.c.
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
    /* Ulrich: the count heightfield_chunker stores, which takes strip
     * triangles (2, 5, 5) and (5, 3, 3) for real ones: 10 where the
     * indices give 8, clean for that variant; 9 is neither and warns. */
    gsize tri = u.chunk_offset[node] + 2 + CHU_VERTS * 8 + 4 + N_STRIP_INDICES * 2;

    for (guint32 count = 9; count <= 10; count++)
      {
        g_autoptr(GBytes) b = bytes_with_u32 (u.bytes, tri, count);
        g_autoptr(TerrainChuFile) chu = chu_load (b);
        g_autoptr(TerrainChuChunk) chunk = terrain_chu_file_get_chunk (chu, u.stub_of_node[node], NULL);
        g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (chu));

        g_assert_cmpuint (chunk->tri_count, ==, count);
        g_assert_cmpuint (issues->len, ==, count == 10 ? 0 : 1);
        if (count == 9)
          g_assert_nonnull (strstr (terrain_issue_get_message (issues->pdata[0]), "triangle count 9"));
      }
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

  return g_test_run ();
}
