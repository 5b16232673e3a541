/* terrain-heightfield-tiles.c: tiled heightmap exports (World Machine,
 * Gaea) assembled into one heightfield
 *
 * World Machine's tiled builds name a tile with its naming string, by
 * default "_x%x_y%y" (`Height_x0_y0.png`), optionally padding the digits and
 * starting at another number; with "share edge vertices" (the +1
 * resolution) neighbouring tiles repeat their common row or column of
 * samples. Gaea's Tile Suffix Pattern is "_y%Y%_x%X%" by default, with
 * leading zeroes, numbering from 0 or 1, "Flip Y Axis" and a number of
 * overlap pixels. Other tools name rows and columns (`_r00_c00`). Every
 * tile is read by the one height source reader
 * (terrain_heightfield_new_from_bytes()), one tile at a time, and written
 * into an unlinked temporary file, mapped as the grid's storage (L3DT's
 * mosaic maps page their tiles from disk the same way): 16-bit values when
 * every tile has them (World Machine's and Gaea's 16-bit PNG and RAW16),
 * floats otherwise. A 16385² grid is then 512 MiB of page cache the kernel
 * reclaims and reads back, not 1 GiB of heap. The grid's size is checked
 * against the limits before the file is made.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "terrain-heightfield.h"
#include "terrain-heightfield-private.h"
#include "terrain-error.h"
#include "terrain-io.h"

/* Tiles on a side at most: 256 tiles of 257 samples already pass the
 * largest heightfield. */
#define MAX_TILES_PER_SIDE 256
/* Overlap samples at most (Gaea's overlap pixels). */
#define MAX_OVERLAP 64

typedef enum
{
  SCHEME_X_Y,   /* _x0_y0: World Machine */
  SCHEME_Y_X,   /* _y0_x0: Gaea */
  SCHEME_R_C,   /* _r0_c0: rows and columns */
} Scheme;

static const char * const scheme_names[] = { "_x%u_y%u", "_y%u_x%u", "_r%u_c%u" };

typedef struct
{
  guint index;       /* into the caller's names */
  guint x, y;        /* as numbered in the name */
} Tile;

/* Splits @name into the set it belongs to (prefix, scheme, extension) and
 * its numbers; FALSE for a name that is no tile. */
static gboolean
parse_name (const char *name,
            char      **set,
            Scheme     *scheme,
            guint      *x,
            guint      *y,
            guint      *digits)
{
  static GRegex *regex;
  g_autoptr(GMatchInfo) match = NULL;
  const char *base = strrchr (name, '/');

  if (g_once_init_enter (&regex))
    g_once_init_leave (&regex,
                               g_regex_new ("^(.*?)[_-]?(?:x([0-9]{1,6})[_-]y([0-9]{1,6})|"
                                            "y([0-9]{1,6})[_-]x([0-9]{1,6})|"
                                            "r([0-9]{1,6})[_-]c([0-9]{1,6}))(\\.[A-Za-z0-9]+)$",
                                            G_REGEX_CASELESS, 0, NULL));
  base = base != NULL ? base + 1 : name;
  if (!g_regex_match (regex, base, 0, &match))
    return FALSE;

  for (guint group = 2; group <= 6; group += 2)
    {
      g_autofree char *a = g_match_info_fetch (match, (gint) group);
      g_autofree char *b = g_match_info_fetch (match, (gint) group + 1);
      g_autofree char *prefix = NULL;
      g_autofree char *extension = NULL;

      if (a == NULL || a[0] == '\0')
        continue;
      prefix = g_match_info_fetch (match, 1);
      extension = g_match_info_fetch (match, 8);
      *scheme = group == 2 ? SCHEME_X_Y : group == 4 ? SCHEME_Y_X : SCHEME_R_C;
      /* Rows are y, columns x. */
      if (*scheme == SCHEME_X_Y)
        *x = (guint) g_ascii_strtoull (a, NULL, 10), *y = (guint) g_ascii_strtoull (b, NULL, 10);
      else
        *y = (guint) g_ascii_strtoull (a, NULL, 10), *x = (guint) g_ascii_strtoull (b, NULL, 10);
      *digits = (guint) strlen (a);
      *set = g_strdup_printf ("%s%s%s", prefix, scheme_names[*scheme], extension);
      return TRUE;
    }
  return FALSE;
}

