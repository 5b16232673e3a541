/* terrain-test-fixtures.c: small files of the formats libterrain reads,
 * built byte by byte
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-test-fixtures.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

TerrainPalette *
terrain_test_grey_palette (void)
{
  static TerrainPalette *palette;

  if (palette == NULL)
    {
      guint8 rgb[3 * 256];

      for (guint i = 0; i < 256; i++)
        rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = (guint8) i;
      palette = terrain_palette_new_from_rgb (rgb, 256);
    }
  return palette;
}

char *
terrain_test_write_map_folder (const char     *prefix,
                               TerrainTntMap  *map,
                               const char     *tnt_name,
                               const char     *ota_name,
                               const char     *ota_text,
                               char          **tnt_path,
                               char          **ota_path)
{
  g_autoptr(GError) error = NULL;
  char *folder = terrain_test_make_tmp_dir (prefix);
  g_autofree char *tnt = g_build_filename (folder, tnt_name, NULL);
  g_autofree char *ota = g_build_filename (folder, ota_name, NULL);
  g_autoptr(GFile) tnt_file = g_file_new_for_path (tnt);

  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (map), tnt_file, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (ota, ota_text, -1, &error));
  g_assert_no_error (error);
  if (tnt_path != NULL)
    *tnt_path = g_steal_pointer (&tnt);
  if (ota_path != NULL)
    *ota_path = g_steal_pointer (&ota);
  return folder;
}

void
terrain_test_put_u8 (GByteArray *out,
                     guint8      value)
{
  g_byte_array_append (out, &value, 1);
}

void
terrain_test_put_u16 (GByteArray *out,
                      guint16     value)
{
  guint8 b[2] = { value & 0xff, value >> 8 };

  g_byte_array_append (out, b, 2);
}

void
terrain_test_put_u32 (GByteArray *out,
                      guint32     value)
{
  guint8 b[4];

  terrain_test_set_u32 (b, value);
  g_byte_array_append (out, b, 4);
}

void
terrain_test_put_f32 (GByteArray *out,
                      gfloat      value)
{
  guint32 v;

  memcpy (&v, &value, 4);
  terrain_test_put_u32 (out, v);
}

void
terrain_test_set_u32 (guint8  *p,
                      guint32  value)
{
  p[0] = value & 0xff;
  p[1] = (value >> 8) & 0xff;
  p[2] = (value >> 16) & 0xff;
  p[3] = value >> 24;
}

guint32
terrain_test_get_u32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
}

/* ------------------------------------------------------------------------ */
/* SCT                                                                      */

#define SCT_PREVIEW_BYTES (TERRAIN_SCT_PREVIEW_SIDE * TERRAIN_SCT_PREVIEW_SIDE)

/* The bytes after the height of a record, as observed. */
static const guint8 v2_tail[7] = { 0x01, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00 };
static const guint8 v3_tail[3] = { 0xFF, 0xFF, 0x00 };

const guint8 *
terrain_test_sct_record_tail (guint32 version)
{
  return version == 2 ? v2_tail : v3_tail;
}

/* Deterministic contents, so that every test knows what each byte holds. */
guint16
terrain_test_sct_tile_index (const TerrainTestSct *f,
                             guint                 column,
                             guint                 row)
{
  if (f->n_tiles == 0)
    return (guint16) (row * f->width + column);
  return (guint16) ((column * 3 + row * 5 + 1) % f->n_tiles);
}

guint8
terrain_test_sct_height (guint x,
                         guint y)
{
  return (guint8) (x * 37 + y * 101 + 7);
}

guint8
terrain_test_sct_preview (gsize i)
{
  return (guint8) (i * 7 + 3);
}

guint8
terrain_test_sct_tile_pixel (guint tile,
                             guint pixel)
{
  return (guint8) (tile * 59 + pixel * 3 + 11);
}

guint8
terrain_test_sct_filler (gsize offset)
{
  return (guint8) (0xA0 | (offset & 0x0F));
}

static void
put_le16 (guint8  *p,
          guint16  v)
{
  p[0] = v & 0xff;
  p[1] = v >> 8;
}

