/* test-tnt.c: TNT map reading, writing, editing and analysis
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every fixture is built here from tnt-sct.md; only the corpus test reads
 * files (and skips when the corpus is absent).
 */

#include "config.h"

#include <string.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"

/* ------------------------------------------------------------------------ */
/* Fixture builder                                                          */

#define N_SECTIONS 6

typedef struct
{
  guint32 version;
  guint width;
  guint height;
  guint n_tiles;
  guint n_features;
  guint minimap_w;
  guint minimap_h;
  guint32 flag;                 /* MinimapPresent word */
  guint32 minimap_pointer;      /* used as is when flag bit 0 is clear */
  gboolean write_minimap_anyway; /* write the block even with the flag clear */
  guint32 pad[4];               /* 0x2000: header words 12..15 */
  guint32 sea_level;
  guint32 min_wind;
  guint32 max_wind;
  guint32 legacy_unread;
  guint32 gravity;
  guint order[5];               /* file order, TerrainTntSection values */
  guint gap;                    /* pattern bytes before every section */
  guint trailing;               /* pattern bytes after the last section */
  gboolean name_scratch;        /* bytes after the NUL in names */
  gboolean reserved_words;      /* authored 0xFFFB..0xFFFF and legacy empties */
  guint8 extra_byte;            /* attribute byte +3 */
} Spec;

typedef struct
{
  GBytes *bytes;
  gsize offset[N_SECTIONS];
  gsize size[N_SECTIONS];
  gboolean present[N_SECTIONS];
} Fixture;

static void
spec_default (Spec *spec)
{
  memset (spec, 0, sizeof *spec);
  spec->version = TERRAIN_TNT_VERSION;
  spec->width = 8;
  spec->height = 6;
  spec->n_tiles = 3;
  spec->n_features = 2;
  spec->minimap_w = 16;
  spec->minimap_h = 12;
  spec->flag = 1;
  spec->sea_level = 40;
  spec->order[0] = TERRAIN_TNT_SECTION_TILE_MAP;
  spec->order[1] = TERRAIN_TNT_SECTION_ATTRIBUTES;
  spec->order[2] = TERRAIN_TNT_SECTION_TILES;
  spec->order[3] = TERRAIN_TNT_SECTION_FEATURES;
  spec->order[4] = TERRAIN_TNT_SECTION_MINIMAP;
}

static void
spec_legacy (Spec *spec)
{
  spec_default (spec);
  spec->version = TERRAIN_TNT_VERSION_LEGACY;
  spec->min_wind = 1200;
  spec->max_wind = 3400;
  spec->legacy_unread = 0xDEADBEEF;
  spec->gravity = 112;
}

static guint8
fx_height (guint x,
           guint y)
{
  return (guint8) ((x * 17 + y * 5) & 0xFF);
}

static guint16
fx_feature (const Spec *spec,
            guint       x,
            guint       y)
{
  if (x == 1 && y == 1)
    return 0;
  if (x == 5 && y == 3 && spec->n_features > 1)
    return 1;
  if (spec->reserved_words && y == 5 && x < 5)
    {
      if (spec->version == TERRAIN_TNT_VERSION_LEGACY)
        return TERRAIN_TNT_FEATURE_NONE;
      return (guint16) (0xFFFB + x);
    }
  return TERRAIN_TNT_FEATURE_NONE;
}

static guint8
fx_legacy_feature_byte (const Spec *spec,
                        guint       x,
                        guint       y)
{
  guint16 f = fx_feature (spec, x, y);

  if (f != TERRAIN_TNT_FEATURE_NONE)
    return (guint8) f;
  if (spec->reserved_words && y == 5 && x < 4)
    return (guint8) (0xFC + x);
  return 0xFF;
}

static guint16
fx_tile_index (const Spec *spec,
               gsize       entry)
{
  return (guint16) ((entry * 2 + 1) % spec->n_tiles);
}

static guint8
fx_tile_pixel (guint t,
               guint p)
{
  return (guint8) ((t * 37 + p * 3) & 0xFF);
}

static guint8
fx_minimap_pixel (guint x,
                  guint y)
{
  return (guint8) ((x + y * 3) & 0xFF);
}

static void
put32 (GByteArray *a,
       guint32     v)
{
  guint8 b[4] = { v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, v >> 24 };
  g_byte_array_append (a, b, 4);
}

static void
put16 (GByteArray *a,
       guint16     v)
{
  guint8 b[2] = { v & 0xFF, v >> 8 };
  g_byte_array_append (a, b, 2);
}

static void
put8 (GByteArray *a,
      guint8      v)
{
  g_byte_array_append (a, &v, 1);
}

static void
patch32 (guint8  *data,
         gsize    offset,
         guint32  v)
{
  data[offset] = v & 0xFF;
  data[offset + 1] = (v >> 8) & 0xFF;
  data[offset + 2] = (v >> 16) & 0xFF;
  data[offset + 3] = v >> 24;
}

static guint32
get32 (const guint8 *data,
       gsize         offset)
{
  return (guint32) data[offset] | ((guint32) data[offset + 1] << 8) |
         ((guint32) data[offset + 2] << 16) | ((guint32) data[offset + 3] << 24);
}

static void
write_section (GByteArray  *a,
               const Spec  *spec,
               guint        section)
{
  gboolean legacy = spec->version == TERRAIN_TNT_VERSION_LEGACY;

  switch (section)
    {
    case TERRAIN_TNT_SECTION_TILE_MAP:
      for (gsize i = 0; i < (gsize) (spec->width / 2) * (spec->height / 2); i++)
        put16 (a, fx_tile_index (spec, i));
      break;
    case TERRAIN_TNT_SECTION_ATTRIBUTES:
      for (guint y = 0; y < spec->height; y++)
        for (guint x = 0; x < spec->width; x++)
          {
            if (legacy)
              {
                put8 (a, fx_height (x, y));
                put8 (a, (guint8) (0x11 ^ x));
                put8 (a, fx_legacy_feature_byte (spec, x, y));
                put8 (a, spec->extra_byte);
                put8 (a, 0x44);
                put8 (a, (guint8) y);
                put8 (a, (guint8) (x * y));
                put8 (a, 0x77);
              }
            else
              {
                put8 (a, fx_height (x, y));
                put16 (a, fx_feature (spec, x, y));
                put8 (a, spec->extra_byte);
              }
          }
      break;
    case TERRAIN_TNT_SECTION_TILES:
      for (guint t = 0; t < spec->n_tiles; t++)
        for (guint p = 0; p < 1024; p++)
          put8 (a, fx_tile_pixel (t, p));
      break;
    case TERRAIN_TNT_SECTION_FEATURES:
      for (guint i = 0; i < spec->n_features; i++)
        {
          char name[128];

          memset (name, 0, sizeof name);
          g_snprintf (name, sizeof name, "Feature%u", i);
          if (spec->name_scratch)
            for (gsize j = strlen (name) + 1; j < sizeof name; j++)
              name[j] = (char) (0xC0 ^ j ^ i);
          put32 (a, i);
          g_byte_array_append (a, (const guint8 *) name, sizeof name);
        }
      break;
    case TERRAIN_TNT_SECTION_MINIMAP:
    default:
      put32 (a, spec->minimap_w);
      put32 (a, spec->minimap_h);
      for (guint y = 0; y < spec->minimap_h; y++)
        for (guint x = 0; x < spec->minimap_w; x++)
          put8 (a, fx_minimap_pixel (x, y));
      break;
    }
}

