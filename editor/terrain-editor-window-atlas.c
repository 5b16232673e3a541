/* terrain-editor-window-atlas.c
 *
 * Atlas files in the window: a stub selected in the Structure tab or the
 * Atlas tool is highlighted in both views and described in Properties;
 * the Atlas tool replaces textures and edits the configuration.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-window-private.h"

#include <glib/gi18n.h>
#include <math.h>

/* ------------------------------------------------------------------------ */
/* Atlas stubs: selected in the Structure tab (or the Atlas tool's tile
 * list), a stub's box is highlighted in the 3D view and outlined in the 2D
 * view, and the Properties tab describes it, decoding its chunk.           */

static gint
atlas_toc_slot (TerrainAtlasFile *atlas,
                TerrainAtlasToc  *toc)
{
  for (guint t = 0; t < terrain_atlas_file_get_n_tocs (atlas); t++)
    if (terrain_atlas_file_get_toc (atlas, t) == toc)
      return (gint) t;
  return -1;
}

static void
append_box (GString               *text,
            const char            *label,
            const TerrainAtlasBox *box)
{
  g_string_append_printf (text, "%s (%g, %g, %g) – (%g, %g, %g)\n", label,
                          box->min[0], box->min[1], box->min[2], box->max[0], box->max[1], box->max[2]);
}

/* What the Properties tab says about a stub: where it is in its tree, its
 * bounds and chunk, and what the chunk holds (decoded now, once). */
static char *
describe_atlas_stub (TerrainAtlasFile *atlas,
                     TerrainAtlasStub *stub)
{
  TerrainAtlasToc *toc = terrain_atlas_stub_get_toc (stub);
  gint slot = atlas_toc_slot (atlas, toc);
  guint index = terrain_atlas_stub_get_index (stub);
  GString *text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  TerrainAtlasBox box;
  gboolean have_bounds;
  guint level;
  guint32 x, y;

  switch (terrain_atlas_toc_get_kind (toc))
    {
    case TERRAIN_ATLAS_TOC_GEOMETRY:
      g_string_append_printf (text, _("Geometry stub %u of TOC %d"), index, slot);
      break;
    case TERRAIN_ATLAS_TOC_TEXTURE:
      g_string_append_printf (text, _("Texture stub %u of TOC %d"), index, slot);
      break;
    case TERRAIN_ATLAS_TOC_CONFIG:
    default:
      g_string_append_printf (text, _("Config stub %u of TOC %d"), index, slot);
      break;
    }
  g_string_append_c (text, '\n');
  if (terrain_atlas_stub_get_node (stub, &level, &x, &y))
    {
      g_string_append_printf (text, _("Level: %u"), level);
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Position: %u, %u"), x, y);
      g_string_append_c (text, '\n');
    }
  have_bounds = terrain_atlas_stub_get_bounds (stub, &box);
  if (have_bounds)
    append_box (text, _("Bounds:"), &box);
  else if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_TEXTURE &&
           terrain_editor_atlas_get_stub_box (atlas, stub, &box))
    append_box (text, _("Covers:"), &box);
  if (terrain_atlas_stub_has_chunk (stub))
    {
      g_string_append_printf (text, _("Chunk: offset %u, %u bytes"), terrain_atlas_stub_get_offset (stub),
                              terrain_atlas_stub_get_length (stub));
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Generation: %u"), terrain_atlas_stub_get_generation (stub));
      g_string_append_c (text, '\n');
    }
  else
    {
      g_string_append_printf (text, "%s\n", _("No chunk"));
      return g_strchomp (g_string_free (text, FALSE));
    }

  if (slot < 0)
    return g_strchomp (g_string_free (text, FALSE));
  if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_GEOMETRY)
    {
      g_autoptr(TerrainAtlasGeometry) geometry = terrain_atlas_file_get_geometry (atlas, (guint) slot, index,
                                                                                &error);

      if (geometry != NULL)
        {
          guint n_indices = terrain_atlas_geometry_get_n_indices (geometry);
          guint skirt = MIN (n_indices, terrain_atlas_geometry_get_skirt_skip_count (geometry));

          g_string_append_printf (text, _("Vertices: %u"), terrain_atlas_geometry_get_n_vertices (geometry));
          g_string_append_c (text, '\n');
          g_string_append_printf (text, _("Triangles: %u (%u surface, %u skirt)"), n_indices / 3,
                                  (n_indices - skirt) / 3, skirt / 3);
          g_string_append_c (text, '\n');
          if (!have_bounds && terrain_atlas_geometry_compute_bounds (geometry, &box))
            append_box (text, _("Bounds (from the chunk):"), &box);
        }
    }
  else if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_TEXTURE)
    {
      g_autoptr(TerrainAtlasTexture) texture = terrain_atlas_file_get_texture (atlas, (guint) slot, index, &error);
      guint width = 0, height = 0;

      if (texture != NULL && terrain_atlas_texture_get_size (texture, &width, &height, &error))
        {
          g_string_append_printf (text, _("Image: %s, %u × %u pixels"),
                                  terrain_atlas_texture_get_extension (texture), width, height);
          g_string_append_c (text, '\n');
        }
    }
  else
    {
      g_autoptr(TerrainAtlasConfig) config = terrain_atlas_file_get_config (atlas, (guint) slot, index, &error);

      if (config != NULL)
        {
          g_string_append_printf (text, _("Entries: %u"), terrain_atlas_config_get_n_entries (config));
          g_string_append_c (text, '\n');
        }
    }
  if (error != NULL)
    {
      g_string_append_printf (text, _("The chunk does not decode: %s"), error->message);
      g_string_append_c (text, '\n');
    }
  return g_strchomp (g_string_free (text, FALSE));
}

