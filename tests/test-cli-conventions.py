#!/usr/bin/env python3
# test-cli-conventions.py: the conventions every `terrain` command keeps
# (docs/cli.md): --help and --version on every command and subcommand, --json
# on every read command, documented exit statuses, and a progress line only on
# a terminal. Commands are found from the tool's own --help output, so a new
# command is checked without touching this file. Prints TAP.
#
# Usage: test-cli-conventions.py TERRAIN SAMPLE.tnt CLI.md
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TERRAIN, SAMPLE, GUIDE = sys.argv[1], sys.argv[2], sys.argv[3]
ENV = dict(os.environ, LC_ALL="C", TERRAIN_PROGRESS="")
ENV.pop("TERRAIN_PROGRESS")

# Read commands (they print and change nothing): each must take --json.
READ_COMMANDS = [
    ["info"], ["validate"], ["roundtrip"], ["model", "info"], ["model", "roundtrip"],
    ["atlas", "list"], ["hpi", "list"], ["ota", "show"], ["tnt", "features", "list"],
]

results = []


def check(name, ok, diagnostics=""):
    results.append((name, ok, diagnostics))


def run(*args, env=None):
    # Bytes, decoded by hand: text mode would turn the progress line's "\r"
    # into "\n".
    result = subprocess.run([TERRAIN, *args], capture_output=True, env=env or ENV, timeout=60)
    result.stdout = result.stdout.decode("utf-8", "replace")
    result.stderr = result.stderr.decode("utf-8", "replace")
    return result


def subcommands(help_text):
    """The names listed under "Commands:" in a --help text."""
    names, inside = [], False
    for line in help_text.splitlines():
        if line.strip() == "Commands:":
            inside = True
        elif inside and re.match(r"^  \S", line):
            names.append(line.split()[0])
        elif inside and line.strip() == "":
            if names:
                break
    return names


def walk(path):
    """Every command path: [info], [tnt], [tnt, features], [tnt, features, add]..."""
    result = run(*path, "--help")
    yield path, result
    for sub in subcommands(result.stdout):
        yield from walk(path + [sub])


top = run("--help")
check("/Terrain/Cli/help", top.returncode == 0 and "Usage" in top.stdout, top.stderr)
check("/Terrain/Cli/help-documents-exit-status",
      all(s in top.stdout for s in ("Exit status", "64")), top.stdout)
version = run("--version")
version_line = version.stdout.strip()
check("/Terrain/Cli/version", version.returncode == 0 and
      re.fullmatch(r"terrain \d+\.\d+\.\d+ \(libterrain \d+\.\d+\.\d+\)", version_line),
      version_line)

paths = []
for path, result in walk([]):
    if not path:
        continue
    paths.append(path)
    name = " ".join(path)
    check(f"/Terrain/Cli/help/{name}",
          result.returncode == 0 and "Usage" in result.stdout and result.stderr == "",
          f"status {result.returncode}: {result.stderr.strip()}")
    v = run(*path, "--version")
    check(f"/Terrain/Cli/version/{name}",
          v.returncode == 0 and v.stdout.strip() == version_line,
          f"status {v.returncode}: {v.stdout.strip()} {v.stderr.strip()}")
    if not subcommands(result.stdout):
        check(f"/Terrain/Cli/help-exit-status/{name}", "Exit status" in result.stdout)

with open(GUIDE, encoding="utf-8") as f:
    guide = f.read()

check("/Terrain/Cli/found-commands", len(paths) > 20, f"{len(paths)} commands")

# One option vocabulary: a short option means the same long option in every
# command, and a long option that has a short one has it everywhere (so -q is
# --quiet wherever there is a --quiet). `--version` is exempt: GLib's program
# version everywhere, but `convert -V` names the resource version it writes.
OPTION_LINE = re.compile(r"^\s+(?:-(\w), )?--([\w-]+)", re.M)
short_users, long_shorts = {}, {}
for path in paths:
    help_all = run(*path, "--help-all").stdout
    for short, long in OPTION_LINE.findall(help_all):
        if short:
            short_users.setdefault(short, {}).setdefault(long, []).append(" ".join(path))
        long_shorts.setdefault(long, {}).setdefault(short, []).append(" ".join(path))
for short, longs in sorted(short_users.items()):
    check(f"/Terrain/Cli/short-option/-{short}", len(longs) == 1,
          "; ".join(f"--{long} in {', '.join(users)}" for long, users in longs.items()))
for long, shorts in sorted(long_shorts.items()):
    if long == "version" or not any(shorts):
        continue
    check(f"/Terrain/Cli/short-option-everywhere/--{long}", len(shorts) == 1,
          "; ".join(f"-{s or '(none)'} in {', '.join(users)}" for s, users in shorts.items()))
# The guide lists the short options with their meaning.
for short, longs in sorted(short_users.items()):
    long = next(iter(longs))
    check(f"/Terrain/Cli/short-option-documented/-{short}",
          f"`-{short}`, `--{long}" in guide, f"docs/cli.md does not list `-{short}`, `--{long}`")

