/* terrain-tdf-check.c: TDF validation and description
 * (the files of TerrainTdfDocument: terrain-tdf-document-impl-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include "terrain-tdf-document-impl-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue-private.h"
#include "core/terrain-io.h"
#include "core/terrain-issue.h"

/* ------------------------------------------------------------------------ */
/* Validation and description                                               */

typedef struct
{
  TerrainTdfDocument *document;
  TerrainReader reader;
  TerrainIssueCollector found;   /* capped per kind */
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

/* Whether a finding of @kind is still listed (the one capped collector,
 * core/terrain-issue-private.h). */
static gboolean
listed (Checker    *c,
        const char *kind)
{
  return terrain_issue_collector_admit (&c->found, kind, TERRAIN_SEVERITY_WARNING, "TDF");
}

static void
add_issue (Checker    *c,
           gint64      offset,
           const char *message)
{
  guint line = 0, column = 0;

  if (offset < 0)
    {
      terrain_issue_collector_take (&c->found,
                                    terrain_issue_new_literal (TERRAIN_SEVERITY_WARNING, "TDF",
                                                               -1, -1, message));
      return;
    }
  tdf_line_and_column (&c->reader, (gsize) offset, &line, &column);
  terrain_issue_collector_take (&c->found,
                                terrain_issue_new (TERRAIN_SEVERITY_WARNING, "TDF", offset, -1,
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

  while (tdf_ref_next_item (r->document, r->parent, &cursor, &item))
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

  for (guint i = 0; i < index && tdf_ref_next_item (r->document, r->parent, &cursor, &other); i++)
    if (other.kind == r->kind && tdf_item_has_name (&other, item->name, item->name_len))
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

  if (!section->closed && listed (c, "unclosed blocks"))
    {
      g_autofree char *message =
        g_strdup_printf ("%s is not closed: the file ends before its '}'",
                         lazy_path (&path, frame));

      add_issue (c, terrain_tdf_ref_get_offset (section), message);
    }

  repeats_init (&repeats, c->document, section, NODE_ENTRY);
  for (index = 0; tdf_ref_next_item (c->document, section, &cursor, &item); index++)
    {
      if (item.kind != NODE_ENTRY)
        continue;
      if (repeats_check (&repeats, &item, index) && listed (c, "repeated keys"))
        {
          g_autofree char *key = item_name_utf8 (&item);
          g_autofree char *message =
            g_strdup_printf ("%s repeats key \"%s\"; the first one counts here, other "
                             "readers may take the last", lazy_path (&path, frame), key);

          add_issue (c, item.offset, message);
        }
      if (item.multiline && listed (c, "values over line breaks"))
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
  for (index = 0; tdf_ref_next_item (c->document, section, &cursor, &item); index++)
    {
      PathFrame child = { frame, item.name, item.name_len };

      if (item.kind != NODE_SECTION)
        continue;
      if (repeats_check (&repeats, &item, index) && listed (c, "repeated block names"))
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

GPtrArray *
tdf_document_validate (TerrainDocument *document)
{
  TerrainTdfDocument *self = TERRAIN_TDF_DOCUMENT (document);
  TerrainTdfDocumentPrivate *priv = tdf_document_get_private (self);
  GBytes *source = terrain_document_get_source_bytes (document);
  g_autoptr(GBytes) empty = g_bytes_new_static ("", 0);
  Checker c = { self, { 0 }, { 0 } };
  g_autoptr(GPtrArray) issues = NULL;
  TerrainTdfRef root;

  terrain_reader_init (&c.reader, source != NULL ? source : empty, "TDF");
  terrain_issue_collector_init (&c.found, 0);

  terrain_tdf_document_get_root_ref (self, &root);
  check_section (&c, &root, NULL);
  issues = terrain_issue_collector_finish (&c.found);

  if (priv->stray_semicolons > 0)
    {
      guint line, column;

      tdf_line_and_column (&c.reader, priv->first_stray, &line, &column);
      g_ptr_array_add (issues,
                       terrain_issue_new (TERRAIN_SEVERITY_INFO, "TDF",
                                          (gint64) priv->first_stray, -1,
                                          "%u stray ';' outside any key (the first on line "
                                          "%u); tolerated and kept as written",
                                          priv->stray_semicolons, line));
    }

  if (priv->stray_statements > 0)
    {
      guint line, column;
      gsize length = priv->first_stray_statement_end - priv->first_stray_statement;
      g_autofree char *raw = g_strndup ((const char *) c.reader.data + priv->first_stray_statement,
                                        MIN (length, 40));
      g_autofree char *text = terrain_tdf_to_utf8 (g_strstrip (raw));

      tdf_line_and_column (&c.reader, priv->first_stray_statement, &line, &column);
      g_ptr_array_add (issues,
                       terrain_issue_new (TERRAIN_SEVERITY_WARNING, "TDF",
                                          (gint64) priv->first_stray_statement, -1,
                                          "%u statement%s without '=' (the first, \"%s\", on "
                                          "line %u, column %u, byte offset %" G_GSIZE_FORMAT
                                          "); skipped as the game does and kept as written",
                                          priv->stray_statements,
                                          priv->stray_statements == 1 ? "" : "s", text, line,
                                          column, priv->first_stray_statement));
    }

  return g_steal_pointer (&issues);
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

JsonNode *
tdf_document_describe (TerrainDocument *document)
{
  TerrainTdfDocument *self = TERRAIN_TDF_DOCUMENT (document);
  TerrainTdfDocumentPrivate *priv = tdf_document_get_private (self);
  GBytes *source = terrain_document_get_source_bytes (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  guint depth = 0;
  TerrainTdfSection *root = tdf_ensure_tree (self);
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

char *
tdf_document_describe_offset (TerrainDocument *document,
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
  tdf_line_and_column (&reader, offset, &line, &column);

  node = node_at (tdf_ensure_tree (self), offset);
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
