/* test-editor-setup.c: setting the editor up, under Xvfb
 *
 * First run: with no palette set, a window offers to point the editor at
 * a Total Annihilation install. A fake install is built here: a folder
 * holding one archive (made with the library's HPI writer) with
 * palettes/PALETTE.PAL, a feature TDF under features/ and its sprite's GAF
 * under anims/. Choosing the folder (or the archive) in the offer's file
 * chooser sets the game-files setting; the palette, the feature and its
 * sprite then come out of the archive, and the map is drawn in the
 * palette's colours with the feature as its sprite. Closing the offer
 * hides it in every window.
 * G_DEBUG=fatal-warnings is set by the suite; TERRAIN_EDITOR_SCREENSHOT_DIR
 * keeps screenshots.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>
#include <libterrain.h>

#include "terrain-test-util.h"
#include "test-editor-util.h"

TerrainEditorApplication *app;

#define MAP_W 64
#define MAP_H 48

/* The palette index of every tile pixel, and its colour. */
#define TILE_INDEX 150
#define TILE_R 20
#define TILE_G 180
#define TILE_B 60
/* The sprite's index and colour. */
#define SPRITE_INDEX 200
#define SPRITE_R 200
#define SPRITE_G 40
#define SPRITE_B 160

typedef struct
{
  char  *dir;
  char  *install;       /* the install folder */
  char  *archive;       /* install/totala1.hpi */
  GFile *map_file;
} Fixture;

static const char rocks_tdf[] =
  "[Rock1]\n{\n\tworld=greenworld;\n\tdescription=Big rock;\n\tcategory=rocks;\n"
  "\tfilename=Rocks;\n\tseqname=rock1;\n"
  "\tfootprintx=2;\n\tfootprintz=2;\n\tmetal=12;\n\treclaimable=1;\n}\n";

/* A grey ramp, TILE_INDEX and SPRITE_INDEX in their colours. */
static GBytes *
make_palette (void)
{
  guint8 *pal = g_malloc (1024);

  for (guint i = 0; i < 256; i++)
    {
      pal[4 * i] = pal[4 * i + 1] = pal[4 * i + 2] = (guint8) (i / 2);
      pal[4 * i + 3] = 0;
    }
  pal[4 * TILE_INDEX] = TILE_R;
  pal[4 * TILE_INDEX + 1] = TILE_G;
  pal[4 * TILE_INDEX + 2] = TILE_B;
  pal[4 * SPRITE_INDEX] = SPRITE_R;
  pal[4 * SPRITE_INDEX + 1] = SPRITE_G;
  pal[4 * SPRITE_INDEX + 2] = SPRITE_B;
  return g_bytes_new_take (pal, 1024);
}

