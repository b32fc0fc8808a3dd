#!/bin/bash
# Usage: scripts/run-idle.sh COMMAND...
#
# Run COMMAND at idle priority, every line of its output marked
# "[idle] ", and exit with its status.  Under SCHED_IDLE (chrt, from
# util-linux) COMMAND and the processes it starts, which inherit the
# policy, get a processor only when no other thread wants it; where that
# policy is refused, COMMAND runs at nice 19.
#
# `make check' builds the kernel and the powerpc64 cross objects this
# way while the suites that need only the native glibc run: their tests
# leave processors idle while they sleep, and the builds use that time
# without slowing the tests down.

set -uo pipefail
[ $# -gt 0 ] || { echo "usage: run-idle.sh COMMAND..." >&2; exit 2; }
if chrt --idle 0 true 2> /dev/null; then
  policy=(chrt --idle 0)
else
  echo "run-idle.sh: SCHED_IDLE refused, running at nice 19" >&2
  policy=(nice -n 19)
fi
"${policy[@]}" "$@" 2>&1 | sed -u 's/^/[idle] /'
exit "${PIPESTATUS[0]}"
