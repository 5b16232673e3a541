/* terrain-tnt-edit.h: undoable edits of a TNT map
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "core/terrain-command.h"
#include "terrain-sct-section.h"
#include "terrain-tnt-brush.h"
#include "terrain-tnt-map.h"

G_BEGIN_DECLS

/**
 * TerrainTntEditKind:
 * @TERRAIN_TNT_EDIT_SEA_LEVEL: set the sea level
 * @TERRAIN_TNT_EDIT_BRUSH: one dab of a height brush
 * @TERRAIN_TNT_EDIT_PLACE_FEATURE: place a feature (adds its record when the
 *   table lacks the name)
 * @TERRAIN_TNT_EDIT_MOVE_FEATURE: move a placed feature
 * @TERRAIN_TNT_EDIT_REMOVE_FEATURE: remove a placed feature (its record
 *   stays)
 * @TERRAIN_TNT_EDIT_CLEANUP_FEATURES: drop the records no cell names
 * @TERRAIN_TNT_EDIT_VOID: mark or unmark void cells (0xFFFC)
 * @TERRAIN_TNT_EDIT_PAINT_TILES: set the tile index of 32x32 positions
 * @TERRAIN_TNT_EDIT_RESIZE: add or remove cells on any side
 * @TERRAIN_TNT_EDIT_STAMP_SECTION: stamp an SCT section's tiles and heights
 * @TERRAIN_TNT_EDIT_IMPORT_IMAGE: replace the tile set from an image
 * @TERRAIN_TNT_EDIT_IMPORT_HEIGHTMAP: replace the heights from a heightmap
 * @TERRAIN_TNT_EDIT_MINIMAP: regenerate the minimap from the tiles
 *
 * The kinds of [class@Terrain.TntEdit].
 */
typedef enum
{
  TERRAIN_TNT_EDIT_SEA_LEVEL,
  TERRAIN_TNT_EDIT_BRUSH,
  TERRAIN_TNT_EDIT_PLACE_FEATURE,
  TERRAIN_TNT_EDIT_MOVE_FEATURE,
  TERRAIN_TNT_EDIT_REMOVE_FEATURE,
  TERRAIN_TNT_EDIT_CLEANUP_FEATURES,
  TERRAIN_TNT_EDIT_VOID,
  TERRAIN_TNT_EDIT_PAINT_TILES,
  TERRAIN_TNT_EDIT_RESIZE,
  TERRAIN_TNT_EDIT_STAMP_SECTION,
  TERRAIN_TNT_EDIT_IMPORT_IMAGE,
  TERRAIN_TNT_EDIT_IMPORT_HEIGHTMAP,
  TERRAIN_TNT_EDIT_MINIMAP,
} TerrainTntEditKind;

#define TERRAIN_TYPE_TNT_EDIT (terrain_tnt_edit_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainTntEdit, terrain_tnt_edit, TERRAIN, TNT_EDIT, TerrainCommand)

TERRAIN_AVAILABLE_IN_ALL
TerrainCommand     *terrain_tnt_edit_new_sea_level        (TerrainTntMap           *map,
                                                           guint32                  sea_level);
TERRAIN_AVAILABLE_IN_ALL
TerrainCommand     *terrain_tnt_edit_new_brush            (TerrainTntMap           *map,
                                                           const TerrainTntBrush   *brush,
                                                           double                   x,
                                                           double                   y,
                                                           guint                    stroke);
TERRAIN_AVAILABLE_IN_ALL
TerrainCommand     *terrain_tnt_edit_new_place_feature    (TerrainTntMap           *map,
                                                           const char              *name,
                                                           guint                    x,
                                                           guint                    y,
                                                           TerrainTntFootprintFunc  footprint_func,
                                                           gpointer                 user_data,
                                                           GDestroyNotify           destroy);
TERRAIN_AVAILABLE_IN_ALL
TerrainCommand     *terrain_tnt_edit_new_move_feature     (TerrainTntMap           *map,
                                                           guint                    x,
                                                           guint                    y,
                                                           guint                    new_x,
                                                           guint                    new_y,
                                                           TerrainTntFootprintFunc  footprint_func,
                                                           gpointer                 user_data,
                                                           GDestroyNotify           destroy);
TERRAIN_AVAILABLE_IN_ALL
TerrainCommand     *terrain_tnt_edit_new_remove_feature   (TerrainTntMap           *map,
                                                           guint                    x,
                                                           guint                    y,
                                                           TerrainTntFootprintFunc  footprint_func,
                                                           gpointer                 user_data,
                                                           GDestroyNotify           destroy);
TERRAIN_AVAILABLE_IN_ALL
TerrainCommand     *terrain_tnt_edit_new_cleanup_features (TerrainTntMap           *map);
TERRAIN_AVAILABLE_IN_ALL
TerrainCommand     *terrain_tnt_edit_new_void             (TerrainTntMap           *map,
                                                           guint                    x,
                                                           guint                    y,
                                                           guint                    width,
                                                           guint                    height,
                                                           gboolean                 mark);
TERRAIN_AVAILABLE_IN_ALL
TerrainCommand     *terrain_tnt_edit_new_paint_tiles      (TerrainTntMap           *map,
                                                           guint                    column,
                                                           guint                    row,
                                                           guint                    columns,
                                                           guint                    rows,
                                                           guint16                  tile);
TERRAIN_AVAILABLE_IN_ALL
TerrainCommand     *terrain_tnt_edit_new_resize           (TerrainTntMap           *map,
                                                           gint                     left,
                                                           gint                     top,
                                                           gint                     right,
                                                           gint                     bottom,
                                                           guint8                   fill_height,
                                                           guint16                  fill_tile);
TERRAIN_AVAILABLE_IN_ALL
TerrainCommand     *terrain_tnt_edit_new_stamp_section    (TerrainTntMap           *map,
                                                           TerrainSctSection       *section,
                                                           gint                     column,
                                                           gint                     row);

TERRAIN_AVAILABLE_IN_ALL
TerrainTntEditKind  terrain_tnt_edit_get_kind             (TerrainTntEdit          *self);
TERRAIN_AVAILABLE_IN_ALL
TerrainTntMap      *terrain_tnt_edit_get_map              (TerrainTntEdit          *self);
TERRAIN_AVAILABLE_IN_ALL
const char         *terrain_tnt_edit_get_report           (TerrainTntEdit          *self);
TERRAIN_AVAILABLE_IN_ALL
GPtrArray          *terrain_tnt_edit_get_issues           (TerrainTntEdit          *self);
TERRAIN_AVAILABLE_IN_ALL
guint               terrain_tnt_edit_get_n_changed_cells  (TerrainTntEdit          *self);

G_END_DECLS
