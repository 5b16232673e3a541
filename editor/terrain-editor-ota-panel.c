/* terrain-editor-ota-panel.c
 *
 * The Map page of the side panel: the settings of a TNT map's map
 * description (.ota) — name, description, planet, players, wind, tidal
 * and solar strength, gravity, and per schema its type, metal and start
 * positions. Every change is a TerrainOtaEdit handed to the window through
 * the ::command signal, so it goes on the map's undo history; the fields
 * follow the file again after an undo or redo (refresh()).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-ota-panel.h"

#include <glib/gi18n.h>
#include <string.h>

/* The fields, as the OTA names its keys (ban.ota, field-notes.md). */
static const struct { const char *key; const char *label; } header_fields[] = {
  { "missionname", N_("Name") },
  { "missiondescription", N_("Description") },
  { "planet", N_("Planet") },
  { "numplayers", N_("Players") },
  { "minwindspeed", N_("Wind (min)") },
  { "maxwindspeed", N_("Wind (max)") },
  { "tidalstrength", N_("Tidal") },
  { "solarstrength", N_("Solar") },
  { "gravity", N_("Gravity") },
};

static const struct { const char *key; const char *label; } schema_fields[] = {
  { "Type", N_("Type") },
  { "SurfaceMetal", N_("Surface metal") },
  { "MohoMetal", N_("Moho metal") },
};

/* The start positions' spin buttons hold map pixels. */
#define MAX_MAP_PIXELS 65535

struct _TerrainEditorOtaPanel
{
  GtkBox parent_instance;

  TerrainOtaFile *ota;
  guint schema;
  gboolean updating;

  GtkWidget *empty_label;
  GtkWidget *content;
  GtkWidget *header_entries[G_N_ELEMENTS (header_fields)];
  GtkWidget *schema_dropdown;
  GtkStringList *schema_names;
  GtkWidget *schema_entries[G_N_ELEMENTS (schema_fields)];
  GtkWidget *start_grid;
  /* GtkSpinButton pairs (X, Z), two per start position shown */
  GPtrArray *start_spins;
  GArray *start_players;
  gboolean starts_stale;  /* the rows are another file's */
};

G_DEFINE_FINAL_TYPE (TerrainEditorOtaPanel, terrain_editor_ota_panel, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_SCHEMA,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_COMMAND,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static char *
schema_block (guint schema)
{
  return g_strdup_printf ("GlobalHeader/Schema %u", schema);
}

static void
emit_command (TerrainEditorOtaPanel *self,
              TerrainCommand        *command)
{
  g_signal_emit (self, signals[SIGNAL_COMMAND], 0, command);
  /* A refused edit shows the file's value again. */
  terrain_editor_ota_panel_refresh (self);
}

static void
on_header_changed (GtkEditable           *entry,
                   TerrainEditorOtaPanel *self)
{
  const char *key = g_object_get_data (G_OBJECT (entry), "ota-key");
  gboolean in_schema = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (entry), "ota-schema"));
  g_autofree char *block = in_schema ? schema_block (self->schema) : NULL;
  g_autoptr(TerrainCommand) command = NULL;
  TerrainTdfSection *section;

  if (self->updating || self->ota == NULL)
    return;
  /* A value is written without blanks around it (the reader would drop
   * them): "ban " is the name half typed, not one to refuse. */
  {
    const char *text = gtk_editable_get_text (entry);
    gsize length = strlen (text);

    if (length > 0 && (g_ascii_isspace (text[0]) || g_ascii_isspace (text[length - 1])))
      return;
  }
  section = block != NULL ? terrain_tdf_document_find_section (TERRAIN_TDF_DOCUMENT (self->ota), block)
                          : terrain_ota_file_get_global_header (self->ota);
  if (section != NULL && g_strcmp0 (terrain_tdf_section_get_value (section, key),
                                    gtk_editable_get_text (entry)) == 0)
    return;
  command = terrain_ota_edit_new_set_value (self->ota, block, key, gtk_editable_get_text (entry));
  emit_command (self, command);
}

static void
on_start_changed (GtkSpinButton         *spin,
                  TerrainEditorOtaPanel *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (spin), "start-index"));
  guint player;
  GtkSpinButton *xs, *zs;
  gint x, z, old_x, old_z;
  g_autoptr(TerrainCommand) command = NULL;

  if (self->updating || self->ota == NULL || index >= self->start_players->len)
    return;
  player = g_array_index (self->start_players, guint, index);
  xs = g_ptr_array_index (self->start_spins, index * 2);
  zs = g_ptr_array_index (self->start_spins, index * 2 + 1);
  x = gtk_spin_button_get_value_as_int (xs);
  z = gtk_spin_button_get_value_as_int (zs);
  if (terrain_ota_file_get_start_position (self->ota, self->schema, player, &old_x, &old_z)
      && old_x == x && old_z == z)
    return;
  command = terrain_ota_edit_new_set_start_position (self->ota, self->schema, player, x, z);
  emit_command (self, command);
}

