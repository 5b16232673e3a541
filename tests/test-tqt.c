/* test-tqt.c: texture quadtrees (.tqt): reading, byte-exact writing, errors,
 * validation, description and pictures
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * No public .tqt file could be obtained, so every test builds its files from
 * atlas-chu-tqt.md §9 (TGEA's DDS TQT) and field-notes.md (Ulrich's TQT v1
 * with bare JPEG tiles): sorted, shuffled and reversed orders, gaps,
 * trailing bytes and shared tiles (test-chu-tqt-fixture.c).
 */

#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <sys/wait.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"
#include "test-chu-tqt-fixture.h"

/* ------------------------------------------------------------------ */
/* TQT tests                                                           */

static void
test_tqt_read (gconstpointer data)
{
  const TqtSpec *spec = data;
  TqtFixture f;
  g_autoptr(TerrainTqtFile) tqt = NULL;

  tqt_fixture_init (&f, spec);
  tqt = tqt_load (f.bytes);

  g_assert_cmpuint (terrain_tqt_file_get_version (tqt), ==, spec->version);
  g_assert_cmpuint (terrain_tqt_file_get_tree_depth (tqt), ==, spec->depth);
  g_assert_cmpuint (terrain_tqt_file_get_tile_size (tqt), ==,
                    spec->kind == TILE_RGBA ? 4 : TQT_TILE);
  g_assert_cmpint (terrain_tqt_file_get_encoding (tqt), ==,
                   spec->kind == TILE_JPEG ? TERRAIN_TQT_ENCODING_JPEG
                                           : TERRAIN_TQT_ENCODING_DDS);
  g_assert_cmpuint (terrain_tqt_file_get_n_tiles (tqt), ==, f.n);

  for (guint node = 0; node < f.n; node++)
    {
      guint level, x, y;
      gint entry;
      gsize offset, span;
      guint32 width, height;
      g_autoptr(GBytes) image = NULL;

      terrain_test_node_position (node, &level, &x, &y);
      entry = terrain_tqt_file_lookup_node (tqt, level, x, y);
      g_assert_cmpint (entry, ==, (gint) terrain_test_node_id (level, y, x));
      g_assert_cmpuint (terrain_tqt_file_get_tile_offset (tqt, (guint) entry), ==,
                        f.tile_offset[node]);
      terrain_tqt_file_get_tile_span (tqt, (guint) entry, &offset, &span);
      g_assert_cmpuint (offset, ==, f.tile_offset[node]);
      g_assert_cmpuint (span, ==, f.tile_span[node]);
      image = terrain_tqt_file_get_tile_bytes (tqt, (guint) entry);
      g_assert_true (g_bytes_equal (image, f.image[node]));
      g_assert_true (terrain_tqt_file_get_tile_dimensions (tqt, (guint) entry, &width, &height));
      g_assert_cmpuint (width, ==, spec->kind == TILE_RGBA ? 4 : TQT_TILE);
      g_assert_cmpuint (height, ==, spec->kind == TILE_RGBA ? 2 : TQT_TILE);
    }
  g_assert_cmpint (terrain_tqt_file_lookup_node (tqt, spec->depth, 0, 0), ==, -1);

  tqt_fixture_clear (&f);
}

static void
test_tqt_roundtrip (gconstpointer data)
{
  TqtFixture f;
  g_autoptr(TerrainTqtFile) tqt = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GError) error = NULL;

  tqt_fixture_init (&f, data);
  tqt = tqt_load (f.bytes);
  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (tqt), &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (f.bytes, written);
  tqt_fixture_clear (&f);
}

