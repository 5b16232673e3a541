/* test-editor-open.c: every format libterrain reads, opened in the editor under Xvfb
 *
 * Opens a small file of every format libterrain reads (built in code,
 * terrain-test-fixtures.c), a plain heightmap PNG and a map inside an HPI
 * archive, and the same files cut in half: each opens with its title,
 * structure, picture and tools, or fails with the reason in the window.
 * Selects Atlas stubs in the Structure tab (highlight, outline, properties,
 * framing) and turns chunk levels on. TERRAIN_EDITOR_SCREENSHOT_DIR keeps
 * screenshots of the windows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gtk/gtk.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <libterrain.h>

#include "terrain-editor-application.h"
#include "terrain-editor-build-dialog.h"
#include "terrain-editor-gl-view.h"
#include "terrain-editor-item.h"
#include "terrain-editor-map-view.h"
#include "terrain-editor-window.h"
#include "terrain-test-fixtures.h"
#include "test-editor-util.h"

TerrainEditorApplication *app;
/* ------------------------------------------------------------------------ */
/* Every format libterrain reads, opened as a user opens it                 */

static GBytes *
save_document (gpointer document)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (document), &error);

  g_assert_no_error (error);
  g_object_unref (document);
  return bytes;
}

static GBytes *
build_tnt (void)
{
  g_autoptr(GError) error = NULL;
  TerrainTntMap *map = terrain_tnt_map_new (32, 32, &error);

  g_assert_no_error (error);
  for (guint y = 0; y < 32; y++)
    for (guint x = 0; x < 32; x++)
      terrain_tnt_map_set_cell_height (map, x, y, (guint8) (x * 5 + y * 3));
  terrain_tnt_map_set_sea_level (map, 40, NULL);
  return save_document (map);
}

static GBytes *
build_sct (void)
{
  static const TerrainTestSctSpec spec = { "v3", TERRAIN_TEST_SCT_V3, 4, 3, 3, 0, 0 };
  g_auto(TerrainTestSct) f = { 0 };

  terrain_test_sct_build (&f, &spec);
  return g_bytes_ref (f.bytes);
}

static TerrainHeightfield *
hills (guint side)
{
  g_autoptr(GError) error = NULL;
  TerrainHeightfield *field = terrain_heightfield_new (side, side, 4.0, &error);

  g_assert_no_error (error);
  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      terrain_heightfield_set_sample (field, x, y,
                                      (gfloat) (40 + 30 * sin (x * 0.3) * cos (y * 0.2)));
  return field;
}

static GBytes *
build_atlas (void)
{
  g_autoptr(TerrainHeightfield) field = hills (33);
  g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
  g_autoptr(GError) error = NULL;
  TerrainAtlasFile *atlas;

  terrain_atlas_builder_set_tree_depth (builder, 2);
  atlas = terrain_atlas_builder_build (builder, NULL, &error);
  g_assert_no_error (error);
  return save_document (atlas);
}

static GBytes *
build_chu (void)
{
  return terrain_test_chu3_hills (3, 9);
}

static GBytes *
build_tqt (void)
{
  return terrain_test_tqt_picture (3, 32, FALSE);
}

static GBytes *
build_ter (void)
{
  return terrain_test_ter (3, TRUE, 0);
}

static GBytes *
build_png (void)
{
  g_autoptr(TerrainImage) image = terrain_image_new (TERRAIN_IMAGE_GRAY16, 64, 48, NULL);
  g_autoptr(GError) error = NULL;
  guint8 *data = terrain_image_get_data (image, NULL);
  GBytes *bytes;

  for (guint y = 0; y < 48; y++)
    for (guint x = 0; x < 64; x++)
      {
        guint16 *row = (guint16 *) (data + y * terrain_image_get_stride (image));

        row[x] = (guint16) (x * 700 + y * 300);
      }
  bytes = terrain_image_save_png_bytes (image, &error);
  g_assert_no_error (error);
  return bytes;
}

static const char small_ota[] =
  "[GlobalHeader]\r\n"
  "    {\r\n"
  "    missionname=Small;\r\n"
  "    missiondescription=A 32 x 32 test map;\r\n"
  "    size=1 x 1;\r\n"
  "    numplayers=2;\r\n"
  "    SCHEMACOUNT=1;\r\n"
  "    [Schema 0]\r\n"
  "        {\r\n"
  "        Type=Network 1;\r\n"
  "        [specials]\r\n"
  "            {\r\n"
  "            [special0]\r\n"
  "                {\r\n"
  "                specialwhat=StartPos1;\r\n"
  "                XPos=64;\r\n"
  "                ZPos=64;\r\n"
  "                }\r\n"
  "            }\r\n"
  "        }\r\n"
  "    }\r\n";

static GBytes *
build_hpi (void)
{
  g_autoptr(GBytes) tnt = build_tnt ();
  g_autoptr(GBytes) ota = g_bytes_new_static (small_ota, strlen (small_ota));
  g_autoptr(GError) error = NULL;
  GBytes *bytes = terrain_hpi_pack_map ("small", tnt, ota, &error);

  g_assert_no_error (error);
  return bytes;
}

