/* terrain-hpi-archive-v2.c: version 2 HPI archives (TA: Kingdoms)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-hpi-archive-private.h"
#include "terrain-hpi-private.h"
#include "core/terrain-error.h"
#include "core/terrain-error-private.h"
#include "core/terrain-io.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-writer-private.h"

/*
 * Layout (docs/formats/ta-files.md, "HPI version 2"; Joe D's
 * Hpi-fmt2.txt and HPIPack.c, kbot's formats/hpi/hpi_v2.go):
 *
 *   0   "HAPI"
 *   4   u32 version, 0x00020000
 *   8   u32 offset of the directory block      12  u32 its size in the file
 *   16  u32 offset of the name block          20  u32 its size in the file
 *   24  u32 "Data", the start of file data (0x20)
 *   28  u32 "Last78": 0, or the offset of a 78-byte trailer
 *
 * There is no header key. Each block is stored as it is, or as one "SQSH"
 * chunk when its first four bytes say so. Offsets inside the directory
 * block are relative to the decoded block; name pointers are offsets into
 * the decoded name block, which starts with a NUL (the root's name). The
 * root directory record is at offset 0 of the directory block:
 *
 *   directory record (20 bytes): u32 name, first subdirectory record,
 *     subdirectory count, first file entry, file count
 *   file entry (24 bytes): u32 name, start (absolute), decoded size,
 *     compressed size (0: stored), date (time_t), checksum
 *
 * A compressed file is one "SQSH" chunk of `compressed size` bytes (header
 * included) that inflates to the whole file: no chunk table, no 64 KiB
 * limit. The reader decodes both blocks and checks every record, name and
 * span before the archive is usable, as for version 1.
 */

typedef struct
{
  GHashTable *seen;        /* directory record offsets already read */
  guint64 budget;          /* records the directory block still has room for */
} Walk;

static void
directory2_clear (HpiDirectory2 *directory)
{
  g_free (directory->path);
}

/**
 * terrain_hpi_v2_checksum:
 * @data: (array length=size): a decoded file
 * @size: its size in bytes
 *
 * The checksum of a version 2 file entry: four 8-bit sums in one word, low
 * byte first: the bytes added, the bytes XORed, each byte XOR its offset
 * added, each byte plus its offset XORed (offsets modulo 256).
 *
 * Returns: the checksum
 */
guint32
terrain_hpi_v2_checksum (const guint8 *data,
                         gsize         size)
{
  guint8 check[4] = { 0, 0, 0, 0 };

  for (gsize i = 0; i < size; i++)
    {
      guint8 c = data[i];
      guint8 low = (guint8) (i & 0xff);

      check[0] = (guint8) (check[0] + c);
      check[1] ^= c;
      check[2] = (guint8) (check[2] + (c ^ low));
      check[3] ^= (guint8) (c + low);
    }
  return (guint32) check[0] | (guint32) check[1] << 8 | (guint32) check[2] << 16 |
         (guint32) check[3] << 24;
}

/* Neither zlib (at most 1032 to 1, zlib's technical notes) nor the LZ77
 * scheme (17 bytes from 2, plus a tag bit) inflates @stored bytes to more
 * than this: a larger declared size is not allocated. */
static guint64
inflate_bound (guint32 stored)
{
  return (guint64) stored * 1032 + 1024;
}

/* Reads a block the header points at (its offset at @field), decoding it
 * when it is one chunk. */
