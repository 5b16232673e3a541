/* terrain-editor-build-dialog.c
 *
 * The Build Atlas dialog: a heightmap (any heightfield the library reads)
 * with the vertical scale, offset, spacing and fit `terrain build-atlas`
 * takes, the tree depth or chunk size, the error in metres, an optional
 * texture image with its encoding, JPEG quality, tile size and tree depth,
 * and the output file, over TerrainAtlasBuilder. The options are kept in
 * GSettings (the build-* keys), so a new dialog starts where the last one
 * was left. The heightmap is read in a worker thread, then
 * terrain_atlas_builder_build_async() writes the file in another (to a
 * temporary file renamed at the end, so a cancelled or failed build leaves
 * nothing). Progress comes back to the main loop through idles; Cancel
 * cancels a running build, or closes the dialog. Errors are shown in the
 * dialog; on success it shows the builder's findings
 * (terrain_atlas_builder_get_issues(): a padded heightmap, a stretched
 * texture, ...) and offers to open the result in a new window.
 *
 * The actions (build.start, build.cancel, build.open-result and the
 * choosers) are the dialog's code path; the tests drive them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "terrain-editor-build-dialog.h"
#include "terrain-editor-window.h"

#include <glib/gi18n.h>

struct _TerrainEditorBuildDialog
{
  GtkWindow parent_instance;

  TerrainEditorApplication *application;

  GtkLabel *heightmap_label;
  GtkLabel *texture_label;
  GtkLabel *output_label;
  GtkSpinButton *scale_spin;
  GtkSpinButton *offset_spin;
  GtkSpinButton *spacing_spin;
  GtkDropDown *fit_dropdown;
  GtkSpinButton *depth_spin;
  GtkSpinButton *chunk_spin;
  GtkSpinButton *error_spin;
  GtkDropDown *format_dropdown;
  GtkSpinButton *quality_spin;
  GtkDropDown *tile_size_dropdown;
  GtkSpinButton *texture_depth_spin;
  GtkGrid *settings_grid;
  GtkButton *cancel_button;
  GtkProgressBar *progress_bar;
  GtkLabel *error_label;
  GtkLabel *issues_label;
  GtkBox *result_box;
  GtkLabel *result_label;

  GFile *heightmap;
  GFile *texture;
  GFile *output;
  GFile *result;
  char *error_message;
  char *issues_text;

  GCancellable *cancellable;    /* non-NULL while a build runs */
  TerrainAtlasBuilder *builder;
  gboolean disposed;
};

G_DEFINE_FINAL_TYPE (TerrainEditorBuildDialog, terrain_editor_build_dialog, GTK_TYPE_WINDOW)

/* The choices of the drop-downs, in their order in the .ui, as the
 * settings (and `terrain build-atlas`) name them. */
static const char *const fit_names[] = { "pad", "resample", NULL };
static const char *const format_names[] = { "jpeg", "png", "dds", NULL };
static const int tile_sizes[] = { 64, 128, 256, 512, 1024 };

static const TerrainHeightfieldFit fit_values[] = {
  TERRAIN_HEIGHTFIELD_FIT_PAD, TERRAIN_HEIGHTFIELD_FIT_RESAMPLE,
};
static const TerrainAtlasTextureFormat format_values[] = {
  TERRAIN_ATLAS_TEXTURE_JPEG, TERRAIN_ATLAS_TEXTURE_PNG, TERRAIN_ATLAS_TEXTURE_DDS,
};

/* ------------------------------------------------------------------------ */
/* State                                                                    */

static void
update_actions (TerrainEditorBuildDialog *self)
{
  gboolean running = self->cancellable != NULL;
  GtkWidget *widget = GTK_WIDGET (self);

  gtk_widget_action_set_enabled (widget, "build.start",
                                 !running && self->heightmap != NULL && self->output != NULL);
  gtk_widget_action_set_enabled (widget, "build.choose-heightmap", !running);
  gtk_widget_action_set_enabled (widget, "build.choose-texture", !running);
  gtk_widget_action_set_enabled (widget, "build.choose-output", !running);
  gtk_widget_action_set_enabled (widget, "build.open-result", !running && self->result != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->settings_grid), !running);
  /* The quality is JPEG's. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->quality_spin),
                            gtk_drop_down_get_selected (self->format_dropdown) == 0);
  /* Cancel stops a running build; once one has ended it closes. */
  gtk_button_set_label (self->cancel_button,
                        running || gtk_progress_bar_get_fraction (self->progress_bar) == 0.0
                          ? _("_Cancel") : _("_Close"));
}

