/* terrain-feature-catalog.c: feature definitions from TDF files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-feature-catalog.h"
#include "terrain-tdf-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-io.h"
#include "core/terrain-issue.h"

/* Folders nest this deep at most below the one given; deeper ones are
 * skipped (and reported), which also stops loops through bind mounts. */
#define MAX_FOLDER_DEPTH 16

struct _TerrainFeatureDefinition
{
  char *name;
  char *origin;
  GHashTable *values;  /* folded key -> value, the first of repeated keys */
  guint footprint_x;
  guint footprint_z;
};

G_DEFINE_BOXED_TYPE (TerrainFeatureDefinition, terrain_feature_definition,
                     terrain_feature_definition_ref, terrain_feature_definition_unref)

struct _TerrainFeatureCatalog
{
  GObject parent_instance;

  GPtrArray *features;    /* TerrainFeatureDefinition, in load order */
  GHashTable *by_name;    /* folded name -> definition (borrowed) */
  GPtrArray *issues;      /* TerrainIssue */
};

/**
 * TerrainFeatureCatalog:
 *
 * The feature definitions of Total Annihilation (the `.tdf` files under
 * `features/`), read from folders, archives or single documents, and looked
 * up by name case-insensitively: their footprints let [class@Terrain.TntMap]
 * reconstruct feature occupancy.
 */
G_DEFINE_FINAL_TYPE (TerrainFeatureCatalog, terrain_feature_catalog, G_TYPE_OBJECT)

static void
terrain_feature_definition_finalize (TerrainFeatureDefinition *definition)
{
  g_free (definition->name);
  g_free (definition->origin);
  g_hash_table_unref (definition->values);
}

/**
 * terrain_feature_definition_ref:
 * @definition: a #TerrainFeatureDefinition
 *
 * Takes a reference on @definition.
 *
 * Returns: (transfer full): @definition
 */
TerrainFeatureDefinition *
terrain_feature_definition_ref (TerrainFeatureDefinition *definition)
{
  return g_atomic_rc_box_acquire (definition);
}

/**
 * terrain_feature_definition_unref:
 * @definition: (transfer full): a #TerrainFeatureDefinition
 *
 * Drops a reference.
 */
void
terrain_feature_definition_unref (TerrainFeatureDefinition *definition)
{
  g_atomic_rc_box_release_full (definition, (GDestroyNotify) terrain_feature_definition_finalize);
}

/**
 * terrain_feature_definition_get_name:
 * @definition: a #TerrainFeatureDefinition
 *
 * Gets the feature's name.
 *
 * Returns: the feature's name, the block name as written (`Tree1`)
 */
const char *
terrain_feature_definition_get_name (const TerrainFeatureDefinition *definition)
{
  g_return_val_if_fail (definition != NULL, NULL);

  return definition->name;
}

/**
 * terrain_feature_definition_get_origin:
 * @definition: a #TerrainFeatureDefinition
 *
 * Gets where the definition was read.
 *
 * Returns: (nullable): where the definition was read: a file path, or
 *   `ARCHIVE:path/inside.tdf`
 */
const char *
terrain_feature_definition_get_origin (const TerrainFeatureDefinition *definition)
{
  g_return_val_if_fail (definition != NULL, NULL);

  return definition->origin;
}

/**
 * terrain_feature_definition_get_footprint:
 * @definition: a #TerrainFeatureDefinition
 * @footprint_x: (out) (optional): `footprintx`, in attribute cells
 * @footprint_z: (out) (optional): `footprintz`, in attribute cells
 *
 * Reads the footprint: a missing key counts as 1 (field-notes.md, "Total
 * Annihilation ecosystem"), and so does a value that is not an integer from
 * 1 to %TERRAIN_FEATURE_MAX_FOOTPRINT.
 */
