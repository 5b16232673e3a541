/* terrain-feature-sprites.c: features' GAF sprites through the palette
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-feature-sprites-private.h"
#include "terrain-gaf-archive.h"
#include "core/terrain-error.h"

/*
 * A feature's sprite is kbot's (coreprime/kbot,
 * `internal/tntpreview/preview.go`): the first frame of the entry its TDF
 * names with `seqname` in `anims/<filename>.gaf` (the first entry when
 * `seqname` names none), drawn with the frame's origin on the feature's
 * anchor; a frame whose origin is (0, 0) is placed by its bottom centre.
 * The anchor is the centre of the footprint, lifted by half the ground
 * height at the anchor cell as the game's oblique view does:
 *
 *   x = cell_x * 16 + footprint_x * 8
 *   y = cell_y * 16 + footprint_z * 8 - height / 2
 */

struct _TerrainFeatureSprite
{
  TerrainImage *image;
  gint origin_x;
  gint origin_y;
  guint footprint_x;
  guint footprint_z;
  char *path;
  char *entry;
};

G_DEFINE_BOXED_TYPE (TerrainFeatureSprite, terrain_feature_sprite,
                     terrain_feature_sprite_ref, terrain_feature_sprite_unref)

/* A lookup's outcome, kept per folded feature name: a sprite or the error. */
typedef struct
{
  TerrainFeatureSprite *sprite;
  GError *error;
} Result;

struct _TerrainFeatureSprites
{
  GObject parent_instance;

  TerrainGameFiles *files;
  TerrainFeatureCatalog *catalog;
  TerrainPalette *palette;
  GMutex lock;
  GHashTable *gafs;     /* folded GAF path -> TerrainGafArchive, or NULL and an error */
  GHashTable *results;  /* folded feature name -> Result */
};

/**
 * TerrainFeatureSprites:
 *
 * The sprites of the features of a [class@Terrain.FeatureCatalog], read
 * from the GAF files of a [class@Terrain.GameFiles] and drawn through a
 * palette, each GAF read once and each feature's sprite made once (a
 * failure too is remembered). [method@Terrain.TntMap.render_preview]
 * draws with it; the editor keeps one while the game files, catalogue
 * and palette stay the same. Lookups may come from several threads.
 */
G_DEFINE_FINAL_TYPE (TerrainFeatureSprites, terrain_feature_sprites, G_TYPE_OBJECT)

static void
terrain_feature_sprite_finalize (TerrainFeatureSprite *sprite)
{
  g_clear_pointer (&sprite->image, terrain_image_unref);
  g_free (sprite->path);
  g_free (sprite->entry);
}

/**
 * terrain_feature_sprite_ref:
 * @sprite: a #TerrainFeatureSprite
 *
 * Takes a reference on @sprite.
 *
 * Returns: (transfer full): @sprite
 */
TerrainFeatureSprite *
terrain_feature_sprite_ref (TerrainFeatureSprite *sprite)
{
  g_return_val_if_fail (sprite != NULL, NULL);
  return g_atomic_rc_box_acquire (sprite);
}

/**
 * terrain_feature_sprite_unref:
 * @sprite: (transfer full): a #TerrainFeatureSprite
 *
 * Drops a reference on @sprite.
 */
void
terrain_feature_sprite_unref (TerrainFeatureSprite *sprite)
{
  g_return_if_fail (sprite != NULL);
  g_atomic_rc_box_release_full (sprite, (GDestroyNotify) terrain_feature_sprite_finalize);
}

/**
 * terrain_feature_sprite_get_image:
 * @sprite: a sprite
 *
 * Gets the picture: RGBA, 8 bits a channel, not premultiplied; the frame's
 * transparency index fully transparent, every other pixel opaque
 * ([method@Terrain.GafArchive.render_frame]). One pixel is one map pixel
 * (a cell is [const@Terrain.TNT_CELL_PIXELS] pixels wide).
 *
 * Returns: (transfer none): the picture
 */
TerrainImage *
terrain_feature_sprite_get_image (const TerrainFeatureSprite *sprite)
{
  g_return_val_if_fail (sprite != NULL, NULL);
  return sprite->image;
}

