/* terrain-model.c: Insomniac DAT1 models (Sunset Overdrive .model): the
 * type, reading the sections, the accessors and the document vfuncs.
 * TerrainModel is one class in four files sharing
 * terrain-model-impl-private.h: this one, terrain-model-edit.c (position
 * edits, OBJ import), terrain-model-check.c (validation, description) and
 * terrain-model-export.c (OBJ and glTF export).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-model.h"
#include "terrain-model-private.h"
#include "terrain-model-impl-private.h"
#include "terrain-dat1-private.h"
#include "core/terrain-error.h"
#include "core/terrain-io.h"

G_DEFINE_FINAL_TYPE (TerrainModel, terrain_model, TERRAIN_TYPE_DAT1)

static const struct
{
  guint32     tag;
  const char *name;
} section_names[] = {
  { TERRAIN_MODEL_TAG_BUILT, "Model Built" },
  { TERRAIN_MODEL_TAG_VERTICES, "vertices" },
  { TERRAIN_MODEL_TAG_INDICES, "indices" },
  { TERRAIN_MODEL_TAG_MESHES, "meshes" },
  { TERRAIN_MODEL_TAG_LOOK, "look" },
  { TERRAIN_MODEL_TAG_UV0, "UV0" },
  { TERRAIN_MODEL_TAG_MATERIALS, "materials" },
  { TERRAIN_MODEL_TAG_VERTEX_COLOR, "vertex colour" },
  { TERRAIN_MODEL_TAG_SKIN, "skin data" },
};

const char *
model_tag_name (guint32 tag)
{
  for (guint i = 0; i < G_N_ELEMENTS (section_names); i++)
    if (section_names[i].tag == tag)
      return section_names[i].name;
  return NULL;
}

/* A reader over a section whose spans were checked when the model was read:
 * a failure here is a bug. */
static TerrainReader
section_reader (TerrainModel *self,
                guint32       tag,
                gsize         offset)
{
  TerrainReader reader;

  if (!terrain_dat1_get_section_reader (TERRAIN_DAT1 (self), tag, model_tag_name (tag), &reader) ||
      !terrain_reader_seek (&reader, offset, NULL))
    g_assert_not_reached ();
  return reader;
}

static guint32
read_u32_at (TerrainModel *self,
             guint32       tag,
             gsize         offset)
{
  TerrainReader reader = section_reader (self, tag, offset);
  guint32 value = 0;

  if (!terrain_reader_read_u32 (&reader, &value, NULL))
    g_assert_not_reached ();
  return value;
}

static gfloat
read_f32_at (TerrainModel *self,
             guint32       tag,
             gsize         offset)
{
  TerrainReader reader = section_reader (self, tag, offset);
  gfloat value = 0;

  if (!terrain_reader_read_f32 (&reader, &value, NULL))
    g_assert_not_reached ();
  return value;
}

static guint16
read_u16_at (TerrainModel *self,
             guint32       tag,
             gsize         offset)
{
  TerrainReader reader = section_reader (self, tag, offset);
  guint16 value = 0;

  if (!terrain_reader_read_u16 (&reader, &value, NULL))
    g_assert_not_reached ();
  return value;
}

void
model_read_mesh (TerrainModel     *self,
           guint             index,
           TerrainModelMesh *mesh)
{
  TerrainReader reader = section_reader (self, TERRAIN_MODEL_TAG_MESHES,
                                         (gsize) index * MESH_SIZE);

  for (guint i = 0; i < 4; i++)
    if (!terrain_reader_read_f32 (&reader, &mesh->sphere[i], NULL))
      g_assert_not_reached ();
  if (!terrain_reader_read_u32 (&reader, &mesh->vertex_start, NULL) ||
      !terrain_reader_read_u32 (&reader, &mesh->index_start, NULL) ||
      !terrain_reader_read_u32 (&reader, &mesh->index_count, NULL) ||
      !terrain_reader_read_u32 (&reader, &mesh->vertex_count, NULL) ||
      !terrain_reader_read_u16 (&reader, &mesh->flags, NULL) ||
      !terrain_reader_read_u16 (&reader, &mesh->material, NULL))
    g_assert_not_reached ();
}

void
model_read_vertex (TerrainModel       *self,
             guint               index,
             TerrainModelVertex *vertex)
{
  TerrainReader reader = section_reader (self, TERRAIN_MODEL_TAG_VERTICES,
                                         (gsize) index * VERTEX_SIZE);

  for (guint i = 0; i < 3; i++)
    if (!terrain_reader_read_i16 (&reader, &vertex->position[i], NULL))
      g_assert_not_reached ();
  if (!terrain_reader_read_i16 (&reader, &vertex->w, NULL) ||
      !terrain_reader_read_u32 (&reader, &vertex->normal, NULL) ||
      !terrain_reader_read_u32 (&reader, &vertex->tangent, NULL))
    g_assert_not_reached ();
}

/* The absolute vertex an index of a mesh refers to (64-bit: a relative index
 * plus the vertex start may exceed 32 bits in a corrupt file). */
