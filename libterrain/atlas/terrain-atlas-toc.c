/* terrain-atlas-toc.c: one table of contents of an Atlas file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-atlas-toc.h"
#include "terrain-atlas-private.h"
#include "terrain-atlas-stub.h"
#include "terrain-quadtree.h"
#include "core/terrain-error.h"

/* atlas-chu-tqt.md §1a-§1c: stub sizes. */
#define STUB_BASE_SIZE        12   /* offset, length, generation */
#define GEOM_STUB_SIZE_OLD    20   /* + pos.x, pos.y (version < 101) */
#define GEOM_STUB_SIZE        37   /* + Box3F, sentinel 0xD0 */

struct _TerrainAtlasToc
{
  GObject parent_instance;

  TerrainAtlasTocKind kind;
  guint32 goal_batch_size;
  guint32 tree_depth;
  guint32 version;
  guint name_width;

  TerrainAtlasStubData *stubs;
  guint n_stubs;

  gint64 file_offset;   /* of the tag length byte, or -1 */
  gpointer owner;       /* the TerrainAtlasFile, not a reference */
  guint owner_index;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TerrainAtlasToc, terrain_atlas_toc, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

/* Implemented by TerrainAtlasFile: a TOC edit marks its file modified. */
void terrain_atlas_file_toc_changed (gpointer file);

static GType
terrain_atlas_toc_get_item_type (GListModel *model)
{
  return TERRAIN_TYPE_ATLAS_STUB;
}

static guint
terrain_atlas_toc_get_n_items (GListModel *model)
{
  return TERRAIN_ATLAS_TOC (model)->n_stubs;
}

static gpointer
terrain_atlas_toc_get_item (GListModel *model,
                            guint       position)
{
  TerrainAtlasToc *self = TERRAIN_ATLAS_TOC (model);

  if (position >= self->n_stubs)
    return NULL;
  return terrain_atlas_stub_new (self, position);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = terrain_atlas_toc_get_item_type;
  iface->get_n_items = terrain_atlas_toc_get_n_items;
  iface->get_item = terrain_atlas_toc_get_item;
}

static void
terrain_atlas_toc_finalize (GObject *object)
{
  TerrainAtlasToc *self = (TerrainAtlasToc *) object;

  for (guint i = 0; i < self->n_stubs; i++)
    {
      g_free (self->stubs[i].name);
      g_clear_pointer (&self->stubs[i].frame, g_bytes_unref);
    }
  g_free (self->stubs);

  G_OBJECT_CLASS (terrain_atlas_toc_parent_class)->finalize (object);
}

static void
terrain_atlas_toc_class_init (TerrainAtlasTocClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = terrain_atlas_toc_finalize;
}

static void
terrain_atlas_toc_init (TerrainAtlasToc *self)
{
  self->file_offset = -1;
  self->name_width = ATLAS_NAME_WIDTH_SHORT;
  self->goal_batch_size = TERRAIN_ATLAS_DEFAULT_GOAL_BATCH_SIZE;
}

/**
 * terrain_atlas_toc_new:
 * @kind: the kind of TOC
 * @version: the resource version (csmVersion), e.g. %TERRAIN_ATLAS_VERSION
 * @tree_depth: quadtree levels (at most 15); 0 for a Config TOC
 * @n_stubs: the number of stubs; for a complete quadtree
 *   [func@Terrain.quadtree_node_count] of @tree_depth
 *
 * Creates a TOC with empty stubs (no chunk, generation 0, zero bounds, empty
 * names), to be added to a new file with [method@Terrain.AtlasFile.add_toc]
 * and filled with [method@Terrain.AtlasFile.set_geometry] and its siblings.
 * Geometry TOCs start with mGoalBatchSize
 * %TERRAIN_ATLAS_DEFAULT_GOAL_BATCH_SIZE, Config TOCs with 8-byte names.
 *
 * Returns: (transfer full): a new #TerrainAtlasToc
 */
TerrainAtlasToc *
terrain_atlas_toc_new (TerrainAtlasTocKind kind,
                       guint32             version,
                       guint32             tree_depth,
                       guint               n_stubs)
{
  TerrainAtlasToc *self;

  g_return_val_if_fail (kind <= TERRAIN_ATLAS_TOC_CONFIG, NULL);
  g_return_val_if_fail (tree_depth <= ATLAS_MAX_TREE_DEPTH, NULL);

  self = g_object_new (TERRAIN_TYPE_ATLAS_TOC, NULL);
  self->kind = kind;
  self->version = version;
  self->tree_depth = tree_depth;
  self->n_stubs = n_stubs;
  self->stubs = g_new0 (TerrainAtlasStubData, MAX (n_stubs, 1));
  if (kind == TERRAIN_ATLAS_TOC_CONFIG)
    for (guint i = 0; i < n_stubs; i++)
      self->stubs[i].name = g_malloc0 (self->name_width);

  return self;
}

/**
 * terrain_atlas_toc_kind_to_tag:
 * @kind: a #TerrainAtlasTocKind
 *
 * Gets the tag that names a kind of TOC in a file.
 *
 * Returns: the kind tag as serialised: "Geom", "Tex" or "Config"
 */
const char *
terrain_atlas_toc_kind_to_tag (TerrainAtlasTocKind kind)
{
  switch (kind)
    {
    case TERRAIN_ATLAS_TOC_GEOMETRY:
      return "Geom";
    case TERRAIN_ATLAS_TOC_TEXTURE:
      return "Tex";
    case TERRAIN_ATLAS_TOC_CONFIG:
      return "Config";
    default:
      g_return_val_if_reached (NULL);
    }
}

gsize
terrain_atlas_toc_get_stub_size (TerrainAtlasToc *self)
{
  switch (self->kind)
    {
    case TERRAIN_ATLAS_TOC_GEOMETRY:
      return self->version < 101 ? GEOM_STUB_SIZE_OLD : GEOM_STUB_SIZE;
    case TERRAIN_ATLAS_TOC_TEXTURE:
      return STUB_BASE_SIZE;
    case TERRAIN_ATLAS_TOC_CONFIG:
    default:
      return STUB_BASE_SIZE + self->name_width;
    }
}

static gsize
header_size (TerrainAtlasToc *self)
{
  gsize size = 1 + strlen (terrain_atlas_toc_kind_to_tag (self->kind)) + 12;

  if (self->kind == TERRAIN_ATLAS_TOC_GEOMETRY)
    size += 4;
  return size;
}

gsize
terrain_atlas_toc_get_serialized_size (TerrainAtlasToc *self)
{
  return header_size (self) + (gsize) self->n_stubs * terrain_atlas_toc_get_stub_size (self);
}

/**
 * terrain_atlas_toc_get_size:
 * @self: a #TerrainAtlasToc
 *
 * Gets the TOC's serialised size in bytes.
 *
 * Returns: the TOC's serialised size in bytes: kind tag, prefix, common
 *   body and every stub (§1)
 */
gsize
terrain_atlas_toc_get_size (TerrainAtlasToc *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TOC (self), 0);

