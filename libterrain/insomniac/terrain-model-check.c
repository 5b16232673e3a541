/* terrain-model-check.c: validation and description of Insomniac models:
 * the Model Built box and quantisation word, mesh records and LOD ranges,
 * the JSON description and the names of the fields at a section offset.
 * Part of TerrainModel (terrain-model-impl-private.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>

#include "terrain-model.h"
#include "terrain-model-impl-private.h"
#include "core/terrain-issue-private.h"
#include "core/terrain-issue.h"

/* The field at @offset of a section, for messages (the DAT1
 * describe_section_offset vfunc). */
char *
model_describe_section_offset (TerrainDat1 *dat1,
                               guint32      tag,
                               gsize        offset)
{
  static const char * const built_fields[] = {
    "bounds centre", "bounds centre", "bounds centre", "bounding sphere radius",
    "box half-extents", "box half-extents", "box half-extents", "quantisation word",
    "unknown float", "LOD switch distances", "LOD switch distances", "LOD switch distances",
    "unknown", "unknown", "unknown", "unknown (2 in most models)", "unknown (8 in most models)",
    "unknown word",
  };

  switch (tag)
    {
    case TERRAIN_MODEL_TAG_BUILT:
      return offset / 4 < G_N_ELEMENTS (built_fields)
               ? g_strdup_printf (", %s", built_fields[offset / 4]) : NULL;
    case TERRAIN_MODEL_TAG_VERTICES:
      return g_strdup_printf (", vertex %" G_GSIZE_FORMAT " (%s)", offset / VERTEX_SIZE,
                              offset % VERTEX_SIZE < 6 ? "position"
                              : offset % VERTEX_SIZE < 8 ? "w"
                              : offset % VERTEX_SIZE < 12 ? "packed normal" : "tangent");
    case TERRAIN_MODEL_TAG_INDICES:
      return g_strdup_printf (", index %" G_GSIZE_FORMAT, offset / INDEX_SIZE);
    case TERRAIN_MODEL_TAG_MESHES:
      return g_strdup_printf (", mesh %" G_GSIZE_FORMAT, offset / MESH_SIZE);
    case TERRAIN_MODEL_TAG_LOOK:
      return offset < LOOK_SIZE ? g_strdup_printf (", LOD %" G_GSIZE_FORMAT, offset / 4) : NULL;
    case TERRAIN_MODEL_TAG_UV0:
      {
        TerrainModel *self = TERRAIN_MODEL (dat1);

        return self->uv_stride > 0
                 ? g_strdup_printf (", vertex %" G_GSIZE_FORMAT, offset / self->uv_stride)
                 : NULL;
      }
    case TERRAIN_MODEL_TAG_MATERIALS:
      return g_strdup_printf (", material %" G_GSIZE_FORMAT, offset / MATERIAL_SIZE);
    default:
      return NULL;
    }
}

/* JSON has no NaN or infinity: a float field holding one reads as null. */
static void
add_float (JsonBuilder *builder,
           gdouble      value)
{
  if (isfinite (value))
    json_builder_add_double_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_floats (JsonBuilder  *builder,
            const char   *name,
            const gfloat *values,
            guint         n)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; i < n; i++)
    add_float (builder, values[i]);
  json_builder_end_array (builder);
}

