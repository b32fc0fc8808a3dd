#!/bin/sh
# Usage: tests/test-bench-smoke.sh OBJDIR SUMFILE
# The lock benchmarks as tests: a short contention run of every lock kind
# must keep the benchmark's invariant (it exits 1 if mutual exclusion
# failed), the lock-less `busted' control must be caught, and the
# fast-path benchmark must produce valid benchout JSON.

set -u
objdir=$1 sum=$2
: > "$sum"
bench=$objdir/benchtests/bench-lock-contention
fastpath=$objdir/benchtests/bench-mutex-fastpath
srcdir=$("$(dirname "$0")/../scripts/glibc-srcdir.sh" "$objdir")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

result() {   # result NAME STATUS
  if [ "$2" -eq 0 ]; then r=PASS; else r=FAIL; fi
  echo "$r: bench-smoke/$1" | tee -a "$sum"
}

for kind in $("$objdir/testrun.sh" "$bench" --list | awk '{print $1}'); do
  [ "$kind" = busted ] && continue
  "$objdir/testrun.sh" "$bench" --kinds "$kind" --threads 1,4 \
    --cs short,medium --duration 0.1 --document --output "$tmp/$kind.json" \
    2> "$tmp/$kind.log"
  result "invariant-$kind" $?
done

# The control takes no lock: with four threads and a medium critical
# section the invariant must break, in one of three tries at most.
caught=1
for try in 1 2 3; do
  "$objdir/testrun.sh" "$bench" --kinds busted --threads 4 --cs medium \
    --duration 0.2 --document --output "$tmp/busted.json" \
    > "$tmp/busted.log" 2>&1
  [ $? -eq 1 ] && { caught=0; break; }
done
result busted-control-caught $caught

"$objdir/testrun.sh" "$fastpath" --document > "$tmp/fastpath.json" \
  && "${PYTHON3:-python3}" "$srcdir/benchtests/scripts/validate_benchout.py" \
       "$tmp/fastpath.json" "$srcdir/benchtests/scripts/benchout.schema.json" \
       > "$tmp/validate.log" 2>&1 \
  && grep -q 'is valid' "$tmp/validate.log"
result fastpath-json $?