static void
set_entry_text (GtkWidget  *entry,
                const char *text)
{
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (entry)), text != NULL ? text : "") != 0)
    gtk_editable_set_text (GTK_EDITABLE (entry), text != NULL ? text : "");
}

/* The start position rows of the shown schema, made again when their
 * number changes. */
static void
fill_start_positions (TerrainEditorOtaPanel *self)
{
  g_autofree TerrainOtaStartPosition *positions = NULL;
  guint n = 0;
  GtkWidget *child;

  if (self->ota != NULL && self->schema < terrain_ota_file_get_n_schemas (self->ota))
    positions = terrain_ota_file_get_start_positions (self->ota, self->schema, &n);

  if (n != self->start_players->len || self->starts_stale)
    {
      self->starts_stale = FALSE;
      while ((child = gtk_widget_get_first_child (self->start_grid)) != NULL)
        gtk_grid_remove (GTK_GRID (self->start_grid), child);
      g_ptr_array_set_size (self->start_spins, 0);
      g_array_set_size (self->start_players, 0);
      for (guint i = 0; i < n; i++)
        {
          GtkWidget *label = gtk_label_new (NULL);

          gtk_widget_set_halign (label, GTK_ALIGN_END);
          gtk_grid_attach (GTK_GRID (self->start_grid), label, 0, (int) i, 1, 1);
          for (guint axis = 0; axis < 2; axis++)
            {
              GtkWidget *spin = gtk_spin_button_new_with_range (0, MAX_MAP_PIXELS, 16);

              gtk_editable_set_width_chars (GTK_EDITABLE (spin), 6);
              gtk_widget_set_hexpand (spin, TRUE);
              gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                              axis == 0 ? _("X position in map pixels")
                                                        : _("Z position in map pixels"), -1);
              g_object_set_data (G_OBJECT (spin), "start-index", GUINT_TO_POINTER (i));
              g_signal_connect (spin, "value-changed", G_CALLBACK (on_start_changed), self);
              gtk_grid_attach (GTK_GRID (self->start_grid), spin, 1 + (int) axis, (int) i, 1, 1);
              g_ptr_array_add (self->start_spins, spin);
            }
          g_array_append_val (self->start_players, positions[i].player);
        }
    }

  for (guint i = 0; i < n; i++)
    {
      GtkWidget *label = gtk_grid_get_child_at (GTK_GRID (self->start_grid), 0, (int) i);
      g_autofree char *text = g_strdup_printf ("%u", positions[i].player);

      g_array_index (self->start_players, guint, i) = positions[i].player;
      gtk_label_set_text (GTK_LABEL (label), text);
      gtk_spin_button_set_value (g_ptr_array_index (self->start_spins, i * 2), positions[i].x);
      gtk_spin_button_set_value (g_ptr_array_index (self->start_spins, i * 2 + 1), positions[i].z);
    }
}

/**
 * terrain_editor_ota_panel_refresh:
 *
 * Shows the file's values again (after an undo or redo, or a refused
 * edit), without making edits of its own.
 */
void
terrain_editor_ota_panel_refresh (TerrainEditorOtaPanel *self)
{
  TerrainTdfSection *schema = NULL;
  guint n_schemas;

  g_return_if_fail (TERRAIN_EDITOR_IS_OTA_PANEL (self));

  self->updating = TRUE;
  gtk_widget_set_visible (self->content, self->ota != NULL);
  gtk_widget_set_visible (self->empty_label, self->ota == NULL);
  n_schemas = self->ota != NULL ? terrain_ota_file_get_n_schemas (self->ota) : 0;

  for (guint i = 0; i < G_N_ELEMENTS (header_fields); i++)
    set_entry_text (self->header_entries[i],
                    self->ota != NULL ? terrain_ota_file_get_header_value (self->ota, header_fields[i].key)
                                      : NULL);

  if (g_list_model_get_n_items (G_LIST_MODEL (self->schema_names)) != n_schemas)
    {
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

      for (guint i = 0; i < n_schemas; i++)
        {
          const char *type = terrain_ota_file_get_schema_type (self->ota, i);

          /* Translators: a schema's number and its type ("Network 1"). */
          g_ptr_array_add (names, g_strdup_printf (_("Schema %u: %s"), i, type != NULL ? type : ""));
        }
      g_ptr_array_add (names, NULL);
      gtk_string_list_splice (self->schema_names, 0,
                              g_list_model_get_n_items (G_LIST_MODEL (self->schema_names)),
                              (const char * const *) names->pdata);
    }
  if (self->schema >= n_schemas)
    self->schema = 0;
  if (n_schemas > 0)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (self->schema_dropdown), self->schema);
  if (self->ota != NULL && n_schemas > 0)
    schema = terrain_ota_file_get_schema (self->ota, self->schema);
  for (guint i = 0; i < G_N_ELEMENTS (schema_fields); i++)
    {
      set_entry_text (self->schema_entries[i],
                      schema != NULL ? terrain_tdf_section_get_value (schema, schema_fields[i].key) : NULL);
      gtk_widget_set_sensitive (self->schema_entries[i], schema != NULL);
    }
  fill_start_positions (self);
  self->updating = FALSE;
}

