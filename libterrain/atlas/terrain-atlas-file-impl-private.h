/* terrain-atlas-file-impl-private.h: the internals shared by the files
 * that implement TerrainAtlasFile
 *
 * terrain-atlas-file.c        the type, reading, TOCs
 * terrain-atlas-file-chunks.c chunk access, placing chunks, undo support
 * terrain-atlas-file-write.c  writing, compacting, converting
 * terrain-atlas-file-render.c pictures, meshes and heights
 * terrain-atlas-file-check.c  description and validation
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-atlas-file.h"
#include "terrain-atlas-file-private.h"
#include "terrain-atlas-private.h"
#include "core/terrain-document-private.h"

G_BEGIN_DECLS

/* ATLS, then the TOC count (§0). */
#define FILE_HEADER_SIZE 5

/* One referenced frame of the source file, for checks and offset names. */
typedef struct
{
  guint32 offset;
  guint32 length;
  guint toc;
  guint stub;
} FrameRef;

struct _TerrainAtlasFile
{
  TerrainDocument parent_instance;

  GBytes *source;            /* NULL for a file made in memory */
  gsize source_size;
  gsize toc_region_size;     /* as read; computed for files made in memory */
  TerrainLimits limits;

  GListStore *tocs;
  GArray *frames;            /* FrameRef of the source, sorted by offset */

  /* Frames appended by edits, in order, after the source bytes. */
  GPtrArray *appended;
  gsize appended_size;
};

/* The document's vfuncs, each in the file of its concern. */
GBytes *atlas_file_save_to_bytes (TerrainDocument  *document,
                                  GError          **error);
GPtrArray *atlas_file_validate (TerrainDocument *document);
JsonNode *atlas_file_describe (TerrainDocument *document);
char *atlas_file_describe_offset (TerrainDocument *document,
                                  gsize            offset);
TerrainImage *atlas_file_render_image (TerrainDocument  *document,
                                       TerrainRenderOptions *options,
                                       GError          **error);
TerrainImage *atlas_file_export_heights (TerrainDocument  *document,
                                         GError          **error);

/* Helpers of terrain-atlas-file.c and -chunks.c the others call. */
TerrainAtlasToc *atlas_file_get_toc (TerrainAtlasFile *self,
                                     guint             index);
guint atlas_file_n_tocs (TerrainAtlasFile *self);
char *atlas_file_describe_stub (TerrainAtlasFile *self,
                                guint             toc_index,
                                guint             stub_index);
gboolean atlas_file_stub_has_chunk (const TerrainAtlasStubData *data);
gboolean atlas_file_check_stub (TerrainAtlasFile  *self,
                                guint              toc,
                                guint              stub,
                                GError           **error);
gboolean atlas_file_check_kind (TerrainAtlasFile     *self,
                                guint                 toc,
                                TerrainAtlasTocKind   kind,
                                GError              **error);
gsize atlas_file_compute_toc_region_size (TerrainAtlasFile *self);

/* terrain-atlas-file-render.c: a texture tile turned north up (§4), or a
 * north-up map turned back into a tile (the turn is its own inverse). */
TerrainImage *atlas_north_up_from_tile (TerrainImage  *tile,
                                        GError       **error);

/* terrain-atlas-file-textures.c: merging four quadrant texture trees
 * (mergeTQT), for Atlas texture TOCs and TQT files alike. */
typedef struct
{
  const char *name;
  guint west, north;   /* 1: the quadrant's nodes move by 2^level in x, y */
} AtlasQuadrant;

extern const AtlasQuadrant atlas_quadrants[4];

TerrainImage *atlas_merge_root_tiles (TerrainImage  *roots[4],
                                      GError       **error);
gboolean      atlas_file_add_merged_textures (TerrainAtlasFile  *out,
                                              TerrainAtlasFile  *in[4],
                                              guint              quality,
                                              GError           **error);

G_END_DECLS
