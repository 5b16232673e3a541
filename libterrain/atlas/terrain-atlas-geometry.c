/* terrain-atlas-geometry.c: Atlas geometry chunks: the body of every
 * resource version (atlas-chu-tqt.md §3), accessors and validation; the
 * collision block's accessors and generator are in -collision.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-atlas-geometry-impl-private.h"
#include "terrain-atlas-private.h"
#include "terrain-quadtree.h"
#include "core/terrain-error.h"

/* atlas-chu-tqt.md §3: 40 bytes per vertex before version 140 (point,
 * texCoord, two morph vectors), 52 from 140 on (plus the normal). */
#define VERTEX_SIZE_OLD 40
#define VERTEX_SIZE_140 52
#define BOX_SIZE        24

/* Bin-list entries whose heights validation compares with their bin. */
#define COLLISION_CHECK_BUDGET (G_GUINT64_CONSTANT (1) << 22)

#define COLLISION_PRESENT 0xDF
#define COLLISION_ABSENT  0x0F

G_DEFINE_FINAL_TYPE (TerrainAtlasGeometry, terrain_atlas_geometry, G_TYPE_OBJECT)

G_DEFINE_BOXED_TYPE (TerrainAtlasBox, terrain_atlas_box,
                     terrain_atlas_box_copy, terrain_atlas_box_free)

/**
 * terrain_atlas_box_copy:
 * @box: a #TerrainAtlasBox
 *
 * Copies @box.
 *
 * Returns: (transfer full): a copy of @box
 */
TerrainAtlasBox *
terrain_atlas_box_copy (const TerrainAtlasBox *box)
{
  g_return_val_if_fail (box != NULL, NULL);

  return g_memdup2 (box, sizeof *box);
}

/**
 * terrain_atlas_box_free:
 * @box: (transfer full): a #TerrainAtlasBox
 *
 * Frees a box made by [method@Terrain.AtlasBox.copy].
 */
void
terrain_atlas_box_free (TerrainAtlasBox *box)
{
  g_free (box);
}

/**
 * terrain_atlas_box_union:
 * @box: a box, grown in place
 * @other: the box to include
 *
 * Grows @box to contain @other (Torque's `setMin`/`setMax` per axis).
 */
void
terrain_atlas_box_union (TerrainAtlasBox       *box,
                         const TerrainAtlasBox *other)
{
  g_return_if_fail (box != NULL);
  g_return_if_fail (other != NULL);

  for (guint i = 0; i < 3; i++)
    {
      if (other->min[i] < box->min[i])
        box->min[i] = other->min[i];
      if (other->max[i] > box->max[i])
        box->max[i] = other->max[i];
    }
}

/**
 * terrain_atlas_box_contains:
 * @box: a box
 * @other: another box
 *
 * Checks whether @other lies inside @box.
 *
 * Returns: %TRUE if @other lies inside @box (faces may touch)
 */
gboolean
terrain_atlas_box_contains (const TerrainAtlasBox *box,
                            const TerrainAtlasBox *other)
{
  g_return_val_if_fail (box != NULL, FALSE);
  g_return_val_if_fail (other != NULL, FALSE);

  for (guint i = 0; i < 3; i++)
    if (!(other->min[i] >= box->min[i] && other->max[i] <= box->max[i]))
      return FALSE;
  return TRUE;
}

/**
 * terrain_atlas_box_equal:
 * @a: a box
 * @b: another box
 *
 * Compares two boxes bit for bit, as they would be written: 0.0 and -0.0
 * differ, and a NaN equals the same NaN.
 *
 * Returns: %TRUE if the boxes serialise to the same 24 bytes
 */
gboolean
terrain_atlas_box_equal (const TerrainAtlasBox *a,
                         const TerrainAtlasBox *b)
{
  g_return_val_if_fail (a != NULL, FALSE);
  g_return_val_if_fail (b != NULL, FALSE);

  return memcmp (a, b, sizeof *a) == 0;
}

static void
terrain_atlas_geometry_finalize (GObject *object)
{
  TerrainAtlasGeometry *self = (TerrainAtlasGeometry *) object;

  g_clear_pointer (&self->vertices, g_free);
  g_clear_pointer (&self->indices, g_free);
  g_clear_pointer (&self->collision_tree, g_free);
  g_clear_pointer (&self->collision_offsets, g_free);
  g_clear_pointer (&self->collision_indices, g_free);

  G_OBJECT_CLASS (terrain_atlas_geometry_parent_class)->finalize (object);
}

static void
terrain_atlas_geometry_class_init (TerrainAtlasGeometryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = terrain_atlas_geometry_finalize;
}

static void
terrain_atlas_geometry_init (TerrainAtlasGeometry *self)
{
  self->source_version = TERRAIN_ATLAS_VERSION;
}

/**
 * terrain_atlas_geometry_new:
 *
 * Creates an empty geometry chunk (no vertices, no indices, no collision,
 * zero bounds, previousChunk 0), to be filled and placed in a file with
 * [method@Terrain.AtlasFile.set_geometry].
 *
 * Returns: (transfer full): a new #TerrainAtlasGeometry
 */
