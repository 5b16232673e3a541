/* test-heightfield.c: TerrainHeightfield and its sources
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every source is built here from its description (field-notes.md and the
 * format notes of terrain-heightfield.h): 8- and 16-bit grey PNG,
 * Terrain-RGB and Terrarium PNG, raw16, SRTM .hgt, Torque .ter, TA .tnt.
 * Real files under TERRAIN_CORPUS_DIR are read too when it exists.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"

static const char *
corpus_dir (void)
{
  const char *dir = g_getenv ("TERRAIN_CORPUS_DIR");

  return dir != NULL && g_file_test (dir, G_FILE_TEST_IS_DIR) ? dir : NULL;
}

static GBytes *
png_bytes (TerrainImage *image)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = terrain_image_save_png_bytes (image, &error);

  g_assert_no_error (error);
  return bytes;
}

static void
test_basic (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainHeightfield) field = terrain_heightfield_new (4, 3, 2.5, &error);
  gfloat rect[6 * 5];
  gfloat lo, hi;
  gsize n;
  gfloat *data;

  g_assert_no_error (error);
  g_assert_cmpuint (terrain_heightfield_get_width (field), ==, 4);
  g_assert_cmpuint (terrain_heightfield_get_height (field), ==, 3);
  g_assert_cmpfloat (terrain_heightfield_get_spacing (field), ==, 2.5);
  g_assert_false (terrain_heightfield_is_mapped (field));
  g_assert_false (terrain_heightfield_is_chunkable (field));

  data = terrain_heightfield_get_data (field, &n);
  g_assert_nonnull (data);
  g_assert_cmpuint (n, ==, 12);
  for (guint i = 0; i < n; i++)
    data[i] = (gfloat) i;
  terrain_heightfield_set_sample (field, 3, 2, -7.0f);
  g_assert_cmpfloat (terrain_heightfield_get_sample (field, 1, 1), ==, 5.0f);
  g_assert_cmpfloat (terrain_heightfield_get_sample (field, 3, 2), ==, -7.0f);

  terrain_heightfield_get_range (field, &lo, &hi);
  g_assert_cmpfloat (lo, ==, -7.0f);
  g_assert_cmpfloat (hi, ==, 10.0f);

  /* Reading past the grid repeats the last column and row. */
  terrain_heightfield_read_rect (field, 2, 1, 5, 4, rect, 6);
  g_assert_cmpfloat (rect[0], ==, 6.0f);
  g_assert_cmpfloat (rect[1], ==, 7.0f);
  g_assert_cmpfloat (rect[2], ==, 7.0f);
  g_assert_cmpfloat (rect[4], ==, 7.0f);
  g_assert_cmpfloat (rect[6 + 1], ==, -7.0f);
  g_assert_cmpfloat (rect[3 * 6 + 3], ==, -7.0f);

  g_assert_cmpfloat_with_epsilon (terrain_heightfield_sample_bilinear (field, 0.5, 0.5), 2.5,
                                  1e-9);

  /* Bad sizes and spacings. */
  g_assert_null (terrain_heightfield_new (0, 3, 1.0, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
  g_clear_error (&error);
  g_assert_null (terrain_heightfield_new (3, 3, -1.0, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
}

static void
test_gray (void)
{
  g_autoptr(TerrainImage) image8 = terrain_image_new (TERRAIN_IMAGE_GRAY8, 5, 4, NULL);
  g_autoptr(TerrainImage) image16 = terrain_image_new (TERRAIN_IMAGE_GRAY16, 5, 4, NULL);
  g_autoptr(GBytes) bytes8 = NULL;
  g_autoptr(GBytes) bytes16 = NULL;
  g_autoptr(TerrainHeightfield) field8 = NULL;
  g_autoptr(TerrainHeightfield) field16 = NULL;
  g_autoptr(TerrainHeightfieldOptions) options = terrain_heightfield_options_new ();
  g_autoptr(GError) error = NULL;
  guint8 *p8 = terrain_image_get_data (image8, NULL);
  guint8 *p16 = terrain_image_get_data (image16, NULL);

  for (guint y = 0; y < 4; y++)
    for (guint x = 0; x < 5; x++)
      {
        guint16 v = (guint16) (x * 1000 + y * 17 + 30000);

        p8[y * terrain_image_get_stride (image8) + x] = (guint8) (x * 50 + y);
        memcpy (p16 + y * terrain_image_get_stride (image16) + 2 * x, &v, 2);
      }
  bytes8 = png_bytes (image8);
  bytes16 = png_bytes (image16);
  g_assert_cmpint (terrain_heightmap_format_detect (bytes8, NULL), ==, TERRAIN_HEIGHTMAP_GRAY);
  g_assert_cmpint (terrain_heightmap_format_detect (NULL, "a/b.PNG"), ==, TERRAIN_HEIGHTMAP_GRAY);

  options->vertical_scale = 0.5;
  options->vertical_offset = 10.0;
  options->spacing = 3.0;
  field8 = terrain_heightfield_new_from_bytes (bytes8, "h.png", options, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_heightfield_get_width (field8), ==, 5);
  g_assert_cmpuint (terrain_heightfield_get_height (field8), ==, 4);
  g_assert_cmpfloat (terrain_heightfield_get_spacing (field8), ==, 3.0);
  g_assert_cmpfloat (terrain_heightfield_get_sample (field8, 2, 3), ==, (100 + 3) * 0.5f + 10.0f);

  options->vertical_offset = -32768.0;
  options->vertical_scale = 1.0;
  field16 = terrain_heightfield_new_from_bytes (bytes16, NULL, options, &error);
  g_assert_no_error (error);
  /* 16-bit greyscale keeps the decoded image as its storage. */
  g_assert_null (terrain_heightfield_get_data (field16, NULL));
  g_assert_cmpfloat (terrain_heightfield_get_sample (field16, 4, 1), ==, 4000 + 17 - 2768.0f);
  {
    gfloat row[5];

    terrain_heightfield_read_rect (field16, 0, 2, 5, 1, row, 5);
    for (guint x = 0; x < 5; x++)
      g_assert_cmpfloat (row[x], ==, (gfloat) (x * 1000.0 + 34 + 30000 - 32768));
  }

  /* No-data values are filled from their neighbours. */
  options->vertical_offset = 0.0;
  options->nodata = 50 + 1;   /* (1, 1) of the 8-bit image */
  g_clear_object (&field8);
  field8 = terrain_heightfield_new_from_bytes (bytes8, "h.png", options, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (terrain_heightfield_get_sample (field8, 1, 1), 51.0, 1e-4);
}

static void
test_rgb (void)
{
  g_autoptr(TerrainImage) image = terrain_image_new (TERRAIN_IMAGE_RGBA8, 2, 1, NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainHeightfield) mapbox = NULL;
  g_autoptr(TerrainHeightfield) terrarium = NULL;
  g_autoptr(TerrainHeightfield) gray = NULL;
  g_autoptr(TerrainHeightfieldOptions) options = terrain_heightfield_options_new ();
  g_autoptr(GError) error = NULL;
  guint8 *p = terrain_image_get_data (image, NULL);
  /* Terrain-RGB 1234.5 m: (1234.5 + 10000) × 10 = 112345 = 1·65536 + 182·256 + 217. */
  const guint8 px0[4] = { 1, 182, 217, 255 };
  /* Terrarium 1234.5 m: 1234.5 + 32768 = 34002.5 = 132·256 + 210 + 128/256. */
  const guint8 px1[4] = { 132, 210, 128, 255 };

  memcpy (p, px0, 4);
  memcpy (p + 4, px1, 4);
  bytes = png_bytes (image);

  options->format = TERRAIN_HEIGHTMAP_TERRAIN_RGB;
  mapbox = terrain_heightfield_new_from_bytes (bytes, "t.png", options, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (terrain_heightfield_get_sample (mapbox, 0, 0), 1234.5, 1e-3);

  options->format = TERRAIN_HEIGHTMAP_TERRARIUM;
  terrarium = terrain_heightfield_new_from_bytes (bytes, "t.png", options, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (terrain_heightfield_get_sample (terrarium, 1, 0), 1234.5, 1e-3);

  /* A colour image is not a grey heightmap. */
  options->format = TERRAIN_HEIGHTMAP_AUTO;
  gray = terrain_heightfield_new_from_bytes (bytes, "t.png", options, &error);
  g_assert_null (gray);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);

  g_assert_cmpint (terrain_heightmap_format_from_name ("Terrain-RGB"), ==,
                   TERRAIN_HEIGHTMAP_TERRAIN_RGB);
  g_assert_cmpint (terrain_heightmap_format_from_name ("terrarium"), ==,
                   TERRAIN_HEIGHTMAP_TERRARIUM);
  g_assert_cmpint (terrain_heightmap_format_from_name ("nonsense"), ==, TERRAIN_HEIGHTMAP_AUTO);
}

static GBytes *
raw16 (guint width,
       guint height)
{
  guint8 *data = g_malloc ((gsize) width * height * 2);

  for (guint i = 0; i < width * height; i++)
    {
      data[2 * i] = (guint8) (i * 7);
      data[2 * i + 1] = (guint8) (i >> 3);
    }
  return g_bytes_new_take (data, (gsize) width * height * 2);
}

static void
test_raw16 (void)
{
  g_autoptr(GBytes) square = raw16 (5, 5);
  g_autoptr(GBytes) wide = raw16 (4, 3);
  g_autoptr(GBytes) odd = g_bytes_new_static ("abc", 3);
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(TerrainHeightfieldOptions) options = terrain_heightfield_options_new ();
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (terrain_heightmap_format_detect (square, "x.r16"), ==,
                   TERRAIN_HEIGHTMAP_RAW16);
  field = terrain_heightfield_new_from_bytes (square, "x.raw", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (terrain_heightfield_is_mapped (field));
  g_assert_cmpuint (terrain_heightfield_get_width (field), ==, 5);
  g_assert_true (terrain_heightfield_is_chunkable (field));
  g_assert_cmpfloat (terrain_heightfield_get_sample (field, 2, 3), ==,
                     (gfloat) ((guint8) (17 * 7) | ((17 >> 3) << 8)));
  g_clear_object (&field);

  /* 12 samples are no square; give the width, or both sides. */
  field = terrain_heightfield_new_from_raw16 (wide, NULL, &error);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  options->raw_width = 4;
  options->vertical_scale = 0.25;
  field = terrain_heightfield_new_from_raw16 (wide, options, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_heightfield_get_height (field), ==, 3);
  g_assert_cmpfloat (terrain_heightfield_get_sample (field, 3, 2), ==,
                     (gfloat) ((guint8) (11 * 7) | ((11 >> 3) << 8)) * 0.25f);
  g_clear_object (&field);
  options->raw_width = 3;
  options->raw_height = 3;
  field = terrain_heightfield_new_from_raw16 (wide, options, &error);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "3 x 3"));
  g_clear_error (&error);

  field = terrain_heightfield_new_from_raw16 (odd, NULL, &error);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
}

static void
test_hgt (void)
{
  const guint side = 1201;
  guint8 *data = g_malloc ((gsize) side * side * 2);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(GError) error = NULL;

  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      {
        gint16 v = (gint16) (x + 2 * y - 100);
        gsize i = (gsize) y * side + x;

        /* A void block in the middle, one on the west edge. */
        if ((x >= 600 && x < 604 && y >= 300 && y < 303) || (x < 2 && y == 700))
          v = -32768;
        data[2 * i] = (guint8) ((guint16) v >> 8);
        data[2 * i + 1] = (guint8) v;
      }
  bytes = g_bytes_new_take (data, (gsize) side * side * 2);

  g_assert_cmpint (terrain_heightmap_format_detect (bytes, "N44W072.hgt"), ==,
                   TERRAIN_HEIGHTMAP_HGT);
  field = terrain_heightfield_new_from_bytes (bytes, "N44W072.hgt", NULL, &error);
  g_assert_no_error (error);
  g_assert_false (terrain_heightfield_is_mapped (field));
  g_assert_cmpuint (terrain_heightfield_get_width (field), ==, side);
  g_assert_cmpfloat (terrain_heightfield_get_spacing (field), ==, 90.0);
  g_assert_cmpfloat (terrain_heightfield_get_sample (field, 10, 20), ==, 10 + 40 - 100);
  /* The surface is a plane, so filled voids lie on it. */
  g_assert_cmpfloat_with_epsilon (terrain_heightfield_get_sample (field, 601, 301),
                                  601 + 602 - 100, 1e-3);
  g_assert_cmpfloat_with_epsilon (terrain_heightfield_get_sample (field, 0, 700),
                                  1400 - 100 + 2, 2.0 + 1e-3);

  /* Without voids the tile is read in place. */
  {
    static const guint8 plain[18] = { 0, 1, 0, 2, 0, 3, 0xff, 0xfe, 1, 0, 0, 5, 0, 6, 0, 7, 0, 8 };
    g_autoptr(GBytes) small = g_bytes_new_static (plain, sizeof plain);
    g_autoptr(TerrainHeightfield) mapped = terrain_heightfield_new_from_hgt (small, NULL, &error);
    gfloat row[3];

    g_assert_no_error (error);
    g_assert_true (terrain_heightfield_is_mapped (mapped));
    g_assert_cmpfloat (terrain_heightfield_get_spacing (mapped), ==, 1.0);
    g_assert_cmpfloat (terrain_heightfield_get_sample (mapped, 0, 1), ==, -2.0f);
    terrain_heightfield_read_rect (mapped, 0, 1, 3, 1, row, 3);
    g_assert_cmpfloat (row[0], ==, -2.0f);
    g_assert_cmpfloat (row[1], ==, 256.0f);
    g_assert_cmpfloat (row[2], ==, 5.0f);
  }

  {
    g_autoptr(GBytes) bad = g_bytes_new_static ("abcdef", 6);

    g_assert_null (terrain_heightfield_new_from_hgt (bad, NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  }
}

static void
test_fill_voids (void)
{
  g_autoptr(TerrainHeightfieldOptions) options = terrain_heightfield_options_new ();
  g_autoptr(GError) error = NULL;
  guint8 all_void[2 * 2 * 2] = { 0 };
  g_autoptr(GBytes) bytes = NULL;

  /* Every sample void: an error, not a made-up surface. */
  for (guint i = 0; i < 4; i++)
    all_void[2 * i] = 7;
  bytes = g_bytes_new (all_void, 8);
  options->nodata = 7;
  g_assert_null (terrain_heightfield_new_from_raw16 (bytes, options, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
}

static void
test_ter (void)
{
  g_autoptr(GBytes) bytes = terrain_test_ter (3, TRUE, 0);
  g_autoptr(TerrainTerFile) ter = NULL;
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) loaded = NULL;
  g_autofree char *script = NULL;
  gboolean any;
  gsize offset, size;

  g_assert_cmpint (terrain_format_detect (bytes, "m.ter"), ==, TERRAIN_FORMAT_TER);
  g_assert_true (terrain_format_can_load (TERRAIN_FORMAT_TER));
  loaded = terrain_document_load_bytes (bytes, "m.ter", TERRAIN_FORMAT_UNKNOWN, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (TERRAIN_IS_TER_FILE (loaded));

  ter = terrain_ter_file_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_ter_file_get_version (ter), ==, 3);
  g_assert_cmpuint (terrain_ter_file_get_height (ter, 5, 7), ==, 5 * 32 + 21);
  g_assert_cmpuint (terrain_ter_file_get_material (ter, 0, 0), ==, 2);
  g_assert_cmpstr (terrain_ter_file_get_material_name (ter, 0), ==, "grass");
  g_assert_null (terrain_ter_file_get_material_name (ter, 1));
  g_assert_cmpuint (terrain_ter_file_get_n_alpha_maps (ter), ==, 2);
  g_assert_cmpuint (terrain_ter_file_get_alpha_map (ter, 1, &size)[3], ==, 252);
  g_assert_cmpuint (size, ==, 65536);
  script = terrain_ter_file_dup_height_script (ter);
  g_assert_cmpstr (script, ==, "General\ttab");
  g_assert_true (terrain_ter_file_get_section_span (ter, TERRAIN_TER_SECTION_ALPHA_MAPS,
                                                    &offset, &size));
  g_assert_cmpuint (offset, ==, 1 + 131072 + 65536 + 8 + 5 + 4);
  g_assert_cmpuint (size, ==, 131072);

  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ter), &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (written, bytes));
  issues = terrain_document_validate (TERRAIN_DOCUMENT (ter));
  g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_INFO);

  /* Metres = value / 32; 257 samples a side, wrapping; rows north first. */
  field = terrain_ter_file_to_heightfield (ter, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_heightfield_get_width (field), ==, 257);
  g_assert_true (terrain_heightfield_is_chunkable (field));
  g_assert_cmpfloat (terrain_heightfield_get_spacing (field), ==, 8.0);
  g_assert_cmpfloat (terrain_heightfield_get_sample (field, 5, 256 - 7), ==, (5 * 32 + 21) / 32.0f);
  g_assert_cmpfloat (terrain_heightfield_get_sample (field, 256, 256),
                     ==, terrain_heightfield_get_sample (field, 0, 0));
  g_assert_cmpfloat (terrain_heightfield_get_sample (field, 3, 0),
                     ==, terrain_heightfield_get_sample (field, 3, 256));
  g_clear_object (&field);

  field = terrain_heightfield_new_from_bytes (bytes, "m.ter", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (terrain_heightfield_get_sample (field, 9, 255), ==, (9 * 32 + 3) / 32.0f);

  /* An edit rewrites only the heights block. */
  terrain_ter_file_set_height (ter, 1, 0, 0xBEEF);
  g_clear_pointer (&written, g_bytes_unref);
  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ter), &error);
  g_assert_no_error (error);
  {
    gsize a_len, b_len;
    const guint8 *a = g_bytes_get_data (bytes, &a_len), *b = g_bytes_get_data (written, &b_len);
    guint differ = 0;

    g_assert_cmpuint (a_len, ==, b_len);
    for (gsize i = 0; i < a_len; i++)
      differ += a[i] != b[i];
    g_assert_cmpuint (differ, ==, 2);
    g_assert_cmpuint (b[3], ==, 0xEF);
    g_assert_cmpuint (b[4], ==, 0xBE);
  }
}

static void
test_ter_variants (void)
{
  g_autoptr(GError) error = NULL;

  /* Tribes 2 files stop before the scripts. */
  {
    g_autoptr(GBytes) bytes = terrain_test_ter (3, FALSE, 0);
    g_autoptr(TerrainTerFile) ter = terrain_ter_file_new_from_bytes (bytes, NULL, &error);

    g_assert_no_error (error);
    g_assert_null (terrain_ter_file_dup_texture_script (ter));
  }
  /* Version 1 has no alpha maps; trailing bytes are kept and reported. */
  {
    g_autoptr(GBytes) bytes = terrain_test_ter (1, FALSE, 3);
    g_autoptr(TerrainTerFile) ter = terrain_ter_file_new_from_bytes (bytes, NULL, &error);
    g_autoptr(GBytes) written = NULL;
    g_autoptr(GPtrArray) issues = NULL;
    gboolean any;

    g_assert_no_error (error);
    g_assert_cmpuint (terrain_ter_file_get_n_alpha_maps (ter), ==, 0);
    written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ter), &error);
    g_assert_true (g_bytes_equal (written, bytes));
    issues = terrain_document_validate (TERRAIN_DOCUMENT (ter));
    g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_WARNING);
  }
  /* Truncated heights; a bad version; a script past the end. */
  {
    g_autoptr(GBytes) full = terrain_test_ter (3, TRUE, 0);
    g_autoptr(GBytes) cut = g_bytes_new_from_bytes (full, 0, 1000);
    g_autoptr(GBytes) script_cut = g_bytes_new_from_bytes (full, 0, g_bytes_get_size (full) - 3);
    guint8 bad[1] = { 9 };
    g_autoptr(GBytes) bad_version = g_bytes_new (bad, 1);
    TerrainTerFile *ter;

    ter = terrain_ter_file_new_from_bytes (cut, NULL, &error);
    g_assert_null (ter);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (error->message, "heights"));
    g_clear_error (&error);
    ter = terrain_ter_file_new_from_bytes (bad_version, NULL, &error);
    g_assert_null (ter);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNSUPPORTED_VERSION);
    g_clear_error (&error);
    ter = terrain_ter_file_new_from_bytes (script_cut, NULL, &error);
    g_assert_null (ter);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
  }
}

