/* test-corpus.c: every real file under ../shared/corpus that libterrain can
 * open must load, validate without warnings and round-trip byte-exact.
 *
 * The corpus is test data only and lives outside the repository; when it is
 * missing, the test says so and is skipped.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "libterrain.h"
#include "terrain-test-util.h"

/* Files of ../shared/samples whose format libterrain reads. */
static const char * const supported_samples[] = {
  "torque3d/Outpost_0.ter",
};

static const char *
corpus_dir (void)
{
  const char *dir = g_getenv ("TERRAIN_CORPUS_DIR");

  if (dir != NULL && g_file_test (dir, G_FILE_TEST_IS_DIR))
    return dir;
  return NULL;
}

static void
collect_files (const char *dir,
               GPtrArray  *files)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  if (handle == NULL)
    return;
  while ((name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        collect_files (path, files);
      else
        g_ptr_array_add (files, g_steal_pointer (&path));
    }
}

static void
test_corpus_file (gconstpointer data)
{
  const char *path = data;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autofree char *section = NULL;
  gsize difference = 0;
  gboolean any;

  document = terrain_document_load (file, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (document);

  written = terrain_document_save_to_bytes (document, &error);
  g_assert_no_error (error);
  if (!terrain_document_compare_bytes (document, written, &difference, &section))
    g_error ("%s: round trip differs at byte offset %" G_GSIZE_FORMAT " (%s)",
             path, difference, section);

  issues = terrain_document_validate (document);
  for (guint i = 0; i < issues->len; i++)
    {
      g_autofree char *line = terrain_issue_to_string (g_ptr_array_index (issues, i));
      g_test_message ("%s: %s", path, line);
    }
  g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_INFO);
}

static void
test_corpus_palette (gconstpointer data)
{
  const char *path = data;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainPalette) palette = NULL;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) written = NULL;
  guint8 r, g, b;

  palette = terrain_palette_new_from_file (file, NULL, &error);
  g_assert_no_error (error);
  /* Index 0x64 is the blue used as minimap padding (field-notes.md). */
  terrain_palette_get_color (palette, TERRAIN_PALETTE_MINIMAP_FILL, &r, &g, &b);
  g_assert_cmpuint (b, >, r);
  g_assert_cmpuint (b, >, g);

  original = terrain_file_load_bytes (file, NULL, &error);
  g_assert_no_error (error);
  written = terrain_palette_to_pal_bytes (palette);
  g_assert_true (g_bytes_equal (original, written));
}

static void
test_corpus_missing (void)
{
  g_test_skip ("corpus folder not found (set TERRAIN_CORPUS_DIR or provide ../shared/corpus)");
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  const char *dir;
  guint registered = 0;

  g_test_init (&argc, &argv, NULL);

  dir = corpus_dir ();
  if (dir == NULL)
    {
      g_test_add_func ("/Terrain/Corpus/missing", test_corpus_missing);
      return g_test_run ();
    }

  /* Samples (../shared/samples) of formats now supported, checked like the
   * corpus until they move into it (samples/README.md). */
  for (guint i = 0; i < G_N_ELEMENTS (supported_samples); i++)
    {
      g_autofree char *path = terrain_test_sample_path (supported_samples[i]);
      g_autofree char *test_path = NULL;

      if (path == NULL)
        continue;
      test_path = g_strdup_printf ("/Terrain/Corpus/samples/%s", supported_samples[i]);
      g_strdelimit (test_path + strlen ("/Terrain/Corpus/samples/"), "/ ", '_');
      g_test_add_data_func_full (test_path, g_steal_pointer (&path), test_corpus_file, g_free);
      registered++;
    }

  collect_files (dir, files);
  g_ptr_array_sort (files, (GCompareFunc) g_strcmp0);

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);
      g_autofree char *relative = g_strdup (path + strlen (dir) + 1);
      g_autofree char *basename = g_path_get_basename (path);
      g_autoptr(GBytes) head = NULL;
      g_autofree char *test_path = NULL;
      TerrainFormat format;

      g_strdelimit (relative, "/ ", '_');

      if (g_ascii_strcasecmp (basename, "PALETTE.PAL") == 0)
        {
          test_path = g_strdup_printf ("/Terrain/Corpus/palette/%s", relative);
          g_test_add_data_func_full (test_path, g_strdup (path), test_corpus_palette, g_free);
          registered++;
          continue;
        }

      {
        g_autoptr(GFile) file = g_file_new_for_path (path);
        head = terrain_file_load_bytes (file, NULL, NULL);
      }
      format = terrain_format_detect (head, basename);
      if (!terrain_format_can_load (format))
        {
          /* Left for the issue that adds the format (HPI, .ter, DEMs, ...). */
          continue;
        }

      test_path = g_strdup_printf ("/Terrain/Corpus/%s/%s", terrain_format_get_name (format),
                                   relative);
      g_test_add_data_func_full (test_path, g_strdup (path), test_corpus_file, g_free);
      registered++;
    }

  if (registered == 0)
    g_test_add_func ("/Terrain/Corpus/missing", test_corpus_missing);

  return g_test_run ();
}
