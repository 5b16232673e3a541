/* terrain-game-files.c: the files of a Total Annihilation install as the game sees them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-game-files.h"
#include "terrain-hpi-archive.h"
#include "core/terrain-document.h"
#include "core/terrain-error.h"

/*
 * One tree of files over loose folders and HPI-family archives. Sources are
 * added lowest precedence first; a path added again by a later source
 * replaces the earlier one (which is counted as shadowed). Paths are matched
 * ignoring ASCII case, with `\` and `/` alike, as the game's file layer does.
 *
 * The order of an install (terrain_game_files_add_install()) is rwe's
 * (`src/rwe/vfs/CompositeVirtualFileSystem.cpp`, `addToVfs`): the loose files
 * of the folder win over every archive; among archives `.gp3` wins over
 * `.gpf`, over `.ccx`, over `.ufo`, over `.hpi`. rwe takes the archives of one
 * extension in directory order, which the file system does not define;
 * libterrain sorts them by name ignoring case and lets the later name win, so
 * the result is the same on every machine (docs/formats/ta-files.md).
 */

#define MAX_FOLDER_DEPTH 32

static const char * const install_extensions[] = {
  /* lowest precedence first */
  ".hpi", ".ufo", ".ccx", ".gpf", ".gp3",
};

typedef struct
{
  char              *name;       /* for people: the archive's or folder's path */
  GFile             *folder;     /* a loose folder, or NULL */
  TerrainHpiArchive *archive;    /* an archive, or NULL */
} Source;

typedef struct
{
  char  *path;          /* as the winning source spells it, '/'-separated */
  guint  source;
  guint  archive_index;
  guint  n_shadowed;
} Entry;

struct _TerrainGameFiles
{
  GObject        parent_instance;

  TerrainLimits *limits;
  GArray        *sources;   /* of Source */
  GArray        *entries;   /* of Entry */
  GHashTable    *index;     /* folded path -> entry index + 1 */
  GArray        *sorted;    /* entry indices by folded path; NULL when stale */
  GPtrArray     *warnings;  /* of char * */
};

G_DEFINE_FINAL_TYPE (TerrainGameFiles, terrain_game_files, G_TYPE_OBJECT)

static void
source_clear (gpointer data)
{
  Source *source = data;

  g_free (source->name);
  g_clear_object (&source->folder);
  g_clear_object (&source->archive);
}

static void
entry_clear (gpointer data)
{
  Entry *entry = data;

  g_free (entry->path);
}

static void
terrain_game_files_finalize (GObject *object)
{
  TerrainGameFiles *self = TERRAIN_GAME_FILES (object);

  g_clear_pointer (&self->sorted, g_array_unref);
  g_hash_table_unref (self->index);
  g_array_unref (self->entries);
  g_array_unref (self->sources);
  g_ptr_array_unref (self->warnings);
  terrain_limits_free (self->limits);

  G_OBJECT_CLASS (terrain_game_files_parent_class)->finalize (object);
}

static void
terrain_game_files_class_init (TerrainGameFilesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = terrain_game_files_finalize;
}

static void
terrain_game_files_init (TerrainGameFiles *self)
{
  self->sources = g_array_new (FALSE, TRUE, sizeof (Source));
  g_array_set_clear_func (self->sources, source_clear);
  self->entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  g_array_set_clear_func (self->entries, entry_clear);
  self->index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->warnings = g_ptr_array_new_with_free_func (g_free);
}

/**
 * TerrainGameFiles:
 *
 * The files of a Total Annihilation install as the game sees them: one tree
 * over loose folders and archives (`.hpi`, `.ufo`, `.ccx`, `.gpf`, `.gp3`),
 * later sources taking precedence, paths matched ignoring case, and for
 * each file the source it came from. The feature catalogue
 * ([method@Terrain.FeatureCatalog.load_game_files]), palette lookups and map
 * previews read through it. The order of an install is documented in
 * docs/formats/ta-files.md.
 */

