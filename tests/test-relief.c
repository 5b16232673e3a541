/* test-relief.c: pictures drawn from heights
 *
 * The relief renderer (terrain-relief.c) and the documents that draw with
 * it and have no test program of their own: plain heightmaps
 * (TerrainHeightmapDocument: greyscale PNG, SRTM .hgt, raw16; detection,
 * reading, description, findings, pictures, exports, byte-exact saving and
 * the CLI on them) and the TerrainNodeLayer's quadtree map. CHU trees, TQT
 * trees and models are drawn in test-chu.c, test-tqt.c and test-model.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <glib/gstdio.h>
#include <png.h>
#include <sys/wait.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"
#include "core/terrain-relief-private.h"

/* ------------------------------------------------------------------------ */
/* Fixtures                                                                 */

/* terrain_test_hills () over @w x @h samples, row 0 at v = 0. */
static gdouble
hills_at (guint x,
          guint y,
          guint w,
          guint h)
{
  return terrain_test_hills ((x + 0.5) / w, (y + 0.5) / h);
}

/* A greyscale PNG of the hills: 16-bit (value = hills × 50000) or 8-bit
 * (× 200). */
static GBytes *
hills_png (guint    w,
           guint    h,
           gboolean sixteen)
{
  g_autoptr(TerrainImage) image = terrain_image_new (sixteen ? TERRAIN_IMAGE_GRAY16
                                                             : TERRAIN_IMAGE_GRAY8, w, h, NULL);
  guint8 *data = terrain_image_get_data (image, NULL);
  gsize stride = terrain_image_get_stride (image);
  g_autoptr(GError) error = NULL;
  GBytes *bytes;

  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        gdouble f = hills_at (x, y, w, h);

        if (sixteen)
          {
            guint16 v = (guint16) lround (f * 50000);

            memcpy (data + y * stride + 2 * x, &v, 2);
          }
        else
          data[y * stride + x] = (guint8) lround (MIN (f, 1.2) * 200);
      }
  bytes = terrain_image_save_png_bytes (image, &error);
  g_assert_no_error (error);
  return bytes;
}

/* An RGBA PNG: grey pixels (R = G = B = hills × 200), or the same with
 * blue 0 (a colour picture). */
static GBytes *
colour_png (guint    side,
            gboolean grey)
{
  g_autoptr(TerrainImage) image = terrain_image_new (TERRAIN_IMAGE_RGBA8, side, side, NULL);
  guint8 *data = terrain_image_get_data (image, NULL);
  gsize stride = terrain_image_get_stride (image);
  g_autoptr(GError) error = NULL;
  GBytes *bytes;

  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      {
        guint8 *p = data + y * stride + 4 * x;
        guint8 v = (guint8) lround (MIN (hills_at (x, y, side, side), 1.2) * 200);

        p[0] = p[1] = v;
        p[2] = grey ? v : 0;
        p[3] = 255;
      }
  bytes = terrain_image_save_png_bytes (image, &error);
  g_assert_no_error (error);
  return bytes;
}

/* A Mapbox Terrain-RGB PNG of the hills, 100 to 1300 m. */
static GBytes *
terrain_rgb_png (guint side)
{
  g_autoptr(TerrainImage) image = terrain_image_new (TERRAIN_IMAGE_RGBA8, side, side, NULL);
  guint8 *data = terrain_image_get_data (image, NULL);
  gsize stride = terrain_image_get_stride (image);
  g_autoptr(GError) error = NULL;
  GBytes *bytes;

  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      {
        guint8 *p = data + y * stride + 4 * x;
        guint32 v = (guint32) lround ((100.0 + 1000.0 * hills_at (x, y, side, side) + 10000.0) *
                                      10.0);

        p[0] = (guint8) (v >> 16);
        p[1] = (guint8) (v >> 8);
        p[2] = (guint8) v;
        p[3] = 255;
      }
  bytes = terrain_image_save_png_bytes (image, &error);
  g_assert_no_error (error);
  return bytes;
}

static void
png_append (png_structp png,
            png_bytep   data,
            png_size_t  length)
{
  g_byte_array_append (png_get_io_ptr (png), data, (guint) length);
}

static void
png_flush_none (png_structp png)
{
}

/* An Adam7-interlaced 16-bit greyscale PNG of the hills (value = hills ×
 * 50000), which terrain_image_save_png_bytes() does not write. */
