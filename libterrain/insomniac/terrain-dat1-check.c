/* terrain-dat1-check.c: validation and description of Insomniac DAT1
 * containers: wrapper and header words, section-table order and alignment,
 * the JSON description and the part of the file at a byte offset. Part of
 * TerrainDat1 (terrain-dat1-impl-private.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-dat1.h"
#include "terrain-dat1-impl-private.h"
#include "core/terrain-issue.h"

/* Strings listed by describe(). */
#define MAX_DESCRIBED_STRINGS 64

static void
add_hex (JsonBuilder *builder,
         const char  *name,
         guint32      value)
{
  g_autofree char *hex = g_strdup_printf ("0x%08X", value);

  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, hex);
}

/* The parent's description (@base, an object) with the container's
 * members after its own. */
JsonNode *
dat1_describe (TerrainDat1 *self,
               JsonNode    *base)
{
  TerrainDat1Private *priv = dat1_get_private (self);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  JsonObject *object = json_node_get_object (base);
  g_autoptr(GList) members = json_object_get_members (object);
  guint n_strings = 0;
  gsize pos;

  json_builder_begin_object (builder);
  for (const GList *l = members; l != NULL; l = l->next)
    {
      json_builder_set_member_name (builder, l->data);
      json_builder_add_value (builder, json_node_copy (json_object_get_member (object, l->data)));
    }

  add_hex (builder, "asset_type", priv->asset_type);
  json_builder_set_member_name (builder, "compression");
  json_builder_add_string_value (builder, priv->compression == TERRAIN_DAT1_COMPRESSION_LZ4
                                            ? "lz4" : "none");
  json_builder_set_member_name (builder, "wrapper");
  if (priv->has_wrapper)
    {
      gboolean zero_tail = TRUE;

      for (guint i = 0; i < WRAPPER_TAIL_SIZE; i++)
        zero_tail = zero_tail && priv->wrapper_tail[i] == 0;
      json_builder_begin_object (builder);
      add_hex (builder, "magic", priv->wrapper_magic);
      json_builder_set_member_name (builder, "size");
      json_builder_add_int_value (builder, priv->wrapper_size);
      json_builder_set_member_name (builder, "zero_tail");
      json_builder_add_boolean_value (builder, zero_tail);
      json_builder_end_object (builder);
    }
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "dat1_size");
  json_builder_add_int_value (builder, priv->image_size);
  json_builder_set_member_name (builder, "declared_size");
  json_builder_add_int_value (builder, priv->declared_size);

  json_builder_set_member_name (builder, "sections");
  json_builder_begin_array (builder);
  for (guint i = 0; i < priv->n_sections; i++)
    {
      const Dat1Section *section = &priv->sections[i];
      const char *name = terrain_dat1_get_section_name (self, section->tag);

      json_builder_begin_object (builder);
      add_hex (builder, "tag", section->tag);
      json_builder_set_member_name (builder, "name");
      if (name != NULL)
        json_builder_add_string_value (builder, name);
      else
        json_builder_add_null_value (builder);
      json_builder_set_member_name (builder, "offset");
      json_builder_add_int_value (builder, section->offset);
      json_builder_set_member_name (builder, "size");
      json_builder_add_int_value (builder, section->data_size);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "extra_entries");
  json_builder_add_int_value (builder, priv->n_extra);

  json_builder_set_member_name (builder, "strings");
  json_builder_begin_array (builder);
  for (pos = priv->strings_offset; pos < priv->strings_end && n_strings < MAX_DESCRIBED_STRINGS;)
    {
      const char *s = terrain_dat1_get_string (self, (guint32) pos);

      if (s == NULL)
        break;
      if (*s != '\0')
        {
          g_autofree char *valid = g_utf8_make_valid (s, -1);

          json_builder_add_string_value (builder, valid);
          n_strings++;
        }
      pos += strlen (s) + 1;
    }
  json_builder_end_array (builder);

  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/* Names the part of the DAT1 image holding @offset. */
