/* fuzz-heightmap.c: libFuzzer harness for the heightmap importer
 *
 * The input is read as every height source terrain_heightfield_new_from_bytes()
 * takes: detected from its magic (PNG, .ter, .tnt), then named as raw16
 * (square and one sample wide), SRTM .hgt, Terrain-RGB and Terrarium. Each
 * read either fails with a TERRAIN_ERROR or gives a grid whose samples are
 * all finite and inside its own range. A small grid is then fitted to 2^N+1
 * (padding keeps every sample where it was) and encoded as raw16 with its
 * automatic scale; reading that back gives the same grid to within half a
 * unit.
 *
 * The input is also opened as a plain-heightmap document (the `heightmap`
 * format, TerrainHeightmapDocument): it loads or fails with a TERRAIN_ERROR;
 * what loads validates, describes as JSON, decodes its grid or fails with a
 * TERRAIN_ERROR (opening reads only a PNG's header), draws and exports its
 * heights (small grids), and writes back byte-exact.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "libterrain.h"
#include "fuzz-limits.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* Fitting and re-encoding are only tried on grids up to this side, so that
 * one input stays well under a millisecond's work per sample pass. */
#define CHECK_MAX_SIDE 513

static void
fail (const char *what,
      const char *message)
{
  g_printerr ("%s%s%s\n", what, message != NULL ? ": " : "", message != NULL ? message : "");
  abort ();
}

static void
check_grid (TerrainHeightfield *field)
{
  guint width = terrain_heightfield_get_width (field);
  guint height = terrain_heightfield_get_height (field);
  g_autofree gfloat *row = NULL;
  gfloat lo, hi;

  if (width == 0 || height == 0 ||
      width > TERRAIN_HEIGHTFIELD_MAX_SIDE || height > TERRAIN_HEIGHTFIELD_MAX_SIDE)
    fail ("a heightfield has an impossible size", NULL);

  terrain_heightfield_get_range (field, &lo, &hi);
  if (!isfinite (lo) || !isfinite (hi) || lo > hi)
    fail ("a heightfield has a bad range", NULL);

  row = g_new (gfloat, width);
  for (guint y = 0; y < height; y++)
    {
      terrain_heightfield_read_rect (field, 0, y, width, 1, row, width);
      for (guint x = 0; x < width; x++)
        if (!isfinite (row[x]) || row[x] < lo || row[x] > hi)
          fail ("a sample is not finite or outside the grid's range", NULL);
    }

  if (!isfinite (terrain_heightfield_sample_bilinear (field, (width - 1) * 0.37,
                                                      (height - 1) * 0.61)))
    fail ("bilinear sampling gave a non-finite height", NULL);
}

static void
check_fit_and_encode (TerrainHeightfield *field)
{
  guint width = terrain_heightfield_get_width (field);
  guint height = terrain_heightfield_get_height (field);
  g_autoptr(TerrainHeightfieldOptions) options = terrain_heightfield_options_new ();
  g_autoptr(TerrainHeightfield) fitted = NULL;
  g_autoptr(TerrainHeightfield) again = NULL;
  g_autoptr(GBytes) raw = NULL;
  g_autoptr(GError) error = NULL;
  gdouble scale, offset;

  if (width > CHECK_MAX_SIDE || height > CHECK_MAX_SIDE)
    return;

  fitted = terrain_heightfield_fit (field, TERRAIN_HEIGHTFIELD_FIT_PAD, &error);
  if (fitted == NULL)
    fail ("a small grid does not fit", error->message);
  if (terrain_heightfield_get_width (fitted) != terrain_heightfield_get_height (fitted) ||
      terrain_heightfield_get_width (fitted) < MAX (width, height) ||
      !terrain_heightfield_is_chunkable (fitted))
    fail ("a padded grid is not square 2^N+1", NULL);
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      if (terrain_heightfield_get_sample (fitted, x, y) !=
          terrain_heightfield_get_sample (field, x, y))
        fail ("padding moved a sample", NULL);

  terrain_heightfield_get_auto_encoding (field, &scale, &offset);
  raw = terrain_heightfield_to_raw16 (field, scale, offset, &error);
  if (raw == NULL)
    fail ("a grid does not encode with its own automatic scale", error->message);

  options->format = TERRAIN_HEIGHTMAP_RAW16;
  options->raw_width = width;
  options->raw_height = height;
  options->vertical_scale = scale;
  options->vertical_offset = offset;
  again = terrain_heightfield_new_from_bytes (raw, NULL, options, &error);
  if (again == NULL)
    fail ("an encoded raw16 grid does not read back", error->message);
  if (terrain_heightfield_get_width (again) != width ||
      terrain_heightfield_get_height (again) != height)
    fail ("a raw16 grid read back at another size", NULL);
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        double a = terrain_heightfield_get_sample (field, x, y);
        double b = terrain_heightfield_get_sample (again, x, y);

        if (fabs (a - b) > fabs (scale) * 0.5 + 1e-4 * MAX (1.0, fabs (a)))
          fail ("a raw16 round trip moved a sample by more than half a unit", NULL);
      }
}

