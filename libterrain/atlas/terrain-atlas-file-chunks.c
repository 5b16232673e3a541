/* terrain-atlas-file-chunks.c: Atlas chunk access, placing chunks, undo support
 * (the files of TerrainAtlasFile: terrain-atlas-file-impl-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-atlas-file-impl-private.h"
#include "terrain-quadtree.h"
#include "core/terrain-error.h"
#include "core/terrain-issue.h"
#include "core/terrain-relief-private.h"

/* ------------------------------------------------------------------------
 * Chunks
 */

gboolean
atlas_file_check_stub (TerrainAtlasFile  *self,
                       guint              toc,
                       guint              stub,
                       GError           **error)
{
  if (toc >= atlas_file_n_tocs (self))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "Atlas: no TOC %u (the file has %u)", toc, atlas_file_n_tocs (self));
      return FALSE;
    }
  if (stub >= terrain_atlas_toc_get_n_stubs (atlas_file_get_toc (self, toc)))
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "Atlas: TOC %u has no stub %u (it has %u)", toc, stub,
                   terrain_atlas_toc_get_n_stubs (atlas_file_get_toc (self, toc)));
      return FALSE;
    }
  return TRUE;
}

gboolean
atlas_file_check_kind (TerrainAtlasFile     *self,
                       guint                 toc,
                       TerrainAtlasTocKind   kind,
                       GError              **error)
{
  TerrainAtlasToc *t = atlas_file_get_toc (self, toc);

  if (terrain_atlas_toc_get_kind (t) == kind)
    return TRUE;
  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
               "Atlas: TOC %u is a %s TOC, not %s", toc, terrain_atlas_toc_get_tag (t),
               terrain_atlas_toc_kind_to_tag (kind));
  return FALSE;
}

/**
 * terrain_atlas_file_get_chunk_frame:
 * @self: a #TerrainAtlasFile
 * @toc: a TOC slot
 * @stub: a stub index in that TOC
 * @error: return location for a #GError
 *
 * Returns the stub's complete chunk frame (§2): `ATSP`, bodySize, head
 * marker, body, tail marker. For a file read from bytes this is a view of
 * those bytes, not a copy.
 *
 * Returns: (transfer full) (nullable): the frame, or %NULL with
 *   %TERRAIN_ERROR_OUT_OF_RANGE for a bad index or
 *   %TERRAIN_ERROR_INVALID_VALUE for an empty stub
 */
GBytes *
terrain_atlas_file_get_chunk_frame (TerrainAtlasFile  *self,
                                    guint              toc,
                                    guint              stub,
                                    GError           **error)
{
  TerrainAtlasStubData *data;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);

  if (!atlas_file_check_stub (self, toc, stub, error))
    return NULL;

  data = terrain_atlas_toc_get_stub_data (atlas_file_get_toc (self, toc), stub);
  if (data->frame != NULL)
    return g_bytes_ref (data->frame);
  if (!atlas_file_stub_has_chunk (data) || self->source == NULL)
    {
      g_autofree char *where = atlas_file_describe_stub (self, toc, stub);

      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                   "Atlas %s: the stub is empty (no chunk)", where);
      return NULL;
    }

  /* The reader checked the span against the source when it was loaded. */
  return g_bytes_new_from_bytes (self->source, data->offset, data->length);
}

/**
 * terrain_atlas_file_get_chunk_body:
 * @self: a #TerrainAtlasFile
 * @toc: a TOC slot
 * @stub: a stub index in that TOC
 * @error: return location for a #GError
 *
 * Reads the body of the chunk a stub refers to.
 *
 * Returns: (transfer full) (nullable): the bodySize bytes between the
 *   frame's head and tail markers, or %NULL as for
 *   [method@Terrain.AtlasFile.get_chunk_frame]
 */
GBytes *
terrain_atlas_file_get_chunk_body (TerrainAtlasFile  *self,
                                   guint              toc,
                                   guint              stub,
                                   GError           **error)
{
  g_autoptr(GBytes) frame = terrain_atlas_file_get_chunk_frame (self, toc, stub, error);

  if (frame == NULL)
    return NULL;
  return g_bytes_new_from_bytes (frame, ATLAS_FRAME_HEAD_SIZE,
                                 g_bytes_get_size (frame) - ATLAS_FRAME_OVERHEAD);
}

