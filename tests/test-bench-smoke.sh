#!/bin/sh
# Usage: tests/test-bench-smoke.sh OBJDIR SUMFILE
# The lock benchmarks as tests: a short contention run of every lock kind
# must keep the benchmark's invariant (it exits 1 if mutual exclusion
# failed), the lock-less `busted' control must be caught, a run of every
# kind in interleaved rounds must give valid benchout JSON with a value
# per round in every variant and a ratio to its baseline for every kind
# in the report, the fast-path benchmark must produce valid benchout
# JSON, the timer probe must report for every run and only when asked,
# and the hold time must be there for every run and grow with the
# critical section.  About 20 seconds.

set -u
objdir=$1 sum=$2
: > "$sum"
bench=$objdir/benchtests/bench-lock-contention
fastpath=$objdir/benchtests/bench-mutex-fastpath
srcdir=$("$(dirname "$0")/../scripts/glibc-srcdir.sh" "$objdir")
report=$(dirname "$0")/../benchtests/scripts/lock_bench_report.py
python=${PYTHON3:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

result() {   # result NAME STATUS
  if [ "$2" -eq 0 ]; then r=PASS; else r=FAIL; fi
  echo "$r: bench-smoke/$1" | tee -a "$sum"
}

valid_json() {   # valid_json FILE: FILE passes glibc's benchout schema
  "$python" "$srcdir/benchtests/scripts/validate_benchout.py" "$1" \
    "$srcdir/benchtests/scripts/benchout.schema.json" \
    > "$tmp/validate.log" 2>&1 \
    && grep -q 'is valid' "$tmp/validate.log"
}

kinds=$("$objdir/testrun.sh" "$bench" --list \
	| awk '$1 != "busted" { print $1 }')

for kind in $kinds; do
  "$objdir/testrun.sh" "$bench" --kinds "$kind" --threads 1,4 \
    --cs short,medium --lock-latency 100 --read-pct 50 --repeat 2 \
    --warmup 0.02 --duration 0.1 --document --output "$tmp/$kind.json" \
    2> "$tmp/$kind.log"
  result "invariant-$kind" $?
done

# The control takes no lock: with four threads and a medium critical
# section the invariant must break, in one of three tries at most.
caught=1
for try in 1 2 3; do
  "$objdir/testrun.sh" "$bench" --kinds busted --threads 4 --cs medium \
    --repeat 1 --warmup 0 --duration 0.2 --document \
    --output "$tmp/busted.json" > "$tmp/busted.log" 2>&1
  [ $? -eq 1 ] && { caught=0; break; }
done
result busted-control-caught $caught

# rounds_ok FILE N: every variant of FILE with per-round values has N.
rounds_ok() {
  "$python" -c '
import json, sys
functions = json.load(open(sys.argv[1]))["functions"]
bad = [name for f in functions.values() for name, v in f.items()
       if "timings" in v and len(v["timings"]) != int(sys.argv[2])]
sys.exit("wrong number of rounds: %s" % bad[:3] if bad else 0)' "$1" "$2"
}

# ratios_ok SUMMARY: the report compares every kind but the baselines
# with the baseline of its family.
ratios_ok() {
  for kind in $kinds; do
    case $kind in
      mutex-normal|rwlock-default) continue ;;
      mutex-*) base=mutex-normal ;;
      *) base=rwlock-default ;;
    esac
    grep -q "^$kind / $base, throughput ratio" "$1" \
      || { echo "no ratio for $kind in $1" >&2; return 1; }
  done
}

"$objdir/testrun.sh" "$bench" --threads 2 --cs short --lock-latency 0 \
  --read-pct 50 --repeat 3 --warmup 0 --duration 0.05 --document \
  --output "$tmp/rounds.json" 2> "$tmp/rounds.log" \
  && valid_json "$tmp/rounds.json" \
  && rounds_ok "$tmp/rounds.json" 3 \
  && "$python" "$report" --json "$tmp/rounds.json" --summary \
       > "$tmp/summary.txt" \
  && ratios_ok "$tmp/summary.txt"
result interleaved-rounds-json $?

# cpus_ok FILE: one thread that never waits keeps one processor busy,
# no more (the figure is the threads' processor time over wall time).
cpus_ok() {
  "$python" -c '
import json, sys
cpus = json.load(open(sys.argv[1]))["functions"]["lock_contention_cpu"]
bad = {name: v["mean"] for name, v in cpus.items()
       if not 0.5 <= v["mean"] <= 1.1}
sys.exit("processors busy out of [0.5, 1.1]: %s" % bad if bad else 0)' "$1"
}

