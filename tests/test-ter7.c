/* test-ter7.c: Torque3D terrain (.ter TerrainFile version 7): reading,
 * byte-exact rewriting, height, layer and material edits, the heightfield
 * both ways, and the real sample ../shared/samples/torque3d/Outpost_0.ter
 * read, rewritten and built into an Atlas file.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "libterrain.h"
#include "terrain-test-util.h"

#define SIDE 4

/* A 300-byte name takes the 255 + U16 length form. */
static char *
long_name (void)
{
  char *name = g_malloc (301);

  memset (name, 'r', 300);
  name[300] = '\0';
  return name;
}

/* A 4 x 4 terrain, heights 100 × (y × 4 + x) + 7, layers x % 2 with a hole at
 * (3, 3), materials "grass" and a 300-byte name, then @trailing bytes. */
static GBytes *
build_fixture (gsize trailing)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autofree char *name = long_name ();
  guint8 u32[4], u16[2], b;

  b = 7;
  g_byte_array_append (out, &b, 1);
  u32[0] = SIDE; u32[1] = u32[2] = u32[3] = 0;
  g_byte_array_append (out, u32, 4);
  for (guint i = 0; i < SIDE * SIDE; i++)
    {
      guint v = 100 * i + 7;

      u16[0] = v & 0xFF;
      u16[1] = v >> 8;
      g_byte_array_append (out, u16, 2);
    }
  for (guint i = 0; i < SIDE * SIDE; i++)
    {
      b = i == SIDE * SIDE - 1 ? 255 : (guint8) (i % 2);
      g_byte_array_append (out, &b, 1);
    }
  u32[0] = 2;
  g_byte_array_append (out, u32, 4);
  b = 5;
  g_byte_array_append (out, &b, 1);
  g_byte_array_append (out, (const guint8 *) "grass", 5);
  b = 255;
  g_byte_array_append (out, &b, 1);
  u16[0] = 300 & 0xFF;
  u16[1] = 300 >> 8;
  g_byte_array_append (out, u16, 2);
  g_byte_array_append (out, (const guint8 *) name, 300);
  for (gsize i = 0; i < trailing; i++)
    {
      b = (guint8) (0xA0 + i);
      g_byte_array_append (out, &b, 1);
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

#define NAMES_AT (1 + 4 + 3 * SIDE * SIDE)

static void
test_read (void)
{
  g_autoptr(GBytes) bytes = build_fixture (0);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTer7File) ter = terrain_ter7_file_new_from_bytes (bytes, NULL, &error);
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autofree char *name = long_name ();
  gsize offset, size;
  gboolean any;

  g_assert_no_error (error);
  g_assert_cmpuint (terrain_ter7_file_get_size (ter), ==, SIDE);
  g_assert_cmpuint (terrain_ter7_file_get_height (ter, 2, 1), ==, 100 * 6 + 7);
  g_assert_cmpuint (terrain_ter7_file_get_layer (ter, 1, 0), ==, 1);
  g_assert_cmpuint (terrain_ter7_file_get_layer (ter, 3, 3), ==, TERRAIN_TER7_EMPTY_LAYER);
  g_assert_cmpuint (terrain_ter7_file_get_n_materials (ter), ==, 2);
  g_assert_cmpstr (terrain_ter7_file_get_material_name (ter, 0), ==, "grass");
  g_assert_cmpstr (terrain_ter7_file_get_material_name (ter, 1), ==, name);

  g_assert_true (terrain_ter7_file_get_section_span (ter, TERRAIN_TER7_SECTION_HEIGHTS,
                                                     &offset, &size));
  g_assert_cmpuint (offset, ==, 5);
  g_assert_cmpuint (size, ==, 2 * SIDE * SIDE);
  g_assert_true (terrain_ter7_file_get_section_span (ter, TERRAIN_TER7_SECTION_MATERIAL_NAMES,
                                                     &offset, &size));
  g_assert_cmpuint (offset, ==, NAMES_AT);
  g_assert_cmpuint (size, ==, 4 + 6 + 303);
  g_assert_false (terrain_ter7_file_get_section_span (ter, TERRAIN_TER7_SECTION_TRAILING,
                                                      NULL, NULL));

  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ter), &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (bytes, written);

  issues = terrain_document_validate (TERRAIN_DOCUMENT (ter));
  g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_INFO);
}

