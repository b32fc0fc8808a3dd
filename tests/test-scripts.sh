#!/bin/sh
# Tests of the build pipeline's own scripts.  Writes one PASS:/FAIL: line
# per test to the file named by $1 (and to stdout).
#
#   assemble-clash        an overlay file with an upstream path stops assembly
#   assemble-incremental  reassembly copies only changed overlay files
#   expected-failures     FAIL/PASS of a test in one of the lists become
#                         XFAIL/XPASS
#   verdict-green         complete results of every suite of a manifest
#                         pass, XFAIL and UNSUPPORTED not counted as passed
#   verdict-missing       a suite without results fails the verdict
#   verdict-short         so does one with fewer results than its floor,
#   verdict-cut           one without its END line (cut short),
#   verdict-FAIL, verdict-XPASS, verdict-ERROR, verdict-UNRESOLVED
#                         one with such a line,
#   verdict-unsupported-fork-test
#                         UNSUPPORTED for a fork test in a glibc suite,
#   verdict-unsupported-fork-suite
#                         UNSUPPORTED in one of the fork's suites,
#   verdict-unlisted      and a results file the manifest does not list
#   suite-timeout         run-suite stops a suite that hangs, shows the
#                         end of its log and fails it, within seconds
#   suite-exit-status     a suite that exits non-zero fails, even with
#                         only PASS lines
#   manifest              tests/check-manifest.txt is well formed and
#                         names the suites the make files run, no more
#   install-deps-noop     install-deps finds everything installed
#   series-map            every overlay file is in patches/glibc/overlay.map
#   series-map-unmapped   an overlay file missing from the map fails it
#   tp-abi                no file but the kernel's UAPI header defines a
#                         TP futex operation number (scripts/check-tp-abi.sh)
#   tp-abi-literal        tests that write one out (a #define to 65, a
#                         probe call with 67) fail that check
#   tp-census             the TP coverage counts and the misses by reason
#   rwlock-kind-override  the preload that runs glibc's rwlock tests on
#                         the fork's kinds replaces the kind asked for
#   census-cancel         the census preload adds no cancellation point
#                         to pthread_mutex_lock: a thread with a pending
#                         cancellation request still returns from it
#   processor-stalls      make bench's stall probe prints one row per
#                         processor for running and for sleeping
#                         threads, with min <= median <= max, and
#                         refuses a bad number of seconds, printing
#                         nothing
#   processor-pingpong    make bench's cache-line probe prints one round
#                         trip per second and their median with
#                         min <= median <= max, and refuses a bad number
#                         of seconds, printing nothing
#   word-free-stretch     make bench-free-stretch prints, for each of its
#                         three owners, a number of probes above 0 and
#                         three rows of percentiles in order, and
#                         refuses a bad number of seconds, printing
#                         nothing
#   processors-in-turn    the reproducer of tst-rwlock-tp-home's waits
#                         runs on processors 0 and 1 by turns, about
#                         250 slices of 2 ms and half the run on each
#                         in 1 s, and refuses a bad number of seconds,
#                         printing nothing
#   rwlock-read-arrival   make bench's bound of a reader's arrival by
#                         compare-and-swap prints every way and section
#                         with min <= median <= max and the ratio table
#                         (on the host's libc, which has no TP rwlock,
#                         without it), and refuses bad arguments,
#                         printing nothing
#   app-lock-share        app_bench.py's share of lock code adds up the
#                         libc lock functions and the futex system call
#                         from perf report, and nothing else
#   bench-confirm         lock_bench_confirm.py measures again exactly the
#                         cells below or just above their floor target
#                         (the higher one where two apply: 1.2 and 1.5
#                         only on their workloads and thread counts),
#                         far below too, with the sweep's workload, and
#                         tells met, noise and NOT met apart from the
#                         pooled rounds

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sum=$1
: > "$sum"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check NAME COMMAND...: the test NAME passes when COMMAND succeeds.
check() {
  name=$1
  shift
  if "$@"; then r=PASS; else r=FAIL; fi
  echo "$r: scripts/$name" | tee -a "$sum"
}

