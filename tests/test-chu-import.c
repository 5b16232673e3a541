/* test-chu-import.c: .chu geometry and its .tqt textures imported into Atlas files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The fixtures are test-chu-tqt-fixture.c's (atlas-chu-tqt.md §9); the
 * import follows §9b-§9d, through the library and `terrain import-chu`.
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
      g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, tools[i], chu_path, NULL);
      g_auto(TerrainTestCliResult) r2 = terrain_test_run_cli (NULL, tools[i], tqt_path, NULL);

      g_assert_cmpint (r.status, ==, 0);
      g_assert_cmpint (r2.status, ==, 0);
    }

  /* The companion Canyon.Tqt is found beside Canyon.chu. */
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "import-chu",
                                                           "--goal-batch-size", "777", chu_path,
                                                           out_path, NULL);
    g_autoptr(GFile) file = g_file_new_for_path (out_path);
    g_autoptr(TerrainDocument) doc = NULL;

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.err, "Canyon.Tqt"));
    doc = terrain_document_load (file, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (TERRAIN_IS_ATLAS_FILE (doc));
    check_imported (TERRAIN_ATLAS_FILE (doc), &f, &t);
  }
  /* Named explicitly, and refused the wrong way round. */
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "import-chu",
                                                           "--goal-batch-size", "777", chu_path,
                                                           tqt_path, out_path, NULL);

    g_assert_cmpint (r.status, ==, 0);
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "import-chu", tqt_path,
                                                           chu_path, out_path, NULL);
    g_auto(TerrainTestCliResult) usage = terrain_test_run_cli (NULL, "import-chu", chu_path,
                                                               NULL);

    g_assert_cmpint (r.status, ==, 2);
    g_assert_cmpint (usage.status, ==, 64);
  }
  /* --no-companion: geometry only. */
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "import-chu", "--no-companion",
                                                           chu_path, lone, NULL);
    g_autoptr(GFile) file = g_file_new_for_path (lone);
    g_autoptr(TerrainDocument) doc = NULL;

    g_assert_cmpint (r.status, ==, 0);
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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

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