static void
set_file_label (GtkLabel *label,
                GFile    *file)
{
  g_autofree char *name = file != NULL ? g_file_get_basename (file) : NULL;
  g_autofree char *path = file != NULL ? g_file_get_parse_name (file) : NULL;

  gtk_label_set_text (label, name != NULL ? name : _("(None)"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (label), path);
}

static void
show_error (TerrainEditorBuildDialog *self,
            const char               *message)
{
  g_free (self->error_message);
  self->error_message = g_strdup (message);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

/* The builder's findings, warnings first marked as such; NULL hides them. */
static void
show_issues (TerrainEditorBuildDialog *self,
             GPtrArray                *issues)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; issues != NULL && i < issues->len; i++)
    {
      const TerrainIssue *issue = g_ptr_array_index (issues, i);

      if (text->len > 0)
        g_string_append_c (text, '\n');
      if (terrain_issue_get_severity (issue) >= TERRAIN_SEVERITY_WARNING)
        /* Translators: a warning of the Atlas builder (its message, in English). */
        g_string_append_printf (text, _("Warning: %s"), terrain_issue_get_message (issue));
      else
        g_string_append (text, terrain_issue_get_message (issue));
    }
  g_free (self->issues_text);
  self->issues_text = text->len > 0 ? g_strdup (text->str) : NULL;
  gtk_label_set_text (self->issues_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->issues_label), text->len > 0);
}

static void
set_progress (TerrainEditorBuildDialog *self,
              double                    fraction,
              const char               *text)
{
  gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (fraction, 0.0, 1.0));
  gtk_progress_bar_set_text (self->progress_bar, text);
}

static const char *
stage_text (const char *stage)
{
  if (g_strcmp0 (stage, "heights") == 0)
    return _("Preparing heights");
  if (g_strcmp0 (stage, "geometry") == 0)
    return _("Building geometry");
  if (g_strcmp0 (stage, "textures") == 0)
    return _("Encoding textures");
  if (g_strcmp0 (stage, "done") == 0)
    return _("Writing the file");
  return _("Building");
}

static void
finish (TerrainEditorBuildDialog *self)
{
  g_clear_object (&self->cancellable);
  g_clear_object (&self->builder);
  update_actions (self);
}

/* ------------------------------------------------------------------------ */
/* Progress, from the worker thread                                         */

typedef struct
{
  TerrainEditorBuildDialog *self;   /* a reference */
  GCancellable *cancellable;        /* the build it belongs to */
  double fraction;
  const char *stage;                /* a static string of the builder */
} Progress;

static gboolean
progress_idle (gpointer data)
{
  Progress *progress = data;
  TerrainEditorBuildDialog *self = progress->self;

  /* Only the running build's progress; a late one after the end is dropped. */
  if (!self->disposed && self->cancellable == progress->cancellable
      && !g_cancellable_is_cancelled (progress->cancellable))
    set_progress (self, progress->fraction, stage_text (progress->stage));
  return G_SOURCE_REMOVE;
}

static void
progress_free (gpointer data)
{
  Progress *progress = data;

  g_object_unref (progress->self);
  g_object_unref (progress->cancellable);
  g_free (progress);
}

static void
on_progress (double      fraction,
             const char *stage,
             gpointer    user_data)
{
  TerrainEditorBuildDialog *self = user_data;
  Progress *progress = g_new0 (Progress, 1);

  /* self->cancellable is only replaced on the main thread after the build
   * (and so this thread) has ended. */
  progress->self = g_object_ref (self);
  progress->cancellable = g_object_ref (self->cancellable);
  progress->fraction = fraction;
  progress->stage = g_intern_string (stage);
  g_idle_add_full (G_PRIORITY_DEFAULT, progress_idle, progress, progress_free);
}

/* ------------------------------------------------------------------------ */
/* Building                                                                 */

