/* test-tnt.c: TNT map reading, byte-exact writing, structural errors and the corpus
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every fixture is built from tnt-sct.md (test-tnt-fixture.c); only the
 * corpus test reads files (and skips when the corpus is absent). Edits and
 * new maps are in test-tnt-write.c, occupancy, the minimap, rendering,
 * validation and description in test-tnt-analysis.c.
 */

#include "config.h"

#include <string.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"

#include "test-tnt-fixture.h"

/* ------------------------------------------------------------------------ */
/* Reading and byte-exact writing                                           */

static void
test_read_basic (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(TerrainTntMap) map = NULL;
  guint version, width, height, sea, n_tiles, n_features;
  gboolean present;

  spec_default (&spec);
  fixture_build (&fx, &spec);
  map = load_ok (fx.bytes);
  check_model (map, &spec);

  g_assert_cmpint (terrain_document_get_format (TERRAIN_DOCUMENT (map)), ==, TERRAIN_FORMAT_TNT);
  g_assert_true (terrain_document_get_source_bytes (TERRAIN_DOCUMENT (map)) == fx.bytes);
  g_assert_null (terrain_tnt_map_get_tile (map, 3));
  g_assert_null (terrain_tnt_map_get_feature_name (map, 2));
  g_assert_cmphex (terrain_tnt_map_get_header_word (map, 0), ==, 0x2000);
  g_assert_cmpuint (terrain_tnt_map_get_header_word (map, 9), ==, 40);
  g_assert_cmpuint (terrain_tnt_map_get_header_word (map, 11), ==, 1);

  g_object_get (map, "version", &version, "width", &width, "height", &height,
                "sea-level", &sea, "n-tiles", &n_tiles, "n-features", &n_features,
                "minimap-present", &present, NULL);
  g_assert_cmphex (version, ==, 0x2000);
  g_assert_cmpuint (width, ==, 8);
  g_assert_cmpuint (height, ==, 6);
  g_assert_cmpuint (sea, ==, 40);
  g_assert_cmpuint (n_tiles, ==, 3);
  g_assert_cmpuint (n_features, ==, 2);
  g_assert_true (present);

  /* The generic entry point detects and loads it too */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainDocument) doc =
      terrain_document_load_bytes (fx.bytes, "fixture.tnt", TERRAIN_FORMAT_UNKNOWN, NULL, &error);

    g_assert_no_error (error);
    g_assert_true (TERRAIN_IS_TNT_MAP (doc));
  }

  fixture_clear (&fx);
}

