#!/bin/sh
# Usage: tests/vm-glibc-upstream.sh SRCDIR OBJDIR OUTDIR
#        tests/vm-glibc-upstream.sh --list SRCDIR
#
# Put glibc's own mutex, condition variable, robust mutex, cancellation
# and rwlock tests (nptl/tst-mutex*, tst-cond*, tst-robust*,
# tst-cancel*, tst-rwlock*, less the fork's own and those listed below)
# into OUTDIR/upstream for the test VM's initramfs (kernel.mk's
# VM_EXTRA_DIRS), with one wrapper per test, OUTDIR/upstream/run/
# NAME.upstream, that runs it with every default mutex TP and every
# default rwlock TP (glibc.pthread.mutex_protocol=3,
# glibc.pthread.rwlock_kind=4), statically initialized ones included, on
# the kernel path (the TP kernel serves FUTEX_LOCK), with glibc's
# TIMEOUTFACTOR scaled for the emulated (TCG) machine.  The wrappers
# run the tests on the fork's loader and libc that tests/vm-glibc-
# bundle.sh puts into /glibc in the same initramfs.
# SRCDIR is the assembled glibc tree: the tests are those whose sources
# are in its nptl/ and sysdeps/pthread/.  Prints the wrappers' paths
# inside the VM, one per line (for kernel.mk's VM_EXTRA_LISTS).  With
# --list, prints the names of the tests it needs, one per line.

set -eu

# Left out, with the reason:
#   the fork's own tests: vm-check runs them (tests/vm-glibc-bundle.sh);
#   -time64 variants: only where time_t is 32-bit (not built here);
#   tst-cancel4-common: a part of tst-cancel4*, not a test;
#   tst-mutexpi*, tst-robustpi*, tst-mutexpp*, tst-cond24, tst-cond25,
#     tst-cond-except: priority-inheritance and -protection mutexes have
#     an explicit protocol, which the tunable does not override: they
#     would run the stock code again;
#   tst-cancel4, tst-cancel4_1, tst-cancel4_2, tst-cancelx4, and
#     tst-cancel5, tst-cancelx5 (tst-cancel4 linked in reverse order):
#     cancellation of socket calls: the VM's kernel has no networking;
#   tst-cancel7, tst-cancelx7: need the command line glibc's Makefile
#     passes (--command, the test program run through a shell);
#   tst-cancel16, tst-cancel17, tst-cancelx16, tst-cancelx17: POSIX
#     asynchronous I/O, which the VM's kernel (no AIO) lacks for aio
#     and whose lio/fallback threads need it;
#   tst-cancel24*: C++ (no libstdc++ in the VM);
#   tst-cancel-self-cleanup, tst-cancelx1: sources that glibc 2.36's
#     Makefiles do not build as tests;
#   tst-rwlock16, tst-rwlock19: fail by design with a non-default rwlock
#     kind (tests/rwlock-kind-failures.txt);
#   tst-robust-fork: 16384 configurations of two forks each; under TCG
#     it ran 11390 of them in 451 s (2026-11-24: a VM run of it with
#     --verbose, which prints a line per configuration), about 11
#     minutes for all; it runs natively in check-nptl-tp.
left_out='^tst-cancel-self-cleanup$|^tst-cancelx1$|^tst-rwlock1[69]$|^tst-(mutex-tp|rwlock-pf|rwlock-tp)-|-time64$|^tst-cancel4-common$|^tst-(mutexpi|robustpi|mutexpp)|^tst-cond(24|25|-except)$|^tst-cancelx?4(_[12])?$|^tst-cancelx?5$|^tst-cancelx?7$|^tst-cancelx?1[67]$|^tst-cancel24|^tst-robust-fork$'

# tst-mutex10 runs three threads through a million rounds of two
# barriers and a lock; under TCG 20000 rounds take 12 s (13 s with the
# stock mutex, 2026-11-24), a million would take ten minutes: it runs
# 20000 (its own --iterations option).
args_of () {
  case $1 in
    tst-mutex10) echo ' --iterations 20000' ;;
  esac
}

# Emulation with a KASAN kernel: scale glibc's timeouts.
timeoutfactor=10
tunables=glibc.pthread.mutex_protocol=3:glibc.pthread.rwlock_kind=4

list_tests () {
  (cd "$1" && ls nptl sysdeps/pthread) \
    | sed -n 's/^\(tst-\(mutex\|cond\|robust\|cancel\|rwlock\)[^.]*\)\.c$/\1/p' \
    | grep -Ev "$left_out" | LC_ALL=C sort -u
}

if [ "$1" = --list ]; then
  list_tests "$2"
  exit 0
fi
srcdir=$1 objdir=$2 out=$3

rm -rf "$out/upstream"
mkdir -p "$out/upstream/run"
for t in $(list_tests "$srcdir"); do
  [ -x "$objdir/nptl/$t" ] || { echo "vm-glibc-upstream: $objdir/nptl/$t missing" >&2; exit 1; }
  cp "$objdir/nptl/$t" "$out/upstream/"
  w=$out/upstream/run/$t.upstream
  {
    echo '#!/bin/sh'
    echo "export TIMEOUTFACTOR=$timeoutfactor"
    echo "export GLIBC_TUNABLES=$tunables"
    case $t in
      *-static) echo "exec /upstream/$t$(args_of "$t")" ;;
      *) echo "exec /glibc/ld-linux-x86-64.so.2 --library-path /glibc /upstream/$t$(args_of "$t")" ;;
    esac
  } > "$w"
  chmod +x "$w"
  echo "/upstream/run/$t.upstream"
done
