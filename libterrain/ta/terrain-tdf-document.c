/* terrain-tdf-document.c: TDF text (feature definitions, OTA map descriptions)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include "terrain-tdf-document.h"
#include "terrain-tdf-document-private.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-io.h"
#include "core/terrain-issue.h"
#include "core/terrain-reader-private.h"

/*
 * The model keeps the text. Every parsed block and key remembers the byte
 * span it was read from; the writer copies the source and splices in only
 * what changed:
 *
 *  - an edited value replaces the value's bytes (from its first to its last
 *    non-blank byte), nothing around it;
 *  - a new key or block is generated as text at the end of the previous item
 *    that came from the file (or just after the parent's '{'), indented like
 *    its neighbours, with the file's line breaks;
 *  - a removed key or block cuts its bytes and the line break before it.
 *
 * So an unedited document writes back byte for byte, and an edited one
 * differs from its source only where the edits are.
 *
 * The tree costs several times the text (a node, its strings and arrays
 * for each key of a few bytes), so it is built only when a block is first
 * asked for: opening checks the text without allocating, and validation
 * reads the text (see "Reading without the tree") until the tree exists.
 * An unedited document without a tree saves as its source bytes.
 */

/* Validation lists this many findings of a kind one by one, then a count. */
#define MAX_ISSUES_PER_KIND 20

/* Upper bound of the memory a parsed node costs, for the allocation check
 * made before parsing (the shortest node, "a=;", is three bytes). */
#define NODE_COST 160
#define MIN_NODE_BYTES 3

typedef enum
{
  NODE_ENTRY,
  NODE_SECTION,
} NodeKind;

typedef struct
{
  NodeKind kind;
  /* FALSE for nodes added by an edit: they have no span in the source. */
  gboolean from_source;
  gsize start;    /* '[' of a block, first byte of a key */
  gsize end;      /* just after the closing '}' or ';' */
} TdfNode;

typedef struct
{
  TdfNode node;
  TerrainTdfSection *parent;
  char *key;
  char *value;
  gsize value_start;  /* the value as written, blanks around it excluded */
  gsize value_end;
  gboolean edited;
  gboolean multiline;
} TdfEntry;

struct _TerrainTdfSection
{
  TdfNode node;
  TerrainTdfDocument *document;
  TerrainTdfSection *parent;
  char *name;
  GPtrArray *children;  /* TdfNode *, owned, in file order */
  GPtrArray *sections;  /* TerrainTdfSection *, borrowed, in file order */
  GPtrArray *entries;   /* TdfEntry *, borrowed, in file order */
  gsize body_start;     /* just after '{' */
  guint depth;          /* 0 for the file level */
  gboolean closed;      /* FALSE when the file ended before its '}' */
};

typedef struct
{
  gsize start;
  gsize end;
} Span;

typedef struct
{
  TerrainTdfSection *root;  /* NULL until first needed, see ensure_tree () */
  GArray *cuts;             /* Span: bytes of removed source nodes; NULL for none */
  const char *newline;      /* "\r\n" or "\n", as the file writes them */
  char indent_unit[9];      /* one level of indentation, as the file does it */
  guint stray_semicolons;
  gsize first_stray;
} TerrainTdfDocumentPrivate;

/**
 * TerrainTdfDocument:
 *
 * A TDF text file of nested `[name] { key=value; }` blocks, as Total
 * Annihilation writes feature definitions and map descriptions. The
 * document keeps the text: an edit splices in only the bytes it changes,
 * so comments, blanks and line breaks survive a save. The tree of blocks
 * is built from the text on first access.
 */
G_DEFINE_TYPE_WITH_PRIVATE (TerrainTdfDocument, terrain_tdf_document, TERRAIN_TYPE_DOCUMENT)

static void node_free (TdfNode *node);

static TerrainTdfSection *
section_new (TerrainTdfDocument *document,
             TerrainTdfSection  *parent,
             const char         *name,
             gboolean            from_source)
{
  TerrainTdfSection *section = g_new0 (TerrainTdfSection, 1);

  section->node.kind = NODE_SECTION;
  section->node.from_source = from_source;
  section->document = document;
  section->parent = parent;
  section->name = g_strdup (name);
  section->children = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
  section->sections = g_ptr_array_new ();
  section->entries = g_ptr_array_new ();
  section->depth = parent != NULL ? parent->depth + 1 : 0;
  section->closed = TRUE;

  return section;
}

static void
node_free (TdfNode *node)
{
  if (node == NULL)
    return;

  if (node->kind == NODE_SECTION)
    {
      TerrainTdfSection *section = (TerrainTdfSection *) node;

      g_ptr_array_unref (section->sections);
      g_ptr_array_unref (section->entries);
      g_ptr_array_unref (section->children);
      g_free (section->name);
    }
  else
    {
      TdfEntry *entry = (TdfEntry *) node;

      g_free (entry->key);
      g_free (entry->value);
    }
  g_free (node);
}

char *
terrain_tdf_to_utf8 (const char *text)
{
  char *converted;

  if (text == NULL)
    return NULL;
  if (g_utf8_validate (text, -1, NULL))
    return g_strdup (text);
  converted = g_convert (text, -1, "UTF-8", "WINDOWS-1252", NULL, NULL, NULL);
  if (converted == NULL)
    converted = g_convert (text, -1, "UTF-8", "ISO-8859-1", NULL, NULL, NULL);
  return converted != NULL ? converted : g_utf8_make_valid (text, -1);
}

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
typedef struct
{
  TerrainTdfDocument *document;
  TerrainReader reader;
  const guint8 *data;       /* the whole text, checked against size */
  gsize size;
  gsize pos;
  gboolean build;           /* create nodes, else only check and measure */
  gboolean count_strays;    /* the pass on opening counts stray ';' */
} Parser;

/* What the non-building parser found: one key or block. */
typedef struct
{
  NodeKind kind;
  gsize start;          /* first byte of a key, '[' of a block */
  gsize end;            /* just after the ';' or the '}' */
  gsize name_start;     /* the key or block name as the tree holds it: up to */
  gsize name_end;       /* a NUL byte, blanks around it excluded */
  gsize value_from;     /* entries: just after '=' ... */
  gsize value_to;       /* ... to the ';' */
  gboolean multiline;   /* entries: a line break inside the value */
  gsize body_start;     /* blocks: just after '{' */
  gboolean closed;      /* blocks: FALSE when the text ends before '}' */
} ScanItem;

