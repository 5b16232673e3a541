/* terrain-heightmap-document.c: plain heightmaps (greyscale PNG, SRTM .hgt,
 * raw16) opened as documents
 *
 * Opening reads only what it must: a PNG's header (signature, IHDR and the
 * chunks before the image data), an SRTM tile's byte order and voids, a
 * raw16 grid's size. The grid is decoded when something asks for it
 * (render_image, export_heights, the heightfield), with the heightfield
 * sources (terrain-heightfield-io.c): a 16-bit PNG stays the decoded image,
 * a raw16 grid or a void-free SRTM tile a view of the file's bytes. What
 * describe and validate need (the range, whether a colour image is grey) is
 * streamed instead: a PNG a row at a time (TerrainPngRows), tiles and raw16
 * grids read in place. Nothing can be edited, so saving gives the source
 * bytes back.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-heightmap-document.h"
#include "terrain-heightmap-document-private.h"
#include "terrain-heightfield-private.h"
#include "terrain-document-private.h"
#include "terrain-error.h"
#include "terrain-image-private.h"
#include "terrain-issue.h"
#include "terrain-reader-private.h"
#include "terrain-relief-private.h"

#define HGT_VOID (-32768)

/* A step of at most this many units between neighbours counts as smooth
 * when telling an SRTM tile's byte order from a raw16 grid's. */
#define SMOOTH_STEP 1024

static const guint8 png_signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

/* How the samples were encoded, for describe and export_heights. */
typedef enum
{
  ENCODING_GRAY8,          /* 8-bit greyscale PNG */
  ENCODING_GRAY16,         /* 16-bit greyscale PNG */
  ENCODING_COLOUR_GREY,    /* colour PNG whose pixels are all grey: R */
  ENCODING_TERRAIN_RGB,    /* colour PNG: Mapbox Terrain-RGB metres */
  ENCODING_TERRARIUM,      /* colour PNG: Terrarium metres */
  ENCODING_COLOUR,         /* colour PNG not yet scanned */
  ENCODING_S16BE,          /* SRTM: big-endian S16 metres */
  ENCODING_U16LE,          /* raw16: little-endian U16 */
} Encoding;

static const char * const encoding_names[] = {
  "gray8", "gray16", "colour-grey", "terrain-rgb", "terrarium", "colour", "s16be", "u16le",
};

struct _TerrainHeightmapDocument
{
  TerrainDocument parent_instance;

  GBytes *source;
  TerrainLimits limits;
  TerrainHeightmapFormat requested;  /* the encoding asked for, or AUTO */
  TerrainHeightmapFormat kind;
  Encoding encoding;
  guint width;
  guint height;
  gdouble spacing;
  TerrainHeightfield *field;   /* decoded on first use */
  GError *decode_error;        /* why decoding failed, once it has */
  gboolean scanned;            /* lo, hi (and a colour PNG's encoding) known */
  GError *scan_error;          /* why the scan failed, once it has */
  gfloat lo;
  gfloat hi;
  guint n_voids;
  gsize first_void;            /* sample index of the first void */
};

G_DEFINE_FINAL_TYPE (TerrainHeightmapDocument, terrain_heightmap_document, TERRAIN_TYPE_DOCUMENT)

/* What @data looks like to a heightmap reader: a PNG (greyscale or not, by
 * its IHDR colour type), or a square of 16-bit samples, SRTM-sized or not. */
HeightmapShape
terrain_heightmap_shape (const guint8 *data,
                         gsize         size)
{
  guint side;

  if (data == NULL)
    return HEIGHTMAP_SHAPE_NONE;
  if (size >= sizeof png_signature && memcmp (data, png_signature, sizeof png_signature) == 0)
    {
      /* Signature, IHDR length and type, width, height, depth, colour type. */
      if (size >= 26 && memcmp (data + 12, "IHDR", 4) == 0 && data[25] == 0)
        return HEIGHTMAP_SHAPE_GRAY_PNG;
      return HEIGHTMAP_SHAPE_PNG;
    }
  if (size % 2 != 0)
    return HEIGHTMAP_SHAPE_NONE;
  side = terrain_exact_sqrt (size / 2);
  if (side == TERRAIN_HEIGHTMAP_SRTM3_SIDE || side == TERRAIN_HEIGHTMAP_SRTM1_SIDE)
    return HEIGHTMAP_SHAPE_SRTM;
  if (side >= 2)
    return HEIGHTMAP_SHAPE_SQUARE16;
  return HEIGHTMAP_SHAPE_NONE;
}

/* An SRTM-sized body could be a raw16 grid of that side. Real heights change
 * little from one sample to the next, while the wrong byte order turns the
 * low byte into the high one: the reading with more small steps wins, the
 * tile on a tie. */
static gboolean
srtm_byte_order (const guint8 *data,
                 guint         side)
{
  guint64 smooth_be = 0, smooth_le = 0;

  for (guint y = 0; y < side; y++)
    {
      const guint8 *row = data + (gsize) y * side * 2;

      for (guint x = 0; x + 1 < side; x++)
        {
          const guint8 *p = row + 2 * (gsize) x;
          gint be0 = (gint16) (guint16) ((p[0] << 8) | p[1]);
          gint be1 = (gint16) (guint16) ((p[2] << 8) | p[3]);
          gint le0 = p[0] | (p[1] << 8);
          gint le1 = p[2] | (p[3] << 8);

          smooth_be += ABS (be1 - be0) <= SMOOTH_STEP;
          smooth_le += ABS (le1 - le0) <= SMOOTH_STEP;
        }
    }
  return smooth_be >= smooth_le;
}

