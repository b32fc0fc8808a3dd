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
fragment that --fragment prints) and prints a summary, a table, draws a
plot of the ratios, or all three.  The layout of the JSON is described at
the top of benchtests/bench-lock-contention.c: every figure comes with
its value in each round, its median and its extremes.

Ratios compare a kind with the baseline of its family (by default
glibc's normal mutex for the mutex kinds and glibc's default rwlock for
the rwlock kinds) on the same workload.  The benchmark runs the kinds of
a family on a workload in the same rounds, so the ratio is taken round
by round, and the median and extremes of those ratios are reported.

Examples:
  lock_bench_report.py --json out.json --summary
  lock_bench_report.py --json out.json --table --baseline rwlock-phase-fair
  lock_bench_report.py --json out.json --plot ratios.png
"""

import argparse
import collections
import json
import re
import statistics
import sys

CS_ORDER = ['short', 'medium', 'long']
DEFAULT_BASELINES = ['mutex-normal', 'rwlock-default']
DEFAULT_PLOT_KINDS = ['mutex-tp', 'rwlock-phase-fair', 'rwlock-tp']
RUN_RE = re.compile(r'^(?P<kind>.+)-t(?P<threads>[0-9]+)-(?P<cs>[a-z]+)'
                    r'-o(?P<outside>[0-9]+)(?:-r(?P<read>[0-9]+))?$')
WAIT_STATS = ['p50', 'p99', 'p99.9', 'max']
SLOW_EVENTS = ['lock-syscalls', 'unlock-syscalls', 'handoffs']


class ReportError(Exception):
    """An error to report in one line, without a traceback."""


# A figure over the rounds: its median, extremes and per-round values.
Figure = collections.namedtuple('Figure', 'median lo hi values')


def figure_of(values):
    """The Figure of a list of per-round values."""
    return Figure(statistics.median(values), min(values), max(values),
                  list(values))


class Cell:
    """One kind on one workload: its figures, keyed by name."""

    def __init__(self, kind, threads, read, cs, outside):
        self.kind = kind
        self.threads = threads
        self.cs = cs
        self.outside = outside
        # The read percentage, None for a mutex kind.
        self.read = read
        self.figs = {}
        # The kind of the 'ratio' figure's denominator, if there is one.
        self.base = None

    @property
    def workload(self):
        """The workload but the thread count: a line of the plot."""
        return (self.read, self.cs, self.outside)

    @property
    def key(self):
        return (self.kind, self.threads) + self.workload


def workload_label(workload):
    read, cs, outside = workload
    label = 'cs=%s lock-latency=%d' % (cs, outside)
    return label if read is None else 'read-pct=%d %s' % (read, label)


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


def record_figure(path, name, record, field):
    """The Figure of a variant whose median is in FIELD."""
    try:
        values = record['timings']
        if not values:
            raise KeyError('timings')
        return Figure(record[field], record['min'], record['max'], values)
    except (KeyError, TypeError) as e:
        raise ReportError('%s: variant "%s" lacks a field: %s; is it from '
                          'an older bench-lock-contention?'
                          % (path, name, e)) from e


def split_name(path, name):
    """(Cell.key, suffix) of a variant name "<run>[,<suffix>]"."""
    run, _, suffix = name.partition(',')
    m = RUN_RE.match(run)
    if not m:
        raise ReportError('%s: unexpected variant name "%s"' % (path, name))
    read = m.group('read')
    return ((m.group('kind'), int(m.group('threads')),
             None if read is None else int(read), m.group('cs'),
             int(m.group('outside'))), suffix)


def parse_cells(path, functions):
    """Return {key: Cell} from one file's functions."""
    cells = {}
    for name, record in functions['lock_contention'].items():
        key, _ = split_name(path, name)
        cell = Cell(*key)
        cell.figs['throughput'] = record_figure(path, name, record,
                                                'throughput')
        cells[cell.key] = cell

    # Function -> the field that holds the median, and the figure's name
    # (None: the variant's suffix names it).
    others = {'lock_contention_fairness': ('mean', 'fairness'),
              'lock_contention_ctxsw': ('mean', 'ctxsw'),
              'lock_contention_cpu': ('mean', 'cpus'),
              'lock_contention_timer': ('mean', 'timer-late'),
              'lock_contention_wait': ('latency', None),
              'lock_contention_slowpath': ('mean', None)}
    for function, (field, fig_name) in others.items():
        for name, record in functions.get(function, {}).items():
            key, suffix = split_name(path, name)
            cell = cells.get(key)
            if cell is None:
                continue
            if suffix == 'kernel-path':
                cell.figs[suffix] = record.get('iterations', 0)
            else:
                cell.figs[fig_name or suffix] = record_figure(path, name,
                                                              record, field)
    return cells


