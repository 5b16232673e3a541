/* terrain-atlas-builder-activation.c: the Atlas builder's first geometry
 * pass, vertex activation (see terrain-atlas-builder-geometry.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#ifdef __SSE2__
# include <emmintrin.h>
#endif

#include "terrain-atlas-builder-private.h"
#include "core/terrain-error.h"

#define ACTIVATION_TILE 256

static inline guint8
quantize (const BuildState *state,
          gfloat            e)
{
  guint k = 0;

  while (k < 255 && e > state->thresholds[k])
    k++;
  return (guint8) k;
}

static inline void
act_raise (guint8 *slot,
           guint8  value)
{
  guint8 old = __atomic_load_n (slot, __ATOMIC_RELAXED);

  while (old < value &&
         !__atomic_compare_exchange_n (slot, &old, value, TRUE, __ATOMIC_RELAXED,
                                       __ATOMIC_RELAXED))
    ;
}

/* ------------------------------------------------------------------------
 * 1. Activation
 */

typedef struct
{
  const gfloat *block;
  gsize stride;
  gint64 x0, y0, x1, y1;   /* inclusive */
  TerrainHeightfield *field;
  gboolean midpoint_only;
  gfloat *errors;          /* per tile sample: E, an upper bound of it, or NaN */
} Tile;

/* A sample outside the tile: out of line, so that tile_height() inlines. */
static G_GNUC_NO_INLINE gfloat
outside_height (const Tile *t,
                gint64      x,
                gint64      y)
{
  return terrain_heightfield_sample_stored (t->field, (guint) x, (guint) y);
}

static inline gfloat
tile_height (const Tile *t,
             gint64      x,
             gint64      y)
{
  if (G_LIKELY (x >= t->x0 && x <= t->x1 && y >= t->y0 && y <= t->y1))
    return t->block[(gsize) (y - t->y0) * t->stride + (gsize) (x - t->x0)];
  return outside_height (t, x, y);
}

/* Largest |h − plane| over row @y, columns @xa..@xb clipped to the tile; the
 * plane is z = zr + gx (x − xr) + gy (y − yr). */
static inline gfloat
row_deviation (const Tile *t,
               gint64      y,
               gint64      xa,
               gint64      xb,
               gdouble     zr,
               gdouble     gx,
               gdouble     gy,
               gint64      xr,
               gint64      yr)
{
  const gfloat *p;
  gfloat z, corr, step, m0 = 0.0f, m1 = 0.0f, m2 = 0.0f, m3 = 0.0f;
  gdouble start;
  gint64 n, i = 0;

  xa = MAX (xa, t->x0);
  xb = MIN (xb, t->x1);
  if (xa > xb)
    return 0.0f;

  p = t->block + (gsize) (y - t->y0) * t->stride + (gsize) (xa - t->x0);
  /* Heights are large next to the errors that matter (4000 m against 1 m)
   * and floats keep 24 bits: subtract the plane's start first, which is
   * exact for nearby values, and add its rounding back as a small term. */
  start = zr + gx * (gdouble) (xa - xr) + gy * (gdouble) (y - yr);
  z = (gfloat) start;
  corr = (gfloat) (start - z);
  step = (gfloat) gx;
  n = xb - xa + 1;

#ifdef __SSE2__
  {
    const __m128 vz = _mm_set1_ps (z), vstep = _mm_set1_ps (step), vcorr = _mm_set1_ps (corr);
    const __m128 abs_mask = _mm_castsi128_ps (_mm_set1_epi32 (0x7fffffff));
    __m128i vi = _mm_setr_epi32 (0, 1, 2, 3);
    const __m128i four = _mm_set1_epi32 (4);
    __m128 vm = _mm_setzero_ps ();
    gfloat lanes[4];

    /* Same arithmetic as the scalar loop, four samples at a time. */
    for (; i + 4 <= n && i < G_MAXINT32 - 4; i += 4)
      {
        __m128 h = _mm_loadu_ps (p + i);
        __m128 plane = _mm_add_ps (_mm_mul_ps (vstep, _mm_cvtepi32_ps (vi)), vcorr);
        __m128 d = _mm_and_ps (_mm_sub_ps (_mm_sub_ps (h, vz), plane), abs_mask);

        vm = _mm_max_ps (d, vm);
        vi = _mm_add_epi32 (vi, four);
      }
    _mm_storeu_ps (lanes, vm);
    m0 = MAX (MAX (lanes[0], lanes[1]), MAX (lanes[2], lanes[3]));
  }
#endif
  for (; i + 4 <= n; i += 4)
    {
      gfloat d0 = fabsf ((p[i] - z) - (step * (gfloat) i + corr));
      gfloat d1 = fabsf ((p[i + 1] - z) - (step * (gfloat) (i + 1) + corr));
      gfloat d2 = fabsf ((p[i + 2] - z) - (step * (gfloat) (i + 2) + corr));
      gfloat d3 = fabsf ((p[i + 3] - z) - (step * (gfloat) (i + 3) + corr));

      m0 = d0 > m0 ? d0 : m0;
      m1 = d1 > m1 ? d1 : m1;
      m2 = d2 > m2 ? d2 : m2;
      m3 = d3 > m3 ? d3 : m3;
    }
  for (; i < n; i++)
    {
      gfloat d = fabsf ((p[i] - z) - (step * (gfloat) i + corr));

      m0 = d > m0 ? d : m0;
    }

  return MAX (MAX (m0, m1), MAX (m2, m3));
}