static void
parser_init (Parser             *p,
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
static inline int
peek_at (const Parser *p,
         gsize         pos)
{
  return pos < p->size ? p->data[pos] : -1;
}

static inline int
peek (const Parser *p)
{
  return peek_at (p, p->pos);
}

/* Copies [start, end) of the text as a NUL-terminated string (which ends
 * at the first NUL byte, if the span holds one). */
static char *
copy_span (const TerrainReader *reader,
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

/* The part of [start, end) that g_strstrip (copy_span ()) keeps: up to the
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

static void
line_and_column (const TerrainReader *reader,
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

  line_and_column (&p->reader, offset, &line, &column);
  g_set_error (error, TERRAIN_ERROR, code,
               "TDF: %s at byte offset %" G_GSIZE_FORMAT " (line %u, column %u)",
               what, offset, line, column);
  return FALSE;
}

static inline gboolean
is_blank (int c)
{
  /* NUL and ^Z (DOS end of file) pad some old files; they are kept as they
   * are, like any other blank. */
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v' ||
         c == 0 || c == 0x1A;
}

/* Skips a comment starting at p->pos, if there is one. */
static gboolean
skip_comment (Parser   *p,
              gboolean *skipped,
              GError  **error)
{
  int c = peek (p);
  int next = peek_at (p, p->pos + 1);

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
        if (c == '*' && peek_at (p, p->pos + 1) == '/')
          {
            p->pos += 2;
            return TRUE;
          }
        p->pos++;
      }
  }
}

/* Skips blanks, comments and stray ';' between items. */
static gboolean
skip_trivia (Parser  *p,
             GError **error)
{
  TerrainTdfDocumentPrivate *priv = terrain_tdf_document_get_instance_private (p->document);

  for (;;)
    {
      int c = peek (p);
      gboolean comment;

      if (c == -1)
        return TRUE;
      if (is_blank (c))
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
      /* A UTF-8 byte-order mark at the very start. */
      if (p->pos == 0 && c == 0xEF && peek_at (p, 1) == 0xBB && peek_at (p, 2) == 0xBF)
        {
          p->pos = 3;
          continue;
        }
      if (!skip_comment (p, &comment, error))
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
    name = g_strstrip (copy_span (&p->reader, name_start, name_end));
  p->pos++;

  if (parent_depth + 1 > TERRAIN_TDF_MAX_DEPTH)
    return parse_error (p, error, TERRAIN_ERROR_LIMIT_EXCEEDED, start,
                        "block [%s] nests %u deep, more than the limit of %d",
                        name, parent_depth + 1, TERRAIN_TDF_MAX_DEPTH);

  if (!skip_trivia (p, error))
    return FALSE;
  c = peek (p);
  if (c != '{' && name == NULL)
    name = g_strstrip (copy_span (&p->reader, name_start, name_end));
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
      section = section_new (p->document, parent, name, TRUE);
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
          g_autofree char *text = g_strstrip (copy_span (&p->reader, start, p->pos));
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
          g_autofree char *raw_key = g_strstrip (copy_span (&p->reader, start, key_end));
          g_autofree char *shown = terrain_tdf_to_utf8 (raw_key);

          if (value != NULL)
            g_string_free (value, TRUE);
          return parse_error (p, error, TERRAIN_ERROR_TRUNCATED, start,
                              "value of key \"%s\" has no ';' before the end of the file",
                              shown);
        }
      if (c == ';')
        break;
      if (!skip_comment (p, &comment, error))
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
      if (!is_blank (c))
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
      entry->key = g_strstrip (copy_span (&p->reader, start, key_end));
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
static gboolean
next_item (Parser   *p,
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
  TerrainTdfDocumentPrivate *priv = terrain_tdf_document_get_instance_private (self);
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
          if (i + 1 + n < size && !is_blank (data[i + 1 + n]))
            {
              memset (priv->indent_unit, ' ', n);
              priv->indent_unit[n] = '\0';
              return;
            }
        }
    }
}

gboolean
terrain_tdf_document_parse (TerrainTdfDocument   *self,
                            GBytes               *bytes,
                            TerrainFormat         format,
                            const TerrainLimits  *limits,
                            GError              **error)
{
  Parser p;
  gboolean closed;

  g_return_val_if_fail (TERRAIN_IS_TDF_DOCUMENT (self), FALSE);
  g_return_val_if_fail (bytes != NULL, FALSE);

  parser_init (&p, self, bytes);
  p.count_strays = TRUE;

  /* Every node needs a few bytes of text, so the text's size bounds what the
   * tree can cost once it is built; refuse texts whose worst case exceeds
   * the budget. */
  if (!terrain_limits_check_alloc (limits, p.size / MIN_NODE_BYTES + 1, NODE_COST,
                                   "parsed blocks and keys", "TDF", 0, error))
    return FALSE;

  detect_style (self, &p);

  /* Only checked here: the tree is built on first access (ensure_tree ()). */
  if (!parse_body (&p, NULL, 0, &closed, error))
    return FALSE;

  terrain_document_set_source (TERRAIN_DOCUMENT (self), bytes, format);
  return TRUE;
}

/* Builds the tree from the kept text, once; a document made from nothing
 * gets an empty file level. */
static TerrainTdfSection *
ensure_tree (TerrainTdfDocument *self)
{
  TerrainTdfDocumentPrivate *priv = terrain_tdf_document_get_instance_private (self);
  GBytes *source;
  Parser p;
  gboolean closed;

  if (priv->root != NULL)
    return priv->root;

  priv->root = section_new (self, NULL, NULL, TRUE);
  source = terrain_document_get_source_bytes (TERRAIN_DOCUMENT (self));
  if (source == NULL)
    return priv->root;

  parser_init (&p, self, source);
  p.build = TRUE;
  if (!parse_body (&p, priv->root, 0, &closed, NULL))
    g_assert_not_reached ();
  priv->root->node.start = 0;
  priv->root->body_start = 0;
  priv->root->node.end = p.size;
  return priv->root;
}

/* ------------------------------------------------------------------------ */
/* Construction                                                              */

