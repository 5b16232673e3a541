/* terrain-insomniac-formats.c: the Insomniac family in the format registry
 * (terrain-format-private.h): DAT1 containers and models, and the bodies
 * without a magic (FloorHeightData, TerrainNodeLayer, TNLChunk)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-format-private.h"
#include "terrain-dat1-private.h"
#include "terrain-floor-height-data.h"
#include "terrain-model.h"
#include "terrain-node-chunk.h"
#include "terrain-node-layer.h"

static TerrainFormatMatch
match_dat1 (const guint8 *data,
            gsize         size)
{
  TerrainDat1Sniff sniff;

  /* Plain DAT1, or a Sunset Overdrive 36-byte wrapper before a plain DAT1 or
   * a raw LZ4 block whose first literals are the magic (field-notes.md). */
  return terrain_dat1_sniff (data, size, &sniff) ? TERRAIN_FORMAT_MATCH_STRONG
                                                 : TERRAIN_FORMAT_MATCH_NONE;
}

/* Models by their asset type; any other DAT1 as a container of sections. */
static TerrainDocument *
load_dat1 (GBytes               *bytes,
           const TerrainLimits  *limits,
           GError              **error)
{
  TerrainDat1Sniff sniff;
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  if (terrain_dat1_sniff (data, size, &sniff) && sniff.asset_type == TERRAIN_MODEL_ASSET_TYPE)
    return TERRAIN_DOCUMENT (terrain_model_new_from_bytes (bytes, limits, error));
  return TERRAIN_DOCUMENT (terrain_dat1_new_from_bytes (bytes, limits, error));
}

static const TerrainFormatInfo insomniac_formats[] = {
  { TERRAIN_FORMAT_DAT1, "dat1", "Insomniac DAT1 asset",
    (const char * const[]) { "model", NULL }, match_dat1, NULL, NULL, NULL,
    load_dat1 },
  /* Bodies without a magic: by extension or --format only. */
  { TERRAIN_FORMAT_FLOOR_HEIGHT, "floor-height", "Insomniac FloorHeightData",
    (const char * const[]) { "fhd", NULL }, NULL, terrain_floor_height_data_get_type, NULL, NULL },
  { TERRAIN_FORMAT_NODE_LAYER, "node-layer", "Insomniac TerrainNodeLayer",
    (const char * const[]) { "tnl", NULL }, NULL, terrain_node_layer_get_type, NULL, NULL },
  { TERRAIN_FORMAT_NODE_CHUNK, "node-chunk", "Insomniac TNLChunk terrain tile",
    (const char * const[]) { "tnlc", NULL }, NULL, terrain_node_chunk_get_type, NULL, NULL },
};

const TerrainFormatFamily terrain_insomniac_format_family = {
  "insomniac",
  insomniac_formats, G_N_ELEMENTS (insomniac_formats),
  NULL, 0,
};
