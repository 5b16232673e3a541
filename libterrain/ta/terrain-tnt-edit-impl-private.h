/* terrain-tnt-edit-impl-private.h: what the files of TerrainTntEdit share
 * (terrain-tnt-edit.c: recording, undo, the TerrainCommand vfuncs, sea
 * level and brushes; -features.c: features and voids; -tiles.c: tile
 * painting, resizing, stamping a section): the instance struct and the
 * recording helpers every edit kind writes through.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-tnt-edit.h"
#include "terrain-tnt-edit-private.h"
#include "terrain-tnt-map-private.h"

G_BEGIN_DECLS

struct _TerrainTntEdit
{
  TerrainCommand parent_instance;

  TerrainTntEditKind kind;
  guint sections;               /* snapshot mask */
  guint touches_features : 1;   /* legacy maps: snapshot the attributes too */
  guint replay : 1;             /* redo replays the recorded cells */

  TntEditOperation operation;
  gpointer data;
  GDestroyNotify destroy;
  guint stroke;
  guint n_dabs;

  TntMapSnapshot *snapshot;
  GArray *cells;
  GHashTable *cell_index;       /* y * width + x -> position + 1 in cells */
  GArray *tiles;
  GHashTable *tile_index;

  char *report;
  GPtrArray *issues;
};

/* Recording (terrain-tnt-edit.c): change a cell's feature word or a tile
 * position and record its old and new value for undo and redo. */
gboolean tnt_edit_set_feature (TerrainTntEdit  *self,
                               TerrainTntMap   *map,
                               guint            x,
                               guint            y,
                               guint16          feature,
                               GError         **error);
void     tnt_edit_set_tile    (TerrainTntEdit  *self,
                               TerrainTntMap   *map,
                               guint            column,
                               guint            row,
                               guint16          tile);

/* Checks (terrain-tnt-edit.c): TRUE when the non-empty @width x @height
 * rectangle at (@x, @y) lies within a @grid_width x @grid_height grid;
 * otherwise FALSE with %TERRAIN_ERROR_OUT_OF_RANGE naming @what. */
gboolean tnt_edit_check_rect  (guint            x,
                               guint            y,
                               guint            width,
                               guint            height,
                               guint            grid_width,
                               guint            grid_height,
                               const char      *what,
                               GError         **error);

G_END_DECLS
