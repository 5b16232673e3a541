/* test-editor-features.c: features and the brush in the editor, under Xvfb
 *
 * A flat generated map and a TDF of a 2x2 rock in a feature folder: a
 * feature moved and the move undone leaves no selection frame behind
 * (the selection is the map view's, dropped when its feature goes); the
 * brush's Falloff control starts at Smooth, as the .ui says. With a
 * palette and a GAF under the feature folder's anims/, a feature is drawn
 * as its sprite where the game draws it.
 * G_DEBUG=fatal-warnings is set by the suite; TERRAIN_EDITOR_SCREENSHOT_DIR
 * keeps screenshots.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <libterrain.h>

#include "terrain-test-util.h"
#include "test-editor-util.h"
#include "terrain-editor-feature-palette.h"

TerrainEditorApplication *app;

#define MAP_W 64
#define MAP_H 48

/* The palette index of the sprite's colour, and that colour. */
#define SPRITE_INDEX 200
#define SPRITE_R 200
#define SPRITE_G 40
#define SPRITE_B 160

typedef struct
{
  char  *dir;
  char  *map_path;
  char  *palette_path;
  GFile *map_file;
} Fixture;

/* Rock1 has a sprite (anims/rocks.gaf, entry rock1); Bush1 none. */
static const char rocks_tdf[] =
  "[Rock1]\n{\n\tworld=greenworld;\n\tdescription=Big rock;\n\tcategory=rocks;\n"
  "\tfilename=Rocks;\n\tseqname=rock1;\n"
  "\tfootprintx=2;\n\tfootprintz=2;\n\tmetal=12;\n\tenergy=3;\n\treclaimable=1;\n}\n"
  "[Bush1]\n{\n\tworld=greenworld;\n\tdescription=Small bush;\n\tcategory=plants;\n"
  "\tfootprintx=1;\n\tfootprintz=1;\n}\n"
  "[Tree7]\n{\n\tworld=lush;\n\tdescription=Palm tree;\n\tcategory=trees;\n"
  "\tfootprintx=1;\n\tfootprintz=1;\n}\n"
  "[CrystalSpire]\n{\n\tworld=crystal;\n\tdescription=Blue crystal;\n\tcategory=spires;\n"
  "\tfootprintx=2;\n\tfootprintz=3;\n}\n";

/* anims/rocks.gaf: entry rock1, one 24x20 frame of SPRITE_INDEX, its
 * corners transparent (index 0), its origin at (12, 18). */
static void
write_gaf (const char *dir)
{
  g_autoptr(TerrainGafWriter) writer = terrain_gaf_writer_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *anims = g_build_filename (dir, "anims", NULL);
  g_autofree char *path = g_build_filename (anims, "ROCKS.GAF", NULL);
  guint8 pixels[24 * 20];

  memset (pixels, SPRITE_INDEX, sizeof pixels);
  pixels[0] = pixels[23] = pixels[24 * 19] = pixels[24 * 20 - 1] = 0;
  g_assert_true (terrain_gaf_writer_add_entry (writer, "rock1", &error));
  g_assert_true (terrain_gaf_writer_add_frame (writer, pixels, 24, 20, 12, 18, 0, TRUE, &error));
  bytes = terrain_gaf_writer_finish (writer, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (anims, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes),
                                      &error));
  g_assert_no_error (error);
}

/* A grey ramp (index 0 black), SPRITE_INDEX the sprite's colour. */
static void
write_palette (const char *path)
{
  g_autoptr(GError) error = NULL;
  guint8 pal[1024];

  for (guint i = 0; i < 256; i++)
    {
      pal[4 * i] = pal[4 * i + 1] = pal[4 * i + 2] = (guint8) (i / 2);
      pal[4 * i + 3] = 0;
    }
  pal[4 * SPRITE_INDEX] = SPRITE_R;
  pal[4 * SPRITE_INDEX + 1] = SPRITE_G;
  pal[4 * SPRITE_INDEX + 2] = SPRITE_B;
  g_assert_true (g_file_set_contents (path, (const char *) pal, sizeof pal, &error));
  g_assert_no_error (error);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (MAP_W, MAP_H, &error);
  g_autofree char *tdf_path = NULL;
  const char *folders[2] = { NULL, NULL };

  g_assert_no_error (error);
  f->dir = g_dir_make_tmp ("test-editor-features-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint y = 0; y < MAP_H; y++)
    for (guint x = 0; x < MAP_W; x++)
      terrain_tnt_map_set_cell_height (map, x, y, 100);
  terrain_tnt_map_set_sea_level (map, 0, NULL);
  f->map_path = g_build_filename (f->dir, "flat.tnt", NULL);
  f->map_file = g_file_new_for_path (f->map_path);
  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (map), f->map_file, NULL, &error));
  g_assert_no_error (error);

  tdf_path = g_build_filename (f->dir, "rocks.tdf", NULL);
  g_assert_true (g_file_set_contents (tdf_path, rocks_tdf, -1, &error));
  g_assert_no_error (error);
  write_gaf (f->dir);
  f->palette_path = g_build_filename (f->dir, "PALETTE.PAL", NULL);
  write_palette (f->palette_path);
  folders[0] = f->dir;
  g_settings_set_strv (terrain_editor_application_get_settings (app), "feature-folders", folders);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_settings_reset (terrain_editor_application_get_settings (app), "feature-folders");
  g_settings_reset (terrain_editor_application_get_settings (app), "palette-path");
  terrain_test_remove_tree (f->dir);
  g_clear_object (&f->map_file);
  g_free (f->map_path);
  g_free (f->palette_path);
  g_free (f->dir);
}

static TerrainEditorWindow *
open_shown (Fixture *f)
{
  return open_presented (f->map_file);
}

/* Pixels of the view as drawn now matching @match. */
static guint
count_pixels (GtkWidget *view,
              gboolean (*match) (const guint8 *p))
{
  g_autoptr(GdkTexture) texture = render_widget (view);
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guint8 *pixels = g_malloc ((gsize) width * height * 4);
  guint n = 0;

  gdk_texture_download (texture, pixels, (gsize) width * 4);
  for (gsize i = 0; i < (gsize) width * height; i++)
    if (match (pixels + i * 4))
      n++;
  return n;
}

