/* test-atlas-builder-options.c: the Atlas builder's option checks, texture
 * fitting, texture encodings and build report (issue 17)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every option that feeds a float the builder writes is bounded
 * (TERRAIN_ATLAS_BUILDER_MAX_COORDINATE) so that the output's floats are
 * finite, and the CLI names the option that broke the bound.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <png.h>
#include <string.h>

#include "libterrain.h"
#include "terrain-test-fixtures.h"
#include "terrain-test-util.h"

/* The fixture hills over a side × side grid, @relief metres high. */
static TerrainHeightfield *
make_hills (guint   side,
            gdouble spacing,
            gdouble relief)
{
  g_autoptr(GError) error = NULL;
  TerrainHeightfield *field = terrain_heightfield_new (side, side, spacing, &error);
  gfloat *data = terrain_heightfield_get_data (field, NULL);

  g_assert_no_error (error);
  for (guint y = 0; y < side; y++)
    for (guint x = 0; x < side; x++)
      data[(gsize) y * side + x] =
        (gfloat) (relief * terrain_test_hills ((gdouble) x / (side - 1),
                                               (gdouble) y / (side - 1)));
  return field;
}

/* Writes @field as a raw16 file (metres = value) in @dir. */
static char *
write_raw16 (const char         *dir,
             TerrainHeightfield *field)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = terrain_heightfield_to_raw16 (field, 1.0, 0.0, &error);
  char *path = g_build_filename (dir, "h.r16", NULL);

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
  return path;
}

/* Heights, spacing and error beyond the bound fail the build with
 * TERRAIN_ERROR_OUT_OF_RANGE instead of writing infinite bounds. */
static void
test_ranges_library (void)
{
  struct { gdouble relief, spacing, error; } cases[] = {
    { 1e37, 1.0, 2.0 },
    { 1e31, 1.0, 2.0 },
    { 10.0, 1e37, 2.0 },
    { 10.0, 1.0, 1e30 },
  };

  /* Seeds of fuzz-builder-options (its input layout: scale, offset,
   * spacing, error as doubles, depth, measure, 17 x 17 U16 samples). */
  for (guint i = 0; i < G_N_ELEMENTS (cases) + 1; i++)
    {
      gdouble header[4] = { i < G_N_ELEMENTS (cases) ? cases[i].relief / 1000.0 : 0.5, 10.0,
                            i < G_N_ELEMENTS (cases) ? cases[i].spacing : 2.0,
                            i < G_N_ELEMENTS (cases) ? cases[i].error : 1.0 };
      g_autoptr(GByteArray) seed = g_byte_array_new ();
      const guint8 tail[2] = { (guint8) (i % 4 + 1), (guint8) (i & 1) };
      g_autoptr(GBytes) bytes = NULL;

      for (guint k = 0; k < 4; k++)
        {
          guint64 bits;
          guint8 le[8];

          memcpy (&bits, &header[k], 8);
          for (guint b = 0; b < 8; b++)
            le[b] = (guint8) (bits >> (8 * b));
          g_byte_array_append (seed, le, 8);
        }
      g_byte_array_append (seed, tail, 2);
      for (guint k = 0; k < 17 * 17; k++)
        {
          guint16 v = (guint16) (1000.0 * terrain_test_hills ((k % 17) / 16.0, (k / 17) / 16.0));
          const guint8 le[2] = { (guint8) v, (guint8) (v >> 8) };

          g_byte_array_append (seed, le, 2);
        }
      bytes = g_byte_array_free_to_bytes (g_steal_pointer (&seed));
      terrain_test_dump_seed ("builder-options", bytes);
    }

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TerrainHeightfield) field = make_hills (33, cases[i].spacing, cases[i].relief);
      g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
      g_autoptr(TerrainAtlasFile) atlas = NULL;
      g_autoptr(GError) error = NULL;

      terrain_atlas_builder_set_error (builder, cases[i].error);
      terrain_atlas_builder_set_tree_depth (builder, 1);
      atlas = terrain_atlas_builder_build (builder, NULL, &error);
      g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE);
      g_assert_null (atlas);
      g_assert_nonnull (strstr (error->message, "Atlas builder"));
    }

  /* Just within: large but finite relief builds, and every bound is
   * finite. */
  {
    g_autoptr(TerrainHeightfield) field = make_hills (33, 1.0, 1e29);
    g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
    g_autoptr(TerrainAtlasFile) atlas = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) issues = NULL;
    gboolean any;

    terrain_atlas_builder_set_error (builder, 1e24);
    terrain_atlas_builder_set_tree_depth (builder, 1);
    atlas = terrain_atlas_builder_build (builder, NULL, &error);
    g_assert_no_error (error);
    issues = terrain_document_validate (TERRAIN_DOCUMENT (atlas));
    for (guint i = 0; i < issues->len; i++)
      {
        g_autofree char *line = terrain_issue_to_string (g_ptr_array_index (issues, i));

        g_test_message ("%s", line);
      }
    g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_INFO);
  }
}

/* A steep terrain over a tiny spacing (1e-300 m, finite and positive, as
 * fuzz-builder-options found) builds with unit normals: they were ∞/∞. */
