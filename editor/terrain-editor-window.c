/* terrain-editor-window.c
 *
 * One document per window: the 2D map view and the 3D view side by side in
 * a notebook, the side panels (tools, structure, features, findings,
 * properties) and the window actions. Every edit is a TerrainCommand run
 * through the document's TerrainCommandStack, so undo, redo and the
 * unsaved-changes state come from the library.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-window.h"
#include "terrain-editor-item.h"
#include "terrain-editor-map-view.h"
#include "terrain-editor-gl-view.h"

#include <glib/gi18n.h>
#include <math.h>

/* The tools of the Tools tab, in button order (tools[] below). */
#define N_TOOLS 7

/* Continuous changes of the sea-level control within this many
 * microseconds of each other form one undo step. */
#define SEA_LEVEL_MERGE_USEC (2 * G_USEC_PER_SEC)

struct _TerrainEditorWindow
{
  GtkApplicationWindow parent_instance;

  /* Template children */
  GtkInfoBar *info_bar;
  GtkLabel *info_label;
  GtkStack *main_stack;
  GtkSpinner *spinner;
  GtkLabel *title_label;
  GtkLabel *subtitle_label;
  GtkNotebook *view_notebook;
  GtkNotebook *side_notebook;
  TerrainEditorMapView *map_view;
  GtkBox *gl_box;
  GtkOverlay *gl_overlay;
  GtkWidget *chunk_levels_button;
  GtkLabel *chunk_levels_label;
  GtkLabel *gl_empty_label;
  GtkGrid *tool_buttons;
  GtkWidget *tool_button[N_TOOLS];
  GtkStack *tool_stack;
  GtkAdjustment *sea_adjustment;
  GtkAdjustment *radius_adjustment;
  GtkAdjustment *strength_adjustment;
  GtkAdjustment *level_adjustment;
  GtkAdjustment *tile_adjustment;
  GtkDropDown *brush_mode;
  GtkDropDown *brush_falloff;
  GtkEntry *feature_entry;
  GtkPicture *tile_picture;
  GtkGridView *tile_grid;
  GtkBox *atlas_box;
  GtkListView *structure_list;
  GtkListView *feature_list;
  GtkListView *findings_list;
  GtkLabel *findings_tab_label;
  GtkLabel *properties_label;
  GtkLabel *status_label;
  GMenu *recent_menu;

  GtkWidget *gl_view;

  /* Document */
  GFile *file;
  TerrainDocument *document;
  TerrainCommandStack *stack;
  TerrainOtaFile *ota;
  GCancellable *cancellable;
  char *error_message;
  gboolean busy;
  gboolean force_close;
  gboolean closing_after_save;

  /* Tools */
  char *tool;
  gboolean show_grid;
  gboolean show_features;
  gboolean show_contours;
  gboolean show_voids;
  gboolean show_start_positions;
  gboolean show_chunk_levels;

  gboolean updating_sea_level;
  TerrainCommand *sea_level_command;
  gint64 sea_level_time;

  guint stroke;
  gboolean stroking;
  double last_dab_x, last_dab_y;

  gboolean moving_feature;
  int move_from_x, move_from_y;
  int press_x, press_y;
  gboolean have_selection;
  int selected_x, selected_y;

  GPtrArray *tile_textures;
};

enum {
  PROP_0,
  PROP_TOOL,
  PROP_SHOW_GRID,
  PROP_SHOW_FEATURES,
  PROP_SHOW_CONTOURS,
  PROP_SHOW_VOIDS,
  PROP_SHOW_START_POSITIONS,
  PROP_SHOW_CHUNK_LEVELS,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TerrainEditorWindow, terrain_editor_window, GTK_TYPE_APPLICATION_WINDOW)

static const struct { const char *id; const char *label; const char *icon; } tools[] = {
  { "inspect", N_("Inspect"), "find-location-symbolic" },
  { "sea-level", N_("Sea Level"), "weather-showers-symbolic" },
  { "brush", N_("Heights"), "applications-graphics-symbolic" },
  { "features", N_("Features"), "emblem-favorite-symbolic" },
  { "void", N_("Voids"), "action-unavailable-symbolic" },
  { "tiles", N_("Tiles"), "view-grid-symbolic" },
  { "atlas", N_("Atlas"), "image-x-generic-symbolic" },
};

G_STATIC_ASSERT (G_N_ELEMENTS (tools) == N_TOOLS);

static TerrainEditorApplication *
get_app (TerrainEditorWindow *self)
{
  return TERRAIN_EDITOR_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
}

static TerrainTntMap *
get_tnt (TerrainEditorWindow *self)
{
  return TERRAIN_IS_TNT_MAP (self->document) ? TERRAIN_TNT_MAP (self->document) : NULL;
}

static TerrainPalette *
get_palette (TerrainEditorWindow *self)
{
  TerrainEditorApplication *app = get_app (self);

  return app != NULL ? terrain_editor_application_get_palette (app) : NULL;
}

static TerrainFeatureCatalog *
get_catalog (TerrainEditorWindow *self)
{
  TerrainEditorApplication *app = get_app (self);

  return app != NULL ? terrain_editor_application_get_catalog (app) : NULL;
}

/* Whether @tool edits the open document: the Atlas tool Atlas files, the
 * others but Inspect TNT maps. */
static gboolean
tool_applies (TerrainEditorWindow *self,
              const char          *tool)
{
  if (self->document == NULL)
    return FALSE;
  if (g_strcmp0 (tool, "inspect") == 0)
    return TRUE;
  if (g_strcmp0 (tool, "atlas") == 0)
    return TERRAIN_IS_ATLAS_FILE (self->document);
  return get_tnt (self) != NULL;
}

/* ------------------------------------------------------------------------ */
/* Messages                                                                 */

void
terrain_editor_window_show_error (TerrainEditorWindow *self,
                                  const char          *message)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_WINDOW (self));

  g_free (self->error_message);
  self->error_message = g_strdup (message);
  gtk_info_bar_set_message_type (self->info_bar, GTK_MESSAGE_ERROR);
  gtk_label_set_text (self->info_label, message);
  gtk_info_bar_set_revealed (self->info_bar, TRUE);
}

static void
show_info (TerrainEditorWindow *self,
           const char          *message)
{
  gtk_info_bar_set_message_type (self->info_bar, GTK_MESSAGE_INFO);
  gtk_label_set_text (self->info_label, message);
  gtk_info_bar_set_revealed (self->info_bar, TRUE);
}

const char *
terrain_editor_window_get_error_message (TerrainEditorWindow *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_WINDOW (self), NULL);
  return self->error_message;
}

static void
on_info_bar_response (TerrainEditorWindow *self)
{
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
}

static gboolean
execute (TerrainEditorWindow *self,
         TerrainCommand      *command)
{
  g_autoptr(GError) error = NULL;

  if (self->stack == NULL || command == NULL)
    return FALSE;
  if (!terrain_command_stack_execute (self->stack, command, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Could not %s: %s"),
                                                  terrain_command_get_description (command),
                                                  error->message);

      terrain_editor_window_show_error (self, message);
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Title and action state                                                   */

static const char *
format_description (TerrainDocument *document)
{
  return terrain_format_get_description (terrain_document_get_format (document));
}

static void
update_title (TerrainEditorWindow *self)
{
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  gboolean dirty = self->stack != NULL && !terrain_command_stack_get_clean (self->stack);

  if (self->file == NULL)
    {
      gtk_label_set_text (self->title_label, _("Terrain Editor"));
      gtk_window_set_title (GTK_WINDOW (self), _("Terrain Editor"));
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), FALSE);
      return;
    }

  name = g_file_get_basename (self->file);
  title = dirty ? g_strdup_printf ("• %s", name) : g_strdup (name);
  gtk_label_set_text (self->title_label, title);
  gtk_window_set_title (GTK_WINDOW (self), title);
  if (self->document != NULL)
    {
      g_autofree char *parent = NULL;
      g_autoptr(GFile) dir = g_file_get_parent (self->file);
      g_autofree char *subtitle = NULL;

      parent = dir != NULL ? g_file_get_parse_name (dir) : NULL;
      if (parent != NULL)
        /* Translators: the file's format, then the folder it is in. */
        subtitle = g_strdup_printf (_("%s — %s"), format_description (self->document), parent);
      else
        subtitle = g_strdup (format_description (self->document));
      gtk_label_set_text (self->subtitle_label, subtitle);
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), TRUE);
    }
}

static void
update_actions (TerrainEditorWindow *self)
{
  gboolean has_doc = self->document != NULL;
  gboolean tnt = get_tnt (self) != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save", has_doc);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-as", has_doc);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.undo",
                                 self->stack != NULL && terrain_command_stack_get_can_undo (self->stack));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.redo",
                                 self->stack != NULL && terrain_command_stack_get_can_redo (self->stack));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.import-image", tnt && get_palette (self) != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.regenerate-minimap", tnt && get_palette (self) != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.validate", has_doc);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.delete-feature", tnt);
  /* Chunk levels are those of Atlas files. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-chunk-levels",
                                 has_doc && TERRAIN_IS_ATLAS_FILE (self->document));
  gtk_widget_set_visible (self->chunk_levels_button, has_doc && TERRAIN_IS_ATLAS_FILE (self->document));
  for (guint i = 0; i < N_TOOLS; i++)
    gtk_widget_set_sensitive (self->tool_button[i], tool_applies (self, tools[i].id));
}

static void
on_stack_changed (TerrainEditorWindow *self)
{
  update_title (self);
  update_actions (self);
}

/* ------------------------------------------------------------------------ */
/* Panels                                                                   */

static TerrainEditorItem *item_from_json (const char *title, JsonNode *node);

static GListModel *
items_from_json_object (JsonObject *object)
{
  GListStore *store = g_list_store_new (TERRAIN_EDITOR_TYPE_ITEM);
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  /* In the order the library wrote them, as `terrain info` shows them. */
  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &name, &member))
    {
      g_autoptr(TerrainEditorItem) item = item_from_json (name, member);

      g_list_store_append (store, item);
    }
  return G_LIST_MODEL (store);
}

static TerrainEditorItem *
item_from_json (const char *title,
                JsonNode   *node)
{
  TerrainEditorItem *item;

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autoptr(GListModel) children = items_from_json_object (json_node_get_object (node));

      item = terrain_editor_item_new (title, NULL);
      terrain_editor_item_set_children (item, children);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      GListStore *store = g_list_store_new (TERRAIN_EDITOR_TYPE_ITEM);
      g_autofree char *count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u entry", "%u entries",
                                                             json_array_get_length (array)),
                                                json_array_get_length (array));

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);
          g_autofree char *name = NULL;
          g_autoptr(TerrainEditorItem) child = NULL;

          if (JSON_NODE_HOLDS_OBJECT (element)
              && json_object_has_member (json_node_get_object (element), "name")
              && JSON_NODE_HOLDS_VALUE (json_object_get_member (json_node_get_object (element), "name")))
            name = g_strdup_printf ("%u: %s", i,
                                    json_object_get_string_member_with_default (json_node_get_object (element),
                                                                                "name", ""));
          else
            name = g_strdup_printf ("%u", i);
          child = item_from_json (name, element);
          g_list_store_append (store, child);
        }
      item = terrain_editor_item_new (title, count);
      terrain_editor_item_set_children (item, G_LIST_MODEL (store));
      g_object_unref (store);
    }
  else if (JSON_NODE_HOLDS_NULL (node))
    item = terrain_editor_item_new (title, "null");
  else
    {
      GValue value = G_VALUE_INIT;
      g_autofree char *text = NULL;

      json_node_get_value (node, &value);
      if (G_VALUE_HOLDS_STRING (&value))
        text = g_value_dup_string (&value);
      else if (G_VALUE_HOLDS_BOOLEAN (&value))
        text = g_strdup (g_value_get_boolean (&value) ? "true" : "false");
      else if (G_VALUE_HOLDS_INT64 (&value))
        text = g_strdup_printf ("%" G_GINT64_FORMAT, g_value_get_int64 (&value));
      else if (G_VALUE_HOLDS_DOUBLE (&value))
        text = g_strdup_printf ("%g", g_value_get_double (&value));
      else
        text = g_strdup ("?");
      g_value_unset (&value);
      item = terrain_editor_item_new (title, text);
    }
  return item;
}

static gpointer
map_stub_to_item (gpointer item,
                  gpointer user_data)
{
  g_autoptr(TerrainAtlasStub) stub = item;
  g_autofree char *title = NULL;
  g_autofree char *value = NULL;
  g_autofree char *name = terrain_atlas_stub_dup_name (stub);
  TerrainAtlasBox box;
  guint level;
  guint32 x, y;
  GString *text = g_string_new (NULL);
  TerrainEditorItem *result;

  if (terrain_atlas_stub_get_node (stub, &level, &x, &y))
    title = g_strdup_printf (_("Stub %u (level %u, %u, %u)"), terrain_atlas_stub_get_index (stub),
                             level, x, y);
  else if (name != NULL)
    title = g_strdup_printf (_("Stub %u “%s”"), terrain_atlas_stub_get_index (stub), name);
  else
    title = g_strdup_printf (_("Stub %u"), terrain_atlas_stub_get_index (stub));

  if (terrain_atlas_stub_has_chunk (stub))
    g_string_append_printf (text, _("chunk at %u, %u bytes, generation %u"),
                            terrain_atlas_stub_get_offset (stub), terrain_atlas_stub_get_length (stub),
                            terrain_atlas_stub_get_generation (stub));
  else
    g_string_append (text, _("no chunk"));
  if (terrain_atlas_stub_get_bounds (stub, &box))
    g_string_append_printf (text, _("; bounds (%g, %g, %g)–(%g, %g, %g)"),
                            box.min[0], box.min[1], box.min[2], box.max[0], box.max[1], box.max[2]);
  value = g_string_free (text, FALSE);
  result = terrain_editor_item_new (title, value);
  /* Selecting the row highlights the stub (on_structure_selected). */
  terrain_editor_item_set_data (result, g_object_ref (stub), g_object_unref);
  return result;
}

