/* terrain-editor-atlas-renderer-select.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Choosing what a frame of the Atlas renderer draws: the walk from the
 * root refining nodes by projected error and texel size, the texture tile
 * of each drawn chunk, and the requests for what is missing.
 */

#include "config.h"

#include "terrain-editor-atlas-renderer-private.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------------
 * Selection
 */

static Tile *
get_tile (TerrainEditorAtlasRenderer *self,
          guint                       level,
          guint32                     x,
          guint32                     y)
{
  gint64 stub = terrain_atlas_toc_find_stub (self->texture_toc, level, x, y);
  Tile *tile;

  if (stub < 0)
    return NULL;
  tile = g_hash_table_lookup (self->tiles, GUINT_TO_POINTER ((guint) stub));
  if (tile == NULL)
    {
      g_autoptr(TerrainAtlasStub) s = terrain_atlas_toc_get_stub (self->texture_toc, (guint) stub);

      tile = g_new0 (Tile, 1);
      tile->link.data = tile;
      tile->stub = stub;
      tile->level = (guint8) level;
      tile->x = x;
      tile->y = y;
      tile->state = terrain_atlas_stub_has_chunk (s) ? STATE_UNLOADED : STATE_ABSENT;
      g_hash_table_insert (self->tiles, GUINT_TO_POINTER ((guint) stub), tile);
    }
  return tile;
}

static void
request_node (TerrainEditorAtlasRenderer *self,
              Node                       *node,
              double                      dist)
{
  Request r = { node, NULL, node->level, dist };

  if (node->requested == self->round)
    return;
  node->requested = self->round;
  g_array_append_val (self->requests, r);
}

static void
request_tile (TerrainEditorAtlasRenderer *self,
              Tile                       *tile,
              double                      dist)
{
  Request r = { NULL, tile, tile->level, dist };

  if (tile->state != STATE_UNLOADED || tile->requested == self->round)
    return;
  tile->requested = self->round;
  g_array_append_val (self->requests, r);
}

/* Whether the chunk's texture coordinates lie in tile (level, x, y). */
static gboolean
tile_holds (const Node *node,
            guint       level,
            guint32     x,
            guint32     y)
{
  double tx, ty, side = terrain_quadtree_texture_tile_rect (level, x, y, &tx, &ty);
  double eps = 1e-4 * side;

  return side > 0 &&
         node->tc_min[0] >= tx - eps && node->tc_max[0] <= tx + side + eps &&
         node->tc_min[1] >= ty - eps && node->tc_max[1] <= ty + side + eps;
}

/* The tile at the chunk's level (or the texture tree's deepest), else the
 * deepest resident ancestor while that one is requested. */
static Tile *
choose_tile (TerrainEditorAtlasRenderer *self,
             Node                       *node,
             double                      dist)
{
  guint level;
  guint32 x = 0, y = 0;
  Tile *best = NULL;

  if (self->texture_toc == NULL || !node->have_tc)
    return NULL;

  level = MIN (node->level, self->texture_depth - 1);
  for (;;)
    {
      terrain_quadtree_texture_node_at (level, (node->tc_min[0] + node->tc_max[0]) / 2,
                                        (node->tc_min[1] + node->tc_max[1]) / 2, &x, &y);
      if (level == 0 || tile_holds (node, level, x, y))
        break;
      level--;
    }

  for (guint k = level + 1; k-- > 0;)
    {
      Tile *tile = get_tile (self, k, x >> (level - k), y >> (level - k));

      if (tile == NULL)
        continue;
      if (tile->state == STATE_RESIDENT)
        {
          best = tile;
          break;
        }
      if (k == level)
        request_tile (self, tile, dist);
    }
  if (best == NULL)
    {
      Tile *root = get_tile (self, 0, 0, 0);

      if (root != NULL)
        request_tile (self, root, dist);
    }
  atlas_renderer_touch_tile (self, best);
  return best;
}

static double
level_error (TerrainEditorAtlasRenderer *self,
             guint                       level)
{
  /* level_morph[k]: the largest morph error seen at level k, the error of
   * level k − 1; deeper levels halve it. */
  for (guint k = MIN (level + 1, MAX_LEVELS - 1); k >= 1; k--)
    if (self->level_morph[k] >= 0)
      return self->level_morph[k] * ldexp (1.0, -(int) (level + 1 - k));
  return self->prior_error * ldexp (1.0, -(int) level);
}

