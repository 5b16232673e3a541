/* terrain-ter7-file.c: Torque3D terrain (.ter TerrainFile version 7)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-ter7-file.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-relief-private.h"
#include "terrain-ter-common-private.h"

#define TER7_MAX_ISSUES 20

/* 11.5 fixed point: metres = value / 32 (terrFile.h, fixedToFloat()). */
#define TER7_UNITS_PER_METRE 32.0

/* A name longer than this cannot be written: Stream::_write(String) stores
 * a U16 length after the 255 marker. */
#define TER7_MAX_NAME 0xFFFF

#define N_SECTIONS (TERRAIN_TER7_SECTION_TRAILING + 1)

struct _TerrainTer7File
{
  TerrainDocument parent_instance;

  GBytes *source;
  const guint8 *data;
  gsize size_bytes;

  guint32 size;                 /* samples on a side */
  TerrainTerSections sections;

  GPtrArray *names;             /* char *, one per material */
  gboolean names_edited;        /* the names block is rewritten on save */

  guint16 *heights;             /* copy made by the first height edit */
  guint8 *layers;               /* copy made by the first layer edit */
};

/**
 * TerrainTer7File:
 *
 * A Torque3D terrain (`.ter`, `TerrainFile` version 7, as the MIT-licensed
 * Torque3D engine reads and writes it; docs/formats/torque3d-ter.md): a U8
 * version (7), a U32 side N, N × N U16 heights in 11.5 fixed point (metres
 * = value / 32), N × N U8 layer indices (the material at each sample,
 * %TERRAIN_TER7_EMPTY_LAYER for a hole), then a U32 material count and
 * each material's internal name.
 *
 * Sample (x, y) lies at world (x, y) × squareSize from the block's origin,
 * y growing north; the block covers N squares a side, its last row and
 * column of squares reaching back to the first samples (the engine reads
 * heights modulo N). Blocks are read in place from the source bytes; an
 * unedited file writes back byte for byte, and an edit rewrites only the
 * block it touches (heights, layer map, or the material names).
 */
G_DEFINE_FINAL_TYPE (TerrainTer7File, terrain_ter7_file, TERRAIN_TYPE_DOCUMENT)

static const char * const section_names[N_SECTIONS] = {
  "version",
  "size",
  "heights",
  "layer map",
  "material names",
  "trailing bytes",
};

static void
terrain_ter7_file_finalize (GObject *object)
{
  TerrainTer7File *self = TERRAIN_TER7_FILE (object);

  g_clear_pointer (&self->source, g_bytes_unref);
  g_clear_pointer (&self->names, g_ptr_array_unref);
  g_clear_pointer (&self->heights, g_free);
  g_clear_pointer (&self->layers, g_free);

  G_OBJECT_CLASS (terrain_ter7_file_parent_class)->finalize (object);
}

static void
mark (TerrainTer7File    *self,
      TerrainTer7Section  section,
      gsize               offset,
      gsize               size)
{
  terrain_ter_sections_mark (&self->sections, section, offset, size);
}

static gsize
n_samples (TerrainTer7File *self)
{
  return (gsize) self->size * self->size;
}

/* The heights block as read. */
static const guint8 *
stored_heights (TerrainTer7File *self)
{
  return self->data + self->sections.offsets[TERRAIN_TER7_SECTION_HEIGHTS];
}

