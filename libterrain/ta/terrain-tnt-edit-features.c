/* terrain-tnt-edit-features.c: TNT edits of features and voids: placing
 * a feature (a record added when its name is new), moving, removing and
 * cleaning up unused records, and marking or clearing void cells. Part of
 * TerrainTntEdit (terrain-tnt-edit-impl-private.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-tnt-edit.h"
#include "terrain-tnt-edit-impl-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"

/* ------------------------------------------------------------------------ */
/* Features                                                                 */

typedef struct
{
  char *name;
  guint x;
  guint y;
  guint new_x;
  guint new_y;
  TerrainTntFootprintFunc func;
  gpointer user_data;
  GDestroyNotify destroy;
} FeatureOp;

static void
feature_op_free (gpointer data)
{
  FeatureOp *op = data;

  if (op->destroy != NULL)
    op->destroy (op->user_data);
  g_free (op->name);
  g_free (op);
}

static FeatureOp *
feature_op_new (const char              *name,
                guint                    x,
                guint                    y,
                TerrainTntFootprintFunc  func,
                gpointer                 user_data,
                GDestroyNotify           destroy)
{
  FeatureOp *op = g_new0 (FeatureOp, 1);

  op->name = g_strdup (name);
  op->x = x;
  op->y = y;
  op->func = func;
  op->user_data = user_data;
  op->destroy = destroy;
  return op;
}

static void
footprint_of (const FeatureOp *op,
              const char      *name,
              guint           *fx,
              guint           *fz)
{
  *fx = *fz = 1;
  if (op->func == NULL || name == NULL || !op->func (name, fx, fz, op->user_data))
    *fx = *fz = 1;
  *fx = MAX (*fx, 1);
  *fz = MAX (*fz, 1);
}

static gboolean
check_cell (TerrainTntMap  *map,
            guint           x,
            guint           y,
            const char     *what,
            GError        **error)
{
  if (x < terrain_tnt_map_get_width (map) && y < terrain_tnt_map_get_height (map))
    return TRUE;

  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
               "TNT attribute map: %s (x=%u, y=%u) lies outside the %ux%u-cell map",
               what, x, y, terrain_tnt_map_get_width (map), terrain_tnt_map_get_height (map));
  return FALSE;
}

static gboolean
is_legacy_map (TerrainTntMap *map)
{
  return terrain_tnt_map_get_version (map) == TERRAIN_TNT_VERSION_LEGACY;
}

static const char *
feature_label (TerrainTntMap *map,
               guint          index)
{
  const char *name = terrain_tnt_map_get_feature_name (map, index);

  return name != NULL ? name : "(no record)";
}

/* A cell can take a new anchor unless it anchors a feature or is void. */
static gboolean
check_anchor_free (TerrainTntMap  *map,
                   guint           x,
                   guint           y,
                   GError        **error)
{
  guint16 word = terrain_tnt_map_get_cell_feature (map, x, y);

  if (word < TERRAIN_TNT_FEATURE_RESERVED)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT attribute map: cell (x=%u, y=%u) already anchors feature %u (%s); a "
                   "cell holds one feature, remove it first",
                   x, y, word, feature_label (map, word));
      return FALSE;
    }
  if (word == TERRAIN_TNT_FEATURE_VOID)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT attribute map: cell (x=%u, y=%u) is void (0xFFFC); unmark it before "
                   "placing a feature there", x, y);
      return FALSE;
    }

  return TRUE;
}

/* Stamps feature @index anchored at (x, y): the anchor word, and authored
 * fringe (0xFFFE) on the empty cells its footprint covers. Overlaps with
 * the runtime occupancy and a footprint running off the map are reported. */
