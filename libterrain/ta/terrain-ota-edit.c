/* terrain-ota-edit.c: undoable edits of a TA map description (.ota)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-ota-edit.h"
#include "terrain-ota-file-private.h"
#include "core/terrain-error.h"

/**
 * TerrainOtaEdit:
 *
 * One undoable edit of a [class@Terrain.OtaFile]: a key of a block (the
 * map name, description, planet, wind, tidal strength, gravity, players,
 * a schema's metal and energy) or a start position. It goes through the
 * [class@Terrain.TdfDocument] model, so the saved file differs from its
 * source only in the edited values, and undoing an edit writes the source
 * bytes again.
 *
 * A map description belongs to a map (`NAME.ota` beside `NAME.tnt`), and
 * its edits belong on the map's undo history: [property@Terrain.Command:document]
 * of an OTA edit is %NULL, so that it can be run by the
 * [class@Terrain.CommandStack] of the map, and the description is
 * [method@Terrain.OtaEdit.get_ota]. Undo also restores the description's
 * [property@Terrain.Document:modified] flag.
 *
 * Consecutive edits of the same key (typing a name) or of the same start
 * position (dragging it) merge into one step.
 */

typedef enum
{
  OTA_EDIT_SET_VALUE,
  OTA_EDIT_START_POSITION,
} OtaEditKind;

struct _TerrainOtaEdit
{
  TerrainCommand parent_instance;

  TerrainOtaFile *ota;
  OtaEditKind kind;

  /* OTA_EDIT_SET_VALUE: the block path (NULL: [GlobalHeader]) and key */
  char *block;
  char *key;
  char *value;

  /* OTA_EDIT_START_POSITION */
  guint schema;
  guint player;
  gint x, z;

  /* What revert needs, recorded by apply */
  gboolean was_modified;
  char *old_value;          /* NULL: the key was not there */
  gboolean created_specials;
  gboolean created_special;
  guint special_index;      /* index of the created [specialK] in [specials] */
  char *old_x, *old_z;
  char *report;             /* what the last apply did */
};

G_DEFINE_FINAL_TYPE (TerrainOtaEdit, terrain_ota_edit, TERRAIN_TYPE_COMMAND)

static TerrainTdfSection *
find_block (TerrainOtaEdit *self)
{
  if (self->block == NULL)
    return terrain_ota_file_get_global_header (self->ota);
  return terrain_tdf_document_find_section (TERRAIN_TDF_DOCUMENT (self->ota), self->block);
}

static gboolean
apply_set_value (TerrainOtaEdit  *self,
                 GError         **error)
{
  TerrainTdfSection *section = find_block (self);
  const char *old;

  if (section == NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "OTA: there is no block [%s]", self->block != NULL ? self->block : "GlobalHeader");
      return FALSE;
    }
  old = terrain_tdf_section_get_value (section, self->key);
  g_free (self->old_value);
  self->old_value = g_strdup (old);
  if (!terrain_tdf_document_set_value (TERRAIN_TDF_DOCUMENT (self->ota), section, self->key,
                                       self->value, error))
    return FALSE;
  g_free (self->report);
  if (self->block != NULL)
    self->report = g_strdup_printf ("%s/%s: %s -> %s", self->block, self->key,
                                    self->old_value != NULL ? self->old_value : "(new)",
                                    self->value);
  else
    self->report = g_strdup_printf ("%s: %s -> %s", self->key,
                                    self->old_value != NULL ? self->old_value : "(new)",
                                    self->value);
  return TRUE;
}

static void
restore_key (TerrainTdfDocument *tdf,
             TerrainTdfSection  *section,
             const char         *key,
             const char         *old)
{
  if (old != NULL)
    terrain_tdf_document_set_value (tdf, section, key, old, NULL);
  else
    terrain_tdf_document_remove_key (tdf, section, key);
}

