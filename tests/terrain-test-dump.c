/* terrain-test-dump.c: the unit tests' fixtures as fuzzing seeds
 *
 * Linked into every unit test with `-Wl,--wrap=` for each parser entry point
 * (tests/meson.build). When TERRAIN_DUMP_FIXTURES names a folder, every
 * buffer a test hands to a parser (the fixtures it builds in code, the
 * corrupted variants it derives from them, the images inside containers) is
 * written to DIR/<harness>/<sha1>, the layout libFuzzer uses for a corpus:
 * `TERRAIN_DUMP_FIXTURES=seeds meson test -C build --suite unit` gives one
 * seed folder per harness in tests/fuzz/ without a single copied file.
 * Unset, each wrapper only forwards to the real function.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "libterrain.h"
#include "terrain-test-util.h"

/* Seeds above this size only slow the fuzzer down; past the first fixtures
 * of a harness, a test's loops of truncated and bit-flipped variants add
 * little that the fuzzer would not find itself. */
#define DUMP_MAX_SIZE (256 * 1024)
#define DUMP_MAX_PER_HARNESS 128

static void
dump_bytes (const char *harness,
            GBytes     *bytes)
{
  static GHashTable *counts;
  const char *root = g_getenv ("TERRAIN_DUMP_FIXTURES");
  g_autofree char *dir = NULL;
  g_autofree char *checksum = NULL;
  g_autofree char *path = NULL;
  gsize size = 0;
  guint count;
  const guint8 *data;
  int saved_errno = errno;

  if (root == NULL || root[0] == '\0' || bytes == NULL)
    return;
  data = g_bytes_get_data (bytes, &size);
  if (size == 0 || size > DUMP_MAX_SIZE)
    return;
  if (counts == NULL)
    counts = g_hash_table_new (g_str_hash, g_str_equal);
  count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, harness));
  if (count >= DUMP_MAX_PER_HARNESS)
    return;
  g_hash_table_insert (counts, (gpointer) harness, GUINT_TO_POINTER (count + 1));

  dir = g_build_filename (root, harness, NULL);
  checksum = g_compute_checksum_for_data (G_CHECKSUM_SHA1, data, size);
  path = g_build_filename (dir, checksum, NULL);
  if (g_mkdir_with_parents (dir, 0755) != 0 ||
      (!g_file_test (path, G_FILE_TEST_EXISTS) &&
       !g_file_set_contents (path, (const char *) data, (gssize) size, NULL)))
    g_printerr ("# cannot write the fixture %s\n", path);

  /* The test may look at errno after the call it made. */
  errno = saved_errno;
}

#define DUMP_DOCUMENT(Type, function, harness)                                  \
  Type *__real_##function (GBytes *bytes, const TerrainLimits *limits,          \
                           GError **error);                                     \
  Type *__wrap_##function (GBytes *bytes, const TerrainLimits *limits,          \
                           GError **error);                                     \
  Type *                                                                        \
  __wrap_##function (GBytes              *bytes,                                \
                     const TerrainLimits *limits,                               \
                     GError             **error)                                \
  {                                                                             \
    dump_bytes (harness, bytes);                                                \
    return __real_##function (bytes, limits, error);                            \
  }

DUMP_DOCUMENT (TerrainImage, terrain_dds_decode, "dds")
DUMP_DOCUMENT (TerrainGafArchive, terrain_gaf_archive_new_from_bytes, "gaf")

/* Every document format's constructor goes through this one; its harness is
 * the name of the class's format (a TerrainModel is a DAT1): "tnt", "chu", "dat1",
 * "heightmap" (plain heightmaps share the importer's harness: fuzz-heightmap.c
 * reads every input both ways)... */
TerrainDocument *__real_terrain_document_new_from_bytes (GType                 type,
                                                         GBytes               *bytes,
                                                         const TerrainLimits  *limits,
                                                         GError              **error);
TerrainDocument *__wrap_terrain_document_new_from_bytes (GType                 type,
                                                         GBytes               *bytes,
                                                         const TerrainLimits  *limits,
                                                         GError              **error);

TerrainDocument *
__wrap_terrain_document_new_from_bytes (GType                 type,
                                        GBytes               *bytes,
                                        const TerrainLimits  *limits,
                                        GError              **error)
{
  TerrainDocumentClass *klass = g_type_class_ref (type);

  dump_bytes (terrain_format_get_name (klass->format), bytes);
  g_type_class_unref (klass);
  return __real_terrain_document_new_from_bytes (type, bytes, limits, error);
}

