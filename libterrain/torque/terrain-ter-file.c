/* terrain-ter-file.c: Torque / Tribes 2 legacy terrain (.ter)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-ter-file.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"
#include "core/terrain-reader-private.h"
#include "terrain-ter-common-private.h"

#define TER_SAMPLES   (TERRAIN_TER_SIZE * TERRAIN_TER_SIZE)
#define TER_MAX_ISSUES 20

/* 11.5 fixed point: metres = value / 32 (field-notes.md). */
#define TER_UNITS_PER_METRE 32.0

#define N_SECTIONS (TERRAIN_TER_SECTION_TRAILING + 1)

struct _TerrainTerFile
{
  TerrainDocument parent_instance;

  GBytes *source;
  const guint8 *data;
  gsize size;

  guint8 version;
  TerrainTerSections sections;

  gsize name_offset[TERRAIN_TER_MATERIALS];   /* of the name bytes */
  guint8 name_length[TERRAIN_TER_MATERIALS];
  char *names[TERRAIN_TER_MATERIALS];         /* NULL for empty slots */
  guint n_alpha_maps;

  guint16 *heights;   /* copy made by the first edit, else NULL */
};

/**
 * TerrainTerFile:
 *
 * A Torque or Tribes 2 legacy terrain block (`.ter`, field-notes.md,
 * "Legacy Torque terrain"): a U8 version (1 to 3), 256 × 256 U16 heights
 * in 11.5 fixed point (metres = value / 32), a 256 × 256 U8 material map
 * (material slot in the low three bits, flags above), eight material names,
 * one 256 × 256 alpha map per named material (version 2 and later) and,
 * in version 3, a texture script and a heightfield script, each a U32 length
 * and its bytes (Tribes 2 files may stop before them).
 *
 * Sample (x, y) of the file lies at world (x, y) × squareSize; the block
 * tiles (wraps) in the engine. Blocks are read in place from the source
 * bytes; an unedited file writes back byte for byte and an edit of the
 * heights rewrites only that block.
 */
G_DEFINE_FINAL_TYPE (TerrainTerFile, terrain_ter_file, TERRAIN_TYPE_DOCUMENT)

static const char * const section_names[N_SECTIONS] = {
  "version",
  "heights",
  "material map",
  "material names",
  "alpha maps",
  "texture script",
  "heightfield script",
  "trailing bytes",
};

static void
terrain_ter_file_finalize (GObject *object)
{
  TerrainTerFile *self = TERRAIN_TER_FILE (object);

  g_clear_pointer (&self->source, g_bytes_unref);
  g_clear_pointer (&self->heights, g_free);
  for (guint i = 0; i < TERRAIN_TER_MATERIALS; i++)
    g_clear_pointer (&self->names[i], g_free);

  G_OBJECT_CLASS (terrain_ter_file_parent_class)->finalize (object);
}

static void
mark (TerrainTerFile    *self,
      TerrainTerSection  section,
      gsize              offset,
      gsize              size)
{
  terrain_ter_sections_mark (&self->sections, section, offset, size);
}

/* The heights block as read. */
static const guint8 *
stored_heights (TerrainTerFile *self)
{
  return self->data + self->sections.offsets[TERRAIN_TER_SECTION_HEIGHTS];
}

static gboolean
read_script (TerrainTerFile     *self,
             TerrainReader      *reader,
             TerrainTerSection   section,
             GError            **error)
{
  gsize start = terrain_reader_tell (reader);
  guint32 length;

  if (!terrain_reader_read_u32 (reader, &length, error))
    return FALSE;
  if (!terrain_reader_skip (reader, length, NULL))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "TER %s: length %u at byte offset %" G_GSIZE_FORMAT " runs past the end of "
                   "the %" G_GSIZE_FORMAT "-byte file", section_names[section], length, start,
                   self->size);
      return FALSE;
    }
  mark (self, section, start, 4 + (gsize) length);
  return TRUE;
}

