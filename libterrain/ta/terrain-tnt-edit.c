/* terrain-tnt-edit.c: undoable edits of a TNT map: the recording and
 * undo machinery every edit kind uses (cell and tile records, snapshots,
 * the TerrainCommand vfuncs), the accessors, and the sea level and brush
 * edits. TerrainTntEdit is one class in three files sharing
 * terrain-tnt-edit-impl-private.h: this one, terrain-tnt-edit-features.c
 * (placing, moving, removing and cleaning up features; voids) and
 * terrain-tnt-edit-tiles.c (tile painting, resizing, stamping a section).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "terrain-tnt-edit.h"
#include "terrain-tnt-edit-impl-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"

/**
 * TerrainTntEdit:
 *
 * One undoable edit of a [class@Terrain.TntMap] (the "Editing model" of
 * issue 5): sea level, height brushes, feature placement, voids, tile
 * painting, resizing, stamping a section, image and heightmap import and
 * minimap regeneration. Run edits through a [class@Terrain.CommandStack] to
 * undo and redo them.
 *
 * Every edit changes only what it must. Edits that keep every section's
 * size (sea level, brushes, moving and removing features, voids, painting,
 * heightmap import, a same-size minimap) record the cells and tile
 * positions they change; the map then still writes in place, so every byte
 * the edit did not touch stays as it was. Edits that change a section's
 * size (a feature record added or cleaned up, resizing, new tiles) make the
 * writer lay the file out anew. In both cases undo restores the map exactly,
 * including the header, the layout and the writer's choice, so a map saved
 * after an undo back to the loaded state writes the bytes it was read from.
 *
 * Edits are applied again on redo from their parameters, except brush dabs,
 * which replay the heights they recorded (so dabs merged into one stroke
 * redo together). Brush dabs with the same non-zero stroke number merge
 * ([method@Terrain.Command.merge]).
 */

typedef struct
{
  guint   x;
  guint   y;
  guint8  old_height;
  guint8  new_height;
  guint16 old_feature;
  guint16 new_feature;
} CellChange;

typedef struct
{
  guint   column;
  guint   row;
  guint16 old_tile;
  guint16 new_tile;
} TileChange;

G_DEFINE_FINAL_TYPE (TerrainTntEdit, terrain_tnt_edit, TERRAIN_TYPE_COMMAND)

/* ------------------------------------------------------------------------ */
/* Recording                                                                */

static TerrainTntMap *
edit_map (TerrainTntEdit *self)
{
  return TERRAIN_TNT_MAP (terrain_command_get_document (TERRAIN_COMMAND (self)));
}

static void
clear_records (TerrainTntEdit *self)
{
  g_array_set_size (self->cells, 0);
  g_array_set_size (self->tiles, 0);
  g_hash_table_remove_all (self->cell_index);
  g_hash_table_remove_all (self->tile_index);
}

static CellChange *
record_cell (TerrainTntEdit *self,
             TerrainTntMap  *map,
             guint           x,
             guint           y)
{
  gsize key = (gsize) y * terrain_tnt_map_get_width (map) + x;
  guint position = GPOINTER_TO_UINT (g_hash_table_lookup (self->cell_index,
                                                          GSIZE_TO_POINTER (key)));
  CellChange change;

  if (position > 0)
    return &g_array_index (self->cells, CellChange, position - 1);

  change.x = x;
  change.y = y;
  change.old_height = change.new_height = terrain_tnt_map_get_cell_height (map, x, y);
  change.old_feature = change.new_feature = terrain_tnt_map_get_cell_feature (map, x, y);
  g_array_append_val (self->cells, change);
  g_hash_table_insert (self->cell_index, GSIZE_TO_POINTER (key),
                       GUINT_TO_POINTER (self->cells->len));

  return &g_array_index (self->cells, CellChange, self->cells->len - 1);
}

static void
edit_set_height (TerrainTntEdit *self,
                 TerrainTntMap  *map,
                 guint           x,
                 guint           y,
                 guint8          height)
{
  CellChange *change = record_cell (self, map, x, y);

  change->new_height = height;
  terrain_tnt_map_set_cell_height (map, x, y, height);
}

gboolean
tnt_edit_set_feature (TerrainTntEdit  *self,
                      TerrainTntMap   *map,
                      guint            x,
                      guint            y,
                      guint16          feature,
                      GError         **error)
{
  CellChange *change = record_cell (self, map, x, y);

  if (!terrain_tnt_map_set_cell_feature (map, x, y, feature, error))
    return FALSE;
  change->new_feature = feature;
  return TRUE;
}

