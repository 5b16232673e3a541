/* terrain-tnt-edit-private.h: edits defined outside terrain-tnt-edit.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "core/terrain-issue.h"
#include "terrain-tnt-edit.h"

G_BEGIN_DECLS

/* Performs an edit on @map. Called on apply and again on every redo, always
 * on the state the map had the first time, so it must be deterministic. On
 * failure the edit restores the map; the operation need not clean up. */
typedef gboolean (*TntEditOperation) (TerrainTntEdit  *edit,
                                      TerrainTntMap   *map,
                                      gpointer         data,
                                      GError         **error);

/* An edit whose undo restores a snapshot of the sections in @sections (a
 * mask of TNT_SECTION_BIT) plus the header, counts and layout. */
TerrainCommand *terrain_tnt_edit_new_operation (TerrainTntMap      *map,
                                                TerrainTntEditKind  kind,
                                                const char         *description,
                                                guint               sections,
                                                TntEditOperation    operation,
                                                gpointer            data,
                                                GDestroyNotify      destroy);

void            terrain_tnt_edit_set_report    (TerrainTntEdit     *self,
                                                const char         *format,
                                                ...) G_GNUC_PRINTF (2, 3);
void            terrain_tnt_edit_add_issue     (TerrainTntEdit     *self,
                                                TerrainIssue       *issue);

G_END_DECLS
