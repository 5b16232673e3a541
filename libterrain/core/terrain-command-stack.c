/* terrain-command-stack.c: undo and redo
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-command-stack.h"
#include "terrain-command-private.h"
#include "terrain-error.h"

/**
 * TerrainCommandStack:
 *
 * The undo history of one document, shared by the editor and the
 * command-line tool.
 *
 * [method@Terrain.CommandStack.execute] applies a [class@Terrain.Command]
 * and records it; [method@Terrain.CommandStack.undo] and
 * [method@Terrain.CommandStack.redo] walk the history. Executing a command
 * after an undo drops the commands that could have been redone.
 *
 * Commands executed between [method@Terrain.CommandStack.begin_user_action]
 * and [method@Terrain.CommandStack.end_user_action] form one user action that
 * undoes in one step, in the manner of GtkTextBuffer's
 * `gtk_text_buffer_begin_user_action()`; the calls nest. A command that can
 * fold into the one before it (the dabs of one brush stroke, see
 * [method@Terrain.Command.merge]) is merged instead of stacked, unless the
 * history was sealed in between ([method@Terrain.CommandStack.seal], a save,
 * an undo or a redo).
 *
 * The stack knows the point in its history where the document was last
 * saved: [property@Terrain.CommandStack:clean] is %TRUE there, also after
 * undoing or redoing back to it, and the document's
 * [property@Terrain.Document:modified] follows. Saving the document (which
 * clears :modified) marks the current point clean.
 */

/* ------------------------------------------------------------------------ */
/* Groups: the commands of one user action                                  */

#define TERRAIN_TYPE_COMMAND_GROUP (terrain_command_group_get_type ())
G_DECLARE_FINAL_TYPE (TerrainCommandGroup, terrain_command_group, TERRAIN, COMMAND_GROUP,
                      TerrainCommand)

struct _TerrainCommandGroup
{
  TerrainCommand parent_instance;

  GPtrArray *commands;
};

G_DEFINE_FINAL_TYPE (TerrainCommandGroup, terrain_command_group, TERRAIN_TYPE_COMMAND)

static gboolean
terrain_command_group_apply (TerrainCommand  *command,
                             GError         **error)
{
  TerrainCommandGroup *self = TERRAIN_COMMAND_GROUP (command);

  for (guint i = 0; i < self->commands->len; i++)
    if (!terrain_command_apply (g_ptr_array_index (self->commands, i), error))
      {
        /* Leave the document as it was: undo the part that was redone. */
        while (i-- > 0)
          terrain_command_revert (g_ptr_array_index (self->commands, i));
        return FALSE;
      }

  return TRUE;
}

static void
terrain_command_group_revert (TerrainCommand *command)
{
  TerrainCommandGroup *self = TERRAIN_COMMAND_GROUP (command);

  for (guint i = self->commands->len; i > 0; i--)
    terrain_command_revert (g_ptr_array_index (self->commands, i - 1));
}

static void
terrain_command_group_finalize (GObject *object)
{
  TerrainCommandGroup *self = TERRAIN_COMMAND_GROUP (object);

  g_clear_pointer (&self->commands, g_ptr_array_unref);

  G_OBJECT_CLASS (terrain_command_group_parent_class)->finalize (object);
}

static void
terrain_command_group_class_init (TerrainCommandGroupClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainCommandClass *command_class = TERRAIN_COMMAND_CLASS (klass);

  object_class->finalize = terrain_command_group_finalize;
  command_class->apply = terrain_command_group_apply;
  command_class->revert = terrain_command_group_revert;
}

static void
terrain_command_group_init (TerrainCommandGroup *self)
{
  self->commands = g_ptr_array_new_with_free_func (g_object_unref);
}

/* ------------------------------------------------------------------------ */
/* The stack                                                                */

struct _TerrainCommandStack
{
  GObject parent_instance;

  TerrainDocument *document;
  gulong modified_handler;

  GPtrArray *undo;      /* oldest first */
  GPtrArray *redo;      /* the next command to redo last */

  /* undo->len at the saved point, or -1 when that point is gone (dropped
   * from the history, or edited away without the stack) */
  gint64 clean_depth;
  guint max_depth;

