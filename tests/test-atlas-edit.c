/* test-atlas-edit.c: undoable Atlas edits (TerrainAtlasEdit)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A small unique-textured Atlas is built in memory (geometry, texture and
 * config TOCs); the edits replace a texture tile and a config stub through a
 * command stack, and the test checks which bytes changed, that undo writes
 * the original bytes exactly and that redo writes the edited bytes again.
 */

#include "config.h"

#include <string.h>

#include "libterrain.h"
#include "terrain-test-util.h"

static GBytes *
save (TerrainAtlasFile *file)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (file), &error);

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  return bytes;
}

/* Builds a 33x33 unique Atlas with 32-pixel texture tiles and reads it back
 * from its bytes, so edits append after a source. */
static TerrainAtlasFile *
make_atlas (GBytes **original)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainHeightfield) field = terrain_heightfield_new (33, 33, 1.0, &error);
  g_autoptr(TerrainImage) picture = terrain_image_new (TERRAIN_IMAGE_RGBA8, 64, 64, NULL);
  g_autoptr(TerrainAtlasBuilder) builder = NULL;
  g_autoptr(TerrainAtlasFile) built = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gfloat *heights;
  guint8 *pixels;
  TerrainAtlasFile *file;

  g_assert_no_error (error);
  heights = terrain_heightfield_get_data (field, NULL);
  for (guint i = 0; i < 33 * 33; i++)
    heights[i] = (gfloat) ((i % 33) * 0.5 + (i / 33) * 0.25);
  pixels = terrain_image_get_data (picture, NULL);
  for (guint i = 0; i < 64 * 64; i++)
    {
      pixels[4 * i] = (guint8) i;
      pixels[4 * i + 1] = 80;
      pixels[4 * i + 2] = (guint8) (i >> 4);
      pixels[4 * i + 3] = 255;
    }

  builder = terrain_atlas_builder_new (field);
  terrain_atlas_builder_set_texture_image (builder, picture);
  terrain_atlas_builder_set_tile_size (builder, 32);
  terrain_atlas_builder_set_texture_format (builder, TERRAIN_ATLAS_TEXTURE_PNG, 90);
  built = terrain_atlas_builder_build (builder, NULL, &error);
  g_assert_no_error (error);
  bytes = save (built);

  file = terrain_atlas_file_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (file);
  *original = g_steal_pointer (&bytes);
  return file;
}

static guint
find (TerrainAtlasFile    *file,
      TerrainAtlasTocKind  kind)
{
  gint toc = terrain_atlas_file_find_toc (file, kind, 0);

  g_assert_cmpint (toc, >=, 0);
  return (guint) toc;
}

/* The generation and offset of a stub as the file now has them. */
static void
stub_state (TerrainAtlasFile *file,
            guint             toc,
            guint             stub,
            guint32          *offset,
            guint32          *generation)
{
  g_autoptr(TerrainAtlasStub) s = terrain_atlas_toc_get_stub (terrain_atlas_file_get_toc (file, toc),
                                                              stub);

  *offset = terrain_atlas_stub_get_offset (s);
  *generation = terrain_atlas_stub_get_generation (s);
}

static void
check_edit (TerrainAtlasFile *file,
            GBytes           *original,
            TerrainCommand   *command,
            guint             toc,
            guint             stub)
{
  g_autoptr(TerrainCommand) owned = command;   /* transfer full */
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (file));
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;
  g_autoptr(GError) error = NULL;
  guint32 old_offset, old_generation, offset, generation;
  gsize size = g_bytes_get_size (original);

  stub_state (file, toc, stub, &old_offset, &old_generation);
  g_assert_true (terrain_command_stack_execute (stack, command, &error));
  g_assert_no_error (error);
  g_assert_true (terrain_document_get_modified (TERRAIN_DOCUMENT (file)));

  /* The frame is appended, the stub points at it with one more generation;
   * everything before the end of the original bytes but that stub stays. */
  stub_state (file, toc, stub, &offset, &generation);
  g_assert_cmpuint (offset, ==, size);
  g_assert_cmpuint (generation, ==, old_generation + 1);
  edited = save (file);
  g_assert_cmpuint (g_bytes_get_size (edited), >, size);
  {
    const guint8 *a = g_bytes_get_data (original, NULL), *b = g_bytes_get_data (edited, NULL);
    gsize first = size, last = 0;

    for (gsize i = 0; i < size; i++)
      if (a[i] != b[i])
        {
          first = MIN (first, i);
          last = i;
        }
    /* Only bytes of the one stub record (offset, length, generation). */
    g_assert_cmpuint (first, <, size);
    g_assert_cmpuint (last - first, <, 12);
    g_assert_cmpuint (last, <, terrain_atlas_file_get_toc_region_size (file));
  }

  terrain_command_stack_undo (stack);
  g_assert_false (terrain_document_get_modified (TERRAIN_DOCUMENT (file)));
  stub_state (file, toc, stub, &offset, &generation);
  g_assert_cmpuint (offset, ==, old_offset);
  g_assert_cmpuint (generation, ==, old_generation);
  g_assert_cmpuint (terrain_atlas_file_get_size (file), ==, size);
  undone = save (file);
  terrain_test_assert_bytes_equal (original, undone);

  g_assert_true (terrain_command_stack_redo (stack, &error));
  g_assert_no_error (error);
  redone = save (file);
  terrain_test_assert_bytes_equal (edited, redone);

  terrain_command_stack_undo (stack);
  g_clear_pointer (&undone, g_bytes_unref);
  undone = save (file);
  terrain_test_assert_bytes_equal (original, undone);
}

