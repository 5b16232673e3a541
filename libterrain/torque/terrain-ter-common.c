/* terrain-ter-common.c: the block table and the heights of a .ter file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-ter-common-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"
#include "core/terrain-reader-private.h"

/* 11.5 fixed point: metres = value / 32. */
#define TER_UNITS_PER_METRE 32.0

void
terrain_ter_sections_init (TerrainTerSections *self,
                           const char * const *names,
                           guint               n)
{
  g_assert (n <= TERRAIN_TER_MAX_SECTIONS);

  *self = (TerrainTerSections) { .names = names, .n = n };
}

void
terrain_ter_sections_mark (TerrainTerSections *self,
                           guint               section,
                           gsize               offset,
                           gsize               size)
{
  g_assert (section < self->n);

  self->present[section] = TRUE;
  self->offsets[section] = offset;
  self->sizes[section] = size;
}

gboolean
terrain_ter_sections_get_span (const TerrainTerSections *self,
                               guint                     section,
                               gsize                    *offset,
                               gsize                    *size)
{
  g_return_val_if_fail (section < self->n, FALSE);

  if (!self->present[section])
    return FALSE;
  if (offset != NULL)
    *offset = self->offsets[section];
  if (size != NULL)
    *size = self->sizes[section];
  return TRUE;
}

gint
terrain_ter_sections_find (const TerrainTerSections *self,
                           gsize                     offset,
                           gsize                    *within)
{
  for (guint s = 0; s < self->n; s++)
    if (self->present[s] && offset >= self->offsets[s] &&
        offset - self->offsets[s] < self->sizes[s])
      {
        *within = offset - self->offsets[s];
        return (gint) s;
      }
  *within = 0;
  return -1;
}

void
terrain_ter_sections_check_trailing (const TerrainTerSections *self,
                                     guint                     trailing,
                                     const char               *section,
                                     const char               *what,
                                     GPtrArray                *issues)
{
  gsize offset, size;

  if (terrain_ter_sections_get_span (self, trailing, &offset, &size))
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_WARNING, section, (gint64) offset,
                                                -1, "%" G_GSIZE_FORMAT " bytes follow %s (kept "
                                                "as they are)", size, what));
}

void
terrain_ter_sections_describe (const TerrainTerSections *self,
                               JsonBuilder              *builder)
{
  json_builder_set_member_name (builder, "sections");
  json_builder_begin_array (builder);
  for (guint s = 0; s < self->n; s++)
    {
      if (!self->present[s])
        continue;
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, self->names[s]);
      json_builder_set_member_name (builder, "offset");
      json_builder_add_int_value (builder, (gint64) self->offsets[s]);
      json_builder_set_member_name (builder, "size");
      json_builder_add_int_value (builder, (gint64) self->sizes[s]);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

guint16
terrain_ter_height_at (const guint8  *stored,
                       const guint16 *edited,
                       gsize          i)
{
  return edited != NULL ? edited[i] : terrain_get_le16 (stored + 2 * i);
}

guint16 *
terrain_ter_heights_copy (const guint8 *stored,
                          gsize         n)
{
  guint16 *heights = g_new (guint16, n);

  for (gsize i = 0; i < n; i++)
    heights[i] = terrain_get_le16 (stored + 2 * i);
  return heights;
}

void
terrain_ter_height_range (const guint8  *stored,
                          const guint16 *edited,
                          gsize          n,
                          guint16       *lo,
                          guint16       *hi)
{
  *lo = G_MAXUINT16;
  *hi = 0;
  for (gsize i = 0; i < n; i++)
    {
      guint16 v = terrain_ter_height_at (stored, edited, i);

      *lo = MIN (*lo, v);
      *hi = MAX (*hi, v);
    }
}

TerrainHeightfield *
terrain_ter_to_heightfield (const guint8   *stored,
                            const guint16  *edited,
                            guint           n,
                            gdouble         square_size,
                            const char     *what,
                            GError        **error)
{
  g_autoptr(TerrainHeightfield) field = NULL;
  guint side;
  gfloat *data;

  if ((guint64) n + 1 > TERRAIN_HEIGHTFIELD_MAX_SIDE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "%s: a %u-sample terrain is more than a heightfield's %u", what, n,
                   TERRAIN_HEIGHTFIELD_MAX_SIDE);
      return NULL;
    }
  side = n + 1;
  field = terrain_heightfield_new (side, side, square_size, error);
  if (field == NULL)
    return NULL;

  data = terrain_heightfield_get_data (field, NULL);
  for (guint r = 0; r < side; r++)
    {
      gsize file_row = (gsize) ((n - r % n) % n) * n;

      for (guint x = 0; x < side; x++)
        data[(gsize) r * side + x] =
          (gfloat) (terrain_ter_height_at (stored, edited, file_row + x % n) /
                    TER_UNITS_PER_METRE);
    }

  return g_steal_pointer (&field);
}
