/* test-atlas-quadrants.c: splitting an Atlas file into quadrants and
 * merging four back, along the quadtree
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <math.h>
#include <string.h>

#include <libterrain.h>

#include "terrain-test-util.h"

/* Rolling hills of 257 × 257 samples, 2 m apart. */
static TerrainHeightfield *
make_field (void)
{
  g_autoptr(GError) error = NULL;
  const guint side = 257;
  TerrainHeightfield *field = terrain_heightfield_new (side, side, 2.0, &error);
  gfloat *data = terrain_heightfield_get_data (field, NULL);

  g_assert_no_error (error);
  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      data[(gsize) y * side + x] =
        (gfloat) (40.0 * sin (x * 0.031) * cos (y * 0.027) + 9.0 * sin ((x + 2 * y) * 0.09));
  return field;
}

static TerrainImage *
make_picture (guint side)
{
  TerrainImage *image = terrain_image_new (TERRAIN_IMAGE_RGBA8, side, side, NULL);
  guint8 *p = terrain_image_get_data (image, NULL);
  gsize stride = terrain_image_get_stride (image);

  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      {
        guint8 *q = p + y * stride + 4 * x;

        q[0] = (guint8) (x * 255 / (side - 1));
        q[1] = (guint8) (y * 255 / (side - 1));
        q[2] = (guint8) ((x ^ y) & 0xff);
        q[3] = 255;
      }
  return image;
}

static void
assert_no_warnings (TerrainAtlasFile *atlas)
{
  g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (atlas));
  gboolean any;

  for (guint i = 0; i < issues->len; i++)
    {
      g_autofree char *line = terrain_issue_to_string (g_ptr_array_index (issues, i));

      g_test_message ("%s", line);
    }
  g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_INFO);
}

/* Depth 4 geometry (1 m at the leaves), a PNG texture tree of depth 3 and
 * the unique-schema config, read back from its bytes. */
static TerrainAtlasFile *
make_atlas (void)
{
  g_autoptr(TerrainHeightfield) field = make_field ();
  g_autoptr(TerrainImage) picture = make_picture (256);
  g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
  g_autoptr(TerrainAtlasFile) built = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  TerrainAtlasFile *atlas;

  terrain_atlas_builder_set_error (builder, 1.0);
  terrain_atlas_builder_set_tree_depth (builder, 4);
  terrain_atlas_builder_set_texture_image (builder, picture);
  terrain_atlas_builder_set_texture_format (builder, TERRAIN_ATLAS_TEXTURE_PNG, 90);
  terrain_atlas_builder_set_tile_size (builder, 64);
  built = terrain_atlas_builder_build (builder, NULL, &error);
  g_assert_no_error (error);
  bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (built), &error);
  g_assert_no_error (error);
  atlas = terrain_atlas_file_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_atlas_file_get_n_tocs (atlas), ==, 3);
  g_assert_cmpuint (terrain_atlas_toc_get_tree_depth (terrain_atlas_file_get_toc (atlas, 0)), ==, 4);
  g_assert_cmpuint (terrain_atlas_toc_get_tree_depth (terrain_atlas_file_get_toc (atlas, 1)), ==, 3);
  return atlas;
}

static TerrainAtlasGeometry *
get_geometry (TerrainAtlasFile *atlas,
              guint             level,
              guint32           x,
              guint32           y)
{
  g_autoptr(GError) error = NULL;
  gint64 stub = terrain_atlas_toc_find_stub (terrain_atlas_file_get_toc (atlas, 0), level, x, y);
  TerrainAtlasGeometry *geometry;

  g_assert_cmpint (stub, >=, 0);
  geometry = terrain_atlas_file_get_geometry (atlas, 0, (guint) stub, &error);
  g_assert_no_error (error);
  return geometry;
}

