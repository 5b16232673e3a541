/* test-sct.c: Total Annihilation editor sections
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * No public .sct file could be obtained (see the corpus README), so every
 * test builds its files in code (terrain-test-fixtures.c) from tnt-sct.md,
 * "SCT sections": the two worlds.hpi layouts (version 2 puts the preview
 * right after the height records, version 3 the tile graphics and then the
 * preview), the standalone writer's preview-first packing, non-square
 * grids, gaps, trailing bytes and the observed record tails.
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"

#define N_BLOCKS TERRAIN_TEST_SCT_N_BLOCKS
#define PREVIEW_BYTES (TERRAIN_SCT_PREVIEW_SIDE * TERRAIN_SCT_PREVIEW_SIDE)

/* Files of every layout, built by terrain-test-fixtures.c. */
static const TerrainTestSctSpec specs[] = {
  { "v2", TERRAIN_TEST_SCT_V2, 3, 2, 4, 0, 0 },
  { "v3", TERRAIN_TEST_SCT_V3, 3, 2, 4, 0, 0 },
  { "standalone", TERRAIN_TEST_SCT_STANDALONE, 3, 2, 4, 0, 0 },
  { "v2-gaps", TERRAIN_TEST_SCT_V2, 3, 2, 5, 13, 7 },
  { "v3-gaps", TERRAIN_TEST_SCT_V3, 2, 3, 3, 6, 9 },
  { "standalone-gaps", TERRAIN_TEST_SCT_STANDALONE, 3, 2, 2, 5, 11 },
  { "v2-column", TERRAIN_TEST_SCT_V2, 1, 4, 1, 3, 1 },
  { "v3-row", TERRAIN_TEST_SCT_V3, 4, 1, 2, 0, 2 },
};

static const char * const block_names[N_BLOCKS] = {
  "header", "preview", "tile graphics", "tile index grid", "height records",
};

static void
put_le32 (guint8  *p,
          guint32  v)
{
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
  p[2] = (v >> 16) & 0xff;
  p[3] = (v >> 24) & 0xff;
}

static GBytes *
bytes_patch_u32 (GBytes  *bytes,
                 gsize    offset,
                 guint32  value)
{
  gsize size = 0;
  guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, &size), g_bytes_get_size (bytes));

  g_assert_cmpuint (offset + 4, <=, size);
  put_le32 (copy + offset, value);
  return g_bytes_new_take (copy, size);
}

static GBytes *
header_bytes (guint32 version,
              guint32 preview_offset,
              guint32 tile_count,
              guint32 tiles_offset,
              guint32 width,
              guint32 height,
              guint32 tile_map_offset)
{
  guint8 *data = g_malloc (TERRAIN_SCT_HEADER_SIZE);

  put_le32 (data + 0, version);
  put_le32 (data + 4, preview_offset);
  put_le32 (data + 8, tile_count);
  put_le32 (data + 12, tiles_offset);
  put_le32 (data + 16, width);
  put_le32 (data + 20, height);
  put_le32 (data + 24, tile_map_offset);
  return g_bytes_new_take (data, TERRAIN_SCT_HEADER_SIZE);
}

static TerrainSctSection *
load_fixture (const TerrainTestSct *f)
{
  g_autoptr(GError) error = NULL;
  TerrainSctSection *section;

  section = terrain_sct_section_new_from_bytes (f->bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (section);
  return section;
}

static void
assert_load_fails (GBytes              *bytes,
                   const TerrainLimits *limits,
                   TerrainError         code,
                   const char          *substring)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainSctSection) section = NULL;

  section = terrain_sct_section_new_from_bytes (bytes, limits, &error);
  g_assert_null (section);
  g_assert_error (error, TERRAIN_ERROR, (gint) code);
  if (substring != NULL && strstr (error->message, substring) == NULL)
    g_error ("error message \"%s\" does not mention \"%s\"", error->message, substring);
}

/* Offsets at which two byte strings differ. */
static GArray *
diff_offsets (GBytes *a,
              GBytes *b)
{
  GArray *diffs = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize a_len, b_len;
  const guint8 *pa = g_bytes_get_data (a, &a_len);
  const guint8 *pb = g_bytes_get_data (b, &b_len);

  g_assert_cmpuint (a_len, ==, b_len);
  for (gsize i = 0; i < a_len; i++)
    if (pa[i] != pb[i])
      g_array_append_val (diffs, i);

  return diffs;
}

typedef struct
{
  guint count;
  guint x, y, w, h;
} SignalLog;

static void
on_changed (TerrainSctSection *section,
            guint              x,
            guint              y,
            guint              w,
            guint              h,
            SignalLog         *log)
{
  log->count++;
  log->x = x;
  log->y = y;
  log->w = w;
  log->h = h;
}

static TerrainPalette *
test_palette (void)
{
  guint8 rgb[256 * 3];

  for (guint i = 0; i < 256; i++)
    {
      rgb[3 * i] = (guint8) i;
      rgb[3 * i + 1] = (guint8) (255 - i);
      rgb[3 * i + 2] = (guint8) (i * 5);
    }
  return terrain_palette_new_from_rgb (rgb, 256);
}

static void
assert_pixel (TerrainImage *image,
              guint         x,
              guint         y,
              guint8        r,
              guint8        g,
              guint8        b)
{
  const guint8 *p = terrain_image_get_data (image, NULL) +
                    (gsize) y * terrain_image_get_stride (image) + 4 * (gsize) x;

  g_assert_cmpuint (p[0], ==, r);
  g_assert_cmpuint (p[1], ==, g);
  g_assert_cmpuint (p[2], ==, b);
  g_assert_cmpuint (p[3], ==, 255);
}

/* ---- Reading ----------------------------------------------------------- */

