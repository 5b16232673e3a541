/* terrain-model-export.c: Wavefront OBJ+MTL and glTF 2.0 binary export of
 * Insomniac models
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-model.h"
#include "terrain-model-private.h"
#include "terrain-version.h"
#include "core/terrain-error.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-writer-private.h"

/* glTF 2.0 constants. */
#define GLB_MAGIC              0x46546C67u  /* "glTF" */
#define GLB_VERSION            2
#define GLB_CHUNK_JSON         0x4E4F534Au  /* "JSON" */
#define GLB_CHUNK_BIN          0x004E4942u  /* "BIN\0" */
#define GL_ARRAY_BUFFER        34962
#define GL_ELEMENT_ARRAY_BUFFER 34963
#define GL_UNSIGNED_SHORT      5123
#define GL_UNSIGNED_INT        5125
#define GL_FLOAT               5126
#define GL_TRIANGLES           4

/* The longer side of the top view, in pixels. */
#define TOP_VIEW_SIDE          1024

/* Names the exporters give materials: the material's name with blanks made
 * underscores (OBJ names end at a blank), made unique with the index. */
static char **
material_names (TerrainModel *self)
{
  guint n = terrain_model_get_n_materials (self);
  char **names = g_new0 (char *, n + 1);

  for (guint i = 0; i < n; i++)
    {
      const char *name = terrain_model_get_material_name (self, i);
      char *s;

      /* Names go into JSON and text files: they must be UTF-8. */
      if (name == NULL || *name == '\0')
        s = g_strdup_printf ("material_%u", i);
      else
        s = g_utf8_make_valid (name, -1);
      for (char *p = s; *p != '\0'; p++)
        if (g_ascii_isspace (*p) || (guchar) *p < 0x20)
          *p = '_';
      for (guint j = 0; j < i; j++)
        if (strcmp (names[j], s) == 0)
          {
            char *unique = g_strdup_printf ("%s_%u", s, i);

            g_free (s);
            s = unique;
            break;
          }
      names[i] = s;
    }

  return names;
}

static void
append_float (GString *out,
              gdouble  value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    value = 0;
  g_string_append (out, g_ascii_formatd (buffer, sizeof buffer, "%.9g", value));
}

/**
 * terrain_model_export_obj:
 * @self: a #TerrainModel
 * @lod: a LOD index below [method@Terrain.Model.get_n_lods], or
 *   %TERRAIN_MODEL_ALL_LODS for one object per distinct LOD
 * @mtl_name: (nullable): the file name the OBJ's `mtllib` names, or %NULL
 *   to write no `mtllib` line
 * @mtl: (out) (optional) (transfer full): the MTL library: one material per
 *   model material, named after it, with its `.material` path in a comment
 * @error: return location for a #GError
 *
 * Writes the geometry as Wavefront OBJ: an `o lodN` object per LOD and a
 * `g` group per mesh with its material. Each mesh writes its vertex window
 * ([method@Terrain.Model.get_mesh_window]) as `v` (model units, +Y up), `vt`
 * (u, 1 − v: OBJ puts the texture origin at the bottom left, the model's UVs
 * have it at the top left as in glTF) and `vn` lines, then its triangles.
 * [method@Terrain.Model.import_obj] reads the positions back.
 *
 * Returns: (transfer full) (nullable): the OBJ text, or %NULL with
 *   %TERRAIN_ERROR_OUT_OF_RANGE for a LOD the model does not have
 */