static gboolean
apply_start_position (TerrainOtaEdit  *self,
                      GError         **error)
{
  TerrainTdfSection *schema = terrain_ota_file_get_schema (self->ota, self->schema);
  TerrainTdfSection *specials, *special;
  gint old_x = 0, old_z = 0;
  gboolean existed;

  g_clear_pointer (&self->old_x, g_free);
  g_clear_pointer (&self->old_z, g_free);
  self->created_specials = FALSE;
  self->created_special = FALSE;
  if (schema != NULL)
    {
      specials = terrain_tdf_section_find_section (schema, OTA_SPECIALS);
      special = ota_file_find_start_special (schema, self->player);
      self->created_specials = specials == NULL;
      self->created_special = special == NULL;
      self->special_index = specials != NULL ? terrain_tdf_section_get_n_sections (specials) : 0;
      if (special != NULL)
        {
          self->old_x = g_strdup (terrain_tdf_section_get_value (special, "XPos"));
          self->old_z = g_strdup (terrain_tdf_section_get_value (special, "ZPos"));
        }
    }
  existed = terrain_ota_file_get_start_position (self->ota, self->schema, self->player, &old_x,
                                                 &old_z);
  /* The file's own checks (schema and player in range). */
  if (!terrain_ota_file_set_start_position (self->ota, self->schema, self->player, self->x,
                                            self->z, error))
    return FALSE;
  g_free (self->report);
  if (existed)
    self->report = g_strdup_printf ("Schema %u StartPos%u: %d,%d -> %d,%d", self->schema,
                                    self->player, old_x, old_z, self->x, self->z);
  else
    self->report = g_strdup_printf ("Schema %u StartPos%u: (new) -> %d,%d", self->schema,
                                    self->player, self->x, self->z);
  return TRUE;
}

static gboolean
terrain_ota_edit_apply (TerrainCommand  *command,
                        GError         **error)
{
  TerrainOtaEdit *self = TERRAIN_OTA_EDIT (command);
  gboolean ok;

  self->was_modified = terrain_document_get_modified (TERRAIN_DOCUMENT (self->ota));
  if (self->kind == OTA_EDIT_SET_VALUE)
    ok = apply_set_value (self, error);
  else
    ok = apply_start_position (self, error);
  return ok;
}

static void
terrain_ota_edit_revert (TerrainCommand *command)
{
  TerrainOtaEdit *self = TERRAIN_OTA_EDIT (command);
  TerrainTdfDocument *tdf = TERRAIN_TDF_DOCUMENT (self->ota);

  if (self->kind == OTA_EDIT_SET_VALUE)
    {
      TerrainTdfSection *section = find_block (self);

      if (section != NULL)
        restore_key (tdf, section, self->key, self->old_value);
    }
  else
    {
      TerrainTdfSection *schema = terrain_ota_file_get_schema (self->ota, self->schema);
      TerrainTdfSection *specials = schema != NULL ? terrain_tdf_section_find_section (schema, OTA_SPECIALS)
                                                   : NULL;

      if (specials == NULL)
        ;
      else if (self->created_specials)
        terrain_tdf_document_remove_section (tdf, specials);
      else if (self->created_special)
        {
          if (self->special_index < terrain_tdf_section_get_n_sections (specials))
            terrain_tdf_document_remove_section (tdf, terrain_tdf_section_get_section (specials,
                                                                                      self->special_index));
        }
      else
        {
          TerrainTdfSection *special = ota_file_find_start_special (schema, self->player);

          if (special != NULL)
            {
              restore_key (tdf, special, "XPos", self->old_x);
              restore_key (tdf, special, "ZPos", self->old_z);
            }
        }
    }
  terrain_document_set_modified (TERRAIN_DOCUMENT (self->ota), self->was_modified);
}

static gboolean
terrain_ota_edit_merge (TerrainCommand *command,
                        TerrainCommand *next_command)
{
  TerrainOtaEdit *self = TERRAIN_OTA_EDIT (command);
  TerrainOtaEdit *next;

  if (!TERRAIN_IS_OTA_EDIT (next_command))
    return FALSE;
  next = TERRAIN_OTA_EDIT (next_command);
  if (next->ota != self->ota || next->kind != self->kind)
    return FALSE;
  if (self->kind == OTA_EDIT_SET_VALUE)
    {
      if (g_strcmp0 (self->block, next->block) != 0 || strcmp (self->key, next->key) != 0)
        return FALSE;
      g_free (self->value);
      self->value = g_strdup (next->value);
    }
  else
    {
      if (self->schema != next->schema || self->player != next->player)
        return FALSE;
      self->x = next->x;
      self->z = next->z;
    }
  terrain_command_set_description (command, terrain_command_get_description (next_command));
  return TRUE;
}

static void
terrain_ota_edit_finalize (GObject *object)
{
  TerrainOtaEdit *self = TERRAIN_OTA_EDIT (object);

  g_clear_object (&self->ota);
  g_free (self->block);
  g_free (self->key);
  g_free (self->value);
  g_free (self->old_value);
  g_free (self->old_x);
  g_free (self->old_z);
  g_free (self->report);

  G_OBJECT_CLASS (terrain_ota_edit_parent_class)->finalize (object);
}

static void
terrain_ota_edit_class_init (TerrainOtaEditClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainCommandClass *command_class = TERRAIN_COMMAND_CLASS (klass);

  object_class->finalize = terrain_ota_edit_finalize;
  command_class->apply = terrain_ota_edit_apply;
  command_class->revert = terrain_ota_edit_revert;
  command_class->merge = terrain_ota_edit_merge;
}