static GBytes *
build_fhd (void)
{
  g_autoptr(GError) error = NULL;
  TerrainFloorHeightData *floor = terrain_floor_height_data_new (32, 32, 2.0f, &error);
  guint16 words[32 * 32];

  g_assert_no_error (error);
  for (guint y = 0; y < 32; y++)
    for (guint x = 0; x < 32; x++)
      words[y * 32 + x] = (guint16) ((x + 2 * y) * 600);
  terrain_floor_height_data_set_region (floor, 0, 0, 32, 32, words);
  return save_document (floor);
}

static GBytes *
build_tnl (void)
{
  TerrainNodeLayer *layer = terrain_node_layer_new ();

  terrain_node_layer_append (layer, 0, G_GUINT64_CONSTANT (0x0123456789ABCDEF));
  terrain_node_layer_append (layer, 1, G_GUINT64_CONSTANT (0x1123456789ABCDEF));
  return save_document (layer);
}

/* A leaf with sloping heights and a colour gradient. */
static GBytes *
build_tnlc (void)
{
  TerrainNodeChunk *chunk = terrain_node_chunk_new (TRUE);
  g_autoptr(TerrainImage) colour = terrain_image_new (TERRAIN_IMAGE_RGBA8, 132, 132, NULL);
  g_autofree gint32 *heights = g_new (gint32, 132 * 132);
  guint8 *data = terrain_image_get_data (colour, NULL);
  g_autoptr(GError) error = NULL;

  for (guint y = 0; y < 132; y++)
    for (guint x = 0; x < 132; x++)
      {
        guint8 *p = data + y * terrain_image_get_stride (colour) + 4 * x;

        heights[y * 132 + x] = (gint32) (x * 20 + y * 7);
        p[0] = (guint8) (x * 2);
        p[1] = (guint8) (y * 2);
        p[2] = 90;
        p[3] = 255;
      }
  g_assert_true (terrain_node_chunk_set_heights (chunk, heights, &error));
  g_assert_no_error (error);
  g_assert_true (terrain_node_chunk_set_texture (chunk, TERRAIN_NODE_BLOCK_COLOUR, colour, &error));
  g_assert_no_error (error);
  return save_document (chunk);
}

static GBytes *
build_model (void)
{
  g_autoptr(TerrainTestDat1) hill = terrain_test_dat1_hill (17);

  return terrain_test_dat1_layout (hill);
}

static GBytes *
build_ota (void)
{
  return g_bytes_new_static (small_ota, strlen (small_ota));
}

static GBytes *
build_tdf (void)
{
  static const char text[] =
    "[Tree1]\r\n"
    "\t{\r\n"
    "\tworld=greenworld;\r\n"
    "\tdescription=Tree;\r\n"
    "\tfootprintx=1;\r\n"
    "\tfootprintz=1;\r\n"
    "\t}\r\n";

  return g_bytes_new_static (text, strlen (text));
}

typedef struct
{
  const char *name;
  const char *file_name;
  GBytes *(*build) (void);
  TerrainFormat format;
  const char *tools;          /* the tools offered, in tool order */
  gboolean picture;           /* the 2D view shows a picture (else why not) */
} FormatCase;

#define TNT_TOOLS "inspect sea-level brush features void tiles stamp"

static const FormatCase format_cases[] = {
  { "tnt", "small.tnt", build_tnt, TERRAIN_FORMAT_TNT, TNT_TOOLS, TRUE },
  { "sct", "section.sct", build_sct, TERRAIN_FORMAT_SCT, "inspect", TRUE },
  { "atlas", "hills.atlas", build_atlas, TERRAIN_FORMAT_ATLAS, "inspect atlas", TRUE },
  { "chu", "hills.chu", build_chu, TERRAIN_FORMAT_CHU, "inspect", TRUE },
  { "tqt", "hills.tqt", build_tqt, TERRAIN_FORMAT_TQT, "inspect", TRUE },
  { "ter", "hills.ter", build_ter, TERRAIN_FORMAT_TER, "inspect", TRUE },
  { "heightmap-png", "heights.png", build_png, TERRAIN_FORMAT_HEIGHTMAP, "inspect", TRUE },
  { "hpi", "archive.hpi", build_hpi, TERRAIN_FORMAT_HPI, "inspect", FALSE },
  { "floor-height", "world.fhd", build_fhd, TERRAIN_FORMAT_FLOOR_HEIGHT, "inspect", TRUE },
  { "node-layer", "layer.tnl", build_tnl, TERRAIN_FORMAT_NODE_LAYER, "inspect", TRUE },
  { "node-chunk", "0123456789abcdef.tnlc", build_tnlc, TERRAIN_FORMAT_NODE_CHUNK, "inspect", TRUE },
  { "model", "hill.model", build_model, TERRAIN_FORMAT_DAT1, "inspect", TRUE },
  { "ota", "small.ota", build_ota, TERRAIN_FORMAT_OTA, "inspect", FALSE },
  { "tdf", "features.tdf", build_tdf, TERRAIN_FORMAT_TDF, "inspect", FALSE },
};

static const char *
visible_page (TerrainEditorWindow *window)
{
  return gtk_stack_get_visible_child_name (GTK_STACK (child (window, "main_stack")));
}

