/* bench-noise.c: the generated terrain the benchmarks build from
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>

#include "bench-noise.h"

/**
 * bench_make_noise:
 * @side: samples on a side
 *
 * Fractal value noise from a fixed seed: four octaves of smoothly
 * interpolated random lattices (hills, ridges and fine detail), about
 * 1000 m of relief, samples 10 m apart. Each lattice's last row and column
 * repeat its first, so the octaves, which wrap several times over the grid,
 * join without cliffs.
 *
 * Returns: (transfer full): a @side x @side heightfield
 */
TerrainHeightfield *
bench_make_noise (guint side)
{
  const guint lattice = 33;
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261130);
  g_autofree gdouble *grid = g_new (gdouble, lattice * lattice * 4);
  TerrainHeightfield *field = terrain_heightfield_new (side, side, 10.0, NULL);
  gfloat *data = terrain_heightfield_get_data (field, NULL);

  for (guint i = 0; i < lattice * lattice * 4; i++)
    grid[i] = g_rand_double (rand);
  for (guint octave = 0; octave < 4; octave++)
    for (guint i = 0; i < lattice; i++)
      {
        gdouble *g = grid + octave * lattice * lattice;

        g[i * lattice + lattice - 1] = g[i * lattice];
        g[(lattice - 1) * lattice + i] = g[i];
      }

  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      {
        gdouble h = 0.0, amplitude = 600.0;

        for (guint octave = 0; octave < 4; octave++)
          {
            gdouble f = (lattice - 1) * (1 << octave) / (gdouble) (side - 1);
            gdouble gx = fmod (x * f, lattice - 1), gy = fmod (y * f, lattice - 1);
            guint x0 = (guint) gx, y0 = (guint) gy;
            gdouble tx = gx - x0, ty = gy - y0;
            const gdouble *g = grid + octave * lattice * lattice;
            gdouble a = g[y0 * lattice + x0], b = g[y0 * lattice + x0 + 1];
            gdouble c = g[(y0 + 1) * lattice + x0], d = g[(y0 + 1) * lattice + x0 + 1];

            tx = tx * tx * (3 - 2 * tx);
            ty = ty * ty * (3 - 2 * ty);
            h += amplitude * ((a * (1 - tx) + b * tx) * (1 - ty) + (c * (1 - tx) + d * tx) * ty);
            amplitude *= 0.45;
          }
        data[(gsize) y * side + x] = (gfloat) h;
      }
  return field;
}