static double
node_error (TerrainEditorAtlasRenderer *self,
            Node                       *node)
{
  double worst = 0;

  if (node->children == NULL)
    return level_error (self, node->level);
  for (guint i = 0; i < 4; i++)
    {
      const Node *c = &node->children[i];

      if (c->state == STATE_ABSENT || c->state == STATE_FAILED)
        continue;
      if (c->morph_error < 0)
        return level_error (self, node->level);
      worst = MAX (worst, c->morph_error);
    }
  return worst;
}

static void
add_draw (TerrainEditorAtlasRenderer *self,
          Node                       *node,
          double                      dist,
          double                      parent_sse)
{
  DrawItem item;

  item.node = node;
  item.dist = dist;
  /* At the refinement threshold a child looks like its parent; at twice
   * the threshold it is itself. */
  item.morph = (float) CLAMP (2.0 - parent_sse / TAU_PIXELS, 0.0, 1.0);
  item.tile = choose_tile (self, node, dist);
  g_array_append_val (self->draw_list, item);
}

static void
select_node (TerrainEditorAtlasRenderer    *self,
             const TerrainEditorAtlasFrame *frame,
             Node                          *node,
             double                         parent_sse)
{
  double dist = MAX (atlas_renderer_box_distance (node->box, frame->eye), 1e-3);
  double sse = 0;
  gboolean refine = FALSE;

  if (node->level + 1u < self->geometry_depth)
    {
      double size = MAX (node->box[3] - node->box[0], node->box[5] - node->box[2]);
      double texel = size / (self->tile_pixels ? self->tile_pixels : DEFAULT_TILE_PIXELS);

      sse = node_error (self, node) * frame->pixels_per_unit / dist;
      refine = sse > TAU_PIXELS ||
               (self->texture_toc != NULL && node->level + 1u < self->texture_depth &&
                texel * frame->pixels_per_unit / dist > TEXEL_PIXELS);
    }

  if (refine)
    {
      gboolean ready = TRUE;

      atlas_renderer_node_expand (self, node);
      for (guint i = 0; i < 4; i++)
        {
          Node *c = &node->children[i];

          if (!atlas_renderer_box_visible (frame->view_proj, c->box))
            continue;
          if (c->state == STATE_ABSENT || c->state == STATE_FAILED)
            ready = FALSE;
          else if (c->state == STATE_UNLOADED)
            {
              request_node (self, c, MAX (atlas_renderer_box_distance (c->box, frame->eye), 1e-3));
              ready = FALSE;
            }
          else
            atlas_renderer_touch_chunk (self, c->chunk);
        }
      if (ready)
        {
          for (guint i = 0; i < 4; i++)
            {
              Node *c = &node->children[i];

              if (c->state == STATE_RESIDENT && atlas_renderer_box_visible (frame->view_proj, c->box))
                select_node (self, frame, c, sse);
            }
          atlas_renderer_touch_chunk (self, node->chunk);
          return;
        }
    }

  add_draw (self, node, dist, parent_sse);
  atlas_renderer_touch_chunk (self, node->chunk);
}

int
atlas_renderer_compare_requests (gconstpointer a,
                  gconstpointer b)
{
  const Request *x = a, *y = b;

  if (x->level != y->level)
    return x->level < y->level ? -1 : 1;
  return (x->dist > y->dist) - (x->dist < y->dist);
}

int
atlas_renderer_compare_draw_items (gconstpointer a,
                    gconstpointer b)
{
  const DrawItem *x = a, *y = b;

  return (x->dist > y->dist) - (x->dist < y->dist);
}

void
atlas_renderer_select_all (TerrainEditorAtlasRenderer    *self,
            const TerrainEditorAtlasFrame *frame)
{
  self->round++;
  g_array_set_size (self->draw_list, 0);
  g_array_set_size (self->requests, 0);

  if (self->root->state == STATE_UNLOADED)
    request_node (self, self->root, MAX (atlas_renderer_box_distance (self->root->box, frame->eye), 1e-3));
  else if (self->root->state == STATE_RESIDENT && atlas_renderer_box_visible (frame->view_proj, self->root->box))
    select_node (self, frame, self->root, G_MAXDOUBLE);
}