static void
test_read_legacy (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(TerrainTntMap) map = NULL;

  spec_legacy (&spec);
  spec.reserved_words = TRUE;
  fixture_build (&fx, &spec);
  map = load_ok (fx.bytes);
  check_model (map, &spec);

  /* Empty codes 0xFC..0xFE read as NONE */
  for (guint x = 0; x < 4; x++)
    g_assert_cmphex (terrain_tnt_map_get_cell_feature (map, x, 5), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_cmphex (terrain_tnt_map_get_header_word (map, 12), ==, 0xDEADBEEF);
  g_assert_cmpuint (terrain_tnt_map_get_header_word (map, 15), ==, 1);

  fixture_clear (&fx);
}

static void
test_read_lazy (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(TerrainTntMap) map = NULL;
  const guint8 *base, *tile, *minimap;
  gsize size;
  guint8 pixels[1024] = { 0 };

  spec_default (&spec);
  fixture_build (&fx, &spec);
  base = g_bytes_get_data (fx.bytes, &size);
  map = load_ok (fx.bytes);

  /* Nothing is copied on open: tiles and minimap are views of the source. */
  tile = terrain_tnt_map_get_tile (map, 1);
  g_assert_true (tile == base + fx.offset[TERRAIN_TNT_SECTION_TILES] + 1024);
  minimap = terrain_tnt_map_get_minimap (map, NULL, NULL);
  g_assert_true (minimap == base + fx.offset[TERRAIN_TNT_SECTION_MINIMAP] + 8);

  /* Editing heights copies only the attribute section. */
  terrain_tnt_map_set_cell_height (map, 0, 0, 200);
  g_assert_true (terrain_tnt_map_get_tile (map, 1) == tile);
  g_assert_cmpuint (base[fx.offset[TERRAIN_TNT_SECTION_ATTRIBUTES]], ==, fx_height (0, 0));

  /* Adding a tile copies the tiles. */
  terrain_tnt_map_add_tile (map, pixels);
  g_assert_true (terrain_tnt_map_get_tile (map, 1) != tile);
  g_assert_cmpmem (terrain_tnt_map_get_tile (map, 1), 1024, tile, 1024);

  fixture_clear (&fx);
}

static void
test_roundtrip_variants (void)
{
  static const guint orders[][5] = {
    { 1, 2, 3, 4, 5 },
    { 5, 4, 3, 2, 1 },
    { 5, 1, 2, 3, 4 },
    { 3, 5, 1, 4, 2 },
    { 4, 2, 5, 1, 3 },
  };

  for (guint legacy = 0; legacy < 2; legacy++)
    for (guint o = 0; o < G_N_ELEMENTS (orders); o++)
      for (guint variant = 0; variant < 6; variant++)
        {
          Spec spec;

          if (legacy)
            spec_legacy (&spec);
          else
            spec_default (&spec);
          memcpy (spec.order, orders[o], sizeof spec.order);

          switch (variant)
            {
            case 0:
              break;
            case 1: /* nonzero pad words, gaps, trailing bytes */
              spec.pad[0] = 7;
              spec.pad[1] = 0xFFFFFFFF;
              spec.pad[3] = 0x12345678;
              spec.gap = 5;
              spec.trailing = 13;
              break;
            case 2: /* MinimapPresent 0 with a garbage pointer */
              spec.flag = 0;
              spec.minimap_pointer = 0xCAFEBABE;
              spec.trailing = 3;
              break;
            case 3: /* name scratch, reserved words, attribute byte +3 */
              spec.name_scratch = TRUE;
              spec.reserved_words = TRUE;
              spec.extra_byte = 0x5C;
              break;
            case 4: /* other bits in the flag word, no features */
              spec.flag = 0x80000001;
              spec.n_features = 0;
              spec.gap = 1;
              break;
            case 5: /* flag clear, minimap still in the file, odd gap */
              spec.flag = 0;
              spec.write_minimap_anyway = TRUE;
              spec.gap = 3;
              spec.trailing = 1;
              break;
            default:
              g_assert_not_reached ();
            }

          roundtrip_spec (&spec);
        }
}

static void
test_empty_sections (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(GBytes) out = NULL;

  /* No features and no tiles: their pointers are never dereferenced. */
  spec_default (&spec);
  spec.n_features = 0;
  fixture_build (&fx, &spec);
  bytes = bytes_with_patch32 (fx.bytes, 0x20, 0xFFFFFFF0);
  map = load_ok (bytes);
  g_assert_cmpuint (terrain_tnt_map_get_n_features (map), ==, 0);
  out = save_ok (map);
  terrain_test_assert_bytes_equal (out, bytes);

  fixture_clear (&fx);
}

/* ------------------------------------------------------------------------ */
/* Structural errors                                                        */

static void
check_truncations (const Spec *spec)
{
  Fixture fx;
  gsize size;

  fixture_build (&fx, spec);
  size = g_bytes_get_size (fx.bytes);

  /* Shorter than the header */
  for (gsize cut = 0; cut < 64; cut += 7)
    {
      g_autoptr(GBytes) cut_bytes = bytes_truncated (fx.bytes, cut);
      assert_load_fails (cut_bytes, NULL, TERRAIN_ERROR_TRUNCATED, "TNT header");
    }

  for (guint s = 1; s < N_SECTIONS; s++)
    {
      gsize cuts[6];
      guint n = 0;

      if (!fx.present[s] || fx.size[s] == 0)
        continue;

      cuts[n++] = fx.offset[s];                      /* at the boundary */
      cuts[n++] = fx.offset[s] + 1;
      cuts[n++] = fx.offset[s] + fx.size[s] / 3;
      cuts[n++] = fx.offset[s] + fx.size[s] / 2;
      cuts[n++] = fx.offset[s] + fx.size[s] - 1;     /* one byte short */
      if (s == TERRAIN_TNT_SECTION_MINIMAP)
        cuts[n++] = fx.offset[s] + 7;                /* inside its u32 pair */

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(GBytes) cut_bytes = NULL;
          g_autoptr(GError) error = NULL;
          g_autoptr(TerrainTntMap) map = NULL;

          if (cuts[i] >= size)
            continue;
          cut_bytes = bytes_truncated (fx.bytes, cuts[i]);
          map = terrain_tnt_map_new_from_bytes (cut_bytes, NULL, &error);
          g_assert_null (map);
          g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
          g_assert_nonnull (strstr (error->message, "TNT "));
          g_assert_nonnull (strstr (error->message, "byte"));
        }
    }

  /* The end of the last section when trailing bytes follow still loads. */
  if (spec->trailing > 0)
    {
      g_autoptr(GBytes) cut_bytes = bytes_truncated (fx.bytes, size - spec->trailing);
      g_autoptr(TerrainTntMap) map = load_ok (cut_bytes);
    }

  fixture_clear (&fx);
}

