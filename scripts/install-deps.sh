#!/bin/sh
# Install the Debian packages the project needs, idempotently: packages
# that are already installed (at the pinned version, where one is
# pinned) cost one dpkg-query and nothing else.
#
# Usage: scripts/install-deps.sh [LIST-FILE...]
# With no argument, reads scripts/packages.txt, kernel/packages.txt,
# models/packages.txt and distro/packages.txt, and the upstream source
# packages pinned in upstream.conf.  As root it also adds the deb-src
# entries (scripts/enable-deb-src.sh) that `apt-get source' and `apt-get
# build-dep' of the distribution test builds need.

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/upstream.conf"

if [ $# -eq 0 ]; then
  set -- "$top/scripts/packages.txt"
  for extra in kernel/packages.txt models/packages.txt distro/packages.txt; do
    if [ -f "$top/$extra" ]; then set -- "$@" "$top/$extra"; fi
  done
fi

wanted="$GLIBC_DEB_PACKAGE=$GLIBC_DEB_VERSION $LINUX_DEB_PACKAGE=$LINUX_DEB_VERSION"
for list in "$@"; do
  # Words, not lines: a line may name several packages.
  # shellcheck disable=SC2013
  for spec in $(sed -e 's/#.*//' "$list"); do
    # A list that names a pinned package without its version (the kernel
    # needs linux-source-6.1 too) must not let apt take the archive's
    # newest: with both PKG=VERSION and PKG, apt installs the newest.
    case " $wanted " in *" $spec="*) continue ;; esac
    wanted="$wanted $spec"
  done
done

if [ "$(id -u)" = 0 ]; then
  "$top/scripts/enable-deb-src.sh"
fi

# A pinned version the archive no longer has (the next point release
# replaced it): fall back to the archive's version, loudly.  The scripts
# that use the package (scripts/pin-used.sh) then record which version
# they used, and the glibc series must still apply on it.
if [ "$(id -u)" = 0 ]; then
  pinned=
  for spec in $wanted; do
    case $spec in *=*) ;; *) pinned="$pinned $spec"; continue ;; esac
    pkg=${spec%%=*} want=${spec#*=}
    have=$(dpkg-query -W -f '${db:Status-Status} ${Version}' "$pkg" 2>/dev/null || true)
    if [ "$have" != "installed $want" ] \
       && ! apt-cache madison "$pkg" 2>/dev/null | awk -F'|' '{gsub(/ /, "", $2); print $2}' | grep -qxF "$want"; then
      echo "install-deps: WARNING: $pkg $want (upstream.conf) is not in the archive any more;" \
           "installing the archive's version instead: $(apt-cache policy "$pkg" | sed -n 's/ *Candidate: //p')" >&2
      spec=$pkg
      [ "${have%% *}" != installed ] || continue
    fi
    pinned="$pinned $spec"
  done
  wanted=$pinned
fi

missing=
for spec in $wanted; do
  pkg=${spec%%=*}
  want=
  [ "$pkg" = "$spec" ] || want=${spec#*=}
  have=$(dpkg-query -W -f '${db:Status-Status} ${Version}' "$pkg" 2>/dev/null || true)
  case "$have" in
    "installed $want"|"installed $want"*)
      [ -z "$want" ] || [ "$have" = "installed $want" ] || missing="$missing $spec" ;;
    *) missing="$missing $spec" ;;
  esac
done

if [ -z "$missing" ]; then
  echo "install-deps: all packages present"
  exit 0
fi

echo "install-deps: installing:$missing"
if [ "$(id -u)" != 0 ]; then
  echo "install-deps: not root; install these packages and rerun" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# --allow-downgrades: a machine may have a newer version of a pinned
# package than the pin (installed by hand, or by an older version of
# this script).
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends --allow-downgrades $missing
