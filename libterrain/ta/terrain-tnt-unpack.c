/* terrain-tnt-unpack.c: a TNT map as a folder of ordinary files, and back, byte-exact
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "terrain-tnt-unpack.h"
#include "terrain-tnt-unpack-private.h"
#include "core/terrain-document.h"
#include "core/terrain-error.h"
#include "core/terrain-image-private.h"
#include "core/terrain-io.h"
#include "core/terrain-reader-private.h"

/*
 * The folder (docs/formats/tnt-sct.md, "Unpacked maps"); names follow kbot's
 * `tnt unpack` (coreprime/kbot, cmd/kbot/tnt/tnt_unpack.go) where it has one:
 *
 *   tilemap.csv        the tile map: one line a tile row, one tile index a column
 *   heightmap.png      16-bit greyscale, one pixel a cell, the height byte
 *   features.csv       the feature words: one line a cell row; a record index,
 *                      empty (0xFFFF), "void" (0xFFFC), "fringe" (0xFFFE) or hex
 *   feature-table.csv  index,name of each feature record
 *   tiles.png          every tile, 16 a row, palette indices in an indexed PNG
 *   minimap.png        the minimap, indexed
 *   metadata.json      everything else: the header, the section layout, the
 *                      gaps between sections, attribute byte +3 when any is
 *                      set, and the feature records as stored (their index
 *                      words and the bytes after each name's NUL)
 *
 * A legacy (0x1020) map has 8-byte cells (tnt-sct.md, "Legacy header"):
 * byte 0 the height, byte 2 a one-byte feature index (0xFC..0xFF empty),
 * the others (byte 6 the per-cell metal) have no editable home and go into
 * the manifest's "attribute_extra", six bytes a cell (bytes 1, 3, 4, 5, 6,
 * 7), when any is set. Its features.csv holds the byte: an index, empty for
 * 0xFF, and 0xFC..0xFE in hex.
 */

#define FORMAT_NAME "libterrain-tnt-unpack"
#define FORMAT_VERSION 1
#define HEADER_SIZE 64
#define RECORD_SIZE 132
#define NAME_SIZE 128
#define W_SEA_LEVEL 0x24
#define LEGACY_CELL 8

/* The bytes of a legacy cell without an editable home. */
static const guint legacy_extra_bytes[] = { 1, 3, 4, 5, 6, 7 };
#define LEGACY_EXTRA G_N_ELEMENTS (legacy_extra_bytes)

static const char * const section_names[] = {
  "header", "tile-map", "attributes", "tiles", "features", "minimap",
};

/* ---- unpack ------------------------------------------------------------- */

static gboolean
save_text (GFile       *folder,
           const char  *name,
           GString     *text,
           GError     **error)
{
  g_autoptr(GFile) file = g_file_get_child (folder, name);
  g_autoptr(GBytes) bytes = g_bytes_new (text->str, text->len);

  return terrain_file_save_bytes (file, bytes, NULL, error);
}

static gboolean
save_bytes (GFile       *folder,
            const char  *name,
            GBytes      *bytes,
            GError     **error)
{
  g_autoptr(GFile) file = g_file_get_child (folder, name);

  return bytes != NULL && terrain_file_save_bytes (file, bytes, NULL, error);
}

