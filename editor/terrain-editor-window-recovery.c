/* terrain-editor-window-recovery.c
 *
 * Recovery copies of a window's unsaved edits (terrain-editor-recovery.c
 * keeps them on disk). The first edit not yet in a copy starts a bound of
 * recovery-interval seconds (GSettings); every edit restarts an idle delay
 * of RECOVERY_IDLE_SECONDS (or the interval, if shorter). Whichever ends
 * first writes a copy, never in the middle of a brush stroke: the library
 * serialises the document here, on the main thread (the document is not
 * shared with threads), and a worker thread writes the bytes. The copy
 * goes when the document is saved, when the window closes cleanly (saved,
 * or Discard) and when the edits are undone back to the saved state; a
 * crash, a kill or a power loss leaves it for the next start to offer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-window-private.h"

#include <glib/gi18n.h>

#define RECOVERY_IDLE_SECONDS 3
/* While a stroke is under way, a due copy waits this long and looks again. */
#define RECOVERY_RETRY_MS 500

static void arm_timers (TerrainEditorWindow *self);

static guint
interval_seconds (TerrainEditorWindow *self)
{
  TerrainEditorApplication *app = window_get_app (self);

  if (app == NULL)
    return 0;
  return g_settings_get_uint (terrain_editor_application_get_settings (app), "recovery-interval");
}

static gboolean
has_unsaved_edits (TerrainEditorWindow *self)
{
  return self->document != NULL && self->stack != NULL
         && (!terrain_command_stack_get_clean (self->stack) || terrain_document_get_modified (self->document));
}

static void
remove_timers (TerrainEditorWindow *self)
{
  g_clear_handle_id (&self->recovery_bound_source, g_source_remove);
  g_clear_handle_id (&self->recovery_idle_source, g_source_remove);
}

static void
show_recovery_error (TerrainEditorWindow *self,
                     const char          *what)
{
  g_autofree char *message = NULL;

  /* Once a document: the same failure every few seconds would bury the
   * info bar. */
  if (self->recovery_error_shown)
    return;
  self->recovery_error_shown = TRUE;
  message = g_strdup_printf (_("Could not keep a recovery copy of the unsaved changes: %s"), what);
  terrain_editor_window_show_error (self, message);
}

static void
clear_on_disk (TerrainEditorWindow *self)
{
  g_autofree char *dir = terrain_editor_recovery_get_default_dir ();
  g_autoptr(GError) error = NULL;

  if (!terrain_editor_recovery_clear (dir, self->recovery_id, &error))
    show_recovery_error (self, error->message);
  self->recovery_on_disk = FALSE;
}

static void
on_write_done (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(TerrainEditorWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  self->recovery_writing = FALSE;
  if (!terrain_editor_recovery_write_finish (result, &error))
    {
      show_recovery_error (self, error->message);
      return;
    }
  self->recovery_on_disk = TRUE;
  /* A window destroyed meanwhile without closing cleanly keeps it. */
  if (self->recovery_clear_after_write)
    {
      /* Saved, discarded or closed while the copy was being written. */
      self->recovery_clear_after_write = FALSE;
      clear_on_disk (self);
      return;
    }
  /* Edits made meanwhile are due in a copy of their own. */
  if (self->recovery_generation != self->recovery_written_generation)
    arm_timers (self);
}

/* Writes a copy of the document as it is now. */
static gboolean
write_copy (gpointer data)
{
  TerrainEditorWindow *self = data;
  g_autoptr(TerrainEditorRecoveryEntry) entry = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  GFile *file;

  remove_timers (self);
  if (!has_unsaved_edits (self))
    return G_SOURCE_REMOVE;
  if (self->recovery_writing || self->stroking || terrain_command_stack_get_in_user_action (self->stack))
    {
      /* Not in the middle of a stroke, nor twice at a time. */
      self->recovery_idle_source = g_timeout_add (RECOVERY_RETRY_MS, write_copy, self);
      return G_SOURCE_REMOVE;
    }

  bytes = terrain_document_save_to_bytes (self->document, &error);
  if (bytes == NULL)
    {
      show_recovery_error (self, error->message);
      return G_SOURCE_REMOVE;
    }
  if (self->recovery_id == NULL)
    self->recovery_id = g_uuid_string_random ();

  entry = g_new0 (TerrainEditorRecoveryEntry, 1);
  entry->id = g_strdup (self->recovery_id);
  file = self->file;
  entry->uri = file != NULL ? g_file_get_uri (file) : NULL;
  entry->name = file != NULL ? g_file_get_basename (file) : g_strdup (_("Untitled"));
  entry->format = terrain_document_get_format (self->document);
  entry->in_place = window_can_save_in_place (self);
  entry->edits = terrain_command_stack_get_undo_depth (self->stack);
  entry->last_edit = g_strdup (terrain_command_stack_get_undo_description (self->stack));

  dir = terrain_editor_recovery_get_default_dir ();
  self->recovery_writing = TRUE;
  self->recovery_written_generation = self->recovery_generation;
  terrain_editor_recovery_write_async (dir, entry, bytes, NULL, on_write_done, g_object_ref (self));
  return G_SOURCE_REMOVE;
}

static void
arm_timers (TerrainEditorWindow *self)
{
  guint interval = interval_seconds (self);

  if (interval == 0)
    return;
  if (self->recovery_bound_source == 0)
    self->recovery_bound_source = g_timeout_add_seconds (interval, write_copy, self);
  g_clear_handle_id (&self->recovery_idle_source, g_source_remove);
  self->recovery_idle_source = g_timeout_add_seconds (MIN (interval, RECOVERY_IDLE_SECONDS), write_copy, self);
}

/* The document or its history changed: an edit, an undo, a redo, a save. */
void
window_recovery_note_change (TerrainEditorWindow *self)
{
  if (!has_unsaved_edits (self))
    {
      /* Back at the saved state: nothing to recover. */
      window_recovery_clear (self);
      return;
    }
  self->recovery_generation++;
  arm_timers (self);
}

/* Removes the window's copy: its document was saved, or is closing
 * cleanly, or is no longer shown. */
void
window_recovery_clear (TerrainEditorWindow *self)
{
  remove_timers (self);
  if (self->recovery_writing)
    self->recovery_clear_after_write = TRUE;
  else if (self->recovery_on_disk && self->recovery_id != NULL)
    clear_on_disk (self);
  self->recovery_error_shown = FALSE;
}

/* The window goes away without closing cleanly (the application quits
 * or is killed): the copy stays for the next start. */
void
window_recovery_dispose (TerrainEditorWindow *self)
{
  remove_timers (self);
}

/* ------------------------------------------------------------------------ */
/* Recovering a copy                                                        */

typedef struct
{
  TerrainEditorRecoveryEntry *entry;
  TerrainDocument *document;
  TerrainOtaFile *ota;
} RecoverData;

static void
recover_data_free (RecoverData *data)
{
  terrain_editor_recovery_entry_free (data->entry);
  g_clear_object (&data->document);
  g_clear_object (&data->ota);
  g_free (data);
}

static void
recover_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  RecoverData *data = task_data;
  GError *error = NULL;
  g_autoptr(GBytes) bytes = terrain_editor_recovery_load_bytes (data->entry, &error);

  if (bytes != NULL)
    data->document = terrain_document_load_bytes (bytes, data->entry->name, data->entry->format, NULL, &error);
  if (data->document == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* The map's OTA is not edited in the editor: the one beside the file. */
  if (TERRAIN_IS_TNT_MAP (data->document) && data->entry->in_place && data->entry->uri != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (data->entry->uri);
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL)
        data->ota = window_load_sibling_ota (file, path, cancellable);
    }
  g_task_return_boolean (task, TRUE);
}