/* The preview rectangle's white rim. */
static gboolean
is_white (const guint8 *p)
{
  return p[0] > 240 && p[1] > 240 && p[2] > 240;
}

/* The selection frame's cyan (GDK_MEMORY_DEFAULT is B8G8R8A8). */
static gboolean
is_cyan (const guint8 *p)
{
  return p[0] > 200 && p[1] > 200 && p[2] < 60;
}

static void
click (TerrainEditorMapView *view,
       double                x,
       double                y)
{
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_PRESS, x, y, 1u, (GdkModifierType) 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_RELEASE, x, y, 1u, (GdkModifierType) 0);
}

static void
drag (TerrainEditorMapView *view,
      double x0, double y0, double x1, double y1)
{
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_PRESS, x0, y0, 1u, (GdkModifierType) 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_DRAG, x1, y1, 1u, (GdkModifierType) 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_RELEASE, x1, y1, 1u, (GdkModifierType) 0);
}

/* Whether a label on screen (mapped) under @widget shows @text: a drop
 * down's closed popover is not. */
static gboolean
mapped_label_shows (GtkWidget  *widget,
                    const char *text)
{
  if (!gtk_widget_get_mapped (widget))
    return FALSE;
  if (GTK_IS_LABEL (widget) && g_str_equal (gtk_label_get_text (GTK_LABEL (widget)), text))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (mapped_label_shows (c, text))
      return TRUE;
  return FALSE;
}

static guint selection_changes;

static void
on_selection_changed (TerrainEditorMapView *view)
{
  selection_changes++;
}

/* A rock placed, moved 10 cells right and undone: back at its cell, and
 * neither the view nor Properties still shows a selection; redone, it is
 * at the new cell, again without a stale frame. Deleting the selected
 * feature and undoing leaves none either. */
static void
test_undo_move_drops_selection (Fixture       *f,
                                gconstpointer  data)
{
  TerrainEditorWindow *window = open_shown (f);
  TerrainEditorMapView *view = map_view (window);
  TerrainTntMap *map = TERRAIN_TNT_MAP (terrain_editor_window_get_document (window));
  GtkLabel *properties = GTK_LABEL (child (window, "properties_label"));
  int sx = -1, sy = -1;
  guint16 rock;

  g_signal_connect (view, "selection-changed", G_CALLBACK (on_selection_changed), NULL);
  terrain_editor_map_view_zoom_to_fit (view);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "features");
  gtk_editable_set_text (GTK_EDITABLE (child (window, "feature_entry")), "Rock1");
  click (view, 10.5, 10.5);
  g_assert_true (terrain_editor_map_view_get_selection (view, &sx, &sy));
  g_assert_cmpint (sx, ==, 10);
  g_assert_cmpint (sy, ==, 10);
  gtk_editable_set_text (GTK_EDITABLE (child (window, "feature_entry")), "");

  drag (view, 11.5, 11.5, 21.5, 11.5);
  g_assert_true (terrain_editor_map_view_get_selection (view, &sx, &sy));
  g_assert_cmpint (sx, ==, 20);
  iterate (50);
  g_assert_cmpuint (count_pixels (GTK_WIDGET (view), is_cyan), >, 20);
  g_assert_nonnull (strstr (gtk_label_get_text (properties), "Selected: “Rock1” at cell 20, 10"));

  selection_changes = 0;
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  rock = terrain_tnt_map_get_cell_feature (map, 10, 10);
  g_assert_cmpstr (terrain_tnt_map_get_feature_name (map, rock), ==, "Rock1");
  g_assert_false (terrain_editor_map_view_get_selection (view, NULL, NULL));
  g_assert_cmpuint (selection_changes, >=, 1);
  g_assert_null (strstr (gtk_label_get_text (properties), "Selected:"));
  iterate (50);
  save_screenshot (GTK_WIDGET (view), "editor-undo-move.png");
  g_assert_cmpuint (count_pixels (GTK_WIDGET (view), is_cyan), ==, 0);
  /* Nor the move's preview rectangle. */
  g_assert_cmpuint (count_pixels (GTK_WIDGET (view), is_white), ==, 0);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL);
  rock = terrain_tnt_map_get_cell_feature (map, 20, 10);
  g_assert_cmpstr (terrain_tnt_map_get_feature_name (map, rock), ==, "Rock1");
  iterate (50);
  g_assert_cmpuint (count_pixels (GTK_WIDGET (view), is_cyan), ==, 0);

  /* Select, Delete, undo: the feature is back, the frame is not stale. */
  click (view, 20.5, 10.5);
  g_assert_true (terrain_editor_map_view_get_selection (view, &sx, &sy));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.delete-feature", NULL);
  g_assert_false (terrain_editor_map_view_get_selection (view, NULL, NULL));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  g_assert_false (terrain_editor_map_view_get_selection (view, NULL, NULL));
  /* Undoing the placement takes the feature away: nothing to select. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 10, 10), >=, terrain_tnt_map_get_n_features (map));
  g_signal_handlers_disconnect_by_func (view, on_selection_changed, NULL);
  close_window (window);
}

/* The Falloff control shows Smooth, as terrain-editor-window.ui sets it,
 * and the brush it makes uses a smooth falloff: a dab raises its centre
 * more than a cell near its rim. */
