#!/bin/sh
# Usage: tests/test-ppc-barriers.sh SUMFILE OBJDIR...
#        tests/test-ppc-barriers.sh --self-test SUMFILE OBJDIR...
#
# The barriers of the TP mutex's, the phase-fair and the TP rwlock's fast paths
# in cross-built powerpc64 objects (OBJDIR: a glibc object directory of
# build/glibc-ppc64le or build/glibc-ppc64).  glibc 2.36 builds powerpc64
# without the compiler's atomic builtins (USE_ATOMIC_COMPILER_BUILTINS
# is 0 in sysdeps/powerpc/powerpc64/atomic-machine.h), so the C11-style
# macros of include/atomic.h expand to the architecture's inline
# assembly: an acquire CAS is a lwarx/stwcx. loop followed by isync, a
# release CAS or exchange is lwsync followed by the loop, a load-acquire
# or acquire fence is lwsync, and only the seq_cst fence is `sync'
# (hwsync).  The rules below check that the objects say so:
#
#   - every lwarx has its stwcx. (a reservation loop);
#   - the lock entry points (fast path inline, slow path out of line)
#     acquire with isync after the loop and contain no `sync', but for
#     the TP rwlock's reader bias (below);
#   - the unlock entry points release with lwsync, and no lock object
#     contains `sync' (the phase-fair reader fast paths are also checked
#     on their own), but for the one store-buffering pattern of the
#     protocols, the TP rwlock's reader bias (B1 and B3 of
#     nptl/pthread_rwlock_tp.c, tp-fence.h): exactly one `sync' each in
#     its read lock entry points, after the slot's reservation loop, and
#     in tprw_bias_revoke, and none elsewhere in the TP rwlock;
#   - on powerpc64le (POWER8 and later), acquire loops set lwarx's
#     exclusive-access hint (EH=1), as glibc's MUTEX_HINT_ACQ does.
#
# The spin-wait hints of sysdeps/powerpc/nptl/tp-spin.h (and of
# sysdeps/x86_64/nptl/tp-spin.h, with the host compiler) are compiled
# into a small spin loop and checked there: SMT priority low (`or 1,1,1',
# shown as `mr r1,r1') inside the loop, medium (`or 2,2,2') after it; and
# in the lock objects of every nptl source that calls tp_spin_relax.
#
# One PASS:/FAIL: line per rule and object directory.  --self-test
# instead runs the rules on mutated disassembly and writes one PASS: line
# per mutant the rules catch (FAIL: for one they miss): lwsync turned
# into sync, isync deleted, stwcx. deleted, the EH hint dropped, the
# priority reset dropped, the reader bias's syncs deleted.