static gpointer
map_toc_to_item (gpointer item,
                 gpointer user_data)
{
  g_autoptr(TerrainAtlasToc) toc = item;
  g_autofree char *value = g_strdup_printf (_("%u stubs, depth %u, version %u"),
                                            g_list_model_get_n_items (G_LIST_MODEL (toc)),
                                            terrain_atlas_toc_get_tree_depth (toc),
                                            terrain_atlas_toc_get_version (toc));
  TerrainEditorItem *result = terrain_editor_item_new (terrain_atlas_toc_get_tag (toc), value);
  g_autoptr(GtkMapListModel) stubs = gtk_map_list_model_new (g_object_ref (G_LIST_MODEL (toc)),
                                                             map_stub_to_item, NULL, NULL);

  terrain_editor_item_set_children (result, G_LIST_MODEL (stubs));
  return result;
}

static GListModel *
structure_children (gpointer item,
                    gpointer user_data)
{
  GListModel *children = terrain_editor_item_get_children (item);

  return children != NULL ? g_object_ref (children) : NULL;
}

/* The files of an HPI archive; those libterrain opens carry the GFile
 * (ARCHIVE:path, as terrain_document_load_path() names them) that
 * activating their row opens. */
static TerrainEditorItem *
archive_files_item (TerrainEditorWindow *self,
                    TerrainHpiArchive   *archive)
{
  g_autofree char *archive_path = self->file != NULL ? g_file_get_path (self->file) : NULL;
  guint n = terrain_hpi_archive_get_n_files (archive);
  g_autofree char *count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u file", "%u files", n),
                                            n);
  g_autoptr(GListStore) files = g_list_store_new (TERRAIN_EDITOR_TYPE_ITEM);
  TerrainEditorItem *result = terrain_editor_item_new (_("Files in the archive"), count);

  for (guint i = 0; i < n; i++)
    {
      const char *path = terrain_hpi_archive_get_path (archive, i);
      guint32 size = terrain_hpi_archive_get_file_size (archive, i);
      TerrainFormat format = terrain_format_detect (NULL, path);
      gboolean opens = format != TERRAIN_FORMAT_UNKNOWN && terrain_format_can_load (format);
      g_autoptr(TerrainEditorItem) item = NULL;
      g_autofree char *value = NULL;

      if (archive_path != NULL && opens)
        {
          g_autofree char *spec = g_strconcat (archive_path, ":", path, NULL);

          value = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u byte; double-click to open",
                                                "%u bytes; double-click to open", size), size);
          item = terrain_editor_item_new (path, value);
          terrain_editor_item_set_data (item, g_file_new_for_path (spec), g_object_unref);
        }
      else
        {
          value = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u byte", "%u bytes", size),
                                   size);
          item = terrain_editor_item_new (path, value);
        }
      g_list_store_append (files, item);
    }
  terrain_editor_item_set_children (result, G_LIST_MODEL (files));
  return result;
}

/* The chunks of a CHU file, in stub order, with where they are. */
static TerrainEditorItem *
chu_chunks_item (TerrainChuFile *chu)
{
  guint n = terrain_chu_file_get_n_stubs (chu);
  g_autofree char *count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u chunk", "%u chunks",
                                                         n), n);
  g_autoptr(GListStore) chunks = g_list_store_new (TERRAIN_EDITOR_TYPE_ITEM);
  TerrainEditorItem *result = terrain_editor_item_new (_("Chunks"), count);

  for (guint i = 0; i < n; i++)
    {
      const TerrainChuStub *stub = terrain_chu_file_get_stub (chu, i);
      g_autofree char *title = g_strdup_printf (_("Chunk %u (level %u, %d, %d)"), i, stub->level,
                                                stub->x, stub->y);
      g_autofree char *value =
        g_strdup_printf (_("label %d, chunk at %u, %lu bytes; stub at %lu; heights %d to %d"),
                         stub->label, stub->chunk_offset, (gulong) stub->chunk_size,
                         (gulong) stub->record_offset, stub->min_z, stub->max_z);
      g_autoptr(TerrainEditorItem) item = terrain_editor_item_new (title, value);

      g_list_store_append (chunks, item);
    }
  terrain_editor_item_set_children (result, G_LIST_MODEL (chunks));
  return result;
}

/* The tiles of a TQT file, in table order. */
static TerrainEditorItem *
tqt_tiles_item (TerrainTqtFile *tqt)
{
  guint n = terrain_tqt_file_get_n_tiles (tqt);
  g_autofree char *count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u tile", "%u tiles", n),
                                            n);
  g_autoptr(GListStore) tiles = g_list_store_new (TERRAIN_EDITOR_TYPE_ITEM);
  TerrainEditorItem *result = terrain_editor_item_new (_("Tiles"), count);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *title = g_strdup_printf (_("Tile %u"), i);
      g_autofree char *value = NULL;
      g_autoptr(TerrainEditorItem) item = NULL;
      guint32 width = 0, height = 0;
      gsize offset, size;

      terrain_tqt_file_get_tile_span (tqt, i, &offset, &size);
      if (terrain_tqt_file_get_tile_dimensions (tqt, i, &width, &height))
        value = g_strdup_printf (_("at %lu, %lu bytes, %u×%u pixels"),
                                 (gulong) offset, (gulong) size, width, height);
      else
        value = g_strdup_printf (_("at %lu, %lu bytes"), (gulong) offset, (gulong) size);
      item = terrain_editor_item_new (title, value);
      g_list_store_append (tiles, item);
    }
  terrain_editor_item_set_children (result, G_LIST_MODEL (tiles));
  return result;
}

/* ------------------------------------------------------------------------ */
/* Atlas stubs: selected in the Structure tab (or the Atlas tool's tile
 * list), a stub's box is highlighted in the 3D view and outlined in the 2D
 * view, and the Properties tab describes it, decoding its chunk.           */

static gint
atlas_toc_slot (TerrainAtlasFile *atlas,
                TerrainAtlasToc  *toc)
{
  for (guint t = 0; t < terrain_atlas_file_get_n_tocs (atlas); t++)
    if (terrain_atlas_file_get_toc (atlas, t) == toc)
      return (gint) t;
  return -1;
}

static void
append_box (GString               *text,
            const char            *label,
            const TerrainAtlasBox *box)
{
  g_string_append_printf (text, "%s (%g, %g, %g) – (%g, %g, %g)\n", label,
                          box->min[0], box->min[1], box->min[2], box->max[0], box->max[1], box->max[2]);
}

/* What the Properties tab says about a stub: where it is in its tree, its
 * bounds and chunk, and what the chunk holds (decoded now, once). */
static char *
describe_atlas_stub (TerrainAtlasFile *atlas,
                     TerrainAtlasStub *stub)
{
  TerrainAtlasToc *toc = terrain_atlas_stub_get_toc (stub);
  gint slot = atlas_toc_slot (atlas, toc);
  guint index = terrain_atlas_stub_get_index (stub);
  GString *text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  TerrainAtlasBox box;
  gboolean have_bounds;
  guint level;
  guint32 x, y;

  switch (terrain_atlas_toc_get_kind (toc))
    {
    case TERRAIN_ATLAS_TOC_GEOMETRY:
      g_string_append_printf (text, _("Geometry stub %u of TOC %d"), index, slot);
      break;
    case TERRAIN_ATLAS_TOC_TEXTURE:
      g_string_append_printf (text, _("Texture stub %u of TOC %d"), index, slot);
      break;
    case TERRAIN_ATLAS_TOC_CONFIG:
    default:
      g_string_append_printf (text, _("Config stub %u of TOC %d"), index, slot);
      break;
    }
  g_string_append_c (text, '\n');
  if (terrain_atlas_stub_get_node (stub, &level, &x, &y))
    {
      g_string_append_printf (text, _("Level: %u"), level);
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Position: %u, %u"), x, y);
      g_string_append_c (text, '\n');
    }
  have_bounds = terrain_atlas_stub_get_bounds (stub, &box);
  if (have_bounds)
    append_box (text, _("Bounds:"), &box);
  else if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_TEXTURE &&
           terrain_editor_atlas_get_stub_box (atlas, stub, &box))
    append_box (text, _("Covers:"), &box);
  if (terrain_atlas_stub_has_chunk (stub))
    {
      g_string_append_printf (text, _("Chunk: offset %u, %u bytes"), terrain_atlas_stub_get_offset (stub),
                              terrain_atlas_stub_get_length (stub));
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Generation: %u"), terrain_atlas_stub_get_generation (stub));
      g_string_append_c (text, '\n');
    }
  else
    {
      g_string_append_printf (text, "%s\n", _("No chunk"));
      return g_strchomp (g_string_free (text, FALSE));
    }

  if (slot < 0)
    return g_strchomp (g_string_free (text, FALSE));
  if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_GEOMETRY)
    {
      g_autoptr(TerrainAtlasGeometry) geometry = terrain_atlas_file_get_geometry (atlas, (guint) slot, index,
                                                                                &error);

      if (geometry != NULL)
        {
          guint n_indices = terrain_atlas_geometry_get_n_indices (geometry);
          guint skirt = MIN (n_indices, terrain_atlas_geometry_get_skirt_skip_count (geometry));

          g_string_append_printf (text, _("Vertices: %u"), terrain_atlas_geometry_get_n_vertices (geometry));
          g_string_append_c (text, '\n');
          g_string_append_printf (text, _("Triangles: %u (%u surface, %u skirt)"), n_indices / 3,
                                  (n_indices - skirt) / 3, skirt / 3);
          g_string_append_c (text, '\n');
          if (!have_bounds && terrain_atlas_geometry_compute_bounds (geometry, &box))
            append_box (text, _("Bounds (from the chunk):"), &box);
        }
    }
  else if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_TEXTURE)
    {
      g_autoptr(TerrainAtlasTexture) texture = terrain_atlas_file_get_texture (atlas, (guint) slot, index, &error);
      guint width = 0, height = 0;

      if (texture != NULL && terrain_atlas_texture_get_size (texture, &width, &height, &error))
        {
          g_string_append_printf (text, _("Image: %s, %u × %u pixels"),
                                  terrain_atlas_texture_get_extension (texture), width, height);
          g_string_append_c (text, '\n');
        }
    }
  else
    {
      g_autoptr(TerrainAtlasConfig) config = terrain_atlas_file_get_config (atlas, (guint) slot, index, &error);

      if (config != NULL)
        {
          g_string_append_printf (text, _("Entries: %u"), terrain_atlas_config_get_n_entries (config));
          g_string_append_c (text, '\n');
        }
    }
  if (error != NULL)
    {
      g_string_append_printf (text, _("The chunk does not decode: %s"), error->message);
      g_string_append_c (text, '\n');
    }
  return g_strchomp (g_string_free (text, FALSE));
}

/* Highlights @stub (or nothing, for %NULL); @frame: also move the views to
 * it (the row was activated). */
static void
highlight_atlas_stub (TerrainEditorWindow *self,
                      TerrainAtlasStub    *stub,
                      gboolean             frame)
{
  TerrainEditorGlView *gl_view = self->gl_view != NULL ? TERRAIN_EDITOR_GL_VIEW (self->gl_view) : NULL;
  g_autofree char *description = NULL;
  TerrainAtlasBox box;
  gboolean have_box;
  double x, y, width, height;

  if (stub == NULL || !TERRAIN_IS_ATLAS_FILE (self->document))
    {
      if (gl_view != NULL)
        terrain_editor_gl_view_set_atlas_highlight (gl_view, NULL);
      terrain_editor_map_view_set_atlas_outline (self->map_view, NULL);
      return;
    }

  have_box = terrain_editor_atlas_get_stub_box (TERRAIN_ATLAS_FILE (self->document), stub, &box);
  if (gl_view != NULL)
    terrain_editor_gl_view_set_atlas_highlight (gl_view, have_box ? &box : NULL);
  terrain_editor_map_view_set_atlas_outline (self->map_view, have_box ? &box : NULL);
  description = describe_atlas_stub (TERRAIN_ATLAS_FILE (self->document), stub);
  gtk_label_set_text (self->properties_label, description);

  if (!frame || !have_box)
    return;
  if (gl_view != NULL)
    terrain_editor_gl_view_frame_atlas_box (gl_view, &box);
  if (terrain_editor_map_view_get_atlas_outline (self->map_view, &x, &y, &width, &height))
    terrain_editor_map_view_center_on (self->map_view, x + width / 2, y + height / 2);
}

