#!/bin/sh
# Usage: scripts/tp-census.sh [--rwlocks] CENSUS OBJDIR OUT
#
# Count, from the lines tests/census/lock-census.so appended to CENSUS
# during a run of glibc's tests ("PROGRAM CLASS"), how many of glibc's
# own nptl tests (programs in OBJDIR/nptl, the fork's tst-mutex-tp-*,
# tst-rwlock-pf-* and tst-rwlock-tp-* left out) acquired a TP mutex, and
# how many a phase-fair or TP rwlock, out of those that acquired a
# mutex or an rwlock at all, and how many of the others acquired only
# priority-inheritance or -protection mutexes (which cannot be TP).
# Print the counts, and write them and the names of the tests that
# acquired a lock but not one of the new kinds to OUT, in groups by
# reason.  With --rwlocks, only the rwlock count and list (for a run
# whose tunables reach no mutex).  Exit 1 if CENSUS is missing or empty.

set -eu
rwlocks_only=no
if [ "$1" = --rwlocks ]; then
  rwlocks_only=yes
  shift
fi
census=$1 objdir=$2 out=$3

if [ ! -s "$census" ]; then
  echo "tp-census: no census in $census" >&2
  exit 1
fi

# test CLASS, one per line, for the upstream tests only.
pairs=$(awk -v dir="$objdir/nptl/" '
  index($1, dir) == 1 {
    name = substr($1, length(dir) + 1)
    if (name ~ /\// || name ~ /^tst-(mutex-tp|rwlock-pf|rwlock-tp)-/)
      next
    print name, $2
  }' "$census" | LC_ALL=C sort -u)

tests_with () {
  printf '%s\n' "$pairs" | awk -v c="$1" '$2 == c { print $1 }' | LC_ALL=C sort -u
}

mutex=$(tests_with mutex)
mutex_tp=$(tests_with mutex-tp)
mutex_plain=$(tests_with mutex-plain)
rwlock=$(tests_with rwlock)
rwlock_new=$( (tests_with rwlock-pf; tests_with rwlock-tp) | LC_ALL=C sort -u)

count () { if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l; fi; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' "$mutex_tp" > "$tmp/mutex-tp"
printf '%s\n' "$mutex_plain" > "$tmp/mutex-plain"
printf '%s\n' "$rwlock_new" > "$tmp/rwlock-new"
# The tests that acquired a mutex but never a TP one: those that
# acquired a mutex the tunable could have made TP, and those whose
# mutexes all had priority inheritance or protection.
printf '%s\n' "$mutex" | LC_ALL=C comm -23 - "$tmp/mutex-tp" | sed '/^$/d' \
  > "$tmp/mutex-missed"
LC_ALL=C comm -12 "$tmp/mutex-missed" "$tmp/mutex-plain" > "$tmp/missed-plain"
LC_ALL=C comm -23 "$tmp/mutex-missed" "$tmp/mutex-plain" > "$tmp/missed-pi"

line1="TP coverage: $(count "$mutex_tp") of $(count "$mutex") upstream nptl tests that acquire a mutex took a TP mutex; $(wc -l < "$tmp/missed-pi") of the others acquire only priority-inheritance or -protection mutexes, which cannot be TP"
line2="TP coverage: $(count "$rwlock_new") of $(count "$rwlock") upstream nptl tests that acquire an rwlock took a phase-fair or TP rwlock"
{
  if [ "$rwlocks_only" = no ]; then
    echo "$line1"
  fi
  echo "$line2"
  if [ "$rwlocks_only" = no ]; then
    echo "# acquired a mutex that could have been TP, never a TP one:"
    cat "$tmp/missed-plain"
    echo "# acquired only priority-inheritance or -protection mutexes:"
    cat "$tmp/missed-pi"
  fi
  echo "# acquired an rwlock, never a phase-fair or TP one (the kind was"
  echo "# chosen by an attribute or initializer, or the tunable overridden):"
  printf '%s\n' "$rwlock" | LC_ALL=C comm -23 - "$tmp/rwlock-new" | sed '/^$/d'
} > "$out"
sed -n '/^TP coverage/p' "$out"
