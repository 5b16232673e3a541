/* test-model-fixture.c: .model fixtures and checks that test-model.c and
 * test-model-edit.c share
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

/* A second mesh in LOD 1 (absolute indices, its own vertex range) after
 * the plane's, so the look has two distinct LODs. */
void
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
    terrain_test_put_u16 (a, indices[i]);
  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_MESHES);
  terrain_test_dat1_add_mesh (a, 4, 6, 3, 3, 0, 1);
  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_LOOK);
  g_byte_array_set_size (a, 0);
  terrain_test_put_u16 (a, 0);
  terrain_test_put_u16 (a, 1);
  for (guint i = 0; i < 3; i++)
    {
      terrain_test_put_u16 (a, 1);
      terrain_test_put_u16 (a, 1);
    }
  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_UV0);
  for (guint i = 0; i < 3; i++)
    {
      terrain_test_put_u16 (a, 0x3800);
      terrain_test_put_u16 (a, 0x3800);
    }
  terrain_test_dat1_add_material (f, "materials/second.material", "second one");
}

GBytes *
lz4_block (GBytes *image)
{
  gsize size = g_bytes_get_size (image);
  int bound = LZ4_compressBound ((int) size);
  char *dest = g_malloc (bound);
  int n = LZ4_compress_default (g_bytes_get_data (image, NULL), dest, (int) size, bound);

  g_assert_cmpint (n, >, 0);
  return g_bytes_new_take (dest, n);
}

GBytes *
wrap (guint32  magic,
      GBytes  *body,
      guint32  size)
{
  GByteArray *out = g_byte_array_new ();

  terrain_test_put_u32 (out, magic);
  terrain_test_put_u32 (out, size);
  for (guint i = 0; i < 28; i++)
    g_byte_array_append (out, (const guint8 *) "", 1);
  g_byte_array_append (out, g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  return g_byte_array_free_to_bytes (out);
}

/* The plane behind the wrapper, as one raw LZ4 block: how all 8,780 models
 * of the census are stored. */
GBytes *
plane_wrapped_lz4 (void)
{
  g_autoptr(TerrainTestDat1) f = terrain_test_dat1_plane ();
  g_autoptr(GBytes) image = terrain_test_dat1_layout (f);
  g_autoptr(GBytes) block = lz4_block (image);

  return wrap (TERRAIN_MODEL_ASSET_TYPE, block, g_bytes_get_size (image));
}

TerrainModel *
load_model (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  TerrainModel *model = terrain_model_new_from_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (model);
  return model;
}

void
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

gsize
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

void
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

/* The plane's first UV pair, read through the 8-byte stride. */
void
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
/* Structural check of a .glb, independent of any validator: header, chunk
 * lengths, buffer views inside the buffer, accessors inside their views,
 * POSITION min/max equal to the data, indices inside the attributes, unit
 * normals. Returns the JSON for further checks. */
JsonNode *
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
  g_assert_cmpuint (terrain_test_get_u32 (data + 4), ==, 2);
  g_assert_cmpuint (terrain_test_get_u32 (data + 8), ==, size);
  json_length = terrain_test_get_u32 (data + 12);
  g_assert_cmpuint (json_length % 4, ==, 0);
  g_assert_cmpmem (data + 16, 4, "JSON", 4);
  g_assert_cmpuint (20 + (guint64) json_length, <=, size);
  if (20 + json_length < size)
    {
      bin_offset = 20 + json_length + 8;
      g_assert_cmpuint (bin_offset, <=, size);
      bin_length = terrain_test_get_u32 (data + 20 + json_length);
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
              guint32 v = wide ? terrain_test_get_u32 (ip + 4 * k)
                               : (guint32) (ip[2 * k] | ip[2 * k + 1] << 8);

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
