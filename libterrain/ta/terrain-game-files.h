/* terrain-game-files.h: the files of a Total Annihilation install as the game sees them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <gio/gio.h>

#include "terrain-version.h"
#include "core/terrain-limits.h"
#include "terrain-palette.h"

G_BEGIN_DECLS

#define TERRAIN_TYPE_GAME_FILES (terrain_game_files_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainGameFiles, terrain_game_files, TERRAIN, GAME_FILES, GObject)

TERRAIN_AVAILABLE_IN_ALL
TerrainGameFiles *terrain_game_files_new             (const TerrainLimits  *limits);
TERRAIN_AVAILABLE_IN_ALL
gboolean          terrain_game_files_add_install     (TerrainGameFiles     *self,
                                                      GFile                *folder,
                                                      GCancellable         *cancellable,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean          terrain_game_files_add_archive     (TerrainGameFiles     *self,
                                                      GFile                *archive,
                                                      GCancellable         *cancellable,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean          terrain_game_files_add_folder      (TerrainGameFiles     *self,
                                                      GFile                *folder,
                                                      GCancellable         *cancellable,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean          terrain_game_files_add             (TerrainGameFiles     *self,
                                                      GFile                *file,
                                                      GCancellable         *cancellable,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
guint             terrain_game_files_get_n_sources   (TerrainGameFiles     *self);
TERRAIN_AVAILABLE_IN_ALL
const char       *terrain_game_files_get_source_name (TerrainGameFiles     *self,
                                                      guint                 source);
TERRAIN_AVAILABLE_IN_ALL
guint             terrain_game_files_get_n_files     (TerrainGameFiles     *self);
TERRAIN_AVAILABLE_IN_ALL
const char       *terrain_game_files_get_path        (TerrainGameFiles     *self,
                                                      guint                 index);
TERRAIN_AVAILABLE_IN_ALL
guint             terrain_game_files_get_source      (TerrainGameFiles     *self,
                                                      guint                 index);
TERRAIN_AVAILABLE_IN_ALL
guint             terrain_game_files_get_n_shadowed  (TerrainGameFiles     *self,
                                                      guint                 index);
TERRAIN_AVAILABLE_IN_ALL
gboolean          terrain_game_files_find            (TerrainGameFiles     *self,
                                                      const char           *path,
                                                      guint                *index);
TERRAIN_AVAILABLE_IN_ALL
GBytes           *terrain_game_files_read            (TerrainGameFiles     *self,
                                                      guint                 index,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes           *terrain_game_files_read_path       (TerrainGameFiles     *self,
                                                      const char           *path,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
char            **terrain_game_files_list            (TerrainGameFiles     *self,
                                                      const char           *folder,
                                                      const char           *suffix);
TERRAIN_AVAILABLE_IN_ALL
TerrainPalette   *terrain_game_files_load_palette    (TerrainGameFiles     *self,
                                                      GError              **error);
TERRAIN_AVAILABLE_IN_ALL
GPtrArray        *terrain_game_files_get_warnings    (TerrainGameFiles     *self);

G_END_DECLS
