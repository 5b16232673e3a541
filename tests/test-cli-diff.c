/* test-cli-diff.c: the byte ranges a dry run lists for an edit that
 * changes a file's size (cli/terrain-cli-diff.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>

#include "../cli/terrain-cli-diff.h"

/* The length of a longest common subsequence, by dynamic programming. */
static gsize
lcs_length (const guint8 *a,
            gsize         na,
            const guint8 *b,
            gsize         nb)
{
  g_autofree gsize *row = g_new0 (gsize, nb + 1);

  for (gsize i = 1; i <= na; i++)
    {
      gsize diag = 0;

      for (gsize j = 1; j <= nb; j++)
        {
          gsize up = row[j];

          row[j] = a[i - 1] == b[j - 1] ? diag + 1 : MAX (row[j], row[j - 1]);
          diag = up;
        }
    }
  return row[nb];
}

/* Applies @hunks to @a: the bytes between ranges from @a, each range's new
 * bytes from @b. Checks that the gaps are the same bytes in both. */
static GByteArray *
apply_hunks (const guint8 *a,
             gsize         na,
             const guint8 *b,
             gsize         nb,
             GArray       *hunks)
{
  GByteArray *out = g_byte_array_new ();
  gsize x = 0, y = 0;

  for (guint i = 0; i < hunks->len; i++)
    {
      const TerrainCliHunk *h = &g_array_index (hunks, TerrainCliHunk, i);

      g_assert_cmpuint (h->old_start, >=, x);
      g_assert_cmpuint (h->old_start - x, ==, h->new_start - y);
      g_assert_cmpmem (a + x, h->old_start - x, b + y, h->new_start - y);
      g_byte_array_append (out, a + x, h->old_start - x);
      g_byte_array_append (out, b + h->new_start, h->new_length);
      x = h->old_start + h->old_length;
      y = h->new_start + h->new_length;
    }
  g_assert_cmpuint (na - x, ==, nb - y);
  g_byte_array_append (out, a + x, na - x);
  return out;
}

static void
test_diff_cases (void)
{
  static const struct { const char *a, *b; gsize distance; guint n_merged; } cases[] = {
    { "", "", 0, 0 },
    { "abc", "abc", 0, 0 },
    { "", "xyz", 3, 1 },
    { "abc", "", 3, 1 },
    { "abcabba", "cbabac", 5, 1 },   /* Myers' own example: D = 5 */
    { "missionname=Crater Islands;\nplanet=Moon;", "missionname=Foo;\nplanet=Moon;", 0, 1 },
    { "a=1;.............b=22;..........c=333;", "a=10;.............b=2;..........c=3;", 0, 3 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      const guint8 *a = (const guint8 *) cases[c].a, *b = (const guint8 *) cases[c].b;
      gsize na = strlen (cases[c].a), nb = strlen (cases[c].b), edits = 0;
      g_autoptr(GArray) hunks = g_array_new (FALSE, FALSE, sizeof (TerrainCliHunk));
      g_autoptr(GByteArray) rebuilt = NULL;

      g_assert_true (terrain_cli_diff (a, na, b, nb, 64, hunks));
      for (guint i = 0; i < hunks->len; i++)
        {
          const TerrainCliHunk *h = &g_array_index (hunks, TerrainCliHunk, i);

          /* Before merging, one byte deleted or inserted a range. */
          g_assert_cmpuint (h->old_length + h->new_length, ==, 1);
          edits++;
        }
      g_assert_cmpuint (edits, ==, na + nb - 2 * lcs_length (a, na, b, nb));
      if (cases[c].distance > 0)
        g_assert_cmpuint (edits, ==, cases[c].distance);
      rebuilt = apply_hunks (a, na, b, nb, hunks);
      g_assert_cmpmem (rebuilt->data, rebuilt->len, b, nb);

      terrain_cli_diff_merge (hunks, 8);
      g_assert_cmpuint (hunks->len, ==, cases[c].n_merged);
      g_clear_pointer (&rebuilt, g_byte_array_unref);
      rebuilt = apply_hunks (a, na, b, nb, hunks);
      g_assert_cmpmem (rebuilt->data, rebuilt->len, b, nb);
    }
}

/* Random pairs: a text and the same with a few bytes replaced, inserted
 * and deleted. The script is as short as the longest common subsequence
 * allows and rebuilds the new text, before and after merging. */
static void
test_diff_random (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261204);

  for (guint round = 0; round < 400; round++)
    {
      guint8 a[64], b[96];
      gsize na = g_rand_int_range (rand, 0, 64), nb = 0;
      g_autoptr(GArray) hunks = g_array_new (FALSE, FALSE, sizeof (TerrainCliHunk));
      g_autoptr(GByteArray) rebuilt = NULL;

      for (gsize i = 0; i < na; i++)
        a[i] = (guint8) g_rand_int_range (rand, 'a', 'e');
      for (gsize i = 0; i < na && nb < sizeof b - 2; i++)
        switch (g_rand_int_range (rand, 0, 8))
          {
          case 0: break;                                     /* deleted */
          case 1: b[nb++] = 'z'; b[nb++] = a[i]; break;      /* inserted */
          case 2: b[nb++] = (guint8) g_rand_int_range (rand, 'a', 'f'); break;
          default: b[nb++] = a[i]; break;
          }

      g_assert_true (terrain_cli_diff (a, na, b, nb, 200, hunks));
      g_assert_cmpuint (hunks->len, ==, na + nb - 2 * lcs_length (a, na, b, nb));
      rebuilt = apply_hunks (a, na, b, nb, hunks);
      g_assert_cmpmem (rebuilt->data, rebuilt->len, b, nb);
      terrain_cli_diff_merge (hunks, g_rand_int_range (rand, 0, 10));
      g_clear_pointer (&rebuilt, g_byte_array_unref);
      rebuilt = apply_hunks (a, na, b, nb, hunks);
      g_assert_cmpmem (rebuilt->data, rebuilt->len, b, nb);
    }
}

/* Past the bound: FALSE, and the array as it was. */
static void
test_diff_bound (void)
{
  g_autoptr(GArray) hunks = g_array_new (FALSE, FALSE, sizeof (TerrainCliHunk));
  TerrainCliHunk kept = { 1, 2, 3, 4 };
  const guint8 *a = (const guint8 *) "aaaaaaaaaaaaaaaaaaaa";
  const guint8 *b = (const guint8 *) "bbbbbbbbbbbbbbbbbbbbbb";

  g_array_append_val (hunks, kept);
  g_assert_false (terrain_cli_diff (a, 20, b, 22, 41, hunks));
  g_assert_cmpuint (hunks->len, ==, 1);
  /* The size difference alone is past the bound. */
  g_assert_false (terrain_cli_diff (a, 20, b, 2, 10, hunks));
  g_assert_cmpuint (hunks->len, ==, 1);
  g_assert_true (terrain_cli_diff (a, 20, b, 22, 42, hunks));
  g_assert_cmpuint (hunks->len, ==, 1 + 42);
  g_assert_cmpuint (g_array_index (hunks, TerrainCliHunk, 0).old_start, ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/CliDiff/cases", test_diff_cases);
  g_test_add_func ("/Terrain/CliDiff/random", test_diff_random);
  g_test_add_func ("/Terrain/CliDiff/bound", test_diff_bound);

  return g_test_run ();
}