TerrainAtlasGeometry *
terrain_atlas_geometry_new (void)
{
  return g_object_new (TERRAIN_TYPE_ATLAS_GEOMETRY, NULL);
}

static gboolean
read_box (TerrainReader    *reader,
          TerrainAtlasBox  *box,
          GError          **error)
{
  for (guint i = 0; i < 3; i++)
    if (!terrain_reader_read_f32 (reader, &box->min[i], error))
      return FALSE;
  for (guint i = 0; i < 3; i++)
    if (!terrain_reader_read_f32 (reader, &box->max[i], error))
      return FALSE;
  return TRUE;
}

static void
write_box (TerrainWriter         *writer,
           const TerrainAtlasBox *box)
{
  for (guint i = 0; i < 3; i++)
    terrain_writer_put_f32 (writer, box->min[i]);
  for (guint i = 0; i < 3; i++)
    terrain_writer_put_f32 (writer, box->max[i]);
}

/* Reads a U32 element count and checks, before anything is allocated, that
 * its elements fit in what is left of the body and in the allocation
 * budget. */
static gboolean
read_count (TerrainReader        *reader,
            const TerrainLimits  *limits,
            gsize                 element_size,
            const char           *what,
            guint32              *count,
            GError              **error)
{
  goffset at = terrain_reader_abs_offset (reader);
  guint64 need;

  if (!terrain_reader_read_u32 (reader, count, error))
    {
      g_prefix_error (error, "%s count: ", what);
      return FALSE;
    }

  need = (guint64) *count * element_size;
  if (need > terrain_reader_remaining (reader))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "%s: %s count %u at byte offset %" G_GOFFSET_FORMAT " needs %"
                   G_GUINT64_FORMAT " bytes, only %" G_GSIZE_FORMAT " remain in the body",
                   reader->section, what, *count, at, need,
                   terrain_reader_remaining (reader));
      return FALSE;
    }

  return terrain_limits_check_alloc (limits, *count, element_size, what,
                                     reader->section, at, error);
}

static gboolean
read_vertex (TerrainReader       *reader,
             guint32              version,
             TerrainAtlasVertex  *v,
             GError             **error)
{
  gfloat values[13];
  guint n = version >= 140 ? 13 : 10;

  for (guint i = 0; i < n; i++)
    if (!terrain_reader_read_f32 (reader, &values[i], error))
      return FALSE;

  memcpy (v->point, values, 3 * sizeof (gfloat));
  memcpy (v->tex_coord, values + 3, 2 * sizeof (gfloat));

  if (version < 130)
    {
      /* §3: pointMorphOffset, then texMorphOffset. */
      memcpy (v->point_morph_offset, values + 5, 3 * sizeof (gfloat));
      memcpy (v->tex_morph_offset, values + 8, 2 * sizeof (gfloat));
    }
  else
    {
      /* 130 on: texMorphOffset, then pointMorphOffset. */
      memcpy (v->tex_morph_offset, values + 5, 2 * sizeof (gfloat));
      memcpy (v->point_morph_offset, values + 7, 3 * sizeof (gfloat));
    }

  if (version >= 140)
    memcpy (v->normal, values + 10, 3 * sizeof (gfloat));
  else
    {
      /* §7, "Canonical interpretation": the omitted normal is (0,0,1). */
      v->normal[0] = 0.0f;
      v->normal[1] = 0.0f;
      v->normal[2] = 1.0f;
    }

  return TRUE;
}

static void
write_vertex (TerrainWriter            *writer,
              guint32                   version,
              const TerrainAtlasVertex *v)
{
  for (guint i = 0; i < 3; i++)
    terrain_writer_put_f32 (writer, v->point[i]);
  for (guint i = 0; i < 2; i++)
    terrain_writer_put_f32 (writer, v->tex_coord[i]);

  if (version < 130)
    {
      for (guint i = 0; i < 3; i++)
        terrain_writer_put_f32 (writer, v->point_morph_offset[i]);
      for (guint i = 0; i < 2; i++)
        terrain_writer_put_f32 (writer, v->tex_morph_offset[i]);
    }
  else
    {
      for (guint i = 0; i < 2; i++)
        terrain_writer_put_f32 (writer, v->tex_morph_offset[i]);
      for (guint i = 0; i < 3; i++)
        terrain_writer_put_f32 (writer, v->point_morph_offset[i]);
    }

  if (version >= 140)
    for (guint i = 0; i < 3; i++)
      terrain_writer_put_f32 (writer, v->normal[i]);
}

