#!/usr/bin/env python3
# check-gir.py: checks that Terrain-0.gir describes every introspectable
# function in a way bindings can call: no pointer to a number that is not an
# (array) or (out), and no returned or (out) array whose length bindings cannot
# know (give it (array length=...), fixed-size, zero-terminated, or (skip) the
# function and document why). Prints TAP.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import sys
import xml.etree.ElementTree as ET

CORE = "{http://www.gtk.org/introspection/core/1.0}"
C = "{http://www.gtk.org/introspection/c/1.0}"
CALLABLES = {CORE + t for t in ("function", "method", "constructor", "callback",
                                "virtual-method")}
NUMBERS = {"guint8", "gint8", "guint16", "gint16", "guint32", "gint32", "guint", "gint",
           "gfloat", "gdouble", "float", "double", "guint64", "gint64", "gsize",
           "gssize", "gboolean", "guchar", "glong", "gulong"}


def problems(root):
    for func in root.iter():
        if func.tag not in CALLABLES or func.get("introspectable") == "0":
            continue
        name = func.get(C + "identifier") or func.get("name")
        values = list(func.iter(CORE + "return-value")) + list(func.iter(CORE + "parameter"))
        for value in values:
            label = value.get("name", "return value")
            direction = value.get("direction", "in")
            returned = value.tag == CORE + "return-value" or direction != "in"
            simple = value.find(CORE + "type")
            array = value.find(CORE + "array")
            if simple is not None:
                ctype = (simple.get(C + "type") or "").replace("const ", "")
                base = ctype.replace("*", "").strip()
                stars = ctype.count("*") - (0 if direction == "in" else 1)
                if base in NUMBERS and stars >= 1:
                    yield f"{name}: {label} ({ctype}) is a pointer to a number; " \
                          "annotate it (array ...), (out) or (skip) the function"
            elif array is not None and returned and array.get("name") is None:
                if (array.get("length") is None and array.get("fixed-size") is None
                        and array.get("zero-terminated") == "0"):
                    yield f"{name}: {label} is an array of unknown length"


def main():
    root = ET.parse(sys.argv[1]).getroot()
    found = list(problems(root))
    print("1..1")
    for line in found:
        print(f"# {line}")
    print(("not ok" if found else "ok") + " 1 /Terrain/Introspection/annotations")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
