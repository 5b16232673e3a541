/* test-tnt-unpack.c: TNT maps unpacked to a folder and packed back, byte-exact
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A 12x10-cell map built in code, with what has no editable home set on
 * purpose: bytes after a feature name's NUL, an attribute byte +3 and a
 * trailing gap. Unpacked then packed it must come back byte for byte; one
 * height edited in heightmap.png and one feature word in features.csv must
 * change exactly their bytes. A legacy (0x1020) map, 8-byte cells and all,
 * built from tnt-sct.md, "Legacy header", must do the same.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"
#include "terrain-test-util.h"

#define W 12
#define H 10

static GBytes *
make_map_bytes (gsize *attributes,
                gsize *features)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (W, H, &error);
  g_autoptr(GBytes) saved = NULL;
  GByteArray *bytes;
  guint8 tile[1024];
  guint tree;
  gsize length;

  g_assert_no_error (error);
  for (guint i = 0; i < 3; i++)
    {
      for (guint p = 0; p < sizeof tile; p++)
        tile[p] = (guint8) (p * (i + 3) + i);
      terrain_tnt_map_add_tile (map, tile);
    }
  for (guint r = 0; r < H / 2; r++)
    for (guint c = 0; c < W / 2; c++)
      terrain_tnt_map_set_tile_index (map, c, r, (guint16) ((r + c) % 3));
  for (guint y = 0; y < H; y++)
    for (guint x = 0; x < W; x++)
      terrain_tnt_map_set_cell_height (map, x, y, (guint8) (x * 20 + y));
  tree = terrain_tnt_map_add_feature_name (map, "Tree1");
  terrain_tnt_map_add_feature_name (map, "Rock, \"big\"");
  g_assert_true (terrain_tnt_map_set_cell_feature (map, 3, 4, tree, &error));
  g_assert_true (terrain_tnt_map_set_cell_feature (map, 7, 7, TERRAIN_TNT_FEATURE_VOID, &error));
  g_assert_no_error (error);
  terrain_tnt_map_set_sea_level (map, 40, NULL);

  saved = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (map), &error);
  g_assert_no_error (error);
  g_assert_true (terrain_tnt_map_get_section_span (map, TERRAIN_TNT_SECTION_ATTRIBUTES,
                                                   attributes, NULL));
  g_assert_true (terrain_tnt_map_get_section_span (map, TERRAIN_TNT_SECTION_FEATURES, features,
                                                   &length));
  bytes = g_byte_array_new ();
  g_byte_array_append (bytes, g_bytes_get_data (saved, NULL), g_bytes_get_size (saved));
  /* Scratch after "Tree1"'s NUL, an attribute byte +3, a trailing gap. */
  memcpy (bytes->data + *features + 4 + 6, "scratch", 7);
  bytes->data[*attributes + 4 * (2 * W + 5) + 3] = 0x5a;
  g_byte_array_append (bytes, (const guint8 *) "TAIL\x01\x02", 6);
  return g_byte_array_free_to_bytes (bytes);
}

static GBytes *
unpack_and_pack (GBytes     *source,
                 const char *folder_path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new_from_bytes (source, NULL, &error);
  g_autoptr(GFile) folder = g_file_new_for_path (folder_path);
  GBytes *packed;

  g_assert_no_error (error);
  g_assert_true (terrain_tnt_map_unpack (map, NULL, folder, NULL, &error));
  g_assert_no_error (error);
  packed = terrain_tnt_pack_folder (folder, NULL, NULL, &error);
  g_assert_no_error (error);
  return packed;
}

static char *
read_member (const char *folder,
             const char *name)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  return text;
}

static void
write_member (const char *folder,
              const char *name,
              const char *text,
              gssize      length)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, text, length, &error));
  g_assert_no_error (error);
}

static void
test_round_trip (void)
{
  gsize attributes, features;
  g_autoptr(GBytes) source = make_map_bytes (&attributes, &features);
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("terrain-unpack-XXXXXX", &error);
  g_autofree char *folder = g_build_filename (root, "map", NULL);
  g_autoptr(GBytes) packed = NULL;
  g_autofree char *table = NULL, *cells = NULL, *manifest = NULL;

  g_assert_no_error (error);
  packed = unpack_and_pack (source, folder);
  g_assert_true (g_bytes_equal (source, packed));

  /* What a person reads. */
  table = read_member (folder, "feature-table.csv");
  g_assert_cmpstr (table, ==, "index,name\n0,Tree1\n1,\"Rock, \"\"big\"\"\"\n");
  cells = read_member (folder, "features.csv");
  g_assert_true (g_str_has_prefix (cells, ",,,,,,,,,,,\n"));
  g_assert_nonnull (strstr (cells, "\n,,,0,,,,,,,,\n"));
  g_assert_nonnull (strstr (cells, "\n,,,,,,,void,,,,\n"));
  manifest = read_member (folder, "metadata.json");
  g_assert_nonnull (strstr (manifest, "\"sea_level\" : 40"));
  g_assert_nonnull (strstr (manifest, "\"attribute_extra\" : \""));

  terrain_test_remove_tree (root);
}

