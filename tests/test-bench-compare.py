#!/usr/bin/env python3
"""tests/bench/compare.py: paired runs, ratios of medians, honest peaks.

Usage: test-bench-compare.py COMPARE_PY BENCH_RUN (meson passes both).
TAP output, one line per check.
"""
import json
import subprocess
import sys

compare, runner = sys.argv[1], sys.argv[2]
checks = []


def check(ok, what):
    checks.append((bool(ok), what))


def run(*args):
    return subprocess.run([sys.executable, compare, '--runner', runner] + list(args),
                          capture_output=True, text=True)


# A peer that touches 64 MiB against ours, `true`: ours must not inherit the
# measuring interpreter's size, the peer's peak must show the 64 MiB.
big = ("python3 -c 'b = bytearray(64 << 20)\n"
       "for i in range(0, len(b), 4096): b[i] = 1'")
p = run('--runs', '3', '--warmup', '0', '--json', '--reference', big, '--', 'true')
check(p.returncode == 0, 'a comparison of two commands that succeed exits 0: ' + p.stderr)
result = json.loads(p.stdout) if p.returncode == 0 else {}
ours = result.get('ours', {})
peer = result.get('peer', {})
check(result.get('runs') == 3, 'three paired runs are reported')
check(ours.get('peak_kib', {}).get('median', 1e9) < 8 * 1024,
      '`true` peaks under 8 MiB (not the interpreter\'s size): %s' % ours.get('peak_kib'))
check(peer.get('peak_kib', {}).get('median', 0) >= 64 * 1024,
      'the peer that touches 64 MiB peaks at 64 MiB or more: %s' % peer.get('peak_kib'))
ratio = result.get('ratio', {})
check(ratio.get('peak_kib') is not None and ratio['peak_kib'] < 0.2,
      'the peak ratio ours/peer is the ratio of medians: %s' % ratio.get('peak_kib'))
check(ratio.get('wall_s') is not None and
      abs(ratio['wall_s'] - ours['wall_s']['median'] / peer['wall_s']['median']) < 1e-9,
      'the wall ratio is the ratio of the medians')
check(all(ours.get(k, {}).get('min', 1) <= ours.get(k, {}).get('median', 0) <= ours.get(k, {}).get('max', -1)
          for k in ('wall_s', 'cpu_s', 'peak_kib')), 'min <= median <= max')
check(peer.get('command') == big and ours.get('command') == 'true', 'both commands are named')

# The table form names both sides and prints a ratio column.
p = run('--runs', '2', '--reference', 'true', '--', 'true')
check(p.returncode == 0 and 'ratio' in p.stdout and 'wall' in p.stdout and 'peak' in p.stdout,
      'the table has wall, peak and ratio: ' + p.stdout)

# A failing command stops the comparison with its status.
p = run('--runs', '2', '--reference', 'exit 3', '--', 'true')
check(p.returncode == 1 and 'exit 3' in p.stderr, 'a failing peer exits 1 naming it: ' + p.stderr)
p = run('--runs', '2', '--reference', 'true', '--', 'false')
check(p.returncode == 1 and 'false' in p.stderr, 'a failing command of ours exits 1 naming it')
p = run('--runs', '2', '--reference', 'true')
check(p.returncode == 2, 'no command of ours is a usage error')

# --prepare runs before every run of either side, warm-up included, untimed:
# a counter file gets one line per run; a command that needs the file the
# preparation removed shows it ran first.
import os
import tempfile
with tempfile.TemporaryDirectory() as tmp:
    count = os.path.join(tmp, 'count')
    mark = os.path.join(tmp, 'mark')
    p = run('--runs', '3', '--warmup', '1', '--json',
            '--prepare', 'echo run >> %s && rm -f %s' % (count, mark),
            '--reference', 'test ! -e %s && touch %s' % (mark, mark),
            '--shell', '--', 'test ! -e %s && touch %s' % (mark, mark))
    check(p.returncode == 0, '--prepare runs before each run, so each finds the file removed: '
          + p.stderr)
    lines = open(count).read().split() if os.path.exists(count) else []
    check(len(lines) == 8, '--prepare ran 8 times for 1 warm-up and 3 paired runs: %d' % len(lines))
    check(p.returncode == 0 and json.loads(p.stdout).get('prepare', '').startswith('echo run'),
          'the JSON names the preparation')
    p = run('--runs', '1', '--prepare', 'exit 4', '--reference', 'true', '--', 'true')
    check(p.returncode == 1 and 'exit 4' in p.stderr and '--prepare' in p.stderr,
          'a failing --prepare exits 1 naming it: ' + p.stderr)

print('1..%d' % len(checks))
for i, (ok, what) in enumerate(checks, 1):
    print('%s %d - %s' % ('ok' if ok else 'not ok', i, what.replace('\n', ' ')))
sys.exit(0 if all(ok for ok, _ in checks) else 1)
