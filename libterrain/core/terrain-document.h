/* terrain-document.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "terrain-version.h"
#include "terrain-format.h"
#include "terrain-heightfield.h"
#include "terrain-image.h"
#include "terrain-limits.h"
#include "terrain-render-options.h"

G_BEGIN_DECLS

#define TERRAIN_TYPE_DOCUMENT (terrain_document_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (TerrainDocument, terrain_document, TERRAIN, DOCUMENT, GObject)

/**
 * TerrainDocumentClass:
 * @parent_class: the parent class
 * @save_to_bytes: serialises the document; byte-exact when unedited
 * @validate: returns consistency findings (the document loaded, so there are
 *   no structural errors left to report)
 * @describe: returns a JSON object summarising the document (header fields,
 *   counts, sizes) for `terrain info`
 * @render_image: renders the document's picture (e.g. a TNT map's tiles
 *   through the options' colour table)
 * @export_heights: returns the height grid as a %TERRAIN_IMAGE_GRAY16 image
 * @describe_offset: names the section (and record) holding a byte offset of
 *   the source file, for round-trip reports
 * @parse: reads @bytes into a new, empty document of the class, for
 *   [ctor@Terrain.Document.new_from_bytes], which has already recorded
 *   @bytes as the document's source and passes the limits to apply (never
 *   %NULL); returns %FALSE with @error set when @bytes are not a valid file
 *   of the class's format
 * @format: the format documents of the class are, set in the class's
 *   `class_init` (a subclass inherits its parent's unless it sets its own);
 *   what [ctor@Terrain.Document.new_from_bytes] records
 *
 * The base class of every file libterrain reads: one subclass per format,
 * each registered with [func@Terrain.Format.detect] so that the CLI and the
 * editor open any supported file through [func@Terrain.Document.load].
 */
struct _TerrainDocumentClass
{
  GObjectClass parent_class;

  GBytes       *(*save_to_bytes)  (TerrainDocument  *self,
                                   GError          **error);
  GPtrArray    *(*validate)       (TerrainDocument  *self);
  JsonNode     *(*describe)       (TerrainDocument  *self);
  TerrainImage *(*render_image)   (TerrainDocument       *self,
                                   TerrainRenderOptions  *options,
                                   GError               **error);
  TerrainImage *(*export_heights) (TerrainDocument  *self,
                                   GError          **error);
  char         *(*describe_offset) (TerrainDocument *self,
                                    gsize            offset);
  gboolean      (*parse)          (TerrainDocument      *self,
                                   GBytes               *bytes,
                                   const TerrainLimits  *limits,
                                   GError              **error);
  TerrainFormat   format;

  /*< private >*/
  gpointer padding[6];
};

TERRAIN_AVAILABLE_IN_ALL
TerrainDocument *terrain_document_new_from_bytes (GType                type,
                                                  GBytes              *bytes,
                                                  const TerrainLimits *limits,
                                                  GError             **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainDocument *terrain_document_load          (GFile                *file,
                                                 const TerrainLimits  *limits,
                                                 GCancellable         *cancellable,
                                                 GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainDocument *terrain_document_load_as       (GFile                *file,
                                                 TerrainFormat         format,
                                                 const TerrainLimits  *limits,
                                                 GCancellable         *cancellable,
                                                 GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainDocument *terrain_document_load_path     (const char           *spec,
                                                 TerrainFormat         format,
                                                 const TerrainLimits  *limits,
                                                 GCancellable         *cancellable,
                                                 GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean         terrain_document_split_archive_path (const char    *spec,
                                                      GFile        **archive,
                                                      char         **member,
                                                      GCancellable  *cancellable);
TERRAIN_AVAILABLE_IN_ALL
TerrainDocument *terrain_document_load_heightmap_path (const char             *spec,
                                                       TerrainHeightmapFormat  heightmap_format,
                                                       const TerrainLimits    *limits,
                                                       GCancellable           *cancellable,
                                                       GError                **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainDocument *terrain_document_load_bytes    (GBytes               *bytes,
                                                 const char           *filename,
                                                 TerrainFormat         format,
                                                 const TerrainLimits  *limits,
                                                 GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainFormat    terrain_document_get_format    (TerrainDocument      *self);
TERRAIN_AVAILABLE_IN_ALL
GFile           *terrain_document_get_file      (TerrainDocument      *self);
TERRAIN_AVAILABLE_IN_ALL
void             terrain_document_set_file      (TerrainDocument      *self,
                                                 GFile                *file);
TERRAIN_AVAILABLE_IN_ALL
GBytes          *terrain_document_get_source_bytes (TerrainDocument   *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean         terrain_document_get_modified  (TerrainDocument      *self);
TERRAIN_AVAILABLE_IN_ALL
void             terrain_document_set_modified  (TerrainDocument      *self,
                                                 gboolean              modified);
TERRAIN_AVAILABLE_IN_ALL
GBytes          *terrain_document_save_to_bytes (TerrainDocument      *self,
                                                 GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean         terrain_document_save          (TerrainDocument      *self,
                                                 GFile                *file,
                                                 GCancellable         *cancellable,
                                                 GError              **error);
TERRAIN_AVAILABLE_IN_ALL
GPtrArray       *terrain_document_validate      (TerrainDocument      *self);
TERRAIN_AVAILABLE_IN_ALL
JsonNode        *terrain_document_describe      (TerrainDocument      *self);
TERRAIN_AVAILABLE_IN_ALL
TerrainImage    *terrain_document_render_image  (TerrainDocument      *self,
                                                 TerrainRenderOptions *options,
                                                 GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainImage    *terrain_document_export_heights (TerrainDocument     *self,
                                                  GError             **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean         terrain_document_compare_bytes (TerrainDocument      *self,
                                                 GBytes               *written,
                                                 gsize                *first_difference,
                                                 char                **section);
TERRAIN_AVAILABLE_IN_ALL
char            *terrain_document_describe_offset (TerrainDocument    *self,
                                                   gsize               offset);

G_END_DECLS
