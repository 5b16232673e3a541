/* terrain-tqt-file.c: texture quadtrees (.tqt)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "terrain-tqt-file.h"
#include "terrain-atlas-texture.h"
#include "terrain-quadtree.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-issue-private.h"
#include "core/terrain-issue.h"
#include "core/terrain-reader-private.h"
#include "core/terrain-relief-private.h"
#include "core/terrain-writer-private.h"

#define OFF_MAGIC        0
#define OFF_VERSION      4
#define OFF_TREE_DEPTH   8
#define OFF_TILE_SIZE    12

/* DDS: "DDS " then the 124-byte DDS_HEADER, then an optional 20-byte
 * DDS_HEADER_DXT10 when the pixel format's FourCC is "DX10". */
#define DDS_MAGIC_SIZE        4
#define DDS_HEADER_SIZE       124
#define DDS_DX10_SIZE         20
#define DDSD_MIPMAPCOUNT      0x20000u
#define DDPF_FOURCC           0x4u
#define DDPF_ALPHA            0x2u
#define DDPF_RGB              0x40u
#define DDPF_YUV              0x200u
#define DDPF_LUMINANCE        0x20000u
#define DDSCAPS2_CUBEMAP      0x200u
#define DDSCAPS2_VOLUME       0x200000u


typedef struct
{
  guint32 offset;        /* table entry: absolute tile offset */
  gsize   span;          /* bytes from offset to the end of the tile */
  gsize   image_offset;  /* the DDS or JPEG stream */
  gsize   image_size;
  guint32 width;         /* 0 when unknown */
  guint32 height;
  guint64 payload;       /* DDS: bytes the header implies, G_MAXUINT64 when unknown */
  char    format[8];     /* DDS: FourCC or pixel-format name, for describe */
  guint   first;         /* first entry with the same offset (itself if none) */
} TqtTile;

struct _TerrainTqtFile
{
  TerrainDocument parent_instance;

  GBytes *source;
  gsize file_size;
  TerrainLimits limits;

  guint8 magic[4];
  guint32 version;
  guint32 tree_depth;
  guint32 tile_size;
  TerrainTqtEncoding encoding;

  guint n_tiles;
  TqtTile *tiles;        /* in table order */
};

G_DEFINE_FINAL_TYPE (TerrainTqtFile, terrain_tqt_file, TERRAIN_TYPE_DOCUMENT)

/* Logical node of a table entry: entry nodeID(level, y, x) holds (x, y). */
static void
entry_position (guint   entry,
                guint  *level,
                guint32 *x,
                guint32 *y)
{
  terrain_quadtree_node_position (entry, level, y, x);
}

