/* terrain-dat1.c: Insomniac DAT1 containers: detection, LZ4 framing,
 * reading and the accessors. TerrainDat1 is one class in three files
 * sharing terrain-dat1-impl-private.h: this one, terrain-dat1-write.c (the
 * three-path writer: original bytes, in-place patches, aligned relayout;
 * new images) and terrain-dat1-check.c (validation, description, offsets).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>
#include <lz4.h>
#include <lz4hc.h>

#include "terrain-dat1.h"
#include "terrain-dat1-private.h"
#include "terrain-dat1-impl-private.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"

/* Detection follows at most this many LZ4 literal-length bytes (runs of up
 * to ~65 KiB of literals before "1TAD" would be unusual). */
#define SNIFF_MAX_LENGTH_BYTES 256

G_DEFINE_TYPE_WITH_PRIVATE (TerrainDat1, terrain_dat1, TERRAIN_TYPE_DOCUMENT)

TerrainDat1Private *
dat1_get_private (TerrainDat1 *self)
{
  return terrain_dat1_get_instance_private (self);
}

static Dat1Section *
find_section (TerrainDat1Private *priv,
              guint32             tag)
{
  for (guint i = 0; i < priv->n_sections; i++)
    if (priv->sections[i].tag == tag)
      return &priv->sections[i];
  return NULL;
}

static gint
compare_offsets (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  const Dat1Section *sections = user_data;
  const Dat1Section *sa = &sections[*(const guint *) a], *sb = &sections[*(const guint *) b];

  return sa->offset < sb->offset ? -1 : sa->offset > sb->offset ? 1 : 0;
}

/* Fills @order with the section indices in file order. */
void
dat1_sort_by_offset (TerrainDat1Private *priv,
                     guint              *order)
{
  for (guint i = 0; i < priv->n_sections; i++)
    order[i] = i;
  g_qsort_with_data (order, priv->n_sections, sizeof order[0], compare_offsets, priv->sections);
}

/* Detection */

static gboolean
reader_has_magic (TerrainReader *reader)
{
  const guint8 *p = NULL;

  return terrain_reader_peek_bytes (reader, 4, &p, NULL) && memcmp (p, "1TAD", 4) == 0;
}

/* A raw LZ4 block starts with a token whose high nibble counts literals
 * (15 = more length bytes follow, each 255 meaning "more again"); the first
 * literals of a compressed DAT1 are its header, so "1TAD" follows the length
 * bytes: at byte 1, 2 or 3 of the block for runs under 525 bytes. */
static gboolean
sniff_lz4_block (TerrainReader *reader,
                 guint32       *asset_type)
{
  guint64 literals;
  guint8 token, b;
  guint32 type = 0;

  if (!terrain_reader_read_u8 (reader, &token, NULL))
    return FALSE;
  literals = token >> 4;
  if (literals == 15)
    {
      for (guint i = 0;; i++)
        {
          if (i >= SNIFF_MAX_LENGTH_BYTES || !terrain_reader_read_u8 (reader, &b, NULL))
            return FALSE;
          literals += b;
          if (b != 255)
            break;
        }
    }

  if (literals < 4 || !reader_has_magic (reader))
    return FALSE;

  if (literals >= 8 && terrain_reader_skip (reader, 4, NULL) &&
      terrain_reader_read_u32 (reader, &type, NULL))
    *asset_type = type;
  else
    *asset_type = 0;
  return TRUE;
}

gboolean
terrain_dat1_sniff (const guint8     *data,
                    gsize             size,
                    TerrainDat1Sniff *sniff)
{
  TerrainReader reader;
  guint32 value = 0;

  memset (sniff, 0, sizeof *sniff);
  if (data == NULL)
    return FALSE;
  terrain_reader_init_data (&reader, data, size, 0, "DAT1");

  /* A plain DAT1. */
  if (reader_has_magic (&reader))
    {
      if (terrain_reader_seek (&reader, OFF_ASSET_TYPE, NULL) &&
          terrain_reader_read_u32 (&reader, &value, NULL))
        sniff->asset_type = value;
      return TRUE;
    }

  /* A 36-byte wrapper before a plain DAT1 or a raw LZ4 block. */
  if (size > TERRAIN_DAT1_WRAPPER_SIZE)
    {
      guint32 magic = 0;

      if (!terrain_reader_read_u32 (&reader, &magic, NULL) ||
          !terrain_reader_seek (&reader, TERRAIN_DAT1_WRAPPER_SIZE, NULL))
        return FALSE;

      if (reader_has_magic (&reader))
        {
          sniff->has_wrapper = TRUE;
          sniff->body_offset = TERRAIN_DAT1_WRAPPER_SIZE;
          sniff->asset_type = magic;
          return TRUE;
        }
      if (sniff_lz4_block (&reader, &value))
        {
          sniff->has_wrapper = TRUE;
          sniff->compressed = TRUE;
          sniff->body_offset = TERRAIN_DAT1_WRAPPER_SIZE;
          sniff->asset_type = magic;
          return TRUE;
        }
    }

  /* A bare raw LZ4 block. */
  if (terrain_reader_seek (&reader, 0, NULL) && sniff_lz4_block (&reader, &value))
    {
      sniff->compressed = TRUE;
      sniff->asset_type = value;
      return TRUE;
    }

  return FALSE;
}

