/* terrain-tdf-document.h: TDF text (feature definitions, OTA map descriptions)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "core/terrain-document.h"
#include "core/terrain-limits.h"

G_BEGIN_DECLS

/**
 * TERRAIN_TDF_MAX_DEPTH:
 *
 * Deepest nesting of `[name] { }` blocks the reader accepts. Real files nest
 * four deep (an OTA's `[GlobalHeader]`, `[Schema N]`, `[specials]`,
 * `[specialN]`).
 */
#define TERRAIN_TDF_MAX_DEPTH 32

/**
 * TerrainTdfSection:
 *
 * One `[name] { ... }` block of a [class@Terrain.TdfDocument], or the file
 * level itself ([method@Terrain.TdfDocument.get_root]), which has no name
 * and holds the top-level blocks. Owned by its document: valid until the
 * document is finalised or the block removed.
 */
typedef struct _TerrainTdfSection TerrainTdfSection;

#define TERRAIN_TYPE_TDF_DOCUMENT (terrain_tdf_document_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (TerrainTdfDocument, terrain_tdf_document, TERRAIN, TDF_DOCUMENT,
                          TerrainDocument)

/**
 * TerrainTdfDocumentClass:
 * @parent_class: the parent class
 *
 * The class of TDF-syntax documents; [class@Terrain.OtaFile] derives from it
 * to add typed access to a map description.
 */
struct _TerrainTdfDocumentClass
{
  TerrainDocumentClass parent_class;

  /*< private >*/
  gpointer padding[4];
};

TERRAIN_AVAILABLE_IN_ALL
TerrainTdfDocument *terrain_tdf_document_new            (void);
TERRAIN_AVAILABLE_IN_ALL
TerrainTdfDocument *terrain_tdf_document_new_from_bytes (GBytes               *bytes,
                                                         const TerrainLimits  *limits,
                                                         GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainTdfDocument *terrain_tdf_document_new_from_file  (GFile                *file,
                                                         const TerrainLimits  *limits,
                                                         GCancellable         *cancellable,
                                                         GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainTdfSection  *terrain_tdf_document_get_root       (TerrainTdfDocument   *self);
TERRAIN_AVAILABLE_IN_ALL
TerrainTdfSection  *terrain_tdf_document_find_section   (TerrainTdfDocument   *self,
                                                         const char           *path);
TERRAIN_AVAILABLE_IN_ALL
gboolean            terrain_tdf_document_set_value      (TerrainTdfDocument   *self,
                                                         TerrainTdfSection    *section,
                                                         const char           *key,
                                                         const char           *value,
                                                         GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean            terrain_tdf_document_remove_key     (TerrainTdfDocument   *self,
                                                         TerrainTdfSection    *section,
                                                         const char           *key);
TERRAIN_AVAILABLE_IN_ALL
TerrainTdfSection  *terrain_tdf_document_add_section    (TerrainTdfDocument   *self,
                                                         TerrainTdfSection    *parent,
                                                         const char           *name,
                                                         GError              **error);
TERRAIN_AVAILABLE_IN_ALL
void                terrain_tdf_document_remove_section (TerrainTdfDocument   *self,
                                                         TerrainTdfSection    *section);

TERRAIN_AVAILABLE_IN_ALL
const char         *terrain_tdf_section_get_name        (const TerrainTdfSection *section);
TERRAIN_AVAILABLE_IN_ALL
TerrainTdfSection  *terrain_tdf_section_get_parent      (const TerrainTdfSection *section);
TERRAIN_AVAILABLE_IN_ALL
guint               terrain_tdf_section_get_n_sections  (const TerrainTdfSection *section);
TERRAIN_AVAILABLE_IN_ALL
TerrainTdfSection  *terrain_tdf_section_get_section     (const TerrainTdfSection *section,
                                                         guint                    index);
TERRAIN_AVAILABLE_IN_ALL
TerrainTdfSection  *terrain_tdf_section_find_section    (const TerrainTdfSection *section,
                                                         const char              *name);
TERRAIN_AVAILABLE_IN_ALL
guint               terrain_tdf_section_get_n_keys      (const TerrainTdfSection *section);
TERRAIN_AVAILABLE_IN_ALL
const char         *terrain_tdf_section_get_key         (const TerrainTdfSection *section,
                                                         guint                    index);
TERRAIN_AVAILABLE_IN_ALL
const char         *terrain_tdf_section_get_value_at    (const TerrainTdfSection *section,
                                                         guint                    index);
TERRAIN_AVAILABLE_IN_ALL
const char         *terrain_tdf_section_get_value       (const TerrainTdfSection *section,
                                                         const char              *key);
TERRAIN_AVAILABLE_IN_ALL
gboolean            terrain_tdf_section_get_int         (const TerrainTdfSection *section,
                                                         const char              *key,
                                                         gint64                  *value);
TERRAIN_AVAILABLE_IN_ALL
gint64              terrain_tdf_section_get_offset      (const TerrainTdfSection *section);

G_END_DECLS