static void
test_brush_falloff_default (Fixture       *f,
                            gconstpointer  data)
{
  TerrainEditorWindow *window = open_shown (f);
  GtkDropDown *falloff = GTK_DROP_DOWN (child (window, "brush_falloff"));
  GtkStringObject *item;

  g_assert_cmpuint (gtk_drop_down_get_selected (falloff), ==, TERRAIN_TNT_FALLOFF_SMOOTH);
  item = GTK_STRING_OBJECT (gtk_drop_down_get_selected_item (falloff));
  g_assert_cmpstr (gtk_string_object_get_string (item), ==, "Smooth");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "brush");
  gtk_notebook_set_current_page (GTK_NOTEBOOK (child (window, "side_notebook")), 0);
  iterate (100);
  g_assert_true (mapped_label_shows (GTK_WIDGET (falloff), "Smooth"));
  g_assert_false (mapped_label_shows (GTK_WIDGET (falloff), "Constant"));

  /* The strength's unit follows the mode. */
  {
    GtkWidget *unit = find_named (GTK_WIDGET (window), "strength-unit");
    GtkDropDown *mode = GTK_DROP_DOWN (child (window, "brush_mode"));
    GtkWidget *spin = gtk_grid_get_child_at (GTK_GRID (gtk_widget_get_parent (GTK_WIDGET (mode))), 1, 2);

    g_assert_nonnull (unit);
    g_assert_true (gtk_widget_get_mapped (unit));
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (unit)), ==, "height units a dab");
    g_assert_true (mapped_label_shows (find_named (GTK_WIDGET (window), "radius-unit"), "cells"));
    g_assert_true (gtk_widget_get_sensitive (spin));
    iterate (50);
    save_screenshot (child (window, "side_notebook"), "editor-brush-panel.png");
    gtk_drop_down_set_selected (mode, TERRAIN_TNT_BRUSH_SMOOTH);
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (unit)), ==, "blend, 0–1");
    gtk_drop_down_set_selected (mode, TERRAIN_TNT_BRUSH_SET);
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (unit)), ==, "not used");
    g_assert_false (gtk_widget_get_sensitive (spin));
    gtk_drop_down_set_selected (mode, TERRAIN_TNT_BRUSH_RAISE);
    g_assert_true (gtk_widget_get_sensitive (spin));
  }
  close_window (window);
}

static gboolean
is_sprite (const guint8 *p)
{
  /* B8G8R8A8 */
  return ABS (p[2] - SPRITE_R) < 12 && ABS (p[1] - SPRITE_G) < 12 && ABS (p[0] - SPRITE_B) < 12;
}

static gboolean
is_green (const guint8 *p)
{
  return p[1] > p[0] + 40 && p[1] > p[2] + 40;
}

/* With the palette and the feature folder's anims/rocks.gaf, Rock1 is
 * drawn as its sprite where the game draws it (its origin on the centre
 * of its footprint lifted by half the ground height) and not as a
 * footprint; Bush1, which names no GAF, keeps its green footprint.
 * Properties names the sprite's GAF and entry. Without a palette (no
 * sprites can be drawn) Rock1 is a footprint again. */
static void
test_sprites (Fixture       *f,
              gconstpointer  data)
{
  GSettings *settings = terrain_editor_application_get_settings (app);
  TerrainEditorWindow *window;
  TerrainEditorMapView *view;
  TerrainTntMap *map;
  double wx = 0, wy = 0, cx, cy;
  guint n;
  const char *text;

  g_settings_set_string (settings, "palette-path", f->palette_path);
  window = open_shown (f);
  view = map_view (window);
  map = TERRAIN_TNT_MAP (terrain_editor_window_get_document (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "features");
  gtk_editable_set_text (GTK_EDITABLE (child (window, "feature_entry")), "Rock1");
  click (view, 10.5, 10.5);
  gtk_editable_set_text (GTK_EDITABLE (child (window, "feature_entry")), "Bush1");
  click (view, 20.5, 10.5);
  gtk_editable_set_text (GTK_EDITABLE (child (window, "feature_entry")), "");
  terrain_editor_map_view_set_selection (view, FALSE, 0, 0);
  g_assert_cmpstr (terrain_tnt_map_get_feature_name (map, terrain_tnt_map_get_cell_feature (map, 20, 10)), ==,
                   "Bush1");
  g_assert_true (terrain_editor_map_view_has_sprite (view, "rock1"));
  g_assert_false (terrain_editor_map_view_has_sprite (view, "Bush1"));

  /* 16 screen pixels a cell: the 24x20 sprite is 24x20 pixels. */
  terrain_editor_map_view_set_zoom (view, 1.0);
  terrain_editor_map_view_center_on (view, 16, 10);
  iterate (100);
  n = find_pixels (GTK_WIDGET (view), is_sprite, &wx, &wy);
  g_test_message ("sprite: %u pixels about %.1f, %.1f", n, wx, wy);
  g_assert_cmpuint (n, >=, 24 * 20 - 4 - 40);
  g_assert_cmpuint (n, <=, 24 * 20);
  /* Anchor (10 * 16 + 16, 10 * 16 + 16 - 100 / 2) = (176, 126) map pixels;
   * the frame's centre is (176, 126 - 18 + 10) = (176, 118): cell (11, 7.375). */
  terrain_editor_map_view_cell_at (view, wx, wy, &cx, &cy);
  g_assert_cmpfloat_with_epsilon (cx, 11.0, 0.1);
  g_assert_cmpfloat_with_epsilon (cy, 7.375, 0.1);
  /* Only Bush1's footprint (one cell, 16x16 pixels) is green. */
  n = find_pixels (GTK_WIDGET (view), is_green, &wx, &wy);
  g_assert_cmpuint (n, >, 100);
  g_assert_cmpuint (n, <=, 18 * 18);
  terrain_editor_map_view_cell_at (view, wx, wy, &cx, &cy);
  g_assert_cmpfloat_with_epsilon (cx, 20.5, 0.2);
  g_assert_cmpfloat_with_epsilon (cy, 10.5, 0.2);

  /* Selected, Properties names the sprite. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "inspect");
  click (view, 11.5, 11.5);
  text = gtk_label_get_text (GTK_LABEL (child (window, "properties_label")));
  g_assert_nonnull (strstr (text, "Sprite: anims/rocks.gaf, entry “rock1”"));

  /* Without a palette no sprite: Rock1's 2x2 footprint is green again. */
  g_settings_reset (settings, "palette-path");
  iterate (200);
  g_assert_false (terrain_editor_map_view_has_sprite (view, "Rock1"));
  terrain_editor_map_view_zoom_to_fit (view);
  iterate (100);
  g_assert_cmpuint (find_pixels (GTK_WIDGET (view), is_sprite, &wx, &wy), ==, 0);
  close_window (window);
}

static guint n_shown (TerrainEditorFeaturePalette *palette);
static void  hover   (TerrainEditorMapView *view,
                      double                x,
                      double                y);

/* The palette index nearest to a colour. */
static guint8
nearest (TerrainPalette *palette,
         int             r,
         int             g,
         int             b)
{
  guint best = 0, best_d = G_MAXUINT;

  /* 0-9 and 246-255 are the game's reserved and team colours. */
  for (guint i = 10; i < 246; i++)
    {
      guint8 pr, pg, pb;
      guint d;

      terrain_palette_get_color (palette, (guint8) i, &pr, &pg, &pb);
      d = (pr - r) * (pr - r) + (pg - g) * (pg - g) + (pb - b) * (pb - b);
      if (d < best_d)
        {
          best = i;
          best_d = d;
        }
    }
  return (guint8) best;
}

/* A shaded blob: an ellipse centred at (@cx, @cy) of radii @rx, @ry in
 * @rgb, lighter at its top left, darker at its bottom right. */
static void
paint_blob (guint8         *pixels,
            guint           width,
            guint           height,
            TerrainPalette *palette,
            double          cx,
            double          cy,
            double          rx,
            double          ry,
            const int       rgb[3])
{
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        double dx = (x + 0.5 - cx) / rx, dy = (y + 0.5 - cy) / ry;
        double light;

        if (dx * dx + dy * dy > 1.0)
          continue;
        light = 1.15 - 0.35 * (dx + dy) - 0.25 * (dx * dx + dy * dy);
        pixels[y * width + x] = nearest (palette, (int) CLAMP (rgb[0] * light, 0, 255),
                                         (int) CLAMP (rgb[1] * light, 0, 255),
                                         (int) CLAMP (rgb[2] * light, 0, 255));
      }
}

