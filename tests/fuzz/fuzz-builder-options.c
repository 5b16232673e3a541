/* fuzz-builder-options.c: libFuzzer harness for the Atlas builder's options
 *
 * The input gives the options `terrain build-atlas` feeds the builder:
 * bytes 0-7, 8-15, 16-23 and 24-31 are the vertical scale, vertical offset,
 * spacing and error as little-endian doubles (any bits: NaN, infinities,
 * 1e300), byte 32 the tree depth (modulo 5) and byte 33 whether to measure
 * the error; the rest are the 17 x 17 little-endian U16 samples of a
 * small heightfield (zero where the input ends). The heightfield is read
 * with the scale, offset and spacing (terrain_heightfield_new_from_raw16(),
 * which refuses what is not finite), then built with the error and depth
 * the way the CLI does: every build either fails with a TERRAIN_ERROR or
 * writes an Atlas whose chunk bounds and vertices (positions, texture
 * coordinates, morph offsets, normals) are all finite, and which loads
 * again from its own bytes. Seeds come from
 * tests/test-atlas-builder-options.c (terrain_test_dump_seed()).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libterrain.h"
#include "fuzz-limits.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

#define SIDE 17
#define HEADER 34

static void
fail (const char *what,
      const char *message)
{
  g_printerr ("%s%s%s\n", what, message != NULL ? ": " : "", message != NULL ? message : "");
  abort ();
}

static gdouble
read_double (const uint8_t *data,
             size_t         size,
             size_t         at)
{
  guint64 bits = 0;
  gdouble value;

  for (guint i = 0; i < 8 && at + i < size; i++)
    bits |= (guint64) data[at + i] << (8 * i);
  memcpy (&value, &bits, sizeof value);
  return value;
}

static void
check_finite (const gfloat *values,
              guint         n,
              const char   *what)
{
  for (guint i = 0; i < n; i++)
    if (!isfinite (values[i]))
      fail ("a built Atlas holds a non-finite float", what);
}

static void
check_atlas (TerrainAtlasFile *atlas)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (atlas), &error);
  g_autoptr(TerrainAtlasFile) again = NULL;

  if (bytes == NULL)
    fail ("a built Atlas does not write", error->message);
  again = terrain_atlas_file_new_from_bytes (bytes, fuzz_limits (), &error);
  if (again == NULL)
    fail ("a built Atlas does not load from its own bytes", error->message);

  for (guint t = 0; t < terrain_atlas_file_get_n_tocs (again); t++)
    {
      TerrainAtlasToc *toc = terrain_atlas_file_get_toc (again, t);

      if (terrain_atlas_toc_get_kind (toc) != TERRAIN_ATLAS_TOC_GEOMETRY)
        continue;
      for (guint s = 0; s < terrain_atlas_toc_get_n_stubs (toc); s++)
        {
          g_autoptr(TerrainAtlasStub) stub = terrain_atlas_toc_get_stub (toc, s);
          g_autoptr(TerrainAtlasGeometry) geometry = NULL;
          TerrainAtlasBox box;
          const TerrainAtlasVertex *vertices;
          guint n_vertices = 0;

          if (terrain_atlas_stub_get_bounds (stub, &box))
            {
              check_finite (box.min, 3, "stub bounds");
              check_finite (box.max, 3, "stub bounds");
            }
          if (!terrain_atlas_stub_has_chunk (stub))
            continue;
          geometry = terrain_atlas_file_get_geometry (again, t, s, &error);
          if (geometry == NULL)
            fail ("a built geometry chunk does not decode", error->message);
          terrain_atlas_geometry_get_bounds (geometry, &box);
          check_finite (box.min, 3, "chunk bounds");
          check_finite (box.max, 3, "chunk bounds");
          vertices = terrain_atlas_geometry_get_vertices (geometry, &n_vertices);
          for (guint v = 0; v < n_vertices; v++)
            check_finite ((const gfloat *) &vertices[v],
                          sizeof (TerrainAtlasVertex) / sizeof (gfloat), "vertex");
        }
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(TerrainHeightfieldOptions) options = terrain_heightfield_options_new ();
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(TerrainAtlasBuilder) builder = NULL;
  g_autoptr(TerrainAtlasFile) atlas = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) raw = NULL;
  guint8 *samples = g_malloc0 (SIDE * SIDE * 2);
  gdouble metres;

  if (size > HEADER)
    memcpy (samples, data + HEADER, MIN (size - HEADER, (gsize) SIDE * SIDE * 2));
  raw = g_bytes_new_take (samples, SIDE * SIDE * 2);

  options->format = TERRAIN_HEIGHTMAP_RAW16;
  options->vertical_scale = read_double (data, size, 0);
  options->vertical_offset = read_double (data, size, 8);
  options->spacing = read_double (data, size, 16);
  metres = read_double (data, size, 24);

  field = terrain_heightfield_new_from_bytes (raw, "f.r16", options, &error);
  if (field == NULL)
    {
      if (error == NULL || error->domain != TERRAIN_ERROR)
        fail ("reading with options failed without a TERRAIN_ERROR", NULL);
      return 0;
    }

  builder = terrain_atlas_builder_new (field);
  /* The CLI refuses an error that is not finite and positive itself. */
  if (isfinite (metres) && metres > 0.0)
    terrain_atlas_builder_set_error (builder, metres);
  terrain_atlas_builder_set_tree_depth (builder, size > 32 ? data[32] % 5 : 1);
  terrain_atlas_builder_set_measure_error (builder, size > 33 && (data[33] & 1));
  atlas = terrain_atlas_builder_build (builder, NULL, &error);
  if (atlas == NULL)
    {
      if (error == NULL || error->domain != TERRAIN_ERROR)
        fail ("a build failed without a TERRAIN_ERROR", error != NULL ? error->message : NULL);
      return 0;
    }
  check_atlas (atlas);
  return 0;
}