static void
test_truncation (void)
{
  static const guint orders[][5] = {
    { 1, 2, 3, 4, 5 },
    { 5, 4, 3, 2, 1 },
    { 3, 5, 1, 4, 2 },
  };

  for (guint legacy = 0; legacy < 2; legacy++)
    for (guint o = 0; o < G_N_ELEMENTS (orders); o++)
      for (guint gaps = 0; gaps < 2; gaps++)
        {
          Spec spec;

          if (legacy)
            spec_legacy (&spec);
          else
            spec_default (&spec);
          memcpy (spec.order, orders[o], sizeof spec.order);
          spec.gap = gaps ? 9 : 0;
          spec.trailing = gaps ? 4 : 0;
          check_truncations (&spec);
        }
}

static void
test_truncation_messages (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(GBytes) cut = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autofree char *record = NULL;

  spec_default (&spec);
  fixture_build (&fx, &spec);

  /* Cut inside feature record 1: the message names section, offset, record */
  cut = bytes_truncated (fx.bytes, fx.offset[TERRAIN_TNT_SECTION_FEATURES] + 132 + 10);
  map = terrain_tnt_map_new_from_bytes (cut, NULL, &error);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (error->message, "TNT feature records"));
  g_assert_nonnull (strstr (error->message, "record 1"));
  record = g_strdup_printf ("%" G_GSIZE_FORMAT, fx.offset[TERRAIN_TNT_SECTION_FEATURES]);
  g_assert_nonnull (strstr (error->message, record));

  fixture_clear (&fx);
}

static void
test_bad_header (void)
{
  Spec spec;
  Fixture fx;

  spec_default (&spec);
  fixture_build (&fx, &spec);

  {
    g_autoptr(GBytes) b = bytes_with_patch32 (fx.bytes, 0, 0x2001);
    assert_load_fails (b, NULL, TERRAIN_ERROR_UNSUPPORTED_VERSION,
                       "TNT header: unsupported version word 0x00002001 at byte offset 0");
  }
  {
    g_autoptr(GBytes) b = bytes_with_patch32 (fx.bytes, 4, 0);
    assert_load_fails (b, NULL, TERRAIN_ERROR_INVALID_VALUE, "width");
  }
  {
    g_autoptr(GBytes) b = bytes_with_patch32 (fx.bytes, 8, 0);
    assert_load_fails (b, NULL, TERRAIN_ERROR_INVALID_VALUE, "height");
  }
  {
    g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);
    assert_load_fails (empty, NULL, TERRAIN_ERROR_TRUNCATED, "TNT header");
  }

  fixture_clear (&fx);
}

