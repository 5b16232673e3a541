/* terrain-document.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-document.h"
#include "terrain-document-private.h"
#include "terrain-error-private.h"
#include "terrain-enums.h"
#include "terrain-error.h"
#include "terrain-format-private.h"
#include "terrain-heightfield-private.h"
#include "terrain-heightmap-document.h"
#include "terrain-io.h"
#include "terrain-issue.h"

typedef struct
{
  GFile *file;
  GBytes *source;
  TerrainFormat format;
  guint modified : 1;
} TerrainDocumentPrivate;

/**
 * TerrainDocument:
 *
 * A file libterrain has read or made: the abstract base of every format's
 * model ([class@Terrain.TntMap], [class@Terrain.AtlasFile], ...).
 *
 * A document remembers the bytes it was read from
 * ([method@Terrain.Document.get_source_bytes]) and the file it belongs to,
 * tracks whether it was edited, and saves atomically
 * ([method@Terrain.Document.save]); unedited, it writes back the very bytes
 * it read. Open any supported file with [func@Terrain.Document.load].
 */
G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TerrainDocument, terrain_document, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_FILE,
  PROP_FORMAT,
  PROP_MODIFIED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GBytes *
terrain_document_real_save_to_bytes (TerrainDocument  *self,
                                     GError          **error)
{
  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
               "%s: writing is not supported",
               terrain_format_get_description (terrain_document_get_format (self)));
  return NULL;
}

static GPtrArray *
terrain_document_real_validate (TerrainDocument *self)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
}

static JsonNode *
terrain_document_real_describe (TerrainDocument *self)
{
  TerrainDocumentPrivate *priv = terrain_document_get_instance_private (self);
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, terrain_format_get_name (priv->format));
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, priv->source ? (gint64) g_bytes_get_size (priv->source) : 0);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static TerrainImage *
terrain_document_real_render_image (TerrainDocument  *self,
                                    TerrainRenderOptions *options,
                                    GError          **error)
{
  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
               "%s: no image to render",
               terrain_format_get_description (terrain_document_get_format (self)));
  return NULL;
}

static TerrainImage *
terrain_document_real_export_heights (TerrainDocument  *self,
                                      GError          **error)
{
  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
               "%s: no height grid",
               terrain_format_get_description (terrain_document_get_format (self)));
  return NULL;
}

static char *
terrain_document_real_describe_offset (TerrainDocument *self,
                                       gsize            offset)
{
  return NULL;
}

static void
terrain_document_finalize (GObject *object)
{
  TerrainDocument *self = (TerrainDocument *)object;
  TerrainDocumentPrivate *priv = terrain_document_get_instance_private (self);

  g_clear_object (&priv->file);
  g_clear_pointer (&priv->source, g_bytes_unref);

  G_OBJECT_CLASS (terrain_document_parent_class)->finalize (object);
}

