/* terrain-command-hpi.c: `terrain hpi list|extract|pack`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "terrain-cli.h"

static TerrainHpiArchive *
open_archive (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;
  TerrainHpiArchive *archive = terrain_hpi_archive_new_from_file (file, NULL, NULL, &error);

  if (archive == NULL)
    terrain_cli_error (path, error);
  return archive;
}

static const char *
compression_name (TerrainHpiCompression compression)
{
  switch (compression)
    {
    case TERRAIN_HPI_COMPRESSION_NONE:
      return "stored";
    case TERRAIN_HPI_COMPRESSION_LZ77:
      return "lz77";
    case TERRAIN_HPI_COMPRESSION_ZLIB:
      return "zlib";
    default:
      return "?";
    }
}

static int
hpi_list (int    argc,
          char **argv)
{
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print machine-readable JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("hpi list", _("ARCHIVE"),
                                _("List the files of an HPI archive (.hpi, .ufo, .ccx, .gp3): "
                                  "size, compression and path."),
                                entries);
  g_autoptr(TerrainHpiArchive) archive = NULL;
  guint n;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 2)
    {
      terrain_cli_usage_error ("hpi list", _("expected one ARCHIVE"));
      return TERRAIN_EXIT_USAGE;
    }

  archive = open_archive (argv[1]);
  if (archive == NULL)
    return TERRAIN_EXIT_ERROR;

  n = terrain_hpi_archive_get_n_files (archive);
  if (json)
    {
      g_autoptr(JsonNode) node = terrain_document_describe (TERRAIN_DOCUMENT (archive));
      g_autofree char *text = terrain_cli_json_to_string (node, TRUE);

      g_print ("%s\n", text);
      return TERRAIN_EXIT_OK;
    }

  for (guint i = 0; i < n; i++)
    g_print ("%10u  %-6s  %s\n", terrain_hpi_archive_get_file_size (archive, i),
             compression_name (terrain_hpi_archive_get_compression (archive, i)),
             terrain_hpi_archive_get_path (archive, i));
  return TERRAIN_EXIT_OK;
}

static int
hpi_extract (int    argc,
             char **argv)
{
  gboolean quiet = FALSE;
  const GOptionEntry entries[] = {
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print nothing on success"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("hpi extract", _("ARCHIVE DIR"),
                                _("Write every file of an archive under DIR (created if "
                                  "missing). Every chunk is checked (checksum, sizes) before "
                                  "its file is written; files are written atomically."),
                                entries);
  g_autoptr(TerrainHpiArchive) archive = NULL;
  g_autoptr(GFile) folder = NULL;
  g_autoptr(GError) error = NULL;
  guint64 total = 0;
  gint64 start, elapsed;

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc != 3)
    {
      terrain_cli_usage_error ("hpi extract", _("expected ARCHIVE and DIR"));
      return TERRAIN_EXIT_USAGE;
    }

  archive = open_archive (argv[1]);
  if (archive == NULL)
    return TERRAIN_EXIT_ERROR;

  start = g_get_monotonic_time ();
  folder = g_file_new_for_commandline_arg (argv[2]);
  if (!terrain_hpi_archive_extract (archive, folder, NULL, &error))
    {
      terrain_cli_error (argv[1], error);
      return TERRAIN_EXIT_ERROR;
    }
  elapsed = MAX (g_get_monotonic_time () - start, 1);

  for (guint i = 0; i < terrain_hpi_archive_get_n_files (archive); i++)
    total += terrain_hpi_archive_get_file_size (archive, i);
  if (!quiet)
    {
      g_autofree char *total_str = g_strdup_printf ("%" G_GUINT64_FORMAT, total);

      /* Translators: in order: the archive name, the number of files (%u),
       * the bytes extracted (%s), the output folder, the time in
       * milliseconds and the throughput. */
      g_print (_("%s: %u files, %s bytes extracted to %s (%.1f ms, %.1f MB/s)\n"),
               argv[1], terrain_hpi_archive_get_n_files (archive), total_str, argv[2],
               elapsed / 1000.0, (double) total / (double) elapsed);
    }
  return TERRAIN_EXIT_OK;
}

typedef struct
{
  TerrainHpiWriter *writer;
  TerrainHpiCompression compression;
  guint added;
} Packer;