static void
on_structure_selected (GtkSingleSelection  *selection,
                       GParamSpec          *pspec,
                       TerrainEditorWindow *self)
{
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (selection);
  g_autoptr(TerrainEditorItem) item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  gpointer data = item != NULL ? terrain_editor_item_get_data (item) : NULL;

  /* The window's template is gone while it is disposed. */
  if (self->map_view == NULL)
    return;
  highlight_atlas_stub (self, data != NULL && TERRAIN_IS_ATLAS_STUB (data) ? data : NULL, FALSE);
}

static void
on_structure_activated (GtkListView         *list,
                        guint                position,
                        TerrainEditorWindow *self)
{
  GListModel *rows = G_LIST_MODEL (gtk_list_view_get_model (list));
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, position);
  g_autoptr(TerrainEditorItem) item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  gpointer data = item != NULL ? terrain_editor_item_get_data (item) : NULL;

  if (G_IS_FILE (data) && get_app (self) != NULL)
    terrain_editor_application_open_file (get_app (self), data);
  else if (data != NULL && TERRAIN_IS_ATLAS_STUB (data))
    highlight_atlas_stub (self, data, TRUE);
  else if (row != NULL && gtk_tree_list_row_is_expandable (row))
    gtk_tree_list_row_set_expanded (row, !gtk_tree_list_row_get_expanded (row));
}

static void
fill_structure (TerrainEditorWindow *self)
{
  GListStore *root = g_list_store_new (TERRAIN_EDITOR_TYPE_ITEM);
  GtkTreeListModel *tree;
  GtkSingleSelection *selection;

  if (self->document != NULL)
    {
      g_autoptr(JsonNode) node = terrain_document_describe (self->document);

      if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
        {
          g_autoptr(GListModel) items = items_from_json_object (json_node_get_object (node));

          for (guint i = 0; i < g_list_model_get_n_items (items); i++)
            {
              g_autoptr(GObject) item = g_list_model_get_item (items, i);

              g_list_store_append (root, item);
            }
        }
      if (TERRAIN_IS_ATLAS_FILE (self->document))
        {
          GListModel *tocs = terrain_atlas_file_get_tocs (TERRAIN_ATLAS_FILE (self->document));
          g_autoptr(GtkMapListModel) mapped = gtk_map_list_model_new (g_object_ref (tocs), map_toc_to_item,
                                                                      NULL, NULL);
          g_autoptr(TerrainEditorItem) item = terrain_editor_item_new (_("Tables of contents"), NULL);

          terrain_editor_item_set_children (item, G_LIST_MODEL (mapped));
          g_list_store_insert (root, 0, item);
        }
      if (TERRAIN_IS_HPI_ARCHIVE (self->document))
        {
          TerrainHpiArchive *archive = TERRAIN_HPI_ARCHIVE (self->document);
          g_autoptr(TerrainEditorItem) item = archive_files_item (self, archive);

          g_list_store_insert (root, 0, item);
        }
      if (TERRAIN_IS_CHU_FILE (self->document))
        {
          g_autoptr(TerrainEditorItem) item = chu_chunks_item (TERRAIN_CHU_FILE (self->document));

          g_list_store_insert (root, 0, item);
        }
      if (TERRAIN_IS_TQT_FILE (self->document))
        {
          g_autoptr(TerrainEditorItem) item = tqt_tiles_item (TERRAIN_TQT_FILE (self->document));

          g_list_store_insert (root, 0, item);
        }
    }

  tree = gtk_tree_list_model_new (G_LIST_MODEL (root), FALSE, FALSE, structure_children, NULL, NULL);
  /* An archive opens on its list of files. */
  if (TERRAIN_IS_HPI_ARCHIVE (self->document))
    {
      g_autoptr(GtkTreeListRow) files = gtk_tree_list_model_get_row (tree, 0);

      gtk_tree_list_row_set_expanded (files, TRUE);
    }
  selection = gtk_single_selection_new (G_LIST_MODEL (tree));
  /* Nothing picked until the user picks a row. */
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_single_selection_set_selected (selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect (selection, "notify::selected-item", G_CALLBACK (on_structure_selected), self);
  gtk_list_view_set_model (self->structure_list, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
}

static void
setup_structure_row (GtkSignalListItemFactory *factory,
                     GtkListItem              *list_item)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *value = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_xalign (GTK_LABEL (value), 0);
  gtk_label_set_ellipsize (GTK_LABEL (value), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (value, TRUE);
  gtk_widget_add_css_class (value, "dim-label");
  gtk_label_set_selectable (GTK_LABEL (value), FALSE);
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), value);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  gtk_list_item_set_child (list_item, expander);
}

static void
bind_structure_row (GtkSignalListItemFactory *factory,
                    GtkListItem              *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *box = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));
  TerrainEditorItem *item = gtk_tree_list_row_get_item (row);
  GtkWidget *title = gtk_widget_get_first_child (box);
  const char *value = terrain_editor_item_get_value (item);

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), row);
  gtk_label_set_text (GTK_LABEL (title), terrain_editor_item_get_title (item));
  gtk_label_set_text (GTK_LABEL (gtk_widget_get_next_sibling (title)), value != NULL ? value : "");
  gtk_widget_set_tooltip_text (box, value);
  g_object_unref (item);
}

static void
setup_plain_row (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *value = gtk_label_new (NULL);

  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_label_set_xalign (GTK_LABEL (value), 0);
  gtk_label_set_wrap (GTK_LABEL (value), TRUE);
  gtk_widget_add_css_class (value, "dim-label");
  gtk_widget_add_css_class (value, "caption");
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), value);
  gtk_list_item_set_child (list_item, box);
}

static void
bind_plain_row (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item)
{
  TerrainEditorItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *title = gtk_widget_get_first_child (gtk_list_item_get_child (list_item));
  const char *value = terrain_editor_item_get_value (item);

  gtk_label_set_text (GTK_LABEL (title), terrain_editor_item_get_title (item));
  gtk_label_set_text (GTK_LABEL (gtk_widget_get_next_sibling (title)), value != NULL ? value : "");
  gtk_widget_set_visible (gtk_widget_get_next_sibling (title), value != NULL && value[0] != '\0');
}

static void
fill_findings (TerrainEditorWindow *self)
{
  GListStore *store = g_list_store_new (TERRAIN_EDITOR_TYPE_ITEM);
  GtkSingleSelection *selection;
  g_autofree char *tab = NULL;

  if (self->document != NULL)
    {
      g_autoptr(GPtrArray) issues = terrain_document_validate (self->document);

      for (guint i = 0; issues != NULL && i < issues->len; i++)
        {
          TerrainIssue *issue = g_ptr_array_index (issues, i);
          g_autofree char *title = g_strdup_printf ("%s: %s",
                                                    terrain_severity_to_string (terrain_issue_get_severity (issue)),
                                                    terrain_issue_get_message (issue));
          GString *where = g_string_new (NULL);
          g_autoptr(TerrainEditorItem) item = NULL;
          g_autofree char *value = NULL;
          gint x, y;

          if (terrain_issue_get_section (issue) != NULL)
            g_string_append (where, terrain_issue_get_section (issue));
          if (terrain_issue_get_offset (issue) >= 0)
            {
              g_autofree char *offset = g_strdup_printf ("%" G_GINT64_FORMAT,
                                                         terrain_issue_get_offset (issue));

              /* Translators: follows a section name; %s is a byte offset. */
              g_string_append_printf (where, _(" at byte %s"), offset);
            }
          if (terrain_issue_get_record (issue) >= 0)
            {
              g_autofree char *record = g_strdup_printf ("%" G_GINT64_FORMAT,
                                                         terrain_issue_get_record (issue));

              /* Translators: %s is the index of a record in a section. */
              g_string_append_printf (where, _(", record %s"), record);
            }
          if (terrain_issue_get_position (issue, &x, &y))
            g_string_append_printf (where, _(", cell %d, %d"), x, y);
          value = g_string_free (where, FALSE);
          item = terrain_editor_item_new (title, value);
          if (terrain_issue_get_position (issue, &x, &y))
            terrain_editor_item_set_position (item, x, y);
          g_list_store_append (store, item);
        }
    }

  tab = g_list_model_get_n_items (G_LIST_MODEL (store)) > 0
        ? g_strdup_printf (_("Findings (%u)"), g_list_model_get_n_items (G_LIST_MODEL (store)))
        : g_strdup (_("Findings"));
  /* An empty list would look as if nothing had been checked. */
  if (self->document != NULL && g_list_model_get_n_items (G_LIST_MODEL (store)) == 0)
    {
      g_autoptr(TerrainEditorItem) item =
        terrain_editor_item_new (_("No findings"),
                                 _("The file passed every check libterrain makes."));

      g_list_store_append (store, item);
    }
  gtk_label_set_text (self->findings_tab_label, tab);
  selection = gtk_single_selection_new (G_LIST_MODEL (store));
  gtk_list_view_set_model (self->findings_list, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
}

static void
fill_features (TerrainEditorWindow *self)
{
  GListStore *store = g_list_store_new (TERRAIN_EDITOR_TYPE_ITEM);
  GtkSingleSelection *selection;
  TerrainTntMap *map = get_tnt (self);
  TerrainFeatureCatalog *catalog = get_catalog (self);

  if (map != NULL)
    {
      g_autoptr(GArray) placements = terrain_tnt_map_list_placements (map);
      guint n = terrain_tnt_map_get_n_features (map);
      g_autofree guint *counts = g_new0 (guint, MAX (n, 1));
      g_autofree gint *first = g_new (gint, MAX (n, 1) * 2);

      for (guint i = 0; i < placements->len; i++)
        {
          const TerrainTntPlacement *p = &g_array_index (placements, TerrainTntPlacement, i);

          if (p->feature >= n)
            continue;
          if (counts[p->feature]++ == 0)
            {
              first[p->feature * 2] = p->x;
              first[p->feature * 2 + 1] = p->y;
            }
        }
      for (guint i = 0; i < n; i++)
        {
          const char *name = terrain_tnt_map_get_feature_name (map, i);
          guint fw = 1, fh = 1;
          gboolean known = terrain_editor_map_view_get_footprint (self->map_view, name, &fw, &fh);
          g_autofree char *value = NULL;
          g_autoptr(TerrainEditorItem) item = NULL;

          if (known)
            value = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u placed, footprint %u×%u",
                                                  "%u placed, footprint %u×%u", counts[i]),
                                     counts[i], fw, fh);
          else
            value = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u placed, no definition loaded",
                                                  "%u placed, no definition loaded", counts[i]),
                                     counts[i]);
          item = terrain_editor_item_new (name, value);
          if (counts[i] > 0)
            terrain_editor_item_set_position (item, first[i * 2], first[i * 2 + 1]);
          g_list_store_append (store, item);
        }
    }

  /* Loaded definitions the map does not use yet, to place new ones. */
  if (map != NULL && catalog != NULL)
    for (guint i = 0; i < terrain_feature_catalog_get_n_features (catalog); i++)
      {
        TerrainFeatureDefinition *definition = terrain_feature_catalog_get_feature (catalog, i);
        const char *name = terrain_feature_definition_get_name (definition);
        guint fw, fh;
        g_autofree char *value = NULL;
        g_autoptr(TerrainEditorItem) item = NULL;

        if (terrain_tnt_map_find_feature (map, name) != G_MAXUINT)
          continue;
        terrain_feature_definition_get_footprint (definition, &fw, &fh);
        value = g_strdup_printf (_("not on the map, footprint %u×%u (%s)"), fw, fh,
                                 terrain_feature_definition_get_origin (definition));
        item = terrain_editor_item_new (name, value);
        g_list_store_append (store, item);
      }

  selection = gtk_single_selection_new (G_LIST_MODEL (store));
  gtk_list_view_set_model (self->feature_list, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
}

static void
jump_to_item (TerrainEditorWindow *self,
              TerrainEditorItem   *item)
{
  int x, y;

  if (!terrain_editor_item_get_position (item, &x, &y))
    return;
  gtk_notebook_set_current_page (self->view_notebook, 0);
  terrain_editor_map_view_center_on (self->map_view, x + 0.5, y + 0.5);
  terrain_editor_map_view_set_highlight (self->map_view, TRUE, x, y);
}

static void
on_finding_activated (GtkListView         *list,
                      guint                position,
                      TerrainEditorWindow *self)
{
  g_autoptr(TerrainEditorItem) item = g_list_model_get_item (G_LIST_MODEL (gtk_list_view_get_model (list)),
                                                             position);

  jump_to_item (self, item);
}

static void
on_feature_activated (GtkListView         *list,
                      guint                position,
                      TerrainEditorWindow *self)
{
  g_autoptr(TerrainEditorItem) item = g_list_model_get_item (G_LIST_MODEL (gtk_list_view_get_model (list)),
                                                             position);

  gtk_editable_set_text (GTK_EDITABLE (self->feature_entry), terrain_editor_item_get_title (item));
  jump_to_item (self, item);
}

/* ------------------------------------------------------------------------ */
/* Tiles                                                                    */

/* Tile textures are made on demand: the cache has holes. */
static void
unref_if_set (gpointer object)
{
  if (object != NULL)
    g_object_unref (object);
}