static void
test_edits (void)
{
  gsize attributes, features;
  g_autoptr(GBytes) source = make_map_bytes (&attributes, &features);
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("terrain-unpack-XXXXXX", &error);
  g_autofree char *folder = g_build_filename (root, "map", NULL);
  g_autofree char *png_path = g_build_filename (folder, "heightmap.png", NULL);
  g_autoptr(GBytes) first = unpack_and_pack (source, folder);
  g_autoptr(GBytes) png = NULL, edited_png = NULL, packed = NULL;
  g_autoptr(TerrainImage) heights = NULL;
  g_autoptr(GFile) folder_file = g_file_new_for_path (folder);
  g_autofree char *cells = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *joined = NULL;
  const guint8 *a, *b;
  gsize size, height_at = attributes + 4 * (6 * W + 2), feature_at = attributes + 4 * (4 * W + 3) + 1;
  guint16 v = 99;
  guint n_changed = 0;

  g_assert_true (g_bytes_equal (source, first));

  /* One height: cell (2, 6) becomes 99. */
  {
    char *contents;
    gsize length;

    g_assert_true (g_file_get_contents (png_path, &contents, &length, &error));
    png = g_bytes_new_take (contents, length);
  }
  heights = terrain_image_load_png_bytes (png, &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_image_get_format (heights), ==, TERRAIN_IMAGE_GRAY16);
  memcpy (terrain_image_get_data (heights, NULL) + 6 * terrain_image_get_stride (heights) + 2 * 2,
          &v, 2);
  edited_png = terrain_image_save_png_bytes (heights, &error);
  g_assert_no_error (error);
  write_member (folder, "heightmap.png", g_bytes_get_data (edited_png, NULL),
                (gssize) g_bytes_get_size (edited_png));

  /* One feature word: the tree at (3, 4) becomes record 1. */
  cells = read_member (folder, "features.csv");
  lines = g_strsplit (cells, "\n", -1);
  g_assert_cmpstr (lines[4], ==, ",,,0,,,,,,,,");
  g_free (lines[4]);
  lines[4] = g_strdup (",,,1,,,,,,,,");
  joined = g_strjoinv ("\n", lines);
  write_member (folder, "features.csv", joined, -1);

  packed = terrain_tnt_pack_folder (folder_file, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (packed), ==, g_bytes_get_size (source));
  a = g_bytes_get_data (source, &size);
  b = g_bytes_get_data (packed, NULL);
  for (gsize i = 0; i < size; i++)
    if (a[i] != b[i])
      {
        g_assert_true (i == height_at || i == feature_at || i == feature_at + 1);
        n_changed++;
      }
  /* The height byte and the feature word's low byte (0 -> 1). */
  g_assert_cmpuint (n_changed, ==, 2);
  g_assert_cmpuint (b[height_at], ==, 99);
  g_assert_cmpuint (b[feature_at], ==, 1);
  g_assert_cmpuint (b[feature_at + 1], ==, 0);

  /* A renamed record: its name bytes padded with zeros, nothing else. */
  write_member (folder, "feature-table.csv", "index,name\n0,Oak\n1,\"Rock, \"\"big\"\"\"\n", -1);
  g_clear_pointer (&packed, g_bytes_unref);
  packed = terrain_tnt_pack_folder (folder_file, NULL, NULL, &error);
  g_assert_no_error (error);
  b = g_bytes_get_data (packed, NULL);
  g_assert_cmpmem (b + features + 4, 8, "Oak\0\0\0\0\0", 8);
  g_assert_cmpmem (b + features + 4 + 128 + 4, 12, "Rock, \"big\"\0", 12);

  terrain_test_remove_tree (root);
}

