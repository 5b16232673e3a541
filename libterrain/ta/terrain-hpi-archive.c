/* terrain-hpi-archive.c: Total Annihilation HPI archives (.hpi, .ufo, .ccx, .gp3)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>
#include <zlib.h>

#include "terrain-hpi-archive.h"
#include "terrain-hpi-archive-private.h"
#include "terrain-hpi-private.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-error-private.h"
#include "core/terrain-io.h"
#include "core/terrain-issue.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-writer-private.h"

/*
 * Layout (field-notes.md, "Total Annihilation ecosystem"):
 *
 *   0   "HAPI"
 *   4   u32 version, 0x00010000 ("BANK" in saved games; 0x00020000, TA:
 *       Kingdoms, is read by terrain-hpi-archive-v2.c)
 *   8   u32 end of the directory (called "directory size": the directory
 *       fills [start, end), so this is its size counted from byte 0)
 *   12  u32 header key; non-zero obfuscates every byte after the header
 *   16  u32 start of the directory
 *
 * A directory record is {u32 count, u32 offset of count 9-byte entries};
 * an entry is {u32 name offset, u32 data offset, u8 is-directory}; the data
 * of a directory entry is the subdirectory's record, that of a file entry a
 * file record {u32 data offset, u32 size, u8 method}. Offsets are absolute.
 * Compressed file data is a u32 table of chunk sizes, then the chunks.
 *
 * The reader decodes the whole directory (it is small) into a plain copy and
 * checks every record, name and span against it and the file before the
 * archive is usable; file data is read and checked (chunk headers,
 * checksums, decompressed sizes) when a file is read.
 */

/* Validation lists this many failing files one by one, then a count. */
#define MAX_ISSUES 20

/**
 * TerrainHpiArchive:
 *
 * A Total Annihilation HPI archive (`.hpi`, `.ufo`, `.ccx`, `.gp3`): the
 * directory tree is read (and de-obfuscated when the header key is set)
 * when the archive is opened; a file's chunks are inflated only when it is
 * extracted. Write archives with [struct@Terrain.HpiWriter].
 */
G_DEFINE_FINAL_TYPE (TerrainHpiArchive, terrain_hpi_archive, TERRAIN_TYPE_DOCUMENT)

static void
directory_clear (HpiDirectory *directory)
{
  g_free (directory->path);
}

static void
file_clear (HpiFile *file)
{
  g_free (file->path);
  g_free (file->chunk_sizes);
}

static const char *
method_name (guint method)
{
  switch (method)
    {
    case TERRAIN_HPI_COMPRESSION_NONE:
      return "stored";
    case TERRAIN_HPI_COMPRESSION_LZ77:
      return "lz77";
    case TERRAIN_HPI_COMPRESSION_ZLIB:
      return "zlib";
    default:
      return "unknown";
    }
}

/* ------------------------------------------------------------------------ */
/* Reading bytes                                                             */

/* Copies @size bytes at absolute @offset into @dest, undoing the key. The
 * span was checked when the archive was read or is checked here. */
static gboolean
read_plain (TerrainHpiArchive  *self,
            guint64             offset,
            gsize               size,
            guint8             *dest,
            const char         *what,
            GError            **error)
{
  TerrainReader reader;

  terrain_reader_init (&reader, self->source, "HPI");
  if (!terrain_reader_check_span (&reader, offset, size, what, error) ||
      !terrain_reader_seek (&reader, (gsize) offset, error) ||
      !terrain_reader_copy_bytes (&reader, size, dest, error))
    return FALSE;
  if (self->obfuscated)
    terrain_hpi_xor (dest, size, offset, self->key_byte);
  return TRUE;
}

/* A reader over the plain directory copy: offsets are absolute file
 * offsets, and only [start, end) holds directory bytes. */
static void
directory_reader (TerrainHpiArchive *self,
                  TerrainReader     *reader)
{
  terrain_reader_init_data (reader, self->directory, self->directory_end, 0, "HPI directory");
}

static gboolean
check_in_directory (TerrainHpiArchive  *self,
                    guint64             offset,
                    guint64             length,
                    const char         *what,
                    const char         *path,
                    GError            **error)
{
  guint64 end;

  if (offset >= self->directory_start && g_uint64_checked_add (&end, offset, length) &&
      end <= self->directory_end)
    return TRUE;

  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
               "HPI directory: %s of \"%s\" at byte offset %" G_GUINT64_FORMAT
               " (%" G_GUINT64_FORMAT " bytes) lies outside the directory, bytes %u to %u",
               what, path, offset, length, self->directory_start, self->directory_end);
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Parsing                                                                   */

/* Names become paths on disk when the archive is extracted: NULL when
 * @name is a valid file name, otherwise why it is not. */
const char *
terrain_hpi_name_problem (const char *name)
{
  if (name[0] == '\0')
    return "is empty";
  if (strcmp (name, ".") == 0 || strcmp (name, "..") == 0)
    return "is \".\" or \"..\"";
  if (strpbrk (name, "/\\:") != NULL)
    return "holds '/', '\\' or ':'";
  for (const char *c = name; *c != '\0'; c++)
    if ((guchar) *c < 0x20)
      return "holds a control character";
  return NULL;
}

