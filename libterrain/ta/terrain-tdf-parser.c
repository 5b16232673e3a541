/* terrain-tdf-parser.c: the TDF lexer and parser
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
/* Parsing                                                                   */

/*
 * One parser serves three purposes:
 *
 *  - opening (ScanMode): checks the whole text and allocates nothing, so
 *    that opening a file costs its bytes and no more;
 *  - building the tree on first access (build = TRUE), which cannot fail
 *    any more since the same text was checked on opening;
 *  - reading the kept text without a tree (validation, the ref functions
 *    below): one item at a time, from any block's body.
 */

void
tdf_parser_init (Parser             *p,
                 TerrainTdfDocument *document,
                 GBytes             *bytes)
{
  TerrainReader r;

  memset (p, 0, sizeof *p);
  p->document = document;
  terrain_reader_init (&p->reader, bytes, "TDF");
  p->size = terrain_reader_get_size (&p->reader);
  r = p->reader;
  if (!terrain_reader_peek_bytes (&r, p->size, &p->data, NULL))
    p->size = 0;
}

/* The byte at @pos, or -1 past the end. */
int
tdf_peek_at (const Parser *p,
             gsize         pos)
{
  return pos < p->size ? p->data[pos] : -1;
}

static inline int
peek (const Parser *p)
{
  return tdf_peek_at (p, p->pos);
}

/* Copies [start, end) of the text as a NUL-terminated string (which ends
 * at the first NUL byte, if the span holds one). */
char *
tdf_copy_span (const TerrainReader *reader,
               gsize                start,
               gsize                end)
{
  TerrainReader r = *reader;
  const guint8 *data;

  g_assert (start <= end);
  if (!terrain_reader_seek (&r, start, NULL) ||
      !terrain_reader_peek_bytes (&r, end - start, &data, NULL))
    g_assert_not_reached ();
  return g_strndup ((const char *) data, end - start);
}

/* The part of [start, end) that g_strstrip (tdf_copy_span ()) keeps: up to the
 * first NUL byte, without the ASCII blanks around it. */
static void
effective_span (const Parser *p,
                gsize         start,
                gsize         end,
                gsize        *out_start,
                gsize        *out_end)
{
  const guint8 *nul;

  g_assert (start <= end && end <= p->size);
  nul = memchr (p->data + start, 0, end - start);
  if (nul != NULL)
    end = (gsize) (nul - p->data);
  while (start < end && g_ascii_isspace (p->data[start]))
    start++;
  while (end > start && g_ascii_isspace (p->data[end - 1]))
    end--;
  *out_start = start;
  *out_end = end;
}

void
tdf_line_and_column (const TerrainReader *reader,
                     gsize                offset,
                     guint               *line,
                     guint               *column)
{
  TerrainReader r = *reader;
  const guint8 *data;
  gsize n = MIN (offset, terrain_reader_get_size (reader));

  *line = 1;
  *column = 1;
  if (!terrain_reader_peek_bytes (&r, n, &data, NULL))
    return;
  for (gsize i = 0; i < n; i++)
    {
      if (data[i] == '\n')
        {
          (*line)++;
          *column = 1;
        }
      else
        (*column)++;
    }
}

static gboolean G_GNUC_PRINTF (5, 6)
parse_error (Parser      *p,
             GError     **error,
             TerrainError code,
             gsize        offset,
             const char  *format,
             ...)
{
  g_autofree char *what = NULL;
  guint line, column;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  tdf_line_and_column (&p->reader, offset, &line, &column);
  g_set_error (error, TERRAIN_ERROR, code,
               "TDF: %s at byte offset %" G_GSIZE_FORMAT " (line %u, column %u)",
               what, offset, line, column);
  return FALSE;
}

gboolean
tdf_is_blank (int c)
{
  /* NUL and ^Z (DOS end of file) pad some old files; they are kept as they
   * are, like any other blank. */
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v' ||
         c == 0 || c == 0x1A;
}