static GdkTexture *
get_tile_texture (TerrainEditorWindow *self,
                  guint                index)
{
  TerrainTntMap *map = get_tnt (self);
  TerrainPalette *palette = get_palette (self);
  const guint8 *pixels;
  const guint8 *rgba;
  guint8 *out;
  g_autoptr(GBytes) bytes = NULL;
  GdkTexture *texture;

  if (map == NULL || palette == NULL || index >= terrain_tnt_map_get_n_tiles (map))
    return NULL;
  if (self->tile_textures == NULL)
    self->tile_textures = g_ptr_array_new_with_free_func (unref_if_set);
  if (self->tile_textures->len <= index)
    g_ptr_array_set_size (self->tile_textures, terrain_tnt_map_get_n_tiles (map));
  if (g_ptr_array_index (self->tile_textures, index) != NULL)
    return g_ptr_array_index (self->tile_textures, index);

  pixels = terrain_tnt_map_get_tile (map, index);
  rgba = terrain_palette_get_rgba_table (palette);
  out = g_malloc (TERRAIN_TNT_TILE_BYTES * 4);
  for (guint i = 0; i < TERRAIN_TNT_TILE_BYTES; i++)
    {
      memcpy (out + i * 4, rgba + pixels[i] * 4, 4);
      out[i * 4 + 3] = 255;
    }
  bytes = g_bytes_new_take (out, TERRAIN_TNT_TILE_BYTES * 4);
  texture = gdk_memory_texture_new (TERRAIN_TNT_TILE_PIXELS, TERRAIN_TNT_TILE_PIXELS,
                                    GDK_MEMORY_R8G8B8A8, bytes, TERRAIN_TNT_TILE_PIXELS * 4);
  g_ptr_array_index (self->tile_textures, index) = texture;
  return texture;
}

static void
update_tile_picture (TerrainEditorWindow *self)
{
  guint index = (guint) gtk_adjustment_get_value (self->tile_adjustment);

  gtk_picture_set_paintable (self->tile_picture, GDK_PAINTABLE (get_tile_texture (self, index)));
}

static void
setup_tile_cell (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item)
{
  GtkWidget *picture = gtk_picture_new ();

  gtk_widget_set_size_request (picture, 32, 32);
  gtk_picture_set_can_shrink (GTK_PICTURE (picture), FALSE);
  gtk_list_item_set_child (list_item, picture);
}

static void
bind_tile_cell (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                TerrainEditorWindow      *self)
{
  GtkStringObject *string = gtk_list_item_get_item (list_item);
  guint index = (guint) g_ascii_strtoull (gtk_string_object_get_string (string), NULL, 10);
  g_autofree char *tooltip = g_strdup_printf (_("Tile %u"), index);

  gtk_picture_set_paintable (GTK_PICTURE (gtk_list_item_get_child (list_item)),
                             GDK_PAINTABLE (get_tile_texture (self, index)));
  gtk_widget_set_tooltip_text (gtk_list_item_get_child (list_item), tooltip);
}

static void
on_tile_activated (GtkGridView         *grid,
                   guint                position,
                   TerrainEditorWindow *self)
{
  gtk_adjustment_set_value (self->tile_adjustment, position);
}

static void
fill_tiles (TerrainEditorWindow *self)
{
  TerrainTntMap *map = get_tnt (self);
  GtkStringList *list = gtk_string_list_new (NULL);
  guint n = map != NULL ? terrain_tnt_map_get_n_tiles (map) : 0;
  GtkNoSelection *selection;

  g_clear_pointer (&self->tile_textures, g_ptr_array_unref);
  for (guint i = 0; i < n && get_palette (self) != NULL; i++)
    {
      char text[16];

      g_snprintf (text, sizeof text, "%u", i);
      gtk_string_list_append (list, text);
    }
  selection = gtk_no_selection_new (G_LIST_MODEL (list));
  gtk_grid_view_set_model (self->tile_grid, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  gtk_adjustment_set_upper (self->tile_adjustment, n > 0 ? n - 1 : 0);
  update_tile_picture (self);
}

/* ------------------------------------------------------------------------ */
/* Atlas                                                                    */

static void
atlas_clear (TerrainEditorWindow *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->atlas_box))) != NULL)
    gtk_box_remove (self->atlas_box, child);
}

static void fill_atlas (TerrainEditorWindow *self);

typedef struct
{
  TerrainEditorWindow *self;
  guint toc;
  guint stub;
} AtlasRef;

static void
on_replace_texture_response (GtkNativeDialog *dialog,
                             int              response,
                             AtlasRef        *ref)
{
  TerrainEditorWindow *self = ref->self;

  if (response == GTK_RESPONSE_ACCEPT && TERRAIN_IS_ATLAS_FILE (self->document))
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) bytes = g_file_load_bytes (file, NULL, NULL, &error);
      g_autoptr(TerrainImage) image = bytes != NULL ? terrain_image_load_png_bytes (bytes, &error) : NULL;
      TerrainAtlasFile *atlas = TERRAIN_ATLAS_FILE (self->document);
      g_autoptr(TerrainAtlasTexture) old = terrain_atlas_file_get_texture (atlas, ref->toc, ref->stub, NULL);
      g_autoptr(TerrainAtlasTexture) texture = NULL;
      g_autoptr(TerrainCommand) command = NULL;

      if (image != NULL)
        texture = terrain_atlas_texture_new_from_image (image,
                                                        old != NULL ? terrain_atlas_texture_get_format (old)
                                                                    : TERRAIN_ATLAS_TEXTURE_PNG,
                                                        90, TERRAIN_ATLAS_CHANNELS_RGB, &error);
      if (texture == NULL)
        {
          g_autofree char *message = g_strdup_printf (_("Could not replace the texture tile: %s"),
                                                      error->message);
          terrain_editor_window_show_error (self, message);
        }
      else
        {
          /* Through the undo stack: undo restores the file's bytes. */
          command = terrain_atlas_edit_new_replace_texture (atlas, ref->toc, ref->stub, texture);
          if (execute (self, command))
            fill_atlas (self);
        }
    }
  g_object_unref (dialog);
}

static void
on_replace_texture (GtkButton *button,
                    AtlasRef  *ref)
{
  GtkFileChooserNative *chooser;
  GtkFileFilter *filter = gtk_file_filter_new ();

  chooser = gtk_file_chooser_native_new (_("Replace Texture Tile"), GTK_WINDOW (ref->self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Replace"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("PNG images"));
  gtk_file_filter_add_suffix (filter, "png");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_object_unref (filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_replace_texture_response), ref);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
on_texture_selected (GtkDropDown         *dropdown,
                     GParamSpec          *pspec,
                     TerrainEditorWindow *self)
{
  GtkPicture *picture = g_object_get_data (G_OBJECT (dropdown), "picture");
  AtlasRef *ref = g_object_get_data (G_OBJECT (dropdown), "ref");
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainImage) image = NULL;

  ref->stub = gtk_drop_down_get_selected (dropdown);
  /* Picked by the user (not filled in): show where the tile lies. */
  if (pspec != NULL)
    {
      g_autoptr(TerrainAtlasStub) stub =
        g_list_model_get_item (G_LIST_MODEL (terrain_atlas_file_get_toc (TERRAIN_ATLAS_FILE (self->document),
                                                                         ref->toc)), ref->stub);

      highlight_atlas_stub (self, stub, FALSE);
    }
  image = terrain_atlas_file_render_texture (TERRAIN_ATLAS_FILE (self->document), ref->toc, ref->stub,
                                             TERRAIN_ATLAS_CHANNELS_RGB, &error);
  if (image != NULL && terrain_image_get_format (image) == TERRAIN_IMAGE_RGBA8)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (terrain_image_get_data (image, NULL),
                                             terrain_image_get_stride (image) * terrain_image_get_height (image));
      g_autoptr(GdkTexture) texture = gdk_memory_texture_new (terrain_image_get_width (image),
                                                              terrain_image_get_height (image),
                                                              GDK_MEMORY_R8G8B8A8, bytes,
                                                              terrain_image_get_stride (image));

      gtk_picture_set_paintable (picture, GDK_PAINTABLE (texture));
    }
  else
    gtk_picture_set_paintable (picture, NULL);
}

static void
on_config_entry_activate (GtkEntry            *entry,
                          TerrainEditorWindow *self)
{
  AtlasRef *ref = g_object_get_data (G_OBJECT (entry), "ref");
  const char *key = g_object_get_data (G_OBJECT (entry), "key");
  TerrainAtlasFile *atlas = TERRAIN_ATLAS_FILE (self->document);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainAtlasConfig) config = terrain_atlas_file_get_config (atlas, ref->toc, ref->stub, &error);

  if (config != NULL)
    {
      g_autoptr(TerrainCommand) command = NULL;

      terrain_atlas_config_set (config, key, gtk_editable_get_text (GTK_EDITABLE (entry)));
      command = terrain_atlas_edit_new_replace_config (atlas, ref->toc, ref->stub, config);
      /* execute() shows its own error. */
      execute (self, command);
      return;
    }
  {
    g_autofree char *message = g_strdup_printf (_("Could not change the config entry “%s”: %s"),
                                                key, error->message);
    terrain_editor_window_show_error (self, message);
  }
}

static GtkWidget *
heading (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  return label;
}

static void
fill_atlas (TerrainEditorWindow *self)
{
  TerrainAtlasFile *atlas;

  atlas_clear (self);
  if (!TERRAIN_IS_ATLAS_FILE (self->document))
    {
      GtkWidget *label = gtk_label_new (_("The Atlas tool edits Torque Atlas files."));

      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (self->atlas_box, label);
      return;
    }

  atlas = TERRAIN_ATLAS_FILE (self->document);
  for (guint t = 0; t < terrain_atlas_file_get_n_tocs (atlas); t++)
    {
      TerrainAtlasToc *toc = terrain_atlas_file_get_toc (atlas, t);
      guint n = g_list_model_get_n_items (G_LIST_MODEL (toc));
      AtlasRef *ref = g_new0 (AtlasRef, 1);
      char ref_key[32];

      ref->self = self;
      ref->toc = t;
      g_snprintf (ref_key, sizeof ref_key, "ref-%u", t);
      g_object_set_data_full (G_OBJECT (self->atlas_box), g_intern_string (ref_key), ref, g_free);

      if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_TEXTURE)
        {
          GtkStringList *names = gtk_string_list_new (NULL);
          GtkWidget *dropdown, *picture, *button;

          for (guint s = 0; s < n; s++)
            {
              g_autoptr(TerrainAtlasStub) stub = g_list_model_get_item (G_LIST_MODEL (toc), s);
              guint level;
              guint32 x, y;
              g_autofree char *label = NULL;

              terrain_atlas_stub_get_node (stub, &level, &x, &y);
              label = g_strdup_printf (_("Tile %u: level %u (%u, %u)"), s, level, x, y);
              gtk_string_list_append (names, label);
            }
          gtk_box_append (self->atlas_box, heading (_("Texture tiles")));
          dropdown = gtk_drop_down_new (G_LIST_MODEL (names), NULL);
          picture = gtk_picture_new ();
          gtk_widget_set_size_request (picture, 256, 256);
          g_object_set_data (G_OBJECT (dropdown), "picture", picture);
          g_object_set_data (G_OBJECT (dropdown), "ref", ref);
          g_signal_connect (dropdown, "notify::selected", G_CALLBACK (on_texture_selected), self);
          button = gtk_button_new_with_mnemonic (_("_Replace Tile…"));
          g_signal_connect (button, "clicked", G_CALLBACK (on_replace_texture), ref);
          gtk_box_append (self->atlas_box, dropdown);
          gtk_box_append (self->atlas_box, picture);
          gtk_box_append (self->atlas_box, button);
          if (n > 0)
            on_texture_selected (GTK_DROP_DOWN (dropdown), NULL, self);
        }
      else if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_CONFIG)
        {
          for (guint s = 0; s < n; s++)
            {
              g_autoptr(TerrainAtlasConfig) config = terrain_atlas_file_get_config (atlas, t, s, NULL);
              g_autoptr(TerrainAtlasStub) stub = g_list_model_get_item (G_LIST_MODEL (toc), s);
              g_autofree char *name = terrain_atlas_stub_dup_name (stub);
              g_autofree char *title = g_strdup_printf (_("Config “%s”"), name != NULL ? name : "");
              GtkWidget *grid = gtk_grid_new ();
              AtlasRef *config_ref = g_new0 (AtlasRef, 1);

              if (config == NULL)
                continue;
              config_ref->self = self;
              config_ref->toc = t;
              config_ref->stub = s;
              g_object_set_data_full (G_OBJECT (grid), "ref", config_ref, g_free);
              gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
              gtk_grid_set_column_spacing (GTK_GRID (grid), 6);
              gtk_box_append (self->atlas_box, heading (title));
              for (guint e = 0; e < terrain_atlas_config_get_n_entries (config); e++)
                {
                  const char *key = terrain_atlas_config_get_key (config, e, NULL);
                  GtkWidget *label = gtk_label_new (key);
                  GtkWidget *entry = gtk_entry_new ();

                  gtk_label_set_xalign (GTK_LABEL (label), 1);
                  gtk_editable_set_text (GTK_EDITABLE (entry), terrain_atlas_config_get_value (config, e, NULL));
                  gtk_widget_set_hexpand (entry, TRUE);
                  gtk_widget_set_tooltip_text (entry, _("Press Enter to apply"));
                  g_object_set_data (G_OBJECT (entry), "ref", config_ref);
                  g_object_set_data_full (G_OBJECT (entry), "key", g_strdup (key), g_free);
                  g_signal_connect (entry, "activate", G_CALLBACK (on_config_entry_activate), self);
                  gtk_grid_attach (GTK_GRID (grid), label, 0, e, 1, 1);
                  gtk_grid_attach (GTK_GRID (grid), entry, 1, e, 1, 1);
                }
              gtk_box_append (self->atlas_box, grid);
            }
        }
    }
  {
    GtkWidget *label = gtk_label_new (_("Geometry chunks, their LOD levels and bounds are listed in the Structure tab: select a stub to highlight it in the views, double-click it to go there. Levels (Ctrl+L) colours the 3D view by level."));

    gtk_label_set_wrap (GTK_LABEL (label), TRUE);
    gtk_label_set_xalign (GTK_LABEL (label), 0);
    gtk_widget_add_css_class (label, "dim-label");
    gtk_box_append (self->atlas_box, label);
  }
}