static void
on_built (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(TerrainEditorBuildDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean ok = terrain_atlas_builder_build_finish (TERRAIN_ATLAS_BUILDER (source), result, &error);

  if (self->disposed)
    return;
  if (ok)
    {
      const TerrainAtlasBuildStats *stats = terrain_atlas_builder_get_stats (self->builder);
      g_autofree char *name = g_file_get_basename (self->output);
      g_autofree char *size = g_format_size (stats->file_size);
      g_autofree char *chunks = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u chunk", "%u chunks",
                                                              stats->n_chunks), stats->n_chunks);
      g_autofree char *tiles = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u texture tile",
                                                             "%u texture tiles", stats->n_texture_tiles),
                                                stats->n_texture_tiles);
      /* Translators: the file name, "N chunks", "N texture tiles", the size */
      g_autofree char *text = g_strdup_printf (_("Wrote %s: %s, %s, %s."), name, chunks, tiles, size);

      g_set_object (&self->result, self->output);
      set_progress (self, 1.0, _("Done"));
      show_issues (self, terrain_atlas_builder_get_issues (self->builder));
      gtk_label_set_text (self->result_label, text);
      gtk_widget_set_visible (GTK_WIDGET (self->result_box), TRUE);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    set_progress (self, 0.0, _("Cancelled"));
  else
    {
      g_autofree char *message = g_strdup_printf (_("Could not build the Atlas file: %s"), error->message);

      set_progress (self, 0.0, _("Failed"));
      show_error (self, message);
    }
  finish (self);
}

typedef struct
{
  GFile *file;
  TerrainHeightfieldOptions *options;
} LoadData;

static void
load_data_free (gpointer data)
{
  LoadData *load = data;

  g_object_unref (load->file);
  terrain_heightfield_options_free (load->options);
  g_free (load);
}

static void
load_heightfield_thread (GTask        *task,
                         gpointer      source,
                         gpointer      task_data,
                         GCancellable *cancellable)
{
  LoadData *load = task_data;
  GError *error = NULL;
  TerrainHeightfield *field = terrain_heightfield_load (load->file, load->options, cancellable, &error);

  if (field == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, field, g_object_unref);
}

static void
on_heightfield_loaded (GObject      *source,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  TerrainEditorBuildDialog *self = TERRAIN_EDITOR_BUILD_DIALOG (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainHeightfield) field = g_task_propagate_pointer (G_TASK (result), &error);
  TerrainAtlasTextureFormat format;

  if (self->disposed)
    return;
  if (field != NULL && g_cancellable_is_cancelled (self->cancellable))
    g_clear_object (&field);
  if (field == NULL)
    {
      if (error == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_progress (self, 0.0, _("Cancelled"));
      else
        {
          g_autofree char *message = g_strdup_printf (_("Could not read the heightmap: %s"), error->message);

          set_progress (self, 0.0, _("Failed"));
          show_error (self, message);
        }
      finish (self);
      return;
    }

  format = format_values[MIN (gtk_drop_down_get_selected (self->format_dropdown),
                              G_N_ELEMENTS (format_values) - 1)];
  self->builder = terrain_atlas_builder_new (field);
  terrain_atlas_builder_set_fit (self->builder,
                                 fit_values[MIN (gtk_drop_down_get_selected (self->fit_dropdown),
                                                 G_N_ELEMENTS (fit_values) - 1)]);
  terrain_atlas_builder_set_error (self->builder, gtk_spin_button_get_value (self->error_spin));
  terrain_atlas_builder_set_tree_depth (self->builder,
                                        (guint) gtk_spin_button_get_value_as_int (self->depth_spin));
  terrain_atlas_builder_set_chunk_size (self->builder,
                                        (guint) gtk_spin_button_get_value_as_int (self->chunk_spin));
  terrain_atlas_builder_set_texture_file (self->builder, self->texture);
  terrain_atlas_builder_set_texture_format (self->builder, format,
                                            (guint) gtk_spin_button_get_value_as_int (self->quality_spin));
  terrain_atlas_builder_set_tile_size (self->builder,
                                       (guint) tile_sizes[MIN (gtk_drop_down_get_selected (self->tile_size_dropdown),
                                                               G_N_ELEMENTS (tile_sizes) - 1)]);
  terrain_atlas_builder_set_texture_depth (self->builder,
                                           (guint) gtk_spin_button_get_value_as_int (self->texture_depth_spin));
  terrain_atlas_builder_set_progress_func (self->builder, on_progress, self, NULL);
  set_progress (self, 0.0, stage_text ("heights"));
  terrain_atlas_builder_build_async (self->builder, self->output, self->cancellable,
                                     on_built, g_object_ref (self));
}

static void
start_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  TerrainEditorBuildDialog *self = TERRAIN_EDITOR_BUILD_DIALOG (widget);
  g_autoptr(GTask) task = NULL;
  LoadData *load;

  if (self->cancellable != NULL || self->heightmap == NULL || self->output == NULL)
    return;

  show_error (self, NULL);
  show_issues (self, NULL);
  g_clear_object (&self->result);
  gtk_widget_set_visible (GTK_WIDGET (self->result_box), FALSE);
  set_progress (self, 0.0, _("Reading the heightmap"));
  self->cancellable = g_cancellable_new ();
  update_actions (self);

  load = g_new0 (LoadData, 1);
  load->file = g_object_ref (self->heightmap);
  load->options = terrain_heightfield_options_new ();
  load->options->format = terrain_editor_application_get_heightmap_format (self->application);
  load->options->vertical_scale = gtk_spin_button_get_value (self->scale_spin);
  load->options->vertical_offset = gtk_spin_button_get_value (self->offset_spin);
  load->options->spacing = gtk_spin_button_get_value (self->spacing_spin);
  task = g_task_new (self, self->cancellable, on_heightfield_loaded, NULL);
  g_task_set_source_tag (task, start_action);
  g_task_set_task_data (task, load, load_data_free);
  g_task_run_in_thread (task, load_heightfield_thread);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TerrainEditorBuildDialog *self = TERRAIN_EDITOR_BUILD_DIALOG (widget);

  if (self->cancellable != NULL)
    {
      set_progress (self, gtk_progress_bar_get_fraction (self->progress_bar), _("Cancelling…"));
      g_cancellable_cancel (self->cancellable);
    }
  else
    gtk_window_close (GTK_WINDOW (self));
}

