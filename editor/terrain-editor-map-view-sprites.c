/* terrain-editor-map-view-sprites.c: features drawn as their GAF sprites
 *
 * With the game's feature sprites known (a #TerrainFeatureSprites from the
 * application: the catalogue's GAFs through the palette), each placed
 * feature is drawn as its sprite where the game draws it
 * (terrain_feature_sprite_get_position()), one texture node a feature
 * over the picture and under the Cairo overlays. A feature without a
 * sprite keeps its footprint mark (terrain-editor-map-view-overlays.c).
 * The feature the Features tool would place is drawn translucent.
 * The textures are made once per feature name and kept until the sprites
 * change.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-map-view-private.h"

#include <math.h>

struct _MapViewSprite
{
  TerrainFeatureSprite *sprite;
  GdkTexture *texture;
};

static void
map_view_sprite_free (gpointer data)
{
  MapViewSprite *sprite = data;

  if (sprite == NULL)
    return;
  terrain_feature_sprite_unref (sprite->sprite);
  g_object_unref (sprite->texture);
  g_free (sprite);
}

/* An RGBA8 image as a texture (the sprites, the section palette's
 * thumbnails, the Atlas tool's texture). */
GdkTexture *
terrain_editor_texture_new_for_image (TerrainImage *image)
{
  guint width = terrain_image_get_width (image);
  guint height = terrain_image_get_height (image);
  gsize stride = terrain_image_get_stride (image);
  g_autoptr(GBytes) bytes = g_bytes_new (terrain_image_get_data (image, NULL), stride * height);

  /* The library's RGBA is not premultiplied. */
  return gdk_memory_texture_new ((int) width, (int) height, GDK_MEMORY_R8G8B8A8, bytes, stride);
}

/* The sprite of the feature @name, made the first time it is asked for,
 * or NULL when it has none (no sprites, no definition, no GAF). */
const MapViewSprite *
map_view_feature_sprite (TerrainEditorMapView *self,
                         const char           *name)
{
  g_autofree char *key = NULL;
  g_autoptr(TerrainFeatureSprite) sprite = NULL;
  MapViewSprite *cached;
  gpointer found;

  if (self->sprites == NULL || name == NULL)
    return NULL;
  key = g_ascii_strdown (name, -1);
  if (g_hash_table_lookup_extended (self->sprite_textures, key, NULL, &found))
    return found;

  sprite = terrain_feature_sprites_lookup (self->sprites, name, NULL);
  cached = NULL;
  if (sprite != NULL && terrain_image_get_width (terrain_feature_sprite_get_image (sprite)) > 0)
    {
      cached = g_new0 (MapViewSprite, 1);
      cached->texture = terrain_editor_texture_new_for_image (terrain_feature_sprite_get_image (sprite));
      cached->sprite = g_steal_pointer (&sprite);
    }
  g_hash_table_insert (self->sprite_textures, g_steal_pointer (&key), cached);
  return cached;
}

void
map_view_clear_sprites (TerrainEditorMapView *self)
{
  g_clear_object (&self->sprites);
  g_clear_pointer (&self->sprite_textures, g_hash_table_unref);
}

/* Each placed feature with a sprite, in row order (nearer features cover
 * farther ones), on the picture as the view shows it: @h, @v the scroll
 * offsets, @scale screen pixels a cell. */
void
map_view_snapshot_sprites (TerrainEditorMapView *self,
                           GtkSnapshot          *snapshot,
                           TerrainTntMap        *map,
                           double                h,
                           double                v,
                           double                scale,
                           int                   width,
                           int                   height)
{
  /* Screen pixels a map pixel. */
  double k = scale / TERRAIN_TNT_CELL_PIXELS;

  if (self->sprites == NULL)
    return;
  map_view_ensure_features (self);
  for (guint i = 0; i < self->placements->len; i++)
    {
      const TerrainTntPlacement *p = &g_array_index (self->placements, TerrainTntPlacement, i);
      const MapViewSprite *sprite = map_view_feature_sprite (self, terrain_tnt_map_get_feature_name (map, p->feature));
      int left, top;
      double x, y, w, hh;

      if (sprite == NULL)
        continue;
      terrain_feature_sprite_get_position (sprite->sprite, map, p->x, p->y, &left, &top);
      x = left * k - h;
      y = top * k - v;
      w = gdk_texture_get_width (sprite->texture) * k;
      hh = gdk_texture_get_height (sprite->texture) * k;
      if (x + w < 0 || y + hh < 0 || x > width || y > height)
        continue;
      gtk_snapshot_append_texture (snapshot, sprite->texture, &GRAPHENE_RECT_INIT (x, y, w, hh));
    }

  /* The feature the Features tool would place, translucent. */
  if (self->placement_name != NULL && self->placement_x >= 0 && self->placement_y >= 0)
    {
      const MapViewSprite *sprite = map_view_feature_sprite (self, self->placement_name);
      int left, top;

      if (sprite == NULL)
        return;
      terrain_feature_sprite_get_position (sprite->sprite, map, self->placement_x, self->placement_y, &left, &top);
      gtk_snapshot_push_opacity (snapshot, 0.6);
      gtk_snapshot_append_texture (snapshot, sprite->texture,
                                   &GRAPHENE_RECT_INIT (left * k - h, top * k - v,
                                                        gdk_texture_get_width (sprite->texture) * k,
                                                        gdk_texture_get_height (sprite->texture) * k));
      gtk_snapshot_pop (snapshot);
    }
}

/**
 * terrain_editor_map_view_set_sprites:
 * @self: a map view
 * @sprites: (nullable): the features' sprites, or %NULL to draw every
 *   feature as its footprint
 *
 * Draws the placed features as their GAF sprites where @sprites has one.
 */
void
terrain_editor_map_view_set_sprites (TerrainEditorMapView  *self,
                                     TerrainFeatureSprites *sprites)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self));

  if (sprites == self->sprites)
    return;
  map_view_clear_sprites (self);
  if (sprites != NULL)
    {
      self->sprites = g_object_ref (sprites);
      self->sprite_textures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, map_view_sprite_free);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * terrain_editor_map_view_has_sprite:
 * @self: a map view
 * @name: a feature name
 *
 * Returns: whether the view draws the feature @name as its sprite
 */
gboolean
terrain_editor_map_view_has_sprite (TerrainEditorMapView *self,
                                    const char           *name)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self), FALSE);
  return map_view_feature_sprite (self, name) != NULL;
}

/**
 * terrain_editor_map_view_get_sprite_texture:
 * @self: a map view
 * @name: a feature name
 *
 * Returns: (transfer none) (nullable): the texture the view draws the
 *   feature @name with, or %NULL when it has no sprite
 */
GdkTexture *
terrain_editor_map_view_get_sprite_texture (TerrainEditorMapView *self,
                                            const char           *name)
{
  const MapViewSprite *sprite;

  g_return_val_if_fail (TERRAIN_EDITOR_IS_MAP_VIEW (self), NULL);
  sprite = map_view_feature_sprite (self, name);
  return sprite != NULL ? sprite->texture : NULL;
}
