/* terrain-atlas-builder-geometry.c: chunked-LOD geometry for the Atlas
 * builder
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The mesh of every chunk is a restricted bintree (4-8 mesh) over the grid,
 * as in Lindstrom's and Ulrich's chunked LOD (field-notes.md, "Chunked LOD
 * error metric"). Every grid vertex except the four root corners is the
 * midpoint of exactly one diamond: two right triangles sharing their long
 * edge. The builder works in three passes:
 *
 * 1. Activation. For each vertex v, E(v) is the largest difference between
 *    the heightfield and the two unsplit triangles of v's diamond, over
 *    every sample of the diamond: the exact error the mesh makes there when
 *    v is left out. (Ulrich measures only the midpoint; the exact error is
 *    what lets the finest level stay within the threshold everywhere.) v is
 *    needed at LOD k when E(v) > error × 2^k, so act(v) counts the
 *    thresholds E(v) passes. Then act is closed over the dependency DAG
 *    (a vertex's act is at least its children's), which makes every mesh
 *    built from act crack-free. The grid is processed in tiles, each sample
 *    read once per bintree level; coarse diamonds get the maximum of their
 *    parts in every tile.
 *
 * 2. Planning. A chunk at tree level L holds the vertices with act >
 *    lod[L] (lod[L] = depth - 1 - L by default). Counts follow from act
 *    alone, so the planner checks the 16-bit limits before any mesh is
 *    made: leaves too big for U16 vertex indices or collision offsets
 *    deepen the tree ("splitting"); inner levels too big raise their LOD
 *    ("refining" to a coarser error). Nothing is refused.
 *
 * 3. Chunks, from the leaves up (a chunk's bounds hold its children's),
 *    each level's chunks in parallel: the bintree recursion inside the
 *    chunk's square, skirts around its border, morph offsets towards the
 *    parent's mesh, normals, bounds, collision for leaves, and the body
 *    encoded for the TOC's version.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-atlas-builder-private.h"
#include "terrain-atlas-builder-collision-private.h"
#include "terrain-quadtree.h"
#include "core/terrain-error.h"
#include "core/terrain-writer-private.h"

/* Vertices a chunk may have: U16 indices, 0xFFFF kept free. */
#define MAX_CHUNK_VERTICES 65535

/* Index offsets a collision entry can name (0xFFFF ends a list). */

#define GEOMETRY_BATCH 256

#define COLLISION_PRESENT 0xDF
#define COLLISION_ABSENT  0x0F

/* ------------------------------------------------------------------------
 * 2. Planning
 */

/* The grid square of geometry node (level, x, y): node X is world X (grid
 * column), node Y is world Y, which grows northwards, against the rows. */
static inline void
node_square (const BuildState *state,
             guint             level,
             guint32           x,
             guint32           y,
             gint64           *x0,
             gint64           *y0,
             gint64           *size)
{
  gint64 cs = (gint64) state->side >> level;

  *size = cs;
  *x0 = (gint64) x * cs;
  *y0 = (gint64) state->side - ((gint64) y + 1) * cs;
}

typedef struct
{
  guint vertices;     /* surface vertices */
  guint boundary;     /* of them on the border: as many skirt vertices */
  guint64 triangles;  /* surface triangles */
} ChunkCount;

/* Counts rows @ya to @yb (exclusive) of the chunk of @cs cells at
 * (@x0, @y0): its samples active at @lod inside (@inner) and on its
 * border (@border), the four corners left out. */
static void
count_rows (const BuildState *state,
            gint64            x0,
            gint64            y0,
            gint64            cs,
            guint             lod,
            gint64            ya,
            gint64            yb,
            guint64          *inner,
            guint64          *border)
{
  for (gint64 y = ya; y < yb; y++)
    {
      const guint8 *row = state->act + act_index (state, x0, y);
      gboolean edge_row = y == y0 || y == y0 + cs;

      /* A row's count in 32 bits (a row has under 2^31 samples), which
       * the compiler keeps in vector lanes. */
      guint32 n = 0;

      for (gint64 x = 1; x < cs; x++)
        n += row[x] > lod;
      if (edge_row)
        *border += n;
      else
        {
          *border += (row[0] > lod) + (row[cs] > lod);
          *inner += n;
        }
    }
}

static void
chunk_count (guint64     inner,
             guint64     border,
             ChunkCount *count)
{
  count->vertices = (guint) MIN (4 + inner + border, G_MAXUINT);
  count->boundary = (guint) MIN (4 + border, G_MAXUINT);
  count->triangles = 2 + 2 * inner + border;
}

static gboolean
chunk_too_big (const ChunkCount *count,
               gboolean          collision)
{
  return (guint64) count->vertices + count->boundary > MAX_CHUNK_VERTICES ||
         (collision && count->triangles * 3 >= MAX_COLLISION_INDEX);
}

/* A level of fewer chunks than this is cut into bands of rows, so that
 * every thread counts. */
#define FIT_ITEMS_MIN 64

typedef struct
{
  guint level;
  guint lod;
  gboolean collision;
  guint bands;         /* of each chunk's rows, one item each */
  guint64 *inner;      /* per item, when bands > 1 */
  guint64 *border;
  gint too_big;        /* atomic: a whole chunk (bands == 1) broke a limit */
} FitJob;

static gboolean
fit_item (BuildState  *state,
          gpointer     data,
          gpointer     scratch,
          guint        item,
          GError     **error)
{
  FitJob *job = data;
  guint chunk = item / job->bands, band = item % job->bands;
  guint32 n = (guint32) 1 << job->level;
  gint64 x0, y0, cs, ya, yb;
  guint64 inner = 0, border = 0;

  (void) scratch;
  (void) error;

  if (g_atomic_int_get (&job->too_big))
    return TRUE;
  node_square (state, job->level, chunk % n, chunk / n, &x0, &y0, &cs);
  ya = y0 + (cs + 1) * band / job->bands;
  yb = y0 + (cs + 1) * (band + 1) / job->bands;
  count_rows (state, x0, y0, cs, job->lod, ya, yb, &inner, &border);
  if (job->bands > 1)
    {
      job->inner[item] = inner;
      job->border[item] = border;
    }
  else
    {
      ChunkCount count;

      chunk_count (inner, border, &count);
      if (chunk_too_big (&count, job->collision))
        g_atomic_int_set (&job->too_big, 1);
    }
  return TRUE;
}

