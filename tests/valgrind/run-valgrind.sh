#!/bin/sh
# Usage: tests/valgrind/run-valgrind.sh OBJDIR STRESS SUMFILE LOGDIR
#        tests/valgrind/run-valgrind.sh --list
# Run the fork's TP mutex and phase-fair rwlock tests (OBJDIR/nptl) and
# the tpf-stress program STRESS under valgrind's memcheck, helgrind and
# drd, on the fork's libc (OBJDIR/testrun.sh --tool=valgrind), with
# every default mutex TP, every default rwlock phase-fair and the
# user-space TP path forced (valgrind does not know the kernel's new
# futex operations, and this host's kernel has none).  A run passes if
# the program exits 0 and valgrind reports no error (--error-exitcode).
# Then the unlocked control of tpf-stress must make helgrind and drd
# report a race in the program's account update.
# One valgrind log per run in LOGDIR.  About two minutes (125 s with
# the 2-core machine under load 15).

set -u
here=$(cd "$(dirname "$0")" && pwd)

tunables=glibc.pthread.mutex_protocol=3:glibc.pthread.rwlock_kind=3
tunables=$tunables:glibc.pthread.mutex_tp_userspace=1
valgrind_opts="--error-exitcode=99 --suppressions=$here/tpf.supp"

# The tests (each runs with --direct: in-process, no test-driver fork).
# Left out everywhere:
#   tst-mutex-tp-kernel       takes the kernel path, which valgrind does
#                             not know (and this kernel does not have);
#   tst-mutex-tp-contend      4 threads x 20000 acquisitions for each of
#                             8 mutex variants, with sched_yield: more
#                             than 120 s under every tool (valgrind runs
#                             one thread at a time); tpf-stress is the
#                             contention run instead;
#   tst-mutex-tp-starve,      fairness bounds measured in wall-clock
#   tst-rwlock-tp-starve,     time, which valgrind's serialization of
#   tst-rwlock-pf-phase
#                             the threads distorts;
#   tst-rwlock-tp-timeout,    (the TP one: 2 ms timeouts, likewise)
#   tst-rwlock-pf-timeout     queues timed writers with 100-180 ms
#                             deadlines one by one and waits for each to
#                             queue: under valgrind on a loaded machine
#                             one can time out before the next has
#                             queued (it failed so once in four runs
#                             under memcheck);
#   tst-mutex-tp-tunable2     covered by tst-mutex-tp-tunable (its
#                             subject, a rejected tunable value, runs no
#                             lock code of its own);
#   tst-rwlock-tp-tunable     checks that rwlock_kind=4 makes default
#                             rwlocks TP, but every run here sets
#                             rwlock_kind=3 (its lock code is that of
#                             tst-rwlock-tp-concurrent).
# Memcheck only:
#   tst-mutex-tp-robust,      let the lock's owner die holding it, or
#   tst-mutex-tp-pshared,     share the lock with a forked process:
#   tst-rwlock-pf-pshared,    helgrind and drd model neither owner death
#   tst-rwlock-tp-pshared
#                             (EOWNERDEAD) nor another process's lock
#                             calls (drd reports 51 errors on
#                             tst-mutex-tp-robust);
#   tst-mutex-tp-basic,       misuse the API on purpose to check the
#   tst-mutex-tp-timed,       error codes (unlock by a thread that is not
#   tst-rwlock-pf-basic,      the owner, relock by the owner, destroy
#   tst-rwlock-tp-basic
#                             while locked): helgrind and drd rightly
#                             report each of those calls (and then lose
#                             track of the lock's state);
#   tst-rwlock-pf-writers     waits for its writers to block by polling
#                             /proc and the lock's hand-off word, an
#                             order that helgrind and drd cannot see:
#                             they report the polls as races.
# Not under helgrind:
#   tst-mutex-tp-cond         takes the mutex with pthread_mutex_clocklock,
#                             which drd intercepts but valgrind 3.19's
#                             helgrind does not: helgrind would see the
#                             data the mutex protects as unprotected.
common_tests="tst-mutex-tp-kernel-user tst-mutex-tp-tunable
  tst-rwlock-pf-concurrent tst-rwlock-pf-tunable
  tst-rwlock-pf-tunable-bad tst-rwlock-pf-tunable-wnr
  tst-rwlock-tp-concurrent tst-rwlock-tp-kernel-user"