static goffset
body_offset (TerrainAtlasFile *self,
             guint             toc,
             guint             stub)
{
  return (goffset) terrain_atlas_toc_get_stub_data (atlas_file_get_toc (self, toc), stub)->offset +
         ATLAS_FRAME_HEAD_SIZE;
}

/* The decode prologue of every get_*: the stub's checks and its body, and
 * the decoder's error prefixed with the TOC and stub. */
static GBytes *
kind_body (TerrainAtlasFile     *self,
           guint                 toc,
           guint                 stub,
           TerrainAtlasTocKind   kind,
           GError              **error)
{
  if (!atlas_file_check_stub (self, toc, stub, error) ||
      !atlas_file_check_kind (self, toc, kind, error))
    return NULL;
  return terrain_atlas_file_get_chunk_body (self, toc, stub, error);
}

static gpointer
where_failed (TerrainAtlasFile  *self,
              guint              toc,
              guint              stub,
              gpointer           chunk,
              GError           **error)
{
  if (chunk == NULL)
    {
      g_autofree char *where = atlas_file_describe_stub (self, toc, stub);

      g_prefix_error (error, "%s: ", where);
    }
  return chunk;
}

/**
 * terrain_atlas_file_get_geometry:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a geometry TOC
 * @stub: a stub index in that TOC
 * @error: return location for a #GError
 *
 * Decodes a stub's geometry chunk at its TOC's version, see
 * [ctor@Terrain.AtlasGeometry.new_from_body]. Each call decodes anew and
 * returns an independent object.
 *
 * Returns: (transfer full) (nullable): the chunk, or %NULL with the
 *   decoder's error, prefixed with the TOC and stub
 */
TerrainAtlasGeometry *
terrain_atlas_file_get_geometry (TerrainAtlasFile  *self,
                                 guint              toc,
                                 guint              stub,
                                 GError           **error)
{
  g_autoptr(GBytes) body = NULL;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);

  body = kind_body (self, toc, stub, TERRAIN_ATLAS_TOC_GEOMETRY, error);
  if (body == NULL)
    return NULL;
  return where_failed (self, toc, stub,
                       terrain_atlas_geometry_new_from_body (body,
                                                             terrain_atlas_toc_get_version (atlas_file_get_toc (self, toc)),
                                                             body_offset (self, toc, stub),
                                                             &self->limits, error),
                       error);
}

/**
 * terrain_atlas_file_get_texture:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a texture TOC
 * @stub: a stub index in that TOC
 * @error: return location for a #GError
 *
 * Returns a stub's texture chunk: its format byte and encoded image, not
 * decoded (see [method@Terrain.AtlasTexture.decode]).
 *
 * Returns: (transfer full) (nullable): the chunk, or %NULL with a
 *   %TERRAIN_ERROR
 */
TerrainAtlasTexture *
terrain_atlas_file_get_texture (TerrainAtlasFile  *self,
                                guint              toc,
                                guint              stub,
                                GError           **error)
{
  g_autoptr(GBytes) body = NULL;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);

  body = kind_body (self, toc, stub, TERRAIN_ATLAS_TOC_TEXTURE, error);
  if (body == NULL)
    return NULL;
  return where_failed (self, toc, stub,
                       terrain_atlas_texture_new_from_body (body, body_offset (self, toc, stub), error),
                       error);
}

/**
 * terrain_atlas_file_get_config:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a Config TOC
 * @stub: a stub index in that TOC
 * @error: return location for a #GError
 *
 * Decodes a stub's config chunk, see
 * [ctor@Terrain.AtlasConfig.new_from_body].
 *
 * Returns: (transfer full) (nullable): the chunk, or %NULL with a
 *   %TERRAIN_ERROR
 */
TerrainAtlasConfig *
terrain_atlas_file_get_config (TerrainAtlasFile  *self,
                               guint              toc,
                               guint              stub,
                               GError           **error)
{
  g_autoptr(GBytes) body = NULL;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), NULL);

  body = kind_body (self, toc, stub, TERRAIN_ATLAS_TOC_CONFIG, error);
  if (body == NULL)
    return NULL;
  return where_failed (self, toc, stub,
                       terrain_atlas_config_new_from_body (body, body_offset (self, toc, stub),
                                                           &self->limits, error),
                       error);
}

