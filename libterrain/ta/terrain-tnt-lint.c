/* terrain-tnt-lint.c: map-design checks for Total Annihilation maps
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "terrain-tnt-lint.h"
#include "core/terrain-document.h"
#include "core/terrain-issue.h"

/*
 * The checks are kbot's map-quality rules (coreprime/kbot,
 * `internal/maplint/maplint.go` and `cmd/kbot/tnt/tnt_lint.go`): required
 * OTA fields, start positions in bounds and on passable ground, schema slots
 * for every advertised player count, metal near each start, unreachable void
 * islands, height cliffs, duplicate and unused tiles; plus what
 * `terrain validate` finds and the features the game would abort on. Their
 * thresholds are kbot's (terrain-tnt-lint.h). Where kbot differs from the
 * engine libterrain follows the engine: void is the feature word 0xFFFC (and
 * the runtime's 0xFFFD), not the footprint fringe 0xFFFE kbot also counts,
 * and the play area is `Width*16-32` by `Height*16-128` pixels
 * (tnt-sct.md, "Minimap").
 */

typedef struct
{
  const char *id;
  const char *text;
} LintRule;

static const LintRule lint_rules[] = {
  { "tnt.validate", "A finding of terrain validate on the map." },
  { "ota.validate", "A finding of terrain validate on the .ota." },
  { "ota.fields", "Lobby-required .ota metadata is missing (missionname, missiondescription, "
    "planet, numplayers, size, a schema)." },
  { "ota.start-in-bounds", "A start position lies outside the map or its play area." },
  { "ota.start-passable", "A start position lies on a void cell." },
  { "ota.schema-slots", "An advertised player count has no schema with that many start "
    "positions." },
  { "tnt.metal-near-start", "A start position has no metal-producing feature within 24 tiles." },
  { "tnt.void-islands", "20 or more passable cells are unreachable from every start." },
  { "tnt.height-cliffs", "Neighbouring cells differ by more than 32 height units: cliffs that "
    "ground units cannot climb." },
  { "tnt.duplicate-tiles", "Byte-identical tile graphics in the tile set." },
  { "tnt.unused-tiles", "Tile graphics that no tile-map entry uses." },
  { "tnt.feature-missing", "A feature record names no feature of the catalogue: the game "
    "aborts (\"Record ... missing from feature files\")." },
  { "features.tdf", "A finding about the feature TDFs read: footprints, repeated names, "
    "unreadable files." },
};

static const char * const *
rule_ids (void)
{
  static const char *ids[G_N_ELEMENTS (lint_rules) + 1];

  if (ids[0] == NULL)
    for (guint i = 0; i < G_N_ELEMENTS (lint_rules); i++)
      ids[i] = lint_rules[i].id;
  return ids;
}

/**
 * terrain_tnt_lint_get_rules:
 *
 * Lists the rule identifiers [func@Terrain.tnt_lint] reports under
 * ([method@Terrain.Issue.get_rule]).
 *
 * Returns: (transfer none) (array zero-terminated=1): the identifiers
 */
const char * const *
terrain_tnt_lint_get_rules (void)
{
  return rule_ids ();
}

/**
 * terrain_tnt_lint_describe_rule:
 * @rule: a rule identifier
 *
 * Describes a lint rule in one sentence.
 *
 * Returns: (nullable): the description, or %NULL for an unknown rule
 */
const char *
terrain_tnt_lint_describe_rule (const char *rule)
{
  g_return_val_if_fail (rule != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (lint_rules); i++)
    if (strcmp (lint_rules[i].id, rule) == 0)
      return lint_rules[i].text;
  return NULL;
}

static TerrainIssue *
add (GPtrArray       *issues,
     const char      *rule,
     TerrainSeverity  severity,
     const char      *section,
     gint             x,
     gint             y,
     const char      *format,
     ...) G_GNUC_PRINTF (7, 8);

static TerrainIssue *
add (GPtrArray       *issues,
     const char      *rule,
     TerrainSeverity  severity,
     const char      *section,
     gint             x,
     gint             y,
     const char      *format,
     ...)
{
  g_autofree char *message = NULL;
  TerrainIssue *issue;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  issue = terrain_issue_new_literal (severity, section, -1, -1, message);
  terrain_issue_set_rule (issue, rule);
  if (x >= 0 && y >= 0)
    terrain_issue_set_position (issue, x, y);
  g_ptr_array_add (issues, issue);
  return issue;
}