static void
test_errors (void)
{
  gsize attributes, features;
  g_autoptr(GBytes) source = make_map_bytes (&attributes, &features);
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("terrain-unpack-XXXXXX", &error);
  g_autofree char *folder = g_build_filename (root, "map", NULL);
  g_autoptr(GFile) folder_file = g_file_new_for_path (folder);
  g_autoptr(GBytes) first = unpack_and_pack (source, folder);
  g_autofree char *tilemap = read_member (folder, "tilemap.csv");
  g_autofree char *manifest = read_member (folder, "metadata.json");
  GBytes *packed;

  /* A value that is not a tile index: the file, the line, the column, the offset. */
  write_member (folder, "tilemap.csv", "0,1,2,0,1,x\n", -1);
  packed = terrain_tnt_pack_folder (folder_file, NULL, NULL, &error);
  g_assert_null (packed);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "tilemap.csv: line 1, column 6 (byte offset 10)"));
  g_clear_error (&error);
  /* Too few rows. */
  write_member (folder, "tilemap.csv", "0,1,2,0,1,2\n", -1);
  g_assert_null (terrain_tnt_pack_folder (folder_file, NULL, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
  g_clear_error (&error);
  /* A row too long. */
  write_member (folder, "tilemap.csv", "0,1,2,0,1,2,3\n", -1);
  g_assert_null (terrain_tnt_pack_folder (folder_file, NULL, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "more than 6 values"));
  g_clear_error (&error);
  write_member (folder, "tilemap.csv", tilemap, -1);

  /* A record added to the table is refused. */
  write_member (folder, "feature-table.csv", "index,name\n0,Tree1\n1,Rock\n2,New\n", -1);
  g_assert_null (terrain_tnt_pack_folder (folder_file, NULL, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  write_member (folder, "feature-table.csv", "index,name\n0,Tree1\n1,Rock\n", -1);

  /* A manifest whose sections overlap, or that is no manifest. */
  {
    g_autoptr(GString) broken = g_string_new (manifest);

    g_assert_cmpuint (g_string_replace (broken, "\"offset\" : 64,", "\"offset\" : 60,", 1), ==,
                      1);
    write_member (folder, "metadata.json", broken->str, -1);
    g_assert_null (terrain_tnt_pack_folder (folder_file, NULL, NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    g_assert_nonnull (strstr (error->message, "byte offset 60 belongs to two"));
    g_clear_error (&error);
  }
  /* A sea level above 255: the one sea-level rule's error. */
  {
    g_autoptr(GString) broken = g_string_new (manifest);

    g_assert_cmpuint (g_string_replace (broken, "\"sea_level\" : 40", "\"sea_level\" : 300", 1),
                      ==, 1);
    write_member (folder, "metadata.json", broken->str, -1);
    g_assert_null (terrain_tnt_pack_folder (folder_file, NULL, NULL, &error));
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
    g_assert_nonnull (strstr (error->message, "metadata.json"));
    g_assert_nonnull (strstr (error->message, "sea level 300 is above the maximum 255"));
    g_clear_error (&error);
  }
  write_member (folder, "metadata.json", "{\"format\": \"other\"}", -1);
  g_assert_null (terrain_tnt_pack_folder (folder_file, NULL, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC);
  g_clear_error (&error);
  write_member (folder, "metadata.json", "{", -1);
  g_assert_null (terrain_tnt_pack_folder (folder_file, NULL, NULL, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  terrain_test_remove_tree (root);
}

static void
test_cli (void)
{
  gsize attributes, features;
  g_autoptr(GBytes) source = make_map_bytes (&attributes, &features);
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("terrain-unpack-XXXXXX", &error);
  g_autofree char *tnt = g_build_filename (root, "in.tnt", NULL);
  g_autofree char *out = g_build_filename (root, "out.tnt", NULL);
  g_autofree char *folder = g_build_filename (root, "map", NULL);
  g_autofree char *contents = NULL;
  gsize length;

  g_assert_true (g_file_set_contents (tnt, g_bytes_get_data (source, NULL),
                                      (gssize) g_bytes_get_size (source), &error));
  {
    g_auto(TerrainTestCliResult) result = terrain_test_run_cli (NULL, "tnt", "unpack", tnt,
                                                                folder, NULL);

    g_assert_cmpint (result.status, ==, 0);
    g_assert_nonnull (strstr (result.out, " tiles, 2 feature records)"));
  }
  {
    g_auto(TerrainTestCliResult) result = terrain_test_run_cli (NULL, "tnt", "pack", folder, out,
                                                                NULL);

    g_assert_cmpint (result.status, ==, 0);
  }
  g_assert_true (g_file_get_contents (out, &contents, &length, &error));
  g_assert_cmpmem (contents, length, g_bytes_get_data (source, NULL), g_bytes_get_size (source));
  {
    g_auto(TerrainTestCliResult) result = terrain_test_run_cli (NULL, "tnt", "pack", root, out,
                                                                NULL);

    g_assert_cmpint (result.status, ==, 2);
    g_assert_nonnull (strstr (result.err, "metadata.json"));
  }
  terrain_test_remove_tree (root);
}

/* ------------------------------------------------------------------------ */
/* Legacy (0x1020) maps                                                       */

#define LW 8
#define LH 6

/* A legacy map built from tnt-sct.md, "Legacy header": wind, gravity and the
 * unread word in the header, every byte of each 8-byte cell set (height at
 * byte 0, the feature byte at byte 2 with the four empty codes 0xFC..0xFF,
 * metal at byte 6, the unread bytes), bytes after a name's NUL, a gap
 * between the tile map and the attributes and a trailing gap. */
static GBytes *
make_legacy_bytes (gsize *attributes)
{
  const guint columns = LW / 2, rows = LH / 2, n_tiles = 2, n_features = 2;
  const guint mw = 16, mh = 12;
  GByteArray *a = g_byte_array_new ();
  guint32 words[16] = { 0 };
  gsize tile_map, tiles, features, minimap;

  g_byte_array_set_size (a, 64);
  tile_map = a->len;
  for (guint r = 0; r < rows; r++)
    for (guint c = 0; c < columns; c++)
      {
        guint8 entry[2] = { (guint8) ((r + c) % n_tiles), 0 };

        g_byte_array_append (a, entry, 2);
      }
  g_byte_array_append (a, (const guint8 *) "GAP", 3);
  *attributes = a->len;
  for (guint y = 0; y < LH; y++)
    for (guint x = 0; x < LW; x++)
      {
        guint8 cell[8];

        for (guint k = 0; k < 8; k++)
          cell[k] = (guint8) (x * 16 + y * 4 + k);
        cell[0] = (guint8) (x * 9 + y);
        cell[2] = 0xFF;
        if (x == 1 && y == 1)
          cell[2] = 0;
        if (x == 5 && y == 3)
          cell[2] = 1;
        if (y == 5 && x < 4)
          cell[2] = (guint8) (0xFC + x);
        cell[6] = (guint8) (x + y);   /* metal */
        g_byte_array_append (a, cell, 8);
      }
  tiles = a->len;
  for (guint t = 0; t < n_tiles; t++)
    for (guint p = 0; p < 1024; p++)
      {
        guint8 v = (guint8) (p * (t + 5) + t);

        g_byte_array_append (a, &v, 1);
      }
  features = a->len;
  for (guint i = 0; i < n_features; i++)
    {
      guint8 record[132] = { 0 };

      record[0] = (guint8) i;
      memcpy (record + 4, i == 0 ? "Tree1" : "Rock2", 5);
      if (i == 0)
        memcpy (record + 4 + 6, "junk", 4);
      g_byte_array_append (a, record, sizeof record);
    }
  minimap = a->len;
  {
    guint8 size[8] = { mw, 0, 0, 0, mh, 0, 0, 0 };

    g_byte_array_append (a, size, 8);
    for (guint p = 0; p < mw * mh; p++)
      {
        guint8 v = (guint8) (p % 7 + 0x60);

        g_byte_array_append (a, &v, 1);
      }
  }
  g_byte_array_append (a, (const guint8 *) "END!", 4);

  words[0] = 0x1020;
  words[1] = LW;
  words[2] = LH;
  words[3] = (guint32) tile_map;
  words[4] = (guint32) *attributes;
  words[5] = (guint32) tiles;
  words[6] = n_tiles;
  words[7] = n_features;
  words[8] = (guint32) features;
  words[9] = 33;              /* sea level */
  words[10] = 1200;           /* minimum wind */
  words[11] = 3400;           /* maximum wind */
  words[12] = 0xDEADBEEF;     /* not read */
  words[13] = 112;            /* gravity */
  words[14] = (guint32) minimap;
  words[15] = 1;
  for (guint i = 0; i < 16; i++)
    for (guint k = 0; k < 4; k++)
      a->data[4 * i + k] = (guint8) (words[i] >> (8 * k));
  return g_byte_array_free_to_bytes (a);
}

static void
test_legacy (void)
{
  gsize attributes;
  g_autoptr(GBytes) source = make_legacy_bytes (&attributes);
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("terrain-unpack-XXXXXX", &error);
  g_autofree char *folder = g_build_filename (root, "legacy", NULL);
  g_autoptr(GFile) folder_file = g_file_new_for_path (folder);
  g_autoptr(GBytes) packed = NULL;
  g_autofree char *cells = NULL, *manifest = NULL, *tnt = NULL, *out = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *joined = NULL;
  const guint8 *a, *b;
  gsize size, feature_at = attributes + 8 * (1 * LW + 1) + 2;
  guint n_changed = 0;

  g_assert_no_error (error);
  packed = unpack_and_pack (source, folder);
  terrain_test_assert_bytes_equal (source, packed);

  /* The feature byte as a person reads it; the rest of each cell in the
   * manifest. */
  cells = read_member (folder, "features.csv");
  lines = g_strsplit (cells, "\n", -1);
  g_assert_cmpstr (lines[1], ==, ",0,,,,,,");
  g_assert_cmpstr (lines[3], ==, ",,,,,1,,");
  g_assert_cmpstr (lines[5], ==, "0xFC,0xFD,0xFE,,,,,");
  manifest = read_member (folder, "metadata.json");
  g_assert_nonnull (strstr (manifest, "\"attribute_extra\" : \""));
  g_assert_nonnull (strstr (manifest, "\"sea_level\" : 33"));

  /* One feature byte edited: only it changes. */
  g_free (lines[1]);
  lines[1] = g_strdup (",1,,,,,,");
  joined = g_strjoinv ("\n", lines);
  write_member (folder, "features.csv", joined, -1);
  g_clear_pointer (&packed, g_bytes_unref);
  packed = terrain_tnt_pack_folder (folder_file, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (packed), ==, g_bytes_get_size (source));
  a = g_bytes_get_data (source, &size);
  b = g_bytes_get_data (packed, NULL);
  for (gsize i = 0; i < size; i++)
    if (a[i] != b[i])
      {
        g_assert_cmpuint (i, ==, feature_at);
        n_changed++;
      }
  g_assert_cmpuint (n_changed, ==, 1);
  g_assert_cmpuint (b[feature_at], ==, 1);

  /* A 0x2000 word has no legacy byte. */
  g_free (lines[1]);
  lines[1] = g_strdup (",void,,,,,,");
  g_free (joined);
  joined = g_strjoinv ("\n", lines);
  write_member (folder, "features.csv", joined, -1);
  g_assert_null (terrain_tnt_pack_folder (folder_file, NULL, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "line 2, column 2: a legacy (0x1020) map"));
  g_clear_error (&error);

  /* The command line, byte for byte. */
  tnt = g_build_filename (root, "legacy.tnt", NULL);
  out = g_build_filename (root, "again.tnt", NULL);
  terrain_test_write_bytes (tnt, source);
  {
    g_autofree char *second = g_build_filename (root, "second", NULL);
    g_autoptr(GBytes) again = NULL;
    g_auto(TerrainTestCliResult) unpack = terrain_test_run_cli (NULL, "tnt", "unpack", tnt,
                                                                second, NULL);
    g_auto(TerrainTestCliResult) pack = terrain_test_run_cli (NULL, "tnt", "pack", second, out,
                                                              NULL);

    g_assert_cmpint (unpack.status, ==, 0);
    g_assert_cmpint (pack.status, ==, 0);
    again = terrain_test_read_bytes (out);
    terrain_test_assert_bytes_equal (source, again);
  }

  terrain_test_remove_tree (root);
}

static void
test_corpus (void)
{
  const char *corpus = g_getenv ("TERRAIN_CORPUS_DIR");
  const char * const maps[] = { "ban", "bar" };

  for (guint i = 0; i < G_N_ELEMENTS (maps); i++)
    {
      g_autofree char *name = g_strdup_printf ("%s.tnt", maps[i]);
      g_autofree char *path = g_build_filename (corpus, "ta", "maps", name, NULL);
      g_autoptr(GError) error = NULL;
      g_autofree char *root = g_dir_make_tmp ("terrain-unpack-XXXXXX", &error);
      g_autofree char *folder = g_build_filename (root, maps[i], NULL);
      g_autoptr(GBytes) source = NULL, packed = NULL;
      char *contents;
      gsize length;

      g_assert_true (g_file_get_contents (path, &contents, &length, &error));
      source = g_bytes_new_take (contents, length);
      packed = unpack_and_pack (source, folder);
      g_assert_true (g_bytes_equal (source, packed));
      g_test_message ("%s: unpack + pack byte-identical (%" G_GSIZE_FORMAT " bytes)", maps[i],
                      length);
      terrain_test_remove_tree (root);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/TntUnpack/round-trip", test_round_trip);
  g_test_add_func ("/Terrain/TntUnpack/edits", test_edits);
  g_test_add_func ("/Terrain/TntUnpack/errors", test_errors);
  g_test_add_func ("/Terrain/TntUnpack/cli", test_cli);
  g_test_add_func ("/Terrain/TntUnpack/legacy", test_legacy);
  /* The real maps, when ../shared/corpus is there (as test-corpus). */
  terrain_test_add_corpus_func ("/Terrain/TntUnpack/corpus", test_corpus);

  return g_test_run ();
}
