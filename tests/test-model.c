/* test-model.c: Insomniac DAT1 containers and .model assets
 *
 * Fixtures are built in code (terrain-test-fixtures.c) from
 * insomniac-model.md and field-notes.md: the 1x1 plane (nibble 12, packed
 * normal 0x200FFE00, UVs (0,0) (0,1) (1,1) (1,0)), stored plain, behind the
 * 36-byte wrapper, and as raw LZ4 blocks.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <lz4.h>
#include <sys/wait.h>
#include <glib/gstdio.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"
#include "terrain-test-util.h"
#include "insomniac/terrain-dat1-private.h"

static void
put_u16 (GByteArray *a,
         guint16     v)
{
  guint8 b[2] = { v & 0xff, v >> 8 };

  g_byte_array_append (a, b, 2);
}

static void
put_u32 (GByteArray *a,
         guint32     v)
{
  guint8 b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24 };

  g_byte_array_append (a, b, 4);
}

static void
set_u32 (guint8  *p,
         guint32  v)
{
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
  p[2] = (v >> 16) & 0xff;
  p[3] = v >> 24;
}

static guint32
get_u32 (const guint8 *p)
{
  return p[0] | (p[1] << 8) | (p[2] << 16) | ((guint32) p[3] << 24);
}

/* A second mesh in LOD 1 (absolute indices, its own vertex range) after
 * the plane's, so the look has two distinct LODs. */
static void
fixture_add_lod1 (TerrainTestDat1 *f)
{
  GByteArray *a;
  static const guint16 indices[3] = { 4, 5, 6 };

  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_VERTICES);
  terrain_test_dat1_add_vertex (a, -1024, 41, -1024, 0x200FFE00);
  terrain_test_dat1_add_vertex (a, -1024, 41, 1024, 0x200FFE00);
  terrain_test_dat1_add_vertex (a, 1024, 41, 1024, 0x200FFE00);
  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_INDICES);
  for (guint i = 0; i < 3; i++)
    put_u16 (a, indices[i]);
  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_MESHES);
  terrain_test_dat1_add_mesh (a, 4, 6, 3, 3, 0, 1);
  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_LOOK);
  g_byte_array_set_size (a, 0);
  put_u16 (a, 0);
  put_u16 (a, 1);
  for (guint i = 0; i < 3; i++)
    {
      put_u16 (a, 1);
      put_u16 (a, 1);
    }
  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_UV0);
  for (guint i = 0; i < 3; i++)
    {
      put_u16 (a, 0x3800);
      put_u16 (a, 0x3800);
    }
  terrain_test_dat1_add_material (f, "materials/second.material", "second one");
}

static GBytes *
lz4_block (GBytes *image)
{
  gsize size = g_bytes_get_size (image);
  int bound = LZ4_compressBound ((int) size);
  char *dest = g_malloc (bound);
  int n = LZ4_compress_default (g_bytes_get_data (image, NULL), dest, (int) size, bound);

  g_assert_cmpint (n, >, 0);
  return g_bytes_new_take (dest, n);
}

static GBytes *
wrap (guint32  magic,
      GBytes  *body,
      guint32  size)
{
  GByteArray *out = g_byte_array_new ();

  put_u32 (out, magic);
  put_u32 (out, size);
  for (guint i = 0; i < 28; i++)
    g_byte_array_append (out, (const guint8 *) "", 1);
  g_byte_array_append (out, g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  return g_byte_array_free_to_bytes (out);
}

/* The plane behind the wrapper, as one raw LZ4 block: how all 8,780 models
 * of the census are stored. */
static GBytes *
plane_wrapped_lz4 (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) image = terrain_test_dat1_layout (f);
  g_autoptr(GBytes) block = lz4_block (image);

  return wrap (TERRAIN_MODEL_ASSET_TYPE, block, g_bytes_get_size (image));
}

static TerrainModel *
load_model (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  TerrainModel *model = terrain_model_new_from_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (model);
  return model;
}

static void
assert_load_fails (GBytes *bytes,
                   gint    code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) document =
    terrain_document_load_bytes (bytes, "x.model", TERRAIN_FORMAT_DAT1, NULL, &error);

  g_assert_null (document);
  g_assert_error (error, TERRAIN_ERROR, code);
  g_test_message ("expected failure: %s", error->message);
}

static gsize
count_severity (GPtrArray       *issues,
                TerrainSeverity  severity)
{
  gsize n = 0;

  for (guint i = 0; i < issues->len; i++)
    if (terrain_issue_get_severity (g_ptr_array_index (issues, i)) == severity)
      {
        g_autofree char *s = terrain_issue_to_string (g_ptr_array_index (issues, i));

        g_test_message ("issue: %s", s);
        n++;
      }
  return n;
}

static void
assert_plane_geometry (TerrainModel *model)
{
  static const gfloat expected_uv[4][2] = { { 0, 0 }, { 0, 1 }, { 1, 1 }, { 1, 0 } };
  TerrainModelMesh mesh;
  TerrainModelVertex vertex;
  gfloat p[3], n[3], uv[2], centre[3], half[3], radius, distances[3];
  guint first, count;

  g_assert_true (terrain_model_has_geometry (model));
  g_assert_cmpuint (terrain_model_get_position_shift (model), ==, 12);
  g_assert_cmpfloat (terrain_model_get_position_scale (model), ==, 1.0 / 4096);
  g_assert_cmpuint (terrain_model_get_n_vertices (model), ==, 4);
  g_assert_cmpuint (terrain_model_get_n_indices (model), ==, 6);
  g_assert_cmpuint (terrain_model_get_n_meshes (model), ==, 1);
  g_assert_cmpuint (terrain_model_get_n_lods (model), ==, 1);
  g_assert_cmpuint (terrain_model_get_uv_stride (model), ==, 4);

  terrain_model_get_bounds (model, centre, &radius, half);
  g_assert_cmpfloat_with_epsilon (centre[1], 0.01001, 1e-5);
  g_assert_cmpfloat_with_epsilon (half[0], 0.5, 1e-6);
  terrain_model_get_lod_distances (model, distances);
  g_assert_cmpfloat (distances[0], ==, 15);
  g_assert_cmpfloat (distances[2], ==, 110);

  for (guint v = 0; v < 4; v++)
    {
      g_assert_true (terrain_model_get_position (model, v, p));
      g_assert_cmpfloat (fabsf (p[0]), ==, 0.5f);
      g_assert_cmpfloat (fabsf (p[2]), ==, 0.5f);
      g_assert_cmpfloat_with_epsilon (p[1], 0.01001, 1e-5);
      /* u = x + 0.5, v = z + 0.5 */
      g_assert_true (terrain_model_get_uv (model, v, uv));
      g_assert_cmpfloat (uv[0], ==, expected_uv[v][0]);
      g_assert_cmpfloat (uv[1], ==, expected_uv[v][1]);
      g_assert_cmpfloat (uv[0], ==, p[0] + 0.5f);
      g_assert_cmpfloat (uv[1], ==, p[2] + 0.5f);
      g_assert_true (terrain_model_get_normal (model, v, n));
      g_assert_cmpfloat_with_epsilon (n[0], 0, 0.002);
      g_assert_cmpfloat_with_epsilon (n[1], 1, 0.002);
      g_assert_cmpfloat_with_epsilon (n[2], 0, 0.002);
    }
  g_assert_false (terrain_model_get_position (model, 4, p));

  g_assert_true (terrain_model_get_vertex (model, 2, &vertex));
  g_assert_cmpint (vertex.position[0], ==, 2048);
  g_assert_cmpint (vertex.position[1], ==, 41);
  g_assert_cmpint (vertex.w, ==, 32767);
  g_assert_cmphex (vertex.normal, ==, 0x200FFE00);
  g_assert_cmphex (vertex.tangent, ==, 0x1FF003FF);

  g_assert_true (terrain_model_get_mesh (model, 0, &mesh));
  g_assert_cmpuint (mesh.index_count, ==, 6);
  g_assert_cmpuint (mesh.vertex_count, ==, 4);
  g_assert_cmpuint (mesh.flags, ==, TERRAIN_MODEL_MESH_FLAG_RELATIVE_INDICES);
  g_assert_cmpuint (terrain_model_get_mesh_vertex (model, 0, 5), ==, 3);
  g_assert_true (terrain_model_get_mesh_window (model, 0, &first, &count));
  g_assert_cmpuint (first, ==, 0);
  g_assert_cmpuint (count, ==, 4);
  for (guint l = 0; l < TERRAIN_MODEL_N_LODS; l++)
    {
      g_assert_true (terrain_model_get_lod (model, l, &first, &count));
      g_assert_cmpuint (first, ==, 0);
      g_assert_cmpuint (count, ==, 1);
    }

  g_assert_cmpuint (terrain_model_get_n_materials (model), ==, 1);
  g_assert_cmpstr (terrain_model_get_material_path (model, 0), ==, "materials/plane.material");
  g_assert_cmpstr (terrain_model_get_material_name (model, 0), ==, "plane");
  g_assert_null (terrain_model_get_material_name (model, 1));
}

static JsonNode *check_glb (GBytes *glb);

/* The plane's first UV pair, read through the 8-byte stride. */
static void
assert_plane_geometry_uv8 (TerrainModel *model)
{
  static const gfloat expected_uv[4][2] = { { 0, 0 }, { 0, 1 }, { 1, 1 }, { 1, 0 } };
  gfloat uv[2];

  for (guint v = 0; v < 4; v++)
    {
      g_assert_true (terrain_model_get_uv (model, v, uv));
      g_assert_cmpfloat (uv[0], ==, expected_uv[v][0]);
      g_assert_cmpfloat (uv[1], ==, expected_uv[v][1]);
    }
}