static gboolean
read_name (TerrainHpiArchive  *self,
           guint32             offset,
           const char         *parent_path,
           char              **name,
           guint32            *length,
           GError            **error)
{
  TerrainReader reader;
  gsize n = 0;
  const guint8 *bytes;
  const char *why;

  if (!check_in_directory (self, offset, 1, "name", parent_path, error))
    return FALSE;

  directory_reader (self, &reader);
  if (!terrain_reader_seek (&reader, offset, error))
    return FALSE;
  for (;;)
    {
      guint8 c;

      if (offset + n >= self->directory_end || !terrain_reader_read_u8 (&reader, &c, NULL))
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                       "HPI directory: name at byte offset %u in \"%s\" has no terminating "
                       "NUL before the end of the directory (byte %u)",
                       offset, parent_path, self->directory_end);
          return FALSE;
        }
      if (c == 0)
        break;
      if (++n > HPI_MAX_NAME)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                       "HPI directory: name at byte offset %u in \"%s\" is longer than %d bytes",
                       offset, parent_path, HPI_MAX_NAME);
          return FALSE;
        }
    }

  if (!terrain_reader_seek (&reader, offset, error) ||
      !terrain_reader_peek_bytes (&reader, n, &bytes, error))
    return FALSE;
  *name = g_strndup ((const char *) bytes, n);
  *length = (guint32) n;

  why = terrain_hpi_name_problem (*name);
  if (why != NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "HPI directory: name at byte offset %u in \"%s\" is not a valid file "
                   "name: it %s", offset, parent_path, why);
      g_clear_pointer (name, g_free);
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_file_record (TerrainHpiArchive  *self,
                  HpiFile            *file,
                  GError            **error)
{
  TerrainReader reader, data;
  guint64 position;

  if (!check_in_directory (self, file->record_offset, HPI_FILE_RECORD_SIZE, "file record",
                           file->path, error))
    return FALSE;
  directory_reader (self, &reader);
  if (!terrain_reader_seek (&reader, file->record_offset, error) ||
      !terrain_reader_read_u32 (&reader, &file->data_offset, error) ||
      !terrain_reader_read_u32 (&reader, &file->size, error) ||
      !terrain_reader_read_u8 (&reader, &file->method, error))
    return FALSE;

  if (file->method > TERRAIN_HPI_COMPRESSION_ZLIB)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "HPI directory: file \"%s\" (record at byte offset %u) has compression "
                   "method %u; known are 0 (stored), 1 (LZ77), 2 (zlib)",
                   file->path, file->record_offset, file->method);
      return FALSE;
    }

  terrain_reader_init (&data, self->source, "HPI");
  if (file->method == TERRAIN_HPI_COMPRESSION_NONE)
    {
      g_autofree char *what = g_strdup_printf ("data of \"%s\"", file->path);

      if (!terrain_reader_check_span (&data, file->data_offset, file->size, what, error))
        return FALSE;
      file->data_end = (guint64) file->data_offset + file->size;
      return TRUE;
    }

  /* Compressed: a table of chunk sizes, then the chunks. */
  file->chunk_table = TRUE;
  file->n_chunks = (guint32) (((guint64) file->size + TERRAIN_HPI_CHUNK_SIZE - 1) /
                              TERRAIN_HPI_CHUNK_SIZE);
  {
    g_autofree char *what = g_strdup_printf ("chunk table of \"%s\" (%u chunks)",
                                             file->path, file->n_chunks);
    g_autofree guint8 *table = NULL;

    if (!terrain_reader_check_span (&data, file->data_offset, 4 * (guint64) file->n_chunks,
                                    what, error) ||
        !terrain_limits_check_alloc (&self->limits, file->n_chunks, 4, "chunk table",
                                     "HPI directory", file->record_offset, error))
      return FALSE;
    table = g_malloc (4 * (gsize) file->n_chunks + 1);
    if (!read_plain (self, file->data_offset, 4 * (gsize) file->n_chunks, table, what, error))
      return FALSE;
    file->chunk_sizes = g_new (guint32, file->n_chunks + 1);
    for (guint32 k = 0; k < file->n_chunks; k++)
      file->chunk_sizes[k] = terrain_get_le32 (table + 4 * k);
  }

  position = (guint64) file->data_offset + 4 * (guint64) file->n_chunks;
  for (guint32 k = 0; k < file->n_chunks; k++)
    {
      g_autofree char *what = g_strdup_printf ("chunk %u of \"%s\"", k, file->path);

      if (file->chunk_sizes[k] < HPI_CHUNK_HEADER_SIZE)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "HPI: %s at byte offset %" G_GUINT64_FORMAT " is %u bytes, less than "
                       "its %d-byte header (chunk table at byte offset %u)",
                       what, position, file->chunk_sizes[k], HPI_CHUNK_HEADER_SIZE,
                       file->data_offset);
          return FALSE;
        }
      if (!terrain_reader_check_span (&data, position, file->chunk_sizes[k], what, error))
        return FALSE;
      position += file->chunk_sizes[k];
    }
  file->data_end = position;
  return TRUE;
}