static gboolean
terrain_ter7_file_parse (TerrainDocument      *document,
                         GBytes               *bytes,
                         const TerrainLimits  *limits,
                         GError              **error)
{
  TerrainTer7File *self = TERRAIN_TER7_FILE (document);
  TerrainReader reader;
  guint8 version;
  guint32 count;
  gsize at, samples;

  self->source = g_bytes_ref (bytes);
  self->data = g_bytes_get_data (bytes, &self->size_bytes);
  terrain_reader_init (&reader, self->source, "TER7 header");

  if (!terrain_reader_read_u8 (&reader, &version, error))
    return FALSE;
  mark (self, TERRAIN_TER7_SECTION_VERSION, 0, 1);
  if (version != TERRAIN_TER7_VERSION)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNSUPPORTED_VERSION,
                   "TER7 header: version %u at byte offset 0 is not 7 (versions 1 to 3 are "
                   "legacy Torque terrain, TerrainTerFile)", version);
      return FALSE;
    }

  if (!terrain_reader_read_u32 (&reader, &self->size, error))
    return FALSE;
  mark (self, TERRAIN_TER7_SECTION_SIZE, 1, 4);
  if (self->size == 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TER7 header: size 0 at byte offset 1: a terrain has at least one sample");
      return FALSE;
    }
  if (!terrain_limits_check_count (limits, self->size,
                                   (limits != NULL ? limits : terrain_limits_get_default ())->max_cells_per_side,
                                   "side", "TER7 header", 1, error))
    return FALSE;
  samples = n_samples (self);
  /* Both maps must be there before anything is read (3 bytes a sample). */
  if (terrain_reader_remaining (&reader) / 3 < samples)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "TER7 header: size %u at byte offset 1 needs %" G_GSIZE_FORMAT " bytes of "
                   "heights and layer map, but the %" G_GSIZE_FORMAT "-byte file has %"
                   G_GSIZE_FORMAT " after the header", self->size, 3 * samples, self->size_bytes,
                   terrain_reader_remaining (&reader));
      return FALSE;
    }

  at = terrain_reader_tell (&reader);
  reader.section = "TER7 heights";
  if (!terrain_reader_skip (&reader, 2 * samples, error))
    return FALSE;
  mark (self, TERRAIN_TER7_SECTION_HEIGHTS, at, 2 * samples);

  at = terrain_reader_tell (&reader);
  reader.section = "TER7 layer map";
  if (!terrain_reader_skip (&reader, samples, error))
    return FALSE;
  mark (self, TERRAIN_TER7_SECTION_LAYER_MAP, at, samples);

  at = terrain_reader_tell (&reader);
  reader.section = "TER7 material names";
  if (!terrain_reader_read_u32 (&reader, &count, error))
    return FALSE;
  /* Each name takes at least its length byte. */
  if (count > terrain_reader_remaining (&reader))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "TER7 material names: count %u at byte offset %" G_GSIZE_FORMAT " needs at "
                   "least %u bytes, but %" G_GSIZE_FORMAT " remain", count, at, count,
                   terrain_reader_remaining (&reader));
      return FALSE;
    }
  if (!terrain_limits_check_alloc (limits, count, sizeof (gpointer), "material",
                                   "TER7 material names", (goffset) at, error))
    return FALSE;

  for (guint32 i = 0; i < count; i++)
    {
      gsize name_at = terrain_reader_tell (&reader);
      const guint8 *name;
      guint8 length8;
      guint16 length;

      if (!terrain_reader_read_u8 (&reader, &length8, error))
        return FALSE;
      length = length8;
      if (length8 == 255 && !terrain_reader_read_u16 (&reader, &length, error))
        return FALSE;
      if (!terrain_reader_read_bytes (&reader, length, &name, error))
        {
          g_prefix_error (error, "material %u (length at byte offset %" G_GSIZE_FORMAT "): ",
                          i, name_at);
          return FALSE;
        }
      g_ptr_array_add (self->names, g_strndup ((const char *) name, length));
    }
  mark (self, TERRAIN_TER7_SECTION_MATERIAL_NAMES, at, terrain_reader_tell (&reader) - at);

  if (terrain_reader_remaining (&reader) > 0)
    mark (self, TERRAIN_TER7_SECTION_TRAILING, terrain_reader_tell (&reader),
          terrain_reader_remaining (&reader));

  return TRUE;
}

static TerrainTer7File *
new_from_bytes (GBytes               *bytes,
                const TerrainLimits  *limits,
                GError              **error)
{
  return TERRAIN_TER7_FILE (terrain_document_new_from_bytes (TERRAIN_TYPE_TER7_FILE, bytes, limits,
                                                             error));
}

/**
 * terrain_ter7_file_new_from_bytes:
 * @bytes: the file's contents
 * @limits: (nullable): allocation limits: the side is checked against
 *   `max_cells_per_side`, the material count against `max_allocation`
 * @error: return location for a #GError
 *
 * Reads a Torque3D terrain.
 *
 * Returns: (transfer full) (nullable): the terrain, or %NULL with
 *   %TERRAIN_ERROR_UNSUPPORTED_VERSION for a version other than 7,
 *   %TERRAIN_ERROR_INVALID_VALUE for a side of 0,
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED for a side past the limits, or
 *   %TERRAIN_ERROR_TRUNCATED when a block runs past the end
 */
