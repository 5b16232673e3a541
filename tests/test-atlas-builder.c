/* test-atlas-builder.c: building Atlas files from heightfields and images
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every built file is read back with the Atlas reader and checked against
 * the invariants atlas-chu-tqt.md and field-notes.md state: it validates
 * without warnings; every stub's bounds hold its chunk's vertices and its
 * children's bounds; the finest level is within the error threshold of
 * every heightfield sample and covers all of them; neighbouring chunks of a
 * level share their border vertices exactly (no cracks); collision bins
 * list every surface triangle and equal what the reference collision
 * generator makes; chunks stay within 16-bit indices; texture tiles sit
 * where the geometry is. Real heightfields under TERRAIN_CORPUS_DIR are
 * built too (shallow trees, to stay quick).
 */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include "libterrain.h"

static const char *
corpus_dir (void)
{
  const char *dir = g_getenv ("TERRAIN_CORPUS_DIR");

  return dir != NULL && g_file_test (dir, G_FILE_TEST_IS_DIR) ? dir : NULL;
}

/* Smooth hills plus fine noise, from a fixed seed. */
static TerrainHeightfield *
make_field (guint   width,
            guint   height,
            gdouble spacing,
            gdouble relief,
            gdouble noise,
            guint32 seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GError) error = NULL;
  TerrainHeightfield *field = terrain_heightfield_new (width, height, spacing, &error);
  gfloat *data = terrain_heightfield_get_data (field, NULL);
  gdouble fx = g_rand_double_range (rand, 0.02, 0.05), fy = g_rand_double_range (rand, 0.02, 0.05);

  g_assert_no_error (error);
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      data[(gsize) y * width + x] =
        (gfloat) (relief * (sin (x * fx) * cos (y * fy) + 0.3 * sin ((x + 2 * y) * 0.11)) +
                  g_rand_double_range (rand, -noise, noise));
  return field;
}

static void
assert_no_warnings (TerrainDocument *document)
{
  g_autoptr(GPtrArray) issues = terrain_document_validate (document);
  gboolean any;

  for (guint i = 0; i < issues->len; i++)
    {
      g_autofree char *line = terrain_issue_to_string (g_ptr_array_index (issues, i));

      g_test_message ("%s", line);
    }
  g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_INFO);
}

static TerrainAtlasFile *
build (TerrainAtlasBuilder *builder)
{
  g_autoptr(GError) error = NULL;
  TerrainAtlasFile *atlas = terrain_atlas_builder_build (builder, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (atlas);
  assert_no_warnings (TERRAIN_DOCUMENT (atlas));
  return atlas;
}

static TerrainAtlasGeometry *
get_geometry (TerrainAtlasFile *atlas,
              guint             toc,
              guint             level,
              guint32           x,
              guint32           y)
{
  g_autoptr(GError) error = NULL;
  gint64 stub = terrain_atlas_toc_find_stub (terrain_atlas_file_get_toc (atlas, toc), level, x, y);
  TerrainAtlasGeometry *geometry;

  g_assert_cmpint (stub, >=, 0);
  geometry = terrain_atlas_file_get_geometry (atlas, toc, (guint) stub, &error);
  g_assert_no_error (error);
  return geometry;
}

static gboolean
box_holds_point (const TerrainAtlasBox *box,
                 const gfloat          *p)
{
  for (guint c = 0; c < 3; c++)
    if (p[c] < box->min[c] || p[c] > box->max[c])
      return FALSE;
  return TRUE;
}

/* Bounds: each stub's box holds its chunk's vertices (where they start and
 * where they morph to) and its children's boxes; chunk and stub agree. */
static void
check_bounds (TerrainAtlasFile *atlas)
{
  TerrainAtlasToc *toc = terrain_atlas_file_get_toc (atlas, 0);
  guint depth = terrain_atlas_toc_get_tree_depth (toc);

  for (guint level = 0; level < depth; level++)
    for (guint32 x = 0; x < (1u << level); x++)
      for (guint32 y = 0; y < (1u << level); y++)
        {
          g_autoptr(TerrainAtlasGeometry) geometry = get_geometry (atlas, 0, level, x, y);
          g_autoptr(TerrainAtlasStub) stub = terrain_atlas_toc_get_stub (toc,
                                                               (guint) terrain_atlas_toc_find_stub (toc, level, x, y));
          TerrainAtlasBox box, chunk;
          guint n;
          const TerrainAtlasVertex *v = terrain_atlas_geometry_get_vertices (geometry, &n);

          g_assert_true (terrain_atlas_stub_get_bounds (stub, &box));
          terrain_atlas_geometry_get_bounds (geometry, &chunk);
          g_assert_true (terrain_atlas_box_equal (&box, &chunk));
          g_assert_cmpuint (n, >, 0);
          g_assert_cmpuint (n, <=, 65535);
          for (guint i = 0; i < n; i++)
            {
              gfloat to[3] = { v[i].point[0], v[i].point[1],
                               v[i].point[2] + v[i].point_morph_offset[2] };

              g_assert_true (box_holds_point (&box, v[i].point));
              g_assert_true (box_holds_point (&box, to));
            }
          if (level + 1 < depth)
            for (guint k = 0; k < 4; k++)
              {
                g_autoptr(TerrainAtlasStub) child =
                  terrain_atlas_toc_get_stub (toc, (guint) terrain_atlas_toc_find_stub (toc, level + 1,
                                                                                        2 * x + (k >> 1),
                                                                                        2 * y + (k & 1)));
                TerrainAtlasBox inner;

                g_assert_true (terrain_atlas_stub_get_bounds (child, &inner));
                g_assert_true (terrain_atlas_box_contains (&box, &inner));
              }
        }
}

/* The finest level against the heightfield: every sample lies in some leaf
 * triangle and within @error (plus float rounding) of its plane. Returns the
 * largest difference. */
static gdouble
check_leaf_heights (TerrainAtlasFile   *atlas,
                    TerrainHeightfield *field,
                    gdouble             error)
{
  TerrainAtlasToc *toc = terrain_atlas_file_get_toc (atlas, 0);
  guint depth = terrain_atlas_toc_get_tree_depth (toc);
  guint side = terrain_heightfield_get_width (field);
  gdouble spacing = terrain_heightfield_get_spacing (field), worst = 0.0;
  g_autofree guint8 *covered = g_malloc0 ((gsize) side * side);
  guint level = depth - 1;

  for (guint32 x = 0; x < (1u << level); x++)
    for (guint32 y = 0; y < (1u << level); y++)
      {
        g_autoptr(TerrainAtlasGeometry) geometry = get_geometry (atlas, 0, level, x, y);
        guint n, n_indices;
        const TerrainAtlasVertex *v = terrain_atlas_geometry_get_vertices (geometry, &n);
        const guint16 *index = terrain_atlas_geometry_get_indices (geometry, &n_indices);
        guint surface = n_indices - terrain_atlas_geometry_get_skirt_skip_count (geometry);

        for (guint k = 0; k + 2 < surface; k += 3)
          {
            gdouble gx[3], gy[3], z[3], area;
            gint64 x0, x1, y0, y1;

            for (guint c = 0; c < 3; c++)
              {
                gx[c] = v[index[k + c]].point[0] / spacing;
                gy[c] = (side - 1) - v[index[k + c]].point[1] / spacing;
                z[c] = v[index[k + c]].point[2];
              }
            /* Counter-clockwise seen from above (world Y = −row). */
            area = (gx[1] - gx[0]) * (-(gy[2] - gy[0])) - (-(gy[1] - gy[0])) * (gx[2] - gx[0]);
            g_assert_cmpfloat (area, >, 0.0);

            x0 = (gint64) floor (MIN (MIN (gx[0], gx[1]), gx[2]) + 1e-6);
            x1 = (gint64) ceil (MAX (MAX (gx[0], gx[1]), gx[2]) - 1e-6);
            y0 = (gint64) floor (MIN (MIN (gy[0], gy[1]), gy[2]) + 1e-6);
            y1 = (gint64) ceil (MAX (MAX (gy[0], gy[1]), gy[2]) - 1e-6);
            for (gint64 py = y0; py <= y1; py++)
              for (gint64 px = x0; px <= x1; px++)
                {
                  gdouble d = (gx[1] - gx[0]) * (gy[2] - gy[0]) - (gx[2] - gx[0]) * (gy[1] - gy[0]);
                  gdouble w1 = ((px - gx[0]) * (gy[2] - gy[0]) - (gx[2] - gx[0]) * (py - gy[0])) / d;
                  gdouble w2 = ((gx[1] - gx[0]) * (py - gy[0]) - (px - gx[0]) * (gy[1] - gy[0])) / d;
                  gdouble w0 = 1.0 - w1 - w2, h, diff;

                  if (w0 < -1e-6 || w1 < -1e-6 || w2 < -1e-6)
                    continue;
                  h = terrain_heightfield_get_sample (field, (guint) px, (guint) py);
                  diff = fabs (h - (w0 * z[0] + w1 * z[1] + w2 * z[2]));
                  worst = MAX (worst, diff);
                  g_assert_cmpfloat (diff, <=, error + 1e-3 * MAX (1.0, fabs (h)) * 0.01 + 1e-4);
                  covered[py * side + px] = 1;
                }
          }
      }

  for (gsize i = 0; i < (gsize) side * side; i++)
    g_assert_cmpuint (covered[i], ==, 1);
  return worst;
}

typedef struct
{
  gfloat along;
  gfloat z;
  gfloat morph;
} EdgeVertex;

static gint
compare_edge (gconstpointer a,
              gconstpointer b)
{
  const EdgeVertex *p = a, *q = b;

  return p->along < q->along ? -1 : p->along > q->along;
}

/* The surface vertices of a chunk on the line X = @value (axis 0) or
 * Y = @value (axis 1), ordered along it. */
static GArray *
edge_vertices (TerrainAtlasGeometry *geometry,
               guint                 axis,
               gfloat                value)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (EdgeVertex));
  guint n, n_indices;
  const TerrainAtlasVertex *v = terrain_atlas_geometry_get_vertices (geometry, &n);
  const guint16 *index = terrain_atlas_geometry_get_indices (geometry, &n_indices);
  guint surface = n_indices - terrain_atlas_geometry_get_skirt_skip_count (geometry);
  g_autofree guint8 *seen = g_malloc0 (n);

  for (guint k = 0; k < surface; k++)
    {
      const TerrainAtlasVertex *p = &v[index[k]];
      EdgeVertex e;

      if (seen[index[k]] || p->point[axis] != value)
        continue;
      seen[index[k]] = 1;
      e.along = p->point[1 - axis];
      e.z = p->point[2];
      e.morph = p->point_morph_offset[2];
      g_array_append_val (out, e);
    }
  g_array_sort (out, compare_edge);
  return out;
}

