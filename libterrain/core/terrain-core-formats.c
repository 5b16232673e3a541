/* terrain-core-formats.c: what core contributes to the format registry:
 * plain heightmaps as a document, and the height sources that need no
 * format family (PNG encodings, raw16, SRTM)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-format-private.h"
#include "terrain-heightfield-private.h"
#include "terrain-heightmap-document-private.h"
#include "terrain-image.h"

/* Greyscale PNGs by their signature and IHDR, and colour PNGs whose pixels
 * are unmistakably Terrain-RGB or Terrarium heights: the heightmaps that
 * identify themselves. */
static TerrainFormatMatch
match_heightmap (const guint8 *data,
                 gsize         size)
{
  switch (terrain_heightmap_shape (data, size))
    {
    case HEIGHTMAP_SHAPE_GRAY_PNG:
      return TERRAIN_FORMAT_MATCH_STRONG;
    case HEIGHTMAP_SHAPE_PNG:
      /* A colour PNG whose first rows are Terrain-RGB or Terrarium heights
       * (opening scans every pixel and refuses it if the rest is not). */
      return terrain_heightmap_sniff_colour_png (data, size) ? TERRAIN_FORMAT_MATCH_STRONG
                                                             : TERRAIN_FORMAT_MATCH_NONE;
    default:
      return TERRAIN_FORMAT_MATCH_NONE;
    }
}

/* A colour .png that is no encoded heightmap (a texture), an .hgt of another size than an SRTM tile's or a .raw that
 * is no square of 16-bit samples (a camera's raw photo, an 8-bit grid) is
 * not taken for a heightmap. */
static gboolean
fits_heightmap (const guint8 *data,
                gsize         size,
                const char   *extension)
{
  HeightmapShape shape = terrain_heightmap_shape (data, size);

  if (g_str_equal (extension, "png"))
    return match_heightmap (data, size) == TERRAIN_FORMAT_MATCH_STRONG;
  if (g_str_equal (extension, "hgt"))
    return shape == HEIGHTMAP_SHAPE_SRTM;
  return shape == HEIGHTMAP_SHAPE_SRTM || shape == HEIGHTMAP_SHAPE_SQUARE16;
}

static const TerrainFormatInfo core_formats[] = {
  /* Greyscale PNGs by magic; SRTM tiles and raw16 grids by extension and
   * size. */
  { TERRAIN_FORMAT_HEIGHTMAP, "heightmap", "Heightmap (greyscale, Terrain-RGB or Terrarium PNG, SRTM or raw16)",
    (const char * const[]) { "png", "hgt", "raw", "r16", NULL },
    match_heightmap, terrain_heightmap_document_get_type, fits_heightmap, NULL },
};

static gboolean
match_png (const guint8 *data,
           gsize         size)
{
  static const guint8 png_magic[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

  return size >= sizeof png_magic && memcmp (data, png_magic, sizeof png_magic) == 0;
}

static TerrainHeightfield *
read_png (GBytes                           *bytes,
          TerrainHeightmapFormat            format,
          const TerrainHeightfieldOptions  *options,
          GError                          **error)
{
  g_autoptr(TerrainImage) image = terrain_image_load_png_bytes (bytes, error);

  if (image == NULL)
    return NULL;
  return terrain_heightfield_new_from_image (image, format, options, error);
}

/* A PNG found by its signature (the options say AUTO) is read by what its
 * pixels are, as every heightmap reader does; one named gray must be grey. */
static TerrainHeightfield *
read_gray (GBytes                           *bytes,
           const TerrainHeightfieldOptions  *options,
           GError                          **error)
{
  return read_png (bytes, options->format == TERRAIN_HEIGHTMAP_AUTO ? TERRAIN_HEIGHTMAP_AUTO
                                                                     : TERRAIN_HEIGHTMAP_GRAY,
                   options, error);
}

static TerrainHeightfield *
read_terrain_rgb (GBytes                           *bytes,
                  const TerrainHeightfieldOptions  *options,
                  GError                          **error)
{
  return read_png (bytes, TERRAIN_HEIGHTMAP_TERRAIN_RGB, options, error);
}

static TerrainHeightfield *
read_terrarium (GBytes                           *bytes,
                const TerrainHeightfieldOptions  *options,
                GError                          **error)
{
  return read_png (bytes, TERRAIN_HEIGHTMAP_TERRARIUM, options, error);
}

/* A PNG's signature or `.png` means a PNG heightmap whose pixels say how it
 * is encoded (grey, or Terrain-RGB or Terrarium where that is unambiguous);
 * the RGB encodings can also be named. */
static const TerrainHeightSourceInfo core_height_sources[] = {
  { TERRAIN_HEIGHTMAP_GRAY, (const char * const[]) { "gray", "grey", "png", NULL },
    (const char * const[]) { "png", NULL }, match_png, read_gray, TERRAIN_FORMAT_UNKNOWN },
  { TERRAIN_HEIGHTMAP_TERRAIN_RGB, (const char * const[]) { "terrain-rgb", "mapbox", NULL },
    NULL, NULL, read_terrain_rgb, TERRAIN_FORMAT_UNKNOWN },
  { TERRAIN_HEIGHTMAP_TERRARIUM, (const char * const[]) { "terrarium", NULL },
    NULL, NULL, read_terrarium, TERRAIN_FORMAT_UNKNOWN },
  { TERRAIN_HEIGHTMAP_RAW16, (const char * const[]) { "raw16", "raw", "r16", NULL },
    (const char * const[]) { "raw", "r16", "r16le", NULL }, NULL,
    terrain_heightfield_new_from_raw16, TERRAIN_FORMAT_UNKNOWN },
  { TERRAIN_HEIGHTMAP_HGT, (const char * const[]) { "hgt", "srtm", NULL },
    (const char * const[]) { "hgt", NULL }, NULL, terrain_heightfield_new_from_hgt,
    TERRAIN_FORMAT_UNKNOWN },
};

const TerrainFormatFamily terrain_core_format_family = {
  "core",
  core_formats, G_N_ELEMENTS (core_formats),
  core_height_sources, G_N_ELEMENTS (core_height_sources),
};