TerrainTer7File *
terrain_ter7_file_new_from_bytes (GBytes               *bytes,
                                  const TerrainLimits  *limits,
                                  GError              **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);

  return new_from_bytes (bytes, limits, error);
}

static gboolean
is_pow2 (guint n)
{
  return n > 0 && (n & (n - 1)) == 0;
}

static guint
next_pow2 (guint n)
{
  guint p = 1;

  while (p < n)
    p <<= 1;
  return p;
}

static void
put_name (guint8     **p,
          const char  *name)
{
  gsize length = strlen (name);

  /* Stream::_write(String): a U8 length below 255, else 255 and a U16. */
  if (length < 255)
    *(*p)++ = (guint8) length;
  else
    {
      *(*p)++ = 255;
      terrain_put_le16 (*p, (guint16) length);
      *p += 2;
    }
  memcpy (*p, name, length);
  *p += length;
}

static gsize
name_size (const char *name)
{
  gsize length = strlen (name);

  return (length < 255 ? 1 : 3) + length;
}

static gboolean
check_name (const char  *name,
            GError     **error)
{
  if (strlen (name) > TER7_MAX_NAME)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TER7 material names: a name of %" G_GSIZE_FORMAT " bytes is longer than "
                   "the %u a U16 length holds", strlen (name), TER7_MAX_NAME);
      return FALSE;
    }
  return TRUE;
}

/**
 * terrain_ter7_file_new_from_heightfield:
 * @field: the heights, in metres, row 0 the north edge
 * @offset: metres at stored height 0: the z to place the TerrainBlock at
 * @materials: (nullable) (array zero-terminated=1): material internal names;
 *   every sample gets layer 0; %NULL or empty for none (the engine then
 *   draws its warning material)
 * @error: return location for a #GError
 *
 * Makes a Torque3D terrain from a heightfield, for moving terrain between
 * TGEA Atlas files and Torque3D. A terrain's side is a power of two N. A
 * field of (N+1) × (N+1) samples, the shape chunked-LOD trees and
 * [method@Terrain.Ter7File.to_heightfield] use, gives an N-sample terrain:
 * its north row and east column are not stored, since the engine draws the
 * last squares up to the first samples again. Any other field is extended
 * to the next power of two by repeating its last (south) row and (east)
 * column, as %TERRAIN_HEIGHTFIELD_FIT_PAD does; no sample is lost. Heights
 * are stored as round((metres − @offset) × 32).
 *
 * Returns: (transfer full) (nullable): the new terrain (not yet saved), or
 *   %NULL with %TERRAIN_ERROR_OUT_OF_RANGE when a height falls outside the
 *   0 to 2047.97 m that 11.5 fixed point holds above @offset (the message
 *   names the sample and the range needed), %TERRAIN_ERROR_INVALID_VALUE
 *   for a name longer than 65535 bytes or a non-finite offset, or
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED for a side past 65536
 */
