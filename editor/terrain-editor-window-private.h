/* terrain-editor-window-private.h
 *
 * The window's instance structure and the functions its files share:
 * terrain-editor-window.c (the class, messages, title, opening a document,
 * closing), -panels.c (Structure, Findings, Features and Tiles tabs),
 * -atlas.c (Atlas stubs and the Atlas tool), -actions.c (saving and the
 * other window actions), -archive.c (saving maps into HPI archives), -tools.c (the editing tools), -stamp.c
 * (the Stamp tool and its sections) and -recovery.c
 * (recovery copies of unsaved edits).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "terrain-editor-window.h"
#include "terrain-editor-item.h"
#include "terrain-editor-map-view.h"
#include "terrain-editor-gl-view.h"
#include "terrain-editor-recovery.h"

G_BEGIN_DECLS

/* The tools of the Tools tab, in button order (tools[] in
 * terrain-editor-window.c). */
#define N_TOOLS 8

/* Continuous changes of the sea-level control within this many
 * microseconds of each other form one undo step. */
#define SEA_LEVEL_MERGE_USEC (2 * G_USEC_PER_SEC)

struct _TerrainEditorWindow
{
  GtkApplicationWindow parent_instance;

  /* Template children */
  GtkInfoBar *info_bar;
  GtkLabel *info_label;
  GtkStack *main_stack;
  GtkSpinner *spinner;
  GtkLabel *title_label;
  GtkLabel *subtitle_label;
  GtkNotebook *view_notebook;
  GtkNotebook *side_notebook;
  TerrainEditorMapView *map_view;
  GtkBox *gl_box;
  GtkOverlay *gl_overlay;
  GtkWidget *chunk_levels_button;
  GtkLabel *chunk_levels_label;
  GtkLabel *gl_empty_label;
  GtkGrid *tool_buttons;
  GtkWidget *tool_button[N_TOOLS];
  GtkStack *tool_stack;
  GtkAdjustment *sea_adjustment;
  GtkAdjustment *radius_adjustment;
  GtkAdjustment *strength_adjustment;
  GtkAdjustment *level_adjustment;
  GtkAdjustment *tile_adjustment;
  GtkDropDown *brush_mode;
  GtkDropDown *brush_falloff;
  GtkEntry *feature_entry;
  GtkPicture *tile_picture;
  GtkGridView *tile_grid;
  GtkBox *atlas_box;
  GtkListView *structure_list;
  GtkListView *feature_list;
  GtkListView *findings_list;
  GtkLabel *findings_tab_label;
  GtkLabel *properties_label;
  GtkLabel *status_label;
  GMenu *recent_menu;

  GtkWidget *gl_view;
  /* The Features tool's searchable palette (TerrainEditorFeaturePalette). */
  GtkWidget *feature_palette;
  /* The Stamp tool's sections (TerrainEditorSectionPalette,
   * terrain-editor-window-stamp.c) and what it says of the chosen one. */
  GtkWidget *section_palette;
  GtkLabel *section_label;
  /* The chosen section's tiles through the palette, shown in its
   * footprint (NULL without a palette). */
  GdkTexture *section_texture;

  /* Document */
  GFile *file;
  TerrainDocument *document;
  TerrainCommandStack *stack;
  TerrainOtaFile *ota;
  GCancellable *cancellable;
  char *error_message;
  gboolean busy;
  gboolean force_close;
  gboolean closing_after_save;

  /* Tools */
  char *tool;
  gboolean show_grid;
  gboolean show_features;
  gboolean show_contours;
  gboolean show_voids;
  gboolean show_start_positions;
  gboolean show_chunk_levels;

  gboolean updating_sea_level;
  TerrainCommand *sea_level_command;
  gint64 sea_level_time;

  guint stroke;
  gboolean stroking;
  double last_dab_x, last_dab_y;

  gboolean moving_feature;
  int move_from_x, move_from_y;
  int press_x, press_y;
  /* The cell Properties describes (the selected feature is the map
   * view's: terrain_editor_map_view_get_selection()). */
  double properties_x, properties_y;

  GPtrArray *tile_textures;

  /* The Map page (terrain-editor-window-ota.c) and a start position being
   * dragged: its player and the pointer's offset from it, in map pixels. */
  GtkWidget *ota_panel;
  gboolean dragging_start;
  guint drag_player;
  double drag_dx, drag_dz;

  /* The info bar shows the palette's load error (cleared once it loads). */
  gboolean showing_palette_error;

  /* The first-run offer to name a Total Annihilation install
   * (terrain-editor-window-first-run.c), shown while there is no palette. */
  GtkInfoBar *first_run_bar;
  GtkWidget *first_run_folder_button;
  GtkWidget *first_run_archives_button;