GBytes *
terrain_model_export_obj (TerrainModel  *self,
                          gint           lod,
                          const char    *mtl_name,
                          GBytes       **mtl,
                          GError       **error)
{
  g_auto(GStrv) names = NULL;
  GString *out;
  guint first_lod, end_lod, base = 0;
  guint n_materials;
  gboolean has_uv;

  g_return_val_if_fail (TERRAIN_IS_MODEL (self), NULL);

  if (mtl != NULL)
    *mtl = NULL;
  if (!terrain_model_select_lods (self, lod, &first_lod, &end_lod, error))
    return NULL;

  names = material_names (self);
  n_materials = terrain_model_get_n_materials (self);
  has_uv = terrain_model_get_uv_stride (self) > 0;

  out = g_string_new ("# Exported by libterrain " TERRAIN_VERSION_S
                      " from an Insomniac DAT1 model (+Y up)\n");
  g_string_append (out, "# Each mesh lists its vertex window in turn; keep the vertex order to "
                        "import edited positions.\n");
  if (mtl_name != NULL)
    g_string_append_printf (out, "mtllib %s\n", mtl_name);

  for (guint l = first_lod; l < end_lod; l++)
    {
      guint first_mesh = 0, n_meshes = 0;

      terrain_model_get_lod (self, l, &first_mesh, &n_meshes);
      g_string_append_printf (out, "o lod%u\n", l);

      for (guint m = first_mesh; m < first_mesh + n_meshes; m++)
        {
          TerrainModelMesh mesh;
          guint window_first = 0, window_count = 0;

          terrain_model_get_mesh (self, m, &mesh);
          terrain_model_get_mesh_window (self, m, &window_first, &window_count);

          g_string_append_printf (out, "g lod%u_mesh%u\n", l, m);
          if (mesh.material < n_materials)
            g_string_append_printf (out, "usemtl %s\n", names[mesh.material]);

          for (guint v = window_first; v < window_first + window_count; v++)
            {
              gfloat p[3], n[3], uv[2];

              terrain_model_get_position (self, v, p);
              terrain_model_get_normal (self, v, n);
              g_string_append (out, "v ");
              for (guint i = 0; i < 3; i++)
                {
                  append_float (out, p[i]);
                  g_string_append_c (out, i < 2 ? ' ' : '\n');
                }
              if (has_uv)
                {
                  terrain_model_get_uv (self, v, uv);
                  g_string_append (out, "vt ");
                  append_float (out, uv[0]);
                  g_string_append_c (out, ' ');
                  append_float (out, 1.0 - uv[1]);
                  g_string_append_c (out, '\n');
                }
              g_string_append (out, "vn ");
              for (guint i = 0; i < 3; i++)
                {
                  append_float (out, n[i]);
                  g_string_append_c (out, i < 2 ? ' ' : '\n');
                }
            }

          for (guint32 k = 0; k + 2 < mesh.index_count; k += 3)
            {
              g_string_append_c (out, 'f');
              for (guint c = 0; c < 3; c++)
                {
                  guint index = base + terrain_model_get_mesh_vertex (self, m, k + c) -
                                window_first + 1;

                  if (has_uv)
                    g_string_append_printf (out, " %u/%u/%u", index, index, index);
                  else
                    g_string_append_printf (out, " %u//%u", index, index);
                }
              g_string_append_c (out, '\n');
            }
          base += window_count;
        }
    }

  if (mtl != NULL)
    {
      GString *lib = g_string_new ("# Materials of an Insomniac DAT1 model, exported by "
                                   "libterrain " TERRAIN_VERSION_S "\n");

      for (guint i = 0; i < n_materials; i++)
        {
          const char *path = terrain_model_get_material_path (self, i);

          g_string_append_printf (lib, "\nnewmtl %s\n", names[i]);
          if (path != NULL && *path != '\0')
            {
              g_autofree char *valid = g_utf8_make_valid (path, -1);

              g_strdelimit (valid, "\r\n", ' ');
              g_string_append_printf (lib, "# %s\n", valid);
            }
          g_string_append (lib, "Kd 0.8 0.8 0.8\nKa 0 0 0\nKs 0 0 0\nd 1\nillum 1\n");
        }
      *mtl = g_string_free_to_bytes (lib);
    }

  return g_string_free_to_bytes (out);
}

/* glTF */

typedef struct
{
  JsonBuilder *accessors;
  guint        n_accessors;
} Accessors;

