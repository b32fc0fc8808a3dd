# kernel/kernel.mk - TPF kernel harness, included by the top-level Makefile.
#
# Uses, defined by the includer: srcdir (absolute repository path), BUILD
# (absolute build directory), NPROC (jobs), PYTHON3 (configure's python3),
# and from upstream.conf LINUX_TARBALL, LINUX_TARBALL_SHA256, LINUX_TOPDIR.
#
# Targets:
#   kernel                 tree in $(BUILD)/linux (git, series as commits,
#                          re-applied only when kernel/patches changed) and
#                          bzImage built in $(BUILD)/linux-obj
#   kernel-checkpatch      checkpatch.pl --strict on every patch
#   vm-check               selftests in a TCG VM -> $(BUILD)/results/vm-check.sum
#   vm-check-kernel        the same without VM_EXTRA_DIRS/VM_EXTRA_LISTS (the
#                          series' own tests only, no glibc build needed)
#                          -> $(BUILD)/results/vm-check-kernel.sum
#   kernel-bench           futex-bench in the VM -> $(BUILD)/bench/kernel-futex.json
#   kernel-patch-queue     prepare $(BUILD)/linux for editing (commit there)
#   kernel-export-patches  write its commits back to kernel/patches + series
#   kernel-lock-figures    locktorture and psrwlock latency figures of the
#                          last vm-check (also printed by vm-check)
#
# Hooks for more in-VM programs:
#   VM_EXTRA_DIRS   directories whose contents are copied into the initramfs
#                   root (cp -a DIR/. ROOT/)
#   VM_EXTRA_LISTS  files that list executables inside the initramfs, one
#                   absolute path a line (no arguments: wrap those in a
#                   script), run by init after the selftests; each counts
#                   as the test "extra/NAME" by its exit status (NAME =
#                   basename).  The files are prerequisites of the VM's
#                   test list: the includer's rules make them
#   VM_CHECK_RUN    a command that vm-check's run in the VM runs under
#                   (the includer's time limit and result check)

KERNEL_SRC       := $(srcdir)/kernel
KERNEL_SCRIPTS   := $(KERNEL_SRC)/scripts
KERNEL_TREE      := $(BUILD)/linux
KERNEL_OBJ       := $(BUILD)/linux-obj
KERNEL_IMAGE     := $(KERNEL_OBJ)/arch/x86/boot/bzImage
KERNEL_VMDIR     := $(BUILD)/vm
KERNEL_LOGDIR    := $(BUILD)/logs
KERNEL_JOBS      := $(or $(NPROC),2)
KERNEL_FUTEX_ST  := $(KERNEL_TREE)/tools/testing/selftests/futex/functional

# Hard limit for one VM run, and for each test inside it (seconds).
VM_TIMEOUT       ?= 900
VM_TEST_TIMEOUT  ?= 240
VM_EXTRA_DIRS    ?=
VM_EXTRA_LISTS   ?=
VM_CHECK_RUN     ?=
# Host compiler for the static test programs (not the includer's $(CC),
# which may point at the glibc under test).
KERNEL_HOSTCC    ?= gcc
# Benchmark parameters (futex-bench options).
KBENCH_ARGS      ?= -t 1,2,4 -r 3 -n 3 -l 10 -w 1 -f ww,pi,tp

.PHONY: kernel kernel-tree kernel-checkpatch kernel-selftests kernel-lock-tests vm-check \
	vm-check-kernel kernel-bench kernel-patch-queue kernel-export-patches kernel-lock-figures

kernel-tree:
	@$(KERNEL_SCRIPTS)/prepare-tree.sh '$(LINUX_TARBALL)' \
		'$(LINUX_TARBALL_SHA256)' '$(LINUX_TOPDIR)' \
		'$(KERNEL_SRC)/patches' '$(KERNEL_TREE)' \
		'$(LINUX_DEB_PACKAGE)' '$(LINUX_DEB_VERSION)'

