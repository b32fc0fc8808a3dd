#!/usr/bin/python3
# Measure again the bench-lock-contention cells below or near a target.
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
"""Measure again the cells of a sweep below or near their floor target.

A sweep of bench-lock-contention gives each cell a few rounds; where a
kind does what its baseline does (no contention, long gaps between
operations), the median of their round-by-round ratio lies at 1.0 give
or take the machine's noise, and a floor target at or near 1.0 is met
or missed by chance.  This script takes every cell whose median ratio
lies below its floor target or less than --margin (a fraction of the
target) above it, runs the kind and its baseline again on that
workload for --rounds more rounds,
interleaved as the sweep runs them, and reports per cell the median of
all its rounds (the sweep's and the new ones), their extremes, and the
distribution-free 95 % interval of that median (from the order
statistics of the per-round ratios).  A cell's verdict is

  met          the median of all rounds is at or above the target;
  noise        it is below, but the interval reaches the target: the
               rounds cannot tell this cell from one that meets it;
  NOT met      the whole interval lies below the target: a loss the
               rounds resolve.

Cells just above the target are measured again too, so that a cell
that met its target by luck is measured again as one that missed it by
luck is.

The floor targets (ratio to the baseline of the kind's family; where
two apply to a cell, the higher one counts):
  mutex-tp            0.97 on every workload,
                      1.20 with short sections and no gap at 2, 4 and
                      8 threads                   (baseline mutex-normal)
  rwlock-phase-fair   0.90 at 100 % reads,
                      0.80 at 50 % reads          (baseline rwlock-default)
  rwlock-tp           1.00 on every workload,
                      1.50 where writers contend: 50 % reads, no gap,
                      2 threads or more           (baseline rwlock-default)

Example (what make bench runs after its sweep):
  lock_bench_confirm.py --json lock-contention.json \\
    --bench 'testrun.sh benchtests/bench-lock-contention' \\
    --output lock-confirm.json --table lock-confirm.txt
"""

import argparse
import io
import json
import math
import os
import shlex
import statistics
import subprocess
import sys
import tempfile

import lock_bench_report as report

# (kind, the cells it applies to in words, a test of a cell for them,
# the floor).
TARGETS = [
    ('mutex-tp', 'every workload', lambda c: True, 0.97),
    ('mutex-tp', 'short sections, no gap, 2, 4 and 8 threads',
     lambda c: c.cs == 'short' and c.outside == 0 and c.threads in (2, 4, 8),
     1.20),
    ('rwlock-phase-fair', '100 % reads', lambda c: c.read == 100, 0.90),
    ('rwlock-phase-fair', '50 % reads', lambda c: c.read == 50, 0.80),
    ('rwlock-tp', 'every workload', lambda c: True, 1.00),
    ('rwlock-tp', '50 % reads, no gap, 2 threads or more',
     lambda c: c.read == 50 and c.outside == 0 and c.threads >= 2, 1.50),
]


def target_of(cell):
    """The floor target of CELL (the highest that applies), or None if
    it has none."""
    targets = [t for kind, _, applies, t in TARGETS
               if kind == cell.kind and applies(cell)]
    return max(targets) if targets else None


def near_target(cells, margin):
    """The cells with a ratio and a target whose median ratio lies
    below the target or less than MARGIN (a fraction of the target)
    above it, in report order."""
    kinds, workloads = report.ordered(cells)

    def order(c):
        return kinds.index(c.kind), workloads.index(c.workload), c.threads

    def near(c):
        target = target_of(c)
        ratio = c.figs.get('ratio')
        return (target is not None and ratio is not None
                and ratio.median < target * (1 + margin))
    return [c for c in sorted(cells.values(), key=order) if near(c)]


def median_interval(values, confidence=0.95):
    """The distribution-free CONFIDENCE interval of the median of
    VALUES: (lo, hi) order statistics x_(k), x_(n+1-k), with k the
    largest for which P(Binomial(n, 1/2) < k) <= (1 - CONFIDENCE) / 2.
    With too few values for that, the extremes."""
    xs = sorted(values)
    n = len(xs)
    tail = (1 - confidence) / 2
    k = 0
    below = 0.0
    while k < n:
        # below = P(B < k + 1) = P(B <= k).
        nxt = below + math.comb(n, k) / 2 ** n
        if nxt > tail:
            break
        below = nxt
        k += 1
    if k == 0:
        return xs[0], xs[-1]
    return xs[k - 1], xs[n - k]


def verdict(median, interval, target):
    if median >= target:
        return 'met'
    if interval[1] >= target:
        return 'noise'
    return 'NOT met'


def bench_argv(bench, bench_args, cell, base, rounds, output):
    argv = shlex.split(bench) + shlex.split(bench_args)
    argv += ['--no-wait-timing', '--kinds', '%s,%s' % (base, cell.kind),
             '--threads', str(cell.threads), '--cs', cell.cs,
             '--lock-latency', str(cell.outside), '--repeat', str(rounds),
             '--output', output]
    if cell.read is not None:
        argv += ['--read-pct', str(cell.read)]
    return argv