# A scratch project: the real scripts, series and pins, its own overlay,
# and a cheap clone of the assembled tree (it must exist: make glibc).
fake=$tmp/project
mkdir -p "$fake/nptl"
cp -r "$top/scripts" "$top/patches" "$top/upstream.conf" "$fake/"
if git -c advice.detachedHead=false clone -q --shared "$top/build/src" \
     "$fake/src" 2>/dev/null; then
  git -C "$fake/src" fetch -q --tags origin 2>/dev/null || true
fi
echo 'int tpf_scratch;' > "$fake/nptl/tpf-scratch.c"
assemble() {   # assemble LOG: assemble the scratch project
  "$fake/scripts/assemble-glibc.sh" "$fake/src" > "$tmp/$1" 2>&1
}

assemble_clash() {
  cp "$fake/nptl/tpf-scratch.c" "$fake/nptl/pthread_mutex_lock.c"
  ! assemble clash.log \
    && grep -q 'overwrite upstream files.*nptl/pthread_mutex_lock.c' "$tmp/clash.log" \
    && git -C "$fake/src" diff --quiet HEAD -- nptl/pthread_mutex_lock.c
}
check assemble-clash assemble_clash
rm "$fake/nptl/pthread_mutex_lock.c"

assemble_incremental() {
  assemble a1.log && cmp -s "$fake/nptl/tpf-scratch.c" "$fake/src/nptl/tpf-scratch.c" \
    && assemble a2.log && grep -q ', 0 updated' "$tmp/a2.log" \
    && echo 'int tpf_scratch = 1;' > "$fake/nptl/tpf-scratch.c" \
    && assemble a3.log && grep -q ', 1 updated' "$tmp/a3.log" \
    && rm "$fake/nptl/tpf-scratch.c" \
    && assemble a4.log && [ ! -e "$fake/src/nptl/tpf-scratch.c" ]
}
check assemble-incremental assemble_incremental

expected_failures() {
  printf '# none\n' > "$tmp/xfail0"
  printf 'nptl/tst-a # reason\n' > "$tmp/xfail1"
  printf 'nptl/tst-b\n' > "$tmp/xfail2"
  printf 'FAIL: nptl/tst-a\nPASS: nptl/tst-b\nFAIL: nptl/tst-c\nUNSUPPORTED: nptl/tst-d\n' > "$tmp/in.sum"
  awk -f "$top/scripts/mark-expected-failures.awk" "$tmp/xfail0" "$tmp/xfail1" \
    "$tmp/xfail2" "$tmp/in.sum" > "$tmp/out.sum"
  printf 'XFAIL: nptl/tst-a\nXPASS: nptl/tst-b\nFAIL: nptl/tst-c\nUNSUPPORTED: nptl/tst-d\n' \
    | cmp -s - "$tmp/out.sum"
}
check expected-failures expected_failures

# The verdict.  A manifest of two suites, one of the fork's own and one
# of glibc's tests, and their complete results, written by run-suite.
manifest=$tmp/manifest
printf '# SUITE MIN BUDGET KIND\nalpha 2 60 fork\nbeta 4 60 glibc\n' > "$manifest"
green=$tmp/green
run_suite() {   # run_suite MANIFEST RESULTS SUITE COMMAND...
  "$top/scripts/run-suite.sh" "$1" "$2" "$tmp/logs" "$3" sh -c "$4"
}
summarize() {   # summarize RESULTS: the verdict, its output in RESULTS.log
  "$top/scripts/summarize-results.sh" "$manifest" "$1" > "$1.log" 2>&1
}
verdict_green() {
  run_suite "$manifest" "$green" alpha \
    "printf 'PASS: alpha/1\nPASS: alpha/2\n' > '$green/alpha.sum'" > /dev/null \
  && run_suite "$manifest" "$green" beta \
    "printf 'PASS: nptl/tst-a\nXFAIL: nptl/tst-b\nUNSUPPORTED: nptl/tst-c\nPASS: nptl/tst-d\n' > '$green/beta.sum'" \
    > /dev/null \
  && summarize "$green" && tail -n 1 "$green.log" | grep -qx '4 passed, 0 failed'
}
check verdict-green verdict_green

