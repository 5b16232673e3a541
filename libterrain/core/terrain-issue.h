/* terrain-issue.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(LIBTERRAIN_INSIDE) && !defined(LIBTERRAIN_COMPILATION)
# error "Only <libterrain.h> can be included directly."
#endif

#include <glib-object.h>

#include "terrain-version.h"

G_BEGIN_DECLS

/**
 * TerrainSeverity:
 * @TERRAIN_SEVERITY_INFO: a remark; the file is consistent
 * @TERRAIN_SEVERITY_WARNING: a consistency problem; the file loads but a
 *   consumer (the game, an editor) may misbehave
 * @TERRAIN_SEVERITY_ERROR: a structural problem
 *
 * How serious a validation finding is.
 */
typedef enum
{
  TERRAIN_SEVERITY_INFO,
  TERRAIN_SEVERITY_WARNING,
  TERRAIN_SEVERITY_ERROR,
} TerrainSeverity;

#define TERRAIN_TYPE_ISSUE (terrain_issue_get_type ())

/**
 * TerrainIssue:
 *
 * One validation finding: a severity, where it is (section, byte offset,
 * record index, map position) and a message. Produced by
 * [method@Terrain.Document.validate].
 */
typedef struct _TerrainIssue TerrainIssue;

TERRAIN_AVAILABLE_IN_ALL
GType            terrain_issue_get_type     (void) G_GNUC_CONST;
TERRAIN_AVAILABLE_IN_ALL
TerrainIssue    *terrain_issue_new          (TerrainSeverity     severity,
                                             const char         *section,
                                             gint64              offset,
                                             gint64              record,
                                             const char         *format,
                                             ...) G_GNUC_PRINTF (5, 6);
TERRAIN_AVAILABLE_IN_ALL
TerrainIssue    *terrain_issue_new_literal  (TerrainSeverity     severity,
                                             const char         *section,
                                             gint64              offset,
                                             gint64              record,
                                             const char         *message);
TERRAIN_AVAILABLE_IN_ALL
TerrainIssue    *terrain_issue_ref          (TerrainIssue       *issue);
TERRAIN_AVAILABLE_IN_ALL
void             terrain_issue_unref        (TerrainIssue       *issue);
TERRAIN_AVAILABLE_IN_ALL
TerrainSeverity  terrain_issue_get_severity (const TerrainIssue *issue);
TERRAIN_AVAILABLE_IN_ALL
const char      *terrain_issue_get_section  (const TerrainIssue *issue);
TERRAIN_AVAILABLE_IN_ALL
gint64           terrain_issue_get_offset   (const TerrainIssue *issue);
TERRAIN_AVAILABLE_IN_ALL
gint64           terrain_issue_get_record   (const TerrainIssue *issue);
TERRAIN_AVAILABLE_IN_ALL
const char      *terrain_issue_get_message  (const TerrainIssue *issue);
TERRAIN_AVAILABLE_IN_ALL
void             terrain_issue_set_position (TerrainIssue       *issue,
                                             gint                x,
                                             gint                y);
TERRAIN_AVAILABLE_IN_ALL
gboolean         terrain_issue_get_position (const TerrainIssue *issue,
                                             gint               *x,
                                             gint               *y);
TERRAIN_AVAILABLE_IN_ALL
void             terrain_issue_set_rule     (TerrainIssue       *issue,
                                             const char         *rule);
TERRAIN_AVAILABLE_IN_ALL
const char      *terrain_issue_get_rule     (const TerrainIssue *issue);
TERRAIN_AVAILABLE_IN_ALL
char            *terrain_issue_to_string    (const TerrainIssue *issue);
TERRAIN_AVAILABLE_IN_ALL
const char      *terrain_severity_to_string (TerrainSeverity     severity);
TERRAIN_AVAILABLE_IN_ALL
TerrainSeverity  terrain_issues_max_severity (GPtrArray         *issues,
                                              gboolean          *any);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TerrainIssue, terrain_issue_unref)

G_END_DECLS
