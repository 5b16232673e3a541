/* terrain-editor-application.c
 *
 * The application: app actions (open, new window, new map, preferences, build
 * atlas, about, quit), their accelerators, files from the command line (one window per
 * file, reusing an empty window), recent files and the shared resources
 * every window draws with: the palette, the feature catalogue and the
 * game files its sprites come from (a Total Annihilation install or its
 * archives, then the feature folders and archives), named in GSettings and
 * reloaded when the settings change. Without a palette file the palette
 * is the install's palettes/PALETTE.PAL, read through the library's game
 * files; windows offer to name the install while there is no palette
 * (terrain-editor-window-first-run.c). The first activation offers the
 * recovery copies an earlier editor left (terrain-editor-recovery-dialog.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-application.h"
#include "terrain-editor-build-dialog.h"
#include "terrain-editor-new-map-dialog.h"
#include "terrain-editor-recovery-dialog.h"
#include "terrain-editor-window.h"

#include <glib/gi18n.h>

struct _TerrainEditorApplication
{
  GtkApplication parent_instance;

  GSettings *settings;
  TerrainPalette *palette;
  TerrainFeatureCatalog *catalog;
  /* The install (game-files) and then the feature folders and archives
   * as game files (for palettes/ and anims/), and the sprites drawn from
   * them, made when first asked for. */
  TerrainGameFiles *game_files;
  TerrainFeatureSprites *sprites;
  char *palette_error;
  /* The first-run offer was closed: not shown again in this run. */
  gboolean game_files_offer_dismissed;
  /* --heightmap-format: how heightmaps open (the library's one reader). */
  TerrainHeightmapFormat heightmap_format;
  gboolean recovery_offered;
};

G_DEFINE_FINAL_TYPE (TerrainEditorApplication, terrain_editor_application, GTK_TYPE_APPLICATION)

GSettings *
terrain_editor_application_get_settings (TerrainEditorApplication *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_APPLICATION (self), NULL);
  return self->settings;
}

TerrainPalette *
terrain_editor_application_get_palette (TerrainEditorApplication *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_APPLICATION (self), NULL);
  return self->palette;
}

TerrainFeatureCatalog *
terrain_editor_application_get_catalog (TerrainEditorApplication *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_APPLICATION (self), NULL);
  return self->catalog;
}

/* The install and the feature folders and archives as the game sees
 * them (the Stamp tool lists their sections/). */
TerrainGameFiles *
terrain_editor_application_get_game_files (TerrainEditorApplication *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_APPLICATION (self), NULL);
  return self->game_files;
}

/* The feature sprites of the catalogue's features through the palette,
 * read from the feature folders' and archives' anims/ (NULL without a
 * palette). Windows cache their textures per feature name. */
TerrainFeatureSprites *
terrain_editor_application_get_feature_sprites (TerrainEditorApplication *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_APPLICATION (self), NULL);

  if (self->sprites == NULL && self->palette != NULL && self->catalog != NULL)
    self->sprites = terrain_feature_sprites_new (self->game_files, self->catalog, self->palette);
  return self->sprites;
}

static void
for_each_window_notify (TerrainEditorApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    if (TERRAIN_EDITOR_IS_WINDOW (l->data))
      terrain_editor_window_reload_resources (l->data);
}

/* The palette file of palette-path, or else the install's
 * palettes/PALETTE.PAL (load_catalog() first: it makes the game files). */
static void
load_palette (TerrainEditorApplication *self)
{
  g_autofree char *path = g_settings_get_string (self->settings, "palette-path");
  g_auto(GStrv) game_files = g_settings_get_strv (self->settings, "game-files");
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&self->palette, terrain_palette_unref);
  g_clear_pointer (&self->palette_error, g_free);
  if (path[0] != '\0')
    {
      g_autoptr(GFile) file = g_file_new_for_path (path);

      self->palette = terrain_palette_new_from_file (file, NULL, &error);
      if (self->palette == NULL)
        self->palette_error = g_strdup_printf (_("Could not load the palette “%s”: %s"),
                                               path, error->message);
    }
  else if (game_files[0] != NULL)
    {
      self->palette = terrain_game_files_load_palette (self->game_files, &error);
      if (self->palette == NULL)
        self->palette_error = g_strdup_printf (_("Could not load the palette of the game files: %s"),
                                               error->message);
    }
}

