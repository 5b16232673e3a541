/* terrain-hpi-writer.c: building HPI archives
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>
#include <zlib.h>

#include "terrain-hpi-writer.h"
#include "terrain-hpi-private.h"
#include "core/terrain-error.h"
#include "core/terrain-io.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-writer-private.h"

/*
 * The layout is the one of the archives in the wild (mymaps_v1.hpi): the
 * header; the root directory record; its entry list; then, per entry in
 * case-insensitive name order, its name and its data (a file record, or the
 * subdirectory laid out the same way, recursively); then the file data in
 * the same order. The directory starts at byte 20 and "directory size" is
 * where it ends. With a non-zero key every byte after the header is
 * obfuscated.
 */

typedef struct _Node Node;

struct _Node
{
  char *name;
  gboolean is_directory;
  GPtrArray *children;              /* directories: Node */
  GBytes *contents;                 /* files */
  TerrainHpiCompression compression;

  /* Layout */
  guint64 name_offset;
  guint64 record_offset;            /* directory record or file record */
  guint64 entries_offset;
  GBytes *stored;                   /* files: the bytes as written */
  guint64 data_offset;
};

struct _TerrainHpiWriter
{
  Node *root;
  guint8 key;
  gboolean encrypt_chunks;
};

G_DEFINE_BOXED_TYPE (TerrainHpiWriter, terrain_hpi_writer, terrain_hpi_writer_ref,
                     terrain_hpi_writer_unref)

static void
node_free (Node *node)
{
  g_free (node->name);
  g_clear_pointer (&node->children, g_ptr_array_unref);
  g_clear_pointer (&node->contents, g_bytes_unref);
  g_clear_pointer (&node->stored, g_bytes_unref);
  g_free (node);
}

static Node *
node_new (const char *name,
          gboolean    is_directory)
{
  Node *node = g_new0 (Node, 1);

  node->name = g_strdup (name);
  node->is_directory = is_directory;
  if (is_directory)
    node->children = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
  return node;
}

/**
 * terrain_hpi_writer_new:
 *
 * Creates an empty archive writer: plain (key 0), chunks not encrypted.
 *
 * Returns: (transfer full): a new writer
 */
TerrainHpiWriter *
terrain_hpi_writer_new (void)
{
  TerrainHpiWriter *writer = g_atomic_rc_box_new0 (TerrainHpiWriter);

  writer->root = node_new ("", TRUE);
  return writer;
}

/**
 * terrain_hpi_writer_ref:
 * @writer: a #TerrainHpiWriter
 *
 * Takes a reference on @writer.
 *
 * Returns: (transfer full): @writer
 */
TerrainHpiWriter *
terrain_hpi_writer_ref (TerrainHpiWriter *writer)
{
  return g_atomic_rc_box_acquire (writer);
}

static void
terrain_hpi_writer_clear (TerrainHpiWriter *writer)
{
  node_free (writer->root);
}

/**
 * terrain_hpi_writer_unref:
 * @writer: (transfer full): a #TerrainHpiWriter
 *
 * Drops a reference.
 */
void
terrain_hpi_writer_unref (TerrainHpiWriter *writer)
{
  g_atomic_rc_box_release_full (writer, (GDestroyNotify) terrain_hpi_writer_clear);
}

/**
 * terrain_hpi_writer_set_key:
 * @writer: a #TerrainHpiWriter
 * @key: the header key; 0 writes a plain archive
 *
 * Obfuscates the archive: every byte after the header is XORed with its
 * position XOR ((key << 2) | (key >> 6)), as the game's archives are.
 */
void
terrain_hpi_writer_set_key (TerrainHpiWriter *writer,
                            guint8            key)
{
  g_return_if_fail (writer != NULL);

  writer->key = key;
}