static void
test_pointer_out_of_range (void)
{
  static const guint words[] = { 3, 4, 5, 8, 10 };
  Spec spec;
  Fixture fx;
  gsize size;

  spec_default (&spec);
  fixture_build (&fx, &spec);
  size = g_bytes_get_size (fx.bytes);

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      g_autoptr(GBytes) far = bytes_with_patch32 (fx.bytes, words[i] * 4, 0x7FFFFFF0);
      g_autoptr(GBytes) just = bytes_with_patch32 (fx.bytes, words[i] * 4, (guint32) size + 1);
      g_autoptr(GBytes) at_end = bytes_with_patch32 (fx.bytes, words[i] * 4, (guint32) size);

      assert_load_fails (far, NULL, TERRAIN_ERROR_OUT_OF_RANGE, "beyond the end");
      assert_load_fails (just, NULL, TERRAIN_ERROR_OUT_OF_RANGE, "beyond the end");
      /* Starting exactly at the end, a non-empty section runs past it */
      assert_load_fails (at_end, NULL, TERRAIN_ERROR_TRUNCATED, NULL);
    }

  /* A truncation that falls in a gap leaves the next section's pointer
   * beyond the end. */
  {
    Fixture gapped;
    g_autoptr(GBytes) cut = NULL;

    spec.gap = 16;
    fixture_build (&gapped, &spec);
    cut = bytes_truncated (gapped.bytes, gapped.offset[TERRAIN_TNT_SECTION_TILES] - 8);
    assert_load_fails (cut, NULL, TERRAIN_ERROR_OUT_OF_RANGE, "TNT tile graphics");
    fixture_clear (&gapped);
  }

  fixture_clear (&fx);
}

static void
test_overlap (void)
{
  Spec spec;
  Fixture fx;

  spec_default (&spec);
  fixture_build (&fx, &spec);

  {
    /* Tiles start inside the attribute map */
    guint32 inside = (guint32) fx.offset[TERRAIN_TNT_SECTION_ATTRIBUTES] + 4;
    g_autoptr(GBytes) b = bytes_with_patch32 (fx.bytes, 0x14, inside);
    assert_load_fails (b, NULL, TERRAIN_ERROR_OVERLAP, "overlaps");
  }
  {
    /* Feature records inside the header */
    g_autoptr(GBytes) b = bytes_with_patch32 (fx.bytes, 0x20, 32);
    assert_load_fails (b, NULL, TERRAIN_ERROR_OVERLAP, "header");
  }
  {
    /* Minimap on top of the tile map */
    g_autoptr(GBytes) b = bytes_with_patch32 (fx.bytes, 0x28,
                                              (guint32) fx.offset[TERRAIN_TNT_SECTION_TILE_MAP]);
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainTntMap) map = terrain_tnt_map_new_from_bytes (b, NULL, &error);

    /* Read as a minimap, the tile map's first words give its size: either
     * it runs past the end or overlaps; both are structural errors. */
    g_assert_null (map);
    g_assert_nonnull (error);
    g_assert_true (error->domain == TERRAIN_ERROR);
  }
  {
    /* Two sections sharing exactly one byte */
    guint32 early = (guint32) fx.offset[TERRAIN_TNT_SECTION_ATTRIBUTES] - 1;
    g_autoptr(GBytes) b = bytes_with_patch32 (fx.bytes, 0x10, early);
    assert_load_fails (b, NULL, TERRAIN_ERROR_OVERLAP, NULL);
  }
  {
    /* An empty section's pointer may point anywhere, even into the header */
    Spec empty_spec = spec;
    Fixture efx;
    g_autoptr(GBytes) b = NULL;
    g_autoptr(TerrainTntMap) map = NULL;

    empty_spec.n_features = 0;
    fixture_build (&efx, &empty_spec);
    b = bytes_with_patch32 (efx.bytes, 0x20, 8);
    map = load_ok (b);
    fixture_clear (&efx);
  }

  fixture_clear (&fx);
}