  return terrain_atlas_toc_get_serialized_size (self);
}

TerrainAtlasStubData *
terrain_atlas_toc_get_stub_data (TerrainAtlasToc *self,
                                 guint            index)
{
  g_assert (index < self->n_stubs);
  return &self->stubs[index];
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

/* Serialises the TOC (§1). @spans, when given, holds an offset and a length
 * per stub that replace the model's (for writing a fresh layout). */
void
terrain_atlas_toc_serialize (TerrainAtlasToc *self,
                             TerrainWriter   *writer,
                             const guint32   *spans)
{
  const char *tag = terrain_atlas_toc_kind_to_tag (self->kind);

  terrain_writer_put_u8 (writer, (guint8) strlen (tag));
  terrain_writer_put_bytes (writer, (const guint8 *) tag, strlen (tag));
  if (self->kind == TERRAIN_ATLAS_TOC_GEOMETRY)
    terrain_writer_put_u32 (writer, self->goal_batch_size);
  terrain_writer_put_u32 (writer, self->tree_depth);
  terrain_writer_put_u32 (writer, self->n_stubs);
  terrain_writer_put_u32 (writer, self->version);

  for (guint i = 0; i < self->n_stubs; i++)
    {
      const TerrainAtlasStubData *stub = &self->stubs[i];

      terrain_writer_put_u32 (writer, spans != NULL ? spans[2 * i] : stub->offset);
      terrain_writer_put_u32 (writer, spans != NULL ? spans[2 * i + 1] : stub->length);
      terrain_writer_put_u32 (writer, stub->generation);

      switch (self->kind)
        {
        case TERRAIN_ATLAS_TOC_GEOMETRY:
          if (self->version < 101)
            {
              terrain_writer_put_f32 (writer, stub->position[0]);
              terrain_writer_put_f32 (writer, stub->position[1]);
            }
          else
            {
              write_box (writer, &stub->bounds);
              terrain_writer_put_u8 (writer, ATLAS_STUB_SENTINEL);
            }
          break;
        case TERRAIN_ATLAS_TOC_TEXTURE:
          break;
        case TERRAIN_ATLAS_TOC_CONFIG:
        default:
          terrain_writer_put_bytes (writer, stub->name, self->name_width);
          break;
        }
    }
}

static gboolean
read_toc (TerrainAtlasToc      *self,
          TerrainReader        *reader,
          guint                 index,
          const TerrainLimits  *limits,
          GError              **error)
{
  g_autofree char *section = NULL;
  const guint8 *tag;
  guint8 tag_length;
  goffset at;
  gsize stub_size;
  guint32 n_stubs;

  section = g_strdup_printf ("Atlas TOC %u", index);
  reader->section = section;

  at = terrain_reader_abs_offset (reader);
  if (!terrain_reader_read_u8 (reader, &tag_length, error) ||
      !terrain_reader_read_bytes (reader, tag_length, &tag, error))
    {
      g_prefix_error (error, "kind tag: ");
      return FALSE;
    }
  if (!terrain_atlas_toc_kind_from_tag (tag, tag_length, &self->kind))
    {
      g_autofree char *raw = g_strndup ((const char *) tag, tag_length);
      g_autofree char *escaped = g_strescape (raw, NULL);

      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                   "%s: kind tag \"%s\" (%u bytes at byte offset %" G_GOFFSET_FORMAT
                   ") is not Geom, Tex or Config",
                   section, escaped, tag_length, at);
      return FALSE;
    }

  g_free (section);
  section = g_strdup_printf ("Atlas TOC %u (%s)", index,
                             terrain_atlas_toc_kind_to_tag (self->kind));
  reader->section = section;

  if (self->kind == TERRAIN_ATLAS_TOC_GEOMETRY &&
      !terrain_reader_read_u32 (reader, &self->goal_batch_size, error))
    {
      g_prefix_error (error, "mGoalBatchSize: ");
      return FALSE;
    }

  at = terrain_reader_abs_offset (reader);
  if (!terrain_reader_read_u32 (reader, &self->tree_depth, error))
    {
      g_prefix_error (error, "treeDepth: ");
      return FALSE;
    }
  if (self->tree_depth > ATLAS_MAX_TREE_DEPTH)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s: treeDepth %u at byte offset %" G_GOFFSET_FORMAT " exceeds %d levels "
                   "(TGEA refuses deeper trees)",
                   section, self->tree_depth, at, ATLAS_MAX_TREE_DEPTH);
      return FALSE;
    }

  at = terrain_reader_abs_offset (reader);
  if (!terrain_reader_read_u32 (reader, &n_stubs, error) ||
      !terrain_reader_read_u32 (reader, &self->version, error))
    {
      g_prefix_error (error, "stubCount and csmVersion: ");
      return FALSE;
    }

  stub_size = terrain_atlas_toc_get_stub_size (self);
  if (!terrain_limits_check_count (limits, n_stubs, limits->max_tiles, "stub",
                                   section, at, error))
    return FALSE;
  if ((guint64) n_stubs * stub_size > terrain_reader_remaining (reader))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "%s: stubCount %u at byte offset %" G_GOFFSET_FORMAT " needs %" G_GUINT64_FORMAT
                   " bytes of %" G_GSIZE_FORMAT "-byte version %u stubs, only %" G_GSIZE_FORMAT
                   " remain",
                   section, n_stubs, at, (guint64) n_stubs * stub_size, stub_size,
                   self->version, terrain_reader_remaining (reader));
      return FALSE;
    }
  if (!terrain_limits_check_alloc (limits, n_stubs, sizeof (TerrainAtlasStubData),
                                   "stub table", section, at, error))
    return FALSE;

  self->stubs = g_new0 (TerrainAtlasStubData, MAX (n_stubs, 1));
  self->n_stubs = n_stubs;
  for (guint i = 0; i < self->n_stubs; i++)
    {
      TerrainAtlasStubData *stub = &self->stubs[i];

      /* The span check above makes these reads infallible. */
      terrain_reader_read_u32 (reader, &stub->offset, NULL);
      terrain_reader_read_u32 (reader, &stub->length, NULL);
      terrain_reader_read_u32 (reader, &stub->generation, NULL);

      switch (self->kind)
        {
        case TERRAIN_ATLAS_TOC_GEOMETRY:
          if (self->version < 101)
            {
              terrain_reader_read_f32 (reader, &stub->position[0], NULL);
              terrain_reader_read_f32 (reader, &stub->position[1], NULL);
            }
          else
            {
              guint8 sentinel = 0;

              for (guint k = 0; k < 3; k++)
                terrain_reader_read_f32 (reader, &stub->bounds.min[k], NULL);
              for (guint k = 0; k < 3; k++)
                terrain_reader_read_f32 (reader, &stub->bounds.max[k], NULL);
              terrain_reader_read_u8 (reader, &sentinel, NULL);
              if (sentinel != ATLAS_STUB_SENTINEL)
                {
                  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                               "%s: stub %u: sentinel 0x%02X at byte offset %" G_GOFFSET_FORMAT
                               " must be 0xD0",
                               section, i, sentinel, terrain_reader_abs_offset (reader) - 1);
                  return FALSE;
                }
            }
          break;
        case TERRAIN_ATLAS_TOC_TEXTURE:
          break;
        case TERRAIN_ATLAS_TOC_CONFIG:
        default:
          stub->name = g_malloc (self->name_width);
          terrain_reader_copy_bytes (reader, self->name_width, stub->name, NULL);
          break;
        }
    }

  return TRUE;
}