/* Skips a comment starting at p->pos, if there is one. */
gboolean
tdf_skip_comment (Parser   *p,
                  gboolean *skipped,
                  GError  **error)
{
  int c = peek (p);
  int next = tdf_peek_at (p, p->pos + 1);

  *skipped = FALSE;
  if (c != '/' || (next != '/' && next != '*'))
    return TRUE;

  *skipped = TRUE;
  if (next == '/')
    {
      p->pos += 2;
      while ((c = peek (p)) != -1 && c != '\n')
        p->pos++;
      return TRUE;
    }

  {
    gsize start = p->pos;

    p->pos += 2;
    for (;;)
      {
        c = peek (p);
        if (c == -1)
          return parse_error (p, error, TERRAIN_ERROR_TRUNCATED, start,
                              "comment \"/*\" is not closed before the end of the file");
        if (c == '*' && tdf_peek_at (p, p->pos + 1) == '/')
          {
            p->pos += 2;
            return TRUE;
          }
        p->pos++;
      }
  }
}

/* Skips blanks, comments and stray ';' between items. */
/* If the text at p->pos reaches a ';' before any '=', line break, bracket,
 * brace or comment, the offset after that ';'; else 0. */
static gsize
stray_statement_end (const Parser *p)
{
  for (gsize i = p->pos; i < p->size; i++)
    {
      guint8 c = p->data[i];

      if (c == ';')
        return i + 1;
      if (c == '=' || c == '\n' || c == '[' || c == ']' || c == '{' || c == '}')
        return 0;
      if (c == '/' && i + 1 < p->size && (p->data[i + 1] == '/' || p->data[i + 1] == '*'))
        return 0;
    }
  return 0;
}

static gboolean
skip_trivia (Parser  *p,
             GError **error)
{
  TerrainTdfDocumentPrivate *priv = tdf_document_get_private (p->document);

  for (;;)
    {
      int c = peek (p);
      gboolean comment;

      if (c == -1)
        return TRUE;
      if (tdf_is_blank (c))
        {
          p->pos++;
          continue;
        }
      if (c == ';')
        {
          if (p->count_strays && priv->stray_semicolons++ == 0)
            priv->first_stray = p->pos;
          p->pos++;
          continue;
        }
      /* Text ended by ';' with no '=' on its line, like the "107;" of a
       * Cavedog campaign OTA (CC17.OTA, line 216): the game's reader skips
       * it, so it is trivia, kept as written and reported by validation. */
      if (c != '[' && c != '{' && c != '}')
        {
          gsize end = stray_statement_end (p);

          if (end != 0)
            {
              if (p->count_strays && priv->stray_statements++ == 0)
                {
                  priv->first_stray_statement = p->pos;
                  priv->first_stray_statement_end = end;
                }
              p->pos = end;
              continue;
            }
        }
      /* A UTF-8 byte-order mark at the very start. */
      if (p->pos == 0 && c == 0xEF && tdf_peek_at (p, 1) == 0xBB && tdf_peek_at (p, 2) == 0xBF)
        {
          p->pos = 3;
          continue;
        }
      if (!tdf_skip_comment (p, &comment, error))
        return FALSE;
      if (!comment)
        return TRUE;
    }
}

static gboolean parse_body (Parser            *p,
                            TerrainTdfSection *section,
                            guint              depth,
                            gboolean          *closed,
                            GError           **error);

/* A block at p->pos ('['), inside @parent (at @parent_depth); without
 * building, @parent is NULL and @item (if any) receives what was found. */