/* Whether every chunk of @level fits at @lod. The chunks are counted on
 * the builder's threads (the planning scans the whole activation grid once
 * a level: 16 ms of one thread on 4097^2, issue 18). */
static gboolean
level_fits (BuildState *state,
            guint       level,
            guint       lod,
            gboolean    leaf)
{
  gint64 cs = (gint64) state->side >> level;
  guint64 chunks = (guint64) 1 << (2 * level);
  FitJob job = { level, lod, leaf && state->collision_depth > 0 && state->version >= 120, 1 };
  gboolean fits = TRUE;

  /* Chunks that cannot reach a limit need no count. */
  if ((cs + 1) * (cs + 1) + 4 * cs <= MAX_CHUNK_VERTICES &&
      (!job.collision || 2 * cs * cs * 3 < MAX_COLLISION_INDEX))
    return TRUE;

  if (chunks < FIT_ITEMS_MIN && state->n_threads > 1)
    {
      job.bands = (guint) MIN ((guint64) FIT_ITEMS_MIN / chunks, (guint64) cs + 1);
      job.inner = g_new0 (guint64, chunks * job.bands);
      job.border = g_new0 (guint64, chunks * job.bands);
    }
  /* A cancelled run stops early; the planner's caller reports it. */
  if (!build_run_parallel (state, (guint) (chunks * job.bands), fit_item, &job, NULL, NULL,
                           NULL))
    fits = TRUE;
  else if (job.bands > 1)
    for (guint64 c = 0; c < chunks && fits; c++)
      {
        guint64 inner = 0, border = 0;
        ChunkCount count;

        for (guint b = 0; b < job.bands; b++)
          {
            inner += job.inner[c * job.bands + b];
            border += job.border[c * job.bands + b];
          }
        chunk_count (inner, border, &count);
        fits = !chunk_too_big (&count, job.collision);
      }
  else
    fits = !g_atomic_int_get (&job.too_big);
  g_free (job.inner);
  g_free (job.border);
  return fits;
}

/* Chooses the LOD of every level for state->depth, deepening the tree while
 * its leaves break a 16-bit limit. */
gboolean
build_geometry_plan (BuildState  *state,
                     GError     **error)
{
  for (;;)
    {
      guint depth = state->depth;

      state->leaf = state->side >> (depth - 1);
      if (depth < ATLAS_MAX_TREE_DEPTH && state->leaf > 2 &&
          !level_fits (state, depth - 1, 0, TRUE))
        {
          state->depth++;
          continue;
        }

      state->lod[depth - 1] = 0;
      state->stats.n_coarsened_levels = 0;
      for (gint level = (gint) depth - 2; level >= 0; level--)
        {
          guint lod = MAX ((guint) (depth - 1 - level), state->lod[level + 1] + 1);
          gboolean raised = FALSE;

          while (lod < 254 && !level_fits (state, (guint) level, lod, FALSE))
            {
              lod++;
              raised = TRUE;
            }
          state->lod[level] = lod;
          if (raised)
            state->stats.n_coarsened_levels++;
        }
      break;
    }

  if (g_cancellable_set_error_if_cancelled (state->cancellable, error))
    return FALSE;
  return TRUE;
}

/* ------------------------------------------------------------------------
 * 3. Chunks
 */

#define HASH_BITS 17
#define HASH_SIZE (1u << HASH_BITS)

/* Chunks up to this many cells a side index their vertices in a dense grid;
 * larger ones (few vertices over a large square) in a hash table. */
#define DENSE_MAX_SIDE 512

typedef struct
{
  guint32 x;
  guint32 y;
  gdouble parent;      /* height of the parent's mesh at this point */
} GridPoint;

typedef struct
{
  /* Hash table of chunks over DENSE_MAX_SIDE, made on first use. */
  guint64 *keys;
  guint32 *stamps;
  guint16 *values;
  /* Dense grid of the largest chunk so far: dense_size points. */
  guint32 *dense_stamps;
  guint16 *dense_values;
  gsize dense_size;
  GAsyncQueue *cache;  /* where chunk_scratch_free () returns it */
  guint32 stamp;
  gboolean dense;
  gint64 x0;
  gint64 y0;
  gint64 stride;

  const BuildState *state;
  GridPoint *points;   /* surface vertices */
  guint n_points;
  guint32 *indices;
  guint n_indices;
  guint indices_size;
  TerrainAtlasVertex *vertices;
  guint8 *frame;       /* handed to the chunk's result when built */
  gsize frame_size;
  CollisionScratch collision;  /* a leaf's collision lists */
  guint lod;
  gint parent_lod;     /* -1 for the root: every vertex is its own parent */
  gboolean overflow;
} ChunkScratch;

typedef struct
{
  guint8 *frame;
  gsize size;
  TerrainAtlasBox bounds;
  guint n_vertices;
  guint n_skirt_vertices;
  guint n_triangles;
  guint n_skirt_triangles;
  gdouble max_error;
  gboolean too_big;
  gboolean ready;
} ChunkResult;

/* One batch of a level's chunks. Workers write finished chunks in stub
 * order themselves (whoever finishes the next one to write writes every
 * ready one after it), so writing overlaps with meshing. */