static void
open_result_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  TerrainEditorBuildDialog *self = TERRAIN_EDITOR_BUILD_DIALOG (widget);
  TerrainEditorWindow *window;

  if (self->result == NULL)
    return;
  window = terrain_editor_window_new (self->application);
  terrain_editor_window_load (window, self->result);
  gtk_window_present (GTK_WINDOW (window));
  gtk_window_close (GTK_WINDOW (self));
}

/* ------------------------------------------------------------------------ */
/* Choosers                                                                 */

typedef void (*SetFileFunc) (TerrainEditorBuildDialog *self, GFile *file);

static void
on_chooser_response (GtkNativeDialog *chooser,
                     int              response,
                     gpointer         user_data)
{
  TerrainEditorBuildDialog *self = user_data;
  SetFileFunc set_file = g_object_get_data (G_OBJECT (chooser), "set-file");

  if (response == GTK_RESPONSE_ACCEPT && !self->disposed)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      set_file (self, file);
    }
  g_object_unref (chooser);
  g_object_unref (self);
}

static void
choose_file (TerrainEditorBuildDialog *self,
             const char               *title,
             GtkFileChooserAction      action,
             const char               *accept,
             const char *const        *suffixes,
             const char               *filter_name,
             SetFileFunc               set_file)
{
  GtkFileChooserNative *chooser;
  GtkFileFilter *filter;

  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), action, accept, _("_Cancel"));
  if (suffixes != NULL)
    {
      filter = gtk_file_filter_new ();
      gtk_file_filter_set_name (filter, filter_name);
      for (guint i = 0; suffixes[i] != NULL; i++)
        gtk_file_filter_add_suffix (filter, suffixes[i]);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
      g_object_unref (filter);
      filter = gtk_file_filter_new ();
      gtk_file_filter_set_name (filter, _("All files"));
      gtk_file_filter_add_pattern (filter, "*");
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
      g_object_unref (filter);
    }
  if (action == GTK_FILE_CHOOSER_ACTION_SAVE)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "terrain.atlas");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_object_set_data (G_OBJECT (chooser), "set-file", set_file);
  g_signal_connect (chooser, "response", G_CALLBACK (on_chooser_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
choose_heightmap_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  static const char *const suffixes[] = { "png", "raw", "r16", "hgt", "ter", "tnt", "pgm", NULL };

  choose_file (TERRAIN_EDITOR_BUILD_DIALOG (widget), _("Choose a Heightmap"), GTK_FILE_CHOOSER_ACTION_OPEN,
               _("_Choose"), suffixes, _("Heightmaps"), terrain_editor_build_dialog_set_heightmap);
}

static void
choose_texture_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  static const char *const suffixes[] = { "png", "jpg", "jpeg", NULL };

  choose_file (TERRAIN_EDITOR_BUILD_DIALOG (widget), _("Choose a Texture Image"), GTK_FILE_CHOOSER_ACTION_OPEN,
               _("_Choose"), suffixes, _("PNG and JPEG images"), terrain_editor_build_dialog_set_texture);
}

