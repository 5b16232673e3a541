/* terrain-editor-recovery.c: recovery copies of documents with unsaved edits
 *
 * A window with unsaved edits keeps a copy of its document in a folder of
 * the user's state directory ($XDG_STATE_HOME/libterrain/recovery), never
 * next to or over the user's file, so that the edits survive the editor
 * being killed. Each copy is two files:
 *
 *   ID-GENERATION.data   the document's bytes, as the library writes them
 *                        (terrain_document_save_to_bytes(): what Save would
 *                        write)
 *   ID.recovery          the manifest (a GKeyFile): which file the copy is
 *                        of, its format, when it was written, how many
 *                        edits, the last one's name, the data file's name,
 *                        size and SHA-256
 *
 * Both are written atomically (the library's terrain_file_save_bytes(): a
 * temporary file, fsync()ed and renamed). The manifest is the commit
 * point: a new copy first writes a new data file, then the manifest naming
 * it, then removes the older data files. A crash at any moment leaves the
 * previous copy or the new one whole, never a mix; a data file no manifest
 * names is a leftover and goes at the next write or clear of that ID.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-recovery.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define GROUP "Recovery"
#define MANIFEST_SUFFIX ".recovery"
#define DATA_SUFFIX ".data"
#define MANIFEST_VERSION 1

TerrainEditorRecoveryEntry *
terrain_editor_recovery_entry_copy (const TerrainEditorRecoveryEntry *entry)
{
  TerrainEditorRecoveryEntry *copy = g_new0 (TerrainEditorRecoveryEntry, 1);

  *copy = *entry;
  copy->id = g_strdup (entry->id);
  copy->uri = g_strdup (entry->uri);
  copy->name = g_strdup (entry->name);
  copy->last_edit = g_strdup (entry->last_edit);
  copy->data_path = g_strdup (entry->data_path);
  return copy;
}

void
terrain_editor_recovery_entry_free (TerrainEditorRecoveryEntry *entry)
{
  if (entry == NULL)
    return;
  g_free (entry->id);
  g_free (entry->uri);
  g_free (entry->name);
  g_free (entry->last_edit);
  g_free (entry->data_path);
  g_free (entry);
}

/* When the copy was written, for people: "today at 04:12", "yesterday at
 * 23:50", or the date and time. */
char *
terrain_editor_recovery_entry_format_time (const TerrainEditorRecoveryEntry *entry)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_local (entry->time);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  gboolean same_year;
  int days;

  if (time == NULL || now == NULL)
    return g_strdup ("?");
  same_year = g_date_time_get_year (now) == g_date_time_get_year (time);
  days = g_date_time_get_day_of_year (now) - g_date_time_get_day_of_year (time);
  if (same_year && days == 0)
    /* Translators: a time of day, %H:%M as in strftime(). */
    return g_date_time_format (time, _("today at %H:%M"));
  if (same_year && days == 1)
    return g_date_time_format (time, _("yesterday at %H:%M"));
  /* Translators: a date and a time, as in strftime(). */
  return g_date_time_format (time, _("%x at %H:%M"));
}

/* $XDG_STATE_HOME/libterrain/recovery (~/.local/state/libterrain/recovery). */
char *
terrain_editor_recovery_get_default_dir (void)
{
  return g_build_filename (g_get_user_state_dir (), "libterrain", "recovery", NULL);
}

/* This boot's identity, so that a process ID from before a reboot is not
 * taken for a running editor. */
static char *
boot_id (void)
{
  char *text = NULL;

  if (!g_file_get_contents ("/proc/sys/kernel/random/boot_id", &text, NULL, NULL))
    return g_strdup ("");
  return g_strstrip (text);
}

static char *
format_nick (TerrainFormat format)
{
  GEnumClass *klass = g_type_class_ref (TERRAIN_TYPE_FORMAT);
  GEnumValue *value = g_enum_get_value (klass, format);
  char *nick = g_strdup (value != NULL ? value->value_nick : "unknown");

  g_type_class_unref (klass);
  return nick;
}

static TerrainFormat
format_from_nick (const char *nick)
{
  GEnumClass *klass = g_type_class_ref (TERRAIN_TYPE_FORMAT);
  GEnumValue *value = nick != NULL ? g_enum_get_value_by_nick (klass, nick) : NULL;
  TerrainFormat format = value != NULL ? (TerrainFormat) value->value : TERRAIN_FORMAT_UNKNOWN;

  g_type_class_unref (klass);
  return format;
}

