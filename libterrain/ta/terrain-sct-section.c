/* terrain-sct-section.c: placeholder until the SCT reader lands */
#include "config.h"

#include "terrain-sct-section.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"

struct _TerrainSctSection
{
  TerrainDocument parent_instance;
};

G_DEFINE_FINAL_TYPE (TerrainSctSection, terrain_sct_section, TERRAIN_TYPE_DOCUMENT)

static void
terrain_sct_section_class_init (TerrainSctSectionClass *klass)
{
}

static void
terrain_sct_section_init (TerrainSctSection *self)
{
}

TerrainSctSection *
terrain_sct_section_new_from_bytes (GBytes               *bytes,
                                const TerrainLimits  *limits,
                                GError              **error)
{
  g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_NOT_SUPPORTED, "SCT: not implemented yet");
  return NULL;
}