void
tnt_edit_set_tile (TerrainTntEdit *self,
                   TerrainTntMap  *map,
                   guint           column,
                   guint           row,
                   guint16         tile)
{
  gsize key = (gsize) row * terrain_tnt_map_get_tile_columns (map) + column;
  guint position = GPOINTER_TO_UINT (g_hash_table_lookup (self->tile_index,
                                                          GSIZE_TO_POINTER (key)));
  TileChange *change;

  if (position == 0)
    {
      TileChange fresh = { column, row, 0, 0 };

      fresh.old_tile = fresh.new_tile = terrain_tnt_map_get_tile_index (map, column, row);
      g_array_append_val (self->tiles, fresh);
      position = self->tiles->len;
      g_hash_table_insert (self->tile_index, GSIZE_TO_POINTER (key), GUINT_TO_POINTER (position));
    }

  change = &g_array_index (self->tiles, TileChange, position - 1);
  change->new_tile = tile;
  terrain_tnt_map_set_tile_index (map, column, row, tile);
}

/* Puts back the recorded cells and tile positions, newest first. */
static void
undo_records (TerrainTntEdit *self,
              TerrainTntMap  *map)
{
  for (guint i = self->tiles->len; i > 0; i--)
    {
      const TileChange *change = &g_array_index (self->tiles, TileChange, i - 1);

      terrain_tnt_map_set_tile_index (map, change->column, change->row, change->old_tile);
    }

  for (guint i = self->cells->len; i > 0; i--)
    {
      const CellChange *change = &g_array_index (self->cells, CellChange, i - 1);

      terrain_tnt_map_set_cell_height (map, change->x, change->y, change->old_height);
      /* Legacy maps cannot always store the word back byte for byte; their
       * attributes are in the snapshot, restored after this. */
      terrain_tnt_map_set_cell_feature (map, change->x, change->y, change->old_feature, NULL);
    }
}

static void
replay_records (TerrainTntEdit *self,
                TerrainTntMap  *map)
{
  for (guint i = 0; i < self->cells->len; i++)
    {
      const CellChange *change = &g_array_index (self->cells, CellChange, i);

      terrain_tnt_map_set_cell_height (map, change->x, change->y, change->new_height);
      terrain_tnt_map_set_cell_feature (map, change->x, change->y, change->new_feature, NULL);
    }

  for (guint i = 0; i < self->tiles->len; i++)
    {
      const TileChange *change = &g_array_index (self->tiles, TileChange, i);

      terrain_tnt_map_set_tile_index (map, change->column, change->row, change->new_tile);
    }
}

/* ------------------------------------------------------------------------ */
/* Checks                                                                   */

gboolean
tnt_edit_check_rect (guint        x,
                     guint        y,
                     guint        width,
                     guint        height,
                     guint        grid_width,
                     guint        grid_height,
                     const char  *what,
                     GError     **error)
{
  if (width > 0 && height > 0 && x < grid_width && y < grid_height &&
      width <= grid_width - x && height <= grid_height - y)
    return TRUE;

  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
               "%s: the %ux%u rectangle at (x=%u, y=%u) is empty or does not lie within the "
               "%ux%u grid", what, width, height, x, y, grid_width, grid_height);
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* TerrainCommand                                                           */

static gboolean
terrain_tnt_edit_apply (TerrainCommand  *command,
                        GError         **error)
{
  TerrainTntEdit *self = TERRAIN_TNT_EDIT (command);
  TerrainTntMap *map = edit_map (self);
  guint sections = self->sections;

  if (self->touches_features && terrain_tnt_map_get_version (map) == TERRAIN_TNT_VERSION_LEGACY)
    sections |= TNT_SECTION_BIT (TERRAIN_TNT_SECTION_ATTRIBUTES);

  g_clear_pointer (&self->snapshot, terrain_tnt_map_snapshot_free);
  self->snapshot = terrain_tnt_map_snapshot (map, sections);

  if (self->replay)
    {
      replay_records (self, map);
      return TRUE;
    }

  clear_records (self);
  g_ptr_array_set_size (self->issues, 0);
  g_clear_pointer (&self->report, g_free);

  if (!self->operation (self, map, self->data, error))
    {
      undo_records (self, map);
      terrain_tnt_map_restore (map, g_steal_pointer (&self->snapshot));
      clear_records (self);
      return FALSE;
    }

  if (self->kind == TERRAIN_TNT_EDIT_BRUSH)
    self->replay = TRUE;

  return TRUE;
}

