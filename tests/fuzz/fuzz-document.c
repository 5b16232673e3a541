/* fuzz-document.c: libFuzzer harness for one libterrain format
 *
 * Built once per format with FUZZ_FORMAT set to the format's short name
 * (terrain_format_get_name()). For every input:
 *   - loading either succeeds or fails with a TERRAIN_ERROR (never a crash,
 *     leak or sanitizer report);
 *   - whatever loads must write back byte-exact, and the written bytes must
 *     load again and describe identically;
 *   - validate, describe and describe_offset run on every loaded document.
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

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

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
      return 0;
    }

  issues = terrain_document_validate (document);
  first = terrain_document_describe (document);
  where = terrain_document_describe_offset (document, size / 2);

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

  return 0;
}