/* |h − (a + b) / 2|, as differences of nearby heights (exact in floats)
 * rather than of large sums. */
static inline gfloat
midpoint_error (gfloat h,
                gfloat a,
                gfloat b)
{
  return fabsf ((h - a) * 0.5f + (h - b) * 0.5f);
}

/* A square diamond: the square of side 2h around a centre vertex. */
static gfloat
square_diamond (const Tile *t,
                gint64      cx,
                gint64      cy,
                gint64      h)
{
  gint64 s = 2 * h, x0 = cx - h, y0 = cy - h, x1 = cx + h, y1 = cy + h;
  gdouble tl = tile_height (t, x0, y0), tr = tile_height (t, x1, y0);
  gdouble bl = tile_height (t, x0, y1), br = tile_height (t, x1, y1);
  gint64 ya = MAX (y0, t->y0), yb = MIN (y1, t->y1);
  gboolean type_a = square_is_type_a (x0, y0, s);
  gfloat m = 0.0f;

  if (t->midpoint_only)
    {
      if (cx < t->x0 || cx > t->x1 || cy < t->y0 || cy > t->y1)
        return 0.0f;
      return (gfloat) fabs (tile_height (t, cx, cy) - (type_a ? (tl + br) / 2 : (tr + bl) / 2));
    }

  for (gint64 y = ya; y <= yb; y++)
    {
      gint64 r = y - y0;
      gfloat d1, d2;

      if (type_a)
        {
          d1 = row_deviation (t, y, x0 + r, x1, tl, (tr - tl) / s, (br - tr) / s, x0, y0);
          d2 = row_deviation (t, y, x0, x0 + r, tl, (br - bl) / s, (bl - tl) / s, x0, y0);
        }
      else
        {
          d1 = row_deviation (t, y, x0, x1 - r, tl, (tr - tl) / s, (bl - tl) / s, x0, y0);
          d2 = row_deviation (t, y, x1 - r, x1, br, (br - bl) / s, (br - tr) / s, x1, y1);
        }
      m = MAX (m, MAX (d1, d2));
    }
  return m;
}