/* Tests */

static void
test_normal_decode (void)
{
  gfloat n[3];

  terrain_model_decode_normal (0x200FFE00, n);
  g_assert_cmpfloat_with_epsilon (n[0], 0, 0.002);
  g_assert_cmpfloat_with_epsilon (n[1], 1, 0.002);
  g_assert_cmpfloat_with_epsilon (n[2], 0, 0.002);

  /* Centre of the x/y range with bit 31 set: +Z; clear: -Z. */
  terrain_model_decode_normal (0x80000000u | (511u << 10) | 511u, n);
  g_assert_cmpfloat_with_epsilon (n[2], 1, 0.002);
  terrain_model_decode_normal ((511u << 10) | 511u, n);
  g_assert_cmpfloat_with_epsilon (n[2], -1, 0.002);

  /* Every word decodes to a unit vector, corners included. */
  for (guint32 x = 0; x < 1024; x += 31)
    for (guint32 y = 0; y < 1024; y += 31)
      {
        terrain_model_decode_normal ((y << 10) | x, n);
        g_assert_cmpfloat_with_epsilon (n[0] * n[0] + n[1] * n[1] + n[2] * n[2], 1, 1e-5);
      }
}

static void
test_layout_matches_writer (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) hand = terrain_test_dat1_layout (f);
  g_autoptr(GBytes) built = NULL;
  g_autoptr(GBytes) strings = NULL;
  g_autoptr(GError) error = NULL;
  GBytes *data[TERRAIN_TEST_DAT1_MAX_SECTIONS];
  guint32 base = terrain_test_dat1_strings_base (f);
  GByteArray *materials = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_MATERIALS);

  /* The library's writer gets absolute string offsets. */
  set_u32 (materials->data, get_u32 (materials->data) + base);
  set_u32 (materials->data + 4, get_u32 (materials->data + 4) + base);
  for (guint i = 0; i < f->n; i++)
    data[i] = g_bytes_new (f->data[i]->data, f->data[i]->len);
  strings = g_bytes_new (f->strings->data, f->strings->len);

  built = terrain_dat1_build_image (TERRAIN_MODEL_ASSET_TYPE, f->n, f->tags, data, NULL, strings,
                                    &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (built, hand));
  /* 7 sections, 31 bytes of strings, the sections from byte 144 on. */
  g_assert_cmpuint (g_bytes_get_size (hand), ==, 432);

  for (guint i = 0; i < f->n; i++)
    g_bytes_unref (data[i]);

  /* A repeated tag is refused. */
  {
    guint32 tags[2] = { 1, 1 };
    GBytes *two[2] = { strings, strings };
    g_autoptr(GError) local = NULL;
    g_autoptr(GBytes) none = terrain_dat1_build_image (1, 2, tags, two, NULL, NULL, &local);

    g_assert_null (none);
    g_assert_error (local, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  }
}

static void
test_plain (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) bytes = terrain_test_dat1_layout (f);
  g_autoptr(TerrainModel) model = load_model (bytes);
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) image = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  TerrainDat1 *dat1 = TERRAIN_DAT1 (model);
  guint32 magic;

  g_assert_cmphex (terrain_dat1_get_asset_type (dat1), ==, TERRAIN_MODEL_ASSET_TYPE);
  g_assert_cmpint (terrain_dat1_get_compression (dat1), ==, TERRAIN_DAT1_COMPRESSION_NONE);
  g_assert_false (terrain_dat1_get_wrapper (dat1, &magic, NULL));
  g_assert_cmpuint (terrain_dat1_get_n_sections (dat1), ==, 7);
  g_assert_cmphex (terrain_dat1_get_section_tag (dat1, 0), ==, TERRAIN_MODEL_TAG_LOOK);
  g_assert_true (terrain_dat1_has_section (dat1, TERRAIN_MODEL_TAG_UV0));
  g_assert_false (terrain_dat1_has_section (dat1, TERRAIN_MODEL_TAG_SKIN));
  g_assert_cmpstr (terrain_dat1_get_section_name (dat1, TERRAIN_MODEL_TAG_VERTICES), ==,
                   "vertices");
  g_assert_cmpuint (terrain_dat1_get_n_extra_entries (dat1), ==, 0);
  g_assert_cmpstr (terrain_dat1_get_string (dat1, 100), ==, "materials/plane.material");
  g_assert_null (terrain_dat1_get_string (dat1, 99));
  g_assert_null (terrain_dat1_get_string (dat1, 144));
  assert_plane_geometry (model);

  issues = terrain_document_validate (TERRAIN_DOCUMENT (model));
  g_assert_cmpuint (count_severity (issues, TERRAIN_SEVERITY_WARNING), ==, 0);
  g_assert_cmpuint (count_severity (issues, TERRAIN_SEVERITY_ERROR), ==, 0);

  saved = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (model), &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (saved, bytes));
  g_assert_true (terrain_document_compare_bytes (TERRAIN_DOCUMENT (model), saved, NULL, NULL));
  image = terrain_dat1_get_image (dat1, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (image, bytes));
}

static void
test_wrapped_lz4 (void)
{
  g_autoptr(GBytes) bytes = plane_wrapped_lz4 ();
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) plain = terrain_test_dat1_layout (f);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) document =
    terrain_document_load_bytes (bytes, "plane.model", TERRAIN_FORMAT_UNKNOWN, NULL, &error);
  g_autoptr(GBytes) stored = NULL;
  g_autoptr(GBytes) image = NULL;
  guint32 magic = 0, size = 0;
  TerrainDat1 *dat1;

  g_assert_no_error (error);
  g_assert_true (TERRAIN_IS_MODEL (document));
  g_assert_cmpint (terrain_document_get_format (document), ==, TERRAIN_FORMAT_DAT1);
  dat1 = TERRAIN_DAT1 (document);
  g_assert_cmpint (terrain_dat1_get_compression (dat1), ==, TERRAIN_DAT1_COMPRESSION_LZ4);
  g_assert_true (terrain_dat1_get_wrapper (dat1, &magic, &size));
  g_assert_cmphex (magic, ==, TERRAIN_MODEL_ASSET_TYPE);
  g_assert_cmpuint (size, ==, 432);
  assert_plane_geometry (TERRAIN_MODEL (document));

  image = terrain_dat1_get_image (dat1, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (image, plain));

  /* Store mode gives back the original compressed bytes. */
  stored = terrain_document_save_to_bytes (document, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (stored, bytes));

  /* Re-compressed and uncompressed writes read back to the same image. */
  for (guint mode = TERRAIN_DAT1_WRITE_RECOMPRESS; mode <= TERRAIN_DAT1_WRITE_UNCOMPRESSED; mode++)
    {
      g_autoptr(GBytes) written = terrain_dat1_save_to_bytes_full (dat1, mode, &error);
      g_autoptr(TerrainModel) again = NULL;
      g_autoptr(GBytes) again_image = NULL;

      g_assert_no_error (error);
      again = load_model (written);
      g_assert_cmpint (terrain_dat1_get_compression (TERRAIN_DAT1 (again)), ==,
                       mode == TERRAIN_DAT1_WRITE_RECOMPRESS ? TERRAIN_DAT1_COMPRESSION_LZ4
                                                             : TERRAIN_DAT1_COMPRESSION_NONE);
      g_assert_true (terrain_dat1_get_wrapper (TERRAIN_DAT1 (again), NULL, &size));
      g_assert_cmpuint (size, ==, 432);
      again_image = terrain_dat1_get_image (TERRAIN_DAT1 (again), &error);
      g_assert_no_error (error);
      g_assert_true (g_bytes_equal (again_image, plain));
      assert_plane_geometry (again);
    }
}

static void
test_variants (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) plain = terrain_test_dat1_layout (f);
  g_autoptr(GBytes) block = lz4_block (plain);
  GBytes *variants[3];

  variants[0] = wrap (TERRAIN_MODEL_ASSET_TYPE, plain, g_bytes_get_size (plain));
  variants[1] = g_bytes_ref (block);
  variants[2] = g_bytes_ref (plain);

  for (guint i = 0; i < G_N_ELEMENTS (variants); i++)
    {
      TerrainDat1Sniff sniff;
      g_autoptr(TerrainModel) model = NULL;
      g_autoptr(GBytes) saved = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_cmpint (terrain_format_detect (variants[i], NULL), ==, TERRAIN_FORMAT_DAT1);
      g_assert_true (terrain_dat1_sniff (g_bytes_get_data (variants[i], NULL),
                                         g_bytes_get_size (variants[i]), &sniff));
      g_assert_cmphex (sniff.asset_type, ==, TERRAIN_MODEL_ASSET_TYPE);
      model = load_model (variants[i]);
      assert_plane_geometry (model);
      saved = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (model), &error);
      g_assert_no_error (error);
      g_assert_true (g_bytes_equal (saved, variants[i]));
      g_bytes_unref (variants[i]);
    }

  /* The LZ4 token's literal length can take extra bytes: "1TAD" then sits
   * at byte 2 or 3 of the block. */
  {
    guint8 raw[8];
    TerrainDat1Sniff sniff;

    raw[0] = 0xF0;
    raw[1] = 255;
    raw[2] = 10;     /* 15 + 255 + 10 = 280 literals */
    memcpy (raw + 3, "1TAD", 4);
    g_assert_true (terrain_dat1_sniff (raw, 7, &sniff));
    g_assert_true (sniff.compressed);
    g_assert_false (sniff.has_wrapper);
  }
}