kernel: kernel-tree
	@$(KERNEL_SCRIPTS)/build-kernel.sh '$(KERNEL_TREE)' '$(KERNEL_OBJ)' \
		'$(KERNEL_SRC)/config.fragment' '$(KERNEL_JOBS)' \
		'$(KERNEL_LOGDIR)/kernel-build.log'

kernel-checkpatch: kernel-tree
	@$(KERNEL_SCRIPTS)/checkpatch.sh '$(KERNEL_TREE)' '$(KERNEL_SRC)/patches'

kernel-selftests: kernel
	@KERNEL_HOSTCC='$(KERNEL_HOSTCC)' $(KERNEL_SCRIPTS)/build-selftests.sh '$(KERNEL_TREE)' '$(KERNEL_OBJ)' \
		'$(KERNEL_VMDIR)/tests' '$(KERNEL_LOGDIR)/selftests-build.log'

# Modules and scripts of the lock tests (vm/lock-tests), into /tests.
KERNEL_LOCK_MODULES := kernel/torture.ko kernel/locking/locktorture.ko \
	kernel/locking/range_lock_kunit.ko kernel/locking/psrwlock_kunit.ko \
	kernel/locking/psrwlock_lockdep_kunit.ko

kernel-lock-tests: kernel-selftests
	@mkdir -p $(KERNEL_VMDIR)/tests/modules
	@cp $(addprefix $(KERNEL_OBJ)/,$(KERNEL_LOCK_MODULES)) $(KERNEL_VMDIR)/tests/modules/
	@cp $(KERNEL_SRC)/vm/kunit-run $(KERNEL_SRC)/vm/splat-run \
		$(KERNEL_SRC)/vm/locktorture-run $(KERNEL_VMDIR)/tests/

# The test list: TP selftests (every futex_lock_* / futex_unlock_* of the
# tree), then the stock futex selftests, the lock tests, then
# the programs of VM_EXTRA_LISTS.
KERNEL_TESTS_LIST = for f in $$(cd $(KERNEL_FUTEX_ST) && ls futex_lock_*.c futex_unlock_*.c | sed 's/\.c$$//'); do \
		echo "$$f /tests/$$f"; done; \
	  grep -v '^\#' $(KERNEL_SRC)/vm/stock-tests; \
	  grep -v '^\#' $(KERNEL_SRC)/vm/lock-tests

$(KERNEL_VMDIR)/tests.list: kernel-selftests kernel-lock-tests $(VM_EXTRA_LISTS) FORCE
	@{ $(KERNEL_TESTS_LIST); \
	  for t in $$(cat $(VM_EXTRA_LISTS) /dev/null); do \
	    echo "extra/$$(basename $$t) $$t"; done; \
	} > $@.tmp && mv $@.tmp $@

$(KERNEL_VMDIR)/tests-kernel.list: kernel-selftests kernel-lock-tests FORCE
	@{ $(KERNEL_TESTS_LIST); } > $@.tmp && mv $@.tmp $@

vm-check: kernel-checkpatch $(KERNEL_VMDIR)/tests.list
	@TPF_VM_TIMEOUT=$(VM_TEST_TIMEOUT) $(KERNEL_SCRIPTS)/mkinitramfs.sh \
		'$(KERNEL_VMDIR)/check.cpio.gz' '$(KERNEL_SRC)/vm/init' \
		'$(KERNEL_VMDIR)/tests.list' '$(KERNEL_VMDIR)/tests' $(VM_EXTRA_DIRS)
	@$(VM_CHECK_RUN) $(KERNEL_SCRIPTS)/run-vm.sh '$(KERNEL_IMAGE)' \
		'$(KERNEL_VMDIR)/check.cpio.gz' '$(KERNEL_VMDIR)/tests.list' \
		'$(BUILD)/results/vm-check.log' '$(BUILD)/results/vm-check.sum' \
		'$(VM_TIMEOUT)'; rc=$$?; \
	$(PYTHON3) $(KERNEL_SCRIPTS)/lock-figures.py '$(BUILD)/results/vm-check.log' || true; \
	exit $$rc

