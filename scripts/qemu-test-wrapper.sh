#!/bin/sh
# glibc test-wrapper for cross-built trees: runs powerpc64 programs under
# qemu-user (qemu-ppc64le, or qemu-ppc64 for big-endian), anything else
# (an i686 program, which the x86_64 kernel runs, a host shell, a
# script) as it is.  scripts/cross-build.sh puts
#   test-wrapper = .../scripts/qemu-test-wrapper.sh
# into the object directory's configparms, so glibc's `make check' runs
#   qemu-test-wrapper.sh [env [-i] [-u VAR]... [VAR=VALUE]...] PROGRAM ARG...
# (test-wrapper-env is `$(test-wrapper) env', test-wrapper-env-only
# `$(test-wrapper) env -i').  PROGRAM is usually the build's ld.so
# (glibc's rtld-prefix: `elf/ld.so --library-path ... tst-foo'), for
# static tests the test itself.
#
# qemu-user translates the program's instructions and forwards its
# system calls to the host kernel: the tests exercise the user-space
# code of the build, on this machine's kernel.  A guest program cannot
# execve another guest program (no binfmt_misc registration is made):
# tests that do so fail, and are listed in tests/ppc64le-qemu-failures.txt.
#
# The run-time libraries the tests need from the toolchain, such as
# libgcc_s.so.1, which pthread_cancel loads, are found by appending the
# cross toolchain's directory (/usr/TRIPLET/lib, from Debian's
# libgcc-s1-*-cross) to the loader's --library-path: the guest's system
# directories do not exist on this machine.
#
# The environment assignments apply to the qemu process, which hands its
# environment to the guest.  Those that the host's dynamic loader would
# act on in qemu itself (LD_PRELOAD, LD_AUDIT) go to the guest only,
# through qemu's -E (paths without spaces or commas).

set -u

# Pass 1: find PROGRAM after the optional `env' part.
skip=0 prog='' expect=''
state=start
for a do
  case $state in
    start) state=cmd; [ "$a" = env ] && { state='env'; skip=1; continue; } ;;
  esac
  if [ "$state" = env ]; then
    if [ -n "$expect" ]; then expect=; skip=$((skip + 1)); continue; fi
    case $a in
      -u) expect=1; skip=$((skip + 1)); continue ;;
      -i|--) skip=$((skip + 1)); continue ;;
      *=*) skip=$((skip + 1)); continue ;;
    esac
  fi
  prog=$a
  break
done
[ -n "$prog" ] || { echo "qemu-test-wrapper: no program" >&2; exit 127; }

# ELF, class 2 (64-bit), e_machine 21 (EM_PPC64) in the byte order that
# EI_DATA names (1 little-endian, 2 big-endian).
elf_qemu() {
  [ $# -eq 20 ] && [ "$1 $2 $3 $4 $5" = "127 69 76 70 2" ] || return 0
  case "$6 ${19} ${20}" in
    "1 21 0") echo qemu-ppc64le ;;
    "2 0 21") echo qemu-ppc64 ;;
  esac
}
qemu=
if [ -f "$prog" ]; then
  # shellcheck disable=SC2046
  qemu=$(elf_qemu $(od -An -tu1 -N20 "$prog" 2>/dev/null))
fi
case $qemu in
  qemu-ppc64le) toolchain_lib=/usr/powerpc64le-linux-gnu/lib ;;
  qemu-ppc64) toolchain_lib=/usr/powerpc64-linux-gnu/lib ;;
  *) toolchain_lib= ;;
esac

# Pass 2: rebuild the command, qemu in front of PROGRAM, the loader's
# variables moved to qemu's -E.
n=$# i=0 guest_env='' prev=''
[ "$skip" -gt 0 ] || set -- env "$@"
[ "$skip" -gt 0 ] || n=$((n + 1)) skip=1
while [ "$i" -lt "$n" ]; do
  a=$1
  shift
  i=$((i + 1))
  if [ "$i" -le "$skip" ] && [ -n "$qemu" ]; then
    case $a in
      LD_PRELOAD=*|LD_AUDIT=*) guest_env="$guest_env -E $a"; continue ;;
    esac
  fi
  if [ "$i" -eq $((skip + 1)) ] && [ -n "$qemu" ]; then
    # shellcheck disable=SC2086
    set -- "$@" "$qemu" $guest_env
  fi
  if [ "$prev" = --library-path ] && [ "$i" -gt "$skip" ] && [ -n "$toolchain_lib" ]; then
    a=$a:$toolchain_lib
  fi
  prev=$a
  set -- "$@" "$a"
done
exec "$@"