static void
test_detect_rejects (void)
{
  static const guint8 tnt[64] = { 0x00, 0x20, 0x00, 0x00 };
  static const guint8 short_magic[3] = { '1', 'T', 'A' };
  TerrainDat1Sniff sniff;

  g_assert_false (terrain_dat1_sniff (tnt, sizeof tnt, &sniff));
  g_assert_false (terrain_dat1_sniff (short_magic, sizeof short_magic, &sniff));
  g_assert_false (terrain_dat1_sniff (NULL, 0, &sniff));
}

static void
test_generic_dat1 (void)
{
  g_autoptr(TerrainTestDat1) f = g_new0 (TerrainTestDat1, 1);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(TerrainModel) model = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) section = NULL;
  g_autoptr(JsonNode) description = NULL;
  guint32 a = 0, b = 0;

  f->asset_type = 0x12345678;
  f->strings = g_byte_array_new ();
  g_byte_array_append (f->strings, (const guint8 *) "hello\0", 6);
  g_byte_array_append (terrain_test_dat1_section (f, 0xAAAA0000), (const guint8 *) "abc", 3);
  g_byte_array_append (terrain_test_dat1_section (f, 0x00000001), (const guint8 *) "0123456789abcdefXYZ", 19);
  f->n_extra = 2;
  f->extra[0] = 7;
  f->extra[1] = 9;
  bytes = terrain_test_dat1_layout (f);

  document = terrain_document_load_bytes (bytes, NULL, TERRAIN_FORMAT_UNKNOWN, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (TERRAIN_IS_DAT1 (document));
  g_assert_false (TERRAIN_IS_MODEL (document));
  g_assert_cmpuint (terrain_dat1_get_n_extra_entries (TERRAIN_DAT1 (document)), ==, 2);
  g_assert_true (terrain_dat1_get_extra_entry (TERRAIN_DAT1 (document), 1, &a, &b));
  g_assert_cmpuint (a, ==, 9);
  g_assert_cmphex (b, ==, ~9u);
  g_assert_false (terrain_dat1_get_extra_entry (TERRAIN_DAT1 (document), 2, NULL, NULL));
  g_assert_cmpstr (terrain_dat1_get_string (TERRAIN_DAT1 (document), 16 + 24 + 16), ==, "hello");
  section = terrain_dat1_get_section_data (TERRAIN_DAT1 (document), 0xAAAA0000);
  g_assert_cmpmem (g_bytes_get_data (section, NULL), g_bytes_get_size (section), "abc", 3);
  g_assert_null (terrain_dat1_get_section_data (TERRAIN_DAT1 (document), 5));

  description = terrain_document_describe (document);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (description),
                                                  "asset_type"), ==, "0x12345678");

  saved = terrain_document_save_to_bytes (document, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (saved, bytes));

  model = terrain_model_new_from_bytes (bytes, NULL, &error);
  g_assert_null (model);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC);
}

static void
test_truncations (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) plain = terrain_test_dat1_layout (f);
  g_autoptr(GBytes) wrapped = plane_wrapped_lz4 ();

  /* Every cut of a plain DAT1 is reported as truncated. */
  for (gsize n = 0; n < g_bytes_get_size (plain); n++)
    {
      g_autoptr(GBytes) cut = g_bytes_new_from_bytes (plain, 0, n);
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainDat1) dat1 = terrain_dat1_new_from_bytes (cut, NULL, &error);

      g_assert_null (dat1);
      g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
    }

  /* Every cut of the compressed file fails cleanly, with the magic gone
   * (bad magic), in the LZ4 block (truncated, out of range, malformed) or in
   * the shorter image (truncated). */
  for (gsize n = 0; n < g_bytes_get_size (wrapped); n++)
    {
      g_autoptr(GBytes) cut = g_bytes_new_from_bytes (wrapped, 0, n);
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainModel) model = terrain_model_new_from_bytes (cut, NULL, &error);

      g_assert_null (model);
      g_assert_nonnull (error);
      g_assert_true (error->domain == TERRAIN_ERROR);
      g_assert_true (error->code == TERRAIN_ERROR_TRUNCATED ||
                     error->code == TERRAIN_ERROR_BAD_MAGIC ||
                     error->code == TERRAIN_ERROR_OUT_OF_RANGE ||
                     error->code == TERRAIN_ERROR_INVALID_VALUE);
      if (n >= 41 + 4)
        g_assert_true (error->code != TERRAIN_ERROR_BAD_MAGIC);
    }
}

/* A fixture with one change, laid out, must fail with @code. */
typedef void (*Mutation) (TerrainTestDat1 *f);

static void
assert_mutation_fails (Mutation mutate,
                       gint     code)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) bytes = NULL;

  mutate (f);
  bytes = terrain_test_dat1_layout (f);
  assert_load_fails (bytes, code);
}

static void
mutate_vertex_range (TerrainTestDat1 *f)
{
  set_u32 (terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_MESHES)->data + 0x1C, 5);
}

static void
mutate_index_range (TerrainTestDat1 *f)
{
  set_u32 (terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_MESHES)->data + 0x14, 1);
}

static void
mutate_index_value (TerrainTestDat1 *f)
{
  terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_INDICES)->data[10] = 4;
}

static void
mutate_absolute_index_value (TerrainTestDat1 *f)
{
  /* Without flag 0x10 the index is absolute: 9 is past the 4 vertices. */
  GByteArray *meshes = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_MESHES);

  meshes->data[0x20] = 0;
  terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_INDICES)->data[0] = 9;
}

static void
mutate_lod_range (TerrainTestDat1 *f)
{
  terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_LOOK)->data[14] = 2;
}

static void
mutate_material_string (TerrainTestDat1 *f)
{
  set_u32 (terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_MATERIALS)->data + 4, 1000);
}

static void
mutate_vertex_size (TerrainTestDat1 *f)
{
  g_byte_array_set_size (terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_VERTICES), 63);
}

static void
mutate_uv_size (TerrainTestDat1 *f)
{
  g_byte_array_set_size (terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_UV0), 12);
}

static void
mutate_mesh_size (TerrainTestDat1 *f)
{
  g_byte_array_set_size (terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_MESHES), 60);
}

static void
mutate_built_size (TerrainTestDat1 *f)
{
  g_byte_array_set_size (terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_BUILT), 40);
}

static void
mutate_look_size (TerrainTestDat1 *f)
{
  g_byte_array_set_size (terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_LOOK), 8);
}

static void
mutate_missing_vertices (TerrainTestDat1 *f)
{
  terrain_test_dat1_remove (f, TERRAIN_MODEL_TAG_VERTICES);
}

static void
test_bad_ranges (void)
{
  assert_mutation_fails (mutate_vertex_range, TERRAIN_ERROR_OUT_OF_RANGE);
  assert_mutation_fails (mutate_index_range, TERRAIN_ERROR_OUT_OF_RANGE);
  assert_mutation_fails (mutate_index_value, TERRAIN_ERROR_OUT_OF_RANGE);
  assert_mutation_fails (mutate_absolute_index_value, TERRAIN_ERROR_OUT_OF_RANGE);
  assert_mutation_fails (mutate_lod_range, TERRAIN_ERROR_OUT_OF_RANGE);
  assert_mutation_fails (mutate_material_string, TERRAIN_ERROR_OUT_OF_RANGE);
  assert_mutation_fails (mutate_vertex_size, TERRAIN_ERROR_INVALID_VALUE);
  assert_mutation_fails (mutate_uv_size, TERRAIN_ERROR_INVALID_VALUE);
  assert_mutation_fails (mutate_mesh_size, TERRAIN_ERROR_INVALID_VALUE);
  assert_mutation_fails (mutate_missing_vertices, TERRAIN_ERROR_INVALID_VALUE);
  assert_mutation_fails (mutate_built_size, TERRAIN_ERROR_TRUNCATED);
  assert_mutation_fails (mutate_look_size, TERRAIN_ERROR_TRUNCATED);
}

/* Corruptions of the container itself, patched into the laid-out bytes. */
static void
test_bad_container (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) plain = terrain_test_dat1_layout (f);
  gsize size = g_bytes_get_size (plain);
  /* Table entry 1 is at byte 28: tag, offset (+4), size (+8). */
  const gsize entry = 16 + 12;
  struct
  {
    gsize   at;
    guint32 value;
    gint    code;
  } cases[] = {
    { 0, 0x44415430, TERRAIN_ERROR_BAD_MAGIC },         /* "0TAD" */
    { entry + 4, 5000, TERRAIN_ERROR_OUT_OF_RANGE },    /* section starts past the end */
    { entry + 8, 400, TERRAIN_ERROR_TRUNCATED },        /* runs past the end */
    { entry + 4, 40, TERRAIN_ERROR_OVERLAP },           /* inside the tables */
    { entry + 4, 150, TERRAIN_ERROR_OVERLAP },          /* over the look section */
    { entry, TERRAIN_MODEL_TAG_LOOK, TERRAIN_ERROR_INVALID_VALUE }, /* repeated tag */
    { 12, 0xFFFF, TERRAIN_ERROR_TRUNCATED },            /* 65535 sections */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint8 *copy = g_memdup2 (g_bytes_get_data (plain, NULL), size);
      g_autoptr(GBytes) bytes = NULL;

      if (cases[i].at == 12)
        {
          copy[12] = cases[i].value & 0xff;
          copy[13] = cases[i].value >> 8;
        }
      else
        set_u32 (copy + cases[i].at, cases[i].value);
      bytes = g_bytes_new_take (copy, size);
      if (cases[i].code == TERRAIN_ERROR_BAD_MAGIC)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(TerrainDat1) dat1 = terrain_dat1_new_from_bytes (bytes, NULL, &error);

          g_assert_null (dat1);
          g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC);
        }
      else
        assert_load_fails (bytes, cases[i].code);
    }

  /* An LZ4 match reaching before the start of the output. */
  {
    static const guint8 bad[] = { 0x41, '1', 'T', 'A', 'D', 0x10, 0x00, 0x00 };
    g_autoptr(GBytes) bytes = g_bytes_new (bad, sizeof bad);

    assert_load_fails (bytes, TERRAIN_ERROR_OUT_OF_RANGE);
  }

  /* A decompressed size beyond the limits. */
  {
    g_autoptr(GBytes) wrapped = plane_wrapped_lz4 ();
    g_autoptr(TerrainLimits) limits = terrain_limits_new ();
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainModel) model = NULL;

    limits->max_allocation = 200;
    model = terrain_model_new_from_bytes (wrapped, limits, &error);
    g_assert_null (model);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
  }
}

