/* terrain-atlas-private.h: internals shared by the Atlas classes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

#include "core/terrain-issue-private.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-writer-private.h"
#include "terrain-atlas-geometry.h"
#include "terrain-atlas-texture.h"
#include "terrain-atlas-toc.h"

G_BEGIN_DECLS

/* atlas-chu-tqt.md §0 and §2: file magic and frame markers, as the U32
 * values a little-endian read of the four bytes gives. */
#define ATLAS_MAGIC            0x534C5441u   /* "ATLS" */
#define ATLAS_FRAME_MAGIC      0x50535441u   /* "ATSP" */
#define ATLAS_GEOM_HEAD        0x68636761u   /* "agch" */
#define ATLAS_GEOM_TAIL        0x74636761u   /* "agct" */
#define ATLAS_TEX_HEAD         0x48786554u   /* "TexH" */
#define ATLAS_TEX_TAIL         0x54786554u   /* "TexT" */
#define ATLAS_CONFIG_HEAD      0x48676643u   /* "CfgH" */
#define ATLAS_CONFIG_TAIL      0x54676643u   /* "CfgT" */

/* §2: ATSP, bodySize and typeHead before the body, typeTail after it. */
#define ATLAS_FRAME_HEAD_SIZE  12
#define ATLAS_FRAME_OVERHEAD   16

/* §1a: the final byte of a version 101+ geometry stub. */
#define ATLAS_STUB_SENTINEL    0xD0

/* §1: TGEA refuses trees of 16 levels or more. */
#define ATLAS_MAX_TREE_DEPTH   15

/* §1c and field-notes.md: the two Config stub name widths. */
#define ATLAS_NAME_WIDTH_SHORT 8
#define ATLAS_NAME_WIDTH_LONG  128


/* One stub as serialised, plus the frame it refers to when that frame is
 * not in the source bytes (appended by an edit, or built in memory). Values
 * read from a file keep their exact bits. */
typedef struct
{
  guint32 offset;
  guint32 length;
  guint32 generation;
  gfloat position[2];       /* geometry, version < 101 */
  TerrainAtlasBox bounds;   /* geometry, version >= 101 */
  guint8 *name;             /* config: name_width bytes */
  GBytes *frame;            /* complete ATSP frame, or NULL: in the source */
} TerrainAtlasStubData;

TerrainAtlasStubData *terrain_atlas_toc_get_stub_data      (TerrainAtlasToc     *toc,
                                                            guint                index);
gsize                 terrain_atlas_toc_get_stub_size      (TerrainAtlasToc     *toc);
gsize                 terrain_atlas_toc_get_serialized_size (TerrainAtlasToc    *toc);
void                  terrain_atlas_toc_serialize          (TerrainAtlasToc     *toc,
                                                            TerrainWriter       *writer,
                                                            const guint32       *spans);
TerrainAtlasToc      *terrain_atlas_toc_read               (TerrainReader       *reader,
                                                            guint                index,
                                                            guint                name_width,
                                                            const TerrainLimits *limits,
                                                            GError             **error);
void                  terrain_atlas_toc_set_file_offset    (TerrainAtlasToc     *toc,
                                                            gsize                offset);
void                  terrain_atlas_toc_set_owner          (TerrainAtlasToc     *toc,
                                                            gpointer             owner,
                                                            guint                index);
gpointer              terrain_atlas_toc_get_owner          (TerrainAtlasToc     *toc);
void                  terrain_atlas_toc_stub_changed       (TerrainAtlasToc     *toc,
                                                            guint                index);
gboolean              terrain_atlas_toc_kind_from_tag      (const guint8        *tag,
                                                            gsize                length,
                                                            TerrainAtlasTocKind *kind);

TerrainAtlasStub     *terrain_atlas_stub_new               (TerrainAtlasToc     *toc,
                                                            guint                index);

guint32               terrain_atlas_kind_head              (TerrainAtlasTocKind  kind);
guint32               terrain_atlas_kind_tail              (TerrainAtlasTocKind  kind);
GBytes               *terrain_atlas_frame_new              (TerrainAtlasTocKind  kind,
                                                            GBytes              *body,
                                                            GError             **error);


/* A JPEG stream decoded a row at a time as RGBA8 (alpha 255), in the
 * memory of a row and a 64 KiB read buffer: the same pixels
 * terrain_atlas_texture_decode () gives (terrain-atlas-texture.c). */
typedef struct _TerrainJpegRows TerrainJpegRows;

TerrainJpegRows *terrain_jpeg_rows_new    (GInputStream         *stream,
                                           const TerrainLimits  *limits,
                                           guint                *width,
                                           guint                *height,
                                           GError              **error);
const guint8    *terrain_jpeg_rows_next   (TerrainJpegRows      *rows,
                                           GError              **error);
void             terrain_jpeg_rows_free   (TerrainJpegRows      *rows);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerrainJpegRows, terrain_jpeg_rows_free)

/* A JPEG texture chunk encoded straight from RGB rows (3 bytes a pixel,
 * @stride bytes apart): the bytes terrain_atlas_texture_new_from_image ()
 * gives for the same pixels with alpha 255. */
TerrainAtlasTexture *terrain_atlas_texture_new_jpeg_rgb (const guint8              *rgb,
                                                         guint                      width,
                                                         guint                      height,
                                                         gsize                      stride,
                                                         guint                      quality,
                                                         TerrainAtlasChannelOrder   order,
                                                         GError                   **error);

G_END_DECLS