static gboolean
read_block (TerrainHpiArchive  *self,
            HpiBlock           *block,
            const char         *what,
            guint               field,
            GError            **error)
{
  TerrainReader reader;
  const guint8 *bytes;
  g_autofree char *span = g_strdup_printf ("%s (header fields at byte offsets %u and %u)",
                                           what, field, field + 4);

  terrain_reader_init (&reader, self->source, "HPI");
  if (!terrain_reader_check_span (&reader, block->offset, block->size, span, error) ||
      !terrain_reader_seek (&reader, block->offset, error) ||
      !terrain_reader_peek_bytes (&reader, block->size, &bytes, error))
    return FALSE;

  block->packed = block->size >= 4 && memcmp (bytes, "SQSH", 4) == 0;
  if (!block->packed)
    {
      /* An empty block still gets a buffer of its own, but no byte is read
       * past its end (the block may end the file). */
      block->plain = block->size > 0 ? g_memdup2 (bytes, block->size) : g_malloc0 (1);
      block->plain_size = block->size;
      return TRUE;
    }

  if (block->size < HPI_CHUNK_HEADER_SIZE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "HPI: %s at byte offset %u starts with \"SQSH\" but its %u bytes (size at "
                   "byte offset %u) cannot hold a %d-byte chunk header", what, block->offset,
                   block->size, field + 4, HPI_CHUNK_HEADER_SIZE);
      return FALSE;
    }
  block->plain_size = terrain_get_le32 (bytes + 11);
  if (block->plain_size > inflate_bound (block->size))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "HPI: %s at byte offset %u declares %" G_GSIZE_FORMAT " decoded bytes "
                   "(byte offset %u), more than its %u bytes can inflate to", what,
                   block->offset, block->plain_size, block->offset + 11, block->size);
      return FALSE;
    }
  if (!terrain_limits_check_alloc (&self->limits, block->plain_size, 1, what, "HPI",
                                   block->offset + 11, error))
    return FALSE;
  block->plain = g_malloc (MAX (block->plain_size, 1));
  return terrain_hpi_decode_chunk (self, what, block->offset, block->size, block->plain_size,
                                   block->plain, error);
}

static gboolean
check_in_block (TerrainHpiArchive  *self,
                guint64             offset,
                guint64             count,
                guint               size,
                const char         *what,
                const char         *path,
                GError            **error)
{
  guint64 end = offset + count * size;

  /* offset and count are 32-bit: no overflow in 64 bits. */
  if (end <= self->dir_block.plain_size)
    return TRUE;
  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
               "HPI directory block: %s of \"%s\" at byte %" G_GUINT64_FORMAT " (%"
               G_GUINT64_FORMAT " bytes) lies outside the %s block of %" G_GSIZE_FORMAT
               " bytes", what, path, offset, count * size,
               self->dir_block.packed ? "decoded" : "stored", self->dir_block.plain_size);
  return FALSE;
}

static char *
read_name (TerrainHpiArchive  *self,
           guint32             name_offset,
           guint32             record,
           const char         *parent_path,
           GError            **error)
{
  const guint8 *names = self->name_block.plain;
  gsize size = self->name_block.plain_size;
  const guint8 *nul;
  g_autofree char *name = NULL;
  const char *why;

  if (name_offset >= size)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "HPI directory block: the record at byte %u in \"%s\" names byte %u of the "
                   "name block, which holds %" G_GSIZE_FORMAT " bytes", record, parent_path,
                   name_offset, size);
      return NULL;
    }
  nul = memchr (names + name_offset, 0, MIN (size - name_offset, (gsize) HPI_MAX_NAME + 1));
  if (nul == NULL)
    {
      gboolean long_name = size - name_offset > HPI_MAX_NAME;

      g_set_error (error, TERRAIN_ERROR,
                   long_name ? TERRAIN_ERROR_LIMIT_EXCEEDED : TERRAIN_ERROR_TRUNCATED,
                   "HPI name block: the name at byte %u (record at byte %u of the directory "
                   "block, in \"%s\") %s", name_offset, record, parent_path,
                   long_name ? "is longer than 1024 bytes"
                             : "has no terminating NUL before the end of the block");
      return NULL;
    }
  name = g_strndup ((const char *) names + name_offset, (gsize) (nul - (names + name_offset)));
  why = terrain_hpi_name_problem (name);
  if (why != NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "HPI name block: the name at byte %u (record at byte %u of the directory "
                   "block, in \"%s\") is not a valid file name: it %s", name_offset, record,
                   parent_path, why);
      return NULL;
    }
  return g_steal_pointer (&name);
}