static void
test_tnt (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (8, 6, &error);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(TerrainHeightfieldOptions) options = terrain_heightfield_options_new ();

  g_assert_no_error (error);
  for (guint y = 0; y < 6; y++)
    for (guint x = 0; x < 8; x++)
      terrain_tnt_map_set_cell_height (map, x, y, (guint8) (x * 10 + y));
  bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (map), &error);
  g_assert_no_error (error);

  options->vertical_scale = 2.0;
  field = terrain_heightfield_new_from_bytes (bytes, "m.tnt", options, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_heightfield_get_width (field), ==, 8);
  g_assert_cmpuint (terrain_heightfield_get_height (field), ==, 6);
  g_assert_cmpfloat (terrain_heightfield_get_spacing (field), ==, 16.0);
  g_assert_cmpfloat (terrain_heightfield_get_sample (field, 7, 5), ==, 2 * 75.0f);
}

static void
test_fit (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainHeightfield) field = terrain_heightfield_new (6, 3, 2.0, &error);
  g_autoptr(TerrainHeightfield) padded = NULL;
  g_autoptr(TerrainHeightfield) resampled = NULL;
  g_autoptr(TerrainHeightfield) same = NULL;
  gfloat *data = terrain_heightfield_get_data (field, NULL);
  guint w, h;

  for (guint i = 0; i < 18; i++)
    data[i] = (gfloat) (i % 6) + 10.0f * (gfloat) (i / 6);

  g_assert_null (terrain_heightfield_fit (field, TERRAIN_HEIGHTFIELD_FIT_NONE, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "9 x 9"));
  g_clear_error (&error);

  /* Padding keeps every sample and repeats the edges. */
  padded = terrain_heightfield_fit (field, TERRAIN_HEIGHTFIELD_FIT_PAD, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_heightfield_get_width (padded), ==, 9);
  g_assert_cmpuint (terrain_heightfield_get_height (padded), ==, 9);
  g_assert_true (terrain_heightfield_is_chunkable (padded));
  terrain_heightfield_get_data_size (padded, &w, &h);
  g_assert_cmpuint (w, ==, 6);
  g_assert_cmpuint (h, ==, 3);
  g_assert_null (terrain_heightfield_get_data (padded, NULL));
  for (guint y = 0; y < 3; y++)
    for (guint x = 0; x < 6; x++)
      g_assert_cmpfloat (terrain_heightfield_get_sample (padded, x, y), ==, data[y * 6 + x]);
  g_assert_cmpfloat (terrain_heightfield_get_sample (padded, 8, 8), ==, 25.0f);
  g_assert_cmpfloat (terrain_heightfield_get_sample (padded, 0, 8), ==, 20.0f);

  /* Resampling stretches and keeps the terrain's size. */
  resampled = terrain_heightfield_fit (field, TERRAIN_HEIGHTFIELD_FIT_RESAMPLE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_heightfield_get_width (resampled), ==, 9);
  g_assert_cmpfloat (terrain_heightfield_get_spacing (resampled), ==, 2.0 * 5 / 8);
  g_assert_cmpfloat (terrain_heightfield_get_sample (resampled, 0, 0), ==, 0.0f);
  g_assert_cmpfloat (terrain_heightfield_get_sample (resampled, 8, 8), ==, 25.0f);
  g_assert_cmpfloat_with_epsilon (terrain_heightfield_get_sample (resampled, 4, 4), 12.5, 1e-5);

  same = terrain_heightfield_fit (padded, TERRAIN_HEIGHTFIELD_FIT_NONE, &error);
  g_assert_no_error (error);
  g_assert_true (same == padded);
}

