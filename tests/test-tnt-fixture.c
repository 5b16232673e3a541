/* test-tnt-fixture.c: TNT maps built byte by byte from tnt-sct.md, and the checks
 * test-tnt.c, test-tnt-write.c and test-tnt-analysis.c share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"

#include "test-tnt-fixture.h"

void
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

void
spec_legacy (Spec *spec)
{
  spec_default (spec);
  spec->version = TERRAIN_TNT_VERSION_LEGACY;
  spec->min_wind = 1200;
  spec->max_wind = 3400;
  spec->legacy_unread = 0xDEADBEEF;
  spec->gravity = 112;
}

guint8
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

guint16
fx_tile_index (const Spec *spec,
               gsize       entry)
{
  return (guint16) ((entry * 2 + 1) % spec->n_tiles);
}

guint8
fx_tile_pixel (guint t,
               guint p)
{
  return (guint8) ((t * 37 + p * 3) & 0xFF);
}

guint8
fx_minimap_pixel (guint x,
                  guint y)
{
  return (guint8) ((x + y * 3) & 0xFF);
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
        terrain_test_put_u16 (a, fx_tile_index (spec, i));
      break;
    case TERRAIN_TNT_SECTION_ATTRIBUTES:
      for (guint y = 0; y < spec->height; y++)
        for (guint x = 0; x < spec->width; x++)
          {
            if (legacy)
              {
                terrain_test_put_u8 (a, fx_height (x, y));
                terrain_test_put_u8 (a, (guint8) (0x11 ^ x));
                terrain_test_put_u8 (a, fx_legacy_feature_byte (spec, x, y));
                terrain_test_put_u8 (a, spec->extra_byte);
                terrain_test_put_u8 (a, 0x44);
                terrain_test_put_u8 (a, (guint8) y);
                terrain_test_put_u8 (a, (guint8) (x * y));
                terrain_test_put_u8 (a, 0x77);
              }
            else
              {
                terrain_test_put_u8 (a, fx_height (x, y));
                terrain_test_put_u16 (a, fx_feature (spec, x, y));
                terrain_test_put_u8 (a, spec->extra_byte);
              }
          }
      break;
    case TERRAIN_TNT_SECTION_TILES:
      for (guint t = 0; t < spec->n_tiles; t++)
        for (guint p = 0; p < 1024; p++)
          terrain_test_put_u8 (a, fx_tile_pixel (t, p));
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
          terrain_test_put_u32 (a, i);
          g_byte_array_append (a, (const guint8 *) name, sizeof name);
        }
      break;
    case TERRAIN_TNT_SECTION_MINIMAP:
    default:
      terrain_test_put_u32 (a, spec->minimap_w);
      terrain_test_put_u32 (a, spec->minimap_h);
      for (guint y = 0; y < spec->minimap_h; y++)
        for (guint x = 0; x < spec->minimap_w; x++)
          terrain_test_put_u8 (a, fx_minimap_pixel (x, y));
      break;
    }
}

void
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
        terrain_test_put_u8 (a, (guint8) (0xE0 + gap_counter++));
      start = a->len;
      write_section (a, spec, s);
      fx->offset[s] = start;
      fx->size[s] = a->len - start;
      fx->present[s] = (s != TERRAIN_TNT_SECTION_MINIMAP) || (spec->flag & 1);
    }
  for (guint t = 0; t < spec->trailing; t++)
    terrain_test_put_u8 (a, (guint8) (0x5A ^ t));

  terrain_test_set_u32 (a->data + 0, spec->version);
  terrain_test_set_u32 (a->data + 4, spec->width);
  terrain_test_set_u32 (a->data + 8, spec->height);
  terrain_test_set_u32 (a->data + 24, spec->n_tiles);
  terrain_test_set_u32 (a->data + 28, spec->n_features);
  terrain_test_set_u32 (a->data + 36, spec->sea_level);
  for (guint s = 1; s < N_SECTIONS; s++)
    terrain_test_set_u32 (a->data + ptr_word[s] * 4, (guint32) fx->offset[s]);
  if (!(spec->flag & 1) && !spec->write_minimap_anyway)
    terrain_test_set_u32 (a->data + ptr_word[TERRAIN_TNT_SECTION_MINIMAP] * 4,
                          spec->minimap_pointer);
  terrain_test_set_u32 (a->data + flag_word * 4, spec->flag);
  if (legacy)
    {
      terrain_test_set_u32 (a->data + 40, spec->min_wind);
      terrain_test_set_u32 (a->data + 44, spec->max_wind);
      terrain_test_set_u32 (a->data + 48, spec->legacy_unread);
      terrain_test_set_u32 (a->data + 52, spec->gravity);
    }
  else
    for (guint w = 0; w < 4; w++)
      terrain_test_set_u32 (a->data + 48 + 4 * w, spec->pad[w]);

  fx->bytes = g_byte_array_free_to_bytes (a);
}

void
fixture_clear (Fixture *fx)
{
  g_clear_pointer (&fx->bytes, g_bytes_unref);
}

GBytes *
bytes_with_patch32 (GBytes  *bytes,
                    gsize    offset,
                    guint32  value)
{
  gsize size;
  guint8 *data = g_memdup2 (g_bytes_get_data (bytes, &size), g_bytes_get_size (bytes));

  terrain_test_set_u32 (data + offset, value);
  return g_bytes_new_take (data, size);
}

GBytes *
bytes_truncated (GBytes *bytes,
                 gsize   length)
{
  return g_bytes_new_from_bytes (bytes, 0, length);
}

/* Checks every getter against the fixture's generator. */
void
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

TerrainTntMap *
load_ok (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  TerrainTntMap *map = terrain_tnt_map_new_from_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (map);
  return map;
}

GBytes *
save_ok (TerrainTntMap *map)
{
  g_autoptr(GError) error = NULL;
  GBytes *out = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (map), &error);

  g_assert_no_error (error);
  g_assert_nonnull (out);
  return out;
}

void
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
/* Asserts that @a and @b have the same length and differ only inside
 * @ranges, and returns how many bytes differ. */
gsize
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

void
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
