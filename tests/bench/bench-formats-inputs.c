/* bench-formats-inputs.c: the inputs bench-formats generates with libterrain's
 * own writers and fixed seeds (see bench-formats.c for the list)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "bench-formats-inputs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <lz4.h>

static void
save_or_die (TerrainDocument *document,
             const char      *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);

  if (!terrain_document_save (document, file, NULL, &error))
    g_error ("%s: %s", path, error->message);
}

/* ------------------------------------------------------------------ */
/* Generated inputs                                                    */

char *
make_large_tnt (const char *dir)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (640640);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (640, 640, &error);
  char *path = g_build_filename (dir, "generated-640x640.tnt", NULL);
  guint8 tile[TERRAIN_TNT_TILE_BYTES];

  g_assert_no_error (error);
  for (guint t = 0; t < 2000; t++)
    {
      for (guint i = 0; i < sizeof tile; i++)
        tile[i] = (guint8) g_rand_int_range (rand, 0, 256);
      terrain_tnt_map_add_tile (map, tile);
    }
  for (guint row = 0; row < 320; row++)
    for (guint column = 0; column < 320; column++)
      terrain_tnt_map_set_tile_index (map, column, row,
                                      (guint16) g_rand_int_range (rand, 0, 2001));
  for (guint y = 0; y < 640; y++)
    for (guint x = 0; x < 640; x++)
      terrain_tnt_map_set_cell_height (map, x, y, (guint8) g_rand_int_range (rand, 0, 256));
  {
    guint8 rgb[3 * 256];
    g_autoptr(TerrainPalette) grey = NULL;

    for (guint i = 0; i < 256; i++)
      rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = (guint8) i;
    grey = terrain_palette_new_from_rgb (rgb, 256);
    terrain_tnt_map_update_minimap (map, grey);
  }
  save_or_die (TERRAIN_DOCUMENT (map), path);

  return path;
}

#define ATLAS_SIZE 4096.0f

static float
atlas_height (float x,
              float y)
{
  return 300.0f * sinf (x * 0.0021f) * cosf (y * 0.0017f) + 80.0f * sinf ((x + 2 * y) * 0.011f) +
         7.0f * sinf (x * 0.13f + y * 0.07f);
}

/* A depth-DEPTH geometry quadtree of SIDE x SIDE vertex chunks with
 * collision, a depth-(DEPTH-1) texture quadtree of 128x128 JPEG tiles, and a
 * config: ~100 MB with DEPTH 6 and SIDE 33. */
