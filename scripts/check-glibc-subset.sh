#!/bin/sh
# Usage: scripts/check-glibc-subset.sh OBJDIR SUBDIR MODE TUNABLES XFAIL-LISTS RESULTS JOBS [TEST...]
#
# Run glibc's tests of SUBDIR (e.g. nptl) in OBJDIR with GLIBC_TUNABLES set
# to TUNABLES (empty: glibc's defaults) and write RESULTS/MODE.sum: all of
# them (SUBDIR's make, goal check), or only the TESTs named.  Every test
# reruns (its previous output is removed first).  A test named in one
# of the XFAIL-LISTS (files separated by spaces; in each one name per
# line, `#' comments, with the reason it fails)
# that fails is recorded as XFAIL; one that passes as XPASS, so the list
# cannot go stale.  A test named that has no result is an ERROR, as is
# a run without any result.

set -eu
objdir=$1 subdir=$2 mode=$3 tunables=$4 xfail_lists=$5 results=$6 jobs=$7
shift 7
top=$(cd "$(dirname "$0")/.." && pwd)
log=$(dirname "$objdir")/logs/check-$mode.log
srcdir=$("$top/scripts/glibc-srcdir.sh" "$objdir")

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

# glibc's make exits non-zero when any test fails; the verdict is ours.
sum=$results/$mode.raw
if [ $# -eq 0 ]; then
  rm -f "$objdir/$subdir"/*.out "$objdir/$subdir"/*.test-result \
	"$objdir/$subdir/subdir-tests.sum"
  # The subdirectory's own make, with the goal check: nptl/Makefile
  # runs its tests one at a time (.NOTPARALLEL) only for goals named
  # *tests, which is how the top-level make enters it.  Run JOBS at a
  # time, nptl's take less than half as long (README, "Tests").  First
  # what the top-level make prepares before it enters a subdirectory's
  # tests: the root of the container tests (support/test-container;
  # nptl's is tst-pthread-getattr).  If that fails, they fail.
  "$top/scripts/run-logged.sh" "${log%.log}-testroot.log" \
    "$label: the container tests' root" \
    make -C "$objdir" -j"$jobs" MAKEINFO=: subdirs="$subdir" \
      "$objdir/testroot.pristine/install.stamp" || true
  "$top/scripts/run-logged.sh" "$log" "$label" \
    make -r -C "$srcdir/$subdir" ..=../ objdir="$objdir" subdir="$subdir" \
      -k -j"$jobs" MAKEINFO=: check || true
  cp "$objdir/$subdir/subdir-tests.sum" "$sum" 2>/dev/null || : > "$sum"
else
  # The tests that pin threads to processors 0 and 1 (their source
  # includes nptl/tst-tp-pin.h, directly or through the test's other
  # files) need both to themselves: they run after the others, one at a
  # time.
  pins() {
    [ -f "$1" ] || return 1
    grep -q '^#include "tst-tp-pin.h"' "$1" && return 0
    # shellcheck disable=SC2013 # file names without spaces
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$1"); do
      pins "$(dirname "$1")/$inc" && return 0
    done
    return 1
  }
  outs='' alone=''
  for t in "$@"; do
    rm -f "$objdir/$subdir/$t.out" "$objdir/$subdir/$t.test-result"
    if pins "$srcdir/$subdir/$t.c"; then
      alone="$alone $objdir/$subdir/$t.out"
    else
      outs="$outs $objdir/$subdir/$t.out"
    fi
  done
  if [ -n "$outs" ]; then
    # shellcheck disable=SC2086
    "$top/scripts/run-logged.sh" "$log" "$label: $(echo $outs | wc -w) tests" \
      make -r -C "$srcdir/$subdir" ..=../ objdir="$objdir" \
	subdir="$subdir" -k -j"$jobs" MAKEINFO=: $outs || true
  fi
  if [ -n "$alone" ]; then
    # shellcheck disable=SC2086
    "$top/scripts/run-logged.sh" "${log%.log}-alone.log" \
      "$label: $(echo $alone | wc -w) tests that pin processors, one at a time" \
      make -r -C "$srcdir/$subdir" ..=../ objdir="$objdir" \
	subdir="$subdir" -k -j1 MAKEINFO=: $alone || true
  fi
  : > "$sum"
  for t in "$@"; do
    if [ -f "$objdir/$subdir/$t.test-result" ]; then
      head -n 1 "$objdir/$subdir/$t.test-result" >> "$sum"
    else
      echo "ERROR: $subdir/$t" >> "$sum"
    fi
  done
fi

if [ ! -s "$sum" ]; then
  echo "ERROR: $mode: no results (see $log)" > "$results/$mode.sum"
  rm -f "$sum"
  exit 1
fi
# shellcheck disable=SC2086
awk -f "$top/scripts/mark-expected-failures.awk" $xfail_lists "$sum" \
  > "$results/$mode.sum"
rm -f "$sum"

# Keep the output of every failed test: the next mode reruns it.
grep -E '^(FAIL|XPASS|ERROR|UNRESOLVED): ' "$results/$mode.sum" | while read -r _ name; do
  mkdir -p "$results/$mode-failed"
  for f in "$objdir/$name.out" "$objdir/$name.test-result"; do
    if [ -f "$f" ]; then cp "$f" "$results/$mode-failed/"; fi
  done
done