void
terrain_test_sct_build (TerrainTestSct           *f,
                        const TerrainTestSctSpec *spec)
{
  /* Block order per writer, and whether filler precedes each block. */
  static const TerrainSctBlock orders[3][TERRAIN_TEST_SCT_N_BLOCKS] = {
    [TERRAIN_TEST_SCT_V2] = { TERRAIN_SCT_BLOCK_HEADER, TERRAIN_SCT_BLOCK_TILE_MAP,
                              TERRAIN_SCT_BLOCK_HEIGHTS, TERRAIN_SCT_BLOCK_PREVIEW,
                              TERRAIN_SCT_BLOCK_TILES },
    [TERRAIN_TEST_SCT_V3] = { TERRAIN_SCT_BLOCK_HEADER, TERRAIN_SCT_BLOCK_TILE_MAP,
                              TERRAIN_SCT_BLOCK_HEIGHTS, TERRAIN_SCT_BLOCK_TILES,
                              TERRAIN_SCT_BLOCK_PREVIEW },
    [TERRAIN_TEST_SCT_STANDALONE] = { TERRAIN_SCT_BLOCK_HEADER, TERRAIN_SCT_BLOCK_PREVIEW,
                                      TERRAIN_SCT_BLOCK_TILES, TERRAIN_SCT_BLOCK_TILE_MAP,
                                      TERRAIN_SCT_BLOCK_HEIGHTS },
  };
  static const gboolean gap_before[3][TERRAIN_TEST_SCT_N_BLOCKS] = {
    [TERRAIN_TEST_SCT_V2] = { FALSE, TRUE, FALSE, FALSE, TRUE },
    [TERRAIN_TEST_SCT_V3] = { FALSE, TRUE, FALSE, FALSE, TRUE },
    [TERRAIN_TEST_SCT_STANDALONE] = { FALSE, FALSE, TRUE, TRUE, FALSE },
  };
  const guint8 *tail;
  guint8 *data;
  gsize pos = 0, total;

  memset (f, 0, sizeof *f);
  f->version = spec->layout == TERRAIN_TEST_SCT_V2 ? 2 : 3;
  f->width = spec->width;
  f->height = spec->height;
  f->n_tiles = spec->n_tiles;
  f->record_size = f->version == 2 ? 8 : 4;
  tail = terrain_test_sct_record_tail (f->version);

  f->size[TERRAIN_SCT_BLOCK_HEADER] = TERRAIN_SCT_HEADER_SIZE;
  f->size[TERRAIN_SCT_BLOCK_PREVIEW] = SCT_PREVIEW_BYTES;
  f->size[TERRAIN_SCT_BLOCK_TILES] = (gsize) f->n_tiles * TERRAIN_SCT_TILE_BYTES;
  f->size[TERRAIN_SCT_BLOCK_TILE_MAP] = 2 * (gsize) f->width * f->height;
  f->size[TERRAIN_SCT_BLOCK_HEIGHTS] = 4 * (gsize) f->width * f->height * f->record_size;

  for (guint i = 0; i < TERRAIN_TEST_SCT_N_BLOCKS; i++)
    {
      TerrainSctBlock b = orders[spec->layout][i];

      if (gap_before[spec->layout][i])
        {
          pos += spec->gap;
          f->unreferenced += spec->gap;
        }
      f->order[i] = b;
      f->offset[b] = pos;
      pos += f->size[b];
    }
  f->end = pos;
  f->unreferenced += spec->trailing;
  total = pos + spec->trailing;

  data = g_malloc (total);
  for (gsize i = 0; i < total; i++)
    data[i] = terrain_test_sct_filler (i);
  for (gsize i = f->end; i < total; i++)
    data[i] = (guint8) (0xEE ^ i);

  terrain_test_set_u32 (data + 0, f->version);
  terrain_test_set_u32 (data + 4, (guint32) f->offset[TERRAIN_SCT_BLOCK_PREVIEW]);
  terrain_test_set_u32 (data + 8, f->n_tiles);
  terrain_test_set_u32 (data + 12, (guint32) f->offset[TERRAIN_SCT_BLOCK_TILES]);
  terrain_test_set_u32 (data + 16, f->width);
  terrain_test_set_u32 (data + 20, f->height);
  terrain_test_set_u32 (data + 24, (guint32) f->offset[TERRAIN_SCT_BLOCK_TILE_MAP]);

  for (gsize i = 0; i < SCT_PREVIEW_BYTES; i++)
    data[f->offset[TERRAIN_SCT_BLOCK_PREVIEW] + i] = terrain_test_sct_preview (i);

  for (guint t = 0; t < f->n_tiles; t++)
    for (guint p = 0; p < TERRAIN_SCT_TILE_BYTES; p++)
      data[f->offset[TERRAIN_SCT_BLOCK_TILES] + (gsize) t * TERRAIN_SCT_TILE_BYTES + p] =
        terrain_test_sct_tile_pixel (t, p);

  for (guint r = 0; r < f->height; r++)
    for (guint c = 0; c < f->width; c++)
      put_le16 (data + f->offset[TERRAIN_SCT_BLOCK_TILE_MAP] + 2 * ((gsize) r * f->width + c),
                terrain_test_sct_tile_index (f, c, r));

  for (guint y = 0; y < 2 * f->height; y++)
    for (guint x = 0; x < 2 * f->width; x++)
      {
        guint8 *record = data + f->offset[TERRAIN_SCT_BLOCK_HEIGHTS] +
                         ((gsize) y * 2 * f->width + x) * f->record_size;

        record[0] = terrain_test_sct_height (x, y);
        memcpy (record + 1, tail, f->record_size - 1);
      }

  f->bytes = g_bytes_new_take (data, total);
}

void
terrain_test_sct_clear (TerrainTestSct *f)
{
  g_clear_pointer (&f->bytes, g_bytes_unref);
}

/* ------------------------------------------------------------------------ */
/* DAT1 models                                                              */

GByteArray *
terrain_test_dat1_section (TerrainTestDat1 *f,
                           guint32          tag)
{
  for (guint i = 0; i < f->n; i++)
    if (f->tags[i] == tag)
      return f->data[i];

  g_assert_cmpuint (f->n, <, TERRAIN_TEST_DAT1_MAX_SECTIONS);
  f->tags[f->n] = tag;
  f->data[f->n] = g_byte_array_new ();
  return f->data[f->n++];
}

void
terrain_test_dat1_remove (TerrainTestDat1 *f,
                          guint32          tag)
{
  for (guint i = 0; i < f->n; i++)
    if (f->tags[i] == tag)
      {
        g_byte_array_unref (f->data[i]);
        f->n--;
        memmove (&f->tags[i], &f->tags[i + 1], (f->n - i) * sizeof f->tags[0]);
        memmove (&f->data[i], &f->data[i + 1], (f->n - i) * sizeof f->data[0]);
        return;
      }
}