char *
make_large_atlas (const char *dir,
                  guint       depth,
                  guint       side)
{
  g_autoptr(TerrainAtlasFile) file = terrain_atlas_file_new ();
  guint n_geom = (guint) terrain_quadtree_node_count (depth);
  guint n_tex = (guint) terrain_quadtree_node_count (depth - 1);
  g_autoptr(TerrainAtlasToc) geom = terrain_atlas_toc_new (TERRAIN_ATLAS_TOC_GEOMETRY, 140, depth, n_geom);
  g_autoptr(TerrainAtlasToc) tex = terrain_atlas_toc_new (TERRAIN_ATLAS_TOC_TEXTURE, 140, depth - 1, n_tex);
  g_autoptr(TerrainAtlasToc) cfg = terrain_atlas_toc_new (TERRAIN_ATLAS_TOC_CONFIG, 140, 0, 1);
  g_autoptr(TerrainAtlasConfig) config = terrain_atlas_config_new ();
  g_autoptr(GError) error = NULL;
  g_autofree TerrainAtlasVertex *vertices = g_new0 (TerrainAtlasVertex, side * side);
  g_autofree guint16 *indices = g_new (guint16, (side - 1) * (side - 1) * 6);
  g_autoptr(GPtrArray) bodies = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  guint n_indices = 0;
  char *path = g_build_filename (dir, "generated.atlas", NULL);

  g_assert_true (terrain_atlas_file_add_toc (file, geom, &error));
  g_assert_true (terrain_atlas_file_add_toc (file, tex, &error));
  g_assert_true (terrain_atlas_file_add_toc (file, cfg, &error));

  for (guint j = 0; j + 1 < side; j++)
    for (guint i = 0; i + 1 < side; i++)
      {
        guint16 a = (guint16) (j * side + i), b = (guint16) (a + 1);
        guint16 c = (guint16) (a + side), d = (guint16) (c + 1);

        indices[n_indices++] = a;
        indices[n_indices++] = c;
        indices[n_indices++] = b;
        indices[n_indices++] = b;
        indices[n_indices++] = c;
        indices[n_indices++] = d;
      }

  for (guint s = 0; s < n_geom; s++)
    {
      g_autoptr(TerrainAtlasGeometry) g = terrain_atlas_geometry_new ();
      TerrainAtlasBox box;
      guint level;
      guint32 nx, ny;
      float cell, x0, y0;

      g_assert_true (terrain_quadtree_node_position (s, &level, &nx, &ny));
      cell = ATLAS_SIZE / (float) (1u << level);
      x0 = nx * cell;
      y0 = ny * cell;
      for (guint j = 0; j < side; j++)
        for (guint i = 0; i < side; i++)
          {
            TerrainAtlasVertex *v = &vertices[j * side + i];
            float x = x0 + cell * i / (side - 1), y = y0 + cell * j / (side - 1);
            float h = atlas_height (x, y), hx, hy, n;

            v->point[0] = x;
            v->point[1] = y;
            v->point[2] = h;
            v->tex_coord[0] = x / ATLAS_SIZE;
            v->tex_coord[1] = y / ATLAS_SIZE;
            v->point_morph_offset[2] = atlas_height (x + 0.5f * cell / (side - 1), y) - h;
            hx = atlas_height (x + 1, y) - h;
            hy = atlas_height (x, y + 1) - h;
            n = sqrtf (hx * hx + hy * hy + 1);
            v->normal[0] = -hx / n;
            v->normal[1] = -hy / n;
            v->normal[2] = 1 / n;
          }
      terrain_atlas_geometry_set_vertices (g, vertices, side * side);
      terrain_atlas_geometry_set_indices (g, indices, n_indices, 0);
      terrain_atlas_geometry_compute_bounds (g, &box);
      terrain_atlas_geometry_set_bounds (g, &box);
      if (!terrain_atlas_geometry_generate_collision (g, 4, &error) ||
          !terrain_atlas_file_set_geometry (file, 0, s, g, &error))
        g_error ("atlas geometry %u: %s", s, error->message);
    }
  if (!terrain_atlas_file_update_bounds (file, 0, &error))
    g_error ("atlas bounds: %s", error->message);

  /* 16 distinct 128x128 JPEG tiles, shared round-robin by the stubs. */
  for (guint t = 0; t < 16; t++)
    {
      g_autoptr(TerrainImage) image = terrain_image_new (TERRAIN_IMAGE_RGBA8, 128, 128, NULL);
      g_autoptr(TerrainAtlasTexture) texture = NULL;
      guint8 *pixels = terrain_image_get_data (image, NULL);

      for (guint i = 0; i < 128 * 128; i++)
        {
          pixels[4 * i] = (guint8) (i % 128 * 2 + t * 16);
          pixels[4 * i + 1] = (guint8) (i / 128 * 2);
          pixels[4 * i + 2] = (guint8) (60 + 40 * sin (i * 0.01 + t));
          pixels[4 * i + 3] = 255;
        }
      texture = terrain_atlas_texture_new_from_image (image, TERRAIN_ATLAS_TEXTURE_JPEG, 90,
                                                      TERRAIN_ATLAS_CHANNELS_RGB, &error);
      if (texture == NULL)
        g_error ("atlas texture: %s", error->message);
      g_ptr_array_add (bodies, terrain_atlas_texture_encode_body (texture, &error));
    }
  for (guint s = 0; s < n_tex; s++)
    if (!terrain_atlas_file_set_chunk_body (file, 1, s, g_ptr_array_index (bodies, s % 16), &error))
      g_error ("atlas texture %u: %s", s, error->message);

  terrain_atlas_config_set (config, "type", "unique");
  terrain_atlas_config_set (config, "textureSlot", "0");
  if (!terrain_atlas_file_set_config (file, 2, 0, config, &error))
    g_error ("atlas config: %s", error->message);

  save_or_die (TERRAIN_DOCUMENT (file), path);
  return path;
}

static void
put_le32 (guint8  *p,
          guint32  v)
{
  p[0] = (guint8) v;
  p[1] = (guint8) (v >> 8);
  p[2] = (guint8) (v >> 16);
  p[3] = (guint8) (v >> 24);
}