static void
test_tiny_spacing (void)
{
  g_autoptr(TerrainHeightfield) field = make_hills (17, 1e-300, 1000.0);
  g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
  g_autoptr(TerrainAtlasFile) atlas = NULL;
  g_autoptr(GError) error = NULL;
  gint toc;

  terrain_atlas_builder_set_tree_depth (builder, 1);
  atlas = terrain_atlas_builder_build (builder, NULL, &error);
  g_assert_no_error (error);
  toc = terrain_atlas_file_find_toc (atlas, TERRAIN_ATLAS_TOC_GEOMETRY, 0);
  g_assert_cmpint (toc, >=, 0);
  for (guint s = 0; s < terrain_atlas_toc_get_n_stubs (terrain_atlas_file_get_toc (atlas, toc)); s++)
    {
      g_autoptr(TerrainAtlasGeometry) geometry =
        terrain_atlas_file_get_geometry (atlas, (guint) toc, s, &error);
      const TerrainAtlasVertex *vertices;
      guint n = 0;

      g_assert_no_error (error);
      vertices = terrain_atlas_geometry_get_vertices (geometry, &n);
      g_assert_cmpuint (n, >, 0);
      for (guint v = 0; v < n; v++)
        {
          const gfloat *f = (const gfloat *) &vertices[v];

          for (guint k = 0; k < sizeof (TerrainAtlasVertex) / sizeof (gfloat); k++)
            g_assert_true (isfinite (f[k]));
          g_assert_cmpfloat_with_epsilon (vertices[v].normal[0] * vertices[v].normal[0] +
                                          vertices[v].normal[1] * vertices[v].normal[1] +
                                          vertices[v].normal[2] * vertices[v].normal[2], 1.0, 1e-4);
        }
    }
}

/* The CLI refuses each bad option with exit 64, naming it, and writes no
 * file (the corpus .ter of the issue when the corpus is there, a fixture
 * raw16 always). */
static void
test_ranges_cli (void)
{
  g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-builder-options");
  g_autoptr(TerrainHeightfield) field = make_hills (65, 1.0, 1000.0);
  g_autofree char *raw = write_raw16 (dir, field);
  g_autofree char *atlas = g_build_filename (dir, "v.atlas", NULL);
  const char *corpus = g_getenv ("TERRAIN_CORPUS_DIR");
  g_autofree char *ter = corpus != NULL ? g_build_filename (corpus, "torque", "simple.ter",
                                                            NULL) : NULL;
  struct { const char *option, *named; } cases[] = {
    { "--vertical-scale=1e40", "--vertical-scale=1e+40" },
    { "--vertical-scale=1e37", "--vertical-scale=1e+37" },
    { "--vertical-offset=1e39", "--vertical-offset=1e+39" },
    { "--vertical-scale=1e30", "--vertical-scale=1e+30" },
    { "--spacing=1e37", "--spacing=1e+37" },
    { "--error=1e30", "--error=1e+30" },
  };
  const char *inputs[] = { raw, ter };

  for (guint k = 0; k < G_N_ELEMENTS (inputs); k++)
    {
      if (inputs[k] == NULL || !g_file_test (inputs[k], G_FILE_TEST_IS_REGULAR))
        continue;
      for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
        {
          g_auto(TerrainTestCliResult) r =
            terrain_test_run_cli (NULL, "build-atlas", inputs[k], cases[i].option, "--quiet",
                                  "-o", atlas, NULL);

          g_assert_cmpint (r.status, ==, 64);
          g_assert_nonnull (strstr (r.err, cases[i].named));
          g_assert_false (g_file_test (atlas, G_FILE_TEST_EXISTS));
        }
    }

  /* A finite large scale still builds. */
  {
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "build-atlas", raw, "--vertical-scale=1e20", "--error=1e18",
                            "--depth=1", "--quiet", "-o", atlas, NULL);

    g_assert_cmpint (r.status, ==, 0);
  }
  {
    g_auto(TerrainTestCliResult) r = terrain_test_run_cli (NULL, "validate", atlas, NULL);

    g_assert_cmpint (r.status, ==, 0);
  }
  terrain_test_remove_tree (dir);
}


/* A gradient with noise; alpha varies when @alpha. */
static TerrainImage *
make_picture (guint    width,
              guint    height,
              gboolean alpha)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  TerrainImage *image = terrain_image_new (TERRAIN_IMAGE_RGBA8, width, height, NULL);
  guint8 *p = terrain_image_get_data (image, NULL);
  gsize stride = terrain_image_get_stride (image);

  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        guint8 *q = p + y * stride + 4 * x;

        /* Smooth, as photographs are within a 4x4 block. */
        q[0] = (guint8) MIN (x * 2, 255);
        q[1] = (guint8) MIN (y * 2, 255);
        q[2] = (guint8) (128 + g_rand_int_range (rand, -4, 5));
        q[3] = alpha ? (guint8) (64 + MIN (x + y, 127)) : 255;
      }
  return image;
}

/* Root-mean-square difference of the channels [first, last] of two RGBA
 * pictures of one size. */
static gdouble
rms_difference (TerrainImage *a,
                TerrainImage *b,
                guint         first,
                guint         last)
{
  guint w = terrain_image_get_width (a), h = terrain_image_get_height (a);
  const guint8 *pa = terrain_image_get_data (a, NULL), *pb = terrain_image_get_data (b, NULL);
  gsize sa = terrain_image_get_stride (a), sb = terrain_image_get_stride (b);
  gdouble sum = 0;

  g_assert_cmpuint (terrain_image_get_width (b), ==, w);
  g_assert_cmpuint (terrain_image_get_height (b), ==, h);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      for (guint c = first; c <= last; c++)
        {
          gdouble d = (gdouble) pa[y * sa + 4 * x + c] - pb[y * sb + 4 * x + c];

          sum += d * d;
        }
  return sqrt (sum / ((gdouble) w * h * (last - first + 1)));
}

/* terrain_dds_encode(): BC1 and BC3 streams with every mip level, read back
 * by the DDS reader close to the picture; BC3 keeps alpha. Odd and tiny
 * sizes pad their blocks. */
