/* terrain-model-edit.c: edits of Insomniac models: replacing the vertex
 * positions (re-quantised at the model's scale, bounds recomputed) and
 * taking them from an edited OBJ. Part of TerrainModel
 * (terrain-model-impl-private.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-model.h"
#include "terrain-model-private.h"
#include "terrain-model-impl-private.h"
#include "core/terrain-error.h"
#include "core/terrain-limits.h"


static void
put_f32 (guint8 *p,
         gfloat  value)
{
  guint32 bits;

  memcpy (&bits, &value, sizeof bits);
  terrain_put_le32 (p, bits);
}

/* Largest shift N (at most @limit) at which every coordinate fits an i16,
 * or -1 when none does. */
static gint
fitting_shift (gdouble max_abs,
               gint    limit)
{
  for (gint n = limit; n >= 0; n--)
    if (nearbyint (ldexp (max_abs, n)) <= G_MAXINT16)
      return n;
  return -1;
}

void
model_vertex_extent (TerrainModel *self,
               gfloat        lo[3],
               gfloat        hi[3])
{
  gfloat p[3];

  for (guint i = 0; i < 3; i++)
    lo[i] = hi[i] = 0;
  for (guint v = 0; v < self->n_vertices; v++)
    {
      terrain_model_get_position (self, v, p);
      for (guint i = 0; i < 3; i++)
        {
          lo[i] = v == 0 ? p[i] : MIN (lo[i], p[i]);
          hi[i] = v == 0 ? p[i] : MAX (hi[i], p[i]);
        }
    }
}

static void
update_bounds (TerrainModel *self)
{
  guint8 *built = terrain_dat1_edit_section (TERRAIN_DAT1 (self), TERRAIN_MODEL_TAG_BUILT, NULL);
  guint8 *meshes;
  gfloat lo[3], hi[3], centre[3], p[3];
  gdouble radius = 0;

  model_vertex_extent (self, lo, hi);
  for (guint i = 0; i < 3; i++)
    centre[i] = (lo[i] + hi[i]) / 2;
  for (guint v = 0; v < self->n_vertices; v++)
    {
      terrain_model_get_position (self, v, p);
      radius = MAX (radius, sqrt ((p[0] - centre[0]) * (p[0] - centre[0]) +
                                  (p[1] - centre[1]) * (p[1] - centre[1]) +
                                  (p[2] - centre[2]) * (p[2] - centre[2])));
    }
  for (guint i = 0; i < 3; i++)
    {
      put_f32 (built + BUILT_CENTRE + 4 * i, centre[i]);
      put_f32 (built + BUILT_HALF_EXTENTS + 4 * i, (hi[i] - lo[i]) / 2);
    }
  put_f32 (built + BUILT_RADIUS, (gfloat) radius);

  if (self->n_meshes == 0)
    return;

  /* Each mesh's sphere around the centre of the vertices it uses. */
  meshes = terrain_dat1_edit_section (TERRAIN_DAT1 (self), TERRAIN_MODEL_TAG_MESHES, NULL);
  for (guint m = 0; m < self->n_meshes; m++)
    {
      TerrainModelMesh mesh;
      gfloat mlo[3] = { 0, 0, 0 }, mhi[3] = { 0, 0, 0 }, mc[3];
      gdouble r = 0;

      model_read_mesh (self, m, &mesh);
      for (guint32 k = 0; k < mesh.index_count; k++)
        {
          terrain_model_get_position (self, terrain_model_get_mesh_vertex (self, m, k), p);
          for (guint i = 0; i < 3; i++)
            {
              mlo[i] = k == 0 ? p[i] : MIN (mlo[i], p[i]);
              mhi[i] = k == 0 ? p[i] : MAX (mhi[i], p[i]);
            }
        }
      if (mesh.index_count == 0)
        continue;
      for (guint i = 0; i < 3; i++)
        mc[i] = (mlo[i] + mhi[i]) / 2;
      for (guint32 k = 0; k < mesh.index_count; k++)
        {
          terrain_model_get_position (self, terrain_model_get_mesh_vertex (self, m, k), p);
          r = MAX (r, sqrt ((p[0] - mc[0]) * (p[0] - mc[0]) + (p[1] - mc[1]) * (p[1] - mc[1]) +
                            (p[2] - mc[2]) * (p[2] - mc[2])));
        }
      for (guint i = 0; i < 3; i++)
        put_f32 (meshes + (gsize) m * MESH_SIZE + 4 * i, mc[i]);
      put_f32 (meshes + (gsize) m * MESH_SIZE + 12, (gfloat) r);
    }
}

