#!/bin/sh
# Generate the shipped glibc series from the hook patches and the
# overlay: one `git format-patch' file per hook patch of
# patches/glibc/series, each carrying the overlay files that
# patches/glibc/overlay.map assigns to it as new files, then one patch
# that adds patches/glibc/NEWS.entry to NEWS.  Every patch gets a
# `* FILE: New file.' ChangeLog line per file it adds and the exporter's
# Signed-off-by (the Developer's Certificate of Origin: the person who
# runs this passes the patches on).  The overlay stays the place to
# edit; this series is what a distribution applies.
#
# Usage: scripts/export-series.sh [--check-map] [OUTDIR]
#   OUTDIR   default build/series/glibc: NNNN-*.patch and `series'
#   --check-map  only check the map against the overlay and the series
# Environment: TPF_SIGNOFF="Name <email>" (default: git config user.name
# and user.email of this repository).
#
# The map check fails when an overlay file is not mapped, is mapped
# twice, does not exist, or is mapped to a patch number that is not in
# the series; a hook patch whose message lacks a body or a ChangeLog
# block (lines starting with a tab and `* ') fails the export.

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/upstream.conf"
patchdir=$top/patches/glibc
map=$patchdir/overlay.map
overlay_dirs="nptl sysdeps benchtests"
check_only=no
if [ "${1-}" = --check-map ]; then check_only=yes; shift; fi
out=${1:-$top/build/series/glibc}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
work=$top/build/series/tree

say() { echo "export-series: $*"; }
die() { echo "export-series: error: $*" >&2; exit 1; }
. "$top/scripts/glibc-tarball.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ------------------------------------------------------------ the map
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$patchdir/series" > "$tmp/series"
(cd "$top" && find $overlay_dirs -type f ! -name '*~' ! -name '.*' \
   ! -path '*/__pycache__/*' | LC_ALL=C sort) > "$tmp/overlay"
# One `NUMBER FILE' line per mapped file.
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$map" \
  | awk '{ for (i = 2; i <= NF; i++) print $1, $i }' > "$tmp/pairs"
bad=0
while read -r num file; do
  n=$(grep -c "^$num-" "$tmp/series" || true)
  [ "$n" = 1 ] || { echo "export-series: $map: $file: patch $num is in the series $n times (want once)" >&2; bad=1; }
  [ -f "$top/$file" ] || { echo "export-series: $map: $file does not exist" >&2; bad=1; }
done < "$tmp/pairs"
awk '{ print $2 }' "$tmp/pairs" | LC_ALL=C sort > "$tmp/mapped"
dups=$(uniq -d "$tmp/mapped")
[ -z "$dups" ] || { echo "export-series: $map: mapped more than once:" $dups >&2; bad=1; }
unmapped=$(LC_ALL=C sort -u "$tmp/mapped" | LC_ALL=C comm -23 "$tmp/overlay" -)
[ -z "$unmapped" ] || {
  echo "export-series: overlay files not in $map (say which patch adds them):" >&2
  echo "$unmapped" | sed 's/^/  /' >&2
  bad=1
}
[ "$bad" = 0 ] || die "the overlay map does not match the overlay and the series"
say "map: $(wc -l < "$tmp/overlay") overlay files over $(awk '{print $1}' "$tmp/pairs" | sort -u | wc -l) of $(wc -l < "$tmp/series") patches"
[ "$check_only" = no ] || exit 0

# ------------------------------------------------------------ identity
signoff=${TPF_SIGNOFF:-}
if [ -z "$signoff" ]; then
  name=$(git -C "$top" config user.name || true)
  email=$(git -C "$top" config user.email || true)
  [ -n "$name" ] && [ -n "$email" ] \
    || die "no identity for Signed-off-by: set git config user.name/user.email or TPF_SIGNOFF"
  signoff="$name <$email>"
