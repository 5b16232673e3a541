/* test-tnt-fixture.h: TNT maps built byte by byte from tnt-sct.md
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The builder writes every section from a Spec (layout, sizes, gaps,
 * legacy fields) and records where it put each; the generators say what
 * each byte holds, so that check_model() can compare every getter.
 */

#pragma once

#include "libterrain.h"

G_BEGIN_DECLS

#define N_SECTIONS 6

typedef struct
{
  guint32 version;
  guint width;
  guint height;
  guint n_tiles;
  guint n_features;
  guint minimap_w;
  guint minimap_h;
  guint32 flag;                 /* MinimapPresent word */
  guint32 minimap_pointer;      /* used as is when flag bit 0 is clear */
  gboolean write_minimap_anyway; /* write the block even with the flag clear */
  guint32 pad[4];               /* 0x2000: header words 12..15 */
  guint32 sea_level;
  guint32 min_wind;
  guint32 max_wind;
  guint32 legacy_unread;
  guint32 gravity;
  guint order[5];               /* file order, TerrainTntSection values */
  guint gap;                    /* pattern bytes before every section */
  guint trailing;               /* pattern bytes after the last section */
  gboolean name_scratch;        /* bytes after the NUL in names */
  gboolean reserved_words;      /* authored 0xFFFB..0xFFFF and legacy empties */
  guint8 extra_byte;            /* attribute byte +3 */
} Spec;

typedef struct
{
  GBytes *bytes;
  gsize offset[N_SECTIONS];
  gsize size[N_SECTIONS];
  gboolean present[N_SECTIONS];
} Fixture;

typedef struct
{
  gsize offset;
  gsize length;
} Range;

/* The default fixture: an 8x6-cell version 0x2000 map, three tiles, two
 * features, a 16x12 minimap; the legacy one: version 0x1020 with its
 * header words. */
void           spec_default       (Spec                *spec);
void           spec_legacy        (Spec                *spec);

/* What the builder writes at each cell, tile-map entry, tile pixel and
 * minimap pixel. */
guint8         fx_height          (guint                x,
                                   guint                y);
guint16        fx_tile_index      (const Spec          *spec,
                                   gsize                entry);
guint8         fx_tile_pixel      (guint                t,
                                   guint                p);
guint8         fx_minimap_pixel   (guint                x,
                                   guint                y);

/* Builds @spec's file into @fx (bytes, and each section's offset, size and
 * presence); fixture_clear() frees the bytes. */
void           fixture_build      (Fixture             *fx,
                                   const Spec          *spec);
void           fixture_clear      (Fixture             *fx);

/* A copy of @bytes with the u32 at @offset set to @value; the first
 * @length bytes of @bytes. */
GBytes        *bytes_with_patch32 (GBytes              *bytes,
                                   gsize                offset,
                                   guint32              value);
GBytes        *bytes_truncated    (GBytes              *bytes,
                                   gsize                length);

/* Checks every getter against the fixture's generator. */
void           check_model        (TerrainTntMap       *map,
                                   const Spec          *spec);

/* Loading and saving that assert they succeed; a load that must fail with
 * @code and a message containing @message_part (unless %NULL). */
TerrainTntMap *load_ok            (GBytes              *bytes);
GBytes        *save_ok            (TerrainTntMap       *map);
void           assert_load_fails  (GBytes              *bytes,
                                   const TerrainLimits *limits,
                                   TerrainError         code,
                                   const char          *message_part);

/* Asserts that @a and @b have the same length and differ only inside
 * @ranges, and returns how many bytes differ. */
gsize          assert_differ_only_in (GBytes      *a,
                                      GBytes      *b,
                                      const Range *ranges,
                                      guint        n_ranges);

/* Builds @spec, reads it, checks the model and saves it back byte-exact,
 * with every section where the builder put it. */
void           roundtrip_spec     (const Spec          *spec);

G_END_DECLS