# red NAME EDIT FAILURE: a copy of the green results, edited by the
# shell command EDIT (in that directory), must fail with FAILURE (a
# basic regular expression) in its list of failures.
red() {
  cp -r "$green" "$tmp/$1"
  (cd "$tmp/$1" && eval "$2")
  ! summarize "$tmp/$1" && grep -q "^  $3" "$tmp/$1.log" \
    && tail -n 1 "$tmp/$1.log" | grep -q ' passed, [1-9][0-9]* failed$'
}
check verdict-missing red missing 'rm beta.sum' 'beta: no results'
check verdict-short red short "sed -i '/^PASS: nptl.tst-d/d' beta.sum" \
  'beta: 3 results, fewer than the 4 of'
check verdict-cut red cut "sed -i '\$d' alpha.sum" 'alpha: incomplete results'
for kind in FAIL XPASS ERROR UNRESOLVED; do
  check "verdict-$kind" red "$kind" \
    "sed -i 's/^PASS: nptl.tst-d/$kind: nptl\/tst-d/' beta.sum" "beta: $kind: nptl/tst-d$"
done
check verdict-unsupported-fork-test red unsupported-fork-test \
  "sed -i 's/^PASS: nptl.tst-d/UNSUPPORTED: nptl\/tst-rwlock-pf-basic/' beta.sum" \
  'beta: UNSUPPORTED: nptl/tst-rwlock-pf-basic (the fork'
check verdict-unsupported-fork-suite red unsupported-fork-suite \
  "sed -i 's/^PASS: alpha.2/UNSUPPORTED: alpha\/2/' alpha.sum" \
  'alpha: UNSUPPORTED: alpha/2 (the fork'
check verdict-unlisted red unlisted 'cp alpha.sum gamma.sum' 'gamma: .* is not a suite of'

# A suite that hangs, allowed one second: stopped, failed, its log shown.
suite_timeout() {
  printf 'gamma 1 1 fork\n' > "$tmp/manifest-gamma"
  start=$(date +%s)
  ! run_suite "$tmp/manifest-gamma" "$tmp/hang" gamma \
      "echo 'PASS: gamma/1' > '$tmp/hang/gamma.sum'; echo last words; sleep 60" \
      > "$tmp/hang.out" 2>&1 \
    && [ $(( $(date +%s) - start )) -lt 10 ] \
    && grep -q 'TIMED OUT' "$tmp/hang.out" && grep -qx 'last words' "$tmp/hang.out" \
    && grep -q '^FAIL: gamma: timed out' "$tmp/hang/gamma.sum" \
    && ! grep -q '^PASS' "$tmp/hang/gamma.sum" \
    && ! "$top/scripts/summarize-results.sh" "$tmp/manifest-gamma" "$tmp/hang" > /dev/null
}
check suite-timeout suite_timeout

suite_exit_status() {
  ! run_suite "$manifest" "$tmp/exit" alpha \
      "printf 'PASS: alpha/1\nPASS: alpha/2\n' > '$tmp/exit/alpha.sum'; exit 3" > /dev/null 2>&1 \
    && grep -q '^ERROR: alpha: exit status 3' "$tmp/exit/alpha.sum"
}
check suite-exit-status suite_exit_status

install_deps_noop() {
  "$top/scripts/install-deps.sh" 2>&1 | grep -qx 'install-deps: all packages present'
}
check install-deps-noop install_deps_noop

# The shipped series' overlay map covers the overlay exactly; an overlay
# file that no patch adds must fail the export.
series_map() {
  "$top/scripts/export-series.sh" --check-map > "$tmp/series-map.log" 2>&1
}
check series-map series_map
series_map_unmapped() {
  m=$tmp/mapcheck
  mkdir -p "$m"
  cp -r "$top/scripts" "$top/patches" "$top/upstream.conf" "$top/nptl" \
    "$top/sysdeps" "$top/benchtests" "$m/"
  echo 'int tpf_unmapped;' > "$m/nptl/tpf-unmapped.c"
  ! "$m/scripts/export-series.sh" --check-map > "$tmp/series-unmapped.log" 2>&1 \
    && grep -q 'nptl/tpf-unmapped.c' "$tmp/series-unmapped.log"
}
check series-map-unmapped series_map_unmapped

