/* terrain-tnt-map.c: Total Annihilation map terrain (.tnt): the type, section blocks, layout and header
 * (the files of TerrainTntMap: terrain-tnt-map-impl-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-tnt-map-impl-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"

/**
 * TerrainTntMap:
 *
 * A Total Annihilation map terrain file (`.tnt`, tnt-sct.md), version 0x2000
 * or legacy 0x1020.
 *
 * The map is a view over the bytes it was read from: opening it checks the
 * header, the counts against [struct@Terrain.Limits] and every section span,
 * but copies nothing. Tile graphics, the tile map, the attribute cells, the
 * feature records and the minimap are read from the source bytes in place; a
 * section is copied into memory the map owns only when it is first edited.
 *
 * Writing patches every section from the model into a copy of the source at
 * its original offset, so an unedited map writes back byte for byte
 * (including gaps, trailing bytes, header padding and name scratch bytes).
 * An edit that changes a section's size lays the file out anew in the
 * canonical order (header, tile map, attributes, tiles, features, minimap)
 * and appends every source byte no section covered, in file order.
 */

G_DEFINE_FINAL_TYPE (TerrainTntMap, terrain_tnt_map, TERRAIN_TYPE_DOCUMENT)

GParamSpec *tnt_map_properties[N_PROPS];
guint tnt_map_signals[N_SIGNALS];

/* Names for error messages and findings */
const char * const tnt_section_titles[N_SECTIONS] = {
  "TNT header",
  "TNT tile map",
  "TNT attribute map",
  "TNT tile graphics",
  "TNT feature records",
  "TNT minimap",
};

/* ------------------------------------------------------------------------ */
/* Blocks                                                                   */

void
tnt_block_set_view (TntBlock     *block,
                    const guint8 *data,
                    gsize         size)
{
  block->data = data;
  block->size = size;
}

/* Makes @block writable with room for @extra more bytes; copies the source
 * view on first use. Returns the writable buffer. */
guint8 *
tnt_block_make_writable (TntBlock *block,
                         gsize     extra)
{
  gsize need = block->size + extra;

  if (block->owned == NULL || need > block->capacity)
    {
      gsize capacity = need;
      guint8 *buffer;

      /* Grow geometrically only once the block is already being appended to,
       * so a first edit of a fixed-size section copies exactly its size. */
      if (block->owned != NULL && capacity < block->capacity * 2)
        capacity = block->capacity * 2;
      buffer = g_malloc (MAX (capacity, 1));
      if (block->size > 0)
        memcpy (buffer, block->data, block->size);
      g_free (block->owned);
      block->owned = buffer;
      block->capacity = capacity;
      block->data = buffer;
    }

  return block->owned;
}

void
tnt_block_take (TntBlock *block,
                guint8   *data,
                gsize     size)
{
  g_free (block->owned);
  block->owned = data;
  block->data = data;
  block->size = size;
  block->capacity = size;
}

void
tnt_block_clear (TntBlock *block)
{
  g_clear_pointer (&block->owned, g_free);
  block->data = NULL;
  block->size = 0;
  block->capacity = 0;
}

gsize
tnt_section_size (TerrainTntMap     *self,
                  TerrainTntSection  section)
{
  switch (section)
    {
    case TERRAIN_TNT_SECTION_HEADER:
      return HEADER_SIZE;
    case TERRAIN_TNT_SECTION_MINIMAP:
      return MINIMAP_HEADER_BYTES + self->blocks[section].size;
    case TERRAIN_TNT_SECTION_TILE_MAP:
    case TERRAIN_TNT_SECTION_ATTRIBUTES:
    case TERRAIN_TNT_SECTION_TILES:
    case TERRAIN_TNT_SECTION_FEATURES:
    default:
      return self->blocks[section].size;
    }
}

gboolean
tnt_section_present (TerrainTntMap     *self,
                     TerrainTntSection  section)
{
  return section != TERRAIN_TNT_SECTION_MINIMAP || self->has_minimap;
}

/* Lays the file out in the canonical order and points the header at it.
 * Called whenever a section changes size; cheap (no data is moved until the
 * writer runs). */
