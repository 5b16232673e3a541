/* test-tnt-edit-fixture.c: the map, palette and command-stack helpers that
 * test-tnt-edit.c and test-tnt-image.c share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"
#include "test-tnt-edit-fixture.h"

static const struct
{
  const char *name;
  guint fx;
  guint fz;
} footprints[] = {
  { "Tree1", 1, 1 },
  { "Rock", 2, 2 },
  { "Big", 3, 2 },
};

gboolean
footprint_lookup (const char *name,
                  guint      *fx,
                  guint      *fz,
                  gpointer    user_data)
{
  guint *calls = user_data;

  if (calls != NULL)
    (*calls)++;
  for (guint i = 0; i < G_N_ELEMENTS (footprints); i++)
    if (g_ascii_strcasecmp (name, footprints[i].name) == 0)
      {
        *fx = footprints[i].fx;
        *fz = footprints[i].fz;
        return TRUE;
      }
  return FALSE;
}

GBytes *
save (TerrainTntMap *map)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (map), &error);

  g_assert_no_error (error);
  g_assert_nonnull (bytes);
  return bytes;
}

/* Offsets at which two equally long byte strings differ. */
GArray *
differences (GBytes *a,
             GBytes *b)
{
  gsize na, nb;
  const guint8 *pa = g_bytes_get_data (a, &na), *pb = g_bytes_get_data (b, &nb);
  GArray *offsets = g_array_new (FALSE, FALSE, sizeof (gsize));

  g_assert_cmpuint (na, ==, nb);
  for (gsize i = 0; i < na; i++)
    if (pa[i] != pb[i])
      g_array_append_val (offsets, i);
  return offsets;
}

TerrainPalette *
test_palette (void)
{
  guint8 rgb[256 * 3];

  /* Distinct colours, so that quantising a rendered map is exact. */
  for (guint i = 0; i < 256; i++)
    {
      rgb[3 * i] = (guint8) i;
      rgb[3 * i + 1] = (guint8) ((i * 37) & 0xFF);
      rgb[3 * i + 2] = (guint8) ((i * 91 + 13) & 0xFF);
    }
  return terrain_palette_new_from_rgb (rgb, 256);
}

void
fill_tile (guint8 *tile,
           guint   seed)
{
  for (guint p = 0; p < TERRAIN_TNT_TILE_BYTES; p++)
    tile[p] = (guint8) ((seed * 53 + p * (seed + 1) + (p / 32) * 7) & 0xFF);
}

/* A 16x12-cell map (8x6 tiles) read back from its own bytes, so that it has
 * a source and writes in place: three tiles, heights in a ramp, features
 * Tree1 at (1, 1), Rock 2x2 at (5, 5) with authored fringe, and an unused
 * record "Big". */
TerrainTntMap *
fixture_map (GBytes **original)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) built = terrain_tnt_map_new (16, 12, &error);
  g_autoptr(GBytes) bytes = NULL;
  TerrainTntMap *map;
  guint8 tile[TERRAIN_TNT_TILE_BYTES];

  g_assert_no_error (error);
  for (guint t = 1; t <= 3; t++)
    {
      fill_tile (tile, t);
      g_assert_cmpuint (terrain_tnt_map_add_tile (built, tile), ==, t);
    }
  for (guint row = 0; row < 6; row++)
    for (guint column = 0; column < 8; column++)
      terrain_tnt_map_set_tile_index (built, column, row, (guint16) ((column + row) % 4));
  for (guint y = 0; y < 12; y++)
    for (guint x = 0; x < 16; x++)
      terrain_tnt_map_set_cell_height (built, x, y, (guint8) (20 + x * 7 + y * 3));

  g_assert_cmpuint (terrain_tnt_map_add_feature_name (built, "Tree1"), ==, 0);
  g_assert_cmpuint (terrain_tnt_map_add_feature_name (built, "Rock"), ==, 1);
  g_assert_cmpuint (terrain_tnt_map_add_feature_name (built, "Big"), ==, 2);
  g_assert_true (terrain_tnt_map_set_cell_feature (built, 1, 1, 0, NULL));
  g_assert_true (terrain_tnt_map_set_cell_feature (built, 5, 5, 1, NULL));
  g_assert_true (terrain_tnt_map_set_cell_feature (built, 6, 5, TERRAIN_TNT_FEATURE_FRINGE, NULL));
  g_assert_true (terrain_tnt_map_set_cell_feature (built, 5, 6, TERRAIN_TNT_FEATURE_FRINGE, NULL));
  g_assert_true (terrain_tnt_map_set_cell_feature (built, 6, 6, TERRAIN_TNT_FEATURE_FRINGE, NULL));
  terrain_tnt_map_set_sea_level (built, 30, NULL);
  terrain_tnt_map_update_minimap (built, terrain_test_grey_palette ());

  bytes = save (built);
  map = terrain_tnt_map_new_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  if (original != NULL)
    *original = g_bytes_ref (bytes);
  return map;
}