/* The diamond of the midpoint of a horizontal edge of length 2h. */
static gfloat
horizontal_diamond (const Tile *t,
                    gint64      mx,
                    gint64      my,
                    gint64      h,
                    gint64      side)
{
  gdouble l = tile_height (t, mx - h, my), r = tile_height (t, mx + h, my);
  gdouble avg = (l + r) / 2, gx = (r - l) / (2 * h);
  gfloat m = 0.0f;

  if (t->midpoint_only)
    {
      if (mx < t->x0 || mx > t->x1 || my < t->y0 || my > t->y1)
        return 0.0f;
      return (gfloat) fabs (tile_height (t, mx, my) - avg);
    }

  if (my - h >= 0)
    {
      gdouble a = tile_height (t, mx, my - h);

      for (gint64 y = MAX (my - h, t->y0); y <= MIN (my, t->y1); y++)
        {
          gint64 w = y - (my - h);

          m = MAX (m, row_deviation (t, y, mx - w, mx + w, avg, gx, -(a - avg) / h, mx, my));
        }
    }
  if (my + h <= side)
    {
      gdouble a = tile_height (t, mx, my + h);

      for (gint64 y = MAX (my, t->y0); y <= MIN (my + h, t->y1); y++)
        {
          gint64 w = my + h - y;

          m = MAX (m, row_deviation (t, y, mx - w, mx + w, avg, gx, (a - avg) / h, mx, my));
        }
    }
  return m;
}

/* The diamond of the midpoint of a vertical edge of length 2h. */
static gfloat
vertical_diamond (const Tile *t,
                  gint64      mx,
                  gint64      my,
                  gint64      h,
                  gint64      side)
{
  gdouble l = tile_height (t, mx, my - h), r = tile_height (t, mx, my + h);
  gdouble avg = (l + r) / 2, gy = (r - l) / (2 * h);
  gboolean left = mx - h >= 0, right = mx + h <= side;
  gdouble al = left ? tile_height (t, mx - h, my) : 0.0;
  gdouble ar = right ? tile_height (t, mx + h, my) : 0.0;
  gfloat m = 0.0f;

  if (t->midpoint_only)
    {
      if (mx < t->x0 || mx > t->x1 || my < t->y0 || my > t->y1)
        return 0.0f;
      return (gfloat) fabs (tile_height (t, mx, my) - avg);
    }

  for (gint64 y = MAX (my - h, t->y0); y <= MIN (my + h, t->y1); y++)
    {
      gint64 w = h - ABS (y - my);

      if (left)
        m = MAX (m, row_deviation (t, y, mx - w, mx, avg, -(al - avg) / h, gy, mx, my));
      if (right)
        m = MAX (m, row_deviation (t, y, mx, mx + w, avg, (ar - avg) / h, gy, mx, my));
    }
  return m;
}

/* First multiple of @m strictly above @lo. */
static inline gint64
multiple_above (gint64 lo,
                gint64 m)
{
  gint64 q = lo >= 0 ? lo / m + 1 : -((-lo) / m);

  if (q * m <= lo)
    q++;
  return q * m;
}

typedef enum
{
  DIAMOND_SQUARE,
  DIAMOND_HORIZONTAL,
  DIAMOND_VERTICAL,
} DiamondKind;

static inline gboolean
tile_holds (const Tile *t,
            gint64      x,
            gint64      y)
{
  return x >= t->x0 && x <= t->x1 && y >= t->y0 && y <= t->y1;
}

static inline gfloat *
tile_error (const Tile *t,
            gint64      x,
            gint64      y)
{
  return &t->errors[(gsize) (y - t->y0) * t->stride + (gsize) (x - t->x0)];
}

/* Raises act at vertex (x, y), the midpoint of a diamond of half-size h.
 *
 * A diamond wholly inside the tile is first bounded without reading its
 * samples: E ≥ |local| (the vertex is one of its samples) and E ≤ |local|
 * + the largest E of its children, whose diamonds hold the four triangles
 * the vertex splits it into, where the vertex's absence changes the mesh by
 * at most |local|. When both bounds pass the same thresholds, act is known;
 * only diamonds near a threshold are scanned. The bound (or the exact
 * value) is kept for the vertex's own parents. */
