#!/bin/sh
# Usage: tests/vm-bench-glibc.sh OBJDIR OUTDIR ARGS...
#
# Prepare the fork's lock benchmark for the test VM: copy
# bench-lock-contention and the libm it needs from OBJDIR into OUTDIR
# (the initramfs's /tests)
# with a wrapper, OUTDIR/lock-contention, that runs it on the fork's libc
# (the /glibc of tests/vm-glibc-bundle.sh) with ARGS, keeps its progress
# off the console and prints its JSON between two marker lines, which
# the vm-bench-glibc target cuts out of the console log.  Prints the
# test-list line for kernel/vm/init.
set -eu
objdir=$1 out=$2
shift 2
mkdir -p "$out"
cp "$objdir/benchtests/bench-lock-contention" "$objdir/math/libm.so.6" "$out/"
{
  echo '#!/bin/sh'
  echo "/glibc/ld-linux-x86-64.so.2 --library-path /glibc:/tests \\"
  echo "  /tests/bench-lock-contention $* --output /tmp/lc.json 2>/dev/null"
  echo 'rc=$?'
  echo 'echo TPF-JSON-BEGIN; cat /tmp/lc.json; echo TPF-JSON-END'
  echo 'exit $rc'
} > "$out/lock-contention"
chmod +x "$out/lock-contention"
echo "lock-contention /tests/lock-contention"