static void
test_limits (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(TerrainLimits) limits = NULL;
  guint8 header[64] = { 0 };
  g_autoptr(GBytes) huge = NULL;
  gint64 start;

  /* A bare header claiming 4 billion tiles fails on the count, not on the
   * (absent) data, and without allocating. */
  terrain_test_set_u32 (header + 0, 0x2000);
  terrain_test_set_u32 (header + 4, 8);
  terrain_test_set_u32 (header + 8, 6);
  terrain_test_set_u32 (header + 0x18, 0xFFFFFFFF);
  huge = g_bytes_new (header, sizeof header);
  start = g_get_monotonic_time ();
  assert_load_fails (huge, NULL, TERRAIN_ERROR_LIMIT_EXCEEDED, "tile");
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);

  /* Feature count, sides */
  terrain_test_set_u32 (header + 0x18, 1);
  terrain_test_set_u32 (header + 0x1C, 0xFFFFFFFF);
  {
    g_autoptr(GBytes) b = g_bytes_new (header, sizeof header);
    assert_load_fails (b, NULL, TERRAIN_ERROR_LIMIT_EXCEEDED, "feature");
  }
  terrain_test_set_u32 (header + 0x1C, 0);
  terrain_test_set_u32 (header + 4, 0x80000000);
  {
    g_autoptr(GBytes) b = g_bytes_new (header, sizeof header);
    assert_load_fails (b, NULL, TERRAIN_ERROR_LIMIT_EXCEEDED, "width");
  }

  /* Custom limits against a valid fixture */
  spec_default (&spec);
  fixture_build (&fx, &spec);

  limits = terrain_limits_new ();
  limits->max_cells_per_side = 7;
  assert_load_fails (fx.bytes, limits, TERRAIN_ERROR_LIMIT_EXCEEDED, "width");
  *limits = *terrain_limits_get_default ();
  limits->max_tiles = 2;
  assert_load_fails (fx.bytes, limits, TERRAIN_ERROR_LIMIT_EXCEEDED, "tile");
  *limits = *terrain_limits_get_default ();
  limits->max_features = 1;
  assert_load_fails (fx.bytes, limits, TERRAIN_ERROR_LIMIT_EXCEEDED, "feature");
  *limits = *terrain_limits_get_default ();
  limits->max_image_side = 15;
  assert_load_fails (fx.bytes, limits, TERRAIN_ERROR_LIMIT_EXCEEDED, "TNT minimap");
  *limits = *terrain_limits_get_default ();
  limits->max_allocation = 100;
  assert_load_fails (fx.bytes, limits, TERRAIN_ERROR_LIMIT_EXCEEDED, "allocation limit");

  /* A huge minimap size in a valid file */
  {
    g_autoptr(GBytes) b = bytes_with_patch32 (fx.bytes, fx.offset[TERRAIN_TNT_SECTION_MINIMAP],
                                              0x40000000);
    assert_load_fails (b, NULL, TERRAIN_ERROR_LIMIT_EXCEEDED, "TNT minimap");
  }

  /* Odd dimensions are accepted (with a validation warning) */
  {
    Spec odd;
    Fixture ofx;
    g_autoptr(TerrainTntMap) map = NULL;
    g_autoptr(GBytes) out = NULL;

    spec_default (&odd);
    odd.width = 9;
    odd.height = 5;
    fixture_build (&ofx, &odd);
    map = load_ok (ofx.bytes);
    g_assert_cmpuint (terrain_tnt_map_get_tile_columns (map), ==, 4);
    g_assert_cmpuint (terrain_tnt_map_get_tile_rows (map), ==, 2);
    check_model (map, &odd);
    out = save_ok (map);
    terrain_test_assert_bytes_equal (out, ofx.bytes);
    fixture_clear (&ofx);
  }

  fixture_clear (&fx);
}

