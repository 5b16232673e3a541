/* terrain-model-private.h: internals shared by the model reader and its
 * exporters
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-model.h"
#include "core/terrain-relief-private.h"

G_BEGIN_DECLS

/* Resolves an exporter's LOD argument (an index or TERRAIN_MODEL_ALL_LODS)
 * to the distinct LODs [*first, *end). */
gboolean terrain_model_select_lods (TerrainModel  *self,
                                    gint           lod,
                                    guint         *first,
                                    guint         *end,
                                    GError       **error);

/* LOD 0 seen from above, for render_image and export_heights
 * (terrain-model-export.c). */
gboolean terrain_model_fill_top_view (TerrainModel   *self,
                                      TerrainRelief  *relief,
                                      gdouble        *pixel_size,
                                      GError        **error);

/* Half-float (IEEE 754 binary16) to float. */
gfloat   terrain_half_to_float     (guint16        half);

G_END_DECLS
