/* terrain-ota-file.c: Total Annihilation map descriptions (.ota)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include "terrain-ota-file.h"
#include "terrain-tdf-document-private.h"
#include "terrain-ota-file-private.h"
#include "core/terrain-document-private.h"
#include "core/terrain-error.h"
#include "core/terrain-io.h"
#include "core/terrain-issue.h"

/* field-notes.md, "Total Annihilation ecosystem": [GlobalHeader] holds
 * missionname, size, SCHEMACOUNT and [Schema N] blocks; each schema's
 * [specials] holds [specialK] blocks with specialwhat=StartPosN, XPos, ZPos. */
#define GLOBAL_HEADER   "GlobalHeader"
#define SPECIALS        "specials"
#define START_POS       "StartPos"

/* Largest player number / schema number accepted from the text. */
#define MAX_NUMBER      100000

struct _TerrainOtaFile
{
  TerrainTdfDocument parent_instance;
};

/**
 * TerrainOtaFile:
 *
 * A Total Annihilation map description (`.ota`): a [class@Terrain.TdfDocument]
 * whose `[GlobalHeader]` names the mission and holds one `[Schema N]` block
 * per game type, with the players' start positions.
 */
G_DEFINE_FINAL_TYPE (TerrainOtaFile, terrain_ota_file, TERRAIN_TYPE_TDF_DOCUMENT)

/* Reads "PREFIX N" (blanks between optional, prefix case-insensitive). */
static gboolean
parse_numbered (const char *text,
                const char *prefix,
                guint      *number)
{
  gsize n = strlen (prefix);
  char *end = NULL;
  guint64 v;

  if (text == NULL || g_ascii_strncasecmp (text, prefix, n) != 0)
    return FALSE;
  text += n;
  while (*text == ' ' || *text == '\t')
    text++;
  if (!g_ascii_isdigit (*text))
    return FALSE;
  errno = 0;
  v = g_ascii_strtoull (text, &end, 10);
  if (errno != 0 || *end != '\0' || v > MAX_NUMBER)
    return FALSE;
  *number = (guint) v;
  return TRUE;
}

/**
 * terrain_ota_file_new:
 * @mission_name: the map's name (`missionname`), normally its file name
 *   without `.ota`
 * @error: return location for a #GError
 *
 * Creates a map description with the keys the game's own maps carry: a
 * `[GlobalHeader]` with @mission_name, one `[Schema 0]` ("Network 1") and
 * an empty `[specials]` block for start positions.
 *
 * Returns: (transfer full) (nullable): the new description, or %NULL with
 *   %TERRAIN_ERROR_INVALID_VALUE when @mission_name cannot be written
 */
