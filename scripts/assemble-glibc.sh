#!/bin/sh
# Assemble the fork's glibc source tree in SRC (default build/src):
#   1. unpack the pinned upstream tarball (checksum verified) into a git
#      repository whose first commit, tagged `upstream', is pristine;
#   2. apply patches/glibc/series on top of it, one commit per patch
#      (`git am'), re-applying only when the series or a patch changed;
#   3. copy the overlay files (nptl/, sysdeps/, benchtests/) in, failing
#      if one has the path of an upstream file, copying only files whose
#      content changed so that glibc's make rebuilds only what it must.
#
# The tree doubles as the patch queue: commit changes to upstream files
# there and run scripts/export-patches.sh to write them back.

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/upstream.conf"
src=${1:-$top/build/src}
case $src in /*) ;; *) src=$(pwd)/$src ;; esac
patchdir=$top/patches/glibc
overlay_dirs="nptl sysdeps benchtests"

say() { echo "assemble-glibc: $*"; }
die() { echo "assemble-glibc: error: $*" >&2; exit 1; }
. "$top/scripts/glibc-tarball.sh"

git_src() {
  git -C "$src" -c user.name="TPF build" -c user.email=tpf@localhost \
      -c advice.detachedHead=false "$@"
}

# 1. Unpack.
if [ ! -d "$src/.git" ]; then
  glibc_tarball_check
  rm -rf "$src.tmp"
  mkdir -p "$src.tmp"
  say "unpacking into $src"
  tar -xJf "$GLIBC_TARBALL" -C "$src.tmp" --strip-components=1
  git -C "$src.tmp" init -q
  say "recording the pristine tree as commit \`upstream'"
  git -C "$src.tmp" add -A
  git -C "$src.tmp" -c user.name="TPF build" -c user.email=tpf@localhost \
      commit -q -m "glibc 2.36 as shipped by Debian ($GLIBC_DEB_PACKAGE $GLIBC_DEB_VERSION)"
  git -C "$src.tmp" tag upstream
  mv "$src.tmp" "$src"
fi
state=$src/.git/tpf

# 2. Patches, re-applied when the series' identity changed.
series_hash=$("$top/scripts/series-hash.sh")
applied_hash=$(cat "$state-series" 2>/dev/null || true)
if [ "$series_hash" != "$applied_hash" ]; then
  if [ -f "$state-head" ] && [ "$(git_src rev-parse HEAD)" != "$(cat "$state-head")" ]; then
    die "$src has commits that are not in patches/glibc: run scripts/export-patches.sh (make export-patches) first, or drop them with: git -C $src reset --hard $(cat "$state-head")"
  fi
  git_src diff --quiet HEAD \
    || die "$src has uncommitted changes to upstream files: commit and export them, or discard them"
  say "applying patches/glibc/series"
  git_src checkout -q --detach upstream
  for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$patchdir/series"); do
    [ -f "$patchdir/$p" ] || die "series names $p, which does not exist"
    say "  $p"
    git_src am -q --keep-cr "$patchdir/$p" \
      || { git_src am --abort; die "$p does not apply"; }
  done
  git_src rev-parse HEAD > "$state-head"
  echo "$series_hash" > "$state-series"
fi

# 3. Overlay.
cd "$top"
find $overlay_dirs -type f ! -name '*~' ! -name '.*' ! -path '*/__pycache__/*' 2>/dev/null | LC_ALL=C sort > "$state-overlay.new"
git_src ls-tree -r --name-only upstream | LC_ALL=C sort > "$state-upstream-files"
clash=$(LC_ALL=C comm -12 "$state-overlay.new" "$state-upstream-files")
[ -z "$clash" ] || die "overlay files would overwrite upstream files (change those through patches/glibc): $clash"
patched=$(git_src diff --name-only upstream HEAD | LC_ALL=C sort)
clash=$(echo "$patched" | LC_ALL=C comm -12 "$state-overlay.new" -)
[ -z "$clash" ] || die "overlay files clash with files created by patches/glibc: $clash"

# Files that left the overlay leave the tree.
if [ -f "$state-overlay" ]; then
  LC_ALL=C comm -23 "$state-overlay" "$state-overlay.new" | while read -r f; do
    say "removing $f (no longer in the overlay)"
    rm -f "$src/$f"
  done
fi
copied=0
while read -r f; do
  if ! cmp -s "$f" "$src/$f"; then
    mkdir -p "$src/$(dirname "$f")"
    cp "$f" "$src/$f"
    copied=$((copied + 1))
  fi
done < "$state-overlay.new"
mv "$state-overlay.new" "$state-overlay"
# Keep overlay files out of the patch queue.
cp "$state-overlay" "$src/.git/info/exclude"
say "overlay: $(wc -l < "$state-overlay") files, $copied updated"
