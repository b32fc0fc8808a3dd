#!/bin/bash
# Build the futex selftests (stock and TP) as static binaries.
#
# Usage: build-selftests.sh TREE OBJ OUTDIR LOG
set -euo pipefail

# Do not pass the including make's flags and command-line variables
# (CFLAGS=..., -k, jobserver) down to Kbuild.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

tree=$1 obj=$2 out=$3 log=$4
mkdir -p "$out" "$(dirname "$log")"
echo "kernel: building futex selftests (static) into $out"
make -s -C "$tree" O="$obj" headers_install >"$log" 2>&1
make -C "$tree/tools/testing/selftests/futex/functional" CC="${KERNEL_HOSTCC:-gcc}" \
	OUTPUT="$out" KHDR_INCLUDES="-isystem $obj/usr/include" \
	LDFLAGS=-static >>"$log" 2>&1 || {
	tail -20 "$log" >&2
	echo "kernel: selftest build failed, see $log" >&2
	exit 1
}