/* anims/testfeatures.gaf in @dir: made-up sprites in the TA palette (no
 * game GAF may be copied into the tests): a tree, a bush, a metal rock, a
 * rock spire and a vent. */
static void
write_ban_features (const char     *dir,
                    TerrainPalette *palette)
{
  static const char tdf[] =
    "[Tree3]\n{\n\tworld=greenworld;\n\tcategory=trees;\n\tfilename=testfeatures;\n\tseqname=tree;\n"
    "\tfootprintx=1;\n\tfootprintz=1;\n\tenergy=250;\n}\n"
    "[Lush03]\n{\n\tworld=lush;\n\tcategory=plants;\n\tfilename=testfeatures;\n\tseqname=bush;\n"
    "\tfootprintx=1;\n\tfootprintz=1;\n}\n"
    "[Lush04]\n{\n\tworld=lush;\n\tcategory=plants;\n\tfilename=testfeatures;\n\tseqname=bush;\n"
    "\tfootprintx=1;\n\tfootprintz=1;\n}\n"
    "[Lush05]\n{\n\tworld=lush;\n\tcategory=trees;\n\tfilename=testfeatures;\n\tseqname=tree;\n"
    "\tfootprintx=1;\n\tfootprintz=1;\n}\n"
    "[RockMetal1]\n{\n\tworld=greenworld;\n\tcategory=rocks;\n\tfilename=testfeatures;\n\tseqname=metal;\n"
    "\tfootprintx=2;\n\tfootprintz=2;\n\tmetal=20;\n}\n"
    "[RockMetal2]\n{\n\tworld=greenworld;\n\tcategory=rocks;\n\tfilename=testfeatures;\n\tseqname=metal;\n"
    "\tfootprintx=2;\n\tfootprintz=2;\n\tmetal=20;\n}\n"
    "[RockMetal3]\n{\n\tworld=greenworld;\n\tcategory=rocks;\n\tfilename=testfeatures;\n\tseqname=metal;\n"
    "\tfootprintx=2;\n\tfootprintz=2;\n\tmetal=20;\n}\n"
    "[Rock Spire 1]\n{\n\tworld=rocky;\n\tcategory=spires;\n\tfilename=testfeatures;\n\tseqname=spire;\n"
    "\tfootprintx=2;\n\tfootprintz=2;\n}\n"
    "[Rock Spire 2]\n{\n\tworld=rocky;\n\tcategory=spires;\n\tfilename=testfeatures;\n\tseqname=spire;\n"
    "\tfootprintx=2;\n\tfootprintz=2;\n}\n"
    "[Rock Spire 3]\n{\n\tworld=rocky;\n\tcategory=spires;\n\tfilename=testfeatures;\n\tseqname=spire;\n"
    "\tfootprintx=2;\n\tfootprintz=2;\n}\n"
    "[EGSpire8]\n{\n\tworld=rocky;\n\tcategory=spires;\n\tfilename=testfeatures;\n\tseqname=spire;\n"
    "\tfootprintx=2;\n\tfootprintz=2;\n}\n"
    "[PGVent02]\n{\n\tworld=greenworld;\n\tcategory=vents;\n\tfilename=testfeatures;\n\tseqname=vent;\n"
    "\tfootprintx=2;\n\tfootprintz=2;\n\tgeothermal=1;\n}\n";
  static const int leaf[3] = { 40, 120, 30 }, bush[3] = { 70, 140, 40 }, trunk[3] = { 90, 60, 30 };
  static const int stone[3] = { 130, 125, 115 }, spire[3] = { 150, 120, 90 }, vent[3] = { 60, 50, 45 };
  static const int glow[3] = { 240, 140, 40 }, ore[3] = { 230, 230, 240 };
  g_autoptr(TerrainGafWriter) writer = terrain_gaf_writer_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *anims = g_build_filename (dir, "anims", NULL);
  g_autofree char *gaf_path = g_build_filename (anims, "testfeatures.gaf", NULL);
  g_autofree char *tdf_path = g_build_filename (dir, "testfeatures.tdf", NULL);
  guint8 pixels[48 * 48];

  /* tree: a trunk under a round crown, 28x36, origin at the trunk's foot */
  memset (pixels, 0, sizeof pixels);
  for (guint y = 22; y < 36; y++)
    for (guint x = 12; x < 16; x++)
      pixels[y * 28 + x] = nearest (palette, trunk[0], trunk[1], trunk[2]);
  paint_blob (pixels, 28, 36, palette, 14, 13, 13, 12, leaf);
  g_assert_true (terrain_gaf_writer_add_entry (writer, "tree", &error));
  g_assert_true (terrain_gaf_writer_add_frame (writer, pixels, 28, 36, 14, 34, 0, TRUE, &error));
  /* bush: 18x14 */
  memset (pixels, 0, sizeof pixels);
  paint_blob (pixels, 18, 14, palette, 9, 7, 9, 7, bush);
  g_assert_true (terrain_gaf_writer_add_entry (writer, "bush", &error));
  g_assert_true (terrain_gaf_writer_add_frame (writer, pixels, 18, 14, 9, 10, 0, TRUE, &error));
  /* metal: a grey rock with white ore, 32x24 */
  memset (pixels, 0, sizeof pixels);
  paint_blob (pixels, 32, 24, palette, 16, 12, 16, 11, stone);
  for (guint i = 0; i < 9; i++)
    pixels[(6 + (i * 5) % 12) * 32 + 7 + (i * 7) % 18] = nearest (palette, ore[0], ore[1], ore[2]);
  g_assert_true (terrain_gaf_writer_add_entry (writer, "metal", &error));
  g_assert_true (terrain_gaf_writer_add_frame (writer, pixels, 32, 24, 16, 16, 0, TRUE, &error));
  /* spire: a tall narrowing rock, 24x48 */
  memset (pixels, 0, sizeof pixels);
  for (guint y = 0; y < 48; y++)
    {
      double half = 2 + 10.0 * y / 47;

      for (guint x = 0; x < 24; x++)
        if (ABS (x + 0.5 - 12) <= half)
          {
            double light = 1.2 - 0.5 * (x + 0.5 - 12 + half) / (2 * half);

            pixels[y * 24 + x] = nearest (palette, (int) (spire[0] * light), (int) (spire[1] * light),
                                          (int) (spire[2] * light));
          }
    }
  g_assert_true (terrain_gaf_writer_add_entry (writer, "spire", &error));
  g_assert_true (terrain_gaf_writer_add_frame (writer, pixels, 24, 48, 12, 42, 0, TRUE, &error));
  /* vent: a dark crater with a glowing core, 28x18 */
  memset (pixels, 0, sizeof pixels);
  paint_blob (pixels, 28, 18, palette, 14, 9, 14, 9, vent);
  paint_blob (pixels, 28, 18, palette, 14, 9, 6, 4, glow);
  g_assert_true (terrain_gaf_writer_add_entry (writer, "vent", &error));
  g_assert_true (terrain_gaf_writer_add_frame (writer, pixels, 28, 18, 14, 9, 0, TRUE, &error));
  bytes = terrain_gaf_writer_finish (writer, &error);
  g_assert_no_error (error);

  g_assert_cmpint (g_mkdir_with_parents (anims, 0755), ==, 0);
  g_assert_true (g_file_set_contents (gaf_path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes),
                                      &error));
  g_assert_true (g_file_set_contents (tdf_path, tdf, -1, &error));
  g_assert_no_error (error);
}

