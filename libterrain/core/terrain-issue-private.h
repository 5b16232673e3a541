/* terrain-issue-private.h: the capped findings collector every validate
 * shares
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <stdarg.h>

#include "terrain-issue.h"

G_BEGIN_DECLS

/* How many findings of one kind a validate lists before it only counts them
 * (docs/architecture.md, "Rules every reader follows", rule 4). */
#define TERRAIN_ISSUE_CAP_PER_KIND 20

/* Collects validation findings: at most @cap of each kind are listed, then
 * terrain_issue_collector_finish() adds one summary per kind that was cut
 * short, in the order the kinds first appeared:
 *   "N more findings about KIND (M in all; only the first CAP are listed)"
 * with the severity and section of the kind's first finding. A kind is a
 * static string that reads well in that sentence ("stub height bounds").
 * A caller that builds its finding itself (with a line number, a rule)
 * asks terrain_issue_collector_admit() first, which counts the finding and
 * says whether it is still listed, and then gives it with
 * terrain_issue_collector_take(). */
typedef struct
{
  GPtrArray *issues;
  GArray    *kinds;   /* CollectorKind, first-seen order */
  guint      cap;
} TerrainIssueCollector;

void          terrain_issue_collector_init   (TerrainIssueCollector *self,
                                              guint                  cap);
TerrainIssue *terrain_issue_collector_add    (TerrainIssueCollector *self,
                                              const char            *kind,
                                              TerrainSeverity        severity,
                                              const char            *section,
                                              gint64                 offset,
                                              gint64                 record,
                                              const char            *format,
                                              ...) G_GNUC_PRINTF (7, 8);
TerrainIssue *terrain_issue_collector_addv   (TerrainIssueCollector *self,
                                              const char            *kind,
                                              TerrainSeverity        severity,
                                              const char            *section,
                                              gint64                 offset,
                                              gint64                 record,
                                              const char            *format,
                                              va_list                args) G_GNUC_PRINTF (7, 0);
gboolean      terrain_issue_collector_admit  (TerrainIssueCollector *self,
                                              const char            *kind,
                                              TerrainSeverity        severity,
                                              const char            *section);
void          terrain_issue_collector_take   (TerrainIssueCollector *self,
                                              TerrainIssue          *issue);
guint         terrain_issue_collector_count  (TerrainIssueCollector *self,
                                              const char            *kind);
GPtrArray    *terrain_issue_collector_finish (TerrainIssueCollector *self);

G_END_DECLS
