#!/bin/sh
# Usage: scripts/check-glibc-subset.sh OBJDIR SUBDIR MODE TUNABLES XFAIL-LIST RESULTS JOBS
#
# Run glibc's tests of SUBDIR (e.g. nptl) in OBJDIR with GLIBC_TUNABLES set
# to TUNABLES (empty: glibc's defaults) and write RESULTS/MODE.sum.  Every
# test reruns (the previous outputs are removed first).  A test named in
# XFAIL-LIST (one name per line, `#' comments: the tests that fail on the
# unmodified base on this kind of machine, with the reason) that fails is
# recorded as XFAIL; one that passes as XPASS, so the list cannot go stale.

set -u
objdir=$1 subdir=$2 mode=$3 tunables=$4 xfail_list=$5 results=$6 jobs=$7
top=$(cd "$(dirname "$0")/.." && pwd)
log=$objdir/../logs/check-$mode.log

rm -f "$objdir/$subdir"/*.out "$objdir/$subdir"/*.test-result \
      "$objdir/$subdir/subdir-tests.sum"
label="check $mode${tunables:+ (GLIBC_TUNABLES=$tunables)}"
if [ -n "$tunables" ]; then
  GLIBC_TUNABLES=$tunables
  export GLIBC_TUNABLES
else
  unset GLIBC_TUNABLES
fi
# The tests run on a shared, busy machine: give their watchdogs room.
TIMEOUTFACTOR=${TIMEOUTFACTOR:-4}
export TIMEOUTFACTOR
# glibc's check exits non-zero when any test fails; the verdict is ours.
"$top/scripts/run-logged.sh" "$log" "$label" \
  make -C "$objdir" -k -j"$jobs" MAKEINFO=: subdirs="$subdir" check || true

sum=$objdir/$subdir/subdir-tests.sum
if [ ! -s "$sum" ]; then
  echo "ERROR: $mode: no results in $sum (see $log)" > "$results/$mode.sum"
  exit 1
fi
awk -f "$top/scripts/mark-expected-failures.awk" "$xfail_list" "$sum" \
  > "$results/$mode.sum"
