/* terrain-editor-palette-list.c: the rows, list and search the tools' palettes share
 *
 * The Features tool's feature palette (terrain-editor-feature-palette.c)
 * and the Stamp tool's sections palette (terrain-editor-section-palette.c)
 * list their choices the same way: a row a choice with a thumbnail, its
 * name and a detail line, in a scrolled list, kept by a search whose every
 * word must be in the choice's text (any case).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-palette-list.h"

#include <string.h>

GtkWidget *
terrain_editor_palette_row_new (int thumbnail_size)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *picture = gtk_image_new ();
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *detail = gtk_label_new (NULL);

  /* The thumbnail in a square, its aspect kept. */
  gtk_image_set_pixel_size (GTK_IMAGE (picture), thumbnail_size);
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (name, "heading");
  gtk_label_set_xalign (GTK_LABEL (detail), 0);
  gtk_label_set_ellipsize (GTK_LABEL (detail), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (detail, "dim-label");
  gtk_widget_add_css_class (detail, "caption");
  gtk_box_append (GTK_BOX (text), name);
  gtk_box_append (GTK_BOX (text), detail);
  gtk_widget_set_valign (text, GTK_ALIGN_CENTER);
  gtk_widget_set_hexpand (text, TRUE);
  gtk_box_append (GTK_BOX (box), picture);
  gtk_box_append (GTK_BOX (box), text);
  return box;
}

void
terrain_editor_palette_row_set (GtkWidget    *row,
                                GdkPaintable *thumbnail,
                                const char   *name,
                                const char   *detail,
                                const char   *tooltip)
{
  GtkWidget *picture = gtk_widget_get_first_child (row);
  GtkWidget *text = gtk_widget_get_next_sibling (picture);
  GtkWidget *name_label = gtk_widget_get_first_child (text);
  GtkWidget *detail_label = gtk_widget_get_next_sibling (name_label);

  gtk_label_set_text (GTK_LABEL (name_label), name);
  gtk_label_set_text (GTK_LABEL (detail_label), detail);
  gtk_widget_set_tooltip_text (row, tooltip);
  if (thumbnail != NULL)
    gtk_image_set_from_paintable (GTK_IMAGE (picture), thumbnail);
  else
    gtk_image_clear (GTK_IMAGE (picture));
}

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  gtk_list_item_set_child (item, terrain_editor_palette_row_new (GPOINTER_TO_INT (user_data)));
}

GtkWidget *
terrain_editor_palette_list_new (GtkSingleSelection *selection,
                                 int                 thumbnail_size,
                                 GCallback           bind,
                                 gpointer            user_data,
                                 const char         *name)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *list;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), GINT_TO_POINTER (thumbnail_size));
  g_signal_connect (factory, "bind", bind, user_data);
  list = gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (selection)), factory);
  gtk_widget_set_name (list, name);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), list);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 260);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_widget_add_css_class (scrolled, "frame");
  return scrolled;
}

char **
terrain_editor_palette_search_words (GtkEditable *search)
{
  g_autofree char *folded = g_utf8_casefold (gtk_editable_get_text (search), -1);

  return g_strsplit_set (folded, " \t", -1);
}

gboolean
terrain_editor_palette_words_match (char       **words,
                                    const char  *folded)
{
  for (guint i = 0; words != NULL && words[i] != NULL; i++)
    if (words[i][0] != '\0' && strstr (folded, words[i]) == NULL)
      return FALSE;
  return TRUE;
}
