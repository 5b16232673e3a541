/* terrain-ta-map-hash.c: the hashes lobbies identify Total Annihilation maps by
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>
#include <zlib.h>

#include "terrain-ta-map-hash.h"
#include "core/terrain-document.h"
#include "core/terrain-error.h"

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