/**
 * terrain_feature_sprite_get_origin:
 * @sprite: a sprite
 * @x: (out) (optional): the origin's column in the picture, pixels from its
 *   left edge (may lie outside it)
 * @y: (out) (optional): the origin's row, pixels from its top edge
 *
 * Gets the point of the picture that goes on the feature's anchor: the
 * frame's x and y offsets, or the picture's bottom centre when both are 0.
 */
void
terrain_feature_sprite_get_origin (const TerrainFeatureSprite *sprite,
                                   gint                       *x,
                                   gint                       *y)
{
  g_return_if_fail (sprite != NULL);
  if (x != NULL)
    *x = sprite->origin_x;
  if (y != NULL)
    *y = sprite->origin_y;
}

/**
 * terrain_feature_sprite_get_footprint:
 * @sprite: a sprite
 * @footprint_x: (out) (optional): the feature's footprint width, cells
 *   (1 to [const@Terrain.FEATURE_MAX_FOOTPRINT])
 * @footprint_z: (out) (optional): its height, cells
 *
 * Gets the footprint of the feature the sprite was made for, as its
 * definition gives it.
 */
void
terrain_feature_sprite_get_footprint (const TerrainFeatureSprite *sprite,
                                      guint                      *footprint_x,
                                      guint                      *footprint_z)
{
  g_return_if_fail (sprite != NULL);
  if (footprint_x != NULL)
    *footprint_x = sprite->footprint_x;
  if (footprint_z != NULL)
    *footprint_z = sprite->footprint_z;
}

/**
 * terrain_feature_sprite_get_path:
 * @sprite: a sprite
 *
 * Gets the game path of the GAF the sprite was read from, such as
 * `anims/trees.gaf` (lower case), for people.
 *
 * Returns: (transfer none): the path
 */
const char *
terrain_feature_sprite_get_path (const TerrainFeatureSprite *sprite)
{
  g_return_val_if_fail (sprite != NULL, NULL);
  return sprite->path;
}

/**
 * terrain_feature_sprite_get_entry:
 * @sprite: a sprite
 *
 * Gets the name of the GAF entry whose first frame the sprite is.
 *
 * Returns: (transfer none): the entry's name
 */
const char *
terrain_feature_sprite_get_entry (const TerrainFeatureSprite *sprite)
{
  g_return_val_if_fail (sprite != NULL, NULL);
  return sprite->entry;
}

/**
 * terrain_feature_sprite_get_position:
 * @sprite: a sprite
 * @map: the map the feature is placed on
 * @x: the feature's anchor cell (the top-left cell of its footprint)
 * @y: its row
 * @left: (out): where the picture's left edge goes, map pixels
 * @top: (out): where its top edge goes, map pixels
 *
 * Places the picture of a feature anchored at (@x, @y) on @map as the
 * game draws it: its origin on the centre of the footprint, lifted by half
 * the ground height at the anchor cell (0 off the map).
 */
void
terrain_feature_sprite_get_position (const TerrainFeatureSprite *sprite,
                                     TerrainTntMap              *map,
                                     guint                       x,
                                     guint                       y,
                                     gint                       *left,
                                     gint                       *top)
{
  gint ax, ay;

  g_return_if_fail (sprite != NULL);
  g_return_if_fail (TERRAIN_IS_TNT_MAP (map));
  g_return_if_fail (left != NULL && top != NULL);

  terrain_feature_anchor (map, x, y, sprite->footprint_x, sprite->footprint_z, &ax, &ay);
  *left = ax - sprite->origin_x;
  *top = ay - sprite->origin_y;
}

void
terrain_feature_anchor (TerrainTntMap *map,
                        guint          x,
                        guint          y,
                        guint          footprint_x,
                        guint          footprint_z,
                        gint          *anchor_x,
                        gint          *anchor_y)
{
  gint height = 0;

  if (x < terrain_tnt_map_get_width (map) && y < terrain_tnt_map_get_height (map))
    height = terrain_tnt_map_get_cell_height (map, x, y);
  *anchor_x = (gint) x * TERRAIN_TNT_CELL_PIXELS + (gint) footprint_x * TERRAIN_TNT_CELL_PIXELS / 2;
  *anchor_y = (gint) y * TERRAIN_TNT_CELL_PIXELS + (gint) footprint_z * TERRAIN_TNT_CELL_PIXELS / 2 - height / 2;
}

