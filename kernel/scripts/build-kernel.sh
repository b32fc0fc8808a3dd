#!/bin/bash
# Configure (tinyconfig + kernel/config.fragment) and build bzImage out of
# tree, printing a progress line every 30 seconds.
#
# Usage: build-kernel.sh TREE OBJ FRAGMENT JOBS LOG
set -euo pipefail

# Do not pass the including make's flags and command-line variables
# (CFLAGS=..., -k, jobserver) down to Kbuild.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

tree=$1 obj=$2 frag=$3 jobs=$4 log=$5
say() { echo "kernel: $*"; }
mkdir -p "$obj" "$(dirname "$log")"

# Regenerate .config when the fragment or the tree's HEAD changed.
id="$(git -C "$tree" rev-parse HEAD) $(sha256sum < "$frag" | cut -d' ' -f1)"
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.tpf-config-id" 2>/dev/null)" != "$id" ]; then
	say "configuring: tinyconfig + $(basename "$frag")"
	make -s -C "$tree" O="$obj" tinyconfig >"$log" 2>&1
	"$tree/scripts/kconfig/merge_config.sh" -O "$obj" -m "$obj/.config" "$frag" >>"$log" 2>&1
	make -s -C "$tree" O="$obj" olddefconfig >>"$log" 2>&1
	# Every option of the fragment must have survived (a typo or an
	# unmet dependency is silently dropped by Kconfig otherwise).
	bad=0
	while IFS='=' read -r k v; do
		case "$k" in CONFIG_*) ;; *) continue ;; esac
		if [ "$v" = n ]; then
			grep -q "^$k=" "$obj/.config" && { echo "kernel: $k is set, wanted n" >&2; bad=1; }
		else
			grep -qx "$k=$v" "$obj/.config" || { echo "kernel: $k=$v did not survive Kconfig" >&2; bad=1; }
		fi
	done < "$frag"
	[ "$bad" = 0 ] || exit 1
	echo "$id" > "$obj/.tpf-config-id"
fi

say "building bzImage and modules (-j$jobs), log in $log"
start=$(date +%s)
make -C "$tree" O="$obj" -j"$jobs" bzImage modules >>"$log" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	for _ in $(seq 30); do
		sleep 1
		kill -0 "$pid" 2>/dev/null || break
	done
	kill -0 "$pid" 2>/dev/null && say "  ... $(( $(date +%s) - start ))s, $(grep -c '^  [A-Z]' "$log") steps, at: $(grep '^  [A-Z]' "$log" | tail -1 | sed 's/^ *//')"
done
if ! wait "$pid"; then
	grep -E 'error|Error' "$log" | head -20 >&2
	echo "kernel: build failed, see $log" >&2
	exit 1
fi
if grep -E '^[^ ]*: warning:' "$log" | grep -q .; then
	grep -E '^[^ ]*: warning:' "$log" | head >&2
	echo "kernel: build produced warnings (see $log)" >&2
	exit 1
fi
say "bzImage ready in $(( $(date +%s) - start ))s: $obj/arch/x86/boot/bzImage"