static void
add_validation (GPtrArray       *issues,
                TerrainDocument *document,
                const char      *rule)
{
  g_autoptr(GPtrArray) found = terrain_document_validate (document);

  for (guint i = 0; found != NULL && i < found->len; i++)
    {
      TerrainIssue *issue = terrain_issue_ref (g_ptr_array_index (found, i));

      if (terrain_issue_get_rule (issue) == NULL)
        terrain_issue_set_rule (issue, rule);
      g_ptr_array_add (issues, issue);
    }
}

static gboolean
is_void (guint16 feature)
{
  return feature == TERRAIN_TNT_FEATURE_VOID || feature == TERRAIN_TNT_FEATURE_VOID + 1;
}

typedef struct
{
  guint schema;
  guint player;
  gint  x;        /* pixels */
  gint  z;
} Start;

static GArray *
collect_starts (TerrainOtaFile *ota)
{
  GArray *starts = g_array_new (FALSE, FALSE, sizeof (Start));

  for (guint s = 0; ota != NULL && s < terrain_ota_file_get_n_schemas (ota); s++)
    {
      guint n = 0;
      g_autofree TerrainOtaStartPosition *positions =
        terrain_ota_file_get_start_positions (ota, s, &n);

      for (guint i = 0; i < n; i++)
        g_array_append_val (starts, ((Start) { s, positions[i].player, positions[i].x,
                                               positions[i].z }));
    }
  return starts;
}

static void
check_ota_fields (GPtrArray      *issues,
                  TerrainOtaFile *ota)
{
  static const char * const required[] = {
    "missionname", "missiondescription", "planet", "numplayers", "size",
  };
  g_autoptr(GString) missing = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (required); i++)
    {
      const char *value = terrain_ota_file_get_header_value (ota, required[i]);
      g_autofree char *stripped = g_strstrip (g_strdup (value != NULL ? value : ""));

      if (*stripped == '\0')
        g_string_append_printf (missing, "%s%s", missing->len > 0 ? ", " : "", required[i]);
    }
  if (terrain_ota_file_get_n_schemas (ota) == 0)
    g_string_append_printf (missing, "%sa [Schema N] block", missing->len > 0 ? ", " : "");
  if (missing->len > 0)
    add (issues, "ota.fields", TERRAIN_SEVERITY_WARNING, "GlobalHeader", -1, -1,
         "the lobby needs %s (missing or empty)", missing->str);
}

static void
check_schema_slots (GPtrArray      *issues,
                    TerrainOtaFile *ota,
                    GArray         *starts)
{
  const char *numplayers = terrain_ota_file_get_header_value (ota, "numplayers");
  g_auto(GStrv) counts = NULL;
  guint most = 0;

  if (numplayers == NULL || terrain_ota_file_get_n_schemas (ota) == 0)
    return;
  for (guint s = 0; s < terrain_ota_file_get_n_schemas (ota); s++)
    {
      guint n = 0;

      for (guint i = 0; i < starts->len; i++)
        if (g_array_index (starts, Start, i).schema == s)
          n++;
      most = MAX (most, n);
    }
  counts = g_strsplit_set (numplayers, ", ;", -1);
  for (guint i = 0; counts[i] != NULL; i++)
    {
      gint64 count;

      if (!g_ascii_string_to_signed (counts[i], 10, 1, 10, &count, NULL))
        continue;
      if ((guint) count > most)
        add (issues, "ota.schema-slots", TERRAIN_SEVERITY_WARNING, "GlobalHeader", -1, -1,
             "numplayers offers %" G_GINT64_FORMAT " players but no schema has more than %u "
             "start positions", count, most);
    }
}

