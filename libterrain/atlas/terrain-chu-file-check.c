/* terrain-chu-file-check.c: validation of chunked-LOD geometry trees
 * (.chu): header values, stub positions and neighbour labels, height
 * bounds, triangle counts, vertex indices and chunk overlaps, each kind
 * capped by the one findings collector.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "terrain-chu-file.h"
#include "terrain-quadtree.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue-private.h"
#include "core/terrain-issue.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-relief-private.h"
#include "core/terrain-writer-private.h"
#include "terrain-chu-file-impl-private.h"

/* Validation findings, at most TERRAIN_ISSUE_CAP_PER_KIND of each kind,
 * then one summary per kind. */
typedef enum
{
  KIND_HEADER,
  KIND_POSITION,
  KIND_NEIGHBOR,
  KIND_BOUNDS,
  KIND_TRIANGLES,
  KIND_INDICES,
  KIND_OVERLAP,
  N_KINDS
} IssueKind;

static const char * const kind_sections[N_KINDS] = {
  [KIND_HEADER] = "CHU header",
  [KIND_POSITION] = "CHU stubs",
  [KIND_NEIGHBOR] = "CHU stubs",
  [KIND_BOUNDS] = "CHU stubs",
  [KIND_TRIANGLES] = "CHU chunks",
  [KIND_INDICES] = "CHU chunks",
  [KIND_OVERLAP] = "CHU chunks",
};

static const char * const kind_names[N_KINDS] = {
  [KIND_HEADER] = "header values",
  [KIND_POSITION] = "stub positions",
  [KIND_NEIGHBOR] = "neighbour labels",
  [KIND_BOUNDS] = "stub height bounds",
  [KIND_TRIANGLES] = "triangle counts",
  [KIND_INDICES] = "vertex indices",
  [KIND_OVERLAP] = "chunk overlaps",
};

/* Findings go through the one capped collector (core/terrain-issue-private.h),
 * keyed by kind_names. */
typedef TerrainIssueCollector Findings;

static void add_finding (Findings   *findings,
                         IssueKind   kind,
                         gint64      offset,
                         gint64      record,
                         const char *format,
                         ...) G_GNUC_PRINTF (5, 6);

static void
add_finding (Findings   *findings,
             IssueKind   kind,
             gint64      offset,
             gint64      record,
             const char *format,
             ...)
{
  va_list args;

  va_start (args, format);
  terrain_issue_collector_addv (findings, kind_names[kind], TERRAIN_SEVERITY_WARNING,
                                kind_sections[kind], offset, record, format, args);
  va_end (args);
}


gint
chu_compare_spans (gconstpointer a,
               gconstpointer b)
{
  const Span *sa = a, *sb = b;

  if (sa->offset != sb->offset)
    return sa->offset < sb->offset ? -1 : 1;
  if (sa->size != sb->size)
    return sa->size < sb->size ? -1 : 1;
  return (gint) sa->stub - (gint) sb->stub;
}

static void
validate_overlaps (TerrainChuFile *self,
                   Findings       *findings)
{
  g_autofree Span *spans = g_new (Span, self->chunk_count);
  gsize table_end = self->header_size + (gsize) self->chunk_count * self->stub_size;
  gsize reach = 0;
  gint reach_stub = -1;

  for (guint k = 0; k < self->chunk_count; k++)
    {
      spans[k].offset = self->stubs[k].pub.chunk_offset;
      spans[k].size = self->stubs[k].pub.chunk_size;
      spans[k].stub = k;
    }
  qsort (spans, self->chunk_count, sizeof (Span), chu_compare_spans);

  for (guint i = 0; i < self->chunk_count; i++)
    {
      const Span *span = &spans[i];

      if (span->offset < table_end)
        add_finding (findings, KIND_OVERLAP, (gint64) span->offset, span->stub,
                     "the chunk of stub %u (bytes %" G_GSIZE_FORMAT " to %" G_GSIZE_FORMAT
                     ") overlaps the header and stub table (bytes 0 to %" G_GSIZE_FORMAT ")",
                     span->stub, span->offset, span->offset + span->size - 1, table_end - 1);

      /* Identical spans are one chunk shared by several nodes (§9e). */
      if (i > 0 && span->offset == spans[i - 1].offset && span->size == spans[i - 1].size)
        continue;
      if (reach_stub >= 0 && span->offset < reach)
        add_finding (findings, KIND_OVERLAP, (gint64) span->offset, span->stub,
                     "the chunk of stub %u (bytes %" G_GSIZE_FORMAT " to %" G_GSIZE_FORMAT
                     ") partly overlaps the chunk of stub %d (ending at byte %" G_GSIZE_FORMAT
                     ")",
                     span->stub, span->offset, span->offset + span->size - 1, reach_stub,
                     reach - 1);
      if (span->offset + span->size > reach)
        {
          reach = span->offset + span->size;
          reach_stub = (gint) span->stub;
        }
    }
}

