#!/bin/bash
# Run scripts/checkpatch.pl --strict on every patch of the series.
#
# Usage: checkpatch.sh TREE PATCHDIR
set -uo pipefail

tree=$1 patchdir=$2
fail=0
for p in $(grep -v '^#' "$patchdir/series"); do
	if out=$(cd "$tree" && ./scripts/checkpatch.pl --strict -q "$patchdir/$p" 2>&1); then
		echo "kernel: checkpatch --strict clean: $p"
	else
		echo "$out"
		echo "kernel: checkpatch --strict FAILED: $p"
		fail=1
	fi
done
exit $fail