void
model_add_description (TerrainModel *self,
                       JsonNode     *root)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *quantization = NULL;
  gfloat centre[3], half[3], distances[3], radius;

  terrain_model_get_bounds (self, centre, &radius, half);
  terrain_model_get_lod_distances (self, distances);
  quantization = g_strdup_printf ("0x%08X", terrain_model_get_quantization (self));

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "geometry");
  json_builder_add_boolean_value (builder, terrain_model_has_geometry (self));
  json_builder_set_member_name (builder, "quantization");
  json_builder_add_string_value (builder, quantization);
  json_builder_set_member_name (builder, "position_shift");
  json_builder_add_int_value (builder, terrain_model_get_position_shift (self));
  json_builder_set_member_name (builder, "position_scale");
  json_builder_add_double_value (builder, terrain_model_get_position_scale (self));
  add_floats (builder, "centre", centre, 3);
  json_builder_set_member_name (builder, "radius");
  add_float (builder, radius);
  add_floats (builder, "half_extents", half, 3);
  add_floats (builder, "lod_distances", distances, 3);
  json_builder_set_member_name (builder, "vertices");
  json_builder_add_int_value (builder, self->n_vertices);
  json_builder_set_member_name (builder, "indices");
  json_builder_add_int_value (builder, self->n_indices);
  json_builder_set_member_name (builder, "uv_stride");
  json_builder_add_int_value (builder, self->uv_stride);
  json_builder_set_member_name (builder, "vertex_colours");
  json_builder_add_boolean_value (builder,
                                  terrain_dat1_has_section (TERRAIN_DAT1 (self),
                                                            TERRAIN_MODEL_TAG_VERTEX_COLOR));
  json_builder_set_member_name (builder, "skin");
  json_builder_add_boolean_value (builder,
                                  terrain_dat1_has_section (TERRAIN_DAT1 (self),
                                                            TERRAIN_MODEL_TAG_SKIN));

  json_builder_set_member_name (builder, "lods");
  json_builder_begin_array (builder);
  for (guint l = 0; l < self->n_lods; l++)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "first_mesh");
      json_builder_add_int_value (builder, self->lods[l][0]);
      json_builder_set_member_name (builder, "meshes");
      json_builder_add_int_value (builder, self->lods[l][1]);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "meshes");
  json_builder_begin_array (builder);
  for (guint m = 0; m < self->n_meshes; m++)
    {
      TerrainModelMesh mesh;

      model_read_mesh (self, m, &mesh);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "vertex_start");
      json_builder_add_int_value (builder, mesh.vertex_start);
      json_builder_set_member_name (builder, "vertex_count");
      json_builder_add_int_value (builder, mesh.vertex_count);
      json_builder_set_member_name (builder, "index_start");
      json_builder_add_int_value (builder, mesh.index_start);
      json_builder_set_member_name (builder, "index_count");
      json_builder_add_int_value (builder, mesh.index_count);
      json_builder_set_member_name (builder, "flags");
      json_builder_add_int_value (builder, mesh.flags);
      json_builder_set_member_name (builder, "material");
      json_builder_add_int_value (builder, mesh.material);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "materials");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->n_materials; i++)
    {
      g_autofree char *name = g_utf8_make_valid (self->material_names[i], -1);
      g_autofree char *path = g_utf8_make_valid (self->material_paths[i], -1);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, name);
      json_builder_set_member_name (builder, "path");
      json_builder_add_string_value (builder, path);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  json_object_set_member (json_node_get_object (root), "model", json_builder_get_root (builder));
}

static gint64
section_base (TerrainModel *self,
              guint32       tag)
{
  TerrainReader reader;

  if (!terrain_dat1_get_section_reader (TERRAIN_DAT1 (self), tag, model_tag_name (tag), &reader))
    return -1;
  return reader.base;
}

static void
validate_lods (TerrainModel *self,
               GPtrArray    *issues)
{
  gint64 base = section_base (self, TERRAIN_MODEL_TAG_LOOK);
  guint expected = 0;

  if (!self->has_look)
    {
      if (self->n_meshes > 0)
        g_ptr_array_add (issues,
                         terrain_issue_new (TERRAIN_SEVERITY_INFO, "look", -1, -1,
                                            "no look section: every mesh is taken as LOD 0"));
      return;
    }

  /* The distinct ranges, in order, are contiguous and cover every mesh; the
   * LODs a model lacks repeat the last range. */
  for (guint l = 0; l < self->n_lods; l++)
    {
      if (self->lods[l][0] != expected)
        g_ptr_array_add (issues,
                         terrain_issue_new (TERRAIN_SEVERITY_WARNING, "look", base + 4 * l, l,
                                            "LOD %u starts at mesh %u; the LODs before it end at "
                                            "mesh %u (ranges should be contiguous)",
                                            l, self->lods[l][0], expected));
      expected = (guint) self->lods[l][0] + self->lods[l][1];
    }
  if (expected != self->n_meshes)
    g_ptr_array_add (issues,
                     terrain_issue_new (TERRAIN_SEVERITY_WARNING, "look", base, -1,
                                        "the LODs cover meshes up to %u of %u", expected,
                                        self->n_meshes));
}