void
terrain_test_dat1_free (TerrainTestDat1 *f)
{
  for (guint i = 0; i < f->n; i++)
    g_byte_array_unref (f->data[i]);
  g_byte_array_unref (f->strings);
  g_free (f);
}

guint32
terrain_test_dat1_strings_base (const TerrainTestDat1 *f)
{
  return 16 + 12 * f->n + 8 * f->n_extra;
}

void
terrain_test_dat1_add_vertex (GByteArray *out,
                              gint16      x,
                              gint16      y,
                              gint16      z,
                              guint32     normal)
{
  terrain_test_put_u16 (out, (guint16) x);
  terrain_test_put_u16 (out, (guint16) y);
  terrain_test_put_u16 (out, (guint16) z);
  terrain_test_put_u16 (out, 32767);
  terrain_test_put_u32 (out, normal);
  terrain_test_put_u32 (out, 0x1FF003FF);
}

void
terrain_test_dat1_add_mesh (GByteArray *out,
                            guint32     vertex_start,
                            guint32     index_start,
                            guint32     index_count,
                            guint32     vertex_count,
                            guint16     flags,
                            guint16     material)
{
  terrain_test_put_f32 (out, 0);
  terrain_test_put_f32 (out, 41.0f / 4096);
  terrain_test_put_f32 (out, 0);
  terrain_test_put_f32 (out, 0.70710678f);
  terrain_test_put_u32 (out, vertex_start);
  terrain_test_put_u32 (out, index_start);
  terrain_test_put_u32 (out, index_count);
  terrain_test_put_u32 (out, vertex_count);
  terrain_test_put_u16 (out, flags);
  terrain_test_put_u16 (out, material);
  for (guint i = 0; i < 28; i++)
    terrain_test_put_u8 (out, 0);
}

void
terrain_test_dat1_add_material (TerrainTestDat1 *f,
                                const char      *path,
                                const char      *name)
{
  GByteArray *m = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_MATERIALS);

  terrain_test_put_u32 (m, f->strings->len);
  g_byte_array_append (f->strings, (const guint8 *) path, strlen (path) + 1);
  terrain_test_put_u32 (m, f->strings->len);
  g_byte_array_append (f->strings, (const guint8 *) name, strlen (name) + 1);
  for (guint i = 0; i < 6; i++)
    terrain_test_put_u32 (m, 0);
}

/* The 1x1 plane of insomniac-model.md: nibble 12, x and z at ±2048 (±0.5),
 * y 41 (0.01001, the built centre), normal 0x200FFE00, UVs u = x + 0.5,
 * v = z + 0.5, triangles (0,1,2) and (0,2,3), one mesh with relative indices,
 * one LOD repeated four times. */
TerrainTestDat1 *
terrain_test_dat1_plane (void)
{
  TerrainTestDat1 *f = g_new0 (TerrainTestDat1, 1);
  GByteArray *a;
  static const gint16 xz[4][2] = { { -2048, -2048 }, { -2048, 2048 }, { 2048, 2048 },
                                   { 2048, -2048 } };
  static const guint16 uv[4][2] = { { 0, 0 }, { 0, 0x3C00 }, { 0x3C00, 0x3C00 },
                                    { 0x3C00, 0 } };
  static const guint16 indices[6] = { 0, 1, 2, 0, 2, 3 };

  f->asset_type = TERRAIN_MODEL_ASSET_TYPE;
  f->strings = g_byte_array_new ();

  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_BUILT);
  terrain_test_put_f32 (a, 0);
  terrain_test_put_f32 (a, 41.0f / 4096);
  terrain_test_put_f32 (a, 0);
  terrain_test_put_f32 (a, 0.70710678f);
  terrain_test_put_f32 (a, 0.5f);
  terrain_test_put_f32 (a, 0);
  terrain_test_put_f32 (a, 0.5f);
  terrain_test_put_u32 (a, 12);
  terrain_test_put_f32 (a, 0);
  terrain_test_put_f32 (a, 15);
  terrain_test_put_f32 (a, 30);
  terrain_test_put_f32 (a, 110);
  terrain_test_put_f32 (a, 0);
  terrain_test_put_f32 (a, 0);
  terrain_test_put_f32 (a, 0);
  terrain_test_put_f32 (a, 2);
  terrain_test_put_f32 (a, 8);
  terrain_test_put_u32 (a, 0);
  g_assert_cmpuint (a->len, ==, 72);

  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_VERTICES);
  for (guint i = 0; i < 4; i++)
    terrain_test_dat1_add_vertex (a, xz[i][0], 41, xz[i][1], 0x200FFE00);

  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_INDICES);
  for (guint i = 0; i < 6; i++)
    terrain_test_put_u16 (a, indices[i]);

  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_MESHES);
  terrain_test_dat1_add_mesh (a, 0, 0, 6, 4, TERRAIN_MODEL_MESH_FLAG_RELATIVE_INDICES, 0);

  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_LOOK);
  for (guint i = 0; i < 4; i++)
    {
      terrain_test_put_u16 (a, 0);
      terrain_test_put_u16 (a, 1);
    }

  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_UV0);
  for (guint i = 0; i < 4; i++)
    {
      terrain_test_put_u16 (a, uv[i][0]);
      terrain_test_put_u16 (a, uv[i][1]);
    }

  terrain_test_dat1_add_material (f, "materials/plane.material", "plane");
  return f;
}

/* A hill on an n x n grid over the plane's square (x and z ±0.5, nibble
 * 12): y = terrain_test_hills (x + 0.5, z + 0.5) × 0.4, so its peak lies at
 * x = +0.2, z = −0.15. One mesh, relative indices, UVs u = x + 0.5,
 * v = z + 0.5, normals up, bounds that match the vertices (the mesh
 * sphere is the plane's). */
