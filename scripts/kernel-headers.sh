#!/bin/sh
# Install the patched kernel's UAPI headers (`make headers_install' of
# the kernel tree that `make kernel-tree' prepares) into DEST/include:
# the one source of the TP futex ABI for glibc (configured
# --with-headers=DEST/include), its tests and its pretty-printers.
# Redone only when the kernel tree's HEAD changed.
#
# Usage: scripts/kernel-headers.sh TREE OBJ DEST LOG [ARCH]
#   OBJ  a scratch object directory; ARCH the kernel's (default x86)
set -eu
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
tree=$1 obj=$2 dest=$3 log=$4 arch=${5:-x86}
say() { echo "kernel-headers: $*"; }
die() { echo "kernel-headers: error: $*" >&2; exit 1; }
[ -d "$tree/.git" ] || die "no kernel tree in $tree (make kernel-tree)"
id="$(git -C "$tree" rev-parse HEAD) $arch"
if [ -f "$dest/.tpf-headers-id" ] && [ "$(cat "$dest/.tpf-headers-id")" = "$id" ] \
   && [ -f "$dest/include/linux/futex.h" ]; then
  exit 0
fi
mkdir -p "$obj" "$(dirname "$log")"
say "make headers_install ($arch) into $dest, log in $log"
# Into a new directory, then swapped in, so that a build reading DEST
# never sees it half installed.
rm -rf "$dest.new"
make -C "$tree" O="$obj" ARCH="$arch" INSTALL_HDR_PATH="$dest.new" \
  headers_install > "$log" 2>&1 || { tail -20 "$log" >&2; die "headers_install failed"; }
grep -q '^#define FUTEX_LOCK[[:space:]]' "$dest.new/include/linux/futex.h" \
  || die "$dest.new/include/linux/futex.h has no FUTEX_LOCK: is the TPF series applied in $tree?"
echo "$id" > "$dest.new/.tpf-headers-id"
rm -rf "$dest.old"
[ ! -d "$dest" ] || mv "$dest" "$dest.old"
mv "$dest.new" "$dest"
rm -rf "$dest.old"
say "done: $dest/include"
