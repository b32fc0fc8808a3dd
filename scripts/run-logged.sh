#!/bin/sh
# Usage: scripts/run-logged.sh [--timeout SECONDS] LOG LABEL COMMAND...
# Run COMMAND with its whole output in LOG, printing a progress line
# every 30 seconds and, for glibc's make, the subdirectory it is in.
# With --timeout, COMMAND and everything it started are stopped after
# SECONDS (SIGTERM, then SIGKILL 30 seconds later).  On failure, a
# timeout included, show the last lines of LOG.  Exits with COMMAND's
# status, or 124 after a timeout.
#
# COMMAND runs under coreutils timeout (a duration of 0: no limit),
# which gives it a process group of its own, so that a timeout reaches
# the whole tree.  A command that a non-interactive shell starts in the
# background ignores SIGINT and SIGQUIT (and so would every test it
# runs: glibc's tst-signal1 then fails); timeout restores both for
# COMMAND.  An interrupt or termination of this script is passed on to
# that process group, which the terminal's Ctrl-C no longer reaches.

set -eu
budget=0
if [ "$1" = --timeout ]; then
  budget=$2
  shift 2
fi
log=$1 label=$2
shift 2
mkdir -p "$(dirname "$log")"
start=$(date +%s)
limit=
[ "$budget" = 0 ] || limit=" (${budget}s allowed)"
echo "$label: started$limit, log in $log"
: > "$log"

# Its sleep outlives it by up to 30 seconds: without our output, which
# would keep a pipe that reads it open until then.
progress() {
  last=
  while sleep 30 > /dev/null 2>&1; do
    # glibc's make names each subdirectory it descends into as subdir=NAME.
    here=$(grep -o 'subdir=[A-Za-z0-9_.-]*' "$log" 2>/dev/null | tail -1 \
	   | sed 's/subdir=//')
    [ "$here" = "$last" ] && here=
    [ -z "$here" ] || last=$here
    echo "$label: $(( $(date +%s) - start ))s${here:+, in $here}"
  done
}
progress &
progress_pid=$!

timeout -k 30 "$budget" "$@" > "$log" 2>&1 &
command_pid=$!
trap 'kill -TERM "$command_pid" 2>/dev/null' INT TERM HUP
# wait returns early (above 128) when a signal's trap runs: wait again
# until the command has really ended.
while :; do
  status=0
  wait "$command_pid" || status=$?
  kill -0 "$command_pid" 2>/dev/null || break
done
trap - INT TERM HUP
kill "$progress_pid" 2>/dev/null || true
wait "$progress_pid" 2>/dev/null || true

elapsed=$(( $(date +%s) - start ))
# timeout exits 124, or 137 when SIGTERM was not enough.
if [ "$budget" != 0 ] && [ "$elapsed" -ge "$budget" ] \
   && { [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; }; then
  status=124
  echo "$label: TIMED OUT after ${elapsed}s (allowed ${budget}s); end of $log:" >&2
  tail -n 40 "$log" >&2
elif [ "$status" -ne 0 ]; then
  echo "$label: FAILED (exit $status) after ${elapsed}s; end of $log:" >&2
  tail -n 40 "$log" >&2
else
  echo "$label: done in ${elapsed}s"
fi
exit "$status"