static void
wait_loaded (TerrainEditorWindow *window)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (terrain_editor_window_get_busy (window) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (terrain_editor_window_get_busy (window));
}

/* The window showing @file, as the application's open handler (command
 * line, file manager, Open dialog) leaves it. */
static TerrainEditorWindow *
open_through_app (GFile *file)
{
  TerrainEditorWindow *window = NULL;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (TERRAIN_EDITOR_IS_WINDOW (l->data) && terrain_editor_window_get_file (l->data) != NULL
        && g_file_equal (terrain_editor_window_get_file (l->data), file))
      window = l->data;
  g_assert_nonnull (window);
  wait_loaded (window);
  return window;
}

/* Waits until the 2D view is laid out and drawn, then renders it. */
static GdkTexture *
render_map_view (TerrainEditorWindow *window)
{
  GtkWidget *view = terrain_editor_window_get_map_view (window);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 700);
  gtk_window_present (GTK_WINDOW (window));
  while ((!gtk_widget_get_mapped (view) || gtk_widget_get_width (view) < 100)
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  iterate (200);
  g_assert_cmpint (gtk_widget_get_width (view), >=, 100);
  return render_widget (view);
}

static guint
count_structure_rows (TerrainEditorWindow *window)
{
  GtkWidget *list = child (window, "structure_list");
  GtkSelectionModel *model = gtk_list_view_get_model (GTK_LIST_VIEW (list));

  return model != NULL ? g_list_model_get_n_items (G_LIST_MODEL (model)) : 0;
}

/* Which tool buttons are sensitive, as "inspect sea-level ...". */
static char *
sensitive_tools (TerrainEditorWindow *window)
{
  GtkWidget *grid = child (window, "tool_buttons");
  GString *tools = g_string_new (NULL);

  for (GtkWidget *button = gtk_widget_get_first_child (grid); button != NULL;
       button = gtk_widget_get_next_sibling (button))
    {
      GVariant *target = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (button));

      if (!gtk_widget_is_sensitive (button))
        continue;
      if (tools->len > 0)
        g_string_append_c (tools, ' ');
      g_string_append (tools, g_variant_get_string (target, NULL));
    }
  return g_string_free (tools, FALSE);
}

static void
assert_loaded (TerrainEditorWindow *window,
               const FormatCase    *fc,
               GFile               *file)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *tools = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkWidget *subtitle = child (window, "subtitle_label");
  TerrainDocument *document = terrain_editor_window_get_document (window);

  /* Loaded, with nothing in the info bar. */
  g_assert_null (terrain_editor_window_get_error_message (window));
  g_assert_false (gtk_info_bar_get_revealed (GTK_INFO_BAR (child (window, "info_bar"))));
  g_assert_nonnull (document);
  g_assert_cmpint (terrain_document_get_format (document), ==, fc->format);
  g_assert_cmpstr (visible_page (window), ==, "document");

  /* The title names the file, the subtitle its format. */
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, name);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (child (window, "title_label"))), ==, name);
  g_assert_true (gtk_widget_get_visible (subtitle));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (subtitle)),
                            terrain_format_get_description (fc->format)));

  /* The structure inspector describes it. */
  g_assert_cmpuint (count_structure_rows (window), >, 1);

  /* The tools that apply to it, and only those. */
  tools = sensitive_tools (window);
  g_assert_cmpstr (tools, ==, fc->tools);

  /* The 2D view draws its picture, or says why there is none. */
  texture = render_map_view (window);
  if (fc->picture)
    {
      g_assert_null (terrain_editor_map_view_get_message (map_view (window)));
      g_assert_cmpuint (count_colours (texture), >, 8);
    }
  else
    {
      g_assert_nonnull (terrain_editor_map_view_get_message (map_view (window)));
      g_assert_cmpuint (count_colours (texture), >, 1);
    }

  /* The 3D view has something to draw, or its label says why not: files
   * without a picture have no heights either. */
  {
    GObject *gl_view = G_OBJECT (gtk_overlay_get_child (GTK_OVERLAY (child (window, "gl_overlay"))));
    GtkWidget *label = child (window, "gl_empty_label");
    g_autofree char *empty = NULL;

    g_object_get (gl_view, "empty-message", &empty, NULL);
    g_assert_cmpint (gtk_widget_get_visible (label), ==, empty != NULL);
    if (empty != NULL)
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, empty);
    if (!fc->picture)
      g_assert_nonnull (empty);
    g_test_message ("3D: %s", empty != NULL ? empty : "terrain");
  }
}