TerrainTer7File *
terrain_ter7_file_new_from_heightfield (TerrainHeightfield   *field,
                                        gdouble               offset,
                                        const char * const   *materials,
                                        GError              **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autofree gfloat *row = NULL;
  guint w, h, side, wrap;
  gsize samples, total, names_bytes = 4;
  guint n_names = 0;
  guint8 *data, *p;
  gfloat lo, hi;

  g_return_val_if_fail (TERRAIN_IS_HEIGHTFIELD (field), NULL);

  if (!isfinite (offset))
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                           "TER7: the height offset is not finite");
      return NULL;
    }
  for (guint i = 0; materials != NULL && materials[i] != NULL; i++, n_names++)
    {
      if (!check_name (materials[i], error))
        return NULL;
      names_bytes += name_size (materials[i]);
    }

  w = terrain_heightfield_get_width (field);
  h = terrain_heightfield_get_height (field);
  wrap = w == h && w > 2 && is_pow2 (w - 1);
  side = wrap ? w - 1 : next_pow2 (MAX (w, h));
  if (side > 65536)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "TER7: %u x %u samples need a %u-sample terrain, more than 65536",
                   w, h, side);
      return NULL;
    }

  terrain_heightfield_get_range (field, &lo, &hi);
  if (!(lo - offset >= 0.0) || !((hi - offset) * TER7_UNITS_PER_METRE < 65535.5))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "TER7: heights %.9g to %.9g m do not fit the 0 to 2047.97 m above the "
                   "offset (%.9g m) that 11.5 fixed point holds: take an offset of at most "
                   "%.9g m, and scale heights spanning more than 2048 m",
                   lo, hi, offset, lo);
      return NULL;
    }

  samples = (gsize) side * side;
  total = 1 + 4 + 3 * samples + names_bytes;
  data = g_try_malloc (total);
  if (data == NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "TER7: cannot allocate %" G_GSIZE_FORMAT " bytes for a %u-sample terrain",
                   total, side);
      return NULL;
    }
  bytes = g_bytes_new_take (data, total);

  p = data;
  *p++ = TERRAIN_TER7_VERSION;
  terrain_put_le32 (p, side);
  p += 4;

  /* File row y is world y (north up): heightfield row side − y for a
   * wrapping (N+1) field (row 0, the north edge, is the repeated one),
   * else side − 1 − y; rows and columns past the grid are read as its last
   * ones (terrain_heightfield_read_rect()'s edge extension). */
  row = g_new (gfloat, side);
  for (guint y = 0; y < side; y++)
    {
      terrain_heightfield_read_rect (field, 0, wrap ? side - y : side - 1 - y, side, 1, row, side);
      for (guint x = 0; x < side; x++)
        {
          gdouble v = (row[x] - offset) * TER7_UNITS_PER_METRE;

          terrain_put_le16 (p, (guint16) CLAMP (lround (v), 0, 65535));
          p += 2;
        }
    }
  memset (p, 0, samples);
  p += samples;

  terrain_put_le32 (p, n_names);
  p += 4;
  for (guint i = 0; i < n_names; i++)
    put_name (&p, materials[i]);
  g_assert (p == data + total);

  return new_from_bytes (bytes, NULL, error);
}

/**
 * terrain_ter7_file_get_size:
 * @self: a #TerrainTer7File
 *
 * Gets the side of the height and layer maps.
 *
 * Returns: samples on a side (a power of two in files the engine wrote)
 */
guint
terrain_ter7_file_get_size (TerrainTer7File *self)
{
  g_return_val_if_fail (TERRAIN_IS_TER7_FILE (self), 0);
  return self->size;
}

static guint16
height_at (TerrainTer7File *self,
           gsize            i)
{
  return terrain_ter_height_at (stored_heights (self), self->heights, i);
}

static guint8
layer_at (TerrainTer7File *self,
          gsize            i)
{
  if (self->layers != NULL)
    return self->layers[i];
  return self->data[self->sections.offsets[TERRAIN_TER7_SECTION_LAYER_MAP] + i];
}

/**
 * terrain_ter7_file_get_height:
 * @self: a #TerrainTer7File
 * @x: column, below [method@Terrain.Ter7File.get_size] (world X / squareSize)
 * @y: row, below the size (world Y / squareSize, north up)
 *
 * Reads one height sample.
 *
 * Returns: the height in 11.5 fixed point (metres × 32)
 */
guint16
terrain_ter7_file_get_height (TerrainTer7File *self,
                              guint            x,
                              guint            y)
{
  g_return_val_if_fail (TERRAIN_IS_TER7_FILE (self), 0);
  g_return_val_if_fail (x < self->size && y < self->size, 0);

  return height_at (self, (gsize) y * self->size + x);
}

/**
 * terrain_ter7_file_set_height:
 * @self: a #TerrainTer7File
 * @x: column, below the size
 * @y: row, below the size
 * @value: height in 11.5 fixed point
 *
 * Changes one height. The heights block is copied on the first edit; saving
 * rewrites only its bytes.
 */
void
terrain_ter7_file_set_height (TerrainTer7File *self,
                              guint            x,
                              guint            y,
                              guint16          value)
{
  g_return_if_fail (TERRAIN_IS_TER7_FILE (self));
  g_return_if_fail (x < self->size && y < self->size);

  if (self->heights == NULL)
    self->heights = terrain_ter_heights_copy (stored_heights (self), n_samples (self));
  self->heights[(gsize) y * self->size + x] = value;
  terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);
}

/**
 * terrain_ter7_file_get_layer:
 * @self: a #TerrainTer7File
 * @x: column, below the size
 * @y: row, below the size
 *
 * Reads one cell of the layer map.
 *
 * Returns: the index of the material at the sample, or
 *   %TERRAIN_TER7_EMPTY_LAYER for a hole
 */