static guint32
block_bytes_for_fourcc (const guint8 fourcc[4])
{
  static const struct { const char *code; guint32 bytes; } codes[] = {
    { "DXT1", 8 }, { "DXT2", 16 }, { "DXT3", 16 }, { "DXT4", 16 }, { "DXT5", 16 },
    { "ATI1", 8 }, { "BC4U", 8 }, { "BC4S", 8 }, { "ATI2", 16 }, { "BC5U", 16 },
    { "BC5S", 16 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (codes); i++)
    if (memcmp (fourcc, codes[i].code, 4) == 0)
      return codes[i].bytes;
  return 0;
}

/* Bytes per 4x4 block (compressed) or per pixel (negated) of the DXGI
 * formats TGEA-era tools write; 0 for the rest. */
static gint
dxgi_format_bytes (guint32 format)
{
  if ((format >= 70 && format <= 72) || (format >= 79 && format <= 81))
    return 8;
  if ((format >= 73 && format <= 78) || (format >= 82 && format <= 84) ||
      (format >= 94 && format <= 99))
    return 16;
  if ((format >= 27 && format <= 32) || (format >= 87 && format <= 93))
    return -4;
  return 0;
}

/* Adds the bytes of @mips mip levels of a w x h image to @total; a block
 * format when @block_bytes > 0, else @bits_per_pixel per pixel. */
static gboolean
add_mip_chain (guint64  *total,
               guint64   width,
               guint64   height,
               guint64   mips,
               guint32   block_bytes,
               guint32   bits_per_pixel)
{
  for (guint64 i = 0; i < mips; i++)
    {
      guint64 level;

      if (block_bytes > 0)
        {
          guint64 bw = MAX (1, (width + 3) / 4), bh = MAX (1, (height + 3) / 4);

          if (!g_uint64_checked_mul (&level, bw, bh) ||
              !g_uint64_checked_mul (&level, level, block_bytes))
            return FALSE;
        }
      else
        {
          guint64 row;

          if (!g_uint64_checked_mul (&row, width, bits_per_pixel))
            return FALSE;
          row = (row + 7) / 8;
          if (!g_uint64_checked_mul (&level, row, height))
            return FALSE;
        }

      /* Past 1x1 every further level costs the same: multiply, don't loop. */
      if (width == 1 && height == 1)
        {
          if (!g_uint64_checked_mul (&level, level, mips - i))
            return FALSE;
          return g_uint64_checked_add (total, *total, level);
        }

      if (!g_uint64_checked_add (total, *total, level))
        return FALSE;
      width = MAX (1, width / 2);
      height = MAX (1, height / 2);
    }
  return TRUE;
}

/* Reads a DDS header (§4 "mFormat 2", §9c) from a tile's stream and works
 * out how many payload bytes it implies. Sets tile->payload to G_MAXUINT64
 * when the pixel format is one whose size is not computed here. */
static gboolean
parse_dds (TerrainReader  *reader,
           guint           entry,
           TqtTile        *tile,
           GError        **error)
{
  const guint8 *magic;
  guint32 header[DDS_HEADER_SIZE / 4];
  guint32 flags, height, width, mip_count, pf_flags, rgb_bits, caps2;
  guint8 fourcc[4];
  guint64 mips, faces = 1, payload = 0;
  guint32 block_bytes = 0, bits_per_pixel = 0;
  gsize header_end = DDS_MAGIC_SIZE + DDS_HEADER_SIZE;
  gboolean known = TRUE;

  if (terrain_reader_get_size (reader) < DDS_MAGIC_SIZE ||
      !terrain_reader_peek_bytes (reader, DDS_MAGIC_SIZE, &magic, NULL) ||
      memcmp (magic, "DDS ", 4) != 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                   "TQT tiles: the stream of tile %u at byte offset %" G_GOFFSET_FORMAT
                   " does not begin with \"DDS \"",
                   entry, terrain_reader_abs_offset (reader));
      return FALSE;
    }
  if (terrain_reader_get_size (reader) < header_end)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "TQT tiles: the DDS stream of tile %u at byte offset %" G_GOFFSET_FORMAT
                   " holds %" G_GSIZE_FORMAT " bytes, less than its %" G_GSIZE_FORMAT
                   "-byte header",
                   entry, terrain_reader_abs_offset (reader), terrain_reader_get_size (reader),
                   header_end);
      return FALSE;
    }
  (void) terrain_reader_skip (reader, DDS_MAGIC_SIZE, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (header); i++)
    (void) terrain_reader_read_u32 (reader, &header[i], NULL);

  /* DDS_HEADER words: size, flags, height, width, pitch, depth, mip count,
   * 11 reserved, the 8-word pixel format (size, flags, FourCC, bit count,
   * 4 masks), caps, caps2, caps3, caps4, reserved. */
  flags = header[1];
  height = header[2];
  width = header[3];
  mip_count = header[6];
  pf_flags = header[19];
  terrain_put_le32 (fourcc, header[20]);
  rgb_bits = header[21];
  caps2 = header[27];

  tile->width = width;
  tile->height = height;
  mips = (flags & DDSD_MIPMAPCOUNT) != 0 ? MAX (mip_count, 1) : 1;
  if ((caps2 & DDSCAPS2_CUBEMAP) != 0)
    {
      faces = 0;
      for (guint32 bit = 0x400; bit <= 0x8000; bit <<= 1)
        faces += (caps2 & bit) != 0;
    }

  if ((pf_flags & DDPF_FOURCC) != 0 && memcmp (fourcc, "DX10", 4) == 0)
    {
      guint32 dxgi, dimension, misc, array_size;
      gint bytes;

      header_end += DDS_DX10_SIZE;
      if (terrain_reader_get_size (reader) < header_end)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                       "TQT tiles: the DDS stream of tile %u at byte offset %" G_GOFFSET_FORMAT
                       " ends inside its DX10 header extension (%" G_GSIZE_FORMAT " of %"
                       G_GSIZE_FORMAT " bytes)",
                       entry, reader->base, terrain_reader_get_size (reader), header_end);
          return FALSE;
        }
      (void) terrain_reader_read_u32 (reader, &dxgi, NULL);
      (void) terrain_reader_read_u32 (reader, &dimension, NULL);
      (void) terrain_reader_read_u32 (reader, &misc, NULL);
      (void) terrain_reader_read_u32 (reader, &array_size, NULL);
      g_snprintf (tile->format, sizeof tile->format, "DXGI%u", dxgi);
      bytes = dxgi_format_bytes (dxgi);
      if (bytes > 0)
        block_bytes = (guint32) bytes;
      else if (bytes < 0)
        bits_per_pixel = (guint32) (-bytes * 8);
      else
        known = FALSE;
      faces = (misc & 0x4u) != 0 ? 6 : 1;
      if (!g_uint64_checked_mul (&faces, faces, MAX (array_size, 1)))
        known = FALSE;
      if (dimension == 4)   /* 3D textures: depth slices not computed */
        known = FALSE;
    }
  else if ((pf_flags & DDPF_FOURCC) != 0)
    {
      memcpy (tile->format, fourcc, 4);
      tile->format[4] = '\0';
      block_bytes = block_bytes_for_fourcc (fourcc);
      known = block_bytes > 0;
    }
  else if ((pf_flags & (DDPF_RGB | DDPF_LUMINANCE | DDPF_ALPHA | DDPF_YUV)) != 0 &&
           rgb_bits > 0 && rgb_bits <= 128)
    {
      g_snprintf (tile->format, sizeof tile->format, "RGB%u", rgb_bits);
      bits_per_pixel = rgb_bits;
    }
  else
    {
      g_strlcpy (tile->format, "unknown", sizeof tile->format);
      known = FALSE;
    }

  if ((caps2 & DDSCAPS2_VOLUME) != 0)
    known = FALSE;

  if (known && width > 0 && height > 0)
    {
      guint64 chain = 0;

      if (!add_mip_chain (&chain, width, height, mips, block_bytes, bits_per_pixel) ||
          !g_uint64_checked_mul (&payload, chain, faces) ||
          !g_uint64_checked_add (&payload, payload, header_end))
        payload = G_MAXUINT64 - 1;   /* larger than any file: reported below */

      if (payload > terrain_reader_get_size (reader))
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                       "TQT tiles: the DDS stream of tile %u at byte offset %" G_GOFFSET_FORMAT
                       " is incomplete: its header (%ux%u, %s, %" G_GUINT64_FORMAT " mip levels)"
                       " needs %" G_GUINT64_FORMAT " bytes, the tile holds %" G_GSIZE_FORMAT,
                       entry, reader->base, width, height, tile->format, mips, payload,
                       terrain_reader_get_size (reader));
          return FALSE;
        }
      tile->payload = payload;
    }
  else
    {
      tile->payload = G_MAXUINT64;
    }

  return TRUE;
}

typedef enum
{
  JPEG_END,       /* the end-of-image marker was found */
  JPEG_MISSING,   /* the window ends before the end-of-image marker */
  JPEG_INVALID,   /* the stream is malformed; the error is set */
} JpegScan;

/* Looks for the end of a bare JPEG stream (Ulrich's TQT version 1) within
 * the @size bytes at @data: marker segments up to the end-of-image marker,
 * skipping the entropy-coded data after each start-of-scan. Records the
 * frame size from the first SOFn. */