static gboolean
check_side (TerrainHeightmapDocument  *self,
            guint64                    width,
            guint64                    height,
            gsize                      offset,
            const char                *section,
            GError                   **error)
{
  /* The limit counts cells; a side of 2^N + 1 samples spans 2^N cells. */
  guint64 max = MIN ((guint64) self->limits.max_cells_per_side + 1, TERRAIN_HEIGHTFIELD_MAX_SIDE);

  if (width > max || height > max)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "%s: the size %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT " at byte offset %"
                   G_GSIZE_FORMAT " exceeds the limit of %" G_GUINT64_FORMAT " samples a side",
                   section, width, height, offset, max);
      return FALSE;
    }
  return TRUE;
}

/* The encoding and range a colour PNG's pixels give (the one rule,
 * terrain_colour_scan_finish()), or a refusal that says how to name one. */
static gboolean
colour_scan_finish (TerrainHeightmapDocument  *self,
                    const TerrainColourScan   *scan,
                    GError                   **error)
{
  TerrainHeightmapFormat found;
  gdouble lo, hi;

  if (!terrain_colour_scan_finish (scan, self->requested, &found, &lo, &hi, error))
    return FALSE;
  self->encoding = found == TERRAIN_HEIGHTMAP_TERRAIN_RGB ? ENCODING_TERRAIN_RGB :
                   found == TERRAIN_HEIGHTMAP_TERRARIUM ? ENCODING_TERRARIUM :
                   ENCODING_COLOUR_GREY;
  self->lo = (gfloat) lo;
  self->hi = (gfloat) hi;
  return TRUE;
}

/* A colour PNG, read by the heightfield's one image reader in the encoding
 * the scan found when the document was opened. */
static TerrainHeightfield *
field_from_colour (TerrainHeightmapDocument  *self,
                   TerrainImage              *image,
                   GError                   **error)
{
  guint w = terrain_image_get_width (image), h = terrain_image_get_height (image);
  TerrainHeightmapFormat format = self->encoding == ENCODING_TERRAIN_RGB ?
                                    TERRAIN_HEIGHTMAP_TERRAIN_RGB :
                                  self->encoding == ENCODING_TERRARIUM ?
                                    TERRAIN_HEIGHTMAP_TERRARIUM : TERRAIN_HEIGHTMAP_GRAY;

  if (!terrain_limits_check_alloc (&self->limits, (guint64) w * h, sizeof (gfloat),
                                   "height grid", "PNG heightmap", 0, error))
    return NULL;
  return terrain_heightfield_new_from_image (image, format, NULL, error);
}

/* Opening a PNG reads its header only (TerrainPngRows checks the
 * signature, the IHDR against the limits and what the data can inflate to);
 * the body is decoded when something needs it. */
static gboolean
read_png (TerrainHeightmapDocument  *self,
          GBytes                    *bytes,
          GError                   **error)
{
  g_autoptr(TerrainPngRows) rows = NULL;
  TerrainImageFormat format;
  TerrainReader reader;
  guint32 width, height;

  /* The IHDR's size, before the decoder allocates for it. */
  terrain_reader_init (&reader, bytes, "PNG heightmap");
  if (terrain_reader_seek (&reader, 16, NULL) &&
      terrain_reader_read_be_u32 (&reader, &width, NULL) &&
      terrain_reader_read_be_u32 (&reader, &height, NULL) &&
      !check_side (self, width, height, 16, "PNG heightmap", error))
    return FALSE;

  rows = terrain_png_rows_new (bytes, &self->limits, "PNG heightmap", error);
  if (rows == NULL)
    return FALSE;
  terrain_png_rows_get_info (rows, &self->width, &self->height, &format, NULL);

  self->kind = TERRAIN_HEIGHTMAP_GRAY;
  self->spacing = 1.0;
  switch (format)
    {
    case TERRAIN_IMAGE_GRAY16:
    case TERRAIN_IMAGE_GRAY8:
      if (self->requested == TERRAIN_HEIGHTMAP_TERRAIN_RGB ||
          self->requested == TERRAIN_HEIGHTMAP_TERRARIUM)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "PNG heightmap: the IHDR at byte offset 16 says greyscale, which "
                       "cannot hold %s heights (they need red, green and blue)",
                       self->requested == TERRAIN_HEIGHTMAP_TERRAIN_RGB ? "Terrain-RGB"
                                                                        : "Terrarium");
          return FALSE;
        }
      self->encoding = format == TERRAIN_IMAGE_GRAY16 ? ENCODING_GRAY16 : ENCODING_GRAY8;
      break;
    case TERRAIN_IMAGE_RGBA8:
    default:
      /* Grey, Terrain-RGB, Terrarium or refused: known once every pixel
       * was seen (scan_png(), which opening runs). */
      self->encoding = ENCODING_COLOUR;
      break;
    }
  return TRUE;
}

/* The whole image, a row at a time into one allocation (pass by pass for an
 * interlaced one), with errors that name the row. */
static TerrainImage *
decode_png (TerrainHeightmapDocument  *self,
            GError                   **error)
{
  g_autoptr(TerrainPngRows) rows = NULL;
  g_autoptr(TerrainImage) image = NULL;
  TerrainImageFormat format;
  guint8 *pixels;
  gsize stride;
  guint w, h, n_rows, bpp;

  rows = terrain_png_rows_new (self->source, &self->limits, "PNG heightmap", error);
  if (rows == NULL)
    return NULL;
  n_rows = terrain_png_rows_get_info (rows, &w, &h, &format, NULL);
  bpp = format == TERRAIN_IMAGE_RGBA8 ? 4 : format == TERRAIN_IMAGE_GRAY16 ? 2 : 1;
  if (!terrain_limits_check_alloc (&self->limits, h, (guint64) w * bpp, "image rows",
                                   "PNG heightmap", 16, error))
    return NULL;
  image = terrain_image_new (format, w, h, error);
  if (image == NULL)
    return NULL;
  pixels = terrain_image_get_data (image, NULL);
  stride = terrain_image_get_stride (image);

  for (guint i = 0; i < n_rows; i++)
    {
      TerrainPngRow row;
      guint8 *out;

      if (!terrain_png_rows_next (rows, &row, error))
        return NULL;
      out = pixels + (gsize) row.y * stride;
      if (row.x_step == 1)
        memcpy (out + (gsize) row.x0 * bpp, row.pixels, (gsize) row.n_pixels * bpp);
      else
        for (guint k = 0; k < row.n_pixels; k++)
          memcpy (out + ((gsize) row.x0 + (gsize) k * row.x_step) * bpp,
                  row.pixels + (gsize) k * bpp, bpp);
    }
  if (!terrain_png_rows_finish (rows, error))
    return NULL;
  return g_steal_pointer (&image);
}