static void
csv_field (GString    *out,
           const char *value)
{
  if (strpbrk (value, ",\"\r\n") == NULL)
    {
      g_string_append (out, value);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = value; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static void
feature_word_text (GString *out,
                   guint16  word)
{
  if (word == TERRAIN_TNT_FEATURE_NONE)
    return;
  if (word == TERRAIN_TNT_FEATURE_VOID)
    g_string_append (out, "void");
  else if (word == TERRAIN_TNT_FEATURE_FRINGE)
    g_string_append (out, "fringe");
  else if (word >= TERRAIN_TNT_FEATURE_RESERVED)
    g_string_append_printf (out, "0x%04X", word);
  else
    g_string_append_printf (out, "%u", word);
}

static void
add_base64 (JsonBuilder  *b,
            const char   *member,
            const guint8 *data,
            gsize         size)
{
  g_autofree char *text = g_base64_encode (data, size);

  json_builder_set_member_name (b, member);
  json_builder_add_string_value (b, text);
}

typedef struct
{
  guint   section;
  guint32 offset;
  guint32 size;
} Span;

static gint
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const Span *x = a, *y = b;

  return x->offset < y->offset ? -1 : x->offset > y->offset ? 1
         : (gint) x->section - (gint) y->section;
}

/**
 * terrain_tnt_map_unpack:
 * @self: an unedited #TerrainTntMap (version 0x2000 or the legacy 0x1020)
 * @palette: (nullable): the palette the tiles index, written into the
 *   indexed PNGs so that they show the map's colours (%NULL: a grey ramp)
 * @folder: the folder to write (created when missing; files in it of the
 *   same names are replaced, each atomically)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Writes the map as a folder a person edits with ordinary tools
 * (docs/formats/tnt-sct.md, "Unpacked maps"): `tilemap.csv`,
 * `heightmap.png`, `features.csv`, `feature-table.csv`, `tiles.png`,
 * `minimap.png`, and `metadata.json` with every byte that has no other
 * home. [func@Terrain.tnt_pack_folder] rebuilds the file from it, byte for
 * byte when nothing was edited.
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_INVALID_VALUE when
 *   sections overlap, or the error of writing a file
 */
gboolean
terrain_tnt_map_unpack (TerrainTntMap  *self,
                        TerrainPalette *palette,
                        GFile          *folder,
                        GCancellable   *cancellable,
                        GError        **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (Span));
  g_autoptr(TerrainImage) heights = NULL;
  guint8 rgb[768];
  const guint8 *data;
  gsize size, end = 0;
  guint width, height, columns, rows, n_tiles, n_features;
  gboolean any_extra = FALSE;
  gboolean legacy;
  const guint8 *cells;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (folder), FALSE);

  legacy = terrain_tnt_map_get_version (self) == TERRAIN_TNT_VERSION_LEGACY;
  bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (self), error);
  if (bytes == NULL)
    return FALSE;
  data = g_bytes_get_data (bytes, &size);
  width = terrain_tnt_map_get_width (self);
  height = terrain_tnt_map_get_height (self);
  columns = terrain_tnt_map_get_tile_columns (self);
  rows = terrain_tnt_map_get_tile_rows (self);
  n_tiles = terrain_tnt_map_get_n_tiles (self);
  n_features = terrain_tnt_map_get_n_features (self);
  {
    gsize offset = 0;

    terrain_tnt_map_get_section_span (self, TERRAIN_TNT_SECTION_ATTRIBUTES, &offset, NULL);
    cells = data + offset;
  }
  for (guint i = 0; i < 256; i++)
    {
      if (palette != NULL)
        terrain_palette_get_color (palette, (guint8) i, &rgb[3 * i], &rgb[3 * i + 1],
                                   &rgb[3 * i + 2]);
      else
        rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = (guint8) i;
    }

  for (guint s = TERRAIN_TNT_SECTION_HEADER; s <= TERRAIN_TNT_SECTION_MINIMAP; s++)
    {
      Span span = { s, 0, 0 };
      gsize offset, length;

      if (!terrain_tnt_map_get_section_span (self, s, &offset, &length) || length == 0)
        continue;
      span.offset = (guint32) offset;
      span.size = (guint32) length;
      g_array_append_val (spans, span);
    }
  g_array_sort (spans, compare_spans);

  if (!g_file_make_directory_with_parents (folder, cancellable, error))
    {
      if (!g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_EXISTS))
        return FALSE;
      g_clear_error (error);
    }

  /* metadata.json */
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, FORMAT_NAME);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, FORMAT_VERSION);
  json_builder_set_member_name (b, "size");
  json_builder_add_int_value (b, (gint64) size);
  json_builder_set_member_name (b, "width");
  json_builder_add_int_value (b, width);
  json_builder_set_member_name (b, "height");
  json_builder_add_int_value (b, height);
  json_builder_set_member_name (b, "tiles");
  json_builder_add_int_value (b, n_tiles);
  json_builder_set_member_name (b, "features");
  json_builder_add_int_value (b, n_features);
  json_builder_set_member_name (b, "sea_level");
  json_builder_add_int_value (b, terrain_tnt_map_get_sea_level (self));
  add_base64 (b, "header", data, HEADER_SIZE);
  json_builder_set_member_name (b, "sections");
  json_builder_begin_array (b);
  for (guint i = 0; i < spans->len; i++)
    {
      const Span *span = &g_array_index (spans, Span, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, section_names[span->section]);
      json_builder_set_member_name (b, "offset");
      json_builder_add_int_value (b, span->offset);
      json_builder_set_member_name (b, "size");
      json_builder_add_int_value (b, span->size);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "gaps");
  json_builder_begin_array (b);
  for (guint i = 0; i <= spans->len; i++)
    {
      const Span *span = i < spans->len ? &g_array_index (spans, Span, i) : NULL;
      gsize start = span != NULL ? span->offset : size;

      if (start < end)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TNT unpack: %s: at byte offset %" G_GSIZE_FORMAT " overlaps the section "
                       "before it (ending at %" G_GSIZE_FORMAT "); such a map does not unpack",
                       section_names[span->section], start, end);
          json_builder_end_array (b);
          json_builder_end_object (b);
          return FALSE;
        }
      if (start > end)
        {
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "offset");
          json_builder_add_int_value (b, (gint64) end);
          add_base64 (b, "bytes", data + end, start - end);
          json_builder_end_object (b);
        }
      if (span != NULL)
        end = (gsize) span->offset + span->size;
    }
  json_builder_end_array (b);

  {
    gsize per_cell = legacy ? LEGACY_EXTRA : 1;
    g_autofree guint8 *extra = g_malloc ((gsize) width * height * per_cell + 1);

    for (gsize i = 0; i < (gsize) width * height; i++)
      for (gsize k = 0; k < per_cell; k++)
        {
          extra[i * per_cell + k] = legacy ? cells[LEGACY_CELL * i + legacy_extra_bytes[k]]
                                           : terrain_tnt_map_get_cell_extra (self,
                                                                             (guint) (i % width),
                                                                             (guint) (i / width));
          any_extra = any_extra || extra[i * per_cell + k] != 0;
        }
    if (any_extra)
      add_base64 (b, "attribute_extra", extra, (gsize) width * height * per_cell);
  }
  if (!any_extra)
    {
      json_builder_set_member_name (b, "attribute_extra");
      json_builder_add_null_value (b);
    }
  {
    gsize offset = 0, length = 0;

    terrain_tnt_map_get_section_span (self, TERRAIN_TNT_SECTION_FEATURES, &offset, &length);
    add_base64 (b, "feature_records", data + offset, length);
  }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  {
    g_autofree char *json = json_generator_to_data (generator, NULL);

    g_string_assign (text, json);
    g_string_append_c (text, '\n');
    if (!save_text (folder, TERRAIN_TNT_UNPACK_MANIFEST, text, error))
      return FALSE;
  }

  /* tilemap.csv */
  g_string_truncate (text, 0);
  for (guint r = 0; r < rows; r++)
    for (guint c = 0; c < columns; c++)
      g_string_append_printf (text, "%u%c", terrain_tnt_map_get_tile_index (self, c, r),
                              c + 1 < columns ? ',' : '\n');
  if (!save_text (folder, "tilemap.csv", text, error))
    return FALSE;

  /* features.csv */
  g_string_truncate (text, 0);
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        if (!legacy)
          feature_word_text (text, terrain_tnt_map_get_cell_feature (self, x, y));
        else
          {
            guint8 byte = cells[LEGACY_CELL * ((gsize) y * width + x) + 2];

            if (byte < 0xFC)
              g_string_append_printf (text, "%u", byte);
            else if (byte != 0xFF)
              g_string_append_printf (text, "0x%02X", byte);
          }
        g_string_append_c (text, x + 1 < width ? ',' : '\n');
      }
  if (!save_text (folder, "features.csv", text, error))
    return FALSE;

  /* feature-table.csv */
  g_string_assign (text, "index,name\n");
  for (guint i = 0; i < n_features; i++)
    {
      g_string_append_printf (text, "%u,", i);
      csv_field (text, terrain_tnt_map_get_feature_name (self, i));
      g_string_append_c (text, '\n');
    }
  if (!save_text (folder, "feature-table.csv", text, error))
    return FALSE;

  /* heightmap.png */
  heights = terrain_image_new (TERRAIN_IMAGE_GRAY16, MAX (width, 1), MAX (height, 1), error);
  if (heights == NULL)
    return FALSE;
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        guint16 v = terrain_tnt_map_get_cell_height (self, x, y);

        memcpy (terrain_image_get_data (heights, NULL) + y * terrain_image_get_stride (heights) +
                2 * x, &v, 2);
      }
  {
    g_autoptr(GBytes) png = terrain_image_save_png_bytes (heights, error);

    if (!save_bytes (folder, "heightmap.png", png, error))
      return FALSE;
  }

  /* tiles.png */
  if (n_tiles > 0)
    {
      guint sheet_rows = (n_tiles + TERRAIN_TNT_UNPACK_SHEET_COLUMNS - 1) /
                         TERRAIN_TNT_UNPACK_SHEET_COLUMNS;
      g_autoptr(TerrainImage) sheet =
        terrain_image_new (TERRAIN_IMAGE_GRAY8, TERRAIN_TNT_UNPACK_SHEET_COLUMNS * 32,
                           sheet_rows * 32, error);
      g_autoptr(GBytes) png = NULL;

      if (sheet == NULL)
        return FALSE;
      for (guint t = 0; t < n_tiles; t++)
        {
          const guint8 *tile = terrain_tnt_map_get_tile (self, t);
          guint8 *dst = terrain_image_get_data (sheet, NULL) +
                        (gsize) (t / TERRAIN_TNT_UNPACK_SHEET_COLUMNS) * 32 *
                        terrain_image_get_stride (sheet) +
                        (t % TERRAIN_TNT_UNPACK_SHEET_COLUMNS) * 32;

          for (guint y = 0; y < 32; y++)
            memcpy (dst + y * terrain_image_get_stride (sheet), tile + 32 * y, 32);
        }
      png = terrain_image_save_indexed_png_bytes (sheet, rgb, error);
      if (!save_bytes (folder, "tiles.png", png, error))
        return FALSE;
    }

  /* minimap.png */
  if (terrain_tnt_map_get_section_span (self, TERRAIN_TNT_SECTION_MINIMAP, NULL, NULL))
    {
      guint mw = 0, mh = 0;
      const guint8 *pixels = terrain_tnt_map_get_minimap (self, &mw, &mh);

      if (pixels != NULL && mw > 0 && mh > 0)
        {
          g_autoptr(TerrainImage) minimap = terrain_image_new (TERRAIN_IMAGE_GRAY8, mw, mh, error);
          g_autoptr(GBytes) png = NULL;

          if (minimap == NULL)
            return FALSE;
          memcpy (terrain_image_get_data (minimap, NULL), pixels, (gsize) mw * mh);
          png = terrain_image_save_indexed_png_bytes (minimap, rgb, error);
          if (!save_bytes (folder, "minimap.png", png, error))
            return FALSE;
        }
    }
  return TRUE;
}