TerrainImage *__real_terrain_image_load_png_bytes (GBytes  *bytes,
                                                   GError **error);
TerrainImage *__wrap_terrain_image_load_png_bytes (GBytes  *bytes,
                                                   GError **error);

TerrainImage *
__wrap_terrain_image_load_png_bytes (GBytes  *bytes,
                                     GError **error)
{
  dump_bytes ("png", bytes);
  return __real_terrain_image_load_png_bytes (bytes, error);
}

TerrainPalette *__real_terrain_palette_new_from_bytes (GBytes  *bytes,
                                                       GError **error);
TerrainPalette *__wrap_terrain_palette_new_from_bytes (GBytes  *bytes,
                                                       GError **error);

TerrainPalette *
__wrap_terrain_palette_new_from_bytes (GBytes  *bytes,
                                       GError **error)
{
  dump_bytes ("palette", bytes);
  return __real_terrain_palette_new_from_bytes (bytes, error);
}

TerrainHeightfield *__real_terrain_heightfield_new_from_bytes (GBytes                           *bytes,
                                                             const char                       *filename,
                                                             const TerrainHeightfieldOptions  *options,
                                                             GError                          **error);
TerrainHeightfield *__wrap_terrain_heightfield_new_from_bytes (GBytes                           *bytes,
                                                             const char                       *filename,
                                                             const TerrainHeightfieldOptions  *options,
                                                             GError                          **error);

TerrainHeightfield *
__wrap_terrain_heightfield_new_from_bytes (GBytes                           *bytes,
                                           const char                       *filename,
                                           const TerrainHeightfieldOptions  *options,
                                           GError                          **error)
{
  dump_bytes ("heightmap", bytes);
  return __real_terrain_heightfield_new_from_bytes (bytes, filename, options, error);
}

static void
dump_texture (guint8  format,
              GBytes *data)
{
  switch (format)
    {
    case TERRAIN_ATLAS_TEXTURE_JPEG:
      dump_bytes ("jpeg", data);
      break;
    case TERRAIN_ATLAS_TEXTURE_PNG:
      dump_bytes ("png", data);
      break;
    case TERRAIN_ATLAS_TEXTURE_DDS:
      dump_bytes ("dds", data);
      break;
    default:
      break;
    }
}

/* Every texture, whether a test builds it or a container's reader splits it
 * out, by its encoding: JPEG has no other entry point. Textures the library
 * encodes itself are created inside terrain-atlas-texture.c, out of reach of
 * --wrap, so decoding dumps them too. */
TerrainAtlasTexture *__real_terrain_atlas_texture_new (guint8  format,
                                                       GBytes *data);
TerrainAtlasTexture *__wrap_terrain_atlas_texture_new (guint8  format,
                                                       GBytes *data);

TerrainAtlasTexture *
__wrap_terrain_atlas_texture_new (guint8  format,
                                  GBytes *data)
{
  dump_texture (format, data);
  return __real_terrain_atlas_texture_new (format, data);
}

TerrainImage *__real_terrain_atlas_texture_decode (TerrainAtlasTexture       *self,
                                                   TerrainAtlasChannelOrder   order,
                                                   const TerrainLimits       *limits,
                                                   GError                   **error);
TerrainImage *__wrap_terrain_atlas_texture_decode (TerrainAtlasTexture       *self,
                                                   TerrainAtlasChannelOrder   order,
                                                   const TerrainLimits       *limits,
                                                   GError                   **error);

TerrainImage *
__wrap_terrain_atlas_texture_decode (TerrainAtlasTexture       *self,
                                     TerrainAtlasChannelOrder   order,
                                     const TerrainLimits       *limits,
                                     GError                   **error)
{
  dump_texture (terrain_atlas_texture_get_format (self), terrain_atlas_texture_get_data (self));
  return __real_terrain_atlas_texture_decode (self, order, limits, error);
}

/* A seed a test builds itself for a harness whose input is no single file
 * handed to a parser (tests/fuzz/fuzz-tiles.c, fuzz-builder-options.c). */
void
terrain_test_dump_seed (const char *harness,
                        GBytes     *bytes)
{
  dump_bytes (harness, bytes);
}
