/* terrain-editor-window-panels.c
 *
 * The window's side panels: the Structure tree (from the document's JSON
 * description, archive members, CHU chunks and TQT tiles), Findings,
 * placed Features and the Tiles grid.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-window-private.h"
#include "terrain-editor-atlas-renderer.h"

#include <glib/gi18n.h>
#include <math.h>

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
  window_highlight_atlas_stub (self, data != NULL && TERRAIN_IS_ATLAS_STUB (data) ? data : NULL, FALSE);
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

  if (G_IS_FILE (data) && window_get_app (self) != NULL)
    terrain_editor_application_open_file (window_get_app (self), data);
  else if (data != NULL && TERRAIN_IS_ATLAS_STUB (data))
    window_highlight_atlas_stub (self, data, TRUE);
  else if (row != NULL && gtk_tree_list_row_is_expandable (row))
    gtk_tree_list_row_set_expanded (row, !gtk_tree_list_row_get_expanded (row));
}

void
window_fill_structure (TerrainEditorWindow *self)
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

/* Fills the Findings tab with @issues of the window's document; %NULL
 * while they are being checked. */
static void
show_findings (TerrainEditorWindow *self,
               GPtrArray           *issues)
{
  GListStore *store = g_list_store_new (TERRAIN_EDITOR_TYPE_ITEM);
  GtkSingleSelection *selection;
  g_autofree char *tab = NULL;

  if (self->document != NULL && issues == NULL)
    {
      g_autoptr(TerrainEditorItem) item =
        terrain_editor_item_new (_("Checking the file…"),
                                 _("The findings appear here when every chunk has been checked."));

      g_list_store_append (store, item);
    }
  if (self->document != NULL)
    {
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

  /* While checking, the one row is no finding to count. */
  tab = issues != NULL && g_list_model_get_n_items (G_LIST_MODEL (store)) > 0
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

/* A deep Atlas (terrain_editor_atlas_is_deep_file()) is checked in a
 * worker thread, on a copy opened from its file. */
typedef struct
{
  TerrainDocument *document;   /* the window's, to tell if it is still open */
  GFile           *file;
} FindingsJob;

static void
findings_job_free (FindingsJob *job)
{
  g_object_unref (job->document);
  g_object_unref (job->file);
  g_free (job);
}

static void
findings_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  FindingsJob *job = task_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) copy = terrain_document_load (job->file, NULL, cancellable, &error);

  if (copy == NULL)
    {
      GPtrArray *issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_ptr_array_unref (issues);
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      /* The file changed under the editor: say so as a finding. */
      g_ptr_array_add (issues, terrain_issue_new_literal (TERRAIN_SEVERITY_ERROR, NULL, -1, -1,
                                                          error->message));
      g_task_return_pointer (task, issues, (GDestroyNotify) g_ptr_array_unref);
      return;
    }
  g_task_return_pointer (task, terrain_document_validate (copy), (GDestroyNotify) g_ptr_array_unref);
}

static void
findings_done (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (source);
  FindingsJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GPtrArray) issues = g_task_propagate_pointer (G_TASK (result), NULL);

  if (issues == NULL || self->document != job->document || self->findings_list == NULL)
    return;   /* cancelled, or another document is open */
  show_findings (self, issues);
}

void
window_fill_findings (TerrainEditorWindow *self)
{
  g_autoptr(GPtrArray) issues = NULL;

  if (terrain_editor_atlas_is_deep_file (self->document))
    {
      FindingsJob *job = g_new0 (FindingsJob, 1);
      GTask *task = g_task_new (self, self->cancellable, findings_done, NULL);

      job->document = g_object_ref (self->document);
      job->file = g_object_ref (terrain_document_get_file (self->document));
      g_task_set_task_data (task, job, (GDestroyNotify) findings_job_free);
      g_task_set_name (task, "terrain-editor-findings");
      g_task_run_in_thread (task, findings_thread);
      g_object_unref (task);
      show_findings (self, NULL);
      return;
    }
  if (self->document != NULL)
    issues = terrain_document_validate (self->document);
  show_findings (self, issues);
}

void
window_fill_features (TerrainEditorWindow *self)
{
  GListStore *store = g_list_store_new (TERRAIN_EDITOR_TYPE_ITEM);
  GtkSingleSelection *selection;
  TerrainTntMap *map = window_get_tnt (self);
  TerrainFeatureCatalog *catalog = window_get_catalog (self);

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

/* Tile @index of the map through the palette (the window keeps it), or
 * NULL without a palette. */
GdkTexture *
window_get_tile_texture (TerrainEditorWindow *self,
                         guint                index)
{
  TerrainTntMap *map = window_get_tnt (self);
  TerrainPalette *palette = window_get_palette (self);
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

void
window_update_tile_picture (TerrainEditorWindow *self)
{
  guint index = (guint) gtk_adjustment_get_value (self->tile_adjustment);

  gtk_picture_set_paintable (self->tile_picture, GDK_PAINTABLE (window_get_tile_texture (self, index)));
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
                             GDK_PAINTABLE (window_get_tile_texture (self, index)));
  gtk_widget_set_tooltip_text (gtk_list_item_get_child (list_item), tooltip);
}

static void
on_tile_activated (GtkGridView         *grid,
                   guint                position,
                   TerrainEditorWindow *self)
{
  gtk_adjustment_set_value (self->tile_adjustment, position);
}

void
window_fill_tiles (TerrainEditorWindow *self)
{
  TerrainTntMap *map = window_get_tnt (self);
  GtkStringList *list = gtk_string_list_new (NULL);
  guint n = map != NULL ? terrain_tnt_map_get_n_tiles (map) : 0;
  GtkNoSelection *selection;

  g_clear_pointer (&self->tile_textures, g_ptr_array_unref);
  for (guint i = 0; i < n && window_get_palette (self) != NULL; i++)
    {
      char text[16];

      g_snprintf (text, sizeof text, "%u", i);
      gtk_string_list_append (list, text);
    }
  selection = gtk_no_selection_new (G_LIST_MODEL (list));
  gtk_grid_view_set_model (self->tile_grid, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  gtk_adjustment_set_upper (self->tile_adjustment, n > 0 ? n - 1 : 0);
  window_update_tile_picture (self);
}

/* Sets up the lists of the side panels. */
void
window_panels_init (TerrainEditorWindow *self)
{
  GtkListItemFactory *factory;

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
  g_signal_connect_swapped (self->tile_adjustment, "value-changed", G_CALLBACK (window_update_tile_picture), self);
}