static gboolean
read_file_entry (TerrainHpiArchive  *self,
                 guint32             offset,
                 const char         *parent_path,
                 GError            **error)
{
  const guint8 *p = self->dir_block.plain + offset;
  HpiFile file = { 0 };
  TerrainReader data;
  g_autofree char *name = NULL;

  file.record_offset = offset;
  file.entry = G_MAXUINT;
  file.name_offset = terrain_get_le32 (p);
  file.data_offset = terrain_get_le32 (p + 4);
  file.size = terrain_get_le32 (p + 8);
  file.stored_size = terrain_get_le32 (p + 12);
  file.date = terrain_get_le32 (p + 16);
  file.checksum = terrain_get_le32 (p + 20);

  name = read_name (self, file.name_offset, offset, parent_path, error);
  if (name == NULL)
    return FALSE;
  file.path = parent_path[0] != '\0' ? g_strconcat (parent_path, "/", name, NULL)
                                     : g_strdup (name);

  terrain_reader_init (&data, self->source, "HPI");
  if (file.stored_size == 0)
    {
      g_autofree char *what = g_strdup_printf ("data of \"%s\"", file.path);

      file.method = TERRAIN_HPI_COMPRESSION_NONE;
      file.data_end = (guint64) file.data_offset + file.size;
      g_array_append_val (self->files, file);
      return terrain_reader_check_span (&data, file.data_offset, file.size, what, error);
    }

  file.chunk_table = FALSE;
  file.n_chunks = 1;
  file.chunk_sizes = g_new (guint32, 1);
  file.chunk_sizes[0] = file.stored_size;
  file.data_end = (guint64) file.data_offset + file.stored_size;
  g_array_append_val (self->files, file);
  {
    const HpiFile *added = &g_array_index (self->files, HpiFile, self->files->len - 1);
    g_autofree char *what = g_strdup_printf ("chunk of \"%s\"", added->path);
    guint8 method;

    if (added->stored_size < HPI_CHUNK_HEADER_SIZE)
      {
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                     "HPI directory block: \"%s\" (entry at byte %u) is compressed into %u "
                     "bytes, less than a %d-byte chunk header", added->path, offset,
                     added->stored_size, HPI_CHUNK_HEADER_SIZE);
        return FALSE;
      }
    if (added->size > inflate_bound (added->stored_size))
      {
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                     "HPI directory block: \"%s\" (entry at byte %u) declares %u decoded "
                     "bytes, more than its %u compressed bytes can inflate to", added->path,
                     offset, added->size, added->stored_size);
        return FALSE;
      }
    if (!terrain_reader_check_span (&data, added->data_offset, added->stored_size, what,
                                    error) ||
        !terrain_reader_seek (&data, added->data_offset + 5, error) ||
        !terrain_reader_read_u8 (&data, &method, error))
      return FALSE;
    if (method != TERRAIN_HPI_COMPRESSION_LZ77 && method != TERRAIN_HPI_COMPRESSION_ZLIB)
      {
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                     "HPI: %s at byte offset %u has compression method %u (byte offset %u); "
                     "known are 1 (LZ77) and 2 (zlib)", what, added->data_offset, method,
                     added->data_offset + 5);
        return FALSE;
      }
    g_array_index (self->files, HpiFile, self->files->len - 1).method = method;
  }
  return TRUE;
}