static gboolean
read_collision (TerrainAtlasGeometry  *self,
                TerrainReader         *reader,
                const TerrainLimits   *limits,
                GError               **error)
{
  goffset at = terrain_reader_abs_offset (reader);
  guint64 nodes;
  guint32 count;

  if (!terrain_reader_read_u32 (reader, &self->collision_depth, error))
    {
      g_prefix_error (error, "collision tree depth: ");
      return FALSE;
    }
  if (self->collision_depth > TERRAIN_ATLAS_MAX_COLLISION_DEPTH)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s: collision tree depth %u at byte offset %" G_GOFFSET_FORMAT
                   " exceeds %d levels",
                   reader->section, self->collision_depth, at,
                   TERRAIN_ATLAS_MAX_COLLISION_DEPTH);
      return FALSE;
    }

  nodes = terrain_quadtree_node_count (self->collision_depth);
  if (nodes * 8 > terrain_reader_remaining (reader))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "%s: a collision tree of depth %u (declared at byte offset %"
                   G_GOFFSET_FORMAT ") has %" G_GUINT64_FORMAT " nodes of 8 bytes, only %"
                   G_GSIZE_FORMAT " bytes remain in the body",
                   reader->section, self->collision_depth, at, nodes,
                   terrain_reader_remaining (reader));
      return FALSE;
    }
  if (!terrain_limits_check_alloc (limits, nodes, 2 * sizeof (gfloat), "collision tree",
                                   reader->section, at, error))
    return FALSE;
  self->n_collision_nodes = (guint) nodes;
  self->collision_tree = g_new (gfloat, 2 * (gsize) nodes);
  for (guint64 i = 0; i < 2 * nodes; i++)
    if (!terrain_reader_read_f32 (reader, &self->collision_tree[i], error))
      return FALSE;

  if (!read_count (reader, limits, 2, "collision bin offset", &count, error))
    return FALSE;
  self->n_collision_offsets = count;
  self->collision_offsets = g_new (guint16, MAX (count, 1));
  if (!terrain_reader_read_u16_array (reader, count, self->collision_offsets, error))
    return FALSE;

  if (!read_count (reader, limits, 2, "collision index", &count, error))
    return FALSE;
  self->n_collision_indices = count;
  self->collision_indices = g_new (guint16, MAX (count, 1));
  if (!terrain_reader_read_u16_array (reader, count, self->collision_indices, error))
    return FALSE;

  self->has_collision = TRUE;
  return TRUE;
}

static void
vertex_bounds (const TerrainAtlasVertex *vertices,
               guint                     n_vertices,
               TerrainAtlasBox          *box)
{
  memset (box, 0, sizeof *box);
  if (n_vertices == 0)
    return;

  memcpy (box->min, vertices[0].point, sizeof box->min);
  memcpy (box->max, vertices[0].point, sizeof box->max);
  for (guint i = 1; i < n_vertices; i++)
    for (guint a = 0; a < 3; a++)
      {
        if (vertices[i].point[a] < box->min[a])
          box->min[a] = vertices[i].point[a];
        if (vertices[i].point[a] > box->max[a])
          box->max[a] = vertices[i].point[a];
      }
}

/**
 * terrain_atlas_geometry_new_from_body:
 * @body: a geometry chunk body: the bytes between the `agch` and `agct`
 *   markers of its frame
 * @version: the resource version of the owning TOC
 * @body_offset: byte offset of @body in its file, for error messages
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Decodes a geometry chunk of any resource version (atlas-chu-tqt.md §3):
 * previousChunk; for 120 and later the bounds; the index count, skirt skip
 * count and U16 indices; the vertex count and vertices (40 bytes each with
 * the morph vectors point-first before 130 and texture-first from 130, 52
 * bytes with the normal from 140); for 101 to 119 the bounds after the
 * vertices; for 120 and later the collision flag (0xDF or 0x0F), the
 * collision block when flagged, and the footer 0xCEFEDEEF, which must end
 * the body exactly.
 *
 * The result uses the canonical version-140 field set (§7): bounds derived
 * from the vertices before 101, normal (0, 0, 1) before 140, no collision
 * before 120. Counts are checked against the body and @limits before any
 * allocation.
 *
 * Returns: (transfer full) (nullable): the chunk, or %NULL with
 *   %TERRAIN_ERROR_TRUNCATED when a count or field runs past the body,
 *   %TERRAIN_ERROR_BAD_MAGIC for a bad collision flag or footer,
 *   %TERRAIN_ERROR_INVALID_VALUE for bytes left after the last field or a
 *   collision tree deeper than %TERRAIN_ATLAS_MAX_COLLISION_DEPTH, or
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED
 */
