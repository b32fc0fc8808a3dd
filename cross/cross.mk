# cross/cross.mk -- powerpc64: cross build of the fork and its tests under
# qemu-user; i686: the 32-bit x86 build and its tests, run natively.
# Included by Makefile.in; uses its variables (srcdir, SRC, BUILD,
# RESULTS, LOGS, JOBS, KERNEL_HEADERS, check-subset, run-suite).
#
#   cross-build-ppc64le   cross-configure build/src for powerpc64le-linux-gnu
#                         in build/glibc-ppc64le and build what the two
#                         suites below that use it need (the libraries,
#                         ld.so, the crt files, the tests' support library)
#   cross-build-ppc64le-all  then the rest of it (programs, gconv modules):
#                         all of glibc, for check-ppc64le-nptl
#   cross-compile-ppc64   big-endian powerpc64-linux-gnu: configure
#                         build/glibc-ppc64 and compile the fork's new nptl
#                         files (library and tests) only
#   check-ppc-barriers    the lock fast paths' barriers in the cross-built
#                         objects of both (tests/test-ppc-barriers.sh)
#   check-ppc64le-tp      the fork's TP mutex and rwlock tests under
#                         qemu-ppc64le
#   check-ppc64le-nptl    glibc's whole nptl subset under qemu-ppc64le
#   cross-build-i686      cross-configure build/src for i686-linux-gnu in
#                         build/glibc-i686, against the TPF kernel headers,
#                         and build what check-i686-tp needs (as for
#                         powerpc64le)
#   check-i686-tp         the fork's TP mutex and rwlock tests on that
#                         build, run natively: the 32-bit layouts of
#                         pthread_mutex_t and pthread_rwlock_t, and 64-bit
#                         time through futex_time64
#   cross-check           all of the above
#
# `make check' runs all but check-ppc64le-nptl (CHECK_SUITES in
# Makefile.in; the README gives the costs), which is not in its manifest
# either and so runs without a time limit.  The tests run on the host's
# kernel: qemu-user forwards system calls, so the user-space lock paths
# are what runs.

CROSS_LE := powerpc64le-linux-gnu
CROSS_BE := powerpc64-linux-gnu
OBJ_PPC64LE := $(BUILD)/glibc-ppc64le
OBJ_PPC64 := $(BUILD)/glibc-ppc64
cross-build := $(srcdir)/scripts/cross-build.sh
PPC64LE_QEMU_FAILURES := $(srcdir)/tests/ppc64le-qemu-failures.txt
# qemu translates every instruction: give the tests' watchdogs room.
CROSS_TIMEOUTFACTOR := 16

# What check-ppc-barriers and check-ppc64le-tp need of the powerpc64le
# build: glibc's `make lib' (libc.so and libc.a, whose nptl members
# test-ppc-barriers.sh disassembles; ld.so, which elf's lib builds; the
# other libraries; csu's crt files) and the tests' support library,
# which support/ builds among its `others' ($(libsupport) in glibc's
# Makeconfig, for a build with shared libraries).  check-glibc-subset.sh's
# nptl make compiles and links the tests themselves.  Left out are the
# programs, gconv modules and other `others' of every subdirectory,
# which only glibc's whole test suite needs: about half of the full
# build's time (README).
CROSS_LE_SUITE_TARGETS := lib support/libsupport_nonshared.a

