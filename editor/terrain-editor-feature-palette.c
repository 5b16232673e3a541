/* terrain-editor-feature-palette.c: the searchable list of features to place
 *
 * The Features tool's palette: every definition of the feature catalogue
 * (the TDFs of the feature folders and archives), sorted by name, each
 * row with its sprite (when the game's GAFs are known), name, category,
 * world and footprint. A search entry keeps the rows whose name,
 * category, world or description hold every word typed (any case); a
 * drop-down keeps one world. Choosing a row sets
 * #TerrainEditorFeaturePalette:selected, the feature the tool places.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-feature-palette.h"
#include "terrain-editor-palette-list.h"

#include <glib/gi18n.h>

#define THUMBNAIL_SIZE 36

struct _TerrainEditorFeaturePalette
{
  GtkBox parent_instance;

  GtkSearchEntry *search;
  GtkDropDown *world;
  GtkStringList *worlds;
  GtkLabel *count;

  TerrainFeatureCatalog *catalog;
  GtkStringList *names;
  GtkCustomFilter *filter;
  GtkFilterListModel *shown;
  GtkSingleSelection *selection;
  /* Folded name -> what a search matches (name, category, world,
   * description, folded). */
  GHashTable *haystacks;
  char **words;            /* the search, folded, split */
  char *world_filter;      /* folded, NULL for all */
  char *selected;

  TerrainEditorSpriteFunc sprite_func;
  gpointer sprite_data;
};

enum {
  PROP_0,
  PROP_SELECTED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TerrainEditorFeaturePalette, terrain_editor_feature_palette, GTK_TYPE_BOX)

static TerrainFeatureDefinition *
lookup (TerrainEditorFeaturePalette *self,
        const char                  *name)
{
  return self->catalog != NULL ? terrain_feature_catalog_lookup (self->catalog, name) : NULL;
}

static gboolean
filter_row (gpointer item,
            gpointer user_data)
{
  TerrainEditorFeaturePalette *self = user_data;
  const char *name = gtk_string_object_get_string (GTK_STRING_OBJECT (item));
  g_autofree char *key = g_utf8_casefold (name, -1);
  const char *haystack = g_hash_table_lookup (self->haystacks, key);

  if (haystack == NULL)
    return FALSE;
  if (self->world_filter != NULL)
    {
      TerrainFeatureDefinition *definition = lookup (self, name);
      const char *world = definition != NULL ? terrain_feature_definition_get_world (definition) : NULL;
      g_autofree char *folded = world != NULL ? g_utf8_casefold (world, -1) : NULL;

      if (g_strcmp0 (folded, self->world_filter) != 0)
        return FALSE;
    }
  return terrain_editor_palette_words_match (self->words, haystack);
}

static void
update_count (TerrainEditorFeaturePalette *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->shown));
  guint all = g_list_model_get_n_items (G_LIST_MODEL (self->names));
  g_autofree char *text = NULL;

  if (all == 0)
    text = g_strdup (_("No feature definitions: add the folders or archives of the game’s features in the "
                       "preferences."));
  else
    /* TRANSLATORS: features shown by the search, of all loaded */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u feature", "%u of %u features", all),
                            shown, all);
  gtk_label_set_text (self->count, text);
}

static void
refilter (TerrainEditorFeaturePalette *self)
{
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_count (self);
}

static void
on_search_changed (TerrainEditorFeaturePalette *self)
{
  g_strfreev (self->words);
  self->words = terrain_editor_palette_search_words (GTK_EDITABLE (self->search));
  refilter (self);
}

static void
on_world_selected (TerrainEditorFeaturePalette *self)
{
  guint i = gtk_drop_down_get_selected (self->world);

  g_clear_pointer (&self->world_filter, g_free);
  if (i != GTK_INVALID_LIST_POSITION && i > 0)
    self->world_filter = g_utf8_casefold (gtk_string_list_get_string (self->worlds, i), -1);
  refilter (self);
}