/* game-files, as the game mounts them: a folder as an install (its
 * archives, then its loose files), anything else as an archive. */
static void
add_install (TerrainEditorApplication *self)
{
  g_auto(GStrv) paths = g_settings_get_strv (self->settings, "game-files");
  GPtrArray *warnings = terrain_game_files_get_warnings (self->game_files);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (paths[i]);
      g_autoptr(GError) error = NULL;

      if (!terrain_game_files_add (self->game_files, file, NULL, &error))
        g_message ("%s: %s", paths[i], error->message);
    }
  for (guint i = 0; i < warnings->len; i++)
    g_message ("%s", (const char *) g_ptr_array_index (warnings, i));
  if (paths[0] != NULL)
    terrain_feature_catalog_load_game_files (self->catalog, self->game_files, NULL, NULL);
}

static void
load_catalog (TerrainEditorApplication *self)
{
  g_auto(GStrv) folders = g_settings_get_strv (self->settings, "feature-folders");

  g_clear_object (&self->catalog);
  g_clear_object (&self->game_files);
  self->catalog = terrain_feature_catalog_new ();
  self->game_files = terrain_game_files_new (NULL);
  /* The install first: the feature folders override it. */
  add_install (self);
  for (guint i = 0; folders[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (folders[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) files_error = NULL;
      gboolean ok;

      /* The sprites' GAFs: anims/ of the same folders and archives. */
      if (!terrain_game_files_add (self->game_files, file, NULL, &files_error))
        g_message ("%s: %s", folders[i], files_error->message);

      if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY)
        ok = terrain_feature_catalog_load_folder (self->catalog, file, NULL, NULL, &error);
      else
        {
          g_autoptr(TerrainDocument) document = terrain_document_load (file, NULL, NULL, &error);

          ok = TERRAIN_IS_HPI_ARCHIVE (document)
               && terrain_feature_catalog_load_archive (self->catalog,
                                                        TERRAIN_HPI_ARCHIVE (document),
                                                        NULL, NULL, &error);
          if (document != NULL && !TERRAIN_IS_HPI_ARCHIVE (document) && error == NULL)
            g_set_error (&error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("not a folder or an HPI archive"));
        }
      if (!ok)
        g_message ("%s: %s", folders[i], error != NULL ? error->message : "?");
    }
}

static void
on_settings_changed (TerrainEditorApplication *self,
                     const char               *key)
{
  if (g_strcmp0 (key, "palette-path") == 0)
    load_palette (self);
  else if (g_strcmp0 (key, "feature-folders") == 0 || g_strcmp0 (key, "game-files") == 0)
    {
      /* The palette may come from either (palettes/PALETTE.PAL). */
      load_catalog (self);
      load_palette (self);
    }
  else
    return;
  g_clear_object (&self->sprites);
  for_each_window_notify (self);
}

const char *
terrain_editor_application_get_palette_error (TerrainEditorApplication *self)
{
  return self->palette_error;
}

/* Whether windows offer to name a Total Annihilation install: no palette
 * file, no install named, and the offer not closed in this run. */
gboolean
terrain_editor_application_get_offers_game_files (TerrainEditorApplication *self)
{
  g_autofree char *path = NULL;
  g_auto(GStrv) game_files = NULL;

  g_return_val_if_fail (TERRAIN_EDITOR_IS_APPLICATION (self), FALSE);

  if (self->settings == NULL || self->game_files_offer_dismissed || self->palette != NULL)
    return FALSE;
  path = g_settings_get_string (self->settings, "palette-path");
  game_files = g_settings_get_strv (self->settings, "game-files");
  return path[0] == '\0' && game_files[0] == NULL;
}

/* Closes the offer in every window until the next run. */
void
terrain_editor_application_dismiss_game_files_offer (TerrainEditorApplication *self)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_APPLICATION (self));

  self->game_files_offer_dismissed = TRUE;
  for_each_window_notify (self);
}