/**
 * terrain_hpi_writer_set_encrypt_chunks:
 * @writer: a #TerrainHpiWriter
 * @encrypt: whether to set the "encrypted" flag of compressed chunks
 *
 * Encrypts the payload of every compressed chunk (byte i stored as
 * ((b XOR i) + i) mod 256).
 */
void
terrain_hpi_writer_set_encrypt_chunks (TerrainHpiWriter *writer,
                                       gboolean          encrypt)
{
  g_return_if_fail (writer != NULL);

  writer->encrypt_chunks = !!encrypt;
}

static Node *
find_child (Node       *directory,
            const char *name)
{
  for (guint i = 0; i < directory->children->len; i++)
    {
      Node *child = g_ptr_array_index (directory->children, i);

      if (g_ascii_strcasecmp (child->name, name) == 0)
        return child;
    }
  return NULL;
}

/**
 * terrain_hpi_writer_add_file:
 * @writer: a #TerrainHpiWriter
 * @path: the path inside the archive: names separated by `/` or `\`
 * @contents: the file's contents, at most 4 GiB
 * @compression: how to store it
 * @error: return location for a #GError
 *
 * Adds a file; directories on its path are made as needed.
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_INVALID_VALUE when
 *   a name of @path is empty, `.` or `..`, or holds `:` or a control
 *   character, or when @path (case-insensitive) is already taken by a file
 *   or crosses one, or %TERRAIN_ERROR_LIMIT_EXCEEDED for a file over 4 GiB
 */
gboolean
terrain_hpi_writer_add_file (TerrainHpiWriter       *writer,
                             const char             *path,
                             GBytes                 *contents,
                             TerrainHpiCompression   compression,
                             GError                **error)
{
  g_auto(GStrv) names = NULL;
  guint n;
  Node *directory;
  Node *file;

  g_return_val_if_fail (writer != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (contents != NULL, FALSE);
  g_return_val_if_fail (compression <= TERRAIN_HPI_COMPRESSION_ZLIB, FALSE);

  if (g_bytes_get_size (contents) > G_MAXUINT32)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "HPI: \"%s\" is larger than the 4 GiB an archive entry can hold", path);
      return FALSE;
    }

  names = g_regex_split_simple ("[/\\\\]", path, 0, 0);
  n = g_strv_length (names);
  if (n == 0)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                           "HPI: an empty path names no file");
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      const char *name = names[i];
      gboolean bad = name[0] == '\0' || strcmp (name, ".") == 0 || strcmp (name, "..") == 0 ||
                     strchr (name, ':') != NULL || strlen (name) > HPI_MAX_NAME;

      for (const char *c = name; *c != '\0' && !bad; c++)
        bad = (guchar) *c < 0x20;
      if (bad)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "HPI: \"%s\" is not a valid archive path (name %u is empty, \".\", "
                       "\"..\", too long, or holds ':' or a control character)", path, i + 1);
          return FALSE;
        }
    }

  directory = writer->root;
  for (guint i = 0; i + 1 < n; i++)
    {
      Node *child = find_child (directory, names[i]);

      if (child == NULL)
        {
          child = node_new (names[i], TRUE);
          g_ptr_array_add (directory->children, child);
        }
      else if (!child->is_directory)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "HPI: \"%s\" needs a directory \"%s\" where the archive already holds a "
                       "file", path, names[i]);
          return FALSE;
        }
      directory = child;
    }

  if (find_child (directory, names[n - 1]) != NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "HPI: the archive already holds \"%s\" (paths are case-insensitive)", path);
      return FALSE;
    }

  file = node_new (names[n - 1], FALSE);
  file->contents = g_bytes_ref (contents);
  file->compression = compression;
  g_ptr_array_add (directory->children, file);
  return TRUE;
}

/**
 * terrain_hpi_writer_has_file:
 * @writer: a #TerrainHpiWriter
 * @path: a path inside the archive: names separated by `/` or `\\`
 *
 * Tells whether a file was added at @path, names compared ignoring ASCII
 * case as the game does.
 *
 * Returns: %TRUE when @writer holds a file (not a directory) at @path
 */