/* An SCT v3 section (tnt-sct.md: header, tile map, heights, tiles,
 * preview), WIDTH x HEIGHT blocks, written by the library's writer after a
 * load and an edit so the writer's path is the one measured. */
char *
make_sct (const char *dir)
{
  const guint w = 128, h = 128, n_tiles = 1000;
  gsize o_map = TERRAIN_SCT_HEADER_SIZE, o_heights = o_map + 2 * (gsize) w * h;
  gsize o_tiles = o_heights + 4 * (gsize) w * h * 4;
  gsize o_preview = o_tiles + (gsize) n_tiles * TERRAIN_SCT_TILE_BYTES;
  gsize total = o_preview + TERRAIN_SCT_PREVIEW_SIDE * TERRAIN_SCT_PREVIEW_SIDE;
  g_autoptr(GRand) rand = g_rand_new_with_seed (128128);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainSctSection) section = NULL;
  g_autoptr(GBytes) bytes = NULL;
  guint8 *data = g_malloc0 (total);
  char *path = g_build_filename (dir, "generated-128x128.sct", NULL);

  put_le32 (data + 0, 3);
  put_le32 (data + 4, (guint32) o_preview);
  put_le32 (data + 8, n_tiles);
  put_le32 (data + 12, (guint32) o_tiles);
  put_le32 (data + 16, w);
  put_le32 (data + 20, h);
  put_le32 (data + 24, (guint32) o_map);
  for (gsize i = 0; i < (gsize) w * h; i++)
    {
      guint16 t = (guint16) g_rand_int_range (rand, 0, n_tiles);

      data[o_map + 2 * i] = (guint8) t;
      data[o_map + 2 * i + 1] = (guint8) (t >> 8);
    }
  for (gsize i = 0; i < 4 * (gsize) w * h; i++)
    data[o_heights + 4 * i] = (guint8) g_rand_int_range (rand, 0, 256);
  for (gsize i = o_tiles; i < total; i++)
    data[i] = (guint8) g_rand_int_range (rand, 0, 256);
  bytes = g_bytes_new_take (data, total);

  section = terrain_sct_section_new_from_bytes (bytes, NULL, &error);
  if (section == NULL)
    g_error ("generated SCT: %s", error->message);
  terrain_sct_section_set_cell_height (section, 3, 5, 77);
  save_or_die (TERRAIN_DOCUMENT (section), path);
  return path;
}

static void
fill_node_heights (gint32 *heights,
                   guint   seed)
{
  for (guint y = 0; y < TERRAIN_NODE_SIDE; y++)
    for (guint x = 0; x < TERRAIN_NODE_SIDE; x++)
      heights[y * TERRAIN_NODE_SIDE + x] =
        (gint32) lrint (20000.0 * sin (x * 0.021 + seed) * cos (y * 0.017) +
                        9000.0 * sin ((x + 2 * y) * 0.05) + 3.0 * ((x * 31 + y * 17 + seed) % 7));
}

char *
make_node_chunk (const char *dir)
{
  g_autoptr(TerrainNodeChunk) chunk = terrain_node_chunk_new (TRUE);
  g_autofree gint32 *heights = g_new (gint32, TERRAIN_NODE_SAMPLES);
  g_autofree guint8 *raster = g_new (guint8, TERRAIN_NODE_SAMPLES);
  g_autoptr(TerrainImage) colour = terrain_image_new (TERRAIN_IMAGE_RGBA8, TERRAIN_NODE_SIDE,
                                                      TERRAIN_NODE_SIDE, NULL);
  guint8 *pixels = terrain_image_get_data (colour, NULL);
  char *path = g_build_filename (dir, "generated-leaf.tnlc", NULL);

  terrain_node_chunk_set_level (chunk, TERRAIN_NODE_LEVELS - 1);
  fill_node_heights (heights, 7);
  terrain_node_chunk_set_heights (chunk, heights, NULL);
  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    raster[i] = (guint8) (((i % TERRAIN_NODE_SIDE) / 20 + (i / TERRAIN_NODE_SIDE) / 33) % 6);
  terrain_node_chunk_set_raster (chunk, TERRAIN_NODE_BLOCK_MATERIAL, raster, NULL);
  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    {
      pixels[4 * i] = (guint8) (i % TERRAIN_NODE_SIDE);
      pixels[4 * i + 1] = (guint8) (i / TERRAIN_NODE_SIDE);
      pixels[4 * i + 2] = 80;
      pixels[4 * i + 3] = 255;
    }
  terrain_node_chunk_set_texture (chunk, TERRAIN_NODE_BLOCK_COLOUR, colour, NULL);
  save_or_die (TERRAIN_DOCUMENT (chunk), path);
  return path;
}