static gboolean
terrain_ter_file_parse (TerrainDocument      *document,
                        GBytes               *bytes,
                        const TerrainLimits  *limits,
                        GError              **error)
{
  TerrainTerFile *self = TERRAIN_TER_FILE (document);
  TerrainReader reader;
  gsize at;

  /* A fixed 256x256 grid with at most eight materials: no count read from
   * the file sizes an allocation, so the limits have nothing to check. */
  (void) limits;
  self->source = g_bytes_ref (bytes);
  self->data = g_bytes_get_data (bytes, &self->size);
  terrain_reader_init (&reader, self->source, "TER");

  if (!terrain_reader_read_u8 (&reader, &self->version, error))
    return FALSE;
  mark (self, TERRAIN_TER_SECTION_VERSION, 0, 1);
  if (self->version < 1 || self->version > 3)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNSUPPORTED_VERSION,
                   "TER header: version %u at byte offset 0 is not 1, 2 or 3%s",
                   self->version, self->version == 7 ? " (version 7 is a Torque3D "
                   "TerrainFile, TerrainTer7File)" : "");
      return FALSE;
    }

  at = terrain_reader_tell (&reader);
  reader.section = "TER heights";
  if (!terrain_reader_skip (&reader, 2 * TER_SAMPLES, error))
    return FALSE;
  mark (self, TERRAIN_TER_SECTION_HEIGHTS, at, 2 * TER_SAMPLES);

  at = terrain_reader_tell (&reader);
  reader.section = "TER material map";
  if (!terrain_reader_skip (&reader, TER_SAMPLES, error))
    return FALSE;
  mark (self, TERRAIN_TER_SECTION_MATERIAL_MAP, at, TER_SAMPLES);

  at = terrain_reader_tell (&reader);
  reader.section = "TER material names";
  for (guint i = 0; i < TERRAIN_TER_MATERIALS; i++)
    {
      const guint8 *name;
      guint8 length;

      if (!terrain_reader_read_u8 (&reader, &length, error))
        return FALSE;
      self->name_offset[i] = terrain_reader_tell (&reader);
      self->name_length[i] = length;
      if (!terrain_reader_read_bytes (&reader, length, &name, error))
        {
          g_prefix_error (error, "material name %u: ", i);
          return FALSE;
        }
      if (length > 0)
        {
          self->names[i] = g_strndup ((const char *) name, length);
          self->n_alpha_maps++;
        }
    }
  mark (self, TERRAIN_TER_SECTION_MATERIAL_NAMES, at, terrain_reader_tell (&reader) - at);

  if (self->version >= 2)
    {
      at = terrain_reader_tell (&reader);
      reader.section = "TER alpha maps";
      if (!terrain_reader_skip (&reader, (gsize) self->n_alpha_maps * TER_SAMPLES, error))
        {
          g_prefix_error (error, "%u named materials need %u alpha maps: ",
                          self->n_alpha_maps, self->n_alpha_maps);
          return FALSE;
        }
      mark (self, TERRAIN_TER_SECTION_ALPHA_MAPS, at, (gsize) self->n_alpha_maps * TER_SAMPLES);
    }
  else
    self->n_alpha_maps = 0;

  /* Version 3 adds the two scripts; Tribes 2 files may end before them. */
  if (self->version >= 3 && terrain_reader_remaining (&reader) > 0)
    {
      reader.section = "TER scripts";
      if (!read_script (self, &reader, TERRAIN_TER_SECTION_TEXTURE_SCRIPT, error) ||
          !read_script (self, &reader, TERRAIN_TER_SECTION_HEIGHT_SCRIPT, error))
        return FALSE;
    }

  if (terrain_reader_remaining (&reader) > 0)
    mark (self, TERRAIN_TER_SECTION_TRAILING, terrain_reader_tell (&reader),
          terrain_reader_remaining (&reader));

  return TRUE;
}

/**
 * terrain_ter_file_new_from_bytes:
 * @bytes: the file's contents
 * @limits: (nullable): allocation limits (a `.ter` file's blocks have fixed
 *   sizes, so only the scripts' lengths are read, and checked against the
 *   data)
 * @error: return location for a #GError
 *
 * Reads a legacy terrain block.
 *
 * Returns: (transfer full) (nullable): the terrain, or %NULL with
 *   %TERRAIN_ERROR_UNSUPPORTED_VERSION for a version other than 1 to 3 or
 *   %TERRAIN_ERROR_TRUNCATED when a block runs past the end
 */