static void
test_dds_encode (void)
{
  struct { guint w, h; gboolean alpha; guint mips; } cases[] = {
    { 64, 64, FALSE, 7 }, { 64, 64, TRUE, 7 }, { 256, 32, FALSE, 9 }, { 6, 3, TRUE, 3 },
    { 1, 1, FALSE, 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TerrainImage) picture = make_picture (cases[i].w, cases[i].h, cases[i].alpha);
      TerrainDdsFormat format = cases[i].alpha ? TERRAIN_DDS_FORMAT_BC3 : TERRAIN_DDS_FORMAT_BC1;
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) dds = terrain_dds_encode (picture, format, &error);
      g_autoptr(TerrainImage) decoded = NULL;
      TerrainDdsInfo info;
      guint64 expected = TERRAIN_DDS_HEADER_SIZE;
      guint w = cases[i].w, h = cases[i].h;

      g_assert_no_error (error);
      g_assert_true (terrain_dds_parse (dds, 0, &info, &error));
      g_assert_no_error (error);
      g_assert_cmpint (info.format, ==, format);
      g_assert_cmpuint (info.width, ==, cases[i].w);
      g_assert_cmpuint (info.height, ==, cases[i].h);
      g_assert_cmpuint (info.mip_count, ==, cases[i].mips);
      for (guint m = 0; m < cases[i].mips; m++, w = MAX (w / 2, 1), h = MAX (h / 2, 1))
        expected += (guint64) ((w + 3) / 4) * ((h + 3) / 4) * (cases[i].alpha ? 16 : 8);
      g_assert_cmpuint (info.data_size + TERRAIN_DDS_HEADER_SIZE, ==, expected);
      g_assert_cmpuint (g_bytes_get_size (dds), ==, expected);

      decoded = terrain_dds_decode (dds, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpfloat (rms_difference (picture, decoded, 0, 2), <, 8.0);
      if (cases[i].alpha)
        g_assert_cmpfloat (rms_difference (picture, decoded, 3, 3), <, 4.0);
    }

  /* Only RGBA in, only BC1/BC3 out. */
  {
    g_autoptr(TerrainImage) gray = terrain_image_new (TERRAIN_IMAGE_GRAY8, 8, 8, NULL);
    g_autoptr(TerrainImage) rgba = make_picture (8, 8, FALSE);
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) none = terrain_dds_encode (gray, TERRAIN_DDS_FORMAT_BC1, &error);

    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    g_assert_null (none);
    g_clear_error (&error);
    none = terrain_dds_encode (rgba, TERRAIN_DDS_FORMAT_BC2, &error);
    g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
    g_assert_null (none);
  }
}

/* A DDS texture tree: every tile a DDS (BC1 opaque, BC3 with alpha) with
 * its mip chain, the file validating, the tiles decoding to the picture. */
static void
test_dds_texture_tree (void)
{
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(TerrainHeightfield) field = make_hills (65, 2.0, 50.0);
      g_autoptr(TerrainImage) picture = make_picture (128, 128, k == 1);
      g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
      g_autoptr(TerrainAtlasFile) atlas = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) issues = NULL;
      TerrainAtlasToc *toc;
      gboolean any, found = FALSE;

      terrain_atlas_builder_set_tree_depth (builder, 2);
      terrain_atlas_builder_set_tile_size (builder, 64);
      terrain_atlas_builder_set_texture_format (builder, TERRAIN_ATLAS_TEXTURE_DDS, 90);
      terrain_atlas_builder_set_texture_image (builder, picture);
      atlas = terrain_atlas_builder_build (builder, NULL, &error);
      g_assert_no_error (error);
      issues = terrain_document_validate (TERRAIN_DOCUMENT (atlas));
      g_assert_cmpint (terrain_issues_max_severity (issues, &any), ==, TERRAIN_SEVERITY_INFO);
      g_assert_cmpuint (terrain_atlas_builder_get_stats (builder)->texture_depth, ==, 2);

      for (guint t = 0; t < terrain_atlas_file_get_n_tocs (atlas); t++)
        {
          toc = terrain_atlas_file_get_toc (atlas, t);
          if (terrain_atlas_toc_get_kind (toc) != TERRAIN_ATLAS_TOC_TEXTURE)
            continue;
          for (guint i = 0; i < terrain_atlas_toc_get_n_stubs (toc); i++)
            {
              g_autoptr(TerrainAtlasTexture) texture =
                terrain_atlas_file_get_texture (atlas, t, i, &error);
              g_autoptr(TerrainImage) tile = NULL;
              TerrainDdsInfo info;

              g_assert_no_error (error);
              g_assert_cmpuint (terrain_atlas_texture_get_format (texture), ==,
                                TERRAIN_ATLAS_TEXTURE_DDS);
              g_assert_true (terrain_dds_parse (terrain_atlas_texture_get_data (texture), 0,
                                                &info, &error));
              g_assert_cmpint (info.format, ==,
                               k == 1 ? TERRAIN_DDS_FORMAT_BC3 : TERRAIN_DDS_FORMAT_BC1);
              g_assert_cmpuint (info.width, ==, 64);
              g_assert_cmpuint (info.mip_count, ==, 7);
              tile = terrain_atlas_texture_decode (texture, TERRAIN_ATLAS_CHANNELS_RGB, NULL,
                                                   &error);
              g_assert_no_error (error);
              g_assert_cmpuint (terrain_image_get_width (tile), ==, 64);
              found = TRUE;
            }
        }
      g_assert_true (found);
    }
}

/* The builder's findings: a 50x30 heightfield padded to 65x65 (64% of
 * the terrain padding) and a 512x256 texture over it stretched are
 * warnings; resampled, or a square heightfield, nothing is padded. */
