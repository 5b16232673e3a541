/* main.c: terrain-editor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <locale.h>

#include "terrain-editor-application.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(TerrainEditorApplication) app = NULL;
  GSettingsSchemaSource *source;
  GSettingsSchema *schema;

  setlocale (LC_ALL, "");
  /* TERRAIN_LOCALEDIR: the build tree's catalogues (set by `meson devenv`). */
  bindtextdomain (GETTEXT_PACKAGE,
                  g_getenv ("TERRAIN_LOCALEDIR") != NULL ? g_getenv ("TERRAIN_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_application_name (_("Terrain Editor"));

  /* GSettings aborts on a schema it cannot find: say what to do instead. */
  source = g_settings_schema_source_get_default ();
  schema = source != NULL ? g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE) : NULL;
  if (schema == NULL)
    {
      g_printerr (_("terrain-editor: the settings schema %s is not installed. Install the "
                    "editor (meson install), or run it from the build folder with "
                    "“meson devenv -C BUILD terrain-editor”, which sets "
                    "GSETTINGS_SCHEMA_DIR to BUILD/data.\n"), APPLICATION_ID);
      return 1;
    }
  g_settings_schema_unref (schema);

  app = terrain_editor_application_new (G_APPLICATION_DEFAULT_FLAGS);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