tp_abi() {
  "$top/scripts/check-tp-abi.sh" > "$tmp/tp-abi.log" 2>&1
}
check tp-abi tp_abi
tp_abi_literal() {
  a=$tmp/abicheck
  mkdir -p "$a/nptl"
  printf '%s\n' '#define TST_TP_PROBE_OP 65' > "$a/nptl/tst-abi.c"
  printf '%s\n' 'int k;' 'k = tst_ho_kernel_path (67);' > "$a/nptl/tst-abi2.c"
  ! "$top/scripts/check-tp-abi.sh" "$a" > "$tmp/tp-abi-literal.log" 2>&1 \
    && grep -q 'nptl/tst-abi.c:1:' "$tmp/tp-abi-literal.log" \
    && grep -q 'nptl/tst-abi2.c:2:' "$tmp/tp-abi-literal.log"
}
check tp-abi-literal tp_abi_literal

# Every `$(run-suite) NAME' of the make files has a line in the manifest
# and every line of the manifest such a rule.
# shellcheck disable=SC2016
manifest_matches() {
  awk '$1 !~ /^#/ && NF && !(NF == 4 && $2 ~ /^[0-9]+$/ && $3 ~ /^[1-9][0-9]*$/ \
       && ($4 == "fork" || $4 == "glibc")) { print "bad line: " $0; bad = 1 }
       END { exit bad }' "$top/tests/check-manifest.txt" \
    && awk '$1 !~ /^#/ && NF { print $1 }' "$top/tests/check-manifest.txt" \
       | sort > "$tmp/manifest.suites" \
    && cat "$top/Makefile.in" "$top/tests/reliability.mk" "$top/cross/cross.mk" \
       | sed -n 's/.*$(run-suite) \([a-z0-9-]*\).*/\1/p' | sort > "$tmp/rules.suites" \
    && diff "$tmp/manifest.suites" "$tmp/rules.suites"
}
check manifest manifest_matches

# The benchmark report's help prints (argparse formats every help string
# with %, so a literal % in one makes --help fail).
bench_report_help() {
  # argparse wraps the help to the terminal's width: join the lines.
  "${PYTHON3:-python3}" "$top/benchtests/scripts/lock_bench_report.py" --help \
    | tr -s ' \n' '  ' | grep -q 'unlock sys %'
}
check bench-report-help bench_report_help

# The TP census counts per test, leaves out the fork's own tests and
# sorts the misses by reason (scripts/tp-census.sh).
tp_census() {
  c=$tmp/census.log
  printf '/o/nptl/%s\n' 'tst-a mutex' 'tst-a mutex-tp' 'tst-a mutex-plain' \
    'tst-b mutex' 'tst-b mutex-plain' 'tst-c mutex' 'tst-c mutex' \
    'tst-mutex-tp-x mutex' 'tst-d rwlock' 'tst-d rwlock-tp' 'tst-e rwlock' \
    > "$c"
  "$top/scripts/tp-census.sh" "$c" /o "$tmp/coverage.txt" > /dev/null \
    && printf '%s\n' \
      'TP coverage: 1 of 3 upstream nptl tests that acquire a mutex took a TP mutex; 1 of the others acquire only priority-inheritance or -protection mutexes, which cannot be TP' \
      'TP coverage: 1 of 2 upstream nptl tests that acquire an rwlock took a phase-fair or TP rwlock' \
      '# acquired a mutex that could have been TP, never a TP one:' 'tst-b' \
      '# acquired only priority-inheritance or -protection mutexes:' 'tst-c' \
      '# acquired an rwlock, never a phase-fair or TP one (the kind was' \
      '# chosen by an attribute or initializer, or the tunable overridden):' \
      'tst-e' | diff - "$tmp/coverage.txt" \
    && "$top/scripts/tp-census.sh" --rwlocks "$c" /o "$tmp/rwlocks.txt" \
       > /dev/null \
    && printf '%s\n' \
      'TP coverage: 1 of 2 upstream nptl tests that acquire an rwlock took a phase-fair or TP rwlock' \
      '# acquired an rwlock, never a phase-fair or TP one (the kind was' \
      '# chosen by an attribute or initializer, or the tunable overridden):' \
      'tst-e' | diff - "$tmp/rwlocks.txt"
}
check tp-census tp_census