/* ban.tnt (corpus) with the TA palette and made-up sprites for its twelve
 * features: every placed feature is drawn as its sprite, none as a
 * footprint; the screenshot is docs/screenshots/editor-feature-sprites.png. */
static void
test_sprites_ban (void)
{
  g_autofree char *map_path = terrain_test_corpus_path ("ta/maps/ban.tnt");
  g_autofree char *palette_path = terrain_test_corpus_path ("ta/PALETTE.PAL");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-editor-features-ban-XXXXXX", &error);
  g_autoptr(GFile) palette_file = NULL;
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(GFile) map_file = NULL;
  GSettings *settings = terrain_editor_application_get_settings (app);
  const char *folders[2] = { dir, NULL };
  TerrainEditorWindow *window;
  TerrainEditorMapView *view;
  TerrainTntMap *map;
  g_autoptr(GArray) placements = NULL;
  double sx = 0, sy = 0;
  gint64 deadline;

  g_assert_no_error (error);
  if (map_path == NULL || palette_path == NULL)
    {
      g_test_skip ("ban.tnt or PALETTE.PAL is not in the corpus");
      return;
    }
  palette_file = g_file_new_for_path (palette_path);
  palette = terrain_palette_new_from_file (palette_file, NULL, &error);
  g_assert_no_error (error);
  write_ban_features (dir, palette);
  g_settings_set_strv (settings, "feature-folders", folders);
  g_settings_set_string (settings, "palette-path", palette_path);

  map_file = g_file_new_for_path (map_path);
  window = open_and_wait (map_file);
  view = map_view (window);
  g_object_set (window, "show-grid", FALSE, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 760);
  gtk_window_present (GTK_WINDOW (window));
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (terrain_editor_map_view_get_picture (view) != TERRAIN_EDITOR_MAP_PICTURE_FULL
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (terrain_editor_map_view_get_picture (view), ==, TERRAIN_EDITOR_MAP_PICTURE_FULL);

  map = TERRAIN_TNT_MAP (terrain_editor_window_get_document (window));
  placements = terrain_tnt_map_list_placements (map);
  g_test_message ("%u placed features", placements->len);
  g_assert_cmpuint (placements->len, >, 0);
  for (guint i = 0; i < terrain_tnt_map_get_n_features (map); i++)
    g_assert_true (terrain_editor_map_view_has_sprite (view, terrain_tnt_map_get_feature_name (map, i)));

  /* Where the features are densest: the 40x30-cell block holding most. */
  {
    guint best = 0;

    for (guint by = 0; by + 30 <= terrain_tnt_map_get_height (map); by += 10)
      for (guint bx = 0; bx + 40 <= terrain_tnt_map_get_width (map); bx += 10)
        {
          guint n = 0;

          for (guint i = 0; i < placements->len; i++)
            {
              const TerrainTntPlacement *p = &g_array_index (placements, TerrainTntPlacement, i);

              n += p->x >= bx && p->x < bx + 40 && p->y >= by && p->y < by + 30;
            }
          if (n > best)
            {
              best = n;
              sx = bx + 20;
              sy = by + 15;
            }
        }
    g_test_message ("%u features about cell %.0f, %.0f", best, sx, sy);
  }
  terrain_editor_map_view_set_zoom (view, 0.75);
  terrain_editor_map_view_center_on (view, sx, sy);
  iterate (300);
  /* The placed feature nearest the centre, selected, in Properties. */
  {
    const TerrainTntPlacement *nearest_p = NULL;
    double best = G_MAXDOUBLE;
    const char *text;

    for (guint i = 0; i < placements->len; i++)
      {
        const TerrainTntPlacement *p = &g_array_index (placements, TerrainTntPlacement, i);
        double d = (p->x - sx) * (p->x - sx) + (p->y - sy) * (p->y - sy);

        if (d < best)
          {
            best = d;
            nearest_p = p;
          }
      }
    click (view, nearest_p->x + 0.5, nearest_p->y + 0.5);
    g_assert_true (terrain_editor_map_view_get_selection (view, NULL, NULL));
    text = gtk_label_get_text (GTK_LABEL (child (window, "properties_label")));
    g_assert_nonnull (strstr (text, "Sprite: anims/testfeatures.gaf"));
    gtk_notebook_set_current_page (GTK_NOTEBOOK (child (window, "side_notebook")), 4);
    iterate (200);
    save_screenshot (GTK_WIDGET (window), "editor-feature-sprites.png");

    /* The palette searched for metal rocks, one chosen and shown under
     * the pointer where it would overlap the vent by a cell (red). */
    {
      TerrainEditorFeaturePalette *chooser;
      guint blocked = 0;

      terrain_editor_map_view_set_selection (view, FALSE, 0, 0);
      gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "features");
      chooser = TERRAIN_EDITOR_FEATURE_PALETTE (find_named (GTK_WIDGET (window), "feature-palette"));
      terrain_editor_feature_palette_set_search (chooser, "metal");
      g_assert_cmpuint (n_shown (chooser), ==, 3);
      g_assert_true (terrain_editor_feature_palette_select (chooser, "RockMetal2"));
      terrain_editor_map_view_set_zoom (view, 2.0);
      terrain_editor_map_view_center_on (view, nearest_p->x + 1, nearest_p->y);
      hover (view, nearest_p->x + 1.5, nearest_p->y - 0.5);
      g_assert_cmpstr (terrain_editor_map_view_get_placement (view, NULL, NULL, &blocked), ==, "RockMetal2");
      g_assert_cmpuint (blocked, ==, 1);
      iterate (200);
      save_screenshot (GTK_WIDGET (window), "editor-feature-palette.png");
      hover (view, nearest_p->x + 6.5, nearest_p->y - 4.5);
    }
  }
  /* The sprites change the picture: it differs from the one without
   * features in many pixels. */
  {
    g_autoptr(GdkTexture) with = render_widget (GTK_WIDGET (view));
    g_autoptr(GdkTexture) without = NULL;
    int width = gdk_texture_get_width (with), height = gdk_texture_get_height (with);
    g_autofree guint8 *a = g_malloc ((gsize) width * height * 4);
    g_autofree guint8 *b = g_malloc ((gsize) width * height * 4);
    guint differ = 0;

    g_object_set (window, "show-features", FALSE, NULL);
    iterate (100);
    without = render_widget (GTK_WIDGET (view));
    g_assert_cmpint (gdk_texture_get_width (without), ==, width);
    gdk_texture_download (with, a, (gsize) width * 4);
    gdk_texture_download (without, b, (gsize) width * 4);
    for (gsize i = 0; i < (gsize) width * height; i++)
      if (memcmp (a + 4 * i, b + 4 * i, 3) != 0)
        differ++;
    g_test_message ("%u pixels differ with the sprites", differ);
    g_assert_cmpuint (differ, >, 2000);
    g_object_set (window, "show-features", TRUE, NULL);
  }

  close_window (window);
  g_settings_reset (settings, "feature-folders");
  g_settings_reset (settings, "palette-path");
  terrain_test_remove_tree (dir);
}