/* ---- pack --------------------------------------------------------------- */

typedef struct
{
  GFile               *folder;      /* NULL: members */
  GHashTable          *members;
  const TerrainLimits *limits;
  GCancellable        *cancellable;
} Packer;

static GBytes *
read_member (Packer      *p,
             const char  *name,
             gsize        max,
             GError     **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;

  if (p->folder == NULL)
    {
      GBytes *member = g_hash_table_lookup (p->members, name);

      if (member == NULL)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TNT pack: %s is missing", name);
          return NULL;
        }
      bytes = g_bytes_ref (member);
    }
  else
    {
      file = g_file_get_child (p->folder, name);
      bytes = terrain_file_load_bytes (file, p->cancellable, error);
      if (bytes == NULL)
        return NULL;
    }
  if (g_bytes_get_size (bytes) > max)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "TNT pack: %s: %" G_GSIZE_FORMAT " bytes, more than the %" G_GSIZE_FORMAT
                   " it can need", name, g_bytes_get_size (bytes), max);
      return NULL;
    }
  return g_steal_pointer (&bytes);
}

/* A CSV reader over one file: fields separated by commas, records by line
 * breaks (LF or CRLF), fields quoted with '"' when they hold those. */
typedef struct
{
  const char *name;
  const char *data;
  gsize       size;
  gsize       pos;
  guint       line;
} Csv;