static GBytes *
interlaced_png (guint w,
                guint h)
{
  GByteArray *array = g_byte_array_new ();
  g_autofree guint8 *pixels = g_malloc ((gsize) w * h * 2);
  g_autofree png_bytep *rows = g_new (png_bytep, h);
  png_structp png = png_create_write_struct (PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png_create_info_struct (png);

  g_assert_nonnull (png);
  for (guint y = 0; y < h; y++)
    {
      rows[y] = pixels + (gsize) y * w * 2;
      for (guint x = 0; x < w; x++)
        {
          guint16 v = (guint16) lround (hills_at (x, y, w, h) * 50000);

          rows[y][2 * x] = v >> 8;
          rows[y][2 * x + 1] = v & 0xff;
        }
    }
  png_set_write_fn (png, array, png_append, png_flush_none);
  png_set_IHDR (png, info, w, h, 16, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_ADAM7,
                PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info (png, info);
  png_write_image (png, rows);
  png_write_end (png, info);
  png_destroy_write_struct (&png, &info);
  return g_byte_array_free_to_bytes (array);
}

/* An SRTM tile (big-endian S16 metres = hills × 2000 − 100), with the first
 * @n_voids samples of row 10 void. */
static GBytes *
hills_hgt (guint side,
           guint n_voids)
{
  guint8 *data = g_malloc ((gsize) side * side * 2);

  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      {
        gsize i = (gsize) y * side + x;
        gint16 v = (gint16) lround (hills_at (x, y, side, side) * 2000 - 100);

        if (y == 10 && x < n_voids)
          v = -32768;
        data[2 * i] = (guint8) ((guint16) v >> 8);
        data[2 * i + 1] = (guint8) ((guint16) v & 0xff);
      }
  return g_bytes_new_take (data, (gsize) side * side * 2);
}

/* A raw16 grid (little-endian U16 = hills × 40000). */
static GBytes *
hills_raw16 (guint side)
{
  guint8 *data = g_malloc ((gsize) side * side * 2);

  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      {
        gsize i = (gsize) y * side + x;
        guint16 v = (guint16) lround (hills_at (x, y, side, side) * 40000);

        data[2 * i] = (guint8) (v & 0xff);
        data[2 * i + 1] = (guint8) (v >> 8);
      }
  return g_bytes_new_take (data, (gsize) side * side * 2);
}

static TerrainHeightmapDocument *
load (GBytes     *bytes,
      const char *name)
{
  g_autoptr(GError) error = NULL;
  TerrainDocument *document = terrain_document_load_bytes (bytes, name, TERRAIN_FORMAT_UNKNOWN,
                                                           NULL, &error);

  g_assert_no_error (error);
  g_assert_true (TERRAIN_IS_HEIGHTMAP_DOCUMENT (document));
  g_assert_cmpint (terrain_document_get_format (document), ==, TERRAIN_FORMAT_HEIGHTMAP);
  return TERRAIN_HEIGHTMAP_DOCUMENT (document);
}

static guint16
gray16_at (TerrainImage *image,
           guint         x,
           guint         y)
{
  guint16 v;

  memcpy (&v, terrain_image_get_data (image, NULL) + y * terrain_image_get_stride (image) + 2 * x,
          2);
  return v;
}

/* Where a GRAY16 image is highest, as fractions of its size. */
static void
gray16_peak (TerrainImage *image,
             gdouble      *u,
             gdouble      *v)
{
  guint w = terrain_image_get_width (image), h = terrain_image_get_height (image);
  guint best = 0, bx = 0, by = 0;

  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      if (gray16_at (image, x, y) > best)
        {
          best = gray16_at (image, x, y);
          bx = x;
          by = y;
        }
  *u = (bx + 0.5) / w;
  *v = (by + 0.5) / h;
}

/* The picture is RGBA, opaque, and not one flat colour. */
static void
assert_picture (TerrainImage *image,
                guint         width,
                guint         height)
{
  const guint8 *data = terrain_image_get_data (image, NULL);
  gsize stride = terrain_image_get_stride (image);
  g_autoptr(GHashTable) colours = g_hash_table_new (NULL, NULL);

  g_assert_cmpint (terrain_image_get_format (image), ==, TERRAIN_IMAGE_RGBA8);
  g_assert_cmpuint (terrain_image_get_width (image), ==, width);
  g_assert_cmpuint (terrain_image_get_height (image), ==, height);
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        const guint8 *p = data + y * stride + 4 * x;

        g_assert_cmpuint (p[3], ==, 255);
        g_hash_table_add (colours, GUINT_TO_POINTER ((p[0] << 16) | (p[1] << 8) | p[2]));
      }
  g_assert_cmpuint (g_hash_table_size (colours), >, 50);
}

static gboolean
has_issue (GPtrArray       *issues,
           TerrainSeverity  severity,
           const char      *needle)
{
  for (guint i = 0; i < issues->len; i++)
    {
      TerrainIssue *issue = g_ptr_array_index (issues, i);

      if (terrain_issue_get_severity (issue) == severity &&
          strstr (terrain_issue_get_message (issue), needle) != NULL)
        return TRUE;
    }
  return FALSE;
}

static JsonObject *
describe (TerrainHeightmapDocument *document,
          JsonNode                **node)
{
  *node = terrain_document_describe (TERRAIN_DOCUMENT (document));
  return json_node_get_object (*node);
}

static void
assert_saves_source (TerrainHeightmapDocument *document,
                     GBytes                   *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (document), &error);

  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (written, bytes));
  g_assert_true (terrain_document_compare_bytes (TERRAIN_DOCUMENT (document), written, NULL, NULL));
}

/* ------------------------------------------------------------------------ */
/* The relief renderer                                                      */

static void
test_relief_triangles (void)
{
  g_auto(TerrainRelief) relief = { 0 };
  g_autoptr(GError) error = NULL;
  static const gdouble a[3] = { 0, 0, 1 }, b[3] = { 8, 0, 1 }, c[3] = { 8, 8, 3 },
                       d[3] = { 0, 8, 3 }, high[3] = { 4, 4, 10 }, low[3] = { 4, 4, -5 },
                       wall_a[3] = { 2, 2, 0 }, wall_b[3] = { 2, 2, 50 }, wall_c[3] = { 6, 6, 0 };
  gfloat lo, hi;

  g_assert_true (terrain_relief_init (&relief, 8, 8, NULL, "test", &error));
  g_assert_no_error (error);
  g_assert_false (terrain_relief_get_range (&relief, &lo, &hi));

  /* Two triangles sharing an edge cover every pixel centre once. */
  terrain_relief_triangle (&relief, a, b, c);
  terrain_relief_triangle (&relief, a, c, d);
  for (guint i = 0; i < 64; i++)
    g_assert_false (isnan (relief.z[i]));
  g_assert_cmpfloat_with_epsilon (relief.z[0], 1.125, 1e-5);
  g_assert_cmpfloat_with_epsilon (relief.z[7 * 8 + 7], 2.875, 1e-5);

  /* Seen from above: the highest surface wins, a lower one is hidden. */
  terrain_relief_triangle (&relief, a, b, high);
  g_assert_cmpfloat (relief.z[1 * 8 + 4], >, 2.0f);
  terrain_relief_triangle (&relief, a, d, low);
  g_assert_cmpfloat_with_epsilon (relief.z[4 * 8 + 0], 2.125, 1e-5);
  /* A wall seen edge-on draws nothing. */
  terrain_relief_triangle (&relief, wall_a, wall_b, wall_c);
  g_assert_true (terrain_relief_get_range (&relief, &lo, &hi));
  g_assert_cmpfloat (hi, <, 10.0f);
  g_assert_cmpfloat_with_epsilon (lo, 1.375, 1e-5);
}

static void
test_relief_render (void)
{
  g_auto(TerrainRelief) relief = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainImage) picture = NULL;
  g_autoptr(TerrainImage) heights = NULL;
  const guint8 *p;
  gsize stride;
  guint west, east;

  /* A ridge along the middle column, nothing in the last row. */
  g_assert_true (terrain_relief_init (&relief, 9, 9, NULL, "test", &error));
  for (guint y = 0; y < 8; y++)
    for (guint x = 0; x < 9; x++)
      relief.z[y * 9 + x] = 100.0f - 10.0f * ABS ((gint) x - 4);

  picture = terrain_relief_render (&relief, 0.0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_image_get_format (picture), ==, TERRAIN_IMAGE_RGBA8);
  p = terrain_image_get_data (picture, NULL);
  stride = terrain_image_get_stride (picture);
  /* Empty pixels are transparent; the rest opaque. */
  g_assert_cmpuint (p[8 * stride + 3], ==, 0);
  g_assert_cmpuint (p[4 * stride + 3], ==, 255);
  /* Lit from the west (top left): the slope facing it is brighter. */
  west = p[4 * stride + 4 * 2] + p[4 * stride + 4 * 2 + 1] + p[4 * stride + 4 * 2 + 2];
  east = p[4 * stride + 4 * 6] + p[4 * stride + 4 * 6 + 1] + p[4 * stride + 4 * 6 + 2];
  g_assert_cmpuint (west, >, east);

  heights = terrain_relief_to_gray16 (&relief, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gray16_at (heights, 4, 0), ==, 65535);
  g_assert_cmpuint (gray16_at (heights, 0, 0), ==, 0);
  g_assert_cmpuint (gray16_at (heights, 2, 0), ==, 32768);
  g_assert_cmpuint (gray16_at (heights, 4, 8), ==, 0);
}