static void
test_tqt_truncation (gconstpointer data)
{
  TqtFixture f;
  gsize size;
  const guint8 *all;

  tqt_fixture_init (&f, data);
  all = g_bytes_get_data (f.bytes, &size);

  for (gsize cut = 0; cut < size; cut++)
    {
      g_autoptr(GBytes) part = g_bytes_new (all, cut);
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainTqtFile) tqt = terrain_tqt_file_new_from_bytes (part, NULL, &error);

      if (cut >= f.data_end)
        {
          g_assert_no_error (error);
          g_assert_nonnull (tqt);
          continue;
        }
      g_assert_null (tqt);
      if (!g_error_matches (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED) &&
          !g_error_matches (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE))
        g_error ("cut at %" G_GSIZE_FORMAT ": unexpected error %s", cut, error->message);
      g_assert_nonnull (strstr (error->message, "byte offset"));
    }
  tqt_fixture_clear (&f);
}

static void
test_tqt_errors (void)
{
  TqtFixture f, j;
  guint leaf = terrain_test_node_id (2, 1, 0);
  guint other = terrain_test_node_id (2, 2, 3);
  const guint8 *all;

  tqt_fixture_init (&f, &tqt_specs[0]);   /* dds, depth 3 */
  tqt_fixture_init (&j, &tqt_specs[4]);   /* jpeg, depth 3 */
  all = g_bytes_get_data (f.bytes, NULL);

  {
    g_autoptr(GBytes) b = bytes_with (f.bytes, 0, "tqt1", 4);
    tqt_assert_error (b, TERRAIN_ERROR_BAD_MAGIC);
  }
  {
    /* A tile stream that does not start with "DDS ". */
    g_autoptr(GBytes) b = bytes_with (f.bytes, f.tile_offset[leaf] + 4, "DDT ", 4);
    tqt_assert_error (b, TERRAIN_ERROR_BAD_MAGIC);
  }
  {
    /* A DDS stream shorter than its mip chain: claim 5 mip levels. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, f.tile_offset[leaf] + 4 + 4 + 24, 5);
    tqt_assert_error (b, TERRAIN_ERROR_TRUNCATED);
  }
  {
    /* A size prefix smaller than the DDS header. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, f.tile_offset[leaf], 100);
    tqt_assert_error (b, TERRAIN_ERROR_TRUNCATED);
  }
  {
    /* A size prefix running past the end of the file. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, f.tile_offset[leaf], 0x7FFFFFF0);
    tqt_assert_error (b, TERRAIN_ERROR_TRUNCATED);
  }
  {
    /* A tile offset beyond the end of the file. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, tqt_entry_offset (2, 1, 0),
                                          (guint32) g_bytes_get_size (f.bytes));
    tqt_assert_error (b, TERRAIN_ERROR_OUT_OF_RANGE);
  }
  {
    /* Two distinct tiles partly overlapping: point one entry 4 bytes before
     * another tile's end, with a prefix that makes a complete DDS stream. */
    gsize at = f.tile_offset[other];
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, tqt_entry_offset (2, 1, 0), (guint32) at);
    g_autoptr(GBytes) c = bytes_with_u32 (b, at, terrain_test_get_u32 (all + at) + 8);
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainTqtFile) tqt = NULL;

    /* Entry (2, 1, 0) now shares the tile of (2, 2, 3), whose size now
     * reaches 8 bytes into the next tile. */
    tqt = terrain_tqt_file_new_from_bytes (c, NULL, &error);
    g_assert_null (tqt);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP);
    g_assert_nonnull (strstr (error->message, "partly overlaps"));
  }
  {
    /* A tile inside the offset table. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, tqt_entry_offset (2, 1, 0), 16);
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainTqtFile) tqt = terrain_tqt_file_new_from_bytes (b, NULL, &error);

    /* Its "size" is the table's first entry and no DDS follows. */
    g_assert_null (tqt);
    g_assert_nonnull (error);
    g_assert_true (error->domain == TERRAIN_ERROR);
  }
  {
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, 8, 32);
    tqt_assert_error (b, TERRAIN_ERROR_INVALID_VALUE);
  }
  {
    /* JPEG: no start-of-image. */
    g_autoptr(GBytes) b = bytes_with (j.bytes, j.tile_offset[leaf] + 1, "\xD9", 1);
    tqt_assert_error (b, TERRAIN_ERROR_BAD_MAGIC);
  }
  {
    /* JPEG: a segment length below 2. */
    g_autoptr(GBytes) b = bytes_with (j.bytes, j.tile_offset[leaf] + 4, "\x00\x01", 2);
    tqt_assert_error (b, TERRAIN_ERROR_INVALID_VALUE);
  }
  {
    /* JPEG: garbage where a marker belongs. */
    g_autoptr(GBytes) b = bytes_with (j.bytes, j.tile_offset[leaf] + 2, "\x12", 1);
    tqt_assert_error (b, TERRAIN_ERROR_INVALID_VALUE);
  }
  {
    /* JPEG: the last tile's end-of-image removed. */
    gsize size = g_bytes_get_size (j.bytes);
    g_autoptr(GBytes) b = bytes_with (j.bytes, size - 1, "\x00", 1);
    tqt_assert_error (b, TERRAIN_ERROR_TRUNCATED);
  }

  {
    /* JPEG: a tile nested inside another (a complete stream hidden in an
     * APP1 segment) is a partial overlap, whichever is scanned first. */
    static const guint8 outer[] = { 0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x06, 0xFF, 0xD8, 0xFF, 0xD9,
                                    0xFF, 0xD9 };
    g_autoptr(GByteArray) a = g_byte_array_new ();
    g_autoptr(GBytes) b = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainTqtFile) tqt = NULL;
    guint32 at = 16 + 4 * 5;

    put_bytes (a, "tqt\0", 4);
    terrain_test_put_u32 (a, 1);
    terrain_test_put_u32 (a, 2);
    terrain_test_put_u32 (a, 8);
    for (guint i = 0; i < 4; i++)
      terrain_test_put_u32 (a, at);
    terrain_test_put_u32 (a, at + 6);
    put_bytes (a, outer, sizeof outer);
    b = g_byte_array_free_to_bytes (g_steal_pointer (&a));
    tqt = terrain_tqt_file_new_from_bytes (b, NULL, &error);
    g_assert_null (tqt);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP);
  }

  tqt_fixture_clear (&f);
  tqt_fixture_clear (&j);
}