/* rock1: one 24x20 frame of SPRITE_INDEX, origin (12, 18). */
static GBytes *
make_gaf (void)
{
  g_autoptr(TerrainGafWriter) writer = terrain_gaf_writer_new ();
  g_autoptr(GError) error = NULL;
  guint8 pixels[24 * 20];
  GBytes *bytes;

  memset (pixels, SPRITE_INDEX, sizeof pixels);
  g_assert_true (terrain_gaf_writer_add_entry (writer, "rock1", &error));
  g_assert_true (terrain_gaf_writer_add_frame (writer, pixels, 24, 20, 12, 18, 0, TRUE, &error));
  bytes = terrain_gaf_writer_finish (writer, &error);
  g_assert_no_error (error);
  return bytes;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (MAP_W, MAP_H, &error);
  g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
  g_autoptr(GBytes) palette = make_palette ();
  g_autoptr(GBytes) gaf = make_gaf ();
  g_autoptr(GBytes) tdf = g_bytes_new_static (rocks_tdf, strlen (rocks_tdf));
  g_autoptr(GFile) archive = NULL;
  g_autofree guint8 *tile = g_malloc (TERRAIN_TNT_TILE_PIXELS * TERRAIN_TNT_TILE_PIXELS);
  g_autofree char *map_path = NULL;
  guint index, feature;

  g_assert_no_error (error);
  f->dir = g_dir_make_tmp ("test-editor-setup-XXXXXX", &error);
  g_assert_no_error (error);

  /* The install: one archive, nothing loose. */
  f->install = g_build_filename (f->dir, "TotalA", NULL);
  g_assert_cmpint (g_mkdir (f->install, 0755), ==, 0);
  f->archive = g_build_filename (f->install, "totala1.hpi", NULL);
  g_assert_true (terrain_hpi_writer_add_file (writer, "palettes/PALETTE.PAL", palette,
                                              TERRAIN_HPI_COMPRESSION_ZLIB, &error));
  g_assert_true (terrain_hpi_writer_add_file (writer, "features/all worlds/rocks.tdf", tdf,
                                              TERRAIN_HPI_COMPRESSION_LZ77, &error));
  g_assert_true (terrain_hpi_writer_add_file (writer, "anims/rocks.gaf", gaf,
                                              TERRAIN_HPI_COMPRESSION_ZLIB, &error));
  g_assert_no_error (error);
  archive = g_file_new_for_path (f->archive);
  g_assert_true (terrain_hpi_writer_save (writer, archive, NULL, &error));
  g_assert_no_error (error);

  /* A flat map of one tile, Rock1 at (10, 10). */
  for (guint y = 0; y < MAP_H; y++)
    for (guint x = 0; x < MAP_W; x++)
      terrain_tnt_map_set_cell_height (map, x, y, 100);
  memset (tile, TILE_INDEX, TERRAIN_TNT_TILE_PIXELS * TERRAIN_TNT_TILE_PIXELS);
  index = terrain_tnt_map_add_tile (map, tile);
  for (guint row = 0; row < MAP_H / 2; row++)
    for (guint column = 0; column < MAP_W / 2; column++)
      terrain_tnt_map_set_tile_index (map, column, row, (guint16) index);
  feature = terrain_tnt_map_add_feature_name (map, "Rock1");
  g_assert_true (terrain_tnt_map_set_cell_feature (map, 10, 10, (guint16) feature, &error));
  g_assert_no_error (error);
  terrain_tnt_map_set_sea_level (map, 0);
  map_path = g_build_filename (f->dir, "rock.tnt", NULL);
  f->map_file = g_file_new_for_path (map_path);
  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (map), f->map_file, NULL, &error));
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  GSettings *settings = terrain_editor_application_get_settings (app);

  g_settings_reset (settings, "game-files");
  g_settings_reset (settings, "palette-path");
  g_settings_reset (settings, "feature-folders");
  terrain_test_remove_tree (f->dir);
  g_clear_object (&f->map_file);
  g_free (f->archive);
  g_free (f->install);
  g_free (f->dir);
}