def load_all(paths):
    """Load every file; return (cells, config strings)."""
    cells = {}
    configs = []
    for path in paths:
        functions = load_document(path)
        for cfg in functions.get('lock_contention_config', {}):
            if cfg not in configs:
                configs.append(cfg)
        for key, cell in parse_cells(path, functions).items():
            if key in cells:
                print('warning: %s: %s also in an earlier file; keeping '
                      'the later one' % (path, key), file=sys.stderr)
            cells[key] = cell
    if len(configs) > 1:
        print('warning: the files were run with different parameters: %s'
              % '; '.join(configs), file=sys.stderr)
    return cells, configs


def add_ratios(cells, baselines):
    """Give every cell whose family has a baseline a 'ratio' figure: its
    throughput divided by the baseline's, round by round.  BASELINES
    replace the default baselines of their families."""
    family_base = {}
    present = {c.kind: c.read is not None for c in cells.values()}
    for base in DEFAULT_BASELINES + baselines:
        if base in present:
            family_base[present[base]] = base
    for cell in cells.values():
        base_kind = family_base.get(cell.read is not None)
        base = cells.get((base_kind, cell.threads) + cell.workload)
        if base is None:
            continue
        mine = cell.figs['throughput'].values
        theirs = base.figs['throughput'].values
        if len(mine) != len(theirs) or min(theirs) <= 0:
            continue
        cell.figs['ratio'] = figure_of([a / b for a, b in zip(mine, theirs)])
        cell.base = base_kind


def ordered(cells):
    """Kinds in first-seen order, and the workloads sorted."""
    kinds = []
    for cell in cells.values():
        if cell.kind not in kinds:
            kinds.append(cell.kind)

    def workload_order(w):
        read, cs, outside = w
        cs_rank = CS_ORDER.index(cs) if cs in CS_ORDER else len(CS_ORDER)
        return (read is not None, -(read or 0), cs_rank, cs, outside)
    workloads = sorted({c.workload for c in cells.values()},
                       key=workload_order)
    return kinds, workloads


def num(x):
    """A number in about three significant digits."""
    if x == 0:
        return '0'
    if abs(x) >= 100:
        return '%.0f' % x
    if abs(x) >= 10:
        return '%.1f' % x
    if abs(x) >= 0.1:
        return '%.2f' % x
    return '%.2g' % x


def median_cell(fig, scale=1.0):
    return '-' if fig is None else num(fig.median * scale)


def range_cell(fig, scale=1.0):
    return '' if fig is None else '%s..%s' % (num(fig.lo * scale),
                                             num(fig.hi * scale))


def print_rows(head, rows, out):
    """Print HEAD and ROWS (lists of cells) in aligned columns."""
    widths = [max(len(r[i]) for r in rows + [head])
              for i in range(len(head))]

    def line(cells):
        text = cells[0].ljust(widths[0])
        for cell, width in zip(cells[1:], widths[1:]):
            text += '  ' + cell.rjust(width)
        return text.rstrip()

    print(line(head), file=out)
    print(line(['-' * w for w in widths]), file=out)
    for row in rows:
        print(line(row), file=out)


def print_summary(cells, configs, out):
    """For each kind, a matrix workload x threads: the baseline's Mops/s,
    or the other kinds' ratio to it, as median (min..max)."""
    kinds, workloads = ordered(cells)
    threads = sorted({c.threads for c in cells.values()})
    if configs:
        print('# %s' % '; '.join(configs), file=out)
    for kind in kinds:
        bases = {c.base for c in cells.values() if c.kind == kind}
        bases.discard(None)
        ratio = bool(bases) and kind not in bases
        if ratio:
            title = '%s / %s, throughput ratio' % (kind, bases.pop())
        else:
            title = '%s, throughput in Mops/s' % kind
        print('\n%s, median (min..max) of the rounds' % title, file=out)
        rows = []
        for w in workloads:
            row = [workload_label(w)]
            for t in threads:
                cell = cells.get((kind, t) + w)
                fig = cell and cell.figs.get('ratio' if ratio
                                             else 'throughput')
                scale = 1.0 if ratio else 1e-6
                row.append('-' if fig is None else '%s (%s)'
                           % (median_cell(fig, scale),
                              range_cell(fig, scale)))
            if any(c != '-' for c in row[1:]):
                rows.append(row)
        print_rows(['workload'] + ['t=%d' % t for t in threads], rows, out)


# The table's columns: heading, the figure (a name, or a function of the
# cell for figures made of two), and the scale of the printed value.
def syscalls_per_op(cell):
    lock = cell.figs.get('lock-syscalls')
    unlock = cell.figs.get('unlock-syscalls')
    if lock is None or unlock is None:
        return None
    return figure_of([a + b for a, b in zip(lock.values, unlock.values)])