static void
terrain_tnt_edit_revert (TerrainCommand *command)
{
  TerrainTntEdit *self = TERRAIN_TNT_EDIT (command);
  TerrainTntMap *map = edit_map (self);

  undo_records (self, map);
  if (self->snapshot != NULL)
    terrain_tnt_map_restore (map, g_steal_pointer (&self->snapshot));
}

static gboolean
terrain_tnt_edit_merge (TerrainCommand *command,
                        TerrainCommand *next_command)
{
  TerrainTntEdit *self = TERRAIN_TNT_EDIT (command);
  TerrainTntEdit *next;
  TerrainTntMap *map = edit_map (self);

  if (!TERRAIN_IS_TNT_EDIT (next_command))
    return FALSE;
  next = TERRAIN_TNT_EDIT (next_command);
  if (self->kind != TERRAIN_TNT_EDIT_BRUSH || next->kind != TERRAIN_TNT_EDIT_BRUSH ||
      self->stroke == 0 || self->stroke != next->stroke || next->tiles->len > 0)
    return FALSE;

  /* The union of both dabs' cells: the first value seen, the last written. */
  for (guint i = 0; i < next->cells->len; i++)
    {
      const CellChange *later = &g_array_index (next->cells, CellChange, i);
      gsize key = (gsize) later->y * terrain_tnt_map_get_width (map) + later->x;
      guint position = GPOINTER_TO_UINT (g_hash_table_lookup (self->cell_index,
                                                              GSIZE_TO_POINTER (key)));

      if (position > 0)
        {
          CellChange *change = &g_array_index (self->cells, CellChange, position - 1);

          change->new_height = later->new_height;
          change->new_feature = later->new_feature;
        }
      else
        {
          g_array_append_val (self->cells, *later);
          g_hash_table_insert (self->cell_index, GSIZE_TO_POINTER (key),
                               GUINT_TO_POINTER (self->cells->len));
        }
    }

  self->n_dabs += next->n_dabs;
  terrain_tnt_edit_set_report (self, "%u dabs, %u cells changed", self->n_dabs,
                               terrain_tnt_edit_get_n_changed_cells (self));
  return TRUE;
}

static void
terrain_tnt_edit_finalize (GObject *object)
{
  TerrainTntEdit *self = TERRAIN_TNT_EDIT (object);

  if (self->destroy != NULL)
    self->destroy (self->data);
  g_clear_pointer (&self->snapshot, terrain_tnt_map_snapshot_free);
  g_clear_pointer (&self->cells, g_array_unref);
  g_clear_pointer (&self->tiles, g_array_unref);
  g_clear_pointer (&self->cell_index, g_hash_table_unref);
  g_clear_pointer (&self->tile_index, g_hash_table_unref);
  g_clear_pointer (&self->issues, g_ptr_array_unref);
  g_clear_pointer (&self->report, g_free);

  G_OBJECT_CLASS (terrain_tnt_edit_parent_class)->finalize (object);
}

static void
terrain_tnt_edit_class_init (TerrainTntEditClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainCommandClass *command_class = TERRAIN_COMMAND_CLASS (klass);

  object_class->finalize = terrain_tnt_edit_finalize;
  command_class->apply = terrain_tnt_edit_apply;
  command_class->revert = terrain_tnt_edit_revert;
  command_class->merge = terrain_tnt_edit_merge;
}

static void
terrain_tnt_edit_init (TerrainTntEdit *self)
{
  self->cells = g_array_new (FALSE, FALSE, sizeof (CellChange));
  self->tiles = g_array_new (FALSE, FALSE, sizeof (TileChange));
  self->cell_index = g_hash_table_new (NULL, NULL);
  self->tile_index = g_hash_table_new (NULL, NULL);
  self->issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  self->n_dabs = 1;
}

