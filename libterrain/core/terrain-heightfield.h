/* terrain-heightfield.h: a grid of heights in metres, the input of terrain
 * builders
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <gio/gio.h>

#include "terrain-version.h"
#include "terrain-image.h"
#include "terrain-limits.h"

G_BEGIN_DECLS

/**
 * TerrainHeightmapFormat:
 * @TERRAIN_HEIGHTMAP_AUTO: decide from the magic and the file name
 * @TERRAIN_HEIGHTMAP_GRAY: an 8- or 16-bit greyscale PNG; metres = value ×
 *   vertical scale + vertical offset
 * @TERRAIN_HEIGHTMAP_TERRAIN_RGB: a Mapbox Terrain-RGB PNG; metres = −10000 +
 *   (R × 65536 + G × 256 + B) × 0.1
 * @TERRAIN_HEIGHTMAP_TERRARIUM: a Terrarium PNG; metres = R × 256 + G +
 *   B / 256 − 32768
 * @TERRAIN_HEIGHTMAP_RAW16: headerless little-endian U16 samples (`.raw`,
 *   `.r16`, TGEA's (2^N+1)² input); metres = value × vertical scale +
 *   vertical offset
 * @TERRAIN_HEIGHTMAP_HGT: an SRTM tile (`.hgt`): big-endian S16 metres, a
 *   square whose side follows from the file length, −32768 = void
 * @TERRAIN_HEIGHTMAP_TER: a Torque / Tribes 2 legacy terrain or a Torque3D
 *   terrain (`.ter`, version 1 to 3 or 7): U16 in 11.5 fixed point, metres
 *   = value / 32 (field-notes.md, docs/formats/torque3d-ter.md)
 * @TERRAIN_HEIGHTMAP_TNT: the attribute-cell heights (0-255) of a Total
 *   Annihilation map (`.tnt`)
 *
 * The height sources [func@Terrain.Heightfield.load] reads.
 */
typedef enum
{
  TERRAIN_HEIGHTMAP_AUTO,
  TERRAIN_HEIGHTMAP_GRAY,
  TERRAIN_HEIGHTMAP_TERRAIN_RGB,
  TERRAIN_HEIGHTMAP_TERRARIUM,
  TERRAIN_HEIGHTMAP_RAW16,
  TERRAIN_HEIGHTMAP_HGT,
  TERRAIN_HEIGHTMAP_TER,
  TERRAIN_HEIGHTMAP_TNT,
} TerrainHeightmapFormat;

/**
 * TerrainHeightfieldFit:
 * @TERRAIN_HEIGHTFIELD_FIT_PAD: extend the edges: the last row and column are
 *   repeated up to the next 2^N+1 (no sample is moved or lost)
 * @TERRAIN_HEIGHTFIELD_FIT_RESAMPLE: resample bilinearly to the next 2^N+1
 *   (the whole grid is stretched over the new one)
 * @TERRAIN_HEIGHTFIELD_FIT_NONE: refuse grids that are not already square
 *   and 2^N+1 on a side
 *
 * How [method@Terrain.Heightfield.fit] makes a grid square and 2^N+1 samples
 * on a side, as chunked-LOD trees need. A grid is never cropped.
 */
typedef enum
{
  TERRAIN_HEIGHTFIELD_FIT_PAD,
  TERRAIN_HEIGHTFIELD_FIT_RESAMPLE,
  TERRAIN_HEIGHTFIELD_FIT_NONE,
} TerrainHeightfieldFit;

/**
 * TERRAIN_HEIGHTFIELD_MAX_SIDE:
 *
 * Largest heightfield side, in samples, libterrain builds from:
 * 2^16 + 1.
 */
#define TERRAIN_HEIGHTFIELD_MAX_SIDE 65537

/**
 * TerrainHeightfieldOptions:
 * @format: the source encoding, or %TERRAIN_HEIGHTMAP_AUTO
 * @vertical_scale: multiplier applied to the source's values (grey and raw
 *   samples) or metres (every other source); 1 by default
 * @vertical_offset: metres added after scaling; 0 by default
 * @spacing: metres between neighbouring samples; 0 takes the source's
 *   default (8 for a legacy `.ter`, 1 for a Torque3D `.ter`, 16 for
 *   `.tnt`, 90 or 30 for SRTM3 or SRTM1 tiles, otherwise 1)
 * @raw_width: width of a raw16 grid in samples; 0 infers a square from the
 *   file length
 * @raw_height: height of a raw16 grid; 0 derives it from @raw_width and the
 *   file length
 * @nodata: a raw source value (before scaling) that marks a missing sample,
 *   filled like SRTM voids; NaN (the default) when there is none
 *
 * How [func@Terrain.Heightfield.load] reads a height source. Create with
 * [ctor@Terrain.HeightfieldOptions.new] for the defaults.
 */
typedef struct _TerrainHeightfieldOptions TerrainHeightfieldOptions;

struct _TerrainHeightfieldOptions
{
  TerrainHeightmapFormat format;
  gdouble vertical_scale;
  gdouble vertical_offset;
  gdouble spacing;
  guint raw_width;
  guint raw_height;
  gdouble nodata;
};

#define TERRAIN_TYPE_HEIGHTFIELD_OPTIONS (terrain_heightfield_options_get_type ())

TERRAIN_AVAILABLE_IN_ALL
GType                      terrain_heightfield_options_get_type (void) G_GNUC_CONST;
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightfieldOptions *terrain_heightfield_options_new      (void);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightfieldOptions *terrain_heightfield_options_copy     (const TerrainHeightfieldOptions *options);
TERRAIN_AVAILABLE_IN_ALL
void                       terrain_heightfield_options_free     (TerrainHeightfieldOptions *options);
TERRAIN_AVAILABLE_IN_ALL
void                       terrain_heightfield_options_init     (TerrainHeightfieldOptions *options);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerrainHeightfieldOptions, terrain_heightfield_options_free)