/* Reads one TOC at the reader's position (§1). @name_width is the Config
 * name width to assume; the file decides it by trying both. */
TerrainAtlasToc *
terrain_atlas_toc_read (TerrainReader        *reader,
                        guint                 index,
                        guint                 name_width,
                        const TerrainLimits  *limits,
                        GError              **error)
{
  g_autoptr(TerrainAtlasToc) self = g_object_new (TERRAIN_TYPE_ATLAS_TOC, NULL);
  const char *saved = reader->section;
  gboolean ok;

  self->file_offset = terrain_reader_abs_offset (reader);
  self->name_width = name_width;
  ok = read_toc (self, reader, index, limits, error);
  reader->section = saved;

  return ok ? g_steal_pointer (&self) : NULL;
}

void
terrain_atlas_toc_set_file_offset (TerrainAtlasToc *self,
                                   gsize            offset)
{
  self->file_offset = (gint64) offset;
}

void
terrain_atlas_toc_set_owner (TerrainAtlasToc *self,
                             gpointer         owner,
                             guint            index)
{
  self->owner = owner;
  self->owner_index = index;
}

gpointer
terrain_atlas_toc_get_owner (TerrainAtlasToc *self)
{
  return self->owner;
}

/* A stub's values changed: tell list views and the owning file. */
void
terrain_atlas_toc_stub_changed (TerrainAtlasToc *self,
                                guint            index)
{
  if (self->owner != NULL)
    terrain_atlas_file_toc_changed (self->owner);
  g_list_model_items_changed (G_LIST_MODEL (self), index, 1, 1);
}