static gboolean
pack_file (Packer     *packer,
           GFile      *file,
           const char *inside)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_file_get_parse_name (file);

  bytes = terrain_file_load_bytes (file, NULL, &error);
  if (bytes == NULL ||
      !terrain_hpi_writer_add_file (packer->writer, inside, bytes, packer->compression, &error))
    {
      terrain_cli_error (name, error);
      return FALSE;
    }
  packer->added++;
  return TRUE;
}

/* Every file under @folder, at its path relative to @root. */
static gboolean
pack_folder (Packer *packer,
             GFile  *root,
             GFile  *folder)
{
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GError) error = NULL;
  GFileInfo *info;

  enumerator = g_file_enumerate_children (folder, G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                          G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                          G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, &error);
  if (enumerator == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (folder);

      g_printerr ("terrain: %s: %s\n", name, error->message);
      return FALSE;
    }
  while ((info = g_file_enumerator_next_file (enumerator, NULL, &error)) != NULL)
    {
      g_autoptr(GFile) child = g_file_get_child (folder, g_file_info_get_name (info));
      GFileType type = g_file_info_get_file_type (info);

      g_object_unref (info);

      if (type == G_FILE_TYPE_DIRECTORY)
        {
          if (!pack_folder (packer, root, child))
            return FALSE;
        }
      else if (type == G_FILE_TYPE_REGULAR)
        {
          g_autofree char *relative = g_file_get_relative_path (root, child);

          if (!pack_file (packer, child, relative))
            return FALSE;
        }
    }
  if (error != NULL)
    {
      g_autofree char *name = g_file_get_parse_name (folder);

      g_printerr ("terrain: %s: %s\n", name, error->message);
      return FALSE;
    }
  return TRUE;
}

/* Where a file goes when the command line does not say: maps and their
 * descriptions in maps/, feature definitions in features/, the rest at the
 * top. */
static char *
default_inside_path (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  const char *dot = strrchr (base, '.');

  if (dot != NULL && (g_ascii_strcasecmp (dot, ".tnt") == 0 ||
                      g_ascii_strcasecmp (dot, ".ota") == 0))
    return g_strconcat ("maps/", base, NULL);
  return g_steal_pointer (&base);
}