/**
 * terrain_model_set_positions:
 * @self: a #TerrainModel
 * @positions: (array length=n_vertices): x, y, z of every vertex in model
 *   units (3 × @n_vertices floats)
 * @n_vertices: the model's vertex count
 * @flags: options
 * @error: return location for a #GError
 *
 * Replaces every vertex position and quantises it back to i16 at the model's
 * scale 2^−N (insomniac-model.md, Model Built +0x1C). When a position does not
 * fit at the current N, the finest N that fits is taken and every vertex is
 * re-quantised; the low nibble of the quantisation word changes, its other
 * bits are kept. Unless %TERRAIN_MODEL_EDIT_KEEP_BOUNDS is given, the Model
 * Built centre, radius and half-extents and each mesh's bounding sphere are
 * recomputed from the quantised positions. Nothing changes when every
 * quantised position equals the stored one.
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_INVALID_VALUE when
 *   @n_vertices differs from the model's count or a coordinate is not finite,
 *   %TERRAIN_ERROR_OUT_OF_RANGE when a coordinate exceeds ±32767 model units
 */
gboolean
terrain_model_set_positions (TerrainModel           *self,
                             const gfloat           *positions,
                             gsize                   n_vertices,
                             TerrainModelEditFlags   flags,
                             GError                **error)
{
  TerrainDat1 *dat1 = TERRAIN_DAT1 (self);
  guint shift, new_shift;
  gdouble max_abs = 0;
  gint fit;
  gboolean changed = FALSE;
  guint8 *vertices;

  g_return_val_if_fail (TERRAIN_IS_MODEL (self), FALSE);
  g_return_val_if_fail (positions != NULL || n_vertices == 0, FALSE);

  if (n_vertices != self->n_vertices)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "model: %" G_GSIZE_FORMAT " positions given for a model of %u vertices",
                   n_vertices, self->n_vertices);
      return FALSE;
    }
  if (n_vertices == 0)
    return TRUE;

  for (gsize i = 0; i < 3 * n_vertices; i++)
    {
      if (!isfinite (positions[i]))
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "model: coordinate %" G_GSIZE_FORMAT " of vertex %" G_GSIZE_FORMAT
                       " is not a finite number", i % 3, i / 3);
          return FALSE;
        }
      max_abs = MAX (max_abs, fabs (positions[i]));
    }

  shift = terrain_model_get_position_shift (self);
  fit = fitting_shift (max_abs, (flags & TERRAIN_MODEL_EDIT_BEST_SCALE) ? 15 : (gint) shift);
  if (fit < 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "model: a coordinate of magnitude %g does not fit 16-bit positions even at "
                   "scale 1 (at most 32767)", max_abs);
      return FALSE;
    }
  new_shift = (guint) fit;

  for (guint v = 0; v < self->n_vertices && !changed; v++)
    {
      TerrainModelVertex vertex;

      model_read_vertex (self, v, &vertex);
      for (guint i = 0; i < 3; i++)
        if ((gint) nearbyint (ldexp (positions[3 * v + i], (int) new_shift)) != vertex.position[i])
          changed = TRUE;
    }
  if (!changed && new_shift == shift)
    return TRUE;

  vertices = terrain_dat1_edit_section (dat1, TERRAIN_MODEL_TAG_VERTICES, NULL);
  for (guint v = 0; v < self->n_vertices; v++)
    for (guint i = 0; i < 3; i++)
      terrain_put_le16 (vertices + (gsize) v * VERTEX_SIZE + 2 * i,
                        (guint16) (gint16) nearbyint (ldexp (positions[3 * v + i],
                                                             (int) new_shift)));

  if (new_shift != shift)
    {
      guint8 *built = terrain_dat1_edit_section (dat1, TERRAIN_MODEL_TAG_BUILT, NULL);
      guint32 word = terrain_model_get_quantization (self);

      terrain_put_le32 (built + BUILT_QUANTIZATION, (word & ~0xFu) | new_shift);
    }

  if (!(flags & TERRAIN_MODEL_EDIT_KEEP_BOUNDS))
    update_bounds (self);

  return TRUE;
}

/**
 * terrain_model_import_obj:
 * @self: a #TerrainModel
 * @obj: a Wavefront OBJ, as written by [method@Terrain.Model.export_obj] for
 *   the same @lod and edited without changing its topology
 * @lod: the LOD the OBJ was exported with, or %TERRAIN_MODEL_ALL_LODS
 * @flags: options passed to [method@Terrain.Model.set_positions]
 * @error: return location for a #GError
 *
 * Takes the vertex positions of an edited OBJ: its `v` lines map in order to
 * the vertex windows of the meshes of @lod ([method@Terrain.Model.get_mesh_window]),
 * the way the exporter wrote them. A vertex written more than once (meshes
 * sharing vertices) takes the first value that differs from the model's.
 * Vertices outside @lod keep their positions. Faces are not read, but their
 * triangle count must match the model's when the OBJ has faces.
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_INVALID_VALUE for a
 *   malformed `v` line or a vertex or triangle count that differs, or an
 *   error of [method@Terrain.Model.set_positions]
 */
