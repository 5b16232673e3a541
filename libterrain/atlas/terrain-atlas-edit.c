/* terrain-atlas-edit.c: undoable edits of an Atlas file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-atlas-edit.h"
#include "terrain-atlas-file-private.h"

/**
 * TerrainAtlasEdit:
 *
 * One undoable edit of a [class@Terrain.AtlasFile]: a texture tile
 * replaced ([method@Terrain.AtlasFile.replace_texture]) or the entries of a
 * config stub replaced ([method@Terrain.AtlasFile.replace_config]). Run edits
 * through a [class@Terrain.CommandStack] to undo and redo them.
 *
 * Applying appends a new chunk frame at the end of the file and points the
 * stub at it with one more generation, the TGEA way. Undo drops the
 * appended frame and puts back the stub's offset, length, generation and
 * frame, so the file writes exactly the bytes it wrote before the edit.
 * Redo applies the edit again and writes the same bytes as the first time.
 */

struct _TerrainAtlasEdit
{
  TerrainCommand parent_instance;

  TerrainAtlasEditKind kind;
  guint toc;
  guint stub;
  GObject *chunk;               /* TerrainAtlasTexture or TerrainAtlasConfig */
  AtlasStubSnapshot *snapshot;
};

G_DEFINE_FINAL_TYPE (TerrainAtlasEdit, terrain_atlas_edit, TERRAIN_TYPE_COMMAND)

static TerrainAtlasFile *
edit_file (TerrainAtlasEdit *self)
{
  return TERRAIN_ATLAS_FILE (terrain_command_get_document (TERRAIN_COMMAND (self)));
}

static gboolean
terrain_atlas_edit_apply (TerrainCommand  *command,
                          GError         **error)
{
  TerrainAtlasEdit *self = TERRAIN_ATLAS_EDIT (command);
  TerrainAtlasFile *file = edit_file (self);
  g_autoptr(AtlasStubSnapshot) snapshot = NULL;
  gboolean ok;

  if (self->toc >= terrain_atlas_file_get_n_tocs (file) ||
      self->stub >= terrain_atlas_toc_get_n_stubs (terrain_atlas_file_get_toc (file, self->toc)))
    return self->kind == TERRAIN_ATLAS_EDIT_REPLACE_TEXTURE
             ? terrain_atlas_file_replace_texture (file, self->toc, self->stub,
                                                   TERRAIN_ATLAS_TEXTURE (self->chunk), error)
             : terrain_atlas_file_replace_config (file, self->toc, self->stub,
                                                  TERRAIN_ATLAS_CONFIG (self->chunk), error);

  snapshot = terrain_atlas_file_snapshot_stub (file, self->toc, self->stub);
  if (self->kind == TERRAIN_ATLAS_EDIT_REPLACE_TEXTURE)
    ok = terrain_atlas_file_replace_texture (file, self->toc, self->stub,
                                             TERRAIN_ATLAS_TEXTURE (self->chunk), error);
  else
    ok = terrain_atlas_file_replace_config (file, self->toc, self->stub,
                                            TERRAIN_ATLAS_CONFIG (self->chunk), error);
  if (!ok)
    return FALSE;

  g_clear_pointer (&self->snapshot, terrain_atlas_stub_snapshot_free);
  self->snapshot = g_steal_pointer (&snapshot);
  return TRUE;
}

static void
terrain_atlas_edit_revert (TerrainCommand *command)
{
  TerrainAtlasEdit *self = TERRAIN_ATLAS_EDIT (command);

  if (self->snapshot != NULL)
    terrain_atlas_file_restore_stub (edit_file (self), self->snapshot);
  g_clear_pointer (&self->snapshot, terrain_atlas_stub_snapshot_free);
}

static void
terrain_atlas_edit_finalize (GObject *object)
{
  TerrainAtlasEdit *self = TERRAIN_ATLAS_EDIT (object);

  g_clear_object (&self->chunk);
  g_clear_pointer (&self->snapshot, terrain_atlas_stub_snapshot_free);

  G_OBJECT_CLASS (terrain_atlas_edit_parent_class)->finalize (object);
}

static void
terrain_atlas_edit_class_init (TerrainAtlasEditClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainCommandClass *command_class = TERRAIN_COMMAND_CLASS (klass);

  object_class->finalize = terrain_atlas_edit_finalize;
  command_class->apply = terrain_atlas_edit_apply;
  command_class->revert = terrain_atlas_edit_revert;
}

