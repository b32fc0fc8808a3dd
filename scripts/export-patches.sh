#!/bin/sh
# Write the commits of the patch-queue tree (build/src, on top of the
# `upstream' tag) back to patches/glibc as `git format-patch' files and
# rewrite patches/glibc/series to list them in order.

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
src=${1:-$top/build/src}
patchdir=$top/patches/glibc

[ -d "$src/.git" ] || { echo "export-patches: no patch queue in $src: run make patch-queue" >&2; exit 1; }
git -C "$src" diff --quiet HEAD \
  || { echo "export-patches: $src has uncommitted changes: commit them first" >&2; exit 1; }
rm -f "$patchdir"/*.patch
git -C "$src" format-patch -q --no-signature --zero-commit --no-numbered \
    -o "$patchdir" upstream..HEAD
(cd "$patchdir" && ls -1 -- *.patch 2>/dev/null > series) || : > "$patchdir/series"
git -C "$src" rev-parse HEAD > "$src/.git/tpf-head"
# The series now matches the tree: record it so assembly does not re-apply.
"$top/scripts/series-hash.sh" > "$src/.git/tpf-series"
echo "export-patches: $(wc -l < "$patchdir/series") patches written to patches/glibc"