static void
fixture_build (Fixture    *fx,
               const Spec *spec)
{
  GByteArray *a = g_byte_array_new ();
  gboolean legacy = spec->version == TERRAIN_TNT_VERSION_LEGACY;
  guint ptr_word[N_SECTIONS] = { 0, 3, 4, 5, 8, legacy ? 14 : 10 };
  guint flag_word = legacy ? 15 : 11;
  guint gap_counter = 0;

  memset (fx, 0, sizeof *fx);
  g_byte_array_set_size (a, 64);
  memset (a->data, 0, 64);
  fx->offset[TERRAIN_TNT_SECTION_HEADER] = 0;
  fx->size[TERRAIN_TNT_SECTION_HEADER] = 64;
  fx->present[TERRAIN_TNT_SECTION_HEADER] = TRUE;

  for (guint i = 0; i < 5; i++)
    {
      guint s = spec->order[i];
      gsize start;

      if (s == TERRAIN_TNT_SECTION_MINIMAP && !(spec->flag & 1) && !spec->write_minimap_anyway)
        continue;
      for (guint g = 0; g < spec->gap; g++)
        put8 (a, (guint8) (0xE0 + gap_counter++));
      start = a->len;
      write_section (a, spec, s);
      fx->offset[s] = start;
      fx->size[s] = a->len - start;
      fx->present[s] = (s != TERRAIN_TNT_SECTION_MINIMAP) || (spec->flag & 1);
    }
  for (guint t = 0; t < spec->trailing; t++)
    put8 (a, (guint8) (0x5A ^ t));

  patch32 (a->data, 0, spec->version);
  patch32 (a->data, 4, spec->width);
  patch32 (a->data, 8, spec->height);
  patch32 (a->data, 24, spec->n_tiles);
  patch32 (a->data, 28, spec->n_features);
  patch32 (a->data, 36, spec->sea_level);
  for (guint s = 1; s < N_SECTIONS; s++)
    patch32 (a->data, ptr_word[s] * 4, (guint32) fx->offset[s]);
  if (!(spec->flag & 1) && !spec->write_minimap_anyway)
    patch32 (a->data, ptr_word[TERRAIN_TNT_SECTION_MINIMAP] * 4, spec->minimap_pointer);
  patch32 (a->data, flag_word * 4, spec->flag);
  if (legacy)
    {
      patch32 (a->data, 40, spec->min_wind);
      patch32 (a->data, 44, spec->max_wind);
      patch32 (a->data, 48, spec->legacy_unread);
      patch32 (a->data, 52, spec->gravity);
    }
  else
    for (guint w = 0; w < 4; w++)
      patch32 (a->data, 48 + 4 * w, spec->pad[w]);

  fx->bytes = g_byte_array_free_to_bytes (a);
}

static void
fixture_clear (Fixture *fx)
{
  g_clear_pointer (&fx->bytes, g_bytes_unref);
}

static GBytes *
bytes_with_patch32 (GBytes  *bytes,
                    gsize    offset,
                    guint32  value)
{
  gsize size;
  guint8 *data = g_memdup2 (g_bytes_get_data (bytes, &size), g_bytes_get_size (bytes));

  patch32 (data, offset, value);
  return g_bytes_new_take (data, size);
}

static GBytes *
bytes_truncated (GBytes *bytes,
                 gsize   length)
{
  return g_bytes_new_from_bytes (bytes, 0, length);
}

/* Checks every getter against the fixture's generator. */
static void
check_model (TerrainTntMap *map,
             const Spec    *spec)
{
  gboolean legacy = spec->version == TERRAIN_TNT_VERSION_LEGACY;
  const guint8 *minimap;
  guint mw, mh;

  g_assert_cmphex (terrain_tnt_map_get_version (map), ==, spec->version);
  g_assert_cmpuint (terrain_tnt_map_get_width (map), ==, spec->width);
  g_assert_cmpuint (terrain_tnt_map_get_height (map), ==, spec->height);
  g_assert_cmpuint (terrain_tnt_map_get_tile_columns (map), ==, spec->width / 2);
  g_assert_cmpuint (terrain_tnt_map_get_tile_rows (map), ==, spec->height / 2);
  g_assert_cmpuint (terrain_tnt_map_get_sea_level (map), ==, spec->sea_level);
  g_assert_cmpuint (terrain_tnt_map_get_n_tiles (map), >=, spec->n_tiles);
  g_assert_cmpuint (terrain_tnt_map_get_n_features (map), >=, spec->n_features);

  for (guint y = 0; y < spec->height; y++)
    for (guint x = 0; x < spec->width; x++)
      {
        g_assert_cmpuint (terrain_tnt_map_get_cell_height (map, x, y), ==, fx_height (x, y));
        g_assert_cmphex (terrain_tnt_map_get_cell_feature (map, x, y), ==, fx_feature (spec, x, y));
        g_assert_cmpuint (terrain_tnt_map_get_cell_extra (map, x, y), ==, spec->extra_byte);
        g_assert_cmpuint (terrain_tnt_map_get_cell_metal (map, x, y), ==,
                          legacy ? (guint8) (x * y) : 0);
      }

  for (guint r = 0; r < spec->height / 2; r++)
    for (guint c = 0; c < spec->width / 2; c++)
      g_assert_cmpuint (terrain_tnt_map_get_tile_index (map, c, r), ==,
                        fx_tile_index (spec, (gsize) r * (spec->width / 2) + c));

  for (guint t = 0; t < spec->n_tiles; t++)
    {
      const guint8 *tile = terrain_tnt_map_get_tile (map, t);

      g_assert_nonnull (tile);
      for (guint p = 0; p < 1024; p++)
        g_assert_cmpuint (tile[p], ==, fx_tile_pixel (t, p));
    }

  for (guint i = 0; i < spec->n_features; i++)
    {
      g_autofree char *name = g_strdup_printf ("Feature%u", i);

      g_assert_cmpstr (terrain_tnt_map_get_feature_name (map, i), ==, name);
      g_assert_cmpuint (terrain_tnt_map_get_feature_record_index (map, i), ==, i);
    }

  g_assert_cmpint (terrain_tnt_map_get_minimap_present (map), ==, (spec->flag & 1) != 0);
  minimap = terrain_tnt_map_get_minimap (map, &mw, &mh);
  if ((spec->flag & 1) && spec->minimap_w * spec->minimap_h > 0)
    {
      g_assert_nonnull (minimap);
      g_assert_cmpuint (mw, ==, spec->minimap_w);
      g_assert_cmpuint (mh, ==, spec->minimap_h);
      for (guint y = 0; y < mh; y++)
        for (guint x = 0; x < mw; x++)
          g_assert_cmpuint (minimap[y * mw + x], ==, fx_minimap_pixel (x, y));
    }
  else
    g_assert_null (minimap);

  if (legacy)
    {
      guint32 min_wind, max_wind, gravity;

      g_assert_true (terrain_tnt_map_get_legacy_header (map, &min_wind, &max_wind, &gravity));
      g_assert_cmpuint (min_wind, ==, spec->min_wind);
      g_assert_cmpuint (max_wind, ==, spec->max_wind);
      g_assert_cmpuint (gravity, ==, spec->gravity);
    }
  else
    g_assert_false (terrain_tnt_map_get_legacy_header (map, NULL, NULL, NULL));
}