TerrainTerFile *
terrain_ter_file_new_from_bytes (GBytes               *bytes,
                                 const TerrainLimits  *limits,
                                 GError              **error)
{
  return TERRAIN_TER_FILE (terrain_document_new_from_bytes (TERRAIN_TYPE_TER_FILE, bytes, limits,
                                                            error));
}

/**
 * terrain_ter_file_get_version:
 * @self: a #TerrainTerFile
 *
 * Gets the version byte.
 *
 * Returns: the file version, 1 to 3
 */
guint8
terrain_ter_file_get_version (TerrainTerFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_TER_FILE (self), 0);
  return self->version;
}

/**
 * terrain_ter_file_get_height:
 * @self: a #TerrainTerFile
 * @x: column, 0 to 255 (world X / squareSize)
 * @y: row, 0 to 255 (world Y / squareSize)
 *
 * Reads one height sample.
 *
 * Returns: the height in 11.5 fixed point (metres × 32)
 */
guint16
terrain_ter_file_get_height (TerrainTerFile *self,
                             guint           x,
                             guint           y)
{
  gsize i;

  g_return_val_if_fail (TERRAIN_IS_TER_FILE (self), 0);
  g_return_val_if_fail (x < TERRAIN_TER_SIZE && y < TERRAIN_TER_SIZE, 0);

  i = (gsize) y * TERRAIN_TER_SIZE + x;
  return terrain_ter_height_at (stored_heights (self), self->heights, i);
}

/**
 * terrain_ter_file_set_height:
 * @self: a #TerrainTerFile
 * @x: column, 0 to 255
 * @y: row, 0 to 255
 * @value: height in 11.5 fixed point
 *
 * Changes one height. The heights block is copied on the first edit; saving
 * rewrites only its bytes.
 */
void
terrain_ter_file_set_height (TerrainTerFile *self,
                             guint           x,
                             guint           y,
                             guint16         value)
{
  g_return_if_fail (TERRAIN_IS_TER_FILE (self));
  g_return_if_fail (x < TERRAIN_TER_SIZE && y < TERRAIN_TER_SIZE);

  if (self->heights == NULL)
    self->heights = terrain_ter_heights_copy (stored_heights (self), TER_SAMPLES);
  self->heights[(gsize) y * TERRAIN_TER_SIZE + x] = value;
  terrain_document_set_modified (TERRAIN_DOCUMENT (self), TRUE);
}

/**
 * terrain_ter_file_get_material:
 * @self: a #TerrainTerFile
 * @x: column, 0 to 255
 * @y: row, 0 to 255
 *
 * Reads one cell of the material map.
 *
 * Returns: the material map byte: the material slot in the low three bits,
 *   flags above
 */
guint8
terrain_ter_file_get_material (TerrainTerFile *self,
                               guint           x,
                               guint           y)
{
  g_return_val_if_fail (TERRAIN_IS_TER_FILE (self), 0);
  g_return_val_if_fail (x < TERRAIN_TER_SIZE && y < TERRAIN_TER_SIZE, 0);

  return self->data[self->sections.offsets[TERRAIN_TER_SECTION_MATERIAL_MAP] +
                    (gsize) y * TERRAIN_TER_SIZE + x];
}

/**
 * terrain_ter_file_get_material_name:
 * @self: a #TerrainTerFile
 * @slot: material slot, 0 to 7
 *
 * Gets the name of a material slot.
 *
 * Returns: (nullable): the slot's material name, or %NULL for an empty slot
 */
const char *
terrain_ter_file_get_material_name (TerrainTerFile *self,
                                    guint           slot)
{
  g_return_val_if_fail (TERRAIN_IS_TER_FILE (self), NULL);
  g_return_val_if_fail (slot < TERRAIN_TER_MATERIALS, NULL);

  return self->names[slot];
}

/**
 * terrain_ter_file_get_n_alpha_maps:
 * @self: a #TerrainTerFile
 *
 * Counts the alpha maps.
 *
 * Returns: the number of alpha maps: one per named material from version 2
 */
guint
terrain_ter_file_get_n_alpha_maps (TerrainTerFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_TER_FILE (self), 0);
  return self->n_alpha_maps;
}