TerrainTestDat1 *
terrain_test_dat1_hill (guint n)
{
  TerrainTestDat1 *f = terrain_test_dat1_plane ();
  GByteArray *a;
  gint16 top = G_MININT16, bottom = G_MAXINT16;

  g_assert_cmpuint (n, >=, 2);
  g_assert_cmpuint ((n - 1) * (n - 1) * 6, <=, G_MAXUINT16);

  terrain_test_dat1_remove (f, TERRAIN_MODEL_TAG_VERTICES);
  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_VERTICES);
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        gint16 y = (gint16) lround (4096 * 0.4 * terrain_test_hills ((gdouble) i / (n - 1),
                                                                      (gdouble) j / (n - 1)));

        top = MAX (top, y);
        bottom = MIN (bottom, y);
        terrain_test_dat1_add_vertex (a, (gint16) (i * 4096 / (n - 1) - 2048), y,
                                      (gint16) (j * 4096 / (n - 1) - 2048), 0x200FFE00);
      }

  terrain_test_dat1_remove (f, TERRAIN_MODEL_TAG_INDICES);
  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_INDICES);
  for (guint j = 0; j + 1 < n; j++)
    for (guint i = 0; i + 1 < n; i++)
      {
        guint16 v0 = (guint16) (j * n + i);

        terrain_test_put_u16 (a, v0);
        terrain_test_put_u16 (a, (guint16) (v0 + n));
        terrain_test_put_u16 (a, (guint16) (v0 + n + 1));
        terrain_test_put_u16 (a, v0);
        terrain_test_put_u16 (a, (guint16) (v0 + n + 1));
        terrain_test_put_u16 (a, (guint16) (v0 + 1));
      }

  terrain_test_dat1_remove (f, TERRAIN_MODEL_TAG_MESHES);
  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_MESHES);
  terrain_test_dat1_add_mesh (a, 0, 0, (n - 1) * (n - 1) * 6, n * n,
                              TERRAIN_MODEL_MESH_FLAG_RELATIVE_INDICES, 0);

  terrain_test_dat1_remove (f, TERRAIN_MODEL_TAG_UV0);
  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_UV0);
  for (guint j = 0; j < n; j++)
    for (guint i = 0; i < n; i++)
      {
        /* Half floats of 0, 1/(n-1), ...: exact enough for a test. */
        gfloat u = (gfloat) i / (n - 1), v = (gfloat) j / (n - 1);
        guint32 bu, bv;

        memcpy (&bu, &u, 4);
        memcpy (&bv, &v, 4);
        terrain_test_put_u16 (a, u == 0 ? 0 : (guint16) (((bu >> 16) & 0x8000) |
                                                         ((((bu >> 23) & 0xff) - 112) << 10) |
                                                         ((bu >> 13) & 0x3ff)));
        terrain_test_put_u16 (a, v == 0 ? 0 : (guint16) (((bv >> 16) & 0x8000) |
                                                         ((((bv >> 23) & 0xff) - 112) << 10) |
                                                         ((bv >> 13) & 0x3ff)));
      }

  /* Bounds: the box of the vertices. */
  a = terrain_test_dat1_section (f, TERRAIN_MODEL_TAG_BUILT);
  {
    gfloat centre_y = (top + bottom) / 4096.0f / 2, half_y = (top - bottom) / 4096.0f / 2;
    gfloat radius = sqrtf (0.5f + half_y * half_y);

    memcpy (a->data + 4, &centre_y, 4);
    memcpy (a->data + 12, &radius, 4);
    memcpy (a->data + 20, &half_y, 4);
  }
  return f;
}

static gint
compare_tags (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const guint32 *tags = user_data;
  guint32 ta = tags[*(const guint *) a], tb = tags[*(const guint *) b];

  return ta < tb ? -1 : ta > tb ? 1 : 0;
}

/* The layout of field-notes.md, written out here independently of the
 * library's writer: header, table sorted by tag, extra entries, strings,
 * then every section at a 16-byte boundary in tag order. */
GBytes *
terrain_test_dat1_layout (TerrainTestDat1 *f)
{
  GByteArray *out = g_byte_array_new ();
  guint order[TERRAIN_TEST_DAT1_MAX_SECTIONS];
  guint32 base = terrain_test_dat1_strings_base (f), offset;

  for (guint i = 0; i < f->n; i++)
    order[i] = i;
  g_qsort_with_data (order, f->n, sizeof order[0], compare_tags, f->tags);

  terrain_test_put_u32 (out, 0x44415431);
  terrain_test_put_u32 (out, f->asset_type);
  terrain_test_put_u32 (out, 0);
  terrain_test_put_u16 (out, f->n);
  terrain_test_put_u16 (out, f->n_extra);

  offset = (base + f->strings->len + 15) & ~15u;
  for (guint i = 0; i < f->n; i++)
    {
      terrain_test_put_u32 (out, f->tags[order[i]]);
      terrain_test_put_u32 (out, offset);
      terrain_test_put_u32 (out, f->data[order[i]]->len);
      offset = (offset + f->data[order[i]]->len + 15) & ~15u;
    }
  for (guint i = 0; i < f->n_extra; i++)
    {
      terrain_test_put_u32 (out, f->extra[i]);
      terrain_test_put_u32 (out, ~f->extra[i]);
    }
  g_byte_array_append (out, f->strings->data, f->strings->len);

  for (guint i = 0; i < f->n; i++)
    {
      GByteArray *data = f->data[order[i]];
      guint start;

      while (out->len % 16 != 0)
        terrain_test_put_u8 (out, 0);
      start = out->len;
      g_byte_array_append (out, data->data, data->len);
      if (f->tags[order[i]] == TERRAIN_MODEL_TAG_MATERIALS)
        for (guint k = 0; k + 8 <= data->len; k += 32)
          {
            guint8 *record = out->data + start + k;

            terrain_test_set_u32 (record, terrain_test_get_u32 (data->data + k) + base);
            terrain_test_set_u32 (record + 4, terrain_test_get_u32 (data->data + k + 4) + base);
          }
    }
  terrain_test_set_u32 (out->data + 8, out->len);

  return g_byte_array_free_to_bytes (out);
}