static void
terrain_ota_edit_init (TerrainOtaEdit *self)
{
}

static TerrainOtaEdit *
ota_edit_new (TerrainOtaFile *ota,
              OtaEditKind     kind,
              const char     *description)
{
  TerrainOtaEdit *self = g_object_new (TERRAIN_TYPE_OTA_EDIT, "description", description, NULL);

  self->ota = g_object_ref (ota);
  self->kind = kind;
  return self;
}

/**
 * terrain_ota_edit_new_set_value:
 * @ota: a #TerrainOtaFile
 * @block: (nullable): the block's path as for
 *   [method@Terrain.TdfDocument.find_section] (e.g.
 *   `GlobalHeader/Schema 0`), or %NULL for `[GlobalHeader]`
 * @key: the key, e.g. `missionname`, `gravity`, `SurfaceMetal`
 * @value: its new value, as written in the file
 *
 * Sets a key of a block, adding it after the block's last key when it is
 * not there; undo gives it back its old value or removes it again.
 * Applying fails with %TERRAIN_ERROR_INVALID_VALUE when there is no such
 * block or the value cannot be written (it holds a `;`).
 *
 * Returns: (transfer full): the edit
 */
TerrainCommand *
terrain_ota_edit_new_set_value (TerrainOtaFile *ota,
                                const char     *block,
                                const char     *key,
                                const char     *value)
{
  g_autofree char *description = NULL;
  TerrainOtaEdit *self;

  g_return_val_if_fail (TERRAIN_IS_OTA_FILE (ota), NULL);
  g_return_val_if_fail (key != NULL, NULL);
  g_return_val_if_fail (value != NULL, NULL);

  description = g_strdup_printf ("Set %s to “%s”", key, value);
  self = ota_edit_new (ota, OTA_EDIT_SET_VALUE, description);
  self->block = g_strdup (block);
  self->key = g_strdup (key);
  self->value = g_strdup (value);
  return TERRAIN_COMMAND (self);
}

/**
 * terrain_ota_edit_new_set_start_position:
 * @ota: a #TerrainOtaFile
 * @schema: the schema number (`[Schema N]`)
 * @player: the start position's number, from 1 (`StartPosN`)
 * @x: `XPos`, in map pixels from the west edge
 * @z: `ZPos`, in map pixels from the north edge
 *
 * Moves a start position, or adds it as a new `[specialK]` block, as
 * [method@Terrain.OtaFile.set_start_position] does; undo moves it back or
 * removes the blocks it added. Applying fails with
 * %TERRAIN_ERROR_OUT_OF_RANGE for a schema the file does not have or a
 * player 0.
 *
 * Returns: (transfer full): the edit
 */
TerrainCommand *
terrain_ota_edit_new_set_start_position (TerrainOtaFile *ota,
                                         guint           schema,
                                         guint           player,
                                         gint            x,
                                         gint            z)
{
  g_autofree char *description = NULL;
  TerrainOtaEdit *self;

  g_return_val_if_fail (TERRAIN_IS_OTA_FILE (ota), NULL);

  description = g_strdup_printf ("Move start position %u to %d, %d", player, x, z);
  self = ota_edit_new (ota, OTA_EDIT_START_POSITION, description);
  self->schema = schema;
  self->player = player;
  self->x = x;
  self->z = z;
  return TERRAIN_COMMAND (self);
}

/**
 * terrain_ota_edit_get_ota:
 * @self: a #TerrainOtaEdit
 *
 * Gets the map description the edit changes.
 *
 * Returns: (transfer none): the map description
 */
TerrainOtaFile *
terrain_ota_edit_get_ota (TerrainOtaEdit *self)
{
  g_return_val_if_fail (TERRAIN_IS_OTA_EDIT (self), NULL);
  return self->ota;
}

/**
 * terrain_ota_edit_get_report:
 * @self: a #TerrainOtaEdit
 *
 * Says what the edit did when it was last applied: the key (with its
 * block path, when given) and its old and new value, `planet: Moon ->
 * Mars`, or the start position's old and new place, `Schema 0 StartPos2:
 * 512,768 -> 600,700`; `(new)` stands for a key or start position the
 * file did not have. An edit that merged a later one keeps the report of
 * its own apply.
 *
 * Returns: (nullable): the report, or %NULL before the edit was applied
 */
const char *
terrain_ota_edit_get_report (TerrainOtaEdit *self)
{
  g_return_val_if_fail (TERRAIN_IS_OTA_EDIT (self), NULL);
  return self->report;
}