static guint64
resolve_index (const TerrainModelMesh *mesh,
               guint16                 index)
{
  if (mesh->flags & TERRAIN_MODEL_MESH_FLAG_RELATIVE_INDICES)
    return (guint64) mesh->vertex_start + index;
  return index;
}

static gboolean
set_section_size_error (TerrainDat1  *dat1,
                        guint32       tag,
                        gsize         record,
                        GError      **error)
{
  gsize offset = 0, size = 0;

  terrain_dat1_get_section_span (dat1, tag, &offset, &size);
  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
               "%s: the section at DAT1 offset %" G_GSIZE_FORMAT " is %" G_GSIZE_FORMAT
               " bytes, not a multiple of its %" G_GSIZE_FORMAT "-byte records",
               model_tag_name (tag), offset, size, record);
  return FALSE;
}

static gboolean
parse_meshes (TerrainModel         *self,
              const TerrainLimits  *limits,
              GError              **error)
{
  TerrainDat1 *dat1 = TERRAIN_DAT1 (self);
  TerrainReader meshes;

  if (!terrain_dat1_get_section_reader (dat1, TERRAIN_MODEL_TAG_MESHES, "meshes", &meshes))
    g_assert_not_reached ();
  if (!terrain_limits_check_alloc (limits, self->n_meshes, sizeof (VertexWindow), "mesh table",
                                   "meshes", meshes.base, error))
    return FALSE;
  self->windows = g_new0 (VertexWindow, MAX (self->n_meshes, 1));

  for (guint m = 0; m < self->n_meshes; m++)
    {
      TerrainModelMesh mesh;
      goffset at = meshes.base + (goffset) m * MESH_SIZE;
      guint64 lo, hi, end;
      TerrainReader indices;

      model_read_mesh (self, m, &mesh);

      if ((guint64) mesh.vertex_start + mesh.vertex_count > self->n_vertices)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                       "%s: mesh %u at byte offset %" G_GOFFSET_FORMAT " uses vertices %u to "
                       "%" G_GUINT64_FORMAT " (exclusive), but the model has %u vertices",
                       meshes.section, m, at, mesh.vertex_start,
                       (guint64) mesh.vertex_start + mesh.vertex_count, self->n_vertices);
          return FALSE;
        }
      if ((guint64) mesh.index_start + mesh.index_count > self->n_indices)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                       "%s: mesh %u at byte offset %" G_GOFFSET_FORMAT " uses indices %u to "
                       "%" G_GUINT64_FORMAT " (exclusive), but the model has %u indices",
                       meshes.section, m, at, mesh.index_start,
                       (guint64) mesh.index_start + mesh.index_count, self->n_indices);
          return FALSE;
        }

      /* Every index must name an existing vertex; the window is the span
       * of vertices the mesh reaches, its own range included. */
      lo = mesh.vertex_start;
      hi = (guint64) mesh.vertex_start + mesh.vertex_count;
      indices = section_reader (self, TERRAIN_MODEL_TAG_INDICES,
                                (gsize) mesh.index_start * INDEX_SIZE);
      for (guint32 k = 0; k < mesh.index_count; k++)
        {
          guint16 index = 0;
          guint64 vertex;

          if (!terrain_reader_read_u16 (&indices, &index, error))
            return FALSE;
          vertex = resolve_index (&mesh, index);
          if (vertex >= self->n_vertices)
            {
              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                           "%s: index %" G_GUINT64_FORMAT " at byte offset %"
                           G_GOFFSET_FORMAT " (mesh %u, %s) is %u and names vertex %"
                           G_GUINT64_FORMAT ", but the model has %u vertices",
                           indices.section, (guint64) mesh.index_start + k,
                           terrain_reader_abs_offset (&indices) - INDEX_SIZE, m,
                           (mesh.flags & TERRAIN_MODEL_MESH_FLAG_RELATIVE_INDICES)
                             ? "relative to its vertex start" : "absolute",
                           index, vertex, self->n_vertices);
              return FALSE;
            }
          lo = MIN (lo, vertex);
          hi = MAX (hi, vertex + 1);
        }
      end = hi;
      self->windows[m].first = (guint32) lo;
      self->windows[m].count = (guint32) (end - lo);
    }

  return TRUE;
}