static void
assert_failed (TerrainEditorWindow *window,
               GFile               *file)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *tools = NULL;
  const char *message = terrain_editor_window_get_error_message (window);
  GtkInfoBar *info_bar = GTK_INFO_BAR (child (window, "info_bar"));

  /* The reason, naming the file, in the info bar. */
  g_assert_nonnull (message);
  g_test_message ("%s: %s", name, message);
  g_assert_nonnull (strstr (message, name));
  g_assert_true (gtk_info_bar_get_revealed (info_bar));
  g_assert_cmpint (gtk_info_bar_get_message_type (info_bar), ==, GTK_MESSAGE_ERROR);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (child (window, "info_label"))), ==, message);

  /* Nothing half open: no document, no file, the empty page and title. */
  g_assert_null (terrain_editor_window_get_document (window));
  g_assert_null (terrain_editor_window_get_file (window));
  g_assert_null (terrain_editor_window_get_command_stack (window));
  g_assert_true (terrain_editor_window_is_empty (window));
  g_assert_cmpstr (visible_page (window), ==, "empty");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, _("Terrain Editor"));
  g_assert_false (gtk_widget_get_visible (child (window, "subtitle_label")));
  g_assert_cmpuint (count_structure_rows (window), ==, 0);
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "save"));
  tools = sensitive_tools (window);
  g_assert_cmpstr (tools, ==, "");
}

static GFile *
write_file (const char *dir,
            const char *name,
            GBytes     *bytes,
            gsize       size)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) size, &error));
  g_assert_no_error (error);
  return g_file_new_for_path (path);
}

static void
test_open_format (gconstpointer data)
{
  const FormatCase *fc = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-editor-formats-XXXXXX", &error);
  g_autoptr(GBytes) bytes = fc->build ();
  g_autofree char *broken_name = g_strconcat ("broken-", fc->file_name, NULL);
  g_autofree char *shot = g_strdup_printf ("editor-%s.png", fc->name);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) broken = NULL;
  TerrainEditorWindow *window;

  g_assert_no_error (error);
  file = write_file (dir, fc->file_name, bytes, g_bytes_get_size (bytes));
  window = open_through_app (file);
  assert_loaded (window, fc, file);
  save_screenshot (GTK_WIDGET (window), shot);
  close_window (window);

  /* The same file cut in half: the reason in the window, no crash. */
  broken = write_file (dir, broken_name, bytes, g_bytes_get_size (bytes) / 2);
  window = TERRAIN_EDITOR_WINDOW (terrain_editor_application_open_file (app, broken));
  wait_loaded (window);
  assert_failed (window, broken);
  close_window (window);

  terrain_test_remove_tree (dir);
}

static char *
first_finding (TerrainEditorWindow *window)
{
  GtkSelectionModel *model = gtk_list_view_get_model (GTK_LIST_VIEW (child (window, "findings_list")));
  g_autoptr(TerrainEditorItem) item = g_list_model_get_item (G_LIST_MODEL (model), 0);

  return g_strdup (item != NULL ? terrain_editor_item_get_title (item) : "");
}

/* A deep Atlas (1,024 leaf chunks) opens at once: its findings and its 2D
 * picture are made in worker threads from a copy of the file, the window
 * saying so meanwhile, then shown as for any other file. */
static void
test_open_deep_atlas (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-editor-deep-XXXXXX", &error);
  g_autoptr(TerrainHeightfield) field = hills (129);
  g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *first = NULL;
  TerrainEditorWindow *window;
  GtkSelectionModel *model;
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  double zoom_coarse;

  g_assert_no_error (error);
  terrain_atlas_builder_set_tree_depth (builder, 6);
  bytes = save_document (terrain_atlas_builder_build (builder, NULL, &error));
  file = write_file (dir, "deep.atlas", bytes, g_bytes_get_size (bytes));
  window = open_through_app (file);

  /* Open, and saying what is still being made. */
  g_assert_cmpstr (visible_page (window), ==, "document");
  /* No offer of a Total Annihilation install over a Torque terrain. */
  g_assert_false (gtk_info_bar_get_revealed (GTK_INFO_BAR (child (window, "first_run_bar"))));
  g_assert_cmpstr (terrain_editor_map_view_get_message (map_view (window)), ==,
                   _("Drawing the terrain…"));
  first = first_finding (window);
  g_assert_cmpstr (first, ==, _("Checking the file…"));
  /* A coarse picture at once (level 3 of 6: 512 pixels a side), drawn
   * over with the note. */
  g_assert_cmpint (terrain_editor_map_view_get_picture (map_view (window)), ==,
                   TERRAIN_EDITOR_MAP_PICTURE_COARSE);
  {
    g_autoptr(GdkTexture) coarse = render_map_view (window);

    g_assert_cmpuint (count_colours (coarse), >, 8);
  }
  zoom_coarse = terrain_editor_map_view_get_zoom (map_view (window));
  save_screenshot (GTK_WIDGET (window), "editor-atlas-drawing.png");

  while ((terrain_editor_map_view_get_message (map_view (window)) != NULL ||
          g_strcmp0 (first, _("Checking the file…")) == 0) && g_get_monotonic_time () < deadline)
    {
      g_main_context_iteration (NULL, TRUE);
      g_free (first);
      first = first_finding (window);
    }

  /* The same findings as checking the window's document, and the full
   * picture (2048 pixels a side) at the coarse one's size on screen. */
  g_assert_null (terrain_editor_map_view_get_message (map_view (window)));
  g_assert_cmpint (terrain_editor_map_view_get_picture (map_view (window)), ==,
                   TERRAIN_EDITOR_MAP_PICTURE_FULL);
  g_assert_cmpfloat_with_epsilon (terrain_editor_map_view_get_zoom (map_view (window)) * 4.0,
                                  zoom_coarse, 1e-9);
  issues = terrain_document_validate (terrain_editor_window_get_document (window));
  model = gtk_list_view_get_model (GTK_LIST_VIEW (child (window, "findings_list")));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, MAX (issues->len, 1));
  texture = render_map_view (window);
  g_assert_cmpuint (count_colours (texture), >, 8);
  save_screenshot (GTK_WIDGET (window), "editor-atlas-drawn.png");
  close_window (window);
  terrain_test_remove_tree (dir);
}