char *
make_node_layer (const char *dir)
{
  g_autoptr(TerrainNodeLayer) layer = terrain_node_layer_new ();
  char *path = g_build_filename (dir, "generated-87381.tnl", NULL);
  guint32 n = terrain_node_level_start (TERRAIN_NODE_LEVELS);

  for (guint32 p = 0; p < n; p++)
    terrain_node_layer_append (layer, p, (guint64) p * 2654435761u);
  save_or_die (TERRAIN_DOCUMENT (layer), path);
  return path;
}

char *
make_floor (const char *dir)
{
  const guint side = 2048;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainFloorHeightData) grid = terrain_floor_height_data_new (side, side, 1.0f, &error);
  g_autofree guint16 *region = g_new (guint16, side * side);
  char *path = g_build_filename (dir, "generated-2048x2048.fhd", NULL);

  if (grid == NULL)
    g_error ("FloorHeightData: %s", error->message);
  for (guint i = 0; i < side * side; i++)
    region[i] = (guint16) (20000 + 3000 * sin ((i % side) * 0.01) * cos ((i / side) * 0.013) +
                           (i * 7 % 13));
  terrain_floor_height_data_set_region (grid, 0, 0, side, side, region);
  save_or_die (TERRAIN_DOCUMENT (grid), path);
  return path;
}

/* Little-endian appends for the byte-built inputs below. */
static void
append_u16 (GByteArray *a,
            guint16     v)
{
  guint8 b[2] = { (guint8) v, (guint8) (v >> 8) };

  g_byte_array_append (a, b, 2);
}

static void
append_u32 (GByteArray *a,
            guint32     v)
{
  guint8 b[4];

  put_le32 (b, v);
  g_byte_array_append (a, b, 4);
}

static void
append_f32 (GByteArray *a,
            float       f)
{
  guint32 v;

  memcpy (&v, &f, 4);
  append_u32 (a, v);
}

static char *
write_or_die (const char *dir,
              const char *name,
              GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, name, NULL);

  if (!g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                            (gssize) g_bytes_get_size (bytes), &error))
    g_error ("%s: %s", path, error->message);
  return path;
}

#define MODEL_SIDE 255

/* A DAT1 .model (insomniac-model.md, the layout of field-notes.md as
 * tests/terrain-test-fixtures.c builds it): one MODEL_SIDE x MODEL_SIDE
 * vertex grid mesh (65,025 vertices, 129,032 triangles, relative indices), its UVs, one
 * material and a look with one LOD. Returned as the DAT1 image; the caller
 * stores it plain and as retail does, one raw LZ4 block behind the 36-byte
 * wrapper. */