/* The name a missing tile would have, in the set's own spelling. */
static char *
tile_name (const char *set,
           Scheme      scheme,
           guint       digits,
           guint       x,
           guint       y)
{
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autoptr(GString) name = g_string_new (NULL);
  const char *token = strstr (set, scheme_names[scheme]);

  a = g_strdup_printf ("%0*u", (int) digits, scheme == SCHEME_X_Y ? x : y);
  b = g_strdup_printf ("%0*u", (int) digits, scheme == SCHEME_X_Y ? y : x);
  g_string_append_len (name, set, token - set);
  g_string_append_printf (name, scheme == SCHEME_X_Y ? "_x%s_y%s" : scheme == SCHEME_Y_X
                                                                   ? "_y%s_x%s" : "_r%s_c%s",
                          a, b);
  g_string_append (name, token + strlen (scheme_names[scheme]));
  return g_string_free (g_steal_pointer (&name), FALSE);
}

static TerrainHeightfield *
read_tile (const char * const               *names,
           guint                              index,
           TerrainTileLoadFunc                load,
           gpointer                           data,
           const TerrainHeightfieldOptions   *options,
           GError                           **error)
{
  g_autoptr(GBytes) bytes = load (index, data, error);
  TerrainHeightfield *field;

  if (bytes == NULL)
    return NULL;
  field = terrain_heightfield_new_from_bytes (bytes, names[index], options, error);
  if (field == NULL)
    g_prefix_error (error, "Tiled heightmap: tile %s: ", names[index]);
  return field;
}

/* Whether the last column (or row) of @a repeats the first of @b: tiles
 * written with shared edges (World Machine's +1, Gaea's overlap of 1). */
static gboolean
shares_edge (TerrainHeightfield *a,
             TerrainHeightfield *b,
             gboolean            columns)
{
  guint w = terrain_heightfield_get_width (a), h = terrain_heightfield_get_height (a);
  guint n = columns ? h : w;

  for (guint i = 0; i < n; i++)
    {
      gfloat ea = columns ? terrain_heightfield_get_sample (a, w - 1, i)
                          : terrain_heightfield_get_sample (a, i, h - 1);
      gfloat eb = columns ? terrain_heightfield_get_sample (b, 0, i)
                          : terrain_heightfield_get_sample (b, i, 0);

      if (ea != eb)
        return FALSE;
    }
  return TRUE;
}

/* A set of tiles in place: which file is where, and the grid they make. */
typedef struct
{
  const char * const *names;
  const gint *grid;          /* index into names, by position, row 0 first */
  guint columns, n_rows;
  guint tw, th;              /* samples of a tile */
  guint overlap;
  gboolean flip_y;
  guint width, height;       /* samples of the grid */
} TileGrid;

/* Whether @tile holds 16-bit values turned into metres as @first's are: a
 * 16-bit PNG (host-order U16) or raw16 (U16_LE), not padded. Such values
 * are written as they are: 2 bytes a sample instead of 4, and the same
 * floats read back (the accessors convert in float arithmetic, as the
 * float grid assembled before held them). */
static gboolean
is_compact (const TerrainHeightfield *tile,
            const TerrainHeightfield *first)
{
  return (tile->storage == HEIGHTFIELD_U16 || tile->storage == HEIGHTFIELD_U16_LE) &&
         tile->data_width == tile->width && tile->data_height == tile->height &&
         tile->scale == first->scale && tile->offset == first->offset;
}

static gboolean
spill_error (GError     **error,
             int          saved,
             const char  *what,
             guint64      size)
{
  g_autofree char *room = g_format_size (size);

  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO,
               "Tiled heightmap: cannot %s the assembled grid (%s) in a temporary file in %s "
               "(the folder TMPDIR names): %s", what, room, g_get_tmp_dir (), g_strerror (saved));
  return FALSE;
}

static gboolean
write_at (int           fd,
          const void   *data,
          gsize         size,
          guint64       at,
          guint64       total,
          GError      **error)
{
  const guint8 *p = data;

  while (size > 0)
    {
      gssize n = pwrite (fd, p, size, (off_t) at);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return spill_error (error, n < 0 ? errno : ENOSPC, "write", total);
      p += n;
      size -= (gsize) n;
      at += (guint64) n;
    }
  return TRUE;
}