static void
test_tqt_limits (void)
{
  TqtFixture f;
  g_autoptr(TerrainLimits) limits = terrain_limits_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTqtFile) tqt = NULL;

  tqt_fixture_init (&f, &tqt_specs[0]);
  limits->max_tiles = 20;
  tqt = terrain_tqt_file_new_from_bytes (f.bytes, limits, &error);
  g_assert_null (tqt);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);

  {
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, 8, 12);
    tqt_assert_error (b, TERRAIN_ERROR_LIMIT_EXCEEDED);
  }
  tqt_fixture_clear (&f);
}

static void
test_tqt_validate (void)
{
  TqtFixture f;

  tqt_fixture_init (&f, &tqt_specs[1]);
  {
    g_autoptr(TerrainTqtFile) tqt = tqt_load (f.bytes);
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (tqt));

    g_assert_cmpuint (issues->len, ==, 0);
  }
  tqt_fixture_clear (&f);

  tqt_fixture_init (&f, &tqt_specs[0]);
  {
    /* Tile size 16 against 21 8x8 DDS tiles: 20 findings, then a summary. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, 12, 16);
    g_autoptr(TerrainTqtFile) tqt = tqt_load (b);
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (tqt));

    g_assert_cmpuint (issues->len, ==, 21);
    g_assert_cmpuint (count_issues_containing (issues, "tile size is 16"), ==, 20);
    g_assert_cmpuint (count_issues_containing (issues, "more findings about tile dimensions"),
                      ==, 1);
  }
  {
    /* A version that names neither layout. */
    g_autoptr(GBytes) b = bytes_with_u32 (f.bytes, 4, 7);
    g_autoptr(TerrainTqtFile) tqt = tqt_load (b);
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (tqt));

    g_assert_cmpuint (issues->len, ==, 1);
    g_assert_cmpint (terrain_issue_get_offset (issues->pdata[0]), ==, 4);
  }
  tqt_fixture_clear (&f);

  tqt_fixture_init (&f, &tqt_specs[2]);   /* dds-gaps: 6 filler bytes before each tile */
  {
    /* Grow the first tile in file order into the gap after it. */
    guint first = 0;
    g_autoptr(GBytes) b = NULL;
    g_autoptr(TerrainTqtFile) tqt = NULL;
    g_autoptr(GPtrArray) issues = NULL;

    for (guint node = 0; node < f.n; node++)
      if (f.tile_offset[node] < f.tile_offset[first])
        first = node;
    b = bytes_with_u32 (f.bytes, f.tile_offset[first],
                        (guint32) g_bytes_get_size (f.image[first]) + 3);
    tqt = tqt_load (b);
    issues = terrain_document_validate (TERRAIN_DOCUMENT (tqt));
    g_assert_cmpuint (issues->len, ==, 1);
    g_assert_nonnull (strstr (terrain_issue_get_message (issues->pdata[0]),
                              "3 more than its header implies"));
  }
  tqt_fixture_clear (&f);
}