  guint action_depth;
  TerrainCommandGroup *group;   /* the open user action, once it has a command */
  char *action_description;

  guint busy : 1;               /* changing the document ourselves */
  guint sealed : 1;             /* the next command must not merge */
};

G_DEFINE_FINAL_TYPE (TerrainCommandStack, terrain_command_stack, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_CAN_UNDO,
  PROP_CAN_REDO,
  PROP_UNDO_DESCRIPTION,
  PROP_REDO_DESCRIPTION,
  PROP_CLEAN,
  PROP_IN_USER_ACTION,
  PROP_MAX_DEPTH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* What the properties said before an operation, to notify only changes. */
typedef struct
{
  gboolean can_undo;
  gboolean can_redo;
  gboolean clean;
  gboolean in_user_action;
  TerrainCommand *undo_top;
  TerrainCommand *redo_top;
} State;

static TerrainCommand *
top_of (GPtrArray *array)
{
  return array->len > 0 ? g_ptr_array_index (array, array->len - 1) : NULL;
}

static void
state_save (TerrainCommandStack *self,
            State               *state)
{
  state->can_undo = terrain_command_stack_get_can_undo (self);
  state->can_redo = terrain_command_stack_get_can_redo (self);
  state->clean = terrain_command_stack_get_clean (self);
  state->in_user_action = self->action_depth > 0;
  state->undo_top = top_of (self->undo);
  state->redo_top = top_of (self->redo);
}

/* Brings the document's :modified in line with the history, then notifies
 * every property that changed since @before. */
static void
state_notify (TerrainCommandStack *self,
              const State         *before)
{
  gboolean clean = terrain_command_stack_get_clean (self);
  GObject *object = G_OBJECT (self);

  if (self->document != NULL)
    {
      self->busy = TRUE;
      terrain_document_set_modified (self->document, !clean);
      self->busy = FALSE;
    }

  g_object_freeze_notify (object);
  if (before->can_undo != terrain_command_stack_get_can_undo (self))
    g_object_notify_by_pspec (object, properties[PROP_CAN_UNDO]);
  if (before->can_redo != terrain_command_stack_get_can_redo (self))
    g_object_notify_by_pspec (object, properties[PROP_CAN_REDO]);
  if (before->clean != clean)
    g_object_notify_by_pspec (object, properties[PROP_CLEAN]);
  if (before->in_user_action != (self->action_depth > 0))
    g_object_notify_by_pspec (object, properties[PROP_IN_USER_ACTION]);
  if (before->undo_top != top_of (self->undo))
    g_object_notify_by_pspec (object, properties[PROP_UNDO_DESCRIPTION]);
  if (before->redo_top != top_of (self->redo))
    g_object_notify_by_pspec (object, properties[PROP_REDO_DESCRIPTION]);
  g_object_thaw_notify (object);
}

static void
on_document_modified (TerrainDocument     *document,
                      GParamSpec          *pspec,
                      TerrainCommandStack *self)
{
  State before;

  /* Our own changes: either while applying (busy) or, when GObject delivers
   * the notification late, one that matches the history already. */
  if (self->busy ||
      terrain_document_get_modified (document) == !terrain_command_stack_get_clean (self))
    return;

  state_save (self, &before);
  if (!terrain_document_get_modified (document))
    {
      /* Saved: this is the clean point now. An open user action is part of
       * what was saved; it is pushed as one step, so the clean point is
       * after it. */
      self->clean_depth = (gint64) self->undo->len + (self->group != NULL ? 1 : 0);
      self->sealed = TRUE;
    }
  else
    {
      /* Edited behind the stack's back: no point of the history matches the
       * saved file any more. */
      self->clean_depth = -1;
    }
  state_notify (self, &before);
}

static void
terrain_command_stack_dispose (GObject *object)
{
  TerrainCommandStack *self = (TerrainCommandStack *)object;

  if (self->document != NULL)
    g_clear_signal_handler (&self->modified_handler, self->document);
  g_clear_object (&self->document);
  g_clear_object (&self->group);
  if (self->undo != NULL)
    g_ptr_array_set_size (self->undo, 0);
  if (self->redo != NULL)
    g_ptr_array_set_size (self->redo, 0);

  G_OBJECT_CLASS (terrain_command_stack_parent_class)->dispose (object);
}

static void
terrain_command_stack_finalize (GObject *object)
{
  TerrainCommandStack *self = (TerrainCommandStack *)object;

  g_clear_pointer (&self->undo, g_ptr_array_unref);
  g_clear_pointer (&self->redo, g_ptr_array_unref);
  g_clear_pointer (&self->action_description, g_free);

  G_OBJECT_CLASS (terrain_command_stack_parent_class)->finalize (object);
}

static void
terrain_command_stack_constructed (GObject *object)
{
  TerrainCommandStack *self = (TerrainCommandStack *)object;

  G_OBJECT_CLASS (terrain_command_stack_parent_class)->constructed (object);

  if (self->document != NULL)
    {
      self->modified_handler =
        g_signal_connect_object (self->document, "notify::modified",
                                 G_CALLBACK (on_document_modified), self, 0);
      /* A document with unsaved edits has no clean point in this history. */
      if (terrain_document_get_modified (self->document))
        self->clean_depth = -1;
    }
}

static void
terrain_command_stack_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  TerrainCommandStack *self = TERRAIN_COMMAND_STACK (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_CAN_UNDO:
      g_value_set_boolean (value, terrain_command_stack_get_can_undo (self));
      break;
    case PROP_CAN_REDO:
      g_value_set_boolean (value, terrain_command_stack_get_can_redo (self));
      break;
    case PROP_UNDO_DESCRIPTION:
      g_value_set_string (value, terrain_command_stack_get_undo_description (self));
      break;
    case PROP_REDO_DESCRIPTION:
      g_value_set_string (value, terrain_command_stack_get_redo_description (self));
      break;
    case PROP_CLEAN:
      g_value_set_boolean (value, terrain_command_stack_get_clean (self));
      break;
    case PROP_IN_USER_ACTION:
      g_value_set_boolean (value, self->action_depth > 0);
      break;
    case PROP_MAX_DEPTH:
      g_value_set_uint (value, self->max_depth);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_command_stack_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  TerrainCommandStack *self = TERRAIN_COMMAND_STACK (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      self->document = g_value_dup_object (value);
      break;
    case PROP_MAX_DEPTH:
      terrain_command_stack_set_max_depth (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_command_stack_class_init (TerrainCommandStackClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = terrain_command_stack_dispose;
  object_class->finalize = terrain_command_stack_finalize;
  object_class->constructed = terrain_command_stack_constructed;
  object_class->get_property = terrain_command_stack_get_property;
  object_class->set_property = terrain_command_stack_set_property;

  /**
   * TerrainCommandStack:document:
   *
   * The document whose history this is, or %NULL. The stack keeps the
   * document's [property@Terrain.Document:modified] in line with
   * [property@Terrain.CommandStack:clean] and treats a save (modified
   * becoming %FALSE) as the new clean point.
   */
  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL,
                         TERRAIN_TYPE_DOCUMENT,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainCommandStack:can-undo:
   *
   * Whether there is a command to undo (and no user action is open).
   */
  properties[PROP_CAN_UNDO] =
    g_param_spec_boolean ("can-undo", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainCommandStack:can-redo:
   *
   * Whether there is a command to redo (and no user action is open).
   */
  properties[PROP_CAN_REDO] =
    g_param_spec_boolean ("can-redo", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainCommandStack:undo-description:
   *
   * The description of the command [method@Terrain.CommandStack.undo] would
   * undo, or %NULL.
   */
  properties[PROP_UNDO_DESCRIPTION] =
    g_param_spec_string ("undo-description", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainCommandStack:redo-description:
   *
   * The description of the command [method@Terrain.CommandStack.redo] would
   * redo, or %NULL.
   */
  properties[PROP_REDO_DESCRIPTION] =
    g_param_spec_string ("redo-description", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainCommandStack:clean:
   *
   * Whether the document is at the point of the history where it was
   * loaded or last saved: %TRUE again after undoing or redoing back to that
   * point, %FALSE while a user action is open.
   */
  properties[PROP_CLEAN] =
    g_param_spec_boolean ("clean", NULL, NULL,
                          TRUE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainCommandStack:in-user-action:
   *
   * Whether a user action is open, see
   * [method@Terrain.CommandStack.begin_user_action].
   */
  properties[PROP_IN_USER_ACTION] =
    g_param_spec_boolean ("in-user-action", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainCommandStack:max-depth:
   *
   * How many steps the stack keeps to undo; 0 (the default) keeps all. The
   * oldest steps are dropped first.
   */
  properties[PROP_MAX_DEPTH] =
    g_param_spec_uint ("max-depth", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
terrain_command_stack_init (TerrainCommandStack *self)
{
  self->undo = g_ptr_array_new_with_free_func (g_object_unref);
  self->redo = g_ptr_array_new_with_free_func (g_object_unref);
  self->clean_depth = 0;
}

/**
 * terrain_command_stack_new:
 * @document: (nullable): the document whose history this is
 *
 * Creates an empty history. When @document has no unsaved edits, the
 * current state is the clean point.
 *
 * Returns: (transfer full): the new stack
 */
TerrainCommandStack *
terrain_command_stack_new (TerrainDocument *document)
{
  g_return_val_if_fail (document == NULL || TERRAIN_IS_DOCUMENT (document), NULL);

  return g_object_new (TERRAIN_TYPE_COMMAND_STACK, "document", document, NULL);
}

/**
 * terrain_command_stack_get_document:
 * @self: a #TerrainCommandStack
 *
 * Gets the document the stack edits.
 *
 * Returns: (transfer none) (nullable): the document, see
 *   [property@Terrain.CommandStack:document]
 */
TerrainDocument *
terrain_command_stack_get_document (TerrainCommandStack *self)
{
  g_return_val_if_fail (TERRAIN_IS_COMMAND_STACK (self), NULL);

  return self->document;
}

/* Drops the oldest steps beyond max-depth. */
static void
trim (TerrainCommandStack *self)
{
  guint excess;

  if (self->max_depth == 0 || self->undo->len <= self->max_depth)
    return;

  excess = self->undo->len - self->max_depth;
  g_ptr_array_remove_range (self->undo, 0, excess);
  if (self->clean_depth >= 0)
    self->clean_depth = self->clean_depth >= excess ? self->clean_depth - excess : -1;
}

/* The document changes away from every redoable state: forget them, and
 * the clean point if it was among them. */
static void
drop_redo (TerrainCommandStack *self)
{
  if (self->clean_depth > (gint64) self->undo->len)
    self->clean_depth = -1;
  g_ptr_array_set_size (self->redo, 0);
}

static void
push (TerrainCommandStack *self,
      TerrainCommand      *command)
{
  g_ptr_array_add (self->undo, g_object_ref (command));
  trim (self);
}

/**
 * terrain_command_stack_execute:
 * @self: a #TerrainCommandStack
 * @command: a command that is not applied, editing the stack's document
 * @error: return location for a #GError
 *
 * Applies @command and records it as the newest step (or as part of the open
 * user action). The commands that could have been redone are dropped. When
 * the newest step can absorb @command ([method@Terrain.Command.merge]) and
 * the history was not sealed since, @command is merged into it instead.
 *
 * Returns: %TRUE on success; %FALSE with the command's error when it could
 *   not be applied, in which case neither the document nor the history
 *   changed
 */
gboolean
terrain_command_stack_execute (TerrainCommandStack  *self,
                               TerrainCommand       *command,
                               GError              **error)
{
  TerrainDocument *target;
  TerrainCommand *last;
  State before;
  gboolean ok;

  g_return_val_if_fail (TERRAIN_IS_COMMAND_STACK (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_COMMAND (command), FALSE);
  g_return_val_if_fail (!terrain_command_get_applied (command), FALSE);
  target = terrain_command_get_document (command);
  g_return_val_if_fail (self->document == NULL || target == NULL || target == self->document,
                        FALSE);

  state_save (self, &before);

  self->busy = TRUE;
  ok = terrain_command_apply (command, error);
  self->busy = FALSE;
  if (!ok)
    return FALSE;

  g_object_ref (command);
  drop_redo (self);

  if (self->action_depth > 0)
    {
      if (self->group == NULL)
        {
          self->group = g_object_new (TERRAIN_TYPE_COMMAND_GROUP,
                                      "document", self->document,
                                      "description", self->action_description,
                                      NULL);
        }
      last = top_of (self->group->commands);
      if (last == NULL || !terrain_command_merge (last, command))
        g_ptr_array_add (self->group->commands, g_object_ref (command));
    }
  else
    {
      last = top_of (self->undo);
      if (last == NULL || self->sealed || self->clean_depth == (gint64) self->undo->len ||
          !terrain_command_merge (last, command))
        push (self, command);
      self->sealed = FALSE;
    }

  g_object_unref (command);
  state_notify (self, &before);
  return TRUE;
}

/**
 * terrain_command_stack_undo:
 * @self: a #TerrainCommandStack
 *
 * Reverts the newest step and makes it the next one to redo. Not allowed
 * while a user action is open.
 *
 * Returns: %TRUE if a step was undone, %FALSE when there was none
 */
gboolean
terrain_command_stack_undo (TerrainCommandStack *self)
{
  TerrainCommand *command;
  State before;

  g_return_val_if_fail (TERRAIN_IS_COMMAND_STACK (self), FALSE);
  g_return_val_if_fail (self->action_depth == 0, FALSE);

  if (self->undo->len == 0)
    return FALSE;

  state_save (self, &before);
  command = g_ptr_array_steal_index (self->undo, self->undo->len - 1);
  self->busy = TRUE;
  terrain_command_revert (command);
  self->busy = FALSE;
  g_ptr_array_add (self->redo, command);
  self->sealed = TRUE;
  state_notify (self, &before);

  return TRUE;
}

/**
 * terrain_command_stack_redo:
 * @self: a #TerrainCommandStack
 * @error: return location for a #GError
 *
 * Applies the last undone step again. Not allowed while a user action is
 * open.
 *
 * Returns: %TRUE if a step was redone; %FALSE when there was none (@error
 *   not set) or when applying it failed (@error set, the step stays
 *   redoable and the document is unchanged)
 */
gboolean
terrain_command_stack_redo (TerrainCommandStack  *self,
                            GError              **error)
{
  TerrainCommand *command;
  State before;
  gboolean ok;

  g_return_val_if_fail (TERRAIN_IS_COMMAND_STACK (self), FALSE);
  g_return_val_if_fail (self->action_depth == 0, FALSE);

  if (self->redo->len == 0)
    return FALSE;

  state_save (self, &before);
  command = top_of (self->redo);
  self->busy = TRUE;
  ok = terrain_command_apply (command, error);
  self->busy = FALSE;
  if (!ok)
    return FALSE;

  command = g_ptr_array_steal_index (self->redo, self->redo->len - 1);
  g_ptr_array_add (self->undo, command);
  trim (self);
  self->sealed = TRUE;
  state_notify (self, &before);

  return TRUE;
}

/**
 * terrain_command_stack_get_can_undo:
 * @self: a #TerrainCommandStack
 *
 * Gets whether there is a step to undo.
 *
 * Returns: whether [method@Terrain.CommandStack.undo] would undo a step
 */
gboolean
terrain_command_stack_get_can_undo (TerrainCommandStack *self)
{
  g_return_val_if_fail (TERRAIN_IS_COMMAND_STACK (self), FALSE);

  return self->undo->len > 0 && self->action_depth == 0;
}

/**
 * terrain_command_stack_get_can_redo:
 * @self: a #TerrainCommandStack
 *
 * Gets whether there is a step to redo.
 *
 * Returns: whether [method@Terrain.CommandStack.redo] would redo a step
 */
gboolean
terrain_command_stack_get_can_redo (TerrainCommandStack *self)
{
  g_return_val_if_fail (TERRAIN_IS_COMMAND_STACK (self), FALSE);

  return self->redo->len > 0 && self->action_depth == 0;
}

/**
 * terrain_command_stack_get_undo_description:
 * @self: a #TerrainCommandStack
 *
 * Gets the description of the step that would be undone.
 *
 * Returns: (nullable): the description of the step that would be undone
 */
const char *
terrain_command_stack_get_undo_description (TerrainCommandStack *self)
{
  TerrainCommand *top;

  g_return_val_if_fail (TERRAIN_IS_COMMAND_STACK (self), NULL);

  top = top_of (self->undo);
  return top != NULL ? terrain_command_get_description (top) : NULL;
}

/**
 * terrain_command_stack_get_redo_description:
 * @self: a #TerrainCommandStack
 *
 * Gets the description of the step that would be redone.
 *
 * Returns: (nullable): the description of the step that would be redone
 */
const char *
terrain_command_stack_get_redo_description (TerrainCommandStack *self)
{
  TerrainCommand *top;

  g_return_val_if_fail (TERRAIN_IS_COMMAND_STACK (self), NULL);

  top = top_of (self->redo);
  return top != NULL ? terrain_command_get_description (top) : NULL;
}

/**
 * terrain_command_stack_get_undo_depth:
 * @self: a #TerrainCommandStack
 *
 * Gets the number of steps that can be undone.
 *
 * Returns: the number of steps that can be undone (a user action and a
 *   run of merged commands count as one)
 */
guint
terrain_command_stack_get_undo_depth (TerrainCommandStack *self)
{
  g_return_val_if_fail (TERRAIN_IS_COMMAND_STACK (self), 0);

  return self->undo->len;
}

/**
 * terrain_command_stack_get_redo_depth:
 * @self: a #TerrainCommandStack
 *
 * Gets the number of steps that can be redone.
 *
 * Returns: the number of steps that can be redone
 */
guint
terrain_command_stack_get_redo_depth (TerrainCommandStack *self)
{
  g_return_val_if_fail (TERRAIN_IS_COMMAND_STACK (self), 0);

  return self->redo->len;
}

/**
 * terrain_command_stack_peek_undo:
 * @self: a #TerrainCommandStack
 *
 * Returns the step [method@Terrain.CommandStack.undo] would undo: the last
 * command executed, the command it was merged into, or the group of a
 * user action of several commands.
 *
 * Returns: (transfer none) (nullable): the newest step
 */
TerrainCommand *
terrain_command_stack_peek_undo (TerrainCommandStack *self)
{
  g_return_val_if_fail (TERRAIN_IS_COMMAND_STACK (self), NULL);

  return top_of (self->undo);
}

/**
 * terrain_command_stack_begin_user_action:
 * @self: a #TerrainCommandStack
 * @description: (nullable): the description of the whole action, for the
 *   "Undo …" label; %NULL to use the first command's
 *
 * Opens a user action: the commands executed until the matching
 * [method@Terrain.CommandStack.end_user_action] undo and redo as one step.
 * Calls nest; only the outermost pair (and its description) counts.
 */
void
terrain_command_stack_begin_user_action (TerrainCommandStack *self,
                                         const char          *description)
{
  State before;

  g_return_if_fail (TERRAIN_IS_COMMAND_STACK (self));

  state_save (self, &before);
  if (self->action_depth++ == 0)
    {
      g_free (self->action_description);
      self->action_description = g_strdup (description);
    }
  state_notify (self, &before);
}

/**
 * terrain_command_stack_end_user_action:
 * @self: a #TerrainCommandStack
 *
 * Closes the user action opened by the matching
 * [method@Terrain.CommandStack.begin_user_action]. When the outermost action
 * closes, its commands become one step (a single command stays itself; an
 * action without commands leaves no step).
 */
void
terrain_command_stack_end_user_action (TerrainCommandStack *self)
{
  g_autoptr(TerrainCommandGroup) group = NULL;
  State before;

  g_return_if_fail (TERRAIN_IS_COMMAND_STACK (self));
  g_return_if_fail (self->action_depth > 0);

  state_save (self, &before);
  if (--self->action_depth > 0)
    return;

  group = g_steal_pointer (&self->group);
  if (group != NULL)
    {
      if (group->commands->len == 1 && self->action_description == NULL)
        push (self, g_ptr_array_index (group->commands, 0));
      else
        {
          if (self->action_description == NULL)
            terrain_command_set_description (TERRAIN_COMMAND (group),
                                             terrain_command_get_description (
                                               g_ptr_array_index (group->commands, 0)));
          /* The group's commands are applied, so the group is. */
          terrain_command_set_applied (TERRAIN_COMMAND (group), TRUE);
          push (self, TERRAIN_COMMAND (group));
        }
      self->sealed = TRUE;
    }
  g_clear_pointer (&self->action_description, g_free);
  state_notify (self, &before);
}

/**
 * terrain_command_stack_get_in_user_action:
 * @self: a #TerrainCommandStack
 *
 * Gets whether a user action is open.
 *
 * Returns: whether a user action is open
 */
gboolean
terrain_command_stack_get_in_user_action (TerrainCommandStack *self)
{
  g_return_val_if_fail (TERRAIN_IS_COMMAND_STACK (self), FALSE);

  return self->action_depth > 0;
}

/**
 * terrain_command_stack_seal:
 * @self: a #TerrainCommandStack
 *
 * Keeps the next command from merging into the newest step, for example at
 * the end of a brush stroke.
 */
void
terrain_command_stack_seal (TerrainCommandStack *self)
{
  g_return_if_fail (TERRAIN_IS_COMMAND_STACK (self));

  self->sealed = TRUE;
}

/**
 * terrain_command_stack_get_clean:
 * @self: a #TerrainCommandStack
 *
 * Gets whether the document is at its saved point.
 *
 * Returns: whether the document is at its saved point, see
 *   [property@Terrain.CommandStack:clean]
 */
gboolean
terrain_command_stack_get_clean (TerrainCommandStack *self)
{
  g_return_val_if_fail (TERRAIN_IS_COMMAND_STACK (self), FALSE);

  return self->group == NULL && self->clean_depth == (gint64) self->undo->len;
}

/**
 * terrain_command_stack_mark_clean:
 * @self: a #TerrainCommandStack
 *
 * Makes the current point of the history the saved one, for documents
 * saved by other means than [method@Terrain.Document.save] (which marks it
 * by itself).
 */
void
terrain_command_stack_mark_clean (TerrainCommandStack *self)
{
  State before;

  g_return_if_fail (TERRAIN_IS_COMMAND_STACK (self));

  state_save (self, &before);
  self->clean_depth = (gint64) self->undo->len + (self->group != NULL ? 1 : 0);
  self->sealed = TRUE;
  state_notify (self, &before);
}

/**
 * terrain_command_stack_clear:
 * @self: a #TerrainCommandStack
 *
 * Forgets the history (the document keeps its edits). The current point
 * stays clean if it was.
 */
void
terrain_command_stack_clear (TerrainCommandStack *self)
{
  State before;
  gboolean clean;

  g_return_if_fail (TERRAIN_IS_COMMAND_STACK (self));
  g_return_if_fail (self->action_depth == 0);

  state_save (self, &before);
  clean = terrain_command_stack_get_clean (self);
  g_ptr_array_set_size (self->undo, 0);
  g_ptr_array_set_size (self->redo, 0);
  self->clean_depth = clean ? 0 : -1;
  self->sealed = TRUE;
  state_notify (self, &before);
}

/**
 * terrain_command_stack_get_max_depth:
 * @self: a #TerrainCommandStack
 *
 * Gets the number of undo steps kept.
 *
 * Returns: the number of steps kept, 0 for all
 */
guint
terrain_command_stack_get_max_depth (TerrainCommandStack *self)
{
  g_return_val_if_fail (TERRAIN_IS_COMMAND_STACK (self), 0);

  return self->max_depth;
}

/**
 * terrain_command_stack_set_max_depth:
 * @self: a #TerrainCommandStack
 * @max_depth: the number of steps to keep, 0 for all
 *
 * Limits the history; the oldest steps beyond the limit are dropped now and
 * as new ones come.
 */
void
terrain_command_stack_set_max_depth (TerrainCommandStack *self,
                                     guint                max_depth)
{
  State before;

  g_return_if_fail (TERRAIN_IS_COMMAND_STACK (self));

  if (self->max_depth == max_depth)
    return;

  state_save (self, &before);
  self->max_depth = max_depth;
  trim (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_DEPTH]);
  state_notify (self, &before);
}
