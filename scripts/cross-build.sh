#!/bin/sh
# Usage: scripts/cross-build.sh TRIPLET SRC OBJDIR JOBS [TARGET...]
#
# Cross-configure the assembled glibc tree SRC for TRIPLET (e.g.
# powerpc64le-linux-gnu) with Debian's cross compiler TRIPLET-gcc and the
# kernel headers of linux-libc-dev-ARCH-cross (or those of the directory
# CROSS_HEADERS names, such as the TPF series' own from make
# kernel-headers, whose x86 UAPI serves i686 too), in OBJDIR (once, and
# again when the headers change), and build
# it: all of glibc, or only the TARGETs named.  A TARGET without a slash
# is a goal of glibc's top-level make (e.g. lib: every library, ld.so
# and the crt files, without the programs and modules of `others'); one
# with a slash is a file of OBJDIR that its subdirectory's make builds
# (e.g. nptl/pthread_mutex_tp_lock.o, support/libsupport_nonshared.a).
# The goals are made first, then the files.  Tests of the tree run under
# qemu-user through glibc's test-wrapper, which OBJDIR/configparms sets
# to scripts/qemu-test-wrapper.sh (see there).  Progress and logs go
# through scripts/run-logged.sh to BUILD/logs/cross-TRIPLET-*.log.

set -u
triplet=$1 src=$2 objdir=$3 jobs=$4
shift 4
top=$(cd "$(dirname "$0")/.." && pwd)
logs=$(dirname "$objdir")/logs
run_logged=$top/scripts/run-logged.sh

die() { echo "cross-build: error: $*" >&2; exit 1; }

command -v "$triplet-gcc" > /dev/null \
  || die "$triplet-gcc missing: install gcc-$triplet (scripts/install-deps.sh)"
headers=${CROSS_HEADERS:-/usr/$triplet/include}
[ -f "$headers/linux/version.h" ] \
  || die "$headers/linux/version.h missing: install the linux-libc-dev cross package of $triplet${CROSS_HEADERS:+, or make kernel-headers}"
[ -x "$src/configure" ] || die "$src is not an assembled glibc tree (scripts/assemble-glibc.sh)"

if [ -f "$objdir/config.make" ] \
   && ! grep -qxF "sysheaders = $headers" "$objdir/config.make"; then
  echo "cross-build: $objdir was configured with other kernel headers: configuring again"
  rm -f "$objdir/config.make"
fi
if [ ! -f "$objdir/config.make" ]; then
  rm -rf "$objdir"
  mkdir -p "$objdir"
  # Debian's options where they apply to every powerpc64 flavour (no CET,
  # no multi-arch on big-endian).  No C++ cross compiler is installed:
  # CXX names one that does not exist, so configure drops the C++ tests
  # instead of finding the host's g++.
  (cd "$objdir" && "$run_logged" "$logs/cross-$triplet-configure.log" \
     "cross $triplet configure" \
     "$src/configure" --host="$triplet" --build=x86_64-linux-gnu \
       --prefix=/usr --with-headers="$headers" \
       --without-selinux --disable-crypt \
       --enable-stackguard-randomization --enable-stack-protector=strong \
       --enable-bind-now \
       --with-pkgversion="TPF cross $triplet" \
       CC="$triplet-gcc" CXX="$triplet-g++-absent" \
       AR="$triplet-ar" RANLIB="$triplet-ranlib" BUILD_CC=gcc) \
    || { rm -f "$objdir/config.make"; exit 1; }
  # Tests run under qemu-user (scripts/qemu-test-wrapper.sh).
  echo "test-wrapper = $top/scripts/qemu-test-wrapper.sh" > "$objdir/configparms"
fi

if [ $# -eq 0 ]; then
  exec "$run_logged" "$logs/cross-$triplet-build.log" "cross $triplet build" \
    make -C "$objdir" -j"$jobs" MAKEINFO=:
fi
# Top-level goals, in one make: its subdirectories build in glibc's order.
goals=
for t do
  case $t in */*) ;; *) goals="$goals $t" ;; esac
done
if [ -n "$goals" ]; then
  # shellcheck disable=SC2086
  "$run_logged" "$logs/cross-$triplet-build.log" "cross $triplet build:$goals" \
    make -C "$objdir" -j"$jobs" MAKEINFO=: $goals || exit 1
fi
# Single files, grouped by subdirectory: the subdirectory's make builds
# the generated headers they need first (before-compile), then them.
status=0
for subdir in $(for t do case $t in */*) echo "${t%%/*}" ;; esac; done | sort -u); do
  objs=
  for t do
    case $t in "$subdir"/*) objs="$objs $objdir/$t" ;; esac
  done
  # shellcheck disable=SC2086
  "$run_logged" "$logs/cross-$triplet-$subdir-objects.log" \
    "cross $triplet: $(echo $objs | wc -w) files in $subdir" \
    make -r -C "$src/$subdir" ..=../ objdir="$objdir" subdir="$subdir" \
      -j"$jobs" MAKEINFO=: $objs || status=1
done
exit $status
