/* test-tnt-write.c: TNT map edits through the map's setters, relayout and new maps
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Fixtures from test-tnt-fixture.c (tnt-sct.md). Undoable edits through
 * the command stack are in test-tnt-edit.c.
 */

#include "config.h"

#include <string.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"

#include "test-tnt-fixture.h"

/* ------------------------------------------------------------------------ */
/* Edits                                                                    */

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *counter)
{
  (*counter)++;
}

typedef struct
{
  guint calls;
  guint x, y, w, h;
} ChangeLog;

static void
on_region_changed (TerrainTntMap *map,
                   guint          x,
                   guint          y,
                   guint          w,
                   guint          h,
                   ChangeLog     *log)
{
  log->calls++;
  log->x = x;
  log->y = y;
  log->w = w;
  log->h = h;
}

static void
test_edit_sea_level (void)
{
  for (guint legacy = 0; legacy < 2; legacy++)
    {
      Spec spec;
      Fixture fx;
      g_autoptr(TerrainTntMap) map = NULL;
      g_autoptr(GBytes) out = NULL;
      guint notified = 0;
      const Range ranges[] = { { 0x24, 4 } };

      if (legacy)
        spec_legacy (&spec);
      else
        spec_default (&spec);
      spec.pad[2] = 99;
      spec.gap = 3;
      spec.trailing = 2;
      fixture_build (&fx, &spec);
      map = load_ok (fx.bytes);
      g_signal_connect (map, "notify::sea-level", G_CALLBACK (count_notify), &notified);

      g_assert_true (terrain_tnt_map_set_sea_level (map, 40, NULL));      /* unchanged */
      g_assert_cmpuint (notified, ==, 0);
      g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (map)));

      g_assert_true (terrain_tnt_map_set_sea_level (map, 200, NULL));
      g_assert_cmpuint (notified, ==, 1);
      g_assert_true (terrain_document_get_modified (TERRAIN_DOCUMENT (map)));
      g_assert_true (terrain_tnt_map_set_sea_level (map, 200, NULL));
      g_assert_cmpuint (notified, ==, 1);
      /* One rule, terrain_tnt_map_check_sea_level(): 0 to 255, and one
       * message for a higher level, whichever way it is set; the level
       * stays. */
      g_object_set (map, "sea-level", 255u, NULL);
      g_assert_cmpuint (notified, ==, 2);
      g_object_set (map, "sea-level", 255u, NULL);
      g_assert_cmpuint (notified, ==, 2);
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(GError) set_error = NULL;
        g_autoptr(GError) edit_error = NULL;
        g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
        g_autoptr(TerrainCommand) edit = terrain_tnt_edit_new_sea_level (map, 300);
        g_autofree char *pattern = NULL;

        g_assert_true (terrain_tnt_map_check_sea_level (0, NULL));
        g_assert_true (terrain_tnt_map_check_sea_level (TERRAIN_TNT_MAX_SEA_LEVEL, &error));
        g_assert_no_error (error);
        g_assert_false (terrain_tnt_map_check_sea_level (300, &error));
        g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
        g_assert_nonnull (strstr (error->message, "sea level 300 is above the maximum 255"));
        g_assert_false (terrain_tnt_map_check_sea_level (256, NULL));
        g_assert_false (terrain_tnt_map_check_sea_level (G_MAXUINT32, NULL));

        g_assert_false (terrain_tnt_map_set_sea_level (map, 300, &set_error));
        g_assert_error (set_error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
        g_assert_cmpstr (set_error->message, ==, error->message);

        /* The property has no error to return: the same message, as a
         * warning. */
        pattern = g_strdup_printf ("*%s*", error->message);
        g_test_expect_message ("Terrain", G_LOG_LEVEL_WARNING, pattern);
        g_object_set (map, "sea-level", 300u, NULL);
        g_test_assert_expected_messages ();

        /* The edit fails with it too. */
        g_assert_false (terrain_command_stack_execute (stack, edit, &edit_error));
        g_assert_error (edit_error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
        g_assert_cmpstr (edit_error->message, ==, error->message);
        g_assert_cmpuint (terrain_tnt_map_get_sea_level (map), ==, 255);
        g_assert_cmpuint (notified, ==, 2);
      }
      g_assert_true (terrain_tnt_map_set_sea_level (map, 201, NULL));
      g_assert_cmpuint (notified, ==, 3);

      out = save_ok (map);
      g_assert_cmpuint (assert_differ_only_in (fx.bytes, out, ranges, 1), ==, 1);
      g_assert_cmphex (terrain_test_get_u32 ((const guint8 *) g_bytes_get_data (out, NULL) + 0x24),
                       ==, 201);
      g_clear_object (&map);

      /* A file's own word is read as it is, and validation says what such a
       * level means. */
      {
        g_autoptr(GByteArray) drowned = g_byte_array_new ();

        g_byte_array_append (drowned, g_bytes_get_data (fx.bytes, NULL),
                             g_bytes_get_size (fx.bytes));
        drowned->data[0x24] = 0x05;
        drowned->data[0x25] = 0x03;
        drowned->data[0x26] = 0x02;
        drowned->data[0x27] = 0x01;
        g_clear_pointer (&out, g_bytes_unref);
        out = g_byte_array_free_to_bytes (g_steal_pointer (&drowned));
        map = load_ok (out);
        g_assert_cmphex (terrain_tnt_map_get_sea_level (map), ==, 0x01020305);
      }

      /* Validation says what such a level means. */
      {
        g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (map));
        gboolean found = FALSE;

        for (guint i = 0; i < issues->len; i++)
          {
            TerrainIssue *issue = g_ptr_array_index (issues, i);

            if (strstr (terrain_issue_get_message (issue), "every cell is under water") != NULL)
              {
                found = TRUE;
                g_assert_cmpint (terrain_issue_get_severity (issue), ==, TERRAIN_SEVERITY_WARNING);
                g_assert_cmpint (terrain_issue_get_offset (issue), ==, 0x24);
              }
          }
        g_assert_true (found);
      }

      fixture_clear (&fx);
    }
}