typedef struct
{
  guint level;
  guint first;         /* first item of the batch, in level order */
  guint count;
  ChunkResult *results;
  TerrainAtlasToc *toc;
  GMutex lock;
  guint next;          /* first result not yet written */
  gboolean writing;    /* a worker is writing results (not under the lock) */
  gboolean failed;     /* writing failed: nothing more is written */
} LevelJob;

/* A worker's scratch, reused across the batches and levels of one build
 * (state->scratch_cache): its buffers are sized to the largest chunk it has
 * met, not to the limits, so a batch costs no allocation or clearing. */
static gpointer
chunk_scratch_new (BuildState *state)
{
  ChunkScratch *s = g_async_queue_try_pop (state->scratch_cache);

  if (s != NULL)
    return s;
  s = g_new0 (ChunkScratch, 1);
  s->state = state;
  s->cache = state->scratch_cache;
  s->points = g_new (GridPoint, MAX_CHUNK_VERTICES);
  s->vertices = g_new (TerrainAtlasVertex, MAX_CHUNK_VERTICES);
  s->indices_size = 6 * 4096;
  s->indices = g_new (guint32, s->indices_size);
  return s;
}

static void
chunk_scratch_destroy (gpointer data)
{
  ChunkScratch *s = data;

  g_free (s->keys);
  g_free (s->stamps);
  g_free (s->values);
  g_free (s->dense_stamps);
  g_free (s->dense_values);
  g_free (s->points);
  g_free (s->vertices);
  g_free (s->indices);
  g_free (s->frame);
  g_free (s->collision.pairs);
  g_free (s->collision.sides);
  g_free (s);
}

/* Hands the scratch back to the build's cache for the next batch. */
static void
chunk_scratch_free (gpointer data)
{
  ChunkScratch *s = data;

  g_async_queue_push (s->cache, s);
}

