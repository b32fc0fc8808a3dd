#!/bin/sh
# Usage: tests/app/run-app.sh check OBJDIR PROBE SUMFILE WORKDIR
#        tests/app/run-app.sh run OBJDIR TUNABLES PROGRAM [ARG]...
#        tests/app/run-app.sh corpus WORKDIR
# Real applications from Debian's packages, unmodified, on the fork's
# libc with the tunables making every default mutex TP and every
# default rwlock phase-fair:
#   xz (xz-utils)        multi-threaded compression and decompression:
#                        its worker threads hand blocks over with
#                        mutexes and condition variables (liblzma's
#                        mythread.h, pthread_mutex_init with no
#                        attribute); its own check is `xz --test' (the
#                        CRC64 of every block), plus the round trip and
#                        byte-identical output to the same xz on
#                        Debian's libc.
#   sysbench             its `mutex' and `threads' benchmarks (4096 and
#                        8 default mutexes, many threads contending).
# PROBE is tpf-lockprobe.so (tests/app/tpf-lockprobe.c), preloaded to
# show that the application's mutexes really are TP.
# check: PASS/FAIL lines in SUMFILE, about 30 seconds.
# run: PROGRAM (looked up in PATH) on the fork's libc in OBJDIR, with
# GLIBC_TUNABLES=TUNABLES, or without GLIBC_TUNABLES if TUNABLES is
# empty; the way tests/app/app_bench.py (make app-bench) runs programs.
# corpus: print the name of the deterministic text corpus in WORKDIR
# that xz compresses, making it first if needed.

set -u
mode=$1
tp_tunables=glibc.pthread.mutex_protocol=3:glibc.pthread.rwlock_kind=3
xz_opts="-1 -T2 --block-size=64KiB"

# on_fork TUNABLES PROGRAM ARGS...: run PROGRAM on the fork's libc in
# $objdir, with GLIBC_TUNABLES=TUNABLES (none if empty); with PRELOAD
# set, preload the probe.  (ld.so does not search PATH: PROGRAM is
# looked up first.)
on_fork() {
  tunables=$1 prog=$(command -v "$2")
  shift 2
  libpath=$objdir:$objdir/math:$objdir/elf:$objdir/dlfcn:$objdir/nss
  libpath=$libpath:$objdir/nis:$objdir/rt:$objdir/resolv:$objdir/mathvec
  libpath=$libpath:$objdir/support:$objdir/nptl
  env -u GLIBC_TUNABLES ${tunables:+GLIBC_TUNABLES=$tunables} \
    "$objdir/elf/ld.so" --library-path "$libpath" \
    ${PRELOAD:+--preload "$probe"} "$prog" "$@"
}

# on CONFIG PROGRAM ARGS...: run PROGRAM on Debian's libc (`debian'),
# on the fork with its defaults (`fork') or on the fork with TP and
# phase-fair locks (`fork-tp'); with PRELOAD set, preload the probe.
on() {
  config=$1
  shift
  case $config in
    debian)
      prog=$(command -v "$1")
      shift
      env -u GLIBC_TUNABLES ${PRELOAD:+LD_PRELOAD=$probe} "$prog" "$@" ;;
    fork) on_fork "" "$@" ;;
    fork-tp) on_fork "$tp_tunables" "$@" ;;
  esac
}

# make_corpus WORKDIR: a deterministic text corpus of about 6 MB (words
# from a fixed seed) in WORKDIR/corpus.txt, made once.
make_corpus() {
  corpus=$1/corpus.txt
  [ -s "$corpus" ] && return
  "${PYTHON3:-python3}" - "$corpus" <<'EOF'
import random, sys
rng = random.Random(20261122)
words = [''.join(rng.choice('abcdefghijklmnop') for _ in range(rng.randint(2, 9)))
         for _ in range(5000)]
with open(sys.argv[1], 'w') as f:
    for _ in range(300000):
        f.write(' '.join(rng.choice(words) for _ in range(3)) + '\n')
EOF
}

case $mode in
  run)
    objdir=$2 tunables=$3
    shift 3
    on_fork "$tunables" "$@"
    exit ;;
  corpus)
    mkdir -p "$2" && make_corpus "$2" && echo "$corpus"
    exit ;;
  check)
    objdir=$2 probe=$3 sum=$4 work=$5
    mkdir -p "$work" ;;
  *)
    echo "run-app.sh: unknown mode '$mode'" >&2
    exit 2 ;;
esac

# probe_ok FILE: the probe saw at least one mutex, every mutex TP and
# every rwlock phase-fair.  A line of FILE:
#   tpf-lockprobe: PID mutexes N tp N rwlocks N phase-fair N
probe_ok() {
  awk '$4 > 0 { seen = 1 } $6 != $4 || $10 != $8 { bad = 1 }
       END { exit !(seen && !bad) }' "$1"
}

: > "$sum"
result() {   # result NAME STATUS
  if [ "$2" -eq 0 ]; then r=PASS; else r=FAIL; fi
  echo "$r: app/$1" | tee -a "$sum"
}
make_corpus "$work"
echo "app: xz $xz_opts on $(wc -c < "$corpus") bytes, sysbench mutex and threads"

rm -f "$work/probe-xz.txt"
TPF_LOCKPROBE_OUT=$work/probe-xz.txt PRELOAD=1 \
  on fork-tp xz $xz_opts -c "$corpus" > "$work/tp.xz"
status=$?
[ $status -eq 0 ] && probe_ok "$work/probe-xz.txt"
result xz-compress-mutexes-tp $?
cat "$work/probe-xz.txt" 2>/dev/null

# The probe can tell: without the tunables no mutex is TP.
rm -f "$work/probe-stock.txt"
TPF_LOCKPROBE_OUT=$work/probe-stock.txt PRELOAD=1 \
  on fork xz $xz_opts -c "$corpus" > "$work/fork.xz" \
  && awk '$4 > 0 { seen = 1 } $6 != 0 { bad = 1 } END { exit !(seen && !bad) }' \
       "$work/probe-stock.txt"
result probe-sees-stock-mutexes $?

on debian xz $xz_opts -c "$corpus" > "$work/debian.xz" \
  && cmp -s "$work/tp.xz" "$work/debian.xz"
result xz-output-identical-to-debian-libc $?

on fork-tp xz --test -T2 "$work/tp.xz"
result xz-test $?

on fork-tp xz -d -T2 -c "$work/tp.xz" | cmp -s - "$corpus"
result xz-roundtrip $?

rm -f "$work/probe-sb.txt"
TPF_LOCKPROBE_OUT=$work/probe-sb.txt PRELOAD=1 \
  on fork-tp sysbench mutex --threads=4 --mutex-locks=20000 run \
  > "$work/sysbench-mutex.log" 2>&1 \
  && grep -q 'total number of events: *4$' "$work/sysbench-mutex.log" \
  && probe_ok "$work/probe-sb.txt"
result sysbench-mutex $?

rm -f "$work/probe-sb.txt"
TPF_LOCKPROBE_OUT=$work/probe-sb.txt PRELOAD=1 \
  on fork-tp sysbench threads --threads=16 --time=2 run \
  > "$work/sysbench-threads.log" 2>&1 \
  && grep -q 'total number of events: *[1-9]' "$work/sysbench-threads.log" \
  && probe_ok "$work/probe-sb.txt"
result sysbench-threads $?