static void
vertex_activation (BuildState  *state,
                   Tile        *t,
                   DiamondKind  kind,
                   gint64       x,
                   gint64       y,
                   gint64       h)
{
  gint64 side = state->side;
  gboolean inside = tile_holds (t, x, y);
  gboolean whole = inside && x - h >= t->x0 && x + h <= t->x1 && y - h >= t->y0 &&
                   y + h <= t->y1;
  gfloat e;

  if (whole && !t->midpoint_only)
    {
      gint64 cx[4], cy[4];
      guint n = 0;
      gdouble here = tile_height (t, x, y), local;
      gfloat children = 0.0f;
      gboolean known = TRUE;

      if (kind == DIAMOND_SQUARE)
        {
          gboolean type_a = square_is_type_a (x - h, y - h, 2 * h);

          local = type_a ? here - (tile_height (t, x - h, y - h) + tile_height (t, x + h, y + h)) / 2
                         : here - (tile_height (t, x + h, y - h) + tile_height (t, x - h, y + h)) / 2;
          cx[0] = x - h; cy[0] = y;
          cx[1] = x + h; cy[1] = y;
          cx[2] = x; cy[2] = y - h;
          cx[3] = x; cy[3] = y + h;
          n = 4;
        }
      else
        {
          gint64 q = h / 2;

          if (kind == DIAMOND_HORIZONTAL)
            local = here - (tile_height (t, x - h, y) + tile_height (t, x + h, y)) / 2;
          else
            local = here - (tile_height (t, x, y - h) + tile_height (t, x, y + h)) / 2;
          for (gint dy = -1; dy <= 1; dy += 2)
            for (gint dx = -1; dx <= 1; dx += 2)
              {
                gint64 px = x + dx * q, py = y + dy * q;

                if (px < 0 || px > side || py < 0 || py > side)
                  continue;
                cx[n] = px;
                cy[n] = py;
                n++;
              }
        }

      for (guint i = 0; i < n && known; i++)
        {
          gfloat c;

          if (!tile_holds (t, cx[i], cy[i]))
            {
              known = FALSE;
              break;
            }
          c = *tile_error (t, cx[i], cy[i]);
          if (isnan (c))
            known = FALSE;
          else
            children = MAX (children, c);
        }

      if (known)
        {
          gfloat lower = (gfloat) fabs (local), upper = lower + children;
          guint8 q = quantize (state, lower);

          if (quantize (state, upper) == q)
            {
              *tile_error (t, x, y) = upper;
              act_raise (&state->act[act_index (state, x, y)], q);
              return;
            }
        }
    }

  switch (kind)
    {
    case DIAMOND_SQUARE:
      e = square_diamond (t, x, y, h);
      break;
    case DIAMOND_HORIZONTAL:
      e = horizontal_diamond (t, x, y, h, side);
      break;
    case DIAMOND_VERTICAL:
    default:
      e = vertical_diamond (t, x, y, h, side);
      break;
    }
  if (inside)
    *tile_error (t, x, y) = whole ? e : NAN;
  act_raise (&state->act[act_index (state, x, y)], quantize (state, e));
}

typedef struct
{
  BuildState *state;
  gfloat *block;
  gfloat *errors;
  gfloat lo;       /* height range of the tiles this worker read */
  gfloat hi;
} ActivationScratch;

static gpointer
activation_scratch_new (BuildState *state)
{
  ActivationScratch *scratch = g_new0 (ActivationScratch, 1);
  guint t = MIN (ACTIVATION_TILE, state->side);

  scratch->state = state;
  scratch->block = g_new (gfloat, (gsize) (t + 1) * (t + 1));
  scratch->errors = g_new (gfloat, (gsize) (t + 1) * (t + 1));
  scratch->lo = INFINITY;
  scratch->hi = -INFINITY;
  return scratch;
}

static void
activation_scratch_free (gpointer data)
{
  ActivationScratch *scratch = data;
  BuildState *state = scratch->state;

  g_mutex_lock (&state->stats_lock);
  state->height_min = MIN (state->height_min, scratch->lo);
  state->height_max = MAX (state->height_max, scratch->hi);
  g_mutex_unlock (&state->stats_lock);
  g_free (scratch->block);
  g_free (scratch->errors);
  g_free (scratch);
}