static void
check_starts (GPtrArray     *issues,
              TerrainTntMap *map,
              GArray        *starts)
{
  guint width = terrain_tnt_map_get_width (map);
  guint height = terrain_tnt_map_get_height (map);
  guint play_right, play_bottom;

  terrain_tnt_map_get_play_area (map, &play_right, &play_bottom);

  for (guint i = 0; i < starts->len; i++)
    {
      const Start *start = &g_array_index (starts, Start, i);
      gint cx = start->x / TERRAIN_TNT_CELL_PIXELS;
      gint cy = start->z / TERRAIN_TNT_CELL_PIXELS;

      if (start->x < 0 || start->z < 0 || cx >= (gint) width || cy >= (gint) height)
        {
          add (issues, "ota.start-in-bounds", TERRAIN_SEVERITY_WARNING, "specials", -1, -1,
               "schema %u StartPos%u (%d, %d) is outside the %ux%u-pixel map", start->schema,
               start->player, start->x, start->z, width * TERRAIN_TNT_CELL_PIXELS,
               height * TERRAIN_TNT_CELL_PIXELS);
          continue;
        }
      if (start->x >= (gint) play_right || start->z >= (gint) play_bottom)
        add (issues, "ota.start-in-bounds", TERRAIN_SEVERITY_WARNING, "specials", cx, cy,
             "schema %u StartPos%u (%d, %d) is outside the play area (%ux%u pixels: the map "
             "less 32 on the east and 128 on the south)", start->schema, start->player,
             start->x, start->z, play_right, play_bottom);
      if (is_void (terrain_tnt_map_get_cell_feature (map, cx, cy)))
        add (issues, "ota.start-passable", TERRAIN_SEVERITY_WARNING, "specials", cx, cy,
             "schema %u StartPos%u (%d, %d) is on a void cell", start->schema, start->player,
             start->x, start->z);
    }
}

static void
check_metal (GPtrArray             *issues,
             TerrainTntMap         *map,
             TerrainOtaFile        *ota,
             TerrainFeatureCatalog *catalog,
             GArray                *starts)
{
  g_autoptr(GArray) placements = terrain_tnt_map_list_placements (map);
  g_autoptr(GArray) metals = g_array_new (FALSE, FALSE, sizeof (gdouble) * 2);
  gdouble range = TERRAIN_TNT_LINT_METAL_RANGE;

  for (guint i = 0; i < placements->len; i++)
    {
      const TerrainTntPlacement *p = &g_array_index (placements, TerrainTntPlacement, i);
      TerrainFeatureDefinition *definition;
      gdouble at[2];

      if (p->feature >= terrain_tnt_map_get_n_features (map))
        continue;
      definition = terrain_feature_catalog_lookup (
        catalog, terrain_tnt_map_get_feature_name (map, p->feature));
      if (definition == NULL || terrain_feature_definition_get_metal (definition) <= 0)
        continue;
      /* Cells to tiles. */
      at[0] = p->x / 2.0;
      at[1] = p->y / 2.0;
      g_array_append_vals (metals, at, 1);
    }

  for (guint i = 0; i < starts->len; i++)
    {
      const Start *start = &g_array_index (starts, Start, i);
      TerrainTdfSection *schema = terrain_ota_file_get_schema (ota, start->schema);
      const char *surface = schema != NULL ? terrain_tdf_section_get_value (schema, "surfacemetal")
                                           : NULL;
      gdouble sx = start->x / 32.0, sz = start->z / 32.0, nearest = G_MAXDOUBLE;

      /* Metal-rich schemas (kbot: SurfaceMetal of 8 or more) extract anywhere. */
      if (surface != NULL && g_ascii_strtoll (surface, NULL, 10) >= 8)
        continue;
      for (guint m = 0; m < metals->len; m++)
        {
          const gdouble *at = &g_array_index (metals, gdouble, 2 * m);
          gdouble d = (sx - at[0]) * (sx - at[0]) + (sz - at[1]) * (sz - at[1]);

          nearest = MIN (nearest, d);
        }
      if (nearest > range * range)
        {
          if (metals->len == 0)
            add (issues, "tnt.metal-near-start", TERRAIN_SEVERITY_WARNING, "features",
                 start->x / TERRAIN_TNT_CELL_PIXELS, start->z / TERRAIN_TNT_CELL_PIXELS,
                 "schema %u StartPos%u: no metal-producing feature is placed on the map",
                 start->schema, start->player);
          else
            add (issues, "tnt.metal-near-start", TERRAIN_SEVERITY_WARNING, "features",
                 start->x / TERRAIN_TNT_CELL_PIXELS, start->z / TERRAIN_TNT_CELL_PIXELS,
                 "schema %u StartPos%u: the nearest metal is %.0f tiles away (more than %d)",
                 start->schema, start->player, sqrt (nearest), TERRAIN_TNT_LINT_METAL_RANGE);
        }
    }
}