static gboolean
parse_look (TerrainModel  *self,
            GError       **error)
{
  TerrainDat1 *dat1 = TERRAIN_DAT1 (self);
  TerrainReader look;

  if (!terrain_dat1_get_section_reader (dat1, TERRAIN_MODEL_TAG_LOOK, "look", &look))
    {
      /* No look: every mesh is LOD 0. */
      for (guint i = 0; i < TERRAIN_MODEL_N_LODS; i++)
        {
          self->lods[i][0] = 0;
          self->lods[i][1] = (guint16) MIN (self->n_meshes, G_MAXUINT16);
        }
      self->n_lods = 1;
      return TRUE;
    }

  self->has_look = TRUE;
  if (!terrain_reader_check_span (&look, 0, LOOK_SIZE, "four LOD mesh ranges", error))
    return FALSE;

  for (guint i = 0; i < TERRAIN_MODEL_N_LODS; i++)
    {
      if (!terrain_reader_read_u16 (&look, &self->lods[i][0], error) ||
          !terrain_reader_read_u16 (&look, &self->lods[i][1], error))
        return FALSE;
      if ((guint) self->lods[i][0] + self->lods[i][1] > self->n_meshes)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                       "%s: LOD %u at byte offset %" G_GOFFSET_FORMAT " takes meshes %u to %u "
                       "(exclusive), but the model has %u meshes",
                       look.section, i, look.base + (goffset) i * 4, self->lods[i][0],
                       (guint) self->lods[i][0] + self->lods[i][1], self->n_meshes);
          return FALSE;
        }
    }

  /* A model with fewer LODs repeats the last range. */
  self->n_lods = TERRAIN_MODEL_N_LODS;
  while (self->n_lods > 1 &&
         self->lods[self->n_lods - 1][0] == self->lods[self->n_lods - 2][0] &&
         self->lods[self->n_lods - 1][1] == self->lods[self->n_lods - 2][1])
    self->n_lods--;

  return TRUE;
}

static gboolean
parse_materials (TerrainModel         *self,
                 const TerrainLimits  *limits,
                 GError              **error)
{
  TerrainDat1 *dat1 = TERRAIN_DAT1 (self);
  TerrainReader materials;

  if (!terrain_dat1_get_section_reader (dat1, TERRAIN_MODEL_TAG_MATERIALS, "materials",
                                        &materials))
    return TRUE;

  if (!terrain_limits_check_alloc (limits, self->n_materials, 2 * sizeof (char *),
                                   "material table", "materials", materials.base, error))
    return FALSE;
  self->material_paths = g_new0 (const char *, MAX (self->n_materials, 1));
  self->material_names = g_new0 (const char *, MAX (self->n_materials, 1));

  for (guint i = 0; i < self->n_materials; i++)
    {
      guint32 offsets[2];
      const char *strings[2];
      static const char * const what[2] = { "path", "name" };

      if (!terrain_reader_seek (&materials, (gsize) i * MATERIAL_SIZE, error) ||
          !terrain_reader_read_u32 (&materials, &offsets[0], error) ||
          !terrain_reader_read_u32 (&materials, &offsets[1], error))
        return FALSE;

      for (guint k = 0; k < 2; k++)
        {
          strings[k] = terrain_dat1_get_string (dat1, offsets[k]);
          if (strings[k] == NULL)
            {
              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                           "%s: material %u at byte offset %" G_GOFFSET_FORMAT
                           " has its %s at DAT1 offset %u, which is not a NUL-terminated "
                           "string of the DAT1 string block",
                           materials.section, i,
                           materials.base + (goffset) i * MATERIAL_SIZE + 4 * k, what[k],
                           offsets[k]);
              return FALSE;
            }
        }
      self->material_paths[i] = strings[0];
      self->material_names[i] = strings[1];
    }

  return TRUE;
}