static GBytes *
get_tile (TerrainAtlasFile *atlas,
          guint             toc,
          guint             level,
          guint32           x,
          guint32           y)
{
  g_autoptr(GError) error = NULL;
  gint64 stub = terrain_atlas_toc_find_stub (terrain_atlas_file_get_toc (atlas, toc), level, x, y);
  GBytes *body;

  g_assert_cmpint (stub, >=, 0);
  body = terrain_atlas_file_get_chunk_body (atlas, toc, (guint) stub, &error);
  g_assert_no_error (error);
  return body;
}

/* @b is @a moved by (dx, dy) with texture coordinates tc_b = scale · tc_a +
 * offset; morph offsets compared when @morph. */
static void
assert_moved (TerrainAtlasGeometry *a,
              TerrainAtlasGeometry *b,
              gdouble               dx,
              gdouble               dy,
              gdouble               scale,
              gdouble               off_x,
              gdouble               off_y,
              gboolean              morph)
{
  guint na, nb, ia, ib;
  const TerrainAtlasVertex *va = terrain_atlas_geometry_get_vertices (a, &na);
  const TerrainAtlasVertex *vb = terrain_atlas_geometry_get_vertices (b, &nb);
  const guint16 *xa = terrain_atlas_geometry_get_indices (a, &ia);
  const guint16 *xb = terrain_atlas_geometry_get_indices (b, &ib);

  g_assert_cmpuint (na, ==, nb);
  g_assert_cmpmem (xa, ia * sizeof *xa, xb, ib * sizeof *xb);
  g_assert_cmpuint (terrain_atlas_geometry_get_skirt_skip_count (a), ==,
                    terrain_atlas_geometry_get_skirt_skip_count (b));
  g_assert_cmpint (terrain_atlas_geometry_has_collision (a), ==,
                   terrain_atlas_geometry_has_collision (b));
  for (guint i = 0; i < na; i++)
    {
      g_assert_cmpfloat_with_epsilon (vb[i].point[0], va[i].point[0] + dx, 1e-3);
      g_assert_cmpfloat_with_epsilon (vb[i].point[1], va[i].point[1] + dy, 1e-3);
      g_assert_cmpfloat (vb[i].point[2], ==, va[i].point[2]);
      g_assert_cmpfloat_with_epsilon (vb[i].tex_coord[0], scale * va[i].tex_coord[0] + off_x, 1e-5);
      g_assert_cmpfloat_with_epsilon (vb[i].tex_coord[1], scale * va[i].tex_coord[1] + off_y, 1e-5);
      for (guint k = 0; k < 3; k++)
        g_assert_cmpfloat (vb[i].normal[k], ==, va[i].normal[k]);
      if (morph)
        g_assert_cmpfloat (vb[i].point_morph_offset[2], ==, va[i].point_morph_offset[2]);
    }
}

static const struct { guint e, n; } where[4] = { { 0, 1 }, { 1, 1 }, { 0, 0 }, { 1, 0 } };

/* Each quarter: the subtree one level up, moved to the origin, textures
 * re-mapped to span it, the new root without morph, tiles byte for byte,
 * valid, and written and read back. */