static void
test_describe (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) bytes = terrain_test_dat1_layout (f);
  g_autoptr(TerrainModel) model = load_model (bytes);
  g_autoptr(GBytes) wrapped = plane_wrapped_lz4 ();
  g_autoptr(TerrainModel) compressed = load_model (wrapped);
  g_autoptr(JsonNode) node = terrain_document_describe (TERRAIN_DOCUMENT (model));
  JsonObject *object = json_node_get_object (node);
  JsonObject *m = json_object_get_object_member (object, "model");
  g_autofree char *vertex = NULL;
  g_autofree char *table = NULL;
  g_autofree char *wrapper = NULL;
  g_autofree char *block = NULL;

  g_assert_cmpstr (json_object_get_string_member (object, "format"), ==, "dat1");
  g_assert_cmpstr (json_object_get_string_member (object, "compression"), ==, "none");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "sections")),
                    ==, 7);
  g_assert_cmpint (json_object_get_int_member (m, "vertices"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (m, "position_shift"), ==, 12);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (m, "lods")), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (m, "materials")), ==, 1);

  /* Vertex 1 sits at 368 + 16. */
  vertex = terrain_document_describe_offset (TERRAIN_DOCUMENT (model), 368 + 16 + 8);
  g_assert_nonnull (strstr (vertex, "vertices"));
  g_assert_nonnull (strstr (vertex, "vertex 1 (packed normal)"));
  table = terrain_document_describe_offset (TERRAIN_DOCUMENT (model), 16 + 12 * 6);
  g_assert_nonnull (strstr (table, "section table, entry 6"));
  wrapper = terrain_document_describe_offset (TERRAIN_DOCUMENT (compressed), 5);
  g_assert_nonnull (strstr (wrapper, "wrapper"));
  block = terrain_document_describe_offset (TERRAIN_DOCUMENT (compressed), 40);
  g_assert_nonnull (strstr (block, "LZ4 block"));
}

static void
test_uv_stride_8 (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainModel) model = NULL;
  GByteArray *uv = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_UV0);
  static const guint16 pairs[4][4] = {
    { 0, 0, 0x3800, 0x3800 },
    { 0, 0x3C00, 0x3800, 0x3800 },
    { 0x3C00, 0x3C00, 0x3800, 0x3800 },
    { 0x3C00, 0, 0x3800, 0x3800 },
  };

  /* Some models carry a second half-float pair per vertex (8 bytes). */
  g_byte_array_set_size (uv, 0);
  for (guint v = 0; v < 4; v++)
    for (guint i = 0; i < 4; i++)
      put_u16 (uv, pairs[v][i]);
  bytes = terrain_test_dat1_layout (f);
  model = load_model (bytes);
  g_assert_cmpuint (terrain_model_get_uv_stride (model), ==, 8);
  assert_plane_geometry_uv8 (model);
}

static void
test_wrapper_size_follows (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) image = NULL;
  g_autoptr(GBytes) block = NULL;
  g_autoptr(GBytes) wrapped = NULL;
  g_autoptr(TerrainModel) model = NULL;
  g_autoptr(TerrainModel) again = NULL;
  g_autoptr(GBytes) skin = g_bytes_new_static ("0123456789abcdefXYZ", 19);
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GError) error = NULL;
  guint32 size = 0;

  g_byte_array_append (terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_SKIN), (const guint8 *) "skin", 4);
  image = terrain_test_dat1_layout (f);
  block = lz4_block (image);
  wrapped = wrap (TERRAIN_MODEL_ASSET_TYPE, block, g_bytes_get_size (image));
  model = load_model (wrapped);

  g_assert_true (terrain_dat1_set_section_data (TERRAIN_DAT1 (model), TERRAIN_MODEL_TAG_SKIN,
                                                skin, &error));
  saved = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (model), &error);
  g_assert_no_error (error);
  again = load_model (saved);
  g_assert_cmpint (terrain_dat1_get_compression (TERRAIN_DAT1 (again)), ==,
                   TERRAIN_DAT1_COMPRESSION_LZ4);
  g_assert_true (terrain_dat1_get_wrapper (TERRAIN_DAT1 (again), NULL, &size));
  g_assert_cmpuint (size, ==, g_bytes_get_size (image) + 15);
  assert_plane_geometry (again);
}

static void
test_edit_positions (void)
{
  g_autoptr(GBytes) wrapped = plane_wrapped_lz4 ();
  g_autoptr(TerrainModel) model = load_model (wrapped);
  g_autoptr(GBytes) before = terrain_dat1_get_image (TERRAIN_DAT1 (model), NULL);
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(TerrainModel) again = NULL;
  g_autoptr(GError) error = NULL;
  gfloat positions[12], p[3], centre[3], half[3], radius;
  const guint8 *a, *b;
  gsize size;

  for (guint v = 0; v < 4; v++)
    terrain_model_get_position (model, v, positions + 3 * v);

  /* Unchanged positions change nothing. */
  g_assert_true (terrain_model_set_positions (model, positions, 4, TERRAIN_MODEL_EDIT_NONE,
                                              &error));
  g_assert_no_error (error);
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (model)));

  /* Raise vertex 2 by 0.25: y 41 + 1024 quanta. */
  positions[3 * 2 + 1] += 0.25f;
  g_assert_true (terrain_model_set_positions (model, positions, 4, TERRAIN_MODEL_EDIT_NONE,
                                              &error));
  g_assert_no_error (error);
  g_assert_true (terrain_document_get_modified (TERRAIN_DOCUMENT (model)));

  saved = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (model), &error);
  g_assert_no_error (error);
  g_assert_false (g_bytes_equal (saved, wrapped));
  again = load_model (saved);
  g_assert_cmpint (terrain_dat1_get_compression (TERRAIN_DAT1 (again)), ==,
                   TERRAIN_DAT1_COMPRESSION_LZ4);
  terrain_model_get_position (again, 2, p);
  g_assert_cmpfloat (p[1], ==, (41 + 1024) / 4096.0f);
  g_assert_cmpuint (terrain_model_get_position_shift (again), ==, 12);
  terrain_model_get_bounds (again, centre, &radius, half);
  g_assert_cmpfloat_with_epsilon (half[1], 0.125, 1e-6);
  g_assert_cmpfloat_with_epsilon (centre[1], (41 + 512) / 4096.0, 1e-6);

  /* Only vertex 2's y (2 bytes), Model Built and the mesh sphere changed. */
  after = terrain_dat1_get_image (TERRAIN_DAT1 (again), NULL);
  a = g_bytes_get_data (before, &size);
  b = g_bytes_get_data (after, NULL);
  g_assert_cmpuint (g_bytes_get_size (after), ==, size);
  for (gsize i = 0; i < size; i++)
    if (a[i] != b[i])
      g_assert_true ((i >= 368 + 32 + 2 && i < 368 + 32 + 4) ||  /* vertex 2 y */
                     (i >= 192 && i < 192 + 28) ||                /* Model Built bounds */
                     (i >= 304 && i < 304 + 16));                 /* mesh 0 sphere */
}