static void
test_registry (void)
{
  g_autoptr(GBytes) bytes = build_fixture (3);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(JsonNode) info = NULL;
  JsonObject *object;
  gboolean any;

  /* Legacy and Torque3D terrains share the extension and the format name;
   * the version byte picks the class. */
  g_assert_cmpint (terrain_format_detect (bytes, "hills.ter"), ==, TERRAIN_FORMAT_TER);
  document = terrain_document_load_bytes (bytes, "hills.ter", TERRAIN_FORMAT_UNKNOWN, NULL,
                                          &error);
  g_assert_no_error (error);
  g_assert_true (TERRAIN_IS_TER7_FILE (document));

  /* Trailing bytes are kept, and warned about. */
  written = terrain_document_save_to_bytes (document, &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (bytes, written);
  issues = terrain_document_validate (document);
  g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_WARNING);

  info = terrain_document_describe (document);
  object = json_node_get_object (info);
  g_assert_cmpint (json_object_get_int_member (object, "version"), ==, 7);
  g_assert_cmpint (json_object_get_int_member (object, "size"), ==, SIDE);
  g_assert_cmpint (json_object_get_int_member (object, "holes"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (object, "max_height"), ==, 100 * 15 + 7);

  /* As a height source: metres = value / 32, squareSize 1 by default. */
  field = terrain_heightfield_new_from_bytes (bytes, "hills.ter", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_heightfield_get_width (field), ==, SIDE + 1);
  g_assert_cmpfloat (terrain_heightfield_get_spacing (field), ==, 1.0);
  g_assert_cmpfloat (terrain_heightfield_get_sample (field, 2, SIDE - 1), ==,
                     (100 * (1 * SIDE + 2) + 7) / 32.0f);
}

static void
test_edits (void)
{
  g_autoptr(GBytes) bytes = build_fixture (2);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTer7File) ter = terrain_ter7_file_new_from_bytes (bytes, NULL, &error);
  g_autoptr(TerrainTer7File) again = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autofree char *huge = g_malloc0 (70000);
  const guint8 *a, *b;
  gsize a_len, b_len;
  guint differ = 0, index = 0;

  g_assert_no_error (error);

  /* A height and a layer: only their bytes change. */
  terrain_ter7_file_set_height (ter, 1, 2, 0xBEEF);
  terrain_ter7_file_set_layer (ter, 3, 0, TERRAIN_TER7_EMPTY_LAYER);
  g_assert_true (terrain_document_get_modified (TERRAIN_DOCUMENT (ter)));
  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ter), &error);
  g_assert_no_error (error);
  a = g_bytes_get_data (bytes, &a_len);
  b = g_bytes_get_data (written, &b_len);
  g_assert_cmpuint (a_len, ==, b_len);
  for (gsize i = 0; i < a_len; i++)
    if (a[i] != b[i])
      {
        g_assert_true (i == 5 + 2 * (2 * SIDE + 1) || i == 5 + 2 * (2 * SIDE + 1) + 1 ||
                       i == 5 + 2 * SIDE * SIDE + 3);
        differ++;
      }
  g_assert_cmpuint (differ, ==, 3);

  /* A renamed and an added material rewrite the names block only; the
   * trailing bytes follow it as they were. */
  g_assert_true (terrain_ter7_file_set_material_name (ter, 0, "sand", &error));
  g_assert_true (terrain_ter7_file_add_material (ter, "rock", &index, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (index, ==, 2);
  memset (huge, 'x', 69999);
  g_assert_false (terrain_ter7_file_set_material_name (ter, 1, huge, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  terrain_ter7_file_set_layer (ter, 0, 0, (guint8) index);

  g_clear_pointer (&written, g_bytes_unref);
  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ter), &error);
  g_assert_no_error (error);
  b = g_bytes_get_data (written, &b_len);
  g_assert_cmpuint (b_len, ==, a_len - 1 + 5);
  g_assert_cmpmem (b + NAMES_AT, 10, "\x03\0\0\0\x04sand\xff", 10);
  g_assert_cmpmem (b + b_len - 7, 7, "\x04rock\xa0\xa1", 7);

  again = terrain_ter7_file_new_from_bytes (written, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_ter7_file_get_height (again, 1, 2), ==, 0xBEEF);
  g_assert_cmpuint (terrain_ter7_file_get_layer (again, 0, 0), ==, 2);
  g_assert_cmpuint (terrain_ter7_file_get_layer (again, 3, 0), ==, TERRAIN_TER7_EMPTY_LAYER);
  g_assert_cmpuint (terrain_ter7_file_get_n_materials (again), ==, 3);
  g_assert_cmpstr (terrain_ter7_file_get_material_name (again, 0), ==, "sand");
  g_assert_cmpuint (strlen (terrain_ter7_file_get_material_name (again, 1)), ==, 300);
  g_assert_cmpstr (terrain_ter7_file_get_material_name (again, 2), ==, "rock");
  g_assert_cmpuint (terrain_ter7_file_get_height (again, 0, 0), ==, 7);
}

static void
test_bad_files (void)
{
  g_autoptr(GBytes) bytes = build_fixture (0);
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  g_autoptr(TerrainLimits) limits = terrain_limits_new ();

  /* Every cut is an error naming where the file ends. */
  for (gsize cut = 0; cut < size; cut++)
    {
      g_autoptr(GBytes) part = g_bytes_new_from_bytes (bytes, 0, cut);
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainTer7File) ter = terrain_ter7_file_new_from_bytes (part, NULL, &error);

      g_assert_null (ter);
      g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
      g_assert_nonnull (strstr (error->message, "TER7"));
    }

  {
    g_autofree guint8 *copy = g_memdup2 (data, size);
    g_autoptr(GBytes) changed = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainTer7File) ter = NULL;

    copy[0] = 6;
    changed = g_bytes_new (copy, size);
    ter = terrain_ter7_file_new_from_bytes (changed, NULL, &error);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNSUPPORTED_VERSION);
    g_clear_error (&error);
    g_clear_pointer (&changed, g_bytes_unref);

    copy[0] = 7;
    memset (copy + 1, 0, 4);
    changed = g_bytes_new (copy, size);
    ter = terrain_ter7_file_new_from_bytes (changed, NULL, &error);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    g_clear_error (&error);
    g_clear_pointer (&changed, g_bytes_unref);

    /* A side past the limits is refused before the maps are looked for. */
    memset (copy + 1, 0xFF, 4);
    changed = g_bytes_new (copy, size);
    ter = terrain_ter7_file_new_from_bytes (changed, NULL, &error);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
    g_clear_error (&error);
    g_clear_pointer (&changed, g_bytes_unref);

    limits->max_cells_per_side = 2;
    ter = terrain_ter7_file_new_from_bytes (bytes, limits, &error);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED);
    g_clear_error (&error);

    /* A material count no bytes could hold. */
    memcpy (copy, data, size);
    memset (copy + NAMES_AT, 0xFF, 4);
    changed = g_bytes_new (copy, size);
    ter = terrain_ter7_file_new_from_bytes (changed, NULL, &error);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED);
    g_assert_nonnull (strstr (error->message, "material names"));
  }

  /* A layer with no material, and a side that is not a power of two. */
  {
    g_autofree guint8 *copy = g_memdup2 (data, size);
    g_autoptr(GBytes) changed = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(TerrainTer7File) ter = NULL;
    g_autoptr(GPtrArray) issues = NULL;
    gboolean any;

    copy[5 + 2 * SIDE * SIDE + 6] = 9;
    changed = g_bytes_new (copy, size);
    ter = terrain_ter7_file_new_from_bytes (changed, NULL, &error);
    g_assert_no_error (error);
    issues = terrain_document_validate (TERRAIN_DOCUMENT (ter));
    g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_WARNING);
    g_assert_cmpuint (issues->len, ==, 1);
    g_assert_cmpint (terrain_issue_get_offset (g_ptr_array_index (issues, 0)), ==,
                     5 + 2 * SIDE * SIDE + 6);
  }
}