/* Decodes the tiles one at a time into an unlinked temporary file, in the
 * order (and with the overlaps written over) of a grid in memory, and maps
 * it as the heightfield's samples: 16-bit little-endian when @compact,
 * floats otherwise. The samples are then page cache the kernel can
 * reclaim and read back, not heap. With @compact, a tile that is not
 * 16-bit like the first sets @refused and returns %NULL without an error,
 * for the caller to write floats instead. */
static TerrainHeightfield *
write_grid (const TileGrid                   *g,
            TerrainHeightfield               *first,
            TerrainTileLoadFunc               load,
            gpointer                          data,
            const TerrainHeightfieldOptions  *options,
            gboolean                          compact,
            gboolean                         *refused,
            GError                          **error)
{
  gsize bps = compact ? 2 : sizeof (gfloat);
  guint64 size = (guint64) g->width * g->height * bps;
  g_autofree char *path = NULL;
  g_autofree guint8 *row = NULL;
  g_autoptr(GError) local = NULL;
  g_autoptr(GBytes) bytes = NULL;
  GMappedFile *mapped;
  int fd, rc;

  fd = g_file_open_tmp ("terrain-tiles-XXXXXX", &path, &local);
  if (fd < 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO,
                   "Tiled heightmap: cannot make a temporary file for the assembled grid in %s "
                   "(the folder TMPDIR names): %s", g_get_tmp_dir (), local->message);
      return NULL;
    }
  g_unlink (path);
  /* The room first, so that a full disk fails before any tile is read. */
  rc = posix_fallocate (fd, 0, (off_t) size);
  if (rc == EINVAL || rc == EOPNOTSUPP)
    rc = ftruncate (fd, (off_t) size) == 0 ? 0 : errno;
  if (rc != 0)
    {
      spill_error (error, rc, "make room for", size);
      close (fd);
      return NULL;
    }

  row = g_malloc ((gsize) g->tw * sizeof (gfloat));
  /* Row 0 of the grid is the north edge, tile row 0 unless the tiles count
   * from the south (Gaea's Flip Y). */
  for (guint y = 0; y < g->n_rows; y++)
    for (guint x = 0; x < g->columns; x++)
      {
        guint index = (guint) g->grid[(gsize) y * g->columns + x];
        guint tile_row = g->flip_y ? g->n_rows - 1 - y : y;
        g_autoptr(TerrainHeightfield) tile = NULL;
        guint64 x0 = (guint64) x * (g->tw - g->overlap);
        guint64 y0 = (guint64) tile_row * (g->th - g->overlap);

        if (x == 0 && y == 0)
          tile = g_object_ref (first);
        else
          tile = read_tile (g->names, index, load, data, options, error);
        if (tile == NULL)
          goto fail;
        if (tile->width != g->tw || tile->height != g->th)
          {
            g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                         "Tiled heightmap: tile %s is %u x %u samples, the first tile %s %u x %u",
                         g->names[index], tile->width, tile->height, g->names[g->grid[0]],
                         g->tw, g->th);
            goto fail;
          }
        if (compact && !is_compact (tile, first))
          {
            *refused = TRUE;
            goto fail;
          }
        for (guint r = 0; r < g->th; r++)
          {
            const void *src = row;

            if (!compact)
              terrain_heightfield_read_rect (tile, 0, r, g->tw, 1, (gfloat *) (gpointer) row,
                                             g->tw);
            else if (tile->storage == HEIGHTFIELD_U16_LE)
              src = tile->samples + (gsize) r * g->tw * 2;
            else
              {
                const guint16 *in = (const guint16 *) (gconstpointer) tile->samples +
                                    (gsize) r * g->tw;

                for (guint c = 0; c < g->tw; c++)
                  {
                    row[2 * c] = (guint8) (in[c] & 0xff);
                    row[2 * c + 1] = (guint8) (in[c] >> 8);
                  }
              }
            if (!write_at (fd, src, (gsize) g->tw * bps, ((y0 + r) * g->width + x0) * bps, size,
                           error))
              goto fail;
          }
      }

  mapped = g_mapped_file_new_from_fd (fd, FALSE, &local);
  close (fd);
  if (mapped == NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO,
                   "Tiled heightmap: cannot map the assembled grid's temporary file in %s: %s",
                   g_get_tmp_dir (), local->message);
      return NULL;
    }
  bytes = g_mapped_file_get_bytes (mapped);
  g_mapped_file_unref (mapped);
  return terrain_heightfield_new_for_storage (g->width, g->height,
                                              compact ? HEIGHTFIELD_U16_LE : HEIGHTFIELD_F32,
                                              bytes, 0, compact ? first->scale : 1.0,
                                              compact ? first->offset : 0.0, first->spacing);

