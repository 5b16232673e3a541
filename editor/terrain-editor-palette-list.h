/* terrain-editor-palette-list.h: the rows, list and search the tools' palettes share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A row: a thumbnail @thumbnail_size pixels square, a name in bold and a
 * dim detail line. */
GtkWidget *terrain_editor_palette_row_new     (int            thumbnail_size);
void       terrain_editor_palette_row_set     (GtkWidget     *row,
                                               GdkPaintable  *thumbnail,
                                               const char    *name,
                                               const char    *detail,
                                               const char    *tooltip);
/* A list view of @selection's items, its rows made by
 * terrain_editor_palette_row_new() and filled by @bind (a
 * GtkSignalListItemFactory "bind" handler), in a framed scrolled window
 * that takes the height left. The list view is named @name. */
GtkWidget *terrain_editor_palette_list_new    (GtkSingleSelection *selection,
                                               int                 thumbnail_size,
                                               GCallback           bind,
                                               gpointer            user_data,
                                               const char         *name);
/* The words of a search, folded and split at blanks (free with
 * g_strfreev()), and whether a folded text holds every one. */
char     **terrain_editor_palette_search_words (GtkEditable  *search);
gboolean   terrain_editor_palette_words_match  (char        **words,
                                                const char   *folded);

G_END_DECLS
