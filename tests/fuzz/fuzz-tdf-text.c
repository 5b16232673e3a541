/* fuzz-tdf-text.c: libFuzzer harness for the TDF parser's two readers and
 * its recovery path
 *
 * A TDF document is read two ways (terrain-tdf-document-private.h): from
 * the kept text without a tree (what opening, validation and the feature
 * catalogue's first pass use), and from the tree built on first demand.
 * The tolerant parser (stray ';', stray statements, an unclosed last block:
 * the retail oddities TA itself skips) must give both the same answer. For
 * every input that parses:
 *   - walking the blocks through the text gives the same names, nesting,
 *     offsets and key values as walking the tree of a second copy;
 *   - the feature catalogue built from the same bytes gives every feature a
 *     footprint of at least 1 x 1, and every finding's message is UTF-8;
 *   - an unedited document rewrites byte-exact.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libterrain.h"
#include "ta/terrain-tdf-document-private.h"
#include "fuzz-limits.h"

/* Blocks compared per input: a small file may nest thousands. */
#define MAX_BLOCKS 512

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static void
fail (const char *what)
{
  g_printerr ("fuzz-tdf-text: %s\n", what);
  abort ();
}

/* Compares the block @ref of @text_doc (read from its text) with @section
 * of the tree, then their children, depth first. */
static void
compare_block (TerrainTdfDocument *text_doc,
               const TerrainTdfRef *ref,
               TerrainTdfSection  *section,
               guint              *budget)
{
  gsize cursor = 0;
  guint n = terrain_tdf_section_get_n_sections (section);
  guint i = 0;
  TerrainTdfRef child;

  if (*budget == 0)
    return;
  (*budget)--;

  if (ref->depth > 0)
    {
      g_auto(TerrainTdfText) name = { { 0 }, NULL };
      const char *text_name = terrain_tdf_ref_get_name (text_doc, ref, &name);

      if (g_strcmp0 (text_name, terrain_tdf_section_get_name (section)) != 0)
        fail ("a block's name read from the text differs from the tree's");
      if (terrain_tdf_ref_get_offset (ref) != terrain_tdf_section_get_offset (section))
        fail ("a block's offset read from the text differs from the tree's");
    }

  for (guint k = 0; k < terrain_tdf_section_get_n_keys (section); k++)
    {
      g_auto(TerrainTdfText) value = { { 0 }, NULL };
      const char *key = terrain_tdf_section_get_key (section, k);
      const char *from_text = terrain_tdf_ref_get_value (text_doc, ref, key, &value);
      gint64 a = 0, b = 0;
      gboolean has_a, has_b;

      if (g_strcmp0 (from_text, terrain_tdf_section_get_value (section, key)) != 0)
        fail ("a key's value read from the text differs from the tree's");
      has_a = terrain_tdf_ref_get_int (text_doc, ref, key, &a);
      has_b = terrain_tdf_section_get_int (section, key, &b);
      if (has_a != has_b || a != b)
        fail ("a key's integer read from the text differs from the tree's");
    }

  while (terrain_tdf_ref_next_section (text_doc, ref, &cursor, &child))
    {
      if (i >= n)
        fail ("the text holds more blocks than the tree");
      if (child.section != NULL)
        fail ("the text reader built a tree");
      compare_block (text_doc, &child, terrain_tdf_section_get_section (section, i), budget);
      i++;
    }
  if (i != n && *budget > 0)
    fail ("the tree holds more blocks than the text");
}

static void
check_catalog (GBytes *bytes)
{
  g_autoptr(TerrainFeatureCatalog) catalog = terrain_feature_catalog_new ();
  g_autoptr(GError) error = NULL;
  GPtrArray *issues;

  if (!terrain_feature_catalog_add_bytes (catalog, bytes, "fuzz.tdf", fuzz_limits (), &error))
    fail ("the catalogue refused a TDF that parses");

  for (guint i = 0; i < terrain_feature_catalog_get_n_features (catalog) && i < MAX_BLOCKS; i++)
    {
      TerrainFeatureDefinition *definition = terrain_feature_catalog_get_feature (catalog, i);
      guint fx = 0, fz = 0;

      terrain_feature_definition_get_footprint (definition, &fx, &fz);
      if (fx < 1 || fz < 1)
        fail ("a feature has a footprint under 1 x 1");
      if (terrain_feature_catalog_lookup (catalog, terrain_feature_definition_get_name (definition)) == NULL)
        fail ("a feature is not found by its own name");
    }

  issues = terrain_feature_catalog_get_issues (catalog);
  for (guint i = 0; i < issues->len; i++)
    if (!g_utf8_validate (terrain_issue_get_message (g_ptr_array_index (issues, i)), -1, NULL))
      fail ("a catalogue finding is not UTF-8");
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) text_doc = NULL;
  g_autoptr(TerrainDocument) tree_doc = NULL;
  g_autoptr(GBytes) written = NULL;
  TerrainFormat format = terrain_format_from_name ("tdf");
  TerrainTdfRef root;
  guint budget = MAX_BLOCKS;

  text_doc = terrain_document_load_bytes (bytes, NULL, format, fuzz_limits (), &error);
  if (text_doc == NULL)
    {
      if (error == NULL || error->domain != TERRAIN_ERROR)
        abort ();
      return 0;
    }
  tree_doc = terrain_document_load_bytes (bytes, NULL, format, fuzz_limits (), &error);
  if (tree_doc == NULL)
    fail ("a TDF that parsed once does not parse again");

  terrain_tdf_document_get_root_ref (TERRAIN_TDF_DOCUMENT (text_doc), &root);
  if (root.section != NULL)
    fail ("opening built the tree");
  compare_block (TERRAIN_TDF_DOCUMENT (text_doc), &root,
                 terrain_tdf_document_get_root (TERRAIN_TDF_DOCUMENT (tree_doc)), &budget);

  written = terrain_document_save_to_bytes (tree_doc, &error);
  if (written == NULL || !g_bytes_equal (written, bytes))
    fail ("an unedited TDF does not rewrite byte-exact");

  check_catalog (bytes);
  return 0;
}