fi
sname=${signoff% <*}
semail=${signoff##*<}; semail=${semail%>}

g() {
  git -C "$work" -c gc.auto=0 -c user.name="$sname" -c user.email="$semail" \
      -c advice.detachedHead=false "$@"
}

# ------------------------------------------------------------ the tree
glibc_tarball_check
say "unpacking $GLIBC_TARBALL into $work"
rm -rf "$work"
mkdir -p "$work"
tar -xJf "$GLIBC_TARBALL" -C "$work" --strip-components=1
g init -q
g add -A
g commit -q -m "glibc 2.36 ($GLIBC_DEB_PACKAGE $GLIBC_DEB_VERSION)"
g tag upstream

# Append the ChangeLog lines in $2 (may be empty) and the sign-off to the
# message in file $1, before any trailers already at its end.
finish_message() {
  awk -v extra="$2" '
    { line[++n] = $0 }
    END {
      while (n > 0 && line[n] ~ /^[[:space:]]*$/) n--
      # Trailing trailer block (Key: value lines after a blank line).
      t = n
      while (t > 0 && line[t] ~ /^[A-Za-z][A-Za-z0-9-]*: /) t--
      if (t == n || line[t] !~ /^[[:space:]]*$/) t = n
      body_end = (t == n) ? n : t - 1
      for (i = 1; i <= body_end; i++) print line[i]
      if (extra != "") {
        if (line[body_end] !~ /^\t/) print ""
        printf "%s", extra
      }
      if (t < n) { print ""; for (i = t + 1; i <= n; i++) print line[i] }
    }' "$1" > "$1.new"
  mv "$1.new" "$1"
  git interpret-trailers --in-place --if-exists addIfDifferent \
    --trailer "Signed-off-by: $signoff" "$1"
}

for p in $(cat "$tmp/series"); do
  num=${p%%-*}
  [ -f "$patchdir/$p" ] || die "series names $p, which does not exist"
  g am -q --keep-cr "$patchdir/$p" || { g am --abort; die "$p does not apply"; }
  g log -1 --format=%B > "$tmp/msg"
  # What and why: a body, and a ChangeLog block.
  [ "$(sed -n '3,$p' "$tmp/msg" | grep -c '[^[:space:]]')" -gt 0 ] \
    || die "$p: its message has no body (say what and why)"
  grep -q "$(printf '^\t\\* ')" "$tmp/msg" \
    || die "$p: its message has no ChangeLog block (lines starting with a tab and \`* FILE')"
  extra=
  for f in $(awk -v n="$num" '$1 == n { print $2 }' "$tmp/pairs"); do
    mkdir -p "$work/$(dirname "$f")"
    cp "$top/$f" "$work/$f"
    g add -- "$f"
    extra="$extra	* $f: New file.
"
  done
  finish_message "$tmp/msg" "$extra"
  g commit -q --amend --no-verify -F "$tmp/msg"
  say "  $(g log -1 --format=%s) (+$(printf '%s' "$extra" | grep -c . || true) files)"
done

# NEWS, last, so that hook patches appended to the series keep it last.
news=$patchdir/NEWS.entry
[ -f "$news" ] || die "$news missing"
awk -v entry="$news" '
  !done && /^Major new features:/ { print; getline; print
    while ((getline l < entry) > 0) print l
    done = 1; next }
  { print }
  END { if (!done) exit 1 }' "$work/NEWS" > "$tmp/NEWS" \
  || die "NEWS has no \`Major new features:' section"
cp "$tmp/NEWS" "$work/NEWS"
g add NEWS
printf '%s\n' "NEWS: Describe the TPF lock kinds and tunables" "" \
  "The user-visible changes of the series above, for the release notes" \
  "of a distribution that ships it." "" \
  "	* NEWS: Describe the TP mutex protocol, the phase-fair and TP rwlock" \
  "	kinds and their tunables." > "$tmp/msg"
finish_message "$tmp/msg" ""
g commit -q --no-verify --date="$(g log -1 --format=%aD)" -F "$tmp/msg"

# The series must end where `make' (hooks + overlay) ends, NEWS aside.
for f in $(cat "$tmp/overlay"); do
  cmp -s "$top/$f" "$work/$f" || die "$f differs between the overlay and the series' end"
done

rm -rf "$out"
mkdir -p "$out"
g format-patch -q --no-signature --zero-commit -o "$out" upstream..HEAD
(cd "$out" && ls -1 -- *.patch > series)
{
  echo "glibc series generated by scripts/export-series.sh"
  echo "base: $GLIBC_DEB_PACKAGE $GLIBC_DEB_VERSION ($GLIBC_TARBALL, sha256 $GLIBC_TARBALL_SHA256)"
  echo "source: $(git -C "$top" rev-parse HEAD)$(git -C "$top" diff --quiet HEAD -- patches nptl sysdeps benchtests || echo ' + uncommitted changes')"
} > "$out/SOURCE"
say "$(wc -l < "$out/series") patches written to $out"