static void
test_heightfield_round_trip (void)
{
  g_autoptr(GBytes) bytes = build_fixture (0);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTer7File) ter = terrain_ter7_file_new_from_bytes (bytes, NULL, &error);
  g_autoptr(TerrainTer7File) back = NULL;
  g_autoptr(TerrainTer7File) padded = NULL;
  g_autoptr(TerrainTer7File) none = NULL;
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(TerrainHeightfield) odd = NULL;
  const char *materials[] = { "grass", NULL };

  g_assert_no_error (error);
  field = terrain_ter7_file_to_heightfield (ter, 2.0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_heightfield_get_width (field), ==, SIDE + 1);
  g_assert_cmpfloat (terrain_heightfield_get_spacing (field), ==, 2.0);
  /* North up; the north row and east column wrap to the first samples. */
  g_assert_cmpfloat (terrain_heightfield_get_sample (field, 0, SIDE), ==, 7 / 32.0f);
  g_assert_cmpfloat (terrain_heightfield_get_sample (field, 0, 0), ==, 7 / 32.0f);
  g_assert_cmpfloat (terrain_heightfield_get_sample (field, SIDE, 1), ==,
                     terrain_heightfield_get_sample (field, 0, 1));
  g_assert_cmpfloat (terrain_heightfield_get_sample (field, 1, 1), ==,
                     (100 * ((SIDE - 1) * SIDE + 1) + 7) / 32.0f);

  /* And back: the (N+1) field gives the same N x N heights. */
  back = terrain_ter7_file_new_from_heightfield (field, 0.0, materials, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_ter7_file_get_size (back), ==, SIDE);
  for (guint y = 0; y < SIDE; y++)
    for (guint x = 0; x < SIDE; x++)
      {
        g_assert_cmpuint (terrain_ter7_file_get_height (back, x, y), ==,
                          terrain_ter7_file_get_height (ter, x, y));
        g_assert_cmpuint (terrain_ter7_file_get_layer (back, x, y), ==, 0);
      }
  g_assert_cmpstr (terrain_ter7_file_get_material_name (back, 0), ==, "grass");

  /* A 3 x 2 field is padded to 4 x 4, its south row and east column
   * repeated; metres − offset, × 32. */
  {
    const gfloat heights[] = { 10, 11, 12,
                               20, 21, 22.5 };

    odd = terrain_heightfield_new_from_data (3, 2, heights, 1.0, &error);
    g_assert_no_error (error);
  }
  padded = terrain_ter7_file_new_from_heightfield (odd, 5.0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_ter7_file_get_size (padded), ==, 4);
  g_assert_cmpuint (terrain_ter7_file_get_n_materials (padded), ==, 0);
  g_assert_cmpuint (terrain_ter7_file_get_height (padded, 0, 3), ==, 5 * 32);
  g_assert_cmpuint (terrain_ter7_file_get_height (padded, 2, 2), ==, 17.5 * 32);
  g_assert_cmpuint (terrain_ter7_file_get_height (padded, 3, 0), ==, 17.5 * 32);
  g_assert_cmpuint (terrain_ter7_file_get_height (padded, 1, 1), ==, 16 * 32);

  /* Heights the fixed point cannot hold above the offset. */
  none = terrain_ter7_file_new_from_heightfield (odd, 11.0, NULL, &error);
  g_assert_null (none);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
  g_clear_error (&error);
  none = terrain_ter7_file_new_from_heightfield (odd, -3000.0, NULL, &error);
  g_assert_null (none);
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
}