void
terrain_feature_definition_get_footprint (const TerrainFeatureDefinition *definition,
                                          guint                          *footprint_x,
                                          guint                          *footprint_z)
{
  g_return_if_fail (definition != NULL);

  if (footprint_x != NULL)
    *footprint_x = definition->footprint_x;
  if (footprint_z != NULL)
    *footprint_z = definition->footprint_z;
}

/**
 * terrain_feature_definition_get_value:
 * @definition: a #TerrainFeatureDefinition
 * @key: a key, case-insensitive
 *
 * Gets a key's value as written.
 *
 * Returns: (nullable): the value as written (the first, if the key is
 *   repeated), or %NULL
 */
const char *
terrain_feature_definition_get_value (const TerrainFeatureDefinition *definition,
                                      const char                     *key)
{
  g_autofree char *folded = NULL;

  g_return_val_if_fail (definition != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  folded = g_ascii_strdown (key, -1);
  return g_hash_table_lookup (definition->values, folded);
}

/**
 * terrain_feature_definition_get_int:
 * @definition: a #TerrainFeatureDefinition
 * @key: a key, case-insensitive
 * @fallback: returned when the key is missing or not an integer
 *
 * Gets a key's value as an integer.
 *
 * Returns: the key's integer value, or @fallback
 */
gint64
terrain_feature_definition_get_int (const TerrainFeatureDefinition *definition,
                                    const char                     *key,
                                    gint64                          fallback)
{
  gint64 value;

  if (!terrain_tdf_parse_int (terrain_feature_definition_get_value (definition, key), &value))
    return fallback;
  return value;
}

/**
 * terrain_feature_definition_get_boolean:
 * @definition: a #TerrainFeatureDefinition
 * @key: a key, case-insensitive
 * @fallback: returned when the key is missing or not an integer
 *
 * TDF flags are integers: 0 is false, anything else true.
 *
 * Returns: the flag, or @fallback
 */
gboolean
terrain_feature_definition_get_boolean (const TerrainFeatureDefinition *definition,
                                        const char                     *key,
                                        gboolean                        fallback)
{
  return terrain_feature_definition_get_int (definition, key, fallback ? 1 : 0) != 0;
}

/**
 * terrain_feature_definition_get_world:
 * @definition: a #TerrainFeatureDefinition
 *
 * Gets the `world` key.
 *
 * Returns: (nullable): `world`, the planet type the feature belongs to
 */
const char *
terrain_feature_definition_get_world (const TerrainFeatureDefinition *definition)
{
  return terrain_feature_definition_get_value (definition, "world");
}

/**
 * terrain_feature_definition_get_description:
 * @definition: a #TerrainFeatureDefinition
 *
 * Gets the `description` key.
 *
 * Returns: (nullable): `description`, the name shown to players
 */
const char *
terrain_feature_definition_get_description (const TerrainFeatureDefinition *definition)
{
  return terrain_feature_definition_get_value (definition, "description");
}

/**
 * terrain_feature_definition_get_category:
 * @definition: a #TerrainFeatureDefinition
 *
 * Gets the `category` key.
 *
 * Returns: (nullable): `category` ("trees", "rocks", "metal", ...)
 */
const char *
terrain_feature_definition_get_category (const TerrainFeatureDefinition *definition)
{
  return terrain_feature_definition_get_value (definition, "category");
}

/**
 * terrain_feature_definition_get_object:
 * @definition: a #TerrainFeatureDefinition
 *
 * Gets the model or animation drawn for the feature.
 *
 * Returns: (nullable): `object`, the 3D model drawn for the feature, or
 *   else `filename`, the animation file of a sprite feature
 */
const char *
terrain_feature_definition_get_object (const TerrainFeatureDefinition *definition)
{
  const char *object = terrain_feature_definition_get_value (definition, "object");

  return object != NULL ? object : terrain_feature_definition_get_value (definition, "filename");
}

/**
 * terrain_feature_definition_get_height:
 * @definition: a #TerrainFeatureDefinition
 *
 * Gets the `height` key.
 *
 * Returns: `height`, 0 when missing
 */
gint
terrain_feature_definition_get_height (const TerrainFeatureDefinition *definition)
{
  return (gint) CLAMP (terrain_feature_definition_get_int (definition, "height", 0),
                       G_MININT, G_MAXINT);
}

/**
 * terrain_feature_definition_get_blocking:
 * @definition: a #TerrainFeatureDefinition
 *
 * Gets the `blocking` key.
 *
 * Returns: `blocking`: whether units cannot pass the feature; false when
 *   missing
 */
gboolean
terrain_feature_definition_get_blocking (const TerrainFeatureDefinition *definition)
{
  return terrain_feature_definition_get_boolean (definition, "blocking", FALSE);
}

/**
 * terrain_feature_definition_get_reclaimable:
 * @definition: a #TerrainFeatureDefinition
 *
 * Gets the `reclaimable` key.
 *
 * Returns: `reclaimable`; false when missing
 */
gboolean
terrain_feature_definition_get_reclaimable (const TerrainFeatureDefinition *definition)
{
  return terrain_feature_definition_get_boolean (definition, "reclaimable", FALSE);
}

/**
 * terrain_feature_definition_get_metal:
 * @definition: a #TerrainFeatureDefinition
 *
 * Gets the `metal` key.
 *
 * Returns: `metal` gained by reclaiming the feature, 0 when missing
 */
gint
terrain_feature_definition_get_metal (const TerrainFeatureDefinition *definition)
{
  return (gint) CLAMP (terrain_feature_definition_get_int (definition, "metal", 0),
                       G_MININT, G_MAXINT);
}

/**
 * terrain_feature_definition_get_energy:
 * @definition: a #TerrainFeatureDefinition
 *
 * Gets the `energy` key.
 *
 * Returns: `energy` gained by reclaiming the feature, 0 when missing
 */
gint
terrain_feature_definition_get_energy (const TerrainFeatureDefinition *definition)
{
  return (gint) CLAMP (terrain_feature_definition_get_int (definition, "energy", 0),
                       G_MININT, G_MAXINT);
}

/* ------------------------------------------------------------------------ */

static void
add_issue (TerrainFeatureCatalog *self,
           TerrainSeverity        severity,
           const char            *origin,
           gint64                 offset,
           const char            *format,
           ...) G_GNUC_PRINTF (5, 6);

static void
add_issue (TerrainFeatureCatalog *self,
           TerrainSeverity        severity,
           const char            *origin,
           gint64                 offset,
           const char            *format,
           ...)
{
  g_autofree char *message = NULL;
  g_autofree char *shown = terrain_tdf_to_utf8 (origin != NULL ? origin : "features");
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_ptr_array_add (self->issues, terrain_issue_new_literal (severity, shown, offset, -1, message));
}

/* Where a footprint key is written: the byte offset of the key inside the
 * block (or of the block when the key is missing) and its 1-based line, from
 * the document's text. Feature blocks hold no nested blocks, so the key is
 * looked for between the block's '[' and the next one. */
static gint64
footprint_location (TerrainTdfDocument *document,
                    TerrainTdfSection  *section,
                    const char         *key,
                    guint              *line)
{
  GBytes *source = terrain_document_get_source_bytes (TERRAIN_DOCUMENT (document));
  gint64 start = terrain_tdf_section_get_offset (section);
  gsize size, key_length = strlen (key), offset;
  const char *text;

  *line = 0;
  if (source == NULL || start < 0)
    return start;
  text = g_bytes_get_data (source, &size);
  if ((gsize) start >= size)
    return start;

  offset = (gsize) start;
  for (gsize i = (gsize) start + 1; i < size && text[i] != '['; i++)
    {
      gsize j = i + key_length;

      if (g_ascii_strncasecmp (text + i, key, key_length) != 0 || j > size ||
          g_ascii_isalnum (text[i - 1]))
        continue;
      while (j < size && (text[j] == ' ' || text[j] == '\t'))
        j++;
      if (j < size && text[j] == '=')
        {
          offset = i;
          break;
        }
    }
  *line = 1;
  for (gsize i = 0; i < offset; i++)
    if (text[i] == '\n')
      (*line)++;
  return (gint64) offset;
}

/* footprintx/footprintz, in cells; anything else than 1 to 256 (missing, 0,
 * negative, not a number) is reported with the file and line, and 1 used,
 * as the game would place the feature on one cell. */
static guint
read_footprint (TerrainFeatureCatalog    *self,
                TerrainFeatureDefinition *definition,
                TerrainTdfDocument       *document,
                TerrainTdfSection        *section,
                const char               *key)
{
  const char *text = terrain_feature_definition_get_value (definition, key);
  g_autofree char *name = NULL;
  g_autofree char *where = NULL;
  gint64 value, offset;
  guint line;

  if (text != NULL && terrain_tdf_parse_int (text, &value) &&
      value >= 1 && value <= TERRAIN_FEATURE_MAX_FOOTPRINT)
    return (guint) value;

  name = terrain_tdf_to_utf8 (definition->name);
  offset = footprint_location (document, section, key, &line);
  where = line > 0 ? g_strdup_printf ("line %u: ", line) : g_strdup ("");
  if (text == NULL)
    {
      add_issue (self, TERRAIN_SEVERITY_WARNING, definition->origin, offset,
                 "%sfeature [%s] has no %s; a footprint of 1 cell is used", where, name, key);
    }
  else
    {
      g_autofree char *shown = terrain_tdf_to_utf8 (text);

      add_issue (self, TERRAIN_SEVERITY_WARNING, definition->origin, offset,
                 "%sfeature [%s]: %s=%s is not a footprint from 1 to %d cells; 1 is used",
                 where, name, key, shown, TERRAIN_FEATURE_MAX_FOOTPRINT);
    }
  return 1;
}

/**
 * terrain_feature_catalog_new:
 *
 * Creates an empty catalogue; fill it from feature TDFs with
 * [method@Terrain.FeatureCatalog.load_folder],
 * [method@Terrain.FeatureCatalog.load_archive] or
 * [method@Terrain.FeatureCatalog.add_document].
 *
 * Returns: (transfer full): a new catalogue
 */
TerrainFeatureCatalog *
terrain_feature_catalog_new (void)
{
  return g_object_new (TERRAIN_TYPE_FEATURE_CATALOG, NULL);
}

/**
 * terrain_feature_catalog_add_document:
 * @self: a #TerrainFeatureCatalog
 * @document: a parsed feature TDF
 * @origin: (nullable): where it comes from, for messages and
 *   [method@Terrain.FeatureDefinition.get_origin]
 *
 * Adds every top-level block of @document as a feature, its own keys (not
 * those of nested blocks) as the definition. Names are case-insensitive; a
 * name already in the catalogue keeps its first definition, and the
 * repetition is reported by [method@Terrain.FeatureCatalog.get_issues].
 *
 * Returns: the number of features added
 */
guint
terrain_feature_catalog_add_document (TerrainFeatureCatalog *self,
                                      TerrainTdfDocument    *document,
                                      const char            *origin)
{
  TerrainTdfSection *root;
  guint added = 0;

  g_return_val_if_fail (TERRAIN_IS_FEATURE_CATALOG (self), 0);
  g_return_val_if_fail (TERRAIN_IS_TDF_DOCUMENT (document), 0);

  root = terrain_tdf_document_get_root (document);
  for (guint i = 0; i < terrain_tdf_section_get_n_sections (root); i++)
    {
      TerrainTdfSection *section = terrain_tdf_section_get_section (root, i);
      const char *name = terrain_tdf_section_get_name (section);
      g_autofree char *folded = g_ascii_strdown (name, -1);
      TerrainFeatureDefinition *existing = g_hash_table_lookup (self->by_name, folded);
      TerrainFeatureDefinition *definition;

      if (existing != NULL)
        {
          g_autofree char *shown = terrain_tdf_to_utf8 (name);
          g_autofree char *first = terrain_tdf_to_utf8 (existing->origin != NULL
                                                        ? existing->origin : "an earlier file");

          add_issue (self, TERRAIN_SEVERITY_INFO, origin, terrain_tdf_section_get_offset (section),
                     "feature [%s] is defined again; the first definition, from %s, is kept",
                     shown, first);
          continue;
        }

      definition = g_atomic_rc_box_new0 (TerrainFeatureDefinition);
      definition->name = g_strdup (name);
      definition->origin = g_strdup (origin);
      definition->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      for (guint k = 0; k < terrain_tdf_section_get_n_keys (section); k++)
        {
          char *key = g_ascii_strdown (terrain_tdf_section_get_key (section, k), -1);

          if (g_hash_table_contains (definition->values, key))
            g_free (key);
          else
            g_hash_table_insert (definition->values, key,
                                 g_strdup (terrain_tdf_section_get_value_at (section, k)));
        }
      definition->footprint_x = read_footprint (self, definition, document, section,
                                                "footprintx");
      definition->footprint_z = read_footprint (self, definition, document, section,
                                                "footprintz");

      g_ptr_array_add (self->features, definition);
      g_hash_table_insert (self->by_name, g_steal_pointer (&folded), definition);
      added++;
    }

  return added;
}

/**
 * terrain_feature_catalog_add_bytes:
 * @self: a #TerrainFeatureCatalog
 * @bytes: the text of a feature TDF
 * @origin: (nullable): where it comes from, for messages
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Parses a feature TDF and adds its features, see
 * [method@Terrain.FeatureCatalog.add_document].
 *
 * Returns: %TRUE on success, %FALSE with the TDF reader's error
 */
gboolean
terrain_feature_catalog_add_bytes (TerrainFeatureCatalog  *self,
                                   GBytes                 *bytes,
                                   const char             *origin,
                                   const TerrainLimits    *limits,
                                   GError                **error)
{
  g_autoptr(TerrainTdfDocument) document = NULL;

  g_return_val_if_fail (TERRAIN_IS_FEATURE_CATALOG (self), FALSE);
  g_return_val_if_fail (bytes != NULL, FALSE);

  document = terrain_tdf_document_new_from_bytes (bytes, limits, error);
  if (document == NULL)
    {
      if (error != NULL && *error != NULL && origin != NULL)
        g_prefix_error (error, "%s: ", origin);
      return FALSE;
    }
  terrain_feature_catalog_add_document (self, document, origin);
  return TRUE;
}

static gboolean
has_tdf_extension (const char *name)
{
  gsize n = strlen (name);

  return n > 4 && g_ascii_strcasecmp (name + n - 4, ".tdf") == 0;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_ascii_strcasecmp (*(const char * const *) a, *(const char * const *) b);
}

static gboolean
load_folder (TerrainFeatureCatalog  *self,
             GFile                  *folder,
             guint                   depth,
             const TerrainLimits    *limits,
             GCancellable           *cancellable,
             GError                **error)
{
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) folders = g_ptr_array_new_with_free_func (g_free);
  GFileInfo *info;
  GError *local = NULL;

  enumerator = g_file_enumerate_children (folder,
                                          G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                          G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                          G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS,
                                          cancellable, &local);
  if (enumerator == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (folder);

      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO, "%s: cannot list the folder: %s",
                   name, local->message);
      g_error_free (local);
      return FALSE;
    }

  while ((info = g_file_enumerator_next_file (enumerator, cancellable, &local)) != NULL)
    {
      const char *name = g_file_info_get_name (info);
      GFileType type = g_file_info_get_file_type (info);

      if (type == G_FILE_TYPE_DIRECTORY)
        g_ptr_array_add (folders, g_strdup (name));
      else if (type == G_FILE_TYPE_REGULAR && has_tdf_extension (name))
        g_ptr_array_add (files, g_strdup (name));
      g_object_unref (info);
    }
  if (local != NULL)
    {
      g_autofree char *name = g_file_get_parse_name (folder);

      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO, "%s: cannot list the folder: %s",
                   name, local->message);
      g_error_free (local);
      return FALSE;
    }

  /* The same order on every system, whatever the file system returns. */
  g_ptr_array_sort (files, compare_names);
  g_ptr_array_sort (folders, compare_names);

  for (guint i = 0; i < files->len; i++)
    {
      g_autoptr(GFile) file = g_file_get_child (folder, g_ptr_array_index (files, i));
      g_autofree char *path = g_file_get_parse_name (file);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) file_error = NULL;

      bytes = terrain_file_load_bytes (file, cancellable, &file_error);
      if (bytes == NULL ||
          !terrain_feature_catalog_add_bytes (self, bytes, path, limits, &file_error))
        {
          /* One broken file does not hide the features of the others. */
          add_issue (self, TERRAIN_SEVERITY_WARNING, path, -1, "skipped: %s",
                     file_error->message);
        }
    }

  for (guint i = 0; i < folders->len; i++)
    {
      g_autoptr(GFile) child = g_file_get_child (folder, g_ptr_array_index (folders, i));

      if (depth + 1 > MAX_FOLDER_DEPTH)
        {
          g_autofree char *path = g_file_get_parse_name (child);

          add_issue (self, TERRAIN_SEVERITY_WARNING, path, -1,
                     "skipped: folders nest deeper than %d levels", MAX_FOLDER_DEPTH);
          continue;
        }
      if (!load_folder (self, child, depth + 1, limits, cancellable, error))
        return FALSE;
    }

  return TRUE;
}