TerrainAtlasGeometry *
terrain_atlas_geometry_new_from_body (GBytes               *body,
                                      guint32               version,
                                      goffset               body_offset,
                                      const TerrainLimits  *limits,
                                      GError              **error)
{
  g_autoptr(TerrainAtlasGeometry) self = NULL;
  g_autofree char *section = NULL;
  TerrainReader reader;
  gsize size = 0;
  const guint8 *data;
  guint32 count, vertex_size;

  g_return_val_if_fail (body != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (limits == NULL)
    limits = terrain_limits_get_default ();

  self = terrain_atlas_geometry_new ();
  self->source_version = version;

  section = g_strdup_printf ("Atlas geometry chunk (version %u)", version);
  data = g_bytes_get_data (body, &size);
  terrain_reader_init_data (&reader, data, size, body_offset, section);

  if (!terrain_reader_read_u32 (&reader, &self->previous_chunk, error))
    {
      g_prefix_error (error, "previousChunk: ");
      return NULL;
    }

  if (version >= 120 && !read_box (&reader, &self->bounds, error))
    {
      g_prefix_error (error, "chunk bounds: ");
      return NULL;
    }

  if (!read_count (&reader, limits, 2, "index", &count, error))
    return NULL;
  self->n_indices = count;
  if (!terrain_reader_read_u32 (&reader, &self->skirt_skip_count, error))
    {
      g_prefix_error (error, "skirt skip count: ");
      return NULL;
    }
  self->indices = g_new (guint16, MAX (count, 1));
  if (!terrain_reader_read_u16_array (&reader, count, self->indices, error))
    return NULL;

  vertex_size = version >= 140 ? VERTEX_SIZE_140 : VERTEX_SIZE_OLD;
  if (!read_count (&reader, limits, vertex_size, "vertex", &count, error))
    return NULL;
  if (!terrain_limits_check_alloc (limits, count, sizeof (TerrainAtlasVertex), "vertices",
                                   section, terrain_reader_abs_offset (&reader) - 4, error))
    return NULL;
  self->n_vertices = count;
  self->vertices = g_new (TerrainAtlasVertex, MAX (count, 1));
  for (guint i = 0; i < count; i++)
    if (!read_vertex (&reader, version, &self->vertices[i], error))
      return NULL;

  if (version < 101)
    {
      /* §7: bounds derived from the vertices. */
      vertex_bounds (self->vertices, self->n_vertices, &self->bounds);
    }
  else if (version < 120)
    {
      if (!read_box (&reader, &self->bounds, error))
        {
          g_prefix_error (error, "chunk bounds after the vertices: ");
          return NULL;
        }
    }
  else
    {
      goffset flag_at = terrain_reader_abs_offset (&reader);
      guint8 flag;
      guint32 footer;

      if (!terrain_reader_read_u8 (&reader, &flag, error))
        {
          g_prefix_error (error, "collision flag: ");
          return NULL;
        }
      if (flag == COLLISION_PRESENT)
        {
          if (!read_collision (self, &reader, limits, error))
            return NULL;
        }
      else if (flag != COLLISION_ABSENT)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                       "%s: collision flag 0x%02X at byte offset %" G_GOFFSET_FORMAT
                       " must be 0xDF (collision present) or 0x0F (absent)",
                       section, flag, flag_at);
          return NULL;
        }

      flag_at = terrain_reader_abs_offset (&reader);
      if (!terrain_reader_read_u32 (&reader, &footer, error))
        {
          g_prefix_error (error, "footer 0xCEFEDEEF: ");
          return NULL;
        }
      if (footer != TERRAIN_ATLAS_GEOMETRY_FOOTER)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                       "%s: footer 0x%08X at byte offset %" G_GOFFSET_FORMAT
                       " must be 0xCEFEDEEF",
                       section, footer, flag_at);
          return NULL;
        }
    }

  if (terrain_reader_remaining (&reader) != 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s: %" G_GSIZE_FORMAT " unexpected bytes at byte offset %" G_GOFFSET_FORMAT
                   " after the last field, before the end of the body",
                   section, terrain_reader_remaining (&reader),
                   terrain_reader_abs_offset (&reader));
      return NULL;
    }

  return g_steal_pointer (&self);
}

static gboolean
normal_is_canonical (const TerrainAtlasVertex *v)
{
  return v->normal[0] == 0.0f && v->normal[1] == 0.0f && v->normal[2] == 1.0f;
}

/**
 * terrain_atlas_geometry_encode_body:
 * @self: a #TerrainAtlasGeometry
 * @version: the resource version to write
 * @loss: (out) (optional): what the layout of @version could not hold
 * @error: return location for a #GError
 *
 * Serialises the chunk body in the layout of @version (§3), the inverse of
 * [ctor@Terrain.AtlasGeometry.new_from_body]. Writing a decoded chunk at its
 * own version reproduces its bytes. Older layouts drop what they cannot hold
 * and say so in @loss: normals before 140, collision before 120, and before
 * 101 the bounds (they are derived from the vertices when read back).
 *
 * Returns: (transfer full) (nullable): the body, or %NULL with
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED when it would exceed 4 GiB
 */