# The rwlock kind override replaces the kind a program asks of
# pthread_rwlockattr_setkind_np by TPF_RWLOCK_KIND's, and only a kind
# (tests/census/rwlock-kind-override.c).  Run on the build machine's
# libc, which does not know the fork's kinds: a call that asks for the
# default kind fails with EINVAL once the preload has made it ask for
# kind 3 or 4.
rwlock_kind_override() {
  o=$tmp/override
  mkdir -p "$o"
  printf '%s\n' '#include <pthread.h>' '#include <stdio.h>' \
    'int main (void) { pthread_rwlockattr_t a; pthread_rwlockattr_init (&a);' \
    '  printf ("%d\n", pthread_rwlockattr_setkind_np (&a, 0)); return 0; }' \
    > "$o/setkind.c"
  "${HOST_CC:-cc}" -o "$o/setkind" "$o/setkind.c" \
    && "${HOST_CC:-cc}" -shared -fPIC -o "$o/override.so" \
         "$top/tests/census/rwlock-kind-override.c" -ldl \
    && [ "$(LD_PRELOAD=$o/override.so "$o/setkind")" = 0 ] \
    && [ "$(LD_PRELOAD=$o/override.so TPF_RWLOCK_KIND=5 "$o/setkind")" = 0 ] \
    && [ "$(LD_PRELOAD=$o/override.so TPF_RWLOCK_KIND=3 "$o/setkind")" = 22 ] \
    && [ "$(LD_PRELOAD=$o/override.so TPF_RWLOCK_KIND=4 "$o/setkind")" = 22 ]
}
check rwlock-kind-override rwlock_kind_override

# The census writes its line on a class's first acquisition, with open
# and write, which are cancellation points: it must not act on a pending
# cancellation request there, inside pthread_mutex_lock, which is not
# one (a thread would end holding the lock it just took).  Run on the
# build machine's libc.
census_cancel() {
  c=$tmp/census-cancel
  mkdir -p "$c"
  cat > "$c/lock.c" <<'PROG'
#include <pthread.h>
#include <stdio.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int returned;
static void *
thread (void *arg)
{
  pthread_cancel (pthread_self ());
  pthread_mutex_lock (&m);
  returned = 1;
  pthread_mutex_unlock (&m);
  pthread_testcancel ();
  return arg;
}
int
main (void)
{
  pthread_t t;
  void *r;
  if (pthread_create (&t, NULL, thread, NULL) != 0
      || pthread_join (t, &r) != 0)
    return 2;
  printf ("%d %d %d\n", returned, r == PTHREAD_CANCELED,
	  pthread_mutex_trylock (&m));
  return 0;
}
PROG
  "${HOST_CC:-cc}" -o "$c/lock" "$c/lock.c" -lpthread \
    && "${HOST_CC:-cc}" -shared -fPIC -o "$c/census.so" \
         "$top/tests/census/lock-census.c" -ldl \
    && out=$(LD_PRELOAD=$c/census.so TPF_LOCK_CENSUS=$c/census.log "$c/lock") \
    && [ "$out" = "1 1 0" ] \
    && grep -q ' mutex$' "$c/census.log"
}
check census-cancel census_cancel