static gboolean
read_directory (TerrainHpiArchive  *self,
                guint32             record_offset,
                gint                parent,
                gint                entry_index,
                const char         *path,
                guint               depth,
                GHashTable         *seen,
                guint64            *budget,
                GError            **error)
{
  TerrainReader reader;
  HpiDirectory directory = { record_offset, 0, 0, parent, entry_index, g_strdup (path) };
  guint index;
  const char *shown = path[0] != '\0' ? path : "/";

  if (depth > TERRAIN_HPI_MAX_DEPTH)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "HPI directory: \"%s\" nests deeper than %d directories",
                   shown, TERRAIN_HPI_MAX_DEPTH);
      g_free (directory.path);
      return FALSE;
    }
  /* A record reached twice would make the tree a loop or a lattice. */
  if (g_hash_table_contains (seen, GUINT_TO_POINTER (record_offset)))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP,
                   "HPI directory: \"%s\" points at the directory record at byte offset %u, "
                   "which another entry already uses", shown, record_offset);
      g_free (directory.path);
      return FALSE;
    }
  g_hash_table_add (seen, GUINT_TO_POINTER (record_offset));

  if (!check_in_directory (self, record_offset, HPI_DIR_RECORD_SIZE, "directory record",
                           shown, error))
    {
      g_free (directory.path);
      return FALSE;
    }
  directory_reader (self, &reader);
  if (!terrain_reader_seek (&reader, record_offset, error) ||
      !terrain_reader_read_u32 (&reader, &directory.count, error) ||
      !terrain_reader_read_u32 (&reader, &directory.entries_offset, error) ||
      (directory.count > 0 &&
       !check_in_directory (self, directory.entries_offset,
                            (guint64) directory.count * HPI_ENTRY_SIZE, "entry list", shown,
                            error)))
    {
      g_free (directory.path);
      return FALSE;
    }

  /* Every entry takes 9 bytes of the directory, so a directory of N bytes
   * holds at most N / 9 of them: more means records share entries. */
  if (directory.count > *budget)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP,
                   "HPI directory: \"%s\" (record at byte offset %u) declares %u entries, more "
                   "than the directory has room for beside the others (entry lists overlap)",
                   shown, record_offset, directory.count);
      g_free (directory.path);
      return FALSE;
    }
  *budget -= directory.count;

  index = self->directories->len;
  g_array_append_val (self->directories, directory);

  for (guint32 i = 0; i < directory.count; i++)
    {
      HpiEntry entry = { 0 };
      g_autofree char *name = NULL;
      g_autofree char *child = NULL;

      entry.offset = directory.entries_offset + i * HPI_ENTRY_SIZE;
      entry.directory = (gint) index;
      if (!terrain_reader_seek (&reader, entry.offset, error) ||
          !terrain_reader_read_u32 (&reader, &entry.name_offset, error) ||
          !terrain_reader_read_u32 (&reader, &entry.data_offset, error) ||
          !terrain_reader_read_u8 (&reader, &entry.flag, error) ||
          !read_name (self, entry.name_offset, shown, &name, &entry.name_length, error))
        return FALSE;

      child = path[0] != '\0' ? g_strconcat (path, "/", name, NULL) : g_strdup (name);
      g_array_append_val (self->entries, entry);

      if (entry.flag == 1)
        {
          if (!read_directory (self, entry.data_offset, (gint) index,
                               (gint) self->entries->len - 1, child, depth + 1, seen,
                               budget, error))
            return FALSE;
        }
      else if (entry.flag == 0)
        {
          HpiFile file = { 0 };

          file.path = g_steal_pointer (&child);
          file.entry = self->entries->len - 1;
          file.record_offset = entry.data_offset;
          g_array_append_val (self->files, file);
          if (!read_file_record (self, &g_array_index (self->files, HpiFile,
                                                       self->files->len - 1), error))
            return FALSE;
        }
      else
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "HPI directory: entry \"%s\" at byte offset %u has directory flag %u "
                       "(0 for a file, 1 for a directory)", child, entry.offset, entry.flag);
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
terrain_hpi_archive_parse (TerrainDocument      *document,
                           GBytes               *bytes,
                           const TerrainLimits  *limits,
                           GError              **error)
{
  TerrainHpiArchive *self = TERRAIN_HPI_ARCHIVE (document);
  TerrainReader reader;
  const guint8 *magic;
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  guint64 budget;

  self->limits = *limits;
  self->source = g_bytes_ref (bytes);
  terrain_reader_init (&reader, bytes, "HPI header");
  self->file_size = terrain_reader_get_size (&reader);

  if (!terrain_reader_read_bytes (&reader, 4, &magic, error))
    return FALSE;
  if (memcmp (magic, "HAPI", 4) != 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                   "HPI header: magic at byte offset 0 is not \"HAPI\"");
      return FALSE;
    }
  if (!terrain_reader_read_u32 (&reader, &self->version, error))
    return FALSE;
  if (self->version == HPI_VERSION_2)
    return terrain_hpi_archive_parse_v2 (self, error);
  if (!terrain_reader_read_u32 (&reader, &self->directory_end, error) ||
      !terrain_reader_read_u32 (&reader, &self->key, error) ||
      !terrain_reader_read_u32 (&reader, &self->directory_start, error))
    return FALSE;

  if (self->version != HPI_VERSION)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNSUPPORTED_VERSION,
                   "HPI header: version word 0x%08x at byte offset 4 %s",
                   self->version,
                   self->version == HPI_BANK ? "(\"BANK\") marks a saved game, not an archive" :
                   "is neither 0x00010000 (Total Annihilation) nor 0x00020000 (TA: Kingdoms)");
      return FALSE;
    }
  if (self->directory_start < HPI_HEADER_SIZE || self->directory_start > self->directory_end)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "HPI header: directory start %u (byte offset 16) must lie between the end of "
                   "the header (%d) and the directory end %u (byte offset 8)",
                   self->directory_start, HPI_HEADER_SIZE, self->directory_end);
      return FALSE;
    }
  if (!terrain_reader_check_span (&reader, self->directory_start,
                                  (guint64) self->directory_end - self->directory_start,
                                  "directory", error) ||
      !terrain_limits_check_alloc (&self->limits, self->directory_end, 1, "directory",
                                   "HPI header", 8, error))
    return FALSE;

  self->obfuscated = self->key != 0;
  self->key_byte = terrain_hpi_key_byte (self->key);

  /* Bytes before the start are not directory bytes; the copy keeps them as
   * they are so that offsets index it directly. */
  self->directory = g_malloc0 (MAX (self->directory_end, 1));
  if (!terrain_reader_seek (&reader, 0, error) ||
      !terrain_reader_copy_bytes (&reader, self->directory_start, self->directory, error) ||
      !read_plain (self, self->directory_start, self->directory_end - self->directory_start,
                   self->directory + self->directory_start, "directory", error))
    return FALSE;

  budget = (self->directory_end - self->directory_start) / HPI_ENTRY_SIZE;
  return read_directory (self, self->directory_start, -1, -1, "", 0, seen, &budget, error);
}

/**
 * terrain_hpi_archive_new_from_bytes:
 * @bytes: an archive's contents
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Reads an HPI archive's header and directory: version 0x00010000 (Total
 * Annihilation; field-notes.md, "Total Annihilation ecosystem"), plain (key
 * 0) or obfuscated (non-zero key), or version 0x00020000 (TA: Kingdoms;
 * docs/formats/hpi.md), its directory and name blocks stored or compressed.
 * Every directory record, entry, name and file record must lie inside the
 * directory (or its block); every file's data (stored bytes, or chunk table
 * and chunks, or a version 2 file's one chunk) inside the file. File
 * contents are decoded when read.
 *
 * Returns: (transfer full) (nullable): the archive, or %NULL with
 *   %TERRAIN_ERROR_BAD_MAGIC (not "HAPI"), %TERRAIN_ERROR_UNSUPPORTED_VERSION
 *   (a "BANK" saved game, an unknown version), %TERRAIN_ERROR_TRUNCATED,
 *   %TERRAIN_ERROR_OUT_OF_RANGE (a record outside the directory, data outside
 *   the file), %TERRAIN_ERROR_OVERLAP (a directory reached twice, entry lists
 *   sharing bytes), %TERRAIN_ERROR_INVALID_VALUE (an unknown compression
 *   method or directory flag, a name that is not a valid file name) or
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED
 */
TerrainHpiArchive *
terrain_hpi_archive_new_from_bytes (GBytes               *bytes,
                                    const TerrainLimits  *limits,
                                    GError              **error)
{
  return TERRAIN_HPI_ARCHIVE (terrain_document_new_from_bytes (TERRAIN_TYPE_HPI_ARCHIVE, bytes,
                                                               limits, error));
}

/**
 * terrain_hpi_archive_new_from_file:
 * @file: an `.hpi`, `.ufo`, `.ccx` or `.gp3` file
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Opens an archive, see [ctor@Terrain.HpiArchive.new_from_bytes]. The file
 * is memory-mapped; files are decoded from it when read.
 *
 * Returns: (transfer full) (nullable): the archive
 */