static gboolean
parse_section (Parser            *p,
               TerrainTdfSection *parent,
               guint              parent_depth,
               ScanItem          *item,
               GError           **error)
{
  gsize start = p->pos;
  gsize name_start = p->pos + 1, name_end;
  g_autofree char *name = NULL;
  TerrainTdfSection *section = NULL;
  gboolean closed;
  int c;

  p->pos++;
  for (;;)
    {
      c = peek (p);
      if (c == -1)
        return parse_error (p, error, TERRAIN_ERROR_TRUNCATED, start,
                            "block name is not closed by ']' before the end of the file");
      if (c == ']')
        break;
      if (c == '\n' || c == '[' || c == '{' || c == '}')
        return parse_error (p, error, TERRAIN_ERROR_INVALID_VALUE, p->pos,
                            "block name opened at byte offset %" G_GSIZE_FORMAT
                            " is not closed by ']' (found %s)", start,
                            c == '\n' ? "a line break" : c == '[' ? "'['" :
                            c == '{' ? "'{'" : "'}'");
      p->pos++;
    }
  name_end = p->pos;
  /* The name is copied to build a block, or for a message. */
  if (p->build || parent_depth + 1 > TERRAIN_TDF_MAX_DEPTH)
    name = g_strstrip (tdf_copy_span (&p->reader, name_start, name_end));
  p->pos++;

  if (parent_depth + 1 > TERRAIN_TDF_MAX_DEPTH)
    return parse_error (p, error, TERRAIN_ERROR_LIMIT_EXCEEDED, start,
                        "block [%s] nests %u deep, more than the limit of %d",
                        name, parent_depth + 1, TERRAIN_TDF_MAX_DEPTH);

  if (!skip_trivia (p, error))
    return FALSE;
  c = peek (p);
  if (c != '{' && name == NULL)
    name = g_strstrip (tdf_copy_span (&p->reader, name_start, name_end));
  if (c == -1)
    return parse_error (p, error, TERRAIN_ERROR_TRUNCATED, p->pos,
                        "block [%s] has no '{' before the end of the file", name);
  if (c != '{')
    return parse_error (p, error, TERRAIN_ERROR_INVALID_VALUE, p->pos,
                        "expected '{' after block name [%s], found '%c'", name,
                        g_ascii_isprint (c) ? c : '?');
  p->pos++;

  if (p->build)
    {
      section = tdf_section_new (p->document, parent, name, TRUE);
      section->node.start = start;
      section->body_start = p->pos;
      g_ptr_array_add (parent->children, section);
      g_ptr_array_add (parent->sections, section);
    }
  if (item != NULL)
    {
      item->kind = NODE_SECTION;
      item->start = start;
      item->body_start = p->pos;
      effective_span (p, name_start, name_end, &item->name_start, &item->name_end);
    }

  if (!parse_body (p, section, parent_depth + 1, &closed, error))
    return FALSE;
  if (item != NULL)
    {
      item->end = p->pos;
      item->closed = closed;
    }
  return TRUE;
}