static void
terrain_document_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TerrainDocument *self = TERRAIN_DOCUMENT (object);
  TerrainDocumentPrivate *priv = terrain_document_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, priv->file);
      break;
    case PROP_FORMAT:
      g_value_set_enum (value, priv->format);
      break;
    case PROP_MODIFIED:
      g_value_set_boolean (value, priv->modified);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_document_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  TerrainDocument *self = TERRAIN_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_FILE:
      terrain_document_set_file (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
terrain_document_class_init (TerrainDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = terrain_document_finalize;
  object_class->get_property = terrain_document_get_property;
  object_class->set_property = terrain_document_set_property;

  klass->save_to_bytes = terrain_document_real_save_to_bytes;
  klass->validate = terrain_document_real_validate;
  klass->describe = terrain_document_real_describe;
  klass->render_image = terrain_document_real_render_image;
  klass->export_heights = terrain_document_real_export_heights;
  klass->describe_offset = terrain_document_real_describe_offset;

  /**
   * TerrainDocument:file:
   *
   * The file the document was loaded from or last saved to.
   */
  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL,
                         G_TYPE_FILE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainDocument:format:
   *
   * The file format of the document.
   */
  properties[PROP_FORMAT] =
    g_param_spec_enum ("format", NULL, NULL,
                       TERRAIN_TYPE_FORMAT, TERRAIN_FORMAT_UNKNOWN,
                       (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * TerrainDocument:modified:
   *
   * Whether the document was edited since it was loaded or last saved.
   */
  properties[PROP_MODIFIED] =
    g_param_spec_boolean ("modified", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
terrain_document_init (TerrainDocument *self)
{
}

void
terrain_document_set_source (TerrainDocument *self,
                             GBytes          *bytes,
                             TerrainFormat    format)
{
  TerrainDocumentPrivate *priv = terrain_document_get_instance_private (self);

  g_return_if_fail (TERRAIN_IS_DOCUMENT (self));

  if (bytes != NULL)
    g_bytes_ref (bytes);
  g_clear_pointer (&priv->source, g_bytes_unref);
  priv->source = bytes;
  priv->format = format;
}

gboolean
terrain_document_parse_bytes (TerrainDocument      *self,
                              GBytes               *bytes,
                              const TerrainLimits  *limits,
                              GError              **error)
{
  TerrainDocumentClass *klass;
  GError *local = NULL;

  g_return_val_if_fail (TERRAIN_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (bytes != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  klass = TERRAIN_DOCUMENT_GET_CLASS (self);
  terrain_document_set_source (self, bytes, klass->format);
  if (klass->parse == NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "%s: %s documents cannot be read from bytes",
                   terrain_format_get_description (terrain_document_get_format (self)),
                   G_OBJECT_TYPE_NAME (self));
      return FALSE;
    }
  if (!klass->parse (self, bytes, limits != NULL ? limits : terrain_limits_get_default (),
                     &local))
    {
      /* Messages quote names from files: keep them UTF-8 whichever
       * constructor a caller (or a binding) went through. */
      terrain_error_ensure_utf8 (&local);
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

/**
 * terrain_document_new_from_bytes:
 * @type: a document class that is not abstract, e.g. %TERRAIN_TYPE_CHU_FILE
 * @bytes: a file's contents
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Reads @bytes as a file of @type's format: the one constructor every
 * format's `new_from_bytes` ([ctor@Terrain.TntMap.new_from_bytes],
 * [ctor@Terrain.ChuFile.new_from_bytes], ...) goes through. It makes an
 * empty document of @type, records @bytes as its source (the document keeps
 * a reference and decodes from it; see
 * [method@Terrain.Document.get_source_bytes]) in the class's format and runs
 * the class's `parse` with @limits. Unlike [func@Terrain.Document.load_bytes], nothing is
 * detected: @bytes must be of @type's format.
 *
 * Returns: (transfer full) (nullable): the document, or %NULL with a
 *   %TERRAIN_ERROR set: the format's own error for bytes it cannot read
 *   (each constructor lists its codes), or %TERRAIN_ERROR_NOT_SUPPORTED for
 *   a class that does not read bytes. Messages are UTF-8 whatever names the
 *   file holds.
 */
TerrainDocument *
terrain_document_new_from_bytes (GType                 type,
                                 GBytes               *bytes,
                                 const TerrainLimits  *limits,
                                 GError              **error)
{
  g_autoptr(TerrainDocument) self = NULL;

  g_return_val_if_fail (g_type_is_a (type, TERRAIN_TYPE_DOCUMENT), NULL);
  g_return_val_if_fail (!G_TYPE_IS_ABSTRACT (type), NULL);
  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (type, NULL);
  if (!terrain_document_parse_bytes (self, bytes, limits, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * terrain_document_load_bytes:
 * @bytes: a file's contents
 * @filename: (nullable): the file's name, used for its extension
 * @format: the format, or %TERRAIN_FORMAT_UNKNOWN to detect it with
 *   [func@Terrain.Format.detect]
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Parses a file held in memory with the loader of its format. The document
 * keeps a reference to @bytes and decodes from it.
 *
 * Returns: (transfer full) (nullable): the document, or %NULL with a
 *   %TERRAIN_ERROR set: %TERRAIN_ERROR_UNKNOWN_FORMAT when the format is not
 *   recognised, %TERRAIN_ERROR_NOT_SUPPORTED when it has no loader yet, or the
 *   loader's error
 */
TerrainDocument *
terrain_document_load_bytes (GBytes               *bytes,
                             const char           *filename,
                             TerrainFormat         format,
                             const TerrainLimits  *limits,
                             GError              **error)
{
  TerrainDocument *document;
  GError *local = NULL;

  g_return_val_if_fail (bytes != NULL, NULL);

  if (format == TERRAIN_FORMAT_UNKNOWN)
    format = terrain_format_detect (bytes, filename);

  if (format == TERRAIN_FORMAT_UNKNOWN)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNKNOWN_FORMAT,
                   "%s: not a file format libterrain recognises (neither its first bytes "
                   "nor its extension identify it)",
                   filename != NULL ? filename : "data");
      return NULL;
    }

  if (!terrain_format_can_load (format))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "%s: %s files are recognised but cannot be opened yet",
                   filename != NULL ? filename : "data",
                   terrain_format_get_description (format));
      return NULL;
    }

  document = terrain_format_load (format, bytes, limits, &local);
  terrain_error_ensure_utf8 (&local);
  if (local != NULL)
    g_propagate_error (error, local);
  return document;
}

/* Loads @bytes as terrain_document_load_bytes() does, or, when
 * @heightmap_format names a height source, as that source: a document
 * format of its own (.ter, .tnt) or a plain heightmap read in that
 * encoding. */
static TerrainDocument *
load_bytes_with_heightmap (GBytes                 *bytes,
                           const char             *filename,
                           TerrainFormat           format,
                           TerrainHeightmapFormat  heightmap_format,
                           const TerrainLimits    *limits,
                           GError                **error)
{
  TerrainFormat own;
  GError *local = NULL;
  TerrainDocument *document;

  if (heightmap_format == TERRAIN_HEIGHTMAP_AUTO)
    return terrain_document_load_bytes (bytes, filename, format, limits, error);
  own = terrain_heightmap_format_get_document_format (heightmap_format);
  if (own != TERRAIN_FORMAT_UNKNOWN)
    return terrain_document_load_bytes (bytes, filename, own, limits, error);

  document = TERRAIN_DOCUMENT (terrain_heightmap_document_new_for_format (bytes, heightmap_format,
                                                                          limits, &local));
  terrain_error_ensure_utf8 (&local);
  if (local != NULL)
    g_propagate_error (error, local);
  return document;
}

static TerrainDocument *
load_file (GFile                  *file,
           TerrainFormat           format,
           TerrainHeightmapFormat  heightmap_format,
           const TerrainLimits    *limits,
           GCancellable           *cancellable,
           GError                **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *name = NULL;
  TerrainDocument *document;

  bytes = terrain_file_load_bytes (file, cancellable, error);
  if (bytes == NULL)
    return NULL;

  name = g_file_get_basename (file);
  document = load_bytes_with_heightmap (bytes, name, format, heightmap_format, limits, error);
  if (document != NULL)
    terrain_document_set_file (document, file);

  return document;
}

/**
 * terrain_document_load:
 * @file: the file to open
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Opens any file libterrain supports: the file is memory-mapped (or read,
 * when it is under 64 KiB; see [func@Terrain.file_load_bytes]), its format
 * detected by magic and extension, and the format's loader builds the
 * document. This is the one entry point the CLI and the editor use.
 *
 * Returns: (transfer full) (nullable): the document, or %NULL with a
 *   %TERRAIN_ERROR set
 */
TerrainDocument *
terrain_document_load (GFile                *file,
                       const TerrainLimits  *limits,
                       GCancellable         *cancellable,
                       GError              **error)
{
  return terrain_document_load_as (file, TERRAIN_FORMAT_UNKNOWN, limits, cancellable, error);
}

/**
 * terrain_document_load_as:
 * @file: the file to open
 * @format: the file's format, or %TERRAIN_FORMAT_UNKNOWN to detect it
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Like [func@Terrain.Document.load], but with the format given, for bodies
 * that carry no magic number and whose extension is not telling.
 *
 * Returns: (transfer full) (nullable): the document, or %NULL with a
 *   %TERRAIN_ERROR set
 */
TerrainDocument *
terrain_document_load_as (GFile                *file,
                          TerrainFormat         format,
                          const TerrainLimits  *limits,
                          GCancellable         *cancellable,
                          GError              **error)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  return load_file (file, format, TERRAIN_HEIGHTMAP_AUTO, limits, cancellable, error);
}

/* Opens @inner inside the archive @container. */
static TerrainDocument *
load_member (GFile                *container,
             const char           *inner,
             TerrainFormat         format,
             TerrainHeightmapFormat heightmap_format,
             const TerrainLimits  *limits,
             GCancellable         *cancellable,
             GError              **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) member = NULL;
  g_autofree char *name = g_file_get_basename (container);
  g_autofree char *shown = g_file_get_parse_name (container);
  const char *base;
  TerrainFormat container_format;

  bytes = terrain_file_load_bytes (container, cancellable, error);
  if (bytes == NULL)
    return NULL;

  container_format = terrain_format_detect (bytes, name);
  if (!terrain_format_is_container (container_format))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "%s: not an archive (%s), so \"%s\" cannot be opened inside it",
                   shown, terrain_format_get_description (container_format), inner);
      return NULL;
    }

  member = terrain_format_read_member (container_format, bytes, inner, limits, error);
  if (member == NULL)
    {
      g_prefix_error (error, "%s: ", shown);
      return NULL;
    }

  base = strrchr (inner, '/');
  if (base == NULL || strrchr (inner, '\\') > base)
    base = strrchr (inner, '\\');
  return load_bytes_with_heightmap (member, base != NULL ? base + 1 : inner, format,
                                    heightmap_format, limits, error);
}

/**
 * terrain_document_split_archive_path:
 * @spec: a file's path or URI, or `ARCHIVE:path/inside`, as for
 *   [func@Terrain.Document.load_path]
 * @archive: (out) (transfer full) (optional): the archive
 * @member: (out) (transfer full) (optional): the path inside it, as @spec
 *   gives it
 * @cancellable: (nullable): a #GCancellable
 *
 * Tells whether @spec names a file inside an archive, the way
 * [func@Terrain.Document.load_path] reads it: when @spec names no existing
 * file, at each `:` from the left, the first part before it that is an
 * existing regular file is the archive, and what follows the path inside
 * it. A part that is empty, or a `:` that ends @spec, is passed over.
 *
 * Returns: %TRUE with @archive and @member set when @spec names a file
 *   inside an archive; %FALSE, leaving them unset, when it names an
 *   existing file, has no `:`, or no part before a `:` is a file
 */
gboolean
terrain_document_split_archive_path (const char    *spec,
                                     GFile        **archive,
                                     char         **member,
                                     GCancellable  *cancellable)
{
  g_autoptr(GFile) file = NULL;

  g_return_val_if_fail (spec != NULL, FALSE);

  if (strchr (spec, ':') == NULL)
    return FALSE;
  file = g_file_new_for_commandline_arg (spec);
  if (g_file_query_exists (file, cancellable))
    return FALSE;
  for (const char *colon = strchr (spec, ':'); colon != NULL; colon = strchr (colon + 1, ':'))
    {
      g_autofree char *prefix = g_strndup (spec, (gsize) (colon - spec));
      g_autoptr(GFile) container = NULL;

      if (prefix[0] == '\0' || colon[1] == '\0')
        continue;
      container = g_file_new_for_commandline_arg (prefix);
      if (g_file_query_file_type (container, G_FILE_QUERY_INFO_NONE, cancellable) ==
          G_FILE_TYPE_REGULAR)
        {
          if (archive != NULL)
            *archive = g_steal_pointer (&container);
          if (member != NULL)
            *member = g_strdup (colon + 1);
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * terrain_document_load_path:
 * @spec: a file's path or URI, or `ARCHIVE:path/inside` for a file inside an
 *   archive (e.g. `mymaps.hpi:maps/ban.tnt`)
 * @format: the file's format, or %TERRAIN_FORMAT_UNKNOWN to detect it
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Opens a file named the way the command line names it. When @spec names an
 * existing file, this is [func@Terrain.Document.load_as]. Otherwise, at each
 * `:` from the left, if what comes before it is an existing archive (an HPI
 * file: `.hpi`, `.ufo`, `.ccx`, `.gp3`), the rest is the path of a file
 * inside it (case-insensitive, `/` or `\\` between names), which is decoded
 * and opened as a document of its own. Such a document has no
 * [property@Terrain.Document:file]: saving it needs a destination.
 *
 * Returns: (transfer full) (nullable): the document, or %NULL with a
 *   %TERRAIN_ERROR set: %TERRAIN_ERROR_IO when neither the file nor the
 *   file inside the archive exists, %TERRAIN_ERROR_NOT_SUPPORTED when the
 *   part before `:` is a file but not an archive, or the archive's or the
 *   loader's error
 */
static TerrainDocument *
load_path (const char             *spec,
           TerrainFormat           format,
           TerrainHeightmapFormat  heightmap_format,
           const TerrainLimits    *limits,
           GCancellable           *cancellable,
           GError                **error)
{
  g_autoptr(GFile) container = NULL;
  g_autofree char *member = NULL;
  g_autoptr(GFile) file = NULL;

  if (terrain_document_split_archive_path (spec, &container, &member, cancellable))
    return load_member (container, member, format, heightmap_format, limits, cancellable, error);
  file = g_file_new_for_commandline_arg (spec);
  return load_file (file, format, heightmap_format, limits, cancellable, error);
}

TerrainDocument *
terrain_document_load_path (const char           *spec,
                            TerrainFormat         format,
                            const TerrainLimits  *limits,
                            GCancellable         *cancellable,
                            GError              **error)
{
  g_return_val_if_fail (spec != NULL, NULL);

  return load_path (spec, format, TERRAIN_HEIGHTMAP_AUTO, limits, cancellable, error);
}

/**
 * terrain_document_load_heightmap_path:
 * @spec: a file's path or URI, or `ARCHIVE:path/inside`, as for
 *   [func@Terrain.Document.load_path]
 * @heightmap_format: how the file's heights are encoded, or
 *   %TERRAIN_HEIGHTMAP_AUTO to detect the format as
 *   [func@Terrain.Document.load_path] does
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Opens a file as the height source @heightmap_format names, the way
 * `build-atlas --heightmap-format` reads it, so that `terrain info`,
 * `export-heightmap` and the editor show the heights the builder uses: a
 * Torque `.ter` or TA `.tnt` as that document, any other source as a
 * [class@Terrain.HeightmapDocument] read in that encoding
 * ([ctor@Terrain.HeightmapDocument.new_for_format]).
 *
 * Returns: (transfer full) (nullable): the document, or %NULL with a
 *   %TERRAIN_ERROR set
 */
TerrainDocument *
terrain_document_load_heightmap_path (const char             *spec,
                                      TerrainHeightmapFormat  heightmap_format,
                                      const TerrainLimits    *limits,
                                      GCancellable           *cancellable,
                                      GError                **error)
{
  g_return_val_if_fail (spec != NULL, NULL);

  return load_path (spec, TERRAIN_FORMAT_UNKNOWN, heightmap_format, limits, cancellable, error);
}

/**
 * terrain_document_get_format:
 * @self: a #TerrainDocument
 *
 * Gets the document's file format.
 *
 * Returns: the document's file format
 */
TerrainFormat
terrain_document_get_format (TerrainDocument *self)
{
  TerrainDocumentPrivate *priv = terrain_document_get_instance_private (self);

  g_return_val_if_fail (TERRAIN_IS_DOCUMENT (self), TERRAIN_FORMAT_UNKNOWN);

  return priv->format;
}

/**
 * terrain_document_get_file:
 * @self: a #TerrainDocument
 *
 * Gets the file the document was loaded from or last saved to.
 *
 * Returns: (transfer none) (nullable): the file the document was loaded from
 *   or last saved to
 */
GFile *
terrain_document_get_file (TerrainDocument *self)
{
  TerrainDocumentPrivate *priv = terrain_document_get_instance_private (self);

  g_return_val_if_fail (TERRAIN_IS_DOCUMENT (self), NULL);

  return priv->file;
}

/**
 * terrain_document_set_file:
 * @self: a #TerrainDocument
 * @file: (nullable): a #GFile
 *
 * Sets the file associated with the document.
 */
void
terrain_document_set_file (TerrainDocument *self,
                           GFile           *file)
{
  TerrainDocumentPrivate *priv = terrain_document_get_instance_private (self);

  g_return_if_fail (TERRAIN_IS_DOCUMENT (self));
  g_return_if_fail (file == NULL || G_IS_FILE (file));

  if (g_set_object (&priv->file, file))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
}

/**
 * terrain_document_get_source_bytes:
 * @self: a #TerrainDocument
 *
 * Gets the bytes the document was read from.
 *
 * Returns: (transfer none) (nullable): the bytes the document was read from,
 *   or %NULL for a document created in memory
 */
GBytes *
terrain_document_get_source_bytes (TerrainDocument *self)
{
  TerrainDocumentPrivate *priv = terrain_document_get_instance_private (self);

  g_return_val_if_fail (TERRAIN_IS_DOCUMENT (self), NULL);

  return priv->source;
}

/**
 * terrain_document_get_modified:
 * @self: a #TerrainDocument
 *
 * Gets whether the document changed since it was loaded or saved.
 *
 * Returns: %TRUE if the document changed since it was loaded or saved
 */
gboolean
terrain_document_get_modified (TerrainDocument *self)
{
  TerrainDocumentPrivate *priv = terrain_document_get_instance_private (self);

  g_return_val_if_fail (TERRAIN_IS_DOCUMENT (self), FALSE);

  return priv->modified;
}

/**
 * terrain_document_set_modified:
 * @self: a #TerrainDocument
 * @modified: the new state
 *
 * Marks the document as edited or clean. Subclasses call this from their
 * setters; saving clears it.
 */
void
terrain_document_set_modified (TerrainDocument *self,
                               gboolean         modified)
{
  TerrainDocumentPrivate *priv = terrain_document_get_instance_private (self);

  g_return_if_fail (TERRAIN_IS_DOCUMENT (self));

  modified = !!modified;
  if (priv->modified == modified)
    return;
  priv->modified = modified;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
}

/**
 * terrain_document_save_to_bytes:
 * @self: a #TerrainDocument
 * @error: return location for a #GError
 *
 * Serialises the document. An unedited document serialises to exactly the
 * bytes it was read from; an edited one changes only what the edits require.
 *
 * Returns: (transfer full) (nullable): the file's new contents
 */
GBytes *
terrain_document_save_to_bytes (TerrainDocument  *self,
                                GError          **error)
{
  g_return_val_if_fail (TERRAIN_IS_DOCUMENT (self), NULL);

  return TERRAIN_DOCUMENT_GET_CLASS (self)->save_to_bytes (self, error);
}

/**
 * terrain_document_save:
 * @self: a #TerrainDocument
 * @file: (nullable): destination, or %NULL for [property@Terrain.Document:file]
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Serialises the document and writes it atomically (temporary file, then
 * rename): if anything fails, the file on disk is left as it was. On success
 * the document becomes unmodified and @file becomes its file.
 *
 * Returns: %TRUE on success
 */
gboolean
terrain_document_save (TerrainDocument  *self,
                       GFile            *file,
                       GCancellable     *cancellable,
                       GError          **error)
{
  TerrainDocumentPrivate *priv = terrain_document_get_instance_private (self);
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (TERRAIN_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (file == NULL || G_IS_FILE (file), FALSE);

  if (file == NULL)
    file = priv->file;
  if (file == NULL)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_IO,
                           "document has no file to save to");
      return FALSE;
    }

  bytes = terrain_document_save_to_bytes (self, error);
  if (bytes == NULL)
    return FALSE;

  if (!terrain_file_save_bytes (file, bytes, cancellable, error))
    return FALSE;

  terrain_document_set_file (self, file);
  terrain_document_set_modified (self, FALSE);

  return TRUE;
}

/**
 * terrain_document_validate:
 * @self: a #TerrainDocument
 *
 * Checks the document's consistency. Structural errors make loading fail, so
 * what is reported here are findings on a file that loaded: warnings (the
 * game or other tools may misbehave) and remarks.
 *
 * Returns: (transfer container) (element-type TerrainIssue): the findings,
 *   in file order
 */
GPtrArray *
terrain_document_validate (TerrainDocument *self)
{
  g_return_val_if_fail (TERRAIN_IS_DOCUMENT (self), NULL);

  return TERRAIN_DOCUMENT_GET_CLASS (self)->validate (self);
}

/**
 * terrain_document_describe:
 * @self: a #TerrainDocument
 *
 * Summarises the document as a JSON object: format, header fields, counts
 * and sizes. `terrain info` prints it. A float field that holds NaN or an
 * infinity, which JSON cannot express, is null; bytes of a string that are
 * not UTF-8 (names in a legacy code page) are U+FFFD, and control characters
 * are escaped as `\xNN` (C0 and DEL) or `\u00NN` (C1), so that every string is
 * printable text.
 *
 * Returns: (transfer full): a JSON object node
 */
/* JSON has no NaN or infinity (json-glib would print "-nan.0") and its
 * strings are UTF-8, but a float field of a corrupt file can hold either and
 * names in legacy archives are in any code page: non-finite numbers become
 * null, invalid UTF-8 sequences U+FFFD, control bytes escapes. */
static void
make_json_safe (JsonNode *node)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        JsonNode *member;

        json_object_iter_init (&iter, json_node_get_object (node));
        while (json_object_iter_next (&iter, NULL, &member))
          make_json_safe (member);
      }
      break;
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);

        for (guint i = 0; i < json_array_get_length (array); i++)
          make_json_safe (json_array_get_element (array, i));
      }
      break;
    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_DOUBLE &&
          !isfinite (json_node_get_double (node)))
        json_node_init_null (node);
      else if (json_node_get_value_type (node) == G_TYPE_STRING &&
               !terrain_utf8_is_printable (json_node_get_string (node)))
        {
          g_autofree char *valid = terrain_utf8_make_printable (json_node_get_string (node));

          json_node_set_string (node, valid);
        }
      break;
    case JSON_NODE_NULL:
    default:
      break;
    }
}