static gboolean
is_red (const guint8 *p)
{
  /* B8G8R8A8 */
  return p[2] > 150 && p[1] < 60 && p[0] < 60;
}

static gboolean
is_blue (const guint8 *p)
{
  return p[0] > p[2] + 60 && p[0] > 90;
}

static guint
n_shown (TerrainEditorFeaturePalette *palette)
{
  return g_list_model_get_n_items (terrain_editor_feature_palette_get_shown (palette));
}

static const char *
shown_name (TerrainEditorFeaturePalette *palette,
            guint                        i)
{
  g_autoptr(GtkStringObject) item = g_list_model_get_item (terrain_editor_feature_palette_get_shown (palette), i);

  return g_intern_string (gtk_string_object_get_string (item));
}

static void
hover (TerrainEditorMapView *view,
       double                x,
       double                y)
{
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_HOVER, x, y, 0u, (GdkModifierType) 0);
}

/* The Features tool's palette lists the catalogue's four definitions,
 * sorted; the search keeps those whose name, category, world or
 * description hold every word, the world drop-down one world; choosing a
 * row is the feature the tool places. Before a click the footprint shows
 * under the pointer with its blocked cells (another footprint, a void, the
 * map's edge) counted and drawn red, the free ones blue. */
static void
test_palette_and_preview (Fixture       *f,
                          gconstpointer  data)
{
  TerrainEditorWindow *window;
  TerrainEditorMapView *view;
  TerrainTntMap *map;
  TerrainEditorFeaturePalette *palette;
  GtkEditable *entry;
  guint blocked = 99;
  int px, py;

  /* With the palette: 16 map pixels a cell, sprites for Rock1. */
  g_settings_set_string (terrain_editor_application_get_settings (app), "palette-path", f->palette_path);
  window = open_shown (f);
  view = map_view (window);
  map = TERRAIN_TNT_MAP (terrain_editor_window_get_document (window));
  entry = GTK_EDITABLE (child (window, "feature_entry"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "features");
  palette = TERRAIN_EDITOR_FEATURE_PALETTE (find_named (GTK_WIDGET (window), "feature-palette"));
  g_assert_nonnull (palette);
  g_assert_cmpuint (n_shown (palette), ==, 4);
  g_assert_cmpstr (shown_name (palette, 0), ==, "Bush1");
  g_assert_cmpstr (shown_name (palette, 3), ==, "Tree7");

  terrain_editor_feature_palette_set_search (palette, "ROCK");
  g_assert_cmpuint (n_shown (palette), ==, 1);
  g_assert_cmpstr (shown_name (palette, 0), ==, "Rock1");
  terrain_editor_feature_palette_set_search (palette, "plants");
  g_assert_cmpuint (n_shown (palette), ==, 1);
  g_assert_cmpstr (shown_name (palette, 0), ==, "Bush1");
  terrain_editor_feature_palette_set_search (palette, "green");
  g_assert_cmpuint (n_shown (palette), ==, 2);
  terrain_editor_feature_palette_set_search (palette, "palm lush");
  g_assert_cmpuint (n_shown (palette), ==, 1);
  g_assert_cmpstr (shown_name (palette, 0), ==, "Tree7");
  terrain_editor_feature_palette_set_search (palette, "palm crystal");
  g_assert_cmpuint (n_shown (palette), ==, 0);
  terrain_editor_feature_palette_set_search (palette, "");
  terrain_editor_feature_palette_set_world (palette, "Crystal");
  g_assert_cmpuint (n_shown (palette), ==, 1);
  g_assert_cmpstr (shown_name (palette, 0), ==, "CrystalSpire");
  terrain_editor_feature_palette_set_world (palette, NULL);
  g_assert_cmpuint (n_shown (palette), ==, 4);

  /* Choosing Rock1 in the palette places Rock1. */
  g_assert_true (terrain_editor_feature_palette_select (palette, "rock1"));
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "Rock1");
  click (view, 10.5, 10.5);
  g_assert_cmpstr (terrain_tnt_map_get_feature_name (map, terrain_tnt_map_get_cell_feature (map, 10, 10)), ==,
                   "Rock1");
  terrain_editor_map_view_set_selection (view, FALSE, 0, 0);

  /* Voids at (40, 20). */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "void");
  click (view, 40.5, 20.5);
  g_assert_cmpuint (terrain_tnt_map_get_cell_feature (map, 40, 20), ==, TERRAIN_TNT_FEATURE_VOID);

  /* The 2x3 spire under the pointer. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "features");
  g_assert_true (terrain_editor_feature_palette_select (palette, "CrystalSpire"));
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "CrystalSpire");
  hover (view, 30.5, 30.5);
  g_assert_cmpstr (terrain_editor_map_view_get_placement (view, &px, &py, &blocked), ==, "CrystalSpire");
  g_assert_cmpint (px, ==, 30);
  g_assert_cmpint (py, ==, 30);
  g_assert_cmpuint (blocked, ==, 0);
  /* Over Rock1's corner cell (11, 11): one cell blocked. */
  hover (view, 11.5, 11.5);
  g_assert_null (terrain_editor_map_view_get_placement (view, NULL, NULL, NULL));  /* over a feature: it selects */
  hover (view, 12.5, 11.5);
  g_assert_cmpstr (terrain_editor_map_view_get_placement (view, &px, &py, &blocked), ==, "CrystalSpire");
  g_assert_cmpuint (blocked, ==, 0);
  hover (view, 11.5, 9.5);
  terrain_editor_map_view_get_placement (view, &px, &py, &blocked);
  g_assert_cmpint (px, ==, 11);
  g_assert_cmpint (py, ==, 9);
  g_assert_cmpuint (blocked, ==, 2);  /* (11, 10) and (11, 11) */
  /* Over the void. */
  hover (view, 39.5, 19.5);
  terrain_editor_map_view_get_placement (view, NULL, NULL, &blocked);
  g_assert_cmpuint (blocked, ==, 1);
  /* Over the edge: of 2x3 at (63, 46), cells x 64 and y 48 are off the map. */
  hover (view, 63.5, 46.5);
  terrain_editor_map_view_get_placement (view, NULL, NULL, &blocked);
  g_assert_cmpuint (blocked, ==, 4);

  /* Drawn: red over the blocked cells, blue over the free ones. */
  hover (view, 11.5, 9.5);
  terrain_editor_map_view_set_zoom (view, 1.0);
  terrain_editor_map_view_center_on (view, 12, 11);
  iterate (100);
  {
    double wx = 0, wy = 0, cx, cy;

    g_assert_cmpuint (find_pixels (GTK_WIDGET (view), is_red, &wx, &wy), >, 200);
    terrain_editor_map_view_cell_at (view, wx, wy, &cx, &cy);
    g_assert_cmpfloat_with_epsilon (cx, 11.5, 0.3);
    g_assert_cmpfloat_with_epsilon (cy, 11.0, 0.3);
    g_assert_cmpuint (find_pixels (GTK_WIDGET (view), is_blue, &wx, &wy), >, 400);
    terrain_editor_map_view_cell_at (view, wx, wy, &cx, &cy);
    g_assert_cmpfloat_with_epsilon (cx, 12.1, 0.5);
    g_assert_cmpfloat_with_epsilon (cy, 10.5, 0.5);
  }
  save_screenshot (GTK_WIDGET (window), "editor-placement-preview.png");

  /* Dragging Rock1 shows where it would land, its own cells free. */
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_PRESS, 10.5, 10.5, 1u, (GdkModifierType) 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_DRAG, 11.5, 10.5, 1u, (GdkModifierType) 0);
  g_assert_cmpstr (terrain_editor_map_view_get_placement (view, &px, &py, &blocked), ==, "Rock1");
  g_assert_cmpint (px, ==, 11);
  g_assert_cmpuint (blocked, ==, 0);
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_RELEASE, 11.5, 10.5, 1u, (GdkModifierType) 0);
  g_assert_null (terrain_editor_map_view_get_placement (view, NULL, NULL, NULL));
  g_assert_cmpstr (terrain_tnt_map_get_feature_name (map, terrain_tnt_map_get_cell_feature (map, 11, 10)), ==,
                   "Rock1");

  /* Leaving the view drops the preview. */
  hover (view, 30.5, 30.5);
  g_assert_nonnull (terrain_editor_map_view_get_placement (view, NULL, NULL, NULL));
  g_signal_emit_by_name (view, "cell-event", TERRAIN_EDITOR_MAP_LEAVE, -1.0, -1.0, 0u, (GdkModifierType) 0);
  g_assert_null (terrain_editor_map_view_get_placement (view, NULL, NULL, NULL));
  close_window (window);
}