static JpegScan
find_jpeg_end (const guint8  *data,
               gsize          size,
               guint          entry,
               gsize          start,
               TqtTile       *tile,
               gsize         *end,
               GError       **error)
{
  gsize pos = 2;

  if (size < 2 && data[0] == 0xFF)
    return JPEG_MISSING;
  if (size < 2 || data[0] != 0xFF || data[1] != 0xD8)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                   "TQT tiles: tile %u at byte offset %" G_GSIZE_FORMAT " does not begin "
                   "with a JPEG start-of-image marker (FF D8)",
                   entry, start);
      return JPEG_INVALID;
    }

  for (;;)
    {
      guint8 marker;
      gsize length;

      if (pos >= size)
        return JPEG_MISSING;
      if (data[pos] != 0xFF)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TQT tiles: the JPEG stream of tile %u has byte 0x%02X at byte "
                       "offset %" G_GSIZE_FORMAT " where a marker must start",
                       entry, data[pos], start + pos);
          return JPEG_INVALID;
        }
      while (pos < size && data[pos] == 0xFF)
        pos++;
      if (pos >= size)
        return JPEG_MISSING;
      marker = data[pos++];

      if (marker == 0xD9)
        {
          *end = pos;
          return JPEG_END;
        }
      if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7))
        continue;
      if (marker == 0xD8 || marker == 0x00)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TQT tiles: the JPEG stream of tile %u has an unexpected marker "
                       "FF %02X at byte offset %" G_GSIZE_FORMAT,
                       entry, marker, start + pos - 2);
          return JPEG_INVALID;
        }

      if (size - pos < 2)
        return JPEG_MISSING;
      length = ((gsize) data[pos] << 8) | data[pos + 1];
      if (length < 2)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "TQT tiles: the JPEG segment FF %02X of tile %u at byte offset %"
                       G_GSIZE_FORMAT " declares length %" G_GSIZE_FORMAT " (at least 2)",
                       marker, entry, start + pos - 2, length);
          return JPEG_INVALID;
        }
      if (length > size - pos)
        return JPEG_MISSING;

      /* SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC). */
      if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 &&
          marker != 0xCC && tile->width == 0 && length >= 7)
        {
          tile->height = ((guint32) data[pos + 3] << 8) | data[pos + 4];
          tile->width = ((guint32) data[pos + 5] << 8) | data[pos + 6];
        }
      pos += length;

      if (marker == 0xDA)
        {
          /* Entropy-coded data runs to the next marker that is neither a
           * stuffed zero nor a restart marker. */
          while (pos + 1 < size)
            {
              if (data[pos] == 0xFF && data[pos + 1] != 0x00 && data[pos + 1] != 0xFF &&
                  !(data[pos + 1] >= 0xD0 && data[pos + 1] <= 0xD7))
                break;
              pos++;
            }
          if (pos + 1 >= size)
            return JPEG_MISSING;
        }
    }
}

/* Finds where a JPEG tile ends. Tiles must not partly overlap, so the
 * search first stops at @limit, the next tile's start: scanning every tile
 * costs one pass over the file, however the table points. Only when that
 * fails is the rest of the file searched, to tell an overlap from a
 * stream that never ends. */
static gboolean
scan_jpeg (TerrainReader  *file,
           guint           entry,
           TqtTile        *tile,
           gsize           limit,
           GError        **error)
{
  const guint8 *data;
  gsize size, end = 0, start = tile->offset;
  JpegScan scan;

  size = terrain_reader_get_size (file) - start;
  (void) terrain_reader_seek (file, start, NULL);
  if (!terrain_reader_peek_bytes (file, size, &data, error))
    return FALSE;

  scan = find_jpeg_end (data, MIN (limit - start, size), entry, start, tile, &end, error);
  if (scan == JPEG_MISSING && limit - start < size)
    {
      scan = find_jpeg_end (data, size, entry, start, tile, &end, error);
      if (scan == JPEG_END)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP,
                       "TQT tiles: the JPEG stream of tile %u (bytes %" G_GSIZE_FORMAT " to %"
                       G_GSIZE_FORMAT ") partly overlaps the tile at byte offset %"
                       G_GSIZE_FORMAT,
                       entry, start, start + end - 1, limit);
          return FALSE;
        }
    }

  if (scan == JPEG_INVALID)
    return FALSE;
  if (scan == JPEG_MISSING)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "TQT tiles: the JPEG stream of tile %u at byte offset %" G_GSIZE_FORMAT
                   " has no end-of-image marker before the end of the file (byte offset %"
                   G_GSIZE_FORMAT ")",
                   entry, start, start + size);
      return FALSE;
    }

  tile->span = end;
  tile->image_offset = start;
  tile->image_size = end;
  return TRUE;
}

static gint
compare_u32 (gconstpointer a,
             gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/* The smallest tile offset above @offset, or the file size: where a tile at
 * @offset must end at the latest. */
static gsize
next_tile_start (const guint32 *sorted,
                 guint          n,
                 guint32        offset,
                 gsize          file_size)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (sorted[mid] <= offset)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < n ? MIN ((gsize) sorted[lo], file_size) : file_size;
}

static gboolean
parse_tile (TerrainTqtFile  *self,
            TerrainReader   *file,
            guint            entry,
            const guint32   *sorted,
            GError         **error)
{
  TqtTile *tile = &self->tiles[entry];
  guint level;
  guint32 x, y;

  entry_position (entry, &level, &x, &y);
  tile->payload = G_MAXUINT64;

  if (tile->offset >= self->file_size)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "TQT offset table: tile %u (level %u, x %u, y %u) at byte offset %u lies "
                   "beyond the end of the file (%" G_GSIZE_FORMAT " bytes); its table entry "
                   "is at byte offset %u",
                   entry, level, x, y, tile->offset, self->file_size,
                   TERRAIN_TQT_HEADER_SIZE + 4 * entry);
      return FALSE;
    }

  if (self->encoding == TERRAIN_TQT_ENCODING_JPEG)
    return scan_jpeg (file, entry, tile,
                      next_tile_start (sorted, self->n_tiles, tile->offset, self->file_size),
                      error);

  {
    TerrainReader stream;
    guint32 chunk_size;

    if (!terrain_reader_seek (file, tile->offset, error))
      return FALSE;
    if (terrain_reader_remaining (file) < 4)
      {
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                     "TQT tiles: the size prefix of tile %u (level %u, x %u, y %u) at byte "
                     "offset %u needs 4 bytes, %" G_GSIZE_FORMAT " remain",
                     entry, level, x, y, tile->offset, terrain_reader_remaining (file));
        return FALSE;
      }
    (void) terrain_reader_read_u32 (file, &chunk_size, NULL);
    if ((guint64) chunk_size > terrain_reader_remaining (file))
      {
        g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                     "TQT tiles: tile %u (level %u, x %u, y %u) at byte offset %u declares "
                     "%u DDS bytes, only %" G_GSIZE_FORMAT " remain",
                     entry, level, x, y, tile->offset, chunk_size,
                     terrain_reader_remaining (file));
        return FALSE;
      }
    tile->image_offset = (gsize) tile->offset + 4;
    tile->image_size = chunk_size;
    tile->span = (gsize) chunk_size + 4;
    if (!terrain_reader_sub (file, tile->image_offset, chunk_size, "TQT tiles", &stream, error))
      return FALSE;
    return parse_dds (&stream, entry, tile, error);
  }
}

typedef struct
{
  gsize offset;
  gsize size;
  guint entry;
} Span;

