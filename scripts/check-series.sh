#!/bin/sh
# Prove the shipped glibc series bisectable: apply it one patch at a time
# (`git am') onto the pinned source and build glibc after each patch,
# incrementally, in one object directory configured once on the pristine
# tree (--with-headers=HEADERS, the TPF kernel's UAPI headers).  Writes
# RESULTS/series.sum: a PASS or FAIL line per patch (`PASS: 0007-...'),
# the pristine build as `PASS: base', the wall time of each step, and
# the END line; the build logs are WORK/logs/NNNN.log.
#
# Usage: scripts/check-series.sh SERIESDIR WORK HEADERS RESULTS JOBS CONFIGURE-FLAGS...
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/upstream.conf"
series=$1 work=$2 headers=$3 results=$4 jobs=$5
shift 5
src=$work/src obj=$work/obj logs=$work/logs
sum=$results/series.sum
say() { echo "check-series: $*"; }
die() { echo "check-series: error: $*" >&2; exit 1; }
. "$top/scripts/glibc-tarball.sh"
[ -f "$series/series" ] || die "no series in $series (make export-series)"
[ -f "$headers/linux/futex.h" ] || die "no kernel headers in $headers (make kernel-headers)"

rm -rf "$work"
mkdir -p "$src" "$obj" "$logs" "$results"
start=$(date +%s)

glibc_tarball_check
say "unpacking $GLIBC_TARBALL"
{
  echo "series: $(wc -l < "$series/series") patches from $series"
  sed 's/^/series: /' "$series/SOURCE" 2>/dev/null || true
  echo "base: $GLIBC_DEB_PACKAGE $GLIBC_DEB_VERSION ($GLIBC_TARBALL)"
} > "$sum.tmp"
tar -xJf "$GLIBC_TARBALL" -C "$src" --strip-components=1
git -C "$src" init -q
git -C "$src" add -A
git -C "$src" -c gc.auto=0 -c user.name=tpf -c user.email=tpf@localhost commit -q -m base

# Build the tree as it is now; NAME for the result line.  A progress
# line every 30 seconds.
build() {
  name=$1
  t0=$(date +%s)
  make -C "$obj" -j"$jobs" MAKEINFO=: > "$logs/$name.log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    for _ in $(seq 30); do sleep 1; kill -0 "$pid" 2>/dev/null || break; done
    kill -0 "$pid" 2>/dev/null && say "  $name: building, $(( $(date +%s) - t0 ))s"
  done
  if wait "$pid"; then
    echo "PASS: $name ($(( $(date +%s) - t0 )) s)" >> "$sum.tmp"
    say "$name builds ($(( $(date +%s) - t0 )) s)"
  else
    echo "FAIL: $name ($(( $(date +%s) - t0 )) s, $logs/$name.log)" >> "$sum.tmp"
    grep -E 'error|Error' "$logs/$name.log" | head -5 >&2
    say "$name does NOT build, see $logs/$name.log"
    failed=1
  fi
}

say "configuring (pristine tree, --with-headers=$headers)"
(cd "$obj" && "$src/configure" "$@" --with-headers="$headers" \
   > "$logs/configure.log" 2>&1) || die "configure failed, see $logs/configure.log"
failed=0
build base
for p in $(cat "$series/series"); do
  name=${p%.patch}
  if git -C "$src" -c gc.auto=0 -c user.name=tpf -c user.email=tpf@localhost am -q --keep-cr "$series/$p"; then
    build "$name"
  else
    git -C "$src" am --abort
    echo "FAIL: $name (does not apply)" >> "$sum.tmp"
    failed=1
    break
  fi
done
echo "END: $(( $(date +%s) - start )) s, exit $failed" >> "$sum.tmp"
mv "$sum.tmp" "$sum"
cat "$sum"
exit "$failed"
