#!/usr/bin/env python3
"""Turn futex-bench output from the VM console log into a JSON report.

Usage: bench-report.py CONSOLE_LOG OUT_JSON

Reads the "JSON {...}" lines futex-bench printed, sums the repeats of
each (lock, threads) pair (futex-bench -n interleaves them), adds the
environment and the TP/wait-wake ratios the benchmark target is stated
in, prints a table and writes OUT_JSON.
"""
import json
import re
import sys


def main():
    log, out = sys.argv[1], sys.argv[2]
    text = open(log, errors="replace").read()
    runs = [json.loads(m) for m in re.findall(r"^JSON (\{.*\})$", text, re.M)]
    if not runs:
        sys.exit("kernel-bench: no results in " + log)
    # The console may put terminal escapes before the first marker.
    kernel = re.search(r"TPF-VM-START (\S+)", text)
    keys = ("total_ops", "lock_slowpaths", "unlock_slowpaths", "handoffs",
            "sleeps", "errors", "runtime_s", "reader_ops")
    by = {}
    for r in runs:
        k = (r["lock"], r["threads"])
        if k not in by:
            by[k] = dict(r, repeats=0, thread_min_ops=None, thread_max_ops=0,
                         **{x: 0 for x in keys})
        a = by[k]
        a["repeats"] += 1
        for x in keys:
            a[x] += r.get(x, 0)
        a["thread_min_ops"] = min(a["thread_min_ops"] or r["thread_min_ops"],
                                  r["thread_min_ops"])
        a["thread_max_ops"] = max(a["thread_max_ops"], r["thread_max_ops"])
        a["ops_per_sec"] = a["total_ops"] / a["runtime_s"]
        a.pop("rep", None)
    summary = [by[k] for k in sorted(by, key=lambda k: (k[1], k[0]))]
    ratios = []
    for (lock, thr), r in sorted(by.items()):
        ww = by.get(("ww", thr))
        if lock != "tp" or not ww:
            continue
        ratios.append({
            "threads": thr,
            "tp_vs_ww_total_ops": round(r["total_ops"] / max(ww["total_ops"], 1), 3),
            "ww_vs_tp_unlock_slowpaths":
                round(ww["unlock_slowpaths"] / max(r["unlock_slowpaths"], 1), 1)
                if ww["unlock_slowpaths"] else None,
        })
    rw_ratios = []
    for (lock, thr), r in sorted(by.items()):
        ww = by.get(("rwww", thr))
        if lock != "rwtp" or not ww:
            continue
        rw_ratios.append({
            "threads": thr,
            "rwtp_vs_rwww_total_ops":
                round(r["total_ops"] / max(ww["total_ops"], 1), 3),
        })
    report = {
        "benchmark": "futex-bench (kernel/bench/futex-bench.c)",
        "environment": "qemu-system-x86_64 -accel tcg -smp 2 -m 1G",
        "kernel": kernel.group(1) if kernel else None,
        "summary": summary,
        "runs": runs,
        "ratios": ratios,
        "rwlock_ratios": rw_ratios,
    }
    with open(out, "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")
    print("sum over %d repeat(s) of each run" % max(a["repeats"] for a in summary))
    hdr = ("lock", "thr", "total_ops", "ops/s", "thr_min", "thr_max",
           "lock_slow", "unlock_slow", "handoffs", "errors")
    print("%-5s %3s %11s %11s %10s %10s %10s %11s %8s %6s" % hdr)
    for r in summary:
        print("%-5s %3d %11d %11.0f %10d %10d %10d %11d %8d %6d" % (
            r["lock"], r["threads"], r["total_ops"], r["ops_per_sec"],
            r["thread_min_ops"], r["thread_max_ops"], r["lock_slowpaths"],
            r["unlock_slowpaths"], r["handoffs"], r["errors"]))
    for x in ratios:
        u = x["ww_vs_tp_unlock_slowpaths"]
        print("threads %d: TP/wait-wake total ops %.3fx, unlock slow paths "
              "wait-wake/TP %s" % (x["threads"], x["tp_vs_ww_total_ops"],
                                  "%.1fx" % u if u is not None else "n/a (none)"))
    for x in rw_ratios:
        print("threads %d (1:1 readers:writers): TP rwlock/wait-wake rwlock "
              "total ops %.3fx" % (x["threads"], x["rwtp_vs_rwww_total_ops"]))
    print("kernel-bench: wrote " + out)
    if any(r["errors"] for r in summary):
        sys.exit("kernel-bench: a run reported errors")


if __name__ == "__main__":
    main()