static void
test_requantize (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) bytes = terrain_test_dat1_layout (f);
  g_autoptr(TerrainModel) model = load_model (bytes);
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(TerrainModel) again = NULL;
  g_autoptr(GError) error = NULL;
  gfloat positions[12], p[3];

  for (guint v = 0; v < 4; v++)
    terrain_model_get_position (model, v, positions + 3 * v);

  /* 10 does not fit i16 at 2^-12 (at most 7.9998): the scale drops to 2^-11. */
  positions[0] = 10.0f;
  g_assert_true (terrain_model_set_positions (model, positions, 4, TERRAIN_MODEL_EDIT_NONE,
                                              &error));
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_model_get_position_shift (model), ==, 11);
  saved = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (model), &error);
  g_assert_no_error (error);
  again = load_model (saved);
  g_assert_cmpuint (terrain_model_get_position_shift (again), ==, 11);
  terrain_model_get_position (again, 0, p);
  g_assert_cmpfloat (p[0], ==, 10.0f);
  terrain_model_get_position (again, 1, p);
  g_assert_cmpfloat (p[0], ==, -0.5f);
  g_assert_cmpfloat_with_epsilon (p[1], 0.01001, 1.0 / 2048);

  /* Best scale takes the finest shift that fits: 3 * 2^14 = 49152 does not,
   * 3 * 2^13 = 24576 does. */
  positions[0] = 3.0f;
  g_assert_true (terrain_model_set_positions (again, positions, 4,
                                              TERRAIN_MODEL_EDIT_BEST_SCALE, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_model_get_position_shift (again), ==, 13);

  /* Out of range and bad input. */
  positions[0] = 40000.0f;
  g_assert_false (terrain_model_set_positions (again, positions, 4, TERRAIN_MODEL_EDIT_NONE,
                                               &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
  g_clear_error (&error);
  positions[0] = NAN;
  g_assert_false (terrain_model_set_positions (again, positions, 4, TERRAIN_MODEL_EDIT_NONE,
                                               &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  g_assert_false (terrain_model_set_positions (again, positions, 3, TERRAIN_MODEL_EDIT_NONE,
                                               &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
}

static void
test_export_obj (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainModel) model = NULL;
  g_autoptr(GBytes) obj = NULL;
  g_autoptr(GBytes) mtl = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *lib = NULL;

  fixture_add_lod1 (f);
  bytes = terrain_test_dat1_layout (f);
  model = load_model (bytes);
  g_assert_cmpuint (terrain_model_get_n_lods (model), ==, 2);

  obj = terrain_model_export_obj (model, 0, "plane.mtl", &mtl, &error);
  g_assert_no_error (error);
  text = g_strndup (g_bytes_get_data (obj, NULL), g_bytes_get_size (obj));
  lib = g_strndup (g_bytes_get_data (mtl, NULL), g_bytes_get_size (mtl));
  g_test_message ("%s", text);

  g_assert_nonnull (strstr (text, "mtllib plane.mtl\n"));
  g_assert_nonnull (strstr (text, "o lod0\n"));
  g_assert_null (strstr (text, "o lod1\n"));
  g_assert_nonnull (strstr (text, "usemtl plane\n"));
  g_assert_nonnull (strstr (text, "v -0.5 0.0100097656 -0.5\n"));
  /* UV (0,0) is written with v flipped for OBJ's bottom-left origin. */
  g_assert_nonnull (strstr (text, "vt 0 1\n"));
  g_assert_nonnull (strstr (text, "f 1/1/1 2/2/2 3/3/3\nf 1/1/1 3/3/3 4/4/4\n"));
  g_assert_nonnull (strstr (lib, "newmtl plane\n# materials/plane.material\n"));
  g_assert_nonnull (strstr (lib, "newmtl second_one\n"));

  /* LOD 1: absolute indices 4, 5, 6 become 1, 2, 3 of its window. */
  g_clear_pointer (&obj, g_bytes_unref);
  g_clear_pointer (&text, g_free);
  obj = terrain_model_export_obj (model, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  text = g_strndup (g_bytes_get_data (obj, NULL), g_bytes_get_size (obj));
  g_assert_null (strstr (text, "mtllib"));
  g_assert_nonnull (strstr (text, "usemtl second_one\n"));
  g_assert_nonnull (strstr (text, "f 1/1/1 2/2/2 3/3/3\n"));
  g_assert_nonnull (strstr (text, "v -0.25 0.0100097656 -0.25\n"));

  g_clear_pointer (&obj, g_bytes_unref);
  obj = terrain_model_export_obj (model, 2, NULL, NULL, &error);
  g_assert_null (obj);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
}

static GBytes *
replace_line (GBytes     *text,
              const char *old_line,
              const char *new_line)
{
  g_autofree char *s = g_strndup (g_bytes_get_data (text, NULL), g_bytes_get_size (text));
  char *at = strstr (s, old_line);
  GString *out;

  g_assert_nonnull (at);
  out = g_string_new_len (s, at - s);
  g_string_append (out, new_line);
  g_string_append (out, at + strlen (old_line));
  return g_string_free_to_bytes (out);
}

static void
test_import_obj (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainModel) model = NULL;
  g_autoptr(GBytes) obj = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(TerrainModel) again = NULL;
  g_autoptr(GError) error = NULL;
  gfloat p[3];

  fixture_add_lod1 (f);
  bytes = terrain_test_dat1_layout (f);
  model = load_model (bytes);

  /* Exported and imported unchanged: the file stays byte-exact. */
  obj = terrain_model_export_obj (model, TERRAIN_MODEL_ALL_LODS, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (terrain_model_import_obj (model, obj, TERRAIN_MODEL_ALL_LODS,
                                           TERRAIN_MODEL_EDIT_NONE, &error));
  g_assert_no_error (error);
  saved = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (model), &error);
  g_assert_true (g_bytes_equal (saved, bytes));
  g_clear_pointer (&saved, g_bytes_unref);

  /* Move LOD 1's first vertex, as an editor would. */
  g_clear_pointer (&obj, g_bytes_unref);
  obj = terrain_model_export_obj (model, 1, NULL, NULL, &error);
  edited = replace_line (obj, "v -0.25 0.0100097656 -0.25\n", "v -0.25 1.5 -0.25\n");
  g_assert_true (terrain_model_import_obj (model, edited, 1, TERRAIN_MODEL_EDIT_NONE, &error));
  g_assert_no_error (error);
  saved = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (model), &error);
  g_assert_no_error (error);
  again = load_model (saved);
  terrain_model_get_position (again, 4, p);
  g_assert_cmpfloat (p[1], ==, 1.5f);
  terrain_model_get_position (again, 0, p);
  g_assert_cmpfloat_with_epsilon (p[1], 0.01001, 1e-5);

  /* A different vertex count or topology is refused. */
  g_clear_pointer (&edited, g_bytes_unref);
  edited = replace_line (obj, "v -0.25 0.0100097656 -0.25\n", "");
  g_assert_false (terrain_model_import_obj (model, edited, 1, TERRAIN_MODEL_EDIT_NONE, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  g_clear_pointer (&edited, g_bytes_unref);
  edited = replace_line (obj, "f 1/1/1 2/2/2 3/3/3\n", "f 1/1/1 2/2/2 3/3/3 3/3/3\n");
  g_assert_false (terrain_model_import_obj (model, edited, 1, TERRAIN_MODEL_EDIT_NONE, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  g_clear_pointer (&edited, g_bytes_unref);
  edited = replace_line (obj, "v -0.25 0.0100097656 -0.25\n", "v -0.25 zero -0.25\n");
  g_assert_false (terrain_model_import_obj (model, edited, 1, TERRAIN_MODEL_EDIT_NONE, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
}

static void
test_resize_section (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainModel) model = NULL;
  g_autoptr(GBytes) skin = NULL;
  g_autoptr(GBytes) small = g_bytes_new ("x", 1);
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(TerrainModel) again = NULL;
  g_autoptr(GBytes) got = NULL;
  g_autoptr(GBytes) colours = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  guint8 big[100];
  gsize offset = 0, size = 0, vertices_before = 0, vertices_after = 0;

  /* Raw sections: vertex colours (between materials and meshes by tag) and
   * skin data (the last tag). */
  g_byte_array_append (terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_VERTEX_COLOR),
                       (const guint8 *) "0123456789abcdef0123456789abcdef0123456789abcdef",
                       48);
  g_byte_array_append (terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_SKIN), (const guint8 *) "skin", 4);
  bytes = terrain_test_dat1_layout (f);
  model = load_model (bytes);
  terrain_dat1_get_section_span (TERRAIN_DAT1 (model), TERRAIN_MODEL_TAG_VERTICES,
                                 &vertices_before, NULL);

  for (guint i = 0; i < sizeof big; i++)
    big[i] = (guint8) i;
  skin = g_bytes_new (big, sizeof big);
  g_assert_true (terrain_dat1_set_section_data (TERRAIN_DAT1 (model), TERRAIN_MODEL_TAG_SKIN,
                                                skin, &error));
  g_assert_no_error (error);
  g_assert_true (terrain_dat1_set_section_data (TERRAIN_DAT1 (model),
                                                TERRAIN_MODEL_TAG_VERTEX_COLOR, small, &error));
  g_assert_no_error (error);
  g_assert_false (terrain_dat1_set_section_data (TERRAIN_DAT1 (model), 0x1234, skin, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);

  saved = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (model), &error);
  g_assert_no_error (error);
  again = load_model (saved);
  assert_plane_geometry (again);
  got = terrain_dat1_get_section_data (TERRAIN_DAT1 (again), TERRAIN_MODEL_TAG_SKIN);
  g_assert_true (g_bytes_equal (got, skin));
  colours = terrain_dat1_get_section_data (TERRAIN_DAT1 (again), TERRAIN_MODEL_TAG_VERTEX_COLOR);
  g_assert_true (g_bytes_equal (colours, small));

  /* The sections after the shrunk one moved down, 16-byte aligned; the
   * total size follows. */
  terrain_dat1_get_section_span (TERRAIN_DAT1 (again), TERRAIN_MODEL_TAG_VERTICES,
                                 &vertices_after, NULL);
  g_assert_cmpuint (vertices_after, ==, vertices_before - 32);
  g_assert_true (terrain_dat1_get_section_span (TERRAIN_DAT1 (again), TERRAIN_MODEL_TAG_SKIN,
                                                &offset, &size));
  g_assert_cmpuint (offset % 16, ==, 0);
  g_assert_cmpuint (size, ==, sizeof big);
  g_assert_cmpuint (g_bytes_get_size (saved), ==, offset + size);
  g_assert_cmpuint (get_u32 ((const guint8 *) g_bytes_get_data (saved, NULL) + 8), ==,
                    offset + size);

  issues = terrain_document_validate (TERRAIN_DOCUMENT (again));
  g_assert_cmpuint (count_severity (issues, TERRAIN_SEVERITY_WARNING), ==, 0);
}

static void
test_empty_model (void)
{
  g_autoptr(TerrainTestDat1) f = g_new0 (TerrainTestDat1, 1);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainModel) model = NULL;
  g_autoptr(GBytes) glb = NULL;
  g_autoptr(GBytes) obj = NULL;
  g_autoptr(JsonNode) json = NULL;
  g_autoptr(GError) error = NULL;

  /* Portals and spawners: a model with no geometry sections. */
  f->asset_type = TERRAIN_MODEL_ASSET_TYPE;
  f->strings = g_byte_array_new ();
  g_byte_array_append (terrain_test_dat1_section (f, 0x11223344), (const guint8 *) "data", 4);
  bytes = terrain_test_dat1_layout (f);
  model = load_model (bytes);
  g_assert_false (terrain_model_has_geometry (model));
  g_assert_cmpuint (terrain_model_get_n_vertices (model), ==, 0);

  glb = terrain_model_export_glb (model, TERRAIN_MODEL_ALL_LODS, &error);
  g_assert_no_error (error);
  json = check_glb (glb);
  g_assert_false (json_object_has_member (json_node_get_object (json), "meshes") &&
                  json_array_get_length (json_object_get_array_member (
                    json_node_get_object (json), "meshes")) > 0);
  g_assert_cmpuint (g_bytes_get_size (glb) % 4, ==, 0);
  g_assert_cmpuint (get_u32 ((const guint8 *) g_bytes_get_data (glb, NULL) + 8), ==,
                    g_bytes_get_size (glb));
  obj = terrain_model_export_obj (model, 0, NULL, NULL, &error);
  g_assert_no_error (error);
}

/* Issue 19: an asset whose section count is 0 validated clean, and the
 * string block (the rest of the image, with no section to end it) printed
 * its binary bytes raw under "strings:". */
static gboolean
text_is_printable (const char *text)
{
  if (!g_utf8_validate (text, -1, NULL))
    return FALSE;
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if ((c < 0x20 && c != '\n') || (c >= 0x7F && c <= 0x9F))
        return FALSE;
    }
  return TRUE;
}

static void
test_no_sections (void)
{
  static const guint8 binary[] = { 'o', 'k', 0, 0x01, 0x1B, '[', '3', '1', 'm', 'r', 'e', 'd',
                                   0x7F, 0xC2, 0x85, 0xFF, 0xFE, 0, 0x90, 0x91, 0x92, 0 };
  guint32 types[] = { 0x12345678, TERRAIN_MODEL_ASSET_TYPE };

  for (guint t = 0; t < G_N_ELEMENTS (types); t++)
    {
      g_autoptr(TerrainTestDat1) f = g_new0 (TerrainTestDat1, 1);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(TerrainDocument) document = NULL;
      g_autoptr(GPtrArray) issues = NULL;
      g_autoptr(JsonNode) description = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *json = NULL;
      JsonArray *strings;
      gboolean warned = FALSE;

      f->asset_type = types[t];
      f->strings = g_byte_array_new ();
      g_byte_array_append (f->strings, binary, sizeof binary);
      bytes = terrain_test_dat1_layout (f);
      document = terrain_document_load_bytes (bytes, NULL, TERRAIN_FORMAT_UNKNOWN, NULL, &error);
      if (document == NULL)
        {
          /* A model needs its sections: refused with a message, never garbage. */
          g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
          g_assert_true (text_is_printable (error->message));
          continue;
        }
      g_assert_no_error (error);
      g_assert_cmpuint (terrain_dat1_get_n_sections (TERRAIN_DAT1 (document)), ==, 0);

      issues = terrain_document_validate (document);
      for (guint i = 0; i < issues->len; i++)
        {
          TerrainIssue *issue = g_ptr_array_index (issues, i);

          if (terrain_issue_get_severity (issue) >= TERRAIN_SEVERITY_WARNING &&
              terrain_issue_get_offset (issue) == 12 &&
              strstr (terrain_issue_get_message (issue), "section count is 0") != NULL)
            warned = TRUE;
        }
      g_assert_true (warned);

      description = terrain_document_describe (document);
      strings = json_object_get_array_member (json_node_get_object (description), "strings");
      g_assert_cmpuint (json_array_get_length (strings), >=, 2);
      g_assert_cmpstr (json_array_get_string_element (strings, 0), ==, "ok");
      g_assert_cmpstr (json_array_get_string_element (strings, 1), ==,
                       "\\x01\\x1B[31mred\\x7F\\u0085\xEF\xBF\xBD\xEF\xBF\xBD");
      json = json_to_string (description, FALSE);
      g_assert_true (text_is_printable (json));

      if (g_getenv ("TERRAIN_CLI") != NULL)
        {
          g_autoptr(GError) local_error = NULL;
          g_autofree char *dir = g_dir_make_tmp ("test-model-empty-XXXXXX", &local_error);
          g_autofree char *path = g_build_filename (dir, "empty.dat1", NULL);

          g_assert_no_error (local_error);
          g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                               &local_error);
          g_assert_no_error (local_error);
          {
            g_auto(TerrainTestCliResult) r = terrain_test_run_cli (dir, "info", "empty.dat1",
                                                                   NULL);

            g_assert_cmpint (r.status, ==, 0);
            g_assert_true (text_is_printable (r.out));
            g_assert_nonnull (strstr (r.out, "\\x1B[31mred"));
          }
          {
            g_auto(TerrainTestCliResult) r = terrain_test_run_cli (dir, "validate", "empty.dat1",
                                                                   NULL);

            g_assert_cmpint (r.status, ==, 1);
            g_assert_nonnull (strstr (r.out, "section count is 0"));
          }
          g_unlink (path);
          g_rmdir (dir);
        }
    }
}

/* The top view: LOD 0 from above, +X right and −Z up, tinted by height. */
static void
test_top_view (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_hill (33);
  g_autoptr(GBytes) bytes = terrain_test_dat1_layout (f);
  g_autoptr(TerrainModel) model = load_model (bytes);
  g_autoptr(TerrainImage) picture = NULL;
  g_autoptr(TerrainImage) heights = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  guint w, h, best = 0, bx = 0, by = 0;
  const guint8 *pixels;
  gsize stride;

  issues = terrain_document_validate (TERRAIN_DOCUMENT (model));
  g_assert_cmpuint (count_severity (issues, TERRAIN_SEVERITY_WARNING), ==, 0);

  picture = terrain_document_render_image (TERRAIN_DOCUMENT (model), NULL, &error);
  g_assert_no_error (error);
  heights = terrain_document_export_heights (TERRAIN_DOCUMENT (model), &error);
  g_assert_no_error (error);
  w = terrain_image_get_width (picture);
  h = terrain_image_get_height (picture);
  g_assert_cmpuint (w, ==, 1024);
  g_assert_cmpuint (h, ==, 1024);
  g_assert_cmpuint (terrain_image_get_width (heights), ==, w);
  g_assert_cmpint (terrain_image_get_format (heights), ==, TERRAIN_IMAGE_GRAY16);

  /* The mesh covers its square: every pixel is drawn. */
  pixels = terrain_image_get_data (picture, NULL);
  stride = terrain_image_get_stride (picture);
  for (guint y = 0; y < h; y += 3)
    for (guint x = 0; x < w; x += 3)
      g_assert_cmpuint (pixels[y * stride + 4 * x + 3], ==, 255);

  /* The peak (x +0.2, z −0.15) lies right of the middle and above it. */
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        const guint8 *row = terrain_image_get_data (heights, NULL) +
                            y * terrain_image_get_stride (heights);
        guint16 v;

        memcpy (&v, row + 2 * x, 2);
        if (v > best)
          {
            best = v;
            bx = x;
            by = y;
          }
      }
  g_assert_cmpuint (best, ==, 65535);
  g_assert_cmpfloat (fabs ((bx + 0.5) / w - 0.7), <, 0.03);
  g_assert_cmpfloat (fabs ((by + 0.5) / h - 0.35), <, 0.03);
}

/* The flat plane draws (one colour); what has no geometry says so. */
static void
test_top_view_plane (void)
{
  g_autoptr(TerrainTestDat1) plane = terrain_test_dat1_plane ();
  g_autoptr(GBytes) bytes = terrain_test_dat1_layout (plane);
  g_autoptr(TerrainModel) model = load_model (bytes);
  g_autoptr(TerrainTestDat1) empty = g_new0 (TerrainTestDat1, 1);
  g_autoptr(GBytes) empty_bytes = NULL;
  g_autoptr(TerrainModel) portal = NULL;
  g_autoptr(TerrainImage) picture = NULL;
  g_autoptr(GError) error = NULL;

  picture = terrain_document_render_image (TERRAIN_DOCUMENT (model), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_image_get_width (picture), ==, 1024);
  g_assert_cmpuint (terrain_image_get_height (picture), ==, 1024);

  empty->asset_type = TERRAIN_MODEL_ASSET_TYPE;
  empty->strings = g_byte_array_new ();
  g_byte_array_append (terrain_test_dat1_section (empty, 0x11223344), (const guint8 *) "data", 4);
  empty_bytes = terrain_test_dat1_layout (empty);
  portal = load_model (empty_bytes);
  g_assert_null (terrain_document_render_image (TERRAIN_DOCUMENT (portal), NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
  g_assert_true (g_str_has_prefix (error->message, "Model: "));
  g_clear_error (&error);
  g_assert_null (terrain_document_export_heights (TERRAIN_DOCUMENT (portal), &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
}

/* Structural check of a .glb, independent of any validator: header, chunk
 * lengths, buffer views inside the buffer, accessors inside their views,
 * POSITION min/max equal to the data, indices inside the attributes, unit
 * normals. Returns the JSON for further checks. */
static JsonNode *
check_glb (GBytes *glb)
{
  const guint8 *data;
  gsize size = 0, bin_offset = 0;
  guint32 json_length, bin_length = 0;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonArray *views, *accessors, *meshes;
  guint64 buffer_length = 0;

  data = g_bytes_get_data (glb, &size);
  g_assert_cmpuint (size, >=, 20);
  g_assert_cmpmem (data, 4, "glTF", 4);
  g_assert_cmpuint (get_u32 (data + 4), ==, 2);
  g_assert_cmpuint (get_u32 (data + 8), ==, size);
  json_length = get_u32 (data + 12);
  g_assert_cmpuint (json_length % 4, ==, 0);
  g_assert_cmpmem (data + 16, 4, "JSON", 4);
  g_assert_cmpuint (20 + (guint64) json_length, <=, size);
  if (20 + json_length < size)
    {
      bin_offset = 20 + json_length + 8;
      g_assert_cmpuint (bin_offset, <=, size);
      bin_length = get_u32 (data + 20 + json_length);
      g_assert_cmpuint (bin_length % 4, ==, 0);
      g_assert_cmpmem (data + 20 + json_length + 4, 4, "BIN\0", 4);
      g_assert_cmpuint (bin_offset + bin_length, ==, size);
    }
  else
    g_assert_cmpuint (20 + json_length, ==, size);

  json_parser_load_from_data (parser, (const char *) data + 20, json_length, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "asset"),
                                                  "version"), ==, "2.0");
  if (!json_object_has_member (root, "buffers"))
    {
      g_assert_cmpuint (bin_length, ==, 0);
      return json_node_copy (json_parser_get_root (parser));
    }

  buffer_length = json_object_get_int_member (
    json_array_get_object_element (json_object_get_array_member (root, "buffers"), 0),
    "byteLength");
  g_assert_cmpuint (buffer_length, <=, bin_length);
  g_assert_cmpuint (buffer_length + 3, >=, bin_length);

  views = json_object_get_array_member (root, "bufferViews");
  for (guint i = 0; i < json_array_get_length (views); i++)
    {
      JsonObject *view = json_array_get_object_element (views, i);
      guint64 offset = json_object_get_int_member_with_default (view, "byteOffset", 0);
      guint64 length = json_object_get_int_member (view, "byteLength");

      g_assert_cmpuint (length, >, 0);
      g_assert_cmpuint (offset + length, <=, buffer_length);
      g_assert_cmpuint (offset % 4, ==, 0);
    }

  accessors = json_object_get_array_member (root, "accessors");
  for (guint i = 0; i < json_array_get_length (accessors); i++)
    {
      JsonObject *acc = json_array_get_object_element (accessors, i);
      JsonObject *view = json_array_get_object_element (
        views, json_object_get_int_member (acc, "bufferView"));
      guint64 view_offset = json_object_get_int_member_with_default (view, "byteOffset", 0);
      guint64 offset = json_object_get_int_member_with_default (acc, "byteOffset", 0);
      guint64 count = json_object_get_int_member (acc, "count");
      guint component = json_object_get_int_member (acc, "componentType");
      const char *type = json_object_get_string_member (acc, "type");
      guint n = g_str_equal (type, "VEC3") ? 3 : g_str_equal (type, "VEC2") ? 2 : 1;
      guint csize = component == 5126 || component == 5125 ? 4 : 2;
      guint64 stride = json_object_get_int_member_with_default (view, "byteStride", n * csize);

      g_assert_cmpuint (count, >, 0);
      g_assert_cmpuint (offset % csize, ==, 0);
      g_assert_cmpuint (offset + stride * (count - 1) + n * csize, <=,
                        json_object_get_int_member (view, "byteLength"));

      if (json_object_has_member (acc, "min"))
        {
          JsonArray *min = json_object_get_array_member (acc, "min");
          JsonArray *max = json_object_get_array_member (acc, "max");

          for (guint c = 0; c < n; c++)
            {
              gfloat lo = G_MAXFLOAT, hi = -G_MAXFLOAT;

              for (guint64 e = 0; e < count; e++)
                {
                  gfloat v;
                  memcpy (&v, data + bin_offset + view_offset + offset + e * stride + 4 * c, 4);
                  lo = MIN (lo, v);
                  hi = MAX (hi, v);
                }
              g_assert_cmpfloat (json_array_get_double_element (min, c), ==, lo);
              g_assert_cmpfloat (json_array_get_double_element (max, c), ==, hi);
            }
        }
    }

  meshes = json_object_get_array_member (root, "meshes");
  for (guint m = 0; m < json_array_get_length (meshes); m++)
    {
      JsonArray *primitives = json_object_get_array_member (
        json_array_get_object_element (meshes, m), "primitives");

      for (guint p = 0; p < json_array_get_length (primitives); p++)
        {
          JsonObject *prim = json_array_get_object_element (primitives, p);
          JsonObject *attributes = json_object_get_object_member (prim, "attributes");
          JsonObject *pos = json_array_get_object_element (
            accessors, json_object_get_int_member (attributes, "POSITION"));
          JsonObject *nor = json_array_get_object_element (
            accessors, json_object_get_int_member (attributes, "NORMAL"));
          JsonObject *idx = json_array_get_object_element (
            accessors, json_object_get_int_member (prim, "indices"));
          JsonObject *idx_view = json_array_get_object_element (
            views, json_object_get_int_member (idx, "bufferView"));
          JsonObject *nor_view = json_array_get_object_element (
            views, json_object_get_int_member (nor, "bufferView"));
          guint64 vcount = json_object_get_int_member (pos, "count");
          guint64 icount = json_object_get_int_member (idx, "count");
          gboolean wide = json_object_get_int_member (idx, "componentType") == 5125;
          const guint8 *ip = data + bin_offset +
                             json_object_get_int_member_with_default (idx_view, "byteOffset", 0) +
                             json_object_get_int_member_with_default (idx, "byteOffset", 0);
          const guint8 *np = data + bin_offset +
                             json_object_get_int_member_with_default (nor_view, "byteOffset", 0) +
                             json_object_get_int_member_with_default (nor, "byteOffset", 0);

          g_assert_cmpint (json_object_get_int_member (prim, "mode"), ==, 4);
          g_assert_cmpuint (icount % 3, ==, 0);
          g_assert_cmpuint (json_object_get_int_member (nor, "count"), ==, vcount);
          for (guint64 k = 0; k < icount; k++)
            {
              guint32 v = wide ? get_u32 (ip + 4 * k) : (guint32) (ip[2 * k] | ip[2 * k + 1] << 8);

              g_assert_cmpuint (v, <, vcount);
            }
          for (guint64 k = 0; k < vcount; k++)
            {
              gfloat nv[3];

              memcpy (nv, np + 12 * k, 12);
              g_assert_cmpfloat_with_epsilon (nv[0] * nv[0] + nv[1] * nv[1] + nv[2] * nv[2], 1,
                                              1e-5);
            }
        }
    }

  return json_node_copy (json_parser_get_root (parser));
}

static void
test_export_glb (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainModel) model = NULL;
  g_autoptr(GBytes) glb = NULL;
  g_autoptr(GBytes) glb0 = NULL;
  g_autoptr(JsonNode) json = NULL;
  g_autoptr(JsonNode) json0 = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonArray *min;

  fixture_add_lod1 (f);
  bytes = terrain_test_dat1_layout (f);
  model = load_model (bytes);

  glb = terrain_model_export_glb (model, TERRAIN_MODEL_ALL_LODS, &error);
  g_assert_no_error (error);
  json = check_glb (glb);
  root = json_node_get_object (json);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "meshes")), ==, 2);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "nodes")), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (
                     json_array_get_object_element (json_object_get_array_member (root,
                                                                                  "materials"),
                                                    1), "name"), ==, "second_one");
  min = json_object_get_array_member (
    json_array_get_object_element (json_object_get_array_member (root, "accessors"), 0), "min");
  g_assert_cmpfloat (json_array_get_double_element (min, 0), ==, -0.5);

  glb0 = terrain_model_export_glb (model, 0, &error);
  g_assert_no_error (error);
  json0 = check_glb (glb0);
  g_assert_cmpuint (json_array_get_length (
                      json_object_get_array_member (json_node_get_object (json0), "meshes")), ==,
                    1);
}

