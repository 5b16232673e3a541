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
 *
 * The Build Atlas dialog: the options of `terrain build-atlas` (vertical
 * scale and offset, spacing, fit, error, texture format, quality, tile
 * size and depth) set in the dialog reach the file built from a 50x30
 * heightmap made here, the builder's warning that most of the padded
 * terrain is padding is shown, and a new dialog starts with the options
 * of the last.
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
#include "terrain-editor-build-dialog.h"

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
  terrain_tnt_map_set_sea_level (map, 0, NULL);
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
  return open_presented (f->map_file);
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

/* ------------------------------------------------------------------------ */
/* Build Atlas                                                              */

#define HM_W 50
#define HM_H 30
#define HM_SCALE 0.01
#define HM_OFFSET -100.0
#define HM_SPACING 4.0

/* Heights 10 + x / 2 + y / 5 metres, stored as (h - HM_OFFSET) / HM_SCALE
 * in a 16-bit grey PNG: read with HM_SCALE and HM_OFFSET, 10 to 40.3 m. */
static GFile *
write_heightmap (const char *dir)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainHeightfield) field = terrain_heightfield_new (HM_W, HM_H, 1.0, &error);
  gfloat *data = terrain_heightfield_get_data (field, NULL);
  g_autoptr(TerrainImage) image = NULL;
  g_autofree char *path = g_build_filename (dir, "hills.png", NULL);
  GFile *file = g_file_new_for_path (path);

  g_assert_no_error (error);
  for (guint y = 0; y < HM_H; y++)
    for (guint x = 0; x < HM_W; x++)
      data[y * HM_W + x] = (gfloat) (10.0 + x / 2.0 + y / 5.0);
  image = terrain_heightfield_to_image (field, HM_SCALE, HM_OFFSET, &error);
  g_assert_no_error (error);
  g_assert_true (terrain_image_save_png (image, file, NULL, &error));
  g_assert_no_error (error);
  return file;
}

/* 98x58 pixels: the heightmap's 49:29 proportions (no stretching). */
static GFile *
write_texture (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "texture.png", NULL);
  g_autoptr(TerrainImage) image = terrain_image_new (TERRAIN_IMAGE_RGBA8, 98, 58, NULL);
  guint8 *p = terrain_image_get_data (image, NULL);
  GFile *file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  for (guint y = 0; y < 58; y++)
    for (guint x = 0; x < 98; x++)
      {
        guint8 *q = p + y * terrain_image_get_stride (image) + 4 * x;

        q[0] = (guint8) (x * 2);
        q[1] = (guint8) (120 + y);
        q[2] = 60;
        q[3] = 255;
      }
  g_assert_true (terrain_image_save_png (image, file, NULL, &error));
  g_assert_no_error (error);
  return file;
}

static TerrainEditorBuildDialog *
open_build_dialog (void)
{
  TerrainEditorBuildDialog *dialog = NULL;

  g_action_group_activate_action (G_ACTION_GROUP (app), "build-atlas", NULL);
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (TERRAIN_EDITOR_IS_BUILD_DIALOG (l->data))
      dialog = l->data;
  g_assert_nonnull (dialog);
  iterate (200);
  return dialog;
}

static GtkWidget *
dialog_child (TerrainEditorBuildDialog *dialog,
              const char               *name)
{
  GtkWidget *widget = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (dialog),
                                                                 TERRAIN_EDITOR_TYPE_BUILD_DIALOG, name));

  g_assert_nonnull (widget);
  return widget;
}

static void
set_spin (TerrainEditorBuildDialog *dialog,
          const char               *name,
          double                    value)
{
  GtkSpinButton *spin = GTK_SPIN_BUTTON (dialog_child (dialog, name));

  /* Typed in and confirmed, as a user does. */
  gtk_editable_set_text (GTK_EDITABLE (spin), g_ascii_dtostr ((char[G_ASCII_DTOSTR_BUF_SIZE]) { 0 },
                                                              G_ASCII_DTOSTR_BUF_SIZE, value));
  gtk_spin_button_update (spin);
  g_assert_cmpfloat_with_epsilon (gtk_spin_button_get_value (spin), value, 1e-9);
}

static double
spin_value (TerrainEditorBuildDialog *dialog,
            const char               *name)
{
  return gtk_spin_button_get_value (GTK_SPIN_BUTTON (dialog_child (dialog, name)));
}