/* LZ4 */

/* Walks the sequences of a raw LZ4 block without writing anything, checking
 * its structure and computing the decompressed size, so that the allocation
 * is checked against the limits before it is made. */
static gboolean
lz4_decoded_size (TerrainReader        *block,
                  const TerrainLimits  *limits,
                  guint64              *decoded,
                  GError              **error)
{
  guint64 produced = 0;
  guint64 sequence = 0;

  while (terrain_reader_remaining (block) > 0)
    {
      goffset at = terrain_reader_abs_offset (block);
      guint64 literals, match;
      guint16 distance;
      guint8 token, b;

      if (!terrain_reader_read_u8 (block, &token, error))
        return FALSE;
      literals = token >> 4;
      if (literals == 15)
        do
          {
            if (!terrain_reader_read_u8 (block, &b, error))
              return FALSE;
            literals += b;
          }
        while (b == 255);

      if (!terrain_reader_skip (block, (gsize) literals, error))
        return FALSE;
      produced += literals;

      /* The last sequence holds literals only. */
      if (terrain_reader_remaining (block) == 0)
        break;

      if (!terrain_reader_read_u16 (block, &distance, error))
        return FALSE;
      if (distance == 0 || distance > produced)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                       "%s: sequence %" G_GUINT64_FORMAT " at byte offset %" G_GOFFSET_FORMAT
                       " copies from %u bytes back, but only %" G_GUINT64_FORMAT
                       " bytes have been decoded",
                       block->section, sequence, at, distance, produced);
          return FALSE;
        }

      match = token & 0xF;
      if (match == 15)
        do
          {
            if (!terrain_reader_read_u8 (block, &b, error))
              return FALSE;
            match += b;
          }
        while (b == 255);
      produced += match + 4;

      if (produced > limits->max_allocation)
        return terrain_limits_check_alloc (limits, produced, 1, "decompressed DAT1 image",
                                           block->section, at, error);
      sequence++;
    }

  if (!terrain_limits_check_alloc (limits, produced, 1, "decompressed DAT1 image",
                                   block->section, block->base, error))
    return FALSE;
  if (produced > G_MAXINT)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "%s: decompresses to %" G_GUINT64_FORMAT " bytes, more than LZ4 blocks "
                   "can hold", block->section, produced);
      return FALSE;
    }

  *decoded = produced;
  return TRUE;
}

static GBytes *
lz4_decompress (TerrainReader        *block,
                const TerrainLimits  *limits,
                GError              **error)
{
  TerrainReader scan = *block;
  const guint8 *src = NULL;
  guint64 size = 0;
  guint8 *dest;
  int n;

  if (terrain_reader_get_size (block) > G_MAXINT)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "%s: the block at byte offset %" G_GOFFSET_FORMAT " is %" G_GSIZE_FORMAT
                   " bytes, more than LZ4 can decode", block->section, block->base,
                   terrain_reader_get_size (block));
      return NULL;
    }
  if (!lz4_decoded_size (&scan, limits, &size, error))
    return NULL;
  if (!terrain_reader_peek_bytes (block, terrain_reader_get_size (block), &src, error))
    return NULL;

  dest = g_malloc (MAX (size, 1));
  n = LZ4_decompress_safe ((const char *) src, (char *) dest,
                           (int) terrain_reader_get_size (block), (int) size);
  if (n < 0 || (guint64) n != size)
    {
      g_free (dest);
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "%s: the raw LZ4 block at byte offset %" G_GOFFSET_FORMAT " (%" G_GSIZE_FORMAT
                   " bytes) is malformed: liblz4 rejects it (result %d, expected %"
                   G_GUINT64_FORMAT " bytes)",
                   block->section, block->base, terrain_reader_get_size (block), n, size);
      return NULL;
    }

  return g_bytes_new_take (dest, (gsize) size);
}

