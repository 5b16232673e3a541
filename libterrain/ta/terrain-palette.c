/* terrain-palette.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-palette.h"
#include "core/terrain-error.h"
#include "core/terrain-io.h"
#include "core/terrain-reader-private.h"

struct _TerrainPalette
{
  guint8 rgba[256 * 4];
  /* Bytes 3 of each PALETTE.PAL entry ("unused"), kept for writing back. */
  guint8 extra[256];
};

G_DEFINE_BOXED_TYPE (TerrainPalette, terrain_palette, terrain_palette_ref, terrain_palette_unref)

#define PAL_SIZE 1024
#define PCX_PALETTE_SIZE 768
#define PCX_PALETTE_MARKER 0x0C

/**
 * terrain_palette_new_from_rgb:
 * @rgb: (array length=n_colors): R, G, B triples
 * @n_colors: number of triples, at most 256; missing entries are black
 *
 * Returns: (transfer full): a new palette
 */
TerrainPalette *
terrain_palette_new_from_rgb (const guint8 *rgb,
                              gsize         n_colors)
{
  TerrainPalette *palette = g_atomic_rc_box_new0 (TerrainPalette);

  n_colors = MIN (n_colors, 256);
  for (guint i = 0; i < 256; i++)
    {
      if (i < n_colors)
        memcpy (palette->rgba + 4 * i, rgb + 3 * i, 3);
      palette->rgba[4 * i + 3] = 0xff;
    }

  return palette;
}

/**
 * terrain_palette_new_from_bytes:
 * @bytes: a palette file's contents
 * @error: return location for a #GError
 *
 * Reads a palette: either a Total Annihilation `PALETTE.PAL` (exactly 1024
 * bytes: 256 entries of R, G, B, unused) or a PCX file, whose palette is the
 * last 768 bytes, preceded by the marker byte 0x0C (field-notes.md, "Total
 * Annihilation ecosystem").
 *
 * Returns: (transfer full) (nullable): the palette, or %NULL with
 *   %TERRAIN_ERROR_BAD_MAGIC or %TERRAIN_ERROR_TRUNCATED
 */
TerrainPalette *
terrain_palette_new_from_bytes (GBytes  *bytes,
                                GError **error)
{
  TerrainReader reader;
  const guint8 *data;
  TerrainPalette *palette;
  gsize size;

  g_return_val_if_fail (bytes != NULL, NULL);

  terrain_reader_init (&reader, bytes, "palette");
  size = terrain_reader_get_size (&reader);

  if (size == PAL_SIZE)
    {
      if (!terrain_reader_read_bytes (&reader, PAL_SIZE, &data, error))
        return NULL;
      palette = g_atomic_rc_box_new0 (TerrainPalette);
      for (guint i = 0; i < 256; i++)
        {
          memcpy (palette->rgba + 4 * i, data + 4 * i, 3);
          palette->rgba[4 * i + 3] = 0xff;
          palette->extra[i] = data[4 * i + 3];
        }
      return palette;
    }

  if (size >= 128 + PCX_PALETTE_SIZE + 1)
    {
      guint8 manufacturer, marker;

      if (!terrain_reader_read_u8 (&reader, &manufacturer, error) ||
          !terrain_reader_seek (&reader, size - PCX_PALETTE_SIZE - 1, error) ||
          !terrain_reader_read_u8 (&reader, &marker, error) ||
          !terrain_reader_read_bytes (&reader, PCX_PALETTE_SIZE, &data, error))
        return NULL;

      if (manufacturer == 0x0A && marker == PCX_PALETTE_MARKER)
        return terrain_palette_new_from_rgb (data, 256);
    }

  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
               "palette: %" G_GSIZE_FORMAT " bytes is neither a 1024-byte PALETTE.PAL nor a "
               "PCX file with a 256-colour palette (marker 0x0C before the last 768 bytes)",
               size);
  return NULL;
}

/**
 * terrain_palette_new_from_file:
 * @file: a `.pal` or `.pcx` file
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Loads a palette file, see [ctor@Terrain.Palette.new_from_bytes].
 *
 * Returns: (transfer full) (nullable): the palette
 */
TerrainPalette *
terrain_palette_new_from_file (GFile         *file,
                               GCancellable  *cancellable,
                               GError       **error)
{
  g_autoptr(GBytes) bytes = terrain_file_load_bytes (file, cancellable, error);

  if (bytes == NULL)
    return NULL;
  return terrain_palette_new_from_bytes (bytes, error);
}

/**
 * terrain_palette_ref:
 * @palette: a #TerrainPalette
 *
 * Returns: (transfer full): @palette
 */
TerrainPalette *
terrain_palette_ref (TerrainPalette *palette)
{
  return g_atomic_rc_box_acquire (palette);
}

/**
 * terrain_palette_unref:
 * @palette: (transfer full): a #TerrainPalette
 *
 * Drops a reference.
 */
void
terrain_palette_unref (TerrainPalette *palette)
{
  g_atomic_rc_box_release (palette);
}

/**
 * terrain_palette_get_color:
 * @palette: a #TerrainPalette
 * @index: palette index
 * @r: (out): red
 * @g: (out): green
 * @b: (out): blue
 *
 * Looks up one entry.
 */
void
terrain_palette_get_color (const TerrainPalette *palette,
                           guint8                index,
                           guint8               *r,
                           guint8               *g,
                           guint8               *b)
{
  *r = palette->rgba[4 * index];
  *g = palette->rgba[4 * index + 1];
  *b = palette->rgba[4 * index + 2];
}

/**
 * terrain_palette_get_rgba_table:
 * @palette: a #TerrainPalette
 *
 * Returns: (transfer none) (array fixed-size=1024): 256 R, G, B, A entries
 *   (alpha is always 255), for expanding indexed pixels quickly
 */
const guint8 *
terrain_palette_get_rgba_table (const TerrainPalette *palette)
{
  return palette->rgba;
}

/**
 * terrain_palette_nearest:
 * @palette: a #TerrainPalette
 * @r: red
 * @g: green
 * @b: blue
 *
 * Finds the entry closest to a colour by squared RGB distance; among equally
 * close entries the lowest index wins, so an exact match returns the first
 * entry holding that colour.
 *
 * Returns: the palette index
 */
guint8
terrain_palette_nearest (const TerrainPalette *palette,
                         guint8                r,
                         guint8                g,
                         guint8                b)
{
  guint best = 0;
  guint best_distance = G_MAXUINT;

  for (guint i = 0; i < 256; i++)
    {
      int dr = (int) palette->rgba[4 * i] - r;
      int dg = (int) palette->rgba[4 * i + 1] - g;
      int db = (int) palette->rgba[4 * i + 2] - b;
      guint distance = (guint) (dr * dr + dg * dg + db * db);

      if (distance < best_distance)
        {
          best = i;
          best_distance = distance;
          if (distance == 0)
            break;
        }
    }

  return (guint8) best;
}

/**
 * terrain_palette_to_pal_bytes:
 * @palette: a #TerrainPalette
 *
 * Serialises the palette as a 1024-byte `PALETTE.PAL`. A palette read from a
 * PAL file writes back byte-exact, including the unused fourth bytes.
 *
 * Returns: (transfer full): the file's bytes
 */
GBytes *
terrain_palette_to_pal_bytes (const TerrainPalette *palette)
{
  guint8 *data = g_malloc (PAL_SIZE);

  for (guint i = 0; i < 256; i++)
    {
      memcpy (data + 4 * i, palette->rgba + 4 * i, 3);
      data[4 * i + 3] = palette->extra[i];
    }

  return g_bytes_new_take (data, PAL_SIZE);
}
