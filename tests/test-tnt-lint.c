/* test-tnt-lint.c: map-design checks (kbot's lint rules) and their SARIF
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One 64x64-cell map breaks one rule at a time in a known place; every
 * finding must come with its rule, its severity and (where it has one) its
 * cell.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"

static const char ota_text[] =
  "[GlobalHeader]\n{\n\tmissionname=Lint;\n\tmissiondescription=Test map;\n\tplanet=Green;\n"
  "\tnumplayers=2, 4;\n\tsize=2 x 2;\n"
  "\t[Schema 0]\n\t{\n\tType=Network 1;\n\tSurfaceMetal=3;\n"
  "\t\t[specials]\n\t\t{\n"
  "\t\t\t[special0]\n\t\t\t{\n\t\t\tspecialwhat=StartPos1;\n\t\t\tXPos=48;\n\t\t\tZPos=48;\n\t\t\t}\n"
  "\t\t\t[special1]\n\t\t\t{\n\t\t\tspecialwhat=StartPos2;\n\t\t\tXPos=1100;\n\t\t\tZPos=40;\n\t\t\t}\n"
  "\t\t\t[special2]\n\t\t\t{\n\t\t\tspecialwhat=StartPos3;\n\t\t\tXPos=40;\n\t\t\tZPos=900;\n\t\t\t}\n"
  "\t\t}\n\t}\n}\n";

static const char features_text[] =
  "[Metal1]\n{\n\tfootprintx=1;\n\tfootprintz=1;\n\tmetal=20;\n}\n";

static TerrainTntMap *
make_map (void)
{
  g_autoptr(GError) error = NULL;
  TerrainTntMap *map = terrain_tnt_map_new (64, 64, &error);
  guint8 tile[1024];
  guint metal, ghost;

  g_assert_no_error (error);
  /* A wall of void at column 40 cuts off the east. */
  for (guint y = 0; y < 64; y++)
    g_assert_true (terrain_tnt_map_set_cell_feature (map, 40, y, TERRAIN_TNT_FEATURE_VOID,
                                                     &error));
  /* StartPos3 stands on void. */
  g_assert_true (terrain_tnt_map_set_cell_feature (map, 2, 56, TERRAIN_TNT_FEATURE_VOID, &error));
  /* A spike: four cliff edges around (5, 5). */
  terrain_tnt_map_set_cell_height (map, 5, 5, 200);
  /* Two identical tiles no tile-map entry uses. */
  memset (tile, 9, sizeof tile);
  terrain_tnt_map_add_tile (map, tile);
  terrain_tnt_map_add_tile (map, tile);
  /* Metal far from StartPos1 and StartPos3, and a feature no TDF defines. */
  metal = terrain_tnt_map_add_feature_name (map, "Metal1");
  ghost = terrain_tnt_map_add_feature_name (map, "Ghost");
  g_assert_true (terrain_tnt_map_set_cell_feature (map, 60, 2, metal, &error));
  g_assert_true (terrain_tnt_map_set_cell_feature (map, 10, 10, ghost, &error));
  g_assert_no_error (error);
  return map;
}

static TerrainOtaFile *
make_ota (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (ota_text, strlen (ota_text));
  g_autoptr(GError) error = NULL;
  TerrainOtaFile *ota = terrain_ota_file_new_from_bytes (bytes, NULL, &error);

  g_assert_no_error (error);
  return ota;
}

static guint
count_rule (GPtrArray  *issues,
            const char *rule,
            TerrainSeverity severity)
{
  guint n = 0;

  for (guint i = 0; i < issues->len; i++)
    {
      TerrainIssue *issue = g_ptr_array_index (issues, i);

      if (g_strcmp0 (terrain_issue_get_rule (issue), rule) == 0)
        {
          g_assert_cmpint (terrain_issue_get_severity (issue), ==, severity);
          n++;
        }
    }
  return n;
}

static TerrainIssue *
find_rule (GPtrArray  *issues,
           const char *rule,
           const char *text)
{
  for (guint i = 0; i < issues->len; i++)
    {
      TerrainIssue *issue = g_ptr_array_index (issues, i);

      if (g_strcmp0 (terrain_issue_get_rule (issue), rule) == 0 &&
          (text == NULL || strstr (terrain_issue_get_message (issue), text) != NULL))
        return issue;
    }
  g_error ("no %s finding with \"%s\"", rule, text);
  return NULL;
}