/**
 * terrain_dat1_compress_lz4:
 * @image: a DAT1 image
 * @error: return location for a #GError
 *
 * Compresses @image into one raw LZ4 block (no frame, no size prefix) as
 * Sunset Overdrive stores its assets (field-notes.md). Any LZ4 decoder given
 * the image size restores @image exactly; the compressed bytes need not equal
 * those of the game's tools.
 *
 * Returns: (transfer full) (nullable): the block, or %NULL with
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED when @image is too large for LZ4
 */
GBytes *
terrain_dat1_compress_lz4 (GBytes  *image,
                           GError **error)
{
  const guint8 *src;
  gsize size = 0;
  guint8 *dest;
  int bound, n;

  g_return_val_if_fail (image != NULL, NULL);

  src = g_bytes_get_data (image, &size);
  if (size > LZ4_MAX_INPUT_SIZE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "DAT1: a %" G_GSIZE_FORMAT "-byte image is larger than LZ4 blocks can "
                   "hold (%d bytes)", size, LZ4_MAX_INPUT_SIZE);
      return NULL;
    }

  bound = LZ4_compressBound ((int) size);
  dest = g_malloc (MAX (bound, 1));
  n = LZ4_compress_HC ((const char *) src, (char *) dest, (int) size, bound,
                       LZ4HC_CLEVEL_DEFAULT);
  if (n <= 0)
    {
      g_free (dest);
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "DAT1: liblz4 failed to compress a %" G_GSIZE_FORMAT "-byte image", size);
      return NULL;
    }

  return g_bytes_new_take (g_realloc (dest, n), n);
}

/* Reading */