#define TERRAIN_TYPE_HEIGHTFIELD (terrain_heightfield_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainHeightfield, terrain_heightfield, TERRAIN, HEIGHTFIELD, GObject)

TERRAIN_AVAILABLE_IN_ALL
TerrainHeightfield *terrain_heightfield_new              (guint                       width,
                                                          guint                       height,
                                                          gdouble                     spacing,
                                                          GError                    **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightfield *terrain_heightfield_new_from_data    (guint                       width,
                                                          guint                       height,
                                                          const gfloat               *heights,
                                                          gdouble                     spacing,
                                                          GError                    **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightfield *terrain_heightfield_new_from_image   (TerrainImage               *image,
                                                          TerrainHeightmapFormat      format,
                                                          const TerrainHeightfieldOptions *options,
                                                          GError                    **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightfield *terrain_heightfield_new_from_raw16   (GBytes                     *bytes,
                                                          const TerrainHeightfieldOptions *options,
                                                          GError                    **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightfield *terrain_heightfield_new_from_hgt     (GBytes                     *bytes,
                                                          const TerrainHeightfieldOptions *options,
                                                          GError                    **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightfield *terrain_heightfield_new_from_bytes   (GBytes                     *bytes,
                                                          const char                 *filename,
                                                          const TerrainHeightfieldOptions *options,
                                                          GError                    **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightfield *terrain_heightfield_load             (GFile                      *file,
                                                          const TerrainHeightfieldOptions *options,
                                                          GCancellable               *cancellable,
                                                          GError                    **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightfield *terrain_heightfield_load_tiles       (const char                 *spec,
                                                          const TerrainHeightfieldOptions *options,
                                                          gint                        overlap,
                                                          gboolean                    flip_y,
                                                          const TerrainLimits        *limits,
                                                          GCancellable               *cancellable,
                                                          GError                    **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightmapFormat terrain_heightmap_format_detect   (GBytes                     *bytes,
                                                          const char                 *filename);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightmapFormat terrain_heightmap_format_from_name (const char                *name);

TERRAIN_AVAILABLE_IN_ALL
guint               terrain_heightfield_get_width        (TerrainHeightfield         *self);
TERRAIN_AVAILABLE_IN_ALL
guint               terrain_heightfield_get_height       (TerrainHeightfield         *self);
TERRAIN_AVAILABLE_IN_ALL
void                terrain_heightfield_get_data_size    (TerrainHeightfield         *self,
                                                          guint                      *width,
                                                          guint                      *height);
TERRAIN_AVAILABLE_IN_ALL
gdouble             terrain_heightfield_get_spacing      (TerrainHeightfield         *self);
TERRAIN_AVAILABLE_IN_ALL
void                terrain_heightfield_set_spacing      (TerrainHeightfield         *self,
                                                          gdouble                     spacing);
TERRAIN_AVAILABLE_IN_ALL
gboolean            terrain_heightfield_is_mapped        (TerrainHeightfield         *self);
TERRAIN_AVAILABLE_IN_ALL
gfloat             *terrain_heightfield_get_data         (TerrainHeightfield         *self,
                                                          gsize                      *n_samples);
TERRAIN_AVAILABLE_IN_ALL
gfloat              terrain_heightfield_get_sample       (TerrainHeightfield         *self,
                                                          guint                       x,
                                                          guint                       y);
TERRAIN_AVAILABLE_IN_ALL
void                terrain_heightfield_set_sample       (TerrainHeightfield         *self,
                                                          guint                       x,
                                                          guint                       y,
                                                          gfloat                      z);
TERRAIN_AVAILABLE_IN_ALL
void                terrain_heightfield_read_rect        (TerrainHeightfield         *self,
                                                          guint                       x,
                                                          guint                       y,
                                                          guint                       width,
                                                          guint                       height,
                                                          gfloat                     *dest,
                                                          gsize                       dest_stride);
TERRAIN_AVAILABLE_IN_ALL
gdouble             terrain_heightfield_sample_bilinear  (TerrainHeightfield         *self,
                                                          gdouble                     x,
                                                          gdouble                     y);
TERRAIN_AVAILABLE_IN_ALL
void                terrain_heightfield_get_range        (TerrainHeightfield         *self,
                                                          gfloat                     *min,
                                                          gfloat                     *max);
TERRAIN_AVAILABLE_IN_ALL
gboolean            terrain_heightfield_is_chunkable     (TerrainHeightfield         *self);
TERRAIN_AVAILABLE_IN_ALL
TerrainHeightfield *terrain_heightfield_fit              (TerrainHeightfield         *self,
                                                          TerrainHeightfieldFit       fit,
                                                          GError                    **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainImage       *terrain_heightfield_to_image         (TerrainHeightfield         *self,
                                                          gdouble                     scale,
                                                          gdouble                     offset,
                                                          GError                    **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes             *terrain_heightfield_to_raw16         (TerrainHeightfield         *self,
                                                          gdouble                     scale,
                                                          gdouble                     offset,
                                                          GError                    **error);
TERRAIN_AVAILABLE_IN_ALL
void                terrain_heightfield_get_auto_encoding (TerrainHeightfield        *self,
                                                          gdouble                    *scale,
                                                          gdouble                    *offset);

G_END_DECLS