static gboolean
place_index (TerrainTntEdit  *self,
             TerrainTntMap   *map,
             const FeatureOp *op,
             guint16          index,
             guint            x,
             guint            y,
             GError         **error)
{
  guint width = terrain_tnt_map_get_width (map), height = terrain_tnt_map_get_height (map);
  g_autofree guint16 *occupancy = NULL;
  const char *name = terrain_tnt_map_get_feature_name (map, index);
  guint fx, fz, overlapped = 0, first_x = 0, first_y = 0;
  gboolean clipped = FALSE;

  if (!check_anchor_free (map, x, y, error))
    return FALSE;

  footprint_of (op, name, &fx, &fz);
  occupancy = terrain_tnt_map_build_occupancy (map, op->func, op->user_data, NULL, NULL);

  for (guint dz = 0; dz < fz; dz++)
    for (guint dx = 0; dx < fx; dx++)
      {
        guint64 cx = (guint64) x + dx, cz = (guint64) y + dz;

        if (cx >= width || cz >= height)
          {
            clipped = TRUE;
            continue;
          }
        if (occupancy[cz * width + cx] != TERRAIN_TNT_FEATURE_NONE && overlapped++ == 0)
          {
            first_x = (guint) cx;
            first_y = (guint) cz;
          }
      }

  if (!tnt_edit_set_feature (self, map, x, y, index, error))
    return FALSE;

  /* Retail maps author the fringe; the legacy encoding has no fringe code. */
  if (!is_legacy_map (map))
    for (guint dz = 0; dz < fz; dz++)
      for (guint dx = 0; dx < fx; dx++)
        {
          guint64 cx = (guint64) x + dx, cz = (guint64) y + dz;

          if ((dx == 0 && dz == 0) || cx >= width || cz >= height)
            continue;
          if (terrain_tnt_map_get_cell_feature (map, (guint) cx, (guint) cz) ==
              TERRAIN_TNT_FEATURE_NONE &&
              !tnt_edit_set_feature (self, map, (guint) cx, (guint) cz, TERRAIN_TNT_FEATURE_FRINGE,
                                     error))
            return FALSE;
        }

  if (overlapped > 0)
    {
      TerrainIssue *issue =
        terrain_issue_new (TERRAIN_SEVERITY_WARNING, "TNT attribute map", -1,
                           (gint64) y * width + x,
                           "feature %u (%s) placed at (x=%u, y=%u) with a %ux%u footprint overlaps "
                           "%u occupied cell%s, the first at (x=%u, y=%u); the earlier occupant "
                           "keeps them in the game",
                           index, feature_label (map, index), x, y, fx, fz, overlapped,
                           overlapped == 1 ? "" : "s", first_x, first_y);
      terrain_issue_set_position (issue, (gint) x, (gint) y);
      terrain_tnt_edit_add_issue (self, issue);
    }
  if (clipped)
    {
      TerrainIssue *issue =
        terrain_issue_new (TERRAIN_SEVERITY_WARNING, "TNT attribute map", -1,
                           (gint64) y * width + x,
                           "feature %u (%s) placed at (x=%u, y=%u) with a %ux%u footprint runs "
                           "off the %ux%u map",
                           index, feature_label (map, index), x, y, fx, fz, width, height);
      terrain_issue_set_position (issue, (gint) x, (gint) y);
      terrain_tnt_edit_add_issue (self, issue);
    }

  return TRUE;
}

/* Removes the feature anchored at (x, y) and the authored fringe only it
 * covered. */