/* ------------------------------------------------------------------------ */
/* Torque .ter                                                              */

/* A Torque .ter, version 3 (field-notes.md): heights, material map, eight
 * names, an alpha map per name, two scripts. */
GBytes *
terrain_test_ter (guint8   version,
                  gboolean scripts,
                  guint    trailing)
{
  GByteArray *b = g_byte_array_new ();
  const char *names[8] = { "grass", "", "rock", "", "", "", "", "" };

  terrain_test_put_u8 (b, version);
  for (guint y = 0; y < 256; y++)
    for (guint x = 0; x < 256; x++)
      terrain_test_put_u16 (b, (guint16) (x * 32 + y * 3));
  for (guint i = 0; i < 65536; i++)
    terrain_test_put_u8 (b, (i % 3 == 0) ? 2 : (i % 7 == 0 ? 0x80 : 0));
  for (guint i = 0; i < 8; i++)
    {
      terrain_test_put_u8 (b, (guint8) strlen (names[i]));
      g_byte_array_append (b, (const guint8 *) names[i], strlen (names[i]));
    }
  if (version >= 2)
    for (guint k = 0; k < 2; k++)
      for (guint i = 0; i < 65536; i++)
        terrain_test_put_u8 (b, (guint8) (k == 0 ? i : 255 - i));
  if (scripts)
    {
      const char *texture = "texture script", *heights = "General\ttab";

      terrain_test_put_u32 (b, (guint32) strlen (texture));
      g_byte_array_append (b, (const guint8 *) texture, strlen (texture));
      terrain_test_put_u32 (b, (guint32) strlen (heights));
      g_byte_array_append (b, (const guint8 *) heights, strlen (heights));
    }
  for (guint i = 0; i < trailing; i++)
    terrain_test_put_u8 (b, 0xAB);
  return g_byte_array_free_to_bytes (b);
}

/* ------------------------------------------------------------------------ */
/* CHU3 and TQT                                                             */

/* Quadtree arithmetic, written out here rather than taken from the library
 * so that the tests check it (atlas-chu-tqt.md §1 "Quadtree node
 * indexing"). */
guint
terrain_test_node_count (guint depth)
{
  return (guint) (((1ull << (2 * depth)) - 1) / 3);
}

guint
terrain_test_node_id (guint level,
                      guint a,
                      guint b)
{
  return terrain_test_node_count (level) + (a << level) + b;
}

void
terrain_test_node_position (guint  id,
                            guint *level,
                            guint *a,
                            guint *b)
{
  guint l = 0;

  while (terrain_test_node_count (l + 1) <= id)
    l++;
  *level = l;
  *a = (id - terrain_test_node_count (l)) >> l;
  *b = (id - terrain_test_node_count (l)) & ((1u << l) - 1);
}

/* Two hills and a valley over the unit square, heights 0 to about 1: the
 * higher hill at (0.7, 0.35), a lower one at (0.25, 0.7). */
gdouble
terrain_test_hills (gdouble u,
                    gdouble v)
{
  gdouble a = exp (-((u - 0.7) * (u - 0.7) + (v - 0.35) * (v - 0.35)) / 0.02);
  gdouble b = 0.55 * exp (-((u - 0.25) * (u - 0.25) + (v - 0.7) * (v - 0.7)) / 0.03);
  gdouble ripple = 0.04 * (1 + sin (u * 25.0) * cos (v * 19.0));

  return a + b + ripple;
}

/* A CHU3 quadtree of @depth levels whose chunks are @grid x @grid vertex
 * meshes of terrain_test_hills () (u across X, v down from the north: the
 * largest Y is v = 0), 200 world units high; leaf dimensions 64, vertical
 * scale 0.25; stubs in label order as in terrain_test_chu3 (). */