# A command summary that lists its subcommands ("Edit TA maps: features,
# heights, …") lists exactly the ones that exist.
for line in top.stdout.splitlines():
    match = re.match(r"^  (\S+)\s+.*?: ([a-z0-9-]+(?:, [a-z0-9-]+)+)$", line)
    if not match or [match.group(1)] not in paths:
        continue
    listed = match.group(2).split(", ")
    actual = subcommands(run(match.group(1), "--help").stdout)
    check(f"/Terrain/Cli/summary-lists-subcommands/{match.group(1)}",
          sorted(listed) == sorted(actual), f"summary lists {listed}; commands are {actual}")

# The user guide covers every command.
for path in paths:
    name = " ".join(path)
    check(f"/Terrain/Cli/documented/{name}", f"terrain {name}" in guide,
          f"docs/cli.md does not mention `terrain {name}`")

for path in READ_COMMANDS:
    name = " ".join(path)
    if path not in paths:
        check(f"/Terrain/Cli/json-option/{name}", False, "command not listed by --help")
        continue
    check(f"/Terrain/Cli/json-option/{name}", "--json" in run(*path, "--help").stdout)

with tempfile.TemporaryDirectory() as tmp:
    copies = []
    for i in range(3):
        copies.append(os.path.join(tmp, f"map{i}.tnt"))
        shutil.copy(SAMPLE, copies[-1])

    ota = os.path.join(tmp, "map0.ota")
    with open(ota, "w", encoding="ascii", newline="\r\n") as f:
        f.write("[GlobalHeader]\n{\n\tmissionname=Sample;\n\tSCHEMACOUNT=1;\n"
                "\t[Schema 0]\n\t{\n\tType=Network 1;\n\t}\n}\n")
    hpi = os.path.join(tmp, "maps.ufo")
    packed = run("hpi", "pack", hpi, copies[0], ota)
    check("/Terrain/Cli/json/setup-hpi", packed.returncode == 0, packed.stderr)

    json_runs = {
        "info": ["info", "--json", copies[0]],
        "info-several": ["info", "--json", *copies],
        "validate": ["validate", "--json", copies[0]],
        "roundtrip": ["roundtrip", "--json", *copies],
        "tnt features list": ["tnt", "features", "list", "--json", copies[0]],
        "hpi list": ["hpi", "list", "--json", hpi],
        "ota show": ["ota", "show", "--json", ota],
        "info-in-archive": ["info", "--json", f"{hpi}:maps/map0.tnt"],
    }
    for name, args in json_runs.items():
        result = run(*args)
        try:
            json.loads(result.stdout)
            parsed = True
        except ValueError:
            parsed = False
        check(f"/Terrain/Cli/json/{name}", result.returncode == 0 and parsed,
              f"status {result.returncode}: {result.stderr.strip()} {result.stdout[:200]}")

    # Exit statuses as documented.
    missing = run("info", os.path.join(tmp, "missing.tnt"))
    check("/Terrain/Cli/exit-status/unreadable", missing.returncode == 2, missing.stderr)
    check("/Terrain/Cli/exit-status/error-one-line",
          len(missing.stderr.strip().splitlines()) == 1, missing.stderr)
    usage = run("info", "--no-such-option")
    check("/Terrain/Cli/exit-status/usage", usage.returncode == 64, usage.stderr)
    unknown = run("no-such-command")
    check("/Terrain/Cli/exit-status/unknown-command", unknown.returncode == 64, unknown.stderr)

    # Progress: quiet when stderr is not a terminal, drawn (with an ETA) when
    # forced, and never on stdout.
    quiet = run("validate", *copies)
    check("/Terrain/Cli/progress/quiet-off-terminal",
          quiet.returncode == 0 and quiet.stderr == "", repr(quiet.stderr))
    for command in ("validate", "roundtrip"):
        forced = run(command, *copies, env=dict(ENV, TERRAIN_PROGRESS="always"))
        check(f"/Terrain/Cli/progress/{command}",
              forced.returncode == 0 and "\r" in forced.stderr and "ETA" in forced.stderr
              and "2/3" in forced.stderr and "\r" not in forced.stdout
              and forced.stderr.endswith("\r\033[K"),
              repr(forced.stderr[-300:]))
        forced_json = run(command, "--json", *copies, env=dict(ENV, TERRAIN_PROGRESS="always"))
        check(f"/Terrain/Cli/progress/{command}-json-stdout-clean",
              forced_json.returncode == 0 and json.loads(forced_json.stdout) is not None)
    single = run("validate", copies[0], env=dict(ENV, TERRAIN_PROGRESS="always"))
    check("/Terrain/Cli/progress/not-for-one-file", single.stderr == "", repr(single.stderr))

print(f"1..{len(results)}")
failed = 0
for number, (name, ok, diagnostics) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {number} {name}")
    if not ok:
        failed += 1
        for line in str(diagnostics).splitlines():
            print(f"# {line}")
sys.exit(1 if failed else 0)
