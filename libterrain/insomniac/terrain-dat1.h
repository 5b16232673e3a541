/* terrain-dat1.h: Insomniac DAT1 containers
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
 * TERRAIN_DAT1_MAGIC:
 *
 * The DAT1 magic as a little-endian u32: the bytes "1TAD" on disk.
 */
#define TERRAIN_DAT1_MAGIC 0x44415431u

/**
 * TERRAIN_DAT1_HEADER_SIZE:
 *
 * Size of the fixed DAT1 header: magic, asset type, total size, u16 section
 * count, u16 extra-entry count.
 */
#define TERRAIN_DAT1_HEADER_SIZE 16

/**
 * TERRAIN_DAT1_SECTION_ENTRY_SIZE:
 *
 * Size of one section-table entry: u32 tag, u32 offset from the DAT1 start,
 * u32 size.
 */
#define TERRAIN_DAT1_SECTION_ENTRY_SIZE 12

/**
 * TERRAIN_DAT1_EXTRA_ENTRY_SIZE:
 *
 * Size of one extra entry following the section table (two u32 words whose
 * meaning is not known; they are kept as read).
 */
#define TERRAIN_DAT1_EXTRA_ENTRY_SIZE 8

/**
 * TERRAIN_DAT1_ALIGNMENT:
 *
 * Alignment of section data, relative to the DAT1 start, used by writers.
 */
#define TERRAIN_DAT1_ALIGNMENT 16

/**
 * TERRAIN_DAT1_WRAPPER_SIZE:
 *
 * Size of the Sunset Overdrive wrapper that may precede a DAT1: u32 asset
 * type magic, u32 size, 28 further bytes.
 */
#define TERRAIN_DAT1_WRAPPER_SIZE 36

/**
 * TerrainDat1Compression:
 * @TERRAIN_DAT1_COMPRESSION_NONE: the DAT1 is stored as is
 * @TERRAIN_DAT1_COMPRESSION_LZ4: the DAT1 is one raw LZ4 block (no frame,
 *   no size prefix), as in Sunset Overdrive assets
 *
 * How the DAT1 image is stored in the file (field-notes.md, "Insomniac DAT1").
 */
typedef enum
{
  TERRAIN_DAT1_COMPRESSION_NONE,
  TERRAIN_DAT1_COMPRESSION_LZ4,
} TerrainDat1Compression;

/**
 * TerrainDat1WriteMode:
 * @TERRAIN_DAT1_WRITE_STORE: when the DAT1 image is unchanged, return the
 *   source bytes as they were read (the original compressed bytes included);
 *   otherwise write it in the source's form, re-compressing when the source
 *   was compressed
 * @TERRAIN_DAT1_WRITE_RECOMPRESS: always write in the source's form, so a
 *   compressed source is compressed anew even when nothing changed; the
 *   result decompresses to the same DAT1 image
 * @TERRAIN_DAT1_WRITE_UNCOMPRESSED: write the DAT1 image uncompressed,
 *   behind the wrapper when the source had one
 *
 * How [method@Terrain.Dat1.save_to_bytes_full] stores the DAT1 image.
 */
typedef enum
{
  TERRAIN_DAT1_WRITE_STORE,
  TERRAIN_DAT1_WRITE_RECOMPRESS,
  TERRAIN_DAT1_WRITE_UNCOMPRESSED,
} TerrainDat1WriteMode;

#define TERRAIN_TYPE_DAT1 (terrain_dat1_get_type ())

/**
 * TerrainDat1:
 *
 * An Insomniac DAT1 asset (field-notes.md, "Insomniac DAT1"): a 16-byte header
 * (magic "1TAD", asset type, total size, section and extra-entry counts), a
 * table of sections by tag, 8-byte extra entries, a block of NUL-terminated
 * strings, and the section data. Sunset Overdrive assets put a 36-byte
 * wrapper in front and store the DAT1 as one raw LZ4 block.
 *
 * Sections are views of the DAT1 image until they are edited. Writing an
 * unedited asset gives back the bytes read, the original compressed block
 * included; edits change only their sections' bytes (or lay the sections
 * after a resized one out anew, 16-byte aligned), and a compressed asset is
 * compressed again.
 */

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (TerrainDat1, terrain_dat1, TERRAIN, DAT1, TerrainDocument)