/* Neighbours on a level share their border vertices: same positions,
 * heights and morph offsets. */
static void
check_cracks (TerrainAtlasFile *atlas)
{
  TerrainAtlasToc *toc = terrain_atlas_file_get_toc (atlas, 0);
  guint depth = terrain_atlas_toc_get_tree_depth (toc);

  for (guint level = 1; level < depth; level++)
    for (guint32 x = 0; x < (1u << level); x++)
      for (guint32 y = 0; y < (1u << level); y++)
        for (guint axis = 0; axis < 2; axis++)
          {
            g_autoptr(TerrainAtlasGeometry) a = NULL;
            g_autoptr(TerrainAtlasGeometry) b = NULL;
            g_autoptr(GArray) ea = NULL;
            g_autoptr(GArray) eb = NULL;
            TerrainAtlasBox box;
            guint32 nx = axis == 0 ? x + 1 : x, ny = axis == 1 ? y + 1 : y;

            if (nx >= (1u << level) || ny >= (1u << level))
              continue;
            a = get_geometry (atlas, 0, level, x, y);
            b = get_geometry (atlas, 0, level, nx, ny);
            /* The shared line: the max X (or Y) of a's surface. */
            terrain_atlas_geometry_compute_bounds (a, &box);
            ea = edge_vertices (a, axis, box.max[axis]);
            eb = edge_vertices (b, axis, box.max[axis]);
            g_assert_cmpuint (ea->len, >=, 2);
            g_assert_cmpuint (ea->len, ==, eb->len);
            g_assert_cmpmem (ea->data, ea->len * sizeof (EdgeVertex),
                             eb->data, eb->len * sizeof (EdgeVertex));
          }
}

/* Collision: every surface triangle in some bin, nothing else listed, and
 * the same block the library's reference generator makes. */
static void
check_collision (TerrainAtlasFile *atlas,
                 guint             expected_depth)
{
  TerrainAtlasToc *toc = terrain_atlas_file_get_toc (atlas, 0);
  guint level = terrain_atlas_toc_get_tree_depth (toc) - 1;

  for (guint32 x = 0; x < (1u << level); x++)
    for (guint32 y = 0; y < (1u << level); y++)
      {
        g_autoptr(TerrainAtlasGeometry) geometry = get_geometry (atlas, 0, level, x, y);
        g_autoptr(TerrainAtlasGeometry) reference = NULL;
        g_autoptr(GError) error = NULL;
        guint n_indices, n_offsets, n_entries, n_nodes, r_offsets, r_entries, r_nodes;
        const guint16 *entries, *offsets;
        const gfloat *tree;
        guint surface;
        g_autofree guint8 *listed = NULL;

        terrain_atlas_geometry_get_indices (geometry, &n_indices);
        surface = n_indices - terrain_atlas_geometry_get_skirt_skip_count (geometry);
        g_assert_true (terrain_atlas_geometry_has_collision (geometry));
        g_assert_cmpuint (terrain_atlas_geometry_get_collision_depth (geometry), ==,
                          expected_depth);
        entries = terrain_atlas_geometry_get_collision_indices (geometry, &n_entries);
        offsets = terrain_atlas_geometry_get_collision_offsets (geometry, &n_offsets);
        tree = terrain_atlas_geometry_get_collision_tree (geometry, &n_nodes);
        listed = g_malloc0 (surface / 3 + 1);
        for (guint i = 0; i < n_entries; i++)
          if (entries[i] != 0xFFFF)
            {
              g_assert_cmpuint (entries[i] % 3, ==, 0);
              g_assert_cmpuint (entries[i], <, surface);
              listed[entries[i] / 3] = 1;
            }
        for (guint t = 0; t < surface / 3; t++)
          g_assert_cmpuint (listed[t], ==, 1);

        reference = terrain_atlas_geometry_copy (geometry);
        g_assert_true (terrain_atlas_geometry_generate_collision (reference, expected_depth,
                                                                  &error));
        g_assert_no_error (error);
        g_assert_cmpmem (entries, n_entries * 2,
                         terrain_atlas_geometry_get_collision_indices (reference, &r_entries),
                         r_entries * 2);
        g_assert_cmpmem (offsets, n_offsets * 2,
                         terrain_atlas_geometry_get_collision_offsets (reference, &r_offsets),
                         r_offsets * 2);
        g_assert_cmpmem (tree, n_nodes * 8,
                         terrain_atlas_geometry_get_collision_tree (reference, &r_nodes),
                         r_nodes * 8);
      }
}