static void
set_selected (TerrainEditorFeaturePalette *self,
              const char                  *name)
{
  if (g_strcmp0 (self->selected, name) == 0)
    return;
  g_free (self->selected);
  self->selected = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

static void
on_selection_changed (TerrainEditorFeaturePalette *self)
{
  GtkStringObject *item = gtk_single_selection_get_selected_item (self->selection);

  /* A search that hides the chosen row keeps the choice. */
  if (item != NULL)
    set_selected (self, gtk_string_object_get_string (item));
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          gpointer                  user_data)
{
  TerrainEditorFeaturePalette *self = user_data;
  const char *name = gtk_string_object_get_string (gtk_list_item_get_item (item));
  TerrainFeatureDefinition *definition = lookup (self, name);
  GdkTexture *texture = self->sprite_func != NULL ? self->sprite_func (name, self->sprite_data) : NULL;
  g_autoptr(GString) detail = g_string_new (NULL);
  const char *description = NULL;
  guint fw = 1, fh = 1;

  if (definition != NULL)
    {
      const char *category = terrain_feature_definition_get_category (definition);
      const char *world = terrain_feature_definition_get_world (definition);

      terrain_feature_definition_get_footprint (definition, &fw, &fh);
      if (category != NULL)
        g_string_append_printf (detail, "%s · ", category);
      if (world != NULL)
        g_string_append_printf (detail, "%s · ", world);
      g_string_append_printf (detail, "%u×%u", fw, fh);
      description = terrain_feature_definition_get_description (definition);
    }
  terrain_editor_palette_row_set (gtk_list_item_get_child (item), texture != NULL ? GDK_PAINTABLE (texture) : NULL,
                                  name, detail->str, description);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_utf8_collate (*(const char *const *) a, *(const char *const *) b);
}

/**
 * terrain_editor_feature_palette_set_catalog:
 * @self: a feature palette
 * @catalog: (nullable): the definitions to list
 *
 * Lists the definitions of @catalog, keeping the search, the world and
 * the choice.
 */
void
terrain_editor_feature_palette_set_catalog (TerrainEditorFeaturePalette *self,
                                            TerrainFeatureCatalog       *catalog)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GHashTable) worlds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) world_names = g_ptr_array_new ();
  g_autofree char *world = NULL;
  guint n = catalog != NULL ? terrain_feature_catalog_get_n_features (catalog) : 0;
  guint keep_world = 0;

  g_return_if_fail (TERRAIN_EDITOR_IS_FEATURE_PALETTE (self));

  g_set_object (&self->catalog, catalog);
  g_hash_table_remove_all (self->haystacks);
  for (guint i = 0; i < n; i++)
    {
      TerrainFeatureDefinition *definition = terrain_feature_catalog_get_feature (catalog, i);
      const char *name = terrain_feature_definition_get_name (definition);
      const char *w = terrain_feature_definition_get_world (definition);
      g_autofree char *all = g_strjoin ("\n", name, terrain_feature_definition_get_category (definition) ?: "",
                                        w ?: "", terrain_feature_definition_get_description (definition) ?: "",
                                        NULL);
      char *key = g_utf8_casefold (name, -1);

      /* The catalogue's lookup keeps the first definition of a name. */
      if (g_hash_table_contains (self->haystacks, key))
        {
          g_free (key);
          continue;
        }
      g_hash_table_insert (self->haystacks, key, g_utf8_casefold (all, -1));
      g_ptr_array_add (names, (gpointer) name);
      if (w != NULL && w[0] != '\0')
        {
          char *folded = g_utf8_casefold (w, -1);

          if (!g_hash_table_contains (worlds, folded))
            {
              g_hash_table_add (worlds, folded);
              g_ptr_array_add (world_names, (gpointer) w);
            }
          else
            g_free (folded);
        }
    }
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_sort (world_names, compare_names);
  g_ptr_array_add (names, NULL);

  /* The worlds, All first; the one chosen stays chosen. */
  world = g_strdup (self->world_filter);
  g_signal_handlers_block_by_func (self->world, on_world_selected, self);
  gtk_string_list_splice (self->worlds, 1, g_list_model_get_n_items (G_LIST_MODEL (self->worlds)) - 1, NULL);
  for (guint i = 0; i < world_names->len; i++)
    {
      g_autofree char *folded = g_utf8_casefold (g_ptr_array_index (world_names, i), -1);

      gtk_string_list_append (self->worlds, g_ptr_array_index (world_names, i));
      if (g_strcmp0 (folded, world) == 0)
        keep_world = i + 1;
    }
  gtk_drop_down_set_selected (self->world, keep_world);
  g_signal_handlers_unblock_by_func (self->world, on_world_selected, self);
  g_clear_pointer (&self->world_filter, g_free);
  if (keep_world > 0)
    self->world_filter = g_steal_pointer (&world);

  gtk_string_list_splice (self->names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->names)),
                          (const char *const *) names->pdata);
  refilter (self);
  if (self->selected != NULL)
    {
      g_autofree char *keep = g_strdup (self->selected);

      terrain_editor_feature_palette_select (self, keep);
    }
}