static guint
add_accessor (Accessors    *acc,
              guint         buffer_view,
              gsize         byte_offset,
              guint         component_type,
              gsize         count,
              const char   *type,
              const gfloat *min,
              const gfloat *max,
              guint         n_components)
{
  JsonBuilder *b = acc->accessors;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "bufferView");
  json_builder_add_int_value (b, buffer_view);
  if (byte_offset > 0)
    {
      json_builder_set_member_name (b, "byteOffset");
      json_builder_add_int_value (b, (gint64) byte_offset);
    }
  json_builder_set_member_name (b, "componentType");
  json_builder_add_int_value (b, component_type);
  json_builder_set_member_name (b, "count");
  json_builder_add_int_value (b, (gint64) count);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, type);
  if (min != NULL && max != NULL)
    {
      json_builder_set_member_name (b, "min");
      json_builder_begin_array (b);
      for (guint i = 0; i < n_components; i++)
        json_builder_add_double_value (b, min[i]);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "max");
      json_builder_begin_array (b);
      for (guint i = 0; i < n_components; i++)
        json_builder_add_double_value (b, max[i]);
      json_builder_end_array (b);
    }
  json_builder_end_object (b);

  return acc->n_accessors++;
}

static void
add_buffer_view (JsonBuilder *b,
                 gsize        offset,
                 gsize        length,
                 guint        stride,
                 guint        target)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "buffer");
  json_builder_add_int_value (b, 0);
  if (offset > 0)
    {
      json_builder_set_member_name (b, "byteOffset");
      json_builder_add_int_value (b, (gint64) offset);
    }
  json_builder_set_member_name (b, "byteLength");
  json_builder_add_int_value (b, (gint64) length);
  if (stride > 0)
    {
      json_builder_set_member_name (b, "byteStride");
      json_builder_add_int_value (b, stride);
    }
  json_builder_set_member_name (b, "target");
  json_builder_add_int_value (b, target);
  json_builder_end_object (b);
}

static void
put_float (TerrainWriter *writer,
           gfloat         value)
{
  terrain_writer_put_f32 (writer, isfinite (value) ? value : 0.0f);
}

static void
pad_to_4 (TerrainWriter *writer,
          guint8         byte)
{
  while (terrain_writer_tell (writer) % 4 != 0)
    terrain_writer_put_u8 (writer, byte);
}

/**
 * terrain_model_export_glb:
 * @self: a #TerrainModel
 * @lod: a LOD index below [method@Terrain.Model.get_n_lods], or
 *   %TERRAIN_MODEL_ALL_LODS for one glTF mesh and node per distinct LOD
 * @error: return location for a #GError
 *
 * Writes the geometry as a glTF 2.0 binary (`.glb`): one buffer holding every
 * vertex's position (float, model units, +Y up as glTF), unit normal and
 * UV0 (as stored: glTF and the model put the texture origin at the top left),
 * then the indices (u16, or u32 when a mesh window exceeds 65535 vertices).
 * Each LOD is a mesh (named "LOD n") with one triangle primitive per submesh
 * whose accessors cover the submesh's vertex window, indices made relative to
 * it; materials are named after the model's. A model without geometry gives
 * an asset with an empty scene.
 *
 * Returns: (transfer full) (nullable): the `.glb` file, or %NULL with
 *   %TERRAIN_ERROR_OUT_OF_RANGE for a LOD the model does not have or
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED beyond 4 GiB
 */