static void
result_free (gpointer data)
{
  Result *result = data;

  g_clear_pointer (&result->sprite, terrain_feature_sprite_unref);
  g_clear_error (&result->error);
  g_free (result);
}

typedef struct
{
  TerrainGafArchive *gaf;
  GError *error;
} GafResult;

static void
gaf_result_free (gpointer data)
{
  GafResult *result = data;

  g_clear_object (&result->gaf);
  g_clear_error (&result->error);
  g_free (result);
}

static void
terrain_feature_sprites_finalize (GObject *object)
{
  TerrainFeatureSprites *self = TERRAIN_FEATURE_SPRITES (object);

  g_clear_object (&self->files);
  g_clear_object (&self->catalog);
  g_clear_pointer (&self->palette, terrain_palette_unref);
  g_hash_table_unref (self->gafs);
  g_hash_table_unref (self->results);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (terrain_feature_sprites_parent_class)->finalize (object);
}

static void
terrain_feature_sprites_class_init (TerrainFeatureSpritesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = terrain_feature_sprites_finalize;
}

static void
terrain_feature_sprites_init (TerrainFeatureSprites *self)
{
  g_mutex_init (&self->lock);
  self->gafs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, gaf_result_free);
  self->results = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, result_free);
}

/**
 * terrain_feature_sprites_new:
 * @files: (nullable): the game's files, for the GAFs under `anims/`; with
 *   %NULL every lookup fails with %G_IO_ERROR_NOT_FOUND
 * @catalog: the feature definitions (`filename`, `seqname`, footprint)
 * @palette: the palette the GAF frames index (the game's `PALETTE.PAL`)
 *
 * Makes a sprite source for the features of @catalog. It keeps references
 * on its arguments and reads them as they are when a sprite is first
 * looked up: make a new one when any of them changes.
 *
 * Returns: (transfer full): a new #TerrainFeatureSprites
 */
TerrainFeatureSprites *
terrain_feature_sprites_new (TerrainGameFiles      *files,
                             TerrainFeatureCatalog *catalog,
                             TerrainPalette        *palette)
{
  TerrainFeatureSprites *self;

  g_return_val_if_fail (files == NULL || TERRAIN_IS_GAME_FILES (files), NULL);
  g_return_val_if_fail (TERRAIN_IS_FEATURE_CATALOG (catalog), NULL);
  g_return_val_if_fail (palette != NULL, NULL);

  self = g_object_new (TERRAIN_TYPE_FEATURE_SPRITES, NULL);
  self->files = files != NULL ? g_object_ref (files) : NULL;
  self->catalog = g_object_ref (catalog);
  self->palette = terrain_palette_ref (palette);
  return self;
}

/* The GAF at @path, read once (called with the lock held). */
static TerrainGafArchive *
open_gaf (TerrainFeatureSprites  *self,
          const char             *path,
          GError                **error)
{
  GafResult *result = g_hash_table_lookup (self->gafs, path);

  if (result == NULL)
    {
      g_autoptr(GBytes) bytes = NULL;

      result = g_new0 (GafResult, 1);
      bytes = terrain_game_files_read_path (self->files, path, &result->error);
      if (bytes != NULL)
        {
          result->gaf = terrain_gaf_archive_new_from_bytes (bytes, NULL, &result->error);
          if (result->gaf == NULL)
            g_prefix_error (&result->error, "%s: ", path);
        }
      g_hash_table_insert (self->gafs, g_strdup (path), result);
    }
  if (result->gaf == NULL)
    g_propagate_error (error, g_error_copy (result->error));
  return result->gaf;
}