static gboolean
read_container (TerrainDat1          *self,
                GBytes               *bytes,
                const TerrainLimits  *limits,
                GError              **error)
{
  TerrainDat1Private *priv = terrain_dat1_get_instance_private (self);
  TerrainDat1Sniff sniff;
  TerrainReader file, image, table;
  const guint8 *data;
  gsize size = 0;
  guint32 magic;
  guint64 table_size, table_end;
  g_autofree guint *order = NULL;

  data = g_bytes_get_data (bytes, &size);
  terrain_reader_init (&file, bytes, "DAT1");

  if (!terrain_dat1_sniff (data, size, &sniff))
    {
      if (size < 4)
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                     "DAT1: the data is %" G_GSIZE_FORMAT " bytes, too short for the 4-byte "
                     "\"1TAD\" magic at byte offset 0", size);
      else
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                     "DAT1: no \"1TAD\" magic at byte offset 0, none after a %d-byte wrapper "
                     "(byte offset %d), and no raw LZ4 block starting with it at byte offset 0 "
                     "or %d",
                     TERRAIN_DAT1_WRAPPER_SIZE, TERRAIN_DAT1_WRAPPER_SIZE,
                     TERRAIN_DAT1_WRAPPER_SIZE);
      return FALSE;
    }

  priv->has_wrapper = sniff.has_wrapper;
  priv->compression = sniff.compressed ? TERRAIN_DAT1_COMPRESSION_LZ4
                                       : TERRAIN_DAT1_COMPRESSION_NONE;
  priv->body_offset = sniff.body_offset;
  priv->body_size = size - sniff.body_offset;

  if (priv->has_wrapper)
    {
      terrain_reader_init (&file, bytes, "DAT1 wrapper");
      if (!terrain_reader_read_u32 (&file, &priv->wrapper_magic, error) ||
          !terrain_reader_read_u32 (&file, &priv->wrapper_size, error) ||
          !terrain_reader_copy_bytes (&file, WRAPPER_TAIL_SIZE, priv->wrapper_tail, error))
        return FALSE;
    }

  if (priv->compression == TERRAIN_DAT1_COMPRESSION_LZ4)
    {
      TerrainReader block;

      if (!terrain_reader_sub (&file, priv->body_offset, priv->body_size, "DAT1 LZ4 block",
                               &block, error))
        return FALSE;
      priv->image = lz4_decompress (&block, limits, error);
      if (priv->image == NULL)
        return FALSE;
      terrain_reader_init (&image, priv->image,
                           "DAT1 header (in the LZ4-decompressed image)");
    }
  else
    {
      priv->image = g_bytes_new_from_bytes (bytes, priv->body_offset, priv->body_size);
      terrain_reader_init_data (&image, g_bytes_get_data (priv->image, NULL), priv->body_size,
                                (goffset) priv->body_offset, "DAT1 header");
    }
  priv->image_data = g_bytes_get_data (priv->image, &priv->image_size);

  if (!terrain_reader_check_span (&image, 0, TERRAIN_DAT1_HEADER_SIZE, "16-byte header", error) ||
      !terrain_reader_read_u32 (&image, &magic, error) ||
      !terrain_reader_read_u32 (&image, &priv->asset_type, error) ||
      !terrain_reader_read_u32 (&image, &priv->declared_size, error) ||
      !terrain_reader_read_u16 (&image, &priv->n_sections, error) ||
      !terrain_reader_read_u16 (&image, &priv->n_extra, error))
    return FALSE;
  g_assert (magic == TERRAIN_DAT1_MAGIC);

  if (priv->declared_size > priv->image_size)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "%s: the total size at byte offset %" G_GOFFSET_FORMAT " declares %u bytes, "
                   "but the %s has only %" G_GSIZE_FORMAT,
                   image.section, image.base + OFF_TOTAL_SIZE, priv->declared_size,
                   priv->compression == TERRAIN_DAT1_COMPRESSION_LZ4 ? "decompressed image"
                                                                     : "DAT1",
                   priv->image_size);
      return FALSE;
    }

  table_size = (guint64) priv->n_sections * TERRAIN_DAT1_SECTION_ENTRY_SIZE +
               (guint64) priv->n_extra * TERRAIN_DAT1_EXTRA_ENTRY_SIZE;
  table_end = TERRAIN_DAT1_HEADER_SIZE + table_size;
  {
    g_autofree char *what =
      g_strdup_printf ("section table of %u entries and %u extra entries (counts at byte "
                       "offsets %" G_GOFFSET_FORMAT " and %" G_GOFFSET_FORMAT ")",
                       priv->n_sections, priv->n_extra, image.base + OFF_SECTION_COUNT,
                       image.base + OFF_EXTRA_COUNT);

    image.section = dat1_image_name (priv, "DAT1 section table",
                                     "DAT1 section table (in the LZ4-decompressed image)");
    if (!terrain_reader_check_span (&image, TERRAIN_DAT1_HEADER_SIZE, table_size, what, error))
      return FALSE;
  }

  if (!terrain_limits_check_alloc (limits, priv->n_sections, sizeof (Dat1Section),
                                   "section table", image.section,
                                   image.base + OFF_SECTION_COUNT, error))
    return FALSE;

  priv->sections = g_new0 (Dat1Section, MAX (priv->n_sections, 1));
  priv->extra_offset = TERRAIN_DAT1_HEADER_SIZE +
                       (gsize) priv->n_sections * TERRAIN_DAT1_SECTION_ENTRY_SIZE;
  priv->strings_offset = (gsize) table_end;
  priv->strings_end = priv->image_size;

  if (!terrain_reader_sub (&image, TERRAIN_DAT1_HEADER_SIZE, table_size, image.section, &table,
                           error))
    return FALSE;

  for (guint i = 0; i < priv->n_sections; i++)
    {
      Dat1Section *section = &priv->sections[i];
      g_autofree char *what = NULL;

      section->entry_offset = (guint32) (TERRAIN_DAT1_HEADER_SIZE +
                                         i * TERRAIN_DAT1_SECTION_ENTRY_SIZE);
      if (!terrain_reader_read_u32 (&table, &section->tag, error) ||
          !terrain_reader_read_u32 (&table, &section->offset, error) ||
          !terrain_reader_read_u32 (&table, &section->size, error))
        return FALSE;

      what = g_strdup_printf ("section %u (tag 0x%08X, table entry at byte offset %"
                              G_GOFFSET_FORMAT ")", i, section->tag,
                              image.base + section->entry_offset);
      if (!terrain_reader_check_span (&image, section->offset, section->size, what, error))
        return FALSE;

      if (section->size > 0 && section->offset < table_end)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP,
                       "%s: %s starts at byte offset %" G_GOFFSET_FORMAT ", inside the header "
                       "and tables, which end at byte offset %" G_GOFFSET_FORMAT,
                       image.section, what, image.base + section->offset,
                       image.base + (goffset) table_end);
          return FALSE;
        }

      for (guint j = 0; j < i; j++)
        if (priv->sections[j].tag == section->tag)
          {
            g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                         "%s: %s repeats the tag of section %u", image.section, what, j);
            return FALSE;
          }

      section->data = priv->image_data + section->offset;
      section->data_size = section->size;
      if (section->offset >= table_end && section->offset < priv->strings_end)
        priv->strings_end = section->offset;
    }

  /* No two sections may share a byte. */
  order = g_new (guint, MAX (priv->n_sections, 1));
  dat1_sort_by_offset (priv, order);
  {
    guint64 reach = 0;
    gint last = -1;

    for (guint i = 0; i < priv->n_sections; i++)
      {
        const Dat1Section *section = &priv->sections[order[i]];

        if (section->size == 0)
          continue;
        if (last >= 0 && section->offset < reach)
          {
            const Dat1Section *other = &priv->sections[last];

            g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP,
                         "%s: section %u (tag 0x%08X, bytes %" G_GOFFSET_FORMAT " to %"
                         G_GOFFSET_FORMAT ") and section %u (tag 0x%08X, bytes %"
                         G_GOFFSET_FORMAT " to %" G_GOFFSET_FORMAT ") overlap",
                         image.section, (guint) last, other->tag, image.base + other->offset,
                         image.base + other->offset + other->size - 1, order[i], section->tag,
                         image.base + section->offset,
                         image.base + section->offset + section->size - 1);
            return FALSE;
          }
        reach = (guint64) section->offset + section->size;
        last = (gint) order[i];
      }
  }

  return TRUE;
}

