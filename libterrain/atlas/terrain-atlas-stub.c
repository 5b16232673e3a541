/* terrain-atlas-stub.c: one stub (chunk reference) of an Atlas TOC
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-atlas-stub.h"
#include "terrain-atlas-private.h"

/*
 * A stub object is a view: the TOC keeps every stub's values in one array
 * (a large file has hundreds of thousands) and hands out a small object per
 * request that reads them live.
 */
struct _TerrainAtlasStub
{
  GObject parent_instance;

  TerrainAtlasToc *toc;
  guint index;
};

G_DEFINE_FINAL_TYPE (TerrainAtlasStub, terrain_atlas_stub, G_TYPE_OBJECT)

static void
terrain_atlas_stub_dispose (GObject *object)
{
  TerrainAtlasStub *self = (TerrainAtlasStub *) object;

  g_clear_object (&self->toc);

  G_OBJECT_CLASS (terrain_atlas_stub_parent_class)->dispose (object);
}

static void
terrain_atlas_stub_class_init (TerrainAtlasStubClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = terrain_atlas_stub_dispose;
}

static void
terrain_atlas_stub_init (TerrainAtlasStub *self)
{
}

TerrainAtlasStub *
terrain_atlas_stub_new (TerrainAtlasToc *toc,
                        guint            index)
{
  TerrainAtlasStub *self = g_object_new (TERRAIN_TYPE_ATLAS_STUB, NULL);

  self->toc = g_object_ref (toc);
  self->index = index;
  return self;
}

static const TerrainAtlasStubData *
data (TerrainAtlasStub *self)
{
  return terrain_atlas_toc_get_stub_data (self->toc, self->index);
}

/**
 * terrain_atlas_stub_get_toc:
 * @self: a #TerrainAtlasStub
 *
 * Gets the TOC holding the stub.
 *
 * Returns: (transfer none): the TOC holding the stub
 */
TerrainAtlasToc *
terrain_atlas_stub_get_toc (TerrainAtlasStub *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_STUB (self), NULL);

  return self->toc;
}

/**
 * terrain_atlas_stub_get_index:
 * @self: a #TerrainAtlasStub
 *
 * Gets the stub's index in its TOC.
 *
 * Returns: the stub's index in its TOC
 */
guint
terrain_atlas_stub_get_index (TerrainAtlasStub *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_STUB (self), 0);

  return self->index;
}

/**
 * terrain_atlas_stub_get_node:
 * @self: a #TerrainAtlasStub
 * @level: (out) (optional): quadtree level
 * @x: (out) (optional): X coordinate at @level
 * @y: (out) (optional): Y coordinate at @level
 *
 * Gives the quadtree node the stub stands for, derived from its index
 * (§1: positions are not serialised).
 *
 * Returns: %TRUE, or %FALSE for Config stubs and stubs beyond the complete
 *   tree
 */
gboolean
terrain_atlas_stub_get_node (TerrainAtlasStub *self,
                             guint            *level,
                             guint32          *x,
                             guint32          *y)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_STUB (self), FALSE);

  return terrain_atlas_toc_get_stub_node (self->toc, self->index, level, x, y);
}

/**
 * terrain_atlas_stub_has_chunk:
 * @self: a #TerrainAtlasStub
 *
 * Checks whether the stub refers to a chunk.
 *
 * Returns: %TRUE if the stub refers to a chunk; %FALSE for an empty stub
 *   (offset and length 0)
 */
gboolean
terrain_atlas_stub_has_chunk (TerrainAtlasStub *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_STUB (self), FALSE);

  return data (self)->length != 0 || data (self)->frame != NULL;
}

/**
 * terrain_atlas_stub_get_offset:
 * @self: a #TerrainAtlasStub
 *
 * Gets the absolute file offset of the chunk frame.
 *
 * Returns: the absolute file offset of the chunk frame; 0 for an empty stub
 *   and for chunks of a file made in memory, whose layout is decided when it
 *   is written
 */