/* ------------------------------------------------------------------------ */
/* Document                                                                 */

static void
on_sea_level_notify (TerrainEditorWindow *self)
{
  TerrainTntMap *map = get_tnt (self);

  if (map == NULL)
    return;
  self->updating_sea_level = TRUE;
  gtk_adjustment_set_value (self->sea_adjustment, terrain_tnt_map_get_sea_level (map));
  self->updating_sea_level = FALSE;
}

static gboolean
refresh_panels_idle (gpointer user_data)
{
  TerrainEditorWindow *self = user_data;

  g_object_set_data (G_OBJECT (self), "refresh-panels", NULL);
  fill_features (self);
  fill_findings (self);
  return G_SOURCE_REMOVE;
}

static void
queue_refresh_panels (TerrainEditorWindow *self)
{
  /* After a stroke or an undo: the lists follow the map, once. */
  if (g_object_get_data (G_OBJECT (self), "refresh-panels") != NULL)
    return;
  g_object_set_data (G_OBJECT (self), "refresh-panels", GUINT_TO_POINTER (1));
  g_timeout_add_full (G_PRIORITY_LOW, 500, refresh_panels_idle, g_object_ref (self), g_object_unref);
}

static void
on_tiles_changed (TerrainEditorWindow *self)
{
  TerrainTntMap *map = get_tnt (self);

  if (map != NULL && (self->tile_textures == NULL
                      || self->tile_textures->len != terrain_tnt_map_get_n_tiles (map)))
    fill_tiles (self);
}

static void set_tool (TerrainEditorWindow *self, const char *tool);

static void
set_document (TerrainEditorWindow *self,
              TerrainDocument     *document,
              TerrainOtaFile      *ota)
{
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  if (self->stack != NULL)
    g_signal_handlers_disconnect_by_data (self->stack, self);
  g_clear_object (&self->stack);
  g_clear_object (&self->sea_level_command);
  g_set_object (&self->document, document);
  g_set_object (&self->ota, ota);

  if (document != NULL)
    {
      self->stack = terrain_command_stack_new (document);
      g_signal_connect_swapped (self->stack, "notify::can-undo", G_CALLBACK (on_stack_changed), self);
      g_signal_connect_swapped (self->stack, "notify::can-redo", G_CALLBACK (on_stack_changed), self);
      g_signal_connect_swapped (self->stack, "notify::clean", G_CALLBACK (on_stack_changed), self);
      g_signal_connect_swapped (document, "notify::modified", G_CALLBACK (on_stack_changed), self);
      if (TERRAIN_IS_TNT_MAP (document))
        {
          g_signal_connect_swapped (document, "notify::sea-level", G_CALLBACK (on_sea_level_notify), self);
          g_signal_connect_swapped (document, "cells-changed", G_CALLBACK (queue_refresh_panels), self);
          g_signal_connect_swapped (document, "notify::n-tiles", G_CALLBACK (on_tiles_changed), self);
        }
    }

  terrain_editor_map_view_set_palette (self->map_view, get_palette (self));
  terrain_editor_map_view_set_catalog (self->map_view, get_catalog (self));
  terrain_editor_map_view_set_ota (self->map_view, ota);
  terrain_editor_map_view_set_document (self->map_view, document);
  if (self->gl_view != NULL)
    {
      terrain_editor_gl_view_set_palette (TERRAIN_EDITOR_GL_VIEW (self->gl_view), get_palette (self));
      terrain_editor_gl_view_set_document (TERRAIN_EDITOR_GL_VIEW (self->gl_view), document);
    }

  if (document != NULL && !tool_applies (self, self->tool))
    set_tool (self, "inspect");
  on_sea_level_notify (self);
  fill_structure (self);
  fill_features (self);
  fill_findings (self);
  fill_tiles (self);
  fill_atlas (self);
  gtk_stack_set_visible_child_name (self->main_stack, document != NULL ? "document" : "empty");
  /* Feature lists are for TNT maps. */
  gtk_widget_set_visible (gtk_notebook_get_nth_page (self->side_notebook, 2),
                          get_tnt (self) != NULL);
  /* With nothing to edit, the Structure tab says more than the tools. */
  if (document != NULL)
    gtk_notebook_set_current_page (self->side_notebook,
                                   tool_applies (self, "brush") || tool_applies (self, "atlas")
                                   ? 0 : 1);
  update_title (self);
  update_actions (self);
}

typedef struct
{
  TerrainDocument *document;
  TerrainOtaFile *ota;
} LoadResult;

static void
load_result_free (LoadResult *result)
{
  g_clear_object (&result->document);
  g_clear_object (&result->ota);
  g_free (result);
}

/* The file's path, or for a relative ARCHIVE:path given on the command
 * line, which GIO takes for a URI with the scheme "archive.hpi", that
 * text, as terrain_document_load_path() reads it. */
static char *
archive_spec (GFile *file)
{
  g_autofree char *scheme = g_file_get_uri_scheme (file);
  const char * const *schemes = g_vfs_get_supported_uri_schemes (g_vfs_get_default ());
  char *path = g_file_get_path (file);

  if (path != NULL || scheme == NULL || g_strv_contains (schemes, scheme))
    return path;
  return g_file_get_uri (file);
}

/* NAME.ota next to the map NAME.tnt at @path, or inside the same archive
 * (where names are looked up ignoring case). */
static TerrainOtaFile *
load_sibling_ota (GFile        *file,
                  const char   *path,
                  GCancellable *cancellable)
{
  const char *dot = strrchr (path, '.');
  g_autofree char *stem = dot != NULL && strchr (dot, '/') == NULL ? g_strndup (path, dot - path)
                                                                   : g_strdup (path);
  const char *suffixes[] = { ".ota", ".OTA", ".Ota" };

  if (!g_file_query_exists (file, cancellable))
    {
      g_autofree char *spec = g_strconcat (stem, ".ota", NULL);
      g_autoptr(TerrainDocument) document = NULL;

      document = terrain_document_load_path (spec, TERRAIN_FORMAT_OTA, NULL, cancellable, NULL);

      return TERRAIN_IS_OTA_FILE (document) ? TERRAIN_OTA_FILE (g_steal_pointer (&document)) : NULL;
    }

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *ota_path = g_strconcat (stem, suffixes[i], NULL);
      g_autoptr(GFile) ota_file = g_file_new_for_path (ota_path);

      if (g_file_query_exists (ota_file, cancellable))
        return terrain_ota_file_new_from_file (ota_file, NULL, cancellable, NULL);
    }
  return NULL;
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GFile *file = task_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = archive_spec (file);
  LoadResult *result = g_new0 (LoadResult, 1);

  /* A path is handed over as written so that ARCHIVE:path opens a map
   * inside an HPI archive. */
  if (path != NULL && !g_file_query_exists (file, cancellable))
    result->document = terrain_document_load_path (path, TERRAIN_FORMAT_UNKNOWN, NULL, cancellable, &error);
  else
    result->document = terrain_document_load (file, NULL, cancellable, &error);
  /* A plain heightmap opens by its header; the window shows its grid at
   * once, so decode it here, off the main thread, and refuse damaged image
   * data as a failed open. */
  if (result->document != NULL && TERRAIN_IS_HEIGHTMAP_DOCUMENT (result->document) &&
      terrain_heightmap_document_decode_heightfield (TERRAIN_HEIGHTMAP_DOCUMENT (result->document),
                                                     &error) == NULL)
    g_clear_object (&result->document);
  if (result->document == NULL)
    {
      load_result_free (result);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (TERRAIN_IS_TNT_MAP (result->document) && path != NULL)
    result->ota = load_sibling_ota (file, path, cancellable);

  g_task_return_pointer (task, result, (GDestroyNotify) load_result_free);
}

static void
load_done (GObject      *source,
           GAsyncResult *async_result,
           gpointer      user_data)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (source);
  g_autoptr(GError) error = NULL;
  LoadResult *result = g_task_propagate_pointer (G_TASK (async_result), &error);
  GFile *file = g_task_get_task_data (G_TASK (async_result));

  self->busy = FALSE;
  gtk_spinner_stop (self->spinner);
  if (result == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (file);
      g_autofree char *message = g_strdup_printf (_("Could not open “%s”: %s"), name, error->message);

      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        terrain_editor_window_show_error (self, message);
      g_clear_object (&self->file);
      set_document (self, NULL, NULL);
    }
  else
    {
      terrain_editor_application_add_recent (get_app (self), file);
      if (terrain_document_get_file (result->document) == NULL && g_file_query_exists (file, NULL))
        terrain_document_set_file (result->document, file);
      set_document (self, result->document, result->ota);
      load_result_free (result);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

void
terrain_editor_window_load (TerrainEditorWindow *self,
                            GFile               *file)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TERRAIN_EDITOR_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_set_object (&self->file, file);
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
  g_clear_pointer (&self->error_message, g_free);

  self->busy = TRUE;
  gtk_stack_set_visible_child_name (self->main_stack, "loading");
  gtk_spinner_start (self->spinner);
  update_title (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);

  task = g_task_new (self, self->cancellable, load_done, NULL);
  g_task_set_source_tag (task, terrain_editor_window_load);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_thread);
}

gboolean
terrain_editor_window_is_empty (TerrainEditorWindow *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_WINDOW (self), FALSE);
  return self->document == NULL && !self->busy;
}

gboolean
terrain_editor_window_get_busy (TerrainEditorWindow *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_WINDOW (self), FALSE);
  return self->busy;
}

GFile *
terrain_editor_window_get_file (TerrainEditorWindow *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_WINDOW (self), NULL);
  return self->file;
}

TerrainDocument *
terrain_editor_window_get_document (TerrainEditorWindow *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_WINDOW (self), NULL);
  return self->document;
}

TerrainCommandStack *
terrain_editor_window_get_command_stack (TerrainEditorWindow *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_WINDOW (self), NULL);
  return self->stack;
}

GtkWidget *
terrain_editor_window_get_map_view (TerrainEditorWindow *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->map_view);
}

void
terrain_editor_window_reload_resources (TerrainEditorWindow *self)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_WINDOW (self));

  terrain_editor_map_view_set_palette (self->map_view, get_palette (self));
  terrain_editor_map_view_set_catalog (self->map_view, get_catalog (self));
  if (self->gl_view != NULL)
    terrain_editor_gl_view_set_palette (TERRAIN_EDITOR_GL_VIEW (self->gl_view), get_palette (self));
  fill_features (self);
  fill_tiles (self);
  update_actions (self);
  if (get_app (self) != NULL && terrain_editor_application_get_palette_error (get_app (self)) != NULL)
    terrain_editor_window_show_error (self, terrain_editor_application_get_palette_error (get_app (self)));
}

/* ------------------------------------------------------------------------ */
/* Saving                                                                   */

static gboolean
save_to (TerrainEditorWindow *self,
         GFile               *file)
{
  g_autoptr(GError) error = NULL;

  if (self->document == NULL)
    return FALSE;
  if (!terrain_document_save (self->document, file, NULL, &error))
    {
      g_autofree char *name = g_file_get_parse_name (file);
      g_autofree char *message = g_strdup_printf (_("Could not save “%s”: %s"), name, error->message);

      terrain_editor_window_show_error (self, message);
      return FALSE;
    }
  g_set_object (&self->file, file);
  terrain_document_set_file (self->document, file);
  terrain_document_set_modified (self->document, FALSE);
  terrain_command_stack_mark_clean (self->stack);
  terrain_editor_application_add_recent (get_app (self), file);
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
  update_title (self);
  return TRUE;
}

static void
on_save_as_response (GtkNativeDialog     *dialog,
                     int                  response,
                     TerrainEditorWindow *self)
{
  gboolean saved = FALSE;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      saved = save_to (self, file);
    }
  g_object_unref (dialog);
  if (saved && self->closing_after_save)
    {
      self->force_close = TRUE;
      gtk_window_close (GTK_WINDOW (self));
    }
  self->closing_after_save = FALSE;
}