static inline guint32
hash_slot (guint64 key)
{
  return (guint32) ((key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> (64 - HASH_BITS));
}

static void
chunk_reset (ChunkScratch *s,
             gint64        x0,
             gint64        y0,
             gint64        cs)
{
  s->dense = cs <= DENSE_MAX_SIDE;
  if (s->dense && (gsize) (cs + 1) * (gsize) (cs + 1) > s->dense_size)
    {
      /* Fresh stamps are 0, which no chunk's stamp is. */
      s->dense_size = (gsize) (cs + 1) * (gsize) (cs + 1);
      g_free (s->dense_stamps);
      g_free (s->dense_values);
      s->dense_stamps = g_new0 (guint32, s->dense_size);
      s->dense_values = g_new (guint16, s->dense_size);
    }
  else if (!s->dense && s->keys == NULL)
    {
      s->keys = g_new (guint64, HASH_SIZE);
      s->stamps = g_new0 (guint32, HASH_SIZE);
      s->values = g_new (guint16, HASH_SIZE);
    }
  s->stamp++;
  if (s->stamp == 0)
    {
      if (s->stamps != NULL)
        memset (s->stamps, 0, sizeof (guint32) * HASH_SIZE);
      if (s->dense_stamps != NULL)
        memset (s->dense_stamps, 0, sizeof (guint32) * s->dense_size);
      s->stamp = 1;
    }
  s->x0 = x0;
  s->y0 = y0;
  s->stride = cs + 1;
  s->n_points = 0;
  s->n_indices = 0;
  s->overflow = FALSE;
}

/* The chunk-local index of grid point (x, y), or -1. */
static inline gint
vertex_lookup (ChunkScratch *s,
               gint64        x,
               gint64        y)
{
  guint64 key;

  if (s->dense)
    {
      gsize i = (gsize) ((y - s->y0) * s->stride + (x - s->x0));

      return s->dense_stamps[i] == s->stamp ? s->dense_values[i] : -1;
    }

  key = ((guint64) y << 32) | (guint64) x;
  for (guint32 i = hash_slot (key);; i = (i + 1) & (HASH_SIZE - 1))
    {
      if (s->stamps[i] != s->stamp)
        return -1;
      if (s->keys[i] == key)
        return s->values[i];
    }
}

/* The index of grid point (x, y); a new vertex gets @parent as the height
 * of the parent's mesh there. */
static inline guint32
vertex_get (ChunkScratch *s,
            gint64        x,
            gint64        y,
            gdouble       parent)
{
  guint32 *stamp;
  guint16 *value;
  GridPoint *p;

  if (s->dense)
    {
      gsize i = (gsize) ((y - s->y0) * s->stride + (x - s->x0));

      stamp = &s->dense_stamps[i];
      value = &s->dense_values[i];
    }
  else
    {
      guint64 key = ((guint64) y << 32) | (guint64) x;
      guint32 i;

      for (i = hash_slot (key); s->stamps[i] == s->stamp; i = (i + 1) & (HASH_SIZE - 1))
        if (s->keys[i] == key)
          return s->values[i];
      s->keys[i] = key;
      stamp = &s->stamps[i];
      value = &s->values[i];
    }

  if (*stamp == s->stamp)
    return *value;

  if (s->n_points >= MAX_CHUNK_VERTICES)
    {
      /* The planner's counts rule this out; keep going safely. */
      s->overflow = TRUE;
      return 0;
    }
  *stamp = s->stamp;
  *value = (guint16) s->n_points;
  p = &s->points[s->n_points++];
  p->x = (guint32) x;
  p->y = (guint32) y;
  p->parent = parent;
  return *value;
}

static inline void
push_indices (ChunkScratch  *s,
              const guint32 *tri,
              guint          n)
{
  if (s->n_indices + n > s->indices_size)
    {
      s->indices_size = MAX (2 * s->indices_size, s->n_indices + n);
      s->indices = g_renew (guint32, s->indices, s->indices_size);
    }
  memcpy (s->indices + s->n_indices, tri, n * sizeof (guint32));
  s->n_indices += n;
}

/* Triangle (apex a, hypotenuse l-r), vertices ia, il, ir; splits at the
 * hypotenuse's midpoint m while m is active. Children (m, a, l) and
 * (m, r, a) keep the winding. The parent's mesh height at a new m is its
 * own height when the parent has m, else halfway along l-r: the parent's
 * mesh is planar there. */
static void
mesh_triangle (const BuildState *state,
               ChunkScratch     *s,
               guint32 ia, guint32 il, guint32 ir,
               gint64 ax, gint64 ay,
               gint64 lx, gint64 ly,
               gint64 rx, gint64 ry)
{
  /* Both sums even: halving them is a shift. */
  if ((((lx + rx) | (ly + ry)) & 1) == 0)
    {
      gint64 mx = (lx + rx) >> 1, my = (ly + ry) >> 1;
      guint8 act = state->act[act_index (state, mx, my)];

      if (act > s->lod)
        {
          gdouble parent = (gint) act > s->parent_lod ?
                           terrain_heightfield_sample_stored (state->field, (guint) mx, (guint) my) :
                           (s->points[il].parent + s->points[ir].parent) / 2;
          guint32 im = vertex_get (s, mx, my, parent);

          mesh_triangle (state, s, im, ia, il, mx, my, ax, ay, lx, ly);
          mesh_triangle (state, s, im, ir, ia, mx, my, rx, ry, ax, ay);
          return;
        }
    }

  if (G_UNLIKELY (s->n_indices + 3 > s->indices_size))
    {
      s->indices_size *= 2;
      s->indices = g_renew (guint32, s->indices, s->indices_size);
    }
  s->indices[s->n_indices++] = ia;
  s->indices[s->n_indices++] = il;
  s->indices[s->n_indices++] = ir;
}

/* The two top triangles of a square, wound counter-clockwise seen from
 * above in world space (grid rows run against world Y). */
static void
square_triangles (gint64 x0,
                  gint64 y0,
                  gint64 size,
                  gint64 tri[2][6])
{
  gint64 x1 = x0 + size, y1 = y0 + size;

  if (square_is_type_a (x0, y0, size))
    {
      gint64 t[2][6] = { { x1, y0, x0, y0, x1, y1 }, { x0, y1, x1, y1, x0, y0 } };

      memcpy (tri, t, sizeof t);
    }
  else
    {
      gint64 t[2][6] = { { x0, y0, x0, y1, x1, y0 }, { x1, y1, x1, y0, x0, y1 } };

      memcpy (tri, t, sizeof t);
    }
}

static inline gint64
cross (gint64 ax, gint64 ay,
       gint64 bx, gint64 by)
{
  return ax * by - ay * bx;
}

/* Height of the mesh of the square (x0, y0, size) at LOD @lod at grid point
 * (px, py): the parent's mesh, where a morphing vertex is headed. */
static gdouble
mesh_height (const BuildState *state,
             gint64            x0,
             gint64            y0,
             gint64            size,
             guint             lod,
             gint64            px,
             gint64            py)
{
  gint64 tri[2][6];
  gint64 ax, ay, lx, ly, rx, ry;
  const gint64 *t;

  square_triangles (x0, y0, size, tri);
  if (square_is_type_a (x0, y0, size))
    t = (px - x0) >= (py - y0) ? tri[0] : tri[1];
  else
    t = (px - x0) + (py - y0) <= size ? tri[0] : tri[1];
  ax = t[0]; ay = t[1]; lx = t[2]; ly = t[3]; rx = t[4]; ry = t[5];

  for (;;)
    {
      gint64 mx, my;

      if ((px == ax && py == ay) || (px == lx && py == ly) || (px == rx && py == ry))
        return terrain_heightfield_sample_stored (state->field, (guint) px, (guint) py);

      if (((lx + rx) & 1) == 0 && ((ly + ry) & 1) == 0 &&
          state->act[act_index (state, (lx + rx) / 2, (ly + ry) / 2)] > lod)
        {
          gint64 side_p, side_l;

          mx = (lx + rx) / 2;
          my = (ly + ry) / 2;
          side_p = cross (mx - ax, my - ay, px - ax, py - ay);
          side_l = cross (mx - ax, my - ay, lx - ax, ly - ay);
          if (side_p == 0 || (side_p > 0) == (side_l > 0))
            {
              /* (m, a, l): the child holding l */
              gint64 nlx = ax, nly = ay, nrx = lx, nry = ly;

              lx = nlx; ly = nly; rx = nrx; ry = nry;
            }
          else
            {
              /* (m, r, a): the child holding r */
              gint64 nlx = rx, nly = ry, nrx = ax, nry = ay;

              lx = nlx; ly = nly; rx = nrx; ry = nry;
            }
          ax = mx;
          ay = my;
          continue;
        }

      {
        gdouble ha = terrain_heightfield_sample_stored (state->field, (guint) ax, (guint) ay);
        gdouble hl = terrain_heightfield_sample_stored (state->field, (guint) lx, (guint) ly);
        gdouble hr = terrain_heightfield_sample_stored (state->field, (guint) rx, (guint) ry);
        gdouble area = (gdouble) cross (lx - ax, ly - ay, rx - ax, ry - ay);
        gdouble wl = (gdouble) cross (px - ax, py - ay, rx - ax, ry - ay) / area;
        gdouble wr = (gdouble) cross (lx - ax, ly - ay, px - ax, py - ay) / area;

        return ha + wl * (hl - ha) + wr * (hr - ha);
      }
    }
}

static inline gfloat
sample_clamped (const BuildState *state,
                gint64            x,
                gint64            y)
{
  x = CLAMP (x, 0, (gint64) state->side);
  y = CLAMP (y, 0, (gint64) state->side);
  return terrain_heightfield_sample_stored (state->field, (guint) x, (guint) y);
}

static void
fill_vertex (const BuildState   *state,
             TerrainAtlasVertex *v,
             gint64              gx,
             gint64              gy,
             gdouble             parent)
{
  gdouble sp = state->spacing, side = state->side;
  /* The normal is (−dz/dx, dz/dy, 1) normalised; kept as the height
   * differences over twice the spacing and scaled by their largest part
   * first, so that a steep slope over a tiny spacing (1e-300 m) gives a
   * unit vector instead of ∞/∞ (fuzz-builder-options). */
  gdouble dx = sample_clamped (state, gx + 1, gy) - sample_clamped (state, gx - 1, gy);
  gdouble dy = sample_clamped (state, gx, gy + 1) - sample_clamped (state, gx, gy - 1);
  gdouble dz = 2 * sp;
  gdouble m = MAX (MAX (fabs (dx), fabs (dy)), dz);
  gdouble nl;

  dx /= m, dy /= m, dz /= m;
  nl = sqrt (dx * dx + dy * dy + dz * dz);

  v->point[0] = (gfloat) (gx * sp);
  v->point[1] = (gfloat) ((side - gy) * sp);
  v->point[2] = terrain_heightfield_sample_stored (state->field, (guint) gx, (guint) gy);
  /* Morph offset: the parent's mesh height here minus this height (0 for
   * the root, whose parent height is its own). */
  /* atlas-chu-tqt.md §9b: texCoord = (Y / height, 1 − X / width). */
  v->tex_coord[0] = (gfloat) ((side - gy) / side);
  v->tex_coord[1] = (gfloat) (1.0 - gx / side);
  v->tex_morph_offset[0] = v->tex_morph_offset[1] = 0.0f;
  v->point_morph_offset[0] = v->point_morph_offset[1] = 0.0f;
  v->point_morph_offset[2] = (gfloat) (parent - v->point[2]);
  /* World Y runs against the rows, so d/dY = −d/drow. */
  v->normal[0] = (gfloat) (-dx / nl);
  v->normal[1] = (gfloat) (dy / nl);
  v->normal[2] = (gfloat) (dz / nl);
}

static void
box_add (TerrainAtlasBox *box,
         const gfloat     p[3])
{
  for (guint c = 0; c < 3; c++)
    {
      box->min[c] = MIN (box->min[c], p[c]);
      box->max[c] = MAX (box->max[c], p[c]);
    }
}

/* Little-endian stores into the frame being built. */
static inline guint8 *
put_u32 (guint8  *p,
         guint32  v)
{
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
  p[2] = (v >> 16) & 0xff;
  p[3] = v >> 24;
  return p + 4;
}

static inline guint8 *
put_floats (guint8       *p,
            const gfloat *f,
            guint         n)
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  memcpy (p, f, 4 * (gsize) n);
  return p + 4 * (gsize) n;
#else
  for (guint i = 0; i < n; i++)
    {
      guint32 u;

      memcpy (&u, &f[i], 4);
      p = put_u32 (p, u);
    }
  return p;
#endif
}

