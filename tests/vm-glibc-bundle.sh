#!/bin/sh
# Usage: tests/vm-glibc-bundle.sh OBJDIR OUTDIR
#
# Put the fork's dynamic loader, libc and TP mutex tests into OUTDIR/glibc
# for the test VM's initramfs (kernel.mk's VM_EXTRA_DIRS), with one
# wrapper script per test and path in OUTDIR/glibc/run (VM_EXTRA_TESTS):
#   NAME.kernel  the TP kernel path; TST_TP_EXPECT_KERNEL makes
#                tst-mutex-tp-kernel fail unless the kernel has the TP
#                operations and the mutex really used them;
#   NAME.user    the same test with the user-space path forced
#                (glibc.pthread.mutex_tp_userspace=1).
# Prints the wrappers' paths inside the VM, one per line.

set -eu
objdir=$1 out=$2
tests="tst-mutex-tp-basic tst-mutex-tp-contend tst-mutex-tp-timed
       tst-mutex-tp-cond tst-mutex-tp-robust tst-mutex-tp-pshared
       tst-mutex-tp-starve tst-mutex-tp-kernel"

rm -rf "$out/glibc"
mkdir -p "$out/glibc/run"
cp "$objdir/elf/ld.so" "$out/glibc/ld-linux-x86-64.so.2"
cp "$objdir/libc.so.6" "$out/glibc/"
# Thread exit and cancellation unwind through libgcc_s.
cp "$(gcc -print-file-name=libgcc_s.so.1)" "$out/glibc/"
for t in $tests; do
  [ -x "$objdir/nptl/$t" ] || { echo "vm-glibc-bundle: $objdir/nptl/$t missing: run make check-nptl first" >&2; exit 1; }
  cp "$objdir/nptl/$t" "$out/glibc/"
  for path in kernel user; do
    w=$out/glibc/run/$t.$path
    {
      echo '#!/bin/sh'
      if [ "$path" = kernel ]; then
	echo 'export TST_TP_EXPECT_KERNEL=1'
      else
	echo 'export GLIBC_TUNABLES=glibc.pthread.mutex_tp_userspace=1'
      fi
      echo "exec /glibc/ld-linux-x86-64.so.2 --library-path /glibc /glibc/$t"
    } > "$w"
    chmod +x "$w"
    echo "/glibc/run/$t.$path"
  done
done
