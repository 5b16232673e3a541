/* terrain-tqt-file.h: texture quadtrees (.tqt)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "core/terrain-document.h"
#include "core/terrain-limits.h"

G_BEGIN_DECLS

/**
 * TERRAIN_TQT_HEADER_SIZE:
 *
 * Size of the TQT header: magic `tqt\0`, version, tree depth and tile size,
 * four little-endian u32 words (atlas-chu-tqt.md §9c).
 */
#define TERRAIN_TQT_HEADER_SIZE 16

/**
 * TerrainTqtEncoding:
 * @TERRAIN_TQT_ENCODING_DDS: each tile is a u32 byte count followed by a
 *   complete DDS stream (TGEA, version 2; §9c)
 * @TERRAIN_TQT_ENCODING_JPEG: each tile is a bare JPEG stream with no size
 *   prefix, ending at its end-of-image marker (Thatcher Ulrich's version 1;
 *   field-notes.md)
 *
 * How the tiles of a TQT file are stored. The reader decides from the root
 * tile's bytes, not from the version word, and every tile must agree.
 */
typedef enum
{
  TERRAIN_TQT_ENCODING_DDS,
  TERRAIN_TQT_ENCODING_JPEG,
} TerrainTqtEncoding;

#define TERRAIN_TYPE_TQT_FILE (terrain_tqt_file_get_type ())

/**
 * TerrainTqtFile:
 *
 * A texture quadtree (`.tqt`): a 16-byte header, a table of
 * nodeCount(treeDepth) absolute tile offsets and the tiles
 * (atlas-chu-tqt.md §9c). The table is ordered by level and transposed:
 * logical node (level, x, y) uses entry nodeID(level, y, x). Tiles are DDS
 * streams with a u32 size prefix (TGEA) or bare JPEG streams (Ulrich's
 * version 1).
 *
 * Every tile is located and checked when the file is read; its bytes are
 * handed out without copying ([method@Terrain.TqtFile.get_tile_bytes]). An
 * unedited file writes back byte for byte. [func@Terrain.chu_import]
 * converts the tree into an Atlas texture TOC.
 *
 * [method@Terrain.Document.render_image] assembles the tiles of the deepest
 * level whose picture stays within 4096 pixels a side and
 * #TerrainLimits.max_image_side (at the root tile's size per tile; tiles of
 * other sizes are scaled to it) into one RGBA picture: node (level, x, y)
 * at column x, row y, row 0 at the top, as the tree's picture was cut. A
 * tile that does not decode fails the picture, its node and offset named.
 * A texture tree has no heights: [method@Terrain.Document.export_heights]
 * fails with %TERRAIN_ERROR_NOT_SUPPORTED.
 */

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainTqtFile, terrain_tqt_file, TERRAIN, TQT_FILE, TerrainDocument)

TERRAIN_AVAILABLE_IN_ALL
TerrainTqtFile    *terrain_tqt_file_new_from_bytes     (GBytes               *bytes,
                                                        const TerrainLimits  *limits,
                                                        GError              **error);
TERRAIN_AVAILABLE_IN_ALL
guint32            terrain_tqt_file_get_version        (TerrainTqtFile       *self);
TERRAIN_AVAILABLE_IN_ALL
guint              terrain_tqt_file_get_tree_depth     (TerrainTqtFile       *self);
TERRAIN_AVAILABLE_IN_ALL
guint32            terrain_tqt_file_get_tile_size      (TerrainTqtFile       *self);
TERRAIN_AVAILABLE_IN_ALL
TerrainTqtEncoding terrain_tqt_file_get_encoding       (TerrainTqtFile       *self);
TERRAIN_AVAILABLE_IN_ALL
guint              terrain_tqt_file_get_n_tiles        (TerrainTqtFile       *self);
TERRAIN_AVAILABLE_IN_ALL
gint               terrain_tqt_file_lookup_node        (TerrainTqtFile       *self,
                                                        guint                 level,
                                                        guint                 x,
                                                        guint                 y);
TERRAIN_AVAILABLE_IN_ALL
guint32            terrain_tqt_file_get_tile_offset    (TerrainTqtFile       *self,
                                                        guint                 entry);
TERRAIN_AVAILABLE_IN_ALL
void               terrain_tqt_file_get_tile_span      (TerrainTqtFile       *self,
                                                        guint                 entry,
                                                        gsize                *offset,
                                                        gsize                *size);
TERRAIN_AVAILABLE_IN_ALL
GBytes            *terrain_tqt_file_get_tile_bytes     (TerrainTqtFile       *self,
                                                        guint                 entry);
TERRAIN_AVAILABLE_IN_ALL
gboolean           terrain_tqt_file_get_tile_dimensions (TerrainTqtFile      *self,
                                                        guint                 entry,
                                                        guint32              *width,
                                                        guint32              *height);

TERRAIN_AVAILABLE_IN_ALL
TerrainTqtFile    *terrain_tqt_file_new_merged         (TerrainTqtFile       *north_west,
                                                        TerrainTqtFile       *north_east,
                                                        TerrainTqtFile       *south_west,
                                                        TerrainTqtFile       *south_east,
                                                        guint                 quality,
                                                        GError              **error);

G_END_DECLS
