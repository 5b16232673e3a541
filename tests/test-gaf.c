/* test-gaf.c: GAF sprite archives, read, rendered, rewritten and written
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The fixture is laid out by hand from docs/formats/gaf.md (not by the
 * library's writer), so the reader is checked against the documented layout:
 * a raw frame, a run-length frame using every run kind (and a run clipped at
 * the row's end, as TAUtil reads it), and a frame of two subframes.
 */

#include "config.h"

#include <string.h>

#include "libterrain.h"
#include "ta/terrain-gaf-private.h"
#include "terrain-test-fixtures.h"
#include "terrain-test-util.h"

static void
put_name (GByteArray *out,
          const char *name)
{
  guint8 field[32] = { 0 };

  memcpy (field, name, strlen (name));
  /* Bytes after the NUL are kept on rewrite. */
  field[31] = 0xAB;
  g_byte_array_append (out, field, sizeof field);
}

static void
put_frame_header (GByteArray *out,
                  guint16     width,
                  guint16     height,
                  gint16      x,
                  gint16      y,
                  guint8      transparency,
                  guint8      compressed,
                  guint16     n_subframes,
                  guint32     data_offset)
{
  terrain_test_put_u16 (out, width);
  terrain_test_put_u16 (out, height);
  terrain_test_put_u16 (out, (guint16) x);
  terrain_test_put_u16 (out, (guint16) y);
  terrain_test_put_u8 (out, transparency);
  terrain_test_put_u8 (out, compressed);
  terrain_test_put_u16 (out, n_subframes);
  terrain_test_put_u32 (out, 0x11111111);  /* unknown2 */
  terrain_test_put_u32 (out, data_offset);
  terrain_test_put_u32 (out, 0x22222222);  /* unknown3 */
}

/* Offsets of the hand-made fixture. */
enum
{
  ENTRY0 = 12 + 8,               /* after the header and two entry offsets */
  ENTRY1 = ENTRY0 + 40 + 2 * 8,
  FRAME0 = ENTRY1 + 40 + 1 * 8,
  FRAME0_DATA = FRAME0 + 24,
  FRAME1 = FRAME0_DATA + 6,
  FRAME1_DATA = FRAME1 + 24,
  FRAME1_SIZE = (2 + 4) + (2 + 4) + (2 + 2),
  FRAME2 = FRAME1_DATA + FRAME1_SIZE,
  FRAME2_TABLE = FRAME2 + 24,
  SUB0 = FRAME2_TABLE + 8,
  SUB0_DATA = SUB0 + 24,
  SUB1 = SUB0_DATA + 1,
  SUB1_DATA = SUB1 + 24,
  FIXTURE_SIZE = SUB1_DATA + 2,
};

static const guint8 frame0_pixels[6] = { 9, 1, 9, 2, 3, 4 };
static const guint8 frame1_pixels[12] = {
  0, 0, 7, 7,
  1, 2, 3, 0,
  5, 5, 5, 5,
};
static const guint8 frame2_pixels[9] = {
  4, 0, 0,
  0, 6, 0,
  0, 0, 0,
};