GBytes *
terrain_model_export_glb (TerrainModel  *self,
                          gint           lod,
                          GError       **error)
{
  g_autoptr(JsonBuilder) root = json_builder_new ();
  g_autoptr(JsonBuilder) accessors_builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) accessors_node = NULL;
  g_autoptr(JsonNode) root_node = NULL;
  g_autoptr(GBytes) bin = NULL;
  g_autofree char *json = NULL;
  g_auto(GStrv) names = NULL;
  Accessors acc = { accessors_builder, 0 };
  TerrainWriter buffer, glb;
  guint first_lod, end_lod, n_vertices, n_materials, uv_stride;
  gsize positions_offset, normals_offset, uvs_offset = 0, indices_offset, indices_length;
  gboolean wide = FALSE, any_mesh = FALSE;
  gsize json_length = 0;

  g_return_val_if_fail (TERRAIN_IS_MODEL (self), NULL);

  if (!terrain_model_select_lods (self, lod, &first_lod, &end_lod, error))
    return NULL;

  n_vertices = terrain_model_get_n_vertices (self);
  n_materials = terrain_model_get_n_materials (self);
  uv_stride = terrain_model_get_uv_stride (self);
  names = material_names (self);

  for (guint m = 0; m < terrain_model_get_n_meshes (self); m++)
    {
      guint count = 0;

      terrain_model_get_mesh_window (self, m, NULL, &count);
      wide = wide || count > G_MAXUINT16;
    }

  /* The binary buffer: positions, normals, UVs of every vertex, then the
   * indices of the exported meshes, each block 4-byte aligned. */
  terrain_writer_init (&buffer, (gsize) n_vertices * 32);
  positions_offset = terrain_writer_tell (&buffer);
  for (guint v = 0; v < n_vertices; v++)
    {
      gfloat p[3];

      terrain_model_get_position (self, v, p);
      for (guint i = 0; i < 3; i++)
        put_float (&buffer, p[i]);
    }
  normals_offset = terrain_writer_tell (&buffer);
  for (guint v = 0; v < n_vertices; v++)
    {
      gfloat n[3];

      terrain_model_get_normal (self, v, n);
      for (guint i = 0; i < 3; i++)
        put_float (&buffer, n[i]);
    }
  if (uv_stride > 0)
    {
      uvs_offset = terrain_writer_tell (&buffer);
      for (guint v = 0; v < n_vertices; v++)
        {
          gfloat uv[2];

          terrain_model_get_uv (self, v, uv);
          put_float (&buffer, uv[0]);
          put_float (&buffer, uv[1]);
        }
    }
  indices_offset = terrain_writer_tell (&buffer);

  json_builder_begin_array (accessors_builder);

  json_builder_begin_object (root);
  json_builder_set_member_name (root, "asset");
  json_builder_begin_object (root);
  json_builder_set_member_name (root, "version");
  json_builder_add_string_value (root, "2.0");
  json_builder_set_member_name (root, "generator");
  json_builder_add_string_value (root, "libterrain " TERRAIN_VERSION_S);
  json_builder_end_object (root);

  json_builder_set_member_name (root, "meshes");
  json_builder_begin_array (root);
  {
    g_autoptr(GArray) node_meshes = g_array_new (FALSE, FALSE, sizeof (guint));
    g_autoptr(GArray) node_lods = g_array_new (FALSE, FALSE, sizeof (guint));
    guint n_glb_meshes = 0;

    for (guint l = first_lod; l < end_lod; l++)
      {
        guint first_mesh = 0, n_meshes = 0, n_primitives = 0;

        terrain_model_get_lod (self, l, &first_mesh, &n_meshes);
        for (guint m = first_mesh; m < first_mesh + n_meshes; m++)
          {
            TerrainModelMesh mesh;
            guint window_first = 0, window_count = 0;
            gfloat lo[3] = { 0, 0, 0 }, hi[3] = { 0, 0, 0 };
            gsize index_offset;
            guint position, normal, uv = 0, indices;

            terrain_model_get_mesh (self, m, &mesh);
            terrain_model_get_mesh_window (self, m, &window_first, &window_count);
            if (mesh.index_count < 3 || window_count == 0)
              continue;

            if (n_primitives == 0)
              {
                g_autofree char *name = g_strdup_printf ("LOD %u", l);

                json_builder_begin_object (root);
                json_builder_set_member_name (root, "name");
                json_builder_add_string_value (root, name);
                json_builder_set_member_name (root, "primitives");
                json_builder_begin_array (root);
              }
            n_primitives++;

            for (guint v = 0; v < window_count; v++)
              {
                gfloat p[3];

                terrain_model_get_position (self, window_first + v, p);
                for (guint i = 0; i < 3; i++)
                  {
                    gfloat value = isfinite (p[i]) ? p[i] : 0.0f;

                    lo[i] = v == 0 ? value : MIN (lo[i], value);
                    hi[i] = v == 0 ? value : MAX (hi[i], value);
                  }
              }

            index_offset = terrain_writer_tell (&buffer) - indices_offset;
            for (guint32 k = 0; k < mesh.index_count - mesh.index_count % 3; k++)
              {
                guint index = terrain_model_get_mesh_vertex (self, m, k) - window_first;

                if (wide)
                  terrain_writer_put_u32 (&buffer, index);
                else
                  terrain_writer_put_u16 (&buffer, (guint16) index);
              }
            pad_to_4 (&buffer, 0);

            position = add_accessor (&acc, 0, (gsize) window_first * 12, GL_FLOAT,
                                     window_count, "VEC3", lo, hi, 3);
            normal = add_accessor (&acc, 1, (gsize) window_first * 12, GL_FLOAT,
                                   window_count, "VEC3", NULL, NULL, 0);
            if (uv_stride > 0)
              uv = add_accessor (&acc, 2, (gsize) window_first * 8, GL_FLOAT,
                                 window_count, "VEC2", NULL, NULL, 0);
            indices = add_accessor (&acc, uv_stride > 0 ? 3 : 2, index_offset,
                                    wide ? GL_UNSIGNED_INT : GL_UNSIGNED_SHORT,
                                    mesh.index_count - mesh.index_count % 3, "SCALAR",
                                    NULL, NULL, 0);

            json_builder_begin_object (root);
            json_builder_set_member_name (root, "attributes");
            json_builder_begin_object (root);
            json_builder_set_member_name (root, "POSITION");
            json_builder_add_int_value (root, position);
            json_builder_set_member_name (root, "NORMAL");
            json_builder_add_int_value (root, normal);
            if (uv_stride > 0)
              {
                json_builder_set_member_name (root, "TEXCOORD_0");
                json_builder_add_int_value (root, uv);
              }
            json_builder_end_object (root);
            json_builder_set_member_name (root, "indices");
            json_builder_add_int_value (root, indices);
            if (mesh.material < n_materials)
              {
                json_builder_set_member_name (root, "material");
                json_builder_add_int_value (root, mesh.material);
              }
            json_builder_set_member_name (root, "mode");
            json_builder_add_int_value (root, GL_TRIANGLES);
            json_builder_end_object (root);
          }

        if (n_primitives > 0)
          {
            json_builder_end_array (root);
            json_builder_end_object (root);
            g_array_append_val (node_meshes, n_glb_meshes);
            g_array_append_val (node_lods, l);
            n_glb_meshes++;
          }
      }
    json_builder_end_array (root);
    any_mesh = n_glb_meshes > 0;

    json_builder_set_member_name (root, "nodes");
    json_builder_begin_array (root);
    for (guint i = 0; i < node_meshes->len; i++)
      {
        g_autofree char *name = g_strdup_printf ("LOD %u", g_array_index (node_lods, guint, i));

        json_builder_begin_object (root);
        json_builder_set_member_name (root, "name");
        json_builder_add_string_value (root, name);
        json_builder_set_member_name (root, "mesh");
        json_builder_add_int_value (root, g_array_index (node_meshes, guint, i));
        json_builder_end_object (root);
      }
    json_builder_end_array (root);

    json_builder_set_member_name (root, "scene");
    json_builder_add_int_value (root, 0);
    json_builder_set_member_name (root, "scenes");
    json_builder_begin_array (root);
    json_builder_begin_object (root);
    if (node_meshes->len > 0)
      {
        json_builder_set_member_name (root, "nodes");
        json_builder_begin_array (root);
        for (guint i = 0; i < node_meshes->len; i++)
          json_builder_add_int_value (root, i);
        json_builder_end_array (root);
      }
    json_builder_end_object (root);
    json_builder_end_array (root);
  }

  indices_length = terrain_writer_tell (&buffer) - indices_offset;
  bin = terrain_writer_finish (&buffer, error);
  if (bin == NULL)
    return NULL;

  if (n_materials > 0)
    {
      json_builder_set_member_name (root, "materials");
      json_builder_begin_array (root);
      for (guint i = 0; i < n_materials; i++)
        {
          json_builder_begin_object (root);
          json_builder_set_member_name (root, "name");
          json_builder_add_string_value (root, names[i]);
          json_builder_set_member_name (root, "pbrMetallicRoughness");
          json_builder_begin_object (root);
          json_builder_set_member_name (root, "metallicFactor");
          json_builder_add_double_value (root, 0.0);
          json_builder_end_object (root);
          json_builder_end_object (root);
        }
      json_builder_end_array (root);
    }

  json_builder_end_array (accessors_builder);
  if (any_mesh)
    {
      accessors_node = json_builder_get_root (accessors_builder);
      json_builder_set_member_name (root, "accessors");
      json_builder_add_value (root, g_steal_pointer (&accessors_node));

      json_builder_set_member_name (root, "bufferViews");
      json_builder_begin_array (root);
      add_buffer_view (root, positions_offset, normals_offset - positions_offset, 12,
                       GL_ARRAY_BUFFER);
      add_buffer_view (root, normals_offset, (uv_stride > 0 ? uvs_offset : indices_offset) -
                                             normals_offset, 12, GL_ARRAY_BUFFER);
      if (uv_stride > 0)
        add_buffer_view (root, uvs_offset, indices_offset - uvs_offset, 8, GL_ARRAY_BUFFER);
      add_buffer_view (root, indices_offset, indices_length, 0, GL_ELEMENT_ARRAY_BUFFER);
      json_builder_end_array (root);

      json_builder_set_member_name (root, "buffers");
      json_builder_begin_array (root);
      json_builder_begin_object (root);
      json_builder_set_member_name (root, "byteLength");
      json_builder_add_int_value (root, (gint64) g_bytes_get_size (bin));
      json_builder_end_object (root);
      json_builder_end_array (root);
    }
  json_builder_end_object (root);

  root_node = json_builder_get_root (root);
  json_generator_set_root (generator, root_node);
  json = json_generator_to_data (generator, &json_length);

  /* GLB: 12-byte header, the JSON chunk padded with spaces, the BIN chunk
   * padded with zeros (glTF 2.0, "Binary glTF Layout"). */
  terrain_writer_init (&glb, 28 + json_length + g_bytes_get_size (bin) + 8);
  terrain_writer_put_u32 (&glb, GLB_MAGIC);
  terrain_writer_put_u32 (&glb, GLB_VERSION);
  terrain_writer_put_u32 (&glb, 0); /* length, patched below */
  terrain_writer_put_u32 (&glb, (guint32) ((json_length + 3) & ~(gsize) 3));
  terrain_writer_put_u32 (&glb, GLB_CHUNK_JSON);
  terrain_writer_put_bytes (&glb, (const guint8 *) json, json_length);
  pad_to_4 (&glb, ' ');
  if (any_mesh)
    {
      gsize bin_size = g_bytes_get_size (bin);

      terrain_writer_put_u32 (&glb, (guint32) ((bin_size + 3) & ~(gsize) 3));
      terrain_writer_put_u32 (&glb, GLB_CHUNK_BIN);
      terrain_writer_put_bytes (&glb, g_bytes_get_data (bin, NULL), bin_size);
      pad_to_4 (&glb, 0);
    }
  terrain_writer_patch_u32 (&glb, 8, (guint32) MIN (terrain_writer_tell (&glb), G_MAXUINT32));

  return terrain_writer_finish (&glb, error);
}