guint8
terrain_ter7_file_get_layer (TerrainTer7File *self,
                             guint            x,
                             guint            y)
{
  g_return_val_if_fail (TERRAIN_IS_TER7_FILE (self), 0);
  g_return_val_if_fail (x < self->size && y < self->size, 0);

  return layer_at (self, (gsize) y * self->size + x);
}

/**
 * terrain_ter7_file_set_layer:
 * @self: a #TerrainTer7File
 * @x: column, below the size
 * @y: row, below the size
 * @index: a material index, or %TERRAIN_TER7_EMPTY_LAYER to cut a hole
 *
 * Paints one cell of the layer map. The layer map is copied on the first
 * edit; saving rewrites only its bytes. An index with no material is
 * allowed (the engine draws nothing for it) and `validate` warns about it.
 */
void
terrain_ter7_file_set_layer (TerrainTer7File *self,
                             guint            x,
                             guint            y,
                             guint8           index)
{
  g_return_if_fail (TERRAIN_IS_TER7_FILE (self));
  g_return_if_fail (x < self->size && y < self->size);

  if (self->layers == NULL)
    self->layers = g_memdup2 (self->data + self->sections.offsets[TERRAIN_TER7_SECTION_LAYER_MAP],
                              n_samples (self));
  self->layers[(gsize) y * self->size + x] = index;
  terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);
}

/**
 * terrain_ter7_file_get_n_materials:
 * @self: a #TerrainTer7File
 *
 * Counts the materials.
 *
 * Returns: the number of material names
 */
guint
terrain_ter7_file_get_n_materials (TerrainTer7File *self)
{
  g_return_val_if_fail (TERRAIN_IS_TER7_FILE (self), 0);
  return self->names->len;
}

/**
 * terrain_ter7_file_get_material_name:
 * @self: a #TerrainTer7File
 * @index: a material index, below
 *   [method@Terrain.Ter7File.get_n_materials]
 *
 * Gets a material's internal name (a `TerrainMaterial`'s `internalName`
 * in the game's scripts).
 *
 * Returns: the name, up to its first NUL byte if it holds one
 */
const char *
terrain_ter7_file_get_material_name (TerrainTer7File *self,
                                     guint            index)
{
  g_return_val_if_fail (TERRAIN_IS_TER7_FILE (self), NULL);
  g_return_val_if_fail (index < self->names->len, NULL);

  return g_ptr_array_index (self->names, index);
}

/**
 * terrain_ter7_file_set_material_name:
 * @self: a #TerrainTer7File
 * @index: a material index, below the material count
 * @name: the new internal name
 * @error: return location for a #GError
 *
 * Renames a material. Saving rewrites the material names block (the
 * heights and layer map keep their bytes).
 *
 * Returns: %TRUE, or %FALSE with %TERRAIN_ERROR_INVALID_VALUE for a name
 *   longer than 65535 bytes
 */
gboolean
terrain_ter7_file_set_material_name (TerrainTer7File  *self,
                                     guint             index,
                                     const char       *name,
                                     GError          **error)
{
  g_return_val_if_fail (TERRAIN_IS_TER7_FILE (self), FALSE);
  g_return_val_if_fail (index < self->names->len, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (!check_name (name, error))
    return FALSE;
  if (g_strcmp0 (g_ptr_array_index (self->names, index), name) == 0)
    return TRUE;
  g_free (g_ptr_array_index (self->names, index));
  g_ptr_array_index (self->names, index) = g_strdup (name);
  self->names_edited = TRUE;
  terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);
  return TRUE;
}

/**
 * terrain_ter7_file_add_material:
 * @self: a #TerrainTer7File
 * @name: the new material's internal name
 * @index: (out) (optional): its index, for [method@Terrain.Ter7File.set_layer]
 * @error: return location for a #GError
 *
 * Appends a material. Saving rewrites the material names block.
 *
 * Returns: %TRUE, or %FALSE with %TERRAIN_ERROR_INVALID_VALUE for a name
 *   longer than 65535 bytes, or %TERRAIN_ERROR_LIMIT_EXCEEDED when the
 *   terrain has 255 materials already (index 255 is a hole)
 */
