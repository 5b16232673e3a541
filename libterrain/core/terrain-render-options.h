/* terrain-render-options.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <glib-object.h>

#include "terrain-version.h"

G_BEGIN_DECLS

/**
 * TERRAIN_RENDER_OPTIONS_N_COLORS:
 *
 * Number of entries of a render colour table: one per 8-bit index.
 */
#define TERRAIN_RENDER_OPTIONS_N_COLORS 256

#define TERRAIN_TYPE_RENDER_OPTIONS (terrain_render_options_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainRenderOptions, terrain_render_options, TERRAIN, RENDER_OPTIONS, GObject)

TERRAIN_AVAILABLE_IN_ALL
TerrainRenderOptions *terrain_render_options_new             (void);
TERRAIN_AVAILABLE_IN_ALL
gboolean              terrain_render_options_set_colors      (TerrainRenderOptions  *self,
                                                              GBytes                *rgba,
                                                              GError               **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes               *terrain_render_options_get_colors      (TerrainRenderOptions  *self);
TERRAIN_AVAILABLE_IN_ALL
const guint8         *terrain_render_options_get_rgba_table  (TerrainRenderOptions  *self);
TERRAIN_AVAILABLE_IN_ALL
void                  terrain_render_options_set_max_level   (TerrainRenderOptions  *self,
                                                              guint                  level);
TERRAIN_AVAILABLE_IN_ALL
guint                 terrain_render_options_get_max_level   (TerrainRenderOptions  *self);

G_END_DECLS