/* The editor opens heightmaps through the library's one reader with the
 * encoding `terrain-editor --heightmap-format` names: the same PNG is
 * Terrain-RGB by detection and Terrarium when named so. */
static void
test_open_heightmap_format (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-editor-heightmap-XXXXXX", &error);
  g_autoptr(TerrainImage) image = terrain_image_new (TERRAIN_IMAGE_RGBA8, 33, 33, NULL);
  guint8 *p = terrain_image_get_data (image, NULL);
  gsize stride = terrain_image_get_stride (image);
  g_autoptr(GBytes) png = NULL;
  g_autoptr(GFile) file = NULL;

  g_assert_no_error (error);
  /* Terrain-RGB: R 1, heights rising with G and B. */
  for (guint y = 0; y < 33; y++)
    for (guint x = 0; x < 33; x++)
      {
        guint8 *q = p + y * stride + 4 * x;

        q[0] = 1, q[1] = (guint8) (x * 7), q[2] = (guint8) (y * 7), q[3] = 255;
      }
  png = terrain_image_save_png_bytes (image, &error);
  g_assert_no_error (error);
  file = write_file (dir, "encoded.png", png, g_bytes_get_size (png));

  for (guint named = 0; named < 2; named++)
    {
      TerrainEditorWindow *window;
      TerrainDocument *document;
      g_autoptr(JsonNode) node = NULL;

      terrain_editor_application_set_heightmap_format (app, named ? TERRAIN_HEIGHTMAP_TERRARIUM
                                                                  : TERRAIN_HEIGHTMAP_AUTO);
      window = open_through_app (file);
      document = terrain_editor_window_get_document (window);
      g_assert_true (TERRAIN_IS_HEIGHTMAP_DOCUMENT (document));
      g_assert_true (g_file_equal (terrain_editor_window_get_file (window), file));
      node = terrain_document_describe (document);
      g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "encoding"), ==,
                       named ? "terrarium" : "terrain-rgb");
      close_window (window);
    }
  terrain_editor_application_set_heightmap_format (app, TERRAIN_HEIGHTMAP_AUTO);
  terrain_test_remove_tree (dir);
}

static const FormatCase tnt_member_case = {
  "hpi-member", "small.tnt", build_tnt, TERRAIN_FORMAT_TNT, TNT_TOOLS, TRUE
};

/* The structure row titled @title, or G_MAXUINT; expands the rows above. */
static guint
find_structure_row (TerrainEditorWindow *window,
                    const char          *title)
{
  GtkWidget *list = child (window, "structure_list");
  GListModel *rows = G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (list)));

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(TerrainEditorItem) item = gtk_tree_list_row_get_item (row);

      if (g_str_equal (terrain_editor_item_get_title (item), title))
        return i;
    }
  return G_MAXUINT;
}

static TerrainEditorWindow *
window_for_path (const char *path)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    {
      GFile *file = TERRAIN_EDITOR_IS_WINDOW (l->data) ? terrain_editor_window_get_file (l->data)
                                                       : NULL;
      g_autofree char *window_path = file != NULL ? g_file_get_path (file) : NULL;

      if (g_strcmp0 (window_path, path) == 0)
        return l->data;
    }
  return NULL;
}

/* A map inside an archive: the archive's window lists its files in the
 * Structure tab, and activating one (double-click, Enter) opens it in a
 * window of its own (Save writes it back into the archive:
 * test-editor-archive.c). A broken map inside a sound
 * archive fails in its window. */