def measure_again(cell, bench, bench_args, rounds, scratch):
    """Run CELL's kind and baseline for ROUNDS rounds; return the
    per-round ratios."""
    output = os.path.join(scratch, 'cell.json')
    argv = bench_argv(bench, bench_args, cell, cell.base, rounds, output)
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, check=False)
    if proc.returncode != 0:
        raise report.ReportError('%s exited with status %d: %s'
                                 % (' '.join(argv), proc.returncode,
                                    proc.stderr.decode(errors='replace')
                                    .strip()[-1000:]))
    again, _ = report.load_all([output])
    report.add_ratios(again, [])
    fresh = again.get(cell.key)
    if fresh is None or 'ratio' not in fresh.figs:
        raise report.ReportError('%s: no ratio of %s in the output'
                                 % (' '.join(argv), cell.key))
    return fresh.figs['ratio'].values


def confirm(cells, margin, bench, bench_args, rounds, progress):
    """Measure the near-target cells again; return their records."""
    chosen = near_target(cells, margin)
    records = []
    with tempfile.TemporaryDirectory() as scratch:
        for i, cell in enumerate(chosen, 1):
            target = target_of(cell)
            sweep = cell.figs['ratio'].values
            more = measure_again(cell, bench, bench_args, rounds, scratch)
            pooled = sweep + more
            med = statistics.median(pooled)
            interval = median_interval(pooled)
            record = {
                'kind': cell.kind, 'baseline': cell.base,
                'threads': cell.threads, 'read-pct': cell.read,
                'cs': cell.cs, 'lock-latency': cell.outside,
                'target': target,
                'sweep': sweep, 'more': more,
                'median': med, 'min': min(pooled), 'max': max(pooled),
                'interval': list(interval),
                'verdict': verdict(med, interval, target),
            }
            records.append(record)
            progress('confirm: %d/%d: %s t=%d %s: sweep %.3f, %d more '
                     'rounds %.3f, all %.3f (%s)'
                     % (i, len(chosen), cell.kind, cell.threads,
                        report.workload_label(cell.workload),
                        statistics.median(sweep), len(more),
                        statistics.median(more), med, record['verdict']))
    return records


def table(records, rounds, margin):
    lines = ['# cells whose sweep median lay below the floor target or '
             'less than %g %% above it, measured %d more rounds; "all": '
             'the median of every '
             'round, its extremes and the 95 %% interval of the median'
             % (margin * 100, rounds)]
    head = ['kind', 'workload', 'thr', 'target', 'sweep', 'more',
            'all (min..max)', '95 % interval', 'verdict']
    rows = []
    for r in records:
        workload = report.workload_label((r['read-pct'], r['cs'],
                                          r['lock-latency']))
        rows.append([r['kind'], workload, str(r['threads']),
                     '%.2f' % r['target'],
                     '%.3f' % statistics.median(r['sweep']),
                     '%.3f' % statistics.median(r['more']),
                     '%.3f (%.2f..%.2f)' % (r['median'], r['min'], r['max']),
                     '%.3f..%.3f' % tuple(r['interval']), r['verdict']])
    out = io.StringIO()
    report.print_rows(head, rows, out)
    lines.append(out.getvalue().rstrip('\n'))
    counts = {v: sum(r['verdict'] == v for r in records)
              for v in ('met', 'noise', 'NOT met')}
    lines.append('%d cells: %d met, %d below the target within the noise, '
                 '%d NOT met' % (len(records), counts['met'],
                                 counts['noise'], counts['NOT met']))
    return '\n'.join(lines) + '\n'


def main(argv):
    parser = argparse.ArgumentParser(
        description=__doc__.split('\n')[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split('\n', 2)[2])
    parser.add_argument('--json', required=True,
                        help="the sweep's bench-lock-contention output")
    parser.add_argument('--bench', required=True,
                        help='the command that runs bench-lock-contention '
                        '(split as a shell would)')
    parser.add_argument('--bench-args', default='',
                        help='more options for every run (as the sweep '
                        'had them)')
    parser.add_argument('--rounds', type=int, default=10,
                        help='rounds per cell (default %(default)s)')
    parser.add_argument('--margin', type=float, default=0.05,
                        help='how far above its target, as a fraction of '
                        'it, a cell may lie and still be measured again '
                        '(default %(default)s)')
    parser.add_argument('--output', required=True, help='the JSON report')
    parser.add_argument('--table', required=True, help='the text report')
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error('--rounds must be at least 1')
    if not 0 <= args.margin < 1:
        parser.error('--margin must be at least 0 and below 1')

    try:
        cells, _ = report.load_all([args.json])
        report.add_ratios(cells, [])
        records = confirm(cells, args.margin, args.bench, args.bench_args,
                          args.rounds, lambda s: print(s, flush=True))
    except report.ReportError as e:
        print('lock_bench_confirm.py: error: %s' % e, file=sys.stderr)
        return 1
    text = table(records, args.rounds, args.margin)
    with open(args.table, 'w', encoding='utf-8') as f:
        f.write(text)
    with open(args.output, 'w', encoding='utf-8') as f:
        json.dump({'rounds': args.rounds, 'margin': args.margin,
                   'targets': [{'kind': k, 'cells': which, 'target': t}
                               for k, which, _, t in TARGETS],
                   'cells': records}, f, indent=1)
        f.write('\n')
    sys.stdout.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
