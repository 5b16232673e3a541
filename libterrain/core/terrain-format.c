/* terrain-format.c: format detection over the registry
 *
 * The formats themselves are described in their own folders (see
 * terrain-format-private.h); what is here knows none of them: it finds an
 * entry by its enum, name or extension, and weighs signatures against the
 * extension.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-format.h"
#include "terrain-format-private.h"
#include "terrain-error.h"

static const TerrainFormatInfo unknown_info = {
  TERRAIN_FORMAT_UNKNOWN, "unknown", "Unknown format", (const char * const[]) { NULL },
  NULL, NULL, NULL, NULL, NULL,
};

TerrainFormatMatch
terrain_format_match_fourcc (const guint8 *data,
                             gsize         size,
                             const char   *fourcc)
{
  return size >= 4 && memcmp (data, fourcc, 4) == 0 ? TERRAIN_FORMAT_MATCH_STRONG
                                                      : TERRAIN_FORMAT_MATCH_NONE;
}

/* Walks every registered format in detection order; stops when @func
 * returns TRUE and returns that entry. */
static const TerrainFormatInfo *
find_format (gboolean (*func) (const TerrainFormatInfo *info, gconstpointer data),
             gconstpointer data)
{
  for (guint f = 0; terrain_format_families[f] != NULL; f++)
    {
      const TerrainFormatFamily *family = terrain_format_families[f];

      for (guint i = 0; i < family->n_formats; i++)
        if (func (&family->formats[i], data))
          return &family->formats[i];
    }
  return NULL;
}

static gboolean
has_format (const TerrainFormatInfo *info,
            gconstpointer            data)
{
  return info->format == *(const TerrainFormat *) data;
}

const TerrainFormatInfo *
terrain_format_get_info (TerrainFormat format)
{
  return find_format (has_format, &format);
}

static const TerrainFormatInfo *
get_info (TerrainFormat format)
{
  const TerrainFormatInfo *info = terrain_format_get_info (format);

  return info != NULL ? info : &unknown_info;
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

static gboolean
has_extension (const TerrainFormatInfo *info,
               gconstpointer            data)
{
  return g_strv_contains (info->extensions, data);
}

static TerrainFormat
format_for_extension (const char *extension)
{
  const TerrainFormatInfo *info;

  if (extension == NULL)
    return TERRAIN_FORMAT_UNKNOWN;
  info = find_format (has_extension, extension);
  return info != NULL ? info->format : TERRAIN_FORMAT_UNKNOWN;
}

typedef struct
{
  const guint8 *data;
  gsize size;
  TerrainFormat weak;    /* the first format whose version word matched */
} MatchState;

static gboolean
matches_strongly (const TerrainFormatInfo *info,
                  gconstpointer            data)
{
  MatchState *state = (MatchState *) data;
  TerrainFormatMatch strength;

  if (info->match == NULL)
    return FALSE;
  strength = info->match (state->data, state->size);
  if (strength == TERRAIN_FORMAT_MATCH_WEAK && state->weak == TERRAIN_FORMAT_UNKNOWN)
    state->weak = info->format;
  return strength == TERRAIN_FORMAT_MATCH_STRONG;
}

static gboolean
has_name (const TerrainFormatInfo *info,
          gconstpointer            data)
{
  return g_ascii_strcasecmp (info->name, data) == 0;
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
  MatchState state = { NULL, 0, TERRAIN_FORMAT_UNKNOWN };
  const TerrainFormatInfo *strong;
  TerrainFormat weak;

  if (bytes != NULL)
    data = g_bytes_get_data (bytes, &size);
  if (data == NULL)
    return by_extension;

  state.data = data;
  state.size = size;
  strong = find_format (matches_strongly, &state);
  if (strong != NULL)
    return strong->format;
  weak = state.weak;

  /* Trust the extension unless its own version-word check fails while another
   * format's matches (a misnamed TNT saved as .sct, say). */
  if (by_extension != TERRAIN_FORMAT_UNKNOWN)
    {
      const TerrainFormatInfo *info = get_info (by_extension);

      if (info->fits != NULL && !info->fits (data, size, extension))
        return weak;
      if (weak != TERRAIN_FORMAT_UNKNOWN && info->match != NULL &&
          info->match (data, size) == TERRAIN_FORMAT_MATCH_NONE)
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
  const TerrainFormatInfo *info;

  g_return_val_if_fail (name != NULL, TERRAIN_FORMAT_UNKNOWN);

  info = find_format (has_name, name);
  return info != NULL ? info->format : TERRAIN_FORMAT_UNKNOWN;
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
  return get_info (format)->load != NULL || get_info (format)->get_type != NULL;
}

TerrainDocument *
terrain_format_load (TerrainFormat         format,
                     GBytes               *bytes,
                     const TerrainLimits  *limits,
                     GError              **error)
{
  const TerrainFormatInfo *info = get_info (format);

  if (info->load != NULL)
    return info->load (bytes, limits, error);
  if (info->get_type == NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "%s files are recognised but cannot be opened yet", info->description);
      return NULL;
    }
  return terrain_document_new_from_bytes (info->get_type (), bytes, limits, error);
}

gboolean
terrain_format_is_container (TerrainFormat format)
{
  return get_info (format)->read_member != NULL;
}

GBytes *
terrain_format_read_member (TerrainFormat         format,
                            GBytes               *container,
                            const char           *path,
                            const TerrainLimits  *limits,
                            GError              **error)
{
  const TerrainFormatInfo *info = get_info (format);

  if (info->read_member == NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "%s files hold no other files", info->description);
      return NULL;
    }
  return info->read_member (container, path, limits, error);
}