static gboolean
valid_id (const char *id)
{
  if (id == NULL || id[0] == '\0')
    return FALSE;
  for (const char *p = id; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-')
      return FALSE;
  return TRUE;
}

/* Removes the data files of @id but @keep (a basename, or NULL). */
static void
remove_data_files (const char *dir,
                   const char *id,
                   const char *keep)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autofree char *prefix = g_strconcat (id, "-", NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, prefix) && g_str_has_suffix (name, DATA_SUFFIX)
        && g_strcmp0 (name, keep) != 0)
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);

        g_unlink (path);
      }
}

static gboolean
save_file (const char  *path,
           GBytes      *bytes,
           GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return terrain_file_save_bytes (file, bytes, NULL, error);
}

/*
 * terrain_editor_recovery_write:
 * @dir: the recovery folder (made, mode 0700, if missing)
 * @entry: what the copy is of: id, uri, name, format, in_place, edits,
 *   last_edit; time, pid, size and data_path are set here
 * @bytes: the document's bytes
 *
 * Writes a recovery copy atomically, replacing the previous copy of the
 * same id once the new one is whole. Safe to call from a worker thread.
 */
gboolean
terrain_editor_recovery_write (const char                  *dir,
                               TerrainEditorRecoveryEntry  *entry,
                               GBytes                      *bytes,
                               GError                     **error)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autofree char *data_name = NULL;
  g_autofree char *data_path = NULL;
  g_autofree char *manifest_name = NULL;
  g_autofree char *manifest_path = NULL;
  g_autofree char *checksum = NULL;
  g_autofree char *nick = NULL;
  g_autofree char *boot = boot_id ();
  g_autofree char *text = NULL;
  g_autoptr(GBytes) manifest = NULL;
  gsize length;

  g_return_val_if_fail (dir != NULL, FALSE);
  g_return_val_if_fail (entry != NULL && valid_id (entry->id), FALSE);
  g_return_val_if_fail (bytes != NULL, FALSE);

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "could not make the recovery folder %s: %s", dir, g_strerror (saved_errno));
      return FALSE;
    }

  entry->time = g_get_real_time () / G_USEC_PER_SEC;
  entry->pid = getpid ();
  entry->size = g_bytes_get_size (bytes);
  data_name = g_strdup_printf ("%s-%" G_GINT64_FORMAT DATA_SUFFIX, entry->id, g_get_real_time ());
  data_path = g_build_filename (dir, data_name, NULL);
  if (!save_file (data_path, bytes, error))
    return FALSE;

  checksum = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, bytes);
  nick = format_nick (entry->format);
  g_key_file_set_integer (key_file, GROUP, "version", MANIFEST_VERSION);
  if (entry->uri != NULL)
    g_key_file_set_string (key_file, GROUP, "uri", entry->uri);
  g_key_file_set_string (key_file, GROUP, "name", entry->name != NULL ? entry->name : "");
  g_key_file_set_string (key_file, GROUP, "format", nick);
  g_key_file_set_boolean (key_file, GROUP, "in-place", entry->in_place);
  g_key_file_set_uint64 (key_file, GROUP, "edits", entry->edits);
  if (entry->last_edit != NULL)
    g_key_file_set_string (key_file, GROUP, "last-edit", entry->last_edit);
  g_key_file_set_int64 (key_file, GROUP, "time", entry->time);
  g_key_file_set_int64 (key_file, GROUP, "pid", entry->pid);
  g_key_file_set_string (key_file, GROUP, "boot-id", boot);
  g_key_file_set_string (key_file, GROUP, "data", data_name);
  g_key_file_set_uint64 (key_file, GROUP, "size", entry->size);
  g_key_file_set_string (key_file, GROUP, "sha256", checksum);
  text = g_key_file_to_data (key_file, &length, NULL);
  manifest = g_bytes_new_take (g_steal_pointer (&text), length);

  manifest_name = g_strconcat (entry->id, MANIFEST_SUFFIX, NULL);
  manifest_path = g_build_filename (dir, manifest_name, NULL);
  if (!save_file (manifest_path, manifest, error))
    {
      g_unlink (data_path);
      return FALSE;
    }
  remove_data_files (dir, entry->id, data_name);
  g_free (entry->data_path);
  entry->data_path = g_steal_pointer (&data_path);
  return TRUE;
}

typedef struct
{
  char *dir;
  TerrainEditorRecoveryEntry *entry;
  GBytes *bytes;
} WriteData;

