/* terrain-tdf-document-impl-private.h: the internals shared by the files
 * that implement TerrainTdfDocument
 *
 * terrain-tdf-document.c the type, the tree (construction, reading, editing)
 * terrain-tdf-parser.c   the lexer and parser (checking, building the tree,
 *                        reading one item at a time)
 * terrain-tdf-writer.c   writing: the source with the edits spliced in
 * terrain-tdf-stream.c   reading without the tree (TerrainTdfRef)
 * terrain-tdf-check.c    validation and description
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-tdf-document.h"
#include "terrain-tdf-document-private.h"
#include "core/terrain-document-private.h"
#include "core/terrain-reader-private.h"

G_BEGIN_DECLS

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
  guint stray_statements;   /* text ended by ';' with no '=', like CC17.OTA's "107;" */
  gsize first_stray_statement;
  gsize first_stray_statement_end;
} TerrainTdfDocumentPrivate;


/* The document's private data (G_DEFINE_TYPE_WITH_PRIVATE's accessor is
 * the defining file's alone). */
TerrainTdfDocumentPrivate *tdf_document_get_private (TerrainTdfDocument *self);

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

/* Functions of one file the others call. */
void tdf_line_and_column (const TerrainReader *reader,
                          gsize                offset,
                          guint               *line,
                          guint               *column);
gboolean tdf_ref_next_item (TerrainTdfDocument  *self,
                            const TerrainTdfRef *parent,
                            gsize               *cursor,
                            RefItem             *item);
gboolean tdf_item_has_name (const RefItem *item,
                            const char    *name,
                            gsize          len);
TerrainTdfSection *tdf_ensure_tree (TerrainTdfDocument *self);
gboolean tdf_is_blank (int c);
void tdf_parser_init (Parser             *p,
                      TerrainTdfDocument *document,
                      GBytes             *bytes);
int tdf_peek_at (const Parser *p,
                 gsize         pos);
TerrainTdfSection *tdf_section_new (TerrainTdfDocument *document,
                                    TerrainTdfSection  *parent,
                                    const char         *name,
                                    gboolean            from_source);
gboolean tdf_next_item (Parser   *p,
                        guint     depth,
                        ScanItem *item);
void tdf_node_free (TdfNode *node);

GBytes *tdf_document_save_to_bytes (TerrainDocument  *document,
                                    GError          **error);
GPtrArray *tdf_document_validate (TerrainDocument *document);
JsonNode *tdf_document_describe (TerrainDocument *document);
char *tdf_document_describe_offset (TerrainDocument *document,
                                    gsize            offset);
gboolean tdf_skip_comment (Parser   *p,
                           gboolean *skipped,
                           GError  **error);
char *tdf_copy_span (const TerrainReader *reader,
                     gsize                start,
                     gsize                end);

G_END_DECLS