static guint
selected (TerrainEditorBuildDialog *dialog,
          const char               *name)
{
  return gtk_drop_down_get_selected (GTK_DROP_DOWN (dialog_child (dialog, name)));
}

static void
wait_build (TerrainEditorBuildDialog *dialog)
{
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;

  while (terrain_editor_build_dialog_get_running (dialog) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (terrain_editor_build_dialog_get_running (dialog));
}

static void
reset_build_settings (void)
{
  static const char *const keys[] = {
    "build-vertical-scale", "build-vertical-offset", "build-spacing", "build-fit", "build-error",
    "build-depth", "build-chunk-size", "build-texture-format", "build-quality", "build-tile-size",
    "build-texture-depth",
  };
  GSettings *settings = terrain_editor_application_get_settings (app);

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_settings_reset (settings, keys[i]);
}

static void
test_build_atlas_options (void)
{
  GSettings *settings = terrain_editor_application_get_settings (app);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-editor-build-XXXXXX", &error);
  g_autofree char *out_path = g_build_filename (dir, "hills.atlas", NULL);
  g_autoptr(GFile) out_file = g_file_new_for_path (out_path);
  g_autoptr(GFile) heightmap = NULL;
  g_autoptr(GFile) texture = NULL;
  g_autoptr(TerrainDocument) document = NULL;
  g_autofree char *format = NULL;
  TerrainEditorBuildDialog *dialog;
  TerrainAtlasFile *atlas;
  TerrainAtlasToc *toc;
  TerrainAtlasBox box;
  GtkWidget *issues;
  gint toc_index;

  g_assert_no_error (error);
  reset_build_settings ();
  heightmap = write_heightmap (dir);
  texture = write_texture (dir);

  /* The CLI's defaults to start with. */
  dialog = open_build_dialog ();
  g_assert_cmpfloat (spin_value (dialog, "scale_spin"), ==, 1.0);
  g_assert_cmpfloat (spin_value (dialog, "spacing_spin"), ==, 0.0);
  g_assert_cmpfloat (spin_value (dialog, "error_spin"), ==, 2.0);
  g_assert_cmpfloat (spin_value (dialog, "quality_spin"), ==, 90.0);
  g_assert_cmpuint (selected (dialog, "tile_size_dropdown"), ==, 2);   /* 256 */
  g_assert_true (gtk_widget_get_sensitive (dialog_child (dialog, "quality_spin")));

  terrain_editor_build_dialog_set_heightmap (dialog, heightmap);
  terrain_editor_build_dialog_set_texture (dialog, texture);
  terrain_editor_build_dialog_set_output (dialog, out_file);
  set_spin (dialog, "scale_spin", HM_SCALE);
  set_spin (dialog, "offset_spin", HM_OFFSET);
  set_spin (dialog, "spacing_spin", HM_SPACING);
  set_spin (dialog, "depth_spin", 2);
  set_spin (dialog, "error_spin", 0.5);
  set_spin (dialog, "quality_spin", 75);
  set_spin (dialog, "texture_depth_spin", 2);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dialog_child (dialog, "format_dropdown")), 1);    /* PNG */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dialog_child (dialog, "tile_size_dropdown")), 0); /* 64 */
  /* The quality is JPEG's alone. */
  g_assert_false (gtk_widget_get_sensitive (dialog_child (dialog, "quality_spin")));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "build.start", NULL));
  wait_build (dialog);
  g_assert_null (terrain_editor_build_dialog_get_error_message (dialog));
  g_assert_nonnull (terrain_editor_build_dialog_get_result (dialog));

  /* The builder's warning, shown. */
  issues = dialog_child (dialog, "issues_label");
  g_test_message ("issues: %s", terrain_editor_build_dialog_get_issues_text (dialog));
  g_assert_true (gtk_widget_get_visible (issues));
  g_assert_true (has_label_containing (GTK_WIDGET (dialog), "the 50x30 heightmap was padded to 65x65"));
  g_assert_true (has_label_containing (GTK_WIDGET (dialog), "64% of the terrain is padding"));
  g_assert_false (has_label_containing (GTK_WIDGET (dialog), "stretched"));
  iterate (200);
  save_screenshot (GTK_WIDGET (dialog), "editor-build-dialog.png");

  /* The file: 64 cells of 4 m a side, heights up to 40.3 m (scaled and
   * offset; unscaled they would reach 14030), a depth-2 geometry tree, PNG tiles in a depth-2 texture tree. */
  document = terrain_document_load (out_file, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (TERRAIN_IS_ATLAS_FILE (document));
  atlas = TERRAIN_ATLAS_FILE (document);
  toc_index = terrain_atlas_file_find_toc (atlas, TERRAIN_ATLAS_TOC_GEOMETRY, 0);
  g_assert_cmpint (toc_index, >=, 0);
  toc = terrain_atlas_file_get_toc (atlas, (guint) toc_index);
  g_assert_cmpuint (terrain_atlas_toc_get_tree_depth (toc), ==, 2);
  {
    g_autoptr(TerrainAtlasStub) root = terrain_atlas_toc_get_stub (toc, (guint) terrain_atlas_toc_find_stub (toc, 0, 0, 0));

    g_assert_true (terrain_atlas_stub_get_bounds (root, &box));
  }
  g_test_message ("root bounds %g..%g, %g..%g, %g..%g", box.min[0], box.max[0], box.min[1], box.max[1],
                  box.min[2], box.max[2]);
  g_assert_cmpfloat_with_epsilon (box.max[0] - box.min[0], 64 * HM_SPACING, 0.01);
  g_assert_cmpfloat_with_epsilon (box.max[1] - box.min[1], 64 * HM_SPACING, 0.01);
  /* (The skirts hang below the lowest height.) */
  g_assert_cmpfloat (box.min[2], <=, 10.5);
  g_assert_cmpfloat (box.max[2], >=, 40.3 - 0.5);
  g_assert_cmpfloat (box.max[2], <=, 40.3 + 0.5);
  toc_index = terrain_atlas_file_find_toc (atlas, TERRAIN_ATLAS_TOC_TEXTURE, 0);
  g_assert_cmpint (toc_index, >=, 0);
  toc = terrain_atlas_file_get_toc (atlas, (guint) toc_index);
  g_assert_cmpuint (terrain_atlas_toc_get_tree_depth (toc), ==, 2);
  {
    g_autoptr(TerrainAtlasTexture) tile = terrain_atlas_file_get_texture (atlas, (guint) toc_index, 0, &error);
    guint w = 0, h = 0;

    g_assert_no_error (error);
    g_assert_cmpstr (terrain_atlas_texture_get_extension (tile), ==, "png");
    g_assert_true (terrain_atlas_texture_get_size (tile, &w, &h, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (w, ==, 64);
  }

  /* Remembered: in the settings, and in the next dialog. */
  g_assert_cmpfloat (g_settings_get_double (settings, "build-vertical-scale"), ==, HM_SCALE);
  g_assert_cmpfloat (g_settings_get_double (settings, "build-spacing"), ==, HM_SPACING);
  format = g_settings_get_string (settings, "build-texture-format");
  g_assert_cmpstr (format, ==, "png");
  g_assert_cmpint (g_settings_get_int (settings, "build-tile-size"), ==, 64);
  gtk_window_close (GTK_WINDOW (dialog));
  iterate (100);
  dialog = open_build_dialog ();
  g_assert_cmpfloat_with_epsilon (spin_value (dialog, "scale_spin"), HM_SCALE, 1e-9);
  g_assert_cmpfloat_with_epsilon (spin_value (dialog, "offset_spin"), HM_OFFSET, 1e-9);
  g_assert_cmpfloat_with_epsilon (spin_value (dialog, "spacing_spin"), HM_SPACING, 1e-9);
  g_assert_cmpfloat_with_epsilon (spin_value (dialog, "error_spin"), 0.5, 1e-9);
  g_assert_cmpfloat (spin_value (dialog, "depth_spin"), ==, 2);
  g_assert_cmpfloat (spin_value (dialog, "quality_spin"), ==, 75);
  g_assert_cmpfloat (spin_value (dialog, "texture_depth_spin"), ==, 2);
  g_assert_cmpuint (selected (dialog, "format_dropdown"), ==, 1);
  g_assert_cmpuint (selected (dialog, "tile_size_dropdown"), ==, 0);
  g_assert_cmpuint (selected (dialog, "fit_dropdown"), ==, 0);
  g_assert_false (gtk_widget_get_visible (dialog_child (dialog, "issues_label")));
  gtk_window_close (GTK_WINDOW (dialog));
  iterate (100);

  reset_build_settings ();
  terrain_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  editor_test_init (&argc, &argv);
  g_test_add_func ("/Terrain/Editor/build-atlas/options", test_build_atlas_options);
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