/* Runs the Khronos glTF validator (npm package gltf-validator) on an exported
 * .glb when node and the package are available; see tests/validate-gltf.js
 * for how to install it. */
static void
test_gltf_validator (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainModel) model = NULL;
  g_autoptr(GBytes) glb = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *node = g_find_program_in_path ("node");
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "validate-gltf.js", NULL);
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = 0;

  if (node == NULL)
    {
      g_test_skip ("node is not installed: the glTF validator cannot run");
      return;
    }

  fixture_add_lod1 (f);
  bytes = terrain_test_dat1_layout (f);
  model = load_model (bytes);
  glb = terrain_model_export_glb (model, TERRAIN_MODEL_ALL_LODS, &error);
  g_assert_no_error (error);

  dir = g_dir_make_tmp ("test-model-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "plane.glb", NULL);
  g_file_set_contents (path, g_bytes_get_data (glb, NULL), g_bytes_get_size (glb), &error);
  g_assert_no_error (error);

  {
    const char *argv[] = { node, script, path, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                  &error);
  }
  g_assert_no_error (error);
  g_remove (path);
  g_rmdir (dir);

  g_test_message ("validator: %s%s", out, err);
  if (WIFEXITED (status) && WEXITSTATUS (status) == 77)
    {
      g_test_skip ("the gltf-validator npm package is not installed (see tests/validate-gltf.js)");
      return;
    }
  g_assert_true (g_spawn_check_wait_status (status, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (out, "\"numErrors\": 0"));
  g_assert_nonnull (strstr (out, "\"numWarnings\": 0"));
}

static void
test_cli (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) plain = NULL;
  g_autoptr(GBytes) wrapped = plane_wrapped_lz4 ();
  g_autoptr(GBytes) obj = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) glb = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(TerrainModel) model = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;
  gfloat p[3];

  if (g_getenv ("TERRAIN_CLI") == NULL)
    {
      g_test_skip ("TERRAIN_CLI is not set (run the test through meson)");
      return;
    }

  fixture_add_lod1 (f);
  plain = terrain_test_dat1_layout (f);
  dir = g_dir_make_tmp ("test-model-cli-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "plane.model", NULL);
  g_file_set_contents (path, g_bytes_get_data (wrapped, NULL), g_bytes_get_size (wrapped), &error);
  g_assert_no_error (error);
  {
    g_autofree char *two = g_build_filename (dir, "two.model", NULL);

    g_file_set_contents (two, g_bytes_get_data (plain, NULL), g_bytes_get_size (plain), &error);
    g_assert_no_error (error);
  }

  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (dir, "model", "info", "--json",
                                                           "plane.model", NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "\"compression\" : \"lz4\""));
    g_assert_nonnull (strstr (r.out, "\"position_shift\" : 12"));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (dir, "info", "plane.model", NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "materials/plane.material"));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (dir, "model", "roundtrip",
                                                           "plane.model", "two.model", NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "plane.model: stored write byte-exact"));
    g_assert_nonnull (strstr (r.out, "two.model: stored write byte-exact"));
    g_assert_nonnull (strstr (r.out, "reads back to the same 432-byte DAT1"));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (dir, "roundtrip", "plane.model", NULL);

    g_assert_cmpint (r.status, ==, 0);
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (dir, "validate", "two.model", NULL);

    g_assert_cmpint (r.status, ==, 0);
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (dir, "model", "export-gltf",
                                                           "two.model", NULL);
    g_autofree char *glb_path = g_build_filename (dir, "two.glb", NULL);
    g_autoptr(JsonNode) json = NULL;

    g_assert_cmpint (r.status, ==, 0);
    g_file_get_contents (glb_path, &contents, &length, &error);
    g_assert_no_error (error);
    glb = g_bytes_new_take (g_steal_pointer (&contents), length);
    json = check_glb (glb);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (
                        json_node_get_object (json), "meshes")), ==, 2);
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (dir, "model", "export-obj", "--lod",
                                                           "1", "-o", "lod1.obj",
                                                           "two.model", NULL);
    g_autofree char *obj_path = g_build_filename (dir, "lod1.obj", NULL);
    g_autofree char *mtl_path = g_build_filename (dir, "lod1.mtl", NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (g_file_test (mtl_path, G_FILE_TEST_EXISTS));
    g_file_get_contents (obj_path, &contents, &length, &error);
    g_assert_no_error (error);
    obj = g_bytes_new_take (g_steal_pointer (&contents), length);
    g_assert_nonnull (strstr (g_bytes_get_data (obj, NULL), "mtllib lod1.mtl\n"));
    edited = replace_line (obj, "v -0.25 0.0100097656 -0.25\n", "v -0.25 0.75 -0.25\n");
    g_file_set_contents (obj_path, g_bytes_get_data (edited, NULL), g_bytes_get_size (edited),
                         &error);
    g_assert_no_error (error);
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (dir, "model", "import-obj", "--lod",
                                                           "1", "-o", "edited.model",
                                                           "two.model", "lod1.obj", NULL);
    g_autofree char *edited_path = g_build_filename (dir, "edited.model", NULL);

    g_assert_cmpint (r.status, ==, 0);
    file = g_file_new_for_path (edited_path);
    model = terrain_model_new_from_file (file, NULL, NULL, &error);
    g_assert_no_error (error);
    terrain_model_get_position (model, 4, p);
    g_assert_cmpfloat (p[1], ==, 0.75f);
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (dir, "model", "export-obj", "--lod",
                                                           "7", "two.model", NULL);

    g_assert_cmpint (r.status, ==, 64);
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (dir, "model", "export-obj", "--lod",
                                                           "2", "two.model", NULL);

    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "no LOD 2"));
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (dir, "model", "nonsense", NULL);

    g_assert_cmpint (r.status, ==, 64);
  }

  {
    g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (listing)) != NULL)
      {
        g_autofree char *child = g_build_filename (dir, name, NULL);
        g_remove (child);
      }
  }
  g_rmdir (dir);
}