/* Names the install (a folder) or its archives: the game-files setting,
 * which reloads the palette, the catalogue and the sprites. */
void
terrain_editor_application_set_game_files (TerrainEditorApplication *self,
                                           GListModel               *files)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) paths = NULL;

  g_return_if_fail (TERRAIN_EDITOR_IS_APPLICATION (self));

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (files, i);
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL)
        g_strv_builder_add (builder, path);
    }
  paths = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "game-files", (const char *const *) paths);
}

void
terrain_editor_application_add_recent (TerrainEditorApplication *self,
                                       GFile                    *file)
{
  g_autofree char *uri = g_file_get_uri (file);

  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
}

static TerrainEditorWindow *
find_empty_window (TerrainEditorApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    if (TERRAIN_EDITOR_IS_WINDOW (l->data) && terrain_editor_window_is_empty (l->data))
      return l->data;
  return NULL;
}

/* How plain heightmaps are read: --heightmap-format, or
 * TERRAIN_HEIGHTMAP_AUTO to tell from the file as every command does. */
TerrainHeightmapFormat
terrain_editor_application_get_heightmap_format (TerrainEditorApplication *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_APPLICATION (self), TERRAIN_HEIGHTMAP_AUTO);

  return self->heightmap_format;
}

void
terrain_editor_application_set_heightmap_format (TerrainEditorApplication *self,
                                                 TerrainHeightmapFormat    format)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_APPLICATION (self));

  self->heightmap_format = format;
}

/* --heightmap-format NAME, named as `terrain` names it
 * (terrain_heightmap_format_from_name()). */
static int
terrain_editor_application_handle_local_options (GApplication *app,
                                                 GVariantDict *options)
{
  TerrainEditorApplication *self = TERRAIN_EDITOR_APPLICATION (app);
  const char *name = NULL;

  if (g_variant_dict_lookup (options, "heightmap-format", "&s", &name))
    {
      self->heightmap_format = terrain_heightmap_format_from_name (name);
      if (self->heightmap_format == TERRAIN_HEIGHTMAP_AUTO && g_ascii_strcasecmp (name, "auto") != 0)
        {
          g_printerr (_("terrain-editor: --heightmap-format takes gray, terrain-rgb, terrarium, "
                        "raw16, hgt, ter or tnt\n"));
          return 64;
        }
    }
  return -1;
}

GtkWindow *
terrain_editor_application_open_file (TerrainEditorApplication *self,
                                      GFile                    *file)
{
  TerrainEditorWindow *window;

  g_return_val_if_fail (TERRAIN_EDITOR_IS_APPLICATION (self), NULL);

  /* A file already open is raised rather than loaded twice. */
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      GFile *other;

      if (!TERRAIN_EDITOR_IS_WINDOW (l->data))
        continue;
      other = terrain_editor_window_get_file (l->data);
      if (other != NULL && g_file_equal (other, file))
        {
          gtk_window_present (l->data);
          return l->data;
        }
    }

  window = find_empty_window (self);
  if (window == NULL)
    window = terrain_editor_window_new (self);
  terrain_editor_window_load (window, file);
  gtk_window_present (GTK_WINDOW (window));
  return GTK_WINDOW (window);
}

