/* terrain-tdf-writer.c: writing TDF text
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
/* Writing                                                                   */

typedef enum
{
  SPLICE_INSERT,
  SPLICE_REPLACE,
  SPLICE_CUT,
} SpliceKind;

typedef struct
{
  gsize start;
  gsize end;
  SpliceKind kind;
  guint seq;
  char *text;
} Splice;

typedef struct
{
  TerrainTdfDocument *document;
  GBytes *text;
  TerrainReader reader;
  GArray *splices;
} Writer;

static void
splice_clear (Splice *splice)
{
  g_free (splice->text);
}

static int
splice_compare (gconstpointer a,
                gconstpointer b)
{
  const Splice *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void
add_splice (Writer     *w,
            SpliceKind  kind,
            gsize       start,
            gsize       end,
            char       *text)
{
  Splice splice = { start, end, kind, w->splices->len, text };

  g_array_append_val (w->splices, splice);
}

/* The blanks that start the line of @offset, when only blanks come before
 * @offset on its line; otherwise NULL. */
static char *
line_indent (Writer *w,
             gsize   offset)
{
  gsize start = offset;
  Parser p;
  int c;

  tdf_parser_init (&p, w->document, w->text);
  while (start > 0 && ((c = tdf_peek_at (&p, start - 1)) == ' ' || c == '\t'))
    start--;
  if (start > 0 && tdf_peek_at (&p, start - 1) != '\n')
    return NULL;
  return tdf_copy_span (&w->reader, start, offset);
}

static char *
repeat_unit (const char *unit,
             guint       times)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < times; i++)
    g_string_append (s, unit);
  return g_string_free (s, FALSE);
}

/* Indentation for a new item directly inside @section (a parsed block):
 * that of an item already there, or of the block's '{' line. */
static char *
child_indent (Writer            *w,
              TerrainTdfSection *section)
{
  TerrainTdfDocumentPrivate *priv = tdf_document_get_private (w->document);
  char *indent;

  for (guint i = 0; i < section->children->len; i++)
    {
      TdfNode *node = g_ptr_array_index (section->children, i);

      if (node->from_source && (indent = line_indent (w, node->start)) != NULL)
        return indent;
    }
  if (section->depth > 0 && (indent = line_indent (w, section->body_start - 1)) != NULL)
    return indent;
  return repeat_unit (priv->indent_unit, section->depth);
}

static void
generate_entry (GString    *out,
                TdfEntry   *entry,
                const char *indent,
                const char *newline)
{
  g_string_append (out, newline);
  g_string_append (out, indent);
  g_string_append_printf (out, "%s=%s;", entry->key, entry->value);
}

static void
generate_section (GString           *out,
                  TerrainTdfSection *section,
                  const char        *indent,
                  const char        *unit,
                  const char        *newline)
{
  g_autofree char *inner = g_strconcat (indent, unit, NULL);

  g_string_append (out, newline);
  g_string_append_printf (out, "%s[%s]%s%s{", indent, section->name, newline, inner);
  for (guint i = 0; i < section->children->len; i++)
    {
      TdfNode *node = g_ptr_array_index (section->children, i);

      if (node->kind == NODE_ENTRY)
        generate_entry (out, (TdfEntry *) node, inner, newline);
      else
        generate_section (out, (TerrainTdfSection *) node, inner, unit, newline);
    }
  g_string_append_printf (out, "%s%s}", newline, inner);
}