static void
save_as_dialog (TerrainEditorWindow *self)
{
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Save As"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  if (self->file != NULL)
    {
      g_autofree char *name = g_file_get_basename (self->file);
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
    }
  g_signal_connect (chooser, "response", G_CALLBACK (on_save_as_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static gboolean
can_save_in_place (TerrainEditorWindow *self)
{
  GFile *file = self->document != NULL ? terrain_document_get_file (self->document) : NULL;

  /* A map opened from inside an archive has no file of its own. */
  return file != NULL && self->file != NULL && g_file_equal (file, self->file);
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);

  if (can_save_in_place (self))
    save_to (self, self->file);
  else
    save_as_dialog (self);
}

static void
save_as_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);
  const char *uri = parameter != NULL ? g_variant_get_string (parameter, NULL) : "";

  /* win.save-as('URI') saves without asking, for scripts and tests. */
  if (uri[0] != '\0')
    {
      g_autoptr(GFile) file = g_file_new_for_uri (uri);

      save_to (self, file);
    }
  else
    save_as_dialog (self);
}

/* ------------------------------------------------------------------------ */
/* Other actions                                                            */

static void
undo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);

  if (self->stack != NULL)
    terrain_command_stack_undo (self->stack);
  g_clear_object (&self->sea_level_command);
  /* The Atlas tool shows chunk offsets and tiles an undo may change. */
  if (TERRAIN_IS_ATLAS_FILE (self->document))
    fill_atlas (self);
}

static void
redo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);
  g_autoptr(GError) error = NULL;

  if (self->stack != NULL && !terrain_command_stack_redo (self->stack, &error) && error != NULL)
    terrain_editor_window_show_error (self, error->message);
  if (TERRAIN_IS_ATLAS_FILE (self->document))
    fill_atlas (self);
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);
  double zoom = terrain_editor_map_view_get_zoom (self->map_view);

  if (g_str_equal (action_name, "win.zoom-in"))
    terrain_editor_map_view_set_zoom (self->map_view, zoom * 1.5);
  else if (g_str_equal (action_name, "win.zoom-out"))
    terrain_editor_map_view_set_zoom (self->map_view, zoom / 1.5);
  else if (g_str_equal (action_name, "win.zoom-one"))
    terrain_editor_map_view_set_zoom (self->map_view, 1.0);
  else
    terrain_editor_map_view_zoom_to_fit (self->map_view);
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static void
validate_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);

  fill_findings (self);
  gtk_notebook_set_current_page (self->side_notebook, 3);
}

static void
regenerate_minimap_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);
  g_autoptr(TerrainCommand) command = NULL;

  if (get_tnt (self) == NULL || get_palette (self) == NULL)
    return;
  command = terrain_tnt_edit_new_regenerate_minimap (get_tnt (self), get_palette (self));
  if (execute (self, command))
    show_info (self, _("The minimap was regenerated from the tiles."));
}

static void
on_import_image_response (GtkNativeDialog     *dialog,
                          int                  response,
                          TerrainEditorWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT && get_tnt (self) != NULL && get_palette (self) != NULL)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) bytes = g_file_load_bytes (file, NULL, NULL, &error);
      g_autoptr(TerrainImage) image = bytes != NULL ? terrain_image_load_png_bytes (bytes, &error) : NULL;
      g_autoptr(TerrainCommand) command = NULL;

      if (image != NULL)
        command = terrain_tnt_edit_new_import_image (get_tnt (self), image, get_palette (self),
                                                     TERRAIN_DITHER_NONE, TERRAIN_TNT_IMPORT_KEEP_TILES,
                                                     &error);
      if (command == NULL)
        {
          g_autofree char *message = g_strdup_printf (_("Could not import the image: %s"), error->message);
          terrain_editor_window_show_error (self, message);
        }
      else
        execute (self, command);
    }
  g_object_unref (dialog);
}

static void
import_image_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);
  GtkFileChooserNative *chooser;
  GtkFileFilter *filter = gtk_file_filter_new ();

  chooser = gtk_file_chooser_native_new (_("Import Image as Tile Set"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Import"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("PNG images"));
  gtk_file_filter_add_suffix (filter, "png");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_object_unref (filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_import_image_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* The placed feature whose footprint covers a cell. */
static gboolean
find_feature_at (TerrainEditorWindow *self,
                 int                  x,
                 int                  y,
                 int                 *anchor_x,
                 int                 *anchor_y)
{
  TerrainTntMap *map = get_tnt (self);
  g_autoptr(GArray) placements = NULL;

  if (map == NULL)
    return FALSE;
  placements = terrain_tnt_map_list_placements (map);
  for (guint i = placements->len; i-- > 0;)
    {
      const TerrainTntPlacement *p = &g_array_index (placements, TerrainTntPlacement, i);
      guint fw = 1, fh = 1;

      terrain_editor_map_view_get_footprint (self->map_view, terrain_tnt_map_get_feature_name (map, p->feature),
                                             &fw, &fh);
      if (x >= (int) p->x && x < (int) (p->x + fw) && y >= (int) p->y && y < (int) (p->y + fh))
        {
          *anchor_x = p->x;
          *anchor_y = p->y;
          return TRUE;
        }
    }
  return FALSE;
}

static void
remove_feature_at (TerrainEditorWindow *self,
                   int                  x,
                   int                  y)
{
  g_autoptr(TerrainCommand) command = NULL;
  TerrainFeatureCatalog *catalog = get_catalog (self);

  command = terrain_tnt_edit_new_remove_feature (get_tnt (self), x, y,
                                                 catalog != NULL ? terrain_feature_catalog_footprint_func : NULL,
                                                 catalog != NULL ? g_object_ref (catalog) : NULL,
                                                 catalog != NULL ? g_object_unref : NULL);
  execute (self, command);
  self->have_selection = FALSE;
}

static void
delete_feature_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);

  if (self->have_selection && get_tnt (self) != NULL)
    remove_feature_at (self, self->selected_x, self->selected_y);
}

/* ------------------------------------------------------------------------ */
/* Tools                                                                    */

static void
on_sea_level_changed (TerrainEditorWindow *self)
{
  TerrainTntMap *map = get_tnt (self);
  guint32 level = (guint32) gtk_adjustment_get_value (self->sea_adjustment);
  gint64 now = g_get_monotonic_time ();
  g_autoptr(TerrainCommand) command = NULL;

  if (self->updating_sea_level || map == NULL || level == terrain_tnt_map_get_sea_level (map))
    return;

  /* Dragging the slider is one undo step: the previous change, if it is
   * still the newest and recent, is undone and replaced. */
  if (self->sea_level_command != NULL
      && terrain_command_stack_peek_undo (self->stack) == self->sea_level_command
      && now - self->sea_level_time < SEA_LEVEL_MERGE_USEC)
    {
      self->updating_sea_level = TRUE;
      terrain_command_stack_undo (self->stack);
      self->updating_sea_level = FALSE;
    }

  command = terrain_tnt_edit_new_sea_level (map, level);
  if (execute (self, command))
    {
      g_set_object (&self->sea_level_command, command);
      self->sea_level_time = now;
    }
  else
    on_sea_level_notify (self);
}

static TerrainTntBrush
current_brush (TerrainEditorWindow *self)
{
  TerrainTntBrush brush = {
    .mode = (TerrainTntBrushMode) gtk_drop_down_get_selected (self->brush_mode),
    .radius = gtk_adjustment_get_value (self->radius_adjustment),
    .strength = gtk_adjustment_get_value (self->strength_adjustment),
    .falloff = (TerrainTntFalloff) gtk_drop_down_get_selected (self->brush_falloff),
    .level = (guint8) gtk_adjustment_get_value (self->level_adjustment),
  };

  return brush;
}

static void
brush_dab (TerrainEditorWindow *self,
           double               x,
           double               y)
{
  TerrainTntBrush brush = current_brush (self);
  g_autoptr(TerrainCommand) command = terrain_tnt_edit_new_brush (get_tnt (self), &brush, x, y, self->stroke);

  execute (self, command);
  self->last_dab_x = x;
  self->last_dab_y = y;
}

static void
brush_event (TerrainEditorWindow   *self,
             TerrainEditorMapPhase  phase,
             double                 x,
             double                 y,
             guint                  button,
             GdkModifierType        state)
{
  TerrainTntMap *map = get_tnt (self);
  double radius = gtk_adjustment_get_value (self->radius_adjustment);

  if (phase == TERRAIN_EDITOR_MAP_LEAVE)
    {
      terrain_editor_map_view_set_brush (self->map_view, FALSE, 0, 0, 0);
      if (self->gl_view != NULL)
        terrain_editor_gl_view_set_brush (TERRAIN_EDITOR_GL_VIEW (self->gl_view), FALSE, 0, 0, 0);
      return;
    }
  terrain_editor_map_view_set_brush (self->map_view, TRUE, x, y, radius);
  if (self->gl_view != NULL)
    terrain_editor_gl_view_set_brush (TERRAIN_EDITOR_GL_VIEW (self->gl_view), TRUE, x, y, radius);

  if (phase == TERRAIN_EDITOR_MAP_PRESS && button == GDK_BUTTON_PRIMARY && (state & GDK_CONTROL_MASK) != 0)
    {
      /* Ctrl+click picks the level of flatten and set. */
      if (x >= 0 && y >= 0 && x < terrain_tnt_map_get_width (map) && y < terrain_tnt_map_get_height (map))
        gtk_adjustment_set_value (self->level_adjustment,
                                  terrain_tnt_map_get_cell_height (map, (guint) x, (guint) y));
      return;
    }

  if (phase == TERRAIN_EDITOR_MAP_PRESS && button == GDK_BUTTON_PRIMARY)
    {
      self->stroke++;
      if (self->stroke == 0)
        self->stroke = 1;
      self->stroking = TRUE;
      terrain_command_stack_seal (self->stack);
      terrain_command_stack_begin_user_action (self->stack, _("brush stroke"));
      brush_dab (self, x, y);
    }
  else if (phase == TERRAIN_EDITOR_MAP_DRAG && self->stroking)
    {
      double spacing = MAX (0.5, radius * 0.25);

      if (hypot (x - self->last_dab_x, y - self->last_dab_y) >= spacing)
        brush_dab (self, x, y);
    }
  else if (phase == TERRAIN_EDITOR_MAP_RELEASE && self->stroking)
    {
      self->stroking = FALSE;
      terrain_command_stack_end_user_action (self->stack);
      terrain_command_stack_seal (self->stack);
    }
}

void
terrain_editor_window_brush_stroke (TerrainEditorWindow *self,
                                    const double        *points,
                                    guint                n_points)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_WINDOW (self));
  g_return_if_fail (n_points > 0);

  brush_event (self, TERRAIN_EDITOR_MAP_PRESS, points[0], points[1], GDK_BUTTON_PRIMARY, 0);
  for (guint i = 1; i < n_points; i++)
    brush_event (self, TERRAIN_EDITOR_MAP_DRAG, points[i * 2], points[i * 2 + 1], GDK_BUTTON_PRIMARY, 0);
  brush_event (self, TERRAIN_EDITOR_MAP_RELEASE, points[(n_points - 1) * 2], points[(n_points - 1) * 2 + 1],
               GDK_BUTTON_PRIMARY, 0);
}

static gboolean
footprint_blocked (TerrainEditorWindow *self,
                   int                  x,
                   int                  y,
                   guint                fw,
                   guint                fh,
                   int                  ignore_x,
                   int                  ignore_y)
{
  TerrainTntMap *map = get_tnt (self);

  for (guint dy = 0; dy < fh; dy++)
    for (guint dx = 0; dx < fw; dx++)
      {
        int cx = x + (int) dx, cy = y + (int) dy;
        int ax, ay;

        if (cx < 0 || cy < 0 || cx >= (int) terrain_tnt_map_get_width (map)
            || cy >= (int) terrain_tnt_map_get_height (map))
          return TRUE;
        if (terrain_tnt_map_get_cell_feature (map, cx, cy) == TERRAIN_TNT_FEATURE_VOID)
          return TRUE;
        if (find_feature_at (self, cx, cy, &ax, &ay) && !(ax == ignore_x && ay == ignore_y))
          return TRUE;
      }
  return FALSE;
}