static void
test_open_archive_member (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-editor-hpi-XXXXXX", &error);
  g_autoptr(GBytes) tnt = build_tnt ();
  g_autoptr(GBytes) half = g_bytes_new_from_bytes (tnt, 0, g_bytes_get_size (tnt) / 2);
  g_autoptr(GBytes) ota = build_ota ();
  g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
  g_autoptr(GBytes) archive_bytes = NULL;
  g_autoptr(GFile) archive_file = NULL;
  g_autofree char *archive_path = NULL;
  g_autofree char *member_path = NULL;
  g_autofree char *broken_path = NULL;
  g_autoptr(GFile) member_file = NULL;
  TerrainEditorWindow *archive, *member, *broken;
  GtkWidget *list;
  guint row;

  g_assert_no_error (error);
  g_assert_true (terrain_hpi_writer_add_file (writer, "maps/small.tnt", tnt,
                                              TERRAIN_HPI_COMPRESSION_ZLIB, &error));
  g_assert_true (terrain_hpi_writer_add_file (writer, "maps/SMALL.OTA", ota,
                                              TERRAIN_HPI_COMPRESSION_LZ77, &error));
  g_assert_true (terrain_hpi_writer_add_file (writer, "maps/broken.tnt", half,
                                              TERRAIN_HPI_COMPRESSION_LZ77, &error));
  g_assert_true (terrain_hpi_writer_add_file (writer, "sounds/boom.wav", half,
                                              TERRAIN_HPI_COMPRESSION_NONE, &error));
  g_assert_no_error (error);
  archive_bytes = terrain_hpi_writer_to_bytes (writer, &error);
  g_assert_no_error (error);
  archive_file = write_file (dir, "archive.hpi", archive_bytes, g_bytes_get_size (archive_bytes));
  archive_path = g_file_get_path (archive_file);
  member_path = g_strconcat (archive_path, ":maps/small.tnt", NULL);
  broken_path = g_strconcat (archive_path, ":maps/broken.tnt", NULL);

  archive = open_through_app (archive_file);
  g_assert_true (TERRAIN_IS_HPI_ARCHIVE (terrain_editor_window_get_document (archive)));
  g_assert_cmpint (gtk_notebook_get_current_page (GTK_NOTEBOOK (child (archive, "side_notebook"))),
                   ==, 1);

  /* Files libterrain does not read are listed, not offered. */
  list = child (archive, "structure_list");
  row = find_structure_row (archive, "sounds/boom.wav");
  g_assert_cmpuint (row, !=, G_MAXUINT);
  g_signal_emit_by_name (list, "activate", row);
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, 1);

  row = find_structure_row (archive, "maps/small.tnt");
  g_assert_cmpuint (row, !=, G_MAXUINT);
  g_signal_emit_by_name (list, "activate", row);
  member = window_for_path (member_path);
  g_assert_nonnull (member);
  g_assert_true (member != archive);
  wait_loaded (member);
  member_file = g_file_new_for_path (member_path);
  assert_loaded (member, &tnt_member_case, member_file);
  /* With the map description of the same name, from the archive. */
  g_assert_nonnull (terrain_editor_map_view_get_ota (map_view (member)));
  /* It has no file of its own: Save writes it back into the archive. */
  g_assert_null (terrain_document_get_file (terrain_editor_window_get_document (member)));
  save_screenshot (GTK_WIDGET (archive), "editor-hpi.png");
  save_screenshot (GTK_WIDGET (member), "editor-hpi-member.png");
  close_window (member);

  /* The command line's ARCHIVE:path, relative to the current folder:
   * GIO takes "archive.hpi:" for a URI scheme. */
  {
    g_autofree char *cwd = g_get_current_dir ();
    g_autoptr(GFile) relative = NULL;

    g_assert_cmpint (g_chdir (dir), ==, 0);
    relative = g_file_new_for_commandline_arg ("archive.hpi:maps/small.tnt");
    member = open_through_app (relative);
    g_assert_cmpint (g_chdir (cwd), ==, 0);
    assert_loaded (member, &tnt_member_case, relative);
    close_window (member);
  }

  g_signal_emit_by_name (list, "activate", find_structure_row (archive, "maps/broken.tnt"));
  broken = window_for_path (broken_path);
  g_assert_nonnull (broken);
  wait_loaded (broken);
  {
    g_autoptr(GFile) broken_file = g_file_new_for_path (broken_path);

    assert_failed (broken, broken_file);
  }
  close_window (broken);
  close_window (archive);
  terrain_test_remove_tree (dir);
}

/* The row titled @title, expanded; G_MAXUINT when there is none. */
static guint
expand_structure_row (TerrainEditorWindow *window,
                      const char          *title)
{
  GListModel *rows = G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (child (window, "structure_list"))));
  guint position = find_structure_row (window, title);
  g_autoptr(GtkTreeListRow) row = NULL;

  if (position == G_MAXUINT)
    return position;
  row = g_list_model_get_item (rows, position);
  gtk_tree_list_row_set_expanded (row, TRUE);
  return position;
}

/* A textured Atlas: the picture north up in quadrants, red north-west,
 * green north-east, blue south-west, yellow south-east. */
static GBytes *
build_quadrant_atlas (void)
{
  static const guint8 colors[4][3] = { { 230, 30, 30 }, { 30, 200, 30 }, { 30, 30, 230 }, { 230, 210, 20 } };
  g_autoptr(TerrainHeightfield) field = hills (33);
  g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainImage) picture = terrain_image_new (TERRAIN_IMAGE_RGBA8, 128, 128, &error);
  guint8 *data = terrain_image_get_data (picture, NULL);
  TerrainAtlasFile *atlas;

  for (guint y = 0; y < 128; y++)
    for (guint x = 0; x < 128; x++)
      {
        const guint8 *c = colors[(y >= 64) * 2 + (x >= 64)];
        guint8 *p = data + y * terrain_image_get_stride (picture) + x * 4;

        memcpy (p, c, 3);
        p[3] = 255;
      }
  terrain_atlas_builder_set_tree_depth (builder, 2);
  terrain_atlas_builder_set_texture_image (builder, picture);
  terrain_atlas_builder_set_texture_format (builder, TERRAIN_ATLAS_TEXTURE_PNG, 90);
  terrain_atlas_builder_set_tile_size (builder, 32);
  terrain_atlas_builder_set_texture_depth (builder, 2);
  atlas = terrain_atlas_builder_build (builder, NULL, &error);
  g_assert_no_error (error);
  return save_document (atlas);
}