static GBytes *
make_fixture (void)
{
  GByteArray *out = g_byte_array_new ();

  terrain_test_put_u32 (out, TERRAIN_GAF_VERSION);
  terrain_test_put_u32 (out, 2);
  terrain_test_put_u32 (out, 0x33333333);
  terrain_test_put_u32 (out, ENTRY0);
  terrain_test_put_u32 (out, ENTRY1);

  /* Entry 0, "Tree1": two frames. */
  terrain_test_put_u16 (out, 2);
  terrain_test_put_u16 (out, 1);
  terrain_test_put_u32 (out, 0);
  put_name (out, "Tree1");
  terrain_test_put_u32 (out, FRAME0);
  terrain_test_put_u32 (out, 7);
  terrain_test_put_u32 (out, FRAME1);
  terrain_test_put_u32 (out, 8);

  /* Entry 1, "Rock": one frame of two subframes. */
  terrain_test_put_u16 (out, 1);
  terrain_test_put_u16 (out, 1);
  terrain_test_put_u32 (out, 0x44444444);
  put_name (out, "Rock");
  terrain_test_put_u32 (out, FRAME2);
  terrain_test_put_u32 (out, 0);

  /* Frame 0: raw 3x2, origin (1, 1), transparent 9. */
  g_assert_cmpuint (out->len, ==, FRAME0);
  put_frame_header (out, 3, 2, 1, 1, 9, 0, 0, FRAME0_DATA);
  g_byte_array_append (out, frame0_pixels, sizeof frame0_pixels);

  /* Frame 1: run-length 4x3, origin (-2, 5), transparent 0. */
  g_assert_cmpuint (out->len, ==, FRAME1);
  put_frame_header (out, 4, 3, -2, 5, 0, 1, 0, FRAME1_DATA);
  /* Row 0: skip 2 (0x05), repeat 7 twice (0x06). */
  terrain_test_put_u16 (out, 4);
  g_byte_array_append (out, (const guint8[]) { 0x05, 0x06, 7, 0xEE }, 4);
  /* Row 1: three literals (0x08); the fourth pixel is left transparent. */
  terrain_test_put_u16 (out, 4);
  g_byte_array_append (out, (const guint8[]) { 0x08, 1, 2, 3 }, 4);
  /* Row 2: repeat 5 five times (0x12), clipped to the row's four. */
  terrain_test_put_u16 (out, 2);
  g_byte_array_append (out, (const guint8[]) { 0x12, 5 }, 2);

  /* Frame 2: 3x3 of two subframes, origin (1, 1), transparent 0. */
  g_assert_cmpuint (out->len, ==, FRAME2);
  put_frame_header (out, 3, 3, 1, 1, 0, 0, 2, FRAME2_TABLE);
  terrain_test_put_u32 (out, SUB0);
  terrain_test_put_u32 (out, SUB1);
  /* Subframe 0: 1x1 pixel 4 with its origin on itself: lands at (0, 0). */
  put_frame_header (out, 1, 1, 1, 1, 0, 0, 0, SUB0_DATA);
  terrain_test_put_u8 (out, 4);
  /* Subframe 1: 2x1 {6, transparent} with its origin at (0, 0): the 6
   * lands on the frame's origin (1, 1). */
  put_frame_header (out, 2, 1, 0, 0, 0, 0, 0, SUB1_DATA);
  terrain_test_put_u8 (out, 6);
  terrain_test_put_u8 (out, 0);
  g_assert_cmpuint (out->len, ==, FIXTURE_SIZE);

  return g_byte_array_free_to_bytes (out);
}

static void
assert_frame_pixels (TerrainGafArchive *gaf,
                     guint              entry,
                     guint              frame,
                     const guint8      *expected,
                     gsize              size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) pixels = terrain_gaf_archive_decode_frame (gaf, entry, frame, &error);
  gsize n;
  const guint8 *data;

  g_assert_no_error (error);
  data = g_bytes_get_data (pixels, &n);
  g_assert_cmpmem (data, n, expected, size);
}

