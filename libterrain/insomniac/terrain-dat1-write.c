/* terrain-dat1-write.c: writing Insomniac DAT1 containers: the current
 * image (the bytes read when nothing changed, in-place patches of edited
 * sections, or an aligned relayout after a resize), the wrapper and LZ4
 * block around it, and new images built the way the game's writers do.
 * Part of TerrainDat1 (terrain-dat1-impl-private.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-dat1.h"
#include "terrain-dat1-private.h"
#include "terrain-dat1-impl-private.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-writer-private.h"


static gsize
align_up (gsize value)
{
  return (value + TERRAIN_DAT1_ALIGNMENT - 1) & ~(gsize) (TERRAIN_DAT1_ALIGNMENT - 1);
}

static gboolean
any_section_changed (TerrainDat1Private *priv,
                     gboolean           *resized)
{
  gboolean changed = FALSE;

  *resized = FALSE;
  for (guint i = 0; i < priv->n_sections; i++)
    if (dat1_section_changed (&priv->sections[i]))
      {
        changed = TRUE;
        if (priv->sections[i].data_size != priv->sections[i].size)
          *resized = TRUE;
      }
  return changed;
}

/* Lays the sections out anew after the first one that changed size: those
 * before it keep their offsets (and the bytes between them), later ones follow
 * at the next 16-byte boundary. The tables, extra entries and string block
 * keep their bytes; the bytes after the last section are kept too. */
static GBytes *
relayout_image (TerrainDat1Private  *priv,
                GError             **error)
{
  TerrainWriter writer;
  g_autofree guint *order = g_new (guint, MAX (priv->n_sections, 1));
  g_autofree guint32 *new_offsets = g_new0 (guint32, MAX (priv->n_sections, 1));
  gsize cursor = priv->strings_end, old_end = priv->strings_end;
  gboolean shifted = FALSE;
  GBytes *image;

  dat1_sort_by_offset (priv, order);

  terrain_writer_init (&writer, priv->image_size);
  terrain_writer_put_bytes (&writer, priv->image_data, priv->strings_end);

  for (guint k = 0; k < priv->n_sections; k++)
    {
      Dat1Section *section = &priv->sections[order[k]];
      gsize offset;

      if (section->size == 0 && section->data_size == 0 && section->offset < priv->strings_end)
        {
          /* An empty section addressed inside the tables stays where it is. */
          new_offsets[order[k]] = section->offset;
          continue;
        }

      if (!shifted && section->offset >= cursor)
        {
          /* Keep the original position and the bytes of the gap before it. */
          terrain_writer_put_bytes (&writer, priv->image_data + cursor, section->offset - cursor);
          offset = section->offset;
        }
      else
        {
          offset = align_up (cursor);
          terrain_writer_put_zeros (&writer, offset - cursor);
        }

      new_offsets[order[k]] = (guint32) MIN (offset, G_MAXUINT32);
      terrain_writer_put_bytes (&writer, section->data, section->data_size);
      cursor = offset + section->data_size;
      old_end = MAX (old_end, (gsize) section->offset + section->size);
      if (section->data_size != section->size)
        shifted = TRUE;
    }

  /* Bytes after the last section, as read. */
  if (old_end < priv->image_size)
    terrain_writer_put_bytes (&writer, priv->image_data + old_end, priv->image_size - old_end);

  for (guint i = 0; i < priv->n_sections; i++)
    {
      const Dat1Section *section = &priv->sections[i];

      terrain_writer_patch_u32 (&writer, section->entry_offset + 4, new_offsets[i]);
      terrain_writer_patch_u32 (&writer, section->entry_offset + 8, (guint32) section->data_size);
    }
  if (priv->declared_size == priv->image_size)
    terrain_writer_patch_u32 (&writer, OFF_TOTAL_SIZE,
                              (guint32) MIN (terrain_writer_tell (&writer), G_MAXUINT32));

  image = terrain_writer_finish (&writer, error);
  return image;
}

/* The DAT1 image with the current section contents. */
static GBytes *
current_image (TerrainDat1Private  *priv,
               GError             **error)
{
  gboolean resized;
  guint8 *copy;

  if (!any_section_changed (priv, &resized))
    return g_bytes_ref (priv->image);
  if (resized)
    return relayout_image (priv, error);

  copy = g_memdup2 (priv->image_data, MAX (priv->image_size, 1));
  for (guint i = 0; i < priv->n_sections; i++)
    {
      const Dat1Section *section = &priv->sections[i];

      if (dat1_section_changed (section) && section->data_size > 0)
        memcpy (copy + section->offset, section->data, section->data_size);
    }
  return g_bytes_new_take (copy, priv->image_size);
}