static void
on_schema_selected (TerrainEditorOtaPanel *self)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->schema_dropdown));

  if (self->updating || selected == GTK_INVALID_LIST_POSITION)
    return;
  terrain_editor_ota_panel_set_schema (self, selected);
}

static GtkWidget *
add_row (GtkGrid    *grid,
         int         row,
         const char *label_text,
         const char *key,
         gboolean    in_schema,
         gpointer    self)
{
  GtkWidget *label = gtk_label_new (label_text);
  GtkWidget *entry = gtk_entry_new ();

  gtk_widget_set_halign (label, GTK_ALIGN_END);
  gtk_widget_set_hexpand (entry, TRUE);
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("(not set)"));
  gtk_accessible_update_relation (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
  g_object_set_data (G_OBJECT (entry), "ota-key", (gpointer) key);
  g_object_set_data (G_OBJECT (entry), "ota-schema", GINT_TO_POINTER (in_schema));
  g_signal_connect (entry, "changed", G_CALLBACK (on_header_changed), self);
  gtk_grid_attach (grid, label, 0, row, 1, 1);
  gtk_grid_attach (grid, entry, 1, row, 1, 1);
  return entry;
}

static GtkWidget *
heading (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (label, "heading");
  gtk_widget_set_halign (label, GTK_ALIGN_START);
  gtk_widget_set_margin_top (label, 6);
  return label;
}

static void
terrain_editor_ota_panel_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  TerrainEditorOtaPanel *self = TERRAIN_EDITOR_OTA_PANEL (object);

  if (prop_id == PROP_SCHEMA)
    g_value_set_uint (value, self->schema);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
terrain_editor_ota_panel_dispose (GObject *object)
{
  TerrainEditorOtaPanel *self = TERRAIN_EDITOR_OTA_PANEL (object);

  g_clear_object (&self->ota);
  g_clear_pointer (&self->start_spins, g_ptr_array_unref);
  g_clear_pointer (&self->start_players, g_array_unref);

  G_OBJECT_CLASS (terrain_editor_ota_panel_parent_class)->dispose (object);
}

