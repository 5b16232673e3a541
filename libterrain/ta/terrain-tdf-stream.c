/* terrain-tdf-stream.c: reading TDF text without the tree
 * (the files of TerrainTdfDocument: terrain-tdf-document-impl-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include "terrain-tdf-document-impl-private.h"
#include "core/terrain-error.h"
#include "core/terrain-io.h"
#include "core/terrain-issue.h"

/* ------------------------------------------------------------------------ */
/* Reading without the tree                                                  */

/*
 * Validation reads the kept text directly, so that opening and validating
 * a file never builds the tree (which costs several times the text); once
 * the tree exists (something asked for a section, or an edit was made) the
 * same functions read the tree instead, edits included.
 */

static void
text_parser (TerrainTdfDocument *self,
             Parser             *p)
{
  GBytes *source = terrain_document_get_source_bytes (TERRAIN_DOCUMENT (self));
  g_autoptr(GBytes) empty = NULL;

  if (source == NULL)
    source = empty = g_bytes_new_static ("", 0);
  tdf_parser_init (p, self, source);
}

void
terrain_tdf_document_get_root_ref (TerrainTdfDocument *self,
                                   TerrainTdfRef      *root)
{
  TerrainTdfDocumentPrivate *priv = tdf_document_get_private (self);
  GBytes *source = terrain_document_get_source_bytes (TERRAIN_DOCUMENT (self));

  memset (root, 0, sizeof *root);
  root->section = source != NULL ? priv->root : tdf_ensure_tree (self);
  root->end = source != NULL ? g_bytes_get_size (source) : 0;
  root->closed = TRUE;
}

static void
ref_from_section (TerrainTdfSection *section,
                  TerrainTdfRef     *ref)
{
  memset (ref, 0, sizeof *ref);
  ref->section = section;
  ref->start = section->node.start;
  ref->body_start = section->body_start;
  ref->end = section->node.end;
  ref->depth = section->depth;
  ref->closed = section->closed;
}

/* The next item of @parent; *@cursor starts at 0. */
gboolean
tdf_ref_next_item (TerrainTdfDocument  *self,
                   const TerrainTdfRef *parent,
                   gsize               *cursor,
                   RefItem             *item)
{
  Parser p;
  ScanItem scan;

  memset (item, 0, sizeof *item);
  if (parent->section != NULL)
    {
      GPtrArray *children = parent->section->children;
      TdfNode *node;

      if (*cursor >= children->len)
        return FALSE;
      node = g_ptr_array_index (children, (*cursor)++);
      item->kind = node->kind;
      item->offset = node->from_source ? (gint64) node->start : -1;
      if (node->kind == NODE_ENTRY)
        {
          item->entry = (TdfEntry *) node;
          item->name = item->entry->key;
          item->multiline = item->entry->multiline;
        }
      else
        {
          ref_from_section ((TerrainTdfSection *) node, &item->child);
          item->name = item->child.section->name;
        }
      item->name_len = strlen (item->name);
      return TRUE;
    }

  text_parser (self, &p);
  p.pos = *cursor == 0 ? parent->body_start : *cursor - 1;
  if (!tdf_next_item (&p, parent->depth, &scan))
    return FALSE;
  *cursor = p.pos + 1;

  item->kind = scan.kind;
  item->name = (const char *) p.data + scan.name_start;
  item->name_len = scan.name_end - scan.name_start;
  item->offset = (gint64) scan.start;
  item->multiline = scan.multiline;
  item->value_from = scan.value_from;
  item->value_to = scan.value_to;
  if (scan.kind == NODE_SECTION)
    {
      item->child.start = scan.start;
      item->child.body_start = scan.body_start;
      item->child.end = scan.end;
      item->child.name_start = scan.name_start;
      item->child.name_end = scan.name_end;
      item->child.depth = parent->depth + 1;
      item->child.closed = scan.closed;
    }
  return TRUE;
}

gboolean
tdf_item_has_name (const RefItem *item,
                   const char    *name,
                   gsize          len)
{
  return item->name_len == len && g_ascii_strncasecmp (item->name, name, len) == 0;
}

