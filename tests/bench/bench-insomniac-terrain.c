/* bench-insomniac-terrain.c: throughput of the Insomniac terrain codecs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Run with `meson test -C BUILD --benchmark insomniac-terrain` or directly:
 *
 *   bench-insomniac-terrain [--nodes N | --full]
 *
 * Prints CABAC bins per second, height and raster block throughput (MB/s of
 * coded data, samples per second), whole-chunk decode and encode over a
 * synthetic layer (N nodes, default the 1,365 nodes of levels 0..5; --full
 * for all 87,381), and FloorHeightData decode and encode rates. The target
 * of issue 6 is at least 50 million CABAC bins per second per core.
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "libterrain.h"
#include "core/terrain-reader-private.h"
#include "insomniac/terrain-cabac-private.h"
#include "insomniac/terrain-node-codec-private.h"

#define S TERRAIN_NODE_SIDE

/* CPU time of this thread: figures are per core, and stay meaningful on a
 * busy machine. */
static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
bench_cabac (void)
{
  const gsize n = 40 * 1000 * 1000;
  g_autofree guint8 *ctx = g_new (guint8, n);
  g_autofree guint8 *bins = g_new (guint8, n);
  g_autoptr(GRand) rand = g_rand_new_with_seed (1);
  g_autoptr(GByteArray) out = g_byte_array_sized_new (n / 4);
  TerrainCabacEncoder encoder;
  TerrainCabacDecoder decoder;
  double t0, t1, t2;
  guint errors = 0, sum = 0;

  /* Bins like the height prefixes: mostly predictable, some not. */
  for (gsize i = 0; i < n; i++)
    {
      ctx[i] = (guint8) (i % 16);
      bins[i] = g_rand_double (rand) < (ctx[i] < 4 ? 0.35 : 0.08);
    }

  t0 = now ();
  terrain_cabac_encoder_init (&encoder, out);
  for (gsize i = 0; i < n; i++)
    terrain_cabac_encode (&encoder, ctx[i], bins[i]);
  terrain_cabac_encoder_finish (&encoder);
  t1 = now ();

  terrain_cabac_decoder_init (&decoder, out->data, out->len);
  for (gsize i = 0; i < n; i++)
    {
      guint bin = terrain_cabac_decode (&decoder, ctx[i]);

      sum += bin;
      errors += bin != bins[i];
    }
  t2 = now ();

  g_assert (errors == 0);
  g_print ("CABAC: %" G_GSIZE_FORMAT " bins in %u bytes (%.3f bits/bin, %u ones)\n",
           n, out->len, out->len * 8.0 / n, sum);
  g_print ("  decode %.1f M bins/s, encode %.1f M bins/s\n",
           n / (t2 - t1) / 1e6, n / (t1 - t0) / 1e6);
}

static void
fill_heights (gint32 *heights,
              guint   seed)
{
  for (guint y = 0; y < S; y++)
    for (guint x = 0; x < S; x++)
      heights[y * S + x] = (gint32) lrint (20000.0 * sin (x * 0.021 + seed) * cos (y * 0.017) +
                                           9000.0 * sin ((x + 2 * y) * 0.05) +
                                           3.0 * ((x * 31 + y * 17 + seed) % 7));
}

