/* terrain-hpi-archive-private.h: the HPI archive's model, shared by the
 * version 1 reader (terrain-hpi-archive.c) and the version 2 (TA: Kingdoms)
 * reader (terrain-hpi-archive-v2.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "terrain-hpi-archive.h"
#include "core/terrain-document-private.h"
#include "core/terrain-limits.h"

G_BEGIN_DECLS

/* Version 1 */
typedef struct
{
  guint32 offset;          /* of the record in the file */
  guint32 count;
  guint32 entries_offset;
  gint parent;             /* index of the parent directory, -1 for the root */
  gint entry;              /* index of the entry naming it, -1 for the root */
  char *path;              /* "" for the root */
} HpiDirectory;

/* Version 1 */
typedef struct
{
  guint32 offset;          /* of the 9-byte entry */
  guint32 name_offset;
  guint32 data_offset;
  guint8 flag;
  guint32 name_length;     /* without the NUL */
  gint directory;          /* the directory holding the entry */
} HpiEntry;

/* Version 2: a 20-byte directory record of the directory block */
typedef struct
{
  guint32 offset;          /* in the (decoded) directory block */
  guint32 name_offset;     /* in the (decoded) name block */
  guint32 first_sub;
  guint32 sub_count;
  guint32 first_file;
  guint32 file_count;
  char *path;              /* "" for the root */
} HpiDirectory2;

/* Version 2: the directory or the name block, stored as it is or as one
 * "SQSH" chunk. */
typedef struct
{
  guint32 offset;          /* in the file */
  guint32 size;            /* in the file */
  gboolean packed;         /* one SQSH chunk */
  guint8 *plain;           /* the decoded block */
  gsize plain_size;
} HpiBlock;

typedef struct
{
  char *path;
  guint entry;             /* version 1: index into entries */
  guint32 record_offset;   /* version 1: the file record in the file; version 2: the
                              24-byte entry in the directory block */
  guint32 data_offset;
  guint32 size;            /* decoded */
  guint8 method;
  gboolean chunk_table;    /* version 1: the chunks follow a table of their sizes;
                              version 2: one chunk of the whole file, no table */
  guint32 n_chunks;
  guint32 *chunk_sizes;    /* compressed files: each chunk's stored size */
  guint64 data_end;        /* end of the file's bytes in the archive */
  guint32 name_offset;     /* version 2: in the name block */
  guint32 stored_size;     /* version 2: CompressedSize, 0 for a stored file */
  guint32 date;            /* version 2: time_t */
  guint32 checksum;        /* version 2: four byte-wise sums of the decoded file */
} HpiFile;

struct _TerrainHpiArchive
{
  TerrainDocument parent_instance;

  GBytes *source;
  gsize file_size;
  TerrainLimits limits;

  guint32 version;

  /* Version 1 */
  guint32 directory_end;
  guint32 key;
  guint32 directory_start;
  gboolean obfuscated;
  guint8 key_byte;
  guint8 *directory;       /* [0, directory_end): plain directory bytes */
  GArray *directories;     /* HpiDirectory */
  GArray *entries;         /* HpiEntry */

  /* Version 2 */
  HpiBlock dir_block;
  HpiBlock name_block;
  guint32 data_start;      /* "Data", always 0x20 */
  guint32 last78;          /* 0, or the offset of the 78-byte trailer */
  GArray *directories2;    /* HpiDirectory2 */

  GArray *files;           /* HpiFile */
};

#define HPI_V2_HEADER_SIZE   32
#define HPI_V2_DIR_SIZE      20   /* u32 name, first sub, sub count, first file, file count */
#define HPI_V2_ENTRY_SIZE    24   /* u32 name, start, decompressed, compressed, date, checksum */

/* terrain-hpi-archive.c */
const char *terrain_hpi_name_problem  (const char         *name);
gboolean    terrain_hpi_decode_chunk  (TerrainHpiArchive  *self,
                                       const char         *label,
                                       guint64             position,
                                       guint32             stored,
                                       gsize               expected,
                                       guint8             *out,
                                       GError            **error);

/* terrain-hpi-archive-v2.c */
gboolean    terrain_hpi_archive_parse_v2           (TerrainHpiArchive  *self,
                                                    GError            **error);
guint32     terrain_hpi_v2_checksum                (const guint8       *data,
                                                    gsize               size);
void        terrain_hpi_archive_describe_v2        (TerrainHpiArchive  *self,
                                                    JsonBuilder        *builder);
char       *terrain_hpi_archive_describe_offset_v2 (TerrainHpiArchive  *self,
                                                    gsize               offset);
GBytes     *terrain_hpi_archive_save_v2            (TerrainHpiArchive  *self,
                                                    GError            **error);
void        terrain_hpi_archive_clear_v2           (TerrainHpiArchive  *self);

G_END_DECLS