  /* Recovery copies (terrain-editor-window-recovery.c) */
  char *recovery_id;
  guint recovery_bound_source;
  guint recovery_idle_source;
  guint64 recovery_generation;
  guint64 recovery_written_generation;
  gboolean recovery_on_disk;
  gboolean recovery_writing;
  gboolean recovery_clear_after_write;
  gboolean recovery_error_shown;
};

/* terrain-editor-window.c */
gboolean window_execute (TerrainEditorWindow *self,
                         TerrainCommand      *command);
TerrainEditorApplication * window_get_app (TerrainEditorWindow *self);
TerrainFeatureCatalog * window_get_catalog (TerrainEditorWindow *self);
TerrainPalette * window_get_palette (TerrainEditorWindow *self);
TerrainFeatureSprites * window_get_sprites (TerrainEditorWindow *self);
TerrainTntMap * window_get_tnt (TerrainEditorWindow *self);
void window_on_sea_level_notify (TerrainEditorWindow *self);
void window_show_info (TerrainEditorWindow *self,
                       const char          *message);
gboolean window_tool_applies (TerrainEditorWindow *self,
                              const char          *tool);
void window_update_title (TerrainEditorWindow *self);

TerrainOtaFile * window_load_sibling_ota (GFile        *file,
                                         const char   *path,
                                         GCancellable *cancellable);
void window_set_document (TerrainEditorWindow *self,
                          TerrainDocument     *document,
                          TerrainOtaFile      *ota);
void window_set_busy (TerrainEditorWindow *self,
                      gboolean             busy);

/* terrain-editor-window-recovery.c */
void window_recovery_note_change (TerrainEditorWindow *self);
void window_recovery_clear (TerrainEditorWindow *self);
void window_recovery_dispose (TerrainEditorWindow *self);

/* terrain-editor-window-panels.c */
void window_fill_features (TerrainEditorWindow *self);
void window_fill_findings (TerrainEditorWindow *self);
void window_fill_structure (TerrainEditorWindow *self);
void window_fill_tiles (TerrainEditorWindow *self);
void window_update_tile_picture (TerrainEditorWindow *self);
GdkTexture * window_get_tile_texture (TerrainEditorWindow *self,
                                     guint                index);

/* terrain-editor-window-atlas.c */
void window_fill_atlas (TerrainEditorWindow *self);
void window_highlight_atlas_stub (TerrainEditorWindow *self,
                                  TerrainAtlasStub    *stub,
                                  gboolean             frame);

/* terrain-editor-window-actions.c */
gboolean window_can_save_in_place (TerrainEditorWindow *self);
gboolean window_find_feature_at (TerrainEditorWindow *self,
                                 int                  x,
                                 int                  y,
                                 int                 *anchor_x,
                                 int                 *anchor_y);
void window_remove_feature_at (TerrainEditorWindow *self,
                               int                  x,
                               int                  y);
void window_save_as_dialog (TerrainEditorWindow *self);
gboolean window_save_to (TerrainEditorWindow *self,
                         GFile               *file);
gboolean window_resize_map (TerrainEditorWindow  *self,
                            gint                  left,
                            gint                  top,
                            gint                  right,
                            gint                  bottom,
                            guint8                fill_height,
                            guint16               fill_tile,
                            GError              **error);

/* terrain-editor-window-archive.c */
gboolean window_archive_can_save (TerrainEditorWindow *self);
gboolean window_archive_save (TerrainEditorWindow *self);
void window_archive_class_init (GtkWidgetClass *widget_class);

/* terrain-editor-window-ota.c */
void window_ota_init (TerrainEditorWindow *self);
void window_ota_set_document (TerrainEditorWindow *self);
gboolean window_ota_cell_event (TerrainEditorWindow   *self,
                                TerrainEditorMapPhase  phase,
                                double                 x,
                                double                 y,
                                guint                  button);
gboolean window_ota_save (TerrainEditorWindow  *self,
                          GFile                *tnt_file,
                          GError              **error);

/* terrain-editor-window-first-run.c */
void window_first_run_init (TerrainEditorWindow *self);
void window_first_run_update (TerrainEditorWindow *self);

/* terrain-editor-window-stamp.c */
void window_stamp_init (TerrainEditorWindow *self);
void window_stamp_class_init (GtkWidgetClass *widget_class);
void window_stamp_reload (TerrainEditorWindow *self);
void window_stamp_dispose (TerrainEditorWindow *self);
gboolean window_stamp_drop_file (TerrainEditorWindow *self,
                                 GFile               *file);
void window_stamp_event (TerrainEditorWindow   *self,
                         TerrainEditorMapPhase  phase,
                         double                 x,
                         double                 y,
                         guint                  button);

/* terrain-editor-window-tools.c */
void window_set_tool (TerrainEditorWindow *self,
                      const char          *tool);
void window_update_feature_palette (TerrainEditorWindow *self);
void window_actions_class_init (GtkWidgetClass *widget_class);
void window_panels_init (TerrainEditorWindow *self);
void window_tools_init (TerrainEditorWindow *self);

G_END_DECLS