/* Every byte of the plain and the compressed plane set to a few values:
 * loading either fails with a TERRAIN_ERROR or gives a model that can be
 * described, validated, exported and written. */
static void
exercise (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) document =
    terrain_document_load_bytes (bytes, NULL, TERRAIN_FORMAT_UNKNOWN, NULL, &error);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) recompressed = NULL;
  g_autoptr(GBytes) obj = NULL;
  g_autoptr(GBytes) mtl = NULL;
  g_autoptr(GBytes) glb = NULL;
  g_autofree char *where = NULL;

  if (document == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == TERRAIN_ERROR);
      return;
    }

  node = terrain_document_describe (document);
  {
    /* The description is valid JSON (strings from the file made UTF-8). */
    g_autofree char *text = json_to_string (node, FALSE);
    g_autoptr(JsonNode) back = json_from_string (text, &error);

    g_assert_no_error (error);
    g_assert_nonnull (back);
  }
  issues = terrain_document_validate (document);
  where = terrain_document_describe_offset (document, g_bytes_get_size (bytes) / 2);
  saved = terrain_document_save_to_bytes (document, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (saved, bytes));
  recompressed = terrain_dat1_save_to_bytes_full (TERRAIN_DAT1 (document),
                                                  TERRAIN_DAT1_WRITE_RECOMPRESS, &error);
  g_assert_no_error (error);

  if (TERRAIN_IS_MODEL (document))
    {
      TerrainModel *model = TERRAIN_MODEL (document);

      obj = terrain_model_export_obj (model, TERRAIN_MODEL_ALL_LODS, "x.mtl", &mtl, &error);
      g_assert_no_error (error);
      glb = terrain_model_export_glb (model, TERRAIN_MODEL_ALL_LODS, &error);
      g_assert_no_error (error);
      g_clear_pointer (&node, json_node_unref);
      node = check_glb (glb);
    }
}