/* A key at p->pos; see parse_section() for @section and @item. */
static gboolean
parse_entry (Parser            *p,
             TerrainTdfSection *section,
             ScanItem          *item,
             GError           **error)
{
  gsize start = p->pos;
  gsize key_end, key_start_kept, key_end_kept;
  gsize value_from;
  gsize value_start = G_MAXSIZE, value_end = 0;
  GString *value = NULL;
  gboolean multiline = FALSE;
  /* The value's line breaks as the tree sees them (the value ends at a NUL
   * byte, blanks around it excluded): a '\n' with value bytes on both
   * sides. */
  gboolean ended = FALSE, started = FALSE, pending = FALSE, inside = FALSE;
  TdfEntry *entry;
  int c;

  for (;;)
    {
      c = peek (p);
      if (c == '=')
        break;
      if (c == -1 || c == '\n' || c == ';' || c == '{' || c == '}' || c == '[')
        {
          g_autofree char *text = g_strstrip (tdf_copy_span (&p->reader, start, p->pos));
          g_autofree char *shown = terrain_tdf_to_utf8 (text);

          if (c == -1)
            return parse_error (p, error, TERRAIN_ERROR_TRUNCATED, start,
                                "key \"%s\" has no '=' before the end of the file", shown);
          return parse_error (p, error, TERRAIN_ERROR_INVALID_VALUE, p->pos,
                              "expected '=' after key \"%s\" (started at byte offset %"
                              G_GSIZE_FORMAT "), found %s", shown, start,
                              c == '\n' ? "a line break" : c == ';' ? "';'" :
                              c == '{' ? "'{'" : c == '}' ? "'}'" : "'['");
        }
      p->pos++;
    }
  key_end = p->pos;
  effective_span (p, start, key_end, &key_start_kept, &key_end_kept);
  if (key_start_kept == key_end_kept)
    return parse_error (p, error, TERRAIN_ERROR_INVALID_VALUE, start, "'=' without a key");
  p->pos++;
  value_from = p->pos;
  if (p->build)
    value = g_string_new (NULL);

  /* The value runs to the next ';' outside a comment; comments inside it are
   * not part of the value. */
  for (;;)
    {
      gboolean comment;
      gsize before = p->pos;

      c = peek (p);
      if (c == -1)
        {
          g_autofree char *raw_key = g_strstrip (tdf_copy_span (&p->reader, start, key_end));
          g_autofree char *shown = terrain_tdf_to_utf8 (raw_key);

          if (value != NULL)
            g_string_free (value, TRUE);
          return parse_error (p, error, TERRAIN_ERROR_TRUNCATED, start,
                              "value of key \"%s\" has no ';' before the end of the file",
                              shown);
        }
      if (c == ';')
        break;
      if (!tdf_skip_comment (p, &comment, error))
        {
          if (value != NULL)
            g_string_free (value, TRUE);
          return FALSE;
        }
      if (comment)
        {
          if (value_start == G_MAXSIZE)
            value_start = before;
          value_end = p->pos;
          continue;
        }
      if (!tdf_is_blank (c))
        {
          if (value_start == G_MAXSIZE)
            value_start = p->pos;
          value_end = p->pos + 1;
        }
      else if (c == '\n')
        multiline = TRUE;
      if (!ended)
        {
          if (c == 0)
            ended = TRUE;
          else if (!g_ascii_isspace (c))
            {
              inside |= pending;
              started = TRUE;
            }
          else if (c == '\n' && started)
            pending = TRUE;
        }
      if (value != NULL)
        g_string_append_c (value, (char) c);
      p->pos++;
    }
  if (value_start == G_MAXSIZE)
    value_start = value_end = p->pos;

  if (p->build)
    {
      entry = g_new0 (TdfEntry, 1);
      entry->node.kind = NODE_ENTRY;
      entry->node.from_source = TRUE;
      entry->node.start = start;
      entry->node.end = p->pos + 1;
      entry->parent = section;
      entry->key = g_strstrip (tdf_copy_span (&p->reader, start, key_end));
      entry->value = g_strstrip (g_string_free (value, FALSE));
      entry->value_start = value_start;
      entry->value_end = value_end;
      /* A line break inside the value itself (not before or after it). */
      entry->multiline = multiline && strchr (entry->value, '\n') != NULL;
      g_ptr_array_add (section->children, entry);
      g_ptr_array_add (section->entries, entry);
    }
  if (item != NULL)
    {
      item->kind = NODE_ENTRY;
      item->start = start;
      item->end = p->pos + 1;
      item->name_start = key_start_kept;
      item->name_end = key_end_kept;
      item->value_from = value_from;
      item->value_to = p->pos;
      item->multiline = inside;
    }
  p->pos++;

  return TRUE;
}

/* The items of a block (or of the file level, at depth 0) up to its '}'
 * or the end of the text; @closed tells which. */
static gboolean
parse_body (Parser            *p,
            TerrainTdfSection *section,
            guint              depth,
            gboolean          *closed,
            GError           **error)
{
  for (;;)
    {
      int c;

      if (!skip_trivia (p, error))
        return FALSE;
      c = peek (p);

      if (c == -1)
        {
          /* Accepted, as the game's own reader does; validation reports it
           * and the writer adds nothing. */
          *closed = depth == 0;
          if (section != NULL)
            {
              section->closed = *closed;
              section->node.end = p->pos;
            }
          return TRUE;
        }
      if (c == '}')
        {
          if (depth == 0)
            return parse_error (p, error, TERRAIN_ERROR_INVALID_VALUE, p->pos,
                                "'}' closes no block");
          p->pos++;
          *closed = TRUE;
          if (section != NULL)
            section->node.end = p->pos;
          return TRUE;
        }
      if (c == '[')
        {
          if (!parse_section (p, section, depth, NULL, error))
            return FALSE;
          continue;
        }
      if (c == '{')
        return parse_error (p, error, TERRAIN_ERROR_INVALID_VALUE, p->pos,
                            "'{' without a [name] before it");
      if (!parse_entry (p, section, NULL, error))
        return FALSE;
    }
}

