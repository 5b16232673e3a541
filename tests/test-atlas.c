/* test-atlas.c: Torque Atlas containers: reading every fixture, the §8 layout,
 * structural errors and Config name widths
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * No public .atlas file could be obtained, so every file here is built by
 * the tests' own serialiser (test-atlas-fixture.c) from atlas-chu-tqt.md
 * (§0-§8) and the TGEA conventions of field-notes.md. Edits, compaction,
 * conversion and building are in test-atlas-rewrite.c; the quadtree
 * helpers, chunk classes and the CLI in test-atlas-chunks.c.
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


/* The file of atlas-chu-tqt.md §8: TOCs end at 0x1DA2, where the first
 * chunk starts. */
static const FixtureSpec section8 = {
  "section-8", F_SHUFFLE | F_COLLISION | F_NO_GAP_AFTER_TOCS, 4,
  { GEOM (140, 4), TEX (140, 3), TEX (140, 5), CONFIG (140, 1, 8) }
};

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

  return g_test_run ();
}
