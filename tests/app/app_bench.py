#!/usr/bin/python3
# make app-bench: real programs from Debian on the fork's libc, with and
# without the tunables that make their locks TP.
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
"""Benchmark unmodified Debian programs on the fork's libc.

Two configurations of the same libc: "stock" (no GLIBC_TUNABLES) and
"tp" (GLIBC_TUNABLES set to --tunables: by default every mutex
initialized with default attributes TP and every such rwlock TP).  The
programs:

  xz        compression of a fixed generated text (run-app.sh corpus)
            with two threads: seconds;
  sysbench  mutex, with one mutex and with the default 4096, 2, 4 and 8
            threads, and with one contended mutex (--mutex-loops=10):
            seconds (every thread does a fixed amount of work);
            threads, --thread-locks=1 --thread-yields=100, 8 threads, for
            a fixed time: events per second;
  memcached -t 4 (the server on the fork's libc) under memcaslap (the
            client on Debian's libc) on loopback, for a fixed time:
            operations per second, and the server's context switches
            per operation (voluntary and involuntary, all its threads):
            where its time goes besides the locks.

With --lock-profile, every program runs under perf record (the
memcached server: perf attached to it for the client's run), and each
benchmark gets one more figure: the share of the program's processor
time spent in lock code (see lock_share), which bounds what any lock
protocol can change in it.

The machines are shared and their figures move by 2x, so each benchmark
is measured in --rounds rounds; a round runs the two configurations one
right after the other, in an order that alternates from round to round.
The report gives, per benchmark, the median and extremes over the rounds
of each configuration, and of the per-round speed-up of tp over stock
(above 1: tp is faster), as a text table and as JSON.

Every program runs through `tests/app/run-app.sh run', the one place
that says how to run a program on the fork's libc.
"""

import argparse
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time

DEFAULT_TUNABLES = 'glibc.pthread.mutex_protocol=3:glibc.pthread.rwlock_kind=4'
CONFIGS = ['stock', 'tp']
# The options of the check's compression (tests/app/run-app.sh): small
# blocks, so that the two threads hand many of them over.
XZ_OPTS = ['-1', '-T2', '--block-size=64KiB']
# Seconds of the fixed-time benchmarks.
FIXED_TIME = 3
# A program that has not finished after this many seconds has failed.
TIMEOUT = 300


class BenchError(Exception):
    """A program failed or printed no result."""


def perf_record(data):
    """The perf record command, with call graphs, that writes DATA."""
    return ['perf', 'record', '-g', '-q', '-o', data]


class Runner:
    """Runs programs on the fork's libc, in either configuration."""

    def __init__(self, run_app, objdir, tunables):
        self.run_app = run_app
        self.objdir = objdir
        self.tunables = {'stock': '', 'tp': tunables}
        # Where the next program's perf data goes, or None: no perf.
        self.profile_to = None

    def command(self, config, argv):
        return ['sh', self.run_app, 'run', self.objdir,
                self.tunables[config]] + argv

    def run(self, config, argv, keep_output=True):
        """Run ARGV in CONFIG; return its standard output (and error),
        or None if not KEEP_OUTPUT.  BenchError if it fails."""
        command = self.command(config, argv)
        if self.profile_to:
            command = perf_record(self.profile_to) + ['--'] + command
        try:
            proc = subprocess.run(
                command,
                stdout=subprocess.PIPE if keep_output else subprocess.DEVNULL,
                stderr=subprocess.STDOUT if keep_output else subprocess.PIPE,
                timeout=TIMEOUT, check=False)
        except subprocess.TimeoutExpired as e:
            raise BenchError('%s: no result in %d s'
                             % (' '.join(argv), TIMEOUT)) from e
        text = (proc.stdout if keep_output else proc.stderr).decode(
            errors='replace')
        if proc.returncode != 0:
            raise BenchError('%s exited with status %d:\n%s'
                             % (' '.join(argv), proc.returncode,
                                text[-2000:]))
        return text if keep_output else None


def figures_of(bench, profiling=False):
    """The figures BENCH.measure gives, as (name, unit,
    higher_is_better): a benchmark with more than the one its name
    says lists them in `figures' and returns a tuple.  PROFILING: and
    last the share of lock code that measure_all adds."""
    figures = getattr(bench, 'figures',
                      [(bench.name, bench.unit, bench.higher_is_better)])
    if profiling:
        figures = figures + [('%s: processor time in lock code'
                              % bench.name, '%', False)]
    return figures


def parse_number(pattern, text, what):
    m = re.search(pattern, text, re.MULTILINE)
    if not m:
        raise BenchError('no %s in the output:\n%s' % (what, text[-2000:]))
    return float(m.group(1))


