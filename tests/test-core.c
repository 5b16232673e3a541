/* test-core.c: the shared core: reader, writer, limits, detection, I/O, images, palette
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "libterrain.h"
#include "core/terrain-document-private.h"
#include "core/terrain-issue-private.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-writer-private.h"
#include "terrain-test-fixtures.h"
#include "terrain-test-util.h"

static void
test_reader_scalars (void)
{
  static const guint8 data[] = {
    0x01, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0xff, 0xff,
    0x00, 0x00, 0x80, 0x3f, 0x12, 0x34,
  };
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, sizeof data);
  g_autoptr(GError) error = NULL;
  TerrainReader reader;
  guint8 u8;
  guint16 u16;
  guint32 u32;
  gint16 i16;
  gfloat f;

  terrain_reader_init (&reader, bytes, "test");
  g_assert_true (terrain_reader_read_u8 (&reader, &u8, &error));
  g_assert_cmpuint (u8, ==, 1);
  g_assert_true (terrain_reader_read_u16 (&reader, &u16, &error));
  g_assert_cmphex (u16, ==, 0x1234);
  g_assert_true (terrain_reader_read_u32 (&reader, &u32, &error));
  g_assert_cmphex (u32, ==, 0x12345678);
  g_assert_true (terrain_reader_read_i16 (&reader, &i16, &error));
  g_assert_cmpint (i16, ==, -1);
  g_assert_true (terrain_reader_read_f32 (&reader, &f, &error));
  g_assert_cmpfloat (f, ==, 1.0f);
  g_assert_true (terrain_reader_read_be_u16 (&reader, &u16, &error));
  g_assert_cmphex (u16, ==, 0x1234);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_reader_remaining (&reader), ==, 0);

  /* Reading past the end fails, names the section and offset, and leaves the
   * position where it was. */
  g_assert_false (terrain_reader_read_u32 (&reader, &u32, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (error->message, "test"));
  g_assert_nonnull (strstr (error->message, "offset 15"));
  g_assert_cmpuint (terrain_reader_tell (&reader), ==, sizeof data);
}