GBytes *
terrain_test_chu3_hills (guint depth,
                         guint grid)
{
  GByteArray *out = g_byte_array_new ();
  guint n = terrain_test_node_count (depth);
  g_autofree gsize *offset = g_new (gsize, MAX (n, 1));
  g_autoptr(GByteArray) chunks = g_byte_array_new ();
  gsize data_start = 28 + (gsize) n * 37;
  gdouble terrain = 64.0 * (1u << (depth - 1));
  g_autofree gint16 *lo = g_new (gint16, MAX (n, 1));
  g_autofree gint16 *hi = g_new (gint16, MAX (n, 1));

  g_assert_cmpuint (grid, >=, 2);
  for (guint node = 0; node < n; node++)
    {
      guint level, x, y;
      gdouble size;

      terrain_test_node_position (node, &level, &x, &y);
      size = terrain / (1u << level);
      offset[node] = data_start + chunks->len;
      lo[node] = G_MAXINT16;
      hi[node] = G_MININT16;
      terrain_test_put_u32 (chunks, 0xBEEF1234);
      terrain_test_put_u16 (chunks, (guint16) (grid * grid));
      for (guint j = 0; j < grid; j++)
        for (guint i = 0; i < grid; i++)
          {
            gdouble fx = (gdouble) i / (grid - 1), fy = (gdouble) j / (grid - 1);
            gdouble wx = (x + fx) * size, wy = (y + fy) * size;
            gint16 z = (gint16) lround (200.0 * terrain_test_hills (wx / terrain,
                                                                    1.0 - wy / terrain) / 0.25);

            lo[node] = MIN (lo[node], z);
            hi[node] = MAX (hi[node], z);
            terrain_test_put_u16 (chunks, (guint16) (gint16) lround ((fx * 2 - 1) * 16384));
            terrain_test_put_u16 (chunks, (guint16) (gint16) lround ((fy * 2 - 1) * 16384));
            terrain_test_put_u16 (chunks, (guint16) z);
            terrain_test_put_u16 (chunks, 0);
          }
      terrain_test_put_u32 (chunks, (grid - 1) * (grid - 1) * 6);
      for (guint j = 0; j + 1 < grid; j++)
        for (guint i = 0; i + 1 < grid; i++)
          {
            guint16 v0 = (guint16) (j * grid + i);

            terrain_test_put_u16 (chunks, v0);
            terrain_test_put_u16 (chunks, (guint16) (v0 + 1));
            terrain_test_put_u16 (chunks, (guint16) (v0 + grid));
            terrain_test_put_u16 (chunks, (guint16) (v0 + 1));
            terrain_test_put_u16 (chunks, (guint16) (v0 + grid + 1));
            terrain_test_put_u16 (chunks, (guint16) (v0 + grid));
          }
      terrain_test_put_u32 (chunks, (grid - 1) * (grid - 1) * 2);
      terrain_test_put_u8 (chunks, 0);
      terrain_test_put_u32 (chunks, 0xB1E2E3F4);
    }

  g_byte_array_append (out, (const guint8 *) "CHU3", 4);
  terrain_test_put_u16 (out, 400);
  terrain_test_put_u16 (out, (guint16) depth);
  terrain_test_put_f32 (out, 2.5f);
  terrain_test_put_f32 (out, 0.25f);
  terrain_test_put_f32 (out, 64.0f);
  terrain_test_put_u32 (out, n);
  terrain_test_put_u32 (out, 4);

  for (guint label = 0; label < n; label++)
    {
      guint level, row, column, node;

      terrain_test_node_position (label, &level, &row, &column);
      node = terrain_test_node_id (level, column, row);
      terrain_test_put_u32 (out, 0xDEADBEEF);
      terrain_test_put_u32 (out, label);
      for (guint i = 0; i < 4; i++)
        terrain_test_put_u32 (out, G_MAXUINT32);
      terrain_test_put_u8 (out, (guint8) level);
      terrain_test_put_u16 (out, (guint16) column);
      terrain_test_put_u16 (out, (guint16) row);
      terrain_test_put_u16 (out, (guint16) lo[node]);
      terrain_test_put_u16 (out, (guint16) hi[node]);
      terrain_test_put_u32 (out, (guint32) offset[node]);
    }
  g_assert_cmpuint (out->len, ==, data_start);
  g_byte_array_append (out, chunks->data, chunks->len);
  return g_byte_array_free_to_bytes (out);
}

/* One CHU3 chunk: a 3x3 vertex grid over the chunk, heights rising with
 * the node, eight triangles as a list, no collision block. */
static void
put_chu3_chunk (GByteArray *out,
                guint       node)
{
  terrain_test_put_u32 (out, 0xBEEF1234);
  terrain_test_put_u16 (out, 9);
  for (guint i = 0; i < 9; i++)
    {
      terrain_test_put_u16 (out, (guint16) (((gint) (i % 3) - 1) * 16384));
      terrain_test_put_u16 (out, (guint16) (((gint) (i / 3) - 1) * 16384));
      terrain_test_put_u16 (out, (guint16) (node * 37 + i * 11));
      terrain_test_put_u16 (out, 0);
    }
  terrain_test_put_u32 (out, 24);
  for (guint cy = 0; cy < 2; cy++)
    for (guint cx = 0; cx < 2; cx++)
      {
        guint16 v0 = (guint16) (cy * 3 + cx);

        terrain_test_put_u16 (out, v0);
        terrain_test_put_u16 (out, v0 + 1);
        terrain_test_put_u16 (out, v0 + 3);
        terrain_test_put_u16 (out, v0 + 1);
        terrain_test_put_u16 (out, v0 + 4);
        terrain_test_put_u16 (out, v0 + 3);
      }
  terrain_test_put_u32 (out, 8);
  terrain_test_put_u8 (out, 0);
  terrain_test_put_u32 (out, 0xB1E2E3F4);
}

/* A TGEA CHU3 (version 400) quadtree of @depth levels: header, stubs in
 * label order, chunks in node order. Atlas node (level, x, y) has label
 * nodeID(level, y, x) (atlas-chu-tqt.md §9b). */