static TerrainHeightfield *
field_from_png (TerrainHeightmapDocument  *self,
                GError                   **error)
{
  g_autoptr(TerrainImage) image = decode_png (self, error);
  TerrainImageFormat format;

  if (image == NULL)
    return NULL;
  format = terrain_image_get_format (image);
  if (format == TERRAIN_IMAGE_RGBA8)
    return field_from_colour (self, image, error);

  /* A 16-bit image is the grid itself; 8-bit samples become floats. */
  if (format == TERRAIN_IMAGE_GRAY8 &&
      !terrain_limits_check_alloc (&self->limits,
                                   (guint64) terrain_image_get_width (image) *
                                   terrain_image_get_height (image), sizeof (gfloat),
                                   "height grid", "PNG heightmap", 0, error))
    return NULL;
  return terrain_heightfield_new_from_image (image, TERRAIN_HEIGHTMAP_GRAY, NULL, error);
}

/* The range and, for a colour image, whether every pixel is grey, from the
 * rows as they are decoded: the values are those field_from_png() gives, in
 * the memory of a row. */
static gboolean
scan_png (TerrainHeightmapDocument  *self,
          GError                   **error)
{
  g_autoptr(TerrainPngRows) rows = NULL;
  TerrainImageFormat format;
  gfloat lo = INFINITY, hi = -INFINITY;
  TerrainColourScan colour;
  guint n_rows;

  terrain_colour_scan_init (&colour);
  rows = terrain_png_rows_new (self->source, &self->limits, "PNG heightmap", error);
  if (rows == NULL)
    return FALSE;
  n_rows = terrain_png_rows_get_info (rows, NULL, NULL, &format, NULL);

  for (guint i = 0; i < n_rows; i++)
    {
      TerrainPngRow row;

      if (!terrain_png_rows_next (rows, &row, error))
        return FALSE;
      switch (format)
        {
        case TERRAIN_IMAGE_GRAY16:
          for (guint x = 0; x < row.n_pixels; x++)
            {
              guint16 v;

              memcpy (&v, row.pixels + 2 * (gsize) x, 2);
              lo = MIN (lo, (gfloat) v);
              hi = MAX (hi, (gfloat) v);
            }
          break;
        case TERRAIN_IMAGE_GRAY8:
          for (guint x = 0; x < row.n_pixels; x++)
            {
              lo = MIN (lo, (gfloat) row.pixels[x]);
              hi = MAX (hi, (gfloat) row.pixels[x]);
            }
          break;
        case TERRAIN_IMAGE_RGBA8:
        default:
          /* Every reading, as field_from_colour() picks one only at the end. */
          terrain_colour_scan_row (&colour, row.pixels, row.n_pixels);
          break;
        }
    }
  if (!terrain_png_rows_finish (rows, error))
    return FALSE;

  if (format == TERRAIN_IMAGE_RGBA8)
    return colour_scan_finish (self, &colour, error);
  self->lo = lo;
  self->hi = hi;
  return TRUE;
}

/* The @side x @side 16-bit samples of @bytes, checked to lie inside it. */
static const guint8 *
samples_of (GBytes      *bytes,
            guint        side,
            const char  *section,
            GError     **error)
{
  TerrainReader reader;
  const guint8 *data = NULL;

  terrain_reader_init (&reader, bytes, section);
  if (!terrain_reader_peek_bytes (&reader, (gsize) side * side * 2, &data, error))
    return NULL;
  return data;
}

static gboolean
read_hgt (TerrainHeightmapDocument  *self,
          GBytes                    *bytes,
          guint                      side,
          GError                   **error)
{
  const guint8 *data = samples_of (bytes, side, "SRTM tile", error);

  if (data == NULL)
    return FALSE;
  self->kind = TERRAIN_HEIGHTMAP_HGT;
  self->encoding = ENCODING_S16BE;
  if (!check_side (self, side, side, 0, "SRTM tile", error))
    return FALSE;

  for (gsize i = 0; i < (gsize) side * side; i++)
    if ((gint16) (guint16) ((data[2 * i] << 8) | data[2 * i + 1]) == HGT_VOID)
      {
        if (self->n_voids++ == 0)
          self->first_void = i;
      }
  if (self->n_voids == (guint64) side * side)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "SRTM tile: every one of the %u x %u samples from byte offset 0 is void "
                   "(-32768): there are no heights", side, side);
      return FALSE;
    }
  /* Voids are filled into a copy when the grid is first asked for. */
  self->width = self->height = side;
  self->spacing = side == TERRAIN_HEIGHTMAP_SRTM3_SIDE ? 90.0 :
                  side == TERRAIN_HEIGHTMAP_SRTM1_SIDE ? 30.0 : 1.0;
  return TRUE;
}

static gboolean
read_raw16 (TerrainHeightmapDocument  *self,
            GBytes                    *bytes,
            guint                      side,
            GError                   **error)
{
  self->kind = TERRAIN_HEIGHTMAP_RAW16;
  self->encoding = ENCODING_U16LE;
  if (!check_side (self, side, side, 0, "Raw16 heightmap", error))
    return FALSE;
  self->width = self->height = side;
  self->spacing = 1.0;
  return TRUE;
}

