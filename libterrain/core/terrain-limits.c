/* terrain-limits.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-limits.h"
#include "terrain-error.h"

G_DEFINE_BOXED_TYPE (TerrainLimits, terrain_limits, terrain_limits_copy, terrain_limits_free)

static const TerrainLimits default_limits = {
  .max_cells_per_side = 8192,
  .max_tiles = 1024 * 1024,
  .max_features = 65536,
  .max_image_side = 16384,
  .max_allocation = G_GUINT64_CONSTANT (2) * 1024 * 1024 * 1024,
};

/**
 * terrain_limits_get_default:
 *
 * Returns the default limits, used wherever a function takes a %NULL
 * #TerrainLimits.
 *
 * Returns: (transfer none): the default limits
 */
const TerrainLimits *
terrain_limits_get_default (void)
{
  return &default_limits;
}

/**
 * terrain_limits_new:
 *
 * Creates a copy of the default limits that the caller may change.
 *
 * Returns: (transfer full): a new #TerrainLimits
 */
TerrainLimits *
terrain_limits_new (void)
{
  return g_memdup2 (&default_limits, sizeof default_limits);
}

/**
 * terrain_limits_copy:
 * @limits: a #TerrainLimits
 *
 * Copies @limits.
 *
 * Returns: (transfer full): a copy of @limits
 */
TerrainLimits *
terrain_limits_copy (const TerrainLimits *limits)
{
  g_return_val_if_fail (limits != NULL, NULL);

  return g_memdup2 (limits, sizeof *limits);
}

/**
 * terrain_limits_free:
 * @limits: (transfer full): a #TerrainLimits
 *
 * Frees @limits.
 */
void
terrain_limits_free (TerrainLimits *limits)
{
  g_free (limits);
}

/**
 * terrain_limits_check_count:
 * @limits: (nullable): limits, or %NULL for the defaults
 * @count: the count read from the file
 * @max: the largest acceptable count (one of the fields of @limits)
 * @what: what is counted, for the message (e.g. "tiles")
 * @section: the section holding the count
 * @offset: byte offset of the count in the file
 * @error: return location for a #GError
 *
 * Checks a count read from a file against a limit.
 *
 * Returns: %TRUE if @count <= @max, otherwise %FALSE with
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED set
 */
gboolean
terrain_limits_check_count (const TerrainLimits  *limits,
                            guint64               count,
                            guint64               max,
                            const char           *what,
                            const char           *section,
                            goffset               offset,
                            GError              **error)
{
  (void) limits;

  if (count <= max)
    return TRUE;

  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
               "%s: %s count %" G_GUINT64_FORMAT " at byte offset %" G_GOFFSET_FORMAT
               " exceeds the limit of %" G_GUINT64_FORMAT,
               section, what, count, offset, max);
  return FALSE;
}

/**
 * terrain_limits_check_alloc:
 * @limits: (nullable): limits, or %NULL for the defaults
 * @count: number of elements
 * @element_size: size of one element in bytes
 * @what: what is allocated, for the message
 * @section: the section holding the count
 * @offset: byte offset of the count in the file
 * @error: return location for a #GError
 *
 * Checks that allocating @count elements of @element_size bytes neither
 * overflows nor exceeds #TerrainLimits.max_allocation.
 *
 * Returns: %TRUE if the allocation is acceptable, otherwise %FALSE with
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED set
 */
gboolean
terrain_limits_check_alloc (const TerrainLimits  *limits,
                            guint64               count,
                            guint64               element_size,
                            const char           *what,
                            const char           *section,
                            goffset               offset,
                            GError              **error)
{
  guint64 total;

  if (limits == NULL)
    limits = &default_limits;

  if (!g_uint64_checked_mul (&total, count, element_size) ||
      total > limits->max_allocation ||
      total > G_MAXSIZE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "%s: %s of %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT
                   " bytes (declared at byte offset %" G_GOFFSET_FORMAT
                   ") exceeds the allocation limit of %" G_GUINT64_FORMAT " bytes",
                   section, what, count, element_size, offset, limits->max_allocation);
      return FALSE;
    }

  return TRUE;
}