# The kernel's own tests only: no glibc bundle, no VM_EXTRA_* (a quick
# loop while working on the series).
vm-check-kernel: kernel-checkpatch $(KERNEL_VMDIR)/tests-kernel.list
	@TPF_VM_TIMEOUT=$(VM_TEST_TIMEOUT) $(KERNEL_SCRIPTS)/mkinitramfs.sh \
		'$(KERNEL_VMDIR)/check-kernel.cpio.gz' '$(KERNEL_SRC)/vm/init' \
		'$(KERNEL_VMDIR)/tests-kernel.list' '$(KERNEL_VMDIR)/tests'
	@$(KERNEL_SCRIPTS)/run-vm.sh '$(KERNEL_IMAGE)' \
		'$(KERNEL_VMDIR)/check-kernel.cpio.gz' '$(KERNEL_VMDIR)/tests-kernel.list' \
		'$(BUILD)/results/vm-check-kernel.log' '$(BUILD)/results/vm-check-kernel.sum' \
		'$(VM_TIMEOUT)'; rc=$$?; \
	$(PYTHON3) $(KERNEL_SCRIPTS)/lock-figures.py '$(BUILD)/results/vm-check-kernel.log' || true; \
	exit $$rc

# The range lock and psrwlock figures of the last vm-check.
kernel-lock-figures:
	@$(PYTHON3) $(KERNEL_SCRIPTS)/lock-figures.py '$(BUILD)/results/vm-check.log'

# Against the patched kernel's UAPI headers (make kernel-headers in
# Makefile.in), the one source of the TP futex ABI.
$(KERNEL_VMDIR)/bench/futex-bench: $(KERNEL_SRC)/bench/futex-bench.c \
		$(KERNEL_HEADERS)/include/linux/futex.h
	@mkdir -p $(dir $@)
	@echo "kernel: building futex-bench (static)"
	@$(KERNEL_HOSTCC) -static -O2 -Wall -Werror -pthread \
		-I$(KERNEL_HEADERS)/include -o $@ $<

$(KERNEL_HEADERS)/include/linux/futex.h: kernel-headers

kernel-bench: kernel $(KERNEL_VMDIR)/bench/futex-bench
	@echo "futex-bench /tests/futex-bench -j $(KBENCH_ARGS)" > $(KERNEL_VMDIR)/bench.list
	@TPF_VM_TIMEOUT=$(VM_TIMEOUT) $(KERNEL_SCRIPTS)/mkinitramfs.sh \
		'$(KERNEL_VMDIR)/bench.cpio.gz' '$(KERNEL_SRC)/vm/init' \
		'$(KERNEL_VMDIR)/bench.list' '$(KERNEL_VMDIR)/bench'
	@TPF_LABEL=kernel-bench $(KERNEL_SCRIPTS)/run-vm.sh '$(KERNEL_IMAGE)' \
		'$(KERNEL_VMDIR)/bench.cpio.gz' '$(KERNEL_VMDIR)/bench.list' \
		'$(BUILD)/bench/kernel-bench.log' '$(BUILD)/bench/kernel-bench.sum' \
		'$(VM_TIMEOUT)'
	@$(PYTHON3) $(KERNEL_SCRIPTS)/bench-report.py '$(BUILD)/bench/kernel-bench.log' \
		'$(BUILD)/bench/kernel-futex.json'

kernel-patch-queue: kernel-tree
	@echo "kernel: patch queue ready in $(KERNEL_TREE) (branch $$(git -C $(KERNEL_TREE) rev-parse --abbrev-ref HEAD), base tag tpf-base)"
	@echo "kernel: edit there, 'git commit' (or 'git rebase -i tpf-base'), then 'make kernel-export-patches'"
	@git -C $(KERNEL_TREE) log --oneline tpf-base..HEAD

kernel-export-patches:
	@$(KERNEL_SCRIPTS)/export-patches.sh '$(KERNEL_TREE)' '$(KERNEL_SRC)/patches'

FORCE:
