/* terrain-issue.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "terrain-issue.h"
#include "terrain-issue-private.h"

struct _TerrainIssue
{
  TerrainSeverity severity;
  char *section;
  gint64 offset;
  gint64 record;
  gint x;
  gint y;
  gboolean has_position;
  char *message;
  char *rule;
};

G_DEFINE_BOXED_TYPE (TerrainIssue, terrain_issue, terrain_issue_ref, terrain_issue_unref)

static void
terrain_issue_finalize (TerrainIssue *issue)
{
  g_free (issue->section);
  g_free (issue->message);
  g_free (issue->rule);
}

/* A finding with @message, taken. */
static TerrainIssue *
issue_new_take (TerrainSeverity  severity,
                const char      *section,
                gint64           offset,
                gint64           record,
                char            *message)
{
  TerrainIssue *issue = g_atomic_rc_box_new0 (TerrainIssue);

  issue->severity = severity;
  issue->section = g_strdup (section);
  issue->offset = offset;
  issue->record = record;
  issue->message = message;
  return issue;
}

/**
 * terrain_issue_new:
 * @severity: the severity
 * @section: (nullable): name of the section the finding is in
 * @offset: absolute byte offset in the file, or -1 when not applicable
 * @record: index of the record in its section, or -1 when not applicable
 * @format: printf-style format of the message
 * @...: arguments for @format
 *
 * Creates a validation finding. Bindings, which cannot pass a variable
 * argument list, call [ctor@Terrain.Issue.new_literal] under this name.
 *
 * Returns: (transfer full): a new #TerrainIssue
 */
TerrainIssue *
terrain_issue_new (TerrainSeverity  severity,
                   const char      *section,
                   gint64           offset,
                   gint64           record,
                   const char      *format,
                   ...)
{
  va_list args;
  char *message;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  return issue_new_take (severity, section, offset, record, message);
}

/**
 * terrain_issue_new_literal: (rename-to terrain_issue_new)
 * @severity: the severity
 * @section: (nullable): name of the section the finding is in
 * @offset: absolute byte offset in the file, or -1 when not applicable
 * @record: index of the record in its section, or -1 when not applicable
 * @message: the message, taken as it is (not a format)
 *
 * Creates a validation finding with a message that is already written, as
 * [ctor@Terrain.Issue.new] with the format `"%s"`.
 *
 * Returns: (transfer full): a new #TerrainIssue
 */
TerrainIssue *
terrain_issue_new_literal (TerrainSeverity  severity,
                           const char      *section,
                           gint64           offset,
                           gint64           record,
                           const char      *message)
{
  g_return_val_if_fail (message != NULL, NULL);

  return issue_new_take (severity, section, offset, record, g_strdup (message));
}

/**
 * terrain_issue_ref:
 * @issue: a #TerrainIssue
 *
 * Takes a reference on @issue.
 *
 * Returns: (transfer full): @issue with its reference count increased
 */
TerrainIssue *
terrain_issue_ref (TerrainIssue *issue)
{
  return g_atomic_rc_box_acquire (issue);
}

/**
 * terrain_issue_unref:
 * @issue: (transfer full): a #TerrainIssue
 *
 * Drops a reference.
 */
void
terrain_issue_unref (TerrainIssue *issue)
{
  g_atomic_rc_box_release_full (issue, (GDestroyNotify) terrain_issue_finalize);
}

/**
 * terrain_issue_get_severity:
 * @issue: a #TerrainIssue
 *
 * Gets the severity.
 *
 * Returns: the severity
 */
TerrainSeverity
terrain_issue_get_severity (const TerrainIssue *issue)
{
  return issue->severity;
}

/**
 * terrain_issue_get_section:
 * @issue: a #TerrainIssue
 *
 * Gets the section name.
 *
 * Returns: (nullable): the section name
 */
const char *
terrain_issue_get_section (const TerrainIssue *issue)
{
  return issue->section;
}

/**
 * terrain_issue_get_offset:
 * @issue: a #TerrainIssue
 *
 * Gets the absolute byte offset of the finding.
 *
 * Returns: the absolute byte offset, or -1
 */
gint64
terrain_issue_get_offset (const TerrainIssue *issue)
{
  return issue->offset;
}

/**
 * terrain_issue_get_record:
 * @issue: a #TerrainIssue
 *
 * Gets the record index within the section.
 *
 * Returns: the record index within the section, or -1
 */