static void
test_issues (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainHeightfield) field = terrain_heightfield_new (50, 30, 1.0, &error);
  g_autoptr(TerrainImage) picture = make_picture (512, 256, FALSE);
  gfloat *data = terrain_heightfield_get_data (field, NULL);
  const TerrainIssue *issue;

  g_assert_no_error (error);
  for (guint i = 0; i < 50 * 30; i++)
    data[i] = (gfloat) (i % 17);
  for (guint fit = 0; fit < 2; fit++)
    {
      g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
      g_autoptr(TerrainAtlasFile) atlas = NULL;
      GPtrArray *issues;

      terrain_atlas_builder_set_fit (builder, fit == 0 ? TERRAIN_HEIGHTFIELD_FIT_PAD
                                                       : TERRAIN_HEIGHTFIELD_FIT_RESAMPLE);
      terrain_atlas_builder_set_tree_depth (builder, 1);
      terrain_atlas_builder_set_texture_image (builder, picture);
      terrain_atlas_builder_set_tile_size (builder, 64);
      issues = terrain_atlas_builder_get_issues (builder);
      g_assert_cmpuint (issues->len, ==, 0);
      atlas = terrain_atlas_builder_build (builder, NULL, &error);
      g_assert_no_error (error);
      issues = terrain_atlas_builder_get_issues (builder);
      for (guint i = 0; i < issues->len; i++)
        g_test_message ("%s", terrain_issue_get_message (g_ptr_array_index (issues, i)));
      g_assert_cmpuint (issues->len, ==, fit == 0 ? 2 : 1);
      if (fit == 0)
        {
          issue = g_ptr_array_index (issues, 0);
          g_assert_cmpint (terrain_issue_get_severity (issue), ==, TERRAIN_SEVERITY_WARNING);
          g_assert_cmpstr (terrain_issue_get_rule (issue), ==, "padded-heightmap");
          g_assert_cmpstr (terrain_issue_get_section (issue), ==, "heights");
          g_assert_nonnull (strstr (terrain_issue_get_message (issue),
                                    "the 50x30 heightmap was padded to 65x65"));
          g_assert_nonnull (strstr (terrain_issue_get_message (issue), "(64% of the terrain is padding)"));
        }
      /* Padded: 49 m across over 512 pixels, 29 m down over 256
       * (resampled, the grid is 65x65). */
      issue = g_ptr_array_index (issues, issues->len - 1);
      g_assert_cmpint (terrain_issue_get_severity (issue), ==, TERRAIN_SEVERITY_WARNING);
      g_assert_cmpstr (terrain_issue_get_rule (issue), ==, "stretched-texture");
      if (fit == 0)
        g_assert_nonnull (strstr (terrain_issue_get_message (issue),
                                  "a pixel covers 0.0957 m across but 0.113 m down"));
    }
  {
    g_autoptr(TerrainHeightfield) square = make_hills (65, 1.0, 10.0);
    g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (square);
    g_autoptr(TerrainAtlasFile) atlas = NULL;

    terrain_atlas_builder_set_tree_depth (builder, 1);
    atlas = terrain_atlas_builder_build (builder, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (terrain_atlas_builder_get_issues (builder)->len, ==, 0);
  }
}

/* A texture out of the heightmap's proportions is stretched with a
 * warning that gives both sizes; one in proportion says nothing. */
static void
test_non_square_texture (void)
{
  g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-builder-options");
  g_autoptr(TerrainHeightfield) field = make_hills (65, 1.0, 100.0);
  g_autofree char *raw = write_raw16 (dir, field);
  g_autofree char *atlas = g_build_filename (dir, "t.atlas", NULL);
  const struct { guint w, h; gboolean warns; } cases[] = {
    { 512, 256, TRUE }, { 256, 256, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TerrainImage) picture = make_picture (cases[i].w, cases[i].h, FALSE);
      g_autofree char *png = g_build_filename (dir, "t.png", NULL);
      g_autoptr(GFile) file = g_file_new_for_path (png);
      g_autoptr(GError) error = NULL;

      g_assert_true (terrain_image_save_png (picture, file, NULL, &error));
      {
        g_auto(TerrainTestCliResult) r =
          terrain_test_run_cli (NULL, "build-atlas", raw, "--texture", png, "--depth=1",
                                "--tile-size=64", "-o", atlas, NULL);

        g_assert_cmpint (r.status, ==, 0);
        if (cases[i].warns)
          {
            g_assert_nonnull (strstr (r.err, "warning: the 512x256 texture is stretched over "
                                      "the 65x65 heightmap"));
            g_assert_nonnull (strstr (r.err, "0.125 m across but 0.25 m down"));
          }
        else
          g_assert_null (strstr (r.err, "stretched"));
      }
    }
  terrain_test_remove_tree (dir);
}


static void
png_append (png_structp png,
            png_bytep   data,
            png_size_t  length)
{
  g_byte_array_append (png_get_io_ptr (png), data, (guint) length);
}

static void
png_flush_none (png_structp png)
{
}

/* Writes an RGBA picture as an 8-bit PNG of @color_type (RGB, RGB_ALPHA or
 * GRAY: the red channel), Adam7-interlaced when @interlaced, to @dir/@name. */