gboolean
terrain_ter7_file_add_material (TerrainTer7File  *self,
                                const char       *name,
                                guint            *index,
                                GError          **error)
{
  g_return_val_if_fail (TERRAIN_IS_TER7_FILE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (!check_name (name, error))
    return FALSE;
  if (self->names->len >= TERRAIN_TER7_EMPTY_LAYER)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "TER7 material names: %u materials already; a layer index holds 0 to 254",
                   self->names->len);
      return FALSE;
    }
  g_ptr_array_add (self->names, g_strdup (name));
  if (index != NULL)
    *index = self->names->len - 1;
  self->names_edited = TRUE;
  terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);
  return TRUE;
}

/**
 * terrain_ter7_file_get_section_span:
 * @self: a #TerrainTer7File
 * @section: a block
 * @offset: (out) (optional): its byte offset in the source bytes
 * @size: (out) (optional): its size in bytes
 *
 * Locates a block in the file the terrain was read from.
 *
 * Returns: %TRUE when the file has that block
 */
gboolean
terrain_ter7_file_get_section_span (TerrainTer7File    *self,
                                    TerrainTer7Section  section,
                                    gsize              *offset,
                                    gsize              *size)
{
  g_return_val_if_fail (TERRAIN_IS_TER7_FILE (self), FALSE);

  return terrain_ter_sections_get_span (&self->sections, section, offset, size);
}

/**
 * terrain_ter7_file_to_heightfield:
 * @self: a #TerrainTer7File
 * @square_size: metres between samples (the TerrainBlock's `squareSize`;
 *   0 for the default %TERRAIN_TER7_DEFAULT_SQUARE_SIZE)
 * @error: return location for a #GError
 *
 * Converts the terrain to an (N+1) × (N+1) heightfield in metres
 * (value / 32), N the size. The engine draws the block's last squares up
 * to the first samples again (it reads heights modulo N), so the last row
 * and column repeat the first ones, exactly as the engine's surface is:
 * the result is ready for a chunked-LOD tree. Heightfield rows run north
 * to south, so heightfield sample (x, r) is file sample (x mod N,
 * (N − r) mod N). Holes keep their heights (a heightfield has none).
 *
 * Returns: (transfer full) (nullable): the heightfield, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE for a bad square size or
 *   %TERRAIN_ERROR_LIMIT_EXCEEDED for a side past
 *   %TERRAIN_HEIGHTFIELD_MAX_SIDE
 */
TerrainHeightfield *
terrain_ter7_file_to_heightfield (TerrainTer7File  *self,
                                  gdouble           square_size,
                                  GError          **error)
{
  g_return_val_if_fail (TERRAIN_IS_TER7_FILE (self), NULL);

  return terrain_ter_to_heightfield (stored_heights (self), self->heights, self->size,
                                     square_size != 0.0 ? square_size
                                                        : TERRAIN_TER7_DEFAULT_SQUARE_SIZE,
                                     "TER7", error);
}

/* ------------------------------------------------------------------------
 * TerrainDocument
 */

static GBytes *
terrain_ter7_file_save_to_bytes (TerrainDocument  *document,
                                 GError          **error)
{
  TerrainTer7File *self = TERRAIN_TER7_FILE (document);
  gsize names_at = self->sections.offsets[TERRAIN_TER7_SECTION_MATERIAL_NAMES];
  gsize old_names = self->sections.sizes[TERRAIN_TER7_SECTION_MATERIAL_NAMES];
  gsize new_names = old_names, total, samples = n_samples (self);
  guint8 *copy, *p;

  (void) error;
  if (self->heights == NULL && self->layers == NULL && !self->names_edited)
    return g_bytes_ref (self->source);

  if (self->names_edited)
    {
      new_names = 4;
      for (guint i = 0; i < self->names->len; i++)
        new_names += name_size (g_ptr_array_index (self->names, i));
    }
  total = self->size_bytes - old_names + new_names;
  copy = g_malloc (total);

  /* Everything before the names block, then the heights and layers that
   * were edited over it. */
  memcpy (copy, self->data, names_at);
  if (self->heights != NULL)
    for (gsize i = 0; i < samples; i++)
      terrain_put_le16 (copy + self->sections.offsets[TERRAIN_TER7_SECTION_HEIGHTS] + 2 * i,
                        self->heights[i]);
  if (self->layers != NULL)
    memcpy (copy + self->sections.offsets[TERRAIN_TER7_SECTION_LAYER_MAP], self->layers, samples);

  p = copy + names_at;
  if (self->names_edited)
    {
      terrain_put_le32 (p, self->names->len);
      p += 4;
      for (guint i = 0; i < self->names->len; i++)
        put_name (&p, g_ptr_array_index (self->names, i));
    }
  else
    {
      memcpy (p, self->data + names_at, old_names);
      p += old_names;
    }
  /* Trailing bytes, as they were. */
  memcpy (p, self->data + names_at + old_names, self->size_bytes - names_at - old_names);

  return g_bytes_new_take (copy, total);
}