static gboolean
activation_tile (BuildState  *state,
                 gpointer     data,
                 gpointer     scratch_data,
                 guint        item,
                 GError     **error)
{
  ActivationScratch *scratch = scratch_data;
  gint64 side = state->side;
  gint64 tsize = MIN (ACTIVATION_TILE, state->side);
  gint64 per_row = side / tsize;
  gint64 tx = (item % per_row) * tsize, ty = (item / per_row) * tsize;
  gsize stride = (gsize) tsize + 1;
  guint8 *act = state->act;
  const gfloat *b;
  Tile t;

  (void) data;
  (void) error;

  terrain_heightfield_read_rect (state->field, (guint) tx, (guint) ty, (guint) tsize + 1,
                                 (guint) tsize + 1, scratch->block, stride);
  b = scratch->block;
  {
    gfloat lo = scratch->lo, hi = scratch->hi;

    for (gsize i = 0; i < stride * stride; i++)
      {
        lo = MIN (lo, b[i]);
        hi = MAX (hi, b[i]);
      }
    scratch->lo = lo;
    scratch->hi = hi;
  }
  t.block = b;
  t.stride = stride;
  t.x0 = tx;
  t.y0 = ty;
  t.x1 = tx + tsize;
  t.y1 = ty + tsize;
  t.field = state->field;
  t.midpoint_only = state->midpoint_metric;
  t.errors = scratch->errors;
  for (gsize i = 0; i < stride * stride; i++)
    t.errors[i] = NAN;

  /* Half-size 1: the diamonds lie inside the tile (or along its border,
   * where both tiles find the same value); the error is the midpoint's
   * (and, for square centres, the four edge midpoints'). */
  for (gint64 r = 0; r <= tsize; r++)
    {
      const gfloat *row = b + (gsize) r * stride;

      if ((ty + r) % 2 == 0)
        {
          for (gint64 c = 1; c < tsize; c += 2)
            {
              gfloat e = midpoint_error (row[c], row[c - 1], row[c + 1]);

              t.errors[(gsize) r * stride + (gsize) c] = e;
              act_raise (&act[act_index (state, tx + c, ty + r)], quantize (state, e));
            }
        }
      else
        {
          const gfloat *up = row - stride, *down = row + stride;

          for (gint64 c = 0; c <= tsize; c++)
            {
              gfloat e;

              if (c % 2 == 0)
                e = midpoint_error (row[c], up[c], down[c]);
              else
                {
                  gboolean type_a = square_is_type_a (tx + c - 1, ty + r - 1, 2);

                  e = type_a ? midpoint_error (row[c], up[c - 1], down[c + 1])
                             : midpoint_error (row[c], up[c + 1], down[c - 1]);
                  if (t.midpoint_only)
                    goto done;
                  e = MAX (e, midpoint_error (up[c], up[c - 1], up[c + 1]));
                  e = MAX (e, midpoint_error (down[c], down[c - 1], down[c + 1]));
                  e = MAX (e, midpoint_error (row[c - 1], up[c - 1], down[c - 1]));
                  e = MAX (e, midpoint_error (row[c + 1], up[c + 1], down[c + 1]));
                }
            done:
              t.errors[(gsize) r * stride + (gsize) c] = e;
              if (e > state->thresholds[0])
                act_raise (&act[act_index (state, tx + c, ty + r)], quantize (state, e));
            }
        }
    }

  /* Larger diamonds, clipped to the tile; each scale's edge midpoints
   * before its square centres, which depend on them. */
  for (gint64 h = 2; h < side; h *= 2)
    {
      gint64 s = 2 * h;

      /* Horizontal edges: x an odd multiple of h, y a multiple of 2h. */
      for (gint64 my = multiple_above (ty - h - 1, s); my < ty + tsize + h; my += s)
        {
          if (my < 0 || my > side)
            continue;
          for (gint64 mx = multiple_above (tx - h, h); mx < tx + tsize + h; mx += h)
            {
              if ((mx / h) % 2 == 0 || mx < 0 || mx > side)
                continue;
              vertex_activation (state, &t, DIAMOND_HORIZONTAL, mx, my, h);
            }
        }

      /* Vertical edges: x a multiple of 2h, y an odd multiple of h. */
      for (gint64 my = multiple_above (ty - h, h); my < ty + tsize + h; my += h)
        {
          if ((my / h) % 2 == 0 || my < 0 || my > side)
            continue;
          for (gint64 mx = multiple_above (tx - h - 1, s); mx < tx + tsize + h; mx += s)
            {
              if (mx < 0 || mx > side)
                continue;
              vertex_activation (state, &t, DIAMOND_VERTICAL, mx, my, h);
            }
        }

      /* Square centres: odd multiples of h on both axes. */
      for (gint64 cy = multiple_above (ty - h, h); cy < ty + tsize + h; cy += h)
        {
          if ((cy / h) % 2 == 0 || cy < 0 || cy > side)
            continue;
          for (gint64 cx = multiple_above (tx - h, h); cx < tx + tsize + h; cx += h)
            {
              if ((cx / h) % 2 == 0 || cx < 0 || cx > side)
                continue;
              vertex_activation (state, &t, DIAMOND_SQUARE, cx, cy, h);
            }
        }
    }

  return TRUE;
}

