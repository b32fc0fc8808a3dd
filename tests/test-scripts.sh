#!/bin/sh
# Tests of the build pipeline's own scripts.  Writes one PASS:/FAIL: line
# per test to the file named by $1 (and to stdout).
#
#   assemble-clash        an overlay file with an upstream path stops assembly
#   assemble-incremental  reassembly copies only changed overlay files
#   expected-failures     FAIL/PASS of a listed test become XFAIL/XPASS
#   summarize-pass        summarize-results counts and exits 0 when all pass
#   summarize-fail        summarize-results exits 1 on FAIL and on XPASS
#   install-deps-noop     install-deps finds everything installed

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
sum=$1
: > "$sum"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

result() {   # result NAME STATUS
  if [ "$2" -eq 0 ]; then r=PASS; else r=FAIL; fi
  echo "$r: scripts/$1" | tee -a "$sum"
}

# A scratch project: the real scripts, series and pins, its own overlay,
# and a cheap clone of the assembled tree (it must exist: make glibc).
fake=$tmp/project
mkdir -p "$fake/nptl"
cp -r "$top/scripts" "$top/patches" "$top/upstream.conf" "$fake/"
git -c advice.detachedHead=false clone -q --shared "$top/build/src" "$fake/src" 2>/dev/null \
  && git -C "$fake/src" fetch -q --tags origin 2>/dev/null
echo 'int tpf_scratch;' > "$fake/nptl/tpf-scratch.c"

# assemble-clash
cp "$fake/nptl/tpf-scratch.c" "$fake/nptl/pthread_mutex_lock.c"
"$fake/scripts/assemble-glibc.sh" "$fake/src" > "$tmp/clash.log" 2>&1
status=$?
grep -q 'overwrite upstream files.*nptl/pthread_mutex_lock.c' "$tmp/clash.log"
found=$?
git -C "$fake/src" diff --quiet HEAD -- nptl/pthread_mutex_lock.c 2>/dev/null
untouched=$?
[ "$status" -ne 0 ] && [ "$found" -eq 0 ] && [ "$untouched" -eq 0 ]
result assemble-clash $?
rm "$fake/nptl/pthread_mutex_lock.c"

# assemble-incremental
ok=1
"$fake/scripts/assemble-glibc.sh" "$fake/src" > "$tmp/a1.log" 2>&1 || ok=0
cmp -s "$fake/nptl/tpf-scratch.c" "$fake/src/nptl/tpf-scratch.c" || ok=0
"$fake/scripts/assemble-glibc.sh" "$fake/src" > "$tmp/a2.log" 2>&1 || ok=0
grep -q ', 0 updated' "$tmp/a2.log" || ok=0
echo 'int tpf_scratch = 1;' > "$fake/nptl/tpf-scratch.c"
"$fake/scripts/assemble-glibc.sh" "$fake/src" > "$tmp/a3.log" 2>&1 || ok=0
grep -q ', 1 updated' "$tmp/a3.log" || ok=0
rm "$fake/nptl/tpf-scratch.c"
"$fake/scripts/assemble-glibc.sh" "$fake/src" > "$tmp/a4.log" 2>&1 || ok=0
[ ! -e "$fake/src/nptl/tpf-scratch.c" ] || ok=0
[ "$ok" -eq 1 ]
result assemble-incremental $?

# expected-failures
printf 'nptl/tst-a # reason\nnptl/tst-b\n' > "$tmp/xfail"
printf 'FAIL: nptl/tst-a\nPASS: nptl/tst-b\nFAIL: nptl/tst-c\nUNSUPPORTED: nptl/tst-d\n' > "$tmp/in.sum"
awk -f "$top/scripts/mark-expected-failures.awk" "$tmp/xfail" "$tmp/in.sum" > "$tmp/out.sum"
printf 'XFAIL: nptl/tst-a\nXPASS: nptl/tst-b\nFAIL: nptl/tst-c\nUNSUPPORTED: nptl/tst-d\n' | cmp -s - "$tmp/out.sum"
result expected-failures $?

# summarize-pass
mkdir "$tmp/r1"
printf 'PASS: a\nPASS: b\nXFAIL: c\nUNSUPPORTED: d\n' > "$tmp/r1/x.sum"
"$top/scripts/summarize-results.sh" "$tmp/r1" > "$tmp/s1.log" 2>&1 \
  && tail -n 1 "$tmp/s1.log" | grep -qx '3 passed, 0 failed'
result summarize-pass $?

# summarize-fail
mkdir "$tmp/r2" "$tmp/r3"
printf 'PASS: a\nFAIL: b\n' > "$tmp/r2/x.sum"
printf 'PASS: a\nXPASS: b\n' > "$tmp/r3/x.sum"
! "$top/scripts/summarize-results.sh" "$tmp/r2" > "$tmp/s2.log" 2>&1 \
  && tail -n 1 "$tmp/s2.log" | grep -qx '1 passed, 1 failed' \
  && ! "$top/scripts/summarize-results.sh" "$tmp/r3" > /dev/null 2>&1
result summarize-fail $?

# install-deps-noop
"$top/scripts/install-deps.sh" 2>&1 | grep -qx 'install-deps: all packages present'
result install-deps-noop $?
