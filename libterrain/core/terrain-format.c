/* terrain-format.c: format detection and the table of loaders
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-format.h"
#include "terrain-format-private.h"
#include "terrain-error.h"
#include "terrain-heightmap-document-private.h"
#include "terrain-reader-private.h"
#include "ta/terrain-sct-section.h"
#include "ta/terrain-tnt-map.h"
#include "ta/terrain-hpi-archive.h"
#include "ta/terrain-ota-file.h"
#include "ta/terrain-tdf-document.h"
#include "insomniac/terrain-dat1-private.h"
#include "insomniac/terrain-floor-height-data.h"
#include "insomniac/terrain-node-chunk.h"
#include "insomniac/terrain-node-layer.h"
#include "insomniac/terrain-model.h"
#include "atlas/terrain-atlas-file.h"
#include "atlas/terrain-chu-file.h"
#include "atlas/terrain-tqt-file.h"
#include "torque/terrain-ter-file.h"

/* How strongly a format identifies itself: a four-byte magic is decisive; a
 * version word (TNT, SCT) is only a hint that the extension must back up or
 * that is used when nothing else matches. */
typedef enum
{
  MAGIC_NONE,
  MAGIC_WEAK,
  MAGIC_STRONG,
} MagicStrength;

typedef struct
{
  TerrainFormat format;
  const char *name;
  const char *description;
  const char * const *extensions;
  MagicStrength (*match) (const guint8 *data, gsize size);
  TerrainLoadFunc load;
  /* For extensions that other files use too (.png, .raw): whether data
   * named @extension is this format's. NULL trusts the extension. */
  gboolean (*fits) (const guint8 *data, gsize size, const char *extension);
} FormatInfo;

static MagicStrength
match_fourcc (const guint8 *data,
              gsize         size,
              const char   *fourcc)
{
  return size >= 4 && memcmp (data, fourcc, 4) == 0 ? MAGIC_STRONG : MAGIC_NONE;
}

static MagicStrength
match_tnt (const guint8 *data,
           gsize         size)
{
  guint32 version;

  if (size < 0x40)
    return MAGIC_NONE;
  version = terrain_get_le32 (data);
  return version == 0x2000 || version == 0x1020 ? MAGIC_WEAK : MAGIC_NONE;
}

static MagicStrength
match_sct (const guint8 *data,
           gsize         size)
{
  guint32 version;

  if (size < 28)
    return MAGIC_NONE;
  version = terrain_get_le32 (data);
  return version == 2 || version == 3 ? MAGIC_WEAK : MAGIC_NONE;
}

static MagicStrength
match_atlas (const guint8 *data,
             gsize         size)
{
  return match_fourcc (data, size, "ATLS");
}

static MagicStrength
match_chu (const guint8 *data,
           gsize         size)
{
  /* TGEA's "CHU3", or Thatcher Ulrich's own "CHU\0" (field-notes.md). */
  if (match_fourcc (data, size, "CHU3") == MAGIC_STRONG)
    return MAGIC_STRONG;
  return size >= 4 && memcmp (data, "CHU\0", 4) == 0 ? MAGIC_STRONG : MAGIC_NONE;
}

static MagicStrength
match_tqt (const guint8 *data,
           gsize         size)
{
  return size >= 4 && memcmp (data, "tqt\0", 4) == 0 ? MAGIC_STRONG : MAGIC_NONE;
}

static MagicStrength
match_hpi (const guint8 *data,
           gsize         size)
{
  return match_fourcc (data, size, "HAPI");
}

static MagicStrength
match_dat1 (const guint8 *data,
            gsize         size)
{
  TerrainDat1Sniff sniff;

  /* Plain DAT1, or a Sunset Overdrive 36-byte wrapper before a plain DAT1 or
   * a raw LZ4 block whose first literals are the magic (field-notes.md). */
  return terrain_dat1_sniff (data, size, &sniff) ? MAGIC_STRONG : MAGIC_NONE;
}

/* Greyscale PNGs by their signature and IHDR: the only heightmaps that
 * identify themselves. */
static MagicStrength
match_heightmap (const guint8 *data,
                 gsize         size)
{
  return terrain_heightmap_shape (data, size) == HEIGHTMAP_SHAPE_GRAY_PNG ? MAGIC_STRONG
                                                                          : MAGIC_NONE;
}

/* A colour .png, an .hgt of another size than an SRTM tile's or a .raw that
 * is no square of 16-bit samples (a camera's raw photo, an 8-bit grid) is
 * not taken for a heightmap. */