static gboolean
csv_at_end (Csv *csv)
{
  return csv->pos >= csv->size;
}

/* Reads one field into @out; *@last is TRUE when it ended its record. */
static gboolean
csv_next (Csv      *csv,
          GString  *out,
          gboolean *last,
          GError  **error)
{
  gsize start = csv->pos;

  g_string_truncate (out, 0);
  if (csv->pos < csv->size && csv->data[csv->pos] == '"')
    {
      csv->pos++;
      for (;;)
        {
          if (csv->pos >= csv->size)
            {
              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                           "TNT pack: %s: line %u: the quote opened at byte offset %"
                           G_GSIZE_FORMAT " is not closed", csv->name, csv->line, start);
              return FALSE;
            }
          if (csv->data[csv->pos] == '"')
            {
              if (csv->pos + 1 < csv->size && csv->data[csv->pos + 1] == '"')
                {
                  g_string_append_c (out, '"');
                  csv->pos += 2;
                  continue;
                }
              csv->pos++;
              break;
            }
          g_string_append_c (out, csv->data[csv->pos++]);
        }
    }
  else
    while (csv->pos < csv->size && csv->data[csv->pos] != ',' && csv->data[csv->pos] != '\n' &&
           csv->data[csv->pos] != '\r')
      g_string_append_c (out, csv->data[csv->pos++]);

  if (csv->pos < csv->size && csv->data[csv->pos] == ',')
    {
      csv->pos++;
      *last = FALSE;
      return TRUE;
    }
  if (csv->pos < csv->size && csv->data[csv->pos] == '\r')
    csv->pos++;
  if (csv->pos < csv->size && csv->data[csv->pos] == '\n')
    csv->pos++;
  else if (csv->pos < csv->size)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT pack: %s: line %u: stray text after a quoted field at byte offset %"
                   G_GSIZE_FORMAT, csv->name, csv->line, csv->pos);
      return FALSE;
    }
  csv->line++;
  *last = TRUE;
  return TRUE;
}

/* A grid of @columns x @rows values, each parsed by @parse into @out[]. */
typedef gboolean (*ParseFunc) (const char *text,
                               guint16    *value);

static gboolean
read_grid (Csv        *csv,
           guint       columns,
           guint       rows,
           ParseFunc   parse,
           const char *what,
           guint16    *out,
           GError    **error)
{
  g_autoptr(GString) field = g_string_new (NULL);

  for (guint r = 0; r < rows; r++)
    for (guint c = 0; c < columns; c++)
      {
        gsize at = csv->pos;
        guint line = csv->line;
        gboolean last;

        if (csv_at_end (csv))
          {
            g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                         "TNT pack: %s: ends at line %u (byte offset %" G_GSIZE_FORMAT "); "
                         "%u rows of %u values are needed", csv->name, line, at, rows, columns);
            return FALSE;
          }
        if (!csv_next (csv, field, &last, error))
          return FALSE;
        if (!parse (field->str, &out[(gsize) r * columns + c]))
          {
            g_autofree char *shown = g_utf8_make_valid (field->str, (gssize) field->len);

            g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                         "TNT pack: %s: line %u, column %u (byte offset %" G_GSIZE_FORMAT "): "
                         "'%s' is not %s", csv->name, line, c + 1, at, shown, what);
            return FALSE;
          }
        if (last != (c + 1 == columns))
          {
            g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                         "TNT pack: %s: line %u has %s than %u values", csv->name, line,
                         last ? "fewer" : "more", columns);
            return FALSE;
          }
      }
  if (!csv_at_end (csv))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT pack: %s: text after the %u rows at line %u (byte offset %" G_GSIZE_FORMAT
                   ")", csv->name, rows, csv->line, csv->pos);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_u16 (const char *text,
           guint16    *value)
{
  guint64 v;

  if (!g_ascii_string_to_unsigned (text, 10, 0, 0xFFFF, &v, NULL))
    {
      if (!g_str_has_prefix (text, "0x") && !g_str_has_prefix (text, "0X"))
        return FALSE;
      if (!g_ascii_string_to_unsigned (text + 2, 16, 0, 0xFFFF, &v, NULL))
        return FALSE;
    }
  *value = (guint16) v;
  return TRUE;
}

static gboolean
parse_feature_word (const char *text,
                    guint16    *value)
{
  if (*text == '\0')
    *value = TERRAIN_TNT_FEATURE_NONE;
  else if (g_ascii_strcasecmp (text, "void") == 0)
    *value = TERRAIN_TNT_FEATURE_VOID;
  else if (g_ascii_strcasecmp (text, "fringe") == 0)
    *value = TERRAIN_TNT_FEATURE_FRINGE;
  else
    return parse_u16 (text, value);
  return TRUE;
}

static gboolean
get_int (JsonObject  *object,
         const char  *member,
         gint64       max,
         gint64      *value,
         GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_INT64 ||
      json_node_get_int (node) < 0 || json_node_get_int (node) > max)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT pack: " TERRAIN_TNT_UNPACK_MANIFEST ": \"%s\" is missing or not a "
                   "number from 0 to %" G_GINT64_FORMAT, member, max);
      return FALSE;
    }
  *value = json_node_get_int (node);
  return TRUE;
}