TerrainOtaFile *
terrain_ota_file_new (const char  *mission_name,
                      GError     **error)
{
  static const char * const header_keys[][2] = {
    { "missionname", NULL },
    { "missiondescription", "" },
    { "planet", "" },
    { "missionhint", "" },
    { "brief", "" },
    { "narration", "" },
    { "glamour", "" },
    { "lineofsight", "0" },
    { "mapping", "0" },
    { "tidalstrength", "0" },
    { "solarstrength", "20" },
    { "lavaworld", "0" },
    { "killmul", "50" },
    { "timemul", "0" },
    { "minwindspeed", "0" },
    { "maxwindspeed", "3000" },
    { "gravity", "112" },
    { "numplayers", "2" },
    { "size", "" },
    { "memory", "32 mb" },
    { "useonlyunits", "" },
    { "SCHEMACOUNT", "1" },
  };
  static const char * const schema_keys[][2] = {
    { "Type", "Network 1" },
    { "aiprofile", "DEFAULT" },
    { "SurfaceMetal", "3" },
    { "MohoMetal", "30" },
    { "HumanMetal", "1000" },
    { "ComputerMetal", "1000" },
    { "HumanEnergy", "1000" },
    { "ComputerEnergy", "1000" },
    { "MeteorWeapon", "" },
    { "MeteorRadius", "0" },
    { "MeteorDensity", "0" },
    { "MeteorDuration", "0" },
    { "MeteorInterval", "0" },
  };
  g_autoptr(TerrainOtaFile) self = NULL;
  TerrainTdfDocument *tdf;
  TerrainTdfSection *header, *schema;

  g_return_val_if_fail (mission_name != NULL, NULL);

  self = g_object_new (TERRAIN_TYPE_OTA_FILE, NULL);
  tdf = TERRAIN_TDF_DOCUMENT (self);
  terrain_document_set_source (TERRAIN_DOCUMENT (self), NULL, TERRAIN_FORMAT_OTA);

  header = terrain_tdf_document_add_section (tdf, terrain_tdf_document_get_root (tdf),
                                             GLOBAL_HEADER, error);
  g_assert (header != NULL);
  for (guint i = 0; i < G_N_ELEMENTS (header_keys); i++)
    if (!terrain_tdf_document_set_value (tdf, header, header_keys[i][0],
                                         header_keys[i][1] != NULL ? header_keys[i][1]
                                                                   : mission_name,
                                         error))
      return NULL;

  schema = terrain_tdf_document_add_section (tdf, header, "Schema 0", error);
  g_assert (schema != NULL);
  for (guint i = 0; i < G_N_ELEMENTS (schema_keys); i++)
    if (!terrain_tdf_document_set_value (tdf, schema, schema_keys[i][0], schema_keys[i][1],
                                         error))
      return NULL;
  if (terrain_tdf_document_add_section (tdf, schema, SPECIALS, error) == NULL)
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * terrain_ota_file_new_from_bytes:
 * @bytes: an `.ota` file's text
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @error: return location for a #GError
 *
 * Parses a map description: TDF syntax, read by
 * [ctor@Terrain.TdfDocument.new_from_bytes], with typed access to its
 * `[GlobalHeader]`. A missing header is a validation finding, not a load
 * failure, so that any OTA writes back byte for byte.
 *
 * Returns: (transfer full) (nullable): the description, or %NULL with the
 *   TDF reader's error
 */
TerrainOtaFile *
terrain_ota_file_new_from_bytes (GBytes               *bytes,
                                 const TerrainLimits  *limits,
                                 GError              **error)
{
  return TERRAIN_OTA_FILE (terrain_document_new_from_bytes (TERRAIN_TYPE_OTA_FILE, bytes,
                                                            limits, error));
}

/**
 * terrain_ota_file_new_from_file:
 * @file: an `.ota` file
 * @limits: (nullable): allocation limits, or %NULL for the defaults
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Loads a map description, see [ctor@Terrain.OtaFile.new_from_bytes].
 *
 * Returns: (transfer full) (nullable): the description
 */
TerrainOtaFile *
terrain_ota_file_new_from_file (GFile                *file,
                                const TerrainLimits  *limits,
                                GCancellable         *cancellable,
                                GError              **error)
{
  g_autoptr(GBytes) bytes = NULL;
  TerrainOtaFile *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  bytes = terrain_file_load_bytes (file, cancellable, error);
  if (bytes == NULL)
    return NULL;
  self = terrain_ota_file_new_from_bytes (bytes, limits, error);
  if (self != NULL)
    terrain_document_set_file (TERRAIN_DOCUMENT (self), file);
  return self;
}

/**
 * terrain_ota_file_get_global_header:
 * @self: a #TerrainOtaFile
 *
 * Gets the `[GlobalHeader]` block.
 *
 * Returns: (transfer none) (nullable): the `[GlobalHeader]` block, or %NULL
 */
TerrainTdfSection *
terrain_ota_file_get_global_header (TerrainOtaFile *self)
{
  g_return_val_if_fail (TERRAIN_IS_OTA_FILE (self), NULL);

  return terrain_tdf_section_find_section (
    terrain_tdf_document_get_root (TERRAIN_TDF_DOCUMENT (self)), GLOBAL_HEADER);
}

/**
 * terrain_ota_file_get_header_value:
 * @self: a #TerrainOtaFile
 * @key: a `[GlobalHeader]` key, case-insensitive (`missiondescription`,
 *   `planet`, `numplayers`, `memory`, ...)
 *
 * Gets a `[GlobalHeader]` value.
 *
 * Returns: (nullable): the value, or %NULL
 */
const char *
terrain_ota_file_get_header_value (TerrainOtaFile *self,
                                   const char     *key)
{
  TerrainTdfSection *header;

  g_return_val_if_fail (TERRAIN_IS_OTA_FILE (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  header = terrain_ota_file_get_global_header (self);
  return header != NULL ? terrain_tdf_section_get_value (header, key) : NULL;
}

/**
 * terrain_ota_file_set_header_value:
 * @self: a #TerrainOtaFile
 * @key: a `[GlobalHeader]` key, case-insensitive
 * @value: the new value
 * @error: return location for a #GError
 *
 * Sets a `[GlobalHeader]` key, see [method@Terrain.TdfDocument.set_value]:
 * only the value's bytes change when the file is written.
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_INVALID_VALUE when
 *   the file has no `[GlobalHeader]` or @value cannot be written
 */
gboolean
terrain_ota_file_set_header_value (TerrainOtaFile  *self,
                                   const char      *key,
                                   const char      *value,
                                   GError         **error)
{
  TerrainTdfSection *header;

  g_return_val_if_fail (TERRAIN_IS_OTA_FILE (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  header = terrain_ota_file_get_global_header (self);
  if (header == NULL)
    {
      g_set_error_literal (error, TERRAIN_ERROR, TERRAIN_ERROR_INVALID_VALUE,
                           "OTA: the file has no [GlobalHeader] block to set a key in");
      return FALSE;
    }
  return terrain_tdf_document_set_value (TERRAIN_TDF_DOCUMENT (self), header, key, value,
                                         error);
}

/**
 * terrain_ota_file_get_mission_name:
 * @self: a #TerrainOtaFile
 *
 * Gets `missionname`, the map's name.
 *
 * Returns: (nullable): `missionname`, the name the game shows and uses to
 *   find `maps/NAME.tnt`
 */
const char *
terrain_ota_file_get_mission_name (TerrainOtaFile *self)
{
  return terrain_ota_file_get_header_value (self, "missionname");
}

/**
 * terrain_ota_file_get_size:
 * @self: a #TerrainOtaFile
 *
 * Gets `size`, the map size shown to players.
 *
 * Returns: (nullable): `size` as written, e.g. "9 x 9" (a description for
 *   players; the TNT header holds the real size)
 */
const char *
terrain_ota_file_get_size (TerrainOtaFile *self)
{
  return terrain_ota_file_get_header_value (self, "size");
}

/**
 * terrain_ota_file_parse_size:
 * @self: a #TerrainOtaFile
 * @width: (out) (optional): the first number of `size`
 * @height: (out) (optional): the second number
 *
 * Reads `size` in its usual "W x H" form (blanks optional, `x` or `X`).
 *
 * Returns: %TRUE if `size` has that form
 */
gboolean
terrain_ota_file_parse_size (TerrainOtaFile *self,
                             guint          *width,
                             guint          *height)
{
  const char *text = terrain_ota_file_get_size (self);
  guint64 w, h;
  char *end = NULL;

  if (text == NULL || !g_ascii_isdigit (*text))
    return FALSE;
  w = g_ascii_strtoull (text, &end, 10);
  while (*end == ' ' || *end == '\t')
    end++;
  if ((*end != 'x' && *end != 'X'))
    return FALSE;
  end++;
  while (*end == ' ' || *end == '\t')
    end++;
  if (!g_ascii_isdigit (*end))
    return FALSE;
  h = g_ascii_strtoull (end, &end, 10);
  if (*end != '\0' || w > G_MAXUINT || h > G_MAXUINT)
    return FALSE;
  if (width != NULL)
    *width = (guint) w;
  if (height != NULL)
    *height = (guint) h;
  return TRUE;
}

/**
 * terrain_ota_file_get_schema_count:
 * @self: a #TerrainOtaFile
 *
 * Gets `SCHEMACOUNT` as declared.
 *
 * Returns: `SCHEMACOUNT` as declared, or -1 when it is missing or not a
 *   number; compare with [method@Terrain.OtaFile.get_n_schemas]
 */
gint
terrain_ota_file_get_schema_count (TerrainOtaFile *self)
{
  TerrainTdfSection *header;
  gint64 count;

  g_return_val_if_fail (TERRAIN_IS_OTA_FILE (self), -1);

  header = terrain_ota_file_get_global_header (self);
  if (header == NULL || !terrain_tdf_section_get_int (header, "SCHEMACOUNT", &count) ||
      count < 0 || count > G_MAXINT)
    return -1;
  return (gint) count;
}

/**
 * terrain_ota_file_get_n_schemas:
 * @self: a #TerrainOtaFile
 *
 * Gets the number of `[Schema N]` blocks.
 *
 * Returns: the number of `[Schema N]` blocks in `[GlobalHeader]`
 */
guint
terrain_ota_file_get_n_schemas (TerrainOtaFile *self)
{
  TerrainTdfSection *header;
  guint n = 0, number;

  g_return_val_if_fail (TERRAIN_IS_OTA_FILE (self), 0);

  header = terrain_ota_file_get_global_header (self);
  if (header == NULL)
    return 0;
  for (guint i = 0; i < terrain_tdf_section_get_n_sections (header); i++)
    if (parse_numbered (terrain_tdf_section_get_name (terrain_tdf_section_get_section (header, i)),
                        "Schema", &number))
      n++;
  return n;
}

/**
 * terrain_ota_file_get_schema:
 * @self: a #TerrainOtaFile
 * @number: N of `[Schema N]`
 *
 * Gets a `[Schema N]` block by its number.
 *
 * Returns: (transfer none) (nullable): the first `[Schema N]` block with that
 *   number, or %NULL
 */
TerrainTdfSection *
terrain_ota_file_get_schema (TerrainOtaFile *self,
                             guint           number)
{
  TerrainTdfSection *header;

  g_return_val_if_fail (TERRAIN_IS_OTA_FILE (self), NULL);

  header = terrain_ota_file_get_global_header (self);
  if (header == NULL)
    return NULL;
  for (guint i = 0; i < terrain_tdf_section_get_n_sections (header); i++)
    {
      TerrainTdfSection *section = terrain_tdf_section_get_section (header, i);
      guint n;

      if (parse_numbered (terrain_tdf_section_get_name (section), "Schema", &n) && n == number)
        return section;
    }
  return NULL;
}

/**
 * terrain_ota_file_get_schema_type:
 * @self: a #TerrainOtaFile
 * @number: N of `[Schema N]`
 *
 * Gets a schema's `Type`.
 *
 * Returns: (nullable): the schema's `Type` ("Network 1", "Easy", ...), or
 *   %NULL
 */
const char *
terrain_ota_file_get_schema_type (TerrainOtaFile *self,
                                  guint           number)
{
  TerrainTdfSection *schema = terrain_ota_file_get_schema (self, number);

  return schema != NULL ? terrain_tdf_section_get_value (schema, "Type") : NULL;
}

/* The [specialK] block of StartPos@player in @schema, if any
 * (terrain-ota-file-private.h). */
TerrainTdfSection *
ota_file_find_start_special (TerrainTdfSection *schema,
                    guint              player)
{
  TerrainTdfSection *specials = terrain_tdf_section_find_section (schema, SPECIALS);

  if (specials == NULL)
    return NULL;
  for (guint i = 0; i < terrain_tdf_section_get_n_sections (specials); i++)
    {
      TerrainTdfSection *special = terrain_tdf_section_get_section (specials, i);
      guint n;

      if (parse_numbered (terrain_tdf_section_get_value (special, "specialwhat"), START_POS, &n) &&
          n == player)
        return special;
    }
  return NULL;
}

static gboolean
read_position (TerrainTdfSection *special,
               gint              *x,
               gint              *z)
{
  gint64 vx, vz;

  if (!terrain_tdf_section_get_int (special, "XPos", &vx) ||
      !terrain_tdf_section_get_int (special, "ZPos", &vz) ||
      vx < G_MININT || vx > G_MAXINT || vz < G_MININT || vz > G_MAXINT)
    return FALSE;
  *x = (gint) vx;
  *z = (gint) vz;
  return TRUE;
}

/**
 * terrain_ota_file_get_start_positions:
 * @self: a #TerrainOtaFile
 * @schema: N of `[Schema N]`
 * @n_positions: (out): number of positions returned
 *
 * Lists the start positions of a schema: the blocks of its `[specials]`
 * whose `specialwhat` is `StartPosN` and whose `XPos` and `ZPos` are
 * integers, in file order.
 *
 * Returns: (transfer full) (array length=n_positions) (nullable): the
 *   positions, %NULL when there are none
 */
TerrainOtaStartPosition *
terrain_ota_file_get_start_positions (TerrainOtaFile *self,
                                      guint           schema,
                                      guint          *n_positions)
{
  TerrainTdfSection *section, *specials;
  GArray *positions;

  g_return_val_if_fail (TERRAIN_IS_OTA_FILE (self), NULL);
  g_return_val_if_fail (n_positions != NULL, NULL);

  *n_positions = 0;
  section = terrain_ota_file_get_schema (self, schema);
  specials = section != NULL ? terrain_tdf_section_find_section (section, SPECIALS) : NULL;
  if (specials == NULL)
    return NULL;

  positions = g_array_new (FALSE, FALSE, sizeof (TerrainOtaStartPosition));
  for (guint i = 0; i < terrain_tdf_section_get_n_sections (specials); i++)
    {
      TerrainTdfSection *special = terrain_tdf_section_get_section (specials, i);
      TerrainOtaStartPosition position;

      if (!parse_numbered (terrain_tdf_section_get_value (special, "specialwhat"), START_POS,
                           &position.player) ||
          !read_position (special, &position.x, &position.z))
        continue;
      g_array_append_val (positions, position);
    }

  *n_positions = positions->len;
  if (positions->len == 0)
    {
      g_array_unref (positions);
      return NULL;
    }
  return (TerrainOtaStartPosition *) g_array_free (positions, FALSE);
}

/**
 * terrain_ota_file_get_start_position:
 * @self: a #TerrainOtaFile
 * @schema: N of `[Schema N]`
 * @player: N of `StartPosN`, from 1
 * @x: (out) (optional): `XPos` in pixels
 * @z: (out) (optional): `ZPos` in pixels
 *
 * Gets a player's start position in a schema.
 *
 * Returns: %TRUE if the schema has that start position with integer
 *   coordinates
 */
gboolean
terrain_ota_file_get_start_position (TerrainOtaFile *self,
                                     guint           schema,
                                     guint           player,
                                     gint           *x,
                                     gint           *z)
{
  TerrainTdfSection *section, *special;
  gint vx, vz;

  g_return_val_if_fail (TERRAIN_IS_OTA_FILE (self), FALSE);

  section = terrain_ota_file_get_schema (self, schema);
  special = section != NULL ? ota_file_find_start_special (section, player) : NULL;
  if (special == NULL || !read_position (special, &vx, &vz))
    return FALSE;
  if (x != NULL)
    *x = vx;
  if (z != NULL)
    *z = vz;
  return TRUE;
}

/**
 * terrain_ota_file_set_start_position:
 * @self: a #TerrainOtaFile
 * @schema: N of `[Schema N]`
 * @player: N of `StartPosN`, from 1
 * @x: `XPos` in pixels
 * @z: `ZPos` in pixels
 * @error: return location for a #GError
 *
 * Moves a start position. An existing `StartPosN` keeps its block and only
 * the digits of `XPos` and `ZPos` change when the file is written; a new one
 * is added to `[specials]` (made if missing) as `[specialK]`, K the next free
 * number.
 *
 * Returns: %TRUE on success; %FALSE with %TERRAIN_ERROR_OUT_OF_RANGE when
 *   the schema does not exist or @player is 0
 */
gboolean
terrain_ota_file_set_start_position (TerrainOtaFile  *self,
                                     guint            schema,
                                     guint            player,
                                     gint             x,
                                     gint             z,
                                     GError         **error)
{
  TerrainTdfDocument *tdf = TERRAIN_TDF_DOCUMENT (self);
  TerrainTdfSection *section, *special, *specials;
  char number[32];

  g_return_val_if_fail (TERRAIN_IS_OTA_FILE (self), FALSE);

  if (player == 0 || player > MAX_NUMBER)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "OTA: start position %u is out of range (players count from 1)", player);
      return FALSE;
    }
  section = terrain_ota_file_get_schema (self, schema);
  if (section == NULL)
    {
      g_set_error (error, TERRAIN_ERROR, TERRAIN_ERROR_OUT_OF_RANGE,
                   "OTA: there is no [Schema %u] in [GlobalHeader] (it has %u schemas)",
                   schema, terrain_ota_file_get_n_schemas (self));
      return FALSE;
    }

  special = ota_file_find_start_special (section, player);
  if (special == NULL)
    {
      g_autofree char *name = NULL;
      g_autofree char *what = NULL;
      guint k;

      specials = terrain_tdf_section_find_section (section, SPECIALS);
      if (specials == NULL)
        specials = terrain_tdf_document_add_section (tdf, section, SPECIALS, error);
      if (specials == NULL)
        return FALSE;
      k = terrain_tdf_section_get_n_sections (specials);
      do
        {
          g_free (name);
          name = g_strdup_printf ("special%u", k++);
        }
      while (terrain_tdf_section_find_section (specials, name) != NULL);

      special = terrain_tdf_document_add_section (tdf, specials, name, error);
      what = g_strdup_printf (START_POS "%u", player);
      if (special == NULL ||
          !terrain_tdf_document_set_value (tdf, special, "specialwhat", what, error))
        return FALSE;
    }

  g_snprintf (number, sizeof number, "%d", x);
  if (!terrain_tdf_document_set_value (tdf, special, "XPos", number, error))
    return FALSE;
  g_snprintf (number, sizeof number, "%d", z);
  return terrain_tdf_document_set_value (tdf, special, "ZPos", number, error);
}

/* ------------------------------------------------------------------------ */

/* Validation reads the text through TerrainTdfRef, so that validating a
 * freshly opened map description does not build its tree. */

static void
add_warning (GPtrArray           *issues,
             const TerrainTdfRef *section,
             const char          *format,
             ...) G_GNUC_PRINTF (3, 4);

static void
add_warning (GPtrArray           *issues,
             const TerrainTdfRef *section,
             const char          *format,
             ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_ptr_array_add (issues, terrain_issue_new_literal (TERRAIN_SEVERITY_WARNING, "OTA",
                                                      section != NULL
                                                        ? terrain_tdf_ref_get_offset (section)
                                                        : -1,
                                                      -1, message));
}

/* The first [Schema @number] of @header. */
static gboolean
find_schema_ref (TerrainTdfDocument  *tdf,
                 const TerrainTdfRef *header,
                 guint                number,
                 TerrainTdfRef       *schema)
{
  g_auto(TerrainTdfText) name = { { 0 }, NULL };
  gsize cursor = 0;
  guint n;

  while (terrain_tdf_ref_next_section (tdf, header, &cursor, schema))
    if (parse_numbered (terrain_tdf_ref_get_name (tdf, schema, &name), "Schema", &n) &&
        n == number)
      return TRUE;
  return FALSE;
}

static guint
count_schema_refs (TerrainTdfDocument  *tdf,
                   const TerrainTdfRef *header)
{
  g_auto(TerrainTdfText) name = { { 0 }, NULL };
  TerrainTdfRef schema;
  gsize cursor = 0;
  guint n = 0, number;

  while (terrain_tdf_ref_next_section (tdf, header, &cursor, &schema))
    if (parse_numbered (terrain_tdf_ref_get_name (tdf, &schema, &name), "Schema", &number))
      n++;
  return n;
}

/* The N of a special's specialwhat=StartPosN. */
static gboolean
special_player (TerrainTdfDocument  *tdf,
                const TerrainTdfRef *special,
                guint               *player)
{
  g_auto(TerrainTdfText) what = { { 0 }, NULL };

  return parse_numbered (terrain_tdf_ref_get_value (tdf, special, "specialwhat", &what),
                         START_POS, player);
}

static gboolean
read_position_ref (TerrainTdfDocument  *tdf,
                   const TerrainTdfRef *special,
                   gint                *x,
                   gint                *z)
{
  gint64 vx, vz;

  if (!terrain_tdf_ref_get_int (tdf, special, "XPos", &vx) ||
      !terrain_tdf_ref_get_int (tdf, special, "ZPos", &vz) ||
      vx < G_MININT || vx > G_MAXINT || vz < G_MININT || vz > G_MAXINT)
    return FALSE;
  *x = (gint) vx;
  *z = (gint) vz;
  return TRUE;
}

/* The players of the first specials are kept on the stack; an OTA with
 * more (and so a text of some size) keeps them in a set. */
#define FEW_SPECIALS 64

static void
check_schema (GPtrArray           *issues,
              TerrainTdfDocument  *tdf,
              const TerrainTdfRef *schema,
              guint                number)
{
  g_autoptr(GHashTable) seen = NULL;
  guint players[FEW_SPECIALS];
  guint n_players = 0;
  TerrainTdfRef specials, special;
  gsize cursor = 0;

  if (!terrain_tdf_ref_find_section (tdf, schema, SPECIALS, &specials))
    return;

  while (terrain_tdf_ref_next_section (tdf, &specials, &cursor, &special))
    {
      gboolean repeated = FALSE;
      guint player;
      gint x, z;

      if (!special_player (tdf, &special, &player))
        continue;
      if (!read_position_ref (tdf, &special, &x, &z))
        {
          g_auto(TerrainTdfText) name = { { 0 }, NULL };

          add_warning (issues, &special, "[Schema %u] > [specials] > [%s]: StartPos%u has no "
                       "integer XPos and ZPos", number,
                       terrain_tdf_ref_get_name (tdf, &special, &name), player);
        }
      else if (x < 0 || z < 0)
        add_warning (issues, &special, "[Schema %u]: StartPos%u lies at negative coordinates "
                     "(%d, %d)", number, player, x, z);

      for (guint i = 0; i < n_players; i++)
        repeated |= players[i] == player;
      if (n_players < FEW_SPECIALS)
        players[n_players++] = player;
      else
        {
          if (seen == NULL)
            {
              seen = g_hash_table_new (NULL, NULL);
              for (guint i = 0; i < n_players; i++)
                g_hash_table_add (seen, GUINT_TO_POINTER (players[i]));
            }
          repeated |= !g_hash_table_add (seen, GUINT_TO_POINTER (player));
        }
      if (repeated)
        add_warning (issues, &special, "[Schema %u]: StartPos%u appears more than once; the "
                     "first counts", number, player);
    }
}

static GPtrArray *
terrain_ota_file_validate (TerrainDocument *document)
{
  TerrainTdfDocument *tdf = TERRAIN_TDF_DOCUMENT (document);
  GPtrArray *issues =
    TERRAIN_DOCUMENT_CLASS (terrain_ota_file_parent_class)->validate (document);
  g_auto(TerrainTdfText) text = { { 0 }, NULL };
  TerrainTdfRef root, header;
  gint64 declared;
  guint n;

  terrain_tdf_document_get_root_ref (tdf, &root);
  if (!terrain_tdf_ref_find_section (tdf, &root, GLOBAL_HEADER, &header))
    {
      add_warning (issues, NULL, "the file has no [GlobalHeader] block: the game cannot use "
                   "it as a map description");
      return issues;
    }
  if (terrain_tdf_ref_get_value (tdf, &header, "missionname", &text) == NULL)
    add_warning (issues, &header, "[GlobalHeader] has no missionname");

  /* As terrain_ota_file_get_schema_count () reads it. */
  if (!terrain_tdf_ref_get_int (tdf, &header, "SCHEMACOUNT", &declared) ||
      declared < 0 || declared > G_MAXINT)
    declared = -1;
  n = count_schema_refs (tdf, &header);
  if (declared < 0)
    add_warning (issues, &header, "[GlobalHeader] has no integer SCHEMACOUNT (it holds %u "
                 "[Schema N] blocks)", n);
  else if ((guint) declared != n)
    add_warning (issues, &header, "SCHEMACOUNT is %d but [GlobalHeader] holds %u [Schema N] "
                 "blocks", (gint) declared, n);

  for (guint i = 0; i < n; i++)
    {
      TerrainTdfRef schema;

      if (!find_schema_ref (tdf, &header, i, &schema))
        add_warning (issues, &header, "[Schema %u] is missing: schemas are numbered from 0 "
                     "without gaps", i);
      else
        check_schema (issues, tdf, &schema, i);
    }

  return issues;
}

static void
add_string_member (JsonBuilder *builder,
                   const char  *name,
                   const char  *value)
{
  g_autofree char *text = terrain_tdf_to_utf8 (value);

  json_builder_set_member_name (builder, name);
  if (text != NULL)
    json_builder_add_string_value (builder, text);
  else
    json_builder_add_null_value (builder);
}

static JsonNode *
terrain_ota_file_describe (TerrainDocument *document)
{
  TerrainOtaFile *self = TERRAIN_OTA_FILE (document);
  JsonNode *node = TERRAIN_DOCUMENT_CLASS (terrain_ota_file_parent_class)->describe (document);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  JsonObject *object = json_node_get_object (node);
  g_autoptr(JsonNode) typed = NULL;
  JsonObject *typed_object;
  guint n = terrain_ota_file_get_n_schemas (self);
  /* OTA key, JSON member ("size" already is the file's size in bytes). */
  static const char * const keys[][2] = {
    { "missionname", "missionname" },
    { "missiondescription", "missiondescription" },
    { "planet", "planet" },
    { "size", "map_size" },
    { "numplayers", "numplayers" },
    { "memory", "memory" },
  };

  json_builder_begin_object (builder);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    add_string_member (builder, keys[i][1],
                       terrain_ota_file_get_header_value (self, keys[i][0]));
  json_builder_set_member_name (builder, "schemacount");
  json_builder_add_int_value (builder, terrain_ota_file_get_schema_count (self));
  json_builder_set_member_name (builder, "schemas");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n; i++)
    {
      g_autofree TerrainOtaStartPosition *positions = NULL;
      guint n_positions = 0;

      if (terrain_ota_file_get_schema (self, i) == NULL)
        continue;
      positions = terrain_ota_file_get_start_positions (self, i, &n_positions);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "number");
      json_builder_add_int_value (builder, i);
      add_string_member (builder, "type", terrain_ota_file_get_schema_type (self, i));
      json_builder_set_member_name (builder, "start_positions");
      json_builder_begin_array (builder);
      for (guint k = 0; k < n_positions; k++)
        {
          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "player");
          json_builder_add_int_value (builder, positions[k].player);
          json_builder_set_member_name (builder, "x");
          json_builder_add_int_value (builder, positions[k].x);
          json_builder_set_member_name (builder, "z");
          json_builder_add_int_value (builder, positions[k].z);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  typed = json_builder_get_root (builder);
  typed_object = json_node_get_object (typed);
  {
    g_autoptr(GList) members = json_object_get_members (typed_object);

    for (GList *l = members; l != NULL; l = l->next)
      json_object_set_member (object, l->data,
                              json_node_copy (json_object_get_member (typed_object, l->data)));
  }

  return node;
}

static void
terrain_ota_file_class_init (TerrainOtaFileClass *klass)
{
  TerrainDocumentClass *document_class = TERRAIN_DOCUMENT_CLASS (klass);

  document_class->validate = terrain_ota_file_validate;
  document_class->describe = terrain_ota_file_describe;
  document_class->format = TERRAIN_FORMAT_OTA;
}

static void
terrain_ota_file_init (TerrainOtaFile *self)
{
}