GBytes *
terrain_test_chu3 (guint depth)
{
  GByteArray *out = g_byte_array_new ();
  guint n = terrain_test_node_count (depth);
  g_autofree gsize *offset = g_new (gsize, MAX (n, 1));
  g_autoptr(GByteArray) chunks = g_byte_array_new ();
  gsize data_start = 28 + (gsize) n * 37;

  for (guint node = 0; node < n; node++)
    {
      offset[node] = data_start + chunks->len;
      put_chu3_chunk (chunks, node);
    }

  g_byte_array_append (out, (const guint8 *) "CHU3", 4);
  terrain_test_put_u16 (out, 400);
  terrain_test_put_u16 (out, (guint16) depth);
  terrain_test_put_f32 (out, 2.5f);
  terrain_test_put_f32 (out, 0.25f);
  terrain_test_put_f32 (out, 64.0f);
  terrain_test_put_u32 (out, n);
  terrain_test_put_u32 (out, 4);

  for (guint label = 0; label < n; label++)
    {
      guint level, row, column, node;

      terrain_test_node_position (label, &level, &row, &column);
      node = terrain_test_node_id (level, column, row);
      terrain_test_put_u32 (out, 0xDEADBEEF);
      terrain_test_put_u32 (out, label);
      terrain_test_put_u32 (out, label + 1 < n ? label + 1 : G_MAXUINT32);
      terrain_test_put_u32 (out, G_MAXUINT32);
      terrain_test_put_u32 (out, label > 0 ? label - 1 : G_MAXUINT32);
      terrain_test_put_u32 (out, G_MAXUINT32);
      terrain_test_put_u8 (out, (guint8) level);
      terrain_test_put_u16 (out, (guint16) column);
      terrain_test_put_u16 (out, (guint16) row);
      terrain_test_put_u16 (out, (guint16) (node * 37 - 5));
      terrain_test_put_u16 (out, (guint16) (node * 37 + 8 * 11 + 5));
      terrain_test_put_u32 (out, (guint32) offset[node]);
    }
  g_assert_cmpuint (out->len, ==, data_start);
  g_byte_array_append (out, chunks->data, chunks->len);
  return g_byte_array_free_to_bytes (out);
}

/* An 8x8 DXT1 DDS with four mip levels, its blocks varying with @node. */
static void
put_dds_tile (GByteArray *out,
              guint       node)
{
  g_byte_array_append (out, (const guint8 *) "DDS ", 4);
  terrain_test_put_u32 (out, 124);
  terrain_test_put_u32 (out, 0x1007 | 0x20000);
  terrain_test_put_u32 (out, 8);
  terrain_test_put_u32 (out, 8);
  terrain_test_put_u32 (out, 2 * 2 * 8);
  terrain_test_put_u32 (out, 0);
  terrain_test_put_u32 (out, 4);
  for (guint i = 0; i < 11; i++)
    terrain_test_put_u32 (out, 0);
  terrain_test_put_u32 (out, 32);
  terrain_test_put_u32 (out, 0x4);
  g_byte_array_append (out, (const guint8 *) "DXT1", 4);
  for (guint i = 0; i < 5; i++)
    terrain_test_put_u32 (out, 0);
  terrain_test_put_u32 (out, 0x401008);
  for (guint i = 0; i < 4; i++)
    terrain_test_put_u32 (out, 0);
  /* 4 + 1 + 1 + 1 blocks: two RGB565 colours and their indices. */
  for (guint b = 0; b < 7; b++)
    {
      terrain_test_put_u16 (out, (guint16) (0xF800 >> (node % 3 * 5)) | 0x0010);
      terrain_test_put_u16 (out, (guint16) (0x07E0 + b * 0x0841));
      terrain_test_put_u32 (out, 0x1B1B1B1B * (b + 1));
    }
}

/* A TGEA texture quadtree (version 2) of @depth levels with DXT1 tiles,
 * each stored as a u32 size and a DDS (atlas-chu-tqt.md §9c). */
GBytes *
terrain_test_tqt (guint depth)
{
  GByteArray *out = g_byte_array_new ();
  guint n = terrain_test_node_count (depth);
  g_autoptr(GByteArray) tiles = g_byte_array_new ();
  g_autofree gsize *offset = g_new (gsize, MAX (n, 1));
  gsize data_start = 16 + 4 * (gsize) n;

  for (guint node = 0; node < n; node++)
    {
      g_autoptr(GByteArray) tile = g_byte_array_new ();

      put_dds_tile (tile, node);
      offset[node] = data_start + tiles->len;
      terrain_test_put_u32 (tiles, tile->len);
      g_byte_array_append (tiles, tile->data, tile->len);
    }

  g_byte_array_append (out, (const guint8 *) "tqt\0", 4);
  terrain_test_put_u32 (out, 2);
  terrain_test_put_u32 (out, depth);
  terrain_test_put_u32 (out, 8);
  /* Table entry nodeID(level, y, x) holds node (level, x, y). */
  for (guint entry = 0; entry < n; entry++)
    {
      guint level, y, x;

      terrain_test_node_position (entry, &level, &y, &x);
      terrain_test_put_u32 (out, (guint32) offset[terrain_test_node_id (level, x, y)]);
    }
  g_byte_array_append (out, tiles->data, tiles->len);
  return g_byte_array_free_to_bytes (out);
}

/* ------------------------------------------------------------------------ */
/* TQT trees cut from a picture                                             */

static const guint8 *
pixel_of (TerrainImage *image,
          guint         x,
          guint         y)
{
  return terrain_image_get_data (image, NULL) + y * terrain_image_get_stride (image) + 4 * x;
}