static guint8 *
get_base64 (JsonObject  *object,
            const char  *member,
            gsize        max,
            gsize       *size,
            GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);
  const char *text = node != NULL && json_node_get_value_type (node) == G_TYPE_STRING
                     ? json_node_get_string (node) : NULL;

  /* Base64 holds 3 bytes in 4 characters. */
  if (text == NULL || strlen (text) / 4 * 3 > max + 2)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT pack: " TERRAIN_TNT_UNPACK_MANIFEST ": \"%s\" is missing, not base64 "
                   "text or longer than %" G_GSIZE_FORMAT " bytes", member, max);
      return NULL;
    }
  return g_base64_decode (text, size);
}

static TerrainImage *
read_png (Packer      *p,
          const char  *name,
          gboolean     indices,
          guint        width,
          guint        height,
          gsize        max,
          GError     **error)
{
  g_autoptr(GBytes) bytes = read_member (p, name, max, error);
  g_autoptr(TerrainImage) image = NULL;

  if (bytes == NULL)
    return NULL;
  image = indices ? terrain_image_load_indexed_png_bytes (bytes, p->limits, error)
                  : terrain_image_load_png_bytes_with_limits (bytes, p->limits, error);
  if (image == NULL)
    {
      g_prefix_error (error, "TNT pack: %s: ", name);
      return NULL;
    }
  if ((width != 0 && terrain_image_get_width (image) != width) ||
      (height != 0 && terrain_image_get_height (image) != height))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT pack: %s: %ux%u pixels, %ux%u expected", name,
                   terrain_image_get_width (image), terrain_image_get_height (image),
                   width != 0 ? width : terrain_image_get_width (image),
                   height != 0 ? height : terrain_image_get_height (image));
      return NULL;
    }
  return g_steal_pointer (&image);
}

static gboolean
pack_feature_table (Packer   *p,
                    guint8   *records,
                    guint     n_features,
                    gsize     max,
                    GError  **error)
{
  g_autoptr(GBytes) bytes = read_member (p, "feature-table.csv", max, error);
  g_autoptr(GString) field = g_string_new (NULL);
  Csv csv = { "feature-table.csv", NULL, 0, 0, 1 };
  gboolean last;

  if (bytes == NULL)
    return FALSE;
  csv.data = g_bytes_get_data (bytes, &csv.size);
  /* The heading line. */
  do
    if (!csv_next (&csv, field, &last, error))
      return FALSE;
  while (!last && !csv_at_end (&csv));

  for (guint i = 0; i < n_features; i++)
    {
      guint line = csv.line;
      gsize at = csv.pos;
      guint16 index;
      guint8 *name = records + (gsize) i * RECORD_SIZE + 4;

      if (csv_at_end (&csv) || !csv_next (&csv, field, &last, error) || last ||
          !parse_u16 (field->str, &index) || index != i)
        {
          if (error != NULL && *error == NULL)
            g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                         "TNT pack: feature-table.csv: line %u (byte offset %" G_GSIZE_FORMAT
                         "): \"%u,NAME\" expected; the table has %u records and pack does not "
                         "add, remove or reorder them", line, at, i, n_features);
          return FALSE;
        }
      if (!csv_next (&csv, field, &last, error))
        return FALSE;
      if (!last || field->len >= NAME_SIZE || memchr (field->str, '\0', field->len) != NULL)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TNT pack: feature-table.csv: line %u (byte offset %" G_GSIZE_FORMAT "): "
                       "a name of at most %d bytes, and nothing after it, expected", line, at,
                       NAME_SIZE - 1);
          return FALSE;
        }
      /* An unchanged name keeps the bytes after its NUL; a new one is padded with zeros. */
      if (strncmp ((const char *) name, field->str, NAME_SIZE) != 0 ||
          memchr (name, '\0', NAME_SIZE) == NULL)
        {
          memset (name, 0, NAME_SIZE);
          memcpy (name, field->str, field->len);
        }
    }
  if (!csv_at_end (&csv))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT pack: feature-table.csv: more than the %u records at line %u; pack does "
                   "not add records", n_features, csv.line);
      return FALSE;
    }
  return TRUE;
}

/**
 * terrain_tnt_pack_folder:
 * @folder: a folder [method@Terrain.TntMap.unpack] wrote, edited or not
 * @limits: (nullable): bounds on what is read (%NULL for the defaults)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Rebuilds a TNT file from an unpacked folder (docs/formats/tnt-sct.md,
 * "Unpacked maps"): the header, the gaps and the layout from
 * `metadata.json`, each section from its file. When nothing was edited the
 * result is the unpacked file byte for byte; an edited value changes only
 * its bytes. The folder's shape (cells, tiles, feature records, minimap
 * size) must be the one the manifest gives: pack does not resize.
 *
 * Returns: (transfer full) (nullable): the file's bytes, checked by loading
 *   them, or %NULL with an error naming the file, line or byte offset
 */
static GBytes *
pack (Packer  *packer,
      GError **error);

GBytes *
terrain_tnt_pack_folder (GFile                *folder,
                         const TerrainLimits  *limits,
                         GCancellable         *cancellable,
                         GError              **error)
{
  Packer p = { folder, NULL, limits != NULL ? limits : terrain_limits_get_default (),
               cancellable };

  g_return_val_if_fail (G_IS_FILE (folder), NULL);

  return pack (&p, error);
}

/* terrain-tnt-unpack-private.h */
GBytes *
terrain_tnt_pack_members (GHashTable           *members,
                          const TerrainLimits  *limits,
                          GError              **error)
{
  Packer p = { NULL, members, limits != NULL ? limits : terrain_limits_get_default (), NULL };

  g_return_val_if_fail (members != NULL, NULL);

  return pack (&p, error);
}

