/* fuzz-tiles.c: libFuzzer harness for tiled heightmap inputs
 *
 * The input is a set of tiles as World Machine or Gaea write them: byte 0
 * is the number of columns - 1, byte 1 the rows - 1 (each taken modulo 4),
 * byte 2 the flags (bits 0-1 the overlap: 0 auto, 1 none, 2 one sample, 3
 * two; bit 2 Gaea's Flip Y; bits 3-4 the naming: _x_y, _y_x, _r_c, or
 * every tile named x0_y0 (a doubled tile); bit 5 `.png` instead of `.r16`;
 * bit 6 one tile left out), then each tile as a u32 little-endian length
 * and its bytes (a short input gives the tiles it has, the rest are empty).
 * terrain_heightfield_assemble_tiles() reads them one at a time: it either
 * fails with a TERRAIN_ERROR or gives a grid of the size the tiles make,
 * every sample finite, within the harness's limits. Seeds come from
 * tests/test-heightfield-tiles.c (terrain_test_dump_seed()).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "libterrain.h"
#include "core/terrain-heightfield-private.h"
#include "fuzz-limits.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

#define MAX_TILES 16

static void
fail (const char *what,
      const char *message)
{
  g_printerr ("%s%s%s\n", what, message != NULL ? ": " : "", message != NULL ? message : "");
  abort ();
}

typedef struct
{
  GBytes *tiles[MAX_TILES];
} Tiles;

static GBytes *
load_tile (guint     index,
           gpointer  data,
           GError  **error)
{
  Tiles *tiles = data;

  return g_bytes_ref (tiles->tiles[index]);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char * const formats[] = { "t_x%u_y%u", "t_y%u_x%u", "t_r%u_c%u", "t_x0_y0" };
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  Tiles tiles = { { NULL } };
  guint columns, rows, flags, n = 0;
  gsize at = 3;
  gint overlap;

  if (size < 3)
    return 0;
  columns = 1 + data[0] % 4;
  rows = 1 + data[1] % 4;
  flags = data[2];
  overlap = (flags & 3) == 0 ? -1 : (gint) (flags & 3) - 1;

  for (guint y = 0; y < rows; y++)
    for (guint x = 0; x < columns; x++)
      {
        guint32 length = 0;
        g_autofree char *stem = NULL;
        guint scheme = (flags >> 3) & 3;

        if ((flags & 64) && x == columns - 1 && y == rows - 1 && n > 0)
          continue;
        if (at + 4 <= size)
          {
            length = (guint32) data[at] | ((guint32) data[at + 1] << 8) |
                     ((guint32) data[at + 2] << 16) | ((guint32) data[at + 3] << 24);
            at += 4;
            length = (guint32) MIN ((gsize) length, size - at);
          }
        tiles.tiles[n] = g_bytes_new (data + at, length);
        at += length;
        stem = scheme == 1 || scheme == 2 ? g_strdup_printf (formats[scheme], y, x)
                                          : g_strdup_printf (formats[scheme], x, y);
        g_ptr_array_add (names, g_strconcat (stem, flags & 32 ? ".png" : ".r16", NULL));
        n++;
      }

  field = terrain_heightfield_assemble_tiles ((const char * const *) names->pdata, names->len,
                                              load_tile, &tiles, NULL, overlap, (flags & 4) != 0,
                                              fuzz_limits (), &error);
  if (field == NULL)
    {
      if (error == NULL || error->domain != TERRAIN_ERROR)
        fail ("a tiled input failed without a TERRAIN_ERROR", error != NULL ? error->message : NULL);
    }
  else
    {
      guint width = terrain_heightfield_get_width (field);
      guint height = terrain_heightfield_get_height (field);
      g_autofree gfloat *row = NULL;

      /* The grid is a mapped temporary file (not writable): read it a row
       * at a time. */
      if (width == 0 || height == 0 || width > fuzz_limits ()->max_cells_per_side + 1 ||
          height > fuzz_limits ()->max_cells_per_side + 1)
        fail ("an assembled grid has an impossible size", NULL);
      row = g_new (gfloat, width);
      for (guint y = 0; y < height; y++)
        {
          terrain_heightfield_read_rect (field, 0, y, width, 1, row, width);
          for (guint x = 0; x < width; x++)
            if (!isfinite (row[x]))
              fail ("an assembled sample is not finite", NULL);
        }
    }

  for (guint i = 0; i < n; i++)
    g_bytes_unref (tiles.tiles[i]);
  return 0;
}