static void
test_read (gconstpointer data)
{
  const TerrainTestSctSpec *spec = data;
  g_auto(TerrainTestSct) f = { 0 };
  g_autoptr(TerrainSctSection) section = NULL;
  const guint8 *tail;

  terrain_test_sct_build (&f, spec);
  section = load_fixture (&f);
  tail = terrain_test_sct_record_tail (f.version);

  g_assert_cmpuint (terrain_sct_section_get_version (section), ==, f.version);
  g_assert_cmpuint (terrain_sct_section_get_width (section), ==, spec->width);
  g_assert_cmpuint (terrain_sct_section_get_height (section), ==, spec->height);
  g_assert_cmpuint (terrain_sct_section_get_record_size (section), ==, f.record_size);
  g_assert_cmpuint (terrain_sct_section_get_n_tiles (section), ==, spec->n_tiles);
  g_assert_cmpint (terrain_document_get_format (TERRAIN_DOCUMENT (section)), ==,
                   TERRAIN_FORMAT_SCT);
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (section)));
  g_assert_true (terrain_document_get_source_bytes (TERRAIN_DOCUMENT (section)) == f.bytes);

  for (guint b = 0; b < N_BLOCKS; b++)
    {
      gsize offset = 1, size = 1;

      g_assert_true (terrain_sct_section_get_block_span (section, b, &offset, &size));
      g_assert_cmpuint (offset, ==, f.offset[b]);
      g_assert_cmpuint (size, ==, f.size[b]);
    }
  g_assert_false (terrain_sct_section_get_block_span (section, N_BLOCKS, NULL, NULL));

  for (guint r = 0; r < f.height; r++)
    for (guint c = 0; c < f.width; c++)
      g_assert_cmpuint (terrain_sct_section_get_tile_index (section, c, r), ==,
                        terrain_test_sct_tile_index (&f, c, r));

  /* The height grid is (2W) x (2H), row-major; byte +0 is the height and the
   * rest of the record is the observed writer constant. */
  for (guint y = 0; y < 2 * f.height; y++)
    for (guint x = 0; x < 2 * f.width; x++)
      {
        gsize size = 0;
        const guint8 *record;

        g_assert_cmpuint (terrain_sct_section_get_cell_height (section, x, y), ==,
                          terrain_test_sct_height (x, y));
        record = terrain_sct_section_get_height_record (section, x, y, &size);
        g_assert_cmpuint (size, ==, f.record_size);
        g_assert_cmpuint (record[0], ==, terrain_test_sct_height (x, y));
        g_assert_cmpmem (record + 1, size - 1, tail, f.record_size - 1);
      }

  for (guint t = 0; t < f.n_tiles; t++)
    {
      const guint8 *tile = terrain_sct_section_get_tile (section, t);

      for (guint p = 0; p < TERRAIN_SCT_TILE_BYTES; p++)
        g_assert_cmpuint (tile[p], ==, terrain_test_sct_tile_pixel (t, p));
    }

  {
    const guint8 *preview = terrain_sct_section_get_preview (section);

    for (gsize i = 0; i < PREVIEW_BYTES; i++)
      g_assert_cmpuint (preview[i], ==, terrain_test_sct_preview (i));
  }
}

/* Heights at known cells of the 3x2 version 2 grid, spelled out. */
static void
test_read_known_cells (void)
{
  g_auto(TerrainTestSct) f = { 0 };
  g_autoptr(TerrainSctSection) section = NULL;
  const guint8 *record;
  gsize size;

  terrain_test_sct_build (&f, &specs[0]);
  section = load_fixture (&f);

  /* (0,0): 7; (5,0): 5*37+7 = 192; (0,3): 3*101+7 = 310 & 255 = 54;
   * (5,3): 185+303+7 = 495 & 255 = 239. */
  g_assert_cmpuint (terrain_sct_section_get_cell_height (section, 0, 0), ==, 7);
  g_assert_cmpuint (terrain_sct_section_get_cell_height (section, 5, 0), ==, 192);
  g_assert_cmpuint (terrain_sct_section_get_cell_height (section, 0, 3), ==, 54);
  g_assert_cmpuint (terrain_sct_section_get_cell_height (section, 5, 3), ==, 239);

  record = terrain_sct_section_get_height_record (section, 5, 3, &size);
  g_assert_cmpuint (size, ==, 8);
  {
    const guint8 expected[8] = { 239, 0x01, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00 };

    g_assert_cmpmem (record, size, expected, sizeof expected);
  }

  /* The last record ends exactly where the preview starts (version 2). */
  g_assert_cmpuint (f.offset[TERRAIN_SCT_BLOCK_HEIGHTS] + 24 * 8, ==,
                    f.offset[TERRAIN_SCT_BLOCK_PREVIEW]);
}

/* ---- Writing ----------------------------------------------------------- */

static void
test_roundtrip (gconstpointer data)
{
  const TerrainTestSctSpec *spec = data;
  g_auto(TerrainTestSct) f = { 0 };
  g_autoptr(TerrainSctSection) section = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GError) error = NULL;
  gsize first = 0;
  g_autofree char *where = NULL;

  terrain_test_sct_build (&f, spec);
  section = load_fixture (&f);

  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (section), &error);
  g_assert_no_error (error);
  g_assert_nonnull (written);
  g_assert_true (written != f.bytes);
  g_assert_cmpmem (g_bytes_get_data (written, NULL), g_bytes_get_size (written),
                   g_bytes_get_data (f.bytes, NULL), g_bytes_get_size (f.bytes));
  g_assert_true (terrain_document_compare_bytes (TERRAIN_DOCUMENT (section), written,
                                                 &first, &where));
  g_assert_null (where);

  /* Writing again, and reading what was written, gives the same again. */
  {
    g_autoptr(TerrainSctSection) again = NULL;
    g_autoptr(GBytes) rewritten = NULL;

    again = terrain_sct_section_new_from_bytes (written, NULL, &error);
    g_assert_no_error (error);
    rewritten = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (again), &error);
    g_assert_no_error (error);
    g_assert_true (g_bytes_equal (rewritten, f.bytes));
  }
}

