/* terrain-editor-window-first-run.c
 *
 * The first-run offer: while there is no palette (no palette file and no
 * Total Annihilation install named, how every new user starts) the window
 * shows a bar above the views that offers to point the editor at an
 * install folder or at its archives. What is chosen becomes the
 * game-files setting; the application then reads palettes/PALETTE.PAL,
 * the feature definitions under features/ and the sprites under anims/
 * from it through the library's game files (TerrainGameFiles), and every
 * window redraws. The bar never blocks: the map can be edited while it is
 * shown, and closing it hides it in every window until the next run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-window-private.h"

#include <glib/gi18n.h>

/* The archive kinds the game mounts (TerrainGameFiles). */
static const char *const archive_suffixes[] = { "hpi", "ufo", "ccx", "gpf", "gp3", NULL };

/* Whether the install's palette, features and sprites would change how the
 * window shows its document: no document yet, or one of Total
 * Annihilation's (a Torque or Insomniac terrain has no use for them). */
static gboolean
shows_ta_files (TerrainEditorWindow *self)
{
  if (self->document == NULL)
    return TRUE;
  switch (terrain_document_get_format (self->document))
    {
    case TERRAIN_FORMAT_TNT:
    case TERRAIN_FORMAT_SCT:
    case TERRAIN_FORMAT_HPI:
    case TERRAIN_FORMAT_OTA:
    case TERRAIN_FORMAT_TDF:
    case TERRAIN_FORMAT_GAF:
      return TRUE;
    default:
      return FALSE;
    }
}

void
window_first_run_update (TerrainEditorWindow *self)
{
  TerrainEditorApplication *app = window_get_app (self);

  gtk_info_bar_set_revealed (self->first_run_bar,
                             app != NULL && terrain_editor_application_get_offers_game_files (app) &&
                             shows_ta_files (self));
}

static void
on_chooser_response (GtkNativeDialog     *chooser,
                     int                  response,
                     TerrainEditorWindow *self)
{
  TerrainEditorApplication *app = window_get_app (self);

  if (response == GTK_RESPONSE_ACCEPT && app != NULL)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));

      if (g_list_model_get_n_items (files) > 0)
        terrain_editor_application_set_game_files (app, files);
    }
  g_object_unref (chooser);
  g_object_unref (self);
}

static void
choose (TerrainEditorWindow  *self,
        GtkFileChooserAction  action)
{
  GtkFileChooserNative *chooser;

  if (action == GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER)
    chooser = gtk_file_chooser_native_new (_("Choose the Total Annihilation Install Folder"),
                                           GTK_WINDOW (self), action, _("_Choose"), _("_Cancel"));
  else
    {
      GtkFileFilter *filter = gtk_file_filter_new ();

      chooser = gtk_file_chooser_native_new (_("Choose Total Annihilation Archives"),
                                             GTK_WINDOW (self), action, _("_Choose"), _("_Cancel"));
      gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
      gtk_file_filter_set_name (filter, _("Total Annihilation archives"));
      for (guint i = 0; archive_suffixes[i] != NULL; i++)
        gtk_file_filter_add_suffix (filter, archive_suffixes[i]);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
      g_object_unref (filter);
    }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_chooser_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
on_folder_clicked (TerrainEditorWindow *self)
{
  choose (self, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER);
}

static void
on_archives_clicked (TerrainEditorWindow *self)
{
  choose (self, GTK_FILE_CHOOSER_ACTION_OPEN);
}

static void
on_first_run_response (TerrainEditorWindow *self,
                       int                  response)
{
  TerrainEditorApplication *app = window_get_app (self);

  if (response != GTK_RESPONSE_CLOSE)
    return;
  gtk_info_bar_set_revealed (self->first_run_bar, FALSE);
  if (app != NULL)
    terrain_editor_application_dismiss_game_files_offer (app);
}

void
window_first_run_init (TerrainEditorWindow *self)
{
  g_signal_connect_swapped (self->first_run_folder_button, "clicked", G_CALLBACK (on_folder_clicked), self);
  g_signal_connect_swapped (self->first_run_archives_button, "clicked", G_CALLBACK (on_archives_clicked), self);
  g_signal_connect_swapped (self->first_run_bar, "response", G_CALLBACK (on_first_run_response), self);
}