/**
 * terrain_feature_catalog_load_folder:
 * @self: a #TerrainFeatureCatalog
 * @folder: a folder, such as an unpacked archive's `features/`
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Adds the features of every `.tdf` file (extension case-insensitive) in
 * @folder and its subfolders, in name order. Symbolic links to folders are
 * not followed. A file that cannot be read or parsed is skipped and
 * reported by [method@Terrain.FeatureCatalog.get_issues].
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_IO when a folder
 *   cannot be listed
 */
gboolean
terrain_feature_catalog_load_folder (TerrainFeatureCatalog  *self,
                                     GFile                  *folder,
                                     const TerrainLimits    *limits,
                                     GCancellable           *cancellable,
                                     GError                **error)
{
  g_return_val_if_fail (TERRAIN_IS_FEATURE_CATALOG (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (folder), FALSE);

  return load_folder (self, folder, 0, limits, cancellable, error);
}

/**
 * terrain_feature_catalog_load_archive:
 * @self: a #TerrainFeatureCatalog
 * @archive: an HPI archive
 * @prefix: (nullable): only files whose path starts with this folder, e.g.
 *   `"features/"` (case-insensitive); %NULL for the whole archive
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Adds the features of every `.tdf` file of @archive under @prefix, in the
 * archive's order. A file that cannot be read (a bad chunk) or parsed is
 * skipped and reported by [method@Terrain.FeatureCatalog.get_issues].
 *
 * Returns: %TRUE (the parameter @error is for future use)
 */
gboolean
terrain_feature_catalog_load_archive (TerrainFeatureCatalog  *self,
                                      TerrainHpiArchive      *archive,
                                      const char             *prefix,
                                      const TerrainLimits    *limits,
                                      GError                **error)
{
  GFile *file;
  g_autofree char *archive_name = NULL;
  gsize prefix_len = prefix != NULL ? strlen (prefix) : 0;

  g_return_val_if_fail (TERRAIN_IS_FEATURE_CATALOG (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_HPI_ARCHIVE (archive), FALSE);

  file = terrain_document_get_file (TERRAIN_DOCUMENT (archive));
  archive_name = file != NULL ? g_file_get_parse_name (file) : g_strdup ("archive");

  for (guint i = 0; i < terrain_hpi_archive_get_n_files (archive); i++)
    {
      const char *path = terrain_hpi_archive_get_path (archive, i);
      g_autofree char *origin = NULL;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) file_error = NULL;

      if (!has_tdf_extension (path) ||
          (prefix_len > 0 && g_ascii_strncasecmp (path, prefix, prefix_len) != 0))
        continue;

      origin = g_strdup_printf ("%s:%s", archive_name, path);
      bytes = terrain_hpi_archive_read_file (archive, i, &file_error);
      if (bytes == NULL ||
          !terrain_feature_catalog_add_bytes (self, bytes, origin, limits, &file_error))
        add_issue (self, TERRAIN_SEVERITY_WARNING, origin, -1, "skipped: %s",
                   file_error->message);
    }

  return TRUE;
}

/**
 * terrain_feature_catalog_load_game_files:
 * @self: a #TerrainFeatureCatalog
 * @files: the files of an install as the game sees them
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Adds the features of every `.tdf` file under `features/` in @files, in
 * path order, each read from the archive or folder that wins for its path
 * (what the game loads). The origin of each feature names that source and
 * the path. Files that cannot be read or parsed are skipped and reported by
 * [method@Terrain.FeatureCatalog.get_issues].
 *
 * Returns: %TRUE (the parameter @error is for future use)
 */
gboolean
terrain_feature_catalog_load_game_files (TerrainFeatureCatalog  *self,
                                         TerrainGameFiles       *files,
                                         const TerrainLimits    *limits,
                                         GError                **error)
{
  g_auto(GStrv) paths = NULL;

  g_return_val_if_fail (TERRAIN_IS_FEATURE_CATALOG (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_GAME_FILES (files), FALSE);

  paths = terrain_game_files_list (files, "features", ".tdf");
  for (guint i = 0; paths[i] != NULL; i++)
    {
      guint index = 0;
      g_autofree char *origin = NULL;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) file_error = NULL;

      terrain_game_files_find (files, paths[i], &index);
      origin = g_strdup_printf ("%s:%s",
                                terrain_game_files_get_source_name (
                                  files, terrain_game_files_get_source (files, index)),
                                paths[i]);
      bytes = terrain_game_files_read (files, index, &file_error);
      if (bytes == NULL ||
          !terrain_feature_catalog_add_bytes (self, bytes, origin, limits, &file_error))
        add_issue (self, TERRAIN_SEVERITY_WARNING, origin, -1, "skipped: %s",
                   file_error->message);
    }

  return TRUE;
}

/**
 * terrain_feature_catalog_get_n_features:
 * @self: a #TerrainFeatureCatalog
 *
 * Gets the number of features.
 *
 * Returns: the number of features
 */
guint
terrain_feature_catalog_get_n_features (TerrainFeatureCatalog *self)
{
  g_return_val_if_fail (TERRAIN_IS_FEATURE_CATALOG (self), 0);

  return self->features->len;
}

/**
 * terrain_feature_catalog_get_feature:
 * @self: a #TerrainFeatureCatalog
 * @index: a feature index, in load order
 *
 * Gets feature @index of the catalogue.
 *
 * Returns: (transfer none) (nullable): the feature, or %NULL when @index is
 *   out of range
 */
TerrainFeatureDefinition *
terrain_feature_catalog_get_feature (TerrainFeatureCatalog *self,
                                     guint                  index)
{
  g_return_val_if_fail (TERRAIN_IS_FEATURE_CATALOG (self), NULL);

  if (index >= self->features->len)
    return NULL;
  return g_ptr_array_index (self->features, index);
}

/**
 * terrain_feature_catalog_lookup:
 * @self: a #TerrainFeatureCatalog
 * @name: a feature name, case-insensitive (as in a TNT feature table)
 *
 * Looks up a feature by name.
 *
 * Returns: (transfer none) (nullable): the feature, or %NULL
 */
TerrainFeatureDefinition *
terrain_feature_catalog_lookup (TerrainFeatureCatalog *self,
                                const char            *name)
{
  g_autofree char *folded = NULL;

  g_return_val_if_fail (TERRAIN_IS_FEATURE_CATALOG (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  folded = g_ascii_strdown (name, -1);
  return g_hash_table_lookup (self->by_name, folded);
}

/**
 * terrain_feature_catalog_get_footprint:
 * @self: a #TerrainFeatureCatalog
 * @name: a feature name, case-insensitive
 * @footprint_x: (out) (optional): footprint width in attribute cells; 1
 *   for an unknown feature
 * @footprint_z: (out) (optional): footprint height in attribute cells; 1
 *   for an unknown feature
 *
 * Looks up a feature's footprint.
 *
 * Returns: %TRUE if the feature is in the catalogue
 */
gboolean
terrain_feature_catalog_get_footprint (TerrainFeatureCatalog *self,
                                       const char            *name,
                                       guint                 *footprint_x,
                                       guint                 *footprint_z)
{
  TerrainFeatureDefinition *definition;

  g_return_val_if_fail (TERRAIN_IS_FEATURE_CATALOG (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  definition = terrain_feature_catalog_lookup (self, name);
  if (footprint_x != NULL)
    *footprint_x = definition != NULL ? definition->footprint_x : 1;
  if (footprint_z != NULL)
    *footprint_z = definition != NULL ? definition->footprint_z : 1;
  return definition != NULL;
}

/**
 * terrain_feature_catalog_footprint_func:
 * @name: a feature name, case-insensitive
 * @footprint_x: (out): footprint width in attribute cells
 * @footprint_z: (out): footprint height in attribute cells
 * @catalog: (type TerrainFeatureCatalog): the catalogue
 *
 * A [callback@Terrain.TntFootprintFunc] backed by a catalogue: pass it with
 * the catalogue as user data, e.g. to
 * [method@Terrain.TntMap.build_occupancy].
 *
 * Returns: %TRUE if the feature is known; unknown features count as 1x1
 */
gboolean
terrain_feature_catalog_footprint_func (const char *name,
                                        guint      *footprint_x,
                                        guint      *footprint_z,
                                        gpointer    catalog)
{
  return terrain_feature_catalog_get_footprint (TERRAIN_FEATURE_CATALOG (catalog), name,
                                                footprint_x, footprint_z);
}

/**
 * terrain_feature_catalog_get_issues:
 * @self: a #TerrainFeatureCatalog
 *
 * Gets what loading the catalogue found.
 *
 * Returns: (transfer none) (element-type TerrainIssue): what loading found:
 *   skipped files, bad footprints, names defined twice
 */
GPtrArray *
terrain_feature_catalog_get_issues (TerrainFeatureCatalog *self)
{
  g_return_val_if_fail (TERRAIN_IS_FEATURE_CATALOG (self), NULL);

  return self->issues;
}

static void
terrain_feature_catalog_finalize (GObject *object)
{
  TerrainFeatureCatalog *self = (TerrainFeatureCatalog *) object;

  g_clear_pointer (&self->by_name, g_hash_table_unref);
  g_clear_pointer (&self->features, g_ptr_array_unref);
  g_clear_pointer (&self->issues, g_ptr_array_unref);

  G_OBJECT_CLASS (terrain_feature_catalog_parent_class)->finalize (object);
}

static void
terrain_feature_catalog_class_init (TerrainFeatureCatalogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = terrain_feature_catalog_finalize;
}

static void
terrain_feature_catalog_init (TerrainFeatureCatalog *self)
{
  self->features = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_feature_definition_unref);
  self->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
}