static void
write_data_free (WriteData *data)
{
  g_free (data->dir);
  terrain_editor_recovery_entry_free (data->entry);
  g_bytes_unref (data->bytes);
  g_free (data);
}

static void
write_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  WriteData *data = task_data;
  GError *error = NULL;

  if (terrain_editor_recovery_write (data->dir, data->entry, data->bytes, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* terrain_editor_recovery_write() in a worker thread (the bytes are
 * immutable; @entry is copied). */
void
terrain_editor_recovery_write_async (const char                       *dir,
                                     const TerrainEditorRecoveryEntry *entry,
                                     GBytes                           *bytes,
                                     GCancellable                     *cancellable,
                                     GAsyncReadyCallback               callback,
                                     gpointer                          user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  WriteData *data = g_new0 (WriteData, 1);

  data->dir = g_strdup (dir);
  data->entry = terrain_editor_recovery_entry_copy (entry);
  data->bytes = g_bytes_ref (bytes);
  g_task_set_source_tag (task, terrain_editor_recovery_write_async);
  g_task_set_task_data (task, data, (GDestroyNotify) write_data_free);
  g_task_run_in_thread (task, write_thread);
}

gboolean
terrain_editor_recovery_write_finish (GAsyncResult  *result,
                                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* The entry of one manifest, or NULL with @error saying what is wrong. */
static TerrainEditorRecoveryEntry *
read_manifest (const char  *dir,
               const char  *manifest_name,
               GError     **error)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autofree char *path = g_build_filename (dir, manifest_name, NULL);
  g_autoptr(TerrainEditorRecoveryEntry) entry = g_new0 (TerrainEditorRecoveryEntry, 1);
  g_autofree char *data_name = NULL;
  g_autofree char *format = NULL;
  GStatBuf st;

  if (!g_key_file_load_from_file (key_file, path, G_KEY_FILE_NONE, error))
    return NULL;
  if (g_key_file_get_integer (key_file, GROUP, "version", NULL) != MANIFEST_VERSION)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "%s: unknown manifest version", path);
      return NULL;
    }
  entry->id = g_strndup (manifest_name, strlen (manifest_name) - strlen (MANIFEST_SUFFIX));
  entry->uri = g_key_file_get_string (key_file, GROUP, "uri", NULL);
  entry->name = g_key_file_get_string (key_file, GROUP, "name", NULL);
  format = g_key_file_get_string (key_file, GROUP, "format", NULL);
  entry->format = format_from_nick (format);
  entry->in_place = g_key_file_get_boolean (key_file, GROUP, "in-place", NULL);
  entry->edits = (guint) MIN (g_key_file_get_uint64 (key_file, GROUP, "edits", NULL), G_MAXUINT);
  entry->last_edit = g_key_file_get_string (key_file, GROUP, "last-edit", NULL);
  entry->time = g_key_file_get_int64 (key_file, GROUP, "time", NULL);
  entry->pid = g_key_file_get_int64 (key_file, GROUP, "pid", NULL);
  entry->size = g_key_file_get_uint64 (key_file, GROUP, "size", NULL);
  data_name = g_key_file_get_string (key_file, GROUP, "data", NULL);
  if (data_name == NULL || strchr (data_name, G_DIR_SEPARATOR) != NULL || !g_str_has_prefix (data_name, entry->id))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: no data file named", path);
      return NULL;
    }
  entry->data_path = g_build_filename (dir, data_name, NULL);
  if (g_stat (entry->data_path, &st) != 0 || (guint64) st.st_size != entry->size)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: the data file %s is missing or not %"
                   G_GSIZE_FORMAT " bytes", path, data_name, entry->size);
      return NULL;
    }
  if (entry->name == NULL || entry->name[0] == '\0')
    {
      g_free (entry->name);
      entry->name = g_strdup (data_name);
    }
  return g_steal_pointer (&entry);
}

static int
compare_newest_first (gconstpointer a,
                      gconstpointer b)
{
  const TerrainEditorRecoveryEntry *ea = *(TerrainEditorRecoveryEntry **) a;
  const TerrainEditorRecoveryEntry *eb = *(TerrainEditorRecoveryEntry **) b;

  return (ea->time < eb->time) - (ea->time > eb->time);
}

/*
 * terrain_editor_recovery_list:
 *
 * Returns: (element-type TerrainEditorRecoveryEntry): the copies in @dir,
 * newest first (none when @dir does not exist). A manifest that cannot be
 * read, or whose data file is missing or of another size, is left on disk
 * and reported with g_message().
 */