static gboolean
read_directory (TerrainHpiArchive  *self,
                guint32             record,
                const char         *path,
                guint               depth,
                Walk               *walk,
                GError            **error)
{
  HpiDirectory2 directory = { record, 0, 0, 0, 0, 0, NULL };
  const char *shown = path[0] != '\0' ? path : "/";
  const guint8 *p;

  if (depth > TERRAIN_HPI_MAX_DEPTH)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "HPI directory block: \"%s\" nests deeper than %d directories", shown,
                   TERRAIN_HPI_MAX_DEPTH);
      return FALSE;
    }
  if (g_hash_table_contains (walk->seen, GUINT_TO_POINTER (record)))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP,
                   "HPI directory block: \"%s\" is the directory record at byte %u, which "
                   "another directory already lists", shown, record);
      return FALSE;
    }
  g_hash_table_add (walk->seen, GUINT_TO_POINTER (record));
  if (!check_in_block (self, record, 1, HPI_V2_DIR_SIZE, "directory record", shown, error))
    return FALSE;

  p = self->dir_block.plain + record;
  directory.name_offset = terrain_get_le32 (p);
  directory.first_sub = terrain_get_le32 (p + 4);
  directory.sub_count = terrain_get_le32 (p + 8);
  directory.first_file = terrain_get_le32 (p + 12);
  directory.file_count = terrain_get_le32 (p + 16);

  /* Every record takes 20 bytes or more of the block: more records than
   * it has room for means that lists share records. */
  if ((guint64) directory.sub_count + directory.file_count > walk->budget)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP,
                   "HPI directory block: \"%s\" (record at byte %u) lists %u subdirectories "
                   "and %u files, more than the block has room for beside the others (record "
                   "lists overlap)", shown, record, directory.sub_count, directory.file_count);
      return FALSE;
    }
  walk->budget -= (guint64) directory.sub_count + directory.file_count;
  if ((directory.sub_count > 0 &&
       !check_in_block (self, directory.first_sub, directory.sub_count, HPI_V2_DIR_SIZE,
                        "subdirectory list", shown, error)) ||
      (directory.file_count > 0 &&
       !check_in_block (self, directory.first_file, directory.file_count, HPI_V2_ENTRY_SIZE,
                        "file list", shown, error)))
    return FALSE;

  directory.path = g_strdup (path);
  g_array_append_val (self->directories2, directory);

  /* Subdirectories first, then files, as Kingdoms' tools list them. */
  for (guint32 i = 0; i < directory.sub_count; i++)
    {
      guint32 sub = directory.first_sub + i * HPI_V2_DIR_SIZE;
      g_autofree char *name = NULL;
      g_autofree char *child = NULL;

      name = read_name (self, terrain_get_le32 (self->dir_block.plain + sub), sub, shown,
                        error);
      if (name == NULL)
        return FALSE;
      child = path[0] != '\0' ? g_strconcat (path, "/", name, NULL) : g_strdup (name);
      if (!read_directory (self, sub, child, depth + 1, walk, error))
        return FALSE;
    }
  for (guint32 i = 0; i < directory.file_count; i++)
    if (!read_file_entry (self, directory.first_file + i * HPI_V2_ENTRY_SIZE, path, error))
      return FALSE;
  return TRUE;
}

gboolean
terrain_hpi_archive_parse_v2 (TerrainHpiArchive  *self,
                              GError            **error)
{
  TerrainReader reader;
  Walk walk;
  gboolean ok;

  self->directories2 = g_array_new (FALSE, TRUE, sizeof (HpiDirectory2));
  g_array_set_clear_func (self->directories2, (GDestroyNotify) directory2_clear);

  terrain_reader_init (&reader, self->source, "HPI header");
  if (!terrain_reader_seek (&reader, 8, error) ||
      !terrain_reader_read_u32 (&reader, &self->dir_block.offset, error) ||
      !terrain_reader_read_u32 (&reader, &self->dir_block.size, error) ||
      !terrain_reader_read_u32 (&reader, &self->name_block.offset, error) ||
      !terrain_reader_read_u32 (&reader, &self->name_block.size, error) ||
      !terrain_reader_read_u32 (&reader, &self->data_start, error) ||
      !terrain_reader_read_u32 (&reader, &self->last78, error))
    return FALSE;

  if (!read_block (self, &self->dir_block, "directory block", 8, error) ||
      !read_block (self, &self->name_block, "name block", 16, error))
    return FALSE;
  if (self->dir_block.plain_size < HPI_V2_DIR_SIZE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "HPI directory block at byte offset %u: %" G_GSIZE_FORMAT " bytes cannot "
                   "hold the root directory record (%d bytes)", self->dir_block.offset,
                   self->dir_block.plain_size, HPI_V2_DIR_SIZE);
      return FALSE;
    }

  walk.seen = g_hash_table_new (NULL, NULL);
  walk.budget = self->dir_block.plain_size / HPI_V2_DIR_SIZE;
  ok = read_directory (self, 0, "", 0, &walk, error);
  g_hash_table_unref (walk.seen);
  return ok;
}

