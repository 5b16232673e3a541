#!/usr/bin/env python3
"""Paired comparison of two commands: ours against a peer.

Usage:
  tests/bench/compare.py [--runs N] [--warmup N] [--prepare CMD] [--json] \\
      --reference 'PEER COMMAND' -- OUR COMMAND...

Runs the two commands alternately (ours, peer, ours, peer, ...), after
--warmup unmeasured runs of each, so that whatever else the machine does
falls on both alike. Each run is a whole process started by bench-run (built in
BUILD/tests/bench/, where meson also copies this script): wall time, CPU
time (user plus system, the process and its children) and peak resident
memory (ru_maxrss) are read from wait4(). Prints
the median of each and the ratio of medians ours/peer (below 1: ours is
faster or smaller), with the spread (min-max) of each side so that a noisy
machine shows. Exits 1 if a command fails (its status and stderr are shown).

--reference takes the peer's command as one shell word (it runs through
/bin/sh -c, so quoting and redirections work); our command is the argument
vector after --, run directly, or through /bin/sh -c when --shell is given.
Both run in the current folder; write outputs to different paths.

--prepare CMD (one shell word, as hyperfine's option of that name) runs
before every run of either side, warm-up runs included, and is not timed:
for example `rm -f ours.atlas peer.chu`, so that neither side pays for
freeing the output the run before left (on tmpfs, removing a 595 MB file
takes 0.1 s of system time) and every run writes a new file. It must
succeed.

This is how docs/performance.md compares with heightfield_chunker, maketqt,
hmm and rwe's HPI reader; any machine can repeat it with the peer built
there. See docs/performance.md, "Paired comparisons".
"""

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys


def find_runner(given):
    """bench-run: given, beside this script (the build folder's copy), or
    in a build folder of the source tree."""
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [given] if given else []
    candidates.append(os.path.join(here, 'bench-run'))
    root = os.path.dirname(os.path.dirname(here))
    for entry in sorted(os.listdir(root)):
        candidates.append(os.path.join(root, entry, 'tests', 'bench', 'bench-run'))
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK) and os.path.isfile(candidate):
            return candidate
    sys.exit('compare.py: bench-run not found: build the project (meson compile -C build) '
             'or give --runner PATH')


def run_once(runner, argv, shell):
    """Runs argv once through bench-run; returns (wall s, cpu s, peak KiB)."""
    command = ['/bin/sh', '-c', argv] if shell else list(argv)
    proc = subprocess.run([runner] + command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    fields = proc.stdout.decode().split()
    if proc.returncode != 0 or len(fields) != 4 or fields[0] != '0':
        shown = argv if shell else shlex.join(argv)
        status = fields[0] if len(fields) == 4 else 'no status'
        sys.stderr.write('compare.py: `%s` failed (exit %s)\n%s' % (
            shown, status, proc.stderr.decode(errors='replace')))
        sys.exit(1)
    return float(fields[1]), float(fields[2]), int(fields[3])


def prepare(command):
    """Runs the untimed --prepare command; exits 1 if it fails."""
    if command is None:
        return
    proc = subprocess.run(['/bin/sh', '-c', command], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    if proc.returncode != 0:
        sys.stderr.write('compare.py: --prepare `%s` failed (exit %d)\n%s' % (
            command, proc.returncode, proc.stderr.decode(errors='replace')))
        sys.exit(1)


def describe(samples):
    return {
        'median': statistics.median(samples),
        'min': min(samples),
        'max': max(samples),
    }


def main():
    parser = argparse.ArgumentParser(
        description='Paired comparison of our command against a peer (ratio of medians).')
    parser.add_argument('--reference', required=True, metavar='CMD',
                        help="the peer's command, one shell word")
    parser.add_argument('--runs', type=int, default=11, help='measured runs of each (11)')
    parser.add_argument('--warmup', type=int, default=1, help='unmeasured runs of each first (1)')
    parser.add_argument('--prepare', metavar='CMD',
                        help='a shell command run, untimed, before every run of either side')
    parser.add_argument('--shell', action='store_true',
                        help='run our command through /bin/sh -c too (give it as one word)')
    parser.add_argument('--runner', metavar='PATH',
                        help='the bench-run program (found in the build folder by default)')
    parser.add_argument('--json', action='store_true', help='print JSON instead of a table')
    parser.add_argument('ours', nargs=argparse.REMAINDER, help='-- then our command')
    args = parser.parse_args()

    ours = args.ours[1:] if args.ours[:1] == ['--'] else args.ours
    if not ours:
        parser.error('give our command after --')
    if args.runs < 1 or args.warmup < 0:
        parser.error('--runs must be at least 1 and --warmup at least 0')
    ours_argv = ' '.join(ours) if args.shell else ours
    runner = find_runner(args.runner)

    for _ in range(args.warmup):
        prepare(args.prepare)
        run_once(runner, ours_argv, args.shell)
        prepare(args.prepare)
        run_once(runner, args.reference, True)

    measured = {'ours': [], 'peer': []}
    for _ in range(args.runs):
        prepare(args.prepare)
        measured['ours'].append(run_once(runner, ours_argv, args.shell))
        prepare(args.prepare)
        measured['peer'].append(run_once(runner, args.reference, True))

    result = {'runs': args.runs, 'ours': {}, 'peer': {}, 'ratio': {}}
    for side in ('ours', 'peer'):
        for i, what in enumerate(('wall_s', 'cpu_s', 'peak_kib')):
            result[side][what] = describe([m[i] for m in measured[side]])
    for what in ('wall_s', 'cpu_s', 'peak_kib'):
        peer = result['peer'][what]['median']
        result['ratio'][what] = result['ours'][what]['median'] / peer if peer > 0 else None
    result['ours']['command'] = ours_argv if args.shell else shlex.join(ours)
    result['peer']['command'] = args.reference
    result['prepare'] = args.prepare

    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write('\n')
        return

    print('%d paired runs (medians; min-max)' % args.runs)
    print('  ours: %s' % result['ours']['command'])
    print('  peer: %s' % result['peer']['command'])
    if args.prepare is not None:
        print('  before each run (untimed): %s' % args.prepare)
    print('%-10s %26s %26s %8s' % ('', 'ours', 'peer', 'ratio'))
    units = {'wall_s': ('wall', '%.3f s'), 'cpu_s': ('cpu', '%.3f s'), 'peak_kib': ('peak', '%.0f KiB')}
    for what, (label, fmt) in units.items():
        cells = []
        for side in ('ours', 'peer'):
            d = result[side][what]
            cells.append((fmt % d['median']) + ' (' + (fmt % d['min']).split()[0] + '-'
                         + (fmt % d['max']).split()[0] + ')')
        ratio = result['ratio'][what]
        print('%-10s %26s %26s %8s' % (label, cells[0], cells[1],
                                       '%.2f' % ratio if ratio is not None else '-'))


if __name__ == '__main__':
    main()
