#!/bin/bash
# Build Debian's glibc source package with the fork's series, the Debian
# way: `apt-get source' of the pinned version (or, when the archive has
# lost it, of the version it has: see distro/deb-pin.sh), the series
# copied to debian/patches/tpf/ and appended to debian/patches/series, a
# debian/changelog entry with a local version (VERSION+tpfN), and
# dpkg-buildpackage for the architecture-dependent packages of the amd64
# flavour only (profiles nobiarch, noudeb, nocheck; DEB_BUILD_OPTIONS
# nocheck parallel=JOBS), against the TPF kernel's UAPI headers
# (LINUX_SOURCE, which Debian's debian/sysdeps/linux.mk reads).  The
# build runs niced, with a progress line every 30 seconds and its
# output in LOG.
#
# Usage: distro/deb-glibc.sh SERIESDIR HEADERS-PREFIX OUTDIR LOG JOBS
#   SERIESDIR       build/series/glibc (make export-series)
#   HEADERS-PREFIX  a directory with include/linux/futex.h (make
#                   kernel-headers: build/kernel-headers)
#   OUTDIR          the source tree and the .deb files; OUTDIR/BUILD-INFO
#                   records the versions used and the time taken.
# Environment: TPF_DEB_REVISION (default 1: the +tpf1 suffix).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/upstream.conf"
series=$1 headers=$2 out=$3 log=$4 jobs=$5
rev=${TPF_DEB_REVISION:-1}
say() { echo "deb-glibc: $*"; }
die() { echo "deb-glibc: error: $*" >&2; exit 1; }
[ -f "$series/series" ] || die "no series in $series (make export-series)"
grep -q '^#define FUTEX_LOCK[[:space:]]' "$headers/include/linux/futex.h" 2>/dev/null \
  || die "$headers/include/linux/futex.h lacks the TP futex ops (make kernel-headers)"
[ "$(id -u)" = 0 ] || die "must run as root (apt-get build-dep)"
mkdir -p "$out" "$(dirname "$log")"
out=$(cd "$out" && pwd)
: > "$log"
# A private copy of the headers: a `make kernel-headers' meanwhile must
# not change them under the build.
rm -rf "$out/kernel-headers"
mkdir -p "$out/kernel-headers"
cp -a "$headers/include" "$out/kernel-headers/"
headers=$out/kernel-headers

# 1. The version: pinned, or what the archive has.
read -r version pinstate < <("$top/distro/deb-pin.sh" glibc "$GLIBC_DEB_VERSION")
[ "$pinstate" = pinned ] || say "WARNING: $GLIBC_DEB_VERSION is gone from the archive; building $version instead"
debver=$version+tpf$rev

# 2. Source and build dependencies, the Debian way.
say "apt-get source glibc=$version (into $out)"
rm -rf "$out"/glibc-[0-9]* "$out"/glibc_* "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
(cd "$out" && apt-get source -q glibc="$version") >> "$log" 2>&1 \
  || { tail -5 "$log" >&2; die "apt-get source glibc=$version failed (deb-src entries: scripts/enable-deb-src.sh)"; }
srcdir=$(find "$out" -mindepth 1 -maxdepth 1 -type d -name 'glibc-*' | head -1)
[ -n "$srcdir" ] && [ -f "$srcdir/debian/patches/series" ] || die "no unpacked glibc source in $out"
say "apt-get build-dep glibc=$version (profiles nobiarch, noudeb, nocheck)"
DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q --no-install-recommends \
  -P nobiarch,noudeb,nocheck glibc="$version" >> "$log" 2>&1 \
  || { tail -5 "$log" >&2; die "apt-get build-dep failed"; }