static void
test_read (void)
{
  g_autoptr(GBytes) bytes = make_fixture ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainGafArchive) gaf = terrain_gaf_archive_new_from_bytes (bytes, NULL, &error);
  const TerrainGafFrame *frame;
  guint index;

  g_assert_no_error (error);
  g_assert_cmpuint (terrain_gaf_archive_get_n_entries (gaf), ==, 2);
  g_assert_cmpstr (terrain_gaf_archive_get_entry_name (gaf, 0), ==, "Tree1");
  g_assert_cmpstr (terrain_gaf_archive_get_entry_name (gaf, 1), ==, "Rock");
  g_assert_true (terrain_gaf_archive_find_entry (gaf, "ROCK", &index));
  g_assert_cmpuint (index, ==, 1);
  g_assert_false (terrain_gaf_archive_find_entry (gaf, "Tree2", NULL));
  g_assert_cmpuint (terrain_gaf_archive_get_n_frames (gaf, 0), ==, 2);

  frame = terrain_gaf_archive_get_frame (gaf, 0, 0);
  g_assert_cmpuint (frame->width, ==, 3);
  g_assert_cmpuint (frame->height, ==, 2);
  g_assert_cmpint (frame->x_offset, ==, 1);
  g_assert_cmpint (frame->y_offset, ==, 1);
  g_assert_cmpuint (frame->transparency_index, ==, 9);
  g_assert_cmpuint (frame->compressed, ==, 0);
  g_assert_cmpuint (frame->header_offset, ==, FRAME0);
  g_assert_cmpuint (frame->data_offset, ==, FRAME0_DATA);
  g_assert_cmpuint (frame->entry_unknown, ==, 7);
  g_assert_cmpuint (frame->unknown2, ==, 0x11111111);
  g_assert_cmpuint (frame->unknown3, ==, 0x22222222);

  frame = terrain_gaf_archive_get_frame (gaf, 0, 1);
  g_assert_cmpint (frame->x_offset, ==, -2);
  g_assert_cmpuint (frame->compressed, ==, 1);

  frame = terrain_gaf_archive_get_frame (gaf, 1, 0);
  g_assert_cmpuint (frame->n_subframes, ==, 2);
  g_assert_cmpuint (terrain_gaf_archive_get_subframe (gaf, 1, 0, 1)->header_offset, ==, SUB1);
  g_assert_cmpuint (terrain_gaf_archive_get_subframe (gaf, 1, 0, 0)->width, ==, 1);

  assert_frame_pixels (gaf, 0, 0, frame0_pixels, sizeof frame0_pixels);
  assert_frame_pixels (gaf, 0, 1, frame1_pixels, sizeof frame1_pixels);
  assert_frame_pixels (gaf, 1, 0, frame2_pixels, sizeof frame2_pixels);
}

static void
test_render (void)
{
  g_autoptr(GBytes) bytes = make_fixture ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainGafArchive) gaf = terrain_gaf_archive_new_from_bytes (bytes, NULL, &error);
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(TerrainImage) image = NULL;
  guint8 rgb[768];
  guint8 *data;
  gsize stride;

  g_assert_no_error (error);
  for (guint i = 0; i < 256; i++)
    {
      rgb[3 * i] = i;
      rgb[3 * i + 1] = 255 - i;
      rgb[3 * i + 2] = i / 2;
    }
  palette = terrain_palette_new_from_rgb (rgb, 256);
  image = terrain_gaf_archive_render_frame (gaf, 0, 0, palette, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_image_get_width (image), ==, 3);
  g_assert_cmpuint (terrain_image_get_height (image), ==, 2);
  data = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  /* (0, 0) is the transparency index 9. */
  g_assert_cmpuint (data[3], ==, 0);
  /* (1, 0) is index 1. */
  g_assert_cmpuint (data[4], ==, 1);
  g_assert_cmpuint (data[5], ==, 254);
  g_assert_cmpuint (data[6], ==, 0);
  g_assert_cmpuint (data[7], ==, 255);
  /* (2, 1) is index 4. */
  g_assert_cmpuint (data[stride + 8], ==, 4);
  g_assert_cmpuint (data[stride + 11], ==, 255);
}

static void
test_rewrite (void)
{
  g_autoptr(GBytes) bytes = make_fixture ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainGafArchive) gaf = terrain_gaf_archive_new_from_bytes (bytes, NULL, &error);
  g_autoptr(GBytes) written = NULL;

  g_assert_no_error (error);
  written = terrain_gaf_archive_save_to_bytes (gaf);
  g_assert_true (g_bytes_equal (written, bytes));
}