"$objdir/testrun.sh" "$bench" --kinds mutex-normal,rwlock-default \
  --threads 1 --cs short --lock-latency 0 --read-pct 50 --repeat 2 \
  --warmup 0 --duration 0.2 --document --output "$tmp/cpus.json" \
  2> "$tmp/cpus.log" \
  && cpus_ok "$tmp/cpus.json"
result cpus-busy-figure $?

# probe_ok FILE WANT: FILE has the timer probe's figure for every run
# (WANT 1) or for none (WANT 0).  The probe slept in every run (a 0.2 s
# round has room for many 1 ms sleeps), its worst lateness is at least
# 0 and below a round, and the config names the probe.
probe_ok() {
  "$python" -c '
import json, sys
functions = json.load(open(sys.argv[1]))["functions"]
want = sys.argv[2] == "1"
runs = set(functions["lock_contention"])
late = functions.get("lock_contention_timer", {})
config = " ".join(functions["lock_contention_config"])
if not want:
    sys.exit("timer figures without --timer-probe" if late
             or "timer-probe" in config else 0)
if set(late) != runs:
    sys.exit("runs without a timer figure: %s" % sorted(runs - set(late)))
idle = [name for name, v in late.items() if v["iterations"] < 20]
if idle:
    sys.exit("a probe that hardly slept: %s" % idle)
bad = {name: v["timings"] for name, v in late.items()
       if not all(0 <= t < 0.2e9 for t in v["timings"])}
if bad:
    sys.exit("timer lateness out of [0, 0.2 s): %s" % bad)
if "timer-probe=on" not in config:
    sys.exit("config does not name the probe: %s" % config)' "$1" "$2"
}

"$objdir/testrun.sh" "$bench" --kinds mutex-normal,rwlock-default \
  --threads 2 --cs short --lock-latency 0 --read-pct 50 --repeat 2 \
  --warmup 0 --duration 0.2 --timer-probe --document \
  --output "$tmp/probe.json" 2> "$tmp/probe.log" \
  && valid_json "$tmp/probe.json" \
  && probe_ok "$tmp/probe.json" 1 \
  && probe_ok "$tmp/cpus.json" 0 \
  && "$python" "$report" --json "$tmp/probe.json" --table \
       --columns 'Mops/s,timer late us' > "$tmp/probe.txt" \
  && grep -q 'timer late us' "$tmp/probe.txt"
result timer-probe-figure $?

# hold_ok FILE: every run has the hold figures (for every kind: the
# time from the lock call's return to the unlock call), and with one thread
# the long section (1000 iterations) holds the lock longer at the median
# than the empty one, of the same kind.
hold_ok() {
  "$python" -c '
import json, sys
functions = json.load(open(sys.argv[1]))["functions"]
runs = set(functions["lock_contention"])
waits = functions["lock_contention_wait"]
hold = {name.split(",")[0]: v for name, v in waits.items()
        if name.endswith(",hold=p50")}
if set(hold) != runs:
    sys.exit("runs without a hold figure: %s" % sorted(runs - set(hold)))
for name, v in hold.items():
    if "-short-" not in name:
        continue
    longer = hold[name.replace("-short-", "-long-")]
    if not longer["latency"] > v["latency"]:
        sys.exit("%s: median hold %s ns, not above the empty section'"'"'s %s"
                 % (name.replace("-short-", "-long-"), longer["latency"],
                    v["latency"]))' "$1"
}

"$objdir/testrun.sh" "$bench" --kinds mutex-normal,rwlock-default \
  --threads 1 --cs short,long --lock-latency 0 --read-pct 50 --repeat 2 \
  --warmup 0 --duration 0.1 --document --output "$tmp/hold.json" \
  2> "$tmp/hold.log" \
  && valid_json "$tmp/hold.json" \
  && hold_ok "$tmp/hold.json" \
  && "$python" "$report" --json "$tmp/hold.json" --table \
       --columns 'Mops/s,hold worst us' > "$tmp/hold.txt" \
  && grep -q 'hold worst us' "$tmp/hold.txt"
result hold-figure $?

"$objdir/testrun.sh" "$fastpath" --document > "$tmp/fastpath.json" \
  && valid_json "$tmp/fastpath.json"
result fastpath-json $?
