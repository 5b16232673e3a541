/* terrain-tdf-document-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-tdf-document.h"

G_BEGIN_DECLS

/* The `parse` of every TDF class (TerrainDocumentClass): checks @bytes
 * for a new, empty document of any TDF subclass; the tree is built on first
 * access. */
gboolean terrain_tdf_document_parse (TerrainDocument      *document,
                                     GBytes               *bytes,
                                     const TerrainLimits  *limits,
                                     GError              **error);

/* Text for messages and JSON: the bytes as they are when they are UTF-8,
 * otherwise read as Windows-1252, the code page TA's tools wrote. */
char    *terrain_tdf_to_utf8        (const char           *text);

/* A decimal integer: an optional sign, then digits, nothing else. */
gboolean terrain_tdf_parse_int      (const char           *text,
                                     gint64               *value);

/*
 * Reading a document without building its tree, for validation: opening
 * checks the text and allocates nothing, and the tree (several times the
 * text's size) is built only when a section is first asked for. A
 * TerrainTdfRef names a block either way: in the tree once it exists (edits
 * included), otherwise by its place in the kept text.
 */
typedef struct
{
  TerrainTdfSection *section;  /* the block in the tree, or NULL before the tree */
  gsize start;                 /* '[' in the source text (0 for the file level) */
  gsize body_start;            /* just after its '{' */
  gsize end;                   /* just after its '}' */
  gsize name_start;            /* the name as the tree holds it */
  gsize name_end;
  guint depth;                 /* 0 for the file level */
  gboolean closed;             /* FALSE when the text ends before its '}' */
} TerrainTdfRef;

/* A name or value read from the text: short ones stay in the struct. */
typedef struct
{
  char inline_text[64];
  char *heap;
} TerrainTdfText;

void         terrain_tdf_text_clear            (TerrainTdfText       *text);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TerrainTdfText, terrain_tdf_text_clear)

void         terrain_tdf_document_get_root_ref (TerrainTdfDocument   *self,
                                                TerrainTdfRef        *root);
/* The blocks directly inside @parent in file order; *@cursor starts at 0. */
gboolean     terrain_tdf_ref_next_section      (TerrainTdfDocument   *self,
                                                const TerrainTdfRef  *parent,
                                                gsize                *cursor,
                                                TerrainTdfRef        *child);
gboolean     terrain_tdf_ref_find_section      (TerrainTdfDocument   *self,
                                                const TerrainTdfRef  *parent,
                                                const char           *name,
                                                TerrainTdfRef        *child);
/* Like terrain_tdf_section_get_name () and _get_value (); the result lives
 * in @text (or the tree) until @text is cleared or reused. */
const char  *terrain_tdf_ref_get_name          (TerrainTdfDocument   *self,
                                                const TerrainTdfRef  *ref,
                                                TerrainTdfText       *text);
const char  *terrain_tdf_ref_get_value         (TerrainTdfDocument   *self,
                                                const TerrainTdfRef  *ref,
                                                const char           *key,
                                                TerrainTdfText       *text);
gboolean     terrain_tdf_ref_get_int           (TerrainTdfDocument   *self,
                                                const TerrainTdfRef  *ref,
                                                const char           *key,
                                                gint64               *value);
gint64       terrain_tdf_ref_get_offset        (const TerrainTdfRef  *ref);

G_END_DECLS