static gboolean
terrain_model_parse (TerrainDat1          *dat1,
                     const TerrainLimits  *limits,
                     GError              **error)
{
  TerrainModel *self = TERRAIN_MODEL (dat1);
  static const guint32 required[] = {
    TERRAIN_MODEL_TAG_BUILT,
    TERRAIN_MODEL_TAG_VERTICES,
    TERRAIN_MODEL_TAG_INDICES,
    TERRAIN_MODEL_TAG_MESHES,
  };
  gboolean geometry = FALSE;
  gsize size = 0, offset = 0;

  /* Assets without geometry sections (portals, spawners) are models too. */
  for (guint i = 1; i < G_N_ELEMENTS (required); i++)
    geometry = geometry || terrain_dat1_has_section (dat1, required[i]);
  if (geometry)
    for (guint i = 0; i < G_N_ELEMENTS (required); i++)
      if (!terrain_dat1_has_section (dat1, required[i]))
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "model: the %s section (0x%08X) is missing, but the model has geometry "
                       "sections that need it", model_tag_name (required[i]), required[i]);
          return FALSE;
        }

  if (terrain_dat1_get_section_span (dat1, TERRAIN_MODEL_TAG_BUILT, &offset, &size))
    {
      TerrainReader built;

      if (!terrain_dat1_get_section_reader (dat1, TERRAIN_MODEL_TAG_BUILT, "Model Built", &built) ||
          !terrain_reader_check_span (&built, 0, BUILT_SIZE, "72-byte record", error))
        return FALSE;
      self->has_built = TRUE;
    }

  if (terrain_dat1_get_section_span (dat1, TERRAIN_MODEL_TAG_VERTICES, &offset, &size))
    {
      if (size % VERTEX_SIZE != 0)
        return set_section_size_error (dat1, TERRAIN_MODEL_TAG_VERTICES, VERTEX_SIZE, error);
      if (size / VERTEX_SIZE > G_MAXUINT32)
        return terrain_limits_check_count (limits, size / VERTEX_SIZE, G_MAXUINT32, "vertex",
                                           "vertices", (goffset) offset, error);
      self->n_vertices = (guint) (size / VERTEX_SIZE);
    }
  if (terrain_dat1_get_section_span (dat1, TERRAIN_MODEL_TAG_INDICES, &offset, &size))
    {
      if (size % INDEX_SIZE != 0)
        return set_section_size_error (dat1, TERRAIN_MODEL_TAG_INDICES, INDEX_SIZE, error);
      if (size / INDEX_SIZE > G_MAXUINT32)
        return terrain_limits_check_count (limits, size / INDEX_SIZE, G_MAXUINT32, "index",
                                           "indices", (goffset) offset, error);
      self->n_indices = (guint) (size / INDEX_SIZE);
    }
  if (terrain_dat1_get_section_span (dat1, TERRAIN_MODEL_TAG_MESHES, &offset, &size))
    {
      if (size % MESH_SIZE != 0)
        return set_section_size_error (dat1, TERRAIN_MODEL_TAG_MESHES, MESH_SIZE, error);
      self->n_meshes = (guint) (size / MESH_SIZE);
    }
  if (terrain_dat1_get_section_span (dat1, TERRAIN_MODEL_TAG_MATERIALS, &offset, &size))
    {
      if (size % MATERIAL_SIZE != 0)
        return set_section_size_error (dat1, TERRAIN_MODEL_TAG_MATERIALS, MATERIAL_SIZE, error);
      self->n_materials = (guint) (size / MATERIAL_SIZE);
    }
  if (terrain_dat1_get_section_span (dat1, TERRAIN_MODEL_TAG_UV0, &offset, &size) && size > 0)
    {
      /* 4 bytes per vertex, or 8 (a second pair, probably a second set). */
      if (size == (guint64) self->n_vertices * 4)
        self->uv_stride = 4;
      else if (size == (guint64) self->n_vertices * 8)
        self->uv_stride = 8;
      else
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "UV0: the section at DAT1 offset %" G_GSIZE_FORMAT " is %" G_GSIZE_FORMAT
                       " bytes; %u vertices need %" G_GUINT64_FORMAT " (4 bytes each) or %"
                       G_GUINT64_FORMAT " (8 bytes each)",
                       offset, size, self->n_vertices, (guint64) self->n_vertices * 4,
                       (guint64) self->n_vertices * 8);
          return FALSE;
        }
    }

  if (geometry && !parse_meshes (self, limits, error))
    return FALSE;
  if (!parse_look (self, error))
    return FALSE;
  if (!parse_materials (self, limits, error))
    return FALSE;

  return TRUE;
}

/**
 * terrain_model_new_from_bytes:
 * @bytes: the file's contents: a DAT1, plain or LZ4-compressed, with or
 *   without the 36-byte wrapper
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Reads a `.model` asset (insomniac-model.md). The container is read as by
 * [ctor@Terrain.Dat1.new_from_bytes]; then every section size, mesh range,
 * index, LOD range and material string is checked: %TERRAIN_ERROR_BAD_MAGIC
 * when the asset type (of the DAT1 or the wrapper) is not
 * %TERRAIN_MODEL_ASSET_TYPE, %TERRAIN_ERROR_INVALID_VALUE for a missing
 * geometry section or a section that is not a whole number of records,
 * %TERRAIN_ERROR_TRUNCATED for a short Model Built or look section, and
 * %TERRAIN_ERROR_OUT_OF_RANGE for a mesh, index, LOD or string reaching past
 * its table.
 *
 * Returns: (transfer full) (nullable): the model, or %NULL with a
 *   %TERRAIN_ERROR set
 */
TerrainModel *
terrain_model_new_from_bytes (GBytes               *bytes,
                              const TerrainLimits  *limits,
                              GError              **error)
{
  TerrainDat1Sniff sniff;
  const guint8 *data;
  gsize size = 0;

  g_return_val_if_fail (bytes != NULL, NULL);

  data = g_bytes_get_data (bytes, &size);
  if (terrain_dat1_sniff (data, size, &sniff) && sniff.asset_type != TERRAIN_MODEL_ASSET_TYPE)
    {
      g_autoptr(TerrainDat1) dat1 = terrain_dat1_new_from_bytes (bytes, limits, error);

      if (dat1 == NULL)
        return NULL;
      if (terrain_dat1_get_asset_type (dat1) != TERRAIN_MODEL_ASSET_TYPE)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                       "DAT1: the asset type 0x%08X (%s) is not a model (0x%08X)",
                       sniff.asset_type, sniff.has_wrapper ? "wrapper magic at byte offset 0"
                                                           : "DAT1 header",
                       TERRAIN_MODEL_ASSET_TYPE);
          return NULL;
        }
    }

  return TERRAIN_MODEL (terrain_document_new_from_bytes (TERRAIN_TYPE_MODEL, bytes, limits, error));
}

/**
 * terrain_model_new_from_file:
 * @file: a `.model` file
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Reads a model from a file, see [ctor@Terrain.Model.new_from_bytes].
 *
 * Returns: (transfer full) (nullable): the model, or %NULL with an error set
 */