gboolean
terrain_hpi_writer_has_file (TerrainHpiWriter *writer,
                             const char       *path)
{
  g_auto(GStrv) names = NULL;
  Node *node;

  g_return_val_if_fail (writer != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  names = g_regex_split_simple ("[/\\\\]", path, 0, 0);
  node = writer->root;
  for (guint i = 0; names[i] != NULL; i++)
    {
      if (!node->is_directory)
        return FALSE;
      node = find_child (node, names[i]);
      if (node == NULL)
        return FALSE;
    }
  return node != writer->root && !node->is_directory;
}

static int
compare_nodes (gconstpointer a,
               gconstpointer b)
{
  const Node *x = *(const Node * const *) a;
  const Node *y = *(const Node * const *) b;

  return g_ascii_strcasecmp (x->name, y->name);
}

static void
layout_directory (Node    *directory,
                  guint64 *position)
{
  directory->record_offset = *position;
  *position += HPI_DIR_RECORD_SIZE;
  directory->entries_offset = *position;
  *position += (guint64) HPI_ENTRY_SIZE * directory->children->len;

  g_ptr_array_sort (directory->children, compare_nodes);
  for (guint i = 0; i < directory->children->len; i++)
    {
      Node *child = g_ptr_array_index (directory->children, i);

      child->name_offset = *position;
      *position += strlen (child->name) + 1;
      if (child->is_directory)
        layout_directory (child, position);
      else
        {
          child->record_offset = *position;
          *position += HPI_FILE_RECORD_SIZE;
        }
    }
}

/* Chunks of the file as stored: the table of chunk sizes, then each chunk
 * ("SQSH" header, payload). */
static GBytes *
compress_file (const TerrainHpiWriter  *writer,
               Node                    *file,
               GError                 **error)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (file->contents, &size);
  guint32 n_chunks = (guint32) ((size + TERRAIN_HPI_CHUNK_SIZE - 1) / TERRAIN_HPI_CHUNK_SIZE);
  TerrainWriter out;
  g_autoptr(GByteArray) payload = g_byte_array_new ();
  gsize table;

  if (file->compression == TERRAIN_HPI_COMPRESSION_NONE)
    return g_bytes_ref (file->contents);

  terrain_writer_init (&out, size / 2 + 4 * (gsize) n_chunks + 64);
  terrain_writer_set_section (&out, file->name);
  table = terrain_writer_tell (&out);
  terrain_writer_put_zeros (&out, 4 * (gsize) n_chunks);

  for (guint32 k = 0; k < n_chunks; k++)
    {
      gsize offset = (gsize) k * TERRAIN_HPI_CHUNK_SIZE;
      gsize length = MIN ((gsize) TERRAIN_HPI_CHUNK_SIZE, size - offset);

      g_byte_array_set_size (payload, 0);
      if (file->compression == TERRAIN_HPI_COMPRESSION_LZ77)
        terrain_hpi_lz77_compress (data + offset, length, payload);
      else
        {
          uLongf bound = compressBound ((uLong) length);
          int status;

          g_byte_array_set_size (payload, (guint) bound);
          status = compress2 (payload->data, &bound, data + offset, (uLong) length,
                              Z_DEFAULT_COMPRESSION);
          if (status != Z_OK)
            {
              terrain_writer_clear (&out);
              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO,
                           "HPI: zlib could not compress chunk %u of \"%s\" (status %d)",
                           k, file->name, status);
              return NULL;
            }
          g_byte_array_set_size (payload, (guint) bound);
        }
      if (writer->encrypt_chunks)
        terrain_hpi_chunk_encrypt (payload->data, payload->len);

      terrain_writer_patch_u32 (&out, table + 4 * (gsize) k,
                                HPI_CHUNK_HEADER_SIZE + payload->len);
      terrain_writer_put_bytes (&out, (const guint8 *) "SQSH", 4);
      terrain_writer_put_u8 (&out, HPI_CHUNK_VERSION);
      terrain_writer_put_u8 (&out, (guint8) file->compression);
      terrain_writer_put_u8 (&out, writer->encrypt_chunks ? 1 : 0);
      terrain_writer_put_u32 (&out, payload->len);
      terrain_writer_put_u32 (&out, (guint32) length);
      terrain_writer_put_u32 (&out, terrain_hpi_checksum (payload->data, payload->len));
      terrain_writer_put_bytes (&out, payload->data, payload->len);
    }

  return terrain_writer_finish (&out, error);
}