/**
 * terrain_game_files_new:
 * @limits: (nullable): allocation limits for the archives read, or %NULL
 *   for the defaults
 *
 * Creates an empty file tree; add sources lowest precedence first.
 *
 * Returns: (transfer full): a new file tree
 */
TerrainGameFiles *
terrain_game_files_new (const TerrainLimits *limits)
{
  TerrainGameFiles *self = g_object_new (TERRAIN_TYPE_GAME_FILES, NULL);

  self->limits = terrain_limits_copy (limits != NULL ? limits : terrain_limits_get_default ());
  return self;
}

static char *
fold_path (const char *path)
{
  g_autofree char *down = g_ascii_strdown (path, -1);
  GString *out = g_string_sized_new (strlen (down));

  for (const char *p = down; *p != '\0'; p++)
    {
      char c = *p == '\\' ? '/' : *p;

      /* No leading, doubled or trailing separators. */
      if (c == '/' && (out->len == 0 || out->str[out->len - 1] == '/'))
        continue;
      g_string_append_c (out, c);
    }
  if (out->len > 0 && out->str[out->len - 1] == '/')
    g_string_truncate (out, out->len - 1);
  return g_string_free (out, FALSE);
}

static gboolean
add_entry (TerrainGameFiles  *self,
           const char        *path,
           guint              source,
           guint              archive_index,
           GError           **error)
{
  g_autofree char *folded = fold_path (path);
  gpointer found;

  if (*folded == '\0')
    return TRUE;
  if (g_hash_table_lookup_extended (self->index, folded, NULL, &found))
    {
      Entry *entry = &g_array_index (self->entries, Entry, GPOINTER_TO_UINT (found) - 1);

      g_free (entry->path);
      entry->path = g_strdup (path);
      entry->source = source;
      entry->archive_index = archive_index;
      entry->n_shadowed++;
      return TRUE;
    }

  if (!terrain_limits_check_alloc (self->limits, self->entries->len + 1,
                                   sizeof (Entry) + 2 * strlen (path) + 2, "files",
                                   g_array_index (self->sources, Source, source).name, -1, error))
    return FALSE;
  g_array_append_val (self->entries, ((Entry) {
    .path = g_strdup (path),
    .source = source,
    .archive_index = archive_index,
  }));
  g_hash_table_insert (self->index, g_steal_pointer (&folded),
                       GUINT_TO_POINTER (self->entries->len));
  g_clear_pointer (&self->sorted, g_array_unref);
  return TRUE;
}

static guint
add_source (TerrainGameFiles  *self,
            GFile             *file,
            GFile             *folder,
            TerrainHpiArchive *archive)
{
  Source source = {
    .name = g_file_get_parse_name (file),
    .folder = folder != NULL ? g_object_ref (folder) : NULL,
    .archive = archive != NULL ? g_object_ref (archive) : NULL,
  };

  g_array_append_val (self->sources, source);
  return self->sources->len - 1;
}

/**
 * terrain_game_files_add_archive:
 * @self: a file tree
 * @archive: an HPI-family archive (`.hpi`, `.ufo`, `.ccx`, `.gpf`, `.gp3`)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Adds every file of an archive, above every source added before.
 *
 * Returns: %TRUE, or %FALSE with the archive's read error
 */
gboolean
terrain_game_files_add_archive (TerrainGameFiles  *self,
                                GFile             *archive,
                                GCancellable      *cancellable,
                                GError           **error)
{
  g_autoptr(TerrainHpiArchive) hpi = NULL;
  guint source;

  g_return_val_if_fail (TERRAIN_IS_GAME_FILES (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (archive), FALSE);

  hpi = terrain_hpi_archive_new_from_file (archive, self->limits, cancellable, error);
  if (hpi == NULL)
    return FALSE;
  source = add_source (self, archive, NULL, hpi);
  for (guint i = 0; i < terrain_hpi_archive_get_n_files (hpi); i++)
    if (!add_entry (self, terrain_hpi_archive_get_path (hpi, i), source, i, error))
      return FALSE;
  return TRUE;
}

static gboolean
has_install_extension (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (install_extensions); i++)
    if (g_str_has_suffix (name, install_extensions[i]))
      return TRUE;
  return FALSE;
}

