/* terrain-atlas-config.c: Atlas config chunks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-atlas-config.h"
#include "core/terrain-error.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-writer-private.h"

typedef struct
{
  char *key;      /* NUL added for convenience; the length is authoritative */
  gsize key_length;
  char *value;
  gsize value_length;
} ConfigEntry;

struct _TerrainAtlasConfig
{
  GObject parent_instance;

  guint32 previous_chunk;
  GPtrArray *entries;   /* ConfigEntry, newest first as stored */
};

G_DEFINE_FINAL_TYPE (TerrainAtlasConfig, terrain_atlas_config, G_TYPE_OBJECT)

static void
config_entry_free (ConfigEntry *entry)
{
  g_free (entry->key);
  g_free (entry->value);
  g_free (entry);
}

static ConfigEntry *
config_entry_new (const char *key,
                  gsize       key_length,
                  const char *value,
                  gsize       value_length)
{
  ConfigEntry *entry = g_new0 (ConfigEntry, 1);

  entry->key = g_strndup (key, key_length);
  entry->key_length = key_length;
  /* g_strndup stops at a NUL; keys and values are byte strings. */
  memcpy (entry->key, key, key_length);
  entry->value = g_malloc (value_length + 1);
  memcpy (entry->value, value, value_length);
  entry->value[value_length] = '\0';
  entry->value_length = value_length;
  return entry;
}

static void
terrain_atlas_config_finalize (GObject *object)
{
  TerrainAtlasConfig *self = (TerrainAtlasConfig *) object;

  g_clear_pointer (&self->entries, g_ptr_array_unref);

  G_OBJECT_CLASS (terrain_atlas_config_parent_class)->finalize (object);
}

static void
terrain_atlas_config_class_init (TerrainAtlasConfigClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = terrain_atlas_config_finalize;
}

static void
terrain_atlas_config_init (TerrainAtlasConfig *self)
{
  self->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) config_entry_free);
}

/**
 * terrain_atlas_config_new:
 *
 * Creates an empty config chunk (no entries, previousChunk 0).
 *
 * Returns: (transfer full): a new #TerrainAtlasConfig
 */
TerrainAtlasConfig *
terrain_atlas_config_new (void)
{
  return g_object_new (TERRAIN_TYPE_ATLAS_CONFIG, NULL);
}

/**
 * terrain_atlas_config_new_from_body:
 * @body: a config chunk body: the bytes between `CfgH` and `CfgT`
 * @body_offset: byte offset of @body in its file, for error messages
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Decodes a config chunk (atlas-chu-tqt.md §5): previousChunk, entryCount,
 * then per entry a U32 key length, the key, a U32 value length and the
 * value, newest first. The last entry must end exactly at the end of the
 * body.
 *
 * Returns: (transfer full) (nullable): the chunk, or %NULL with
 *   %TERRAIN_ERROR_TRUNCATED when a count or length runs past the body,
 *   %TERRAIN_ERROR_INVALID_VALUE for bytes after the last entry, or
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED
 */
