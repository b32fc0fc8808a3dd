#!/bin/bash
# Install the fork's Debian packages into a fresh Debian 12 root and test
# them there, the way a distribution would:
#   1. mmdebstrap --variant=apt bookworm, from the machine's own Debian
#      archive entries (the archive the packages were built from);
#   2. apt-get install of the fork's libc6, libc6-dev, libc-bin,
#      libc-dev-bin and the kernel's linux-libc-dev as local .deb files,
#      with the archive resolving every other dependency (no --force),
#      plus gcc, dejagnu, sysbench and xz-utils from the archive;
#   3. inside the root (chroot): `ldd --version' and `dpkg -l' must show
#      the fork; the DejaGnu suite (runtest --tool tpf) of the public
#      API; unmodified Debian sysbench and xz with the tunables.
# Results: RESULTS/deb.sum (PASS/FAIL lines, the versions used, END line)
# and deb.log; DejaGnu's own RESULTS/deb-tpf.sum and deb-tpf.log.
#
# Usage: distro/check-deb.sh [--base-only] DEBDIR TESTSUITE RESULTS LOG
#   --base-only: make the base root tarball (DEBDIR/bookworm-base.tar) only
#   DEBDIR: build/deb, with glibc/ (make deb-glibc) and linux/ (make
#   deb-kernel).
set -euo pipefail
base_only=no
if [ "${1-}" = --base-only ]; then base_only=yes; shift; fi
debdir=$1 testsuite=$2 results=$3 log=$4
# From the archive, into the base root: what the tests need besides the
# fork's packages (gcc brings the archive's libc6-dev, which the fork's
# replaces).
root_packages=ca-certificates,gcc,dejagnu,sysbench,xz-utils
root=$debdir/root
say() { echo "check-deb: $*"; }
die() { echo "check-deb: error: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "must run as root (mmdebstrap, chroot)"
command -v mmdebstrap >/dev/null || die "mmdebstrap missing (scripts/install-deps.sh)"
mkdir -p "$results" "$(dirname "$log")"
: > "$log"
sum=$results/deb.sum
: > "$sum.tmp"
start=$(date +%s)
pass() { echo "PASS: $*" >> "$sum.tmp"; say "PASS: $*"; }
fail() { echo "FAIL: $*" >> "$sum.tmp"; say "FAIL: $*"; failed=1; }
failed=0

# The packages.
one() {
  local f
  f=$(ls "$1"/"$2"_*.deb 2>/dev/null | head -1)
  [ -n "$f" ] || die "no $2 package in $1 (make deb-glibc deb-kernel)"
  echo "$f"
}
if [ "$base_only" = no ]; then
  debs=(
    "$(one "$debdir/glibc" libc6)" "$(one "$debdir/glibc" libc6-dev)"
    "$(one "$debdir/glibc" libc-bin)" "$(one "$debdir/glibc" libc-dev-bin)"
    "$(one "$debdir/linux" linux-libc-dev)"
  )
  glibc_ver=$(dpkg-deb -f "${debs[0]}" Version)
  kernel_ver=$(dpkg-deb -f "${debs[4]}" Version)
  {
    echo "libc6 $glibc_ver, linux-libc-dev $kernel_ver"
    sed 's/^/glibc build: /' "$debdir/glibc/BUILD-INFO" 2>/dev/null | head -3 || true
  } | sed 's/^/# /' >> "$sum.tmp"
fi

# 1. The root.  Its archive: the machine's deb entries.
cleanup() {
  for m in dev/pts proc sys dev; do
    mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m" || true
  done
}
trap cleanup EXIT
cleanup
# The base root: mmdebstrap's output as a tarball, made again when it is
# a day old (the archive moves), so that a rerun after a rebuild of the
# packages costs seconds; each run unpacks it into a new root.
base=$debdir/bookworm-base.tar
if [ ! -f "$base" ] || [ -n "$(find "$base" -mmin +1440)" ]; then
  mirrors=()
  for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list; do
    [ -f "$f" ] || continue
    case $f in *tpf-deb-src*) continue ;; esac
    grep -qi 'debian' "$f" && mirrors+=("$f")
  done
  [ ${#mirrors[@]} -gt 0 ] || die "no Debian archive entries in /etc/apt"
  say "mmdebstrap --variant=apt bookworm -> $base (log in $log)"
  t0=$(date +%s)
  rm -f "$base.tmp.tar"
  nice -n 19 mmdebstrap --variant=apt --include="$root_packages" bookworm \
    "$base.tmp.tar" "${mirrors[@]}" >> "$log" 2>&1 \
    || { tail -10 "$log" >&2; die "mmdebstrap failed"; }
  mv "$base.tmp.tar" "$base"
  say "base root made in $(( $(date +%s) - t0 )) s"
fi
[ "$base_only" = no ] || exit 0
rm -rf "$root"
mkdir -p "$root"
tar -C "$root" -xf "$base"
pass "Debian 12 root from mmdebstrap ($(date -u -r "$base" +%Y-%m-%dT%H:%MZ), $(basename "$base"))"

mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

# 2. The packages, with apt resolving the rest.
mkdir -p "$root/tmp/tpf-debs"
cp "${debs[@]}" "$root/tmp/tpf-debs/"
say "apt-get install of the fork's packages (gcc dejagnu sysbench xz-utils from the base)"
# mmdebstrap leaves the root without package lists.
if in_root sh -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      /tmp/tpf-debs/*.deb gcc dejagnu sysbench xz-utils' >> "$log" 2>&1; then
  pass "apt-get install libc6 libc6-dev libc-bin libc-dev-bin linux-libc-dev (local) + gcc dejagnu sysbench xz-utils"
else
  tail -20 "$log" >&2
  fail "apt-get install of the packages"
fi

# 3a. The fork is what is installed.
ldd_line=$(in_root ldd --version 2>&1 | head -1 || true)
echo "# ldd --version: $ldd_line" >> "$sum.tmp"
case $ldd_line in *"$glibc_ver"*) pass "ldd --version shows $glibc_ver" ;;
  *) fail "ldd --version shows $glibc_ver (got: $ldd_line)" ;; esac
in_root dpkg -l libc6 libc6-dev libc-bin libc-dev-bin linux-libc-dev 2>&1 \
  | grep '^ii' | tee -a "$log" | awk '{ print "# dpkg -l: " $2, $3 }' >> "$sum.tmp" || true
for p in libc6 libc6-dev libc-bin libc-dev-bin; do
  v=$(in_root dpkg-query -W -f '${Version}' "$p" 2>/dev/null || true)
  [ "$v" = "$glibc_ver" ] && pass "dpkg: $p $v" || fail "dpkg: $p is ${v:-missing}, want $glibc_ver"
done
v=$(in_root dpkg-query -W -f '${Version}' linux-libc-dev 2>/dev/null || true)
[ "$v" = "$kernel_ver" ] && pass "dpkg: linux-libc-dev $v" || fail "dpkg: linux-libc-dev is ${v:-missing}, want $kernel_ver"
if in_root grep -q '^#define FUTEX_LOCK[[:space:]]' /usr/include/linux/futex.h; then
  pass "installed <linux/futex.h> has FUTEX_LOCK"
else
  fail "installed <linux/futex.h> has FUTEX_LOCK"
fi

# 3b. The DejaGnu suite.
rm -rf "$root/tmp/tpf-testsuite" "$root/tmp/tpf-run"
cp -a "$testsuite" "$root/tmp/tpf-testsuite"
mkdir -p "$root/tmp/tpf-run"
say "runtest --tool tpf in the root"
in_root sh -c 'cd /tmp/tpf-run && runtest --tool tpf --srcdir /tmp/tpf-testsuite' >> "$log" 2>&1 || true
if [ -f "$root/tmp/tpf-run/tpf.sum" ]; then
  { echo "# libc6 $glibc_ver, linux-libc-dev $kernel_ver (check-deb, $(date -u +%Y-%m-%dT%H:%MZ))"
    cat "$root/tmp/tpf-run/tpf.sum"; } > "$results/deb-tpf.sum"
  cp "$root/tmp/tpf-run/tpf.log" "$results/deb-tpf.log"
  np=$(grep -c '^PASS: ' "$results/deb-tpf.sum" || true)
  nf=$(grep -Ec '^(FAIL|XPASS|UNRESOLVED|ERROR|UNTESTED): ' "$results/deb-tpf.sum" || true)
  if [ "$nf" = 0 ] && [ "$np" -gt 0 ]; then
    pass "DejaGnu tpf suite: $np passed, 0 failed (deb-tpf.sum)"
  else
    fail "DejaGnu tpf suite: $np passed, $nf failed (deb-tpf.sum)"
    grep -E '^(FAIL|XPASS|UNRESOLVED|ERROR|UNTESTED): ' "$results/deb-tpf.sum" | sed 's/^/  /'
  fi
else
  fail "DejaGnu tpf suite did not run (see $log)"
fi

# 3c. Unmodified Debian programs on the fork, with the tunables.
tun=glibc.pthread.mutex_protocol=3:glibc.pthread.rwlock_kind=3
if in_root env GLIBC_TUNABLES=$tun sysbench mutex --threads=4 --mutex-num=1 \
     --mutex-locks=200000 --mutex-loops=10 run >> "$log" 2>&1; then
  pass "sysbench mutex --threads=4 --mutex-num=1 with GLIBC_TUNABLES=$tun"
else
  fail "sysbench mutex with GLIBC_TUNABLES=$tun"
fi
if in_root env GLIBC_TUNABLES=$tun sysbench threads --threads=8 --thread-locks=1 \
     --time=2 run >> "$log" 2>&1; then
  pass "sysbench threads --threads=8 --thread-locks=1 with GLIBC_TUNABLES=$tun"
else
  fail "sysbench threads with GLIBC_TUNABLES=$tun"
fi
if in_root sh -c "set -e; cd /tmp; seq 1 400000 > xz-in; \
     GLIBC_TUNABLES=$tun xz -T2 --block-size=64KiB -c xz-in > xz-in.xz; \
     GLIBC_TUNABLES=$tun xz --test xz-in.xz; \
     GLIBC_TUNABLES=$tun xz -T2 -d -c xz-in.xz | cmp - xz-in" >> "$log" 2>&1; then
  pass "xz -T2 compress, --test, decompress round trip with GLIBC_TUNABLES=$tun"
else
  fail "xz round trip with GLIBC_TUNABLES=$tun"
fi

echo "END: $(( $(date +%s) - start )) s, exit $failed" >> "$sum.tmp"
mv "$sum.tmp" "$sum"
say "results: $sum, $results/deb-tpf.sum"
grep -c '^PASS' "$sum" | sed 's/^/check-deb: passed: /'
exit "$failed"