static void
terrain_atlas_edit_init (TerrainAtlasEdit *self)
{
}

static TerrainCommand *
terrain_atlas_edit_new (TerrainAtlasFile     *file,
                        TerrainAtlasEditKind  kind,
                        guint                 toc,
                        guint                 stub,
                        GObject              *chunk,
                        const char           *description)
{
  TerrainAtlasEdit *self;

  self = g_object_new (TERRAIN_TYPE_ATLAS_EDIT,
                       "document", file,
                       "description", description,
                       NULL);
  self->kind = kind;
  self->toc = toc;
  self->stub = stub;
  self->chunk = g_object_ref (chunk);
  return TERRAIN_COMMAND (self);
}

/**
 * terrain_atlas_edit_new_replace_texture:
 * @file: a #TerrainAtlasFile
 * @toc: the slot of a texture TOC
 * @stub: a stub index in that TOC
 * @texture: the new texture, e.g. from
 *   [ctor@Terrain.AtlasTexture.new_from_image]
 *
 * Makes an edit that replaces one texture tile with
 * [method@Terrain.AtlasFile.replace_texture]: the new frame is appended at
 * the end of the file and the stub's offset, length and generation change.
 * The slot and index are checked when the edit is applied.
 *
 * Returns: (transfer full): the edit
 */
TerrainCommand *
terrain_atlas_edit_new_replace_texture (TerrainAtlasFile    *file,
                                        guint                toc,
                                        guint                stub,
                                        TerrainAtlasTexture *texture)
{
  g_autofree char *description = NULL;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (file), NULL);
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TEXTURE (texture), NULL);

  description = g_strdup_printf ("replace texture tile %u", stub);
  return terrain_atlas_edit_new (file, TERRAIN_ATLAS_EDIT_REPLACE_TEXTURE, toc, stub,
                                 G_OBJECT (texture), description);
}

/**
 * terrain_atlas_edit_new_replace_config:
 * @file: a #TerrainAtlasFile
 * @toc: the slot of a Config TOC
 * @stub: a stub index in that TOC
 * @config: the edited entries, e.g. from
 *   [method@Terrain.AtlasFile.get_config] after
 *   [method@Terrain.AtlasConfig.set]; the edit keeps a reference and sets
 *   its previousChunk when applied
 *
 * Makes an edit that replaces the entries of one config stub with
 * [method@Terrain.AtlasFile.replace_config]: the new frame is appended at
 * the end of the file and the stub's offset, length and generation change.
 * The slot and index are checked when the edit is applied.
 *
 * Returns: (transfer full): the edit
 */
TerrainCommand *
terrain_atlas_edit_new_replace_config (TerrainAtlasFile   *file,
                                       guint               toc,
                                       guint               stub,
                                       TerrainAtlasConfig *config)
{
  g_autofree char *description = NULL;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (file), NULL);
  g_return_val_if_fail (TERRAIN_IS_ATLAS_CONFIG (config), NULL);

  description = g_strdup_printf ("change config stub %u", stub);
  return terrain_atlas_edit_new (file, TERRAIN_ATLAS_EDIT_REPLACE_CONFIG, toc, stub,
                                 G_OBJECT (config), description);
}

/**
 * terrain_atlas_edit_get_kind:
 * @self: a #TerrainAtlasEdit
 *
 * Gets what the edit does.
 *
 * Returns: the edit's kind
 */
TerrainAtlasEditKind
terrain_atlas_edit_get_kind (TerrainAtlasEdit *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_EDIT (self), TERRAIN_ATLAS_EDIT_REPLACE_TEXTURE);

  return self->kind;
}

/**
 * terrain_atlas_edit_get_toc:
 * @self: a #TerrainAtlasEdit
 *
 * Gets the TOC slot the edit changes.
 *
 * Returns: the TOC slot
 */
guint
terrain_atlas_edit_get_toc (TerrainAtlasEdit *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_EDIT (self), 0);

  return self->toc;
}

/**
 * terrain_atlas_edit_get_stub:
 * @self: a #TerrainAtlasEdit
 *
 * Gets the stub index the edit changes.
 *
 * Returns: the stub index in [method@Terrain.AtlasEdit.get_toc]
 */
guint
terrain_atlas_edit_get_stub (TerrainAtlasEdit *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_EDIT (self), 0);

  return self->stub;
}