COLUMNS = [('Mops/s', 'throughput', 1e-6),
           ('ratio', 'ratio', 1.0),
           ('max/min thr', 'fairness', 1.0),
           ('p50 us', ('wait', 'p50'), 1e-3),
           ('p99 us', ('wait', 'p99'), 1e-3),
           ('p99.9 us', ('wait', 'p99.9'), 1e-3),
           ('worst us', ('wait', 'max'), 1e-3),
           ('rd p99 us', ('rd-wait', 'p99'), 1e-3),
           ('wr p99 us', ('wr-wait', 'p99'), 1e-3),
           ('wr worst us', ('wr-wait', 'max'), 1e-3),
           ('hold worst us', ('hold', 'max'), 1e-3),
           ('ctxsw/op', 'ctxsw', 1.0),
           ('cpus busy', 'cpus', 1.0),
           ('timer late us', 'timer-late', 1e-3),
           ('sys/op', syscalls_per_op, 1.0),
           ('unlock sys %', 'unlock-syscalls', 100.0),
           ('handoff/Mop', 'handoffs', 1e6)]


def column_figure(cell, fig):
    if callable(fig):
        return fig(cell)
    if isinstance(fig, tuple):
        fig = '%s=%s' % fig
    return cell.figs.get(fig)


def print_table(cells, configs, out, headings=None):
    """One block per workload, two lines per kind and thread count: the
    medians, and below them the extremes of the rounds.  HEADINGS, if
    given, names the columns to print (of COLUMNS)."""
    kinds, workloads = ordered(cells)
    if configs:
        print('# %s' % '; '.join(configs), file=out)
    print('# each row: the median of the rounds, and below it min..max',
          file=out)
    for w in workloads:
        block = sorted((c for c in cells.values() if c.workload == w),
                       key=lambda c: (kinds.index(c.kind), c.threads))
        columns = [col for col in COLUMNS
                   if (headings is None or col[0] in headings)
                   and any(column_figure(c, col[1]) is not None
                           for c in block)]
        rows = []
        for cell in block:
            figs = [(column_figure(cell, fig), scale)
                    for _, fig, scale in columns]
            rows.append([cell.kind, str(cell.threads)]
                        + [median_cell(f, s) for f, s in figs])
            rows.append(['', ''] + [range_cell(f, s) for f, s in figs])
        print('\n%s' % workload_label(w), file=out)
        print_rows(['kind', 'thr'] + [col[0] for col in columns], rows, out)