/* terrain convert-heightmap IN OUT.ter: any height source to Torque3D. */
static void
test_cli_convert (void)
{
  g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-ter7");
  g_autofree char *in = g_build_filename (dir, "in.ter", NULL);
  g_autofree char *out = g_build_filename (dir, "out.ter", NULL);
  g_autofree char *png = g_build_filename (dir, "out.png", NULL);
  g_autoptr(GBytes) bytes = build_fixture (0);
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTer7File) ter = NULL;

  terrain_test_write_bytes (in, bytes);
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "convert-heightmap", in, out, "--material", "grass",
                            "--material", "rock", NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "Torque3D terrain of 4 x 4 samples"));
  }
  written = terrain_test_read_bytes (out);
  ter = terrain_ter7_file_new_from_bytes (written, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_ter7_file_get_n_materials (ter), ==, 2);
  g_assert_cmpstr (terrain_ter7_file_get_material_name (ter, 1), ==, "rock");
  g_assert_cmpmem (g_bytes_get_data (written, NULL), 5 + 2 * SIDE * SIDE,
                   g_bytes_get_data (bytes, NULL), 5 + 2 * SIDE * SIDE);

  /* A .ter's unit is fixed, and materials belong to .ter only. */
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "convert-heightmap", in, out, "--out-scale", "2", NULL);

    g_assert_cmpint (r.status, ==, 64);
  }
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "convert-heightmap", in, png, "--material", "grass", NULL);

    g_assert_cmpint (r.status, ==, 64);
  }
  /* Heights above 2048 m over the offset are refused, naming the range. */
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "convert-heightmap", in, out, "--vertical-scale", "1000",
                            NULL);

    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "2047.97"));
  }

  terrain_test_remove_tree (dir);
}

