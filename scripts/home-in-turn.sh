#!/bin/sh
# Usage: scripts/home-in-turn.sh OBJDIR PROCESSORS-IN-TURN LOG
#
# Run nptl/tst-rwlock-tp-home of the glibc built in OBJDIR (building the
# test first) while PROCESSORS-IN-TURN (tests/stalls/processors-in-turn.c)
# keeps its threads on processors 0 and 1 from running at once, and
# write the test's output to LOG.  Its C5 waits count only the time the
# two racing threads ran together; here that is next to none, so every
# wait must end without a claim and the test must fail.  Exits 0 when it
# did: the test failed, printed all six of its waits, and none counted
# more than a twentieth of its time as together.  About 200 s.

set -eu
objdir=$1 in_turn=$2 log=$3
srcdir=$("$(dirname "$0")/glibc-srcdir.sh" "$objdir")
test=$objdir/nptl/tst-rwlock-tp-home

echo "home-in-turn: building tst-rwlock-tp-home"
make -r -C "$srcdir/nptl" ..=../ objdir="$objdir" subdir=nptl MAKEINFO=: \
  "$test" > "$log.build" 2>&1 || { cat "$log.build"; exit 1; }

# The test's own tunables (nptl/Makefile, tst-rwlock-tp-home-ENV).
GLIBC_TUNABLES=glibc.pthread.mutex_tp_userspace=1:glibc.pthread.mutex_tp_handoff_us=1000000
export GLIBC_TUNABLES
echo "home-in-turn: tst-rwlock-tp-home with processors 0 and 1 in turn, about 200 s"
"$in_turn" 230 > "$log.in-turn" &
in_turn_pid=$!
# Let it take the processors before the test starts.
sleep 1
status=0
"$objdir/testrun.sh" "$test" > "$log" 2>&1 || status=$?
kill "$in_turn_pid" 2> /dev/null || :
wait "$in_turn_pid" 2> /dev/null || :
grep '^info:' "$log" || :
echo "home-in-turn: the test exited with $status"

# The hot reader's wait and the four of race_readers: "... in T ms, G
# ms of them ...together".
awk -v status="$status" '
  /^info: (the hot reader|C5 race)/ {
    for (i = 1; i <= NF; i++)
      if ($i == "ms,") { total = $(i - 1); together = $(i + 1) }
    waits++
    if (together * 20 > total) crowded++
  }
  END {
    if (status == 0) { print "home-in-turn: the test passed"; exit 1 }
    if (waits != 6) { print "home-in-turn: " waits " waits printed, not 6"; exit 1 }
    if (crowded) { print "home-in-turn: " crowded " waits ran together"; exit 1 }
    print "home-in-turn: every wait failed with its threads kept apart"
  }' "$log"
