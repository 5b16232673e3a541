/* terrain-io.c: file input and atomic output
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "terrain-io.h"
#include "terrain-io-private.h"
#include "terrain-error.h"

static void
propagate_io_error (GError     **error,
                    GError      *local,
                    GFile       *file,
                    const char  *verb)
{
  g_autofree char *name = g_file_get_parse_name (file);

  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO,
               "%s: cannot %s: %s", name, verb, local->message);
  g_error_free (local);
}

/* Local files smaller than this are read rather than memory-mapped: a
 * mapping costs whole pages (a 2.5 KB map description would cost 4 KiB) and
 * the kernel maps up to 64 KiB of cached pages around each fault, while
 * copying a few kilobytes takes microseconds. Larger files are mapped, so
 * that opening them costs no copy and readers decode lazily. */
#define READ_BELOW (64 * 1024)

/* The whole of a small regular file, read with one allocation of its size;
 * NULL (without an error) when @path is not one, to be mapped instead. */
static GBytes *
read_small_file (const char *path)
{
  GStatBuf st;
  guint8 *data;
  gsize size, done = 0;
  int fd;

  fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size >= READ_BELOW)
    {
      close (fd);
      return NULL;
    }

  size = (gsize) st.st_size;
  if (size == 0)
    {
      close (fd);
      return g_bytes_new (NULL, 0);
    }
  data = g_malloc (size);
  while (done < size)
    {
      gssize n = read (fd, data + done, size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      done += (gsize) n;
    }
  close (fd);
  if (done < size)
    {
      /* Shorter than it was a moment ago, or unreadable: the mapping path
       * reports it as it always did. */
      g_free (data);
      return NULL;
    }
  return g_bytes_new_take (data, size);
}

/* A mapped file keeps a descriptor for terrain_bytes_pread(), found by the
 * address of its contents (one entry per live mapping). */
typedef struct
{
  GMappedFile *mapped;
  int fd;
} MappedSource;

G_LOCK_DEFINE_STATIC (mapped_sources);
static GHashTable *mapped_sources;

static void
mapped_source_free (gpointer data)
{
  MappedSource *source = data;

  G_LOCK (mapped_sources);
  g_hash_table_remove (mapped_sources, g_mapped_file_get_contents (source->mapped));
  G_UNLOCK (mapped_sources);
  close (source->fd);
  g_mapped_file_unref (source->mapped);
  g_free (source);
}

/* @path mapped, with a descriptor kept for pread(); NULL when it cannot be. */
static GBytes *
map_file (const char  *path,
          GError     **error)
{
  MappedSource *source;
  GMappedFile *mapped;
  const char *contents;
  int fd;

  mapped = g_mapped_file_new (path, FALSE, error);
  if (mapped == NULL)
    return NULL;
  contents = g_mapped_file_get_contents (mapped);
  fd = contents != NULL ? g_open (path, O_RDONLY | O_CLOEXEC, 0) : -1;
  if (fd < 0)
    {
      GBytes *bytes = g_mapped_file_get_bytes (mapped);

      g_mapped_file_unref (mapped);
      return bytes;
    }

  source = g_new (MappedSource, 1);
  source->mapped = mapped;
  source->fd = fd;
  G_LOCK (mapped_sources);
  if (mapped_sources == NULL)
    mapped_sources = g_hash_table_new (NULL, NULL);
  g_hash_table_insert (mapped_sources, (gpointer) contents, source);
  G_UNLOCK (mapped_sources);

  return g_bytes_new_with_free_func (contents, g_mapped_file_get_length (mapped),
                                     mapped_source_free, source);
}

