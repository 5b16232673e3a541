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
# include "core/terrain-render-options.h"
# include "core/terrain-bc.h"
# include "ta/terrain-palette.h"
# include "core/terrain-document.h"
# include "core/terrain-format.h"
# include "core/terrain-heightfield.h"
# include "core/terrain-heightmap-document.h"
# include "core/terrain-command.h"
# include "core/terrain-command-stack.h"
# include "ta/terrain-tnt-map.h"
# include "ta/terrain-sct-section.h"
# include "ta/terrain-tnt-brush.h"
# include "ta/terrain-tnt-edit.h"
# include "ta/terrain-tnt-image.h"
# include "ta/terrain-tdf-document.h"
# include "ta/terrain-ota-file.h"
# include "ta/terrain-hpi-archive.h"
# include "ta/terrain-hpi-writer.h"
# include "ta/terrain-game-files.h"
# include "ta/terrain-ta-map-hash.h"
# include "ta/terrain-tnt-lint.h"
# include "ta/terrain-feature-catalog.h"
# include "ta/terrain-gaf-archive.h"
# include "ta/terrain-gaf-writer.h"
# include "ta/terrain-tnt-preview.h"
# include "ta/terrain-tnt-unpack.h"
# include "atlas/terrain-quadtree.h"
# include "atlas/terrain-dds.h"
# include "atlas/terrain-atlas-geometry.h"
# include "atlas/terrain-atlas-texture.h"
# include "atlas/terrain-atlas-config.h"
# include "atlas/terrain-atlas-toc.h"
# include "atlas/terrain-atlas-stub.h"
# include "atlas/terrain-atlas-file.h"
# include "atlas/terrain-atlas-edit.h"
# include "atlas/terrain-atlas-builder.h"
# include "atlas/terrain-chu-file.h"
# include "atlas/terrain-tqt-file.h"
# include "atlas/terrain-chu-import.h"
# include "torque/terrain-ter-file.h"
# include "insomniac/terrain-dat1.h"
# include "insomniac/terrain-model.h"
# include "insomniac/terrain-floor-height-data.h"
# include "insomniac/terrain-node-chunk.h"
# include "insomniac/terrain-node-layer.h"
#undef LIBTERRAIN_INSIDE
