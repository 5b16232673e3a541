/* terrain-editor-window.c
 *
 * One document per window: the 2D map view and the 3D view side by side in
 * a notebook, the side panels (tools, structure, features, findings,
 * properties) and the window actions. Every edit is a TerrainCommand run
 * through the document's TerrainCommandStack, so undo, redo and the
 * unsaved-changes state come from the library.
 *
 * This file holds the class, messages, the title, opening a document and
 * closing; the panels, the Atlas tool, the actions, the editing tools and
 * the recovery copies are in
 * terrain-editor-window-{panels,atlas,actions,tools,recovery}.c
 * (terrain-editor-window-private.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-window-private.h"

#include <glib/gi18n.h>
#include <math.h>

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
  { "stamp", N_("Stamp"), "insert-image-symbolic" },
};

G_STATIC_ASSERT (G_N_ELEMENTS (tools) == N_TOOLS);

TerrainEditorApplication *
window_get_app (TerrainEditorWindow *self)
{
  return TERRAIN_EDITOR_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
}

TerrainTntMap *
window_get_tnt (TerrainEditorWindow *self)
{
  return TERRAIN_IS_TNT_MAP (self->document) ? TERRAIN_TNT_MAP (self->document) : NULL;
}

TerrainPalette *
window_get_palette (TerrainEditorWindow *self)
{
  TerrainEditorApplication *app = window_get_app (self);

  return app != NULL ? terrain_editor_application_get_palette (app) : NULL;
}

TerrainFeatureSprites *
window_get_sprites (TerrainEditorWindow *self)
{
  TerrainEditorApplication *app = window_get_app (self);

  return app != NULL ? terrain_editor_application_get_feature_sprites (app) : NULL;
}

TerrainFeatureCatalog *
window_get_catalog (TerrainEditorWindow *self)
{
  TerrainEditorApplication *app = window_get_app (self);

  return app != NULL ? terrain_editor_application_get_catalog (app) : NULL;
}

/* Whether @tool edits the open document: the Atlas tool Atlas files, the
 * others but Inspect TNT maps. */
gboolean
window_tool_applies (TerrainEditorWindow *self,
              const char          *tool)
{
  if (self->document == NULL)
    return FALSE;
  if (g_strcmp0 (tool, "inspect") == 0)
    return TRUE;
  if (g_strcmp0 (tool, "atlas") == 0)
    return TERRAIN_IS_ATLAS_FILE (self->document);
  return window_get_tnt (self) != NULL;
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
  self->showing_palette_error = FALSE;
  gtk_info_bar_set_message_type (self->info_bar, GTK_MESSAGE_ERROR);
  gtk_label_set_text (self->info_label, message);
  gtk_info_bar_set_revealed (self->info_bar, TRUE);
}

void
window_show_info (TerrainEditorWindow *self,
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

gboolean
window_execute (TerrainEditorWindow *self,
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

void
window_update_title (TerrainEditorWindow *self)
{
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  gboolean dirty = self->stack != NULL && (!terrain_command_stack_get_clean (self->stack)
                                           || terrain_document_get_modified (self->document));

  if (self->file == NULL && self->document == NULL)
    {
      gtk_label_set_text (self->title_label, _("Terrain Editor"));
      gtk_window_set_title (GTK_WINDOW (self), _("Terrain Editor"));
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), FALSE);
      return;
    }

  /* A new map, or one recovered from inside an archive, has no file yet. */
  name = self->file != NULL ? g_file_get_basename (self->file) : g_strdup (_("Untitled"));
  title = dirty ? g_strdup_printf ("• %s", name) : g_strdup (name);
  gtk_label_set_text (self->title_label, title);
  gtk_window_set_title (GTK_WINDOW (self), title);
  if (self->document != NULL)
    {
      g_autofree char *parent = NULL;
      g_autoptr(GFile) dir = self->file != NULL ? g_file_get_parent (self->file) : NULL;
      g_autofree char *subtitle = NULL;

      parent = dir != NULL ? g_file_get_parse_name (dir) : NULL;
      if (self->file == NULL)
        /* Translators: the file's format, for a map never saved. */
        subtitle = g_strdup_printf (_("%s — not saved"), format_description (self->document));
      else if (parent != NULL)
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
  gboolean tnt = window_get_tnt (self) != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save", has_doc);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-as", has_doc);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-into-archive", tnt);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.undo",
                                 self->stack != NULL && terrain_command_stack_get_can_undo (self->stack));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.redo",
                                 self->stack != NULL && terrain_command_stack_get_can_redo (self->stack));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.import-image", tnt && window_get_palette (self) != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.regenerate-minimap", tnt && window_get_palette (self) != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.validate", has_doc);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.delete-feature", tnt);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.resize-map", tnt);
  /* Chunk levels are those of Atlas files. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-chunk-levels",
                                 has_doc && TERRAIN_IS_ATLAS_FILE (self->document));
  gtk_widget_set_visible (self->chunk_levels_button, has_doc && TERRAIN_IS_ATLAS_FILE (self->document));
  for (guint i = 0; i < N_TOOLS; i++)
    gtk_widget_set_sensitive (self->tool_button[i], window_tool_applies (self, tools[i].id));
}

static void
on_stack_changed (TerrainEditorWindow *self)
{
  window_update_title (self);
  update_actions (self);
  window_recovery_note_change (self);
}

/* ------------------------------------------------------------------------ */
/* Document                                                                 */

