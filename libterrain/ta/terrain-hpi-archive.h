/* terrain-hpi-archive.h: Total Annihilation HPI archives (.hpi, .ufo, .ccx, .gp3)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include "core/terrain-document.h"
#include "core/terrain-limits.h"

G_BEGIN_DECLS

/**
 * TerrainHpiCompression:
 * @TERRAIN_HPI_COMPRESSION_NONE: stored as is
 * @TERRAIN_HPI_COMPRESSION_LZ77: 64 KiB "SQSH" chunks of LZ77 (4 KiB window)
 * @TERRAIN_HPI_COMPRESSION_ZLIB: 64 KiB "SQSH" chunks of zlib streams
 *
 * How a file of an HPI archive is stored: the method byte of its directory
 * entry (field-notes.md, "Total Annihilation ecosystem").
 */
typedef enum
{
  TERRAIN_HPI_COMPRESSION_NONE = 0,
  TERRAIN_HPI_COMPRESSION_LZ77 = 1,
  TERRAIN_HPI_COMPRESSION_ZLIB = 2,
} TerrainHpiCompression;

/**
 * TERRAIN_HPI_CHUNK_SIZE:
 *
 * Largest decompressed size of one "SQSH" chunk: compressed files are cut
 * into chunks of this size, the last one shorter.
 */
#define TERRAIN_HPI_CHUNK_SIZE 65536

/**
 * TERRAIN_HPI_MAX_DEPTH:
 *
 * Deepest directory nesting the reader accepts.
 */
#define TERRAIN_HPI_MAX_DEPTH 32

#define TERRAIN_TYPE_HPI_ARCHIVE (terrain_hpi_archive_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainHpiArchive, terrain_hpi_archive, TERRAIN, HPI_ARCHIVE, TerrainDocument)

TERRAIN_AVAILABLE_IN_ALL
TerrainHpiArchive    *terrain_hpi_archive_new_from_bytes   (GBytes               *bytes,
                                                            const TerrainLimits  *limits,
                                                            GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainHpiArchive    *terrain_hpi_archive_new_from_file    (GFile                *file,
                                                            const TerrainLimits  *limits,
                                                            GCancellable         *cancellable,
                                                            GError              **error);
TERRAIN_AVAILABLE_IN_ALL
guint32               terrain_hpi_archive_get_version      (TerrainHpiArchive    *self);
TERRAIN_AVAILABLE_IN_ALL
guint32               terrain_hpi_archive_get_key          (TerrainHpiArchive    *self);
TERRAIN_AVAILABLE_IN_ALL
guint                 terrain_hpi_archive_get_n_files      (TerrainHpiArchive    *self);
TERRAIN_AVAILABLE_IN_ALL
const char           *terrain_hpi_archive_get_path         (TerrainHpiArchive    *self,
                                                            guint                 index);
TERRAIN_AVAILABLE_IN_ALL
guint32               terrain_hpi_archive_get_file_size    (TerrainHpiArchive    *self,
                                                            guint                 index);
TERRAIN_AVAILABLE_IN_ALL
TerrainHpiCompression terrain_hpi_archive_get_compression  (TerrainHpiArchive    *self,
                                                            guint                 index);
TERRAIN_AVAILABLE_IN_ALL
gboolean              terrain_hpi_archive_find             (TerrainHpiArchive    *self,
                                                            const char           *path,
                                                            guint                *index);
TERRAIN_AVAILABLE_IN_ALL
GBytes               *terrain_hpi_archive_read_file        (TerrainHpiArchive    *self,
                                                            guint                 index,
                                                            GError              **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes               *terrain_hpi_archive_read_path        (TerrainHpiArchive    *self,
                                                            const char           *path,
                                                            GError              **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean              terrain_hpi_archive_extract          (TerrainHpiArchive    *self,
                                                            GFile                *folder,
                                                            GCancellable         *cancellable,
                                                            GError              **error);

G_END_DECLS