/**
 * terrain_ter_file_get_alpha_map:
 * @self: a #TerrainTerFile
 * @index: alpha map index, below [method@Terrain.TerFile.get_n_alpha_maps]
 *   (the maps follow the named materials in slot order)
 * @size: (out) (optional): 65536
 *
 * Gets one material's alpha map.
 *
 * Returns: (transfer none) (array length=size): 256 × 256 opacities, row
 *   0 first
 */
const guint8 *
terrain_ter_file_get_alpha_map (TerrainTerFile *self,
                                guint           index,
                                gsize          *size)
{
  g_return_val_if_fail (TERRAIN_IS_TER_FILE (self), NULL);
  g_return_val_if_fail (index < self->n_alpha_maps, NULL);

  if (size != NULL)
    *size = TER_SAMPLES;
  return self->data + self->sections.offsets[TERRAIN_TER_SECTION_ALPHA_MAPS] +
         (gsize) index * TER_SAMPLES;
}

static char *
dup_script (TerrainTerFile    *self,
            TerrainTerSection  section)
{
  if (!self->sections.present[section])
    return NULL;
  return g_strndup ((const char *) self->data + self->sections.offsets[section] + 4,
                    self->sections.sizes[section] - 4);
}

/**
 * terrain_ter_file_dup_texture_script:
 * @self: a #TerrainTerFile
 *
 * Copies the texture script.
 *
 * Returns: (transfer full) (nullable): the texture script (version 3), or
 *   %NULL when the file has none
 */
char *
terrain_ter_file_dup_texture_script (TerrainTerFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_TER_FILE (self), NULL);
  return dup_script (self, TERRAIN_TER_SECTION_TEXTURE_SCRIPT);
}

/**
 * terrain_ter_file_dup_height_script:
 * @self: a #TerrainTerFile
 *
 * Copies the heightfield script.
 *
 * Returns: (transfer full) (nullable): the heightfield script (version 3),
 *   or %NULL when the file has none
 */
char *
terrain_ter_file_dup_height_script (TerrainTerFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_TER_FILE (self), NULL);
  return dup_script (self, TERRAIN_TER_SECTION_HEIGHT_SCRIPT);
}

/**
 * terrain_ter_file_get_section_span:
 * @self: a #TerrainTerFile
 * @section: a block
 * @offset: (out) (optional): its byte offset
 * @size: (out) (optional): its size in bytes
 *
 * Locates a block in the file.
 *
 * Returns: %TRUE when the file has that block
 */
gboolean
terrain_ter_file_get_section_span (TerrainTerFile    *self,
                                   TerrainTerSection  section,
                                   gsize             *offset,
                                   gsize             *size)
{
  g_return_val_if_fail (TERRAIN_IS_TER_FILE (self), FALSE);

  return terrain_ter_sections_get_span (&self->sections, section, offset, size);
}

/**
 * terrain_ter_file_to_heightfield:
 * @self: a #TerrainTerFile
 * @square_size: metres between samples (the mission's `squareSize`; 0 for
 *   the default %TERRAIN_TER_DEFAULT_SQUARE_SIZE)
 * @error: return location for a #GError
 *
 * Converts the block to a 257 × 257 heightfield in metres (value / 32).
 * The block tiles in the engine, so the 257th row and column repeat the
 * first ones (wrapping, not edge extension): the result is ready for a
 * chunked-LOD tree. Heightfield rows run north to south, so heightfield
 * sample (x, r) is file sample (x mod 256, (256 − r) mod 256).
 *
 * Returns: (transfer full) (nullable): the heightfield, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE for a bad square size
 */
TerrainHeightfield *
terrain_ter_file_to_heightfield (TerrainTerFile  *self,
                                 gdouble          square_size,
                                 GError         **error)
{
  g_return_val_if_fail (TERRAIN_IS_TER_FILE (self), NULL);

  return terrain_ter_to_heightfield (stored_heights (self), self->heights, TERRAIN_TER_SIZE,
                                     square_size != 0.0 ? square_size
                                                        : TERRAIN_TER_DEFAULT_SQUARE_SIZE,
                                     "TER", error);
}

