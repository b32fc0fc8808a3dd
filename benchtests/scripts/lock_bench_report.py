#!/usr/bin/python3
# Tables and plots of bench-lock-contention results.
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
"""Report on bench-lock-contention output.

Reads one or more JSON files written by bench-lock-contention (a complete
document, a bench.out of the benchtests "bench" target, or the bare
fragment that --fragment prints) and prints a text table, draws a
throughput plot, or both.  The layout of the JSON is described at the top
of benchtests/bench-lock-contention.c.

Examples:
  lock_bench_report.py --json out.json --table
  lock_bench_report.py --json out.json --table --baseline mutex-normal
  lock_bench_report.py --json out.json --plot throughput.png
"""

import argparse
import json
import math
import re
import sys

CS_ORDER = ['short', 'medium', 'long']
RUN_RE = re.compile(r'^(?P<kind>.+)-t(?P<threads>[0-9]+)-(?P<cs>[a-z]+)$')
WAIT_RE = re.compile(r'^(?P<run>.+),(?P<cls>wait|rd-wait|wr-wait)='
                     r'(?P<stat>p50|p99|p99\.9|max)$')


class ReportError(Exception):
    """An error to report in one line, without a traceback."""


class Run:
    """The results of one (kind, threads, cs) run."""

    def __init__(self, kind, threads, cs, record):
        self.kind = kind
        self.threads = threads
        self.cs = cs
        self.ops = record['iterations']
        self.ops_per_sec = record.get('throughput',
                                      self.ops / record['wall-sec'])
        per_thread = record.get('timings') or []
        self.thread_ops = per_thread
        if per_thread and min(per_thread) > 0:
            self.fairness = max(per_thread) / min(per_thread)
        elif per_thread:
            self.fairness = math.inf
        else:
            self.fairness = None
        # WAIT[class][stat] in ns, class in wait, rd-wait, wr-wait.
        self.wait = {}
        self.ctxsw_per_op = None
        # SLOWPATH[event] = (count, per op), for kinds that count them.
        self.slowpath = {}


def load_document(path):
    """Return the 'functions' object of the JSON file at PATH."""
    try:
        with open(path, encoding='utf-8') as f:
            text = f.read()
    except OSError as e:
        raise ReportError('%s: %s' % (path, e.strerror)) from e
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as first_error:
        # A bare --fragment is the inside of an object.
        try:
            doc = {'functions': json.loads('{' + text + '}')}
        except json.JSONDecodeError:
            raise ReportError('%s: not valid JSON: %s'
                              % (path, first_error)) from first_error
    if not isinstance(doc, dict):
        raise ReportError('%s: expected a JSON object at the top' % path)
    functions = doc.get('functions', doc)
    if (not isinstance(functions, dict)
            or not isinstance(functions.get('lock_contention'), dict)):
        raise ReportError('%s: no "lock_contention" results; is this '
                          'bench-lock-contention output?' % path)
    return functions


def parse_runs(path, functions):
    """Return {(kind, threads, cs): Run} from one file's functions."""
    runs = {}
    for name, record in functions['lock_contention'].items():
        m = RUN_RE.match(name)
        if not m:
            raise ReportError('%s: unexpected variant name "%s"'
                              % (path, name))
        try:
            run = Run(m.group('kind'), int(m.group('threads')),
                      m.group('cs'), record)
        except (KeyError, TypeError, ZeroDivisionError) as e:
            raise ReportError('%s: variant "%s" lacks a field: %s'
                              % (path, name, e)) from e
        runs[(run.kind, run.threads, run.cs)] = run

    for name, record in functions.get('lock_contention_wait', {}).items():
        m = WAIT_RE.match(name)
        r = RUN_RE.match(m.group('run')) if m else None
        if not r:
            raise ReportError('%s: unexpected wait variant "%s"'
                              % (path, name))
        key = (r.group('kind'), int(r.group('threads')), r.group('cs'))
        if key in runs and 'latency' in record:
            stats = runs[key].wait.setdefault(m.group('cls'), {})
            stats[m.group('stat')] = record['latency']

    for name, record in functions.get('lock_contention_slowpath',
                                      {}).items():
        run_name, _, event = name.rpartition(',')
        r = RUN_RE.match(run_name)
        if r:
            key = (r.group('kind'), int(r.group('threads')), r.group('cs'))
            if key in runs:
                runs[key].slowpath[event] = (record.get('iterations', 0),
                                             record.get('mean', 0.0))

    for name, record in functions.get('lock_contention_ctxsw', {}).items():
        r = RUN_RE.match(name)
        if r:
            key = (r.group('kind'), int(r.group('threads')), r.group('cs'))
            if key in runs:
                runs[key].ctxsw_per_op = record.get('mean')
    return runs


