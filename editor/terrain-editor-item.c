/* terrain-editor-item.c: a row of the editor's side panels
 *
 * A title, a value, optional children (any GListModel of items, so the
 * structure inspector can map a live TOC model) and an optional map
 * position for "jump to" in the findings and feature lists.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-item.h"

struct _TerrainEditorItem
{
  GObject parent_instance;

  char *title;
  char *value;
  GListModel *children;
  gboolean has_position;
  int x, y;
  gpointer data;
  GDestroyNotify destroy;
};

enum {
  PROP_0,
  PROP_TITLE,
  PROP_VALUE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TerrainEditorItem, terrain_editor_item, G_TYPE_OBJECT)

static void
terrain_editor_item_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  TerrainEditorItem *self = TERRAIN_EDITOR_ITEM (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_VALUE:
      g_value_set_string (value, self->value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_editor_item_finalize (GObject *object)
{
  TerrainEditorItem *self = TERRAIN_EDITOR_ITEM (object);

  g_free (self->title);
  g_free (self->value);
  g_clear_object (&self->children);
  if (self->destroy != NULL)
    self->destroy (self->data);

  G_OBJECT_CLASS (terrain_editor_item_parent_class)->finalize (object);
}

static void
terrain_editor_item_class_init (TerrainEditorItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = terrain_editor_item_get_property;
  object_class->finalize = terrain_editor_item_finalize;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_VALUE] =
    g_param_spec_string ("value", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
terrain_editor_item_init (TerrainEditorItem *self)
{
}

TerrainEditorItem *
terrain_editor_item_new (const char *title,
                         const char *value)
{
  TerrainEditorItem *self = g_object_new (TERRAIN_EDITOR_TYPE_ITEM, NULL);

  self->title = g_strdup (title);
  self->value = g_strdup (value);
  return self;
}

const char *
terrain_editor_item_get_title (TerrainEditorItem *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_ITEM (self), NULL);
  return self->title;
}

const char *
terrain_editor_item_get_value (TerrainEditorItem *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_ITEM (self), NULL);
  return self->value;
}

GListModel *
terrain_editor_item_get_children (TerrainEditorItem *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_ITEM (self), NULL);
  return self->children;
}

void
terrain_editor_item_set_children (TerrainEditorItem *self,
                                  GListModel        *children)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_ITEM (self));
  g_set_object (&self->children, children);
}

gboolean
terrain_editor_item_get_position (TerrainEditorItem *self,
                                  int               *x,
                                  int               *y)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_ITEM (self), FALSE);

  *x = self->x;
  *y = self->y;
  return self->has_position;
}

void
terrain_editor_item_set_position (TerrainEditorItem *self,
                                  int                x,
                                  int                y)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_ITEM (self));

  self->has_position = TRUE;
  self->x = x;
  self->y = y;
}

gpointer
terrain_editor_item_get_data (TerrainEditorItem *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_ITEM (self), NULL);
  return self->data;
}

void
terrain_editor_item_set_data (TerrainEditorItem *self,
                              gpointer           data,
                              GDestroyNotify     destroy)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_ITEM (self));

  if (self->destroy != NULL)
    self->destroy (self->data);
  self->data = data;
  self->destroy = destroy;
}