GPtrArray *
terrain_editor_recovery_list (const char  *dir,
                              GError     **error)
{
  GPtrArray *entries = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_editor_recovery_entry_free);
  g_autoptr(GError) local = NULL;
  g_autoptr(GDir) d = g_dir_open (dir, 0, &local);
  const char *name;

  if (d == NULL)
    {
      if (!g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          g_ptr_array_unref (entries);
          return NULL;
        }
      return entries;
    }
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autoptr(GError) entry_error = NULL;
      TerrainEditorRecoveryEntry *entry;

      if (!g_str_has_suffix (name, MANIFEST_SUFFIX) || g_str_equal (name, MANIFEST_SUFFIX))
        continue;
      entry = read_manifest (dir, name, &entry_error);
      if (entry != NULL)
        g_ptr_array_add (entries, entry);
      else
        g_message ("Ignoring the recovery copy %s: %s", name, entry_error->message);
    }
  g_ptr_array_sort (entries, compare_newest_first);
  return entries;
}

/* The copy's bytes, checked against the manifest's size and SHA-256. */
GBytes *
terrain_editor_recovery_load_bytes (const TerrainEditorRecoveryEntry  *entry,
                                    GError                           **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *manifest_path = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *checksum = NULL;
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(GBytes) bytes = NULL;
  char *data = NULL;
  gsize length;

  g_return_val_if_fail (entry != NULL && entry->data_path != NULL, NULL);

  dir = g_path_get_dirname (entry->data_path);
  manifest_path = g_strconcat (dir, G_DIR_SEPARATOR_S, entry->id, MANIFEST_SUFFIX, NULL);
  if (!g_key_file_load_from_file (key_file, manifest_path, G_KEY_FILE_NONE, error))
    return NULL;
  expected = g_key_file_get_string (key_file, GROUP, "sha256", error);
  if (expected == NULL)
    return NULL;
  if (!g_file_get_contents (entry->data_path, &data, &length, error))
    return NULL;
  bytes = g_bytes_new_take (data, length);
  checksum = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, bytes);
  if (length != entry->size || g_strcmp0 (checksum, expected) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "the recovery copy %s is damaged (its checksum is not the manifest's)", entry->data_path);
      return NULL;
    }
  return g_steal_pointer (&bytes);
}

/* Removes the copy @id: the manifest first (after which the copy no longer
 * exists), then its data files. Clearing a copy that is not there is no
 * error. */
gboolean
terrain_editor_recovery_clear (const char  *dir,
                               const char  *id,
                               GError     **error)
{
  g_autofree char *manifest_name = NULL;
  g_autofree char *manifest_path = NULL;

  g_return_val_if_fail (dir != NULL, FALSE);
  g_return_val_if_fail (valid_id (id), FALSE);

  manifest_name = g_strconcat (id, MANIFEST_SUFFIX, NULL);
  manifest_path = g_build_filename (dir, manifest_name, NULL);
  if (g_unlink (manifest_path) != 0 && errno != ENOENT)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "could not remove the recovery copy %s: %s", manifest_path, g_strerror (saved_errno));
      return FALSE;
    }
  remove_data_files (dir, id, NULL);
  return TRUE;
}

/* Whether the copy belongs to another editor that is still running (its
 * process exists in this boot), which keeps it up to date itself. */
gboolean
terrain_editor_recovery_entry_is_live (const TerrainEditorRecoveryEntry *entry)
{
  g_autofree char *manifest_path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *written_boot = NULL;
  g_autofree char *boot = boot_id ();
  g_autoptr(GKeyFile) key_file = g_key_file_new ();

  g_return_val_if_fail (entry != NULL, FALSE);

  if (entry->pid <= 0 || entry->pid == getpid () || entry->data_path == NULL)
    return FALSE;
  dir = g_path_get_dirname (entry->data_path);
  manifest_path = g_strconcat (dir, G_DIR_SEPARATOR_S, entry->id, MANIFEST_SUFFIX, NULL);
  if (!g_key_file_load_from_file (key_file, manifest_path, G_KEY_FILE_NONE, NULL))
    return FALSE;
  written_boot = g_key_file_get_string (key_file, GROUP, "boot-id", NULL);
  if (g_strcmp0 (written_boot, boot) != 0)
    return FALSE;
  return kill ((pid_t) entry->pid, 0) == 0 || errno == EPERM;
}