typedef struct
{
  gint min;   /* G_MAXINT when the chunk has no vertices */
  gint max;
} HeightRange;

/* The real triangles of a strip as heightfield_chunker counts them for
 * its chunk headers (heightfield_chunker.cpp, generate_block(): index i
 * differs from i + 1 and from i + 2). */
static guint
count_triangles_as_chunker (const TerrainChuChunk *chunk)
{
  guint count = 0;

  for (guint i = 0; i + 2 < chunk->n_indices; i++)
    if (chunk->indices[i] != chunk->indices[i + 1] && chunk->indices[i] != chunk->indices[i + 2])
      count++;
  return count;
}

static void
check_bounds (Findings             *findings,
              const TerrainChuStub *stub,
              guint                 k,
              gint64                at,
              const HeightRange    *range)
{
  if (range->min <= range->max && (range->min < stub->min_z || range->max > stub->max_z))
    add_finding (findings, KIND_BOUNDS, at, k,
                 "stub %u bounds its heights to %d..%d, but its chunk's vertices reach %d..%d",
                 k, stub->min_z, stub->max_z, range->min, range->max);
}

GPtrArray *
chu_file_validate (TerrainDocument *document)
{
  TerrainChuFile *self = TERRAIN_CHU_FILE (document);
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autofree HeightRange *ranges = g_new0 (HeightRange, self->chunk_count);
  Findings findings = { 0 };
  gfloat vertical_scale = chu_bits_to_float (self->vertical_scale_bits);
  gfloat leaf = chu_bits_to_float (self->leaf_dimensions_bits);

  terrain_issue_collector_init (&findings, 0);

  if (!isfinite (leaf) || leaf <= 0.0f)
    add_finding (&findings, KIND_HEADER, chu_header_offset (self, OFF_LEAF_DIMENSIONS), -1,
                 "leaf dimensions %g are not finite and positive; the chunks have no size",
                 (gdouble) leaf);
  if (!isfinite (vertical_scale) || vertical_scale <= 0.0f)
    add_finding (&findings, KIND_HEADER, chu_header_offset (self, OFF_VERTICAL_SCALE), -1,
                 "vertical scale %g is not finite and positive", (gdouble) vertical_scale);

  for (guint k = 0; k < self->chunk_count; k++)
    {
      const ChuStub *stub = &self->stubs[k];
      const TerrainChuStub *pub = &stub->pub;
      g_autoptr(TerrainChuChunk) chunk = NULL;
      gint64 at = (gint64) pub->record_offset;
      gpointer first;

      if (self->variant == TERRAIN_CHU_VARIANT_CHU3)
        {
          guint level;
          guint32 a, b;

          /* Label nodeID(level, a, b) is Atlas node (level, b, a), whose
           * chunk origin is the stub's (x, y) (§9b). */
          terrain_quadtree_node_position ((guint64) pub->label, &level, &a, &b);
          if (pub->level != level || pub->x != (gint32) b || pub->y != (gint32) a)
            add_finding (&findings, KIND_POSITION, at, k,
                         "stub %u says level %u, x %d, y %d, but its label %d is node "
                         "(level %u, x %u, y %u)",
                         k, pub->level, pub->x, pub->y, pub->label, level, b, a);
        }
      else if (stub->parent >= 0)
        {
          const TerrainChuStub *up = &self->stubs[stub->parent].pub;

          if ((pub->x >> 1) != up->x || (pub->y >> 1) != up->y)
            add_finding (&findings, KIND_POSITION, at, k,
                         "chunk header %u at (level %u, x %d, y %d) does not lie inside its "
                         "parent, chunk header %d at (level %u, x %d, y %d)",
                         k, pub->level, pub->x, pub->y, stub->parent, up->level, up->x, up->y);
        }

      for (guint i = 0; i < 4; i++)
        if (pub->neighbors[i] >= 0 && (guint32) pub->neighbors[i] >= self->chunk_count)
          add_finding (&findings, KIND_NEIGHBOR, at, k,
                       "neighbour %u of stub %u is label %d, outside the tree (0 to %u)",
                       i, k, pub->neighbors[i], self->chunk_count - 1);

      /* A chunk shared by several stubs is decoded and checked once; each
       * stub's own bounds are still compared with its heights. */
      if (g_hash_table_lookup_extended (seen, GUINT_TO_POINTER (pub->chunk_offset), NULL,
                                        &first))
        {
          const HeightRange *range = &ranges[GPOINTER_TO_UINT (first)];

          check_bounds (&findings, pub, k, at, range);
          continue;
        }
      g_hash_table_insert (seen, GUINT_TO_POINTER (pub->chunk_offset), GUINT_TO_POINTER (k));

      ranges[k].min = G_MAXINT;
      ranges[k].max = G_MININT;
      chunk = terrain_chu_file_get_chunk (self, k, NULL);
      if (chunk == NULL)
        continue;

      for (guint i = 0; i < chunk->n_vertices; i++)
        {
          ranges[k].min = MIN (ranges[k].min, chunk->vertices[i].z);
          ranges[k].max = MAX (ranges[k].max, chunk->vertices[i].z);
        }
      check_bounds (&findings, pub, k, at, &ranges[k]);

      {
        guint derived = terrain_chu_chunk_count_triangles (chunk);

        if (!chunk->strip && chunk->n_indices % 3 != 0)
          add_finding (&findings, KIND_TRIANGLES,
                       (gint64) (pub->chunk_offset + stub->layout.indices_at), k,
                       "the chunk of stub %u has %u indices, not a whole number of triangles",
                       k, chunk->n_indices);
        /* heightfield_chunker counts a strip triangle as real when its
         * first index differs from the other two, without comparing the
         * second and third ((5, 3, 3) counts): its files store that
         * count, and Ulrich's viewer only prints it. */
        if (chunk->tri_count != derived &&
            !(self->variant == TERRAIN_CHU_VARIANT_ULRICH && chunk->strip &&
              chunk->tri_count == count_triangles_as_chunker (chunk)))
          add_finding (&findings, KIND_TRIANGLES,
                       (gint64) (pub->chunk_offset + stub->layout.tri_count_at), k,
                       "the chunk of stub %u stores triangle count %u, its indices describe %u",
                       k, chunk->tri_count, derived);
      }

      {
        guint bad = 0, first_bad = 0;

        for (guint i = 0; i < chunk->n_indices; i++)
          if (chunk->indices[i] >= chunk->n_vertices)
            {
              if (bad++ == 0)
                first_bad = i;
            }
        if (bad > 0)
          add_finding (&findings, KIND_INDICES,
                       (gint64) (pub->chunk_offset + stub->layout.indices_at + 4 + 2 * first_bad),
                       k,
                       "the chunk of stub %u has %u indices beyond its %u vertices (the first "
                       "is index %u, value %u)",
                       k, bad, chunk->n_vertices, first_bad, chunk->indices[first_bad]);
      }
    }

  validate_overlaps (self, &findings);

  return terrain_issue_collector_finish (&findings);
}