void
window_on_sea_level_notify (TerrainEditorWindow *self)
{
  TerrainTntMap *map = window_get_tnt (self);

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
  window_fill_features (self);
  window_fill_findings (self);
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
  TerrainTntMap *map = window_get_tnt (self);

  if (map != NULL && (self->tile_textures == NULL
                      || self->tile_textures->len != terrain_tnt_map_get_n_tiles (map)))
    window_fill_tiles (self);
}

void
window_set_document (TerrainEditorWindow *self,
                     TerrainDocument     *document,
                     TerrainOtaFile      *ota)
{
  /* A copy was of the document this window showed. */
  window_recovery_clear (self);
  g_clear_pointer (&self->recovery_id, g_free);
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
      /* Every new step, undo and redo changes the top of a history; the
       * dabs of a stroke change the cells. */
      g_signal_connect_swapped (self->stack, "notify::undo-description",
                                G_CALLBACK (window_recovery_note_change), self);
      g_signal_connect_swapped (self->stack, "notify::redo-description",
                                G_CALLBACK (window_recovery_note_change), self);
      g_signal_connect_swapped (self->stack, "notify::in-user-action",
                                G_CALLBACK (window_recovery_note_change), self);
      g_signal_connect_swapped (document, "notify::modified", G_CALLBACK (on_stack_changed), self);
      if (TERRAIN_IS_TNT_MAP (document))
        {
          g_signal_connect_swapped (document, "notify::sea-level", G_CALLBACK (window_on_sea_level_notify), self);
          g_signal_connect_swapped (document, "cells-changed", G_CALLBACK (queue_refresh_panels), self);
          g_signal_connect_swapped (document, "cells-changed", G_CALLBACK (window_recovery_note_change), self);
          g_signal_connect_swapped (document, "notify::n-tiles", G_CALLBACK (on_tiles_changed), self);
        }
    }

  terrain_editor_map_view_set_palette (self->map_view, window_get_palette (self));
  terrain_editor_map_view_set_catalog (self->map_view, window_get_catalog (self));
  terrain_editor_map_view_set_sprites (self->map_view, window_get_sprites (self));
  window_update_feature_palette (self);
  terrain_editor_map_view_set_ota (self->map_view, ota);
  terrain_editor_map_view_set_document (self->map_view, document);
  terrain_editor_map_view_set_selection (self->map_view, FALSE, 0, 0);
  if (self->gl_view != NULL)
    {
      terrain_editor_gl_view_set_palette (TERRAIN_EDITOR_GL_VIEW (self->gl_view), window_get_palette (self));
      terrain_editor_gl_view_set_document (TERRAIN_EDITOR_GL_VIEW (self->gl_view), document);
    }

  if (document != NULL && !window_tool_applies (self, self->tool))
    window_set_tool (self, "inspect");
  window_on_sea_level_notify (self);
  window_fill_structure (self);
  window_fill_features (self);
  window_fill_findings (self);
  window_fill_tiles (self);
  window_fill_atlas (self);
  window_first_run_update (self);
  gtk_stack_set_visible_child_name (self->main_stack, document != NULL ? "document" : "empty");
  /* Feature lists are for TNT maps. */
  gtk_widget_set_visible (gtk_notebook_get_nth_page (self->side_notebook, 2),
                          window_get_tnt (self) != NULL);
  /* With nothing to edit, the Structure tab says more than the tools. */
  if (document != NULL)
    gtk_notebook_set_current_page (self->side_notebook,
                                   window_tool_applies (self, "brush") || window_tool_applies (self, "atlas")
                                   ? 0 : 1);
  window_ota_set_document (self);
  window_update_title (self);
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
TerrainOtaFile *
window_load_sibling_ota (GFile        *file,
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

typedef struct
{
  GFile *file;
  TerrainHeightmapFormat heightmap_format;
} LoadRequest;

static void
load_request_free (LoadRequest *request)
{
  g_clear_object (&request->file);
  g_free (request);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadRequest *request = task_data;
  GFile *file = request->file;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = archive_spec (file);
  LoadResult *result = g_new0 (LoadResult, 1);

  /* A path is handed over as written so that ARCHIVE:path opens a map
   * inside an HPI archive. A heightmap format given on the command line
   * reads heightmaps as `terrain info --heightmap-format` does. */
  if (request->heightmap_format != TERRAIN_HEIGHTMAP_AUTO)
    {
      g_autofree char *spec = path != NULL ? g_strdup (path) : g_file_get_uri (file);

      result->document = terrain_document_load_heightmap_path (spec, request->heightmap_format,
                                                               NULL, cancellable, &error);
      if (result->document != NULL && terrain_document_get_file (result->document) == NULL &&
          g_file_query_exists (file, cancellable))
        terrain_document_set_file (result->document, file);
    }
  else if (path != NULL && !g_file_query_exists (file, cancellable))
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
    result->ota = window_load_sibling_ota (file, path, cancellable);

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
  GFile *file = ((LoadRequest *) g_task_get_task_data (G_TASK (async_result)))->file;

  if (result == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (file);
      g_autofree char *message = g_strdup_printf (_("Could not open “%s”: %s"), name, error->message);

      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        terrain_editor_window_show_error (self, message);
      g_clear_object (&self->file);
      window_set_document (self, NULL, NULL);
    }
  else
    {
      terrain_editor_application_add_recent (window_get_app (self), file);
      if (terrain_document_get_file (result->document) == NULL && g_file_query_exists (file, NULL))
        terrain_document_set_file (result->document, file);
      window_set_document (self, result->document, result->ota);
      load_result_free (result);
    }
  window_set_busy (self, FALSE);
}

/* Shows the spinner page while a document loads. */
void
window_set_busy (TerrainEditorWindow *self,
                 gboolean             busy)
{
  if (self->busy == busy)
    return;
  self->busy = busy;
  if (busy)
    {
      gtk_stack_set_visible_child_name (self->main_stack, "loading");
      gtk_spinner_start (self->spinner);
    }
  else
    gtk_spinner_stop (self->spinner);
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

  window_set_busy (self, TRUE);
  window_update_title (self);

  task = g_task_new (self, self->cancellable, load_done, NULL);
  g_task_set_source_tag (task, terrain_editor_window_load);
  {
    GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
    LoadRequest *request = g_new0 (LoadRequest, 1);

    request->file = g_object_ref (file);
    request->heightmap_format =
      TERRAIN_EDITOR_IS_APPLICATION (app)
        ? terrain_editor_application_get_heightmap_format (TERRAIN_EDITOR_APPLICATION (app))
        : TERRAIN_HEIGHTMAP_AUTO;
    g_task_set_task_data (task, request, (GDestroyNotify) load_request_free);
  }
  g_task_run_in_thread (task, load_thread);
}

/**
 * terrain_editor_window_show_new_map:
 * @self: a window
 * @document: a document made in the editor, never saved
 *
 * Shows @document as an unsaved new document ("Untitled" in the title):
 * Save asks where to write it, closing asks whether to save it. Its
 * making is not a step of the window's history.
 */
void
terrain_editor_window_show_new_map (TerrainEditorWindow *self,
                                    TerrainDocument     *document)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_WINDOW (self));
  g_return_if_fail (TERRAIN_IS_DOCUMENT (document));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->file);
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
  g_clear_pointer (&self->error_message, g_free);
  terrain_document_set_file (document, NULL);
  window_set_document (self, document, NULL);
  terrain_document_set_modified (document, TRUE);
  window_update_title (self);
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

  terrain_editor_map_view_set_palette (self->map_view, window_get_palette (self));
  terrain_editor_map_view_set_catalog (self->map_view, window_get_catalog (self));
  terrain_editor_map_view_set_sprites (self->map_view, window_get_sprites (self));
  window_update_feature_palette (self);
  window_stamp_reload (self);
  if (self->gl_view != NULL)
    terrain_editor_gl_view_set_palette (TERRAIN_EDITOR_GL_VIEW (self->gl_view), window_get_palette (self));
  window_fill_features (self);
  window_fill_tiles (self);
  update_actions (self);
  window_first_run_update (self);
  if (window_get_app (self) != NULL && terrain_editor_application_get_palette_error (window_get_app (self)) != NULL)
    {
      terrain_editor_window_show_error (self, terrain_editor_application_get_palette_error (window_get_app (self)));
      self->showing_palette_error = TRUE;
    }
  else if (self->showing_palette_error)
    {
      /* The palette loads now: its old error goes. */
      self->showing_palette_error = FALSE;
      g_clear_pointer (&self->error_message, g_free);
      gtk_info_bar_set_revealed (self->info_bar, FALSE);
    }
}

