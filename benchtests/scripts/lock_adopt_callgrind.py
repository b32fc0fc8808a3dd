#!/usr/bin/python3
# What the static-lock adoption check costs on the lock fast paths.
# Copyright (C) 2026 Free Software Foundation, Inc.
# This file is part of the GNU C Library.
#
# The GNU C Library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Lesser General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# The GNU C Library is distributed in the hope that it will be useful,
# but WITHOUT ANY WARRANTY; without even the implied warranty of
# MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
# Lesser General Public License for more details.
#
# You should have received a copy of the GNU Lesser General Public
# License along with the GNU C Library; if not, see
# <https://www.gnu.org/licenses/>.
"""Count, with callgrind, the instructions of the adoption check.

Runs tests/callgrind/lock-fastpath KIND N (uncontended acquire/release
pairs of a normal mutex or a default rwlock) on the fork's libc under
valgrind --tool=callgrind, collecting only inside run_pairs, for two
values of N, with the lock tunables unset.  For each kind it prints the
instructions of one pair (the difference of the two totals over the
difference of N: start-up costs cancel) and, of those, the instructions
that callgrind attributes to the source lines of the adoption check (the
lines of glibc's sources that name PTHREAD_MUTEX_ADOPT_TP_WANTED or
PTHREAD_RWLOCK_ADOPT_WANTED, and pthread_lock_adopt.h).  The second
figure is the check's cost per pair; --max-added fails the run when it
is above the limit for any kind.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

PAIRS = (10000, 20000)
KINDS = ('mutex-static', 'mutex-init', 'mutex-trylock', 'recursive',
         'rwlock-rd', 'rwlock-wr', 'rwlock-tryrd', 'rwlock-trywr')
MARKS = ('PTHREAD_MUTEX_ADOPT_TP_WANTED', 'PTHREAD_RWLOCK_ADOPT_WANTED')
HEADER = 'pthread_lock_adopt.h'


def hook_lines(srcdir):
    """{file basename: set of line numbers} of the adoption check."""
    lines = {}
    for sub in ('nptl',):
        for name in sorted(os.listdir(os.path.join(srcdir, sub))):
            if not name.endswith('.c'):
                continue
            path = os.path.join(srcdir, sub, name)
            with open(path, encoding='utf-8', errors='replace') as src:
                for number, text in enumerate(src, 1):
                    if any(mark in text for mark in MARKS):
                        lines.setdefault(name, set()).add(number)
    return lines


def parse(outfile, hooks):
    """Total Ir and Ir on the hook lines in callgrind output OUTFILE.

    Written with --compress-strings=no --compress-pos=no, so that every
    cost line is `LINE IR' (or `LINE IR' after calls=) and the current
    file is the last fl=, fi= or fe= line."""
    total = hook = 0
    current = ''
    skip_next = False
    with open(outfile, encoding='utf-8', errors='replace') as out:
        for text in out:
            if text.startswith(('fl=', 'fi=', 'fe=')):
                current = os.path.basename(text[3:].strip())
                continue
            if text.startswith('calls='):
                # The next cost line is the inclusive cost of a call:
                # counted where the callee's own lines are.
                skip_next = True
                continue
            match = re.match(r'^(\d+) (\d+)$', text.strip())
            if not match:
                continue
            if skip_next:
                skip_next = False
                continue
            line, cost = int(match.group(1)), int(match.group(2))
            total += cost
            if current == HEADER or line in hooks.get(current, ()):
                hook += cost
    return total, hook


def collect(testrun, binary, kind, pairs, hooks, env):
    with tempfile.TemporaryDirectory() as tmp:
        outfile = os.path.join(tmp, 'callgrind.out')
        tool = ('valgrind --tool=callgrind --callgrind-out-file=%s '
                '--collect-atstart=no --toggle-collect=run_pairs '
                '--compress-strings=no --compress-pos=no' % outfile)
        cmd = [testrun, '--tool=' + tool, binary, kind, str(pairs)]
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              check=False, env=env)
        if proc.returncode != 0 or not os.path.exists(outfile):
            sys.exit('lock_adopt_callgrind: %s failed (exit %d):\n%s'
                     % (' '.join(cmd), proc.returncode, proc.stderr[-2000:]))
        return parse(outfile, hooks)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--testrun', required=True,
                        help="the glibc build's testrun.sh")
    parser.add_argument('--binary', required=True, help='lock-fastpath')
    parser.add_argument('--srcdir', required=True,
                        help='the assembled glibc tree (build/src)')
    parser.add_argument('--max-added', type=float, default=None,
                        help='fail if the check costs more per pair')
    args = parser.parse_args()

    hooks = hook_lines(args.srcdir)
    if not hooks:
        sys.exit('lock_adopt_callgrind: no adoption check found in %s'
                 % args.srcdir)
    env = dict(os.environ)
    env.pop('GLIBC_TUNABLES', None)
    print('instructions per uncontended acquire+release pair (callgrind),'
          ' lock tunables unset')
    print('%-14s %8s %8s %8s' % ('kind', 'pair', 'check', 'other'))
    worst = 0.0
    for kind in KINDS:
        (low_t, low_h), (high_t, high_h) = (
            collect(args.testrun, args.binary, kind, n, hooks, env)
            for n in PAIRS)
        span = PAIRS[1] - PAIRS[0]
        pair = (high_t - low_t) / span
        check = (high_h - low_h) / span
        worst = max(worst, check)
        print('%-14s %8.1f %8.1f %8.1f' % (kind, pair, check, pair - check))
    if args.max_added is not None and worst > args.max_added:
        sys.exit('lock_adopt_callgrind: the check costs %.1f instructions'
                 ' per pair, above %.1f' % (worst, args.max_added))


if __name__ == '__main__':
    main()