/**
 * terrain_editor_application_offer_recovery:
 * @self: the application
 *
 * Shows the recovery dialog when the recovery folder holds copies that no
 * running editor keeps (an earlier editor was killed or crashed with
 * unsaved edits).
 *
 * Returns: (transfer none) (nullable): the dialog, or %NULL when there is
 * nothing to recover
 */
GtkWindow *
terrain_editor_application_offer_recovery (TerrainEditorApplication *self)
{
  g_autofree char *dir = terrain_editor_recovery_get_default_dir ();
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  GtkWindow *dialog;

  g_return_val_if_fail (TERRAIN_EDITOR_IS_APPLICATION (self), NULL);

  entries = terrain_editor_recovery_list (dir, &error);
  if (entries == NULL)
    {
      g_message ("Could not read the recovery folder %s: %s", dir, error->message);
      return NULL;
    }
  for (guint i = entries->len; i > 0; i--)
    if (terrain_editor_recovery_entry_is_live (g_ptr_array_index (entries, i - 1)))
      g_ptr_array_remove_index (entries, i - 1);
  if (entries->len == 0)
    return NULL;
  dialog = terrain_editor_recovery_dialog_new (self, gtk_application_get_active_window (GTK_APPLICATION (self)),
                                               dir, entries);
  gtk_window_present (dialog);
  return dialog;
}

/* Once a run, when it first shows a window. */
static void
offer_recovery_once (TerrainEditorApplication *self)
{
  if (self->recovery_offered)
    return;
  self->recovery_offered = TRUE;
  terrain_editor_application_offer_recovery (self);
}

static void
terrain_editor_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (terrain_editor_window_new (TERRAIN_EDITOR_APPLICATION (app)));
  gtk_window_present (window);
  offer_recovery_once (TERRAIN_EDITOR_APPLICATION (app));
}

static void
terrain_editor_application_open (GApplication  *app,
                                 GFile        **files,
                                 int            n_files,
                                 const char    *hint)
{
  for (int i = 0; i < n_files; i++)
    terrain_editor_application_open_file (TERRAIN_EDITOR_APPLICATION (app), files[i]);
  offer_recovery_once (TERRAIN_EDITOR_APPLICATION (app));
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */

static void
on_open_response (GtkNativeDialog          *dialog,
                  int                       response,
                  TerrainEditorApplication *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));

      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        {
          g_autoptr(GFile) file = g_list_model_get_item (files, i);

          terrain_editor_application_open_file (self, file);
        }
    }
  g_object_unref (dialog);
}

static void
open_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  TerrainEditorApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  GtkFileChooserNative *chooser;
  GtkFileFilter *filter;
  GEnumClass *formats;

  chooser = gtk_file_chooser_native_new (_("Open Terrain"), parent, GTK_FILE_CHOOSER_ACTION_OPEN,
                                         _("_Open"), _("_Cancel"));
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("Terrain files"));
  /* Every format the library opens, plain heightmaps included. */
  formats = g_type_class_ref (TERRAIN_TYPE_FORMAT);
  for (guint i = 0; i < formats->n_values; i++)
    if (terrain_format_can_load (formats->values[i].value))
      for (const char *const *p = terrain_format_get_extensions (formats->values[i].value);
           *p != NULL; p++)
        gtk_file_filter_add_suffix (filter, *p);
  g_type_class_unref (formats);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_object_unref (filter);
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("All files"));
  gtk_file_filter_add_pattern (filter, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_object_unref (filter);

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
open_recent_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  terrain_editor_application_open_file (user_data, file);
}

static void
new_window_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  gtk_window_present (GTK_WINDOW (terrain_editor_window_new (user_data)));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  /* Closing each window runs its unsaved-changes confirmation. */
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (user_data)));

  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
  g_list_free (windows);
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  const char *authors[] = { "The libterrain authors", NULL };

  gtk_show_about_dialog (parent,
                         "program-name", _("Terrain Editor"),
                         "logo-icon-name", g_application_get_application_id (G_APPLICATION (user_data)),
                         "version", PACKAGE_VERSION,
                         "comments", _("View and edit legacy game terrain: Total Annihilation maps, "
                                       "Torque Atlas files and more"),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", authors,
                         "website", "https://github.com/libterrain/libterrain",
                         NULL);
}

