/* terrain-atlas-file.h: Torque (TGEA) Atlas containers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "core/terrain-document.h"
#include "core/terrain-limits.h"
#include "terrain-atlas-config.h"
#include "terrain-atlas-geometry.h"
#include "terrain-atlas-stub.h"
#include "terrain-atlas-texture.h"
#include "terrain-atlas-toc.h"

G_BEGIN_DECLS

#define TERRAIN_TYPE_ATLAS_FILE (terrain_atlas_file_get_type ())

/**
 * TerrainAtlasFile:
 *
 * A Torque (TGEA) Atlas terrain container (`.atlas`, magic `ATLS`;
 * atlas-chu-tqt.md §0-§8): an ordered list of TOCs ([class@Terrain.AtlasToc],
 * geometry, texture and config), each a list of stubs that reference framed
 * chunks anywhere after the TOCs.
 *
 * Reading checks every TOC and chunk frame but decodes no chunk body: those
 * are decoded on demand from the (memory-mapped) bytes. An unedited file
 * writes back byte for byte, history frames and gaps included. Edits follow
 * TGEA ([method@Terrain.AtlasFile.replace_geometry] and siblings: new frames
 * appended at the end, generation and previousChunk updated, bounds
 * recomputed up the tree); [method@Terrain.AtlasFile.compact] and
 * [method@Terrain.AtlasFile.convert] write fresh layouts.
 *
 * Importers build files in memory: [ctor@Terrain.AtlasFile.new],
 * [ctor@Terrain.AtlasToc.new] and [method@Terrain.AtlasFile.add_toc], then
 * [method@Terrain.AtlasFile.set_geometry], [method@Terrain.AtlasFile.set_texture],
 * [method@Terrain.AtlasFile.set_config] or
 * [method@Terrain.AtlasFile.set_chunk_body] per stub,
 * [method@Terrain.AtlasFile.update_bounds], and
 * [method@Terrain.Document.save_to_bytes].
 */

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainAtlasFile, terrain_atlas_file, TERRAIN, ATLAS_FILE, TerrainDocument)

TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasFile     *terrain_atlas_file_new                 (void);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasFile     *terrain_atlas_file_new_from_bytes      (GBytes               *bytes,
                                                              const TerrainLimits  *limits,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
guint                 terrain_atlas_file_get_n_tocs          (TerrainAtlasFile     *self);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasToc      *terrain_atlas_file_get_toc             (TerrainAtlasFile     *self,
                                                              guint                 index);
TERRAIN_AVAILABLE_IN_ALL
GListModel           *terrain_atlas_file_get_tocs            (TerrainAtlasFile     *self);
TERRAIN_AVAILABLE_IN_ALL
gint                  terrain_atlas_file_find_toc            (TerrainAtlasFile     *self,
                                                              TerrainAtlasTocKind   kind,
                                                              guint                 nth);
TERRAIN_AVAILABLE_IN_ALL
gboolean              terrain_atlas_file_add_toc             (TerrainAtlasFile     *self,
                                                              TerrainAtlasToc      *toc,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gsize                 terrain_atlas_file_get_toc_region_size (TerrainAtlasFile     *self);
TERRAIN_AVAILABLE_IN_ALL
gsize                 terrain_atlas_file_get_size            (TerrainAtlasFile     *self);
TERRAIN_AVAILABLE_IN_ALL
GBytes               *terrain_atlas_file_get_chunk_frame     (TerrainAtlasFile     *self,
                                                              guint                 toc,
                                                              guint                 stub,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes               *terrain_atlas_file_get_chunk_body      (TerrainAtlasFile     *self,
                                                              guint                 toc,
                                                              guint                 stub,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasGeometry *terrain_atlas_file_get_geometry        (TerrainAtlasFile     *self,
                                                              guint                 toc,
                                                              guint                 stub,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasTexture  *terrain_atlas_file_get_texture         (TerrainAtlasFile     *self,
                                                              guint                 toc,
                                                              guint                 stub,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasConfig   *terrain_atlas_file_get_config          (TerrainAtlasFile     *self,
                                                              guint                 toc,
                                                              guint                 stub,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean              terrain_atlas_file_set_chunk_body      (TerrainAtlasFile     *self,
                                                              guint                 toc,
                                                              guint                 stub,
                                                              GBytes               *body,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean              terrain_atlas_file_set_geometry        (TerrainAtlasFile     *self,
                                                              guint                 toc,
                                                              guint                 stub,
                                                              TerrainAtlasGeometry *geometry,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean              terrain_atlas_file_set_texture         (TerrainAtlasFile     *self,
                                                              guint                 toc,
                                                              guint                 stub,
                                                              TerrainAtlasTexture  *texture,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean              terrain_atlas_file_set_config          (TerrainAtlasFile     *self,
                                                              guint                 toc,
                                                              guint                 stub,
                                                              TerrainAtlasConfig   *config,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean              terrain_atlas_file_update_bounds       (TerrainAtlasFile     *self,
                                                              guint                 toc,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean              terrain_atlas_file_replace_geometry    (TerrainAtlasFile     *self,
                                                              guint                 toc,
                                                              guint                 stub,
                                                              TerrainAtlasGeometry *geometry,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean              terrain_atlas_file_replace_texture     (TerrainAtlasFile     *self,
                                                              guint                 toc,
                                                              guint                 stub,
                                                              TerrainAtlasTexture  *texture,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean              terrain_atlas_file_replace_config      (TerrainAtlasFile     *self,
                                                              guint                 toc,
                                                              guint                 stub,
                                                              TerrainAtlasConfig   *config,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean              terrain_atlas_file_convert_textures    (TerrainAtlasFile     *self,
                                                              guint                 toc,
                                                              TerrainAtlasTextureFormat format,
                                                              guint                 quality,
                                                              TerrainAtlasChannelOrder order,
                                                              guint                *n_converted,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasFile     *terrain_atlas_file_new_merged_textures (TerrainAtlasFile     *north_west,
                                                              TerrainAtlasFile     *north_east,
                                                              TerrainAtlasFile     *south_west,
                                                              TerrainAtlasFile     *south_east,
                                                              guint                 quality,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasFile     *terrain_atlas_file_new_quadrant        (TerrainAtlasFile     *self,
                                                              TerrainAtlasQuadrant  quadrant,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasFile     *terrain_atlas_file_new_merged          (TerrainAtlasFile     *north_west,
                                                              TerrainAtlasFile     *north_east,
                                                              TerrainAtlasFile     *south_west,
                                                              TerrainAtlasFile     *south_east,
                                                              gdouble               root_error,
                                                              guint                 quality,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasFile     *terrain_atlas_file_compact             (TerrainAtlasFile     *self,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainAtlasFile     *terrain_atlas_file_convert             (TerrainAtlasFile     *self,
                                                              guint32               version,
                                                              GPtrArray           **warnings,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainImage         *terrain_atlas_file_render_texture      (TerrainAtlasFile     *self,
                                                              guint                 toc,
                                                              guint                 stub,
                                                              TerrainAtlasChannelOrder order,
                                                              GError              **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes               *terrain_atlas_file_export_obj          (TerrainAtlasFile     *self,
                                                              guint                 toc,
                                                              guint                 level,
                                                              gboolean              skirts,
                                                              GError              **error);

G_END_DECLS