/**
 * terrain_atlas_toc_get_kind:
 * @self: a #TerrainAtlasToc
 *
 * Gets the TOC's kind.
 *
 * Returns: the TOC's kind
 */
TerrainAtlasTocKind
terrain_atlas_toc_get_kind (TerrainAtlasToc *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TOC (self), TERRAIN_ATLAS_TOC_GEOMETRY);

  return self->kind;
}

/**
 * terrain_atlas_toc_get_tag:
 * @self: a #TerrainAtlasToc
 *
 * Gets the TOC's kind tag.
 *
 * Returns: the kind tag: "Geom", "Tex" or "Config"
 */
const char *
terrain_atlas_toc_get_tag (TerrainAtlasToc *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TOC (self), NULL);

  return terrain_atlas_toc_kind_to_tag (self->kind);
}

/**
 * terrain_atlas_toc_get_version:
 * @self: a #TerrainAtlasToc
 *
 * Gets csmVersion, the resource version of the TOC.
 *
 * Returns: csmVersion, the resource version that selects the stub and chunk
 *   layouts (§7)
 */
guint32
terrain_atlas_toc_get_version (TerrainAtlasToc *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TOC (self), 0);

  return self->version;
}

/**
 * terrain_atlas_toc_get_tree_depth:
 * @self: a #TerrainAtlasToc
 *
 * Gets treeDepth, the number of quadtree levels.
 *
 * Returns: treeDepth: levels 0 to treeDepth - 1 (0 for the observed Config
 *   TOC)
 */