gboolean
terrain_tdf_ref_next_section (TerrainTdfDocument  *self,
                              const TerrainTdfRef *parent,
                              gsize               *cursor,
                              TerrainTdfRef       *child)
{
  RefItem item;

  while (tdf_ref_next_item (self, parent, cursor, &item))
    if (item.kind == NODE_SECTION)
      {
        *child = item.child;
        return TRUE;
      }
  return FALSE;
}

gboolean
terrain_tdf_ref_find_section (TerrainTdfDocument  *self,
                              const TerrainTdfRef *parent,
                              const char          *name,
                              TerrainTdfRef       *child)
{
  gsize cursor = 0, len = strlen (name);
  RefItem item;

  while (tdf_ref_next_item (self, parent, &cursor, &item))
    if (item.kind == NODE_SECTION && tdf_item_has_name (&item, name, len))
      {
        *child = item.child;
        return TRUE;
      }
  return FALSE;
}

void
terrain_tdf_text_clear (TerrainTdfText *text)
{
  g_clear_pointer (&text->heap, g_free);
}

/* Room for @len bytes and a NUL in @text. */
static char *
text_room (TerrainTdfText *text,
           gsize           len)
{
  terrain_tdf_text_clear (text);
  if (len < sizeof text->inline_text)
    return text->inline_text;
  text->heap = g_malloc (len + 1);
  return text->heap;
}

const char *
terrain_tdf_ref_get_name (TerrainTdfDocument  *self,
                          const TerrainTdfRef *ref,
                          TerrainTdfText      *text)
{
  Parser p;
  gsize len = ref->name_end - ref->name_start;
  char *out;

  if (ref->section != NULL)
    return ref->section->name;
  if (ref->depth == 0)
    return NULL;

  text_parser (self, &p);
  out = text_room (text, len);
  memcpy (out, p.data + ref->name_start, len);
  out[len] = '\0';
  return out;
}

/* The value of the key read from the text at [from, to), as the tree holds
 * it: comments left out, up to a NUL byte, blanks around it excluded. */
static const char *
text_value (TerrainTdfDocument *self,
            gsize               from,
            gsize               to,
            TerrainTdfText     *text)
{
  Parser p;
  gsize len = 0;
  char *out;

  text_parser (self, &p);
  for (guint pass = 0; pass < 2; pass++)
    {
      gsize n = 0;

      out = pass == 0 ? NULL : text_room (text, len);
      p.pos = from;
      while (p.pos < to)
        {
          gboolean comment;
          int c;

          if (!tdf_skip_comment (&p, &comment, NULL))
            g_return_val_if_reached (NULL);
          if (comment)
            continue;
          c = p.data[p.pos++];
          if (c == 0)
            break;
          if (out != NULL)
            out[n] = (char) c;
          n++;
        }
      len = n;
    }
  out[len] = '\0';
  return g_strstrip (out);
}

const char *
terrain_tdf_ref_get_value (TerrainTdfDocument  *self,
                           const TerrainTdfRef *ref,
                           const char          *key,
                           TerrainTdfText      *text)
{
  gsize cursor = 0, len = strlen (key);
  RefItem item;

  if (ref->section != NULL)
    return terrain_tdf_section_get_value (ref->section, key);

  while (tdf_ref_next_item (self, ref, &cursor, &item))
    if (item.kind == NODE_ENTRY && tdf_item_has_name (&item, key, len))
      return text_value (self, item.value_from, item.value_to, text);
  return NULL;
}

gboolean
terrain_tdf_ref_get_int (TerrainTdfDocument  *self,
                         const TerrainTdfRef *ref,
                         const char          *key,
                         gint64              *value)
{
  g_auto(TerrainTdfText) text = { { 0 }, NULL };

  return terrain_tdf_parse_int (terrain_tdf_ref_get_value (self, ref, key, &text), value);
}

gint64
terrain_tdf_ref_get_offset (const TerrainTdfRef *ref)
{
  if (ref->section != NULL)
    return terrain_tdf_section_get_offset (ref->section);
  return (gint64) ref->start;
}
