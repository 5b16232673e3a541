/* terrain-editor-recovery.h: recovery copies of documents with unsaved edits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <libterrain.h>

G_BEGIN_DECLS

/* What a recovery copy is of and when it was made (the manifest). */
typedef struct
{
  char          *id;         /* the copy's name in the folder (a UUID) */
  char          *uri;        /* the document's file, or NULL (never saved) */
  char          *name;       /* the name shown (the file's basename) */
  TerrainFormat  format;
  gboolean       in_place;   /* Save writes to uri without asking */
  guint          edits;      /* undo steps since the document was opened or saved */
  char          *last_edit;  /* the newest undo step's description, or NULL */
  gint64         time;       /* when the copy was written, Unix seconds */
  gint64         pid;        /* the process that wrote it */
  gsize          size;       /* bytes of the copy */
  char          *data_path;  /* the copy's bytes */
} TerrainEditorRecoveryEntry;

TerrainEditorRecoveryEntry *terrain_editor_recovery_entry_copy  (const TerrainEditorRecoveryEntry *entry);
void                        terrain_editor_recovery_entry_free  (TerrainEditorRecoveryEntry       *entry);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerrainEditorRecoveryEntry, terrain_editor_recovery_entry_free)
char       *terrain_editor_recovery_entry_format_time (const TerrainEditorRecoveryEntry *entry);

char       *terrain_editor_recovery_get_default_dir (void);
gboolean    terrain_editor_recovery_write           (const char                  *dir,
                                                     TerrainEditorRecoveryEntry  *entry,
                                                     GBytes                      *bytes,
                                                     GError                     **error);
void        terrain_editor_recovery_write_async     (const char                  *dir,
                                                     const TerrainEditorRecoveryEntry *entry,
                                                     GBytes                      *bytes,
                                                     GCancellable                *cancellable,
                                                     GAsyncReadyCallback          callback,
                                                     gpointer                     user_data);
gboolean    terrain_editor_recovery_write_finish    (GAsyncResult                *result,
                                                     GError                     **error);
GPtrArray  *terrain_editor_recovery_list            (const char                  *dir,
                                                     GError                     **error);
GBytes     *terrain_editor_recovery_load_bytes      (const TerrainEditorRecoveryEntry *entry,
                                                     GError                     **error);
gboolean    terrain_editor_recovery_clear           (const char                  *dir,
                                                     const char                  *id,
                                                     GError                     **error);
gboolean    terrain_editor_recovery_entry_is_live   (const TerrainEditorRecoveryEntry *entry);

G_END_DECLS