/* TerrainTer7Edit: a rectangle of heights or layers, undone through a
 * command stack back to the source bytes. */
static void
test_edit_commands (void)
{
  g_autoptr(GBytes) bytes = build_fixture (2);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTer7File) ter = terrain_ter7_file_new_from_bytes (bytes, NULL, &error);
  g_autoptr(TerrainCommandStack) stack = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(TerrainCommand) raise = NULL;
  g_autoptr(TerrainCommand) hole = NULL;
  g_autoptr(TerrainCommand) outside = NULL;
  g_autoptr(TerrainCommand) unnamed = NULL;
  TerrainCommand *edit;
  const guint8 *data;

  g_assert_no_error (error);
  stack = terrain_command_stack_new (TERRAIN_DOCUMENT (ter));
  edit = raise = terrain_ter7_edit_new_set_height (ter, 1, 2, 2, 2, 320);
  g_assert_true (terrain_command_stack_execute (stack, edit, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (terrain_ter7_edit_get_report (TERRAIN_TER7_EDIT (edit)), ==,
                   "set 4 of 4 samples at 1,2 to 10 m");
  g_assert_cmpuint (terrain_ter7_file_get_height (ter, 1, 2), ==, 320);
  g_assert_cmpuint (terrain_ter7_file_get_height (ter, 2, 3), ==, 320);
  g_assert_cmpuint (terrain_ter7_file_get_height (ter, 0, 2), ==, 100 * 8 + 7);
  g_assert_cmpuint (terrain_ter7_file_get_height (ter, 3, 3), ==, 100 * 15 + 7);

  edit = hole = terrain_ter7_edit_new_paint (ter, 2, 3, 2, 1, TERRAIN_TER7_EMPTY_LAYER);
  g_assert_true (terrain_command_stack_execute (stack, edit, &error));
  g_assert_cmpstr (terrain_ter7_edit_get_report (TERRAIN_TER7_EDIT (edit)), ==,
                   "made 1 of 2 samples at 2,3 holes");
  g_assert_cmpuint (terrain_ter7_file_get_layer (ter, 2, 3), ==, 255);

  /* Only the edited samples' bytes change. */
  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ter), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (written), ==, g_bytes_get_size (bytes));
  data = g_bytes_get_data (bytes, NULL);
  for (gsize i = 0; i < g_bytes_get_size (bytes); i++)
    {
      gsize sample = i >= 5 && i < 5 + 2 * SIDE * SIDE ? (i - 5) / 2
                     : i >= 5 + 2 * SIDE * SIDE && i < NAMES_AT ? i - 5 - 2 * SIDE * SIDE
                     : G_MAXSIZE;
      gboolean height = i < 5 + 2 * SIDE * SIDE;
      gboolean edited = sample != G_MAXSIZE &&
                        (height ? (sample / SIDE >= 2 && sample % SIDE >= 1 && sample % SIDE <= 2)
                                : sample == 3 * SIDE + 2);

      if (!edited)
        g_assert_cmpuint (((const guint8 *) g_bytes_get_data (written, NULL))[i], ==, data[i]);
    }

  /* Outside the map, and a material the file does not name: refused. */
  edit = outside = terrain_ter7_edit_new_set_height (ter, 3, 0, 2, 1, 0);
  g_assert_false (terrain_command_stack_execute (stack, edit, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  edit = unnamed = terrain_ter7_edit_new_paint (ter, 0, 0, 1, 1, 2);
  g_assert_false (terrain_command_stack_execute (stack, edit, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
  g_clear_error (&error);

  g_assert_true (terrain_command_stack_undo (stack));
  g_assert_true (terrain_command_stack_undo (stack));
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (ter)));
  g_clear_pointer (&written, g_bytes_unref);
  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ter), &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (bytes, written);
}

