/* libterrain.h: umbrella header
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib-object.h>
#include <gio/gio.h>

#define LIBTERRAIN_INSIDE
# include "terrain-version.h"
# include "terrain-enums.h"
# include "core/terrain-error.h"
# include "core/terrain-limits.h"
# include "core/terrain-issue.h"
# include "core/terrain-image.h"
# include "core/terrain-io.h"
# include "ta/terrain-palette.h"
# include "core/terrain-document.h"
# include "core/terrain-format.h"
# include "ta/terrain-tnt-map.h"
# include "ta/terrain-sct-section.h"
#undef LIBTERRAIN_INSIDE