TerrainHpiArchive *
terrain_hpi_archive_new_from_file (GFile                *file,
                                   const TerrainLimits  *limits,
                                   GCancellable         *cancellable,
                                   GError              **error)
{
  g_autoptr(GBytes) bytes = NULL;
  TerrainHpiArchive *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  bytes = terrain_file_load_bytes (file, cancellable, error);
  if (bytes == NULL)
    return NULL;
  self = terrain_hpi_archive_new_from_bytes (bytes, limits, error);
  if (self != NULL)
    terrain_document_set_file (TERRAIN_DOCUMENT (self), file);
  return self;
}

/* ------------------------------------------------------------------------ */
/* Queries                                                                   */

/**
 * terrain_hpi_archive_get_version:
 * @self: a #TerrainHpiArchive
 *
 * Gets the archive's version word (byte offset 4): `0x00010000` for Total
 * Annihilation, `0x00020000` for TA: Kingdoms.
 *
 * Returns: the version word
 */
guint32
terrain_hpi_archive_get_version (TerrainHpiArchive *self)
{
  g_return_val_if_fail (TERRAIN_IS_HPI_ARCHIVE (self), 0);

  return self->version;
}

/**
 * terrain_hpi_archive_get_key:
 * @self: a #TerrainHpiArchive
 *
 * Gets the header key.
 *
 * Returns: the header key; 0 for a plain archive and for a version 2
 *   archive, which has none
 */
guint32
terrain_hpi_archive_get_key (TerrainHpiArchive *self)
{
  g_return_val_if_fail (TERRAIN_IS_HPI_ARCHIVE (self), 0);

  return self->key;
}

/**
 * terrain_hpi_archive_get_n_files:
 * @self: a #TerrainHpiArchive
 *
 * Gets the number of files in the archive.
 *
 * Returns: the number of files (directories not counted), in directory
 *   order
 */
guint
terrain_hpi_archive_get_n_files (TerrainHpiArchive *self)
{
  g_return_val_if_fail (TERRAIN_IS_HPI_ARCHIVE (self), 0);

  return self->files->len;
}

static const HpiFile *
get_file (TerrainHpiArchive *self,
          guint              index)
{
  if (index >= self->files->len)
    return NULL;
  return &g_array_index (self->files, HpiFile, index);
}

/**
 * terrain_hpi_archive_get_path:
 * @self: a #TerrainHpiArchive
 * @index: a file index
 *
 * Gets a file's path inside the archive.
 *
 * Returns: (nullable): the file's path inside the archive, directories
 *   separated by `/` (`maps/ban.tnt`), or %NULL when @index is out of range
 */
const char *
terrain_hpi_archive_get_path (TerrainHpiArchive *self,
                              guint              index)
{
  const HpiFile *file;

  g_return_val_if_fail (TERRAIN_IS_HPI_ARCHIVE (self), NULL);

  file = get_file (self, index);
  return file != NULL ? file->path : NULL;
}

/**
 * terrain_hpi_archive_get_file_size:
 * @self: a #TerrainHpiArchive
 * @index: a file index
 *
 * Gets a file's size once decoded, in bytes.
 *
 * Returns: the file's size once decoded, in bytes
 */
guint32
terrain_hpi_archive_get_file_size (TerrainHpiArchive *self,
                                   guint              index)
{
  const HpiFile *file;

  g_return_val_if_fail (TERRAIN_IS_HPI_ARCHIVE (self), 0);

  file = get_file (self, index);
  return file != NULL ? file->size : 0;
}

/**
 * terrain_hpi_archive_get_compression:
 * @self: a #TerrainHpiArchive
 * @index: a file index
 *
 * Gets how a file is stored.
 *
 * Returns: how the file is stored
 */
TerrainHpiCompression
terrain_hpi_archive_get_compression (TerrainHpiArchive *self,
                                     guint              index)
{
  const HpiFile *file;

  g_return_val_if_fail (TERRAIN_IS_HPI_ARCHIVE (self), TERRAIN_HPI_COMPRESSION_NONE);

  file = get_file (self, index);
  return file != NULL ? (TerrainHpiCompression) file->method : TERRAIN_HPI_COMPRESSION_NONE;
}

/* Compares paths as the game does: case-insensitive, '/' or '\' between
 * names, separators at the ends ignored. */
static gboolean
path_equal (const char *a,
            const char *b)
{
  while (*a == '/' || *a == '\\')
    a++;
  while (*b == '/' || *b == '\\')
    b++;
  for (;; a++, b++)
    {
      char ca = *a == '\\' ? '/' : g_ascii_tolower (*a);
      char cb = *b == '\\' ? '/' : g_ascii_tolower (*b);

      if (ca == '\0' && cb == '\0')
        return TRUE;
      if (ca == '\0' && cb == '/' && b[1] == '\0')
        return TRUE;
      if (ca != cb)
        return FALSE;
    }
}

/**
 * terrain_hpi_archive_find:
 * @self: a #TerrainHpiArchive
 * @path: a path inside the archive; case-insensitive, `/` or `\` between
 *   names
 * @index: (out) (optional): the file's index
 *
 * Finds a file in the archive by path.
 *
 * Returns: %TRUE if the archive holds a file at @path (the first, when
 *   names repeat)
 */
