/* terrain-hpi-map-save.c: saving a map into an HPI archive
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-hpi-writer.h"
#include "core/terrain-error.h"
#include "core/terrain-io.h"

/*
 * A map installed by a player is one archive (`.ufo` or `.hpi`) holding
 * `maps/NAME.tnt`, `maps/NAME.ota` and sometimes more (features, sounds,
 * other maps). Saving an edited map back writes a new archive with the
 * map's files replaced and every other file carried over with its contents
 * and compression method, keeping the replaced archive as a backup.
 */

/**
 * terrain_hpi_writer_add_archive:
 * @writer: a #TerrainHpiWriter
 * @archive: the archive whose files to carry over
 * @error: return location for a #GError
 *
 * Adds every file of @archive whose path @writer does not hold yet
 * (compared ignoring case, see [method@Terrain.HpiWriter.has_file]), each
 * with its decoded contents, byte for byte, and its compression method.
 * Files added before take precedence: add the replacements first.
 *
 * Returns: %TRUE on success; %FALSE with the error of
 *   [method@Terrain.HpiArchive.read_file] for a file that cannot be decoded
 *   (its checksum or sizes do not match), prefixed with its path, or of
 *   [method@Terrain.HpiWriter.add_file]
 */
gboolean
terrain_hpi_writer_add_archive (TerrainHpiWriter   *writer,
                                TerrainHpiArchive  *archive,
                                GError            **error)
{
  guint n;

  g_return_val_if_fail (writer != NULL, FALSE);
  g_return_val_if_fail (TERRAIN_IS_HPI_ARCHIVE (archive), FALSE);

  n = terrain_hpi_archive_get_n_files (archive);
  for (guint i = 0; i < n; i++)
    {
      const char *path = terrain_hpi_archive_get_path (archive, i);
      g_autoptr(GBytes) contents = NULL;

      if (terrain_hpi_writer_has_file (writer, path))
        continue;
      contents = terrain_hpi_archive_read_file (archive, i, error);
      if (contents == NULL)
        {
          g_prefix_error (error, "%s: ", path);
          return FALSE;
        }
      if (!terrain_hpi_writer_add_file (writer, path, contents,
                                        terrain_hpi_archive_get_compression (archive, i), error))
        return FALSE;
    }
  return TRUE;
}

/**
 * terrain_hpi_backup_file:
 * @archive: an archive file
 *
 * Names the backup [method@Terrain.HpiWriter.save_with_backup] and
 * [func@Terrain.hpi_save_map] keep by default: `ARCHIVE.bak` beside it
 * (`mymaps.ufo` keeps `mymaps.ufo.bak`).
 *
 * Returns: (transfer full): the backup file
 */
GFile *
terrain_hpi_backup_file (GFile *archive)
{
  g_autofree char *uri = NULL;
  g_autofree char *backup = NULL;

  g_return_val_if_fail (G_IS_FILE (archive), NULL);

  uri = g_file_get_uri (archive);
  backup = g_strconcat (uri, ".bak", NULL);
  return g_file_new_for_uri (backup);
}

static gboolean
save_over (GBytes        *bytes,
           GFile         *file,
           GBytes        *original,
           GFile         *backup,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GFile) default_backup = NULL;

  /* The backup is on disk before the archive is replaced; a failed save
   * leaves the archive as it was (terrain_file_save_bytes() renames a
   * complete temporary file over it). */
  if (original != NULL)
    {
      if (backup == NULL)
        backup = default_backup = terrain_hpi_backup_file (file);
      if (!terrain_file_save_bytes (backup, original, cancellable, error))
        return FALSE;
    }
  return terrain_file_save_bytes (file, bytes, cancellable, error);
}

/**
 * terrain_hpi_writer_save_with_backup:
 * @writer: a #TerrainHpiWriter
 * @file: the archive to write
 * @backup: (nullable): where to keep what @file held, or %NULL for
 *   [func@Terrain.hpi_backup_file]
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Like [method@Terrain.HpiWriter.save], but when @file exists its bytes are
 * first written to @backup (atomically, replacing an older backup); then
 * @file is replaced atomically. A failure leaves @file as it was.
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_IO when @file
 *   exists but cannot be read or either file cannot be written, or the
 *   writer's error
 */
