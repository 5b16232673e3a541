#!/usr/bin/env python3
# check-layering.py: core knows no format. Fails on any #include in
# libterrain/core/ of a header from a format family folder (ta/, atlas/,
# insomniac/, torque/): by its folder ("ta/terrain-palette.h") or by a bare
# name that only a family folder holds ("terrain-palette.h" resolves through
# the include path). docs/architecture.md, "Folders". Prints TAP.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import sys

FAMILIES = ("ta", "atlas", "insomniac", "torque")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]', re.MULTILINE)


def family_headers(root):
    """Maps each header name a family folder holds to its family."""
    names = {}
    for family in FAMILIES:
        folder = os.path.join(root, family)
        for name in os.listdir(folder) if os.path.isdir(folder) else ():
            if name.endswith(".h"):
                names.setdefault(name, family)
    return names


def offences(text, family_names, core_names):
    """Yields (line number, included path, family) for every include of a
    family header in one source text."""
    for match in INCLUDE.finditer(text):
        path = match.group(1)
        line = text.count("\n", 0, match.start()) + 1
        first = path.split("/", 1)[0]
        if "/" in path and first in FAMILIES:
            yield line, path, first
        elif "/" not in path and path in family_names and path not in core_names:
            yield line, path, family_names[path]


def main():
    root = sys.argv[1]
    core = os.path.join(root, "core")
    core_names = {n for n in os.listdir(core) if n.endswith(".h")}
    family_names = family_headers(root)
    results = []

    # The rule itself: it must catch both spellings and pass core headers.
    sample = '#include "ta/terrain-palette.h"\n#include <terrain-tnt-map.h>\n' \
             '#include "terrain-image.h"\n#include "core/terrain-error.h"\n'
    caught = list(offences(sample, {"terrain-tnt-map.h": "ta", "terrain-palette.h": "ta"},
                           {"terrain-image.h", "terrain-error.h"}))
    results.append(("/Terrain/Layering/rule",
                    [] if [c[1] for c in caught] == ["ta/terrain-palette.h", "terrain-tnt-map.h"]
                    else [f"the rule found {caught!r} in its own sample"]))

    found = []
    checked = 0
    for name in sorted(os.listdir(core)):
        if not name.endswith((".c", ".h")):
            continue
        checked += 1
        with open(os.path.join(core, name), encoding="utf-8") as source:
            text = source.read()
        for line, path, family in offences(text, family_names, core_names):
            found.append(f"core/{name}:{line}: includes {path} (from {family}/)")
    if checked == 0:
        found.append(f"no sources under {core}")
    results.append(("/Terrain/Layering/core-includes-no-family", found))

    print(f"1..{len(results)}")
    failed = 0
    for number, (name, problems) in enumerate(results, 1):
        for problem in problems:
            print(f"# {problem}")
        print(("not ok" if problems else "ok") + f" {number} {name}")
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