static GFile *
write_png (const char   *dir,
           const char   *name,
           TerrainImage *image,
           int           color_type,
           gboolean      interlaced)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) array = g_byte_array_new ();
  g_autofree char *path = g_build_filename (dir, name, NULL);
  guint w = terrain_image_get_width (image), h = terrain_image_get_height (image);
  guint n = color_type == PNG_COLOR_TYPE_RGB_ALPHA ? 4 : color_type == PNG_COLOR_TYPE_RGB ? 3 : 1;
  const guint8 *in = terrain_image_get_data (image, NULL);
  gsize stride = terrain_image_get_stride (image);
  g_autofree guint8 *pixels = g_malloc ((gsize) w * h * n);
  g_autofree png_bytep *rows = g_new (png_bytep, h);
  png_structp png = png_create_write_struct (PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png_create_info_struct (png);

  for (guint y = 0; y < h; y++)
    {
      rows[y] = pixels + (gsize) y * w * n;
      for (guint x = 0; x < w; x++)
        memcpy (rows[y] + (gsize) x * n, in + y * stride + 4 * (gsize) x, n);
    }
  png_set_write_fn (png, array, png_append, png_flush_none);
  png_set_IHDR (png, info, w, h, 8, color_type,
                interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info (png, info);
  png_write_image (png, rows);
  png_write_end (png, info);
  png_destroy_write_struct (&png, &info);
  g_assert_true (g_file_set_contents (path, (const char *) array->data, (gssize) array->len,
                                      &error));
  g_assert_no_error (error);
  return g_file_new_for_path (path);
}

/* The picture's colours as the PNG of @color_type holds them: grey is the
 * red channel, and alpha is 255 but for RGB_ALPHA. */
static TerrainImage *
as_png_holds (TerrainImage *image,
              int           color_type)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  guint w = terrain_image_get_width (image), h = terrain_image_get_height (image);
  TerrainImage *copy = terrain_image_new (TERRAIN_IMAGE_RGBA8, w, h, &error);
  guint8 *out = terrain_image_get_data (copy, NULL);
  const guint8 *in = terrain_image_get_data (image, NULL);
  gsize stride = terrain_image_get_stride (image);

  g_assert_no_error (error);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        const guint8 *p = in + y * stride + 4 * (gsize) x;
        guint8 *q = out + y * terrain_image_get_stride (copy) + 4 * (gsize) x;

        q[0] = p[0];
        q[1] = color_type == PNG_COLOR_TYPE_GRAY ? p[0] : p[1];
        q[2] = color_type == PNG_COLOR_TYPE_GRAY ? p[0] : p[2];
        q[3] = color_type == PNG_COLOR_TYPE_RGB_ALPHA ? p[3] : 255;
      }
  return copy;
}

/* A PNG texture file that is not interlaced is streamed as a JPEG one is
 * (decoded a row at a time, issue 17): the Atlas is the same bytes as from
 * the same picture given as an image, for RGB, grey and (with JPEG tiles,
 * which drop alpha) RGBA PNGs, square or not, box-filtered or bilinear. An
 * RGBA PNG under PNG or DDS tiles and an interlaced PNG are decoded whole:
 * the same bytes too. A damaged streamed PNG fails with the row. */
static void
test_texture_png_streamed (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-builder-png");
  g_autoptr(TerrainImage) picture = make_picture (300, 180, TRUE);
  const struct { int color_type; gboolean interlaced; TerrainAtlasTextureFormat format;
                 guint field, tile, depth, threads; } cases[] = {
    { PNG_COLOR_TYPE_RGB, FALSE, TERRAIN_ATLAS_TEXTURE_JPEG, 129, 32, 5, 2 },  /* bilinear */
    { PNG_COLOR_TYPE_RGB, FALSE, TERRAIN_ATLAS_TEXTURE_PNG, 129, 32, 3, 1 },   /* boxes */
    { PNG_COLOR_TYPE_GRAY, FALSE, TERRAIN_ATLAS_TEXTURE_DDS, 100, 32, 4, 3 },  /* padded */
    { PNG_COLOR_TYPE_RGB_ALPHA, FALSE, TERRAIN_ATLAS_TEXTURE_JPEG, 129, 32, 4, 2 },
    { PNG_COLOR_TYPE_RGB_ALPHA, FALSE, TERRAIN_ATLAS_TEXTURE_PNG, 129, 32, 4, 2 },
    { PNG_COLOR_TYPE_RGB, TRUE, TERRAIN_ATLAS_TEXTURE_PNG, 129, 32, 4, 2 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(TerrainHeightfield) field = make_hills (cases[c].field, 1.0, 100.0);
      g_autoptr(GFile) file = write_png (dir, "t.png", picture, cases[c].color_type,
                                         cases[c].interlaced);
      g_autoptr(TerrainImage) held = as_png_holds (picture, cases[c].color_type);
      g_autoptr(GBytes) streamed = NULL;
      g_autoptr(GBytes) whole = NULL;

      for (guint k = 0; k < 2; k++)
        {
          g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
          g_autoptr(TerrainAtlasFile) atlas = NULL;
          GBytes *bytes;

          terrain_atlas_builder_set_error (builder, 1.0);
          terrain_atlas_builder_set_n_threads (builder, cases[c].threads);
          terrain_atlas_builder_set_tile_size (builder, cases[c].tile);
          terrain_atlas_builder_set_texture_depth (builder, cases[c].depth);
          terrain_atlas_builder_set_texture_format (builder, cases[c].format, 90);
          if (k == 0)
            terrain_atlas_builder_set_texture_file (builder, file);
          else
            terrain_atlas_builder_set_texture_image (builder, held);
          atlas = terrain_atlas_builder_build (builder, NULL, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (terrain_atlas_builder_get_stats (builder)->n_texture_tiles, ==,
                            terrain_quadtree_node_count (cases[c].depth));
          bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (atlas), &error);
          g_assert_no_error (error);
          if (k == 0)
            streamed = bytes;
          else
            whole = bytes;
        }
      g_assert_true (g_bytes_equal (streamed, whole));
    }

  /* Cut short: the streamed decoder's error names the file and the row. */
  {
    g_autoptr(TerrainHeightfield) field = make_hills (129, 1.0, 100.0);
    g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
    g_autoptr(GFile) file = write_png (dir, "cut.png", picture, PNG_COLOR_TYPE_RGB, FALSE);
    g_autoptr(GBytes) bytes = g_file_load_bytes (file, NULL, NULL, &error);
    g_autofree char *path = g_file_get_path (file);
    g_autoptr(TerrainAtlasFile) atlas = NULL;

    g_assert_no_error (error);
    g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                        (gssize) g_bytes_get_size (bytes) / 2, &error));
    g_assert_no_error (error);
    terrain_atlas_builder_set_texture_file (builder, file);
    atlas = terrain_atlas_builder_build (builder, NULL, &error);
    g_assert_null (atlas);
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "cut.png"));
    g_assert_nonnull (strstr (error->message, "PNG texture: decoding row"));
    g_assert_nonnull (strstr (error->message, "of 180"));
  }
  terrain_test_remove_tree (dir);
}