/* A 16-bit grid's heights are value * scale + offset rounded once to a
 * float: a raw16 grid whose scale is not 1 and whose offset is far from 0
 * (an SRTM range -32767..32514 m re-encoded onto 0..65535) keeps a height
 * near 0 m to within half a unit through a round trip. Float arithmetic
 * rounded the product near 32768 first, 0.004 m off: 2 m came back 1.5 m,
 * more than half a unit (0.498 m) away (found by fuzz-heightmap). */
static void
test_raw16_precision (void)
{
  static const gint16 values[4] = { -32767, 32514, 2, -255 };
  guint8 data[8];
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) raw = NULL;
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(TerrainHeightfield) again = NULL;
  g_autoptr(TerrainHeightfieldOptions) options = terrain_heightfield_options_new ();
  g_autoptr(GError) error = NULL;
  gdouble scale, offset;
  gfloat row[4];

  for (guint i = 0; i < 4; i++)
    {
      data[2 * i] = (guint8) ((guint16) values[i] >> 8);
      data[2 * i + 1] = (guint8) values[i];
    }
  bytes = g_bytes_new (data, sizeof data);
  field = terrain_heightfield_new_from_hgt (bytes, NULL, &error);
  g_assert_no_error (error);
  terrain_heightfield_get_auto_encoding (field, &scale, &offset);
  g_assert_cmpfloat (offset, ==, -32767.0);
  g_assert_cmpfloat_with_epsilon (scale, 65281.0 / 65535.0, 1e-12);
  raw = terrain_heightfield_to_raw16 (field, scale, offset, &error);
  g_assert_no_error (error);

  options->format = TERRAIN_HEIGHTMAP_RAW16;
  options->raw_width = 2;
  options->raw_height = 2;
  options->vertical_scale = scale;
  options->vertical_offset = offset;
  again = terrain_heightfield_new_from_bytes (raw, NULL, options, &error);
  g_assert_no_error (error);
  terrain_heightfield_read_rect (again, 0, 0, 2, 1, row, 2);
  terrain_heightfield_read_rect (again, 0, 1, 2, 1, row + 2, 2);
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpfloat (fabs (row[i] - values[i]), <=, scale / 2);
      /* Both accessors give the same float. */
      g_assert_cmpfloat (terrain_heightfield_get_sample (again, i % 2, i / 2), ==, row[i]);
    }
  /* 2 m is unit 32896: 32896 * scale - 32767 = 1.50195 m, exactly. */
  g_assert_cmpfloat (row[2], ==, (gfloat) (32896.0 * scale - 32767.0));
}