/* ------------------------------------------------------------------------
 * Placing chunks
 */

/* Frames a body and makes it the stub's chunk. In a file read from bytes
 * the frame goes at the current end of the file, as TGEA appends it, and
 * the stub points there; in a file made in memory it waits for the writer.
 * With @bump, the generation counts one more write. */
static gboolean
place_body (TerrainAtlasFile  *self,
            guint              toc_index,
            guint              stub_index,
            GBytes            *body,
            gboolean           bump,
            GError           **error)
{
  TerrainAtlasToc *toc = atlas_file_get_toc (self, toc_index);
  TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (toc, stub_index);
  g_autoptr(GBytes) frame = NULL;
  gsize length;

  frame = terrain_atlas_frame_new (terrain_atlas_toc_get_kind (toc), body, error);
  if (frame == NULL)
    return FALSE;
  length = g_bytes_get_size (frame);

  if (self->source != NULL)
    {
      guint64 offset = (guint64) self->source_size + self->appended_size;

      if (offset + length > G_MAXUINT32)
        {
          g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_LIMIT_EXCEEDED,
                       "Atlas: appending a %" G_GSIZE_FORMAT "-byte chunk at byte offset %"
                       G_GUINT64_FORMAT " would pass the 4 GiB that 32-bit offsets address",
                       length, offset);
          return FALSE;
        }
      g_ptr_array_add (self->appended, g_bytes_ref (frame));
      self->appended_size += length;
      data->offset = (guint32) offset;
    }
  else
    data->offset = 0;

  data->length = (guint32) length;
  g_clear_pointer (&data->frame, g_bytes_unref);
  data->frame = g_steal_pointer (&frame);
  if (bump)
    data->generation++;

  terrain_atlas_toc_stub_changed (toc, stub_index);
  return TRUE;
}

/**
 * terrain_atlas_file_set_chunk_body:
 * @self: a #TerrainAtlasFile
 * @toc: a TOC slot
 * @stub: a stub index in that TOC
 * @body: the resource body, framed with the TOC kind's markers
 * @error: return location for a #GError
 *
 * Places a raw chunk body without recording history: the stub's generation
 * is left as it is. See [method@Terrain.AtlasFile.set_geometry].
 *
 * Returns: %TRUE, or %FALSE with a %TERRAIN_ERROR
 */
gboolean
terrain_atlas_file_set_chunk_body (TerrainAtlasFile  *self,
                                   guint              toc,
                                   guint              stub,
                                   GBytes            *body,
                                   GError           **error)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);
  g_return_val_if_fail (body != NULL, FALSE);

  return atlas_file_check_stub (self, toc, stub, error) &&
         place_body (self, toc, stub, body, FALSE, error);
}

static void
set_stub_bounds (TerrainAtlasFile      *self,
                 guint                  toc_index,
                 guint                  stub_index,
                 const TerrainAtlasBox *bounds)
{
  TerrainAtlasToc *toc = atlas_file_get_toc (self, toc_index);
  TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (toc, stub_index);

  if (terrain_atlas_toc_get_version (toc) < 101 || terrain_atlas_box_equal (&data->bounds, bounds))
    return;
  data->bounds = *bounds;
  terrain_atlas_toc_stub_changed (toc, stub_index);
}

/* The bounds a node should have (TGEA's generate(), §9b): its own
 * vertices and the stored bounds of its children that have chunks. */
static void
node_bounds (TerrainAtlasFile     *self,
             guint                 toc_index,
             guint                 stub_index,
             TerrainAtlasGeometry *geometry,
             TerrainAtlasBox      *bounds)
{
  TerrainAtlasToc *toc = atlas_file_get_toc (self, toc_index);
  gboolean any = terrain_atlas_geometry_compute_bounds (geometry, bounds);
  guint level;

  if (!terrain_atlas_toc_get_stub_node (toc, stub_index, &level, NULL, NULL) ||
      level + 1 >= terrain_atlas_toc_get_tree_depth (toc))
    return;

  for (guint k = 0; k < 4; k++)
    {
      guint64 child = terrain_quadtree_child (stub_index, k);
      TerrainAtlasStubData *data;

      if (child >= terrain_atlas_toc_get_n_stubs (toc))
        continue;
      data = terrain_atlas_toc_get_stub_data (toc, (guint) child);
      if (!atlas_file_stub_has_chunk (data))
        continue;
      if (any)
        terrain_atlas_box_union (bounds, &data->bounds);
      else
        *bounds = data->bounds;
      any = TRUE;
    }
}

