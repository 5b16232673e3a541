/* terrain-dat1-impl-private.h: what the files of TerrainDat1 share
 * (terrain-dat1.c: detection, LZ4, reading, accessors; -write.c: the
 * three-path writer and new images; -check.c: validation, description,
 * offsets): the header layout of field-notes.md, the section table and the
 * private instance data.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "terrain-dat1.h"
#include "terrain-dat1-private.h"

G_BEGIN_DECLS


/* field-notes.md, "Insomniac DAT1". */
#define OFF_MAGIC          0
#define OFF_ASSET_TYPE     4
#define OFF_TOTAL_SIZE     8
#define OFF_SECTION_COUNT  12
#define OFF_EXTRA_COUNT    14

#define WRAPPER_TAIL_SIZE  (TERRAIN_DAT1_WRAPPER_SIZE - 8)

typedef struct
{
  guint32       tag;
  guint32       offset;       /* in the DAT1 image as read */
  guint32       size;         /* as read */
  guint32       entry_offset; /* of its section-table entry */
  const guint8 *data;         /* current contents: into the image, or @owned */
  gsize         data_size;
  guint8       *owned;        /* copy made by the first edit */
  char         *reader_name;  /* section name for errors in a compressed image */
} Dat1Section;

typedef struct
{
  GBytes                 *image;
  const guint8           *image_data;
  gsize                   image_size;
  gsize                   body_offset;   /* DAT1 or LZ4 block start in the file */
  gsize                   body_size;

  gboolean                has_wrapper;
  guint32                 wrapper_magic;
  guint32                 wrapper_size;
  guint8                  wrapper_tail[WRAPPER_TAIL_SIZE];
  TerrainDat1Compression  compression;

  guint32                 asset_type;
  guint32                 declared_size;
  guint16                 n_sections;
  guint16                 n_extra;
  Dat1Section            *sections;      /* in section-table order */
  gsize                   extra_offset;
  gsize                   strings_offset;
  gsize                   strings_end;
} TerrainDat1Private;

/* terrain-dat1.c: the private data of @self; the section indices in file
 * order into @order (n_sections of them). */
TerrainDat1Private *dat1_get_private    (TerrainDat1        *self);
void                dat1_sort_by_offset (TerrainDat1Private *priv,
                                         guint              *order);

/* terrain-dat1-write.c: the save_to_bytes vfunc. */
GBytes             *dat1_save_to_bytes  (TerrainDocument    *document,
                                         GError            **error);

/* terrain-dat1-check.c: the describe_offset vfunc; the description of
 * @self from its parent's @base; @self's findings added to @issues. */
char               *dat1_describe_offset (TerrainDocument   *document,
                                          gsize              offset);
JsonNode           *dat1_describe        (TerrainDat1       *self,
                                          JsonNode          *base);
void                dat1_add_issues      (TerrainDat1       *self,
                                          GPtrArray         *issues);

static inline const char *
dat1_image_name (TerrainDat1Private *priv,
                 const char         *plain,
                 const char         *decompressed)
{
  return priv->compression == TERRAIN_DAT1_COMPRESSION_LZ4 ? decompressed : plain;
}

/* TRUE once a section was edited (it then has its own copy). */
static inline gboolean
dat1_section_changed (const Dat1Section *section)
{
  return section->owned != NULL;
}

G_END_DECLS