class Xz:
    """Seconds to compress the corpus."""
    unit = 's'
    higher_is_better = False

    def __init__(self, corpus):
        self.corpus = corpus
        self.name = 'xz %s, %.1f MB text' % (' '.join(XZ_OPTS),
                                             os.path.getsize(corpus) / 1e6)

    def measure(self, runner, config):
        start = time.monotonic()
        runner.run(config, ['xz'] + XZ_OPTS + ['-c', self.corpus],
                   keep_output=False)
        return time.monotonic() - start


class SysbenchMutex:
    """sysbench's total time: every thread locks a random one of
    MUTEXES mutexes a fixed number of times.  CONTENDED: a short loop
    between two locks (--mutex-loops=10 instead of 10000) and more of
    them, so that the threads meet at the lock most of the time."""
    unit = 's'
    higher_is_better = False

    def __init__(self, mutexes, threads, contended=False):
        self.args = ['sysbench', 'mutex', '--threads=%d' % threads,
                     '--mutex-num=%d' % mutexes]
        self.name = 'sysbench mutex --mutex-num=%d' % mutexes
        if contended:
            locks = 1000000 if threads == 2 else 2000000
            extra = ['--mutex-locks=%d' % locks, '--mutex-loops=10']
            self.args += extra
            self.name += ' ' + ' '.join(extra)
        self.args.append('run')
        self.name += ', %d threads' % threads

    def measure(self, runner, config):
        return parse_number(r'total time:\s*([0-9.]+)s',
                            runner.run(config, self.args), 'total time')


class SysbenchThreads:
    """sysbench threads: events per second; an event is 100 rounds of
    lock, sched_yield, unlock of the one mutex."""
    unit = 'events/s'
    higher_is_better = True

    def __init__(self, threads):
        self.args = ['sysbench', 'threads', '--threads=%d' % threads,
                     '--thread-locks=1', '--thread-yields=100',
                     '--time=%d' % FIXED_TIME, 'run']
        self.name = ('sysbench threads --thread-locks=1 '
                     '--thread-yields=100, %d threads' % threads)

    def measure(self, runner, config):
        events = parse_number(r'total number of events:\s*([0-9]+)',
                              runner.run(config, self.args), 'event count')
        return events / FIXED_TIME


def free_port():
    """A TCP port on the loopback interface that nothing listens on."""
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


# A program's lock code: libc functions of the mutexes, rwlocks and
# condition variables and of their futex calls (the fork's TP paths
# included), and the kernel's futex system call with all it calls.
LOCK_SYMBOL_RE = re.compile(r'mutex|rwlock|cond|lll_|(^|_)tp_|futex')


def perf_report(data, children):
    """perf report's lines for DATA: (percent, dso, symbol), the percent
    with children (time in the function and what it calls) or
    without."""
    argv = ['perf', 'report', '-i', data, '--stdio', '-g', 'none',
            '--percent-limit', '0', '--sort', 'dso,sym',
            '--children' if children else '--no-children']
    proc = subprocess.run(argv, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, check=False, text=True)
    if proc.returncode != 0:
        raise BenchError('perf report failed:\n%s' % proc.stderr[-2000:])
    rows = []
    for line in proc.stdout.splitlines():
        # "  1.86%  libc.so  [.] sym" or, with children,
        # "  0.10%  0.01%  [kernel.kallsyms]  [k] sym".
        m = re.match(r'\s*([0-9.]+)%\s+(?:[0-9.]+%\s+)?(\S+)\s+\[.\]\s+(\S+)',
                     line)
        if m:
            rows.append((float(m.group(1)), m.group(2), m.group(3)))
    return rows


def lock_share(data):
    """Percent of the perf samples in DATA (one program's run) spent in
    lock code: the libc lock functions themselves, and the futex system
    call with everything under it.  An upper bound on what any lock
    protocol could save: a lock that cost nothing would make the program
    at most 1 / (1 - share) times faster."""
    user = sum(pct for pct, dso, sym in perf_report(data, False)
               if dso.startswith('libc.so') and LOCK_SYMBOL_RE.search(sym))
    kernel = sum(pct for pct, dso, sym in perf_report(data, True)
                 if dso == '[kernel.kallsyms]' and sym == '__x64_sys_futex')
    return user + kernel


