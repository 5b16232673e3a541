/* terrain-ta-formats.c: the Total Annihilation formats in the format
 * registry (terrain-format-private.h): TNT maps, SCT sections, HPI archives
 * (a container), GAF sprite archives, OTA and TDF text; and TNT attribute
 * heights as a height source
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-format-private.h"
#include "terrain-heightfield-private.h"
#include "terrain-reader-private.h"
#include "terrain-gaf-archive.h"
#include "terrain-hpi-archive.h"
#include "terrain-ota-file.h"
#include "terrain-sct-section.h"
#include "terrain-tdf-document.h"
#include "terrain-tnt-map.h"

/* A TA attribute cell is 16 pixels: the heightfield's default spacing. */
#define TNT_CELL_SPACING 16.0

/* TNT and SCT have no magic, only a version word: a hint the extension must
 * back up (terrain_format_detect()). */
static TerrainFormatMatch
match_tnt (const guint8 *data,
           gsize         size)
{
  guint32 version;

  if (size < 0x40)
    return TERRAIN_FORMAT_MATCH_NONE;
  version = terrain_get_le32 (data);
  return version == 0x2000 || version == 0x1020 ? TERRAIN_FORMAT_MATCH_WEAK
                                                 : TERRAIN_FORMAT_MATCH_NONE;
}

static TerrainFormatMatch
match_sct (const guint8 *data,
           gsize         size)
{
  guint32 version;

  if (size < 28)
    return TERRAIN_FORMAT_MATCH_NONE;
  version = terrain_get_le32 (data);
  return version == 2 || version == 3 ? TERRAIN_FORMAT_MATCH_WEAK : TERRAIN_FORMAT_MATCH_NONE;
}

static TerrainFormatMatch
match_hpi (const guint8 *data,
           gsize         size)
{
  return terrain_format_match_fourcc (data, size, "HAPI");
}

/* A GAF starts with its version word, 0x00010100, then the entry count and
 * a word that is 0 in the game's files; the entry table must fit. */
static TerrainFormatMatch
match_gaf (const guint8 *data,
           gsize         size)
{
  if (size < 12 || terrain_get_le32 (data) != TERRAIN_GAF_VERSION ||
      12 + 4 * (guint64) terrain_get_le32 (data + 4) > size)
    return TERRAIN_FORMAT_MATCH_NONE;
  return TERRAIN_FORMAT_MATCH_STRONG;
}

static GBytes *
read_hpi_member (GBytes               *container,
                 const char           *path,
                 const TerrainLimits  *limits,
                 GError              **error)
{
  g_autoptr(TerrainHpiArchive) archive = terrain_hpi_archive_new_from_bytes (container, limits,
                                                                             error);

  if (archive == NULL)
    return NULL;
  return terrain_hpi_archive_read_path (archive, path, error);
}

static const TerrainFormatInfo ta_formats[] = {
  { TERRAIN_FORMAT_TNT, "tnt", "Total Annihilation map terrain",
    (const char * const[]) { "tnt", NULL }, match_tnt, terrain_tnt_map_get_type, NULL, NULL },
  { TERRAIN_FORMAT_SCT, "sct", "Total Annihilation map section",
    (const char * const[]) { "sct", NULL }, match_sct, terrain_sct_section_get_type, NULL, NULL },
  { TERRAIN_FORMAT_HPI, "hpi", "Total Annihilation HPI archive",
    (const char * const[]) { "hpi", "ufo", "ccx", "gp3", NULL }, match_hpi,
    terrain_hpi_archive_get_type, NULL, read_hpi_member },
  { TERRAIN_FORMAT_GAF, "gaf", "Total Annihilation GAF sprite archive",
    (const char * const[]) { "gaf", NULL }, match_gaf, terrain_gaf_archive_get_type, NULL,
    NULL },
  /* Text without a magic: by extension or --format only. */
  { TERRAIN_FORMAT_OTA, "ota", "Total Annihilation map description (OTA)",
    (const char * const[]) { "ota", NULL }, NULL, terrain_ota_file_get_type, NULL, NULL },
  { TERRAIN_FORMAT_TDF, "tdf", "Total Annihilation TDF text",
    (const char * const[]) { "tdf", NULL }, NULL, terrain_tdf_document_get_type, NULL, NULL },
};

/* The attribute-cell heights (0-255) of a TNT map. */
static TerrainHeightfield *
read_tnt_heights (GBytes                           *bytes,
                  const TerrainHeightfieldOptions  *options,
                  GError                          **error)
{
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new_from_bytes (bytes, NULL, error);
  g_autoptr(TerrainHeightfield) field = NULL;
  gfloat *out;
  guint w, h;

  if (map == NULL)
    return NULL;
  w = terrain_tnt_map_get_width (map);
  h = terrain_tnt_map_get_height (map);
  field = terrain_heightfield_new_for_source (w, h, options, TNT_CELL_SPACING, error);
  if (field == NULL)
    return NULL;
  out = terrain_heightfield_get_data (field, NULL);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      out[(gsize) y * w + x] = terrain_tnt_map_get_cell_height (map, x, y);
  terrain_heightfield_apply_vertical (field, options);
  return g_steal_pointer (&field);
}

static const TerrainHeightSourceInfo ta_height_sources[] = {
  { TERRAIN_HEIGHTMAP_TNT, (const char * const[]) { "tnt", NULL },
    (const char * const[]) { "tnt", NULL }, NULL, read_tnt_heights, TERRAIN_FORMAT_TNT },
};

const TerrainFormatFamily terrain_ta_format_family = {
  "ta",
  ta_formats, G_N_ELEMENTS (ta_formats),
  ta_height_sources, G_N_ELEMENTS (ta_height_sources),
};