static void
test_edit_heights (gconstpointer data)
{
  const TerrainTestSctSpec *spec = data;
  g_auto(TerrainTestSct) f = { 0 };
  g_autoptr(TerrainSctSection) section = NULL;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GBytes) reverted = NULL;
  g_autoptr(GArray) diffs = NULL;
  g_autoptr(GError) error = NULL;
  SignalLog log = { 0 };
  guint last_x, last_y;
  gsize size;
  const guint8 *record;
  const guint8 *tail;
  const guint8 *out;
  gsize first = 0;
  g_autofree char *where = NULL;

  terrain_test_sct_build (&f, spec);
  original = g_bytes_new (g_bytes_get_data (f.bytes, NULL), g_bytes_get_size (f.bytes));
  section = load_fixture (&f);
  g_signal_connect (section, "cells-changed", G_CALLBACK (on_changed), &log);
  tail = terrain_test_sct_record_tail (f.version);
  last_x = 2 * f.width - 1;
  last_y = 2 * f.height - 1;

  /* Setting the current value is not an edit. */
  terrain_sct_section_set_cell_height (section, 1, 1, terrain_test_sct_height (1, 1));
  g_assert_cmpuint (log.count, ==, 0);
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (section)));

  terrain_sct_section_set_cell_height (section, 1, 1,
                                       (guint8) (terrain_test_sct_height (1, 1) ^ 0x5A));
  g_assert_cmpuint (log.count, ==, 1);
  g_assert_cmpuint (log.x, ==, 1);
  g_assert_cmpuint (log.y, ==, 1);
  g_assert_cmpuint (log.w, ==, 1);
  g_assert_cmpuint (log.h, ==, 1);
  g_assert_true (terrain_document_get_modified (TERRAIN_DOCUMENT (section)));

  terrain_sct_section_set_cell_height (section, last_x, last_y, 0);
  g_assert_cmpuint (log.count, ==, 2);
  g_assert_cmpuint (log.x, ==, last_x);
  g_assert_cmpuint (log.y, ==, last_y);
  terrain_sct_section_set_cell_height (section, last_x, last_y, 0);
  g_assert_cmpuint (log.count, ==, 2);

  g_assert_cmpuint (terrain_sct_section_get_cell_height (section, 1, 1), ==,
                    (guint8) (terrain_test_sct_height (1, 1) ^ 0x5A));
  g_assert_cmpuint (terrain_sct_section_get_cell_height (section, last_x, last_y), ==, 0);
  g_assert_cmpuint (terrain_sct_section_get_cell_height (section, 0, 0), ==,
                    terrain_test_sct_height (0, 0));
  record = terrain_sct_section_get_height_record (section, 1, 1, &size);
  g_assert_cmpmem (record + 1, size - 1, tail, f.record_size - 1);

  /* The source was not written to: edits copy the block first. */
  g_assert_true (g_bytes_equal (f.bytes, original));

  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (section), &error);
  g_assert_no_error (error);
  diffs = diff_offsets (f.bytes, written);
  g_assert_cmpuint (diffs->len, ==, 2);
  g_assert_cmpuint (g_array_index (diffs, gsize, 0), ==,
                    f.offset[TERRAIN_SCT_BLOCK_HEIGHTS] + (1 * 2 * f.width + 1) * f.record_size);
  g_assert_cmpuint (g_array_index (diffs, gsize, 1), ==,
                    f.offset[TERRAIN_SCT_BLOCK_HEIGHTS] +
                    ((gsize) last_y * 2 * f.width + last_x) * f.record_size);
  out = g_bytes_get_data (written, NULL);
  g_assert_cmpuint (out[g_array_index (diffs, gsize, 1)], ==, 0);

  g_assert_false (terrain_document_compare_bytes (TERRAIN_DOCUMENT (section), written,
                                                  &first, &where));
  g_assert_cmpuint (first, ==, g_array_index (diffs, gsize, 0));
  g_assert_nonnull (where);
  g_assert_true (g_str_has_prefix (where, "height records, record "));
  g_assert_nonnull (strstr (where, "(x=1, y=1), byte +0"));

  /* Undoing the edits gives the original bytes back. */
  terrain_sct_section_set_cell_height (section, 1, 1, terrain_test_sct_height (1, 1));
  terrain_sct_section_set_cell_height (section, last_x, last_y,
                                       terrain_test_sct_height (last_x, last_y));
  g_assert_cmpuint (log.count, ==, 4);
  reverted = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (section), &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (reverted, f.bytes));
}

static void
test_edit_tiles (gconstpointer data)
{
  const TerrainTestSctSpec *spec = data;
  g_auto(TerrainTestSct) f = { 0 };
  g_autoptr(TerrainSctSection) section = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GArray) diffs = NULL;
  g_autoptr(GError) error = NULL;
  SignalLog tiles_log = { 0 };
  SignalLog cells_log = { 0 };
  guint column, row;
  guint16 tile;
  gsize at;
  const guint8 *out;

  terrain_test_sct_build (&f, spec);
  section = load_fixture (&f);
  g_signal_connect (section, "tiles-changed", G_CALLBACK (on_changed), &tiles_log);
  g_signal_connect (section, "cells-changed", G_CALLBACK (on_changed), &cells_log);

  column = f.width - 1;
  row = f.height - 1;
  terrain_sct_section_set_tile_index (section, column, row,
                                      terrain_test_sct_tile_index (&f, column, row));
  g_assert_cmpuint (tiles_log.count, ==, 0);
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (section)));

  /* 0x1234 is out of range for the tile graphics; that is a validation
   * finding, not a refusal, and both bytes of the word change. */
  tile = 0x1234;
  terrain_sct_section_set_tile_index (section, column, row, tile);
  g_assert_cmpuint (tiles_log.count, ==, 1);
  g_assert_cmpuint (tiles_log.x, ==, column);
  g_assert_cmpuint (tiles_log.y, ==, row);
  g_assert_cmpuint (tiles_log.w, ==, 1);
  g_assert_cmpuint (tiles_log.h, ==, 1);
  g_assert_cmpuint (cells_log.count, ==, 0);
  g_assert_true (terrain_document_get_modified (TERRAIN_DOCUMENT (section)));
  g_assert_cmpuint (terrain_sct_section_get_tile_index (section, column, row), ==, tile);
  terrain_sct_section_set_tile_index (section, column, row, tile);
  g_assert_cmpuint (tiles_log.count, ==, 1);

  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (section), &error);
  g_assert_no_error (error);
  diffs = diff_offsets (f.bytes, written);
  at = f.offset[TERRAIN_SCT_BLOCK_TILE_MAP] + 2 * ((gsize) row * f.width + column);
  g_assert_cmpuint (diffs->len, ==, 2);
  g_assert_cmpuint (g_array_index (diffs, gsize, 0), ==, at);
  g_assert_cmpuint (g_array_index (diffs, gsize, 1), ==, at + 1);
  out = g_bytes_get_data (written, NULL);
  g_assert_cmpuint (out[at], ==, 0x34);
  g_assert_cmpuint (out[at + 1], ==, 0x12);
}

/* ---- Malformed input ----------------------------------------------------- */

/* Cuts the file at every length. Cuts inside the trailing bytes load (with
 * fewer trailing bytes, written back as they are); every other cut fails: at
 * or inside a block with TRUNCATED (naming the block, and for the height
 * records the first missing or incomplete record), inside a gap before a
 * pointed-to block with OUT_OF_RANGE. */