/**
 * terrain_editor_feature_palette_set_sprite_func:
 * @self: a feature palette
 * @func: (nullable): gives a feature's sprite texture
 * @user_data: data for @func
 *
 * Shows each row's sprite from @func (the map view's cache).
 */
void
terrain_editor_feature_palette_set_sprite_func (TerrainEditorFeaturePalette *self,
                                                TerrainEditorSpriteFunc      func,
                                                gpointer                     user_data)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_FEATURE_PALETTE (self));

  self->sprite_func = func;
  self->sprite_data = user_data;
  /* Rebind the rows. */
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

void
terrain_editor_feature_palette_set_search (TerrainEditorFeaturePalette *self,
                                           const char                  *text)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_FEATURE_PALETTE (self));

  gtk_editable_set_text (GTK_EDITABLE (self->search), text);
  /* At once, not after the search entry's delay. */
  on_search_changed (self);
}

/**
 * terrain_editor_feature_palette_set_world:
 * @self: a feature palette
 * @world: (nullable): a world of the catalogue (`world=` of the TDFs), or
 *   %NULL for all
 *
 * Keeps the features of @world only.
 */
void
terrain_editor_feature_palette_set_world (TerrainEditorFeaturePalette *self,
                                          const char                  *world)
{
  g_autofree char *folded = world != NULL ? g_utf8_casefold (world, -1) : NULL;

  g_return_if_fail (TERRAIN_EDITOR_IS_FEATURE_PALETTE (self));

  for (guint i = 1; folded != NULL && i < g_list_model_get_n_items (G_LIST_MODEL (self->worlds)); i++)
    {
      g_autofree char *w = g_utf8_casefold (gtk_string_list_get_string (self->worlds, i), -1);

      if (g_str_equal (w, folded))
        {
          gtk_drop_down_set_selected (self->world, i);
          return;
        }
    }
  gtk_drop_down_set_selected (self->world, 0);
}

/**
 * terrain_editor_feature_palette_get_shown:
 * @self: a feature palette
 *
 * Returns: (transfer none): the names the search shows (#GtkStringObject)
 */
GListModel *
terrain_editor_feature_palette_get_shown (TerrainEditorFeaturePalette *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_FEATURE_PALETTE (self), NULL);
  return G_LIST_MODEL (self->shown);
}

/**
 * terrain_editor_feature_palette_select:
 * @self: a feature palette
 * @name: a feature name
 *
 * Chooses @name (its row, when the search shows it).
 *
 * Returns: whether a row shows @name
 */
gboolean
terrain_editor_feature_palette_select (TerrainEditorFeaturePalette *self,
                                       const char                  *name)
{
  GListModel *shown;

  g_return_val_if_fail (TERRAIN_EDITOR_IS_FEATURE_PALETTE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  shown = G_LIST_MODEL (self->shown);
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (shown, i);

      if (g_ascii_strcasecmp (gtk_string_object_get_string (item), name) == 0)
        {
          gtk_single_selection_set_selected (self->selection, i);
          set_selected (self, gtk_string_object_get_string (item));
          return TRUE;
        }
    }
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  set_selected (self, name);
  return FALSE;
}