JsonNode *
terrain_document_describe (TerrainDocument *self)
{
  JsonNode *node;

  g_return_val_if_fail (TERRAIN_IS_DOCUMENT (self), NULL);

  node = TERRAIN_DOCUMENT_GET_CLASS (self)->describe (self);
  if (node != NULL)
    make_json_safe (node);
  return node;
}

/**
 * terrain_document_render_image:
 * @self: a #TerrainDocument
 * @options: (nullable): what to draw with: the colour table of
 *   indexed-colour formats (for a Total Annihilation map or section, from
 *   [method@Terrain.Palette.to_render_options])
 * @error: return location for a #GError
 *
 * Renders the document's picture as RGBA: for a TNT map, every tile through
 * the colour table of @options at one pixel per map pixel. Formats with a
 * picture of their own (shaded relief, decoded textures) ignore @options.
 *
 * Returns: (transfer full) (nullable): the picture, or %NULL with
 *   %TERRAIN_ERROR_NOT_SUPPORTED if the format has none, or
 *   %TERRAIN_ERROR_INVALID_VALUE if a colour table is needed and
 *   missing (the message names the palette the format's colours come from)
 */
TerrainImage *
terrain_document_render_image (TerrainDocument  *self,
                               TerrainRenderOptions *options,
                               GError          **error)
{
  g_return_val_if_fail (TERRAIN_IS_DOCUMENT (self), NULL);

  return TERRAIN_DOCUMENT_GET_CLASS (self)->render_image (self, options, error);
}