fail:
  close (fd);
  return NULL;
}

static gint
compare_tiles (gconstpointer a,
               gconstpointer b)
{
  const Tile *ta = a, *tb = b;

  if (ta->y != tb->y)
    return ta->y < tb->y ? -1 : 1;
  return ta->x < tb->x ? -1 : ta->x > tb->x ? 1 : 0;
}

TerrainHeightfield *
terrain_heightfield_assemble_tiles (const char * const               *names,
                                    guint                              n_names,
                                    TerrainTileLoadFunc                load,
                                    gpointer                           data,
                                    const TerrainHeightfieldOptions   *options,
                                    gint                               overlap,
                                    gboolean                           flip_y,
                                    const TerrainLimits               *limits,
                                    GError                           **error)
{
  g_autofree char *set = NULL;
  g_autoptr(GArray) tiles = g_array_new (FALSE, FALSE, sizeof (Tile));
  g_autofree gint *grid = NULL;
  g_autoptr(TerrainHeightfield) first = NULL;
  g_autoptr(TerrainHeightfield) field = NULL;
  TileGrid shape;
  gboolean compact, refused = FALSE;
  Scheme scheme = SCHEME_X_Y;
  guint digits = 1, min_x = G_MAXUINT, min_y = G_MAXUINT, max_x = 0, max_y = 0;
  guint columns, n_rows, tw, th, width, height, max_side;

  limits = limits != NULL ? limits : terrain_limits_get_default ();

  /* The tiles of one set; other files are not tiles. */
  for (guint i = 0; i < n_names; i++)
    {
      g_autofree char *this_set = NULL;
      Scheme this_scheme;
      Tile tile = { i, 0, 0 };
      guint this_digits;

      if (!parse_name (names[i], &this_set, &this_scheme, &tile.x, &tile.y, &this_digits))
        continue;
      if (set == NULL)
        {
          set = g_steal_pointer (&this_set);
          scheme = this_scheme;
          digits = this_digits;
        }
      else if (g_ascii_strcasecmp (set, this_set) != 0)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "Tiled heightmap: %s belongs to another set of tiles than %s; name one "
                       "set with a pattern", names[i], names[g_array_index (tiles, Tile, 0).index]);
          return NULL;
        }
      if (!terrain_limits_check_count (limits, tiles->len + 1,
                                       (guint64) MAX_TILES_PER_SIDE * MAX_TILES_PER_SIDE,
                                       "tiles", "Tiled heightmap", 0, error))
        return NULL;
      min_x = MIN (min_x, tile.x), max_x = MAX (max_x, tile.x);
      min_y = MIN (min_y, tile.y), max_y = MAX (max_y, tile.y);
      g_array_append_val (tiles, tile);
    }
  if (tiles->len == 0)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Tiled heightmap: none of the %u files is named as a tile (NAME_x0_y0, "
                   "NAME_y0_x0 or NAME_r0_c0, then an extension)", n_names);
      return NULL;
    }
  columns = max_x - min_x + 1;
  n_rows = max_y - min_y + 1;
  if (columns > MAX_TILES_PER_SIDE || n_rows > MAX_TILES_PER_SIDE)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Tiled heightmap: tiles numbered %u to %u across and %u to %u down make "
                   "more than %u a side", min_x, max_x, min_y, max_y, MAX_TILES_PER_SIDE);
      return NULL;
    }

  /* Every position once. */
  grid = g_new (gint, (gsize) columns * n_rows);
  for (gsize i = 0; i < (gsize) columns * n_rows; i++)
    grid[i] = -1;
  g_array_sort (tiles, compare_tiles);
  for (guint i = 0; i < tiles->len; i++)
    {
      const Tile *tile = &g_array_index (tiles, Tile, i);
      gint *slot = &grid[(gsize) (tile->y - min_y) * columns + (tile->x - min_x)];

      if (*slot >= 0)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "Tiled heightmap: %s and %s are both tile x=%u, y=%u",
                       names[*slot], names[tile->index], tile->x, tile->y);
          return NULL;
        }
      *slot = (gint) tile->index;
    }
  for (guint y = 0; y < n_rows; y++)
    for (guint x = 0; x < columns; x++)
      if (grid[(gsize) y * columns + x] < 0)
        {
          g_autofree char *missing = tile_name (set, scheme, digits, min_x + x, min_y + y);

          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                       "Tiled heightmap: tile x=%u, y=%u of the %u x %u tiles (%s) is missing",
                       min_x + x, min_y + y, columns, n_rows, missing);
          return NULL;
        }

  /* The first tile gives the size every tile must have. */
  first = read_tile (names, (guint) grid[0], load, data, options, error);
  if (first == NULL)
    return NULL;
  tw = terrain_heightfield_get_width (first);
  th = terrain_heightfield_get_height (first);

  if (overlap < 0)
    {
      /* Shared edges are told by the first pair of neighbours. */
      g_autoptr(TerrainHeightfield) next = NULL;
      gboolean across = columns > 1;

      overlap = 0;
      if (columns > 1 || n_rows > 1)
        {
          next = read_tile (names, (guint) grid[across ? 1 : columns], load, data, options, error);
          if (next == NULL)
            return NULL;
          if (terrain_heightfield_get_width (next) == tw &&
              terrain_heightfield_get_height (next) == th && tw > 1 && th > 1 &&
              shares_edge (flip_y && !across ? next : first, flip_y && !across ? first : next,
                           across))
            overlap = 1;
        }
    }
  if ((guint) overlap >= MIN (tw, th) || overlap > MAX_OVERLAP)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Tiled heightmap: an overlap of %d samples does not fit tiles of %u x %u "
                   "(tile %s)", overlap, tw, th, names[grid[0]]);
      return NULL;
    }

  /* A heightfield's own bound, as for one file (terrain_heightfield_new()),
   * then the allocation limit: not max_cells_per_side, the map grids'
   * (8192 cells by default), which would refuse a 16385² grid of tiles. */
  max_side = TERRAIN_HEIGHTFIELD_MAX_SIDE;
  width = (guint) MIN ((guint64) columns * (tw - overlap) + overlap, G_MAXUINT);
  height = (guint) MIN ((guint64) n_rows * (th - overlap) + overlap, G_MAXUINT);
  if (width > max_side || height > max_side)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                   "Tiled heightmap: %u x %u tiles of %u x %u samples (overlap %d) make %u x %u "
                   "samples, more than the %u a side allowed", columns, n_rows, tw, th, overlap,
                   width, height, max_side);
      return NULL;
    }
  /* Checked as floats, what a mixed set needs, though the grid goes to a
   * file: a hostile set should not fill the disk either. */
  if (!terrain_limits_check_alloc (limits, (guint64) width * height, sizeof (gfloat),
                                   "assembled height grid", "Tiled heightmap", 0, error))
    return NULL;

  /* 16-bit tiles stay 16-bit unless one of them is not (or has another
   * scale): then the grid is written again as floats. */
  shape.names = names;
  shape.grid = grid;
  shape.columns = columns;
  shape.n_rows = n_rows;
  shape.tw = tw;
  shape.th = th;
  shape.overlap = (guint) overlap;
  shape.flip_y = flip_y;
  shape.width = width;
  shape.height = height;
  compact = is_compact (first, first);
  field = write_grid (&shape, first, load, data, options, compact, &refused, error);
  if (field == NULL && refused)
    field = write_grid (&shape, first, load, data, options, FALSE, NULL, error);
  return g_steal_pointer (&field);
}