gboolean
terrain_hpi_archive_find (TerrainHpiArchive *self,
                          const char        *path,
                          guint             *index)
{
  g_return_val_if_fail (TERRAIN_IS_HPI_ARCHIVE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  for (guint i = 0; i < self->files->len; i++)
    if (path_equal (g_array_index (self->files, HpiFile, i).path, path))
      {
        if (index != NULL)
          *index = i;
        return TRUE;
      }
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Decoding                                                                  */

static gboolean
inflate_chunk (const guint8  *in,
               gsize          in_size,
               guint8        *out,
               gsize          out_size,
               const char   **why,
               TerrainError  *code)
{
  z_stream stream = { 0 };
  int status;

  if (inflateInit (&stream) != Z_OK)
    {
      *why = "zlib could not start";
      *code = TERRAIN_ERROR_IO;
      return FALSE;
    }
  stream.next_in = (Bytef *) in;
  stream.avail_in = (uInt) in_size;
  stream.next_out = out;
  stream.avail_out = (uInt) out_size;
  status = inflate (&stream, Z_FINISH);
  inflateEnd (&stream);

  if (status == Z_STREAM_END && stream.total_out == out_size)
    return TRUE;
  if (status == Z_STREAM_END)
    {
      *why = "the zlib stream inflates to fewer bytes than the chunk declares";
      *code = TERRAIN_ERROR_INVALID_VALUE;
    }
  else if (status == Z_BUF_ERROR && stream.avail_out == 0)
    {
      *why = "the zlib stream inflates to more bytes than the chunk declares";
      *code = TERRAIN_ERROR_INVALID_VALUE;
    }
  else if (status == Z_BUF_ERROR)
    {
      *why = "the zlib stream ends early";
      *code = TERRAIN_ERROR_TRUNCATED;
    }
  else
    {
      *why = "the zlib stream is corrupt";
      *code = TERRAIN_ERROR_INVALID_VALUE;
    }
  return FALSE;
}

static gboolean
chunk_error (GError       **error,
             TerrainError   code,
             const char    *label,
             guint64        position,
             const char    *format,
             ...) G_GNUC_PRINTF (5, 6);

static gboolean
chunk_error (GError       **error,
             TerrainError   code,
             const char    *label,
             guint64        position,
             const char    *format,
             ...)
{
  g_autofree char *why = NULL;
  va_list args;

  va_start (args, format);
  why = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, TERRAIN_ERROR, code, "HPI: %s at byte offset %" G_GUINT64_FORMAT ": %s",
               label, position, why);
  return FALSE;
}

/* Decodes the "SQSH" chunk of @stored bytes at absolute @position, which
 * must inflate to @expected bytes, into @out: undoes the header key
 * (version 1), checks magic, method, sizes and checksum, undoes chunk
 * encryption and decompresses. @label names the chunk in messages
 * ("chunk 2 of 5 of \"maps/x.tnt\"", "directory block"). */
gboolean
terrain_hpi_decode_chunk (TerrainHpiArchive  *self,
                          const char         *label,
                          guint64             position,
                          guint32             stored,
                          gsize               expected,
                          guint8             *out,
                          GError            **error)
{
  TerrainReader reader, header;
  g_autofree guint8 *copy = NULL;
  const guint8 *chunk;
  guint8 version, method, encrypted;
  guint32 compressed, decompressed, checksum, sum;
  const guint8 *magic, *payload;
  const char *why = NULL;
  TerrainError code = TERRAIN_ERROR_INVALID_VALUE;

  /* The chunk as stored: borrowed from the file when nothing needs
   * undoing, otherwise a copy with the key undone. */
  terrain_reader_init (&reader, self->source, "HPI");
  if (!self->obfuscated)
    {
      if (!terrain_reader_check_span (&reader, position, stored, label, error) ||
          !terrain_reader_seek (&reader, (gsize) position, error) ||
          !terrain_reader_peek_bytes (&reader, stored, &chunk, error))
        return FALSE;
    }
  else
    {
      copy = g_malloc (MAX (stored, 1));
      if (!read_plain (self, position, stored, copy, label, error))
        return FALSE;
      chunk = copy;
    }

  terrain_reader_init_data (&header, chunk, stored, (goffset) position, "HPI chunk");
  if (!terrain_reader_read_bytes (&header, 4, &magic, error) ||
      !terrain_reader_read_u8 (&header, &version, error) ||
      !terrain_reader_read_u8 (&header, &method, error) ||
      !terrain_reader_read_u8 (&header, &encrypted, error) ||
      !terrain_reader_read_u32 (&header, &compressed, error) ||
      !terrain_reader_read_u32 (&header, &decompressed, error) ||
      !terrain_reader_read_u32 (&header, &checksum, error))
    return FALSE;

  if (memcmp (magic, "SQSH", 4) != 0)
    return chunk_error (error, TERRAIN_ERROR_BAD_MAGIC, label, position,
                        "magic is not \"SQSH\"");
  if (method != TERRAIN_HPI_COMPRESSION_LZ77 && method != TERRAIN_HPI_COMPRESSION_ZLIB)
    return chunk_error (error, TERRAIN_ERROR_INVALID_VALUE, label, position,
                        "compression method %u (byte offset %" G_GUINT64_FORMAT ") is "
                        "neither 1 (LZ77) nor 2 (zlib)", method, position + 5);
  if (compressed > stored - HPI_CHUNK_HEADER_SIZE)
    return chunk_error (error, TERRAIN_ERROR_TRUNCATED, label, position,
                        "declares %u compressed bytes but is given %u bytes after its "
                        "%d-byte header", compressed, stored - HPI_CHUNK_HEADER_SIZE,
                        HPI_CHUNK_HEADER_SIZE);
  if (decompressed != expected)
    return chunk_error (error, TERRAIN_ERROR_INVALID_VALUE, label, position,
                        "declares %u decompressed bytes (byte offset %" G_GUINT64_FORMAT
                        "); %" G_GSIZE_FORMAT " are needed here", decompressed, position + 11,
                        expected);
  if (!terrain_reader_peek_bytes (&header, compressed, &payload, error))
    return FALSE;

  sum = terrain_hpi_checksum (payload, compressed);
  if (sum != checksum)
    return chunk_error (error, TERRAIN_ERROR_INVALID_VALUE, label, position,
                        "checksum 0x%08x (byte offset %" G_GUINT64_FORMAT ") does not "
                        "match the payload's byte sum 0x%08x", checksum, position + 15, sum);

  if (encrypted)
    {
      guint8 *plain;

      /* Decrypted in place when the chunk is already a copy. */
      if (copy == NULL)
        {
          copy = g_memdup2 (payload, MAX (compressed, 1));
          plain = copy;
        }
      else
        plain = (guint8 *) payload;
      terrain_hpi_chunk_decrypt (plain, compressed);
      payload = plain;
    }

  if (method == TERRAIN_HPI_COMPRESSION_LZ77)
    {
      if (!terrain_hpi_lz77_decompress (payload, compressed, out, expected, NULL, &why))
        return chunk_error (error, TERRAIN_ERROR_INVALID_VALUE, label, position,
                            "LZ77 data: %s", why);
    }
  else if (!inflate_chunk (payload, compressed, out, expected, &why, &code))
    return chunk_error (error, code, label, position, "%s", why);
  return TRUE;
}

/* Decodes a compressed file into @out (the whole file); with @out NULL,
 * each chunk into one buffer of a chunk's size, which validation uses to
 * check a file without holding it. */
static gboolean
decode_chunks (TerrainHpiArchive  *self,
               const HpiFile      *file,
               guint8             *out,
               GError            **error)
{
  guint64 position = file->data_offset;
  gsize written = 0;
  g_autofree guint8 *sink = NULL;
  gsize most = file->chunk_table ? MIN (file->size, (gsize) TERRAIN_HPI_CHUNK_SIZE) : file->size;

  if (file->chunk_table)
    position += 4 * (guint64) file->n_chunks;
  if (out == NULL)
    sink = g_malloc (MAX (most, 1));

  for (guint32 k = 0; k < file->n_chunks; k++)
    {
      gsize expected = MIN (most, file->size - written);
      g_autofree char *label = NULL;

      if (file->chunk_table)
        label = g_strdup_printf ("chunk %u of %u of \"%s\"", k, file->n_chunks, file->path);
      else
        label = g_strdup_printf ("chunk of \"%s\"", file->path);
      if (!terrain_hpi_decode_chunk (self, label, position, file->chunk_sizes[k], expected,
                                     out != NULL ? out + written : sink, error))
        return FALSE;
      written += expected;
      position += file->chunk_sizes[k];
    }

  g_assert (written == file->size);
  return TRUE;
}

/**
 * terrain_hpi_archive_read_file:
 * @self: a #TerrainHpiArchive
 * @index: a file index
 * @error: return location for a #GError
 *
 * Decodes a file: undoes the key, checks each "SQSH" chunk (magic, method,
 * sizes, checksum = byte sum of the payload as stored), undoes chunk
 * encryption and decompresses (LZ77, or zlib through zlib).
 *
 * Returns: (transfer full) (nullable): the file's contents, or %NULL with
 *   %TERRAIN_ERROR_BAD_MAGIC, %TERRAIN_ERROR_INVALID_VALUE (a bad checksum,
 *   method or size, corrupt compressed data), %TERRAIN_ERROR_TRUNCATED or
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED; messages name the file, the chunk and its
 *   byte offset
 */
GBytes *
terrain_hpi_archive_read_file (TerrainHpiArchive  *self,
                               guint               index,
                               GError            **error)
{
  const HpiFile *file;
  guint8 *data;

  g_return_val_if_fail (TERRAIN_IS_HPI_ARCHIVE (self), NULL);

  file = get_file (self, index);
  if (file == NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "HPI: file index %u is out of range (the archive holds %u files)",
                   index, self->files->len);
      return NULL;
    }
  if (!terrain_limits_check_alloc (&self->limits, file->size, 1, file->path, "HPI directory",
                                   file->record_offset, error))
    {
      terrain_error_ensure_utf8 (error);
      return NULL;
    }

  data = g_malloc (MAX (file->size, 1));
  if (file->method == TERRAIN_HPI_COMPRESSION_NONE
      ? !read_plain (self, file->data_offset, file->size, data, file->path, error)
      : !decode_chunks (self, file, data, error))
    {
      /* Messages name the file by its path in the archive's code page. */
      terrain_error_ensure_utf8 (error);
      g_free (data);
      return NULL;
    }

  return g_bytes_new_take (data, file->size);
}

