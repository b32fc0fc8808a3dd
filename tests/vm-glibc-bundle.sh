#!/bin/sh
# Usage: tests/vm-glibc-bundle.sh OBJDIR OUTDIR
#        tests/vm-glibc-bundle.sh --list
#
# Put the fork's dynamic loader, libc and TP mutex and rwlock tests into
# OUTDIR/glibc for the test VM's initramfs (kernel.mk's VM_EXTRA_DIRS), with one
# wrapper script per test and path in OUTDIR/glibc/run (listed for
# kernel.mk's VM_EXTRA_LISTS):
#   NAME.kernel  the TP kernel path;
#   NAME.user    the same test with the user-space path forced
#                (glibc.pthread.mutex_tp_userspace=1).
# TST_TP_EXPECT_KERNEL makes tst-mutex-tp-kernel, tst-rwlock-tp-kernel
# and their -user forms fail unless the kernel has the TP operations
# (for the rwlock: the shared ones); they then check through the
# slow-path counters which path really served the lock.
# Prints the wrappers' paths inside the VM, one per line.  With --list,
# prints the names of the tests it needs, one per line.

set -eu
tests="tst-mutex-tp-basic tst-mutex-tp-contend tst-mutex-tp-timed
       tst-mutex-tp-cond tst-mutex-tp-robust tst-mutex-tp-pshared
       tst-mutex-tp-starve tst-mutex-tp-kernel tst-mutex-tp-kernel-user
       tst-rwlock-tp-basic tst-rwlock-tp-concurrent tst-rwlock-tp-starve
       tst-rwlock-tp-timeout tst-rwlock-tp-pshared tst-rwlock-tp-kernel
       tst-rwlock-tp-kernel-user tst-mutex-tp-fork-handoff
       tst-mutex-tp-pshared-death tst-rwlock-tp-fork
       tst-mutex-tp-tunable-handoff tst-rwlock-tp-bias"
# tst-mutex-tp-kernel checks that the kernel path served the mutex and
# tst-mutex-tp-kernel-user that the forced user-space path did.
# tst-mutex-tp-contend's 1.3 million contended operations take minutes on
# the user-space path under TCG; that path runs natively in check-nptl.
# tst-mutex-tp-tunable-handoff checks the threshold of the user-space
# path's hand-off (glibc.pthread.mutex_tp_handoff_us, the default 5 ms
# here); the kernel's is its own.  tst-rwlock-tp-bias checks that racing
# readers turn the reader bias on only on the user-space path.
kernel_only="tst-mutex-tp-contend tst-mutex-tp-kernel tst-rwlock-tp-kernel"
user_only="tst-mutex-tp-kernel-user tst-rwlock-tp-kernel-user"
user_only="$user_only tst-mutex-tp-tunable-handoff"
# The VM is emulated (TCG) and its kernel runs KASAN, so the slow paths
# cost many times what they cost natively: tst-mutex-tp-contend needs
# about 70 s there against its 60 s budget.  Scale every test's timeout
# the way glibc does for slow targets; kernel.mk's per-test VM timeout
# (VM_TEST_TIMEOUT) stays above the scaled ones.
timeoutfactor=3

if [ "$1" = --list ]; then
  for t in $tests; do echo "$t"; done
  exit 0
fi
objdir=$1 out=$2

rm -rf "$out/glibc"
mkdir -p "$out/glibc/run"
cp "$objdir/elf/ld.so" "$out/glibc/ld-linux-x86-64.so.2"
cp "$objdir/libc.so.6" "$out/glibc/"
# Thread exit and cancellation unwind through libgcc_s.
cp "$(gcc -print-file-name=libgcc_s.so.1)" "$out/glibc/"
for t in $tests; do
  [ -x "$objdir/nptl/$t" ] || { echo "vm-glibc-bundle: $objdir/nptl/$t missing" >&2; exit 1; }
  cp "$objdir/nptl/$t" "$out/glibc/"
  paths="kernel user"
  case " $kernel_only " in *" $t "*) paths=kernel ;; esac
  case " $user_only " in *" $t "*) paths=user ;; esac
  for path in $paths; do
    w=$out/glibc/run/$t.$path
    {
      echo '#!/bin/sh'
      echo 'export TST_TP_EXPECT_KERNEL=1'
      echo "export TIMEOUTFACTOR=$timeoutfactor"
      if [ "$path" = user ]; then
	echo 'export GLIBC_TUNABLES=glibc.pthread.mutex_tp_userspace=1'
      fi
      echo "exec /glibc/ld-linux-x86-64.so.2 --library-path /glibc /glibc/$t"
    } > "$w"
    chmod +x "$w"
    echo "/glibc/run/$t.$path"
  done
done