static void
on_palette_chosen (GtkNativeDialog *dialog,
                   int              response,
                   GSettings       *settings)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL)
        g_settings_set_string (settings, "palette-path", path);
    }
  g_object_unref (dialog);
}

static void
on_choose_palette (GtkButton                *button,
                   TerrainEditorApplication *self)
{
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Choose a Palette"),
                                         GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (button))),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Choose"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_palette_chosen), self->settings);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* The palette entry sets the palette-path setting when it is activated,
 * loses the focus, or holds the path of a file for PALETTE_ENTRY_DELAY_MS
 * (not at every keystroke: a half-typed path is no palette); its icon
 * tells whether the setting's palette loaded. */
#define PALETTE_ENTRY_DELAY_MS 400

static void
update_palette_entry_icon (GtkEntry                 *entry,
                           TerrainEditorApplication *self)
{
  const char *error = terrain_editor_application_get_palette_error (self);

  gtk_entry_set_icon_from_icon_name (entry, GTK_ENTRY_ICON_SECONDARY,
                                     error != NULL ? "dialog-error-symbolic" : NULL);
  gtk_entry_set_icon_tooltip_text (entry, GTK_ENTRY_ICON_SECONDARY, error);
}

static void
commit_palette_entry (GtkEntry                 *entry,
                      TerrainEditorApplication *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  g_autofree char *current = g_settings_get_string (self->settings, "palette-path");
  guint id = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (entry), "palette-timeout"));

  if (id != 0)
    g_source_remove (id);
  g_object_set_data (G_OBJECT (entry), "palette-timeout", NULL);
  if (g_strcmp0 (text, current) != 0)
    g_settings_set_string (self->settings, "palette-path", text);
  update_palette_entry_icon (entry, self);
}

static gboolean
on_palette_entry_timeout (gpointer data)
{
  GtkEntry *entry = data;

  g_object_set_data (G_OBJECT (entry), "palette-timeout", NULL);
  commit_palette_entry (entry, g_object_get_data (G_OBJECT (entry), "application"));
  return G_SOURCE_REMOVE;
}

static void
on_palette_entry_changed (GtkEntry                 *entry,
                          TerrainEditorApplication *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  guint id = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (entry), "palette-timeout"));
  g_autofree char *current = g_settings_get_string (self->settings, "palette-path");

  if (id != 0)
    g_source_remove (id);
  id = 0;
  if (g_strcmp0 (text, current) != 0 && g_file_test (text, G_FILE_TEST_IS_REGULAR))
    id = g_timeout_add_full (G_PRIORITY_DEFAULT, PALETTE_ENTRY_DELAY_MS, on_palette_entry_timeout,
                             g_object_ref (entry), g_object_unref);
  g_object_set_data (G_OBJECT (entry), "palette-timeout", GUINT_TO_POINTER (id));
}

static void
on_palette_entry_leave (GtkEventControllerFocus  *controller,
                        TerrainEditorApplication *self)
{
  commit_palette_entry (GTK_ENTRY (gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller))), self);
}

static void
on_palette_entry_destroy (GtkEntry *entry)
{
  guint id = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (entry), "palette-timeout"));

  if (id != 0)
    g_source_remove (id);
  g_object_set_data (G_OBJECT (entry), "palette-timeout", NULL);
}

static void
on_palette_setting_changed (GtkEntry   *entry,
                            const char *key,
                            GSettings  *settings)
{
  update_palette_entry_icon (entry, g_object_get_data (G_OBJECT (entry), "application"));
}