GBytes *
terrain_atlas_geometry_encode_body (TerrainAtlasGeometry  *self,
                                    guint32                version,
                                    TerrainAtlasLoss      *loss,
                                    GError               **error)
{
  TerrainWriter writer;
  TerrainAtlasLoss lost = TERRAIN_ATLAS_LOSS_NONE;
  gsize vertex_size;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), NULL);

  vertex_size = version >= 140 ? VERTEX_SIZE_140 : VERTEX_SIZE_OLD;
  terrain_writer_init (&writer, 64 + 2 * (gsize) self->n_indices +
                                vertex_size * self->n_vertices);
  terrain_writer_set_section (&writer, "Atlas geometry chunk");

  terrain_writer_put_u32 (&writer, self->previous_chunk);
  if (version >= 120)
    write_box (&writer, &self->bounds);
  terrain_writer_put_u32 (&writer, self->n_indices);
  terrain_writer_put_u32 (&writer, self->skirt_skip_count);
  terrain_writer_put_u16_array (&writer, self->indices, self->n_indices);
  terrain_writer_put_u32 (&writer, self->n_vertices);
  for (guint i = 0; i < self->n_vertices; i++)
    {
      if (version < 140 && !normal_is_canonical (&self->vertices[i]))
        lost |= TERRAIN_ATLAS_LOSS_NORMALS;
      write_vertex (&writer, version, &self->vertices[i]);
    }

  if (version < 101)
    {
      TerrainAtlasBox derived;

      vertex_bounds (self->vertices, self->n_vertices, &derived);
      if (!terrain_atlas_box_equal (&derived, &self->bounds))
        lost |= TERRAIN_ATLAS_LOSS_BOUNDS;
    }
  else if (version < 120)
    {
      write_box (&writer, &self->bounds);
    }
  else
    {
      if (self->has_collision)
        {
          terrain_writer_put_u8 (&writer, COLLISION_PRESENT);
          terrain_writer_put_u32 (&writer, self->collision_depth);
          for (guint i = 0; i < 2 * self->n_collision_nodes; i++)
            terrain_writer_put_f32 (&writer, self->collision_tree[i]);
          terrain_writer_put_u32 (&writer, self->n_collision_offsets);
          terrain_writer_put_u16_array (&writer, self->collision_offsets,
                                        self->n_collision_offsets);
          terrain_writer_put_u32 (&writer, self->n_collision_indices);
          terrain_writer_put_u16_array (&writer, self->collision_indices,
                                        self->n_collision_indices);
        }
      else
        terrain_writer_put_u8 (&writer, COLLISION_ABSENT);
      terrain_writer_put_u32 (&writer, TERRAIN_ATLAS_GEOMETRY_FOOTER);
    }

  if (version < 120 && self->has_collision)
    lost |= TERRAIN_ATLAS_LOSS_COLLISION;

  if (loss != NULL)
    *loss = lost;

  return terrain_writer_finish (&writer, error);
}

/**
 * terrain_atlas_geometry_copy:
 * @self: a #TerrainAtlasGeometry
 *
 * Copies @self into an independent chunk.
 *
 * Returns: (transfer full): an independent copy of @self
 */
TerrainAtlasGeometry *
terrain_atlas_geometry_copy (TerrainAtlasGeometry *self)
{
  TerrainAtlasGeometry *copy;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), NULL);

  copy = terrain_atlas_geometry_new ();
  copy->source_version = self->source_version;
  copy->previous_chunk = self->previous_chunk;
  copy->bounds = self->bounds;
  copy->n_vertices = self->n_vertices;
  copy->vertices = g_memdup2 (self->vertices,
                              sizeof (TerrainAtlasVertex) * MAX (self->n_vertices, 1));
  copy->n_indices = self->n_indices;
  copy->indices = g_memdup2 (self->indices, sizeof (guint16) * MAX (self->n_indices, 1));
  copy->skirt_skip_count = self->skirt_skip_count;
  if (self->has_collision)
    {
      copy->has_collision = TRUE;
      copy->collision_depth = self->collision_depth;
      copy->n_collision_nodes = self->n_collision_nodes;
      copy->collision_tree = g_memdup2 (self->collision_tree,
                                        2 * sizeof (gfloat) * MAX (self->n_collision_nodes, 1));
      copy->n_collision_offsets = self->n_collision_offsets;
      copy->collision_offsets = g_memdup2 (self->collision_offsets,
                                           sizeof (guint16) * MAX (self->n_collision_offsets, 1));
      copy->n_collision_indices = self->n_collision_indices;
      copy->collision_indices = g_memdup2 (self->collision_indices,
                                           sizeof (guint16) * MAX (self->n_collision_indices, 1));
    }

  return copy;
}

/**
 * terrain_atlas_geometry_get_source_version:
 * @self: a #TerrainAtlasGeometry
 *
 * Gets the resource version the chunk was decoded from.
 *
 * Returns: the resource version the chunk was decoded from, or
 *   %TERRAIN_ATLAS_VERSION for a chunk made in memory
 */
guint32
terrain_atlas_geometry_get_source_version (TerrainAtlasGeometry *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), 0);

  return self->source_version;
}

/**
 * terrain_atlas_geometry_get_previous_chunk:
 * @self: a #TerrainAtlasGeometry
 *
 * Gets previousChunk, the offset of the frame this chunk replaced.
 *
 * Returns: previousChunk: the absolute offset of the frame this chunk
 *   replaced (history), or 0 for a first write (§2)
 */
guint32
terrain_atlas_geometry_get_previous_chunk (TerrainAtlasGeometry *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), 0);

  return self->previous_chunk;
}

/**
 * terrain_atlas_geometry_set_previous_chunk:
 * @self: a #TerrainAtlasGeometry
 * @offset: absolute offset of the replaced frame, or 0
 *
 * Sets previousChunk. [method@Terrain.AtlasFile.replace_geometry] sets it
 * itself, the way TGEA does.
 */