static void
test_replace_texture (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainAtlasFile) file = make_atlas (&original);
  g_autoptr(TerrainImage) picture = terrain_image_new (TERRAIN_IMAGE_RGBA8, 32, 32, NULL);
  g_autoptr(TerrainAtlasTexture) texture = NULL;
  g_autoptr(TerrainCommand) command = NULL;
  g_autoptr(TerrainImage) rendered = NULL;
  g_autoptr(GError) error = NULL;
  guint toc = find (file, TERRAIN_ATLAS_TOC_TEXTURE);

  memset (terrain_image_get_data (picture, NULL), 0xC0, 32 * 32 * 4);
  texture = terrain_atlas_texture_new_from_image (picture, TERRAIN_ATLAS_TEXTURE_PNG, 0,
                                                  TERRAIN_ATLAS_CHANNELS_RGB, &error);
  g_assert_no_error (error);
  command = terrain_atlas_edit_new_replace_texture (file, toc, 0, texture);
  g_assert_cmpint (terrain_atlas_edit_get_kind (TERRAIN_ATLAS_EDIT (command)), ==,
                   TERRAIN_ATLAS_EDIT_REPLACE_TEXTURE);
  g_assert_cmpuint (terrain_atlas_edit_get_toc (TERRAIN_ATLAS_EDIT (command)), ==, toc);
  g_assert_cmpuint (terrain_atlas_edit_get_stub (TERRAIN_ATLAS_EDIT (command)), ==, 0);

  /* Applied, the tile renders as the new picture. */
  g_assert_true (terrain_command_apply (command, &error));
  g_assert_no_error (error);
  rendered = terrain_atlas_file_render_texture (file, toc, 0, TERRAIN_ATLAS_CHANNELS_RGB, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (terrain_image_get_data (rendered, NULL)[0], ==, 0xC0);
  terrain_command_revert (command);
  {
    g_autoptr(GBytes) reverted = save (file);

    terrain_test_assert_bytes_equal (original, reverted);
  }
  terrain_document_set_modified (TERRAIN_DOCUMENT (file), FALSE);

  check_edit (file, original, g_steal_pointer (&command), toc, 0);
}

static void
test_replace_config (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainAtlasFile) file = make_atlas (&original);
  g_autoptr(TerrainAtlasConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  guint toc = find (file, TERRAIN_ATLAS_TOC_CONFIG);

  config = terrain_atlas_file_get_config (file, toc, 0, &error);
  g_assert_no_error (error);
  terrain_atlas_config_set (config, "textureSlot", "1");
  check_edit (file, original, terrain_atlas_edit_new_replace_config (file, toc, 0, config), toc, 0);

  /* The undone file reads the old entry. */
  {
    g_autoptr(TerrainAtlasConfig) now = terrain_atlas_file_get_config (file, toc, 0, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (terrain_atlas_config_lookup (now, "textureSlot"), ==, "0");
  }
}

static void
test_bad_stub (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(TerrainAtlasFile) file = make_atlas (&original);
  g_autoptr(TerrainAtlasConfig) config = terrain_atlas_file_get_config (file, find (file, TERRAIN_ATLAS_TOC_CONFIG), 0, NULL);
  g_autoptr(TerrainCommand) wrong_kind = NULL;
  g_autoptr(TerrainCommand) out_of_range = NULL;
  g_autoptr(GError) error = NULL;

  wrong_kind = terrain_atlas_edit_new_replace_config (file, find (file, TERRAIN_ATLAS_TOC_TEXTURE), 0, config);
  g_assert_false (terrain_command_apply (wrong_kind, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  out_of_range = terrain_atlas_edit_new_replace_config (file, 99, 0, config);
  g_assert_false (terrain_command_apply (out_of_range, &error));
  g_assert_nonnull (error);
  {
    g_autoptr(GBytes) now = save (file);

    terrain_test_assert_bytes_equal (original, now);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/AtlasEdit/replace-texture", test_replace_texture);
  g_test_add_func ("/Terrain/AtlasEdit/replace-config", test_replace_config);
  g_test_add_func ("/Terrain/AtlasEdit/bad-stub", test_bad_stub);

  return g_test_run ();
}