static void
test_tqt_describe (gconstpointer data)
{
  const TqtSpec *spec = data;
  TqtFixture f;
  g_autoptr(TerrainTqtFile) tqt = NULL;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *object;
  guint distinct;

  tqt_fixture_init (&f, spec);
  tqt = tqt_load (f.bytes);
  node = terrain_document_describe (TERRAIN_DOCUMENT (tqt));
  object = json_node_get_object (node);
  distinct = f.n - (spec->shared ? 1 : 0);

  g_assert_cmpstr (json_object_get_string_member (object, "format"), ==, "tqt");
  g_assert_cmpstr (json_object_get_string_member (object, "encoding"), ==,
                   spec->kind == TILE_JPEG ? "jpeg" : "dds");
  g_assert_cmpint (json_object_get_int_member (object, "tiles"), ==, f.n);
  g_assert_cmpint (json_object_get_int_member (object, "distinct_tiles"), ==, distinct);
  g_assert_cmpint (json_object_get_int_member (object, "unreferenced_bytes"), ==,
                   spec->gap * distinct + spec->trailing);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "levels")),
                    ==, spec->depth);
  tqt_fixture_clear (&f);
}

static void
test_tqt_describe_offset (void)
{
  TqtFixture f;
  g_autoptr(TerrainTqtFile) tqt = NULL;
  TerrainDocument *doc;
  guint node = terrain_test_node_id (1, 1, 0);
  char *s;

  tqt_fixture_init (&f, &tqt_specs[2]);
  tqt = tqt_load (f.bytes);
  doc = TERRAIN_DOCUMENT (tqt);

  s = terrain_document_describe_offset (doc, 13);
  g_assert_cmpstr (s, ==, "header, tile size, byte +1");
  g_free (s);
  s = terrain_document_describe_offset (doc, tqt_entry_offset (1, 1, 0) + 2);
  g_assert_cmpstr (s, ==, "offset table, entry 2 (level 1, x 1, y 0), byte +2");
  g_free (s);
  s = terrain_document_describe_offset (doc, f.tile_offset[node] + 1);
  g_assert_cmpstr (s, ==, "tile 2 (level 1, x 1, y 0), size prefix");
  g_free (s);
  s = terrain_document_describe_offset (doc, f.tile_offset[node] + 4 + 130);
  g_assert_cmpstr (s, ==, "tile 2 (level 1, x 1, y 0), DDS stream byte +130");
  g_free (s);
  s = terrain_document_describe_offset (doc, f.tile_offset[node] - 1);
  g_assert_cmpstr (s, ==, "gap");
  g_free (s);
  s = terrain_document_describe_offset (doc, g_bytes_get_size (f.bytes) - 1);
  g_assert_cmpstr (s, ==, "trailing bytes");
  g_free (s);
  tqt_fixture_clear (&f);
}