void
terrain_atlas_geometry_set_previous_chunk (TerrainAtlasGeometry *self,
                                           guint32               offset)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self));

  self->previous_chunk = offset;
}

/**
 * terrain_atlas_geometry_get_bounds:
 * @self: a #TerrainAtlasGeometry
 * @bounds: (out caller-allocates): the chunk bounds
 *
 * Gets the chunk bounds: as stored for version 101 and later, derived from
 * the vertices before 101 (§7).
 */
void
terrain_atlas_geometry_get_bounds (TerrainAtlasGeometry *self,
                                   TerrainAtlasBox      *bounds)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self));
  g_return_if_fail (bounds != NULL);

  *bounds = self->bounds;
}

/**
 * terrain_atlas_geometry_set_bounds:
 * @self: a #TerrainAtlasGeometry
 * @bounds: the new chunk bounds
 *
 * Sets the bounds written with the chunk. Nothing recomputes them when the
 * vertices change: see [method@Terrain.AtlasGeometry.compute_bounds], or let
 * [method@Terrain.AtlasFile.replace_geometry] do it.
 */
void
terrain_atlas_geometry_set_bounds (TerrainAtlasGeometry  *self,
                                   const TerrainAtlasBox *bounds)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self));
  g_return_if_fail (bounds != NULL);

  self->bounds = *bounds;
}

/**
 * terrain_atlas_geometry_compute_bounds:
 * @self: a #TerrainAtlasGeometry
 * @bounds: (out caller-allocates): the bounds of the vertex positions
 *
 * Computes the box around every vertex position (skirts included), the
 * bounds a version-100 reader derives.
 *
 * Returns: %TRUE, or %FALSE (and an all-zero box) when there are no vertices
 */
gboolean
terrain_atlas_geometry_compute_bounds (TerrainAtlasGeometry *self,
                                       TerrainAtlasBox      *bounds)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), FALSE);
  g_return_val_if_fail (bounds != NULL, FALSE);

  vertex_bounds (self->vertices, self->n_vertices, bounds);
  return self->n_vertices > 0;
}

/**
 * terrain_atlas_geometry_get_n_vertices:
 * @self: a #TerrainAtlasGeometry
 *
 * Gets mVertCount, the number of vertices.
 *
 * Returns: mVertCount
 */
guint
terrain_atlas_geometry_get_n_vertices (TerrainAtlasGeometry *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), 0);

  return self->n_vertices;
}

/**
 * terrain_atlas_geometry_get_vertices:
 * @self: a #TerrainAtlasGeometry
 * @n_vertices: (out) (optional): the number of vertices
 *
 * Gets the vertices in the canonical field set.
 *
 * Returns: (transfer none) (array length=n_vertices): the vertices in the
 *   canonical field set, valid until @self changes
 */
const TerrainAtlasVertex *
terrain_atlas_geometry_get_vertices (TerrainAtlasGeometry *self,
                                     guint                *n_vertices)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), NULL);

  if (n_vertices != NULL)
    *n_vertices = self->n_vertices;
  return self->vertices;
}

/**
 * terrain_atlas_geometry_set_vertices:
 * @self: a #TerrainAtlasGeometry
 * @vertices: (array length=n_vertices): the new vertices
 * @n_vertices: their number; indices are 16-bit, so at most 65536 are
 *   addressable
 *
 * Replaces the vertex array. Bounds and collision are left alone.
 */
void
terrain_atlas_geometry_set_vertices (TerrainAtlasGeometry     *self,
                                     const TerrainAtlasVertex *vertices,
                                     guint                     n_vertices)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self));
  g_return_if_fail (vertices != NULL || n_vertices == 0);

  g_free (self->vertices);
  self->vertices = g_new (TerrainAtlasVertex, MAX (n_vertices, 1));
  if (n_vertices > 0)
    memcpy (self->vertices, vertices, sizeof (TerrainAtlasVertex) * n_vertices);
  self->n_vertices = n_vertices;
}

/**
 * terrain_atlas_geometry_set_vertex_height:
 * @self: a #TerrainAtlasGeometry
 * @index: a vertex index, below [method@Terrain.AtlasGeometry.get_n_vertices]
 * @z: the new height (point.z, world units)
 *
 * Moves one vertex vertically. Bounds and collision are left alone until the
 * chunk is written back with [method@Terrain.AtlasFile.replace_geometry].
 */
void
terrain_atlas_geometry_set_vertex_height (TerrainAtlasGeometry *self,
                                          guint                 index,
                                          gfloat                z)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self));
  g_return_if_fail (index < self->n_vertices);

  self->vertices[index].point[2] = z;
}

/**
 * terrain_atlas_geometry_get_n_indices:
 * @self: a #TerrainAtlasGeometry
 *
 * Gets mIndexCount, the number of triangle-strip indices.
 *
 * Returns: mIndexCount
 */
