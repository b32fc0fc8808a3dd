#!/bin/bash
# Build the patched Linux 6.1 tree (build/linux, made by `make
# kernel-tree') as Debian binary packages with Kbuild's `make
# bindeb-pkg': linux-image-*, linux-headers-* and linux-libc-dev, the
# last carrying the TP futex UAPI.  The configuration is the VM's
# (tinyconfig + kernel/config.fragment), in an object directory of its
# own, so the VM's build is not disturbed.  Runs niced; a progress line
# every 30 seconds; the full output in LOG.
#
# Usage: distro/deb-kernel.sh TREE FRAGMENT OUTDIR JOBS LOG DEBVERSION
#   The packages land in OUTDIR; OUTDIR/obj is the object directory.
#   DEBVERSION is the Debian version of the packages (KDEB_PKGVERSION).
set -euo pipefail
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

abs() { mkdir -p "$1" && (cd "$1" && pwd); }
tree=$(abs "$1") out=$(abs "$3") jobs=$4 debver=$6
frag=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
log=$(abs "$(dirname "$5")")/$(basename "$5")
obj=$out/obj
say() { echo "deb-kernel: $*"; }
die() { echo "deb-kernel: error: $*" >&2; exit 1; }
[ -d "$tree/.git" ] || die "no kernel tree in $tree (make kernel-tree)"
mkdir -p "$obj" "$(dirname "$log")"
: > "$log"

id="$(git -C "$tree" rev-parse HEAD) $(sha256sum < "$frag" | cut -d' ' -f1)"
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.tpf-config-id" 2>/dev/null)" != "$id" ]; then
	say "configuring: tinyconfig + $(basename "$frag") (the VM's configuration)"
	make -s -C "$tree" O="$obj" tinyconfig >>"$log" 2>&1
	"$tree/scripts/kconfig/merge_config.sh" -O "$obj" -m "$obj/.config" "$frag" >>"$log" 2>&1
	make -s -C "$tree" O="$obj" olddefconfig >>"$log" 2>&1
	grep -qx 'CONFIG_64BIT=y' "$obj/.config" || die "the configuration is not 64-bit (see $log)"
	echo "$id" > "$obj/.tpf-config-id"
fi

rm -f "$out"/*.deb "$out"/*.buildinfo "$out"/*.changes
say "make bindeb-pkg -j$jobs (nice 19), version $debver, log in $log"
start=$(date +%s)
nice -n 19 make -C "$tree" O="$obj" -j"$jobs" KDEB_PKGVERSION="$debver" \
	KDEB_SOURCENAME=linux-tpf KBUILD_BUILD_USER=tpf KBUILD_BUILD_HOST=tpf \
	bindeb-pkg >>"$log" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	for _ in $(seq 30); do
		sleep 1
		kill -0 "$pid" 2>/dev/null || break
	done
	kill -0 "$pid" 2>/dev/null && say "  ... $(( $(date +%s) - start ))s, at: $(grep -E '^  [A-Z]|dpkg-deb' "$log" | tail -1 | sed 's/^ *//')"
done
wait "$pid" || { tail -20 "$log" >&2; die "bindeb-pkg failed, see $log"; }
ls "$out"/linux-libc-dev_*.deb >/dev/null 2>&1 || die "no linux-libc-dev package in $out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$out"/linux-libc-dev_*.deb "$tmp"
[ -f "$tmp/usr/include/linux/futex.h" ] || die "linux-libc-dev has no linux/futex.h"
grep -q '#define FUTEX_LOCK[[:space:]]' "$tmp/usr/include/linux/futex.h" \
	|| die "linux-libc-dev's linux/futex.h lacks FUTEX_LOCK: not the TPF series?"
{
	echo "kernel: $(git -C "$tree" log -1 --format='%h %s' HEAD)"
	echo "configuration: tinyconfig + $(basename "$frag") (the VM's)"
	echo "make bindeb-pkg -j$jobs, KDEB_PKGVERSION=$debver: $(( $(date +%s) - start )) s"
	echo "packages:"
	(cd "$out" && ls -1 *.deb | sed 's/^/  /')
} > "$out/BUILD-INFO"
say "done in $(( $(date +%s) - start ))s:"
ls -1 "$out"/*.deb | sed 's/^/  /'