static void
test_writer (void)
{
  g_autoptr(TerrainGafWriter) writer = terrain_gaf_writer_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainGafArchive) gaf = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (16);
  g_autofree guint8 *pixels = g_malloc (200 * 30);

  /* Transparent stretches, repeats and noise, including runs longer than
   * one control byte holds (127 transparent, 64 repeated or literal). */
  for (guint i = 0; i < 200 * 30; i++)
    {
      guint x = i % 200;

      if (x < 130)
        pixels[i] = 0;
      else if (x < 140)
        pixels[i] = 42;
      else
        pixels[i] = g_rand_int_range (rand, 0, 4);
    }

  g_assert_false (terrain_gaf_writer_add_frame (writer, pixels, 2, 2, 0, 0, 0, TRUE, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  g_assert_false (terrain_gaf_writer_add_entry (writer, "a-name-longer-than-thirty-one-bytes",
                                                &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);

  g_assert_true (terrain_gaf_writer_add_entry (writer, "Noise", &error));
  g_assert_true (terrain_gaf_writer_add_frame (writer, pixels, 200, 30, 100, 15, 0, TRUE, &error));
  g_assert_true (terrain_gaf_writer_add_frame (writer, pixels, 200, 30, -1, 2, 0, FALSE, &error));
  g_assert_true (terrain_gaf_writer_add_entry (writer, "Empty", &error));
  g_assert_no_error (error);
  bytes = terrain_gaf_writer_finish (writer, &error);
  g_assert_no_error (error);

  gaf = terrain_gaf_archive_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_gaf_archive_get_n_entries (gaf), ==, 2);
  g_assert_cmpuint (terrain_gaf_archive_get_n_frames (gaf, 1), ==, 0);
  g_assert_cmpint (terrain_gaf_archive_get_frame (gaf, 0, 0)->x_offset, ==, 100);
  g_assert_cmpuint (terrain_gaf_archive_get_frame (gaf, 0, 0)->compressed, ==, 1);
  g_assert_cmpint (terrain_gaf_archive_get_frame (gaf, 0, 1)->x_offset, ==, -1);
  assert_frame_pixels (gaf, 0, 0, pixels, 200 * 30);
  assert_frame_pixels (gaf, 0, 1, pixels, 200 * 30);
  /* The run-length frame is smaller than the raw one. */
  g_assert_cmpuint (terrain_gaf_archive_get_frame (gaf, 0, 1)->header_offset -
                    terrain_gaf_archive_get_frame (gaf, 0, 0)->header_offset, <, 200 * 30);
}

static void
test_row_codec (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (99);

  /* Every encoding the writer makes decodes to the row it came from. */
  for (guint round = 0; round < 500; round++)
    {
      guint width = g_rand_int_range (rand, 1, 400);
      guint8 transparency = g_rand_int_range (rand, 0, 3);
      g_autofree guint8 *row = g_malloc (width);
      g_autofree guint8 *back = g_malloc (width);
      g_autoptr(GByteArray) encoded = g_byte_array_new ();
      g_autoptr(GError) error = NULL;

      for (guint x = 0; x < width; x++)
        row[x] = g_rand_boolean (rand) && x > 0 ? row[x - 1] : g_rand_int_range (rand, 0, 4);
      terrain_gaf_encode_row (row, width, transparency, encoded);
      g_assert_true (terrain_gaf_decode_row (encoded->data, encoded->len, back, width,
                                             transparency, 0, &error));
      g_assert_no_error (error);
      g_assert_cmpmem (back, width, row, width);
    }
}

/* A GAF as a document: detected, summarised, validated (every frame
 * decoded) and written back, in the library and in `terrain info`,
 * `validate` and `roundtrip`. */
static void
test_document (void)
{
  g_autoptr(GBytes) bytes = make_fixture ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autofree char *where = NULL;
  g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-gaf-document");
  g_autofree char *path = g_build_filename (dir, "trees.GAF", NULL);
  g_autofree char *broken_path = g_build_filename (dir, "broken.gaf", NULL);
  JsonObject *root, *tree;
  JsonArray *list;

  g_assert_cmpint (terrain_format_detect (bytes, NULL), ==, TERRAIN_FORMAT_GAF);
  g_assert_cmpint (terrain_format_detect (bytes, "x.tnt"), ==, TERRAIN_FORMAT_GAF);
  g_assert_cmpstr (terrain_format_get_name (TERRAIN_FORMAT_GAF), ==, "gaf");
  document = terrain_document_load_bytes (bytes, "trees.gaf", TERRAIN_FORMAT_UNKNOWN, NULL,
                                          &error);
  g_assert_no_error (error);
  g_assert_true (TERRAIN_IS_GAF_ARCHIVE (document));
  g_assert_cmpint (terrain_document_get_format (document), ==, TERRAIN_FORMAT_GAF);

  node = terrain_document_describe (document);
  root = json_node_get_object (node);
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "gaf");
  g_assert_cmpint (json_object_get_int_member (root, "entries"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (root, "frames"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (root, "subframes"), ==, 2);
  list = json_object_get_array_member (root, "entry_list");
  tree = json_array_get_object_element (list, 0);
  g_assert_cmpstr (json_object_get_string_member (tree, "name"), ==, "Tree1");
  g_assert_cmpint (json_object_get_int_member (tree, "frames"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (tree, "run_length_pictures"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (tree, "width"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (tree, "height"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (list, 1),
                                                  "name"), ==, "Rock");

  issues = terrain_document_validate (document);
  g_assert_cmpuint (issues->len, ==, 0);
  written = terrain_document_save_to_bytes (document, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (written, bytes));
  where = terrain_document_describe_offset (document, FRAME1 + 2);
  g_assert_cmpstr (where, ==, "entry \"Tree1\", frame 1, header");

  /* A row whose byte count runs past the file: loads, fails validation. */
  {
    gsize size;
    guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, &size), g_bytes_get_size (bytes));
    g_autoptr(GBytes) broken = NULL;
    g_autoptr(TerrainDocument) damaged = NULL;
    g_autoptr(GPtrArray) found = NULL;

    copy[FRAME1_DATA] = 0xFF;
    copy[FRAME1_DATA + 1] = 0x7F;
    broken = g_bytes_new_take (copy, size);
    terrain_test_write_bytes (broken_path, broken);
    damaged = terrain_document_load_bytes (broken, "broken.gaf", TERRAIN_FORMAT_UNKNOWN, NULL,
                                           &error);
    g_assert_no_error (error);
    found = terrain_document_validate (damaged);
    g_assert_cmpuint (found->len, ==, 1);
    g_assert_nonnull (strstr (terrain_issue_get_message (g_ptr_array_index (found, 0)),
                              "entry \"Tree1\", frame 1: "));
  }

  terrain_test_write_bytes (path, bytes);
  {
    g_auto(TerrainTestCliResult) info = terrain_test_run_cli (NULL, "info", "--json", path,
                                                              NULL);
    g_auto(TerrainTestCliResult) validate = terrain_test_run_cli (NULL, "validate", path, NULL);
    g_auto(TerrainTestCliResult) bad = terrain_test_run_cli (NULL, "validate", broken_path,
                                                             NULL);
    g_auto(TerrainTestCliResult) roundtrip = terrain_test_run_cli (NULL, "roundtrip", path,
                                                                   NULL);

    g_assert_cmpint (info.status, ==, 0);
    g_assert_nonnull (strstr (info.out, "\"format\" : \"gaf\""));
    g_assert_nonnull (strstr (info.out, "\"name\" : \"Rock\""));
    g_assert_cmpint (validate.status, ==, 0);
    g_assert_cmpint (bad.status, ==, 1);
    g_assert_nonnull (strstr (bad.out, "Tree1"));
    g_assert_cmpint (roundtrip.status, ==, 0);
  }

  terrain_test_remove_tree (dir);
}

static void
test_malformed (void)
{
  g_autoptr(GBytes) bytes = make_fixture ();
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  g_autofree guint8 *copy = g_memdup2 (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainLimits) limits = terrain_limits_new ();
  TerrainGafArchive *gaf;

  /* Every truncation either fails to load with a TERRAIN_ERROR or (when only
   * pixel rows are cut) loads and then fails to decode. */
  for (gsize n = 0; n < size; n++)
    {
      g_autoptr(GBytes) part = g_bytes_new (data, n);
      g_autoptr(TerrainGafArchive) cut = terrain_gaf_archive_new_from_bytes (part, NULL, &error);
      gboolean all = cut != NULL;

      if (cut == NULL)
        {
          g_assert_nonnull (error);
          g_assert_true (error->domain == TERRAIN_ERROR);
          g_clear_error (&error);
          continue;
        }
      for (guint e = 0; e < terrain_gaf_archive_get_n_entries (cut); e++)
        for (guint f = 0; f < terrain_gaf_archive_get_n_frames (cut, e); f++)
          {
            g_autoptr(GBytes) pixels = terrain_gaf_archive_decode_frame (cut, e, f, &error);

            if (pixels == NULL)
              {
                g_assert_true (error->domain == TERRAIN_ERROR);
                g_clear_error (&error);
                all = FALSE;
              }
          }
      g_assert_false (all);
    }

  /* The wrong version word. */
  copy[1] = 0x02;
  {
    g_autoptr(GBytes) bad = g_bytes_new (copy, size);

    gaf = terrain_gaf_archive_new_from_bytes (bad, NULL, &error);
    g_assert_null (gaf);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC);
    g_assert_nonnull (strstr (error->message, "0x00010200"));
    g_clear_error (&error);
  }
  copy[1] = 0x01;

  /* An entry count the file cannot hold. */
  terrain_test_set_u32 (copy + 4, 0x40000000);
  {
    g_autoptr(GBytes) bad = g_bytes_new (copy, size);

    gaf = terrain_gaf_archive_new_from_bytes (bad, NULL, &error);
    g_assert_null (gaf);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
    g_clear_error (&error);
  }
  terrain_test_set_u32 (copy + 4, 2);

  /* A frame larger than the limits. */
  limits->max_image_side = 2;
  {
    g_autoptr(GBytes) fine = g_bytes_new (copy, size);

    gaf = terrain_gaf_archive_new_from_bytes (fine, limits, &error);
    g_assert_null (gaf);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
    g_assert_nonnull (strstr (error->message, "frame 0 of entry Tree1"));
    g_clear_error (&error);
  }

  /* Many entries sharing one frame table count against the budget. */
  limits->max_image_side = 4096;
  limits->max_allocation = 1000;
  {
    g_autoptr(GByteArray) out = g_byte_array_new ();
    g_autoptr(GBytes) shared = NULL;
    guint entries = 200;
    guint entry_offset = 12 + 4 * entries;
    guint frame_offset = entry_offset + 40 + 8 * 50;

    terrain_test_put_u32 (out, TERRAIN_GAF_VERSION);
    terrain_test_put_u32 (out, entries);
    terrain_test_put_u32 (out, 0);
    for (guint i = 0; i < entries; i++)
      terrain_test_put_u32 (out, entry_offset);
    terrain_test_put_u16 (out, 50);
    terrain_test_put_u16 (out, 1);
    terrain_test_put_u32 (out, 0);
    put_name (out, "Shared");
    for (guint f = 0; f < 50; f++)
      {
        terrain_test_put_u32 (out, frame_offset);
        terrain_test_put_u32 (out, 0);
      }
    put_frame_header (out, 1, 1, 0, 0, 0, 0, 0, frame_offset + 24);
    terrain_test_put_u8 (out, 1);
    shared = g_byte_array_free_to_bytes (g_steal_pointer (&out));
    gaf = terrain_gaf_archive_new_from_bytes (shared, limits, &error);
    g_assert_null (gaf);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
    g_clear_error (&error);
  }

  /* A run needing bytes past its row's declared length. */
  {
    guint8 row[4];

    g_assert_false (terrain_gaf_decode_row ((const guint8[]) { 0x0C, 1 }, 2, row, 4, 0, 100,
                                            &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (error->message, "byte offset 100"));
    g_clear_error (&error);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/Gaf/read", test_read);
  g_test_add_func ("/Terrain/Gaf/render", test_render);
  g_test_add_func ("/Terrain/Gaf/rewrite", test_rewrite);
  g_test_add_func ("/Terrain/Gaf/writer", test_writer);
  g_test_add_func ("/Terrain/Gaf/row-codec", test_row_codec);
  g_test_add_func ("/Terrain/Gaf/malformed", test_malformed);
  g_test_add_func ("/Terrain/Gaf/document", test_document);

  return g_test_run ();
}