guint
terrain_atlas_geometry_get_n_indices (TerrainAtlasGeometry *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), 0);

  return self->n_indices;
}

/**
 * terrain_atlas_geometry_get_indices:
 * @self: a #TerrainAtlasGeometry
 * @n_indices: (out) (optional): the number of indices
 *
 * Returns the triangle-list indices. The last
 * [method@Terrain.AtlasGeometry.get_skirt_skip_count] of them are skirt
 * triangles (§3, "Index data").
 *
 * Returns: (transfer none) (array length=n_indices): the indices
 */
const guint16 *
terrain_atlas_geometry_get_indices (TerrainAtlasGeometry *self,
                                    guint                *n_indices)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), NULL);

  if (n_indices != NULL)
    *n_indices = self->n_indices;
  return self->indices;
}

/**
 * terrain_atlas_geometry_get_skirt_skip_count:
 * @self: a #TerrainAtlasGeometry
 *
 * Gets mSkirtSkipCount, the number of trailing skirt indices.
 *
 * Returns: mSkirtSkipCount, the number of trailing skirt indices
 */
guint32
terrain_atlas_geometry_get_skirt_skip_count (TerrainAtlasGeometry *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), 0);

  return self->skirt_skip_count;
}

/**
 * terrain_atlas_geometry_set_indices:
 * @self: a #TerrainAtlasGeometry
 * @indices: (array length=n_indices): triangle-list vertex indices
 * @n_indices: their number
 * @skirt_skip_count: how many trailing indices are skirt triangles
 *
 * Replaces the index array.
 */
void
terrain_atlas_geometry_set_indices (TerrainAtlasGeometry *self,
                                    const guint16        *indices,
                                    guint                 n_indices,
                                    guint32               skirt_skip_count)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self));
  g_return_if_fail (indices != NULL || n_indices == 0);

  g_free (self->indices);
  self->indices = g_new (guint16, MAX (n_indices, 1));
  if (n_indices > 0)
    memcpy (self->indices, indices, sizeof (guint16) * n_indices);
  self->n_indices = n_indices;
  self->skirt_skip_count = skirt_skip_count;
}

/**
 * terrain_atlas_geometry_check:
 * @self: a #TerrainAtlasGeometry
 * @section: (nullable): section name for the findings, e.g. "TOC 0 stub 5"
 * @offset: byte offset of the chunk in its file, or -1
 * @record: record (stub) index for the findings, or -1
 *
 * Checks the chunk's consistency: indices refer to existing vertices and
 * make whole triangles, the skirt skip count fits, the bounds hold every
 * vertex, and the collision block (§3, "Collision data") has a nonzero
 * depth, one bin offset per leaf bin, every bin list inside the buffer and
 * ended by 0xFFFF, every entry selecting a whole triangle of the index
 * array, and a tree whose nodes contain their children and whose leaves
 * contain their triangles' heights.
 *
 * Returns: (transfer full) (element-type TerrainIssue): the findings; errors
 *   for what would make a renderer or collision query read out of bounds,
 *   warnings for the rest
 */
