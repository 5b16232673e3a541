/* terrain-format-private.h: the format registry
 *
 * Core knows no format. Each family folder (ta/, atlas/, insomniac/,
 * torque/, and core itself for plain heightmaps) describes its formats in a
 * table of its own, the way gdk-pixbuf loaders describe themselves: name,
 * extensions, a signature check, the loader, and for containers how to read
 * a file inside. It describes its height sources (what
 * [ctor@Terrain.Heightfield.new_from_bytes] reads) the same way.
 * libterrain/terrain-formats.c, above core, lists the families; core's
 * terrain-format.c and terrain-heightfield-io.c only walk that list.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "terrain-document.h"
#include "terrain-heightfield.h"

G_BEGIN_DECLS

typedef TerrainDocument *(*TerrainLoadFunc) (GBytes               *bytes,
                                             const TerrainLimits  *limits,
                                             GError              **error);

/* How strongly data identifies itself as a format: a four-byte magic is
 * decisive; a version word (TNT, SCT) is only a hint that the extension must
 * back up or that is used when nothing else matches. */
typedef enum
{
  TERRAIN_FORMAT_MATCH_NONE,
  TERRAIN_FORMAT_MATCH_WEAK,
  TERRAIN_FORMAT_MATCH_STRONG,
} TerrainFormatMatch;

typedef struct
{
  TerrainFormat format;
  const char *name;                   /* terrain_format_get_name() */
  const char *description;
  const char * const *extensions;     /* lower case, no dot; NULL-terminated */
  /* The signature check, or NULL for formats without one (by extension or
   * --format only). */
  TerrainFormatMatch (*match) (const guint8 *data, gsize size);
  /* The document class files of this format open as, read through
   * terrain_document_new_from_bytes() and the class's `parse`; NULL for
   * formats libterrain cannot open, or that open through @load. */
  GType (*get_type) (void);
  /* For extensions that other files use too (.png, .raw): whether data
   * named @extension is this format's. NULL trusts the extension. */
  gboolean (*fits) (const guint8 *data, gsize size, const char *extension);
  /* Containers (HPI archives): reads the file at @path inside @container.
   * NULL for formats that hold no files. */
  GBytes *(*read_member) (GBytes               *container,
                          const char           *path,
                          const TerrainLimits  *limits,
                          GError              **error);
  /* For formats whose files open as one of several classes (a DAT1 as the
   * asset type's class, a .ter by its version): chooses the class and reads;
   * NULL reads @get_type. */
  TerrainLoadFunc load;
} TerrainFormatInfo;

/* A source of heights for TerrainHeightfield. */
typedef struct
{
  TerrainHeightmapFormat format;
  /* Names accepted by terrain_heightmap_format_from_name(), NULL-terminated. */
  const char * const *names;
  /* Extensions terrain_heightmap_format_detect() takes, NULL-terminated. */
  const char * const *extensions;
  /* A signature that decides on its own (the PNG's), or NULL. */
  gboolean (*match) (const guint8 *data, gsize size);
  /* Reads @bytes with @options already checked (never NULL). */
  TerrainHeightfield *(*read) (GBytes                           *bytes,
                               const TerrainHeightfieldOptions  *options,
                               GError                          **error);
  /* The document format a file of this source opens as when it is named
   * (`terrain info --heightmap-format ter`), or %TERRAIN_FORMAT_UNKNOWN for
   * plain heightmaps (a TerrainHeightmapDocument). */
  TerrainFormat document_format;
} TerrainHeightSourceInfo;

/* What one family folder contributes. */
typedef struct
{
  const char *name;
  const TerrainFormatInfo *formats;
  guint n_formats;
  const TerrainHeightSourceInfo *height_sources;
  guint n_height_sources;
} TerrainFormatFamily;

/* The families, NULL-terminated, in the order detection tries them
 * (libterrain/terrain-formats.c). */
extern const TerrainFormatFamily * const terrain_format_families[];

/* Each family's table, in its own folder. */
extern const TerrainFormatFamily terrain_core_format_family;
extern const TerrainFormatFamily terrain_ta_format_family;
extern const TerrainFormatFamily terrain_atlas_format_family;
extern const TerrainFormatFamily terrain_insomniac_format_family;
extern const TerrainFormatFamily terrain_torque_format_family;

/* STRONG when @data starts with the four bytes @fourcc. */
TerrainFormatMatch terrain_format_match_fourcc (const guint8 *data,
                                                gsize         size,
                                                const char   *fourcc);

/* The registry entry of @format, or NULL. */
const TerrainFormatInfo *terrain_format_get_info (TerrainFormat format);

/* Reads @bytes as @format (its `load`, or a document of its class). */
TerrainDocument *terrain_format_load         (TerrainFormat         format,
                                              GBytes               *bytes,
                                              const TerrainLimits  *limits,
                                              GError              **error);

/* Container formats (HPI archives): whether @format holds files, and reading
 * one of them by its path inside, for terrain_document_load_path(). */
gboolean        terrain_format_is_container  (TerrainFormat         format);
GBytes         *terrain_format_read_member   (TerrainFormat         format,
                                              GBytes               *container,
                                              const char           *path,
                                              const TerrainLimits  *limits,
                                              GError              **error);

G_END_DECLS
