/* terrain-feature-catalog.h: feature definitions from TDF files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <gio/gio.h>

#include "core/terrain-limits.h"
#include "terrain-game-files.h"
#include "terrain-hpi-archive.h"
#include "terrain-tdf-document.h"

G_BEGIN_DECLS

/**
 * TERRAIN_FEATURE_MAX_FOOTPRINT:
 *
 * Largest footprint side, in attribute cells, taken from a definition; a
 * larger, zero, negative or unreadable value counts as 1 and is reported by
 * [method@Terrain.FeatureCatalog.get_issues].
 */
#define TERRAIN_FEATURE_MAX_FOOTPRINT 256

#define TERRAIN_TYPE_FEATURE_DEFINITION (terrain_feature_definition_get_type ())

/**
 * TerrainFeatureDefinition:
 *
 * One feature: a top-level block of a feature TDF (`[Tree1] { ... }`), its
 * keys kept as written and the common ones read into types. Immutable.
 */
typedef struct _TerrainFeatureDefinition TerrainFeatureDefinition;

TERRAIN_AVAILABLE_IN_ALL
GType        terrain_feature_definition_get_type        (void) G_GNUC_CONST;
TERRAIN_AVAILABLE_IN_ALL
TerrainFeatureDefinition *
             terrain_feature_definition_ref             (TerrainFeatureDefinition       *definition);
TERRAIN_AVAILABLE_IN_ALL
void         terrain_feature_definition_unref           (TerrainFeatureDefinition       *definition);
TERRAIN_AVAILABLE_IN_ALL
const char  *terrain_feature_definition_get_name        (const TerrainFeatureDefinition *definition);
TERRAIN_AVAILABLE_IN_ALL
const char  *terrain_feature_definition_get_origin      (const TerrainFeatureDefinition *definition);
TERRAIN_AVAILABLE_IN_ALL
void         terrain_feature_definition_get_footprint   (const TerrainFeatureDefinition *definition,
                                                         guint                          *footprint_x,
                                                         guint                          *footprint_z);
TERRAIN_AVAILABLE_IN_ALL
const char  *terrain_feature_definition_get_value       (const TerrainFeatureDefinition *definition,
                                                         const char                     *key);
TERRAIN_AVAILABLE_IN_ALL
gint64       terrain_feature_definition_get_int         (const TerrainFeatureDefinition *definition,
                                                         const char                     *key,
                                                         gint64                          fallback);
TERRAIN_AVAILABLE_IN_ALL
gboolean     terrain_feature_definition_get_boolean     (const TerrainFeatureDefinition *definition,
                                                         const char                     *key,
                                                         gboolean                        fallback);
TERRAIN_AVAILABLE_IN_ALL
const char  *terrain_feature_definition_get_world       (const TerrainFeatureDefinition *definition);
TERRAIN_AVAILABLE_IN_ALL
const char  *terrain_feature_definition_get_description (const TerrainFeatureDefinition *definition);
TERRAIN_AVAILABLE_IN_ALL
const char  *terrain_feature_definition_get_category    (const TerrainFeatureDefinition *definition);
TERRAIN_AVAILABLE_IN_ALL
const char  *terrain_feature_definition_get_object      (const TerrainFeatureDefinition *definition);
TERRAIN_AVAILABLE_IN_ALL
gint         terrain_feature_definition_get_height      (const TerrainFeatureDefinition *definition);
TERRAIN_AVAILABLE_IN_ALL
gboolean     terrain_feature_definition_get_blocking    (const TerrainFeatureDefinition *definition);
TERRAIN_AVAILABLE_IN_ALL
gboolean     terrain_feature_definition_get_reclaimable (const TerrainFeatureDefinition *definition);
TERRAIN_AVAILABLE_IN_ALL
gint         terrain_feature_definition_get_metal       (const TerrainFeatureDefinition *definition);
TERRAIN_AVAILABLE_IN_ALL
gint         terrain_feature_definition_get_energy      (const TerrainFeatureDefinition *definition);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerrainFeatureDefinition, terrain_feature_definition_unref)

#define TERRAIN_TYPE_FEATURE_CATALOG (terrain_feature_catalog_get_type ())

TERRAIN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TerrainFeatureCatalog, terrain_feature_catalog, TERRAIN, FEATURE_CATALOG,
                      GObject)

TERRAIN_AVAILABLE_IN_ALL
TerrainFeatureCatalog    *terrain_feature_catalog_new            (void);
TERRAIN_AVAILABLE_IN_ALL
guint                     terrain_feature_catalog_add_document   (TerrainFeatureCatalog  *self,
                                                                  TerrainTdfDocument     *document,
                                                                  const char             *origin);
TERRAIN_AVAILABLE_IN_ALL
gboolean                  terrain_feature_catalog_add_bytes      (TerrainFeatureCatalog  *self,
                                                                  GBytes                 *bytes,
                                                                  const char             *origin,
                                                                  const TerrainLimits    *limits,
                                                                  GError                **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean                  terrain_feature_catalog_load_folder    (TerrainFeatureCatalog  *self,
                                                                  GFile                  *folder,
                                                                  const TerrainLimits    *limits,
                                                                  GCancellable           *cancellable,
                                                                  GError                **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean                  terrain_feature_catalog_load_archive   (TerrainFeatureCatalog  *self,
                                                                  TerrainHpiArchive      *archive,
                                                                  const char             *prefix,
                                                                  const TerrainLimits    *limits,
                                                                  GError                **error);
TERRAIN_AVAILABLE_IN_ALL
gboolean                  terrain_feature_catalog_load_game_files (TerrainFeatureCatalog  *self,
                                                                   TerrainGameFiles       *files,
                                                                   const TerrainLimits    *limits,
                                                                   GError                **error);
TERRAIN_AVAILABLE_IN_ALL
guint                     terrain_feature_catalog_get_n_features (TerrainFeatureCatalog  *self);
TERRAIN_AVAILABLE_IN_ALL
TerrainFeatureDefinition *terrain_feature_catalog_get_feature    (TerrainFeatureCatalog  *self,
                                                                  guint                   index);
TERRAIN_AVAILABLE_IN_ALL
TerrainFeatureDefinition *terrain_feature_catalog_lookup         (TerrainFeatureCatalog  *self,
                                                                  const char             *name);
TERRAIN_AVAILABLE_IN_ALL
gboolean                  terrain_feature_catalog_get_footprint  (TerrainFeatureCatalog  *self,
                                                                  const char             *name,
                                                                  guint                  *footprint_x,
                                                                  guint                  *footprint_z);
TERRAIN_AVAILABLE_IN_ALL
gboolean                  terrain_feature_catalog_footprint_func (const char             *name,
                                                                  guint                  *footprint_x,
                                                                  guint                  *footprint_z,
                                                                  gpointer                catalog);
TERRAIN_AVAILABLE_IN_ALL
GPtrArray                *terrain_feature_catalog_get_issues     (TerrainFeatureCatalog  *self);

G_END_DECLS
