/* test-malformed.c: the malformed-input set, one test per file
 *
 * tests/malformed/<harness>/ holds, per parser (the names of the fuzzing
 * harnesses in tests/fuzz/), files kept apart by what must happen to them,
 * as json-glib's conformance tests do:
 *   - valid/NAME: loads, validates, writes back byte-exact and loads again
 *     to the same description (for images: decodes, and a PNG re-encodes to
 *     the same pixels);
 *   - invalid/NAME: fails with a TERRAIN_ERROR, never crashes nor warns;
 *   - invalid/<code>/NAME: fails with that TerrainError code (its nick:
 *     truncated, bad-magic, limit-exceeded, ...). limit-exceeded files are
 *     small files that declare huge counts; they must be refused before
 *     anything is allocated, so in well under a second.
 * Crashes found by fuzzing are kept here as regression files.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "libterrain.h"
#include "core/terrain-format-private.h"
#include "core/terrain-image-private.h"

/* A limit-exceeded file is rejected while reading its header; even under
 * valgrind that is far below this. */
#define LIMIT_REJECT_SECONDS 2.0

typedef struct
{
  char *harness;       /* tnt, png, palette, ... */
  char *path;
  gboolean valid;
  int code;            /* expected TerrainError, or -1 for any */
} Case;

static void
case_free (gpointer data)
{
  Case *c = data;

  g_free (c->harness);
  g_free (c->path);
  g_free (c);
}

static GBytes *
read_case (const Case *c)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_file_get_contents (c->path, &contents, &length, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (g_steal_pointer (&contents), length);
}

/* What `terrain info --json` prints is JSON: UTF-8, no NaN, and it parses. */
static void
assert_json (JsonNode *node)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) parsed = NULL;
  g_autofree char *text = json_to_string (node, FALSE);

  g_assert_true (g_utf8_validate (text, -1, NULL));
  parsed = json_from_string (text, &error);
  g_assert_no_error (error);
  g_assert_nonnull (parsed);
}

/* Loads with the harness's parser; returns FALSE with @error set on failure.
 * What loads is also checked as valid/ requires. */
