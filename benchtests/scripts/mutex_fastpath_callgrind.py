#!/usr/bin/python3
# Instructions per uncontended mutex lock/unlock pair, per mutex kind.
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
"""Count instructions per uncontended lock/unlock pair with callgrind.

Runs bench-mutex-fastpath --kind KIND --pairs N under
valgrind --tool=callgrind, collecting only inside its run_pairs
function, for two values of N; the difference of the two counts divided
by the difference of N is the cost of one pair (loop overhead included,
the same for every kind), free of start-up costs.  Instruction counts do
not depend on the load of the machine, unlike times.
"""

import argparse
import json
import re
import subprocess
import sys

PAIRS = (10000, 20000)


def collected(testrun, binary, kind, pairs):
    """Instructions callgrind collected inside run_pairs."""
    tool = ('valgrind --tool=callgrind --callgrind-out-file=/dev/null '
            '--collect-atstart=no --toggle-collect=run_pairs')
    cmd = [testrun, '--tool=' + tool, binary, '--kind', kind,
           '--pairs', str(pairs)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    match = re.search(r'Collected : (\d+)', proc.stderr)
    if proc.returncode != 0 or match is None:
        sys.exit('mutex_fastpath_callgrind: %s failed (exit %d):\n%s'
                 % (' '.join(cmd), proc.returncode, proc.stderr[-2000:]))
    return int(match.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--testrun', required=True,
                        help="the glibc build's testrun.sh")
    parser.add_argument('--binary', required=True,
                        help='bench-mutex-fastpath')
    parser.add_argument('--json', help='write the counts here')
    parser.add_argument('--baseline', default='normal',
                        help='kind the others are compared with')
    args = parser.parse_args()

    listing = subprocess.run([args.testrun, args.binary, '--list'],
                             capture_output=True, text=True, check=True)
    kinds = listing.stdout.split()
    per_pair = {}
    for kind in kinds:
        low, high = (collected(args.testrun, args.binary, kind, n)
                     for n in PAIRS)
        per_pair[kind] = (high - low) / (PAIRS[1] - PAIRS[0])

    base = per_pair.get(args.baseline)
    print('instructions per uncontended lock+unlock pair (callgrind)')
    print('%-14s %12s %14s' % ('kind', 'instructions',
                               'vs ' + args.baseline))
    for kind in kinds:
        delta = ('%+14.1f' % (per_pair[kind] - base)) if base else ''
        print('%-14s %12.1f %s' % (kind, per_pair[kind], delta))
    if args.json:
        with open(args.json, 'w', encoding='utf-8') as out:
            json.dump({'tool': 'callgrind', 'pairs': PAIRS,
                       'instructions_per_pair': per_pair}, out, indent=2)
            out.write('\n')


if __name__ == '__main__':
    main()