static gboolean
parse_samples (TerrainHeightmapDocument  *self,
               GBytes                    *bytes,
               const TerrainLimits       *limits,
               GError                   **error)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  const guint8 *samples;
  guint side;
  gboolean ok;

  HeightmapShape shape = terrain_heightmap_shape (data, size);

  self->limits = *(limits != NULL ? limits : terrain_limits_get_default ());

  /* A named encoding decides the kind; the bytes must be of its shape. */
  switch (self->requested)
    {
    case TERRAIN_HEIGHTMAP_GRAY:
    case TERRAIN_HEIGHTMAP_TERRAIN_RGB:
    case TERRAIN_HEIGHTMAP_TERRARIUM:
      if (shape != HEIGHTMAP_SHAPE_GRAY_PNG && shape != HEIGHTMAP_SHAPE_PNG)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "Heightmap: the bytes from byte offset 0 are not a PNG, which the "
                       "heightmap format %s needs",
                       self->requested == TERRAIN_HEIGHTMAP_GRAY ? "gray" :
                       self->requested == TERRAIN_HEIGHTMAP_TERRAIN_RGB ? "terrain-rgb" :
                       "terrarium");
          return FALSE;
        }
      return read_png (self, bytes, error);
    case TERRAIN_HEIGHTMAP_RAW16:
    case TERRAIN_HEIGHTMAP_HGT:
      if (shape != HEIGHTMAP_SHAPE_SRTM && shape != HEIGHTMAP_SHAPE_SQUARE16)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "Heightmap: the %" G_GSIZE_FORMAT " bytes from byte offset 0 are not a "
                       "square grid of 16-bit samples, which the heightmap format %s needs",
                       size, self->requested == TERRAIN_HEIGHTMAP_RAW16 ? "raw16" : "hgt");
          return FALSE;
        }
      side = terrain_exact_sqrt (size / 2);
      if (self->requested == TERRAIN_HEIGHTMAP_RAW16)
        return read_raw16 (self, bytes, side, error);
      if (samples_of (bytes, side, "SRTM tile", error) == NULL)
        return FALSE;
      return read_hgt (self, bytes, side, error);
    case TERRAIN_HEIGHTMAP_AUTO:
      break;
    case TERRAIN_HEIGHTMAP_TER:
    case TERRAIN_HEIGHTMAP_TNT:
    default:
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "Heightmap: a %s file is a document of its own, not a plain heightmap",
                   self->requested == TERRAIN_HEIGHTMAP_TER ? ".ter" : ".tnt");
      return FALSE;
    }

  switch (shape)
    {
    case HEIGHTMAP_SHAPE_GRAY_PNG:
    case HEIGHTMAP_SHAPE_PNG:
      ok = read_png (self, bytes, error);
      break;
    case HEIGHTMAP_SHAPE_SRTM:
      side = terrain_exact_sqrt (size / 2);
      samples = samples_of (bytes, side, "Heightmap", error);
      if (samples == NULL)
        return FALSE;
      if (srtm_byte_order (samples, side))
        ok = read_hgt (self, bytes, side, error);
      else
        ok = read_raw16 (self, bytes, side, error);
      break;
    case HEIGHTMAP_SHAPE_SQUARE16:
      ok = read_raw16 (self, bytes, terrain_exact_sqrt (size / 2), error);
      break;
    case HEIGHTMAP_SHAPE_NONE:
    default:
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Heightmap: the %" G_GSIZE_FORMAT " bytes from byte offset 0 are neither a "
                   "PNG nor a square grid of 16-bit samples (raw16, or an SRTM tile of %u x %u "
                   "or %u x %u)",
                   size, TERRAIN_HEIGHTMAP_SRTM3_SIDE, TERRAIN_HEIGHTMAP_SRTM3_SIDE,
                   TERRAIN_HEIGHTMAP_SRTM1_SIDE, TERRAIN_HEIGHTMAP_SRTM1_SIDE);
      return FALSE;
    }
  return ok;
}

/* The grid, decoded on first use; a failure is kept and reported again. */
static TerrainHeightfield *
ensure_field (TerrainHeightmapDocument  *self,
              GError                   **error)
{
  GError *local = NULL;
  guint side = self->width;

  if (self->field != NULL)
    return self->field;
  if (self->decode_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->decode_error));
      return NULL;
    }

  switch (self->kind)
    {
    case TERRAIN_HEIGHTMAP_HGT:
      /* Voids make a filled copy. */
      if (self->n_voids == 0 ||
          terrain_limits_check_alloc (&self->limits, (guint64) side * side,
                                      sizeof (gfloat) + 1, "filled height grid", "SRTM tile", 0,
                                      &local))
        self->field = terrain_heightfield_new_from_hgt (self->source, NULL, &local);
      break;
    case TERRAIN_HEIGHTMAP_RAW16:
      self->field = terrain_heightfield_new_from_raw16 (self->source, NULL, &local);
      break;
    case TERRAIN_HEIGHTMAP_GRAY:
    default:
      self->field = field_from_png (self, &local);
      break;
    }

  if (self->field == NULL)
    {
      self->decode_error = g_error_copy (local);
      g_propagate_error (error, local);
    }
  return self->field;
}

/* The 16-bit samples of a tile or raw16 grid in place: the range of the
 * samples that are not void (filling takes values between valid ones, so
 * it is the filled grid's range too). */
static void
scan_samples (TerrainHeightmapDocument *self)
{
  const guint8 *data = g_bytes_get_data (self->source, NULL);
  gsize n = (gsize) self->width * self->height;
  gint lo = G_MAXINT, hi = G_MININT;

  if (self->kind == TERRAIN_HEIGHTMAP_HGT)
    for (gsize i = 0; i < n; i++)
      {
        gint v = (gint16) (guint16) ((data[2 * i] << 8) | data[2 * i + 1]);

        if (v != HGT_VOID)
          {
            lo = MIN (lo, v);
            hi = MAX (hi, v);
          }
      }
  else
    for (gsize i = 0; i < n; i++)
      {
        gint v = data[2 * i] | (data[2 * i + 1] << 8);

        lo = MIN (lo, v);
        hi = MAX (hi, v);
      }
  self->lo = (gfloat) lo;
  self->hi = (gfloat) hi;
}