static void
collect_splices (Writer            *w,
                 TerrainTdfSection *section)
{
  TerrainTdfDocumentPrivate *priv = tdf_document_get_private (w->document);
  g_autofree char *indent = NULL;
  gboolean any_source = FALSE;
  gsize anchor;

  for (guint i = 0; i < section->children->len; i++)
    any_source |= ((TdfNode *) g_ptr_array_index (section->children, i))->from_source;

  /* New items go after the last parsed item before them, or after '{'; on
   * the file level, at the end of the text when nothing parsed precedes. */
  if (section->depth > 0)
    anchor = section->body_start;
  else
    anchor = any_source ? 0 : terrain_reader_get_size (&w->reader);

  for (guint i = 0; i < section->children->len; i++)
    {
      TdfNode *node = g_ptr_array_index (section->children, i);
      GString *text;

      if (node->from_source)
        {
          anchor = node->end;
          if (node->kind == NODE_SECTION)
            collect_splices (w, (TerrainTdfSection *) node);
          else if (((TdfEntry *) node)->edited)
            {
              TdfEntry *entry = (TdfEntry *) node;

              add_splice (w, SPLICE_REPLACE, entry->value_start, entry->value_end,
                          g_strdup (entry->value));
            }
          continue;
        }

      if (indent == NULL)
        indent = child_indent (w, section);
      text = g_string_new (NULL);
      if (node->kind == NODE_ENTRY)
        generate_entry (text, (TdfEntry *) node, indent, priv->newline);
      else
        {
          /* A block's name sits one level out from the items beside it on
           * the file level; inside a block, at their indentation. */
          generate_section (text, (TerrainTdfSection *) node,
                            section->depth == 0 ? "" : indent,
                            priv->indent_unit, priv->newline);
        }
      add_splice (w, SPLICE_INSERT, anchor, anchor, g_string_free (text, FALSE));
    }
}

/* Appends [start, end) of the source as it is, NUL bytes included. */
static void
append_span (GString             *out,
             const TerrainReader *reader,
             gsize                start,
             gsize                end)
{
  TerrainReader r = *reader;
  const guint8 *data;

  if (!terrain_reader_seek (&r, start, NULL) ||
      !terrain_reader_peek_bytes (&r, end - start, &data, NULL))
    g_assert_not_reached ();
  g_string_append_len (out, (const char *) data, (gssize) (end - start));
}

GBytes *
tdf_document_save_to_bytes (TerrainDocument  *document,
                            GError          **error)
{
  TerrainTdfDocument *self = TERRAIN_TDF_DOCUMENT (document);
  TerrainTdfDocumentPrivate *priv = tdf_document_get_private (self);
  GBytes *source = terrain_document_get_source_bytes (document);
  g_autoptr(GBytes) empty = g_bytes_new_static ("", 0);
  Writer w = { self, source != NULL ? source : empty, { 0 }, NULL };
  GString *out;
  gsize size, cursor = 0;

  /* No tree, so no edit: the text as it was read. */
  if (priv->root == NULL && source != NULL)
    return g_bytes_ref (source);

  terrain_reader_init (&w.reader, w.text, "TDF");
  size = terrain_reader_get_size (&w.reader);
  w.splices = g_array_new (FALSE, FALSE, sizeof (Splice));
  g_array_set_clear_func (w.splices, (GDestroyNotify) splice_clear);

  collect_splices (&w, tdf_ensure_tree (self));
  for (guint i = 0; priv->cuts != NULL && i < priv->cuts->len; i++)
    {
      const Span *cut = &g_array_index (priv->cuts, Span, i);

      add_splice (&w, SPLICE_CUT, cut->start, cut->end, NULL);
    }
  g_array_sort (w.splices, splice_compare);

  out = g_string_sized_new (size + 64);
  for (guint i = 0; i < w.splices->len; i++)
    {
      const Splice *splice = &g_array_index (w.splices, Splice, i);
      const char *text = splice->text;

      if (splice->start < cursor)
        {
          /* Inside a cut: only a cut reaching further matters. */
          if (splice->kind == SPLICE_CUT)
            cursor = MAX (cursor, splice->end);
          continue;
        }
      if (splice->start > cursor)
        append_span (out, &w.reader, cursor, splice->start);
      /* A text that starts the output needs no line break before it. */
      if (text != NULL && out->len == 0 && g_str_has_prefix (text, priv->newline))
        text += strlen (priv->newline);
      if (text != NULL)
        g_string_append (out, text);
      cursor = splice->end;
    }
  if (cursor < size)
    append_span (out, &w.reader, cursor, size);
  else if (size == 0 && out->len > 0)
    g_string_append (out, priv->newline);

  g_array_unref (w.splices);
  (void) error;
  return g_string_free_to_bytes (out);
}
