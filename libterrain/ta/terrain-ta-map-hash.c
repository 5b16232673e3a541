/* terrain-ta-map-hash.c: the hashes lobbies identify Total Annihilation maps by
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>
#include <zlib.h>

#include "terrain-ta-map-hash.h"
#include "terrain-hpi-archive.h"
#include "core/terrain-document.h"
#include "core/terrain-error.h"
#include "core/terrain-io.h"

/* zlib's crc32() takes at most a uInt at a time. */
static guint32
crc32_bytes (guint32       crc,
             const guint8 *data,
             gsize         size)
{
  while (size > 0)
    {
      uInt n = (uInt) MIN (size, (gsize) G_MAXUINT32);

      crc = crc32 (crc, data, n);
      data += n;
      size -= n;
    }
  return crc;
}

/**
 * terrain_ta_map_hash:
 * @tnt: the bytes of a map's `.tnt`, as stored
 * @ota: the bytes of its `.ota`, as stored
 *
 * Computes the map hash the TA Forever client and server identify a map by:
 * the CRC-32 (IEEE 802.3, reflected, initial value and final XOR
 * 0xffffffff, as zlib's crc32()) of the `.tnt`'s bytes followed by the
 * `.ota`'s bytes. Source: ta-forever/taftoolbox, `apps/maptool/maptool.cpp`,
 * `--hash`: `crc = -1`, `PartialCRC` over the `.tnt`, then over the `.ota`,
 * `crc ^= -1` (docs/formats/tnt-sct.md, "Map hashes"). Any edit to either
 * file, whitespace in the `.ota` included, changes it.
 *
 * Returns: the hash (printed by the client as 8 lower-case hex digits)
 */
guint32
terrain_ta_map_hash (GBytes *tnt,
                     GBytes *ota)
{
  gsize tnt_size, ota_size;
  const guint8 *tnt_data, *ota_data;
  guint32 crc = crc32 (0, Z_NULL, 0);

  g_return_val_if_fail (tnt != NULL, 0);
  g_return_val_if_fail (ota != NULL, 0);

  tnt_data = g_bytes_get_data (tnt, &tnt_size);
  ota_data = g_bytes_get_data (ota, &ota_size);
  crc = crc32_bytes (crc, tnt_data, tnt_size);
  return crc32_bytes (crc, ota_data, ota_size);
}

/**
 * terrain_ta_map_find_ota:
 * @tnt_file: a map's `.tnt`
 * @cancellable: (nullable): a #GCancellable
 *
 * Finds the `.ota` beside a `.tnt`: the file in the same folder with the
 * same base name and the extension `.ota` in any case (the game's file
 * layer ignores case).
 *
 * Returns: (transfer full) (nullable): the `.ota`, or %NULL if there is none
 */
GFile *
terrain_ta_map_find_ota (GFile        *tnt_file,
                         GCancellable *cancellable)
{
  g_autoptr(GFile) parent = NULL;
  g_autoptr(GFileEnumerator) children = NULL;
  g_autofree char *base = NULL;
  g_autofree char *stem = NULL;
  char *dot;

  g_return_val_if_fail (G_IS_FILE (tnt_file), NULL);

  parent = g_file_get_parent (tnt_file);
  base = g_file_get_basename (tnt_file);
  if (parent == NULL || base == NULL)
    return NULL;
  stem = g_strdup (base);
  dot = strrchr (stem, '.');
  if (dot != NULL)
    *dot = '\0';

  children = g_file_enumerate_children (parent, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                        G_FILE_QUERY_INFO_NONE, cancellable, NULL);
  if (children == NULL)
    return NULL;
  while (TRUE)
    {
      GFileInfo *info;
      GFile *child;
      const char *name;
      gsize stem_length = strlen (stem);

      if (!g_file_enumerator_iterate (children, &info, &child, cancellable, NULL) || info == NULL)
        return NULL;
      name = g_file_info_get_name (info);
      if (strlen (name) == stem_length + 4 && g_ascii_strncasecmp (name, stem, stem_length) == 0 &&
          g_ascii_strcasecmp (name + stem_length, ".ota") == 0)
        return g_object_ref (child);
    }
}

/* @path with its extension replaced by ".ota", or NULL when its last name
 * has no extension. */
static char *
ota_path_for (const char *path)
{
  const char *dot = strrchr (path, '.');

  if (dot == NULL || strpbrk (dot, "/\\:") != NULL)
    return NULL;
  return g_strdup_printf ("%.*s.ota", (int) (dot - path), path);
}

static gboolean
is_file (const char   *spec,
         GCancellable *cancellable)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (spec);

  return g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, cancellable) ==
         G_FILE_TYPE_REGULAR;
}