memcheck_tests="$common_tests tst-rwlock-pf-writers tst-mutex-tp-cond tst-mutex-tp-robust
  tst-mutex-tp-pshared tst-rwlock-pf-pshared tst-mutex-tp-basic
  tst-mutex-tp-timed tst-rwlock-pf-basic tst-rwlock-tp-basic
  tst-rwlock-tp-pshared"
helgrind_tests="$common_tests"
drd_tests="$common_tests tst-mutex-tp-cond"

if [ "$1" = --list ]; then
  echo $memcheck_tests $helgrind_tests $drd_tests | tr ' ' '\n' | sort -u
  exit 0
fi

# The tests with their own GLIBC_TUNABLES (their -ENV in nptl/Makefile)
# get those in place of our rwlock_kind: an invalid value (9) is
# ignored, so ours would stay in force.
test_tunables() {
  mutex_only=glibc.pthread.mutex_protocol=3:glibc.pthread.mutex_tp_userspace=1
  case $1 in
    tst-rwlock-pf-tunable-bad) echo "$mutex_only:glibc.pthread.rwlock_kind=9" ;;
    tst-rwlock-pf-tunable-wnr) echo "$mutex_only:glibc.pthread.rwlock_kind=2" ;;
    *) echo "$tunables" ;;
  esac
}

objdir=$1 stress=$2 sum=$3 logdir=$4
: > "$sum"
mkdir -p "$logdir"

result() {   # result NAME STATUS
  if [ "$2" -eq 0 ]; then r=PASS; else r=FAIL; fi
  echo "$r: valgrind/$1" | tee -a "$sum"
}

# run TOOL NAME LIMIT TUNABLES PROGRAM ARGS...: exit status of the run.
# LD_BIND_NOW: resolve every symbol at startup, so the lazy binding in
# the fork's ld.so is not seen as a race between threads.
run() {
  tool=$1 name=$2 limit=$3 tun=$4
  shift 4
  GLIBC_TUNABLES=$tun LD_BIND_NOW=1 timeout "$limit" \
    "$objdir/testrun.sh" --tool="valgrind --tool=$tool $valgrind_opts" \
    "$@" > "$logdir/$tool-$name.log" 2>&1
}

start=$(date +%s)
for tool in memcheck helgrind drd; do
  eval tests=\$${tool}_tests
  echo "valgrind: $tool on $(echo $tests | wc -w) tests and tpf-stress ($(( $(date +%s) - start ))s)"
  extra=
  [ "$tool" = memcheck ] && extra="--leak-check=full --errors-for-leak-kinds=definite"
  for t in $tests; do
    valgrind_opts="$valgrind_opts $extra" \
      run "$tool" "$t" 120 "$(test_tunables "$t")" "$objdir/nptl/$t" --direct
    result "$tool/$t" $?
  done
  # The stress program: 8 threads, 300 operations each.
  run "$tool" tpf-stress 120 "$tunables" "$stress" --threads 8 --ops 300 \
    --expect tp
  result "$tool/tpf-stress" $?
done

# The control: the same program without the account lock.  Helgrind and
# drd must report the race on the account (in mutex_worker).
for tool in helgrind drd; do
  run "$tool" tpf-stress-unlocked 120 "$tunables" "$stress" --threads 8 \
    --ops 300 --control=unlocked
  status=$?
  [ $status -ne 0 ] \
    && grep -q 'mutex_worker (tpf-stress.c' "$logdir/$tool-tpf-stress-unlocked.log"
  result "$tool/tpf-stress-unlocked-race-caught" $?
done
echo "valgrind: done in $(( $(date +%s) - start ))s"
