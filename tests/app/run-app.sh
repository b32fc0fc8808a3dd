#!/bin/sh
# Usage: tests/app/run-app.sh check OBJDIR PROBE SUMFILE WORKDIR
#        tests/app/run-app.sh bench OBJDIR PROBE REPORT WORKDIR [REPEAT]
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
# bench: the same programs on Debian's libc, on the fork with its
# default locks and on the fork with TP/phase-fair locks, best of REPEAT
# (default 3) runs each, as a table in REPORT.

set -u
mode=$1 objdir=$2 probe=$3 out=$4 work=$5 repeat=${6:-3}
mkdir -p "$work"
tp_tunables=glibc.pthread.mutex_protocol=3:glibc.pthread.rwlock_kind=3
libpath=$objdir:$objdir/math:$objdir/elf:$objdir/dlfcn:$objdir/nss
libpath=$libpath:$objdir/nis:$objdir/rt:$objdir/resolv:$objdir/mathvec
libpath=$libpath:$objdir/support:$objdir/nptl
xz_opts="-1 -T2 --block-size=64KiB"
corpus=$work/corpus.txt

# on CONFIG PROGRAM ARGS...: run PROGRAM on Debian's libc (`debian'),
# on the fork with its defaults (`fork') or on the fork with TP and
# phase-fair locks (`fork-tp'); with PRELOAD set, preload the probe.
# (ld.so does not search PATH: PROGRAM is looked up first.)
on() {
  config=$1 prog=$(command -v "$2")
  shift 2
  set -- "$prog" "$@"
  case $config in
    debian)
      env -u GLIBC_TUNABLES ${PRELOAD:+LD_PRELOAD=$probe} "$@" ;;
    fork)
      env -u GLIBC_TUNABLES "$objdir/elf/ld.so" --library-path "$libpath" \
	${PRELOAD:+--preload "$probe"} "$@" ;;
    fork-tp)
      env GLIBC_TUNABLES=$tp_tunables "$objdir/elf/ld.so" \
	--library-path "$libpath" ${PRELOAD:+--preload "$probe"} "$@" ;;
  esac
}

# A deterministic text corpus of about 6 MB (words from a fixed seed).
make_corpus() {
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

# probe_ok FILE: the probe saw at least one mutex, every mutex TP and
# every rwlock phase-fair.  A line of FILE:
#   tpf-lockprobe: PID mutexes N tp N rwlocks N phase-fair N
probe_ok() {
  awk '$4 > 0 { seen = 1 } $6 != $4 || $10 != $8 { bad = 1 }
       END { exit !(seen && !bad) }' "$1"
}

if [ "$mode" = check ]; then
  sum=$out
  : > "$sum"
  result() {   # result NAME STATUS
    if [ "$2" -eq 0 ]; then r=PASS; else r=FAIL; fi
    echo "$r: app/$1" | tee -a "$sum"
  }
  make_corpus
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
  exit 0
fi

# ---------------------------------------------------------------- bench
make_corpus
on debian xz $xz_opts -c "$corpus" > "$work/bench.xz" || exit 1
report=$out
: > "$report"
best() { sort -g | head -1; }
bestmax() { sort -g | tail -1; }
seconds_of() {   # seconds_of CONFIG PROGRAM ARGS...: wall time of one run
  s=$(date +%s.%N)
  on "$@" > /dev/null 2>&1 || { echo fail; return; }
  awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN { print e - s }'
}

printf '%-40s %12s %12s %12s\n' "benchmark (best of $repeat)" debian fork fork-tp \
  | tee -a "$report"
row() {   # row LABEL then one value per config on stdin lines
  printf '%-40s %12s %12s %12s\n' "$@" | tee -a "$report"
}

vals=
for config in debian fork fork-tp; do
  v=$(for i in $(seq "$repeat"); do
	seconds_of "$config" xz $xz_opts -c "$corpus"
      done | best)
  vals="$vals $(printf '%.3f' "$v")"
done
row "xz $xz_opts compress, s" $vals

vals=
for config in debian fork fork-tp; do
  v=$(for i in $(seq "$repeat"); do
	seconds_of "$config" xz -d -T2 -c "$work/bench.xz"
      done | best)
  vals="$vals $(printf '%.3f' "$v")"
done
row "xz -d -T2 decompress, s" $vals

for threads in 4 16; do
  vals=
  for config in debian fork fork-tp; do
    v=$(for i in $(seq "$repeat"); do
	  on "$config" sysbench mutex --threads=$threads run 2>/dev/null \
	    | awk '/total time:/ { sub("s", "", $3); print $3 }'
	done | best)
    vals="$vals $v"
  done
  row "sysbench mutex, $threads threads, s" $vals
done

for threads in 4 16 32; do
  vals=
  for config in debian fork fork-tp; do
    v=$(for i in $(seq "$repeat"); do
	  on "$config" sysbench threads --threads=$threads --time=5 run \
	    2>/dev/null | awk '/total number of events:/ { print $5 }'
	done | bestmax)
    vals="$vals $v"
  done
  row "sysbench threads, $threads thr, events/5s" $vals
done
echo "app-bench: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg) at the end" \
  | tee -a "$report"