static void
test_truncation (gconstpointer data)
{
  const TerrainTestSctSpec *spec = data;
  g_auto(TerrainTestSct) f = { 0 };
  gsize total;

  terrain_test_sct_build (&f, spec);
  total = g_bytes_get_size (f.bytes);

  for (gsize cut = 0; cut < total; cut++)
    {
      g_autoptr(GBytes) bytes = g_bytes_new_from_bytes (f.bytes, 0, cut);
      g_autoptr(TerrainSctSection) section = NULL;
      g_autoptr(GError) error = NULL;
      TerrainSctBlock failing = TERRAIN_SCT_BLOCK_HEADER;
      TerrainError expected = TERRAIN_ERROR_TRUNCATED;

      section = terrain_sct_section_new_from_bytes (bytes, NULL, &error);

      if (cut >= f.end)
        {
          g_autoptr(GBytes) written = NULL;

          g_assert_no_error (error);
          written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (section), &error);
          g_assert_no_error (error);
          g_assert_true (g_bytes_equal (written, bytes));
          continue;
        }

      g_assert_null (section);
      g_assert_nonnull (error);
      g_assert_true (error->domain == TERRAIN_ERROR);

      if (cut >= TERRAIN_SCT_HEADER_SIZE)
        {
          for (guint i = 0; i < N_BLOCKS; i++)
            {
              failing = f.order[i];
              if (f.offset[failing] + f.size[failing] > cut)
                break;
            }
          if (f.offset[failing] > cut)
            expected = TERRAIN_ERROR_OUT_OF_RANGE;
        }

      if (!g_error_matches (error, TERRAIN_ERROR, expected))
        g_error ("%s: cut at %" G_GSIZE_FORMAT " (in %s): expected code %d, got %d: %s",
                 spec->name, cut, block_names[failing], expected, error->code, error->message);
      if (strstr (error->message, block_names[failing]) == NULL)
        g_error ("%s: cut at %" G_GSIZE_FORMAT ": \"%s\" does not name the %s",
                 spec->name, cut, error->message, block_names[failing]);

      if (failing == TERRAIN_SCT_BLOCK_HEIGHTS)
        {
          gsize record = (cut - f.offset[TERRAIN_SCT_BLOCK_HEIGHTS]) / f.record_size;
          g_autofree char *needle = g_strdup_printf ("record %" G_GSIZE_FORMAT " (x=%u, y=%u)",
                                                     record, (guint) (record % (2 * f.width)),
                                                     (guint) (record / (2 * f.width)));

          if (strstr (error->message, needle) == NULL)
            g_error ("%s: cut at %" G_GSIZE_FORMAT ": \"%s\" does not name %s",
                     spec->name, cut, error->message, needle);
          if ((cut - f.offset[TERRAIN_SCT_BLOCK_HEIGHTS]) % f.record_size != 0)
            g_assert_nonnull (strstr (error->message, "incomplete"));
        }
    }
}

static void
test_overlap (void)
{
  g_auto(TerrainTestSct) v2 = { 0 };
  g_auto(TerrainTestSct) v3 = { 0 };
  gsize heights_end;

  terrain_test_sct_build (&v2, &specs[0]);
  terrain_test_sct_build (&v3, &specs[1]);

  /* Version 3: tile graphics starting on the last byte of the final record. */
  heights_end = v3.offset[TERRAIN_SCT_BLOCK_HEIGHTS] + v3.size[TERRAIN_SCT_BLOCK_HEIGHTS];
  {
    g_autoptr(GBytes) bad = bytes_patch_u32 (v3.bytes, 12, (guint32) heights_end - 1);

    assert_load_fails (bad, NULL, TERRAIN_ERROR_OVERLAP, "height records");
  }

  /* Version 2: a preview starting inside the ignored tail of the final
   * record still overlaps: the complete 8-byte record span counts. */
  heights_end = v2.offset[TERRAIN_SCT_BLOCK_HEIGHTS] + v2.size[TERRAIN_SCT_BLOCK_HEIGHTS];
  {
    g_autoptr(GBytes) bad = bytes_patch_u32 (v2.bytes, 4, (guint32) heights_end - 2);

    assert_load_fails (bad, NULL, TERRAIN_ERROR_OVERLAP, "preview");
  }

  /* Blocks overlapping the header. */
  {
    g_autoptr(GBytes) bad = bytes_patch_u32 (v2.bytes, 4, 16);

    assert_load_fails (bad, NULL, TERRAIN_ERROR_OVERLAP, "header");
  }
  {
    g_autoptr(GBytes) bad = bytes_patch_u32 (v3.bytes, 24, 0);

    assert_load_fails (bad, NULL, TERRAIN_ERROR_OVERLAP, "header");
  }
  {
    g_autoptr(GBytes) bad = bytes_patch_u32 (v3.bytes, 12, 27);

    assert_load_fails (bad, NULL, TERRAIN_ERROR_OVERLAP, "header");
  }

  /* Two pointers to the same bytes. */
  {
    g_autoptr(GBytes) bad = bytes_patch_u32 (v3.bytes, 12,
                                             (guint32) v3.offset[TERRAIN_SCT_BLOCK_PREVIEW]);

    assert_load_fails (bad, NULL, TERRAIN_ERROR_OVERLAP, "tile graphics");
  }

  /* The tile index grid moved onto the tile graphics (the height records
   * follow it there). */
  {
    g_autoptr(GBytes) bad = bytes_patch_u32 (v3.bytes, 24,
                                             (guint32) v3.offset[TERRAIN_SCT_BLOCK_TILES] + 100);

    assert_load_fails (bad, NULL, TERRAIN_ERROR_OVERLAP, "tile index grid");
  }

  /* Adjacent blocks do not overlap: the fixtures themselves load. */
  {
    g_autoptr(TerrainSctSection) a = load_fixture (&v2);
    g_autoptr(TerrainSctSection) b = load_fixture (&v3);

    g_assert_nonnull (a);
    g_assert_nonnull (b);
  }
}

static void
test_out_of_range (void)
{
  g_auto(TerrainTestSct) f = { 0 };
  gsize total;

  terrain_test_sct_build (&f, &specs[3]);
  total = g_bytes_get_size (f.bytes);

  {
    g_autoptr(GBytes) bad = bytes_patch_u32 (f.bytes, 4, (guint32) total + 1);

    assert_load_fails (bad, NULL, TERRAIN_ERROR_OUT_OF_RANGE, "preview");
  }
  {
    g_autoptr(GBytes) bad = bytes_patch_u32 (f.bytes, 12, G_MAXUINT32);

    assert_load_fails (bad, NULL, TERRAIN_ERROR_OUT_OF_RANGE, "tile graphics");
  }
  {
    g_autoptr(GBytes) bad = bytes_patch_u32 (f.bytes, 24, (guint32) total + 100);

    assert_load_fails (bad, NULL, TERRAIN_ERROR_OUT_OF_RANGE, "tile index grid");
  }
  {
    g_autoptr(GBytes) bad = bytes_patch_u32 (f.bytes, 24, G_MAXUINT32);

    assert_load_fails (bad, NULL, TERRAIN_ERROR_OUT_OF_RANGE, "tile index grid");
  }

  /* A pointer inside the file whose block runs past its end. */
  {
    g_autoptr(GBytes) bad = bytes_patch_u32 (f.bytes, 4, (guint32) total - 100);

    assert_load_fails (bad, NULL, TERRAIN_ERROR_TRUNCATED, "preview");
  }
}