static void
choose_output_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  static const char *const suffixes[] = { "atlas", NULL };

  choose_file (TERRAIN_EDITOR_BUILD_DIALOG (widget), _("Save the Atlas File"), GTK_FILE_CHOOSER_ACTION_SAVE,
               _("_Save"), suffixes, _("Atlas files"), terrain_editor_build_dialog_set_output);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static gboolean
terrain_editor_build_dialog_close_request (GtkWindow *window)
{
  TerrainEditorBuildDialog *self = TERRAIN_EDITOR_BUILD_DIALOG (window);

  /* Closing cancels a running build; the callbacks then see :disposed. */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  return GTK_WINDOW_CLASS (terrain_editor_build_dialog_parent_class)->close_request (window);
}

static void
terrain_editor_build_dialog_dispose (GObject *object)
{
  TerrainEditorBuildDialog *self = TERRAIN_EDITOR_BUILD_DIALOG (object);

  self->disposed = TRUE;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), TERRAIN_EDITOR_TYPE_BUILD_DIALOG);
  g_clear_object (&self->heightmap);
  g_clear_object (&self->texture);
  g_clear_object (&self->output);
  g_clear_object (&self->result);

  G_OBJECT_CLASS (terrain_editor_build_dialog_parent_class)->dispose (object);
}

static void
terrain_editor_build_dialog_finalize (GObject *object)
{
  TerrainEditorBuildDialog *self = TERRAIN_EDITOR_BUILD_DIALOG (object);

  /* A running build's worker thread reads these until it ends, and the
   * build holds a reference to the dialog until then. */
  g_clear_object (&self->cancellable);
  g_clear_object (&self->builder);
  g_free (self->error_message);
  g_free (self->issues_text);

  G_OBJECT_CLASS (terrain_editor_build_dialog_parent_class)->finalize (object);
}

static void
terrain_editor_build_dialog_class_init (TerrainEditorBuildDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = terrain_editor_build_dialog_dispose;
  object_class->finalize = terrain_editor_build_dialog_finalize;
  window_class->close_request = terrain_editor_build_dialog_close_request;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/libterrain/Editor/terrain-editor-build-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, heightmap_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, texture_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, output_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, scale_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, offset_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, spacing_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, fit_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, quality_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, tile_size_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, texture_depth_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, depth_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, chunk_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, error_spin);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, format_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, settings_grid);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, issues_label);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, result_box);
  gtk_widget_class_bind_template_child (widget_class, TerrainEditorBuildDialog, result_label);

  gtk_widget_class_install_action (widget_class, "build.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "build.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "build.open-result", NULL, open_result_action);
  gtk_widget_class_install_action (widget_class, "build.choose-heightmap", NULL, choose_heightmap_action);
  gtk_widget_class_install_action (widget_class, "build.choose-texture", NULL, choose_texture_action);
  gtk_widget_class_install_action (widget_class, "build.choose-output", NULL, choose_output_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "build.cancel", NULL);
}

static void
terrain_editor_build_dialog_init (TerrainEditorBuildDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect_swapped (self->format_dropdown, "notify::selected", G_CALLBACK (update_actions), self);
  update_actions (self);
}

/* ------------------------------------------------------------------------ */
/* Settings: the options of the last dialog                                 */

/* A string setting (one of @user_data, a NULL-terminated array) as the
 * drop-down's position, and back. */
