/* terrain-ter7-edit.c: undoable edits of a Torque3D terrain (.ter v7)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-ter7-edit.h"
#include "core/terrain-error.h"

/**
 * TerrainTer7Edit:
 *
 * One undoable edit of a [class@Terrain.Ter7File]: a rectangle of height
 * samples set to one value, or a rectangle of the layer map painted with one
 * material index (or [const@Terrain.TER7_EMPTY_LAYER], a hole). Only the
 * samples of the rectangle change, so the saved file differs from its
 * source only in their bytes of the height or layer section
 * (docs/formats/torque3d-ter.md). Reverting writes the old samples back and
 * restores [property@Terrain.Document:modified].
 *
 * Edits of one kind given the same non-zero stroke number
 * ([method@Terrain.Ter7Edit.set_stroke]) merge on a
 * [class@Terrain.CommandStack] ([method@Terrain.Command.merge]), so that a
 * brush stroke of many dabs is one undo step, as the TNT brush's are.
 */

typedef enum
{
  TER7_EDIT_SET_HEIGHT,
  TER7_EDIT_PAINT,
} Ter7EditKind;

struct _TerrainTer7Edit
{
  TerrainCommand parent_instance;

  Ter7EditKind kind;
  guint x, y, width, height;
  guint16 value;              /* height (11.5 fixed point) or layer index */
  guint stroke;               /* 0: never merges */
  GPtrArray *dabs;            /* TerrainTer7Edit merged into this one, in order */

  /* Recorded by apply */
  GArray *old;                /* guint16 per sample, row by row */
  gboolean was_modified;
  guint changed;
  char *report;
};

G_DEFINE_FINAL_TYPE (TerrainTer7Edit, terrain_ter7_edit, TERRAIN_TYPE_COMMAND)

static TerrainTer7File *
edit_file (TerrainTer7Edit *self)
{
  return TERRAIN_TER7_FILE (terrain_command_get_document (TERRAIN_COMMAND (self)));
}

static gboolean
apply_one (TerrainTer7Edit  *self,
           TerrainTer7File  *file,
           GError          **error)
{
  guint size = terrain_ter7_file_get_size (file);

  if (self->width == 0 || self->height == 0 || self->x >= size || self->y >= size ||
      self->width > size - self->x || self->height > size - self->y)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Torque3D terrain: the rectangle %u,%u of %u×%u samples is not inside "
                     "the %u×%u map",
                   self->x, self->y, self->width, self->height, size, size);
      return FALSE;
    }
  if (self->kind == TER7_EDIT_PAINT && self->value != TERRAIN_TER7_EMPTY_LAYER &&
      self->value >= terrain_ter7_file_get_n_materials (file))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Torque3D terrain: there is no material %u (the file names %u; %u "
                     "makes a hole)",
                   self->value, terrain_ter7_file_get_n_materials (file),
                   TERRAIN_TER7_EMPTY_LAYER);
      return FALSE;
    }

  self->was_modified = terrain_document_get_modified (TERRAIN_DOCUMENT (file));
  g_array_set_size (self->old, 0);
  self->changed = 0;
  for (guint j = 0; j < self->height; j++)
    for (guint i = 0; i < self->width; i++)
      {
        guint x = self->x + i, y = self->y + j;
        guint16 old = self->kind == TER7_EDIT_SET_HEIGHT
                      ? terrain_ter7_file_get_height (file, x, y)
                      : terrain_ter7_file_get_layer (file, x, y);

        g_array_append_val (self->old, old);
        if (old == self->value)
          continue;
        self->changed++;
        if (self->kind == TER7_EDIT_SET_HEIGHT)
          terrain_ter7_file_set_height (file, x, y, self->value);
        else
          terrain_ter7_file_set_layer (file, x, y, (guint8) self->value);
      }
  if (self->changed == 0)
    terrain_document_set_modified (TERRAIN_DOCUMENT (file), self->was_modified);

  g_free (self->report);
  if (self->kind == TER7_EDIT_SET_HEIGHT)
    self->report = g_strdup_printf ("set %u of %u samples at %u,%u to %.5g m",
                                    self->changed, self->width * self->height, self->x,
                                    self->y, self->value / 32.0);
  else if (self->value == TERRAIN_TER7_EMPTY_LAYER)
    self->report = g_strdup_printf ("made %u of %u samples at %u,%u holes",
                                    self->changed, self->width * self->height, self->x,
                                    self->y);
  else
    self->report = g_strdup_printf ("painted %u of %u samples at %u,%u with material %u (%s)",
                                    self->changed, self->width * self->height, self->x,
                                    self->y, self->value,
                                    terrain_ter7_file_get_material_name (file, self->value));
  return TRUE;
}