static gboolean
prepare_data (const TerrainHpiWriter  *writer,
              Node                    *directory,
              guint64                 *position,
              GError                 **error)
{
  for (guint i = 0; i < directory->children->len; i++)
    {
      Node *child = g_ptr_array_index (directory->children, i);

      if (child->is_directory)
        {
          if (!prepare_data (writer, child, position, error))
            return FALSE;
          continue;
        }
      g_clear_pointer (&child->stored, g_bytes_unref);
      child->stored = compress_file (writer, child, error);
      if (child->stored == NULL)
        return FALSE;
      child->data_offset = *position;
      *position += g_bytes_get_size (child->stored);
    }
  return TRUE;
}

static void
write_directory (const Node *directory,
                 guint8     *buffer)
{
  terrain_put_le32 (buffer + directory->record_offset, directory->children->len);
  terrain_put_le32 (buffer + directory->record_offset + 4, (guint32) directory->entries_offset);

  for (guint i = 0; i < directory->children->len; i++)
    {
      const Node *child = g_ptr_array_index (directory->children, i);
      guint8 *entry = buffer + directory->entries_offset + (gsize) HPI_ENTRY_SIZE * i;

      terrain_put_le32 (entry, (guint32) child->name_offset);
      terrain_put_le32 (entry + 4, (guint32) child->record_offset);
      entry[8] = child->is_directory ? 1 : 0;
      memcpy (buffer + child->name_offset, child->name, strlen (child->name) + 1);

      if (child->is_directory)
        write_directory (child, buffer);
      else
        {
          guint8 *record = buffer + child->record_offset;

          terrain_put_le32 (record, (guint32) child->data_offset);
          terrain_put_le32 (record + 4, (guint32) g_bytes_get_size (child->contents));
          record[8] = (guint8) child->compression;
        }
    }
}

static void
write_data (const Node    *directory,
            TerrainWriter *out)
{
  for (guint i = 0; i < directory->children->len; i++)
    {
      const Node *child = g_ptr_array_index (directory->children, i);

      if (child->is_directory)
        write_data (child, out);
      else
        {
          gsize size = 0;
          const guint8 *data = g_bytes_get_data (child->stored, &size);

          g_assert (terrain_writer_tell (out) == child->data_offset || out->overflow);
          terrain_writer_put_bytes (out, data, size);
        }
    }
}

/**
 * terrain_hpi_writer_to_bytes:
 * @writer: a #TerrainHpiWriter
 * @error: return location for a #GError
 *
 * Lays out and writes the archive: version 0x00010000, the directory from
 * byte 20 with entries in case-insensitive name order, then the file data,
 * compressed files in 64 KiB "SQSH" chunks (version 2, checksum = byte sum
 * of the payload as stored).
 *
 * Returns: (transfer full) (nullable): the archive, or %NULL with
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED when it would pass 4 GiB
 */
