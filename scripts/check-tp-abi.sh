#!/bin/sh
# The kernel's UAPI header is the one definition of the TP futex
# operation numbers (FUTEX_LOCK 64, FUTEX_UNLOCK 65, FUTEX_LOCK_SHARED
# 66, FUTEX_UNLOCK_SHARED 67; include/uapi/linux/futex.h, kernel patch
# 0001).  Print every other definition of one of them in the source tree
# DIR (default: this repository) and fail if there is any: a #define or
# an enumerator of one of those names with a number, a #define of a
# futex or probe operation name to one of those numbers (e.g. a test's
# `#define PROBE_OP 65'), or one of those numbers as the only argument
# of a kernel, probe or futex function (`kernel_path (65)').  Values taken from the header (FUTEX_LOCK,
# TP_FUTEX_LOCK = FUTEX_LOCK) are fine.
#
# kernel/patches is not searched: the patches are diffs, not files; the
# kernel series itself takes the selftests' values from the UAPI header
# (patch 0021).  build/ and .git are not searched either.
#
# Usage: scripts/check-tp-abi.sh [DIR]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top}
names='FUTEX_(UN)?LOCK(_SHARED)?'
nums='(6[4-7]|0x4[0-3])'
found=$(find "$dir" \( -path "$dir/build" -o -path "$dir/.git" \
		       -o -path "$dir/kernel/patches" \) -prune -o \
	  -type f \( -name '*.[ch]' -o -name '*.cc' -o -name '*.py' \
		     -o -name '*.pysym' -o -name '*.sym' \) -print \
	| LC_ALL=C sort \
	| xargs -r grep -nHE \
	  -e "^[[:space:]]*#[[:space:]]*define[[:space:]]+$names[[:space:]]+\\(?$nums\\b" \
	  -e "\\b[A-Za-z0-9_]*$names[[:space:]]*=[[:space:]]*\\(?$nums\\b" \
	  -e "^[[:space:]]*#[[:space:]]*define[[:space:]]+[A-Za-z0-9_]*(FUTEX|_OP)[A-Za-z0-9_]*[[:space:]]+\\(?$nums\\b" \
	  -e "[A-Za-z0-9_]*(kernel|probe|futex|_op)[A-Za-z0-9_]*[[:space:]]*\\([[:space:]]*$nums[[:space:]]*\\)" \
	|| true)
if [ -n "$found" ]; then
  echo "check-tp-abi: TP futex operation numbers defined outside the kernel's UAPI header:" >&2
  echo "$found" | sed "s|^$dir/|  |" >&2
  exit 1
fi
echo "check-tp-abi: no TP futex operation number defined outside the kernel's UAPI header"
