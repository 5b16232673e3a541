/* terrain-editor-recovery-dialog.c
 *
 * The dialog a start shows when an earlier editor left recovery copies
 * (it was killed or crashed with unsaved edits): one row a copy, with the
 * map's name, its folder, when the copy was written, how many edits it
 * holds and the last one's name, and Recover and Discard buttons. Recover
 * opens the copy in a window with unsaved edits (Save writes it to the
 * original file); Discard deletes the copy. Copies the dialog is closed
 * on are offered again at the next start.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-recovery-dialog.h"
#include "terrain-editor-recovery.h"
#include "terrain-editor-window.h"

#include <glib/gi18n.h>

typedef struct
{
  TerrainEditorApplication *application;
  char *dir;
  GtkWindow *dialog;
  GtkListBox *list;
} Dialog;

static void
dialog_free (Dialog *d)
{
  g_object_unref (d->application);
  g_free (d->dir);
  g_free (d);
}

/* Three lines: the folder, when and how many edits, the last edit. */
static char *
describe_entry (const TerrainEditorRecoveryEntry *entry)
{
  g_autofree char *when = terrain_editor_recovery_entry_format_time (entry);
  g_autofree char *edits = NULL;
  g_autofree char *folder = NULL;
  GString *text = g_string_new (NULL);

  if (entry->uri != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (entry->uri);
      g_autoptr(GFile) parent = g_file_get_parent (file);

      folder = parent != NULL ? g_file_get_parse_name (parent) : g_file_get_parse_name (file);
    }
  edits = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u edit", "%u edits", entry->edits), entry->edits);
  g_string_append_printf (text, "%s\n", folder != NULL ? folder : _("Never saved"));
  /* Translators: when the copy was written, then how many edits it holds. */
  g_string_append_printf (text, _("Copy from %s, %s"), when, edits);
  if (entry->last_edit != NULL)
    /* Translators: the name of the last edit, as in the Undo menu. */
    g_string_append_printf (text, _("\nLast edit: %s"), entry->last_edit);
  return g_string_free (text, FALSE);
}

/* The window to recover into: the one showing the same file with no
 * edits, an empty one, or a new one. */
static TerrainEditorWindow *
window_for (TerrainEditorApplication         *application,
            const TerrainEditorRecoveryEntry *entry)
{
  g_autoptr(GFile) file = entry->uri != NULL ? g_file_new_for_uri (entry->uri) : NULL;

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (application)); l != NULL; l = l->next)
    {
      TerrainEditorWindow *window;
      TerrainDocument *document;
      GFile *other;

      if (!TERRAIN_EDITOR_IS_WINDOW (l->data))
        continue;
      window = l->data;
      document = terrain_editor_window_get_document (window);
      other = terrain_editor_window_get_file (window);
      if (terrain_editor_window_is_empty (window))
        return window;
      if (file != NULL && other != NULL && g_file_equal (file, other) && document != NULL
          && !terrain_document_get_modified (document)
          && terrain_command_stack_get_clean (terrain_editor_window_get_command_stack (window)))
        return window;
    }
  return terrain_editor_window_new (application);
}

static void
remove_row (Dialog    *d,
            GtkWidget *row)
{
  GtkWidget *first;

  /* The row's Recover button may be the default: GTK 4.8 keeps a removed
   * default widget, and unsets it, on a disposed button, when the dialog
   * goes. The next row's Recover becomes the default. */
  gtk_window_set_default_widget (d->dialog, NULL);
  gtk_list_box_remove (d->list, row);
  first = gtk_widget_get_first_child (GTK_WIDGET (d->list));
  if (first == NULL)
    {
      gtk_window_destroy (d->dialog);
      return;
    }
  gtk_window_set_default_widget (d->dialog, g_object_get_data (G_OBJECT (first), "recover"));
  gtk_widget_grab_focus (g_object_get_data (G_OBJECT (first), "recover"));
}

static void
on_recover (GtkButton *button,
            Dialog    *d)
{
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_LIST_BOX_ROW);
  TerrainEditorRecoveryEntry *entry = g_object_get_data (G_OBJECT (row), "entry");
  TerrainEditorWindow *window = window_for (d->application, entry);

  terrain_editor_window_recover (window, entry);
  gtk_window_present (GTK_WINDOW (window));
  remove_row (d, row);
}

static void
on_discard (GtkButton *button,
            Dialog    *d)
{
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_LIST_BOX_ROW);
  TerrainEditorRecoveryEntry *entry = g_object_get_data (G_OBJECT (row), "entry");
  g_autoptr(GError) error = NULL;

  if (!terrain_editor_recovery_clear (d->dir, entry->id, &error))
    {
      GtkWidget *label = g_object_get_data (G_OBJECT (row), "detail");

      gtk_label_set_text (GTK_LABEL (label), error->message);
      return;
    }
  remove_row (d, row);
}