/* A DDS header for an uncompressed A8R8G8B8 image without mip levels. */
static GByteArray *
rgba_dds_header (guint32 width,
                 guint32 height)
{
  GByteArray *a = g_byte_array_new ();

  g_byte_array_append (a, (const guint8 *) "DDS ", 4);
  terrain_test_put_u32 (a, 124);
  terrain_test_put_u32 (a, 0x1007);
  terrain_test_put_u32 (a, height);
  terrain_test_put_u32 (a, width);
  terrain_test_put_u32 (a, width * 4);
  terrain_test_put_u32 (a, 0);
  terrain_test_put_u32 (a, 1);
  for (guint i = 0; i < 11; i++)
    terrain_test_put_u32 (a, 0);
  terrain_test_put_u32 (a, 32);
  terrain_test_put_u32 (a, 0x41);   /* RGB | ALPHAPIXELS */
  terrain_test_put_u32 (a, 0);
  terrain_test_put_u32 (a, 32);
  terrain_test_put_u32 (a, 0x00FF0000);
  terrain_test_put_u32 (a, 0x0000FF00);
  terrain_test_put_u32 (a, 0x000000FF);
  terrain_test_put_u32 (a, 0xFF000000);
  terrain_test_put_u32 (a, 0x1000);
  for (guint i = 0; i < 4; i++)
    terrain_test_put_u32 (a, 0);
  g_assert_cmpuint (a->len, ==, 128);
  return a;
}

/* The picture a texture tree is cut from: red across, green down, blue in
 * a checker of 8-pixel squares. */
static void
picture_pixel (guint  x,
               guint  y,
               guint  side,
               guint8 rgba[4])
{
  rgba[0] = (guint8) (x * 255 / (side - 1));
  rgba[1] = (guint8) (y * 255 / (side - 1));
  rgba[2] = ((x / 8 + y / 8) % 2) ? 220 : 30;
  rgba[3] = 255;
}

/* The picture at level @level of @depth, @tile << @level pixels a side:
 * the full picture averaged over 2^(depth-1-level) squares. */
TerrainImage *
terrain_test_tqt_picture_level (guint depth,
               guint tile,
               guint level)
{
  guint full = tile << (depth - 1), side = tile << level, f = full / side;
  TerrainImage *image = terrain_image_new (TERRAIN_IMAGE_RGBA8, side, side, NULL);
  guint8 *data = terrain_image_get_data (image, NULL);

  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      for (guint c = 0; c < 4; c++)
        {
          guint sum = 0;

          for (guint j = 0; j < f; j++)
            for (guint i = 0; i < f; i++)
              {
                guint8 p[4];

                picture_pixel (x * f + i, y * f + j, full, p);
                sum += p[c];
              }
          data[y * terrain_image_get_stride (image) + 4 * x + c] = (guint8) (sum / (f * f));
        }
  return image;
}

/* A TQT of @depth levels cut from the picture, @tile pixels a tile: DDS
 * A8R8G8B8 (version 2) or JPEG (version 1, no size prefix); table entry
 * nodeID(level, y, x) holds the tile at column x, row y (§9c). */
GBytes *
terrain_test_tqt_picture (guint    depth,
             guint    tile,
             gboolean jpeg)
{
  guint n = terrain_test_node_count (depth);
  g_autoptr(GByteArray) tiles = g_byte_array_new ();
  g_autofree guint32 *offset = g_new (guint32, n);
  GByteArray *out = g_byte_array_new ();
  gsize start = 16 + 4 * (gsize) n;

  for (guint level = 0; level < depth; level++)
    {
      g_autoptr(TerrainImage) picture = terrain_test_tqt_picture_level (depth, tile, level);

      for (guint y = 0; y < (1u << level); y++)
        for (guint x = 0; x < (1u << level); x++)
          {
            g_autoptr(TerrainImage) part = terrain_image_new (TERRAIN_IMAGE_RGBA8, tile, tile,
                                                              NULL);

            offset[terrain_test_node_id (level, y, x)] = (guint32) (start + tiles->len);
            for (guint j = 0; j < tile; j++)
              memcpy (terrain_image_get_data (part, NULL) + j * terrain_image_get_stride (part),
                      pixel_of (picture, x * tile, y * tile + j), 4 * (gsize) tile);
            if (jpeg)
              {
                g_autoptr(GError) error = NULL;
                g_autoptr(TerrainAtlasTexture) texture =
                  terrain_atlas_texture_new_from_image (part, TERRAIN_ATLAS_TEXTURE_JPEG, 95,
                                                        TERRAIN_ATLAS_CHANNELS_RGB, &error);
                GBytes *stream;

                g_assert_no_error (error);
                stream = terrain_atlas_texture_get_data (texture);
                g_byte_array_append (tiles, g_bytes_get_data (stream, NULL),
                                     g_bytes_get_size (stream));
              }
            else
              {
                g_autoptr(GByteArray) dds = rgba_dds_header (tile, tile);

                for (guint j = 0; j < tile; j++)
                  for (guint i = 0; i < tile; i++)
                    {
                      const guint8 *p = pixel_of (part, i, j);

                      terrain_test_put_u32 (dds, ((guint32) p[3] << 24) |
                                                 ((guint32) p[0] << 16) |
                                                 ((guint32) p[1] << 8) | p[2]);
                    }
                terrain_test_put_u32 (tiles, dds->len);
                g_byte_array_append (tiles, dds->data, dds->len);
              }
          }
    }

  g_byte_array_append (out, (const guint8 *) "tqt\0", 4);
  terrain_test_put_u32 (out, jpeg ? 1 : 2);
  terrain_test_put_u32 (out, depth);
  terrain_test_put_u32 (out, tile);
  for (guint i = 0; i < n; i++)
    terrain_test_put_u32 (out, offset[i]);
  g_byte_array_append (out, tiles->data, tiles->len);
  return g_byte_array_free_to_bytes (out);
}