/* What describe and validate report, without decoding the grid: from the
 * grid when something decoded it, otherwise streamed. Returns FALSE when
 * a PNG's body is damaged (the error is kept in scan_error). */
static gboolean
ensure_scan (TerrainHeightmapDocument *self)
{
  if (self->scanned)
    return TRUE;
  if (self->scan_error != NULL)
    return FALSE;

  if (self->field != NULL)
    terrain_heightfield_get_range (self->field, &self->lo, &self->hi);
  else if (self->kind == TERRAIN_HEIGHTMAP_GRAY)
    {
      if (!scan_png (self, &self->scan_error))
        return FALSE;
    }
  else
    scan_samples (self);
  self->scanned = TRUE;
  return TRUE;
}

/* terrain_heightfield_is_chunkable() from the size alone. */
static gboolean
is_chunkable (guint width,
              guint height)
{
  guint n = 2;

  while (n + 1 < width)
    n *= 2;
  return width == height && width >= 3 && n + 1 == width;
}

/* The encoding asked for (self->requested) is set before this runs. */
static gboolean
terrain_heightmap_document_parse (TerrainDocument      *document,
                                  GBytes               *bytes,
                                  const TerrainLimits  *limits,
                                  GError              **error)
{
  TerrainHeightmapDocument *self = TERRAIN_HEIGHTMAP_DOCUMENT (document);

  if (!parse_samples (self, bytes, limits, error))
    return FALSE;

  self->source = g_bytes_ref (bytes);
  /* A colour PNG's encoding is known only from its pixels, and one that is
   * none the reader knows fails here, not with a guess later. */
  if (self->encoding == ENCODING_COLOUR)
    {
      if (!scan_png (self, error))
        return FALSE;
      self->scanned = TRUE;
    }
  return TRUE;
}

/**
 * terrain_heightmap_document_new_from_bytes:
 * @bytes: the heightmap file's contents
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Reads a plain heightmap. Which kind it is follows from the bytes alone:
 *
 * - a PNG (by its signature): an 8- or 16-bit greyscale image gives its
 *   sample values (metres = value, spacing 1). A colour, palette or
 *   grey-and-alpha image is read too (format detection only offers
 *   greyscale ones and those whose first rows are unmistakably Terrain-RGB or
 *   Terrarium; others open with %TERRAIN_FORMAT_HEIGHTMAP given by name),
 *   its pixels deciding how: its red value when every pixel is grey;
 *   Mapbox Terrain-RGB or Terrarium metres when its red channel fits only
 *   that encoding's range for Earth's heights (0 to 2, or 85 to 163) and
 *   the decoded heights are continuous (no step between neighbours of half
 *   what a change of red makes: 3276.8 m, or 128 m); any other colour image is refused
 *   (%TERRAIN_ERROR_INVALID_VALUE, naming `--heightmap-format`) rather than
 *   read as a guess. Opening such a PNG reads its pixels once to decide;
 * - exactly 1201² or 3601² 16-bit samples: an SRTM tile (big-endian S16
 *   metres, −32768 = void, 90 m or 30 m spacing), voids filled from the
 *   samples around them, unless reading the samples as little-endian U16
 *   gives the smoother surface, which makes it a raw16 grid of that side;
 * - any other square of 16-bit samples: a raw16 grid (little-endian U16,
 *   TGEA's input, spacing 1).
 *
 * A side may have at most #TerrainLimits.max_cells_per_side + 1 samples
 * (2^N + 1 samples span 2^N cells). The document keeps @bytes: raw16 grids
 * and void-free SRTM tiles are read in place.
 *
 * Opening is lazy: of a PNG only the header is read (the signature, the
 * IHDR, checked against the limits and against what the compressed data
 * can inflate to, and the chunks before the image data); of a tile or raw16
 * grid the size, and for an SRTM-sized one its byte order and voids. The
 * grid is decoded when first needed
 * ([method@Terrain.HeightmapDocument.decode_heightfield], rendering,
 * exporting), so damaged PNG image data is reported there, and by
 * [method@Terrain.Document.validate] as an error finding; describing and
 * validating stream the image a row at a time instead of decoding it.
 *
 * Returns: (transfer full) (nullable): the document, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE (neither a PNG nor a square grid, or an SRTM
 *   tile that is all voids), %TERRAIN_ERROR_LIMIT_EXCEEDED, or the PNG
 *   decoder's error for a damaged header
 */
TerrainHeightmapDocument *
terrain_heightmap_document_new_from_bytes (GBytes               *bytes,
                                           const TerrainLimits  *limits,
                                           GError              **error)
{
  TerrainDocument *document = terrain_document_new_from_bytes (TERRAIN_TYPE_HEIGHTMAP_DOCUMENT,
                                                               bytes, limits, error);

  return TERRAIN_HEIGHTMAP_DOCUMENT (document);
}