def config_names(functions):
    """The parameter strings of the runs, e.g. 'load-latency=100,...'."""
    return list(functions.get('lock_contention_config', {}).keys())


def load_all(paths):
    """Load every file; return (runs in first-seen order, configs)."""
    runs = {}
    configs = []
    for path in paths:
        functions = load_document(path)
        for cfg in config_names(functions):
            if cfg not in configs:
                configs.append(cfg)
        for key, run in parse_runs(path, functions).items():
            if key in runs:
                print('warning: %s: %s-t%d-%s also in an earlier file; '
                      'keeping the later one' % ((path,) + key),
                      file=sys.stderr)
            runs[key] = run
    if len(configs) > 1:
        print('warning: the files were run with different parameters: %s'
              % '; '.join(configs), file=sys.stderr)
    return runs, configs


def ordered(runs):
    """Kinds in first-seen order, and the critical sections present."""
    kinds = []
    for run in runs.values():
        if run.kind not in kinds:
            kinds.append(run.kind)
    present = {run.cs for run in runs.values()}
    cs_list = [cs for cs in CS_ORDER if cs in present]
    cs_list += sorted(present - set(CS_ORDER))
    return kinds, cs_list


def fmt_us(ns):
    """Format a time in ns as microseconds, '-' if unknown."""
    if ns is None:
        return '-'
    return '%.2f' % (ns / 1000.0)


def fmt_ratio(x):
    """Format a ratio, '-' if unknown and 'inf' if unbounded."""
    if x is None:
        return '-'
    if math.isinf(x):
        return 'inf'
    return '%.2f' % x


def slowpath_cells(run):
    """System calls per operation (lock and unlock sides together), the
    percentage of unlocks that made a system call, and hand-offs."""
    if not run.slowpath:
        return ['-', '-', '-']
    lock = run.slowpath.get('lock-syscalls', (0, 0.0))[1]
    unlock = run.slowpath.get('unlock-syscalls', (0, 0.0))[1]
    return ['%.4f' % (lock + unlock), '%.3f' % (100 * unlock),
            '%d' % run.slowpath.get('handoffs', (0, 0.0))[0]]


def print_table(runs, configs, baseline, out):
    """Print one block per critical section, one row per run."""
    kinds, cs_list = ordered(runs)
    has_rw = any('rd-wait' in run.wait for run in runs.values())
    head = ['kind', 'threads', 'Mops/s', 'max/min',
            'p50 us', 'p99 us', 'max us', 'ctxsw/op']
    if has_rw:
        head += ['rd p99', 'wr p99']
    has_slow = any(run.slowpath for run in runs.values())
    if has_slow:
        head += ['sys/op', 'unlock sys %', 'handoffs']
    if baseline:
        head.append('vs ' + baseline)

    if configs:
        print('# %s' % '; '.join(configs), file=out)
    for cs in cs_list:
        rows = []
        for kind in kinds:
            for key in sorted(k for k in runs if k[0] == kind and k[2] == cs):
                run = runs[key]
                wait = run.wait.get('wait', {})
                row = [run.kind, str(run.threads),
                       '%.3f' % (run.ops_per_sec / 1e6),
                       fmt_ratio(run.fairness),
                       fmt_us(wait.get('p50')), fmt_us(wait.get('p99')),
                       fmt_us(wait.get('max')),
                       '-' if run.ctxsw_per_op is None
                       else '%.4f' % run.ctxsw_per_op]
                if has_rw:
                    row.append(fmt_us(run.wait.get('rd-wait', {}).get('p99')))
                    row.append(fmt_us(run.wait.get('wr-wait', {}).get('p99')))
                if has_slow:
                    row += slowpath_cells(run)
                if baseline:
                    base = runs.get((baseline, run.threads, cs))
                    row.append(fmt_ratio(run.ops_per_sec / base.ops_per_sec)
                               if base and base.ops_per_sec > 0 else '-')
                rows.append(row)
        widths = [max(len(r[i]) for r in rows + [head])
                  for i in range(len(head))]

        def line(cells):
            text = cells[0].ljust(widths[0])
            for cell, width in zip(cells[1:], widths[1:]):
                text += '  ' + cell.rjust(width)
            return text.rstrip()

        print('\ncs=%s' % cs, file=out)
        print(line(head), file=out)
        print(line(['-' * w for w in widths]), file=out)
        for row in rows:
            print(line(row), file=out)