static gint
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const Span *sa = a, *sb = b;

  if (sa->offset != sb->offset)
    return sa->offset < sb->offset ? -1 : 1;
  if (sa->size != sb->size)
    return sa->size < sb->size ? -1 : 1;
  return (gint) sa->entry - (gint) sb->entry;
}

static Span *
sorted_spans (TerrainTqtFile *self)
{
  Span *spans = g_new (Span, MAX (self->n_tiles, 1));

  for (guint i = 0; i < self->n_tiles; i++)
    {
      spans[i].offset = self->tiles[i].offset;
      spans[i].size = self->tiles[i].span;
      spans[i].entry = i;
    }
  qsort (spans, self->n_tiles, sizeof (Span), compare_spans);
  return spans;
}

/* §9e: distinct tile ranges must not partially overlap; identical ranges
 * are one tile shared by several nodes. Tiles inside the header or the
 * offset table are overlaps too. */
static gboolean
check_overlaps (TerrainTqtFile  *self,
                GError         **error)
{
  g_autofree Span *spans = sorted_spans (self);
  gsize table_end = TERRAIN_TQT_HEADER_SIZE + 4 * (gsize) self->n_tiles;
  gsize reach = table_end;
  gint reach_entry = -1;

  for (guint i = 0; i < self->n_tiles; i++)
    {
      const Span *span = &spans[i];

      if (i > 0 && span->offset == spans[i - 1].offset && span->size == spans[i - 1].size)
        continue;
      if (span->offset < reach)
        {
          if (reach_entry < 0)
            g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP,
                         "TQT tiles: tile %u (bytes %" G_GSIZE_FORMAT " to %" G_GSIZE_FORMAT
                         ") overlaps the header and offset table (bytes 0 to %" G_GSIZE_FORMAT
                         ")",
                         span->entry, span->offset, span->offset + span->size - 1,
                         table_end - 1);
          else
            g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OVERLAP,
                         "TQT tiles: tile %u (bytes %" G_GSIZE_FORMAT " to %" G_GSIZE_FORMAT
                         ") partly overlaps tile %d (bytes %" G_GSIZE_FORMAT " to %"
                         G_GSIZE_FORMAT ")",
                         span->entry, span->offset, span->offset + span->size - 1,
                         reach_entry, (gsize) self->tiles[reach_entry].offset, reach - 1);
          return FALSE;
        }
      reach = span->offset + span->size;
      reach_entry = (gint) span->entry;
    }

  return TRUE;
}

static gboolean
terrain_tqt_file_parse (TerrainDocument      *document,
                        GBytes               *bytes,
                        const TerrainLimits  *limits,
                        GError              **error)
{
  TerrainTqtFile *self = TERRAIN_TQT_FILE (document);
  g_autoptr(GHashTable) seen = NULL;
  g_autofree guint32 *sorted = NULL;
  TerrainReader reader;
  guint64 n_tiles;

  self->source = g_bytes_ref (bytes);
  if (limits == NULL)
    limits = terrain_limits_get_default ();
  self->limits = *limits;

  terrain_reader_init (&reader, bytes, "TQT header");
  self->file_size = terrain_reader_get_size (&reader);

  if (!terrain_reader_check_span (&reader, 0, 4, "magic", error))
    return FALSE;
  (void) terrain_reader_copy_bytes (&reader, 4, self->magic, NULL);
  if (memcmp (self->magic, "tqt\0", 4) != 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_BAD_MAGIC,
                   "TQT header: magic at byte offset 0 is %02X %02X %02X %02X, expected "
                   "\"tqt\\0\" (74 71 74 00)",
                   self->magic[0], self->magic[1], self->magic[2], self->magic[3]);
      return FALSE;
    }
  if (!terrain_reader_check_span (&reader, 0, TERRAIN_TQT_HEADER_SIZE, "16-byte header", error))
    return FALSE;
  (void) terrain_reader_read_u32 (&reader, &self->version, NULL);
  (void) terrain_reader_read_u32 (&reader, &self->tree_depth, NULL);
  (void) terrain_reader_read_u32 (&reader, &self->tile_size, NULL);

  if (self->tree_depth > TERRAIN_QUADTREE_MAX_DEPTH)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "TQT header: tree depth %u at byte offset %d is invalid (at most %d levels)",
                   self->tree_depth, OFF_TREE_DEPTH, TERRAIN_QUADTREE_MAX_DEPTH);
      return FALSE;
    }
  n_tiles = terrain_quadtree_node_count (self->tree_depth);
  if (!terrain_limits_check_count (limits, n_tiles, limits->max_tiles, "tile", "TQT header",
                                   OFF_TREE_DEPTH, error) ||
      !terrain_limits_check_alloc (limits, n_tiles, sizeof (TqtTile), "tile table",
                                   "TQT header", OFF_TREE_DEPTH, error))
    return FALSE;
  self->n_tiles = (guint) n_tiles;

  if (self->file_size - TERRAIN_TQT_HEADER_SIZE < 4 * n_tiles)
    {
      guint64 first = (self->file_size - TERRAIN_TQT_HEADER_SIZE) / 4;

      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_TRUNCATED,
                   "TQT offset table: entry %" G_GUINT64_FORMAT " of %u at byte offset %"
                   G_GUINT64_FORMAT " is truncated: the table needs %" G_GUINT64_FORMAT
                   " bytes after the header, the file has %" G_GSIZE_FORMAT,
                   first, self->n_tiles, TERRAIN_TQT_HEADER_SIZE + 4 * first, 4 * n_tiles,
                   self->file_size - TERRAIN_TQT_HEADER_SIZE);
      return FALSE;
    }

  self->tiles = g_new0 (TqtTile, MAX (self->n_tiles, 1));
  for (guint i = 0; i < self->n_tiles; i++)
    (void) terrain_reader_read_u32 (&reader, &self->tiles[i].offset, NULL);

  /* The root tile decides the encoding: a size prefix followed by "DDS "
   * (TGEA) or a JPEG start-of-image (Ulrich's version 1). An empty tree goes
   * by the version word. */
  self->encoding = self->version == 1 ? TERRAIN_TQT_ENCODING_JPEG : TERRAIN_TQT_ENCODING_DDS;
  if (self->n_tiles > 0)
    {
      TerrainReader probe = reader;
      const guint8 *head;
      gsize at = self->tiles[0].offset;

      if (at < self->file_size && terrain_reader_seek (&probe, at, NULL))
        {
          if (terrain_reader_remaining (&probe) >= 8 &&
              terrain_reader_peek_bytes (&probe, 8, &head, NULL) &&
              memcmp (head + 4, "DDS ", 4) == 0)
            self->encoding = TERRAIN_TQT_ENCODING_DDS;
          else if (terrain_reader_remaining (&probe) >= 2 &&
                   terrain_reader_peek_bytes (&probe, 2, &head, NULL) &&
                   head[0] == 0xFF && head[1] == 0xD8)
            self->encoding = TERRAIN_TQT_ENCODING_JPEG;
        }
    }

  /* Entries with the same offset share one tile (§9e), checked once: a
   * table pointing every entry at one large tile costs one scan. */
  seen = g_hash_table_new (NULL, NULL);
  sorted = g_new (guint32, MAX (self->n_tiles, 1));
  for (guint i = 0; i < self->n_tiles; i++)
    sorted[i] = self->tiles[i].offset;
  qsort (sorted, self->n_tiles, sizeof (guint32), compare_u32);
  terrain_reader_init (&reader, bytes, "TQT tiles");
  for (guint i = 0; i < self->n_tiles; i++)
    {
      gpointer first;

      if (g_hash_table_lookup_extended (seen, GUINT_TO_POINTER (self->tiles[i].offset), NULL,
                                        &first))
        {
          self->tiles[i] = self->tiles[GPOINTER_TO_UINT (first)];
          continue;
        }
      g_hash_table_insert (seen, GUINT_TO_POINTER (self->tiles[i].offset), GUINT_TO_POINTER (i));
      self->tiles[i].first = i;
      if (!parse_tile (self, &reader, i, sorted, error))
        return FALSE;
    }

  return check_overlaps (self, error);
}