static gint
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

typedef struct
{
  GPtrArray *paths;
  GCancellable *cancellable;
} FileTiles;

static GBytes *
load_file_tile (guint     index,
                gpointer  data,
                GError  **error)
{
  FileTiles *files = data;
  g_autoptr(GFile) file = g_file_new_for_path (g_ptr_array_index (files->paths, index));

  return terrain_file_load_bytes (file, files->cancellable, error);
}

/**
 * terrain_heightfield_load_tiles:
 * @spec: a folder of tiles, or a pattern of their names: a path whose file
 *   name has `*` or `?` wildcards, or World Machine's or Gaea's tokens
 *   (`%x`, `%y`, `%X%`, `%Y%`), e.g. `out/Height_x%x_y%y.png`
 * @options: (nullable): how to read each tile, as for
 *   [ctor@Terrain.Heightfield.new_from_bytes]
 * @overlap: samples neighbouring tiles share (1 for World Machine's shared
 *   edges, Gaea's overlap pixels), or -1 to tell 0 or 1 from whether the
 *   first two neighbours repeat their common edge
 * @flip_y: whether tile rows count from the south (Gaea's Flip Y Axis), so
 *   that the highest-numbered row is the north edge
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Reads a tiled heightmap export into one heightfield. Tiles are named
 * `NAME_x0_y0` (World Machine's default naming string), `NAME_y0_x0`
 * (Gaea's default suffix) or `NAME_r0_c0`, numbered from any start, with or
 * without leading zeroes, then an extension; files that are not named so
 * are ignored. Each tile is any height source (16-bit PNG, raw16 `.r16`,
 * …) read with @options, one tile at a time; every tile must be there and
 * of the first tile's size. The grid's size is checked against @limits
 * (as 4-byte floats) before anything is written.
 *
 * The grid is never held in memory whole: the tiles are written into an
 * unlinked temporary file in the system's temporary folder
 * (g_get_tmp_dir(), `TMPDIR`; it should be on disk, not a RAM file system),
 * memory-mapped as the heightfield's samples, so that they are page cache
 * the kernel can reclaim rather than heap. When every tile holds 16-bit
 * values with the same vertical scale and offset (a 16-bit PNG or raw16
 * set, the usual export) they are kept as 16-bit values (2 bytes a sample,
 * [method@Terrain.Heightfield.is_mapped] is %TRUE), otherwise as floats.
 * Either way the heights read are the floats each tile decodes to, and the
 * grid is not writable ([method@Terrain.Heightfield.get_data] gives %NULL).
 *
 * Returns: (transfer full) (nullable): the heightfield, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE (no tiles, two sets, a missing, doubled or
 *   mis-sized tile: the message names it), %TERRAIN_ERROR_LIMIT_EXCEEDED,
 *   %TERRAIN_ERROR_IO when the temporary file cannot be made or written (the
 *   message names its folder), or a tile's own error prefixed with its name
 */