static void
test_tqt_detect (void)
{
  TqtFixture f;

  tqt_fixture_init (&f, &tqt_specs[4]);
  g_assert_cmpint (terrain_format_detect (f.bytes, NULL), ==, TERRAIN_FORMAT_TQT);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainDocument) doc = terrain_document_load_bytes (f.bytes, NULL,
                                                                  TERRAIN_FORMAT_UNKNOWN,
                                                                  NULL, &error);
    g_assert_no_error (error);
    g_assert_true (TERRAIN_IS_TQT_FILE (doc));
  }
  tqt_fixture_clear (&f);
}

static void
test_tqt_mutations (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (4321);

  for (guint s = 0; s < G_N_ELEMENTS (tqt_specs); s++)
    {
      TqtFixture f;
      gsize size;

      tqt_fixture_init (&f, &tqt_specs[s]);
      size = g_bytes_get_size (f.bytes);
      for (guint round = 0; round < 300; round++)
        {
          gsize len;
          guint8 *copy = g_bytes_unref_to_data (g_bytes_ref (f.bytes), &len);
          g_autoptr(GBytes) mutated = NULL;
          g_autoptr(GError) error = NULL;
          g_autoptr(TerrainTqtFile) tqt = NULL;
          guint flips = (guint) g_rand_int_range (rand, 1, 4);

          for (guint i = 0; i < flips; i++)
            copy[g_rand_int_range (rand, 0, (gint32) size)] = (guint8) g_rand_int (rand);
          mutated = g_bytes_new_take (copy, len);
          tqt = terrain_tqt_file_new_from_bytes (mutated, NULL, &error);
          if (tqt == NULL)
            {
              g_assert_true (error->domain == TERRAIN_ERROR);
              continue;
            }
          {
            g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (tqt));
            g_autoptr(JsonNode) node = terrain_document_describe (TERRAIN_DOCUMENT (tqt));
            g_autoptr(GBytes) written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (tqt),
                                                                        &error);
            g_autofree char *where = terrain_document_describe_offset (TERRAIN_DOCUMENT (tqt),
                                                                       size / 2);

            g_assert_no_error (error);
            terrain_test_assert_bytes_equal (mutated, written);
            g_assert_nonnull (issues);
            g_assert_nonnull (node);
            g_assert_nonnull (where);
          }
        }
      tqt_fixture_clear (&f);
    }
}

static void
assert_same_picture (TerrainImage *actual,
                     TerrainImage *expected,
                     guint         tolerance)
{
  guint side = terrain_image_get_width (expected);
  guint64 difference = 0;

  g_assert_cmpuint (terrain_image_get_width (actual), ==, side);
  g_assert_cmpuint (terrain_image_get_height (actual), ==, terrain_image_get_height (expected));
  for (guint y = 0; y < terrain_image_get_height (expected); y++)
    for (guint x = 0; x < side; x++)
      for (guint c = 0; c < 4; c++)
        difference += ABS (rgba_at (actual, x, y)[c] - rgba_at (expected, x, y)[c]);
  /* The mean difference per channel. */
  g_assert_cmpuint (difference / (4 * (guint64) side * terrain_image_get_height (expected)), <=,
                    tolerance);
}

/* The finest level that fits, assembled: the picture the tree was cut
 * from, each tile where its node says. */
