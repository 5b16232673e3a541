/* terrain-heightfield-private.h: storage of TerrainHeightfield, for the
 * builders' inner loops
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-heightfield.h"
#include "terrain-format.h"
#include "terrain-limits.h"

G_BEGIN_DECLS

/* The side of a square of @n samples (terrain-heightfield-io.c): its exact
 * integer square root, or 0 when @n is not a square. */
guint terrain_exact_sqrt (guint64 n);

/* Metres of one Mapbox Terrain-RGB or Terrarium pixel (R, G, B): the one
 * place these encodings are decoded. */
gdouble terrain_decode_terrain_rgb (const guint8 *rgb);
gdouble terrain_decode_terrarium   (const guint8 *rgb);

/* What a colour (RGBA8) heightmap's pixels say of its encoding, gathered a
 * row at a time, so that a document can stream it and a decoded image be
 * checked the same way: grey (R = G = B everywhere), Mapbox Terrain-RGB or
 * Terrarium by the red channel's range and the decoded heights' continuity
 * (terrain-heightfield-io.c). */
typedef struct
{
  gboolean grey;
  guint r_min, r_max;
  gdouble rgb_jump, terrarium_jump;          /* largest step to a row neighbour */
  gdouble rgb_lo, rgb_hi, terrarium_lo, terrarium_hi;
  guint64 n_pixels;
} TerrainColourScan;

void     terrain_colour_scan_init   (TerrainColourScan        *scan);
void     terrain_colour_scan_row    (TerrainColourScan        *scan,
                                     const guint8             *pixels,
                                     guint                     n_pixels);
/* The encoding the pixels seen fit: %TERRAIN_HEIGHTMAP_GRAY,
 * %TERRAIN_HEIGHTMAP_TERRAIN_RGB or %TERRAIN_HEIGHTMAP_TERRARIUM, and the
 * range of heights it gives. @requested is %TERRAIN_HEIGHTMAP_AUTO (decide;
 * a picture that fits none is refused, naming --heightmap-format), GRAY
 * (only an all-grey image), or one of the RGB encodings (taken as named).
 * Errors are %TERRAIN_ERROR_INVALID_VALUE. */
gboolean terrain_colour_scan_finish (const TerrainColourScan  *scan,
                                     TerrainHeightmapFormat    requested,
                                     TerrainHeightmapFormat   *format,
                                     gdouble                  *lo,
                                     gdouble                  *hi,
                                     GError                  **error);

/* Whether the first rows of a colour PNG in @data look like Terrain-RGB or
 * Terrarium, for format detection: a sniff that reads at most a few rows. */
gboolean terrain_heightmap_sniff_colour_png (const guint8 *data,
                                             gsize         size);

/* The document format a height source is a document of its own in (.ter,
 * .tnt), or %TERRAIN_FORMAT_UNKNOWN for the plain heightmaps. */
TerrainFormat terrain_heightmap_format_get_document_format (TerrainHeightmapFormat format);

/* How the samples are held. Every kind is read through the same clamped
 * accessors, so a padded view, a decoded 16-bit PNG and a memory-mapped raw
 * file cost no conversion of the whole grid. */
typedef enum
{
  HEIGHTFIELD_F32,       /* host floats, metres */
  HEIGHTFIELD_U16,       /* host-order U16: metres = value * scale + offset */
  HEIGHTFIELD_U16_LE,    /* little-endian U16 bytes (mapped raw16) */
  HEIGHTFIELD_S16_BE,    /* big-endian S16 bytes (mapped SRTM .hgt) */
} HeightfieldStorage;

struct _TerrainHeightfield
{
  GObject parent_instance;

  guint width;             /* the grid seen by users */
  guint height;
  guint data_width;        /* stored samples; the rest repeats the edges */
  guint data_height;
  gdouble spacing;

  HeightfieldStorage storage;
  GBytes *bytes;           /* owns (or maps) the samples */
  const guint8 *samples;   /* row-major, data_width per row */
  gboolean writable;       /* F32 made by this library, not shared */
  gdouble scale;           /* U16 kinds */
  gdouble offset;