static gboolean
load_case (const Case  *c,
           GBytes      *bytes,
           GError     **error)
{
  TerrainFormat format = terrain_format_from_name (c->harness);

  if (format != TERRAIN_FORMAT_UNKNOWN)
    {
      g_autoptr(TerrainDocument) document = NULL;
      g_autoptr(TerrainDocument) again = NULL;
      g_autoptr(GBytes) written = NULL;
      g_autoptr(GPtrArray) issues = NULL;
      g_autoptr(JsonNode) first = NULL;
      g_autoptr(JsonNode) second = NULL;
      g_autoptr(GError) local = NULL;

      document = terrain_document_load_bytes (bytes, NULL, format, NULL, error);
      if (document == NULL)
        return FALSE;
      issues = terrain_document_validate (document);
      first = terrain_document_describe (document);
      written = terrain_document_save_to_bytes (document, &local);
      g_assert_no_error (local);
      if (!g_bytes_equal (written, bytes))
        {
          g_autofree char *section = NULL;
          gsize offset = 0;

          terrain_document_compare_bytes (document, written, &offset, &section);
          g_error ("%s: the round trip differs at byte offset %" G_GSIZE_FORMAT " (%s)",
                   c->path, offset, section);
        }
      again = terrain_document_load_bytes (written, NULL, format, NULL, &local);
      g_assert_no_error (local);
      second = terrain_document_describe (again);
      g_assert_true (json_node_equal (first, second));
      assert_json (first);
      return TRUE;
    }

  if (g_str_equal (c->harness, "png"))
    {
      g_autoptr(TerrainImage) image = terrain_image_load_png_bytes (bytes, error);
      g_autoptr(TerrainImage) again = NULL;
      g_autoptr(GBytes) written = NULL;
      g_autoptr(GError) local = NULL;
      gsize size = 0, again_size = 0;
      const guint8 *pixels, *again_pixels;

      if (image == NULL)
        return FALSE;
      written = terrain_image_save_png_bytes (image, &local);
      g_assert_no_error (local);
      again = terrain_image_load_png_bytes (written, &local);
      g_assert_no_error (local);
      g_assert_cmpint (terrain_image_get_format (again), ==, terrain_image_get_format (image));
      pixels = terrain_image_get_data (image, &size);
      again_pixels = terrain_image_get_data (again, &again_size);
      g_assert_cmpmem (pixels, size, again_pixels, again_size);
      return TRUE;
    }

  if (g_str_equal (c->harness, "jpeg") || g_str_equal (c->harness, "dds"))
    {
      guint8 kind = g_str_equal (c->harness, "jpeg") ? TERRAIN_ATLAS_TEXTURE_JPEG
                                                     : TERRAIN_ATLAS_TEXTURE_DDS;
      g_autoptr(TerrainAtlasTexture) texture = terrain_atlas_texture_new (kind, bytes);
      g_autoptr(TerrainImage) image = NULL;
      guint width = 0, height = 0;

      if (!terrain_atlas_texture_get_size (texture, &width, &height, error))
        return FALSE;
      image = terrain_atlas_texture_decode (texture, TERRAIN_ATLAS_CHANNELS_RGB, NULL, error);
      if (image == NULL)
        return FALSE;
      g_assert_cmpuint (terrain_image_get_width (image), ==, width);
      g_assert_cmpuint (terrain_image_get_height (image), ==, height);
      return TRUE;
    }

  if (g_str_equal (c->harness, "palette"))
    {
      g_autoptr(TerrainPalette) palette = terrain_palette_new_from_bytes (bytes, error);
      g_autoptr(TerrainPalette) again = NULL;
      g_autoptr(GBytes) written = NULL;
      g_autoptr(GError) local = NULL;

      if (palette == NULL)
        return FALSE;
      written = terrain_palette_to_pal_bytes (palette);
      if (g_bytes_get_size (bytes) == 1024)
        g_assert_true (g_bytes_equal (written, bytes));
      again = terrain_palette_new_from_bytes (written, &local);
      g_assert_no_error (local);
      g_assert_cmpmem (terrain_palette_get_rgba_table (palette), 1024,
                       terrain_palette_get_rgba_table (again), 1024);
      return TRUE;
    }

  g_error ("%s: no parser is called %s", c->path, c->harness);
  return FALSE;
}

static const char *
nick_from_code (int code)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (TERRAIN_TYPE_ERROR);
  GEnumValue *value = g_enum_get_value (klass, code);

  /* Nicks are static strings of a static type. */
  return value != NULL ? value->value_nick : "unknown-code";
}

static int
code_from_nick (const char *nick)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (TERRAIN_TYPE_ERROR);
  GEnumValue *value = g_enum_get_value_by_nick (klass, nick);

  if (value == NULL)
    g_error ("tests/malformed: %s is not a TerrainError nick", nick);
  return value->value;
}

static void
test_valid (gconstpointer data)
{
  const Case *c = data;
  g_autoptr(GBytes) bytes = read_case (c);
  g_autoptr(GError) error = NULL;

  load_case (c, bytes, &error);
  g_assert_no_error (error);
}

static void
test_invalid (gconstpointer data)
{
  const Case *c = data;
  g_autoptr(GBytes) bytes = read_case (c);
  g_autoptr(GError) error = NULL;
  gdouble seconds;

  g_test_timer_start ();
  g_assert_false (load_case (c, bytes, &error));
  seconds = g_test_timer_elapsed ();

  g_assert_nonnull (error);
  if (error->domain != TERRAIN_ERROR)
    g_error ("%s: %s error instead of a TERRAIN_ERROR: %s", c->path,
             g_quark_to_string (error->domain), error->message);
  /* Messages quote names from files; they must still be UTF-8, from
   * terrain_document_load_bytes() and from the format's own constructor
   * (what bindings call) alike. */
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  if (terrain_format_from_name (c->harness) != TERRAIN_FORMAT_UNKNOWN)
    {
      g_autoptr(TerrainDocument) document = NULL;
      g_autoptr(GError) direct = NULL;

      document = terrain_format_load (terrain_format_from_name (c->harness), bytes, NULL, &direct);
      g_assert_null (document);
      g_assert_nonnull (direct);
      g_assert_true (g_utf8_validate (direct->message, -1, NULL));
    }
  g_test_message ("%s in %.6f s: %s", nick_from_code (error->code), seconds, error->message);
  if (c->code >= 0)
    g_assert_error (error, TERRAIN_ERROR, c->code);
  if (c->code == TERRAIN_ERROR_LIMIT_EXCEEDED)
    g_assert_cmpfloat (seconds, <, LIMIT_REJECT_SECONDS);
}

