/* terrain-atlas-builder-texture-private.h: what the texture builder's files
 * share (terrain-atlas-builder-texture.c: planning, sampled tiles and the
 * texture TOCs; -stream.c: a JPEG or PNG texture streamed a row at a time):
 * the plan of one texture tree and its source.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-atlas-builder-private.h"

G_BEGIN_DECLS

/* Box taps a side of one tile pixel's footprint at the most. */
#define MAX_TAPS 8

typedef enum
{
  TEXTURE_FROM_SOURCE,
  TEXTURE_OPACITY_FROM_HEIGHTS,
  TEXTURE_LIGHT_FROM_HEIGHTS,
} TextureKind;

/* A picture: one image in memory, or a grid of tile files. */
typedef struct
{
  guint width;
  guint height;
  TerrainImage *image;       /* RGBA8 */
  const char *pattern;
  guint columns;
  guint rows;
  guint tile_width;
  guint tile_height;
  GFile *streamed;           /* a JPEG or PNG file, decoded a row at a time */
} TextureSource;

typedef struct
{
  TextureKind kind;
  TextureSource source;
  guint toc;                 /* slot in state->tocs */
  guint depth;
  guint tile;
  TerrainAtlasTextureFormat format;
} TexturePlan;

guint    texture_depth_for          (guint                        pixels,
                                     guint                        tile);
gint     texture_plan_streamed_file (TexturePlan                 *plan,
                                     const BuildTextureSettings  *tex,
                                     GCancellable                *cancellable,
                                     GError                     **error);
gboolean texture_stream_rows        (BuildState                  *state,
                                     const TexturePlan           *plan,
                                     TerrainAtlasToc             *toc,
                                     guint64                     *done,
                                     guint64                      total,
                                     GError                     **error);

G_END_DECLS
