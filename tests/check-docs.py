#!/usr/bin/env python3
# check-docs.py: every function libterrain exports has a gtk-doc comment with
# a description, including those the introspection data leaves out with
# (skip) (gi-docgen checks the rest through the GIR). Prints TAP.
#
# Usage: check-docs.py LIBTERRAIN.so SOURCE-DIR
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import pathlib
import re
import subprocess
import sys

COMMENT = re.compile(r"/\*\*\n \* (terrain_[a-z0-9_]+):[^\n]*\n(.*?)\*/", re.S)


def exported(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library],
                         capture_output=True, text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] == "T" and fields[2].startswith("terrain_"):
            names.add(fields[2])
    # G_DECLARE_*_TYPE and glib-mkenums generate these; the types are documented.
    return {n for n in names if not n.endswith("_get_type")}


def described(body):
    """True if the comment says something besides its @params and Returns."""
    for block in re.split(r"\n \*\n", body):
        lines = [line[3:] if line.startswith(" * ") else line.strip(" *")
                 for line in block.split("\n")]
        text = " ".join(line for line in lines if line).strip()
        if text and not text.startswith(("@", "Returns:", "Since:")):
            return True
    return False


def main():
    library, source_dir = sys.argv[1], pathlib.Path(sys.argv[2])
    comments = {}
    for path in sorted(source_dir.rglob("*.[ch]")):
        for match in COMMENT.finditer(path.read_text(encoding="utf-8")):
            comments.setdefault(match.group(1), match.group(2))

    symbols = sorted(exported(library))
    missing = [s for s in symbols if s not in comments]
    bare = [s for s in symbols if s in comments and not described(comments[s])]

    print("1..2")
    for name in missing:
        print(f"# no doc comment: {name}")
    print(f"{'not ok' if missing else 'ok'} 1 /Terrain/Docs/every-export-has-a-comment"
          f" ({len(symbols)} functions)")
    for name in bare:
        print(f"# no description (only @params/Returns): {name}")
    print(f"{'not ok' if bare else 'ok'} 2 /Terrain/Docs/every-comment-has-a-description")
    return 1 if missing or bare else 0


if __name__ == "__main__":
    sys.exit(main())