/* Dabs of one stroke are one undo step: undo restores the bytes, redo
 * replays every dab; stroke 0, another stroke or another kind stack. */
static void
test_edit_stroke (void)
{
  g_autoptr(GBytes) bytes = build_fixture (2);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTer7File) ter = terrain_ter7_file_new_from_bytes (bytes, NULL, &error);
  g_autoptr(TerrainCommandStack) stack = NULL;
  g_autoptr(GBytes) stroked = NULL;
  g_autoptr(GBytes) again = NULL;
  g_autoptr(GBytes) undone = NULL;
  TerrainCommand *first = NULL;

  g_assert_no_error (error);
  stack = terrain_command_stack_new (TERRAIN_DOCUMENT (ter));
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(TerrainCommand) dab = terrain_ter7_edit_new_set_height (ter, i, 1, 2, 2,
                                                                        (guint16) (100 + 32 * i));

      terrain_ter7_edit_set_stroke (TERRAIN_TER7_EDIT (dab), 7);
      g_assert_cmpuint (terrain_ter7_edit_get_stroke (TERRAIN_TER7_EDIT (dab)), ==, 7);
      g_assert_true (terrain_command_stack_execute (stack, dab, &error));
      g_assert_no_error (error);
      if (i == 0)
        first = dab;
    }
  /* Overlapping dabs: the last one wins where they overlap. */
  g_assert_cmpuint (terrain_ter7_file_get_height (ter, 0, 1), ==, 100);
  g_assert_cmpuint (terrain_ter7_file_get_height (ter, 1, 2), ==, 132);
  g_assert_cmpuint (terrain_ter7_file_get_height (ter, 3, 2), ==, 164);
  g_assert_cmpstr (terrain_ter7_edit_get_report (TERRAIN_TER7_EDIT (first)), ==,
                   "3 dabs, 12 samples changed");
  stroked = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ter), &error);
  g_assert_no_error (error);

  /* One undo takes the whole stroke back, byte for byte. */
  g_assert_true (terrain_command_stack_undo (stack));
  g_assert_false (terrain_command_stack_get_can_undo (stack));
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (ter)));
  undone = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ter), &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (bytes, undone);

  /* One redo replays it. */
  g_assert_true (terrain_command_stack_redo (stack, &error));
  g_assert_no_error (error);
  again = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ter), &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (stroked, again);

  /* A paint of the same stroke number, and a dab without a stroke, stack. */
  {
    g_autoptr(TerrainCommand) paint = terrain_ter7_edit_new_paint (ter, 0, 0, 1, 1, 1);
    g_autoptr(TerrainCommand) plain = terrain_ter7_edit_new_set_height (ter, 0, 0, 1, 1, 5);
    g_autoptr(TerrainCommand) plain2 = terrain_ter7_edit_new_set_height (ter, 1, 0, 1, 1, 5);

    terrain_ter7_edit_set_stroke (TERRAIN_TER7_EDIT (paint), 7);
    g_assert_true (terrain_command_stack_execute (stack, paint, &error));
    g_assert_true (terrain_command_stack_execute (stack, plain, &error));
    g_assert_true (terrain_command_stack_execute (stack, plain2, &error));
    g_assert_no_error (error);
    for (guint i = 0; i < 4; i++)
      g_assert_true (terrain_command_stack_undo (stack));
    g_assert_false (terrain_command_stack_get_can_undo (stack));
  }
  g_clear_pointer (&undone, g_bytes_unref);
  undone = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ter), &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (bytes, undone);
}