static void
setup_palette_entry (TerrainEditorApplication *self,
                     GtkEntry                 *entry)
{
  GtkEventController *focus = gtk_event_controller_focus_new ();

  /* The setting fills the entry; the entry sets it as said above. */
  g_settings_bind (self->settings, "palette-path", entry, "text", G_SETTINGS_BIND_GET);
  g_object_set_data_full (G_OBJECT (entry), "application", g_object_ref (self), g_object_unref);
  g_signal_connect (entry, "changed", G_CALLBACK (on_palette_entry_changed), self);
  g_signal_connect (entry, "activate", G_CALLBACK (commit_palette_entry), self);
  g_signal_connect (entry, "destroy", G_CALLBACK (on_palette_entry_destroy), NULL);
  g_signal_connect (focus, "leave", G_CALLBACK (on_palette_entry_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (entry), focus);
  g_signal_connect_object (self->settings, "changed::palette-path", G_CALLBACK (on_palette_setting_changed),
                           entry, G_CONNECT_SWAPPED);
  update_palette_entry_icon (entry, self);
}

static gboolean
strv_to_text (GValue   *value,
              GVariant *variant,
              gpointer  user_data)
{
  g_autofree const char **strv = g_variant_get_strv (variant, NULL);
  g_autofree char *text = g_strjoinv (":", (char **) strv);

  g_value_set_string (value, text);
  return TRUE;
}

static GVariant *
text_to_strv (const GValue       *value,
              const GVariantType *type,
              gpointer            user_data)
{
  const char *text = g_value_get_string (value);
  g_auto(GStrv) parts = g_strsplit (text != NULL ? text : "", ":", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) result = NULL;

  for (guint i = 0; parts[i] != NULL; i++)
    if (parts[i][0] != '\0')
      g_strv_builder_add (builder, parts[i]);
  result = g_strv_builder_end (builder);
  return g_variant_new_strv ((const char *const *) result, -1);
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  TerrainEditorApplication *self = user_data;
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/io/github/libterrain/Editor/terrain-editor-preferences.ui");
  GtkWindow *dialog = GTK_WINDOW (gtk_builder_get_object (builder, "preferences"));

  gtk_window_set_transient_for (dialog, gtk_application_get_active_window (GTK_APPLICATION (self)));
  setup_palette_entry (self, GTK_ENTRY (gtk_builder_get_object (builder, "palette_entry")));
  g_settings_bind_with_mapping (self->settings, "feature-folders",
                                gtk_builder_get_object (builder, "features_entry"), "text",
                                G_SETTINGS_BIND_DEFAULT, strv_to_text, text_to_strv, NULL, NULL);
  g_settings_bind_with_mapping (self->settings, "game-files",
                                gtk_builder_get_object (builder, "game_files_entry"), "text",
                                G_SETTINGS_BIND_DEFAULT, strv_to_text, text_to_strv, NULL, NULL);
  g_settings_bind (self->settings, "show-grid",
                   gtk_builder_get_object (builder, "grid_switch"), "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "show-features",
                   gtk_builder_get_object (builder, "features_switch"), "active", G_SETTINGS_BIND_DEFAULT);
  g_signal_connect (gtk_builder_get_object (builder, "palette_button"), "clicked",
                    G_CALLBACK (on_choose_palette), self);
  gtk_window_present (dialog);
}

static void
new_map_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  TerrainEditorApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));

  gtk_window_present (GTK_WINDOW (terrain_editor_new_map_dialog_new (self, parent)));
}

static void
build_atlas_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  TerrainEditorApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));

  gtk_window_present (GTK_WINDOW (terrain_editor_build_dialog_new (self, parent)));
}

static const GActionEntry app_entries[] = {
  { "open", open_action },
  { "open-recent", open_recent_action, "s" },
  { "new-window", new_window_action },
  { "new-map", new_map_action },
  { "preferences", preferences_action },
  { "build-atlas", build_atlas_action },
  { "about", about_action },
  { "quit", quit_action },
};