static gboolean
name_to_position (GValue   *value,
                  GVariant *variant,
                  gpointer  user_data)
{
  const char *const *names = user_data;
  const char *name = g_variant_get_string (variant, NULL);

  for (guint i = 0; names[i] != NULL; i++)
    if (g_str_equal (names[i], name))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
position_to_name (const GValue       *value,
                  const GVariantType *type,
                  gpointer            user_data)
{
  const char *const *names = user_data;
  guint position = g_value_get_uint (value);

  if (position >= g_strv_length ((char **) names))
    return NULL;
  return g_variant_new_string (names[position]);
}

static gboolean
size_to_position (GValue   *value,
                  GVariant *variant,
                  gpointer  user_data)
{
  int size = g_variant_get_int32 (variant);

  for (guint i = 0; i < G_N_ELEMENTS (tile_sizes); i++)
    if (tile_sizes[i] == size)
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
position_to_size (const GValue       *value,
                  const GVariantType *type,
                  gpointer            user_data)
{
  guint position = g_value_get_uint (value);

  return position < G_N_ELEMENTS (tile_sizes) ? g_variant_new_int32 (tile_sizes[position]) : NULL;
}

static void
bind_settings (TerrainEditorBuildDialog *self,
               GSettings                *settings)
{
  static const struct { const char *key; gsize offset; } spins[] = {
    { "build-vertical-scale", G_STRUCT_OFFSET (TerrainEditorBuildDialog, scale_spin) },
    { "build-vertical-offset", G_STRUCT_OFFSET (TerrainEditorBuildDialog, offset_spin) },
    { "build-spacing", G_STRUCT_OFFSET (TerrainEditorBuildDialog, spacing_spin) },
    { "build-error", G_STRUCT_OFFSET (TerrainEditorBuildDialog, error_spin) },
    { "build-depth", G_STRUCT_OFFSET (TerrainEditorBuildDialog, depth_spin) },
    { "build-chunk-size", G_STRUCT_OFFSET (TerrainEditorBuildDialog, chunk_spin) },
    { "build-quality", G_STRUCT_OFFSET (TerrainEditorBuildDialog, quality_spin) },
    { "build-texture-depth", G_STRUCT_OFFSET (TerrainEditorBuildDialog, texture_depth_spin) },
  };

  for (guint i = 0; i < G_N_ELEMENTS (spins); i++)
    g_settings_bind (settings, spins[i].key, G_STRUCT_MEMBER (GtkSpinButton *, self, spins[i].offset),
                     "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (settings, "build-fit", self->fit_dropdown, "selected", G_SETTINGS_BIND_DEFAULT,
                                name_to_position, position_to_name, (gpointer) fit_names, NULL);
  g_settings_bind_with_mapping (settings, "build-texture-format", self->format_dropdown, "selected",
                                G_SETTINGS_BIND_DEFAULT, name_to_position, position_to_name,
                                (gpointer) format_names, NULL);
  g_settings_bind_with_mapping (settings, "build-tile-size", self->tile_size_dropdown, "selected",
                                G_SETTINGS_BIND_DEFAULT, size_to_position, position_to_size, NULL, NULL);
}

/* ------------------------------------------------------------------------ */
/* API                                                                      */

TerrainEditorBuildDialog *
terrain_editor_build_dialog_new (TerrainEditorApplication *application,
                                 GtkWindow                *parent)
{
  TerrainEditorBuildDialog *self;

  self = g_object_new (TERRAIN_EDITOR_TYPE_BUILD_DIALOG,
                       "application", application,
                       "transient-for", parent,
                       "modal", parent != NULL,
                       NULL);
  self->application = application;
  if (application != NULL && terrain_editor_application_get_settings (application) != NULL)
    bind_settings (self, terrain_editor_application_get_settings (application));
  return self;
}

void
terrain_editor_build_dialog_set_heightmap (TerrainEditorBuildDialog *self,
                                           GFile                    *file)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_BUILD_DIALOG (self));

  g_set_object (&self->heightmap, file);
  set_file_label (self->heightmap_label, file);
  update_actions (self);
}

void
terrain_editor_build_dialog_set_texture (TerrainEditorBuildDialog *self,
                                         GFile                    *file)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_BUILD_DIALOG (self));

  g_set_object (&self->texture, file);
  set_file_label (self->texture_label, file);
  update_actions (self);
}

void
terrain_editor_build_dialog_set_output (TerrainEditorBuildDialog *self,
                                        GFile                    *file)
{
  g_return_if_fail (TERRAIN_EDITOR_IS_BUILD_DIALOG (self));

  g_set_object (&self->output, file);
  set_file_label (self->output_label, file);
  update_actions (self);
}

gboolean
terrain_editor_build_dialog_get_running (TerrainEditorBuildDialog *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_BUILD_DIALOG (self), FALSE);
  return self->cancellable != NULL;
}

/* The file written by the last build that succeeded, or NULL. */
GFile *
terrain_editor_build_dialog_get_result (TerrainEditorBuildDialog *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_BUILD_DIALOG (self), NULL);
  return self->result;
}

const char *
terrain_editor_build_dialog_get_error_message (TerrainEditorBuildDialog *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_BUILD_DIALOG (self), NULL);
  return self->error_message;
}

/* The builder's findings of the last build that succeeded, as shown (one
 * a line), or NULL when there were none. */
const char *
terrain_editor_build_dialog_get_issues_text (TerrainEditorBuildDialog *self)
{
  g_return_val_if_fail (TERRAIN_EDITOR_IS_BUILD_DIALOG (self), NULL);
  return self->issues_text;
}
