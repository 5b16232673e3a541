/* terrain-atlas-builder-issues.c: what a build did that its caller should
 * know (the heightmap padded, the texture stretched, the depth raised,
 * levels coarsened), told from the build's figures
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>

#include "terrain-atlas-builder-private.h"

/* The texture's pixels may differ in shape from the heightfield by this
 * fraction before the texture counts as stretched. */
#define STRETCH_TOLERANCE 0.01

static void
add (GPtrArray       *issues,
     TerrainIssue    *issue,
     const char      *rule)
{
  terrain_issue_set_rule (issue, rule);
  g_ptr_array_add (issues, issue);
}

/* The findings of a build that succeeded: @stats its figures, @fit how the
 * heightfield was made square and 2^N+1, @fitted_side the side it got. */
GPtrArray *
terrain_atlas_build_issues_new (const TerrainAtlasBuildStats *stats,
                                TerrainHeightfieldFit         fit,
                                guint                         fitted_side)
{
  GPtrArray *issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  guint w = stats->data_width, h = stats->data_height;

  /* Padding repeats the last column and row out to the fitted side: that
   * much of the terrain holds no data. */
  if (fit == TERRAIN_HEIGHTFIELD_FIT_PAD && w > 0 && h > 0 && (w != fitted_side || h != fitted_side))
    add (issues,
         terrain_issue_new (TERRAIN_SEVERITY_WARNING, "heights", -1, -1,
                            "the %ux%u heightmap was padded to %ux%u by repeating its last "
                            "column and row (%.0f%% of the terrain is padding); fitting it by "
                            "resampling stretches it instead",
                            w, h, fitted_side, fitted_side,
                            100.0 * (1.0 - (gdouble) w * h / ((gdouble) fitted_side * fitted_side))),
         "padded-heightmap");

  /* The texture covers the heightfield's samples whatever its shape. */
  if (stats->texture_width > 0 && stats->texture_height > 0 && w >= 2 && h >= 2)
    {
      gdouble texture_aspect = (gdouble) stats->texture_width / stats->texture_height;
      gdouble terrain_aspect = (gdouble) (w - 1) / (h - 1);

      if (fabs (texture_aspect / terrain_aspect - 1.0) > STRETCH_TOLERANCE)
        add (issues,
             terrain_issue_new (TERRAIN_SEVERITY_WARNING, "texture", -1, -1,
                                "the %ux%u texture is stretched over the %ux%u heightmap: a "
                                "pixel covers %.3g m across but %.3g m down; crop or pad the "
                                "texture to the heightmap's proportions",
                                stats->texture_width, stats->texture_height, w, h,
                                (w - 1) * stats->spacing / stats->texture_width,
                                (h - 1) * stats->spacing / stats->texture_height),
             "stretched-texture");
    }

  if (stats->tree_depth != stats->requested_depth)
    add (issues,
         terrain_issue_new (TERRAIN_SEVERITY_INFO, "geometry", -1, -1,
                            "depth raised from %u to %u so that leaf chunks fit 16-bit indices "
                            "and collision offsets", stats->requested_depth, stats->tree_depth),
         "raised-depth");
  if (stats->n_coarsened_levels > 0)
    add (issues,
         terrain_issue_new (TERRAIN_SEVERITY_INFO, "geometry", -1, -1,
                            "%u coarser levels got a larger error to stay within 65535 "
                            "vertices a chunk", stats->n_coarsened_levels),
         "coarsened-levels");
  return issues;
}