/**
 * terrain_tqt_file_new_from_bytes:
 * @bytes: the contents of a `.tqt` file
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Reads a texture quadtree (atlas-chu-tqt.md §9c): TGEA's DDS tiles with a
 * u32 size prefix, or Ulrich's version 1 with bare JPEG tiles.
 *
 * Structural checks (§9e) fail the load: the magic `tqt\0`; a tree depth
 * of at most 31 whose nodeCount(depth) tiles fit `max_tiles` of
 * [struct@Terrain.Limits]; the whole offset table inside the file; every
 * tile inside the file, DDS tiles beginning with `DDS ` and holding the
 * complete stream their header implies (for the block-compressed and
 * uncompressed formats whose size is known), JPEG tiles beginning with a
 * start-of-image marker and ending with an end-of-image marker; no two
 * distinct tile ranges partially overlapping (identical offsets share one
 * tile) and no tile inside the header or table. Differences between the
 * header's tile size and the image dimensions are warnings from
 * [method@Terrain.Document.validate].
 *
 * Returns: (transfer full) (nullable): the file, or %NULL with a
 *   %TERRAIN_ERROR set: %TERRAIN_ERROR_TRUNCATED,
 *   %TERRAIN_ERROR_OUT_OF_RANGE (a tile offset beyond the file),
 *   %TERRAIN_ERROR_BAD_MAGIC (the file's magic, a tile not starting with
 *   `DDS ` or a JPEG marker), %TERRAIN_ERROR_INVALID_VALUE,
 *   %TERRAIN_ERROR_OVERLAP or %TERRAIN_ERROR_LIMIT_EXCEEDED
 */
TerrainTqtFile *
terrain_tqt_file_new_from_bytes (GBytes               *bytes,
                                 const TerrainLimits  *limits,
                                 GError              **error)
{
  return TERRAIN_TQT_FILE (terrain_document_new_from_bytes (TERRAIN_TYPE_TQT_FILE, bytes,
                                                            limits, error));
}

/**
 * terrain_tqt_file_get_version:
 * @self: a #TerrainTqtFile
 *
 * Gets the version word.
 *
 * Returns: the version word (1 in Ulrich's files, 2 in TGEA's; no layout
 *   depends on it)
 */
guint32
terrain_tqt_file_get_version (TerrainTqtFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_TQT_FILE (self), 0);

  return self->version;
}

/**
 * terrain_tqt_file_get_tree_depth:
 * @self: a #TerrainTqtFile
 *
 * Gets the number of tree levels.
 *
 * Returns: the number of tree levels
 */
guint
terrain_tqt_file_get_tree_depth (TerrainTqtFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_TQT_FILE (self), 0);

  return self->tree_depth;
}

/**
 * terrain_tqt_file_get_tile_size:
 * @self: a #TerrainTqtFile
 *
 * Gets the header's tile size.
 *
 * Returns: the header's tile size, probably the intended square top-mip
 *   side in pixels; the image headers are authoritative
 */
guint32
terrain_tqt_file_get_tile_size (TerrainTqtFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_TQT_FILE (self), 0);

  return self->tile_size;
}

/**
 * terrain_tqt_file_get_encoding:
 * @self: a #TerrainTqtFile
 *
 * Gets how the tiles are stored.
 *
 * Returns: how the tiles are stored
 */
TerrainTqtEncoding
terrain_tqt_file_get_encoding (TerrainTqtFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_TQT_FILE (self), TERRAIN_TQT_ENCODING_DDS);

  return self->encoding;
}

/**
 * terrain_tqt_file_get_n_tiles:
 * @self: a #TerrainTqtFile
 *
 * Gets the number of offset-table entries.
 *
 * Returns: the number of offset-table entries, nodeCount(treeDepth)
 */
guint
terrain_tqt_file_get_n_tiles (TerrainTqtFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_TQT_FILE (self), 0);

  return self->n_tiles;
}

/**
 * terrain_tqt_file_lookup_node:
 * @self: a #TerrainTqtFile
 * @level: tree level, 0 at the root
 * @x: logical node X at @level
 * @y: logical node Y at @level
 *
 * Maps a logical node to its offset-table entry, nodeID(@level, @y, @x)
 * (§9c: the table uses transposed coordinates).
 *
 * Returns: the entry index, or -1 when the node lies outside the tree
 */
gint
terrain_tqt_file_lookup_node (TerrainTqtFile *self,
                              guint           level,
                              guint           x,
                              guint           y)
{
  g_return_val_if_fail (TERRAIN_IS_TQT_FILE (self), -1);

  if (level >= self->tree_depth || x >= (1u << level) || y >= (1u << level))
    return -1;
  return (gint) terrain_quadtree_node_id (level, y, x);
}

/**
 * terrain_tqt_file_get_tile_offset:
 * @self: a #TerrainTqtFile
 * @entry: offset-table entry, below [method@Terrain.TqtFile.get_n_tiles]
 *
 * Gets the tile offset held by entry @entry.
 *
 * Returns: the absolute offset the entry holds
 */
