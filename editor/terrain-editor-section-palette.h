/* terrain-editor-section-palette.h: the searchable list of SCT sections to stamp
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <libterrain.h>

G_BEGIN_DECLS

#define TERRAIN_EDITOR_TYPE_SECTION_PALETTE (terrain_editor_section_palette_get_type ())

G_DECLARE_FINAL_TYPE (TerrainEditorSectionPalette, terrain_editor_section_palette, TERRAIN_EDITOR,
                      SECTION_PALETTE, GtkBox)

GtkWidget         *terrain_editor_section_palette_new               (void);
gboolean           terrain_editor_section_palette_add_file          (TerrainEditorSectionPalette *self,
                                                                     GFile                       *file,
                                                                     GError                     **error);
void               terrain_editor_section_palette_set_game_files    (TerrainEditorSectionPalette *self,
                                                                     TerrainGameFiles            *files);
void               terrain_editor_section_palette_set_palette       (TerrainEditorSectionPalette *self,
                                                                     TerrainPalette              *palette);
void               terrain_editor_section_palette_set_search        (TerrainEditorSectionPalette *self,
                                                                     const char                  *text);
GListModel        *terrain_editor_section_palette_get_shown         (TerrainEditorSectionPalette *self);
gboolean           terrain_editor_section_palette_select            (TerrainEditorSectionPalette *self,
                                                                     const char                  *name);
const char        *terrain_editor_section_palette_get_selected_name (TerrainEditorSectionPalette *self);
TerrainSctSection *terrain_editor_section_palette_get_selected      (TerrainEditorSectionPalette *self);

G_END_DECLS