# tests/stalls/NAME.c (make bench's probes of the machine): compile it,
# run it for SECONDS seconds into $tmp/NAME/out, and check that it
# refuses a bad number of seconds with its usage line, printing nothing.
machine_probe_run() {
  p=$tmp/$1
  mkdir -p "$p"
  "${HOST_CC:-cc}" -O2 -Wall -Wextra -Werror -o "$p/probe" \
    "$top/tests/stalls/$1.c" -lpthread || return 1
  "$p/probe" "$2" > "$p/out" || return 1
  for bad in 0 601 abc 5x ""; do
    if "$p/probe" $bad > "$p/bad" 2> "$p/bad.err"; then return 1; fi
    [ ! -s "$p/bad" ] && grep -q "^usage: $1" "$p/bad.err" || return 1
  done
}

# tests/stalls/processor-stalls.c: a 1 s run of each phase, the
# running one's table first, then the sleeping one's.
processor_stalls() {
  machine_probe_run processor-stalls 1 || return 1
  awk -v cpus="$(nproc)" '
    /^processor +longest stall/ { if (tables != 0) bad = 1; tables = 1; next }
    /^processor +late wake-up/ { if (tables != 1) bad = 1; tables = 2; next }
    tables && NF == 4 {
      rows[tables]++
      split ($3, r, /[()]|\.\./)
      if (!($2 >= r[2] && $2 <= r[3] && r[2] >= 0)) bad = 1
    }
    END { exit !(tables == 2 && rows[1] == cpus && rows[2] == cpus && !bad) }' \
    "$tmp/processor-stalls/out"
}
check processor-stalls processor_stalls

# tests/stalls/processor-pingpong.c: a 2 s run.
processor_pingpong() {
  machine_probe_run processor-pingpong 2 || return 1
  awk '
    NR == 2 { seconds = NF; for (i = 1; i <= NF; i++) if ($i <= 0) bad = 1 }
    /^round trip, ns: median / {
      split ($6, r, /[()]|\.\./)
      summary = ($5 >= r[2] && $5 <= r[3] && r[2] > 0)
    }
    END { exit !(seconds == 2 && summary && !bad) }' \
    "$tmp/processor-pingpong/out"
}
check processor-pingpong processor_pingpong

# tests/stalls/word-free-stretch.c: a 1 s run of each owner.
word_free_stretch() {
  machine_probe_run word-free-stretch 1 || return 1
  awk '
    /^owner holds / { owners++; if ($8 + 0 <= 0) bad = 1; next }
    /^  / {
      rows++
      n = split ($0, f, / +/)
      if (!(f[n - 6] <= f[n - 4] && f[n - 4] <= f[n - 2] && f[n - 2] <= f[n]))
        bad = 1
    }
    END { exit !(owners == 3 && rows == 9 && !bad) }' \
    "$tmp/word-free-stretch/out"
}
check word-free-stretch word_free_stretch

# tests/stalls/processors-in-turn.c: a 1 s run (SCHED_FIFO: the suite
# runs as root, as the README's commands do).
processors_in_turn() {
  machine_probe_run processors-in-turn 1 || return 1
  awk '
    /^processor [01]: / {
      n++
      if ($3 < 150 || $3 > 350 || $5 < 35 || $5 > 65) bad = 1
    }
    END { exit !(n == 2 && !bad) }' \
    "$tmp/processors-in-turn/out"
}
check processors-in-turn processors_in_turn

# tests/bounds/rwlock-read-arrival.c: one round of 10 ms per way and
# section, on the host's libc.
rwlock_read_arrival() {
  p=$tmp/rwlock-read-arrival
  mkdir -p "$p"
  "${HOST_CC:-cc}" -O2 -Wall -Wextra -Werror -o "$p/bound" \
    "$top/tests/bounds/rwlock-read-arrival.c" -lpthread || return 1
  "$p/bound" 0.01 1 > "$p/out" || return 1
  awk '
    /^(short|medium|long) +(default|cas|add) +[0-9.]+ / {
      split ($4, r, "-")
      if ($3 > 0 && $3 >= r[1] && $3 <= r[2]) ways++
    }
    /^(short|medium|long) +tp +\(this libc has no such rwlock kind\)/ { notp++ }
    /^(short|medium|long) +- +[0-9.]+ +[0-9.]+ +[0-9.]+$/ {
      if ($3 > 0 && $4 > 0 && $5 > 0) ratios++
    }
    END { exit !(ways == 9 && notp == 3 && ratios == 3) }' "$p/out" \
    || return 1
  for bad in 0 61 abc 5x "0.2 0" "0.2 65" "0.2 3x" "0.2 3 1"; do
    if "$p/bound" $bad > "$p/bad" 2> "$p/bad.err"; then return 1; fi
    [ ! -s "$p/bad" ] && grep -q "^usage: rwlock-read-arrival" "$p/bad.err" \
      || return 1
  done
}
check rwlock-read-arrival rwlock_read_arrival