/**
 * terrain_document_export_heights:
 * @self: a #TerrainDocument
 * @error: return location for a #GError
 *
 * Returns the document's height grid as a 16-bit greyscale image, one pixel
 * per height sample. 8-bit heights are scaled by 257 so 0..255 spans the
 * full 0..65535 range exactly (divide by 257 to recover them).
 *
 * Returns: (transfer full) (nullable): the heights, or %NULL with
 *   %TERRAIN_ERROR_NOT_SUPPORTED
 */
TerrainImage *
terrain_document_export_heights (TerrainDocument  *self,
                                 GError          **error)
{
  g_return_val_if_fail (TERRAIN_IS_DOCUMENT (self), NULL);

  return TERRAIN_DOCUMENT_GET_CLASS (self)->export_heights (self, error);
}

/**
 * terrain_document_describe_offset:
 * @self: a #TerrainDocument
 * @offset: a byte offset in the source file
 *
 * Names the section, and where it applies the record, that holds @offset in
 * the file the document was read from.
 *
 * Returns: (transfer full): a description such as "attribute map, cell 1234
 *   (x=10, y=3)", or "unknown" when the format cannot tell
 */
char *
terrain_document_describe_offset (TerrainDocument *self,
                                  gsize            offset)
{
  char *s;

  g_return_val_if_fail (TERRAIN_IS_DOCUMENT (self), NULL);

  s = TERRAIN_DOCUMENT_GET_CLASS (self)->describe_offset (self, offset);
  return s != NULL ? s : g_strdup ("unknown");
}