/* Selects the row titled @title and returns the colour of the 2D view's
 * picture in the middle of the outline that draws. */
static const guint8 *
outlined_color (TerrainEditorWindow *window,
                TerrainImage        *picture,
                const char          *title)
{
  GtkSingleSelection *selection =
    GTK_SINGLE_SELECTION (gtk_list_view_get_model (GTK_LIST_VIEW (child (window, "structure_list"))));
  guint position = find_structure_row (window, title);
  double x, y, width, height;

  g_assert_cmpuint (position, !=, G_MAXUINT);
  gtk_single_selection_set_selected (selection, position);
  g_assert_true (terrain_editor_map_view_get_atlas_outline (map_view (window), &x, &y, &width, &height));
  g_assert_cmpfloat (fabs (width - terrain_image_get_width (picture) / 2.0), <, 0.5);
  return terrain_image_get_data (picture, NULL) + (gsize) (y + height / 2) * terrain_image_get_stride (picture)
         + (gsize) (x + width / 2) * 4;
}

/* An Atlas file's stubs in the Structure tab: selecting one highlights its
 * bounds in the 3D view, outlines them in the 2D view and describes the
 * stub in the Properties tab; activating it frames it. Ctrl+L's action
 * shows chunk levels, with the legend and figures over the 3D view. */