static gboolean
remove_at (TerrainTntEdit  *self,
           TerrainTntMap   *map,
           const FeatureOp *op,
           guint            x,
           guint            y,
           guint16         *removed,
           GError         **error)
{
  guint width = terrain_tnt_map_get_width (map), height = terrain_tnt_map_get_height (map);
  guint16 word = terrain_tnt_map_get_cell_feature (map, x, y);
  g_autofree guint16 *occupancy = NULL;
  guint fx, fz;

  if (word >= TERRAIN_TNT_FEATURE_RESERVED)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT attribute map: cell (x=%u, y=%u) anchors no feature (its word is "
                   "0x%04x); give the anchor, the top-left cell of the footprint",
                   x, y, word);
      return FALSE;
    }

  footprint_of (op, terrain_tnt_map_get_feature_name (map, word), &fx, &fz);
  if (!tnt_edit_set_feature (self, map, x, y, TERRAIN_TNT_FEATURE_NONE, error))
    return FALSE;

  if (!is_legacy_map (map))
    {
      occupancy = terrain_tnt_map_build_occupancy (map, op->func, op->user_data, NULL, NULL);
      for (guint dz = 0; dz < fz; dz++)
        for (guint dx = 0; dx < fx; dx++)
          {
            guint64 cx = (guint64) x + dx, cz = (guint64) y + dz;

            if (cx >= width || cz >= height)
              continue;
            if (terrain_tnt_map_get_cell_feature (map, (guint) cx, (guint) cz) ==
                  TERRAIN_TNT_FEATURE_FRINGE &&
                occupancy[cz * width + cx] == TERRAIN_TNT_FEATURE_NONE &&
                !tnt_edit_set_feature (self, map, (guint) cx, (guint) cz, TERRAIN_TNT_FEATURE_NONE,
                                       error))
              return FALSE;
          }
    }

  *removed = word;
  return TRUE;
}

static gboolean
place_operation (TerrainTntEdit  *self,
                 TerrainTntMap   *map,
                 gpointer         data,
                 GError         **error)
{
  FeatureOp *op = data;
  guint index;
  gboolean added = FALSE;
  gsize length = strlen (op->name);
  guint fx, fz;

  if (!check_cell (map, op->x, op->y, "feature position", error))
    return FALSE;

  index = terrain_tnt_map_find_feature (map, op->name);
  if (index == G_MAXUINT)
    {
      if (length == 0 || length >= TERRAIN_TNT_FEATURE_NAME_BYTES)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TNT feature records: name \"%s\" is %" G_GSIZE_FORMAT " bytes long; a "
                       "record holds 1 to %d bytes and a NUL",
                       op->name, length, TERRAIN_TNT_FEATURE_NAME_BYTES - 1);
          return FALSE;
        }
      if (terrain_tnt_map_get_n_features (map) >=
          (is_legacy_map (map) ? 0xFCu : (guint) TERRAIN_TNT_FEATURE_RESERVED))
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                       "TNT feature records: the table is full (%u records); a cell cannot "
                       "name another", terrain_tnt_map_get_n_features (map));
          return FALSE;
        }
      /* Checked first so that a refused placement adds no record. */
      if (!check_anchor_free (map, op->x, op->y, error))
        return FALSE;
      index = terrain_tnt_map_add_feature_name (map, op->name);
      if (index == G_MAXUINT)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                       "TNT feature records: cannot add \"%s\" (the table has %u records)",
                       op->name, terrain_tnt_map_get_n_features (map));
          return FALSE;
        }
      added = TRUE;
    }

  if (!place_index (self, map, op, (guint16) index, op->x, op->y, error))
    return FALSE;

  footprint_of (op, op->name, &fx, &fz);
  terrain_tnt_edit_set_report (self, "placed %s (record %u%s) at (%u, %u), footprint %ux%u",
                               terrain_tnt_map_get_feature_name (map, index), index,
                               added ? ", new" : "", op->x, op->y, fx, fz);
  return TRUE;
}

/**
 * terrain_tnt_edit_new_place_feature:
 * @map: a #TerrainTntMap
 * @name: the feature's name (a TDF section name), 1 to 127 bytes
 * @x: column of the anchor cell (the footprint's top-left corner)
 * @y: row of the anchor cell
 * @footprint_func: (nullable) (scope notified) (closure user_data): looks up
 *   footprints; %NULL counts every feature as 1x1
 * @user_data: data for @footprint_func
 * @destroy: (nullable): frees @user_data when the edit is finalized
 *
 * Places a feature (tnt-sct.md, "Attribute map"): the anchor cell gets the
 * feature's record index, and the empty cells its footprint covers get the
 * authored fringe word 0xFFFE. When the table has no record of that name
 * (matched case-insensitively) one is appended, which grows the feature
 * section. Records are never reused or dropped here; see
 * [ctor@Terrain.TntEdit.new_cleanup_features].
 *
 * Applying fails when (x, y) is off the map, already anchors a feature or
 * is void. A footprint overlapping occupied cells (by the engine's
 * reconstruction, [method@Terrain.TntMap.build_occupancy]) or running off the
 * map does not stop it; it is reported in
 * [method@Terrain.TntEdit.get_issues].
 *
 * Returns: (transfer full): the edit
 */