static void
test_mutations (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) plain = NULL;
  g_autoptr(GBytes) wrapped = plane_wrapped_lz4 ();
  static const guint8 values[] = { 0x00, 0x01, 0x7F, 0x80, 0xFF };
  GBytes *inputs[2];

  fixture_add_lod1 (f);
  plain = terrain_test_dat1_layout (f);
  inputs[0] = plain;
  inputs[1] = wrapped;

  for (guint k = 0; k < G_N_ELEMENTS (inputs); k++)
    {
      gsize size = g_bytes_get_size (inputs[k]);

      for (gsize i = 0; i < size; i++)
        for (guint v = 0; v < G_N_ELEMENTS (values); v++)
          {
            guint8 *copy = g_memdup2 (g_bytes_get_data (inputs[k], NULL), size);
            g_autoptr(GBytes) mutated = NULL;

            copy[i] = values[v];
            mutated = g_bytes_new_take (copy, size);
            exercise (mutated);
          }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/Model/normal-decode", test_normal_decode);
  g_test_add_func ("/Terrain/Model/layout-matches-writer", test_layout_matches_writer);
  g_test_add_func ("/Terrain/Model/plain", test_plain);
  g_test_add_func ("/Terrain/Model/wrapped-lz4", test_wrapped_lz4);
  g_test_add_func ("/Terrain/Model/variants", test_variants);
  g_test_add_func ("/Terrain/Model/detect-rejects", test_detect_rejects);
  g_test_add_func ("/Terrain/Model/generic-dat1", test_generic_dat1);
  g_test_add_func ("/Terrain/Model/truncations", test_truncations);
  g_test_add_func ("/Terrain/Model/bad-ranges", test_bad_ranges);
  g_test_add_func ("/Terrain/Model/bad-container", test_bad_container);
  g_test_add_func ("/Terrain/Model/describe", test_describe);
  g_test_add_func ("/Terrain/Model/uv-stride-8", test_uv_stride_8);
  g_test_add_func ("/Terrain/Model/wrapper-size-follows", test_wrapper_size_follows);
  g_test_add_func ("/Terrain/Model/edit-positions", test_edit_positions);
  g_test_add_func ("/Terrain/Model/requantize", test_requantize);
  g_test_add_func ("/Terrain/Model/export-obj", test_export_obj);
  g_test_add_func ("/Terrain/Model/import-obj", test_import_obj);
  g_test_add_func ("/Terrain/Model/resize-section", test_resize_section);
  g_test_add_func ("/Terrain/Model/empty", test_empty_model);
  g_test_add_func ("/Terrain/Model/no-sections", test_no_sections);
  g_test_add_func ("/Terrain/Model/export-glb", test_export_glb);
  g_test_add_func ("/Terrain/Model/gltf-validator", test_gltf_validator);
  g_test_add_func ("/Terrain/Model/mutations", test_mutations);
  g_test_add_func ("/Terrain/Model/cli", test_cli);
  g_test_add_func ("/Terrain/Model/top-view", test_top_view);
  g_test_add_func ("/Terrain/Model/top-view-plane", test_top_view_plane);

  return g_test_run ();
}
