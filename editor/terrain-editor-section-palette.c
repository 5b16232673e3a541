/* terrain-editor-section-palette.c: the searchable list of SCT sections to stamp
 *
 * The Stamp tool's palette: the Total Annihilation map-editor sections
 * (`.sct`) the user added (Add Sections…, drag and drop, the
 * win.add-section action), then those of the game files' sections/
 * folder (the install and archives of the first-run settings), each row
 * with its preview (the section's 128×128 minimap through the palette,
 * grey without one), name and size in tiles. Game-file sections are read
 * when their row is first shown or chosen. A search entry keeps the rows
 * whose name holds every word typed (any case). Choosing a row sets
 * #TerrainEditorSectionPalette:selected-name and the section the tool
 * stamps.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-section-palette.h"
#include "terrain-editor-map-view.h"
#include "terrain-editor-palette-list.h"

#include <glib/gi18n.h>
#include <string.h>

#define THUMBNAIL_SIZE 48

/* One row: a file the user added ("file:" URI keys) or a path of the game
 * files ("game:" keys). */
typedef struct
{
  char *name;                  /* the file name without .sct */
  char *folded;                /* name, folded, for the search */
  char *origin;                /* the path shown in the tooltip */
  GFile *file;                 /* user-added */
  char *game_path;             /* in the game files */
  TerrainSctSection *section;  /* NULL until read */
  GdkTexture *thumbnail;       /* NULL until drawn */
  char *error;                 /* why it could not be read */
} Entry;

struct _TerrainEditorSectionPalette
{
  GtkBox parent_instance;

  GtkSearchEntry *search;
  GtkLabel *count;

  GtkStringList *keys;
  GHashTable *entries;         /* key -> Entry */
  GtkCustomFilter *filter;
  GtkFilterListModel *shown;
  GtkSingleSelection *selection;
  char **words;                /* the search, folded, split */
  char *selected;              /* key */

  TerrainGameFiles *game_files;
  TerrainPalette *palette;
};

enum {
  PROP_0,
  PROP_SELECTED_NAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TerrainEditorSectionPalette, terrain_editor_section_palette, GTK_TYPE_BOX)

static void
entry_free (gpointer data)
{
  Entry *entry = data;

  g_free (entry->name);
  g_free (entry->folded);
  g_free (entry->origin);
  g_clear_object (&entry->file);
  g_free (entry->game_path);
  g_clear_object (&entry->section);
  g_clear_object (&entry->thumbnail);
  g_free (entry->error);
  g_free (entry);
}

static Entry *
entry_new (const char *basename)
{
  Entry *entry = g_new0 (Entry, 1);
  const char *dot = strrchr (basename, '.');

  entry->name = dot != NULL && g_ascii_strcasecmp (dot, ".sct") == 0 ? g_strndup (basename, dot - basename)
                                                                       : g_strdup (basename);
  entry->folded = g_utf8_casefold (entry->name, -1);
  return entry;
}

static TerrainSctSection *
read_section (GBytes  *bytes,
              GError **error)
{
  return bytes != NULL ? terrain_sct_section_new_from_bytes (bytes, NULL, error) : NULL;
}

/* Reads a game-file entry's section (once). */
static void
entry_load (TerrainEditorSectionPalette *self,
            Entry                       *entry)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  if (entry->section != NULL || entry->error != NULL)
    return;
  if (entry->game_path != NULL && self->game_files != NULL)
    bytes = terrain_game_files_read_path (self->game_files, entry->game_path, &error);
  else if (entry->file != NULL)
    bytes = g_file_load_bytes (entry->file, NULL, NULL, &error);
  entry->section = read_section (bytes, error == NULL ? &error : NULL);
  if (entry->section == NULL)
    entry->error = g_strdup (error != NULL ? error->message : _("not readable"));
}