gint64
terrain_issue_get_record (const TerrainIssue *issue)
{
  return issue->record;
}

/**
 * terrain_issue_get_message:
 * @issue: a #TerrainIssue
 *
 * Gets the message.
 *
 * Returns: the message
 */
const char *
terrain_issue_get_message (const TerrainIssue *issue)
{
  return issue->message;
}

/**
 * terrain_issue_set_position:
 * @issue: a #TerrainIssue
 * @x: column on the map grid the finding refers to
 * @y: row on the map grid
 *
 * Records the map position of the finding, so a viewer can jump to it.
 */
void
terrain_issue_set_position (TerrainIssue *issue,
                            gint          x,
                            gint          y)
{
  issue->x = x;
  issue->y = y;
  issue->has_position = TRUE;
}

/**
 * terrain_issue_set_rule:
 * @issue: a #TerrainIssue
 * @rule: (nullable): a stable identifier of the check that found it
 *   (`tnt.start-in-bounds`), as lint reports and SARIF's `ruleId` use it
 *
 * Names the rule behind a finding.
 */
void
terrain_issue_set_rule (TerrainIssue *issue,
                        const char   *rule)
{
  g_return_if_fail (issue != NULL);

  g_free (issue->rule);
  issue->rule = g_strdup (rule);
}

/**
 * terrain_issue_get_rule:
 * @issue: a #TerrainIssue
 *
 * Gets the rule behind a finding, set by [method@Terrain.Issue.set_rule].
 *
 * Returns: (nullable): the rule's identifier, or %NULL
 */
const char *
terrain_issue_get_rule (const TerrainIssue *issue)
{
  g_return_val_if_fail (issue != NULL, NULL);

  return issue->rule;
}

/**
 * terrain_issue_get_position:
 * @issue: a #TerrainIssue
 * @x: (out) (optional): column
 * @y: (out) (optional): row
 *
 * Gets the map position of the finding.
 *
 * Returns: %TRUE if the finding has a map position
 */
gboolean
terrain_issue_get_position (const TerrainIssue *issue,
                            gint               *x,
                            gint               *y)
{
  if (x != NULL)
    *x = issue->x;
  if (y != NULL)
    *y = issue->y;
  return issue->has_position;
}

/**
 * terrain_severity_to_string:
 * @severity: a #TerrainSeverity
 *
 * Gets the name of a severity.
 *
 * Returns: "info", "warning" or "error"
 */
const char *
terrain_severity_to_string (TerrainSeverity severity)
{
  switch (severity)
    {
    case TERRAIN_SEVERITY_INFO:
      return "info";
    case TERRAIN_SEVERITY_WARNING:
      return "warning";
    case TERRAIN_SEVERITY_ERROR:
      return "error";
    default:
      return "unknown";
    }
}

/**
 * terrain_issue_to_string:
 * @issue: a #TerrainIssue
 *
 * Formats the finding on one line: severity, section, offset, record and
 * message.
 *
 * Returns: (transfer full): a newly allocated string
 */
char *
terrain_issue_to_string (const TerrainIssue *issue)
{
  GString *s = g_string_new (terrain_severity_to_string (issue->severity));

  if (issue->section != NULL)
    g_string_append_printf (s, ": %s", issue->section);
  if (issue->offset >= 0)
    g_string_append_printf (s, " @0x%" G_GINT64_MODIFIER "x", issue->offset);
  if (issue->record >= 0)
    g_string_append_printf (s, " [record %" G_GINT64_FORMAT "]", issue->record);
  if (issue->has_position)
    g_string_append_printf (s, " (x=%d, y=%d)", issue->x, issue->y);
  g_string_append_printf (s, ": %s", issue->message);

  return g_string_free (s, FALSE);
}

/**
 * terrain_issues_max_severity:
 * @issues: (element-type TerrainIssue): findings
 * @any: (out) (optional): set to whether @issues is non-empty
 *
 * Finds the highest severity among findings.
 *
 * Returns: the highest severity in @issues, or %TERRAIN_SEVERITY_INFO when empty
 */
TerrainSeverity
terrain_issues_max_severity (GPtrArray *issues,
                             gboolean  *any)
{
  TerrainSeverity max = TERRAIN_SEVERITY_INFO;

  if (any != NULL)
    *any = issues != NULL && issues->len > 0;
  for (guint i = 0; issues != NULL && i < issues->len; i++)
    max = MAX (max, terrain_issue_get_severity (g_ptr_array_index (issues, i)));

  return max;
}