GPtrArray *
terrain_atlas_geometry_check (TerrainAtlasGeometry *self,
                              const char           *section,
                              gint64                offset,
                              gint64                record)
{
  TerrainIssueCollector issues;
  TerrainAtlasBox vb;
  g_autofree guint *ends = NULL;
  guint64 budget = COLLISION_CHECK_BUDGET;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (self), NULL);

  if (section == NULL)
    section = "geometry chunk";
  terrain_issue_collector_init (&issues, 0);

  for (guint i = 0; i < self->n_indices; i++)
    if (self->indices[i] >= self->n_vertices)
      terrain_issue_collector_add (&issues, "index-range", TERRAIN_SEVERITY_ERROR, section, offset,
                                record, "index %u is %u, but the chunk has %u vertices",
                                i, self->indices[i], self->n_vertices);

  if (self->n_indices % 3 != 0)
    terrain_issue_collector_add (&issues, "index-count", TERRAIN_SEVERITY_WARNING, section, offset,
                              record, "%u indices do not make whole triangles", self->n_indices);

  if (self->skirt_skip_count > self->n_indices)
    terrain_issue_collector_add (&issues, "skirt", TERRAIN_SEVERITY_ERROR, section, offset, record,
                              "skirt skip count %u exceeds the index count %u",
                              self->skirt_skip_count, self->n_indices);

  if (terrain_atlas_geometry_compute_bounds (self, &vb) &&
      !terrain_atlas_box_contains (&self->bounds, &vb))
    terrain_issue_collector_add (&issues, "bounds", TERRAIN_SEVERITY_WARNING, section, offset, record,
                              "chunk bounds (%g, %g, %g)-(%g, %g, %g) do not contain every "
                              "vertex (%g, %g, %g)-(%g, %g, %g)",
                              self->bounds.min[0], self->bounds.min[1], self->bounds.min[2],
                              self->bounds.max[0], self->bounds.max[1], self->bounds.max[2],
                              vb.min[0], vb.min[1], vb.min[2], vb.max[0], vb.max[1], vb.max[2]);

  if (self->has_collision)
    {
      guint64 grid_cells, leaf_base;

      if (self->collision_depth == 0)
        {
          terrain_issue_collector_add (&issues, "collision-depth", TERRAIN_SEVERITY_ERROR, section,
                                    offset, record,
                                    "collision is present with a tree depth of 0: the bin "
                                    "grid is undefined");
          return terrain_issue_collector_finish (&issues);
        }

      grid_cells = G_GUINT64_CONSTANT (1) << (2 * (self->collision_depth - 1));
      leaf_base = terrain_quadtree_node_count (self->collision_depth - 1);

      if (self->n_collision_offsets != grid_cells)
        terrain_issue_collector_add (&issues, "collision-bins", TERRAIN_SEVERITY_WARNING, section,
                                  offset, record,
                                  "%u collision bin offsets for a depth-%u tree, which has %"
                                  G_GUINT64_FORMAT " leaf bins",
                                  self->n_collision_offsets, self->collision_depth, grid_cells);

      /* Each buffer entry is checked once, whatever bins share it; lists
       * may share tails, so the per-bin height check has a budget. */
      for (guint k = 0; k < self->n_collision_indices; k++)
        {
          guint16 entry = self->collision_indices[k];

          if (entry == TERRAIN_ATLAS_COLLISION_END)
            continue;
          if ((guint) entry + 2 >= self->n_indices)
            terrain_issue_collector_add (&issues, "collision-entry", TERRAIN_SEVERITY_ERROR,
                                      section, offset, record,
                                      "collision index buffer entry %u: triangle offset %u runs "
                                      "past the %u indices", k, entry, self->n_indices);
          else if (entry % 3 != 0)
            terrain_issue_collector_add (&issues, "collision-align", TERRAIN_SEVERITY_WARNING,
                                      section, offset, record,
                                      "collision index buffer entry %u: triangle offset %u is "
                                      "not a multiple of 3", k, entry);
        }

      ends = g_new (guint, (gsize) self->n_collision_indices + 1);
      ends[self->n_collision_indices] = self->n_collision_indices;
      for (guint k = self->n_collision_indices; k-- > 0;)
        ends[k] = self->collision_indices[k] == TERRAIN_ATLAS_COLLISION_END ? k : ends[k + 1];

      for (guint b = 0; b < self->n_collision_offsets; b++)
        {
          guint start = self->collision_offsets[b];
          gfloat lo, hi;

          if (start >= self->n_collision_indices)
            {
              terrain_issue_collector_add (&issues, "collision-offset", TERRAIN_SEVERITY_ERROR,
                                        section, offset, record,
                                        "collision bin %u starts at entry %u, beyond the %u "
                                        "entries of the index buffer",
                                        b, start, self->n_collision_indices);
              continue;
            }
          if (ends[start] == self->n_collision_indices)
            terrain_issue_collector_add (&issues, "collision-end", TERRAIN_SEVERITY_ERROR, section,
                                      offset, record,
                                      "collision bin %u (from entry %u) is not ended by 0xFFFF "
                                      "before the end of the index buffer", b, start);
          if (b >= grid_cells)
            continue;

          lo = self->collision_tree[2 * (leaf_base + b)];
          hi = self->collision_tree[2 * (leaf_base + b) + 1];
          for (guint k = start; k < ends[start] && budget > 0; k++, budget--)
            {
              guint16 entry = self->collision_indices[k];

              if ((guint) entry + 2 >= self->n_indices)
                continue;
              for (guint t = 0; t < 3; t++)
                {
                  guint16 vi = self->indices[entry + t];
                  gfloat z;

                  if (vi >= self->n_vertices)
                    continue;
                  z = self->vertices[vi].point[2];
                  if (z < lo || z > hi)
                    {
                      terrain_issue_collector_add (&issues, "collision-z", TERRAIN_SEVERITY_WARNING,
                                                section, offset, record,
                                                "collision bin %u: vertex %u of triangle %u "
                                                "has Z %g, outside the bin's range %g to %g",
                                                b, vi, entry, z, lo, hi);
                      break;
                    }
                }
            }
        }

      /* Inner nodes contain their children; TGEA marks nothing unused. */
      for (guint64 node = 0; node < leaf_base; node++)
        for (guint k = 0; k < 4; k++)
          {
            guint64 child = terrain_quadtree_child (node, k);
            gfloat plo = self->collision_tree[2 * node], phi = self->collision_tree[2 * node + 1];
            gfloat clo = self->collision_tree[2 * child], chi = self->collision_tree[2 * child + 1];

            if (clo <= chi && (clo < plo || chi > phi))
              terrain_issue_collector_add (&issues, "collision-tree", TERRAIN_SEVERITY_WARNING,
                                        section, offset, record,
                                        "collision node %" G_GUINT64_FORMAT " (Z %g to %g) does "
                                        "not contain its child %" G_GUINT64_FORMAT
                                        " (Z %g to %g)", node, plo, phi, child, clo, chi);
          }
    }

  return terrain_issue_collector_finish (&issues);
}
