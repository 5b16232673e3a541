/* test-editor-map.c: the New Map and Resize Map dialogs, under Xvfb
 *
 * New Map (app.new-map): the size typed in tiles shows its cells and
 * pixels, the sea level, fill height and fill colour typed in; Create
 * opens a window whose map has that size, sea level, heights and tile,
 * titled "• Untitled" as unsaved; saving it (win.save-as('URI')) writes
 * those bytes and the title becomes the file's name. Resize Map
 * (win.resize-map, only for a TNT map): tiles added and cropped on each
 * side, the new area at the fill height with the fill tile, the 2D and
 * 3D views following the new size; Undo gives back the loaded bytes exactly, Redo
 * the resized map again. The suite runs with G_DEBUG=fatal-warnings.
 * TERRAIN_EDITOR_SCREENSHOT_DIR keeps editor-new-map-dialog.png,
 * editor-new-map.png and editor-resize.png.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <libterrain.h>

#include "terrain-editor-gl-view.h"
#include "terrain-editor-new-map-dialog.h"
#include "terrain-editor-resize-dialog.h"
#include "terrain-test-util.h"
#include "test-editor-util.h"

TerrainEditorApplication *app;

typedef struct
{
  char *dir;
  char *palette_path;
} Fixture;

/* A palette of 256 distinct colours, in a folder of its own (the corpus's
 * TA palette when there, for pictures a map maker knows). */
static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *corpus = terrain_test_corpus_path ("ta/PALETTE.PAL");
  guint8 pal[256 * 4];

  f->dir = g_dir_make_tmp ("test-editor-map-XXXXXX", &error);
  g_assert_no_error (error);
  f->palette_path = g_build_filename (f->dir, "PALETTE.PAL", NULL);
  if (corpus != NULL)
    {
      g_autofree char *contents = NULL;
      gsize length;

      g_assert_true (g_file_get_contents (corpus, &contents, &length, &error));
      g_assert_true (g_file_set_contents (f->palette_path, contents, length, &error));
    }
  else
    {
      for (guint i = 0; i < 256; i++)
        {
          pal[4 * i] = (guint8) i;
          pal[4 * i + 1] = (guint8) ((i * 7) % 256);
          pal[4 * i + 2] = (guint8) (255 - i);
          pal[4 * i + 3] = 0;
        }
      g_assert_true (g_file_set_contents (f->palette_path, (const char *) pal, sizeof pal, &error));
    }
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  static const char *const remembered[] = {
    "new-map-width", "new-map-height", "new-map-sea-level", "new-map-fill-height", "new-map-fill-colour",
    "resize-left", "resize-top", "resize-right", "resize-bottom", "resize-fill-height",
  };

  g_settings_reset (terrain_editor_application_get_settings (app), "palette-path");
  for (guint i = 0; i < G_N_ELEMENTS (remembered); i++)
    g_settings_reset (terrain_editor_application_get_settings (app), remembered[i]);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f->palette_path);
}

static const char *
title (TerrainEditorWindow *window)
{
  return gtk_label_get_text (GTK_LABEL (child (window, "title_label")));
}

static GtkWidget *
dialog_child (GtkWidget  *dialog,
              GType       type,
              const char *name)
{
  GtkWidget *widget = GTK_WIDGET (gtk_widget_get_template_child (dialog, type, name));

  g_assert_nonnull (widget);
  return widget;
}

/* Typed in and confirmed, as a user does. */
static void
type_into (GtkWidget  *dialog,
           GType       type,
           const char *name,
           int         value)
{
  GtkSpinButton *spin = GTK_SPIN_BUTTON (dialog_child (dialog, type, name));
  g_autofree char *text = g_strdup_printf ("%d", value);

  gtk_editable_set_text (GTK_EDITABLE (spin), text);
  gtk_spin_button_update (spin);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, value);
}

static const char *
label_text (GtkWidget  *dialog,
            GType       type,
            const char *name)
{
  return gtk_label_get_text (GTK_LABEL (dialog_child (dialog, type, name)));
}