set -u
self_test=no
if [ "${1-}" = --self-test ]; then self_test=yes; shift; fi
sum=${1:?usage: test-ppc-barriers.sh [--self-test] SUMFILE OBJDIR...}
shift
case $sum in /*) ;; *) sum=$(pwd)/$sum ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$sum"

# The objects and their entry points (nptl/).
mutex_objs="pthread_mutex_tp_lock pthread_mutex_tp_trylock pthread_mutex_tp_unlock"
rw_objs="pthread_rwlock_pf"
tprw_objs="pthread_rwlock_tp"
# Lock entry points: the fast path is inline, everything else a call.
acquire_fns="__pthread_mutex_tp_lock __pthread_mutex_tp_lock_common
  __pthread_mutex_tp_cond_lock __pthread_mutex_tp_trylock
  __pthread_rwlock_pf_rdlock __pthread_rwlock_pf_tryrdlock
  __pthread_rwlock_pf_trywrlock
  __pthread_rwlock_tp_rdlock __pthread_rwlock_tp_wrlock
  __pthread_rwlock_tp_tryrdlock __pthread_rwlock_tp_trywrlock"
# Unlock entry points: a release RMW first.
release_fns="__pthread_mutex_tp_unlock __pthread_mutex_tp_release
  __pthread_rwlock_pf_unlock __pthread_rwlock_tp_unlock"
# Reader fast paths: never a full barrier.
nosync_fns="__pthread_rwlock_pf_rdlock __pthread_rwlock_pf_tryrdlock"
# The TP rwlock's reader bias: one full barrier each (B1, B3).
bias_fence_fns="__pthread_rwlock_tp_rdlock __pthread_rwlock_tp_tryrdlock
  tprw_bias_revoke"

result() {   # result NAME STATUS [DETAIL]
  if [ "$2" -eq 0 ]; then r=PASS; else r=FAIL; fi
  echo "$r: $1${3:+ ($3)}" | tee -a "$sum"
}

# disasm OBJDUMP OBJ: one line per instruction, "FUNCTION MNEMONIC OPERANDS".
# (Big-endian powerpc64 uses the ELFv1 ABI, whose code symbols are the
# function names with a leading dot: it is dropped.)
disasm() {
  "$1" -d --no-show-raw-insn "$2" | awk '
    /^[0-9a-f]+ <.*>:$/ { f = $2; gsub(/[<>:]/, "", f); sub(/^\./, "", f); next }
    /^ *[0-9a-f]+:\t/ && f != "" {
      sub(/^ *[0-9a-f]+:\t/, ""); n = split($0, p, /[ \t]+/)
      print f, p[1], (n > 1 ? p[2] : "") }'
}

# in_fn LISTING FUNCTION MNEMONIC-ERE: count of MNEMONIC in FUNCTION.
in_fn() {
  awk -v f="$2" -v m="^($3)\$" '$1 == f && $2 ~ m { n++ } END { print n + 0 }' "$1"
}

# The rules on the listings in directory D (one NAME.lst per object);
# LABEL names the configuration, HINT is yes where lwarx must carry the
# exclusive-access hint.  Writes result lines.
rules() {
  label=$1 d=$2 hint=$3

  # Reservation loops: in each function, lwarx and stwcx. alternate,
  # starting with lwarx and ending with stwcx.
  bad=$(cat "$d"/*.lst | awk '
    $2 == "lwarx"   { if (open[$1]) bad[$1] = 1; open[$1] = 1; seen[$1] = 1 }
    $2 == "stwcx."  { if (!open[$1]) bad[$1] = 1; open[$1] = 0 }
    END { for (f in seen) if (open[f] || bad[f]) printf "%s ", f }')
  loops=$(cat "$d"/*.lst | awk '$2 == "lwarx"' | wc -l)
  [ -z "$bad" ] && [ "$loops" -gt 0 ]
  result "$label: lwarx/stwcx. reservation loops" $? "$loops loops${bad:+; broken in $bad}"

  # Acquire: every lock entry point has an acquire loop (isync after
  # it), with the EH hint where wanted, and no full barrier but the
  # reader bias's.
  for f in $acquire_fns; do
    l=$(grep -l "^$f " "$d"/*.lst | head -n 1)
    if [ -z "$l" ]; then result "$label: $f acquires with isync" 1 "function missing"; continue; fi
    n_isync=$(in_fn "$l" "$f" isync)
    n_sync=$(in_fn "$l" "$f" 'sync|hwsync')
    n_hint=$(awk -v f="$f" '$1 == f && $2 == "lwarx" && $3 ~ /,1$/ { n++ } END { print n + 0 }' "$l")
    case " $(echo $bias_fence_fns) " in
      *" $f "*) want_sync=1 ;;
      *) want_sync=0 ;;
    esac
    ok=0
    [ "$n_isync" -gt 0 ] && [ "$n_sync" -eq "$want_sync" ] || ok=1
    [ "$hint" = no ] || [ "$n_hint" -gt 0 ] || ok=1
    result "$label: $f acquires with isync" $ok \
      "isync $n_isync, sync $n_sync, lwarx with EH hint $n_hint"
  done

  # Release: every unlock entry point has lwsync before a lwarx.
  for f in $release_fns; do
    l=$(grep -l "^$f " "$d"/*.lst | head -n 1)
    if [ -z "$l" ]; then result "$label: $f releases with lwsync" 1 "function missing"; continue; fi
    n=$(awk -v f="$f" '$1 == f && $2 == "lwsync" { w = 1; next }
		       $1 == f && $2 == "lwarx" && w { n++ }
		       $1 == f && $2 != "lwarx" { w = w && ($2 !~ /^(stwcx\.|isync)$/) }
		       END { print n + 0 }' "$l")
    [ "$n" -gt 0 ]
    result "$label: $f releases with lwsync" $? "$n lwsync-lwarx"
  done

  # Full barriers: none in any lock object, none in the reader fast
  # paths.
  n=$(for o in $mutex_objs; do cat "$d/$o.lst"; done | awk '$2 ~ /^(sync|hwsync)$/' | wc -l)
  [ "$n" -eq 0 ]
  result "$label: no sync in the TP mutex" $? "$n sync"
  # The TP rwlock: one sync in each function of the reader bias, none
  # elsewhere; in the read lock entry points after a stdcx. (B1: the
  # slot's CAS; in B3 BIAS is cleared by a plain store).
  bad=
  for f in $bias_fence_fns; do
    n=$(for o in $tprw_objs; do cat "$d/$o.lst"; done | awk -v f="$f" '$1 == f && $2 ~ /^(sync|hwsync)$/' | wc -l)
    [ "$n" -eq 1 ] || bad="$bad $f:$n"
  done
  n=$(for o in $tprw_objs; do cat "$d/$o.lst"; done | awk '$2 ~ /^(sync|hwsync)$/' | wc -l)
  nb=$(echo $bias_fence_fns | wc -w)
  [ -z "$bad" ] && [ "$n" -eq "$nb" ]
  result "$label: sync in the TP rwlock only as the reader bias's fences" $? \
    "$n sync${bad:+; not one in$bad}"
  for f in __pthread_rwlock_tp_rdlock __pthread_rwlock_tp_tryrdlock; do
    n=$(for o in $tprw_objs; do cat "$d/$o.lst"; done | awk -v f="$f" '
      $1 == f && $2 ~ /^st[wd]cx\.$/ { s = 1; next }
      $1 == f && $2 ~ /^(sync|hwsync)$/ { if (s) n++ }
      END { print n + 0 }')
    [ "$n" -eq 1 ]
    result "$label: $f: the bias's sync after the slot's stdcx." $? "$n"
  done
  for f in $nosync_fns; do
    n=$(in_fn "$d/pthread_rwlock_pf.lst" "$f" 'sync|hwsync')
    [ "$n" -eq 0 ]
    result "$label: no sync in $f" $? "$n sync"
  done
  n=$(awk '$2 ~ /^(sync|hwsync)$/' "$d/pthread_rwlock_pf.lst" | wc -l)
  [ "$n" -eq 0 ]
  result "$label: no sync in the phase-fair rwlock" $? "$n sync"

  # The spin hints in the lock objects of the sources that use them.
  users=
  for o in $mutex_objs $rw_objs $tprw_objs; do
    if grep -q 'tp_spin_relax' "$srcdir/nptl/$o.c"; then users="$users $o"; fi
  done
  if [ -z "$users" ]; then
    echo "UNSUPPORTED: $label: spin hints in the lock objects (no lock source calls tp_spin_relax)" | tee -a "$sum"
  else
    bad=
    for o in $users; do
      low=$(awk '$2 == "mr" && $3 == "r1,r1"' "$d/$o.lst" | wc -l)
      med=$(awk '$2 == "mr" && $3 == "r2,r2"' "$d/$o.lst" | wc -l)
      [ "$low" -gt 0 ] && [ "$med" -gt 0 ] || bad="$bad $o"
    done
    [ -z "$bad" ]
    result "$label: spin hints in the lock objects" $? "users:$users${bad:+; missing in$bad}"
  fi
}

# spin_rules LABEL LISTING ARCH: the hint test loop of tp-spin.h.
spin_rules() {
  label=$1 l=$2 arch=$3
  if [ "$arch" = x86_64 ]; then
    n=$(awk '$1 == "wait_for" && $2 == "pause"' "$l" | wc -l)
    [ "$n" -eq 1 ]
    result "$label: tp-spin.h: pause in the spin loop" $? "$n pause"
    return
  fi
  # In the loop: after the backward branch's target; after it: past the
  # loop's last branch.
  out=$(awk '$1 == "wait_for" { print $2, $3 }' "$l" | awk '
    $1 == "mr" && $2 == "r1,r1" { low = NR }
    $1 == "mr" && $2 == "r2,r2" { med = NR }
    $1 ~ /^b(eq|ne)/ { br = NR }
    END { print (low && low < br) + 0, (med && med > br) + 0 }')
  [ "$out" = "1 1" ]
  result "$label: tp-spin.h: priority low in the loop, medium after it" $? "$out"
}

spin_src='#include "tp-spin.h"
int
wait_for (volatile int *p)
{
  while (*p == 0)
    tp_spin_relax ();
  tp_spin_done ();
  return *p;
}'

# Listings of OBJDIR in $tmp/NAME.
listings() {
  objdir=$1 out=$2
  mkdir -p "$out"
  [ -f "$objdir/Makefile" ] && [ -f "$objdir/config.make" ] || return 1
  srcdir=$("$top/scripts/glibc-srcdir.sh" "$objdir") || return 1
  triplet=$(sed -n 's/^config-machine = //p' "$objdir/config.make")-linux-gnu
  case $triplet in
    powerpc64le-*) arch=ppc64le hint=yes ;;
    powerpc64-*) arch=ppc64 hint=no ;;
    *) echo "test-ppc-barriers: $objdir is not a powerpc64 build" >&2; return 1 ;;
  esac
  objdump=$triplet-objdump
  for o in $mutex_objs $rw_objs $tprw_objs; do
    if [ -f "$objdir/nptl/$o.o" ]; then
      disasm "$objdump" "$objdir/nptl/$o.o" > "$out/$o.lst"
    else
      : > "$out/$o.lst"
    fi
  done
  echo "$spin_src" > "$out/spin.c"
  "$triplet-gcc" -O2 -c -I"$top/sysdeps/powerpc/nptl" "$out/spin.c" \
    -o "$out/spin.o" && disasm "$objdump" "$out/spin.o" > "$out/spin.lst.x"
  echo "$arch $hint" > "$out/arch"
}

# The host's tp-spin.h.
mkdir -p "$tmp/x86_64"
echo "$spin_src" > "$tmp/x86_64/spin.c"
if gcc -O2 -c -I"$top/sysdeps/x86_64/nptl" "$tmp/x86_64/spin.c" -o "$tmp/x86_64/spin.o"; then
  disasm objdump "$tmp/x86_64/spin.o" > "$tmp/x86_64/spin.lst.x"
else
  : > "$tmp/x86_64/spin.lst.x"
fi

for objdir in "$@"; do
  name=$(basename "$objdir")
  listings "$objdir" "$tmp/$name" || { result "$name: listings" 1; continue; }
  read -r arch hint < "$tmp/$name/arch"
  if [ "$self_test" = no ]; then
    rules "$arch" "$tmp/$name" "$hint"
    spin_rules "$arch" "$tmp/$name/spin.lst.x" "$arch"
    continue
  fi
  # Mutants of the disassembly: each must make at least one rule fail.
  for mut in lwsync-to-sync drop-isync drop-stwcx drop-eh-hint drop-medium \
	     drop-sync; do
    [ "$mut" = drop-eh-hint ] && [ "$hint" = no ] && continue
    m=$tmp/$name-$mut
    mkdir -p "$m"
    for f in "$tmp/$name"/*.lst "$tmp/$name"/spin.lst.x; do
      case $mut in
	lwsync-to-sync) sed 's/ lwsync / hwsync /' "$f" ;;
	drop-isync) grep -v ' isync ' "$f" ;;
	drop-stwcx) awk '!($2 == "stwcx." && NR % 2 == 0)' "$f" ;;
	drop-eh-hint) sed 's/^\(.* lwarx .*\),1$/\1/' "$f" ;;
	drop-medium) grep -v ' mr r2,r2$' "$f" ;;
	drop-sync) awk '$2 !~ /^(sync|hwsync)$/' "$f" ;;
      esac > "$m/$(basename "$f")"
    done
    real=$sum
    sum=$m/sum
    : > "$sum"
    { rules "$arch" "$m" "$hint"; spin_rules "$arch" "$m/spin.lst.x" "$arch"; } > /dev/null
    sum=$real
    caught=$(grep -c '^FAIL:' "$m/sum")
    [ "$caught" -gt 0 ]
    result "$arch: mutant $mut is caught" $? "$caught rules fail"
  done
done
if [ "$self_test" = no ]; then
  spin_rules x86_64 "$tmp/x86_64/spin.lst.x" x86_64
fi
exit 0