static void
check_islands (GPtrArray     *issues,
               TerrainTntMap *map,
               GArray        *starts)
{
  guint width = terrain_tnt_map_get_width (map);
  guint height = terrain_tnt_map_get_height (map);
  gsize n = (gsize) width * height;
  g_autofree guint8 *state = g_malloc0 (n);   /* 1 passable, 2 reached */
  g_autoptr(GArray) queue = g_array_new (FALSE, FALSE, sizeof (guint32));
  gsize passable = 0, stranded = 0, first = G_MAXSIZE;

  if (starts->len == 0)
    return;
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      if (!is_void (terrain_tnt_map_get_cell_feature (map, x, y)))
        {
          state[(gsize) y * width + x] = 1;
          passable++;
        }
  for (guint i = 0; i < starts->len; i++)
    {
      const Start *start = &g_array_index (starts, Start, i);
      gint cx = start->x / TERRAIN_TNT_CELL_PIXELS, cy = start->z / TERRAIN_TNT_CELL_PIXELS;
      guint32 cell;

      if (start->x < 0 || start->z < 0 || cx >= (gint) width || cy >= (gint) height)
        continue;
      cell = (guint32) cy * width + cx;
      if (state[cell] == 1)
        {
          state[cell] = 2;
          g_array_append_val (queue, cell);
        }
    }
  for (guint head = 0; head < queue->len; head++)
    {
      guint32 cell = g_array_index (queue, guint32, head);
      guint x = cell % width, y = cell / width;
      guint32 next[4];
      guint k = 0;

      if (x > 0)
        next[k++] = cell - 1;
      if (x + 1 < width)
        next[k++] = cell + 1;
      if (y > 0)
        next[k++] = cell - width;
      if (y + 1 < height)
        next[k++] = cell + width;
      for (guint j = 0; j < k; j++)
        if (state[next[j]] == 1)
          {
            state[next[j]] = 2;
            g_array_append_val (queue, next[j]);
          }
    }
  for (gsize i = 0; i < n; i++)
    if (state[i] == 1)
      {
        stranded++;
        first = MIN (first, i);
      }
  if (stranded >= TERRAIN_TNT_LINT_ISLAND_CELLS)
    add (issues, "tnt.void-islands", TERRAIN_SEVERITY_WARNING, "attributes",
         (gint) (first % width), (gint) (first / width),
         "%" G_GSIZE_FORMAT " passable cells (%.1f%%) are cut off by voids from every start",
         stranded, 100.0 * stranded / MAX (passable, 1));
}

static void
check_cliffs (GPtrArray     *issues,
              TerrainTntMap *map)
{
  guint width = terrain_tnt_map_get_width (map);
  guint height = terrain_tnt_map_get_height (map);
  guint64 cliffs = 0;
  gint fx = -1, fy = -1;

  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        gint h = terrain_tnt_map_get_cell_height (map, x, y);
        gboolean east = x + 1 < width &&
          ABS (h - terrain_tnt_map_get_cell_height (map, x + 1, y)) > TERRAIN_TNT_LINT_CLIFF;
        gboolean south = y + 1 < height &&
          ABS (h - terrain_tnt_map_get_cell_height (map, x, y + 1)) > TERRAIN_TNT_LINT_CLIFF;

        cliffs += east + south;
        if ((east || south) && fx < 0)
          {
            fx = x;
            fy = y;
          }
      }
  if (cliffs > 0)
    add (issues, "tnt.height-cliffs", TERRAIN_SEVERITY_WARNING, "attributes", fx, fy,
         "%" G_GUINT64_FORMAT " cell edges rise more than %d height units (cliffs ground units "
         "cannot climb); the first at cell (%d, %d)", cliffs, TERRAIN_TNT_LINT_CLIFF, fx, fy);
}