/* Truncation messages say the section first, then what and where, then
 * why ("SECTION: what at byte offset N: why"), also when a body without a
 * length field is cut where its trailer would be read. */
static void
test_truncation_messages (void)
{
  static const struct
  {
    const char *harness;
    const char *file;
    const char *prefix;
  } cases[] = {
    { "floor-height", "cut-1000.fhd", "FloorHeightData: truncated at byte offset 1000: the body "
      "ends inside its blocks" },
    { "floor-height", "blocks-missing.fhd", "FloorHeightData: truncated at byte offset 68: the "
      "trailer's dimensions 8x8" },
    { "floor-height", "cut-1.fhd", "FloorHeightData: truncated at byte offset 1: " },
    { "node-layer", "cut-500.tnl", "TerrainNodeLayer: node items and trailing count at byte "
      "offset 5 are truncated: the count 40 at byte offset 1 needs 1004 bytes, only 495 remain" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "malformed", cases[i].harness,
                                                     "invalid", "truncated", cases[i].file, NULL);
      g_autoptr(GError) error = NULL;
      g_autofree char *contents = NULL;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(TerrainDocument) document = NULL;
      gsize length = 0;

      g_assert_true (g_file_get_contents (path, &contents, &length, &error));
      bytes = g_bytes_new_take (g_steal_pointer (&contents), length);
      document = terrain_document_load_bytes (bytes, NULL,
                                              terrain_format_from_name (cases[i].harness), NULL,
                                              &error);
      g_assert_null (document);
      g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message, cases[i].prefix));
    }
}

/* Sorted, so that test numbers do not depend on the file system. */
static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
add_folder (const char *harness,
            const char *folder,
            gboolean    valid,
            int         code)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      const char *entry = names->pdata[i];
      g_autofree char *path = g_build_filename (folder, entry, NULL);
      g_autofree char *test_path = NULL;
      Case *c;

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          if (!valid && code < 0)
            add_folder (harness, path, FALSE, code_from_nick (entry));
          continue;
        }
      if (entry[0] == '.' || g_str_has_suffix (entry, ".md"))
        continue;

      c = g_new0 (Case, 1);
      c->harness = g_strdup (harness);
      c->path = g_steal_pointer (&path);
      c->valid = valid;
      c->code = code;

      if (valid)
        test_path = g_strdup_printf ("/Terrain/Malformed/%s/valid/%s", harness, entry);
      else if (code >= 0)
        {
          g_autofree char *nick = g_path_get_basename (folder);

          test_path = g_strdup_printf ("/Terrain/Malformed/%s/invalid/%s/%s", harness, nick,
                                       entry);
        }
      else
        test_path = g_strdup_printf ("/Terrain/Malformed/%s/invalid/%s", harness, entry);
      g_test_add_data_func_full (test_path, c, valid ? test_valid : test_invalid, case_free);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *root = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) harnesses = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_test_init (&argc, &argv, NULL);

  root = g_test_build_filename (G_TEST_DIST, "malformed", NULL);
  dir = g_dir_open (root, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (harnesses, g_strdup (name));
  g_ptr_array_sort (harnesses, compare_names);

  for (guint i = 0; i < harnesses->len; i++)
    {
      const char *harness = harnesses->pdata[i];
      g_autofree char *folder = g_build_filename (root, harness, NULL);
      g_autofree char *valid = g_build_filename (folder, "valid", NULL);
      g_autofree char *invalid = g_build_filename (folder, "invalid", NULL);

      if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
        continue;
      add_folder (harness, valid, TRUE, -1);
      add_folder (harness, invalid, FALSE, -1);
    }

  g_test_add_func ("/Terrain/Malformed/truncation-messages", test_truncation_messages);

  return g_test_run ();
}