static void
revert_one (TerrainTer7Edit *self,
            TerrainTer7File *file)
{
  for (guint j = 0; j < self->height; j++)
    for (guint i = 0; i < self->width; i++)
      {
        guint16 old = g_array_index (self->old, guint16, j * self->width + i);

        if (self->kind == TER7_EDIT_SET_HEIGHT)
          terrain_ter7_file_set_height (file, self->x + i, self->y + j, old);
        else
          terrain_ter7_file_set_layer (file, self->x + i, self->y + j, (guint8) old);
      }
  terrain_document_set_modified (TERRAIN_DOCUMENT (file), self->was_modified);
}

static void
set_stroke_report (TerrainTer7Edit *self)
{
  guint changed = self->changed;

  for (guint i = 0; i < self->dabs->len; i++)
    changed += TERRAIN_TER7_EDIT (g_ptr_array_index (self->dabs, i))->changed;
  g_free (self->report);
  self->report = g_strdup_printf ("%u dabs, %u samples changed", self->dabs->len + 1, changed);
}

/* The edit and, on a redo, the dabs merged into it, in their order; a dab
 * that cannot apply reverts the ones before it. */
static gboolean
terrain_ter7_edit_apply (TerrainCommand  *command,
                         GError         **error)
{
  TerrainTer7Edit *self = TERRAIN_TER7_EDIT (command);
  TerrainTer7File *file = edit_file (self);

  if (!apply_one (self, file, error))
    return FALSE;
  for (guint i = 0; i < self->dabs->len; i++)
    if (!apply_one (g_ptr_array_index (self->dabs, i), file, error))
      {
        while (i-- > 0)
          revert_one (g_ptr_array_index (self->dabs, i), file);
        revert_one (self, file);
        return FALSE;
      }
  if (self->dabs->len > 0)
    set_stroke_report (self);
  return TRUE;
}

static void
terrain_ter7_edit_revert (TerrainCommand *command)
{
  TerrainTer7Edit *self = TERRAIN_TER7_EDIT (command);
  TerrainTer7File *file = edit_file (self);

  for (guint i = self->dabs->len; i-- > 0;)
    revert_one (g_ptr_array_index (self->dabs, i), file);
  revert_one (self, file);
}

/* A later dab of the same stroke: kept, to be reverted before this one and
 * redone after it (each holds the samples it found). */
static gboolean
terrain_ter7_edit_merge (TerrainCommand *command,
                         TerrainCommand *next_command)
{
  TerrainTer7Edit *self = TERRAIN_TER7_EDIT (command);
  TerrainTer7Edit *next;

  if (!TERRAIN_IS_TER7_EDIT (next_command))
    return FALSE;
  next = TERRAIN_TER7_EDIT (next_command);
  if (self->stroke == 0 || next->stroke != self->stroke || next->kind != self->kind ||
      next->dabs->len > 0)
    return FALSE;
  g_ptr_array_add (self->dabs, g_object_ref (next));
  set_stroke_report (self);
  return TRUE;
}

static void
terrain_ter7_edit_finalize (GObject *object)
{
  TerrainTer7Edit *self = TERRAIN_TER7_EDIT (object);

  g_array_unref (self->old);
  g_ptr_array_unref (self->dabs);
  g_free (self->report);
  G_OBJECT_CLASS (terrain_ter7_edit_parent_class)->finalize (object);
}

static void
terrain_ter7_edit_class_init (TerrainTer7EditClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainCommandClass *command_class = TERRAIN_COMMAND_CLASS (klass);

  object_class->finalize = terrain_ter7_edit_finalize;
  command_class->apply = terrain_ter7_edit_apply;
  command_class->revert = terrain_ter7_edit_revert;
  command_class->merge = terrain_ter7_edit_merge;
}

static void
terrain_ter7_edit_init (TerrainTer7Edit *self)
{
  self->old = g_array_new (FALSE, FALSE, sizeof (guint16));
  self->dabs = g_ptr_array_new_with_free_func (g_object_unref);
}