static void
check_tiles (GPtrArray     *issues,
             TerrainTntMap *map)
{
  guint n_tiles = terrain_tnt_map_get_n_tiles (map);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                      (GDestroyNotify) g_bytes_unref, NULL);
  g_autofree gboolean *used = g_new0 (gboolean, MAX (n_tiles, 1));
  guint duplicates = 0, unused = 0, first_duplicate = 0, first_unused = 0;

  for (guint t = 0; t < n_tiles; t++)
    {
      GBytes *tile = g_bytes_new_static (terrain_tnt_map_get_tile (map, t),
                                         TERRAIN_TNT_TILE_PIXELS * TERRAIN_TNT_TILE_PIXELS);

      if (!g_hash_table_add (seen, tile) && duplicates++ == 0)
        first_duplicate = t;
    }
  for (guint y = 0; y < terrain_tnt_map_get_tile_rows (map); y++)
    for (guint x = 0; x < terrain_tnt_map_get_tile_columns (map); x++)
      {
        guint16 index = terrain_tnt_map_get_tile_index (map, x, y);

        if (index < n_tiles)
          used[index] = TRUE;
      }
  for (guint t = 0; t < n_tiles; t++)
    if (!used[t] && unused++ == 0)
      first_unused = t;

  if (duplicates > 0)
    add (issues, "tnt.duplicate-tiles", TERRAIN_SEVERITY_INFO, "tiles", -1, -1,
         "%u of the %u tiles repeat another byte for byte (the first, tile %u); %u distinct",
         duplicates, n_tiles, first_duplicate, n_tiles - duplicates);
  if (unused > 0)
    add (issues, "tnt.unused-tiles", TERRAIN_SEVERITY_INFO, "tiles", -1, -1,
         "%u of the %u tiles are used by no tile-map entry (the first, tile %u)", unused,
         n_tiles, first_unused);
}

static void
check_features (GPtrArray             *issues,
                TerrainTntMap         *map,
                TerrainFeatureCatalog *catalog)
{
  g_autoptr(GArray) placements = terrain_tnt_map_list_placements (map);
  GPtrArray *catalog_issues = terrain_feature_catalog_get_issues (catalog);

  for (guint i = 0; i < terrain_tnt_map_get_n_features (map); i++)
    {
      const char *name = terrain_tnt_map_get_feature_name (map, i);
      gint x = -1, y = -1;
      guint uses = 0;

      if (terrain_feature_catalog_lookup (catalog, name) != NULL)
        continue;
      for (guint p = 0; p < placements->len; p++)
        {
          const TerrainTntPlacement *placement =
            &g_array_index (placements, TerrainTntPlacement, p);

          if (placement->feature != i)
            continue;
          if (uses++ == 0)
            {
              x = placement->x;
              y = placement->y;
            }
        }
      add (issues, "tnt.feature-missing", TERRAIN_SEVERITY_ERROR, "features", x, y,
           "feature record %u \"%s\" (placed %u times) is in none of the %u feature "
           "definitions read; the game stops loading the map (\"Record missing from feature "
           "files\")", i, name, uses, terrain_feature_catalog_get_n_features (catalog));
    }

  for (guint i = 0; i < catalog_issues->len; i++)
    {
      TerrainIssue *issue = terrain_issue_ref (g_ptr_array_index (catalog_issues, i));

      terrain_issue_set_rule (issue, "features.tdf");
      g_ptr_array_add (issues, issue);
    }
}

/**
 * terrain_tnt_lint:
 * @map: a TNT map
 * @ota: (nullable): its `.ota`, for the checks of start positions, schemas
 *   and metadata
 * @catalog: (nullable): the features the game would load (for example
 *   through [method@Terrain.FeatureCatalog.load_game_files]), for the
 *   checks of features and metal
 *
 * Checks a map as kbot's `tnt lint` does: everything
 * [method@Terrain.Document.validate] finds on the map and the `.ota`, then
 * the map-design rules of [func@Terrain.tnt_lint_get_rules]. Each finding
 * carries its rule ([method@Terrain.Issue.get_rule]) and, where it has one,
 * its attribute cell ([method@Terrain.Issue.get_position]). Only what makes
 * the game fail is an error: a feature the catalogue lacks, and the errors
 * of validation; design findings are warnings, tile-set findings notes.
 *
 * Returns: (transfer full) (element-type TerrainIssue): the findings
 */
GPtrArray *
terrain_tnt_lint (TerrainTntMap         *map,
                  TerrainOtaFile        *ota,
                  TerrainFeatureCatalog *catalog)
{
  GPtrArray *issues;
  g_autoptr(GArray) starts = NULL;

  g_return_val_if_fail (TERRAIN_IS_TNT_MAP (map), NULL);
  g_return_val_if_fail (ota == NULL || TERRAIN_IS_OTA_FILE (ota), NULL);
  g_return_val_if_fail (catalog == NULL || TERRAIN_IS_FEATURE_CATALOG (catalog), NULL);

  issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  add_validation (issues, TERRAIN_DOCUMENT (map), "tnt.validate");
  starts = collect_starts (ota);
  if (ota != NULL)
    {
      add_validation (issues, TERRAIN_DOCUMENT (ota), "ota.validate");
      check_ota_fields (issues, ota);
      check_schema_slots (issues, ota, starts);
      check_starts (issues, map, starts);
    }
  if (catalog != NULL)
    {
      check_features (issues, map, catalog);
      if (ota != NULL)
        check_metal (issues, map, ota, catalog, starts);
    }
  check_islands (issues, map, starts);
  check_cliffs (issues, map);
  check_tiles (issues, map);
  return issues;
}