/* The stub's checks and the chunk's body. With @history a chunk is
 * written the TGEA way (replace_*: previousChunk is the stub's old offset,
 * the generation counts one more write); without, it is placed the way an
 * importer builds a file (set_*). The history flag is the only difference
 * between the two families. */
typedef GBytes *(*ChunkEncoder) (TerrainAtlasFile  *self,
                                 guint              toc,
                                 guint              stub,
                                 gpointer           chunk,
                                 gboolean           history,
                                 GError           **error);

static gboolean
place_chunk (TerrainAtlasFile     *self,
             guint                 toc,
             guint                 stub,
             TerrainAtlasTocKind   kind,
             ChunkEncoder          encode,
             gpointer              chunk,
             gboolean              history,
             GError              **error)
{
  g_autoptr(GBytes) body = NULL;

  if (!atlas_file_check_stub (self, toc, stub, error) ||
      !atlas_file_check_kind (self, toc, kind, error))
    return FALSE;
  body = encode (self, toc, stub, chunk, history, error);
  return body != NULL && place_body (self, toc, stub, body, history, error);
}

static guint32
stub_offset (TerrainAtlasFile *self,
             guint             toc,
             guint             stub)
{
  return terrain_atlas_toc_get_stub_data (atlas_file_get_toc (self, toc), stub)->offset;
}

/* With @history: previousChunk, the recomputed bounds (own vertices and
 * children, §9b) and, when the chunk has one, the collision block again. */
static GBytes *
encode_geometry (TerrainAtlasFile  *self,
                 guint              toc,
                 guint              stub,
                 gpointer           chunk,
                 gboolean           history,
                 GError           **error)
{
  TerrainAtlasGeometry *geometry = chunk;
  guint32 version = terrain_atlas_toc_get_version (atlas_file_get_toc (self, toc));

  if (history)
    {
      TerrainAtlasBox bounds;

      terrain_atlas_geometry_set_previous_chunk (geometry, stub_offset (self, toc, stub));
      node_bounds (self, toc, stub, geometry, &bounds);
      terrain_atlas_geometry_set_bounds (geometry, &bounds);
      if (version >= 120 && terrain_atlas_geometry_has_collision (geometry))
        {
          guint32 depth = terrain_atlas_geometry_get_collision_depth (geometry);

          if (depth >= 1 && depth <= 8 &&
              !terrain_atlas_geometry_generate_collision (geometry, depth, error))
            return NULL;
        }
    }
  return terrain_atlas_geometry_encode_body (geometry, version, NULL, error);
}

static GBytes *
encode_texture (TerrainAtlasFile  *self,
                guint              toc,
                guint              stub,
                gpointer           chunk,
                gboolean           history,
                GError           **error)
{
  /* Texture bodies have no previousChunk (§2). */
  return terrain_atlas_texture_encode_body (chunk, error);
}

static GBytes *
encode_config (TerrainAtlasFile  *self,
               guint              toc,
               guint              stub,
               gpointer           chunk,
               gboolean           history,
               GError           **error)
{
  if (history)
    terrain_atlas_config_set_previous_chunk (chunk, stub_offset (self, toc, stub));
  return terrain_atlas_config_encode_body (chunk, error);
}

/* Up the tree from @stub while bounds change: each ancestor whose bounds
 * no longer hold its children is written again the TGEA way. */