TerrainCommand *
terrain_tnt_edit_new_operation (TerrainTntMap      *map,
                                TerrainTntEditKind  kind,
                                const char         *description,
                                guint               sections,
                                TntEditOperation    operation,
                                gpointer            data,
                                GDestroyNotify      destroy)
{
  TerrainTntEdit *self;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (map), NULL);
  g_return_val_if_fail (operation != NULL, NULL);

  self = g_object_new (TERRAIN_TYPE_TNT_EDIT,
                       "document", map,
                       "description", description,
                       NULL);
  self->kind = kind;
  self->sections = sections;
  self->operation = operation;
  self->data = data;
  self->destroy = destroy;

  return TERRAIN_COMMAND (self);
}

void
terrain_tnt_edit_set_report (TerrainTntEdit *self,
                             const char     *format,
                             ...)
{
  va_list args;

  g_return_if_fail (TERRAIN_IS_TNT_EDIT (self));

  g_free (self->report);
  va_start (args, format);
  self->report = g_strdup_vprintf (format, args);
  va_end (args);
}

void
terrain_tnt_edit_add_issue (TerrainTntEdit *self,
                            TerrainIssue   *issue)
{
  g_return_if_fail (TERRAIN_IS_TNT_EDIT (self));

  g_ptr_array_add (self->issues, issue);
}

/* ------------------------------------------------------------------------ */
/* Accessors                                                                */

/**
 * terrain_tnt_edit_get_kind:
 * @self: a #TerrainTntEdit
 *
 * Gets what the edit does.
 *
 * Returns: what the edit does
 */
TerrainTntEditKind
terrain_tnt_edit_get_kind (TerrainTntEdit *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_EDIT (self), TERRAIN_TNT_EDIT_SEA_LEVEL);

  return self->kind;
}

/**
 * terrain_tnt_edit_get_map:
 * @self: a #TerrainTntEdit
 *
 * Gets the map the edit changes.
 *
 * Returns: (transfer none): the map the edit changes
 */
TerrainTntMap *
terrain_tnt_edit_get_map (TerrainTntEdit *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_EDIT (self), NULL);

  return edit_map (self);
}

/**
 * terrain_tnt_edit_get_report:
 * @self: a #TerrainTntEdit
 *
 * Returns what the last apply did, in one sentence with the figures a user
 * checks: "placed Tree1 (record 3) at (10, 12), footprint 1x1", "8544x10880
 * pixels: 90780 tile positions, 780 unique tiles".
 *
 * Returns: (nullable): the report, or %NULL before the edit was applied
 */
const char *
terrain_tnt_edit_get_report (TerrainTntEdit *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_EDIT (self), NULL);

  return self->report;
}

/**
 * terrain_tnt_edit_get_issues:
 * @self: a #TerrainTntEdit
 *
 * Returns the findings of the last apply that did not stop it: a placed
 * footprint overlapping occupied cells or running off the map, cells left
 * alone, tiles clipped at the map edge.
 *
 * Returns: (transfer none) (element-type TerrainIssue): the findings
 */
GPtrArray *
terrain_tnt_edit_get_issues (TerrainTntEdit *self)
{
  g_return_val_if_fail (TERRAIN_IS_TNT_EDIT (self), NULL);

  return self->issues;
}

/**
 * terrain_tnt_edit_get_n_changed_cells:
 * @self: a #TerrainTntEdit
 *
 * Gets the number of attribute cells the edit changed.
 *
 * Returns: the number of attribute cells whose height or feature word the
 *   edit changed, for the edits that record cells (0 for the others)
 */
guint
terrain_tnt_edit_get_n_changed_cells (TerrainTntEdit *self)
{
  guint n = 0;

  g_return_val_if_fail (TERRAIN_IS_TNT_EDIT (self), 0);

  for (guint i = 0; i < self->cells->len; i++)
    {
      const CellChange *change = &g_array_index (self->cells, CellChange, i);

      if (change->old_height != change->new_height || change->old_feature != change->new_feature)
        n++;
    }

  return n;
}

/* ------------------------------------------------------------------------ */
/* Sea level                                                                */

static gboolean
sea_level_operation (TerrainTntEdit  *self,
                     TerrainTntMap   *map,
                     gpointer         data,
                     GError         **error)
{
  guint32 old_level = terrain_tnt_map_get_sea_level (map);
  guint32 level = GPOINTER_TO_UINT (data);

  if (!terrain_tnt_map_set_sea_level (map, level, error))
    return FALSE;
  terrain_tnt_edit_set_report (self, "sea level %u -> %u", old_level, level);
  return TRUE;
}