static void
test_geometry (void)
{
  g_autoptr(TerrainHeightfield) field = make_field (129, 129, 2.0, 20.0, 0.3, 1);
  g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
  g_autoptr(TerrainAtlasFile) atlas = NULL;
  const TerrainAtlasBuildStats *stats;
  TerrainAtlasToc *toc;
  gdouble worst;

  terrain_atlas_builder_set_error (builder, 0.25);
  terrain_atlas_builder_set_tree_depth (builder, 3);
  terrain_atlas_builder_set_measure_error (builder, TRUE);
  terrain_atlas_builder_set_goal_batch_size (builder, 1234);
  atlas = build (builder);
  stats = terrain_atlas_builder_get_stats (builder);

  g_assert_cmpuint (terrain_atlas_file_get_n_tocs (atlas), ==, 1);
  toc = terrain_atlas_file_get_toc (atlas, 0);
  g_assert_cmpint (terrain_atlas_toc_get_kind (toc), ==, TERRAIN_ATLAS_TOC_GEOMETRY);
  g_assert_cmpuint (terrain_atlas_toc_get_version (toc), ==, 140);
  g_assert_cmpuint (terrain_atlas_toc_get_tree_depth (toc), ==, 3);
  g_assert_cmpuint (terrain_atlas_toc_get_goal_batch_size (toc), ==, 1234);
  g_assert_cmpuint (stats->tree_depth, ==, 3);
  g_assert_cmpuint (stats->leaf_size, ==, 32);
  g_assert_cmpuint (stats->n_chunks, ==, 21);
  g_assert_cmpuint (stats->n_degenerate_triangles, ==, 0);
  g_assert_cmpuint (stats->file_size, ==, terrain_atlas_file_get_size (atlas));
  g_assert_cmpfloat (stats->max_error, <=, 0.25);
  g_assert_cmpfloat (stats->max_error, >, 0.0);

  check_bounds (atlas);
  worst = check_leaf_heights (atlas, field, 0.25);
  g_assert_cmpfloat_with_epsilon (worst, stats->max_error, 1e-3);
  check_cracks (atlas);
  check_collision (atlas, 4);

  /* Normals point up and are unit length; skirts hang below the border and
   * do not morph; the root does not morph. */
  {
    g_autoptr(TerrainAtlasGeometry) root = get_geometry (atlas, 0, 0, 0, 0);
    g_autoptr(TerrainAtlasGeometry) leaf = get_geometry (atlas, 0, 2, 1, 2);
    guint n, n_indices;
    const TerrainAtlasVertex *v = terrain_atlas_geometry_get_vertices (root, &n);
    const guint16 *index;
    guint skirt;

    for (guint i = 0; i < n; i++)
      {
        gdouble len = sqrt (v[i].normal[0] * v[i].normal[0] + v[i].normal[1] * v[i].normal[1] +
                            v[i].normal[2] * v[i].normal[2]);

        g_assert_cmpfloat_with_epsilon (len, 1.0, 1e-5);
        g_assert_cmpfloat (v[i].normal[2], >, 0.0f);
        g_assert_cmpfloat (v[i].point_morph_offset[2], ==, 0.0f);
      }
    v = terrain_atlas_geometry_get_vertices (leaf, &n);
    index = terrain_atlas_geometry_get_indices (leaf, &n_indices);
    skirt = terrain_atlas_geometry_get_skirt_skip_count (leaf);
    g_assert_cmpuint (skirt, >, 0);
    g_assert_cmpuint (skirt % 6, ==, 0);
    for (guint k = n_indices - skirt; k < n_indices; k++)
      {
        const TerrainAtlasVertex *p = &v[index[k]];

        if (p->point_morph_offset[2] == 0.0f)
          continue;
        /* Only surface vertices morph: any morphing vertex of a skirt
         * triangle is its top. */
        g_assert_cmpuint (index[k], <, n - skirt / 6);
      }
  }
}

/* An Atlas's exported heights are north up, like the heightmap it was
 * built from: a grid sloping down from its first row (north) to its last
 * exports with its high side in row 0, and matches the source closely. */
static void
test_export_heights_orientation (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainHeightfield) field = terrain_heightfield_new (65, 65, 1.0, &error);
  gfloat *data = terrain_heightfield_get_data (field, NULL);
  g_autoptr(TerrainAtlasBuilder) builder = NULL;
  g_autoptr(TerrainAtlasFile) atlas = NULL;
  g_autoptr(TerrainImage) heights = NULL;
  const guint8 *pixels;
  gsize stride;
  guint side;

  g_assert_no_error (error);
  /* Down from north to south, and a bump in the north-east corner. */
  for (guint y = 0; y < 65; y++)
    for (guint x = 0; x < 65; x++)
      data[y * 65 + x] = (gfloat) (64 - y) + (x > 48 && y < 16 ? 20.0f : 0.0f);

  builder = terrain_atlas_builder_new (field);
  terrain_atlas_builder_set_tree_depth (builder, 2);
  terrain_atlas_builder_set_error (builder, 0.1);
  atlas = build (builder);
  heights = terrain_document_export_heights (TERRAIN_DOCUMENT (atlas), &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_image_get_format (heights), ==, TERRAIN_IMAGE_GRAY16);
  side = terrain_image_get_width (heights);
  pixels = terrain_image_get_data (heights, NULL);
  stride = terrain_image_get_stride (heights);

#define HEIGHT_AT(x, y) (*(const guint16 *) (gconstpointer) (pixels + (gsize) (y) * stride + 2 * (gsize) (x)))
  /* North (row 0) is high, south (last row) is low. */
  g_assert_cmpuint (HEIGHT_AT (side / 4, 1), >, HEIGHT_AT (side / 4, side - 2));
  /* The bump is in the north-east: top right of the picture. */
  g_assert_cmpuint (HEIGHT_AT (side - 4, 4), >, HEIGHT_AT (4, 4));
  g_assert_cmpuint (HEIGHT_AT (side - 4, 4), >, HEIGHT_AT (side - 4, side - 4));
#undef HEIGHT_AT

  /* Without a texture tree, the picture is the same heights as shaded
   * relief: as large, every pixel covered and opaque. */
  {
    g_autoptr(TerrainImage) picture = terrain_document_render_image (TERRAIN_DOCUMENT (atlas),
                                                                     NULL, &error);
    const guint8 *rgba;

    g_assert_no_error (error);
    g_assert_cmpint (terrain_image_get_format (picture), ==, TERRAIN_IMAGE_RGBA8);
    g_assert_cmpuint (terrain_image_get_width (picture), ==, side);
    g_assert_cmpuint (terrain_image_get_height (picture), ==, side);
    rgba = terrain_image_get_data (picture, NULL);
    for (guint y = 0; y < side; y++)
      for (guint x = 0; x < side; x++)
        g_assert_cmpuint (rgba[(gsize) y * terrain_image_get_stride (picture) + 4 * x + 3], ==,
                          255);
  }
}

static void
test_versions (void)
{
  static const guint32 versions[] = { 100, 101, 119, 120, 130, 139, 140 };
  g_autoptr(TerrainHeightfield) field = make_field (65, 65, 1.0, 10.0, 0.2, 2);

  for (guint i = 0; i < G_N_ELEMENTS (versions); i++)
    {
      g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
      g_autoptr(TerrainAtlasFile) atlas = NULL;
      g_autoptr(TerrainAtlasGeometry) leaf = NULL;
      guint n;
      const TerrainAtlasVertex *v;

      terrain_atlas_builder_set_version (builder, versions[i]);
      terrain_atlas_builder_set_error (builder, 0.5);
      terrain_atlas_builder_set_tree_depth (builder, 2);
      atlas = build (builder);
      g_assert_cmpuint (terrain_atlas_toc_get_version (terrain_atlas_file_get_toc (atlas, 0)), ==,
                        versions[i]);
      leaf = get_geometry (atlas, 0, 1, 1, 0);
      g_assert_cmpint (terrain_atlas_geometry_has_collision (leaf), ==, versions[i] >= 120);
      v = terrain_atlas_geometry_get_vertices (leaf, &n);
      if (versions[i] < 140)
        for (guint k = 0; k < n; k++)
          g_assert_cmpfloat (v[k].normal[2], ==, 1.0f);
      if (versions[i] >= 101)
        check_bounds (atlas);
      check_leaf_heights (atlas, field, 0.5);
      check_cracks (atlas);
    }
}