static void
features_event (TerrainEditorWindow   *self,
                TerrainEditorMapPhase  phase,
                double                 fx,
                double                 fy,
                guint                  button)
{
  TerrainTntMap *map = get_tnt (self);
  TerrainFeatureCatalog *catalog = get_catalog (self);
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->feature_entry));
  int x = (int) floor (fx), y = (int) floor (fy);
  guint fw = 1, fh = 1;
  int ax, ay;

  if (phase == TERRAIN_EDITOR_MAP_LEAVE)
    {
      terrain_editor_map_view_set_preview_rect (self->map_view, FALSE, 0, 0, 0, 0, FALSE);
      return;
    }

  if (self->moving_feature)
    {
      const char *moved = terrain_tnt_map_get_feature_name (map, terrain_tnt_map_get_cell_feature (map, self->move_from_x,
                                                                                                   self->move_from_y));
      int nx = self->move_from_x + (x - self->press_x);
      int ny = self->move_from_y + (y - self->press_y);

      terrain_editor_map_view_get_footprint (self->map_view, moved, &fw, &fh);
      terrain_editor_map_view_set_preview_rect (self->map_view, TRUE, nx, ny, fw, fh,
                                                footprint_blocked (self, nx, ny, fw, fh,
                                                                   self->move_from_x, self->move_from_y));
      if (phase == TERRAIN_EDITOR_MAP_RELEASE)
        {
          self->moving_feature = FALSE;
          if (nx != self->move_from_x || ny != self->move_from_y)
            {
              g_autoptr(TerrainCommand) command =
                terrain_tnt_edit_new_move_feature (map, self->move_from_x, self->move_from_y,
                                                   MAX (nx, 0), MAX (ny, 0),
                                                   catalog != NULL ? terrain_feature_catalog_footprint_func : NULL,
                                                   catalog != NULL ? g_object_ref (catalog) : NULL,
                                                   catalog != NULL ? g_object_unref : NULL);
              if (execute (self, command))
                {
                  self->selected_x = MAX (nx, 0);
                  self->selected_y = MAX (ny, 0);
                }
            }
        }
      return;
    }

  if (phase == TERRAIN_EDITOR_MAP_HOVER)
    {
      if (name[0] != '\0')
        {
          terrain_editor_map_view_get_footprint (self->map_view, name, &fw, &fh);
          terrain_editor_map_view_set_preview_rect (self->map_view, TRUE, x, y, fw, fh,
                                                    footprint_blocked (self, x, y, fw, fh, -1, -1));
        }
      return;
    }

  if (phase != TERRAIN_EDITOR_MAP_PRESS)
    return;

  if (find_feature_at (self, x, y, &ax, &ay))
    {
      self->have_selection = TRUE;
      self->selected_x = ax;
      self->selected_y = ay;
      if (button == GDK_BUTTON_SECONDARY)
        remove_feature_at (self, ax, ay);
      else
        {
          self->moving_feature = TRUE;
          self->move_from_x = ax;
          self->move_from_y = ay;
          self->press_x = x;
          self->press_y = y;
        }
      return;
    }

  if (button == GDK_BUTTON_PRIMARY && name[0] != '\0' && x >= 0 && y >= 0)
    {
      g_autoptr(TerrainCommand) command =
        terrain_tnt_edit_new_place_feature (map, name, x, y,
                                            catalog != NULL ? terrain_feature_catalog_footprint_func : NULL,
                                            catalog != NULL ? g_object_ref (catalog) : NULL,
                                            catalog != NULL ? g_object_unref : NULL);

      if (execute (self, command))
        {
          self->have_selection = TRUE;
          self->selected_x = x;
          self->selected_y = y;
        }
    }
}

static void
void_event (TerrainEditorWindow   *self,
            TerrainEditorMapPhase  phase,
            double                 fx,
            double                 fy,
            guint                  button)
{
  TerrainTntMap *map = get_tnt (self);
  int x = CLAMP ((int) floor (fx), 0, (int) terrain_tnt_map_get_width (map) - 1);
  int y = CLAMP ((int) floor (fy), 0, (int) terrain_tnt_map_get_height (map) - 1);
  int x0 = MIN (x, self->press_x), y0 = MIN (y, self->press_y);
  int w = ABS (x - self->press_x) + 1, h = ABS (y - self->press_y) + 1;

  switch (phase)
    {
    case TERRAIN_EDITOR_MAP_PRESS:
      self->press_x = x;
      self->press_y = y;
      self->stroking = TRUE;
      terrain_editor_map_view_set_preview_rect (self->map_view, TRUE, x, y, 1, 1, button != GDK_BUTTON_PRIMARY);
      break;
    case TERRAIN_EDITOR_MAP_DRAG:
      if (self->stroking)
        terrain_editor_map_view_set_preview_rect (self->map_view, TRUE, x0, y0, w, h, button != GDK_BUTTON_PRIMARY);
      break;
    case TERRAIN_EDITOR_MAP_RELEASE:
      if (self->stroking)
        {
          g_autoptr(TerrainCommand) command =
            terrain_tnt_edit_new_void (map, x0, y0, w, h, button == GDK_BUTTON_PRIMARY);

          self->stroking = FALSE;
          terrain_editor_map_view_set_preview_rect (self->map_view, FALSE, 0, 0, 0, 0, FALSE);
          execute (self, command);
        }
      break;
    default:
      break;
    }
}

static void
tiles_event (TerrainEditorWindow   *self,
             TerrainEditorMapPhase  phase,
             double                 fx,
             double                 fy,
             guint                  button)
{
  TerrainTntMap *map = get_tnt (self);
  int column = (int) floor (fx / 2), row = (int) floor (fy / 2);
  guint16 tile = (guint16) gtk_adjustment_get_value (self->tile_adjustment);

  if (column < 0 || row < 0 || column >= (int) terrain_tnt_map_get_tile_columns (map)
      || row >= (int) terrain_tnt_map_get_tile_rows (map))
    {
      terrain_editor_map_view_set_preview_rect (self->map_view, FALSE, 0, 0, 0, 0, FALSE);
      return;
    }
  terrain_editor_map_view_set_preview_rect (self->map_view, phase != TERRAIN_EDITOR_MAP_LEAVE,
                                            column * 2, row * 2, 2, 2, FALSE);

  if (phase == TERRAIN_EDITOR_MAP_PRESS && button == GDK_BUTTON_SECONDARY)
    {
      gtk_adjustment_set_value (self->tile_adjustment, terrain_tnt_map_get_tile_index (map, column, row));
      return;
    }
  if (phase == TERRAIN_EDITOR_MAP_PRESS && button == GDK_BUTTON_PRIMARY)
    {
      self->stroking = TRUE;
      terrain_command_stack_seal (self->stack);
      terrain_command_stack_begin_user_action (self->stack, _("paint tiles"));
    }
  if ((phase == TERRAIN_EDITOR_MAP_PRESS || phase == TERRAIN_EDITOR_MAP_DRAG) && self->stroking
      && terrain_tnt_map_get_tile_index (map, column, row) != tile)
    {
      g_autoptr(TerrainCommand) command = terrain_tnt_edit_new_paint_tiles (map, column, row, 1, 1, tile);

      execute (self, command);
    }
  if (phase == TERRAIN_EDITOR_MAP_RELEASE && self->stroking)
    {
      self->stroking = FALSE;
      terrain_command_stack_end_user_action (self->stack);
    }
}

static void
show_cell_properties (TerrainEditorWindow *self,
                      double               fx,
                      double               fy)
{
  TerrainTntMap *map = get_tnt (self);
  GString *text = g_string_new (NULL);
  int x = (int) floor (fx), y = (int) floor (fy);
  g_autofree char *status = NULL;

  if (map != NULL && x >= 0 && y >= 0 && x < (int) terrain_tnt_map_get_width (map)
      && y < (int) terrain_tnt_map_get_height (map))
    {
      guint16 feature = terrain_tnt_map_get_cell_feature (map, x, y);
      guint8 height = terrain_tnt_map_get_cell_height (map, x, y);
      int ax, ay;

      g_string_append_printf (text, _("Cell: %d, %d\n"), x, y);
      g_string_append_printf (text, _("Height: %u%s\n"), height,
                              height < terrain_tnt_map_get_sea_level (map) ? _(" (under water)") : "");
      g_string_append_printf (text, _("Tile: %u at %d, %d\n"), terrain_tnt_map_get_tile_index (map, x / 2, y / 2),
                              x / 2, y / 2);
      if (feature == TERRAIN_TNT_FEATURE_VOID)
        g_string_append (text, _("Feature word: void\n"));
      else if (feature < terrain_tnt_map_get_n_features (map))
        g_string_append_printf (text, _("Feature word: %u (%s)\n"), feature,
                                terrain_tnt_map_get_feature_name (map, feature));
      else
        g_string_append_printf (text, _("Feature word: 0x%04X\n"), feature);

      if (find_feature_at (self, x, y, &ax, &ay))
        {
          const char *name = terrain_tnt_map_get_feature_name (map, terrain_tnt_map_get_cell_feature (map, ax, ay));
          TerrainFeatureCatalog *catalog = get_catalog (self);
          TerrainFeatureDefinition *definition = catalog != NULL && name != NULL
                                                 ? terrain_feature_catalog_lookup (catalog, name) : NULL;

          g_string_append_printf (text, _("\nFeature “%s” anchored at %d, %d\n"), name, ax, ay);
          if (definition != NULL)
            {
              guint fw, fh;

              terrain_feature_definition_get_footprint (definition, &fw, &fh);
              g_string_append_printf (text, _("Footprint: %u×%u\nWorld: %s\nDescription: %s\nMetal: %d, energy: %d\nDefined in: %s\n"),
                                      fw, fh,
                                      terrain_feature_definition_get_world (definition) ?: "",
                                      terrain_feature_definition_get_description (definition) ?: "",
                                      terrain_feature_definition_get_metal (definition),
                                      terrain_feature_definition_get_energy (definition),
                                      terrain_feature_definition_get_origin (definition) ?: "");
            }
        }
      status = g_strdup_printf (_("Cell %d, %d — height %u"), x, y, height);
    }
  else if (self->document != NULL && x >= 0 && y >= 0)
    status = g_strdup_printf (_("Position %d, %d"), x, y);

  gtk_label_set_text (self->properties_label, text->str);
  gtk_label_set_text (self->status_label, status != NULL ? status : "");
  g_string_free (text, TRUE);
}

static void
on_cell_event (TerrainEditorWindow   *self,
               TerrainEditorMapPhase  phase,
               double                 x,
               double                 y,
               guint                  button,
               GdkModifierType        state)
{
  gboolean tnt = get_tnt (self) != NULL;

  if (phase == TERRAIN_EDITOR_MAP_HOVER || phase == TERRAIN_EDITOR_MAP_PRESS)
    show_cell_properties (self, x, y);
  if (phase == TERRAIN_EDITOR_MAP_PRESS)
    terrain_editor_map_view_set_highlight (self->map_view, FALSE, 0, 0);
  if (!tnt || self->stack == NULL)
    return;

  if (g_strcmp0 (self->tool, "brush") == 0)
    brush_event (self, phase, x, y, button, state);
  else if (g_strcmp0 (self->tool, "features") == 0)
    features_event (self, phase, x, y, button);
  else if (g_strcmp0 (self->tool, "void") == 0)
    void_event (self, phase, x, y, button);
  else if (g_strcmp0 (self->tool, "tiles") == 0)
    tiles_event (self, phase, x, y, button);
  else if (g_strcmp0 (self->tool, "inspect") == 0 && phase == TERRAIN_EDITOR_MAP_PRESS)
    {
      int ax, ay;

      self->have_selection = find_feature_at (self, (int) floor (x), (int) floor (y), &ax, &ay);
      self->selected_x = ax;
      self->selected_y = ay;
      if (self->have_selection)
        gtk_notebook_set_current_page (self->side_notebook, 4);
    }
}

static void
on_gl_cell_activated (TerrainEditorWindow *self,
                      double               x,
                      double               y,
                      guint                button)
{
  /* A click in the 3D view acts like a click and release in the 2D view. */
  on_cell_event (self, TERRAIN_EDITOR_MAP_PRESS, x, y, button, 0);
  on_cell_event (self, TERRAIN_EDITOR_MAP_RELEASE, x, y, button, 0);
}

/* The 3D view's chunk-level legend and figures, shown while there are
 * some (levels on, an Atlas file). */
/* A file with nothing to draw in 3D says why there (as the 2D view does). */
static void
on_gl_empty_message (TerrainEditorWindow *self)
{
  g_autofree char *message = NULL;

  g_object_get (self->gl_view, "empty-message", &message, NULL);
  gtk_label_set_text (self->gl_empty_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->gl_empty_label), message != NULL);
}

static void
on_atlas_readout (TerrainEditorWindow *self)
{
  const char *readout = terrain_editor_gl_view_get_atlas_readout (TERRAIN_EDITOR_GL_VIEW (self->gl_view));

  gtk_label_set_markup (self->chunk_levels_label, readout);
  gtk_widget_set_visible (GTK_WIDGET (self->chunk_levels_label), readout[0] != '\0');
}

static void
on_gl_failed (TerrainEditorWindow *self,
              const char          *message)
{
  g_autofree char *text = g_strdup_printf (_("The 3D view is not available: %s"), message);

  terrain_editor_window_show_error (self, text);
  gtk_notebook_set_current_page (self->view_notebook, 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->gl_box), FALSE);
}

static void
set_tool (TerrainEditorWindow *self,
          const char          *tool)
{
  if (g_strcmp0 (self->tool, tool) == 0)
    return;
  /* Alt+2 on an Atlas file, say: the tool has nothing to edit there. */
  if (self->document != NULL && !tool_applies (self, tool))
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  g_free (self->tool);
  self->tool = g_strdup (tool);
  if (gtk_stack_get_child_by_name (self->tool_stack, tool) != NULL)
    gtk_stack_set_visible_child_name (self->tool_stack, tool);
  gtk_notebook_set_current_page (self->side_notebook, 0);
  terrain_editor_map_view_set_brush (self->map_view, FALSE, 0, 0, 0);
  terrain_editor_map_view_set_preview_rect (self->map_view, FALSE, 0, 0, 0, 0, FALSE);
  if (self->gl_view != NULL)
    terrain_editor_gl_view_set_brush (TERRAIN_EDITOR_GL_VIEW (self->gl_view), FALSE, 0, 0, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOOL]);
}

