/* terrain-tnt-map.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "core/terrain-document.h"
#include "core/terrain-image.h"
#include "core/terrain-limits.h"
#include "terrain-palette.h"

G_BEGIN_DECLS

/**
 * TERRAIN_TNT_VERSION:
 *
 * Version word of current TNT files.
 */
#define TERRAIN_TNT_VERSION 0x2000
/**
 * TERRAIN_TNT_VERSION_LEGACY:
 *
 * Version word of legacy TNT files (8-byte attribute cells, wind and gravity
 * in the header).
 */
#define TERRAIN_TNT_VERSION_LEGACY 0x1020

/**
 * TERRAIN_TNT_MAX_SEA_LEVEL:
 *
 * The highest sea level libterrain writes: heights are bytes, so a higher
 * level would put every cell under water. The rule is
 * [func@Terrain.TntMap.check_sea_level]; a file's own word is read as it
 * is.
 */
#define TERRAIN_TNT_MAX_SEA_LEVEL 255

/**
 * TERRAIN_TNT_FEATURE_RESERVED:
 *
 * Feature words from this value up are not feature-table indices.
 */
#define TERRAIN_TNT_FEATURE_RESERVED 0xFFFB
/**
 * TERRAIN_TNT_FEATURE_VOID:
 *
 * Feature word authoring a void cell (blocked, not drawn).
 */
#define TERRAIN_TNT_FEATURE_VOID 0xFFFC
/**
 * TERRAIN_TNT_FEATURE_FRINGE:
 *
 * Feature word marking a cell covered by a footprint but not its anchor.
 */
#define TERRAIN_TNT_FEATURE_FRINGE 0xFFFE
/**
 * TERRAIN_TNT_FEATURE_NONE:
 *
 * Feature word of an empty cell.
 */
#define TERRAIN_TNT_FEATURE_NONE 0xFFFF

/**
 * TERRAIN_TNT_CELL_PIXELS:
 *
 * Side of an attribute cell in pixels.
 */
#define TERRAIN_TNT_CELL_PIXELS 16
/**
 * TERRAIN_TNT_TILE_PIXELS:
 *
 * Side of a tile in pixels.
 */
#define TERRAIN_TNT_TILE_PIXELS 32
/**
 * TERRAIN_TNT_TILE_BYTES:
 *
 * Size of one tile's graphics: 32 x 32 palette indices.
 */
#define TERRAIN_TNT_TILE_BYTES 1024
/**
 * TERRAIN_TNT_FEATURE_NAME_BYTES:
 *
 * Size of the name field of a feature record.
 */
#define TERRAIN_TNT_FEATURE_NAME_BYTES 128

/**
 * TerrainTntSection:
 * @TERRAIN_TNT_SECTION_HEADER: the 64-byte header
 * @TERRAIN_TNT_SECTION_TILE_MAP: u16 tile indices, (Width/2) x (Height/2)
 * @TERRAIN_TNT_SECTION_ATTRIBUTES: attribute cells, Width x Height (4 bytes
 *   each, 8 in legacy files)
 * @TERRAIN_TNT_SECTION_TILES: tile graphics, Tiles x 1024 bytes
 * @TERRAIN_TNT_SECTION_FEATURES: feature records, TileAnims x 132 bytes
 * @TERRAIN_TNT_SECTION_MINIMAP: u32 width, u32 height, pixels
 *
 * The sections of a TNT file (tnt-sct.md, "Format at a glance"), in the
 * canonical order the writer uses when it has to lay the file out anew.
 */
typedef enum
{
  TERRAIN_TNT_SECTION_HEADER,
  TERRAIN_TNT_SECTION_TILE_MAP,
  TERRAIN_TNT_SECTION_ATTRIBUTES,
  TERRAIN_TNT_SECTION_TILES,
  TERRAIN_TNT_SECTION_FEATURES,
  TERRAIN_TNT_SECTION_MINIMAP,
} TerrainTntSection;

/**
 * TerrainTntFootprintFunc:
 * @name: a feature name from the feature table
 * @footprint_x: (out): footprint width in attribute cells
 * @footprint_z: (out): footprint height in attribute cells
 * @user_data: user data
 *
 * Looks up a feature's footprint (the TDF keys `footprintx` and
 * `footprintz`). Names match case-insensitively.
 *
 * Returns: %TRUE if the feature is known; unknown features count as 1x1
 */
typedef gboolean (*TerrainTntFootprintFunc) (const char *name,
                                             guint      *footprint_x,
                                             guint      *footprint_z,
                                             gpointer    user_data);