/**
 * terrain_heightmap_document_new_for_format:
 * @bytes: the heightmap file's contents
 * @format: how the samples are encoded, or %TERRAIN_HEIGHTMAP_AUTO to tell
 *   from the bytes as [ctor@Terrain.HeightmapDocument.new_from_bytes] does
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Reads a plain heightmap in the encoding @format names, the way `terrain
 * info --heightmap-format` does: %TERRAIN_HEIGHTMAP_TERRAIN_RGB and
 * %TERRAIN_HEIGHTMAP_TERRARIUM read a colour PNG as that encoding's metres
 * whatever its red channel spans; %TERRAIN_HEIGHTMAP_GRAY reads a PNG's grey
 * values and refuses a colour image whose pixels are not all grey (it never
 * takes a luminance); %TERRAIN_HEIGHTMAP_RAW16 and %TERRAIN_HEIGHTMAP_HGT
 * read a square grid of 16-bit samples as little-endian U16 or as an SRTM
 * tile, without weighing the byte orders. The samples decode through the
 * same reader as [ctor@Terrain.Heightfield.new_from_bytes] with that
 * format, so every command and the editor see the same heights.
 *
 * Returns: (transfer full) (nullable): the document, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE (the bytes are not of the shape @format
 *   needs, a greyscale PNG named as an RGB encoding, a non-grey colour PNG
 *   named gray), %TERRAIN_ERROR_NOT_SUPPORTED (@format is
 *   %TERRAIN_HEIGHTMAP_TER or %TERRAIN_HEIGHTMAP_TNT, documents of their
 *   own), %TERRAIN_ERROR_LIMIT_EXCEEDED, or the PNG decoder's error
 */