gboolean
terrain_bytes_pread (GBytes  *bytes,
                     guint64  offset,
                     void    *buffer,
                     gsize    length)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  int fd = -1;

  if (offset > size || length > size - offset)
    return FALSE;
  if (length == 0)
    return TRUE;

  G_LOCK (mapped_sources);
  if (mapped_sources != NULL)
    {
      MappedSource *source = g_hash_table_lookup (mapped_sources, data);

      if (source != NULL && g_mapped_file_get_length (source->mapped) == size)
        fd = source->fd;
    }
  G_UNLOCK (mapped_sources);

  if (fd >= 0)
    {
      gsize done = 0;

      while (done < length)
        {
          gssize n = pread (fd, (guint8 *) buffer + done, length - done,
                            (off_t) (offset + done));

          if (n < 0 && errno == EINTR)
            continue;
          if (n <= 0)
            break;
          done += (gsize) n;
        }
      if (done == length)
        return TRUE;
      /* Shortened or unreadable since it was mapped: the mapping decides. */
    }

  memcpy (buffer, data + offset, length);
  return TRUE;
}

/**
 * terrain_file_load_bytes:
 * @file: the file to read
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Reads a whole file. A local file of 64 KiB or more is memory-mapped
 * (read-only, private), so opening a large file costs no copy and readers
 * decode lazily from the mapping; a smaller one is read into memory, where
 * it costs its size rather than whole pages; other files are read with GIO.
 *
 * Returns: (transfer full): the file's bytes, or %NULL with
 *   %TERRAIN_ERROR_IO set
 */
GBytes *
terrain_file_load_bytes (GFile         *file,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_autofree char *path = NULL;
  GError *local = NULL;
  GBytes *bytes;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  path = g_file_get_path (file);
  if (path != NULL)
    {
      bytes = read_small_file (path);
      if (bytes != NULL)
        return bytes;

      bytes = map_file (path, &local);
      if (bytes != NULL)
        return bytes;

      /* Fall through for files that cannot be mapped (pipes, /proc). */
      g_clear_error (&local);
    }

  bytes = g_file_load_bytes (file, cancellable, NULL, &local);
  if (bytes == NULL)
    {
      propagate_io_error (error, local, file, "read");
      return NULL;
    }

  return bytes;
}

/**
 * terrain_file_save_bytes:
 * @file: the destination
 * @bytes: the complete new contents
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Writes @bytes to @file atomically: the data goes to a temporary file in the
 * same folder, which is renamed over @file only once it is completely written
 * and closed. If anything fails the original file is left untouched.
 *
 * Returns: %TRUE on success, otherwise %FALSE with %TERRAIN_ERROR_IO set
 */
gboolean
terrain_file_save_bytes (GFile         *file,
                         GBytes        *bytes,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_autofree char *path = NULL;
  GError *local = NULL;
  gsize size = 0;
  const char *data;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (bytes != NULL, FALSE);

  data = g_bytes_get_data (bytes, &size);
  if (data == NULL)
    data = "";

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  path = g_file_get_path (file);
  if (path != NULL)
    {
      g_autofree char *target = realpath (path, NULL);
      GStatBuf st;
      int mode = 0666;

      /* Save through a symbolic link to its target rather than replacing the link. */
      if (target != NULL)
        {
          g_free (path);
          path = g_steal_pointer (&target);
        }
      if (g_stat (path, &st) == 0)
        mode = st.st_mode & 07777;

      /* Unlike g_file_replace_contents(), which truncates the original in place
       * when it cannot create a temporary file, this never falls back to a
       * non-atomic write: the temporary file is fsync()ed and renamed, or the
       * save fails and the original stays as it was. */
      if (!g_file_set_contents_full (path, data, (gssize) size,
                                     G_FILE_SET_CONTENTS_CONSISTENT, mode, &local))
        {
          propagate_io_error (error, local, file, "save");
          return FALSE;
        }
      return TRUE;
    }

  if (!g_file_replace_contents (file, data, size, NULL, FALSE,
                                G_FILE_CREATE_NONE, NULL, cancellable, &local))
    {
      propagate_io_error (error, local, file, "save");
      return FALSE;
    }

  return TRUE;
}
