#!/bin/sh
# Usage: scripts/summarize-results.sh MANIFEST RESULTS-DIR
# The verdict of `make check'.  For every suite of MANIFEST
# (tests/check-manifest.txt) read RESULTS-DIR/SUITE.sum (the format of
# glibc's tests.sum, ended by scripts/run-suite.sh's END line), print
# its passed / failed / xfail / unsupported counts and wall time, list
# every failure by name, and end with `N passed, N failed'.  Exits 1
# unless that is `0 failed'.
#
# Failures: FAIL, XPASS (an expected failure that no longer fails must
# leave its list), ERROR and UNRESOLVED lines; UNSUPPORTED in a `fork'
# suite, or for one of the fork's tests anywhere; and one for each suite
# whose file is missing, has no END line (its run was cut short), or has
# fewer results than its floor; and one for each .sum file that the
# manifest does not list.  XFAIL and UNSUPPORTED count as neither passed
# nor failed.

set -eu
manifest=$1 dir=$2
failures=$(mktemp)
trap 'rm -f "$failures"' EXIT

# fail SUITE WHY: a failure of a whole suite.
fail() {
  echo "  $1: $2" >> "$failures"
  suite_fail=$((suite_fail + 1))
}

printf '%-22s %7s %7s %6s %6s %7s\n' suite passed failed xfail unsup wall
total_pass=0 total_fail=0
suites=
while read -r suite min _ kind; do
  case $suite in ''|'#'*) continue ;; esac
  suites="$suites $suite "
  sum=$dir/$suite.sum
  suite_fail=0
  if [ ! -f "$sum" ]; then
    fail "$suite" "no results: it did not run (a step it needs failed: see above)"
    printf '%-22s %7s %7s %6s %6s %7s\n' "$suite" - "$suite_fail" - - -
    total_fail=$((total_fail + suite_fail))
    continue
  fi
  # One line of counts: pass fail xfail unsupported results wall, and
  # the failed results of a complete file to the failure list.
  # shellcheck disable=SC2046
  set -- $(awk -v suite="$suite" -v kind="$kind" -v out="$failures" '
    function bad(line) { bads[++f] = "  " suite ": " line }
    /^PASS: / { p++; n++ }
    /^(FAIL|XPASS|ERROR|UNRESOLVED): / { bad($0); n++ }
    /^XFAIL: / { x++; n++ }
    /^UNSUPPORTED: / {
      n++
      if (kind == "fork" || $2 ~ /^nptl\/tst-(mutex-tp|rwlock-pf|rwlock-tp)-/)
        bad($0 " (the fork'"'"'s tests must run)")
      else
        u++
    }
    /^END: / { wall = $2 "s" }
    END {
      if (wall == "")
        wall = "-"
      else
        for (i = 1; i <= f; i++)
          print bads[i] >> out
      printf "%d %d %d %d %d %s\n", p, f, x, u, n, wall
    }
  ' "$sum")
  pass=$1 suite_fail=$2 xfail=$3 unsup=$4 results=$5 wall=$6
  if [ "$wall" = - ]; then
    # No END line: the run was cut short; none of its results count.
    pass=0 suite_fail=0
    fail "$suite" "incomplete results (no END line: its run was cut short)"
  elif [ "$results" -lt "$min" ]; then
    fail "$suite" "$results results, fewer than the $min of $manifest"
  fi
  printf '%-22s %7d %7d %6d %6d %7s\n' "$suite" "$pass" "$suite_fail" \
    "$xfail" "$unsup" "$wall"
  total_pass=$((total_pass + pass))
  total_fail=$((total_fail + suite_fail))
done < "$manifest"

for sum in "$dir"/*.sum; do
  [ -f "$sum" ] || continue
  suite=$(basename "$sum" .sum)
  case $suites in *" $suite "*) continue ;; esac
  echo "  $suite: $sum is not a suite of $manifest" >> "$failures"
  total_fail=$((total_fail + 1))
done

if [ -s "$failures" ]; then
  echo "failures:"
  cat "$failures"
fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