static int
hpi_pack (int    argc,
          char **argv)
{
  g_autofree char *compression = NULL;
  int key = 0;
  gboolean encrypt_chunks = FALSE;
  gboolean update = FALSE;
  const GOptionEntry entries[] = {
    { "update", 0, 0, G_OPTION_ARG_NONE, &update,
      N_("Keep the files of an existing OUT.hpi byte for byte, FILE replacing the one of the "
         "same path, and the old archive as OUT.hpi.bak"), NULL },
    { "compression", 'c', 0, G_OPTION_ARG_STRING, &compression,
      N_("zlib (default), lz77 or none"), N_("METHOD") },
    { "key", 'k', 0, G_OPTION_ARG_INT, &key,
      N_("Obfuscate the archive with header key K (1..255; 0, the default, writes a plain "
         "archive)"), N_("K") },
    { "encrypt-chunks", 0, 0, G_OPTION_ARG_NONE, &encrypt_chunks,
      N_("Set the encrypted flag of compressed chunks"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    terrain_cli_option_context ("hpi pack", _("OUT.hpi FILE…"),
                                _("Write an HPI archive. FILE goes in as maps/NAME when it is a "
                                  ".tnt or .ota file, otherwise at the top; FILE=PATH puts it at "
                                  "PATH inside the archive; a folder goes in with its files at "
                                  "their paths relative to it. The archive is written "
                                  "atomically; with --update into an existing one, whose "
                                  "other files and key stay."),
                                entries);
  g_autoptr(TerrainHpiWriter) writer = terrain_hpi_writer_new ();
  g_autoptr(GFile) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  Packer packer = { writer, TERRAIN_HPI_COMPRESSION_ZLIB, 0 };

  if (!terrain_cli_parse (context, &argc, &argv))
    return TERRAIN_EXIT_USAGE;
  if (argc < 3)
    {
      terrain_cli_usage_error ("hpi pack", _("expected OUT.hpi and at least one FILE"));
      return TERRAIN_EXIT_USAGE;
    }
  if (compression != NULL)
    {
      if (g_ascii_strcasecmp (compression, "zlib") == 0)
        packer.compression = TERRAIN_HPI_COMPRESSION_ZLIB;
      else if (g_ascii_strcasecmp (compression, "lz77") == 0)
        packer.compression = TERRAIN_HPI_COMPRESSION_LZ77;
      else if (g_ascii_strcasecmp (compression, "none") == 0)
        packer.compression = TERRAIN_HPI_COMPRESSION_NONE;
      else
        {
          terrain_cli_usage_error ("hpi pack", _("--compression takes zlib, lz77 or none"));
          return TERRAIN_EXIT_USAGE;
        }
    }
  if (key < 0 || key > 255)
    {
      terrain_cli_usage_error ("hpi pack", _("--key takes 0 to 255"));
      return TERRAIN_EXIT_USAGE;
    }
  terrain_hpi_writer_set_key (writer, (guint8) key);
  terrain_hpi_writer_set_encrypt_chunks (writer, encrypt_chunks);

  for (int i = 2; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *equals = strchr (arg, '=');
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (arg);
      GFileType type = g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, NULL);

      if (type == G_FILE_TYPE_DIRECTORY)
        {
          if (!pack_folder (&packer, file, file))
            return TERRAIN_EXIT_ERROR;
        }
      else if (type == G_FILE_TYPE_UNKNOWN && equals != NULL && equals != arg)
        {
          g_autofree char *source = g_strndup (arg, (gsize) (equals - arg));
          g_autoptr(GFile) source_file = g_file_new_for_commandline_arg (source);

          if (!pack_file (&packer, source_file, equals + 1))
            return TERRAIN_EXIT_ERROR;
        }
      else
        {
          g_autofree char *inside = default_inside_path (arg);

          if (!pack_file (&packer, file, inside))
            return TERRAIN_EXIT_ERROR;
        }
    }

  out = g_file_new_for_commandline_arg (argv[1]);
  if (update && g_file_query_exists (out, NULL))
    {
      g_autoptr(GFile) backup = terrain_hpi_backup_file (out);
      g_autofree char *backup_name = g_file_get_parse_name (backup);
      guint kept = 0;

      /* One read of the archive: the key (unless --key), its files, the backup. */
      if (!terrain_hpi_writer_update (writer, out, key == 0, backup, &kept, NULL, &error))
        {
          terrain_cli_error (argv[1], error);
          return TERRAIN_EXIT_ERROR;
        }
      /* Translators: the archive, the number of files given (%u), the
       * number of files the archive held (%u), the backup's name. */
      g_print (_("%s: %u files packed into the %u of the archive; the old archive is %s\n"),
               argv[1], packer.added, kept, backup_name);
      return TERRAIN_EXIT_OK;
    }

  bytes = terrain_hpi_writer_to_bytes (writer, &error);
  if (bytes == NULL || !terrain_file_save_bytes (out, bytes, NULL, &error))
    {
      terrain_cli_error (argv[1], error);
      return TERRAIN_EXIT_ERROR;
    }
  {
    g_autofree char *size = g_strdup_printf ("%" G_GSIZE_FORMAT, g_bytes_get_size (bytes));

    /* Translators: the archive name, the number of files packed (%u) and
     * the archive size in bytes (%s). */
    g_print (_("%s: %u files, %s bytes\n"), argv[1], packer.added, size);
  }
  return TERRAIN_EXIT_OK;
}

static const TerrainCliCommand hpi_commands[] = {
  { "list", N_("List the files of an archive"), hpi_list },
  { "extract", N_("Write every file of an archive to a folder"), hpi_extract },
  { "pack", N_("Write an archive from files and folders"), hpi_pack },
};

const TerrainCliGroup terrain_cli_hpi_group = {
  NULL, N_("ARCHIVE…"),
  N_("Total Annihilation HPI archives (.hpi, .ufo, .ccx, .gp3). "
     "Other commands open a file inside an archive as "
     "ARCHIVE:path/inside, e.g. `terrain info maps.ufo:maps/x.tnt`."),
  NULL, hpi_commands, G_N_ELEMENTS (hpi_commands), FALSE
};