/* ------------------------------------------------------------------------ */
/* Closing, drag and drop, window state                                     */

static void
on_confirm_response (GtkDialog           *dialog,
                     int                  response,
                     TerrainEditorWindow *self)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_REJECT)
    {
      self->force_close = TRUE;
      gtk_window_close (GTK_WINDOW (self));
    }
  else if (response == GTK_RESPONSE_ACCEPT)
    {
      if (can_save_in_place (self))
        {
          if (save_to (self, self->file))
            {
              self->force_close = TRUE;
              gtk_window_close (GTK_WINDOW (self));
            }
        }
      else
        {
          self->closing_after_save = TRUE;
          save_as_dialog (self);
        }
    }
}

static gboolean
terrain_editor_window_close_request (GtkWindow *window)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (window);
  TerrainEditorApplication *app = get_app (self);

  if (!self->force_close && self->document != NULL
      && (!terrain_command_stack_get_clean (self->stack) || terrain_document_get_modified (self->document)))
    {
      g_autofree char *name = self->file != NULL ? g_file_get_basename (self->file) : g_strdup (_("Untitled"));
      GtkWidget *dialog = gtk_message_dialog_new (window, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                  GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                                  _("Save changes to “%s” before closing?"), name);

      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                                _("Your changes will be lost if you don’t save them."));
      gtk_dialog_add_buttons (GTK_DIALOG (dialog),
                              _("_Cancel"), GTK_RESPONSE_CANCEL,
                              _("_Discard"), GTK_RESPONSE_REJECT,
                              _("_Save"), GTK_RESPONSE_ACCEPT,
                              NULL);
      gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
      g_signal_connect (dialog, "response", G_CALLBACK (on_confirm_response), self);
      gtk_window_present (GTK_WINDOW (dialog));
      return TRUE;
    }

  if (app != NULL)
    {
      GSettings *settings = terrain_editor_application_get_settings (app);
      int width, height;

      gtk_window_get_default_size (window, &width, &height);
      if (!gtk_window_is_maximized (window))
        {
          g_settings_set_int (settings, "window-width", width);
          g_settings_set_int (settings, "window-height", height);
        }
      g_settings_set_boolean (settings, "window-maximized", gtk_window_is_maximized (window));
    }
  g_cancellable_cancel (self->cancellable);

  return GTK_WINDOW_CLASS (terrain_editor_window_parent_class)->close_request (window);
}

static gboolean
on_drop (GtkDropTarget       *target,
         const GValue        *value,
         double               x,
         double               y,
         TerrainEditorWindow *self)
{
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = g_value_get_boxed (value);
  for (GSList *l = files; l != NULL; l = l->next)
    {
      if (l == files && terrain_editor_window_is_empty (self))
        terrain_editor_window_load (self, l->data);
      else
        terrain_editor_application_open_file (get_app (self), l->data);
    }
  return TRUE;
}

static void
fill_recent_menu (TerrainEditorWindow *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  guint n = 0;

  g_menu_remove_all (self->recent_menu);
  for (GList *l = items; l != NULL && n < 10; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      g_autoptr(GMenuItem) item = NULL;

      if (!gtk_recent_info_has_application (info, g_get_prgname ()) || !gtk_recent_info_exists (info))
        continue;
      item = g_menu_item_new (gtk_recent_info_get_display_name (info), NULL);
      g_menu_item_set_action_and_target_value (item, "app.open-recent",
                                               g_variant_new_string (gtk_recent_info_get_uri (info)));
      g_menu_append_item (self->recent_menu, item);
      n++;
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static gboolean *
flag_for_prop (TerrainEditorWindow *self,
               guint                prop_id)
{
  switch (prop_id)
    {
    case PROP_SHOW_GRID: return &self->show_grid;
    case PROP_SHOW_FEATURES: return &self->show_features;
    case PROP_SHOW_CONTOURS: return &self->show_contours;
    case PROP_SHOW_VOIDS: return &self->show_voids;
    case PROP_SHOW_START_POSITIONS: return &self->show_start_positions;
    case PROP_SHOW_CHUNK_LEVELS: return &self->show_chunk_levels;
    default: return NULL;
    }
}

static void
terrain_editor_window_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (object);
  gboolean *flag = flag_for_prop (self, prop_id);

  if (flag != NULL)
    g_value_set_boolean (value, *flag);
  else if (prop_id == PROP_TOOL)
    g_value_set_string (value, self->tool);
  else if (prop_id == PROP_BUSY)
    g_value_set_boolean (value, self->busy);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
terrain_editor_window_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (object);
  gboolean *flag = flag_for_prop (self, prop_id);

  if (flag != NULL)
    {
      if (*flag != g_value_get_boolean (value))
        {
          *flag = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
    }
  else if (prop_id == PROP_TOOL)
    set_tool (self, g_value_get_string (value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

/* Called once the window belongs to the application (after construction:
 * GtkWindow:application is not a construct property). */
static void
apply_settings (TerrainEditorWindow *self)
{
  TerrainEditorApplication *app = get_app (self);
  GSettings *settings;

  if (app == NULL)
    return;
  settings = terrain_editor_application_get_settings (app);
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (settings, "window-width"),
                               g_settings_get_int (settings, "window-height"));
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  g_settings_bind (settings, "show-grid", self, "show-grid", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "show-features", self, "show-features", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "show-contours", self, "show-contours", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "show-voids", self, "show-voids", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "show-start-positions", self, "show-start-positions", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "show-chunk-levels", self, "show-chunk-levels", G_SETTINGS_BIND_DEFAULT);

  g_signal_connect_object (gtk_recent_manager_get_default (), "changed",
                           G_CALLBACK (fill_recent_menu), self, G_CONNECT_SWAPPED);
  fill_recent_menu (self);
  if (terrain_editor_application_get_palette_error (app) != NULL)
    terrain_editor_window_show_error (self, terrain_editor_application_get_palette_error (app));
}

static void
terrain_editor_window_dispose (GObject *object)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  if (self->stack != NULL)
    g_signal_handlers_disconnect_by_data (self->stack, self);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->stack);
  g_clear_object (&self->document);
  g_clear_object (&self->ota);
  g_clear_object (&self->file);
  g_clear_object (&self->sea_level_command);
  g_clear_pointer (&self->tile_textures, g_ptr_array_unref);

  gtk_widget_dispose_template (GTK_WIDGET (self), TERRAIN_EDITOR_TYPE_WINDOW);

  G_OBJECT_CLASS (terrain_editor_window_parent_class)->dispose (object);
}

static void
terrain_editor_window_finalize (GObject *object)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (object);

  g_free (self->tool);
  g_free (self->error_message);

  G_OBJECT_CLASS (terrain_editor_window_parent_class)->finalize (object);
}

static void
terrain_editor_window_class_init (TerrainEditorWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);
  /* The overlay flags, in property order; show-chunk-levels is the 3D
   * view's, the others the 2D view's. */
  const char *flags[] = { "show-grid", "show-features", "show-contours", "show-voids", "show-start-positions",
                          "show-chunk-levels" };

  object_class->get_property = terrain_editor_window_get_property;
  object_class->set_property = terrain_editor_window_set_property;
  object_class->dispose = terrain_editor_window_dispose;
  object_class->finalize = terrain_editor_window_finalize;
  window_class->close_request = terrain_editor_window_close_request;

  properties[PROP_TOOL] =
    g_param_spec_string ("tool", NULL, NULL, "inspect",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
    properties[PROP_SHOW_GRID + i] =
      g_param_spec_boolean (flags[i], NULL, NULL, FALSE,
                            G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (TERRAIN_EDITOR_TYPE_MAP_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/libterrain/Editor/terrain-editor-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, info_bar);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, info_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, view_notebook);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, side_notebook);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, map_view);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, gl_box);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, gl_overlay);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, chunk_levels_button);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, chunk_levels_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, gl_empty_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, tool_buttons);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, tool_stack);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, sea_adjustment);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, radius_adjustment);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, strength_adjustment);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, level_adjustment);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, tile_adjustment);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, brush_mode);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, brush_falloff);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, feature_entry);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, tile_picture);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, tile_grid);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, atlas_box);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, structure_list);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, feature_list);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, findings_list);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, findings_tab_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, properties_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, recent_menu);

  gtk_widget_class_install_action (widget_class, "win.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.save-as", "s", save_as_action);
  gtk_widget_class_install_action (widget_class, "win.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "win.redo", NULL, redo_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-fit", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.zoom-one", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "win.validate", NULL, validate_action);
  gtk_widget_class_install_action (widget_class, "win.regenerate-minimap", NULL, regenerate_minimap_action);
  gtk_widget_class_install_action (widget_class, "win.import-image", NULL, import_image_action);
  gtk_widget_class_install_action (widget_class, "win.delete-feature", NULL, delete_feature_action);
  gtk_widget_class_install_property_action (widget_class, "win.tool", "tool");
  for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
    {
      g_autofree char *name = g_strconcat ("win.", flags[i], NULL);

      gtk_widget_class_install_property_action (widget_class, name, flags[i]);
    }
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "win.delete-feature", NULL);
}

static void
terrain_editor_window_init (TerrainEditorWindow *self)
{
  GtkListItemFactory *factory;
  GtkDropTarget *drop;
  GtkWidget *button = NULL;
  const char *flags[] = { "show-grid", "show-features", "show-contours", "show-voids", "show-start-positions" };

  self->tool = g_strdup ("inspect");
  self->show_features = TRUE;
  self->show_voids = TRUE;
  self->show_start_positions = TRUE;

  gtk_widget_init_template (GTK_WIDGET (self));

  for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
    g_object_bind_property (self, flags[i], self->map_view, flags[i], G_BINDING_SYNC_CREATE);

  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      g_autofree char *detailed = NULL;
      g_autofree char *target = g_strdup_printf ("'%s'", tools[i].id);
      g_autofree char *tooltip = g_strdup_printf (_("%s (Alt+%u)"), _(tools[i].label), i + 1);

      gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name (tools[i].icon));
      gtk_box_append (GTK_BOX (box), gtk_label_new (_(tools[i].label)));
      button = gtk_toggle_button_new ();
      gtk_button_set_child (GTK_BUTTON (button), box);
      detailed = g_strdup_printf ("win.tool(%s)", target);
      gtk_actionable_set_detailed_action_name (GTK_ACTIONABLE (button), detailed);
      gtk_widget_set_tooltip_text (button, tooltip);
      gtk_grid_attach (self->tool_buttons, button, i % 4, i / 4, 1, 1);
      self->tool_button[i] = button;
    }

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_structure_row), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_structure_row), NULL);
  gtk_list_view_set_factory (self->structure_list, factory);
  g_object_unref (factory);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_plain_row), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_plain_row), NULL);
  gtk_list_view_set_factory (self->feature_list, factory);
  gtk_list_view_set_factory (self->findings_list, factory);
  g_object_unref (factory);
  g_signal_connect (self->findings_list, "activate", G_CALLBACK (on_finding_activated), self);
  g_signal_connect (self->structure_list, "activate", G_CALLBACK (on_structure_activated), self);
  g_signal_connect (self->feature_list, "activate", G_CALLBACK (on_feature_activated), self);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_tile_cell), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_tile_cell), self);
  gtk_grid_view_set_factory (self->tile_grid, factory);
  g_object_unref (factory);
  g_signal_connect (self->tile_grid, "activate", G_CALLBACK (on_tile_activated), self);
  g_signal_connect_swapped (self->tile_adjustment, "value-changed", G_CALLBACK (update_tile_picture), self);

  g_signal_connect_swapped (self->sea_adjustment, "value-changed", G_CALLBACK (on_sea_level_changed), self);
  g_signal_connect_swapped (self->info_bar, "response", G_CALLBACK (on_info_bar_response), self);
  g_signal_connect_swapped (self->map_view, "cell-event", G_CALLBACK (on_cell_event), self);

  self->gl_view = terrain_editor_gl_view_new ();
  gtk_widget_set_vexpand (self->gl_view, TRUE);
  gtk_widget_set_hexpand (self->gl_view, TRUE);
  gtk_overlay_set_child (self->gl_overlay, self->gl_view);
  g_object_bind_property (self, "show-chunk-levels", self->gl_view, "show-chunk-levels",
                          G_BINDING_SYNC_CREATE);
  g_object_bind_property (self, "show-features", self->gl_view, "show-features",
                          G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (self->gl_view, "notify::atlas-readout", G_CALLBACK (on_atlas_readout), self);
  g_signal_connect_swapped (self->gl_view, "notify::empty-message", G_CALLBACK (on_gl_empty_message),
                            self);
  g_signal_connect_swapped (self->gl_view, "gl-failed", G_CALLBACK (on_gl_failed), self);
  g_signal_connect_swapped (self->gl_view, "cell-activated", G_CALLBACK (on_gl_cell_activated), self);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  set_document (self, NULL, NULL);
}

TerrainEditorWindow *
terrain_editor_window_new (TerrainEditorApplication *application)
{
  TerrainEditorWindow *self = g_object_new (TERRAIN_EDITOR_TYPE_WINDOW, "application", application, NULL);

  apply_settings (self);
  return self;
}