/**
 * terrain_ta_map_load_ota:
 * @spec: a map named the way the command line names it: a `.tnt` file, or
 *   `ARCHIVE:maps/NAME.tnt` inside an archive (see
 *   [func@Terrain.Document.load_path])
 * @ota_spec: (out) (optional) (transfer full) (nullable): where the `.ota`
 *   was found, named the same way
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Reads the `.ota` beside a map: for a file, the one
 * [func@Terrain.ta_map_find_ota] finds; for a map inside an archive, the
 * archive's file of the same path with the extension `.ota` (paths compared
 * ignoring case), as maps are installed (`maps/NAME.tnt` beside
 * `maps/NAME.ota`).
 *
 * Returns: (transfer full) (nullable): the `.ota`'s bytes; %NULL without an
 *   error when there is none, or with the error of reading it or its
 *   archive
 */
GBytes *
terrain_ta_map_load_ota (const char    *spec,
                         char         **ota_spec,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_return_val_if_fail (spec != NULL, NULL);

  if (ota_spec != NULL)
    *ota_spec = NULL;

  /* A file of that name: the .ota in its folder. */
  if (is_file (spec, cancellable))
    {
      g_autoptr(GFile) tnt = g_file_new_for_commandline_arg (spec);
      g_autoptr(GFile) ota = terrain_ta_map_find_ota (tnt, cancellable);
      GBytes *bytes;

      if (ota == NULL)
        return NULL;
      bytes = terrain_file_load_bytes (ota, cancellable, error);
      if (bytes != NULL && ota_spec != NULL)
        *ota_spec = g_file_get_parse_name (ota);
      return bytes;
    }

  /* ARCHIVE:inside, the archive being the first existing file before a ':'. */
  for (const char *colon = strchr (spec, ':'); colon != NULL; colon = strchr (colon + 1, ':'))
    {
      g_autofree char *container = g_strndup (spec, (gsize) (colon - spec));
      g_autofree char *inside = NULL;
      g_autoptr(GFile) file = NULL;
      g_autoptr(TerrainHpiArchive) archive = NULL;
      GBytes *bytes;
      guint index;

      if (!is_file (container, cancellable))
        continue;
      inside = ota_path_for (colon + 1);
      if (inside == NULL)
        return NULL;
      file = g_file_new_for_commandline_arg (container);
      archive = terrain_hpi_archive_new_from_file (file, NULL, cancellable, error);
      if (archive == NULL)
        return NULL;
      if (!terrain_hpi_archive_find (archive, inside, &index))
        return NULL;
      bytes = terrain_hpi_archive_read_file (archive, index, error);
      if (bytes != NULL && ota_spec != NULL)
        *ota_spec = g_strconcat (container, ":", terrain_hpi_archive_get_path (archive, index),
                                 NULL);
      return bytes;
    }
  return NULL;
}

/**
 * terrain_tnt_map_get_lobby_hash:
 * @self: a TNT map
 * @hash: (out): the hash
 * @error: return location for a #GError
 *
 * Computes the map identity hash the engine's lobby compares between
 * players: over the 64-byte header, the raw attribute map and the raw
 * feature records, in that order, as the map would be saved
 * (docs/formats/tnt-sct.md, "Map hashes"; the engine's map-loading notes,
 * `[02 R-MAP-01 §3]`, name the three blocks). The notes do not name the
 * hash function; libterrain uses the CRC-32 of the map tool's hash
 * ([func@Terrain.ta_map_hash]) over the three blocks concatenated. Tiles
 * and the minimap do not count, so repainting tiles keeps it.
 *
 * Returns: %TRUE, or %FALSE if the map cannot be serialised
 */
gboolean
terrain_tnt_map_get_lobby_hash (TerrainTntMap  *self,
                                guint32        *hash,
                                GError        **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainTntMap) saved = NULL;
  const TerrainTntSection parts[] = {
    TERRAIN_TNT_SECTION_HEADER,
    TERRAIN_TNT_SECTION_ATTRIBUTES,
    TERRAIN_TNT_SECTION_FEATURES,
  };
  const guint8 *data;
  gsize size;
  guint32 crc = crc32 (0, Z_NULL, 0);

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);
  g_return_val_if_fail (hash != NULL, FALSE);

  /* The spans of the bytes as saved, not of the model being edited. */
  bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (self), error);
  if (bytes == NULL)
    return FALSE;
  saved = terrain_tnt_map_new_from_bytes (bytes, NULL, error);
  if (saved == NULL)
    return FALSE;
  data = g_bytes_get_data (bytes, &size);
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      gsize offset = 0, length = 0;

      if (!terrain_tnt_map_get_section_span (saved, parts[i], &offset, &length))
        continue;
      /* Spans were checked against the data when @saved was read. */
      g_assert (offset <= size && length <= size - offset);
      crc = crc32_bytes (crc, data + offset, length);
    }
  *hash = crc;
  return TRUE;
}