static void
terrain_editor_ota_panel_class_init (TerrainEditorOtaPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = terrain_editor_ota_panel_get_property;
  object_class->dispose = terrain_editor_ota_panel_dispose;

  properties[PROP_SCHEMA] =
    g_param_spec_uint ("schema", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TerrainEditorOtaPanel::command:
   * @command: the edit to run, a TerrainOtaEdit
   *
   * Asks for an edit of the map description; the window runs it on the
   * map's command stack.
   */
  signals[SIGNAL_COMMAND] =
    g_signal_new ("command", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, TERRAIN_TYPE_COMMAND);
}

static void
terrain_editor_ota_panel_init (TerrainEditorOtaPanel *self)
{
  GtkWidget *grid, *schema_grid, *start_heading;
  GtkWidget *x_label, *z_label;

  self->start_spins = g_ptr_array_new ();
  self->start_players = g_array_new (FALSE, FALSE, sizeof (guint));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);
  gtk_widget_set_margin_start (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self), 12);

  self->empty_label = gtk_label_new (_("This map has no map description (.ota) beside it."));
  gtk_label_set_wrap (GTK_LABEL (self->empty_label), TRUE);
  gtk_widget_add_css_class (self->empty_label, "dim-label");
  gtk_box_append (GTK_BOX (self), self->empty_label);

  self->content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_box_append (GTK_BOX (self), self->content);

  gtk_box_append (GTK_BOX (self->content), heading (_("Map")));
  grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 8);
  for (guint i = 0; i < G_N_ELEMENTS (header_fields); i++)
    self->header_entries[i] = add_row (GTK_GRID (grid), (int) i, _(header_fields[i].label),
                                       header_fields[i].key, FALSE, self);
  gtk_box_append (GTK_BOX (self->content), grid);

  gtk_box_append (GTK_BOX (self->content), heading (_("Schema")));
  self->schema_names = gtk_string_list_new (NULL);
  self->schema_dropdown = gtk_drop_down_new (G_LIST_MODEL (self->schema_names), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->schema_dropdown), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Schema"), -1);
  g_signal_connect_swapped (self->schema_dropdown, "notify::selected", G_CALLBACK (on_schema_selected), self);
  gtk_box_append (GTK_BOX (self->content), self->schema_dropdown);
  schema_grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (schema_grid), 4);
  gtk_grid_set_column_spacing (GTK_GRID (schema_grid), 8);
  for (guint i = 0; i < G_N_ELEMENTS (schema_fields); i++)
    self->schema_entries[i] = add_row (GTK_GRID (schema_grid), (int) i, _(schema_fields[i].label),
                                       schema_fields[i].key, TRUE, self);
  gtk_box_append (GTK_BOX (self->content), schema_grid);

  start_heading = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (start_heading), 8);
  gtk_grid_attach (GTK_GRID (start_heading), heading (_("Start positions")), 0, 0, 1, 1);
  x_label = gtk_label_new (_("X"));
  z_label = gtk_label_new (_("Z"));
  gtk_widget_set_hexpand (x_label, TRUE);
  gtk_widget_set_hexpand (z_label, TRUE);
  gtk_widget_set_valign (x_label, GTK_ALIGN_END);
  gtk_widget_set_valign (z_label, GTK_ALIGN_END);
  gtk_grid_attach (GTK_GRID (start_heading), x_label, 1, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (start_heading), z_label, 2, 0, 1, 1);
  gtk_box_append (GTK_BOX (self->content), start_heading);
  self->start_grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (self->start_grid), 4);
  gtk_grid_set_column_spacing (GTK_GRID (self->start_grid), 8);
  gtk_box_append (GTK_BOX (self->content), self->start_grid);
  {
    GtkWidget *hint = gtk_label_new (_("In map pixels (16 a cell). Drag a numbered marker "
                                       "on the 2D map with the Inspect tool to move it."));

    gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
    gtk_label_set_xalign (GTK_LABEL (hint), 0);
    gtk_widget_add_css_class (hint, "dim-label");
    gtk_box_append (GTK_BOX (self->content), hint);
  }

  terrain_editor_ota_panel_refresh (self);
}

GtkWidget *
terrain_editor_ota_panel_new (void)
{
  return g_object_new (TERRAIN_EDITOR_TYPE_OTA_PANEL, NULL);
}

void
terrain_editor_ota_panel_set_ota (TerrainEditorOtaPanel *self,
                                  TerrainOtaFile        *ota)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_OTA_PANEL (self));

  if (!g_set_object (&self->ota, ota))
    return;
  self->schema = 0;
  /* Other schemas' names and start rows are the old file's. */
  self->updating = TRUE;
  gtk_string_list_splice (self->schema_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->schema_names)),
                          NULL);
  self->updating = FALSE;
  self->starts_stale = TRUE;
  terrain_editor_ota_panel_refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCHEMA]);
}

TerrainOtaFile *
terrain_editor_ota_panel_get_ota (TerrainEditorOtaPanel *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_OTA_PANEL (self), NULL);
  return self->ota;
}

guint
terrain_editor_ota_panel_get_schema (TerrainEditorOtaPanel *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_OTA_PANEL (self), 0);
  return self->schema;
}

void
terrain_editor_ota_panel_set_schema (TerrainEditorOtaPanel *self,
                                     guint                  schema)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_OTA_PANEL (self));

  if (self->schema == schema)
    return;
  self->schema = schema;
  terrain_editor_ota_panel_refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCHEMA]);
}

/* The entry of a header or schema key (for tests), or %NULL. */
GtkWidget *
terrain_editor_ota_panel_get_field (TerrainEditorOtaPanel *self,
                                    const char            *key)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_OTA_PANEL (self), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (header_fields); i++)
    if (g_str_equal (header_fields[i].key, key))
      return self->header_entries[i];
  for (guint i = 0; i < G_N_ELEMENTS (schema_fields); i++)
    if (g_str_equal (schema_fields[i].key, key))
      return self->schema_entries[i];
  return NULL;
}

/* The X (or @z: Z) spin button of start position @player in the shown
 * schema (for tests), or %NULL. */
GtkWidget *
terrain_editor_ota_panel_get_start_spin (TerrainEditorOtaPanel *self,
                                         guint                  player,
                                         gboolean               z)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_OTA_PANEL (self), NULL);

  for (guint i = 0; i < self->start_players->len; i++)
    if (g_array_index (self->start_players, guint, i) == player)
      return g_ptr_array_index (self->start_spins, i * 2 + (z ? 1 : 0));
  return NULL;
}