static const char *
sarif_level (TerrainSeverity severity)
{
  switch (severity)
    {
    case TERRAIN_SEVERITY_ERROR:
      return "error";
    case TERRAIN_SEVERITY_WARNING:
      return "warning";
    case TERRAIN_SEVERITY_INFO:
    default:
      return "note";
    }
}

/**
 * terrain_tnt_lint_to_sarif:
 * @issues: (element-type TerrainIssue): findings of [func@Terrain.tnt_lint]
 * @artifact_uri: the map's path or URI, as results should name it
 *
 * Writes findings as one SARIF 2.1.0 run (OASIS Static Analysis Results
 * Interchange Format): the tool `terrain` with every lint rule, then one
 * result a finding with its `ruleId`, `level` (`error`, `warning`, `note`),
 * message, the artifact and, when known, its byte offset as a region and
 * its attribute cell as the result's `properties.cell`. Findings about a
 * feature TDF name that file.
 *
 * Returns: (transfer full): the SARIF log as JSON
 */
JsonNode *
terrain_tnt_lint_to_sarif (GPtrArray  *issues,
                           const char *artifact_uri)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (issues != NULL, NULL);
  g_return_val_if_fail (artifact_uri != NULL, NULL);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "$schema");
  json_builder_add_string_value (b, "https://json.schemastore.org/sarif-2.1.0.json");
  json_builder_set_member_name (b, "version");
  json_builder_add_string_value (b, "2.1.0");
  json_builder_set_member_name (b, "runs");
  json_builder_begin_array (b);
  json_builder_begin_object (b);

  json_builder_set_member_name (b, "tool");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "driver");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, "terrain tnt lint");
  json_builder_set_member_name (b, "version");
  json_builder_add_string_value (b, TERRAIN_VERSION_S);
  json_builder_set_member_name (b, "rules");
  json_builder_begin_array (b);
  for (guint i = 0; i < G_N_ELEMENTS (lint_rules); i++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_string_value (b, lint_rules[i].id);
      json_builder_set_member_name (b, "shortDescription");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "text");
      json_builder_add_string_value (b, lint_rules[i].text);
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "results");
  json_builder_begin_array (b);
  for (guint i = 0; i < issues->len; i++)
    {
      TerrainIssue *issue = g_ptr_array_index (issues, i);
      const char *rule = terrain_issue_get_rule (issue);
      const char *section = terrain_issue_get_section (issue);
      g_autofree char *text = terrain_issue_to_string (issue);
      gint x, y;
      gboolean tdf = g_strcmp0 (rule, "features.tdf") == 0 && section != NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "ruleId");
      json_builder_add_string_value (b, rule != NULL ? rule : "tnt.validate");
      json_builder_set_member_name (b, "level");
      json_builder_add_string_value (b, sarif_level (terrain_issue_get_severity (issue)));
      json_builder_set_member_name (b, "message");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "text");
      json_builder_add_string_value (b, text);
      json_builder_end_object (b);
      json_builder_set_member_name (b, "locations");
      json_builder_begin_array (b);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "physicalLocation");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "artifactLocation");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "uri");
      json_builder_add_string_value (b, tdf ? section : artifact_uri);
      json_builder_end_object (b);
      if (terrain_issue_get_offset (issue) >= 0 &&
          (tdf || !g_str_has_prefix (rule != NULL ? rule : "", "ota.")))
        {
          json_builder_set_member_name (b, "region");
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "byteOffset");
          json_builder_add_int_value (b, terrain_issue_get_offset (issue));
          json_builder_end_object (b);
        }
      json_builder_end_object (b);
      json_builder_end_object (b);
      json_builder_end_array (b);
      if (terrain_issue_get_position (issue, &x, &y))
        {
          json_builder_set_member_name (b, "properties");
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "cell");
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "x");
          json_builder_add_int_value (b, x);
          json_builder_set_member_name (b, "y");
          json_builder_add_int_value (b, y);
          json_builder_end_object (b);
          json_builder_end_object (b);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