TerrainModel *
terrain_model_new_from_file (GFile                *file,
                             const TerrainLimits  *limits,
                             GCancellable         *cancellable,
                             GError              **error)
{
  g_autoptr(GBytes) bytes = NULL;
  TerrainModel *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  bytes = terrain_file_load_bytes (file, cancellable, error);
  if (bytes == NULL)
    return NULL;
  self = terrain_model_new_from_bytes (bytes, limits, error);
  if (self != NULL)
    terrain_document_set_file (TERRAIN_DOCUMENT (self), file);
  return self;
}

/**
 * terrain_model_decode_normal:
 * @packed: a packed normal word
 * @normal: (out caller-allocates) (array fixed-size=3): the unit normal
 *
 * Decodes a packed normal (field-notes.md, "Insomniac DAT1"): x and y from
 * bits 0-9 and 10-19 mapped to [-√2, √2], projected back onto the unit sphere;
 * z is negative when bit 31 is clear. 0x200FFE00 decodes to (0, 1, 0) within
 * 0.002. The result is renormalised.
 */
void
terrain_model_decode_normal (guint32 packed,
                             gfloat  normal[3])
{
  const double k = 2.0 * G_SQRT2 / 1023.0;
  double nx = (packed & 0x3FF) * k - G_SQRT2;
  double ny = ((packed >> 10) & 0x3FF) * k - G_SQRT2;
  double s = MIN (nx * nx + ny * ny, 4.0);
  double w = sqrt (1.0 - s / 4.0);
  double nz = 1.0 - s / 2.0;
  double length;

  nx *= w;
  ny *= w;
  if ((packed & 0x80000000u) == 0)
    nz = -nz;

  length = sqrt (nx * nx + ny * ny + nz * nz);
  if (length <= 0)
    length = 1;
  normal[0] = (gfloat) (nx / length);
  normal[1] = (gfloat) (ny / length);
  normal[2] = (gfloat) (nz / length);
}

gfloat
terrain_half_to_float (guint16 half)
{
  guint sign = half >> 15, exponent = (half >> 10) & 0x1F, mantissa = half & 0x3FF;
  double value;

  if (exponent == 0)
    value = ldexp (mantissa, -24);
  else if (exponent == 31)
    value = mantissa != 0 ? NAN : INFINITY;
  else
    value = ldexp (mantissa | 0x400, (int) exponent - 25);

  return (gfloat) (sign ? -value : value);
}

/**
 * terrain_model_has_geometry:
 * @self: a #TerrainModel
 *
 * Checks whether the model has geometry.
 *
 * Returns: %TRUE if the model has vertex, index and mesh sections (five
 *   observed models, portals and spawners, have none)
 */
gboolean
terrain_model_has_geometry (TerrainModel *self)
{
  g_return_val_if_fail (TERRAIN_IS_MODEL (self), FALSE);

  return self->windows != NULL;
}

/**
 * terrain_model_get_bounds:
 * @self: a #TerrainModel
 * @centre: (out caller-allocates) (optional) (array fixed-size=3): bounds centre
 * @radius: (out) (optional): bounding sphere radius
 * @half_extents: (out caller-allocates) (optional) (array fixed-size=3): box
 *   half-extents (the box is centre ± half-extents)
 *
 * Reads the bounds of the Model Built section; zeros when it is absent.
 */
void
terrain_model_get_bounds (TerrainModel *self,
                          gfloat        centre[3],
                          gfloat       *radius,
                          gfloat        half_extents[3])
{
  g_return_if_fail (TERRAIN_IS_MODEL (self));

  for (guint i = 0; i < 3; i++)
    {
      if (centre != NULL)
        centre[i] = self->has_built ? read_f32_at (self, TERRAIN_MODEL_TAG_BUILT,
                                                   BUILT_CENTRE + 4 * i) : 0;
      if (half_extents != NULL)
        half_extents[i] = self->has_built ? read_f32_at (self, TERRAIN_MODEL_TAG_BUILT,
                                                         BUILT_HALF_EXTENTS + 4 * i) : 0;
    }
  if (radius != NULL)
    *radius = self->has_built ? read_f32_at (self, TERRAIN_MODEL_TAG_BUILT, BUILT_RADIUS) : 0;
}

/**
 * terrain_model_get_quantization:
 * @self: a #TerrainModel
 *
 * Gets the quantisation word of Model Built.
 *
 * Returns: the quantisation word of Model Built (+0x1C): the low nibble is
 *   the position shift, bits 4 to 15 take 0, 16, 32 or 48 and are unexplained
 */
guint32
terrain_model_get_quantization (TerrainModel *self)
{
  g_return_val_if_fail (TERRAIN_IS_MODEL (self), 0);

  return self->has_built ? read_u32_at (self, TERRAIN_MODEL_TAG_BUILT, BUILT_QUANTIZATION) : 0;
}

/**
 * terrain_model_get_position_shift:
 * @self: a #TerrainModel
 *
 * Gets the position quantisation shift.
 *
 * Returns: N, the low nibble of the quantisation word: positions are stored
 *   multiplied by 2^N
 */
guint
terrain_model_get_position_shift (TerrainModel *self)
{
  return terrain_model_get_quantization (self) & 0xF;
}

/**
 * terrain_model_get_position_scale:
 * @self: a #TerrainModel
 *
 * Gets the factor turning stored positions into model units.
 *
 * Returns: 2^−N, the factor turning stored i16 positions into model units
 *   (no offset)
 */
