#!/bin/bash
# Boot the test kernel with an initramfs under qemu (TCG), collect the
# serial console, and turn the markers written by kernel/vm/init into a
# DejaGnu-style summary: one "PASS: name" / "FAIL: name" line per test.
#
# Usage: run-vm.sh BZIMAGE INITRAMFS TESTLIST LOG SUM TIMEOUT_SECONDS
# Exit status: 0 if every test in TESTLIST passed and the VM finished.
set -uo pipefail

kernel=$1 initrd=$2 list=$3 log=$4 sum=$5 tmo=$6
mkdir -p "$(dirname "$log")" "$(dirname "$sum")"
qemu=${QEMU:-qemu-system-x86_64}

echo "kernel: booting $qemu -accel tcg -smp 2 -m 1G (timeout ${tmo}s), console in $log"
start=$(date +%s)
timeout --foreground -k 10 "$tmo" "$qemu" -accel tcg -smp 2 -m 1G \
	-nographic -no-reboot -kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 loglevel=4 rdinit=/init" \
	</dev/null 2>&1 | tr -d '\r' | \
	sed -u -e 's/\x1b\[[0-9;?]*[a-zA-Z]//g' -e 's/\x1bc//g' | tee "$log" | \
	grep --line-buffered -E '^TPF-TEST-(BEGIN|END)|^TPF-VM-|^(ok|not ok) |Kernel panic|BUG:|WARNING:' | \
	sed -u 's/^/vm: /'
qrc=${PIPESTATUS[0]}
echo "kernel: qemu finished in $(( $(date +%s) - start ))s (status $qrc)"

pass=0 fail=0
: > "$sum.tmp"
while read -r name cmd; do
	case "$name" in ''|'#'*) continue ;; esac
	rc=$(awk -v n="$name" '$1 == "TPF-TEST-END" && $2 == n { sub(/^rc=/, "", $3); r = $3 }
		END { print r }' "$log")
	if [ "$rc" = 0 ]; then
		echo "PASS: $name" >> "$sum.tmp"; pass=$((pass + 1))
	else
		echo "FAIL: $name" >> "$sum.tmp"; fail=$((fail + 1))
		if [ -n "$rc" ]; then
			echo "kernel: $name: exit status $rc; its last lines:"
			awk -v n="$name" '$1 == "TPF-TEST-BEGIN" && $2 == n { on = 1; next }
				$1 == "TPF-TEST-END" && $2 == n { on = 0 }
				on' "$log" | tail -n 15 | sed 's/^/kernel:   /'
		else
			echo "kernel: $name: no result (timeout or crash)"
		fi
	fi
	# KUnit suites (kunit-run): each case of the KTAP report counts too.
	case "$name" in kunit/*|splat/*)
		awk -v n="$name" '$1 == "TPF-TEST-BEGIN" && $2 == n { on = 1; next }
			$1 == "TPF-TEST-END" && $2 == n { on = 0 }
			on && /^    ok [0-9]+ / { print "PASS: " n "/" $3 }
			on && /^    not ok [0-9]+ / { print "FAIL: " n "/" $4 }' \
			"$log" > "$sum.kunit"
		cat "$sum.kunit" >> "$sum.tmp"
		pass=$((pass + $(grep -c '^PASS:' "$sum.kunit")))
		fail=$((fail + $(grep -c '^FAIL:' "$sum.kunit")))
		rm -f "$sum.kunit"
		;;
	esac
done < "$list"

# The whole run counts as one more test: the VM must finish, and the
# debug kernel must not have reported a lockdep splat, warning or BUG
# before the tests that expect a lockdep report (splat/*, run last by
# vm/init after TPF-EXPECTED-SPLAT-BEGIN; they check their report
# themselves).  A panic anywhere counts.
if grep -q '^TPF-VM-DONE' "$log" && ! grep -q 'Kernel panic' "$log" && \
   ! sed '/^TPF-EXPECTED-SPLAT-BEGIN$/,$d' "$log" | \
	grep -qE 'WARNING:|BUG:|possible recursive locking|circular locking dependency|inconsistent lock state|non-static key'; then
	echo "PASS: vm-kernel-log-clean" >> "$sum.tmp"; pass=$((pass + 1))
else
	echo "FAIL: vm-kernel-log-clean" >> "$sum.tmp"; fail=$((fail + 1))
fi
mv "$sum.tmp" "$sum"
echo "${TPF_LABEL:-vm-check}: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