gboolean
terrain_hpi_writer_save_with_backup (TerrainHpiWriter  *writer,
                                     GFile             *file,
                                     GFile             *backup,
                                     GCancellable      *cancellable,
                                     GError           **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) original = NULL;

  g_return_val_if_fail (writer != NULL, FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (backup == NULL || G_IS_FILE (backup), FALSE);

  bytes = terrain_hpi_writer_to_bytes (writer, error);
  if (bytes == NULL)
    return FALSE;
  if (g_file_query_exists (file, cancellable))
    {
      original = terrain_file_load_bytes (file, cancellable, error);
      if (original == NULL)
        return FALSE;
    }
  return save_over (bytes, file, original, backup, cancellable, error);
}

/* Reads @file once, when it exists: its bytes and the archive they hold.
 * A version 2 archive is refused: the writer writes version 1, which TA:
 * Kingdoms does not read. */
static gboolean
open_existing (GFile               *file,
               const char          *shown,
               GBytes             **original,
               TerrainHpiArchive  **old,
               GCancellable        *cancellable,
               GError             **error)
{
  if (!g_file_query_exists (file, cancellable))
    return TRUE;
  *original = terrain_file_load_bytes (file, cancellable, error);
  if (*original == NULL)
    return FALSE;
  *old = terrain_hpi_archive_new_from_bytes (*original, NULL, error);
  if (*old == NULL)
    {
      g_prefix_error (error, "%s: ", shown);
      return FALSE;
    }
  if (terrain_hpi_archive_get_version (*old) != 0x00010000)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "%s: a TA: Kingdoms (version 2) archive; the writer writes version 1 "
                   "archives, which TA: Kingdoms does not read", shown);
      return FALSE;
    }
  return TRUE;
}

/* Gives @writer the header key of @old. */
static gboolean
take_key (TerrainHpiWriter   *writer,
          TerrainHpiArchive  *old,
          const char         *shown,
          GError            **error)
{
  if (terrain_hpi_archive_get_key (old) > G_MAXUINT8)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "%s: header key 0x%08x does not fit the byte the writer obfuscates with",
                   shown, terrain_hpi_archive_get_key (old));
      return FALSE;
    }
  terrain_hpi_writer_set_key (writer, (guint8) terrain_hpi_archive_get_key (old));
  return TRUE;
}

/* Carries the files of @old that @writer does not hold into it and writes
 * @file, keeping what it held (@original) as @backup. */
static gboolean
write_update (TerrainHpiWriter   *writer,
              TerrainHpiArchive  *old,
              GBytes             *original,
              GFile              *file,
              GFile              *backup,
              const char         *shown,
              GCancellable       *cancellable,
              GError            **error)
{
  g_autoptr(GBytes) bytes = NULL;

  if (old != NULL && !terrain_hpi_writer_add_archive (writer, old, error))
    {
      g_prefix_error (error, "%s: ", shown);
      return FALSE;
    }
  bytes = terrain_hpi_writer_to_bytes (writer, error);
  return bytes != NULL && save_over (bytes, file, original, backup, cancellable, error);
}

/**
 * terrain_hpi_writer_update:
 * @writer: a #TerrainHpiWriter holding the files to put into the archive
 * @file: the archive to write into
 * @keep_key: %TRUE to give @writer the existing archive's header key,
 *   %FALSE to keep @writer's own
 * @backup: (nullable): where to keep what @file held, or %NULL for
 *   [func@Terrain.hpi_backup_file]
 * @n_existing: (out) (optional): how many files the existing archive held;
 *   0 when there was none
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Writes @writer's files into an archive, reading the existing one once:
 * each replaces the file of the same path (compared ignoring case) or joins
 * the archive, every other file is carried over with its contents byte for
 * byte and its compression method ([method@Terrain.HpiWriter.add_archive]),
 * the header key stays when @keep_key is set, and the old archive is kept
 * as @backup before the new one is renamed over it. When @file does not
 * exist, @writer's files are written as a new archive. Nothing is written
 * when reading the old archive fails. [func@Terrain.hpi_save_map] takes
 * the same path.
 *
 * Returns: %TRUE once the archive is on disk; %FALSE with
 *   %TERRAIN_ERROR_NOT_SUPPORTED when the existing archive is a TA: Kingdoms
 *   (version 2) archive, or, with @keep_key, its key does not fit in a
 *   byte; the reader's error for an existing file that is not a readable
 *   HPI archive; or %TERRAIN_ERROR_IO
 */