TerrainCommand *
terrain_tnt_edit_new_place_feature (TerrainTntMap           *map,
                                    const char              *name,
                                    guint                    x,
                                    guint                    y,
                                    TerrainTntFootprintFunc  footprint_func,
                                    gpointer                 user_data,
                                    GDestroyNotify           destroy)
{
  g_autofree char *description = NULL;
  TerrainCommand *command;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (map), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  description = g_strdup_printf ("Place %s", name);
  command = terrain_tnt_edit_new_operation (map, TERRAIN_TNT_EDIT_PLACE_FEATURE, description,
                                            TNT_SECTION_BIT (TERRAIN_TNT_SECTION_FEATURES),
                                            place_operation,
                                            feature_op_new (name, x, y, footprint_func,
                                                            user_data, destroy),
                                            feature_op_free);
  TERRAIN_TNT_EDIT (command)->touches_features = TRUE;
  return command;
}

static gboolean
move_operation (TerrainTntEdit  *self,
                TerrainTntMap   *map,
                gpointer         data,
                GError         **error)
{
  FeatureOp *op = data;
  guint16 index;

  if (!check_cell (map, op->x, op->y, "feature anchor", error) ||
      !check_cell (map, op->new_x, op->new_y, "new feature position", error))
    return FALSE;

  if (op->x == op->new_x && op->y == op->new_y)
    {
      guint16 word = terrain_tnt_map_get_cell_feature (map, op->x, op->y);

      if (word >= TERRAIN_TNT_FEATURE_RESERVED)
        return remove_at (self, map, op, op->x, op->y, &index, error);
      terrain_tnt_edit_set_report (self, "feature %u (%s) stays at (%u, %u)", word,
                                   feature_label (map, word), op->x, op->y);
      return TRUE;
    }

  if (!remove_at (self, map, op, op->x, op->y, &index, error) ||
      !place_index (self, map, op, index, op->new_x, op->new_y, error))
    return FALSE;

  terrain_tnt_edit_set_report (self, "moved feature %u (%s) from (%u, %u) to (%u, %u)",
                               index, feature_label (map, index), op->x, op->y,
                               op->new_x, op->new_y);
  return TRUE;
}

/**
 * terrain_tnt_edit_new_move_feature:
 * @map: a #TerrainTntMap
 * @x: column of the feature's anchor cell
 * @y: row of the feature's anchor cell
 * @new_x: column of the new anchor cell
 * @new_y: row of the new anchor cell
 * @footprint_func: (nullable) (scope notified) (closure user_data): looks up
 *   footprints; %NULL counts every feature as 1x1
 * @user_data: data for @footprint_func
 * @destroy: (nullable): frees @user_data when the edit is finalized
 *
 * Moves the feature anchored at (x, y): its anchor word and the fringe only
 * it covered are cleared, then it is placed at (new_x, new_y) as
 * [ctor@Terrain.TntEdit.new_place_feature] does, with the same record. The
 * feature table does not change, so the map still writes in place.
 *
 * Returns: (transfer full): the edit
 */
TerrainCommand *
terrain_tnt_edit_new_move_feature (TerrainTntMap           *map,
                                   guint                    x,
                                   guint                    y,
                                   guint                    new_x,
                                   guint                    new_y,
                                   TerrainTntFootprintFunc  footprint_func,
                                   gpointer                 user_data,
                                   GDestroyNotify           destroy)
{
  TerrainCommand *command;
  FeatureOp *op;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (map), NULL);

  op = feature_op_new (NULL, x, y, footprint_func, user_data, destroy);
  op->new_x = new_x;
  op->new_y = new_y;
  command = terrain_tnt_edit_new_operation (map, TERRAIN_TNT_EDIT_MOVE_FEATURE, "Move feature", 0,
                                            move_operation, op, feature_op_free);
  TERRAIN_TNT_EDIT (command)->touches_features = TRUE;
  return command;
}

