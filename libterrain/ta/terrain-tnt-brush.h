/* terrain-tnt-brush.h: height brushes over a TNT attribute grid
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <glib-object.h>

#include "terrain-version.h"
#include "terrain-tnt-map.h"

G_BEGIN_DECLS

/**
 * TerrainTntBrushMode:
 * @TERRAIN_TNT_BRUSH_RAISE: add `strength x weight` height units
 * @TERRAIN_TNT_BRUSH_LOWER: subtract `strength x weight` height units
 * @TERRAIN_TNT_BRUSH_SMOOTH: move each height towards the mean of its 3x3
 *   neighbourhood by `strength x weight` (strength 0..1)
 * @TERRAIN_TNT_BRUSH_FLATTEN: move each height towards the brush's level by
 *   `strength x weight` (strength 0..1)
 * @TERRAIN_TNT_BRUSH_SET: set every height inside the radius to the level
 *   (strength and falloff are ignored)
 *
 * What a [struct@Terrain.TntBrush] does to the heights under it.
 */
typedef enum
{
  TERRAIN_TNT_BRUSH_RAISE,
  TERRAIN_TNT_BRUSH_LOWER,
  TERRAIN_TNT_BRUSH_SMOOTH,
  TERRAIN_TNT_BRUSH_FLATTEN,
  TERRAIN_TNT_BRUSH_SET,
} TerrainTntBrushMode;

/**
 * TerrainTntFalloff:
 * @TERRAIN_TNT_FALLOFF_CONSTANT: weight 1 everywhere inside the radius
 * @TERRAIN_TNT_FALLOFF_LINEAR: weight `1 - d/radius`
 * @TERRAIN_TNT_FALLOFF_SMOOTH: weight `(1 + cos(pi d/radius)) / 2`
 *
 * How a brush's weight falls off with the distance `d` (in cells) from its
 * centre. A brush of radius 0 touches the one cell at its centre with
 * weight 1.
 */
typedef enum
{
  TERRAIN_TNT_FALLOFF_CONSTANT,
  TERRAIN_TNT_FALLOFF_LINEAR,
  TERRAIN_TNT_FALLOFF_SMOOTH,
} TerrainTntFalloff;

/**
 * TERRAIN_TNT_BRUSH_MAX_RADIUS:
 *
 * Largest brush radius in attribute cells.
 */
#define TERRAIN_TNT_BRUSH_MAX_RADIUS 1024.0

/**
 * TerrainTntBrush:
 * @mode: what the brush does
 * @radius: radius in attribute cells, 0..%TERRAIN_TNT_BRUSH_MAX_RADIUS
 * @strength: height units for raise and lower; a blend factor 0..1 for
 *   smooth and flatten (larger values count as 1)
 * @falloff: how the weight falls off towards the edge
 * @level: the target height of flatten and set
 *
 * A height brush over a TNT map's attribute grid (one height per 16x16-pixel
 * cell). Cells whose centre lies within @radius of the dab position are
 * touched; every result is rounded to the nearest integer and clamped to
 * 0..255. Apply it with [ctor@Terrain.TntEdit.new_brush].
 */
typedef struct
{
  TerrainTntBrushMode mode;
  double              radius;
  double              strength;
  TerrainTntFalloff   falloff;
  guint8              level;
} TerrainTntBrush;

#define TERRAIN_TYPE_TNT_BRUSH (terrain_tnt_brush_get_type ())

TERRAIN_AVAILABLE_IN_ALL
GType            terrain_tnt_brush_get_type   (void) G_GNUC_CONST;
TERRAIN_AVAILABLE_IN_ALL
TerrainTntBrush *terrain_tnt_brush_new        (TerrainTntBrushMode     mode,
                                               double                  radius,
                                               double                  strength,
                                               TerrainTntFalloff       falloff,
                                               guint8                  level);
TERRAIN_AVAILABLE_IN_ALL
TerrainTntBrush *terrain_tnt_brush_copy       (const TerrainTntBrush  *brush);
TERRAIN_AVAILABLE_IN_ALL
void             terrain_tnt_brush_free       (TerrainTntBrush        *brush);
TERRAIN_AVAILABLE_IN_ALL
gboolean         terrain_tnt_brush_check      (const TerrainTntBrush  *brush,
                                               GError                **error);
TERRAIN_AVAILABLE_IN_ALL
double           terrain_tnt_brush_get_weight (const TerrainTntBrush  *brush,
                                               double                  distance);
TERRAIN_AVAILABLE_IN_ALL
gboolean         terrain_tnt_brush_reaches_map (const TerrainTntBrush *brush,
                                                TerrainTntMap         *map,
                                                double                 x,
                                                double                 y);
TERRAIN_AVAILABLE_IN_ALL
guint8          *terrain_tnt_brush_evaluate   (const TerrainTntBrush  *brush,
                                               TerrainTntMap          *map,
                                               double                  x,
                                               double                  y,
                                               guint                  *region_x,
                                               guint                  *region_y,
                                               guint                  *region_width,
                                               guint                  *region_height);
TERRAIN_AVAILABLE_IN_ALL
GBytes          *terrain_tnt_brush_evaluate_bytes (const TerrainTntBrush  *brush,
                                                   TerrainTntMap          *map,
                                                   double                  x,
                                                   double                  y,
                                                   guint                  *region_x,
                                                   guint                  *region_y,
                                                   guint                  *region_width,
                                                   guint                  *region_height);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerrainTntBrush, terrain_tnt_brush_free)

G_END_DECLS