/* The preview through the palette, or its indices as grey levels. */
static GdkTexture *
make_thumbnail (TerrainEditorSectionPalette *self,
                TerrainSctSection           *section)
{
  g_autoptr(TerrainImage) image = NULL;
  const guint8 *preview;
  guint8 *rgba;
  g_autoptr(GBytes) bytes = NULL;
  gsize n = TERRAIN_SCT_PREVIEW_SIDE * TERRAIN_SCT_PREVIEW_SIDE;

  if (self->palette != NULL)
    image = terrain_sct_section_render_preview (section, self->palette, NULL);
  if (image != NULL)
    return terrain_editor_texture_new_for_image (image);
  preview = terrain_sct_section_get_preview (section);
  if (preview == NULL)
    return NULL;
  rgba = g_malloc (n * 4);
  for (gsize i = 0; i < n; i++)
    {
      rgba[i * 4] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = preview[i];
      rgba[i * 4 + 3] = 255;
    }
  bytes = g_bytes_new_take (rgba, n * 4);
  return gdk_memory_texture_new (TERRAIN_SCT_PREVIEW_SIDE, TERRAIN_SCT_PREVIEW_SIDE, GDK_MEMORY_R8G8B8A8, bytes,
                                 TERRAIN_SCT_PREVIEW_SIDE * 4);
}

static gboolean
filter_row (gpointer item,
            gpointer user_data)
{
  TerrainEditorSectionPalette *self = user_data;
  Entry *entry = g_hash_table_lookup (self->entries, gtk_string_object_get_string (GTK_STRING_OBJECT (item)));

  if (entry == NULL)
    return FALSE;
  return terrain_editor_palette_words_match (self->words, entry->folded);
}

static void
update_count (TerrainEditorSectionPalette *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->shown));
  guint all = g_list_model_get_n_items (G_LIST_MODEL (self->keys));
  g_autofree char *text = NULL;

  if (all == 0)
    text = g_strdup (_("No sections: add .sct files, or name a Total Annihilation install in the preferences "
                       "to list its sections."));
  else
    /* TRANSLATORS: sections shown by the search, of all listed */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u section", "%u of %u sections", all),
                            shown, all);
  gtk_label_set_text (self->count, text);
}

static void
refilter (TerrainEditorSectionPalette *self)
{
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_count (self);
}

static void
on_search_changed (TerrainEditorSectionPalette *self)
{
  g_strfreev (self->words);
  self->words = terrain_editor_palette_search_words (GTK_EDITABLE (self->search));
  refilter (self);
}

static void
set_selected (TerrainEditorSectionPalette *self,
              const char                  *key)
{
  if (g_strcmp0 (self->selected, key) == 0)
    return;
  g_free (self->selected);
  self->selected = g_strdup (key);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NAME]);
}

static void
on_selection_changed (TerrainEditorSectionPalette *self)
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
  TerrainEditorSectionPalette *self = user_data;
  Entry *entry = g_hash_table_lookup (self->entries, gtk_string_object_get_string (gtk_list_item_get_item (item)));
  g_autofree char *detail = NULL;

  if (entry == NULL)
    return;
  entry_load (self, entry);
  if (entry->section != NULL && entry->thumbnail == NULL)
    entry->thumbnail = make_thumbnail (self, entry->section);
  if (entry->section != NULL)
    {
      guint w = terrain_sct_section_get_width (entry->section);
      guint h = terrain_sct_section_get_height (entry->section);

      /* TRANSLATORS: a section's size in tiles (32 pixels, 2×2 height cells each) */
      detail = g_strdup_printf (_("%u×%u tiles"), w, h);
    }
  else
    detail = g_strdup_printf (_("Could not be read: %s"), entry->error);
  terrain_editor_palette_row_set (gtk_list_item_get_child (item),
                                  entry->thumbnail != NULL ? GDK_PAINTABLE (entry->thumbnail) : NULL, entry->name,
                                  detail, entry->origin);
}

