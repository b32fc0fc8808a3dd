#!/bin/bash
# Build the test VM's initramfs (gzip'd newc cpio).
#
# Usage: mkinitramfs.sh OUT.cpio.gz INIT TESTLIST TESTDIR [EXTRA_DIR...]
#   INIT      the init script (kernel/vm/init)
#   TESTLIST  lines "name command...", installed as /etc/tpf/tests
#   TESTDIR   programs, copied to /tests
#   EXTRA_DIR directories whose contents are copied into the root
# TPF_VM_TIMEOUT (seconds per test) is written to /etc/tpf/timeout.
set -euo pipefail

out=$1 init=$2 list=$3 testdir=$4
shift 4
busybox=${BUSYBOX:-/bin/busybox}
if [ ! -x "$busybox" ] || readelf -l "$busybox" | grep -q INTERP; then
	echo "kernel: $busybox is not a static busybox (install busybox-static)" >&2
	exit 1
fi

root=$(mktemp -d "${TMPDIR:-/tmp}/tpf-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,etc/tpf,proc,sys,dev,tmp,tests,usr/bin}
cp "$busybox" "$root/bin/busybox"
cp "$init" "$root/init"
chmod 755 "$root/init"
cp "$list" "$root/etc/tpf/tests"
echo "${TPF_VM_TIMEOUT:-300}" > "$root/etc/tpf/timeout"
cp -a "$testdir"/. "$root/tests/"
for d in "$@"; do
	[ -n "$d" ] || continue
	cp -a "$d"/. "$root/"
done
(cd "$root" && find . -print0 | sort -z | cpio --null -o -H newc --quiet) | gzip -6 > "$out.tmp"
mv "$out.tmp" "$out"
echo "kernel: initramfs $out ($(du -h "$out" | cut -f1))"