static GBytes *
pack (Packer  *packer,
      GError **error)
{
  Packer p = *packer;
  g_autoptr(GBytes) manifest_bytes = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GByteArray) out = NULL;
  g_autoptr(GBytes) result = NULL;
  g_autoptr(TerrainTntMap) check = NULL;
  g_autofree guint8 *header = NULL, *records = NULL, *extra = NULL;
  g_autofree guint16 *grid = NULL;
  JsonObject *root;
  JsonArray *sections, *gaps;
  gint64 size, width, height, n_tiles, n_features, sea_level, version;
  gsize header_size = 0, records_size = 0, extra_size = 0, max;
  gsize offsets[TERRAIN_TNT_SECTION_MINIMAP + 1] = { 0 };
  gsize sizes[TERRAIN_TNT_SECTION_MINIMAP + 1] = { 0 };
  gboolean present[TERRAIN_TNT_SECTION_MINIMAP + 1] = { FALSE };
  guint8 *data;
  guint columns, rows;
  gboolean legacy;
  gsize cell_size, extra_per_cell;

  max = p.limits->max_allocation;
  manifest_bytes = read_member (&p, TERRAIN_TNT_UNPACK_MANIFEST, max, error);
  if (manifest_bytes == NULL)
    return NULL;
  {
    g_autoptr(GError) json_error = NULL;

    /* An empty GBytes has no data pointer; the parser wants one. */
    const char *text = g_bytes_get_size (manifest_bytes) > 0
                       ? g_bytes_get_data (manifest_bytes, NULL) : "";

    if (!json_parser_load_from_data (parser, text, (gssize) g_bytes_get_size (manifest_bytes),
                                     &json_error))
      {
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                     "TNT pack: " TERRAIN_TNT_UNPACK_MANIFEST ": not JSON: %s",
                     json_error->message);
        return NULL;
      }
  }
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)) ||
      g_strcmp0 (json_object_get_string_member_with_default (
                   json_node_get_object (json_parser_get_root (parser)), "format", ""),
                 FORMAT_NAME) != 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                   "TNT pack: " TERRAIN_TNT_UNPACK_MANIFEST ": not a manifest of an unpacked "
                   "map (\"format\": \"" FORMAT_NAME "\" missing)");
      return NULL;
    }
  root = json_node_get_object (json_parser_get_root (parser));
  if (!get_int (root, "version", FORMAT_VERSION, &version, error) ||
      !get_int (root, "size", (gint64) max, &size, error) ||
      !get_int (root, "width", p.limits->max_image_side, &width, error) ||
      !get_int (root, "height", p.limits->max_image_side, &height, error) ||
      !get_int (root, "tiles", 0xFFFF, &n_tiles, error) ||
      !get_int (root, "features", TERRAIN_TNT_FEATURE_RESERVED, &n_features, error) ||
      !get_int (root, "sea_level", G_MAXUINT32, &sea_level, error))
    return NULL;
  /* The one sea-level rule, as every setter applies it. */
  if (!terrain_tnt_map_check_sea_level ((guint32) sea_level, error))
    {
      g_prefix_error (error, "TNT pack: " TERRAIN_TNT_UNPACK_MANIFEST ": ");
      return NULL;
    }
  columns = (guint) width / 2;
  rows = (guint) height / 2;
  header = get_base64 (root, "header", HEADER_SIZE, &header_size, error);
  if (header == NULL)
    return NULL;
  records = get_base64 (root, "feature_records", (gsize) size, &records_size, error);
  if (records == NULL)
    return NULL;
  legacy = header_size == HEADER_SIZE && terrain_get_le32 (header) == TERRAIN_TNT_VERSION_LEGACY;
  cell_size = legacy ? LEGACY_CELL : 4;
  extra_per_cell = legacy ? LEGACY_EXTRA : 1;
  if (header_size != HEADER_SIZE || records_size != (gsize) n_features * RECORD_SIZE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT pack: " TERRAIN_TNT_UNPACK_MANIFEST ": a %" G_GSIZE_FORMAT "-byte header "
                   "and %" G_GSIZE_FORMAT " bytes of feature records, %d and %" G_GINT64_FORMAT
                   " expected", header_size, records_size, HEADER_SIZE,
                   n_features * RECORD_SIZE);
      return NULL;
    }
  if (json_object_has_member (root, "attribute_extra") &&
      !json_object_get_null_member (root, "attribute_extra"))
    {
      extra = get_base64 (root, "attribute_extra", (gsize) width * height * extra_per_cell,
                          &extra_size, error);
      if (extra == NULL)
        return NULL;
      if (extra_size != (gsize) width * height * extra_per_cell)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TNT pack: " TERRAIN_TNT_UNPACK_MANIFEST ": \"attribute_extra\" holds %"
                       G_GSIZE_FORMAT " bytes for %" G_GINT64_FORMAT " cells (%" G_GSIZE_FORMAT
                       " a cell)", extra_size, width * height, extra_per_cell);
          return NULL;
        }
    }

  out = g_byte_array_sized_new ((guint) size);
  g_byte_array_set_size (out, (guint) size);
  data = out->data;
  memset (data, 0, (gsize) size);

  /* The layout: every section inside the file, none overlapping another. */
  sections = json_object_get_array_member (root, "sections");
  gaps = json_object_get_array_member (root, "gaps");
  if (sections == NULL || gaps == NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TNT pack: " TERRAIN_TNT_UNPACK_MANIFEST ": \"sections\" or \"gaps\" missing");
      return NULL;
    }
  {
    g_autofree guint8 *used = g_malloc0 ((gsize) size + 1);
    guint n = json_array_get_length (sections) + json_array_get_length (gaps);

    for (guint i = 0; i < n; i++)
      {
        gboolean is_gap = i >= json_array_get_length (sections);
        JsonNode *node = is_gap ? json_array_get_element (gaps, i - json_array_get_length (sections))
                                : json_array_get_element (sections, i);
        JsonObject *entry = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
        gint64 offset, length;
        g_autofree guint8 *gap = NULL;
        gsize gap_size = 0;
        guint s = 0;

        if (entry == NULL || !get_int (entry, "offset", size, &offset, error))
          {
            if (error != NULL && *error == NULL)
              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                           "TNT pack: " TERRAIN_TNT_UNPACK_MANIFEST ": entry %u of \"%s\" is "
                           "not an object", i, is_gap ? "gaps" : "sections");
            return NULL;
          }
        if (is_gap)
          {
            gap = get_base64 (entry, "bytes", (gsize) (size - offset), &gap_size, error);
            if (gap == NULL)
              return NULL;
            length = (gint64) gap_size;
          }
        else
          {
            const char *name = json_object_get_string_member_with_default (entry, "name", "");

            if (!get_int (entry, "size", size - offset, &length, error))
              return NULL;
            for (s = 0; s < G_N_ELEMENTS (section_names); s++)
              if (g_str_equal (name, section_names[s]))
                break;
            if (s == G_N_ELEMENTS (section_names) || present[s])
              {
                g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                             "TNT pack: " TERRAIN_TNT_UNPACK_MANIFEST ": section \"%s\" is "
                             "unknown or given twice", name);
                return NULL;
              }
            present[s] = TRUE;
            offsets[s] = (gsize) offset;
            sizes[s] = (gsize) length;
          }
        if (offset + length > size)
          {
            g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                         "TNT pack: " TERRAIN_TNT_UNPACK_MANIFEST ": %s at byte offset %"
                         G_GINT64_FORMAT " runs past the %" G_GINT64_FORMAT "-byte file",
                         is_gap ? "a gap" : section_names[s], offset, size);
            return NULL;
          }
        for (gint64 k = offset; k < offset + length; k++)
          if (used[k]++)
            {
              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                           "TNT pack: " TERRAIN_TNT_UNPACK_MANIFEST ": byte offset %"
                           G_GINT64_FORMAT " belongs to two sections or gaps", k);
              return NULL;
            }
        if (gap != NULL)
          memcpy (data + offset, gap, gap_size);
      }
  }
  {
    const gsize expected[] = {
      HEADER_SIZE, (gsize) columns * rows * 2, (gsize) width * height * cell_size,
      (gsize) n_tiles * 1024, (gsize) n_features * RECORD_SIZE, 0,
    };

    for (guint s = 0; s < TERRAIN_TNT_SECTION_MINIMAP; s++)
      if (sizes[s] != expected[s] || (s == TERRAIN_TNT_SECTION_HEADER && offsets[s] != 0))
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TNT pack: " TERRAIN_TNT_UNPACK_MANIFEST ": section \"%s\" has %"
                       G_GSIZE_FORMAT " bytes at offset %" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT
                       " expected for the map's shape", section_names[s], sizes[s], offsets[s],
                       expected[s]);
          return NULL;
        }
  }

  /* Header, with the sea level of the manifest. */
  memcpy (data, header, HEADER_SIZE);
  {
    guint32 word = GUINT32_TO_LE ((guint32) sea_level), stored;

    memcpy (&stored, data + W_SEA_LEVEL, 4);
    if (GUINT32_FROM_LE (stored) != (guint32) sea_level)
      memcpy (data + W_SEA_LEVEL, &word, 4);
  }

  /* Tile map. */
  grid = g_new (guint16, MAX ((gsize) width * height, (gsize) columns * rows) + 1);
  {
    g_autoptr(GBytes) bytes = read_member (&p, "tilemap.csv", (gsize) columns * rows * 7 + 16,
                                           error);
    Csv csv = { "tilemap.csv", NULL, 0, 0, 1 };

    if (bytes == NULL)
      return NULL;
    csv.data = g_bytes_get_data (bytes, &csv.size);
    if (!read_grid (&csv, columns, rows, parse_u16, "a tile index (0 to 65535)", grid, error))
      return NULL;
    for (gsize i = 0; i < (gsize) columns * rows; i++)
      {
        data[offsets[TERRAIN_TNT_SECTION_TILE_MAP] + 2 * i] = grid[i] & 0xff;
        data[offsets[TERRAIN_TNT_SECTION_TILE_MAP] + 2 * i + 1] = grid[i] >> 8;
      }
  }

  /* Attributes: features, heights, byte +3. */
  {
    g_autoptr(GBytes) bytes = read_member (&p, "features.csv", (gsize) width * height * 8 + 16,
                                           error);
    Csv csv = { "features.csv", NULL, 0, 0, 1 };
    g_autoptr(TerrainImage) heights = NULL;
    guint8 *cells = data + offsets[TERRAIN_TNT_SECTION_ATTRIBUTES];

    if (bytes == NULL)
      return NULL;
    csv.data = g_bytes_get_data (bytes, &csv.size);
    if (!read_grid (&csv, (guint) width, (guint) height, parse_feature_word,
                    "a feature word (a record index, empty, void, fringe or 0xHHHH)", grid,
                    error))
      return NULL;
    heights = read_png (&p, "heightmap.png", FALSE, MAX ((guint) width, 1),
                        MAX ((guint) height, 1), max, error);
    if (heights == NULL)
      return NULL;
    if (terrain_image_get_format (heights) != TERRAIN_IMAGE_GRAY16 &&
        terrain_image_get_format (heights) != TERRAIN_IMAGE_GRAY8)
      {
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                     "TNT pack: heightmap.png: a greyscale PNG is needed");
        return NULL;
      }
    for (guint y = 0; y < (guint) height; y++)
      for (guint x = 0; x < (guint) width; x++)
        {
          const guint8 *px = terrain_image_get_data (heights, NULL) +
                             y * terrain_image_get_stride (heights);
          guint16 h;
          gsize i = (gsize) y * (gsize) width + x;

          if (terrain_image_get_format (heights) == TERRAIN_IMAGE_GRAY16)
            memcpy (&h, px + 2 * x, 2);
          else
            h = px[x];
          if (h > 255)
            {
              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                           "TNT pack: heightmap.png: pixel (%u, %u) is %u; heights go from 0 "
                           "to 255", x, y, h);
              return NULL;
            }
          if (!legacy)
            {
              cells[4 * i] = (guint8) h;
              cells[4 * i + 1] = grid[i] & 0xff;
              cells[4 * i + 2] = grid[i] >> 8;
              cells[4 * i + 3] = extra != NULL ? extra[i] : 0;
              continue;
            }
          /* Legacy: the one-byte index; empty is 0xFF unless written in hex. */
          if (grid[i] != TERRAIN_TNT_FEATURE_NONE && grid[i] > 0xFF)
            {
              g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                           "TNT pack: features.csv: line %u, column %u: a legacy (0x1020) map "
                           "holds a feature byte (0 to 251, empty, or 0xFC to 0xFF), not 0x%04X",
                           y + 1, x + 1, grid[i]);
              return NULL;
            }
          cells[LEGACY_CELL * i] = (guint8) h;
          cells[LEGACY_CELL * i + 2] = grid[i] == TERRAIN_TNT_FEATURE_NONE ? 0xFF
                                                                             : (guint8) grid[i];
          for (guint k = 0; k < LEGACY_EXTRA; k++)
            cells[LEGACY_CELL * i + legacy_extra_bytes[k]] =
              extra != NULL ? extra[LEGACY_EXTRA * i + k] : 0;
        }
  }

  /* Tiles. */
  if (n_tiles > 0)
    {
      guint sheet_rows = ((guint) n_tiles + TERRAIN_TNT_UNPACK_SHEET_COLUMNS - 1) /
                         TERRAIN_TNT_UNPACK_SHEET_COLUMNS;
      g_autoptr(TerrainImage) sheet = read_png (&p, "tiles.png", TRUE,
                                                TERRAIN_TNT_UNPACK_SHEET_COLUMNS * 32,
                                                sheet_rows * 32, max, error);

      if (sheet == NULL)
        return NULL;
      for (guint t = 0; t < (guint) n_tiles; t++)
        {
          const guint8 *src = terrain_image_get_data (sheet, NULL) +
                              (gsize) (t / TERRAIN_TNT_UNPACK_SHEET_COLUMNS) * 32 *
                              terrain_image_get_stride (sheet) +
                              (t % TERRAIN_TNT_UNPACK_SHEET_COLUMNS) * 32;

          for (guint y = 0; y < 32; y++)
            memcpy (data + offsets[TERRAIN_TNT_SECTION_TILES] + (gsize) t * 1024 + 32 * y,
                    src + y * terrain_image_get_stride (sheet), 32);
        }
    }

  /* Feature records. */
  if (!pack_feature_table (&p, records, (guint) n_features, (gsize) n_features * 140 + 4096,
                           error))
    return NULL;
  memcpy (data + offsets[TERRAIN_TNT_SECTION_FEATURES], records, records_size);

  /* Minimap: its 8-byte size, then the pixels, as large as the section. */
  if (present[TERRAIN_TNT_SECTION_MINIMAP] && sizes[TERRAIN_TNT_SECTION_MINIMAP] >= 8)
    {
      g_autoptr(TerrainImage) minimap = read_png (&p, "minimap.png", TRUE, 0, 0, max, error);
      guint mw, mh;
      guint8 *dst = data + offsets[TERRAIN_TNT_SECTION_MINIMAP];

      if (minimap == NULL)
        return NULL;
      mw = terrain_image_get_width (minimap);
      mh = terrain_image_get_height (minimap);
      if (8 + (gsize) mw * mh != sizes[TERRAIN_TNT_SECTION_MINIMAP])
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TNT pack: minimap.png: %ux%u pixels do not fill the %" G_GSIZE_FORMAT
                       "-byte minimap section; pack does not resize it", mw, mh,
                       sizes[TERRAIN_TNT_SECTION_MINIMAP]);
          return NULL;
        }
      {
        guint32 words[2] = { GUINT32_TO_LE (mw), GUINT32_TO_LE (mh) };

        memcpy (dst, words, 8);
      }
      for (guint y = 0; y < mh; y++)
        memcpy (dst + 8 + (gsize) y * mw,
                terrain_image_get_data (minimap, NULL) + y * terrain_image_get_stride (minimap),
                mw);
    }

  result = g_byte_array_free_to_bytes (g_steal_pointer (&out));
  check = terrain_tnt_map_new_from_bytes (result, p.limits, error);
  if (check == NULL)
    {
      g_prefix_error (error, "TNT pack: the rebuilt map does not load: ");
      return NULL;
    }
  return g_steal_pointer (&result);
}