/**
 * terrain_document_compare_bytes:
 * @self: a #TerrainDocument
 * @written: bytes produced by writing the document
 * @first_difference: (out) (optional): offset of the first byte that differs
 *   (or the shorter length when one is a prefix of the other)
 * @section: (out) (optional) (transfer full): the section of the source file
 *   holding that offset, see [method@Terrain.Document.describe_offset]
 *
 * Compares @written with the bytes the document was read from: the check
 * behind `terrain roundtrip`.
 *
 * Returns: %TRUE if they are identical
 */
gboolean
terrain_document_compare_bytes (TerrainDocument  *self,
                                GBytes           *written,
                                gsize            *first_difference,
                                char            **section)
{
  TerrainDocumentPrivate *priv = terrain_document_get_instance_private (self);
  const guint8 *a, *b;
  gsize a_len = 0, b_len = 0, i, n;

  g_return_val_if_fail (TERRAIN_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (written != NULL, FALSE);

  if (first_difference != NULL)
    *first_difference = 0;
  if (section != NULL)
    *section = NULL;

  a = priv->source != NULL ? g_bytes_get_data (priv->source, &a_len) : NULL;
  b = g_bytes_get_data (written, &b_len);
  n = MIN (a_len, b_len);

  for (i = 0; i < n; i++)
    if (a[i] != b[i])
      break;

  if (i == n && a_len == b_len)
    return TRUE;

  if (first_difference != NULL)
    *first_difference = i;
  if (section != NULL)
    *section = i < a_len ? terrain_document_describe_offset (self, i)
                         : g_strdup ("end of file");
  return FALSE;
}
