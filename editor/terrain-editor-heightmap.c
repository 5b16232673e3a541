/* terrain-editor-heightmap.c: a plain heightmap shown as a document
 *
 * Greyscale PNGs, SRTM tiles and raw 16-bit grids are height sources of
 * libterrain (terrain_heightfield_load()), not file formats with a
 * TerrainDocument of their own. The window shows one through this
 * read-only document: the library reads the grid and encodes it as a
 * 16-bit picture (terrain_heightfield_to_image()); the 2D and 3D views take
 * it from export_heights like any other height grid.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-heightmap.h"

#include <glib/gi18n.h>

struct _TerrainEditorHeightmap
{
  TerrainDocument parent_instance;

  TerrainHeightfield *field;
  TerrainHeightmapFormat format;
  gsize size;
};

G_DEFINE_FINAL_TYPE (TerrainEditorHeightmap, terrain_editor_heightmap, TERRAIN_TYPE_DOCUMENT)

static const char *
source_name (TerrainHeightmapFormat format)
{
  switch (format)
    {
    case TERRAIN_HEIGHTMAP_GRAY: return "gray";
    case TERRAIN_HEIGHTMAP_HGT: return "hgt";
    case TERRAIN_HEIGHTMAP_RAW16: return "raw16";
    default: return "auto";
    }
}

static JsonNode *
terrain_editor_heightmap_describe (TerrainDocument *document)
{
  TerrainEditorHeightmap *self = TERRAIN_EDITOR_HEIGHTMAP (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  gfloat min, max;

  terrain_heightfield_get_range (self->field, &min, &max);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, "heightmap");
  json_builder_set_member_name (builder, "source");
  json_builder_add_string_value (builder, source_name (self->format));
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, (gint64) self->size);
  json_builder_set_member_name (builder, "width");
  json_builder_add_int_value (builder, terrain_heightfield_get_width (self->field));
  json_builder_set_member_name (builder, "height");
  json_builder_add_int_value (builder, terrain_heightfield_get_height (self->field));
  json_builder_set_member_name (builder, "spacing");
  json_builder_add_double_value (builder, terrain_heightfield_get_spacing (self->field));
  json_builder_set_member_name (builder, "min_height");
  json_builder_add_double_value (builder, min);
  json_builder_set_member_name (builder, "max_height");
  json_builder_add_double_value (builder, max);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static TerrainImage *
terrain_editor_heightmap_export_heights (TerrainDocument  *document,
                                         GError          **error)
{
  TerrainEditorHeightmap *self = TERRAIN_EDITOR_HEIGHTMAP (document);
  gdouble scale, offset;

  /* The library's choice of encoding spreads the grid's range over the
   * 16 bits. */
  terrain_heightfield_get_auto_encoding (self->field, &scale, &offset);
  return terrain_heightfield_to_image (self->field, scale, offset, error);
}

static GBytes *
terrain_editor_heightmap_save_to_bytes (TerrainDocument  *document,
                                        GError          **error)
{
  g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                       _("A heightmap is only shown here; build an Atlas file from it to edit it"));
  return NULL;
}

static void
terrain_editor_heightmap_finalize (GObject *object)
{
  TerrainEditorHeightmap *self = TERRAIN_EDITOR_HEIGHTMAP (object);

  g_clear_object (&self->field);

  G_OBJECT_CLASS (terrain_editor_heightmap_parent_class)->finalize (object);
}

static void
terrain_editor_heightmap_class_init (TerrainEditorHeightmapClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  object_class->finalize = terrain_editor_heightmap_finalize;
  document_class->describe = terrain_editor_heightmap_describe;
  document_class->export_heights = terrain_editor_heightmap_export_heights;
  document_class->save_to_bytes = terrain_editor_heightmap_save_to_bytes;
}

static void
terrain_editor_heightmap_init (TerrainEditorHeightmap *self)
{
}

/**
 * terrain_editor_heightmap_load:
 * @file: the heightmap's file, for its name
 * @bytes: its contents
 * @error: return location for a #GError
 *
 * Reads a greyscale PNG, an SRTM tile or a raw 16-bit grid with the
 * library's height sources.
 *
 * Returns: (transfer full) (nullable): the document, or %NULL with
 *   %TERRAIN_ERROR_UNKNOWN_FORMAT when @file is no such heightmap, or the
 *   library's error when it cannot be read
 */
TerrainDocument *
terrain_editor_heightmap_load (GFile   *file,
                               GBytes  *bytes,
                               GError **error)
{
  g_autofree char *name = g_file_get_basename (file);
  TerrainHeightmapFormat format = terrain_heightmap_format_detect (bytes, name);
  g_autoptr(TerrainHeightfieldOptions) options = NULL;
  TerrainEditorHeightmap *self;
  TerrainHeightfield *field;

  /* .ter and .tnt are documents of their own; only the plain sources
   * land here. */
  if (format != TERRAIN_HEIGHTMAP_GRAY && format != TERRAIN_HEIGHTMAP_HGT
      && format != TERRAIN_HEIGHTMAP_RAW16)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNKNOWN_FORMAT,
                   _("%s: not a file format libterrain recognises"), name);
      return NULL;
    }

  options = terrain_heightfield_options_new ();
  options->format = format;
  field = terrain_heightfield_new_from_bytes (bytes, name, options, error);
  if (field == NULL)
    return NULL;

  self = g_object_new (TERRAIN_EDITOR_TYPE_HEIGHTMAP, "file", file, NULL);
  self->field = field;
  self->format = format;
  self->size = g_bytes_get_size (bytes);
  return TERRAIN_DOCUMENT (self);
}

TerrainHeightfield *
terrain_editor_heightmap_get_heightfield (TerrainEditorHeightmap *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_HEIGHTMAP (self), NULL);
  return self->field;
}

/* A name for the title bar, in place of the library's format name. */
const char *
terrain_editor_heightmap_get_description (TerrainEditorHeightmap *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_HEIGHTMAP (self), NULL);

  switch (self->format)
    {
    case TERRAIN_HEIGHTMAP_HGT: return _("SRTM heightmap");
    case TERRAIN_HEIGHTMAP_RAW16: return _("Raw 16-bit heightmap");
    default: return _("Greyscale heightmap");
    }
}