/**
 * terrain_tnt_edit_new_sea_level:
 * @map: a #TerrainTntMap
 * @sea_level: the new sea level in height units, 0 to
 *   %TERRAIN_TNT_MAX_SEA_LEVEL
 *
 * Sets the header's SeaLevel word (0x24): four bytes change. Applying it
 * fails with the error of [func@Terrain.TntMap.check_sea_level]
 * (%TERRAIN_ERROR_OUT_OF_RANGE) for a higher level.
 *
 * Returns: (transfer full): the edit
 */
TerrainCommand *
terrain_tnt_edit_new_sea_level (TerrainTntMap *map,
                                guint32        sea_level)
{
  g_autofree char *description = g_strdup_printf ("Set sea level to %u", sea_level);

  G_STATIC_ASSERT (sizeof (guint) >= sizeof (guint32));

  return terrain_tnt_edit_new_operation (map, TERRAIN_TNT_EDIT_SEA_LEVEL, description, 0,
                                         sea_level_operation, GUINT_TO_POINTER (sea_level),
                                         NULL);
}

/* ------------------------------------------------------------------------ */
/* Brush                                                                    */

typedef struct
{
  TerrainTntBrush brush;
  double x;
  double y;
} BrushDab;

static const char *
brush_verb (TerrainTntBrushMode mode)
{
  switch (mode)
    {
    case TERRAIN_TNT_BRUSH_RAISE:
      return "Raise";
    case TERRAIN_TNT_BRUSH_LOWER:
      return "Lower";
    case TERRAIN_TNT_BRUSH_SMOOTH:
      return "Smooth";
    case TERRAIN_TNT_BRUSH_FLATTEN:
      return "Flatten";
    case TERRAIN_TNT_BRUSH_SET:
    default:
      return "Set";
    }
}

static gboolean
brush_operation (TerrainTntEdit  *self,
                 TerrainTntMap   *map,
                 gpointer         data,
                 GError         **error)
{
  BrushDab *dab = data;
  g_autofree guint8 *heights = NULL;
  guint rx, ry, rw, rh;

  if (!terrain_tnt_brush_check (&dab->brush, error))
    return FALSE;

  heights = terrain_tnt_brush_evaluate (&dab->brush, map, dab->x, dab->y, &rx, &ry, &rw, &rh);
  for (guint j = 0; heights != NULL && j < rh; j++)
    for (guint i = 0; i < rw; i++)
      {
        guint8 value = heights[(gsize) j * rw + i];

        if (value != terrain_tnt_map_get_cell_height (map, rx + i, ry + j))
          edit_set_height (self, map, rx + i, ry + j, value);
      }

  terrain_tnt_edit_set_report (self, "%s at (%g, %g), radius %g: %u cells changed",
                               brush_verb (dab->brush.mode), dab->x, dab->y, dab->brush.radius,
                               self->cells->len);
  return TRUE;
}

/**
 * terrain_tnt_edit_new_brush:
 * @map: a #TerrainTntMap
 * @brush: the brush; copied
 * @x: dab centre, column in attribute cells
 * @y: dab centre, row in attribute cells
 * @stroke: the stroke the dab belongs to; consecutive dabs with the same
 *   non-zero stroke merge into one undo step. 0 never merges.
 *
 * One dab of a height brush over the attribute grid (see
 * [method@Terrain.TntBrush.evaluate]). Only the height bytes of the cells
 * it changes are written. A dab entirely off the map changes nothing; an
 * invalid brush makes the apply fail with %TERRAIN_ERROR_INVALID_VALUE.
 *
 * Returns: (transfer full): the edit
 */
TerrainCommand *
terrain_tnt_edit_new_brush (TerrainTntMap         *map,
                            const TerrainTntBrush *brush,
                            double                 x,
                            double                 y,
                            guint                  stroke)
{
  g_autofree char *description = NULL;
  TerrainCommand *command;
  BrushDab *dab;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (map), NULL);
  g_return_val_if_fail (brush != NULL, NULL);

  dab = g_new0 (BrushDab, 1);
  dab->brush = *brush;
  dab->x = x;
  dab->y = y;
  description = g_strdup_printf ("%s heights", brush_verb (brush->mode));
  command = terrain_tnt_edit_new_operation (map, TERRAIN_TNT_EDIT_BRUSH, description, 0,
                                            brush_operation, dab, g_free);
  TERRAIN_TNT_EDIT (command)->stroke = stroke;

  return command;
}