/* Top view */

/* Calls @func for every triangle of LOD 0 with its corners' positions. */
static void
foreach_triangle (TerrainModel *self,
                  void        (*func) (const gfloat p[3][3], gpointer data),
                  gpointer      data)
{
  guint first = 0, n = 0;

  terrain_model_get_lod (self, 0, &first, &n);
  for (guint m = first; m < first + n; m++)
    {
      TerrainModelMesh mesh;

      if (!terrain_model_get_mesh (self, m, &mesh))
        continue;
      for (guint32 k = 0; k + 2 < mesh.index_count; k += 3)
        {
          gfloat p[3][3];

          for (guint c = 0; c < 3; c++)
            terrain_model_get_position (self, terrain_model_get_mesh_vertex (self, m, k + c), p[c]);
          func ((const gfloat (*)[3]) p, data);
        }
    }
}

typedef struct
{
  gdouble min[3];
  gdouble max[3];
  gboolean any;
} Extent;

static void
extend (const gfloat p[3][3],
        gpointer     data)
{
  Extent *extent = data;

  for (guint c = 0; c < 3; c++)
    for (guint i = 0; i < 3; i++)
      {
        if (!isfinite (p[c][i]))
          continue;
        extent->min[i] = extent->any ? MIN (extent->min[i], p[c][i]) : p[c][i];
        extent->max[i] = extent->any ? MAX (extent->max[i], p[c][i]) : p[c][i];
      }
  extent->any = TRUE;
}