static TerrainCommand *
ter7_edit_new (TerrainTer7File *file,
               Ter7EditKind     kind,
               guint            x,
               guint            y,
               guint            width,
               guint            height,
               guint16          value,
               const char      *description)
{
  TerrainTer7Edit *self;

  g_return_val_if_fail (TERRAIN_IS_TER7_FILE (file), NULL);

  self = g_object_new (TERRAIN_TYPE_TER7_EDIT,
                       "document", file,
                       "description", description,
                       NULL);
  self->kind = kind;
  self->x = x;
  self->y = y;
  self->width = width;
  self->height = height;
  self->value = value;
  return TERRAIN_COMMAND (self);
}

/**
 * terrain_ter7_edit_new_set_height:
 * @file: a #TerrainTer7File
 * @x: the first column, in samples (0: west)
 * @y: the first row, in samples (0: the file's first row)
 * @width: columns, at least 1
 * @height: rows, at least 1
 * @value: the height in 11.5 fixed point (metres × 32)
 *
 * Sets a rectangle of height samples to @value. Applying fails with
 * %TERRAIN_ERROR_INVALID_VALUE when the rectangle is not inside the map.
 *
 * Returns: (transfer full): the edit, to apply or run on a
 *   [class@Terrain.CommandStack]
 */
TerrainCommand *
terrain_ter7_edit_new_set_height (TerrainTer7File *file,
                                  guint            x,
                                  guint            y,
                                  guint            width,
                                  guint            height,
                                  guint16          value)
{
  return ter7_edit_new (file, TER7_EDIT_SET_HEIGHT, x, y, width, height, value, "Set heights");
}

/**
 * terrain_ter7_edit_new_paint:
 * @file: a #TerrainTer7File
 * @x: the first column, in samples
 * @y: the first row, in samples
 * @width: columns, at least 1
 * @height: rows, at least 1
 * @layer: a material index below [method@Terrain.Ter7File.get_n_materials],
 *   or [const@Terrain.TER7_EMPTY_LAYER] for a hole
 *
 * Paints a rectangle of the layer map with one material. Applying fails
 * with %TERRAIN_ERROR_INVALID_VALUE when the rectangle is not inside the map
 * or the file names no material @layer.
 *
 * Returns: (transfer full): the edit
 */
TerrainCommand *
terrain_ter7_edit_new_paint (TerrainTer7File *file,
                             guint            x,
                             guint            y,
                             guint            width,
                             guint            height,
                             guint8           layer)
{
  return ter7_edit_new (file, TER7_EDIT_PAINT, x, y, width, height, layer, "Paint material");
}

/**
 * terrain_ter7_edit_set_stroke:
 * @self: a #TerrainTer7Edit not yet applied
 * @stroke: a stroke number; 0 (the default) never merges
 *
 * Marks the edit as a dab of brush stroke @stroke: on a
 * [class@Terrain.CommandStack], an edit of the same kind and the same
 * non-zero stroke executed right after it merges into it, so one undo
 * reverts the whole stroke and one redo replays it. Its report then counts
 * the dabs and the samples they changed ("3 dabs, 40 samples changed").
 */
void
terrain_ter7_edit_set_stroke (TerrainTer7Edit *self,
                              guint            stroke)
{
  g_return_if_fail (TERRAIN_IS_TER7_EDIT (self));
  self->stroke = stroke;
}

/**
 * terrain_ter7_edit_get_stroke:
 * @self: a #TerrainTer7Edit
 *
 * Gets the stroke number set by [method@Terrain.Ter7Edit.set_stroke].
 *
 * Returns: the stroke number, 0 for none
 */
guint
terrain_ter7_edit_get_stroke (TerrainTer7Edit *self)
{
  g_return_val_if_fail (TERRAIN_IS_TER7_EDIT (self), 0);
  return self->stroke;
}

/**
 * terrain_ter7_edit_get_report:
 * @self: a #TerrainTer7Edit
 *
 * Gets what the edit did, for a status line or the command line's output.
 *
 * Returns: (nullable): what the last apply changed, one line ("set 12 of
 *   16 samples at 4,4 to 10 m"), or %NULL before it was applied
 */
const char *
terrain_ter7_edit_get_report (TerrainTer7Edit *self)
{
  g_return_val_if_fail (TERRAIN_IS_TER7_EDIT (self), NULL);
  return self->report;
}