static gboolean
remove_operation (TerrainTntEdit  *self,
                  TerrainTntMap   *map,
                  gpointer         data,
                  GError         **error)
{
  FeatureOp *op = data;
  guint16 index;

  if (!check_cell (map, op->x, op->y, "feature anchor", error) ||
      !remove_at (self, map, op, op->x, op->y, &index, error))
    return FALSE;

  terrain_tnt_edit_set_report (self, "removed feature %u (%s) at (%u, %u); its record stays",
                               index, feature_label (map, index), op->x, op->y);
  return TRUE;
}

/**
 * terrain_tnt_edit_new_remove_feature:
 * @map: a #TerrainTntMap
 * @x: column of the feature's anchor cell
 * @y: row of the feature's anchor cell
 * @footprint_func: (nullable) (scope notified) (closure user_data): looks up
 *   footprints; %NULL counts every feature as 1x1
 * @user_data: data for @footprint_func
 * @destroy: (nullable): frees @user_data when the edit is finalized
 *
 * Removes the feature anchored at (x, y): the anchor becomes empty, and so
 * does the authored fringe of its footprint that no other feature covers.
 * The feature's record stays in the table (an unused record is dropped only
 * by [ctor@Terrain.TntEdit.new_cleanup_features]). Applying fails when the
 * cell anchors no feature.
 *
 * Returns: (transfer full): the edit
 */
TerrainCommand *
terrain_tnt_edit_new_remove_feature (TerrainTntMap           *map,
                                     guint                    x,
                                     guint                    y,
                                     TerrainTntFootprintFunc  footprint_func,
                                     gpointer                 user_data,
                                     GDestroyNotify           destroy)
{
  TerrainCommand *command;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (map), NULL);

  command = terrain_tnt_edit_new_operation (map, TERRAIN_TNT_EDIT_REMOVE_FEATURE,
                                            "Remove feature", 0, remove_operation,
                                            feature_op_new (NULL, x, y, footprint_func,
                                                            user_data, destroy),
                                            feature_op_free);
  TERRAIN_TNT_EDIT (command)->touches_features = TRUE;
  return command;
}

static gboolean
cleanup_operation (TerrainTntEdit  *self,
                   TerrainTntMap   *map,
                   gpointer         data,
                   GError         **error)
{
  guint before = terrain_tnt_map_get_n_features (map);
  guint removed = terrain_tnt_map_remove_unused_features (map);

  terrain_tnt_edit_set_report (self, "removed %u unused feature record%s (%u -> %u)",
                               removed, removed == 1 ? "" : "s", before,
                               terrain_tnt_map_get_n_features (map));
  return TRUE;
}

/**
 * terrain_tnt_edit_new_cleanup_features:
 * @map: a #TerrainTntMap
 *
 * Drops the feature records no cell names and renumbers the cells, with
 * [method@Terrain.TntMap.remove_unused_features]. When records are dropped
 * the feature section shrinks and the map is laid out anew.
 *
 * Returns: (transfer full): the edit
 */
TerrainCommand *
terrain_tnt_edit_new_cleanup_features (TerrainTntMap *map)
{
  return terrain_tnt_edit_new_operation (map, TERRAIN_TNT_EDIT_CLEANUP_FEATURES,
                                         "Clean up feature table",
                                         TNT_SECTION_BIT (TERRAIN_TNT_SECTION_FEATURES) |
                                         TNT_SECTION_BIT (TERRAIN_TNT_SECTION_ATTRIBUTES),
                                         cleanup_operation, NULL, NULL);
}

/* ------------------------------------------------------------------------ */
/* Voids                                                                    */

