#!/usr/bin/env python3
# set-sea-level.py: change a Total Annihilation map's sea level through the
# Terrain-0 introspection bindings (PyGObject).
#
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: set-sea-level.py MAP.tnt LEVEL [OUTPUT.tnt]
#        set-sea-level.py --new WIDTHxHEIGHT LEVEL OUTPUT.tnt
#
# With an uninstalled build, point GObject Introspection at it:
#   GI_TYPELIB_PATH=build/libterrain LD_LIBRARY_PATH=build/libterrain \
#     python3 docs/examples/set-sea-level.py build/data/sample.tnt 40 /tmp/out.tnt

import sys

import gi

gi.require_version("Terrain", "0")
from gi.repository import Gio, GLib, Terrain  # noqa: E402

USAGE = """Usage: set-sea-level.py MAP.tnt LEVEL [OUTPUT.tnt]
       set-sea-level.py --new WIDTHxHEIGHT LEVEL OUTPUT.tnt"""


def open_map(path):
    """Opens any map libterrain reads and checks it is a TNT map."""
    document = Terrain.Document.load(Gio.File.new_for_commandline_arg(path), None, None)
    if not isinstance(document, Terrain.TntMap):
        raise GLib.Error(f"{path}: not a TNT map ({Terrain.Format.get_name(document.get_format())})")
    return document


def main(argv):
    if len(argv) == 5 and argv[1] == "--new":
        width, height = (int(v) for v in argv[2].lower().split("x"))
        tnt = Terrain.TntMap.new(width, height)
        level, output = int(argv[3]), argv[4]
    elif len(argv) in (3, 4):
        tnt = open_map(argv[1])
        level = int(argv[2])
        output = argv[3] if len(argv) == 4 else argv[1]
    else:
        print(USAGE, file=sys.stderr)
        return 64

    print(f"sea level {tnt.get_sea_level()} -> {level}")
    tnt.set_sea_level(level)
    # Atomic: a temporary file next to OUTPUT, then a rename.
    tnt.save(Gio.File.new_for_commandline_arg(output), None)

    check = open_map(output)
    if check.get_sea_level() != level:
        print(f"{output}: sea level reads back as {check.get_sea_level()}", file=sys.stderr)
        return 1
    print(f"wrote {output}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except GLib.Error as error:
        print(f"set-sea-level.py: {error.message}", file=sys.stderr)
        sys.exit(2)