/* The document's `parse`, for TERRAIN_TYPE_DAT1 and its subclasses: reads
 * the container from @bytes, then runs the asset type's own `parse`
 * (TerrainDat1Class) over its sections. */
static gboolean
terrain_dat1_parse_document (TerrainDocument      *document,
                             GBytes               *bytes,
                             const TerrainLimits  *limits,
                             GError              **error)
{
  TerrainDat1 *self = TERRAIN_DAT1 (document);
  TerrainDat1Class *klass = TERRAIN_DAT1_GET_CLASS (self);

  if (!read_container (self, bytes, limits, error))
    return FALSE;
  return klass->parse == NULL || klass->parse (self, limits, error);
}

/**
 * terrain_dat1_new_from_bytes:
 * @bytes: the file's contents
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Reads a DAT1 container of any asset type: a plain DAT1, one behind the
 * Sunset Overdrive 36-byte wrapper, or one stored as a raw LZ4 block (with or
 * without the wrapper). The sections are kept as bytes; asset types libterrain
 * decodes have their own constructors, e.g. [ctor@Terrain.Model.new_from_bytes].
 *
 * Fails with %TERRAIN_ERROR_BAD_MAGIC when there is no DAT1,
 * %TERRAIN_ERROR_TRUNCATED when the header, the tables or a section run past
 * the end, %TERRAIN_ERROR_OUT_OF_RANGE when a section starts past the end,
 * %TERRAIN_ERROR_OVERLAP when sections share bytes or overlap the tables,
 * %TERRAIN_ERROR_INVALID_VALUE for a repeated tag or a malformed LZ4 block, and
 * %TERRAIN_ERROR_LIMIT_EXCEEDED when the decompressed size exceeds @limits.
 *
 * Returns: (transfer full) (nullable): the container, or %NULL with a
 *   %TERRAIN_ERROR set
 */
TerrainDat1 *
terrain_dat1_new_from_bytes (GBytes               *bytes,
                             const TerrainLimits  *limits,
                             GError              **error)
{
  return TERRAIN_DAT1 (terrain_document_new_from_bytes (TERRAIN_TYPE_DAT1, bytes, limits, error));
}

/* Accessors */

/**
 * terrain_dat1_get_asset_type:
 * @self: a #TerrainDat1
 *
 * Gets the asset type word of the DAT1 header.
 *
 * Returns: the asset type word of the DAT1 header (e.g. 0x6AE15C79 for a
 *   Sunset Overdrive model)
 */
guint32
terrain_dat1_get_asset_type (TerrainDat1 *self)
{
  TerrainDat1Private *priv = terrain_dat1_get_instance_private (self);

  g_return_val_if_fail (TERRAIN_IS_DAT1 (self), 0);

  return priv->asset_type;
}

/**
 * terrain_dat1_get_compression:
 * @self: a #TerrainDat1
 *
 * Gets how the DAT1 was stored in the file read.
 *
 * Returns: how the DAT1 was stored in the file read
 */
TerrainDat1Compression
terrain_dat1_get_compression (TerrainDat1 *self)
{
  TerrainDat1Private *priv = terrain_dat1_get_instance_private (self);

  g_return_val_if_fail (TERRAIN_IS_DAT1 (self), TERRAIN_DAT1_COMPRESSION_NONE);

  return priv->compression;
}