/**
 * terrain_tdf_document_new:
 *
 * Creates an empty TDF document, to fill with
 * [method@Terrain.TdfDocument.add_section] and
 * [method@Terrain.TdfDocument.set_value]. It is written with CRLF line
 * breaks and tab indentation, like the game's own files.
 *
 * Returns: (transfer full): a new document
 */
TerrainTdfDocument *
terrain_tdf_document_new (void)
{
  TerrainTdfDocument *self = g_object_new (TERRAIN_TYPE_TDF_DOCUMENT, NULL);

  terrain_document_set_source (TERRAIN_DOCUMENT (self), NULL, TERRAIN_FORMAT_TDF);
  return self;
}

/**
 * terrain_tdf_document_new_from_bytes:
 * @bytes: the text of a TDF-syntax file (`.tdf`, `.ota`, `.fbi`, ...)
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Parses TDF syntax (field-notes.md, "Total Annihilation ecosystem"): nested
 * `[name] { key=value; ... }` blocks; a value runs to the next `;` (blanks
 * around it are not part of it, comments inside it are skipped); `//` and
 * `/ * * /` comments; stray `;` between items are tolerated, and so is a file
 * that ends before its last `}` (validation reports it). Keys and block
 * names are matched case-insensitively. The bytes are kept: an unedited
 * document writes back byte for byte. Parsing checks the whole text but
 * builds nothing: the tree of blocks and keys is built when a block is
 * first asked for (validation reads the text and builds none), so an
 * opened file costs little more than its size.
 *
 * Returns: (transfer full) (nullable): the document, or %NULL with
 *   %TERRAIN_ERROR_TRUNCATED (a comment, block name or value not closed
 *   before the end of the file), %TERRAIN_ERROR_INVALID_VALUE (text that is
 *   neither a block nor a key, a stray `}`), or
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED (nesting deeper than
 *   %TERRAIN_TDF_MAX_DEPTH, a text too large for @limits); messages give the
 *   byte offset, line and column
 */