/* Highlights @stub (or nothing, for %NULL); @frame: also move the views to
 * it (the row was activated). */
void
window_highlight_atlas_stub (TerrainEditorWindow *self,
                      TerrainAtlasStub    *stub,
                      gboolean             frame)
{
  TerrainEditorGlView *gl_view = self->gl_view != NULL ? TERRAIN_EDITOR_GL_VIEW (self->gl_view) : NULL;
  g_autofree char *description = NULL;
  TerrainAtlasBox box;
  gboolean have_box;
  double x, y, width, height;

  if (stub == NULL || !TERRAIN_IS_ATLAS_FILE (self->document))
    {
      if (gl_view != NULL)
        terrain_editor_gl_view_set_atlas_highlight (gl_view, NULL);
      terrain_editor_map_view_set_atlas_outline (self->map_view, NULL);
      return;
    }

  have_box = terrain_editor_atlas_get_stub_box (TERRAIN_ATLAS_FILE (self->document), stub, &box);
  if (gl_view != NULL)
    terrain_editor_gl_view_set_atlas_highlight (gl_view, have_box ? &box : NULL);
  terrain_editor_map_view_set_atlas_outline (self->map_view, have_box ? &box : NULL);
  description = describe_atlas_stub (TERRAIN_ATLAS_FILE (self->document), stub);
  gtk_label_set_text (self->properties_label, description);

  if (!frame || !have_box)
    return;
  if (gl_view != NULL)
    terrain_editor_gl_view_frame_atlas_box (gl_view, &box);
  if (terrain_editor_map_view_get_atlas_outline (self->map_view, &x, &y, &width, &height))
    terrain_editor_map_view_center_on (self->map_view, x + width / 2, y + height / 2);
}

/* ------------------------------------------------------------------------ */
/* Atlas                                                                    */

static void
atlas_clear (TerrainEditorWindow *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->atlas_box))) != NULL)
    gtk_box_remove (self->atlas_box, child);
}

typedef struct
{
  TerrainEditorWindow *self;
  guint toc;
  guint stub;
} AtlasRef;

static void
on_replace_texture_response (GtkNativeDialog *dialog,
                             int              response,
                             AtlasRef        *ref)
{
  TerrainEditorWindow *self = ref->self;

  if (response == GTK_RESPONSE_ACCEPT && TERRAIN_IS_ATLAS_FILE (self->document))
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) bytes = g_file_load_bytes (file, NULL, NULL, &error);
      g_autoptr(TerrainImage) image = bytes != NULL ? terrain_image_load_png_bytes (bytes, &error) : NULL;
      TerrainAtlasFile *atlas = TERRAIN_ATLAS_FILE (self->document);
      g_autoptr(TerrainAtlasTexture) old = terrain_atlas_file_get_texture (atlas, ref->toc, ref->stub, NULL);
      g_autoptr(TerrainAtlasTexture) texture = NULL;
      g_autoptr(TerrainCommand) command = NULL;

      if (image != NULL)
        texture = terrain_atlas_texture_new_from_image (image,
                                                        old != NULL ? terrain_atlas_texture_get_format (old)
                                                                    : TERRAIN_ATLAS_TEXTURE_PNG,
                                                        90, TERRAIN_ATLAS_CHANNELS_RGB, &error);
      if (texture == NULL)
        {
          g_autofree char *message = g_strdup_printf (_("Could not replace the texture tile: %s"),
                                                      error->message);
          terrain_editor_window_show_error (self, message);
        }
      else
        {
          /* Through the undo stack: undo restores the file's bytes. */
          command = terrain_atlas_edit_new_replace_texture (atlas, ref->toc, ref->stub, texture);
          if (window_execute (self, command))
            window_fill_atlas (self);
        }
    }
  g_object_unref (dialog);
}