# app_bench.py --lock-profile: the share of lock code in a perf profile,
# from a stand-in for perf that prints a report of each kind (self
# percentages; with --children, percentages with callees first).
app_lock_share() {
  p=$tmp/fakeperf
  mkdir -p "$p"
  cat > "$p/perf" <<'PERF'
#!/bin/sh
case " $* " in
  *" --children "*)
    printf '%s\n' '# Children  Self  Shared Object  Symbol' \
      '    42.10%     0.20%  [kernel.kallsyms]  [k] __schedule' \
      '     1.50%     0.01%  [kernel.kallsyms]  [k] __x64_sys_futex' \
      '     3.00%     3.00%  libc.so            [.] pthread_mutex_lock' ;;
  *)
    printf '%s\n' '# Overhead  Shared Object  Symbol' \
      '    40.00%  [kernel.kallsyms]  [k] finish_task_switch.isra.0' \
      '     3.00%  libc.so            [.] pthread_mutex_lock' \
      '     1.25%  libc.so            [.] __pthread_mutex_tp_unlock' \
      '     0.50%  libc.so            [.] __pthread_rwlock_pf_rdlock' \
      '     0.25%  libc.so            [.] tp_lock_user' \
      '     2.00%  libc.so            [.] __libc_sendmsg' \
      '     1.00%  memcached          [.] mutex_helper' \
      '     0.70%  [kernel.kallsyms]  [k] futex_wait' ;;
esac
PERF
  chmod +x "$p/perf"
  share=$(PATH=$p:$PATH "${PYTHON3:-python3}" -c '
import sys
sys.path.insert(0, sys.argv[1])
import app_bench
print("%.2f" % app_bench.lock_share("data"))' "$top/tests/app") \
    && [ "$share" = 6.50 ]
}
check app-lock-share app_lock_share