/**
 * terrain_dat1_get_wrapper:
 * @self: a #TerrainDat1
 * @magic: (out) (optional): the wrapper's asset type magic
 * @size: (out) (optional): the wrapper's size word (the DAT1 image size in
 *   the files known)
 *
 * Reads the Sunset Overdrive 36-byte wrapper, when the file has one.
 *
 * Returns: %TRUE if the file has the wrapper
 */
gboolean
terrain_dat1_get_wrapper (TerrainDat1 *self,
                          guint32     *magic,
                          guint32     *size)
{
  TerrainDat1Private *priv = terrain_dat1_get_instance_private (self);

  g_return_val_if_fail (TERRAIN_IS_DAT1 (self), FALSE);

  if (magic != NULL)
    *magic = priv->wrapper_magic;
  if (size != NULL)
    *size = priv->wrapper_size;
  return priv->has_wrapper;
}

/**
 * terrain_dat1_get_n_sections:
 * @self: a #TerrainDat1
 *
 * Gets the number of entries in the section table.
 *
 * Returns: the number of entries in the section table
 */
guint
terrain_dat1_get_n_sections (TerrainDat1 *self)
{
  TerrainDat1Private *priv = terrain_dat1_get_instance_private (self);

  g_return_val_if_fail (TERRAIN_IS_DAT1 (self), 0);

  return priv->n_sections;
}

/**
 * terrain_dat1_get_section_tag:
 * @self: a #TerrainDat1
 * @index: a section-table index, below [method@Terrain.Dat1.get_n_sections]
 *
 * Gets the tag of section-table entry @index.
 *
 * Returns: the tag (CRC32 of the section's name) of entry @index
 */
guint32
terrain_dat1_get_section_tag (TerrainDat1 *self,
                              guint        index)
{
  TerrainDat1Private *priv = terrain_dat1_get_instance_private (self);

  g_return_val_if_fail (TERRAIN_IS_DAT1 (self), 0);
  g_return_val_if_fail (index < priv->n_sections, 0);

  return priv->sections[index].tag;
}

/**
 * terrain_dat1_has_section:
 * @self: a #TerrainDat1
 * @tag: a section tag
 *
 * Checks whether the section table has an entry for @tag.
 *
 * Returns: %TRUE if the section table has an entry for @tag
 */
gboolean
terrain_dat1_has_section (TerrainDat1 *self,
                          guint32      tag)
{
  g_return_val_if_fail (TERRAIN_IS_DAT1 (self), FALSE);

  return find_section (terrain_dat1_get_instance_private (self), tag) != NULL;
}

/**
 * terrain_dat1_get_section_span:
 * @self: a #TerrainDat1
 * @tag: a section tag
 * @offset: (out) (optional): the section's offset from the DAT1 start, as read
 * @size: (out) (optional): the section's current size in bytes
 *
 * Gets where a section lies and how large it is.
 *
 * Returns: %TRUE if the section exists
 */
gboolean
terrain_dat1_get_section_span (TerrainDat1 *self,
                               guint32      tag,
                               gsize       *offset,
                               gsize       *size)
{
  Dat1Section *section;

  g_return_val_if_fail (TERRAIN_IS_DAT1 (self), FALSE);

  section = find_section (terrain_dat1_get_instance_private (self), tag);
  if (section == NULL)
    return FALSE;
  if (offset != NULL)
    *offset = section->offset;
  if (size != NULL)
    *size = section->data_size;
  return TRUE;
}

/**
 * terrain_dat1_get_section_data:
 * @self: a #TerrainDat1
 * @tag: a section tag
 *
 * Returns the current contents of a section: the bytes read, or the edited
 * contents. Sections libterrain does not decode (skin data, vertex colours,
 * unknown tags) are reached this way and written back unchanged.
 *
 * Returns: (transfer full) (nullable): the section's bytes, or %NULL when
 *   there is no section @tag
 */
GBytes *
terrain_dat1_get_section_data (TerrainDat1 *self,
                               guint32      tag)
{
  TerrainDat1Private *priv = terrain_dat1_get_instance_private (self);
  Dat1Section *section;

  g_return_val_if_fail (TERRAIN_IS_DAT1 (self), NULL);

  section = find_section (priv, tag);
  if (section == NULL)
    return NULL;
  if (dat1_section_changed (section))
    return g_bytes_new (section->data, section->data_size);
  return g_bytes_new_from_bytes (priv->image, section->offset, section->size);
}