def write_plot(cells, configs, plot_kinds, path):
    """Ratio against threads: a panel per kind (and read percentage), a
    line per workload, bars from the smallest to the largest ratio."""
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
        from matplotlib import ticker
    except ImportError as e:
        raise ReportError('--plot needs matplotlib (Debian: '
                          'python3-matplotlib): %s' % e) from e

    with_ratio = [c for c in cells.values() if 'ratio' in c.figs
                  and c.kind != c.base]
    kinds, _ = ordered(cells)
    wanted = [k for k in plot_kinds if any(c.kind == k for c in with_ratio)]
    if not wanted:
        wanted = [k for k in kinds if any(c.kind == k for c in with_ratio)]
    if not wanted:
        raise ReportError('--plot: no kind has a ratio to a baseline')
    reads = {k: sorted({c.read for c in with_ratio if c.kind == k},
                       key=lambda r: -(r or 0)) for k in wanted}
    ncols = max(len(r) for r in reads.values())
    fig, axes = plt.subplots(len(wanted), ncols, squeeze=False,
                             figsize=(5 * ncols, 3.8 * len(wanted)))
    threads_all = sorted({c.threads for c in with_ratio})
    outsides = sorted({c.outside for c in with_ratio})
    styles = ['-', '--', ':', '-.']
    spare = []
    for row, kind in enumerate(wanted):
        for col in range(ncols):
            ax = axes[row][col]
            if col >= len(reads[kind]):
                ax.axis('off')
                spare.append(ax)
                continue
            read = reads[kind][col]
            mine = [c for c in with_ratio if c.kind == kind and c.read == read]
            _, workloads = ordered({c.key: c for c in mine})
            for i, w in enumerate(workloads):
                pts = sorted((c.threads, c.figs['ratio']) for c in mine
                             if c.workload == w)
                cs_rank = CS_ORDER.index(w[1]) if w[1] in CS_ORDER else 3
                # Shift the lines apart a little so the bars do not hide
                # each other.
                shift = 2 ** ((i - len(workloads) / 2) * 0.015)
                xs = [t * shift for t, _ in pts]
                med = [f.median for _, f in pts]
                ax.errorbar(xs, med,
                            yerr=[[f.median - f.lo for _, f in pts],
                                  [f.hi - f.median for _, f in pts]],
                            color='C%d' % cs_rank,
                            linestyle=styles[outsides.index(w[2])
                                             % len(styles)],
                            marker='o', markersize=3, capsize=2,
                            linewidth=1, elinewidth=0.6,
                            label='cs=%s, lock-latency=%d' % (w[1], w[2]))
            ax.axhline(1.0, color='black', linewidth=0.8)
            ax.set_xscale('log', base=2)
            ax.set_xticks(threads_all)
            ax.set_xticklabels([str(t) for t in threads_all])
            ax.set_yscale('log')
            ax.yaxis.set_major_locator(
                ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            ax.yaxis.set_major_formatter(
                ticker.FuncFormatter(lambda v, _pos: '%g' % v))
            ax.yaxis.set_minor_formatter(ticker.NullFormatter())
            ax.grid(True, which='both', alpha=0.3)
            title = '%s / %s' % (kind, mine[0].base)
            if read is not None:
                title += ', %d %% reads' % read
            ax.set_title(title, fontsize='medium')
            ax.set_xlabel('threads')
            ax.set_ylabel('throughput ratio (log)')
    # One legend for all panels (the workloads are the same), in a spare
    # panel if there is one, else below them.
    handles, labels = max((ax.get_legend_handles_labels()
                           for ax in axes.flat),
                          key=lambda hl: len(hl[1]))
    suptitle = ('Throughput ratio to the baseline\nmedian and min..max of '
                'the per-round ratios')
    if configs:
        suptitle += '\n' + '; '.join(configs)
    fig.suptitle(suptitle, fontsize='medium')
    if spare:
        spare[0].legend(handles, labels, loc='center', fontsize='small')
        fig.tight_layout()
    else:
        fig.legend(handles, labels, loc='lower center', ncol=3,
                   fontsize='small')
        fig.tight_layout(rect=(0, 0.12, 1, 1))
    try:
        fig.savefig(path, dpi=100)
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
        epilog='With none of --summary, --table and --plot, --summary and '
        '--table are implied.')
    parser.add_argument('--json', nargs='+', required=True, metavar='FILE',
                        help='output of bench-lock-contention (or a '
                        'bench.out holding it)')
    parser.add_argument('--summary', action='store_true',
                        help='print, per kind, its throughput (baselines) '
                        'or ratio (the others) by workload and threads')
    parser.add_argument('--table', action='store_true',
                        help='print every figure of every run')
    parser.add_argument('--columns', metavar='HEADING[,HEADING...]',
                        help='with --table, print only these columns '
                        '(their headings: %s)'
                        # argparse formats help strings with %: escape
                        # the headings' own.
                        % ', '.join(col[0] for col in COLUMNS).replace(
                            '%', '%%'))
    parser.add_argument('--plot', metavar='FILE.png',
                        help='write a plot of the ratios against threads')
    parser.add_argument('--baseline', metavar='KIND[,KIND]', default='',
                        help='the kinds the others of their family (mutex '
                        'or rwlock) are compared with (default: %s, where '
                        'present)' % ','.join(DEFAULT_BASELINES))
    parser.add_argument('--plot-kinds', metavar='KIND[,KIND...]',
                        default=','.join(DEFAULT_PLOT_KINDS),
                        help='the kinds to plot, where present (default: '
                        '%(default)s; if none is, every kind with a ratio)')
    args = parser.parse_args(argv)
    if not (args.summary or args.table or args.plot):
        args.summary = args.table = True

    headings = None
    if args.columns is not None:
        headings = args.columns.split(',')
        unknown = [h for h in headings if h not in [c[0] for c in COLUMNS]]
        if unknown:
            parser.error('--columns: no column "%s"' % unknown[0])

    try:
        cells, configs = load_all(args.json)
        if not cells:
            raise ReportError('no runs in %s' % ', '.join(args.json))
        kinds, _ = ordered(cells)
        baselines = [b for b in args.baseline.split(',') if b]
        for base in baselines:
            if base not in kinds:
                raise ReportError('--baseline: no kind "%s" in the results '
                                  '(have: %s)' % (base, ', '.join(kinds)))
        add_ratios(cells, baselines)
        if args.summary:
            print_summary(cells, configs, sys.stdout)
        if args.table:
            if args.summary:
                print(file=sys.stdout)
            print_table(cells, configs, sys.stdout, headings)
        if args.plot:
            write_plot(cells, configs, args.plot_kinds.split(','),
                       args.plot)
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