# The near-target pass of make bench (benchtests/scripts/
# lock_bench_confirm.py), against a stand-in for bench-lock-contention
# that logs its arguments and gives each kind the ratios FAKE_RATIOS
# names (cycled over the rounds) to a baseline of 100 ops/s.
bench_confirm() {
  d=$tmp/confirm
  mkdir -p "$d"
  cat > "$d/fake-bench" <<'FAKE'
#!/usr/bin/python3
import json, os, sys
args = sys.argv[1:]
with open(os.environ['FAKE_LOG'], 'a') as f:
    f.write(' '.join(args) + '\n')
opt = {args[i]: args[i + 1] for i in range(len(args) - 1)
       if args[i].startswith('--')}
base, kind = opt['--kinds'].split(',')
ratios = dict(r.split('=') for r in os.environ['FAKE_RATIOS'].split())
cycle = [float(x) for x in ratios[kind].split('/')]
rounds = int(opt['--repeat'])
suffix = '-r' + opt['--read-pct'] if '--read-pct' in opt else ''
out = {}
for k, values in ((base, [100.0] * rounds),
                  (kind, [100.0 * cycle[i % len(cycle)]
                          for i in range(rounds)])):
    name = '%s-t%s-%s-o%s%s' % (k, opt['--threads'], opt['--cs'],
                                opt['--lock-latency'], suffix)
    values.sort()
    out[name] = {'throughput': values[len(values) // 2],
                 'min': values[0], 'max': values[-1], 'timings': values}
json.dump({'functions': {'lock_contention': out}},
          open(opt['--output'], 'w'))
FAKE
  chmod +x "$d/fake-bench"
  "${PYTHON3:-python3}" - "$d/sweep.json" <<'SWEEP'
import json, sys
def cell(values):
    return {'throughput': sorted(values)[len(values) // 2],
            'min': min(values), 'max': max(values), 'timings': values}
base = [100.0] * 5
runs = {
    'mutex-normal-t3-short-o0': base,
    'mutex-tp-t3-short-o0': [95.5, 96, 96.5, 95.8, 96.2],
    'mutex-normal-t4-short-o0': base,
    'mutex-tp-t4-short-o0': [122.0, 122, 122, 122, 122],
    'mutex-normal-t8-long-o1000': base,
    'mutex-tp-t8-long-o1000': [84.0, 85, 86, 87, 88],
    'rwlock-default-t4-short-o0-r50': base,
    'rwlock-phase-fair-t4-short-o0-r50': [80.5, 81, 81.5, 80.8, 81.2],
    'rwlock-default-t2-long-o1000-r100': base,
    'rwlock-tp-t2-long-o1000-r100': [150.0] * 5,
    'rwlock-default-t8-short-o0-r90': base,
    'rwlock-phase-fair-t8-short-o0-r90': [50.0] * 5,
    'rwlock-default-t3-medium-o5000-r50': base,
    'rwlock-tp-t3-medium-o5000-r50': [96, 97, 98, 110, 112],
    'rwlock-default-t4-short-o0-r50': base,
    'rwlock-tp-t4-short-o0-r50': [152.0] * 5,
    'rwlock-default-t1-short-o0-r50': base,
    'rwlock-tp-t1-short-o0-r50': [120.0] * 5,
    'rwlock-default-t4-short-o0-r90': base,
    'rwlock-tp-t4-short-o0-r90': [120.0] * 5,
}
json.dump({'functions': {'lock_contention':
                         {k: cell(v) for k, v in runs.items()}}},
          open(sys.argv[1], 'w'))
SWEEP
  FAKE_LOG=$d/log FAKE_RATIOS='mutex-tp=0.99 rwlock-phase-fair=0.70 rwlock-tp=0.97/1.05' \
    "${PYTHON3:-python3}" "$top/benchtests/scripts/lock_bench_confirm.py" \
      --json "$d/sweep.json" --bench "$d/fake-bench" --bench-args '--duration 0.1' \
      --rounds 20 --output "$d/out.json" --table "$d/out.txt" > "$d/stdout" \
    && [ "$(wc -l < "$d/log")" = 6 ] \
    && grep -qx -- '--duration 0.1 --no-wait-timing --kinds rwlock-default,rwlock-phase-fair --threads 4 --cs short --lock-latency 0 --repeat 20 --output .* --read-pct 50' "$d/log" \
    && grep -qx -- '--duration 0.1 --no-wait-timing --kinds mutex-normal,mutex-tp --threads 3 --cs short --lock-latency 0 --repeat 20 --output .*' "$d/log" \
    && grep -q '^mutex-tp .* 3  *0\.97 .* met$' "$d/out.txt" \
    && grep -q '^mutex-tp .* 4  *1\.20  *1\.220 .* NOT met$' "$d/out.txt" \
    && grep -q '^mutex-tp .*long.* 8  *0\.97  *0\.860 .* met$' "$d/out.txt" \
    && grep -q '^rwlock-phase-fair .* 4  *0\.80 .* NOT met$' "$d/out.txt" \
    && grep -q '^rwlock-tp .*medium.* 3  *1\.00 .* noise$' "$d/out.txt" \
    && grep -q '^rwlock-tp .*short.* 4  *1\.50  *1\.520 .* NOT met$' "$d/out.txt" \
    && grep -qx '6 cells: 2 met, 1 below the target within the noise, 3 NOT met' "$d/out.txt" \
    && "${PYTHON3:-python3}" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [c["verdict"] for c in d["cells"]] == ["met", "NOT met", "met",
                                               "NOT met", "NOT met",
                                               "noise"], d
assert all(len(c["sweep"]) == 5 and len(c["more"]) == 20 for c in d["cells"])' "$d/out.json"
}
check bench-confirm bench_confirm