guint32
terrain_atlas_toc_get_tree_depth (TerrainAtlasToc *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TOC (self), 0);

  return self->tree_depth;
}

/**
 * terrain_atlas_toc_is_quadtree:
 * @self: a #TerrainAtlasToc
 *
 * Checks whether the TOC's stubs are quadtree nodes.
 *
 * Returns: %TRUE for geometry and texture TOCs, whose stubs are quadtree
 *   nodes; %FALSE for Config TOCs, which are named lists
 */
gboolean
terrain_atlas_toc_is_quadtree (TerrainAtlasToc *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TOC (self), FALSE);

  return self->kind != TERRAIN_ATLAS_TOC_CONFIG;
}

/**
 * terrain_atlas_toc_get_goal_batch_size:
 * @self: a #TerrainAtlasToc
 *
 * Gets mGoalBatchSize of a geometry TOC.
 *
 * Returns: mGoalBatchSize of a geometry TOC (the decimation target of
 *   TGEA's generator), 0 for other kinds
 */
guint32
terrain_atlas_toc_get_goal_batch_size (TerrainAtlasToc *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TOC (self), 0);

  return self->kind == TERRAIN_ATLAS_TOC_GEOMETRY ? self->goal_batch_size : 0;
}

/**
 * terrain_atlas_toc_set_goal_batch_size:
 * @self: a geometry #TerrainAtlasToc
 * @goal_batch_size: the new mGoalBatchSize
 *
 * Sets mGoalBatchSize: an importer chooses it (CHU has none, §9b).
 */
void
terrain_atlas_toc_set_goal_batch_size (TerrainAtlasToc *self,
                                       guint32          goal_batch_size)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_TOC (self));
  g_return_if_fail (self->kind == TERRAIN_ATLAS_TOC_GEOMETRY);

  if (self->goal_batch_size == goal_batch_size)
    return;
  self->goal_batch_size = goal_batch_size;
  if (self->owner != NULL)
    terrain_atlas_file_toc_changed (self->owner);
}

/**
 * terrain_atlas_toc_get_name_width:
 * @self: a #TerrainAtlasToc
 *
 * Returns the width of a Config stub's name field: 8 bytes in the observed
 * files, 128 in the TSE-era source (§1c, field-notes.md). The reader detects
 * it and the writer keeps it.
 *
 * Returns: 8 or 128 for Config TOCs, 0 for other kinds
 */
