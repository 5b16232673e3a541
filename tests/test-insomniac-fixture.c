/* test-insomniac-fixture.c: Insomniac terrain fixtures and checks that
 * test-insomniac-codec.c, test-insomniac-chunk.c and test-insomniac-terrain.c share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "libterrain.h"
#include "insomniac/terrain-node-codec-private.h"

#include "test-insomniac-fixture.h"

#define S TERRAIN_NODE_SIDE

GBytes *
save (gpointer document)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (document), &error);

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  return bytes;
}

GBytes *
bytes_slice (GBytes *bytes,
             gsize   offset,
             gsize   size)
{
  return g_bytes_new_from_bytes (bytes, offset, size);
}

GBytes *
bytes_patched (GBytes       *bytes,
               gsize         offset,
               const guint8 *data,
               gsize         size)
{
  gsize n;
  const guint8 *src = g_bytes_get_data (bytes, &n);
  guint8 *copy = g_memdup2 (src, n);

  g_assert_cmpuint (offset + size, <=, n);
  memcpy (copy + offset, data, size);
  return g_bytes_new_take (copy, n);
}

/* A smooth, hilly height field sampled at global sample (gx, gy), so that
 * neighbouring nodes cut from it share their edge strips. */
gint32
terrain_at (gint gx,
            gint gy,
            guint seed)
{
  double v = 20000.0 * sin (gx * 0.021 + seed) * cos (gy * 0.017 - seed) +
             9000.0 * sin ((gx + 2 * gy) * 0.05) + 3.0 * ((gx * 31 + gy * 17 + (gint) seed) % 7);

  return (gint32) lrint (v);
}

void
fill_heights (gint32 *heights,
              gint    origin_x,
              gint    origin_y,
              guint   seed)
{
  for (guint y = 0; y < S; y++)
    for (guint x = 0; x < S; x++)
      heights[y * S + x] = terrain_at (origin_x + (gint) x, origin_y + (gint) y, seed);
}

TerrainNodeChunk *
load_chunk (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  TerrainNodeChunk *chunk = terrain_node_chunk_new_from_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (chunk);
  return chunk;
}

/* A leaf (or internal node at @level) with hills, materials in stripes,
 * colour and occlusion gradients. */
GBytes *
make_chunk_bytes (gboolean leaf,
                  gint     level,
                  gint     origin_x,
                  gint     origin_y)
{
  g_autoptr(TerrainNodeChunk) chunk = terrain_node_chunk_new (leaf);
  g_autofree gint32 *heights = g_new (gint32, TERRAIN_NODE_SAMPLES);
  g_autofree guint8 *raster = g_new (guint8, TERRAIN_NODE_SAMPLES);
  g_autoptr(TerrainImage) colour = terrain_image_new (TERRAIN_IMAGE_RGBA8, S, S, NULL);
  g_autoptr(TerrainImage) occlusion = terrain_image_new (TERRAIN_IMAGE_GRAY8, S, S, NULL);
  g_autoptr(GError) error = NULL;
  guint8 *pixels;

  if (!leaf)
    terrain_node_chunk_set_level (chunk, level);

  fill_heights (heights, origin_x, origin_y, 1);
  g_assert_true (terrain_node_chunk_set_heights (chunk, heights, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    raster[i] = (guint8) (((i % S) / 20 + (i / S) / 33) % 5 * 11);
  g_assert_true (terrain_node_chunk_set_raster (chunk, TERRAIN_NODE_BLOCK_MATERIAL, raster, NULL));
  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    raster[i] = (guint8) (0x10 | ((i / S) / 40));
  g_assert_true (terrain_node_chunk_set_raster (chunk, TERRAIN_NODE_BLOCK_REGION, raster, NULL));

  pixels = terrain_image_get_data (colour, NULL);
  for (guint y = 0; y < S; y++)
    for (guint x = 0; x < S; x++)
      memcpy (pixels + 4 * (y * S + x),
              ((guint8[]) { (guint8) (x * 2), (guint8) (y * 2), 90, 255 }), 4);
  g_assert_true (terrain_node_chunk_set_texture (chunk, TERRAIN_NODE_BLOCK_COLOUR, colour, NULL));
  pixels = terrain_image_get_data (occlusion, NULL);
  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    pixels[i] = (guint8) (255 - (i % S));
  g_assert_true (terrain_node_chunk_set_texture (chunk, TERRAIN_NODE_BLOCK_OCCLUSION, occlusion,
                                                 NULL));

  if (leaf)
    {
      for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
        heights[i] = (gint32) ((i % S) < 60 ? 0 : 255 + (i / S));
      g_assert_true (terrain_node_chunk_set_snow_depth (chunk, heights, NULL));
    }

  return save (chunk);
}

guint
count_issues (GPtrArray       *issues,
              TerrainSeverity  severity)
{
  guint n = 0;

  for (guint i = 0; i < issues->len; i++)
    if (terrain_issue_get_severity (g_ptr_array_index (issues, i)) == severity)
      n++;
  return n;
}

gboolean
has_issue (GPtrArray   *issues,
           const char  *text)
{
  for (guint i = 0; i < issues->len; i++)
    if (strstr (terrain_issue_get_message (g_ptr_array_index (issues, i)), text) != NULL)
      return TRUE;
  return FALSE;
}