static void
test_unsupported_version (void)
{
  static const guint32 versions[] = { 0, 1, 4, 0x2000, 0x1020, G_MAXUINT32 };
  g_auto(TerrainTestSct) f = { 0 };

  terrain_test_sct_build (&f, &specs[0]);

  for (guint i = 0; i < G_N_ELEMENTS (versions); i++)
    {
      g_autoptr(GBytes) bad = bytes_patch_u32 (f.bytes, 0, versions[i]);

      assert_load_fails (bad, NULL, TERRAIN_ERROR_UNSUPPORTED_VERSION, "version");
    }
}

static void
test_zero_size (void)
{
  g_auto(TerrainTestSct) f = { 0 };

  terrain_test_sct_build (&f, &specs[1]);

  {
    g_autoptr(GBytes) bad = bytes_patch_u32 (f.bytes, 16, 0);

    assert_load_fails (bad, NULL, TERRAIN_ERROR_INVALID_VALUE, "0x2");
  }
  {
    g_autoptr(GBytes) bad = bytes_patch_u32 (f.bytes, 20, 0);

    assert_load_fails (bad, NULL, TERRAIN_ERROR_INVALID_VALUE, "3x0");
  }
  {
    g_autoptr(GBytes) bad = header_bytes (3, 28, 0, 28, 0, 0, 28);

    assert_load_fails (bad, NULL, TERRAIN_ERROR_INVALID_VALUE, NULL);
  }
}

/* A section with no tiles: the empty tile graphics block may point anywhere
 * inside the file, even at the header; every tile index is then bad. */
static void
test_no_tiles (void)
{
  static const TerrainTestSctSpec spec = { "no-tiles", TERRAIN_TEST_SCT_V3, 6, 5, 0, 4, 0 };
  g_auto(TerrainTestSct) f = { 0 };
  g_autoptr(GBytes) patched = NULL;
  g_autoptr(TerrainSctSection) section = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GError) error = NULL;
  TerrainIssue *summary;

  terrain_test_sct_build (&f, &spec);
  patched = bytes_patch_u32 (f.bytes, 12, 0);
  section = terrain_sct_section_new_from_bytes (patched, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_sct_section_get_n_tiles (section), ==, 0);

  /* 30 bad indices: the first 20 one by one, then a summary. */
  issues = terrain_document_validate (TERRAIN_DOCUMENT (section));
  g_assert_cmpuint (issues->len, ==, 21);
  for (guint i = 0; i < 20; i++)
    {
      TerrainIssue *issue = g_ptr_array_index (issues, i);
      gint x = -1, y = -1;

      g_assert_cmpint (terrain_issue_get_severity (issue), ==, TERRAIN_SEVERITY_WARNING);
      g_assert_cmpint (terrain_issue_get_record (issue), ==, i);
      g_assert_true (terrain_issue_get_position (issue, &x, &y));
      g_assert_cmpint (x, ==, i % 6);
      g_assert_cmpint (y, ==, i / 6);
    }
  summary = g_ptr_array_index (issues, 20);
  g_assert_cmpint (terrain_issue_get_severity (summary), ==, TERRAIN_SEVERITY_WARNING);
  g_assert_nonnull (strstr (terrain_issue_get_message (summary), "10 more"));
  g_assert_nonnull (strstr (terrain_issue_get_message (summary), "30"));

  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (section), &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (written, patched));

  /* Rendering draws the checker everywhere. */
  {
    g_autoptr(TerrainPalette) palette = test_palette ();
    g_autoptr(TerrainImage) image = terrain_sct_section_render (section, palette, &error);

    g_assert_no_error (error);
    assert_pixel (image, 0, 0, 255, 0, 255);
    assert_pixel (image, 8, 0, 0, 0, 0);
    assert_pixel (image, 6 * 32 - 1, 5 * 32 - 1, 255, 0, 255);
  }
}

static void
test_limits (void)
{
  g_auto(TerrainTestSct) f = { 0 };

  /* A bare header claiming four billion tiles fails on the count, before
   * any span is looked at or anything allocated. */
  {
    g_autoptr(GBytes) header = header_bytes (3, 28, G_MAXUINT32, 28, 1, 1, 28);
    gint64 start = g_get_monotonic_time ();

    assert_load_fails (header, NULL, TERRAIN_ERROR_LIMIT_EXCEEDED, "tile");
    g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
  }
  {
    g_autoptr(GBytes) header = header_bytes (2, 28, 4000000000u, 28, 1, 1, 28);

    assert_load_fails (header, NULL, TERRAIN_ERROR_LIMIT_EXCEEDED, "4000000000");
  }

  /* Grid sides beyond the default limit. */
  {
    g_autoptr(GBytes) header = header_bytes (2, 28, 1, 28, 8193, 1, 28);

    assert_load_fails (header, NULL, TERRAIN_ERROR_LIMIT_EXCEEDED, "8193");
  }
  {
    g_autoptr(GBytes) header = header_bytes (3, 28, 1, 28, 1, G_MAXUINT32, 28);

    assert_load_fails (header, NULL, TERRAIN_ERROR_LIMIT_EXCEEDED, NULL);
  }

  /* The largest grid the defaults accept, in a 28-byte file: the spans are
   * rejected without allocating the 2 GiB they describe. */
  {
    g_autoptr(GBytes) header = header_bytes (2, 28, 0, 28, 8192, 8192, 28);

    assert_load_fails (header, NULL, TERRAIN_ERROR_TRUNCATED, NULL);
  }

  terrain_test_sct_build (&f, &specs[0]);

  {
    g_autoptr(TerrainLimits) limits = terrain_limits_new ();

    limits->max_cells_per_side = 2;
    assert_load_fails (f.bytes, limits, TERRAIN_ERROR_LIMIT_EXCEEDED, "column");
  }
  {
    g_autoptr(TerrainLimits) limits = terrain_limits_new ();

    limits->max_tiles = 3;
    assert_load_fails (f.bytes, limits, TERRAIN_ERROR_LIMIT_EXCEEDED, "tile");
  }
  {
    g_autoptr(TerrainLimits) limits = terrain_limits_new ();

    /* The 192 bytes of height records are over a 100-byte budget. */
    limits->max_allocation = 100;
    assert_load_fails (f.bytes, limits, TERRAIN_ERROR_LIMIT_EXCEEDED, "height records");
  }
  {
    g_autoptr(TerrainLimits) limits = terrain_limits_new ();
    g_autoptr(TerrainSctSection) section = NULL;
    g_autoptr(GError) error = NULL;

    /* Exactly at every limit is accepted. */
    limits->max_cells_per_side = 3;
    limits->max_tiles = 4;
    limits->max_allocation = 4 * TERRAIN_SCT_TILE_BYTES;
    section = terrain_sct_section_new_from_bytes (f.bytes, limits, &error);
    g_assert_no_error (error);
    g_assert_nonnull (section);
  }
}