static inline guint8 *
put_box (guint8                *p,
         const TerrainAtlasBox *box)
{
  p = put_floats (p, box->min, 3);
  return put_floats (p, box->max, 3);
}

static guint8 *
put_u16s (guint8        *p,
          const guint16 *v,
          gsize          n)
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  memcpy (p, v, 2 * n);
#else
  for (gsize i = 0; i < n; i++)
    {
      p[2 * i] = v[i] & 0xff;
      p[2 * i + 1] = v[i] >> 8;
    }
#endif
  return p + 2 * n;
}

/* The low 16 bits of each of @n indices, little-endian. */
static guint8 *
put_indices (guint8        *p,
             const guint32 *v,
             gsize          n)
{
  for (gsize i = 0; i < n; i++)
    {
      guint16 u = GUINT16_TO_LE ((guint16) v[i]);

      memcpy (p + 2 * i, &u, 2);
    }
  return p + 2 * n;
}

/* The geometry body in the layout of @version (atlas-chu-tqt.md §3),
 * framed (§2): ATSP, bodySize, agch, body, agct. Written into the
 * scratch's frame buffer, sized first. */
static gsize
encode_chunk (ChunkScratch             *s,
              guint32                   version,
              const TerrainAtlasBox    *bounds,
              guint                     n_skirt,
              const TerrainAtlasVertex *v,
              guint                     n_vertices,
              const Collision          *collision)
{
  gsize vertex_size = version >= 140 ? 52 : 40;
  gsize body = 4 + (version >= 120 ? 24 : 0) + 8 + 2 * (gsize) s->n_indices + 4 +
               vertex_size * n_vertices + (version >= 101 && version < 120 ? 24 : 0);
  guint8 *p, *body_start;

  if (version >= 120)
    {
      body += 1 + 4;
      if (collision != NULL)
        body += 4 + 8 * (gsize) collision->n_nodes + 4 + 2 * (gsize) collision->n_offsets + 4 +
                2 * (gsize) collision->n_entries;
    }
  if (s->frame_size < body + ATLAS_FRAME_OVERHEAD)
    {
      s->frame_size = MAX (body + ATLAS_FRAME_OVERHEAD, 2 * s->frame_size);
      s->frame = g_realloc (s->frame, s->frame_size);
    }

  p = put_u32 (s->frame, ATLAS_FRAME_MAGIC);
  p = put_u32 (p, (guint32) body);
  p = put_u32 (p, ATLAS_GEOM_HEAD);
  body_start = p;

  p = put_u32 (p, 0);                     /* previousChunk: a fresh file */
  if (version >= 120)
    p = put_box (p, bounds);
  p = put_u32 (p, s->n_indices);
  p = put_u32 (p, n_skirt);
  p = put_indices (p, s->indices, s->n_indices);
  p = put_u32 (p, n_vertices);
  if (version >= 140)
    {
      /* The canonical vertex is the version-140 field order. */
      G_STATIC_ASSERT (sizeof (TerrainAtlasVertex) == 52);
      p = put_floats (p, (const gfloat *) v, 13 * n_vertices);
    }
  else
    for (guint i = 0; i < n_vertices; i++)
      {
        p = put_floats (p, v[i].point, 3);
        p = put_floats (p, v[i].tex_coord, 2);
        if (version < 130)
          {
            p = put_floats (p, v[i].point_morph_offset, 3);
            p = put_floats (p, v[i].tex_morph_offset, 2);
          }
        else
          {
            p = put_floats (p, v[i].tex_morph_offset, 2);
            p = put_floats (p, v[i].point_morph_offset, 3);
          }
      }
  if (version >= 101 && version < 120)
    p = put_box (p, bounds);
  if (version >= 120)
    {
      if (collision != NULL)
        {
          *p++ = COLLISION_PRESENT;
          p = put_u32 (p, collision->depth);
          p = put_floats (p, collision->tree, 2 * collision->n_nodes);
          p = put_u32 (p, collision->n_offsets);
          p = put_u16s (p, collision->offsets, collision->n_offsets);
          p = put_u32 (p, collision->n_entries);
          p = put_u16s (p, collision->entries, collision->n_entries);
        }
      else
        *p++ = COLLISION_ABSENT;
      p = put_u32 (p, TERRAIN_ATLAS_GEOMETRY_FOOTER);
    }
  g_assert ((gsize) (p - body_start) == body);
  p = put_u32 (p, ATLAS_GEOM_TAIL);

  return (gsize) (p - s->frame);
}