/**
 * TerrainTntPlacement:
 * @x: column of the anchor cell (the footprint's top-left corner)
 * @y: row of the anchor cell
 * @feature: the feature-table index stored in the anchor cell
 *
 * One feature placed on a map, see
 * [method@Terrain.TntMap.list_placements].
 */
typedef struct
{
  guint   x;
  guint   y;
  guint16 feature;
} TerrainTntPlacement;

#define TERRAIN_TYPE_TNT_MAP (terrain_tnt_map_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainTntMap, terrain_tnt_map, TERRAIN, TNT_MAP, TerrainDocument)

TERRAIN_AVAILABLE_IN_ALL
TerrainTntMap *terrain_tnt_map_new                (guint                  width,
                                                   guint                  height,
                                                   GError               **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainTntMap *terrain_tnt_map_new_from_bytes     (GBytes                *bytes,
                                                   const TerrainLimits   *limits,
                                                   GError               **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainTntMap *terrain_tnt_map_new_from_file      (GFile                 *file,
                                                   const TerrainLimits   *limits,
                                                   GCancellable          *cancellable,
                                                   GError               **error);

/* Header */
TERRAIN_AVAILABLE_IN_ALL
guint32        terrain_tnt_map_get_version        (TerrainTntMap         *self);
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_tnt_map_get_width          (TerrainTntMap         *self);
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_tnt_map_get_height         (TerrainTntMap         *self);
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_tnt_map_get_tile_columns   (TerrainTntMap         *self);
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_tnt_map_get_tile_rows      (TerrainTntMap         *self);
TERRAIN_AVAILABLE_IN_ALL
guint32        terrain_tnt_map_get_header_word    (TerrainTntMap         *self,
                                                   guint                  index);
TERRAIN_AVAILABLE_IN_ALL
guint32        terrain_tnt_map_get_sea_level      (TerrainTntMap         *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_tnt_map_set_sea_level      (TerrainTntMap         *self,
                                                   guint32                sea_level,
                                                   GError               **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_tnt_map_check_sea_level    (guint32                sea_level,
                                                   GError               **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_tnt_map_get_section_span   (TerrainTntMap         *self,
                                                   TerrainTntSection      section,
                                                   gsize                 *offset,
                                                   gsize                 *size);

/* Attribute grid */
TERRAIN_AVAILABLE_IN_ALL
guint8         terrain_tnt_map_get_cell_height    (TerrainTntMap         *self,
                                                   guint                  x,
                                                   guint                  y);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_tnt_map_set_cell_height    (TerrainTntMap         *self,
                                                   guint                  x,
                                                   guint                  y,
                                                   guint8                 height);
TERRAIN_AVAILABLE_IN_ALL
guint16        terrain_tnt_map_get_cell_feature   (TerrainTntMap         *self,
                                                   guint                  x,
                                                   guint                  y);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_tnt_map_set_cell_feature   (TerrainTntMap         *self,
                                                   guint                  x,
                                                   guint                  y,
                                                   guint16                feature,
                                                   GError               **error);
TERRAIN_AVAILABLE_IN_ALL
guint8         terrain_tnt_map_get_cell_extra     (TerrainTntMap         *self,
                                                   guint                  x,
                                                   guint                  y);
TERRAIN_AVAILABLE_IN_ALL
guint8         terrain_tnt_map_get_cell_metal     (TerrainTntMap         *self,
                                                   guint                  x,
                                                   guint                  y);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_tnt_map_get_legacy_header  (TerrainTntMap         *self,
                                                   guint32               *min_wind,
                                                   guint32               *max_wind,
                                                   guint32               *gravity);

/* Tiles */
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_tnt_map_get_n_tiles        (TerrainTntMap         *self);
TERRAIN_AVAILABLE_IN_ALL
const guint8  *terrain_tnt_map_get_tile           (TerrainTntMap         *self,
                                                   guint                  index);
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_tnt_map_add_tile           (TerrainTntMap         *self,
                                                   const guint8          *pixels);
TERRAIN_AVAILABLE_IN_ALL
guint16        terrain_tnt_map_get_tile_index     (TerrainTntMap         *self,
                                                   guint                  column,
                                                   guint                  row);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_tnt_map_set_tile_index     (TerrainTntMap         *self,
                                                   guint                  column,
                                                   guint                  row,
                                                   guint16                tile);

/* Feature table */
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_tnt_map_get_n_features     (TerrainTntMap         *self);
TERRAIN_AVAILABLE_IN_ALL
const char    *terrain_tnt_map_get_feature_name   (TerrainTntMap         *self,
                                                   guint                  index);
TERRAIN_AVAILABLE_IN_ALL
guint32        terrain_tnt_map_get_feature_record_index (TerrainTntMap   *self,
                                                         guint            index);
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_tnt_map_add_feature_name   (TerrainTntMap         *self,
                                                   const char            *name);

/* Minimap */
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_tnt_map_get_minimap_present (TerrainTntMap        *self);
TERRAIN_AVAILABLE_IN_ALL
const guint8  *terrain_tnt_map_get_minimap        (TerrainTntMap         *self,
                                                   guint                 *width,
                                                   guint                 *height);
TERRAIN_AVAILABLE_IN_ALL
GBytes        *terrain_tnt_map_get_minimap_bytes  (TerrainTntMap         *self,
                                                   guint                 *width,
                                                   guint                 *height);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_tnt_map_get_minimap_used_size (TerrainTntMap      *self,
                                                      guint              *width,
                                                      guint              *height);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_tnt_map_get_minimap_crop   (TerrainTntMap         *self,
                                                   guint                  stored_width,
                                                   guint                  stored_height,
                                                   guint                 *used_width,
                                                   guint                 *used_height);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_tnt_map_set_minimap        (TerrainTntMap         *self,
                                                   guint                  width,
                                                   guint                  height,
                                                   const guint8          *pixels,
                                                   GError               **error);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_tnt_map_update_minimap     (TerrainTntMap         *self,
                                                   TerrainPalette        *palette);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_tnt_map_get_play_area      (TerrainTntMap         *self,
                                                   guint                 *width,
                                                   guint                 *height);

/* Rendering */
TERRAIN_AVAILABLE_IN_ALL
TerrainImage  *terrain_tnt_map_render             (TerrainTntMap         *self,
                                                   TerrainPalette        *palette,
                                                   GError               **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainImage  *terrain_tnt_map_render_minimap     (TerrainTntMap         *self,
                                                   TerrainPalette        *palette,
                                                   gboolean               crop,
                                                   GError               **error);

/* Bulk edits */
TERRAIN_AVAILABLE_IN_ALL
void           terrain_tnt_map_set_heights        (TerrainTntMap         *self,
                                                   guint                  x,
                                                   guint                  y,
                                                   guint                  width,
                                                   guint                  height,
                                                   const guint8          *heights,
                                                   gsize                  stride);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_tnt_map_set_tile           (TerrainTntMap         *self,
                                                   guint                  index,
                                                   const guint8          *pixels);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_tnt_map_set_tiles          (TerrainTntMap         *self,
                                                   const guint8          *pixels,
                                                   guint                  n_tiles,
                                                   GError               **error);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_tnt_map_set_tile_map       (TerrainTntMap         *self,
                                                   const guint16         *entries);
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_tnt_map_find_tile          (TerrainTntMap         *self,
                                                   const guint8          *pixels);
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_tnt_map_find_feature       (TerrainTntMap         *self,
                                                   const char            *name);
TERRAIN_AVAILABLE_IN_ALL
GArray        *terrain_tnt_map_list_placements    (TerrainTntMap         *self);
TERRAIN_AVAILABLE_IN_ALL
void           terrain_tnt_map_remove_feature     (TerrainTntMap         *self,
                                                   guint                  index);
TERRAIN_AVAILABLE_IN_ALL
guint          terrain_tnt_map_remove_unused_features (TerrainTntMap     *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean       terrain_tnt_map_resize             (TerrainTntMap         *self,
                                                   gint                   left,
                                                   gint                   top,
                                                   gint                   right,
                                                   gint                   bottom,
                                                   guint8                 fill_height,
                                                   guint16                fill_tile,
                                                   GError               **error);

/* Footprints */
TERRAIN_AVAILABLE_IN_ALL
guint16       *terrain_tnt_map_build_occupancy    (TerrainTntMap         *self,
                                                   TerrainTntFootprintFunc footprint_func,
                                                   gpointer               user_data,
                                                   guint16              **owners,
                                                   GPtrArray             *issues);
TERRAIN_AVAILABLE_IN_ALL
guint16       *terrain_tnt_map_build_occupancy_grid (TerrainTntMap       *self,
                                                   TerrainTntFootprintFunc footprint_func,
                                                   gpointer               user_data,
                                                   gsize                 *n_cells,
                                                   guint16              **owners,
                                                   GPtrArray            **issues);

G_END_DECLS
