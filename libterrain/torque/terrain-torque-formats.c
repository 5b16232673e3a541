/* terrain-torque-formats.c: the Torque terrains in the format registry
 * (terrain-format-private.h), as documents and as height sources: legacy
 * Torque / Tribes 2 blocks (versions 1 to 3) and Torque3D TerrainFiles
 * (version 7) share the extension and the format name, told apart by their
 * version byte
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-format-private.h"
#include "terrain-heightfield-private.h"
#include "terrain-ter-file.h"
#include "terrain-ter7-file.h"

static gboolean
is_ter7 (GBytes *bytes)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  return size > 0 && data[0] == TERRAIN_TER7_VERSION;
}

static TerrainDocument *
load_ter (GBytes               *bytes,
          const TerrainLimits  *limits,
          GError              **error)
{
  if (is_ter7 (bytes))
    return TERRAIN_DOCUMENT (terrain_ter7_file_new_from_bytes (bytes, limits, error));
  return TERRAIN_DOCUMENT (terrain_ter_file_new_from_bytes (bytes, limits, error));
}

/* No magic: by extension or --format only. */
static const TerrainFormatInfo torque_formats[] = {
  { TERRAIN_FORMAT_TER, "ter", "Torque terrain (legacy versions 1-3, Torque3D version 7)",
    (const char * const[]) { "ter", NULL }, NULL, NULL, NULL, NULL, load_ter },
};

static TerrainHeightfield *
read_ter_heights (GBytes                           *bytes,
                  const TerrainHeightfieldOptions  *options,
                  GError                          **error)
{
  TerrainHeightfield *field;

  if (is_ter7 (bytes))
    {
      g_autoptr(TerrainTer7File) ter = terrain_ter7_file_new_from_bytes (bytes, NULL, error);

      if (ter == NULL)
        return NULL;
      field = terrain_ter7_file_to_heightfield (ter, options->spacing, error);
    }
  else
    {
      g_autoptr(TerrainTerFile) ter = terrain_ter_file_new_from_bytes (bytes, NULL, error);

      if (ter == NULL)
        return NULL;
      field = terrain_ter_file_to_heightfield (ter, options->spacing, error);
    }
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