TerrainAtlasConfig *
terrain_atlas_config_new_from_body (GBytes               *body,
                                    goffset               body_offset,
                                    const TerrainLimits  *limits,
                                    GError              **error)
{
  g_autoptr(TerrainAtlasConfig) self = NULL;
  TerrainReader reader;
  const guint8 *data;
  gsize size = 0;
  guint32 count;
  goffset at;

  g_return_val_if_fail (body != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (limits == NULL)
    limits = terrain_limits_get_default ();

  self = terrain_atlas_config_new ();
  data = g_bytes_get_data (body, &size);
  terrain_reader_init_data (&reader, data, size, body_offset, "Atlas config chunk");

  if (!terrain_reader_read_u32 (&reader, &self->previous_chunk, error))
    {
      g_prefix_error (error, "previousChunk: ");
      return NULL;
    }

  at = terrain_reader_abs_offset (&reader);
  if (!terrain_reader_read_u32 (&reader, &count, error))
    {
      g_prefix_error (error, "entryCount: ");
      return NULL;
    }
  /* Every entry takes at least its two lengths. */
  if ((guint64) count * 8 > terrain_reader_remaining (&reader))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "Atlas config chunk: entryCount %u at byte offset %" G_GOFFSET_FORMAT
                   " needs at least %" G_GUINT64_FORMAT " bytes, only %" G_GSIZE_FORMAT
                   " remain in the body",
                   count, at, (guint64) count * 8, terrain_reader_remaining (&reader));
      return NULL;
    }
  if (!terrain_limits_check_alloc (limits, count, sizeof (ConfigEntry), "config entries",
                                   "Atlas config chunk", at, error))
    return NULL;

  for (guint32 i = 0; i < count; i++)
    {
      const guint8 *key, *value;
      guint32 key_length, value_length;

      at = terrain_reader_abs_offset (&reader);
      if (!terrain_reader_read_u32 (&reader, &key_length, error) ||
          !terrain_reader_read_bytes (&reader, key_length, &key, error) ||
          !terrain_reader_read_u32 (&reader, &value_length, error) ||
          !terrain_reader_read_bytes (&reader, value_length, &value, error))
        {
          g_prefix_error (error, "entry %u (from byte offset %" G_GOFFSET_FORMAT "): ", i, at);
          return NULL;
        }
      g_ptr_array_add (self->entries, config_entry_new ((const char *) key, key_length,
                                                        (const char *) value, value_length));
    }

  if (terrain_reader_remaining (&reader) != 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas config chunk: %" G_GSIZE_FORMAT " unexpected bytes at byte offset %"
                   G_GOFFSET_FORMAT " after the last of %u entries",
                   terrain_reader_remaining (&reader), terrain_reader_abs_offset (&reader), count);
      return NULL;
    }

  return g_steal_pointer (&self);
}

/**
 * terrain_atlas_config_encode_body:
 * @self: a #TerrainAtlasConfig
 * @error: return location for a #GError
 *
 * Serialises the chunk body (§5), entries in their current order. A decoded
 * chunk encodes to its original bytes.
 *
 * Returns: (transfer full) (nullable): the body, or %NULL with
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED past 4 GiB
 */
GBytes *
terrain_atlas_config_encode_body (TerrainAtlasConfig  *self,
                                  GError             **error)
{
  TerrainWriter writer;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_CONFIG (self), NULL);

  terrain_writer_init (&writer, 64);
  terrain_writer_set_section (&writer, "Atlas config chunk");
  terrain_writer_put_u32 (&writer, self->previous_chunk);
  terrain_writer_put_u32 (&writer, self->entries->len);
  for (guint i = 0; i < self->entries->len; i++)
    {
      const ConfigEntry *entry = g_ptr_array_index (self->entries, i);

      terrain_writer_put_u32 (&writer, (guint32) entry->key_length);
      terrain_writer_put_bytes (&writer, (const guint8 *) entry->key, entry->key_length);
      terrain_writer_put_u32 (&writer, (guint32) entry->value_length);
      terrain_writer_put_bytes (&writer, (const guint8 *) entry->value, entry->value_length);
    }

  return terrain_writer_finish (&writer, error);
}

/**
 * terrain_atlas_config_get_previous_chunk:
 * @self: a #TerrainAtlasConfig
 *
 * Gets previousChunk, the offset of the frame this chunk replaced.
 *
 * Returns: previousChunk, the offset of the frame this chunk replaced, or 0
 */
guint32
terrain_atlas_config_get_previous_chunk (TerrainAtlasConfig *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_CONFIG (self), 0);

  return self->previous_chunk;
}

/**
 * terrain_atlas_config_set_previous_chunk:
 * @self: a #TerrainAtlasConfig
 * @offset: the replaced frame's offset, or 0
 *
 * Sets previousChunk; [method@Terrain.AtlasFile.replace_config] does it
 * itself.
 */
void
terrain_atlas_config_set_previous_chunk (TerrainAtlasConfig *self,
                                         guint32             offset)
{
  g_return_if_fail (TERRAIN_IS_ATLAS_CONFIG (self));

  self->previous_chunk = offset;
}

/**
 * terrain_atlas_config_get_n_entries:
 * @self: a #TerrainAtlasConfig
 *
 * Gets the number of key/value entries.
 *
 * Returns: the number of key/value entries
 */