static void
terrain_editor_application_startup (GApplication *app)
{
  TerrainEditorApplication *self = TERRAIN_EDITOR_APPLICATION (app);
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.open", { "<Control>o", NULL } },
    { "app.new-window", { "<Control>n", NULL } },
    { "app.new-map", { "<Control><Shift>n", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "app.build-atlas", { "<Control><Shift>b", NULL } },
    { "app.quit", { "<Control>q", NULL } },
    { "win.save", { "<Control>s", NULL } },
    { "win.save-as('')", { "<Control><Shift>s", NULL } },
    { "win.undo", { "<Control>z", NULL } },
    { "win.redo", { "<Control><Shift>z", "<Control>y", NULL } },
    { "win.zoom-in", { "<Control>plus", "<Control>equal", NULL } },
    { "win.zoom-out", { "<Control>minus", NULL } },
    { "win.zoom-fit", { "<Control>0", NULL } },
    { "win.zoom-one", { "<Control>1", NULL } },
    { "win.close", { "<Control>w", NULL } },
    { "win.tool('inspect')", { "<Alt>1", NULL } },
    { "win.tool('sea-level')", { "<Alt>2", NULL } },
    { "win.tool('brush')", { "<Alt>3", NULL } },
    { "win.tool('features')", { "<Alt>4", NULL } },
    { "win.tool('void')", { "<Alt>5", NULL } },
    { "win.tool('tiles')", { "<Alt>6", NULL } },
    { "win.tool('atlas')", { "<Alt>7", NULL } },
    { "win.tool('stamp')", { "<Alt>8", NULL } },
    { "win.show-grid", { "<Control>g", NULL } },
    { "win.show-chunk-levels", { "<Control>l", NULL } },
  };

  g_autoptr(GtkCssProvider) provider = NULL;

  G_APPLICATION_CLASS (terrain_editor_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_entries, G_N_ELEMENTS (app_entries), self);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), accels[i].action, accels[i].accels);

  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (provider, "/io/github/libterrain/Editor/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);

  self->settings = g_settings_new (g_application_get_application_id (app));
  g_signal_connect_swapped (self->settings, "changed", G_CALLBACK (on_settings_changed), self);
  load_catalog (self);
  load_palette (self);
}

static void
terrain_editor_application_dispose (GObject *object)
{
  TerrainEditorApplication *self = TERRAIN_EDITOR_APPLICATION (object);

  g_clear_object (&self->settings);
  g_clear_pointer (&self->palette, terrain_palette_unref);
  g_clear_object (&self->catalog);
  g_clear_object (&self->sprites);
  g_clear_object (&self->game_files);
  g_clear_pointer (&self->palette_error, g_free);

  G_OBJECT_CLASS (terrain_editor_application_parent_class)->dispose (object);
}

static void
terrain_editor_application_class_init (TerrainEditorApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = terrain_editor_application_dispose;
  app_class->startup = terrain_editor_application_startup;
  app_class->activate = terrain_editor_application_activate;
  app_class->open = terrain_editor_application_open;
  app_class->handle_local_options = terrain_editor_application_handle_local_options;
}

static void
terrain_editor_application_init (TerrainEditorApplication *self)
{
  g_application_add_main_option (G_APPLICATION (self), "heightmap-format", 0,
                                 G_OPTION_FLAG_NONE, G_OPTION_ARG_STRING,
                                 _("Read heightmaps as FORMAT: gray, terrain-rgb, terrarium, "
                                   "raw16, hgt, ter, tnt (default: from the file)"),
                                 _("FORMAT"));
}

TerrainEditorApplication *
terrain_editor_application_new (GApplicationFlags flags)
{
  return g_object_new (TERRAIN_EDITOR_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "resource-base-path", "/io/github/libterrain/Editor",
                       "flags", G_APPLICATION_HANDLES_OPEN | flags,
                       NULL);
}