static void
test_relief_limits (void)
{
  g_autoptr(TerrainLimits) limits = terrain_limits_new ();
  g_auto(TerrainRelief) relief = { 0 };
  g_autoptr(GError) error = NULL;

  limits->max_allocation = 1000;
  g_assert_false (terrain_relief_init (&relief, 100, 100, limits, "Test picture", &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
  g_assert_true (g_str_has_prefix (error->message, "Test picture: "));
  g_assert_null (relief.z);
}

/* ------------------------------------------------------------------------ */
/* Plain heightmaps                                                         */

static void
test_heightmap_detect (void)
{
  g_autoptr(GBytes) png16 = hills_png (20, 10, TRUE);
  g_autoptr(GBytes) png8 = hills_png (20, 10, FALSE);
  g_autoptr(GBytes) colour = colour_png (16, FALSE);
  g_autoptr(GBytes) srtm = hills_hgt (1201, 0);
  g_autoptr(GBytes) odd_hgt = hills_hgt (100, 0);
  g_autoptr(GBytes) raw = hills_raw16 (65);
  g_autoptr(GBytes) odd_raw = g_bytes_new_static ("\1\2\3\4\5\6", 6);
  g_autoptr(GBytes) raw8 = g_bytes_new_take (g_malloc0 (256 * 256), 256 * 256);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) forced = NULL;

  /* Greyscale PNGs by their signature, whatever their name. */
  g_assert_cmpint (terrain_format_detect (png16, "heights.png"), ==, TERRAIN_FORMAT_HEIGHTMAP);
  g_assert_cmpint (terrain_format_detect (png8, NULL), ==, TERRAIN_FORMAT_HEIGHTMAP);
  g_assert_cmpint (terrain_format_detect (png16, "misnamed.tnt"), ==, TERRAIN_FORMAT_HEIGHTMAP);
  /* A colour PNG is a picture, not a heightmap, even named .png. */
  g_assert_cmpint (terrain_format_detect (colour, "picture.png"), ==, TERRAIN_FORMAT_UNKNOWN);
  /* SRTM tiles by extension and their exact size. */
  g_assert_cmpint (terrain_format_detect (srtm, "N44W072.HGT"), ==, TERRAIN_FORMAT_HEIGHTMAP);
  g_assert_cmpint (terrain_format_detect (odd_hgt, "x.hgt"), ==, TERRAIN_FORMAT_UNKNOWN);
  g_assert_cmpint (terrain_format_detect (srtm, NULL), ==, TERRAIN_FORMAT_UNKNOWN);
  /* Raw16 by extension and a square of 16-bit samples. */
  g_assert_cmpint (terrain_format_detect (raw, "hills.raw"), ==, TERRAIN_FORMAT_HEIGHTMAP);
  g_assert_cmpint (terrain_format_detect (raw, "hills.r16"), ==, TERRAIN_FORMAT_HEIGHTMAP);
  g_assert_cmpint (terrain_format_detect (odd_hgt, "hills.raw"), ==, TERRAIN_FORMAT_HEIGHTMAP);
  g_assert_cmpint (terrain_format_detect (raw, "hills.bin"), ==, TERRAIN_FORMAT_UNKNOWN);
  g_assert_cmpint (terrain_format_detect (odd_raw, "photo.raw"), ==, TERRAIN_FORMAT_UNKNOWN);
  /* An 8-bit 256 x 256 grid is 32768 16-bit samples: no square. */
  g_assert_cmpint (terrain_format_detect (raw8, "grid.raw"), ==, TERRAIN_FORMAT_UNKNOWN);
  /* By name only. */
  g_assert_cmpint (terrain_format_detect (NULL, "a/b.hgt"), ==, TERRAIN_FORMAT_HEIGHTMAP);
  g_assert_cmpint (terrain_format_from_name ("heightmap"), ==, TERRAIN_FORMAT_HEIGHTMAP);
  g_assert_cmpstr (terrain_format_get_name (TERRAIN_FORMAT_HEIGHTMAP), ==, "heightmap");
  g_assert_true (terrain_format_can_load (TERRAIN_FORMAT_HEIGHTMAP));
  g_assert_true (g_strv_contains (terrain_format_get_extensions (TERRAIN_FORMAT_HEIGHTMAP), "r16"));

  /* Not detected, but read when named. */
  forced = terrain_document_load_bytes (odd_hgt, "x.bin", TERRAIN_FORMAT_HEIGHTMAP, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_heightmap_document_get_source (TERRAIN_HEIGHTMAP_DOCUMENT (forced)),
                   ==, TERRAIN_HEIGHTMAP_RAW16);
}

static void
test_heightmap_png16 (void)
{
  g_autoptr(GBytes) bytes = hills_png (96, 64, TRUE);
  g_autoptr(TerrainHeightmapDocument) document = load (bytes, "heights.png");
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(TerrainImage) heights = NULL;
  g_autoptr(TerrainImage) source = NULL;
  g_autoptr(TerrainImage) picture = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  TerrainHeightfield *field;
  JsonObject *object;
  gdouble u, v;

  g_assert_cmpint (terrain_heightmap_document_get_source (document), ==, TERRAIN_HEIGHTMAP_GRAY);
  g_assert_cmpuint (terrain_heightmap_document_get_sample_bits (document), ==, 16);
  g_assert_cmpuint (terrain_heightmap_document_get_n_voids (document), ==, 0);
  field = terrain_heightmap_document_get_heightfield (document);
  g_assert_cmpuint (terrain_heightfield_get_width (field), ==, 96);

  object = describe (document, &node);
  g_assert_cmpstr (json_object_get_string_member (object, "format"), ==, "heightmap");
  g_assert_cmpstr (json_object_get_string_member (object, "source"), ==, "png");
  g_assert_cmpstr (json_object_get_string_member (object, "encoding"), ==, "gray16");
  g_assert_cmpint (json_object_get_int_member (object, "width"), ==, 96);
  g_assert_cmpint (json_object_get_int_member (object, "height"), ==, 64);
  g_assert_cmpfloat (json_object_get_double_member (object, "spacing"), ==, 1.0);
  g_assert_cmpint (json_object_get_int_member (object, "size"), ==, g_bytes_get_size (bytes));
  g_assert_cmpfloat (json_object_get_double_member (object, "max_height"), >,
                     json_object_get_double_member (object, "min_height"));
  g_assert_false (json_object_get_boolean_member (object, "atlas_ready"));

  /* The samples come back as stored. */
  heights = terrain_document_export_heights (TERRAIN_DOCUMENT (document), &error);
  g_assert_no_error (error);
  source = terrain_image_load_png_bytes (bytes, &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_image_get_format (heights), ==, TERRAIN_IMAGE_GRAY16);
  for (guint y = 0; y < 64; y++)
    for (guint x = 0; x < 96; x++)
      g_assert_cmpuint (gray16_at (heights, x, y), ==, gray16_at (source, x, y));
  /* North (row 0) up: the higher hill at (0.7, 0.35). */
  gray16_peak (heights, &u, &v);
  g_assert_cmpfloat (fabs (u - 0.7), <, 0.03);
  g_assert_cmpfloat (fabs (v - 0.35), <, 0.03);

  picture = terrain_document_render_image (TERRAIN_DOCUMENT (document), NULL, &error);
  g_assert_no_error (error);
  assert_picture (picture, 96, 64);

  issues = terrain_document_validate (TERRAIN_DOCUMENT (document));
  g_assert_true (has_issue (issues, TERRAIN_SEVERITY_INFO, "pads it to 129 x 129"));
  g_assert_cmpint (terrain_issues_max_severity (issues, NULL), ==, TERRAIN_SEVERITY_INFO);

  assert_saves_source (document, bytes);
  {
    g_autofree char *where = terrain_document_describe_offset (TERRAIN_DOCUMENT (document), 40);

    g_assert_cmpstr (where, ==, "PNG stream");
  }
}

static void
test_heightmap_png8 (void)
{
  g_autoptr(GBytes) bytes = hills_png (33, 33, FALSE);
  g_autoptr(TerrainHeightmapDocument) document = load (bytes, NULL);
  g_autoptr(TerrainImage) heights = NULL;
  g_autoptr(TerrainImage) source = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  g_assert_cmpuint (terrain_heightmap_document_get_sample_bits (document), ==, 8);
  g_assert_cmpstr (json_object_get_string_member (describe (document, &node), "encoding"), ==,
                   "gray8");
  g_assert_true (json_object_get_boolean_member (json_node_get_object (node), "atlas_ready"));

  /* 8-bit samples × 257 span 0..65535. */
  heights = terrain_document_export_heights (TERRAIN_DOCUMENT (document), &error);
  g_assert_no_error (error);
  source = terrain_image_load_png_bytes (bytes, &error);
  g_assert_no_error (error);
  for (guint y = 0; y < 33; y++)
    for (guint x = 0; x < 33; x++)
      {
        const guint8 *row = terrain_image_get_data (source, NULL) +
                            y * terrain_image_get_stride (source);

        g_assert_cmpuint (gray16_at (heights, x, y), ==, row[x] * 257u);
      }

  issues = terrain_document_validate (TERRAIN_DOCUMENT (document));
  g_assert_true (has_issue (issues, TERRAIN_SEVERITY_INFO, "256 heights"));
  /* 33 x 33 is 2^5 + 1: ready for an Atlas tree, nothing to say. */
  g_assert_false (has_issue (issues, TERRAIN_SEVERITY_INFO, "2^N+1"));
  assert_saves_source (document, bytes);
}

static void
test_heightmap_colour (void)
{
  g_autoptr(GBytes) grey = colour_png (32, TRUE);
  g_autoptr(GBytes) colour = colour_png (32, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) from_grey = NULL;
  g_autoptr(TerrainDocument) from_colour = NULL;
  g_autoptr(TerrainImage) heights = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  guint8 expected;

  /* Named, a colour PNG reads: grey pixels give their value exactly... */
  from_grey = terrain_document_load_bytes (grey, "grey.png", TERRAIN_FORMAT_HEIGHTMAP, NULL,
                                           &error);
  g_assert_no_error (error);
  heights = terrain_document_export_heights (from_grey, &error);
  g_assert_no_error (error);
  expected = (guint8) lround (MIN (hills_at (5, 7, 32, 32), 1.2) * 200);
  g_assert_cmpuint (gray16_at (heights, 5, 7), ==, expected * 257u);
  issues = terrain_document_validate (from_grey);
  g_assert_true (has_issue (issues, TERRAIN_SEVERITY_INFO, "all grey"));
  g_clear_pointer (&issues, g_ptr_array_unref);

  /* ...other colours that are neither Terrain-RGB nor Terrarium are
   * refused, naming the option that says how to read them (they were read
   * as their luminance, a silent wrong decode of Terrain-RGB tiles). */
  from_colour = terrain_document_load_bytes (colour, "colour.png", TERRAIN_FORMAT_HEIGHTMAP, NULL,
                                             &error);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_null (from_colour);
  g_assert_nonnull (strstr (error->message, "--heightmap-format"));
}

static void
test_heightmap_hgt (void)
{
  g_autoptr(GBytes) bytes = hills_hgt (1201, 5);
  g_autoptr(TerrainHeightmapDocument) document = load (bytes, "N44W072.hgt");
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(TerrainImage) heights = NULL;
  g_autoptr(TerrainImage) picture = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  TerrainHeightfield *field = terrain_heightmap_document_get_heightfield (document);
  JsonObject *object;
  gint metres;

  g_assert_cmpint (terrain_heightmap_document_get_source (document), ==, TERRAIN_HEIGHTMAP_HGT);
  g_assert_cmpuint (terrain_heightmap_document_get_n_voids (document), ==, 5);
  g_assert_cmpfloat (terrain_heightfield_get_spacing (field), ==, 90.0);

  object = describe (document, &node);
  g_assert_cmpstr (json_object_get_string_member (object, "source"), ==, "hgt");
  g_assert_cmpstr (json_object_get_string_member (object, "height_units"), ==, "metres");
  g_assert_cmpint (json_object_get_int_member (object, "voids"), ==, 5);
  g_assert_cmpfloat (json_object_get_double_member (object, "spacing"), ==, 90.0);

  /* Metres + 32768; the voids (row 10, x < 5) filled from their row. */
  heights = terrain_document_export_heights (TERRAIN_DOCUMENT (document), &error);
  g_assert_no_error (error);
  metres = (gint) lround (hills_at (600, 300, 1201, 1201) * 2000 - 100);
  g_assert_cmpint (gray16_at (heights, 600, 300), ==, metres + 32768);
  g_assert_cmpint (ABS ((gint) gray16_at (heights, 2, 10) - (gint) gray16_at (heights, 5, 10)),
                   <, 20);

  issues = terrain_document_validate (TERRAIN_DOCUMENT (document));
  g_assert_true (has_issue (issues, TERRAIN_SEVERITY_INFO, "5 void samples"));
  g_assert_cmpint (terrain_issues_max_severity (issues, NULL), ==, TERRAIN_SEVERITY_INFO);
  {
    g_autofree char *where = terrain_document_describe_offset (TERRAIN_DOCUMENT (document),
                                                               2 * (1201 * 3 + 7));

    g_assert_cmpstr (where, ==, "SRTM tile, sample (7, 3)");
  }

  picture = terrain_document_render_image (TERRAIN_DOCUMENT (document), NULL, &error);
  g_assert_no_error (error);
  assert_picture (picture, 1201, 1201);
  assert_saves_source (document, bytes);
}

/* An SRTM-sized grid in raw16 byte order reads as raw16. */
static void
test_heightmap_srtm_sized_raw (void)
{
  g_autoptr(GBytes) bytes = hills_raw16 (1201);
  g_autoptr(TerrainHeightmapDocument) document = load (bytes, "big.raw");
  g_autoptr(TerrainHeightmapDocument) unnamed = NULL;
  g_autoptr(GError) error = NULL;
  TerrainHeightfield *field;

  g_assert_cmpint (terrain_heightmap_document_get_source (document), ==, TERRAIN_HEIGHTMAP_RAW16);
  field = terrain_heightmap_document_get_heightfield (document);
  g_assert_cmpfloat (terrain_heightfield_get_sample (field, 600, 300), ==,
                     (gfloat) lround (hills_at (600, 300, 1201, 1201) * 40000));

  /* The same decision when the name says .hgt. */
  unnamed = TERRAIN_HEIGHTMAP_DOCUMENT (terrain_document_load_bytes (bytes, "tile.hgt",
                                                                     TERRAIN_FORMAT_UNKNOWN,
                                                                     NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (terrain_heightmap_document_get_source (unnamed), ==, TERRAIN_HEIGHTMAP_RAW16);
}

static void
test_heightmap_raw16 (void)
{
  g_autoptr(GBytes) bytes = hills_raw16 (65);
  g_autoptr(TerrainHeightmapDocument) document = load (bytes, "hills.r16");
  g_autoptr(TerrainImage) heights = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *raw = g_bytes_get_data (bytes, NULL);

  g_assert_cmpint (terrain_heightmap_document_get_source (document), ==, TERRAIN_HEIGHTMAP_RAW16);
  heights = terrain_document_export_heights (TERRAIN_DOCUMENT (document), &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 65 * 65; i++)
    g_assert_cmpuint (gray16_at (heights, i % 65, i / 65), ==, raw[2 * i] | (raw[2 * i + 1] << 8));

  issues = terrain_document_validate (TERRAIN_DOCUMENT (document));
  g_assert_cmpuint (issues->len, ==, 0);
  assert_saves_source (document, bytes);
  {
    g_autofree char *where = terrain_document_describe_offset (TERRAIN_DOCUMENT (document), 131);

    g_assert_cmpstr (where, ==, "Raw16 heightmap, sample (0, 1)");
  }
}

static void
test_heightmap_errors (void)
{
  g_autoptr(GBytes) odd = g_bytes_new_static ("\1\2\3\4\5\6", 6);
  g_autoptr(GBytes) voids = NULL;
  g_autoptr(GBytes) png = hills_png (16, 16, TRUE);
  g_autoptr(GBytes) cut_header = g_bytes_new_from_bytes (png, 0, 20);
  guint8 *all_void = g_malloc ((gsize) 1201 * 1201 * 2);
  g_autoptr(GError) error = NULL;

  g_assert_null (terrain_document_load_bytes (odd, "x.raw", TERRAIN_FORMAT_HEIGHTMAP, NULL,
                                              &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_true (g_str_has_prefix (error->message, "Heightmap: "));
  g_assert_nonnull (strstr (error->message, "byte offset 0"));
  g_clear_error (&error);

  for (gsize i = 0; i < (gsize) 1201 * 1201; i++)
    {
      all_void[2 * i] = 0x80;
      all_void[2 * i + 1] = 0;
    }
  voids = g_bytes_new_take (all_void, (gsize) 1201 * 1201 * 2);
  g_assert_null (terrain_document_load_bytes (voids, "N0E0.hgt", TERRAIN_FORMAT_UNKNOWN, NULL,
                                              &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_true (g_str_has_prefix (error->message, "SRTM tile: "));
  g_clear_error (&error);

  /* A PNG cut inside its header: the decoder's error at open. */
  g_assert_null (terrain_document_load_bytes (cut_header, "h.png", TERRAIN_FORMAT_UNKNOWN, NULL,
                                              &error));
  g_assert_nonnull (error);
  g_assert_true (error->domain == TERRAIN_ERROR);
}

static void
assert_decode_error (const GError *error)
{
  g_assert_nonnull (error);
  g_assert_true (error->domain == TERRAIN_ERROR);
  g_assert_cmpint (error->code, ==, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_true (g_str_has_prefix (error->message, "PNG heightmap: decoding row "));
  g_assert_nonnull (strstr (error->message, "byte offset"));
}

/* Opening reads the header only: a PNG whose image data is cut or damaged
 * opens and describes its size; decoding it (picture, heights, grid) fails
 * with an error naming the row and offset, and validate reports it. */
static void
test_heightmap_lazy_body (void)
{
  g_autoptr(GBytes) png = hills_png (40, 30, TRUE);
  gsize size = g_bytes_get_size (png);
  g_autoptr(GBytes) cut = g_bytes_new_from_bytes (png, 0, size / 2);
  guint8 *flipped = g_memdup2 (g_bytes_get_data (png, NULL), size);
  g_autoptr(GBytes) damaged = NULL;
  GBytes *cases[2];

  /* A byte inside the IDAT data (the chunk after the 33 bytes of signature
   * and IHDR, 8 bytes of length and type): its CRC no longer matches. */
  g_assert_cmpmem (flipped + 37, 4, "IDAT", 4);
  flipped[41 + 10] ^= 0x55;
  damaged = g_bytes_new_take (flipped, size);
  cases[0] = cut;
  cases[1] = damaged;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TerrainHeightmapDocument) document = load (cases[i], "cut.png");
      g_autoptr(JsonNode) node = NULL;
      g_autoptr(GPtrArray) issues = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainImage) picture = NULL;
      g_autoptr(TerrainImage) heights = NULL;
      JsonObject *object = describe (document, &node);
      gboolean found = FALSE;

      g_assert_cmpint (json_object_get_int_member (object, "width"), ==, 40);
      g_assert_cmpint (json_object_get_int_member (object, "height"), ==, 30);
      g_assert_false (json_object_has_member (object, "min_height"));
      g_assert_true (g_str_has_prefix (json_object_get_string_member (object, "error"),
                                       "PNG heightmap: decoding row "));

      picture = terrain_document_render_image (TERRAIN_DOCUMENT (document), NULL, &error);
      g_assert_null (picture);
      assert_decode_error (error);
      g_clear_error (&error);
      heights = terrain_document_export_heights (TERRAIN_DOCUMENT (document), &error);
      g_assert_null (heights);
      assert_decode_error (error);
      g_clear_error (&error);
      g_assert_null (terrain_heightmap_document_decode_heightfield (document, &error));
      assert_decode_error (error);
      g_assert_null (terrain_heightmap_document_get_heightfield (document));

      issues = terrain_document_validate (TERRAIN_DOCUMENT (document));
      g_assert_cmpint (terrain_issues_max_severity (issues, NULL), ==, TERRAIN_SEVERITY_ERROR);
      for (guint k = 0; k < issues->len; k++)
        {
          TerrainIssue *issue = g_ptr_array_index (issues, k);

          if (terrain_issue_get_severity (issue) == TERRAIN_SEVERITY_ERROR)
            {
              g_assert_cmpstr (terrain_issue_get_section (issue), ==, "PNG heightmap");
              g_assert_true (g_str_has_prefix (terrain_issue_get_message (issue),
                                               "decoding row "));
              g_assert_nonnull (strstr (terrain_issue_get_message (issue), "byte offset"));
              found = TRUE;
            }
        }
      g_assert_true (found);
      /* Saving still gives the bytes back. */
      assert_saves_source (document, cases[i]);
    }
}

/* describe's range, streamed (a PNG row by row, tiles and raw16 grids in
 * place), is the decoded grid's, for every kind of heightmap. */
static void
test_heightmap_streamed_range (void)
{
  GBytes *inputs[] = {
    hills_png (96, 64, TRUE),
    hills_png (33, 33, FALSE),
    colour_png (32, TRUE),
    terrain_rgb_png (32),
    interlaced_png (37, 23),
    interlaced_png (3, 2),
    hills_hgt (1201, 5),
    hills_raw16 (65),
  };
  const char *names[] = {
    "a.png", "b.png", "c.png", "d.png", "e.png", "f.png", "N1E1.hgt", "g.r16",
  };

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainDocument) streamed = terrain_document_load_bytes (inputs[i], names[i],
                                                                         TERRAIN_FORMAT_HEIGHTMAP,
                                                                         NULL, &error);
      g_autoptr(TerrainDocument) decoded = NULL;
      g_autoptr(JsonNode) node = NULL;
      g_autoptr(JsonNode) node_decoded = NULL;
      g_autoptr(GPtrArray) issues = NULL;
      g_autoptr(GPtrArray) issues_decoded = NULL;
      TerrainHeightfield *field;
      JsonObject *object;
      gfloat lo, hi;

      g_assert_no_error (error);
      decoded = terrain_document_load_bytes (inputs[i], names[i], TERRAIN_FORMAT_HEIGHTMAP, NULL,
                                             &error);
      g_assert_no_error (error);

      /* Streamed first: nothing decoded the grid of this one. */
      issues = terrain_document_validate (streamed);
      node = terrain_document_describe (streamed);
      object = json_node_get_object (node);

      field = terrain_heightmap_document_decode_heightfield (TERRAIN_HEIGHTMAP_DOCUMENT (decoded),
                                                             &error);
      g_assert_no_error (error);
      terrain_heightfield_get_range (field, &lo, &hi);
      g_test_message ("%s: %g .. %g", names[i], lo, hi);
      g_assert_cmpfloat (json_object_get_double_member (object, "min_height"), ==, lo);
      g_assert_cmpfloat (json_object_get_double_member (object, "max_height"), ==, hi);
      g_assert_cmpfloat (lo, <, hi);

      /* The same description and findings either way. */
      node_decoded = terrain_document_describe (decoded);
      g_assert_true (json_node_equal (node, node_decoded));
      issues_decoded = terrain_document_validate (decoded);
      g_assert_cmpuint (issues->len, ==, issues_decoded->len);
      for (guint k = 0; k < issues->len; k++)
        g_assert_cmpstr (terrain_issue_get_message (g_ptr_array_index (issues, k)), ==,
                         terrain_issue_get_message (g_ptr_array_index (issues_decoded, k)));
    }

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    g_bytes_unref (inputs[i]);
}

/* An interlaced PNG decodes pass by pass to the same grid. */
static void
test_heightmap_interlaced (void)
{
  g_autoptr(GBytes) bytes = interlaced_png (37, 23);
  g_autoptr(TerrainHeightmapDocument) document = load (bytes, "i.png");
  g_autoptr(GError) error = NULL;
  TerrainHeightfield *field = terrain_heightmap_document_decode_heightfield (document, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (terrain_heightfield_get_width (field), ==, 37);
  for (guint y = 0; y < 23; y++)
    for (guint x = 0; x < 37; x++)
      g_assert_cmpfloat (terrain_heightfield_get_sample (field, x, y), ==,
                         (gfloat) lround (hills_at (x, y, 37, 23) * 50000));
}

static void
test_heightmap_limits (void)
{
  g_autoptr(TerrainLimits) limits = terrain_limits_new ();
  g_autoptr(GBytes) raw65 = hills_raw16 (65);
  g_autoptr(GBytes) raw33 = hills_raw16 (33);
  g_autoptr(GBytes) raw200 = hills_raw16 (200);
  g_autoptr(TerrainDocument) ok = NULL;
  g_autoptr(TerrainDocument) big = NULL;
  g_autoptr(TerrainImage) picture = NULL;
  g_autoptr(TerrainImage) heights = NULL;
  g_autoptr(GError) error = NULL;

  /* A side of max_cells_per_side + 1 samples (2^N + 1) is accepted. */
  limits->max_cells_per_side = 32;
  ok = terrain_document_load_bytes (raw33, "a.raw", TERRAIN_FORMAT_UNKNOWN, limits, &error);
  g_assert_no_error (error);
  g_assert_null (terrain_document_load_bytes (raw65, "b.raw", TERRAIN_FORMAT_UNKNOWN, limits,
                                              &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
  g_clear_error (&error);

  /* The picture stays within max_image_side: the grid is averaged down by
   * a whole factor (200 x 200 by 4 to 50 x 50); the heights keep every
   * sample. */
  limits->max_cells_per_side = 8192;
  limits->max_image_side = 64;
  big = terrain_document_load_bytes (raw200, "c.raw", TERRAIN_FORMAT_UNKNOWN, limits, &error);
  g_assert_no_error (error);
  picture = terrain_document_render_image (big, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_image_get_width (picture), ==, 50);
  g_assert_cmpuint (terrain_image_get_height (picture), ==, 50);
  heights = terrain_document_export_heights (big, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_image_get_width (heights), ==, 200);

  /* An export that would pass the allocation limit is refused. */
  g_clear_object (&big);
  limits->max_allocation = 200 * 200;
  big = terrain_document_load_bytes (raw200, "c.raw", TERRAIN_FORMAT_UNKNOWN, limits, &error);
  g_assert_no_error (error);
  g_assert_null (terrain_document_export_heights (big, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
}

static void
test_heightmap_flat (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new_take (g_malloc0 (17 * 17 * 2), 17 * 17 * 2);
  g_autoptr(TerrainHeightmapDocument) document = load (bytes, "flat.raw");
  g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (document));
  g_autoptr(TerrainImage) picture = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (has_issue (issues, TERRAIN_SEVERITY_WARNING, "flat"));
  picture = terrain_document_render_image (TERRAIN_DOCUMENT (document), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_image_get_width (picture), ==, 17);
}

typedef struct
{
  int status;
  char *out;
  char *err;
} CliResult;

static void
cli_result_clear (CliResult *r)
{
  g_free (r->out);
  g_free (r->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliResult, cli_result_clear)

static CliResult
run_cli (const char *dir,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  CliResult result = { 0 };
  int wait_status = 0;
  va_list args;

  g_ptr_array_add (argv, (gpointer) g_getenv ("TERRAIN_CLI"));
  va_start (args, dir);
  for (const char *arg = va_arg (args, const char *); arg != NULL;
       arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (dir, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &result.out,
                &result.err, &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  result.status = WEXITSTATUS (wait_status);
  g_test_message ("exit %d\n%s%s", result.status, result.out, result.err);
  return result;
}

static void
write_file (const char *dir,
            const char *name,
            GBytes     *bytes)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes),
                       &error);
  g_assert_no_error (error);
}

static void
remove_files (const char *dir)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

/* terrain info, validate, roundtrip, export-image and export-heightmap on
 * every kind, as the CLI opens any file: through terrain_document_load. */
static void
test_heightmap_cli (void)
{
  static const char *names[] = { "hills.png", "N44W072.hgt", "hills.r16", "hills.raw" };
  g_autoptr(GBytes) png = hills_png (40, 30, TRUE);
  g_autoptr(GBytes) hgt = hills_hgt (1201, 3);
  g_autoptr(GBytes) raw = hills_raw16 (65);
  g_autoptr(GBytes) colour = colour_png (16, FALSE);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;

  if (g_getenv ("TERRAIN_CLI") == NULL)
    {
      g_test_skip ("TERRAIN_CLI is not set (run the test through meson)");
      return;
    }

  dir = g_dir_make_tmp ("test-relief-cli-XXXXXX", &error);
  g_assert_no_error (error);
  write_file (dir, "hills.png", png);
  write_file (dir, "N44W072.hgt", hgt);
  write_file (dir, "hills.r16", raw);
  write_file (dir, "hills.raw", raw);
  write_file (dir, "photo.png", colour);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *picture = g_strdup_printf ("%s-picture.png", names[i]);
      g_autofree char *heights = g_strdup_printf ("%s-heights.png", names[i]);

      {
        g_auto(CliResult) r = run_cli (dir, "info", "--json", names[i], NULL);

        g_assert_cmpint (r.status, ==, 0);
        g_assert_nonnull (strstr (r.out, "\"format\" : \"heightmap\""));
      }
      {
        g_auto(CliResult) r = run_cli (dir, "validate", names[i], NULL);

        g_assert_cmpint (r.status, ==, 0);
      }
      {
        g_auto(CliResult) r = run_cli (dir, "roundtrip", names[i], NULL);

        g_assert_cmpint (r.status, ==, 0);
        g_assert_nonnull (strstr (r.out, "byte-exact"));
      }
      {
        g_auto(CliResult) r = run_cli (dir, "export-image", names[i], picture, NULL);
        g_autofree char *path = g_build_filename (dir, picture, NULL);

        g_assert_cmpint (r.status, ==, 0);
        g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
      }
      {
        g_auto(CliResult) r = run_cli (dir, "export-heightmap", names[i], heights, NULL);
        g_autofree char *path = g_build_filename (dir, heights, NULL);

        g_assert_cmpint (r.status, ==, 0);
        g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
      }
    }

  /* A 16-bit PNG exports its own samples. */
  {
    g_autofree char *path = g_build_filename (dir, "hills.png-heights.png", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (path);
    g_autoptr(GBytes) written = g_file_load_bytes (file, NULL, NULL, &error);
    g_autoptr(TerrainImage) a = terrain_image_load_png_bytes (written, &error);
    g_autoptr(TerrainImage) b = terrain_image_load_png_bytes (png, &error);

    g_assert_no_error (error);
    g_assert_cmpmem (terrain_image_get_data (a, NULL), 40 * 30 * 2,
                     terrain_image_get_data (b, NULL), 40 * 30 * 2);
  }

  /* A colour picture is not opened unless named. */
  {
    g_auto(CliResult) r = run_cli (dir, "info", "photo.png", NULL);

    g_assert_cmpint (r.status, !=, 0);
    g_assert_nonnull (strstr (r.err, "heightmap"));
  }
  {
    g_auto(CliResult) r = run_cli (dir, "info", "--format", "heightmap", "photo.png", NULL);

    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "--heightmap-format"));
  }

  remove_files (dir);
}

/* ------------------------------------------------------------------------ */
/* The node layer's quadtree map                                            */

static void
pixel_at (TerrainImage *image,
          guint         x,
          guint         y,
          guint8        rgba[4])
{
  memcpy (rgba, terrain_image_get_data (image, NULL) + y * terrain_image_get_stride (image) + 4 * x,
          4);
}

static void
test_node_layer_map (void)
{
  g_autoptr(TerrainNodeLayer) layer = terrain_node_layer_new ();
  g_autoptr(TerrainNodeLayer) empty = terrain_node_layer_new ();
  g_autoptr(TerrainImage) picture = NULL;
  g_autoptr(TerrainImage) nothing = NULL;
  g_autoptr(GError) error = NULL;
  guint8 root[4], child[4], deep[4], outside[4];

  /* The root, its first child (column 0, row 0) and a level-3 node in the
   * last quarter (column 7, row 7). */
  terrain_node_layer_append (layer, terrain_node_position_from_level (0, 0, 0), 1);
  terrain_node_layer_append (layer, terrain_node_position_from_level (1, 0, 0), 2);
  terrain_node_layer_append (layer, terrain_node_position_from_level (3, 7, 7), 3);

  picture = terrain_document_render_image (TERRAIN_DOCUMENT (layer), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_image_get_width (picture), ==, 1024);
  g_assert_cmpuint (terrain_image_get_height (picture), ==, 1024);

  /* Inside each node, away from its bevel: a colour per level. */
  pixel_at (picture, 768, 256, root);
  pixel_at (picture, 256, 256, child);
  pixel_at (picture, 960, 960, deep);
  g_assert_cmpuint (root[3], ==, 255);
  g_assert_true (memcmp (root, child, 3) != 0);
  g_assert_true (memcmp (child, deep, 3) != 0);
  /* The root's bevel shades its edge. */
  pixel_at (picture, 2, 512, outside);
  g_assert_cmpuint (outside[0] + outside[1] + outside[2], !=, root[0] + root[1] + root[2]);

  /* No node, no picture: all transparent. */
  nothing = terrain_document_render_image (TERRAIN_DOCUMENT (empty), NULL, &error);
  g_assert_no_error (error);
  pixel_at (nothing, 512, 512, outside);
  g_assert_cmpuint (outside[3], ==, 0);

  /* It has no heights, and says where they are. */
  g_assert_null (terrain_document_export_heights (TERRAIN_DOCUMENT (layer), &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "TNLChunk"));
}

/* An Atlas heightfield of hills, 2^depth cells a side plus one. */
static TerrainAtlasFile *
build_hills_atlas (guint    depth,
                   gboolean textured)
{
  g_autoptr(GError) error = NULL;
  guint side = 129;
  g_autoptr(TerrainHeightfield) field = terrain_heightfield_new (side, side, 4.0, &error);
  gfloat *z = terrain_heightfield_get_data (field, NULL);
  g_autoptr(TerrainAtlasBuilder) builder = NULL;
  TerrainAtlasFile *atlas;

  g_assert_no_error (error);
  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      z[y * side + x] = (gfloat) (30.0 * sin (x * 0.1) * cos (y * 0.07));
  builder = terrain_atlas_builder_new (field);
  terrain_atlas_builder_set_tree_depth (builder, depth);
  terrain_atlas_builder_set_error (builder, 0.5);
  if (textured)
    {
      g_autoptr(TerrainImage) picture = terrain_image_new (TERRAIN_IMAGE_RGBA8, 256, 256, NULL);
      guint8 *p = terrain_image_get_data (picture, NULL);

      for (gsize i = 0; i < 256 * 256; i++)
        p[4 * i] = (guint8) i, p[4 * i + 1] = (guint8) (i >> 8), p[4 * i + 2] = 90, p[4 * i + 3] = 255;
      terrain_atlas_builder_set_texture_image (builder, picture);
      terrain_atlas_builder_set_texture_format (builder, TERRAIN_ATLAS_TEXTURE_PNG, 90);
      terrain_atlas_builder_set_tile_size (builder, 32);
      terrain_atlas_builder_set_texture_depth (builder, 4);
    }
  atlas = terrain_atlas_builder_build (builder, NULL, &error);
  g_assert_no_error (error);
  return atlas;
}

/* TerrainRenderOptions:max-level: an Atlas picture from a shallow level is
 * the same extent, drawn from fewer chunks (64 pixels a chunk side) or
 * from a shallower texture level; the default draws the finest. */
static void
test_relief_max_level (void)
{
  g_autoptr(TerrainAtlasFile) hills = build_hills_atlas (5, FALSE);
  g_autoptr(TerrainAtlasFile) textured = build_hills_atlas (3, TRUE);
  g_autoptr(TerrainRenderOptions) options = terrain_render_options_new ();
  g_autoptr(GError) error = NULL;
  guint level = 0;

  g_assert_cmpuint (terrain_render_options_get_max_level (options), ==, G_MAXUINT);
  g_assert_cmpuint (terrain_render_options_get_max_level (NULL), ==, G_MAXUINT);
  for (guint max = 0; max < 6; max++)
    {
      g_autoptr(TerrainImage) picture = NULL;
      guint expect = 64u << MIN (max, 4u);

      g_object_set (options, "max-level", max, NULL);
      g_object_get (options, "max-level", &level, NULL);
      g_assert_cmpuint (level, ==, max);
      picture = terrain_document_render_image (TERRAIN_DOCUMENT (hills), options, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (terrain_image_get_width (picture), ==, expect);
      g_assert_cmpuint (terrain_image_get_height (picture), ==, expect);
      /* Opaque relief, corner to corner. */
      g_assert_cmpuint (terrain_image_get_data (picture, NULL)[3], ==, 255);
    }
  terrain_render_options_set_max_level (options, G_MAXUINT);
  {
    g_autoptr(TerrainImage) finest = terrain_document_render_image (TERRAIN_DOCUMENT (hills),
                                                                    options, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (terrain_image_get_width (finest), ==, 64u << 4);
  }

  /* Texture tiles of 32: level 3 assembled is 256 pixels, level 1 64, the
   * root (max-level 0) its one tile. */
  for (guint max = 0; max < 4; max++)
    {
      g_autoptr(TerrainImage) picture = NULL;

      terrain_render_options_set_max_level (options, max);
      picture = terrain_document_render_image (TERRAIN_DOCUMENT (textured), options, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (terrain_image_get_width (picture), ==, 32u << max);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/Relief/triangles", test_relief_triangles);
  g_test_add_func ("/Terrain/Relief/render", test_relief_render);
  g_test_add_func ("/Terrain/Relief/max-level", test_relief_max_level);
  g_test_add_func ("/Terrain/Relief/limits", test_relief_limits);
  g_test_add_func ("/Terrain/HeightmapDocument/detect", test_heightmap_detect);
  g_test_add_func ("/Terrain/HeightmapDocument/png16", test_heightmap_png16);
  g_test_add_func ("/Terrain/HeightmapDocument/png8", test_heightmap_png8);
  g_test_add_func ("/Terrain/HeightmapDocument/colour", test_heightmap_colour);
  g_test_add_func ("/Terrain/HeightmapDocument/hgt", test_heightmap_hgt);
  g_test_add_func ("/Terrain/HeightmapDocument/srtm-sized-raw", test_heightmap_srtm_sized_raw);
  g_test_add_func ("/Terrain/HeightmapDocument/raw16", test_heightmap_raw16);
  g_test_add_func ("/Terrain/HeightmapDocument/errors", test_heightmap_errors);
  g_test_add_func ("/Terrain/HeightmapDocument/limits", test_heightmap_limits);
  g_test_add_func ("/Terrain/HeightmapDocument/lazy-body", test_heightmap_lazy_body);
  g_test_add_func ("/Terrain/HeightmapDocument/streamed-range", test_heightmap_streamed_range);
  g_test_add_func ("/Terrain/HeightmapDocument/interlaced", test_heightmap_interlaced);
  g_test_add_func ("/Terrain/HeightmapDocument/flat", test_heightmap_flat);
  g_test_add_func ("/Terrain/HeightmapDocument/cli", test_heightmap_cli);
  g_test_add_func ("/Terrain/NodeLayer/map", test_node_layer_map);

  return g_test_run ();
}