static inline void
close_edge (BuildState *state,
            gint64      x,
            gint64      y,
            gint64      q)
{
  gint64 side = state->side;
  guint8 *act = state->act;
  guint8 m = act[act_index (state, x, y)];

  if (x - q >= 0 && y - q >= 0)
    m = MAX (m, act[act_index (state, x - q, y - q)]);
  if (x + q <= side && y - q >= 0)
    m = MAX (m, act[act_index (state, x + q, y - q)]);
  if (x - q >= 0 && y + q <= side)
    m = MAX (m, act[act_index (state, x - q, y + q)]);
  if (x + q <= side && y + q <= side)
    m = MAX (m, act[act_index (state, x + q, y + q)]);
  act[act_index (state, x, y)] = m;
}

/* One scale of the closure: CLOSE_EDGES raises the edge midpoints of
 * half-length h (h >= 2) from the four square centres h/2 away diagonally,
 * which the scale before closed; CLOSE_SQUARES raises the square centres of
 * half-size h from the midpoints of their sides, which CLOSE_EDGES of the
 * same scale closed. Within a step no vertex reads another the step
 * writes, so its rows may be closed in any order, on any thread. */
typedef enum
{
  CLOSE_EDGES,
  CLOSE_SQUARES,
} CloseStep;

typedef struct
{
  gint64 h;
  CloseStep step;
} CloseJob;

/* The rows of one step: horizontal edges (y a multiple of 2h), then
 * vertical ones (y an odd multiple of h); or the rows of square centres. */
static guint
close_rows (const BuildState *state,
            const CloseJob   *job)
{
  gint64 s = 2 * job->h;

  if (job->step == CLOSE_EDGES)
    return (guint) (state->side / s + 1 + state->side / s);
  return (guint) (state->side / s);
}

static void
close_row (BuildState     *state,
           const CloseJob *job,
           guint           row)
{
  gint64 side = state->side, h = job->h, s = 2 * h;
  guint8 *act = state->act;

  if (job->step == CLOSE_EDGES)
    {
      guint horizontal = (guint) (side / s + 1);

      if (row < horizontal)
        {
          gint64 y = (gint64) row * s;

          for (gint64 x = h; x < side; x += s)
            close_edge (state, x, y, h / 2);
        }
      else
        {
          gint64 y = h + (gint64) (row - horizontal) * s;

          for (gint64 x = 0; x <= side; x += s)
            close_edge (state, x, y, h / 2);
        }
      return;
    }

  {
    gint64 y = h + (gint64) row * s;

    for (gint64 x = h; x < side; x += s)
      {
        gsize i = act_index (state, x, y);
        guint8 m = act[i];

        m = MAX (m, act[act_index (state, x - h, y)]);
        m = MAX (m, act[act_index (state, x + h, y)]);
        m = MAX (m, act[act_index (state, x, y - h)]);
        m = MAX (m, act[act_index (state, x, y + h)]);
        act[i] = m;
      }
  }
}