gdouble
terrain_model_get_position_scale (TerrainModel *self)
{
  return ldexp (1.0, -(int) terrain_model_get_position_shift (self));
}

/**
 * terrain_model_get_lod_distances:
 * @self: a #TerrainModel
 * @distances: (out caller-allocates) (array fixed-size=3): the three LOD
 *   switch distances (Model Built +0x24; inferred, 15, 30, 110 in most models)
 *
 * Gets the LOD switch distances.
 */
void
terrain_model_get_lod_distances (TerrainModel *self,
                                 gfloat        distances[3])
{
  g_return_if_fail (TERRAIN_IS_MODEL (self));

  for (guint i = 0; i < 3; i++)
    distances[i] = self->has_built ? read_f32_at (self, TERRAIN_MODEL_TAG_BUILT,
                                                  BUILT_LOD_DISTANCES + 4 * i) : 0;
}

/**
 * terrain_model_get_n_vertices:
 * @self: a #TerrainModel
 *
 * Gets the number of vertices.
 *
 * Returns: the number of vertices
 */
guint
terrain_model_get_n_vertices (TerrainModel *self)
{
  g_return_val_if_fail (TERRAIN_IS_MODEL (self), 0);

  return self->n_vertices;
}

/**
 * terrain_model_get_vertex:
 * @self: a #TerrainModel
 * @index: a vertex index
 * @vertex: (out caller-allocates): the vertex record as stored
 *
 * Gets vertex record @index as stored.
 *
 * Returns: %TRUE if @index is below [method@Terrain.Model.get_n_vertices]
 */
gboolean
terrain_model_get_vertex (TerrainModel       *self,
                          guint               index,
                          TerrainModelVertex *vertex)
{
  g_return_val_if_fail (TERRAIN_IS_MODEL (self), FALSE);
  g_return_val_if_fail (vertex != NULL, FALSE);

  if (index >= self->n_vertices)
    return FALSE;
  model_read_vertex (self, index, vertex);
  return TRUE;
}

/**
 * terrain_model_get_position:
 * @self: a #TerrainModel
 * @index: a vertex index
 * @position: (out caller-allocates) (array fixed-size=3): the position in
 *   model units (+Y up): the stored i16 values times 2^−N
 *
 * Gets the position of vertex @index in model units.
 *
 * Returns: %TRUE if @index is valid
 */
gboolean
terrain_model_get_position (TerrainModel *self,
                            guint         index,
                            gfloat        position[3])
{
  TerrainModelVertex vertex;
  gdouble scale;

  if (!terrain_model_get_vertex (self, index, &vertex))
    return FALSE;
  scale = terrain_model_get_position_scale (self);
  for (guint i = 0; i < 3; i++)
    position[i] = (gfloat) (vertex.position[i] * scale);
  return TRUE;
}

/**
 * terrain_model_get_normal:
 * @self: a #TerrainModel
 * @index: a vertex index
 * @normal: (out caller-allocates) (array fixed-size=3): the decoded unit normal
 *
 * Gets the normal of vertex @index.
 *
 * Returns: %TRUE if @index is valid
 */
gboolean
terrain_model_get_normal (TerrainModel *self,
                          guint         index,
                          gfloat        normal[3])
{
  TerrainModelVertex vertex;

  if (!terrain_model_get_vertex (self, index, &vertex))
    return FALSE;
  terrain_model_decode_normal (vertex.normal, normal);
  return TRUE;
}

/**
 * terrain_model_get_uv_stride:
 * @self: a #TerrainModel
 *
 * Gets the bytes per vertex of the UV0 section.
 *
 * Returns: bytes per vertex of the UV0 section: 4 (half-float u, v), 8 (a
 *   second pair follows), or 0 when there are no UVs
 */
guint
terrain_model_get_uv_stride (TerrainModel *self)
{
  g_return_val_if_fail (TERRAIN_IS_MODEL (self), 0);

  return self->uv_stride;
}

/**
 * terrain_model_get_uv:
 * @self: a #TerrainModel
 * @index: a vertex index
 * @uv: (out caller-allocates) (array fixed-size=2): u and v as stored (the 1×1
 *   plane gives u = x + 0.5, v = z + 0.5)
 *
 * Gets the texture coordinates of vertex @index.
 *
 * Returns: %TRUE if the model has UVs and @index is valid
 */
gboolean
terrain_model_get_uv (TerrainModel *self,
                      guint         index,
                      gfloat        uv[2])
{
  g_return_val_if_fail (TERRAIN_IS_MODEL (self), FALSE);

  if (self->uv_stride == 0 || index >= self->n_vertices)
    return FALSE;
  for (guint i = 0; i < 2; i++)
    uv[i] = terrain_half_to_float (read_u16_at (self, TERRAIN_MODEL_TAG_UV0,
                                                (gsize) index * self->uv_stride + 2 * i));
  return TRUE;
}

/**
 * terrain_model_get_n_indices:
 * @self: a #TerrainModel
 *
 * Gets the number of u16 indices.
 *
 * Returns: the number of u16 indices
 */
