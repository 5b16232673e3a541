/* terrain-cli-diff.c: the byte ranges an edit changes, for --dry-run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An edit that changes a file's size (an OTA value retyped, a TDF key
 * added, a material renamed) shifts every later byte, so comparing offsets
 * says nothing past the first change. The shortest edit script between
 * the two files does: Myers' O(ND) difference algorithm ("An O(ND)
 * Difference Algorithm and Its Variations", Algorithmica 1, 1986), over
 * bytes, bounded by the number of inserted and deleted bytes it may find.
 */

#include "config.h"

#include "terrain-cli-diff.h"

/* Appends one edit (a byte deleted at @x of the old file, or inserted
 * before it from @y of the new one) to @hunks, in reverse order. */
static void
add_edit (GArray  *hunks,
          gsize    x,
          gsize    y,
          gboolean insertion)
{
  TerrainCliHunk h = { x, insertion ? 0 : 1, y, insertion ? 1 : 0 };

  g_array_append_val (hunks, h);
}

/**
 * terrain_cli_diff:
 * @a: (array length=na): the old bytes
 * @na: their count
 * @b: (array length=nb): the new bytes
 * @nb: their count
 * @max_distance: the most bytes inserted plus deleted to look for
 * @hunks: (element-type TerrainCliHunk): where the changed ranges go, in
 *   file order, one a byte deleted or inserted (replacements are a
 *   deletion and an insertion; terrain_cli_diff_merge() joins them)
 *
 * Finds a shortest edit script from @a to @b. The common start and end are
 * skipped first, so the cost is O((N + M) D) over what lies between them
 * only, and the memory O(D²) for the D found.
 *
 * Returns: %TRUE, or %FALSE (and @hunks unchanged) when more than
 *   @max_distance bytes would have to be inserted and deleted
 */
gboolean
terrain_cli_diff (const guint8 *a,
                  gsize         na,
                  const guint8 *b,
                  gsize         nb,
                  guint         max_distance,
                  GArray       *hunks)
{
  g_autofree gssize *trace = NULL;
  gsize head = 0, tail = 0, n, m;
  gssize d_found = -1;
  guint first = hunks->len;

  while (head < MIN (na, nb) && a[head] == b[head])
    head++;
  while (tail < MIN (na, nb) - head && a[na - 1 - tail] == b[nb - 1 - tail])
    tail++;
  n = na - head - tail;
  m = nb - head - tail;
  a += head;
  b += head;
  /* Every script inserts and deletes at least the difference in size. */
  if (MAX (n, m) - MIN (n, m) > max_distance)
    return FALSE;

  /* trace holds V (the furthest x on every diagonal k = x - y) after
   * each round d, rounds one after another: round d's k = -d..d at
   * d² + d + k. */
  trace = g_new (gssize, ((gsize) max_distance + 1) * (max_distance + 1));
  for (gssize d = 0; d <= (gssize) max_distance && d_found < 0; d++)
    {
      gssize *v = trace + d * d + d;
      const gssize *prev = d > 0 ? trace + (d - 1) * (d - 1) + (d - 1) : NULL;

      for (gssize k = -d; k <= d; k += 2)
        {
          gssize x, y;

          if (d == 0)
            x = 0;
          else if (k == -d || (k != d && prev[k - 1] < prev[k + 1]))
            x = prev[k + 1];          /* down: a byte of b inserted */
          else
            x = prev[k - 1] + 1;      /* right: a byte of a deleted */
          y = x - k;
          while (x < (gssize) n && y < (gssize) m && a[x] == b[y])
            x++, y++;
          v[k] = x;
          if (x >= (gssize) n && y >= (gssize) m)
            {
              d_found = d;
              break;
            }
        }
    }
  if (d_found < 0)
    return FALSE;

  /* Back from (n, m) to (0, 0), one edit a round. */
  {
    gssize x = n, y = m;

    for (gssize d = d_found; d > 0; d--)
      {
        const gssize *prev = trace + (d - 1) * (d - 1) + (d - 1);
        gssize k = x - y, prev_k, prev_x, prev_y;
        gboolean insertion = k == -d || (k != d && prev[k - 1] < prev[k + 1]);

        prev_k = insertion ? k + 1 : k - 1;
        prev_x = prev[prev_k];
        prev_y = prev_x - prev_k;
        add_edit (hunks, head + prev_x, head + prev_y, insertion);
        x = prev_x;
        y = prev_y;
      }
  }

  /* Into file order. */
  for (guint i = first, j = hunks->len; i + 1 < j; i++, j--)
    {
      TerrainCliHunk t = g_array_index (hunks, TerrainCliHunk, i);

      g_array_index (hunks, TerrainCliHunk, i) = g_array_index (hunks, TerrainCliHunk, j - 1);
      g_array_index (hunks, TerrainCliHunk, j - 1) = t;
    }
  return TRUE;
}

/**
 * terrain_cli_diff_merge:
 * @hunks: (element-type TerrainCliHunk): changed ranges in file order, as
 *   terrain_cli_diff() gives them
 * @gap: unchanged bytes between two ranges that still join them
 *
 * Joins ranges at most @gap unchanged bytes apart, in place: a byte
 * replaced becomes one range of 1 old byte and 1 new byte, a retyped value
 * one range.
 */
void
terrain_cli_diff_merge (GArray *hunks,
                        gsize   gap)
{
  guint out = 0;

  for (guint i = 0; i < hunks->len; i++)
    {
      TerrainCliHunk *h = &g_array_index (hunks, TerrainCliHunk, i);
      TerrainCliHunk *last = out > 0 ? &g_array_index (hunks, TerrainCliHunk, out - 1) : NULL;

      if (last != NULL && h->old_start <= last->old_start + last->old_length + gap)
        {
          /* Between two ranges the bytes are the same in both files, so
           * the gap is as long in the new file as in the old. */
          last->old_length = h->old_start + h->old_length - last->old_start;
          last->new_length = h->new_start + h->new_length - last->new_start;
        }
      else
        g_array_index (hunks, TerrainCliHunk, out++) = *h;
    }
  g_array_set_size (hunks, out);
}
