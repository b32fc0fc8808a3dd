#!/bin/sh
# Usage: scripts/run-logged.sh LOG LABEL COMMAND...
# Run COMMAND with its whole output in LOG, printing a progress line
# every 30 seconds and, for glibc's make, the subdirectory it is in.
# On failure, show the last lines of LOG.  Exits with COMMAND's status.
#
# COMMAND runs in the foreground and the progress printer in the
# background: a command that a non-interactive shell starts in the
# background ignores SIGINT and SIGQUIT, and so would every test it
# runs (glibc's tst-signal1 then fails).

set -u
log=$1 label=$2
shift 2
mkdir -p "$(dirname "$log")"
start=$(date +%s)
echo "$label: started, log in $log"
: > "$log"

progress() {
  last=
  while sleep 30; do
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

"$@" > "$log" 2>&1
status=$?
kill "$progress_pid" 2>/dev/null
wait "$progress_pid" 2>/dev/null

if [ "$status" -ne 0 ]; then
  echo "$label: FAILED (exit $status) after $(( $(date +%s) - start ))s; end of $log:" >&2
  tail -n 40 "$log" >&2
else
  echo "$label: done in $(( $(date +%s) - start ))s"
fi
exit "$status"
