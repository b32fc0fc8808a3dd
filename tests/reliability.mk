# tests/reliability.mk -- included from Makefile.in: the reliability
# suites that run on the fork's libc in user space.
#
#   check-valgrind  the TP mutex and phase-fair rwlock tests and the
#                   tpf-stress program under memcheck, helgrind and drd
#                   (tests/valgrind/run-valgrind.sh), about 2 minutes;
#   check-soak      tpf-stress with 24 threads for SOAK_CHECK_SECONDS
#                   (60) on TP mutexes and phase-fair rwlocks
#                   (tests/soak/run-soak.sh), about 65 seconds;
#   check-app       xz and sysbench from Debian, unmodified, on the
#                   fork with TP/phase-fair default locks
#                   (tests/app/run-app.sh check), about 15 seconds;
#   soak            the soak for SOAK_SECONDS (default 3600) with
#                   SOAK_THREADS (24): `make soak SOAK_SECONDS=3600';
#                   results in build/soak/;
#   app-bench       xz, sysbench mutex and threads, memcached under
#                   memcaslap on the fork's libc without and with
#                   APP_BENCH_TUNABLES, in APP_BENCH_REPEAT (5)
#                   interleaved rounds (tests/app/app_bench.py), about
#                   3.5 minutes; build/bench/app-bench.{txt,json};
#   app-lock-profile
#                   the programs of app-bench, 3 rounds under perf
#                   record, with one more figure each: the share of the
#                   program's processor time in lock code, which bounds
#                   what any lock protocol can change in it;
#                   build/bench/app-lock-profile.{txt,json} (perf data
#                   in build/app-bench/perf), about 3 minutes.
# The programs of our own (tpf-stress, tpf-lockprobe.so) are built with
# the host compiler against Debian's headers: to the fork's libc they are
# ordinary unmodified binaries, which is the tunables' use case.

REL_BUILD := $(BUILD)/reliability
REL_CC := gcc
REL_CFLAGS := -O2 -g -Wall -Wextra
TPF_STRESS := $(REL_BUILD)/tpf-stress
TPF_LOCKPROBE := $(REL_BUILD)/tpf-lockprobe.so
SOAK_CHECK_SECONDS := 60
SOAK_SECONDS := 3600
SOAK_THREADS := 24
APP_BENCH_REPEAT := 5
APP_BENCH_TUNABLES := glibc.pthread.mutex_protocol=3:glibc.pthread.rwlock_kind=4
# A regular expression: only the app-bench benchmarks whose name matches.
APP_BENCH_ONLY :=

.PHONY: check-valgrind check-soak check-app soak app-bench app-lock-profile \
	reliability-programs valgrind-tests

$(TPF_STRESS): $(srcdir)/tests/soak/tpf-stress.c
	@mkdir -p $(@D)
	$(REL_CC) $(REL_CFLAGS) -pthread -o $@ $<

$(TPF_LOCKPROBE): $(srcdir)/tests/app/tpf-lockprobe.c
	@mkdir -p $(@D)
	$(REL_CC) $(REL_CFLAGS) -shared -fPIC -o $@ $<

reliability-programs: $(TPF_STRESS) $(TPF_LOCKPROBE)

# The fork's tests that check-valgrind runs (the list and the reasons
# for what is left out are in tests/valgrind/run-valgrind.sh).
valgrind-tests: glibc
	@$(call build-nptl-tests,valgrind,$$($(srcdir)/tests/valgrind/run-valgrind.sh --list))

check-valgrind: valgrind-tests $(TPF_STRESS)
	@echo "check valgrind: memcheck, helgrind, drd; about 2 minutes"
	@$(run-suite) valgrind $(srcdir)/tests/valgrind/run-valgrind.sh \
	  $(OBJ) $(TPF_STRESS) $(RESULTS)/valgrind.sum $(LOGS)/valgrind

check-soak: glibc $(TPF_STRESS)
	@$(run-suite) soak $(srcdir)/tests/soak/run-soak.sh $(OBJ) $(TPF_STRESS) \
	  $(SOAK_CHECK_SECONDS) $(SOAK_THREADS) $(RESULTS)/soak.sum \
	  $(LOGS)/soak.log

check-app: glibc $(TPF_LOCKPROBE)
	@PYTHON3=$(PYTHON3) $(run-suite) app $(srcdir)/tests/app/run-app.sh check \
	  $(OBJ) $(TPF_LOCKPROBE) $(RESULTS)/app.sum $(BUILD)/app-check

soak: glibc $(TPF_STRESS)
	@mkdir -p $(BUILD)/soak
	@$(srcdir)/tests/soak/run-soak.sh $(OBJ) $(TPF_STRESS) \
	  $(SOAK_SECONDS) $(SOAK_THREADS) $(BUILD)/soak/soak.sum \
	  $(BUILD)/soak/soak.log
	@echo "soak: results in $(BUILD)/soak/soak.{sum,log}"

app-bench: glibc
	@mkdir -p $(BUILD)/bench
	@echo "app-bench: $(APP_BENCH_REPEAT) rounds of the programs without and with the tunables"
	@PYTHON3=$(PYTHON3) $(PYTHON3) $(srcdir)/tests/app/app_bench.py \
	  --objdir $(OBJ) --work $(BUILD)/app-bench \
	  --rounds $(APP_BENCH_REPEAT) --tunables $(APP_BENCH_TUNABLES) \
	  $(if $(APP_BENCH_ONLY),--only '$(APP_BENCH_ONLY)') \
	  --json $(BUILD)/bench/app-bench.json --table $(BUILD)/bench/app-bench.txt

app-lock-profile: glibc
	@mkdir -p $(BUILD)/bench
	@echo "app-lock-profile: 3 rounds of the programs under perf record, without and with the tunables"
	@rm -rf $(BUILD)/app-bench/perf
	@PYTHON3=$(PYTHON3) $(PYTHON3) $(srcdir)/tests/app/app_bench.py \
	  --objdir $(OBJ) --work $(BUILD)/app-bench \
	  --rounds 3 --tunables $(APP_BENCH_TUNABLES) \
	  $(if $(APP_BENCH_ONLY),--only '$(APP_BENCH_ONLY)') \
	  --lock-profile $(BUILD)/app-bench/perf \
	  --json $(BUILD)/bench/app-lock-profile.json \
	  --table $(BUILD)/bench/app-lock-profile.txt