static void
recover_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (source);
  RecoverData *data = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autofree char *when = NULL;
  g_autofree char *message = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_autofree char *text = g_strdup_printf (_("Could not recover “%s”: %s"), data->entry->name,
                                               error->message);

      window_set_busy (self, FALSE);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        terrain_editor_window_show_error (self, text);
      g_clear_object (&self->file);
      window_set_document (self, NULL, NULL);
      return;
    }

  window_set_document (self, data->document, data->ota);
  /* Save writes to the original file when it could before; the document
   * has unsaved edits, and its history no clean point. */
  if (data->entry->in_place && self->file != NULL)
    terrain_document_set_file (data->document, self->file);
  terrain_document_set_modified (data->document, TRUE);
  /* The window keeps the copy (under its ID) until it is saved or closed
   * cleanly, so a second crash before that loses nothing either. */
  self->recovery_id = g_strdup (data->entry->id);
  self->recovery_on_disk = TRUE;
  window_update_title (self);
  window_set_busy (self, FALSE);

  when = terrain_editor_recovery_entry_format_time (data->entry);
  /* Translators: the map's name, then the date and time of the copy. */
  message = g_strdup_printf (_("Recovered the unsaved changes to “%s” (the copy from %s). Save to keep them."),
                             data->entry->name, when);
  window_show_info (self, message);
}

/**
 * terrain_editor_window_recover:
 * @self: an empty window
 * @entry: a recovery copy (terrain_editor_recovery_list())
 *
 * Opens the copy's document with unsaved edits; Save writes it to the
 * file the copy was made of (or asks where, if that was not a file of its
 * own, as for a map inside an archive). The copy stays until then.
 */
void
terrain_editor_window_recover (TerrainEditorWindow              *self,
                               const TerrainEditorRecoveryEntry *entry)
{
  g_autoptr(GTask) task = NULL;
  RecoverData *data;

  g_return_if_fail (TERRAIN_EDITOR_IS_WINDOW (self));
  g_return_if_fail (entry != NULL);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  if (entry->uri != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (entry->uri);

      g_set_object (&self->file, file);
    }
  else
    g_clear_object (&self->file);
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
  g_clear_pointer (&self->error_message, g_free);
  window_set_busy (self, TRUE);
  window_update_title (self);

  data = g_new0 (RecoverData, 1);
  data->entry = terrain_editor_recovery_entry_copy (entry);
  task = g_task_new (self, self->cancellable, recover_done, NULL);
  g_task_set_source_tag (task, terrain_editor_window_recover);
  g_task_set_task_data (task, data, (GDestroyNotify) recover_data_free);
  g_task_run_in_thread (task, recover_thread);
}