static gboolean
rewrite_ancestors (TerrainAtlasFile  *self,
                   guint              toc,
                   guint              stub,
                   GError           **error)
{
  TerrainAtlasToc *t = atlas_file_get_toc (self, toc);
  guint64 node = stub;

  if (terrain_atlas_toc_get_version (t) < 101)
    return TRUE;
  while (terrain_quadtree_parent (node, &node) && node < terrain_atlas_toc_get_n_stubs (t))
    {
      TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (t, (guint) node);
      g_autoptr(TerrainAtlasGeometry) parent = NULL;
      g_autoptr(GBytes) parent_body = NULL;
      TerrainAtlasBox bounds, stored;

      if (!atlas_file_stub_has_chunk (data))
        break;
      parent = terrain_atlas_file_get_geometry (self, toc, (guint) node, error);
      if (parent == NULL)
        return FALSE;

      node_bounds (self, toc, (guint) node, parent, &bounds);
      terrain_atlas_geometry_get_bounds (parent, &stored);
      if (terrain_atlas_box_equal (&bounds, &stored) &&
          terrain_atlas_box_equal (&bounds, &data->bounds))
        break;

      /* Only the bounds and previousChunk change: an ancestor's collision
       * block is its own vertices' and stays as it was. */
      terrain_atlas_geometry_set_bounds (parent, &bounds);
      terrain_atlas_geometry_set_previous_chunk (parent, data->offset);
      parent_body = terrain_atlas_geometry_encode_body (parent, terrain_atlas_toc_get_version (t),
                                                        NULL, error);
      if (parent_body == NULL || !place_body (self, toc, (guint) node, parent_body, TRUE, error))
        return FALSE;
      set_stub_bounds (self, toc, (guint) node, &bounds);
    }
  return TRUE;
}

static gboolean
place_geometry (TerrainAtlasFile      *self,
                guint                  toc,
                guint                  stub,
                TerrainAtlasGeometry  *geometry,
                gboolean               history,
                GError               **error)
{
  TerrainAtlasBox bounds;

  if (!place_chunk (self, toc, stub, TERRAIN_ATLAS_TOC_GEOMETRY, encode_geometry, geometry,
                    history, error))
    return FALSE;
  terrain_atlas_geometry_get_bounds (geometry, &bounds);
  set_stub_bounds (self, toc, stub, &bounds);
  return !history || rewrite_ancestors (self, toc, stub, error);
}

/**
 * terrain_atlas_file_set_geometry:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a geometry TOC
 * @stub: a stub index in that TOC
 * @geometry: the chunk
 * @error: return location for a #GError
 *
 * Places a geometry chunk without recording history, the way an importer
 * or converter builds a file (§9b): the chunk is encoded at the TOC's
 * version with its own previousChunk and bounds, the stub's bounds become
 * the chunk's, and the stub's generation is left as it is (0 in a new
 * TOC). What the TOC's version cannot hold (normals, collision) is
 * dropped; see [method@Terrain.AtlasGeometry.encode_body]. Bounds are not
 * recomputed: set them, or call [method@Terrain.AtlasFile.update_bounds]
 * once every chunk is placed.
 *
 * In a file made in memory the chunk is laid out when the file is written;
 * in a file read from bytes it is appended at the end.
 *
 * Returns: %TRUE, or %FALSE with a %TERRAIN_ERROR
 */
gboolean
terrain_atlas_file_set_geometry (TerrainAtlasFile      *self,
                                 guint                  toc,
                                 guint                  stub,
                                 TerrainAtlasGeometry  *geometry,
                                 GError               **error)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (geometry), FALSE);

  return place_geometry (self, toc, stub, geometry, FALSE, error);
}

/**
 * terrain_atlas_file_set_texture:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a texture TOC
 * @stub: a stub index in that TOC
 * @texture: the chunk
 * @error: return location for a #GError
 *
 * Places a texture chunk without recording history (generation left as
 * it is), as [method@Terrain.AtlasFile.set_geometry] does. When a file made
 * in memory is written, identical frames are stored once and their stubs
 * share the offset, as TQT nodes with repeated tile offsets do (§9e).
 *
 * Returns: %TRUE, or %FALSE with a %TERRAIN_ERROR
 */
gboolean
terrain_atlas_file_set_texture (TerrainAtlasFile     *self,
                                guint                 toc,
                                guint                 stub,
                                TerrainAtlasTexture  *texture,
                                GError              **error)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TEXTURE (texture), FALSE);

  return place_chunk (self, toc, stub, TERRAIN_ATLAS_TOC_TEXTURE, encode_texture, texture, FALSE,
                      error);
}

/**
 * terrain_atlas_file_set_config:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a Config TOC
 * @stub: a stub index in that TOC
 * @config: the chunk
 * @error: return location for a #GError
 *
 * Places a config chunk without recording history, as
 * [method@Terrain.AtlasFile.set_geometry] does. The stub's name is set with
 * [method@Terrain.AtlasToc.set_stub_name].
 *
 * Returns: %TRUE, or %FALSE with a %TERRAIN_ERROR
 */