TerrainHeightmapDocument *
terrain_heightmap_document_new_for_format (GBytes                 *bytes,
                                           TerrainHeightmapFormat  format,
                                           const TerrainLimits    *limits,
                                           GError                **error)
{
  g_autoptr(TerrainHeightmapDocument) self = NULL;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (TERRAIN_TYPE_HEIGHTMAP_DOCUMENT, NULL);
  self->requested = format;
  if (!terrain_document_parse_bytes (TERRAIN_DOCUMENT (self), bytes, limits, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * terrain_heightmap_document_get_source:
 * @self: a #TerrainHeightmapDocument
 *
 * Gets the kind of heightmap the document was read from.
 *
 * Returns: %TERRAIN_HEIGHTMAP_GRAY for a PNG, %TERRAIN_HEIGHTMAP_HGT for an
 *   SRTM tile, %TERRAIN_HEIGHTMAP_RAW16 for a raw16 grid
 */
TerrainHeightmapFormat
terrain_heightmap_document_get_source (TerrainHeightmapDocument *self)
{
  g_return_val_if_fail (TERRAIN_IS_HEIGHTMAP_DOCUMENT (self), TERRAIN_HEIGHTMAP_AUTO);

  return self->kind;
}

/**
 * terrain_heightmap_document_get_heightfield:
 * @self: a #TerrainHeightmapDocument
 *
 * Gets the grid read from the file: row 0 is the file's first row (the
 * north edge of an SRTM tile); heights are the sample values of a PNG or
 * raw16 grid and metres for an SRTM tile, with its voids filled. Samples
 * are 1 unit apart, or 90 m (SRTM3) or 30 m (SRTM1) for tiles.
 *
 * Opening the document reads only the file's header, so the first call
 * decodes the grid. When that fails (a PNG whose image data is damaged,
 * or a grid over the allocation limit) it returns %NULL; use
 * [method@Terrain.HeightmapDocument.decode_heightfield] to know why.
 *
 * Returns: (transfer none) (nullable): the heightfield, which must not be
 *   changed, or %NULL when it cannot be decoded
 */
TerrainHeightfield *
terrain_heightmap_document_get_heightfield (TerrainHeightmapDocument *self)
{
  g_return_val_if_fail (TERRAIN_IS_HEIGHTMAP_DOCUMENT (self), NULL);

  return ensure_field (self, NULL);
}

/**
 * terrain_heightmap_document_decode_heightfield:
 * @self: a #TerrainHeightmapDocument
 * @error: return location for a #GError
 *
 * Gets the grid read from the file, as
 * [method@Terrain.HeightmapDocument.get_heightfield] does, decoding it on
 * the first call (a 16-bit PNG costs 2 bytes a sample, an 8-bit or colour
 * PNG and an SRTM tile with voids 4; raw16 grids and void-free tiles are
 * read in place). A failure is kept: later calls give the same error.
 *
 * Returns: (transfer none) (nullable): the heightfield, which must not be
 *   changed, or %NULL with %TERRAIN_ERROR_INVALID_VALUE (damaged PNG image
 *   data: the message names the row and the byte offset the data was read
 *   up to) or %TERRAIN_ERROR_LIMIT_EXCEEDED
 */
TerrainHeightfield *
terrain_heightmap_document_decode_heightfield (TerrainHeightmapDocument  *self,
                                               GError                   **error)
{
  g_return_val_if_fail (TERRAIN_IS_HEIGHTMAP_DOCUMENT (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return ensure_field (self, error);
}

/**
 * terrain_heightmap_document_get_sample_bits:
 * @self: a #TerrainHeightmapDocument
 *
 * Gets the precision of the file's samples.
 *
 * Returns: 8 for an 8-bit greyscale or a colour PNG, otherwise 16
 */
guint
terrain_heightmap_document_get_sample_bits (TerrainHeightmapDocument *self)
{
  g_return_val_if_fail (TERRAIN_IS_HEIGHTMAP_DOCUMENT (self), 0);

  return self->encoding == ENCODING_GRAY8 || self->encoding == ENCODING_COLOUR_GREY ? 8 : 16;
}

/**
 * terrain_heightmap_document_get_n_voids:
 * @self: a #TerrainHeightmapDocument
 *
 * Counts the void samples (−32768) of an SRTM tile, which reading filled
 * by interpolating the valid samples along their row and column.
 *
 * Returns: the number of voids; 0 for other heightmaps
 */
guint
terrain_heightmap_document_get_n_voids (TerrainHeightmapDocument *self)
{
  g_return_val_if_fail (TERRAIN_IS_HEIGHTMAP_DOCUMENT (self), 0);

  return self->n_voids;
}

static const char *
source_name (TerrainHeightmapDocument *self)
{
  switch (self->kind)
    {
    case TERRAIN_HEIGHTMAP_HGT: return "hgt";
    case TERRAIN_HEIGHTMAP_RAW16: return "raw16";
    case TERRAIN_HEIGHTMAP_GRAY:
    default: return "png";
    }
}

static const char *
section_name (TerrainHeightmapDocument *self)
{
  switch (self->kind)
    {
    case TERRAIN_HEIGHTMAP_HGT: return "SRTM tile";
    case TERRAIN_HEIGHTMAP_RAW16: return "Raw16 heightmap";
    case TERRAIN_HEIGHTMAP_GRAY:
    default: return "PNG heightmap";
    }
}

static GBytes *
terrain_heightmap_document_save_to_bytes (TerrainDocument  *document,
                                          GError          **error)
{
  TerrainHeightmapDocument *self = TERRAIN_HEIGHTMAP_DOCUMENT (document);

  /* Nothing edits a heightmap: it writes back as it was read. */
  return g_bytes_ref (self->source);
}

static JsonNode *
terrain_heightmap_document_describe (TerrainDocument *document)
{
  TerrainHeightmapDocument *self = TERRAIN_HEIGHTMAP_DOCUMENT (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  /* The range (and a colour image's encoding) streamed, not decoded. */
  gboolean scanned = ensure_scan (self);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, terrain_format_get_name (TERRAIN_FORMAT_HEIGHTMAP));
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, (gint64) g_bytes_get_size (self->source));
  json_builder_set_member_name (builder, "source");
  json_builder_add_string_value (builder, source_name (self));
  json_builder_set_member_name (builder, "encoding");
  json_builder_add_string_value (builder, encoding_names[self->encoding]);
  json_builder_set_member_name (builder, "sample_bits");
  json_builder_add_int_value (builder, terrain_heightmap_document_get_sample_bits (self));
  json_builder_set_member_name (builder, "width");
  json_builder_add_int_value (builder, self->width);
  json_builder_set_member_name (builder, "height");
  json_builder_add_int_value (builder, self->height);
  json_builder_set_member_name (builder, "spacing");
  json_builder_add_double_value (builder, self->spacing);
  json_builder_set_member_name (builder, "height_units");
  json_builder_add_string_value (builder, self->kind == TERRAIN_HEIGHTMAP_HGT ||
                                          self->encoding == ENCODING_TERRAIN_RGB ||
                                          self->encoding == ENCODING_TERRARIUM ? "metres"
                                                                               : "sample value");
  if (scanned)
    {
      json_builder_set_member_name (builder, "min_height");
      json_builder_add_double_value (builder, self->lo);
      json_builder_set_member_name (builder, "max_height");
      json_builder_add_double_value (builder, self->hi);
    }
  else
    {
      json_builder_set_member_name (builder, "error");
      json_builder_add_string_value (builder, self->scan_error->message);
    }
  if (self->kind == TERRAIN_HEIGHTMAP_HGT)
    {
      json_builder_set_member_name (builder, "voids");
      json_builder_add_int_value (builder, self->n_voids);
    }
  json_builder_set_member_name (builder, "atlas_ready");
  json_builder_add_boolean_value (builder, is_chunkable (self->width, self->height));
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static GPtrArray *
terrain_heightmap_document_validate (TerrainDocument *document)
{
  TerrainHeightmapDocument *self = TERRAIN_HEIGHTMAP_DOCUMENT (document);
  GPtrArray *issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  guint w = self->width;
  guint h = self->height;
  const char *section = section_name (self);
  gboolean scanned = ensure_scan (self);

  /* A PNG's image data is first read here: damage in it is an error. */
  if (!scanned)
    {
      const char *message = self->scan_error->message;
      gsize n = strlen (section);

      /* The finding names the section itself. */
      if (strncmp (message, section, n) == 0 && strncmp (message + n, ": ", 2) == 0)
        message += n + 2;
      g_ptr_array_add (issues, terrain_issue_new_literal (TERRAIN_SEVERITY_ERROR, section, -1,
                                                          -1, message));
    }

  if (self->n_voids > 0)
    {
      guint x = (guint) (self->first_void % w), y = (guint) (self->first_void / w);
      TerrainIssue *issue =
        terrain_issue_new (TERRAIN_SEVERITY_INFO, section, (gint64) self->first_void * 2, -1,
                           "%u void samples (-32768) were filled from the samples around "
                           "them; the first is sample (%u, %u)", self->n_voids, x, y);

      terrain_issue_set_position (issue, (gint) x, (gint) y);
      g_ptr_array_add (issues, issue);
    }

  if (scanned && self->lo == self->hi)
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_WARNING, section, -1, -1,
                                                "every sample is %g: the heightmap is flat",
                                                self->lo));

  if (!scanned)
    ; /* grey or colour is not known */
  else if (self->encoding == ENCODING_TERRAIN_RGB || self->encoding == ENCODING_TERRARIUM)
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_INFO, section, -1, -1,
                                                "a colour image read as %s metres (its red "
                                                "channel fits no other encoding)",
                                                self->encoding == ENCODING_TERRAIN_RGB ?
                                                "Terrain-RGB" : "Terrarium"));
  else if (self->encoding == ENCODING_COLOUR_GREY)
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_INFO, section, -1, -1,
                                                "a colour (or grey and alpha) image whose "
                                                "pixels are all grey: heights are its 8-bit "
                                                "grey values"));
  else if (self->encoding == ENCODING_GRAY8)
    g_ptr_array_add (issues, terrain_issue_new (TERRAIN_SEVERITY_INFO, section, -1, -1,
                                                "8-bit samples hold 256 heights: terrain "
                                                "built from them shows terraces"));

  /* What building an Atlas tree (terrain build-atlas) will do with it. */
  if (!is_chunkable (w, h))
    {
      guint side = 2;

      while (side - 1 < MAX (w, h) - 1 && side < TERRAIN_HEIGHTFIELD_MAX_SIDE)
        side = (side - 1) * 2 + 1;
      g_ptr_array_add (issues,
                       terrain_issue_new (TERRAIN_SEVERITY_INFO, section, -1, -1,
                                          "%u x %u samples: Atlas trees need a square of "
                                          "2^N+1 samples a side, so build-atlas pads it to "
                                          "%u x %u (--fit resample stretches it instead)",
                                          w, h, side, side));
    }

  return issues;
}