static GBytes *
make_model_image (void)
{
  static const guint32 tags[] = {
    TERRAIN_MODEL_TAG_BUILT, TERRAIN_MODEL_TAG_VERTICES, TERRAIN_MODEL_TAG_INDICES,
    TERRAIN_MODEL_TAG_MESHES, TERRAIN_MODEL_TAG_LOOK, TERRAIN_MODEL_TAG_UV0,
    TERRAIN_MODEL_TAG_MATERIALS,
  };
  enum { N = G_N_ELEMENTS (tags) };
  static const char strings[] = "materials/grid.material\0grid";
  GByteArray *sections[N];
  g_autoptr(GByteArray) out = g_byte_array_new ();
  guint order[N];
  guint32 base = 16 + 12 * N, offset;
  guint32 n_vertices = MODEL_SIDE * MODEL_SIDE;
  guint32 n_indices = (MODEL_SIDE - 1) * (MODEL_SIDE - 1) * 6;
  const gint half = (MODEL_SIDE - 1) / 2 * 128;
  gint y_min = G_MAXINT, y_max = G_MININT;
  GByteArray *a;

  for (guint i = 0; i < N; i++)
    sections[i] = g_byte_array_new ();

  for (guint j = 0; j < MODEL_SIDE; j++)
    for (guint i = 0; i < MODEL_SIDE; i++)
      {
        gint16 x = (gint16) ((gint) i * 128 - half), z = (gint16) ((gint) j * 128 - half);
        gint16 y = (gint16) (2048 + 1800 * sin (i * 0.05) * cos (j * 0.04));

        y_min = MIN (y_min, y);
        y_max = MAX (y_max, y);
        append_u16 (sections[1], (guint16) x);
        append_u16 (sections[1], (guint16) y);
        append_u16 (sections[1], (guint16) z);
        append_u16 (sections[1], 32767);
        append_u32 (sections[1], 0x200FFE00);
        append_u32 (sections[1], 0x1FF003FF);
        /* UV0: half floats in [0, 1) (0x3800 = 0.5). */
        append_u16 (sections[5], (guint16) (0x3000 + i * 4));
        append_u16 (sections[5], (guint16) (0x3000 + j * 4));
      }

  /* Built: centre, radius, extents (the vertices' box, nibble 12 so 4096
   * units a metre), nibble, LOD distances. */
  a = sections[0];
  append_f32 (a, 0);
  append_f32 (a, (y_min + y_max) / 2.0f / 4096);
  append_f32 (a, 0);
  append_f32 (a, 5.7f);
  append_f32 (a, half / 4096.0f);
  append_f32 (a, (y_max - y_min) / 2.0f / 4096);
  append_f32 (a, half / 4096.0f);
  append_u32 (a, 12);
  append_f32 (a, 0);
  append_f32 (a, 15);
  append_f32 (a, 30);
  append_f32 (a, 110);
  append_f32 (a, 0);
  append_f32 (a, 0);
  append_f32 (a, 0);
  append_f32 (a, 2);
  append_f32 (a, 8);
  append_u32 (a, 0);

  for (guint j = 0; j + 1 < MODEL_SIDE; j++)
    for (guint i = 0; i + 1 < MODEL_SIDE; i++)
      {
        guint16 v = (guint16) (j * MODEL_SIDE + i);

        append_u16 (sections[2], v);
        append_u16 (sections[2], (guint16) (v + MODEL_SIDE));
        append_u16 (sections[2], (guint16) (v + 1));
        append_u16 (sections[2], (guint16) (v + 1));
        append_u16 (sections[2], (guint16) (v + MODEL_SIDE));
        append_u16 (sections[2], (guint16) (v + MODEL_SIDE + 1));
      }

  /* One mesh: bounds, vertex and index ranges, flags, material, padding. */
  a = sections[3];
  append_f32 (a, 0);
  append_f32 (a, 0.5f);
  append_f32 (a, 0);
  append_f32 (a, 5.7f);
  append_u32 (a, 0);
  append_u32 (a, 0);
  append_u32 (a, n_indices);
  append_u32 (a, n_vertices);
  append_u16 (a, TERRAIN_MODEL_MESH_FLAG_RELATIVE_INDICES);
  append_u16 (a, 0);
  for (guint i = 0; i < 7; i++)
    append_u32 (a, 0);

  /* The look: one LOD (mesh 0, 1 mesh) repeated four times. */
  for (guint i = 0; i < 4; i++)
    {
      append_u16 (sections[4], 0);
      append_u16 (sections[4], 1);
    }

  /* Material: path and name as offsets into the string block. */
  append_u32 (sections[6], base);
  append_u32 (sections[6], base + 24);
  for (guint i = 0; i < 6; i++)
    append_u32 (sections[6], 0);

  /* Header, table sorted by tag, strings, sections at 16-byte boundaries
   * in tag order. */
  for (guint i = 0; i < N; i++)
    order[i] = i;
  for (guint i = 1; i < N; i++)
    for (guint k = i; k > 0 && tags[order[k - 1]] > tags[order[k]]; k--)
      {
        guint t = order[k];

        order[k] = order[k - 1];
        order[k - 1] = t;
      }
  append_u32 (out, TERRAIN_DAT1_MAGIC);
  append_u32 (out, TERRAIN_MODEL_ASSET_TYPE);
  append_u32 (out, 0);
  append_u16 (out, N);
  append_u16 (out, 0);
  offset = (base + sizeof strings + 15) & ~15u;
  for (guint i = 0; i < N; i++)
    {
      append_u32 (out, tags[order[i]]);
      append_u32 (out, offset);
      append_u32 (out, sections[order[i]]->len);
      offset = (offset + sections[order[i]]->len + 15) & ~15u;
    }
  g_byte_array_append (out, (const guint8 *) strings, sizeof strings);
  for (guint i = 0; i < N; i++)
    {
      while (out->len % 16 != 0)
        g_byte_array_append (out, (const guint8 *) "", 1);
      g_byte_array_append (out, sections[order[i]]->data, sections[order[i]]->len);
      g_byte_array_unref (sections[order[i]]);
    }
  put_le32 (out->data + 8, out->len);

  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

void
make_models (const char *dir,
             GPtrArray  *generated)
{
  g_autoptr(GBytes) image = make_model_image ();
  gsize size = g_bytes_get_size (image);
  int bound = LZ4_compressBound ((int) size);
  g_autoptr(GByteArray) wrapped = g_byte_array_sized_new (36 + (guint) bound);
  g_autoptr(GBytes) stored = NULL;
  int n;

  g_ptr_array_add (generated, write_or_die (dir, "generated-grid.model", image));

  /* Wrapper: asset type, decompressed size, 28 bytes of zeros; then the
   * raw LZ4 block. */
  append_u32 (wrapped, TERRAIN_MODEL_ASSET_TYPE);
  append_u32 (wrapped, (guint32) size);
  g_byte_array_set_size (wrapped, 36 + (guint) bound);
  memset (wrapped->data + 8, 0, 28);
  n = LZ4_compress_default (g_bytes_get_data (image, NULL), (char *) wrapped->data + 36,
                            (int) size, bound);
  g_assert (n > 0);
  g_byte_array_set_size (wrapped, 36 + (guint) n);
  stored = g_byte_array_free_to_bytes (g_steal_pointer (&wrapped));
  g_ptr_array_add (generated, write_or_die (dir, "generated-grid-lz4.model", stored));
}

#define CHU_DEPTH 6
#define CHU_SIDE  17

/* A CHU3 chunk LOD tree (the layout tests/test-chu-tqt-fixture.c builds):
 * depth CHU_DEPTH (1365 chunks) of CHU_SIDE x CHU_SIDE vertices with
 * triangle lists, stubs in label order, chunks in node order. */
char *
make_chu (const char *dir)
{
  guint n = (guint) terrain_quadtree_node_count (CHU_DEPTH);
  guint n_verts = CHU_SIDE * CHU_SIDE;
  guint n_list = (CHU_SIDE - 1) * (CHU_SIDE - 1) * 6;
  gsize header = 28, stub = 37;
  gsize chunk_size = 4 + 2 + 8 * (gsize) n_verts + 4 + 2 * (gsize) n_list + 4 + 1 + 4;
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;

  g_byte_array_append (a, (const guint8 *) "CHU3", 4);
  append_u16 (a, 400);
  append_u16 (a, CHU_DEPTH);
  append_f32 (a, 2.5f);
  append_f32 (a, 0.25f);
  append_f32 (a, 64.0f);
  append_u32 (a, n);
  append_u32 (a, 4);

  /* Stub k describes the node whose label is k; Atlas node (level, x, y)
   * has label nodeID (level, y, x). */
  for (guint label = 0; label < n; label++)
    {
      guint level;
      guint32 x, y;
      guint8 level_byte;
      guint node;

      g_assert_true (terrain_quadtree_node_position (label, &level, &y, &x));
      node = (guint) terrain_quadtree_node_id (level, x, y);
      level_byte = (guint8) level;
      append_u32 (a, 0xDEADBEEF);
      append_u32 (a, label);
      for (guint i = 0; i < 4; i++)
        append_u32 (a, (guint32) -1);
      g_byte_array_append (a, &level_byte, 1);
      append_u16 (a, (guint16) x);
      append_u16 (a, (guint16) y);
      append_u16 (a, (guint16) -1205);
      append_u16 (a, (guint16) 1205);
      append_u32 (a, (guint32) (header + stub * n + chunk_size * node));
    }

  for (guint node = 0; node < n; node++)
    {
      guint level, i, j;
      guint32 a_pos, b_pos;

      g_assert_true (terrain_quadtree_node_position (node, &level, &a_pos, &b_pos));
      append_u32 (a, 0xBEEF1234);
      append_u16 (a, (guint16) n_verts);
      for (j = 0; j < CHU_SIDE; j++)
        for (i = 0; i < CHU_SIDE; i++)
          {
            gint16 z = (gint16) (1200 * sin ((i + a_pos * CHU_SIDE) * 0.07) *
                                 cos ((j + b_pos * CHU_SIDE) * 0.05));

            append_u16 (a, (guint16) (((gint) i - CHU_SIDE / 2) * (16384 / (CHU_SIDE / 2))));
            append_u16 (a, (guint16) (((gint) j - CHU_SIDE / 2) * (16384 / (CHU_SIDE / 2))));
            append_u16 (a, (guint16) z);
            append_u16 (a, (guint16) (gint16) ((gint) (i + j + node) % 9 - 4));
          }
      append_u32 (a, n_list);
      for (j = 0; j + 1 < CHU_SIDE; j++)
        for (i = 0; i + 1 < CHU_SIDE; i++)
          {
            guint16 v = (guint16) (j * CHU_SIDE + i);

            append_u16 (a, v);
            append_u16 (a, (guint16) (v + 1));
            append_u16 (a, (guint16) (v + CHU_SIDE));
            append_u16 (a, (guint16) (v + 1));
            append_u16 (a, (guint16) (v + CHU_SIDE + 1));
            append_u16 (a, (guint16) (v + CHU_SIDE));
          }
      append_u32 (a, n_list / 3);
      g_byte_array_append (a, (const guint8 *) "", 1);  /* no collision */
      append_u32 (a, 0xB1E2E3F4);
    }
  g_assert_cmpuint (a->len, ==, header + stub * n + chunk_size * n);

  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&a));
  return write_or_die (dir, "generated-1365.chu", bytes);
}