/* Clicks a header-bar button of a dialog. */
static void
press (GtkWidget  *dialog,
       GType       type,
       const char *name)
{
  GtkWidget *button = dialog_child (dialog, type, name);

  g_assert_true (gtk_widget_get_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
  iterate (100);
}

static GtkWidget *
find_app_window (GType type)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (G_TYPE_CHECK_INSTANCE_TYPE (l->data, type))
      return l->data;
  return NULL;
}

/* The window showing a document that has no file. */
static TerrainEditorWindow *
find_untitled_window (void)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (TERRAIN_EDITOR_IS_WINDOW (l->data) && terrain_editor_window_get_document (l->data) != NULL &&
        terrain_editor_window_get_file (l->data) == NULL)
      return l->data;
  return NULL;
}

static void
assert_all_heights (TerrainTntMap *map,
                    guint8         height)
{
  for (guint y = 0; y < terrain_tnt_map_get_height (map); y++)
    for (guint x = 0; x < terrain_tnt_map_get_width (map); x++)
      if (terrain_tnt_map_get_cell_height (map, x, y) != height)
        g_error ("cell %u,%u is at %u, not %u", x, y, terrain_tnt_map_get_cell_height (map, x, y), height);
}

static void
assert_new_map (TerrainTntMap *map,
                guint8         colour)
{
  const guint8 *tile;

  g_assert_cmpuint (terrain_tnt_map_get_width (map), ==, 24);
  g_assert_cmpuint (terrain_tnt_map_get_height (map), ==, 16);
  g_assert_cmpuint (terrain_tnt_map_get_tile_columns (map), ==, 12);
  g_assert_cmpuint (terrain_tnt_map_get_sea_level (map), ==, 40);
  assert_all_heights (map, 30);
  g_assert_cmpuint (terrain_tnt_map_get_n_tiles (map), ==, 1);
  tile = terrain_tnt_map_get_tile (map, 0);
  for (guint i = 0; i < TERRAIN_TNT_TILE_BYTES; i++)
    g_assert_cmpuint (tile[i], ==, colour);
  g_assert_true (terrain_tnt_map_get_minimap_present (map));
}