static void
assert_cell (TerrainIssue *issue,
             gint          x,
             gint          y)
{
  gint ix, iy;

  g_assert_true (terrain_issue_get_position (issue, &ix, &iy));
  g_assert_cmpint (ix, ==, x);
  g_assert_cmpint (iy, ==, y);
}

static void
test_rules (void)
{
  g_autoptr(TerrainTntMap) map = make_map ();
  g_autoptr(TerrainOtaFile) ota = make_ota ();
  g_autoptr(TerrainFeatureCatalog) catalog = terrain_feature_catalog_new ();
  g_autoptr(GBytes) tdf = g_bytes_new_static (features_text, strlen (features_text));
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  gboolean any;

  g_assert_true (terrain_feature_catalog_add_bytes (catalog, tdf, "features/metal.tdf", NULL,
                                                    &error));
  issues = terrain_tnt_lint (map, ota, catalog);
  for (guint i = 0; i < issues->len; i++)
    {
      g_autofree char *line = terrain_issue_to_string (g_ptr_array_index (issues, i));

      g_test_message ("[%s] %s", terrain_issue_get_rule (g_ptr_array_index (issues, i)), line);
      g_assert_nonnull (terrain_issue_get_rule (g_ptr_array_index (issues, i)));
    }

  g_assert_cmpuint (count_rule (issues, "ota.fields", TERRAIN_SEVERITY_WARNING), ==, 0);
  g_assert_cmpuint (count_rule (issues, "ota.schema-slots", TERRAIN_SEVERITY_WARNING), ==, 1);
  g_assert_nonnull (strstr (terrain_issue_get_message (find_rule (issues, "ota.schema-slots", NULL)),
                            "offers 4 players"));
  g_assert_cmpuint (count_rule (issues, "ota.start-in-bounds", TERRAIN_SEVERITY_WARNING), ==, 2);
  find_rule (issues, "ota.start-in-bounds", "StartPos2 (1100, 40) is outside the 1024x1024");
  assert_cell (find_rule (issues, "ota.start-in-bounds", "StartPos3 (40, 900) is outside the play"),
               2, 56);
  assert_cell (find_rule (issues, "ota.start-passable", "StartPos3"), 2, 56);
  g_assert_cmpuint (count_rule (issues, "tnt.metal-near-start", TERRAIN_SEVERITY_WARNING), ==, 2);
  assert_cell (find_rule (issues, "tnt.metal-near-start", "StartPos1: the nearest metal is 29 "
                          "tiles away"), 3, 3);
  /* The 23 columns east of the wall (23 x 64 cells) are cut off. */
  assert_cell (find_rule (issues, "tnt.void-islands", "1472 passable cells"), 41, 0);
  assert_cell (find_rule (issues, "tnt.height-cliffs", "4 cell edges"), 5, 4);
  g_assert_cmpuint (count_rule (issues, "tnt.duplicate-tiles", TERRAIN_SEVERITY_INFO), ==, 1);
  g_assert_cmpuint (count_rule (issues, "tnt.unused-tiles", TERRAIN_SEVERITY_INFO), ==, 1);
  g_assert_cmpuint (count_rule (issues, "tnt.feature-missing", TERRAIN_SEVERITY_ERROR), ==, 1);
  assert_cell (find_rule (issues, "tnt.feature-missing", "\"Ghost\" (placed 1 times)"), 10, 10);
  g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_ERROR);

  /* Without the .ota and the catalogue only the map's own rules run. */
  g_clear_pointer (&issues, g_ptr_array_unref);
  issues = terrain_tnt_lint (map, NULL, NULL);
  g_assert_cmpuint (count_rule (issues, "tnt.feature-missing", TERRAIN_SEVERITY_ERROR), ==, 0);
  g_assert_cmpuint (count_rule (issues, "ota.start-in-bounds", TERRAIN_SEVERITY_WARNING), ==, 0);
  g_assert_cmpuint (count_rule (issues, "tnt.height-cliffs", TERRAIN_SEVERITY_WARNING), ==, 1);
}

/* The rules that test_rules sees silent: the lobby's required fields, and
 * the findings of validation on the map and on the .ota, each carried over
 * under its own rule with validation's severity. */
