/* terrain-io-private.h: reading a few bytes of a loaded file without its mapping
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Copies @length bytes at @offset of @bytes into @buffer. When @bytes is a
 * file mapping made by terrain_file_load_bytes(), they are read with
 * pread() from the file, so that the mapping's pages are neither faulted in
 * nor mapped (the kernel maps up to 64 KiB of cached pages around each
 * fault: checking a few bytes of every chunk frame of a 500 MB file through
 * the mapping maps all of it); otherwise they are copied from memory.
 * Returns FALSE, with @buffer unchanged, when the range is not inside
 * @bytes. */
gboolean terrain_bytes_pread (GBytes  *bytes,
                              guint64  offset,
                              void    *buffer,
                              gsize    length);

G_END_DECLS
