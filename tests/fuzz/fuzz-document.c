/* fuzz-document.c: libFuzzer harness for one libterrain format
 *
 * Built once per format with FUZZ_FORMAT set to the format's short name
 * (terrain_format_get_name()). For every input:
 *   - loading either succeeds or fails with a TERRAIN_ERROR (never a crash,
 *     leak or sanitizer report);
 *   - whatever loads must write back byte-exact, and the written bytes must
 *     load again and describe identically, in valid JSON;
 *   - validate, describe and describe_offset run on every loaded document,
 *     and so do render_image (through a grey colour table) and export_heights
 *     for inputs up to 64 KiB, which decode what loading leaves for later;
 *     they may fail, but only with a TERRAIN_ERROR.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "libterrain.h"
#include "fuzz-limits.h"

#ifndef FUZZ_FORMAT
# error "FUZZ_FORMAT must name the format"
#endif

#define RENDER_MAX_INPUT (64 * 1024)

/* Formats whose picture costs the same whatever the input (a
 * TerrainNodeLayer's quadtree map is 1024 x 1024 pixels) render one input
 * in FUZZ_RENDER_EVERY, chosen by a hash of its bytes so that a crash
 * input reproduces alone. */
#ifndef FUZZ_RENDER_EVERY
# define FUZZ_RENDER_EVERY 1
#endif

static gboolean
render_this_input (const uint8_t *data,
                   size_t         size)
{
  guint32 hash = 2166136261u;

  if (size > RENDER_MAX_INPUT)
    return FALSE;
  for (size_t i = 0; i < size; i++)
    hash = (hash ^ data[i]) * 16777619u;
  return hash % FUZZ_RENDER_EVERY == 0;
}

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static TerrainRenderOptions *
grey_options (void)
{
  static TerrainRenderOptions *options;

  if (options == NULL)
    {
      guint8 rgb[3 * 256];
      g_autoptr(TerrainPalette) palette = NULL;

      for (guint i = 0; i < 256; i++)
        rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = (guint8) i;
      palette = terrain_palette_new_from_rgb (rgb, 256);
      options = terrain_palette_to_render_options (palette);
    }
  return options;
}

/* Rendering and height export may refuse a document, with a TERRAIN_ERROR. */
static void
check_image (TerrainImage  *image,
             GError       **error)
{
  if (image != NULL)
    terrain_image_unref (image);
  else if (*error == NULL || (*error)->domain != TERRAIN_ERROR)
    abort ();
  g_clear_error (error);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainDocument) document = NULL;
  g_autoptr(TerrainDocument) again = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(JsonNode) first = NULL;
  g_autoptr(JsonNode) second = NULL;
  g_autofree char *where = NULL;
  TerrainFormat format = terrain_format_from_name (FUZZ_FORMAT);

  document = terrain_document_load_bytes (bytes, NULL, format, fuzz_limits (), &error);
  if (document == NULL)
    {
      if (error == NULL || error->domain != TERRAIN_ERROR)
        abort ();
      if (!g_utf8_validate (error->message, -1, NULL))
        {
          g_printerr ("the error message is not UTF-8\n");
          abort ();
        }
      return 0;
    }

  issues = terrain_document_validate (document);
  first = terrain_document_describe (document);
  where = terrain_document_describe_offset (document, size / 2);
  /* A large document's picture would take the fuzzer's time from parsing
   * (a .ter is always 192 KiB or more); small ones cover the decoders. */
  if (render_this_input (data, size))
    {
      GError *render_error = NULL;
      TerrainImage *image = terrain_document_render_image (document, grey_options (),
                                                           &render_error);

      check_image (image, &render_error);
      image = terrain_document_export_heights (document, &render_error);
      check_image (image, &render_error);
    }

  written = terrain_document_save_to_bytes (document, &error);
  if (written == NULL)
    {
      /* A document that loaded must be writable. */
      g_printerr ("save failed: %s\n", error->message);
      abort ();
    }
  if (!g_bytes_equal (written, bytes))
    {
      g_autofree char *section = NULL;
      gsize offset = 0;

      terrain_document_compare_bytes (document, written, &offset, &section);
      g_printerr ("round trip differs at byte offset %" G_GSIZE_FORMAT " (%s)\n",
                  offset, section);
      abort ();
    }

  again = terrain_document_load_bytes (written, NULL, format, fuzz_limits (), &error);
  if (again == NULL)
    {
      g_printerr ("written bytes do not load again: %s\n", error->message);
      abort ();
    }
  second = terrain_document_describe (again);
  if (!json_node_equal (first, second))
    {
      g_printerr ("re-parsed document describes differently\n");
      abort ();
    }

  /* `terrain info --json` must print JSON: UTF-8 that parses again. */
  {
    g_autofree char *text = json_to_string (first, FALSE);
    g_autoptr(JsonNode) parsed = NULL;

    if (!g_utf8_validate (text, -1, NULL))
      {
        g_printerr ("the description is not UTF-8\n");
        abort ();
      }
    parsed = json_from_string (text, &error);
    if (parsed == NULL)
      {
        g_printerr ("the description is not JSON: %s\n", error->message);
        abort ();
      }
  }

  return 0;
}
