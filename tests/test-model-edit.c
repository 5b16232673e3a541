/* test-model-edit.c: Insomniac .model edits, OBJ and glTF export, OBJ import,
 * resized sections, empty models, top views and the CLI
 *
 * On the fixtures of terrain-test-fixtures.c and test-model-fixture.c
 * (insomniac-model.md).
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
  g_assert_cmpuint (terrain_test_get_u32 ((const guint8 *) g_bytes_get_data (saved, NULL) + 8), ==,
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
  g_assert_cmpuint (terrain_test_get_u32 ((const guint8 *) g_bytes_get_data (glb, NULL) + 8), ==,
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

int
main (int   argc,
      char *argv[])
{
  /* Run by hand, outside meson, the glTF validator's script is still found
   * in the source tree. */
  if (g_getenv ("G_TEST_SRCDIR") == NULL)
    g_setenv ("G_TEST_SRCDIR", TERRAIN_TEST_SRCDIR, TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/Model/edit-positions", test_edit_positions);
  g_test_add_func ("/Terrain/Model/requantize", test_requantize);
  g_test_add_func ("/Terrain/Model/export-obj", test_export_obj);
  g_test_add_func ("/Terrain/Model/import-obj", test_import_obj);
  g_test_add_func ("/Terrain/Model/resize-section", test_resize_section);
  g_test_add_func ("/Terrain/Model/empty", test_empty_model);
  g_test_add_func ("/Terrain/Model/no-sections", test_no_sections);
  g_test_add_func ("/Terrain/Model/export-glb", test_export_glb);
  g_test_add_func ("/Terrain/Model/gltf-validator", test_gltf_validator);
  g_test_add_func ("/Terrain/Model/cli", test_cli);
  g_test_add_func ("/Terrain/Model/top-view", test_top_view);
  g_test_add_func ("/Terrain/Model/top-view-plane", test_top_view_plane);

  return g_test_run ();
}
