/* terrain-error.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-error.h"
#include "terrain-error-private.h"

#include <string.h>

/**
 * terrain_error_quark:
 *
 * Gets the error domain of libterrain, %TERRAIN_ERROR.
 *
 * Returns: the quark naming the domain
 */
G_DEFINE_QUARK (terrain-error-quark, terrain_error)

/*
 * terrain_utf8_is_printable:
 * @text: a NUL-terminated string
 *
 * Whether @text is valid UTF-8 without control characters (C0, DEL, C1),
 * that is, text a terminal or a JSON reader shows as it is.
 */
gboolean
terrain_utf8_is_printable (const char *text)
{
  const char *end;

  if (!g_utf8_validate (text, -1, &end))
    return FALSE;
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x20 || (c >= 0x7F && c <= 0x9F))
        return FALSE;
    }
  return TRUE;
}

/*
 * terrain_utf8_make_printable:
 * @text: a NUL-terminated string, in any encoding
 *
 * Makes text read from a file safe to print and to put in JSON: invalid
 * UTF-8 sequences become U+FFFD (names in legacy archives are in any code
 * page), and control characters, which a file's string block or a damaged
 * name can hold, are written as `\xNN` (C0 and DEL) or `\u00NN` (C1), so
 * that `terrain info` never sends raw control bytes to a terminal.
 *
 * Returns: (transfer full): the printable text
 */
char *
terrain_utf8_make_printable (const char *text)
{
  g_autofree char *valid = NULL;
  GString *out;

  if (terrain_utf8_is_printable (text))
    return g_strdup (text);
  valid = g_utf8_make_valid (text, -1);
  out = g_string_sized_new (strlen (valid) + 16);
  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x20 || c == 0x7F)
        g_string_append_printf (out, "\\x%02X", c);
      else if (c >= 0x80 && c <= 0x9F)
        g_string_append_printf (out, "\\u%04X", c);
      else
        g_string_append_unichar (out, c);
    }
  return g_string_free (out, FALSE);
}

/*
 * terrain_error_ensure_utf8:
 * @error: (nullable): a return location for a #GError, as the caller got it
 *
 * Makes the message of a set error printable UTF-8, as GError messages must
 * be: messages quote names from files (HPI paths, TDF keys), which may be in a
 * legacy code page or hold control bytes. Invalid bytes become U+FFFD (the
 * rest of the message is UTF-8 already, so it cannot be re-read as a legacy
 * code page), control characters `\xNN` (terrain_utf8_make_printable()).
 * Public functions that can fail with such a message call this before
 * returning.
 */
void
terrain_error_ensure_utf8 (GError **error)
{
  char *valid;

  if (error == NULL || *error == NULL || terrain_utf8_is_printable ((*error)->message))
    return;
  valid = terrain_utf8_make_printable ((*error)->message);
  g_free ((*error)->message);
  (*error)->message = valid;
}
