/* terrain-feature-sprites.h: features' GAF sprites through the palette
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <gio/gio.h>

#include "terrain-version.h"
#include "core/terrain-image.h"
#include "terrain-feature-catalog.h"
#include "terrain-game-files.h"
#include "terrain-palette.h"
#include "terrain-tnt-map.h"

G_BEGIN_DECLS

#define TERRAIN_TYPE_FEATURE_SPRITE (terrain_feature_sprite_get_type ())

/**
 * TerrainFeatureSprite:
 *
 * A feature's picture as the game draws it on the map: the first frame of
 * the `seqname` entry of `anims/<filename>.gaf` through the palette, and
 * the frame's origin (docs/formats/ta-files.md, "Map preview").
 * Immutable.
 */
typedef struct _TerrainFeatureSprite TerrainFeatureSprite;

TERRAIN_AVAILABLE_IN_ALL
GType                 terrain_feature_sprite_get_type      (void) G_GNUC_CONST;
TERRAIN_AVAILABLE_IN_ALL
TerrainFeatureSprite *terrain_feature_sprite_ref           (TerrainFeatureSprite       *sprite);
TERRAIN_AVAILABLE_IN_ALL
void                  terrain_feature_sprite_unref         (TerrainFeatureSprite       *sprite);
TERRAIN_AVAILABLE_IN_ALL
TerrainImage         *terrain_feature_sprite_get_image     (const TerrainFeatureSprite *sprite);
TERRAIN_AVAILABLE_IN_ALL
void                  terrain_feature_sprite_get_origin    (const TerrainFeatureSprite *sprite,
                                                            gint                       *x,
                                                            gint                       *y);
TERRAIN_AVAILABLE_IN_ALL
void                  terrain_feature_sprite_get_footprint (const TerrainFeatureSprite *sprite,
                                                            guint                      *footprint_x,
                                                            guint                      *footprint_z);
TERRAIN_AVAILABLE_IN_ALL
const char           *terrain_feature_sprite_get_path      (const TerrainFeatureSprite *sprite);
TERRAIN_AVAILABLE_IN_ALL
const char           *terrain_feature_sprite_get_entry     (const TerrainFeatureSprite *sprite);
TERRAIN_AVAILABLE_IN_ALL
void                  terrain_feature_sprite_get_position  (const TerrainFeatureSprite *sprite,
                                                            TerrainTntMap              *map,
                                                            guint                       x,
                                                            guint                       y,
                                                            gint                       *left,
                                                            gint                       *top);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerrainFeatureSprite, terrain_feature_sprite_unref)

#define TERRAIN_TYPE_FEATURE_SPRITES (terrain_feature_sprites_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainFeatureSprites, terrain_feature_sprites, TERRAIN, FEATURE_SPRITES, GObject)

TERRAIN_AVAILABLE_IN_ALL
TerrainFeatureSprites *terrain_feature_sprites_new    (TerrainGameFiles      *files,
                                                       TerrainFeatureCatalog *catalog,
                                                       TerrainPalette        *palette);
TERRAIN_AVAILABLE_IN_ALL
TerrainFeatureSprite  *terrain_feature_sprites_lookup (TerrainFeatureSprites *self,
                                                       const char            *name,
                                                       GError               **error);

G_END_DECLS