#define TQT_DEPTH 6
#define TQT_TILE  128

/* A TQT texture quadtree (version 2, DDS tiles; the layout
 * tests/test-chu-tqt-fixture.c builds): depth TQT_DEPTH (1365 tiles), each a
 * TQT_TILE x TQT_TILE DXT1 image with its full mip chain, preceded by its
 * u32 size. */
char *
make_tqt (const char *dir)
{
  guint n = (guint) terrain_quadtree_node_count (TQT_DEPTH);
  g_autoptr(GRand) rand = g_rand_new_with_seed (1365);
  g_autoptr(GByteArray) a = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  guint mips = 0, blocks = 0;
  gsize dds_size, offset;

  for (guint side = TQT_TILE; side >= 1; side /= 2)
    {
      mips++;
      blocks += MAX (1, side / 4) * MAX (1, side / 4);
    }
  dds_size = 128 + 8 * (gsize) blocks;

  g_byte_array_append (a, (const guint8 *) "tqt\0", 4);
  append_u32 (a, 2);
  append_u32 (a, TQT_DEPTH);
  append_u32 (a, TQT_TILE);
  offset = 16 + 4 * (gsize) n;
  for (guint entry = 0; entry < n; entry++)
    append_u32 (a, (guint32) (offset + entry * (4 + dds_size)));

  for (guint entry = 0; entry < n; entry++)
    {
      append_u32 (a, (guint32) dds_size);
      /* DDS header: DXT1 with a mip chain. */
      g_byte_array_append (a, (const guint8 *) "DDS ", 4);
      append_u32 (a, 124);
      append_u32 (a, 0x1007 | 0x20000);
      append_u32 (a, TQT_TILE);
      append_u32 (a, TQT_TILE);
      append_u32 (a, (TQT_TILE / 4) * (TQT_TILE / 4) * 8);
      append_u32 (a, 0);
      append_u32 (a, mips);
      for (guint i = 0; i < 11; i++)
        append_u32 (a, 0);
      append_u32 (a, 32);
      append_u32 (a, 0x4);
      g_byte_array_append (a, (const guint8 *) "DXT1", 4);
      for (guint i = 0; i < 5; i++)
        append_u32 (a, 0);
      append_u32 (a, 0x401008);
      for (guint i = 0; i < 4; i++)
        append_u32 (a, 0);
      for (guint i = 0; i < 2 * blocks; i++)
        append_u32 (a, g_rand_int (rand));
    }

  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&a));
  return write_or_die (dir, "generated-1365.tqt", bytes);
}