/* Selects the row of @key, shown or not. */
static void
select_key (TerrainEditorSectionPalette *self,
            const char                  *key)
{
  GListModel *shown = G_LIST_MODEL (self->shown);

  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (shown, i);

      if (g_str_equal (gtk_string_object_get_string (item), key))
        {
          gtk_single_selection_set_selected (self->selection, i);
          break;
        }
    }
  set_selected (self, key);
}

/* The position of @key in the list, or -1. */
static int
find_key (TerrainEditorSectionPalette *self,
          const char                  *key)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->keys)); i++)
    if (g_str_equal (gtk_string_list_get_string (self->keys, i), key))
      return (int) i;
  return -1;
}

/* The number of user-added rows (they come first). */
static guint
n_added (TerrainEditorSectionPalette *self)
{
  guint n = 0;

  while (n < g_list_model_get_n_items (G_LIST_MODEL (self->keys))
         && g_str_has_prefix (gtk_string_list_get_string (self->keys, n), "file:"))
    n++;
  return n;
}

/**
 * terrain_editor_section_palette_add_file:
 * @self: a section palette
 * @file: an `.sct` file
 * @error: return location for a #GError
 *
 * Reads @file, lists it after the sections added before (once: adding it
 * again reads it again) and chooses it.
 *
 * Returns: whether @file is a readable section
 */
gboolean
terrain_editor_section_palette_add_file (TerrainEditorSectionPalette *self,
                                         GFile                       *file,
                                         GError                     **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainSctSection) section = NULL;
  g_autofree char *uri = NULL;
  g_autofree char *key = NULL;
  g_autofree char *basename = NULL;
  Entry *entry;
  int at;

  g_return_val_if_fail (TERRAIN_EDITOR_IS_SECTION_PALETTE (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  bytes = g_file_load_bytes (file, NULL, NULL, error);
  section = read_section (bytes, error);
  if (section == NULL)
    return FALSE;

  uri = g_file_get_uri (file);
  key = g_strconcat ("file:", uri, NULL);
  basename = g_file_get_basename (file);
  entry = entry_new (basename);
  entry->file = g_object_ref (file);
  entry->origin = g_file_get_parse_name (file);
  entry->section = g_steal_pointer (&section);
  g_hash_table_replace (self->entries, g_strdup (key), entry);
  at = find_key (self, key);
  if (at >= 0)
    /* Rebind the row. */
    gtk_string_list_splice (self->keys, at, 1, (const char *const[]) { key, NULL });
  else
    gtk_string_list_splice (self->keys, n_added (self), 0, (const char *const[]) { key, NULL });
  refilter (self);
  /* A new section of the name chosen before is chosen anew. */
  g_clear_pointer (&self->selected, g_free);
  select_key (self, key);
  return TRUE;
}

/**
 * terrain_editor_section_palette_set_game_files:
 * @self: a section palette
 * @files: (nullable): the game's files
 *
 * Lists the sections of @files' sections/ folder after the added ones.
 */
void
terrain_editor_section_palette_set_game_files (TerrainEditorSectionPalette *self,
                                               TerrainGameFiles            *files)
{
  g_auto(GStrv) paths = NULL;
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  guint first;

  g_return_if_fail (TERRAIN_EDITOR_IS_SECTION_PALETTE (self));

  if (files == self->game_files)
    return;
  g_set_object (&self->game_files, files);
  first = n_added (self);
  for (guint i = first; i < g_list_model_get_n_items (G_LIST_MODEL (self->keys)); i++)
    g_hash_table_remove (self->entries, gtk_string_list_get_string (self->keys, i));
  paths = files != NULL ? terrain_game_files_list (files, "sections", ".sct") : NULL;
  for (guint i = 0; paths != NULL && paths[i] != NULL; i++)
    {
      const char *slash = strrchr (paths[i], '/');
      Entry *entry = entry_new (slash != NULL ? slash + 1 : paths[i]);
      char *key = g_strconcat ("game:", paths[i], NULL);

      entry->game_path = g_strdup (paths[i]);
      entry->origin = g_strdup (paths[i]);
      g_hash_table_replace (self->entries, g_strdup (key), entry);
      g_ptr_array_add (keys, key);
    }
  g_ptr_array_add (keys, NULL);
  gtk_string_list_splice (self->keys, first, g_list_model_get_n_items (G_LIST_MODEL (self->keys)) - first,
                          (const char *const *) keys->pdata);
  refilter (self);
  if (self->selected != NULL && !g_hash_table_contains (self->entries, self->selected))
    set_selected (self, NULL);
}

/**
 * terrain_editor_section_palette_set_palette:
 * @self: a section palette
 * @palette: (nullable): the palette the previews index
 *
 * Draws the thumbnails through @palette (grey levels without one).
 */
void
terrain_editor_section_palette_set_palette (TerrainEditorSectionPalette *self,
                                            TerrainPalette              *palette)
{
  GHashTableIter iter;
  Entry *entry;

  g_return_if_fail (TERRAIN_EDITOR_IS_SECTION_PALETTE (self));

  if (palette == self->palette)
    return;
  g_clear_pointer (&self->palette, terrain_palette_unref);
  self->palette = palette != NULL ? terrain_palette_ref (palette) : NULL;
  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    g_clear_object (&entry->thumbnail);
  /* Rebind the rows. */
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

void
terrain_editor_section_palette_set_search (TerrainEditorSectionPalette *self,
                                           const char                  *text)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_SECTION_PALETTE (self));

  gtk_editable_set_text (GTK_EDITABLE (self->search), text);
  /* At once, not after the search entry's delay. */
  on_search_changed (self);
}