static void
describe_block (JsonBuilder    *builder,
                const char     *member,
                const HpiBlock *block)
{
  json_builder_set_member_name (builder, member);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "offset");
  json_builder_add_int_value (builder, block->offset);
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, block->size);
  json_builder_set_member_name (builder, "compressed");
  json_builder_add_boolean_value (builder, block->packed);
  json_builder_set_member_name (builder, "decoded_size");
  json_builder_add_int_value (builder, (gint64) block->plain_size);
  json_builder_end_object (builder);
}

/* The header members of terrain_hpi_archive_describe (). */
void
terrain_hpi_archive_describe_v2 (TerrainHpiArchive *self,
                                 JsonBuilder       *builder)
{
  describe_block (builder, "directory_block", &self->dir_block);
  describe_block (builder, "name_block", &self->name_block);
  json_builder_set_member_name (builder, "data_start");
  json_builder_add_int_value (builder, self->data_start);
  json_builder_set_member_name (builder, "last78");
  json_builder_add_int_value (builder, self->last78);
  json_builder_set_member_name (builder, "directories");
  json_builder_add_int_value (builder, self->directories2->len - 1);
}

static gboolean
in_span (gsize   offset,
         guint64 start,
         guint64 size)
{
  return offset >= start && offset - start < size;
}

char *
terrain_hpi_archive_describe_offset_v2 (TerrainHpiArchive *self,
                                        gsize              offset)
{
  if (offset < HPI_V2_HEADER_SIZE)
    return g_strdup ("header");

  if (in_span (offset, self->dir_block.offset, self->dir_block.size))
    {
      gsize at = offset - self->dir_block.offset;

      if (self->dir_block.packed)
        return g_strdup (at < HPI_CHUNK_HEADER_SIZE ? "directory block, chunk header"
                                                    : "directory block, compressed");
      for (guint i = 0; i < self->directories2->len; i++)
        {
          const HpiDirectory2 *d = &g_array_index (self->directories2, HpiDirectory2, i);

          if (in_span (at, d->offset, HPI_V2_DIR_SIZE))
            return g_strdup_printf ("directory block, record of \"%s/\"", d->path);
        }
      for (guint i = 0; i < self->files->len; i++)
        {
          const HpiFile *f = &g_array_index (self->files, HpiFile, i);

          if (in_span (at, f->record_offset, HPI_V2_ENTRY_SIZE))
            return g_strdup_printf ("directory block, entry of \"%s\"", f->path);
        }
      return g_strdup ("directory block, unreferenced bytes");
    }
  if (in_span (offset, self->name_block.offset, self->name_block.size))
    return g_strdup (self->name_block.packed && offset - self->name_block.offset <
                     HPI_CHUNK_HEADER_SIZE ? "name block, chunk header" : "name block");

  for (guint i = 0; i < self->files->len; i++)
    {
      const HpiFile *f = &g_array_index (self->files, HpiFile, i);

      if (!in_span (offset, f->data_offset, f->data_end - f->data_offset))
        continue;
      if (f->method == TERRAIN_HPI_COMPRESSION_NONE)
        return g_strdup_printf ("data of \"%s\", byte %" G_GSIZE_FORMAT, f->path,
                                offset - f->data_offset);
      return g_strdup_printf ("chunk of \"%s\"%s", f->path,
                              offset - f->data_offset < HPI_CHUNK_HEADER_SIZE ? ", header"
                                                                              : "");
    }
  if (self->last78 != 0 && offset >= self->last78)
    return g_strdup ("trailer");
  return g_strdup ("unreferenced bytes");
}