/* A colour PNG of the fixture hills in Terrain-RGB (@encoding 0),
 * Terrarium (1), or a picture that is neither (2). */
static GBytes *
encoded_hills_png (guint encoding)
{
  g_autoptr(TerrainImage) image = terrain_image_new (TERRAIN_IMAGE_RGBA8, 64, 64, NULL);
  guint8 *p = terrain_image_get_data (image, NULL);
  gsize stride = terrain_image_get_stride (image);
  g_autoptr(GError) error = NULL;
  GBytes *bytes;

  for (guint y = 0; y < 64; y++)
    for (guint x = 0; x < 64; x++)
      {
        gdouble metres = 200.0 + 1000.0 * terrain_test_hills (x / 63.0, y / 63.0);
        guint8 *q = p + y * stride + 4 * x;

        if (encoding == 0)
          {
            guint32 v = (guint32) lround ((metres + 10000.0) * 10.0);

            q[0] = (guint8) (v >> 16), q[1] = (guint8) (v >> 8), q[2] = (guint8) v;
          }
        else if (encoding == 1)
          {
            gdouble v = metres + 32768.0;

            q[0] = (guint8) ((guint) v >> 8), q[1] = (guint8) ((guint) v & 255);
            q[2] = (guint8) ((v - floor (v)) * 256.0);
          }
        else
          q[0] = (guint8) (x * 4), q[1] = (guint8) (y * 4), q[2] = 90;
        q[3] = 255;
      }
  bytes = terrain_image_save_png_bytes (image, &error);
  g_assert_no_error (error);
  return bytes;
}

/* A colour PNG opened as a heightmap (`terrain info/export-heightmap
 * --format heightmap`) is Terrain-RGB or Terrarium when its pixels say so
 * unambiguously, and is refused, naming --heightmap-format, when not: it
 * was read as grey luminance (the summit of fuji-terrain-rgb.png a hole). */
static void
test_colour_heightmaps (void)
{
  for (guint k = 0; k < 3; k++)
    {
      g_autoptr(GBytes) png = encoded_hills_png (k);
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainHeightmapDocument) document =
        terrain_heightmap_document_new_from_bytes (png, NULL, &error);

      if (k == 2)
        {
          g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
          g_assert_null (document);
          g_assert_nonnull (strstr (error->message, "--heightmap-format"));
          continue;
        }
      g_assert_no_error (error);
      {
        g_autoptr(JsonNode) node = terrain_document_describe (TERRAIN_DOCUMENT (document));
        JsonObject *object = json_node_get_object (node);
        TerrainHeightfield *field =
          terrain_heightmap_document_decode_heightfield (document, &error);
        gfloat lo, hi;

        g_assert_no_error (error);
        g_assert_cmpstr (json_object_get_string_member (object, "encoding"), ==,
                         k == 0 ? "terrain-rgb" : "terrarium");
        g_assert_cmpstr (json_object_get_string_member (object, "height_units"), ==, "metres");
        terrain_heightfield_get_range (field, &lo, &hi);
        g_assert_cmpfloat_with_epsilon (json_object_get_double_member (object, "max_height"),
                                        hi, 0.01);
        g_assert_cmpfloat (hi, >, 1000.0);
        g_assert_cmpfloat (lo, >=, 199.0);
        for (guint y = 0; y < 64; y += 9)
          for (guint x = 0; x < 64; x += 7)
            g_assert_cmpfloat_with_epsilon (terrain_heightfield_get_sample (field, x, y),
                                            200.0 + 1000.0 * terrain_test_hills (x / 63.0,
                                                                                 y / 63.0),
                                            0.11);
      }
    }
}

/* One heightmap reader everywhere: a Terrain-RGB or Terrarium PNG is
 * detected without --format (format detection, the document, the
 * heightfield sources give the same heights), a picture that is neither is
 * refused naming --heightmap-format, and a named encoding is read as named
 * by every command (`info`, `export-heightmap`, `build-atlas`), never as a
 * grey luminance. Before, `terrain info` said "not a file format libterrain
 * recognises" and the heightfield sources refused what the document read. */