static void
bench_blocks (void)
{
  const guint rounds = 200;
  g_autofree gint32 *heights = g_new (gint32, TERRAIN_NODE_SAMPLES);
  g_autofree gint32 *back = g_new (gint32, TERRAIN_NODE_SAMPLES);
  g_autofree guint8 *raster = g_new (guint8, TERRAIN_NODE_SAMPLES);
  g_autofree guint8 *raster_back = g_new (guint8, TERRAIN_NODE_SAMPLES);
  g_autoptr(GBytes) block = NULL;
  g_autoptr(GBytes) raster_block = NULL;
  TerrainCodedBlockInfo info;
  TerrainReader reader;
  double t0, t1, t2;
  gsize size;

  fill_heights (heights, 3);
  t0 = now ();
  for (guint r = 0; r < rounds; r++)
    {
      g_clear_pointer (&block, g_bytes_unref);
      block = terrain_node_encode_heights (heights, NULL, 0, NULL);
    }
  t1 = now ();
  terrain_reader_init (&reader, block, "bench");
  for (guint r = 0; r < rounds; r++)
    g_assert (terrain_node_decode_heights (&reader, back, &info, NULL));
  t2 = now ();
  size = g_bytes_get_size (block);
  g_print ("Height block: %" G_GSIZE_FORMAT " bytes for 17,424 samples (%" G_GUINT64_FORMAT
           " bins, %.2f bits/sample)\n", size, info.bins, size * 8.0 / TERRAIN_NODE_SAMPLES);
  g_print ("  decode %.1f MB/s coded, %.1f M samples/s, %.1f M bins/s; encode %.1f MB/s, "
           "%.1f M samples/s\n",
           size * rounds / (t2 - t1) / 1e6, TERRAIN_NODE_SAMPLES * rounds / (t2 - t1) / 1e6,
           (double) info.bins * rounds / (t2 - t1) / 1e6,
           size * rounds / (t1 - t0) / 1e6, TERRAIN_NODE_SAMPLES * rounds / (t1 - t0) / 1e6);

  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    raster[i] = (guint8) (((i % S) / 9 + (i / S) / 7 + (i * 7919) % 3) % 12 * 5);
  t0 = now ();
  for (guint r = 0; r < rounds; r++)
    {
      g_clear_pointer (&raster_block, g_bytes_unref);
      raster_block = terrain_node_encode_raster (raster, NULL, 0, 64, NULL, 0);
    }
  t1 = now ();
  terrain_reader_init (&reader, raster_block, "bench");
  for (guint r = 0; r < rounds; r++)
    g_assert (terrain_node_decode_raster (&reader, raster_back, &info, NULL));
  t2 = now ();
  size = g_bytes_get_size (raster_block);
  g_print ("Raster block (12 values, noisy): %" G_GSIZE_FORMAT " bytes (%" G_GUINT64_FORMAT
           " bins)\n", size, info.bins);
  g_print ("  decode %.1f MB/s coded, %.1f M samples/s; encode %.1f M samples/s\n",
           size * rounds / (t2 - t1) / 1e6, TERRAIN_NODE_SAMPLES * rounds / (t2 - t1) / 1e6,
           TERRAIN_NODE_SAMPLES * rounds / (t1 - t0) / 1e6);
}

/* One synthetic node's chunk, as the layer's encoder would write it. */
static GBytes *
make_chunk (guint32 position)
{
  g_autoptr(TerrainNodeChunk) chunk = NULL;
  g_autofree gint32 *heights = g_new (gint32, TERRAIN_NODE_SAMPLES);
  g_autofree guint8 *raster = g_new (guint8, TERRAIN_NODE_SAMPLES);
  g_autoptr(TerrainImage) colour = terrain_image_new (TERRAIN_IMAGE_RGBA8, S, S, NULL);
  guint level;
  guint8 *pixels;

  terrain_node_position_to_level (position, &level, NULL, NULL);
  chunk = terrain_node_chunk_new (level == TERRAIN_NODE_LEVELS - 1);
  terrain_node_chunk_set_level (chunk, (gint) level);
  fill_heights (heights, position);
  terrain_node_chunk_set_heights (chunk, heights, NULL);
  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    raster[i] = (guint8) (((i % S) / 20 + (i / S) / 33 + position) % 6);
  terrain_node_chunk_set_raster (chunk, TERRAIN_NODE_BLOCK_MATERIAL, raster, NULL);
  pixels = terrain_image_get_data (colour, NULL);
  for (guint i = 0; i < TERRAIN_NODE_SAMPLES; i++)
    {
      pixels[4 * i] = (guint8) (i % S + position);
      pixels[4 * i + 1] = (guint8) (i / S);
      pixels[4 * i + 2] = 80;
      pixels[4 * i + 3] = 255;
    }
  terrain_node_chunk_set_texture (chunk, TERRAIN_NODE_BLOCK_COLOUR, colour, NULL);

  return terrain_document_save_to_bytes (TERRAIN_DOCUMENT (chunk), NULL);
}

