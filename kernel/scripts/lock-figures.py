#!/usr/bin/env python3
"""Figures of the lock tests from a vm-check console log.

Usage: lock-figures.py VM-CHECK.LOG

Prints the locktorture totals of each run (kernel/vm/lock-tests), the
ratios the range lock targets are stated in, and the psrwlock latency
case's irq-off figures.
"""
import re
import sys


def main():
    log = open(sys.argv[1], errors="replace").read().splitlines()
    runs = {}
    for line in log:
        m = re.match(r"locktorture (\S+): (Writes|Reads) ?:\s+Total: (\d+)", line)
        if m:
            runs.setdefault(m.group(1), {})[m.group(2)] = int(m.group(3))
    print("locktorture (10 s per run unless noted in kernel/vm/lock-tests)")
    print("  %-16s %10s %10s" % ("run", "writes", "reads"))
    for tag, r in runs.items():
        print("  %-16s %10s %10s" % (tag, r.get("Writes", "-"), r.get("Reads", "-")))

    def ratio(a, b, key):
        try:
            return "%.2fx" % (runs[a][key] / runs[b][key])
        except (KeyError, ZeroDivisionError):
            return "n/a"

    print("  range_lock / rwsem, write-only (2 writers): %s (target >= 0.9x)"
          % ratio("range-w2", "rwsem-w2", "Writes"))
    print("  range_lock / rwsem, read-only (2 readers):  %s (target >= 0.9x)"
          % ratio("range-r2", "rwsem-r2", "Reads"))
    print("  disjoint ranges, 2 writers / 1 writer:      %s (target >= 1.6x)"
          % ratio("disjoint-w2", "disjoint-w1", "Writes"))
    seen = set()
    for line in log:
        m = re.search(r"# psrwlock_test_latency: ((psrwlock|rwlock_t)\W.*)", line)
        if m and m.group(1) not in seen:
            seen.add(m.group(1))
            print("  latency: " + m.group(1))


if __name__ == "__main__":
    main()