static void
test_one_heightmap_reader (void)
{
  g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-builder-options");

  for (guint k = 0; k < 3; k++)
    {
      g_autoptr(GBytes) png = encoded_hills_png (k);
      g_autoptr(GError) error = NULL;
      g_autoptr(TerrainDocument) document = NULL;
      g_autoptr(TerrainHeightfield) field = NULL;
      g_autoptr(TerrainHeightmapDocument) named = NULL;
      g_autofree char *name = g_strdup_printf ("hills-%u.png", k);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *out = g_build_filename (dir, "out.png", NULL);
      g_autofree char *atlas = g_build_filename (dir, "out.atlas", NULL);

      g_assert_true (g_file_set_contents (path, g_bytes_get_data (png, NULL),
                                          (gssize) g_bytes_get_size (png), NULL));
      document = terrain_document_load_bytes (png, name, TERRAIN_FORMAT_UNKNOWN, NULL, &error);
      field = terrain_heightfield_new_from_bytes (png, name, NULL, error == NULL ? &error : NULL);
      if (k == 2)
        {
          g_auto(TerrainTestCliResult) info = terrain_test_run_cli (NULL, "info", path, NULL);
          g_auto(TerrainTestCliResult) build =
            terrain_test_run_cli (NULL, "build-atlas", path, "-o", atlas, NULL);
          g_auto(TerrainTestCliResult) named_info =
            terrain_test_run_cli (NULL, "info", "--heightmap-format", "terrain-rgb", path, NULL);

          g_assert_cmpint (terrain_format_detect (png, name), ==, TERRAIN_FORMAT_UNKNOWN);
          g_assert_null (document);
          g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_UNKNOWN_FORMAT);
          g_clear_error (&error);
          /* The sources refuse it as the document does: no grey guess. */
          field = terrain_heightfield_new_from_bytes (png, name, NULL, &error);
          g_assert_null (field);
          g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
          g_assert_nonnull (strstr (error->message, "--heightmap-format"));
          g_assert_cmpint (info.status, ==, 2);
          g_assert_nonnull (strstr (info.err, "--heightmap-format"));
          g_assert_cmpint (build.status, ==, 2);
          g_assert_nonnull (strstr (build.err, "--heightmap-format"));
          /* Named, it is read as named. */
          g_assert_cmpint (named_info.status, ==, 0);
          g_assert_nonnull (strstr (named_info.out, "encoding: terrain-rgb"));
          continue;
        }

      g_assert_no_error (error);
      g_assert_cmpint (terrain_format_detect (png, name), ==, TERRAIN_FORMAT_HEIGHTMAP);
      g_assert_true (TERRAIN_IS_HEIGHTMAP_DOCUMENT (document));
      g_assert_nonnull (field);
      {
        TerrainHeightfield *shown =
          terrain_heightmap_document_decode_heightfield (TERRAIN_HEIGHTMAP_DOCUMENT (document),
                                                         &error);

        g_assert_no_error (error);
        for (guint y = 0; y < 64; y += 5)
          for (guint x = 0; x < 64; x += 3)
            g_assert_cmpfloat (terrain_heightfield_get_sample (shown, x, y), ==,
                               terrain_heightfield_get_sample (field, x, y));
      }

      /* Named gray, a colour image is refused, naming the option. */
      named = terrain_heightmap_document_new_for_format (png, TERRAIN_HEIGHTMAP_GRAY, NULL, &error);
      g_assert_null (named);
      g_assert_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE);
      g_assert_nonnull (strstr (error->message, "--heightmap-format"));
      g_clear_error (&error);
      /* Named as the other encoding, it is read that way. */
      named = terrain_heightmap_document_new_for_format (png, k == 0 ? TERRAIN_HEIGHTMAP_TERRARIUM
                                                                     : TERRAIN_HEIGHTMAP_TERRAIN_RGB,
                                                         NULL, &error);
      g_assert_no_error (error);
      {
        g_autoptr(JsonNode) node = terrain_document_describe (TERRAIN_DOCUMENT (named));

        g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "encoding"),
                         ==, k == 0 ? "terrarium" : "terrain-rgb");
      }

      {
        g_auto(TerrainTestCliResult) info = terrain_test_run_cli (NULL, "info", path, NULL);
        g_auto(TerrainTestCliResult) other =
          terrain_test_run_cli (NULL, "info", "--heightmap-format",
                                k == 0 ? "terrarium" : "terrain-rgb", path, NULL);
        g_auto(TerrainTestCliResult) gray =
          terrain_test_run_cli (NULL, "export-heightmap", "--heightmap-format", "gray", path, out,
                                NULL);
        g_auto(TerrainTestCliResult) export =
          terrain_test_run_cli (NULL, "export-heightmap", path, out, NULL);
        g_auto(TerrainTestCliResult) bad =
          terrain_test_run_cli (NULL, "info", "--heightmap-format", "nonsense", path, NULL);
        g_auto(TerrainTestCliResult) both =
          terrain_test_run_cli (NULL, "info", "--format", "tnt", "--heightmap-format", "gray",
                                path, NULL);
        g_auto(TerrainTestCliResult) build =
          terrain_test_run_cli (NULL, "build-atlas", path, "-o", atlas, "-q", NULL);

        g_assert_cmpint (info.status, ==, 0);
        g_assert_nonnull (strstr (info.out, k == 0 ? "encoding: terrain-rgb"
                                                   : "encoding: terrarium"));
        g_assert_cmpint (other.status, ==, 0);
        g_assert_nonnull (strstr (other.out, k == 0 ? "encoding: terrarium"
                                                    : "encoding: terrain-rgb"));
        g_assert_cmpint (gray.status, ==, 2);
        g_assert_nonnull (strstr (gray.err, "--heightmap-format"));
        g_assert_cmpint (export.status, ==, 0);
        g_assert_cmpint (bad.status, ==, 64);
        g_assert_cmpint (both.status, ==, 64);
        g_assert_cmpint (build.status, ==, 0);
      }
    }
  terrain_test_remove_tree (dir);
}

/* The corpus Terrain-RGB tile through the CLI: metres in info, the summit
 * the highest value of the exported heights. */