/* Rough terrain, a tiny error and a depth-1 tree: the root would hold all
 * 66049 samples. The builder deepens the tree until leaves fit U16 indices
 * and collision offsets, and coarsens inner levels past 65535 vertices. */
static void
test_u16_limits (void)
{
  g_autoptr(TerrainHeightfield) field = make_field (257, 257, 1.0, 5.0, 40.0, 3);
  g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
  g_autoptr(TerrainAtlasFile) atlas = NULL;
  const TerrainAtlasBuildStats *stats;

  terrain_atlas_builder_set_error (builder, 0.001);
  terrain_atlas_builder_set_tree_depth (builder, 1);
  atlas = build (builder);
  stats = terrain_atlas_builder_get_stats (builder);

  g_assert_cmpuint (stats->requested_depth, ==, 1);
  g_assert_cmpuint (stats->tree_depth, ==, 3);
  g_assert_cmpuint (stats->leaf_size, ==, 64);
  g_assert_cmpuint (stats->n_coarsened_levels, >=, 1);
  g_assert_cmpuint (stats->max_chunk_vertices, <=, 65535);
  check_bounds (atlas);
  check_leaf_heights (atlas, field, 0.001);
  check_cracks (atlas);
  check_collision (atlas, 4);
}

static TerrainImage *
make_picture (guint   width,
              guint   height,
              guint32 seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  TerrainImage *image = terrain_image_new (TERRAIN_IMAGE_RGBA8, width, height, NULL);
  guint8 *p = terrain_image_get_data (image, NULL);
  gsize stride = terrain_image_get_stride (image);

  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        guint8 *q = p + y * stride + 4 * x;

        q[0] = (guint8) (x * 255 / MAX (width - 1, 1));
        q[1] = (guint8) (y * 255 / MAX (height - 1, 1));
        q[2] = (guint8) g_rand_int_range (rand, 0, 256);
        q[3] = 255;
      }
  return image;
}

static const guint8 *
pixel (TerrainImage *image,
       guint         x,
       guint         y)
{
  return terrain_image_get_data (image, NULL) + y * terrain_image_get_stride (image) + 4 * x;
}

/* A picture the size of the leaf level, PNG tiles: every leaf pixel is the
 * source pixel the §4 orientation puts there, and a vertex's texture
 * coordinate finds the colour of the picture where the vertex stands. */