GBytes *
terrain_hpi_writer_to_bytes (TerrainHpiWriter  *writer,
                             GError           **error)
{
  guint64 directory_end = HPI_HEADER_SIZE;
  guint64 end;
  g_autofree guint8 *directory = NULL;
  TerrainWriter out;
  g_autoptr(GBytes) bytes = NULL;
  guint8 *data;
  gsize size;

  g_return_val_if_fail (writer != NULL, NULL);

  layout_directory (writer->root, &directory_end);
  end = directory_end;
  if (directory_end > G_MAXUINT32 || !prepare_data (writer, writer->root, &end, error))
    {
      if (directory_end > G_MAXUINT32)
        g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                             "HPI: the directory would pass 4 GiB");
      return NULL;
    }
  if (end > G_MAXUINT32)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "HPI: the archive would be %" G_GUINT64_FORMAT " bytes; offsets reach only "
                   "4 GiB", end);
      return NULL;
    }

  directory = g_malloc0 (directory_end);
  write_directory (writer->root, directory);

  terrain_writer_init (&out, (gsize) end);
  terrain_writer_set_section (&out, "HPI");
  terrain_writer_put_bytes (&out, (const guint8 *) "HAPI", 4);
  terrain_writer_put_u32 (&out, HPI_VERSION);
  terrain_writer_put_u32 (&out, (guint32) directory_end);
  terrain_writer_put_u32 (&out, writer->key);
  terrain_writer_put_u32 (&out, HPI_HEADER_SIZE);
  terrain_writer_put_bytes (&out, directory + HPI_HEADER_SIZE, directory_end - HPI_HEADER_SIZE);
  write_data (writer->root, &out);

  bytes = terrain_writer_finish (&out, error);
  if (bytes == NULL || writer->key == 0)
    return g_steal_pointer (&bytes);

  data = g_bytes_unref_to_data (g_steal_pointer (&bytes), &size);
  terrain_hpi_xor (data + HPI_HEADER_SIZE, size - HPI_HEADER_SIZE, HPI_HEADER_SIZE,
                   terrain_hpi_key_byte (writer->key));
  return g_bytes_new_take (data, size);
}

/**
 * terrain_hpi_writer_save:
 * @writer: a #TerrainHpiWriter
 * @file: the archive to write
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Writes the archive atomically (temporary file, then rename): a failed
 * save leaves @file as it was.
 *
 * Returns: %TRUE on success
 */
gboolean
terrain_hpi_writer_save (TerrainHpiWriter  *writer,
                         GFile             *file,
                         GCancellable      *cancellable,
                         GError           **error)
{
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (writer != NULL, FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  bytes = terrain_hpi_writer_to_bytes (writer, error);
  return bytes != NULL && terrain_file_save_bytes (file, bytes, cancellable, error);
}

/**
 * terrain_hpi_pack_map:
 * @name: the map's name: the archive holds `maps/NAME.tnt` and
 *   `maps/NAME.ota`
 * @tnt: the map terrain
 * @ota: (nullable): the map description
 * @error: return location for a #GError
 *
 * Builds a plain archive holding one map, both files zlib-compressed, as
 * players install them (one `.ufo` or `.hpi` per map).
 *
 * Returns: (transfer full) (nullable): the archive, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE when @name cannot be a file name
 */
GBytes *
terrain_hpi_pack_map (const char  *name,
                      GBytes      *tnt,
                      GBytes      *ota,
                      GError     **error)
{
  g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
  g_autofree char *tnt_path = NULL;
  g_autofree char *ota_path = NULL;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (tnt != NULL, NULL);

  if (strpbrk (name, "/\\") != NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "HPI: map name \"%s\" cannot hold '/' or '\\'", name);
      return NULL;
    }
  tnt_path = g_strdup_printf ("maps/%s.tnt", name);
  ota_path = g_strdup_printf ("maps/%s.ota", name);
  if (!terrain_hpi_writer_add_file (writer, tnt_path, tnt, TERRAIN_HPI_COMPRESSION_ZLIB, error) ||
      (ota != NULL &&
       !terrain_hpi_writer_add_file (writer, ota_path, ota, TERRAIN_HPI_COMPRESSION_ZLIB, error)))
    return NULL;
  return terrain_hpi_writer_to_bytes (writer, error);
}