typedef struct
{
  TerrainRelief *relief;
  Extent        *extent;
  gdouble        scale;
} TopView;

static void
draw_triangle (const gfloat p[3][3],
               gpointer     data)
{
  TopView *view = data;
  gdouble corner[3][3];

  /* +X to the right, −Z up (forward), +Y (up) is the height. */
  for (guint c = 0; c < 3; c++)
    {
      corner[c][0] = (p[c][0] - view->extent->min[0]) * view->scale;
      corner[c][1] = (p[c][2] - view->extent->min[2]) * view->scale;
      corner[c][2] = p[c][1];
    }
  terrain_relief_triangle (view->relief, corner[0], corner[1], corner[2]);
}

/* Draws LOD 0 seen from above, orthographically: the picture spans the
 * triangles' X and Z extent, TOP_VIEW_SIDE pixels along the longer one, +X
 * to the right and −Z (forward in glTF) up; each pixel holds the highest Y
 * (model units) of the triangles over it. @pixel_size is the width of a
 * pixel in model units. */
gboolean
terrain_model_fill_top_view (TerrainModel   *self,
                             TerrainRelief  *relief,
                             gdouble        *pixel_size,
                             GError        **error)
{
  Extent extent = { { 0 } };
  TopView view;
  gdouble longer;
  guint first = 0, n = 0;
  guint width, height;

  terrain_model_get_lod (self, 0, &first, &n);
  if (!terrain_model_has_geometry (self) || n == 0)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                           "Model: no geometry to draw (no vertex, index and mesh sections, "
                           "or no meshes in LOD 0)");
      return FALSE;
    }

  foreach_triangle (self, extend, &extent);
  longer = MAX (extent.max[0] - extent.min[0], extent.max[2] - extent.min[2]);
  if (!extent.any || !(longer > 0.0))
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                           "Model: LOD 0 has no extent along X or Z to draw from above");
      return FALSE;
    }

  view.scale = TOP_VIEW_SIDE / longer;
  width = (guint) CLAMP (ceil ((extent.max[0] - extent.min[0]) * view.scale), 1, TOP_VIEW_SIDE);
  height = (guint) CLAMP (ceil ((extent.max[2] - extent.min[2]) * view.scale), 1, TOP_VIEW_SIDE);
  if (!terrain_relief_init (relief, width, height, NULL, "Model top view", error))
    return FALSE;

  view.relief = relief;
  view.extent = &extent;
  foreach_triangle (self, draw_triangle, &view);
  *pixel_size = 1.0 / view.scale;
  return TRUE;
}