/* Pixels that differ between two pictures of the same size. */
static guint
count_differing (GdkTexture *a,
                 GdkTexture *b)
{
  int width = gdk_texture_get_width (a), height = gdk_texture_get_height (a);
  g_autofree guint8 *pa = g_malloc ((gsize) width * height * 4);
  g_autofree guint8 *pb = g_malloc ((gsize) width * height * 4);
  guint n = 0;

  g_assert_cmpint (gdk_texture_get_width (b), ==, width);
  g_assert_cmpint (gdk_texture_get_height (b), ==, height);
  gdk_texture_download (a, pa, (gsize) width * 4);
  gdk_texture_download (b, pb, (gsize) width * 4);
  for (gsize i = 0; i < (gsize) width * height; i++)
    if (memcmp (pa + 4 * i, pb + 4 * i, 3) != 0)
      n++;
  return n;
}

/* The contours' pixels: the picture with them against the one without. */
static guint
contour_pixels (TerrainEditorWindow *window)
{
  GtkWidget *view = GTK_WIDGET (map_view (window));
  g_autoptr(GdkTexture) with = NULL;
  g_autoptr(GdkTexture) without = NULL;

  g_object_set (window, "show-contours", TRUE, NULL);
  iterate (100);
  with = render_widget (view);
  g_object_set (window, "show-contours", FALSE, NULL);
  iterate (100);
  without = render_widget (view);
  return count_differing (with, without);
}