/* What terrain_hpi_archive_read_file () checks, with the same errors, but
 * without holding the file: a chunk at a time. */
static gboolean
check_file (TerrainHpiArchive  *self,
            guint               index,
            GError            **error)
{
  const HpiFile *file = get_file (self, index);
  TerrainReader reader;
  gboolean ok;

  g_assert (file != NULL);
  if (!terrain_limits_check_alloc (&self->limits, file->size, 1, file->path, "HPI directory",
                                   file->record_offset, error))
    {
      terrain_error_ensure_utf8 (error);
      return FALSE;
    }

  /* Stored files: read_plain () can only fail on the span. */
  terrain_reader_init (&reader, self->source, "HPI");
  ok = file->method == TERRAIN_HPI_COMPRESSION_NONE
       ? terrain_reader_check_span (&reader, file->data_offset, file->size, file->path, error)
       : decode_chunks (self, file, NULL, error);
  if (!ok)
    terrain_error_ensure_utf8 (error);
  return ok;
}

/**
 * terrain_hpi_archive_read_path:
 * @self: a #TerrainHpiArchive
 * @path: a path inside the archive, see [method@Terrain.HpiArchive.find]
 * @error: return location for a #GError
 *
 * Decodes the file at @path, see [method@Terrain.HpiArchive.read_file].
 *
 * Returns: (transfer full) (nullable): the contents, or %NULL with
 *   %TERRAIN_ERROR_IO when the archive has no such file, or the decoding
 *   error
 */
GBytes *
terrain_hpi_archive_read_path (TerrainHpiArchive  *self,
                               const char         *path,
                               GError            **error)
{
  guint index;

  g_return_val_if_fail (TERRAIN_IS_HPI_ARCHIVE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  if (!terrain_hpi_archive_find (self, path, &index))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO,
                   "HPI: the archive holds no file \"%s\" (%u files; paths are "
                   "case-insensitive, like maps/NAME.tnt)", path, self->files->len);
      return NULL;
    }
  return terrain_hpi_archive_read_file (self, index, error);
}

/**
 * terrain_hpi_archive_extract:
 * @self: a #TerrainHpiArchive
 * @folder: the folder to extract into; created if missing
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Writes every file of the archive under @folder, directories as folders.
 * Each file is decoded and checked before it is written, and written
 * atomically; names were checked when the archive was read, so no file
 * lands outside @folder.
 *
 * Returns: %TRUE on success; %FALSE with the first decoding or
 *   %TERRAIN_ERROR_IO error (files extracted before it stay)
 */
gboolean
terrain_hpi_archive_extract (TerrainHpiArchive  *self,
                             GFile              *folder,
                             GCancellable       *cancellable,
                             GError            **error)
{
  g_return_val_if_fail (TERRAIN_IS_HPI_ARCHIVE (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (folder), FALSE);

  for (guint i = 0; i < self->files->len; i++)
    {
      const HpiFile *file = &g_array_index (self->files, HpiFile, i);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GFile) target = NULL;
      g_autoptr(GFile) parent = NULL;
      g_autoptr(GError) local = NULL;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      bytes = terrain_hpi_archive_read_file (self, i, error);
      if (bytes == NULL)
        return FALSE;

      target = g_file_resolve_relative_path (folder, file->path);
      parent = g_file_get_parent (target);
      if (parent != NULL && !g_file_make_directory_with_parents (parent, cancellable, &local) &&
          !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_EXISTS))
        {
          g_autofree char *name = g_file_get_parse_name (parent);

          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO, "%s: cannot create the folder: %s",
                       name, local->message);
          return FALSE;
        }
      if (!terrain_file_save_bytes (target, bytes, cancellable, error))
        return FALSE;
    }

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Document                                                                  */

/* The header and directory are written from the model into a copy of the
 * source (file data, gaps and padding come from the copy), then the
 * directory is obfuscated again: an unedited archive writes back byte for
 * byte, and a misread record shows as a difference. */