static GtkWidget *
make_row (Dialog                           *d,
          const TerrainEditorRecoveryEntry *entry,
          GtkWidget                       **recover_button)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *name = gtk_label_new (entry->name);
  g_autofree char *description = describe_entry (entry);
  GtkWidget *detail = gtk_label_new (description);
  GtkWidget *discard = gtk_button_new_with_mnemonic (_("_Discard"));
  GtkWidget *recover = gtk_button_new_with_mnemonic (_("_Recover"));

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_widget_add_css_class (name, "heading");
  gtk_label_set_xalign (GTK_LABEL (detail), 0);
  /* Long folders are cut in the middle rather than wrapped, so that the
   * row's height is its three lines. */
  gtk_label_set_ellipsize (GTK_LABEL (detail), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_width_chars (GTK_LABEL (detail), 30);
  gtk_widget_add_css_class (detail, "dim-label");
  gtk_widget_set_hexpand (text, TRUE);
  gtk_box_append (GTK_BOX (text), name);
  gtk_box_append (GTK_BOX (text), detail);
  gtk_widget_set_valign (discard, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (recover, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (discard, "destructive-action");
  gtk_widget_add_css_class (recover, "suggested-action");
  gtk_widget_set_name (discard, "discard");
  gtk_widget_set_name (recover, "recover");
  gtk_box_append (GTK_BOX (box), text);
  gtk_box_append (GTK_BOX (box), discard);
  gtk_box_append (GTK_BOX (box), recover);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data_full (G_OBJECT (row), "entry", terrain_editor_recovery_entry_copy (entry),
                          (GDestroyNotify) terrain_editor_recovery_entry_free);
  g_object_set_data (G_OBJECT (row), "detail", detail);
  g_object_set_data (G_OBJECT (row), "recover", recover);
  g_signal_connect (discard, "clicked", G_CALLBACK (on_discard), d);
  g_signal_connect (recover, "clicked", G_CALLBACK (on_recover), d);
  *recover_button = recover;
  return row;
}

/*
 * terrain_editor_recovery_dialog_new:
 * @application: the application to open recovered documents in
 * @parent: (nullable): the window the dialog belongs to
 * @dir: the recovery folder the copies are in
 * @entries: (element-type TerrainEditorRecoveryEntry): at least one copy
 *
 * Returns: (transfer none): the dialog (not shown yet); the first copy's
 * Recover button has the focus, so Enter recovers it.
 */
GtkWindow *
terrain_editor_recovery_dialog_new (TerrainEditorApplication *application,
                                    GtkWindow                *parent,
                                    const char               *dir,
                                    GPtrArray                *entries)
{
  Dialog *d = g_new0 (Dialog, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *heading = gtk_label_new (_("Recover unsaved changes?"));
  GtkWidget *body = gtk_label_new (g_dngettext (GETTEXT_PACKAGE,
                                                "The editor did not close cleanly, and a map had unsaved "
                                                "changes. A copy of them was kept; the map’s own file was "
                                                "not changed.",
                                                "The editor did not close cleanly, and maps had unsaved "
                                                "changes. Copies of them were kept; the maps’ own files "
                                                "were not changed.",
                                                entries->len));
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *later = gtk_button_new_with_mnemonic (_("Decide _Later"));
  GtkWidget *first_recover = NULL;

  g_return_val_if_fail (TERRAIN_EDITOR_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (entries != NULL && entries->len > 0, NULL);

  d->application = g_object_ref (application);
  d->dir = g_strdup (dir);
  d->dialog = GTK_WINDOW (gtk_window_new ());
  d->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_window_set_title (d->dialog, _("Recover Unsaved Changes"));
  gtk_window_set_default_size (d->dialog, 560, -1);
  gtk_window_set_modal (d->dialog, parent != NULL);
  if (parent != NULL)
    gtk_window_set_transient_for (d->dialog, parent);
  gtk_window_set_application (d->dialog, GTK_APPLICATION (application));
  g_object_set_data_full (G_OBJECT (d->dialog), "recovery-dialog", d, (GDestroyNotify) dialog_free);

  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "title-2");
  gtk_label_set_xalign (GTK_LABEL (body), 0);
  gtk_label_set_wrap (GTK_LABEL (body), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (body), 60);
  gtk_list_box_set_selection_mode (d->list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (d->list), "boxed-list");
  gtk_widget_add_css_class (GTK_WIDGET (d->list), "frame");
  for (guint i = 0; i < entries->len; i++)
    {
      GtkWidget *recover = NULL;

      gtk_list_box_append (d->list, make_row (d, g_ptr_array_index (entries, i), &recover));
      if (first_recover == NULL)
        first_recover = recover;
    }
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (d->list));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 400);
  gtk_widget_set_halign (later, GTK_ALIGN_END);
  g_signal_connect_swapped (later, "clicked", G_CALLBACK (gtk_window_destroy), d->dialog);

  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), body);
  gtk_box_append (GTK_BOX (box), scrolled);
  gtk_box_append (GTK_BOX (box), later);
  gtk_window_set_child (d->dialog, box);
  gtk_window_set_default_widget (d->dialog, first_recover);
  gtk_window_set_focus (d->dialog, first_recover);
  return d->dialog;
}