class Memcached:
    """memcaslap's operations per second against memcached -t 4, and
    the server's context switches per operation."""
    unit = 'ops/s'
    higher_is_better = True
    name = ('memcached -t 4, memcaslap -T 2 -c 32 -t %ds on loopback'
            % FIXED_TIME)
    figures = [(name, unit, higher_is_better),
               ('memcached server, context switches per operation',
                'ctxsw/op', False)]

    def measure(self, runner, config):
        port = free_port()
        argv = ['memcached', '-t', '4', '-l', '127.0.0.1', '-p', str(port),
                '-U', '0']
        # memcached refuses to run as root without a user to switch to.
        if os.geteuid() == 0:
            argv += ['-u', 'nobody']
        # A session of its own: the command is a shell that runs the
        # server as its child, and both must go at the end.
        server = subprocess.Popen(runner.command(config, argv),
                                  stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE,
                                  start_new_session=True)
        try:
            self.wait_listening(server, port)
            pids = self.server_pids(server.pid)
            switches = self.context_switches(pids)
            perf = self.start_perf(pids, runner.profile_to)
            # The client runs on Debian's libc: only the server changes.
            client = subprocess.run(
                ['memcaslap', '-s', '127.0.0.1:%d' % port, '-T', '2',
                 '-c', '32', '-t', '%ds' % FIXED_TIME],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                timeout=FIXED_TIME + 60, check=False)
            self.stop_perf(perf)
            text = client.stdout.decode(errors='replace')
            if client.returncode != 0:
                raise BenchError('memcaslap exited with status %d:\n%s'
                                 % (client.returncode, text[-2000:]))
            switches = self.context_switches(pids) - switches
            ops = parse_number(r'^Run time: .* Ops: ([0-9]+)', text, 'Ops')
            return (parse_number(r'^Run time: .* TPS: ([0-9]+)', text, 'TPS'),
                    switches / max(ops, 1))
        finally:
            try:
                os.killpg(server.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            server.wait(timeout=30)

    @staticmethod
    def start_perf(pids, data):
        """perf record of PIDS (call graphs) to DATA, if DATA is not
        None."""
        if data is None:
            return None
        perf = subprocess.Popen(perf_record(data) + ['-p', ','.join(pids)],
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        # perf attaches within a few milliseconds; give it time before
        # the load starts.
        time.sleep(0.5)
        if perf.poll() is not None:
            raise BenchError('perf record exited with status %d:\n%s'
                             % (perf.returncode,
                                perf.stderr.read().decode(
                                    errors='replace')[-2000:]))
        return perf

    @staticmethod
    def stop_perf(perf):
        if perf is None:
            return
        perf.send_signal(signal.SIGINT)
        if perf.wait(timeout=60) not in (0, -signal.SIGINT):
            raise BenchError('perf record failed:\n%s'
                             % perf.stderr.read().decode(
                                 errors='replace')[-2000:])

    @staticmethod
    def server_pids(session):
        """The processes of process group SESSION: the server (run
        through the fork's ld.so) and the shell that started it, which
        waits meanwhile."""
        pids = []
        for pid in filter(str.isdigit, os.listdir('/proc')):
            try:
                with open('/proc/%s/stat' % pid) as f:
                    stat = f.read()
            except OSError:
                continue
            # pid (comm) state ppid pgrp ...: comm may hold blanks.
            if int(stat[stat.rindex(')') + 2:].split()[2]) == session:
                pids.append(pid)
        if not pids:
            raise BenchError('no process in group %d' % session)
        return pids

    @staticmethod
    def context_switches(pids):
        """The context switches of every thread of PIDS so far."""
        total = 0
        for pid in pids:
            tasks = '/proc/%s/task' % pid
            for tid in os.listdir(tasks):
                try:
                    with open('%s/%s/status' % (tasks, tid)) as f:
                        for line in f:
                            if line.startswith(('voluntary_ctxt_switches:',
                                                'nonvoluntary_ctxt_switches:')):
                                total += int(line.split()[1])
                except FileNotFoundError:
                    continue    # A thread that ended meanwhile.
        return total

    @staticmethod
    def wait_listening(server, port):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise BenchError('memcached exited with status %d:\n%s'
                                 % (server.returncode,
                                    server.stderr.read().decode(
                                        errors='replace')[-2000:]))
            try:
                socket.create_connection(('127.0.0.1', port), 1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise BenchError('memcached does not listen on port %d' % port)


def benchmarks(corpus):
    return ([Xz(corpus)]
            + [SysbenchMutex(m, t) for m in (1, 4096) for t in (2, 4, 8)]
            + [SysbenchMutex(1, t, contended=True) for t in (2, 4, 8)]
            + [SysbenchThreads(8), Memcached()])


def spread(values):
    return {'median': statistics.median(values), 'min': min(values),
            'max': max(values), 'values': values}


def measure_all(runner, benches, rounds, profile_dir=None):
    """{figure name: {config: [value per round]}} (see figures_of), with
    progress lines.  With PROFILE_DIR, each run under perf record (data
    there), and the share of lock code as one more figure."""
    profiling = profile_dir is not None
    results = {name: {c: [] for c in CONFIGS}
               for b in benches for name, _, _ in figures_of(b, profiling)}
    runs = 0
    for r in range(rounds):
        # Alternate which configuration goes first.
        order = CONFIGS[r % 2:] + CONFIGS[:r % 2]
        for bench in benches:
            line = []
            for config in order:
                if profiling:
                    runs += 1
                    runner.profile_to = os.path.join(
                        profile_dir, 'run-%d-%s.data' % (runs, config))
                measured = bench.measure(runner, config)
                values = measured if isinstance(measured, tuple) else (measured,)
                if profiling:
                    values += (lock_share(runner.profile_to),)
                for (name, _, _), value in zip(figures_of(bench, profiling),
                                               values):
                    results[name][config].append(value)
                line.append('%s %.4g' % (config, values[0]))
            print('app-bench: round %d/%d: %s: %s %s'
                  % (r + 1, rounds, bench.name, ', '.join(line), bench.unit),
                  flush=True)
    return results


def summarize(benches, results, profiling):
    """The report's records: per benchmark, the spread of each
    configuration and of the per-round speed-up of tp over stock."""
    records = []
    for name, unit, higher_is_better in [f for b in benches
                                         for f in figures_of(b, profiling)]:
        values = results[name]
        if higher_is_better:
            speedup = [t / s for t, s in zip(values['tp'], values['stock'])]
        else:
            speedup = [s / t for t, s in zip(values['tp'], values['stock'])]
        records.append({'name': name, 'unit': unit,
                        'higher_is_better': higher_is_better,
                        'stock': spread(values['stock']),
                        'tp': spread(values['tp']),
                        'speedup': spread(speedup)})
    return records


def fmt(x):
    if abs(x) >= 1000:
        return '%.0f' % x
    return '%.3g' % x


def table(records, rounds, tunables):
    lines = ['# %d rounds, stock and tp alternated in each; tp: '
             'GLIBC_TUNABLES=%s' % (rounds, tunables),
             '# median (min..max); speed-up: tp over stock, per round '
             '(above 1: tp faster)']
    head = ['benchmark', 'unit', 'stock', 'tp', 'speed-up']
    rows = []
    for rec in records:
        rows.append([rec['name'], rec['unit']]
                    + ['%s (%s..%s)' % (fmt(rec[k]['median']),
                                        fmt(rec[k]['min']),
                                        fmt(rec[k]['max']))
                       for k in ('stock', 'tp', 'speedup')])
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    for row in [head, ['-' * w for w in widths]] + rows:
        lines.append('  '.join([row[0].ljust(widths[0])]
                               + [c.rjust(w) for c, w
                                  in zip(row[1:], widths[1:])]).rstrip())
    return '\n'.join(lines) + '\n'


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--objdir', required=True,
                        help="the fork's glibc build directory")
    parser.add_argument('--work', required=True,
                        help='a directory for the xz corpus')
    parser.add_argument('--json', required=True, help='the JSON report')
    parser.add_argument('--table', required=True, help='the text report')
    parser.add_argument('--rounds', type=int, default=5,
                        help='rounds (default %(default)s)')
    parser.add_argument('--tunables', default=DEFAULT_TUNABLES,
                        help='GLIBC_TUNABLES of the tp configuration '
                        '(default %(default)s)')
    parser.add_argument('--only', metavar='REGEX',
                        help='only the benchmarks whose name matches')
    parser.add_argument('--lock-profile', metavar='DIR',
                        help="run every program under perf record (data "
                        "in DIR) and report the share of its time in lock "
                        "code")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error('--rounds must be at least 1')

    run_app = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           'run-app.sh')
    try:
        corpus = subprocess.run(['sh', run_app, 'corpus', args.work],
                                stdout=subprocess.PIPE, check=True,
                                text=True).stdout.strip()
        if args.lock_profile:
            os.makedirs(args.lock_profile, exist_ok=True)
        benches = [b for b in benchmarks(corpus)
                   if not args.only or re.search(args.only, b.name)]
        if not benches:
            raise BenchError('--only %s: no benchmark matches' % args.only)
        runner = Runner(run_app, args.objdir, args.tunables)
        results = measure_all(runner, benches, args.rounds,
                              args.lock_profile)
    except (BenchError, subprocess.CalledProcessError) as e:
        print('app_bench.py: error: %s' % e, file=sys.stderr)
        return 1

    records = summarize(benches, results, args.lock_profile is not None)
    text = table(records, args.rounds, args.tunables)
    load = open('/proc/loadavg').read().split()[:3]
    text += '# %d CPUs, load average %s at the end\n' % (os.cpu_count(),
                                                       ' '.join(load))
    with open(args.table, 'w') as f:
        f.write(text)
    with open(args.json, 'w') as f:
        json.dump({'rounds': args.rounds, 'tunables': args.tunables,
                   'configs': CONFIGS, 'cpus': os.cpu_count(),
                   'loadavg': load, 'benchmarks': records}, f, indent=1)
        f.write('\n')
    sys.stdout.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