TerrainTdfDocument *
terrain_tdf_document_new_from_bytes (GBytes               *bytes,
                                     const TerrainLimits  *limits,
                                     GError              **error)
{
  g_autoptr(TerrainTdfDocument) self = NULL;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (TERRAIN_TYPE_TDF_DOCUMENT, NULL);
  if (!terrain_tdf_document_parse (self, bytes, TERRAIN_FORMAT_TDF, limits, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * terrain_tdf_document_new_from_file:
 * @file: a TDF-syntax file
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Loads and parses a file, see [ctor@Terrain.TdfDocument.new_from_bytes].
 *
 * Returns: (transfer full) (nullable): the document
 */
TerrainTdfDocument *
terrain_tdf_document_new_from_file (GFile                *file,
                                    const TerrainLimits  *limits,
                                    GCancellable         *cancellable,
                                    GError              **error)
{
  g_autoptr(GBytes) bytes = NULL;
  TerrainTdfDocument *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  bytes = terrain_file_load_bytes (file, cancellable, error);
  if (bytes == NULL)
    return NULL;
  self = terrain_tdf_document_new_from_bytes (bytes, limits, error);
  if (self != NULL)
    terrain_document_set_file (TERRAIN_DOCUMENT (self), file);
  return self;
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                   */

/**
 * terrain_tdf_document_get_root:
 * @self: a #TerrainTdfDocument
 *
 * Gets the file level of the document.
 *
 * Returns: (transfer none): the file level: a nameless section whose
 *   sections are the file's top-level blocks
 */
TerrainTdfSection *
terrain_tdf_document_get_root (TerrainTdfDocument *self)
{
  g_return_val_if_fail (TERRAIN_IS_TDF_DOCUMENT (self), NULL);

  return ensure_tree (self);
}

/**
 * terrain_tdf_document_find_section:
 * @self: a #TerrainTdfDocument
 * @path: block names separated by `/`, from the top level, e.g.
 *   `"GlobalHeader/Schema 0/specials"`; case-insensitive
 *
 * Finds a block by its path of names.
 *
 * Returns: (transfer none) (nullable): the first block matching each name in
 *   turn, or %NULL
 */
TerrainTdfSection *
terrain_tdf_document_find_section (TerrainTdfDocument *self,
                                   const char         *path)
{
  g_auto(GStrv) names = NULL;
  TerrainTdfSection *section;

  g_return_val_if_fail (TERRAIN_IS_TDF_DOCUMENT (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  names = g_strsplit (path, "/", -1);
  section = ensure_tree (self);
  for (guint i = 0; names[i] != NULL && section != NULL; i++)
    {
      g_strstrip (names[i]);
      if (names[i][0] == '\0')
        continue;
      section = terrain_tdf_section_find_section (section, names[i]);
    }
  return section;
}

/**
 * terrain_tdf_section_get_name:
 * @section: a #TerrainTdfSection
 *
 * Gets the block's name.
 *
 * Returns: (nullable): the block's name as written, blanks around it
 *   excluded; %NULL for the file level
 */
const char *
terrain_tdf_section_get_name (const TerrainTdfSection *section)
{
  g_return_val_if_fail (section != NULL, NULL);

  return section->name;
}

/**
 * terrain_tdf_section_get_parent:
 * @section: a #TerrainTdfSection
 *
 * Gets the enclosing block.
 *
 * Returns: (transfer none) (nullable): the enclosing block, the file level
 *   for a top-level block, %NULL for the file level
 */
TerrainTdfSection *
terrain_tdf_section_get_parent (const TerrainTdfSection *section)
{
  g_return_val_if_fail (section != NULL, NULL);

  return section->parent;
}

/**
 * terrain_tdf_section_get_n_sections:
 * @section: a #TerrainTdfSection
 *
 * Gets the number of blocks directly inside @section.
 *
 * Returns: the number of blocks directly inside @section
 */
guint
terrain_tdf_section_get_n_sections (const TerrainTdfSection *section)
{
  g_return_val_if_fail (section != NULL, 0);

  return section->sections->len;
}

/**
 * terrain_tdf_section_get_section:
 * @section: a #TerrainTdfSection
 * @index: index among the blocks directly inside @section, in file order
 *
 * Gets block @index directly inside @section.
 *
 * Returns: (transfer none) (nullable): the block, or %NULL when @index is
 *   out of range
 */
TerrainTdfSection *
terrain_tdf_section_get_section (const TerrainTdfSection *section,
                                 guint                    index)
{
  g_return_val_if_fail (section != NULL, NULL);

  if (index >= section->sections->len)
    return NULL;
  return g_ptr_array_index (section->sections, index);
}

/**
 * terrain_tdf_section_find_section:
 * @section: a #TerrainTdfSection
 * @name: a block name, case-insensitive
 *
 * Finds a block directly inside @section by name.
 *
 * Returns: (transfer none) (nullable): the first block directly inside
 *   @section with that name, or %NULL
 */
TerrainTdfSection *
terrain_tdf_section_find_section (const TerrainTdfSection *section,
                                  const char              *name)
{
  g_return_val_if_fail (section != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < section->sections->len; i++)
    {
      TerrainTdfSection *child = g_ptr_array_index (section->sections, i);

      if (g_ascii_strcasecmp (child->name, name) == 0)
        return child;
    }
  return NULL;
}

/**
 * terrain_tdf_section_get_n_keys:
 * @section: a #TerrainTdfSection
 *
 * Gets the number of key/value items directly inside @section.
 *
 * Returns: the number of `key=value;` items directly inside @section,
 *   repeated keys included
 */
guint
terrain_tdf_section_get_n_keys (const TerrainTdfSection *section)
{
  g_return_val_if_fail (section != NULL, 0);

  return section->entries->len;
}

/**
 * terrain_tdf_section_get_key:
 * @section: a #TerrainTdfSection
 * @index: index among the keys of @section, in file order
 *
 * Gets the key of item @index.
 *
 * Returns: (nullable): the key as written, or %NULL when @index is out of
 *   range
 */
const char *
terrain_tdf_section_get_key (const TerrainTdfSection *section,
                             guint                    index)
{
  g_return_val_if_fail (section != NULL, NULL);

  if (index >= section->entries->len)
    return NULL;
  return ((TdfEntry *) g_ptr_array_index (section->entries, index))->key;
}

/**
 * terrain_tdf_section_get_value_at:
 * @section: a #TerrainTdfSection
 * @index: index among the keys of @section, in file order
 *
 * Gets the value of item @index.
 *
 * Returns: (nullable): the value of the @index-th key, or %NULL when @index
 *   is out of range
 */
const char *
terrain_tdf_section_get_value_at (const TerrainTdfSection *section,
                                  guint                    index)
{
  g_return_val_if_fail (section != NULL, NULL);

  if (index >= section->entries->len)
    return NULL;
  return ((TdfEntry *) g_ptr_array_index (section->entries, index))->value;
}

static TdfEntry *
find_entry (const TerrainTdfSection *section,
            const char              *key)
{
  for (guint i = 0; i < section->entries->len; i++)
    {
      TdfEntry *entry = g_ptr_array_index (section->entries, i);

      if (g_ascii_strcasecmp (entry->key, key) == 0)
        return entry;
    }
  return NULL;
}

/**
 * terrain_tdf_section_get_value:
 * @section: a #TerrainTdfSection
 * @key: a key, case-insensitive
 *
 * Looks a key up. When a block repeats a key, the first one counts (and
 * validation reports the repetition).
 *
 * Returns: (nullable): the value, blanks around it and comments inside it
 *   excluded, or %NULL when @section has no such key
 */
const char *
terrain_tdf_section_get_value (const TerrainTdfSection *section,
                               const char              *key)
{
  TdfEntry *entry;

  g_return_val_if_fail (section != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  entry = find_entry (section, key);
  return entry != NULL ? entry->value : NULL;
}

/* A decimal integer: an optional sign, then digits, nothing else (what
 * TA's own parser accepts as a number). */
gboolean
terrain_tdf_parse_int (const char *text,
                       gint64     *value)
{
  char *end = NULL;
  gint64 v;

  if (text == NULL || text[0] == '\0')
    return FALSE;
  if (!g_ascii_isdigit (text[0]) && !((text[0] == '-' || text[0] == '+') &&
                                      g_ascii_isdigit (text[1])))
    return FALSE;
  errno = 0;
  v = g_ascii_strtoll (text, &end, 10);
  if (errno != 0 || end == NULL || *end != '\0')
    return FALSE;
  if (value != NULL)
    *value = v;
  return TRUE;
}

/**
 * terrain_tdf_section_get_int:
 * @section: a #TerrainTdfSection
 * @key: a key, case-insensitive
 * @value: (out) (optional): the value as an integer
 *
 * Reads a decimal integer value (an optional sign, then digits, nothing
 * else).
 *
 * Returns: %TRUE if the key exists and holds an integer
 */
gboolean
terrain_tdf_section_get_int (const TerrainTdfSection *section,
                             const char              *key,
                             gint64                  *value)
{
  g_return_val_if_fail (section != NULL, FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  return terrain_tdf_parse_int (terrain_tdf_section_get_value (section, key), value);
}

/**
 * terrain_tdf_section_get_offset:
 * @section: a #TerrainTdfSection
 *
 * Gets the byte offset of the block in the source text.
 *
 * Returns: the byte offset of the block's `[` in the source text, 0 for the
 *   file level, -1 for a block added by an edit
 */
gint64
terrain_tdf_section_get_offset (const TerrainTdfSection *section)
{
  g_return_val_if_fail (section != NULL, -1);

  return section->node.from_source ? (gint64) section->node.start : -1;
}

/* ------------------------------------------------------------------------ */
/* Editing                                                                   */

static gboolean
check_text (const char  *text,
            const char  *what,
            const char  *forbidden,
            GError     **error)
{
  gsize len = strlen (text);

  if (len == 0 && strcmp (what, "value") != 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TDF: an empty %s cannot be written", what);
      return FALSE;
    }
  if (len > 0 && (is_blank ((guchar) text[0]) || is_blank ((guchar) text[len - 1])))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TDF: %s \"%s\" starts or ends with a blank, which a reader would drop",
                   what, text);
      return FALSE;
    }
  for (const char *c = text; *c != '\0'; c++)
    if (strchr (forbidden, *c) != NULL || *c == '\n' || *c == '\r')
      {
        if (*c == '\n' || *c == '\r')
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TDF: %s \"%s\" cannot hold a line break: it would end the %s early",
                       what, text, what);
        else
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TDF: %s \"%s\" cannot hold '%c': it would end the %s early",
                       what, text, *c, what);
        return FALSE;
      }
  if (strstr (text, "//") != NULL || strstr (text, "/*") != NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TDF: %s \"%s\" cannot hold \"//\" or \"/*\": a reader would take them "
                   "for a comment", what, text);
      return FALSE;
    }
  return TRUE;
}

static void
mark_modified (TerrainTdfDocument *self)
{
  terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);
}

static gboolean
section_belongs (TerrainTdfDocument *self,
                 TerrainTdfSection  *section)
{
  return section != NULL && section->document == self;
}

/**
 * terrain_tdf_document_set_value:
 * @self: a #TerrainTdfDocument
 * @section: a block of @self (or its file level)
 * @key: the key, case-insensitive
 * @value: the new value
 *
 * Sets a key's value. An existing key (the first, if it is repeated) keeps
 * its place and spelling and only its value's bytes change when the
 * document is written; a missing key is added after the block's last key,
 * indented like it.
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_INVALID_VALUE when
 *   @key or @value could not be read back as written (a `;`, `=`, bracket,
 *   line break or comment marker in it, blanks at its ends)
 */
gboolean
terrain_tdf_document_set_value (TerrainTdfDocument  *self,
                                TerrainTdfSection   *section,
                                const char          *key,
                                const char          *value,
                                GError             **error)
{
  TdfEntry *entry;
  guint position = 0;

  g_return_val_if_fail (TERRAIN_IS_TDF_DOCUMENT (self), FALSE);
  g_return_val_if_fail (section_belongs (self, section), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  if (!check_text (value, "value", ";", error))
    return FALSE;

  entry = find_entry (section, key);
  if (entry != NULL)
    {
      if (strcmp (entry->value, value) == 0)
        return TRUE;
      g_free (entry->value);
      entry->value = g_strdup (value);
      entry->edited = TRUE;
      mark_modified (self);
      return TRUE;
    }

  if (!check_text (key, "key", "=;[]{}", error))
    return FALSE;

  /* After the last key, before any block that follows it. */
  for (guint i = 0; i < section->children->len; i++)
    if (((TdfNode *) g_ptr_array_index (section->children, i))->kind == NODE_ENTRY)
      position = i + 1;

  entry = g_new0 (TdfEntry, 1);
  entry->node.kind = NODE_ENTRY;
  entry->parent = section;
  entry->key = g_strdup (key);
  entry->value = g_strdup (value);
  g_ptr_array_insert (section->children, position, entry);
  g_ptr_array_add (section->entries, entry);
  mark_modified (self);

  return TRUE;
}

static void
cut_node (TerrainTdfDocument *self,
          TdfNode            *node)
{
  TerrainTdfDocumentPrivate *priv = terrain_tdf_document_get_instance_private (self);
  GBytes *source = terrain_document_get_source_bytes (TERRAIN_DOCUMENT (self));
  Span span;
  Parser p;

  if (!node->from_source || source == NULL)
    return;

  /* The node, the blanks before it on its line, and that line's break. */
  parser_init (&p, self, source);
  span.start = node->start;
  span.end = node->end;
  while (span.start > 0 && (peek_at (&p, span.start - 1) == ' ' ||
                            peek_at (&p, span.start - 1) == '\t'))
    span.start--;
  if (span.start > 0 && peek_at (&p, span.start - 1) == '\n')
    {
      span.start--;
      if (span.start > 0 && peek_at (&p, span.start - 1) == '\r')
        span.start--;
    }
  if (priv->cuts == NULL)
    priv->cuts = g_array_new (FALSE, FALSE, sizeof (Span));
  g_array_append_val (priv->cuts, span);
}

/**
 * terrain_tdf_document_remove_key:
 * @self: a #TerrainTdfDocument
 * @section: a block of @self
 * @key: the key, case-insensitive
 *
 * Removes a key (the first, if it is repeated) with the blanks before it on
 * its line and that line's break; comments stay.
 *
 * Returns: %TRUE if the key existed
 */
gboolean
terrain_tdf_document_remove_key (TerrainTdfDocument *self,
                                 TerrainTdfSection  *section,
                                 const char         *key)
{
  TdfEntry *entry;

  g_return_val_if_fail (TERRAIN_IS_TDF_DOCUMENT (self), FALSE);
  g_return_val_if_fail (section_belongs (self, section), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  entry = find_entry (section, key);
  if (entry == NULL)
    return FALSE;

  cut_node (self, &entry->node);
  g_ptr_array_remove (section->entries, entry);
  g_ptr_array_remove (section->children, entry);
  mark_modified (self);
  return TRUE;
}

/**
 * terrain_tdf_document_add_section:
 * @self: a #TerrainTdfDocument
 * @parent: the block to add to, or the file level
 * @name: the new block's name
 *
 * Adds an empty block after the last item of @parent.
 *
 * Returns: (transfer none) (nullable): the new block, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE when @name could not be read back as
 *   written, or %TERRAIN_ERROR_LIMIT_EXCEEDED beyond
 *   %TERRAIN_TDF_MAX_DEPTH
 */
TerrainTdfSection *
terrain_tdf_document_add_section (TerrainTdfDocument  *self,
                                  TerrainTdfSection   *parent,
                                  const char          *name,
                                  GError             **error)
{
  TerrainTdfSection *section;

  g_return_val_if_fail (TERRAIN_IS_TDF_DOCUMENT (self), NULL);
  g_return_val_if_fail (section_belongs (self, parent), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (!check_text (name, "block name", "[]{};", error))
    return NULL;
  if (parent->depth + 1 > TERRAIN_TDF_MAX_DEPTH)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "TDF: block [%s] would nest %u deep, more than the limit of %d",
                   name, parent->depth + 1, TERRAIN_TDF_MAX_DEPTH);
      return NULL;
    }

  section = section_new (self, parent, name, FALSE);
  g_ptr_array_add (parent->children, section);
  g_ptr_array_add (parent->sections, section);
  mark_modified (self);

  return section;
}

/**
 * terrain_tdf_document_remove_section:
 * @self: a #TerrainTdfDocument
 * @section: (transfer none): a block of @self, not the file level
 *
 * Removes a block and everything in it, with the blanks before it on its
 * line and that line's break. @section is freed.
 */
void
terrain_tdf_document_remove_section (TerrainTdfDocument *self,
                                     TerrainTdfSection  *section)
{
  TerrainTdfSection *parent;

  g_return_if_fail (TERRAIN_IS_TDF_DOCUMENT (self));
  g_return_if_fail (section_belongs (self, section));
  g_return_if_fail (section->parent != NULL);

  parent = section->parent;
  cut_node (self, &section->node);
  g_ptr_array_remove (parent->sections, section);
  g_ptr_array_remove (parent->children, section);
  mark_modified (self);
}

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

  parser_init (&p, w->document, w->text);
  while (start > 0 && ((c = peek_at (&p, start - 1)) == ' ' || c == '\t'))
    start--;
  if (start > 0 && peek_at (&p, start - 1) != '\n')
    return NULL;
  return copy_span (&w->reader, start, offset);
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
  TerrainTdfDocumentPrivate *priv = terrain_tdf_document_get_instance_private (w->document);
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
  TerrainTdfDocumentPrivate *priv = terrain_tdf_document_get_instance_private (w->document);
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

static GBytes *
terrain_tdf_document_save_to_bytes (TerrainDocument  *document,
                                    GError          **error)
{
  TerrainTdfDocument *self = TERRAIN_TDF_DOCUMENT (document);
  TerrainTdfDocumentPrivate *priv = terrain_tdf_document_get_instance_private (self);
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

  collect_splices (&w, ensure_tree (self));
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

/* ------------------------------------------------------------------------ */
/* Reading without the tree                                                  */

/*
 * Validation reads the kept text directly, so that opening and validating
 * a file never builds the tree (which costs several times the text); once
 * the tree exists (something asked for a section, or an edit was made) the
 * same functions read the tree instead, edits included.
 */

/* One key or block directly inside a block, from the tree or the text. */
typedef struct
{
  NodeKind kind;
  const char *name;         /* key or block name; not NUL-terminated */
  gsize name_len;
  gint64 offset;            /* first byte in the source; -1 when from an edit */
  gboolean multiline;       /* entries */
  gsize value_from;         /* entries read from the text */
  gsize value_to;
  TdfEntry *entry;          /* entries read from the tree */
  TerrainTdfRef child;      /* blocks */
} RefItem;

static void
text_parser (TerrainTdfDocument *self,
             Parser             *p)
{
  GBytes *source = terrain_document_get_source_bytes (TERRAIN_DOCUMENT (self));
  g_autoptr(GBytes) empty = NULL;

  if (source == NULL)
    source = empty = g_bytes_new_static ("", 0);
  parser_init (p, self, source);
}

void
terrain_tdf_document_get_root_ref (TerrainTdfDocument *self,
                                   TerrainTdfRef      *root)
{
  TerrainTdfDocumentPrivate *priv = terrain_tdf_document_get_instance_private (self);
  GBytes *source = terrain_document_get_source_bytes (TERRAIN_DOCUMENT (self));

  memset (root, 0, sizeof *root);
  root->section = source != NULL ? priv->root : ensure_tree (self);
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
static gboolean
ref_next_item (TerrainTdfDocument  *self,
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
  if (!next_item (&p, parent->depth, &scan))
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

static gboolean
item_has_name (const RefItem *item,
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

  while (ref_next_item (self, parent, cursor, &item))
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

  while (ref_next_item (self, parent, &cursor, &item))
    if (item.kind == NODE_SECTION && item_has_name (&item, name, len))
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

          if (!skip_comment (&p, &comment, NULL))
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

  while (ref_next_item (self, ref, &cursor, &item))
    if (item.kind == NODE_ENTRY && item_has_name (&item, key, len))
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

/* ------------------------------------------------------------------------ */
/* Validation and description                                               */

typedef struct
{
  TerrainTdfDocument *document;
  TerrainReader reader;
  GPtrArray *issues;
  guint duplicate_keys;
  guint duplicate_sections;
  guint multiline;
  guint unclosed;
} Checker;

/* The block names from the file level down to a block, for messages. */
typedef struct _PathFrame PathFrame;
struct _PathFrame
{
  const PathFrame *parent;
  const char *name;
  gsize len;
};

/* "[GlobalHeader] > [Schema 0]" */
static char *
frame_path (const PathFrame *frame)
{
  GString *path = g_string_new (NULL);
  GPtrArray *chain = g_ptr_array_new ();
  char *shown;

  for (const PathFrame *f = frame; f != NULL; f = f->parent)
    g_ptr_array_add (chain, (gpointer) f);
  for (guint i = chain->len; i > 0; i--)
    {
      const PathFrame *f = g_ptr_array_index (chain, i - 1);

      g_string_append_printf (path, "%s[%.*s]", path->len > 0 ? " > " : "", (int) f->len, f->name);
    }
  g_ptr_array_unref (chain);
  if (path->len == 0)
    g_string_append (path, "file level");
  shown = terrain_tdf_to_utf8 (path->str);
  g_string_free (path, TRUE);
  return shown;
}

/* "[GlobalHeader] > [Schema 0]" */
static char *
section_path (const TerrainTdfSection *section)
{
  GString *path = g_string_new (NULL);
  GPtrArray *chain = g_ptr_array_new ();
  char *shown;

  for (const TerrainTdfSection *s = section; s != NULL && s->depth > 0; s = s->parent)
    g_ptr_array_add (chain, (gpointer) s);
  for (guint i = chain->len; i > 0; i--)
    {
      const TerrainTdfSection *s = g_ptr_array_index (chain, i - 1);

      g_string_append_printf (path, "%s[%s]", path->len > 0 ? " > " : "", s->name);
    }
  g_ptr_array_unref (chain);
  if (path->len == 0)
    g_string_append (path, "file level");
  shown = terrain_tdf_to_utf8 (path->str);
  g_string_free (path, TRUE);
  return shown;
}

/* Whether a finding of a kind counted by @counter is still listed. */
static gboolean
listed (guint *counter)
{
  return ++*counter <= MAX_ISSUES_PER_KIND;
}

static void
add_issue (Checker    *c,
           gint64      offset,
           const char *message)
{
  guint line = 0, column = 0;

  if (offset < 0)
    {
      g_ptr_array_add (c->issues, terrain_issue_new (TERRAIN_SEVERITY_WARNING, "TDF", -1, -1,
                                                     "%s", message));
      return;
    }
  line_and_column (&c->reader, (gsize) offset, &line, &column);
  g_ptr_array_add (c->issues, terrain_issue_new (TERRAIN_SEVERITY_WARNING, "TDF", offset, -1,
                                                 "%s (line %u)", message, line));
}

static char *
item_name_utf8 (const RefItem *item)
{
  g_autofree char *name = g_strndup (item->name, item->name_len);

  return terrain_tdf_to_utf8 (name);
}

/* Repeated names among the items of one kind in a block: the first counts
 * and each later one is reported. The names of the first few items are
 * kept on the stack (pointers into the text or the tree) and compared
 * directly. A block with more is compared by reading it again from its
 * start, which allocates nothing, unless that would cost too much (many
 * items over much text): then the folded names go into a set, which costs
 * little next to such a text. */
#define FEW_NAMES 32
#define RESCAN_BUDGET (1u << 22)

typedef struct
{
  TerrainTdfDocument *document;
  const TerrainTdfRef *parent;
  NodeKind kind;
  guint n;                        /* items of @kind seen so far */
  const char *names[FEW_NAMES];
  gsize lengths[FEW_NAMES];
  gboolean rescan;
  GHashTable *folded;
} Repeats;

static void
repeats_init (Repeats             *r,
              TerrainTdfDocument  *document,
              const TerrainTdfRef *parent,
              NodeKind             kind)
{
  r->document = document;
  r->parent = parent;
  r->kind = kind;
  r->n = 0;
  r->rescan = FALSE;
  r->folded = NULL;
}

/* Past FEW_NAMES items: reading again costs the block's text (or, in the
 * tree, its items) per item. */
static void
repeats_overflow (Repeats *r)
{
  guint64 count = 0, per_item;
  gsize cursor = 0;
  RefItem item;

  while (ref_next_item (r->document, r->parent, &cursor, &item))
    count += item.kind == r->kind;
  per_item = r->parent->section != NULL ? count : r->parent->end - r->parent->body_start;
  if (count * per_item <= RESCAN_BUDGET)
    {
      r->rescan = TRUE;
      return;
    }

  r->folded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < FEW_NAMES; i++)
    g_hash_table_add (r->folded, g_ascii_strdown (r->names[i], (gssize) r->lengths[i]));
}

/* Whether @item, the @index-th item of the block, repeats an earlier
 * name. */
static gboolean
repeats_check (Repeats       *r,
               const RefItem *item,
               guint          index)
{
  gsize cursor = 0;
  RefItem other;

  if (r->n < FEW_NAMES)
    {
      for (guint i = 0; i < r->n; i++)
        if (r->lengths[i] == item->name_len &&
            g_ascii_strncasecmp (r->names[i], item->name, item->name_len) == 0)
          return TRUE;
      r->names[r->n] = item->name;
      r->lengths[r->n] = item->name_len;
      r->n++;
      return FALSE;
    }

  if (r->n++ == FEW_NAMES)
    repeats_overflow (r);

  if (r->folded != NULL)
    return !g_hash_table_add (r->folded, g_ascii_strdown (item->name, (gssize) item->name_len));

  for (guint i = 0; i < index && ref_next_item (r->document, r->parent, &cursor, &other); i++)
    if (other.kind == r->kind && item_has_name (&other, item->name, item->name_len))
      return TRUE;
  return FALSE;
}

static void
repeats_clear (Repeats *r)
{
  g_clear_pointer (&r->folded, g_hash_table_unref);
}

/* The block's path, made on its first finding. */
static const char *
lazy_path (char            **path,
           const PathFrame  *frame)
{
  if (*path == NULL)
    *path = frame_path (frame);
  return *path;
}

static void
check_section (Checker             *c,
               const TerrainTdfRef *section,
               const PathFrame     *frame)
{
  g_autofree char *path = NULL;
  Repeats repeats;
  RefItem item;
  gsize cursor = 0;
  guint index;

  if (!section->closed && listed (&c->unclosed))
    {
      g_autofree char *message =
        g_strdup_printf ("%s is not closed: the file ends before its '}'",
                         lazy_path (&path, frame));

      add_issue (c, terrain_tdf_ref_get_offset (section), message);
    }

  repeats_init (&repeats, c->document, section, NODE_ENTRY);
  for (index = 0; ref_next_item (c->document, section, &cursor, &item); index++)
    {
      if (item.kind != NODE_ENTRY)
        continue;
      if (repeats_check (&repeats, &item, index) && listed (&c->duplicate_keys))
        {
          g_autofree char *key = item_name_utf8 (&item);
          g_autofree char *message =
            g_strdup_printf ("%s repeats key \"%s\"; the first one counts here, other "
                             "readers may take the last", lazy_path (&path, frame), key);

          add_issue (c, item.offset, message);
        }
      if (item.multiline && listed (&c->multiline))
        {
          g_autofree char *key = item_name_utf8 (&item);
          g_autofree char *message =
            g_strdup_printf ("%s: the value of key \"%s\" runs over a line break "
                             "(a missing ';'?)", lazy_path (&path, frame), key);

          add_issue (c, item.offset, message);
        }
    }
  repeats_clear (&repeats);

  repeats_init (&repeats, c->document, section, NODE_SECTION);
  cursor = 0;
  for (index = 0; ref_next_item (c->document, section, &cursor, &item); index++)
    {
      PathFrame child = { frame, item.name, item.name_len };

      if (item.kind != NODE_SECTION)
        continue;
      if (repeats_check (&repeats, &item, index) && listed (&c->duplicate_sections))
        {
          g_autofree char *child_path = frame_path (&child);
          g_autofree char *message =
            g_strdup_printf ("%s appears more than once in %s; lookups find the first",
                             child_path, lazy_path (&path, frame));

          add_issue (c, item.offset, message);
        }
      check_section (c, &item.child, &child);
    }
  repeats_clear (&repeats);
}

static void
add_summary (Checker    *c,
             guint       count,
             const char *what)
{
  if (count > MAX_ISSUES_PER_KIND)
    g_ptr_array_add (c->issues,
                     terrain_issue_new (TERRAIN_SEVERITY_WARNING, "TDF", -1, -1,
                                        "%u more %s (%u in all; only the first %d are listed)",
                                        count - MAX_ISSUES_PER_KIND, what, count,
                                        MAX_ISSUES_PER_KIND));
}

static GPtrArray *
terrain_tdf_document_validate (TerrainDocument *document)
{
  TerrainTdfDocument *self = TERRAIN_TDF_DOCUMENT (document);
  TerrainTdfDocumentPrivate *priv = terrain_tdf_document_get_instance_private (self);
  GBytes *source = terrain_document_get_source_bytes (document);
  g_autoptr(GBytes) empty = g_bytes_new_static ("", 0);
  Checker c = { self, { 0 }, NULL, 0, 0, 0, 0 };
  TerrainTdfRef root;

  terrain_reader_init (&c.reader, source != NULL ? source : empty, "TDF");
  c.issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);

  terrain_tdf_document_get_root_ref (self, &root);
  check_section (&c, &root, NULL);
  add_summary (&c, c.duplicate_keys, "repeated keys");
  add_summary (&c, c.multiline, "values over line breaks");
  add_summary (&c, c.duplicate_sections, "repeated block names");

  if (priv->stray_semicolons > 0)
    {
      guint line, column;

      line_and_column (&c.reader, priv->first_stray, &line, &column);
      g_ptr_array_add (c.issues,
                       terrain_issue_new (TERRAIN_SEVERITY_INFO, "TDF",
                                          (gint64) priv->first_stray, -1,
                                          "%u stray ';' outside any key (the first on line "
                                          "%u); tolerated and kept as written",
                                          priv->stray_semicolons, line));
    }

  return c.issues;
}

static guint
count_keys (const TerrainTdfSection *section,
            guint                   *max_depth)
{
  guint n = section->entries->len;

  *max_depth = MAX (*max_depth, section->depth);
  for (guint i = 0; i < section->sections->len; i++)
    n += count_keys (g_ptr_array_index (section->sections, i), max_depth);
  return n;
}

static guint
count_sections (const TerrainTdfSection *section)
{
  guint n = section->sections->len;

  for (guint i = 0; i < section->sections->len; i++)
    n += count_sections (g_ptr_array_index (section->sections, i));
  return n;
}

static JsonNode *
terrain_tdf_document_describe (TerrainDocument *document)
{
  TerrainTdfDocument *self = TERRAIN_TDF_DOCUMENT (document);
  TerrainTdfDocumentPrivate *priv = terrain_tdf_document_get_instance_private (self);
  GBytes *source = terrain_document_get_source_bytes (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  guint depth = 0;
  TerrainTdfSection *root = ensure_tree (self);
  guint keys = count_keys (root, &depth);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder,
                                 terrain_format_get_name (terrain_document_get_format (document)));
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, source != NULL ? (gint64) g_bytes_get_size (source) : 0);
  json_builder_set_member_name (builder, "line_breaks");
  json_builder_add_string_value (builder, strcmp (priv->newline, "\r\n") == 0 ? "CRLF" : "LF");
  json_builder_set_member_name (builder, "blocks");
  json_builder_add_int_value (builder, count_sections (root));
  json_builder_set_member_name (builder, "keys");
  json_builder_add_int_value (builder, keys);
  json_builder_set_member_name (builder, "depth");
  json_builder_add_int_value (builder, depth);
  json_builder_set_member_name (builder, "top_level");
  json_builder_begin_array (builder);
  for (guint i = 0; i < root->sections->len; i++)
    {
      TerrainTdfSection *section = g_ptr_array_index (root->sections, i);
      g_autofree char *name = terrain_tdf_to_utf8 (section->name);

      json_builder_add_string_value (builder, name);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/* The deepest parsed node holding @offset. */
static const TdfNode *
node_at (const TerrainTdfSection *section,
         gsize                    offset)
{
  for (guint i = 0; i < section->children->len; i++)
    {
      const TdfNode *node = g_ptr_array_index (section->children, i);

      if (!node->from_source || offset < node->start || offset >= node->end)
        continue;
      if (node->kind == NODE_SECTION)
        {
          const TdfNode *inner = node_at ((const TerrainTdfSection *) node, offset);

          return inner != NULL ? inner : node;
        }
      return node;
    }
  return NULL;
}

static char *
terrain_tdf_document_describe_offset (TerrainDocument *document,
                                      gsize            offset)
{
  TerrainTdfDocument *self = TERRAIN_TDF_DOCUMENT (document);
  GBytes *source = terrain_document_get_source_bytes (document);
  TerrainReader reader;
  const TdfNode *node;
  guint line, column;

  if (source == NULL)
    return NULL;
  terrain_reader_init (&reader, source, "TDF");
  line_and_column (&reader, offset, &line, &column);

  node = node_at (ensure_tree (self), offset);
  if (node == NULL)
    return g_strdup_printf ("between blocks (line %u)", line);
  if (node->kind == NODE_SECTION)
    {
      g_autofree char *path = section_path ((const TerrainTdfSection *) node);

      return g_strdup_printf ("%s (line %u)", path, line);
    }
  else
    {
      const TdfEntry *entry = (const TdfEntry *) node;
      g_autofree char *path = section_path (entry->parent);
      g_autofree char *key = terrain_tdf_to_utf8 (entry->key);

      return g_strdup_printf ("%s, key \"%s\" (line %u)", path, key, line);
    }
}

static void
terrain_tdf_document_finalize (GObject *object)
{
  TerrainTdfDocument *self = (TerrainTdfDocument *) object;
  TerrainTdfDocumentPrivate *priv = terrain_tdf_document_get_instance_private (self);

  if (priv->root != NULL)
    node_free (&priv->root->node);
  priv->root = NULL;
  g_clear_pointer (&priv->cuts, g_array_unref);

  G_OBJECT_CLASS (terrain_tdf_document_parent_class)->finalize (object);
}

static void
terrain_tdf_document_class_init (TerrainTdfDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  object_class->finalize = terrain_tdf_document_finalize;

  document_class->save_to_bytes = terrain_tdf_document_save_to_bytes;
  document_class->validate = terrain_tdf_document_validate;
  document_class->describe = terrain_tdf_document_describe;
  document_class->describe_offset = terrain_tdf_document_describe_offset;
}

static void
terrain_tdf_document_init (TerrainTdfDocument *self)
{
  TerrainTdfDocumentPrivate *priv = terrain_tdf_document_get_instance_private (self);

  priv->newline = "\r\n";
  g_strlcpy (priv->indent_unit, "\t", sizeof priv->indent_unit);
}
