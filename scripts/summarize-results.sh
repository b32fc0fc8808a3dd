#!/bin/sh
# Usage: scripts/summarize-results.sh RESULTS-DIR
# Count the PASS/FAIL/XFAIL/XPASS/UNSUPPORTED lines of every *.sum file
# in RESULTS-DIR (the format of glibc's tests.sum), print one line per
# suite, list the failures, and end with `N passed, N failed'.  XPASS
# counts as a failure (an expected failure that no longer fails must be
# removed from its list); UNSUPPORTED as neither.  Exits 1 on failure.

set -eu
dir=$1
total_pass=0 total_fail=0
for sum in "$dir"/*.sum; do
  [ -f "$sum" ] || continue
  suite=$(basename "$sum" .sum)
  pass=$(grep -c '^PASS:' "$sum" || true)
  xfail=$(grep -c '^XFAIL:' "$sum" || true)
  fail=$(grep -c '^\(FAIL\|XPASS\|ERROR\):' "$sum" || true)
  unsup=$(grep -c '^UNSUPPORTED:' "$sum" || true)
  printf '%-28s %5d passed, %3d failed, %3d expected failures, %3d unsupported\n' \
    "$suite" "$pass" "$fail" "$xfail" "$unsup"
  grep '^\(FAIL\|XPASS\|ERROR\):' "$sum" | sed "s|^|  $suite: |" || true
  total_pass=$((total_pass + pass + xfail))
  total_fail=$((total_fail + fail))
done
[ $((total_pass + total_fail)) -gt 0 ] || { echo "no test results in $dir" >&2; echo "0 passed, 1 failed"; exit 1; }
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