static void
test_split (void)
{
  g_autoptr(TerrainAtlasFile) atlas = make_atlas ();
  const gdouble half = 128.0 * 2.0;

  for (guint q = 0; q < 4; q++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainAtlasFile) quarter =
        terrain_atlas_file_new_quadrant (atlas, (TerrainAtlasQuadrant) q, &error);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(TerrainAtlasFile) back = NULL;
      guint e = where[q].e, n = where[q].n;

      g_assert_no_error (error);
      g_assert_cmpuint (terrain_atlas_file_get_n_tocs (quarter), ==, 3);
      g_assert_cmpuint (terrain_atlas_toc_get_tree_depth (terrain_atlas_file_get_toc (quarter, 0)), ==, 3);
      g_assert_cmpuint (terrain_atlas_toc_get_tree_depth (terrain_atlas_file_get_toc (quarter, 1)), ==, 2);
      g_assert_cmpint (terrain_atlas_toc_get_kind (terrain_atlas_file_get_toc (quarter, 2)), ==,
                       TERRAIN_ATLAS_TOC_CONFIG);

      for (guint level = 1; level < 4; level++)
        {
          guint32 h = 1u << (level - 1);

          for (guint32 x = 0; x < h; x++)
            for (guint32 y = 0; y < h; y++)
              {
                g_autoptr(TerrainAtlasGeometry) a = get_geometry (atlas, level, e * h + x, n * h + y);
                g_autoptr(TerrainAtlasGeometry) b = get_geometry (quarter, level - 1, x, y);

                assert_moved (a, b, -(gdouble) e * half, -(gdouble) n * half, 2.0, -(gdouble) n,
                              -(1.0 - e), level > 1);
                if (level == 1)
                  {
                    guint nv;
                    const TerrainAtlasVertex *v = terrain_atlas_geometry_get_vertices (b, &nv);

                    for (guint i = 0; i < nv; i++)
                      g_assert_cmpfloat (v[i].point_morph_offset[2], ==, 0.0f);
                  }
              }
        }
      /* Texture tree: tile X is reflected (§4), so the west quarters hold
       * the high X half. */
      for (guint level = 1; level < 3; level++)
        {
          guint32 h = 1u << (level - 1), w = e ? 0 : 1;

          for (guint32 x = 0; x < h; x++)
            for (guint32 y = 0; y < h; y++)
              {
                g_autoptr(GBytes) a = get_tile (atlas, 1, level, w * h + x, n * h + y);
                g_autoptr(GBytes) b = get_tile (quarter, 1, level - 1, x, y);

                g_assert_true (g_bytes_equal (a, b));
              }
        }
      assert_no_warnings (quarter);

      bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (quarter), &error);
      g_assert_no_error (error);
      back = terrain_atlas_file_new_from_bytes (bytes, NULL, &error);
      g_assert_no_error (error);
      assert_no_warnings (back);
      {
        TerrainAtlasBox box;
        g_autoptr(TerrainAtlasGeometry) root = get_geometry (back, 0, 0, 0);

        g_assert_true (terrain_atlas_geometry_compute_bounds (root, &box));
        g_assert_cmpfloat_with_epsilon (box.min[0], 0.0, 1e-3);
        g_assert_cmpfloat_with_epsilon (box.min[1], 0.0, 1e-3);
        g_assert_cmpfloat_with_epsilon (box.max[0], half, 1e-3);
        g_assert_cmpfloat_with_epsilon (box.max[1], half, 1e-3);
      }
    }
}

/* Split, then merged: every chunk below the root is the original one (the
 * old roots' morph offsets now aim at the new root, within twice its
 * error), the texture tiles below the root are the original bytes, and
 * the new root spans the whole terrain within its error. */