/**
 * terrain_editor_section_palette_get_shown:
 * @self: a section palette
 *
 * Returns: (transfer none): the rows the search shows (#GtkStringObject
 *   keys)
 */
GListModel *
terrain_editor_section_palette_get_shown (TerrainEditorSectionPalette *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_SECTION_PALETTE (self), NULL);
  return G_LIST_MODEL (self->shown);
}

/**
 * terrain_editor_section_palette_select:
 * @self: a section palette
 * @name: a section's name (its file name without .sct)
 *
 * Chooses the first row the search shows named @name (any case).
 *
 * Returns: whether a row shows @name
 */
gboolean
terrain_editor_section_palette_select (TerrainEditorSectionPalette *self,
                                       const char                  *name)
{
  GListModel *shown;
  g_autofree char *folded = NULL;

  g_return_val_if_fail (TERRAIN_EDITOR_IS_SECTION_PALETTE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  folded = g_utf8_casefold (name, -1);
  shown = G_LIST_MODEL (self->shown);
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (shown, i);
      Entry *entry = g_hash_table_lookup (self->entries, gtk_string_object_get_string (item));

      if (entry != NULL && g_str_equal (entry->folded, folded))
        {
          select_key (self, gtk_string_object_get_string (item));
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * terrain_editor_section_palette_get_selected_name:
 * @self: a section palette
 *
 * Returns: (nullable): the chosen section's name
 */
const char *
terrain_editor_section_palette_get_selected_name (TerrainEditorSectionPalette *self)
{
  Entry *entry;

  g_return_val_if_fail (TERRAIN_EDITOR_IS_SECTION_PALETTE (self), NULL);

  entry = self->selected != NULL ? g_hash_table_lookup (self->entries, self->selected) : NULL;
  return entry != NULL ? entry->name : NULL;
}

/**
 * terrain_editor_section_palette_get_selected:
 * @self: a section palette
 *
 * The chosen section, read now if it was not yet.
 *
 * Returns: (transfer none) (nullable): the section, or %NULL when none is
 *   chosen or it cannot be read
 */
TerrainSctSection *
terrain_editor_section_palette_get_selected (TerrainEditorSectionPalette *self)
{
  Entry *entry;

  g_return_val_if_fail (TERRAIN_EDITOR_IS_SECTION_PALETTE (self), NULL);

  entry = self->selected != NULL ? g_hash_table_lookup (self->entries, self->selected) : NULL;
  if (entry == NULL)
    return NULL;
  entry_load (self, entry);
  return entry->section;
}

static void
terrain_editor_section_palette_get_property (GObject    *object,
                                             guint       prop_id,
                                             GValue     *value,
                                             GParamSpec *pspec)
{
  TerrainEditorSectionPalette *self = TERRAIN_EDITOR_SECTION_PALETTE (object);

  switch (prop_id)
    {
    case PROP_SELECTED_NAME:
      g_value_set_string (value, terrain_editor_section_palette_get_selected_name (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_editor_section_palette_dispose (GObject *object)
{
  TerrainEditorSectionPalette *self = TERRAIN_EDITOR_SECTION_PALETTE (object);

  g_clear_object (&self->game_files);
  g_clear_pointer (&self->palette, terrain_palette_unref);
  G_OBJECT_CLASS (terrain_editor_section_palette_parent_class)->dispose (object);
}

static void
terrain_editor_section_palette_finalize (GObject *object)
{
  TerrainEditorSectionPalette *self = TERRAIN_EDITOR_SECTION_PALETTE (object);

  g_object_unref (self->selection);
  g_hash_table_unref (self->entries);
  g_strfreev (self->words);
  g_free (self->selected);
  G_OBJECT_CLASS (terrain_editor_section_palette_parent_class)->finalize (object);
}

static void
terrain_editor_section_palette_class_init (TerrainEditorSectionPaletteClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = terrain_editor_section_palette_get_property;
  object_class->dispose = terrain_editor_section_palette_dispose;
  object_class->finalize = terrain_editor_section_palette_finalize;

  /**
   * TerrainEditorSectionPalette:selected-name:
   *
   * The name of the section chosen to stamp, or %NULL.
   */
  properties[PROP_SELECTED_NAME] =
    g_param_spec_string ("selected-name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
terrain_editor_section_palette_init (TerrainEditorSectionPalette *self)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *add = gtk_button_new_with_mnemonic (_("_Add Sections…"));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);
  self->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, entry_free);

  self->search = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  gtk_widget_set_name (GTK_WIDGET (self->search), "section-search");
  gtk_widget_set_hexpand (GTK_WIDGET (self->search), TRUE);
  g_object_set (self->search, "placeholder-text", _("Search sections by name"), NULL);
  g_signal_connect_swapped (self->search, "search-changed", G_CALLBACK (on_search_changed), self);
  gtk_widget_set_name (add, "add-sections");
  gtk_widget_set_tooltip_text (add, _("Add Total Annihilation sections (.sct files) to the list"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (add), "win.add-sections");
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->search));
  gtk_box_append (GTK_BOX (row), add);
  gtk_box_append (GTK_BOX (self), row);

  self->keys = gtk_string_list_new (NULL);
  self->filter = gtk_custom_filter_new (filter_row, self, NULL);
  self->shown = gtk_filter_list_model_new (G_LIST_MODEL (self->keys), GTK_FILTER (self->filter));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->shown));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_swapped (self->selection, "notify::selected-item", G_CALLBACK (on_selection_changed), self);

  gtk_box_append (GTK_BOX (self),
                  terrain_editor_palette_list_new (self->selection, THUMBNAIL_SIZE, G_CALLBACK (bind_row), self,
                                                   "section-palette-list"));

  self->count = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->count, 0);
  gtk_label_set_wrap (self->count, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->count), "dim-label");
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->count));
  update_count (self);
}

GtkWidget *
terrain_editor_section_palette_new (void)
{
  return g_object_new (TERRAIN_EDITOR_TYPE_SECTION_PALETTE, "name", "section-palette", NULL);
}