static void
test_new_map (Fixture       *f,
              gconstpointer  data)
{
  GSettings *settings = terrain_editor_application_get_settings (app);
  GType type = TERRAIN_EDITOR_TYPE_NEW_MAP_DIALOG;
  g_autofree char *out_path = g_build_filename (f->dir, "new.tnt", NULL);
  g_autoptr(GFile) out_file = g_file_new_for_path (out_path);
  g_autofree char *out_uri = g_file_get_uri (out_file);
  g_autoptr(TerrainTntMap) saved = NULL;
  g_autoptr(GError) error = NULL;
  GWeakRef dialog_ref;
  GtkWidget *dialog;
  TerrainEditorWindow *window;
  TerrainPalette *palette;
  guint8 colour;

  g_settings_set_string (settings, "palette-path", f->palette_path);
  palette = terrain_editor_application_get_palette (app);
  g_assert_nonnull (palette);
  /* A grass green of the palette. */
  colour = terrain_palette_nearest (palette, 60, 110, 40);

  g_action_group_activate_action (G_ACTION_GROUP (app), "new-map", NULL);
  dialog = find_app_window (type);
  g_assert_nonnull (dialog);
  g_weak_ref_init (&dialog_ref, dialog);
  iterate (200);
  /* The size in tiles, with its cells and pixels as Mappy shows it. */
  g_assert_cmpstr (label_text (dialog, type, "size_label"), ==, "32 × 32 tiles (64 × 64 cells, 1024 × 1024 px)");
  type_into (dialog, type, "width_spin", 12);
  type_into (dialog, type, "height_spin", 8);
  g_assert_cmpstr (label_text (dialog, type, "size_label"), ==, "12 × 8 tiles (24 × 16 cells, 384 × 256 px)");
  type_into (dialog, type, "sea_level_spin", 40);
  type_into (dialog, type, "fill_height_spin", 30);
  g_assert_cmpstr (label_text (dialog, type, "water_label"), ==, "under water");
  type_into (dialog, type, "fill_colour_spin", colour);
  {
    GdkPaintable *swatch = gtk_image_get_paintable (GTK_IMAGE (dialog_child (dialog, type, "colour_swatch")));
    guint8 pixel[4], r, g, b;

    g_assert_true (GDK_IS_TEXTURE (swatch));
    gdk_texture_download (GDK_TEXTURE (swatch), pixel, 4);
    terrain_palette_get_color (palette, colour, &r, &g, &b);
    /* Downloads are B G R A in memory on little-endian. */
    g_assert_cmpuint (pixel[2], ==, r);
    g_assert_cmpuint (pixel[1], ==, g);
    g_assert_cmpuint (pixel[0], ==, b);
  }
  save_screenshot (dialog, "editor-new-map-dialog.png");

  press (dialog, type, "create_button");
  assert_finalized (&dialog_ref);
  window = find_untitled_window ();
  g_assert_nonnull (window);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 700);
  iterate (500);

  /* What the window shows: the map as chosen, unsaved and untitled. */
  g_assert_true (TERRAIN_IS_TNT_MAP (terrain_editor_window_get_document (window)));
  assert_new_map (TERRAIN_TNT_MAP (terrain_editor_window_get_document (window)), colour);
  g_assert_cmpstr (title (window), ==, "• Untitled");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "• Untitled");
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (child (window, "subtitle_label"))), "not saved"));
  g_assert_cmpfloat (gtk_adjustment_get_value (GTK_ADJUSTMENT (child_object (window, "sea_adjustment"))), ==, 40);
  g_assert_false (terrain_command_stack_get_can_undo (terrain_editor_window_get_command_stack (window)));
  g_assert_cmpint (terrain_editor_map_view_get_picture (map_view (window)), ==, TERRAIN_EDITOR_MAP_PICTURE_FULL);
  {
    /* The view's middle is the map's middle; the water over it shows. */
    GtkWidget *view = GTK_WIDGET (map_view (window));
    double x, y;

    terrain_editor_map_view_zoom_to_fit (map_view (window));
    iterate (100);
    terrain_editor_map_view_cell_at (map_view (window), gtk_widget_get_width (view) / 2.0,
                                     gtk_widget_get_height (view) / 2.0, &x, &y);
    g_assert_cmpfloat_with_epsilon (x, 12, 0.5);
    g_assert_cmpfloat_with_epsilon (y, 8, 0.5);
    g_assert_nonnull (terrain_editor_map_view_get_water (map_view (window)));
  }
  save_screenshot (GTK_WIDGET (window), "editor-new-map.png");

  /* Saved where the user says: those bytes, and the title the name. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.save-as", "s", out_uri));
  g_assert_null (terrain_editor_window_get_error_message (window));
  g_assert_cmpstr (title (window), ==, "new.tnt");
  saved = terrain_tnt_map_new_from_file (out_file, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_new_map (saved, colour);

  close_window (window);
}

/* Without a palette the fill colour is the index, shown as grey, and the
 * minimap holds it too. */
static void
test_new_map_no_palette (Fixture       *f,
                         gconstpointer  data)
{
  GType type = TERRAIN_EDITOR_TYPE_NEW_MAP_DIALOG;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = NULL;
  TerrainEditorNewMapDialog *dialog;
  const guint8 *minimap;
  guint mw, mh;

  g_settings_reset (terrain_editor_application_get_settings (app), "palette-path");
  g_assert_null (terrain_editor_application_get_palette (app));
  dialog = terrain_editor_new_map_dialog_new (app, NULL);
  gtk_window_present (GTK_WINDOW (dialog));
  iterate (100);
  type_into (GTK_WIDGET (dialog), type, "width_spin", 4);
  type_into (GTK_WIDGET (dialog), type, "height_spin", 4);
  type_into (GTK_WIDGET (dialog), type, "fill_colour_spin", 77);
  map = terrain_editor_new_map_dialog_build_map (dialog, &error);
  g_assert_no_error (error);
  minimap = terrain_tnt_map_get_minimap (map, &mw, &mh);
  g_assert_nonnull (minimap);
  g_assert_cmpuint (minimap[0], ==, 77);
  press (GTK_WIDGET (dialog), type, "cancel_button");
  g_assert_null (find_app_window (type));
}