static void
test_merge (void)
{
  g_autoptr(TerrainAtlasFile) atlas = make_atlas ();
  TerrainAtlasFile *quarters[4];
  g_autoptr(TerrainAtlasFile) merged = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainAtlasFile) back = NULL;
  g_autoptr(GError) error = NULL;
  gdouble root_error = 0.0;

  for (guint q = 0; q < 4; q++)
    {
      quarters[q] = terrain_atlas_file_new_quadrant (atlas, (TerrainAtlasQuadrant) q, &error);
      g_assert_no_error (error);
    }
  /* The derived error: twice the quarters' largest level-1 morph. */
  for (guint q = 0; q < 4; q++)
    for (guint k = 0; k < 4; k++)
      {
        g_autoptr(TerrainAtlasGeometry) g = get_geometry (quarters[q], 1, k >> 1, k & 1);
        guint nv;
        const TerrainAtlasVertex *v = terrain_atlas_geometry_get_vertices (g, &nv);

        for (guint i = 0; i < nv; i++)
          root_error = MAX (root_error, 2.0 * fabs (v[i].point_morph_offset[2]));
      }
  g_assert_cmpfloat (root_error, >, 0.0);

  merged = terrain_atlas_file_new_merged (quarters[0], quarters[1], quarters[2], quarters[3],
                                          0.0, 90, &error);
  g_assert_no_error (error);
  g_assert_nonnull (merged);
  g_assert_cmpuint (terrain_atlas_file_get_n_tocs (merged), ==, 3);
  g_assert_cmpuint (terrain_atlas_toc_get_tree_depth (terrain_atlas_file_get_toc (merged, 0)), ==, 4);
  g_assert_cmpuint (terrain_atlas_toc_get_tree_depth (terrain_atlas_file_get_toc (merged, 1)), ==, 3);

  for (guint level = 1; level < 4; level++)
    for (guint32 x = 0; x < (1u << level); x++)
      for (guint32 y = 0; y < (1u << level); y++)
        {
          g_autoptr(TerrainAtlasGeometry) a = get_geometry (atlas, level, x, y);
          g_autoptr(TerrainAtlasGeometry) b = get_geometry (merged, level, x, y);

          assert_moved (a, b, 0.0, 0.0, 1.0, 0.0, 0.0, level > 1);
          if (level == 1)
            {
              guint nv;
              const TerrainAtlasVertex *v = terrain_atlas_geometry_get_vertices (b, &nv);
              gboolean moved = FALSE;

              for (guint i = 0; i < nv; i++)
                {
                  g_assert_true (isfinite (v[i].point_morph_offset[2]));
                  g_assert_cmpfloat (fabs (v[i].point_morph_offset[2]), <=, 2.0 * root_error + 1e-3);
                  moved = moved || v[i].point_morph_offset[2] != 0.0f;
                }
              g_assert_true (moved);
            }
        }
  for (guint level = 1; level < 3; level++)
    for (guint32 x = 0; x < (1u << level); x++)
      for (guint32 y = 0; y < (1u << level); y++)
        {
          g_autoptr(GBytes) a = get_tile (atlas, 1, level, x, y);
          g_autoptr(GBytes) b = get_tile (merged, 1, level, x, y);

          g_assert_true (g_bytes_equal (a, b));
        }

  /* The new root: the whole terrain, every vertex within its error of the
   * original leaves' surface, i.e. of the heights the original root
   * follows. */
  {
    g_autoptr(TerrainAtlasGeometry) root = get_geometry (merged, 0, 0, 0);
    g_autoptr(TerrainAtlasGeometry) old = get_geometry (atlas, 0, 0, 0);
    TerrainAtlasBox box, old_box;
    guint nv;
    const TerrainAtlasVertex *v = terrain_atlas_geometry_get_vertices (root, &nv);

    g_assert_true (terrain_atlas_geometry_compute_bounds (root, &box));
    g_assert_true (terrain_atlas_geometry_compute_bounds (old, &old_box));
    for (guint k = 0; k < 2; k++)
      {
        g_assert_cmpfloat_with_epsilon (box.min[k], old_box.min[k], 1e-3);
        g_assert_cmpfloat_with_epsilon (box.max[k], old_box.max[k], 1e-3);
      }
    g_assert_cmpuint (nv, >, 8);
    for (guint i = 0; i < nv; i++)
      {
        g_assert_cmpfloat (v[i].point_morph_offset[2], ==, 0.0f);
        /* §9b: texCoord = (Y / height, 1 − X / width). */
        g_assert_cmpfloat_with_epsilon (v[i].tex_coord[0], v[i].point[1] / 512.0, 1e-5);
        g_assert_cmpfloat_with_epsilon (v[i].tex_coord[1], 1.0 - v[i].point[0] / 512.0, 1e-5);
      }
  }

  assert_no_warnings (merged);
  bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (merged), &error);
  g_assert_no_error (error);
  back = terrain_atlas_file_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  assert_no_warnings (back);

  for (guint q = 0; q < 4; q++)
    g_object_unref (quarters[q]);
}