static TerrainTntMap *
load_ok (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  TerrainTntMap *map = terrain_tnt_map_new_from_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (map);
  return map;
}

static GBytes *
save_ok (TerrainTntMap *map)
{
  g_autoptr(GError) error = NULL;
  GBytes *out = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (map), &error);

  g_assert_no_error (error);
  g_assert_nonnull (out);
  return out;
}

static void
assert_load_fails (GBytes              *bytes,
                   const TerrainLimits *limits,
                   TerrainError         code,
                   const char          *message_part)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new_from_bytes (bytes, limits, &error);

  g_assert_null (map);
  g_assert_error (error, TERRAIN_ERROR, (gint) code);
  if (message_part != NULL && strstr (error->message, message_part) == NULL)
    g_error ("message \"%s\" lacks \"%s\"", error->message, message_part);
}

typedef struct
{
  gsize offset;
  gsize length;
} Range;

/* Asserts that @a and @b have the same length and differ only inside
 * @ranges, and returns how many bytes differ. */
static gsize
assert_differ_only_in (GBytes      *a,
                       GBytes      *b,
                       const Range *ranges,
                       guint        n_ranges)
{
  gsize a_len, b_len, differences = 0;
  const guint8 *pa = g_bytes_get_data (a, &a_len);
  const guint8 *pb = g_bytes_get_data (b, &b_len);

  g_assert_cmpuint (a_len, ==, b_len);
  for (gsize i = 0; i < a_len; i++)
    {
      gboolean allowed = FALSE;

      if (pa[i] == pb[i])
        continue;
      differences++;
      for (guint r = 0; r < n_ranges; r++)
        if (i >= ranges[r].offset && i < ranges[r].offset + ranges[r].length)
          allowed = TRUE;
      if (!allowed)
        g_error ("byte %" G_GSIZE_FORMAT " changed (0x%02x -> 0x%02x) outside the expected ranges",
                 i, pa[i], pb[i]);
    }
  return differences;
}

static void
roundtrip_spec (const Spec *spec)
{
  Fixture fx;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(GBytes) out = NULL;

  fixture_build (&fx, spec);
  map = load_ok (fx.bytes);
  check_model (map, spec);
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (map)));

  out = save_ok (map);
  /* A serialisation, not the source handed back */
  g_assert_true (out != fx.bytes);
  terrain_test_assert_bytes_equal (out, fx.bytes);
  g_assert_true (terrain_document_compare_bytes (TERRAIN_DOCUMENT (map), out, NULL, NULL));

  for (guint s = 0; s < N_SECTIONS; s++)
    {
      gsize offset, size;
      gboolean present = terrain_tnt_map_get_section_span (map, s, &offset, &size);

      g_assert_cmpint (present, ==, fx.present[s]);
      if (present && fx.size[s] > 0)
        {
          g_assert_cmpuint (offset, ==, fx.offset[s]);
          g_assert_cmpuint (size, ==, fx.size[s]);
        }
    }

  fixture_clear (&fx);
}

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
  patch32 (header, 0, 0x2000);
  patch32 (header, 4, 8);
  patch32 (header, 8, 6);
  patch32 (header, 0x18, 0xFFFFFFFF);
  huge = g_bytes_new (header, sizeof header);
  start = g_get_monotonic_time ();
  assert_load_fails (huge, NULL, TERRAIN_ERROR_LIMIT_EXCEEDED, "tile");
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);

  /* Feature count, sides */
  patch32 (header, 0x18, 1);
  patch32 (header, 0x1C, 0xFFFFFFFF);
  {
    g_autoptr(GBytes) b = g_bytes_new (header, sizeof header);
    assert_load_fails (b, NULL, TERRAIN_ERROR_LIMIT_EXCEEDED, "feature");
  }
  patch32 (header, 0x1C, 0);
  patch32 (header, 4, 0x80000000);
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
              patch32 (data, word * 4, value);
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
      g_assert_cmphex (get32 (g_bytes_get_data (out, NULL), 0x24), ==, 201);
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
      g_assert_cmphex (get32 (dst, w * 4), ==, get32 (src, w * 4));

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
  g_assert_cmpuint (get32 (data, 0), ==, 1);
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
  g_assert_cmphex (get32 (data, 0x38), ==, offset);
  g_assert_cmphex (get32 (data, 0x3C), ==, 1);
  /* Wind, unread word and gravity kept */
  g_assert_cmpuint (get32 (data, 0x28), ==, 1200);
  g_assert_cmpuint (get32 (data, 0x2C), ==, 3400);
  g_assert_cmphex (get32 (data, 0x30), ==, 0xDEADBEEF);
  g_assert_cmpuint (get32 (data, 0x34), ==, 112);
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
  g_assert_cmphex (get32 (data, 0x0C), ==, 64);
  g_assert_cmphex (get32 (data, 0x10), ==, 64 + 32 * 20 * 2);
  g_assert_cmphex (get32 (data, 0x14), ==, 64 + 32 * 20 * 2 + 64 * 40 * 4);
  g_assert_cmphex (get32 (data, 0x20), ==, 64 + 32 * 20 * 2 + 64 * 40 * 4 + 1024);
  g_assert_cmphex (get32 (data, 0x28), ==, 64 + 32 * 20 * 2 + 64 * 40 * 4 + 1024);
  for (guint w = 12; w < 16; w++)
    g_assert_cmphex (get32 (data, w * 4), ==, 0);

  reread = load_ok (out);
  g_assert_cmpuint (terrain_tnt_map_get_width (reread), ==, 64);
  g_assert_cmpmem (terrain_tnt_map_get_minimap (reread, NULL, NULL), 252 * 252, minimap, 252 * 252);
  {
    g_autoptr(GPtrArray) issues = terrain_document_validate (TERRAIN_DOCUMENT (reread));
    g_assert_cmpuint (issues->len, ==, 0);
  }
}

/* ------------------------------------------------------------------------ */
/* Occupancy                                                                */