/* ------------------------------------------------------------------------
 * TerrainDocument
 */

static GBytes *
terrain_ter_file_save_to_bytes (TerrainDocument  *document,
                                GError          **error)
{
  TerrainTerFile *self = TERRAIN_TER_FILE (document);
  guint8 *copy;

  if (self->heights == NULL)
    return g_bytes_ref (self->source);

  copy = g_memdup2 (self->data, self->size);
  for (gsize i = 0; i < TER_SAMPLES; i++)
    terrain_put_le16 (copy + self->sections.offsets[TERRAIN_TER_SECTION_HEIGHTS] + 2 * i,
                      self->heights[i]);
  return g_bytes_new_take (copy, self->size);
}

static void
height_range (TerrainTerFile *self,
              guint16        *lo,
              guint16        *hi)
{
  terrain_ter_height_range (stored_heights (self), self->heights, TER_SAMPLES, lo, hi);
}

static JsonNode *
terrain_ter_file_describe (TerrainDocument *document)
{
  TerrainTerFile *self = TERRAIN_TER_FILE (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  guint16 lo, hi;

  height_range (self, &lo, &hi);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, "ter");
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, self->version);
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, TERRAIN_TER_SIZE);
  json_builder_set_member_name (builder, "min_height");
  json_builder_add_int_value (builder, lo);
  json_builder_set_member_name (builder, "max_height");
  json_builder_add_int_value (builder, hi);
  json_builder_set_member_name (builder, "min_height_metres");
  json_builder_add_double_value (builder, lo / TER_UNITS_PER_METRE);
  json_builder_set_member_name (builder, "max_height_metres");
  json_builder_add_double_value (builder, hi / TER_UNITS_PER_METRE);

  json_builder_set_member_name (builder, "materials");
  json_builder_begin_array (builder);
  for (guint i = 0; i < TERRAIN_TER_MATERIALS; i++)
    if (self->names[i] != NULL)
      json_builder_add_string_value (builder, self->names[i]);
    else
      json_builder_add_null_value (builder);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "alpha_maps");
  json_builder_add_int_value (builder, self->n_alpha_maps);

  terrain_ter_sections_describe (&self->sections, builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static GPtrArray *
terrain_ter_file_validate (TerrainDocument *document)
{
  TerrainTerFile *self = TERRAIN_TER_FILE (document);
  GPtrArray *issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  gsize map = self->sections.offsets[TERRAIN_TER_SECTION_MATERIAL_MAP];
  guint unnamed = 0;
  gboolean any_name = self->n_alpha_maps > 0 || self->version < 2;

  for (guint i = 0; i < TERRAIN_TER_MATERIALS; i++)
    any_name |= self->names[i] != NULL;

  /* A cell's material slot must name a material (when any is named). */
  for (guint y = 0; y < TERRAIN_TER_SIZE && any_name; y++)
    for (guint x = 0; x < TERRAIN_TER_SIZE; x++)
      {
        gsize at = map + (gsize) y * TERRAIN_TER_SIZE + x;
        guint slot = self->data[at] & 0x07;

        if (self->names[slot] != NULL)
          continue;
        if (unnamed++ < TER_MAX_ISSUES)
          {
            TerrainIssue *issue =
              terrain_issue_new (TERRAIN_SEVERITY_WARNING, "TER material map", (gint64) at, -1,
                                 "cell (%u, %u) uses material slot %u, which has no name",
                                 x, y, slot);

            terrain_issue_set_position (issue, (gint) x, (gint) y);
            g_ptr_array_add (issues, issue);
          }
      }
  if (unnamed > TER_MAX_ISSUES)
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_WARNING, "TER material map",
                                                (gint64) map, -1,
                                                "%u cells in all use unnamed material slots",
                                                unnamed));

  terrain_ter_sections_check_trailing (&self->sections, TERRAIN_TER_SECTION_TRAILING, "TER",
                                       "the last block", issues);

  return issues;
}

