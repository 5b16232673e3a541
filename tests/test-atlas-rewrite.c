/* test-atlas-rewrite.c: Torque Atlas edits, compaction, conversion and building
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * On files built by test-atlas-fixture.c's serialiser (atlas-chu-tqt.md
 * §0-§8): what an edit may change of the source bytes, and what a
 * rewritten file keeps.
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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/Atlas/edit/geometry", test_edit_geometry);
  g_test_add_func ("/Terrain/Atlas/edit/geometry-local", test_edit_geometry_local);
  g_test_add_func ("/Terrain/Atlas/edit/texture-and-config", test_edit_texture_and_config);
  g_test_add_func ("/Terrain/Atlas/compact", test_compact);
  g_test_add_func ("/Terrain/Atlas/convert", test_convert);
  g_test_add_func ("/Terrain/Atlas/build", test_build);

  return g_test_run ();
}