static void
test_edit_cells (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(TerrainTntMap) reread = NULL;
  ChangeLog log = { 0 };
  gsize attr, tmap;
  Range ranges[3];

  spec_default (&spec);
  spec.reserved_words = TRUE;
  spec.extra_byte = 3;
  spec.order[0] = TERRAIN_TNT_SECTION_MINIMAP;
  spec.order[4] = TERRAIN_TNT_SECTION_TILE_MAP;
  spec.gap = 2;
  fixture_build (&fx, &spec);
  attr = fx.offset[TERRAIN_TNT_SECTION_ATTRIBUTES];
  tmap = fx.offset[TERRAIN_TNT_SECTION_TILE_MAP];
  map = load_ok (fx.bytes);
  g_signal_connect (map, "cells-changed", G_CALLBACK (on_region_changed), &log);

  /* Unchanged values: no signal, not modified */
  terrain_tnt_map_set_cell_height (map, 2, 3, fx_height (2, 3));
  g_assert_true (terrain_tnt_map_set_cell_feature (map, 1, 1, 0, NULL));
  g_assert_cmpuint (log.calls, ==, 0);
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (map)));

  terrain_tnt_map_set_cell_height (map, 2, 3, 250);
  g_assert_cmpuint (log.calls, ==, 1);
  g_assert_cmpuint (log.x, ==, 2);
  g_assert_cmpuint (log.y, ==, 3);
  g_assert_cmpuint (log.w, ==, 1);
  g_assert_cmpuint (log.h, ==, 1);
  g_assert_true (terrain_tnt_map_set_cell_feature (map, 7, 4, 0x1234, NULL));
  g_assert_cmpuint (log.calls, ==, 2);
  g_assert_cmphex (terrain_tnt_map_get_cell_feature (map, 7, 4), ==, 0x1234);
  g_assert_true (terrain_document_get_modified (TERRAIN_DOCUMENT (map)));

  /* Tile index edits */
  {
    ChangeLog tlog = { 0 };

    g_signal_connect (map, "tiles-changed", G_CALLBACK (on_region_changed), &tlog);
    terrain_tnt_map_set_tile_index (map, 3, 2, fx_tile_index (&spec, 2 * 4 + 3));
    g_assert_cmpuint (tlog.calls, ==, 0);
    terrain_tnt_map_set_tile_index (map, 3, 2, 0x0ABC);
    g_assert_cmpuint (tlog.calls, ==, 1);
    g_assert_cmpuint (tlog.x, ==, 3);
    g_assert_cmpuint (tlog.y, ==, 2);
  }

  out = save_ok (map);
  ranges[0] = (Range) { attr + (3 * 8 + 2) * 4, 1 };
  ranges[1] = (Range) { attr + (4 * 8 + 7) * 4 + 1, 2 };
  ranges[2] = (Range) { tmap + (2 * 4 + 3) * 2, 2 };
  g_assert_cmpuint (assert_differ_only_in (fx.bytes, out, ranges, 3), ==, 5);

  reread = load_ok (out);
  g_assert_cmpuint (terrain_tnt_map_get_cell_height (reread, 2, 3), ==, 250);
  g_assert_cmphex (terrain_tnt_map_get_cell_feature (reread, 7, 4), ==, 0x1234);
  g_assert_cmphex (terrain_tnt_map_get_tile_index (reread, 3, 2), ==, 0x0ABC);
  g_assert_cmpuint (terrain_tnt_map_get_cell_extra (reread, 7, 4), ==, 3);

  fixture_clear (&fx);
}

