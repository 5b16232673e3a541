/* test-atlas-builder-options.c: the Atlas builder's option checks, texture
 * fitting, texture encodings and build report (issue 17)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every option that feeds a float the builder writes is bounded
 * (TERRAIN_ATLAS_BUILDER_MAX_COORDINATE) so that the output's floats are
 * finite, and the CLI names the option that broke the bound.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"
#include "terrain-test-util.h"

/* The fixture hills over a side × side grid, @relief metres high. */
static TerrainHeightfield *
make_hills (guint   side,
            gdouble spacing,
            gdouble relief)
{
  g_autoptr(GError) error = NULL;
  TerrainHeightfield *field = terrain_heightfield_new (side, side, spacing, &error);
  gfloat *data = terrain_heightfield_get_data (field, NULL);

  g_assert_no_error (error);
  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      data[(gsize) y * side + x] =
        (gfloat) (relief * terrain_test_hills ((gdouble) x / (side - 1),
                                               (gdouble) y / (side - 1)));
  return field;
}

static char *
make_tmp_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("terrain-builder-options-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
remove_tmp_dir (const char *dir)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

/* Writes @field as a raw16 file (metres = value) in @dir. */
static char *
write_raw16 (const char         *dir,
             TerrainHeightfield *field)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = terrain_heightfield_to_raw16 (field, 1.0, 0.0, &error);
  char *path = g_build_filename (dir, "h.r16", NULL);

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
  return path;
}

/* Heights, spacing and error beyond the bound fail the build with
 * TERRAIN_ERROR_OUT_OF_RANGE instead of writing infinite bounds. */
static void
test_ranges_library (void)
{
  struct { gdouble relief, spacing, error; } cases[] = {
    { 1e37, 1.0, 2.0 },
    { 1e31, 1.0, 2.0 },
    { 10.0, 1e37, 2.0 },
    { 10.0, 1.0, 1e30 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TerrainHeightfield) field = make_hills (33, cases[i].spacing, cases[i].relief);
      g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
      g_autoptr(TerrainAtlasFile) atlas = NULL;
      g_autoptr(GError) error = NULL;

      terrain_atlas_builder_set_error (builder, cases[i].error);
      terrain_atlas_builder_set_tree_depth (builder, 1);
      atlas = terrain_atlas_builder_build (builder, NULL, &error);
      g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
      g_assert_null (atlas);
      g_assert_nonnull (strstr (error->message, "Atlas builder"));
    }

  /* Just within: large but finite relief builds, and every bound is
   * finite. */
  {
    g_autoptr(TerrainHeightfield) field = make_hills (33, 1.0, 1e29);
    g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
    g_autoptr(TerrainAtlasFile) atlas = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) issues = NULL;
    gboolean any;

    terrain_atlas_builder_set_error (builder, 1e24);
    terrain_atlas_builder_set_tree_depth (builder, 1);
    atlas = terrain_atlas_builder_build (builder, NULL, &error);
    g_assert_no_error (error);
    issues = terrain_document_validate (TERRAIN_DOCUMENT (atlas));
    for (guint i = 0; i < issues->len; i++)
      {
        g_autofree char *line = terrain_issue_to_string (g_ptr_array_index (issues, i));

        g_test_message ("%s", line);
      }
    g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_INFO);
  }
}

/* The CLI refuses each bad option with exit 64, naming it, and writes no
 * file (the corpus .ter of the issue when the corpus is there, a fixture
 * raw16 always). */
static void
test_ranges_cli (void)
{
  g_autofree char *dir = make_tmp_dir ();
  g_autoptr(TerrainHeightfield) field = make_hills (65, 1.0, 1000.0);
  g_autofree char *raw = write_raw16 (dir, field);
  g_autofree char *atlas = g_build_filename (dir, "v.atlas", NULL);
  const char *corpus = g_getenv ("TERRAIN_CORPUS_DIR");
  g_autofree char *ter = corpus != NULL ? g_build_filename (corpus, "torque", "simple.ter",
                                                            NULL) : NULL;
  struct { const char *option, *named; } cases[] = {
    { "--vertical-scale=1e40", "--vertical-scale=1e+40" },
    { "--vertical-scale=1e37", "--vertical-scale=1e+37" },
    { "--vertical-offset=1e39", "--vertical-offset=1e+39" },
    { "--vertical-scale=1e30", "--vertical-scale=1e+30" },
    { "--spacing=1e37", "--spacing=1e+37" },
    { "--error=1e30", "--error=1e+30" },
  };
  const char *inputs[] = { raw, ter };

  for (guint k = 0; k < G_N_ELEMENTS (inputs); k++)
    {
      if (inputs[k] == NULL || !g_file_test (inputs[k], G_FILE_TEST_IS_REGULAR))
        continue;
      for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
        {
          g_auto(TerrainTestCliResult) r =
            terrain_test_run_cli (NULL, "build-atlas", inputs[k], cases[i].option, "--quiet",
                                  "-o", atlas, NULL);

          g_assert_cmpint (r.status, ==, 64);
          g_assert_nonnull (strstr (r.err, cases[i].named));
          g_assert_false (g_file_test (atlas, G_FILE_TEST_EXISTS));
        }
    }

  /* A finite large scale still builds. */
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "build-atlas", raw, "--vertical-scale=1e20", "--error=1e18",
                            "--depth=1", "--quiet", "-o", atlas, NULL);

    g_assert_cmpint (r.status, ==, 0);
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "validate", atlas, NULL);

    g_assert_cmpint (r.status, ==, 0);
  }
  remove_tmp_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/AtlasBuilderOptions/ranges", test_ranges_library);
  g_test_add_func ("/Terrain/AtlasBuilderOptions/ranges-cli", test_ranges_cli);

  return g_test_run ();
}
