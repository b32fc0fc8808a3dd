#!/bin/bash
# Usage: scripts/lock-tests.sh OBJDIR
#
# Print, one per line, those of glibc's nptl tests (the ones nptl's
# `make check' runs, as glibc's make lists them) whose source names a
# mutex, an rwlock or a condition variable: pthread_mutex_*,
# pthread_rwlock_*, pthread_cond_*, their initializers, C11 mtx_* and
# cnd_*.  Those are the only tests that glibc.pthread.mutex_protocol
# and glibc.pthread.rwlock_kind can reach: libc's own locks are not
# pthread mutexes with default attributes.  A test's source is every
# file named after it in nptl/ and sysdeps/ (C or C++) and the .c files
# these include (found as the compiler finds them: beside the including
# file or in nptl/, or else by name in nptl/ and sysdeps/).  A test
# with no source (a check on other output) is not printed.

set -eu
objdir=$1
top=$(cd "$(dirname "$0")/.." && pwd)
srcdir=$("$top/scripts/glibc-srcdir.sh" "$objdir")

tests=$(make -r -s -C "$srcdir/nptl" ..=../ objdir="$objdir" subdir=nptl \
  -f Makefile -f "$top/scripts/glibc-tests.mk" tpf-print-tests)
[ -n "$tests" ] || { echo "lock-tests: glibc's make listed no nptl tests" >&2; exit 1; }

cd "$srcdir"
sources=$(find nptl sysdeps -name '*.c' -o -name 'tst-*.cc')
lock_api='pthread_(mutex|rwlock|cond)_|PTHREAD_(RECURSIVE_|ERRORCHECK_|ADAPTIVE_)?(MUTEX|RWLOCK|COND)_|(^|[^a-z_])(mtx|cnd)_'

# files_named NAME: the source files called NAME.c or NAME.cc.
files_named () {
  printf '%s\n' "$sources" | grep -E "/$1\.cc?\$" || true
}

# names_lock FILE...: whether FILEs, or the .c files they include
# (transitively), name the lock API.  $seen holds the files read for
# the current test: a file that includes its namesake in another
# directory is read once.
names_lock () {
  local f incs inc
  for f in "$@"; do
    case " $seen " in *" $f "*) continue ;; esac
    seen="$seen $f"
    grep -Eq "$lock_api" "$f" && return 0
    # Include paths have no blanks: one word each.
    incs=$(sed -n 's/^# *include "\([^"]*\)\.c".*/\1/p' "$f")
    for inc in $incs; do
      if [ -f "$(dirname "$f")/$inc.c" ]; then
        names_lock "$(dirname "$f")/$inc.c" && return 0
      elif [ -f "nptl/$inc.c" ]; then
        names_lock "nptl/$inc.c" && return 0
      else
        # shellcheck disable=SC2046
        names_lock $(files_named "$(basename "$inc")") && return 0
      fi
    done
  done
  return 1
}

for t in $tests; do
  files=$(files_named "$t")
  [ -n "$files" ] || continue
  seen=
  # shellcheck disable=SC2086
  if names_lock $files; then echo "$t"; fi
done