static void
test_validation_rules (void)
{
  static const char bare_ota[] =
    "[GlobalHeader]\n{\n\tmissionname=Bare;\n\tsize=2 x 2;\n"
    "\t[Schema 0]\n\t{\n\tType=Network 1;\n"
    "\t\t[specials]\n\t\t{\n"
    "\t\t\t[special0]\n\t\t\t{\n\t\t\tspecialwhat=StartPos1;\n\t\t\tXPos=48;\n\t\t\tZPos=48;\n\t\t\t}\n"
    "\t\t\t[special1]\n\t\t\t{\n\t\t\tspecialwhat=StartPos1;\n\t\t\tXPos=96;\n\t\t\tZPos=96;\n\t\t\t}\n"
    "\t\t}\n\t}\n}\n";
  g_autoptr(TerrainTntMap) built = make_map ();
  g_autoptr(TerrainTntMap) map = NULL;
  g_autoptr(TerrainOtaFile) ota = NULL;
  g_autoptr(GBytes) ota_bytes = g_bytes_new_static (bare_ota, strlen (bare_ota));
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) patched = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  guint8 *data;
  gsize size;

  /* Sea level 300 in the header (word 9, tnt-sct.md "Header"): the map
   * loads, and validation warns that every cell is under water. */
  saved = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (built), &error);
  g_assert_no_error (error);
  size = g_bytes_get_size (saved);
  data = g_memdup2 (g_bytes_get_data (saved, NULL), size);
  g_assert_cmpuint (size, >, 40);
  data[36] = 300 & 0xff;
  data[37] = 300 >> 8;
  patched = g_bytes_new_take (data, size);
  map = terrain_tnt_map_new_from_bytes (patched, NULL, &error);
  g_assert_no_error (error);
  ota = terrain_ota_file_new_from_bytes (ota_bytes, NULL, &error);
  g_assert_no_error (error);

  issues = terrain_tnt_lint (map, ota, NULL);
  g_assert_cmpuint (count_rule (issues, "ota.fields", TERRAIN_SEVERITY_WARNING), ==, 1);
  find_rule (issues, "ota.fields", "missiondescription, planet, numplayers");
  g_assert_cmpuint (count_rule (issues, "tnt.validate", TERRAIN_SEVERITY_WARNING), >=, 1);
  find_rule (issues, "tnt.validate", "sea level 300");
  g_assert_cmpuint (count_rule (issues, "ota.validate", TERRAIN_SEVERITY_WARNING), >=, 1);
  find_rule (issues, "ota.validate", "StartPos1 appears more than once");

  /* The map as built has no finding of validation. */
  g_clear_pointer (&issues, g_ptr_array_unref);
  issues = terrain_tnt_lint (built, NULL, NULL);
  g_assert_cmpuint (count_rule (issues, "tnt.validate", TERRAIN_SEVERITY_WARNING), ==, 0);
}

static void
test_sarif (void)
{
  g_autoptr(TerrainTntMap) map = make_map ();
  g_autoptr(TerrainOtaFile) ota = make_ota ();
  g_autoptr(GPtrArray) issues = terrain_tnt_lint (map, ota, NULL);
  g_autoptr(JsonNode) sarif = terrain_tnt_lint_to_sarif (issues, "maps/lint.tnt");
  JsonObject *root = json_node_get_object (sarif);
  JsonObject *run, *driver;
  JsonArray *results, *rules;

  g_assert_cmpstr (json_object_get_string_member (root, "version"), ==, "2.1.0");
  g_assert_true (g_str_has_suffix (json_object_get_string_member (root, "$schema"),
                                   "sarif-2.1.0.json"));
  run = json_array_get_object_element (json_object_get_array_member (root, "runs"), 0);
  driver = json_object_get_object_member (json_object_get_object_member (run, "tool"), "driver");
  rules = json_object_get_array_member (driver, "rules");
  g_assert_cmpuint (json_array_get_length (rules), ==,
                    g_strv_length ((char **) terrain_tnt_lint_get_rules ()));
  results = json_object_get_array_member (run, "results");
  g_assert_cmpuint (json_array_get_length (results), ==, issues->len);
  for (guint i = 0; i < issues->len; i++)
    {
      JsonObject *result = json_array_get_object_element (results, i);
      TerrainIssue *issue = g_ptr_array_index (issues, i);
      JsonObject *location = json_object_get_object_member (
        json_array_get_object_element (json_object_get_array_member (result, "locations"), 0),
        "physicalLocation");
      const char *level = json_object_get_string_member (result, "level");
      gint x, y;

      g_assert_cmpstr (json_object_get_string_member (result, "ruleId"), ==,
                       terrain_issue_get_rule (issue));
      g_assert_nonnull (terrain_tnt_lint_describe_rule (terrain_issue_get_rule (issue)));
      g_assert_true (g_str_equal (level, "error") || g_str_equal (level, "warning") ||
                     g_str_equal (level, "note"));
      g_assert_cmpstr (json_object_get_string_member (
                         json_object_get_object_member (location, "artifactLocation"), "uri"),
                       ==, "maps/lint.tnt");
      if (terrain_issue_get_position (issue, &x, &y))
        {
          JsonObject *cell = json_object_get_object_member (
            json_object_get_object_member (result, "properties"), "cell");

          g_assert_cmpint (json_object_get_int_member (cell, "x"), ==, x);
          g_assert_cmpint (json_object_get_int_member (cell, "y"), ==, y);
        }
    }
}