static void
on_replace_texture (GtkButton *button,
                    AtlasRef  *ref)
{
  GtkFileChooserNative *chooser;
  GtkFileFilter *filter = gtk_file_filter_new ();

  chooser = gtk_file_chooser_native_new (_("Replace Texture Tile"), GTK_WINDOW (ref->self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Replace"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("PNG images"));
  gtk_file_filter_add_suffix (filter, "png");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_object_unref (filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_replace_texture_response), ref);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
on_texture_selected (GtkDropDown         *dropdown,
                     GParamSpec          *pspec,
                     TerrainEditorWindow *self)
{
  GtkPicture *picture = g_object_get_data (G_OBJECT (dropdown), "picture");
  AtlasRef *ref = g_object_get_data (G_OBJECT (dropdown), "ref");
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainImage) image = NULL;

  ref->stub = gtk_drop_down_get_selected (dropdown);
  /* Picked by the user (not filled in): show where the tile lies. */
  if (pspec != NULL)
    {
      g_autoptr(TerrainAtlasStub) stub =
        g_list_model_get_item (G_LIST_MODEL (terrain_atlas_file_get_toc (TERRAIN_ATLAS_FILE (self->document),
                                                                         ref->toc)), ref->stub);

      window_highlight_atlas_stub (self, stub, FALSE);
    }
  image = terrain_atlas_file_render_texture (TERRAIN_ATLAS_FILE (self->document), ref->toc, ref->stub,
                                             TERRAIN_ATLAS_CHANNELS_RGB, &error);
  if (image != NULL && terrain_image_get_format (image) == TERRAIN_IMAGE_RGBA8)
    {
      g_autoptr(GdkTexture) texture = terrain_editor_texture_new_for_image (image);

      gtk_picture_set_paintable (picture, GDK_PAINTABLE (texture));
    }
  else
    gtk_picture_set_paintable (picture, NULL);
}

static void
on_config_entry_activate (GtkEntry            *entry,
                          TerrainEditorWindow *self)
{
  AtlasRef *ref = g_object_get_data (G_OBJECT (entry), "ref");
  const char *key = g_object_get_data (G_OBJECT (entry), "key");
  TerrainAtlasFile *atlas = TERRAIN_ATLAS_FILE (self->document);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainAtlasConfig) config = terrain_atlas_file_get_config (atlas, ref->toc, ref->stub, &error);

  if (config != NULL)
    {
      g_autoptr(TerrainCommand) command = NULL;

      terrain_atlas_config_set (config, key, gtk_editable_get_text (GTK_EDITABLE (entry)));
      command = terrain_atlas_edit_new_replace_config (atlas, ref->toc, ref->stub, config);
      /* window_execute() shows its own error. */
      window_execute (self, command);
      return;
    }
  {
    g_autofree char *message = g_strdup_printf (_("Could not change the config entry “%s”: %s"),
                                                key, error->message);
    terrain_editor_window_show_error (self, message);
  }
}

static GtkWidget *
heading (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  return label;
}

