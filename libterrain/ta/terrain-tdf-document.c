/* terrain-tdf-document.c: TDF text (feature definitions, OTA map descriptions): the type and its tree
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


TerrainTdfDocumentPrivate *
tdf_document_get_private (TerrainTdfDocument *self)
{
  return terrain_tdf_document_get_instance_private (self);
}


TerrainTdfSection *
tdf_section_new (TerrainTdfDocument *document,
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
  section->children = g_ptr_array_new_with_free_func ((GDestroyNotify) tdf_node_free);
  section->sections = g_ptr_array_new ();
  section->entries = g_ptr_array_new ();
  section->depth = parent != NULL ? parent->depth + 1 : 0;
  section->closed = TRUE;

  return section;
}

void
tdf_node_free (TdfNode *node)
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
  return TERRAIN_TDF_DOCUMENT (terrain_document_new_from_bytes (TERRAIN_TYPE_TDF_DOCUMENT, bytes,
                                                                limits, error));
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

  return tdf_ensure_tree (self);
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
  section = tdf_ensure_tree (self);
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
  if (len > 0 && (tdf_is_blank ((guchar) text[0]) || tdf_is_blank ((guchar) text[len - 1])))
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
  tdf_parser_init (&p, self, source);
  span.start = node->start;
  span.end = node->end;
  while (span.start > 0 && (tdf_peek_at (&p, span.start - 1) == ' ' ||
                            tdf_peek_at (&p, span.start - 1) == '\t'))
    span.start--;
  if (span.start > 0 && tdf_peek_at (&p, span.start - 1) == '\n')
    {
      span.start--;
      if (span.start > 0 && tdf_peek_at (&p, span.start - 1) == '\r')
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

  section = tdf_section_new (self, parent, name, FALSE);
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

static void
terrain_tdf_document_finalize (GObject *object)
{
  TerrainTdfDocument *self = (TerrainTdfDocument *) object;
  TerrainTdfDocumentPrivate *priv = terrain_tdf_document_get_instance_private (self);

  if (priv->root != NULL)
    tdf_node_free (&priv->root->node);
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

  document_class->save_to_bytes = tdf_document_save_to_bytes;
  document_class->validate = tdf_document_validate;
  document_class->describe = tdf_document_describe;
  document_class->describe_offset = tdf_document_describe_offset;
  document_class->parse = terrain_tdf_document_parse;
  document_class->format = TERRAIN_FORMAT_TDF;
}

static void
terrain_tdf_document_init (TerrainTdfDocument *self)
{
  TerrainTdfDocumentPrivate *priv = terrain_tdf_document_get_instance_private (self);

  priv->newline = "\r\n";
  g_strlcpy (priv->indent_unit, "\t", sizeof priv->indent_unit);
}