void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *counter)
{
  (*counter)++;
}

void
execute (TerrainCommandStack *stack,
         TerrainCommand      *command)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainCommand) owned = command;

  g_assert_nonnull (owned);
  g_assert_true (terrain_command_stack_execute (stack, owned, &error));
  g_assert_no_error (error);
}

void
execute_fails (TerrainCommandStack *stack,
               TerrainCommand      *command,
               gint                 code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainCommand) owned = command;
  guint depth = terrain_command_stack_get_undo_depth (stack);

  g_assert_false (terrain_command_stack_execute (stack, owned, &error));
  g_assert_error (error, TERRAIN_ERROR, code);
  g_assert_cmpuint (terrain_command_stack_get_undo_depth (stack), ==, depth);
}

TerrainTntEdit *
top_edit (TerrainCommandStack *stack)
{
  return TERRAIN_TNT_EDIT (terrain_command_stack_peek_undo (stack));
}

void
undo_all (TerrainCommandStack *stack)
{
  while (terrain_command_stack_undo (stack))
    ;
}

gsize
attribute_offset (TerrainTntMap *map,
                  guint          x,
                  guint          y)
{
  gsize offset = 0;

  g_assert_true (terrain_tnt_map_get_section_span (map, TERRAIN_TNT_SECTION_ATTRIBUTES, &offset,
                                                   NULL));
  return offset + ((gsize) y * terrain_tnt_map_get_width (map) + x) * 4;
}

/* ------------------------------------------------------------------------ */
/* Failed saves                                                             */

/* Saves @map to @path with the file size limited to @limit bytes, the way
 * a full disk stops a write. */
static gboolean
save_with_size_limit (TerrainTntMap  *map,
                      const char     *path,
                      rlim_t          limit,
                      GError        **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  struct rlimit saved, limited;
  void (*previous) (int);
  gboolean ok;

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  limited = saved;
  limited.rlim_cur = limit;
  previous = signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limited), ==, 0);
  ok = terrain_document_save (TERRAIN_DOCUMENT (map), file, NULL, error);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  signal (SIGXFSZ, previous);
  return ok;
}

static guint
count_files (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d != NULL && g_dir_read_name (d) != NULL)
    n++;
  return n;
}

void
check_failed_save (TerrainTntMap *map,
                   GBytes        *original)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("terrain-tnt-edit-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "map.tnt", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-folder", "map.tnt", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) missing_file = g_file_new_for_path (missing);
  g_autoptr(GBytes) on_disk = NULL;
  g_autoptr(TerrainCommandStack) stack = terrain_command_stack_new (TERRAIN_DOCUMENT (map));
  TerrainTntBrush brush = { TERRAIN_TNT_BRUSH_RAISE, 3, 5, TERRAIN_TNT_FALLOFF_LINEAR, 0 };

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (original, NULL),
                                      (gssize) g_bytes_get_size (original), &error));

  execute (stack, terrain_tnt_edit_new_sea_level (map, 7));
  execute (stack, terrain_tnt_edit_new_brush (map, &brush, 3, 3, 0));

  /* "Disk full" after 1 KiB: the save fails, the original stays, no
   * temporary file is left behind. */
  g_assert_false (save_with_size_limit (map, path, 1024, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO);
  g_test_message ("failed save reported: %s", error->message);
  g_clear_error (&error);
  on_disk = terrain_file_load_bytes (file, NULL, &error);
  g_assert_no_error (error);
  terrain_test_assert_bytes_equal (original, on_disk);
  g_assert_cmpuint (count_files (dir), ==, 1);
  g_assert_true (terrain_document_get_modified (TERRAIN_DOCUMENT (map)));
  g_assert_false (terrain_command_stack_get_clean (stack));

  /* A folder that does not exist. */
  g_assert_false (terrain_document_save (TERRAIN_DOCUMENT (map), missing_file, NULL, &error));
  g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO);
  g_clear_error (&error);

  /* Then a save that succeeds marks the clean point. */
  g_assert_true (terrain_document_save (TERRAIN_DOCUMENT (map), file, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (terrain_command_stack_get_clean (stack));
  undo_all (stack);
  g_assert_false (terrain_command_stack_get_clean (stack));

  g_unlink (path);
  g_rmdir (dir);
}
