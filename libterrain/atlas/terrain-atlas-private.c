/* terrain-atlas-private.c: helpers shared by the Atlas classes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "terrain-atlas-private.h"
#include "core/terrain-error.h"

guint32
terrain_atlas_kind_head (TerrainAtlasTocKind kind)
{
  switch (kind)
    {
    case TERRAIN_ATLAS_TOC_GEOMETRY:
      return ATLAS_GEOM_HEAD;
    case TERRAIN_ATLAS_TOC_TEXTURE:
      return ATLAS_TEX_HEAD;
    case TERRAIN_ATLAS_TOC_CONFIG:
    default:
      return ATLAS_CONFIG_HEAD;
    }
}

guint32
terrain_atlas_kind_tail (TerrainAtlasTocKind kind)
{
  switch (kind)
    {
    case TERRAIN_ATLAS_TOC_GEOMETRY:
      return ATLAS_GEOM_TAIL;
    case TERRAIN_ATLAS_TOC_TEXTURE:
      return ATLAS_TEX_TAIL;
    case TERRAIN_ATLAS_TOC_CONFIG:
    default:
      return ATLAS_CONFIG_TAIL;
    }
}

/* Wraps a resource body in its frame (§2): ATSP, bodySize, typeHead, body,
 * typeTail. */
GBytes *
terrain_atlas_frame_new (TerrainAtlasTocKind   kind,
                         GBytes               *body,
                         GError              **error)
{
  TerrainWriter writer;
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (body, &size);

  if (size > G_MAXUINT32 - ATLAS_FRAME_OVERHEAD)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Atlas chunk frame: a body of %" G_GSIZE_FORMAT " bytes does not fit "
                   "a 32-bit stub length", size);
      return NULL;
    }

  terrain_writer_init (&writer, size + ATLAS_FRAME_OVERHEAD);
  terrain_writer_set_section (&writer, "Atlas chunk frame");
  terrain_writer_put_u32 (&writer, ATLAS_FRAME_MAGIC);
  terrain_writer_put_u32 (&writer, (guint32) size);
  terrain_writer_put_u32 (&writer, terrain_atlas_kind_head (kind));
  terrain_writer_put_bytes (&writer, data, size);
  terrain_writer_put_u32 (&writer, terrain_atlas_kind_tail (kind));
  return terrain_writer_finish (&writer, error);
}

gboolean
terrain_atlas_toc_kind_from_tag (const guint8        *tag,
                                 gsize                length,
                                 TerrainAtlasTocKind *kind)
{
  static const struct { const char *tag; TerrainAtlasTocKind kind; } tags[] = {
    { "Geom", TERRAIN_ATLAS_TOC_GEOMETRY },
    { "Tex", TERRAIN_ATLAS_TOC_TEXTURE },
    { "Config", TERRAIN_ATLAS_TOC_CONFIG },
  };

  for (guint i = 0; i < G_N_ELEMENTS (tags); i++)
    if (length == strlen (tags[i].tag) && memcmp (tag, tags[i].tag, length) == 0)
      {
        *kind = tags[i].kind;
        return TRUE;
      }
  return FALSE;
}