/* terrain ter set-height / paint on a fixture and on the real sample. */
static void
test_cli_edits (void)
{
  g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-ter7");
  g_autofree char *in = g_build_filename (dir, "in.ter", NULL);
  g_autofree char *out = g_build_filename (dir, "out.ter", NULL);
  g_autofree char *sample = terrain_test_sample_path ("torque3d/Outpost_0.ter");
  g_autoptr(GBytes) bytes = build_fixture (0);
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTer7File) ter = NULL;

  terrain_test_write_bytes (in, bytes);
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "ter", "set-height", in, "0", "0", "12.5", "2", "1", "-o", out,
                            NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "set 2 of 2 samples at 0,0 to 12.5 m"));
  }
  written = terrain_test_read_bytes (out);
  ter = terrain_ter7_file_new_from_bytes (written, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_ter7_file_get_height (ter, 1, 0), ==, 400);
  g_assert_cmpuint (terrain_ter7_file_get_height (ter, 2, 0), ==, 207);

  /* In place, by material name; the file's own bytes stay but the layer. */
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "ter", "paint", in, "3", "3", "grass", NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "material 0 (grass)"));
  }
  g_clear_pointer (&written, g_bytes_unref);
  written = terrain_test_read_bytes (in);
  g_assert_cmpuint (g_bytes_get_size (written), ==, g_bytes_get_size (bytes));
  g_assert_cmpuint (((const guint8 *) g_bytes_get_data (written, NULL))[NAMES_AT - 1], ==, 0);
  g_assert_cmpmem (g_bytes_get_data (written, NULL), NAMES_AT - 1,
                   g_bytes_get_data (bytes, NULL), NAMES_AT - 1);

  /* --dry-run lists the bytes it would change, by section and sample,
   * and writes nothing. */
  {
    g_autoptr(GBytes) kept = NULL;
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "ter", "set-height", in, "1", "2", "20", "--dry-run", NULL);

    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "heights, sample (1, 2)"));
    g_assert_nonnull (strstr (r.out, "bytes would change"));
    g_assert_nonnull (strstr (r.out, "range(s)"));
    g_assert_nonnull (strstr (r.out, "not written"));
    kept = terrain_test_read_bytes (in);
    g_assert_true (g_bytes_equal (kept, written));
  }

  /* Bad usage and refused edits. */
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "ter", "paint", in, "0", "0", "lava", NULL);

    g_assert_cmpint (r.status, ==, 64);
    g_assert_nonnull (strstr (r.err, "lava"));
  }
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "ter", "set-height", in, "0", "0", "3000", NULL);

    g_assert_cmpint (r.status, ==, 64);
  }
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "ter", "set-height", in, "4", "0", "1", NULL);

    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "not inside"));
  }

  /* The real sample: a hole punched, everything else byte for byte. */
  if (sample != NULL)
    {
      g_autoptr(GBytes) original = terrain_test_read_bytes (sample);
      g_autoptr(TerrainTer7File) edited = NULL;
      gsize layers_at, layers_size;
      const guint8 *a, *b;

      {
        g_auto(TerrainTestCliResult) r =
          terrain_test_run_cli (NULL, "ter", "paint", sample, "100", "200", "hole", "3", "2",
                                "-o", out, NULL);

        g_assert_cmpint (r.status, ==, 0);
        g_assert_nonnull (strstr (r.out, "samples at 100,200 holes"));
      }
      g_clear_pointer (&written, g_bytes_unref);
      written = terrain_test_read_bytes (out);
      edited = terrain_ter7_file_new_from_bytes (written, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (terrain_ter7_file_get_layer (edited, 102, 201), ==, 255);
      g_assert_true (terrain_ter7_file_get_section_span (edited, TERRAIN_TER7_SECTION_LAYER_MAP,
                                                         &layers_at, &layers_size));
      g_assert_cmpuint (g_bytes_get_size (written), ==, g_bytes_get_size (original));
      a = g_bytes_get_data (original, NULL);
      b = g_bytes_get_data (written, NULL);
      for (gsize i = 0; i < g_bytes_get_size (original); i++)
        {
          gsize x = (i - layers_at) % 1024, y = (i - layers_at) / 1024;

          if (i < layers_at || i >= layers_at + layers_size ||
              x < 100 || x > 102 || y < 200 || y > 201)
            g_assert_cmpuint (a[i], ==, b[i]);
        }
    }

  terrain_test_remove_tree (dir);
}