/* ------------------------------------------------------------------------ */
/* Closing, drag and drop, window state                                     */

static gboolean
close_idle (gpointer data)
{
  TerrainEditorWindow *self = data;

  self->force_close = TRUE;
  gtk_window_close (GTK_WINDOW (self));
  return G_SOURCE_REMOVE;
}

/* Closes the window once the dialog's response emission is over: closing
 * it inside would destroy the dialog (destroy-with-parent) while GTK is
 * still emitting on it. */
static void
close_after_dialog (TerrainEditorWindow *self)
{
  g_idle_add_full (G_PRIORITY_DEFAULT, close_idle, g_object_ref (self), g_object_unref);
}

static void
on_confirm_response (GtkDialog           *dialog,
                     int                  response,
                     TerrainEditorWindow *self)
{
  g_signal_handlers_disconnect_by_func (dialog, on_confirm_response, self);
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_REJECT)
    close_after_dialog (self);
  else if (response == GTK_RESPONSE_ACCEPT)
    {
      if (window_can_save_in_place (self))
        {
          if (window_save_to (self, self->file))
            close_after_dialog (self);
        }
      else if (window_archive_can_save (self))
        {
          if (window_archive_save (self))
            close_after_dialog (self);
        }
      else
        {
          self->closing_after_save = TRUE;
          window_save_as_dialog (self);
        }
    }
}