static gboolean
fits_heightmap (const guint8 *data,
                gsize         size,
                const char   *extension)
{
  HeightmapShape shape = terrain_heightmap_shape (data, size);

  if (g_str_equal (extension, "png"))
    return shape == HEIGHTMAP_SHAPE_GRAY_PNG;
  if (g_str_equal (extension, "hgt"))
    return shape == HEIGHTMAP_SHAPE_SRTM;
  return shape == HEIGHTMAP_SHAPE_SRTM || shape == HEIGHTMAP_SHAPE_SQUARE16;
}

static TerrainDocument *
load_tnt (GBytes               *bytes,
          const TerrainLimits  *limits,
          GError              **error)
{
  return TERRAIN_DOCUMENT (terrain_tnt_map_new_from_bytes (bytes, limits, error));
}

static TerrainDocument *
load_sct (GBytes               *bytes,
          const TerrainLimits  *limits,
          GError              **error)
{
  return TERRAIN_DOCUMENT (terrain_sct_section_new_from_bytes (bytes, limits, error));
}

static TerrainDocument *
load_atlas (GBytes               *bytes,
            const TerrainLimits  *limits,
            GError              **error)
{
  return TERRAIN_DOCUMENT (terrain_atlas_file_new_from_bytes (bytes, limits, error));
}

static TerrainDocument *
load_chu (GBytes               *bytes,
          const TerrainLimits  *limits,
          GError              **error)
{
  return TERRAIN_DOCUMENT (terrain_chu_file_new_from_bytes (bytes, limits, error));
}

static TerrainDocument *
load_ter (GBytes               *bytes,
          const TerrainLimits  *limits,
          GError              **error)
{
  return TERRAIN_DOCUMENT (terrain_ter_file_new_from_bytes (bytes, limits, error));
}