/**
 * TerrainDat1Class:
 * @parent_class: the parent class
 * @parse: decodes the asset-specific sections once the container has been
 *   read; sets a %TERRAIN_ERROR and returns %FALSE on a structural problem
 * @get_section_name: returns a static name for a section tag the asset type
 *   knows, or %NULL
 * @describe_section_offset: names the record holding byte @offset of the
 *   section with @tag (offset relative to the section start), or %NULL
 *
 * The base class of DAT1 assets. A subclass per asset type (e.g.
 * [class@Terrain.Model]) decodes its sections; the container itself (header,
 * section table, extra entries, string block, wrapper, compression) is read
 * and written here.
 */
struct _TerrainDat1Class
{
  TerrainDocumentClass parent_class;

  gboolean     (*parse)                   (TerrainDat1          *self,
                                           const TerrainLimits  *limits,
                                           GError              **error);
  const char  *(*get_section_name)        (TerrainDat1          *self,
                                           guint32               tag);
  char        *(*describe_section_offset) (TerrainDat1          *self,
                                           guint32               tag,
                                           gsize                 offset);

  /*< private >*/
  gpointer padding[8];
};

TERRAIN_AVAILABLE_IN_ALL
TerrainDat1            *terrain_dat1_new_from_bytes      (GBytes               *bytes,
                                                          const TerrainLimits  *limits,
                                                          GError              **error);
TERRAIN_AVAILABLE_IN_ALL
guint32                 terrain_dat1_get_asset_type      (TerrainDat1          *self);
TERRAIN_AVAILABLE_IN_ALL
TerrainDat1Compression  terrain_dat1_get_compression     (TerrainDat1          *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean                terrain_dat1_get_wrapper         (TerrainDat1          *self,
                                                          guint32              *magic,
                                                          guint32              *size);
TERRAIN_AVAILABLE_IN_ALL
guint                   terrain_dat1_get_n_sections      (TerrainDat1          *self);
TERRAIN_AVAILABLE_IN_ALL
guint32                 terrain_dat1_get_section_tag     (TerrainDat1          *self,
                                                          guint                 index);
TERRAIN_AVAILABLE_IN_ALL
gboolean                terrain_dat1_has_section         (TerrainDat1          *self,
                                                          guint32               tag);
TERRAIN_AVAILABLE_IN_ALL
gboolean                terrain_dat1_get_section_span    (TerrainDat1          *self,
                                                          guint32               tag,
                                                          gsize                *offset,
                                                          gsize                *size);
TERRAIN_AVAILABLE_IN_ALL
GBytes                 *terrain_dat1_get_section_data    (TerrainDat1          *self,
                                                          guint32               tag);
TERRAIN_AVAILABLE_IN_ALL
gboolean                terrain_dat1_set_section_data    (TerrainDat1          *self,
                                                          guint32               tag,
                                                          GBytes               *data,
                                                          GError              **error);
TERRAIN_AVAILABLE_IN_ALL
const char             *terrain_dat1_get_section_name    (TerrainDat1          *self,
                                                          guint32               tag);
TERRAIN_AVAILABLE_IN_ALL
guint                   terrain_dat1_get_n_extra_entries (TerrainDat1          *self);
TERRAIN_AVAILABLE_IN_ALL
gboolean                terrain_dat1_get_extra_entry     (TerrainDat1          *self,
                                                          guint                 index,
                                                          guint32              *first,
                                                          guint32              *second);
TERRAIN_AVAILABLE_IN_ALL
const char             *terrain_dat1_get_string          (TerrainDat1          *self,
                                                          guint32               offset);
TERRAIN_AVAILABLE_IN_ALL
GBytes                 *terrain_dat1_get_image           (TerrainDat1          *self,
                                                          GError              **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes                 *terrain_dat1_save_to_bytes_full  (TerrainDat1          *self,
                                                          TerrainDat1WriteMode  mode,
                                                          GError              **error);

TERRAIN_AVAILABLE_IN_ALL
GBytes                 *terrain_dat1_build_image         (guint32               asset_type,
                                                          guint                 n_sections,
                                                          const guint32        *tags,
                                                          GBytes * const       *data,
                                                          GBytes               *extra_entries,
                                                          GBytes               *strings,
                                                          GError              **error);
TERRAIN_AVAILABLE_IN_ALL
GBytes                 *terrain_dat1_compress_lz4        (GBytes               *image,
                                                          GError              **error);

G_END_DECLS
