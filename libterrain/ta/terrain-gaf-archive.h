/* terrain-gaf-archive.h: Total Annihilation GAF sprite and animation archives
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <gio/gio.h>

#include "terrain-version.h"
#include "core/terrain-document.h"
#include "core/terrain-image.h"
#include "core/terrain-limits.h"
#include "terrain-palette.h"

G_BEGIN_DECLS

/**
 * TERRAIN_GAF_VERSION:
 *
 * The version word every Total Annihilation GAF starts with
 * (docs/formats/gaf.md, "Header").
 */
#define TERRAIN_GAF_VERSION 0x00010100

/**
 * TERRAIN_GAF_NAME_LENGTH:
 *
 * Size in bytes of an entry's name field, NUL padding included.
 */
#define TERRAIN_GAF_NAME_LENGTH 32

#define TERRAIN_TYPE_GAF_FRAME (terrain_gaf_frame_get_type ())

/**
 * TerrainGafFrame:
 * @width: width of the frame's picture in pixels
 * @height: height in pixels
 * @x_offset: column of the sprite's origin (its anchor) inside the picture;
 *   signed, may lie outside it
 * @y_offset: row of the origin inside the picture
 * @transparency_index: palette index drawn as transparent
 * @compressed: 0 for raw rows, 1 for the run-length rows (docs/formats/gaf.md)
 * @n_subframes: number of layers composing the frame; 0 when the frame
 *   holds its own pixels
 * @unknown2: the header's word at +12, kept as read
 * @data_offset: absolute offset of the pixel data, or of the subframe
 *   pointer table when @n_subframes is not 0
 * @unknown3: the header's word at +20, kept as read
 * @header_offset: absolute offset of this 24-byte frame header
 * @entry_unknown: the second word of the frame's 8-byte pointer record
 *   (the frame's duration in some tools), kept as read; 0 for subframes
 *
 * One frame (or subframe) header of a GAF entry, as read.
 */
typedef struct
{
  guint16 width;
  guint16 height;
  gint16  x_offset;
  gint16  y_offset;
  guint8  transparency_index;
  guint8  compressed;
  guint16 n_subframes;
  guint32 unknown2;
  guint32 data_offset;
  guint32 unknown3;
  guint32 header_offset;
  guint32 entry_unknown;
} TerrainGafFrame;

TERRAIN_AVAILABLE_IN_ALL
GType            terrain_gaf_frame_get_type (void) G_GNUC_CONST;
TERRAIN_AVAILABLE_IN_ALL
TerrainGafFrame *terrain_gaf_frame_copy     (const TerrainGafFrame *frame);
TERRAIN_AVAILABLE_IN_ALL
void             terrain_gaf_frame_free     (TerrainGafFrame       *frame);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerrainGafFrame, terrain_gaf_frame_free)

#define TERRAIN_TYPE_GAF_ARCHIVE (terrain_gaf_archive_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainGafArchive, terrain_gaf_archive, TERRAIN, GAF_ARCHIVE, TerrainDocument)

TERRAIN_AVAILABLE_IN_ALL
TerrainGafArchive *terrain_gaf_archive_new_from_bytes   (GBytes               *bytes,
                                                         const TerrainLimits  *limits,
                                                         GError              **error);
TERRAIN_AVAILABLE_IN_ALL
guint              terrain_gaf_archive_get_n_entries    (TerrainGafArchive    *self);
TERRAIN_AVAILABLE_IN_ALL
const char        *terrain_gaf_archive_get_entry_name   (TerrainGafArchive    *self,
                                                         guint                 entry);
TERRAIN_AVAILABLE_IN_ALL
gboolean           terrain_gaf_archive_find_entry       (TerrainGafArchive    *self,
                                                         const char           *name,
                                                         guint                *entry);
TERRAIN_AVAILABLE_IN_ALL
guint              terrain_gaf_archive_get_n_frames     (TerrainGafArchive    *self,
                                                         guint                 entry);
TERRAIN_AVAILABLE_IN_ALL
const TerrainGafFrame *
                   terrain_gaf_archive_get_frame        (TerrainGafArchive    *self,
                                                         guint                 entry,
                                                         guint                 frame);
TERRAIN_AVAILABLE_IN_ALL
const TerrainGafFrame *
                   terrain_gaf_archive_get_subframe     (TerrainGafArchive    *self,
                                                         guint                 entry,
                                                         guint                 frame,
                                                         guint                 subframe);
TERRAIN_AVAILABLE_IN_ALL
GBytes            *terrain_gaf_archive_decode_frame     (TerrainGafArchive    *self,
                                                         guint                 entry,
                                                         guint                 frame,
                                                         GError              **error);
TERRAIN_AVAILABLE_IN_ALL
TerrainImage      *terrain_gaf_archive_render_frame     (TerrainGafArchive    *self,
                                                         guint                 entry,
                                                         guint                 frame,
                                                         TerrainPalette       *palette,
                                                         GError              **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes            *terrain_gaf_archive_save_to_bytes    (TerrainGafArchive    *self);

G_END_DECLS
