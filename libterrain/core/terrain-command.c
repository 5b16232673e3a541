/* terrain-command.c: one undoable edit
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-command.h"
#include "terrain-command-private.h"
#include "terrain-error.h"

/**
 * TerrainCommand:
 *
 * One undoable edit of a [class@Terrain.Document]: the unit a
 * [class@Terrain.CommandStack] performs, undoes and redoes, shared by the
 * editor and the command-line tool.
 *
 * A command is made with everything it needs (the document and the edit's
 * parameters) but changes nothing until [method@Terrain.Command.apply].
 * Applying it records what it needs to undo the change;
 * [method@Terrain.Command.revert] restores the document exactly, so a file
 * that was saved before the edit saves to the same bytes again after the
 * undo. Consecutive commands of the same kind (the dabs of one brush
 * stroke) may fold into one with [method@Terrain.Command.merge].
 *
 * Format-specific commands subclass this type, for example
 * [class@Terrain.TntEdit] for Total Annihilation maps.
 */

typedef struct
{
  TerrainDocument *document;
  char *description;
  guint applied : 1;
} TerrainCommandPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TerrainCommand, terrain_command, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_DESCRIPTION,
  PROP_APPLIED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gboolean
terrain_command_real_apply (TerrainCommand  *self,
                            GError         **error)
{
  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
               "%s: the command does not implement apply", G_OBJECT_TYPE_NAME (self));
  return FALSE;
}

static void
terrain_command_real_revert (TerrainCommand *self)
{
}

static gboolean
terrain_command_real_merge (TerrainCommand *self,
                            TerrainCommand *next)
{
  return FALSE;
}

static void
terrain_command_dispose (GObject *object)
{
  TerrainCommand *self = (TerrainCommand *)object;
  TerrainCommandPrivate *priv = terrain_command_get_instance_private (self);

  g_clear_object (&priv->document);

  G_OBJECT_CLASS (terrain_command_parent_class)->dispose (object);
}

static void
terrain_command_finalize (GObject *object)
{
  TerrainCommand *self = (TerrainCommand *)object;
  TerrainCommandPrivate *priv = terrain_command_get_instance_private (self);

  g_clear_pointer (&priv->description, g_free);

  G_OBJECT_CLASS (terrain_command_parent_class)->finalize (object);
}

static void
terrain_command_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TerrainCommand *self = TERRAIN_COMMAND (object);
  TerrainCommandPrivate *priv = terrain_command_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, priv->document);
      break;
    case PROP_DESCRIPTION:
      g_value_set_string (value, priv->description);
      break;
    case PROP_APPLIED:
      g_value_set_boolean (value, priv->applied);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_command_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TerrainCommand *self = TERRAIN_COMMAND (object);
  TerrainCommandPrivate *priv = terrain_command_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      priv->document = g_value_dup_object (value);
      break;
    case PROP_DESCRIPTION:
      terrain_command_set_description (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_command_class_init (TerrainCommandClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = terrain_command_dispose;
  object_class->finalize = terrain_command_finalize;
  object_class->get_property = terrain_command_get_property;
  object_class->set_property = terrain_command_set_property;

  klass->apply = terrain_command_real_apply;
  klass->revert = terrain_command_real_revert;
  klass->merge = terrain_command_real_merge;

  /**
   * TerrainCommand:document:
   *
   * The document the command edits, or %NULL for a command that edits
   * something else (tests, groups).
   */
  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL,
                         TERRAIN_TYPE_DOCUMENT,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainCommand:description:
   *
   * A short human-readable description, for an "Undo …" menu item and the
   * command-line tool's `--dry-run` output, e.g. "Set sea level to 40".
   */
  properties[PROP_DESCRIPTION] =
    g_param_spec_string ("description", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainCommand:applied:
   *
   * Whether the command's edit is in effect: %TRUE after a successful
   * [method@Terrain.Command.apply], %FALSE again after
   * [method@Terrain.Command.revert].
   */
  properties[PROP_APPLIED] =
    g_param_spec_boolean ("applied", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
terrain_command_init (TerrainCommand *self)
{
}

/**
 * terrain_command_get_document:
 * @self: a #TerrainCommand
 *
 * Gets the document the command edits.
 *
 * Returns: (transfer none) (nullable): the document the command edits
 */
TerrainDocument *
terrain_command_get_document (TerrainCommand *self)
{
  TerrainCommandPrivate *priv = terrain_command_get_instance_private (self);

  g_return_val_if_fail (TERRAIN_IS_COMMAND (self), NULL);

  return priv->document;
}

/**
 * terrain_command_get_description:
 * @self: a #TerrainCommand
 *
 * Gets the command's description.
 *
 * Returns: (nullable): the command's description, see
 *   [property@Terrain.Command:description]
 */
const char *
terrain_command_get_description (TerrainCommand *self)
{
  TerrainCommandPrivate *priv = terrain_command_get_instance_private (self);

  g_return_val_if_fail (TERRAIN_IS_COMMAND (self), NULL);

  return priv->description;
}

/**
 * terrain_command_set_description:
 * @self: a #TerrainCommand
 * @description: (nullable): a short human-readable description
 *
 * Sets [property@Terrain.Command:description].
 */
void
terrain_command_set_description (TerrainCommand *self,
                                 const char     *description)
{
  TerrainCommandPrivate *priv = terrain_command_get_instance_private (self);

  g_return_if_fail (TERRAIN_IS_COMMAND (self));

  if (g_strcmp0 (priv->description, description) == 0)
    return;

  g_free (priv->description);
  priv->description = g_strdup (description);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DESCRIPTION]);
}

/**
 * terrain_command_get_applied:
 * @self: a #TerrainCommand
 *
 * Gets whether the command's edit is in effect.
 *
 * Returns: whether the command's edit is in effect, see
 *   [property@Terrain.Command:applied]
 */
gboolean
terrain_command_get_applied (TerrainCommand *self)
{
  TerrainCommandPrivate *priv = terrain_command_get_instance_private (self);

  g_return_val_if_fail (TERRAIN_IS_COMMAND (self), FALSE);

  return priv->applied;
}

void
terrain_command_set_applied (TerrainCommand *self,
                             gboolean        applied)
{
  TerrainCommandPrivate *priv = terrain_command_get_instance_private (self);

  g_return_if_fail (TERRAIN_IS_COMMAND (self));

  if (priv->applied == !!applied)
    return;
  priv->applied = !!applied;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_APPLIED]);
}