static void
test_cli (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = make_map ();
  g_autofree char *tnt_path = NULL;
  g_autofree char *folder = terrain_test_write_map_folder ("terrain-lint", map, "lint.tnt", "Lint.OTA",
                                                           ota_text, &tnt_path, NULL);
  g_autofree char *install = g_build_filename (folder, "install", NULL);
  g_autofree char *features = g_build_filename (install, "features", NULL);
  g_autofree char *tdf_path = g_build_filename (features, "metal.tdf", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();

  g_assert_cmpint (g_mkdir_with_parents (features, 0755), ==, 0);
  g_assert_true (g_file_set_contents (tdf_path, features_text, -1, &error));
  g_assert_no_error (error);

  /* Warnings only without the feature files: exit 1. */
  {
    g_auto(TerrainTestCliResult) result = terrain_test_run_cli (NULL, "tnt", "lint", tnt_path,
                                                                NULL);

    g_assert_cmpint (result.status, ==, 1);
    g_assert_nonnull (strstr (result.out, "[ota.start-passable]"));
    g_assert_nonnull (strstr (result.out, "no --archives"));
  }
  /* The missing feature is an error: exit 2, in SARIF too. */
  {
    g_auto(TerrainTestCliResult) result = terrain_test_run_cli (NULL, "tnt", "lint", "--sarif",
                                                                "--archives", install, tnt_path,
                                                                NULL);
    JsonObject *root;

    g_assert_cmpint (result.status, ==, 2);
    g_assert_true (json_parser_load_from_data (parser, result.out, -1, &error));
    g_assert_no_error (error);
    root = json_node_get_object (json_parser_get_root (parser));
    g_assert_cmpstr (json_object_get_string_member (root, "version"), ==, "2.1.0");
    g_assert_nonnull (strstr (result.out, "\"ruleId\" : \"tnt.feature-missing\""));
    g_assert_nonnull (strstr (result.out, "\"level\" : \"error\""));
  }
  {
    g_auto(TerrainTestCliResult) result = terrain_test_run_cli (NULL, "tnt", "lint", "--json",
                                                                tnt_path, NULL);

    g_assert_cmpint (result.status, ==, 1);
    g_assert_true (json_parser_load_from_data (parser, result.out, -1, &error));
    g_assert_no_error (error);
    g_assert_nonnull (strstr (result.out, "\"rule\" : \"tnt.void-islands\""));
  }
  {
    g_auto(TerrainTestCliResult) result = terrain_test_run_cli (NULL, "tnt", "lint", "--json",
                                                                "--sarif", tnt_path, NULL);

    g_assert_cmpint (result.status, ==, 64);
  }

  terrain_test_remove_tree (folder);
}

static void
test_corpus (void)
{
  const char *corpus = g_getenv ("TERRAIN_CORPUS_DIR");
  const char * const maps[] = { "ban", "bar" };

  /* Every corpus map passes lint without errors. */
  for (guint i = 0; i < G_N_ELEMENTS (maps); i++)
    {
      g_autofree char *name = g_strdup_printf ("%s.tnt", maps[i]);
      g_autofree char *path = g_build_filename (corpus, "ta", "maps", name, NULL);
      g_auto(TerrainTestCliResult) result = terrain_test_run_cli (NULL, "tnt", "lint", path, NULL);

      g_test_message ("%s", result.out);
      g_assert_cmpint (result.status, <=, 1);
      g_assert_null (strstr (result.out, " error: "));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/TntLint/rules", test_rules);
  g_test_add_func ("/Terrain/TntLint/validation-rules", test_validation_rules);
  g_test_add_func ("/Terrain/TntLint/sarif", test_sarif);
  g_test_add_func ("/Terrain/TntLint/cli", test_cli);
  terrain_test_add_corpus_func ("/Terrain/TntLint/corpus", test_corpus);

  return g_test_run ();
}