static void
test_atlas_structure (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-editor-atlas-XXXXXX", &error);
  g_autoptr(GBytes) bytes = build_atlas ();
  g_autoptr(GFile) file = NULL;
  g_autoptr(TerrainAtlasStub) stub = NULL;
  TerrainEditorWindow *window;
  TerrainEditorGlView *gl_view;
  GtkSingleSelection *selection;
  TerrainAtlasFile *atlas;
  TerrainAtlasToc *toc;
  TerrainAtlasBox bounds, root, shown;
  const char *properties;
  double x, y, width, height, tx, ty, side;
  guint position;
  gint64 deadline;

  g_assert_no_error (error);
  file = write_file (dir, "hills.atlas", bytes, g_bytes_get_size (bytes));
  window = open_through_app (file);
  render_map_view (window);
  atlas = TERRAIN_ATLAS_FILE (terrain_editor_window_get_document (window));
  gl_view = TERRAIN_EDITOR_GL_VIEW (gtk_overlay_get_child (GTK_OVERLAY (child (window, "gl_overlay"))));
  toc = terrain_atlas_file_get_toc (atlas, 0);
  stub = terrain_atlas_toc_get_stub (toc, (guint) terrain_atlas_toc_find_stub (toc, 1, 0, 0));
  g_assert_true (terrain_atlas_stub_get_bounds (stub, &bounds));
  g_assert_true (terrain_atlas_stub_get_bounds (terrain_atlas_toc_get_stub (toc, 0), &root));
  g_assert_false (terrain_editor_gl_view_get_atlas_highlight (gl_view, NULL));

  /* Tables of contents > Geom > the level-1 stub at (0, 0). */
  g_assert_cmpuint (expand_structure_row (window, "Tables of contents"), !=, G_MAXUINT);
  g_assert_cmpuint (expand_structure_row (window, "Geom"), !=, G_MAXUINT);
  position = find_structure_row (window, "Stub 1 (level 1, 0, 0)");
  g_assert_cmpuint (position, !=, G_MAXUINT);
  selection = GTK_SINGLE_SELECTION (gtk_list_view_get_model (GTK_LIST_VIEW (child (window, "structure_list"))));
  gtk_single_selection_set_selected (selection, position);

  /* Highlighted in 3D: the stub's bounds. */
  g_assert_true (terrain_editor_gl_view_get_atlas_highlight (gl_view, &shown));
  g_assert_true (terrain_atlas_box_equal (&shown, &bounds));

  /* Outlined in 2D, on the height picture (north up, east right, a sample
   * on each edge): the south-west quarter, bottom left. */
  g_assert_true (terrain_editor_map_view_get_atlas_outline (map_view (window), &x, &y, &width, &height));
  side = (root.max[0] - root.min[0]);
  g_assert_cmpfloat (fabs (bounds.min[0] - root.min[0]), <, side / 100);
  g_assert_cmpfloat (fabs (x - 0.5), <, 1);
  g_assert_cmpfloat (fabs (y - (height + 0.5)), <, 1);
  g_assert_cmpfloat (width, >, 8);
  g_assert_cmpfloat (fabs (width - height), <, 1);

  /* Described, with what its chunk holds. */
  properties = gtk_label_get_text (GTK_LABEL (child (window, "properties_label")));
  g_test_message ("%s", properties);
  g_assert_nonnull (strstr (properties, "Geometry stub 1 of TOC 0"));
  g_assert_nonnull (strstr (properties, "Level: 1"));
  g_assert_nonnull (strstr (properties, "Position: 0, 0"));
  g_assert_nonnull (strstr (properties, "Bounds: ("));
  g_assert_nonnull (strstr (properties, "Generation: "));
  g_assert_nonnull (strstr (properties, "Vertices: "));
  g_assert_nonnull (strstr (properties, "Triangles: "));

  /* Activated (double-click, Enter): the 3D camera goes to it. */
  g_signal_emit_by_name (child (window, "structure_list"), "activate", position);
  terrain_editor_gl_view_get_camera (gl_view, &tx, &ty, NULL, NULL, NULL);
  g_assert_cmpfloat (fabs (tx - ((bounds.min[0] + bounds.max[0]) / 2 - root.min[0])), <, 1e-3);
  g_assert_cmpfloat (fabs (ty - (root.max[1] - (bounds.min[1] + bounds.max[1]) / 2)), <, 1e-3);

  /* Another row: nothing highlighted. */
  gtk_single_selection_set_selected (selection, find_structure_row (window, "Geom"));
  g_assert_false (terrain_editor_gl_view_get_atlas_highlight (gl_view, NULL));
  g_assert_false (terrain_editor_map_view_get_atlas_outline (map_view (window), NULL, NULL, NULL, NULL));

  /* Chunk levels: the action (Ctrl+L) turns them on in the 3D view, which
   * then shows their legend and figures. */
  g_assert_true (gtk_widget_get_visible (child (window, "chunk_levels_button")));
  g_assert_false (terrain_editor_gl_view_get_show_chunk_levels (gl_view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-chunk-levels", NULL));
  g_assert_true (terrain_editor_gl_view_get_show_chunk_levels (gl_view));
  gtk_notebook_set_current_page (GTK_NOTEBOOK (child (window, "view_notebook")), 1);
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (!gtk_widget_get_visible (child (window, "chunk_levels_label")) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (gtk_widget_get_visible (child (window, "chunk_levels_label")));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (child (window, "chunk_levels_label"))), "Level 0: "));
  gtk_single_selection_set_selected (selection, position);
  iterate (300);
  save_screenshot (GTK_WIDGET (window), "editor-atlas-levels.png");

  /* Off again (the setting outlives the window). */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-chunk-levels", NULL));
  g_assert_false (terrain_editor_gl_view_get_show_chunk_levels (gl_view));
  iterate (50);
  g_assert_false (gtk_widget_get_visible (child (window, "chunk_levels_label")));

  close_window (window);

  /* On a textured Atlas the 2D view shows the root texture tile, which
   * lies turned in the file (§4): the outline of what a stub covers falls
   * on that part of the picture all the same. */
  g_clear_pointer (&bytes, g_bytes_unref);
  g_clear_object (&file);
  bytes = build_quadrant_atlas ();
  file = write_file (dir, "quadrants.atlas", bytes, g_bytes_get_size (bytes));
  window = open_through_app (file);
  gtk_window_present (GTK_WINDOW (window));
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (!gtk_widget_get_mapped (GTK_WIDGET (map_view (window))) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  iterate (300);
  {
    g_autoptr(TerrainImage) picture = terrain_document_render_image (terrain_editor_window_get_document (window),
                                                                     NULL, &error);
    const guint8 *p;

    g_assert_no_error (error);
    g_assert_cmpuint (expand_structure_row (window, "Tables of contents"), !=, G_MAXUINT);
    g_assert_cmpuint (expand_structure_row (window, "Tex"), !=, G_MAXUINT);
    /* Texture tile (1, 0, 0): the yellow south-east. */
    p = outlined_color (window, picture, "Stub 1 (level 1, 0, 0)");
    g_assert_true (p[0] > 150 && p[1] > 150 && p[2] < 100);
    g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (child (window, "properties_label"))),
                              "Texture stub 1 of TOC"));
    g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (child (window, "properties_label"))),
                              "Image: png, 32 × 32 pixels"));
    g_assert_true (terrain_editor_gl_view_get_atlas_highlight (
      TERRAIN_EDITOR_GL_VIEW (gtk_overlay_get_child (GTK_OVERLAY (child (window, "gl_overlay")))), NULL));
    /* Geometry chunk (1, 0, 1): west and north, red. */
    g_assert_cmpuint (expand_structure_row (window, "Geom"), !=, G_MAXUINT);
    p = outlined_color (window, picture, "Stub 2 (level 1, 0, 1)");
    g_assert_true (p[0] > 150 && p[1] < 100 && p[2] < 100);
  }
  iterate (300);
  save_screenshot (GTK_WIDGET (window), "editor-atlas-outline.png");
  close_window (window);
  terrain_test_remove_tree (dir);
}
int
main (int    argc,
      char **argv)
{
  int status;

  editor_test_init (&argc, &argv);

  g_test_add_func ("/Terrain/Editor/open/hpi-member", test_open_archive_member);
  g_test_add_func ("/Terrain/Editor/open/heightmap-format", test_open_heightmap_format);
  g_test_add_func ("/Terrain/Editor/open/deep-atlas", test_open_deep_atlas);
  g_test_add_func ("/Terrain/Editor/atlas-structure", test_atlas_structure);
  for (guint i = 0; i < G_N_ELEMENTS (format_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/Terrain/Editor/open/%s", format_cases[i].name);

      g_test_add_data_func (path, &format_cases[i], test_open_format);
    }
  status = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);
  return status;
}