gboolean
terrain_hpi_writer_update (TerrainHpiWriter  *writer,
                           GFile             *file,
                           gboolean           keep_key,
                           GFile             *backup,
                           guint             *n_existing,
                           GCancellable      *cancellable,
                           GError           **error)
{
  g_autoptr(TerrainHpiArchive) old = NULL;
  g_autoptr(GBytes) original = NULL;
  g_autofree char *shown = NULL;

  g_return_val_if_fail (writer != NULL, FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (backup == NULL || G_IS_FILE (backup), FALSE);

  if (n_existing != NULL)
    *n_existing = 0;
  shown = g_file_get_parse_name (file);
  if (!open_existing (file, shown, &original, &old, cancellable, error) ||
      (old != NULL && keep_key && !take_key (writer, old, shown, error)))
    return FALSE;
  if (n_existing != NULL && old != NULL)
    *n_existing = terrain_hpi_archive_get_n_files (old);
  return write_update (writer, old, original, file, backup, shown, cancellable, error);
}

/* The archive's spelling of @path when it holds it (names compared
 * ignoring case), with its compression. */
static const char *
archive_entry (TerrainHpiArchive     *archive,
               const char            *path,
               TerrainHpiCompression *compression)
{
  guint index;

  *compression = TERRAIN_HPI_COMPRESSION_ZLIB;
  if (archive == NULL || !terrain_hpi_archive_find (archive, path, &index))
    return path;
  *compression = terrain_hpi_archive_get_compression (archive, index);
  return terrain_hpi_archive_get_path (archive, index);
}

/**
 * terrain_hpi_save_map:
 * @archive: the `.ufo` or `.hpi` to write
 * @tnt_path: the map's path inside the archive, e.g. `maps/Lava Run.tnt`
 * @tnt: the map terrain
 * @ota: (nullable): the map description, stored beside it as
 *   `maps/Lava Run.ota`; %NULL keeps the archive's own, if any
 * @backup: (nullable): where to keep the replaced archive, or %NULL for
 *   [func@Terrain.hpi_backup_file]
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Saves a map into an archive. When @archive does not exist, it is created
 * holding the map's `.tnt` and `.ota`, zlib-compressed, as players install
 * maps. When it exists, the map's files replace those of the same path
 * (compared ignoring case; the archive's spelling and compression method
 * are kept) or join them, every other file of the archive is carried over
 * with its contents byte for byte and its compression method, the header
 * key stays, and the old archive is kept as @backup before the new one is
 * renamed over it. Nothing is written when reading the old archive fails.
 *
 * Returns: %TRUE once the archive is on disk; %FALSE with
 *   %TERRAIN_ERROR_INVALID_VALUE when @tnt_path is not a valid archive path,
 *   %TERRAIN_ERROR_NOT_SUPPORTED when the existing archive is a TA: Kingdoms
 *   (version 2) archive or its key does not fit in a byte, the reader's error for an existing file that is not a
 *   readable HPI archive, or %TERRAIN_ERROR_IO
 */
gboolean
terrain_hpi_save_map (GFile         *archive,
                      const char    *tnt_path,
                      GBytes        *tnt,
                      GBytes        *ota,
                      GFile         *backup,
                      GCancellable  *cancellable,
                      GError       **error)
{
  g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
  g_autoptr(TerrainHpiArchive) old = NULL;
  g_autoptr(GBytes) original = NULL;
  g_autofree char *ota_path = NULL;
  g_autofree char *shown = NULL;
  TerrainHpiCompression compression;
  const char *dot;
  const char *slash;

  g_return_val_if_fail (G_IS_FILE (archive), FALSE);
  g_return_val_if_fail (tnt_path != NULL, FALSE);
  g_return_val_if_fail (tnt != NULL, FALSE);
  g_return_val_if_fail (backup == NULL || G_IS_FILE (backup), FALSE);

  shown = g_file_get_parse_name (archive);
  if (!open_existing (archive, shown, &original, &old, cancellable, error) ||
      (old != NULL && !take_key (writer, old, shown, error)))
    return FALSE;

  /* NAME.ota beside NAME.tnt. */
  dot = strrchr (tnt_path, '.');
  slash = dot != NULL ? strpbrk (dot, "/\\") : NULL;
  if (dot != NULL && slash == NULL)
    {
      g_autofree char *stem = g_strndup (tnt_path, (gsize) (dot - tnt_path));

      ota_path = g_strconcat (stem, ".ota", NULL);
    }
  else
    ota_path = g_strconcat (tnt_path, ".ota", NULL);

  tnt_path = archive_entry (old, tnt_path, &compression);
  if (!terrain_hpi_writer_add_file (writer, tnt_path, tnt, compression, error))
    return FALSE;
  if (ota != NULL)
    {
      const char *path = archive_entry (old, ota_path, &compression);

      if (!terrain_hpi_writer_add_file (writer, path, ota, compression, error))
        return FALSE;
    }
  return write_update (writer, old, original, archive, backup, shown, cancellable, error);
}
