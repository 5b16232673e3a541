/* terrain-error.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <glib.h>

#include "terrain-version.h"

G_BEGIN_DECLS

/**
 * TERRAIN_ERROR:
 *
 * The error domain of libterrain.
 */
#define TERRAIN_ERROR (terrain_error_quark ())

/**
 * TerrainError:
 * @TERRAIN_ERROR_TRUNCATED: the data ends before a structure it declares
 * @TERRAIN_ERROR_BAD_MAGIC: a magic number or sentinel does not match
 * @TERRAIN_ERROR_UNSUPPORTED_VERSION: the version word is not one this library reads
 * @TERRAIN_ERROR_OUT_OF_RANGE: an offset, index or value lies outside its valid range
 * @TERRAIN_ERROR_OVERLAP: two blocks of the file claim the same bytes
 * @TERRAIN_ERROR_LIMIT_EXCEEDED: a count or size exceeds the allocation limits
 *   ([struct@Terrain.Limits])
 * @TERRAIN_ERROR_INVALID_VALUE: a field holds a value the format forbids
 * @TERRAIN_ERROR_IO: reading or writing a file failed
 * @TERRAIN_ERROR_UNKNOWN_FORMAT: the data is not in any format libterrain knows
 * @TERRAIN_ERROR_NOT_SUPPORTED: the format is recognised but the operation is not
 *   implemented for it
 *
 * Error codes in the %TERRAIN_ERROR domain. Messages name the byte offset, the
 * section and the record index where the problem was found.
 */
typedef enum
{
  TERRAIN_ERROR_TRUNCATED,
  TERRAIN_ERROR_BAD_MAGIC,
  TERRAIN_ERROR_UNSUPPORTED_VERSION,
  TERRAIN_ERROR_OUT_OF_RANGE,
  TERRAIN_ERROR_OVERLAP,
  TERRAIN_ERROR_LIMIT_EXCEEDED,
  TERRAIN_ERROR_INVALID_VALUE,
  TERRAIN_ERROR_IO,
  TERRAIN_ERROR_UNKNOWN_FORMAT,
  TERRAIN_ERROR_NOT_SUPPORTED,
} TerrainError;

TERRAIN_AVAILABLE_IN_ALL
GQuark terrain_error_quark (void);

G_END_DECLS