/**
 * terrain_dat1_get_image:
 * @self: a #TerrainDat1
 * @error: return location for a #GError
 *
 * Returns the DAT1 image (uncompressed, without wrapper) with the current
 * section contents: the bytes read when nothing was edited.
 *
 * Returns: (transfer full) (nullable): the image, or %NULL with
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED when it would exceed 4 GiB
 */
GBytes *
terrain_dat1_get_image (TerrainDat1  *self,
                        GError      **error)
{
  g_return_val_if_fail (TERRAIN_IS_DAT1 (self), NULL);

  return current_image (dat1_get_private (self), error);
}

/**
 * terrain_dat1_save_to_bytes_full:
 * @self: a #TerrainDat1
 * @mode: how to store the DAT1 image
 * @error: return location for a #GError
 *
 * Serialises the asset. With %TERRAIN_DAT1_WRITE_STORE an unedited asset
 * gives back exactly the bytes read (the original LZ4 block included); an
 * edited one changes only the bytes of the edited sections in the DAT1 image
 * (or lays the sections after a resized one out anew) and is re-compressed
 * when the source was. The wrapper is kept; its size word follows the image
 * size when it matched it in the source.
 *
 * Returns: (transfer full) (nullable): the file's contents, or %NULL with a
 *   %TERRAIN_ERROR set
 */
GBytes *
terrain_dat1_save_to_bytes_full (TerrainDat1           *self,
                                 TerrainDat1WriteMode   mode,
                                 GError               **error)
{
  TerrainDat1Private *priv = dat1_get_private (self);
  g_autoptr(GBytes) image = NULL;
  g_autoptr(GBytes) body = NULL;
  GBytes *source;
  TerrainWriter writer;
  gboolean resized;
  gsize image_size;

  g_return_val_if_fail (TERRAIN_IS_DAT1 (self), NULL);

  source = terrain_document_get_source_bytes (TERRAIN_DOCUMENT (self));
  if (mode == TERRAIN_DAT1_WRITE_STORE && !any_section_changed (priv, &resized))
    return g_bytes_ref (source);

  image = current_image (priv, error);
  if (image == NULL)
    return NULL;

  /* Edits that restore the bytes read keep the original file, compressed
   * block included. */
  if (mode == TERRAIN_DAT1_WRITE_STORE && g_bytes_equal (image, priv->image))
    return g_bytes_ref (source);

  if (priv->compression == TERRAIN_DAT1_COMPRESSION_LZ4 && mode != TERRAIN_DAT1_WRITE_UNCOMPRESSED)
    body = terrain_dat1_compress_lz4 (image, error);
  else
    body = g_bytes_ref (image);
  if (body == NULL)
    return NULL;

  image_size = g_bytes_get_size (image);
  terrain_writer_init (&writer, g_bytes_get_size (body) + TERRAIN_DAT1_WRAPPER_SIZE);
  if (priv->has_wrapper)
    {
      guint32 size = priv->wrapper_size;

      if (priv->wrapper_size == priv->image_size)
        size = (guint32) MIN (image_size, G_MAXUINT32);
      terrain_writer_put_u32 (&writer, priv->wrapper_magic);
      terrain_writer_put_u32 (&writer, size);
      terrain_writer_put_bytes (&writer, priv->wrapper_tail, WRAPPER_TAIL_SIZE);
    }
  terrain_writer_put_bytes (&writer, g_bytes_get_data (body, NULL), g_bytes_get_size (body));

  return terrain_writer_finish (&writer, error);
}

static gint
compare_tags (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const guint32 *tags = user_data;
  guint32 ta = tags[*(const guint *) a], tb = tags[*(const guint *) b];

  return ta < tb ? -1 : ta > tb ? 1 : 0;
}

/**
 * terrain_dat1_build_image:
 * @asset_type: the asset type word
 * @n_sections: number of sections
 * @tags: (array length=n_sections): the section tags
 * @data: (array length=n_sections): the section contents
 * @extra_entries: (nullable): extra entries, a multiple of 8 bytes
 * @strings: (nullable): the string block (NUL-terminated strings); sections
 *   address a string by its offset from the DAT1 start, which is
 *   16 + 12 × @n_sections + the size of @extra_entries + its offset in @strings
 * @error: return location for a #GError
 *
 * Writes a new DAT1 image the way the game's writers do (field-notes.md):
 * the header, the section table sorted by tag, the extra entries, the string
 * block, then the section data in tag order, each section at a 16-byte
 * boundary from the DAT1 start, the gaps zero-filled.
 *
 * Returns: (transfer full) (nullable): the image, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE for a repeated tag, too many sections or extra
 *   entries or a partial extra entry, or %TERRAIN_ERROR_LIMIT_EXCEEDED beyond
 *   4 GiB
 */