/* The next item of a block whose body the parser is in (read without
 * building): FALSE at the block's end. The text was checked on opening, so
 * reading it again cannot fail. */
gboolean
tdf_next_item (Parser   *p,
               guint     depth,
               ScanItem *item)
{
  gboolean ok;
  int c;

  g_assert (!p->build && !p->count_strays);

  if (!skip_trivia (p, NULL))
    g_return_val_if_reached (FALSE);
  c = peek (p);
  if (c == -1 || c == '}')
    return FALSE;
  if (c == '[')
    ok = parse_section (p, NULL, depth, item, NULL);
  else
    ok = parse_entry (p, NULL, item, NULL);
  g_return_val_if_fail (ok, FALSE);
  return TRUE;
}

static void
detect_style (TerrainTdfDocument *self,
              const Parser       *p)
{
  TerrainTdfDocumentPrivate *priv = tdf_document_get_private (self);
  gsize size = p->size;
  const guint8 *data = p->data;
  gboolean newline_known = FALSE;

  for (gsize i = 0; i < size; i++)
    {
      if (data[i] != '\n')
        continue;
      if (!newline_known)
        {
          priv->newline = i > 0 && data[i - 1] == '\r' ? "\r\n" : "\n";
          newline_known = TRUE;
        }
      /* The first indented line gives the unit: a tab, or its spaces. */
      if (i + 1 < size && (data[i + 1] == '\t' || data[i + 1] == ' '))
        {
          gsize n = 0;

          if (data[i + 1] == '\t')
            {
              g_strlcpy (priv->indent_unit, "\t", sizeof priv->indent_unit);
              return;
            }
          while (i + 1 + n < size && data[i + 1 + n] == ' ' && n < 8)
            n++;
          if (i + 1 + n < size && !tdf_is_blank (data[i + 1 + n]))
            {
              memset (priv->indent_unit, ' ', n);
              priv->indent_unit[n] = '\0';
              return;
            }
        }
    }
}

gboolean
terrain_tdf_document_parse (TerrainDocument      *document,
                            GBytes               *bytes,
                            const TerrainLimits  *limits,
                            GError              **error)
{
  TerrainTdfDocument *self = TERRAIN_TDF_DOCUMENT (document);
  Parser p;
  gboolean closed;

  tdf_parser_init (&p, self, bytes);
  p.count_strays = TRUE;

  /* Every node needs a few bytes of text, so the text's size bounds what the
   * tree can cost once it is built; refuse texts whose worst case exceeds
   * the budget. */
  if (!terrain_limits_check_alloc (limits, p.size / MIN_NODE_BYTES + 1, NODE_COST,
                                   "parsed blocks and keys", "TDF", 0, error))
    return FALSE;

  detect_style (self, &p);

  /* Only checked here: the tree is built on first access (tdf_ensure_tree ()). */
  return parse_body (&p, NULL, 0, &closed, error);
}

/* Builds the tree from the kept text, once; a document made from nothing
 * gets an empty file level. */
TerrainTdfSection *
tdf_ensure_tree (TerrainTdfDocument *self)
{
  TerrainTdfDocumentPrivate *priv = tdf_document_get_private (self);
  GBytes *source;
  Parser p;
  gboolean closed;

  if (priv->root != NULL)
    return priv->root;

  priv->root = tdf_section_new (self, NULL, NULL, TRUE);
  source = terrain_document_get_source_bytes (TERRAIN_DOCUMENT (self));
  if (source == NULL)
    return priv->root;

  tdf_parser_init (&p, self, source);
  p.build = TRUE;
  if (!parse_body (&p, priv->root, 0, &closed, NULL))
    g_assert_not_reached ();
  priv->root->node.start = 0;
  priv->root->body_start = 0;
  priv->root->node.end = p.size;
  return priv->root;
}