/* Largest |heightfield − mesh| over the samples of one surface triangle. */
static gdouble
triangle_error (const BuildState *state,
                const GridPoint  *a,
                const GridPoint  *l,
                const GridPoint  *r)
{
  gint64 ax = a->x, ay = a->y, lx = l->x, ly = l->y, rx = r->x, ry = r->y;
  gdouble ha = terrain_heightfield_sample_stored (state->field, a->x, a->y);
  gdouble hl = terrain_heightfield_sample_stored (state->field, l->x, l->y);
  gdouble hr = terrain_heightfield_sample_stored (state->field, r->x, r->y);
  gdouble area = (gdouble) cross (lx - ax, ly - ay, rx - ax, ry - ay);
  gint64 ymin = MIN (MIN (ay, ly), ry), ymax = MAX (MAX (ay, ly), ry);
  gint64 xs[3][2] = { { ax, ay }, { lx, ly }, { rx, ry } };
  gdouble worst = 0.0;

  if (area == 0.0)
    return 0.0;

  for (gint64 y = ymin; y <= ymax; y++)
    {
      gint64 xmin = G_MAXINT64, xmax = G_MININT64;

      /* The edges are axis-aligned or diagonal, so crossings are whole. */
      for (guint e = 0; e < 3; e++)
        {
          const gint64 *p = xs[e], *q = xs[(e + 1) % 3];

          if (y < MIN (p[1], q[1]) || y > MAX (p[1], q[1]))
            continue;
          if (p[1] == q[1])
            {
              xmin = MIN (xmin, MIN (p[0], q[0]));
              xmax = MAX (xmax, MAX (p[0], q[0]));
            }
          else
            {
              gint64 x = p[0] + (q[0] - p[0]) * (y - p[1]) / (q[1] - p[1]);

              xmin = MIN (xmin, x);
              xmax = MAX (xmax, x);
            }
        }
      for (gint64 x = xmin; x <= xmax; x++)
        {
          gdouble wl = (gdouble) cross (x - ax, y - ay, rx - ax, ry - ay) / area;
          gdouble wr = (gdouble) cross (lx - ax, ly - ay, x - ax, y - ay) / area;
          gdouble z = ha + wl * (hl - ha) + wr * (hr - ha);
          gdouble h = terrain_heightfield_sample_stored (state->field, (guint) x, (guint) y);

          worst = MAX (worst, fabs (h - z));
        }
    }
  return worst;
}

/* Skirt depth below a chunk's border: more than the largest height step a
 * neighbour one level coarser can leave (its error plus this level's). */
static gdouble
skirt_depth (const BuildState *state,
             guint             level)
{
  guint lod = state->lod[level];
  guint coarser = level > 0 ? state->lod[level - 1] : lod + 1;

  gdouble depth = 2.0 * (ldexp (state->error, (gint) MIN (lod, 200)) +
                         ldexp (state->error, (gint) MIN (coarser, 200)));

  /* No crack can be deeper than the terrain's relief. */
  return MIN (depth, state->relief) + state->spacing;
}