def write_plot(runs, configs, path):
    """Throughput against threads, a line per kind, a subplot per cs."""
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
        from matplotlib import ticker
    except ImportError as e:
        raise ReportError('--plot needs matplotlib (Debian: '
                          'python3-matplotlib): %s' % e) from e

    kinds, cs_list = ordered(runs)
    values = [run.ops_per_sec for run in runs.values()
              if run.ops_per_sec > 0]
    log_y = bool(values) and max(values) / min(values) > 20
    fig, axes = plt.subplots(1, len(cs_list), squeeze=False,
                             figsize=(4.5 * len(cs_list) + 1.5, 4.5),
                             sharey=True)
    threads_all = sorted({run.threads for run in runs.values()})
    for ax, cs in zip(axes[0], cs_list):
        for kind in kinds:
            points = sorted((run.threads, run.ops_per_sec / 1e6)
                            for run in runs.values()
                            if run.kind == kind and run.cs == cs)
            if points:
                ax.plot([p[0] for p in points], [p[1] for p in points],
                        marker='o', label=kind)
        ax.set_xscale('log', base=2)
        ax.set_xticks(threads_all)
        ax.set_xticklabels([str(t) for t in threads_all])
        ax.minorticks_off()
        if log_y:
            ax.set_yscale('log')
            ax.yaxis.set_major_locator(
                ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            ax.yaxis.set_major_formatter(
                ticker.FuncFormatter(lambda v, _pos: '%g' % v))
            ax.yaxis.set_minor_formatter(ticker.NullFormatter())
        ax.set_title('critical section: %s' % cs)
        ax.set_xlabel('threads')
        ax.grid(True, which='both', alpha=0.3)
    axes[0][0].set_ylabel('throughput, Mops/s' + (' (log)' if log_y else ''))
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc='center right', fontsize='small')
    title = 'Lock throughput under contention'
    if configs:
        title += '\n' + '; '.join(configs)
    fig.suptitle(title, fontsize='medium')
    fig.tight_layout(rect=(0, 0, 1 - 1.5 / (4.5 * len(cs_list) + 1.5), 1))
    try:
        fig.savefig(path, dpi=110)
    except OSError as e:
        raise ReportError('%s: %s' % (path, e.strerror)) from e
    except ValueError as e:
        # For example an unknown file name extension.
        raise ReportError('%s: %s' % (path, e)) from e
    finally:
        plt.close(fig)


def main(argv):
    parser = argparse.ArgumentParser(
        description='Report on bench-lock-contention JSON output.',
        epilog='With neither --table nor --plot, --table is implied.')
    parser.add_argument('--json', nargs='+', required=True, metavar='FILE',
                        help='output of bench-lock-contention (or a '
                        'bench.out holding it)')
    parser.add_argument('--table', action='store_true',
                        help='print a text table on standard output')
    parser.add_argument('--plot', metavar='FILE.png',
                        help='write a throughput plot')
    parser.add_argument('--baseline', metavar='KIND',
                        help='add a column: throughput relative to KIND at '
                        'the same threads and critical section')
    args = parser.parse_args(argv)

    try:
        runs, configs = load_all(args.json)
        if not runs:
            raise ReportError('no runs in %s' % ', '.join(args.json))
        if args.baseline and all(run.kind != args.baseline
                                 for run in runs.values()):
            kinds, _ = ordered(runs)
            raise ReportError('--baseline: no kind "%s" in the results '
                              '(have: %s)' % (args.baseline,
                                              ', '.join(kinds)))
        if args.table or not args.plot:
            print_table(runs, configs, args.baseline, sys.stdout)
        if args.plot:
            write_plot(runs, configs, args.plot)
    except ReportError as e:
        print('lock_bench_report.py: error: %s' % e, file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader of the table went away (e.g. "| head"): not an error.
        sys.stderr.close()
        return 0
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