/**
 * terrain_editor_feature_palette_get_selected:
 * @self: a feature palette
 *
 * Returns: (nullable): the chosen feature's name
 */
const char *
terrain_editor_feature_palette_get_selected (TerrainEditorFeaturePalette *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_FEATURE_PALETTE (self), NULL);
  return self->selected;
}

static void
terrain_editor_feature_palette_get_property (GObject    *object,
                                             guint       prop_id,
                                             GValue     *value,
                                             GParamSpec *pspec)
{
  TerrainEditorFeaturePalette *self = TERRAIN_EDITOR_FEATURE_PALETTE (object);

  switch (prop_id)
    {
    case PROP_SELECTED:
      g_value_set_string (value, self->selected);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_editor_feature_palette_dispose (GObject *object)
{
  TerrainEditorFeaturePalette *self = TERRAIN_EDITOR_FEATURE_PALETTE (object);

  g_clear_object (&self->catalog);
  self->sprite_func = NULL;
  G_OBJECT_CLASS (terrain_editor_feature_palette_parent_class)->dispose (object);
}

static void
terrain_editor_feature_palette_finalize (GObject *object)
{
  TerrainEditorFeaturePalette *self = TERRAIN_EDITOR_FEATURE_PALETTE (object);

  g_object_unref (self->selection);
  g_object_unref (self->worlds);
  g_hash_table_unref (self->haystacks);
  g_strfreev (self->words);
  g_free (self->world_filter);
  g_free (self->selected);
  G_OBJECT_CLASS (terrain_editor_feature_palette_parent_class)->finalize (object);
}

static void
terrain_editor_feature_palette_class_init (TerrainEditorFeaturePaletteClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = terrain_editor_feature_palette_get_property;
  object_class->dispose = terrain_editor_feature_palette_dispose;
  object_class->finalize = terrain_editor_feature_palette_finalize;

  /**
   * TerrainEditorFeaturePalette:selected:
   *
   * The name of the feature chosen to place, or %NULL.
   */
  properties[PROP_SELECTED] =
    g_param_spec_string ("selected", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
terrain_editor_feature_palette_init (TerrainEditorFeaturePalette *self)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);
  self->haystacks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  self->search = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  gtk_widget_set_name (GTK_WIDGET (self->search), "feature-search");
  gtk_widget_set_hexpand (GTK_WIDGET (self->search), TRUE);
  g_object_set (self->search, "placeholder-text", _("Search by name, category or world"), NULL);
  g_signal_connect_swapped (self->search, "search-changed", G_CALLBACK (on_search_changed), self);

  self->worlds = gtk_string_list_new ((const char *[]) { _("All worlds"), NULL });
  self->world = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->worlds)), NULL));
  gtk_widget_set_name (GTK_WIDGET (self->world), "feature-world");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->world), _("The world (TDF world=) of the features listed"));
  g_signal_connect_swapped (self->world, "notify::selected", G_CALLBACK (on_world_selected), self);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->search));
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->world));
  gtk_box_append (GTK_BOX (self), row);

  self->names = gtk_string_list_new (NULL);
  self->filter = gtk_custom_filter_new (filter_row, self, NULL);
  self->shown = gtk_filter_list_model_new (G_LIST_MODEL (self->names), GTK_FILTER (self->filter));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->shown));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_swapped (self->selection, "notify::selected-item", G_CALLBACK (on_selection_changed), self);

  gtk_box_append (GTK_BOX (self),
                  terrain_editor_palette_list_new (self->selection, THUMBNAIL_SIZE, G_CALLBACK (bind_row), self,
                                                   "feature-palette-list"));

  self->count = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->count, 0);
  gtk_label_set_wrap (self->count, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->count), "dim-label");
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->count));
  update_count (self);
}

GtkWidget *
terrain_editor_feature_palette_new (void)
{
  return g_object_new (TERRAIN_EDITOR_TYPE_FEATURE_PALETTE, NULL);
}