/* Every header byte set to a few values: loading either fails with a
 * TERRAIN_ERROR or gives a section that every operation handles. */
static void
test_header_mutations (void)
{
  static const guint8 values[] = { 0x00, 0x01, 0x7F, 0x80, 0xFF };
  g_autoptr(TerrainPalette) palette = test_palette ();

  for (guint s = 0; s < 3; s++)
    {
      g_auto(TerrainTestSct) f = { 0 };
      gsize size;

      terrain_test_sct_build (&f, &specs[s + 3]);
      size = g_bytes_get_size (f.bytes);

      for (guint at = 0; at < TERRAIN_SCT_HEADER_SIZE; at++)
        for (guint v = 0; v < G_N_ELEMENTS (values); v++)
          {
            g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (f.bytes, NULL), size);
            g_autoptr(GBytes) bytes = NULL;
            g_autoptr(TerrainSctSection) section = NULL;
            g_autoptr(GError) error = NULL;

            copy[at] = values[v];
            bytes = g_bytes_new (copy, size);
            section = terrain_sct_section_new_from_bytes (bytes, NULL, &error);

            if (section == NULL)
              {
                g_assert_nonnull (error);
                g_assert_true (error->domain == TERRAIN_ERROR);
                g_assert_cmpstr (error->message, !=, "");
              }
            else
              {
                g_autoptr(GBytes) written = NULL;
                g_autoptr(GPtrArray) issues = NULL;
                g_autoptr(TerrainImage) heights = NULL;
                g_autoptr(JsonNode) node = NULL;

                g_assert_no_error (error);
                written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (section), &error);
                g_assert_no_error (error);
                g_assert_true (g_bytes_equal (written, bytes));
                issues = terrain_document_validate (TERRAIN_DOCUMENT (section));
                g_assert_nonnull (issues);
                heights = terrain_document_export_heights (TERRAIN_DOCUMENT (section), &error);
                g_assert_no_error (error);
                node = terrain_document_describe (TERRAIN_DOCUMENT (section));
                g_assert_nonnull (node);
                if ((gsize) terrain_sct_section_get_width (section) *
                    terrain_sct_section_get_height (section) < 4096)
                  {
                    g_autoptr(TerrainImage) image =
                      terrain_sct_section_render (section, palette, &error);

                    g_assert_no_error (error);
                  }
              }
          }
    }
}

/* ---- Pictures and reports ------------------------------------------------ */