static void
test_colour_heightmaps_corpus (gconstpointer data)
{
  const char *path = data;
  g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-builder-options");
  g_autofree char *out = g_build_filename (dir, "h.png", NULL);
  g_auto(TerrainTestCliResult) info =
    terrain_test_run_cli (NULL, "info", "--format", "heightmap", path, NULL);
  g_auto(TerrainTestCliResult) export =
    terrain_test_run_cli (NULL, "export-heightmap", "--format", "heightmap", path, out, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (out);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = terrain_file_load_bytes (file, NULL, &error);
  g_autoptr(TerrainImage) heights = NULL;
  const guint16 *p;
  guint16 top = 0;

  g_auto(TerrainTestCliResult) detected = terrain_test_run_cli (NULL, "info", path, NULL);

  g_assert_cmpint (info.status, ==, 0);
  g_assert_nonnull (strstr (info.out, "encoding: terrain-rgb"));
  g_assert_nonnull (strstr (info.out, "height_units: metres"));
  /* Without --format too: the file says what it is. */
  g_assert_cmpint (detected.status, ==, 0);
  g_assert_nonnull (strstr (detected.out, "encoding: terrain-rgb"));
  g_assert_cmpint (export.status, ==, 0);
  g_assert_no_error (error);
  heights = terrain_image_load_png_bytes (bytes, &error);
  g_assert_no_error (error);
  p = (const guint16 *) terrain_image_get_data (heights, NULL);
  for (gsize i = 0; i < (gsize) terrain_image_get_width (heights) *
                        terrain_image_get_height (heights); i++)
    top = MAX (top, p[i]);
  /* Metres + 32768: Fuji's summit is above 3,700 m. */
  g_assert_cmpuint (top, >, 32768 + 3700);
  terrain_test_remove_tree (dir);
}


/* The build report: per level chunks (4^level), triangles and measured
 * error adding up to the totals, texels per metre from the texture tree;
 * `build-atlas --json` prints it. */
static void
test_report (void)
{
  g_autoptr(TerrainHeightfield) field = make_hills (129, 2.0, 80.0);
  g_autoptr(TerrainImage) picture = make_picture (256, 256, FALSE);
  g_autoptr(TerrainAtlasBuilder) builder = terrain_atlas_builder_new (field);
  g_autoptr(TerrainAtlasFile) atlas = NULL;
  g_autoptr(GError) error = NULL;
  const TerrainAtlasBuildStats *stats;
  guint64 triangles = 0;
  guint chunks = 0;

  terrain_atlas_builder_set_tree_depth (builder, 3);
  terrain_atlas_builder_set_error (builder, 0.5);
  terrain_atlas_builder_set_measure_error (builder, TRUE);
  terrain_atlas_builder_set_tile_size (builder, 64);
  terrain_atlas_builder_set_texture_image (builder, picture);
  atlas = terrain_atlas_builder_build (builder, NULL, &error);
  g_assert_no_error (error);
  stats = terrain_atlas_builder_get_stats (builder);
  g_assert_cmpuint (stats->tree_depth, ==, 3);
  for (guint i = 0; i < stats->tree_depth; i++)
    {
      g_assert_cmpuint (stats->levels[i].n_chunks, ==, 1u << (2 * i));
      g_assert_cmpfloat (stats->levels[i].max_error, >=, 0.0);
      chunks += stats->levels[i].n_chunks;
      triangles += stats->levels[i].n_triangles;
    }
  g_assert_cmpuint (chunks, ==, stats->n_chunks);
  g_assert_cmpuint (triangles, ==, stats->n_triangles);
  g_assert_cmpfloat (stats->levels[2].max_error, ==, stats->max_error);
  g_assert_cmpfloat (stats->levels[2].max_error, <=, 0.5);
  /* Coarser levels are coarser. */
  g_assert_cmpuint (stats->levels[0].n_triangles, <, stats->levels[2].n_triangles);
  g_assert_cmpuint (stats->texture_width, ==, 256);
  g_assert_cmpuint (stats->texture_depth, ==, 3);

  {
    g_autofree char *dir = terrain_test_make_tmp_dir ("terrain-builder-options");
    g_autofree char *raw = write_raw16 (dir, field);
    g_autofree char *out = g_build_filename (dir, "r.atlas", NULL);
    g_auto(TerrainTestCliResult) r =
      terrain_test_run_cli (NULL, "build-atlas", raw, "--spacing=2", "--depth=3",
                            "--measure-error", "--json", "-o", out, NULL);
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *report;
    JsonArray *levels;

    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
    g_assert_no_error (error);
    report = json_node_get_object (json_parser_get_root (parser));
    levels = json_object_get_array_member (report, "levels");
    g_assert_cmpuint (json_array_get_length (levels), ==, 3);
    for (guint i = 0; i < 3; i++)
      {
        JsonObject *level = json_array_get_object_element (levels, i);

        g_assert_cmpint (json_object_get_int_member (level, "chunks"), ==, 1 << (2 * i));
        g_assert_cmpfloat (json_object_get_double_member (level, "max_error"), >=, 0.0);
      }
    g_assert_cmpint (json_object_get_int_member (report, "chunks"), ==, 21);
    terrain_test_remove_tree (dir);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/Terrain/AtlasBuilderOptions/ranges", test_ranges_library);
  g_test_add_func ("/Terrain/AtlasBuilderOptions/texture-png-streamed",
                   test_texture_png_streamed);
  g_test_add_func ("/Terrain/AtlasBuilderOptions/ranges-cli", test_ranges_cli);
  g_test_add_func ("/Terrain/AtlasBuilderOptions/tiny-spacing", test_tiny_spacing);
  g_test_add_func ("/Terrain/AtlasBuilderOptions/dds-encode", test_dds_encode);
  g_test_add_func ("/Terrain/AtlasBuilderOptions/dds-texture-tree", test_dds_texture_tree);
  g_test_add_func ("/Terrain/AtlasBuilderOptions/non-square-texture", test_non_square_texture);
  g_test_add_func ("/Terrain/AtlasBuilderOptions/issues", test_issues);
  g_test_add_func ("/Terrain/AtlasBuilderOptions/colour-heightmaps", test_colour_heightmaps);
  g_test_add_func ("/Terrain/AtlasBuilderOptions/one-heightmap-reader", test_one_heightmap_reader);
  g_test_add_func ("/Terrain/AtlasBuilderOptions/report", test_report);
  {
    const char *corpus = g_getenv ("TERRAIN_CORPUS_DIR");
    static char *fuji;

    fuji = corpus != NULL ? g_build_filename (corpus, "dem", "fuji-terrain-rgb.png", NULL) : NULL;
    if (fuji != NULL && g_file_test (fuji, G_FILE_TEST_IS_REGULAR))
      g_test_add_data_func ("/Terrain/AtlasBuilderOptions/colour-heightmaps-corpus", fuji,
                            test_colour_heightmaps_corpus);
  }

  return g_test_run ();
}
