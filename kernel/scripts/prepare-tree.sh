#!/bin/bash
# Unpack the pinned linux-source tarball into a git repository and apply
# kernel/patches/series on top of it as commits.
#
# Usage: prepare-tree.sh TARBALL SHA256 TOPDIR PATCHDIR TREE [PACKAGE VERSION]
#
# SHA256 is the checksum of the tarball of PACKAGE at VERSION (the pin,
# upstream.conf).  If another version of PACKAGE is installed (the pin
# gone from the archive: scripts/install-deps.sh falls back to the
# archive's version), there is nothing to verify it against: the tree is
# made from it with a warning, and the series must apply on it.
#
# The tree's first commit is tagged tpf-base.  The series is re-applied
# only when the patches differ from those last applied or exported (their
# sha256 is kept in TREE/.git/tpf-series.sha256), and never over
# uncommitted changes or commits that were not exported.
set -euo pipefail

tarball=$1 sha=$2 topdir=$3 patchdir=$4 tree=$5 package=${6:-} version=${7:-}
stampdir=$tree/.git
say() { echo "kernel: $*"; }

series_sum() {
	(cd "$patchdir" && cat series $(grep -v '^#' series)) | sha256sum | cut -d' ' -f1
}

if [ ! -d "$tree/.git" ]; then
	pin="$version pinned"
	if [ -n "$package" ]; then
		pin=$("$(dirname "$0")/../../scripts/pin-used.sh" "$package" "$version")
	fi
	if [ "${pin#* }" = pinned ]; then
		say "verifying $tarball"
		echo "$sha  $tarball" | sha256sum -c --quiet -
	else
		say "WARNING: $package ${pin% *}, not the pinned $version (no checksum to verify); the series must apply on it"
	fi
	say "unpacking $topdir into $tree"
	rm -rf "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -C "$tree.tmp" -xf "$tarball"
	mv "$tree.tmp/$topdir" "$tree"
	rmdir "$tree.tmp"
	say "creating the base commit (git)"
	cd "$tree"
	git init -q
	git config user.name "TPF Developers"
	git config user.email tpf@localhost
	# Debian's .gitignore ignores the whole top level: force.
	git add -f -A .
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
		git commit -q -m "Linux $topdir (pristine, $(basename "$tarball"))"
	git tag tpf-base
fi

cd "$tree"
want=$(series_sum)
have=$(cat "$stampdir/tpf-series.sha256" 2>/dev/null || true)
if [ "$want" = "$have" ]; then
	say "series unchanged, tree up to date"
	exit 0
fi

if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "kernel: $tree has uncommitted changes and kernel/patches changed;" >&2
	echo "kernel: commit and run 'make kernel-export-patches', or discard them" >&2
	exit 1
fi
if [ -f "$stampdir/tpf-head" ] && [ "$(git rev-parse HEAD)" != "$(cat "$stampdir/tpf-head")" ]; then
	echo "kernel: $tree has commits that were never exported, and kernel/patches changed;" >&2
	echo "kernel: run 'make kernel-export-patches' first, or 'git -C $tree reset --hard $(cat "$stampdir/tpf-head")'" >&2
	exit 1
fi

say "applying $(grep -vc '^#' "$patchdir/series") patches from kernel/patches/series"
git reset -q --hard tpf-base
grep -v '^#' "$patchdir/series" | while read -r p; do
	[ -n "$p" ] || continue
	say "  $p"
	git am -q --committer-date-is-author-date "$patchdir/$p"
done
git rev-parse HEAD > "$stampdir/tpf-head"
echo "$want" > "$stampdir/tpf-series.sha256"
say "tree at $(git log --oneline -1)"