GBytes *
terrain_dat1_build_image (guint32          asset_type,
                          guint            n_sections,
                          const guint32   *tags,
                          GBytes * const  *data,
                          GBytes          *extra_entries,
                          GBytes          *strings,
                          GError         **error)
{
  TerrainWriter writer;
  g_autofree guint *order = NULL;
  gsize extra_size = extra_entries != NULL ? g_bytes_get_size (extra_entries) : 0;
  gsize strings_size = strings != NULL ? g_bytes_get_size (strings) : 0;
  gsize table_end, offset;

  g_return_val_if_fail (n_sections == 0 || (tags != NULL && data != NULL), NULL);

  if (n_sections > G_MAXUINT16 || extra_size % TERRAIN_DAT1_EXTRA_ENTRY_SIZE != 0 ||
      extra_size / TERRAIN_DAT1_EXTRA_ENTRY_SIZE > G_MAXUINT16)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "DAT1: cannot write %u sections and %" G_GSIZE_FORMAT " bytes of extra "
                   "entries (at most 65535 of each, extra entries 8 bytes each)",
                   n_sections, extra_size);
      return NULL;
    }

  order = g_new (guint, MAX (n_sections, 1));
  for (guint i = 0; i < n_sections; i++)
    order[i] = i;
  g_qsort_with_data (order, n_sections, sizeof order[0], compare_tags, (gpointer) tags);
  for (guint i = 1; i < n_sections; i++)
    if (tags[order[i]] == tags[order[i - 1]])
      {
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                     "DAT1: section tag 0x%08X is given twice", tags[order[i]]);
        return NULL;
      }

  table_end = TERRAIN_DAT1_HEADER_SIZE + (gsize) n_sections * TERRAIN_DAT1_SECTION_ENTRY_SIZE +
              extra_size;

  terrain_writer_init (&writer, table_end + strings_size);
  terrain_writer_put_u32 (&writer, TERRAIN_DAT1_MAGIC);
  terrain_writer_put_u32 (&writer, asset_type);
  terrain_writer_put_u32 (&writer, 0); /* total size, patched below */
  terrain_writer_put_u16 (&writer, (guint16) n_sections);
  terrain_writer_put_u16 (&writer, (guint16) (extra_size / TERRAIN_DAT1_EXTRA_ENTRY_SIZE));

  offset = align_up (table_end + strings_size);
  for (guint i = 0; i < n_sections; i++)
    {
      gsize size = g_bytes_get_size (data[order[i]]);

      terrain_writer_put_u32 (&writer, tags[order[i]]);
      terrain_writer_put_u32 (&writer, (guint32) MIN (offset, G_MAXUINT32));
      terrain_writer_put_u32 (&writer, (guint32) MIN (size, G_MAXUINT32));
      if (size > G_MAXUINT32 || offset > G_MAXUINT32)
        writer.overflow = TRUE;
      offset = align_up (offset + size);
    }
  if (extra_size > 0)
    terrain_writer_put_bytes (&writer, g_bytes_get_data (extra_entries, NULL), extra_size);
  if (strings_size > 0)
    terrain_writer_put_bytes (&writer, g_bytes_get_data (strings, NULL), strings_size);

  for (guint i = 0; i < n_sections; i++)
    {
      gsize size = g_bytes_get_size (data[order[i]]);

      terrain_writer_put_zeros (&writer, align_up (terrain_writer_tell (&writer)) -
                                         terrain_writer_tell (&writer));
      terrain_writer_put_bytes (&writer, g_bytes_get_data (data[order[i]], NULL), size);
    }
  terrain_writer_patch_u32 (&writer, OFF_TOTAL_SIZE,
                            (guint32) MIN (terrain_writer_tell (&writer), G_MAXUINT32));

  return terrain_writer_finish (&writer, error);
}

/* TerrainDocument */

GBytes *
dat1_save_to_bytes (TerrainDocument  *document,
                    GError          **error)
{
  return terrain_dat1_save_to_bytes_full (TERRAIN_DAT1 (document), TERRAIN_DAT1_WRITE_STORE,
                                          error);
}