static TerrainEditorWindow *
open_shown (Fixture *f)
{
  TerrainEditorWindow *window = open_and_wait (f->map_file);
  GtkWidget *view = terrain_editor_window_get_map_view (window);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  g_object_set (window, "show-contours", FALSE, "show-grid", FALSE, "show-start-positions", FALSE, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 760);
  gtk_window_present (GTK_WINDOW (window));
  while ((!gtk_widget_get_mapped (view) || gtk_widget_get_width (view) < 200
          || terrain_editor_map_view_get_picture (map_view (window)) != TERRAIN_EDITOR_MAP_PICTURE_FULL)
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  iterate (300);
  g_assert_cmpint (gtk_widget_get_width (view), >=, 200);
  return window;
}

/* GDK_MEMORY_DEFAULT is B8G8R8A8. */
static gboolean
is_tile (const guint8 *p)
{
  return p[2] == TILE_R && p[1] == TILE_G && p[0] == TILE_B;
}

static gboolean
is_sprite (const guint8 *p)
{
  return p[2] == SPRITE_R && p[1] == SPRITE_G && p[0] == SPRITE_B;
}

static guint
count_pixels (GtkWidget *widget,
              gboolean (*match) (const guint8 *p))
{
  g_autoptr(GdkTexture) texture = render_widget (widget);
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guint8 *pixels = g_malloc ((gsize) width * height * 4);
  guint n = 0;

  gdk_texture_download (texture, pixels, (gsize) width * 4);
  for (gsize i = 0; i < (gsize) width * height; i++)
    n += match (pixels + i * 4);
  return n;
}

static gboolean
offer_shown (TerrainEditorWindow *window)
{
  return gtk_info_bar_get_revealed (GTK_INFO_BAR (child (window, "first_run_bar")));
}

/* Clicks @button of the offer and returns the file chooser it opens. */
static GtkFileChooser *
open_chooser (TerrainEditorWindow *window,
              const char          *button)
{
  GtkWindow *chooser = NULL;
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  g_assert_true (gtk_widget_get_visible (child (window, button)));
  g_signal_emit_by_name (child (window, button), "clicked");
  while (chooser == NULL && g_get_monotonic_time () < deadline)
    {
      iterate (50);
      chooser = find_transient_of_type (GTK_WINDOW (window), GTK_TYPE_FILE_CHOOSER_DIALOG);
    }
  g_assert_nonnull (chooser);
  return GTK_FILE_CHOOSER (chooser);
}

/* What the game files gave: the palette's colours, Rock1 from the
 * archive's features/, its sprite drawn from anims/ in its colours. */
static void
check_install_used (TerrainEditorWindow *window,
                    Fixture             *f)
{
  TerrainEditorMapView *view = map_view (window);
  TerrainPalette *palette = terrain_editor_application_get_palette (app);
  TerrainFeatureCatalog *catalog = terrain_editor_application_get_catalog (app);
  TerrainFeatureDefinition *rock;
  guint8 r, g, b;
  guint fx = 0, fz = 0, n;

  g_assert_nonnull (palette);
  terrain_palette_get_color (palette, TILE_INDEX, &r, &g, &b);
  g_assert_cmpuint (r, ==, TILE_R);
  g_assert_cmpuint (g, ==, TILE_G);
  g_assert_cmpuint (b, ==, TILE_B);
  g_assert_null (terrain_editor_application_get_palette_error (app));
  rock = terrain_feature_catalog_lookup (catalog, "rock1");
  g_assert_nonnull (rock);
  terrain_feature_definition_get_footprint (rock, &fx, &fz);
  g_assert_cmpuint (fx, ==, 2);
  g_assert_cmpuint (fz, ==, 2);
  g_assert_nonnull (strstr (terrain_feature_definition_get_origin (rock), "totala1.hpi"));
  g_assert_false (offer_shown (window));

  /* Drawn: at one screen pixel a map pixel the tiles are the palette's
   * green, and the 24x20 sprite its magenta. */
  g_assert_true (terrain_editor_map_view_has_sprite (view, "Rock1"));
  terrain_editor_map_view_set_zoom (view, 1.0);
  terrain_editor_map_view_center_on (view, 16, 10);
  iterate (200);
  n = count_pixels (GTK_WIDGET (view), is_tile);
  g_test_message ("%u tile pixels", n);
  g_assert_cmpuint (n, >, 10000);
  n = count_pixels (GTK_WIDGET (view), is_sprite);
  g_test_message ("%u sprite pixels", n);
  g_assert_cmpuint (n, >=, 24 * 20 - 40);
  g_assert_cmpuint (n, <=, 24 * 20);
}

/* No palette: the offer is shown, the map is drawn in grey with Rock1 as
 * an outline; choosing the install folder in the offer's chooser takes
 * everything from the archive in it. */
static void
test_first_run_folder (Fixture       *f,
                       gconstpointer  data)
{
  GSettings *settings = terrain_editor_application_get_settings (app);
  TerrainEditorWindow *window;
  GtkFileChooser *chooser;
  g_autoptr(GFile) install = g_file_new_for_path (f->install);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) value = NULL;

  g_assert_null (terrain_editor_application_get_palette (app));
  window = open_shown (f);
  g_assert_true (offer_shown (window));
  g_assert_null (terrain_feature_catalog_lookup (terrain_editor_application_get_catalog (app), "Rock1"));
  g_assert_false (terrain_editor_map_view_has_sprite (map_view (window), "Rock1"));
  g_assert_cmpuint (count_pixels (GTK_WIDGET (map_view (window)), is_tile), ==, 0);
  save_screenshot (GTK_WIDGET (window), "editor-first-run.png");

  /* The map can be worked on while the offer is shown: it blocks nothing. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.tool", "s", "inspect");
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (map_view (window))));

  chooser = open_chooser (window, "first_run_folder_button");
  g_assert_cmpint (gtk_file_chooser_get_action (chooser), ==, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER);
  g_assert_true (gtk_file_chooser_set_current_folder (chooser, install, &error));
  g_assert_no_error (error);
  iterate (200);
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  iterate (300);

  value = g_settings_get_strv (settings, "game-files");
  g_assert_cmpuint (g_strv_length (value), ==, 1);
  g_assert_cmpstr (value[0], ==, f->install);
  {
    g_autofree char *palette_path = g_settings_get_string (settings, "palette-path");

    /* The palette comes out of the archive, not from a file of its own. */
    g_assert_cmpstr (palette_path, ==, "");
  }
  check_install_used (window, f);
  save_screenshot (GTK_WIDGET (window), "editor-first-run-done.png");
  close_window (window);
}