static void
test_encode (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainHeightfield) field = terrain_heightfield_new (3, 2, 1.0, &error);
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GBytes) raw = NULL;
  g_autoptr(GBytes) png = NULL;
  g_autoptr(TerrainHeightfield) back = NULL;
  g_autoptr(TerrainHeightfieldOptions) options = terrain_heightfield_options_new ();
  gfloat *data = terrain_heightfield_get_data (field, NULL);
  gdouble scale, offset;

  for (guint i = 0; i < 6; i++)
    data[i] = (gfloat) i * 100.0f;
  terrain_heightfield_get_auto_encoding (field, &scale, &offset);
  g_assert_cmpfloat (scale, ==, 1.0);
  g_assert_cmpfloat (offset, ==, 0.0);

  data[2] = -12.25f;
  terrain_heightfield_get_auto_encoding (field, &scale, &offset);
  g_assert_cmpfloat (offset, ==, -12.25);
  g_assert_cmpfloat_with_epsilon (scale, 512.25 / 65535.0, 1e-12);

  image = terrain_heightfield_to_image (field, scale, offset, &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_image_get_format (image), ==, TERRAIN_IMAGE_GRAY16);
  png = png_bytes (image);
  options->vertical_scale = scale;
  options->vertical_offset = offset;
  back = terrain_heightfield_new_from_bytes (png, "h.png", options, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 6; i++)
    g_assert_cmpfloat_with_epsilon (terrain_heightfield_get_sample (back, i % 3, i / 3), data[i],
                                    scale);

  raw = terrain_heightfield_to_raw16 (field, scale, offset, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (raw), ==, 12);
  g_assert_cmpuint (((const guint8 *) g_bytes_get_data (raw, NULL))[4], ==, 0);
  g_assert_cmpuint (((const guint8 *) g_bytes_get_data (raw, NULL))[10], ==, 0xff);

  g_assert_null (terrain_heightfield_to_image (field, 0.0, 0.0, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
}

static void
test_load_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("terrain-heightfield-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "h.r16", NULL);
  g_autofree char *bad = g_build_filename (dir, "h.xyz", NULL);
  g_autoptr(GBytes) bytes = raw16 (9, 9);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) bad_file = g_file_new_for_path (bad);
  g_autoptr(TerrainHeightfield) field = NULL;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), 162, NULL));
  g_assert_true (g_file_set_contents (bad, "nothing", 7, NULL));

  field = terrain_heightfield_load (file, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (terrain_heightfield_is_mapped (field));
  g_assert_cmpuint (terrain_heightfield_get_width (field), ==, 9);

  g_assert_null (terrain_heightfield_load (bad_file, NULL, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNKNOWN_FORMAT);
  g_assert_nonnull (strstr (error->message, "h.xyz"));

  g_unlink (path);
  g_unlink (bad);
  g_rmdir (dir);
}

static void
test_corpus (gconstpointer data)
{
  const char *relative = data;
  const char *dir = corpus_dir ();
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(TerrainHeightfieldOptions) options = terrain_heightfield_options_new ();
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(GError) error = NULL;
  gfloat lo, hi;

  if (dir == NULL)
    {
      g_test_skip ("corpus folder not found (TERRAIN_CORPUS_DIR)");
      return;
    }
  path = g_build_filename (dir, relative, NULL);
  file = g_file_new_for_path (path);
  if (g_str_has_suffix (relative, "fuji-terrain-rgb.png"))
    options->format = TERRAIN_HEIGHTMAP_TERRAIN_RGB;
  if (g_str_has_suffix (relative, "gray16.png"))
    options->vertical_offset = -32768;

  field = terrain_heightfield_load (file, options, NULL, &error);
  g_assert_no_error (error);
  terrain_heightfield_get_range (field, &lo, &hi);
  g_test_message ("%s: %u x %u, %.2f to %.2f m", relative, terrain_heightfield_get_width (field),
                  terrain_heightfield_get_height (field), lo, hi);
  /* Real terrain: metres on Earth, no void left behind. */
  g_assert_cmpfloat (lo, >, -500.0f);
  g_assert_cmpfloat (hi, <, 9000.0f);
  g_assert_cmpfloat (hi, >, lo);
}

int
main (int   argc,
      char *argv[])
{
  static const char * const corpus[] = {
    "torque/simple.ter",
    "torque/newMission.ter",
    "tribes2/Ewok_Village.ter",
    "tribes2/facingWorlds.ter",
    "dem/N44W072.hgt",
    "dem/fuji-terrain-rgb.png",
    "dem/N45E013-gray16.png",
  };

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/Heightfield/basic", test_basic);
  g_test_add_func ("/Terrain/Heightfield/gray", test_gray);
  g_test_add_func ("/Terrain/Heightfield/rgb", test_rgb);
  g_test_add_func ("/Terrain/Heightfield/raw16", test_raw16);
  g_test_add_func ("/Terrain/Heightfield/hgt", test_hgt);
  g_test_add_func ("/Terrain/Heightfield/raw16-precision", test_raw16_precision);
  g_test_add_func ("/Terrain/Heightfield/fill-voids", test_fill_voids);
  g_test_add_func ("/Terrain/Heightfield/ter", test_ter);
  g_test_add_func ("/Terrain/Heightfield/ter-variants", test_ter_variants);
  g_test_add_func ("/Terrain/Heightfield/tnt", test_tnt);
  g_test_add_func ("/Terrain/Heightfield/fit", test_fit);
  g_test_add_func ("/Terrain/Heightfield/encode", test_encode);
  g_test_add_func ("/Terrain/Heightfield/load-file", test_load_file);
  for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
    {
      g_autofree char *name = g_strdelimit (g_strdup (corpus[i]), "/", '_');
      g_autofree char *test_path = g_strdup_printf ("/Terrain/Heightfield/corpus/%s", name);

      g_test_add_data_func (test_path, corpus[i], test_corpus);
    }

  return g_test_run ();
}
