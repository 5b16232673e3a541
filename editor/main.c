/* main.c: terrain-editor placeholder
 *
 * The full editor (3D and 2D views, tools, undo) is tracked by the editor
 * issue. Until then this shows each opened file's summary, so the program
 * name, the GTK dependency and the "no format logic in the editor" rule are
 * in place: everything shown comes from libterrain.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <gtk/gtk.h>
#include <locale.h>

#include <libterrain.h>

#define APPLICATION_ID "io.github.libterrain.Editor"

static void
show_document (GtkApplication *app,
               GFile          *file)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) document = terrain_document_load (file, NULL, NULL, &error);
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *text = NULL;
  GtkWidget *window = gtk_application_window_new (app);
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *view = gtk_text_view_new ();

  if (document != NULL)
    {
      g_autoptr(JsonNode) node = terrain_document_describe (document);
      g_autoptr(JsonGenerator) generator = json_generator_new ();

      json_generator_set_root (generator, node);
      json_generator_set_pretty (generator, TRUE);
      text = json_generator_to_data (generator, NULL);
    }
  else
    text = g_strdup (error->message);

  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), text, -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  gtk_window_set_child (GTK_WINDOW (window), scrolled);
  gtk_window_set_title (GTK_WINDOW (window), name);
  gtk_window_set_default_size (GTK_WINDOW (window), 640, 480);
  gtk_window_present (GTK_WINDOW (window));
}

static void
on_open (GApplication  *app,
         GFile        **files,
         int            n_files,
         const char    *hint)
{
  for (int i = 0; i < n_files; i++)
    show_document (GTK_APPLICATION (app), files[i]);
}

static void
on_activate (GApplication *app)
{
  GtkWidget *window = gtk_application_window_new (GTK_APPLICATION (app));
  GtkWidget *label = gtk_label_new (_("Open a map with “terrain-editor FILE…”."));

  gtk_window_set_child (GTK_WINDOW (window), label);
  gtk_window_set_title (GTK_WINDOW (window), _("Terrain Editor"));
  gtk_window_set_default_size (GTK_WINDOW (window), 480, 240);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GtkApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = gtk_application_new (APPLICATION_ID, G_APPLICATION_HANDLES_OPEN);
  g_signal_connect (app, "activate", G_CALLBACK (on_activate), NULL);
  g_signal_connect (app, "open", G_CALLBACK (on_open), NULL);

  return g_application_run (G_APPLICATION (app), argc, argv);
}