/* ------------------------------------------------------------------------ */
/* The capped collector (terrain-issue-private.h)                           */

typedef struct
{
  const char *kind;
  TerrainSeverity severity;
  char *section;
  guint count;
} CollectorKind;

static void
collector_kind_clear (gpointer data)
{
  CollectorKind *kind = data;

  g_free (kind->section);
}

void
terrain_issue_collector_init (TerrainIssueCollector *self,
                              guint                  cap)
{
  self->issues = g_ptr_array_new_with_free_func ((GDestroyNotify) terrain_issue_unref);
  self->kinds = g_array_new (FALSE, TRUE, sizeof (CollectorKind));
  g_array_set_clear_func (self->kinds, collector_kind_clear);
  self->cap = cap > 0 ? cap : TERRAIN_ISSUE_CAP_PER_KIND;
}

static CollectorKind *
collector_find (TerrainIssueCollector *self,
                const char            *kind)
{
  for (guint i = 0; i < self->kinds->len; i++)
    {
      CollectorKind *k = &g_array_index (self->kinds, CollectorKind, i);

      if (k->kind == kind || g_strcmp0 (k->kind, kind) == 0)
        return k;
    }
  return NULL;
}

/* Counts one finding of @kind; TRUE when it is still listed (the caller
 * then gives it with terrain_issue_collector_take()). */
gboolean
terrain_issue_collector_admit (TerrainIssueCollector *self,
                               const char            *kind,
                               TerrainSeverity        severity,
                               const char            *section)
{
  CollectorKind *k = collector_find (self, kind);

  if (k == NULL)
    {
      CollectorKind added = { kind, severity, g_strdup (section), 0 };

      g_array_append_val (self->kinds, added);
      k = &g_array_index (self->kinds, CollectorKind, self->kinds->len - 1);
    }
  return ++k->count <= self->cap;
}

/* Adds an admitted finding (transfer full). */
void
terrain_issue_collector_take (TerrainIssueCollector *self,
                              TerrainIssue          *issue)
{
  g_ptr_array_add (self->issues, issue);
}

/* Returns the new finding (transfer none) so that callers can add a map
 * position or a rule, or NULL when the kind already has its share. */
TerrainIssue *
terrain_issue_collector_addv (TerrainIssueCollector *self,
                              const char            *kind,
                              TerrainSeverity        severity,
                              const char            *section,
                              gint64                 offset,
                              gint64                 record,
                              const char            *format,
                              va_list                args)
{
  TerrainIssue *issue;

  if (!terrain_issue_collector_admit (self, kind, severity, section))
    return NULL;

  issue = issue_new_take (severity, section, offset, record, g_strdup_vprintf (format, args));
  g_ptr_array_add (self->issues, issue);
  return issue;
}

TerrainIssue *
terrain_issue_collector_add (TerrainIssueCollector *self,
                             const char            *kind,
                             TerrainSeverity        severity,
                             const char            *section,
                             gint64                 offset,
                             gint64                 record,
                             const char            *format,
                             ...)
{
  TerrainIssue *issue;
  va_list args;

  va_start (args, format);
  issue = terrain_issue_collector_addv (self, kind, severity, section, offset, record, format,
                                        args);
  va_end (args);
  return issue;
}

/* How many findings of @kind were seen, listed or not. */
guint
terrain_issue_collector_count (TerrainIssueCollector *self,
                               const char            *kind)
{
  CollectorKind *k = collector_find (self, kind);

  return k != NULL ? k->count : 0;
}

/* Adds the summaries and returns the findings (transfer full); the
 * collector is empty afterwards. */
GPtrArray *
terrain_issue_collector_finish (TerrainIssueCollector *self)
{
  for (guint i = 0; i < self->kinds->len; i++)
    {
      CollectorKind *k = &g_array_index (self->kinds, CollectorKind, i);

      if (k->count > self->cap)
        g_ptr_array_add (self->issues,
                         terrain_issue_new (k->severity, k->section, -1, -1,
                                            "%u more findings about %s (%u in all; only the "
                                            "first %u are listed)",
                                            k->count - self->cap, k->kind, k->count, self->cap));
    }
  g_clear_pointer (&self->kinds, g_array_unref);
  return g_steal_pointer (&self->issues);
}
