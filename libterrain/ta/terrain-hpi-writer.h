/* terrain-hpi-writer.h: building HPI archives
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <gio/gio.h>

#include "terrain-hpi-archive.h"

G_BEGIN_DECLS

/**
 * TerrainHpiWriter:
 *
 * Collects files and writes them as an HPI archive that
 * [class@Terrain.HpiArchive] (and the game) reads.
 */
typedef struct _TerrainHpiWriter TerrainHpiWriter;

#define TERRAIN_TYPE_HPI_WRITER (terrain_hpi_writer_get_type ())

TERRAIN_AVAILABLE_IN_ALL
GType             terrain_hpi_writer_get_type          (void) G_GNUC_CONST;
TERRAIN_AVAILABLE_IN_ALL
TerrainHpiWriter *terrain_hpi_writer_new               (void);
TERRAIN_AVAILABLE_IN_ALL
TerrainHpiWriter *terrain_hpi_writer_ref               (TerrainHpiWriter      *writer);
TERRAIN_AVAILABLE_IN_ALL
void              terrain_hpi_writer_unref             (TerrainHpiWriter      *writer);
TERRAIN_AVAILABLE_IN_ALL
void              terrain_hpi_writer_set_key           (TerrainHpiWriter      *writer,
                                                        guint8                 key);
TERRAIN_AVAILABLE_IN_ALL
void              terrain_hpi_writer_set_encrypt_chunks (TerrainHpiWriter     *writer,
                                                         gboolean              encrypt);
TERRAIN_AVAILABLE_IN_ALL
gboolean          terrain_hpi_writer_add_file          (TerrainHpiWriter      *writer,
                                                        const char            *path,
                                                        GBytes                *contents,
                                                        TerrainHpiCompression  compression,
                                                        GError               **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean          terrain_hpi_writer_has_file          (TerrainHpiWriter      *writer,
                                                        const char            *path);
TERRAIN_AVAILABLE_IN_ALL
gboolean          terrain_hpi_writer_add_archive       (TerrainHpiWriter      *writer,
                                                        TerrainHpiArchive     *archive,
                                                        GError               **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean          terrain_hpi_writer_save_with_backup  (TerrainHpiWriter      *writer,
                                                        GFile                 *file,
                                                        GFile                 *backup,
                                                        GCancellable          *cancellable,
                                                        GError               **error);
TERRAIN_AVAILABLE_IN_ALL
GFile            *terrain_hpi_backup_file              (GFile                 *archive);
TERRAIN_AVAILABLE_IN_ALL
gboolean          terrain_hpi_writer_update            (TerrainHpiWriter      *writer,
                                                        GFile                 *file,
                                                        gboolean               keep_key,
                                                        GFile                 *backup,
                                                        guint                 *n_existing,
                                                        GCancellable          *cancellable,
                                                        GError               **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean          terrain_hpi_save_map                 (GFile                 *archive,
                                                        const char            *tnt_path,
                                                        GBytes                *tnt,
                                                        GBytes                *ota,
                                                        GFile                 *backup,
                                                        GCancellable          *cancellable,
                                                        GError               **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes           *terrain_hpi_writer_to_bytes          (TerrainHpiWriter      *writer,
                                                        GError               **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean          terrain_hpi_writer_save              (TerrainHpiWriter      *writer,
                                                        GFile                 *file,
                                                        GCancellable          *cancellable,
                                                        GError               **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes           *terrain_hpi_pack_map                 (const char            *name,
                                                        GBytes                *tnt,
                                                        GBytes                *ota,
                                                        GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerrainHpiWriter, terrain_hpi_writer_unref)

G_END_DECLS