# The fork's new nptl files, as objects (the big-endian compile) and the
# fork's lock tests (run under emulation).  The tests that call the futex
# system call include <sys/syscall.h>, whose system call numbers misc's
# make generates (misc/bits/syscall.h): the single-object compile builds
# it first (scripts/cross-build.sh takes the subdirectories in order).
CROSS_NPTL_OBJECTS := misc/bits/syscall.h \
  $(patsubst $(srcdir)/%.c,%.o,$(wildcard $(srcdir)/nptl/*.c))
# The fork's lock tests.
CROSS_LOCK_TESTS := $(notdir $(basename $(wildcard \
  $(srcdir)/nptl/tst-mutex-tp-*.c $(srcdir)/nptl/tst-rwlock-pf-*.c \
  $(srcdir)/nptl/tst-rwlock-tp-*.c)))
# tst-mutex-tp-robust cannot pass under qemu-user (owner death needs the
# kernel's robust list; tests/ppc64le-qemu-failures.txt): it would only
# wait for its timeout here, and check-ppc64le-nptl still runs it.
CROSS_TP_QEMU_UNRUNNABLE := tst-mutex-tp-robust
CROSS_TP_TESTS := $(filter-out $(CROSS_TP_QEMU_UNRUNNABLE),$(CROSS_LOCK_TESTS))

# i686 (Debian's i686-linux-gnu cross compiler): the x86_64 kernel runs
# its programs as they are (scripts/qemu-test-wrapper.sh passes them
# through), so every one of the fork's lock tests runs, and the
# user-space path is what they exercise on a stock kernel.  The kernel
# headers are the TPF series' (its x86 UAPI has the 32-bit system call
# numbers too), so the kernel path is compiled as well.
CROSS_I686 := i686-linux-gnu
OBJ_I686 := $(BUILD)/glibc-i686

.PHONY: cross-assemble cross-build-ppc64le cross-build-ppc64le-all \
	cross-compile-ppc64 cross-build-i686 check-i686-tp \
	check-ppc-barriers check-ppc64le-tp check-ppc64le-nptl cross-check

# The cross builds need only the assembled tree, not the native build.
cross-assemble:
	@$(srcdir)/scripts/assemble-glibc.sh $(SRC)

cross-build-ppc64le: cross-assemble
	@$(cross-build) $(CROSS_LE) $(SRC) $(OBJ_PPC64LE) $(JOBS) \
	  $(CROSS_LE_SUITE_TARGETS)

# After cross-build-ppc64le, not beside it: under make -j the two would
# otherwise run in one object directory at once.
cross-build-ppc64le-all: cross-build-ppc64le
	@$(cross-build) $(CROSS_LE) $(SRC) $(OBJ_PPC64LE) $(JOBS)

cross-compile-ppc64: cross-assemble
	@$(cross-build) $(CROSS_BE) $(SRC) $(OBJ_PPC64) $(JOBS) $(CROSS_NPTL_OBJECTS)

check-ppc-barriers: cross-build-ppc64le cross-compile-ppc64
	@echo "check ppc-barriers: the lock fast paths' barriers, both byte orders"
	@$(run-suite) ppc-barriers $(srcdir)/tests/test-ppc-barriers.sh \
	  $(RESULTS)/ppc-barriers.sum $(OBJ_PPC64LE) $(OBJ_PPC64)
	@$(run-suite) ppc-barriers-mutants $(srcdir)/tests/test-ppc-barriers.sh \
	  --self-test $(RESULTS)/ppc-barriers-mutants.sum $(OBJ_PPC64LE) $(OBJ_PPC64)

check-ppc64le-tp: cross-build-ppc64le
	@TIMEOUTFACTOR=$(CROSS_TIMEOUTFACTOR) $(run-suite) ppc64le-tp \
	  $(check-subset) $(OBJ_PPC64LE) nptl ppc64le-tp "" \
	  $(PPC64LE_QEMU_FAILURES) $(RESULTS) $(JOBS) $(CROSS_TP_TESTS)

check-ppc64le-nptl: cross-build-ppc64le-all
	@mkdir -p $(RESULTS)
	@TIMEOUTFACTOR=$(CROSS_TIMEOUTFACTOR) $(check-subset) $(OBJ_PPC64LE) \
	  nptl ppc64le-nptl "" $(PPC64LE_QEMU_FAILURES) $(RESULTS) $(JOBS)

cross-build-i686: cross-assemble kernel-headers
	@CROSS_HEADERS=$(KERNEL_HEADERS)/include $(cross-build) $(CROSS_I686) \
	  $(SRC) $(OBJ_I686) $(JOBS) $(CROSS_LE_SUITE_TARGETS)

check-i686-tp: cross-build-i686
	@$(run-suite) i686-tp $(check-subset) $(OBJ_I686) nptl i686-tp "" "" \
	  $(RESULTS) $(JOBS) $(CROSS_LOCK_TESTS)

cross-check: check-ppc-barriers check-ppc64le-tp check-ppc64le-nptl \
	check-i686-tp