/* What cannot be split or merged says which part and why. */
static void
test_refusals (void)
{
  g_autoptr(TerrainAtlasFile) atlas = make_atlas ();
  g_autoptr(TerrainAtlasFile) quarter = NULL;
  g_autoptr(TerrainAtlasFile) smaller = NULL;
  g_autoptr(TerrainAtlasFile) none = NULL;
  g_autoptr(GError) error = NULL;

  quarter = terrain_atlas_file_new_quadrant (atlas, TERRAIN_ATLAS_QUADRANT_SOUTH_EAST, &error);
  g_assert_no_error (error);
  smaller = terrain_atlas_file_new_quadrant (quarter, TERRAIN_ATLAS_QUADRANT_NORTH_WEST, &error);
  g_assert_no_error (error);

  /* Depths 3 and 2 do not merge. */
  none = terrain_atlas_file_new_merged (quarter, quarter, quarter, smaller, 0.0, 90, &error);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "south-east"));
  g_assert_null (none);
  g_clear_error (&error);

  none = terrain_atlas_file_new_merged (quarter, quarter, quarter, quarter, -1.0, 90, &error);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_null (none);
  g_clear_error (&error);

  /* A tree of one level has no quarter: here the texture tree of the
   * quarter of a quarter (geometry depth 2, texture depth 1). */
  none = terrain_atlas_file_new_quadrant (smaller, TERRAIN_ATLAS_QUADRANT_NORTH_WEST, &error);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "TOC 1 (Tex) has 1 level"));
  g_assert_nonnull (strstr (error->message, "two levels"));
  g_assert_null (none);
}

/* The CLI: `atlas split` writes the four quarters next to a prefix, and
 * `atlas merge` puts them back: a valid file of the first depth whose
 * leaves are the original ones. */
static void
test_cli (void)
{
  g_autoptr(TerrainAtlasFile) atlas = make_atlas ();
  g_autofree char *dir = terrain_test_make_tmp_dir ("atlas-quadrants");
  g_autofree char *path = g_build_filename (dir, "hills.atlas", NULL);
  g_autofree char *merged_path = g_build_filename (dir, "merged.atlas", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (atlas), &error);
  g_autoptr(TerrainAtlasFile) merged = NULL;
  g_autoptr(GBytes) merged_bytes = NULL;
  const char *const names[4] = { "hills-nw.atlas", "hills-ne.atlas", "hills-sw.atlas",
                                 "hills-se.atlas" };

  g_assert_no_error (error);
  terrain_test_write_bytes (path, bytes);
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (dir, "atlas", "split", "hills.atlas",
                                                            NULL);

    g_assert_cmpint (r.status, ==, 0);
    for (guint q = 0; q < 4; q++)
      g_assert_nonnull (strstr (r.out, names[q]));
  }
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (dir, "atlas", "merge", names[0], names[1], names[2], names[3], "-o",
                            "merged.atlas", NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "depth 4"));
  }
  merged_bytes = terrain_test_read_bytes (merged_path);
  merged = terrain_atlas_file_new_from_bytes (merged_bytes, NULL, &error);
  g_assert_no_error (error);
  assert_no_warnings (merged);
  {
    g_autoptr(TerrainAtlasGeometry) a = get_geometry (atlas, 3, 5, 2);
    g_autoptr(TerrainAtlasGeometry) b = get_geometry (merged, 3, 5, 2);

    assert_moved (a, b, 0.0, 0.0, 1.0, 0.0, 0.0, TRUE);
  }
  /* Three files, or a negative error, are usage errors (64). */
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (dir, "atlas", "merge", names[0], names[1], names[2], "-o", "x.atlas",
                            NULL);

    g_assert_cmpint (r.status, ==, 64);
  }
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (dir, "atlas", "merge", names[0], names[1], names[2], names[3],
                            "--error=-1", "-o", "x.atlas", NULL);

    g_assert_cmpint (r.status, ==, 64);
  }
  terrain_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/Terrain/AtlasQuadrants/split", test_split);
  g_test_add_func ("/Terrain/AtlasQuadrants/merge", test_merge);
  g_test_add_func ("/Terrain/AtlasQuadrants/refusals", test_refusals);
  g_test_add_func ("/Terrain/AtlasQuadrants/cli", test_cli);
  return g_test_run ();
}