static void
test_mutations (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(TerrainPalette) palette = NULL;
  guint8 rgb[3] = { 1, 2, 3 };
  gsize size;

  palette = terrain_palette_new_from_rgb (rgb, 1);
  spec_default (&spec);
  spec.gap = 2;
  fixture_build (&fx, &spec);
  size = g_bytes_get_size (fx.bytes);

  for (guint iteration = 0; iteration < 3000; iteration++)
    {
      guint8 *data = g_memdup2 (g_bytes_get_data (fx.bytes, NULL), size);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(TerrainTntMap) map = NULL;
      g_autoptr(GError) error = NULL;
      guint n = g_test_rand_int_range (1, 4);

      for (guint i = 0; i < n; i++)
        {
          if (g_test_rand_bit ())
            {
              /* A header word set to something nearby or wild */
              guint word = g_test_rand_int_range (0, 16);
              guint32 value = g_test_rand_bit ()
                              ? (guint32) g_test_rand_int_range (0, (gint) size + 64)
                              : (guint32) g_test_rand_int ();
              terrain_test_set_u32 (data + word * 4, value);
            }
          else
            data[g_test_rand_int_range (0, (gint) size)] = (guint8) g_test_rand_int ();
        }
      bytes = g_bytes_new_take (data, size);

      map = terrain_tnt_map_new_from_bytes (bytes, NULL, &error);
      if (map == NULL)
        {
          g_assert_nonnull (error);
          g_assert_true (error->domain == TERRAIN_ERROR);
          continue;
        }
      g_assert_no_error (error);

      {
        g_autoptr(GBytes) out = save_ok (map);
        g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (map));
        g_autoptr(JsonNode) node = terrain_document_describe (TERRAIN_DOCUMENT (map));
        g_autofree guint16 *occupancy =
          terrain_tnt_map_build_occupancy (map, NULL, NULL, NULL, NULL);
        g_autofree char *where =
          terrain_document_describe_offset (TERRAIN_DOCUMENT (map), size / 2);
        g_autoptr(TerrainImage) image = NULL;
        g_autoptr(TerrainImage) minimap = NULL;

        terrain_test_assert_bytes_equal (out, bytes);
        g_assert_nonnull (issues);
        g_assert_nonnull (node);
        g_assert_nonnull (occupancy);
        if ((guint64) terrain_tnt_map_get_width (map) * terrain_tnt_map_get_height (map) <= 4096)
          {
            image = terrain_tnt_map_render (map, palette, NULL);
            minimap = terrain_tnt_map_render_minimap (map, palette, TRUE, NULL);
          }
      }
    }

  fixture_clear (&fx);
}

/* ------------------------------------------------------------------------ */
/* Corpus                                                                   */

typedef struct
{
  const char *name;
  guint width;
  guint height;
  guint tiles;
  guint features;
  guint sea_level;
} CorpusMap;