static gboolean
build_chunk (BuildState  *state,
             gpointer     data,
             gpointer     scratch_data,
             guint        item,
             GError     **error)
{
  LevelJob *job = data;
  ChunkScratch *s = scratch_data;
  ChunkResult *result = &job->results[item];
  guint level = job->level;
  guint index = job->first + item;
  guint32 x = index >> level, y = index & (((guint32) 1 << level) - 1);
  gboolean leaf = level + 1 == state->depth;
  gint64 x0, y0, cs, tri[2][6];
  gint64 px0 = 0, py0 = 0, psize = 0;
  TerrainAtlasVertex *v = s->vertices;
  TerrainAtlasBox bounds;
  Collision collision = { 0 };
  guint n_surface, n_surface_indices, n_vertices, n_border = 0;
  guint32 border[4 * DENSE_MAX_SIDE];
  g_autofree guint32 *border_heap = NULL;
  guint32 *border_list = border;
  guint32 corner[2][3];
  gdouble depth;
  gsize size;

  (void) error;
  memset (result, 0, sizeof *result);

  node_square (state, level, x, y, &x0, &y0, &cs);
  chunk_reset (s, x0, y0, cs);
  s->lod = state->lod[level];
  s->parent_lod = level > 0 ? (gint) state->lod[level - 1] : -1;
  if (level > 0)
    node_square (state, level - 1, x / 2, y / 2, &px0, &py0, &psize);

  /* The surface: the square's corners, then its two top triangles split
   * while their midpoints are active. */
  square_triangles (x0, y0, cs, tri);
  for (guint k = 0; k < 2; k++)
    for (guint c = 0; c < 3; c++)
      {
        gint64 gx = tri[k][2 * c], gy = tri[k][2 * c + 1];
        gdouble parent = level > 0 ? mesh_height (state, px0, py0, psize, (guint) s->parent_lod,
                                                  gx, gy)
                                   : terrain_heightfield_sample_stored (state->field, (guint) gx,
                                                                        (guint) gy);

        corner[k][c] = vertex_get (s, gx, gy, parent);
      }
  for (guint k = 0; k < 2; k++)
    mesh_triangle (state, s, corner[k][0], corner[k][1], corner[k][2],
                   tri[k][0], tri[k][1], tri[k][2], tri[k][3], tri[k][4], tri[k][5]);
  n_surface = s->n_points;
  n_surface_indices = s->n_indices;

  /* The border, counter-clockwise seen from above: south (last row) west
   * to east, east column northwards, north row westwards, west column
   * southwards. */
  if (cs > DENSE_MAX_SIDE)
    border_list = border_heap = g_new (guint32, 4 * (gsize) cs);
  {
    gint64 x1 = x0 + cs, y1 = y0 + cs;
    struct { gint64 sx, sy, dx, dy; } sides[4] = {
      { x0, y1, 1, 0 }, { x1, y1, 0, -1 }, { x1, y0, -1, 0 }, { x0, y0, 0, 1 },
    };

    for (guint k = 0; k < 4; k++)
      for (gint64 i = 0; i < cs; i++)
        {
          gint found = vertex_lookup (s, sides[k].sx + sides[k].dx * i,
                                      sides[k].sy + sides[k].dy * i);

          if (found >= 0)
            border_list[n_border++] = (guint32) found;
        }
  }

  n_vertices = n_surface + n_border;
  if (s->overflow || n_vertices > MAX_CHUNK_VERTICES)
    {
      result->too_big = TRUE;
      return TRUE;
    }

  /* Vertices: surface, then one skirt vertex under each border vertex. */
  for (guint i = 0; i < n_surface; i++)
    {
      const GridPoint *p = &s->points[i];

      fill_vertex (state, &v[i], p->x, p->y, p->parent);
    }

  depth = skirt_depth (state, level);
  for (guint i = 0; i < n_border; i++)
    {
      TerrainAtlasVertex *skirt = &v[n_surface + i];

      *skirt = v[border_list[i]];
      skirt->point[2] = (gfloat) (skirt->point[2] - depth);
      skirt->point_morph_offset[2] = 0.0f;
    }

  /* Skirt triangles: (p, p', q) and (q, p', q') face outwards. */
  for (guint i = 0; i < n_border; i++)
    {
      guint32 p = border_list[i], q = border_list[(i + 1) % n_border];
      guint32 ps = n_surface + i, qs = n_surface + (i + 1) % n_border;
      guint32 t[6] = { p, ps, q, q, ps, qs };

      push_indices (s, t, 6);
    }

  /* Bounds: every vertex, where it starts and where it morphs to, and the
   * children's bounds. */
  memcpy (bounds.min, v[0].point, sizeof bounds.min);
  memcpy (bounds.max, v[0].point, sizeof bounds.max);
  for (guint i = 0; i < n_vertices; i++)
    {
      gfloat to = v[i].point[2] + v[i].point_morph_offset[2];

      box_add (&bounds, v[i].point);
      bounds.min[2] = MIN (bounds.min[2], to);
      bounds.max[2] = MAX (bounds.max[2], to);
    }
  if (!leaf)
    for (guint k = 0; k < 4; k++)
      {
        gint64 child = terrain_atlas_toc_find_stub (job->toc, level + 1, 2 * x + (k >> 1),
                                                    2 * y + (k & 1));
        const TerrainAtlasStubData *d = terrain_atlas_toc_get_stub_data (job->toc, (guint) child);

        box_add (&bounds, d->bounds.min);
        box_add (&bounds, d->bounds.max);
      }

  if (leaf && state->collision_depth > 0 && state->version >= 120 &&
      !terrain_atlas_builder_make_collision (&s->collision, v, n_vertices, s->indices, n_surface_indices, state->collision_depth,
                       &collision))
    {
      terrain_atlas_builder_collision_clear (&collision);
      result->too_big = TRUE;
      return TRUE;
    }

  size = encode_chunk (s, state->version, &bounds, s->n_indices - n_surface_indices, v,
                       n_vertices, collision.tree != NULL ? &collision : NULL);
  terrain_atlas_builder_collision_clear (&collision);

  if (state->measure)
    for (guint k = 0; k + 2 < n_surface_indices; k += 3)
      result->max_error = MAX (result->max_error,
                               triangle_error (state, &s->points[s->indices[k]],
                                               &s->points[s->indices[k + 1]],
                                               &s->points[s->indices[k + 2]]));

  /* The result takes the frame (no copy); the next chunk allocates its
   * own at its size. */
  result->frame = g_steal_pointer (&s->frame);
  s->frame_size = 0;
  result->size = size;
  result->bounds = bounds;
  result->n_vertices = n_vertices;
  result->n_skirt_vertices = n_border;
  result->n_triangles = n_surface_indices / 3;
  result->n_skirt_triangles = 2 * n_border;
  return TRUE;
}

/* Distinct samples of the finest level: active ones and the leaves'
 * corners, which every leaf mesh has. */
