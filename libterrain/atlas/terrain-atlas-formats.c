/* terrain-atlas-formats.c: the Torque Atlas family in the format registry
 * (terrain-format-private.h): Atlas containers, CHU geometry, TQT texture
 * trees
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-format-private.h"
#include "terrain-atlas-file.h"
#include "terrain-chu-file.h"
#include "terrain-tqt-file.h"

static TerrainFormatMatch
match_atlas (const guint8 *data,
             gsize         size)
{
  return terrain_format_match_fourcc (data, size, "ATLS");
}

static TerrainFormatMatch
match_chu (const guint8 *data,
           gsize         size)
{
  /* TGEA's "CHU3", or Thatcher Ulrich's own "CHU\0" (field-notes.md). */
  if (terrain_format_match_fourcc (data, size, "CHU3") == TERRAIN_FORMAT_MATCH_STRONG)
    return TERRAIN_FORMAT_MATCH_STRONG;
  return size >= 4 && memcmp (data, "CHU\0", 4) == 0 ? TERRAIN_FORMAT_MATCH_STRONG
                                                      : TERRAIN_FORMAT_MATCH_NONE;
}

static TerrainFormatMatch
match_tqt (const guint8 *data,
           gsize         size)
{
  return size >= 4 && memcmp (data, "tqt\0", 4) == 0 ? TERRAIN_FORMAT_MATCH_STRONG
                                                      : TERRAIN_FORMAT_MATCH_NONE;
}

static const TerrainFormatInfo atlas_formats[] = {
  { TERRAIN_FORMAT_ATLAS, "atlas", "Torque Atlas terrain",
    (const char * const[]) { "atlas", NULL }, match_atlas, terrain_atlas_file_get_type, NULL,
    NULL },
  { TERRAIN_FORMAT_CHU, "chu", "Chunked LOD geometry (CHU3)",
    (const char * const[]) { "chu", NULL }, match_chu, terrain_chu_file_get_type, NULL, NULL },
  { TERRAIN_FORMAT_TQT, "tqt", "Texture quadtree (TQT)",
    (const char * const[]) { "tqt", NULL }, match_tqt, terrain_tqt_file_get_type, NULL, NULL },
};

const TerrainFormatFamily terrain_atlas_format_family = {
  "atlas",
  atlas_formats, G_N_ELEMENTS (atlas_formats),
  NULL, 0,
};