/* A 16 x 12 tile map, heights a ramp, two tiles (0 and 1) laid in
 * stripes, saved to a file. */
static GFile *
write_map (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (32, 24, &error);
  g_autofree char *path = g_build_filename (f->dir, "ramp.tnt", NULL);
  GFile *file = g_file_new_for_path (path);
  guint8 tile[TERRAIN_TNT_TILE_BYTES];

  g_assert_no_error (error);
  for (guint y = 0; y < 24; y++)
    for (guint x = 0; x < 32; x++)
      terrain_tnt_map_set_cell_height (map, x, y, (guint8) (x * 4 + y * 3));
  memset (tile, 200, sizeof tile);
  g_assert_cmpuint (terrain_tnt_map_add_tile (map, tile), ==, 1);
  for (guint row = 0; row < 12; row++)
    for (guint column = 0; column < 16; column++)
      terrain_tnt_map_set_tile_index (map, column, row, (guint16) ((column / 2) % 2));
  terrain_tnt_map_set_sea_level (map, 20, NULL);
  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (map), file, NULL, &error));
  g_assert_no_error (error);
  {
    /* Its description, two start positions (map pixels). */
    static const char ota[] =
      "[GlobalHeader]\r\n{\r\n\tmissionname=Ramp;\r\n\tnumplayers=2;\r\n\tsize=16 x 12;\r\n"
      "\tSCHEMACOUNT=1;\r\n\t[Schema 0]\r\n\t{\r\n\t\tType=Network 1;\r\n\t\t[specials]\r\n"
      "\t\t{\r\n\t\t\t[special0]\r\n\t\t\t{\r\n\t\t\t\tspecialwhat=StartPos1;\r\n"
      "\t\t\t\tXPos=100;\r\n\t\t\t\tZPos=50;\r\n\t\t\t}\r\n\t\t\t[special1]\r\n\t\t\t{\r\n"
      "\t\t\t\tspecialwhat=StartPos2;\r\n\t\t\t\tXPos=500;\r\n\t\t\t\tZPos=180;\r\n"
      "\t\t\t}\r\n\t\t}\r\n\t}\r\n}\r\n";
    g_autofree char *ota_path = g_build_filename (f->dir, "ramp.ota", NULL);

    g_assert_true (g_file_set_contents (ota_path, ota, -1, &error));
    g_assert_no_error (error);
  }
  return file;
}

static GBytes *
document_bytes (TerrainEditorWindow *window)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = terrain_document_save_to_bytes (terrain_editor_window_get_document (window), &error);

  g_assert_no_error (error);
  return bytes;
}

/* The map view, fitted, shows the cell (@x, @y) in its middle once its
 * picture follows the map (drawn in an idle: waits up to 10 s for it). */
static void
assert_view_middle (TerrainEditorWindow *window,
                    double               x,
                    double               y)
{
  GtkWidget *view = GTK_WIDGET (map_view (window));
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  double cx, cy;

  for (;;)
    {
      iterate (100);
      terrain_editor_map_view_zoom_to_fit (map_view (window));
      iterate (50);
      terrain_editor_map_view_cell_at (map_view (window), gtk_widget_get_width (view) / 2.0,
                                       gtk_widget_get_height (view) / 2.0, &cx, &cy);
      if ((fabs (cx - x) <= 0.5 && fabs (cy - y) <= 0.5) || g_get_monotonic_time () > deadline)
        break;
    }
  g_assert_cmpfloat_with_epsilon (cx, x, 0.5);
  g_assert_cmpfloat_with_epsilon (cy, y, 0.5);
}

