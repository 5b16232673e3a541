/* terrain-tnt-map.c: placeholder until the TNT reader lands */
#include "config.h"

#include "terrain-tnt-map.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"

struct _TerrainTntMap
{
  TerrainDocument parent_instance;
};

G_DEFINE_FINAL_TYPE (TerrainTntMap, terrain_tnt_map, TERRAIN_TYPE_DOCUMENT)

static void
terrain_tnt_map_class_init (TerrainTntMapClass *klass)
{
}

static void
terrain_tnt_map_init (TerrainTntMap *self)
{
}

TerrainTntMap *
terrain_tnt_map_new_from_bytes (GBytes               *bytes,
                                const TerrainLimits  *limits,
                                GError              **error)
{
  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED, "TNT: not implemented yet");
  return NULL;
}