guint
terrain_atlas_toc_get_name_width (TerrainAtlasToc *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TOC (self), 0);

  return self->kind == TERRAIN_ATLAS_TOC_CONFIG ? self->name_width : 0;
}

/**
 * terrain_atlas_toc_set_name_width:
 * @self: a Config #TerrainAtlasToc not yet added to a file
 * @width: 8 or 128
 *
 * Chooses the name width a new Config TOC is written with. Names are cut or
 * padded with NULs to the new width.
 *
 * Returns: %TRUE, or %FALSE if the TOC already belongs to a file (its width
 *   fixes the layout) or @width is neither 8 nor 128
 */
gboolean
terrain_atlas_toc_set_name_width (TerrainAtlasToc *self,
                                  guint            width)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TOC (self), FALSE);
  g_return_val_if_fail (self->kind == TERRAIN_ATLAS_TOC_CONFIG, FALSE);

  if (self->owner != NULL ||
      (width != ATLAS_NAME_WIDTH_SHORT && width != ATLAS_NAME_WIDTH_LONG))
    return FALSE;

  for (guint i = 0; i < self->n_stubs; i++)
    {
      guint8 *name = g_malloc0 (width);

      memcpy (name, self->stubs[i].name, MIN (width, self->name_width));
      g_free (self->stubs[i].name);
      self->stubs[i].name = name;
    }
  self->name_width = width;
  return TRUE;
}

/**
 * terrain_atlas_toc_get_n_stubs:
 * @self: a #TerrainAtlasToc
 *
 * Gets stubCount, the number of stubs in the TOC.
 *
 * Returns: stubCount
 */
guint
terrain_atlas_toc_get_n_stubs (TerrainAtlasToc *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TOC (self), 0);

  return self->n_stubs;
}

/**
 * terrain_atlas_toc_get_stub:
 * @self: a #TerrainAtlasToc
 * @index: a stub index, below [method@Terrain.AtlasToc.get_n_stubs]
 *
 * Returns a view of one stub (the same object the TOC's #GListModel hands
 * out). It reads the stub's current values, so it stays valid across edits.
 *
 * Returns: (transfer full): the stub
 */
TerrainAtlasStub *
terrain_atlas_toc_get_stub (TerrainAtlasToc *self,
                            guint            index)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TOC (self), NULL);
  g_return_val_if_fail (index < self->n_stubs, NULL);

  return terrain_atlas_stub_new (self, index);
}

/**
 * terrain_atlas_toc_find_stub:
 * @self: a quadtree #TerrainAtlasToc
 * @level: tree level, below the tree depth
 * @x: X coordinate at @level
 * @y: Y coordinate at @level
 *
 * Finds the stub of a quadtree node: nodeCount(level) + (x << level) + y
 * (§1, §6).
 *
 * Returns: the stub index, or -1 if the TOC has no such node
 */
gint64
terrain_atlas_toc_find_stub (TerrainAtlasToc *self,
                             guint            level,
                             guint32          x,
                             guint32          y)
{
  guint64 id;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_TOC (self), -1);

  if (self->kind == TERRAIN_ATLAS_TOC_CONFIG || level >= self->tree_depth ||
      (guint64) x >= (G_GUINT64_CONSTANT (1) << level) ||
      (guint64) y >= (G_GUINT64_CONSTANT (1) << level))
    return -1;

  id = terrain_quadtree_node_id (level, x, y);
  return id < self->n_stubs ? (gint64) id : -1;
}

/**
 * terrain_atlas_toc_get_stub_node:
 * @self: a #TerrainAtlasToc
 * @index: a stub index
 * @level: (out) (optional): the node's level
 * @x: (out) (optional): the node's X coordinate
 * @y: (out) (optional): the node's Y coordinate
 *
 * Gives the quadtree node of a stub, the inverse of
 * [method@Terrain.AtlasToc.find_stub].
 *
 * Returns: %TRUE, or %FALSE for Config TOCs and for stubs beyond the
 *   complete tree of the TOC's depth
 */