static void
test_render (gconstpointer data)
{
  const TerrainTestSctSpec *spec = data;
  g_auto(TerrainTestSct) f = { 0 };
  g_autoptr(TerrainSctSection) section = NULL;
  g_autoptr(TerrainPalette) palette = test_palette ();
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(TerrainImage) image2 = NULL;
  g_autoptr(TerrainRenderOptions) options = NULL;
  g_autoptr(TerrainImage) checker = NULL;
  g_autoptr(TerrainImage) preview = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *rgba;

  terrain_test_sct_build (&f, spec);
  section = load_fixture (&f);
  rgba = terrain_palette_get_rgba_table (palette);

  image = terrain_sct_section_render (section, NULL, &error);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_null (image);
  g_clear_error (&error);

  image = terrain_sct_section_render (section, palette, &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_image_get_format (image), ==, TERRAIN_IMAGE_RGBA8);
  g_assert_cmpuint (terrain_image_get_width (image), ==, f.width * 32);
  g_assert_cmpuint (terrain_image_get_height (image), ==, f.height * 32);

  for (guint y = 0; y < f.height * 32; y++)
    for (guint x = 0; x < f.width * 32; x++)
      {
        guint16 tile = terrain_test_sct_tile_index (&f, x / 32, y / 32);
        guint8 index = terrain_test_sct_tile_pixel (tile, (y % 32) * 32 + x % 32);

        assert_pixel (image, x, y, rgba[4 * index], rgba[4 * index + 1], rgba[4 * index + 2]);
      }

  /* The document vfunc draws the same picture. */
  options = terrain_palette_to_render_options (palette);
  image2 = terrain_document_render_image (TERRAIN_DOCUMENT (section), options, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (terrain_image_get_data (image, NULL),
                   terrain_image_get_stride (image) * terrain_image_get_height (image),
                   terrain_image_get_data (image2, NULL),
                   terrain_image_get_stride (image2) * terrain_image_get_height (image2));

  /* A tile index without graphics: magenta/black checker of 8-pixel squares. */
  terrain_sct_section_set_tile_index (section, f.width - 1, 0, (guint16) f.n_tiles);
  checker = terrain_sct_section_render (section, palette, &error);
  g_assert_no_error (error);
  {
    guint x0 = (f.width - 1) * 32;

    assert_pixel (checker, x0, 0, 255, 0, 255);
    assert_pixel (checker, x0 + 7, 7, 255, 0, 255);
    assert_pixel (checker, x0 + 8, 0, 0, 0, 0);
    assert_pixel (checker, x0, 8, 0, 0, 0);
    assert_pixel (checker, x0 + 8, 8, 255, 0, 255);
    assert_pixel (checker, x0 + 31, 31, 255, 0, 255);
  }

  preview = terrain_sct_section_render_preview (section, NULL, &error);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_null (preview);
  g_clear_error (&error);

  preview = terrain_sct_section_render_preview (section, palette, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_image_get_width (preview), ==, 128);
  g_assert_cmpuint (terrain_image_get_height (preview), ==, 128);
  for (guint y = 0; y < 128; y++)
    for (guint x = 0; x < 128; x++)
      {
        guint8 index = terrain_test_sct_preview ((gsize) y * 128 + x);

        assert_pixel (preview, x, y, rgba[4 * index], rgba[4 * index + 1], rgba[4 * index + 2]);
      }
}

static void
test_export_heights (gconstpointer data)
{
  const TerrainTestSctSpec *spec = data;
  g_auto(TerrainTestSct) f = { 0 };
  g_autoptr(TerrainSctSection) section = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *pixels;

  terrain_test_sct_build (&f, spec);
  section = load_fixture (&f);
  terrain_sct_section_set_cell_height (section, 0, 1, 255);

  image = terrain_document_export_heights (TERRAIN_DOCUMENT (section), &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_image_get_format (image), ==, TERRAIN_IMAGE_GRAY16);
  g_assert_cmpuint (terrain_image_get_width (image), ==, 2 * f.width);
  g_assert_cmpuint (terrain_image_get_height (image), ==, 2 * f.height);

  pixels = terrain_image_get_data (image, NULL);
  for (guint y = 0; y < 2 * f.height; y++)
    for (guint x = 0; x < 2 * f.width; x++)
      {
        guint16 value;
        guint8 expected = x == 0 && y == 1 ? 255 : terrain_test_sct_height (x, y);

        memcpy (&value, pixels + (gsize) y * terrain_image_get_stride (image) + 2 * x,
                sizeof value);
        g_assert_cmpuint (value, ==, expected * 257u);
      }
}

static void
test_validate (void)
{
  g_auto(TerrainTestSct) f = { 0 };
  g_autoptr(TerrainSctSection) section = NULL;
  g_autoptr(GPtrArray) clean = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  TerrainIssue *issue;
  gint x = -1, y = -1;

  terrain_test_sct_build (&f, &specs[0]);
  section = load_fixture (&f);

  clean = terrain_document_validate (TERRAIN_DOCUMENT (section));
  g_assert_cmpuint (clean->len, ==, 0);

  terrain_sct_section_set_tile_index (section, 2, 1, 77);
  issues = terrain_document_validate (TERRAIN_DOCUMENT (section));
  g_assert_cmpuint (issues->len, ==, 1);
  issue = g_ptr_array_index (issues, 0);
  g_assert_cmpint (terrain_issue_get_severity (issue), ==, TERRAIN_SEVERITY_WARNING);
  g_assert_cmpstr (terrain_issue_get_section (issue), ==, "tile index grid");
  g_assert_cmpint (terrain_issue_get_record (issue), ==, 5);
  g_assert_cmpint (terrain_issue_get_offset (issue), ==,
                   (gint64) f.offset[TERRAIN_SCT_BLOCK_TILE_MAP] + 10);
  g_assert_true (terrain_issue_get_position (issue, &x, &y));
  g_assert_cmpint (x, ==, 2);
  g_assert_cmpint (y, ==, 1);
  g_assert_nonnull (strstr (terrain_issue_get_message (issue), "77"));
}

static void
test_describe (gconstpointer data)
{
  const TerrainTestSctSpec *spec = data;
  g_auto(TerrainTestSct) f = { 0 };
  g_autoptr(TerrainSctSection) section = NULL;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *object, *grid;
  JsonArray *blocks;
  static const char * const ids[N_BLOCKS] = {
    "header", "preview", "tiles", "tile_map", "heights",
  };

  terrain_test_sct_build (&f, spec);
  section = load_fixture (&f);
  node = terrain_document_describe (TERRAIN_DOCUMENT (section));
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  object = json_node_get_object (node);

  g_assert_cmpstr (json_object_get_string_member (object, "format"), ==, "sct");
  g_assert_cmpint (json_object_get_int_member (object, "version"), ==, f.version);
  g_assert_cmpint (json_object_get_int_member (object, "width"), ==, f.width);
  g_assert_cmpint (json_object_get_int_member (object, "height"), ==, f.height);
  grid = json_object_get_object_member (object, "height_grid");
  g_assert_nonnull (grid);
  g_assert_cmpint (json_object_get_int_member (grid, "width"), ==, 2 * f.width);
  g_assert_cmpint (json_object_get_int_member (grid, "height"), ==, 2 * f.height);
  g_assert_cmpint (json_object_get_int_member (object, "record_size"), ==, f.record_size);
  g_assert_cmpint (json_object_get_int_member (object, "tiles"), ==, f.n_tiles);
  g_assert_cmpint (json_object_get_int_member (object, "file_size"), ==,
                   g_bytes_get_size (f.bytes));
  g_assert_cmpint (json_object_get_int_member (object, "unreferenced_bytes"), ==, f.unreferenced);

  blocks = json_object_get_array_member (object, "blocks");
  g_assert_nonnull (blocks);
  g_assert_cmpuint (json_array_get_length (blocks), ==, N_BLOCKS);
  for (guint i = 0; i < N_BLOCKS; i++)
    {
      JsonObject *block = json_array_get_object_element (blocks, i);
      TerrainSctBlock b = f.order[i];

      g_assert_cmpstr (json_object_get_string_member (block, "name"), ==, ids[b]);
      g_assert_cmpint (json_object_get_int_member (block, "offset"), ==, f.offset[b]);
      g_assert_cmpint (json_object_get_int_member (block, "size"), ==, f.size[b]);
    }
}

static void
test_describe_offset (void)
{
  g_auto(TerrainTestSct) f = { 0 };
  g_autoptr(TerrainSctSection) section = NULL;
  TerrainDocument *doc;
  gsize heights, preview, tiles, map;
  g_autofree char *s = NULL;

  /* v2-gaps: 3x2 tiles, 6x4 heights, gap before the tile map and the tiles. */
  terrain_test_sct_build (&f, &specs[3]);
  section = load_fixture (&f);
  doc = TERRAIN_DOCUMENT (section);
  heights = f.offset[TERRAIN_SCT_BLOCK_HEIGHTS];
  preview = f.offset[TERRAIN_SCT_BLOCK_PREVIEW];
  tiles = f.offset[TERRAIN_SCT_BLOCK_TILES];
  map = f.offset[TERRAIN_SCT_BLOCK_TILE_MAP];

#define CHECK(offset, expected) \
  G_STMT_START { \
    g_free (s); \
    s = terrain_document_describe_offset (doc, (offset)); \
    g_assert_cmpstr (s, ==, (expected)); \
  } G_STMT_END

  CHECK (0, "header, version (word 0), byte +0");
  CHECK (9, "header, tile count (word 2), byte +1");
  CHECK (27, "header, tile index offset (word 6), byte +3");
  CHECK (28, "gap");
  CHECK (map + 3, "tile index grid, entry 1 (column=1, row=0), byte +1");
  CHECK (heights, "height records, record 0 (x=0, y=0), byte +0");
  CHECK (heights + 17 * 8, "height records, record 17 (x=5, y=2), byte +0");
  CHECK (heights + 17 * 8 + 7, "height records, record 17 (x=5, y=2), byte +7");
  CHECK (preview + 130, "preview, pixel 130 (x=2, y=1)");
  CHECK (tiles - 1, "gap");
  CHECK (tiles + 1024 + 33, "tile graphics, tile 1, pixel 33 (x=1, y=1)");
  CHECK (f.end, "trailing bytes");
  CHECK (g_bytes_get_size (f.bytes), "end of file");

#undef CHECK
}

/* ---- Detection ----------------------------------------------------------- */

static void
test_detect (void)
{
  for (guint i = 0; i < 3; i++)
    {
      g_auto(TerrainTestSct) f = { 0 };
      g_autoptr(TerrainDocument) doc = NULL;
      g_autoptr(TerrainDocument) doc2 = NULL;
      g_autoptr(GError) error = NULL;

      terrain_test_sct_build (&f, &specs[i]);

      g_assert_cmpint (terrain_format_detect (f.bytes, "Section.sct"), ==, TERRAIN_FORMAT_SCT);
      g_assert_cmpint (terrain_format_detect (f.bytes, "SECTION.SCT"), ==, TERRAIN_FORMAT_SCT);
      g_assert_cmpint (terrain_format_detect (f.bytes, NULL), ==, TERRAIN_FORMAT_SCT);
      g_assert_cmpint (terrain_format_detect (NULL, "grass.sct"), ==, TERRAIN_FORMAT_SCT);
      g_assert_cmpint (terrain_format_from_name ("sct"), ==, TERRAIN_FORMAT_SCT);
      g_assert_true (terrain_format_can_load (TERRAIN_FORMAT_SCT));

      doc = terrain_document_load_bytes (f.bytes, "grass.sct", TERRAIN_FORMAT_UNKNOWN, NULL,
                                         &error);
      g_assert_no_error (error);
      g_assert_true (TERRAIN_IS_SCT_SECTION (doc));
      g_assert_cmpint (terrain_document_get_format (doc), ==, TERRAIN_FORMAT_SCT);
      g_assert_cmpuint (terrain_sct_section_get_version (TERRAIN_SCT_SECTION (doc)), ==,
                        f.version);

      /* Without a name, the version word identifies it. */
      doc2 = terrain_document_load_bytes (f.bytes, NULL, TERRAIN_FORMAT_UNKNOWN, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (TERRAIN_IS_SCT_SECTION (doc2));
    }

  /* A malformed .sct reports the section reader's error through the loader. */
  {
    g_autoptr(GBytes) bytes = header_bytes (3, 28, 1, 28, 1, 1, 28);
    g_autoptr(TerrainDocument) doc = NULL;
    g_autoptr(GError) error = NULL;

    doc = terrain_document_load_bytes (bytes, "bad.sct", TERRAIN_FORMAT_UNKNOWN, NULL, &error);
    g_assert_null (doc);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
  }
}

/* Saving through a file: atomic write, then the document is clean. */
static void
test_save_file (void)
{
  g_auto(TerrainTestSct) f = { 0 };
  g_autoptr(TerrainSctSection) section = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  terrain_test_sct_build (&f, &specs[4]);
  section = load_fixture (&f);
  terrain_sct_section_set_cell_height (section, 2, 3, 99);
  g_assert_true (terrain_document_get_modified (TERRAIN_DOCUMENT (section)));

  dir = g_dir_make_tmp ("test-sct-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "edited.sct", NULL);
  file = g_file_new_for_path (path);

  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (section), file, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (section)));

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (length, ==, g_bytes_get_size (f.bytes));
  g_assert_cmpuint ((guint8) contents[f.offset[TERRAIN_SCT_BLOCK_HEIGHTS] +
                                      (3 * 2 * f.width + 2) * f.record_size], ==, 99);

  {
    g_autoptr(TerrainDocument) reloaded = terrain_document_load (file, NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_true (TERRAIN_IS_SCT_SECTION (reloaded));
    g_assert_cmpuint (terrain_sct_section_get_cell_height (TERRAIN_SCT_SECTION (reloaded), 2, 3),
                      ==, 99);
  }

  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  static const struct
  {
    const char *name;
    GTestDataFunc func;
  } per_spec[] = {
    { "read", test_read },
    { "roundtrip", test_roundtrip },
    { "truncation", test_truncation },
    { "edit-heights", test_edit_heights },
    { "edit-tiles", test_edit_tiles },
    { "render", test_render },
    { "export-heights", test_export_heights },
    { "describe", test_describe },
  };

  g_test_init (&argc, &argv, NULL);

  for (guint t = 0; t < G_N_ELEMENTS (per_spec); t++)
    for (guint s = 0; s < G_N_ELEMENTS (specs); s++)
      {
        g_autofree char *path = g_strdup_printf ("/Terrain/SctSection/%s/%s",
                                                 per_spec[t].name, specs[s].name);

        g_test_add_data_func (path, &specs[s], per_spec[t].func);
      }

  g_test_add_func ("/Terrain/SctSection/read/known-cells", test_read_known_cells);
  g_test_add_func ("/Terrain/SctSection/overlap", test_overlap);
  g_test_add_func ("/Terrain/SctSection/out-of-range", test_out_of_range);
  g_test_add_func ("/Terrain/SctSection/unsupported-version", test_unsupported_version);
  g_test_add_func ("/Terrain/SctSection/zero-size", test_zero_size);
  g_test_add_func ("/Terrain/SctSection/no-tiles", test_no_tiles);
  g_test_add_func ("/Terrain/SctSection/limits", test_limits);
  g_test_add_func ("/Terrain/SctSection/header-mutations", test_header_mutations);
  g_test_add_func ("/Terrain/SctSection/validate", test_validate);
  g_test_add_func ("/Terrain/SctSection/describe-offset", test_describe_offset);
  g_test_add_func ("/Terrain/SctSection/detect", test_detect);
  g_test_add_func ("/Terrain/SctSection/save-file", test_save_file);

  return g_test_run ();
}