static gboolean
lookup_footprint (const char *name,
                  guint      *fx,
                  guint      *fz,
                  gpointer    user_data)
{
  if (g_ascii_strcasecmp (name, "Big") == 0)
    {
      *fx = 3;
      *fz = 3;
      return TRUE;
    }
  if (g_ascii_strcasecmp (name, "Wide") == 0)
    {
      *fx = 2;
      *fz = 1;
      return TRUE;
    }
  return FALSE;
}

static gboolean
find_issue (GPtrArray  *issues,
            const char *text,
            gint        x,
            gint        y)
{
  for (guint i = 0; i < issues->len; i++)
    {
      TerrainIssue *issue = g_ptr_array_index (issues, i);
      gint ix, iy;

      if (strstr (terrain_issue_get_message (issue), text) == NULL)
        continue;
      if (!terrain_issue_get_position (issue, &ix, &iy) || ix != x || iy != y)
        continue;
      g_assert_cmpint (terrain_issue_get_severity (issue), ==, TERRAIN_SEVERITY_WARNING);
      return TRUE;
    }
  return FALSE;
}

#define OCC(x, y) occupancy[(y) * 8 + (x)]
#define OWN(x, y) owners[(y) * 8 + (x)]

static void
test_occupancy (void)
{
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (8, 8, NULL);
  g_autoptr(GPtrArray) issues =
    g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  g_autofree guint16 *occupancy = NULL;
  g_autofree guint16 *owners = NULL;
  guint big, rock, wide;

  big = terrain_tnt_map_add_feature_name (map, "Big");
  rock = terrain_tnt_map_add_feature_name (map, "Rock");
  wide = terrain_tnt_map_add_feature_name (map, "wide");

  /* A 3x3 anchored at (1,1), authored with fringe around it except (3,3),
   * which is left 0xFFFF and must become fringe. */
  terrain_tnt_map_set_cell_feature (map, 1, 1, (guint16) big, NULL);
  for (guint y = 1; y <= 3; y++)
    for (guint x = 1; x <= 3; x++)
      if ((x != 1 || y != 1) && (x != 3 || y != 3))
        terrain_tnt_map_set_cell_feature (map, x, y, TERRAIN_TNT_FEATURE_FRINGE, NULL);
  /* Authored fringe nothing covers: becomes empty */
  terrain_tnt_map_set_cell_feature (map, 6, 6, TERRAIN_TNT_FEATURE_FRINGE, NULL);
  /* Void stamped first, then a 3x3 at (0,4) that would cover it */
  terrain_tnt_map_set_cell_feature (map, 1, 5, TERRAIN_TNT_FEATURE_VOID, NULL);
  terrain_tnt_map_set_cell_feature (map, 0, 4, (guint16) big, NULL);
  /* A 3x3 at (5,0) whose footprint covers a rock anchored at (6,1) */
  terrain_tnt_map_set_cell_feature (map, 5, 0, (guint16) big, NULL);
  terrain_tnt_map_set_cell_feature (map, 6, 1, (guint16) rock, NULL);
  /* Off the edge */
  terrain_tnt_map_set_cell_feature (map, 7, 7, (guint16) wide, NULL);
  /* Beyond the feature table */
  terrain_tnt_map_set_cell_feature (map, 4, 7, 50, NULL);
  /* Reserved words that stamp nothing */
  terrain_tnt_map_set_cell_feature (map, 5, 5, 0xFFFB, NULL);
  terrain_tnt_map_set_cell_feature (map, 6, 5, 0xFFFD, NULL);

  occupancy = terrain_tnt_map_build_occupancy (map, lookup_footprint, NULL, &owners, issues);

  /* The 3x3 at (1,1) */
  g_assert_cmphex (OCC (1, 1), ==, big);
  g_assert_cmphex (OWN (1, 1), ==, big);
  for (guint y = 1; y <= 3; y++)
    for (guint x = 1; x <= 3; x++)
      if (x != 1 || y != 1)
        {
          g_assert_cmphex (OCC (x, y), ==, TERRAIN_TNT_FEATURE_FRINGE);
          g_assert_cmphex (OWN (x, y), ==, big);
        }
  g_assert_cmphex (OCC (4, 1), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_cmphex (OWN (4, 1), ==, TERRAIN_TNT_FEATURE_NONE);

  /* Uncovered authored fringe -> empty */
  g_assert_cmphex (OCC (6, 6), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_cmphex (OWN (6, 6), ==, TERRAIN_TNT_FEATURE_NONE);

  /* The void keeps its cell; the rest of the 3x3 at (0,4) is stamped */
  g_assert_cmphex (OCC (1, 5), ==, TERRAIN_TNT_FEATURE_VOID);
  g_assert_cmphex (OWN (1, 5), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_cmphex (OCC (0, 4), ==, big);
  g_assert_cmphex (OCC (2, 6), ==, TERRAIN_TNT_FEATURE_FRINGE);
  g_assert_true (find_issue (issues, "overlaps 1 occupied cell", 0, 4));

  /* The earlier 3x3 at (5,0) keeps (6,1); the rock is reported */
  g_assert_cmphex (OCC (5, 0), ==, big);
  g_assert_cmphex (OCC (6, 1), ==, TERRAIN_TNT_FEATURE_FRINGE);
  g_assert_cmphex (OWN (6, 1), ==, big);
  g_assert_cmphex (OCC (7, 2), ==, TERRAIN_TNT_FEATURE_FRINGE);
  g_assert_true (find_issue (issues, "overlaps", 6, 1));

  /* Clipped at the edge */
  g_assert_cmphex (OCC (7, 7), ==, wide);
  g_assert_true (find_issue (issues, "runs off", 7, 7));

  /* Beyond the table: skipped */
  g_assert_cmphex (OCC (4, 7), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_true (find_issue (issues, "names feature 50", 4, 7));

  /* 0xFFFB and 0xFFFD stamp nothing */
  g_assert_cmphex (OCC (5, 5), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_cmphex (OCC (6, 5), ==, TERRAIN_TNT_FEATURE_NONE);

  g_assert_cmpuint (issues->len, ==, 4);

  /* Without a lookup every feature is 1x1: no overlaps or clipping */
  {
    g_autofree guint16 *flat = NULL;
    g_autoptr(GPtrArray) flat_issues =
      g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);

    flat = terrain_tnt_map_build_occupancy (map, NULL, NULL, NULL, flat_issues);
    g_assert_cmphex (flat[1 * 8 + 2], ==, TERRAIN_TNT_FEATURE_NONE);
    g_assert_cmphex (flat[1 * 8 + 6], ==, rock);
    g_assert_cmphex (flat[5 * 8 + 1], ==, TERRAIN_TNT_FEATURE_VOID);
    g_assert_cmpuint (flat_issues->len, ==, 1);
  }
}

static void
test_occupancy_legacy (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autofree guint16 *occupancy = NULL;
  g_autofree guint16 *owners = NULL;
  g_autoptr(GPtrArray) issues =
    g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);

  spec_legacy (&spec);
  spec.reserved_words = TRUE;
  fixture_build (&fx, &spec);
  map = load_ok (fx.bytes);

  /* Feature0 at (1,1) as 1x1, Feature1 at (5,3); empty codes 0xFC..0xFF
   * stamp nothing (there is no legacy void). */
  occupancy = terrain_tnt_map_build_occupancy (map, NULL, NULL, &owners, issues);
  g_assert_cmphex (OCC (1, 1), ==, 0);
  g_assert_cmphex (OCC (5, 3), ==, 1);
  g_assert_cmphex (OWN (5, 3), ==, 1);
  for (guint x = 0; x < 4; x++)
    g_assert_cmphex (OCC (x, 5), ==, TERRAIN_TNT_FEATURE_NONE);
  g_assert_cmpuint (issues->len, ==, 0);

  fixture_clear (&fx);
}

#undef OCC
#undef OWN

/* ------------------------------------------------------------------------ */
/* Minimap crop rule                                                        */

static void
check_used_size (guint width,
                 guint height,
                 guint stored_w,
                 guint stored_h,
                 guint expect_w,
                 guint expect_h)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (width, height, &error);
  g_autofree guint8 *pixels = g_malloc0 ((gsize) stored_w * stored_h);
  guint uw, uh;

  g_assert_no_error (error);
  g_assert_true (terrain_tnt_map_set_minimap (map, stored_w, stored_h, pixels, &error));
  g_assert_no_error (error);
  terrain_tnt_map_get_minimap_used_size (map, &uw, &uh);
  g_assert_cmpuint (uw, ==, expect_w);
  g_assert_cmpuint (uh, ==, expect_h);

  /* update_minimap keeps the stored size and fills exactly the rest */
  terrain_tnt_map_update_minimap (map, terrain_test_grey_palette ());
  {
    guint mw, mh;
    const guint8 *mm = terrain_tnt_map_get_minimap (map, &mw, &mh);

    g_assert_cmpuint (mw, ==, stored_w);
    g_assert_cmpuint (mh, ==, stored_h);
    for (guint y = 0; y < mh; y++)
      for (guint x = 0; x < mw; x++)
        g_assert_cmpuint (mm[y * mw + x], ==, (x < uw && y < uh) ? 0 : 0x64);
  }
}

/* One play-area rule and one minimap generator: update_minimap, the
 * rendering of a map without a minimap and compute_minimap agree, and the
 * generator box-averages (a minimap pixel covering two tiles of distinct
 * greys is their mean, not one of them). */
static void
test_minimap_one_generator (void)
{
  TerrainPalette *grey = terrain_test_grey_palette ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (64, 64, &error);
  g_autoptr(TerrainImage) rendered = NULL;
  g_autofree guint8 *computed = NULL;
  guint8 dark[TERRAIN_TNT_TILE_BYTES], light[TERRAIN_TNT_TILE_BYTES];
  guint play_w, play_h, w, h, dark_index, light_index;
  const guint8 *stored, *rgba;

  g_assert_no_error (error);
  g_assert_true (terrain_tnt_map_get_play_area (map, &play_w, &play_h));
  g_assert_cmpuint (play_w, ==, 64 * 16 - 32);
  g_assert_cmpuint (play_h, ==, 64 * 16 - 128);

  /* Columns of tiles alternate 40 and 200: 992 play pixels into 252 minimap
   * pixels make boxes of 3 or 4 map pixels, some across a tile edge. */
  memset (dark, 40, sizeof dark);
  memset (light, 200, sizeof light);
  dark_index = terrain_tnt_map_add_tile (map, dark);
  light_index = terrain_tnt_map_add_tile (map, light);
  for (guint row = 0; row < 32; row++)
    for (guint column = 0; column < 32; column++)
      terrain_tnt_map_set_tile_index (map, column, row,
                                      (guint16) (column % 2 ? light_index : dark_index));

  terrain_tnt_map_update_minimap (map, grey);
  stored = terrain_tnt_map_get_minimap (map, &w, &h);
  computed = terrain_tnt_map_compute_minimap (map, grey, w, h);
  g_assert_cmpmem (stored, (gsize) w * h, computed, (gsize) w * h);
  {
    gboolean mixed = FALSE;

    for (guint x = 0; x < w; x++)
      mixed |= stored[x] != 40 && stored[x] != 200 && stored[x] != TERRAIN_PALETTE_MINIMAP_FILL;
    g_assert_true (mixed);
  }

  /* A map without a minimap renders the one the generator makes. */
  {
    Spec spec;
    Fixture fx;
    g_autoptr(TerrainTntMap) bare = NULL;
    g_autofree guint8 *generated = NULL;

    spec_default (&spec);
    spec.flag = 0;
    spec.minimap_pointer = 0xFFFFFFFF;
    fixture_build (&fx, &spec);
    bare = load_ok (fx.bytes);
    g_assert_null (terrain_tnt_map_get_minimap (bare, NULL, NULL));
    rendered = terrain_tnt_map_render_minimap (bare, grey, FALSE, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (terrain_image_get_width (rendered), ==, 252);
    generated = terrain_tnt_map_compute_minimap (bare, grey, 252, 252);
    rgba = terrain_image_get_data (rendered, NULL);
    for (guint y = 0; y < 252; y++)
      for (guint x = 0; x < 252; x++)
        g_assert_cmpuint (rgba[y * terrain_image_get_stride (rendered) + 4 * x], ==,
                          generated[y * 252 + x]);
    fixture_clear (&fx);
  }
}

static void
test_minimap_crop (void)
{
  /* The Pass shape, wide: PlayRight 3552, PlayBottom 1504:
   * used height = 1504 * 252 / 3552 = 106.7 -> 106 */
  check_used_size (224, 102, 252, 252, 252, 106);
  /* AC08 shape, tall: PlayRight 3040, PlayBottom 5120:
   * used width = 3040 * 252 / 5120 = 149.6 -> 149 */
  check_used_size (192, 328, 252, 256, 149, 256);
  /* Square in cells, not in play area: PlayRight 10208 >= PlayBottom 10112:
   * used height = 10112 * 252 / 10208 = 249.6 -> 249 */
  check_used_size (640, 640, 252, 252, 252, 249);
  /* Square play area: PlayRight 1568 = PlayBottom 1568 */
  check_used_size (100, 106, 252, 252, 252, 252);
  /* Tiny maps: no margins to crop by */
  check_used_size (2, 2, 252, 252, 252, 252);
  check_used_size (8, 8, 16, 12, 16, 12);
}

/* ------------------------------------------------------------------------ */
/* Rendering                                                                */

static TerrainPalette *
make_palette (void)
{
  guint8 rgb[256 * 3];

  for (guint i = 0; i < 256; i++)
    {
      rgb[3 * i] = (guint8) i;
      rgb[3 * i + 1] = (guint8) (255 - i);
      rgb[3 * i + 2] = (guint8) (i / 2);
    }
  return terrain_palette_new_from_rgb (rgb, 256);
}

static void
test_render (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(TerrainPalette) palette = make_palette ();
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(TerrainImage) doc_image = NULL;
  g_autoptr(TerrainRenderOptions) options = NULL;
  g_autoptr(GError) error = NULL;
  guint8 *pixels;
  gsize stride;

  spec_default (&spec);
  fixture_build (&fx, &spec);
  map = load_ok (fx.bytes);

  image = terrain_tnt_map_render (map, NULL, &error);
  g_assert_null (image);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "a palette is needed"));
  g_clear_error (&error);

  terrain_tnt_map_set_tile_index (map, 2, 1, 99);
  image = terrain_tnt_map_render (map, palette, &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_image_get_format (image), ==, TERRAIN_IMAGE_RGBA8);
  g_assert_cmpuint (terrain_image_get_width (image), ==, 4 * 32);
  g_assert_cmpuint (terrain_image_get_height (image), ==, 3 * 32);
  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);

  for (guint r = 0; r < 3; r++)
    for (guint c = 0; c < 4; c++)
      for (guint y = 0; y < 32; y += 5)
        for (guint x = 0; x < 32; x += 3)
          {
            const guint8 *px = pixels + (r * 32 + y) * stride + (c * 32 + x) * 4;

            if (c == 2 && r == 1)
              {
                /* Magenta and black 8-pixel squares, magenta at the top-left. */
                gboolean on = (((x / 8) ^ (y / 8)) & 1) == 0;

                g_assert_cmpuint (px[0], ==, on ? 255 : 0);
                g_assert_cmpuint (px[1], ==, 0);
                g_assert_cmpuint (px[2], ==, on ? 255 : 0);
              }
            else
              {
                guint8 index = fx_tile_pixel (fx_tile_index (&spec, r * 4 + c), y * 32 + x);

                g_assert_cmpuint (px[0], ==, index);
                g_assert_cmpuint (px[1], ==, 255 - index);
                g_assert_cmpuint (px[2], ==, index / 2);
              }
            g_assert_cmpuint (px[3], ==, 255);
          }

  options = terrain_palette_to_render_options (palette);
  doc_image = terrain_document_render_image (TERRAIN_DOCUMENT (map), options, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_image_get_width (doc_image), ==, 128);
  g_assert_cmpuint (terrain_image_get_height (doc_image), ==, 96);

  /* Minimap: 8x6 cells is too small for the crop margins: full size */
  {
    g_autoptr(TerrainImage) mm = terrain_tnt_map_render_minimap (map, palette, TRUE, &error);
    const guint8 *p;

    g_assert_no_error (error);
    g_assert_cmpuint (terrain_image_get_width (mm), ==, 16);
    g_assert_cmpuint (terrain_image_get_height (mm), ==, 12);
    p = terrain_image_get_data (mm, NULL) + 3 * terrain_image_get_stride (mm) + 4 * 5;
    g_assert_cmpuint (p[0], ==, fx_minimap_pixel (5, 3));
  }

  fixture_clear (&fx);

  /* Cropped minimap of a wide map */
  {
    g_autoptr(TerrainTntMap) wide = terrain_tnt_map_new (224, 102, NULL);
    g_autoptr(TerrainImage) full = terrain_tnt_map_render_minimap (wide, palette, FALSE, &error);
    g_autoptr(TerrainImage) crop = terrain_tnt_map_render_minimap (wide, palette, TRUE, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (terrain_image_get_width (full), ==, 252);
    g_assert_cmpuint (terrain_image_get_height (full), ==, 252);
    g_assert_cmpuint (terrain_image_get_width (crop), ==, 252);
    g_assert_cmpuint (terrain_image_get_height (crop), ==, 106);
    /* The fill shows in the uncropped bitmap only */
    g_assert_cmpuint (terrain_image_get_data (full, NULL)[251 * terrain_image_get_stride (full)],
                      ==, 0x64);
  }
}

static void
test_export_heights (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *data;
  gsize stride;

  spec_legacy (&spec);
  fixture_build (&fx, &spec);
  map = load_ok (fx.bytes);
  image = terrain_document_export_heights (TERRAIN_DOCUMENT (map), &error);
  g_assert_no_error (error);
  g_assert_cmpint (terrain_image_get_format (image), ==, TERRAIN_IMAGE_GRAY16);
  g_assert_cmpuint (terrain_image_get_width (image), ==, 8);
  g_assert_cmpuint (terrain_image_get_height (image), ==, 6);
  data = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  for (guint y = 0; y < 6; y++)
    for (guint x = 0; x < 8; x++)
      {
        guint16 v;

        memcpy (&v, data + y * stride + 2 * x, 2);
        g_assert_cmpuint (v, ==, fx_height (x, y) * 257u);
      }

  fixture_clear (&fx);
}

/* ------------------------------------------------------------------------ */
/* Validation and description                                               */

static guint
count_issues (GPtrArray       *issues,
              TerrainSeverity  severity,
              const char      *text)
{
  guint n = 0;

  for (guint i = 0; i < issues->len; i++)
    {
      TerrainIssue *issue = g_ptr_array_index (issues, i);

      if (terrain_issue_get_severity (issue) == severity &&
          (text == NULL || strstr (terrain_issue_get_message (issue), text) != NULL))
        n++;
    }
  return n;
}

static TerrainIssue *
first_issue (GPtrArray  *issues,
             const char *text)
{
  for (guint i = 0; i < issues->len; i++)
    if (strstr (terrain_issue_get_message (g_ptr_array_index (issues, i)), text) != NULL)
      return g_ptr_array_index (issues, i);
  return NULL;
}

static void
test_validate (void)
{
  Spec spec;
  Fixture fx;
  guint8 *data;
  gsize size;
  g_autoptr(GBytes) broken = NULL;
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  TerrainIssue *issue;
  gint x, y;

  /* A clean fixture has no findings */
  spec_default (&spec);
  fixture_build (&fx, &spec);
  map = load_ok (fx.bytes);
  issues = terrain_document_validate (TERRAIN_DOCUMENT (map));
  g_assert_cmpuint (issues->len, ==, 0);
  g_clear_pointer (&issues, g_ptr_array_unref);
  g_clear_object (&map);
  fixture_clear (&fx);

  /* A broken one */
  spec_default (&spec);
  spec.pad[0] = 1;
  spec.pad[3] = 2;
  spec.extra_byte = 9;
  fixture_build (&fx, &spec);
  data = g_memdup2 (g_bytes_get_data (fx.bytes, &size), g_bytes_get_size (fx.bytes));
  /* tile map entry 5 names tile 7 of 3 */
  data[fx.offset[TERRAIN_TNT_SECTION_TILE_MAP] + 10] = 7;
  /* every cell of row 2 names feature 9 of 2 */
  for (guint cx = 0; cx < 8; cx++)
    {
      data[fx.offset[TERRAIN_TNT_SECTION_ATTRIBUTES] + (2 * 8 + cx) * 4 + 1] = 9;
      data[fx.offset[TERRAIN_TNT_SECTION_ATTRIBUTES] + (2 * 8 + cx) * 4 + 2] = 0;
    }
  /* record 1 has index word 7 and a name with no NUL */
  patch32 (data, fx.offset[TERRAIN_TNT_SECTION_FEATURES] + 132, 7);
  memset (data + fx.offset[TERRAIN_TNT_SECTION_FEATURES] + 132 + 4, 'x', 128);
  broken = g_bytes_new_take (data, size);
  map = load_ok (broken);
  issues = terrain_document_validate (TERRAIN_DOCUMENT (map));

  g_assert_cmpuint (strlen (terrain_tnt_map_get_feature_name (map, 1)), ==, 128);
  issue = first_issue (issues, "no NUL terminator");
  g_assert_nonnull (issue);
  g_assert_cmpint (terrain_issue_get_severity (issue), ==, TERRAIN_SEVERITY_WARNING);
  g_assert_cmpint (terrain_issue_get_record (issue), ==, 1);

  issue = first_issue (issues, "is tile 7");
  g_assert_nonnull (issue);
  g_assert_cmpint (terrain_issue_get_severity (issue), ==, TERRAIN_SEVERITY_WARNING);
  g_assert_cmpstr (terrain_issue_get_section (issue), ==, "TNT tile map");
  g_assert_cmpint (terrain_issue_get_offset (issue), ==,
                   fx.offset[TERRAIN_TNT_SECTION_TILE_MAP] + 10);
  g_assert_cmpint (terrain_issue_get_record (issue), ==, 5);

  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING, "names feature 9"), ==, 8);
  issue = first_issue (issues, "names feature 9");
  g_assert_true (terrain_issue_get_position (issue, &x, &y));
  g_assert_cmpint (x, ==, 0);
  g_assert_cmpint (y, ==, 2);
  g_assert_cmpint (terrain_issue_get_offset (issue), ==,
                   fx.offset[TERRAIN_TNT_SECTION_ATTRIBUTES] + 16 * 4 + 1);

  issue = first_issue (issues, "index word 7");
  g_assert_nonnull (issue);
  g_assert_cmpint (terrain_issue_get_severity (issue), ==, TERRAIN_SEVERITY_INFO);
  g_assert_cmpint (terrain_issue_get_record (issue), ==, 1);
  g_assert_cmpint (terrain_issue_get_offset (issue), ==,
                   fx.offset[TERRAIN_TNT_SECTION_FEATURES] + 132);

  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_INFO, "pad word"), ==, 2);
  /* 48 cells with byte +3 set: 20 listed plus one summary */
  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_INFO, "attribute byte +3 ="), ==, 20);
  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_INFO,
                                  "about cells with a nonzero attribute byte +3 (48 in all"),
                    ==, 1);
  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_ERROR, NULL), ==, 0);

  g_clear_pointer (&issues, g_ptr_array_unref);
  g_clear_object (&map);
  fixture_clear (&fx);

  /* Flag clear, pointer at a real minimap; odd width */
  spec_default (&spec);
  spec.flag = 0;
  spec.write_minimap_anyway = TRUE;
  spec.width = 9;
  fixture_build (&fx, &spec);
  map = load_ok (fx.bytes);
  issues = terrain_document_validate (TERRAIN_DOCUMENT (map));
  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING, "looks like a 16x12 minimap"),
                    ==, 1);
  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING, "odd side"), ==, 1);
  g_assert_cmpuint (issues->len, ==, 2);
  g_clear_pointer (&issues, g_ptr_array_unref);
  g_clear_object (&map);
  fixture_clear (&fx);

  /* Flag set, zero-sized minimap */
  spec_default (&spec);
  spec.minimap_w = 0;
  spec.minimap_h = 12;
  fixture_build (&fx, &spec);
  map = load_ok (fx.bytes);
  issues = terrain_document_validate (TERRAIN_DOCUMENT (map));
  g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING, "MinimapPresent bit 0 is set"),
                    ==, 1);
  g_assert_cmpuint (issues->len, ==, 1);
  g_clear_pointer (&issues, g_ptr_array_unref);
  g_clear_object (&map);
  fixture_clear (&fx);

  /* Many out-of-range features on a big map: grouped */
  {
    g_autoptr(TerrainTntMap) big = terrain_tnt_map_new (64, 64, NULL);

    for (guint cy = 0; cy < 64; cy++)
      for (guint cx = 0; cx < 64; cx++)
        terrain_tnt_map_set_cell_feature (big, cx, cy, 3, NULL);
    issues = terrain_document_validate (TERRAIN_DOCUMENT (big));
    g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING, "names feature 3"), ==, 20);
    g_assert_cmpuint (count_issues (issues, TERRAIN_SEVERITY_WARNING,
                                    "about cells naming a feature beyond the feature table "
                                    "(4096 in all"), ==, 1);
    g_assert_cmpuint (issues->len, ==, 21);
  }
}