TerrainHeightfield *
terrain_heightfield_load_tiles (const char                       *spec,
                                const TerrainHeightfieldOptions  *options,
                                gint                              overlap,
                                gboolean                          flip_y,
                                const TerrainLimits              *limits,
                                GCancellable                     *cancellable,
                                GError                          **error)
{
  g_autofree char *folder = NULL;
  g_autofree char *glob = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  FileTiles files = { NULL, cancellable };
  const char *name;

  g_return_val_if_fail (spec != NULL, NULL);

  if (g_file_test (spec, G_FILE_TEST_IS_DIR))
    folder = g_strdup (spec);
  else
    {
      g_autofree char *base = g_path_get_basename (spec);
      g_auto(GStrv) parts = NULL;

      folder = g_path_get_dirname (spec);
      /* Tokens become wildcards. */
      for (const char * const *token = (const char * const[]) { "%X%", "%Y%", "%x", "%y", NULL };
           *token != NULL; token++)
        {
          g_strfreev (parts);
          parts = g_strsplit (base, *token, -1);
          g_free (base);
          base = g_strjoinv ("*", parts);
        }
      glob = g_steal_pointer (&base);
    }

  dir = g_dir_open (folder, 0, error);
  if (dir == NULL)
    {
      g_autoptr(GError) local = NULL;

      if (error != NULL && *error != NULL)
        local = g_steal_pointer (error);
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_IO, "%s: cannot list the tiles: %s",
                   folder, local != NULL ? local->message : "no such folder");
      return NULL;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    if (glob == NULL || g_pattern_match_simple (glob, name))
      g_ptr_array_add (paths, g_build_filename (folder, name, NULL));
  /* A stable order, for messages. */
  g_ptr_array_sort (paths, compare_paths);
  for (guint i = 0; i < paths->len; i++)
    g_ptr_array_add (names, g_ptr_array_index (paths, i));
  files.paths = paths;
  return terrain_heightfield_assemble_tiles ((const char * const *) names->pdata, names->len,
                                             load_file_tile, &files, options, overlap, flip_y,
                                             limits, error);
}