static void
test_corpus (void)
{
  static const CorpusMap maps[] = {
    { "ban.tnt", 534, 680, 780, 12, 75 },
    { "bar.tnt", 288, 544, 2107, 16, 48 },
  };
  const char *dir = g_getenv ("TERRAIN_CORPUS_DIR");
  g_autofree char *maps_dir = NULL;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("corpus folder not found (TERRAIN_CORPUS_DIR); corpus maps not checked");
      return;
    }
  maps_dir = g_build_filename (dir, "ta", "maps", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (maps); i++)
    {
      g_autofree char *path = g_build_filename (maps_dir, maps[i].name, NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainTntMap) map = NULL;
      g_autoptr(GBytes) out = NULL;
      g_autoptr(GPtrArray) issues = NULL;
      gint64 t0, tm, t1, t2, t3;
      guint uw, uh, mw, mh;
      gboolean same;

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          g_test_skip ("corpus map missing");
          return;
        }

      /* Timings are reported, not asserted */
      t0 = g_get_monotonic_time ();
      {
        g_autoptr(GBytes) mapped = terrain_file_load_bytes (file, NULL, &error);

        g_assert_no_error (error);
        tm = g_get_monotonic_time ();
        map = terrain_tnt_map_new_from_bytes (mapped, NULL, &error);
        g_assert_no_error (error);
        terrain_document_set_file (TERRAIN_DOCUMENT (map), file);
      }
      t1 = g_get_monotonic_time ();
      out = save_ok (map);
      t2 = g_get_monotonic_time ();
      same = terrain_document_compare_bytes (TERRAIN_DOCUMENT (map), out, NULL, NULL);
      t3 = g_get_monotonic_time ();
      g_test_message ("%s: map file %" G_GINT64_FORMAT " us, parse %" G_GINT64_FORMAT
                      " us, write %" G_GINT64_FORMAT " us, compare %" G_GINT64_FORMAT " us",
                      maps[i].name, tm - t0, t1 - tm, t2 - t1, t3 - t2);
      g_assert_true (same);

      /* The file-based constructor gives the same map */
      {
        g_autoptr(TerrainTntMap) from_file =
          terrain_tnt_map_new_from_file (file, NULL, NULL, &error);

        g_assert_no_error (error);
        g_assert_true (terrain_document_get_file (TERRAIN_DOCUMENT (from_file)) == file);
        g_assert_cmpuint (terrain_tnt_map_get_n_tiles (from_file), ==, maps[i].tiles);
      }

      g_assert_cmphex (terrain_tnt_map_get_version (map), ==, 0x2000);
      g_assert_cmpuint (terrain_tnt_map_get_width (map), ==, maps[i].width);
      g_assert_cmpuint (terrain_tnt_map_get_height (map), ==, maps[i].height);
      g_assert_cmpuint (terrain_tnt_map_get_n_tiles (map), ==, maps[i].tiles);
      g_assert_cmpuint (terrain_tnt_map_get_n_features (map), ==, maps[i].features);
      g_assert_cmpuint (terrain_tnt_map_get_sea_level (map), ==, maps[i].sea_level);
      g_assert_true (terrain_tnt_map_get_minimap_present (map));
      g_assert_nonnull (terrain_tnt_map_get_minimap (map, &mw, &mh));
      g_assert_cmpuint (mw, ==, 252);
      g_assert_cmpuint (mh, ==, 252);

      /* The crop rule predicts where each file's 0x64 fill begins */
      terrain_tnt_map_get_minimap_used_size (map, &uw, &uh);
      g_assert_cmpuint (uh, ==, 252);
      g_assert_cmpuint (uw, ==, i == 0 ? 199 : 134);

      issues = terrain_document_validate (TERRAIN_DOCUMENT (map));
      for (guint k = 0; k < issues->len; k++)
        {
          TerrainIssue *issue = g_ptr_array_index (issues, k);

          if (terrain_issue_get_severity (issue) >= TERRAIN_SEVERITY_WARNING)
            {
              g_autofree char *text = terrain_issue_to_string (issue);
              g_error ("%s: unexpected finding: %s", maps[i].name, text);
            }
        }

      /* Edit, relay out, re-read */
      {
        guint8 tile[1024] = { 0 };
        g_autoptr(GBytes) edited = NULL;
        g_autoptr(TerrainTntMap) reread = NULL;

        terrain_tnt_map_add_tile (map, tile);
        terrain_tnt_map_set_sea_level (map, 10, NULL);
        edited = save_ok (map);
        reread = load_ok (edited);
        g_assert_cmpuint (terrain_tnt_map_get_n_tiles (reread), ==, maps[i].tiles + 1);
        g_assert_cmpuint (terrain_tnt_map_get_sea_level (reread), ==, 10);
        for (guint y = 0; y < maps[i].height; y += 37)
          for (guint x = 0; x < maps[i].width; x += 13)
            {
              g_assert_cmpuint (terrain_tnt_map_get_cell_height (reread, x, y), ==,
                                terrain_tnt_map_get_cell_height (map, x, y));
              g_assert_cmphex (terrain_tnt_map_get_cell_feature (reread, x, y), ==,
                               terrain_tnt_map_get_cell_feature (map, x, y));
            }
      }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/TntMap/read-basic", test_read_basic);
  g_test_add_func ("/Terrain/TntMap/read-legacy", test_read_legacy);
  g_test_add_func ("/Terrain/TntMap/read-lazy", test_read_lazy);
  g_test_add_func ("/Terrain/TntMap/roundtrip-variants", test_roundtrip_variants);
  g_test_add_func ("/Terrain/TntMap/empty-sections", test_empty_sections);
  g_test_add_func ("/Terrain/TntMap/truncation", test_truncation);
  g_test_add_func ("/Terrain/TntMap/truncation-messages", test_truncation_messages);
  g_test_add_func ("/Terrain/TntMap/bad-header", test_bad_header);
  g_test_add_func ("/Terrain/TntMap/pointer-out-of-range", test_pointer_out_of_range);
  g_test_add_func ("/Terrain/TntMap/overlap", test_overlap);
  g_test_add_func ("/Terrain/TntMap/limits", test_limits);
  g_test_add_func ("/Terrain/TntMap/mutations", test_mutations);
  g_test_add_func ("/Terrain/TntMap/corpus", test_corpus);

  return g_test_run ();
}
