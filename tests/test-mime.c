/* test-mime.c: the shared-mime-info package registers our formats
 *
 * Compiles data/libterrain-mime.xml with update-mime-database into a
 * temporary XDG data folder and asks GIO to guess content types by name and
 * by magic.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

static char *data_dir;

static void
check_guess (const char   *name,
             const guint8 *data,
             gsize         size,
             const char   *expected)
{
  g_autofree char *type = g_content_type_guess (name, data, size, NULL);

  g_test_message ("%s -> %s", name != NULL ? name : "(data)", type);
  g_assert_cmpstr (type, ==, expected);
}

static void
test_globs (void)
{
  check_guess ("map.tnt", NULL, 0, "application/x-ta-tnt");
  check_guess ("section.SCT", NULL, 0, "application/x-ta-sct");
  check_guess ("totala1.ufo", NULL, 0, "application/x-ta-hpi");
  check_guess ("maps.ccx", NULL, 0, "application/x-ta-hpi");
  check_guess ("trees.GAF", NULL, 0, "application/x-ta-gaf");
  check_guess ("terrain.atlas", NULL, 0, "application/x-torque-atlas");
  check_guess ("terrain.chu", NULL, 0, "application/x-chunklod-chu");
  check_guess ("terrain.tqt", NULL, 0, "application/x-chunklod-tqt");
  check_guess ("simple.ter", NULL, 0, "application/x-torque-ter");
  check_guess ("ban.ota", NULL, 0, "application/x-ta-ota");
  check_guess ("features.tdf", NULL, 0, "application/x-ta-tdf");
  check_guess ("rock.model", NULL, 0, "application/x-insomniac-dat1");
  check_guess ("world.fhd", NULL, 0, "application/x-insomniac-floor-height");
  check_guess ("layer.tnl", NULL, 0, "application/x-insomniac-node-layer");
  check_guess ("0123456789abcdef.tnlc", NULL, 0, "application/x-insomniac-node-chunk");
  check_guess ("N44W072.hgt", NULL, 0, "application/x-srtm-hgt");
  check_guess ("hills.r16", NULL, 0, "application/x-raw16-heightmap");
}

static void
test_magic (void)
{
  guint8 tnt[64] = { 0x00, 0x20, 0x00, 0x00 };
  guint8 atlas[64] = { 'A', 'T', 'L', 'S', 4 };
  guint8 hpi[64] = { 'H', 'A', 'P', 'I', 0, 0, 1, 0 };
  /* Version 0x00010100, one entry, then its offset (docs/formats/gaf.md). */
  guint8 gaf[64] = { 0x00, 0x01, 0x01, 0x00, 1, 0, 0, 0, 0, 0, 0, 0, 16 };
  guint8 dat1[64] = { '1', 'T', 'A', 'D', 0x79, 0x5c, 0xe1, 0x6a };

  check_guess (NULL, tnt, sizeof tnt, "application/x-ta-tnt");
  check_guess (NULL, atlas, sizeof atlas, "application/x-torque-atlas");
  check_guess (NULL, hpi, sizeof hpi, "application/x-ta-hpi");
  check_guess (NULL, dat1, sizeof dat1, "application/x-insomniac-dat1");
  check_guess (NULL, gaf, sizeof gaf, "application/x-ta-gaf");
  check_guess ("sprites.bin", gaf, sizeof gaf, "application/x-ta-gaf");
  /* Magic wins over a wrong extension. */
  check_guess ("renamed.bin", atlas, sizeof atlas, "application/x-torque-atlas");
}

int
main (int   argc,
      char *argv[])
{
  const char *xml = g_getenv ("TERRAIN_MIME_XML");
  g_autofree char *packages = NULL;
  g_autofree char *mime = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv_update[] = { "update-mime-database", NULL, NULL };
  gsize length;
  int status = 0;
  int result;

  g_test_init (&argc, &argv, NULL);

  g_assert_nonnull (xml);
  data_dir = g_dir_make_tmp ("terrain-mime-XXXXXX", &error);
  g_assert_no_error (error);
  mime = g_build_filename (data_dir, "mime", NULL);
  packages = g_build_filename (mime, "packages", NULL);
  g_assert_cmpint (g_mkdir_with_parents (packages, 0700), ==, 0);
  copy = g_build_filename (packages, "libterrain-mime.xml", NULL);
  g_assert_true (g_file_get_contents (xml, &contents, &length, &error));
  g_assert_true (g_file_set_contents (copy, contents, (gssize) length, &error));

  /* The system database plus ours, so generic types still resolve. */
  argv_update[1] = mime;
  g_assert_true (g_spawn_sync (NULL, (char **) argv_update, NULL, G_SPAWN_SEARCH_PATH,
                               NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, &error));

  /* Before the first content-type call, so xdgmime reads our folder. */
  g_setenv ("XDG_DATA_HOME", data_dir, TRUE);
  g_setenv ("XDG_DATA_DIRS", "/usr/share", TRUE);

  g_test_add_func ("/Terrain/Mime/globs", test_globs);
  g_test_add_func ("/Terrain/Mime/magic", test_magic);

  result = g_test_run ();

  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", data_dir);
    g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL);
  }
  g_free (data_dir);

  return result;
}