static void
bench_layer (guint n_nodes)
{
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(TerrainNodeLayer) layer = terrain_node_layer_new ();
  g_autoptr(GBytes) layer_bytes = NULL;
  g_autoptr(TerrainNodeLayer) reread = NULL;
  guint64 coded = 0, samples = 0;
  double t0, t1, t2, t3;

  t0 = now ();
  for (guint32 p = 0; p < n_nodes; p++)
    {
      GBytes *bytes = make_chunk (p);

      coded += g_bytes_get_size (bytes);
      g_ptr_array_add (chunks, bytes);
      terrain_node_layer_append (layer, p, p);
    }
  layer_bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (layer), NULL);
  t1 = now ();

  reread = terrain_node_layer_new_from_bytes (layer_bytes, NULL, NULL);
  g_assert (reread != NULL);
  t2 = now ();
  for (guint i = 0; i < n_nodes; i++)
    {
      g_autoptr(TerrainNodeChunk) chunk = terrain_node_chunk_new_from_bytes (
        g_ptr_array_index (chunks, terrain_node_layer_get_identity (reread, i)), NULL, NULL);

      g_assert (terrain_node_chunk_get_heights (chunk, NULL) != NULL);
      for (guint b = TERRAIN_NODE_BLOCK_MATERIAL; b <= TERRAIN_NODE_BLOCK_T18; b++)
        g_assert (terrain_node_chunk_get_raster (chunk, b, NULL) != NULL);
      g_assert (terrain_node_chunk_get_texture_blocks (chunk, TERRAIN_NODE_BLOCK_COLOUR, NULL));
      g_assert (terrain_node_chunk_get_texture_blocks (chunk, TERRAIN_NODE_BLOCK_OCCLUSION, NULL));
      samples += 7 * TERRAIN_NODE_SAMPLES;
      if (terrain_node_chunk_is_leaf (chunk))
        {
          g_assert (terrain_node_chunk_get_snow_depth (chunk, NULL) != NULL);
          samples += TERRAIN_NODE_SAMPLES;
        }
    }
  t3 = now ();

  g_print ("Synthetic layer: %u nodes, %.1f MB of chunks (%.1f KB per node)\n",
           n_nodes, coded / 1e6, coded / 1024.0 / n_nodes);
  g_print ("  decode every block: %.2f s, %.1f MB/s coded, %.1f M samples/s, %.0f nodes/s\n",
           t3 - t2, coded / (t3 - t2) / 1e6, samples / (t3 - t2) / 1e6, n_nodes / (t3 - t2));
  g_print ("  encode (heights, material, colour; BC1 included): %.2f s, %.0f nodes/s\n",
           t1 - t0, n_nodes / (t1 - t0));
}

static void
bench_floor (void)
{
  gsize n_blocks = (gsize) 2048 * 2048, size = 9 + 8 * n_blocks + 51;
  guint8 *data = g_malloc0 (size);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainFloorHeightData) grid = NULL;
  g_autoptr(TerrainImage) image = NULL;
  g_autofree guint16 *region = g_new (guint16, 512 * 512);
  double t0, t1, t2, t3;

  terrain_put_le32 (data, 1);
  terrain_put_le32 (data + 4, 0x40000000);
  for (gsize b = 0; b < n_blocks; b++)
    {
      terrain_put_le16 (data + 9 + 8 * b, (guint16) (b % 40000));
      terrain_put_le16 (data + 9 + 8 * b + 2, (guint16) (b % 40000 + b % 97));
      terrain_put_le32 (data + 9 + 8 * b + 4, (guint32) (b * 2654435761u));
    }
  terrain_put_le32 (data + size - 51 + 0x1c, 8192);
  terrain_put_le32 (data + size - 51 + 0x20, 8192);
  bytes = g_bytes_new_take (data, size);

  t0 = now ();
  grid = terrain_floor_height_data_new_from_bytes (bytes, NULL, NULL);
  g_assert (grid != NULL);
  t1 = now ();
  image = terrain_document_export_heights (TERRAIN_DOCUMENT (grid), NULL);
  g_assert (image != NULL);
  t2 = now ();

  for (guint i = 0; i < 512 * 512; i++)
    region[i] = (guint16) (20000 + 3000 * sin ((i % 512) * 0.01) * cos ((i / 512) * 0.013));
  terrain_floor_height_data_set_region (grid, 1000, 1000, 512, 512, region);
  t3 = now ();

  g_print ("FloorHeightData 8192x8192: load %.3f s; decode all %.2f s (%.0f M cells/s, "
           "%.0f MB/s coded)\n",
           t1 - t0, t2 - t1, 8192.0 * 8192 / (t2 - t1) / 1e6, 8.0 * n_blocks / (t2 - t1) / 1e6);
  g_print ("  encode a 512x512 region: %.3f s (%.0f K blocks/s)\n",
           t3 - t2, 128.0 * 128 / (t3 - t2) / 1e3);
}

int
main (int   argc,
      char *argv[])
{
  gint nodes = (gint) terrain_node_level_start (6);
  gboolean full = FALSE;
  const GOptionEntry entries[] = {
    { "nodes", 'n', 0, G_OPTION_ARG_INT, &nodes, "Nodes in the synthetic layer", "N" },
    { "full", 0, 0, G_OPTION_ARG_NONE, &full, "All 87,381 nodes", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 64;
    }
  if (full)
    nodes = TERRAIN_NODE_POSITIONS;
  nodes = CLAMP (nodes, 1, TERRAIN_NODE_POSITIONS);

  bench_cabac ();
  bench_blocks ();
  bench_layer ((guint) nodes);
  bench_floor ();
  return 0;
}