gboolean
terrain_atlas_file_set_config (TerrainAtlasFile    *self,
                               guint                toc,
                               guint                stub,
                               TerrainAtlasConfig  *config,
                               GError             **error)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_ATLAS_CONFIG (config), FALSE);

  return place_chunk (self, toc, stub, TERRAIN_ATLAS_TOC_CONFIG, encode_config, config, FALSE,
                      error);
}

/**
 * terrain_atlas_file_update_bounds:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a geometry TOC of version 101 or later
 * @error: return location for a #GError
 *
 * Recomputes the bounds of a whole geometry tree from the leaves to the
 * root (§9b): each chunk's bounds hold its own vertices and the bounds of
 * its children; chunk and stub get the same box. Chunks whose bounds change
 * are placed again without recording history, as
 * [method@Terrain.AtlasFile.set_geometry] does; an importer calls this once
 * after placing every chunk. TOCs before version 101 store no bounds and
 * are left alone.
 *
 * Returns: %TRUE, or %FALSE with a %TERRAIN_ERROR (a chunk that does not
 *   decode)
 */
gboolean
terrain_atlas_file_update_bounds (TerrainAtlasFile  *self,
                                  guint              toc,
                                  GError           **error)
{
  TerrainAtlasToc *t;
  guint n;

  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);

  if (toc >= atlas_file_n_tocs (self))
    return atlas_file_check_stub (self, toc, 0, error);
  if (!atlas_file_check_kind (self, toc, TERRAIN_ATLAS_TOC_GEOMETRY, error))
    return FALSE;

  t = atlas_file_get_toc (self, toc);
  if (terrain_atlas_toc_get_version (t) < 101)
    return TRUE;

  n = terrain_atlas_toc_get_n_stubs (t);
  for (guint i = n; i-- > 0;)
    {
      TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (t, i);
      g_autoptr(TerrainAtlasGeometry) geometry = NULL;
      TerrainAtlasBox bounds, stored;

      if (!atlas_file_stub_has_chunk (data))
        continue;
      geometry = terrain_atlas_file_get_geometry (self, toc, i, error);
      if (geometry == NULL)
        return FALSE;

      node_bounds (self, toc, i, geometry, &bounds);
      terrain_atlas_geometry_get_bounds (geometry, &stored);
      if (!terrain_atlas_box_equal (&bounds, &stored))
        {
          terrain_atlas_geometry_set_bounds (geometry, &bounds);
          if (!terrain_atlas_file_set_geometry (self, toc, i, geometry, error))
            return FALSE;
        }
      set_stub_bounds (self, toc, i, &bounds);
    }

  return TRUE;
}

/**
 * terrain_atlas_file_replace_geometry:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a geometry TOC
 * @stub: a stub index in that TOC
 * @geometry: the edited chunk, e.g. from
 *   [method@Terrain.AtlasFile.get_geometry] with moved vertices; its
 *   previousChunk, bounds and collision are updated in place
 * @error: return location for a #GError
 *
 * Writes an edited geometry chunk the way TGEA does (field-notes.md,
 * "Atlas (TGEA) writer conventions"): previousChunk becomes the stub's old
 * offset; the chunk's bounds are recomputed (its vertices and its
 * children's bounds) and, if it has collision, so is its collision block
 * (same depth, see [method@Terrain.AtlasGeometry.generate_collision]); the
 * frame is appended at the end of the file; the stub gets the new offset,
 * length and bounds and one more generation. Every ancestor whose bounds no
 * longer match is rewritten the same way, up to the root. The old frames
 * stay in the file as history and every other byte is kept.
 *
 * Returns: %TRUE, or %FALSE with a %TERRAIN_ERROR
 */
gboolean
terrain_atlas_file_replace_geometry (TerrainAtlasFile      *self,
                                     guint                  toc,
                                     guint                  stub,
                                     TerrainAtlasGeometry  *geometry,
                                     GError               **error)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_ATLAS_GEOMETRY (geometry), FALSE);

  return place_geometry (self, toc, stub, geometry, TRUE, error);
}

