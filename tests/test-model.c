/* test-model.c: Insomniac DAT1 containers and .model assets: reading, variants,
 * structural errors, description and mutations
 *
 * Fixtures are built in code (terrain-test-fixtures.c) from
 * insomniac-model.md and field-notes.md: the 1x1 plane (nibble 12, packed
 * normal 0x200FFE00, UVs (0,0) (0,1) (1,1) (1,0)), stored plain, behind the
 * 36-byte wrapper, and as raw LZ4 blocks (test-model-fixture.c). Edits,
 * exports, imports, top views and the CLI are in test-model-edit.c.
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
#include "test-model-fixture.h"


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
  terrain_test_set_u32 (materials->data, terrain_test_get_u32 (materials->data) + base);
  terrain_test_set_u32 (materials->data + 4, terrain_test_get_u32 (materials->data + 4) + base);
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
  terrain_test_set_u32 (terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_MESHES)->data + 0x1C, 5);
}

static void
mutate_index_range (TerrainTestDat1 *f)
{
  terrain_test_set_u32 (terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_MESHES)->data + 0x14, 1);
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
  terrain_test_set_u32 (terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_MATERIALS)->data + 4, 1000);
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
        terrain_test_set_u32 (copy + cases[i].at, cases[i].value);
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
      terrain_test_put_u16 (uv, pairs[v][i]);
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
  g_test_add_func ("/Terrain/Model/mutations", test_mutations);

  return g_test_run ();
}