static void
test_tqt_picture (void)
{
  g_autoptr(GBytes) dds = terrain_test_tqt_picture (3, 16, FALSE);
  g_autoptr(GBytes) jpeg = terrain_test_tqt_picture (2, 16, TRUE);
  g_autoptr(TerrainLimits) limits = terrain_limits_new ();
  g_autoptr(GError) error = NULL;

  {
    g_autoptr(TerrainTqtFile) tqt = tqt_load (dds);
    g_autoptr(TerrainImage) picture = terrain_document_render_image (TERRAIN_DOCUMENT (tqt),
                                                                     NULL, &error);
    g_autoptr(TerrainImage) expected = terrain_test_tqt_picture_level (3, 16, 2);

    g_assert_no_error (error);
    assert_same_picture (picture, expected, 0);
    /* Exactly: DDS A8R8G8B8 is lossless. */
    g_assert_cmpmem (rgba_at (picture, 0, 0), 4 * 64 * 64, rgba_at (expected, 0, 0), 4 * 64 * 64);

    g_assert_null (terrain_document_export_heights (TERRAIN_DOCUMENT (tqt), &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
    g_clear_error (&error);
  }

  /* A coarser level when the finest would pass max_image_side. */
  limits->max_image_side = 32;
  {
    g_autoptr(TerrainTqtFile) tqt = terrain_tqt_file_new_from_bytes (dds, limits, &error);
    g_autoptr(TerrainImage) picture = NULL;
    g_autoptr(TerrainImage) expected = terrain_test_tqt_picture_level (3, 16, 1);

    g_assert_no_error (error);
    picture = terrain_document_render_image (TERRAIN_DOCUMENT (tqt), NULL, &error);
    g_assert_no_error (error);
    assert_same_picture (picture, expected, 0);
  }

  /* Ulrich's JPEG tiles. */
  {
    g_autoptr(TerrainTqtFile) tqt = tqt_load (jpeg);
    g_autoptr(TerrainImage) picture = terrain_document_render_image (TERRAIN_DOCUMENT (tqt),
                                                                     NULL, &error);
    g_autoptr(TerrainImage) expected = terrain_test_tqt_picture_level (2, 16, 1);

    g_assert_no_error (error);
    assert_same_picture (picture, expected, 6);
  }
}

static void
test_tqt_picture_errors (void)
{
  TqtFixture f;
  g_autoptr(GError) error = NULL;

  /* No levels, nothing to draw. */
  tqt_fixture_init (&f, &tqt_specs[6]);
  {
    g_autoptr(TerrainTqtFile) tqt = tqt_load (f.bytes);

    g_assert_null (terrain_document_render_image (TERRAIN_DOCUMENT (tqt), NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED);
    g_clear_error (&error);
  }
  tqt_fixture_clear (&f);

  /* A tile that does not decode names its node and offset. */
  tqt_fixture_init (&f, &tqt_specs[4]);
  {
    g_autoptr(TerrainTqtFile) tqt = tqt_load (f.bytes);

    g_assert_null (terrain_document_render_image (TERRAIN_DOCUMENT (tqt), NULL, &error));
    g_assert_nonnull (error);
    g_assert_true (g_str_has_prefix (error->message, "TQT tile of node (level 0, x 0, y 0) at "
                                                     "byte offset "));
  }
  tqt_fixture_clear (&f);
}

int
main (int   argc,
      char *argv[])
{
  static const struct
  {
    const char *name;
    GTestDataFunc func;
  } tqt_tests[] = {
    { "read", test_tqt_read },
    { "roundtrip", test_tqt_roundtrip },
    { "truncation", test_tqt_truncation },
    { "describe", test_tqt_describe },
  };

  g_test_init (&argc, &argv, NULL);

  for (guint t = 0; t < G_N_ELEMENTS (tqt_tests); t++)
    for (guint s = 0; s < G_N_ELEMENTS (tqt_specs); s++)
      {
        g_autofree char *path = g_strdup_printf ("/Terrain/Tqt/%s/%s", tqt_tests[t].name,
                                                 tqt_specs[s].name);

        g_test_add_data_func (path, &tqt_specs[s], tqt_tests[t].func);
      }
  g_test_add_func ("/Terrain/Tqt/errors", test_tqt_errors);
  g_test_add_func ("/Terrain/Tqt/limits", test_tqt_limits);
  g_test_add_func ("/Terrain/Tqt/validate", test_tqt_validate);
  g_test_add_func ("/Terrain/Tqt/describe-offset", test_tqt_describe_offset);
  g_test_add_func ("/Terrain/Tqt/detect", test_tqt_detect);
  g_test_add_func ("/Terrain/Tqt/mutations", test_tqt_mutations);
  g_test_add_func ("/Terrain/Tqt/picture", test_tqt_picture);
  g_test_add_func ("/Terrain/Tqt/picture-errors", test_tqt_picture_errors);

  return g_test_run ();
}