static char *
describe_image_offset (TerrainDat1 *self,
                       gsize        offset)
{
  TerrainDat1Private *priv = dat1_get_private (self);
  static const char * const header_fields[] = {
    "magic", "magic", "magic", "magic",
    "asset type", "asset type", "asset type", "asset type",
    "total size", "total size", "total size", "total size",
    "section count", "section count", "extra-entry count", "extra-entry count",
  };

  if (offset < TERRAIN_DAT1_HEADER_SIZE)
    return g_strdup_printf ("DAT1 header, %s", header_fields[offset]);

  if (offset < priv->extra_offset)
    {
      guint index = (guint) ((offset - TERRAIN_DAT1_HEADER_SIZE) /
                             TERRAIN_DAT1_SECTION_ENTRY_SIZE);
      const char *name = terrain_dat1_get_section_name (self, priv->sections[index].tag);

      return g_strdup_printf ("DAT1 section table, entry %u (tag 0x%08X%s%s)", index,
                              priv->sections[index].tag, name != NULL ? ", " : "",
                              name != NULL ? name : "");
    }

  if (offset < priv->strings_offset)
    return g_strdup_printf ("DAT1 extra entry %" G_GSIZE_FORMAT,
                            (offset - priv->extra_offset) / TERRAIN_DAT1_EXTRA_ENTRY_SIZE);

  if (offset < priv->strings_end)
    return g_strdup ("DAT1 string block");

  for (guint i = 0; i < priv->n_sections; i++)
    {
      const Dat1Section *section = &priv->sections[i];
      TerrainDat1Class *klass = TERRAIN_DAT1_GET_CLASS (self);
      const char *name;
      g_autofree char *record = NULL;

      if (offset < section->offset || offset - section->offset >= section->size)
        continue;

      name = terrain_dat1_get_section_name (self, section->tag);
      if (klass->describe_section_offset != NULL)
        record = klass->describe_section_offset (self, section->tag, offset - section->offset);
      return g_strdup_printf ("section 0x%08X%s%s%s%s", section->tag,
                              name != NULL ? " (" : "", name != NULL ? name : "",
                              name != NULL ? ")" : "",
                              record != NULL ? record : "");
    }

  if (offset < priv->image_size)
    return g_strdup ("DAT1 padding between sections");
  return NULL;
}

char *
dat1_describe_offset (TerrainDocument *document,
                      gsize            offset)
{
  TerrainDat1 *self = TERRAIN_DAT1 (document);
  TerrainDat1Private *priv = dat1_get_private (self);

  if (priv->has_wrapper && offset < TERRAIN_DAT1_WRAPPER_SIZE)
    return g_strdup_printf ("DAT1 wrapper, %s",
                            offset < 4 ? "asset type magic" : offset < 8 ? "size" : "tail");
  if (offset < priv->body_offset)
    return NULL;
  if (priv->compression == TERRAIN_DAT1_COMPRESSION_LZ4)
    return g_strdup_printf ("LZ4 block (the compressed DAT1 image, %" G_GSIZE_FORMAT
                            " bytes from byte offset %" G_GSIZE_FORMAT ")",
                            priv->body_size, priv->body_offset);
  return describe_image_offset (self, offset - priv->body_offset);
}

void
dat1_add_issues (TerrainDat1 *self,
                 GPtrArray   *issues)
{
  TerrainDat1Private *priv = dat1_get_private (self);
  goffset base = priv->compression == TERRAIN_DAT1_COMPRESSION_NONE ? (goffset) priv->body_offset
                                                                     : 0;
  const char *header = dat1_image_name (priv, "DAT1 header", "DAT1 header (decompressed image)");
  const char *table = dat1_image_name (priv, "DAT1 section table",
                                       "DAT1 section table (decompressed image)");

  if (priv->has_wrapper && priv->wrapper_size != priv->image_size)
    g_ptr_array_add (issues,
                     terrain_issue_new (TERRAIN_SEVERITY_WARNING, "DAT1 wrapper", 4, -1,
                                        "the wrapper's size word is %u, the DAT1 image is %"
                                        G_GSIZE_FORMAT " bytes",
                                        priv->wrapper_size, priv->image_size));
  if (priv->has_wrapper && priv->wrapper_magic != priv->asset_type)
    g_ptr_array_add (issues,
                     terrain_issue_new (TERRAIN_SEVERITY_INFO, "DAT1 wrapper", 0, -1,
                                        "the wrapper's type magic 0x%08X differs from the DAT1 "
                                        "asset type 0x%08X",
                                        priv->wrapper_magic, priv->asset_type));

  if (priv->declared_size != priv->image_size)
    g_ptr_array_add (issues,
                     terrain_issue_new (TERRAIN_SEVERITY_WARNING, header, base + OFF_TOTAL_SIZE,
                                        -1,
                                        "the total size field says %u bytes, the DAT1 image is %"
                                        G_GSIZE_FORMAT " (the bytes after it are kept)",
                                        priv->declared_size, priv->image_size));

  if (priv->n_sections == 0)
    g_ptr_array_add (issues,
                     terrain_issue_new (TERRAIN_SEVERITY_WARNING, header,
                                        base + OFF_SECTION_COUNT, -1,
                                        "the section count is 0: the asset holds no sections, "
                                        "so the game has nothing to load from it"));

  for (guint i = 0; i < priv->n_sections; i++)
    {
      const Dat1Section *section = &priv->sections[i];

      if (i > 0 && section->tag < priv->sections[i - 1].tag)
        g_ptr_array_add (issues,
                         terrain_issue_new (TERRAIN_SEVERITY_WARNING, table,
                                            base + section->entry_offset, i,
                                            "tag 0x%08X follows 0x%08X: the table is not sorted "
                                            "by tag as the game's writers sort it",
                                            section->tag, priv->sections[i - 1].tag));
      if (section->size > 0 && section->offset % TERRAIN_DAT1_ALIGNMENT != 0)
        g_ptr_array_add (issues,
                         terrain_issue_new (TERRAIN_SEVERITY_INFO, table,
                                            base + section->entry_offset + 4, i,
                                            "section 0x%08X starts at byte offset %u, not on "
                                            "a 16-byte boundary", section->tag, section->offset));
    }
}