/* The 3D view's map size, as the middle its camera resets to. */
static void
assert_3d_middle (TerrainEditorWindow *window,
                  double               x,
                  double               y)
{
  TerrainEditorGlView *gl_view =
    TERRAIN_EDITOR_GL_VIEW (gtk_overlay_get_child (GTK_OVERLAY (child (window, "gl_overlay"))));
  double tx, ty;

  terrain_editor_gl_view_reset_camera (gl_view);
  terrain_editor_gl_view_get_camera (gl_view, &tx, &ty, NULL, NULL, NULL);
  g_assert_cmpfloat_with_epsilon (tx, x, 1e-6);
  g_assert_cmpfloat_with_epsilon (ty, y, 1e-6);
}

static void
assert_start (TerrainEditorWindow *window,
              guint                player,
              gint                 x,
              gint                 z)
{
  TerrainOtaFile *ota = terrain_editor_map_view_get_ota (map_view (window));
  gint at_x = -1, at_z = -1;

  g_assert_nonnull (ota);
  g_assert_true (terrain_ota_file_get_start_position (ota, 0, player, &at_x, &at_z));
  g_assert_cmpint (at_x, ==, x);
  g_assert_cmpint (at_z, ==, z);
}

static void
assert_resized (TerrainTntMap *map)
{
  /* 16 + 3 - 1 tiles by 12 + 1 + 2: 36 x 30 cells, the old cell (x, y)
   * now at (x + 6, y + 2). */
  g_assert_cmpuint (terrain_tnt_map_get_width (map), ==, 36);
  g_assert_cmpuint (terrain_tnt_map_get_height (map), ==, 30);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 6 + 5, 2 + 7), ==, 5 * 4 + 7 * 3);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, 6 + 29, 2 + 23), ==, 29 * 4 + 23 * 3);
  for (guint y = 0; y < 30; y++)
    for (guint x = 0; x < 6; x++)
      g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, x, y), ==, 90);
  for (guint x = 0; x < 36; x++)
    g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, x, 29), ==, 90);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 0, 0), ==, 1);
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 17, 14), ==, 1);
  /* The old tile column 0 (tile 0) is column 3 now. */
  g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, 3, 1), ==, 0);
}

