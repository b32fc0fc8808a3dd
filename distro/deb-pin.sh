#!/bin/sh
# Resolve the Debian source version to use for a pinned source package:
# the pinned one when the archive still has it, else the newest the
# archive has (with a warning on stderr).  Prints `VERSION STATUS' where
# STATUS is `pinned' or `fallback-from-PINNED'.
#
# Usage: distro/deb-pin.sh SOURCE-PACKAGE PINNED-VERSION
set -eu
src=$1 pin=$2
versions=$(apt-cache showsrc "$src" 2>/dev/null | sed -n 's/^Version: //p' | sort -u)
[ -n "$versions" ] || {
  echo "deb-pin: the archive has no source package $src: run scripts/enable-deb-src.sh (make deb-deps)" >&2
  exit 1
}
if echo "$versions" | grep -qxF "$pin"; then
  echo "$pin pinned"
  exit 0
fi
# Newest by Debian version order.
newest=
for v in $versions; do
  if [ -z "$newest" ] || dpkg --compare-versions "$v" gt "$newest"; then newest=$v; fi
done
echo "deb-pin: WARNING: $src $pin (upstream.conf) is gone from the archive;" \
     "falling back to $newest" >&2
echo "$newest fallback-from-$pin"