static void
test_describe (void)
{
  for (guint legacy = 0; legacy < 2; legacy++)
    {
      Spec spec;
      Fixture fx;
      g_autoptr(TerrainTntMap) map = NULL;
      g_autoptr(JsonNode) node = NULL;
      JsonObject *root, *minimap, *feature;
      JsonArray *sections, *features, *words;
      gint64 last = -1;

      if (legacy)
        spec_legacy (&spec);
      else
        spec_default (&spec);
      spec.order[0] = TERRAIN_TNT_SECTION_FEATURES;
      spec.order[3] = TERRAIN_TNT_SECTION_TILE_MAP;
      spec.gap = 3;
      spec.trailing = 10;
      fixture_build (&fx, &spec);
      map = load_ok (fx.bytes);
      node = terrain_document_describe (TERRAIN_DOCUMENT (map));
      root = json_node_get_object (node);

      g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "tnt");
      g_assert_cmpint (json_object_get_int_member (root, "version"), ==, spec.version);
      g_assert_cmpstr (json_object_get_string_member (root, "version_hex"), ==,
                       legacy ? "0x1020" : "0x2000");
      g_assert_cmpint (json_object_get_int_member (root, "width"), ==, 8);
      g_assert_cmpint (json_object_get_int_member (root, "height"), ==, 6);
      g_assert_cmpint (json_object_get_int_member (root, "tile_columns"), ==, 4);
      g_assert_cmpint (json_object_get_int_member (root, "tile_rows"), ==, 3);
      g_assert_cmpint (json_object_get_int_member (root, "pixel_width"), ==, 128);
      g_assert_cmpint (json_object_get_int_member (root, "pixel_height"), ==, 96);
      g_assert_cmpint (json_object_get_int_member (root, "tiles"), ==, 3);
      g_assert_cmpint (json_object_get_int_member (root, "sea_level"), ==, 40);
      g_assert_cmpint (json_object_get_int_member (root, "file_size"), ==,
                       g_bytes_get_size (fx.bytes));
      g_assert_cmpint (json_object_get_int_member (root, "unreferenced_bytes"), ==, 5 * 3 + 10);

      features = json_object_get_array_member (root, "features");
      g_assert_cmpuint (json_array_get_length (features), ==, 2);
      feature = json_array_get_object_element (features, 1);
      g_assert_cmpint (json_object_get_int_member (feature, "index"), ==, 1);
      g_assert_cmpint (json_object_get_int_member (feature, "record_index"), ==, 1);
      g_assert_cmpstr (json_object_get_string_member (feature, "name"), ==, "Feature1");

      minimap = json_object_get_object_member (root, "minimap");
      g_assert_true (json_object_get_boolean_member (minimap, "present"));
      g_assert_cmpint (json_object_get_int_member (minimap, "width"), ==, 16);
      g_assert_cmpint (json_object_get_int_member (minimap, "height"), ==, 12);
      g_assert_cmpint (json_object_get_int_member (minimap, "used_width"), ==, 16);
      g_assert_cmpint (json_object_get_int_member (minimap, "used_height"), ==, 12);

      words = json_object_get_array_member (root, "header_words");
      g_assert_cmpuint (json_array_get_length (words), ==, 16);
      g_assert_cmpint (json_array_get_int_element (words, 9), ==, 40);

      sections = json_object_get_array_member (root, "sections");
      g_assert_cmpuint (json_array_get_length (sections), ==, 6);
      g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (sections, 0),
                                                      "name"), ==, "header");
      g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (sections, 1),
                                                      "name"), ==, "features");
      for (guint i = 0; i < json_array_get_length (sections); i++)
        {
          JsonObject *section = json_array_get_object_element (sections, i);
          gint64 offset = json_object_get_int_member (section, "offset");

          g_assert_cmpint (offset, >, last);
          last = offset;
          g_assert_true (json_object_has_member (section, "size"));
        }

      if (legacy)
        {
          g_assert_cmpint (json_object_get_int_member (root, "min_wind"), ==, 1200);
          g_assert_cmpint (json_object_get_int_member (root, "max_wind"), ==, 3400);
          g_assert_cmpint (json_object_get_int_member (root, "gravity"), ==, 112);
        }
      else
        g_assert_false (json_object_has_member (root, "gravity"));

      fixture_clear (&fx);
    }
}