guint
terrain_model_get_n_indices (TerrainModel *self)
{
  g_return_val_if_fail (TERRAIN_IS_MODEL (self), 0);

  return self->n_indices;
}

/**
 * terrain_model_get_index:
 * @self: a #TerrainModel
 * @index: a position in the index section
 *
 * Gets the index stored at position @index of the index section.
 *
 * Returns: the stored index (relative to the mesh's vertex start when the
 *   mesh has %TERRAIN_MODEL_MESH_FLAG_RELATIVE_INDICES), 0 if out of range
 */
guint16
terrain_model_get_index (TerrainModel *self,
                         guint         index)
{
  g_return_val_if_fail (TERRAIN_IS_MODEL (self), 0);
  g_return_val_if_fail (index < self->n_indices, 0);

  return read_u16_at (self, TERRAIN_MODEL_TAG_INDICES, (gsize) index * INDEX_SIZE);
}

/**
 * terrain_model_get_n_meshes:
 * @self: a #TerrainModel
 *
 * Gets the number of submeshes.
 *
 * Returns: the number of submeshes
 */
guint
terrain_model_get_n_meshes (TerrainModel *self)
{
  g_return_val_if_fail (TERRAIN_IS_MODEL (self), 0);

  return self->n_meshes;
}

/**
 * terrain_model_get_mesh:
 * @self: a #TerrainModel
 * @index: a mesh index
 * @mesh: (out caller-allocates): the mesh record
 *
 * Gets submesh @index.
 *
 * Returns: %TRUE if @index is valid
 */
gboolean
terrain_model_get_mesh (TerrainModel     *self,
                        guint             index,
                        TerrainModelMesh *mesh)
{
  g_return_val_if_fail (TERRAIN_IS_MODEL (self), FALSE);
  g_return_val_if_fail (mesh != NULL, FALSE);

  if (index >= self->n_meshes)
    return FALSE;
  model_read_mesh (self, index, mesh);
  return TRUE;
}

/**
 * terrain_model_get_mesh_vertex:
 * @self: a #TerrainModel
 * @mesh: a mesh index
 * @corner: a corner of the mesh, below its index count
 *
 * Resolves a mesh's index to an absolute vertex index, adding the vertex
 * start when the mesh's indices are relative (flag 0x10). Every index was
 * checked to name an existing vertex when the model was read.
 *
 * Returns: the vertex index
 */
guint
terrain_model_get_mesh_vertex (TerrainModel *self,
                               guint         mesh,
                               guint         corner)
{
  TerrainModelMesh record;

  g_return_val_if_fail (TERRAIN_IS_MODEL (self), 0);
  g_return_val_if_fail (mesh < self->n_meshes, 0);

  model_read_mesh (self, mesh, &record);
  g_return_val_if_fail (corner < record.index_count, 0);

  return (guint) resolve_index (&record,
                                terrain_model_get_index (self, record.index_start + corner));
}

/**
 * terrain_model_get_mesh_window:
 * @self: a #TerrainModel
 * @mesh: a mesh index
 * @first: (out) (optional): first vertex of the window
 * @count: (out) (optional): number of vertices in the window
 *
 * Gives the span of vertices a mesh uses: its vertex range, widened to every
 * vertex its indices reach (in all files observed the indices stay inside the
 * range). The exporters write each mesh's window in turn, which is also the
 * vertex order [method@Terrain.Model.import_obj] expects.
 *
 * Returns: %TRUE if @mesh is valid
 */
gboolean
terrain_model_get_mesh_window (TerrainModel *self,
                               guint         mesh,
                               guint        *first,
                               guint        *count)
{
  g_return_val_if_fail (TERRAIN_IS_MODEL (self), FALSE);

  if (mesh >= self->n_meshes || self->windows == NULL)
    return FALSE;
  if (first != NULL)
    *first = self->windows[mesh].first;
  if (count != NULL)
    *count = self->windows[mesh].count;
  return TRUE;
}

/**
 * terrain_model_get_n_lods:
 * @self: a #TerrainModel
 *
 * Gets the number of distinct LODs.
 *
 * Returns: the number of distinct LODs (1 to 4): the look section repeats the
 *   last range for the LODs a model does not have
 */
guint
terrain_model_get_n_lods (TerrainModel *self)
{
  g_return_val_if_fail (TERRAIN_IS_MODEL (self), 0);

  return self->n_lods;
}

/**
 * terrain_model_get_lod:
 * @self: a #TerrainModel
 * @lod: a LOD, below %TERRAIN_MODEL_N_LODS
 * @first_mesh: (out) (optional): the LOD's first mesh
 * @n_meshes: (out) (optional): the LOD's mesh count
 *
 * Reads one of the four look ranges; without a look section every mesh
 * belongs to each LOD.
 *
 * Returns: %TRUE if @lod is valid
 */
gboolean
terrain_model_get_lod (TerrainModel *self,
                       guint         lod,
                       guint        *first_mesh,
                       guint        *n_meshes)
{
  g_return_val_if_fail (TERRAIN_IS_MODEL (self), FALSE);

  if (lod >= TERRAIN_MODEL_N_LODS)
    return FALSE;
  if (first_mesh != NULL)
    *first_mesh = self->lods[lod][0];
  if (n_meshes != NULL)
    *n_meshes = self->lods[lod][1];
  return TRUE;
}