# 3. The series, in its own directory, after Debian's patches.
mkdir -p "$srcdir/debian/patches/tpf"
cp "$series"/*.patch "$srcdir/debian/patches/tpf/"
n_debian=$(grep -c '^[^#[:space:]]' "$srcdir/debian/patches/series")
{
  echo "# TPF: throughput-optimized and phase-fair locks (scripts/export-series.sh)"
  sed 's|^|tpf/|' "$series/series"
} >> "$srcdir/debian/patches/series"
say "debian/patches/series: $n_debian Debian patches + $(wc -l < "$series/series") in tpf/"

# 4. The changelog entry.
dist=$(dpkg-parsechangelog -l "$srcdir/debian/changelog" -S Distribution)
who=${DEBFULLNAME:-$(git -C "$top" config user.name || echo TPF)}
mail=${DEBEMAIL:-$(git -C "$top" config user.email || echo tpf@localhost)}
src_commit=$(sed -n 's/^source: //p' "$series/SOURCE" 2>/dev/null || true)
{
  echo "glibc ($debver) $dist; urgency=medium"
  echo
  echo "  * TPF test build: throughput-optimized (TP) mutexes, phase-fair and TP"
  echo "    rwlocks in NPTL, with their tunables (debian/patches/tpf/, the"
  echo "    series generated from TPF ${src_commit:-unknown})."
  echo "  * Built against the TPF kernel's UAPI headers (FUTEX_LOCK and"
  echo "    FUTEX_UNLOCK from <linux/futex.h>)."
  [ "$pinstate" = pinned ] || echo "  * Based on $version: the pinned $GLIBC_DEB_VERSION is gone from the archive."
  echo
  echo " -- $who <$mail>  $(date -R)"
  echo
  cat "$srcdir/debian/changelog"
} > "$srcdir/debian/changelog.new"
mv "$srcdir/debian/changelog.new" "$srcdir/debian/changelog"
[ "$(dpkg-parsechangelog -l "$srcdir/debian/changelog" -S Version)" = "$debver" ] \
  || die "debian/changelog does not parse to $debver"

# 5. Apply (fails early and clearly if the series does not apply on top
# of Debian's patches), then build.
say "applying debian/patches/series (dpkg-source --before-build)"
(cd "$srcdir" && dpkg-source --before-build .) >> "$log" 2>&1 \
  || { tail -15 "$log" >&2; die "the series does not apply on glibc $version"; }

say "dpkg-buildpackage -B (amd64 only, nice 19, -j$jobs), log in $log"
start=$(date +%s)
(
  cd "$srcdir"
  export DEB_BUILD_PROFILES="nobiarch noudeb nocheck"
  export DEB_BUILD_OPTIONS="nocheck parallel=$jobs"
  export LINUX_SOURCE="$headers"
  exec nice -n 19 dpkg-buildpackage -B -uc -us -P"nobiarch,noudeb,nocheck"
) >> "$log" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
  for _ in $(seq 30); do sleep 1; kill -0 "$pid" 2>/dev/null || break; done
  kill -0 "$pid" 2>/dev/null && say "  ... $(( $(date +%s) - start ))s: $(grep -v '^[[:space:]]*$' "$log" | tail -1 | cut -c1-100)"
done
wait "$pid" || { tail -25 "$log" >&2; die "dpkg-buildpackage failed, see $log"; }
secs=$(( $(date +%s) - start ))

# 6. It must really have used the TPF headers.
link=$(readlink "$srcdir/debian/include/linux" || true)
[ "$link" = "$headers/include/linux" ] \
  || die "the build used kernel headers from ${link:-?}, not $headers/include"
ls "$out"/libc6_"${debver#*:}"_*.deb >/dev/null 2>&1 || die "no libc6 $debver package in $out"
{
  echo "glibc source package: $version ($pinstate; upstream.conf pins $GLIBC_DEB_VERSION)"
  echo "binary version: $debver"
  echo "series: $(wc -l < "$series/series") patches, TPF ${src_commit:-unknown}"
  echo "kernel headers: $headers/include"
  echo "dpkg-buildpackage -B, profiles nobiarch noudeb nocheck, parallel=$jobs: $secs s"
  echo "packages:"
  (cd "$out" && ls -1 *.deb | sed 's/^/  /')
} > "$out/BUILD-INFO"
say "done in $secs s:"
cat "$out/BUILD-INFO"