guint32
terrain_atlas_stub_get_offset (TerrainAtlasStub *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_STUB (self), 0);

  return data (self)->offset;
}

/**
 * terrain_atlas_stub_get_length:
 * @self: a #TerrainAtlasStub
 *
 * Gets the length of the complete chunk frame.
 *
 * Returns: the length of the complete chunk frame: bodySize + 16 (§2)
 */
guint32
terrain_atlas_stub_get_length (TerrainAtlasStub *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_STUB (self), 0);

  return data (self)->length;
}

/**
 * terrain_atlas_stub_get_generation:
 * @self: a #TerrainAtlasStub
 *
 * Gets the stub's modification counter.
 *
 * Returns: the modification counter, incremented by each write of the
 *   stub's chunk
 */
guint32
terrain_atlas_stub_get_generation (TerrainAtlasStub *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_STUB (self), 0);

  return data (self)->generation;
}

/**
 * terrain_atlas_stub_get_bounds:
 * @self: a #TerrainAtlasStub
 * @bounds: (out caller-allocates): the stored mBounds
 *
 * Gets the bounds a geometry stub of version 101 or later stores (§1a).
 * For older versions use the chunk's derived bounds
 * ([method@Terrain.AtlasGeometry.get_bounds]).
 *
 * Returns: %TRUE, or %FALSE when the stub stores no bounds
 */
gboolean
terrain_atlas_stub_get_bounds (TerrainAtlasStub *self,
                               TerrainAtlasBox  *bounds)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_STUB (self), FALSE);
  g_return_val_if_fail (bounds != NULL, FALSE);

  if (terrain_atlas_toc_get_kind (self->toc) != TERRAIN_ATLAS_TOC_GEOMETRY ||
      terrain_atlas_toc_get_version (self->toc) < 101)
    return FALSE;

  *bounds = data (self)->bounds;
  return TRUE;
}

/**
 * terrain_atlas_stub_get_legacy_position:
 * @self: a #TerrainAtlasStub
 * @x: (out) (optional): pos.x
 * @y: (out) (optional): pos.y
 *
 * Gets the two floats a geometry stub before version 101 holds instead of
 * bounds (§1a).
 *
 * Returns: %TRUE, or %FALSE for other stubs
 */
gboolean
terrain_atlas_stub_get_legacy_position (TerrainAtlasStub *self,
                                        gfloat           *x,
                                        gfloat           *y)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_STUB (self), FALSE);

  if (terrain_atlas_toc_get_kind (self->toc) != TERRAIN_ATLAS_TOC_GEOMETRY ||
      terrain_atlas_toc_get_version (self->toc) >= 101)
    return FALSE;

  if (x != NULL)
    *x = data (self)->position[0];
  if (y != NULL)
    *y = data (self)->position[1];
  return TRUE;
}

/**
 * terrain_atlas_stub_dup_name:
 * @self: a #TerrainAtlasStub
 *
 * Returns a Config stub's name: the fixed-width field up to its first NUL.
 *
 * Returns: (transfer full) (nullable): the name, or %NULL for stubs of
 *   other kinds
 */
char *
terrain_atlas_stub_dup_name (TerrainAtlasStub *self)
{
  const guint8 *name;
  guint width;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_STUB (self), NULL);

  if (terrain_atlas_toc_get_kind (self->toc) != TERRAIN_ATLAS_TOC_CONFIG)
    return NULL;

  name = data (self)->name;
  width = terrain_atlas_toc_get_name_width (self->toc);
  return g_strndup ((const char *) name, width);
}

/**
 * terrain_atlas_stub_get_record_offset:
 * @self: a #TerrainAtlasStub
 *
 * Gets the byte offset of the stub record in the file its TOC was read from.
 *
 * Returns: the byte offset of the stub record in the file its TOC was read
 *   from, or -1 for a TOC made in memory
 */
gint64
terrain_atlas_stub_get_record_offset (TerrainAtlasStub *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_STUB (self), -1);

  return terrain_atlas_toc_get_stub_file_offset (self->toc, self->index);
}