static void
test_describe_offset (void)
{
  Spec spec;
  Fixture fx;
  g_autoptr(TerrainTntMap) map = NULL;
  TerrainDocument *doc;
  gsize attr, feat;

  spec_default (&spec);
  spec.gap = 4;
  spec.trailing = 4;
  fixture_build (&fx, &spec);
  map = load_ok (fx.bytes);
  doc = TERRAIN_DOCUMENT (map);
  attr = fx.offset[TERRAIN_TNT_SECTION_ATTRIBUTES];
  feat = fx.offset[TERRAIN_TNT_SECTION_FEATURES];

#define CHECK_OFFSET(off, text) \
  G_STMT_START { \
    g_autofree char *s_ = terrain_document_describe_offset (doc, (off)); \
    g_assert_cmpstr (s_, ==, (text)); \
  } G_STMT_END

  CHECK_OFFSET (0x25, "header, word 9 at 0x24 (SeaLevel), byte +1");
  CHECK_OFFSET (attr + (3 * 8 + 2) * 4 + 1, "attribute map, cell 26 (x=2, y=3), byte +1");
  CHECK_OFFSET (feat + 132 + 4, "feature records, record 1, name, byte +0");
  CHECK_OFFSET (feat + 2, "feature records, record 0, index word, byte +2");
  CHECK_OFFSET (fx.offset[TERRAIN_TNT_SECTION_TILES] + 1024 + 33,
                "tile graphics, tile 1, pixel (x=1, y=1)");
  CHECK_OFFSET (fx.offset[TERRAIN_TNT_SECTION_TILE_MAP] + 6,
                "tile map, entry 3 (column=3, row=0), byte +0");
  CHECK_OFFSET (fx.offset[TERRAIN_TNT_SECTION_MINIMAP] + 4, "minimap, height word, byte +0");
  CHECK_OFFSET (fx.offset[TERRAIN_TNT_SECTION_MINIMAP] + 8 + 17, "minimap, pixel (x=1, y=1)");
  CHECK_OFFSET (attr - 1, "gap between sections");
  CHECK_OFFSET (g_bytes_get_size (fx.bytes) - 1, "trailing bytes after the last section");

#undef CHECK_OFFSET

  /* compare_bytes names where an edited write first differs */
  {
    g_autoptr(GBytes) out = NULL;
    g_autofree char *where = NULL;
    gsize first;

    terrain_tnt_map_set_cell_height (map, 2, 3, 1);
    out = save_ok (map);
    g_assert_false (terrain_document_compare_bytes (doc, out, &first, &where));
    g_assert_cmpuint (first, ==, attr + (3 * 8 + 2) * 4);
    g_assert_cmpstr (where, ==, "attribute map, cell 26 (x=2, y=3), byte +0");
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
  g_test_add_func ("/Terrain/TntMap/edit-sea-level", test_edit_sea_level);
  g_test_add_func ("/Terrain/TntMap/edit-cells", test_edit_cells);
  g_test_add_func ("/Terrain/TntMap/edit-legacy-features", test_edit_legacy_features);
  g_test_add_func ("/Terrain/TntMap/relayout", test_relayout);
  g_test_add_func ("/Terrain/TntMap/edit-minimap", test_edit_minimap);
  g_test_add_func ("/Terrain/TntMap/feature-names", test_feature_names);
  g_test_add_func ("/Terrain/TntMap/legacy-minimap", test_legacy_minimap);
  g_test_add_func ("/Terrain/TntMap/new", test_new);
  g_test_add_func ("/Terrain/TntMap/occupancy", test_occupancy);
  g_test_add_func ("/Terrain/TntMap/occupancy-legacy", test_occupancy_legacy);
  g_test_add_func ("/Terrain/TntMap/minimap-crop", test_minimap_crop);
  g_test_add_func ("/Terrain/TntMap/minimap-one-generator", test_minimap_one_generator);
  g_test_add_func ("/Terrain/TntMap/render", test_render);
  g_test_add_func ("/Terrain/TntMap/export-heights", test_export_heights);
  g_test_add_func ("/Terrain/TntMap/validate", test_validate);
  g_test_add_func ("/Terrain/TntMap/describe", test_describe);
  g_test_add_func ("/Terrain/TntMap/describe-offset", test_describe_offset);
  g_test_add_func ("/Terrain/TntMap/corpus", test_corpus);

  return g_test_run ();
}