void
window_fill_atlas (TerrainEditorWindow *self)
{
  TerrainAtlasFile *atlas;

  atlas_clear (self);
  if (!TERRAIN_IS_ATLAS_FILE (self->document))
    {
      GtkWidget *label = gtk_label_new (_("The Atlas tool edits Torque Atlas files."));

      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (self->atlas_box, label);
      return;
    }

  atlas = TERRAIN_ATLAS_FILE (self->document);
  for (guint t = 0; t < terrain_atlas_file_get_n_tocs (atlas); t++)
    {
      TerrainAtlasToc *toc = terrain_atlas_file_get_toc (atlas, t);
      guint n = g_list_model_get_n_items (G_LIST_MODEL (toc));
      AtlasRef *ref = g_new0 (AtlasRef, 1);
      char ref_key[32];

      ref->self = self;
      ref->toc = t;
      g_snprintf (ref_key, sizeof ref_key, "ref-%u", t);
      g_object_set_data_full (G_OBJECT (self->atlas_box), g_intern_string (ref_key), ref, g_free);

      if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_TEXTURE)
        {
          GtkStringList *names = gtk_string_list_new (NULL);
          GtkWidget *dropdown, *picture, *button;

          for (guint s = 0; s < n; s++)
            {
              g_autoptr(TerrainAtlasStub) stub = g_list_model_get_item (G_LIST_MODEL (toc), s);
              guint level;
              guint32 x, y;
              g_autofree char *label = NULL;

              terrain_atlas_stub_get_node (stub, &level, &x, &y);
              label = g_strdup_printf (_("Tile %u: level %u (%u, %u)"), s, level, x, y);
              gtk_string_list_append (names, label);
            }
          gtk_box_append (self->atlas_box, heading (_("Texture tiles")));
          dropdown = gtk_drop_down_new (G_LIST_MODEL (names), NULL);
          picture = gtk_picture_new ();
          gtk_widget_set_size_request (picture, 256, 256);
          g_object_set_data (G_OBJECT (dropdown), "picture", picture);
          g_object_set_data (G_OBJECT (dropdown), "ref", ref);
          g_signal_connect (dropdown, "notify::selected", G_CALLBACK (on_texture_selected), self);
          button = gtk_button_new_with_mnemonic (_("_Replace Tile…"));
          g_signal_connect (button, "clicked", G_CALLBACK (on_replace_texture), ref);
          gtk_box_append (self->atlas_box, dropdown);
          gtk_box_append (self->atlas_box, picture);
          gtk_box_append (self->atlas_box, button);
          if (n > 0)
            on_texture_selected (GTK_DROP_DOWN (dropdown), NULL, self);
        }
      else if (terrain_atlas_toc_get_kind (toc) == TERRAIN_ATLAS_TOC_CONFIG)
        {
          for (guint s = 0; s < n; s++)
            {
              g_autoptr(TerrainAtlasConfig) config = terrain_atlas_file_get_config (atlas, t, s, NULL);
              g_autoptr(TerrainAtlasStub) stub = g_list_model_get_item (G_LIST_MODEL (toc), s);
              g_autofree char *name = terrain_atlas_stub_dup_name (stub);
              g_autofree char *title = g_strdup_printf (_("Config “%s”"), name != NULL ? name : "");
              GtkWidget *grid = gtk_grid_new ();
              AtlasRef *config_ref = g_new0 (AtlasRef, 1);

              if (config == NULL)
                continue;
              config_ref->self = self;
              config_ref->toc = t;
              config_ref->stub = s;
              g_object_set_data_full (G_OBJECT (grid), "ref", config_ref, g_free);
              gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
              gtk_grid_set_column_spacing (GTK_GRID (grid), 6);
              gtk_box_append (self->atlas_box, heading (title));
              for (guint e = 0; e < terrain_atlas_config_get_n_entries (config); e++)
                {
                  const char *key = terrain_atlas_config_get_key (config, e, NULL);
                  GtkWidget *label = gtk_label_new (key);
                  GtkWidget *entry = gtk_entry_new ();

                  gtk_label_set_xalign (GTK_LABEL (label), 1);
                  gtk_editable_set_text (GTK_EDITABLE (entry), terrain_atlas_config_get_value (config, e, NULL));
                  gtk_widget_set_hexpand (entry, TRUE);
                  gtk_widget_set_tooltip_text (entry, _("Press Enter to apply"));
                  g_object_set_data (G_OBJECT (entry), "ref", config_ref);
                  g_object_set_data_full (G_OBJECT (entry), "key", g_strdup (key), g_free);
                  g_signal_connect (entry, "activate", G_CALLBACK (on_config_entry_activate), self);
                  gtk_grid_attach (GTK_GRID (grid), label, 0, e, 1, 1);
                  gtk_grid_attach (GTK_GRID (grid), entry, 1, e, 1, 1);
                }
              gtk_box_append (self->atlas_box, grid);
            }
        }
    }
  {
    GtkWidget *label = gtk_label_new (_("Geometry chunks, their LOD levels and bounds are listed in the Structure tab: select a stub to highlight it in the views, double-click it to go there. Levels (Ctrl+L) colours the 3D view by level."));

    gtk_label_set_wrap (GTK_LABEL (label), TRUE);
    gtk_label_set_xalign (GTK_LABEL (label), 0);
    gtk_widget_add_css_class (label, "dim-label");
    gtk_box_append (self->atlas_box, label);
  }
}
