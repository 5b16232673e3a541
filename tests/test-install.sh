#!/bin/sh
# test-install.sh: install into a temporary DESTDIR, then build and run a
# small program against the installed headers through the installed
# pkg-config file (libterrain-0.pc), as a user of the library would. Prints TAP.
#
# Usage: test-install.sh BUILDDIR PREFIX LIBDIR CC INTROSPECTION(yes|no)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u

builddir=$1
prefix=$2
libdir=$3       # relative to PREFIX, multiarch on Debian: lib/x86_64-linux-gnu
cc=$4
introspection=$5

destdir=$(mktemp -d "${TMPDIR:-/tmp}/terrain-install-XXXXXX")
trap 'rm -rf "$destdir"' EXIT
root="$destdir$prefix"

n=0
failed=0
ok()
{
    n=$((n + 1))
    echo "ok $n $1"
}
not_ok()
{
    n=$((n + 1))
    failed=$((failed + 1))
    echo "not ok $n $1"
    [ -f "$destdir/log" ] && sed 's/^/# /' "$destdir/log" | tail -n 30
}
check()  # NAME COMMAND...
{
    name=$1
    shift
    if "$@" >"$destdir/log" 2>&1; then ok "$name"; else not_ok "$name"; fi
}

echo "1..9"

check /Terrain/Install/meson-install \
    meson install -C "$builddir" --destdir "$destdir" --no-rebuild --quiet

pcdir="$root/$libdir/pkgconfig"
check /Terrain/Install/pkg-config-file test -f "$pcdir/libterrain-0.pc"

# The .pc file names the final prefix; a copy of it names the one under
# DESTDIR instead (a sysroot would move the system's GLib too).
mkdir -p "$destdir/pkgconfig"
sed "s|^prefix=.*|prefix=$root|" "$pcdir/libterrain-0.pc" >"$destdir/pkgconfig/libterrain-0.pc"
export PKG_CONFIG_PATH="$destdir/pkgconfig"
check /Terrain/Install/pkg-config-modversion pkg-config --exact-version="$(
    sed -n 's/^Version: //p' "$pcdir/libterrain-0.pc")" libterrain-0

cat >"$destdir/use-libterrain.c" <<'PROGRAM'
#include <libterrain.h>

int
main (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TerrainTntMap) map = terrain_tnt_map_new (16, 16, &error);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TerrainDocument) again = NULL;

  if (map == NULL)
    return 1;
  if (!terrain_tnt_map_set_sea_level (map, 33, &error))
    return 1;
  bytes = terrain_document_save_to_bytes (TERRAIN_DOCUMENT (map), &error);
  if (bytes == NULL)
    return 2;
  again = terrain_document_load_bytes (bytes, "x.tnt", TERRAIN_FORMAT_UNKNOWN, NULL, &error);
  if (again == NULL || !TERRAIN_IS_TNT_MAP (again) ||
      terrain_tnt_map_get_sea_level (TERRAIN_TNT_MAP (again)) != 33)
    return 3;
  g_print ("libterrain %s: %s\n", TERRAIN_VERSION_S,
           terrain_format_get_description (terrain_document_get_format (again)));
  return TERRAIN_CHECK_VERSION (0, 0, 1) ? 0 : 4;
}
PROGRAM

# shellcheck disable=SC2046
check /Terrain/Install/compile \
    $cc -std=c11 -Wall -Werror -o "$destdir/use-libterrain" "$destdir/use-libterrain.c" \
    $(pkg-config --cflags --libs libterrain-0)

check /Terrain/Install/run \
    env LD_LIBRARY_PATH="$root/$libdir" "$destdir/use-libterrain"

# Only the umbrella header may be included directly.
cat >"$destdir/direct.c" <<'PROGRAM'
#include <core/terrain-document.h>
int main (void) { return 0; }
PROGRAM
# shellcheck disable=SC2046
if $cc -c -o "$destdir/direct.o" "$destdir/direct.c" $(pkg-config --cflags libterrain-0) \
    >"$destdir/log" 2>&1; then
    not_ok /Terrain/Install/direct-include-refused
else
    ok /Terrain/Install/direct-include-refused
fi

check /Terrain/Install/programs \
    test -x "$root/bin/terrain" -a -x "$root/bin/terrain-thumbnailer"
missing=""
for f in share/thumbnailers/terrain.thumbnailer share/mime/packages/libterrain-mime.xml \
    share/locale/de/LC_MESSAGES/libterrain.mo share/locale/fr/LC_MESSAGES/libterrain.mo; do
    [ -e "$root/$f" ] || missing="$missing $f"
done
# Man pages, when they were built (-Dman).
if [ -e "$builddir/docs/terrain.1" ] && [ ! -e "$root/share/man/man1/terrain.1" ]; then
    missing="$missing share/man/man1/terrain.1"
fi
if [ -z "$missing" ]; then ok /Terrain/Install/data; else
    echo "missing:$missing" >"$destdir/log"; not_ok /Terrain/Install/data; fi

if [ "$introspection" = yes ]; then
    check /Terrain/Install/introspection \
        test -f "$root/$libdir/girepository-1.0/Terrain-0.typelib" -a \
             -f "$root/share/gir-1.0/Terrain-0.gir"
else
    ok "/Terrain/Install/introspection # SKIP built without introspection"
fi

exit $((failed > 0))
