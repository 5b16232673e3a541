/* terrain-render-options.c: what a document's picture is drawn with
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-render-options.h"
#include "terrain-error.h"

/**
 * TerrainRenderOptions:
 *
 * The input of [method@Terrain.Document.render_image], in terms no format
 * owns: a colour table that maps the 8-bit indices of indexed-colour formats
 * (a Total Annihilation map's tiles and minimap, an SCT section) to RGBA.
 * Formats that draw their own picture (shaded relief, decoded textures)
 * ignore it.
 *
 * The colour table is 256 entries of 4 bytes (red, green, blue, alpha), 1024
 * bytes in all. A format family provides its own way of making one: Total
 * Annihilation's [method@Terrain.Palette.to_render_options], for example.
 *
 * For formats that draw from a quadtree of levels (Atlas, CHU),
 * [property@Terrain.RenderOptions:max-level] asks for a quick picture from a
 * shallow level instead of the finest one: a viewer shows it at once while
 * the full picture is made.
 */

struct _TerrainRenderOptions
{
  GObject parent_instance;

  GBytes *colors;
  guint max_level;
};

enum
{
  PROP_0,
  PROP_COLORS,
  PROP_MAX_LEVEL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TerrainRenderOptions, terrain_render_options, G_TYPE_OBJECT)

static void
terrain_render_options_finalize (GObject *object)
{
  TerrainRenderOptions *self = TERRAIN_RENDER_OPTIONS (object);

  g_clear_pointer (&self->colors, g_bytes_unref);

  G_OBJECT_CLASS (terrain_render_options_parent_class)->finalize (object);
}

static void
terrain_render_options_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  TerrainRenderOptions *self = TERRAIN_RENDER_OPTIONS (object);

  switch (prop_id)
    {
    case PROP_COLORS:
      g_value_set_boxed (value, self->colors);
      break;
    case PROP_MAX_LEVEL:
      g_value_set_uint (value, self->max_level);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_render_options_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  TerrainRenderOptions *self = TERRAIN_RENDER_OPTIONS (object);
  g_autoptr(GError) error = NULL;

  switch (prop_id)
    {
    case PROP_COLORS:
      if (!terrain_render_options_set_colors (self, g_value_get_boxed (value), &error))
        g_warning ("TerrainRenderOptions:colors: %s", error->message);
      break;
    case PROP_MAX_LEVEL:
      terrain_render_options_set_max_level (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_render_options_class_init (TerrainRenderOptionsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = terrain_render_options_finalize;
  object_class->get_property = terrain_render_options_get_property;
  object_class->set_property = terrain_render_options_set_property;

  /**
   * TerrainRenderOptions:colors:
   *
   * The colour table: %TERRAIN_RENDER_OPTIONS_N_COLORS RGBA entries (1024
   * bytes), or %NULL when there is none. Setting a table of another size is
   * refused with a warning and keeps the previous one.
   */
  properties[PROP_COLORS] =
    g_param_spec_boxed ("colors", NULL, NULL, G_TYPE_BYTES,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * TerrainRenderOptions:max-level:
   *
   * The deepest quadtree level (0: the root) a tree format draws its
   * picture from; the default, %G_MAXUINT, is the finest it has. A shallow
   * level gives the same extent from fewer chunks: a coarse picture made
   * in a fraction of the time. Formats without levels ignore it.
   */
  properties[PROP_MAX_LEVEL] =
    g_param_spec_uint ("max-level", NULL, NULL, 0, G_MAXUINT, G_MAXUINT,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
terrain_render_options_init (TerrainRenderOptions *self)
{
  self->max_level = G_MAXUINT;
}

/**
 * terrain_render_options_set_max_level:
 * @self: a #TerrainRenderOptions
 * @level: the deepest quadtree level to draw from, 0 for the root, or
 *   %G_MAXUINT for the finest
 *
 * Sets [property@Terrain.RenderOptions:max-level].
 */
void
terrain_render_options_set_max_level (TerrainRenderOptions *self,
                                      guint                 level)
{
  g_return_if_fail (TERRAIN_IS_RENDER_OPTIONS (self));

  if (self->max_level == level)
    return;
  self->max_level = level;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_LEVEL]);
}

/**
 * terrain_render_options_get_max_level:
 * @self: (nullable): a #TerrainRenderOptions, or %NULL for the defaults
 *
 * Gets [property@Terrain.RenderOptions:max-level].
 *
 * Returns: the deepest level to draw from; %G_MAXUINT for the finest
 */
guint
terrain_render_options_get_max_level (TerrainRenderOptions *self)
{
  g_return_val_if_fail (self == NULL || TERRAIN_IS_RENDER_OPTIONS (self), G_MAXUINT);
  return self != NULL ? self->max_level : G_MAXUINT;
}

/**
 * terrain_render_options_new:
 *
 * Makes options with no colour table.
 *
 * Returns: (transfer full): the new options
 */
TerrainRenderOptions *
terrain_render_options_new (void)
{
  return g_object_new (TERRAIN_TYPE_RENDER_OPTIONS, NULL);
}

/**
 * terrain_render_options_set_colors:
 * @self: a #TerrainRenderOptions
 * @rgba: (nullable): %TERRAIN_RENDER_OPTIONS_N_COLORS entries of red, green,
 *   blue and alpha (1024 bytes), or %NULL to clear the table
 * @error: return location for a #GError
 *
 * Sets the colour table indexed-colour formats draw through.
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_INVALID_VALUE when
 *   @rgba is not 1024 bytes long (the table is left as it was)
 */
gboolean
terrain_render_options_set_colors (TerrainRenderOptions  *self,
                                   GBytes                *rgba,
                                   GError               **error)
{
  g_return_val_if_fail (TERRAIN_IS_RENDER_OPTIONS (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (rgba != NULL && g_bytes_get_size (rgba) != 4 * TERRAIN_RENDER_OPTIONS_N_COLORS)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "render options: a colour table is %u RGBA entries (%u bytes), not %"
                   G_GSIZE_FORMAT " bytes",
                   TERRAIN_RENDER_OPTIONS_N_COLORS, 4 * TERRAIN_RENDER_OPTIONS_N_COLORS,
                   g_bytes_get_size (rgba));
      return FALSE;
    }

  if (rgba == self->colors)
    return TRUE;

  g_clear_pointer (&self->colors, g_bytes_unref);
  if (rgba != NULL)
    self->colors = g_bytes_ref (rgba);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLORS]);
  return TRUE;
}

/**
 * terrain_render_options_get_colors:
 * @self: a #TerrainRenderOptions
 *
 * Returns the colour table.
 *
 * Returns: (transfer none) (nullable): the 1024-byte RGBA table, or %NULL
 */
GBytes *
terrain_render_options_get_colors (TerrainRenderOptions *self)
{
  g_return_val_if_fail (TERRAIN_IS_RENDER_OPTIONS (self), NULL);

  return self->colors;
}

/**
 * terrain_render_options_get_rgba_table:
 * @self: (nullable): a #TerrainRenderOptions
 *
 * The colour table as bytes, for renderers: entry `i` is at `4 * i`.
 *
 * Returns: (transfer none) (nullable) (array fixed-size=1024): the 1024
 *   bytes, or %NULL when @self
 *   is %NULL or has no colour table
 */
const guint8 *
terrain_render_options_get_rgba_table (TerrainRenderOptions *self)
{
  if (self == NULL)
    return NULL;
  g_return_val_if_fail (TERRAIN_IS_RENDER_OPTIONS (self), NULL);

  return self->colors != NULL ? g_bytes_get_data (self->colors, NULL) : NULL;
}