static void
test_reader_spans (void)
{
  guint8 data[32] = { 0 };
  g_autoptr(GBytes) bytes = g_bytes_new (data, sizeof data);
  g_autoptr(GError) error = NULL;
  TerrainReader reader, sub;
  guint32 u32;

  terrain_reader_init (&reader, bytes, "file");

  g_assert_true (terrain_reader_check_span (&reader, 0, 32, "all", &error));
  g_assert_true (terrain_reader_check_span (&reader, 32, 0, "empty at end", &error));
  g_assert_no_error (error);

  g_assert_false (terrain_reader_check_span (&reader, 33, 0, "past end", &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
  g_clear_error (&error);

  g_assert_false (terrain_reader_check_span (&reader, 16, 17, "runs over", &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
  g_clear_error (&error);

  /* Overflowing offset + length must not wrap around. */
  g_assert_false (terrain_reader_check_span (&reader, 16, G_MAXUINT64 - 8, "huge", &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
  g_clear_error (&error);

  /* A sub-reader reports absolute offsets. */
  g_assert_true (terrain_reader_sub (&reader, 20, 6, "inner", &sub, &error));
  g_assert_true (terrain_reader_read_u32 (&sub, &u32, &error));
  g_assert_false (terrain_reader_read_u32 (&sub, &u32, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (error->message, "inner"));
  g_assert_nonnull (strstr (error->message, "offset 24"));
  g_clear_error (&error);

  g_assert_false (terrain_reader_seek (&reader, 40, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
}

static void
test_writer (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  static const guint8 expected[] = {
    0xaa, 0x34, 0x12, 0xef, 0xbe, 0xad, 0xde, 0x00, 0x00, 0x02, 0x00, 0x01, 0x00,
  };
  static const guint16 words[] = { 2, 1 };
  TerrainWriter writer;
  const guint8 *data;
  gsize size;

  terrain_writer_init (&writer, 0);
  terrain_writer_put_u8 (&writer, 0xaa);
  terrain_writer_put_u16 (&writer, 0x1234);
  terrain_writer_put_u32 (&writer, 0);
  terrain_writer_put_zeros (&writer, 2);
  terrain_writer_put_u16_array (&writer, words, G_N_ELEMENTS (words));
  g_assert_true (terrain_writer_patch_u32 (&writer, 3, 0xdeadbeef));
  g_assert_cmpuint (terrain_writer_tell (&writer), ==, sizeof expected);

  bytes = terrain_writer_finish (&writer, &error);
  g_assert_no_error (error);
  data = g_bytes_get_data (bytes, &size);
  g_assert_cmpmem (data, size, expected, sizeof expected);
}

static void
test_limits (void)
{
  g_autoptr(TerrainLimits) limits = terrain_limits_new ();
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (limits->max_cells_per_side, ==, 8192);
  g_assert_cmpuint (limits->max_tiles, ==, 1024 * 1024);
  g_assert_cmpuint (limits->max_features, ==, 65536);

  g_assert_true (terrain_limits_check_alloc (limits, 1000, 1024, "tiles", "TNT", 0x18, &error));
  g_assert_false (terrain_limits_check_alloc (limits, G_MAXUINT64 / 2, 4, "tiles", "TNT", 0x18,
                                              &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
  g_assert_nonnull (strstr (error->message, "byte offset 24"));
  g_clear_error (&error);

  limits->max_allocation = 4096;
  g_assert_false (terrain_limits_check_alloc (limits, 5, 1024, "tiles", "TNT", 0x18, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
  g_clear_error (&error);

  g_assert_false (terrain_limits_check_count (limits, 70000, limits->max_features, "feature",
                                              "TNT header", 0x1c, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
}

static GBytes *
bytes_with_prefix (const void *prefix,
                   gsize       prefix_size,
                   gsize       total)
{
  guint8 *data = g_malloc0 (total);

  memcpy (data, prefix, MIN (prefix_size, total));
  return g_bytes_new_take (data, total);
}

static void
test_format_detect (void)
{
  static const guint8 tnt[] = { 0x00, 0x20, 0x00, 0x00 };
  static const guint8 legacy[] = { 0x20, 0x10, 0x00, 0x00 };
  static const guint8 sct[] = { 0x03, 0x00, 0x00, 0x00 };
  g_autoptr(GBytes) tnt_bytes = bytes_with_prefix (tnt, 4, 64);
  g_autoptr(GBytes) legacy_bytes = bytes_with_prefix (legacy, 4, 64);
  g_autoptr(GBytes) sct_bytes = bytes_with_prefix (sct, 4, 64);
  g_autoptr(GBytes) atlas = bytes_with_prefix ("ATLS", 4, 64);
  g_autoptr(GBytes) chu = bytes_with_prefix ("CHU3", 4, 64);
  g_autoptr(GBytes) tqt = bytes_with_prefix ("tqt\0", 4, 64);
  g_autoptr(GBytes) hpi = bytes_with_prefix ("HAPI", 4, 64);
  g_autoptr(GBytes) dat1 = bytes_with_prefix ("1TAD", 4, 64);
  g_autoptr(GBytes) junk = bytes_with_prefix ("junk", 4, 64);

  g_assert_cmpint (terrain_format_detect (tnt_bytes, NULL), ==, TERRAIN_FORMAT_TNT);
  g_assert_cmpint (terrain_format_detect (legacy_bytes, "x.TNT"), ==, TERRAIN_FORMAT_TNT);
  g_assert_cmpint (terrain_format_detect (sct_bytes, "a.sct"), ==, TERRAIN_FORMAT_SCT);
  g_assert_cmpint (terrain_format_detect (sct_bytes, NULL), ==, TERRAIN_FORMAT_SCT);
  /* A TNT misnamed .sct is still a TNT; magic beats extension. */
  g_assert_cmpint (terrain_format_detect (tnt_bytes, "misnamed.sct"), ==, TERRAIN_FORMAT_TNT);
  g_assert_cmpint (terrain_format_detect (atlas, "a.tnt"), ==, TERRAIN_FORMAT_ATLAS);
  g_assert_cmpint (terrain_format_detect (chu, NULL), ==, TERRAIN_FORMAT_CHU);
  g_assert_cmpint (terrain_format_detect (tqt, NULL), ==, TERRAIN_FORMAT_TQT);
  g_assert_cmpint (terrain_format_detect (hpi, "maps.ufo"), ==, TERRAIN_FORMAT_HPI);
  g_assert_cmpint (terrain_format_detect (dat1, NULL), ==, TERRAIN_FORMAT_DAT1);
  g_assert_cmpint (terrain_format_detect (junk, "terrain.ter"), ==, TERRAIN_FORMAT_TER);
  g_assert_cmpint (terrain_format_detect (junk, "x.gp3"), ==, TERRAIN_FORMAT_HPI);
  g_assert_cmpint (terrain_format_detect (junk, "x.CCX"), ==, TERRAIN_FORMAT_HPI);
  g_assert_cmpint (terrain_format_detect (junk, NULL), ==, TERRAIN_FORMAT_UNKNOWN);
  g_assert_cmpint (terrain_format_detect (NULL, "x.atlas"), ==, TERRAIN_FORMAT_ATLAS);
  g_assert_cmpint (terrain_format_detect (NULL, "dir.tnt/file"), ==, TERRAIN_FORMAT_UNKNOWN);

  g_assert_cmpstr (terrain_format_get_name (TERRAIN_FORMAT_TNT), ==, "tnt");
  g_assert_cmpint (terrain_format_from_name ("SCT"), ==, TERRAIN_FORMAT_SCT);
  g_assert_true (g_strv_contains ((const char * const *) terrain_format_get_extensions (TERRAIN_FORMAT_HPI),
                                  "ufo"));
  g_assert_true (terrain_format_can_load (TERRAIN_FORMAT_TNT));
  g_assert_true (terrain_format_can_load (TERRAIN_FORMAT_SCT));
}

static void
test_load_unknown (void)
{
  g_autoptr(GBytes) junk = bytes_with_prefix ("junk", 4, 64);
  g_autoptr(GBytes) atlas = bytes_with_prefix ("ATLS", 4, 64);
  g_autoptr(GError) error = NULL;
  TerrainDocument *document;

  document = terrain_document_load_bytes (junk, "junk.bin", TERRAIN_FORMAT_UNKNOWN, NULL, &error);
  g_assert_null (document);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNKNOWN_FORMAT);
  g_assert_nonnull (strstr (error->message, "junk.bin"));
  g_clear_error (&error);

  if (!terrain_format_can_load (TERRAIN_FORMAT_ATLAS))
    {
      document = terrain_document_load_bytes (atlas, "a.atlas", TERRAIN_FORMAT_UNKNOWN, NULL,
                                              &error);
      g_assert_null (document);
      g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
    }
}

/* A document class that reads nothing: the base constructor refuses it. */
typedef struct { TerrainDocument parent_instance; } TestUnreadable;
typedef struct { TerrainDocumentClass parent_class; } TestUnreadableClass;
GType test_unreadable_get_type (void);
G_DEFINE_TYPE (TestUnreadable, test_unreadable, TERRAIN_TYPE_DOCUMENT)
static void test_unreadable_class_init (TestUnreadableClass *klass) {}
static void test_unreadable_init (TestUnreadable *self) {}

/* terrain_document_new_from_bytes() is every format's constructor: the
 * class's parse reads the bytes, the class names the format, and the
 * document keeps the very bytes it was given. */
static void
test_new_from_bytes (void)
{
  g_autoptr(TerrainTntMap) blank = terrain_tnt_map_new (32, 16, NULL);
  g_autoptr(GBytes) tnt = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (blank), NULL);
  g_autoptr(GBytes) chu = terrain_test_chu3 (2);
  g_autoptr(GBytes) tqt = terrain_test_tqt (2);
  g_autoptr(GBytes) ter = terrain_test_ter (3, TRUE, 0);
  g_autoptr(TerrainHeightfield) field = terrain_heightfield_new (16, 16, 1.0, NULL);
  g_autoptr(TerrainTer7File) made = terrain_ter7_file_new_from_heightfield (field, 0.0, NULL, NULL);
  g_autoptr(GBytes) ter7 = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (made), NULL);
  g_autoptr(TerrainTestDat1) plane = terrain_test_dat1_plane ();
  g_autoptr(GBytes) model = terrain_test_dat1_layout (plane);
  static const char ota_text[] = "[GlobalHeader]\r\n{\r\n\tmissionname=Test;\r\n}\r\n";
  g_autoptr(GBytes) ota = g_bytes_new_static (ota_text, sizeof ota_text - 1);
  g_autoptr(GBytes) junk = g_bytes_new_static ("\x01\x02\x03", 3);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) unreadable = NULL;
  const struct {
    GType type;
    GBytes *bytes;
    TerrainFormat format;
  } cases[] = {
    { TERRAIN_TYPE_TNT_MAP, tnt, TERRAIN_FORMAT_TNT },
    { TERRAIN_TYPE_CHU_FILE, chu, TERRAIN_FORMAT_CHU },
    { TERRAIN_TYPE_TQT_FILE, tqt, TERRAIN_FORMAT_TQT },
    /* Two classes of one format: each says so itself. */
    { TERRAIN_TYPE_TER_FILE, ter, TERRAIN_FORMAT_TER },
    { TERRAIN_TYPE_TER7_FILE, ter7, TERRAIN_FORMAT_TER },
    /* A model is a DAT1: the format is inherited from the parent class. */
    { TERRAIN_TYPE_MODEL, model, TERRAIN_FORMAT_DAT1 },
    { TERRAIN_TYPE_DAT1, model, TERRAIN_FORMAT_DAT1 },
    /* One parse for every TDF class; the format is the subclass's. */
    { TERRAIN_TYPE_OTA_FILE, ota, TERRAIN_FORMAT_OTA },
    { TERRAIN_TYPE_TDF_DOCUMENT, ota, TERRAIN_FORMAT_TDF },
  };

  g_assert_nonnull (tnt);
  g_assert_nonnull (ter7);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TerrainDocument) document = NULL;
      g_autoptr(TerrainDocument) loaded = NULL;
      g_autoptr(GBytes) written = NULL;

      g_test_message ("%s", g_type_name (cases[i].type));
      document = terrain_document_new_from_bytes (cases[i].type, cases[i].bytes, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (G_OBJECT_TYPE (document) == cases[i].type);
      g_assert_cmpint (terrain_document_get_format (document), ==, cases[i].format);
      g_assert_true (terrain_document_get_source_bytes (document) == cases[i].bytes);
      g_assert_false (terrain_document_get_modified (document));
      written = terrain_document_save_to_bytes (document, &error);
      g_assert_no_error (error);
      terrain_test_assert_bytes_equal (cases[i].bytes, written);

      /* The registry reads a format through the same constructor. */
      loaded = terrain_document_load_bytes (cases[i].bytes, NULL, cases[i].format, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (terrain_document_get_format (loaded), ==, cases[i].format);

      g_assert_null (terrain_document_new_from_bytes (cases[i].type, junk, NULL, &error));
      g_assert_nonnull (error);
      g_assert_true (error->domain == TERRAIN_ERROR);
      g_clear_error (&error);
    }

  /* A class without parse reads nothing. */
  unreadable = g_object_new (test_unreadable_get_type (), NULL);
  g_assert_false (terrain_document_parse_bytes (unreadable, tnt, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "TestUnreadable"));
  g_clear_error (&error);
  g_assert_null (terrain_document_new_from_bytes (test_unreadable_get_type (), tnt, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
  g_assert_cmpint (terrain_document_get_format (unreadable), ==, TERRAIN_FORMAT_UNKNOWN);
}

static void
test_issue (void)
{
  g_autoptr(TerrainIssue) issue = NULL;
  g_autoptr(GPtrArray) issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  g_autofree char *text = NULL;
  gboolean any;
  gint x, y;

  g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_INFO);
  g_assert_false (any);

  issue = terrain_issue_new (TERRAIN_SEVERITY_WARNING, "tile map", 0x40, 3,
                             "tile index %u >= %u tiles", 9u, 4u);
  terrain_issue_set_position (issue, 3, 0);
  g_assert_true (terrain_issue_get_position (issue, &x, &y));
  g_assert_cmpint (x, ==, 3);
  text = terrain_issue_to_string (issue);
  g_assert_cmpstr (text, ==, "warning: tile map @0x40 [record 3] (x=3, y=0): tile index 9 >= 4 tiles");

  g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_INFO, NULL, -1, -1, "remark"));
  g_ptr_array_add (issues, terrain_issue_ref (issue));
  g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_WARNING);
  g_assert_true (any);
}

static void
test_image_png (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainImage) gray = terrain_image_new (TERRAIN_IMAGE_GRAY16, 3, 2, &error);
  g_autoptr(TerrainImage) rgba = terrain_image_new (TERRAIN_IMAGE_RGBA8, 2, 2, &error);
  g_autoptr(TerrainImage) back = NULL;
  g_autoptr(GBytes) png = NULL;
  guint16 *samples;
  guint8 *pixels;

  g_assert_no_error (error);
  samples = (guint16 *) terrain_image_get_data (gray, NULL);
  for (guint i = 0; i < 6; i++)
    samples[i] = (guint16) (i * 257 * 40 + 1);

  png = terrain_image_save_png_bytes (gray, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (png, NULL), 8, "\x89PNG\r\n\x1a\n", 8);
  back = terrain_image_load_png_bytes (png, &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_image_get_format (back), ==, TERRAIN_IMAGE_GRAY16);
  g_assert_cmpuint (terrain_image_get_width (back), ==, 3);
  g_assert_cmpuint (terrain_image_get_height (back), ==, 2);
  g_assert_cmpmem (terrain_image_get_data (back, NULL), 12, samples, 12);
  g_clear_pointer (&back, terrain_image_unref);
  g_clear_pointer (&png, g_bytes_unref);

  pixels = terrain_image_get_data (rgba, NULL);
  for (guint i = 0; i < 16; i++)
    pixels[i] = (guint8) (i * 16);
  png = terrain_image_save_png_bytes (rgba, &error);
  g_assert_no_error (error);
  back = terrain_image_load_png_bytes (png, &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_image_get_format (back), ==, TERRAIN_IMAGE_RGBA8);
  g_assert_cmpmem (terrain_image_get_data (back, NULL), 16, pixels, 16);
  g_clear_pointer (&back, terrain_image_unref);

  /* Not a PNG, and a truncated PNG: errors, not crashes. */
  {
    g_autoptr(GBytes) junk = g_bytes_new_static ("not a png at all", 16);
    g_autoptr(GBytes) cut = g_bytes_new_from_bytes (png, 0, g_bytes_get_size (png) / 2);

    back = terrain_image_load_png_bytes (junk, &error);
    g_assert_null (back);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC);
    g_clear_error (&error);

    back = terrain_image_load_png_bytes (cut, &error);
    g_assert_null (back);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    g_clear_error (&error);
  }

  g_assert_null (terrain_image_new (TERRAIN_IMAGE_RGBA8, 0, 5, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
}

static void
test_palette (void)
{
  guint8 pal[1024];
  guint8 *pcx;
  gsize pcx_size = 128 + 10 + 1 + 768;
  g_autoptr(GBytes) pal_bytes = NULL;
  g_autoptr(GBytes) pcx_bytes = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GBytes) bad = g_bytes_new_static ("short", 5);
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(TerrainPalette) from_pcx = NULL;
  g_autoptr(GError) error = NULL;
  guint8 r, g, b;

  for (guint i = 0; i < 256; i++)
    {
      pal[4 * i] = (guint8) i;
      pal[4 * i + 1] = (guint8) (255 - i);
      pal[4 * i + 2] = (guint8) (i / 2);
      pal[4 * i + 3] = (guint8) (i % 7);  /* "unused" byte, must survive */
    }
  /* A duplicate colour: the first exact match wins. */
  memcpy (pal + 4 * 200, pal + 4 * 10, 3);

  pal_bytes = g_bytes_new (pal, sizeof pal);
  palette = terrain_palette_new_from_bytes (pal_bytes, &error);
  g_assert_no_error (error);
  terrain_palette_get_color (palette, 7, &r, &g, &b);
  g_assert_cmpuint (r, ==, 7);
  g_assert_cmpuint (g, ==, 248);
  g_assert_cmpuint (b, ==, 3);
  g_assert_cmpuint (terrain_palette_nearest (palette, 10, 245, 5), ==, 10);
  g_assert_cmpuint (terrain_palette_nearest (palette, 11, 244, 5), ==, 11);
  written = terrain_palette_to_pal_bytes (palette);
  g_assert_true (g_bytes_equal (written, pal_bytes));

  pcx = g_malloc0 (pcx_size);
  pcx[0] = 0x0A;
  pcx[pcx_size - 769] = 0x0C;
  for (guint i = 0; i < 256; i++)
    memcpy (pcx + pcx_size - 768 + 3 * i, pal + 4 * i, 3);
  pcx_bytes = g_bytes_new_take (pcx, pcx_size);
  from_pcx = terrain_palette_new_from_bytes (pcx_bytes, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (terrain_palette_get_rgba_table (from_pcx), 1024,
                   terrain_palette_get_rgba_table (palette), 1024);

  g_assert_null (terrain_palette_new_from_bytes (bad, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC);
}

static char *
make_temp_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("terrain-test-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static guint
count_dir_entries (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  guint n = 0;

  while (g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

static void
test_atomic_save (void)
{
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = g_build_filename (dir, "map.bin", NULL);
  g_autofree char *link = g_build_filename (dir, "link.bin", NULL);
  g_autofree char *blocked = g_build_filename (path, "child.bin", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) link_file = g_file_new_for_path (link);
  g_autoptr(GFile) blocked_file = g_file_new_for_path (blocked);
  g_autoptr(GBytes) first = g_bytes_new_static ("original contents", 17);
  g_autoptr(GBytes) second = g_bytes_new_static ("new", 3);
  g_autoptr(GBytes) loaded = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (terrain_file_save_bytes (file, first, NULL, &error));
  g_assert_no_error (error);
  loaded = terrain_file_load_bytes (file, NULL, &error);
  g_assert_true (g_bytes_equal (loaded, first));
  g_clear_pointer (&loaded, g_bytes_unref);

  /* A destination that cannot be written (its parent is a file) fails with
   * an I/O error naming the file; nothing else changes. */
  g_assert_false (terrain_file_save_bytes (blocked_file, second, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "child.bin"));
  g_clear_error (&error);
  loaded = terrain_file_load_bytes (file, NULL, &error);
  g_assert_true (g_bytes_equal (loaded, first));
  g_clear_pointer (&loaded, g_bytes_unref);

  /* Saving through a symbolic link replaces the target, keeps the link. */
  g_assert_cmpint (symlink ("map.bin", link), ==, 0);
  g_assert_true (terrain_file_save_bytes (link_file, second, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  loaded = terrain_file_load_bytes (file, NULL, &error);
  g_assert_true (g_bytes_equal (loaded, second));

  /* No temporary files are left behind. */
  g_assert_cmpuint (count_dir_entries (dir), ==, 2);

  g_unlink (link);
  g_unlink (path);
  g_rmdir (dir);
}

/* Files under 64 KiB are read, larger ones mapped: both give the file's
 * bytes, at and around the boundary and for an empty file. */
static void
test_load_sizes (void)
{
  static const gsize sizes[] = { 0, 1, 2502, 4096, 65535, 65536, 70000 };
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = g_build_filename (dir, "data.bin", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree guint8 *data = g_malloc (MAX (sizes[i], 1));
      g_autoptr(GBytes) expected = NULL;
      g_autoptr(GBytes) loaded = NULL;
      g_autoptr(GError) error = NULL;

      for (gsize k = 0; k < sizes[i]; k++)
        data[k] = (guint8) (k * 7 + i);
      expected = g_bytes_new (data, sizes[i]);
      g_assert_true (terrain_file_save_bytes (file, expected, NULL, &error));
      loaded = terrain_file_load_bytes (file, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (g_bytes_equal (loaded, expected));
    }

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_load_missing_file (void)
{
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/terrain/file.tnt");
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) document = NULL;

  document = terrain_document_load (file, NULL, NULL, &error);
  g_assert_null (document);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "file.tnt"));
}

/* The BC codec against its named reference, bcdec v0.94 (github.com/iOrange/
 * bcdec, bcdec.h at commit acc33684): the pixels bcdec_bc1(), bcdec_bc3()
 * and bcdec_bc4() give for these blocks. The endpoints are chosen where the
 * usual variants part: 565 widening by bit replication instead of
 * round(v * 255 / 31) (red 3 and 24, green 11 and 48, blue 7 and 28),
 * truncated instead of rounded thirds (140 vs 139), and alpha steps without
 * the +1 (174 vs 173) or with +3 (175). */
static void
test_bc_reference (void)
{
  /* c0 = 0xC61C (24, 48, 28), c1 = 0x1967 (3, 11, 7); rows 0 and 1 use
   * indices 0, 1, 2, 3, rows 2 and 3 indices 3, 2, 1, 0. */
  static const guint8 bc1[8] = { 0x1c, 0xc6, 0x67, 0x19, 0xe4, 0xe4, 0x1b, 0x1b };
  static const guint8 bc1_colors[4][4] = {
    { 197, 194, 230, 255 }, { 25, 45, 58, 255 }, { 140, 144, 173, 255 }, { 82, 95, 115, 255 },
  };
  /* The same endpoints swapped: three colours and transparent black. */
  static const guint8 bc1_three[8] = { 0x67, 0x19, 0x1c, 0xc6, 0xe4, 0xe4, 0x1b, 0x1b };
  static const guint8 bc1_three_colors[4][4] = {
    { 25, 45, 58, 255 }, { 197, 194, 230, 255 }, { 111, 120, 144, 255 }, { 0, 0, 0, 0 },
  };
  /* BC3: the swapped colour block stays in four-colour mode. */
  static const guint8 bc3_colors[4][4] = {
    { 25, 45, 58, 255 }, { 197, 194, 230, 255 }, { 82, 95, 115, 255 }, { 140, 144, 173, 255 },
  };
  static const guint8 alpha_201_13[8] = { 201, 13, 174, 147, 120, 93, 66, 40 };
  static const guint8 bc4_13_201[8] = { 13, 201, 50, 88, 126, 163, 0, 255 };
  guint8 rgba[16 * 4], grey[16], bc3[16] = { 201, 13 }, bc4[8] = { 13, 201 };
  guint64 indices = 0;

  terrain_bc1_decode_block (bc1, rgba, 16);
  for (guint i = 0; i < 16; i++)
    g_assert_cmpmem (rgba + 4 * i, 4, bc1_colors[i < 8 ? i % 4 : 3 - i % 4], 4);
  terrain_bc1_decode_block (bc1_three, rgba, 16);
  for (guint i = 0; i < 16; i++)
    g_assert_cmpmem (rgba + 4 * i, 4, bc1_three_colors[i < 8 ? i % 4 : 3 - i % 4], 4);

  /* Alpha and BC4 indices: pixel i uses value i % 8. */
  for (guint i = 0; i < 16; i++)
    indices |= (guint64) (i % 8) << (3 * i);
  for (guint i = 0; i < 6; i++)
    bc3[2 + i] = bc4[2 + i] = (guint8) (indices >> (8 * i));
  memcpy (bc3 + 8, bc1_three, 8);

  terrain_bc3_decode_block (bc3, rgba, 16);
  for (guint i = 0; i < 16; i++)
    {
      g_assert_cmpmem (rgba + 4 * i, 3, bc3_colors[i < 8 ? i % 4 : 3 - i % 4], 3);
      g_assert_cmpuint (rgba[4 * i + 3], ==, alpha_201_13[i % 8]);
    }

  terrain_bc4_decode_block (bc4, grey, 4);
  for (guint i = 0; i < 16; i++)
    g_assert_cmpuint (grey[i], ==, bc4_13_201[i % 8]);

  /* BC2: explicit alphas widened by 17, colours as BC3's. */
  {
    guint8 bc2[16] = { 0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe };

    memcpy (bc2 + 8, bc1_three, 8);
    terrain_bc2_decode_block (bc2, rgba, 16);
    for (guint i = 0; i < 16; i++)
      {
        g_assert_cmpmem (rgba + 4 * i, 3, bc3_colors[i < 8 ? i % 4 : 3 - i % 4], 3);
        g_assert_cmpuint (rgba[4 * i + 3], ==, 17 * i);
      }
  }
}

/* The one capped findings collector: @cap findings of a kind are listed,
 * then one summary per kind cut short, in first-seen order, with the
 * severity and section of its first finding. */
static void
test_issue_collector (void)
{
  TerrainIssueCollector found;
  g_autoptr(GPtrArray) issues = NULL;
  TerrainIssue *issue;

  terrain_issue_collector_init (&found, 2);
  for (guint i = 0; i < 5; i++)
    terrain_issue_collector_add (&found, "wide things", TERRAIN_SEVERITY_WARNING, "A", i, i,
                                 "thing %u is wide", i);
  issue = terrain_issue_collector_add (&found, "odd ends", TERRAIN_SEVERITY_INFO, "B", 9, -1,
                                       "an odd end");
  g_assert_nonnull (issue);
  for (guint i = 0; i < 3; i++)
    if (terrain_issue_collector_admit (&found, "odd ends", TERRAIN_SEVERITY_INFO, "B"))
      terrain_issue_collector_take (&found, terrain_issue_new (TERRAIN_SEVERITY_INFO, "B", i,
                                                               -1, "taken %u", i));
  g_assert_null (terrain_issue_collector_add (&found, "wide things", TERRAIN_SEVERITY_ERROR,
                                              "C", 0, 0, "one too many"));
  g_assert_cmpuint (terrain_issue_collector_count (&found, "wide things"), ==, 6);
  g_assert_cmpuint (terrain_issue_collector_count (&found, "odd ends"), ==, 4);
  g_assert_cmpuint (terrain_issue_collector_count (&found, "nothing"), ==, 0);

  issues = terrain_issue_collector_finish (&found);
  g_assert_cmpuint (issues->len, ==, 2 + 2 + 2);
  g_assert_cmpstr (terrain_issue_get_message (g_ptr_array_index (issues, 0)), ==,
                   "thing 0 is wide");
  g_assert_cmpstr (terrain_issue_get_message (g_ptr_array_index (issues, 3)), ==, "taken 0");
  issue = g_ptr_array_index (issues, 4);
  g_assert_cmpstr (terrain_issue_get_message (issue), ==,
                   "4 more findings about wide things (6 in all; only the first 2 are listed)");
  g_assert_cmpint (terrain_issue_get_severity (issue), ==, TERRAIN_SEVERITY_WARNING);
  g_assert_cmpstr (terrain_issue_get_section (issue), ==, "A");
  g_assert_cmpint (terrain_issue_get_offset (issue), ==, -1);
  issue = g_ptr_array_index (issues, 5);
  g_assert_cmpstr (terrain_issue_get_message (issue), ==,
                   "2 more findings about odd ends (4 in all; only the first 2 are listed)");
  g_assert_cmpint (terrain_issue_get_severity (issue), ==, TERRAIN_SEVERITY_INFO);

  /* 0 is the house cap. */
  terrain_issue_collector_init (&found, 0);
  for (guint i = 0; i < TERRAIN_ISSUE_CAP_PER_KIND + 1; i++)
    terrain_issue_collector_add (&found, "k", TERRAIN_SEVERITY_WARNING, NULL, -1, -1, "x");
  g_clear_pointer (&issues, g_ptr_array_unref);
  issues = terrain_issue_collector_finish (&found);
  g_assert_cmpuint (issues->len, ==, TERRAIN_ISSUE_CAP_PER_KIND + 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/Reader/scalars", test_reader_scalars);
  g_test_add_func ("/Terrain/Reader/spans", test_reader_spans);
  g_test_add_func ("/Terrain/Writer/basic", test_writer);
  g_test_add_func ("/Terrain/Limits/checks", test_limits);
  g_test_add_func ("/Terrain/Format/detect", test_format_detect);
  g_test_add_func ("/Terrain/Document/load-unknown", test_load_unknown);
  g_test_add_func ("/Terrain/Document/load-missing", test_load_missing_file);
  g_test_add_func ("/Terrain/Document/new-from-bytes", test_new_from_bytes);
  g_test_add_func ("/Terrain/Issue/basic", test_issue);
  g_test_add_func ("/Terrain/Issue/collector", test_issue_collector);
  g_test_add_func ("/Terrain/Image/png", test_image_png);
  g_test_add_func ("/Terrain/Palette/pal-and-pcx", test_palette);
  g_test_add_func ("/Terrain/IO/atomic-save", test_atomic_save);
  g_test_add_func ("/Terrain/IO/load-sizes", test_load_sizes);
  g_test_add_func ("/Terrain/Bc/reference-vectors", test_bc_reference);

  return g_test_run ();
}