/* The grid reduced by @step (the mean of each step x step block) into a
 * relief, so that pictures stay under TERRAIN_RELIEF_MAX_SIDE. */
static gboolean
fill_relief (TerrainHeightmapDocument  *self,
             TerrainHeightfield        *field,
             TerrainRelief             *relief,
             GError                   **error)
{
  guint w = terrain_heightfield_get_width (field);
  guint h = terrain_heightfield_get_height (field);
  guint max = MIN ((guint) TERRAIN_RELIEF_MAX_SIDE, self->limits.max_image_side);
  guint step = (MAX (w, h) + MAX (max, 1) - 1) / MAX (max, 1);
  guint rw, rh;
  g_autofree gfloat *rows = NULL;
  g_autofree gdouble *sums = NULL;

  step = MAX (step, 1);
  rw = (w + step - 1) / step;
  rh = (h + step - 1) / step;
  if (!terrain_relief_init (relief, rw, rh, &self->limits, section_name (self), error))
    return FALSE;

  rows = g_new (gfloat, (gsize) w * step);
  sums = g_new (gdouble, rw);
  for (guint ry = 0; ry < rh; ry++)
    {
      guint y0 = ry * step, n_rows = MIN (step, h - y0);

      terrain_heightfield_read_rect (field, 0, y0, w, n_rows, rows, w);
      memset (sums, 0, rw * sizeof *sums);
      for (guint r = 0; r < n_rows; r++)
        for (guint x = 0; x < w; x++)
          sums[x / step] += rows[(gsize) r * w + x];
      for (guint rx = 0; rx < rw; rx++)
        {
          guint n_columns = MIN (step, w - rx * step);

          relief->z[(gsize) ry * rw + rx] = (gfloat) (sums[rx] / ((gdouble) n_columns * n_rows));
        }
    }
  return TRUE;
}

/* Shaded relief, north (the file's first row) up, one pixel per sample; a
 * grid wider or taller than TERRAIN_RELIEF_MAX_SIDE is averaged down by a
 * whole factor to fit. */
static TerrainImage *
terrain_heightmap_document_render_image (TerrainDocument  *document,
                                         TerrainRenderOptions *options,
                                         GError          **error)
{
  TerrainHeightmapDocument *self = TERRAIN_HEIGHTMAP_DOCUMENT (document);
  g_auto(TerrainRelief) relief = { 0 };
  TerrainHeightfield *field = ensure_field (self, error);

  (void) options;
  if (field == NULL || !fill_relief (self, field, &relief, error))
    return NULL;
  return terrain_relief_render (&relief, 0.0, error);
}

/* The samples as the file holds them, one pixel each: 16-bit PNG and raw16
 * values unchanged, 8-bit (and colour) values × 257, SRTM metres + 32768,
 * voids filled. */
static TerrainImage *
terrain_heightmap_document_export_heights (TerrainDocument  *document,
                                           GError          **error)
{
  TerrainHeightmapDocument *self = TERRAIN_HEIGHTMAP_DOCUMENT (document);
  TerrainHeightfield *field;
  gdouble scale = 1.0, offset = 0.0;

  if (!terrain_limits_check_alloc (&self->limits, (guint64) self->width * self->height, 2,
                                   "16-bit height grid", section_name (self), 0, error))
    return NULL;
  field = ensure_field (self, error);
  if (field == NULL)
    return NULL;
  if (terrain_heightmap_document_get_sample_bits (self) == 8)
    scale = 1.0 / 257.0;
  else if (self->kind == TERRAIN_HEIGHTMAP_HGT || self->encoding == ENCODING_TERRAIN_RGB ||
           self->encoding == ENCODING_TERRARIUM)
    offset = -32768.0;
  return terrain_heightfield_to_image (field, scale, offset, error);
}

static char *
terrain_heightmap_document_describe_offset (TerrainDocument *document,
                                            gsize            offset)
{
  TerrainHeightmapDocument *self = TERRAIN_HEIGHTMAP_DOCUMENT (document);
  guint w = self->width;
  gsize i = offset / 2;

  if (offset >= g_bytes_get_size (self->source))
    return g_strdup ("end of file");
  if (self->kind == TERRAIN_HEIGHTMAP_GRAY)
    return g_strdup ("PNG stream");
  return g_strdup_printf ("%s, sample (%" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT ")",
                          section_name (self), i % w, i / w);
}

static void
terrain_heightmap_document_finalize (GObject *object)
{
  TerrainHeightmapDocument *self = TERRAIN_HEIGHTMAP_DOCUMENT (object);

  g_clear_object (&self->field);
  g_clear_error (&self->decode_error);
  g_clear_error (&self->scan_error);
  g_clear_pointer (&self->source, g_bytes_unref);

  G_OBJECT_CLASS (terrain_heightmap_document_parent_class)->finalize (object);
}

static void
terrain_heightmap_document_class_init (TerrainHeightmapDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  object_class->finalize = terrain_heightmap_document_finalize;
  document_class->save_to_bytes = terrain_heightmap_document_save_to_bytes;
  document_class->describe = terrain_heightmap_document_describe;
  document_class->validate = terrain_heightmap_document_validate;
  document_class->render_image = terrain_heightmap_document_render_image;
  document_class->export_heights = terrain_heightmap_document_export_heights;
  document_class->describe_offset = terrain_heightmap_document_describe_offset;
  document_class->parse = terrain_heightmap_document_parse;
  document_class->format = TERRAIN_FORMAT_HEIGHTMAP;
}

static void
terrain_heightmap_document_init (TerrainHeightmapDocument *self)
{
}