static GBytes *
terrain_hpi_archive_save_to_bytes (TerrainDocument  *document,
                                   GError          **error)
{
  TerrainHpiArchive *self = TERRAIN_HPI_ARCHIVE (document);
  TerrainReader reader;
  TerrainWriter writer;
  const guint8 *all;
  g_autofree guint8 *plain = NULL;
  gsize span = self->directory_end - self->directory_start;

  if (self->version == HPI_VERSION_2)
    return terrain_hpi_archive_save_v2 (self, error);

  terrain_reader_init (&reader, self->source, "HPI");
  if (!terrain_reader_peek_bytes (&reader, self->file_size, &all, error))
    return NULL;

  /* The directory from the model, over the plain copy's gaps. */
  plain = g_malloc (MAX (self->directory_end, 1));
  memcpy (plain, self->directory, self->directory_end);
  for (guint i = 0; i < self->directories->len; i++)
    {
      const HpiDirectory *d = &g_array_index (self->directories, HpiDirectory, i);

      terrain_put_le32 (plain + d->offset, d->count);
      terrain_put_le32 (plain + d->offset + 4, d->entries_offset);
    }
  for (guint i = 0; i < self->entries->len; i++)
    {
      const HpiEntry *e = &g_array_index (self->entries, HpiEntry, i);

      terrain_put_le32 (plain + e->offset, e->name_offset);
      terrain_put_le32 (plain + e->offset + 4, e->data_offset);
      plain[e->offset + 8] = e->flag;
    }
  for (guint i = 0; i < self->files->len; i++)
    {
      const HpiFile *f = &g_array_index (self->files, HpiFile, i);
      const HpiEntry *e = &g_array_index (self->entries, HpiEntry, f->entry);
      const char *name = strrchr (f->path, '/');

      name = name != NULL ? name + 1 : f->path;
      g_assert (strlen (name) == e->name_length);
      memcpy (plain + e->name_offset, name, e->name_length + 1);
      terrain_put_le32 (plain + f->record_offset, f->data_offset);
      terrain_put_le32 (plain + f->record_offset + 4, f->size);
      plain[f->record_offset + 8] = f->method;
    }
  for (guint i = 1; i < self->directories->len; i++)
    {
      const HpiDirectory *d = &g_array_index (self->directories, HpiDirectory, i);
      const char *name = strrchr (d->path, '/');
      const HpiEntry *e = &g_array_index (self->entries, HpiEntry, d->entry);

      name = name != NULL ? name + 1 : d->path;
      g_assert (strlen (name) == e->name_length);
      memcpy (plain + e->name_offset, name, e->name_length + 1);
    }
  if (self->obfuscated)
    terrain_hpi_xor (plain + self->directory_start, span, self->directory_start,
                     self->key_byte);

  terrain_writer_init_copy (&writer, all, self->file_size);
  terrain_writer_set_section (&writer, "HPI");
  terrain_writer_patch_bytes (&writer, 0, (const guint8 *) "HAPI", 4);
  terrain_writer_patch_u32 (&writer, 4, self->version);
  terrain_writer_patch_u32 (&writer, 8, self->directory_end);
  terrain_writer_patch_u32 (&writer, 12, self->key);
  terrain_writer_patch_u32 (&writer, 16, self->directory_start);
  terrain_writer_patch_bytes (&writer, self->directory_start, plain + self->directory_start,
                              span);

  return terrain_writer_finish (&writer, error);
}

/* Where a file's directory entry is in the file; -1 when it is inside a
 * compressed version 2 directory block. */
static gint64
entry_file_offset (TerrainHpiArchive *self,
                   const HpiFile     *file)
{
  if (self->version != HPI_VERSION_2)
    return g_array_index (self->entries, HpiEntry, file->entry).offset;
  return self->dir_block.packed ? -1 : (gint64) self->dir_block.offset + file->record_offset;
}

/* Decodes a version 2 file and checks it against its entry's checksum of
 * the decoded file (four byte-wise sums): a mismatch means the file or its
 * entry changed. */
static gboolean
check_v2_file (TerrainHpiArchive  *self,
                   guint               index,
                   GError            **error)
{
  const HpiFile *file = get_file (self, index);
  g_autoptr(GBytes) bytes = terrain_hpi_archive_read_file (self, index, error);
  gsize size;
  const guint8 *data;
  guint32 sum;

  if (bytes == NULL)
    return FALSE;
  data = g_bytes_get_data (bytes, &size);
  sum = terrain_hpi_v2_checksum (data, size);
  if (sum == file->checksum)
    return TRUE;
  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
               "HPI directory: \"%s\" (entry at byte %u of the directory block) records "
               "checksum 0x%08x; the decoded file's is 0x%08x", file->path, file->record_offset,
               file->checksum, sum);
  terrain_error_ensure_utf8 (error);
  return FALSE;
}

static GPtrArray *
terrain_hpi_archive_validate (TerrainDocument *document)
{
  TerrainHpiArchive *self = TERRAIN_HPI_ARCHIVE (document);
  GPtrArray *issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  guint bad = 0, repeated = 0;

  for (guint i = 0; i < self->files->len; i++)
    {
      const HpiFile *file = &g_array_index (self->files, HpiFile, i);
      g_autoptr(GError) error = NULL;
      guint first;

      if (terrain_hpi_archive_find (self, file->path, &first) && first != i &&
          repeated++ < MAX_ISSUES)
        g_ptr_array_add (issues,
                         terrain_issue_new (TERRAIN_SEVERITY_WARNING, "HPI directory",
                                            entry_file_offset (self, file), i,
                                            "\"%s\" repeats the path of file %u (paths are "
                                            "case-insensitive); lookups find the first",
                                            file->path, first));

      /* Version 1 files are decoded a chunk at a time, so that validation
       * holds no whole file; a version 2 file is one chunk. */
      if (!(self->version == HPI_VERSION_2 ? check_v2_file (self, i, &error)
                                           : check_file (self, i, &error)) &&
          bad++ < MAX_ISSUES)
        g_ptr_array_add (issues,
                         terrain_issue_new_literal (TERRAIN_SEVERITY_WARNING, "HPI",
                                                    file->data_offset, i, error->message));
    }
  if (bad > MAX_ISSUES)
    g_ptr_array_add (issues,
                     terrain_issue_new (TERRAIN_SEVERITY_WARNING, "HPI", -1, -1,
                                        "%u more files cannot be decoded (%u in all)",
                                        bad - MAX_ISSUES, bad));
  return issues;
}