static gboolean
walk_folder (TerrainGameFiles  *self,
             GFile             *root,
             GFile             *folder,
             guint              source,
             guint              depth,
             gboolean           skip_archives,
             GCancellable      *cancellable,
             GError           **error)
{
  g_autoptr(GFileEnumerator) children = NULL;

  if (depth > MAX_FOLDER_DEPTH)
    {
      g_autofree char *name = g_file_get_parse_name (folder);

      g_ptr_array_add (self->warnings,
                       g_strdup_printf ("%s: folders nested deeper than %d are left out", name,
                                        MAX_FOLDER_DEPTH));
      return TRUE;
    }
  children = g_file_enumerate_children (folder,
                                        G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                        G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                        G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, cancellable, error);
  if (children == NULL)
    return FALSE;

  while (TRUE)
    {
      GFileInfo *info;
      GFile *child;
      g_autofree char *folded = NULL;

      if (!g_file_enumerator_iterate (children, &info, &child, cancellable, error))
        return FALSE;
      if (info == NULL)
        break;

      folded = g_ascii_strdown (g_file_info_get_name (info), -1);
      if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
        {
          if (!walk_folder (self, root, child, source, depth + 1, FALSE, cancellable, error))
            return FALSE;
        }
      else if (g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR &&
               !(skip_archives && has_install_extension (folded)))
        {
          g_autofree char *relative = g_file_get_relative_path (root, child);

          if (relative != NULL && !add_entry (self, relative, source, 0, error))
            return FALSE;
        }
    }
  return TRUE;
}

static gboolean
add_folder (TerrainGameFiles  *self,
            GFile             *folder,
            gboolean           skip_archives,
            GCancellable      *cancellable,
            GError           **error)
{
  guint source = add_source (self, folder, folder, NULL);

  return walk_folder (self, folder, folder, source, 0, skip_archives, cancellable, error);
}

/**
 * terrain_game_files_add_folder:
 * @self: a file tree
 * @folder: a folder of loose files laid out as in the game (`maps/`,
 *   `features/`, `anims/`, ...)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Adds every file under a folder (subfolders to a depth of 32, symbolic
 * links not followed), above every source added before.
 *
 * Returns: %TRUE, or %FALSE with the I/O error
 */
gboolean
terrain_game_files_add_folder (TerrainGameFiles  *self,
                               GFile             *folder,
                               GCancellable      *cancellable,
                               GError           **error)
{
  g_return_val_if_fail (TERRAIN_IS_GAME_FILES (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (folder), FALSE);

  return add_folder (self, folder, FALSE, cancellable, error);
}

static gint
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_ascii_strcasecmp (*(const char * const *) a, *(const char * const *) b);
}

/**
 * terrain_game_files_add_install:
 * @self: a file tree
 * @folder: a Total Annihilation install folder (or any folder of archives)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Adds an install as the game mounts it, above every source added before:
 * the archives in @folder itself, `.hpi` first, then `.ufo`, `.ccx`, `.gpf`
 * and `.gp3` (each later kind overriding the earlier), archives of one kind
 * in name order ignoring case (a later name overriding an earlier one), and
 * last the loose files under @folder, which override every archive
 * (docs/formats/ta-files.md). An archive that cannot be read is left out
 * with a warning ([method@Terrain.GameFiles.get_warnings]).
 *
 * Returns: %TRUE, or %FALSE if @folder cannot be listed
 */