static void
try_source (GBytes                 *bytes,
            const char             *filename,
            TerrainHeightmapFormat  format,
            guint                   raw_width)
{
  g_autoptr(TerrainHeightfieldOptions) options = terrain_heightfield_options_new ();
  g_autoptr(TerrainHeightfield) field = NULL;
  g_autoptr(GError) error = NULL;

  options->format = format;
  options->raw_width = raw_width;
  field = terrain_heightfield_new_from_bytes (bytes, filename, options, &error);
  if (field == NULL)
    {
      if (error == NULL || error->domain != TERRAIN_ERROR)
        fail ("a failed read set no TERRAIN_ERROR", error != NULL ? error->message : NULL);
      if (!g_utf8_validate (error->message, -1, NULL))
        fail ("an error message is not UTF-8", NULL);
      return;
    }
  check_grid (field);
  check_fit_and_encode (field);
}

/* Pictures and height exports may refuse, but only with a TERRAIN_ERROR. */
static void
check_image (TerrainImage  *image,
             GError       **error)
{
  if (image != NULL)
    terrain_image_unref (image);
  else if (*error == NULL || (*error)->domain != TERRAIN_ERROR)
    fail ("a picture failed outside TERRAIN_ERROR", NULL);
  g_clear_error (error);
}

static void
try_document (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(JsonNode) description = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(JsonNode) parsed = NULL;
  g_autofree char *json = NULL;
  TerrainHeightfield *field;

  document = terrain_document_load_bytes (bytes, NULL, TERRAIN_FORMAT_HEIGHTMAP, fuzz_limits (),
                                          &error);
  if (document == NULL)
    {
      if (error == NULL || error->domain != TERRAIN_ERROR ||
          !g_utf8_validate (error->message, -1, NULL))
        fail ("the heightmap document failed outside TERRAIN_ERROR", NULL);
      return;
    }

  issues = terrain_document_validate (document);
  description = terrain_document_describe (document);
  json = json_to_string (description, FALSE);
  if (g_utf8_validate (json, -1, NULL))
    parsed = json_from_string (json, NULL);
  if (parsed == NULL)
    fail ("the description is not JSON", json);

  /* Opening reads the header only: damaged image data fails here. */
  field = terrain_heightmap_document_decode_heightfield (TERRAIN_HEIGHTMAP_DOCUMENT (document),
                                                         &error);
  if (field == NULL)
    {
      if (error == NULL || error->domain != TERRAIN_ERROR ||
          !g_utf8_validate (error->message, -1, NULL))
        fail ("decoding a heightmap document failed outside TERRAIN_ERROR", NULL);
      g_clear_error (&error);
    }
  else
    check_grid (field);
  if (field != NULL &&
      terrain_heightfield_get_width (field) <= CHECK_MAX_SIDE &&
      terrain_heightfield_get_height (field) <= CHECK_MAX_SIDE)
    {
      TerrainImage *image = terrain_document_render_image (document, NULL, &error);

      check_image (image, &error);
      image = terrain_document_export_heights (document, &error);
      check_image (image, &error);
    }

  written = terrain_document_save_to_bytes (document, &error);
  if (written == NULL || !g_bytes_equal (written, bytes))
    fail ("the heightmap document does not write back byte-exact", NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);

  try_source (bytes, NULL, TERRAIN_HEIGHTMAP_AUTO, 0);
  try_source (bytes, "input.raw", TERRAIN_HEIGHTMAP_RAW16, 0);
  try_source (bytes, "input.raw", TERRAIN_HEIGHTMAP_RAW16, 1);
  try_source (bytes, "input.hgt", TERRAIN_HEIGHTMAP_HGT, 0);
  try_source (bytes, "input.png", TERRAIN_HEIGHTMAP_TERRAIN_RGB, 0);
  try_source (bytes, "input.png", TERRAIN_HEIGHTMAP_TERRARIUM, 0);
  try_document (bytes);

  return 0;
}