/* The last name of @path, with its NUL, at @offset. */
static void
patch_name (TerrainWriter *writer,
            gsize          offset,
            const char    *path)
{
  const char *name = strrchr (path, '/');

  name = name != NULL ? name + 1 : path;
  terrain_writer_patch_bytes (writer, offset, (const guint8 *) name, strlen (name) + 1);
}

/* The header, and the directory and name blocks when they are stored as
 * they are, from the model over a copy of the source: an unedited archive
 * writes back byte for byte, and a misread record shows as a difference.
 * Compressed blocks are copied as they are (nothing edits them). */
GBytes *
terrain_hpi_archive_save_v2 (TerrainHpiArchive  *self,
                             GError            **error)
{
  TerrainReader reader;
  TerrainWriter writer;
  const guint8 *all;

  terrain_reader_init (&reader, self->source, "HPI");
  if (!terrain_reader_peek_bytes (&reader, self->file_size, &all, error))
    return NULL;

  terrain_writer_init_copy (&writer, all, self->file_size);
  terrain_writer_set_section (&writer, "HPI");
  terrain_writer_patch_bytes (&writer, 0, (const guint8 *) "HAPI", 4);
  terrain_writer_patch_u32 (&writer, 4, self->version);
  terrain_writer_patch_u32 (&writer, 8, self->dir_block.offset);
  terrain_writer_patch_u32 (&writer, 12, self->dir_block.size);
  terrain_writer_patch_u32 (&writer, 16, self->name_block.offset);
  terrain_writer_patch_u32 (&writer, 20, self->name_block.size);
  terrain_writer_patch_u32 (&writer, 24, self->data_start);
  terrain_writer_patch_u32 (&writer, 28, self->last78);

  if (!self->dir_block.packed)
    {
      gsize base = self->dir_block.offset;

      for (guint i = 0; i < self->directories2->len; i++)
        {
          const HpiDirectory2 *d = &g_array_index (self->directories2, HpiDirectory2, i);

          terrain_writer_patch_u32 (&writer, base + d->offset, d->name_offset);
          terrain_writer_patch_u32 (&writer, base + d->offset + 4, d->first_sub);
          terrain_writer_patch_u32 (&writer, base + d->offset + 8, d->sub_count);
          terrain_writer_patch_u32 (&writer, base + d->offset + 12, d->first_file);
          terrain_writer_patch_u32 (&writer, base + d->offset + 16, d->file_count);
        }
      for (guint i = 0; i < self->files->len; i++)
        {
          const HpiFile *f = &g_array_index (self->files, HpiFile, i);

          terrain_writer_patch_u32 (&writer, base + f->record_offset, f->name_offset);
          terrain_writer_patch_u32 (&writer, base + f->record_offset + 4, f->data_offset);
          terrain_writer_patch_u32 (&writer, base + f->record_offset + 8, f->size);
          terrain_writer_patch_u32 (&writer, base + f->record_offset + 12, f->stored_size);
          terrain_writer_patch_u32 (&writer, base + f->record_offset + 16, f->date);
          terrain_writer_patch_u32 (&writer, base + f->record_offset + 20, f->checksum);
        }
    }
  if (!self->name_block.packed)
    {
      for (guint i = 0; i < self->files->len; i++)
        {
          const HpiFile *f = &g_array_index (self->files, HpiFile, i);

          patch_name (&writer, self->name_block.offset + (gsize) f->name_offset, f->path);
        }
      for (guint i = 1; i < self->directories2->len; i++)
        {
          const HpiDirectory2 *d = &g_array_index (self->directories2, HpiDirectory2, i);

          patch_name (&writer, self->name_block.offset + (gsize) d->name_offset, d->path);
        }
    }

  return terrain_writer_finish (&writer, error);
}

void
terrain_hpi_archive_clear_v2 (TerrainHpiArchive *self)
{
  g_clear_pointer (&self->dir_block.plain, g_free);
  g_clear_pointer (&self->name_block.plain, g_free);
  g_clear_pointer (&self->directories2, g_array_unref);
}