/* Heights as grey, hill-shaded from the north-west, north up. */
static TerrainImage *
terrain_ter_file_render_image (TerrainDocument  *document,
                               TerrainRenderOptions *options,
                               GError          **error)
{
  TerrainTerFile *self = TERRAIN_TER_FILE (document);
  g_autoptr(TerrainImage) image = NULL;
  guint8 *pixels;
  gsize stride;
  guint16 lo, hi;

  (void) options;
  image = terrain_image_new (TERRAIN_IMAGE_RGBA8, TERRAIN_TER_SIZE, TERRAIN_TER_SIZE, error);
  if (image == NULL)
    return NULL;
  height_range (self, &lo, &hi);
  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);

  for (guint r = 0; r < TERRAIN_TER_SIZE; r++)
    for (guint x = 0; x < TERRAIN_TER_SIZE; x++)
      {
        guint y = TERRAIN_TER_SIZE - 1 - r;
        gdouble h = terrain_ter_file_get_height (self, x, y);
        gdouble east = terrain_ter_file_get_height (self, (x + 1) % TERRAIN_TER_SIZE, y);
        gdouble north = terrain_ter_file_get_height (self, x, (y + 1) % TERRAIN_TER_SIZE);
        gdouble grey = hi > lo ? (h - lo) / (hi - lo) : 0.5;
        gdouble shade = CLAMP (0.5 + ((h - east) + (north - h)) / (TER_UNITS_PER_METRE * 16.0),
                               0.0, 1.0);
        guint8 v = (guint8) CLAMP (lround (255.0 * (0.6 * grey + 0.4 * shade)), 0, 255);
        guint8 *p = pixels + (gsize) r * stride + 4 * (gsize) x;

        p[0] = p[1] = p[2] = v;
        p[3] = 255;
      }

  return g_steal_pointer (&image);
}

/* The raw 11.5 values, north up (row 0 = file row 255). */
static TerrainImage *
terrain_ter_file_export_heights (TerrainDocument  *document,
                                 GError          **error)
{
  TerrainTerFile *self = TERRAIN_TER_FILE (document);
  g_autoptr(TerrainImage) image = NULL;
  guint8 *pixels;
  gsize stride;

  image = terrain_image_new (TERRAIN_IMAGE_GRAY16, TERRAIN_TER_SIZE, TERRAIN_TER_SIZE, error);
  if (image == NULL)
    return NULL;
  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);
  for (guint r = 0; r < TERRAIN_TER_SIZE; r++)
    for (guint x = 0; x < TERRAIN_TER_SIZE; x++)
      {
        guint16 v = terrain_ter_file_get_height (self, x, TERRAIN_TER_SIZE - 1 - r);

        memcpy (pixels + (gsize) r * stride + 2 * (gsize) x, &v, 2);
      }

  return g_steal_pointer (&image);
}

static char *
terrain_ter_file_describe_offset (TerrainDocument *document,
                                  gsize            offset)
{
  TerrainTerFile *self = TERRAIN_TER_FILE (document);
  gsize i;
  gint s = terrain_ter_sections_find (&self->sections, offset, &i);

  switch (s)
    {
    case -1:
      return g_strdup ("past the end");
    case TERRAIN_TER_SECTION_HEIGHTS:
      i /= 2;
      return g_strdup_printf ("heights, sample (%" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT ")",
                              i % TERRAIN_TER_SIZE, i / TERRAIN_TER_SIZE);
    case TERRAIN_TER_SECTION_ALPHA_MAPS:
      return g_strdup_printf ("alpha map %" G_GSIZE_FORMAT, i / TER_SAMPLES);
    default:
      return g_strdup (section_names[s]);
    }
}

static void
terrain_ter_file_class_init (TerrainTerFileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  object_class->finalize = terrain_ter_file_finalize;
  document_class->save_to_bytes = terrain_ter_file_save_to_bytes;
  document_class->describe = terrain_ter_file_describe;
  document_class->validate = terrain_ter_file_validate;
  document_class->render_image = terrain_ter_file_render_image;
  document_class->export_heights = terrain_ter_file_export_heights;
  document_class->describe_offset = terrain_ter_file_describe_offset;
  document_class->parse = terrain_ter_file_parse;
  document_class->format = TERRAIN_FORMAT_TER;
}

static void
terrain_ter_file_init (TerrainTerFile *self)
{
  terrain_ter_sections_init (&self->sections, section_names, N_SECTIONS);
}