static void
height_range (TerrainTer7File *self,
              guint16         *lo,
              guint16         *hi)
{
  terrain_ter_height_range (stored_heights (self), self->heights, n_samples (self), lo, hi);
}

static gsize
count_holes (TerrainTer7File *self)
{
  gsize n = n_samples (self), holes = 0;

  for (gsize i = 0; i < n; i++)
    holes += layer_at (self, i) == TERRAIN_TER7_EMPTY_LAYER;
  return holes;
}

static JsonNode *
terrain_ter7_file_describe (TerrainDocument *document)
{
  TerrainTer7File *self = TERRAIN_TER7_FILE (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  guint16 lo, hi;

  height_range (self, &lo, &hi);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, "ter");
  json_builder_set_member_name (builder, "engine");
  json_builder_add_string_value (builder, "Torque3D");
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, TERRAIN_TER7_VERSION);
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, self->size);
  json_builder_set_member_name (builder, "min_height");
  json_builder_add_int_value (builder, lo);
  json_builder_set_member_name (builder, "max_height");
  json_builder_add_int_value (builder, hi);
  json_builder_set_member_name (builder, "min_height_metres");
  json_builder_add_double_value (builder, lo / TER7_UNITS_PER_METRE);
  json_builder_set_member_name (builder, "max_height_metres");
  json_builder_add_double_value (builder, hi / TER7_UNITS_PER_METRE);
  json_builder_set_member_name (builder, "holes");
  json_builder_add_int_value (builder, (gint64) count_holes (self));

  json_builder_set_member_name (builder, "materials");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->names->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (self->names, i));
  json_builder_end_array (builder);

  terrain_ter_sections_describe (&self->sections, builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static GPtrArray *
terrain_ter7_file_validate (TerrainDocument *document)
{
  TerrainTer7File *self = TERRAIN_TER7_FILE (document);
  GPtrArray *issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  gsize map = self->sections.offsets[TERRAIN_TER7_SECTION_LAYER_MAP], n = n_samples (self);
  guint bad = 0;

  /* The engine's collision grid (_buildGridMap) halves the side down to 1. */
  if (!is_pow2 (self->size))
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_WARNING, "TER7 header", 1, -1,
                                                "size %u is not a power of two (the engine "
                                                "resizes terrains to one)", self->size));

  /* A sample's layer must name a material, or be a hole. */
  for (gsize i = 0; i < n; i++)
    {
      guint8 layer = layer_at (self, i);

      if (layer == TERRAIN_TER7_EMPTY_LAYER || layer < self->names->len)
        continue;
      if (bad++ < TER7_MAX_ISSUES)
        {
          TerrainIssue *issue =
            terrain_issue_new (TERRAIN_SEVERITY_WARNING, "TER7 layer map", (gint64) (map + i), -1,
                               "sample (%" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT ") has layer %u, "
                               "but there are %u materials", i % self->size, i / self->size,
                               layer, self->names->len);

          terrain_issue_set_position (issue, (gint) (i % self->size), (gint) (i / self->size));
          g_ptr_array_add (issues, issue);
        }
    }
  if (bad > TER7_MAX_ISSUES)
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_WARNING, "TER7 layer map",
                                                (gint64) map, -1,
                                                "%u samples in all have a layer with no material",
                                                bad));

  if (self->names->len == 0)
    {
      gsize names_at = self->sections.offsets[TERRAIN_TER7_SECTION_MATERIAL_NAMES];

      g_ptr_array_add (issues,
                       terrain_issue_new_literal (TERRAIN_SEVERITY_INFO, "TER7 material names",
                                                  (gint64) names_at, -1,
                                                  "no materials: the engine draws its warning "
                                                  "material"));
    }

  terrain_ter_sections_check_trailing (&self->sections, TERRAIN_TER7_SECTION_TRAILING, "TER7",
                                       "the material names", issues);

  return issues;
}