/**
 * terrain_command_apply:
 * @self: a #TerrainCommand that is not applied
 * @error: return location for a #GError
 *
 * Performs the edit (do, or redo after [method@Terrain.Command.revert]).
 * Usually called by [method@Terrain.CommandStack.execute] rather than
 * directly.
 *
 * Returns: %TRUE on success; %FALSE with @error set (the document is
 *   unchanged) when the edit cannot be made, for example a position outside
 *   the map
 */
gboolean
terrain_command_apply (TerrainCommand  *self,
                       GError         **error)
{
  TerrainCommandPrivate *priv = terrain_command_get_instance_private (self);

  g_return_val_if_fail (TERRAIN_IS_COMMAND (self), FALSE);
  g_return_val_if_fail (!priv->applied, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!TERRAIN_COMMAND_GET_CLASS (self)->apply (self, error))
    return FALSE;

  terrain_command_set_applied (self, TRUE);
  return TRUE;
}

/**
 * terrain_command_revert:
 * @self: an applied #TerrainCommand
 *
 * Undoes the edit: the document is left exactly as it was before the last
 * [method@Terrain.Command.apply].
 */
void
terrain_command_revert (TerrainCommand *self)
{
  TerrainCommandPrivate *priv = terrain_command_get_instance_private (self);

  g_return_if_fail (TERRAIN_IS_COMMAND (self));
  g_return_if_fail (priv->applied);

  TERRAIN_COMMAND_GET_CLASS (self)->revert (self);
  terrain_command_set_applied (self, FALSE);
}

/**
 * terrain_command_merge:
 * @self: an applied #TerrainCommand
 * @next: an applied #TerrainCommand performed right after @self
 *
 * Tries to fold @next into @self, so that one revert of @self undoes both.
 * Commands merge only with commands of their own kind that say so (for
 * [class@Terrain.TntEdit]: brush dabs of the same stroke). On success @self
 * owns what is needed to undo and redo both edits and @next must be dropped.
 *
 * Returns: %TRUE if @next was merged into @self
 */
gboolean
terrain_command_merge (TerrainCommand *self,
                       TerrainCommand *next)
{
  TerrainCommandPrivate *priv = terrain_command_get_instance_private (self);

  g_return_val_if_fail (TERRAIN_IS_COMMAND (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_COMMAND (next), FALSE);
  g_return_val_if_fail (self != next, FALSE);

  if (!priv->applied || !terrain_command_get_applied (next))
    return FALSE;
  if (terrain_command_get_document (next) != priv->document)
    return FALSE;

  return TERRAIN_COMMAND_GET_CLASS (self)->merge (self, next);
}