guint32
terrain_tqt_file_get_tile_offset (TerrainTqtFile *self,
                                  guint           entry)
{
  g_return_val_if_fail (TERRAIN_IS_TQT_FILE (self), 0);
  g_return_val_if_fail (entry < self->n_tiles, 0);

  return self->tiles[entry].offset;
}

/**
 * terrain_tqt_file_get_tile_span:
 * @self: a #TerrainTqtFile
 * @entry: offset-table entry
 * @offset: (out) (optional): start of the tile
 * @size: (out) (optional): bytes of the tile, including a DDS tile's size
 *   prefix: [offset, offset + 4 + chunkSize) (§9c)
 *
 * Gives the byte range a tile occupies.
 */
void
terrain_tqt_file_get_tile_span (TerrainTqtFile *self,
                                guint           entry,
                                gsize          *offset,
                                gsize          *size)
{
  g_return_if_fail (TERRAIN_IS_TQT_FILE (self));
  g_return_if_fail (entry < self->n_tiles);

  if (offset != NULL)
    *offset = self->tiles[entry].offset;
  if (size != NULL)
    *size = self->tiles[entry].span;
}

/**
 * terrain_tqt_file_get_tile_bytes:
 * @self: a #TerrainTqtFile
 * @entry: offset-table entry
 *
 * Returns the tile's encoded image: the complete DDS stream (without the
 * size prefix) or the JPEG stream, as a view of the file's bytes.
 *
 * Returns: (transfer full): the image stream
 */
GBytes *
terrain_tqt_file_get_tile_bytes (TerrainTqtFile *self,
                                 guint           entry)
{
  g_return_val_if_fail (TERRAIN_IS_TQT_FILE (self), NULL);
  g_return_val_if_fail (entry < self->n_tiles, NULL);

  return g_bytes_new_from_bytes (self->source, self->tiles[entry].image_offset,
                                 self->tiles[entry].image_size);
}

/**
 * terrain_tqt_file_get_tile_dimensions:
 * @self: a #TerrainTqtFile
 * @entry: offset-table entry
 * @width: (out) (optional): image width in pixels
 * @height: (out) (optional): image height in pixels
 *
 * Reads the image size from the tile's DDS header or JPEG frame header.
 *
 * Returns: %FALSE when the stream states no size (a JPEG without a frame
 *   header), with both set to 0
 */
gboolean
terrain_tqt_file_get_tile_dimensions (TerrainTqtFile *self,
                                      guint           entry,
                                      guint32        *width,
                                      guint32        *height)
{
  g_return_val_if_fail (TERRAIN_IS_TQT_FILE (self), FALSE);
  g_return_val_if_fail (entry < self->n_tiles, FALSE);

  if (width != NULL)
    *width = self->tiles[entry].width;
  if (height != NULL)
    *height = self->tiles[entry].height;
  return self->tiles[entry].width != 0 || self->tiles[entry].height != 0;
}

static GBytes *
terrain_tqt_file_save_to_bytes (TerrainDocument  *document,
                                GError          **error)
{
  TerrainTqtFile *self = TERRAIN_TQT_FILE (document);
  TerrainWriter writer;
  TerrainReader reader;
  const guint8 *all;

  /* Tiles are not edited, so they stay in place; the header and the offset
   * table are written from the model over a copy of the source. */
  terrain_reader_init (&reader, self->source, "TQT");
  if (!terrain_reader_peek_bytes (&reader, self->file_size, &all, error))
    return NULL;
  terrain_writer_init_copy (&writer, all, self->file_size);
  terrain_writer_set_section (&writer, "TQT");

  terrain_writer_patch_bytes (&writer, OFF_MAGIC, self->magic, 4);
  terrain_writer_patch_u32 (&writer, OFF_VERSION, self->version);
  terrain_writer_patch_u32 (&writer, OFF_TREE_DEPTH, self->tree_depth);
  terrain_writer_patch_u32 (&writer, OFF_TILE_SIZE, self->tile_size);
  for (guint i = 0; i < self->n_tiles; i++)
    terrain_writer_patch_u32 (&writer, TERRAIN_TQT_HEADER_SIZE + 4 * (gsize) i,
                              self->tiles[i].offset);

  return terrain_writer_finish (&writer, error);
}

typedef enum
{
  KIND_HEADER,
  KIND_DIMENSIONS,
  KIND_TRAILING,
  KIND_UNCHECKED,
  N_KINDS
} IssueKind;

static const char * const kind_names[N_KINDS] = {
  [KIND_HEADER] = "header values",
  [KIND_DIMENSIONS] = "tile dimensions",
  [KIND_TRAILING] = "bytes after DDS payloads",
  [KIND_UNCHECKED] = "DDS formats of unknown size",
};

/* Findings go through the one capped collector (core/terrain-issue-private.h),
 * keyed by kind_names. */
typedef TerrainIssueCollector Findings;

static void add_finding (Findings        *findings,
                         IssueKind        kind,
                         TerrainSeverity  severity,
                         gint64           offset,
                         gint64           record,
                         const char      *format,
                         ...) G_GNUC_PRINTF (6, 7);

static void
add_finding (Findings        *findings,
             IssueKind        kind,
             TerrainSeverity  severity,
             gint64           offset,
             gint64           record,
             const char      *format,
             ...)
{
  va_list args;

  va_start (args, format);
  terrain_issue_collector_addv (findings, kind_names[kind], severity,
                                kind == KIND_HEADER ? "TQT header" : "TQT tiles", offset, record,
                                format, args);
  va_end (args);
}