/* Heights in metres north up, averaged down to the relief's side; holes
 * (a block of nothing but holes) are transparent. */
static TerrainImage *
terrain_ter7_file_render_image (TerrainDocument       *document,
                                TerrainRenderOptions  *options,
                                GError               **error)
{
  TerrainTer7File *self = TERRAIN_TER7_FILE (document);
  g_auto(TerrainRelief) relief = { 0 };
  guint step = (self->size + TERRAIN_RELIEF_MAX_SIDE - 1) / TERRAIN_RELIEF_MAX_SIDE;
  guint side = (self->size + step - 1) / step;

  (void) options;
  if (!terrain_relief_init (&relief, side, side, NULL, "TER7", error))
    return NULL;

  for (guint ry = 0; ry < side; ry++)
    for (guint rx = 0; rx < side; rx++)
      {
        gdouble sum = 0.0;
        guint count = 0;

        for (guint dy = 0; dy < step; dy++)
          for (guint dx = 0; dx < step; dx++)
            {
              guint x = rx * step + dx, r = ry * step + dy;
              gsize i;

              if (x >= self->size || r >= self->size)
                continue;
              i = (gsize) (self->size - 1 - r) * self->size + x;
              if (layer_at (self, i) == TERRAIN_TER7_EMPTY_LAYER)
                continue;
              sum += height_at (self, i) / TER7_UNITS_PER_METRE;
              count++;
            }
        relief.z[(gsize) ry * side + rx] = count > 0 ? (gfloat) (sum / count) : NAN;
      }

  return terrain_relief_render (&relief, TERRAIN_TER7_DEFAULT_SQUARE_SIZE * step, error);
}

/* The raw 11.5 values, north up (row 0 = file row size − 1). */
static TerrainImage *
terrain_ter7_file_export_heights (TerrainDocument  *document,
                                  GError          **error)
{
  TerrainTer7File *self = TERRAIN_TER7_FILE (document);
  g_autoptr(TerrainImage) image = NULL;
  guint8 *pixels;
  gsize stride;

  image = terrain_image_new (TERRAIN_IMAGE_GRAY16, self->size, self->size, error);
  if (image == NULL)
    return NULL;
  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  for (guint r = 0; r < self->size; r++)
    for (guint x = 0; x < self->size; x++)
      {
        guint16 v = height_at (self, (gsize) (self->size - 1 - r) * self->size + x);

        memcpy (pixels + (gsize) r * stride + 2 * (gsize) x, &v, 2);
      }

  return g_steal_pointer (&image);
}

static char *
terrain_ter7_file_describe_offset (TerrainDocument *document,
                                   gsize            offset)
{
  TerrainTer7File *self = TERRAIN_TER7_FILE (document);
  gsize i;
  gint s = terrain_ter_sections_find (&self->sections, offset, &i);

  switch (s)
    {
    case -1:
      return g_strdup ("past the end");
    case TERRAIN_TER7_SECTION_HEIGHTS:
      i /= 2;
      return g_strdup_printf ("heights, sample (%" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT ")",
                              i % self->size, i / self->size);
    case TERRAIN_TER7_SECTION_LAYER_MAP:
      return g_strdup_printf ("layer map, sample (%" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT ")",
                              i % self->size, i / self->size);
    default:
      return g_strdup (section_names[s]);
    }
}

static void
terrain_ter7_file_class_init (TerrainTer7FileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  object_class->finalize = terrain_ter7_file_finalize;
  document_class->save_to_bytes = terrain_ter7_file_save_to_bytes;
  document_class->describe = terrain_ter7_file_describe;
  document_class->validate = terrain_ter7_file_validate;
  document_class->render_image = terrain_ter7_file_render_image;
  document_class->export_heights = terrain_ter7_file_export_heights;
  document_class->describe_offset = terrain_ter7_file_describe_offset;
  document_class->parse = terrain_ter7_file_parse;
  document_class->format = TERRAIN_FORMAT_TER;
}

static void
terrain_ter7_file_init (TerrainTer7File *self)
{
  terrain_ter_sections_init (&self->sections, section_names, N_SECTIONS);
  self->names = g_ptr_array_new_with_free_func (g_free);
}