guint
terrain_atlas_config_get_n_entries (TerrainAtlasConfig *self)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_CONFIG (self), 0);

  return self->entries->len;
}

/**
 * terrain_atlas_config_get_key:
 * @self: a #TerrainAtlasConfig
 * @index: an entry index; 0 is the newest
 * @length: (out) (optional): the key's length in bytes
 *
 * Gets the key of entry @index as stored.
 *
 * Returns: (transfer none): the key bytes, followed by a NUL that is not
 *   part of them
 */
const char *
terrain_atlas_config_get_key (TerrainAtlasConfig *self,
                              guint               index,
                              gsize              *length)
{
  const ConfigEntry *entry;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_CONFIG (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);

  entry = g_ptr_array_index (self->entries, index);
  if (length != NULL)
    *length = entry->key_length;
  return entry->key;
}

/**
 * terrain_atlas_config_get_value:
 * @self: a #TerrainAtlasConfig
 * @index: an entry index; 0 is the newest
 * @length: (out) (optional): the value's length in bytes
 *
 * Gets the value of entry @index as stored.
 *
 * Returns: (transfer none): the value bytes, followed by a NUL that is not
 *   part of them
 */
const char *
terrain_atlas_config_get_value (TerrainAtlasConfig *self,
                                guint               index,
                                gsize              *length)
{
  const ConfigEntry *entry;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_CONFIG (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);

  entry = g_ptr_array_index (self->entries, index);
  if (length != NULL)
    *length = entry->value_length;
  return entry->value;
}

static gint
find_entry (TerrainAtlasConfig *self,
            const char         *key)
{
  gsize length = strlen (key);

  for (guint i = 0; i < self->entries->len; i++)
    {
      const ConfigEntry *entry = g_ptr_array_index (self->entries, i);

      if (entry->key_length == length && g_ascii_strncasecmp (entry->key, key, length) == 0)
        return (gint) i;
    }
  return -1;
}

/**
 * terrain_atlas_config_lookup:
 * @self: a #TerrainAtlasConfig
 * @key: a key such as "type" or "textureSlot" (field-notes.md)
 *
 * Looks a key up the way TGEA does: the newest entry whose key matches
 * without regard to ASCII case.
 *
 * Returns: (transfer none) (nullable): the value, or %NULL
 */
const char *
terrain_atlas_config_lookup (TerrainAtlasConfig *self,
                             const char         *key)
{
  gint i;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_CONFIG (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  i = find_entry (self, key);
  return i < 0 ? NULL : ((const ConfigEntry *) g_ptr_array_index (self->entries, i))->value;
}

/**
 * terrain_atlas_config_set:
 * @self: a #TerrainAtlasConfig
 * @key: the key
 * @value: the new value
 *
 * Sets an entry the way TGEA's setEntry does: an existing key (ASCII case
 * ignored) keeps its place and gets the new value; a new key becomes the
 * newest entry, first in the list.
 */
void
terrain_atlas_config_set (TerrainAtlasConfig *self,
                          const char         *key,
                          const char         *value)
{
  gint i;

  g_return_if_fail (TERRAIN_IS_ATLAS_CONFIG (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (value != NULL);

  i = find_entry (self, key);
  if (i >= 0)
    {
      ConfigEntry *entry = g_ptr_array_index (self->entries, i);

      g_free (entry->value);
      entry->value = g_strdup (value);
      entry->value_length = strlen (value);
      return;
    }

  g_ptr_array_insert (self->entries, 0, config_entry_new (key, strlen (key), value,
                                                          strlen (value)));
}

/**
 * terrain_atlas_config_remove:
 * @self: a #TerrainAtlasConfig
 * @key: the key (ASCII case ignored)
 *
 * Removes the newest entry with @key.
 *
 * Returns: %TRUE if an entry was removed
 */
gboolean
terrain_atlas_config_remove (TerrainAtlasConfig *self,
                             const char         *key)
{
  gint i;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_CONFIG (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  i = find_entry (self, key);
  if (i < 0)
    return FALSE;
  g_ptr_array_remove_index (self->entries, (guint) i);
  return TRUE;
}