static GPtrArray *
terrain_tqt_file_validate (TerrainDocument *document)
{
  TerrainTqtFile *self = TERRAIN_TQT_FILE (document);
  Findings findings;

  terrain_issue_collector_init (&findings, 0);

  if (self->version != 1 && self->version != 2)
    add_finding (&findings, KIND_HEADER, TERRAIN_SEVERITY_WARNING, OFF_VERSION, -1,
                 "version %u is neither 1 (Ulrich, JPEG tiles) nor 2 (TGEA, DDS tiles)",
                 self->version);
  else if ((self->version == 1) != (self->encoding == TERRAIN_TQT_ENCODING_JPEG) &&
           self->n_tiles > 0)
    add_finding (&findings, KIND_HEADER, TERRAIN_SEVERITY_WARNING, OFF_VERSION, -1,
                 "version %u files usually hold %s tiles, but these are %s",
                 self->version, self->version == 1 ? "JPEG" : "DDS",
                 self->encoding == TERRAIN_TQT_ENCODING_JPEG ? "JPEG" : "DDS");

  for (guint i = 0; i < self->n_tiles; i++)
    {
      const TqtTile *tile = &self->tiles[i];
      guint level;
      guint32 x, y;

      if (tile->first != i)
        continue;
      entry_position (i, &level, &x, &y);

      if ((tile->width != 0 || tile->height != 0) &&
          (tile->width != self->tile_size || tile->height != self->tile_size))
        add_finding (&findings, KIND_DIMENSIONS, TERRAIN_SEVERITY_WARNING,
                     (gint64) tile->image_offset, i,
                     "tile %u (level %u, x %u, y %u) is %ux%u pixels; the header's tile size "
                     "is %u (the image header is authoritative)",
                     i, level, x, y, tile->width, tile->height, self->tile_size);

      if (self->encoding == TERRAIN_TQT_ENCODING_DDS)
        {
          if (tile->payload == G_MAXUINT64)
            add_finding (&findings, KIND_UNCHECKED, TERRAIN_SEVERITY_INFO,
                         (gint64) tile->image_offset, i,
                         "tile %u (level %u, x %u, y %u) uses DDS format %s, whose size is "
                         "not computed: only its header was checked",
                         i, level, x, y, tile->format);
          else if (tile->payload < tile->image_size)
            add_finding (&findings, KIND_TRAILING, TERRAIN_SEVERITY_WARNING,
                         (gint64) (tile->image_offset + tile->payload), i,
                         "tile %u (level %u, x %u, y %u) declares %" G_GSIZE_FORMAT
                         " DDS bytes, %" G_GUINT64_FORMAT " more than its header implies",
                         i, level, x, y, tile->image_size,
                         (guint64) tile->image_size - tile->payload);
        }
    }

  return terrain_issue_collector_finish (&findings);
}