static void
validate_meshes (TerrainModel *self,
                 GPtrArray    *issues)
{
  gint64 base = section_base (self, TERRAIN_MODEL_TAG_MESHES);
  TerrainIssueCollector found;

  terrain_issue_collector_init (&found, 0);

  for (guint m = 0; m < self->n_meshes; m++)
    {
      TerrainModelMesh mesh;
      gint64 at = base + (gint64) m * MESH_SIZE;

      model_read_mesh (self, m, &mesh);
      if (mesh.index_count % 3 != 0)
        {
          g_autofree char *s = g_strdup_printf ("mesh %u has %u indices, not a multiple of 3 "
                                                "(the last %u are ignored by the exporters)",
                                                m, mesh.index_count, mesh.index_count % 3);
          terrain_issue_collector_add (&found, "meshes with partial triangles",
                                       TERRAIN_SEVERITY_WARNING, "meshes", at + 0x18, m, "%s", s);
        }
      if (mesh.vertex_count >> 16 != 0)
        {
          g_autofree char *s = g_strdup_printf ("mesh %u has %u vertices; the upper 16 bits of "
                                                "the count are 0 in every known model",
                                                m, mesh.vertex_count);
          terrain_issue_collector_add (&found, "meshes with large vertex counts",
                                       TERRAIN_SEVERITY_WARNING, "meshes", at + 0x1C, m, "%s", s);
        }
      if (self->windows[m].first != mesh.vertex_start ||
          self->windows[m].count != mesh.vertex_count)
        {
          g_autofree char *s =
            g_strdup_printf ("mesh %u (%s indices) reaches vertices [%u, %u) outside its range "
                             "[%u, %u)",
                             m, (mesh.flags & TERRAIN_MODEL_MESH_FLAG_RELATIVE_INDICES)
                                  ? "relative" : "absolute",
                             self->windows[m].first,
                             self->windows[m].first + self->windows[m].count,
                             mesh.vertex_start, mesh.vertex_start + mesh.vertex_count);
          terrain_issue_collector_add (&found, "meshes indexing outside their range",
                                       TERRAIN_SEVERITY_WARNING, "meshes", at, m, "%s", s);
        }
      if (self->n_materials > 0 && mesh.material >= self->n_materials)
        {
          g_autofree char *s = g_strdup_printf ("mesh %u uses material %u of %u", m,
                                                mesh.material, self->n_materials);
          terrain_issue_collector_add (&found, "meshes with a missing material",
                                       TERRAIN_SEVERITY_WARNING, "meshes", at + 0x22, m, "%s", s);
        }
    }
  g_ptr_array_extend_and_steal (issues, terrain_issue_collector_finish (&found));
}

static void
validate_bounds (TerrainModel *self,
                 GPtrArray    *issues)
{
  gint64 base = section_base (self, TERRAIN_MODEL_TAG_BUILT);
  guint32 word = terrain_model_get_quantization (self);
  guint32 high = word & 0xFFF0;
  gfloat centre[3], half[3], lo[3], hi[3];
  gdouble tolerance = 2 * terrain_model_get_position_scale (self);
  gboolean skinned = terrain_dat1_has_section (TERRAIN_DAT1 (self), TERRAIN_MODEL_TAG_SKIN);
  gsize size = 0;

  if (!self->has_built)
    return;

  terrain_dat1_get_section_span (TERRAIN_DAT1 (self), TERRAIN_MODEL_TAG_BUILT, NULL, &size);
  if (size != BUILT_SIZE)
    g_ptr_array_add (issues,
                     terrain_issue_new (TERRAIN_SEVERITY_WARNING, "Model Built", base, -1,
                                        "the section is %" G_GSIZE_FORMAT " bytes, not 72 (the "
                                        "extra bytes are kept)", size));
  if ((high != 0 && high != 16 && high != 32 && high != 48) || (word >> 16) != 0)
    g_ptr_array_add (issues,
                     terrain_issue_new (TERRAIN_SEVERITY_INFO, "Model Built",
                                        base + BUILT_QUANTIZATION, -1,
                                        "quantisation word 0x%08X: bits 4 to 15 take only 0, 16, "
                                        "32 or 48 and bits 16 to 31 are 0 in the known models",
                                        word));

  if (self->n_vertices == 0)
    return;

  terrain_model_get_bounds (self, centre, NULL, half);
  model_vertex_extent (self, lo, hi);
  for (guint i = 0; i < 3; i++)
    if (fabs (lo[i] - (centre[i] - half[i])) > tolerance ||
        fabs (hi[i] - (centre[i] + half[i])) > tolerance)
      {
        static const char axes[] = "xyz";

        /* Skinned models often exceed their box: skinning places them. */
        g_ptr_array_add (issues,
                         terrain_issue_new (skinned ? TERRAIN_SEVERITY_INFO
                                                    : TERRAIN_SEVERITY_WARNING,
                                            "Model Built", base + BUILT_HALF_EXTENTS + 4 * i, -1,
                                            "the vertices span %g to %g in %c, the box %g to %g "
                                            "(more than two quanta apart%s)",
                                            lo[i], hi[i], axes[i], centre[i] - half[i],
                                            centre[i] + half[i],
                                            skinned ? "; usual for skinned models" : ""));
      }
}

void
model_add_issues (TerrainModel *self,
                  GPtrArray    *issues)
{
  if (terrain_dat1_get_asset_type (TERRAIN_DAT1 (self)) != TERRAIN_MODEL_ASSET_TYPE)
    g_ptr_array_add (issues,
                     terrain_issue_new (TERRAIN_SEVERITY_INFO, "DAT1 header", 4, -1,
                                        "the DAT1 asset type is 0x%08X; the wrapper names a "
                                        "model",
                                        terrain_dat1_get_asset_type (TERRAIN_DAT1 (self))));

  validate_bounds (self, issues);
  if (terrain_model_has_geometry (self))
    {
      validate_meshes (self, issues);
      validate_lods (self, issues);
      if (self->uv_stride == 0)
        g_ptr_array_add (issues,
                         terrain_issue_new (TERRAIN_SEVERITY_INFO, "UV0", -1, -1,
                                            "the model has no UV0 section"));
    }
}