void
tnt_relayout (TerrainTntMap *self)
{
  static const guint pointer_words[N_SECTIONS] = {
    0, W_PTR_TILE_MAP, W_PTR_ATTRIBUTES, W_PTR_TILES, W_PTR_FEATURES, 0,
  };
  guint64 offset = HEADER_SIZE;

  self->layout[TERRAIN_TNT_SECTION_HEADER] = (TntSpan) { 0, HEADER_SIZE, TRUE };

  for (guint s = TERRAIN_TNT_SECTION_TILE_MAP; s < N_SECTIONS; s++)
    {
      TntSpan *span = &self->layout[s];
      guint32 pointer = (guint32) MIN (offset, G_MAXUINT32);

      span->present = tnt_section_present (self, s);
      span->offset = (gsize) MIN (offset, G_MAXSIZE);
      span->size = span->present ? tnt_section_size (self, s) : 0;

      if (s == TERRAIN_TNT_SECTION_MINIMAP)
        {
          /* With the flag clear the pointer word is not a pointer: keep it. */
          if (span->present)
            self->header[minimap_pointer_word (self)] = pointer;
        }
      else
        self->header[pointer_words[s]] = pointer;

      /* Overflow past 4 GiB is reported by the writer. */
      offset += span->size;
    }

  self->canonical = TRUE;
}

/* After a section may have changed size or appeared: switch to (or refresh)
 * the canonical layout when the source layout no longer fits. */
void
tnt_update_layout (TerrainTntMap *self)
{
  gboolean changed = self->canonical;

  for (guint s = TERRAIN_TNT_SECTION_TILE_MAP; s < N_SECTIONS && !changed; s++)
    {
      gboolean present = tnt_section_present (self, s);

      if (present != self->layout[s].present ||
          (present && tnt_section_size (self, s) != self->layout[s].size))
        changed = TRUE;
    }

  if (changed)
    tnt_relayout (self);
}

GBytes *
tnt_get_source (TerrainTntMap *self)
{
  return terrain_document_get_source_bytes (TERRAIN_DOCUMENT (self));
}

void
tnt_mark_modified (TerrainTntMap *self)
{
  terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);
}

/**
 * terrain_tnt_map_get_play_area:
 * @self: a #TerrainTntMap
 * @width: (out) (optional): play-area width in pixels
 * @height: (out) (optional): play-area height in pixels
 *
 * The play area: the part of the map, from its top-left corner, that the
 * game lets units and the camera reach (tnt-sct.md, "Minimap"):
 * `PlayRight = Width*16-32` by `PlayBottom = Height*16-128` pixels. The one
 * rule the minimap generator, its crop, rendering and lint share. A map too
 * small for those margins (either value <= 0) has no defined play area;
 * @width and @height are then the whole map, `Width*16` by `Height*16`.
 *
 * Returns: %TRUE when the margins fit, %FALSE when the whole map was given
 */
gboolean
terrain_tnt_map_get_play_area (TerrainTntMap *self,
                               guint         *width,
                               guint         *height)
{
  gint64 play_right, play_bottom;
  gboolean fits;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);

  play_right = (gint64) self->width * TERRAIN_TNT_CELL_PIXELS - 32;
  play_bottom = (gint64) self->height * TERRAIN_TNT_CELL_PIXELS - 128;
  fits = play_right > 0 && play_bottom > 0;
  if (!fits)
    {
      play_right = (gint64) self->width * TERRAIN_TNT_CELL_PIXELS;
      play_bottom = (gint64) self->height * TERRAIN_TNT_CELL_PIXELS;
    }
  if (width != NULL)
    *width = (guint) play_right;
  if (height != NULL)
    *height = (guint) play_bottom;
  return fits;
}

/* Computes the used sub-rectangle of a stored minimap of @stored_w x
 * @stored_h for this map's shape, tnt-sct.md "Minimap": the play area
 * fitted into it, long side first, the short side truncated. */