static gboolean
terrain_editor_window_close_request (GtkWindow *window)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (window);
  TerrainEditorApplication *app = window_get_app (self);

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
  /* A clean close (saved, nothing to save, or Discard): no copy to keep. */
  window_recovery_clear (self);

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
      /* Sections go to the Stamp tool's palette. */
      if (window_stamp_drop_file (self, l->data))
        continue;
      if (l == files && terrain_editor_window_is_empty (self))
        terrain_editor_window_load (self, l->data);
      else
        terrain_editor_application_open_file (window_get_app (self), l->data);
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
    window_set_tool (self, g_value_get_string (value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

/* Called once the window belongs to the application (after construction:
 * GtkWindow:application is not a construct property). */
static void
apply_settings (TerrainEditorWindow *self)
{
  TerrainEditorApplication *app = window_get_app (self);
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
  window_first_run_update (self);
  window_stamp_reload (self);
  if (terrain_editor_application_get_palette_error (app) != NULL)
    terrain_editor_window_show_error (self, terrain_editor_application_get_palette_error (app));
}

static void
terrain_editor_window_dispose (GObject *object)
{
  TerrainEditorWindow *self = TERRAIN_EDITOR_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  window_recovery_dispose (self);
  window_stamp_dispose (self);
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
  g_free (self->recovery_id);

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
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, first_run_bar);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, first_run_folder_button);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorWindow, first_run_archives_button);
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

  window_actions_class_init (widget_class);
  window_stamp_class_init (widget_class);
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

  window_panels_init (self);
  window_ota_init (self);
  window_first_run_init (self);

  g_signal_connect_swapped (self->info_bar, "response", G_CALLBACK (on_info_bar_response), self);

  self->gl_view = terrain_editor_gl_view_new ();
  gtk_widget_set_vexpand (self->gl_view, TRUE);
  gtk_widget_set_hexpand (self->gl_view, TRUE);
  gtk_overlay_set_child (self->gl_overlay, self->gl_view);
  g_object_bind_property (self, "show-chunk-levels", self->gl_view, "show-chunk-levels",
                          G_BINDING_SYNC_CREATE);
  g_object_bind_property (self, "show-features", self->gl_view, "show-features",
                          G_BINDING_SYNC_CREATE);
  window_tools_init (self);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  window_set_document (self, NULL, NULL);
}

TerrainEditorWindow *
terrain_editor_window_new (TerrainEditorApplication *application)
{
  TerrainEditorWindow *self = g_object_new (TERRAIN_EDITOR_TYPE_WINDOW, "application", application, NULL);

  apply_settings (self);
  return self;
}