static guint64
count_leaf_samples (const BuildState *state)
{
  guint lod = state->lod[state->depth - 1];
  guint64 n = 0;

  for (gint64 y = 0; y <= (gint64) state->side; y++)
    {
      const guint8 *row = state->act + act_index (state, 0, y);
      gboolean corner_row = y % state->leaf == 0;

      for (gint64 x = 0; x <= (gint64) state->side; x++)
        n += row[x] > lod || (corner_row && x % state->leaf == 0);
    }
  return n;
}

/* Writes chunk @next of @job (the next one in order): its stub, its frame
 * and the statistics. Only the job's writer calls it. */
static gboolean
write_chunk (BuildState  *state,
             LevelJob    *job,
             guint        next,
             GError     **error)
{
      ChunkResult *r = &job->results[next];
      guint index = job->first + next;
      guint level = job->level;
      guint32 x = index >> level, y = index & (((guint32) 1 << level) - 1);
      gint64 stub = terrain_atlas_toc_find_stub (job->toc, level, x, y);
      TerrainAtlasStubData *d = terrain_atlas_toc_get_stub_data (job->toc, (guint) stub);
      guint32 offset = 0;

      if (r->too_big)
        {
          state->retry = TRUE;
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                       "Atlas builder: chunk (level %u, x %u, y %u) exceeds the 16-bit "
                       "limits", level, x, y);
          return FALSE;
        }
      if (!build_sink_append (&state->sink, r->frame, r->size, &offset, error))
        {
          return FALSE;
        }
      d->offset = offset;
      d->length = (guint32) r->size;
      d->generation = 0;
      d->bounds = r->bounds;
      d->position[0] = (r->bounds.min[0] + r->bounds.max[0]) / 2;
      d->position[1] = (r->bounds.min[1] + r->bounds.max[1]) / 2;

      state->stats.n_chunks++;
      state->stats.n_vertices += r->n_vertices;
      state->stats.n_skirt_vertices += r->n_skirt_vertices;
      state->stats.n_triangles += r->n_triangles;
      state->stats.n_skirt_triangles += r->n_skirt_triangles;
      state->stats.max_chunk_vertices = MAX (state->stats.max_chunk_vertices, r->n_vertices);
      if (level < G_N_ELEMENTS (state->stats.levels))
        {
          TerrainAtlasLevelStats *l = &state->stats.levels[level];

          l->n_chunks++;
          l->n_vertices += r->n_vertices;
          l->n_triangles += r->n_triangles;
          if (state->measure)
            l->max_error = MAX (l->max_error, r->max_error);
        }
      if (level + 1 == state->depth)
        {
          state->stats.n_leaf_vertices += r->n_vertices - r->n_skirt_vertices;
          state->stats.n_leaf_triangles += r->n_triangles;
          if (state->measure)
            state->stats.max_error = MAX (state->stats.max_error, r->max_error);
        }
      g_clear_pointer (&r->frame, g_free);
  return TRUE;
}

/* Marks @item ready and writes the ready chunks that are next in order. One
 * worker writes at a time, without holding the lock, so the others go on
 * meshing instead of waiting for the write: a chunk that becomes ready
 * meanwhile is written by the writer, which looks again before it stops. */
static gboolean
flush_chunks (BuildState  *state,
              LevelJob    *job,
              guint        item,
              GError     **error)
{
  gboolean ok = TRUE;

  g_mutex_lock (&job->lock);
  job->results[item].ready = TRUE;
  if (job->writing || job->failed)
    {
      g_mutex_unlock (&job->lock);
      return TRUE;
    }
  job->writing = TRUE;
  while (job->next < job->count && job->results[job->next].ready)
    {
      guint next = job->next;

      g_mutex_unlock (&job->lock);
      ok = write_chunk (state, job, next, error);
      g_mutex_lock (&job->lock);
      if (!ok)
        {
          job->failed = TRUE;
          break;
        }
      job->next++;
    }
  job->writing = FALSE;
  g_mutex_unlock (&job->lock);
  return ok;
}

static gboolean
build_and_flush_chunk (BuildState  *state,
                       gpointer     data,
                       gpointer     scratch,
                       guint        item,
                       GError     **error)
{
  LevelJob *job = data;

  if (!build_chunk (state, data, scratch, item, error))
    return FALSE;
  return flush_chunks (state, job, item, error);
}

/* Writes every chunk, leaves first. Returns FALSE with state->retry set
 * when a leaf broke a limit the planner could not foresee (a collision list
 * past 16-bit offsets): the caller deepens the tree and starts over. */
gboolean
build_geometry (BuildState  *state,
                GError     **error)
{
  TerrainAtlasToc *toc = g_ptr_array_index (state->tocs, state->geometry_toc);
  guint64 total = terrain_quadtree_node_count (state->depth), done = 0;
  ChunkResult *results = g_new0 (ChunkResult, GEOMETRY_BATCH);
  gboolean ok = TRUE;

  state->scratch_cache = g_async_queue_new_full (chunk_scratch_destroy);

  for (gint level = (gint) state->depth - 1; level >= 0 && ok; level--)
    {
      guint n = (guint) 1 << (2 * level);

      for (guint first = 0; first < n && ok; first += GEOMETRY_BATCH)
        {
          LevelJob job = { (guint) level, first, MIN (GEOMETRY_BATCH, n - first), results, toc };

          g_mutex_init (&job.lock);
          memset (results, 0, sizeof (ChunkResult) * job.count);
          ok = build_run_parallel (state, job.count, build_and_flush_chunk, &job,
                                   chunk_scratch_new, chunk_scratch_free, error);
          for (guint i = 0; i < job.count; i++)
            g_clear_pointer (&results[i].frame, g_free);
          g_mutex_clear (&job.lock);

          done += job.count;
          build_progress (state, (gdouble) done / (gdouble) total);
        }
    }

  g_free (results);
  g_clear_pointer (&state->scratch_cache, g_async_queue_unref);
  if (ok)
    state->stats.n_leaf_samples = count_leaf_samples (state);
  return ok;
}