gboolean
terrain_model_import_obj (TerrainModel           *self,
                          GBytes                 *obj,
                          gint                    lod,
                          TerrainModelEditFlags   flags,
                          GError                **error)
{
  g_autofree gfloat *positions = NULL;
  g_autofree gboolean *taken = NULL;
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (gfloat));
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint first_lod, end_lod;
  guint64 triangles = 0, obj_triangles = 0;
  gboolean has_faces = FALSE;
  gdouble quantum;

  g_return_val_if_fail (TERRAIN_IS_MODEL (self), FALSE);
  g_return_val_if_fail (obj != NULL, FALSE);

  if (!terrain_model_select_lods (self, lod, &first_lod, &end_lod, error))
    return FALSE;

  for (guint l = first_lod; l < end_lod; l++)
    for (guint m = self->lods[l][0]; m < (guint) self->lods[l][0] + self->lods[l][1]; m++)
      {
        TerrainModelMesh mesh;

        model_read_mesh (self, m, &mesh);
        triangles += mesh.index_count / 3;
        for (guint v = 0; v < self->windows[m].count; v++)
          {
            guint vertex = self->windows[m].first + v;
            g_array_append_val (order, vertex);
          }
      }

  text = g_strndup (g_bytes_get_data (obj, NULL), g_bytes_get_size (obj));
  lines = g_strsplit (text, "\n", -1);
  for (guint n = 0; lines[n] != NULL; n++)
    {
      const char *line = lines[n];

      while (*line == ' ' || *line == '\t')
        line++;
      if (line[0] == 'v' && (line[1] == ' ' || line[1] == '\t'))
        {
          char *end = (char *) line + 1;

          for (guint i = 0; i < 3; i++)
            {
              const char *start = end;
              gdouble value = g_ascii_strtod (start, &end);

              if (end == start || !isfinite (value))
                {
                  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                               "OBJ: line %u: coordinate %u of the vertex is not a number", n + 1,
                               i + 1);
                  return FALSE;
                }
              {
                gfloat f = (gfloat) value;
                g_array_append_val (values, f);
              }
            }
        }
      else if (line[0] == 'f' && (line[1] == ' ' || line[1] == '\t'))
        {
          g_auto(GStrv) corners = g_strsplit_set (line + 1, " \t\r", -1);
          guint count = 0;

          for (guint i = 0; corners[i] != NULL; i++)
            if (corners[i][0] != '\0')
              count++;
          has_faces = TRUE;
          if (count >= 3)
            obj_triangles += count - 2;
        }
    }

  if (values->len / 3 != order->len)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "OBJ: %u vertices, but the meshes of %s have %u (the exporter writes each "
                   "mesh's vertex window in turn)",
                   values->len / 3, lod == TERRAIN_MODEL_ALL_LODS ? "all LODs" : "the LOD",
                   order->len);
      return FALSE;
    }
  if (has_faces && obj_triangles != triangles)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "OBJ: %" G_GUINT64_FORMAT " triangles, but the meshes have %" G_GUINT64_FORMAT
                   ": the topology changed", obj_triangles, triangles);
      return FALSE;
    }

  if (!terrain_limits_check_alloc (NULL, self->n_vertices, 3 * sizeof (gfloat), "positions",
                                   "model", 0, error))
    return FALSE;
  positions = g_new (gfloat, 3 * (gsize) MAX (self->n_vertices, 1));
  taken = g_new0 (gboolean, MAX (self->n_vertices, 1));
  for (guint v = 0; v < self->n_vertices; v++)
    terrain_model_get_position (self, v, positions + 3 * v);

  /* A quarter of a quantum tells an edited vertex from a written one. */
  quantum = terrain_model_get_position_scale (self) / 4;
  for (guint k = 0; k < order->len; k++)
    {
      guint v = g_array_index (order, guint, k);
      const gfloat *p = &g_array_index (values, gfloat, 3 * k);
      gboolean differs = FALSE;

      if (taken[v])
        continue;
      for (guint i = 0; i < 3; i++)
        differs = differs || fabs (p[i] - positions[3 * v + i]) > quantum;
      if (differs)
        {
          memcpy (positions + 3 * v, p, 3 * sizeof (gfloat));
          taken[v] = TRUE;
        }
    }

  return terrain_model_set_positions (self, positions, self->n_vertices, flags, error);
}
