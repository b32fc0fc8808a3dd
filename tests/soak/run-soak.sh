#!/bin/sh
# Usage: tests/soak/run-soak.sh OBJDIR STRESS SECONDS THREADS SUMFILE LOG
# The soak: tpf-stress (tests/soak/tpf-stress.c) on the fork's libc with
# every default mutex TP and every default rwlock phase-fair, THREADS
# threads for SECONDS seconds, all of its invariants checked (it exits 1
# on the first broken one and says which).  Then a 2-second run of its
# unlocked control, which must be caught.  SUMFILE gets the PASS/FAIL
# lines and, as INFO lines, the operations done and the invariant checks
# made; LOG the program's whole output.

set -u
objdir=$1 stress=$2 seconds=$3 threads=$4 sum=$5 log=$6
: > "$sum"
: > "$log"
tunables=glibc.pthread.mutex_protocol=3:glibc.pthread.rwlock_kind=3
progress=10
[ "$seconds" -ge 600 ] && progress=60

result() {   # result NAME STATUS
  if [ "$2" -eq 0 ]; then r=PASS; else r=FAIL; fi
  echo "$r: soak/$1" | tee -a "$sum"
}

echo "soak: $threads threads for $seconds s on TP mutexes and phase-fair rwlocks, log in $log"
start=$(date +%s)
# Its progress and failure lines (stderr, `tpf-stress: ...') are shown.
{ GLIBC_TUNABLES=$tunables "$objdir/testrun.sh" "$stress" --threads "$threads" \
    --seconds "$seconds" --expect tp --progress "$progress" 2>&1
  echo $? > "$log.status"; } \
  | tee -a "$log" | grep --line-buffered '^tpf-stress:'
status=$(cat "$log.status")
rm -f "$log.status"
elapsed=$(( $(date +%s) - start ))
result "tp-pf-$threads-threads-${seconds}s" $status
ops=$(sed -n 's/^operations: //p' "$log")
checks=$(sed -n 's/^checks: //p' "$log")
echo "INFO: soak/tp-pf-$threads-threads-${seconds}s: ${elapsed}s wall, operations $ops; $checks" \
  | tee -a "$sum"

# The control: without the account lock the invariants must break.
GLIBC_TUNABLES=$tunables "$objdir/testrun.sh" "$stress" --threads "$threads" \
  --seconds 2 --control=unlocked >> "$log" 2>&1
[ $? -eq 1 ] && grep -q 'lost update\|torn account' "$log"
result control-unlocked-caught $?