static void
test_texture (void)
{
  g_autoptr(TerrainHeightfield) field = make_field (65, 65, 1.0, 8.0, 0.1, 4);
  g_autoptr(TerrainImage) picture = make_picture (128, 128, 5);
  g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
  g_autoptr(TerrainAtlasFile) atlas = NULL;
  g_autoptr(TerrainAtlasConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  TerrainAtlasToc *tex;
  const guint tile = 64, leaves = 2;

  terrain_atlas_builder_set_error (builder, 0.5);
  terrain_atlas_builder_set_tree_depth (builder, 2);
  terrain_atlas_builder_set_texture_image (builder, picture);
  terrain_atlas_builder_set_texture_format (builder, TERRAIN_ATLAS_TEXTURE_PNG, 90);
  terrain_atlas_builder_set_tile_size (builder, tile);
  atlas = build (builder);

  g_assert_cmpuint (terrain_atlas_file_get_n_tocs (atlas), ==, 3);
  tex = terrain_atlas_file_get_toc (atlas, 1);
  g_assert_cmpint (terrain_atlas_toc_get_kind (tex), ==, TERRAIN_ATLAS_TOC_TEXTURE);
  g_assert_cmpuint (terrain_atlas_toc_get_tree_depth (tex), ==, 2);
  g_assert_cmpuint (terrain_atlas_builder_get_stats (builder)->n_texture_tiles, ==, 5);

  config = terrain_atlas_file_get_config (atlas, 2, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (terrain_atlas_config_lookup (config, "type"), ==, "unique");
  g_assert_cmpstr (terrain_atlas_config_lookup (config, "textureSlot"), ==, "0");
  {
    g_autoptr(TerrainAtlasStub) stub = terrain_atlas_toc_get_stub (terrain_atlas_file_get_toc (atlas, 2), 0);
    g_autofree char *name = terrain_atlas_stub_dup_name (stub);

    g_assert_cmpstr (name, ==, "schema");
  }

  /* Stub (x, y) of the leaf level, pixel (i, j): picture pixel
   * (127 − (64x + j), 127 − (64y + i)). */
  for (guint32 x = 0; x < leaves; x++)
    for (guint32 y = 0; y < leaves; y++)
      {
        gint64 stub = terrain_atlas_toc_find_stub (tex, 1, x, y);
        g_autoptr(TerrainAtlasTexture) texture = terrain_atlas_file_get_texture (atlas, 1,
                                                                                 (guint) stub,
                                                                                 &error);
        g_autoptr(TerrainImage) decoded = NULL;

        g_assert_no_error (error);
        g_assert_cmpuint (terrain_atlas_texture_get_format (texture), ==,
                          TERRAIN_ATLAS_TEXTURE_PNG);
        decoded = terrain_atlas_texture_decode (texture, TERRAIN_ATLAS_CHANNELS_RGB, NULL, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (terrain_image_get_width (decoded), ==, tile);
        for (guint j = 0; j < tile; j++)
          for (guint i = 0; i < tile; i++)
            g_assert_cmpmem (pixel (decoded, i, j), 4,
                             pixel (picture, 127 - (64 * x + j), 127 - (64 * y + i)), 4);
      }

  /* The document's picture is the leaf level assembled north up: the
   * source picture again, pixel for pixel. */
  {
    g_autoptr(TerrainImage) map = terrain_document_render_image (TERRAIN_DOCUMENT (atlas), NULL,
                                                                 &error);

    g_assert_no_error (error);
    g_assert_cmpuint (terrain_image_get_width (map), ==, 128);
    g_assert_cmpuint (terrain_image_get_height (map), ==, 128);
    for (guint y = 0; y < 128; y++)
      for (guint x = 0; x < 128; x++)
        g_assert_cmpmem (pixel (map, x, y), 4, pixel (picture, x, y), 4);
  }

  /* From the geometry's side: leaf vertices look up their texel. */
  {
    g_autoptr(TerrainAtlasGeometry) leaf = get_geometry (atlas, 0, 1, 1, 0);
    guint n;
    const TerrainAtlasVertex *v = terrain_atlas_geometry_get_vertices (leaf, &n);

    for (guint k = 0; k < n; k += 7)
      {
        guint32 sx, sy;
        gfloat u, w;
        gint64 stub;
        g_autoptr(TerrainAtlasTexture) texture = NULL;
        g_autoptr(TerrainImage) decoded = NULL;
        guint col, row, px, py;

        terrain_quadtree_texture_node_at (1, v[k].tex_coord[0], v[k].tex_coord[1], &sx, &sy);
        terrain_quadtree_texture_local_uv (1, 1 - sx, sy, v[k].tex_coord[0], v[k].tex_coord[1],
                                           &u, &w);
        stub = terrain_atlas_toc_find_stub (tex, 1, sx, sy);
        texture = terrain_atlas_file_get_texture (atlas, 1, (guint) stub, &error);
        decoded = terrain_atlas_texture_decode (texture, TERRAIN_ATLAS_CHANNELS_RGB, NULL, &error);
        g_assert_no_error (error);
        col = (guint) CLAMP (floor (u * tile), 0, tile - 1);
        row = (guint) CLAMP (floor (w * tile), 0, tile - 1);
        /* The picture pixel under the vertex: column X, row 0 north. */
        px = (guint) CLAMP (floor (v[k].point[0] / 64.0 * 128), 0, 127);
        py = (guint) CLAMP (floor ((64.0 - v[k].point[1]) / 64.0 * 128), 0, 127);
        for (guint c = 0; c < 3; c += 1)
          if (c != 2)
            g_assert_cmpint (ABS ((gint) pixel (decoded, col, row)[c] - (gint) pixel (picture, px, py)[c]),
                             <=, 2);
      }
  }
}

/* JPEG tiles stored from BGR content decode back to the picture with the
 * BGR interpretation; parent levels average their children. */
static void
test_texture_jpeg_bgr (void)
{
  g_autoptr(TerrainHeightfield) field = make_field (33, 33, 1.0, 8.0, 0.1, 6);
  g_autoptr(TerrainImage) picture = terrain_image_new (TERRAIN_IMAGE_RGBA8, 64, 64, NULL);
  g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
  g_autoptr(TerrainAtlasFile) atlas = NULL;
  g_autoptr(GError) error = NULL;
  guint8 *p = terrain_image_get_data (picture, NULL);

  /* A smooth picture: red across, blue down. */
  for (guint y = 0; y < 64; y++)
    for (guint x = 0; x < 64; x++)
      {
        guint8 *q = p + y * terrain_image_get_stride (picture) + 4 * x;

        q[0] = (guint8) (x * 4);
        q[1] = 100;
        q[2] = (guint8) (y * 4);
        q[3] = 255;
      }
  terrain_atlas_builder_set_error (builder, 1.0);
  terrain_atlas_builder_set_texture_image (builder, picture);
  terrain_atlas_builder_set_tile_size (builder, 32);
  terrain_atlas_builder_set_channel_order (builder, TERRAIN_ATLAS_CHANNELS_BGR);
  terrain_atlas_builder_set_texture_format (builder, TERRAIN_ATLAS_TEXTURE_JPEG, 95);
  atlas = build (builder);

  for (guint stub = 0; stub < 5; stub++)
    {
      g_autoptr(TerrainAtlasTexture) texture = terrain_atlas_file_get_texture (atlas, 1, stub,
                                                                               &error);
      g_autoptr(TerrainImage) decoded = NULL;
      guint level;
      guint32 x, y;

      g_assert_no_error (error);
      g_assert_cmpuint (terrain_atlas_texture_get_format (texture), ==, TERRAIN_ATLAS_TEXTURE_JPEG);
      decoded = terrain_atlas_texture_decode (texture, TERRAIN_ATLAS_CHANNELS_BGR, NULL, &error);
      g_assert_no_error (error);
      terrain_quadtree_node_position (stub, &level, &x, &y);
      for (guint j = 2; j < 32; j += 9)
        for (guint i = 2; i < 32; i += 9)
          {
            /* Tile pixel (i, j) of stub (x, y) at level L covers picture
             * fraction (1 − v, 1 − u). */
            gdouble n = 1 << level;
            gdouble u = (y + (i + 0.5) / 32) / n, v = (x + (j + 0.5) / 32) / n;
            gdouble red = (1 - v) * 64 * 4 - 2, blue = (1 - u) * 64 * 4 - 2;
            const guint8 *q = pixel (decoded, i, j);

            g_assert_cmpfloat (fabs (q[0] - red), <=, 8.0);
            g_assert_cmpfloat (fabs (q[2] - blue), <=, 8.0);
            g_assert_cmpint (ABS (q[1] - 100), <=, 6);
          }
    }
}

/* A grid of tile files gives the same texture tree as the whole picture. */
static void
test_texture_tiles (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("terrain-atlas-tiles-XXXXXX", &error);
  g_autofree char *pattern = g_build_filename (dir, "t_{x}_{y}.png", NULL);
  g_autoptr(TerrainHeightfield) field = make_field (65, 65, 1.0, 8.0, 0.1, 7);
  g_autoptr(TerrainImage) picture = make_picture (96, 64, 8);
  g_autoptr(TerrainAtlasBuilder) whole = terrain_atlas_builder_new (field);
  g_autoptr(TerrainAtlasBuilder) tiled = terrain_atlas_builder_new (field);
  g_autoptr(TerrainAtlasFile) a = NULL;
  g_autoptr(TerrainAtlasFile) b = NULL;

  g_assert_no_error (error);
  for (guint row = 0; row < 2; row++)
    for (guint column = 0; column < 3; column++)
      {
        g_autoptr(TerrainImage) part = terrain_image_new (TERRAIN_IMAGE_RGBA8, 32, 32, NULL);
        g_autofree char *name = g_strdup_printf ("t_%u_%u.png", column, row);
        g_autofree char *path = g_build_filename (dir, name, NULL);
        g_autoptr(GFile) file = g_file_new_for_path (path);

        for (guint y = 0; y < 32; y++)
          memcpy (terrain_image_get_data (part, NULL) + y * terrain_image_get_stride (part),
                  pixel (picture, column * 32, row * 32 + y), 32 * 4);
        g_assert_true (terrain_image_save_png (part, file, NULL, &error));
      }

  for (guint k = 0; k < 2; k++)
    {
      TerrainAtlasBuilder *builder = k == 0 ? whole : tiled;

      terrain_atlas_builder_set_error (builder, 0.5);
      terrain_atlas_builder_set_texture_format (builder, TERRAIN_ATLAS_TEXTURE_PNG, 90);
      terrain_atlas_builder_set_tile_size (builder, 32);
    }
  terrain_atlas_builder_set_texture_image (whole, picture);
  terrain_atlas_builder_set_texture_tiles (tiled, pattern, 3, 2);
  a = build (whole);
  b = build (tiled);
  g_assert_cmpuint (terrain_atlas_toc_get_tree_depth (terrain_atlas_file_get_toc (a, 1)), ==, 3);
  for (guint stub = 0; stub < 21; stub++)
    {
      g_autoptr(GBytes) fa = terrain_atlas_file_get_chunk_body (a, 1, stub, &error);
      g_autoptr(GBytes) fb = terrain_atlas_file_get_chunk_body (b, 1, stub, &error);

      g_assert_no_error (error);
      g_assert_true (g_bytes_equal (fa, fb));
    }

  /* A missing tile is an error naming the file. */
  {
    g_autoptr(TerrainAtlasBuilder) broken = terrain_atlas_builder_new (field);
    g_autoptr(TerrainAtlasFile) none = NULL;

    terrain_atlas_builder_set_texture_tiles (broken, pattern, 4, 2);
    terrain_atlas_builder_set_tile_size (broken, 32);
    none = terrain_atlas_builder_build (broken, NULL, &error);
    g_assert_null (none);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO);
    g_assert_nonnull (strstr (error->message, "t_3_"));
  }

  for (guint row = 0; row < 2; row++)
    for (guint column = 0; column < 3; column++)
      {
        g_autofree char *name = g_strdup_printf ("t_%u_%u.png", column, row);
        g_autofree char *path = g_build_filename (dir, name, NULL);

        g_unlink (path);
      }
  g_rmdir (dir);
}

static void
test_blender (void)
{
  g_autoptr(TerrainHeightfield) field = make_field (65, 65, 4.0, 30.0, 0.5, 9);
  g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
  g_autoptr(TerrainAtlasFile) atlas = NULL;
  g_autoptr(TerrainAtlasConfig) config = NULL;
  g_autoptr(TerrainAtlasTexture) opacity = NULL;
  g_autoptr(TerrainImage) decoded = NULL;
  g_autoptr(GError) error = NULL;

  terrain_atlas_builder_set_terrain_type (builder, TERRAIN_ATLAS_TERRAIN_BLENDER);
  terrain_atlas_builder_add_source_image (builder, "terrains/grass.jpg");
  terrain_atlas_builder_add_source_image (builder, "terrains/rock.jpg");
  terrain_atlas_builder_add_source_image (builder, "terrains/snow.jpg");
  terrain_atlas_builder_set_virtual_texture_size (builder, 4096);
  terrain_atlas_builder_set_tile_size (builder, 32);
  atlas = build (builder);

  g_assert_cmpuint (terrain_atlas_file_get_n_tocs (atlas), ==, 4);
  g_assert_cmpint (terrain_atlas_toc_get_kind (terrain_atlas_file_get_toc (atlas, 1)), ==,
                   TERRAIN_ATLAS_TOC_TEXTURE);
  g_assert_cmpint (terrain_atlas_toc_get_kind (terrain_atlas_file_get_toc (atlas, 2)), ==,
                   TERRAIN_ATLAS_TOC_TEXTURE);
  config = terrain_atlas_file_get_config (atlas, 3, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (terrain_atlas_config_lookup (config, "type"), ==, "blender");
  g_assert_cmpstr (terrain_atlas_config_lookup (config, "opacityMapSlot"), ==, "0");
  g_assert_cmpstr (terrain_atlas_config_lookup (config, "shadowMapSlot"), ==, "1");
  g_assert_cmpstr (terrain_atlas_config_lookup (config, "virtualTexSize"), ==, "4096");
  g_assert_cmpstr (terrain_atlas_config_lookup (config, "sourceImageCount"), ==, "3");
  g_assert_cmpstr (terrain_atlas_config_lookup (config, "sourceImage2"), ==, "terrains/snow.jpg");
  /* Newest first: the type was set first, so it comes last. */
  g_assert_cmpstr (terrain_atlas_config_get_key (config,
                                                 terrain_atlas_config_get_n_entries (config) - 1,
                                                 NULL), ==, "type");

  /* Opacity maps are PNG and their channels share 255 between the
   * sources; the fourth weighs nothing. */
  opacity = terrain_atlas_file_get_texture (atlas, 1, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_atlas_texture_get_format (opacity), ==, TERRAIN_ATLAS_TEXTURE_PNG);
  decoded = terrain_atlas_texture_decode (opacity, TERRAIN_ATLAS_CHANNELS_RGB, NULL, &error);
  g_assert_no_error (error);
  for (guint y = 0; y < 32; y += 5)
    for (guint x = 0; x < 32; x += 5)
      {
        const guint8 *q = pixel (decoded, x, y);

        g_assert_cmpint (ABS ((gint) q[0] + q[1] + q[2] - 255), <=, 2);
        g_assert_cmpuint (q[3], ==, 0);
      }
}

static void
on_progress (gdouble     fraction,
             const char *stage,
             gpointer    user_data)
{
  GArray *seen = user_data;

  g_assert_nonnull (stage);
  g_array_append_val (seen, fraction);
}

static void
cancel_at_geometry (gdouble     fraction,
                    const char *stage,
                    gpointer    user_data)
{
  if (g_str_equal (stage, "geometry"))
    g_cancellable_cancel (user_data);
}

/* Many batches of leaves (4096 chunks of 16 cells), a root past the dense
 * vertex grid (1024 cells: the hash table) and a texture tree of several
 * levels: the bytes are the same for one thread, the default (one per
 * processor) and three (issue 18: scratch kept across batches, the
 * writer not holding the lock). */
static void
test_threads_same_bytes (void)
{
  g_autoptr(TerrainHeightfield) field = make_field (1025, 1025, 1.0, 40.0, 0.5, 21);
  g_autoptr(TerrainImage) picture = make_picture (1024, 1024, 22);
  g_autoptr(GBytes) one = NULL;
  const guint threads[] = { 1, 0, 3 };

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
      g_autoptr(TerrainAtlasFile) atlas = NULL;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) error = NULL;

      terrain_atlas_builder_set_error (builder, 0.25);
      terrain_atlas_builder_set_chunk_size (builder, 16);
      terrain_atlas_builder_set_n_threads (builder, threads[i]);
      terrain_atlas_builder_set_texture_image (builder, picture);
      terrain_atlas_builder_set_tile_size (builder, 64);
      atlas = build (builder);
      bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (atlas), &error);
      g_assert_no_error (error);
      g_assert_cmpuint (g_bytes_get_size (bytes), >, 1024 * 1024);
      if (one == NULL)
        one = g_bytes_ref (bytes);
      else
        g_assert_true (g_bytes_equal (one, bytes));
    }
}