static void
test_resize_undo (Fixture       *f,
                  gconstpointer  data)
{
  GSettings *settings = terrain_editor_application_get_settings (app);
  GType type = TERRAIN_EDITOR_TYPE_RESIZE_DIALOG;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) loaded = NULL;
  g_autoptr(GBytes) resized = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;
  g_autofree char *contents = NULL;
  gsize length;
  GWeakRef dialog_ref;
  TerrainEditorWindow *window;
  TerrainEditorWindow *empty;
  TerrainTntMap *map;
  GtkWindow *dialog;

  g_settings_set_string (settings, "palette-path", f->palette_path);
  file = write_map (f);
  g_assert_true (g_file_load_contents (file, NULL, &contents, &length, NULL, NULL));

  /* Nothing to resize in an empty window. */
  empty = terrain_editor_window_new (app);
  gtk_window_present (GTK_WINDOW (empty));
  iterate (100);
  gtk_widget_activate_action (GTK_WIDGET (empty), "win.resize-map", NULL);
  iterate (100);
  g_assert_null (find_transient_of_type (GTK_WINDOW (empty), type));
  close_window (empty);

  window = open_and_wait (file);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 700);
  map = TERRAIN_TNT_MAP (terrain_editor_window_get_document (window));
  loaded = document_bytes (window);
  /* Loaded unchanged, the document writes the file's bytes. */
  g_assert_cmpmem (g_bytes_get_data (loaded, NULL), g_bytes_get_size (loaded), contents, length);
  assert_view_middle (window, 16, 12);
  assert_3d_middle (window, 16, 12);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.resize-map", NULL));
  iterate (200);
  dialog = find_transient_of_type (GTK_WINDOW (window), type);
  g_assert_nonnull (dialog);
  g_weak_ref_init (&dialog_ref, dialog);
  /* The new area starts at the sea level. */
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (dialog_child (GTK_WIDGET (dialog), type,
                                                                                    "fill_height_spin"))), ==, 20);
  type_into (GTK_WIDGET (dialog), type, "left_spin", 3);
  type_into (GTK_WIDGET (dialog), type, "top_spin", 1);
  type_into (GTK_WIDGET (dialog), type, "right_spin", -1);
  type_into (GTK_WIDGET (dialog), type, "bottom_spin", 2);
  type_into (GTK_WIDGET (dialog), type, "fill_height_spin", 90);
  type_into (GTK_WIDGET (dialog), type, "fill_tile_spin", 1);
  g_assert_cmpstr (label_text (GTK_WIDGET (dialog), type, "size_label"), ==,
                   "Now 16 × 12 tiles; after resizing 18 × 15 tiles (36 × 30 cells, 576 × 480 px)");
  g_assert_true (GDK_IS_TEXTURE (gtk_picture_get_paintable (GTK_PICTURE (dialog_child (GTK_WIDGET (dialog), type,
                                                                                        "tile_picture")))));
  /* Cropping it all away is refused before it is tried. */
  type_into (GTK_WIDGET (dialog), type, "top_spin", -11);
  type_into (GTK_WIDGET (dialog), type, "bottom_spin", -11);
  g_assert_false (gtk_widget_get_sensitive (dialog_child (GTK_WIDGET (dialog), type, "resize_button")));
  type_into (GTK_WIDGET (dialog), type, "top_spin", 1);
  type_into (GTK_WIDGET (dialog), type, "bottom_spin", 2);
  press (GTK_WIDGET (dialog), type, "resize_button");
  assert_finalized (&dialog_ref);

  /* The map and what the window shows follow; the start positions move
   * with the ground (+6 cells east, +2 south: +96, +32 px), clamped to the
   * new east edge (576 px). */
  assert_resized (map);
  assert_start (window, 1, 196, 82);
  assert_start (window, 2, 576, 212);
  g_assert_cmpstr (title (window), ==, "• ramp.tnt");
  g_assert_true (terrain_command_stack_get_can_undo (terrain_editor_window_get_command_stack (window)));
  assert_view_middle (window, 18, 15);
  assert_3d_middle (window, 18, 15);
  save_screenshot (GTK_WIDGET (window), "editor-resize.png");
  resized = document_bytes (window);

  /* Undo: the loaded bytes exactly, and the view their size. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL));
  undone = document_bytes (window);
  g_assert_cmpmem (g_bytes_get_data (undone, NULL), g_bytes_get_size (undone), contents, length);
  g_assert_cmpstr (title (window), ==, "ramp.tnt");
  assert_start (window, 1, 100, 50);
  assert_start (window, 2, 500, 180);
  assert_view_middle (window, 16, 12);
  assert_3d_middle (window, 16, 12);

  /* Redo: resized again, byte for byte. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL));
  assert_resized (map);
  redone = document_bytes (window);
  g_assert_true (g_bytes_equal (redone, resized));
  assert_start (window, 1, 196, 82);
  assert_start (window, 2, 576, 212);
  assert_view_middle (window, 18, 15);
  assert_3d_middle (window, 18, 15);

  close_window (window);
}

/* Without a palette the minimap follows a resize too: ramp.tnt with a
 * minimap of index 7 over its crop (512 x 384 px, play area 480 x 256:
 * 252 x 134 used), grown by 16 tiles on the right in the dialog (1024 x
 * 384 px, play area 992 x 256: 252 x 65 used), keeps index 7 on the left
 * of the new crop, the fill tile's 200 on the right, and the fill below:
 * no old picture stretched over a shape it no longer has. */