/* The real file Torque3D's Full template ships (samples/README.md). */
static void
test_sample (void)
{
  g_autofree char *path = terrain_test_sample_path ("torque3d/Outpost_0.ter");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTer7File) ter = NULL;
  g_autoptr(TerrainTer7File) back = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(TerrainAtlasBuilder) builder = NULL;
  g_autoptr(TerrainAtlasFile) atlas = NULL;
  g_autoptr(GPtrArray) atlas_issues = NULL;
  gboolean any;
  gsize heights_at, heights_size;
  const guint8 *original;

  if (path == NULL)
    {
      g_test_skip ("samples folder not found (TERRAIN_SAMPLES_DIR)");
      return;
    }
  bytes = terrain_test_read_bytes (path);
  ter = terrain_ter7_file_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_ter7_file_get_size (ter), ==, 1024);
  g_assert_cmpuint (terrain_ter7_file_get_n_materials (ter), ==, 6);
  g_assert_cmpstr (terrain_ter7_file_get_material_name (ter, 0), ==, "sand");
  g_assert_cmpstr (terrain_ter7_file_get_material_name (ter, 5), ==, "stone");

  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (ter), &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (bytes, written);
  issues = terrain_document_validate (TERRAIN_DOCUMENT (ter));
  g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_INFO);

  /* Heights out to a heightfield and back are the file's own bytes. */
  field = terrain_ter7_file_to_heightfield (ter, 0, &error);
  g_assert_no_error (error);
  back = terrain_ter7_file_new_from_heightfield (field, 0.0, NULL, &error);
  g_assert_no_error (error);
  g_clear_pointer (&written, g_bytes_unref);
  written = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (back), &error);
  g_assert_no_error (error);
  g_assert_true (terrain_ter7_file_get_section_span (ter, TERRAIN_TER7_SECTION_HEIGHTS,
                                                     &heights_at, &heights_size));
  original = g_bytes_get_data (bytes, NULL);
  g_assert_cmpmem ((const guint8 *) g_bytes_get_data (written, NULL) + heights_at, heights_size,
                   original + heights_at, heights_size);

  /* It builds into an Atlas file that validates. */
  builder = terrain_atlas_builder_new (field);
  atlas = terrain_atlas_builder_build (builder, NULL, &error);
  g_assert_no_error (error);
  atlas_issues = terrain_document_validate (TERRAIN_DOCUMENT (atlas));
  g_assert_cmpint (terrain_issues_max_severity (atlas_issues, &any), ==, TERRAIN_SEVERITY_INFO);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/Ter7/read", test_read);
  g_test_add_func ("/Terrain/Ter7/registry", test_registry);
  g_test_add_func ("/Terrain/Ter7/edits", test_edits);
  g_test_add_func ("/Terrain/Ter7/bad-files", test_bad_files);
  g_test_add_func ("/Terrain/Ter7/heightfield-round-trip", test_heightfield_round_trip);
  g_test_add_func ("/Terrain/Ter7/cli-convert", test_cli_convert);
  g_test_add_func ("/Terrain/Ter7/edit-commands", test_edit_commands);
  g_test_add_func ("/Terrain/Ter7/edit-stroke", test_edit_stroke);
  g_test_add_func ("/Terrain/Ter7/cli-edits", test_cli_edits);
  terrain_test_add_sample_func ("/Terrain/Ter7/sample-outpost", test_sample);

  return g_test_run ();
}