/* Writes @picture as a JPEG file in @dir; returns it. */
static GFile *
write_jpeg_file (const char   *dir,
                 const char   *name,
                 TerrainImage *picture)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(TerrainAtlasTexture) jpeg = terrain_atlas_texture_new_from_image (picture,
                                                                            TERRAIN_ATLAS_TEXTURE_JPEG,
                                                                            95,
                                                                            TERRAIN_ATLAS_CHANNELS_RGB,
                                                                            &error);
  GBytes *data;

  g_assert_no_error (error);
  data = terrain_atlas_texture_get_data (jpeg);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (data, NULL),
                                      (gssize) g_bytes_get_size (data), &error));
  g_assert_no_error (error);
  return g_file_new_for_path (path);
}

/* A JPEG texture file is streamed (decoded a row at a time, tiles made as
 * their rows pass, encoded in parallel): the Atlas is the same bytes as
 * from the same picture decoded whole and given as an image, for every
 * level's filter (box of up to 8x8 taps, bilinear up-sampling), padded
 * heightfields (the picture covers the data, the rest repeats its edge),
 * non-square pictures, BGR order and one or more threads; a damaged JPEG
 * fails with the row it stopped at. */
static void
test_texture_jpeg_streamed (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("terrain-atlas-jpeg-XXXXXX", &error);
  g_autoptr(TerrainImage) source = make_picture (700, 450, 31);
  g_autoptr(GFile) file = NULL;
  g_autoptr(TerrainImage) decoded = NULL;
  struct { guint field_w, field_h, tile, depth, threads; gboolean bgr; } cases[] = {
    { 257, 257, 32, 5, 0, FALSE },      /* leaves 512 px: bilinear */
    { 257, 257, 64, 3, 1, FALSE },      /* boxes of up to 8x8 taps */
    { 200, 150, 32, 4, 3, TRUE },       /* padded to 257: edges repeated */
    { 129, 129, 128, 1, 2, FALSE },     /* one tile */
  };

  g_assert_no_error (error);
  file = write_jpeg_file (dir, "picture.jpg", source);
  {
    g_autoptr(GBytes) bytes = g_file_load_bytes (file, NULL, NULL, &error);
    g_autoptr(TerrainAtlasTexture) jpeg = NULL;

    g_assert_no_error (error);
    jpeg = terrain_atlas_texture_new (TERRAIN_ATLAS_TEXTURE_JPEG, bytes);
    decoded = terrain_atlas_texture_decode (jpeg, TERRAIN_ATLAS_CHANNELS_RGB, NULL, &error);
    g_assert_no_error (error);
  }

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(TerrainHeightfield) field = make_field (cases[c].field_w, cases[c].field_h, 1.0,
                                                        10.0, 0.5, 40 + c);
      g_autoptr(GBytes) streamed = NULL;
      g_autoptr(GBytes) whole = NULL;

      for (guint k = 0; k < 2; k++)
        {
          g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
          g_autoptr(TerrainAtlasFile) atlas = NULL;
          GBytes *bytes;

          terrain_atlas_builder_set_error (builder, 1.0);
          terrain_atlas_builder_set_n_threads (builder, cases[c].threads);
          terrain_atlas_builder_set_tile_size (builder, cases[c].tile);
          terrain_atlas_builder_set_texture_depth (builder, cases[c].depth);
          terrain_atlas_builder_set_channel_order (builder, cases[c].bgr ?
                                                   TERRAIN_ATLAS_CHANNELS_BGR :
                                                   TERRAIN_ATLAS_CHANNELS_RGB);
          if (k == 0)
            terrain_atlas_builder_set_texture_file (builder, file);
          else
            terrain_atlas_builder_set_texture_image (builder, decoded);
          atlas = build (builder);
          g_assert_cmpuint (terrain_atlas_builder_get_stats (builder)->n_texture_tiles, ==,
                            terrain_quadtree_node_count (cases[c].depth));
          bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (atlas), &error);
          g_assert_no_error (error);
          if (k == 0)
            streamed = bytes;
          else
            whole = bytes;
        }
      g_assert_true (g_bytes_equal (streamed, whole));
    }

  /* Cut short: the error names the row. */
  {
    g_autoptr(GBytes) bytes = g_file_load_bytes (file, NULL, NULL, &error);
    g_autofree char *cut = g_build_filename (dir, "cut.jpg", NULL);
    g_autoptr(GFile) cut_file = g_file_new_for_path (cut);
    g_autoptr(TerrainHeightfield) field = make_field (129, 129, 1.0, 10.0, 0.5, 50);
    g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
    g_autoptr(TerrainAtlasFile) atlas = NULL;

    g_assert_no_error (error);
    g_assert_true (g_file_set_contents (cut, g_bytes_get_data (bytes, NULL),
                                        (gssize) g_bytes_get_size (bytes) / 2, &error));
    g_assert_no_error (error);
    terrain_atlas_builder_set_texture_file (builder, cut_file);
    atlas = terrain_atlas_builder_build (builder, NULL, &error);
    g_assert_null (atlas);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (error->message, "cut.jpg"));
    g_assert_nonnull (strstr (error->message, "of 450"));
    g_clear_error (&error);
    g_unlink (cut);
  }

  {
    g_autofree char *path = g_file_get_path (file);

    g_unlink (path);
    g_rmdir (dir);
  }
}