/**
 * terrain_dat1_set_section_data:
 * @self: a #TerrainDat1
 * @tag: the tag of an existing section
 * @data: the section's new contents, of any size
 * @error: return location for a #GError
 *
 * Replaces the contents of a section. When the size changes, the writer lays
 * the sections after it out anew (16-byte aligned) and updates the section
 * table and the total size; otherwise only the section's bytes change.
 * Subclasses that decode the section do not see the new contents until the
 * document is read again, so prefer their own setters.
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_NOT_SUPPORTED when
 *   there is no section @tag (adding sections would move the string block,
 *   which sections address by absolute offset), or
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED when @data exceeds 4 GiB
 */
gboolean
terrain_dat1_set_section_data (TerrainDat1  *self,
                               guint32       tag,
                               GBytes       *data,
                               GError      **error)
{
  TerrainDat1Private *priv = terrain_dat1_get_instance_private (self);
  Dat1Section *section;
  const guint8 *bytes;
  gsize size = 0;

  g_return_val_if_fail (TERRAIN_IS_DAT1 (self), FALSE);
  g_return_val_if_fail (data != NULL, FALSE);

  section = find_section (priv, tag);
  if (section == NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "DAT1: there is no section 0x%08X to replace; adding sections is not "
                   "supported", tag);
      return FALSE;
    }

  bytes = g_bytes_get_data (data, &size);
  if (size > G_MAXUINT32)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "DAT1: section 0x%08X would be %" G_GSIZE_FORMAT " bytes, more than a "
                   "32-bit size can hold", tag, size);
      return FALSE;
    }

  g_free (section->owned);
  section->owned = g_malloc (MAX (size, 1));
  if (size > 0)
    memcpy (section->owned, bytes, size);
  section->data = section->owned;
  section->data_size = size;
  terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);

  return TRUE;
}

gboolean
terrain_dat1_get_section_reader (TerrainDat1   *self,
                                 guint32        tag,
                                 const char    *name,
                                 TerrainReader *reader)
{
  TerrainDat1Private *priv = terrain_dat1_get_instance_private (self);
  Dat1Section *section = find_section (priv, tag);

  if (section == NULL)
    return FALSE;

  /* Offsets in errors are file offsets for a plain DAT1 and image offsets
   * for a compressed one, whose section names say so. */
  if (priv->compression == TERRAIN_DAT1_COMPRESSION_LZ4)
    {
      if (section->reader_name == NULL)
        section->reader_name = g_strdup_printf ("%s (in the LZ4-decompressed DAT1)",
                                                name != NULL ? name : "section");
      name = section->reader_name;
    }
  terrain_reader_init_data (reader, section->data, section->data_size,
                            (goffset) ((priv->compression == TERRAIN_DAT1_COMPRESSION_NONE
                                        ? priv->body_offset : 0) + section->offset),
                            name);
  return TRUE;
}

guint8 *
terrain_dat1_edit_section (TerrainDat1 *self,
                           guint32      tag,
                           gsize       *size)
{
  TerrainDat1Private *priv = terrain_dat1_get_instance_private (self);
  Dat1Section *section = find_section (priv, tag);

  if (section == NULL)
    return NULL;

  if (section->owned == NULL)
    {
      section->owned = g_malloc (MAX (section->data_size, 1));
      if (section->data_size > 0)
        memcpy (section->owned, section->data, section->data_size);
      section->data = section->owned;
    }
  terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);

  if (size != NULL)
    *size = section->data_size;
  return section->owned;
}

/**
 * terrain_dat1_get_section_name:
 * @self: a #TerrainDat1
 * @tag: a section tag
 *
 * Gets a name for a section tag.
 *
 * Returns: (nullable): a name for @tag when the asset type knows it
 *   (e.g. "vertices" in a model), or %NULL
 */
const char *
terrain_dat1_get_section_name (TerrainDat1 *self,
                               guint32      tag)
{
  TerrainDat1Class *klass;

  g_return_val_if_fail (TERRAIN_IS_DAT1 (self), NULL);

  klass = TERRAIN_DAT1_GET_CLASS (self);
  return klass->get_section_name != NULL ? klass->get_section_name (self, tag) : NULL;
}

/**
 * terrain_dat1_get_n_extra_entries:
 * @self: a #TerrainDat1
 *
 * Gets the number of 8-byte extra entries after the section table.
 *
 * Returns: the number of 8-byte extra entries after the section table
 */
guint
terrain_dat1_get_n_extra_entries (TerrainDat1 *self)
{
  TerrainDat1Private *priv = terrain_dat1_get_instance_private (self);

  g_return_val_if_fail (TERRAIN_IS_DAT1 (self), 0);

  return priv->n_extra;
}