static JsonNode *
terrain_hpi_archive_describe (TerrainDocument *document)
{
  TerrainHpiArchive *self = TERRAIN_HPI_ARCHIVE (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  guint64 unpacked = 0;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, terrain_format_get_name (TERRAIN_FORMAT_HPI));
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, (gint64) self->file_size);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, self->version);
  if (self->version == HPI_VERSION_2)
    terrain_hpi_archive_describe_v2 (self, builder);
  else
    {
      json_builder_set_member_name (builder, "key");
      json_builder_add_int_value (builder, self->key);
      json_builder_set_member_name (builder, "directory_start");
      json_builder_add_int_value (builder, self->directory_start);
      json_builder_set_member_name (builder, "directory_end");
      json_builder_add_int_value (builder, self->directory_end);
      json_builder_set_member_name (builder, "directories");
      json_builder_add_int_value (builder, self->directories->len - 1);
    }
  json_builder_set_member_name (builder, "files");
  json_builder_add_int_value (builder, self->files->len);
  json_builder_set_member_name (builder, "entries");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->files->len; i++)
    {
      const HpiFile *file = &g_array_index (self->files, HpiFile, i);

      unpacked += file->size;
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "path");
      json_builder_add_string_value (builder, file->path);
      json_builder_set_member_name (builder, "size");
      json_builder_add_int_value (builder, file->size);
      json_builder_set_member_name (builder, "compression");
      json_builder_add_string_value (builder, method_name (file->method));
      json_builder_set_member_name (builder, "stored");
      json_builder_add_int_value (builder, (gint64) (file->data_end - file->data_offset));
      json_builder_set_member_name (builder, "offset");
      json_builder_add_int_value (builder, file->data_offset);
      if (self->version == HPI_VERSION_2)
        {
          json_builder_set_member_name (builder, "date");
          json_builder_add_int_value (builder, file->date);
          json_builder_set_member_name (builder, "checksum");
          json_builder_add_int_value (builder, file->checksum);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "unpacked_size");
  json_builder_add_int_value (builder, (gint64) unpacked);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static char *
terrain_hpi_archive_describe_offset (TerrainDocument *document,
                                     gsize            offset)
{
  TerrainHpiArchive *self = TERRAIN_HPI_ARCHIVE (document);

  if (self->version == HPI_VERSION_2)
    return terrain_hpi_archive_describe_offset_v2 (self, offset);
  if (offset < HPI_HEADER_SIZE)
    return g_strdup ("header");
  if (offset < self->directory_start)
    return g_strdup ("between the header and the directory");

  if (offset >= self->directory_start && offset < self->directory_end)
    {
      for (guint i = 0; i < self->entries->len; i++)
        {
          const HpiEntry *e = &g_array_index (self->entries, HpiEntry, i);

          if (offset >= e->offset && offset < e->offset + HPI_ENTRY_SIZE)
            return g_strdup_printf ("directory, entry %u", i);
          if (offset >= e->name_offset && offset <= e->name_offset + e->name_length)
            return g_strdup_printf ("directory, name of entry %u", i);
        }
      for (guint i = 0; i < self->files->len; i++)
        {
          const HpiFile *f = &g_array_index (self->files, HpiFile, i);

          if (offset >= f->record_offset && offset < f->record_offset + HPI_FILE_RECORD_SIZE)
            return g_strdup_printf ("directory, file record of \"%s\"", f->path);
        }
      for (guint i = 0; i < self->directories->len; i++)
        {
          const HpiDirectory *d = &g_array_index (self->directories, HpiDirectory, i);

          if (offset >= d->offset && offset < d->offset + HPI_DIR_RECORD_SIZE)
            return g_strdup_printf ("directory, record of \"%s/\"", d->path);
        }
      return g_strdup ("directory, unreferenced bytes");
    }

  for (guint i = 0; i < self->files->len; i++)
    {
      const HpiFile *f = &g_array_index (self->files, HpiFile, i);
      guint64 position;

      if (offset < f->data_offset || offset >= f->data_end)
        continue;
      if (f->method == TERRAIN_HPI_COMPRESSION_NONE)
        return g_strdup_printf ("data of \"%s\", byte %" G_GUINT64_FORMAT, f->path,
                                (guint64) offset - f->data_offset);
      position = (guint64) f->data_offset + 4 * (guint64) f->n_chunks;
      if (offset < position)
        return g_strdup_printf ("chunk table of \"%s\"", f->path);
      for (guint32 k = 0; k < f->n_chunks; k++)
        {
          if (offset < position + f->chunk_sizes[k])
            return g_strdup_printf ("chunk %u of \"%s\"%s", k, f->path,
                                    offset < position + HPI_CHUNK_HEADER_SIZE ? ", header" : "");
          position += f->chunk_sizes[k];
        }
    }
  return g_strdup ("unreferenced bytes");
}

static void
terrain_hpi_archive_finalize (GObject *object)
{
  TerrainHpiArchive *self = (TerrainHpiArchive *) object;

  g_clear_pointer (&self->directory, g_free);
  g_clear_pointer (&self->directories, g_array_unref);
  g_clear_pointer (&self->entries, g_array_unref);
  g_clear_pointer (&self->files, g_array_unref);
  terrain_hpi_archive_clear_v2 (self);
  g_clear_pointer (&self->source, g_bytes_unref);

  G_OBJECT_CLASS (terrain_hpi_archive_parent_class)->finalize (object);
}

static void
terrain_hpi_archive_class_init (TerrainHpiArchiveClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  object_class->finalize = terrain_hpi_archive_finalize;

  document_class->save_to_bytes = terrain_hpi_archive_save_to_bytes;
  document_class->validate = terrain_hpi_archive_validate;
  document_class->describe = terrain_hpi_archive_describe;
  document_class->describe_offset = terrain_hpi_archive_describe_offset;
  document_class->parse = terrain_hpi_archive_parse;
  document_class->format = TERRAIN_FORMAT_HPI;
}

static void
terrain_hpi_archive_init (TerrainHpiArchive *self)
{
  self->directories = g_array_new (FALSE, TRUE, sizeof (HpiDirectory));
  g_array_set_clear_func (self->directories, (GDestroyNotify) directory_clear);
  self->entries = g_array_new (FALSE, TRUE, sizeof (HpiEntry));
  self->files = g_array_new (FALSE, TRUE, sizeof (HpiFile));
  g_array_set_clear_func (self->files, (GDestroyNotify) file_clear);
}