/* The archive itself chosen (select several in the chooser), then the
 * offer closed: no window shows it again in this run. */
static void
test_first_run_archive (Fixture       *f,
                        gconstpointer  data)
{
  GSettings *settings = terrain_editor_application_get_settings (app);
  TerrainEditorWindow *window, *second;
  GtkFileChooser *chooser;
  g_autoptr(GFile) archive = g_file_new_for_path (f->archive);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) value = NULL;
  gint64 deadline;

  window = open_shown (f);
  g_assert_true (offer_shown (window));
  chooser = open_chooser (window, "first_run_archives_button");
  g_assert_cmpint (gtk_file_chooser_get_action (chooser), ==, GTK_FILE_CHOOSER_ACTION_OPEN);
  g_assert_true (gtk_file_chooser_get_select_multiple (chooser));
  g_assert_true (gtk_file_chooser_set_file (chooser, archive, &error));
  g_assert_no_error (error);
  /* The chooser selects the file once it has listed its folder. */
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < deadline)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (chooser);

      if (g_list_model_get_n_items (files) == 1)
        break;
      iterate (50);
    }
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  iterate (300);
  value = g_settings_get_strv (settings, "game-files");
  g_assert_cmpuint (g_strv_length (value), ==, 1);
  g_assert_cmpstr (value[0], ==, f->archive);
  check_install_used (window, f);

  /* Back to no palette: the offer again, until it is closed. */
  g_settings_reset (settings, "game-files");
  iterate (100);
  g_assert_null (terrain_editor_application_get_palette (app));
  g_assert_true (offer_shown (window));
  second = TERRAIN_EDITOR_WINDOW (terrain_editor_window_new (app));
  gtk_window_present (GTK_WINDOW (second));
  iterate (100);
  g_assert_true (offer_shown (second));
  gtk_info_bar_response (GTK_INFO_BAR (child (window, "first_run_bar")), GTK_RESPONSE_CLOSE);
  iterate (100);
  g_assert_false (offer_shown (window));
  g_assert_false (offer_shown (second));
  close_window (second);
  close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  editor_test_init (&argc, &argv);
  /* The order matters: the last test closes the offer for the run. */
  g_test_add ("/Terrain/Editor/first-run/install-folder", Fixture, NULL, fixture_setup,
              test_first_run_folder, fixture_teardown);
  g_test_add ("/Terrain/Editor/first-run/archive", Fixture, NULL, fixture_setup,
              test_first_run_archive, fixture_teardown);
  status = g_test_run ();
  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);
  return status;
}