/* Heights rising 4 a cell west to east: 15 contours 4 cells apart at 16
 * height units. Zoomed in they are lines; zoomed out below 2 pixels a
 * cell the interval doubles and they are still drawn. */
static void
test_contours_zoomed_out (Fixture       *f,
                          gconstpointer  data)
{
  TerrainEditorWindow *window = open_shown (f);
  TerrainEditorMapView *view = map_view (window);
  TerrainTntMap *map = TERRAIN_TNT_MAP (terrain_editor_window_get_document (window));
  guint near, far;
  double zoom;

  for (guint y = 0; y < MAP_H; y++)
    for (guint x = 0; x < MAP_W; x++)
      terrain_tnt_map_set_cell_height (map, x, y, (guint8) (x * 4));
  terrain_editor_map_view_zoom_to_fit (view);
  iterate (100);
  g_assert_cmpuint (terrain_editor_map_view_get_contour_interval (view), ==, 16);
  near = contour_pixels (window);
  g_test_message ("at Fit: %u contour pixels", near);
  g_assert_cmpuint (near, >, 15 * 100);

  /* An eighth of that: about 1 pixel a cell. */
  zoom = terrain_editor_map_view_get_zoom (view);
  terrain_editor_map_view_set_zoom (view, zoom / 8);
  iterate (100);
  g_assert_cmpuint (terrain_editor_map_view_get_contour_interval (view), >=, 32);
  far = contour_pixels (window);
  g_test_message ("zoomed out: interval %u, %u contour pixels", terrain_editor_map_view_get_contour_interval (view),
                  far);
  g_assert_cmpuint (far, >, 3 * 20);
  close_window (window);
}

/* ban.tnt at Fit (about 1 pixel a cell): contours at a coarser interval,
 * coloured by height; docs/screenshots/editor-contours-fit.png. */
static void
test_contours_ban (void)
{
  g_autofree char *map_path = terrain_test_corpus_path ("ta/maps/ban.tnt");
  g_autofree char *palette_path = terrain_test_corpus_path ("ta/PALETTE.PAL");
  GSettings *settings = terrain_editor_application_get_settings (app);
  g_autoptr(GFile) map_file = NULL;
  TerrainEditorWindow *window;
  TerrainEditorMapView *view;
  gint64 deadline;
  guint n;

  if (map_path == NULL || palette_path == NULL)
    {
      g_test_skip ("ban.tnt or PALETTE.PAL is not in the corpus");
      return;
    }
  g_settings_set_string (settings, "palette-path", palette_path);
  map_file = g_file_new_for_path (map_path);
  window = open_and_wait (map_file);
  view = map_view (window);
  g_object_set (window, "show-grid", FALSE, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 760);
  gtk_window_present (GTK_WINDOW (window));
  deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (terrain_editor_map_view_get_picture (view) != TERRAIN_EDITOR_MAP_PICTURE_FULL
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  terrain_editor_map_view_zoom_to_fit (view);
  iterate (200);
  g_test_message ("Fit: zoom %.4f, contour interval %u", terrain_editor_map_view_get_zoom (view),
                  terrain_editor_map_view_get_contour_interval (view));
  g_assert_cmpuint (terrain_editor_map_view_get_contour_interval (view), >, 16);
  n = contour_pixels (window);
  g_test_message ("%u contour pixels at Fit", n);
  g_assert_cmpuint (n, >, 1000);
  g_object_set (window, "show-contours", TRUE, NULL);
  iterate (200);
  save_screenshot (GTK_WIDGET (window), "editor-contours-fit.png");
  close_window (window);
  g_settings_reset (settings, "palette-path");
}

int
main (int    argc,
      char **argv)
{
  int status;

  editor_test_init (&argc, &argv);

  g_test_add ("/Terrain/Editor/Features/undo-move-drops-selection", Fixture, NULL,
              fixture_setup, test_undo_move_drops_selection, fixture_teardown);
  g_test_add ("/Terrain/Editor/Features/sprites", Fixture, NULL,
              fixture_setup, test_sprites, fixture_teardown);
  terrain_test_add_corpus_func ("/Terrain/Editor/Features/sprites-ban", test_sprites_ban);
  g_test_add ("/Terrain/Editor/Features/palette-and-preview", Fixture, NULL,
              fixture_setup, test_palette_and_preview, fixture_teardown);
  g_test_add ("/Terrain/Editor/Features/contours-zoomed-out", Fixture, NULL,
              fixture_setup, test_contours_zoomed_out, fixture_teardown);
  terrain_test_add_corpus_func ("/Terrain/Editor/Features/contours-ban", test_contours_ban);
  g_test_add ("/Terrain/Editor/Features/brush-falloff-default", Fixture, NULL,
              fixture_setup, test_brush_falloff_default, fixture_teardown);
  status = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);
  return status;
}
