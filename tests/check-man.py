#!/usr/bin/env python3
# check-man.py: the generated man pages are well-formed (groff reports no
# warnings, man renders them) and terrain(1) lists every command `terrain
# --help` does. Prints TAP.
#
# Usage: check-man.py TERRAIN PAGE.1...
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import shutil
import subprocess
import sys

terrain, pages = sys.argv[1], sys.argv[2:]
results = []


def check(name, ok, diagnostics=""):
    results.append((name, ok, diagnostics))


def render(page):
    """The page as plain text, through man -l when there is a man, else groff."""
    env = dict(os.environ, MANWIDTH="80", LC_ALL="C.UTF-8", MAN_DISABLE_SECCOMP="1")
    if shutil.which("man"):
        command = ["man", "--no-hyphenation", "--no-justification", "-l", page]
    else:
        command = ["groff", "-t", "-man", "-Tutf8", page]
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    return result.returncode, result.stdout, result.stderr


for page in pages:
    name = os.path.basename(page)
    lint = subprocess.run(["groff", "-t", "-man", "-ww", "-z", page],
                          capture_output=True, text=True)
    check(f"/Terrain/Man/{name}/groff-warnings", lint.returncode == 0 and lint.stderr == "",
          lint.stderr)
    status, text, errors = render(page)
    # Backspace overstriking (bold, underline) when man thinks it prints to a tty.
    text = re.sub(".\b", "", text)
    check(f"/Terrain/Man/{name}/renders",
          status == 0 and all(s in text for s in ("NAME", "SYNOPSIS", "DESCRIPTION"))
          and errors.strip() == "", f"status {status}: {errors}")

    if name == "terrain.1":
        usage = subprocess.run([terrain, "--help"], capture_output=True, text=True).stdout
        commands = re.findall(r"^  (\S+)  ", usage.split("Commands:")[1], re.M)
        flat = " ".join(text.split())
        missing = [c for c in commands if f"terrain {c}" not in flat]
        check("/Terrain/Man/terrain.1/every-command", commands and not missing,
              f"missing: {missing}")
        section = text.split("EXIT STATUS")[-1].split("ENVIRONMENT")[0]
        statuses = re.findall(r"^ {7}(\d+)\s", section, re.M)
        check("/Terrain/Man/terrain.1/exit-status", statuses == ["0", "1", "2", "64"],
              f"statuses: {statuses}")

print(f"1..{len(results)}")
failed = 0
for number, (name, ok, diagnostics) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {number} {name}")
    if not ok:
        failed += 1
        for line in str(diagnostics).splitlines():
            print(f"# {line}")
sys.exit(1 if failed else 0)