static TerrainDocument *
load_tqt (GBytes               *bytes,
          const TerrainLimits  *limits,
          GError              **error)
{
  return TERRAIN_DOCUMENT (terrain_tqt_file_new_from_bytes (bytes, limits, error));
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

static TerrainDocument *
load_floor_height (GBytes               *bytes,
                   const TerrainLimits  *limits,
                   GError              **error)
{
  return TERRAIN_DOCUMENT (terrain_floor_height_data_new_from_bytes (bytes, limits, error));
}

static TerrainDocument *
load_node_layer (GBytes               *bytes,
                 const TerrainLimits  *limits,
                 GError              **error)
{
  return TERRAIN_DOCUMENT (terrain_node_layer_new_from_bytes (bytes, limits, error));
}

static TerrainDocument *
load_node_chunk (GBytes               *bytes,
                 const TerrainLimits  *limits,
                 GError              **error)
{
  return TERRAIN_DOCUMENT (terrain_node_chunk_new_from_bytes (bytes, limits, error));
}

static TerrainDocument *
load_hpi (GBytes               *bytes,
          const TerrainLimits  *limits,
          GError              **error)
{
  return TERRAIN_DOCUMENT (terrain_hpi_archive_new_from_bytes (bytes, limits, error));
}

static TerrainDocument *
load_ota (GBytes               *bytes,
          const TerrainLimits  *limits,
          GError              **error)
{
  return TERRAIN_DOCUMENT (terrain_ota_file_new_from_bytes (bytes, limits, error));
}

static TerrainDocument *
load_tdf (GBytes               *bytes,
          const TerrainLimits  *limits,
          GError              **error)
{
  return TERRAIN_DOCUMENT (terrain_tdf_document_new_from_bytes (bytes, limits, error));
}

static TerrainDocument *
load_heightmap (GBytes               *bytes,
                const TerrainLimits  *limits,
                GError              **error)
{
  return TERRAIN_DOCUMENT (terrain_heightmap_document_new_from_bytes (bytes, limits, error));
}

static const char * const no_extensions[] = { NULL };
static const char * const tnt_extensions[] = { "tnt", NULL };
static const char * const sct_extensions[] = { "sct", NULL };
static const char * const atlas_extensions[] = { "atlas", NULL };
static const char * const chu_extensions[] = { "chu", NULL };
static const char * const tqt_extensions[] = { "tqt", NULL };
static const char * const ter_extensions[] = { "ter", NULL };
static const char * const hpi_extensions[] = { "hpi", "ufo", "ccx", "gp3", NULL };
static const char * const dat1_extensions[] = { "model", NULL };
static const char * const floor_height_extensions[] = { "fhd", NULL };
static const char * const node_layer_extensions[] = { "tnl", NULL };
static const char * const node_chunk_extensions[] = { "tnlc", NULL };
static const char * const ota_extensions[] = { "ota", NULL };
static const char * const tdf_extensions[] = { "tdf", NULL };
static const char * const heightmap_extensions[] = { "png", "hgt", "raw", "r16", NULL };

/* Later format issues fill in their loaders here. */
static const FormatInfo formats[] = {
  { TERRAIN_FORMAT_UNKNOWN, "unknown", "Unknown format", no_extensions, NULL, NULL },
  { TERRAIN_FORMAT_TNT, "tnt", "Total Annihilation map terrain", tnt_extensions, match_tnt, load_tnt },
  { TERRAIN_FORMAT_SCT, "sct", "Total Annihilation map section", sct_extensions, match_sct, load_sct },
  { TERRAIN_FORMAT_ATLAS, "atlas", "Torque Atlas terrain", atlas_extensions, match_atlas, load_atlas },
  { TERRAIN_FORMAT_CHU, "chu", "Chunked LOD geometry (CHU3)", chu_extensions, match_chu, load_chu },
  { TERRAIN_FORMAT_TQT, "tqt", "Texture quadtree (TQT)", tqt_extensions, match_tqt, load_tqt },
  { TERRAIN_FORMAT_TER, "ter", "Torque legacy terrain", ter_extensions, NULL, load_ter },
  { TERRAIN_FORMAT_HPI, "hpi", "Total Annihilation HPI archive", hpi_extensions, match_hpi, load_hpi },
  { TERRAIN_FORMAT_DAT1, "dat1", "Insomniac DAT1 asset", dat1_extensions, match_dat1, load_dat1 },
  /* Bodies without a magic: by extension or --format only. */
  { TERRAIN_FORMAT_FLOOR_HEIGHT, "floor-height", "Insomniac FloorHeightData",
    floor_height_extensions, NULL, load_floor_height },
  { TERRAIN_FORMAT_NODE_LAYER, "node-layer", "Insomniac TerrainNodeLayer",
    node_layer_extensions, NULL, load_node_layer },
  { TERRAIN_FORMAT_NODE_CHUNK, "node-chunk", "Insomniac TNLChunk terrain tile",
    node_chunk_extensions, NULL, load_node_chunk },
  { TERRAIN_FORMAT_OTA, "ota", "Total Annihilation map description (OTA)", ota_extensions,
    NULL, load_ota },
  { TERRAIN_FORMAT_TDF, "tdf", "Total Annihilation TDF text", tdf_extensions, NULL, load_tdf },
  /* Greyscale PNGs by magic; SRTM tiles and raw16 grids by extension and
   * size. */
  { TERRAIN_FORMAT_HEIGHTMAP, "heightmap", "Heightmap (greyscale PNG, SRTM or raw16)",
    heightmap_extensions, match_heightmap, load_heightmap, fits_heightmap },
};

G_STATIC_ASSERT (G_N_ELEMENTS (formats) == TERRAIN_FORMAT_HEIGHTMAP + 1);

static const FormatInfo *
get_info (TerrainFormat format)
{
  if ((guint) format >= G_N_ELEMENTS (formats))
    return &formats[TERRAIN_FORMAT_UNKNOWN];
  return &formats[format];
}

/* The lower-case extension of @filename, or NULL. */
static char *
extension_of (const char *filename)
{
  const char *dot;

  if (filename == NULL)
    return NULL;
  dot = strrchr (filename, '.');
  if (dot == NULL || strchr (dot, G_DIR_SEPARATOR) != NULL)
    return NULL;
  return g_ascii_strdown (dot + 1, -1);
}

static TerrainFormat
format_for_extension (const char *extension)
{
  if (extension == NULL)
    return TERRAIN_FORMAT_UNKNOWN;

  for (guint i = 1; i < G_N_ELEMENTS (formats); i++)
    if (g_strv_contains ((const char * const *) formats[i].extensions, extension))
      return formats[i].format;

  return TERRAIN_FORMAT_UNKNOWN;
}

/**
 * terrain_format_detect:
 * @bytes: (nullable): the file's contents, or %NULL to go by name only
 * @filename: (nullable): the file's name, for its extension
 *
 * Identifies a file. A four-byte magic (`ATLS`, `CHU3` or `CHU\0`, `tqt\0`, `HAPI`,
 * `1TAD`, also behind the Sunset Overdrive wrapper or as the first literals of
 * a raw LZ4 block) decides on its own, and so does the signature of a
 * greyscale PNG (a heightmap). Formats without a magic are taken from the
 * extension (`.ter`, `.sct`, `.tnt`) unless the data matches another format's
 * version word and not the extension's own; the extensions of plain
 * heightmaps also need data of their shape (`.png`: a greyscale PNG; `.hgt`:
 * exactly an SRTM tile's 1201² or 3601² 16-bit samples; `.raw`, `.r16`: a
 * square of 16-bit samples), so that a colour picture or a camera's raw photo
 * is not taken for one. Without a known extension, a TNT version word
 * (0x2000, 0x1020) or an SCT version word (2, 3) is used as a last resort.
 * With @bytes %NULL, the extension alone decides.
 *
 * Returns: the detected format, or %TERRAIN_FORMAT_UNKNOWN
 */
TerrainFormat
terrain_format_detect (GBytes     *bytes,
                       const char *filename)
{
  const guint8 *data = NULL;
  gsize size = 0;
  g_autofree char *extension = extension_of (filename);
  TerrainFormat by_extension = format_for_extension (extension);
  TerrainFormat weak = TERRAIN_FORMAT_UNKNOWN;

  if (bytes != NULL)
    data = g_bytes_get_data (bytes, &size);
  if (data == NULL)
    return by_extension;

  for (guint i = 1; i < G_N_ELEMENTS (formats); i++)
    {
      MagicStrength strength;

      if (formats[i].match == NULL)
        continue;
      strength = formats[i].match (data, size);
      if (strength == MAGIC_STRONG)
        return formats[i].format;
      if (strength == MAGIC_WEAK && weak == TERRAIN_FORMAT_UNKNOWN)
        weak = formats[i].format;
    }

  /* Trust the extension unless its own version-word check fails while another
   * format's matches (a misnamed TNT saved as .sct, say). */
  if (by_extension != TERRAIN_FORMAT_UNKNOWN)
    {
      const FormatInfo *info = get_info (by_extension);

      if (info->fits != NULL && !info->fits (data, size, extension))
        return weak;
      if (weak != TERRAIN_FORMAT_UNKNOWN && info->match != NULL &&
          info->match (data, size) == MAGIC_NONE)
        return weak;
      return by_extension;
    }

  return weak;
}

/**
 * terrain_format_from_name:
 * @name: a short format name as returned by [func@Terrain.Format.get_name]
 *   (e.g. "tnt"), case-insensitive
 *
 * Finds a format by its short name.
 *
 * Returns: the format, or %TERRAIN_FORMAT_UNKNOWN
 */
TerrainFormat
terrain_format_from_name (const char *name)
{
  g_return_val_if_fail (name != NULL, TERRAIN_FORMAT_UNKNOWN);

  for (guint i = 1; i < G_N_ELEMENTS (formats); i++)
    if (g_ascii_strcasecmp (formats[i].name, name) == 0)
      return formats[i].format;

  return TERRAIN_FORMAT_UNKNOWN;
}

/**
 * terrain_format_get_name:
 * @format: a #TerrainFormat
 *
 * Gets a short lower-case name of the format.
 *
 * Returns: a short lower-case name ("tnt", "sct", "atlas", ...)
 */
const char *
terrain_format_get_name (TerrainFormat format)
{
  return get_info (format)->name;
}

/**
 * terrain_format_get_description:
 * @format: a #TerrainFormat
 *
 * Gets a human-readable name of the format.
 *
 * Returns: a human-readable name of the format
 */
const char *
terrain_format_get_description (TerrainFormat format)
{
  return get_info (format)->description;
}

/**
 * terrain_format_get_extensions:
 * @format: a #TerrainFormat
 *
 * Gets the file extensions of a format.
 *
 * Returns: (array zero-terminated=1) (transfer none): lower-case file
 *   extensions without the dot
 */
const char * const *
terrain_format_get_extensions (TerrainFormat format)
{
  return get_info (format)->extensions;
}

/**
 * terrain_format_can_load:
 * @format: a #TerrainFormat
 *
 * Checks whether libterrain can open files of @format.
 *
 * Returns: %TRUE if [func@Terrain.Document.load] can open files of @format
 */
gboolean
terrain_format_can_load (TerrainFormat format)
{
  return get_info (format)->load != NULL;
}

TerrainLoadFunc
terrain_format_get_loader (TerrainFormat format)
{
  return get_info (format)->load;
}

gboolean
terrain_format_is_container (TerrainFormat format)
{
  return format == TERRAIN_FORMAT_HPI;
}

GBytes *
terrain_format_read_member (TerrainFormat         format,
                            GBytes               *container,
                            const char           *path,
                            const TerrainLimits  *limits,
                            GError              **error)
{
  g_autoptr(TerrainHpiArchive) archive = NULL;

  if (format != TERRAIN_FORMAT_HPI)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "%s files hold no other files", terrain_format_get_description (format));
      return NULL;
    }
  archive = terrain_hpi_archive_new_from_bytes (container, limits, error);
  if (archive == NULL)
    return NULL;
  return terrain_hpi_archive_read_path (archive, path, error);
}