gboolean
terrain_game_files_add_install (TerrainGameFiles  *self,
                                GFile             *folder,
                                GCancellable      *cancellable,
                                GError           **error)
{
  g_autoptr(GFileEnumerator) children = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (TERRAIN_IS_GAME_FILES (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (folder), FALSE);

  children = g_file_enumerate_children (folder,
                                        G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                        G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                        G_FILE_QUERY_INFO_NONE, cancellable, error);
  if (children == NULL)
    return FALSE;
  while (TRUE)
    {
      GFileInfo *info;

      if (!g_file_enumerator_iterate (children, &info, NULL, cancellable, error))
        return FALSE;
      if (info == NULL)
        break;
      if (g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR)
        g_ptr_array_add (names, g_strdup (g_file_info_get_name (info)));
    }
  g_ptr_array_sort (names, compare_names);

  for (guint e = 0; e < G_N_ELEMENTS (install_extensions); e++)
    for (guint i = 0; i < names->len; i++)
      {
        const char *name = g_ptr_array_index (names, i);
        g_autofree char *folded = g_ascii_strdown (name, -1);
        g_autoptr(GFile) archive = NULL;
        g_autoptr(GError) archive_error = NULL;

        if (!g_str_has_suffix (folded, install_extensions[e]))
          continue;
        archive = g_file_get_child (folder, name);
        if (!terrain_game_files_add_archive (self, archive, cancellable, &archive_error))
          {
            if (g_error_matches (archive_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
                g_error_matches (archive_error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED))
              {
                g_propagate_error (error, g_steal_pointer (&archive_error));
                return FALSE;
              }
            g_ptr_array_add (self->warnings,
                             g_strdup_printf ("%s: left out: %s", name, archive_error->message));
          }
      }

  return add_folder (self, folder, TRUE, cancellable, error);
}

/**
 * terrain_game_files_add:
 * @self: a file tree
 * @file: a folder or an archive
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Adds @file above every source added before: a folder as an install
 * ([method@Terrain.GameFiles.add_install]), anything else as an archive.
 * This is what `--archives` of the `terrain` tool does with each of its
 * values.
 *
 * Returns: %TRUE on success
 */
gboolean
terrain_game_files_add (TerrainGameFiles  *self,
                        GFile             *file,
                        GCancellable      *cancellable,
                        GError           **error)
{
  g_return_val_if_fail (TERRAIN_IS_GAME_FILES (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, cancellable) ==
      G_FILE_TYPE_DIRECTORY)
    return terrain_game_files_add_install (self, file, cancellable, error);
  return terrain_game_files_add_archive (self, file, cancellable, error);
}

/**
 * terrain_game_files_get_n_sources:
 * @self: a file tree
 *
 * Gets the number of folders and archives added, lowest precedence first.
 *
 * Returns: the number of sources
 */
guint
terrain_game_files_get_n_sources (TerrainGameFiles *self)
{
  g_return_val_if_fail (TERRAIN_IS_GAME_FILES (self), 0);

  return self->sources->len;
}

/**
 * terrain_game_files_get_source_name:
 * @self: a file tree
 * @source: a source index, below [method@Terrain.GameFiles.get_n_sources]
 *
 * Gets the path of a source, for people.
 *
 * Returns: (transfer none): the archive's or folder's path
 */
const char *
terrain_game_files_get_source_name (TerrainGameFiles *self,
                                    guint             source)
{
  g_return_val_if_fail (TERRAIN_IS_GAME_FILES (self), NULL);
  g_return_val_if_fail (source < self->sources->len, NULL);

  return g_array_index (self->sources, Source, source).name;
}

static gint
compare_entries (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  GArray *entries = user_data;
  const Entry *ea = &g_array_index (entries, Entry, *(const guint *) a);
  const Entry *eb = &g_array_index (entries, Entry, *(const guint *) b);

  return g_ascii_strcasecmp (ea->path, eb->path);
}

static const Entry *
sorted_entry (TerrainGameFiles *self,
              guint             index)
{
  if (self->sorted == NULL)
    {
      self->sorted = g_array_sized_new (FALSE, FALSE, sizeof (guint), self->entries->len);
      for (guint i = 0; i < self->entries->len; i++)
        g_array_append_val (self->sorted, i);
      g_array_sort_with_data (self->sorted, compare_entries, self->entries);
    }
  return &g_array_index (self->entries, Entry, g_array_index (self->sorted, guint, index));
}

/**
 * terrain_game_files_get_n_files:
 * @self: a file tree
 *
 * Gets the number of distinct paths in the tree (a path several sources
 * hold counts once).
 *
 * Returns: the number of files
 */
guint
terrain_game_files_get_n_files (TerrainGameFiles *self)
{
  g_return_val_if_fail (TERRAIN_IS_GAME_FILES (self), 0);

  return self->entries->len;
}

/**
 * terrain_game_files_get_path:
 * @self: a file tree
 * @index: a file index, below [method@Terrain.GameFiles.get_n_files]; files
 *   are in path order ignoring case
 *
 * Gets a file's path as the source it is read from spells it.
 *
 * Returns: (transfer none): the path, `/`-separated (`features/all worlds/trees.tdf`)
 */
const char *
terrain_game_files_get_path (TerrainGameFiles *self,
                             guint             index)
{
  g_return_val_if_fail (TERRAIN_IS_GAME_FILES (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);

  return sorted_entry (self, index)->path;
}

/**
 * terrain_game_files_get_source:
 * @self: a file tree
 * @index: a file index
 *
 * Gets the source a file is read from: the one of highest precedence that
 * holds its path.
 *
 * Returns: the source index (see [method@Terrain.GameFiles.get_source_name])
 */
guint
terrain_game_files_get_source (TerrainGameFiles *self,
                               guint             index)
{
  g_return_val_if_fail (TERRAIN_IS_GAME_FILES (self), 0);
  g_return_val_if_fail (index < self->entries->len, 0);

  return sorted_entry (self, index)->source;
}

/**
 * terrain_game_files_get_n_shadowed:
 * @self: a file tree
 * @index: a file index
 *
 * Gets how many sources of lower precedence also hold the file's path
 * (copies the game never reads).
 *
 * Returns: the number of shadowed copies
 */
guint
terrain_game_files_get_n_shadowed (TerrainGameFiles *self,
                                   guint             index)
{
  g_return_val_if_fail (TERRAIN_IS_GAME_FILES (self), 0);
  g_return_val_if_fail (index < self->entries->len, 0);

  return sorted_entry (self, index)->n_shadowed;
}

/**
 * terrain_game_files_find:
 * @self: a file tree
 * @path: a path (`maps/ban.tnt`, `MAPS\Ban.TNT`)
 * @index: (out) (optional): the file's index
 *
 * Looks a path up, ignoring ASCII case and with `\` and `/` alike.
 *
 * Returns: %TRUE if the tree holds @path
 */
gboolean
terrain_game_files_find (TerrainGameFiles *self,
                         const char       *path,
                         guint            *index)
{
  g_autofree char *folded = NULL;
  gpointer found;
  guint entry;

  g_return_val_if_fail (TERRAIN_IS_GAME_FILES (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  folded = fold_path (path);
  if (!g_hash_table_lookup_extended (self->index, folded, NULL, &found))
    return FALSE;
  entry = GPOINTER_TO_UINT (found) - 1;
  if (index != NULL)
    {
      sorted_entry (self, 0);
      for (guint i = 0; i < self->sorted->len; i++)
        if (g_array_index (self->sorted, guint, i) == entry)
          {
            *index = i;
            break;
          }
    }
  return TRUE;
}

static GBytes *
read_entry (TerrainGameFiles  *self,
            const Entry       *entry,
            GError           **error)
{
  const Source *source = &g_array_index (self->sources, Source, entry->source);
  g_autoptr(GFile) file = NULL;

  if (source->archive != NULL)
    return terrain_hpi_archive_read_file (source->archive, entry->archive_index, error);
  file = g_file_resolve_relative_path (source->folder, entry->path);
  return g_file_load_bytes (file, NULL, NULL, error);
}

/**
 * terrain_game_files_read:
 * @self: a file tree
 * @index: a file index
 * @error: return location for a #GError
 *
 * Reads a file from the source it comes from.
 *
 * Returns: (transfer full) (nullable): its bytes, or %NULL with the
 *   archive's or the file system's error
 */
GBytes *
terrain_game_files_read (TerrainGameFiles  *self,
                         guint              index,
                         GError           **error)
{
  g_return_val_if_fail (TERRAIN_IS_GAME_FILES (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);

  return read_entry (self, sorted_entry (self, index), error);
}

/**
 * terrain_game_files_read_path:
 * @self: a file tree
 * @path: a path, matched as by [method@Terrain.GameFiles.find]
 * @error: return location for a #GError
 *
 * Reads a file by its path.
 *
 * Returns: (transfer full) (nullable): its bytes, or %NULL with
 *   %G_IO_ERROR_NOT_FOUND when no source holds @path
 */
GBytes *
terrain_game_files_read_path (TerrainGameFiles  *self,
                              const char        *path,
                              GError           **error)
{
  g_autofree char *folded = NULL;
  gpointer found;

  g_return_val_if_fail (TERRAIN_IS_GAME_FILES (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  folded = fold_path (path);
  if (!g_hash_table_lookup_extended (self->index, folded, NULL, &found))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "%s: in none of the %u archives and folders", path, self->sources->len);
      return NULL;
    }
  return read_entry (self, &g_array_index (self->entries, Entry, GPOINTER_TO_UINT (found) - 1),
                     error);
}

/**
 * terrain_game_files_load_palette:
 * @self: a file tree
 * @error: return location for a #GError
 *
 * Reads the palette the game draws tiles and sprites with,
 * `palettes/PALETTE.PAL` (docs/formats/ta-files.md, "Paths").
 *
 * Returns: (transfer full) (nullable): the palette, or %NULL with
 *   %G_IO_ERROR_NOT_FOUND when no source holds it or the error of
 *   [func@Terrain.Palette.new_from_bytes]
 */
TerrainPalette *
terrain_game_files_load_palette (TerrainGameFiles  *self,
                                 GError           **error)
{
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (TERRAIN_IS_GAME_FILES (self), NULL);

  bytes = terrain_game_files_read_path (self, "palettes/palette.pal", error);
  return bytes != NULL ? terrain_palette_new_from_bytes (bytes, error) : NULL;
}

/**
 * terrain_game_files_list:
 * @self: a file tree
 * @folder: (nullable): a folder (`features`), matched ignoring case, or
 *   %NULL for the whole tree
 * @suffix: (nullable): a suffix (`.tdf`), matched ignoring case, or %NULL
 *
 * Lists the files under @folder (at any depth) whose names end in @suffix.
 *
 * Returns: (transfer full) (array zero-terminated=1): the paths, in path
 *   order ignoring case
 */
char **
terrain_game_files_list (TerrainGameFiles *self,
                         const char       *folder,
                         const char       *suffix)
{
  g_autoptr(GStrvBuilder) out = g_strv_builder_new ();
  g_autofree char *prefix = NULL;
  g_autofree char *tail = suffix != NULL ? g_ascii_strdown (suffix, -1) : NULL;

  g_return_val_if_fail (TERRAIN_IS_GAME_FILES (self), NULL);

  if (folder != NULL)
    {
      g_autofree char *folded = fold_path (folder);

      prefix = *folded != '\0' ? g_strconcat (folded, "/", NULL) : NULL;
    }
  for (guint i = 0; i < self->entries->len; i++)
    {
      const Entry *entry = sorted_entry (self, i);
      g_autofree char *folded = fold_path (entry->path);

      if ((prefix == NULL || g_str_has_prefix (folded, prefix)) &&
          (tail == NULL || g_str_has_suffix (folded, tail)))
        g_strv_builder_add (out, entry->path);
    }
  return g_strv_builder_end (out);
}

/**
 * terrain_game_files_get_warnings:
 * @self: a file tree
 *
 * Gets what was left out while sources were added: archives that could not
 * be read, folders nested too deep.
 *
 * Returns: (transfer none) (element-type utf8): the messages, one a line
 */
GPtrArray *
terrain_game_files_get_warnings (TerrainGameFiles *self)
{
  g_return_val_if_fail (TERRAIN_IS_GAME_FILES (self), NULL);

  return self->warnings;
}