static void
add_int_member (JsonBuilder *builder,
                const char  *name,
                gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

static JsonNode *
terrain_tqt_file_describe (TerrainDocument *document)
{
  TerrainTqtFile *self = TERRAIN_TQT_FILE (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree Span *spans = sorted_spans (self);
  g_autoptr(GPtrArray) formats = g_ptr_array_new ();
  gsize referenced = TERRAIN_TQT_HEADER_SIZE + 4 * (gsize) self->n_tiles;
  guint distinct = 0;

  for (guint i = 0; i < self->n_tiles; i++)
    {
      /* Tiles never partially overlap (the reader rejects that), and
       * entries with one offset share a tile. */
      if (i > 0 && spans[i].offset == spans[i - 1].offset)
        continue;
      distinct++;
      referenced += spans[i].size;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, terrain_format_get_name (TERRAIN_FORMAT_TQT));
  add_int_member (builder, "version", self->version);
  json_builder_set_member_name (builder, "encoding");
  json_builder_add_string_value (builder,
                                 self->encoding == TERRAIN_TQT_ENCODING_DDS ? "dds" : "jpeg");
  add_int_member (builder, "tree_depth", self->tree_depth);
  add_int_member (builder, "tile_size", self->tile_size);
  add_int_member (builder, "tiles", self->n_tiles);
  add_int_member (builder, "distinct_tiles", distinct);

  if (self->encoding == TERRAIN_TQT_ENCODING_DDS)
    {
      for (guint i = 0; i < self->n_tiles; i++)
        {
          gboolean seen = FALSE;

          for (guint f = 0; f < formats->len && !seen; f++)
            seen = strcmp (formats->pdata[f], self->tiles[i].format) == 0;
          if (!seen)
            g_ptr_array_add (formats, self->tiles[i].format);
        }
      json_builder_set_member_name (builder, "dds_formats");
      json_builder_begin_array (builder);
      for (guint f = 0; f < formats->len; f++)
        json_builder_add_string_value (builder, formats->pdata[f]);
      json_builder_end_array (builder);
    }

  json_builder_set_member_name (builder, "levels");
  json_builder_begin_array (builder);
  for (guint level = 0; level < self->tree_depth; level++)
    {
      guint64 bytes = 0;
      guint32 width = 0, height = 0;

      for (guint64 e = terrain_quadtree_node_count (level); e < terrain_quadtree_node_count (level + 1); e++)
        {
          bytes += self->tiles[e].image_size;
          width = MAX (width, self->tiles[e].width);
          height = MAX (height, self->tiles[e].height);
        }
      json_builder_begin_object (builder);
      add_int_member (builder, "level", level);
      add_int_member (builder, "tiles", (gint64) (G_GUINT64_CONSTANT (1) << (2 * level)));
      add_int_member (builder, "image_bytes", (gint64) bytes);
      add_int_member (builder, "max_width", width);
      add_int_member (builder, "max_height", height);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  add_int_member (builder, "file_size", (gint64) self->file_size);
  add_int_member (builder, "unreferenced_bytes",
                  (gint64) (self->file_size - MIN (referenced, self->file_size)));
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static char *
terrain_tqt_file_describe_offset (TerrainDocument *document,
                                  gsize            offset)
{
  TerrainTqtFile *self = TERRAIN_TQT_FILE (document);
  static const char * const header_fields[] = { "magic", "version", "tree depth", "tile size" };
  gsize table_end = TERRAIN_TQT_HEADER_SIZE + 4 * (gsize) self->n_tiles;
  gboolean before_tile = FALSE;

  if (offset >= self->file_size)
    return g_strdup ("end of file");

  if (offset < TERRAIN_TQT_HEADER_SIZE)
    return g_strdup_printf ("header, %s, byte +%" G_GSIZE_FORMAT, header_fields[offset / 4],
                            offset % 4);

  if (offset < table_end)
    {
      guint entry = (guint) ((offset - TERRAIN_TQT_HEADER_SIZE) / 4);
      guint level;
      guint32 x, y;

      entry_position (entry, &level, &x, &y);
      return g_strdup_printf ("offset table, entry %u (level %u, x %u, y %u), byte +%"
                              G_GSIZE_FORMAT,
                              entry, level, x, y, (offset - TERRAIN_TQT_HEADER_SIZE) % 4);
    }

  for (guint i = 0; i < self->n_tiles; i++)
    {
      const TqtTile *tile = &self->tiles[i];
      guint level;
      guint32 x, y;
      gsize rel;

      if (offset < tile->offset || offset - tile->offset >= tile->span)
        {
          if (tile->offset > offset)
            before_tile = TRUE;
          continue;
        }
      entry_position (i, &level, &x, &y);
      rel = offset - tile->offset;
      if (self->encoding == TERRAIN_TQT_ENCODING_JPEG)
        return g_strdup_printf ("tile %u (level %u, x %u, y %u), JPEG stream byte +%"
                                G_GSIZE_FORMAT, i, level, x, y, rel);
      if (rel < 4)
        return g_strdup_printf ("tile %u (level %u, x %u, y %u), size prefix", i, level, x, y);
      rel -= 4;
      return g_strdup_printf ("tile %u (level %u, x %u, y %u), DDS %s byte +%" G_GSIZE_FORMAT,
                              i, level, x, y,
                              rel < DDS_MAGIC_SIZE + DDS_HEADER_SIZE ? "header" : "stream", rel);
    }

  return g_strdup (before_tile ? "gap" : "trailing bytes");
}

static TerrainImage *
decode_tile (TerrainTqtFile  *self,
             guint            level,
             guint            x,
             guint            y,
             GError         **error)
{
  gint entry = terrain_tqt_file_lookup_node (self, level, x, y);
  g_autoptr(GBytes) stream = terrain_tqt_file_get_tile_bytes (self, (guint) entry);
  g_autoptr(TerrainAtlasTexture) texture =
    terrain_atlas_texture_new (self->encoding == TERRAIN_TQT_ENCODING_DDS
                               ? TERRAIN_ATLAS_TEXTURE_DDS : TERRAIN_ATLAS_TEXTURE_JPEG,
                               stream);
  TerrainImage *image;

  image = terrain_atlas_texture_decode (texture, TERRAIN_ATLAS_CHANNELS_RGB, &self->limits, error);
  if (image == NULL)
    g_prefix_error (error, "TQT tile of node (level %u, x %u, y %u) at byte offset %u, entry %d: ",
                    level, x, y, self->tiles[entry].offset, entry);
  return image;
}

/* Copies @tile into the cell of @image at (@x0, @y0), @cell pixels a side,
 * scaled to it (nearest pixel) when its size differs. */
static void
blit_tile (TerrainImage *image,
           TerrainImage *tile,
           guint         x0,
           guint         y0,
           guint         cell)
{
  guint tw = terrain_image_get_width (tile), th = terrain_image_get_height (tile);
  gsize dst_stride = terrain_image_get_stride (image), src_stride = terrain_image_get_stride (tile);
  guint8 *dst = terrain_image_get_data (image, NULL);
  const guint8 *src = terrain_image_get_data (tile, NULL);

  for (guint j = 0; j < cell; j++)
    {
      const guint8 *row = src + (gsize) ((guint64) j * th / cell) * src_stride;
      guint8 *out = dst + (gsize) (y0 + j) * dst_stride + 4 * (gsize) x0;

      if (tw == cell)
        memcpy (out, row, 4 * (gsize) cell);
      else
        for (guint i = 0; i < cell; i++)
          memcpy (out + 4 * (gsize) i, row + 4 * (gsize) ((guint64) i * tw / cell), 4);
    }
}

/* The tree's picture assembled from the tiles of one level: the deepest
 * whose picture stays within TERRAIN_RELIEF_MAX_SIDE (4096) pixels and the
 * limits' max_image_side, at the root tile's size per tile (the root tile
 * alone, scaled down, when even it is larger). As the tree's author cut
 * the picture, node (level, x, y) covers column x and row y of the level's
 * grid, row 0 at the top (§9c: the offset table's transposed order is
 * undone). Tiles of another size than the root's are scaled to it. */
static TerrainImage *
terrain_tqt_file_render_image (TerrainDocument  *document,
                               TerrainRenderOptions *options,
                               GError          **error)
{
  TerrainTqtFile *self = TERRAIN_TQT_FILE (document);
  guint max = MIN ((guint) TERRAIN_RELIEF_MAX_SIDE, self->limits.max_image_side);
  g_autoptr(TerrainImage) root = NULL;
  g_autoptr(TerrainImage) image = NULL;
  guint level = 0, cell;

  (void) options;
  if (self->tree_depth == 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                   "TQT header: tree depth 0 at byte offset %d: the tree has no tiles to draw",
                   OFF_TREE_DEPTH);
      return NULL;
    }

  root = decode_tile (self, 0, 0, 0, error);
  if (root == NULL)
    return NULL;
  cell = MIN (MAX (terrain_image_get_width (root), terrain_image_get_height (root)), MAX (max, 1));
  while (level + 1 < self->tree_depth && ((guint64) cell << (level + 1)) <= max)
    level++;

  if (!terrain_limits_check_alloc (&self->limits, ((guint64) cell << level) * (cell << level), 4,
                                   "picture", "TQT header", OFF_TILE_SIZE, error))
    return NULL;
  image = terrain_image_new (TERRAIN_IMAGE_RGBA8, cell << level, cell << level, error);
  if (image == NULL)
    return NULL;

  for (guint y = 0; y < (1u << level); y++)
    for (guint x = 0; x < (1u << level); x++)
      {
        g_autoptr(TerrainImage) tile = level == 0 ? terrain_image_ref (root)
                                                  : decode_tile (self, level, x, y, error);

        if (tile == NULL)
          return NULL;
        blit_tile (image, tile, x * cell, y * cell, cell);
      }

  return g_steal_pointer (&image);
}

/* A texture tree carries no heights; say so rather than "no height grid". */
static TerrainImage *
terrain_tqt_file_export_heights (TerrainDocument  *document,
                                 GError          **error)
{
  g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED,
                       "TQT: a texture tree holds no heights (they are in the CHU geometry "
                       "tree of the same name)");
  return NULL;
}

static void
terrain_tqt_file_finalize (GObject *object)
{
  TerrainTqtFile *self = (TerrainTqtFile *) object;

  g_clear_pointer (&self->tiles, g_free);
  g_clear_pointer (&self->source, g_bytes_unref);

  G_OBJECT_CLASS (terrain_tqt_file_parent_class)->finalize (object);
}

static void
terrain_tqt_file_class_init (TerrainTqtFileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  object_class->finalize = terrain_tqt_file_finalize;

  document_class->save_to_bytes = terrain_tqt_file_save_to_bytes;
  document_class->validate = terrain_tqt_file_validate;
  document_class->describe = terrain_tqt_file_describe;
  document_class->render_image = terrain_tqt_file_render_image;
  document_class->export_heights = terrain_tqt_file_export_heights;
  document_class->describe_offset = terrain_tqt_file_describe_offset;
  document_class->parse = terrain_tqt_file_parse;
  document_class->format = TERRAIN_FORMAT_TQT;
}

static void
terrain_tqt_file_init (TerrainTqtFile *self)
{
}
