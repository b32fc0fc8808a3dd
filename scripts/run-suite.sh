#!/bin/sh
# Usage: scripts/run-suite.sh MANIFEST RESULTS LOGDIR SUITE COMMAND...
# Run the step of `make check' that writes RESULTS/SUITE.sum, within
# the time MANIFEST (tests/check-manifest.txt) allows SUITE, with its
# output in LOGDIR/suite-SUITE.log (scripts/run-logged.sh), and end the
# file with the line `END: SECONDS s, exit STATUS', without which
# scripts/summarize-results.sh counts none of it: a step that is cut
# short leaves no file that passes for complete.
#
# A step that runs out of time is stopped; its partial results are kept
# as SUITE.sum.partial and SUITE.sum holds one FAIL line that says so.
# A step that ends with an error gets an ERROR line more (whether or
# not its file holds the failures that caused it).  Exits with the
# step's status (124: timed out).

set -eu
manifest=$1 results=$2 logdir=$3 suite=$4
shift 4
top=$(cd "$(dirname "$0")/.." && pwd)
budget=$(awk -v s="$suite" '$1 == s { print $3 }' "$manifest")
if [ -z "$budget" ]; then
  echo "run-suite: $suite is not a suite of $manifest" >&2
  exit 2
fi
sum=$results/$suite.sum
mkdir -p "$results"
rm -f "$sum" "$sum.partial"

start=$(date +%s)
status=0
"$top/scripts/run-logged.sh" --timeout "$budget" "$logdir/suite-$suite.log" \
  "$suite" "$@" || status=$?
wall=$(( $(date +%s) - start ))

if [ "$status" -eq 124 ]; then
  [ ! -f "$sum" ] || mv "$sum" "$sum.partial"
  echo "FAIL: $suite: timed out after ${budget}s (log: $logdir/suite-$suite.log)" > "$sum"
elif [ "$status" -ne 0 ]; then
  echo "ERROR: $suite: exit status $status (log: $logdir/suite-$suite.log)" >> "$sum"
fi
echo "END: $wall s, exit $status" >> "$sum"
exit "$status"