static void
test_edit_legacy_features (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;
  ChangeLog log = { 0 };
  gsize attr;
  const guint8 *data;
  Range ranges[3];

  spec_legacy (&spec);
  spec.reserved_words = TRUE;
  fixture_build (&fx, &spec);
  attr = fx.offset[TERRAIN_TNT_SECTION_ATTRIBUTES];
  map = load_ok (fx.bytes);
  g_signal_connect (map, "cells-changed", G_CALLBACK (on_region_changed), &log);

  /* NONE on a cell holding an empty code keeps the code */
  g_assert_true (terrain_tnt_map_set_cell_feature (map, 1, 5, TERRAIN_TNT_FEATURE_NONE, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (log.calls, ==, 0);
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (map)));

  /* Values the byte cannot hold */
  g_assert_false (terrain_tnt_map_set_cell_feature (map, 0, 0, TERRAIN_TNT_FEATURE_VOID, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  g_assert_false (terrain_tnt_map_set_cell_feature (map, 0, 0, 0x1FF, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  g_assert_false (terrain_tnt_map_set_cell_feature (map, 0, 0, 0xFC, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (map)));

  /* Live index, then NONE on a live cell writes 0xFF */
  g_assert_true (terrain_tnt_map_set_cell_feature (map, 3, 2, 0xFB, &error));
  g_assert_cmphex (terrain_tnt_map_get_cell_feature (map, 3, 2), ==, 0xFB);
  g_assert_true (terrain_tnt_map_set_cell_feature (map, 1, 1, TERRAIN_TNT_FEATURE_NONE, &error));
  g_assert_cmphex (terrain_tnt_map_get_cell_feature (map, 1, 1), ==, TERRAIN_TNT_FEATURE_NONE);
  terrain_tnt_map_set_cell_height (map, 0, 0, 77);
  g_assert_cmpuint (log.calls, ==, 3);

  out = save_ok (map);
  ranges[0] = (Range) { attr + (2 * 8 + 3) * 8 + 2, 1 };
  ranges[1] = (Range) { attr + (1 * 8 + 1) * 8 + 2, 1 };
  ranges[2] = (Range) { attr, 1 };
  g_assert_cmpuint (assert_differ_only_in (fx.bytes, out, ranges, 3), ==, 3);
  data = g_bytes_get_data (out, NULL);
  g_assert_cmphex (data[attr + (2 * 8 + 3) * 8 + 2], ==, 0xFB);
  g_assert_cmphex (data[attr + (1 * 8 + 1) * 8 + 2], ==, 0xFF);
  g_assert_cmphex (data[attr], ==, 77);
  /* The cell's unread bytes survive */
  g_assert_cmphex (data[attr + 1], ==, 0x11);
  g_assert_cmphex (data[attr + 7], ==, 0x77);

  fixture_clear (&fx);
}

static void
check_relayout (const Spec *spec)
{
  Fixture fx;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(TerrainTntMap) reread = NULL;
  g_autoptr(TerrainTntMap) reread2 = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) out2 = NULL;
  g_autoptr(GByteArray) gaps = g_byte_array_new ();
  guint8 pixels[1024];
  guint notified_tiles = 0, notified_features = 0;
  gsize out_size, gap_total = 0, offset, size, expected;
  const guint8 *src, *dst;
  guint index;

  fixture_build (&fx, spec);
  src = g_bytes_get_data (fx.bytes, NULL);

  /* The source bytes in no section, in file order */
  {
    gsize end = 64;
    guint order[N_SECTIONS];
    guint n = 0;

    for (guint s = 1; s < N_SECTIONS; s++)
      if (fx.present[s] && fx.size[s] > 0)
        order[n++] = s;
    for (guint i = 0; i < n; i++)
      for (guint j = i + 1; j < n; j++)
        if (fx.offset[order[j]] < fx.offset[order[i]])
          {
            guint t = order[i];
            order[i] = order[j];
            order[j] = t;
          }
    for (guint i = 0; i < n; i++)
      {
        g_byte_array_append (gaps, src + end, fx.offset[order[i]] - end);
        end = fx.offset[order[i]] + fx.size[order[i]];
      }
    g_byte_array_append (gaps, src + end, g_bytes_get_size (fx.bytes) - end);
    gap_total = gaps->len;
  }

  map = load_ok (fx.bytes);
  g_signal_connect (map, "notify::n-tiles", G_CALLBACK (count_notify), &notified_tiles);
  g_signal_connect (map, "notify::n-features", G_CALLBACK (count_notify), &notified_features);

  for (guint i = 0; i < sizeof pixels; i++)
    pixels[i] = (guint8) (255 - i);
  index = terrain_tnt_map_add_tile (map, pixels);
  g_assert_cmpuint (index, ==, spec->n_tiles);
  g_assert_cmpuint (notified_tiles, ==, 1);
  index = terrain_tnt_map_add_feature_name (map, "NewFeature");
  g_assert_cmpuint (index, ==, spec->n_features);
  g_assert_cmpuint (notified_features, ==, 1);
  g_assert_cmpstr (terrain_tnt_map_get_feature_name (map, index), ==, "NewFeature");
  g_assert_cmpuint (terrain_tnt_map_get_feature_record_index (map, index), ==, index);

  out = save_ok (map);
  dst = g_bytes_get_data (out, &out_size);

  /* Canonical order, back to back after the header */
  expected = 64;
  for (guint s = 1; s < N_SECTIONS; s++)
    {
      gboolean present = terrain_tnt_map_get_section_span (map, s, &offset, &size);

      g_assert_cmpint (present, ==, fx.present[s]);
      if (!present)
        continue;
      g_assert_cmpuint (offset, ==, expected);
      expected += size;
    }
  g_assert_cmpuint (out_size, ==, expected + gap_total);
  /* Unreferenced bytes follow, in their original order */
  g_assert_cmpmem (dst + expected, gap_total, gaps->data, gap_total);
  /* Header pad words survive */
  for (guint w = 12; w < 16; w++)
    if (spec->version == TERRAIN_TNT_VERSION || w == 12 || w == 13)
      g_assert_cmphex (terrain_test_get_u32 (dst + w * 4), ==, terrain_test_get_u32 (src + w * 4));

  reread = load_ok (out);
  {
    Spec grown = *spec;

    check_model (reread, &grown);
  }
  g_assert_cmpuint (terrain_tnt_map_get_n_tiles (reread), ==, spec->n_tiles + 1);
  g_assert_cmpmem (terrain_tnt_map_get_tile (reread, spec->n_tiles), 1024, pixels, 1024);
  g_assert_cmpuint (terrain_tnt_map_get_n_features (reread), ==, spec->n_features + 1);
  g_assert_cmpstr (terrain_tnt_map_get_feature_name (reread, spec->n_features), ==, "NewFeature");

  /* The relaid-out file is stable: writing it again changes nothing */
  out2 = save_ok (reread);
  terrain_test_assert_bytes_equal (out2, out);
  reread2 = load_ok (out2);
  g_assert_cmpuint (terrain_tnt_map_get_n_tiles (reread2), ==, spec->n_tiles + 1);

  /* Name scratch bytes of the old records survive the relayout */
  if (spec->name_scratch && spec->n_features > 0)
    {
      gsize old_feat = fx.offset[TERRAIN_TNT_SECTION_FEATURES];
      gsize new_feat;

      terrain_tnt_map_get_section_span (map, TERRAIN_TNT_SECTION_FEATURES, &new_feat, NULL);
      g_assert_cmpmem (dst + new_feat, 132 * spec->n_features,
                       src + old_feat, 132 * spec->n_features);
    }

  fixture_clear (&fx);
}

static void
test_relayout (void)
{
  static const guint orders[][5] = {
    { 1, 2, 3, 4, 5 },
    { 5, 4, 3, 2, 1 },
    { 3, 5, 1, 4, 2 },
  };

  for (guint legacy = 0; legacy < 2; legacy++)
    for (guint o = 0; o < G_N_ELEMENTS (orders); o++)
      for (guint variant = 0; variant < 3; variant++)
        {
          Spec spec;

          if (legacy)
            spec_legacy (&spec);
          else
            spec_default (&spec);
          memcpy (spec.order, orders[o], sizeof spec.order);
          spec.name_scratch = TRUE;
          spec.pad[1] = 0xAAAA5555;
          if (variant >= 1)
            {
              spec.gap = 6;
              spec.trailing = 11;
            }
          if (variant == 2)
            {
              spec.flag = 0;
              spec.write_minimap_anyway = TRUE;
            }
          check_relayout (&spec);
        }
}

static void
test_edit_minimap (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(TerrainTntMap) reread = NULL;
  g_autoptr(GError) error = NULL;
  guint8 same[16 * 12], other[20 * 10];
  guint notified = 0;
  gsize mm;
  Range range;
  guint w, h;

  spec_default (&spec);
  spec.gap = 4;
  spec.trailing = 4;
  fixture_build (&fx, &spec);
  mm = fx.offset[TERRAIN_TNT_SECTION_MINIMAP];
  map = load_ok (fx.bytes);

  /* Same size: written in place, only the pixels change */
  for (guint y = 0; y < 12; y++)
    for (guint x = 0; x < 16; x++)
      same[y * 16 + x] = fx_minimap_pixel (x, y);
  g_assert_true (terrain_tnt_map_set_minimap (map, 16, 12, same, &error));
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (map)));
  same[5] ^= 0xFF;
  g_assert_true (terrain_tnt_map_set_minimap (map, 16, 12, same, &error));
  g_assert_no_error (error);
  out = save_ok (map);
  range = (Range) { mm + 8 + 5, 1 };
  g_assert_cmpuint (assert_differ_only_in (fx.bytes, out, &range, 1), ==, 1);
  g_clear_pointer (&out, g_bytes_unref);

  /* Other size: relaid out */
  memset (other, 0x21, sizeof other);
  g_assert_true (terrain_tnt_map_set_minimap (map, 20, 10, other, &error));
  out = save_ok (map);
  reread = load_ok (out);
  g_assert_cmpmem (terrain_tnt_map_get_minimap (reread, &w, &h), sizeof other, other, sizeof other);
  g_assert_cmpuint (w, ==, 20);
  g_assert_cmpuint (h, ==, 10);
  g_clear_object (&reread);
  g_clear_pointer (&out, g_bytes_unref);

  /* Limits */
  g_assert_false (terrain_tnt_map_set_minimap (map, 20000, 1, other, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
  g_clear_error (&error);

  fixture_clear (&fx);

  /* Flag clear with a garbage pointer: update_minimap makes a 252x252 one */
  spec_default (&spec);
  spec.flag = 0;
  spec.minimap_pointer = 0xFFFFFFFF;
  fixture_build (&fx, &spec);
  {
    g_autoptr(TerrainTntMap) m = load_ok (fx.bytes);
    const guint8 *pixels;

    g_signal_connect (m, "notify::minimap-present", G_CALLBACK (count_notify), &notified);
    g_assert_false (terrain_tnt_map_get_minimap_present (m));
    g_assert_null (terrain_tnt_map_get_minimap (m, &w, &h));
    g_assert_cmpuint (w, ==, 0);
    terrain_tnt_map_update_minimap (m, terrain_test_grey_palette ());
    g_assert_cmpuint (notified, ==, 1);
    g_assert_true (terrain_tnt_map_get_minimap_present (m));
    g_assert_cmphex (terrain_tnt_map_get_header_word (m, 11) & 1, ==, 1);
    pixels = terrain_tnt_map_get_minimap (m, &w, &h);
    g_assert_nonnull (pixels);
    g_assert_cmpuint (w, ==, 252);
    g_assert_cmpuint (h, ==, 252);
    out = save_ok (m);
    reread = load_ok (out);
    g_assert_true (terrain_tnt_map_get_minimap_present (reread));
    g_assert_cmpmem (terrain_tnt_map_get_minimap (reread, NULL, NULL), 252 * 252,
                     pixels, 252 * 252);
    for (guint y = 0; y < 6; y++)
      for (guint x = 0; x < 8; x++)
        g_assert_cmpuint (terrain_tnt_map_get_cell_height (reread, x, y), ==, fx_height (x, y));
    g_assert_cmpstr (terrain_tnt_map_get_feature_name (reread, 1), ==, "Feature1");
  }
  fixture_clear (&fx);
}

static void
test_feature_names (void)
{
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (4, 4, NULL);
  g_autoptr(TerrainTntMap) reread = NULL;
  g_autoptr(GBytes) out = NULL;
  char longest[128], too_long[129];
  gsize offset;
  const guint8 *data;
  guint index;

  memset (longest, 'a', 127);
  longest[127] = '\0';
  memset (too_long, 'b', 128);
  too_long[128] = '\0';

  index = terrain_tnt_map_add_feature_name (map, longest);
  g_assert_cmpuint (index, ==, 0);

  g_test_expect_message ("Terrain", G_LOG_LEVEL_CRITICAL,
                         "*length < TERRAIN_TNT_FEATURE_NAME_BYTES*");
  index = terrain_tnt_map_add_feature_name (map, too_long);
  g_test_assert_expected_messages ();
  g_assert_cmpuint (index, ==, G_MAXUINT);
  g_assert_cmpuint (terrain_tnt_map_get_n_features (map), ==, 1);

  index = terrain_tnt_map_add_feature_name (map, "Tree1");
  g_assert_cmpuint (index, ==, 1);

  out = save_ok (map);
  reread = load_ok (out);
  g_assert_cmpstr (terrain_tnt_map_get_feature_name (reread, 0), ==, longest);
  g_assert_cmpstr (terrain_tnt_map_get_feature_name (reread, 1), ==, "Tree1");
  g_assert_cmpuint (terrain_tnt_map_get_feature_record_index (reread, 1), ==, 1);

  /* Record 1: index word 1, name NUL-padded to 128 bytes */
  g_assert_true (terrain_tnt_map_get_section_span (reread, TERRAIN_TNT_SECTION_FEATURES,
                                                   &offset, NULL));
  data = (const guint8 *) g_bytes_get_data (out, NULL) + offset + 132;
  g_assert_cmpuint (terrain_test_get_u32 (data + 0), ==, 1);
  g_assert_cmpmem (data + 4, 5, "Tree1", 5);
  for (guint i = 9; i < 132; i++)
    g_assert_cmpuint (data[i], ==, 0);
}

static void
test_legacy_minimap (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(TerrainTntMap) reread = NULL;
  g_autoptr(GBytes) out = NULL;
  const guint8 *data;
  gsize offset, size;
  guint w, h;

  spec_legacy (&spec);
  spec.flag = 0;
  spec.minimap_pointer = 0x11223344;
  spec.trailing = 5;
  fixture_build (&fx, &spec);
  map = load_ok (fx.bytes);
  g_assert_false (terrain_tnt_map_get_minimap_present (map));
  g_assert_false (terrain_tnt_map_get_section_span (map, TERRAIN_TNT_SECTION_MINIMAP, NULL, NULL));

  terrain_tnt_map_update_minimap (map, terrain_test_grey_palette ());
  g_assert_true (terrain_tnt_map_get_minimap_present (map));
  g_assert_true (terrain_tnt_map_get_section_span (map, TERRAIN_TNT_SECTION_MINIMAP,
                                                   &offset, &size));
  g_assert_cmpuint (size, ==, 8 + 252 * 252);

  out = save_ok (map);
  data = g_bytes_get_data (out, NULL);
  g_assert_cmphex (terrain_test_get_u32 (data + 0x38), ==, offset);
  g_assert_cmphex (terrain_test_get_u32 (data + 0x3C), ==, 1);
  /* Wind, unread word and gravity kept */
  g_assert_cmpuint (terrain_test_get_u32 (data + 0x28), ==, 1200);
  g_assert_cmpuint (terrain_test_get_u32 (data + 0x2C), ==, 3400);
  g_assert_cmphex (terrain_test_get_u32 (data + 0x30), ==, 0xDEADBEEF);
  g_assert_cmpuint (terrain_test_get_u32 (data + 0x34), ==, 112);
  /* The trailing bytes follow the minimap */
  g_assert_cmpuint (g_bytes_get_size (out), ==, offset + size + 5);

  reread = load_ok (out);
  g_assert_nonnull (terrain_tnt_map_get_minimap (reread, &w, &h));
  g_assert_cmpuint (w, ==, 252);
  g_assert_cmpuint (h, ==, 252);
  for (guint y = 0; y < 6; y++)
    for (guint x = 0; x < 8; x++)
      {
        g_assert_cmpuint (terrain_tnt_map_get_cell_height (reread, x, y), ==, fx_height (x, y));
        g_assert_cmpuint (terrain_tnt_map_get_cell_metal (reread, x, y), ==, (guint8) (x * y));
      }

  fixture_clear (&fx);
}

/* ------------------------------------------------------------------------ */
/* New maps                                                                 */

static void
test_new (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(TerrainTntMap) reread = NULL;
  g_autoptr(GBytes) out = NULL;
  const guint8 *data, *minimap;
  guint mw, mh, uw, uh;
  gsize size;

  map = terrain_tnt_map_new (0, 4, &error);
  g_assert_null (map);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  map = terrain_tnt_map_new (6, 5, &error);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  map = terrain_tnt_map_new (100000, 4, &error);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);

  map = terrain_tnt_map_new (64, 40, &error);
  g_assert_no_error (error);
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (map)));
  g_assert_null (terrain_document_get_source_bytes (TERRAIN_DOCUMENT (map)));
  g_assert_cmphex (terrain_tnt_map_get_version (map), ==, 0x2000);
  g_assert_cmpuint (terrain_tnt_map_get_n_tiles (map), ==, 1);
  g_assert_cmpuint (terrain_tnt_map_get_n_features (map), ==, 0);
  g_assert_cmpuint (terrain_tnt_map_get_sea_level (map), ==, 0);
  g_assert_true (terrain_tnt_map_get_minimap_present (map));
  g_assert_cmpuint (terrain_tnt_map_get_header_word (map, 11), ==, 1);
  for (guint y = 0; y < 40; y++)
    for (guint x = 0; x < 64; x++)
      {
        g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, x, y), ==, 0);
        g_assert_cmphex (terrain_tnt_map_get_cell_feature (map, x, y), ==, 0xFFFF);
      }
  for (guint p = 0; p < 1024; p++)
    g_assert_cmpuint (terrain_tnt_map_get_tile (map, 0)[p], ==, 0);

  /* 64x40 cells: PlayRight 992 >= PlayBottom 512: used 252 x 512*252/992 */
  minimap = terrain_tnt_map_get_minimap (map, &mw, &mh);
  terrain_tnt_map_get_minimap_used_size (map, &uw, &uh);
  g_assert_cmpuint (mw, ==, 252);
  g_assert_cmpuint (mh, ==, 252);
  g_assert_cmpuint (uw, ==, 252);
  g_assert_cmpuint (uh, ==, 512 * 252 / 992);
  for (guint y = 0; y < mh; y++)
    for (guint x = 0; x < mw; x++)
      g_assert_cmpuint (minimap[y * mw + x], ==, y < uh ? 0 : 0x64);

  out = save_ok (map);
  data = g_bytes_get_data (out, &size);
  g_assert_cmpuint (size, ==, 64 + 32 * 20 * 2 + 64 * 40 * 4 + 1024 + 8 + 252 * 252);
  g_assert_cmphex (terrain_test_get_u32 (data + 0x0C), ==, 64);
  g_assert_cmphex (terrain_test_get_u32 (data + 0x10), ==, 64 + 32 * 20 * 2);
  g_assert_cmphex (terrain_test_get_u32 (data + 0x14), ==, 64 + 32 * 20 * 2 + 64 * 40 * 4);
  g_assert_cmphex (terrain_test_get_u32 (data + 0x20), ==, 64 + 32 * 20 * 2 + 64 * 40 * 4 + 1024);
  g_assert_cmphex (terrain_test_get_u32 (data + 0x28), ==, 64 + 32 * 20 * 2 + 64 * 40 * 4 + 1024);
  for (guint w = 12; w < 16; w++)
    g_assert_cmphex (terrain_test_get_u32 (data + w * 4), ==, 0);

  reread = load_ok (out);
  g_assert_cmpuint (terrain_tnt_map_get_width (reread), ==, 64);
  g_assert_cmpmem (terrain_tnt_map_get_minimap (reread, NULL, NULL), 252 * 252, minimap, 252 * 252);
  {
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (reread));
    g_assert_cmpuint (issues->len, ==, 0);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/TntMap/edit-sea-level", test_edit_sea_level);
  g_test_add_func ("/Terrain/TntMap/edit-cells", test_edit_cells);
  g_test_add_func ("/Terrain/TntMap/edit-legacy-features", test_edit_legacy_features);
  g_test_add_func ("/Terrain/TntMap/relayout", test_relayout);
  g_test_add_func ("/Terrain/TntMap/edit-minimap", test_edit_minimap);
  g_test_add_func ("/Terrain/TntMap/feature-names", test_feature_names);
  g_test_add_func ("/Terrain/TntMap/legacy-minimap", test_legacy_minimap);
  g_test_add_func ("/Terrain/TntMap/new", test_new);

  return g_test_run ();
}
