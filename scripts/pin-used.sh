#!/bin/sh
# Which version of a pinned Debian source package the build uses: the
# pinned one (upstream.conf) when it is installed, else the installed
# one (install-deps.sh falls back to the archive's version when the
# pinned one is gone from it).  Prints `VERSION pinned' or `VERSION
# fallback-from-PINNED'; with the fallback also a warning on stderr.
#
# Usage: scripts/pin-used.sh PACKAGE PINNED-VERSION
set -eu
pkg=$1 pin=$2
have=$(dpkg-query -W -f '${db:Status-Status} ${Version}' "$pkg" 2>/dev/null || true)
case $have in
  "installed $pin") echo "$pin pinned" ;;
  "installed "*)
    v=${have#installed }
    echo "pin-used: WARNING: $pkg $v is installed, not the pinned $pin (gone from the archive?); using $v" >&2
    echo "$v fallback-from-$pin" ;;
  *) echo "pin-used: $pkg is not installed (scripts/install-deps.sh)" >&2; exit 1 ;;
esac