/**
 * terrain_dat1_get_extra_entry:
 * @self: a #TerrainDat1
 * @index: an extra-entry index
 * @first: (out) (optional): the entry's first u32
 * @second: (out) (optional): the entry's second u32
 *
 * Reads an extra entry; their meaning is not known and they are written back
 * as read.
 *
 * Returns: %TRUE if @index is valid
 */
gboolean
terrain_dat1_get_extra_entry (TerrainDat1 *self,
                              guint        index,
                              guint32     *first,
                              guint32     *second)
{
  TerrainDat1Private *priv = terrain_dat1_get_instance_private (self);
  TerrainReader reader;
  guint32 a = 0, b = 0;

  g_return_val_if_fail (TERRAIN_IS_DAT1 (self), FALSE);

  if (index >= priv->n_extra)
    return FALSE;

  terrain_reader_init_data (&reader, priv->image_data, priv->image_size, 0, "DAT1 extra entries");
  if (!terrain_reader_seek (&reader, priv->extra_offset + (gsize) index * 8, NULL) ||
      !terrain_reader_read_u32 (&reader, &a, NULL) ||
      !terrain_reader_read_u32 (&reader, &b, NULL))
    g_assert_not_reached ();

  if (first != NULL)
    *first = a;
  if (second != NULL)
    *second = b;
  return TRUE;
}

/**
 * terrain_dat1_get_string:
 * @self: a #TerrainDat1
 * @offset: a string offset from the DAT1 start, as sections store them
 *
 * Looks up a NUL-terminated string of the string block (the bytes between the
 * tables and the first section).
 *
 * Returns: (nullable): the string, owned by @self, or %NULL when @offset is
 *   outside the string block or the string is not terminated inside it
 */
const char *
terrain_dat1_get_string (TerrainDat1 *self,
                         guint32      offset)
{
  TerrainDat1Private *priv = terrain_dat1_get_instance_private (self);
  TerrainReader reader;
  const guint8 *data = NULL;

  g_return_val_if_fail (TERRAIN_IS_DAT1 (self), NULL);

  if (offset < priv->strings_offset || offset >= priv->strings_end)
    return NULL;

  terrain_reader_init_data (&reader, priv->image_data + priv->strings_offset,
                            priv->strings_end - priv->strings_offset, 0, "DAT1 strings");
  if (!terrain_reader_seek (&reader, offset - priv->strings_offset, NULL) ||
      !terrain_reader_peek_bytes (&reader, terrain_reader_remaining (&reader), &data, NULL) ||
      memchr (data, '\0', terrain_reader_remaining (&reader)) == NULL)
    return NULL;

  return (const char *) data;
}

/* TerrainDocument */

static JsonNode *
terrain_dat1_describe (TerrainDocument *document)
{
  g_autoptr(JsonNode) base =
    TERRAIN_DOCUMENT_CLASS (terrain_dat1_parent_class)->describe (document);

  return dat1_describe (TERRAIN_DAT1 (document), base);
}

static GPtrArray *
terrain_dat1_validate (TerrainDocument *document)
{
  GPtrArray *issues = TERRAIN_DOCUMENT_CLASS (terrain_dat1_parent_class)->validate (document);

  dat1_add_issues (TERRAIN_DAT1 (document), issues);
  return issues;
}

static void
terrain_dat1_finalize (GObject *object)
{
  TerrainDat1 *self = TERRAIN_DAT1 (object);
  TerrainDat1Private *priv = terrain_dat1_get_instance_private (self);

  for (guint i = 0; priv->sections != NULL && i < priv->n_sections; i++)
    {
      g_free (priv->sections[i].owned);
      g_free (priv->sections[i].reader_name);
    }
  g_clear_pointer (&priv->sections, g_free);
  g_clear_pointer (&priv->image, g_bytes_unref);

  G_OBJECT_CLASS (terrain_dat1_parent_class)->finalize (object);
}

static void
terrain_dat1_class_init (TerrainDat1Class *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  object_class->finalize = terrain_dat1_finalize;

  document_class->save_to_bytes = dat1_save_to_bytes;
  document_class->describe = terrain_dat1_describe;
  document_class->describe_offset = dat1_describe_offset;
  document_class->validate = terrain_dat1_validate;
  document_class->parse = terrain_dat1_parse_document;
  document_class->format = TERRAIN_FORMAT_DAT1;
}

static void
terrain_dat1_init (TerrainDat1 *self)
{
}
