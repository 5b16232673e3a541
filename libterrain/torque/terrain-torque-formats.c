/* terrain-torque-formats.c: the Torque legacy terrain in the format
 * registry (terrain-format-private.h), as a document and as a height source
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-format-private.h"
#include "terrain-heightfield-private.h"
#include "terrain-ter-file.h"

/* No magic: by extension or --format only. */
static const TerrainFormatInfo torque_formats[] = {
  { TERRAIN_FORMAT_TER, "ter", "Torque legacy terrain",
    (const char * const[]) { "ter", NULL }, NULL, terrain_ter_file_get_type, NULL, NULL },
};

static TerrainHeightfield *
read_ter_heights (GBytes                           *bytes,
                  const TerrainHeightfieldOptions  *options,
                  GError                          **error)
{
  g_autoptr(TerrainTerFile) ter = terrain_ter_file_new_from_bytes (bytes, NULL, error);
  TerrainHeightfield *field;

  if (ter == NULL)
    return NULL;
  field = terrain_ter_file_to_heightfield (ter, options->spacing, error);
  if (field != NULL)
    terrain_heightfield_apply_vertical (field, options);
  return field;
}

static const TerrainHeightSourceInfo torque_height_sources[] = {
  { TERRAIN_HEIGHTMAP_TER, (const char * const[]) { "ter", NULL },
    (const char * const[]) { "ter", NULL }, NULL, read_ter_heights, TERRAIN_FORMAT_TER },
};

const TerrainFormatFamily terrain_torque_format_family = {
  "torque",
  torque_formats, G_N_ELEMENTS (torque_formats),
  torque_height_sources, G_N_ELEMENTS (torque_height_sources),
};