static void
test_to_file_and_threads (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("terrain-atlas-build-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "out.atlas", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(TerrainHeightfield) field = make_field (257, 257, 1.0, 20.0, 0.5, 10);
  g_autoptr(TerrainImage) picture = make_picture (100, 80, 11);
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (gdouble));
  g_autoptr(GBytes) one = NULL;
  g_autoptr(GBytes) on_disk = NULL;
  g_autoptr(TerrainDocument) document = NULL;

  g_assert_no_error (error);
  for (guint threads = 1; threads <= 4; threads += 3)
    {
      g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
      g_autoptr(TerrainAtlasFile) atlas = NULL;

      terrain_atlas_builder_set_error (builder, 0.5);
      terrain_atlas_builder_set_chunk_size (builder, 32);
      terrain_atlas_builder_set_n_threads (builder, threads);
      terrain_atlas_builder_set_texture_image (builder, picture);
      terrain_atlas_builder_set_tile_size (builder, 32);
      if (threads == 1)
        {
          atlas = build (builder);
          one = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (atlas), &error);
          g_assert_no_error (error);
        }
      else
        {
          terrain_atlas_builder_set_progress_func (builder, on_progress,
                                                   g_array_ref (seen),
                                                   (GDestroyNotify) g_array_unref);
          g_assert_true (terrain_atlas_builder_build_to_file (builder, file, NULL, &error));
          g_assert_no_error (error);
        }
    }

  /* The same bytes whatever the threads, in memory or on disk. */
  on_disk = terrain_file_load_bytes (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (one, on_disk));
  document = terrain_document_load (file, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_no_warnings (document);

  /* Progress rises to 1. */
  g_assert_cmpuint (seen->len, >=, 3);
  for (guint i = 1; i < seen->len; i++)
    g_assert_cmpfloat (g_array_index (seen, gdouble, i), >=,
                       g_array_index (seen, gdouble, i - 1));
  g_assert_cmpfloat (g_array_index (seen, gdouble, seen->len - 1), ==, 1.0);

  /* Cancelled before and during the build: the file on disk is left as it
   * was and no temporary file stays behind. */
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(GBytes) after = NULL;
      g_autoptr(GDir) listing = NULL;
      guint entries = 0;

      terrain_atlas_builder_set_error (builder, 0.5);
      terrain_atlas_builder_set_chunk_size (builder, 32);
      if (k == 0)
        g_cancellable_cancel (cancellable);
      else
        terrain_atlas_builder_set_progress_func (builder, cancel_at_geometry,
                                                 g_object_ref (cancellable), g_object_unref);
      g_assert_false (terrain_atlas_builder_build_to_file (builder, file, cancellable, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_clear_error (&error);

      after = terrain_file_load_bytes (file, NULL, &error);
      g_assert_true (g_bytes_equal (after, on_disk));
      listing = g_dir_open (dir, 0, NULL);
      while (g_dir_read_name (listing) != NULL)
        entries++;
      g_assert_cmpuint (entries, ==, 1);
    }

  g_unlink (path);
  g_rmdir (dir);
}

static void
on_built (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  gboolean *done = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (terrain_atlas_builder_build_finish (TERRAIN_ATLAS_BUILDER (source), result,
                                                     &error));
  g_assert_no_error (error);
  *done = TRUE;
}

static void
test_async (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("terrain-atlas-async-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "async.atlas", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(TerrainHeightfield) field = make_field (65, 65, 1.0, 10.0, 0.2, 12);
  g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
  gboolean done = FALSE;

  terrain_atlas_builder_build_async (builder, file, NULL, on_built, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_unlink (path);
  g_rmdir (dir);
}

/* Grids of other sizes are padded (the default) or resampled; the picture
 * lies over the padded grid's data only. */
static void
test_fit (void)
{
  g_autoptr(TerrainHeightfield) field = make_field (50, 30, 1.0, 10.0, 0.2, 13);
  g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
  g_autoptr(TerrainAtlasFile) atlas = NULL;
  g_autoptr(TerrainAtlasGeometry) root = NULL;
  g_autoptr(GError) error = NULL;
  TerrainAtlasBox box;

  terrain_atlas_builder_set_error (builder, 0.5);
  atlas = build (builder);
  root = get_geometry (atlas, 0, 0, 0, 0);
  terrain_atlas_geometry_get_bounds (root, &box);
  g_assert_cmpfloat (box.max[0], ==, 64.0f);
  g_assert_cmpfloat (box.max[1], ==, 64.0f);

  terrain_atlas_builder_set_fit (builder, TERRAIN_HEIGHTFIELD_FIT_NONE);
  g_assert_null (terrain_atlas_builder_build (builder, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
}

static void
test_corpus (gconstpointer data)
{
  const char *relative = data;
  const char *dir = corpus_dir ();
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(TerrainHeightfieldOptions) options = terrain_heightfield_options_new ();
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(TerrainAtlasBuilder) builder = NULL;
  g_autoptr(TerrainAtlasFile) atlas = NULL;
  g_autoptr(GError) error = NULL;
  gdouble metres = 1.0;

  if (dir == NULL)
    {
      g_test_skip ("corpus folder not found (TERRAIN_CORPUS_DIR)");
      return;
    }
  path = g_build_filename (dir, relative, NULL);
  file = g_file_new_for_path (path);
  if (g_str_has_suffix (relative, "terrain-rgb.png"))
    options->format = TERRAIN_HEIGHTMAP_TERRAIN_RGB;
  if (g_str_has_suffix (relative, ".hgt"))
    metres = 5.0;
  field = terrain_heightfield_load (file, options, NULL, &error);
  g_assert_no_error (error);

  builder = terrain_atlas_builder_new (field);
  terrain_atlas_builder_set_error (builder, metres);
  terrain_atlas_builder_set_measure_error (builder, TRUE);
  terrain_atlas_builder_set_chunk_size (builder, 128);
  if (g_str_has_suffix (relative, ".ter"))
    {
      g_autofree char *grass = g_build_filename (dir, "torque", "grass.jpg", NULL);
      g_autoptr(GFile) texture = g_file_new_for_path (grass);

      terrain_atlas_builder_set_texture_file (builder, texture);
    }
  atlas = build (builder);
  g_test_message ("%s: depth %u, %u chunks, %" G_GUINT64_FORMAT " vertices, max error %.3f m",
                  relative, terrain_atlas_builder_get_stats (builder)->tree_depth,
                  terrain_atlas_builder_get_stats (builder)->n_chunks,
                  terrain_atlas_builder_get_stats (builder)->n_vertices,
                  terrain_atlas_builder_get_stats (builder)->max_error);
  g_assert_cmpfloat (terrain_atlas_builder_get_stats (builder)->max_error, <=, metres);
  if (terrain_heightfield_get_width (field) <= 257)
    {
      g_autoptr(TerrainHeightfield) fitted = terrain_heightfield_fit (field,
                                                                      TERRAIN_HEIGHTFIELD_FIT_PAD,
                                                                      NULL);

      check_bounds (atlas);
      check_cracks (atlas);
      check_leaf_heights (atlas, fitted, metres);
    }
}

/* The CLI: build-atlas and convert-heightmap. */
static void
test_cli (void)
{
  const char *cli = g_getenv ("TERRAIN_CLI");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *heights = NULL;
  g_autofree char *texture = NULL;
  g_autofree char *atlas = NULL;
  g_autofree char *raw = NULL;
  g_autoptr(TerrainHeightfield) field = make_field (129, 129, 1.0, 30.0, 0.5, 14);
  g_autoptr(TerrainImage) gray = NULL;
  g_autoptr(TerrainImage) picture = make_picture (64, 64, 15);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  gint status;

  if (cli == NULL)
    {
      g_test_skip ("TERRAIN_CLI not set");
      return;
    }
  dir = g_dir_make_tmp ("terrain-build-atlas-XXXXXX", &error);
  g_assert_no_error (error);
  heights = g_build_filename (dir, "h.png", NULL);
  texture = g_build_filename (dir, "t.png", NULL);
  atlas = g_build_filename (dir, "o.atlas", NULL);
  raw = g_build_filename (dir, "h.r16", NULL);
  gray = terrain_heightfield_to_image (field, 0.01, -100.0, &error);
  g_assert_no_error (error);
  {
    g_autoptr(GFile) f1 = g_file_new_for_path (heights);
    g_autoptr(GFile) f2 = g_file_new_for_path (texture);

    g_assert_true (terrain_image_save_png (gray, f1, NULL, &error));
    g_assert_true (terrain_image_save_png (picture, f2, NULL, &error));
  }

  {
    const char *argv[] = { cli, "build-atlas", heights, "--vertical-scale", "0.01",
                           "--vertical-offset", "-100", "--texture", texture, "-e", "0.5",
                           "--depth", "2", "--tile-size", "32", "--measure-error", "-o", atlas,
                           NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                                 &err, &status, &error));
    g_assert_no_error (error);
    g_test_message ("%s%s", out, err);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
    g_assert_nonnull (strstr (out, "depth 2"));
    g_assert_nonnull (strstr (out, "largest error"));
    /* No terminal: no progress bar. */
    g_assert_cmpstr (err, ==, "");
  }
  {
    g_autoptr(GFile) file = g_file_new_for_path (atlas);
    g_autoptr(TerrainDocument) document = terrain_document_load (file, NULL, NULL, &error);

    g_assert_no_error (error);
    assert_no_warnings (document);
    g_assert_cmpuint (terrain_atlas_file_get_n_tocs (TERRAIN_ATLAS_FILE (document)), ==, 3);
  }

  /* A grid that is not 2^N+1 square is padded, and the summary says so. */
  {
    g_autoptr(TerrainHeightfield) small = make_field (50, 30, 1.0, 10.0, 0.2, 15);
    g_autoptr(TerrainImage) small_gray = terrain_heightfield_to_image (small, 0.01, -100.0,
                                                                       &error);
    g_autofree char *small_path = g_build_filename (dir, "small.png", NULL);
    g_autoptr(GFile) small_file = g_file_new_for_path (small_path);
    const char *argv[] = { cli, "build-atlas", small_path, "--depth", "1", "-o", atlas, NULL };

    g_assert_no_error (error);
    g_assert_true (terrain_image_save_png (small_gray, small_file, NULL, &error));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                                 &err, &status, &error));
    g_test_message ("%s%s", out, err);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
    /* A warning of the builder's (terrain_atlas_builder_get_issues()). */
    g_assert_nonnull (strstr (err, "warning: the 50x30 heightmap was padded to 65x65"));
    g_assert_nonnull (strstr (err, "64% of the terrain is padding"));
    g_unlink (small_path);
  }

  /* convert-heightmap to raw16, then build from the raw file. */
  {
    const char *argv[] = { cli, "convert-heightmap", heights, "--vertical-scale", "0.01",
                           "--vertical-offset", "-100", raw, NULL };

    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                                 &err, &status, &error));
    g_assert_true (g_spawn_check_wait_status (status, NULL));
    g_assert_nonnull (strstr (out, "--vertical-scale"));
    g_assert_true (g_file_test (raw, G_FILE_TEST_IS_REGULAR));
  }
  {
    const char *argv[] = { cli, "build-atlas", raw, "--collision-depth", "0", "--quiet",
                           "-o", atlas, NULL };

    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                                 &err, &status, &error));
    g_assert_true (g_spawn_check_wait_status (status, NULL));
    g_assert_cmpstr (out, ==, "");
  }

  /* Usage errors exit 64, unreadable input 2. */
  {
    const char *bad_usage[] = { cli, "build-atlas", heights, "-e", "-1", "-o", atlas, NULL };
    const char *missing[] = { cli, "build-atlas", "/nonexistent/h.png", "-o", atlas, NULL };

    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_true (g_spawn_sync (NULL, (char **) bad_usage, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                 &out, &err, &status, &error));
    g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 64);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_true (g_spawn_sync (NULL, (char **) missing, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                 &out, &err, &status, &error));
    g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 2);
    g_assert_nonnull (strstr (err, "/nonexistent/h.png"));
  }

  g_unlink (heights);
  g_unlink (texture);
  g_unlink (atlas);
  g_unlink (raw);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  static const char * const corpus[] = {
    "torque/simple.ter",
    "torque/newMission.ter",
    "tribes2/Ewok_Village.ter",
    "tribes2/facingWorlds.ter",
    "dem/N44W072.hgt",
    "dem/fuji-terrain-rgb.png",
  };

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/AtlasBuilder/geometry", test_geometry);
  g_test_add_func ("/Terrain/AtlasBuilder/export-heights-orientation",
                   test_export_heights_orientation);
  g_test_add_func ("/Terrain/AtlasBuilder/versions", test_versions);
  g_test_add_func ("/Terrain/AtlasBuilder/u16-limits", test_u16_limits);
  g_test_add_func ("/Terrain/AtlasBuilder/texture", test_texture);
  g_test_add_func ("/Terrain/AtlasBuilder/texture-jpeg-bgr", test_texture_jpeg_bgr);
  g_test_add_func ("/Terrain/AtlasBuilder/texture-tiles", test_texture_tiles);
  g_test_add_func ("/Terrain/AtlasBuilder/blender", test_blender);
  g_test_add_func ("/Terrain/AtlasBuilder/to-file-threads-cancel", test_to_file_and_threads);
  g_test_add_func ("/Terrain/AtlasBuilder/threads-same-bytes", test_threads_same_bytes);
  g_test_add_func ("/Terrain/AtlasBuilder/texture-jpeg-streamed", test_texture_jpeg_streamed);
  g_test_add_func ("/Terrain/AtlasBuilder/async", test_async);
  g_test_add_func ("/Terrain/AtlasBuilder/fit", test_fit);
  g_test_add_func ("/Terrain/AtlasBuilder/cli", test_cli);
  for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
    {
      g_autofree char *name = g_strdelimit (g_strdup (corpus[i]), "/", '_');
      g_autofree char *test_path = g_strdup_printf ("/Terrain/AtlasBuilder/corpus/%s", name);

      g_test_add_data_func (test_path, corpus[i], test_corpus);
    }

  return g_test_run ();
}
