/* terrain-editor-window-archive.c
 *
 * Saving a map into an HPI archive (.ufo, .hpi): Save of a map opened from
 * inside an archive writes it back into that archive, and Save into
 * Archive writes the map and its description into a new (or another)
 * archive as maps/NAME.tnt and maps/NAME.ota. Both go through
 * terrain_hpi_save_map(), which carries every other file of the archive
 * over byte for byte, keeps the replaced archive as ARCHIVE.bak and
 * renames the new one over it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-window-private.h"

#include <glib/gi18n.h>
#include <string.h>

/* The archive and the path inside it of a window's file named
 * ARCHIVE:path/inside, as terrain_document_load_path() opened it. */
static gboolean
split_member (GFile  *file,
              GFile **archive,
              char  **member)
{
  g_autofree char *spec = g_file_get_path (file);

  if (spec == NULL)
    spec = g_file_get_uri (file);
  return spec != NULL && terrain_document_split_archive_path (spec, archive, member, NULL);
}

/* Whether the window holds a TA map opened from inside an archive, which
 * Save writes back into it. */
gboolean
window_archive_can_save (TerrainEditorWindow *self)
{
  g_autoptr(GFile) archive = NULL;
  g_autofree char *member = NULL;

  if (window_get_tnt (self) == NULL || self->file == NULL ||
      terrain_document_get_file (self->document) != NULL)
    return FALSE;
  return split_member (self->file, &archive, &member);
}

/* Writes the map (and its description, when one is loaded) into @archive
 * as @tnt_path; on success the window's file becomes ARCHIVE:tnt_path and
 * the edits count as saved. */
static gboolean
save_into (TerrainEditorWindow *self,
           GFile               *archive,
           const char          *tnt_path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) tnt = NULL;
  g_autoptr(GBytes) ota = NULL;
  g_autoptr(GFile) backup = terrain_hpi_backup_file (archive);
  gboolean existed = g_file_query_exists (archive, NULL);
  g_autofree char *archive_name = g_file_get_parse_name (archive);
  g_autofree char *backup_name = g_file_get_basename (backup);
  g_autofree char *spec = NULL;
  g_autofree char *message = NULL;

  tnt = terrain_document_save_to_bytes (self->document, &error);
  if (tnt != NULL && self->ota != NULL)
    ota = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (self->ota), &error);
  if (tnt == NULL || (self->ota != NULL && ota == NULL) ||
      !terrain_hpi_save_map (archive, tnt_path, tnt, ota, backup, NULL, &error))
    {
      message = g_strdup_printf (_("Could not save “%s” into “%s”: %s"), tnt_path, archive_name,
                                 error->message);
      terrain_editor_window_show_error (self, message);
      return FALSE;
    }

  spec = g_strconcat (archive_name, ":", tnt_path, NULL);
  g_clear_object (&self->file);
  self->file = g_file_new_for_commandline_arg (spec);
  /* Like a map opened from inside an archive, it has no file of its own:
   * Save goes into the archive. */
  terrain_document_set_file (self->document, NULL);
  terrain_document_set_modified (self->document, FALSE);
  if (self->ota != NULL)
    terrain_document_set_modified (TERRAIN_DOCUMENT (self->ota), FALSE);
  terrain_command_stack_mark_clean (self->stack);
  window_recovery_clear (self);
  terrain_editor_application_add_recent (window_get_app (self), self->file);
  g_clear_pointer (&self->error_message, g_free);
  window_update_title (self);
  if (existed)
    /* Translators: the map's path inside the archive, the archive, the backup's name. */
    message = g_strdup_printf (_("Saved “%s” into “%s”; the archive as it was is kept as “%s”."),
                               tnt_path, archive_name, backup_name);
  else
    /* Translators: the map's path inside the archive, then the new archive. */
    message = g_strdup_printf (_("Saved “%s” into the new archive “%s”."), tnt_path, archive_name);
  window_show_info (self, message);
  return TRUE;
}

/* Save of a map opened from inside an archive: back into that archive. */
gboolean
window_archive_save (TerrainEditorWindow *self)
{
  g_autoptr(GFile) archive = NULL;
  g_autofree char *member = NULL;

  if (!window_archive_can_save (self) || !split_member (self->file, &archive, &member))
    return FALSE;
  return save_into (self, archive, member);
}

/* maps/NAME.tnt for the window's map NAME.tnt (a file or a member). */
static char *
map_path_in_archive (TerrainEditorWindow *self)
{
  g_autofree char *name = self->file != NULL ? g_file_get_basename (self->file) : g_strdup ("map.tnt");
  char *dot = strrchr (name, '.');

  if (dot != NULL && dot != name)
    *dot = '\0';
  return g_strconcat ("maps/", name, ".tnt", NULL);
}

/* Save into Archive, to @archive: a new archive, or an existing one the
 * map joins (or replaces its map of the same name in). */
static gboolean
save_into_archive (TerrainEditorWindow *self,
                   GFile               *archive)
{
  g_autofree char *tnt_path = NULL;

  if (window_get_tnt (self) == NULL)
    return FALSE;
  tnt_path = map_path_in_archive (self);
  return save_into (self, archive, tnt_path);
}

static void
on_chooser_response (GtkNativeDialog     *dialog,
                     int                  response,
                     TerrainEditorWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      save_into_archive (self, file);
    }
  g_object_unref (dialog);
}

static void
save_into_archive_dialog (TerrainEditorWindow *self)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *tnt_path = map_path_in_archive (self);
  const char *name = strrchr (tnt_path, '/') + 1;
  g_autofree char *stem = g_strndup (name, strlen (name) - strlen (".tnt"));
  g_autofree char *current = g_strconcat (stem, ".ufo", NULL);
  g_autoptr(GFile) archive = NULL;
  g_autofree char *member = NULL;
  g_autoptr(GFile) folder = NULL;

  chooser = gtk_file_chooser_native_new (_("Save into Archive"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_filter_set_name (filter, _("Total Annihilation archives"));
  gtk_file_filter_add_suffix (filter, "ufo");
  gtk_file_filter_add_suffix (filter, "hpi");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  /* In the folder of the map, or of the archive it came from. */
  if (self->file != NULL)
    folder = split_member (self->file, &archive, &member) ? g_file_get_parent (archive)
                                                           : g_file_get_parent (self->file);
  if (folder != NULL)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), current);
  g_signal_connect (chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
save_into_archive_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (widget);
  const char *uri = parameter != NULL ? g_variant_get_string (parameter, NULL) : "";

  if (window_get_tnt (self) == NULL)
    return;
  /* win.save-into-archive('URI') saves without asking, for scripts and tests. */
  if (uri[0] != '\0')
    {
      g_autoptr(GFile) file = g_file_new_for_uri (uri);

      save_into_archive (self, file);
    }
  else
    save_into_archive_dialog (self);
}

/* Installs win.save-into-archive. */
void
window_archive_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.save-into-archive", "s", save_into_archive_action);
}