static void
test_resize_no_palette (Fixture       *f,
                        gconstpointer  data)
{
  GType type = TERRAIN_EDITOR_TYPE_RESIZE_DIALOG;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = write_map (f);
  g_autoptr(TerrainTntMap) written = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree guint8 *pixels = g_malloc (252 * 252);
  const guint8 *minimap;
  TerrainEditorWindow *window;
  TerrainTntMap *map;
  GtkWindow *dialog;
  guint mw = 0, mh = 0, used_w = 0, used_h = 0;

  g_settings_reset (terrain_editor_application_get_settings (app), "palette-path");
  g_assert_null (terrain_editor_application_get_palette (app));
  written = TERRAIN_TNT_MAP (terrain_document_load (file, NULL, NULL, &error));
  g_assert_no_error (error);
  terrain_tnt_map_get_minimap_crop (written, 252, 252, &used_w, &used_h);
  g_assert_cmpuint (used_h, ==, 134);
  for (guint i = 0; i < 252 * 252; i++)
    pixels[i] = i / 252 < used_h ? 7 : TERRAIN_PALETTE_MINIMAP_FILL;
  g_assert_true (terrain_tnt_map_set_minimap (written, 252, 252, pixels, &error));
  bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (written), &error);
  g_assert_no_error (error);
  g_clear_object (&written);
  g_assert_true (g_file_replace_contents (file, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                          NULL, FALSE, G_FILE_CREATE_NONE, NULL, NULL, &error));
  g_assert_no_error (error);

  window = open_and_wait (file);
  map = TERRAIN_TNT_MAP (terrain_editor_window_get_document (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.resize-map", NULL));
  iterate (200);
  dialog = find_transient_of_type (GTK_WINDOW (window), type);
  g_assert_nonnull (dialog);
  type_into (GTK_WIDGET (dialog), type, "right_spin", 16);
  type_into (GTK_WIDGET (dialog), type, "fill_tile_spin", 1);
  press (GTK_WIDGET (dialog), type, "resize_button");
  iterate (100);
  g_assert_cmpuint (terrain_tnt_map_get_width (map), ==, 64);

  minimap = terrain_tnt_map_get_minimap (map, &mw, &mh);
  g_assert_cmpuint (mw, ==, 252);
  g_assert_cmpuint (mh, ==, 252);
  terrain_tnt_map_get_minimap_used_size (map, &used_w, &used_h);
  g_assert_cmpuint (used_h, ==, 65);
  for (guint y = 0; y < used_h; y++)
    {
      g_assert_cmpuint (minimap[y * 252], ==, 7);
      g_assert_cmpuint (minimap[y * 252 + 251], ==, 200);
    }
  for (guint y = used_h; y < 252; y++)
    for (guint x = 0; x < 252; x++)
      g_assert_cmpuint (minimap[y * 252 + x], ==, TERRAIN_PALETTE_MINIMAP_FILL);
  close_window (window);
}

static int
spin_value (GtkWidget  *dialog,
            GType       type,
            const char *name)
{
  return gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (dialog_child (dialog, type, name)));
}

/* The New Map and Resize Map dialogs open with what the last Create or
 * Resize used (Cancel keeps nothing), as Mappy's do: the defaults (32 x 32
 * tiles, sea level 0, height 64; sides 0, fill at the sea level 20) only
 * the first time. */