/* Makes the sprite of @name (called with the lock held). */
static TerrainFeatureSprite *
make_sprite (TerrainFeatureSprites  *self,
             const char             *name,
             GError                **error)
{
  TerrainFeatureDefinition *definition = terrain_feature_catalog_lookup (self->catalog, name);
  const char *filename, *seqname;
  g_autofree char *folded = NULL;
  g_autofree char *path = NULL;
  g_autoptr(TerrainImage) image = NULL;
  TerrainGafArchive *gaf;
  const TerrainGafFrame *frame;
  TerrainFeatureSprite *sprite;
  guint entry = 0;

  if (definition == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "feature “%s”: no definition in the feature catalogue", name);
      return NULL;
    }
  filename = terrain_feature_definition_get_value (definition, "filename");
  if (filename == NULL || *filename == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "feature “%s” (%s): its definition names no GAF (no filename key)", name,
                   terrain_feature_definition_get_origin (definition) ?: "?");
      return NULL;
    }
  folded = g_ascii_strdown (filename, -1);
  path = g_str_has_suffix (folded, ".gaf") ? g_strconcat ("anims/", folded, NULL)
                                           : g_strconcat ("anims/", folded, ".gaf", NULL);
  if (self->files == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "feature “%s”: no game files to read %s from", name, path);
      return NULL;
    }
  gaf = open_gaf (self, path, error);
  if (gaf == NULL)
    return NULL;
  seqname = terrain_feature_definition_get_value (definition, "seqname");
  /* kbot falls back to the first entry when seqname names none. */
  if (seqname == NULL || !terrain_gaf_archive_find_entry (gaf, seqname, &entry))
    entry = 0;
  if (terrain_gaf_archive_get_n_entries (gaf) == 0 || terrain_gaf_archive_get_n_frames (gaf, entry) == 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "feature “%s”: %s has no frame to draw (entry “%s”)", name, path, seqname ?: "");
      return NULL;
    }
  image = terrain_gaf_archive_render_frame (gaf, entry, 0, self->palette, error);
  if (image == NULL)
    {
      g_prefix_error (error, "feature “%s”: %s, entry %u: ", name, path, entry);
      return NULL;
    }

  frame = terrain_gaf_archive_get_frame (gaf, entry, 0);
  sprite = g_atomic_rc_box_new0 (TerrainFeatureSprite);
  sprite->origin_x = frame->x_offset;
  sprite->origin_y = frame->y_offset;
  if (sprite->origin_x == 0 && sprite->origin_y == 0)
    {
      sprite->origin_x = (gint) terrain_image_get_width (image) / 2;
      sprite->origin_y = (gint) terrain_image_get_height (image);
    }
  terrain_feature_definition_get_footprint (definition, &sprite->footprint_x, &sprite->footprint_z);
  sprite->footprint_x = CLAMP (sprite->footprint_x, 1, TERRAIN_FEATURE_MAX_FOOTPRINT);
  sprite->footprint_z = CLAMP (sprite->footprint_z, 1, TERRAIN_FEATURE_MAX_FOOTPRINT);
  sprite->image = g_steal_pointer (&image);
  sprite->path = g_steal_pointer (&path);
  sprite->entry = g_strdup (terrain_gaf_archive_get_entry_name (gaf, entry));
  return sprite;
}

/**
 * terrain_feature_sprites_lookup:
 * @self: a sprite source
 * @name: a feature name, matched case-insensitively
 * @error: return location for a #GError
 *
 * Gets the sprite of a feature: the first frame of the entry its
 * definition names with `seqname` (the first entry when that names none)
 * in `anims/<filename>.gaf` of the game files, drawn through the palette.
 * The first lookup of a name makes the sprite (reading the GAF if no
 * sprite before needed it); later ones return it, or the same error.
 *
 * Returns: (transfer full) (nullable): the sprite, or %NULL with
 *   %G_IO_ERROR_NOT_FOUND when @name has no definition, the definition no
 *   `filename`, or the game files no such GAF; %TERRAIN_ERROR_INVALID_VALUE
 *   when the entry has no frame; or the GAF reader's error (with the path)
 */
TerrainFeatureSprite *
terrain_feature_sprites_lookup (TerrainFeatureSprites  *self,
                                const char             *name,
                                GError                **error)
{
  g_autofree char *key = NULL;
  TerrainFeatureSprite *sprite = NULL;
  Result *result;

  g_return_val_if_fail (TERRAIN_IS_FEATURE_SPRITES (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  key = g_ascii_strdown (name, -1);
  g_mutex_lock (&self->lock);
  result = g_hash_table_lookup (self->results, key);
  if (result == NULL)
    {
      result = g_new0 (Result, 1);
      result->sprite = make_sprite (self, name, &result->error);
      g_hash_table_insert (self->results, g_steal_pointer (&key), result);
    }
  if (result->sprite != NULL)
    sprite = terrain_feature_sprite_ref (result->sprite);
  else
    g_propagate_error (error, g_error_copy (result->error));
  g_mutex_unlock (&self->lock);
  return sprite;
}