static gboolean
close_row_item (BuildState  *state,
                gpointer     data,
                gpointer     scratch,
                guint        item,
                GError     **error)
{
  (void) scratch;
  (void) error;
  close_row (state, data, item);
  return TRUE;
}

/* A step of fewer vertices than this is closed in the calling thread:
 * handing it to the pool costs more than it saves. */
#define CLOSE_PARALLEL_MIN_VERTICES (1 << 16)

/* Closes act over the dependency DAG, fine to coarse: an edge midpoint of
 * half-length h depends on the four square centres h/2 away diagonally, a
 * square centre on the four midpoints of its sides. The fine scales, which
 * hold most of the vertices, are spread over the builder's threads (15 ms
 * of one thread on 4097^2 otherwise, issue 18). */
static gboolean
close_activation (BuildState  *state,
                  GError     **error)
{
  gint64 side = state->side;
  guint8 *act = state->act;

  for (gint64 h = 1; h < side; h *= 2)
    {
      for (CloseStep step = h >= 2 ? CLOSE_EDGES : CLOSE_SQUARES; step <= CLOSE_SQUARES; step++)
        {
          CloseJob job = { h, step };
          guint rows = close_rows (state, &job);
          /* A row of a step holds side / 2h vertices (one more in the
           * vertical edges' rows). */
          gint64 vertices = (gint64) rows * (side / (2 * h));

          if (state->n_threads > 1 && vertices >= CLOSE_PARALLEL_MIN_VERTICES)
            {
              if (!build_run_parallel (state, rows, close_row_item, &job, NULL, NULL, error))
                return FALSE;
            }
          else
            for (guint r = 0; r < rows; r++)
              close_row (state, &job, r);
        }
    }

  /* The root's corners are in every mesh. */
  act[act_index (state, 0, 0)] = 255;
  act[act_index (state, side, 0)] = 255;
  act[act_index (state, 0, side)] = 255;
  act[act_index (state, side, side)] = 255;
  return TRUE;
}

gboolean
build_activation (BuildState  *state,
                  GError     **error)
{
  guint tsize = MIN (ACTIVATION_TILE, state->side);
  guint per_row = state->side / tsize;
  gsize n = (gsize) (state->side + 1) * (state->side + 1);

  state->act = g_try_malloc (n);
  if (state->act == NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Atlas builder: no memory for the %" G_GSIZE_FORMAT " activation levels "
                   "of a %u x %u heightfield", n, state->side + 1, state->side + 1);
      return FALSE;
    }
  /* Cleared by writing, here, rather than by calloc's fresh zero pages:
   * the workers read a level before raising it, so every zero page they
   * read would be copied on its first write, each copy flushing the TLB
   * of every thread (a cross-CPU interrupt): 1.5x the activation's CPU
   * time on two threads (perf, issue 18). */
  memset (state->act, 0, n);

  state->height_min = INFINITY;
  state->height_max = -INFINITY;
  for (guint k = 0; k < G_N_ELEMENTS (state->thresholds); k++)
    {
      /* Ulrich's levels round log2 (error / base): a vertex joins LOD k > 0
       * at base × 2^(k − 0.5), the leaves at base. */
      gdouble scale = state->midpoint_metric && k > 0 ? M_SQRT1_2 : 1.0;

      state->thresholds[k] = (gfloat) (ldexp (state->error, (gint) k) * scale);
    }

  if (!build_run_parallel (state, per_row * per_row, activation_tile, NULL,
                           activation_scratch_new, activation_scratch_free, error))
    return FALSE;

  if (!close_activation (state, error))
    return FALSE;
  state->relief = (gdouble) state->height_max - state->height_min;
  return TRUE;
}