void
tnt_minimap_used_size_for (TerrainTntMap *self,
                           guint          stored_w,
                           guint          stored_h,
                           guint         *used_w,
                           guint         *used_h)
{
  guint play_right, play_bottom;

  if (!terrain_tnt_map_get_play_area (self, &play_right, &play_bottom))
    {
      /* Maps too small for the play-area margins: no crop is defined. */
      *used_w = stored_w;
      *used_h = stored_h;
    }
  else if (play_right < play_bottom)
    {
      *used_w = (guint) ((guint64) play_right * stored_w / play_bottom);
      *used_h = stored_h;
    }
  else
    {
      *used_w = stored_w;
      *used_h = (guint) ((guint64) play_bottom * stored_h / play_right);
    }
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
terrain_tnt_map_finalize (GObject *object)
{
  TerrainTntMap *self = (TerrainTntMap *)object;

  for (guint s = 0; s < N_SECTIONS; s++)
    tnt_block_clear (&self->blocks[s]);
  g_clear_pointer (&self->gaps, g_array_unref);
  g_clear_pointer (&self->names, g_ptr_array_unref);

  G_OBJECT_CLASS (terrain_tnt_map_parent_class)->finalize (object);
}

static void
terrain_tnt_map_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TerrainTntMap *self = TERRAIN_TNT_MAP (object);

  switch (prop_id)
    {
    case PROP_VERSION:
      g_value_set_uint (value, self->header[W_VERSION]);
      break;
    case PROP_WIDTH:
      g_value_set_uint (value, self->width);
      break;
    case PROP_HEIGHT:
      g_value_set_uint (value, self->height);
      break;
    case PROP_SEA_LEVEL:
      g_value_set_uint (value, self->header[W_SEA_LEVEL]);
      break;
    case PROP_N_TILES:
      g_value_set_uint (value, self->n_tiles);
      break;
    case PROP_N_FEATURES:
      g_value_set_uint (value, self->n_features);
      break;
    case PROP_MINIMAP_PRESENT:
      g_value_set_boolean (value, terrain_tnt_map_get_minimap_present (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_tnt_map_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TerrainTntMap *self = TERRAIN_TNT_MAP (object);

  switch (prop_id)
    {
    case PROP_SEA_LEVEL:
      {
        g_autoptr(GError) error = NULL;

        /* A property cannot return an error: the rule's message is a
         * warning, as GObject's own for a value outside a range, and the
         * level stays. */
        if (!terrain_tnt_map_set_sea_level (self, g_value_get_uint (value), &error))
          g_warning ("%s", error->message);
      }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_tnt_map_class_init (TerrainTntMapClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  object_class->finalize = terrain_tnt_map_finalize;
  object_class->get_property = terrain_tnt_map_get_property;
  object_class->set_property = terrain_tnt_map_set_property;

  document_class->save_to_bytes = tnt_map_save_to_bytes;
  document_class->validate = tnt_map_validate;
  document_class->describe = tnt_map_describe;
  document_class->render_image = tnt_map_render_image;
  document_class->export_heights = tnt_map_export_heights;
  document_class->describe_offset = tnt_map_describe_offset;
  document_class->parse = tnt_map_parse;
  document_class->format = TERRAIN_FORMAT_TNT;

  /**
   * TerrainTntMap:version:
   *
   * The header's version word: %TERRAIN_TNT_VERSION or
   * %TERRAIN_TNT_VERSION_LEGACY.
   */
  tnt_map_properties[PROP_VERSION] =
    g_param_spec_uint ("version", NULL, NULL,
                       0, G_MAXUINT32, TERRAIN_TNT_VERSION,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainTntMap:width:
   *
   * Width of the map in attribute cells (16 pixels each).
   */
  tnt_map_properties[PROP_WIDTH] =
    g_param_spec_uint ("width", NULL, NULL,
                       0, G_MAXUINT32, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainTntMap:height:
   *
   * Height of the map in attribute cells (16 pixels each).
   */
  tnt_map_properties[PROP_HEIGHT] =
    g_param_spec_uint ("height", NULL, NULL,
                       0, G_MAXUINT32, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainTntMap:sea-level:
   *
   * The water level in height units (header word 0x24): cells lower than
   * this are under water. Setting it follows
   * [func@Terrain.TntMap.check_sea_level], like
   * [method@Terrain.TntMap.set_sea_level]: a level above
   * %TERRAIN_TNT_MAX_SEA_LEVEL is refused with that function's message (as
   * a warning, since a property cannot return an error) and the level
   * stays. The range is the header word's, so that the value reaches the
   * rule; a file's own word is read as it is.
   */
  tnt_map_properties[PROP_SEA_LEVEL] =
    g_param_spec_uint ("sea-level", NULL, NULL,
                       0, G_MAXUINT32, 0,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainTntMap:n-tiles:
   *
   * Number of 32x32 tiles in the tile graphics section.
   */
  tnt_map_properties[PROP_N_TILES] =
    g_param_spec_uint ("n-tiles", NULL, NULL,
                       0, G_MAXUINT32, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainTntMap:n-features:
   *
   * Number of feature records.
   */
  tnt_map_properties[PROP_N_FEATURES] =
    g_param_spec_uint ("n-features", NULL, NULL,
                       0, G_MAXUINT32, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainTntMap:minimap-present:
   *
   * Whether bit 0 of the header's MinimapPresent word is set, that is whether
   * the file embeds a minimap.
   */
  tnt_map_properties[PROP_MINIMAP_PRESENT] =
    g_param_spec_boolean ("minimap-present", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, tnt_map_properties);

  /**
   * TerrainTntMap::cells-changed:
   * @self: the map
   * @x: first changed column, in attribute cells
   * @y: first changed row, in attribute cells
   * @width: number of changed columns
   * @height: number of changed rows
   *
   * Emitted after the height or the feature word of attribute cells changed.
   */
  tnt_map_signals[CELLS_CHANGED] =
    g_signal_new ("cells-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 4, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT);

  /**
   * TerrainTntMap::tiles-changed:
   * @self: the map
   * @column: first changed tile column
   * @row: first changed tile row
   * @width: number of changed columns
   * @height: number of changed rows
   *
   * Emitted after entries of the tile map changed.
   */
  tnt_map_signals[TILES_CHANGED] =
    g_signal_new ("tiles-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 4, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT);
}

static void
terrain_tnt_map_init (TerrainTntMap *self)
{
  self->limits = *terrain_limits_get_default ();
  self->gaps = g_array_new (FALSE, FALSE, sizeof (TntSpan));
  self->names = g_ptr_array_new_with_free_func (g_free);
}

/* ------------------------------------------------------------------------ */
/* Header                                                                   */

/**
 * terrain_tnt_map_get_version:
 * @self: a #TerrainTntMap
 *
 * Gets the version word.
 *
 * Returns: the version word, %TERRAIN_TNT_VERSION (0x2000) or
 *   %TERRAIN_TNT_VERSION_LEGACY (0x1020)
 */
guint32
terrain_tnt_map_get_version (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  return self->header[W_VERSION];
}

/**
 * terrain_tnt_map_get_width:
 * @self: a #TerrainTntMap
 *
 * Gets the width of the attribute grid.
 *
 * Returns: the width of the attribute grid in cells (16 pixels each)
 */
guint
terrain_tnt_map_get_width (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  return self->width;
}

/**
 * terrain_tnt_map_get_height:
 * @self: a #TerrainTntMap
 *
 * Gets the height of the attribute grid.
 *
 * Returns: the height of the attribute grid in cells (16 pixels each)
 */
guint
terrain_tnt_map_get_height (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  return self->height;
}

/**
 * terrain_tnt_map_get_tile_columns:
 * @self: a #TerrainTntMap
 *
 * Gets the number of tile columns.
 *
 * Returns: the number of tile columns, `Width / 2` (integer division)
 */
guint
terrain_tnt_map_get_tile_columns (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  return self->tile_columns;
}

/**
 * terrain_tnt_map_get_tile_rows:
 * @self: a #TerrainTntMap
 *
 * Gets the number of tile rows.
 *
 * Returns: the number of tile rows, `Height / 2` (integer division)
 */
guint
terrain_tnt_map_get_tile_rows (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  return self->tile_rows;
}

/**
 * terrain_tnt_map_get_header_word:
 * @self: a #TerrainTntMap
 * @index: word index, 0..15 (byte offset / 4)
 *
 * Returns one of the sixteen u32 words of the header as the writer would
 * write it now: the words read from the file, with edited values (sea level,
 * counts, MinimapPresent) and, once an edit changed a section's size, the
 * pointers of the new layout. Words 0x30..0x3C keep whatever they held.
 *
 * Returns: the header word
 */
guint32
terrain_tnt_map_get_header_word (TerrainTntMap *self,
                                 guint          index)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);
  g_return_val_if_fail (index < N_HEADER_WORDS, 0);

  return self->header[index];
}

/**
 * terrain_tnt_map_get_sea_level:
 * @self: a #TerrainTntMap
 *
 * Gets the sea level.
 *
 * Returns: the sea level in height units (header word 0x24)
 */
guint32
terrain_tnt_map_get_sea_level (TerrainTntMap *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), 0);

  return self->header[W_SEA_LEVEL];
}

/**
 * terrain_tnt_map_check_sea_level:
 * @sea_level: a sea level in height units
 * @error: return location for a #GError
 *
 * The one sea-level rule, followed by [method@Terrain.TntMap.set_sea_level],
 * the [property@Terrain.TntMap:sea-level] property, the sea-level edit
 * ([ctor@Terrain.TntEdit.new_sea_level]), `terrain set-sea-level` and the
 * editor's Sea Level tool: a level from 0 to %TERRAIN_TNT_MAX_SEA_LEVEL.
 *
 * The header word SeaLevel (0x24) is a u32, and cells with a height below
 * it are under water (tnt-sct.md, "Header"); heights are bytes, 0 to 255
 * (tnt-sct.md, "Attribute map"). So 255 is the highest level that leaves
 * any cell dry, and every level above it means the same thing, a map under
 * water. Retail maps use 0 to about 75 (tnt-sct.md, "Retail corpus
 * notes"). The rule covers what libterrain writes; a file's own word is read
 * as it is, and [method@Terrain.Document.validate] warns about a level
 * above the highest height.
 *
 * Returns: %TRUE if @sea_level is allowed; %FALSE with
 *   %TERRAIN_ERROR_OUT_OF_RANGE (a message naming the level and the
 *   maximum) otherwise
 */
gboolean
terrain_tnt_map_check_sea_level (guint32   sea_level,
                                 GError  **error)
{
  if (sea_level > TERRAIN_TNT_MAX_SEA_LEVEL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "TNT header: sea level %u is above the maximum %u: heights are bytes, "
                   "so a higher level would put every cell under water",
                   sea_level, TERRAIN_TNT_MAX_SEA_LEVEL);
      return FALSE;
    }
  return TRUE;
}

/**
 * terrain_tnt_map_set_sea_level:
 * @self: a #TerrainTntMap
 * @sea_level: the new sea level in height units, 0 to
 *   %TERRAIN_TNT_MAX_SEA_LEVEL; cells lower than this are under water
 * @error: return location for a #GError
 *
 * Sets the header's SeaLevel word (0x24, in both versions) and notifies
 * [property@Terrain.TntMap:sea-level] if it changed. The level must pass
 * [func@Terrain.TntMap.check_sea_level]; a higher one fails with its
 * error and the level stays.
 *
 * Returns: %TRUE if the level is set; %FALSE with
 *   %TERRAIN_ERROR_OUT_OF_RANGE for a level above %TERRAIN_TNT_MAX_SEA_LEVEL
 */
gboolean
terrain_tnt_map_set_sea_level (TerrainTntMap  *self,
                               guint32         sea_level,
                               GError        **error)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!terrain_tnt_map_check_sea_level (sea_level, error))
    return FALSE;
  if (self->header[W_SEA_LEVEL] != sea_level)
    {
      self->header[W_SEA_LEVEL] = sea_level;
      tnt_mark_modified (self);
      g_object_notify_by_pspec (G_OBJECT (self), tnt_map_properties[PROP_SEA_LEVEL]);
    }
  return TRUE;
}

/**
 * terrain_tnt_map_get_section_span:
 * @self: a #TerrainTntMap
 * @section: a section
 * @offset: (out) (optional): byte offset of the section
 * @size: (out) (optional): size of the section in bytes (the minimap's
 *   includes its 8-byte width/height prefix)
 *
 * Tells where a section lies in the file the writer would produce now: in
 * the source's layout until an edit changes a section's size, then in the
 * canonical layout. A section with no records has size 0 and the offset its
 * pointer holds.
 *
 * Returns: %FALSE for the minimap when the map has none, otherwise %TRUE
 */
gboolean
terrain_tnt_map_get_section_span (TerrainTntMap     *self,
                                  TerrainTntSection  section,
                                  gsize             *offset,
                                  gsize             *size)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);
  g_return_val_if_fail (section <= TERRAIN_TNT_SECTION_MINIMAP, FALSE);

  if (offset != NULL)
    *offset = self->layout[section].offset;
  if (size != NULL)
    *size = self->layout[section].size;

  return self->layout[section].present;
}

/**
 * terrain_tnt_map_get_legacy_header:
 * @self: a #TerrainTntMap
 * @min_wind: (out) (optional): MinWindSpeed (word 0x28)
 * @max_wind: (out) (optional): MaxWindSpeed (word 0x2C)
 * @gravity: (out) (optional): Gravity (word 0x34); 0 means the engine default
 *
 * Reads the fields only the legacy 0x1020 header carries (tnt-sct.md
 * "Legacy header").
 *
 * Returns: %TRUE for a legacy map, %FALSE (outputs set to 0) otherwise
 */
gboolean
terrain_tnt_map_get_legacy_header (TerrainTntMap *self,
                                   guint32       *min_wind,
                                   guint32       *max_wind,
                                   guint32       *gravity)
{
  gboolean legacy;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);

  legacy = is_legacy (self);
  if (min_wind != NULL)
    *min_wind = legacy ? self->header[W_LEGACY_MIN_WIND] : 0;
  if (max_wind != NULL)
    *max_wind = legacy ? self->header[W_LEGACY_MAX_WIND] : 0;
  if (gravity != NULL)
    *gravity = legacy ? self->header[W_LEGACY_GRAVITY] : 0;

  return legacy;
}