  /* The lowest and highest stored value of a 16-bit kind, found once:
   * those samples never change (only F32 fields are writable), and a build
   * asks for the range three times (issue 18). */
  GMutex range_lock;
  gboolean stored_range_known;
  gint32 stored_lo;
  gint32 stored_hi;
};

static inline gfloat
terrain_heightfield_sample_stored (const TerrainHeightfield *self,
                                   guint                     x,
                                   guint                     y)
{
  gsize i;

  x = MIN (x, self->data_width - 1);
  y = MIN (y, self->data_height - 1);
  i = (gsize) y * self->data_width + x;

  /* 16-bit values become metres in double arithmetic, rounded once to a
   * float, as in terrain_heightfield_read_rect(): both accessors give the
   * same float for a sample, and a grid of those floats (a tiled heightmap
   * written as floats) reads the same as the 16-bit grid. Float arithmetic
   * would round value * scale first: near 32768 units that is 0.004 m, and
   * a height near the offset (an SRTM tile's 0 m) would move by it. */
  switch (self->storage)
    {
    case HEIGHTFIELD_F32:
      return ((const gfloat *) (gconstpointer) self->samples)[i];
    case HEIGHTFIELD_U16:
      return (gfloat) (((const guint16 *) (gconstpointer) self->samples)[i] * self->scale +
                       self->offset);
    case HEIGHTFIELD_S16_BE:
      return (gfloat) ((gint16) (guint16) ((self->samples[2 * i] << 8) | self->samples[2 * i + 1]) *
                       self->scale + self->offset);
    case HEIGHTFIELD_U16_LE:
    default:
      return (gfloat) ((self->samples[2 * i] | (self->samples[2 * i + 1] << 8)) * self->scale +
                       self->offset);
    }
}

/* Makes a heightfield over stored samples starting @offset bytes into
 * @bytes; takes a reference on @bytes. Sizes are checked by the caller. */
TerrainHeightfield *terrain_heightfield_new_for_storage (guint               width,
                                                         guint               height,
                                                         HeightfieldStorage  storage,
                                                         GBytes             *bytes,
                                                         gsize               offset,
                                                         gdouble             scale,
                                                         gdouble             value_offset,
                                                         gdouble             spacing);

/* Fills voids (flagged in @void_mask) of a float grid from the valid samples
 * around them: linear interpolation along rows and columns, averaged where
 * both exist, then the nearest filled value. Returns FALSE when every sample
 * is void. */
gboolean terrain_heightfield_fill_voids (gfloat       *samples,
                                         guint         width,
                                         guint         height,
                                         const guint8 *void_mask);

/* For height sources (terrain-format-private.h): a float grid of @width x
 * @height whose spacing is the options' or, when they give none,
 * @default_spacing; and the options' vertical scale and offset applied to
 * a float grid's samples. */
TerrainHeightfield *terrain_heightfield_new_for_source (guint                             width,
                                                        guint                             height,
                                                        const TerrainHeightfieldOptions  *options,
                                                        gdouble                           default_spacing,
                                                        GError                          **error);
void                terrain_heightfield_apply_vertical (TerrainHeightfield               *field,
                                                        const TerrainHeightfieldOptions  *options);

/* Reads tile @index of a tiled heightmap (terrain-heightfield-tiles.c). */
typedef GBytes *(*TerrainTileLoadFunc) (guint      index,
                                        gpointer   data,
                                        GError   **error);

/* terrain_heightfield_load_tiles() over any store of tiles: @names are the
 * files' names (tiles are told by them; others are skipped), @load reads
 * one when it is needed, so that one tile at a time is in memory. */
TerrainHeightfield *terrain_heightfield_assemble_tiles (const char * const               *names,
                                                        guint                              n_names,
                                                        TerrainTileLoadFunc                load,
                                                        gpointer                           data,
                                                        const TerrainHeightfieldOptions   *options,
                                                        gint                               overlap,
                                                        gboolean                           flip_y,
                                                        const TerrainLimits               *limits,
                                                        GError                           **error);

G_END_DECLS