static void
test_dialogs_remember (Fixture       *f,
                       gconstpointer  data)
{
  GType type = TERRAIN_EDITOR_TYPE_NEW_MAP_DIALOG;
  GType resize_type = TERRAIN_EDITOR_TYPE_RESIZE_DIALOG;
  g_autoptr(GFile) file = write_map (f);
  TerrainEditorWindow *window;
  TerrainEditorWindow *created;
  GtkWidget *dialog;

  g_action_group_activate_action (G_ACTION_GROUP (app), "new-map", NULL);
  dialog = find_app_window (type);
  g_assert_nonnull (dialog);
  iterate (100);
  g_assert_cmpint (spin_value (dialog, type, "width_spin"), ==, 32);
  g_assert_cmpint (spin_value (dialog, type, "fill_height_spin"), ==, 64);
  type_into (dialog, type, "width_spin", 5);
  press (dialog, type, "cancel_button");
  iterate (100);

  g_action_group_activate_action (G_ACTION_GROUP (app), "new-map", NULL);
  dialog = find_app_window (type);
  g_assert_nonnull (dialog);
  iterate (100);
  g_assert_cmpint (spin_value (dialog, type, "width_spin"), ==, 32);
  type_into (dialog, type, "width_spin", 12);
  type_into (dialog, type, "height_spin", 8);
  type_into (dialog, type, "sea_level_spin", 40);
  type_into (dialog, type, "fill_height_spin", 30);
  type_into (dialog, type, "fill_colour_spin", 77);
  press (dialog, type, "create_button");
  iterate (200);
  created = find_untitled_window ();
  g_assert_nonnull (created);

  g_action_group_activate_action (G_ACTION_GROUP (app), "new-map", NULL);
  dialog = find_app_window (type);
  g_assert_nonnull (dialog);
  iterate (100);
  g_assert_cmpint (spin_value (dialog, type, "width_spin"), ==, 12);
  g_assert_cmpint (spin_value (dialog, type, "height_spin"), ==, 8);
  g_assert_cmpint (spin_value (dialog, type, "sea_level_spin"), ==, 40);
  g_assert_cmpint (spin_value (dialog, type, "fill_height_spin"), ==, 30);
  g_assert_cmpint (spin_value (dialog, type, "fill_colour_spin"), ==, 77);
  g_assert_cmpstr (label_text (dialog, type, "size_label"), ==, "12 × 8 tiles (24 × 16 cells, 384 × 256 px)");
  press (dialog, type, "cancel_button");
  iterate (100);
  close_window (created);

  window = open_and_wait (file);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.resize-map", NULL));
  iterate (200);
  dialog = GTK_WIDGET (find_transient_of_type (GTK_WINDOW (window), resize_type));
  g_assert_nonnull (dialog);
  g_assert_cmpint (spin_value (dialog, resize_type, "left_spin"), ==, 0);
  g_assert_cmpint (spin_value (dialog, resize_type, "fill_height_spin"), ==, 20);
  type_into (dialog, resize_type, "left_spin", 2);
  type_into (dialog, resize_type, "top_spin", 1);
  type_into (dialog, resize_type, "right_spin", -1);
  type_into (dialog, resize_type, "bottom_spin", 3);
  type_into (dialog, resize_type, "fill_height_spin", 90);
  press (dialog, resize_type, "resize_button");
  iterate (200);
  g_assert_cmpuint (terrain_tnt_map_get_width (TERRAIN_TNT_MAP (terrain_editor_window_get_document (window))), ==,
                    34);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.resize-map", NULL));
  iterate (200);
  dialog = GTK_WIDGET (find_transient_of_type (GTK_WINDOW (window), resize_type));
  g_assert_nonnull (dialog);
  g_assert_cmpint (spin_value (dialog, resize_type, "left_spin"), ==, 2);
  g_assert_cmpint (spin_value (dialog, resize_type, "top_spin"), ==, 1);
  g_assert_cmpint (spin_value (dialog, resize_type, "right_spin"), ==, -1);
  g_assert_cmpint (spin_value (dialog, resize_type, "bottom_spin"), ==, 3);
  g_assert_cmpint (spin_value (dialog, resize_type, "fill_height_spin"), ==, 90);
  g_assert_cmpstr (label_text (dialog, resize_type, "size_label"), ==,
                   "Now 17 × 16 tiles; after resizing 18 × 20 tiles (36 × 40 cells, 576 × 640 px)");
  press (dialog, resize_type, "cancel_button");
  iterate (100);
  close_window (window);
}

int
main (int    argc,
      char **argv)
{
  int status;

  editor_test_init (&argc, &argv);

  g_test_add ("/Terrain/Editor/map/new", Fixture, NULL, fixture_set_up, test_new_map, fixture_tear_down);
  g_test_add ("/Terrain/Editor/map/new-no-palette", Fixture, NULL, fixture_set_up, test_new_map_no_palette,
              fixture_tear_down);
  g_test_add ("/Terrain/Editor/map/resize-undo", Fixture, NULL, fixture_set_up, test_resize_undo,
              fixture_tear_down);
  g_test_add ("/Terrain/Editor/map/dialogs-remember", Fixture, NULL, fixture_set_up, test_dialogs_remember,
              fixture_tear_down);
  g_test_add ("/Terrain/Editor/map/resize-no-palette", Fixture, NULL, fixture_set_up, test_resize_no_palette,
              fixture_tear_down);
  status = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);
  return status;
}