gboolean
terrain_atlas_toc_get_stub_node (TerrainAtlasToc *self,
                                 guint            index,
                                 guint           *level,
                                 guint32         *x,
                                 guint32         *y)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TOC (self), FALSE);

  if (self->kind == TERRAIN_ATLAS_TOC_CONFIG || index >= self->n_stubs ||
      index >= terrain_quadtree_node_count (self->tree_depth))
    return FALSE;

  return terrain_quadtree_node_position (index, level, x, y);
}

/**
 * terrain_atlas_toc_set_stub_name:
 * @self: a Config #TerrainAtlasToc
 * @index: a stub index
 * @name: the new name, at most as long as the name width
 *
 * Sets a Config stub's name; the rest of the fixed-width field is filled
 * with NULs. Only the stub's name bytes change when the file is written.
 *
 * Returns: %TRUE, or %FALSE if @name is longer than the name width
 */
gboolean
terrain_atlas_toc_set_stub_name (TerrainAtlasToc *self,
                                 guint            index,
                                 const char      *name)
{
  g_autofree guint8 *field = NULL;
  gsize length;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_TOC (self), FALSE);
  g_return_val_if_fail (self->kind == TERRAIN_ATLAS_TOC_CONFIG, FALSE);
  g_return_val_if_fail (index < self->n_stubs, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  length = strlen (name);
  if (length > self->name_width)
    return FALSE;

  field = g_malloc0 (self->name_width);
  memcpy (field, name, length);
  if (memcmp (field, self->stubs[index].name, self->name_width) == 0)
    return TRUE;

  g_free (self->stubs[index].name);
  self->stubs[index].name = g_steal_pointer (&field);
  terrain_atlas_toc_stub_changed (self, index);
  return TRUE;
}

/**
 * terrain_atlas_toc_set_stub_legacy_position:
 * @self: a geometry #TerrainAtlasToc of version below 101
 * @index: a stub index
 * @x: pos.x
 * @y: pos.y
 *
 * Sets the two floats pre-101 geometry stubs hold instead of bounds (§1a).
 * TGEA reads and ignores them.
 */
void
terrain_atlas_toc_set_stub_legacy_position (TerrainAtlasToc *self,
                                            guint            index,
                                            gfloat           x,
                                            gfloat           y)
{
  TerrainAtlasStubData *stub;

  g_return_if_fail (TERRAIN_IS_ATLAS_TOC (self));
  g_return_if_fail (self->kind == TERRAIN_ATLAS_TOC_GEOMETRY);
  g_return_if_fail (index < self->n_stubs);

  stub = &self->stubs[index];
  if (memcmp (&stub->position[0], &x, sizeof x) == 0 &&
      memcmp (&stub->position[1], &y, sizeof y) == 0)
    return;
  stub->position[0] = x;
  stub->position[1] = y;
  terrain_atlas_toc_stub_changed (self, index);
}

/**
 * terrain_atlas_toc_get_file_offset:
 * @self: a #TerrainAtlasToc
 *
 * Gets the byte offset of the TOC in the file it was read from.
 *
 * Returns: the byte offset of the TOC's tag length in the file it was read
 *   from, or -1 for a TOC made in memory
 */
gint64
terrain_atlas_toc_get_file_offset (TerrainAtlasToc *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TOC (self), -1);

  return self->file_offset;
}

/**
 * terrain_atlas_toc_get_stub_file_offset:
 * @self: a #TerrainAtlasToc
 * @index: a stub index
 *
 * Gets the byte offset of a stub record in the file the TOC was read from.
 *
 * Returns: the byte offset of a stub record in the file the TOC was read
 *   from (the stub's own position is not stored, §1), or -1 for a TOC made
 *   in memory
 */
gint64
terrain_atlas_toc_get_stub_file_offset (TerrainAtlasToc *self,
                                        guint            index)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TOC (self), -1);
  g_return_val_if_fail (index < self->n_stubs, -1);

  if (self->file_offset < 0)
    return -1;
  return self->file_offset + (gint64) header_size (self) +
         (gint64) index * (gint64) terrain_atlas_toc_get_stub_size (self);
}