typedef struct
{
  guint x;
  guint y;
  guint width;
  guint height;
  gboolean mark;
} RectOp;

static gboolean
void_operation (TerrainTntEdit  *self,
                TerrainTntMap   *map,
                gpointer         data,
                GError         **error)
{
  RectOp *op = data;
  guint changed = 0, skipped = 0;

  if (is_legacy_map (map))
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                           "TNT attribute map: legacy (0x1020) cells have no void code "
                           "(their feature byte holds an index or an empty code)");
      return FALSE;
    }
  if (!tnt_edit_check_rect (op->x, op->y, op->width, op->height, terrain_tnt_map_get_width (map),
                            terrain_tnt_map_get_height (map), "TNT attribute map", error))
    return FALSE;

  for (guint y = op->y; y < op->y + op->height; y++)
    for (guint x = op->x; x < op->x + op->width; x++)
      {
        guint16 word = terrain_tnt_map_get_cell_feature (map, x, y);
        guint16 target;

        if (op->mark)
          {
            if (word == TERRAIN_TNT_FEATURE_VOID)
              continue;
            if (word < TERRAIN_TNT_FEATURE_RESERVED)
              {
                skipped++;
                continue;
              }
            target = TERRAIN_TNT_FEATURE_VOID;
          }
        else
          {
            if (word != TERRAIN_TNT_FEATURE_VOID)
              continue;
            target = TERRAIN_TNT_FEATURE_NONE;
          }

        if (!tnt_edit_set_feature (self, map, x, y, target, error))
          return FALSE;
        changed++;
      }

  if (skipped > 0)
    {
      TerrainIssue *issue =
        terrain_issue_new (TERRAIN_SEVERITY_INFO, "TNT attribute map", -1, -1,
                           "%u cell%s in the %ux%u rectangle at (x=%u, y=%u) anchor features "
                           "and were left as they are",
                           skipped, skipped == 1 ? "" : "s", op->width, op->height, op->x, op->y);
      terrain_tnt_edit_add_issue (self, issue);
    }

  terrain_tnt_edit_set_report (self, "%s %u cell%s (%ux%u at (%u, %u)); %u anchor%s kept",
                               op->mark ? "voided" : "unvoided", changed, changed == 1 ? "" : "s",
                               op->width, op->height, op->x, op->y, skipped,
                               skipped == 1 ? "" : "s");
  return TRUE;
}

/**
 * terrain_tnt_edit_new_void:
 * @map: a #TerrainTntMap (version 0x2000)
 * @x: first column of the rectangle, in attribute cells
 * @y: first row
 * @width: columns, at least 1
 * @height: rows, at least 1
 * @mark: %TRUE to mark the cells void, %FALSE to unmark them
 *
 * Marks cells void (feature word 0xFFFC: blocked, and drawn only by the
 * tile art) or unmarks them (back to the empty 0xFFFF). Marking leaves cells
 * anchoring a feature alone (reported in
 * [method@Terrain.TntEdit.get_issues]) and overwrites empty, fringe and the
 * other reserved words; unmarking touches only void cells. Applying fails
 * on a legacy map, which has no void code, or for a rectangle not inside the
 * map.
 *
 * Returns: (transfer full): the edit
 */
TerrainCommand *
terrain_tnt_edit_new_void (TerrainTntMap *map,
                           guint          x,
                           guint          y,
                           guint          width,
                           guint          height,
                           gboolean       mark)
{
  RectOp *op = g_new0 (RectOp, 1);
  TerrainCommand *command;

  op->x = x;
  op->y = y;
  op->width = width;
  op->height = height;
  op->mark = mark;
  command = terrain_tnt_edit_new_operation (map, TERRAIN_TNT_EDIT_VOID,
                                            mark ? "Mark void" : "Unmark void", 0,
                                            void_operation, op, g_free);
  if (command != NULL)
    TERRAIN_TNT_EDIT (command)->touches_features = TRUE;
  return command;
}