gboolean
terrain_model_select_lods (TerrainModel  *self,
                           gint           lod,
                           guint         *first,
                           guint         *end,
                           GError       **error)
{
  if (lod == TERRAIN_MODEL_ALL_LODS)
    {
      *first = 0;
      *end = self->n_lods;
      return TRUE;
    }
  if (lod < 0 || (guint) lod >= self->n_lods)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "model: there is no LOD %d; the model has %u distinct LOD%s (0 to %u)",
                   lod, self->n_lods, self->n_lods == 1 ? "" : "s", self->n_lods - 1);
      return FALSE;
    }
  *first = (guint) lod;
  *end = (guint) lod + 1;
  return TRUE;
}

/**
 * terrain_model_get_n_materials:
 * @self: a #TerrainModel
 *
 * Gets the number of materials.
 *
 * Returns: the number of materials
 */
guint
terrain_model_get_n_materials (TerrainModel *self)
{
  g_return_val_if_fail (TERRAIN_IS_MODEL (self), 0);

  return self->n_materials;
}

/**
 * terrain_model_get_material_path:
 * @self: a #TerrainModel
 * @index: a material index
 *
 * Gets the `.material` path of material @index.
 *
 * Returns: (nullable): the `.material` path of material @index, or %NULL
 *   when @index is out of range
 */
const char *
terrain_model_get_material_path (TerrainModel *self,
                                 guint         index)
{
  g_return_val_if_fail (TERRAIN_IS_MODEL (self), NULL);

  return index < self->n_materials ? self->material_paths[index] : NULL;
}

/**
 * terrain_model_get_material_name:
 * @self: a #TerrainModel
 * @index: a material index
 *
 * Gets the name of material @index.
 *
 * Returns: (nullable): the name of material @index, or %NULL when @index is
 *   out of range
 */
const char *
terrain_model_get_material_name (TerrainModel *self,
                                 guint         index)
{
  g_return_val_if_fail (TERRAIN_IS_MODEL (self), NULL);

  return index < self->n_materials ? self->material_names[index] : NULL;
}

/* TerrainDat1 */

static const char *
terrain_model_get_section_name (TerrainDat1 *dat1,
                                guint32      tag)
{
  return model_tag_name (tag);
}

/* TerrainDocument */

static JsonNode *
terrain_model_describe (TerrainDocument *document)
{
  JsonNode *root = TERRAIN_DOCUMENT_CLASS (terrain_model_parent_class)->describe (document);

  model_add_description (TERRAIN_MODEL (document), root);
  return root;
}

static GPtrArray *
terrain_model_validate (TerrainDocument *document)
{
  GPtrArray *issues = TERRAIN_DOCUMENT_CLASS (terrain_model_parent_class)->validate (document);

  model_add_issues (TERRAIN_MODEL (document), issues);
  return issues;
}

static void
terrain_model_finalize (GObject *object)
{
  TerrainModel *self = TERRAIN_MODEL (object);

  g_clear_pointer (&self->windows, g_free);
  g_clear_pointer (&self->material_paths, g_free);
  g_clear_pointer (&self->material_names, g_free);

  G_OBJECT_CLASS (terrain_model_parent_class)->finalize (object);
}

/* LOD 0 from above (terrain_model_fill_top_view): shaded by its true
 * slopes, tinted by height, transparent where no triangle lies. */
static TerrainImage *
terrain_model_render_image (TerrainDocument  *document,
                            TerrainRenderOptions *options,
                            GError          **error)
{
  g_auto(TerrainRelief) relief = { 0 };
  gdouble pixel_size;

  (void) options;
  if (!terrain_model_fill_top_view (TERRAIN_MODEL (document), &relief, &pixel_size, error))
    return NULL;
  return terrain_relief_render (&relief, pixel_size, error);
}

/* The same view's heights: the lowest Y drawn 0, the highest 65535, pixels
 * without a triangle 0. */
static TerrainImage *
terrain_model_export_heights (TerrainDocument  *document,
                              GError          **error)
{
  g_auto(TerrainRelief) relief = { 0 };
  gdouble pixel_size;

  if (!terrain_model_fill_top_view (TERRAIN_MODEL (document), &relief, &pixel_size, error))
    return NULL;
  return terrain_relief_to_gray16 (&relief, error);
}

static void
terrain_model_class_init (TerrainModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);
  TerrainDat1Class *dat1_class = TERRAIN_DAT1_CLASS (klass);

  object_class->finalize = terrain_model_finalize;

  document_class->describe = terrain_model_describe;
  document_class->validate = terrain_model_validate;
  document_class->render_image = terrain_model_render_image;
  document_class->export_heights = terrain_model_export_heights;

  dat1_class->parse = terrain_model_parse;
  dat1_class->get_section_name = terrain_model_get_section_name;
  dat1_class->describe_section_offset = model_describe_section_offset;
}

static void
terrain_model_init (TerrainModel *self)
{
}