/**
 * terrain_atlas_file_replace_texture:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a texture TOC
 * @stub: a stub index in that TOC
 * @texture: the new texture, e.g. from
 *   [ctor@Terrain.AtlasTexture.new_from_image]
 * @error: return location for a #GError
 *
 * Writes a new texture chunk the TGEA way: appended at the end of the file,
 * the stub pointing at it with one more generation, the old frame kept as
 * history. Texture bodies have no previousChunk (§2).
 *
 * Returns: %TRUE, or %FALSE with a %TERRAIN_ERROR
 */
gboolean
terrain_atlas_file_replace_texture (TerrainAtlasFile     *self,
                                    guint                 toc,
                                    guint                 stub,
                                    TerrainAtlasTexture  *texture,
                                    GError              **error)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_ATLAS_TEXTURE (texture), FALSE);

  return place_chunk (self, toc, stub, TERRAIN_ATLAS_TOC_TEXTURE, encode_texture, texture, TRUE,
                      error);
}

/**
 * terrain_atlas_file_replace_config:
 * @self: a #TerrainAtlasFile
 * @toc: the slot of a Config TOC
 * @stub: a stub index in that TOC
 * @config: the edited entries, e.g. from
 *   [method@Terrain.AtlasFile.get_config] after
 *   [method@Terrain.AtlasConfig.set]; its previousChunk is set in place
 * @error: return location for a #GError
 *
 * Writes edited config entries the TGEA way: previousChunk becomes the old
 * offset, the frame is appended, the stub gets one more generation.
 *
 * Returns: %TRUE, or %FALSE with a %TERRAIN_ERROR
 */
gboolean
terrain_atlas_file_replace_config (TerrainAtlasFile    *self,
                                   guint                toc,
                                   guint                stub,
                                   TerrainAtlasConfig  *config,
                                   GError             **error)
{
  g_return_val_if_fail (TERRAIN_IS_ATLAS_FILE (self), FALSE);
  g_return_val_if_fail (TERRAIN_IS_ATLAS_CONFIG (config), FALSE);

  return place_chunk (self, toc, stub, TERRAIN_ATLAS_TOC_CONFIG, encode_config, config, TRUE,
                      error);
}

/* ------------------------------------------------------------------------
 * Undo support (terrain-atlas-edit.c)
 */

struct _AtlasStubSnapshot
{
  guint toc;
  guint stub;
  guint32 offset;
  guint32 length;
  guint32 generation;
  GBytes *frame;
  guint n_appended;
  gsize appended_size;
};

/* Records what place_body() changes for one stub, so that
 * terrain_atlas_file_restore_stub() can put it back exactly: the stub's
 * offset, length, generation and frame, and the frames appended so far. */
AtlasStubSnapshot *
terrain_atlas_file_snapshot_stub (TerrainAtlasFile *self,
                                  guint             toc,
                                  guint             stub)
{
  TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (atlas_file_get_toc (self, toc), stub);
  AtlasStubSnapshot *snapshot = g_new0 (AtlasStubSnapshot, 1);

  snapshot->toc = toc;
  snapshot->stub = stub;
  snapshot->offset = data->offset;
  snapshot->length = data->length;
  snapshot->generation = data->generation;
  snapshot->frame = data->frame != NULL ? g_bytes_ref (data->frame) : NULL;
  snapshot->n_appended = self->appended->len;
  snapshot->appended_size = self->appended_size;
  return snapshot;
}

void
terrain_atlas_file_restore_stub (TerrainAtlasFile  *self,
                                 AtlasStubSnapshot *snapshot)
{
  TerrainAtlasToc *toc = atlas_file_get_toc (self, snapshot->toc);
  TerrainAtlasStubData *data = terrain_atlas_toc_get_stub_data (toc, snapshot->stub);

  if (self->appended->len > snapshot->n_appended)
    g_ptr_array_set_size (self->appended, snapshot->n_appended);
  self->appended_size = snapshot->appended_size;

  data->offset = snapshot->offset;
  data->length = snapshot->length;
  data->generation = snapshot->generation;
  g_clear_pointer (&data->frame, g_bytes_unref);
  data->frame = snapshot->frame != NULL ? g_bytes_ref (snapshot->frame) : NULL;

  terrain_atlas_toc_stub_changed (toc, snapshot->stub);
}

void
terrain_atlas_stub_snapshot_free (AtlasStubSnapshot *snapshot)
{
  if (snapshot == NULL)
    return;
  g_clear_pointer (&snapshot->frame, g_bytes_unref);
  g_free (snapshot);
}
